/*
 * cache.cpp - the shared device-resident column cache.
 *
 * Design note
 * -----------
 * The gpuext service owns a pool of gpuext.cache_size bytes on the device
 * that runs the filters (GPU memory, or the service's memory for the CPU
 * device), split into fixed units of GX_CACHE_UNIT_BYTES.  An entry is one
 * unit: the deformed columns (values + NULL bitmap) of every tuple of a
 * range of heap blocks, and a row map (block delta << 16 | line pointer)
 * naming each row's tuple.  The directory (GxCache, shared memory, one
 * LWLock) says which unit holds what; the service never reads it except to
 * reset it when it starts (a new service has an empty pool).
 *
 * Validity.  An entry only ever holds blocks that are all-visible in the
 * visibility map: every tuple on them is visible to every snapshot, now and
 * later, so the entry is what any MVCC snapshot sees of those blocks as
 * long as no block changed.  Every change to a heap page (insert, update,
 * delete, by anyone, COPY and logical replication apply included, committed
 * or not) clears the block's all-visible bit before it touches the page,
 * and the bit can only come back through visibilitymap_set(), which
 * advances the VM page's LSN (permanent relations only: that is why only
 * they are cached).  So an entry stays valid while its blocks' bits are
 * all set and its VM pages (at most GX_CACHE_MAX_VM) still carry the LSN
 * they had before the blocks were read.  A scan checks this per entry by
 * reading the VM page (one VM page covers 32672 heap blocks), never the
 * heap.  A change made after the check is by a transaction the scan's
 * snapshot cannot see.  TRUNCATE, VACUUM FULL, CLUSTER and rewriting
 * ALTER TABLEs give the relation a new relfilenode, which is part of the
 * key; DROP leaves entries nobody finds until they are evicted.
 *
 * Loading (gpuext_cache_load) takes ShareUpdateExclusiveLock (one loader
 * per table, no concurrent VACUUM), evicts the relation's old entries,
 * then walks the heap: each run of all-visible blocks is sent as page
 * chunks (the device deforms them, gx_chunk_ext LOAD) into an entry; the
 * VM LSNs are taken before the blocks are read and checked again at the
 * end, so a change that raced with the load drops that entry.
 *
 * Eviction is LRU over READY entries; an entry a staging slot refers to
 * (a running query reads it) is never evicted.
 */
#include "gpuext.h"
#include "compat.h"
#include "cache.h"
#include "executor.h"

