/*
 * planner.cpp - offers GpuScan paths for plain heap tables and turns the
 * chosen path into a CustomScan plan.
 *
 * Quals are split, in the order PostgreSQL would evaluate them
 * (order_qual_clauses), into device quals (compiled to the opcode program)
 * and host quals (evaluated by PostgreSQL on the rows the device passed).
 * A device qual that can raise an error (overflow, division by zero) is
 * only pushed when every qual before it is on the device too, so that an
 * error is raised for exactly the rows where PostgreSQL raises it.
 */
#include "gpuext.h"
#include "compat.h"
#include "planner.h"
#include "compiler.h"
#include "executor.h"

extern "C"
{
#include "access/table.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/pg_class.h"
#include "commands/extension.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planner.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "storage/proc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/spccache.h"
}

static set_rel_pathlist_hook_type prev_set_rel_pathlist_hook = NULL;
static planner_hook_type prev_planner_hook = NULL;

/* the cursor options of the planning in progress (gx_planner) */
static int	gx_cursor_options = 0;

static Plan *gx_plan_custom_path(PlannerInfo *root, RelOptInfo *rel,
								 CustomPath *best_path, List *tlist,
								 List *clauses, List *custom_plans);

static CustomPathMethods gx_scan_path_methods = {
	"GpuScan",
	gx_plan_custom_path,
	NULL
};

CustomScanMethods gx_scan_plan_methods = {
	"GpuScan",
	gx_create_scan_state
};

/* is the extension created in this database?  cached per transaction */
bool
gx_extension_present(void)
{
	static LocalTransactionId cached_lxid = InvalidLocalTransactionId;
	static bool cached = false;

	if (GX_MY_LXID != cached_lxid || cached_lxid == InvalidLocalTransactionId)
	{
		cached = OidIsValid(get_extension_oid("gpuext", true));
		cached_lxid = GX_MY_LXID;
	}
	return cached;
}

/*
 * Split ordered RestrictInfos (or bare clauses) into device and host quals
 * (bare clauses), compiling the device ones into *prog (palloc'd, may be
 * NULL).  A qual that may raise an error goes to the device only when every
 * qual before it does.  Returns the number of device quals.
 */
int
gx_split_quals(List *rinfos, Index relid, List **device, List **host,
			   List **device_rinfos, GxProgram **prog_out)
{
	GxProgram  *prog = (GxProgram *) palloc(sizeof(GxProgram));
	bool		all_device = true;
	ListCell   *lc;

	gx_program_init(prog);
	*device = *host = NIL;
	if (device_rinfos)
		*device_rinfos = NIL;
	foreach(lc, rinfos)
	{
		Node	   *n = (Node *) lfirst(lc);
		RestrictInfo *ri = IsA(n, RestrictInfo) ? (RestrictInfo *) n : NULL;
		Expr	   *clause = ri ? ri->clause : (Expr *) n;
		bool		may_error = false;

		if (!(ri && ri->pseudoconstant) &&
			gx_program_add_qual(prog, clause, relid, &may_error, !all_device))
		{
			*device = lappend(*device, clause);
			if (device_rinfos && ri)
				*device_rinfos = lappend(*device_rinfos, ri);
		}
		else
		{
			*host = lappend(*host, clause);
			all_device = false;
		}
	}
	if (prog_out)
		*prog_out = prog;
	else
		pfree(prog);
	return list_length(*device);
}

/*
 * What a GpuScan path carries to its plan (custom_private): the number of
 * host quals (first: gx_is_device_scan_path reads it), the program
 * compiled for the path, the device and host clauses it was split into,
 * and the program's Params, so that planning does not compile again.
 */
static List *
gx_path_private(GxProgram *prog, List *device, List *host)
{
	return list_make5(makeInteger(list_length(host)), gx_program_to_const(prog),
					  device, host, prog->params);
}

