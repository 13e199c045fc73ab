/*
 * agg_path.cpp - device aggregates and GpuPreAgg (GROUP BY): planning.
 *
 * Design note
 * -----------
 * A query that aggregates one heap table without GROUP BY, HAVING or
 * window functions, where a GpuScan runs every qual on the device and
 * every aggregate is count(*), count(col) or sum(col) of an int2/int4
 * column (no DISTINCT, ORDER BY or FILTER), gets, besides PostgreSQL's own
 * plans, the path
 *
 *   Finalize Aggregate
 *     ->  Custom Scan (GpuScan)      Device Aggregates: ...
 *
 * as in parallel aggregation: the GpuScan (src/aggscan.cpp) returns one
 * row of partial aggregate states, the transition values PostgreSQL itself
 * would reach (count: int8; sum of int2/int4: int8, NULL when no row had a
 * value), and PostgreSQL's Finalize Aggregate combines them (int8pl) and
 * computes the final targets.  The device adds the selected rows' values
 * per chunk (gx_chunk_ext.agg), so no row goes back to the executor.
 *
 * With parallel query, the same over a parallel GpuScan path:
 *
 *   Finalize Aggregate -> Gather -> Parallel Custom Scan (GpuScan)
 *
 * where every process returns one row of partial states for its blocks.
 *
 * The CustomScan keeps scanrelid (the executor reads the table as a
 * GpuScan does); its custom_scan_tlist holds the partial Aggrefs, then the
 * table's columns the quals read (as junk entries: setrefs rewrites the
 * quals in custom_exprs to point at them, and the executor maps them
 * back).  Its targetlist is the partial Aggrefs, which the Finalize
 * Aggregate above matches like a Partial Aggregate's.
 *
 * Over a join, count(*) alone (no GROUP BY, no HAVING) gets the same
 * Finalize Aggregate over the counting form of the join's GpuJoin
 * (gx_join_count_paths; join_path.cpp says how the GpuJoin counts).
 */
#include "gpuext.h"
#include "compat.h"
#include "planner.h"
#include "compiler.h"
#include "executor.h"

extern "C"
{
#include "catalog/pg_aggregate.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planner.h"
#include "optimizer/prep.h"
#include "optimizer/tlist.h"
#include "utils/fmgroids.h"
#include "utils/regproc.h"
#include "utils/selfuncs.h"
#include "utils/lsyscache.h"
#include "optimizer/paths.h"
#include "parser/parse_clause.h"
}

static create_upper_paths_hook_type prev_create_upper_paths_hook = NULL;

static Plan *gx_plan_agg_path(PlannerInfo *root, RelOptInfo *rel,
							  CustomPath *best_path, List *tlist,
							  List *clauses, List *custom_plans);

static CustomPathMethods gx_agg_path_methods = {
	"GpuScan",
	gx_plan_agg_path,
	NULL
};

static CustomPathMethods gx_preagg_path_methods = {
	"GpuPreAgg",
	gx_plan_agg_path,
	NULL
};

static Plan *gx_plan_final_path(PlannerInfo *root, RelOptInfo *rel,
								CustomPath *best_path, List *tlist,
								List *clauses, List *custom_plans);

static CustomPathMethods gx_final_path_methods = {
	"GpuPreAgg",
	gx_plan_final_path,
	NULL
};

/* GpuPreAgg plans: a GpuScan in group mode under its own name */
CustomScanMethods gx_preagg_plan_methods = {
	"GpuPreAgg",
	gx_create_scan_state
};

/* the single argument of an aggregate, or NULL */
static Expr *
gx_agg_arg_expr(Aggref *a)
{
	if (list_length(a->args) != 1)
		return NULL;
	return ((TargetEntry *) linitial(a->args))->expr;
}

/* the single plain Var argument of an aggregate of rel, or NULL */
static Var *
gx_agg_arg(Aggref *a, Index relid)
{
	Var		   *v = (Var *) gx_agg_arg_expr(a);

	if (v == NULL || !IsA(v, Var))
		return NULL;
	if (v->varno != (int) relid || v->varlevelsup != 0 || v->varattno <= 0)
		return NULL;
	return v;
}

/*
 * can a GROUP BY key be of type typid?  (integer-like, or numeric, whose
 * fixed-point values at the expression's scale compare exactly; whether
 * the key expression runs on the device, gx_group_outputs says)
 */
static bool
gx_key_type(Oid typid)
{
	int			t;

	return typid == NUMERICOID || typid == BPCHAROID ||
		(gx_type_supported(typid, &t) && t != GX_FLOAT4 && t != GX_FLOAT8);
}

/* is typid an integer-like device type (a group key, a min/max argument)? */
static bool
gx_int_like_type(Oid typid)
{
	int			t;

	return gx_type_supported(typid, &t) && t != GX_FLOAT4 && t != GX_FLOAT8;
}

/*
 * can the device compute this aggregate (of rel)?  group: in a group
 * table (GpuPreAgg), where the argument may be any expression the device
 * computes (gx_group_outputs checks that), else in the stripes of the
 * keyless device aggregates, which read a column
 */
