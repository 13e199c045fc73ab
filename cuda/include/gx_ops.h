/*
 * gx_ops.h - the operator table of the devices: one entry per device task
 * kind (gx_program.h, enum gx_task_kind).  Internal to cuda/ (host code,
 * C++); the service sees only gx_api.h.
 *
 * Design note
 * -----------
 * An entry has the operator's name, ONE validator shared by both devices
 * and one implementation per device:
 *  - validate: host code that checks everything a device implementation
 *    relies on (counts, offsets inside the slot or the cache entry,
 *    program instructions and jumps, columns, aggregates, the memory the
 *    service resolved in the gx_task_ctx), so that a malformed task can
 *    neither read nor write out of bounds nor loop: GX_INVALID, and no
 *    device state is touched;
 *  - cpu_run: runs the (valid) task in place on the CPU device's pool
 *    (gx_cpu.cpp);
 *  - gpu_submit: queues the (valid) task on its staging slot's stream
 *    (gx_gpu.cu); gx_gpu_poll() completes it.
 * gx_cpu_run() and gx_gpu_submit() only call gx_op_check() (magic, kind,
 * then the entry's validator) and the entry's implementation: adding an
 * operator means adding an entry to gx_ops.cpp and its functions, never
 * touching the dispatch.
 *
 * The GPU implementations are weak references: a build without CUDA
 * (gx_gpu_none.cpp, and the CPU-only unit test) does not link them and
 * its gx_gpu_submit() never reaches the table.
 */
#ifndef GX_OPS_H
#define GX_OPS_H

#include "gx_api.h"

typedef gx_status (*gx_validate_fn) (const gx_chunk *task, uint64_t slot_bytes,
									 const gx_task_ctx *ctx, char *err, size_t errlen);
typedef gx_status (*gx_cpu_fn) (gx_chunk *task, const gx_task_ctx *ctx,
								char *err, size_t errlen);
typedef gx_status (*gx_gpu_fn) (int slot, gx_chunk *task, const gx_task_ctx *ctx,
								char *err, size_t errlen);

typedef struct gx_operator
{
	uint32_t	kind;			/* enum gx_task_kind */
	const char *name;
	gx_validate_fn validate;
	gx_cpu_fn	cpu_run;
	gx_gpu_fn	gpu_submit;		/* NULL in a build without CUDA */
} gx_operator;

/* the entry of a device task kind, or NULL (kinds >= GX_TASK_NDEVICE) */
const gx_operator *gx_op_find(uint32_t kind);

/*
 * Validate a task for either device: header magic, a device kind, then the
 * kind's validator.  ctx may be NULL (no entry, no object).  On GX_OK
 * *op is the task's entry.
 */
gx_status	gx_op_check(const gx_chunk *task, uint64_t slot_bytes, const gx_task_ctx *ctx,
						const gx_operator **op, char *err, size_t errlen);

