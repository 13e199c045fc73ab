/*
 * join_state.h - the GpuJoin node's state, shared by its files:
 * gpujoin.cpp (the node: reading the children, building, probing,
 * returning rows, rescans), join_table.cpp (the steps on its table: task
 * headers, sizes, the finish, a probe pass's entries), join_inputs.cpp
 * (the sides the device reads itself, through a row source) and
 * join_explain.cpp (EXPLAIN).
 */
#ifndef GX_JOIN_STATE_H
#define GX_JOIN_STATE_H

#include "gpuext.h"
#include "engine.h"
#include "executor.h"

/*
 * What EXPLAIN ANALYZE reports, summed over the node's loops (and, for a
 * parallel GpuJoin, over its processes: join_parallel.cpp).  Defined once,
 * as GX_SCAN_STATS is: the struct and the sum come from this list.
 */
#define GX_JOIN_STATS(X) \
	X(int64, outer_rows)		/* rows read from the outer child */ \
	X(int64, inner_rows)		/* rows read from the inner child */ \
	X(int64, table_rows)		/* rows placed in the join tables (non-NULL keys) */ \
	X(int64, builds)			/* tables built */ \
	X(int64, fallbacks)			/* decisions to run the fallback plan */ \
	X(int64, build_tasks)		/* JOIN_BUILD tasks */ \
	X(int64, probe_tasks)		/* JOIN_PROBE tasks (passes) */ \
	X(int64, pairs)				/* entries the probes returned */ \
	X(int64, unmatched_tasks)	/* JOIN_UNMATCHED tasks (RIGHT / FULL) */ \
	X(int64, unmatched)			/* inner rows without a match (NULL keys too) */ \
	X(int64, counted)			/* counting: the counts returned */ \
	X(int64, rebuilds)			/* device input: tables made again larger */ \
	X(int64, declined)			/* ... not read by the device (no table for \
								 * the estimate): the child's rows instead */ \
	X(int64, workers)			/* parallel: worker processes that probed */ \
	X(int64, parts)				/* partitions of the inner side (the most) */ \
	X(int64, passes)			/* partitioned passes run */ \
	X(int64, replicas)			/* the table's replicas on other devices */ \
	X(int64, dev_parts)			/* devices the table was partitioned over (the most) */ \
	X(double, replica_ms)		/* ... their copies' device time */ \
	X(double, build_ms)			/* reading the inner side and building */ \
	X(double, probe_ms)			/* reading the outer side and probing */

typedef struct GxJoinStats
{
#define GX_JSTAT_FIELD(type, name) type name;
	GX_JOIN_STATS(GX_JSTAT_FIELD)
#undef GX_JSTAT_FIELD
	int64		dev_probes[GX_MAX_DEVICES];	/* JOIN_PROBE tasks per device */
} GxJoinStats;

/* a += b */
static inline void
gx_join_stats_add(GxJoinStats *a, const GxJoinStats *b)
{
#define GX_JSTAT_ADD(type, name) a->name += b->name;
	GX_JOIN_STATS(GX_JSTAT_ADD)
#undef GX_JSTAT_ADD
	for (int d = 0; d < GX_MAX_DEVICES; d++)
		a->dev_probes[d] += b->dev_probes[d];
}

typedef struct GxJoinParallel GxJoinParallel;	/* join_parallel.cpp */

/*
 * A side read by the device itself (custom_private 7 / 8): its table
 * through a row source (source_heap.cpp, source_cache.cpp), in batches
 * of cached columns, heap pages or deformed columns, with the plan's
 * program (quals, keys as outputs)
 */
