/*
 * info.cpp - what the column cache shows: gpuext_cache (per table: entries,
 * rows, bytes used and reserved, stale and refreshed blocks, what scans
 * took from the device and from the heap, state) and gpuext_cache_progress
 * (loads running now).
 */
#include "gpuext.h"
#include "compat.h"
#include "cache.h"
#include "gx_layout.h"


extern "C"
{
#include "access/relation.h"
#include "catalog/pg_class.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

PGDLLEXPORT Datum gpuext_cache_info(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum gpuext_cache_progress(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_cache_info);
PG_FUNCTION_INFO_V1(gpuext_cache_progress);
}

/* per-relation totals of the directory */
typedef struct GxCacheSum
{
	Oid			relid;
	Oid			relfilenode;
	int			chunks;
	int			loading;
	int64		rows;
	int64		bytes;
	int64		reserved;
	int64		hits;
	int64		refreshed;
	int64		rows_device;
	int64		blocks_heap;
	int64		blocks;
	int64		stale;			/* found by gx_cache_count_stale */
	int			nvalid;			/* entries with a usable block */
	uint32		devices;		/* the devices holding its entries */
	int			ncols;
	int16		attnum[GX_CACHE_MAX_COLS];
	int			nrefs;			/* READY entries, for the check */
	GxCacheRef *refs;
} GxCacheSum;

/* check a relation's entries now (recording what changed); sums stale blocks */
static void
gx_cache_count_stale(GxCacheSum *s)
{
	Relation	rel = try_relation_open(s->relid, AccessShareLock);
	Buffer		vmbuf = InvalidBuffer;
	GxBlockView v;

	s->stale = s->blocks;
	if (rel == NULL)
		return;
	if (GX_REL_FILENUMBER(rel) == s->relfilenode && gx_cache_rel_ok(rel))
	{
		BlockNumber nblocks = RelationGetNumberOfBlocks(rel);

		s->stale = 0;
		v.skip = (uint32 *) palloc(sizeof(uint32) * (GX_VM_BLOCKS_PER_PAGE / 32 + 1));
		for (int i = 0; i < s->nrefs; i++)
		{
			GxCacheRef *r = &s->refs[i];
			bool		ok = false;

			if (r->start + r->nblocks <= nblocks)
				ok = gx_cache_view(r, &v, -1) && gx_cache_check_blocks(rel, &vmbuf, r, &v);
			s->stale += ok ? v.nskip : r->nblocks;
			if (ok && v.nskip < r->nblocks)
				s->nvalid++;
		}
	}
	if (BufferIsValid(vmbuf))
		ReleaseBuffer(vmbuf);
	relation_close(rel, AccessShareLock);
}

/* bytes an entry of nrows rows of its columns takes, without slack */
static int64
gx_cache_used_bytes(const GxCacheEntry *e)
{
	int			types[GX_CACHE_MAX_COLS];
	uint64		v[GX_CACHE_MAX_COLS],
				n[GX_CACHE_MAX_COLS],
				m;

	for (int c = 0; c < e->ncols; c++)
		types[c] = e->gxtype[c];
	return (int64) gx_entry_layout(types, e->ncols, e->nrows, v, n, &m);
}

/*
 * SQL: gpuext_cache_info() -> one row per cached table of this database
 * the user may SELECT from.  state: ready (no stale block), partly valid
 * (some blocks stale: scans read them from the heap until a refresh),
 * not valid (every block stale), loading, or stale (the table was
 * rewritten or dropped), and (1.8) the devices holding its entries.
 * Extension 1.2 declared the first seven columns of 1.3 with hits and
 * state only; 1.3 to 1.7 twelve, without the devices.
 */
Datum
gpuext_cache_info(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxCacheSum *sums;
	int			nsums = 0;
	bool		v12;
	bool		v18;

	InitMaterializedSRF(fcinfo, 0);
	gx_cache_require();
	v12 = rsinfo->setDesc->natts == 7;
	v18 = rsinfo->setDesc->natts == 13;
	if (!v12 && !v18 && rsinfo->setDesc->natts != 12)
		elog(ERROR, "gpuext: gpuext_cache_info() is declared with %d columns",
			 rsinfo->setDesc->natts);
	if (gx_cache->nunits == 0)
		return (Datum) 0;
	sums = (GxCacheSum *) palloc0(sizeof(GxCacheSum) * gx_cache->nentries);

	LWLockAcquire(gx_cache->lock, LW_SHARED);
	for (int i = 0; i < gx_cache->nentries; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];
		GxCacheSum *s = NULL;

		if (e->state == GX_CE_FREE || e->dbid != MyDatabaseId)
			continue;
		for (int k = 0; k < nsums; k++)
			if (sums[k].relid == e->relid && sums[k].relfilenode == e->relfilenode)
				s = &sums[k];
		if (s == NULL)
		{
			s = &sums[nsums++];
			s->relid = e->relid;
			s->relfilenode = e->relfilenode;
			s->ncols = e->ncols;
			memcpy(s->attnum, e->attnum, sizeof(s->attnum));
			s->refs = (GxCacheRef *) palloc(sizeof(GxCacheRef) * gx_cache->nentries);
		}
		s->reserved += (int64) e->ngranules * GX_CACHE_GRANULE_BYTES;
		if (gx_cache_entry_device(i) >= 0)
			s->devices |= 1u << gx_cache_entry_device(i);
		if (e->state == GX_CE_LOADING)
			s->loading++;
		else
		{
			gx_cache_ref_fill(i, &s->refs[s->nrefs++]);
			s->chunks++;
			s->rows += e->nrows;
			s->blocks += e->nblocks;
			s->bytes += gx_cache_used_bytes(e);
		}
		s->hits += (int64) pg_atomic_read_u64(&e->hits);
		s->refreshed += (int64) pg_atomic_read_u64(&e->refreshed);
		s->rows_device += (int64) pg_atomic_read_u64(&e->rows_device);
		s->blocks_heap += (int64) pg_atomic_read_u64(&e->blocks_heap);
	}
	LWLockRelease(gx_cache->lock);

	for (int k = 0; k < nsums; k++)
	{
		GxCacheSum *s = &sums[k];
		HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(s->relid));
		Datum		values[13];
		bool		nulls[13];
		const char *state;
		StringInfoData cols;
		int			j = 0;

		if (!HeapTupleIsValid(tup))
		{
			/* dropped: only superusers see what is left of it */
			if (!superuser())
				continue;
			state = "stale";
			s->stale = s->blocks;
		}
		else
		{
			Oid			filenode = ((Form_pg_class) GETSTRUCT(tup))->relfilenode;

			ReleaseSysCache(tup);
			if (pg_class_aclcheck(s->relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
				continue;
			if (s->loading > 0)
				state = "loading";
			else if (filenode != s->relfilenode && filenode != InvalidOid)
			{
				state = "stale";
				s->stale = s->blocks;
			}
			else
			{
				gx_cache_count_stale(s);
				state = s->stale == 0 ? "ready" : s->nvalid > 0 ? "partly valid" : "not valid";
			}
		}
		initStringInfo(&cols);
		for (int c = 0; c < s->ncols; c++)
		{
			char	   *name = get_attname(s->relid, s->attnum[c], true);

			if (c > 0)
				appendStringInfoString(&cols, ", ");
			if (name)
				appendStringInfoString(&cols, quote_identifier(name));
			else
				appendStringInfo(&cols, "%d", s->attnum[c]);
		}
		memset(nulls, 0, sizeof(nulls));
		values[j++] = ObjectIdGetDatum(s->relid);
		values[j++] = CStringGetTextDatum(cols.data);
		values[j++] = Int32GetDatum(s->chunks);
		values[j++] = Int64GetDatum(s->rows);
		values[j++] = Int64GetDatum(s->bytes);
		if (!v12)
		{
			values[j++] = Int64GetDatum(s->reserved);
			values[j++] = Int64GetDatum(s->stale);
			values[j++] = Int64GetDatum(s->refreshed);
			values[j++] = Int64GetDatum(s->rows_device);
			values[j++] = Int64GetDatum(s->blocks_heap);
		}
		values[j++] = Int64GetDatum(s->hits);
		values[j++] = CStringGetTextDatum(state);
		if (v18)
			values[j++] = CStringGetTextDatum(gx_device_mask_names(s->devices, -1));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * SQL: gpuext_cache_progress() -> a row per cache load running now in this
 * database: pid, relation, blocks done and in all, rows cached so far.
 */
Datum
gpuext_cache_progress(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxCacheLoader copy[GX_CACHE_MAX_LOADERS];
	int			n = 0;

	InitMaterializedSRF(fcinfo, 0);
	gx_cache_require();
	LWLockAcquire(gx_cache->lock, LW_SHARED);
	for (int i = 0; i < GX_CACHE_MAX_LOADERS; i++)
	{
		GxCacheLoader *l = &gx_cache->loaders[i];

		if (l->pid == 0 || l->dbid != MyDatabaseId)
			continue;
		copy[n].pid = l->pid;
		copy[n].relid = l->relid;
		copy[n].blocks_total = l->blocks_total;
		pg_atomic_init_u32(&copy[n].blocks_done, pg_atomic_read_u32(&l->blocks_done));
		pg_atomic_init_u64(&copy[n].rows, pg_atomic_read_u64(&l->rows));
		n++;
	}
	LWLockRelease(gx_cache->lock);
	for (int i = 0; i < n; i++)
	{
		Datum		values[5];
		bool		nulls[5] = {false, false, false, false, false};

		if (pg_class_aclcheck(copy[i].relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
			continue;
		values[0] = Int32GetDatum(copy[i].pid);
		values[1] = ObjectIdGetDatum(copy[i].relid);
		values[2] = Int64GetDatum((int64) pg_atomic_read_u32(&copy[i].blocks_done));
		values[3] = Int64GetDatum((int64) copy[i].blocks_total);
		values[4] = Int64GetDatum((int64) pg_atomic_read_u64(&copy[i].rows));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