extern "C"
{
#include "access/heapam.h"
#include "access/visibilitymap.h"
#include "access/xlog.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/shmem.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

PGDLLEXPORT Datum gpuext_cache_load(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum gpuext_cache_evict(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum gpuext_cache_info(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_cache_load);
PG_FUNCTION_INFO_V1(gpuext_cache_evict);
PG_FUNCTION_INFO_V1(gpuext_cache_info);
}

GxCache    *gx_cache = NULL;

/* entry this backend is loading (read after a longjmp: not in a local) */
static int	gx_loading_entry = -1;

/* visibility map geometry (private to visibilitymap.c) */
#define GX_VM_MAPSIZE (BLCKSZ - MAXALIGN(SizeOfPageHeaderData))
#define GX_VM_BLOCKS_PER_PAGE ((BlockNumber) (GX_VM_MAPSIZE * 4))
/* the all-visible bits of 32 blocks (2 bits a block, the same in every byte) */
#define GX_VM_ALL_VISIBLE_WORD UINT64CONST(0x5555555555555555)
StaticAssertDecl(VISIBILITYMAP_ALL_VISIBLE == 0x01 && GX_VM_BLOCKS_PER_PAGE % 32 == 0,
				 "the visibility map layout gx_vm_check_range reads");

static int
gx_cache_nunits(void)
{
	return (int) (((Size) gx_cache_size_mb * 1024 * 1024) / GX_CACHE_UNIT_BYTES);
}

/* shared memory for the directory */
Size
gx_cache_shmem_size(void)
{
	return add_size(offsetof(GxCache, entries),
					mul_size(sizeof(GxCacheEntry), gx_cache_nunits()));
}

/* shmem_request_hook part: the directory's LWLock */
void
gx_cache_shmem_request(void)
{
	RequestNamedLWLockTranche("gpuext cache", 1);
}

/* shmem_startup_hook part: create or attach (AddinShmemInitLock held) */
void
gx_cache_shmem_init(void)
{
	bool		found;

	gx_cache = (GxCache *) ShmemInitStruct("gpuext cache", gx_cache_shmem_size(), &found);
	if (!found)
	{
		memset(gx_cache, 0, gx_cache_shmem_size());
		gx_cache->lock = &(GetNamedLWLockTranche("gpuext cache"))->lock;
		gx_cache->nunits = gx_cache_nunits();
		gx_cache->device = -1;
		pg_atomic_init_u64(&gx_cache->clock, 1);
		for (int i = 0; i < gx_cache->nunits; i++)
		{
			pg_atomic_init_u64(&gx_cache->entries[i].hits, 0);
			pg_atomic_init_u64(&gx_cache->entries[i].last_used, 0);
		}
	}
}

/* a starting service has an empty pool: forget every entry */
void
gx_cache_service_reset(int device)
{
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	for (int i = 0; i < gx_cache->nunits; i++)
	{
		gx_cache->entries[i].state = GX_CE_FREE;
		gx_cache->entries[i].generation++;
		gx_cache->entries[i].addr = 0;	/* died with the old service */
	}
	gx_cache->device = gx_cache->nunits > 0 ? device : -1;
	LWLockRelease(gx_cache->lock);
}

/*
 * Service: the memory of the cache entry a CACHE_LOAD or CACHE_SCAN task
 * names, into ctx.  The cache is a client of the device memory pool: an
 * entry's unit is taken at its first load and kept for later loads of
 * that unit, within gpuext.device_memory.  Returns an error message (in
 * err) for the task, or NULL; *oom tells whether memory was the reason.
 */
const char *
gx_cache_task_memory(const gx_chunk *c, int device, gx_task_ctx *ctx,
					 char *err, size_t errlen, bool *oom)
{
	GxCacheEntry *e;

	*oom = false;
	if (c->kind != GX_TASK_CACHE_LOAD && c->kind != GX_TASK_CACHE_SCAN)
		return NULL;
	if (gx_cache->nunits == 0 || device != gx_cache->device ||
		c->ext.entry < 0 || c->ext.entry >= gx_cache->nunits)
		return "task refers to a cache entry that does not exist";
	e = &gx_cache->entries[c->ext.entry];
	if (e->state != (c->kind == GX_TASK_CACHE_LOAD ? GX_CE_LOADING : GX_CE_READY))
		return "task refers to a cache entry in the wrong state";
	if (e->addr == 0)
	{
		void	   *addr = NULL;
		gx_status	st;

		if (c->kind != GX_TASK_CACHE_LOAD)
			return "task reads a cache entry that has no memory";
		if (gx_memory_over_limit(device, GX_CACHE_UNIT_BYTES))
		{
			*oom = true;
			snprintf(err, errlen, "out of device memory for a cache entry: %d MB more would exceed gpuext.device_memory",
					 (int) (GX_CACHE_UNIT_BYTES >> 20));
			return err;
		}
		st = gx_mem_alloc(device, GX_CACHE_UNIT_BYTES, &addr, err, errlen);
		if (st != GX_OK)
		{
			*oom = (st == GX_NO_MEMORY);
			return err;
		}
		e->addr = (uint64) (uintptr_t) addr;
		pg_atomic_fetch_add_u64(&gx_engine->mem[device].cache, GX_CACHE_UNIT_BYTES);
	}
	ctx->entry = (char *) (uintptr_t) e->addr;
	ctx->entry_bytes = GX_CACHE_UNIT_BYTES;
	return NULL;
}

/* backend exit: free entries this backend was loading */
void
gx_cache_backend_exit(void)
{
	if (gx_cache == NULL || gx_cache->nunits == 0)
		return;
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	for (int i = 0; i < gx_cache->nunits; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];

		if (e->state == GX_CE_LOADING && e->loader_pid == MyProcPid)
		{
			e->state = GX_CE_FREE;
			e->generation++;
		}
	}
	LWLockRelease(gx_cache->lock);
}

/* does a staging slot refer to entry idx (lock held)? */
bool
gx_cache_slot_in_use(int idx)
{
	for (int i = 0; i < gx_shared->nslots; i++)
	{
		GxSlot	   *s = &gx_shared->slots[i];

		if (s->state != GX_SLOT_FREE && s->cache_entry == idx)
			return true;
	}
	return false;
}

/* mark an entry recently used */
void
gx_cache_touch(int idx)
{
	GxCacheEntry *e = &gx_cache->entries[idx];

	pg_atomic_fetch_add_u64(&e->hits, 1);
	pg_atomic_write_u64(&e->last_used, pg_atomic_fetch_add_u64(&gx_cache->clock, 1));
}

static void
gx_cache_require(void)
{
	if (gx_shared == NULL || gx_cache == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("gpuext must be loaded via shared_preload_libraries")));
}

/* ---------------------------------------------------------------------- */
/* validity through the visibility map                                     */
/* ---------------------------------------------------------------------- */

/*
 * Read the VM page covering heap blocks [lo, hi) (one VM page): its LSN,
 * and whether every block but the holes is all-visible.  *vmbuf stays
 * pinned for the next call.
 */
