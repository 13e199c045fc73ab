/*
 * executor.h - executor nodes: GpuScan (scan, aggregate and parallel modes) and
 * its EXPLAIN output; GpuJoin (gpujoin.cpp).
 */
#ifndef GX_EXECUTOR_H
#define GX_EXECUTOR_H

#include "gpuext.h"
#include "engine.h"
#include "cache.h"
#include "compiler.h"
#include "gx_layout.h"

extern "C"
{
#include "utils/tuplestore.h"
}

/* ---- executor (gpuscan.cpp) and EXPLAIN (explain.cpp) ---- */
/*
 * Chunks a scan keeps in flight: two while it reads the heap (one filled
 * while the device runs the other), four per device for count-only scans
 * of cached columns, whose chunks take tens of microseconds on the device,
 * so that the round trips through the service overlap (and several
 * devices run at once), at most GX_MAX_BATCHES.  GpuJoin's inputs keep
 * GX_JOIN_BATCHES in flight.
 */
#define GX_HEAP_BATCHES 2
#define GX_DEVICE_BATCHES 4
#define GX_MAX_BATCHES 8
#define GX_JOIN_BATCHES 4

typedef struct GxBatch
{
	int			slot;			/* staging slot while in flight, else -1 */
	int			device;			/* the device its task runs on (the source
								 * decides: a cache entry's, or the least
								 * loaded of its devices) */
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
	bool		host_recheck;	/* GX_RESULT_HOST: the selected rows must pass
								 * the device quals on the host */
	BlockNumber cache_start;	/* cached: first block of the entry */
	uint32		skipped_rows;	/* cached: rows of its stale blocks */
	uint32		table;			/* GpuPreAgg: the group table it adds into */
	bool		group_full;		/* ... which had no room for some row */
	bool		group_host;		/* ... and left rows to the host */
} GxBatch;

/* a device aggregate of an aggregate GpuScan (aggscan.cpp) */
typedef enum GxAggKind
{
	GX_AGGK_COUNT_STAR,
	GX_AGGK_COUNT,
	GX_AGGK_SUM,				/* sum(int2/int4): int8 */
	GX_AGGK_MIN,				/* group mode: min, bool_and; the argument's type */
	GX_AGGK_MAX,				/* group mode: max, bool_or */
	GX_AGGK_AVG,				/* group mode: avg(int2/int4): int8[] {N, sum} */
	GX_AGGK_NSUM,				/* group mode: sum, avg(numeric): NumericAggState
								 * serialised (partial_states.cpp) */
	GX_AGGK_SUM8,				/* group mode: sum, avg(int8): PolyNumAggState
								 * serialised (partial_states.cpp) */
	GX_AGGK_FSUM,				/* group mode: sum(float4/float8): the argument's type */
	GX_AGGK_FVAR,				/* group mode: avg, stddev*, var* of float4/float8:
								 * float8[3] {N, Sx, Sxx} (partial_states.cpp) */
	GX_AGGK_FMIN,				/* group mode: min(float4/float8) */
	GX_AGGK_FMAX,				/* group mode: max(float4/float8) */
	GX_AGGK_IVAR				/* group mode: stddev*, var* of int2/4/8, numeric:
								 * PolyNumAggState / NumericAggState with sumX2
								 * serialised (partial_states.cpp) */
} GxAggKind;

typedef struct GxAggSpec
{
	GxAggKind	kind;
	AttrNumber	attno;			/* all but COUNT_STAR: the column */
	Oid			argtype;		/* its type */
	int			col;			/* its chunk column */
	int			slot;			/* its gx_chunk_ext.agg index */
	AttrNumber	resno;			/* its custom_scan_tlist entry */
	const char *name;			/* the aggregate's name (EXPLAIN) */
	Expr	   *arg;			/* its argument, NULL for count(*) */
	int			scale;			/* numeric: its values' scale on the device */
	int			dcol;			/* sum/avg of an unconstrained numeric: the
								 * output of its dscales, else -1 */
	int			dslot;			/* their largest (a GX_AGG_MAX) */
	int			sqcol;			/* IVAR: the output of its argument's square
								 * (numeric at scale 2 * scale), else -1 */
	int			sqslot;			/* its exact sum (a GX_AGG_SUM128) */
	ExprState  *argstate;		/* group mode: for the host's rows */
	Expr	   *filter;			/* group mode: its FILTER, or NULL */
	int			filt;			/* its program output (GX_BOOL), or -1 */
	ExprState  *filtstate;		/* for the host's rows */
	Oid			fnoid;			/* the aggregate */
} GxAggSpec;

