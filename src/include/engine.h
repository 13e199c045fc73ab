/*
 * engine.h - the device engine, PostgreSQL side: the shared memory between
 * backends and the gpuext service (staging slots that carry tasks),
 * sessions and their device-resident objects, the accounting of device
 * memory, and the service that owns the devices.  docs/engine.md is the
 * contract the operators build on.
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

typedef struct GxSlot
{
	slock_t		mutex;
	int			state;			/* GxSlotState */
	int			owner_pid;
	Latch	   *owner_latch;	/* set by the service when the slot is DONE */
	int			device;			/* gx_dev_kind requested */
	int			cache_entry;	/* cache entry the chunk reads or fills, or -1 */
	uint64		cache_seq;		/* the cache's stale_seq when it was pinned */
	bool		hold_entry;		/* DONE, its task to be submitted again (a
								 * partitioned GpuJoin's batch, on its way
								 * to the next device): the entry stays
								 * pinned */
	int			failed;			/* device reported an error */
	int			failcode;		/* GX_FAIL_*: what kind of failure */
	char		errmsg[256];
} GxSlot;

/* GxSlot.failcode */
#define GX_FAIL_DEVICE 0		/* a device or task error */
#define GX_FAIL_MEMORY 1		/* out of device memory */
#define GX_FAIL_RESTART 2		/* the service died while it ran */

/* ---- devices (devices.cpp; the service fills the table at its start) ---- */
/*
 * The devices of the engine, numbered by the service when it starts: 0 is
 * the CPU device; 1 .. n the GPUs it opened, in CUDA order (so device
 * GX_DEV_GPU is the first GPU); after them the extra CPU devices of
 * gpuext.cpu_devices (tests of the multi-device paths on hosts without
 * several GPUs: they share the CPU device's threads and memory).  Every
 * session, object, cache unit and task names its device by this number.
 */
#define GX_MAX_DEVICES 16
#define GX_MAX_CPU_DEVICES 4

typedef struct GxDevice
{
	int			kind;			/* gx_dev_kind */
	int			api;			/* the device of gx_mem_alloc: GX_DEV_CPU, or
								 * GX_DEV_GPU + the CUDA ordinal */
	char		name[16];		/* "cpu", "cpu1", "gpu0": gpuext.devices' names */
	uint32		peers;			/* devices whose memory its tasks may name
								 * (itself included): peer-to-peer GPUs; the
								 * CPU devices share one address space */
	gx_gpu_info gpu;			/* a GPU: what the service found */
	pg_atomic_uint32 inflight;	/* tasks submitted to it and not finished:
								 * its load, for the placement of chunks */
} GxDevice;

/* a set of devices a plan node may use (gx_resolve_devset) */
typedef struct GxDevSet
{
	int			n;
	int			dev[GX_MAX_DEVICES];	/* the home device first */
	uint32		mask;
	uint32		next;			/* gx_devset_pick's turn among equally loaded */
} GxDevSet;

