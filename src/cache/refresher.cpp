/*
 * refresher.cpp - the background worker that refreshes cache entries.
 *
 * A scan that meets stale blocks which are all-visible again (after a
 * VACUUM) asks for a refresh (gx_cache_request_refresh, when its
 * gpuext.cache_refresh is on): the first such request starts a dynamic
 * background worker for the scan's database, unless one runs.  The worker
 * refreshes every table of its database whose entries have stale blocks
 * (load.cpp, gx_cache_refresh_rel: only tables no load, refresh or VACUUM
 * holds), again while a pass refreshed something or a request came in
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

PGDLLEXPORT void gpuext_refresher_main(Datum arg);
}

/* the worker's slot is free again when it exits, however it exits */
static void
gx_refresher_exit(int code, Datum arg)
{
	if (gx_cache == NULL)
		return;
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	if (gx_cache->refresher_pid == MyProcPid)
		gx_cache->refresher_pid = 0;
	LWLockRelease(gx_cache->lock);
}

/*
 * A scan of this database met stale blocks that are all-visible again:
 * start the refresher for it unless one runs (a request for the running
 * one's database makes it do another pass).
 */
void
gx_cache_request_refresh(void)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	bool		start = false;

	if (!gx_cache_refresh || gx_cache == NULL || !IsUnderPostmaster ||
		MyBackendType == B_BG_WORKER)
		return;
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	/* a worker that never came up (after 10 s) does not block the next */
	if (gx_cache->refresher_pid == -1 &&
		TimestampDifferenceExceeds(gx_cache->refresher_started, GetCurrentTimestamp(), 10000))
		gx_cache->refresher_pid = 0;
	if (gx_cache->refresher_pid == 0)
	{
		gx_cache->refresher_pid = -1;	/* starting */
		gx_cache->refresher_started = GetCurrentTimestamp();
		gx_cache->refresh_db = MyDatabaseId;
		start = true;
	}
	if (gx_cache->refresh_db == MyDatabaseId)
		gx_cache->refresh_wanted = true;
	LWLockRelease(gx_cache->lock);
	if (!start)
		return;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	strlcpy(worker.bgw_library_name, "gpuext", BGW_MAXLEN);
	strlcpy(worker.bgw_function_name, "gpuext_refresher_main", BGW_MAXLEN);
	snprintf(worker.bgw_name, BGW_MAXLEN, "gpuext cache refresher");
	strlcpy(worker.bgw_type, "gpuext cache refresher", BGW_MAXLEN);
	worker.bgw_main_arg = ObjectIdGetDatum(MyDatabaseId);
	worker.bgw_notify_pid = 0;
	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
	{
		/* no worker slot now: the next scan asks again */
		LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
		if (gx_cache->refresher_pid == -1)
			gx_cache->refresher_pid = 0;
		LWLockRelease(gx_cache->lock);
	}
}

/* one pass: refresh every table of this database with stale blocks */
static uint32
gx_refresher_pass(void)
{
	Oid		   *rels = (Oid *) palloc(sizeof(Oid) * gx_cache->nentries);
	int			n = 0;
	uint32		done = 0;

	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	gx_cache->refresh_wanted = false;
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

	for (int k = 0; k < n; k++)
	{
		Relation	rel;

		CHECK_FOR_INTERRUPTS();
		StartTransactionCommand();
		PushActiveSnapshot(GetTransactionSnapshot());
		rel = try_relation_open(rels[k], AccessShareLock);
		if (rel != NULL)
		{
			if (gx_cache_rel_ok(rel))
				done += gx_cache_refresh_rel(rel, false);
			relation_close(rel, AccessShareLock);
		}
		PopActiveSnapshot();
		CommitTransactionCommand();
	}
	pfree(rels);
	return done;
}

/* background worker: refresh this database's entries until nothing is left to do */
void
gpuext_refresher_main(Datum arg)
{
	Oid			dbid = DatumGetObjectId(arg);

	before_shmem_exit(gx_refresher_exit, 0);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	gx_cache->refresher_pid = MyProcPid;
	LWLockRelease(gx_cache->lock);
	BackgroundWorkerInitializeConnectionByOid(dbid, InvalidOid, 0);
	pgstat_report_appname("gpuext cache refresher");

	for (int pass = 0; pass < 1000; pass++)
	{
		uint32		done;
		bool		again;

		CHECK_FOR_INTERRUPTS();
		done = gx_refresher_pass();
		LWLockAcquire(gx_cache->lock, LW_SHARED);
		again = gx_cache->refresh_wanted;
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