static bool
gx_agg_supported(Aggref *a, Index relid, bool group)
{
	Expr	   *arg = gx_agg_arg_expr(a);
	Oid			t;
	int			gt;

	/* (a FILTER: GpuPreAgg, when gx_group_outputs compiles it) */
	if (a->aggdistinct != NIL || a->aggorder != NIL || (a->aggfilter != NULL && !group) ||
		a->agglevelsup != 0 || a->aggkind != AGGKIND_NORMAL ||
		a->aggsplit != AGGSPLIT_SIMPLE || a->aggvariadic)
		return false;
	if (a->aggfnoid == F_COUNT_)
		return a->aggstar && a->args == NIL;
	if (arg == NULL || (!group && gx_agg_arg(a, relid) == NULL))
		return false;
	t = exprType((Node *) arg);
	switch (a->aggfnoid)
	{
		case F_COUNT_ANY:
			return gx_type_supported(t, &gt) || (group && gx_key_type(t));
		case F_SUM_NUMERIC:
		case F_AVG_NUMERIC:
		case F_MIN_NUMERIC:
		case F_MAX_NUMERIC:
			/* an exact fixed-point value (gx_group_outputs checks it) */
			return group && t == NUMERICOID;
		case F_SUM_INT4:
		case F_SUM_INT2:
			return t == INT4OID || t == INT2OID;
		case F_AVG_INT4:
		case F_AVG_INT2:
			return group && (t == INT4OID || t == INT2OID);
		case F_SUM_INT8:
		case F_AVG_INT8:
			/* an exact 128-bit sum (GX_AGG_SUM128) */
			return group && t == INT8OID;
		case F_MIN_INT2:
		case F_MIN_INT4:
		case F_MIN_INT8:
		case F_MIN_DATE:
		case F_MIN_TIMESTAMP:
		case F_MIN_TIMESTAMPTZ:
		case F_MAX_INT2:
		case F_MAX_INT4:
		case F_MAX_INT8:
		case F_MAX_DATE:
		case F_MAX_TIMESTAMP:
		case F_MAX_TIMESTAMPTZ:
			return group && gx_int_like_type(t) && t != BOOLOID;
		case F_BOOL_AND:
		case F_BOOL_OR:
		case F_EVERY:
			return group && t == BOOLOID;
		case F_SUM_FLOAT4:
		case F_MIN_FLOAT4:
		case F_MAX_FLOAT4:
		case F_AVG_FLOAT4:
		case F_STDDEV_FLOAT4:
		case F_STDDEV_SAMP_FLOAT4:
		case F_STDDEV_POP_FLOAT4:
		case F_VARIANCE_FLOAT4:
		case F_VAR_SAMP_FLOAT4:
		case F_VAR_POP_FLOAT4:
			/* float sums (GX_AGG_FSUM, FVAR: docs/engine.md says what is exact) */
			return group && t == FLOAT4OID;
		case F_SUM_FLOAT8:
		case F_MIN_FLOAT8:
		case F_MAX_FLOAT8:
		case F_AVG_FLOAT8:
		case F_STDDEV_FLOAT8:
		case F_STDDEV_SAMP_FLOAT8:
		case F_STDDEV_POP_FLOAT8:
		case F_VARIANCE_FLOAT8:
		case F_VAR_SAMP_FLOAT8:
		case F_VAR_POP_FLOAT8:
			return group && t == FLOAT8OID;
		default:
			{
				Oid			argtype;

				/* exact sums of x and x * x (GX_AGGK_IVAR); the numeric's scale: gx_group_outputs */
				if (!gx_exact_var_agg(a->aggfnoid, &argtype))
					return false;
				if (!group || t != argtype)
					return false;
				if (!gx_exact_var_format_ok())
				{
					elog(DEBUG1, "gpuext: no GpuPreAgg: the aggregate state of %s is not in the format gpuext writes",
						 format_procedure(a->aggfnoid));
					return false;
				}
				return true;
			}
	}
}

static void gx_no_preagg(const char *why);

/* does e read an unconstrained numeric column of rel (GX_NUMERIC_FREE)? */
static bool
gx_reads_free_numeric(Node *node, void *relid)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		Var		   *v = (Var *) node;

		return v->varno == (int) (Index) (uintptr_t) relid && v->varlevelsup == 0 &&
			v->vartype == NUMERICOID && v->vartypmod < 0;
	}
	return expression_tree_walker(node, GX_WALKER(gx_reads_free_numeric), relid);
}

/* the device aggregates (gx_agg pairs) an aggregate takes at most */
static int
gx_agg_device_slots(Oid aggfnoid)
{
	Oid			argtype;

	if (gx_exact_var_agg(aggfnoid, &argtype))
		return 4;				/* GX_AGG_SUM128 + HI of x, and of x * x */
	switch (aggfnoid)
	{
		case F_SUM_NUMERIC:
		case F_AVG_NUMERIC:
		case F_SUM_INT8:
		case F_AVG_INT8:
			return 2;			/* GX_AGG_SUM128 + GX_AGG_HI */
		case F_AVG_FLOAT4:
		case F_AVG_FLOAT8:
		case F_STDDEV_FLOAT4:
		case F_STDDEV_FLOAT8:
		case F_STDDEV_SAMP_FLOAT4:
		case F_STDDEV_SAMP_FLOAT8:
		case F_STDDEV_POP_FLOAT4:
		case F_STDDEV_POP_FLOAT8:
		case F_VARIANCE_FLOAT4:
		case F_VARIANCE_FLOAT8:
		case F_VAR_SAMP_FLOAT4:
		case F_VAR_SAMP_FLOAT8:
		case F_VAR_POP_FLOAT4:
		case F_VAR_POP_FLOAT8:
			return 3;			/* GX_AGG_FVAR + 2 GX_AGG_FPART */
		default:
			return 1;
	}
}

/*
 * Does an exact stddev / variance a share the device sums of one already
 * in exprs (the same argument and FILTER: one pair of 128-bit sums, as
 * gx_group_dev_agg shares them)?
 */
static bool
gx_shares_var_sums(List *exprs, Aggref *a)
{
	Oid			t;
	ListCell   *lc;

	if (!gx_exact_var_agg(a->aggfnoid, &t))
		return false;
	foreach(lc, exprs)
	{
		Aggref	   *b = (Aggref *) lfirst(lc);

		if (IsA(b, Aggref) && gx_exact_var_agg(b->aggfnoid, &t) && equal(b->args, a->args) &&
			equal(b->aggfilter, a->aggfilter))
			return true;
	}
	return false;
}

/* the outputs compiled so far for a target (gx_group_outputs) */
typedef struct GxDoneOuts
{
	List	   *exprs;			/* the expressions */
	List	   *idx;			/* ... the output of each */
	List	   *scale;			/* ... its numeric scale */
	List	   *err;			/* ... whether it can raise an error */
} GxDoneOuts;

/*
 * Compile e as an output of prog, or find it among those compiled (done);
 * -1 when it cannot run on the device or is numeric / bpchar where that
 * does not fit
 */