typedef struct GxJoinInput
{
	GxProgram  *prog;			/* the plan's program, NULL: read the child */
	bool		on;				/* this node reads the side through src */
	bool		started;		/* src started once (its heap scan is open) */
	GxSource	src;
	GxScanStats stats;			/* its chunks (EXPLAIN ANALYZE) */
	GxBatch		batch[GX_JOIN_BATCHES];
	bool		pending[GX_JOIN_BATCHES];	/* ... a probe sent to a device
											 * before its table's copy was
											 * seen done (join_replicas.cpp) */
	int64		next_seq;
	/* the outer side's rows returned (SEMI, ANTI, INNER): one batch at a time */
	bool		rows;			/* this run returns the side's rows */
	AttrNumber *attno;			/* per resno of the child's target list: its
								 * column of the table (a Var), else 0 */
	TupleTableSlot *tslot;		/* a row of the table */
	int			maxattno;		/* the highest column of it returned */
	int			held;			/* the batch's slot, kept for its passes, or -1 */
	char	   *saved;			/* ... or, given back between passes (nested),
								 * the batch's task image, taken again */
	uint64		saved_bytes,
				saved_alloc;
	bool		reading;		/* the source stands in this run (until a rescan) */
	/* a table partitioned over the devices (join_devparts.cpp): per batch */
	uint8		pfirst[GX_JOIN_BATCHES];	/* ... the index in devs of its first device */
	uint8		pvisit[GX_JOIN_BATCHES];	/* ... the devices it has been to */
	uint32		held_gen;
} GxJoinInput;

