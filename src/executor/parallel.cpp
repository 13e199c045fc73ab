/*
 * parallel.cpp - parallel-aware GpuScan: the executor side of the partial
 * path that planner.cpp offers (Parallel Custom Scan (GpuScan) under Gather
 * or Gather Merge).
 *
 * Design note
 * -----------
 * The leader and each worker run their own GpuScan executor (their own
 * staging slots, chunks in flight and page pins) over one shared parallel
 * heap scan, as Parallel Seq Scan does: the dynamic shared memory of the
 * parallel query holds a GxParallelShared header, then the
 * ParallelTableScanDesc (table_parallelscan_initialize, in the query's
 * snapshot; synchronized scanning off, as for the serial GpuScan).  Each
 * process attaches with table_beginscan_parallel() and takes blocks with
 * table_block_parallelscan_startblock_init() / _nextpage() through
 * gx_scan_next_block(), in increasing block order within the process;
 * the page-mode readers of gpuscan.cpp call it instead of walking the
 * blocks themselves.  Rows from different processes come in any order.
 * The non-page-mode reader (a non-MVCC snapshot) calls
 * table_scan_getnextslot(), which takes blocks of a parallel scan itself.
 *
 * Statistics for EXPLAIN ANALYZE: each worker adds its GxScanStats to the
 * shared header when it shuts its node down (ShutdownCustomScan, before
 * the worker reports completion to the leader); the leader adds the
 * workers' sum to its own when the parallel query's segment is detached,
 * which Gather does after waiting for its workers and before EXPLAIN
 * prints.  So the counters shown are totals over all processes (and over
 * rescans, like the serial counters).
 *
 * Rescan (Gather under a nested loop, a correlated subplan): Gather calls
 * ReInitializeDSMCustomScan, which resets the shared block counter, and
 * ReScanCustomScan in the leader, whose table_rescan() clears the heap
 * scan's rs_inited, so the next block request sets the process's block
 * allocation up again; new workers attach afresh.
 */
#include "gpuext.h"
#include "executor.h"

extern "C"
{
#include "access/heapam.h"
#include "access/parallel.h"
#include "storage/dsm.h"
#include "storage/shm_toc.h"
#include "utils/memutils.h"
}

/*
 * Head of the parallel scan's area in the DSM; the scan descriptor follows.
 *
 * Aggregate mode: every process names the leader's engine session and
 * aggregate state object, so the device merges all their chunks into one
 * state (GpuPreAgg: its group table on each device of the leader's set,
 * whose handles and devices travel here too, merged by the process that
 * reads them, preagg.cpp).  A process joins before it reads any block and leaves when it has
 * read its last (the shared block allocator is empty then); the last one to
 * leave reads the state and returns the one row of partial aggregates, the
 * others return none.  A process that joins after that (a worker started
 * late) finds the state consumed and reads nothing.
 */
typedef struct GxParallelShared
{
	slock_t		mutex;			/* protects everything below */
	GxScanStats stats;			/* summed over the workers that finished */
	uint32		session;		/* the leader's engine session */
	uint32		agg_obj;		/* aggregate state object (or group table), or 0 */
	uint32		group_cap;		/* group table: its slots and load limit */
	uint32		group_limit;
	uint32		group_tables[GX_MAX_DEVICES];	/* GpuPreAgg: a table per device */
	uint32		group_used;		/* ... those the processes that left used */
	GxDevSet	devs;			/* the leader's devices (its session's) */
	int			nactive;		/* processes joined and not yet left */
	bool		consumed;		/* the row has been returned */
	int64		agg_rows;		/* rows selected by the processes that left */
} GxParallelShared;

#define GX_PSCAN_OFFSET MAXALIGN(sizeof(GxParallelShared))