/*
 * The split and program of a GpuScan path for the clauses its plan gets:
 * the path's own when the clauses are the ones the path split, in the same
 * order (always, unless a parameterized path got join clauses), else a
 * new split.  Returns the program; *device, *host are bare clauses.
 */
GxProgram *
gx_path_program(CustomPath *path, List *clauses, Index relid, List **device, List **host)
{
	List	   *pdev = (List *) lthird(path->custom_private);
	List	   *phost = (List *) lfourth(path->custom_private);
	List	   *bare = NIL;
	GxProgram  *prog;
	ListCell   *lc;

	foreach(lc, clauses)
	{
		Node	   *n = (Node *) lfirst(lc);

		bare = lappend(bare, IsA(n, RestrictInfo) ? (Node *) ((RestrictInfo *) n)->clause : n);
	}
	if (list_length(bare) == list_length(pdev) + list_length(phost))
	{
		List	   *dev = NIL,
				   *hst = NIL;

		foreach(lc, bare)
		{
			if (list_member_ptr(pdev, lfirst(lc)))
				dev = lappend(dev, lfirst(lc));
			else if (list_member_ptr(phost, lfirst(lc)))
				hst = lappend(hst, lfirst(lc));
		}
		/* the same clauses, the device ones in the program's order */
		if (list_length(dev) == list_length(pdev) && list_length(hst) == list_length(phost) &&
			equal(dev, pdev))
		{
			bool		same_order = true;
			ListCell   *a,
					   *b;

			forboth(a, dev, b, pdev)
				if (lfirst(a) != lfirst(b))
					same_order = false;
			if (same_order)
			{
				*device = dev;
				*host = hst;
				return gx_program_from_const((Const *) lsecond(path->custom_private),
											 (List *) list_nth(path->custom_private, 4));
			}
		}
	}
	gx_split_quals(clauses, relid, device, host, NULL, &prog);
	return prog;
}

/*
 * The share of a partial path's rows one process handles: the workers plus
 * the leader's contribution.  A copy of costsize.c's static
 * get_parallel_divisor(), so that a partial GpuScan is costed like a
 * partial seqscan (and a partial GpuJoin like a partial join).
 */
double
gx_parallel_divisor(Path *path)
{
	double		parallel_divisor = path->parallel_workers;

	/* the leader spends 30% of its time servicing each worker */
	if (parallel_leader_participation)
	{
		double		leader_contribution;

		leader_contribution = 1.0 - (0.3 * path->parallel_workers);
		if (leader_contribution > 0)
			parallel_divisor += leader_contribution;
	}
	return parallel_divisor;
}

/*
 * Cost the GpuScan path.  For a partial path (parallel_workers > 0) the
 * work done by each process (heap tuples, rows handed back, host quals,
 * projection) is divided by the parallel divisor, and so are the rows, as
 * cost_seqscan() does; the disk cost is not divided (cost_seqscan's
 * reasoning), nor is the device program: all the processes submit their
 * chunks to the one gpuext service, whose device (one GPU, or the CPU
 * device's thread pool) does the same total work whatever the number of
 * processes.
 */
