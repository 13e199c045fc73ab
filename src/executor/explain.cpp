/*
 * explain.cpp - EXPLAIN output of GpuScan: the device and host quals, the
 * device, and with ANALYZE the rows removed by the host filter, the chunks
 * and the rows removed on the device; with TIMING also the transfer mode
 * that ran (copy, mapped; none on the CPU device), the bytes moved to and
 * from the device and where the time went (heap reading, deforming and
 * staging, waiting for the device, transfers, kernels), the device time
 * hidden behind the backend's work, and the scan's wall time.
 */
#include "gpuext.h"
#include "compat.h"
#include "executor.h"

extern "C"
{
#include "commands/explain.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "utils/ruleutils.h"
}

/* print a qual list the way PostgreSQL prints "Filter:" */
static void
gx_show_quals(const char *label, List *quals, PlanState *ps, List *ancestors,
			  ExplainState *es)
{
	List	   *context;
	char	   *str;
	Node	   *expr;

	if (quals == NIL)
		return;
	expr = (Node *) make_ands_explicit(quals);
	context = set_deparse_context_plan(es->deparse_cxt, ps->plan, ancestors);
	str = deparse_expression(expr, context, es->verbose, false);
	ExplainPropertyText(label, str, es);
}

/*
 * The transfer mode the GPU chunks ran in: "none" on the CPU device,
 * "copy" or "mapped", "copy (mapped unavailable)" when mapped was asked
 * for but the service could not map the staging area, and "mapped for N of
 * M chunks" when the mode changed during the scan (service restart).
 */
static const char *
gx_transfer_label(GxScanState *st)
{
	GxScanStats *s = &st->stats;
	bool		want_mapped = st->transfer == GX_TRANSFER_MAPPED;

	if (!gx_device_is_gpu(st->device))
		return "none";
	if (s->chunks_gpu == 0)
		return want_mapped ? "mapped" : "copy";
	if (s->chunks_mapped == s->chunks_gpu)
		return "mapped";
	if (s->chunks_mapped == 0)
		return want_mapped ? "copy (mapped unavailable)" : "copy";
	return psprintf("mapped for " INT64_FORMAT " of " INT64_FORMAT " chunks",
					s->chunks_mapped, s->chunks_gpu);
}

/*
 * The device's busy time X (per-chunk copies and kernels, summed), the
 * part of it hidden behind the backend's own work (X - Device Wait Time:
 * the backend only waited for the rest), and the scan's wall time.
 */
static void
gx_explain_overlap(GxScanState *st, ExplainState *es)
{
	GxScanStats *s = &st->stats;
	double		device = s->device_ms;
	double		hidden = Max(0.0, device - s->wait_ms);
	double		pct = device > 0 ? 100.0 * hidden / device : 0.0;
	double		wall = s->wall_ms;

	if (st->loop_open)
	{
		instr_time	now;

		INSTR_TIME_SET_CURRENT(now);
		INSTR_TIME_SUBTRACT(now, st->loop_start);
		wall += INSTR_TIME_GET_MILLISEC(now);
	}
	if (es->format == EXPLAIN_FORMAT_TEXT)
		ExplainPropertyText("Device Time",
							psprintf("%.3f ms (hidden behind backend work: %.3f ms, %.0f%%)",
									 device, hidden, pct), es);
	else
	{
		ExplainPropertyFloat("Device Time", "ms", device, 3, es);
		ExplainPropertyFloat("Hidden Device Time", "ms", hidden, 3, es);
		ExplainPropertyFloat("Hidden Device Time Percent", NULL, pct, 0, es);
	}
	ExplainPropertyFloat("Scan Wall Time", "ms", wall, 3, es);
}

/* "label: gpu0=3, gpu1=2": a count per device of set (indexed by device) */
void
gx_explain_per_device(const char *label, const GxDevSet *set, const int64 *counts,
					  ExplainState *es)
{
	StringInfoData b;

	initStringInfo(&b);
	for (int i = 0; i < set->n; i++)
		appendStringInfo(&b, "%s%s=" INT64_FORMAT, i ? ", " : "",
						 gx_device_name(set->dev[i]), counts[set->dev[i]]);
	ExplainPropertyText(label, b.data, es);
}

/*
 * A node's devices: "Device" (the kind of its home device, where its
 * objects live); with several, "Devices" (their names, home first) and,
 * under ANALYZE, the chunks each ran ("Device Chunks")
 */
void
gx_explain_devices(int home, const GxDevSet *set, const int64 *dev_chunks, ExplainState *es)
{
	char		buf[256];

	ExplainPropertyText("Device", gx_device_is_gpu(home) ? "GPU" : "CPU", es);
	if (set->n <= 1)
		return;
	ExplainPropertyText("Devices", gx_devset_names(set, buf, sizeof(buf)), es);
	if (es->analyze && dev_chunks != NULL)
		gx_explain_per_device("Device Chunks", set, dev_chunks, es);
}

