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
 * An INNER hash or merge join is tried both ways (gx_join_swapped_path):
 * the join relation may have kept the GpuJoin path that builds its table
 * on the side whose columns the keys are computed from.
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
 *      list, gx_type, scale, 1 when it holds dictionary ids)
 *  16  Integer: icol_base, the outer program's outputs
 *  17  Integer: 1 when the outer program reads the outer child's rows
 *      (its columns are the child's resnos), 0 when it reads the table
 *  18  String: the estimated groups
 *  19  List of two IntLists: per custom_scan_tlist entry, its key's
 *      dictionary (0 none, resno > 0 a column of the outer child's rows,
 *      -(c + 1) inner column c); the outer rows' columns that hold
 *      dictionary ids
 *  20  IntList: per inner column, its output of the inner side's program
 *      (item 8, then its device input: the table's quals, keys and these
 *      columns, gx_join_group_inner_prog), or empty: the build reads the
 *      inner child's rows
 * String keys (text, varchar, bpchar, under a deterministic collation) of
 * rows the node lays out itself (the inner child's, the outer child's in
 * rows mode) are grouped by their ids in a dictionary (join_dict.cpp).
 * When nothing can be had at plan time (an output does not compile),
 * 7 is Integer 0 and only 10 .. 14 are there, empty: the node runs its
 * fallback.
 *
 * Fallback: the plan's third child is PostgreSQL's Partial (Hash)Aggregate
 * over the GpuJoin's own fallback join, with the same partial target; the
 * node runs it whenever the device cannot give every group exactly (no
 * table, no outer device input, a group table without room, a row the
 * device left to the host), so the rows are always PostgreSQL's.
 *
 * Cost: the counting join's (no pair back) and a tuple per group.
 *
 * Finalizing (GROUP BY, gpuext.enable_preagg_final; gx_join_final_path):
 * the device's groups are exact, one row each, so the node may compute
 * the aggregates' final values itself (preagg.cpp, as a finalizing
 * GpuPreAgg does), with HAVING as its qual, instead of PostgreSQL's
 * Finalize Aggregate above it (at Q10's 116K groups of seven keys, 455 ms
 * of a 2.6 s query).  Its plan is the aggregating GpuJoin's, whose
 * custom_scan_tlist then holds the final Aggrefs, its target list the
 * query's; its fallback (the third child) the Finalize plan over the
 * Partial Aggregate over the join's fallback, so that the fallback's
 * rows are final too; custom_private one more item, String "final".
 */
#include "gpuext.h"
#include "compat.h"
#include "planner.h"
#include "compiler.h"

extern "C"
{
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/prep.h"
#include "optimizer/tlist.h"
#include "utils/fmgroids.h"
#include "utils/selfuncs.h"
}

/* a string type whose values a GpuJoin groups by dictionary ids (join_dict.cpp) */
bool
gx_dict_type(Oid typid)
{
	return typid == TEXTOID || typid == VARCHAROID || typid == BPCHAROID;
}

/*
 * Is Var v nulled by an outer join inside the inner side (relations
 * inner_relids: from PostgreSQL 16 a join relation's relids hold its outer
 * joins too)?  Such a column of the inner side's rows (a join holding a
 * LEFT join) is not stored as an inner column: the plan's references to
 * it would lack that join's marks, which setrefs refuses ("wrong
 * varnullingrels"), so the join is not aggregated on the device in that
 * form.  The aggregating join's own outer join (a LEFT join's inner
 * columns) is not inside its inner side.
 */
static bool
gx_var_nulled(Var *v, Relids inner_relids)
{
#if PG_VERSION_NUM >= 160000
	return bms_overlap(v->varnullingrels, inner_relids);
#else
	(void) v;
	(void) inner_relids;
	return false;
#endif
}

/* inner column c's Var, or -1 */
static int
gx_inner_col_find(GxInnerCols *inner, Var *v)
{
	ListCell   *lc;

	foreach(lc, inner->vars)
		if (((Var *) lfirst(lc))->varno == v->varno &&
			((Var *) lfirst(lc))->varattno == v->varattno)
			return foreach_current_index(lc);
	return -1;
}

/* add inner column v of gx_type t, numeric scale (dict: its dictionary ids); its index */
static int
gx_inner_col_add(GxInnerCols *inner, Var *v, int t, int scale, bool dict)
{
	inner->vars = lappend(inner->vars, v);
	inner->types = lappend_int(inner->types, t);
	inner->scales = lappend_int(inner->scales, scale);
	inner->dicts = lappend_int(inner->dicts, dict ? 1 : 0);
	return list_length(inner->vars) - 1;
}

