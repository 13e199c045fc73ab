/*
 * directory.cpp - the column cache's directory in shared memory: units and
 * granules of device memory, entries, LRU eviction, pins.
 *
 * Design note
 * -----------
 * The gpuext service owns the cache's memory on the devices that run the
 * filters (the GPUs' memory, or the service's memory for the CPU devices):
 * up to gpuext.cache_size bytes, taken from the engine's pools a 128 MB
 * unit at a time when a load first writes into the unit.  When it starts
 * it deals the units out to those devices in turn, so that with several
 * GPUs each holds its share; a load spreads a table's entries over the
 * devices by block range (load.cpp), and a scan runs each entry's chunk
 * on the device that holds it.  An entry holds a run of
 * 1 MB granules of one unit (first fit), sized for the rows it caches, so a
 * small table takes a granule or two, not a unit.  The directory (GxCache,
 * one LWLock) says which granules hold what; the service reads an entry's
 * place when a task names it and never changes the directory except to
 * reset it when it starts (a new service has an empty pool).
 *
 * An entry whose state is FREE keeps its granules while a staging slot
 * still refers to it (an abandoned chunk may still be writing it); the next
 * gx_cache_take gives them back.  Eviction is LRU over READY entries that no
 * slot refers to.
 *
 * Pins: a scan makes its staging slot refer to the entry it reads (and
 * records stale_seq then); a refresh that rewrites blocks which became
 * stale at seq S waits until no slot pinned the entry before S
 * (gx_cache_wait_pins), so no running chunk can read rows being rewritten.
 */
#include "gpuext.h"
#include "compat.h"
#include "cache.h"


