/*
 * join_explain.cpp - EXPLAIN of a GpuJoin: its algorithm, join type,
 * keys or bounds, the group keys and aggregates it computes, its devices,
 * the tables the device reads itself, the host quals (Join Filter) and the
 * fallback; with ANALYZE how it joined, the rows of each side, tasks (the
 * probes per device, the table's replicas), passes, rebuilds and the time
 * of each phase.
 */
#include "gpuext.h"
#include "compat.h"
#include "join_state.h"

extern "C"
{
#include "commands/explain.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "utils/ruleutils.h"
}

/*
 * "(outer = inner)" for each key, deparsed from the children's columns; a
 * range join: "(inner >= lower)", "(inner <= upper)" (or > / <) for each
 * bound
 */
char *
gx_join_keys_text(GxJoinState *st, List *ancestors, ExplainState *es)
{
	List	   *anc = lcons(st->css.ss.ps.plan, ancestors);
	StringInfoData buf;

	initStringInfo(&buf);
	for (int k = 0; k < st->nkeys; k++)
	{
		TargetEntry *o = (TargetEntry *) list_nth(st->outer_ps->plan->targetlist,
												  st->okey[k] - 1);
		TargetEntry *i = (TargetEntry *) list_nth(st->inner_ps->plan->targetlist,
												  st->ikey[k] - 1);
		List	   *ctx;
		char	   *otext;
		char	   *itext;

		/* (one deparse context, set for each child in turn) */
		ctx = set_deparse_context_plan(es->deparse_cxt, st->outer_ps->plan, anc);
		otext = deparse_expression((Node *) o->expr, ctx, true, false);
		ctx = set_deparse_context_plan(es->deparse_cxt, st->inner_ps->plan, anc);
		itext = deparse_expression((Node *) i->expr, ctx, true, false);
		if (st->alg == GX_JOIN_RANGE)
		{
			bool		lo = k == st->lo_k;
			bool		incl = (st->bflags & (lo ? GX_JOIN_LO_INCL : GX_JOIN_HI_INCL)) != 0;

			appendStringInfo(&buf, "%s(%s %s%s %s)", k > 0 ? " AND " : "", itext,
							 lo ? ">" : "<", incl ? "=" : "", otext);
		}
		else
			appendStringInfo(&buf, "%s(%s = %s)", k > 0 ? " AND " : "", otext, itext);
	}
	return buf.data;
}

/*
 * "Join Filter:" (the host quals, as PostgreSQL shows a join's), with
 * ANALYZE "Rows Removed by Join Filter" (per loop: ExecScan counts the
 * rows they removed in nfiltered1)
 */
static void
gx_join_explain_filter(GxJoinState *st, List *ancestors, ExplainState *es)
{
	CustomScan *cscan = (CustomScan *) st->css.ss.ps.plan;
	Instrumentation *ins = st->css.ss.ps.instrument;
	List	   *ctx;

	if (cscan->custom_exprs == NIL)
		return;
	ctx = set_deparse_context_plan(es->deparse_cxt, &cscan->scan.plan, ancestors);
	ExplainPropertyText("Join Filter",
						deparse_expression((Node *) make_ands_explicit(cscan->custom_exprs), ctx,
										   list_length(es->rtable) > 1 || es->verbose, false),
						es);
	if (es->analyze && ins != NULL && ins->nloops > 0 &&
		(ins->nfiltered1 > 0 || es->format != EXPLAIN_FORMAT_TEXT))
		ExplainPropertyFloat("Rows Removed by Join Filter", NULL, ins->nfiltered1 / ins->nloops,
							 0, es);
}

