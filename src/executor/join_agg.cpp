/*
 * join_agg.cpp - a GpuJoin that aggregates its pairs on the device
 * (GROUP BY and aggregates over a join; planning: join_agg_path.cpp).
 *
 * Design note
 * -----------
 * The plan is a GpuJoin (INNER, LEFT, SEMI or ANTI; hash, merge or
 * range) whose target is a partial target:
 * the group keys, then partial Aggrefs, as a Partial Aggregate's.  The
 * node returns one row of partial states per group, which PostgreSQL's
 * Finalize Aggregate above combines, so results, NULLs and errors are
 * PostgreSQL's (the partial states are the transition values its own
 * aggregates reach: preagg.cpp).
 *
 *  1. The inner side is read and built as for any GpuJoin (gpujoin.cpp),
 *     except that each build task also carries the inner columns that
 *     keys and aggregates read (st->gcol_*: columns after the keys in its
 *     batch, outputs of its program), which the build stores per row in
 *     the inner column store, a session object (GX_OBJ_JOIN_COLS,
 *     gx_join_cols_bytes), so such a side is read through its child's
 *     rows; without inner columns it may be a device input, as when
 *     counting.  No partitioned passes: a table that does not fit means
 *     the fallback.
 *  2. A group table in the join's session (preagg.cpp's
 *     gx_group_prepare: twice the estimated groups, at least 64K slots
 *     unless few groups are expected, within gpuext.preagg_memory).
 *  3. The outer side is read by the device (its plan program: the
 *     table's quals, the join keys, then the group keys and aggregate
 *     arguments as outputs), cached columns where they lie, with group
 *     probes (docs/engine.md, "Aggregation over a join"), GX_JOIN_BATCHES
 *     in flight: each pair is added into the group table, the joined
 *     output vector being the outer outputs then the inner columns
 *     (icol_base).  Nothing comes back per batch but counts.  An outer
 *     side that is no table the device reads (a join: a chain's top)
 *     comes through its child instead: its rows, a chunk at a time, laid
 *     out in the columns its program reads (the child's resnos:
 *     gx_join_agg_rows), one group probe a chunk.
 *  4. GROUP_READ tasks bring the groups back (gx_group_next), each a row
 *     of partial states in the scan slot; a finalizing node's (custom
 *     private "final") of the aggregates' final values, its qual the
 *     HAVING, its fallback the Finalize plan over the partial one.
 *
 * Exactness.  A group probe counts every pair it could not add (no room
 * in the group table) and every outer row its program left to the host
 * (a numeric beyond int64): any such count, an outer side the device
 * cannot read (no program at plan time, gpuext.join_device_inputs off),
 * or a table that cannot be had makes the node drop its session (the
 * tables go with it) and run its fallback instead, PostgreSQL's Partial
 * Aggregate over its Hash Join, whose rows are returned as they are.
 * The decision is taken before the first row is returned.
 *
 * The group table, keys and aggregate specs are held by a GxScanState of
 * their own (st->grs), which owns no relation and returns no host rows:
 * preagg.cpp's functions read and return its groups as they do a
 * GpuPreAgg's.  A rescan drops the tables (the group table holds the last
 * scan's groups) and runs again.
 */
#include "gpuext.h"
#include "join_state.h"

extern "C"
{
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "portability/instr_time.h"
#include "utils/memutils.h"
}

/* fewer expected groups than this: a table of the estimate (block-local tables) */
#define GX_JOIN_AGG_MIN_GROUPS 32768

/*
 * At node start: the group keys, aggregates and their outputs (custom
 * private 10 .. 17: join_agg_path.cpp), the inner columns, and the scan
 * state that will own the group table
 */
