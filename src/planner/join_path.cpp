/*
 * join_path.cpp - GpuJoin paths: a hash or a merge join of two sides
 * (tables or joins: chains), or a range join for band and inequality
 * predicates of two tables, on the device.
 *
 * Design note
 * -----------
 * set_join_pathlist_hook (chained) offers a Custom Scan (GpuJoin) path
 * beside PostgreSQL's own join paths when the join is one the device's
 * hash join runs exactly (docs/engine.md, GpuJoin):
 *
 *  - INNER, SEMI (EXISTS, IN), ANTI (NOT EXISTS), LEFT, RIGHT or FULL
 *    (outer joins: either side built, a LEFT join offered as LEFT and as
 *    RIGHT with the sides swapped, a FULL join both ways) between two
 *    sides, each read by its cheapest unparameterized path, which becomes
 *    a child plan of the CustomScan (custom_plans: outer, inner).  A side
 *    is a base relation the device can read (gx_scan_rel_eligible) or a
 *    join relation (gx_join_side_ok): chains of three or more tables
 *    become nested joins, the child a GpuJoin, a Hash Join or any plan
 *    PostgreSQL found cheapest for that join; the node drains such a
 *    child through the backend (it has no device input), and the keys
 *    and returned columns must be Vars of its target (gx_side_has_var:
 *    the join relation's, which holds every Var a join above needs;
 *    gx_child_resno finds them in the child's target list, by column, as
 *    PostgreSQL 16+ marks a Var above an outer join and not below);
 *  - the key clauses: an equality of a Var of one side with a Var of the
 *    other, whose operator (by its function) compares by value the
 *    integers the device holds: int2/int4/int8 in any mix, date, timestamp,
 *    timestamptz, bool, and numeric with a typmod (both sides at one
 *    scale that an int64 holds), or float4 / float8 in any mix (as
 *    float8eq: -0 = 0, NaN = NaN; not the range join's); hashable (the
 *    fallback's hash clause); one or two keys (GX_JOIN_MAX_KEYS), at
 *    least one;
 *  - other join clauses: an INNER join's are its host quals (below); a
 *    SEMI, ANTI or outer join with one gets no path, since such a qual
 *    decides which rows match (a SEMI row matched by a key but not the
 *    qual must try the key's next inner row, an outer row whose matches
 *    all fail it is NULL-extended), which a filter over the device's
 *    pairs cannot do exactly;
 *  - no pseudoconstant (a join relation's CustomScan gets no gating
 *    Result), no PlaceHolderVar in the target, only the outer side's
 *    columns for SEMI / ANTI, a SELECT without row marks (no EvalPlanQual
 *    recheck of a join's rows);
 *  - outer joins: every clause of the restrictlist one of the join's own
 *    (ON) clauses: a clause pushed down to the join (a WHERE clause above
 *    it, which removes rows instead of NULL-extending them) means no
 *    path.
 *
 * Host quals (an INNER join's other join clauses: a.x < b.y, a.t <> b.t,
 * text comparisons, a third key; not pseudoconstant, no subplan or
 * PlaceHolderVar, every Var one a side returns): the device joins on the
 * keys, and each pair it returns is formed into the scan slot and the
 * quals run over it on the host, as a Hash Join runs its join filter.
 * They are the plan's custom_exprs (setrefs points their Vars at
 * custom_scan_tlist, which has the target's Vars, then theirs); the node
 * gives them to ExecScan as its qual (EXPLAIN: "Join Filter", ANALYZE
 * "Rows Removed by Join Filter").  Their cost is cost_qual_eval's for
 * each pair the device returns (the join's rows over the quals'
 * selectivity).  A counting path is not offered over a join with host
 * quals: the rows must be formed to run them, so PostgreSQL's Aggregate
 * counts them above the GpuJoin.  The range join takes none (every
 * clause a bound) and two base relations only.
 *
 * The range join (gx_try_range_path; gx_jrange.cuh), when no hash path
 * fits: the same joins of the same relations whose one or two join
 * clauses are all inequalities (<, <=, >, >=; BETWEEN is two) between ONE
 * column of the inner side and an expression of outer columns only (not
 * volatile, no subplan or PlaceHolderVar), each normalized to a lower or
 * an upper bound of the inner key (gx_range_clause: at most one of
 * each), with a comparison function of the hash join's types but bool,
 * the bound of the key's family (numeric: with a typmod, both at the
 * larger scale).  The bounds go into the outer child's target list (its
 * scan computes them; the node reads them as keys); custom_private 6
 * says which outer key is which bound.  Its fallback is PostgreSQL's
 * Nested Loop of the same sides over a Materialize of the inner path
 * (gx_range_fallback_path); its cost has 2 log2(n) device operations per
 * row of either side (sort, binary searches) where the hash join has 2
 * per key.  gpuext.enable_nestloop switches it, gpuext.enable_hashjoin
 * the hash join.  Its sides are base relations only (the bounds go into
 * the outer scan's target list).  (A bound that raises an error, an
 * overflowing r.k + d, raises it for every outer row the scan reads,
 * where PostgreSQL evaluates the clause only for the pairs it tests.)
 *
 * The merge join (gx_try_hash_path with GX_JOIN_MERGE; gx_jmerge.cuh):
 * beside each hash path, the same join (keys, target, fallback, device
 * inputs) run as a sort-merge join, custom_private 9 saying which; its
 * cost has 2 nkeys log2(n) + 2 device operations per inner row (the sort)
 * and 2 nkeys log2(b) + 2 per outer row (a batch of b rows sorted, then
 * merged), so the hash join wins where both are on;
 * gpuext.enable_mergejoin switches it.
 *
 * Anything else keeps PostgreSQL's plans, so a query never gets a wrong
 * answer or an error it would not get without gpuext.  The path is
 * unparameterized and not parallel-safe (the node opens its own engine
 * session); a rescan reuses the built table unless the inner side's
 * parameters changed (gpujoin.cpp).
 *
 * Fallback.  The device's table must hold every inner row, and the inner
 * side's size is known only when the node has read it.  So each GpuJoin
 * path carries a third child, PostgreSQL's own Hash Join of the same
 * join type over the same two child paths (gx_join_fallback_path; its
 * hash clauses the keys' clauses, its join filter the host quals; a side
 * that is a GpuJoin is joined by that GpuJoin's own fallback, so the
 * fallback holds no GpuJoin and a chain of n GpuJoins plans each join at
 * most n times), which the node runs instead, before it has returned a row, when
 * the table does not fit (gpuext.session_memory, gpuext.device_memory,
 * the object table, the device's memory, GX_JOIN_MAX_CAP rows): the
 * answer is then PostgreSQL's, never an out-of-memory ERROR.  The Hash
 * Join is built fresh for the path (not taken from the join relation's
 * list, where add_path may free a path it rejects later); a key clause
 * must be hashable (one that is not, none today, is no key: an INNER
 * join's host qual, else no GpuJoin path).  It is not costed into the
 * GpuJoin path: it runs only where the device cannot.
 *
 * Cost: both children, then on the host the copy of every row of both
 * sides and the keys put into batches (cpu_tuple_cost and
 * cpu_operator_cost per key), on the device the build and the probe
 * (gpuext.gpu_operator_cost per key and row), the pairs handed back
 * (gpuext.gpu_tuple_cost) and the joined rows formed (cpu_tuple_cost),
 * with the host quals run over each pair, plus gpuext.gpu_setup_cost.
 * gpuext.force drops the join relation's other paths once a GpuJoin path
 * is in its list, as it drops a table's other scans for GpuScan: the join
 * order (which tables a chain joins first, through which sides) and the
 * build side are still chosen by cost among the GpuJoin paths, and a
 * join relation no GpuJoin takes keeps PostgreSQL's paths, under a
 * GpuJoin above it.
 *
 * The plan (gx_plan_join_path): scanrelid 0, custom_scan_tlist = the join
 * relation's target list (Vars; then the host quals' other Vars),
 * custom_exprs = the host quals, custom_plans = (outer, inner, fallback),
 * custom_private = (mode, outer key resnos, inner key resnos, key types,
 * where each custom_scan_tlist column comes from, count mode, each side's
 * device input program): gx_join_plan_private() documents the layout the
 * executor reads.  A side's device input (gx_join_side_program) is the
 * program of its table's quals and keys when its child is a plain scan
 * the device can run whole; the node may then read the table itself.
 *
 * Counting joins.  For SELECT count(*) over the join (no GROUP BY, no
 * HAVING, no other aggregate), agg_path.cpp's create_upper_paths_hook asks
 * gx_join_count_path for a copy of the join relation's GpuJoin path whose
 * target is the partial count(*) (gx_partial_target) and puts
 * PostgreSQL's Finalize Aggregate over it (gx_add_final_paths), as it does
 * over an aggregate GpuScan:
 *
 *   Finalize Aggregate
 *     ->  Custom Scan (GpuJoin)     Device Aggregates: count(*)
 *
 * Its children and its fallback are the GpuJoin path's; the node probes
 * in count-only mode and returns one row, the count as count(*)'s
 * partial state (int8).  Its cost is the GpuJoin's without the pairs
 * handed back and the rows formed (one row).  Only a GpuJoin path that
 * survived in the join relation's list is counted (add_path frees those
 * it rejects), so gpuext.enable_gpujoin, enable_hashjoin and force rule
 * it as they rule the GpuJoin; gpuext.enable_agg switches device
 * aggregates, this one included.  Over a chain the top GpuJoin counts
 * (its sides' joins return rows); a GpuJoin with host quals is not
 * counted (see above).
 *
 * Nesting and staging slots: a GpuJoin in another's outer child (anywhere
 * in its tree, through any plan) reads its outer side as any GpuJoin
 * does, but gives its batch's staging slot back between passes
 * (gpujoin.cpp, st->nested): the GpuJoin above, probing its rows, takes
 * a slot of its own meanwhile, and a backend that waited for a slot while
 * holding one could, with as many backends doing so as there are slots,
 * wait forever.  (An inner child is drained before the node above takes
 * a slot.)
 */