static int
gx_group_output(GxProgram *prog, Expr *e, Index relid, GxDoneOuts *done, int *scale,
				bool *may_error)
{
	ListCell   *d;
	bool		had_error = prog->may_error;
	int			idx;
	int			t;

	foreach(d, done->exprs)
		if (equal(lfirst(d), e))
		{
			int			i = foreach_current_index(d);

			*scale = list_nth_int(done->scale, i);
			*may_error = list_nth_int(done->err, i) != 0;
			return list_nth_int(done->idx, i);
		}
	/* (whether this expression alone can raise an error) */
	prog->may_error = false;
	idx = gx_program_add_output(prog, e, relid, &t, scale);
	*may_error = prog->may_error;
	prog->may_error |= had_error;
	if (idx < 0 || ((exprType((Node *) e) == NUMERICOID) != (t == GX_NUMERIC)) ||
		((exprType((Node *) e) == BPCHAROID) != (t == GX_CHAR8)) ||
		((exprType((Node *) e) == FLOAT4OID) != (t == GX_FLOAT4)) ||
		((exprType((Node *) e) == FLOAT8OID) != (t == GX_FLOAT8)) ||
		((exprType((Node *) e) == BOOLOID) != (t == GX_BOOL)))
		return -1;
	/*
	 * A numeric computed from an unconstrained column has no dscale the
	 * compiler knows: only the column itself is an output, of scale
	 * GX_NUMERIC_FREE (gx_group_outputs decides what may read it)
	 */
	if (t == GX_NUMERIC &&
		gx_reads_free_numeric((Node *) e, (void *) (uintptr_t) relid))
	{
		if (!IsA(e, Var))
		{
			gx_no_preagg("a numeric expression over an unconstrained numeric column has no known display scale");
			return -1;
		}
		*scale = GX_NUMERIC_FREE;
	}
	done->exprs = lappend(done->exprs, e);
	done->idx = lappend_int(done->idx, idx);
	done->scale = lappend_int(done->scale, *scale);
	done->err = lappend_int(done->err, *may_error ? 1 : 0);
	return idx;
}

/*
 * May an unconstrained numeric column e (an output of scale
 * GX_NUMERIC_FREE) be read by agg (NULL: a GROUP BY key)?  count is
 * PostgreSQL's; sum and avg also read each row's dscale (GX_OP_DSCALE, a
 * new output into *didx), whose largest is their result's (numeric_add's
 * rule).  A key, min and max return one value with its own dscale (1.50
 * and 1.5 are equal and print differently; PostgreSQL returns the one it
 * met first): those stay on the host, and so do stddev / variance (x * x
 * of such a column has no scale the compiler knows).
 */
static bool
gx_free_numeric_output(GxProgram *prog, Aggref *agg, Expr *e, Index relid, int *didx)
{
	Oid			argtype;

	if (agg != NULL && gx_exact_var_agg(agg->aggfnoid, &argtype))
	{
		gx_no_preagg("stddev/variance of unconstrained numeric (the device has no square of its values)");
		return false;
	}
	if (agg == NULL || (agg->aggfnoid != F_SUM_NUMERIC && agg->aggfnoid != F_AVG_NUMERIC &&
						agg->aggfnoid != F_COUNT_ANY))
	{
		gx_no_preagg(agg == NULL ?
					 "a GROUP BY key is unconstrained numeric (its values' display scales differ)" :
					 "min/max of unconstrained numeric (its values' display scales differ)");
		return false;
	}
	if (agg->aggfnoid != F_COUNT_ANY)
	{
		*didx = gx_program_add_dscale(prog, (Var *) e, relid);
		if (*didx < 0)
			return false;
	}
	return true;
}

/*
 * x * x for stddev / variance of x (int2/int4/int8 or numeric): numeric, so
 * that the program's numeric MUL computes it exactly at twice x's scale
 * (numeric_mul's dscale, as do_numeric_accum's mul_var) and makes a row
 * whose square is beyond int64 a host row (GX_ERR_HOST), never an error;
 * an integer is cast to numeric first (int8's extremes: host rows too).
 * Its sum over any number of rows (< 2^63) of squares (< 2^63) fits the
 * 128-bit GX_AGG_SUM128 without wrapping.
 */
static Expr *
gx_square_expr(Expr *x)
{
	Oid			t = exprType((Node *) x);
	Expr	   *n = (Expr *) copyObjectImpl(x);

	if (t != NUMERICOID)
		n = (Expr *) makeFuncExpr(t == INT8OID ? F_NUMERIC_INT8 :
								  t == INT4OID ? F_NUMERIC_INT4 : F_NUMERIC_INT2,
								  NUMERICOID, list_make1(n), InvalidOid, InvalidOid,
								  COERCE_EXPLICIT_CAST);
	return (Expr *) makeFuncExpr(F_NUMERIC_MUL, NUMERICOID,
								 list_make2(n, copyObjectImpl(n)), InvalidOid, InvalidOid,
								 COERCE_EXPLICIT_CALL);
}

/*
 * The program outputs of a GpuPreAgg target (custom_scan_tlist order):
 * per entry, its output index (a key's value, an aggregate's argument:
 * one output for equal expressions; -1 for count(*)) into *outs, the
 * scale of its numeric values into *scales, and the output of an
 * aggregate's FILTER (a bool; -1: none) into *filts, the output of a
 * stddev / variance argument's square (gx_square_expr; -1: none) into
 * *sqs.  Appended to prog;
 * false when one cannot run on the device or is numeric where that does
 * not fit an exact 64-bit fixed point (prog is then unusable).  A
 * filtered aggregate's argument must not be able to raise an error:
 * PostgreSQL does not compute it for the rows its filter leaves out, the
 * device computes every output of a passing row.  Over a join (inner not
 * NULL), a key or an aggregate's argument that is a column of the inner
 * side is no output of prog (the outer side's): its entry is
 * GX_INNER_OUT(c), inner column c (gx_inner_col, join_agg_path.cpp).
 */