void
gx_join_agg_begin(GxJoinState *st, CustomScan *cscan)
{
	List	   *priv = cscan->custom_private;
	List	   *outs = (List *) list_nth(priv, 10);
	GxScanState *g = (GxScanState *) palloc0(sizeof(GxScanState));
	MemoryContext dcxt;
	List	   *cols,
			   *dicts;
	double		est;
	GxJoinState *last;
	int			k = 0;
	ListCell   *lc,
			   *ld;

	g->group_mode = true;
	g->device = st->device;
	g->css.ss.ps.plan = &cscan->scan.plan;
	g->css.ss.ps.state = st->css.ss.ps.state;
	g->css.ss.ps.ps_ExprContext = st->css.ss.ps.ps_ExprContext;
	g->css.ss.ss_ScanTupleSlot = st->css.ss.ss_ScanTupleSlot;
	st->grs = g;
	/* (no program at plan time: the fallback runs) */
	if (outs == NIL)
	{
		st->icol_base = -1;
		return;
	}
	cols = (List *) list_nth(priv, 15);
	st->icol_base = intVal(list_nth(priv, 16));
	if (intVal(list_nth(priv, 17)) != 0)
		st->grows_prog = gx_program_from_const((Const *) list_nth(priv, 7), NIL);
	est = atof(strVal(list_nth(priv, 18)));
	dicts = (List *) list_nth(priv, 19);
	/* (the inner side's columns as outputs of its device input's program) */
	foreach(lc, (List *) list_nth(priv, 20))
		st->gicol_out[foreach_current_index(lc)] = (int16) lfirst_int(lc);
	st->ginner_input = list_nth(priv, 20) != NIL;
	gx_agg_specs(g, cscan->custom_scan_tlist);
	/*
	 * (many groups: room for at least GX_JOIN_AGG_MIN_GROUPS, as a table
	 * too small means the fallback; few: the estimate, whose block-local
	 * tables take their contention, gx_group_local)
	 */
	if (est > 128)
		est = Max(est, (double) GX_JOIN_AGG_MIN_GROUPS);
	gx_group_begin_spec(g, cscan->custom_scan_tlist, est, outs, (List *) list_nth(priv, 11),
						(List *) list_nth(priv, 12), (List *) list_nth(priv, 13),
						(List *) list_nth(priv, 14),
						gx_private_final(priv));
	/* string keys: a dictionary per column of ids (join_dict.cpp), as long as the node */
	dcxt = AllocSetContextCreate(st->css.ss.ps.state->es_query_cxt, "GpuJoin dictionaries",
								 ALLOCSET_DEFAULT_SIZES);
	gx_join_agg_cols_begin(st, cols, dcxt);
	/* (a multi-level group probe: join_levels.cpp) */
	if (list_length(priv) > 21 && IsA(list_nth(priv, 21), List))
		gx_join_levels_begin(st, (List *) list_nth(priv, 21));
	st->ngdict = 0;
	foreach(lc, (List *) lsecond(dicts))
	{
		AttrNumber	res = (AttrNumber) lfirst_int(lc);

		if (st->ngdict >= GX_MAX_COLS)
			elog(ERROR, "gpuext: GpuJoin with too many dictionaries");
		st->gdict_res[st->ngdict] = res;
		st->gdict[st->ngdict++] = gx_dict_create(dcxt, exprType((Node *) ((TargetEntry *)
			list_nth(st->outer_ps->plan->targetlist, res - 1))->expr));
	}
	/* each string key's dictionary (the keys are the entries that are no Aggref) */
	forboth(lc, cscan->custom_scan_tlist, ld, (List *) linitial(dicts))
	{
		int			d = lfirst_int(ld);

		if (IsA(((TargetEntry *) lfirst(lc))->expr, Aggref))
			continue;
		if (d < 0)
			g->grp.keys[k].dict = gx_join_levels_dict(st, d);
		for (int i = 0; d > 0 && i < st->ngdict; i++)
			if (st->gdict_res[i] == d)
				g->grp.keys[k].dict = st->gdict[i];
		k++;
	}
	/* (the joined output vector ends with the last level's columns: join_levels.cpp) */
	last = st->nlevels > 0 ? st->lv[st->nlevels - 1] : st;
	foreach(lc, outs)
		if (lfirst_int(lc) >= last->icol_base + last->gncols)
			elog(ERROR, "gpuext: GpuJoin aggregate output %d past the joined outputs",
				 lfirst_int(lc));
}