#include "gpuext.h"
#include "planner.h"
#include "compiler.h"
#include "executor.h"
#include "compat.h"

#include <cmath>

extern "C"
{
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/prep.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
}

static set_join_pathlist_hook_type prev_set_join_pathlist_hook = NULL;

static Plan *gx_plan_join_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
							   List *tlist, List *clauses, List *custom_plans);
static bool gx_range_expr_foreign(Node *node, void *context);

/* (planner.h: the finalizing aggregating GpuJoin plans through it, join_agg_path.cpp) */
CustomPathMethods gx_join_path_methods = {
	"GpuJoin",
	gx_plan_join_path,
	NULL
};

static CustomScanMethods gx_join_plan_methods = {
	"GpuJoin",
	gx_create_join_state
};

/*
 * Does the equality function fn compare the device's int64 values of its
 * two arguments exactly as PostgreSQL does?  (Integers by value in any
 * mix of widths, dates, timestamps, bools, numerics at one scale.)
 */
static bool
gx_join_eq_func(Oid fn)
{
	switch (fn)
	{
		case F_INT2EQ:
		case F_INT4EQ:
		case F_INT8EQ:
		case F_INT24EQ:
		case F_INT42EQ:
		case F_INT28EQ:
		case F_INT82EQ:
		case F_INT48EQ:
		case F_INT84EQ:
		case F_DATE_EQ:
		case F_TIMESTAMP_EQ:
		case F_TIMESTAMPTZ_EQ:
		case F_BOOLEQ:
		case F_NUMERIC_EQ:
		case F_FLOAT4EQ:
		case F_FLOAT8EQ:
		case F_FLOAT48EQ:
		case F_FLOAT84EQ:
			return true;
		default:
			return false;
	}
}


/*
 * The device type of a key (a Var; a range join's bound: an expression),
 * its numeric scale and digits before the point; false for a type the
 * join cannot take
 */
static bool
gx_join_key_type(Expr *e, int *gxtype, int *scale, int *intdigits)
{
	int32		typmod = exprTypmod((Node *) e);

	if (!gx_type_supported_mod(exprType((Node *) e), typmod, gxtype, scale))
		return false;
	*intdigits = 0;
	if (*gxtype == GX_NUMERIC)
	{
		if (*scale == GX_NUMERIC_FREE)
			return false;		/* unconstrained numeric: values the device cannot hold */
		*intdigits = (((typmod - VARHDRSZ) >> 16) & 0xffff) - *scale;
	}
	return *gxtype == GX_BOOL || *gxtype == GX_INT2 || *gxtype == GX_INT4 ||
		*gxtype == GX_INT8 || *gxtype == GX_NUMERIC || GX_JOIN_FLOAT(*gxtype);
}

/*
 * Can the child plan of side rel return Var v?  A scan returns any column
 * of its table; a join relation's child returns its target (the
 * cheapest path's), which holds every Var a join above it needs.
 */
static bool
gx_side_has_var(RelOptInfo *rel, Var *v)
{
	ListCell   *lc;

	if (v->varlevelsup != 0 || !bms_is_member(v->varno, rel->relids))
		return false;
	if (rel->reloptkind == RELOPT_BASEREL)
		return true;
	foreach(lc, rel->reltarget->exprs)
	{
		Var		   *t = (Var *) lfirst(lc);

		/* (PostgreSQL 16+: nulling marks may differ above an outer join) */
		if (IsA(t, Var) && t->varno == v->varno && t->varattno == v->varattno &&
			t->varlevelsup == 0)
			return true;
	}
	return false;
}

/*
 * Is the join clause ri an equality of a Var of the outer side with a Var
 * of the inner side that the device compares exactly?  Sets *okey, *ikey
 * and *scale (numeric: the common scale of both sides' values, else 0).
 */
static bool
gx_join_key_clause(RestrictInfo *ri, RelOptInfo *outerrel, RelOptInfo *innerrel,
				   Var **okey, Var **ikey, int *scale)
{
	OpExpr	   *op;
	Var		   *l,
			   *r;
	int			ot,
				it,
				os,
				is,
				od,
				id;

	if (ri->pseudoconstant || !IsA(ri->clause, OpExpr))
		return false;
	op = (OpExpr *) ri->clause;
	if (list_length(op->args) != 2 || op->opretset || !gx_join_eq_func(get_opcode(op->opno)))
		return false;
	l = (Var *) linitial(op->args);
	r = (Var *) lsecond(op->args);
	if (!IsA(l, Var) || !IsA(r, Var) || l->varlevelsup != 0 || r->varlevelsup != 0)
		return false;
	if (bms_is_member(l->varno, outerrel->relids) && bms_is_member(r->varno, innerrel->relids))
	{
		*okey = l;
		*ikey = r;
	}
	else if (bms_is_member(r->varno, outerrel->relids) &&
			 bms_is_member(l->varno, innerrel->relids))
	{
		*okey = r;
		*ikey = l;
	}
	else
		return false;
	if (!gx_side_has_var(outerrel, *okey) || !gx_side_has_var(innerrel, *ikey))
		return false;
	if (!gx_join_key_type((Expr *) *okey, &ot, &os, &od) ||
		!gx_join_key_type((Expr *) *ikey, &it, &is, &id))
		return false;
	if ((ot == GX_NUMERIC) != (it == GX_NUMERIC) || GX_JOIN_FLOAT(ot) != GX_JOIN_FLOAT(it))
		return false;
	*scale = Max(os, is);
	/* numerics: both sides' values as int64 at the larger scale */
	return ot != GX_NUMERIC || Max(od, id) + *scale <= 18;
}

/*
 * Is every column the join returns a Var of the side it can take it from
 * (SEMI / ANTI: the outer side only; a join relation's side: its target)?
 */
static bool
gx_join_target_ok(RelOptInfo *joinrel, RelOptInfo *outerrel, RelOptInfo *innerrel,
				  int mode)
{
	ListCell   *lc;

	foreach(lc, joinrel->reltarget->exprs)
	{
		Var		   *v = (Var *) lfirst(lc);

		if (!IsA(v, Var) || v->varlevelsup != 0)
			return false;
		if (!gx_side_has_var(outerrel, v) &&
			(!GX_JOIN_MODE_PAIRS(mode) || !gx_side_has_var(innerrel, v)))
			return false;
	}
	return true;
}

/*
 * the cost of a GpuJoin path of algorithm alg (enum gx_join_alg) over its
 * two children (see the design note); count: the counting node, one row
 * out and no pair back; hq: the host quals' cost per pair (NULL: none),
 * pairs: the pairs the device returns (path->rows before the host quals)
 */
