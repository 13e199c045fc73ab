/*
 * executor.h - executor nodes: GpuScan (scan, aggregate and parallel modes) and
 * its EXPLAIN output.
 */
#ifndef GX_EXECUTOR_H
#define GX_EXECUTOR_H

#include "gpuext.h"
#include "engine.h"
#include "cache.h"
#include "compiler.h"

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

#endif							/* GX_EXECUTOR_H */