static bool
gx_vm_check_range(Relation rel, Buffer *vmbuf, BlockNumber lo, BlockNumber hi,
				  XLogRecPtr *lsn, const BlockNumber *holes, int nholes)
{
	Page		page;
	uint8	   *map;
	bool		ok = true;
	int			h = 0;

	(void) visibilitymap_get_status(rel, lo, vmbuf);
	if (!BufferIsValid(*vmbuf))
		return false;
	LockBuffer(*vmbuf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(*vmbuf);
	*lsn = PageGetLSN(page);
	map = (uint8 *) PageGetContents(page);
	for (BlockNumber b = lo; b < hi && ok;)
	{
		uint32		r = b % GX_VM_BLOCKS_PER_PAGE;

		/* holes (ascending) are not in the entry: they may change */
		while (h < nholes && holes[h] < b)
			h++;
		if (h < nholes && holes[h] == b)
		{
			b++;
			continue;
		}
		/* 32 blocks without a hole: one 64-bit word of the map */
		if ((r % 32) == 0 && b + 32 <= hi && (h >= nholes || holes[h] >= b + 32))
		{
			uint64		w;

			memcpy(&w, map + r / 4, sizeof(w));
			if ((w & GX_VM_ALL_VISIBLE_WORD) != GX_VM_ALL_VISIBLE_WORD)
				ok = false;
			b += 32;
			continue;
		}
		if (((map[r / 4] >> ((r % 4) * 2)) & VISIBILITYMAP_ALL_VISIBLE) == 0)
			ok = false;
		b++;
	}
	LockBuffer(*vmbuf, BUFFER_LOCK_UNLOCK);
	return ok;
}

/*
 * Check [start, start + nblocks) against the VM: all-visible, and each VM
 * page's LSN equal to lsn[k] (record = true: store them instead).
 */
static bool
gx_vm_check(Relation rel, Buffer *vmbuf, BlockNumber start, uint32 nblocks,
			int *nvm, BlockNumber *vm_block, XLogRecPtr *lsn, bool record,
			const BlockNumber *holes, int nholes)
{
	BlockNumber end = start + nblocks;
	int			k = 0;

	for (BlockNumber lo = start; lo < end; k++)
	{
		BlockNumber vmpage = lo / GX_VM_BLOCKS_PER_PAGE;
		BlockNumber hi = Min(end, (vmpage + 1) * GX_VM_BLOCKS_PER_PAGE);
		XLogRecPtr	cur;

		if (k >= GX_CACHE_MAX_VM)
			return false;
		if (!gx_vm_check_range(rel, vmbuf, lo, hi, &cur, holes, nholes))
			return false;
		if (record)
		{
			vm_block[k] = vmpage;
			lsn[k] = cur;
		}
		else if (k >= *nvm || vm_block[k] != vmpage || lsn[k] != cur)
			return false;
		lo = hi;
	}
	if (record)
		*nvm = k;
	return k == *nvm;
}

/* is a scan's cache entry still exactly what the heap holds? */
bool
gx_cache_valid(Relation rel, Buffer *vmbuf, const GxCacheRef *r)
{
	int			nvm = r->nvm;
	BlockNumber vm_block[GX_CACHE_MAX_VM];
	XLogRecPtr	lsn[GX_CACHE_MAX_VM];

	memcpy(vm_block, r->vm_block, sizeof(vm_block));
	memcpy(lsn, r->vm_lsn, sizeof(lsn));
	return gx_vm_check(rel, vmbuf, r->start, r->nblocks, &nvm, vm_block, lsn, false,
					   r->holes, r->nholes);
}

/* can this relation be cached / read from the cache at all? */
bool
gx_cache_rel_ok(Relation rel)
{
	return rel->rd_rel->relkind == RELKIND_RELATION &&
		rel->rd_rel->relpersistence == RELPERSISTENCE_PERMANENT &&
		RelationNeedsWAL(rel) && !RecoveryInProgress();
}

/* ---------------------------------------------------------------------- */
/* scans                                                                   */
/* ---------------------------------------------------------------------- */

/*
 * Make staging slot 'slot' refer to the entry, so that it is not evicted
 * while the chunk runs.  False when the entry changed since the scan began.
 */
bool
gx_cache_pin(int slot, GxCacheRef *r)
{
	GxCacheEntry *e = &gx_cache->entries[r->idx];
	bool		ok;

	LWLockAcquire(gx_cache->lock, LW_SHARED);
	ok = e->state == GX_CE_READY && e->generation == r->generation;
	if (ok)
		gx_shared->slots[slot].cache_entry = r->idx;
	LWLockRelease(gx_cache->lock);
	return ok;
}

/*
 * Planner: the fraction of a relation's blocks held by ready cache entries
 * of its current relfilenode (not checked for validity), when scans on
 * the configured device would read them; else 0.
 */
double
gx_cache_fraction(Oid relid, BlockNumber pages)
{
	Relation	rel;
	double		blocks = 0;
	Oid			filenode;
	int			device;

	if (!gx_use_cache || gx_cache == NULL || gx_cache->nunits == 0 || pages == 0 ||
		gx_shared == NULL || gx_shared->gpu_state == 0)
		return 0.0;
	device = (gx_device_choice == GX_DEVICE_CPU || gx_shared->gpu_state != 1) ?
		GX_DEV_CPU : GX_DEV_GPU;
	if (device != gx_cache->device)
		return 0.0;
	rel = RelationIdGetRelation(relid);
	if (rel == NULL)
		return 0.0;
	filenode = GX_REL_FILENUMBER(rel);
	RelationClose(rel);
	LWLockAcquire(gx_cache->lock, LW_SHARED);
	for (int i = 0; i < gx_cache->nunits; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];

		if (e->state == GX_CE_READY && e->dbid == MyDatabaseId && e->relid == relid &&
			e->relfilenode == filenode)
			blocks += e->nblocks;
	}
	LWLockRelease(gx_cache->lock);
	return Min(blocks / pages, 1.0);
}