static void
gx_cost_join(Path *path, Path *outer, Path *inner, int nkeys, bool count, int alg,
			 QualCost *hq, double pairs)
{
	bool		range = alg == GX_JOIN_RANGE;
	double		orows = outer->rows;
	double		irows = inner->rows;
	double		logn = irows > 2 ? std::log2(irows) : 1;
	double		batch = Min(orows, (double) gx_chunk_rows);
	double		logb = batch > 2 ? std::log2(batch) : 1;
	Cost		build,
				probe,
				out;

	/*
	 * the inner side: read, copied, its keys batched, built on the device
	 * (a range join: one key, sorted, n log n; a merge join: its keys
	 * sorted, n log n a key, and their runs encoded)
	 */
	build = inner->total_cost + gx_gpu_setup_cost +
		(cpu_tuple_cost + cpu_operator_cost * (range ? 1 : nkeys)) * irows +
		gx_gpu_operator_cost * irows *
		(range ? 2 * logn : alg == GX_JOIN_MERGE ? 2 * nkeys * logn + 2 : 2 * nkeys);
	/*
	 * the outer side: read, copied, its keys (bounds) batched, probed on the
	 * device (a range join: two binary searches of log n steps; a merge
	 * join: each batch sorted, then merged, a step a row)
	 */
	probe = outer->total_cost + (cpu_tuple_cost + cpu_operator_cost * nkeys) * orows +
		gx_gpu_operator_cost * orows *
		(range ? 2 * logn : alg == GX_JOIN_MERGE ? 2 * nkeys * logb + 2 : 2 * nkeys);
	/* the pairs handed back, the host quals, the joined rows formed */
	out = count ? cpu_tuple_cost + path->pathtarget->cost.per_tuple :
		(gx_gpu_tuple_cost + cpu_tuple_cost + (hq != NULL ? hq->per_tuple : 0)) * pairs +
		path->pathtarget->cost.per_tuple * path->rows;
	if (hq != NULL)
		build += hq->startup;
	path->startup_cost = build + path->pathtarget->cost.startup;
	path->total_cost = build + probe + out + path->pathtarget->cost.startup;
}

/* is this path a GpuJoin path? */
static bool
gx_is_join_path(Path *p)
{
	return IsA(p, CustomPath) && ((CustomPath *) p)->methods == &gx_join_path_methods;
}

/* the GpuJoin paths of a path list */
static List *
gx_join_paths_of(List *paths)
{
	List	   *keep = NIL;
	ListCell   *lc;

	foreach(lc, paths)
		if (gx_is_join_path((Path *) lfirst(lc)))
			keep = lappend(keep, lfirst(lc));
	return keep;
}

/*
 * gpuext.force: once the join relation has a GpuJoin path (or one is
 * being added: adding), its other paths (and partial paths) go, so that
 * the join runs on the device
 */
static void
gx_join_force(RelOptInfo *joinrel, bool adding)
{
	List	   *keep = gx_join_paths_of(joinrel->pathlist);

	if (keep == NIL && !adding)
		return;
	joinrel->pathlist = keep;
	/* (partial GpuJoin paths stay: Gather over one may win by cost) */
	joinrel->partial_pathlist = gx_join_paths_of(joinrel->partial_pathlist);
}

/*
 * The join type of mode and the extra data of a fallback join of the
 * join clauses restrictlist (*x): the hook's extra, for PostgreSQL's join
 * of its own two sides, whose inner_unique may be about the other side
 * (an inner join offered with the sides swapped), so it is off here
 * (always correct); SEMI / ANTI cost with their own selectivities
 */
static JoinType
gx_fallback_extra(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
				  RelOptInfo *innerrel, int mode, List *restrictlist, JoinPathExtraData *extra,
				  JoinPathExtraData *x)
{
	static const JoinType jts[] = {JOIN_INNER, JOIN_SEMI, JOIN_ANTI, JOIN_LEFT, JOIN_RIGHT,
	JOIN_FULL};
	JoinType	jt = jts[mode];

	*x = *extra;
	x->restrictlist = restrictlist;
	x->inner_unique = false;
	if (jt == JOIN_SEMI || jt == JOIN_ANTI)
		compute_semi_anti_join_factors(root, joinrel, outerrel, innerrel, jt, extra->sjinfo,
									   restrictlist, &x->semifactors);
	return jt;
}

/*
 * The fallback of a GpuJoin path (see the design note): PostgreSQL's Hash
 * Join of mode over the same outer and inner paths, the clauses hashclauses
 * (the keys' clauses) its hash clauses, the rest of restrictlist (an INNER
 * join's host quals) its join filter; NULL when a hash clause is not
 * hashable (extra: gx_fallback_extra).
 */
static Path *
gx_join_fallback_path(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
					  RelOptInfo *innerrel, Path *outer, Path *inner, int mode,
					  List *restrictlist, List *hashclauses, JoinPathExtraData *extra)
{
	JoinType	jt;
	JoinPathExtraData x;
	JoinCostWorkspace ws;
	Path	   *path;
	ListCell   *lc;

	foreach(lc, hashclauses)
		if (!OidIsValid(((RestrictInfo *) lfirst(lc))->hashjoinoperator))
			return NULL;
	/*
	 * A side that is a GpuJoin (a chain) is joined by its own fallback
	 * here, PostgreSQL's plan of the same relation: so the fallback holds
	 * no GpuJoin and a chain of n GpuJoins plans each join n times at
	 * most, not 2^(n-1) times (the same Path is planned twice: createplan
	 * does not change a Path)
	 */
	if (gx_is_join_path(outer))
		outer = (Path *) lthird(((CustomPath *) outer)->custom_paths);
	if (gx_is_join_path(inner))
		inner = (Path *) lthird(((CustomPath *) inner)->custom_paths);
	jt = gx_fallback_extra(root, joinrel, outerrel, innerrel, mode, restrictlist, extra, &x);
	initial_cost_hashjoin(root, &ws, jt, hashclauses, outer, inner, &x, false);
	path = &create_hashjoin_path(root, joinrel, jt, &ws, &x, outer, inner, false,
								 restrictlist, NULL, hashclauses)->jpath.path;
#if PG_VERSION_NUM >= 180000
	/* (enable_hashjoin chooses among plans; the fallback is no choice) */
	path->disabled_nodes = outer->disabled_nodes + inner->disabled_nodes;
#endif
	return path;
}

/*
 * The outer path of a partial GpuJoin of mode over inner (see the design
 * note, Parallel): outerrel's cheapest partial path, when the join may run
 * in parallel (RIGHT and FULL may not: their unmatched inner rows need
 * every process's probes); else NULL
 */
static Path *
gx_partial_outer(RelOptInfo *joinrel, RelOptInfo *outerrel, Path *inner, int mode)
{
	if (!gx_enable_parallel_join || !joinrel->consider_parallel ||
		GX_JOIN_MODE_MARKS(mode) || outerrel->partial_pathlist == NIL || inner == NULL)
		return NULL;
	return (Path *) linitial(outerrel->partial_pathlist);
}

/*
 * The inner path of a partial GpuJoin: innerrel's cheapest unparameterized
 * parallel-safe path (its cheapest may be a Gather, which is not), or NULL
 */
static Path *
gx_parallel_inner(RelOptInfo *innerrel)
{
	Path	   *best = NULL;
	ListCell   *lc;

	foreach(lc, innerrel->pathlist)
	{
		Path	   *p = (Path *) lfirst(lc);

		if (p->parallel_safe && p->param_info == NULL &&
			(best == NULL || p->total_cost < best->total_cost))
			best = p;
	}
	return best;
}

/*
 * Add the GpuJoin path of mode and algorithm alg over the outer and inner
 * paths with its fallback, keys, (a range join) bounds
 * (gx_join_plan_private's 1 to 3, 6 and 9) and host quals (RestrictInfos;
 * an INNER equi-join's) to joinrel.  The path's custom_private: (mode,
 * outer keys, inner keys, scales, count flag, range, host quals, alg).
 * partial: outer is a partial path (gx_partial_outer), and so is the
 * fallback; the path is a partial path of joinrel, parallel-aware (the
 * leader builds the table once, join_parallel.cpp), its rows and costs
 * a process's share.
 */