static void
gx_cost_scan(PlannerInfo *root, RelOptInfo *rel, Path *path,
			 List *device_rinfos, List *host_quals, double work)
{
	double		spc_seq_page_cost;
	double		ntuples = rel->tuples;
	double		dev_sel;
	double		dev_rows;
	double		cached;
	QualCost	host_cost;
	Cost		startup,
				disk_run,
				cpu_run,
				dev_run;

	get_tablespace_page_costs(rel->reltablespace, NULL, &spc_seq_page_cost);
	dev_sel = clauselist_selectivity(root, device_rinfos, rel->relid, JOIN_INNER, NULL);
	dev_rows = clamp_row_est(ntuples * dev_sel);
	cost_qual_eval(&host_cost, host_quals, root);

	startup = gx_gpu_setup_cost + host_cost.startup;
	/*
	 * heap reading stays on the CPU (and deforming with device_deform off):
	 * charged like a seqscan, except for the blocks the device cache holds
	 * (assumed valid; serial scans only); rows selected there are fetched
	 * from their pages
	 */
	cached = path->parallel_workers > 0 ? 0.0 :
		gx_cache_fraction(planner_rt_fetch(rel->relid, root)->relid, rel->pages);
	disk_run = spc_seq_page_cost * rel->pages * (1.0 - cached);
	cpu_run = cpu_tuple_cost * ntuples * (1.0 - cached) + cpu_tuple_cost * dev_rows * cached;
	/* the program on the device */
	dev_run = gx_gpu_operator_cost * work * ntuples;
	/* rows handed back, then host quals on them */
	cpu_run += (gx_gpu_tuple_cost + host_cost.per_tuple) * dev_rows;
	/* projection, like any scan */
	cpu_run += path->pathtarget->cost.per_tuple * path->rows;
	startup += path->pathtarget->cost.startup;

	if (path->parallel_workers > 0)
	{
		double		parallel_divisor = gx_parallel_divisor(path);

		cpu_run /= parallel_divisor;
		/* a partial path's rows are the rows of one process */
		path->rows = clamp_row_est(path->rows / parallel_divisor);
	}

	path->startup_cost = startup;
	path->total_cost = startup + disk_run + cpu_run + dev_run;
}

/*
 * Order quals as createplan.c's (static) order_qual_clauses() does for
 * quals of one security level: by per-tuple cost, stable.
 */
static List *
gx_order_quals(PlannerInfo *root, List *rinfos)
{
	int			n = list_length(rinfos);
	Node	  **items = (Node **) palloc(sizeof(Node *) * Max(n, 1));
	Cost	   *costs = (Cost *) palloc(sizeof(Cost) * Max(n, 1));
	List	   *result = NIL;
	int			i = 0;
	ListCell   *lc;

	foreach(lc, rinfos)
	{
		QualCost	qc;

		items[i] = (Node *) lfirst(lc);
		cost_qual_eval_node(&qc, items[i], root);
		costs[i] = qc.per_tuple;
		i++;
	}
	/* insertion sort: stable */
	for (i = 1; i < n; i++)
	{
		Node	   *it = items[i];
		Cost		c = costs[i];
		int			j = i;

		while (j > 0 && costs[j - 1] > c)
		{
			items[j] = items[j - 1];
			costs[j] = costs[j - 1];
			j--;
		}
		items[j] = it;
		costs[j] = c;
	}
	for (i = 0; i < n; i++)
		result = lappend(result, items[i]);
	return result;
}

/*
 * planner_hook: note the cursor options of the query being planned (kept
 * across nested planning), then plan as before.
 */
static PlannedStmt *
gx_planner(Query *parse, const char *query_string, int cursor_options,
		   ParamListInfo bound_params)
{
	int			saved = gx_cursor_options;
	PlannedStmt *stmt;

	gx_cursor_options = cursor_options;
	if (prev_planner_hook)
		stmt = prev_planner_hook(parse, query_string, cursor_options, bound_params);
	else
		stmt = standard_planner(parse, query_string, cursor_options, bound_params);
	gx_cursor_options = saved;	/* (an ERROR leaves it; the next call sets it) */
	return stmt;
}

/*
 * Is the query being planned a cursor that may be scrolled backward?  A
 * SCROLL cursor, or one declared without SCROLL / NO SCROLL, which
 * PostgreSQL makes scrollable when its plan can scan backward
 * (PerformCursorOpen; DECLARE always plans with CURSOR_OPT_FAST_PLAN).
 */
static bool
gx_planning_scrollable_cursor(void)
{
	if (gx_cursor_options & CURSOR_OPT_NO_SCROLL)
		return false;
	return (gx_cursor_options & (CURSOR_OPT_SCROLL | CURSOR_OPT_FAST_PLAN)) != 0;
}

