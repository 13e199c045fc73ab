/*
 * aggpath.cpp - device aggregates: planning.
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
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planner.h"
#include "optimizer/prep.h"
#include "optimizer/tlist.h"
#include "utils/fmgroids.h"
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

/* the single plain Var argument of an aggregate of rel, or NULL */
static Var *
gx_agg_arg(Aggref *a, Index relid)
{
	TargetEntry *te;
	Var		   *v;

	if (list_length(a->args) != 1)
		return NULL;
	te = (TargetEntry *) linitial(a->args);
	if (!IsA(te->expr, Var))
		return NULL;
	v = (Var *) te->expr;
	if (v->varno != (int) relid || v->varlevelsup != 0 || v->varattno <= 0)
		return NULL;
	return v;
}

/* can the device compute this aggregate (of rel)? */
static bool
gx_agg_supported(Aggref *a, Index relid)
{
	Var		   *v;
	int			t;

	if (a->aggdistinct != NIL || a->aggorder != NIL || a->aggfilter != NULL ||
		a->agglevelsup != 0 || a->aggkind != AGGKIND_NORMAL ||
		a->aggsplit != AGGSPLIT_SIMPLE || a->aggvariadic)
		return false;
	switch (a->aggfnoid)
	{
		case F_COUNT_:
			return a->aggstar && a->args == NIL;
		case F_COUNT_ANY:
			v = gx_agg_arg(a, relid);
			return v != NULL && gx_type_supported(v->vartype, &t);
		case F_SUM_INT4:
		case F_SUM_INT2:
			v = gx_agg_arg(a, relid);
			return v != NULL && (v->vartype == INT4OID || v->vartype == INT2OID);
		default:
			return false;
	}
}

/* the path under a projection the scan/join target added, if any */
static Path *
gx_unproject(Path *path)
{
	while (IsA(path, ProjectionPath))
		path = ((ProjectionPath *) path)->subpath;
	return path;
}

/* the aggregate GpuScan path over a GpuScan path: its cost, no row back */
static CustomPath *
gx_make_agg_path(RelOptInfo *rel, Path *scan, PathTarget *partial)
{
	CustomPath *cpath = makeNode(CustomPath);

	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = rel;
	cpath->path.pathtarget = partial;
	cpath->path.param_info = NULL;
	cpath->path.parallel_aware = false;
	cpath->path.parallel_safe = false;
	cpath->path.parallel_workers = 0;
	cpath->path.rows = 1;
	cpath->path.pathkeys = NIL;
	cpath->path.startup_cost = scan->total_cost -
		Min(scan->total_cost - scan->startup_cost, gx_gpu_tuple_cost * scan->rows);
	cpath->path.total_cost = cpath->path.startup_cost;
	cpath->flags = 0;
	cpath->custom_paths = NIL;
	/* the scan path's program and split (gx_path_program) */
	cpath->custom_private = ((CustomPath *) scan)->custom_private;
	cpath->methods = &gx_agg_path_methods;
	return cpath;
}

/*
 * create_upper_paths_hook: for UPPERREL_GROUP_AGG over a GpuScan-able
 * table, add Finalize Aggregate over a GpuScan computing the aggregates.
 */