static void
gx_add_join_path(PlannerInfo *root, RelOptInfo *joinrel, int mode, Path *outer, Path *inner,
				 Path *fallback, List *okeys, List *ikeys, List *scales, List *range,
				 List *hostquals, int alg, JoinPathExtraData *extra, bool partial)
{
	CustomPath *cp = gx_serial_custom_path(joinrel, joinrel->reltarget, joinrel->rows);
	QualCost	hq;
	double		pairs = joinrel->rows;
	double		share = 1;

	if (partial)
	{
		cp->path.parallel_aware = true;
		cp->path.parallel_safe = true;
		cp->path.parallel_workers = outer->parallel_workers;
		share = gx_parallel_divisor(&cp->path);
		cp->path.rows = clamp_row_est(joinrel->rows / share);
		pairs = cp->path.rows;
	}

	cp->custom_paths = list_make3(outer, inner, fallback);
	cp->custom_private = lappend(lappend(list_make5(makeInteger(mode), okeys, ikeys, scales,
													makeInteger(0)), range), hostquals);
	cp->custom_private = lappend(cp->custom_private, makeInteger(alg));
	cp->methods = &gx_join_path_methods;
	/* (the device returns the pairs of the keys: rows before the host quals) */
	if (hostquals != NIL)
	{
		Selectivity sel = clauselist_selectivity(root, hostquals, 0, JOIN_INNER, extra->sjinfo);

		cost_qual_eval(&hq, hostquals, root);
		pairs = Min(joinrel->rows / share / Max(sel, 1e-10), outer->rows * inner->rows);
	}
	gx_cost_join(&cp->path, outer, inner, list_length(okeys), false, alg,
				 hostquals != NIL ? &hq : NULL, Max(pairs, cp->path.rows));
	/* forced: PostgreSQL's paths go first, so that this one is not dominated */
	if (gx_force)
		gx_join_force(joinrel, true);
	if (partial)
		add_partial_path(joinrel, &cp->path);
	else
		add_path(joinrel, &cp->path);
}

/*
 * Can the join clause ri be a host qual, evaluated over each joined row
 * (an INNER join's; see the design note)?  Not a pseudoconstant, no
 * subplan, no PlaceHolderVar; every Var one a side's child returns.
 */
static bool
gx_host_qual_ok(RestrictInfo *ri, RelOptInfo *outerrel, RelOptInfo *innerrel)
{
	List	   *vars;
	ListCell   *lc;

	if (ri->pseudoconstant || contain_subplans((Node *) ri->clause) ||
		gx_range_expr_foreign((Node *) ri->clause, NULL))
		return false;
	vars = pull_var_clause((Node *) ri->clause, PVC_INCLUDE_PLACEHOLDERS);
	foreach(lc, vars)
	{
		Var		   *v = (Var *) lfirst(lc);

		if (!IsA(v, Var) || (!gx_side_has_var(outerrel, v) && !gx_side_has_var(innerrel, v)))
			return false;
	}
	return true;
}

/*
 * Can a LEFT join's host quals (join_filter.cpp) share the scan slot with
 * its output?  The quals read the inner columns as they are in the ON
 * clause, the output as nulled by the join (PostgreSQL 16+ marks those
 * Vars, varnullingrels), and one column of custom_scan_tlist cannot be
 * both: an inner column in both keeps PostgreSQL's plan (on every
 * version, so that the plans are the same).
 */
static bool
gx_join_quals_nulling_ok(RelOptInfo *joinrel, RelOptInfo *innerrel, int mode, List *hostquals)
{
	List	   *vars;
	ListCell   *lc;

	if (mode != GX_JOIN_LEFT || hostquals == NIL)
		return true;
	vars = pull_var_clause((Node *) extract_actual_clauses(hostquals, false), 0);
	foreach(lc, vars)
	{
		Var		   *v = (Var *) lfirst(lc);
		ListCell   *lc2;

		if (!bms_is_member(v->varno, innerrel->relids))
			continue;
		foreach(lc2, joinrel->reltarget->exprs)
		{
			Var		   *o = (Var *) lfirst(lc2);

			if (IsA(o, Var) && o->varno == v->varno && o->varattno == v->varattno)
				return false;
		}
	}
	return true;
}

/*
 * Offer a GpuJoin path of mode over outerrel (probed) and innerrel (built)
 * running the device's equi-join algorithm alg (GX_JOIN_HASH, or
 * GX_JOIN_MERGE: the same joins, keys and fallback), when it can (see
 * the design note): the first GX_JOIN_MAX_KEYS key equalities are its
 * keys; an INNER join's other join clauses its host quals
 */
static void
gx_try_hash_path(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
				 RelOptInfo *innerrel, int mode, JoinPathExtraData *extra, int alg)
{
	List	   *restrictlist = extra->restrictlist;
	List	   *okeys = NIL,
			   *ikeys = NIL,
			   *scales = NIL,
			   *keyris = NIL,
			   *hostquals = NIL;
	Path	   *outer = outerrel->cheapest_total_path;
	Path	   *inner = innerrel->cheapest_total_path;
	Path	   *fallback;
	ListCell   *lc;

	/* (the sides checked: gx_try_join_path) */
	foreach(lc, restrictlist)
	{
		RestrictInfo *ri = (RestrictInfo *) lfirst(lc);
		Var		   *o,
				   *i;
		int			scale;

		if (ri->pseudoconstant)
			return;
		/* an outer join's clauses are its own (see the design note) */
		if (GX_JOIN_MODE_PAIRS(mode) && mode != GX_JOIN_INNER &&
			RINFO_IS_PUSHED_DOWN(ri, joinrel->relids))
			return;
		if (list_length(okeys) < GX_JOIN_MAX_KEYS && OidIsValid(ri->hashjoinoperator) &&
			gx_join_key_clause(ri, outerrel, innerrel, &o, &i, &scale))
		{
			okeys = lappend(okeys, o);
			ikeys = lappend(ikeys, i);
			scales = lappend_int(scales, scale);
			keyris = lappend(keyris, ri);
		}
		/* (RIGHT / FULL: the unmatched inner rows would depend on them) */
		else if (!GX_JOIN_MODE_MARKS(mode) && gx_host_qual_ok(ri, outerrel, innerrel))
			hostquals = lappend(hostquals, ri);
		else
			return;
	}
	if (okeys == NIL || !gx_join_target_ok(joinrel, outerrel, innerrel, mode) ||
		!gx_join_quals_nulling_ok(joinrel, innerrel, mode, hostquals))
		return;
	fallback = gx_join_fallback_path(root, joinrel, outerrel, innerrel, outer, inner, mode,
									 restrictlist, keyris, extra);
	if (fallback == NULL)
		return;
	gx_add_join_path(root, joinrel, mode, outer, inner, fallback, okeys, ikeys, scales, NIL,
					 hostquals, alg, extra, false);
	/* the partial form: the same over outerrel's partial path */
	inner = gx_parallel_inner(innerrel);
	if ((outer = gx_partial_outer(joinrel, outerrel, inner, mode)) != NULL &&
		(fallback = gx_join_fallback_path(root, joinrel, outerrel, innerrel, outer, inner,
										  mode, restrictlist, keyris, extra)) != NULL)
		gx_add_join_path(root, joinrel, mode, outer, inner, fallback, okeys, ikeys, scales,
						 NIL, hostquals, alg, extra, true);
}

/* ---- the range join: band and inequality predicates (gx_jrange.cuh) ---- */

/*
 * The comparison of the inequality function fn, for values the device
 * compares as PostgreSQL does (the types of gx_join_eq_func but bool):
 * -2 <, -1 <=, 1 >=, 2 >; 0 for any other function
 */
static int
gx_range_cmp_func(Oid fn)
{
	switch (fn)
	{
		case F_INT2LT:
		case F_INT4LT:
		case F_INT8LT:
		case F_INT24LT:
		case F_INT42LT:
		case F_INT28LT:
		case F_INT82LT:
		case F_INT48LT:
		case F_INT84LT:
		case F_DATE_LT:
		case F_TIMESTAMP_LT:
		case F_TIMESTAMPTZ_LT:
		case F_NUMERIC_LT:
			return -2;
		case F_INT2LE:
		case F_INT4LE:
		case F_INT8LE:
		case F_INT24LE:
		case F_INT42LE:
		case F_INT28LE:
		case F_INT82LE:
		case F_INT48LE:
		case F_INT84LE:
		case F_DATE_LE:
		case F_TIMESTAMP_LE:
		case F_TIMESTAMPTZ_LE:
		case F_NUMERIC_LE:
			return -1;
		case F_INT2GE:
		case F_INT4GE:
		case F_INT8GE:
		case F_INT24GE:
		case F_INT42GE:
		case F_INT28GE:
		case F_INT82GE:
		case F_INT48GE:
		case F_INT84GE:
		case F_DATE_GE:
		case F_TIMESTAMP_GE:
		case F_TIMESTAMPTZ_GE:
		case F_NUMERIC_GE:
			return 1;
		case F_INT2GT:
		case F_INT4GT:
		case F_INT8GT:
		case F_INT24GT:
		case F_INT42GT:
		case F_INT28GT:
		case F_INT82GT:
		case F_INT48GT:
		case F_INT84GT:
		case F_DATE_GT:
		case F_TIMESTAMP_GT:
		case F_TIMESTAMPTZ_GT:
		case F_NUMERIC_GT:
			return 2;
		default:
			return 0;
	}
}

