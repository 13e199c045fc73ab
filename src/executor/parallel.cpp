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

/* head of the parallel scan's area in the DSM; the scan descriptor follows */
typedef struct GxParallelShared
{
	slock_t		mutex;			/* protects stats */
	GxScanStats stats;			/* summed over the workers that finished */
} GxParallelShared;

#define GX_PSCAN_OFFSET MAXALIGN(sizeof(GxParallelShared))

/* backend-local state of a parallel-aware scan (GxScanState.par) */
struct GxParallelState
{
	GxParallelShared *shared;	/* NULL once the worker reported or the
								 * leader detached */
	dsm_segment *seg;			/* leader: segment whose detach callback
								 * is registered, else NULL */
	GxScanState *st;
	MemoryContextCallback forget;	/* leader: cancels the detach callback
									 * if the executor memory goes first */
};

/* the ParallelTableScanDesc in a coordinate area */
static inline ParallelTableScanDesc
gx_pscan(void *coordinate)
{
	return (ParallelTableScanDesc) ((char *) coordinate + GX_PSCAN_OFFSET);
}

/* add the counters of b into a (called under a spinlock) */
static inline void
gx_stats_add(GxScanStats *a, const GxScanStats *b)
{
	a->chunks += b->chunks;
	a->rows_in += b->rows_in;
	a->rows_selected += b->rows_selected;
	a->bytes_h2d += b->bytes_h2d;
	a->bytes_d2h += b->bytes_d2h;
	a->h2d_ms += b->h2d_ms;
	a->kernel_ms += b->kernel_ms;
	a->d2h_ms += b->d2h_ms;
	a->fill_ms += b->fill_ms;
	a->wait_ms += b->wait_ms;
	a->device_ms += b->device_ms;
	/* wall_ms stays the leader's: the processes ran side by side */
	a->chunks_gpu += b->chunks_gpu;
	a->chunks_mapped += b->chunks_mapped;
	a->chunks_jit += b->chunks_jit;
	a->cache_chunks += b->cache_chunks;
	a->cache_invalid += b->cache_invalid;
	a->cache_bytes += b->cache_bytes;
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
 * Attach this process to the shared heap scan.  A previous scan descriptor
 * (a parallel query run again after its segment was destroyed) is ended
 * first; pages pinned by chunks in flight stay pinned by the chunks.
 */
static void
gx_par_attach(GxScanState *st, ParallelTableScanDesc pscan)
{
	if (st->scan != NULL)
		table_endscan(st->scan);
	st->scan = table_beginscan_parallel(st->rel, pscan);
	st->pagemode = (st->scan->rs_flags & SO_ALLOW_PAGEMODE) != 0;
	if (!st->pagemode)
		st->device_deform = false;
}

/*
 * Next block for this process to read (page mode).  Serial scan: blocks
 * 0 .. rs_nblocks - 1 in order.  Parallel scan: the next block allocated to
 * this process, as heapgettup_pagemode() takes them; like it, the heap
 * scan's rs_inited says whether this process's allocation is set up
 * (initscan(), i.e. table_rescan(), clears it).  Returns false at the end.
 */
bool
gx_scan_next_block(GxScanState *st, BlockNumber *blk)
{
	HeapScanDesc hs = (HeapScanDesc) st->scan;
	ParallelBlockTableScanDesc pbscan;
	BlockNumber b;

	if (st->scan->rs_parallel == NULL)
	{
		if (st->next_block >= hs->rs_nblocks)
			return false;
		*blk = st->next_block++;
		return true;
	}
	pbscan = (ParallelBlockTableScanDesc) st->scan->rs_parallel;
	if (!hs->rs_inited)
	{
		table_block_parallelscan_startblock_init(st->rel, hs->rs_parallelworkerdata,
												 pbscan);
		hs->rs_inited = true;
	}
	b = table_block_parallelscan_nextpage(st->rel, hs->rs_parallelworkerdata, pbscan);
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
					table_parallelscan_estimate(st->rel, estate->es_snapshot));
}

/*
 * on_dsm_detach callback of the leader: the workers are done (Gather waited
 * for them), add their counters to the leader's own
 */
static void
gx_par_detach(dsm_segment *seg, Datum arg)
{
	GxParallelState *par = (GxParallelState *) DatumGetPointer(arg);
	GxParallelShared *shared = par->shared;

	if (shared != NULL)
	{
		SpinLockAcquire(&shared->mutex);
		gx_stats_add(&par->st->stats, &shared->stats);
		SpinLockRelease(&shared->mutex);
	}
	par->shared = NULL;
	par->seg = NULL;
}

/*
 * Memory context reset callback of the leader: the executor state goes
 * away (normally after Gather destroyed the segment; on some error paths
 * before): make sure the detach callback will not write into it.
 */
static void
gx_par_forget(void *arg)
{
	GxParallelState *par = (GxParallelState *) arg;

	if (par->seg != NULL)
		cancel_on_dsm_detach(par->seg, gx_par_detach, PointerGetDatum(par));
	par->seg = NULL;
	par->shared = NULL;
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

	SpinLockInit(&shared->mutex);
	memset(&shared->stats, 0, sizeof(shared->stats));
	table_parallelscan_initialize(st->rel, pscan, estate->es_snapshot);
	/* no synchronized scanning: blocks from 0, as the serial GpuScan */
	pscan->phs_syncscan = false;
	gx_par_attach(st, pscan);

	if (par->seg != NULL)		/* cannot happen: Gather destroys a segment
								 * before it creates another */
		cancel_on_dsm_detach(par->seg, gx_par_detach, PointerGetDatum(par));
	par->seg = NULL;
	par->shared = NULL;
	/* no segment: no worker (private memory, freed with the context) */
	if (pcxt->seg != NULL)
	{
		if (par->forget.func == NULL)
		{
			par->forget.func = gx_par_forget;
			par->forget.arg = par;
			MemoryContextRegisterResetCallback(estate->es_query_cxt, &par->forget);
		}
		par->shared = shared;
		par->seg = pcxt->seg;
		on_dsm_detach(pcxt->seg, gx_par_detach, PointerGetDatum(par));
	}
}

/* ReInitializeDSMCustomScan (leader, before a rescan): blocks from the start */
void
gx_par_reinit_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	GxScanState *st = (GxScanState *) node;

	table_parallelscan_reinitialize(st->rel, gx_pscan(coordinate));
}

/* InitializeWorkerCustomScan: attach a worker to the shared scan */
void
gx_par_init_worker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	GxScanState *st = (GxScanState *) node;
	GxParallelState *par = gx_par_state(st);

	par->shared = (GxParallelShared *) coordinate;
	gx_par_attach(st, gx_pscan(coordinate));
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
	gx_stats_add(&par->shared->stats, &st->stats);
	SpinLockRelease(&par->shared->mutex);
	par->shared = NULL;
}