/* ---------------------------------------------------------------------- */
/* loading                                                                 */
/* ---------------------------------------------------------------------- */

typedef struct GxLoadState
{
	Relation	rel;
	TableScanDesc scan;
	Buffer		vmbuf;
	int			ncols;
	AttrNumber	attno[GX_CACHE_MAX_COLS];
	int			gxtype[GX_CACHE_MAX_COLS];
	Oid			typid[GX_CACHE_MAX_COLS];
	gx_attr    *atts;
	int			maxatt;
	uint32		cap_rows;		/* rows per entry */
	uint64		values_off[GX_CACHE_MAX_COLS];	/* entry layout */
	uint64		nulls_off[GX_CACHE_MAX_COLS];
	uint64		rowmap_off;
	uint64		entry_bytes;
	uint64		load_clock;		/* entries touched since are this load's */
	int			entry;			/* entry being loaded, or -1 */
	int			device;
} GxLoadState;

/* entry layout for cap rows (gx_layout.h); returns the bytes used */
static uint64
gx_load_layout(GxLoadState *ls, uint32 cap)
{
	return gx_entry_layout(ls->gxtype, ls->ncols, cap, ls->values_off, ls->nulls_off,
						   &ls->rowmap_off);
}

/* the columns a load caches: every fixed-width by-value supported type */
static void
gx_load_columns(GxLoadState *ls)
{
	TupleDesc	desc = RelationGetDescr(ls->rel);

	ls->ncols = 0;
	for (int a = 1; a <= desc->natts && a <= GX_MAX_DEFORM_ATTS; a++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, a - 1);
		int			gxtype;

		if (att->attisdropped || !att->attbyval || att->attlen <= 0 ||
			!gx_type_supported(att->atttypid, &gxtype) ||
			(int) gx_type_width(gxtype) != att->attlen)
			continue;
		if (ls->ncols == GX_CACHE_MAX_COLS)
			break;
		ls->attno[ls->ncols] = a;
		ls->gxtype[ls->ncols] = gxtype;
		ls->typid[ls->ncols] = att->atttypid;
		ls->ncols++;
	}
}

/*
 * Take an entry for a load: a free one, else the least recently used ready
 * entry that no slot refers to and that this load did not fill.  -1 when
 * none can be had.
 */
static int
gx_cache_take(GxLoadState *ls)
{
	int			best = -1;
	uint64		best_used = PG_UINT64_MAX;

	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	for (int i = 0; i < gx_cache->nunits; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];
		uint64		used = pg_atomic_read_u64(&e->last_used);

		/* an abandoned chunk may still be writing a free entry */
		if (e->state == GX_CE_FREE && !gx_cache_slot_in_use(i))
		{
			best = i;
			break;
		}
		if (e->state != GX_CE_READY || used >= ls->load_clock ||
			gx_cache_slot_in_use(i))
			continue;
		if (used < best_used)
		{
			best_used = used;
			best = i;
		}
	}
	if (best >= 0)
	{
		GxCacheEntry *e = &gx_cache->entries[best];

		e->state = GX_CE_LOADING;
		e->generation++;
		e->loader_pid = MyProcPid;
		e->dbid = MyDatabaseId;
		e->relid = RelationGetRelid(ls->rel);
		e->relfilenode = GX_REL_FILENUMBER(ls->rel);
		e->nrows = 0;
		e->nblocks = 0;
		e->cap_rows = ls->cap_rows;
		e->ncols = ls->ncols;
		for (int c = 0; c < ls->ncols; c++)
		{
			e->attnum[c] = ls->attno[c];
			e->typid[c] = ls->typid[c];
			e->gxtype[c] = (uint8) ls->gxtype[c];
			e->values_off[c] = ls->values_off[c];
			e->nulls_off[c] = ls->nulls_off[c];
		}
		e->rowmap_off = ls->rowmap_off;
		e->bytes = ls->entry_bytes;
		pg_atomic_write_u64(&e->hits, 0);
		pg_atomic_write_u64(&e->last_used, pg_atomic_fetch_add_u64(&gx_cache->clock, 1));
	}
	LWLockRelease(gx_cache->lock);
	return best;
}