/*
 * Does expression node hold what the outer child's scan cannot compute
 * as a column of its own: a PlaceHolderVar, a Var of an outer query?
 */
static bool
gx_range_expr_foreign(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, PlaceHolderVar) || (IsA(node, Var) && ((Var *) node)->varlevelsup != 0))
		return true;
	return expression_tree_walker(node, GX_WALKER(gx_range_expr_foreign), context);
}

/* a range join's bounds as gx_range_clause finds them */
typedef struct GxRangeBounds
{
	Var		   *ikey;			/* the inner side's key column */
	Expr	   *lo,
			   *hi;				/* the bounds (outer side's), NULL: none */
	bool		lo_incl,
				hi_incl;
	int			scale;			/* numeric: the common scale */
} GxRangeBounds;

/*
 * Is the join clause ri an inequality between a column of the inner side
 * (the same as b->ikey's, if set) and an expression of the outer side's
 * columns that PostgreSQL computes in the outer child's scan?  Adds it to
 * *b as a lower or upper bound of the inner key (false when that bound is
 * already set).  The expression: not volatile, no subplan, of the key's
 * type family (the function says), numeric with a typmod.
 */
static bool
gx_range_clause(RestrictInfo *ri, RelOptInfo *outerrel, RelOptInfo *innerrel, GxRangeBounds *b)
{
	OpExpr	   *op;
	Node	   *l,
			   *r;
	Var		   *iv;
	Expr	   *oe;
	Relids		ovars;
	int			cmp,
				it,
				is,
				id,
				ot,
				os,
				od;

	if (ri->pseudoconstant || !IsA(ri->clause, OpExpr))
		return false;
	op = (OpExpr *) ri->clause;
	if (list_length(op->args) != 2 || op->opretset ||
		(cmp = gx_range_cmp_func(get_opcode(op->opno))) == 0)
		return false;
	l = (Node *) linitial(op->args);
	r = (Node *) lsecond(op->args);
	/* the inner key on the left: key < e; else e < key, that is key > e */
	if (IsA(l, Var) && ((Var *) l)->varlevelsup == 0 &&
		bms_is_member(((Var *) l)->varno, innerrel->relids))
	{
		iv = (Var *) l;
		oe = (Expr *) r;
	}
	else if (IsA(r, Var) && ((Var *) r)->varlevelsup == 0 &&
			 bms_is_member(((Var *) r)->varno, innerrel->relids))
	{
		iv = (Var *) r;
		oe = (Expr *) l;
		cmp = -cmp;
	}
	else
		return false;
	if (b->ikey != NULL && !equal(b->ikey, iv))
		return false;
	ovars = pull_varnos(NULL, (Node *) oe);
	if (bms_is_empty(ovars) || !bms_is_subset(ovars, outerrel->relids) ||
		gx_range_expr_foreign((Node *) oe, NULL) ||
		contain_volatile_functions((Node *) oe) || contain_subplans((Node *) oe) ||
		contain_agg_clause((Node *) oe) || contain_window_function((Node *) oe) ||
		expression_returns_set((Node *) oe))
		return false;
	if (!gx_join_key_type((Expr *) iv, &it, &is, &id) ||
		!gx_join_key_type(oe, &ot, &os, &od) || it == GX_BOOL || ot == GX_BOOL ||
		GX_JOIN_FLOAT(it) || GX_JOIN_FLOAT(ot))
		return false;			/* (floats: an equi-join's keys only) */
	if ((ot == GX_NUMERIC) != (it == GX_NUMERIC))
		return false;
	if (it == GX_NUMERIC)
	{
		int			scale = Max(Max(os, is), b->scale);

		if (Max(od, id) + scale > 18)
			return false;
		b->scale = scale;
	}
	b->ikey = iv;
	if (cmp > 0)
	{
		/* key >= e, key > e: a lower bound */
		if (b->lo != NULL)
			return false;
		b->lo = oe;
		b->lo_incl = cmp == 1;
	}
	else
	{
		if (b->hi != NULL)
			return false;
		b->hi = oe;
		b->hi_incl = cmp == -1;
	}
	return true;
}

/*
 * The fallback of a range path: PostgreSQL's Nested Loop of mode over the
 * same outer path and a Materialize of the same inner path, every clause
 * of restrictlist a join qual (extra: gx_fallback_extra)
 */
static Path *
gx_range_fallback_path(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
					   RelOptInfo *innerrel, Path *outer, Path *inner, int mode,
					   List *restrictlist, JoinPathExtraData *extra)
{
	JoinPathExtraData x;
	JoinType	jt = gx_fallback_extra(root, joinrel, outerrel, innerrel, mode, restrictlist,
									   extra, &x);
	JoinCostWorkspace ws;
	Path	   *mat;
	Path	   *path;

	mat = &create_material_path(innerrel, inner)->path;
	initial_cost_nestloop(root, &ws, jt, outer, mat, &x);
	path = &create_nestloop_path(root, joinrel, jt, &ws, &x, outer, mat, restrictlist, NIL,
								 NULL)->jpath.path;
#if PG_VERSION_NUM >= 180000
	/* (enable_nestloop / enable_material choose among plans; the fallback is no choice) */
	path->disabled_nodes = outer->disabled_nodes + inner->disabled_nodes;
	mat->disabled_nodes = inner->disabled_nodes;
#endif
	return path;
}

/*
 * Offer a GpuJoin path of mode over outerrel (probed) and innerrel (built)
 * running the device's range join, when every join clause bounds one
 * column of the inner side by an expression of the outer side (see the
 * design note)
 */
static void
gx_try_range_path(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
				  RelOptInfo *innerrel, int mode, JoinPathExtraData *extra)
{
	List	   *restrictlist = extra->restrictlist;
	GxRangeBounds b;
	List	   *okeys = NIL,
			   *ikeys = NIL,
			   *scales = NIL;
	List	   *range;
	Path	   *outer = outerrel->cheapest_total_path;
	Path	   *inner = innerrel->cheapest_total_path;
	Path	   *fallback;
	ListCell   *lc;

	memset(&b, 0, sizeof(b));
	if (restrictlist == NIL || list_length(restrictlist) > 2)
		return;
	foreach(lc, restrictlist)
		if (!gx_range_clause((RestrictInfo *) lfirst(lc), outerrel, innerrel, &b))
			return;
	if (!gx_join_target_ok(joinrel, outerrel, innerrel, mode))
		return;
	/* the outer keys: the bounds, lower first; the inner key once per bound */
	if (b.lo != NULL)
	{
		okeys = lappend(okeys, b.lo);
		ikeys = lappend(ikeys, b.ikey);
		scales = lappend_int(scales, b.scale);
	}
	if (b.hi != NULL)
	{
		okeys = lappend(okeys, b.hi);
		ikeys = lappend(ikeys, b.ikey);
		scales = lappend_int(scales, b.scale);
	}
	range = list_make3_int(b.lo != NULL ? 0 : -1,
						   b.hi != NULL ? list_length(okeys) - 1 : -1,
						   (int) ((b.lo_incl ? GX_JOIN_LO_INCL : 0) | (b.hi_incl ? GX_JOIN_HI_INCL : 0)));
	fallback = gx_range_fallback_path(root, joinrel, outerrel, innerrel, outer, inner, mode,
									  restrictlist, extra);
	gx_add_join_path(root, joinrel, mode, outer, inner, fallback, okeys, ikeys, scales, range,
					 NIL, GX_JOIN_RANGE, extra, false);
	inner = gx_parallel_inner(innerrel);
	if ((outer = gx_partial_outer(joinrel, outerrel, inner, mode)) != NULL)
	{
		fallback = gx_range_fallback_path(root, joinrel, outerrel, innerrel, outer, inner, mode,
										  restrictlist, extra);
		gx_add_join_path(root, joinrel, mode, outer, inner, fallback, okeys, ikeys, scales,
						 range, NIL, GX_JOIN_RANGE, extra, true);
	}
}

