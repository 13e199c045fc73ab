/*
 * join_parallel.cpp - parallel GpuJoin: the inner side built once, by the
 * leader, and probed by every process of a parallel query (issue 15).
 *
 * Design note
 * -----------
 * A partial GpuJoin path (join_path.cpp) has a partial outer path (a
 * Parallel Seq Scan, a parallel GpuScan, another partial GpuJoin) and a
 * whole, parallel-safe inner path; Gather (or Gather Merge) sits above,
 * and for count(*) a Finalize Aggregate above that.  The join types are
 * those whose result is the union of what each share of the outer rows
 * gives: INNER, LEFT, SEMI, ANTI (RIGHT and FULL need every probe's marks
 * before the unmatched inner rows: not parallel).
 *
 * The leader builds the table in InitializeDSMCustomScan, which Gather
 * calls before it launches the workers: it reads the inner side (its
 * child, or the inner table through the device input) and takes the
 * decision (the table on the device, or the fallback plan) exactly as a
 * serial node does at its first row (gx_join_build).  So the workers,
 * started afterwards, find the decision in the shared area and never
 * wait.  The shared area (GxJoinShared, in the parallel query's DSM)
 * carries it: the engine session and the table object, its geometry and
 * rows (the workers name the leader's session and object in their tasks,
 * as a parallel GpuScan names the leader's aggregate state: docs/engine.md,
 * Sessions), the table's replicas on the node's other devices, copied
 * before the workers start, and the devices holding one, which every
 * process's probes spread over (join_replicas.cpp), and for joins that
 * return inner columns (INNER, LEFT) the
 * inner rows: the leader copies its MinimalTuples into one allocation of
 * the query's DSA (an offset per row, then the tuples), and a worker
 * points its row array into it, so payload r is the same row in every
 * process.  When the DSA cannot hold them, the decision is the fallback
 * (for every process).  A fallback runs PostgreSQL's Hash Join (a range
 * join: Nested Loop) in each process, over the same partial outer path:
 * a parallel-oblivious join whose union over the processes is the join.
 *
 * The outer side: each process reads its share, through its partial
 * child, or through the outer device input over one shared parallel heap
 * scan (ParallelTableScanDesc after the header, as a parallel GpuScan's;
 * no cache entries then: source_cache.cpp reads none for a parallel
 * scan).  A counting node returns one row per process, its share's count;
 * the Finalize Aggregate above sums them.
 *
 * Rescans (Gather under a Nested Loop, a correlated subplan): Gather calls
 * ReInitializeDSMCustomScan in the leader before ReScanCustomScan (it
 * rescans parallel-aware nodes through its rescan parameter, at their
 * next row): the leader applies the serial rule there (the table kept
 * unless the inner side's parameters changed), builds again if it must,
 * shares the new decision and inner rows (the old ones freed), and
 * restarts the shared heap scan; ReScanCustomScan then only resets the
 * leader's own state (par_reinit).
 *
 * EXPLAIN ANALYZE: each worker adds its counters to the shared area when
 * it shuts its node down; the leader adds their sum to its own when the
 * segment is detached (as parallel.cpp does for GpuScan).
 */
#include "gpuext.h"
#include "join_state.h"

extern "C"
{
#include "access/parallel.h"
#include "access/relscan.h"
#include "access/tableam.h"
#include "storage/spin.h"
#include "utils/dsa.h"
#include "utils/memutils.h"
}

/* the head of the node's area in the DSM; the outer scan's descriptor follows */
typedef struct GxJoinShared
{
	slock_t		mutex;			/* protects stats and ostats */
	GxJoinStats stats;			/* summed over the workers that finished */
	GxScanStats ostats;			/* ... their outer device input's chunks */
	/* the leader's decision, set before the workers start */
	bool		fallback;		/* run the fallback plan */
	uint32		session;		/* the leader's engine session */
	uint32		table;			/* its join table object, 0: none */
	uint32		cap,
				kcap,
				placed;
	uint32		ninner;			/* inner rows (the table's payloads) */
	bool		gather;			/* the probes gather the rows' columns
								 * (join_gather.cpp): no inner rows shared */
	uint32		cols_obj;		/* ... the inner column store, 0 = none */
	GxDevSet	pdevs;			/* the devices holding a copy of the table */
	uint32		replica[GX_MAX_DEVICES];	/* ... their table objects */
	dsa_pointer rows;			/* INNER / LEFT: the inner rows, or invalid */
	bool		outer_scan;		/* a ParallelTableScanDesc follows */
} GxJoinShared;

#define GX_JPSCAN_OFFSET MAXALIGN(sizeof(GxJoinShared))

/* backend-local state (st->par) */
struct GxJoinParallel
{
	GxJoinShared *shared;		/* the area (NULL: the worker reported, or
								 * the leader detached) */
	GxLeaderDetach detach;		/* leader: the workers' counters at detach */
	GxJoinState *st;
};