/*
 * The inner columns the build stores (cols: per column its resno in the
 * inner child, gx_type, numeric scale, 1 for dictionary ids), a string
 * column's dictionary in dcxt
 */
void
gx_join_agg_cols_begin(GxJoinState *st, List *cols, MemoryContext dcxt)
{
	st->gncols = list_length(cols) / 4;
	if (st->gncols > GX_JOIN_MAX_COLS)
		elog(ERROR, "gpuext: GpuJoin with %d inner columns", st->gncols);
	for (int c = 0; c < st->gncols; c++)
	{
		st->gcol_res[c] = (AttrNumber) list_nth_int(cols, 4 * c);
		st->gcol_type[c] = list_nth_int(cols, 4 * c + 1);
		st->gcol_scale[c] = list_nth_int(cols, 4 * c + 2);
		st->gcol_dict[c] = list_nth_int(cols, 4 * c + 3) == 0 ? NULL :
			gx_dict_create(dcxt, exprType((Node *) ((TargetEntry *) list_nth(
					st->inner_ps->plan->targetlist, st->gcol_res[c] - 1))->expr));
		st->imax = Max(st->imax, st->gcol_res[c]);
	}
}

/* the dictionary of the outer rows' column resno, or NULL */
static GxDict *
gx_join_agg_rows_dict(GxJoinState *st, AttrNumber resno)
{
	for (int i = 0; i < st->ngdict; i++)
		if (st->gdict_res[i] == resno)
			return st->gdict[i];
	return NULL;
}


/*
 * The inner column store of the table just reserved (st->cap rows) in the
 * join's session, when the build stores columns; false when it cannot be
 * had (the caller gives up the table)
 */
bool
gx_join_agg_alloc_cols(GxJoinState *st)
{
	if ((!st->group && !st->gather) || st->gncols == 0)
		return true;
	st->cols_obj = gx_session_try_alloc(st->session, st->device,
										gx_join_cols_bytes(st->cap, st->gncols),
										GX_OBJ_JOIN_COLS);
	return st->cols_obj != 0;
}

/*
 * A task that reads or writes the inner column store (a build storing
 * columns, a group or gathering probe reading them): the store and its
 * columns' types; nothing without inner columns
 */
void
gx_join_cols_task(GxJoinState *st, gx_chunk *c)
{
	if (st->gncols == 0)
		return;
	c->obj[GX_JOIN_OBJ_COLS] = st->cols_obj;
	c->ext.join.ncols = (uint32) st->gncols;
	for (int i = 0; i < st->gncols; i++)
		c->ext.join.col_type[i] = (uint8) st->gcol_type[i];
}

/*
 * A build task of rows from the inner child (gx_join_task) whose batch
 * holds the inner columns after its nk keys: the store and its columns
 */
void
gx_join_agg_build_cols(GxJoinState *st, gx_chunk *c, uint32 nk)
{
	gx_join_cols_task(st, c);
	for (int i = 0; i < st->gncols; i++)
	{
		c->ext.join.col_out[i] = (int16) (nk + i);
		c->cols[nk + i].scale = st->gcol_type[i] == GX_NUMERIC ? st->gcol_scale[i] : 0;
	}
}

/*
 * A build task of the inner device input (join_inputs.cpp): the store,
 * and its columns as its program's outputs (gicol_out)
 */
void
gx_join_agg_input_cols(GxJoinState *st, gx_chunk *c)
{
	gx_join_cols_task(st, c);
	for (int i = 0; i < st->gncols; i++)
		c->ext.join.col_out[i] = st->gicol_out[i];
}

/*
 * The group part of a probe task of the outer device input: the group
 * table as obj[GX_JOIN_OBJ_GROUP], the keys and aggregates, the inner
 * columns after the outer outputs
 */
void
gx_join_agg_task(GxJoinState *st, gx_chunk *c)
{
	GxScanState *g = st->grs;

	gx_group_set_ext(g, c, GX_JOIN_OBJ_GROUP, g->agg_obj, g->grp.cap);
	c->ext.join.icol_base = (uint32) st->icol_base;
	c->ext.join.max_pairs = 0;
	gx_join_cols_task(st, c);
	/* (level 0 of a multi-level probe: the levels above, join_levels.cpp) */
	if (st->upper != NULL)
		gx_join_levels_task(st, c);
}

