/*
 * gx_gpu_none.cpp - the GPU device of a build without nvcc: the library
 * then carries no kernel and gx_gpu_open() says so.  The CPU device still
 * serves every query.
 */
#include "gx_api.h"
#include <stdio.h>

extern "C" int
gx_gpu_built(void)
{
	return 0;
}

extern "C" void
gx_gpu_jit_stats(uint64_t *compiled, uint64_t *failed, double *compile_ms,
				 char *last_error, size_t errlen)
{
	*compiled = *failed = 0;
	*compile_ms = 0;
	if (last_error && errlen)
		last_error[0] = '\0';
}

extern "C" gx_status
gx_gpu_open(void *staging, int nslots, size_t slot_bytes, gx_gpu_info *info,
			char *err, size_t errlen)
{
	(void) staging;
	(void) nslots;
	(void) slot_bytes;
	(void) info;
	snprintf(err, errlen, "gpuext was built without CUDA (nvcc not found)");
	return GX_NO_CUDA;
}

extern "C" gx_status
gx_gpu_submit(int slot, char *err, size_t errlen)
{
	(void) slot;
	snprintf(err, errlen, "gpuext was built without CUDA");
	return GX_NO_CUDA;
}

extern "C" gx_status
gx_gpu_poll(int slot, int *done, char *err, size_t errlen)
{
	(void) slot;
	*done = 0;
	snprintf(err, errlen, "gpuext was built without CUDA");
	return GX_NO_CUDA;
}

extern "C" void
gx_gpu_close(void)
{
}

extern "C" gx_status
gx_gpu_cache_open(size_t unit_bytes, int nunits, char *err, size_t errlen)
{
	(void) unit_bytes;
	(void) nunits;
	snprintf(err, errlen, "gpuext was built without CUDA");
	return GX_NO_CUDA;
}
