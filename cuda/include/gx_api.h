/*
 * gx_api.h - the C API of gpuext's compute devices, used by the gpuext
 * service (src/engine/service.cpp).  No PostgreSQL header, no C++
 * exception: every call returns a gx_status and writes a message on
 * failure; one guard (GX_API_GUARD, gx_guard.h) sits at every entry.
 *
 * Design note
 * -----------
 * The service runs tasks (gx_program.h: a header with a kind, then the
 * kind's payload) on devices of two kinds:
 *  - the CPU device: gx_cpu_run(), synchronous, on a persistent pool of
 *    threads opened once by gx_cpu_open();
 *  - a GPU: gx_gpu_submit() queues a task on its staging slot's stream on
 *    that GPU, gx_gpu_poll() completes it; the staging area is pinned (and
 *    mapped, for the zero-copy transfer mode).
 * Both look the task's kind up in the operator table (gx_ops.h), whose
 * entry validates the task the same way for both devices and then runs
 * the device's implementation.  A task never names memory by address:
 * the service resolves the cache entry and the session objects it names
 * (handles) and passes their device addresses in a gx_task_ctx.
 *
 * Device memory comes from one pool per device (gx_mem_alloc): on the GPU a
 * stream-ordered CUDA memory pool, on the CPU device the heap.  The
 * service owns it: staging buffers, cache entries and session objects are
 * its clients, and the service accounts for every byte against
 * gpuext.device_memory before it asks.
 *
 * Several GPUs: the service opens each GPU it uses (gx_gpu_open with its
 * CUDA ordinal); each has its own pool and, per staging slot, its own
 * stream and device buffer, so any slot's task can run on any GPU and the
 * GPUs run at the same time.  gx_gpu_peer lets two GPUs read and write
 * each other's memory.  Memory is named by device number: GX_DEV_CPU, or
 * GX_DEV_GPU + the GPU's ordinal (GX_DEV_GPU alone: the first GPU).
 *
 * Without nvcc the library is built with gx_gpu_none.cpp, whose
 * gx_gpu_open() reports that the build has no CUDA.
 */
#ifndef GX_API_H
#define GX_API_H

#include <stddef.h>
#include <stdint.h>
#include "gx_program.h"

