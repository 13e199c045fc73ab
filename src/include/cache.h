/*
 * cache.h - the device-resident column cache: its directory in shared memory
 * and what scans, loads, refreshes and the service call (src/cache/).
 */
#ifndef GX_CACHE_H
#define GX_CACHE_H

#include "gpuext.h"
#include "engine.h"

/* ---- geometry ---- */
/*
 * The cache takes device memory from the engine's pool in units of 128 MB
 * (gpuext.cache_size / 128 MB of them), lazily.  An entry is a run of 1 MB
 * granules of one unit: a big table's entries fill whole units (up to
 * about 4M rows each, so that a scan of cached columns launches a kernel
 * per 4M rows and its fixed costs stay small against the bytes it reads),
 * a small table's entry takes the granules its rows need.
 *
 * Every granule carries GX_CACHE_GRANULE_BLOCKS block records (shared
 * memory): an entry of n granules may span n * 256 heap blocks, so block
 * records never need an allocator of their own.
 */
#define GX_CACHE_UNIT_BYTES ((Size) 128 * 1024 * 1024)
#define GX_CACHE_GRANULE_BYTES ((Size) 1024 * 1024)
#define GX_CACHE_GRANULES ((int) (GX_CACHE_UNIT_BYTES / GX_CACHE_GRANULE_BYTES))
#define GX_CACHE_GRANULE_BLOCKS 256
#define GX_CACHE_ENTRIES_PER_UNIT 32	/* directory slots per unit */
#define GX_CACHE_MAX_VM 2		/* VM pages an entry's blocks may span */
#define GX_CACHE_MAX_LOADERS 16 /* loads shown in gpuext_cache_progress */
#define GX_CACHE_CANDIDATES 64	/* uncached tables counted for admission */

typedef enum GxCacheState
{
	GX_CE_FREE = 0,
	GX_CE_LOADING,				/* being filled by loader_pid */
	GX_CE_READY
} GxCacheState;

/*
 * A unit of cache memory and which of its granules entries hold.  The
 * service gives each unit a device when it starts: the units are spread
 * evenly over the GPUs (over the CPU devices on a host without one), so
 * every device holds its share of gpuext.cache_size.
 */
typedef struct GxCacheUnit
{
	uint64		addr;			/* on its device (the service's address),
								 * taken at its first use; 0 none */
	int			device;			/* the device whose memory it is, -1 none */
	uint32		used[GX_CACHE_GRANULES / 32];	/* granule bitmap */
} GxCacheUnit;

/*
 * One entry: the cached columns of a range of heap blocks.  Its blocks
 * each have a record (row range, content LSN); a block whose rows the
 * entry does not serve is stale (blk_lsn 0, its bit in blk_stale): changed
 * since it was loaded, or not all-visible then.  Scans read stale blocks
 * from the heap and the device skips their rows (blocks.cpp).
 */
typedef struct GxCacheEntry
{
	int			state;			/* GxCacheState */
	uint32		generation;		/* bumped whenever the entry is (re)taken */
	int			loader_pid;
	Oid			dbid;
	Oid			relid;
	Oid			relfilenode;
	int			unit;			/* memory: granules [granule, granule + */
	int			granule;		/* ngranules) of a unit; a FREE entry keeps */
	int			ngranules;		/* them until no slot refers to it */
	BlockNumber start;			/* first heap block */
	uint32		nblocks;
	uint32		nrows;
	uint32		cap_rows;
	int			nvm;			/* VM pages covering the blocks */
	BlockNumber vm_block[GX_CACHE_MAX_VM];	/* VM page numbers */
	XLogRecPtr	vm_lsn[GX_CACHE_MAX_VM];	/* their LSN when the block records
											 * were last checked */
	uint32		nstale;			/* stale blocks */
	uint32		npadded;		/* refreshed blocks that left padding rows */
	uint64		stale_seq;		/* gx_cache->stale_seq when a block last
								 * became stale */
	int			ncols;
	int16		attnum[GX_CACHE_MAX_COLS];
	Oid			typid[GX_CACHE_MAX_COLS];
	uint8		gxtype[GX_CACHE_MAX_COLS];
	uint8		scale[GX_CACHE_MAX_COLS];	/* GX_NUMERIC: the values' scale */
	uint64		values_off[GX_CACHE_MAX_COLS];	/* entry-relative */
	uint64		nulls_off[GX_CACHE_MAX_COLS];
	uint64		rowmap_off;
	pg_atomic_uint64 hits;
	pg_atomic_uint64 last_used;
	pg_atomic_uint64 refreshed; /* blocks reloaded in place */
	pg_atomic_uint64 rows_device;	/* rows scans took from the device */
	pg_atomic_uint64 blocks_heap;	/* stale blocks scans read from the heap */
} GxCacheEntry;

/* an uncached table GpuScans read (gpuext.cache_policy = auto) */
typedef struct GxCacheCandidate
{
	Oid			dbid;			/* InvalidOid: free */
	Oid			relid;
	uint32		scans;			/* scans without the cache since counted */
} GxCacheCandidate;