/*
 * A GpuScan path over rel; parallel_workers > 0 makes a partial
 * (parallel-aware) path, run under Gather by the leader and the workers,
 * each taking blocks from a shared parallel heap scan.  priv is the
 * program and split the path carries to its plan (gx_path_private).
 */
static CustomPath *
gx_make_path(PlannerInfo *root, RelOptInfo *rel, List *device_rinfos,
			 List *host, GxProgram *prog, List *priv, int parallel_workers)
{
	CustomPath *cpath = makeNode(CustomPath);

	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = rel;
	cpath->path.pathtarget = rel->reltarget;
	if (parallel_workers > 0)
	{
		/* the caller checked rel->consider_parallel and lateral_relids */
		cpath->path.param_info = NULL;
		cpath->path.parallel_aware = true;
		cpath->path.parallel_safe = true;
		cpath->path.parallel_workers = parallel_workers;
	}
	else
	{
		/* a rel with lateral references is parameterized by them, like a seqscan */
		cpath->path.param_info = get_baserel_parampathinfo(root, rel, rel->lateral_relids);
		cpath->path.parallel_aware = false;
		cpath->path.parallel_safe = false;
		cpath->path.parallel_workers = 0;
	}
	cpath->path.rows = cpath->path.param_info ? cpath->path.param_info->ppi_rows : rel->rows;
	cpath->path.pathkeys = NIL;
	/*
	 * Backward scan for a cursor that may scroll (the node keeps the row
	 * ids it returned and fetches them again: gpuscan.cpp), so that FETCH
	 * BACKWARD and WHERE CURRENT OF work as over a seqscan; never
	 * mark/restore.
	 */
	cpath->flags = parallel_workers == 0 && gx_planning_scrollable_cursor() ?
		CUSTOMPATH_SUPPORT_BACKWARD_SCAN : 0;
	cpath->custom_paths = NIL;
	cpath->custom_private = priv;
	cpath->methods = &gx_scan_path_methods;
	gx_cost_scan(root, rel, &cpath->path, device_rinfos, host, gx_program_work(prog));
	return cpath;
}

/*
 * Can the device read this relation: a base relation (or partition) that is
 * a plain heap table or materialized view, no inheritance parent, catalog
 * or TABLESAMPLE, without row-level security quals (they must run first,
 * on the host), in a database where the extension exists?  (GpuScan, and
 * GpuJoin for its two sides: join_path.cpp.)
 */
bool
gx_scan_rel_eligible(RelOptInfo *rel, RangeTblEntry *rte)
{
	ListCell   *lc;

	if (rel->reloptkind != RELOPT_BASEREL && rel->reloptkind != RELOPT_OTHER_MEMBER_REL)
		return false;
	if (rte->rtekind != RTE_RELATION || rte->inh)
		return false;
	if (rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW)
		return false;
	if (IsCatalogRelationOid(rte->relid) || rte->tablesample != NULL)
		return false;
	/* row-level security quals must run first, on the host */
	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *ri = (RestrictInfo *) lfirst(lc);

		if (ri->security_level > 0)
			return false;
	}
	if (!gx_extension_present())
		return false;
	/* only heap: the data path reads heap tuples */
	{
		Relation	r = table_open(rte->relid, NoLock);
		bool		heap = r->rd_tableam != NULL &&
			r->rd_tableam == GetHeapamTableAmRoutine();

		table_close(r, NoLock);
		if (!heap)
			return false;
	}
	return true;
}

/*
 * The GpuScan paths of a plain heap relation (serial, and partial when it
 * can be read in parallel), or false when it has none: gpuext is off or
 * has no device, the relation is not a plain heap table, a row-level
 * security qual must run first, or no qual runs on the device (unless
 * no_quals_ok and it has no qual at all: a GpuPreAgg reads every row).
 */