bool
gx_group_outputs(GxProgram *prog, List *exprs, Index relid, List **outs, List **scales,
				 List **filts, List **dscales, List **sqs, GxInnerCols *inner)
{
	GxDoneOuts	done = {NIL, NIL, NIL, NIL};	/* the outputs compiled */
	ListCell   *lc;

	*outs = *scales = *filts = *dscales = *sqs = NIL;
	foreach(lc, exprs)
	{
		Expr	   *e = (Expr *) lfirst(lc);
		Expr	   *filter = NULL;
		Aggref	   *agg = NULL;
		int			idx = -1;
		int			fidx = -1;
		int			didx = -1;
		int			sqidx = -1;
		int			scale = 0;
		bool		err = false;
		Oid			vartype;

		if (IsA(e, TargetEntry))
			e = ((TargetEntry *) e)->expr;
		if (IsA(e, Aggref))
		{
			agg = (Aggref *) e;
			filter = agg->aggfilter;
			e = gx_agg_arg_expr(agg);
		}
		if (filter != NULL)
		{
			int			fscale;

			fidx = gx_group_output(prog, filter, relid, &done,
								   &fscale, &err);
			if (fidx < 0 || exprType((Node *) filter) != BOOLOID)
				return false;
		}
		if (inner != NULL)
			inner->entry_dicts = lappend_int(inner->entry_dicts, 0);
		/* a string key over a join: its dictionary ids (join_agg_path.cpp) */
		if (agg == NULL && inner != NULL && IsA(e, Var) && gx_dict_type(exprType((Node *) e)))
		{
			Var		   *ids = NULL;

			idx = gx_dict_key(inner, (Var *) e, relid, &ids);
			if (ids != NULL)
				idx = gx_group_output(prog, (Expr *) ids, relid, &done, &scale, &err);
			if (idx < 0)
				return false;
		}
		else if (e != NULL && inner != NULL && IsA(e, Var) &&
				 bms_is_member(((Var *) e)->varno, inner->relids))
		{
			/* a join's inner column (join_agg_path.cpp): no dscale, no square */
			idx = gx_inner_col(inner, (Var *) e, &scale);
			if (idx < 0 || (agg != NULL && gx_exact_var_agg(agg->aggfnoid, &vartype)))
				return false;
		}
		else if (e != NULL)
		{
			idx = gx_group_output(prog, e, relid, &done, &scale,
								  &err);
			if (idx < 0 || (filter != NULL && err))
				return false;
		}
		if (scale == GX_NUMERIC_FREE && !gx_free_numeric_output(prog, agg, e, relid, &didx))
			return false;
		if (agg != NULL && gx_exact_var_agg(agg->aggfnoid, &vartype))
		{
			int			sqscale;

			sqidx = gx_group_output(prog, gx_square_expr(e), relid, &done, &sqscale,
									&err);
			if (sqidx < 0 || sqscale != 2 * scale || (filter != NULL && err))
			{
				gx_no_preagg("the square of a stddev/variance argument has no device numeric scale (the argument's is above 9)");
				return false;
			}
		}
		*outs = lappend_int(*outs, idx);
		*scales = lappend_int(*scales, scale);
		*filts = lappend_int(*filts, fidx);
		*dscales = lappend_int(*dscales, didx);
		*sqs = lappend_int(*sqs, sqidx);
	}
	return true;
}

/* the path under a projection the scan/join target added, if any */
Path *
gx_unproject(Path *path)
{
	while (IsA(path, ProjectionPath))
		path = ((ProjectionPath *) path)->subpath;
	return path;
}

/*
 * The aggregate GpuScan (or GpuPreAgg) path over a GpuScan path: its
 * cost (no row back but one per group), rows = the groups
 */
static CustomPath *
gx_make_agg_path(RelOptInfo *rel, Path *scan, PathTarget *partial, bool group,
				 double groups)
{
	CustomPath *cpath = gx_serial_custom_path(rel, partial, groups);

	cpath->path.startup_cost = scan->total_cost -
		Min(scan->total_cost - scan->startup_cost, gx_gpu_tuple_cost * scan->rows) +
		cpu_tuple_cost * groups;
	cpath->path.total_cost = cpath->path.startup_cost;
	cpath->custom_paths = NIL;
	/* the scan path's program and split (gx_path_program) */
	cpath->custom_private = ((CustomPath *) scan)->custom_private;
	cpath->methods = group ? &gx_preagg_path_methods : &gx_agg_path_methods;
	return cpath;
}

/* why a GROUP BY query keeps PostgreSQL's plans, at DEBUG1 */
static void
gx_no_preagg(const char *why)
{
	elog(DEBUG1, "gpuext: no GpuPreAgg: %s", why);
}

/*
 * The partial target of a device aggregate path: the group keys (device
 * columns of rel, with their sortgrouprefs; dict: string keys too, which
 * an aggregating GpuJoin groups by dictionary ids, join_dict.cpp), then
 * the partial Aggrefs of the target and of HAVING.  NULL when something cannot run on the device;
 * *group: the keyless stripes cannot hold it (GpuPreAgg).
 */
