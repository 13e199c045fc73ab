/*
 * gpujoin.cpp - the GpuJoin node: a hash or a merge join, or a range join
 * for band and inequality predicates, on the device (issue 15).
 *
 * Design note
 * -----------
 * The plan (join_path.cpp) has two children, the outer and the inner
 * side, each a scan of one table or a join (a chain: another GpuJoin, a
 * Hash Join, ...; read through the child like a scan with no device
 * input), and says which of their columns are the keys and where each
 * column of its scan slot comes from.  The node:
 *
 *  1. drains the inner child into an array of MinimalTuples (memory
 *     context "GpuJoin inner rows"); the index of a row is its payload on
 *     the device;
 *  2. opens an engine session and reserves a join table object sized for
 *     those rows (cap = rows, kcap = a power of 2 >= 2 cap: every row finds
 *     room, none is sent back), then submits one JOIN_BUILD task per chunk
 *     of rows (a column batch of the keys, the program "load key k, output
 *     k"; payload = row_base + row) and one JOIN_FINISH_BUILD;
 *  3. reads the outer child a chunk at a time ("GpuJoin outer chunk",
 *     reset per chunk), lays the chunk's keys out once (the probe image)
 *     and submits JOIN_PROBE tasks in passes: a pass writes at most
 *     max_pairs entries (what the staging slot holds) and says where the
 *     next one starts (GX_RESULT_MORE, next_row / next_match), so every
 *     pair comes back exactly once whatever the result's size;
 *  4. returns each entry as a row: INNER an (outer row, inner row) pair,
 *     SEMI / ANTI the outer row, the columns copied into the scan slot
 *     (custom_scan_tlist), then ExecScan's qual (an INNER join's host
 *     quals, custom_exprs: ps.qual, per row in ExecScan's per-tuple
 *     context; a row they reject is counted in nfiltered1, "Rows Removed
 *     by Join Filter") and projection (a SEMI, ANTI or LEFT join's other
 *     join quals decide which rows match instead: join_filter.cpp);
 *  5. outer joins: LEFT and FULL probes also return each outer row without
 *     a match (or with a NULL key) once, flagged GX_JOIN_PAIR_NO_INNER:
 *     its inner columns are NULL.  RIGHT and FULL probes mark the keys
 *     they match on the device; once the outer side is done, the node
 *     reads the unmatched inner rows with JOIN_UNMATCHED tasks over
 *     ranges of rows_per_chunk placed rows (each range once), then the
 *     inner rows with a NULL key, which the table never held (noted while
 *     the build tasks are laid out): each comes once with its outer
 *     columns NULL.
 *
 * The range join (custom_private 6, GX_JOIN_RANGE; gx_jrange.cuh) runs
 * the same steps with another table: BUILD batches hold the one inner
 * key (ikey[0]), the table is gx_jrange_table_bytes(rows) (no key
 * directory: kcap 0), and the PROBE batches hold the outer "keys", which
 * are the bounds (lo_k, hi_k: the expressions the planner put in the
 * outer child's target list), named in ext.join.lo_out / hi_out with
 * their inclusiveness (bflags).  Its fallback is a Nested Loop; the rest
 * (passes, counting, decisions, rescans) is shared.
 *
 * The merge join (custom_private 9, GX_JOIN_MERGE; gx_jmerge.cuh) runs
 * the hash join's steps, keys and fallback with the sort-merge table
 * (gx_jmerge_table_bytes(rows), no key directory: kcap 0): the device
 * sorts the inner side at FINISH, and each probe task sorts its batch and
 * merges it with the table; a probe's result area holds that scratch
 * (gx_join_pairs_off(n, alg)).  Its marks (RIGHT / FULL) are per
 * distinct key; the unmatched rows come as the hash table's.
 *
 * Device inputs (equi-joins; custom_private 7 / 8, gpuext.join_device_inputs;
 * join_inputs.cpp): a side whose child is a plain scan of a table may be
 * read by the node itself through a row source, cached columns where they
 * lie, and its child never runs: the inner side when its rows are never
 * returned, the outer side always.  In another GpuJoin's outer child
 * (st->nested: set while a GpuJoin initializes that child,
 * gx_join_init_children) an outer side whose rows are returned gives its
 * batch's staging slot back between passes (the task image kept in the
 * backend), since the GpuJoin above takes a slot of its own while those
 * rows come: no backend waits for a slot while holding one.  This file
 * calls them where the child would be read (steps 1 and 3).
 *
 * Keys are read from the children's rows on the host (numeric values put
 * at the common scale of both sides: gx_store_datum_scale), so both sides
 * hold the same int64 for equal values; a NULL key never matches (the
 * device skips it when building, and an ANTI, LEFT or FULL probe returns
 * its row).  An empty inner side needs no device: INNER, SEMI and RIGHT
 * return nothing (the outer side is not read), ANTI, LEFT and FULL every
 * outer row (LEFT, FULL: with NULL inner columns).
 *
 * Fallback.  The plan's third child is PostgreSQL's Hash Join (a range
 * join: Nested Loop) of the same two sides (join_path.cpp), with the
 * node's target list.  The node runs
 * it instead, and returns its rows, when the table cannot be had (a hash
 * or merge join first tries a pass per partition of its inner side, one
 * table at a time: join_parts.cpp); the
 * decision is taken once the inner side is read, before the outer side is
 * read or any row returned, so the rows are either all the device's or
 * all the plan's:
 *  - while reading the inner side, when a table for the rows so far would
 *    exceed gpuext.session_memory or gpuext.device_memory
 *    (gx_join_table_fits: the rest of the side is not read), or when the
 *    side has GX_JOIN_MAX_CAP rows;
 *  - when gx_session_try_alloc has no room for the table (limits, the
 *    engine's object table);
 *  - when a JOIN_BUILD task fails for lack of device memory (the service
 *    takes the table's memory when the first task names it:
 *    gx_slot_wait_memory).
 * The session (and the table) and the inner rows go at once.  The
 * fallback plan reads both tables itself, so a fallen-back join reads its
 * inner side twice (partly, the first time).
 *
 * Counting (custom_private 5; planned for SELECT count(*) over the join,
 * join_path.cpp): the node's one column (or more, all count(*)) is
 * count(*)'s partial state, an int8, for the Finalize Aggregate above.
 * The probes run in count-only mode (ext.count_only: no pair written, the
 * task's matches in join_count; a key program never leaves a row to the
 * host, so there is no entry to read) and the node returns one row, the
 * sum of their counts: INNER the pairs, SEMI / ANTI the outer rows, LEFT
 * the pairs and the unmatched outer rows; RIGHT / FULL add the counts of
 * count-only JOIN_UNMATCHED tasks and the inner rows with a NULL key
 * (their inner side is read through the child, so the host has those);
 * over an empty inner side INNER, SEMI and RIGHT count 0 without reading
 * the outer side, ANTI, LEFT and FULL every outer row.  When it falls
 * back, the node counts the fallback plan's rows (the Hash Join returns
 * the join's rows, the same count): the fallback stays the one plan of
 * either form, whose target is the join relation's, and a fallback runs
 * only when the table does not fit, where returning the rows to the node
 * is PostgreSQL's own cost.
 * (A fallback that aggregates itself would need a second plan per node.)
 *
 * Several devices (issue 17; join_replicas.cpp): the node's home device
 * builds the table as above; a join whose probes only read it then copies
 * it to the other devices of its set and sends each probe (a chunk of
 * step 3, a pass included) to the least loaded device holding a copy, or
 * where its cache entry lies, naming that device's copy.  RIGHT / FULL
 * (the marks), joins that aggregate their pairs and levels keep to the
 * home device, as do builds, FINISH and JOIN_UNMATCHED.
 *
 * Rescans (a nested GpuJoin is a child like any: rescanned by its
 * parent, keeping its own table by the same rule): the built table (or
 * the decision to fall back) is kept when the inner child's parameters
 * did not change (only the outer side, or the fallback plan, is read
 * again); otherwise the session is closed (the service frees the table)
 * and the inner side is read again and the decision taken again.  A RIGHT / FULL table holds the marks of the last
 * scan's probes, so it is never kept: such a rescan reads the inner side
 * again and builds a fresh table.  The fallback plan is rescanned with
 * the node whether or not it runs, so it is ready when a later decision
 * needs it.
 * CHECK_FOR_INTERRUPTS runs between tasks.  Device errors other than
 * memory come back as ERRORs through gx_slot_wait; a key program cannot
 * raise one, nor select a row for the host, so either is an internal
 * error.
 */
