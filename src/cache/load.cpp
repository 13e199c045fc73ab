/*
 * load.cpp - filling the column cache: gpuext_cache_load (a table) and
 * refreshes (the stale blocks of its entries, in place).
 *
 * Design note
 * -----------
 * A load takes ShareUpdateExclusiveLock (one loader or refresher per
 * table, no concurrent VACUUM), evicts the table's old entries, then walks
 * the heap.  Each run of blocks from an all-visible block on becomes an
 * entry: its all-visible pages go to the device as page chunks (the device
 * deforms them and appends their rows, CACHE_LOAD), and every block gets a
 * record: its first entry row and the LSN of the page image loaded.  A
 * block that is not all-visible becomes a stale record with no rows (scans
 * read it from the heap).  The VM pages' LSNs are taken before any block
 * is read: they are the entry's baseline (blocks.cpp), so a change racing
 * with the load is found by the first scan.  An entry of a big table fills
 * a unit; the last entry of a table (or a small table's only one) is sized
 * to its rows, counted first.  A load that fails or is cancelled leaves
 * nothing (all or nothing), and gpuext_cache_progress shows it meanwhile.
 *
 * A refresh reloads stale blocks that are all-visible again into the rows
 * they had: the page is read under its share lock (so its image, its LSN
 * and its tuples agree), its tuples are written over the block's old rows,
 * and the rows it no longer fills become padding (line pointer 0, skipped
 * by scans).  A block with more tuples than rows stays stale until the
 * table is loaded again.  Before rewriting, the refresh waits until no
 * chunk that may still read the old rows runs (gx_cache_wait_pins).
 */
#include "gpuext.h"
#include "compat.h"
#include "cache.h"
#include "compiler.h"
#include "gx_layout.h"
#include "shared_objects.h"


