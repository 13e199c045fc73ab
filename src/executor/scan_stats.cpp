/*
 * scan_stats.cpp - cumulative statistics of GpuScans, per database and
 * relation: the function behind the view gpuext_stat, and
 * gpuext_stat_reset().
 *
 * Design note
 * -----------
 * A table of GX_STAT_ENTRIES entries in shared memory, under its own
 * LWLock, keyed by (database, relation).  An entry holds the number of
 * scans and the sum of their GxScanStats, whose fields come from the one
 * list GX_SCAN_STATS (executor.h): a counter added there is summed here
 * and shown by gpuext_stat() without another edit, and the SQL side of
 * the function lists the columns in that order (the function checks the
 * count).  A scan adds its figures when it ends; a parallel scan's leader
 * adds them once, with its workers' (summed into its own before
 * EndCustomScan).  When the table is full a relation's figures go to its
 * database's entry for relation 0, "other relations", for which the last
 * GX_STAT_DB_RESERVE entries are kept (figures are lost only when more
 * databases than that overflow the table).  The figures live
 * as long as the server (or until gpuext_stat_reset()); they are not kept
 * across a restart.
 */
#include "gpuext.h"
#include "executor.h"

extern "C"
{
#include "access/parallel.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/shmem.h"
#include "utils/builtins.h"

PGDLLEXPORT Datum gpuext_stat(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum gpuext_stat_reset(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_stat);
PG_FUNCTION_INFO_V1(gpuext_stat_reset);
}

#define GX_STAT_ENTRIES 1024
#define GX_STAT_DB_RESERVE 32	/* entries kept for databases' "other relations" */

typedef struct GxStatEntry
{
	Oid			dbid;			/* InvalidOid: a free entry */
	Oid			relid;			/* 0: the database's other relations */
	int64		scans;
	GxScanStats s;
} GxStatEntry;

typedef struct GxStatTable
{
	LWLock	   *lock;
	int			nused;
	GxStatEntry entries[GX_STAT_ENTRIES];
} GxStatTable;

static GxStatTable *gx_stat = NULL;

Size
gx_stat_shmem_size(void)
{
	return sizeof(GxStatTable);
}

/* shmem_request_hook part: the table's LWLock */
void
gx_stat_shmem_request(void)
{
	RequestNamedLWLockTranche("gpuext stat", 1);
}

/* shmem_startup_hook part: create or attach (AddinShmemInitLock held) */
void
gx_stat_shmem_init(void)
{
	bool		found;

	gx_stat = (GxStatTable *) ShmemInitStruct("gpuext stat", gx_stat_shmem_size(), &found);
	if (!found)
	{
		memset(gx_stat, 0, sizeof(GxStatTable));
		gx_stat->lock = &(GetNamedLWLockTranche("gpuext stat"))->lock;
	}
}

/* the entry of (dbid, relid), made if need be; NULL when full (lock held) */
static GxStatEntry *
gx_stat_entry(Oid dbid, Oid relid)
{
	for (int i = 0; i < gx_stat->nused; i++)
		if (gx_stat->entries[i].dbid == dbid && gx_stat->entries[i].relid == relid)
			return &gx_stat->entries[i];
	/* the last GX_STAT_DB_RESERVE entries are for per-database "other relations" */
	if (gx_stat->nused < GX_STAT_ENTRIES - (relid == InvalidOid ? 0 : GX_STAT_DB_RESERVE))
	{
		GxStatEntry *e = &gx_stat->entries[gx_stat->nused++];

		memset(e, 0, sizeof(*e));
		e->dbid = dbid;
		e->relid = relid;
		return e;
	}
	return NULL;
}

/*
 * Add one finished scan of relation relid (EndCustomScan).  Parallel
 * workers add nothing: their leader adds the scan's totals.
 */
void
gx_stat_report(Oid relid, const GxScanStats *s)
{
	GxStatEntry *e;

	if (gx_stat == NULL || IsParallelWorker())
		return;
	LWLockAcquire(gx_stat->lock, LW_EXCLUSIVE);
	e = gx_stat_entry(MyDatabaseId, relid);
	if (e == NULL)
		e = gx_stat_entry(MyDatabaseId, InvalidOid);	/* full: this database's other relations */
	if (e != NULL)
	{
		e->scans++;
		gx_scan_stats_add(&e->s, s);
		e->s.wall_ms += s->wall_ms;
	}
	LWLockRelease(gx_stat->lock);
}

/* a counter as a Datum of its SQL type */
static inline Datum
gx_stat_datum(int64 v)
{
	return Int64GetDatum(v);
}

static inline Datum
gx_stat_datum(double v)
{
	return Float8GetDatum(v);
}

/*
 * SQL: gpuext_stat() -> one row per (database, relation) with scans and
 * every GX_SCAN_STATS counter, then wall_ms.
 */
Datum
gpuext_stat(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const int	ncounters = 0
#define GX_STAT_COUNT(type, name) + 1
		GX_SCAN_STATS(GX_STAT_COUNT)
#undef GX_STAT_COUNT
		;
	const int	natts = 3 + ncounters + 1;
	GxStatEntry *copy;
	int			n;

	/* extension 1.2 declared the counters up to cache_bytes */
	const int	natts_12 = natts - 3;
	bool		v12;

	InitMaterializedSRF(fcinfo, 0);
	v12 = rsinfo->setDesc->natts == natts_12;
	if (rsinfo->setDesc->natts != natts && !v12)
		elog(ERROR, "gpuext: gpuext_stat() is declared with %d columns, the library has %d",
			 rsinfo->setDesc->natts, natts);
	if (gx_stat == NULL)
		return (Datum) 0;

	/* copy under the lock, build the rows without it */
	copy = (GxStatEntry *) palloc(sizeof(GxStatEntry) * GX_STAT_ENTRIES);
	LWLockAcquire(gx_stat->lock, LW_SHARED);
	n = gx_stat->nused;
	memcpy(copy, gx_stat->entries, sizeof(GxStatEntry) * n);
	LWLockRelease(gx_stat->lock);

	for (int i = 0; i < n; i++)
	{
		GxStatEntry *e = &copy[i];
		Datum	   *values = (Datum *) palloc0(sizeof(Datum) * natts);
		bool	   *nulls = (bool *) palloc0(sizeof(bool) * natts);
		int			k = 0;

		values[k++] = ObjectIdGetDatum(e->dbid);
		values[k++] = ObjectIdGetDatum(e->relid);
		values[k++] = Int64GetDatum(e->scans);
#define GX_STAT_VALUE(type, name) values[k++] = gx_stat_datum(e->s.name);
		GX_SCAN_STATS(GX_STAT_VALUE)
#undef GX_STAT_VALUE
		values[k++] = Float8GetDatum(e->s.wall_ms);
		if (v12)
			values[natts_12 - 1] = values[natts - 1];	/* wall_ms */
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* SQL: gpuext_stat_reset() -> entries dropped (EXECUTE revoked from PUBLIC) */
Datum
gpuext_stat_reset(PG_FUNCTION_ARGS)
{
	int			n = 0;

	if (gx_stat != NULL)
	{
		LWLockAcquire(gx_stat->lock, LW_EXCLUSIVE);
		n = gx_stat->nused;
		gx_stat->nused = 0;
		LWLockRelease(gx_stat->lock);
	}
	PG_RETURN_INT32(n);
}