extern "C"
{
#include "access/xlog.h"
#include "catalog/pg_class.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/condition_variable.h"
#include "storage/shmem.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

GxCache    *gx_cache = NULL;
GxCacheUnit *gx_cache_units = NULL;
uint32	   *gx_blk_row = NULL;
XLogRecPtr *gx_blk_lsn = NULL;
uint32	   *gx_blk_stale = NULL;

static int
gx_cache_nunits(void)
{
	return (int) (((Size) gx_cache_size_mb * 1024 * 1024) / GX_CACHE_UNIT_BYTES);
}

/* block records of the whole cache */
static Size
gx_cache_nrecords(int nunits)
{
	return (Size) nunits * GX_CACHE_GRANULES * GX_CACHE_GRANULE_BLOCKS;
}

/* offsets of the arrays after the entries */
static Size
gx_cache_layout(int nunits, Size *units_off, Size *row_off, Size *lsn_off, Size *stale_off)
{
	Size		nent = (Size) nunits * GX_CACHE_ENTRIES_PER_UNIT;
	Size		nrec = gx_cache_nrecords(nunits);
	Size		off = MAXALIGN(add_size(offsetof(GxCache, entries), mul_size(sizeof(GxCacheEntry), nent)));

	*units_off = off;
	off = MAXALIGN(add_size(off, mul_size(sizeof(GxCacheUnit), nunits)));
	*row_off = off;
	off = MAXALIGN(add_size(off, mul_size(sizeof(uint32), nrec)));
	*lsn_off = off;
	off = MAXALIGN(add_size(off, mul_size(sizeof(XLogRecPtr), nrec)));
	*stale_off = off;
	off = MAXALIGN(add_size(off, mul_size(sizeof(uint32), nrec / 32)));
	return off;
}

/* shared memory for the directory */
Size
gx_cache_shmem_size(void)
{
	Size		a,
				b,
				c,
				d;

	return gx_cache_layout(gx_cache_nunits(), &a, &b, &c, &d);
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
	int			nunits = gx_cache_nunits();
	Size		units_off,
				row_off,
				lsn_off,
				stale_off;
	Size		size = gx_cache_layout(nunits, &units_off, &row_off, &lsn_off, &stale_off);

	gx_cache = (GxCache *) ShmemInitStruct("gpuext cache", size, &found);
	gx_cache_units = (GxCacheUnit *) ((char *) gx_cache + units_off);
	gx_blk_row = (uint32 *) ((char *) gx_cache + row_off);
	gx_blk_lsn = (XLogRecPtr *) ((char *) gx_cache + lsn_off);
	gx_blk_stale = (uint32 *) ((char *) gx_cache + stale_off);
	if (!found)
	{
		memset(gx_cache, 0, size);
		gx_cache->lock = &(GetNamedLWLockTranche("gpuext cache"))->lock;
		gx_cache->nunits = nunits;
		gx_cache->nentries = nunits * GX_CACHE_ENTRIES_PER_UNIT;
		gx_cache->devices = 0;
		for (int u = 0; u < nunits; u++)
			gx_cache_units[u].device = -1;
		pg_atomic_init_u64(&gx_cache->clock, 1);
		for (int i = 0; i < gx_cache->nentries; i++)
		{
			GxCacheEntry *e = &gx_cache->entries[i];

			pg_atomic_init_u64(&e->hits, 0);
			pg_atomic_init_u64(&e->last_used, 0);
			pg_atomic_init_u64(&e->refreshed, 0);
			pg_atomic_init_u64(&e->rows_device, 0);
			pg_atomic_init_u64(&e->blocks_heap, 0);
		}
		for (int i = 0; i < GX_CACHE_MAX_LOADERS; i++)
		{
			pg_atomic_init_u32(&gx_cache->loaders[i].blocks_done, 0);
			pg_atomic_init_u64(&gx_cache->loaders[i].rows, 0);
		}
	}
}

/*
 * A starting service has empty pools: forget every entry, and deal the
 * units out to the devices that hold the cache (the GPUs, else the CPU
 * devices), in turn.  The device table is filled.
 */
void
gx_cache_service_reset(void)
{
	int			cdev[GX_MAX_DEVICES];
	int			n = 0;
	bool		gpus = gx_shared->ngpus > 0;

	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	for (int i = 0; i < gx_cache->nentries; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];

		e->state = GX_CE_FREE;
		e->generation++;
		e->ngranules = 0;
	}
	for (int d = 0; d < gx_shared->ndevices; d++)
		if ((gx_shared->devs[d].kind == GX_DEV_GPU) == gpus)
			cdev[n++] = d;
	gx_cache->devices = 0;
	for (int u = 0; u < gx_cache->nunits; u++)
	{
		memset(&gx_cache_units[u], 0, sizeof(GxCacheUnit));	/* died with the old service */
		gx_cache_units[u].device = n > 0 ? cdev[u % n] : -1;
		if (n > 0)
			gx_cache->devices |= 1u << cdev[u % n];
	}
	LWLockRelease(gx_cache->lock);
}

/*
 * Service: the memory of the cache entry a CACHE_LOAD task, or a task that
 * reads an entry (gx_task_reads_entry), names, into ctx.  The unit under the entry is taken from the device
 * memory pool at its first load, within gpuext.device_memory, and kept.
 * Returns an error message (in err) for the task, or NULL; *oom tells
 * whether memory was the reason.
 */
