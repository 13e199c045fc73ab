/*
 * worker.cpp - the cache's background worker: refreshes and admission.
 *
 * A scan that meets stale blocks which are all-visible again (after a
 * VACUUM) asks for work (gx_cache_request_work, when its
 * gpuext.cache_refresh is on), and so does the end of a GpuScan that read
 * a table without the cache gpuext.cache_admit_scans times, when
 * gpuext.cache_policy is auto (gx_cache_note_scan).  The first request
 * starts a dynamic background worker for the scan's database, unless one
 * runs.  A pass of the worker
 *   - refreshes every table of its database whose entries have stale
 *     blocks (load.cpp, gx_cache_refresh_rel: only tables no load,
 *     refresh or VACUUM holds);
 *   - with gpuext.cache_policy = auto, loads each counted table of its
 *     database that reached gpuext.cache_admit_scans and is not cached,
 *     into free cache space only (gx_cache_load_rel without eviction: an
 *     automatic load never pushes out a table someone loaded).
 * It passes again while a pass did something or a request came in
 * meanwhile, then exits.  One worker runs at a time; a request for another
 * database while it runs is made again by the next scan there.
 */
#include "gpuext.h"
#include "compat.h"
#include "cache.h"


extern "C"
{
#include "access/relation.h"
#include "access/xact.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

PGDLLEXPORT void gpuext_cache_worker_main(Datum arg);
}

/* the worker's slot is free again when it exits, however it exits */
static void
gx_worker_exit(int code, Datum arg)
{
	if (gx_cache == NULL)
		return;
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	if (gx_cache->worker_pid == MyProcPid)
		gx_cache->worker_pid = 0;
	LWLockRelease(gx_cache->lock);
}

/*
 * A scan of this database found work for the worker: start it unless one
 * runs (a request for the running one's database makes it do another
 * pass).
 */
void
gx_cache_request_work(void)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	bool		start = false;

	if (gx_cache == NULL || !IsUnderPostmaster || MyBackendType == B_BG_WORKER)
		return;
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	/* a worker that never came up (after 10 s) does not block the next */
	if (gx_cache->worker_pid == -1 &&
		TimestampDifferenceExceeds(gx_cache->worker_started, GetCurrentTimestamp(), 10000))
		gx_cache->worker_pid = 0;
	if (gx_cache->worker_pid == 0)
	{
		gx_cache->worker_pid = -1;	/* starting */
		gx_cache->worker_started = GetCurrentTimestamp();
		gx_cache->worker_db = MyDatabaseId;
		start = true;
	}
	if (gx_cache->worker_db == MyDatabaseId)
		gx_cache->work_wanted = true;
	LWLockRelease(gx_cache->lock);
	if (!start)
		return;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	strlcpy(worker.bgw_library_name, "gpuext", BGW_MAXLEN);
	strlcpy(worker.bgw_function_name, "gpuext_cache_worker_main", BGW_MAXLEN);
	snprintf(worker.bgw_name, BGW_MAXLEN, "gpuext cache worker");
	strlcpy(worker.bgw_type, "gpuext cache worker", BGW_MAXLEN);
	worker.bgw_main_arg = ObjectIdGetDatum(MyDatabaseId);
	worker.bgw_notify_pid = 0;
	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
	{
		/* no worker slot now: the next scan asks again */
		LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
		if (gx_cache->worker_pid == -1)
			gx_cache->worker_pid = 0;
		LWLockRelease(gx_cache->lock);
	}
}

/*
 * A GpuScan of rel ended (its leader): count it for admission when it did
 * not use the cache, and ask the worker to load the table once it has
 * been read gpuext.cache_admit_scans times so (gpuext.cache_policy = auto).
 */
void
gx_cache_note_scan(Relation rel, bool used_cache)
{
	GxCacheCandidate *c = NULL;
	bool		want = false;

	if (gx_cache_policy != GX_CACHE_POLICY_AUTO || used_cache || gx_cache == NULL ||
		gx_cache->nunits == 0 || !gx_cache_rel_ok(rel) ||
		rel->rd_rel->relpages < (int32) gx_cache_admit_pages)
		return;
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	for (int i = 0; i < GX_CACHE_CANDIDATES && c == NULL; i++)
		if (gx_cache->candidates[i].dbid == MyDatabaseId &&
			gx_cache->candidates[i].relid == RelationGetRelid(rel))
			c = &gx_cache->candidates[i];
	if (c == NULL)
	{
		/* a free slot, else the one counted least */
		c = &gx_cache->candidates[0];
		for (int i = 0; i < GX_CACHE_CANDIDATES; i++)
		{
			GxCacheCandidate *o = &gx_cache->candidates[i];

			if (o->dbid == InvalidOid || o->scans < c->scans)
				c = o;
			if (o->dbid == InvalidOid)
				break;
		}
		c->dbid = MyDatabaseId;
		c->relid = RelationGetRelid(rel);
		c->scans = 0;
	}
	c->scans++;
	want = c->scans >= (uint32) gx_cache_admit_scans;
	LWLockRelease(gx_cache->lock);
	if (want)
		gx_cache_request_work();
}