extern "C"
{
#include "access/heapam.h"
#include "access/visibilitymap.h"
#include "access/xlog.h"
#include "catalog/pg_class.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

PGDLLEXPORT Datum gpuext_cache_load(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum gpuext_cache_evict(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum gpuext_cache_refresh(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_cache_load);
PG_FUNCTION_INFO_V1(gpuext_cache_evict);
PG_FUNCTION_INFO_V1(gpuext_cache_refresh);
}

/* entry this backend is loading (read after a longjmp: not in a local) */
static int	gx_loading_entry = -1;
/* its row in gpuext_cache_progress, or -1 */
static int	gx_loader_row = -1;

/* a small table's entry is sized to its rows when it has at most this many blocks left */
#define GX_LOAD_COUNT_BLOCKS 4096

typedef struct GxLoadState
{
	Relation	rel;
	TableScanDesc scan;
	Buffer		vmbuf;
	int			ncols;
	AttrNumber	attno[GX_CACHE_MAX_COLS];
	int			gxtype[GX_CACHE_MAX_COLS];
	Oid			typid[GX_CACHE_MAX_COLS];
	int			scale[GX_CACHE_MAX_COLS];	/* GX_NUMERIC: the column's scale */
	gx_attr    *atts;
	int			maxatt;
	uint32		unit_rows;		/* rows of an entry that fills a unit */
	uint32		entry_rows;		/* the most rows of an entry (gpuext.cache_entry_rows) */
	uint64		load_clock;		/* entries touched since are this load's */
	GxDevSet	devs;			/* a load: the devices its entries go to, in turn */
	int			nloaded;		/* a load: entries taken so far */
	int			device;			/* the device of the entry being filled */
	/* the entry being filled */
	int			entry;
	uint32		cap_rows;
	uint64		values_off[GX_CACHE_MAX_COLS];
	uint64		nulls_off[GX_CACHE_MAX_COLS];
	uint64		rowmap_off;
	uint32		blkbase;		/* its first block record */
	BlockNumber start;
} GxLoadState;

/* entry layout for cap rows (gx_layout.h) into ls; returns the bytes */
static uint64
gx_load_layout(GxLoadState *ls, uint32 cap)
{
	return gx_entry_layout(ls->gxtype, ls->ncols, cap, ls->values_off, ls->nulls_off,
						   &ls->rowmap_off);
}

/*
 * the columns a load caches: every fixed-width by-value supported type,
 * numeric with a typmod the device takes (GX_NUMERIC) and bpchar(n) of at
 * most 8 bytes (GX_CHAR8; packed whatever the collation: a query compares
 * them on the device only under a deterministic one)
 */
static void
gx_load_columns(GxLoadState *ls)
{
	TupleDesc	desc = RelationGetDescr(ls->rel);

	ls->ncols = 0;
	for (int a = 1; a <= desc->natts && a <= GX_MAX_DEFORM_ATTS; a++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, a - 1);
		int			gxtype;
		int			scale;

		if (att->attisdropped ||
			!gx_type_supported_mod(att->atttypid, att->atttypmod, &gxtype, &scale))
			continue;
		if (gxtype != GX_NUMERIC && gxtype != GX_CHAR8 &&
			(!att->attbyval || att->attlen <= 0 || (int) gx_type_width(gxtype) != att->attlen))
			continue;
		if (ls->ncols == GX_CACHE_MAX_COLS)
			break;
		ls->attno[ls->ncols] = a;
		ls->gxtype[ls->ncols] = gxtype;
		ls->typid[ls->ncols] = att->atttypid;
		ls->scale[ls->ncols] = scale;
		ls->ncols++;
	}
}

/*
 * Send np page images (at the chunk's pages area) with their row map
 * (n values: page index << 16 | line pointer, 0 = padding) to be appended
 * to the entry as rows [row0, row0 + n); wait.  'slot' is acquired by the
 * caller and released here.
 */
static void
gx_load_submit(GxLoadState *ls, int slot, uint32 np, const uint32 *map, uint32 n,
			   uint32 row0, uint32 block0, uint64 pin_seq)
{
	uint32		generation = gx_service_generation();
	gx_chunk   *c = gx_slot_chunk(slot);
	gx_deform_hdr *d = (gx_deform_hdr *) ((char *) c + gx_page_batch_deform_off());
	GxCacheEntry *e = &gx_cache->entries[ls->entry];

	memset(c, 0, sizeof(gx_chunk));
	gx_task_init(c, GX_TASK_CACHE_LOAD, 0);
	c->nrows = n;
	c->ncols = ls->ncols;
	for (int i = 0; i < ls->ncols; i++)
	{
		c->cols[i].type = ls->gxtype[i];
		c->cols[i].scale = ls->scale[i];
	}
	gx_layout_page_batch(c, np, BLCKSZ);
	d->natts = ls->maxatt;
	memcpy(d->atts, ls->atts, sizeof(gx_attr) * ls->maxatt);
	memcpy((char *) c + d->rowmap_off, map, sizeof(uint32) * n);
	c->ext.count_only = 1;
	c->ext.entry = ls->entry;
	c->ext.row0 = row0;
	c->ext.block0 = block0;
	c->ext.entry_rows = e->cap_rows;
	c->ext.rowmap_off = e->rowmap_off;
	for (int i = 0; i < ls->ncols; i++)
	{
		c->ext.values_off[i] = e->values_off[i];
		c->ext.nulls_off[i] = e->nulls_off[i];
	}
	gx_shared->slots[slot].cache_entry = ls->entry;
	gx_shared->slots[slot].cache_seq = pin_seq;
	gx_slot_submit(slot, ls->device);
	gx_slot_wait(slot, generation, 0);
	{
		uint64		error = gx_chunk_result(c)->error;

		gx_slot_release(slot);
		if (error != GX_NO_ERROR)
			gx_raise_error((int) (error & 0xff));
	}
}

/*
 * Fill one LOAD chunk with the all-visible pages from *blk on (at most up
 * to 'end' and until the entry has cap rows), recording each block, and
 * send it.  Returns the rows added; *blk is the next block to read.
 */
static uint32
gx_load_chunk(GxLoadState *ls, BlockNumber *blk, BlockNumber end, uint32 row0)
{
	HeapScanDesc hs = (HeapScanDesc) ls->scan;
	uint64		slot_bytes = gx_shared->slot_bytes;
	uint64		pages_off = gx_page_batch_pages_off();
	uint32	   *map = (uint32 *) palloc(sizeof(uint32) * MaxHeapTuplesPerPage);
	int			slot = gx_slot_acquire(true);
	char	   *base = (char *) gx_slot_chunk(slot);
	uint32		n = 0;
	uint32		np = 0;
	BlockNumber first = *blk;

	while (*blk < end && gx_vm_all_visible(ls->rel, &ls->vmbuf, *blk))
	{
		uint32		k;
		uint64		need;
		uint32		rec = ls->blkbase + (*blk - ls->start);
		Page		img;

		gx_heap_read_page(ls->scan, *blk);
		k = (uint32) hs->rs_ntuples;
		/* pages, row map, columns and a (small) result area must fit */
		need = gx_page_batch_bytes(np + 1, BLCKSZ, n + k, ls->gxtype, ls->ncols);
		if (need > slot_bytes || row0 + n + k > ls->cap_rows)
			break;
		img = (Page) (base + pages_off + (uint64) np * BLCKSZ);
		memcpy(img, BufferGetPage(hs->rs_cbuf), BLCKSZ);
		/* the row map goes after the pages: stage it, copied at submit */
		map = (uint32 *) repalloc(map, sizeof(uint32) * (n + k));
		for (uint32 i = 0; i < k; i++)
			map[n + i] = (np << 16) | hs->rs_vistuples[i];
		gx_blk_row[rec] = row0 + n;
		gx_blk_lsn[rec] = PageGetLSN(img);
		n += k;
		np++;
		(*blk)++;
	}
	if (n == 0)
		gx_slot_release(slot);
	else
		gx_load_submit(ls, slot, np, map, n, row0, first - ls->start, 0);
	pfree(map);
	return n;
}

/*
 * Rows per entry and its granules for a load from block blk on: a whole
 * unit, unless the table has few blocks left (or gpuext.cache_entry_rows
 * limits entries): then the rows are counted (all-visible blocks; the
 * others become records without rows) and the entry sized to them.
 */
static int
gx_load_size(GxLoadState *ls, BlockNumber blk, BlockNumber nblocks, uint32 *cap)
{
	HeapScanDesc hs = (HeapScanDesc) ls->scan;
	BlockNumber end = Min(nblocks, blk + GX_VM_BLOCKS_PER_PAGE);
	uint64		rows = 0;
	uint64		bytes;
	int			ng;

	if (end - blk > GX_LOAD_COUNT_BLOCKS && ls->entry_rows == ls->unit_rows)
	{
		*cap = ls->unit_rows;
		return GX_CACHE_GRANULES;
	}
	BlockNumber b;

	for (b = blk; b < end && rows < ls->entry_rows; b++)
	{
		CHECK_FOR_INTERRUPTS();
		if (!gx_vm_all_visible(ls->rel, &ls->vmbuf, b))
			continue;
		gx_heap_read_page(ls->scan, b);
		rows += (uint64) hs->rs_ntuples;
	}
	end = b;					/* the blocks the entry may span */
	if (rows >= ls->unit_rows)
	{
		*cap = ls->unit_rows;
		return GX_CACHE_GRANULES;
	}
	*cap = (uint32) Max(Min(rows, ls->entry_rows), 1);
	bytes = gx_load_layout(ls, *cap);
	ng = (int) ((bytes + GX_CACHE_GRANULE_BYTES - 1) / GX_CACHE_GRANULE_BYTES);
	ng = Max(ng, (int) ((end - blk + GX_CACHE_GRANULE_BLOCKS - 1) / GX_CACHE_GRANULE_BLOCKS));
	return Min(ng, GX_CACHE_GRANULES);
}

/*
 * Load one entry of ngranules from block *blk on (an all-visible block).
 * Returns the rows cached; *blk is the first block not in the entry.
 */
static uint64
gx_load_entry(GxLoadState *ls, BlockNumber *blk, BlockNumber nblocks, int ngranules)
{
	GxCacheEntry *e = &gx_cache->entries[ls->entry];
	BlockNumber start = *blk;
	BlockNumber end = Min(nblocks, start + Min(GX_VM_BLOCKS_PER_PAGE,
											   (BlockNumber) ngranules * GX_CACHE_GRANULE_BLOCKS));
	int			nvm = 0;
	BlockNumber vm_block[GX_CACHE_MAX_VM];
	XLogRecPtr	lsn[GX_CACHE_MAX_VM];
	uint32		rows = 0;
	uint32		nstale = 0;

	ls->start = start;
	ls->blkbase = gx_cache_blkbase(e);
	gx_load_layout(ls, ls->cap_rows);
	e->cap_rows = ls->cap_rows;
	e->ncols = ls->ncols;
	for (int c = 0; c < ls->ncols; c++)
	{
		e->attnum[c] = ls->attno[c];
		e->typid[c] = ls->typid[c];
		e->gxtype[c] = (uint8) ls->gxtype[c];
		e->scale[c] = (uint8) ls->scale[c];
		e->values_off[c] = ls->values_off[c];
		e->nulls_off[c] = ls->nulls_off[c];
	}
	e->rowmap_off = ls->rowmap_off;

	/* the VM pages' LSNs before any block is read: the entry's baseline */
	memset(vm_block, 0, sizeof(vm_block));
	memset(lsn, 0, sizeof(lsn));
	for (BlockNumber vp = start / GX_VM_BLOCKS_PER_PAGE;
		 vp <= (end - 1) / GX_VM_BLOCKS_PER_PAGE && nvm < GX_CACHE_MAX_VM; vp++)
	{
		vm_block[nvm] = vp;
		lsn[nvm++] = gx_vm_page_lsn(ls->rel, &ls->vmbuf, Max(start, vp * GX_VM_BLOCKS_PER_PAGE));
	}

	/*
	 * Chunks of consecutive all-visible blocks; a block that is not
	 * all-visible is a stale record without rows (scans read it from the
	 * heap).
	 */
	for (;;)
	{
		BlockNumber before = *blk;

		CHECK_FOR_INTERRUPTS();
		if (*blk >= end || rows >= ls->cap_rows)
			break;
		if (!gx_vm_all_visible(ls->rel, &ls->vmbuf, *blk))
		{
			uint32		i = *blk - start;

			gx_blk_row[ls->blkbase + i] = rows;
			gx_blk_lsn[ls->blkbase + i] = InvalidXLogRecPtr;
			gx_blk_stale[(ls->blkbase + i) / 32] |= (uint32) 1 << (i % 32);
			nstale++;
			(*blk)++;
			continue;
		}
		rows += gx_load_chunk(ls, blk, end, rows);
		if (*blk == before)
			break;				/* the block does not fit the entry */
		if (gx_loader_row >= 0)
			pg_atomic_write_u32(&gx_cache->loaders[gx_loader_row].blocks_done, *blk);
	}
	/* trailing stale blocks are not part of the entry */
	while (*blk > start && gx_blk_lsn[ls->blkbase + (*blk - 1 - start)] == InvalidXLogRecPtr &&
		   ((gx_blk_stale[(ls->blkbase + (*blk - 1 - start)) / 32] >> ((*blk - 1 - start) % 32)) & 1))
	{
		uint32		i = *blk - 1 - start;

		gx_blk_stale[(ls->blkbase + i) / 32] &= ~((uint32) 1 << (i % 32));
		nstale--;
		(*blk)--;
	}
	if (*blk == start)
	{
		/* the first block alone does not fit: cannot cache it */
		gx_cache_finish(ls->entry, false);
		ls->entry = -1;
		(*blk)++;
		return 0;
	}
	/* keep only the VM pages the entry's blocks use */
	nvm = (int) ((*blk - 1) / GX_VM_BLOCKS_PER_PAGE - start / GX_VM_BLOCKS_PER_PAGE) + 1;
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	e->start = start;
	e->nblocks = *blk - start;
	e->nrows = rows;
	e->nstale = nstale;
	e->nvm = nvm;
	memcpy(e->vm_block, vm_block, sizeof(vm_block));
	memcpy(e->vm_lsn, lsn, sizeof(lsn));
	LWLockRelease(gx_cache->lock);
	gx_cache_finish(ls->entry, true);
	ls->entry = -1;
	return rows;
}

/*
 * No loads or refreshes during recovery: WAL replay changes pages without
 * going through a backend, and a standby's scans read the heap.
 */
static void
gx_cache_prevent_during_recovery(void)
{
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot load into the gpuext cache during recovery"),
				 errdetail("Tables are cached only outside recovery; a standby's scans read the heap.")));
}