const char *
gx_cache_task_memory(const gx_chunk *c, int device, gx_task_ctx *ctx,
					 char *err, size_t errlen, bool *oom)
{
	GxCacheEntry *e;
	GxCacheUnit *u;

	*oom = false;
	if (c->kind != GX_TASK_CACHE_LOAD && !gx_task_reads_entry(c))
		return NULL;
	if (gx_cache->nunits == 0 || c->ext.entry < 0 || c->ext.entry >= gx_cache->nentries)
		return "task refers to a cache entry that does not exist";
	e = &gx_cache->entries[c->ext.entry];
	if (e->state != (c->kind == GX_TASK_CACHE_LOAD ? GX_CE_LOADING : GX_CE_READY) &&
		!(c->kind == GX_TASK_CACHE_LOAD && e->state == GX_CE_READY))
		return "task refers to a cache entry in the wrong state";
	if (e->ngranules <= 0 || e->unit < 0 || e->unit >= gx_cache->nunits ||
		e->granule < 0 || e->granule + e->ngranules > GX_CACHE_GRANULES)
		return "task refers to a cache entry without memory";
	u = &gx_cache_units[e->unit];
	/* a load writes on the entry's device; a reader may be a peer */
	if (c->kind == GX_TASK_CACHE_LOAD ? device != u->device :
		!gx_device_reaches(device, u->device))
		return "task refers to a cache entry of a device it cannot reach";
	if (u->addr == 0)
	{
		void	   *addr = NULL;
		gx_status	st;

		if (c->kind != GX_TASK_CACHE_LOAD)
			return "task reads a cache entry that has no memory";
		if (gx_memory_over_limit(device, GX_CACHE_UNIT_BYTES))
		{
			*oom = true;
			snprintf(err, errlen, "out of device memory for a cache unit: %d MB more would exceed gpuext.device_memory",
					 (int) (GX_CACHE_UNIT_BYTES >> 20));
			return err;
		}
		st = gx_device_alloc(device, GX_CACHE_UNIT_BYTES, &addr, err, errlen);
		if (st != GX_OK)
		{
			*oom = (st == GX_NO_MEMORY);
			return err;
		}
		u->addr = (uint64) (uintptr_t) addr;
		pg_atomic_fetch_add_u64(&gx_engine->mem[device].cache, GX_CACHE_UNIT_BYTES);
	}
	ctx->entry = (char *) (uintptr_t) u->addr + (Size) e->granule * GX_CACHE_GRANULE_BYTES;
	ctx->entry_bytes = (uint64) e->ngranules * GX_CACHE_GRANULE_BYTES;
	return NULL;
}

/* backend exit: free entries this backend was loading, and its progress row */
void
gx_cache_backend_exit(void)
{
	if (gx_cache == NULL || gx_cache->nunits == 0)
		return;
	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	for (int i = 0; i < gx_cache->nentries; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];

		if (e->state == GX_CE_LOADING && e->loader_pid == MyProcPid)
		{
			e->state = GX_CE_FREE;
			e->generation++;
		}
	}
	for (int i = 0; i < GX_CACHE_MAX_LOADERS; i++)
		if (gx_cache->loaders[i].pid == MyProcPid)
			gx_cache->loaders[i].pid = 0;
	if (gx_cache->worker_pid == MyProcPid)
		gx_cache->worker_pid = 0;
	LWLockRelease(gx_cache->lock);
}

/*
 * May a chunk still read or write entry idx's memory?  A slot that refers
 * to it and is being filled, waits for the service, runs or was abandoned
 * while it ran.  A DONE slot's chunk has finished on the device (its
 * selection is in the slot; its rows are fetched from the heap), so it
 * holds nothing: a backend with such a slot (a cursor's prefetched batch)
 * may evict or refresh the entry without waiting for itself.  But one
 * held for its next submission (gx_slot_hold_entry) still pins
 * it.  (Lock held.)
 */
static inline bool
gx_slot_may_touch(const GxSlot *s, int idx)
{
	return s->state != GX_SLOT_FREE && (s->state != GX_SLOT_DONE || s->hold_entry) &&
		s->cache_entry == idx;
}

/* does a staging slot refer to entry idx (lock held)? */
bool
gx_cache_slot_in_use(int idx)
{
	for (int i = 0; i < gx_shared->nslots; i++)
		if (gx_slot_may_touch(&gx_shared->slots[i], idx))
			return true;
	return false;
}

/*
 * Wait until no staging slot refers to entry idx with a pin taken before
 * stale_seq 'seq' (a refresh about to rewrite blocks that became stale at
 * seq).
 */
void
gx_cache_wait_pins(int idx, uint64 seq)
{
	for (;;)
	{
		bool		busy = false;

		LWLockAcquire(gx_cache->lock, LW_SHARED);
		for (int i = 0; i < gx_shared->nslots && !busy; i++)
		{
			GxSlot	   *s = &gx_shared->slots[i];

			if (gx_slot_may_touch(s, idx) && s->cache_seq < seq)
				busy = true;
		}
		LWLockRelease(gx_cache->lock);
		if (!busy)
			return;
		ConditionVariableTimedSleep(&gx_shared->done_cv, 10, PG_WAIT_EXTENSION);
		CHECK_FOR_INTERRUPTS();
	}
}