/* is a table of this database in the cache (any ready or loading entry)? (lock held) */
static bool
gx_cache_has_rel(Oid relid)
{
	for (int i = 0; i < gx_cache->nentries; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];

		if (e->state != GX_CE_FREE && e->dbid == MyDatabaseId && e->relid == relid)
			return true;
	}
	return false;
}

/* what the worker does to one table; returns what it counts as done */
typedef uint32 (*GxWorkerRelFn) (Relation rel);

/*
 * Run fn on each table of rels (of this database) that still exists and
 * can be cached, each in its own transaction; the sum of what fn returns.
 */
static uint32
gx_worker_each_rel(const Oid *rels, int n, GxWorkerRelFn fn)
{
	uint32		done = 0;

	for (int k = 0; k < n; k++)
	{
		Relation	rel;

		CHECK_FOR_INTERRUPTS();
		StartTransactionCommand();

		/*
		 * The lock first, the snapshot after: a worker waiting on a table
		 * being dropped holds back no one's xmin (VACUUM could not make new
		 * rows all-visible meanwhile).
		 */
		rel = try_relation_open(rels[k], AccessShareLock);
		if (rel != NULL)
		{
			PushActiveSnapshot(GetTransactionSnapshot());
			if (gx_cache_rel_ok(rel))
				done += fn(rel);
			PopActiveSnapshot();
			relation_close(rel, AccessShareLock);
		}
		CommitTransactionCommand();
	}
	return done;
}

/* refresh a table without waiting for its lock: the blocks refreshed */
static uint32
gx_worker_refresh_rel(Relation rel)
{
	return gx_cache_refresh_rel(rel, false);
}

/* load a table into free cache space only: 1 when rows were cached */
static uint32
gx_worker_admit_rel(Relation rel)
{
	return gx_cache_load_rel(RelationGetRelid(rel), false) > 0 ? 1 : 0;
}

/* admission: load the counted tables of this database that reached the threshold */
static uint32
gx_worker_admit(void)
{
	Oid			rels[GX_CACHE_CANDIDATES];
	int			n = 0;

	if (gx_cache_policy != GX_CACHE_POLICY_AUTO)
		return 0;
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	for (int i = 0; i < GX_CACHE_CANDIDATES; i++)
	{
		GxCacheCandidate *c = &gx_cache->candidates[i];

		if (c->dbid != MyDatabaseId || c->scans < (uint32) gx_cache_admit_scans)
			continue;
		if (!gx_cache_has_rel(c->relid))
			rels[n++] = c->relid;
		c->dbid = InvalidOid;	/* counted again from zero if it is evicted later */
	}
	LWLockRelease(gx_cache->lock);
	return gx_worker_each_rel(rels, n, gx_worker_admit_rel);
}

/* one pass: refresh every table of this database with stale blocks */
static uint32
gx_worker_refresh(void)
{
	Oid		   *rels = (Oid *) palloc(sizeof(Oid) * gx_cache->nentries);
	int			n = 0;
	uint32		done;

	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	gx_cache->work_wanted = false;
	for (int i = 0; i < gx_cache->nentries; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];
		bool		seen = false;

		if (e->state != GX_CE_READY || e->dbid != MyDatabaseId || e->nstale == 0)
			continue;
		for (int k = 0; k < n && !seen; k++)
			seen = rels[k] == e->relid;
		if (!seen)
			rels[n++] = e->relid;
	}
	LWLockRelease(gx_cache->lock);
	done = gx_worker_each_rel(rels, n, gx_worker_refresh_rel);
	pfree(rels);
	return done;
}

/* background worker: refresh and admit for this database until nothing is left to do */
void
gpuext_cache_worker_main(Datum arg)
{
	Oid			dbid = DatumGetObjectId(arg);

	before_shmem_exit(gx_worker_exit, 0);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	gx_cache->worker_pid = MyProcPid;
	LWLockRelease(gx_cache->lock);
	BackgroundWorkerInitializeConnectionByOid(dbid, InvalidOid, 0);
	pgstat_report_appname("gpuext cache worker");

	for (int pass = 0; pass < 1000; pass++)
	{
		uint32		done;
		bool		again;

		CHECK_FOR_INTERRUPTS();
		done = gx_worker_refresh();
		done += gx_worker_admit();
		LWLockAcquire(gx_cache->lock, LW_SHARED);
		again = gx_cache->work_wanted;
		LWLockRelease(gx_cache->lock);
		if (done == 0 && !again)
			break;
		if (done == 0)
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	proc_exit(0);
}