#include "gpuext.h"
#include "compat.h"
#include "join_state.h"

extern "C"
{
#include "commands/explain.h"
#include "executor/nodeCustom.h"
#include "access/parallel.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "portability/instr_time.h"
#include "utils/memutils.h"
#include "utils/ruleutils.h"
}

static void gx_join_begin(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *gx_join_exec(CustomScanState *node);
static void gx_join_end(CustomScanState *node);
static void gx_join_rescan(CustomScanState *node);

static CustomExecMethods gx_join_exec_methods = {
	"GpuJoin",
	gx_join_begin,
	gx_join_exec,
	gx_join_end,
	gx_join_rescan,
	NULL, NULL,
	gx_join_par_estimate,
	gx_join_par_init_dsm,
	gx_join_par_reinit_dsm,
	gx_join_par_init_worker,
	gx_join_par_shutdown,
	gx_join_explain
};

/* CreateCustomScanState callback of the GpuJoin plan */
Node *
gx_create_join_state(CustomScan *cscan)
{
	GxJoinState *st = (GxJoinState *) newNode(sizeof(GxJoinState), T_CustomScanState);

	st->css.methods = &gx_join_exec_methods;
	return (Node *) st;
}

/* the column type of a key in a batch (numeric values are int64 at their scale) */
static int
gx_join_col_type(int gxtype)
{
	return gxtype == GX_NUMERIC ? GX_INT8 : gxtype;
}

/*
 * The columns of a batch of one side: its keys, then (the inner side of
 * a join that aggregates or gathers its pairs) the inner columns the
 * build stores;
 * their types into ct, the count returned
 */
static int
gx_join_batch_cols(const GxJoinState *st, bool inner, int *ct)
{
	const int  *types = inner ? st->itype : st->otype;
	int			nk = gx_join_side_keys(st, inner);
	int			nx = inner && (st->group || st->gather) ? st->gncols : 0;

	for (int k = 0; k < nk; k++)
		ct[k] = gx_join_col_type(types[k]);
	for (int c = 0; c < nx; c++)
		ct[nk + c] = st->gcol_type[c];
	return nk + nx;
}

/* bytes of a key batch of n rows of one side: header, columns */
static uint64
gx_join_input_bytes(const GxJoinState *st, bool inner, uint32 n)
{
	int			ct[GX_JOIN_MAX_KEYS + GX_JOIN_MAX_COLS];
	int			nc = gx_join_batch_cols(st, inner, ct);

	return GX_ALIGN_UP(sizeof(gx_chunk)) + gx_columns_bytes(ct, nc, n);
}

/*
 * Rows per task and entries per probe pass: gpuext.chunk_rows, halved
 * until a probe of that many rows leaves room in a staging slot for at
 * least as many entries as rows
 */
static void
gx_join_chunk_geometry(GxJoinState *st)
{
	uint64		slot = gx_shared->slot_bytes;
	uint32		n = (uint32) gx_chunk_rows;

	for (;;)
	{
		uint64		in = Max(gx_join_input_bytes(st, false, n),
							 gx_join_input_bytes(st, true, n));
		uint64		used = in + gx_join_probe_result_bytes(n, 0, st->alg);

		if (n <= 1024 || (used < slot && (slot - used) / sizeof(gx_join_pair) >= n))
		{
			st->rows_per_chunk = n;
			st->max_pairs = (uint32) Min((uint64) PG_INT32_MAX,
										 (slot - used) / sizeof(gx_join_pair));
			return;
		}
		n /= 2;
	}
}

/* GpuJoin nodes whose outer child is being initialized (gx_join_init_children) */
static int	gx_join_outer_depth = 0;

/*
 * Initialize the three children, noting that a GpuJoin in the outer
 * child's tree is nested under this one (st->nested: see the design
 * note).  (The inner child is drained before this node takes a slot, and
 * the fallback runs without one: a GpuJoin there is not nested.)
 */
static void
gx_join_init_children(GxJoinState *st, CustomScan *cscan, EState *estate, int flags)
{
	gx_join_outer_depth++;
	PG_TRY();
	{
		st->outer_ps = ExecInitNode((Plan *) linitial(cscan->custom_plans), estate, flags);
	}
	PG_FINALLY();
	{
		gx_join_outer_depth--;
	}
	PG_END_TRY();
	st->inner_ps = ExecInitNode((Plan *) lsecond(cscan->custom_plans), estate, flags);
	st->fallback_ps = ExecInitNode((Plan *) lthird(cscan->custom_plans), estate, flags);
}

/* BeginCustomScan: the children, the plan's key and column maps, the slots */
static void
gx_join_begin(CustomScanState *node, EState *estate, int eflags)
{
	GxJoinState *st = (GxJoinState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *priv = cscan->custom_private;
	int			child_flags = eflags & ~(EXEC_FLAG_BACKWARD | EXEC_FLAG_MARK);
	ListCell   *lc1,
			   *lc2;
	int			k = 0;

	st->nested = gx_join_outer_depth > 0;
	gx_join_init_children(st, cscan, estate, child_flags);
	node->custom_ps = list_make3(st->outer_ps, st->inner_ps, st->fallback_ps);
	/* (a right-deep multi-level join builds from its inner child's outer child) */
	gx_join_levels_children(st, cscan);
	/* an INNER join's host quals, over the scan slot: ExecScan runs them per joined row */
	st->mode = st->jtype = intVal(linitial(priv));
	if (cscan->custom_exprs != NIL && st->mode != GX_JOIN_INNER)
		gx_join_filter_begin(st, cscan->custom_exprs);
	else if (cscan->custom_exprs != NIL)
		node->ss.ps.qual = ExecInitQual(cscan->custom_exprs, &node->ss.ps);
	st->count = intVal(list_nth(priv, 5)) == 1;
	st->group = intVal(list_nth(priv, 5)) == 2 || intVal(list_nth(priv, 5)) == 3;
	st->level = intVal(list_nth(priv, 5)) == 3;
	st->alg = intVal(list_nth(priv, 9));
	st->lo_k = st->hi_k = -1;
	if ((st->alg == GX_JOIN_RANGE) != (list_nth(priv, 6) != NIL))
		elog(ERROR, "gpuext: GpuJoin of algorithm %d with range bounds %s", st->alg,
			 list_nth(priv, 6) != NIL ? "given" : "missing");
	if (st->alg == GX_JOIN_RANGE)
	{
		List	   *range = (List *) list_nth(priv, 6);

		st->lo_k = linitial_int(range);
		st->hi_k = lsecond_int(range);
		st->bflags = (uint32) lthird_int(range);
	}
	/* (its rows are returned as the node's: the same target list; counted) */
	if (!st->count &&
		ExecGetResultType(st->fallback_ps)->natts != list_length(cscan->scan.plan.targetlist))
		elog(ERROR, "gpuext: GpuJoin's fallback plan returns other columns");

	st->nkeys = list_length((List *) lsecond(priv));
	forboth(lc1, (List *) lsecond(priv), lc2, (List *) lthird(priv))
	{
		List	   *types = (List *) lfourth(priv);

		st->okey[k] = (AttrNumber) lfirst_int(lc1);
		st->ikey[k] = (AttrNumber) lfirst_int(lc2);
		st->otype[k] = list_nth_int(types, 3 * k);
		st->itype[k] = list_nth_int(types, 3 * k + 1);
		st->kscale[k] = list_nth_int(types, 3 * k + 2);
		if (st->otype[k] == GX_FLOAT4 || st->otype[k] == GX_FLOAT8)
			st->kfloat |= 1u << k;
		st->omax = Max(st->omax, st->okey[k]);
		st->imax = Max(st->imax, st->ikey[k]);
		k++;
	}
	st->natts = list_length((List *) list_nth(priv, 4));
	st->src_side = (int *) palloc0(sizeof(int) * Max(st->natts, 1));
	st->src_att = (AttrNumber *) palloc0(sizeof(AttrNumber) * Max(st->natts, 1));
	k = 0;
	foreach(lc1, (List *) list_nth(priv, 4))
	{
		int			v = lfirst_int(lc1);

		st->src_side[k] = v >> 16;
		st->src_att[k] = (AttrNumber) (v & 0xffff);
		if (st->src_side[k] == 0)
			st->omax = Max(st->omax, st->src_att[k]);
		else
			st->imax = Max(st->imax, st->src_att[k]);
		k++;
	}
	st->oslot = ExecInitExtraTupleSlot(estate, ExecGetResultType(st->outer_ps),
									   &TTSOpsMinimalTuple);
	st->islot = ExecInitExtraTupleSlot(estate, ExecGetResultType(st->inner_ps),
									   &TTSOpsMinimalTuple);
	st->spool_slot = ExecInitExtraTupleSlot(estate, ExecGetResultType(st->outer_ps),
											&TTSOpsMinimalTuple);
	st->inner_cxt = AllocSetContextCreate(estate->es_query_cxt, "GpuJoin inner rows",
										  ALLOCSET_DEFAULT_SIZES);
	st->chunk_cxt = AllocSetContextCreate(estate->es_query_cxt, "GpuJoin outer chunk",
										  ALLOCSET_DEFAULT_SIZES);
	/* returning rows: whether the device gathers them (join_gather.cpp) */
	gx_join_gather_begin(st, cscan);
	/* its devices: home, and those that probe copies of its table (join_replicas.cpp) */
	gx_join_devices_begin(st);
	/* (its inner columns widen the build's batches: before their geometry) */
	if (st->level)
		gx_join_level_begin(st, cscan);
	else if (st->group)
		gx_join_agg_begin(st, cscan);
	gx_join_chunk_geometry(st);
	if (st->mode < GX_JOIN_INNER || st->mode > GX_JOIN_FULL)
		elog(ERROR, "gpuext: GpuJoin of unknown mode %d", st->mode);
	if (GX_JOIN_MODE_MARKS(st->mode))
		st->tail_buf = (uint32 *) MemoryContextAllocHuge(estate->es_query_cxt,
														 sizeof(uint32) * st->rows_per_chunk);
	gx_join_inputs_begin(st, estate, eflags);
	st->outer_input_on = st->input[0].on;
}


/*
 * Lay out a JOIN_BUILD (inner) or JOIN_PROBE (outer) task of rows
 * [0, n) of tups in c: the key columns, the program "load key k, output
 * k", the table's geometry.  The result area follows the input.
 */
static void
gx_join_task(GxJoinState *st, gx_chunk *c, uint32 kind, bool inner, MinimalTuple *tups,
			 uint32 n)
{
	const int  *types = inner ? st->itype : st->otype;
	const AttrNumber *keys = inner ? st->ikey : st->okey;
	TupleTableSlot *slot = inner ? st->islot : st->oslot;
	int			nk = gx_join_side_keys(st, inner);
	int			ct[GX_JOIN_MAX_KEYS + GX_JOIN_MAX_COLS];
	int			nc = gx_join_batch_cols(st, inner, ct);
	uint64		voff[GX_JOIN_MAX_KEYS + GX_JOIN_MAX_COLS];
	uint64		noff[GX_JOIN_MAX_KEYS + GX_JOIN_MAX_COLS];

	gx_join_header(st, c, kind,
				   gx_layout_columns(ct, nc, GX_ALIGN_UP(sizeof(gx_chunk)), n, voff, noff));
	c->nrows = n;
	c->ncols = nc;
	c->ninstr = 2 * nc;
	c->nregs = nc;
	for (int k = 0; k < nc; k++)
	{
		gx_instr   *ld = &c->code[2 * k];
		gx_instr   *out = &c->code[2 * k + 1];

		c->cols[k].values_off = voff[k];
		c->cols[k].nulls_off = noff[k];
		c->cols[k].type = ct[k];
		c->cols[k].scale = 0;
		memset((char *) c + noff[k], 0, gx_bitmap_bytes(n));
		ld->op = GX_OP_LDCOL;
		ld->type = ct[k];
		ld->dst = k;
		ld->arg = k;
		out->op = GX_OP_OUT;
		out->type = ct[k];
		out->a = k;
		out->arg = k;
		if (k < nk)
			c->ext.join.key_out[k] = k;
	}
	for (uint32 r = 0; r < n; r++)
	{
		ExecStoreMinimalTuple(tups[r], slot, false);
		for (int k = 0; k < nk; k++)
			gx_join_store_col(c, k, r, slot, keys[k], types[k], st->kscale[k], NULL);
		for (int k = nk; k < nc; k++)
			gx_join_store_col(c, k, r, slot, st->gcol_res[k - nk], ct[k],
							  st->gcol_scale[k - nk], st->gcol_dict[k - nk]);
	}
	ExecClearTuple(slot);
	/* (the inner columns the build stores: join_agg.cpp) */
	if (nc > nk)
		gx_join_agg_build_cols(st, c, (uint32) nk);
}

/*
 * the session's table goes (closing the session frees it); the inner rows
 * too.  A parallel worker's are the leader's: it only forgets them.
 */
void
gx_join_drop_table(GxJoinState *st)
{
	gx_join_drop_device(st);
	gx_join_parts_end(st);
	st->input[0].on = st->outer_input_on;
	st->built = false;
	st->fallback = false;
	MemoryContextReset(st->inner_cxt);
	st->inner = NULL;
	st->ninner = st->inner_alloc = 0;
	st->inner_bytes = 0;
	st->nullkey = NULL;
	st->nullkey_alloc = 0;
}

/*
 * The table goes (its session closed: the service frees it), the inner
 * rows stay (a partitioned join's next pass builds another)
 */
void
gx_join_drop_device(GxJoinState *st)
{
	/* (copies in flight given up before their session closes) */
	gx_join_replicas_drop(st);
	if (st->session != 0 && !st->worker_table && !st->level)
		gx_session_close(st->session);
	st->worker_table = false;
	st->session = 0;
	st->table = 0;
	st->cols_obj = 0;
	if (st->group)
		gx_join_agg_reset(st);
	st->placed = 0;
	st->nnullkey = 0;
}

/* an array of elem-byte entries in cxt with twice its room (1024 at least) */
static void *
gx_join_grow(void *arr, uint32 *alloc, Size elem, MemoryContext cxt)
{
	*alloc = Max(1024, *alloc * 2);
	return arr == NULL ? MemoryContextAllocHuge(cxt, elem * *alloc) :
		repalloc_huge(arr, elem * *alloc);
}

/*
 * Read the inner child into st->inner (the child runs in the caller's
 * memory context: a scan allocates its descriptor there on its first row;
 * only the copies go to "GpuJoin inner rows").  false, with the rest of
 * the side left unread, when its table would not fit (checked as the
 * array grows) or it has GX_JOIN_MAX_CAP rows: the fallback plan runs.
 */
static bool
gx_join_read_inner(GxJoinState *st)
{
	for (;;)
	{
		TupleTableSlot *s = ExecProcNode(st->inner_ps);
		MemoryContext old;

		if (TupIsNull(s))
			break;
		if (st->ninner == st->inner_alloc)
		{
			/* (no table for them: partitions, while their rows fit in memory) */
			if ((uint64) st->inner_alloc * 2 > MaxAllocHugeSize / sizeof(MinimalTuple) ||
				st->ninner >= GX_JOIN_MAX_CAP ||
				(st->ninner > 0 && !gx_join_table_fits(st, st->ninner) &&
				 !gx_join_parts_may_read(st, st->ninner)))
			{
				st->stats.inner_rows += st->ninner;
				return false;
			}
			st->inner = (MinimalTuple *) gx_join_grow(st->inner, &st->inner_alloc,
													  sizeof(MinimalTuple), st->inner_cxt);
		}
		old = MemoryContextSwitchTo(st->inner_cxt);
		st->inner[st->ninner] = ExecCopySlotMinimalTuple(s);
		st->inner_bytes += st->inner[st->ninner++]->t_len;
		MemoryContextSwitchTo(old);
	}
	st->stats.inner_rows += st->ninner;
	return true;
}

/*
 * RIGHT / FULL: note the rows of the build task c (inner rows lo ..
 * lo + n - 1) with a NULL key, which the table will not hold (st->nullkey,
 * in "GpuJoin inner rows")
 */
static void
gx_join_note_null_keys(GxJoinState *st, gx_chunk *c, uint32 lo, uint32 n)
{
	for (uint32 r = 0; r < n; r++)
	{
		bool		null = false;

		for (int k = 0; k < st->nkeys && !null; k++)
			null = (((uint32 *) ((char *) c + c->cols[k].nulls_off))[r >> 5] >> (r & 31)) & 1;
		if (!null)
			continue;
		if (st->nnullkey == st->nullkey_alloc)
		{
			st->nullkey = (uint32 *) gx_join_grow(st->nullkey, &st->nullkey_alloc, sizeof(uint32),
												  st->inner_cxt);
		}
		st->nullkey[st->nnullkey++] = lo + r;
	}
}

/*
 * Build the join table of the inner side (gx_join_build_rows), or, when
 * no table holds every row, the first of its partitions' (join_parts.cpp).
 * An empty inner side builds nothing.  false when neither can be had
 * (see the design note): the caller runs the fallback plan.
 */
static bool
gx_join_build_table(GxJoinState *st)
{
	if (st->input[1].on)
	{
		int			r = gx_join_build_input(st);

		if (r != GX_BUILD_DECLINED)
			return r == GX_BUILD_DONE;
		/* no table for the estimate: the child's rows, counted as they come */
		gx_join_drop_table(st);
		st->stats.declined++;
	}
	if (!gx_join_read_inner(st))
		return false;
	if (st->ninner == 0)
		return true;
	/*
	 * no table for every row (its limits, or the device's memory):
	 * partitions (not for a join that aggregates its pairs: its fallback)
	 */
	if (!gx_join_table_fits(st, st->ninner) || !gx_join_build_rows(st))
	{
		gx_join_drop_device(st);
		if (st->group)
			return false;
		/* (gathering: off, the passes read the children's rows, join_gather.cpp) */
		if (st->gather)
			gx_join_gather_off(st);
		return gx_join_parts_begin(st) && gx_join_parts_build_first(st);
	}
	return true;
}

/*
 * The table of the rows st->inner (all of the inner side, or a
 * partition's): a session, the table object reserved for exactly those
 * rows, JOIN_BUILD per chunk of rows, then JOIN_FINISH_BUILD (none for no
 * rows).  false when the table cannot be had (its memory).
 */
bool
gx_join_build_rows(GxJoinState *st)
{
	int			slot;
	uint32		gen;
	gx_chunk   *c;
	gx_result  *res;

	if (st->ninner == 0)
		return true;
	st->cap = st->ninner;
	st->kcap = gx_join_kcap(st, st->cap);
	/* (a level of a multi-level probe: the session of the join above, join_levels.cpp) */
	if (!st->level)
		st->session = gx_session_open_set(&st->devs);
	else if (st->session == 0)
		elog(ERROR, "gpuext: GpuJoin level built without the session of the join above");
	st->table = gx_session_try_alloc(st->session, st->device,
									 gx_join_bytes(st, st->cap, st->kcap), GX_OBJ_JOIN_TABLE);
	if (st->table == 0)
		return false;
	/* (aggregating its pairs: the inner columns' store, join_agg.cpp) */
	if (!gx_join_agg_alloc_cols(st))
		return false;
	for (uint32 lo = 0; lo < st->ninner; lo += st->rows_per_chunk)
	{
		uint32		n = Min(st->rows_per_chunk, st->ninner - lo);

		CHECK_FOR_INTERRUPTS();
		slot = gx_slot_acquire(true);
		gen = gx_service_generation();
		c = gx_slot_chunk(slot);
		gx_join_task(st, c, GX_TASK_JOIN_BUILD, true, st->inner + lo, n);
		c->ext.join.row_base = lo;
		if (GX_JOIN_MODE_MARKS(st->mode))
			gx_join_note_null_keys(st, c, lo, n);
		/* (the service takes the table's memory for the first task) */
		gx_slot_submit(slot, st->device);
		if (!gx_slot_wait_memory(slot, gen))
			return false;
		res = gx_join_result(slot);
		/* the table has room for every row, and keys never need the host */
		if (res->nsel != 0 || res->join_count > n)
			elog(ERROR, "gpuext: GpuJoin build left %u rows to the host", res->nsel);
		gx_slot_release(slot);
		st->stats.build_tasks++;
	}
	(void) gx_join_finish_table(st);
	return true;
}

/*
 * Read the inner side and take the decision: its table on the device, or
 * (it cannot be had) the fallback plan, with the session and the inner
 * rows given back at once
 */
void
gx_join_build(GxJoinState *st)
{
	instr_time	t0,
				t1;

	if (IsParallelWorker() && st->par != NULL)
		elog(ERROR, "gpuext: a parallel GpuJoin worker cannot build the leader's table");
	INSTR_TIME_SET_CURRENT(t0);
	if (gx_join_build_table(st))
	{
		st->stats.builds++;
		/* (several devices: copies of the table on the others) */
		gx_join_replicate(st);
	}
	else
	{
		gx_join_drop_table(st);
		st->fallback = true;
		st->stats.fallbacks++;
	}
	st->built = true;
	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	st->stats.build_ms += INSTR_TIME_GET_MILLISEC(t1);
}

/* one JOIN_PROBE pass over the current outer chunk: its entries into st->pairs */
static void
gx_join_probe_pass(GxJoinState *st)
{
	int			slot;
	uint32		gen;
	gx_chunk   *c;
	gx_result  *res;

	CHECK_FOR_INTERRUPTS();
	slot = gx_join_acquire(st, true);
	gen = gx_service_generation();
	c = gx_slot_chunk(slot);
	memcpy(c, st->image, st->image_bytes);
	c->fault = gx_take_fault();
	c->ext.join.mode = st->mode;
	c->ext.join.first_row = st->next_row;
	c->ext.join.first_match = st->next_match;
	c->ext.join.max_pairs = st->max_pairs;
	c->ext.count_only = st->count ? 1 : 0;
	/* (every pass of the chunk on the device of its first) */
	gx_join_probe_on(st, c, st->chunk_device, true);
	res = gx_join_run_on(st, slot, gen, st->chunk_device);
	if (res->nsel > st->max_pairs || (st->count && res->nsel != 0))
		elog(ERROR, "gpuext: GpuJoin probe returned %u entries for %u", res->nsel,
			 st->count ? 0 : st->max_pairs);
	if (st->count)
		st->count_sum += (int64) res->join_count;
	gx_join_take_pass(st, res, c->nrows, false);
	gx_slot_release(slot);
	for (uint32 i = 0; i < st->npairs; i++)
	{
		const gx_join_pair *p = &st->pairs[i];
		bool		no_inner = (p->flags & GX_JOIN_PAIR_NO_INNER) != 0;

		if (p->outer >= st->nouter || (p->flags & GX_JOIN_PAIR_HOST) ||
			(no_inner && st->mode != GX_JOIN_LEFT && st->mode != GX_JOIN_FULL) ||
			(GX_JOIN_MODE_PAIRS(st->mode) && !no_inner && (uint64) p->inner >= st->ninner))
			elog(ERROR, "gpuext: GpuJoin probe returned a bad entry");
	}
	st->stats.probe_tasks++;
	st->stats.dev_probes[st->chunk_device]++;
	st->stats.pairs += st->npairs;
}

/*
 * Read up to max rows of the outer side (its child, or a partitioned
 * pass's spool) into st->outer, copies in "GpuJoin outer chunk" (which the
 * caller reset); outer_done at its end.  The rows read.
 */
uint32
gx_join_read_outer(GxJoinState *st, uint32 max)
{
	uint32		n = 0;

	st->outer = (MinimalTuple *) MemoryContextAlloc(st->chunk_cxt, sizeof(MinimalTuple) * max);
	/* (the child runs in the caller's context, as in gx_join_read_inner) */
	while (n < max)
	{
		TupleTableSlot *s = st->nparts > 0 ? gx_join_parts_outer(st) :
			ExecProcNode(st->outer_ps);
		MemoryContext old;

		if (TupIsNull(s))
		{
			st->outer_done = true;
			break;
		}
		old = MemoryContextSwitchTo(st->chunk_cxt);
		st->outer[n++] = ExecCopySlotMinimalTuple(s);
		MemoryContextSwitchTo(old);
	}
	st->nouter = n;
	st->stats.outer_rows += n;
	return n;
}

/*
 * Read the next chunk of outer rows and probe it (its first pass); false
 * at the end of the outer side
 */
static bool
gx_join_next_chunk(GxJoinState *st)
{
	uint32		n;

	if (gx_join_outer_rows_input(st))
	{
		st->npairs = st->pair_pos = 0;
		st->more = false;
		if (st->outer_done)
			return false;
		if (!st->input[0].reading)
			gx_join_input_start(st, &st->input[0]);
		st->input[0].reading = true;
		if (gx_join_input_next_chunk(st))
			return true;
		st->outer_done = true;
		return false;
	}
	MemoryContextReset(st->chunk_cxt);
	st->npairs = st->pair_pos = 0;
	st->more = false;
	if (st->outer_done)
		return false;
	n = gx_join_read_outer(st, st->rows_per_chunk);
	if (n == 0)
		return false;
	/*
	 * an empty inner side (or partition): ANTI, LEFT and FULL return every
	 * row, INNER, SEMI and RIGHT none (a partitioned join's pass 0 reads
	 * its rows for the other passes)
	 */
	if (st->ninner == 0)
	{
		uint32		flags = GX_JOIN_MODE_PAIRS(st->mode) ? GX_JOIN_PAIR_NO_INNER : 0;

		if (!GX_JOIN_MODE_KEEPS_OUTER(st->mode))
			return true;
		if (st->count)
		{
			st->count_sum += n;
			return true;
		}
		gx_join_pairs_room(st, n, 0);
		for (uint32 i = 0; i < n; i++)
			st->pairs[i] = gx_join_pair {i, flags, 0};
		st->npairs = n;
		return true;
	}
	/* the probe task's input, kept for the passes after the first */
	st->image_bytes = gx_join_input_bytes(st, false, n);
	st->image = (char *) MemoryContextAlloc(st->chunk_cxt, st->image_bytes);
	gx_join_task(st, (gx_chunk *) st->image, GX_TASK_JOIN_PROBE, false, st->outer, n);
	st->chunk_device = gx_join_pick_device(st);
	st->next_row = st->next_match = 0;
	gx_join_probe_pass(st);
	return true;
}

/*
 * The scan slot's row: the outer columns from otup, or from ot (a row of
 * the outer table: the outer device input), or all NULL (neither: an
 * unmatched inner row); the inner ones from itup, or NULL (none)
 */
static TupleTableSlot *
gx_join_store_rows(GxJoinState *st, MinimalTuple otup, TupleTableSlot *ot, MinimalTuple itup)
{
	TupleTableSlot *scan = st->css.ss.ss_ScanTupleSlot;
	const AttrNumber *oatt = st->input[0].attno;

	ExecClearTuple(scan);
	if (otup != NULL)
	{
		ExecStoreMinimalTuple(otup, st->oslot, false);
		slot_getsomeattrs(st->oslot, st->omax);
	}
	if (ot != NULL)
		slot_getsomeattrs(ot, st->input[0].maxattno);
	if (itup != NULL)
	{
		ExecStoreMinimalTuple(itup, st->islot, false);
		slot_getsomeattrs(st->islot, st->imax);
	}
	for (int i = 0; i < st->natts; i++)
	{
		bool		outer = st->src_side[i] == 0;
		TupleTableSlot *from = outer ? (ot != NULL ? ot : st->oslot) : st->islot;
		/* (the table's column of the child's resno, for a row of the table) */
		int			a = (outer && ot != NULL ? oatt[st->src_att[i]] : st->src_att[i]) - 1;

		if (outer ? (otup == NULL && ot == NULL) : itup == NULL)
		{
			scan->tts_values[i] = (Datum) 0;
			scan->tts_isnull[i] = true;
			continue;
		}
		scan->tts_values[i] = from->tts_values[a];
		scan->tts_isnull[i] = from->tts_isnull[a];
	}
	return ExecStoreVirtualTuple(scan);
}

/* put entry p's row into the scan slot: its outer row, and its inner row if any */
TupleTableSlot *
gx_join_store(GxJoinState *st, const gx_join_pair *p)
{
	bool		inner = GX_JOIN_MODE_PAIRS(st->mode) && !(p->flags & GX_JOIN_PAIR_NO_INNER);
	MinimalTuple itup = inner && !st->gather ? st->inner[p->inner] : NULL;

	/*
	 * the outer device input: the row from the values the device gathered
	 * (join_gather.cpp), or from its table (by its row number in the batch)
	 */
	if (gx_join_outer_rows_input(st) && st->gather)
		return gx_join_gather_store(st, (uint32) (p - st->pairs));
	if (gx_join_outer_rows_input(st))
		return gx_join_store_rows(st, NULL,
								  gx_source_row(&st->input[0].src, &st->input[0].batch[0],
												p->outer, st->input[0].tslot), itup);
	return gx_join_store_rows(st, st->outer[p->outer], NULL, itup);
}

/*
 * The next probe of the outer side (timed): the chunk's next pass, or the
 * next chunk read and probed; false at the end of the outer side
 */
static bool
gx_join_probe_step(GxJoinState *st)
{
	instr_time	t0,
				t1;
	bool		more;

	INSTR_TIME_SET_CURRENT(t0);
	if (st->more && gx_join_outer_rows_input(st))
	{
		gx_join_input_pass(st, &st->input[0]);
		more = true;
	}
	else if (st->more)
	{
		gx_join_probe_pass(st);
		more = true;
	}
	else
		more = gx_join_next_chunk(st);
	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	st->stats.probe_ms += INSTR_TIME_GET_MILLISEC(t1);
	return more;
}

/*
 * RIGHT / FULL, after the outer side (see the design note): the next
 * batch of inner rows without a match into st->tail, a JOIN_UNMATCHED
 * task over the next range of placed rows, then the rows with a NULL
 * key; counting, their count into count_sum.  false when all are done.
 */
static bool
gx_join_tail_step(GxJoinState *st)
{
	int			slot;
	uint32		gen;
	gx_chunk   *c;
	gx_result  *res;
	uint32		n;
	const int64 *payloads;

	st->ntail = st->tail_pos = 0;
	if (st->tail_next >= st->placed)
	{
		if (st->tail_nulls)
			return false;
		/* the rows the table never held */
		st->tail_nulls = true;
		st->stats.unmatched += st->nnullkey;
		if (st->count)
			st->count_sum += st->nnullkey;
		else
		{
			st->tail = st->nullkey;
			st->ntail = st->nnullkey;
		}
		return true;
	}
	n = Min(st->rows_per_chunk, st->placed - st->tail_next);
	CHECK_FOR_INTERRUPTS();
	slot = gx_slot_acquire(true);
	gen = gx_service_generation();
	c = gx_slot_chunk(slot);
	gx_join_header(st, c, GX_TASK_JOIN_UNMATCHED, GX_ALIGN_UP(sizeof(gx_chunk)));
	c->nrows = n;
	c->ext.join.first_row = st->tail_next;
	c->ext.count_only = st->count ? 1 : 0;
	res = gx_join_run(st, slot, gen);
	if (res->join_count > n || res->nsel != (st->count ? 0 : res->join_count))
		elog(ERROR, "gpuext: GpuJoin read %u unmatched rows of %u", res->nsel, n);
	if (st->count)
		st->count_sum += (int64) res->join_count;
	payloads = (const int64 *) ((char *) res + gx_join_unmatched_off());
	for (uint32 i = 0; i < res->nsel; i++)
	{
		if (payloads[i] < 0 || payloads[i] >= st->ninner)
			elog(ERROR, "gpuext: GpuJoin read a bad unmatched row");
		st->tail_buf[i] = (uint32) payloads[i];
	}
	st->tail = st->tail_buf;
	st->ntail = res->nsel;
	gx_slot_release(slot);
	st->tail_next += n;
	st->stats.unmatched_tasks++;
	st->stats.unmatched += res->join_count;
	return true;
}

/*
 * The next batch of entries: a probe of the outer side, then (RIGHT /
 * FULL) the inner rows without a match (timed as probing); false at the
 * end
 */
bool
gx_join_step(GxJoinState *st)
{
	instr_time	t0,
				t1;
	bool		more;

	if (!st->probed)
	{
		if (gx_join_probe_step(st))
			return true;
		st->probed = true;
	}
	if (!GX_JOIN_MODE_MARKS(st->mode))
		return false;
	INSTR_TIME_SET_CURRENT(t0);
	more = gx_join_tail_step(st);
	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	st->stats.probe_ms += INSTR_TIME_GET_MILLISEC(t1);
	return more;
}

/* ExecScan access method: the next joined row */
static TupleTableSlot *
gx_join_next(ScanState *ss)
{
	GxJoinState *st = (GxJoinState *) ss;

	/* (gx_join_exec built the table) */
	if (st->filtered)
		return gx_join_filter_next(st);
	/* INNER / SEMI / RIGHT over an empty inner side: nothing (the outer is not read) */
	if (st->ninner == 0 && st->nparts == 0 && !GX_JOIN_MODE_KEEPS_OUTER(st->mode))
		return ExecClearTuple(ss->ss_ScanTupleSlot);
	for (;;)
	{
		if (st->pair_pos < st->npairs)
			return gx_join_store(st, &st->pairs[st->pair_pos++]);
		if (st->tail_pos < st->ntail)
			return gx_join_store_rows(st, NULL, NULL, st->inner[st->tail[st->tail_pos++]]);
		/* (a partitioned join: the next pass) */
		if (!gx_join_step(st) && !gx_join_parts_next(st))
			return ExecClearTuple(ss->ss_ScanTupleSlot);
	}
}

/*
 * ExecScan access method of a counting node: once, one row whose columns
 * (count(*)'s partial states) are the count of the device's probes, or of
 * the fallback plan's rows (see the design note)
 */
static TupleTableSlot *
gx_join_count_next(ScanState *ss)
{
	GxJoinState *st = (GxJoinState *) ss;
	TupleTableSlot *scan = ss->ss_ScanTupleSlot;

	if (st->count_done)
		return ExecClearTuple(scan);
	st->count_sum = 0;
	if (st->fallback)
	{
		for (;;)
		{
			TupleTableSlot *row = ExecProcNode(st->fallback_ps);

			if (TupIsNull(row))
				break;
			st->count_sum++;
		}
	}
	else if (st->ninner > 0 || st->nparts > 0 || GX_JOIN_MODE_KEEPS_OUTER(st->mode))
	{
		/* (INNER / SEMI / RIGHT over an empty inner side: 0, the outer is not read) */
		if (st->input[0].on && st->table != 0)
		{
			gx_join_count_input(st);
			st->probed = true;
		}
		/* (then RIGHT / FULL: the inner rows without a match; the passes) */
		do
		{
			while (gx_join_step(st))
				;
		} while (gx_join_parts_next(st));
	}
	st->count_done = true;
	st->stats.counted += st->count_sum;
	ExecClearTuple(scan);
	for (int i = 0; i < scan->tts_tupleDescriptor->natts; i++)
	{
		scan->tts_values[i] = Int64GetDatum(st->count_sum);
		scan->tts_isnull[i] = false;
	}
	return ExecStoreVirtualTuple(scan);
}

/* ExecScan recheck method (no EvalPlanQual: the path is for plain SELECTs) */
static bool
gx_join_recheck(ScanState *ss, TupleTableSlot *slot)
{
	return true;
}

/*
 * ExecCustomScan: the joined rows, the device's or the fallback plan's;
 * counting, the one row of their count
 */
static TupleTableSlot *
gx_join_exec(CustomScanState *node)
{
	GxJoinState *st = (GxJoinState *) node;

	if (st->group)
		return gx_join_agg_exec(st);
	if (!st->built)
		gx_join_build(st);
	if (st->count)
		return ExecScan(&node->ss, gx_join_count_next, gx_join_recheck);
	if (st->fallback)
		return ExecProcNode(st->fallback_ps);
	return ExecScan(&node->ss, gx_join_next, gx_join_recheck);
}

/* EndCustomScan: the children, the session (and its table) */
static void
gx_join_end(CustomScanState *node)
{
	GxJoinState *st = (GxJoinState *) node;

	ExecClearTuple(node->ss.ss_ScanTupleSlot);
	ExecClearTuple(st->oslot);
	ExecClearTuple(st->islot);
	gx_join_drop_table(st);
	for (int side = 0; side < 2; side++)
	{
		GxJoinInput *in = &st->input[side];

		/* (a side set up as a device input and turned off since ends too) */
		if (in->prog == NULL)
			continue;
		gx_join_input_drop_batch(in);
		if (in->tslot != NULL)
			ExecDropSingleTupleTableSlot(in->tslot);
		in->tslot = NULL;
		gx_source_end(&in->src);
	}
	ExecEndNode(st->outer_ps);
	ExecEndNode((PlanState *) lsecond(node->custom_ps));	/* (st->inner_ps, or a
															 * right-deep
															 * multi-level join's
															 * level 1) */
	ExecEndNode(st->fallback_ps);
}

/*
 * ReScanCustomScan: the outer side (and the fallback plan) read again;
 * the table, or the decision to fall back, is kept when the inner side's
 * parameters did not change, else the inner side is read again
 */
static void
gx_join_rescan(CustomScanState *node)
{
	GxJoinState *st = (GxJoinState *) node;
	Bitmapset  *chg = node->ss.ps.chgParam;

	gx_join_reset_outer(st);
	st->count_done = false;
	st->group_run = false;
	if (chg != NULL)
	{
		UpdateChangedParamSet(st->outer_ps, chg);
		/* (a parallel leader's ReInitializeDSM took the table's decision) */
		if (!st->par_reinit)
			UpdateChangedParamSet(st->inner_ps, chg);
		UpdateChangedParamSet(st->fallback_ps, chg);
		/* (a right-deep multi-level join's level 1, its inner child: join_levels.cpp) */
		if (st->right_deep)
			UpdateChangedParamSet((PlanState *) lsecond(node->custom_ps), chg);
	}
	/* (a child with changed parameters is rescanned by its next ExecProcNode) */
	if (st->outer_ps->chgParam == NULL)
		ExecReScan(st->outer_ps);
	if (st->fallback_ps->chgParam == NULL)
		ExecReScan(st->fallback_ps);
	if (!st->par_reinit)
		gx_join_rescan_inner(st);
	st->par_reinit = false;
	ExecScanReScan(&node->ss);
}

/*
 * The outer side from its start (a rescan, a partitioned join's next
 * pass): no chunk, no entries, no unmatched rows read yet
 */
void
gx_join_reset_outer(GxJoinState *st)
{
	MemoryContextReset(st->chunk_cxt);
	st->outer = NULL;
	st->nouter = st->npairs = st->pair_pos = 0;
	st->more = false;
	st->outer_done = false;
	/* the outer device input starts again at its next chunk */
	gx_join_input_drop_batch(&st->input[0]);
	st->input[0].reading = false;
	st->probed = false;
	st->tail_next = 0;
	st->tail_nulls = false;
	st->ntail = st->tail_pos = 0;
	st->cur = -1;				/* (a filtered join's run: join_filter.cpp) */
	st->cur_any = st->cur_done = false;
}

/*
 * The rescan's rule for the table: kept when the inner side's parameters
 * did not change, else dropped (and the inner child rescanned), so the
 * next execution reads the side again and takes the decision again;
 * RIGHT / FULL always (the table holds the last scan's marks)
 */
void
gx_join_rescan_inner(GxJoinState *st)
{
	/* (a join that aggregates its pairs: its group table holds the last scan's groups) */
	if (!st->built || st->inner_ps->chgParam != NULL || st->nparts > 0 || st->group ||
		(GX_JOIN_MODE_MARKS(st->mode) && st->session != 0))
	{
		gx_join_drop_table(st);
		if (st->inner_ps->chgParam == NULL)
			ExecReScan(st->inner_ps);
	}
}