/* ExplainCustomScan callback */
void
gx_explain_scan(CustomScanState *node, List *ancestors, ExplainState *es)
{
	GxScanState *st = (GxScanState *) node;
	GxScanStats *s = &st->stats;

	gx_show_quals("Device Filter", st->device_quals, &node->ss.ps, ancestors, es);
	gx_show_quals("Host Filter", st->host_quals, &node->ss.ps, ancestors, es);
	/* the sizes of its big sets (= ANY over device memory: scan_sets.cpp) */
	if ((es->verbose || es->analyze) && st->prog != NULL)
	{
		char	   *sets = gx_program_describe_sets(st->prog);

		if (sets != NULL)
		{
			ExplainPropertyText("Device Sets", sets, es);
			/* building them (read, sort) and writing them to the device */
			if (es->analyze && es->timing)
				ExplainPropertyFloat("Device Sets Time", "ms", st->prog->big_ms, 3, es);
		}
	}
	if (es->analyze && st->host_quals != NIL && node->ss.ps.instrument)
	{
		double		nloops = node->ss.ps.instrument->nloops;
		double		removed = node->ss.ps.instrument->nfiltered1;

		ExplainPropertyFloat("Rows Removed by Host Filter", NULL,
							 nloops > 0 ? removed / nloops : 0, 0, es);
	}
	if (st->agg_mode && st->prog != NULL)
	{
		List	   *dpctx = set_deparse_context_plan(es->deparse_cxt, node->ss.ps.plan,
													 ancestors);

		if (st->group_mode && st->grp.nkeys > 0)
			ExplainPropertyText("Group Keys", gx_group_describe_keys(st, dpctx, es->verbose),
								es);
		ExplainPropertyText("Device Aggregates", gx_agg_describe(st, dpctx, es->verbose), es);
		if (st->group_mode && st->grp.final)
			ExplainPropertyText("Finalize", "on the device (fallback: the plan below)", es);
		if (st->group_mode)
			/* (local: a table per GPU block or CPU thread; gx_group_local) */
			ExplainPropertyText("Group Strategy", gx_group_local(&st->grp) ?
								"local, then global table" : "global table", es);
	}
	gx_explain_devices(st->device, &st->src.devs, s->dev_chunks, es);
	if (!es->analyze)
		return;
	if (st->group_mode)
	{
		ExplainPropertyInteger("Group Table Slots", NULL, st->grp.cap, es);
		/* (passes: of the partitions of the groups; run again: table too small) */
		if (st->grp.npasses > 1 || st->grp.nreruns > 0)
		{
			ExplainPropertyInteger("Group Passes", NULL, st->grp.npasses, es);
			ExplainPropertyInteger("Group Passes Run Again", NULL, st->grp.nreruns, es);
		}
		ExplainPropertyInteger("Groups From Device", NULL, st->grp.ngroups, es);
		/* several devices: the other devices' tables merged into the home table */
		if (st->src.devs.n > 1)
		{
			ExplainPropertyInteger("Group Merges", NULL, s->group_merges, es);
			ExplainPropertyInteger("Groups Merged", NULL, s->groups_merged, es);
			if (s->groups_unmerged > 0)
				ExplainPropertyInteger("Groups Merged Without Room", NULL, s->groups_unmerged,
									   es);
		}
		ExplainPropertyInteger("Rows Aggregated by Host", NULL, st->grp.nhost, es);
		if (st->grp.final && st->grp.decided)
			ExplainPropertyText("Finalized", st->grp.fallback ? "by the plan below" : "on the device",
								es);
	}
	ExplainPropertyText("Deform", st->src.device_deform ? "device" : "backend", es);
	ExplainPropertyInteger("Chunks", NULL, s->chunks, es);
	if (s->cache_chunks > 0 || s->cache_invalid > 0)
	{
		ExplainPropertyInteger("Cached Chunks", NULL, s->cache_chunks, es);
		ExplainPropertyInteger("Cache Entries Not Valid", NULL, s->cache_invalid, es);
		ExplainPropertyInteger("Cache Stale Blocks", NULL, s->cache_stale_blocks, es);
		ExplainPropertyInteger("Rows Read From Stale Blocks", NULL, s->cache_stale_rows, es);
	}
	/* (GpuPreAgg selects only the rows its table had no room for) */
	if (!st->group_mode)
		ExplainPropertyInteger("Rows Removed by Device Filter", NULL,
							   s->rows_in - s->rows_selected, es);
	if (es->timing)
	{
		/* device-dependent: only with TIMING, like the measurements */
		ExplainPropertyText("Transfer", gx_transfer_label(st), es);
		ExplainPropertyInteger("Bytes to Device", "kB", s->bytes_h2d / 1024, es);
		ExplainPropertyInteger("Bytes from Device", "kB", s->bytes_d2h / 1024, es);
		ExplainPropertyFloat(st->src.device_deform ? "Heap Read and Page Copy Time" :
							 "Heap Read and Deform Time", "ms", s->fill_ms, 3, es);
		ExplainPropertyFloat("Device Wait Time", "ms", s->wait_ms, 3, es);
		ExplainPropertyFloat("Transfer to Device Time", "ms", s->h2d_ms, 3, es);
		ExplainPropertyFloat("Kernel Time", "ms", s->kernel_ms, 3, es);
		if (gx_device_is_gpu(st->device))
			ExplainPropertyInteger("Compiled Kernel Chunks", NULL, s->chunks_jit, es);
		ExplainPropertyFloat("Transfer from Device Time", "ms", s->d2h_ms, 3, es);
		if (s->cache_chunks > 0)
			ExplainPropertyInteger("Cache Bytes Scanned", "bytes", s->cache_bytes, es);
		gx_explain_overlap(st, es);
	}
}