/* end a load of entry idx: READY with its extent, or FREE */
static void
gx_cache_finish(int idx, bool ok, BlockNumber start, uint32 nblocks, uint32 nrows,
				int nvm, const BlockNumber *vm_block, const XLogRecPtr *lsn,
				const BlockNumber *holes, int nholes)
{
	GxCacheEntry *e = &gx_cache->entries[idx];

	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	if (ok)
	{
		e->start = start;
		e->nblocks = nblocks;
		e->nrows = nrows;
		e->nvm = nvm;
		memcpy(e->vm_block, vm_block, sizeof(BlockNumber) * GX_CACHE_MAX_VM);
		memcpy(e->vm_lsn, lsn, sizeof(XLogRecPtr) * GX_CACHE_MAX_VM);
		e->nholes = nholes;
		memcpy(e->holes, holes, sizeof(BlockNumber) * nholes);
		e->state = GX_CE_READY;
	}
	else
	{
		e->state = GX_CE_FREE;
		e->generation++;
	}
	e->loader_pid = 0;
	LWLockRelease(gx_cache->lock);
}

/*
 * Evict every entry of a relation (any relfilenode) of this database,
 * waiting for queries that read one.  Returns how many were evicted.
 */
static int
gx_cache_evict_rel(Oid relid)
{
	int			evicted = 0;

	for (;;)
	{
		bool		busy = false;

		LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
		for (int i = 0; i < gx_cache->nunits; i++)
		{
			GxCacheEntry *e = &gx_cache->entries[i];

			if (e->state != GX_CE_READY || e->dbid != MyDatabaseId || e->relid != relid)
				continue;
			if (gx_cache_slot_in_use(i))
			{
				busy = true;
				continue;
			}
			e->state = GX_CE_FREE;
			e->generation++;
			evicted++;
		}
		LWLockRelease(gx_cache->lock);
		if (!busy)
			return evicted;
		ConditionVariableTimedSleep(&gx_shared->done_cv, 10, PG_WAIT_EXTENSION);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Free every ready entry of a relation of this database at once, without
 * waiting (the loader's error path: only this load can have made them,
 * since it evicted the relation first and holds a self-conflicting lock).
 * A chunk still reading one keeps its memory: an entry is reused only once
 * no slot refers to it (gx_cache_take), and the new generation fails any
 * later pin.
 */
static void
gx_cache_drop_rel(Oid relid)
{
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	for (int i = 0; i < gx_cache->nunits; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];

		if (e->state != GX_CE_READY || e->dbid != MyDatabaseId || e->relid != relid)
			continue;
		e->state = GX_CE_FREE;
		e->generation++;
	}
	LWLockRelease(gx_cache->lock);
}

/* is heap block blk all-visible in the VM? */
static bool
gx_load_block_ok(GxLoadState *ls, BlockNumber blk)
{
	return (visibilitymap_get_status(ls->rel, blk, &ls->vmbuf) & VISIBILITYMAP_ALL_VISIBLE) != 0;
}

/*
 * Fill one LOAD chunk in a staging slot with the all-visible pages from
 * *blk on (at most up to 'end' and until the entry has cap rows), submit it
 * and wait.  Returns the rows added; *blk is the next block to read.
 */
static uint32
gx_load_chunk(GxLoadState *ls, BlockNumber *blk, BlockNumber end, BlockNumber entry_start,
			  uint32 row0)
{
	HeapScanDesc hs = (HeapScanDesc) ls->scan;
	uint64		slot_bytes = gx_shared->slot_bytes;
	uint64		pages_off = gx_page_batch_pages_off();
	uint32	   *map = (uint32 *) palloc(sizeof(uint32) * MaxHeapTuplesPerPage);
	int			slot = gx_slot_acquire(true);
	uint32		generation = gx_service_generation();
	gx_chunk   *c = gx_slot_chunk(slot);
	gx_deform_hdr *d = (gx_deform_hdr *) ((char *) c + gx_page_batch_deform_off());
	uint32		n = 0;
	uint32		np = 0;
	BlockNumber first = *blk;

	memset(c, 0, sizeof(gx_chunk));
	gx_task_init(c, GX_TASK_CACHE_LOAD, 0);
	while (*blk < end && gx_load_block_ok(ls, *blk))
	{
		uint32		k;
		uint64		need;
		uint32	   *rowmap;

		gx_heap_read_page(ls->scan, *blk);
		k = (uint32) hs->rs_ntuples;
		/* pages, row map, columns and a (small) result area must fit */
		need = gx_page_batch_bytes(np + 1, BLCKSZ, n + k, ls->gxtype, ls->ncols);
		if (need > slot_bytes || row0 + n + k > ls->cap_rows)
			break;
		memcpy((char *) c + pages_off + (uint64) np * BLCKSZ, BufferGetPage(hs->rs_cbuf), BLCKSZ);
		/* the row map goes after the pages: stage it, copied below */
		rowmap = (uint32 *) repalloc(map, sizeof(uint32) * (n + k));
		map = rowmap;
		for (uint32 i = 0; i < k; i++)
			map[n + i] = (np << 16) | hs->rs_vistuples[i];
		n += k;
		np++;
		(*blk)++;
	}

	c->nrows = n;
	c->ncols = ls->ncols;
	for (int i = 0; i < ls->ncols; i++)
		c->cols[i].type = ls->gxtype[i];
	gx_layout_page_batch(c, np, BLCKSZ);
	d->natts = ls->maxatt;
	memcpy(d->atts, ls->atts, sizeof(gx_attr) * ls->maxatt);
	memcpy((char *) c + d->rowmap_off, map, sizeof(uint32) * n);
	pfree(map);

	c->ext.count_only = 1;
	c->ext.entry = ls->entry;
	c->ext.row0 = row0;
	c->ext.block0 = first - entry_start;
	c->ext.entry_rows = ls->cap_rows;
	c->ext.rowmap_off = ls->rowmap_off;
	for (int i = 0; i < ls->ncols; i++)
	{
		c->ext.values_off[i] = ls->values_off[i];
		c->ext.nulls_off[i] = ls->nulls_off[i];
	}
	if (n == 0)
	{
		gx_slot_release(slot);
		return 0;
	}
	gx_shared->slots[slot].cache_entry = ls->entry;
	gx_slot_submit(slot, ls->device);
	gx_slot_wait(slot, generation, 0);
	{
		gx_result  *res = gx_chunk_result(c);
		uint64		error = res->error;

		gx_slot_release(slot);
		if (error != GX_NO_ERROR)
			gx_raise_error((int) (error & 0xff));
	}
	return n;
}

/*
 * Load one entry from block *blk on (an all-visible block).  Returns the
 * rows cached (0 when the entry was dropped because a change raced with
 * the load); *blk is the first block not in the entry.
 */
static uint64
gx_load_entry(GxLoadState *ls, BlockNumber *blk, BlockNumber nblocks)
{
	BlockNumber start = *blk;
	BlockNumber end = Min(nblocks, start + Min(GX_VM_BLOCKS_PER_PAGE, (BlockNumber) 0xFFFF));
	int			nvm = 0;
	BlockNumber vm_block[GX_CACHE_MAX_VM];
	XLogRecPtr	lsn[GX_CACHE_MAX_VM];
	uint32		rows = 0;
	bool		ok;
	BlockNumber holes[GX_CACHE_MAX_HOLES];
	int			nholes = 0;

	/* the VM pages' LSNs before any block is read (bits checked at the end) */
	memset(vm_block, 0, sizeof(vm_block));
	memset(lsn, 0, sizeof(lsn));
	for (BlockNumber vp = start / GX_VM_BLOCKS_PER_PAGE;
		 vp <= (end - 1) / GX_VM_BLOCKS_PER_PAGE && nvm < GX_CACHE_MAX_VM; vp++)
	{
		BlockNumber lo = Max(start, vp * GX_VM_BLOCKS_PER_PAGE);
		XLogRecPtr	cur;

		(void) gx_vm_check_range(ls->rel, &ls->vmbuf, lo, lo + 1, &cur, NULL, 0);
		vm_block[nvm] = vp;
		lsn[nvm++] = cur;
	}

	/*
	 * Chunks of consecutive all-visible blocks; a block that is not
	 * all-visible becomes a hole of the entry (scans read it from the heap)
	 * as long as there is room, else it ends the entry.
	 */
	for (;;)
	{
		BlockNumber before = *blk;

		CHECK_FOR_INTERRUPTS();
		if (*blk >= end || rows >= ls->cap_rows)
			break;
		if (!gx_load_block_ok(ls, *blk))
		{
			if (nholes >= GX_CACHE_MAX_HOLES)
				break;
			holes[nholes++] = (*blk)++;
			continue;
		}
		rows += gx_load_chunk(ls, blk, end, start, rows);
		if (*blk == before)
			break;				/* the block does not fit the entry */
	}
	/* trailing holes are not part of the entry */
	while (nholes > 0 && holes[nholes - 1] == *blk - 1)
	{
		nholes--;
		(*blk)--;
	}
	if (*blk == start)
	{
		/* the first block alone does not fit: cannot cache it */
		gx_cache_finish(ls->entry, false, 0, 0, 0, 0, vm_block, lsn, NULL, 0);
		ls->entry = -1;
		(*blk)++;
		return 0;
	}
	/* keep only the VM pages the entry's blocks use, then check them */
	{
		int			used = (int) ((*blk - 1) / GX_VM_BLOCKS_PER_PAGE - start / GX_VM_BLOCKS_PER_PAGE) + 1;
		int			nvm2 = used;

		ok = used <= nvm &&
			gx_vm_check(ls->rel, &ls->vmbuf, start, *blk - start, &nvm2, vm_block, lsn, false,
						holes, nholes);
		nvm = used;
	}
	gx_cache_finish(ls->entry, ok, start, *blk - start, rows, nvm, vm_block, lsn, holes, nholes);
	ls->entry = -1;
	return ok ? rows : 0;
}

/*
 * Loading and evicting a table take room in a cache that every user of
 * the server shares: they need the table's ownership (superusers own
 * everything); seeing it in gpuext_cache needs SELECT.
 */
static void
gx_cache_check_owner(Oid relid)
{
	if (!GX_REL_OWNERCHECK(relid, GetUserId()))
	{
		char	   *name = get_rel_name(relid);

		if (name == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation with OID %u does not exist", relid)));
		aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, name);
	}
}

/* SQL: gpuext_cache_load(regclass) -> rows now cached */
Datum
gpuext_cache_load(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	GxLoadState ls;
	BlockNumber blk = 0;
	BlockNumber nblocks;
	uint64		rows = 0;
	int64		skipped = 0;
	bool		full = false;
	uint32		cap;

	gx_cache_require();
	if (gx_cache->nunits == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the gpuext cache is off"),
				 errhint("Set gpuext.cache_size (server start) to a size of at least 128MB.")));
	gx_cache_check_owner(relid);

	memset(&ls, 0, sizeof(ls));
	ls.entry = -1;
	ls.rel = table_open(relid, ShareUpdateExclusiveLock);
	if (ls.rel->rd_rel->relkind != RELKIND_RELATION)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table", RelationGetRelationName(ls.rel))));
	if (!gx_cache_rel_ok(ls.rel))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot cache \"%s\": only permanent tables outside recovery are cached",
						RelationGetRelationName(ls.rel)),
				 errdetail("Cache validity is tracked through WAL-logged visibility map changes.")));
	gx_load_columns(&ls);
	if (ls.ncols == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("table \"%s\" has no column of a type the device reads",
						RelationGetRelationName(ls.rel))));
	ls.atts = (gx_attr *) palloc0(sizeof(gx_attr) * GX_MAX_DEFORM_ATTS);
	if (!gx_deform_atts(RelationGetDescr(ls.rel), ls.ncols, ls.attno, ls.gxtype,
						ls.atts, &ls.maxatt))
		elog(ERROR, "gpuext: cached columns cannot be deformed on the device");
	ls.device = gx_resolve_device();
	if (gx_cache->device != ls.device)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the gpuext cache lives on the %s device, but gpuext.device selects the %s",
						gx_cache->device == GX_DEV_GPU ? "GPU" : "CPU",
						ls.device == GX_DEV_GPU ? "GPU" : "CPU")));

	/* rows per entry: what fits a unit, and a scan's result in a slot */
	cap = (uint32) Min((uint64) (gx_shared->slot_bytes - sizeof(gx_chunk) - 65536) / 4 - 1024,
					   (uint64) 4 * 1024 * 1024);
	cap &= ~(uint32) 1023;
	while (cap > 1024 && gx_load_layout(&ls, cap) > GX_CACHE_UNIT_BYTES)
		cap -= 1024;
	ls.cap_rows = cap;
	ls.entry_bytes = gx_load_layout(&ls, cap);

	(void) gx_cache_evict_rel(relid);
	ls.load_clock = pg_atomic_read_u64(&gx_cache->clock);

	ls.scan = table_beginscan_strat(ls.rel, GetActiveSnapshot(), 0, NULL, true, false);
	if ((ls.scan->rs_flags & SO_ALLOW_PAGEMODE) == 0)
		elog(ERROR, "gpuext: cache load needs a page-mode scan");
	nblocks = ((HeapScanDesc) ls.scan)->rs_nblocks;

	PG_TRY();
	{
		while (blk < nblocks)
		{
			CHECK_FOR_INTERRUPTS();
			if (!gx_load_block_ok(&ls, blk))
			{
				skipped++;
				blk++;
				continue;
			}
			ls.entry = gx_cache_take(&ls);
			gx_loading_entry = ls.entry;
			if (ls.entry < 0)
			{
				full = true;
				break;
			}
			rows += gx_load_entry(&ls, &blk, nblocks);
			gx_loading_entry = -1;
		}
	}
	PG_CATCH();
	{
		/* all or nothing: a load that fails or is cancelled leaves none */
		if (gx_loading_entry >= 0)
			gx_cache_finish(gx_loading_entry, false, 0, 0, 0, 0, NULL, NULL, NULL, 0);
		gx_loading_entry = -1;
		gx_cache_drop_rel(relid);
		PG_RE_THROW();
	}
	PG_END_TRY();

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
	PG_RETURN_INT64((int64) rows);
}

