/*
 * projection.cpp - sorted projections of cached columns (issue 16 part 1):
 * a cached table's column as a range join's table on the cache's device,
 * a shared engine object (shared_objects.cpp) every session's lookups
 * name; gpuext_cache_load(..., sorted => ...), gpuext_cache_search and the
 * view gpuext_cache_projections.
 *
 * Design note
 * -----------
 * What it is made of: the READY cache entries of the table's current
 * relfilenode that hold the column, covering every block of the table
 * (0 .. the relation's size, no gap), none with a stale block after
 * checking them against the visibility map now (gx_cache_check_blocks).
 * A projection is built only from such a set (a "view", proj_view), and
 * used only while the set is the same: its key (GxSharedKey) carries the
 * relation, relfilenode, column and, as its check, a hash of each entry's
 * slot, generation (bumped whenever the slot is taken again: eviction,
 * reload), first block, blocks, rows and refresh counter (blocks reloaded
 * in place).  Every use computes the view again: a write to a block
 * (the visibility map bit cleared: a stale block), a refresh, an eviction,
 * a reload, a grown table or a new relfilenode gives another view or none,
 * so the old projection is never used again (a new key makes it dead,
 * gpuext_cache_evict drops it at once).  Never stale, never waited for.
 *
 * Its build: a JOIN_BUILD task per entry (alg GX_JOIN_RANGE, the entry
 * pinned through the staging slot as a cache scan pins it, a skip bitmap
 * when the entry has padding rows: they are no rows), whose program
 * outputs the key (output 0) and the row's position (output 1, the
 * payload): the row's TID as (block << 16 | line pointer), computed on
 * the device from the entry's row map (a uint32 column of the entry:
 * block delta << 16 | offset) plus (entry's first block << 16), so a
 * position needs no lookup to become a TID.  Then JOIN_FINISH_BUILD sorts
 * the (key, position) pairs (CUB's radix sort on the GPU).  A NULL key is
 * no row of it.  The table lies in a shared object that the build's
 * session fills (its writer: shared_objects.cpp lets a writer's range
 * builds fill it); when none can be had (being written by another
 * backend, no room within gpuext.shared_object_memory) in an object of
 * the call's session, used for that call only.
 *
 * Lookups (gpuext_cache_search): the keys are probes of the projection,
 * JOIN_PROBE tasks of the range join (lo = hi = the key, both inclusive,
 * INNER: pairs of (probe, position)), which read the table in place and
 * return the positions themselves.  (A SEARCH task returns each probe's
 * run of the projection, whose positions stay on the device; no task
 * gathers them yet, docs/engine.md.)  Positions are TIDs; no table is
 * read.
 *
 * MVCC: the entries' blocks are all-visible when the view is taken (after
 * the caller's snapshot), so each row of the projection is visible to
 * every snapshot that exists then, the caller's included, and every row
 * the snapshot sees on those blocks is one of them; the rows of a block
 * written since (even by a transaction the snapshot does not see) are not
 * used: the view then is not valid.  Without a valid view the function
 * answers from the heap in the caller's snapshot (one scan of the table,
 * comparing each value as the projection would hold it), so it returns
 * exactly the rows a plain query of the same snapshot returns.
 */
#include "gpuext.h"
#include "cache.h"
#include "compat.h"
#include "engine.h"
#include "gx_projection.h"
#include "shared_objects.h"

extern "C"
{
#include "access/relation.h"
#include "access/table.h"
#include "common/hashfn.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/tuplestore.h"

PGDLLEXPORT Datum gpuext_cache_search(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum gpuext_cache_projections(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_cache_search);
PG_FUNCTION_INFO_V1(gpuext_cache_projections);
}

/* one entry of a view: where its key column and row map lie */
typedef struct ProjPart
{
	GxCacheRef	ref;
	uint64		key_values_off;
	uint64		key_nulls_off;
	int			gxtype;
	bool		padded;			/* padding rows: a (zero) skip bitmap goes along */
} ProjPart;

/* the entries a projection is made of, when they are valid now */
typedef struct ProjView
{
	int			nparts;
	ProjPart   *parts;			/* in block order */
	uint64		rows;			/* the entries' rows (padding included) */
	uint64		check;			/* the hash of the entries' identities */
	Oid			filenode;
} ProjView;

/*
 * ERROR unless attnum of rel (named 'col') has a type a projection takes
 * (int2, int4, int8, date, timestamp, timestamptz)
 */
static void
proj_check_type(Relation rel, AttrNumber attnum, const char *col)
{
	Oid			typid = TupleDescAttr(RelationGetDescr(rel), attnum - 1)->atttypid;

	if (typid != INT2OID && typid != INT4OID && typid != INT8OID && typid != DATEOID &&
		typid != TIMESTAMPOID && typid != TIMESTAMPTZOID)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("column \"%s\" of \"%s\" has type %s, which a sorted projection does not take",
						col, RelationGetRelationName(rel), format_type_be(typid)),
				 errhint("A sorted projection takes int2, int4, int8, date, timestamp and timestamptz columns.")));
}