PathTarget *
gx_partial_target(PlannerInfo *root, PathTarget *target, Node *having, Index relid,
				  bool dict, bool *group)
{
	List	   *groupClause = GX_GROUP_CLAUSE(root);
	PathTarget *partial = create_empty_pathtarget();
	List	   *others = NIL;
	List	   *aggrefs;
	int			nkeys = 0;
	int			naggs = 0;
	int			i = 0;
	ListCell   *lc;

	*group = groupClause != NIL;
	foreach(lc, target->exprs)
	{
		Expr	   *e = (Expr *) lfirst(lc);
		Index		sgref = get_pathtarget_sortgroupref(target, i++);

		if (sgref != 0 && get_sortgroupref_clause_noerr(sgref, groupClause) != NULL)
		{
			if ((!gx_key_type(exprType((Node *) e)) &&
				 !(dict && gx_dict_type(exprType((Node *) e)) &&
				   gx_collation_exact(exprCollation((Node *) e)))) ||
				contain_volatile_functions((Node *) e))
			{
				gx_no_preagg("a GROUP BY key is not of a device key type");
				return NULL;
			}
			if (++nkeys > GX_MAX_GKEYS)
			{
				gx_no_preagg("too many GROUP BY keys");
				return NULL;
			}
			add_column_to_pathtarget(partial, e, sgref);
		}
		else
			others = lappend(others, e);
	}
	if (having != NULL)
		others = lappend(others, having);
	aggrefs = pull_var_clause((Node *) others,
							  PVC_INCLUDE_AGGREGATES | PVC_RECURSE_PLACEHOLDERS);
	foreach(lc, aggrefs)
	{
		Aggref	   *a = (Aggref *) lfirst(lc);

		if (!IsA(a, Aggref))
		{
			gx_no_preagg("a column outside aggregates is not a GROUP BY key");
			return NULL;
		}
		if (!gx_agg_supported(a, relid, false))
			*group = true;
		if (!gx_agg_supported(a, relid, true))
		{
			gx_no_preagg(psprintf("aggregate %s has no device implementation",
								  format_procedure(a->aggfnoid)));
			return NULL;
		}
		a = (Aggref *) copyObjectImpl(a);
		mark_partial_aggref(a, AGGSPLIT_INITIAL_SERIAL);
		if (list_member(partial->exprs, a))
			continue;
		/*
		 * device aggregates, at most: an exact numeric sum takes two (and
		 * one more for the dscales of an unconstrained column), a float
		 * avg / stddev / variance three, an exact one four
		 */
		if (!gx_shares_var_sums(partial->exprs, a))
			naggs += gx_agg_device_slots(a->aggfnoid);
		if ((a->aggfnoid == F_SUM_NUMERIC || a->aggfnoid == F_AVG_NUMERIC) &&
			gx_agg_arg_expr(a) != NULL && IsA(gx_agg_arg_expr(a), Var) &&
			((Var *) gx_agg_arg_expr(a))->vartypmod < 0)
			naggs++;
		if (naggs > GX_MAX_AGGS)
		{
			gx_no_preagg("too many aggregates");
			return NULL;
		}
		add_new_column_to_pathtarget(partial, (Expr *) a);
	}
	if (naggs == 0 && !*group)
		return NULL;			/* nothing to compute (no aggregate, no key) */
	set_pathtarget_cost_width(root, partial);
	return partial;
}

/*
 * The initial size of a Finalize HashAggregate's table over device
 * groups, at most: the rows it reads are the groups the device made,
 * whatever the planner's estimate was (often the input's rows, for keys
 * it cannot estimate such as k % 1000), and PostgreSQL sizes the table
 * for that estimate at executor start, which for 16M groups takes most of
 * a cached query's time.  The table grows as groups come.
 */
#define GX_FINAL_INIT_GROUPS 65536.0

/*
 * A hashed Finalize path: costed for the estimated groups, its table
 * started at no more than GX_FINAL_INIT_GROUPS (create_agg_plan takes
 * numGroups from the path)
 */
Path *
gx_final_hashed(PlannerInfo *root, RelOptInfo *output_rel, Path *input, PathTarget *target,
				List *groupClause, List *having, AggClauseCosts *costs, double groups)
{
	AggPath    *ap = create_agg_path(root, output_rel, input, target, AGG_HASHED,
									 AGGSPLIT_FINAL_DESERIAL, groupClause, having, costs,
									 groups);

	ap->numGroups = Min(ap->numGroups, GX_FINAL_INIT_GROUPS);
	return &ap->path;
}

/*
 * Finalize paths over a device aggregate path (or a Gather of it): plain
 * without keys; hashed, and sorted, by the GROUP BY keys
 */
Path *
gx_add_final_paths(PlannerInfo *root, RelOptInfo *output_rel, Path *input,
				   PathTarget *target, List *having, AggClauseCosts *costs,
				   double groups)
{
	List	   *groupClause = GX_GROUP_CLAUSE(root);
	Path	   *hashed = NULL;
	Path	   *sorted_agg = NULL;

	if (groupClause == NIL)
	{
		add_path(output_rel, &create_agg_path(root, output_rel, input, target, AGG_PLAIN,
											  AGGSPLIT_FINAL_DESERIAL, NIL, having, costs,
											  1)->path);
		return NULL;
	}
	if (grouping_is_hashable(groupClause))
	{
		hashed = gx_final_hashed(root, output_rel, input, target, groupClause, having, costs,
								 groups);
		add_path(output_rel, hashed);
	}
	if (grouping_is_sortable(groupClause))
	{
		List	   *pathkeys = make_pathkeys_for_sortclauses(root, groupClause,
															 root->parse->targetList);
		Path	   *sorted = &create_sort_path(root, output_rel, input, pathkeys, -1.0)->path;

		sorted_agg = &create_agg_path(root, output_rel, sorted, target, AGG_SORTED,
									  AGGSPLIT_FINAL_DESERIAL, groupClause, having,
									  costs, groups)->path;
		add_path(output_rel, sorted_agg);
	}
	/* (add_path may have freed a path it rejected: build the fallback anew) */
	if (hashed == NULL && sorted_agg == NULL)
		return NULL;
	if (grouping_is_hashable(groupClause))
		return gx_final_hashed(root, output_rel, input, target, groupClause, having, costs,
							   groups);
	return &create_agg_path(root, output_rel,
							&create_sort_path(root, output_rel, input,
											  make_pathkeys_for_sortclauses(root, groupClause,
																			root->parse->targetList),
											  -1.0)->path,
							target, AGG_SORTED, AGGSPLIT_FINAL_DESERIAL, groupClause,
							having, costs, groups)->path;
}

/* the final form of a partial Aggref (mark_partial_aggref undone) */
static Aggref *
gx_final_aggref(Aggref *partial)
{
	Aggref	   *a = (Aggref *) copyObjectImpl(partial);

	a->aggsplit = AGGSPLIT_SIMPLE;
	a->aggtype = get_func_rettype(a->aggfnoid);
	return a;
}

/* the sortgrouprefs of target's expressions, 0 for one without */
List *
gx_target_refs(PathTarget *target)
{
	List	   *refs = NIL;

	for (int i = 0; i < list_length(target->exprs); i++)
		refs = lappend_int(refs, target->sortgrouprefs != NULL ?
						   (int) target->sortgrouprefs[i] : 0);
	return refs;
}