/* mark an entry recently used */
void
gx_cache_touch(int idx)
{
	GxCacheEntry *e = &gx_cache->entries[idx];

	pg_atomic_fetch_add_u64(&e->hits, 1);
	pg_atomic_write_u64(&e->last_used, pg_atomic_fetch_add_u64(&gx_cache->clock, 1));
}

/* the cache needs the library preloaded */
void
gx_cache_require(void)
{
	if (gx_shared == NULL || gx_cache == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("gpuext must be loaded via shared_preload_libraries")));
}

/*
 * Loading, refreshing and evicting a table take room in a cache that every
 * user of the server shares: they need the table's ownership (superusers
 * own everything); seeing it in gpuext_cache needs SELECT.
 */
void
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

/* what a reader of entry idx remembers of it (lock held) */
void
gx_cache_ref_fill(int idx, GxCacheRef *r)
{
	GxCacheEntry *e = &gx_cache->entries[idx];

	r->idx = idx;
	r->generation = e->generation;
	r->device = gx_cache_units[e->unit].device;
	r->start = e->start;
	r->nblocks = e->nblocks;
	r->nrows = e->nrows;
	r->rowmap_off = e->rowmap_off;
}

/*
 * A view of entry r's blocks as the directory records them: its stale
 * blocks into v->skip (room for r->nblocks bits) and their count, whether
 * it has padding rows, stale_seq and the VM LSNs its records were last
 * checked against (gx_cache_check_blocks adds what changed since).  With
 * slot >= 0 the staging slot is also made to refer to the entry, so that
 * it is not evicted (nor its stale blocks rewritten) while the chunk runs.
 * False when the entry changed since r was taken.
 */
bool
gx_cache_view(const GxCacheRef *r, GxBlockView *v, int slot)
{
	GxCacheEntry *e = &gx_cache->entries[r->idx];
	uint32		nwords = (r->nblocks + 31) / 32;
	bool		ok;

	LWLockAcquire(gx_cache->lock, LW_SHARED);
	ok = e->state == GX_CE_READY && e->generation == r->generation;
	if (ok)
	{
		if (slot >= 0)
		{
			gx_shared->slots[slot].cache_entry = r->idx;
			gx_shared->slots[slot].cache_seq = gx_cache->stale_seq;
		}
		v->nblocks = r->nblocks;
		v->seq = gx_cache->stale_seq;
		v->padded = e->npadded > 0;
		memcpy(v->vm_lsn, e->vm_lsn, sizeof(v->vm_lsn));
		/* a block record base is a multiple of 256: whole words */
		if (e->nstale > 0)
			memcpy(v->skip, gx_blk_stale + gx_cache_blkbase(e) / 32, sizeof(uint32) * nwords);
		else
			memset(v->skip, 0, sizeof(uint32) * nwords);
	}
	LWLockRelease(gx_cache->lock);
	v->nskip = 0;
	for (uint32 w = 0; ok && w < nwords; w++)
		v->nskip += (uint32) __builtin_popcount(v->skip[w]);
	return ok;
}

/* the device whose memory holds entry idx (its unit's), -1 none */
int
gx_cache_entry_device(int idx)
{
	const GxCacheEntry *e = &gx_cache->entries[idx];

	return e->unit >= 0 && e->unit < gx_cache->nunits ? gx_cache_units[e->unit].device : -1;
}

/*
 * The device of set that runs a task reading an entry of entry_device:
 * that device when it is in the set, else the set's first (its home) when
 * it reaches the entry's memory (peer access); -1 when none does
 */
int
gx_cache_run_device(const GxDevSet *set, int entry_device)
{
	if (entry_device < 0)
		return -1;
	if ((set->mask & (1u << entry_device)) != 0)
		return entry_device;
	return gx_device_reaches(set->dev[0], entry_device) ? set->dev[0] : -1;
}