/* the attribute number of column 'col' of rel: ERROR when there is none */
AttrNumber
gx_proj_column(Relation rel, const char *col)
{
	AttrNumber	attnum = get_attnum(RelationGetRelid(rel), col);

	if (attnum == InvalidAttrNumber || attnum < 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						col, RelationGetRelationName(rel))));
	proj_check_type(rel, attnum, col);
	return attnum;
}

/* order of parts: by first block */
static int
proj_part_cmp(const void *a, const void *b)
{
	BlockNumber x = ((const ProjPart *) a)->ref.start;
	BlockNumber y = ((const ProjPart *) b)->ref.start;

	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * The view of column attnum of rel now (*v): true when its cache entries
 * cover the whole table and none has a stale block after checking them
 * against the visibility map; false (and why, for DEBUG) otherwise
 */
static bool
proj_view(Relation rel, AttrNumber attnum, ProjView *v, const char **why)
{
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	BlockNumber next = 0;
	Buffer		vmbuf = InvalidBuffer;
	uint32	   *skip;
	bool		ok = true;

	memset(v, 0, sizeof(*v));
	v->filenode = GX_REL_FILENUMBER(rel);
	*why = NULL;
	if (gx_cache == NULL || gx_cache->nunits == 0 || !gx_cache_rel_ok(rel))
	{
		*why = "the cache does not hold the table";
		return false;
	}
	v->parts = (ProjPart *) palloc0(sizeof(ProjPart) * gx_cache->nentries);
	LWLockAcquire(gx_cache->lock, LW_SHARED);
	for (int i = 0; i < gx_cache->nentries; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];
		ProjPart   *p = &v->parts[v->nparts];
		int			k;

		if (e->state != GX_CE_READY || e->dbid != MyDatabaseId ||
			e->relid != RelationGetRelid(rel) || e->relfilenode != v->filenode)
			continue;
		for (k = 0; k < e->ncols; k++)
			if (e->attnum[k] == attnum)
				break;
		if (k == e->ncols || (e->gxtype[k] != GX_INT2 && e->gxtype[k] != GX_INT4 &&
							  e->gxtype[k] != GX_INT8))
			continue;
		gx_cache_ref_fill(i, &p->ref);
		p->key_values_off = e->values_off[k];
		p->key_nulls_off = e->nulls_off[k];
		p->gxtype = e->gxtype[k];
		v->nparts++;
	}
	LWLockRelease(gx_cache->lock);
	qsort(v->parts, v->nparts, sizeof(ProjPart), proj_part_cmp);
	skip = (uint32 *) palloc(sizeof(uint32) * (GX_VM_BLOCKS_PER_PAGE / 32 + 1));
	v->check = hash_bytes_uint32_extended((uint32) attnum, (uint64) v->filenode);
	for (int i = 0; i < v->nparts && ok; i++)
	{
		ProjPart   *p = &v->parts[i];
		GxBlockView bv;
		uint32		id[6];

		bv.skip = skip;
		if (p->ref.start != next || p->ref.nblocks > GX_VM_BLOCKS_PER_PAGE)
		{
			*why = "the cache entries do not cover the table";
			ok = false;
		}
		else if (!gx_cache_view(&p->ref, &bv, -1) ||
				 !gx_cache_check_blocks(rel, &vmbuf, &p->ref, &bv) || bv.nskip > 0)
		{
			*why = "a cache entry has stale blocks";
			ok = false;
		}
		else
		{
			p->padded = bv.padded;
			id[0] = (uint32) p->ref.idx;
			id[1] = p->ref.generation;
			id[2] = p->ref.start;
			id[3] = p->ref.nblocks;
			id[4] = p->ref.nrows;
			id[5] = (uint32) pg_atomic_read_u64(&gx_cache->entries[p->ref.idx].refreshed);
			v->check = hash_bytes_extended((const unsigned char *) id, sizeof(id), v->check);
			v->rows += p->ref.nrows;
			next = p->ref.start + p->ref.nblocks;
		}
	}
	if (BufferIsValid(vmbuf))
		ReleaseBuffer(vmbuf);
	pfree(skip);
	if (ok && next != nblocks)
	{
		*why = v->nparts == 0 ? "the cache holds no entry of the column" :
			"the cache entries do not cover the table";
		ok = false;
	}
	if (ok && (v->rows == 0 || v->rows > GX_JOIN_MAX_CAP))
	{
		*why = v->rows == 0 ? "the table is empty" : "the table has too many rows for a projection";
		ok = false;
	}
	return ok;
}