/*
 * A finalizing GpuPreAgg's way from an aggregate's partial state to its
 * value (gx_agg_final_init, gx_agg_finalize): PostgreSQL's deserialize and
 * final functions, called as its Finalize node would for one partial row
 */
typedef struct GxAggFinal
{
	bool		has_deserial;
	bool		has_final;
	FmgrInfo	deserial;
	FmgrInfo	final;
} GxAggFinal;

/* a dictionary of string values: ids on the device (join_dict.cpp) */
typedef struct GxDict GxDict;
GxDict	   *gx_dict_create(MemoryContext cxt, Oid typid);
int64		gx_dict_id(GxDict *d, Datum v);
Datum		gx_dict_datum(const GxDict *d, int64 id);

/* a GROUP BY key of a GpuPreAgg (preagg.cpp) */
typedef struct GxKeySpec
{
	Expr	   *expr;			/* a column or an expression of the table's */
	Oid			type;
	int32		typmod;			/* bpchar: its length */
	int			scale;			/* numeric: its values' scale on the device */
	int			col;			/* its program output (GX_OP_OUT) */
	AttrNumber	resno;			/* its custom_scan_tlist entry */
	ExprState  *state;			/* for the host's rows */
	GxDict	   *dict;			/* a string key: the device holds its ids in
								 * this dictionary (join_agg.cpp), else NULL */
} GxKeySpec;

/* GpuPreAgg's group table, its passes, and what it returns (preagg.cpp) */
#define GX_MAX_PASS_BITS 24		/* a pass's partition: at most 2^24 of them */
typedef struct GxGroupState
{
	int			nkeys;
	GxKeySpec	keys[GX_MAX_GKEYS];
	int			ndev;			/* device aggregates (ext.agg), shared by specs */
	gx_agg		dev[GX_MAX_AGGS];
	double		est_groups;		/* the planner's estimate (a rerun: a new one) */
	uint32		cap;			/* slots of the table rows go to (agg_obj) */
	uint32		limit;			/* groups it may hold */
	uint32		gflags;			/* GX_GROUP_* of the tasks */
	/*
	 * several devices: a table of that geometry per device of the source
	 * (the home device's is agg_obj), each chunk adding into its device's;
	 * the devices whose table chunks named since it was last emptied (a
	 * mask: the tables to merge into the home table, and to empty), and
	 * the next slot of the first of them to merge (preagg.cpp)
	 */
	uint32		tables[GX_MAX_DEVICES];
	uint32		used;
	uint32		merge_next;
	double		rerun_want;		/* groups a pass run again expects (a merge
								 * that found no room), 0: from its rows */
	/*
	 * passes (serial scans): the partition this pass aggregates (a
	 * gx_chunk_ext.gpart_mask / gpart_value), the partitions still to run
	 * (each (mask << 32) | value), and whether the pass must run again (a
	 * chunk found no room: a larger table, or its partition split)
	 */
	uint32		part_mask;
	uint32		part_value;
	uint64	   *todo;
	int			ntodo;
	int			todo_size;
	bool		rerun;
	bool		host_taken;		/* a pass that was kept took the host's rows */
	Tuplestorestate *host_rows; /* partial rows of the rows the device did
								 * not aggregate (no room) */
	TupleTableSlot *table_slot; /* a row of the table */
	ExprState  *quals;			/* the device quals, for the host's rows */
	TupleTableSlot *min_slot;	/* reading host_rows */
	bool		reading;		/* this process returns the table's groups */
	uint32		read_next;		/* next slot to read */
	char	   *recs;			/* groups read, not returned yet */
	uint32		nrecs;
	uint32		rec_pos;
	/* EXPLAIN ANALYZE */
	int64		ngroups;		/* groups returned from the table */
	int64		nhost;			/* rows aggregated by the host */
	int64		nreads;			/* GROUP_READ tasks */
	int64		npasses;		/* passes whose groups were returned */
	int64		nreruns;		/* passes run again */
	/*
	 * finalizing GpuPreAgg (custom_private "final"): the groups' final values
	 * when each pass's table held its groups and no row was left to the
	 * host; else
	 * (fallback) the rows of its child, the Finalize plan
	 */
	bool		final;
	bool		fallback;
	bool		decided;		/* final or fallback, this run */
	GxAggFinal	fin[GX_MAX_AGGS];	/* per st->aggs */
	AggState   *fagg;			/* the aggregate context of their calls */
} GxGroupState;