/* the local state, allocated on first use in the executor's memory */
static GxJoinParallel *
gx_join_par(GxJoinState *st)
{
	if (st->par == NULL)
	{
		st->par = (GxJoinParallel *)
			MemoryContextAllocZero(st->css.ss.ps.state->es_query_cxt, sizeof(GxJoinParallel));
		st->par->st = st;
	}
	return st->par;
}

/* does the node share the outer device input's heap scan? */
static bool
gx_join_par_outer_scan(GxJoinState *st)
{
	return st->input[0].on;
}

/*
 * does the node return inner columns (its inner rows are shared)?  Not
 * when its probes gather them (the column store is shared)
 */
static bool
gx_join_par_rows(GxJoinState *st)
{
	return !st->count && !st->gather && GX_JOIN_MODE_PAIRS(st->mode);
}

/* EstimateDSMCustomScan: the header, and the outer table's parallel scan */
Size
gx_join_par_estimate(CustomScanState *node, ParallelContext *pcxt)
{
	GxJoinState *st = (GxJoinState *) node;

	if (!gx_join_par_outer_scan(st))
		return GX_JPSCAN_OFFSET;
	return add_size(GX_JPSCAN_OFFSET,
					table_parallelscan_estimate(st->input[0].src.rel,
												node->ss.ps.state->es_snapshot));
}

/*
 * Attach the outer device input to the shared heap scan (init: the leader
 * sets it up first); gx_join_input_start starts it at the first chunk
 */
static void
gx_join_par_attach_scan(GxJoinState *st, GxJoinShared *shared, bool init)
{
	gx_source_attach_parallel(&st->input[0].src,
							  (ParallelTableScanDesc) ((char *) shared + GX_JPSCAN_OFFSET),
							  st->css.ss.ps.state->es_snapshot, init);
	st->input[0].started = false;
}

/*
 * The leader's inner rows into the query's DSA: an offset per row, then
 * the tuples.  False when the area cannot hold them.
 */
static bool
gx_join_par_copy_rows(GxJoinState *st, dsa_area *area, GxJoinShared *shared)
{
	Size		bytes = MAXALIGN(sizeof(uint64) * (Size) st->ninner);
	dsa_pointer dp;
	char	   *base;
	uint64	   *off;

	for (uint32 i = 0; i < st->ninner; i++)
		bytes = add_size(bytes, MAXALIGN(st->inner[i]->t_len));
	dp = dsa_allocate_extended(area, bytes, DSA_ALLOC_HUGE | DSA_ALLOC_NO_OOM);
	if (!DsaPointerIsValid(dp))
		return false;
	base = (char *) dsa_get_address(area, dp);
	off = (uint64 *) base;
	bytes = MAXALIGN(sizeof(uint64) * (Size) st->ninner);
	for (uint32 i = 0; i < st->ninner; i++)
	{
		off[i] = bytes;
		memcpy(base + bytes, st->inner[i], st->inner[i]->t_len);
		bytes += MAXALIGN(st->inner[i]->t_len);
	}
	shared->rows = dp;
	return true;
}

/*
 * The leader: build (unless the table is kept), then share the decision,
 * the table and (INNER / LEFT) the inner rows: a kept table's rows are
 * in the DSA already (a rescan), a new one's replace them.  Rows the DSA
 * cannot hold make the decision the fallback.
 */
static void
gx_join_par_publish(GxJoinState *st, GxJoinShared *shared)
{
	dsa_area   *area = st->css.ss.ps.state->es_query_dsa;

	if (st->built && DsaPointerIsValid(shared->rows))
		return;					/* (kept: the decision and rows are shared) */
	if (!st->built)
		gx_join_build(st);
	/* (the workers probe the replicas: every copy done before they start) */
	gx_join_replicas_collect(st, true);
	if (DsaPointerIsValid(shared->rows) && area != NULL)
		dsa_free(area, shared->rows);
	shared->rows = InvalidDsaPointer;
	if (!st->fallback && gx_join_par_rows(st) && st->ninner > 0 &&
		(area == NULL || !gx_join_par_copy_rows(st, area, shared)))
	{
		elog(DEBUG1, "gpuext: parallel GpuJoin: no room for %u inner rows in the query's DSA",
			 st->ninner);
		gx_join_drop_table(st);
		st->fallback = true;
		st->built = true;
		st->stats.fallbacks++;
	}
	shared->fallback = st->fallback;
	shared->session = st->session;
	shared->table = st->table;
	shared->cap = st->cap;
	shared->kcap = st->kcap;
	shared->placed = st->placed;
	shared->ninner = st->ninner;
	shared->gather = st->gather;
	shared->cols_obj = st->cols_obj;
	shared->pdevs = st->pdevs;
	memcpy(shared->replica, st->replica, sizeof(shared->replica));
}

/* at the segment's detach (the workers are done): their counters into the leader's */
static void
gx_join_par_detach(void *arg)
{
	GxJoinParallel *par = (GxJoinParallel *) arg;
	GxJoinShared *shared = par->shared;

	if (shared != NULL)
	{
		SpinLockAcquire(&shared->mutex);
		gx_join_stats_add(&par->st->stats, &shared->stats);
		gx_scan_stats_add(&par->st->input[0].stats, &shared->ostats);
		SpinLockRelease(&shared->mutex);
	}
	par->shared = NULL;
}