/* open a table for a load or refresh, with the checks both need; fills ls */
static void
gx_load_open(GxLoadState *ls, Oid relid, LOCKMODE mode)
{
	memset(ls, 0, sizeof(*ls));
	ls->entry = -1;
	ls->rel = table_open(relid, mode);
	if (ls->rel->rd_rel->relkind != RELKIND_RELATION)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table", RelationGetRelationName(ls->rel))));
	if (!gx_cache_rel_ok(ls->rel))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot cache \"%s\": only permanent tables outside recovery are cached",
						RelationGetRelationName(ls->rel)),
				 errdetail("Cache validity is tracked through WAL-logged visibility map changes.")));
	gx_load_columns(ls);
	if (ls->ncols == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("table \"%s\" has no column of a type the device reads",
						RelationGetRelationName(ls->rel))));
	ls->atts = (gx_attr *) palloc0(sizeof(gx_attr) * GX_MAX_DEFORM_ATTS);
	if (!gx_deform_atts(RelationGetDescr(ls->rel), ls->ncols, ls->attno, ls->gxtype,
						ls->scale, ls->atts, &ls->maxatt))
		elog(ERROR, "gpuext: cached columns cannot be deformed on the device");
}

/*
 * The devices a load spreads its entries over: those of gpuext.device and
 * gpuext.devices that hold a share of the cache; ERROR when there is none
 * (the cache lives on the GPUs when the service has one).
 */
