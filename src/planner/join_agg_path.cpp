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
 * side is a table the device reads itself (its child a plain scan: the
 * program of its quals and keys, gx_join_side_prog) or any other plan (a
 * join: the node lays the child's rows out in batches, whose columns the
 * program reads, gx_join_rows_prog; not for the range join, whose bounds
 * are its scan's), and whose every group key and aggregate argument (and
 * FILTER) is either an expression of the outer side's columns, compiled
 * as one more output of that program, or a column of the inner side (a plain Var of its
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
 *  17  Integer: 1 when the outer program reads the outer child's rows
 *      (its columns are the child's resnos), 0 when it reads the table
 *  18  String: the estimated groups
 * When the outer program cannot be had at plan time (an output does not
 * compile), 7 is Integer 0 and 10 .. 15 are empty: the node runs its
 * fallback.
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

/* context of gx_rows_vars: the outer child, its relations */
typedef struct GxRowsCx
{
	Plan	   *child;			/* NULL: number the Vars met (seen) instead */
	Relids		relids;
	bool		ok;
	List	   *seen;
} GxRowsCx;

/*
 * An expression with each Var of the outer side's relations turned into
 * the column of the outer child's rows that holds it: Var(GX_ROWS_VARNO,
 * its resno there), as the rows' program reads them (cx->ok false when one
 * is not in the child's target list)
 */
static Node *
gx_rows_vars(Node *node, GxRowsCx *cx)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varlevelsup == 0 &&
		bms_is_member(((Var *) node)->varno, cx->relids))
	{
		Var		   *v = (Var *) node;
		ListCell   *lc;

		/* (planning a path: no child plan yet, a column per distinct Var) */
		if (cx->child == NULL)
		{
			Var		   *r = (Var *) copyObjectImpl(v);
			int			i = 0;

			foreach(lc, cx->seen)
			{
				i++;
				if (((Var *) lfirst(lc))->varno == v->varno &&
					((Var *) lfirst(lc))->varattno == v->varattno)
					break;
			}
			if (lc == NULL)
			{
				cx->seen = lappend(cx->seen, v);
				i = list_length(cx->seen);
			}
			r->varno = GX_ROWS_VARNO;
			r->varattno = (AttrNumber) i;
#if PG_VERSION_NUM >= 160000
			r->varnullingrels = NULL;
#endif
			return (Node *) r;
		}
		foreach(lc, cx->child->targetlist)
		{
			TargetEntry *tle = (TargetEntry *) lfirst(lc);
			Var		   *w = (Var *) tle->expr;

			if (IsA(w, Var) && w->varno == v->varno && w->varattno == v->varattno &&
				w->varlevelsup == 0)
			{
				Var		   *r = (Var *) copyObjectImpl(v);

				r->varno = GX_ROWS_VARNO;
				r->varattno = tle->resno;
#if PG_VERSION_NUM >= 160000
				r->varnullingrels = NULL;
#endif
				return (Node *) r;
			}
		}
		cx->ok = false;
		return node;
	}
	return expression_tree_mutator(node, GX_MUTATOR(gx_rows_vars), (void *) cx);
}

/*
 * The program of the outer child's rows (a join, or a plan the device
 * does not read): its columns are the child's resnos (Var(GX_ROWS_VARNO,
 * resno)), the keys its first outputs, as gx_join_side_prog's are for a
 * table (the same key types: not numeric, whose join scale may differ
 * from the column's); *tlist_out: tlist with the outer side's Vars so
 * turned.  NULL when a key is not a plain column of the child.
 */
static GxProgram *
gx_join_rows_prog(Plan *child, Relids relids, List *resnos, List *tlist, List **tlist_out)
{
	GxProgram  *prog = (GxProgram *) palloc(sizeof(GxProgram));
	GxRowsCx	cx = {child, relids, true, NIL};
	ListCell   *lc;

	gx_program_init(prog);
	foreach(lc, resnos)
	{
		TargetEntry *tle = (TargetEntry *) list_nth(child->targetlist, lfirst_int(lc) - 1);
		Var		   *v = (Var *) gx_rows_vars((Node *) tle->expr, &cx);
		int			t,
					sc;

		if (!cx.ok || !IsA(v, Var) || v->varno != GX_ROWS_VARNO ||
			gx_program_add_output(prog, (Expr *) v, GX_ROWS_VARNO, &t, &sc) !=
			foreach_current_index(lc) ||
			!(t == GX_INT2 || t == GX_INT4 || t == GX_INT8 || t == GX_BOOL || GX_JOIN_FLOAT(t)))
			return NULL;
	}
	*tlist_out = (List *) gx_rows_vars((Node *) tlist, &cx);
	return cx.ok ? prog : NULL;
}

/*
 * Would the outputs of target exprs compile over a join whose outer side
 * is relation outer (a table, or a join whose rows the node lays out)
 * and inner side inner_relids?  (A trial without the quals and keys; the
 * plan compiles them for good.)
 */
static bool
gx_join_group_fits(List *exprs, RelOptInfo *outer, Relids inner_relids)
{
	GxProgram  *trial = (GxProgram *) palloc(sizeof(GxProgram));
	GxRowsCx	cx = {NULL, outer->relids, true, NIL};
	Index		outer_relid = outer->relid;
	GxInnerCols inner = {inner_relids, NIL, NIL, NIL};
	List	   *o,
			   *sc,
			   *f,
			   *ds,
			   *sq;

	gx_program_init(trial);
	/* (a join: its columns as the rows' program will read them) */
	if (outer->reloptkind != RELOPT_BASEREL)
	{
		exprs = (List *) gx_rows_vars((Node *) exprs, &cx);
		outer_relid = GX_ROWS_VARNO;
	}
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
		if (!gx_join_group_fits(partial->exprs, opath->parent,
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
				   Relids outer_relids, Relids inner_relids, Node **outer_prog)
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
	bool		rows = false;
	int			base;
	ListCell   *lc1,
			   *lc2,
			   *lc3;

	/* (not a table the device reads: the program of the child's rows) */
	if (prog == NULL && !bounds)
	{
		prog = gx_join_rows_prog(outer, outer_relids, oresnos, tlist, &tlist);
		relid = GX_ROWS_VARNO;
		rows = true;
	}
	if (prog == NULL ||
		!gx_group_outputs(prog, tlist, relid, &outs, &scales, &filts, &dscales, &sqs, &icols) ||
		prog->params != NIL || prog->may_fallback ||
		prog->nouts + list_length(icols.vars) > GX_MAX_OUTS)
	{
		*outer_prog = (Node *) makeInteger(0);
		return lappend(lappend(lappend(list_make5(NIL, NIL, NIL, NIL, NIL), NIL),
							   makeInteger(0)), makeInteger(0));
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
	return lappend(lappend(lappend(list_make5(fixed, scales, filts, dscales, sqs), cols),
						   makeInteger(base)), makeInteger(rows ? 1 : 0));
}
