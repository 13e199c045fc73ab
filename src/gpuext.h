/*
 * gpuext.h - declarations shared by the PostgreSQL side of gpuext.
 *
 * Include this first in every src/ file: it includes postgres.h (inside
 * extern "C") before anything else.  Code in src/ is C++17 but written in
 * PostgreSQL's C style: no object with a destructor lives across a call
 * that may ereport(), and every extern "C" entry point that could see a
 * C++ exception catches it (GX_TRY/GX_CATCH) and turns it into an ERROR.
 */
#ifndef GPUEXT_H
#define GPUEXT_H

extern "C"
{
#include "postgres.h"

#include "access/relscan.h"
#include "access/tableam.h"
#include "executor/executor.h"
#include "nodes/extensible.h"
#include "nodes/pathnodes.h"
#include "access/xlogdefs.h"
#include "port/atomics.h"
#include "storage/condition_variable.h"
#include "storage/lwlock.h"
#include "storage/latch.h"
#include "storage/spin.h"
}

#include "gx_api.h"
#include "gx_program.h"

/* ---- GUCs (guc.cpp) ---- */
typedef enum GxDeviceChoice
{
	GX_DEVICE_AUTO,
	GX_DEVICE_GPU,
	GX_DEVICE_CPU
} GxDeviceChoice;

typedef enum GxTransfer
{
	GX_TRANSFER_COPY,			/* chunk copied to GPU memory, result back */
	GX_TRANSFER_MAPPED			/* kernels work on the mapped staging slot */
} GxTransfer;

extern bool gx_enabled;
extern int	gx_device_choice;
extern bool gx_force;
extern bool gx_enable_scan;
extern bool gx_device_deform;
extern int	gx_transfer;
extern bool gx_jit;
extern bool gx_jit_wait;
extern double gx_gpu_setup_cost;
extern double gx_gpu_operator_cost;
extern double gx_gpu_tuple_cost;
extern int	gx_chunk_rows;
extern int	gx_staging_size_mb;
extern int	gx_cpu_threads;
extern int	gx_cache_size_mb;
extern bool gx_use_cache;

void		gx_define_gucs(void);

/* ---- shared memory (shmem.cpp) ---- */
#define GX_SLOT_BYTES ((Size) 16 * 1024 * 1024)
/* backends poll a slot of cached columns this long before sleeping */
#define GX_WAIT_SPIN_US 100

typedef enum GxSlotState
{
	GX_SLOT_FREE = 0,
	GX_SLOT_FILLING,			/* owned by a backend, being written */
	GX_SLOT_SUBMITTED,			/* waiting for the service */
	GX_SLOT_RUNNING,			/* the service works on it */
	GX_SLOT_DONE,				/* result ready for the owner */
	GX_SLOT_ABANDONED			/* owner gone; the service frees it */
} GxSlotState;

typedef enum GxDevKind
{
	GX_DEV_CPU = 0,
	GX_DEV_GPU = 1
} GxDevKind;

typedef struct GxSlot
{
	slock_t		mutex;
	int			state;			/* GxSlotState */
	int			owner_pid;
	int			device;			/* GxDevKind requested */
	int			cache_entry;	/* cache entry the chunk reads or fills, or -1 */
	int			failed;			/* device reported an error */
	char		errmsg[256];
} GxSlot;

typedef struct GxShared
{
	slock_t		mutex;
	int			service_pid;	/* 0 while no service runs */
	uint32		generation;		/* bumped at each service start */
	Latch	   *service_latch;
	int			gpu_state;		/* 0 unknown, 1 usable, -1 none */
	char		gpu_message[256];
	gx_gpu_info gpu;
	int			cpu_threads;
	ConditionVariable done_cv;	/* broadcast when a slot becomes DONE/FREE */
	int			nslots;
	Size		slot_bytes;
	GxSlot		slots[FLEXIBLE_ARRAY_MEMBER];
} GxShared;

extern GxShared *gx_shared;
extern char *gx_staging;

void		gx_shmem_init_hooks(void);
static inline gx_chunk *
gx_slot_chunk(int slot)
{
	return (gx_chunk *) (gx_staging + (Size) slot * gx_shared->slot_bytes);
}

/* backend side of slot ownership (shmem.cpp) */
int			gx_slot_acquire(bool wait);
void		gx_slot_submit(int slot, int device);
void		gx_slot_wait(int slot, uint32 generation, int spin_us);
void		gx_slot_release(int slot);
int			gx_resolve_device(void);
uint32		gx_service_generation(void);

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
void		gx_cache_backend_exit(void);
bool		gx_cache_slot_in_use(int idx);
double		gx_cache_fraction(Oid relid, BlockNumber pages);