static void
gx_load_devices(GxLoadState *ls)
{
	GxDevSet	set;
	uint32		mask;
	char		buf[128];

	gx_resolve_devset(&set);
	mask = gx_cache_devices(&set);
	if (mask == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the gpuext cache lives on devices this session does not use"),
				 errdetail("gpuext.device and gpuext.devices select %s.",
						   gx_devset_names(&set, buf, sizeof(buf))),
				 errhint("The cache lives on the GPUs when the service has one, else on the CPU devices.")));
	ls->devs = set;
	ls->devs.n = 0;
	for (int i = 0; i < set.n; i++)
		if ((mask & (1u << set.dev[i])) != 0)
			ls->devs.dev[ls->devs.n++] = set.dev[i];
	ls->devs.mask = mask;
}

/*
 * Take the next entry of a load: on the devices of the load in turn (by
 * block range: consecutive entries on different devices, so that a scan
 * of the table runs on all of them at once), the next one that has room
 * when one is full.  Sets ls->device; -1 when no device has room.
 */
static int
gx_load_take(GxLoadState *ls, int ng)
{
	for (int k = 0; k < ls->devs.n; k++)
	{
		int			device = ls->devs.dev[(ls->nloaded + k) % ls->devs.n];
		int			idx = gx_cache_take(ls->rel, ng, ls->load_clock, device);

		if (idx >= 0)
		{
			ls->nloaded++;
			ls->device = device;
			return idx;
		}
	}
	return -1;
}