/*
 * The counters of a scan, defined once: the struct, and the sum of a
 * parallel scan's processes (gx_scan_stats_add) both come from this list,
 * so a new counter cannot be left out of the sum.  wall_ms is apart: the
 * processes of a parallel scan run side by side, so it stays the leader's.
 */
#define GX_SCAN_STATS(X) \
	X(int64, chunks) \
	X(int64, chunks_gpu)		/* chunks the GPU ran ... */ \
	X(int64, chunks_mapped)		/* ... of which in mapped mode */ \
	X(int64, chunks_jit)		/* ... with the program's compiled kernel */ \
	X(int64, rows_in) \
	X(int64, rows_selected) \
	X(int64, bytes_h2d) \
	X(int64, bytes_d2h) \
	X(double, h2d_ms) \
	X(double, kernel_ms) \
	X(double, d2h_ms) \
	X(double, device_ms)		/* sum of per-chunk device busy time */ \
	X(double, fill_ms)			/* heap reading + deforming + staging */ \
	X(double, wait_ms)			/* waiting for the device */ \
	X(int64, cache_chunks)		/* chunks read from the cache */ \
	X(int64, cache_invalid)		/* cache entries found not valid */ \
	X(int64, cache_bytes)		/* bytes of cached columns the program reads */ \
	X(int64, cache_rows)		/* rows read from cache entries (not stale) */ \
	X(int64, cache_stale_blocks)	/* stale blocks of used entries, read from the heap */ \
	X(int64, cache_stale_rows)	/* rows the scan read from those blocks */

typedef struct GxScanStats
{
#define GX_STAT_FIELD(type, name) type name;
	GX_SCAN_STATS(GX_STAT_FIELD)
#undef GX_STAT_FIELD
	int64		dev_chunks[GX_MAX_DEVICES];	/* chunks per device */
	/*
	 * GpuPreAgg on several devices: its GROUP_MERGE tasks, the other
	 * devices' groups they merged, and those the home table had no room
	 * for (EXPLAIN only: not columns of gpuext_stat)
	 */
	int64		group_merges;
	int64		groups_merged;
	int64		groups_unmerged;
	double		wall_ms;		/* scan start to end, summed over loops */
} GxScanStats;

/* a += b, every counter but wall_ms */
static inline void
gx_scan_stats_add(GxScanStats *a, const GxScanStats *b)
{
#define GX_STAT_ADD(type, name) a->name += b->name;
	GX_SCAN_STATS(GX_STAT_ADD)
#undef GX_STAT_ADD
	for (int d = 0; d < GX_MAX_DEVICES; d++)
		a->dev_chunks[d] += b->dev_chunks[d];
	a->group_merges += b->group_merges;
	a->groups_merged += b->groups_merged;
	a->groups_unmerged += b->groups_unmerged;
}

typedef struct GxParallelState GxParallelState;

/*
 * A row source: a relation read into batches for the device, in the
 * scan's snapshot (source_heap.cpp; cache entries: source_cache.cpp).
 * Separate from the device pipeline and from what a node returns, so that
 * GpuScan, and the GpuJoin and GpuPreAgg nodes that follow, share it.
 */