/* the devices of set that hold cache units (a mask) */
uint32
gx_cache_devices(const GxDevSet *set)
{
	return gx_cache == NULL ? 0 : set->mask & gx_cache->devices;
}

/*
 * Planner: the fraction of a relation's blocks held by ready cache entries
 * of its current relfilenode (not checked for stale blocks) on devices a
 * scan would use (gpuext.device, gpuext.devices); else 0.
 */
double
gx_cache_fraction(Oid relid, BlockNumber pages)
{
	Relation	rel;
	double		blocks = 0;
	Oid			filenode;
	GxDevSet	set;

	/*
	 * (not gx_cache_devices(): a set without a share of the cache still
	 * reads the entries its home reaches; gx_cache_run_device below)
	 */
	if (!gx_use_cache || gx_cache == NULL || gx_cache->nunits == 0 || pages == 0 ||
		!gx_try_resolve_devset(&set))
		return 0.0;
	rel = RelationIdGetRelation(relid);
	if (rel == NULL)
		return 0.0;
	filenode = GX_REL_FILENUMBER(rel);
	RelationClose(rel);
	LWLockAcquire(gx_cache->lock, LW_SHARED);
	for (int i = 0; i < gx_cache->nentries; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];

		if (e->state == GX_CE_READY && e->dbid == MyDatabaseId && e->relid == relid &&
			e->relfilenode == filenode &&
			gx_cache_run_device(&set, gx_cache_entry_device(i)) >= 0)
			blocks += e->nblocks - e->nstale;
	}
	LWLockRelease(gx_cache->lock);
	return Min(blocks / pages, 1.0);
}

/* give an entry's granules back to its unit (lock held) */
static void
gx_cache_release_granules(GxCacheEntry *e)
{
	if (e->ngranules > 0)
	{
		GxCacheUnit *u = &gx_cache_units[e->unit];

		for (int g = e->granule; g < e->granule + e->ngranules; g++)
			u->used[g / 32] &= ~((uint32) 1 << (g % 32));
	}
	e->ngranules = 0;
}

/* first fit: a run of n free granules in some unit of device; false when none (lock held) */
static bool
gx_cache_find_granules(int n, int device, int *unit, int *granule)
{
	for (int u = 0; u < gx_cache->nunits; u++)
	{
		int			run = 0;

		if (gx_cache_units[u].device != device)
			continue;
		for (int g = 0; g < GX_CACHE_GRANULES; g++)
		{
			if (gx_cache_units[u].used[g / 32] & ((uint32) 1 << (g % 32)))
				run = 0;
			else if (++run == n)
			{
				*unit = u;
				*granule = g - n + 1;
				return true;
			}
		}
	}
	return false;
}

/*
 * Take an entry of n granules on device for a load of rel: a free
 * directory slot and a run of free granules of a unit of that device,
 * evicting least recently used ready entries that no slot refers to and
 * that this load did not fill (used before load_clock) until both can be
 * had (for granules: entries of that device).  The entry is LOADING, its
 * block records cleared.  -1 when none can be had.
 */