/* a row of gpuext_cache_progress for this load (none when all are taken) */
static void
gx_loader_start(Oid relid, BlockNumber nblocks)
{
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	for (int i = 0; i < GX_CACHE_MAX_LOADERS && gx_loader_row < 0; i++)
		if (gx_cache->loaders[i].pid == 0)
		{
			GxCacheLoader *l = &gx_cache->loaders[i];

			l->pid = MyProcPid;
			l->dbid = MyDatabaseId;
			l->relid = relid;
			l->blocks_total = nblocks;
			pg_atomic_write_u32(&l->blocks_done, 0);
			pg_atomic_write_u64(&l->rows, 0);
			gx_loader_row = i;
		}
	LWLockRelease(gx_cache->lock);
}

/* this load's progress row is free again */
static void
gx_loader_end(void)
{
	if (gx_loader_row < 0)
		return;
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	gx_cache->loaders[gx_loader_row].pid = 0;
	LWLockRelease(gx_cache->lock);
	gx_loader_row = -1;
}

/*
 * Load a table (see the design note); returns the rows cached.  With
 * 'evict' off (automatic admission) the load only takes free cache space
 * and evicts no other table's entries.
 */
uint64
gx_cache_load_rel(Oid relid, bool evict)
{
	GxLoadState ls;
	BlockNumber blk = 0;
	BlockNumber nblocks;
	uint64		rows = 0;
	int64		skipped = 0;
	bool		full = false;
	uint32		cap;

	gx_load_open(&ls, relid, ShareUpdateExclusiveLock);
	gx_load_devices(&ls);

	/* rows of a whole unit: what fits it, and a scan's result in a slot */
	cap = (uint32) Min((uint64) (gx_shared->slot_bytes - sizeof(gx_chunk) - 65536) / 4 - 1024,
					   (uint64) 4 * 1024 * 1024);
	cap &= ~(uint32) 1023;
	while (cap > 1024 && gx_load_layout(&ls, cap) > GX_CACHE_UNIT_BYTES)
		cap -= 1024;
	ls.unit_rows = cap;
	ls.entry_rows = gx_cache_entry_rows > 0 ? Min((uint32) gx_cache_entry_rows, cap) : cap;

	(void) gx_cache_evict_rel(relid, true);
	/* entries used before this clock value may be evicted: none without 'evict' */
	ls.load_clock = evict ? pg_atomic_read_u64(&gx_cache->clock) : 0;

	ls.scan = table_beginscan_strat(ls.rel, GetActiveSnapshot(), 0, NULL, true, false);
	if ((ls.scan->rs_flags & SO_ALLOW_PAGEMODE) == 0)
		elog(ERROR, "gpuext: cache load needs a page-mode scan");
	nblocks = ((HeapScanDesc) ls.scan)->rs_nblocks;

	PG_TRY();
	{
		gx_loader_start(relid, nblocks);
		while (blk < nblocks)
		{
			int			ng;

			CHECK_FOR_INTERRUPTS();
			if (!gx_vm_all_visible(ls.rel, &ls.vmbuf, blk))
			{
				skipped++;
				blk++;
				continue;
			}
			ng = gx_load_size(&ls, blk, nblocks, &ls.cap_rows);
			ls.entry = gx_load_take(&ls, ng);
			gx_loading_entry = ls.entry;
			if (ls.entry < 0)
			{
				full = true;
				break;
			}
			rows += gx_load_entry(&ls, &blk, nblocks, ng);
			gx_loading_entry = -1;
			if (gx_loader_row >= 0)
			{
				pg_atomic_write_u32(&gx_cache->loaders[gx_loader_row].blocks_done, blk);
				pg_atomic_write_u64(&gx_cache->loaders[gx_loader_row].rows, rows);
			}
		}
	}
	PG_CATCH();
	{
		/* all or nothing: a load that fails or is cancelled leaves none */
		if (gx_loading_entry >= 0)
			gx_cache_finish(gx_loading_entry, false);
		gx_loading_entry = -1;
		(void) gx_cache_evict_rel(relid, false);
		gx_loader_end();
		PG_RE_THROW();
	}
	PG_END_TRY();
	gx_loader_end();

	table_endscan(ls.scan);
	if (BufferIsValid(ls.vmbuf))
		ReleaseBuffer(ls.vmbuf);
	if (full)
		ereport(NOTICE,
				(errmsg("gpuext cache is full: %u of %u blocks of \"%s\" not cached",
						nblocks - blk, nblocks, RelationGetRelationName(ls.rel))));
	if (skipped > 0)
		ereport(NOTICE,
				(errmsg("%lld blocks of \"%s\" are not all-visible and were not cached",
						(long long) skipped, RelationGetRelationName(ls.rel)),
				 errhint("VACUUM the table, then load it again.")));
	table_close(ls.rel, ShareUpdateExclusiveLock);
	return rows;
}