/* backend-local state of a parallel-aware scan (GxScanState.par) */
struct GxParallelState
{
	GxParallelShared *shared;	/* NULL once the worker reported or the
								 * leader detached */
	GxLeaderDetach detach;		/* leader: the workers' counters at detach */
	GxScanState *st;
	GxParallelShared *coordinate;	/* the shared area (aggregate mode reads
									 * it until the end of the scan) */
};

/* the ParallelTableScanDesc in a coordinate area */
static inline ParallelTableScanDesc
gx_pscan(void *coordinate)
{
	return (ParallelTableScanDesc) ((char *) coordinate + GX_PSCAN_OFFSET);
}

/* the local state of st, allocated on first use in the executor's memory */
static GxParallelState *
gx_par_state(GxScanState *st)
{
	if (st->par == NULL)
	{
		EState	   *estate = st->css.ss.ps.state;

		st->par = (GxParallelState *)
			MemoryContextAllocZero(estate->es_query_cxt, sizeof(GxParallelState));
		st->par->st = st;
	}
	return st->par;
}

/*
 * Attach a row source to the shared heap scan pscan (a GpuScan's, or a
 * parallel GpuJoin's outer device input).  A previous scan descriptor
 * (a parallel query run again after its segment was destroyed) is ended
 * first; pages pinned by chunks in flight stay pinned by the chunks.
 * init (the leader, once per segment): set pscan up first, in snapshot,
 * without synchronized scanning (blocks from 0, as a serial scan).
 */
void
gx_source_attach_parallel(GxSource *src, ParallelTableScanDesc pscan, Snapshot snapshot,
						  bool init)
{
	if (init)
	{
		table_parallelscan_initialize(src->rel, pscan, snapshot);
		pscan->phs_syncscan = false;
	}
	if (src->scan != NULL)
		table_endscan(src->scan);
	src->scan = table_beginscan_parallel(src->rel, pscan);
	src->pagemode = (src->scan->rs_flags & SO_ALLOW_PAGEMODE) != 0;
	if (!src->pagemode)
		src->device_deform = false;
}

/*
 * Next block for this process to read (page mode).  Serial scan: blocks
 * 0 .. rs_nblocks - 1 in order.  Parallel scan: the next block allocated to
 * this process, as heapgettup_pagemode() takes them; like it, the heap
 * scan's rs_inited says whether this process's allocation is set up
 * (initscan(), i.e. table_rescan(), clears it).  Returns false at the end.
 */
bool
gx_scan_next_block(GxSource *src, BlockNumber *blk)
{
	HeapScanDesc hs = (HeapScanDesc) src->scan;
	ParallelBlockTableScanDesc pbscan;
	BlockNumber b;

	if (src->scan->rs_parallel == NULL)
	{
		if (src->next_block >= hs->rs_nblocks)
			return false;
		*blk = src->next_block++;
		return true;
	}
	pbscan = (ParallelBlockTableScanDesc) src->scan->rs_parallel;
	if (!hs->rs_inited)
	{
		table_block_parallelscan_startblock_init(src->rel, hs->rs_parallelworkerdata,
												 pbscan);
		hs->rs_inited = true;
	}
	b = table_block_parallelscan_nextpage(src->rel, hs->rs_parallelworkerdata, pbscan);
	if (b == InvalidBlockNumber)
		return false;
	*blk = b;
	return true;
}

/* EstimateDSMCustomScan: the shared header and the parallel scan descriptor */
Size
gx_par_estimate_dsm(CustomScanState *node, ParallelContext *pcxt)
{
	GxScanState *st = (GxScanState *) node;
	EState	   *estate = node->ss.ps.state;

	return add_size(GX_PSCAN_OFFSET,
					table_parallelscan_estimate(st->src.rel, estate->es_snapshot));
}

/*
 * Run d->fn(d->arg) when the parallel query's segment is detached (then
 * the workers are done: Gather waited for them)
 */
static void
gx_leader_detach_cb(dsm_segment *seg, Datum arg)
{
	GxLeaderDetach *d = (GxLeaderDetach *) DatumGetPointer(arg);

	d->seg = NULL;
	d->fn(d->arg);
}