static bool
gx_scan_paths(PlannerInfo *root, RelOptInfo *rel, RangeTblEntry *rte, bool no_quals_ok,
			  CustomPath **serial, CustomPath **partial)
{
	List	   *device = NIL,
			   *host = NIL,
			   *device_rinfos = NIL;
	List	   *ordered;
	GxProgram  *prog;
	List	   *priv;

	*serial = *partial = NULL;
	if (!gx_enabled || !gx_enable_scan || gx_shared == NULL)
		return false;

	/*
	 * gpuext.device = auto on a host whose service found no usable GPU: the
	 * CPU device loses to PostgreSQL's own scans on most queries, so it is
	 * used only when asked for (gpuext.device = cpu, or gpuext.force).
	 * While the service is still starting (state unknown) paths are
	 * offered: the executor waits for it.
	 */
	if (gx_device_choice == GX_DEVICE_AUTO && gx_shared->gpu_state == -1 && !gx_force)
		return false;
	if ((rel->baserestrictinfo == NIL && !no_quals_ok) || !gx_scan_rel_eligible(rel, rte))
		return false;

	ordered = gx_order_quals(root, rel->baserestrictinfo);
	if (gx_split_quals(ordered, rel->relid, &device, &host, &device_rinfos, &prog) == 0 &&
		(rel->baserestrictinfo != NIL || !no_quals_ok))
		return false;

	/* the serial and the partial path share one serialized program */
	priv = gx_path_private(prog, device, host);
	*serial = gx_make_path(root, rel, device_rinfos, host, prog, priv, 0);

	/*
	 * A partial path for parallel query, as create_plain_partial_paths()
	 * makes for a seqscan: only when the rel's quals and target are
	 * parallel-safe (rel->consider_parallel) and it has no lateral
	 * references (a partial path is never parameterized).
	 */
	if (rel->consider_parallel && bms_is_empty(rel->lateral_relids))
	{
		int			workers = compute_parallel_worker(rel, rel->pages, -1,
													  max_parallel_workers_per_gather);

		if (workers > 0)
			*partial = gx_make_path(root, rel, device_rinfos, host, prog, priv, workers);
	}
	return true;
}

/*
 * The GpuScan paths of a relation without quals, for a GpuPreAgg above it
 * (agg_path.cpp): not in the relation's path list, where a GpuScan that
 * filters nothing would only cost more than a sequential scan.
 */
bool
gx_unfiltered_scan_paths(PlannerInfo *root, RelOptInfo *rel, Path **serial, Path **partial)
{
	CustomPath *s,
			   *p;

	if (rel->baserestrictinfo != NIL ||
		!gx_scan_paths(root, rel, planner_rt_fetch(rel->relid, root), true, &s, &p))
		return false;
	*serial = &s->path;
	*partial = p != NULL ? &p->path : NULL;
	return true;
}

/* set_rel_pathlist_hook: offer a GpuScan for plain heap relations */
static void
gx_set_rel_pathlist(PlannerInfo *root, RelOptInfo *rel, Index rti,
					RangeTblEntry *rte)
{
	CustomPath *cpath;
	CustomPath *ppath;

	if (prev_set_rel_pathlist_hook)
		prev_set_rel_pathlist_hook(root, rel, rti, rte);

	if (!gx_scan_paths(root, rel, rte, false, &cpath, &ppath))
		return;

	/*
	 * gpuext.force forces the device, not a plan: the relation's other scan
	 * paths (sequential, index, bitmap, and their partial paths) are
	 * dropped, so that the GpuScan is the only way to read it, but the
	 * GpuScan paths keep their real costs.  PostgreSQL then weighs rescans
	 * (a CustomPath's rescan costs its full cost: cost_rescan), Materialize,
	 * the join order and the serial against the parallel path as for any
	 * scan; a zero cost made a forced GpuScan look free, so it was put on
	 * the inner side of nested loops and rescanned for every outer row.
	 */
	if (gx_force)
	{
		rel->pathlist = NIL;
		rel->partial_pathlist = NIL;
	}
	add_path(rel, &cpath->path);
	if (ppath != NULL)
		add_partial_path(rel, &ppath->path);
}