/* SQL: gpuext_cache_evict(regclass) -> entries evicted */
Datum
gpuext_cache_evict(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);

	gx_cache_require();
	gx_cache_check_owner(relid);
	if (gx_cache->nunits == 0)
		PG_RETURN_INT32(0);
	PG_RETURN_INT32(gx_cache_evict_rel(relid));
}

/* per-relation totals of the directory, for gpuext_cache_info */
typedef struct GxCacheSum
{
	Oid			relid;
	Oid			relfilenode;
	int			chunks;
	int			loading;
	int64		rows;
	int64		bytes;
	int64		hits;
	int			ncols;
	int16		attnum[GX_CACHE_MAX_COLS];
	int			nrefs;			/* READY entries, for the validity check */
	GxCacheRef *refs;
} GxCacheSum;

/* how many of a relation's entries are valid now */
static int
gx_cache_count_valid(GxCacheSum *s)
{
	Relation	rel = try_relation_open(s->relid, AccessShareLock);
	Buffer		vmbuf = InvalidBuffer;
	int			valid = 0;

	if (rel == NULL)
		return 0;
	if (GX_REL_FILENUMBER(rel) == s->relfilenode && gx_cache_rel_ok(rel))
	{
		BlockNumber nblocks = RelationGetNumberOfBlocks(rel);

		for (int i = 0; i < s->nrefs; i++)
			if (s->refs[i].start + s->refs[i].nblocks <= nblocks &&
				gx_cache_valid(rel, &vmbuf, &s->refs[i]))
				valid++;
	}
	if (BufferIsValid(vmbuf))
		ReleaseBuffer(vmbuf);
	relation_close(rel, AccessShareLock);
	return valid;
}