/* ---- service (service.cpp) ---- */
void		gx_register_service(void);
extern "C" PGDLLEXPORT void gpuext_service_main(Datum arg);

/* ---- compiler (compile.cpp) ---- */
typedef struct GxProgram
{
	int			ninstr;
	int			nconsts;
	int			nregs;			/* high-water mark */
	int			inuse;			/* registers in use while compiling */
	int			ncols;
	bool		may_error;
	gx_instr	code[GX_MAX_INSTR];
	gx_const	consts[GX_MAX_CONSTS];
	AttrNumber	col_attno[GX_MAX_COLS];
	int			col_type[GX_MAX_COLS];
	Oid			col_typid[GX_MAX_COLS];
	List	   *params;			/* list of Param* whose value goes in consts */
	List	   *param_idx;		/* integer list: const index of each param */
} GxProgram;

void		gx_program_init(GxProgram *prog);
bool		gx_program_add_qual(GxProgram *prog, Expr *qual, Index scanrelid,
								bool *may_error);
int			gx_program_add_column(GxProgram *prog, AttrNumber attno, Oid typid);
bool		gx_type_supported(Oid typid, int *gxtype);

/* ---- planner (planner.cpp, aggpath.cpp) ---- */
void		gx_planner_init(void);
int			gx_split_quals(List *rinfos, Index relid, List **device, List **host,
						   List **device_rinfos, int *ninstr);
bool		gx_is_device_scan_path(Path *path, bool parallel);
extern double gx_force_serial_cost;
void		gx_aggpath_init(void);
extern bool gx_enable_agg;
extern CustomScanMethods gx_scan_plan_methods;

/* ---- executor (gpuscan.cpp) and EXPLAIN (explain.cpp) ---- */
/*
 * Chunks a scan keeps in flight: two while it reads the heap (one filled
 * while the device runs the other), four for count-only scans of cached
 * columns, whose chunks take tens of microseconds on the device, so that
 * the round trips through the service overlap.
 */
#define GX_HEAP_BATCHES 2
#define GX_MAX_BATCHES 4

typedef struct GxBatch
{
	int			slot;			/* staging slot while in flight, else -1 */
	bool		inflight;
	uint32		generation;
	uint32		nrows;
	uint32		nsel;
	uint32		pos;
	int			error;			/* gx_error raised after the selection */
	HeapTupleData *tups;		/* nrows entries, t_data points into a page */
	Buffer	   *rowbuf;			/* nrows entries: the page's buffer */
	Buffer	   *pins;			/* buffers pinned for this batch (device
								 * deform: one per page, indexed as in map) */
	int			npins;
	uint32	   *map;			/* device deform: nrows entries, page << 16 | offset */
	uint32	   *sel;			/* nsel entries, row order */
	uint32		selcap;			/* entries sel has room for */
	int64		seq;			/* submission order */
	bool		cached;			/* rows come from a cache entry */
	bool		count_only;		/* no selection: nsel rows without columns */
	BlockNumber cache_start;	/* cached: first block of the entry */
} GxBatch;

/* a device aggregate of an aggregate GpuScan (aggscan.cpp) */
typedef enum GxAggKind
{
	GX_AGGK_COUNT_STAR,
	GX_AGGK_COUNT,
	GX_AGGK_SUM
} GxAggKind;

typedef struct GxAggSpec
{
	GxAggKind	kind;
	AttrNumber	attno;			/* COUNT, SUM: the column */
	int			col;			/* its chunk column */
	int			slot;			/* its gx_chunk_ext.agg index */
	AttrNumber	resno;			/* its custom_scan_tlist entry */
} GxAggSpec;

typedef struct GxScanStats
{
	int64		chunks;
	int64		chunks_gpu;		/* chunks the GPU ran ... */
	int64		chunks_mapped;	/* ... of which in mapped mode */
	int64		chunks_jit;		/* ... with the program's compiled kernel */
	int64		rows_in;
	int64		rows_selected;
	int64		bytes_h2d;
	int64		bytes_d2h;
	double		h2d_ms;
	double		kernel_ms;
	double		d2h_ms;
	double		device_ms;		/* sum of per-chunk device busy time */
	double		fill_ms;		/* heap reading + deforming + staging */
	double		wait_ms;		/* waiting for the device */
	int64		cache_chunks;	/* chunks read from the cache */
	int64		cache_invalid;	/* cache entries found not valid */
	int64		cache_bytes;	/* bytes of cached columns the program reads */
	double		wall_ms;		/* scan start to end, summed over loops */
} GxScanStats;

typedef struct GxParallelState GxParallelState;