/*
 * Can rel be a side of a GpuJoin, read by its cheapest unparameterized
 * path: a base relation the device can read (gx_scan_rel_eligible), or a
 * join relation (its child plan any join, drained through the backend)?
 */
static bool
gx_join_side_ok(PlannerInfo *root, RelOptInfo *rel)
{
	if (rel->cheapest_total_path == NULL || rel->cheapest_total_path->param_info != NULL)
		return false;
	if (rel->reloptkind == RELOPT_BASEREL)
		return gx_scan_rel_eligible(rel, planner_rt_fetch(rel->relid, root));
	return rel->reloptkind == RELOPT_JOINREL;
}

/*
 * Offer the GpuJoin paths of mode over outerrel (probed) and innerrel
 * (built): the hash join's (gpuext.enable_hashjoin) and the merge join's
 * (gpuext.enable_mergejoin) for equality keys, the range join's for band
 * and inequality predicates (gpuext.enable_nestloop); the checks they
 * share first
 */
static void
gx_try_join_path(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
				 RelOptInfo *innerrel, int mode, JoinPathExtraData *extra)
{
	bool		base = outerrel->reloptkind == RELOPT_BASEREL &&
		innerrel->reloptkind == RELOPT_BASEREL;

	if (!gx_join_side_ok(root, outerrel) || !gx_join_side_ok(root, innerrel))
		return;
	if (gx_enable_hashjoin)
		gx_try_hash_path(root, joinrel, outerrel, innerrel, mode, extra, GX_JOIN_HASH);
	if (gx_enable_mergejoin)
		gx_try_hash_path(root, joinrel, outerrel, innerrel, mode, extra, GX_JOIN_MERGE);
	/* (the range join: INNER, SEMI and ANTI of two tables; its table has no matched marks) */
	if (gx_enable_nestloop && base &&
		(mode == GX_JOIN_INNER || mode == GX_JOIN_SEMI || mode == GX_JOIN_ANTI))
		gx_try_range_path(root, joinrel, outerrel, innerrel, mode, extra);
}

/*
 * set_join_pathlist_hook: offer GpuJoin paths where the device can run the
 * join.  PostgreSQL calls it once for each way it joins the two inputs
 * (both orders of an inner join; a semi join as such and with either
 * side made unique; right anti joins (16) and semi joins (18)), each time
 * after adding its own paths, which may push earlier GpuJoin paths out:
 * so every call offers the GpuJoin paths of the join whatever its own
 * join type (both build sides of an inner, left, right or full join, the
 * semi or anti join with the sides the right way round), and with
 * gpuext.force one of them is left after the last call.
 */
static void
gx_set_join_pathlist(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
					 RelOptInfo *innerrel, JoinType jointype, JoinPathExtraData *extra)
{
	JoinType	sjtype = extra->sjinfo != NULL ? extra->sjinfo->jointype : JOIN_INNER;

	if (prev_set_join_pathlist_hook)
		prev_set_join_pathlist_hook(root, joinrel, outerrel, innerrel, jointype, extra);

	if (!gx_enabled || !gx_enable_gpujoin ||
		(!gx_enable_hashjoin && !gx_enable_mergejoin && !gx_enable_nestloop) ||
		gx_shared == NULL)
		return;
	/* (as GpuScan: the CPU device is used only when asked for) */
	if (gx_device_choice == GX_DEVICE_AUTO && gx_shared->gpu_state == -1 && !gx_force)
		return;
	/* no EvalPlanQual: a plain SELECT without row marks; no lateral references */
	if (root->parse->commandType != CMD_SELECT || root->rowMarks != NIL ||
		root->parse->rowMarks != NIL || !bms_is_empty(joinrel->lateral_relids))
		return;
	switch (jointype)
	{
		case JOIN_INNER:
			gx_try_join_path(root, joinrel, outerrel, innerrel, GX_JOIN_INNER, extra);
			gx_try_join_path(root, joinrel, innerrel, outerrel, GX_JOIN_INNER, extra);
			break;
		case JOIN_SEMI:
		case JOIN_UNIQUE_INNER:
			if (sjtype == JOIN_SEMI)
				gx_try_join_path(root, joinrel, outerrel, innerrel, GX_JOIN_SEMI, extra);
			break;
		case JOIN_UNIQUE_OUTER:
			if (sjtype == JOIN_SEMI)
				gx_try_join_path(root, joinrel, innerrel, outerrel, GX_JOIN_SEMI, extra);
			break;
		case JOIN_ANTI:
			gx_try_join_path(root, joinrel, outerrel, innerrel, GX_JOIN_ANTI, extra);
			break;
		case JOIN_LEFT:
			/* (outerrel preserved: probe it, or build it) */
			gx_try_join_path(root, joinrel, outerrel, innerrel, GX_JOIN_LEFT, extra);
			gx_try_join_path(root, joinrel, innerrel, outerrel, GX_JOIN_RIGHT, extra);
			break;
		case JOIN_RIGHT:
			/* (innerrel preserved) */
			gx_try_join_path(root, joinrel, outerrel, innerrel, GX_JOIN_RIGHT, extra);
			gx_try_join_path(root, joinrel, innerrel, outerrel, GX_JOIN_LEFT, extra);
			break;
		case JOIN_FULL:
			gx_try_join_path(root, joinrel, outerrel, innerrel, GX_JOIN_FULL, extra);
			gx_try_join_path(root, joinrel, innerrel, outerrel, GX_JOIN_FULL, extra);
			break;
#if PG_VERSION_NUM >= 180000
		case JOIN_RIGHT_SEMI:
			gx_try_join_path(root, joinrel, innerrel, outerrel, GX_JOIN_SEMI, extra);
			break;
#endif
#if PG_VERSION_NUM >= 160000
		case JOIN_RIGHT_ANTI:
			gx_try_join_path(root, joinrel, innerrel, outerrel, GX_JOIN_ANTI, extra);
			break;
#endif
		default:
			break;
	}
	if (gx_force)
		gx_join_force(joinrel, false);
}

/* a copy of a GpuJoin path (to become another form of it), or NULL */
static CustomPath *
gx_join_path_copy(Path *path)
{
	CustomPath *cp;

	if (!gx_is_join_path(path))
		return NULL;
	cp = makeNode(CustomPath);
	*cp = *(CustomPath *) path;
	return cp;
}

/*
 * The counting form of path (see the design note), a path of rel with the
 * partial target partial (count(*) only, which the caller checked); NULL
 * when path is not a GpuJoin path
 */
Path *
gx_join_count_path(RelOptInfo *rel, Path *path, PathTarget *partial)
{
	CustomPath *src = (CustomPath *) path;
	CustomPath *cp = gx_join_path_copy(path);
	List	   *priv;

	/* (host quals: the rows are formed and filtered, Aggregate counts them) */
	if (cp == NULL || list_nth(src->custom_private, 6) != NIL)
		return NULL;
	priv = src->custom_private;
	cp->path.parent = rel;
	cp->path.pathtarget = partial;
	cp->path.rows = 1;
	cp->custom_paths = list_copy(src->custom_paths);
	cp->custom_private = lappend(lappend(list_make5(linitial(priv), lsecond(priv), lthird(priv),
													lfourth(priv), makeInteger(1)),
										 list_nth(priv, 5)), NIL);
	cp->custom_private = lappend(cp->custom_private, list_nth(priv, 7));
	gx_cost_join(&cp->path, (Path *) linitial(cp->custom_paths),
				 (Path *) lsecond(cp->custom_paths), list_length((List *) lsecond(priv)), true,
				 intVal(list_nth(priv, 7)), NULL, 1);
	return &cp->path;
}

/*
 * An INNER hash or merge GpuJoin path with its sides swapped (the table
 * built on the other side: PostgreSQL offers a join both ways, and
 * add_path may have kept one), or NULL.  Aggregation over the join may
 * need the other side's columns as the outer side's (join_agg_path.cpp).
 */
Path *
gx_join_swapped_path(Path *path)
{
	CustomPath *src = (CustomPath *) path;
	CustomPath *cp = gx_join_path_copy(path);
	List	   *priv;

	if (cp == NULL)
		return NULL;
	priv = src->custom_private;
	if (intVal(linitial(priv)) != GX_JOIN_INNER || list_nth(priv, 5) != NIL ||
		list_nth(priv, 6) != NIL)
		return NULL;
	cp->custom_paths = list_make3(lsecond(src->custom_paths), linitial(src->custom_paths),
								  lthird(src->custom_paths));
	cp->custom_private = list_copy(priv);
	lfirst(list_nth_cell(cp->custom_private, 1)) = lthird(priv);
	lfirst(list_nth_cell(cp->custom_private, 2)) = lsecond(priv);
	return &cp->path;
}