/*
 * The devices of a projection's build and lookups (*set: gpuext.device and
 * gpuext.devices, its home first, where the projection lives): true when
 * every entry of view v lies on one that reaches home (a part's build runs
 * where its entry is and writes the projection through peer access)
 */
static bool
proj_devices(const ProjView *v, GxDevSet *set, const char **why)
{
	gx_resolve_devset(set);
	gx_devset_reaching(set, set->dev[0]);
	for (int i = 0; i < v->nparts; i++)
		if ((set->mask & (1u << v->parts[i].ref.device)) == 0)
		{
			*why = "the cache entries lie on devices this session does not use";
			return false;
		}
	return true;
}

/* the key of the shared object of view v of column attnum of rel */
static void
proj_key(Relation rel, AttrNumber attnum, const ProjView *v, GxSharedKey *key)
{
	memset(key, 0, sizeof(*key));
	key->dbid = MyDatabaseId;
	key->relid = RelationGetRelid(rel);
	key->filenode = v->filenode;
	key->kind = GX_SHOBJ_SORTED_PROJ;
	key->attnum = attnum;
	key->version = 0;			/* any other view makes it dead: no order */
	key->check = v->check;
	key->rows = v->rows;
}

/*
 * One JOIN_BUILD task of part p into projection obj (cap rows), in
 * session, on the device of its entry (the projection's own device or a
 * peer of it): false when the entry changed since the view (the build is
 * then given up); device errors raise
 */
static bool
proj_build_part(uint32 session, uint32 obj, uint32 cap, const ProjPart *p)
{
	int			slot = gx_slot_acquire(true);
	uint32		gen = gx_service_generation();
	gx_chunk   *c = gx_slot_chunk(slot);
	uint32	   *skip = (uint32 *) palloc(sizeof(uint32) * (GX_VM_BLOCKS_PER_PAGE / 32 + 1));
	GxBlockView bv;
	gx_result  *res;

	bv.skip = skip;
	memset(c, 0, sizeof(gx_chunk));
	if (!gx_cache_view(&p->ref, &bv, slot) || bv.nskip > 0)
	{
		gx_shared->slots[slot].cache_entry = -1;
		gx_slot_release(slot);
		pfree(skip);
		return false;
	}
	gx_task_init(c, GX_TASK_JOIN_BUILD, session);
	gx_proj_build_program(c, obj, cap, p->gxtype, p->key_values_off, p->key_nulls_off,
						  p->ref.rowmap_off, p->ref.start);
	c->follow = GX_FOLLOW_NONE;
	c->nrows = p->ref.nrows;
	c->input_bytes = GX_ALIGN_UP(sizeof(gx_chunk));
	c->ext.entry = p->ref.idx;
	if (bv.padded)
	{
		/* no stale block, but padding rows (line pointer 0): skipped */
		uint32		nwords = (p->ref.nblocks + 31) / 32;

		c->ext.skip_blocks = p->ref.nblocks;
		c->ext.skip_off = c->input_bytes;
		memset((char *) c + c->input_bytes, 0, sizeof(uint32) * nwords);
		c->input_bytes = GX_ALIGN_UP(c->input_bytes + sizeof(uint32) * nwords);
	}
	c->result_off = c->input_bytes;
	gx_slot_submit(slot, p->ref.device);
	gx_slot_wait(slot, gen, GX_WAIT_SPIN_US);
	res = gx_chunk_result(c);
	pfree(skip);
	if (res->error != GX_NO_ERROR || res->nsel != 0)
	{
		uint64		err = res->error;

		gx_slot_release(slot);
		elog(ERROR, "gpuext: a sorted projection's build task failed (code %d, %u rows without room)",
			 err == GX_NO_ERROR ? 0 : (int) (err & 0xff), res->nsel);
	}
	gx_slot_release(slot);
	return true;
}