/*
 * Rows per group probe of the outer child's rows: gpuext.chunk_rows,
 * halved until the batch of the program's columns and the probe's result
 * area fit a staging slot
 */
static uint32
gx_join_agg_rows_per_task(GxJoinState *st, const int *ct, int nc)
{
	uint32		n = (uint32) gx_chunk_rows;

	while (n > 1024 &&
		   GX_ALIGN_UP(sizeof(gx_chunk)) + gx_columns_bytes(ct, nc, n) +
		   gx_join_probe_result_bytes(n, 0, st->alg) > gx_shared->slot_bytes)
		n /= 2;
	return n;
}

/*
 * Lay the outer rows st->outer[0 .. n) out as a group probe task in c:
 * the program's columns (the child's resnos), its code and constants,
 * the table, the group table
 */
static void
gx_join_agg_rows_task(GxJoinState *st, gx_chunk *c, const int *ct, int nc, uint32 n)
{
	const GxProgram *p = st->grows_prog;
	uint64		voff[GX_MAX_COLS];
	uint64		noff[GX_MAX_COLS];

	gx_join_header(st, c, GX_TASK_JOIN_PROBE,
				   gx_layout_columns(ct, nc, GX_ALIGN_UP(sizeof(gx_chunk)), n, voff, noff));
	c->nrows = n;
	c->ncols = nc;
	c->ninstr = p->ninstr;
	c->nconsts = p->nconsts;
	c->nregs = p->nregs;
	memcpy(c->code, p->code, sizeof(gx_instr) * p->ninstr);
	memcpy(c->consts, p->consts, sizeof(gx_const) * p->nconsts);
	for (int i = 0; i < nc; i++)
	{
		c->cols[i].values_off = voff[i];
		c->cols[i].nulls_off = noff[i];
		c->cols[i].type = ct[i];
		c->cols[i].scale = ct[i] == GX_NUMERIC ? p->col_scale[i] : 0;
		memset((char *) c + noff[i], 0, gx_bitmap_bytes(n));
	}
	for (int k = 0; k < st->nkeys; k++)
		c->ext.join.key_out[k] = (int16) k;
	c->ext.join.mode = st->mode;
	gx_join_agg_task(st, c);
	for (uint32 r = 0; r < n; r++)
	{
		ExecStoreMinimalTuple(st->outer[r], st->oslot, false);
		for (int i = 0; i < nc; i++)
			gx_join_store_col(c, i, r, st->oslot, p->col_attno[i], ct[i], p->col_scale[i],
							  gx_join_agg_rows_dict(st, p->col_attno[i]));
	}
	ExecClearTuple(st->oslot);
}

/*
 * Group probes of the outer child's rows (its program: st->grows_prog), a
 * chunk of rows at a time read into "GpuJoin outer chunk" and laid out
 * there before a staging slot is taken (the child may take slots of its
 * own while it runs); stops at the first probe that did not add all its
 * pairs (st->group_bad)
 */