/*
 * Inner column of Var v (added when new): its index, its numeric scale in
 * *scale; -1 when the device cannot hold it exactly, or too many columns
 */
int
gx_inner_col(GxInnerCols *inner, Var *v, int *scale)
{
	int			c = gx_inner_col_find(inner, v);
	int			t;

	if (c >= 0)
	{
		*scale = list_nth_int(inner->scales, c);
		return list_nth_int(inner->dicts, c) ? -1 : GX_INNER_OUT(c);
	}
	if (v->varattno <= 0 || v->varlevelsup != 0 || gx_var_nulled(v, inner->relids) ||
		!gx_type_supported_mod(v->vartype, v->vartypmod, &t, scale) || t == GX_CHAR8 ||
		(t == GX_NUMERIC && *scale == GX_NUMERIC_FREE) ||
		list_length(inner->vars) >= gx_inner_max(inner))
		return -1;
	return GX_INNER_OUT(gx_inner_col_add(inner, v, t, *scale, false));
}

/*
 * A string GROUP BY key v over a join, grouped by its dictionary ids
 * (join_dict.cpp), where the node lays its values out itself: a column of
 * the inner side (an inner column of ids: its output returned), or of the
 * outer child's rows (relid GX_ROWS_VARNO: *ids, the int8 Var of its ids,
 * for the caller to compile; 0 returned); -1 otherwise (a table the device
 * reads, a collation that is not deterministic).  Notes the entry's
 * dictionary in inner->entry_dicts.
 */