/* the JOIN_FINISH_BUILD task of projection obj (cap rows): its rows */
static uint64
proj_finish(uint32 session, int device, uint32 obj, uint32 cap)
{
	int			slot = gx_slot_acquire(true);
	uint32		gen = gx_service_generation();
	gx_chunk   *c = gx_slot_chunk(slot);
	gx_result  *res;
	uint64		rows;

	gx_task_init_plain(c, GX_TASK_JOIN_FINISH_BUILD, session);
	gx_proj_join(c, obj, cap);
	c->follow = GX_FOLLOW_SESSION;
	c->input_bytes = GX_ALIGN_UP(sizeof(gx_chunk));
	c->result_off = c->input_bytes;
	gx_slot_submit(slot, device);
	gx_slot_wait(slot, gen, GX_WAIT_SPIN_US);
	res = gx_chunk_result(c);
	rows = res->join_count;
	if (res->error != GX_NO_ERROR)
	{
		gx_slot_release(slot);
		elog(ERROR, "gpuext: a sorted projection's sort task failed (code %d)",
			 (int) (res->error & 0xff));
	}
	gx_slot_release(slot);
	return rows;
}

/*
 * Fill projection obj (cap rows) from view v; false when an entry changed
 * meanwhile (the object is then not to be used)
 */
static bool
proj_build(uint32 session, int device, uint32 obj, const ProjView *v)
{
	for (int i = 0; i < v->nparts; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (!proj_build_part(session, obj, (uint32) v->rows, &v->parts[i]))
			return false;
	}
	proj_finish(session, device, obj, (uint32) v->rows);
	return true;
}

/*
 * The projection of view v of column attnum of rel for a call of
 * 'session' on the cache's device: a shared object held for the call
 * (*shared its handle; built now when this backend is the first to need
 * it), or a session object built now (*shared 0); 0 when an entry changed
 * during the build (*built: this call built it)
 */
static uint32
proj_object(Relation rel, AttrNumber attnum, const ProjView *v, uint32 session, int device,
			uint32 *shared, bool *built)
{
	GxSharedKey key;
	uint64		bytes = gx_jrange_table_bytes((uint32) v->rows);
	bool		write;
	uint32		obj;

	proj_key(rel, attnum, v, &key);
	*built = false;
	*shared = obj = gx_shobj_acquire(&key, device, bytes, session, &write);
	if (obj != 0)
	{
		if (write)
		{
			*built = true;
			if (!proj_build(session, device, obj, v))
			{
				gx_shobj_release(obj);	/* (its writer lets go: dead) */
				*shared = 0;
				return 0;
			}
			gx_shobj_ready(obj);
		}
		return obj;
	}
	obj = gx_session_alloc(session, device, bytes, GX_OBJ_JOIN_TABLE);
	*built = true;
	gx_shobj_count_session_copy(bytes);
	return proj_build(session, device, obj, v) ? obj : 0;
}

/*
 * gpuext_cache_load's sorted => columns: the projection of each (after the
 * load); ERROR for a column that does not exist or whose type it does not
 * take, a WARNING when the cache does not hold the table whole and valid
 */
void
gx_proj_load(Oid relid, Datum colsd)
{
	ArrayType  *cols = DatumGetArrayTypeP(colsd);
	Datum	   *names;
	bool	   *nulls;
	int			n;
	Relation	rel = table_open(relid, AccessShareLock);
	AttrNumber *attnums;

	deconstruct_array(cols, TEXTOID, -1, false, TYPALIGN_INT, &names, &nulls, &n);
	attnums = (AttrNumber *) palloc(sizeof(AttrNumber) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("sorted => must not name a NULL column")));
		attnums[i] = gx_proj_column(rel, TextDatumGetCString(names[i]));
	}
	for (int i = 0; i < n; i++)
	{
		ProjView	v;
		const char *why;
		uint32		session,
					obj,
					shared;
		bool		built;
		GxDevSet	set;

		if (!proj_view(rel, attnums[i], &v, &why) || !proj_devices(&v, &set, &why))
		{
			ereport(WARNING,
					(errmsg("no sorted projection of column \"%s\" of \"%s\": %s",
							TextDatumGetCString(names[i]), RelationGetRelationName(rel), why)));
			continue;
		}
		session = gx_session_open_set(&set);
		obj = proj_object(rel, attnums[i], &v, session, set.dev[0], &shared, &built);
		if (shared != 0)
			gx_shobj_release(shared);
		else if (obj != 0)
			ereport(WARNING,
					(errmsg("the sorted projection of column \"%s\" of \"%s\" is not kept: no room for it as a shared object",
							TextDatumGetCString(names[i]), RelationGetRelationName(rel))));
		gx_session_close(session);
	}
	table_close(rel, AccessShareLock);
}