typedef struct GxJoinState
{
	CustomScanState css;
	int			mode;			/* enum gx_join_mode the device runs */
	/*
	 * a SEMI, ANTI or LEFT join with other join quals (join_filter.cpp):
	 * the device runs it as INNER (SEMI) or LEFT (ANTI, LEFT) pairs, the
	 * node runs the quals over each pair and keeps the rows of jtype
	 */
	int			jtype;			/* the plan's join type (enum gx_join_mode) */
	bool		filtered;		/* the quals decide which rows match */
	ExprState  *join_qual;		/* ... those quals */
	int64		cur;			/* the outer row whose entries are being read, -1 */
	bool		cur_any;		/* ... a pair of it passed the quals */
	bool		cur_done;		/* ... its row was returned (SEMI, ANTI) */
	bool		nested;			/* in another GpuJoin's outer child: no
								 * outer device input returning rows */
	int			alg;			/* enum gx_join_alg (custom_private 6, 9) */
	/* GX_JOIN_RANGE: the outer keys are the bounds, the inner key is one */
	int			lo_k,
				hi_k;			/* which outer key bounds the inner key, -1 none */
	uint32		bflags;			/* GX_JOIN_LO_INCL, GX_JOIN_HI_INCL */
	bool		count;			/* counting: one row, count(*)'s partial state */
	/*
	 * aggregating its pairs (join_agg.cpp): group probes add them into a
	 * group table, whose groups the node returns as partial states; the
	 * table, keys and aggregates are held by a scan state of their own
	 * (preagg.cpp's group functions), with no relation
	 */
	bool		group;
	struct GxScanState *grs;	/* the group table's owner */
	/*
	 * returning rows with gathered output (join_gather.cpp): the probes
	 * write the returned columns' values beside each entry
	 */
	bool		gather;
	int			ngather;		/* ... columns: the scan slot's */
	int16	   *gather_ref;		/* ... per column: its outer program output,
								 * or -1 - its inner column */
	int		   *gather_type;	/* ... its gx_type */
	Node	   *gather_prog[2];	/* ... each side's gathering program (a
								 * Const), or NULL */
	int64	   *gval;			/* the last pass's values (the outer device
								 * input's): column g of entry i at
								 * g * gval_alloc + i */
	uint8	   *gnull;
	uint32		gval_alloc;
	/*
	 * the inner columns the build stores in the table's column store
	 * (aggregating its pairs, or gathering them)
	 */
	int			gncols;			/* inner columns the build stores */
	AttrNumber	gcol_res[GX_JOIN_MAX_COLS];	/* ... their resnos in the inner child */
	int			gcol_type[GX_JOIN_MAX_COLS];	/* ... gx_type */
	int			gcol_scale[GX_JOIN_MAX_COLS];	/* ... numeric scale */
	GxDict	   *gcol_dict[GX_JOIN_MAX_COLS];	/* ... a string key's dictionary */
	int			ngdict;			/* the outer rows' string key columns: */
	AttrNumber	gdict_res[GX_MAX_COLS];	/* ... their resnos */
	GxDict	   *gdict[GX_MAX_COLS];	/* ... their dictionaries */
	int16		gicol_out[GX_JOIN_MAX_COLS];	/* the inner device input: each
												 * column's program output */
	bool		ginner_input;	/* the inner device input stores them */
	int			icol_base;		/* the outer program's outputs */
	uint32		cols_obj;		/* the inner column store, 0 = none */
	uint32		mscratch[GX_MAX_DEVICES];	/* a merge probe's scratch on each
											 * device (the outer device input's
											 * cached batches:
											 * GX_JOIN_MSCRATCH), 0 = none */
	uint32		mscratch_rows;	/* ... rows each has room for */
	bool		group_run;		/* this run's groups made (or the fallback chosen) */
	bool		group_bad;		/* a probe left a pair to the host / had no room */
	GxProgram  *grows_prog;		/* the outer child's rows' program (its
								 * columns are the child's resnos), or NULL:
								 * the outer table's, a device input */
	/*
	 * a multi-level group probe (join_levels.cpp): this join is a level of
	 * the aggregating join above it (its table in that join's session), or
	 * the aggregating join of nlevels
	 */
	bool		level;			/* a level: its session is the aggregating
								 * join's above it */
	int			level_no;		/* ... its level */
	struct GxJoinState *upper;	/* the join that probes: the aggregating
								 * join, while its probes run */
	int			nlevels;		/* the aggregating join: 2 .. GX_JOIN_MAX_LEVELS,
								 * or 0 (one table) */
	bool		right_deep;		/* ... its own table is level 0, built from
								 * its inner child's outer child */
	bool		levels_ran;		/* ... a run built the levels' tables */
	struct GxJoinState *lv[GX_JOIN_MAX_LEVELS];	/* ... each level's join (it
												 * may be itself) */
	struct GxJoinState *prober;	/* ... the join whose outer device input
								 * is probed (level 0's) */
	int16		lkey_ref[GX_JOIN_MAX_LEVELS][GX_JOIN_MAX_KEYS];	/* ... level l's
																 * keys' entries of
																 * the joined
																 * output vector */
	bool		count_done;		/* ... returned (until a rescan) */
	int64		count_sum;		/* ... the count being made */
	int			nkeys;
	AttrNumber	okey[GX_JOIN_MAX_KEYS];	/* resnos in the outer child's rows */
	AttrNumber	ikey[GX_JOIN_MAX_KEYS];	/* ... in the inner child's */
	int			otype[GX_JOIN_MAX_KEYS];	/* device types of the keys */
	int			itype[GX_JOIN_MAX_KEYS];
	int			kscale[GX_JOIN_MAX_KEYS];	/* numeric: both sides' scale */
	uint32		kfloat;			/* bit k: key k is a float (gx_join_ext) */
	int			natts;			/* columns of the scan slot */
	int		   *src_side;		/* per column: 0 outer, 1 inner */
	AttrNumber *src_att;		/* ... its resno there */
	int			omax,
				imax;			/* highest resno read on each side */
	PlanState  *outer_ps;
	PlanState  *inner_ps;
	PlanState  *fallback_ps;	/* PostgreSQL's join of the two sides */
	TupleTableSlot *oslot;		/* an outer row (MinimalTuple) */
	TupleTableSlot *islot;		/* an inner row */
	int			device;			/* its home device: the table, the builds */
	/*
	 * several devices (join_replicas.cpp): the sealed table copied to the
	 * other devices of the node's set, each probe sent where its rows lie
	 */
	GxDevSet	devs;			/* the devices its probes may use (home alone:
								 * a join whose probes write or whose tables
								 * are another join's) */
	GxDevSet	pdevs;			/* ... those holding a ready table, home first */
	uint32		replica[GX_MAX_DEVICES];	/* the table on each device (home's:
											 * table), 0 = none */
	int			copy_slot[GX_MAX_DEVICES];	/* the OBJ_COPY in flight to each,
											 * -1 = none */
	uint32		copy_gen[GX_MAX_DEVICES];
	int			ncopies;		/* ... how many */
	/*
	 * or the table partitioned over the devices' key ranges
	 * (join_devparts.cpp): ndevparts = devs.n tables, one a device
	 */
	int			ndevparts;		/* 0: one table (and maybe its replicas) */
	uint32		ptable[GX_MAX_DEVICES];	/* each device's part (home's: table) */
	uint64		copy_bytes;		/* ... bytes each copies */
	bool		redo;			/* a probe was lost with its device's copy:
								 * the outer side is counted again */
	int			chunk_device;	/* the device probing the outer chunk the node
								 * laid out */
	uint32		rows_per_chunk;	/* rows of a build or probe task */
	uint32		max_pairs;		/* entries a probe pass returns at most */
	/* the inner side and its table */
	bool		built;			/* the inner side read, the decision taken */
	bool		fallback;		/* ... to return the fallback plan's rows */
	uint32		session;		/* 0 = none */
	uint32		table;			/* the join table object, 0 = none */
	uint32		cap,
				kcap;
	uint32		placed;			/* rows the table holds (non-NULL keys) */
	MemoryContext inner_cxt;
	MinimalTuple *inner;
	uint32		ninner;
	uint32		inner_alloc;
	uint32	   *nullkey;		/* RIGHT / FULL: inner rows with a NULL key */
	uint32		nnullkey,
				nullkey_alloc;
	/* RIGHT / FULL, after the outer side: the unmatched inner rows */
	bool		probed;			/* the outer side is done */
	uint32		tail_next;		/* the next placed row to read */
	bool		tail_nulls;		/* ... the NULL-key rows taken */
	uint32	   *tail_buf;		/* the last JOIN_UNMATCHED task's rows */
	const uint32 *tail;			/* the inner rows being returned */
	uint32		ntail,
				tail_pos;
	/* the outer chunk being probed */
	MemoryContext chunk_cxt;
	MinimalTuple *outer;
	uint32		nouter;
	bool		outer_done;
	char	   *image;			/* the chunk's probe task, input part */
	uint64		image_bytes;
	bool		more;			/* another pass of this chunk is due */
	uint32		next_row,
				next_match;
	gx_join_pair *pairs;		/* entries of the last pass */
	uint32		npairs,
				pairs_alloc,
				pair_pos;
	GxJoinInput input[2];		/* 0 outer, 1 inner */
	GxJoinStats stats;
	/*
	 * parallel GpuJoin (join_parallel.cpp): the leader's table, shared;
	 * a worker's session and table are the leader's (never closed here),
	 * its inner rows the leader's copies in the query's DSA
	 */
	GxJoinParallel *par;
	/*
	 * partitioned passes (join_parts.cpp): one table for one partition of
	 * the inner side at a time, st->inner / ninner that partition's rows
	 */
	int			nparts;			/* 0: one table for the whole side */
	int			part;			/* this pass's partition */
	MinimalTuple *part_rows;	/* every inner row, grouped by partition */
	uint32	   *part_first;		/* partition p: part_rows[part_first[p] ..
								 * part_first[p + 1]) */
	struct Tuplestorestate **spool; /* the later passes' outer rows */
	TupleTableSlot *spool_slot; /* an outer row read back from a spool */
	Size		inner_bytes;	/* the inner rows' bytes */
	bool		outer_input_on; /* the outer device input, before partitions */
	bool		worker_table;	/* session / table / inner rows are the leader's */
	bool		par_reinit;		/* the leader's ReInitializeDSM took the
								 * rescan's table decision already */
} GxJoinState;