typedef struct GxSource
{
	Relation	rel;
	GxProgram  *prog;			/* the columns the device reads */
	int			device;			/* its node's home device */
	GxDevSet	devs;			/* the devices its batches may run on, home
								 * first (gx_source_spread; else home alone) */
	GxScanStats *stats;			/* the node's counters */
	MemoryContext cxt;			/* the query's: batch row arrays */
	bool		need_rows;		/* cached batches select row map values (the
								 * node returns their tuples) */
	int64		cache_reread;	/* cached batches given up, their blocks read
								 * from the heap (a GpuJoin's rows of more
								 * pairs than one pass holds:
								 * gx_source_cache_reread) */
	bool		no_cache;		/* read heap pages only, no cache entry (a
								 * node that submits a batch's task again
								 * later: an entry is pinned only while a
								 * task is in flight) */
	uint32		result_row_bytes;	/* result bytes a task needs per row
									 * beyond a selection's, and ... */
	uint32		result_fixed_bytes;	/* ... once (a merge probe's scratch);
									 * set before gx_source_init */
	TableScanDesc scan;
	TupleTableSlot *read_slot;
	bool		heap_done;
	bool		pagemode;		/* read pages through heapgetpage() */
	BlockNumber next_block;		/* pagemode: next block to read */
	int			cur_line;		/* pagemode: next entry of rs_vistuples */
	bool		page_valid;		/* pagemode: rs_vistuples is loaded */
	int			maxatt;			/* highest attribute the program reads */
	bool		device_deform;	/* pages go to the device, which deforms them */
	gx_attr    *atts;			/* device deform: attributes 1 .. maxatt */
	HeapTupleData cur_tup;		/* the row the scan slot holds (device
								 * deform, cache) */
	int			fast_off[GX_MAX_COLS];	/* fixed offset in a tuple without
										 * NULLs, or -1 */
	uint32		rows_per_chunk;
	uint64		col_values_off[GX_MAX_COLS];	/* backend deform layout */
	uint64		col_nulls_off[GX_MAX_COLS];
	uint64		input_bytes;
	uint64		result_off;
	/* cache entries (source_cache.cpp) */
	GxCacheRef *crefs;			/* cache entries of the relation, by block */
	int			ncrefs;
	int			cidx;			/* next cache entry ahead of the scan */
	BlockNumber stop_block;		/* heap reading stops here (next entry) */
	BlockNumber *pending;		/* stale blocks of the entry just sent: */
	int			npending;		/* heap blocks to read next */
	int			ipending;
	Buffer		vmbuf;			/* visibility map page in use */
	uint32	   *skip;			/* stale blocks of the entry being sent */
	Buffer		fetch_buf;		/* cached rows: heap page of the last row */
	BlockNumber fetch_blk;
} GxSource;

/* the GpuScan node (gpuscan.cpp; aggregate mode: aggscan.cpp) */
typedef struct GxScanState
{
	CustomScanState css;
	List	   *device_quals;
	List	   *host_quals;
	ExprState  *device_recheck;	/* device quals on the host, for EvalPlanQual */
	ExprState  *host_qual;		/* the host quals (ps.qual of a device run) */
	ExprState  *fallback_qual;	/* device quals, then host quals: ps.qual of a
								 * run whose program could not take its
								 * values (GxProgram.may_fallback) */
	bool		host_run;		/* this run: device quals on the host */
	GxProgram  *prog;			/* compiled at plan time, kept in the plan */
	List	   *param_states;	/* ExprState per prog->params */
	int			device;			/* gx_dev_kind */
	int			transfer;		/* GxTransfer requested for the GPU */
	GxSource	src;			/* where the rows come from */
	bool		started;
	GxParallelState *par;		/* parallel-aware scan (parallel.cpp) */
	bool		need_tuples;	/* plan reads columns of returned rows */
	bool		null_row;		/* the scan slot holds the empty row of
								 * count-only batches */
	uint32		session;		/* engine session the tasks name, 0 = none */
	bool		own_session;	/* opened here (else a parallel leader's) */
	/* aggregate mode (aggscan.cpp) */
	bool		agg_mode;		/* returns one row of partial aggregates */
	bool		group_mode;		/* ... or one per group (GpuPreAgg: preagg.cpp) */
	GxGroupState grp;
	bool		agg_done;
	int			nagg;
	GxAggSpec	aggs[GX_MAX_AGGS];
	int			nagg_dev;		/* aggregates the device state object holds */
	int64		agg_rows;		/* rows selected so far */
	int64		agg_val[GX_MAX_AGGS];	/* totals read from the state object */
	int64		agg_cnt[GX_MAX_AGGS];
	uint32		agg_obj;		/* the aggregate state object (a handle in
								 * 'session'), 0 = none */
	bool		agg_dirty;		/* it holds sums not read back yet */
	uint32		sets_obj;		/* the big sets object (scan_sets.cpp), 0 = none */
	uint64		sets_bytes;		/* its size */
	bool		agg_skip;		/* parallel: another process returns the row */
	int			agg_read_slot;	/* AGG_READ task in flight, or -1 */
	uint32		agg_read_gen;
	/* the device pipeline: chunks in flight */
	GxBatch		batch[GX_MAX_BATCHES];
	int			nbatches;		/* batches in use (chunks kept in flight) */
	GxBatch    *consuming;
	int64		next_seq;
	GxScanStats stats;
	bool		ran;			/* started at least once (gpuext_stat counts it) */
	bool		loop_open;		/* a scan loop started and has not ended */
	instr_time	loop_start;		/* when it started */
	/* a cursor's backward scan (scroll.cpp) */
	bool		scrollable;		/* planned to scan backward too */
	ItemPointerData *scroll_tids;	/* ids of the rows returned, in order */
	int64		scroll_n;
	int64		scroll_cap;
	int64		scroll_pos;		/* row returned last: -1 before the first,
								 * scroll_n after the last */
	bool		scroll_end;		/* the device pipeline has ended */
} GxScanState;