/*
 * The aggregating form of a GpuJoin path (join_agg_path.cpp's design note):
 * an INNER, LEFT, SEMI or ANTI join (hash, merge, or range over a
 * table) without host quals,
 * whose target is the partial target (group keys, partial Aggrefs), its
 * fallback PostgreSQL's Partial Aggregate over the join's fallback, so
 * that either way the node returns rows of partial states; NULL when the
 * path is not one.  scanjoin: the target the join relation's paths
 * were given (the fallback aggregates that).
 */
Path *
gx_join_group_path(PlannerInfo *root, RelOptInfo *rel, Path *path, PathTarget *scanjoin,
				   PathTarget *partial, double groups)
{
	CustomPath *src = (CustomPath *) path;
	List	   *groupClause = GX_GROUP_CLAUSE(root);
	CustomPath *cp = gx_join_path_copy(path);
	Path	   *fallback;
	AggClauseCosts costs;
	List	   *priv;

	if (cp == NULL)
		return NULL;
	priv = src->custom_private;
	/* (the device's group probes: INNER, LEFT, SEMI, ANTI; any algorithm) */
	if (GX_JOIN_MODE_MARKS(intVal(linitial(priv))) || list_nth(priv, 6) != NIL ||
		(list_nth(priv, 5) != NIL &&
		 ((Path *) linitial(src->custom_paths))->parent->reloptkind != RELOPT_BASEREL) ||
		(groupClause != NIL && !grouping_is_hashable(groupClause)))
		return NULL;
	MemSet(&costs, 0, sizeof(costs));
	get_agg_clause_costs(root, AGGSPLIT_INITIAL_SERIAL, &costs);
	/* (over the scan/join target, whose group keys carry their sortgrouprefs) */
	fallback = &create_projection_path(root, rel, (Path *) lthird(src->custom_paths),
									   scanjoin)->path;
	/*
	 * (its hash table sized for few groups: ExecInitAgg builds it for the
	 * estimate even when the fallback never runs, and grows it if it does)
	 */
	fallback = &create_agg_path(root, rel, fallback, partial,
								groupClause != NIL ? AGG_HASHED : AGG_PLAIN,
								AGGSPLIT_INITIAL_SERIAL, groupClause, NIL, &costs,
								Min(groups, 1024.0))->path;
	cp->path.parent = rel;
	cp->path.pathtarget = partial;
	cp->path.rows = groups;
	cp->custom_paths = list_make3(linitial(src->custom_paths), lsecond(src->custom_paths),
								  fallback);
	cp->custom_private = lappend(lappend(list_make5(linitial(priv), lsecond(priv), lthird(priv),
													lfourth(priv), makeInteger(2)),
										 list_nth(priv, 5)), NIL);
	cp->custom_private = lappend(lappend(cp->custom_private, list_nth(priv, 7)),
								 makeString(psprintf("%.0f", groups)));
	gx_cost_join(&cp->path, (Path *) linitial(cp->custom_paths),
				 (Path *) lsecond(cp->custom_paths), list_length((List *) lsecond(priv)), true,
				 intVal(list_nth(priv, 7)), NULL, groups);
	/* (a row per group out, where counting has one) */
	cp->path.total_cost += cpu_tuple_cost * groups;
	return &cp->path;
}

/*
 * The resno of expression e in a child plan's target list; a Var missing
 * there is added (the child is a scan of the Var's relation, which
 * projects: a join child's target holds every Var the path takes from it,
 * gx_side_has_var)
 */
AttrNumber
gx_child_resno(Plan *child, Expr *e)
{
	TargetEntry *tle;
	ListCell   *lc;

	/*
	 * (a Var by its column: above an outer join a Var of its nullable side
	 * is marked, PostgreSQL 16+, and the child's is not, or less)
	 */
	foreach(lc, IsA(e, Var) ? child->targetlist : NIL)
	{
		Var		   *v = (Var *) ((TargetEntry *) lfirst(lc))->expr;

		if (IsA(v, Var) && v->varno == ((Var *) e)->varno &&
			v->varattno == ((Var *) e)->varattno && v->varlevelsup == 0)
			return ((TargetEntry *) lfirst(lc))->resno;
	}
#if PG_VERSION_NUM >= 160000
	if (IsA(e, Var) && ((Var *) e)->varnullingrels != NULL)
	{
		Var		   *v = (Var *) copyObjectImpl(e);

		v->varnullingrels = NULL;
		e = (Expr *) v;
	}
#endif
	tle = tlist_member(e, child->targetlist);

	if (tle != NULL)
		return tle->resno;
	tle = makeTargetEntry((Expr *) copyObjectImpl(e), list_length(child->targetlist) + 1, NULL,
						  false);
	child->targetlist = lappend(child->targetlist, tle);
	return tle->resno;
}

/*
 * The plan's custom_private, which gpujoin.cpp reads (its custom_exprs:
 * an INNER hash join's host quals, implicitly ANDed, over
 * custom_scan_tlist):
 *   0  Integer: the mode (enum gx_join_mode)
 *   1  IntList: the outer keys' resnos in the outer child's target list
 *   2  IntList: the inner keys' resnos in the inner child's target list
 *   3  IntList: per key, the outer's and the inner's device type and the
 *      numeric scale both sides' values take (3 entries a key)
 *   4  IntList: per custom_scan_tlist column (the target's, then the
 *      host quals' other Vars), side << 16 | resno (side 0: the outer
 *      child, 1: the inner child); empty when counting
 *   5  Integer: 1 when the node counts (custom_scan_tlist: the partial
 *      count(*) Aggrefs), else 0
 *   6  IntList: a hash join: empty; a range join (gx_try_range_path):
 *      (index of the lower bound among the outer keys or -1, of the upper
 *      bound or -1, GX_JOIN_LO_INCL | GX_JOIN_HI_INCL); its outer keys are
 *      the bounds' expressions, its inner keys the one inner key repeated
 *   7  a hash or merge join: the outer side's device input
 *      (gx_join_side_program): a Const, the program the device runs over
 *      the outer table's rows (its quals, then the keys as outputs 0 ..
 *      nkeys-1), or Integer 0: none (always none for a range join)
 *   8  the inner side's, likewise
 *   9  Integer: the algorithm (enum gx_join_alg: GX_JOIN_HASH, GX_JOIN_RANGE,
 *      GX_JOIN_MERGE)
 *  10  returning rows: the programs that gather them (gx_join_gather_plan,
 *      join_gather_path.cpp), or NIL; aggregating its pairs: join_agg_path.cpp's
 */
static List *
gx_join_plan_private(int mode, List *okeys, List *ikeys, List *scales, List *tlist,
					 Plan *outer, Plan *inner, Relids outer_relids, Relids inner_relids,
					 bool count, List *range)
{
	List	   *ores = NIL,
			   *ires = NIL,
			   *types = NIL,
			   *src = NIL;
	ListCell   *lc1,
			   *lc2,
			   *lc3;

	forthree(lc1, okeys, lc2, ikeys, lc3, scales)
	{
		Expr	   *o = (Expr *) lfirst(lc1);
		Expr	   *i = (Expr *) lfirst(lc2);
		int			ot,
					it,
					s,
					d;

		/* (the path checked both types) */
		if (!gx_join_key_type(o, &ot, &s, &d) || !gx_join_key_type(i, &it, &s, &d))
			elog(ERROR, "gpuext: GpuJoin key of an unsupported type");
		ores = lappend_int(ores, gx_child_resno(outer, (Expr *) o));
		ires = lappend_int(ires, gx_child_resno(inner, (Expr *) i));
		types = lappend_int(lappend_int(lappend_int(types, ot), it), lfirst_int(lc3));
	}
	foreach(lc1, count ? NIL : tlist)
	{
		TargetEntry *tle = (TargetEntry *) lfirst(lc1);
		Var		   *v = (Var *) tle->expr;

		/* (the path's target holds Vars of either side: gx_join_target_ok) */
		if (tlist_member(tle->expr, outer->targetlist) != NULL ||
			(IsA(v, Var) && bms_is_member(v->varno, outer_relids)))
			src = lappend_int(src, gx_child_resno(outer, tle->expr));
		else if (tlist_member(tle->expr, inner->targetlist) != NULL ||
				 (IsA(v, Var) && bms_is_member(v->varno, inner_relids)))
			src = lappend_int(src, 1 << 16 | gx_child_resno(inner, tle->expr));
		else
			elog(ERROR, "gpuext: GpuJoin column not found in its children");
	}
	return lappend(lappend(list_make5(makeInteger(mode), ores, ires, types, src),
						   makeInteger(count ? 1 : 0)), list_copy(range));
}