int
gx_cache_take(Relation rel, int ngranules, uint64 load_clock, int device)
{
	int			idx = -1;
	int			unit = -1,
				granule = -1;

	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	/* free entries no chunk refers to give their granules back */
	for (int i = 0; i < gx_cache->nentries; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];

		if (e->state == GX_CE_FREE && e->ngranules > 0 && !gx_cache_slot_in_use(i))
			gx_cache_release_granules(e);
	}
	for (;;)
	{
		int			victim = -1;
		uint64		best_used = PG_UINT64_MAX;

		if (idx < 0)
			for (int i = 0; i < gx_cache->nentries && idx < 0; i++)
				if (gx_cache->entries[i].state == GX_CE_FREE &&
					gx_cache->entries[i].ngranules == 0)
					idx = i;
		if (idx >= 0 && gx_cache_find_granules(ngranules, device, &unit, &granule))
			break;
		/* evict the least recently used entry that may go (of device, for granules) */
		for (int i = 0; i < gx_cache->nentries; i++)
		{
			GxCacheEntry *e = &gx_cache->entries[i];
			uint64		used = pg_atomic_read_u64(&e->last_used);

			if (e->state != GX_CE_READY || used >= load_clock || gx_cache_slot_in_use(i))
				continue;
			if (idx >= 0 && gx_cache_units[e->unit].device != device)
				continue;
			if (used < best_used)
			{
				best_used = used;
				victim = i;
			}
		}
		if (victim < 0)
		{
			LWLockRelease(gx_cache->lock);
			return -1;
		}
		gx_cache->entries[victim].state = GX_CE_FREE;
		gx_cache->entries[victim].generation++;
		gx_cache_release_granules(&gx_cache->entries[victim]);
	}

	{
		GxCacheEntry *e = &gx_cache->entries[idx];
		uint32		base;

		e->state = GX_CE_LOADING;
		e->generation++;
		e->loader_pid = MyProcPid;
		e->dbid = MyDatabaseId;
		e->relid = RelationGetRelid(rel);
		e->relfilenode = GX_REL_FILENUMBER(rel);
		e->unit = unit;
		e->granule = granule;
		e->ngranules = ngranules;
		for (int g = granule; g < granule + ngranules; g++)
			gx_cache_units[unit].used[g / 32] |= (uint32) 1 << (g % 32);
		e->start = 0;
		e->nrows = 0;
		e->nblocks = 0;
		e->nstale = 0;
		e->npadded = 0;
		e->stale_seq = 0;
		e->nvm = 0;
		base = gx_cache_blkbase(e);
		memset(gx_blk_stale + base / 32, 0,
			   sizeof(uint32) * ngranules * GX_CACHE_GRANULE_BLOCKS / 32);
		pg_atomic_write_u64(&e->hits, 0);
		pg_atomic_write_u64(&e->refreshed, 0);
		pg_atomic_write_u64(&e->rows_device, 0);
		pg_atomic_write_u64(&e->blocks_heap, 0);
		pg_atomic_write_u64(&e->last_used, pg_atomic_fetch_add_u64(&gx_cache->clock, 1));
	}
	LWLockRelease(gx_cache->lock);
	return idx;
}

/* end a load of entry idx: READY (its extent and records are set), or FREE */
void
gx_cache_finish(int idx, bool ok)
{
	GxCacheEntry *e = &gx_cache->entries[idx];

	LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
	if (ok)
		e->state = GX_CE_READY;
	else
	{
		e->state = GX_CE_FREE;
		e->generation++;
	}
	e->loader_pid = 0;
	LWLockRelease(gx_cache->lock);
}

/*
 * Evict every ready entry of a relation (any relfilenode) of this
 * database.  With 'wait', wait for queries that read one; without (the
 * loader's error path: only the failed load can have made them), free
 * them at once: a chunk still reading one keeps its granules until it is
 * done (gx_cache_take), and the new generation fails any later pin.
 * Returns how many were evicted.
 */
int
gx_cache_evict_rel(Oid relid, bool wait)
{
	int			evicted = 0;

	for (;;)
	{
		bool		busy = false;

		LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
		for (int i = 0; i < gx_cache->nentries; i++)
		{
			GxCacheEntry *e = &gx_cache->entries[i];

			if (e->state != GX_CE_READY || e->dbid != MyDatabaseId || e->relid != relid)
				continue;
			if (wait && gx_cache_slot_in_use(i))
			{
				busy = true;
				continue;
			}
			e->state = GX_CE_FREE;
			e->generation++;
			if (!gx_cache_slot_in_use(i))
				gx_cache_release_granules(e);
			evicted++;
		}
		LWLockRelease(gx_cache->lock);
		if (!busy)
			return evicted;
		ConditionVariableTimedSleep(&gx_shared->done_cv, 10, PG_WAIT_EXTENSION);
		CHECK_FOR_INTERRUPTS();
	}
}
