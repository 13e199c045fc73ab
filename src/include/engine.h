/*
 * engine.h - the engine of the PostgreSQL side: shared memory between backends
 * and the gpuext service (staging slots), and the service itself.
 */
#ifndef GX_ENGINE_H
#define GX_ENGINE_H

#include "gpuext.h"

/* ---- shared memory (shmem.cpp) ---- */
#define GX_SLOT_BYTES ((Size) 16 * 1024 * 1024)
/* backends poll a slot of cached columns this long before sleeping */
#define GX_WAIT_SPIN_US 100

typedef enum GxSlotState
{
	GX_SLOT_FREE = 0,
	GX_SLOT_FILLING,			/* owned by a backend, being written */
	GX_SLOT_SUBMITTED,			/* waiting for the service */
	GX_SLOT_RUNNING,			/* the service works on it */
	GX_SLOT_DONE,				/* result ready for the owner */
	GX_SLOT_ABANDONED			/* owner gone; the service frees it */
} GxSlotState;

typedef enum GxDevKind
{
	GX_DEV_CPU = 0,
	GX_DEV_GPU = 1
} GxDevKind;

typedef struct GxSlot
{
	slock_t		mutex;
	int			state;			/* GxSlotState */
	int			owner_pid;
	int			device;			/* GxDevKind requested */
	int			cache_entry;	/* cache entry the chunk reads or fills, or -1 */
	int			failed;			/* device reported an error */
	char		errmsg[256];
} GxSlot;

typedef struct GxShared
{
	slock_t		mutex;
	int			service_pid;	/* 0 while no service runs */
	uint32		generation;		/* bumped at each service start */
	Latch	   *service_latch;
	int			gpu_state;		/* 0 unknown, 1 usable, -1 none */
	char		gpu_message[256];
	gx_gpu_info gpu;
	int			cpu_threads;
	ConditionVariable done_cv;	/* broadcast when a slot becomes DONE/FREE */
	int			nslots;
	Size		slot_bytes;
	GxSlot		slots[FLEXIBLE_ARRAY_MEMBER];
} GxShared;

extern GxShared *gx_shared;
extern char *gx_staging;

void		gx_shmem_init_hooks(void);
static inline gx_chunk *
gx_slot_chunk(int slot)
{
	return (gx_chunk *) (gx_staging + (Size) slot * gx_shared->slot_bytes);
}

/* backend side of slot ownership (shmem.cpp) */
int			gx_slot_acquire(bool wait);
void		gx_slot_submit(int slot, int device);
void		gx_slot_wait(int slot, uint32 generation, int spin_us);
void		gx_slot_release(int slot);
int			gx_resolve_device(void);
uint32		gx_service_generation(void);

/* ---- service (service.cpp) ---- */
void		gx_register_service(void);
extern "C" PGDLLEXPORT void gpuext_service_main(Datum arg);

#endif							/* GX_ENGINE_H */
