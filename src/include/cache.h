/*
 * cache.h - the device-resident column cache: its directory in shared memory
 * and what scans and the service call.
 */
#ifndef GX_CACHE_H
#define GX_CACHE_H

#include "gpuext.h"
#include "engine.h"

/* ---- device-resident column cache (cache.cpp) ---- */
/*
 * 128 MB units: an entry holds up to about 4M rows (a scan's selection of
 * them must fit a staging slot), so that a scan of cached columns launches
 * a kernel per 4M rows, not per 1M, and its fixed costs per launch stay
 * small against the bytes it reads.
 */
#define GX_CACHE_UNIT_BYTES ((Size) 128 * 1024 * 1024)
#define GX_CACHE_MAX_VM 2		/* VM pages an entry's blocks may span */
#define GX_CACHE_MAX_HOLES 64	/* blocks inside an entry's range it lacks */

typedef enum GxCacheState
{
	GX_CE_FREE = 0,
	GX_CE_LOADING,				/* being filled by loader_pid */
	GX_CE_READY
} GxCacheState;

/* one entry: the cached columns of a range of heap blocks, all-visible */
typedef struct GxCacheEntry
{
	int			state;			/* GxCacheState */
	uint32		generation;		/* bumped whenever the entry is (re)taken */
	int			loader_pid;
	Oid			dbid;
	Oid			relid;
	Oid			relfilenode;
	BlockNumber start;			/* first heap block */
	uint32		nblocks;
	uint32		nrows;
	uint32		cap_rows;
	int			nvm;			/* VM pages covering the blocks */
	BlockNumber vm_block[GX_CACHE_MAX_VM];	/* VM page numbers */
	XLogRecPtr	vm_lsn[GX_CACHE_MAX_VM];	/* their LSN when loaded */
	int			nholes;			/* blocks of the range not cached (not */
	BlockNumber holes[GX_CACHE_MAX_HOLES];	/* all-visible): read from the heap */
	int			ncols;
	int16		attnum[GX_CACHE_MAX_COLS];
	Oid			typid[GX_CACHE_MAX_COLS];
	uint8		gxtype[GX_CACHE_MAX_COLS];
	uint64		values_off[GX_CACHE_MAX_COLS];	/* entry-relative */
	uint64		nulls_off[GX_CACHE_MAX_COLS];
	uint64		rowmap_off;
	uint64		bytes;			/* used part of the unit */
	uint64		addr;			/* the unit's memory on the cache's device,
								 * taken from the pool at its first load (the
								 * service's address; 0 = none yet) */
	pg_atomic_uint64 hits;
	pg_atomic_uint64 last_used;
} GxCacheEntry;

typedef struct GxCache
{
	LWLock	   *lock;			/* entries' state and keys */
	int			nunits;
	int			device;			/* GxDevKind holding the pool, -1 none */
	pg_atomic_uint64 clock;		/* LRU clock */
	GxCacheEntry entries[FLEXIBLE_ARRAY_MEMBER];
} GxCache;

/* what a scan remembers of an entry it may read */
typedef struct GxCacheRef
{
	int			idx;
	uint32		generation;
	BlockNumber start;
	uint32		nblocks;
	uint32		nrows;
	int			nvm;
	BlockNumber vm_block[GX_CACHE_MAX_VM];
	XLogRecPtr	vm_lsn[GX_CACHE_MAX_VM];
	int			nholes;
	BlockNumber holes[GX_CACHE_MAX_HOLES];
	uint64		values_off[GX_MAX_COLS];	/* per program column */
	uint64		nulls_off[GX_MAX_COLS];
	uint64		rowmap_off;
} GxCacheRef;

extern GxCache *gx_cache;

Size		gx_cache_shmem_size(void);
void		gx_cache_shmem_request(void);
void		gx_cache_shmem_init(void);
void		gx_cache_service_reset(int device);
const char *gx_cache_task_memory(const gx_chunk *c, int device, gx_task_ctx *ctx,
								 char *err, size_t errlen, bool *oom);
void		gx_cache_backend_exit(void);
bool		gx_cache_slot_in_use(int idx);
double		gx_cache_fraction(Oid relid, BlockNumber pages);

#endif							/* GX_CACHE_H */