/* a target list of exprs with their sortgrouprefs refs (gx_target_refs) */
List *
gx_refs_tlist(List *exprs, List *refs)
{
	List	   *tlist = NIL;
	ListCell   *lc,
			   *lr;

	forboth(lc, exprs, lr, refs)
	{
		TargetEntry *te = makeTargetEntry((Expr *) lfirst(lc), list_length(tlist) + 1, NULL,
										  false);

		te->ressortgroupref = (Index) lfirst_int(lr);
		tlist = lappend(tlist, te);
	}
	return tlist;
}

/*
 * A partial device aggregate's plan made finalizing (a GpuPreAgg's or an
 * aggregating GpuJoin's): its custom_scan_tlist's Aggrefs in their final
 * form, so that setrefs makes the final target list tlist and HAVING (its
 * qual) read them; custom_private's last item "final" (gx_private_final)
 */
void
gx_plan_finalizing(CustomScan *cscan, List *tlist, List *having)
{
	ListCell   *lc;

	foreach(lc, cscan->custom_scan_tlist)
	{
		TargetEntry *te = (TargetEntry *) lfirst(lc);

		if (IsA(te->expr, Aggref))
			te->expr = (Expr *) gx_final_aggref((Aggref *) te->expr);
	}
	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = having;
	cscan->custom_private = lappend(cscan->custom_private, makeString(pstrdup("final")));
}

/*
 * GpuPreAgg that finalizes on the device's groups (serial plans with GROUP
 * BY): when the scan ends with every group in one table and no row left
 * to the host, each group is one row, and the node computes the
 * aggregates' final values itself (preagg.cpp), with HAVING as its qual,
 * instead of handing partial states to PostgreSQL's Finalize node, whose
 * work there is pure overhead (at a million groups, most of the time).
 * Otherwise it runs its child, fallback: the Finalize plan over a
 * partial GpuPreAgg, i.e. the plan it replaces, so the answer is always
 * PostgreSQL's.  custom_private = (relid of the table, the partial path's
 * target as a list of expressions with their sortgrouprefs, HAVING).
 */
static void
gx_add_device_final_path(PlannerInfo *root, RelOptInfo *output_rel, RelOptInfo *input_rel,
						 CustomPath *part, Path *fallback, PathTarget *target, List *having,
						 double groups)
{
	CustomPath *fp = gx_serial_custom_path(output_rel, target, groups);
	List	   *refs = gx_target_refs(part->path.pathtarget);
	/* the partial node's cost, and a tuple's worth per group: no Finalize */
	fp->path.startup_cost = part->path.startup_cost;
	fp->path.total_cost = part->path.total_cost + cpu_tuple_cost * groups;
	fp->custom_paths = list_make1(fallback);
	fp->custom_private = list_make4(makeInteger((int) input_rel->relid),
									part->path.pathtarget->exprs, refs, having);
	/* (the program and split of the scan path: gx_path_program) */
	fp->custom_private = list_concat(fp->custom_private, list_copy(part->custom_private));
	fp->methods = &gx_final_path_methods;
	add_path(output_rel, &fp->path);
}

/* is every aggregate of a partial target count(*), without a FILTER? */
bool
gx_partial_count_star(PathTarget *partial)
{
	ListCell   *lc;

	foreach(lc, partial->exprs)
	{
		Aggref	   *a = (Aggref *) lfirst(lc);

		if (!IsA(a, Aggref) || a->aggfnoid != F_COUNT_ || !a->aggstar || a->aggfilter != NULL)
			return false;
	}
	return true;
}

/*
 * The Finalize nodes' costs for the device paths about to be added to
 * output_rel; under gpuext.force, its other paths go first (only the
 * device's remain, at their real costs, so the plan above is still
 * chosen by cost)
 */
void
gx_final_costs(PlannerInfo *root, RelOptInfo *output_rel, AggClauseCosts *costs)
{
	MemSet(costs, 0, sizeof(*costs));
	get_agg_clause_costs(root, AGGSPLIT_FINAL_DESERIAL, costs);
	if (gx_force)
	{
		output_rel->pathlist = NIL;
		output_rel->partial_pathlist = NIL;
	}
}

/*
 * the cheapest counting form of a GpuJoin path among paths of rel (under
 * a projection: unproject), or NULL
 */
static Path *
gx_cheapest_join_count(RelOptInfo *rel, List *paths, PathTarget *partial, bool unproject)
{
	Path	   *best = NULL;
	ListCell   *lc;

	foreach(lc, paths)
	{
		Path	   *p = gx_join_count_path(rel, unproject ? gx_unproject((Path *) lfirst(lc)) :
										   (Path *) lfirst(lc), partial);

		if (p != NULL && (best == NULL || p->total_cost < best->total_cost))
			best = p;
	}
	return best;
}

/*
 * count(*) over a join (input_rel): Finalize Aggregate over the counting
 * form of the join relation's cheapest GpuJoin path (join_path.cpp's
 * design note), when the query's only aggregates are count(*), with no
 * GROUP BY and no HAVING (the partial target holds the count(*) alone)
 */
static void
gx_join_count_paths(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel,
					Node *having)
{
	PathTarget *target = root->upper_targets[UPPERREL_GROUP_AGG];
	PathTarget *partial;
	Path	   *best,
			   *pbest;
	AggClauseCosts costs;
	bool		group;

	if (!gx_enable_agg || having != NULL || GX_GROUP_CLAUSE(root) != NIL)
		return;
	partial = gx_partial_target(root, target, NULL, 0, false, &group);
	if (partial == NULL || group)
		return;
	if (!gx_partial_count_star(partial))
		return;
	best = gx_cheapest_join_count(input_rel, input_rel->pathlist, partial, true);
	/* (a partial GpuJoin: each process counts its share, join_parallel.cpp) */
	pbest = gx_cheapest_join_count(input_rel, input_rel->partial_pathlist, partial, false);
	if (best == NULL && pbest == NULL)
		return;
	/* gpuext.force: only the counting join remains (as for a GpuScan's) */
	gx_final_costs(root, output_rel, &costs);
	if (best != NULL)
		gx_add_final_paths(root, output_rel, best, target, NIL, &costs, 1);
	/* Finalize Aggregate -> Gather -> Parallel GpuJoin: a row per process */
	if (pbest != NULL)
	{
		double		rows = pbest->parallel_workers + 1;
		GatherPath *gpath = create_gather_path(root, input_rel, pbest, partial, NULL, &rows);

		gx_add_final_paths(root, output_rel, &gpath->path, target, NIL, &costs, 1);
	}
}