/* gx_join_build_input's outcomes */
#define GX_BUILD_DONE 0
#define GX_BUILD_DECLINED 1		/* no table for the estimate: read the child */
#define GX_BUILD_NONE 2			/* no larger table: the fallback plan runs */

/*
 * the keys of one side's batches: the plan's, but a range join's inner
 * side has one (its outer keys are the bounds)
 */
static inline int
gx_join_side_keys(const GxJoinState *st, bool inner)
{
	return inner && st->alg == GX_JOIN_RANGE ? 1 : st->nkeys;
}

/* the table's steps, shared by the node and the device inputs (join_table.cpp) */
void		gx_join_header(GxJoinState *st, gx_chunk *c, uint32 kind, uint64 input_bytes);
gx_result  *gx_join_result(int slot);
void		gx_join_store_col(gx_chunk *c, int k, uint32 row, TupleTableSlot *slot,
							  AttrNumber resno, int gxtype, int scale, GxDict *dict);
uint32		gx_join_kcap(const GxJoinState *st, uint32 cap);
uint64		gx_join_bytes(const GxJoinState *st, uint32 cap, uint32 kcap);
bool		gx_join_table_fits(GxJoinState *st, uint32 n);
uint64		gx_join_finish_on(GxJoinState *st, uint32 table, int device);
uint64		gx_join_finish_table(GxJoinState *st);
void		gx_join_take_pass(GxJoinState *st, gx_result *res, uint32 nrows, bool append);
gx_result  *gx_join_run(GxJoinState *st, int slot, uint32 generation);
gx_result  *gx_join_run_on(GxJoinState *st, int slot, uint32 generation, int device);
void		gx_join_pairs_room(GxJoinState *st, uint32 n, uint32 keep);