/* the executor memory goes (normally after the segment; on some error paths before) */
static void
gx_leader_detach_forget(void *arg)
{
	GxLeaderDetach *d = (GxLeaderDetach *) arg;

	if (d->seg != NULL)
		cancel_on_dsm_detach(d->seg, gx_leader_detach_cb, PointerGetDatum(d));
	d->seg = NULL;
}

/*
 * A parallel-aware node's leader (InitializeDSMCustomScan): fn(arg) once
 * the segment seg is detached, which Gather does after waiting for its
 * workers and before EXPLAIN prints (the workers' figures into the
 * leader's); cancelled if cxt, the executor's memory, is reset first.  A
 * callback of a segment before is cancelled (Gather destroys a segment
 * before it makes another); seg NULL (no worker: private memory) sets none.
 */
void
gx_leader_detach_set(GxLeaderDetach *d, dsm_segment *seg, MemoryContext cxt,
					 void (*fn) (void *arg), void *arg)
{
	if (d->seg != NULL)
		cancel_on_dsm_detach(d->seg, gx_leader_detach_cb, PointerGetDatum(d));
	d->seg = NULL;
	if (seg == NULL)
		return;
	if (d->forget.func == NULL)
	{
		d->forget.func = gx_leader_detach_forget;
		d->forget.arg = d;
		MemoryContextRegisterResetCallback(cxt, &d->forget);
	}
	d->fn = fn;
	d->arg = arg;
	d->seg = seg;
	on_dsm_detach(seg, gx_leader_detach_cb, PointerGetDatum(d));
}

/* at the segment's detach: the workers' counters into the leader's own */
static void
gx_par_detach(void *arg)
{
	GxParallelState *par = (GxParallelState *) arg;
	GxParallelShared *shared = par->shared;

	if (shared != NULL)
	{
		SpinLockAcquire(&shared->mutex);
		gx_scan_stats_add(&par->st->stats, &shared->stats);
		SpinLockRelease(&shared->mutex);
	}
	par->shared = NULL;
}

/* the leader's objects and devices into the shared area (its lock held, or no worker yet) */
static void
gx_par_share_objects(GxScanState *st, GxParallelShared *shared)
{
	shared->session = st->session;
	shared->agg_obj = st->agg_obj;
	shared->group_cap = st->grp.cap;
	shared->group_limit = st->grp.limit;
	memcpy(shared->group_tables, st->grp.tables, sizeof(shared->group_tables));
	shared->group_used = 0;
	shared->devs = st->src.devs;
	shared->nactive = 0;
	shared->consumed = false;
	shared->agg_rows = 0;
}

/* InitializeDSMCustomScan (leader): set the shared scan up and attach */
void
gx_par_init_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	GxScanState *st = (GxScanState *) node;
	EState	   *estate = node->ss.ps.state;
	GxParallelShared *shared = (GxParallelShared *) coordinate;
	ParallelTableScanDesc pscan = gx_pscan(coordinate);
	GxParallelState *par = gx_par_state(st);

	par->coordinate = shared;
	SpinLockInit(&shared->mutex);
	memset(&shared->stats, 0, sizeof(shared->stats));
	/* one session and state object for the leader and every worker */
	if (st->agg_mode)
		gx_agg_prepare(st);
	else
		gx_scan_session(st);
	gx_par_share_objects(st, shared);
	gx_source_attach_parallel(&st->src, pscan, estate->es_snapshot, true);

	/* no segment: no worker (private memory, freed with the context) */
	par->shared = pcxt->seg != NULL ? shared : NULL;
	gx_leader_detach_set(&par->detach, pcxt->seg, estate->es_query_cxt, gx_par_detach, par);
}

/*
 * ReInitializeDSMCustomScan (leader, before a rescan): blocks from the
 * start, and a fresh aggregate state if the last run did not read its own
 * (chunks of that run may still be adding into it); a fresh group table
 * always (the leader cannot tell whether the process that read the last
 * one read it to the end).
 */