/* SQL: gpuext_cache_load(regclass) -> rows now cached */
Datum
gpuext_cache_load(PG_FUNCTION_ARGS)
{
	Oid			relid;
	uint64		rows;

	/* (not STRICT since 1.7: sorted may be NULL) */
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	relid = PG_GETARG_OID(0);

	gx_cache_require();
	if (gx_cache->nunits == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the gpuext cache is off"),
				 errhint("Set gpuext.cache_size (server start) to a size of at least 128MB.")));
	gx_cache_check_owner(relid);
	gx_cache_prevent_during_recovery();
	rows = gx_cache_load_rel(relid, true);
	/* sorted => columns (1.7): their projections (projection.cpp) */
	if (PG_NARGS() > 1 && !PG_ARGISNULL(1))
		gx_proj_load(relid, PG_GETARG_DATUM(1));
	PG_RETURN_INT64((int64) rows);
}

/* SQL: gpuext_cache_evict(regclass) -> entries evicted */
Datum
gpuext_cache_evict(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);

	gx_cache_require();
	gx_cache_check_owner(relid);
	/* its sorted projections go with its entries (projection.cpp) */
	gx_shobj_drop_rel(GX_SHOBJ_SORTED_PROJ, MyDatabaseId, relid);
	if (gx_cache->nunits == 0)
		PG_RETURN_INT32(0);
	PG_RETURN_INT32(gx_cache_evict_rel(relid, true));
}