/* the node's steps that the parallel and partitioned joins call (gpujoin.cpp) */
void		gx_join_build(GxJoinState *st);
bool		gx_join_build_rows(GxJoinState *st);
void		gx_join_drop_device(GxJoinState *st);
void		gx_join_drop_table(GxJoinState *st);
void		gx_join_reset_outer(GxJoinState *st);
bool		gx_join_step(GxJoinState *st);
uint32		gx_join_read_outer(GxJoinState *st, uint32 max);
void		gx_join_rescan_inner(GxJoinState *st);

/* partitioned passes (join_parts.cpp) */
#define GX_JOIN_MAX_PARTS 64
bool		gx_join_parts_may_read(GxJoinState *st, uint32 n);
bool		gx_join_parts_begin(GxJoinState *st);
bool		gx_join_parts_build_first(GxJoinState *st);
TupleTableSlot *gx_join_parts_outer(GxJoinState *st);
bool		gx_join_parts_next(GxJoinState *st);
void		gx_join_parts_end(GxJoinState *st);

/* parallel GpuJoin (join_parallel.cpp) */
Size		gx_join_par_estimate(CustomScanState *node, ParallelContext *pcxt);
void		gx_join_par_init_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate);
void		gx_join_par_reinit_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate);
void		gx_join_par_init_worker(CustomScanState *node, shm_toc *toc, void *coordinate);
void		gx_join_par_shutdown(CustomScanState *node);

/* several devices: the table's replicas, where probes run (join_replicas.cpp) */
void		gx_join_devices_begin(GxJoinState *st);
void		gx_join_replicate(GxJoinState *st);
void		gx_join_replicas_collect(GxJoinState *st, bool wait);
void		gx_join_replicas_drop(GxJoinState *st);

/* join_devparts.cpp: the table partitioned over the devices */
bool		gx_join_devparts_wanted(const GxJoinState *st);
bool		gx_join_devparts_alloc(GxJoinState *st, uint32 cap);
void		gx_join_devparts_drop(GxJoinState *st);
int			gx_join_devparts_first(GxJoinState *st, GxJoinInput *in, GxBatch *b, gx_chunk *c);
bool		gx_join_devparts_next(GxJoinState *st, GxJoinInput *in, GxBatch *b, uint32 kind);
uint64		gx_join_devparts_finish(GxJoinState *st);
int			gx_join_acquire(GxJoinState *st, bool wait);
bool		gx_join_probe_on(GxJoinState *st, gx_chunk *c, int device, bool rows);
int			gx_join_pick_device(GxJoinState *st);
bool		gx_join_probe_lost(GxJoinState *st, int device);
void		gx_join_outer_devs(GxJoinState *st);
bool		gx_join_table_runs(const GxJoinState *st);