void
gx_par_reinit_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	GxScanState *st = (GxScanState *) node;
	GxParallelShared *shared = (GxParallelShared *) coordinate;

	table_parallelscan_reinitialize(st->src.rel, gx_pscan(coordinate));
	if (st->agg_mode && st->agg_obj != 0 && (!shared->consumed || st->group_mode))
	{
		st->agg_obj = 0;
		gx_agg_prepare(st);
	}
	SpinLockAcquire(&shared->mutex);
	gx_par_share_objects(st, shared);
	SpinLockRelease(&shared->mutex);
}

/* the shared area of a parallel scan (the leader's or a worker's) */
static GxParallelShared *
gx_par_shared(GxScanState *st)
{
	if (st->par == NULL || st->par->coordinate == NULL)
		elog(ERROR, "gpuext: parallel GpuScan without its shared state");
	return st->par->coordinate;
}

/*
 * Aggregate mode, before the first block: join the processes that merge
 * into the shared state.  False when the row was already returned (this
 * process then reads nothing).
 */
bool
gx_par_agg_join(GxScanState *st)
{
	GxParallelShared *shared = gx_par_shared(st);
	bool		ok;

	SpinLockAcquire(&shared->mutex);
	ok = !shared->consumed;
	if (ok)
		shared->nactive++;
	SpinLockRelease(&shared->mutex);
	return ok;
}

/*
 * Aggregate mode, after this process's last chunk: leave; true when this
 * is the last process, which then returns the row (st->agg_rows becomes
 * the total of every process; GpuPreAgg: st->grp.used the devices whose
 * tables any process's chunks used).
 */
bool
gx_par_agg_leave(GxScanState *st)
{
	GxParallelShared *shared = gx_par_shared(st);
	bool		last;

	SpinLockAcquire(&shared->mutex);
	shared->agg_rows += st->agg_rows;
	shared->group_used |= st->grp.used;
	shared->nactive--;
	last = shared->nactive == 0 && !shared->consumed;
	if (last)
	{
		shared->consumed = true;
		st->agg_rows = shared->agg_rows;
		st->grp.used = shared->group_used;	/* (the tables it merges) */
	}
	SpinLockRelease(&shared->mutex);
	return last;
}

/* InitializeWorkerCustomScan: attach a worker to the shared scan */
void
gx_par_init_worker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	GxScanState *st = (GxScanState *) node;
	GxParallelState *par = gx_par_state(st);
	GxParallelShared *shared = (GxParallelShared *) coordinate;

	par->shared = shared;
	par->coordinate = shared;
	/*
	 * the leader's session and state object (GpuPreAgg: its tables), and
	 * its devices: those of the session and of the tables
	 */
	st->session = shared->session;
	st->own_session = false;
	st->agg_obj = shared->agg_obj;
	st->grp.cap = shared->group_cap;
	st->grp.limit = shared->group_limit;
	memcpy(st->grp.tables, shared->group_tables, sizeof(st->grp.tables));
	gx_source_spread(&st->src, &shared->devs);
	st->device = shared->devs.dev[0];
	gx_source_attach_parallel(&st->src, gx_pscan(coordinate), NULL, false);
}

/*
 * ShutdownCustomScan: a worker adds its counters to the shared sum, once
 * (its last chance: the segment goes when the worker exits).  Nothing to do
 * in the leader or for a serial scan.
 */
void
gx_par_shutdown(CustomScanState *node)
{
	GxScanState *st = (GxScanState *) node;
	GxParallelState *par = st->par;

	if (par == NULL || par->shared == NULL || !IsParallelWorker())
		return;
	SpinLockAcquire(&par->shared->mutex);
	gx_scan_stats_add(&par->shared->stats, &st->stats);
	SpinLockRelease(&par->shared->mutex);
	par->shared = NULL;
}