/* ---------------------------------------------------------------------- */
/* refresh                                                                 */
/* ---------------------------------------------------------------------- */

/*
 * Read heap block blk under its share lock into img: its line pointers
 * with a tuple (all visible: the block is all-visible, checked under the
 * lock) into offs, their count returned, the image's LSN into *lsn.  -1
 * when the block is not all-visible.
 */
static int
gx_refresh_read(GxLoadState *ls, BlockNumber blk, char *img, OffsetNumber *offs, XLogRecPtr *lsn)
{
	Buffer		buf = ReadBufferExtended(ls->rel, MAIN_FORKNUM, blk, RBM_NORMAL, NULL);
	Page		page;
	int			k = -1;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (PageIsAllVisible(page) && gx_vm_all_visible(ls->rel, &ls->vmbuf, blk))
	{
		OffsetNumber maxoff = PageGetMaxOffsetNumber(page);

		memcpy(img, page, BLCKSZ);
		*lsn = PageGetLSN(page);
		k = 0;
		for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++)
			if (ItemIdIsNormal(PageGetItemId(page, off)))
				offs[k++] = off;
	}
	UnlockReleaseBuffer(buf);
	return k;
}

/*
 * Refresh entry idx of ls->rel: check its blocks, then reload in place each
 * stale block that is all-visible again and has no more tuples than rows.
 * Returns the blocks refreshed.
 */
static uint32
gx_refresh_entry(GxLoadState *ls, int idx)
{
	GxCacheEntry *e = &gx_cache->entries[idx];
	GxCacheRef	r;
	GxBlockView v;
	uint32	   *rowstart;
	uint64		seq;
	uint32		done = 0;
	OffsetNumber offs[MaxHeapTuplesPerPage];
	uint32		map[MaxHeapTuplesPerPage + 1];

	LWLockAcquire(gx_cache->lock, LW_SHARED);
	if (e->state != GX_CE_READY || e->dbid != MyDatabaseId ||
		e->relid != RelationGetRelid(ls->rel) || e->relfilenode != GX_REL_FILENUMBER(ls->rel))
	{
		LWLockRelease(gx_cache->lock);
		return 0;
	}
	gx_cache_ref_fill(idx, &r);
	/* block row starts change only with the entry's generation */
	rowstart = (uint32 *) palloc(sizeof(uint32) * (r.nblocks + 1));
	memcpy(rowstart, gx_blk_row + gx_cache_blkbase(e), sizeof(uint32) * r.nblocks);
	rowstart[r.nblocks] = r.nrows;
	LWLockRelease(gx_cache->lock);

	v.skip = (uint32 *) palloc(sizeof(uint32) * ((r.nblocks + 31) / 32));
	if (r.start + r.nblocks > RelationGetNumberOfBlocks(ls->rel) ||
		!gx_cache_view(&r, &v, -1) ||
		!gx_cache_check_blocks(ls->rel, &ls->vmbuf, &r, &v) || v.nskip == 0)
		return 0;

	/* no chunk that may read the stale blocks' old rows may still run */
	LWLockAcquire(gx_cache->lock, LW_SHARED);
	seq = e->stale_seq;
	LWLockRelease(gx_cache->lock);
	gx_cache_wait_pins(idx, seq);

	ls->entry = idx;
	ls->device = r.device;
	for (uint32 i = 0; i < r.nblocks; i++)
	{
		BlockNumber blk = r.start + i;
		uint32		cap = rowstart[i + 1] - rowstart[i];
		int			slot;
		int			k;
		XLogRecPtr	lsn;

		if (((v.skip[i / 32] >> (i % 32)) & 1) == 0 || cap == 0)
			continue;
		CHECK_FOR_INTERRUPTS();
		slot = gx_slot_acquire(true);
		k = gx_refresh_read(ls, blk, (char *) gx_slot_chunk(slot) + gx_page_batch_pages_off(),
							offs, &lsn);
		if (k < 0 || (uint32) k > cap)
		{
			gx_slot_release(slot);
			continue;
		}
		for (int j = 0; j < k; j++)
			map[j] = offs[j];	/* page 0 */
		for (uint32 j = (uint32) k; j < cap; j++)
			map[j] = 0;			/* padding */
		gx_load_submit(ls, slot, 1, map, cap, rowstart[i], i, PG_UINT64_MAX);

		LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
		if (e->state == GX_CE_READY && e->generation == r.generation)
		{
			uint32		rec = gx_cache_blkbase(e) + i;

			if ((gx_blk_stale[rec / 32] >> (rec % 32)) & 1)
			{
				gx_blk_stale[rec / 32] &= ~((uint32) 1 << (rec % 32));
				e->nstale--;
			}
			gx_blk_lsn[rec] = lsn;
			if ((uint32) k < cap)
				e->npadded++;
			pg_atomic_fetch_add_u64(&e->refreshed, 1);
			done++;
		}
		LWLockRelease(gx_cache->lock);
	}
	ls->entry = -1;
	return done;
}