/* ExplainCustomScan: algorithm, join type, keys, device; ANALYZE: rows per side */
void
gx_join_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	GxJoinState *st = (GxJoinState *) node;
	GxJoinStats *s = &st->stats;
	static const char *const types[] = {"Inner", "Semi", "Anti", "Left", "Right", "Full"};
	bool		range = st->alg == GX_JOIN_RANGE;
	const char *fb = range ? "the Nested Loop below" : "the Hash Join below";

	ExplainPropertyText("Algorithm", range ? "Range" : st->alg == GX_JOIN_MERGE ? "Merge" :
						"Hash", es);
	ExplainPropertyText("Join Type", types[st->jtype], es);
	ExplainPropertyText(range ? "Join Bounds" : "Join Keys",
						gx_join_keys_text(st, ancestors, es), es);
	gx_join_explain_filter(st, ancestors, es);
	if (st->count)
		ExplainPropertyText("Device Aggregates", "count(*)", es);
	/* (aggregating its pairs: join_agg.cpp) */
	if (st->group && st->grs != NULL && st->icol_base >= 0)
	{
		List	   *dpctx = set_deparse_context_plan(es->deparse_cxt, node->ss.ps.plan,
													 ancestors);

		if (st->grs->grp.nkeys > 0)
			ExplainPropertyText("Group Keys",
								gx_group_describe_keys(st->grs, dpctx, true), es);
		ExplainPropertyText("Device Aggregates", gx_agg_describe(st->grs, dpctx, true), es);
		if (st->grs->grp.final)
			ExplainPropertyText("Finalize", "on the device (fallback: the plan below)", es);
		/* (local: a table per GPU block or CPU thread first; gx_group_local) */
		ExplainPropertyText("Group Strategy", gx_group_local(&st->grs->grp) ?
							"local, then global table" : "global table", es);
	}
	/* (a multi-level group probe: join_levels.cpp) */
	gx_join_levels_explain(st, ancestors, es);
	/* (several devices: those its probes may use, home first; join_replicas.cpp) */
	gx_explain_devices(st->device, &st->devs, NULL, es);
	/* (the plan's: a partitioned run reads the outer side through its child) */
	if (st->outer_input_on || st->input[1].on)
		ExplainPropertyText("Read By The Device",
							st->outer_input_on && st->input[1].on ? "outer and inner tables" :
							st->outer_input_on ? "outer table" : "inner table", es);
	/* (gathering the rows it returns: join_gather.cpp) */
	if (st->gather)
		ExplainPropertyInteger("Columns Gathered On Device", NULL, st->ngather, es);
	ExplainPropertyText("Fallback", fb, es);
	if (node->ss.ps.plan->parallel_aware)
		ExplainPropertyText("Shared Table", "built once by the leader", es);
	/* (never run: no figures, as PostgreSQL shows such a node) */
	if (!es->analyze || node->ss.ps.instrument == NULL || node->ss.ps.instrument->nloops == 0)
		return;
	/* (per decision: a rescan that keeps the table or the decision takes none) */
	if (s->builds > 0 && s->fallbacks == 0)
		ExplainPropertyText("Joined", "on the device", es);
	else if (s->builds == 0 && s->fallbacks > 0)
		ExplainPropertyText("Joined", psprintf("by %s", fb), es);
	else if (s->builds > 0)
	{
		char	   *how = psprintf("on the device " INT64_FORMAT " times, by %s "
								   INT64_FORMAT " times", s->builds, fb, s->fallbacks);

		ExplainPropertyText("Joined", how, es);
	}
	ExplainPropertyInteger("Outer Rows", NULL, s->outer_rows, es);
	ExplainPropertyInteger("Inner Rows", NULL, s->inner_rows, es);
	ExplainPropertyInteger(st->alg != GX_JOIN_HASH ? "Sorted Table Rows" : "Hash Table Rows",
						   NULL, s->table_rows, es);
	ExplainPropertyInteger("Table Builds", NULL, s->builds, es);
	ExplainPropertyInteger("Build Tasks", NULL, s->build_tasks, es);
	ExplainPropertyInteger("Probe Tasks", NULL, s->probe_tasks, es);
	ExplainPropertyInteger("Rows From Device", NULL, s->pairs, es);
	if (GX_JOIN_MODE_MARKS(st->mode))
	{
		ExplainPropertyInteger("Unmatched Tasks", NULL, s->unmatched_tasks, es);
		ExplainPropertyInteger("Unmatched Inner Rows", NULL, s->unmatched, es);
	}
	if (st->count)
		ExplainPropertyInteger("Counted Rows", NULL, s->counted, es);
	if (st->group && st->grs != NULL && st->icol_base >= 0)
		ExplainPropertyInteger("Device Groups", NULL, st->grs->grp.ngroups, es);
	if (node->ss.ps.plan->parallel_aware)
		ExplainPropertyInteger("Workers Probing", NULL, s->workers, es);
	/* several devices: the probes each ran, the table's copies and their device time */
	if (st->devs.n > 1)
	{
		gx_explain_per_device("Device Probe Tasks", &st->devs, s->dev_probes, es);
		if (s->dev_parts > 0)
			ExplainPropertyInteger("Table Parts On Devices", NULL, s->dev_parts, es);
		if (es->timing)
			ExplainPropertyText("Table Replicas",
								psprintf(INT64_FORMAT ", %.3f ms", s->replicas, s->replica_ms),
								es);
		else
			ExplainPropertyInteger("Table Replicas", NULL, s->replicas, es);
	}
	for (int side = 0; side < 2; side++)
	{
		GxJoinInput *in = &st->input[side];

		if (side == 0 ? !st->outer_input_on : !in->on)
			continue;
		ExplainPropertyInteger(side == 0 ? "Outer Device Chunks" : "Inner Device Chunks", NULL,
							   in->stats.chunks, es);
		ExplainPropertyInteger(side == 0 ? "Outer Cached Chunks" : "Inner Cached Chunks", NULL,
							   in->stats.cache_chunks, es);
		if (in->src.cache_reread > 0)
			ExplainPropertyInteger("Outer Cached Chunks Read From Heap", NULL,
								   in->src.cache_reread, es);
	}
	if (s->parts > 0)
	{
		ExplainPropertyInteger("Partitions", NULL, s->parts, es);
		ExplainPropertyInteger("Partitioned Passes", NULL, s->passes, es);
	}
	if (s->rebuilds > 0)
		ExplainPropertyInteger("Tables Made Again", NULL, s->rebuilds, es);
	if (s->declined > 0)
		ExplainPropertyInteger("Inner Read By The Child", NULL, s->declined, es);
	if (es->timing)
	{
		ExplainPropertyFloat("Build Time", "ms", s->build_ms, 3, es);
		ExplainPropertyFloat("Probe Time", "ms", s->probe_ms, 3, es);
		for (int side = 0; side < 2; side++)
			if (side == 0 ? st->outer_input_on : st->input[side].on)
				ExplainPropertyFloat(side == 0 ? "Outer Device Time" : "Inner Device Time", "ms",
									 st->input[side].stats.kernel_ms, 3, es);
	}
}