#ifdef __cplusplus
extern "C"
{
#endif

typedef enum gx_status
{
	GX_OK = 0,
	GX_NO_CUDA,					/* library built without CUDA */
	GX_NO_DEVICE,				/* no usable GPU / driver */
	GX_CUDA_ERROR,				/* a CUDA call failed; message says which:
								 * the device is unusable until reopened */
	GX_INVALID,					/* bad argument or malformed task: only this
								 * task fails */
	GX_NO_MEMORY				/* the device (or host) has no memory for it */
} gx_status;

/* device kinds; gx_mem_alloc's device: GX_DEV_CPU, or GX_DEV_GPU + ordinal */
typedef enum gx_dev_kind
{
	GX_DEV_CPU = 0,
	GX_DEV_GPU = 1
} gx_dev_kind;

/* the most GPUs one service opens */
#define GX_MAX_GPUS 8

typedef struct gx_gpu_info
{
	char		name[128];
	int			ordinal;		/* CUDA device number */
	uint64_t	total_mem;
	int			cc_major;
	int			cc_minor;
	int			sm_count;
	double		mem_bandwidth_gbs;	/* theoretical, from clock and bus width */
	int			mapped;			/* 1: the staging area is mapped (zero-copy
								 * chunks run mapped), 0: copy mode only */
} gx_gpu_info;

/*
 * What the service resolved for a task: the memory of the cache entry it
 * reads or fills, and of the session objects it names (task->obj[i]), on
 * the device that runs it.  NULL / 0 where the task names none.
 */
#define GX_TASK_MAX_AFTER 16

typedef struct gx_task_ctx
{
	char	   *entry;
	uint64_t	entry_bytes;
	char	   *obj[GX_TASK_MAX_OBJS];
	uint64_t	obj_bytes[GX_TASK_MAX_OBJS];
	/*
	 * GPU: staging slots whose task in flight this one must follow (its
	 * kernels start after theirs ended: a pipeline step, or a read of a
	 * state they add into), and the GPU (ordinal) each runs on, this one
	 * or a peer; the CPU device runs tasks one at a time.
	 */
	int			after[GX_TASK_MAX_AFTER];
	int			after_gpu[GX_TASK_MAX_AFTER];
	int			nafter;
} gx_task_ctx;

/* the level objects of a multi-level group probe in ctx (gx_program.h, GX_JOIN_OBJ_LEVEL) */
static inline gx_jlevel_objs
gx_jlevel_objs_of(const gx_task_ctx *ctx)
{
	gx_jlevel_objs o;

	for (int l = 1; l < GX_JOIN_MAX_LEVELS; l++)
	{
		o.tab[l - 1] = ctx->obj[GX_JOIN_OBJ_LEVEL(l)];
		o.cols[l - 1] = ctx->obj[GX_JOIN_OBJ_LEVEL_COLS(l)];
	}
	return o;
}

/* ---- CPU device ---- */

/*
 * Start the persistent pool: nthreads threads run each task, the calling
 * thread included (nthreads - 1 workers are created, with every signal
 * blocked).  If fewer threads can be created, the pool runs with those:
 * *started says how many run a task (>= 1 counting the caller; == nthreads
 * when all started) and err holds a warning, with GX_OK.  A second call is
 * a no-op (*started: the pool's size).
 */
gx_status	gx_cpu_open(int nthreads, int *started, char *err, size_t errlen);

/*
 * validate and run a task in place on the pool (on the calling thread
 * alone if gx_cpu_open was not called); fills its result area.  slot_bytes:
 * the bytes of the task's slot, which bound its offsets.
 */
gx_status	gx_cpu_run(gx_chunk *task, uint64_t slot_bytes, const gx_task_ctx *ctx,
					   char *err, size_t errlen);

/* stop and join the pool's threads (later tasks run on the calling thread) */
void		gx_cpu_close(void);

/* ---- GPU device ---- */

/* 1 when the library carries CUDA kernels */
int			gx_gpu_built(void);

/*
 * The GPUs the driver shows (at most GX_MAX_GPUS; CUDA_VISIBLE_DEVICES
 * applies): GX_NO_DEVICE without one, GX_NO_CUDA in a build without CUDA.
 */
gx_status	gx_gpu_count(int *n, char *err, size_t errlen);

/*
 * Open GPU 'gpu' (its CUDA ordinal): create its context and memory pool,
 * pin and map the staging area [staging, staging + nslots * slot_bytes)
 * (the first GPU opened registers it, portable; each GPU maps it; only
 * pinned if mapping fails: info->mapped = 0) and take one device buffer
 * (from the pool) and one stream per slot.  Every GPU must be given the
 * same staging area.  *info describes the device.  GX_OK with a message
 * in err is a warning.
 */
gx_status	gx_gpu_open(int gpu, void *staging, int nslots, size_t slot_bytes,
						gx_gpu_info *info, char *err, size_t errlen);

/*
 * Let open GPUs a and b read and write each other's memory (both ways):
 * *enabled = 1 when they can (NVLink or PCIe peer to peer), else 0 and
 * tasks of one must not name the other's memory.
 */
gx_status	gx_gpu_peer(int a, int b, int *enabled, char *err, size_t errlen);

/*
 * Validate a slot's task and queue it on GPU 'gpu', on the slot's stream
 * there: copy mode copies the input to the device, runs the kernels and
 * copies the result back; mapped mode (GX_CHUNK_MAPPED, when info->mapped)
 * runs the kernels on the staging area in place.  GX_INVALID: the task is
 * malformed, nothing was queued, the device stays usable.  The memory ctx
 * names is this GPU's or a peer's.
 */
gx_status	gx_gpu_submit(int gpu, int slot, const gx_task_ctx *ctx, char *err, size_t errlen);

/*
 * poll a slot submitted to GPU 'gpu'; *done = 1 once its result area is in
 * host memory (gx_result.flags: GX_RESULT_GPU, and GX_RESULT_MAPPED if it
 * ran mapped)
 */
gx_status	gx_gpu_poll(int gpu, int slot, int *done, char *err, size_t errlen);

/*
 * Filter programs compiled at run time by the GPU device (GX_CHUNK_JIT):
 * compiled and failed programs, their total compile time, and the log of
 * the last failure, since the GPU was opened.  All zero without a GPU.
 */
void		gx_gpu_jit_stats(uint64_t *compiled, uint64_t *failed, double *compile_ms,
							 char *last_error, size_t errlen);

/* release every GPU gx_gpu_open() took, the pools and their blocks included */
void		gx_gpu_close(void);

/*
 * Before the process exits: wait (a few seconds at most) for the GPU
 * device's background threads, the filter compilations, to finish, so
 * that no thread runs inside NVRTC while exit() tears libraries down.
 */
void		gx_gpu_quiesce(void);

/* ---- device memory (one pool per device) ---- */

/*
 * Allocate bytes of zeroed memory on a device (GX_DEV_CPU: host memory of
 * the service; GX_DEV_GPU + ordinal: that GPU's pool, once gx_gpu_open
 * succeeded for it);
 * usable by any task submitted afterwards.  On the GPU the zeroing is
 * queued, not waited for: tasks are ordered after it, anything else that
 * reads or writes the block (a test's cudaMemcpy) synchronizes the device
 * first, and after a write, before a task reads it (the slots' streams do
 * not wait for the legacy stream).  GX_NO_MEMORY when the device
 * has none left; GX_NO_CUDA for the GPU of a build without CUDA.
 */
gx_status	gx_mem_alloc(int device, uint64_t bytes, void **ptr, char *err, size_t errlen);

/*
 * Give memory back to its device's pool.  The caller guarantees that no
 * task in flight uses it.
 */
void		gx_mem_free(int device, void *ptr);

#ifdef __cplusplus
}
#endif

#endif							/* GX_API_H */