/* pairs one probe task's result area holds, after the probes' header */
static uint32
proj_probe_room(uint32 nrows)
{
	Size		room = gx_shared->slot_bytes - GX_ALIGN_UP(sizeof(gx_chunk)) -
		2 * GX_ALIGN_UP((Size) nrows * sizeof(int64)) - gx_join_pairs_off(nrows, GX_JOIN_RANGE) -
		4 * GX_ALIGN;

	return (uint32) Min(room / sizeof(gx_join_pair), (Size) PG_INT32_MAX);
}

/*
 * Probe projection obj (cap rows) with keys [from, from + n) of vals /
 * nulls (a NULL matches nothing): JOIN_PROBE tasks in passes, each pair
 * (probe, position) put in the result as (key, tid)
 */
static void
proj_probe(uint32 session, int device, uint32 obj, uint32 cap, const Datum *vals,
		   const bool *nulls, uint32 from, uint32 n, ReturnSetInfo *rsinfo)
{
	uint32		first_row = 0,
				first_match = 0;

	for (;;)
	{
		int			slot = gx_slot_acquire(true);
		uint32		gen = gx_service_generation();
		gx_chunk   *c = gx_slot_chunk(slot);
		uint64		at = GX_ALIGN_UP(sizeof(gx_chunk));
		gx_result  *res;
		const gx_join_pair *pairs;
		bool		more;

		memset(c, 0, sizeof(gx_chunk));
		gx_task_init(c, GX_TASK_JOIN_PROBE, session);
		gx_proj_probe_program(c, obj, cap, first_row, first_match, proj_probe_room(n));
		c->ext.entry = -1;
		c->follow = GX_FOLLOW_NONE;
		c->nrows = n;
		at = gx_task_put_int8_col(c, 0, at, vals + from, nulls + from, n);
		c->input_bytes = at;
		c->result_off = at;
		gx_slot_submit(slot, device);
		gx_slot_wait(slot, gen, GX_WAIT_SPIN_US);
		res = gx_chunk_result(c);
		if (res->error != GX_NO_ERROR)
		{
			uint64		err = res->error;

			gx_slot_release(slot);
			elog(ERROR, "gpuext: a sorted projection's probe task failed (code %d)",
				 (int) (err & 0xff));
		}
		pairs = (const gx_join_pair *) ((char *) res + gx_join_pairs_off(n, GX_JOIN_RANGE));
		for (uint32 i = 0; i < res->nsel; i++)
		{
			Datum		out[2];
			bool		outnull[2] = {false, false};
			ItemPointerData tid;
			uint64		pos = (uint64) pairs[i].inner;

			if (pairs[i].outer >= n || (pairs[i].flags & GX_JOIN_PAIR_HOST) != 0)
			{
				gx_slot_release(slot);
				elog(ERROR, "gpuext: a sorted projection's probe returned a bad pair");
			}
			ItemPointerSet(&tid, (BlockNumber) (pos >> 16), (OffsetNumber) (pos & 0xFFFF));
			out[0] = vals[from + pairs[i].outer];
			out[1] = PointerGetDatum(&tid);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, out, outnull);
		}
		more = (res->flags & GX_RESULT_MORE) != 0;
		first_row = res->next_row;
		first_match = res->next_match;
		gx_slot_release(slot);
		if (!more)
			break;
		CHECK_FOR_INTERRUPTS();
	}
}

/* keys one probe task takes: room for its keys, their NULL bits and a pair each */
static uint32
proj_probe_batch(void)
{
	Size		room = gx_shared->slot_bytes - 2 * GX_ALIGN_UP(sizeof(gx_chunk)) - 4 * GX_ALIGN;

	return (uint32) Min(room / (4 * (sizeof(int64) + sizeof(gx_join_pair)) + 1),
						(Size) PG_INT32_MAX);
}