/* ---- validators (gx_validate.cpp) ---- */
gx_status	gx_validate_filter(const gx_chunk *task, uint64_t slot_bytes,
							   const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_cache_load(const gx_chunk *task, uint64_t slot_bytes,
								   const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_cache_scan(const gx_chunk *task, uint64_t slot_bytes,
								   const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_agg_read(const gx_chunk *task, uint64_t slot_bytes,
								 const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_group_read(const gx_chunk *task, uint64_t slot_bytes,
								   const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_join_build(const gx_chunk *task, uint64_t slot_bytes,
								   const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_join_finish(const gx_chunk *task, uint64_t slot_bytes,
									const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_join_probe(const gx_chunk *task, uint64_t slot_bytes,
								   const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_join_unmatched(const gx_chunk *task, uint64_t slot_bytes,
									   const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_search(const gx_chunk *task, uint64_t slot_bytes,
							   const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_obj_write(const gx_chunk *task, uint64_t slot_bytes,
								  const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_tree_lookup(const gx_chunk *task, uint64_t slot_bytes,
									const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_group_merge(const gx_chunk *task, uint64_t slot_bytes,
									const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_validate_obj_copy(const gx_chunk *task, uint64_t slot_bytes,
								 const gx_task_ctx *ctx, char *err, size_t errlen);

/* ---- CPU implementations (gx_cpu.cpp) ---- */

/* FILTER, CACHE_LOAD, CACHE_SCAN: deform / filter / aggregate / append */
gx_status	gx_cpu_rows(gx_chunk *task, const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_cpu_agg_read(gx_chunk *task, const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_cpu_group_read(gx_chunk *task, const gx_task_ctx *ctx, char *err, size_t errlen);
/* JOIN_BUILD, JOIN_FINISH_BUILD, JOIN_PROBE, JOIN_UNMATCHED (gx_join.cuh) */
gx_status	gx_cpu_join_build(gx_chunk *task, const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_cpu_join_finish(gx_chunk *task, const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_cpu_join_probe(gx_chunk *task, const gx_task_ctx *ctx, char *err, size_t errlen);
gx_status	gx_cpu_join_unmatched(gx_chunk *task, const gx_task_ctx *ctx, char *err,
								  size_t errlen);
/* SEARCH (gx_search.cuh) */
gx_status	gx_cpu_search(gx_chunk *task, const gx_task_ctx *ctx, char *err, size_t errlen);
/* OBJ_WRITE: the task's bytes into an object */
gx_status	gx_cpu_obj_write(gx_chunk *task, const gx_task_ctx *ctx, char *err, size_t errlen);
/* TREE_LOOKUP (gx_ptree.cuh) */
gx_status	gx_cpu_tree_lookup(gx_chunk *task, const gx_task_ctx *ctx, char *err, size_t errlen);
/* GROUP_MERGE: a range of one group table's groups into another (gx_group.cuh) */
gx_status	gx_cpu_group_merge(gx_chunk *task, const gx_task_ctx *ctx, char *err, size_t errlen);
/* OBJ_COPY: ranges of one object into another */
gx_status	gx_cpu_obj_copy(gx_chunk *task, const gx_task_ctx *ctx, char *err, size_t errlen);

/* the CPU device's memory (gx_mem_alloc / gx_mem_free with GX_DEV_CPU) */
gx_status	gx_cpu_mem_alloc(uint64_t bytes, void **ptr, char *err, size_t errlen);
void		gx_cpu_mem_free(void *ptr);

/* ---- GPU implementations (gx_gpu.cu; weak: absent without CUDA) ---- */
#define GX_GPU_OP __attribute__((weak, visibility("hidden")))

/* FILTER, CACHE_LOAD, CACHE_SCAN: [H2D] [deform] filter / append, D2H */
gx_status	gx_gpu_rows(int slot, gx_chunk *task, const gx_task_ctx *ctx,
						char *err, size_t errlen) GX_GPU_OP;
gx_status	gx_gpu_agg_read(int slot, gx_chunk *task, const gx_task_ctx *ctx,
							char *err, size_t errlen) GX_GPU_OP;
gx_status	gx_gpu_group_read(int slot, gx_chunk *task, const gx_task_ctx *ctx,
							  char *err, size_t errlen) GX_GPU_OP;
gx_status	gx_gpu_join_build(int slot, gx_chunk *task, const gx_task_ctx *ctx,
							  char *err, size_t errlen) GX_GPU_OP;
gx_status	gx_gpu_join_finish(int slot, gx_chunk *task, const gx_task_ctx *ctx,
							   char *err, size_t errlen) GX_GPU_OP;
gx_status	gx_gpu_join_probe(int slot, gx_chunk *task, const gx_task_ctx *ctx,
							  char *err, size_t errlen) GX_GPU_OP;
gx_status	gx_gpu_join_unmatched(int slot, gx_chunk *task, const gx_task_ctx *ctx,
								  char *err, size_t errlen) GX_GPU_OP;
gx_status	gx_gpu_search(int slot, gx_chunk *task, const gx_task_ctx *ctx,
						  char *err, size_t errlen) GX_GPU_OP;
gx_status	gx_gpu_obj_write(int slot, gx_chunk *task, const gx_task_ctx *ctx,
							 char *err, size_t errlen) GX_GPU_OP;
gx_status	gx_gpu_tree_lookup(int slot, gx_chunk *task, const gx_task_ctx *ctx,
							   char *err, size_t errlen) GX_GPU_OP;
gx_status	gx_gpu_group_merge(int slot, gx_chunk *task, const gx_task_ctx *ctx,
							   char *err, size_t errlen) GX_GPU_OP;
gx_status	gx_gpu_obj_copy(int slot, gx_chunk *task, const gx_task_ctx *ctx,
							char *err, size_t errlen) GX_GPU_OP;

#endif							/* GX_OPS_H */