/*
 * create_upper_paths_hook: for UPPERREL_GROUP_AGG over a GpuScan-able
 * table, add Finalize Aggregate over a GpuScan computing the aggregates
 * (or over GpuPreAgg, for GROUP BY); over a join, count(*) by the GpuJoin
 * (gx_join_count_paths), other aggregates and GROUP BY by a GpuJoin that
 * aggregates its pairs (gx_join_group_paths, join_agg_path.cpp).
 */
static void
gx_create_upper_paths(PlannerInfo *root, UpperRelationKind stage,
					  RelOptInfo *input_rel, RelOptInfo *output_rel, void *extra)
{
	Query	   *parse = root->parse;
	PathTarget *target;
	PathTarget *partial;
	Node	   *having;
	Path	   *scan = NULL;
	Path	   *pscan = NULL;
	AggClauseCosts costs;
	double		groups = 1;
	bool		group;
	ListCell   *lc;

	if (prev_create_upper_paths_hook)
		prev_create_upper_paths_hook(root, stage, input_rel, output_rel, extra);

	if (stage != UPPERREL_GROUP_AGG || !gx_enabled || gx_shared == NULL)
		return;
	if ((!parse->hasAggs && parse->groupClause == NIL) || parse->groupingSets != NIL ||
		parse->hasWindowFuncs || parse->hasTargetSRFs)
		return;
	having = extra != NULL ? ((GroupPathExtraData *) extra)->havingQual : parse->havingQual;
	if (input_rel->reloptkind == RELOPT_JOINREL)
	{
		gx_join_count_paths(root, input_rel, output_rel, having);
		gx_join_group_paths(root, input_rel, output_rel, having);
		return;
	}
	if (!gx_enable_scan || (!gx_enable_agg && !gx_enable_preagg) ||
		input_rel->reloptkind != RELOPT_BASEREL)
		return;

	/* a GpuScan of the table with every qual on the device */
	foreach(lc, input_rel->pathlist)
		if (gx_is_device_scan_path(gx_unproject((Path *) lfirst(lc)), false))
			scan = gx_unproject((Path *) lfirst(lc));
	foreach(lc, input_rel->partial_pathlist)
		if (gx_is_device_scan_path(gx_unproject((Path *) lfirst(lc)), true))
			pscan = gx_unproject((Path *) lfirst(lc));
	/* a table without quals has no GpuScan path of its own: make them */
	if (scan == NULL && pscan == NULL &&
		!gx_unfiltered_scan_paths(root, input_rel, &scan, &pscan))
		return;

	/* every key and aggregate computable on the device; nothing else */
	target = root->upper_targets[UPPERREL_GROUP_AGG];
	partial = gx_partial_target(root, target, having, input_rel->relid, false, &group);
	if (partial == NULL)
		return;
	if (group ? !gx_enable_preagg : !gx_enable_agg)
	{
		/* the keyless stripes are off: a group table of one group will do */
		if (!gx_enable_preagg)
			return;
		group = true;
	}
	/*
	 * Rows the device leaves to the host (GX_ERR_HOST: numeric beyond
	 * int64) must pass the device quals on the host: a keyless aggregate
	 * never sees them, so it cannot take such a program; GpuPreAgg
	 * evaluates them on the host (gx_group_host_rows).
	 */
	if (!group && (gx_scan_path_may_host(scan) || gx_scan_path_may_host(pscan)))
		return;
	/* the keys and the aggregates' arguments as outputs of the scan's program */
	if (group)
	{
		List	   *priv = ((CustomPath *) (scan != NULL ? scan : pscan))->custom_private;
		GxProgram  *trial = gx_program_from_const((Const *) lsecond(priv),
												  (List *) list_nth(priv, 4));

		List	   *o,
				   *sc,
				   *f,
				   *ds,
				   *sq;

		if (!gx_group_outputs(trial, partial->exprs, input_rel->relid, &o, &sc, &f, &ds, &sq,
							  NULL))
		{
			gx_no_preagg("a key or an aggregate argument cannot be computed on the device");
			return;
		}
	}
	if (GX_GROUP_CLAUSE(root) != NIL)
		groups = estimate_num_groups(root,
									 get_sortgrouplist_exprs(GX_GROUP_CLAUSE(root),
															 parse->targetList),
									 input_rel->rows, NULL, NULL);

	/* gpuext.force: only the device aggregates remain (gx_final_costs) */
	gx_final_costs(root, output_rel, &costs);

	/* (the serial GpuScan may have lost to a free Gather in the rel) */
	if (scan != NULL)
	{
		CustomPath *part = gx_make_agg_path(input_rel, scan, partial, group, groups);
		Path	   *fallback = gx_add_final_paths(root, output_rel, &part->path, target,
												  (List *) having, &costs, groups);

		if (group && gx_enable_final && fallback != NULL)
			gx_add_device_final_path(root, output_rel, input_rel,
									 gx_make_agg_path(input_rel, scan, partial, group, groups),
									 fallback, target, (List *) having, groups);
	}

	/*
	 * Parallel: the processes of a parallel GpuScan add into one device
	 * state (parallel.cpp), and the last to finish returns its rows;
	 * Gather brings them to the Finalize node, as PostgreSQL's Partial
	 * Aggregate rows.
	 */
	if (pscan != NULL)
	{
		CustomPath *ppath = gx_make_agg_path(input_rel, pscan, partial, group, groups);
		double		rows = group ? groups : pscan->parallel_workers + 1;
		GatherPath *gpath;

		ppath->path.parallel_aware = true;
		ppath->path.parallel_safe = true;
		ppath->path.parallel_workers = pscan->parallel_workers;
		gpath = create_gather_path(root, input_rel, &ppath->path, partial, NULL, &rows);
		gx_add_final_paths(root, output_rel, &gpath->path, target, (List *) having, &costs,
						   groups);
	}
}