/* InitializeDSMCustomScan (the leader, before the workers start) */
void
gx_join_par_init_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	GxJoinState *st = (GxJoinState *) node;
	EState	   *estate = node->ss.ps.state;
	GxJoinShared *shared = (GxJoinShared *) coordinate;
	GxJoinParallel *par = gx_join_par(st);

	memset(shared, 0, sizeof(GxJoinShared));
	SpinLockInit(&shared->mutex);
	shared->rows = InvalidDsaPointer;
	gx_join_par_publish(st, shared);
	shared->outer_scan = gx_join_par_outer_scan(st);
	if (shared->outer_scan)
		gx_join_par_attach_scan(st, shared, true);

	/* (no segment: no worker) */
	par->shared = pcxt->seg != NULL ? shared : NULL;
	gx_leader_detach_set(&par->detach, pcxt->seg, estate->es_query_cxt, gx_join_par_detach, par);
}

/*
 * ReInitializeDSMCustomScan (the leader, before a rescan and before its
 * ReScanCustomScan): the table's rescan rule, a new build if due, the
 * decision shared again; the outer scan from its first block
 */
void
gx_join_par_reinit_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	GxJoinState *st = (GxJoinState *) node;
	GxJoinShared *shared = (GxJoinShared *) coordinate;

	if (node->ss.ps.chgParam != NULL)
		UpdateChangedParamSet(st->inner_ps, node->ss.ps.chgParam);
	gx_join_rescan_inner(st);
	gx_join_par_publish(st, shared);
	if (shared->outer_scan)
	{
		table_parallelscan_reinitialize(st->input[0].src.rel,
										(ParallelTableScanDesc) ((char *) shared +
																 GX_JPSCAN_OFFSET));
		gx_join_par_attach_scan(st, shared, false);
	}
	st->par_reinit = true;
}

/*
 * InitializeWorkerCustomScan: the leader's decision; its session, table
 * and (INNER / LEFT) inner rows, the shared outer scan
 */
void
gx_join_par_init_worker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	GxJoinState *st = (GxJoinState *) node;
	GxJoinShared *shared = (GxJoinShared *) coordinate;
	GxJoinParallel *par = gx_join_par(st);
	dsa_area   *area = node->ss.ps.state->es_query_dsa;

	par->shared = shared;
	/*
	 * the outer side as the leader reads it: a leader that reads it
	 * through its child makes every worker do so, since a worker's node
	 * reading the table itself would read the whole table
	 */
	if (!shared->outer_scan && st->input[0].on)
		st->input[0].on = st->outer_input_on = false;
	st->built = true;
	st->fallback = shared->fallback;
	st->session = shared->session;
	st->table = shared->table;
	st->worker_table = st->session != 0;
	st->cap = shared->cap;
	st->kcap = shared->kcap;
	st->placed = shared->placed;
	st->ninner = shared->ninner;
	/* (the leader turned gathering off: its decision then the fallback, join_gather.cpp) */
	if (st->gather && !shared->gather)
		gx_join_gather_off(st);
	st->cols_obj = shared->cols_obj;
	st->pdevs = shared->pdevs;
	memcpy(st->replica, shared->replica, sizeof(st->replica));
	st->stats.workers++;
	if (!st->fallback && gx_join_par_rows(st) && st->ninner > 0)
	{
		char	   *base;
		const uint64 *off;

		if (area == NULL || !DsaPointerIsValid(shared->rows))
			elog(ERROR, "gpuext: parallel GpuJoin worker without the inner rows");
		base = (char *) dsa_get_address(area, shared->rows);
		off = (const uint64 *) base;
		st->inner = (MinimalTuple *) MemoryContextAllocHuge(st->inner_cxt,
															sizeof(MinimalTuple) * st->ninner);
		for (uint32 i = 0; i < st->ninner; i++)
			st->inner[i] = (MinimalTuple) (base + off[i]);
		st->inner_alloc = st->ninner;
	}
	if (shared->outer_scan)
	{
		if (!st->input[0].on)
			elog(ERROR, "gpuext: parallel GpuJoin worker without the outer device input");
		gx_join_par_attach_scan(st, shared, false);
	}
}

/*
 * ShutdownCustomScan: a worker adds its counters to the shared sum, once
 * (the segment goes when it exits); nothing in the leader
 */
void
gx_join_par_shutdown(CustomScanState *node)
{
	GxJoinState *st = (GxJoinState *) node;
	GxJoinParallel *par = st->par;

	if (par == NULL || par->shared == NULL || !IsParallelWorker())
		return;
	SpinLockAcquire(&par->shared->mutex);
	gx_join_stats_add(&par->shared->stats, &st->stats);
	gx_scan_stats_add(&par->shared->ostats, &st->input[0].stats);
	SpinLockRelease(&par->shared->mutex);
	par->shared = NULL;
}