/* a load in progress (gpuext_cache_progress) */
typedef struct GxCacheLoader
{
	int			pid;			/* 0: free */
	Oid			dbid;
	Oid			relid;
	uint32		blocks_total;
	pg_atomic_uint32 blocks_done;
	pg_atomic_uint64 rows;
} GxCacheLoader;

typedef struct GxCache
{
	LWLock	   *lock;			/* entries' state, keys, block records */
	int			nunits;
	int			nentries;
	uint32		devices;		/* mask of the devices holding units (the
								 * service sets it when it starts) */
	pg_atomic_uint64 clock;		/* LRU clock */
	uint64		stale_seq;		/* under lock */
	int			worker_pid;		/* the cache worker (worker.cpp), 0 none, -1
								 * starting (since worker_started) */
	TimestampTz worker_started;
	Oid			worker_db;		/* database it serves */
	bool		work_wanted;
	GxCacheLoader loaders[GX_CACHE_MAX_LOADERS];
	GxCacheCandidate candidates[GX_CACHE_CANDIDATES];
	GxCacheEntry entries[FLEXIBLE_ARRAY_MEMBER];
	/* then: units, blk_row, blk_lsn, blk_stale (gx_cache_attach) */
} GxCache;

/* the directory's arrays after the entries (this backend's addresses) */
extern GxCache *gx_cache;
extern GxCacheUnit *gx_cache_units;
extern uint32 *gx_blk_row;		/* first entry row of each block record */
extern XLogRecPtr *gx_blk_lsn;	/* content LSN, 0 = stale */
extern uint32 *gx_blk_stale;	/* bit per block record */

/* first block record of an entry */
static inline uint32
gx_cache_blkbase(const GxCacheEntry *e)
{
	return (uint32) (e->unit * GX_CACHE_GRANULES + e->granule) * GX_CACHE_GRANULE_BLOCKS;
}

/* what a scan remembers of an entry it may read */
typedef struct GxCacheRef
{
	int			idx;
	uint32		generation;
	int			device;			/* the device whose memory holds it */
	BlockNumber start;
	uint32		nblocks;
	uint32		nrows;
	uint64		values_off[GX_MAX_COLS];	/* per program column */
	uint64		nulls_off[GX_MAX_COLS];
	uint64		rowmap_off;
} GxCacheRef;

/* directory.cpp */
Size		gx_cache_shmem_size(void);
void		gx_cache_shmem_request(void);
void		gx_cache_shmem_init(void);
void		gx_cache_service_reset(void);
const char *gx_cache_task_memory(const gx_chunk *c, int device, gx_task_ctx *ctx,
								 char *err, size_t errlen, bool *oom);
void		gx_cache_backend_exit(void);
bool		gx_cache_slot_in_use(int idx);
double		gx_cache_fraction(Oid relid, BlockNumber pages);
void		gx_cache_require(void);
void		gx_cache_check_owner(Oid relid);
int			gx_cache_take(Relation rel, int ngranules, uint64 load_clock, int device);
int			gx_cache_entry_device(int idx);
int			gx_cache_run_device(const GxDevSet *set, int entry_device);
uint32		gx_cache_devices(const GxDevSet *set);
void		gx_cache_finish(int idx, bool ok);
int			gx_cache_evict_rel(Oid relid, bool wait);
void		gx_cache_wait_pins(int idx, uint64 seq);
void		gx_cache_ref_fill(int idx, GxCacheRef *r);

/* blocks.cpp */
#define GX_VM_MAPSIZE (BLCKSZ - MAXALIGN(SizeOfPageHeaderData))
#define GX_VM_BLOCKS_PER_PAGE ((BlockNumber) (GX_VM_MAPSIZE * 4))

/* a scan's (or a refresh's) view of an entry's blocks */
typedef struct GxBlockView
{
	uint32		nblocks;
	uint32		nskip;			/* blocks whose rows the device skips */
	uint32	   *skip;			/* bitmap of nblocks bits */
	uint64		seq;			/* stale_seq when the view was taken */
	bool		padded;			/* the entry has padding rows */
	XLogRecPtr	vm_lsn[GX_CACHE_MAX_VM];	/* the entry's VM baseline then */
} GxBlockView;

bool		gx_cache_view(const GxCacheRef *r, GxBlockView *v, int slot);
bool		gx_cache_check_blocks(Relation rel, Buffer *vmbuf, const GxCacheRef *r,
								  GxBlockView *v);
bool		gx_vm_all_visible(Relation rel, Buffer *vmbuf, BlockNumber blk);
XLogRecPtr	gx_vm_page_lsn(Relation rel, Buffer *vmbuf, BlockNumber blk);
bool		gx_cache_rel_ok(Relation rel);
uint32		gx_cache_skipped_rows(const GxCacheRef *r, const GxBlockView *v);


/* load.cpp */
uint32		gx_cache_refresh_rel(Relation rel, bool wait);
uint64		gx_cache_load_rel(Oid relid, bool evict);

/* projection.cpp: sorted projections of cached columns */
AttrNumber	gx_proj_column(Relation rel, const char *col);
void		gx_proj_load(Oid relid, Datum cols);

/* worker.cpp */
void		gx_cache_request_work(void);
void		gx_cache_note_scan(Relation rel, bool used_cache);

#endif							/* GX_CACHE_H */