static void
gx_join_agg_rows(GxJoinState *st)
{
	const GxProgram *p = st->grows_prog;
	int			ct[GX_MAX_COLS];
	uint32		per;
	instr_time	t0,
				t1;

	INSTR_TIME_SET_CURRENT(t0);
	for (int i = 0; i < p->ncols; i++)
		ct[i] = p->col_type[i];
	per = gx_join_agg_rows_per_task(st, ct, p->ncols);
	while (!st->group_bad && !st->outer_done)
	{
		uint32		n;
		uint64		bytes;
		char	   *image;
		int			slot;
		uint32		gen;
		gx_result  *res;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(st->chunk_cxt);
		n = gx_join_read_outer(st, per);
		if (n == 0)
			break;
		bytes = GX_ALIGN_UP(sizeof(gx_chunk)) + gx_columns_bytes(ct, p->ncols, n);
		image = (char *) MemoryContextAlloc(st->chunk_cxt, bytes);
		gx_join_agg_rows_task(st, (gx_chunk *) image, ct, p->ncols, n);
		slot = gx_slot_acquire(true);
		gen = gx_service_generation();
		memcpy(gx_slot_chunk(slot), image, bytes);
		gx_slot_chunk(slot)->fault = gx_take_fault();
		res = gx_join_run(st, slot, gen);
		if (gx_join_group_missed(res))
			st->group_bad = true;
		else if (res->nsel != 0)
			elog(ERROR, "gpuext: GpuJoin group probe returned %u entries", res->nsel);
		st->stats.pairs += (int64) res->join_count;
		gx_slot_release(slot);
		st->stats.probe_tasks++;
	}
	MemoryContextReset(st->chunk_cxt);
	st->outer = NULL;
	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	st->stats.probe_ms += INSTR_TIME_GET_MILLISEC(t1);
}

/* forget the group table (its session is closed or being closed) */
void
gx_join_agg_reset(GxJoinState *st)
{
	GxScanState *g = st->grs;

	if (g == NULL)
		return;
	g->session = 0;
	g->agg_obj = 0;
	if (st->icol_base >= 0)
		gx_group_reset(g);
	/* (the level below forgets its table: it was in this session) */
	if (st->nlevels > 0)
		gx_join_levels_reset(st);
}

/* give up the device for this run: its tables go, the fallback plan's rows come */
static void
gx_join_agg_fall_back(GxJoinState *st)
{
	gx_join_drop_table(st);
	st->built = true;
	st->fallback = true;
	st->stats.fallbacks++;
}

/*
 * This run's groups: the table built, the group table made, every outer
 * batch probed into it; or the decision to run the fallback (see the
 * design note)
 */
static void
gx_join_agg_run(GxJoinState *st)
{
	GxScanState *g = st->grs;

	st->group_run = true;
	/* (a multi-level group probe: join_levels.cpp) */
	if (st->nlevels > 0)
	{
		if (!gx_join_levels_run(st))
			gx_join_agg_fall_back(st);
		return;
	}
	if (!st->built)
		gx_join_build(st);
	if (st->fallback)
		return;
	if (st->icol_base < 0 ||
		(st->grows_prog == NULL && (!st->input[0].on || st->input[0].prog == NULL)))
	{
		gx_join_agg_fall_back(st);
		return;
	}
	/*
	 * an empty inner side read through its child (no table): INNER and
	 * SEMI have no pair and no group (the outer side is not read); LEFT
	 * and ANTI keep every outer row, which the fallback aggregates
	 */
	if (st->table == 0)
	{
		if (GX_JOIN_MODE_KEEPS_OUTER(st->mode))
			gx_join_agg_fall_back(st);
		return;
	}
	g->session = st->session;
	g->own_session = false;
	gx_group_prepare(g);
	st->group_bad = false;
	if (st->grows_prog != NULL)
		gx_join_agg_rows(st);
	else
		gx_join_count_input(st);
	st->probed = true;
	if (st->group_bad)
	{
		gx_join_agg_fall_back(st);
		return;
	}
	g->grp.reading = true;
}

/* ExecScan access method: the next group's row of partial states */
static TupleTableSlot *
gx_join_agg_next(ScanState *ss)
{
	GxJoinState *st = (GxJoinState *) ss;

	return gx_group_next(st->grs, ss->ss_ScanTupleSlot);
}

/* ExecScan recheck method (no EvalPlanQual: the path is for plain SELECTs) */
static bool
gx_join_agg_recheck(ScanState *ss, TupleTableSlot *slot)
{
	return true;
}

/* ExecCustomScan of the node: the groups' rows, or the fallback plan's */
TupleTableSlot *
gx_join_agg_exec(GxJoinState *st)
{
	if (!st->group_run)
		gx_join_agg_run(st);
	if (st->fallback)
		return ExecProcNode(st->fallback_ps);
	return ExecScan(&st->css.ss, gx_join_agg_next, gx_join_agg_recheck);
}
