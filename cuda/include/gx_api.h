/*
 * gx_api.h - the C API of gpuext's compute devices, used by the gpuext
 * service (src/service.cpp).  No PostgreSQL header, no C++ exception:
 * every call returns a gx_status and writes a message on failure.
 *
 * Two devices run a chunk (gx_program.h) in place:
 *  - the CPU device: gx_cpu_run_chunk(), multi-threaded, synchronous;
 *  - the GPU device: gx_gpu_*(), asynchronous per staging slot, one CUDA
 *    stream and one device buffer per slot; the staging area is pinned
 *    with cudaHostRegister so copies run at PCIe speed, and mapped into
 *    the device's address space so that chunks asking for the mapped
 *    transfer mode (GX_CHUNK_MAPPED) are read and answered in place,
 *    without copies.
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
	GX_CUDA_ERROR,				/* a CUDA call failed; message says which */
	GX_INVALID					/* bad argument or malformed chunk */
} gx_status;

typedef struct gx_gpu_info
{
	char		name[128];
	uint64_t	total_mem;
	int			cc_major;
	int			cc_minor;
	int			sm_count;
	double		mem_bandwidth_gbs;	/* theoretical, from clock and bus width */
	int			mapped;			/* 1: the staging area is mapped (zero-copy
								 * chunks run mapped), 0: copy mode only */
} gx_gpu_info;

/* run a chunk's program on nthreads CPU threads; fills the result area */
gx_status	gx_cpu_run_chunk(gx_chunk *chunk, int nthreads);

/*
 * Cache pools (device-resident column cache): nunits entries of
 * unit_bytes each, owned by the service.  The CPU device's pool is host
 * memory, the GPU's is device memory; both are taken once (a second call
 * with the same sizes is a no-op) and live until the service exits.
 */
gx_status	gx_cpu_cache_open(size_t unit_bytes, int nunits);
gx_status	gx_gpu_cache_open(size_t unit_bytes, int nunits, char *err, size_t errlen);

/* 1 when the library carries CUDA kernels */
int			gx_gpu_built(void);

/*
 * Filter programs compiled at run time by the GPU device (GX_CHUNK_JIT):
 * compiled and failed programs, their total compile time, and the log of
 * the last failure, since the GPU was opened.  All zero without a GPU.
 */
void		gx_gpu_jit_stats(uint64_t *compiled, uint64_t *failed, double *compile_ms,
							 char *last_error, size_t errlen);

/*
 * Open the first GPU: create the context, pin and map the staging area
 * [staging, staging + nslots * slot_bytes) (only pin it if mapping fails:
 * info->mapped = 0) and allocate one device buffer and stream per slot.
 * *info describes the device.  GX_OK with a message in err is a warning.
 */
gx_status	gx_gpu_open(void *staging, int nslots, size_t slot_bytes,
						gx_gpu_info *info, char *err, size_t errlen);

/*
 * start a slot's chunk: copy mode copies the input to the device, runs the
 * kernels and copies the result back; mapped mode (GX_CHUNK_MAPPED, when
 * info->mapped) runs the kernels on the staging area in place
 */
gx_status	gx_gpu_submit(int slot, char *err, size_t errlen);

/*
 * poll a submitted slot; *done = 1 once its result area is in host memory
 * (gx_result.flags: GX_RESULT_GPU, and GX_RESULT_MAPPED if it ran mapped)
 */
gx_status	gx_gpu_poll(int slot, int *done, char *err, size_t errlen);

/* release everything gx_gpu_open() took */
void		gx_gpu_close(void);

#ifdef __cplusplus
}
#endif

#endif							/* GX_API_H */