void		gx_explain_scan(CustomScanState *node, List *ancestors,
							struct ExplainState *es);
void		gx_explain_devices(int home, const GxDevSet *set, const int64 *dev_chunks,
							   struct ExplainState *es);
void		gx_explain_per_device(const char *label, const GxDevSet *set, const int64 *counts,
								  struct ExplainState *es);
Node	   *gx_create_scan_state(CustomScan *cscan);
/* the GpuJoin node (gpujoin.cpp) */
Node	   *gx_create_join_state(CustomScan *cscan);
extern bool gx_enable_join_inputs;	/* gpuext.join_device_inputs */
extern bool gx_join_gather;		/* gpuext.join_gather */

/* cumulative scan statistics (scan_stats.cpp) */
Size		gx_stat_shmem_size(void);
void		gx_stat_shmem_request(void);
void		gx_stat_shmem_init(void);
void		gx_stat_report(Oid relid, const GxScanStats *s);

/* a cursor's backward scan (scroll.cpp) */
void		gx_scroll_begin(GxScanState *st, CustomScan *cscan);
void		gx_scroll_reset(GxScanState *st);
TupleTableSlot *gx_scroll_row(GxScanState *st, ExecScanAccessMtd forward);

/* device aggregates (aggscan.cpp) */
bool		gx_agg_plan(CustomScan *cscan);
List	   *gx_agg_device_quals(CustomScan *cscan);
void		gx_agg_begin(GxScanState *st, CustomScan *cscan);
void		gx_agg_specs(GxScanState *st, List *tlist);
void		gx_agg_set_chunk(GxScanState *st, gx_chunk *c);
void		gx_agg_collect(GxScanState *st, uint32 nsel);
void		gx_agg_prepare(GxScanState *st);
void		gx_agg_read(GxScanState *st, bool keep);
bool		gx_agg_read_submit(GxScanState *st, bool wait);
TupleTableSlot *gx_agg_store(GxScanState *st, TupleTableSlot *slot);
char	   *gx_agg_describe(GxScanState *st, List *dpctx, bool prefix);
void		gx_agg_spec(GxAggSpec *sp, Aggref *a);
bool		gx_exact_var_agg(Oid aggfnoid, Oid *argtype);

/* numeric values and states for GpuPreAgg (partial_states.cpp) */
Datum		gx_numeric_from_scaled(int64 hi, uint64 lo, int scale);
Datum		gx_numeric_free_sum(int64 hi, uint64 lo, const gx_agg_pair *dmax);
Datum		gx_numeric_nan(void);
bool		gx_numeric_avg_state(Datum sum, int64 n, int64 nan, Datum *state);
bool		gx_int8_avg_state(__int128 sum, int64 n, Datum *state);
bool		gx_exact_var_state(Oid argtype, int64 n, int64 nan, __int128 sx, __int128 sx2,
							   int scale, Datum *state);
bool		gx_exact_var_row_state(Datum v, bool isnull, Oid argtype, Datum *state);
bool		gx_exact_var_format_ok(void);
Datum		gx_float_sum_state(double sum, Oid argtype);
Datum		gx_float_var_state(int64 n, double sx, double s, double q);
Datum		gx_float_var_row_state(Datum v, bool isnull, Oid argtype);

/* GpuPreAgg: the group table mode (preagg.cpp) */
bool		gx_group_plan(CustomScan *cscan);
void		gx_group_begin(GxScanState *st, CustomScan *cscan);

/*
 * is a device aggregate's plan finalizing (custom_private's last item the
 * String "final": planner's gx_plan_finalizing)?
 */
static inline bool
gx_private_final(List *priv)
{
	Node	   *last = priv != NIL ? (Node *) llast(priv) : NULL;

	return last != NULL && IsA(last, String) && strcmp(strVal(last), "final") == 0;
}
void		gx_group_begin_spec(GxScanState *st, List *tlist, double est, List *outs,
								List *scales, List *filts, List *dscales, List *sqs,
								bool final);