/* a value of a projection's column (int2, int4, int8, date, timestamp(tz)) as its int64 */
static int64
proj_datum_int64(Datum d, Oid typid)
{
	switch (typid)
	{
		case INT2OID:
			return DatumGetInt16(d);
		case INT4OID:
		case DATEOID:
			return DatumGetInt32(d);
		default:
			return DatumGetInt64(d);
	}
}

/* qsort order of int64 */
static int
proj_int64_cmp(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * The answer from the heap, in the active snapshot (the caller's): the
 * table scanned once, each row whose column (as its int64, the value the
 * projection would hold) is one of the keys kept under its key; then, for
 * each key in order, its rows
 */
static void
proj_search_heap(Relation rel, AttrNumber attnum, const Datum *vals, const bool *nulls,
				 int nkeys, ReturnSetInfo *rsinfo)
{
	Oid			typid = TupleDescAttr(RelationGetDescr(rel), attnum - 1)->atttypid;
	int64	   *keys = (int64 *) palloc(sizeof(int64) * nkeys);
	int			ndistinct = 0;
	ItemPointerData **tids;
	int		   *ntids,
			   *captids;
	TableScanDesc scan;
	TupleTableSlot *slot;

	for (int i = 0; i < nkeys; i++)
		if (!nulls[i])
			keys[ndistinct++] = DatumGetInt64(vals[i]);
	qsort(keys, ndistinct, sizeof(int64), proj_int64_cmp);
	if (ndistinct > 1)
	{
		int			n = 1;

		for (int i = 1; i < ndistinct; i++)
			if (keys[i] != keys[n - 1])
				keys[n++] = keys[i];
		ndistinct = n;
	}
	tids = (ItemPointerData **) palloc0(sizeof(ItemPointerData *) * Max(ndistinct, 1));
	ntids = (int *) palloc0(sizeof(int) * Max(ndistinct, 1));
	captids = (int *) palloc0(sizeof(int) * Max(ndistinct, 1));
	scan = table_beginscan(rel, GetActiveSnapshot(), 0, NULL);
	slot = table_slot_create(rel, NULL);
	while (ndistinct > 0 && table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		bool		isnull;
		Datum		d = slot_getattr(slot, attnum, &isnull);
		int64		v;
		int64	   *hit;
		int			k;

		CHECK_FOR_INTERRUPTS();
		if (isnull)
			continue;
		v = proj_datum_int64(d, typid);
		hit = (int64 *) bsearch(&v, keys, ndistinct, sizeof(int64), proj_int64_cmp);
		if (hit == NULL)
			continue;
		k = (int) (hit - keys);
		if (ntids[k] == captids[k])
		{
			captids[k] = Max(8, 2 * captids[k]);
			tids[k] = tids[k] == NULL ?
				(ItemPointerData *) palloc(sizeof(ItemPointerData) * captids[k]) :
				(ItemPointerData *) repalloc_huge(tids[k], sizeof(ItemPointerData) * captids[k]);
		}
		tids[k][ntids[k]++] = slot->tts_tid;
	}
	ExecDropSingleTupleTableSlot(slot);
	table_endscan(scan);
	for (int i = 0; i < nkeys; i++)
	{
		int64		v;
		int64	   *hit;

		if (nulls[i])
			continue;
		v = DatumGetInt64(vals[i]);
		hit = (int64 *) bsearch(&v, keys, ndistinct, sizeof(int64), proj_int64_cmp);
		for (int t = 0; hit != NULL && t < ntids[hit - keys]; t++)
		{
			Datum		out[2];
			bool		outnull[2] = {false, false};

			out[0] = vals[i];
			out[1] = PointerGetDatum(&tids[hit - keys][t]);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, out, outnull);
		}
	}
}

/*
 * SQL: gpuext_cache_search(rel regclass, col text, keys int8[]) -> (key,
 * ctid): for each key of the array in its order, the rows of rel whose
 * column equals it, through the column's sorted projection (built now when
 * there is none valid) when the cache holds the table whole and valid,
 * else from the heap in the caller's snapshot; a NULL key matches nothing
 */
Datum
gpuext_cache_search(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *col = text_to_cstring(PG_GETARG_TEXT_PP(1));
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(2);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Relation	rel;
	AttrNumber	attnum;
	ProjView	v;
	const char *why;
	Datum	   *vals;
	bool	   *nulls;
	int			nkeys;
	uint32		session,
				obj = 0,
				shared = 0;
	bool		built = false;
	int			device = -1;
	GxDevSet	set;

	InitMaterializedSRF(fcinfo, 0);
	rel = table_open(relid, AccessShareLock);
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for table %s", RelationGetRelationName(rel))));
	attnum = gx_proj_column(rel, col);
	deconstruct_array(arr, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &vals, &nulls, &nkeys);
	if (nkeys == 0)
	{
		table_close(rel, AccessShareLock);
		PG_RETURN_NULL();
	}
	if (proj_view(rel, attnum, &v, &why) && proj_devices(&v, &set, &why))
	{
		device = set.dev[0];
		session = gx_session_open_set(&set);
		obj = proj_object(rel, attnum, &v, session, device, &shared, &built);
		if (obj != 0)
		{
			const uint32 batch = proj_probe_batch();

			ereport(DEBUG1,
					(errmsg_internal("gpuext_cache_search: projection of \"%s\".\"%s\" %s%s, %llu rows",
									 RelationGetRelationName(rel), col,
									 built ? "built" : "reused",
									 shared != 0 ? " (shared)" : " (session copy)",
									 (unsigned long long) v.rows)));
			for (uint32 from = 0; from < (uint32) nkeys; from += batch)
			{
				CHECK_FOR_INTERRUPTS();
				proj_probe(session, device, obj, (uint32) v.rows, vals, nulls, from,
						   Min(batch, (uint32) nkeys - from), rsinfo);
			}
		}
		if (shared != 0)
			gx_shobj_release(shared);
		gx_session_close(session);
	}
	else
		ereport(DEBUG1,
				(errmsg_internal("gpuext_cache_search: \"%s\".\"%s\" from the heap: %s",
								 RelationGetRelationName(rel), col,
								 why)));
	if (obj == 0)
		proj_search_heap(rel, attnum, vals, nulls, nkeys, rsinfo);
	table_close(rel, AccessShareLock);
	PG_RETURN_NULL();
}

/*
 * SQL: gpuext_cache_projections() -> one row per sorted projection of this
 * database whose table the user may read: table, column, rows, bytes, device, state: valid (its entries
 * are what it was built from, checked now against the visibility map),
 * stale (rebuilt at its next use) or building; uses (calls that held it)
 */
Datum
gpuext_cache_projections(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxSharedInfo *list = (GxSharedInfo *) palloc(sizeof(GxSharedInfo) * GX_MAX_SHARED_OBJECTS);
	int			n;

	InitMaterializedSRF(fcinfo, 0);
	n = gx_shobj_list(GX_SHOBJ_SORTED_PROJ, MyDatabaseId, list, GX_MAX_SHARED_OBJECTS);
	for (int i = 0; i < n; i++)
	{
		Datum		values[7];
		bool		isnull[7] = {false, false, false, false, false, false, false};
		Relation	rel = try_relation_open(list[i].key.relid, AccessShareLock);
		const char *state = "stale";
		ProjView	v;
		const char *why;
		char	   *colname;

		if (rel == NULL)
			continue;
		if (pg_class_aclcheck(list[i].key.relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		{
			/* (as gpuext_cache: the tables the user may read) */
			relation_close(rel, AccessShareLock);
			continue;
		}
		if (list[i].state == GX_SHOBJ_WRITING)
			state = "building";
		else if (GX_REL_FILENUMBER(rel) == list[i].key.filenode &&
				 list[i].key.attnum <= RelationGetDescr(rel)->natts &&
				 proj_view(rel, (AttrNumber) list[i].key.attnum, &v, &why) &&
				 v.check == list[i].key.check)
			state = "valid";
		values[0] = ObjectIdGetDatum(list[i].key.relid);
		colname = get_attname(list[i].key.relid, (AttrNumber) list[i].key.attnum, true);
		values[1] = colname != NULL ? CStringGetTextDatum(colname) : (Datum) 0;
		isnull[1] = colname == NULL;
		values[2] = Int64GetDatum((int64) list[i].key.rows);
		values[3] = Int64GetDatum((int64) list[i].bytes);
		values[4] = CStringGetTextDatum(gx_device_name(list[i].device));
		values[5] = CStringGetTextDatum(state);
		values[6] = Int64GetDatum((int64) list[i].uses);
		relation_close(rel, AccessShareLock);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, isnull);
	}
	return (Datum) 0;
}