/*
 * Refresh every entry of a table of this database (see the design note);
 * the caller holds a lock on it that conflicts with loads, and gave ls
 * its columns.  Returns the blocks refreshed.
 */
static uint32
gx_refresh_entries(GxLoadState *ls)
{
	int		   *idx = (int *) palloc(sizeof(int) * gx_cache->nentries);
	int			n = 0;
	uint32		done = 0;

	LWLockAcquire(gx_cache->lock, LW_SHARED);
	for (int i = 0; i < gx_cache->nentries; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];

		/* every entry: its stale blocks may not have been found yet */
		if (e->state == GX_CE_READY && e->dbid == MyDatabaseId &&
			e->relid == RelationGetRelid(ls->rel))
			idx[n++] = i;
	}
	LWLockRelease(gx_cache->lock);
	for (int i = 0; i < n; i++)
		done += gx_refresh_entry(ls, idx[i]);
	pfree(idx);
	return done;
}

/*
 * Refresh a table's entries (the background worker: without 'wait', give
 * up at once when the table is locked by a load, a refresh or a VACUUM).
 * Returns the blocks refreshed.
 */
uint32
gx_cache_refresh_rel(Relation rel, bool wait)
{
	GxLoadState ls;
	uint32		done;
	Oid			relid = RelationGetRelid(rel);

	if (wait)
		LockRelationOid(relid, ShareUpdateExclusiveLock);
	else if (!ConditionalLockRelationOid(relid, ShareUpdateExclusiveLock))
		return 0;
	gx_load_open(&ls, relid, NoLock);
	done = gx_refresh_entries(&ls);
	if (BufferIsValid(ls.vmbuf))
		ReleaseBuffer(ls.vmbuf);
	table_close(ls.rel, NoLock);
	UnlockRelationOid(relid, ShareUpdateExclusiveLock);
	return done;
}

/* SQL: gpuext_cache_refresh(regclass) -> blocks reloaded into the cache */
Datum
gpuext_cache_refresh(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	Relation	rel;
	uint32		done;

	gx_cache_require();
	gx_cache_check_owner(relid);
	if (gx_cache->nunits == 0)
		PG_RETURN_INT64(0);
	gx_cache_prevent_during_recovery();
	rel = relation_open(relid, AccessShareLock);
	done = gx_cache_refresh_rel(rel, true);
	relation_close(rel, AccessShareLock);
	PG_RETURN_INT64((int64) done);
}