void		gx_group_set_ext(GxScanState *st, gx_chunk *c, int i, uint32 obj, uint32 cap);
void		gx_group_set_chunk(GxScanState *st, gx_chunk *c);
void		gx_group_chunk_device(GxScanState *st, GxBatch *b, gx_chunk *c);
bool		gx_group_merge_final(GxScanState *st);
void		gx_group_prepare(GxScanState *st);
void		gx_agg_final_init(GxAggFinal *f, Oid aggfnoid);
Datum		gx_agg_finalize(const GxAggFinal *f, AggState *agg, Datum v, bool isnull,
							bool *resnull);
bool		gx_group_local(const GxGroupState *g);
void		gx_group_collect(GxScanState *st, GxBatch *b);
bool		gx_group_rerun(GxScanState *st);
TupleTableSlot *gx_group_next(GxScanState *st, TupleTableSlot *slot);
bool		gx_group_next_pass(GxScanState *st);
void		gx_group_reset(GxScanState *st);
char	   *gx_group_describe_keys(GxScanState *st, List *dpctx, bool prefix);

/* row sources (source_heap.cpp, source_cache.cpp) */
void		gx_source_init(GxSource *src, Relation rel, GxProgram *prog, int device,
						   GxScanStats *stats, EState *estate, bool explain_only);
void		gx_source_spread(GxSource *src, const GxDevSet *set);
void		gx_source_start(GxSource *src, Snapshot snapshot);
uint32		gx_source_fill(GxSource *src, GxBatch *b, gx_chunk *c, int slot);
TupleTableSlot *gx_source_row(GxSource *src, GxBatch *b, uint32 sel, TupleTableSlot *slot);
void		gx_source_rescan(GxSource *src);
double		gx_source_progress(GxSource *src);
void		gx_source_release(GxSource *src);
void		gx_source_end(GxSource *src);
void		gx_unpin_batch(GxBatch *b);

/* the batch in flight submitted first among batch[0 .. n), or NULL */
static inline GxBatch *
gx_oldest_batch(GxBatch *batch, int n)
{
	GxBatch    *next = NULL;

	for (int i = 0; i < n; i++)
		if (batch[i].inflight && (next == NULL || batch[i].seq < next->seq))
			next = &batch[i];
	return next;
}
void		gx_source_cache_begin(GxSource *src);
void		gx_set_stop_block(GxSource *src);
bool		gx_fill_cached(GxSource *src, GxBatch *b, gx_chunk *c, int slot);
TupleTableSlot *gx_fetch_cached(GxSource *src, GxBatch *b, uint32 m, TupleTableSlot *slot);
void		gx_source_cache_reread(GxSource *src, GxBatch *b);

/* cache use by a scan (cache.cpp) */
void		gx_cache_touch(int idx);

/* ---- parallel-aware GpuScan (parallel.cpp) ---- */

/*
 * A parallel-aware node's leader: a function run once the parallel
 * query's segment is detached (the workers' figures into the leader's),
 * cancelled if the executor's memory goes first (gx_leader_detach_set)
 */
typedef struct GxLeaderDetach
{
	struct dsm_segment *seg;	/* the segment whose detach calls fn, or NULL */
	void		(*fn) (void *arg);
	void	   *arg;
	MemoryContextCallback forget;	/* cancels it if the memory goes first */
} GxLeaderDetach;

void		gx_leader_detach_set(GxLeaderDetach *d, struct dsm_segment *seg, MemoryContext cxt,
								 void (*fn) (void *arg), void *arg);
void		gx_source_attach_parallel(GxSource *src, ParallelTableScanDesc pscan,
									  Snapshot snapshot, bool init);
bool		gx_scan_next_block(GxSource *src, BlockNumber *blk);
Size		gx_par_estimate_dsm(CustomScanState *node, ParallelContext *pcxt);
void		gx_par_init_dsm(CustomScanState *node, ParallelContext *pcxt,
							void *coordinate);
void		gx_par_reinit_dsm(CustomScanState *node, ParallelContext *pcxt,
							  void *coordinate);
void		gx_par_init_worker(CustomScanState *node, shm_toc *toc,
							   void *coordinate);
void		gx_par_shutdown(CustomScanState *node);
bool		gx_par_agg_join(GxScanState *st);
bool		gx_par_agg_leave(GxScanState *st);
void		gx_scan_session(GxScanState *st);
void		gx_scan_restart_source(GxScanState *st);

/* ---- big sets in device memory (scan_sets.cpp) ---- */
void		gx_scan_sets_upload(GxScanState *st);

#endif							/* GX_EXECUTOR_H */
