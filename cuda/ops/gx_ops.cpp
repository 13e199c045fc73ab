/*
 * gx_ops.cpp - the operator table (gx_ops.h): one entry per device task
 * kind, and the check both devices run before dispatching a task.
 */
#include "gx_ops.h"
#include "gx_guard.h"

static const gx_operator gx_ops[GX_TASK_NDEVICE] = {
	{GX_TASK_FILTER, "filter", gx_validate_filter, gx_cpu_rows, gx_gpu_rows},
	{GX_TASK_CACHE_LOAD, "cache load", gx_validate_cache_load, gx_cpu_rows, gx_gpu_rows},
	{GX_TASK_CACHE_SCAN, "cache scan", gx_validate_cache_scan, gx_cpu_rows, gx_gpu_rows},
	{GX_TASK_AGG_READ, "aggregate read", gx_validate_agg_read, gx_cpu_agg_read, gx_gpu_agg_read},
	{GX_TASK_GROUP_READ, "group read", gx_validate_group_read, gx_cpu_group_read,
	gx_gpu_group_read},
	{GX_TASK_JOIN_BUILD, "join build", gx_validate_join_build, gx_cpu_join_build,
	gx_gpu_join_build},
	{GX_TASK_JOIN_FINISH_BUILD, "join finish build", gx_validate_join_finish,
	gx_cpu_join_finish, gx_gpu_join_finish},
	{GX_TASK_JOIN_PROBE, "join probe", gx_validate_join_probe, gx_cpu_join_probe,
	gx_gpu_join_probe},
	{GX_TASK_JOIN_UNMATCHED, "join unmatched", gx_validate_join_unmatched,
	gx_cpu_join_unmatched, gx_gpu_join_unmatched},
	{GX_TASK_SEARCH, "search", gx_validate_search, gx_cpu_search, gx_gpu_search},
	{GX_TASK_OBJ_WRITE, "object write", gx_validate_obj_write, gx_cpu_obj_write,
	gx_gpu_obj_write},
	{GX_TASK_TREE_LOOKUP, "tree lookup", gx_validate_tree_lookup, gx_cpu_tree_lookup,
	gx_gpu_tree_lookup},
	{GX_TASK_GROUP_MERGE, "group merge", gx_validate_group_merge, gx_cpu_group_merge,
	gx_gpu_group_merge},
	{GX_TASK_OBJ_COPY, "object copy", gx_validate_obj_copy, gx_cpu_obj_copy, gx_gpu_obj_copy},
};

/* the entry of kind, or NULL when no device runs it */
const gx_operator *
gx_op_find(uint32_t kind)
{
	if (kind >= GX_TASK_NDEVICE || gx_ops[kind].kind != kind)
		return NULL;
	return &gx_ops[kind];
}

/* magic, kind, then the kind's own validator */
gx_status
gx_op_check(const gx_chunk *task, uint64_t slot_bytes, const gx_task_ctx *ctx,
			const gx_operator **op, char *err, size_t errlen)
{
	static const gx_task_ctx none = {};
	const gx_operator *o;

	*op = NULL;
	if (task == NULL || slot_bytes < sizeof(gx_chunk))
	{
		gx_errf(err, errlen, "task does not fit its slot (%llu bytes)",
				(unsigned long long) slot_bytes);
		return GX_INVALID;
	}
	if (task->magic != GX_CHUNK_MAGIC)
	{
		gx_errf(err, errlen, "task has a bad magic number");
		return GX_INVALID;
	}
	o = gx_op_find(task->kind);
	if (o == NULL)
	{
		gx_errf(err, errlen, "task kind %u is not a device operator", task->kind);
		return GX_INVALID;
	}
	gx_status	st = o->validate(task, slot_bytes, ctx ? ctx : &none, err, errlen);

	if (st == GX_OK)
		*op = o;
	return st;
}