/*
 * The CustomScan of a GpuScan plan (mode "scan" or "agg"): custom_exprs =
 * (device quals, host quals, the program's Params), custom_private =
 * (mode, the program).  The executor runs the program kept in the plan; it
 * never compiles.
 */
CustomScan *
gx_make_cscan(RelOptInfo *rel, CustomPath *best_path, List *tlist, const char *mode,
			  List *device, List *host, GxProgram *prog, List *scan_tlist)
{
	CustomScan *cscan = makeNode(CustomScan);

	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = NIL;
	cscan->scan.scanrelid = rel->relid;
	cscan->flags = best_path->flags;
	cscan->custom_plans = NIL;
	cscan->custom_exprs = list_make3(device, host, prog->params);
	cscan->custom_private = list_make2(makeString(pstrdup(mode)), gx_program_to_const(prog));
	cscan->custom_scan_tlist = scan_tlist;
	cscan->custom_relids = NULL;
	cscan->methods = &gx_scan_plan_methods;
	return cscan;
}

/* PlanCustomPath of a GpuScan path */
static Plan *
gx_plan_custom_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
					List *tlist, List *clauses, List *custom_plans)
{
	List	   *device,
			   *host;
	GxProgram  *prog;

	/* clauses arrive ordered by order_qual_clauses() */
	prog = gx_path_program(best_path, clauses, rel->relid, &device, &host);
	return &gx_make_cscan(rel, best_path, tlist, "scan", device, host, prog, NIL)->scan.plan;
}

/*
 * An unparameterized GpuScan path whose quals all run on the device,
 * serial or (parallel = true) parallel-aware?
 */
bool
gx_is_device_scan_path(Path *path, bool parallel)
{
	CustomPath *cpath = (CustomPath *) path;

	/* (a program that may run on the host at scan start cannot aggregate) */
	return IsA(path, CustomPath) && cpath->methods == &gx_scan_path_methods &&
		path->param_info == NULL && path->parallel_aware == parallel &&
		cpath->custom_private != NIL && intVal(linitial(cpath->custom_private)) == 0 &&
		!gx_program_const_may_fallback((Const *) lsecond(cpath->custom_private));
}

/*
 * May rows of a GpuScan path's program need the host (GX_ERR_HOST)?  Only
 * a scan that returns its rows (or a group table, which sends them to
 * the host) may run such a program, not a keyless device aggregate.
 */
bool
gx_scan_path_may_host(Path *path)
{
	CustomPath *cpath = (CustomPath *) path;

	return path != NULL && IsA(path, CustomPath) && cpath->methods == &gx_scan_path_methods &&
		cpath->custom_private != NIL &&
		gx_program_const_may_host((Const *) lsecond(cpath->custom_private));
}

void
gx_planner_init(void)
{
	gx_aggpath_init();
	gx_joinpath_init();
	RegisterCustomScanMethods(&gx_scan_plan_methods);
	prev_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = gx_set_rel_pathlist;
	prev_planner_hook = planner_hook;
	planner_hook = gx_planner;
}

/*
 * A new CustomPath of rel's that runs in one process without parameters
 * (the aggregate, finalizing and join nodes: each holds its own engine
 * session), producing target's rows; the caller sets its costs, children,
 * private list and methods
 */
CustomPath *
gx_serial_custom_path(RelOptInfo *rel, PathTarget *target, double rows)
{
	CustomPath *cp = makeNode(CustomPath);

	cp->path.pathtype = T_CustomScan;
	cp->path.parent = rel;
	cp->path.pathtarget = target;
	cp->path.param_info = NULL;
	cp->path.parallel_aware = false;
	cp->path.parallel_safe = false;
	cp->path.parallel_workers = 0;
	cp->path.rows = rows;
	cp->path.pathkeys = NIL;
	cp->flags = 0;
	return cp;
}