typedef struct GxScanState
{
	CustomScanState css;
	List	   *device_quals;
	List	   *host_quals;
	ExprState  *device_recheck;	/* device quals on the host, for EvalPlanQual */
	GxProgram  *prog;
	List	   *param_states;	/* ExprState per prog->params */
	int			device;			/* GxDevKind */
	int			transfer;		/* GxTransfer requested for the GPU */
	Relation	rel;
	TableScanDesc scan;
	TupleTableSlot *read_slot;
	bool		heap_done;
	bool		started;
	bool		pagemode;		/* read pages through heapgetpage() */
	BlockNumber next_block;		/* pagemode: next block to read */
	GxParallelState *par;		/* parallel-aware scan (parallel.cpp) */
	int			cur_line;		/* pagemode: next entry of rs_vistuples */
	bool		page_valid;		/* pagemode: rs_vistuples is loaded */
	int			maxatt;			/* highest attribute the program reads */
	bool		device_deform;	/* pages go to the device, which deforms them */
	gx_attr    *atts;			/* device deform: attributes 1 .. maxatt */
	HeapTupleData cur_tup;		/* device deform: the row the scan slot holds */
	int			fast_off[GX_MAX_COLS];	/* fixed offset in a tuple without
										 * NULLs, or -1 */
	uint32		rows_per_chunk;
	uint64		col_values_off[GX_MAX_COLS];
	uint64		col_nulls_off[GX_MAX_COLS];
	uint64		input_bytes;
	uint64		result_off;
	bool		need_tuples;	/* plan reads columns of returned rows */
	bool		agg_mode;		/* returns one row of partial aggregates */
	bool		agg_done;
	int			nagg;
	GxAggSpec	aggs[GX_MAX_AGGS];
	int64		agg_rows;		/* rows selected so far */
	int64		agg_val[GX_MAX_AGGS];
	int64		agg_cnt[GX_MAX_AGGS];
	GxCacheRef *crefs;			/* cache entries of the relation, by block */
	int			ncrefs;
	int			cidx;			/* next cache entry ahead of the scan */
	BlockNumber stop_block;		/* heap reading stops here (next entry) */
	BlockNumber pending[GX_CACHE_MAX_HOLES];	/* holes of the entry just */
	int			npending;		/* sent: heap blocks to read next */
	int			ipending;
	Buffer		vmbuf;			/* visibility map page in use */
	bool		null_row;		/* the scan slot holds the empty row of
								 * count-only batches */
	Buffer		fetch_buf;		/* cached rows: heap page of the last row */
	BlockNumber fetch_blk;
	GxBatch		batch[GX_MAX_BATCHES];
	int			nbatches;		/* batches in use (chunks kept in flight) */
	int			nalloc;			/* batches with their arrays allocated */
	GxBatch    *consuming;
	int64		next_seq;
	GxScanStats stats;
	bool		loop_open;		/* a scan loop started and has not ended */
	instr_time	loop_start;		/* when it started */
} GxScanState;

void		gx_explain_scan(CustomScanState *node, List *ancestors,
							struct ExplainState *es);
Node	   *gx_create_scan_state(CustomScan *cscan);
void		gx_raise_error(int code);
bool		gx_deform_atts(TupleDesc desc, int ncols, const AttrNumber *attno,
						   const int *gxtype, gx_attr *atts, int *maxatt);
int			gx_type_width(int gxtype);

/* device aggregates (aggscan.cpp) */
bool		gx_agg_plan(CustomScan *cscan);
List	   *gx_agg_device_quals(CustomScan *cscan);
void		gx_agg_begin(GxScanState *st, CustomScan *cscan);
void		gx_agg_set_chunk(GxScanState *st, gx_chunk *c);
void		gx_agg_collect(GxScanState *st, const gx_result *res, uint32 nsel);
TupleTableSlot *gx_agg_store(GxScanState *st, TupleTableSlot *slot);
char	   *gx_agg_describe(GxScanState *st);

/* cache use by a scan (cache.cpp) */
void		gx_cache_scan_begin(GxScanState *st);
bool		gx_cache_pin(int slot, GxCacheRef *r);
bool		gx_cache_valid(Relation rel, Buffer *vmbuf, const GxCacheRef *r);
void		gx_cache_touch(int idx);

/* ---- parallel-aware GpuScan (parallel.cpp) ---- */
bool		gx_scan_next_block(GxScanState *st, BlockNumber *blk);
Size		gx_par_estimate_dsm(CustomScanState *node, ParallelContext *pcxt);
void		gx_par_init_dsm(CustomScanState *node, ParallelContext *pcxt,
							void *coordinate);
void		gx_par_reinit_dsm(CustomScanState *node, ParallelContext *pcxt,
							  void *coordinate);
void		gx_par_init_worker(CustomScanState *node, shm_toc *toc,
							   void *coordinate);
void		gx_par_shutdown(CustomScanState *node);

#endif							/* GPUEXT_H */
