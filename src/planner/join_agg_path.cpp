/*
 * join_agg_path.cpp - aggregation over a GpuJoin: GROUP BY and aggregates
 * computed from the joined pairs on the device (planning; the node:
 * src/executor/join_agg.cpp).
 *
 * Design note
 * -----------
 * For a query that aggregates a join (GROUP BY, or aggregates other than
 * a lone count(*), which the counting GpuJoin takes: join_path.cpp), the
 * create_upper_paths_hook (agg_path.cpp) asks, for each GpuJoin path of
 * the join relation, for its aggregating form (gx_join_group_path):
 *
 *   Finalize (Hash)Aggregate
 *     ->  Custom Scan (GpuJoin)     Device Group Keys / Device Aggregates
 *
 * whose target is the partial target (gx_partial_target: the keys, then
 * the partial Aggrefs), as a Partial Aggregate's would be.  The device
 * probes the join with group probes (docs/engine.md, "Aggregation over a
 * join"): every joined pair is added into a group table in device
 * memory, and the node returns one row of partial states per group, so
 * no joined row reaches the backend.
 *
 * What qualifies (else PostgreSQL's plans, or the row-returning GpuJoin
 * under PostgreSQL's aggregate): an INNER, LEFT, SEMI or ANTI join (hash,
 * merge or range; a LEFT join's unmatched outer rows come with NULL inner
 * columns, a SEMI or ANTI join has none) without host quals whose outer
 * side is a table the device reads itself (its child a plain
 * scan: the program of its quals and keys, gx_join_side_prog), and whose
 * every group key and aggregate argument (and FILTER) is either an
 * expression of the outer table's columns, compiled as one more output
 * of that program, or a column of the inner side (a plain Var of its
 * relations: an inner column, which the build stores per row in the
 * table's column store, at most GX_JOIN_MAX_COLS), of a type the device
 * holds exactly (integers, date, timestamp, bool, floats, numeric with a
 * typmod).  An inner column cannot be a stddev / variance argument (the
 * device has no square of it) or be read by a FILTER.  The GROUP BY must
 * be hashable (the fallback below hashes).
 *
 * The plan (gx_plan_join_path; custom_private as gx_join_plan_private,
 * 5 = 2 for this mode, 7 = the outer program with the group outputs),
 * then gx_join_group_plan's items:
 *  10  IntList: per custom_scan_tlist entry, the joined output it reads:
 *      < icol_base an output of the outer program, icol_base + c inner
 *      column c, -1 none (count(*))
 *  11  IntList: per entry, the numeric scale of its values
 *  12  IntList: per entry, its FILTER's output, or -1
 *  13  IntList: per entry, the output of its dscales, or -1
 *  14  IntList: per entry, the output of its argument's square, or -1
 *  15  IntList: per inner column, (resno in the inner child's target
 *      list, gx_type, scale)
 *  16  Integer: icol_base, the outer program's outputs
 *  17  String: the estimated groups
 * When the outer program cannot be had at plan time (the child is not a
 * plain scan after all, or an output does not compile), 7 is Integer 0
 * and 10 .. 15 are empty: the node runs its fallback.
 *
 * Fallback: the plan's third child is PostgreSQL's Partial (Hash)Aggregate
 * over the GpuJoin's own fallback join, with the same partial target; the
 * node runs it whenever the device cannot give every group exactly (no
 * table, no outer device input, a group table without room, a row the
 * device left to the host), so the rows are always PostgreSQL's.
 *
 * Cost: the counting join's (no pair back) and a tuple per group.
 */
#include "gpuext.h"
#include "compat.h"
#include "planner.h"
#include "compiler.h"

extern "C"
{
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/prep.h"
#include "optimizer/tlist.h"
#include "utils/fmgroids.h"
#include "utils/selfuncs.h"
}

/*
 * Inner column of Var v (added when new): its index, its numeric scale in
 * *scale; -1 when the device cannot hold it exactly, or too many columns
 */
int
gx_inner_col(GxInnerCols *inner, Var *v, int *scale)
{
	ListCell   *lc;
	int			t;

	foreach(lc, inner->vars)
	{
		Var		   *w = (Var *) lfirst(lc);

		if (w->varno == v->varno && w->varattno == v->varattno)
		{
			*scale = list_nth_int(inner->scales, foreach_current_index(lc));
			return GX_INNER_OUT(foreach_current_index(lc));
		}
	}
	if (v->varattno <= 0 || v->varlevelsup != 0 ||
		!gx_type_supported_mod(v->vartype, v->vartypmod, &t, scale) || t == GX_CHAR8 ||
		(t == GX_NUMERIC && *scale == GX_NUMERIC_FREE) ||
		list_length(inner->vars) >= GX_JOIN_MAX_COLS)
		return -1;
	inner->vars = lappend(inner->vars, v);
	inner->types = lappend_int(inner->types, t);
	inner->scales = lappend_int(inner->scales, *scale);
	return GX_INNER_OUT(list_length(inner->vars) - 1);
}

/*
 * Would the outputs of target exprs compile over a join whose outer side
 * is base relation outer_relid and inner side inner_relids?  (A trial
 * without the quals and keys; the plan compiles them for good.)
 */
