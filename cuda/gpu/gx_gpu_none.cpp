/*
 * gx_gpu_none.cpp - the GPU device of a build without nvcc: the library
 * then carries no kernel, every GPU call says so (GX_NO_CUDA), and
 * gx_mem_alloc serves the CPU device alone.  The CPU device still serves
 * every query.
 */
#include "gx_api.h"
#include "gx_guard.h"
#include "gx_ops.h"

#define GX_NO_CUDA_MSG "gpuext was built without CUDA (nvcc not found)"

/* this build carries no CUDA kernel */
extern "C" int
gx_gpu_built(void)
{
	return 0;
}

/* no compiled programs without a GPU */
extern "C" void
gx_gpu_jit_stats(uint64_t *compiled, uint64_t *failed, double *compile_ms,
				 char *last_error, size_t errlen)
{
	GX_API_GUARD_VOID()
	{
		if (compiled)
			*compiled = 0;
		if (failed)
			*failed = 0;
		if (compile_ms)
			*compile_ms = 0;
		if (last_error && errlen)
			last_error[0] = '\0';
	});
}

/* there is no GPU to count */
extern "C" gx_status
gx_gpu_count(int *n, char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		if (n)
			*n = 0;
		gx_errf(err, errlen, GX_NO_CUDA_MSG);
		return GX_NO_CUDA;
	});
}

/* ... nor to open */
extern "C" gx_status
gx_gpu_open(int gpu, void *staging, int nslots, size_t slot_bytes, gx_gpu_info *info,
			char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		(void) gpu;
		(void) staging;
		(void) nslots;
		(void) slot_bytes;
		(void) info;
		gx_errf(err, errlen, GX_NO_CUDA_MSG);
		return GX_NO_CUDA;
	});
}

/* ... nor two to connect */
extern "C" gx_status
gx_gpu_peer(int a, int b, int *enabled, char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		(void) a;
		(void) b;
		if (enabled)
			*enabled = 0;
		gx_errf(err, errlen, GX_NO_CUDA_MSG);
		return GX_NO_CUDA;
	});
}

/* nor a slot to submit to */
extern "C" gx_status
gx_gpu_submit(int gpu, int slot, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		(void) gpu;
		(void) slot;
		(void) ctx;
		gx_errf(err, errlen, GX_NO_CUDA_MSG);
		return GX_NO_CUDA;
	});
}

/* ... or to poll */
extern "C" gx_status
gx_gpu_poll(int gpu, int slot, int *done, char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		(void) gpu;
		(void) slot;
		if (done)
			*done = 0;
		gx_errf(err, errlen, GX_NO_CUDA_MSG);
		return GX_NO_CUDA;
	});
}

/* no background thread */
extern "C" void
gx_gpu_quiesce(void)
{
}

/* nothing to release */
extern "C" void
gx_gpu_close(void)
{
	GX_API_GUARD_VOID()
	{
	});
}

/* CPU memory from the heap; no GPU memory */
extern "C" gx_status
gx_mem_alloc(int device, uint64_t bytes, void **ptr, char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		if (ptr)
			*ptr = NULL;
		if (device == GX_DEV_CPU)
			return gx_cpu_mem_alloc(bytes, ptr, err, errlen);
		if (device >= GX_DEV_GPU && device < GX_DEV_GPU + GX_MAX_GPUS)
		{
			gx_errf(err, errlen, GX_NO_CUDA_MSG);
			return GX_NO_CUDA;
		}
		gx_errf(err, errlen, "unknown device %d", device);
		return GX_INVALID;
	});
}

/* give CPU memory back (there is no GPU memory) */
extern "C" void
gx_mem_free(int device, void *ptr)
{
	GX_API_GUARD_VOID()
	{
		if (device == GX_DEV_CPU)
			gx_cpu_mem_free(ptr);
	});
}