/* a SEMI, ANTI or LEFT join with other join quals (join_filter.cpp) */
void		gx_join_filter_begin(GxJoinState *st, List *quals);
TupleTableSlot *gx_join_filter_next(GxJoinState *st);
TupleTableSlot *gx_join_store(GxJoinState *st, const gx_join_pair *p);

/*
 * did a group probe leave a pair out of its group table (no room, or the
 * host's)?  The node then runs its fallback (join_agg.cpp)
 */
static inline bool
gx_join_group_missed(const gx_result *res)
{
	return (res->flags & (GX_RESULT_HOST | GX_RESULT_FULL)) != 0 || res->join_noroom > 0 ||
		res->join_host > 0;
}

/* gathered output (join_gather.cpp) */
void		gx_join_gather_begin(GxJoinState *st, CustomScan *cscan);
void		gx_join_gather_off(GxJoinState *st);
void		gx_join_gather_task(GxJoinState *st, gx_chunk *c);
void		gx_join_gather_take(GxJoinState *st, const gx_chunk *c, const gx_result *res,
								uint32 base);
TupleTableSlot *gx_join_gather_store(GxJoinState *st, uint32 i);

/* aggregating its pairs (join_agg.cpp) */
void		gx_join_agg_begin(GxJoinState *st, CustomScan *cscan);
void		gx_join_agg_task(GxJoinState *st, gx_chunk *c);
void		gx_join_cols_task(GxJoinState *st, gx_chunk *c);
void		gx_join_agg_build_cols(GxJoinState *st, gx_chunk *c, uint32 nk);
void		gx_join_agg_input_cols(GxJoinState *st, gx_chunk *c);
bool		gx_join_agg_alloc_cols(GxJoinState *st);
TupleTableSlot *gx_join_agg_exec(GxJoinState *st);
void		gx_join_agg_reset(GxJoinState *st);

/* a multi-level group probe (join_levels.cpp) */
void		gx_join_agg_cols_begin(GxJoinState *st, List *cols, MemoryContext dcxt);
void		gx_join_level_begin(GxJoinState *st, CustomScan *cscan);
void		gx_join_levels_children(GxJoinState *st, CustomScan *cscan);
void		gx_join_levels_begin(GxJoinState *st, List *item);
GxDict	   *gx_join_levels_dict(GxJoinState *st, int d);
void		gx_join_levels_task(GxJoinState *st, gx_chunk *c);
bool		gx_join_levels_run(GxJoinState *st);
void		gx_join_levels_reset(GxJoinState *st);
void		gx_join_levels_explain(GxJoinState *st, List *ancestors, struct ExplainState *es);
char	   *gx_join_keys_text(GxJoinState *st, List *ancestors, struct ExplainState *es);

/* EXPLAIN of the node (join_explain.cpp) */
void		gx_join_explain(CustomScanState *node, List *ancestors, struct ExplainState *es);

/* the sides the device reads itself (join_inputs.cpp) */
void		gx_join_inputs_begin(GxJoinState *st, EState *estate, int eflags);
void		gx_join_input_start(GxJoinState *st, GxJoinInput *in);
int			gx_join_build_input(GxJoinState *st);
void		gx_join_count_input(GxJoinState *st);
bool		gx_join_outer_rows_input(GxJoinState *st);
bool		gx_join_input_next_chunk(GxJoinState *st);
void		gx_join_input_pass(GxJoinState *st, GxJoinInput *in);
void		gx_join_input_drop_batch(GxJoinInput *in);

#endif							/* GX_JOIN_STATE_H */