static bool
gx_join_group_fits(List *exprs, Index outer_relid, Relids inner_relids)
{
	GxProgram  *trial = (GxProgram *) palloc(sizeof(GxProgram));
	GxInnerCols inner = {inner_relids, NIL, NIL, NIL};
	List	   *o,
			   *sc,
			   *f,
			   *ds,
			   *sq;

	gx_program_init(trial);
	return gx_group_outputs(trial, exprs, outer_relid, &o, &sc, &f, &ds, &sq, &inner) &&
		trial->nouts + GX_JOIN_MAX_KEYS + list_length(inner.vars) <= GX_MAX_OUTS;
}

/*
 * Aggregation over a join (input_rel): Finalize Aggregate over the
 * aggregating form of the join relation's cheapest GpuJoin path that
 * qualifies (see the design note).  Not for a lone count(*) without GROUP
 * BY or HAVING: the counting GpuJoin's (gx_join_count_paths).
 */
void
gx_join_group_paths(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel,
					Node *having)
{
	PathTarget *target = root->upper_targets[UPPERREL_GROUP_AGG];
	List	   *groupClause = GX_GROUP_CLAUSE(root);
	PathTarget *partial;
	Path	   *best = NULL;
	AggClauseCosts costs;
	double		groups = 1;
	bool		group;
	ListCell   *lc;

	if (!gx_enable_preagg || !gx_enable_gpujoin)
		return;
	partial = gx_partial_target(root, target, having, 0, &group);
	/* (a lone count(*): the counting GpuJoin's, gx_join_count_paths) */
	if (partial == NULL ||
		(having == NULL && groupClause == NIL && gx_partial_count_star(partial)))
		return;
	if (groupClause != NIL)
		groups = estimate_num_groups(root, get_sortgrouplist_exprs(groupClause,
																   root->parse->targetList),
									 input_rel->rows, NULL, NULL);
	foreach(lc, input_rel->pathlist)
	{
		Path	   *p = gx_unproject((Path *) lfirst(lc));
		Path	   *g;
		Path	   *opath;

		if (!IsA(p, CustomPath) || list_length(((CustomPath *) p)->custom_paths) < 2)
			continue;
		opath = (Path *) linitial(((CustomPath *) p)->custom_paths);
		if (opath->parent->reloptkind != RELOPT_BASEREL ||
			!gx_join_group_fits(partial->exprs, opath->parent->relid,
								((Path *) lsecond(((CustomPath *) p)->custom_paths))->parent->relids))
			continue;
		g = gx_join_group_path(root, input_rel, p, ((Path *) lfirst(lc))->pathtarget, partial,
							   groups);
		if (g != NULL && (best == NULL || g->total_cost < best->total_cost))
			best = g;
	}
	if (best == NULL)
		return;
	/* gpuext.force: only the aggregating join remains (as for a GpuPreAgg) */
	gx_final_costs(root, output_rel, &costs);
	gx_add_final_paths(root, output_rel, best, target, (List *) having, &costs, groups);
}

/*
 * At plan time: the outer side's program with the group outputs (into
 * *outer_prog, a Const, or Integer 0 when it cannot be had), and the
 * plan's items 10 .. 16 (see the design note) for target list tlist;
 * bounds: a range join's (its outer keys are the bounds' expressions)
 */
List *
gx_join_group_plan(Plan *outer, Plan *inner, List *oresnos, bool bounds, List *tlist,
				   Relids inner_relids, Node **outer_prog)
{
	GxInnerCols icols = {inner_relids, NIL, NIL, NIL};
	List	   *outs,
			   *scales,
			   *filts,
			   *dscales,
			   *sqs;
	List	   *fixed = NIL;
	List	   *cols = NIL;
	Index		relid = 0;
	GxProgram  *prog = gx_join_side_prog(outer, oresnos, bounds, &relid);
	int			base;
	ListCell   *lc1,
			   *lc2,
			   *lc3;

	if (prog == NULL ||
		!gx_group_outputs(prog, tlist, relid, &outs, &scales, &filts, &dscales, &sqs, &icols) ||
		prog->params != NIL || prog->may_fallback ||
		prog->nouts + list_length(icols.vars) > GX_MAX_OUTS)
	{
		*outer_prog = (Node *) makeInteger(0);
		return lappend(lappend(list_make5(NIL, NIL, NIL, NIL, NIL), NIL), makeInteger(0));
	}
	base = prog->nouts;
	foreach(lc1, outs)
	{
		int			o = lfirst_int(lc1);

		fixed = lappend_int(fixed, GX_IS_INNER_OUT(o) ? base + o - GX_INNER_OUT(0) : o);
	}
	forthree(lc1, icols.vars, lc2, icols.types, lc3, icols.scales)
	{
		Var		   *v = (Var *) copyObjectImpl(lfirst(lc1));
		TargetEntry *tle;

#if PG_VERSION_NUM >= 160000
		v->varnullingrels = NULL;
#endif
		tle = tlist_member((Expr *) v, inner->targetlist);
		if (tle == NULL)
		{
			tle = makeTargetEntry((Expr *) v, list_length(inner->targetlist) + 1, NULL, false);
			inner->targetlist = lappend(inner->targetlist, tle);
		}
		cols = lappend_int(lappend_int(lappend_int(cols, tle->resno), lfirst_int(lc2)),
						   lfirst_int(lc3));
	}
	*outer_prog = (Node *) gx_program_to_const(prog);
	return lappend(lappend(list_make5(fixed, scales, filts, dscales, sqs), cols),
				   makeInteger(base));
}