static void
gx_create_upper_paths(PlannerInfo *root, UpperRelationKind stage,
					  RelOptInfo *input_rel, RelOptInfo *output_rel, void *extra)
{
	Query	   *parse = root->parse;
	PathTarget *target;
	PathTarget *partial;
	List	   *aggrefs;
	Path	   *scan = NULL;
	Path	   *pscan = NULL;
	CustomPath *cpath;
	AggPath    *apath;
	AggClauseCosts costs;
	ListCell   *lc;

	if (prev_create_upper_paths_hook)
		prev_create_upper_paths_hook(root, stage, input_rel, output_rel, extra);

	if (stage != UPPERREL_GROUP_AGG || !gx_enabled || !gx_enable_scan || !gx_enable_agg ||
		gx_shared == NULL)
		return;
	if (!parse->hasAggs || parse->groupClause != NIL || parse->groupingSets != NIL ||
		parse->havingQual != NULL || parse->hasWindowFuncs || parse->hasTargetSRFs ||
		root->hasHavingQual || input_rel->reloptkind != RELOPT_BASEREL)
		return;

	/* a GpuScan of the table with every qual on the device */
	foreach(lc, input_rel->pathlist)
		if (gx_is_device_scan_path(gx_unproject((Path *) lfirst(lc)), false))
			scan = gx_unproject((Path *) lfirst(lc));
	foreach(lc, input_rel->partial_pathlist)
		if (gx_is_device_scan_path(gx_unproject((Path *) lfirst(lc)), true))
			pscan = gx_unproject((Path *) lfirst(lc));
	if (scan == NULL && pscan == NULL)
		return;

	/* every aggregate computable on the device; nothing else but them */
	target = root->upper_targets[UPPERREL_GROUP_AGG];
	aggrefs = pull_var_clause((Node *) target->exprs,
							  PVC_INCLUDE_AGGREGATES | PVC_RECURSE_PLACEHOLDERS);
	if (aggrefs == NIL)
		return;
	partial = create_empty_pathtarget();
	foreach(lc, aggrefs)
	{
		Aggref	   *a = (Aggref *) lfirst(lc);

		if (!IsA(a, Aggref) || !gx_agg_supported(a, input_rel->relid))
			return;
		if (list_length(partial->exprs) >= GX_MAX_AGGS)
			return;
		a = (Aggref *) copyObjectImpl(a);
		mark_partial_aggref(a, AGGSPLIT_INITIAL_SERIAL);
		add_new_column_to_pathtarget(partial, (Expr *) a);
	}
	set_pathtarget_cost_width(root, partial);

	MemSet(&costs, 0, sizeof(costs));
	get_agg_clause_costs(root, AGGSPLIT_FINAL_DESERIAL, &costs);
	/*
	 * gpuext.force: only the device aggregates remain, at their real costs
	 * (as for the scan paths), so that serial against parallel and the
	 * plan above are still chosen by cost
	 */
	if (gx_force)
	{
		output_rel->pathlist = NIL;
		output_rel->partial_pathlist = NIL;
	}

	/* (the serial GpuScan may have lost to a free Gather in the rel) */
	if (scan != NULL)
	{
		cpath = gx_make_agg_path(input_rel, scan, partial);
		apath = create_agg_path(root, output_rel, &cpath->path, target, AGG_PLAIN,
								AGGSPLIT_FINAL_DESERIAL, NIL, NIL, &costs, 1);
		add_path(output_rel, &apath->path);
	}

	/*
	 * Parallel: each process of a parallel GpuScan computes the aggregates
	 * of its blocks and returns one row; Gather brings them to the Finalize
	 * Aggregate, as PostgreSQL's Partial Aggregate rows.
	 */
	if (pscan != NULL)
	{
		CustomPath *ppath = gx_make_agg_path(input_rel, pscan, partial);
		double		rows = pscan->parallel_workers + 1;
		GatherPath *gpath;
		AggPath    *papath;

		ppath->path.parallel_aware = true;
		ppath->path.parallel_safe = true;
		ppath->path.parallel_workers = pscan->parallel_workers;
		gpath = create_gather_path(root, input_rel, &ppath->path, partial, NULL, &rows);
		papath = create_agg_path(root, output_rel, &gpath->path, target, AGG_PLAIN,
								 AGGSPLIT_FINAL_DESERIAL, NIL, NIL, &costs, 1);
		add_path(output_rel, &papath->path);
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
 * aggregates read).
 */
static Plan *
gx_plan_agg_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
				 List *tlist, List *clauses, List *custom_plans)
{
	List	   *device,
			   *host;
	List	   *vars = NIL;
	List	   *scan_tlist;
	GxProgram  *prog;
	ListCell   *lc;

	prog = gx_path_program(best_path, clauses, rel->relid, &device, &host);
	if (host != NIL)
		elog(ERROR, "gpuext: device aggregates with host quals");
	/* the columns the aggregates read (gx_agg_begin finds them) */
	foreach(lc, tlist)
	{
		TargetEntry *te = (TargetEntry *) lfirst(lc);
		Aggref	   *a = (Aggref *) te->expr;
		Var		   *v;

		if (!IsA(a, Aggref) || a->args == NIL)
			continue;
		v = (Var *) ((TargetEntry *) linitial(a->args))->expr;
		if (IsA(v, Var) && gx_program_add_column(prog, v->varattno, v->vartype) < 0)
			elog(ERROR, "gpuext: device aggregate column cannot be read");
	}

	/* partial Aggrefs, then the columns the quals read */
	scan_tlist = (List *) copyObjectImpl(tlist);
	gx_collect_vars((Node *) device, &vars);
	foreach(lc, vars)
		scan_tlist = lappend(scan_tlist,
							 makeTargetEntry((Expr *) copyObjectImpl(lfirst(lc)),
											 list_length(scan_tlist) + 1, NULL, true));

	return &gx_make_cscan(rel, best_path, tlist, "agg", device, NIL, prog, scan_tlist)->scan.plan;
}

/* install the hook; called by gx_planner_init */
void
gx_aggpath_init(void)
{
	prev_create_upper_paths_hook = create_upper_paths_hook;
	create_upper_paths_hook = gx_create_upper_paths;
}