/*
 * A side's device input: when the child plan is a plain scan of a table
 * (a SeqScan, or a GpuScan that returns rows) whose quals all compile
 * into one device program without Params or rows for the host, and whose
 * keys are integer-like or float columns of that table (not numeric: the device
 * holds those at their column's scale, the join at the common one), the
 * program "quals, then output k = key k" (*relid: the table's range
 * table index); else NULL.  bounds (a range join's outer side): the keys
 * are the bounds, expressions of the table's columns the program computes
 * (integers, dates, timestamps), as the child's scan would for the same
 * rows.  The node may then read the table through a row source, cache
 * entries included, instead of the child (gpujoin.cpp).  A program whose
 * quals may leave rows to the host (may_host) is returned: only a join
 * that aggregates its pairs takes one (join_agg_path.cpp).
 */
GxProgram *
gx_join_side_prog(Plan *child, List *resnos, bool bounds, Index *relid_out)
{
	Index		relid;
	List	   *quals;
	GxProgram  *prog;
	ListCell   *lc;

	if (IsA(child, SeqScan))
	{
		relid = ((Scan *) child)->scanrelid;
		quals = child->qual;
	}
	else if (IsA(child, CustomScan) && ((CustomScan *) child)->methods == &gx_scan_plan_methods &&
			 strcmp(strVal(linitial(((CustomScan *) child)->custom_private)), "scan") == 0)
	{
		CustomScan *cs = (CustomScan *) child;

		relid = cs->scan.scanrelid;
		quals = list_concat(list_copy((List *) linitial(cs->custom_exprs)),
							(List *) lsecond(cs->custom_exprs));
	}
	else
		return NULL;
	prog = (GxProgram *) palloc(sizeof(GxProgram));
	gx_program_init(prog);
	foreach(lc, quals)
	{
		bool		may_error;

		if (!gx_program_add_qual(prog, (Expr *) lfirst(lc), relid, &may_error, false))
			return NULL;
	}
	foreach(lc, resnos)
	{
		TargetEntry *tle = (TargetEntry *) list_nth(child->targetlist, lfirst_int(lc) - 1);
		Var		   *v = (Var *) tle->expr;
		int			t,
					sc;

		if (bounds ? !bms_is_subset(pull_varnos(NULL, (Node *) v), bms_make_singleton(relid)) :
			(!IsA(v, Var) || v->varno != (int) relid || v->varattno <= 0))
			return NULL;
		if (gx_program_add_output(prog, (Expr *) v, relid, &t, &sc) !=
			foreach_current_index(lc) ||
			!(t == GX_INT2 || t == GX_INT4 || t == GX_INT8 ||
			  (!bounds && (t == GX_BOOL || GX_JOIN_FLOAT(t)))))
			return NULL;
	}
	if (prog->params != NIL || prog->may_fallback)
		return NULL;
	*relid_out = relid;
	return prog;
}

/* gx_join_side_prog as the plan keeps it: a Const, or Integer 0 (none; rows for the host too) */
static Node *
gx_join_side_program(Plan *child, List *resnos, bool bounds)
{
	Index		relid;
	GxProgram  *prog = gx_join_side_prog(child, resnos, bounds, &relid);

	if (prog == NULL || prog->may_host)
		return (Node *) makeInteger(0);
	return (Node *) gx_program_to_const(prog);
}

/*
 * PlanCustomPath of a GpuJoin path: the CustomScan over its two children
 * (and its fallback); a counting one's target list is the partial
 * count(*).  Host quals go to custom_exprs (setrefs points their Vars at
 * custom_scan_tlist), and their Vars the target lacks to custom_scan_tlist
 * after the target's.
 */
static Plan *
gx_plan_join_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path, List *tlist,
				  List *clauses, List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	Plan	   *outer = (Plan *) linitial(custom_plans);
	Plan	   *inner = (Plan *) lsecond(custom_plans);
	List	   *priv = best_path->custom_private;
	Path	   *opath = (Path *) linitial(best_path->custom_paths);
	Path	   *ipath = (Path *) lsecond(best_path->custom_paths);
	List	   *quals = extract_actual_clauses((List *) list_nth(priv, 6), false);
	List	   *scan_tlist = tlist;

	if (quals != NIL)
		scan_tlist = add_to_flat_tlist(list_copy(tlist),
									   pull_var_clause((Node *) quals, 0));
	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = NIL;	/* (a join rel has no restriction clauses) */
	cscan->scan.scanrelid = 0;
	cscan->flags = best_path->flags;
	cscan->custom_plans = custom_plans;
	cscan->custom_exprs = quals;
	cscan->custom_private = gx_join_plan_private(intVal(linitial(priv)), (List *) lsecond(priv),
												 (List *) lthird(priv),
												 (List *) lfourth(priv), scan_tlist, outer, inner,
												 opath->parent->relids, ipath->parent->relids,
												 intVal(list_nth(priv, 4)) != 0,
												 (List *) list_nth(priv, 5));
	/*
	 * (after the key resnos: gx_child_resno may have added a key to a
	 * child).  A range join's outer keys are its bounds, expressions; its
	 * inner key is one column, named once per bound.
	 */
	{
		bool		range = list_nth(priv, 5) != NIL;
		List	   *ires = (List *) lthird(cscan->custom_private);

		cscan->custom_private =
			lappend(lappend(cscan->custom_private,
							gx_join_side_program(outer, (List *) lsecond(cscan->custom_private),
												 range)),
					gx_join_side_program(inner, range ? list_make1_int(linitial_int(ires)) : ires,
										 false));
		cscan->custom_private = lappend(cscan->custom_private, list_nth(priv, 7));
	}
	/* aggregating its pairs (join_agg_path.cpp): the outer program computes keys and arguments */
	if (intVal(list_nth(priv, 4)) == 2 && gx_join_levels_marked(priv) &&
		gx_join_levels_plan(cscan, outer, inner, opath, ipath, (List *) lsecond(priv),
							(List *) lthird(priv), tlist, (Node *) list_nth(priv, 8)))
		;
	else if (intVal(list_nth(priv, 4)) == 2)
	{
		Node	   *oprog;
		Node	   *iprog = (Node *) list_nth(cscan->custom_private, 8);
		List	   *grp = gx_join_group_plan(outer, inner, (List *) lsecond(cscan->custom_private),
											 list_nth(priv, 5) != NIL ? NIL :
											 (List *) lthird(cscan->custom_private),
											 list_nth(priv, 5) != NIL, tlist,
											 opath->parent->relids, ipath->parent->relids,
											 (Node *) list_nth(priv, 8), &oprog, &iprog);

		lfirst(list_nth_cell(cscan->custom_private, 5)) = makeInteger(2);
		lfirst(list_nth_cell(cscan->custom_private, 7)) = oprog;
		lfirst(list_nth_cell(cscan->custom_private, 8)) = iprog;
		cscan->custom_private = list_concat(cscan->custom_private, grp);
	}
	/* returning rows: the programs that gather them on the device (join_gather_path.cpp) */
	else if (intVal(list_nth(priv, 4)) == 0)
		cscan->custom_private =
			lappend(cscan->custom_private,
					gx_join_gather_plan(intVal(linitial(priv)), outer, inner,
										(List *) lsecond(cscan->custom_private),
										(List *) lthird(cscan->custom_private),
										list_nth(priv, 5) != NIL,
										(List *) list_nth(cscan->custom_private, 4)));
	cscan->custom_scan_tlist = scan_tlist;
	cscan->custom_relids = NULL;	/* (create_customscan_plan sets it) */
	cscan->methods = &gx_join_plan_methods;
	return &cscan->scan.plan;
}

/* install the join hook (from gx_planner_init) */
void
gx_joinpath_init(void)
{
	RegisterCustomScanMethods(&gx_join_plan_methods);
	prev_set_join_pathlist_hook = set_join_pathlist_hook;
	set_join_pathlist_hook = gx_set_join_pathlist;
}