int
gx_dict_key(GxInnerCols *inner, Var *v, Index relid, Var **ids)
{
	int			c;

	if (v->varlevelsup != 0 || v->varattno <= 0 || !gx_collation_exact(v->varcollid))
		return -1;
	if (bms_is_member(v->varno, inner->relids))
	{
		c = gx_inner_col_find(inner, v);
		if (c >= 0 && !list_nth_int(inner->dicts, c))
			return -1;
		if (c < 0)
		{
			if (list_length(inner->vars) >= gx_inner_max(inner))
				return -1;
			c = gx_inner_col_add(inner, v, GX_INT8, 0, true);
		}
		llast_int(inner->entry_dicts) = -(c + 1);
		return GX_INNER_OUT(c);
	}
	if (relid != GX_ROWS_VARNO)
		return -1;
	*ids = (Var *) copyObjectImpl(v);
	(*ids)->vartype = INT8OID;
	(*ids)->vartypmod = -1;
	(*ids)->varcollid = InvalidOid;
	llast_int(inner->entry_dicts) = v->varattno;
	if (!list_member_int(inner->dict_resnos, v->varattno))
		inner->dict_resnos = lappend_int(inner->dict_resnos, v->varattno);
	return 0;
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
 * and inner side inner_relids (max_cols inner columns at most, 0:
 * GX_JOIN_MAX_COLS)?  (A trial without the quals and keys; the plan
 * compiles them for good.)
 */
bool
gx_join_group_fits(List *exprs, RelOptInfo *outer, Relids inner_relids, bool rows, int max_cols)
{
	GxProgram  *trial = (GxProgram *) palloc(sizeof(GxProgram));
	GxRowsCx	cx = {NULL, outer->relids, true, NIL};
	Index		outer_relid = outer->relid;
	GxInnerCols inner = {inner_relids, NIL, NIL, NIL, NIL, NIL, NIL, max_cols};
	List	   *o,
			   *sc,
			   *f,
			   *ds,
			   *sq;

	gx_program_init(trial);
	/* (a join, or rows: its columns as the rows' program will read them) */
	if (rows || outer->reloptkind != RELOPT_BASEREL)
	{
		exprs = (List *) gx_rows_vars((Node *) exprs, &cx);
		outer_relid = GX_ROWS_VARNO;
	}
	return gx_group_outputs(trial, exprs, outer_relid, &o, &sc, &f, &ds, &sq, &inner) &&
		trial->nouts + GX_JOIN_MAX_KEYS + list_length(inner.vars) <= GX_MAX_OUTS;
}

static Plan *gx_plan_join_final_path(PlannerInfo *root, RelOptInfo *rel,
									 CustomPath *best_path, List *tlist, List *clauses,
									 List *custom_plans);

static CustomPathMethods gx_join_final_path_methods = {
	"GpuJoin",
	gx_plan_join_final_path,
	NULL
};

/*
 * The finalizing form of aggregating GpuJoin path part (partial target
 * partial) into output_rel (see the design note): its fallback the
 * Finalize plan over part's, its cost part's (a tuple per group, no
 * Finalize)
 */
static void
gx_join_final_path(PlannerInfo *root, RelOptInfo *output_rel, CustomPath *part,
				   PathTarget *partial, PathTarget *target, List *having,
				   AggClauseCosts *costs, double groups)
{
	CustomPath *fp = makeNode(CustomPath);
	Path	   *fallback;

	fallback = gx_final_hashed(root, output_rel, (Path *) lthird(part->custom_paths), target,
							   GX_GROUP_CLAUSE(root), having, costs, groups);
	memcpy(fp, part, sizeof(CustomPath));
	fp->path.pathtarget = target;
	fp->custom_paths = list_make3(linitial(part->custom_paths), lsecond(part->custom_paths),
								  fallback);
	fp->custom_private = list_concat(list_copy(part->custom_private),
									 list_make3(partial->exprs, gx_target_refs(partial), having));
	fp->methods = &gx_join_final_path_methods;
	add_path(output_rel, &fp->path);
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
	partial = gx_partial_target(root, target, having, 0, true, &group);
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

		if (!IsA(p, CustomPath) || list_length(((CustomPath *) p)->custom_paths) < 2)
			continue;
		/* (an INNER join both ways: the keys or arguments may be either side's) */
		for (int way = 0; way < 2; way++)
		{
			Path	   *w = way == 0 ? p : gx_join_swapped_path(p);
			Path	   *g;
			Path	   *opath;
			Path	   *ipath;

			if (w == NULL)
				continue;
			opath = (Path *) linitial(((CustomPath *) w)->custom_paths);
			ipath = (Path *) lsecond(((CustomPath *) w)->custom_paths);
			/* (a table's columns the device reads; else, or a string key, its rows) */
			if (!gx_join_group_fits(partial->exprs, opath->parent, ipath->parent->relids,
									false) &&
				!gx_join_group_fits(partial->exprs, opath->parent, ipath->parent->relids, true))
				continue;
			g = gx_join_group_path(root, input_rel, w, ((Path *) lfirst(lc))->pathtarget,
								   partial, groups);
			/* (over another GpuJoin: one multi-level probe, join_levels_path.cpp) */
			if (g != NULL && gx_join_levels_ok(w, partial))
				g = gx_join_levels_path(g, w);
			if (g != NULL && (best == NULL || g->total_cost < best->total_cost))
				best = g;
		}
	}
	if (best == NULL)
		return;
	/* gpuext.force: only the aggregating join remains (as for a GpuPreAgg) */
	gx_final_costs(root, output_rel, &costs);
	gx_add_final_paths(root, output_rel, best, target, (List *) having, &costs, groups);
	if (groupClause != NIL && gx_enable_final)
		gx_join_final_path(root, output_rel, (CustomPath *) best, partial, target,
						   (List *) having, &costs, groups);
}

/*
 * PlanCustomPath of a finalizing aggregating GpuJoin (see the design
 * note): the aggregating join's plan for the partial target (the path's
 * last three private items: partial expressions, their sortgrouprefs,
 * HAVING), made finalizing (gx_plan_finalizing)
 */
static Plan *
gx_plan_join_final_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
						List *tlist, List *clauses, List *custom_plans)
{
	List	   *priv = best_path->custom_private;
	int			n = list_length(priv) - 3;
	CustomPath *part = (CustomPath *) palloc(sizeof(CustomPath));
	CustomScan *cscan;

	memcpy(part, best_path, sizeof(CustomPath));
	part->custom_private = list_copy_head(priv, n);
	part->methods = &gx_join_path_methods;
	cscan = (CustomScan *) gx_join_path_methods.PlanCustomPath(
		root, rel, part,
		gx_refs_tlist((List *) list_nth(priv, n), (List *) list_nth(priv, n + 1)), clauses,
		custom_plans);
	gx_plan_finalizing(cscan, tlist, (List *) list_nth(priv, n + 2));
	return &cscan->scan.plan;
}

/*
 * The inner side's device input with the inner columns as more outputs of
 * its program (a table the device reads: its quals, keys, then each
 * column; no string column, whose ids the node makes): *inner_prog
 * replaced by it, and its outputs' list (item 20); NIL when it cannot
 * be had (the build reads the child's rows)
 */
