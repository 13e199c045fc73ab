/*
 * gx_jit.h - run-time compiled filter kernels (gx_jit.cu), used by the GPU
 * device (gx_gpu.cu) only.  Host code; no PostgreSQL header, no C++
 * exception leaves these functions.
 */
#ifndef GX_JIT_H
#define GX_JIT_H

#include "gx_program.h"

#include <cuda_runtime.h>

/*
 * Called by gx_gpu_open() for each GPU: the first sets the target
 * architecture; returns 1 when compiled kernels run on a GPU of this
 * compute capability (0: that GPU runs the interpreter)
 */
int			gx_jit_open(int cc_major, int cc_minor);

/*
 * The compiled filter kernel for the program of chunk c, or NULL: the
 * caller then runs the interpreter.  The first request for a program
 * starts its compilation in a background thread and returns NULL (or, with
 * wait, compiles it in the calling thread); a program that failed to
 * compile is not tried again.  Must be called from the thread that owns
 * the CUDA contexts (it loads compiled code), with the GPU that runs the
 * kernel current (its shared memory attribute is set per GPU).  The kernel takes the
 * arguments of gx_filter_kernel (gx_gpu.cu), the aggregate state last.
 */
const void *gx_jit_kernel(const gx_chunk *c, int wait);

/*
 * wait up to timeout_ms for the compiling threads to finish (the process
 * exits next); new compilations are refused from now on
 */
void		gx_jit_quiesce(int timeout_ms);

/* unload every compiled kernel; called by gx_gpu_close() */
void		gx_jit_close(void);

/*
 * counters since gx_jit_open(): programs compiled, failed, programs known,
 * total compile time; last_error gets the log of the last failure
 */
void		gx_jit_stats(uint64_t *compiled, uint64_t *failed, uint64_t *cached,
						 double *compile_ms, char *last_error, size_t errlen);

#endif							/* GX_JIT_H */