/* collect the table's Vars a qual reads (varattno > 0) */
static bool
gx_collect_vars(Node *node, List **vars)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		Var		   *v = (Var *) node;
		ListCell   *lc;

		if (v->varlevelsup != 0)
			return false;
		foreach(lc, *vars)
			if (equal(lfirst(lc), v))
				return false;
		*vars = lappend(*vars, v);
		return false;
	}
	return expression_tree_walker(node, GX_WALKER(gx_collect_vars), (void *) vars);
}

/*
 * PlanCustomPath: a CustomScan over the table computing the partial
 * aggregates; custom_exprs = (device quals, NIL, the program's Params),
 * custom_private = ("agg", the program, which also has the columns the
 * aggregates read), or for GpuPreAgg ("preagg", the program with the
 * keys and arguments as outputs, the estimated groups, as a String: a
 * Float node may come back from a parallel worker's copy of the plan as
 * an Integer, the output index of each custom_scan_tlist entry, the
 * scale of its numeric values, the output of its FILTER or -1, and the
 * output of its argument's dscale (an unconstrained numeric's sum/avg)
 * or -1, and the output of its argument's square (stddev / variance of
 * integers or numeric) or -1).
 */
static Plan *
gx_plan_agg_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
				 List *tlist, List *clauses, List *custom_plans)
{
	bool		group = best_path->methods == &gx_preagg_path_methods;
	List	   *device,
			   *host;
	List	   *vars = NIL;
	List	   *scan_tlist;
	List	   *outs = NIL;
	List	   *scales = NIL;
	List	   *filts = NIL;
	List	   *dscales = NIL;
	List	   *sqs = NIL;
	GxProgram  *prog;
	CustomScan *cscan;
	ListCell   *lc;

	prog = gx_path_program(best_path, clauses, rel->relid, &device, &host);
	if (host != NIL)
		elog(ERROR, "gpuext: device aggregates with host quals");
	/* GpuPreAgg: the keys and arguments are the program's outputs */
	if (group &&
		!gx_group_outputs(prog, tlist, rel->relid, &outs, &scales, &filts, &dscales, &sqs,
						  NULL))
		elog(ERROR, "gpuext: GpuPreAgg outputs do not fit the program");
	/* the columns the aggregates read (gx_agg_begin finds them) */
	foreach(lc, tlist)
	{
		TargetEntry *te = (TargetEntry *) lfirst(lc);
		Var		   *v = (Var *) te->expr;

		if (IsA(te->expr, Aggref))
		{
			Aggref	   *a = (Aggref *) te->expr;

			if (a->args == NIL)
				continue;
			v = (Var *) ((TargetEntry *) linitial(a->args))->expr;
		}
		if (!group && IsA(v, Var) && gx_program_add_column(prog, v->varattno, v->vartype) < 0)
			elog(ERROR, "gpuext: device aggregate column cannot be read");
	}

	/* partial Aggrefs (and keys), then the columns the quals read */
	scan_tlist = (List *) copyObjectImpl(tlist);
	gx_collect_vars((Node *) device, &vars);
	foreach(lc, vars)
		scan_tlist = lappend(scan_tlist,
							 makeTargetEntry((Expr *) copyObjectImpl(lfirst(lc)),
											 list_length(scan_tlist) + 1, NULL, true));

	cscan = gx_make_cscan(rel, best_path, tlist, group ? "preagg" : "agg", device, NIL, prog,
						  scan_tlist);
	if (group)
	{
		cscan->custom_private = lappend(cscan->custom_private,
										makeString(psprintf("%.0f", best_path->path.rows)));
		cscan->custom_private = lappend(cscan->custom_private, outs);
		cscan->custom_private = lappend(cscan->custom_private, scales);
		cscan->custom_private = lappend(cscan->custom_private, filts);
		cscan->custom_private = lappend(cscan->custom_private, dscales);
		cscan->custom_private = lappend(cscan->custom_private, sqs);
		cscan->methods = &gx_preagg_plan_methods;
	}
	return &cscan->scan.plan;
}

/*
 * PlanCustomPath of the finalizing GpuPreAgg: the partial GpuPreAgg's plan
 * over the table (gx_plan_agg_path), then its custom_scan_tlist holds the
 * final Aggrefs, so that setrefs makes the final target list and HAVING
 * (the node's qual) read them (gx_plan_finalizing); custom_plans: the
 * fallback.
 */
static Plan *
gx_plan_final_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
				   List *tlist, List *clauses, List *custom_plans)
{
	List	   *priv = best_path->custom_private;
	RelOptInfo *base = root->simple_rel_array[intVal(linitial(priv))];
	List	   *exprs = (List *) lsecond(priv);
	List	   *refs = (List *) lthird(priv);
	List	   *having = (List *) lfourth(priv);
	CustomPath *part = makeNode(CustomPath);
	CustomScan *cscan;

	part->path.pathtype = T_CustomScan;
	part->path.parent = base;
	part->path.pathtarget = best_path->path.pathtarget;
	part->path.rows = best_path->path.rows;
	part->flags = 0;
	part->custom_private = list_copy_tail(priv, 4);
	part->methods = &gx_preagg_path_methods;
	cscan = (CustomScan *) gx_plan_agg_path(root, base, part, gx_refs_tlist(exprs, refs),
											base->baserestrictinfo, NIL);
	gx_plan_finalizing(cscan, tlist, having);
	cscan->custom_plans = custom_plans;
	return &cscan->scan.plan;
}

/* install the hook; called by gx_planner_init */
void
gx_aggpath_init(void)
{
	RegisterCustomScanMethods(&gx_preagg_plan_methods);
	prev_create_upper_paths_hook = create_upper_paths_hook;
	create_upper_paths_hook = gx_create_upper_paths;
}