List *
gx_join_group_inner_prog(Plan *inner, List *iresnos, GxInnerCols *icols, Node **inner_prog)
{
	Index		relid = 0;
	GxProgram  *prog;
	List	   *outs = NIL;

	/* (a range join's inner program is its one key's: iresnos NIL) */
	if (icols->vars == NIL || iresnos == NIL || list_member_int(icols->dicts, 1))
		return NIL;
	prog = gx_join_side_prog(inner, iresnos, false, &relid);
	if (prog == NULL)
		return NIL;
	for (int c = 0; c < list_length(icols->vars); c++)
	{
		Var		   *v = (Var *) copyObjectImpl(list_nth(icols->vars, c));
		int			t,
					sc,
					o;

#if PG_VERSION_NUM >= 160000
		v->varnullingrels = NULL;
#endif
		if (v->varno != (int) relid)
			return NIL;
		o = gx_program_add_output(prog, (Expr *) v, relid, &t, &sc);
		if (o < 0 || t != list_nth_int(icols->types, c) || sc != list_nth_int(icols->scales, c))
			return NIL;
		outs = lappend_int(outs, o);
	}
	if (prog->params != NIL || prog->may_host || prog->may_fallback)
		return NIL;
	*inner_prog = (Node *) gx_program_to_const(prog);
	return outs;
}

/*
 * At plan time: the outer side's program with the group outputs (into
 * *outer_prog, a Const, or Integer 0 when it cannot be had), and the
 * plan's items 10 .. 16 (see the design note) for target list tlist;
 * bounds: a range join's (its outer keys are the bounds' expressions)
 */
List *
gx_join_group_plan(Plan *outer, Plan *inner, List *oresnos, List *iresnos, bool bounds,
				   List *tlist, Relids outer_relids, Relids inner_relids, Node *groups,
				   Node **outer_prog, Node **inner_prog)
{
	GxInnerCols icols = {inner_relids, NIL, NIL, NIL, NIL, NIL, NIL};
	List	   *outs = NIL,
			   *scales = NIL,
			   *filts = NIL,
			   *dscales = NIL,
			   *sqs = NIL;
	List	   *fixed = NIL;
	List	   *cols = NIL;
	Index		relid = 0;
	GxProgram  *prog = gx_join_side_prog(outer, oresnos, bounds, &relid);
	bool		rows = false;
	bool		ok;
	int			base;
	ListCell   *lc;

	ok = prog != NULL &&
		gx_group_outputs(prog, tlist, relid, &outs, &scales, &filts, &dscales, &sqs, &icols);
	/*
	 * (not a table the device reads, or a string key of it: the program of
	 * the child's rows)
	 */
	if (!ok && !bounds)
	{
		List	   *rtlist;

		icols = GxInnerCols{inner_relids, NIL, NIL, NIL, NIL, NIL, NIL};
		prog = gx_join_rows_prog(outer, outer_relids, oresnos, tlist, &rtlist);
		relid = GX_ROWS_VARNO;
		rows = true;
		ok = prog != NULL &&
			gx_group_outputs(prog, rtlist, relid, &outs, &scales, &filts, &dscales, &sqs,
							 &icols);
	}
	if (!ok || prog->params != NIL || prog->may_fallback ||
		prog->nouts + list_length(icols.vars) > GX_MAX_OUTS)
	{
		*outer_prog = (Node *) makeInteger(0);
		return list_make5(NIL, NIL, NIL, NIL, NIL);
	}
	base = prog->nouts;
	foreach(lc, outs)
	{
		int			o = lfirst_int(lc);

		fixed = lappend_int(fixed, GX_IS_INNER_OUT(o) ? base + o - GX_INNER_OUT(0) : o);
	}
	for (int c = 0; c < list_length(icols.vars); c++)
	{
		cols = lappend_int(cols, gx_child_resno(inner, (Expr *) list_nth(icols.vars, c)));
		cols = lappend_int(cols, list_nth_int(icols.types, c));
		cols = lappend_int(cols, list_nth_int(icols.scales, c));
		cols = lappend_int(cols, list_nth_int(icols.dicts, c));
	}
	*outer_prog = (Node *) gx_program_to_const(prog);
	return lappend(list_concat(list_make5(fixed, scales, filts, dscales, sqs),
							   list_make5(cols, makeInteger(base), makeInteger(rows ? 1 : 0),
										  groups,
										  list_make2(icols.entry_dicts, icols.dict_resnos))),
				   gx_join_group_inner_prog(inner, iresnos, &icols, inner_prog));
}