typedef struct GxShared
{
	slock_t		mutex;
	int			service_pid;	/* 0 while no service runs */
	uint32		generation;		/* bumped at each service start */
	Latch	   *service_latch;
	int			gpu_state;		/* 0 unknown, 1 a GPU is usable, -1 none */
	char		gpu_message[256];
	int			ndevices;		/* entries of devs[] (the service writes them
								 * before gpu_state) */
	int			ngpus;			/* devices 1 .. ngpus are GPUs */
	GxDevice	devs[GX_MAX_DEVICES];
	int			cpu_threads;
	ConditionVariable done_cv;	/* broadcast when a slot becomes FREE (a DONE
								 * slot's owner is woken through its latch) */
	pg_atomic_uint32 nspinning;	/* backends polling a slot (gx_slot_wait) */
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
bool		gx_slot_wait_memory(int slot, uint32 generation);
bool		gx_slot_finished(int slot);
void		gx_raise_error(int code);	/* a device error code as PostgreSQL's ERROR */
void		gx_slot_hold_entry(int slot);
void		gx_slot_release(int slot);
int			gx_resolve_device(void);
void		gx_resolve_devset(GxDevSet *set);
bool		gx_try_resolve_devset(GxDevSet *set);
uint32		gx_service_generation(void);

/* devices.cpp: the device table */
static inline bool
gx_device_is_gpu(int device)
{
	return device > 0 && device < gx_shared->ndevices &&
		gx_shared->devs[device].kind == GX_DEV_GPU;
}
static inline const char *
gx_device_name(int device)
{
	return device >= 0 && device < gx_shared->ndevices ? gx_shared->devs[device].name : "?";
}
/* may a task on device a name the memory of device b? */
static inline bool
gx_device_reaches(int a, int b)
{
	return a == b || (a >= 0 && a < gx_shared->ndevices && b >= 0 && b < GX_MAX_DEVICES &&
					  (gx_shared->devs[a].peers & (1u << b)) != 0);
}
/* a name of gpuext.devices: GX_DEVNAME_BAD, GX_DEVNAME_GPUS ("gpu"), or a device's */
#define GX_DEVNAME_BAD (-1)
#define GX_DEVNAME_GPUS (-2)
#define GX_DEVNAME_GPU(ordinal) (1000 + (ordinal))
#define GX_DEVNAME_CPU(n) (2000 + (n))
int			gx_device_parse(const char *name);
int			gx_devices_open(int nthreads, char *msg, size_t msglen);
gx_status	gx_device_alloc(int device, uint64 bytes, void **ptr, char *err, size_t errlen);
void		gx_device_free(int device, void *ptr);
void		gx_device_task_done(int device);
void		gx_devset_one(GxDevSet *set, int device);
void		gx_devset_reaching(GxDevSet *set, int home);
int			gx_devset_pick(GxDevSet *set);
int			gx_devset_index(const GxDevSet *set, int device);
const char *gx_devset_names(const GxDevSet *set, char *buf, size_t len);
char	   *gx_device_mask_names(uint32 mask, int first);

/* ---- sessions and their objects (session.cpp) ---- */
/*
 * A session is what one plan node (or a cache load) holds on the engine
 * from its start to its end: the tasks it submits name it, and the
 * device-resident objects it creates (aggregate states today; hash tables,
 * sorted runs, group tables later) belong to it and live until it closes.
 * The tables below are in shared memory, so that backends open and close
 * sessions without a round trip and views list them; object addresses are
 * meaningful in the service only, which alone allocates and frees them.
 */
#define GX_MAX_SESSIONS 512
#define GX_MAX_OBJECTS 2048
#define GX_ID_INDEX_BITS 12		/* id = generation << 12 | index + 1 */

typedef enum GxSessionState
{
	GX_SESSION_FREE = 0,
	GX_SESSION_OPEN,			/* tasks may name it */
	GX_SESSION_CLOSING			/* its owner is done: the service frees its
								 * objects once none of its tasks runs */
} GxSessionState;

typedef enum GxObjectKind
{
	GX_OBJ_AGG_STATE = 1,		/* gx_agg_pair stripes (gx_program.h) */
	GX_OBJ_GROUP_TABLE,			/* a GROUP BY table (gx_group_hdr + slots) */
	GX_OBJ_JOIN_TABLE,			/* a hash join's table (gx_join_layout) */
	GX_OBJ_JOIN_COLS,			/* a join table's inner columns (gx_join_cols_bytes) */
	GX_OBJ_SETS,				/* a scan's big sets (int64 values) */
	GX_OBJ_PTREE_IMAGE,			/* a prefix-tree index's device image (gx_ptree.h) */
	GX_OBJ_JOIN_SCRATCH			/* a merge probe's scratch (gx_jmerge_probe_layout) */
} GxObjectKind;

typedef struct GxSession
{
	int			state;			/* GxSessionState */
	uint32		id;				/* 0 while free */
	uint32		generation;		/* bumped when the slot is reused */
	int			owner_pid;
	int			device;			/* its home device: where its objects are made */
	uint32		devices;		/* mask of the devices its tasks may run on */
	Oid			dbid;
	uint64		mem_limit;		/* bytes its objects may take, 0 = no limit
								 * (gpuext.session_memory when opened) */
	uint64		bytes;			/* bytes its objects hold (service writes) */
	int			nobjects;
	TimestampTz opened;
} GxSession;

typedef struct GxObject
{
	uint32		handle;			/* 0 while free */
	uint32		generation;
	uint32		session;		/* owner session id */
	int			device;
	int			kind;			/* GxObjectKind */
	uint64		bytes;
	uint64		addr;			/* device address (the service's) */
} GxObject;

/* device memory in use per device and owner, bytes (service writes) */
typedef struct GxMemory
{
	pg_atomic_uint64 staging;	/* device buffers of the staging slots */
	pg_atomic_uint64 cache;		/* cache entries */
	pg_atomic_uint64 sessions;	/* session objects */
	pg_atomic_uint64 shared;	/* shared objects (shared_objects.h) */
} GxMemory;

typedef struct GxEngine
{
	LWLock	   *lock;			/* sessions and objects */
	pg_atomic_uint32 reclaim;	/* 1: a session is closing (service frees it) */
	GxMemory	mem[GX_MAX_DEVICES];
	GxSession	sessions[GX_MAX_SESSIONS];
	GxObject	objects[GX_MAX_OBJECTS];
} GxEngine;

extern GxEngine *gx_engine;

Size		gx_engine_shmem_size(void);
void		gx_engine_shmem_request(void);
void		gx_engine_shmem_init(void);

/* backend side */
uint32		gx_session_open(int device);
uint32		gx_session_open_set(const GxDevSet *set);
void		gx_session_close(uint32 id);
uint32		gx_session_alloc(uint32 session, int device, uint64 bytes, int kind);
uint32		gx_session_try_alloc(uint32 session, int device, uint64 bytes, int kind);
bool		gx_session_alloc_each(uint32 session, const int *devices, int n, uint64 bytes,
								  int kind, bool must, uint32 *handles);
void		gx_task_init(gx_chunk *c, uint32 kind, uint32 session);
void		gx_task_init_plain(gx_chunk *c, uint32 kind, uint32 session);
uint64		gx_task_put_int8_col(gx_chunk *c, int col, uint64 at, const Datum *vals,
								 const bool *nulls, uint32 n);
void		gx_session_write(uint32 session, int device, uint32 obj, const char *src,
							 uint64 dst, uint64 len);
void		gx_session_backend_exit(void);

/* service side */
GxSession  *gx_session_lookup(uint32 id);
GxObject   *gx_object_lookup(uint32 handle);
void		gx_engine_service_reset(void);
const char *gx_object_memory(GxObject *o, char *err, size_t errlen, bool *oom);
bool		gx_sessions_reclaim(const int *inflight);
uint64		gx_memory_used(int device);
bool		gx_memory_over_limit(int device, uint64 bytes);
void		gx_service_wake(void);
uint32		gx_take_fault(void);

/* ---- service (service.cpp) ---- */
void		gx_register_service(void);
extern "C" PGDLLEXPORT void gpuext_service_main(Datum arg);

#endif							/* GX_ENGINE_H */
