/*
 * gx_gpu_state.h - the GPU devices' state, shared by the two files of the
 * GPU device: gx_gpu_device.cu (open, close, memory pools, peer access,
 * submit, poll) and gx_gpu.cu (the kernels and the operators' GPU
 * implementations).  Host code; no PostgreSQL header.
 *
 * Design note
 * -----------
 * The service opens every GPU it uses (gx_gpu_open, one call a GPU).  Each
 * has its own memory pool and allocation stream, and for each staging slot
 * a device buffer, a stream and timing events: a slot's task runs on the
 * GPU it was submitted to, so any slot can serve any GPU and the GPUs run
 * tasks at the same time.  The staging area is one, registered once
 * (portable: pinned for every GPU) and mapped into each GPU's address
 * space.
 *
 * gx_gpu_submit and gx_gpu_poll make the GPU they are called for current
 * (cudaSetDevice) and point GD at its state, so an operator's GPU
 * implementation (gx_ops.h: it takes a slot) works on GD->slots[slot] and
 * queues on the current device.  Only the service's thread submits and
 * polls; the filter compilations (gx_jit.cu) never touch this state.
 */
#ifndef GX_GPU_STATE_H
#define GX_GPU_STATE_H

#include "gx_api.h"

#include <cuda_runtime.h>
#include <mutex>
#include <unordered_set>

enum gx_slot_state
{
	GX_SLOT_IDLE = 0,
	GX_SLOT_STAGE1,				/* copy: input copy, kernels, header copy queued */
	GX_SLOT_STAGE2,				/* copy: sel copy queued */
	GX_SLOT_MAPPED,				/* mapped: kernels queued, no copy */
	GX_SLOT_DONE
};

enum
{
	GX_EV_H2D_START = 0,
	GX_EV_H2D_END,				/* copy: also the start of the kernels */
	GX_EV_KERNEL_START,			/* mapped: before the first kernel */
	GX_EV_KERNEL_END,			/* after the last kernel */
	GX_EV_S1_END,
	GX_EV_S2_START,
	GX_EV_S2_END,
	GX_NEVENTS
};

/* a staging slot on one GPU */
typedef struct gx_slot
{
	char	   *dev;			/* device buffer of slot_bytes (from the pool) */
	cudaStream_t stream;
	cudaEvent_t ev[GX_NEVENTS];
	int			state;
	int			jit;			/* the filter ran a compiled kernel */
	int			copy_sel;		/* the selection comes back (else the header only) */
	uint32_t	sel_width;		/* bytes of a selection entry (a group record) */
	uint64_t	sel_at;			/* where the entries lie in the task (JOIN_PROBE),
								 * 0: at gx_result_sel() */
	/*
	 * a gathering JOIN_PROBE (ngather > 0): its gval / gnull arrays in the
	 * task (gx_join_gather_off), gather_n columns of gather_pitch
	 * (max_pairs) entries, of which the first nsel come back
	 */
	uint32_t	gather_n;		/* 0: none */
	uint32_t	gather_pitch;
	uint64_t	gather_at;
	uint64_t	gather_nulls_at;
	uint64_t	bytes_h2d;
	uint64_t	bytes_d2h;
	uint64_t	mem_seq;		/* the allocations its stream is ordered after */
} gx_slot;

/* one GPU */
typedef struct gx_gpu_dev
{
	int			open;
	int			ordinal;		/* CUDA device number */
	int			sm_count;
	int			mapped;			/* the staging area is mapped: staging_dev is its alias */
	int			jit;			/* compiled filter kernels run here (gx_jit.cu's
								 * architecture is this GPU's) */
	char	   *staging_dev;	/* device address of the staging area */
	gx_slot    *slots;
	cudaMemPool_t pool;			/* device memory (gx_mem_alloc) */
	cudaStream_t mem_stream;	/* the pool's allocations and frees */
	cudaEvent_t mem_ev;			/* recorded on mem_stream after each allocation */
	uint64_t	mem_seq;		/* allocations so far (written under gx_mem_mu,
								 * read atomically) */
	std::unordered_set<void *> *live;	/* blocks not freed yet, under gx_mem_mu */
} gx_gpu_dev;

/* the staging area, one for every GPU */
typedef struct gx_gpu_staging
{
	char	   *base;
	int			nslots;
	size_t		slot_bytes;
	int			pinned;			/* registered with CUDA (portable) */
	int			mapped;			/* ... and mapped into the GPUs' address spaces */
} gx_gpu_staging;

extern gx_gpu_staging GS;
/* the GPU whose task is being queued or polled (gx_gpu_submit, gx_gpu_poll) */
extern gx_gpu_dev *GD;

/* write the message of CUDA error e in 'what' to err; returns GX_CUDA_ERROR */
gx_status	gx_cuda_fail(cudaError_t e, const char *what, char *err, size_t errlen);

#define GX_CHECK(call, what) \
	do { \
		cudaError_t gx_e_ = (call); \
		if (gx_e_ != cudaSuccess) \
			return gx_cuda_fail(gx_e_, (what), err, errlen); \
	} while (0)

/* per GPU at open, the current device: the kernels' attributes (gx_gpu.cu) */
gx_status	gx_gpu_kernels_init(char *err, size_t errlen);

#endif							/* GX_GPU_STATE_H */