/*
 * SQL: gpuext_cache_info() -> one row per cached table of this database
 * the user may SELECT from: columns, chunks, rows, bytes, hits, state:
 * ready (every entry valid), partly valid, not valid (blocks changed since
 * the load: scans read them from the heap; load the table again after a
 * VACUUM), loading, or stale (the table was rewritten or dropped).
 */
Datum
gpuext_cache_info(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxCacheSum *sums;
	int			nsums = 0;

	InitMaterializedSRF(fcinfo, 0);
	gx_cache_require();
	if (gx_cache->nunits == 0)
		return (Datum) 0;
	sums = (GxCacheSum *) palloc0(sizeof(GxCacheSum) * gx_cache->nunits);

	LWLockAcquire(gx_cache->lock, LW_SHARED);
	for (int i = 0; i < gx_cache->nunits; i++)
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
			s->refs = (GxCacheRef *) palloc(sizeof(GxCacheRef) * gx_cache->nunits);
		}
		if (e->state == GX_CE_LOADING)
			s->loading++;
		else
		{
			GxCacheRef *r = &s->refs[s->nrefs++];

			r->start = e->start;
			r->nblocks = e->nblocks;
			r->nvm = e->nvm;
			memcpy(r->vm_block, e->vm_block, sizeof(r->vm_block));
			memcpy(r->vm_lsn, e->vm_lsn, sizeof(r->vm_lsn));
			r->nholes = e->nholes;
			memcpy(r->holes, e->holes, sizeof(BlockNumber) * e->nholes);
			s->chunks++;
			s->rows += e->nrows;
			s->bytes += (int64) e->bytes;
		}
		s->hits += (int64) pg_atomic_read_u64(&e->hits);
	}
	LWLockRelease(gx_cache->lock);

	for (int k = 0; k < nsums; k++)
	{
		GxCacheSum *s = &sums[k];
		HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(s->relid));
		Datum		values[7];
		bool		nulls[7];
		const char *state;
		StringInfoData cols;

		if (!HeapTupleIsValid(tup))
		{
			/* dropped: only superusers see what is left of it */
			if (!superuser())
				continue;
			state = "stale";
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
				state = "stale";
			else
			{
				int			valid = gx_cache_count_valid(s);

				state = valid == s->nrefs ? "ready" : valid > 0 ? "partly valid" : "not valid";
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
		values[0] = ObjectIdGetDatum(s->relid);
		values[1] = CStringGetTextDatum(cols.data);
		values[2] = Int32GetDatum(s->chunks);
		values[3] = Int64GetDatum(s->rows);
		values[4] = Int64GetDatum(s->bytes);
		values[5] = Int64GetDatum(s->hits);
		values[6] = CStringGetTextDatum(state);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
