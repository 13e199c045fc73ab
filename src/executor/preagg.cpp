/*
 * preagg.cpp - GpuPreAgg: GROUP BY and aggregates in a group table on the
 * device (planning: agg_path.cpp; the table: cuda/kernels/gx_group.cuh).
 *
 * Design note
 * -----------
 * A GpuScan in group mode (custom_private "preagg") reads its table like
 * any GpuScan; every chunk (heap pages, or a cache entry with its stale
 * blocks skipped) names the node's group table, a session object on the
 * device, and adds each selected row into its group there: count, sum,
 * min and max per aggregate, with the rows' NULLs left out, as PostgreSQL's
 * transition functions do.  Nothing comes back per chunk but the rows
 * whose group the table had no room for: the node turns each into a row
 * of partial states of its own (a group of one row), kept in a
 * tuplestore.  After the last chunk, GROUP_READ tasks bring the table's
 * groups back, a slot's worth at a time, and the node returns one row of
 * partial states per group, then the host's rows.  PostgreSQL's Finalize
 * (Hash|Group)Aggregate above combines the rows of each group with the
 * aggregates' own combine functions and computes the results and HAVING,
 * so a group that comes back in several rows is still one group, and
 * results, NULLs and errors are PostgreSQL's.
 *
 * Partial states are exactly the transition values PostgreSQL reaches:
 * count: int8; sum(int2/int4): int8, NULL for a group without a value;
 * min/max and bool_and/bool_or: the argument's type, NULL without a value;
 * avg(int2/int4): int8[] {N, sum}; sum/avg(numeric) and sum/avg(int8):
 * their internal states serialised (partial_states.cpp), from an exact
 * 128-bit sum; floats: sum(float4/float8) the argument's type, min/max
 * likewise, avg/stddev/variance float8_accum's float8[3] {N, Sx, Sxx}
 * (partial_states.cpp: a non-finite device sum is PostgreSQL's overflow
 * error; rows with NaN / Infinity inputs are the host's, built with
 * float8_accum / float4_accum).  stddev* / var* of int2/int4/int8 and
 * numeric: N, sum x and sum x^2 exact (two 128-bit sums; x * x is one
 * more program output, numeric at twice x's scale, whose overflow makes
 * the row a host row), their PolyNumAggState / NumericAggState written
 * serialised (partial_states.cpp), a host row's by PostgreSQL's own
 * transition and serial functions.  The device aggregates are shared:
 * sum, avg and count of one column (and one FILTER) are one {sum, count}
 * pair, sum and variance of one column one 128-bit sum.
 *
 * FILTER (WHERE cond): the condition is one more program output (a bool),
 * and a device aggregate with a filter (gx_agg.filt) takes a row only
 * where it is true, as PostgreSQL's; the host's rows evaluate it with the
 * executor, and an aggregate's argument only where it passed.
 *
 * The table is sized from the planner's estimate of the groups (twice as
 * many slots, at least 1024), within gpuext.preagg_memory and
 * gpuext.session_memory; a smaller one costs host work, never a wrong
 * answer.  Under parallel query every process adds into the leader's table
 * (one session object); the last process to finish reads it, and each
 * returns its own host rows.
 *
 * Several devices (docs/engine.md, "GpuPreAgg on several devices").  The
 * node's chunks run on every device of its set (a cache entry's where it
 * lies, heap pages on the least loaded device), and each adds into a table
 * of its own device: one session object per device, all of one geometry
 * (gx_group_alloc_tables: all or none), since the table's atomics are of
 * device scope and two GPUs must never update one table.  The chunk's
 * table is chosen once the source has chosen its device
 * (gx_group_chunk_device), and the devices used are remembered (g->used).
 * Once every chunk of a pass is done, GROUP_MERGE tasks on the home device
 * (ordered after the session's tasks) merge each other used table into the
 * home table, a range of its slots at a time (peer access: the sets keep
 * to the devices that reach home, gx_devset_reaching), and a discarding
 * GROUP_READ on its own device empties it; then GROUP_READ reads the home
 * table as with one device.  A group the home table has no room for comes
 * back in the merge's result, never lost: returned as a row of partial
 * states (Finalize combines it with its other rows), or, finalizing, where
 * each group must be in one row, the merges run before any row is
 * returned and such a group makes the pass run again, with larger tables
 * or its partition split, as a chunk that found no room does
 * (gx_group_merge_final).  Under parallel query the tables' handles and
 * the leader's devices travel in the DSM, and the last process to finish
 * merges (it learns every process's devices in gx_par_agg_leave).
 */
#include "gpuext.h"
#include "compat.h"
#include "executor.h"

extern "C"
{
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "nodes/nodeFuncs.h"
#include "port/pg_bitutils.h"
#include "utils/builtins.h"
#include "utils/ruleutils.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
}

static void gx_group_host_rows(GxScanState *st, GxBatch *b);
static void gx_group_set_table(GxScanState *st, gx_chunk *c, uint32 obj, uint32 cap);
static void gx_group_no_memory(void);

/* is this plan a GpuPreAgg with a group table? */
bool
gx_group_plan(CustomScan *cscan)
{
	return cscan->custom_private != NIL &&
		strcmp(strVal(linitial(cscan->custom_private)), "preagg") == 0;
}

/*
 * the device aggregate (ext.agg index) a spec reads, shared where it can be:
 * same argument and same FILTER (filt: its output, -1 none)
 */
static int
gx_group_dev_agg(GxGroupState *g, int op, int col, bool any_op, int filt)
{
	uint16		f = (uint16) (filt + 1);	/* gx_agg.filt: 0 = none */
	int			width = op == GX_AGG_SUM128 ? 2 : op == GX_AGG_FVAR ? 3 : 1;

	/*
	 * (a count shares no 128-bit sum: its NaNs are apart; nor an FPART,
	 * whose cnt is no count)
	 */
	for (int i = 0; i < g->ndev; i++)
		if (g->dev[i].col == col && g->dev[i].filt == f &&
			(any_op ? g->dev[i].op != GX_AGG_SUM128 && g->dev[i].op != GX_AGG_HI &&
			 g->dev[i].op != GX_AGG_FPART :
			 g->dev[i].op == op))
			return i;
	if (g->ndev + width > GX_MAX_AGGS)
		elog(ERROR, "gpuext: too many device aggregates");
	if (op == GX_AGG_FVAR)
	{
		/* its shifted sums: the next two aggregates */
		for (int j = 0; j < 3; j++)
		{
			g->dev[g->ndev + j].op = (uint16) (j == 0 ? GX_AGG_FVAR : GX_AGG_FPART);
			g->dev[g->ndev + j].col = (int16) col;
			g->dev[g->ndev + j].filt = f;
			g->dev[g->ndev + j].cnt_of = 0;
		}
		g->ndev += 3;
		return g->ndev - 3;
	}
	g->dev[g->ndev].op = (uint16) op;
	g->dev[g->ndev].col = (int16) col;
	g->dev[g->ndev].filt = f;
	g->dev[g->ndev].cnt_of = 0;
	if (op == GX_AGG_SUM128)
	{
		/* its high word and NaN count: the next aggregate */
		g->dev[g->ndev + 1].op = GX_AGG_HI;
		g->dev[g->ndev + 1].col = (int16) col;
		g->dev[g->ndev + 1].filt = f;
		g->dev[g->ndev + 1].cnt_of = 0;
		g->ndev++;
		return g->ndev++ - 1;
	}
	return g->ndev++;
}

/* can device aggregate op keep the count of non-NULL inputs another shares? */
static bool
gx_group_count_like(uint16 op)
{
	return op == GX_AGG_COUNT || op == GX_AGG_SUM || op == GX_AGG_MIN || op == GX_AGG_MAX;
}

/*
 * Device aggregates of one input and one FILTER count the same rows: each
 * but the first takes the first one's count (gx_agg.cnt_of), one atomic
 * less a row on the device.  (Not 128-bit sums: their NaNs are counted
 * apart.)
 */
static void
gx_group_share_counts(GxGroupState *g)
{
	for (int a = 0; a < g->ndev; a++)
	{
		if (!gx_group_count_like(g->dev[a].op))
			continue;
		for (int b = 0; b < a; b++)
			if (gx_group_count_like(g->dev[b].op) && g->dev[b].cnt_of == 0 &&
				g->dev[b].col == g->dev[a].col && g->dev[b].filt == g->dev[a].filt)
			{
				g->dev[a].cnt_of = (uint16) (b + 1);
				break;
			}
	}
}

/*
 * Group mode at scan start (gx_agg_begin made the aggregate specs): the
 * keys of custom_scan_tlist, and the device aggregates the specs share
 */
void
gx_group_begin(GxScanState *st, CustomScan *cscan)
{
	List	   *priv = cscan->custom_private;

	gx_group_begin_spec(st, cscan->custom_scan_tlist, atof(strVal(lthird(priv))),
						(List *) lfourth(priv), (List *) list_nth(priv, 4),
						(List *) list_nth(priv, 5), (List *) list_nth(priv, 6),
						(List *) list_nth(priv, 7),
						gx_private_final(priv));
}

/*
 * Group mode of a node whose target list tlist holds the keys and the
 * partial Aggrefs (the specs made: gx_agg_specs): per entry, its output
 * (outs), numeric scale, FILTER, dscales and square outputs; est the
 * planner's groups; final: the node finalizes.  A GpuScan's (above), or a
 * GpuJoin's that aggregates its pairs (join_agg.cpp), whose scan state
 * holds the group table alone (no relation: no host rows).
 */
void
gx_group_begin_spec(GxScanState *st, List *tlist, double est, List *outs, List *scales,
					List *filts, List *dscales, List *sqs, bool final)
{
	GxGroupState *g = &st->grp;
	PlanState  *ps = &st->css.ss.ps;
	int			i = 0;
	ListCell   *lc;

	g->nkeys = 0;
	g->ndev = 0;
	g->est_groups = est;
	/* the keys; each entry's program output (agg_path.cpp) */
	foreach(lc, tlist)
	{
		TargetEntry *te = (TargetEntry *) lfirst(lc);
		GxKeySpec  *k;

		if (te->resjunk)
			continue;
		if (i >= list_length(outs))
			elog(ERROR, "gpuext: GpuPreAgg outputs do not match its target");
		if (IsA(te->expr, Aggref))
		{
			for (int a = 0; a < st->nagg; a++)
				if (st->aggs[a].resno == te->resno)
				{
					st->aggs[a].col = list_nth_int(outs, i);
					st->aggs[a].scale = list_nth_int(scales, i);
					st->aggs[a].filt = list_nth_int(filts, i);
					st->aggs[a].dcol = list_nth_int(dscales, i);
					st->aggs[a].sqcol = list_nth_int(sqs, i);
					if (st->aggs[a].arg != NULL)
						st->aggs[a].argstate = ExecInitExpr(st->aggs[a].arg, NULL);
					if (st->aggs[a].filter != NULL)
						st->aggs[a].filtstate = ExecInitExpr(st->aggs[a].filter, NULL);
				}
			i++;
			continue;
		}
		if (g->nkeys >= GX_MAX_GKEYS)
			elog(ERROR, "gpuext: too many group keys");
		k = &g->keys[g->nkeys++];
		k->expr = te->expr;
		k->type = exprType((Node *) te->expr);
		k->typmod = exprTypmod((Node *) te->expr);
		k->resno = te->resno;
		k->scale = list_nth_int(scales, i);
		k->col = list_nth_int(outs, i++);
		k->state = ExecInitExpr(te->expr, NULL);
		k->dict = NULL;
	}
	/* min / max / sums first, then the counts that can share them */
	for (int a = 0; a < st->nagg; a++)
	{
		GxAggSpec  *sp = &st->aggs[a];

		if (sp->kind == GX_AGGK_SUM || sp->kind == GX_AGGK_AVG)
			sp->slot = gx_group_dev_agg(g, GX_AGG_SUM, sp->col, false, sp->filt);
		else if (sp->kind == GX_AGGK_NSUM || sp->kind == GX_AGGK_SUM8)
		{
			sp->slot = gx_group_dev_agg(g, GX_AGG_SUM128, sp->col, false, sp->filt);
			if (sp->dcol >= 0)
				sp->dslot = gx_group_dev_agg(g, GX_AGG_MAX, sp->dcol, false, sp->filt);
		}
		else if (sp->kind == GX_AGGK_IVAR)
		{
			/* exact sums of x (shared with sum(x)) and of x * x */
			if (sp->sqcol < 0)
				elog(ERROR, "gpuext: variance without the square of its argument");
			sp->slot = gx_group_dev_agg(g, GX_AGG_SUM128, sp->col, false, sp->filt);
			sp->sqslot = gx_group_dev_agg(g, GX_AGG_SUM128, sp->sqcol, false, sp->filt);
		}
		else if (sp->kind == GX_AGGK_MIN)
			sp->slot = gx_group_dev_agg(g, GX_AGG_MIN, sp->col, false, sp->filt);
		else if (sp->kind == GX_AGGK_MAX)
			sp->slot = gx_group_dev_agg(g, GX_AGG_MAX, sp->col, false, sp->filt);
		else if (sp->kind == GX_AGGK_FSUM)
			sp->slot = gx_group_dev_agg(g, GX_AGG_FSUM, sp->col, false, sp->filt);
		else if (sp->kind == GX_AGGK_FVAR)
			sp->slot = gx_group_dev_agg(g, GX_AGG_FVAR, sp->col, false, sp->filt);
		else if (sp->kind == GX_AGGK_FMIN)
			sp->slot = gx_group_dev_agg(g, GX_AGG_FMIN, sp->col, false, sp->filt);
		else if (sp->kind == GX_AGGK_FMAX)
			sp->slot = gx_group_dev_agg(g, GX_AGG_FMAX, sp->col, false, sp->filt);
	}
	for (int a = 0; a < st->nagg; a++)
	{
		GxAggSpec  *sp = &st->aggs[a];

		if (sp->kind == GX_AGGK_COUNT)
			sp->slot = gx_group_dev_agg(g, GX_AGG_COUNT, sp->col, true, sp->filt);
		else if (sp->kind == GX_AGGK_COUNT_STAR)
			sp->slot = gx_group_dev_agg(g, GX_AGG_COUNT, -1, false, sp->filt);
	}
	gx_group_share_counts(g);
	/* rows the table has no room for come back, with their tuples */
	st->need_tuples = true;
	/*
	 * the host's rows are evaluated over a table row (g->table_slot): with
	 * no parent, the expressions do not take the scan slot for the
	 * node's own (virtual) one
	 */
	g->quals = ExecInitQual(st->device_quals, NULL);
	g->table_slot = st->src.rel == NULL ? NULL :
		ExecInitExtraTupleSlot(ps->state, RelationGetDescr(st->src.rel),
							   table_slot_callbacks(st->src.rel));
	g->min_slot = ExecInitExtraTupleSlot(ps->state,
										 st->css.ss.ss_ScanTupleSlot->tts_tupleDescriptor,
										 &TTSOpsMinimalTuple);
	g->host_rows = NULL;
	g->recs = NULL;
	g->todo = NULL;
	g->todo_size = 0;
	/* finalizing: PostgreSQL's final calls of each aggregate, in an aggregate context */
	g->final = final;
	if (g->final)
	{
		ExprContext *fcxt = makeNode(ExprContext);

		for (int a = 0; a < st->nagg; a++)
			gx_agg_final_init(&g->fin[a], st->aggs[a].fnoid);
		/* (their states and values live in the per-row memory, as the row) */
		fcxt->ecxt_per_tuple_memory = ps->ps_ExprContext->ecxt_per_tuple_memory;
		g->fagg = makeNode(AggState);
		g->fagg->curaggcontext = fcxt;
	}
	gx_group_reset(st);
}

/* forget what a run of the scan read (scan start, rescan) */
void
gx_group_reset(GxScanState *st)
{
	GxGroupState *g = &st->grp;

	if (g->host_rows != NULL)
		tuplestore_end(g->host_rows);
	g->host_rows = NULL;
	g->reading = false;
	g->read_next = 0;
	g->nrecs = g->rec_pos = 0;
	g->ngroups = g->nhost = g->nreads = 0;
	g->npasses = g->nreruns = 0;
	g->fallback = g->decided = false;
	/* the first pass takes every group */
	g->part_mask = g->part_value = 0;
	g->ntodo = 0;
	g->rerun = g->host_taken = false;
	g->used = 0;
	g->merge_next = 0;
	g->rerun_want = 0;
}

/* the largest power-of-2 slots <= want whose table fits max_bytes (>= 1024) */
static uint64
gx_group_cap_for(GxGroupState *g, double want, uint64 max_bytes)
{
	uint64		cap = 1024;

	while (cap < (uint64) 1 << 31 && (double) cap < want &&
		   gx_group_table_bytes(cap * 2, g->nkeys, g->ndev) <= max_bytes)
		cap *= 2;
	return cap;
}

/*
 * The devices with a table of the node, home first: its source's (a
 * GpuPreAgg), or its home alone (a GpuJoin's group table, no source)
 */
static const int *
gx_group_devices(GxScanState *st, int *n)
{
	if (st->src.devs.n > 0)
	{
		*n = st->src.devs.n;
		return st->src.devs.dev;
	}
	*n = 1;
	return &st->device;
}

/*
 * New tables of cap slots, one on each of the node's devices, all or none
 * (must: an ERROR instead of false), and make them the tables rows go to
 * (the home device's: agg_obj).  Older tables stay with the session.
 */
static bool
gx_group_alloc_tables(GxScanState *st, uint64 cap, bool must)
{
	GxGroupState *g = &st->grp;
	int			n;
	const int  *devs = gx_group_devices(st, &n);
	uint32		h[GX_MAX_DEVICES];

	if (!gx_session_alloc_each(st->session, devs, n,
							   gx_group_table_bytes(cap, g->nkeys, g->ndev),
							   GX_OBJ_GROUP_TABLE, must, h))
		return false;
	memset(g->tables, 0, sizeof(g->tables));
	for (int k = 0; k < n; k++)
		g->tables[devs[k]] = h[k];
	st->agg_obj = h[0];
	g->cap = (uint32) cap;
	g->limit = (uint32) (cap / 2);
	g->used = 0;
	g->merge_next = 0;
	return true;
}

/*
 * Do rows go through a table of each GPU block (CPU thread) first, merged
 * into the global table at its end?  With few estimated groups: many rows
 * share a group, and a block's table in shared memory takes their
 * contention (measured: 10 groups 20 G rows/s through block tables, 2.5
 * through the global table alone, H100); with many, straight to the
 * global table.
 */
bool
gx_group_local(const GxGroupState *g)
{
	return g->est_groups <= 128;
}

/*
 * At scan start: the session and the first group tables, one per device,
 * st->agg_obj the home device's (a parallel worker was given the
 * leader's, and their size).  Twice the estimated groups in slots (a
 * parallel scan, which cannot grow its tables: eight times as many), at
 * least 1024, each within gpuext.preagg_memory; halved while
 * gpuext.session_memory has no room for all (at 1024 slots, the session's
 * ERROR).  Many groups go to the global table directly (GX_GROUP_NO_LOCAL).
 */
void
gx_group_prepare(GxScanState *st)
{
	GxGroupState *g = &st->grp;
	uint64		max_bytes = (uint64) gx_preagg_memory_mb * 1024 * 1024;
	double		want = 2.0 * g->est_groups;
	uint64		cap;

	gx_scan_session(st);
	g->gflags = gx_group_local(g) ? 0 : GX_GROUP_NO_LOCAL;
	/* a worker (the leader's table), or a rescan after a full read */
	if (st->agg_obj != 0)
		return;
	if (st->par != NULL)
		want *= 8.0;
	for (cap = gx_group_cap_for(g, want, max_bytes);; cap /= 2)
		if (gx_group_alloc_tables(st, cap, cap <= 1024))
			return;
}

/*
 * A chunk of batch b is back: take the rows it left to the host (before
 * its pages are unpinned), unless the pass must run again.  A chunk
 * whose table had no room makes a serial pass run again (gx_group_rerun)
 * while a pass can still be split: its rows are then dropped, as are
 * every later chunk's of the pass.  Parallel scans, which cannot run
 * again, keep such rows as the host's.
 */
void
gx_group_collect(GxScanState *st, GxBatch *b)
{
	GxGroupState *g = &st->grp;

	/* (finalizing, a chunk with rows for the host means the fallback plan: no rerun) */
	if (b->group_full && !g->rerun && st->par == NULL &&
		pg_popcount32(g->part_mask) < GX_MAX_PASS_BITS &&
		!(g->final && !g->host_taken && b->group_host))
	{
		g->rerun = true;
		st->src.heap_done = true;	/* no more chunks for this pass */
	}
	if (!g->rerun && b->nsel > 0)
		gx_group_host_rows(st, b);
}

/*
 * Run a task of kind (GROUP_READ, GROUP_MERGE) over slots [row0, row0 +
 * n) of the table of device, on that device (GROUP_MERGE: from that table
 * into the home table, on the home device), ordered after every task of
 * the session (gflags: GX_GROUP_DISCARD to copy nothing; a merge's
 * groups without room are then counted only), and wait for it; the
 * caller reads the result and releases the slot
 */
static int
gx_group_table_task(GxScanState *st, uint32 kind, int device, uint32 row0, uint32 n,
					uint32 gflags)
{
	GxGroupState *g = &st->grp;
	int			slot = gx_slot_acquire(true);
	uint32		gen = gx_service_generation();
	gx_chunk   *c = gx_slot_chunk(slot);

	gx_task_init(c, kind, st->session);
	c->follow = GX_FOLLOW_SESSION;
	c->nrows = n;
	c->input_bytes = GX_ALIGN_UP(sizeof(gx_chunk));
	c->result_off = c->input_bytes;
	memset(&c->ext, 0, sizeof(c->ext));
	c->ext.entry = -1;
	gx_group_set_table(st, c, device == st->device ? st->agg_obj : g->tables[device], g->cap);
	c->ext.row0 = row0;
	if (kind == GX_TASK_GROUP_MERGE)
	{
		/* into the home table, on the home device (no pass, no flag: the whole source) */
		c->obj[0] = st->agg_obj;
		c->obj[1] = g->tables[device];
		c->ext.gflags = 0;
		c->ext.gpart_mask = c->ext.gpart_value = 0;
		c->ext.count_only = (gflags & GX_GROUP_DISCARD) != 0;
		device = st->device;
	}
	else
		c->ext.gflags |= gflags;
	gx_slot_submit(slot, device);
	gx_slot_wait(slot, gen, GX_WAIT_SPIN_US);
	if (kind == GX_TASK_GROUP_READ)
		g->nreads++;
	return slot;
}

/* a GROUP_READ of slots [row0, row0 + n) of the home table (gx_group_table_task) */
static int
gx_group_read_task(GxScanState *st, uint32 row0, uint32 n, uint32 gflags)
{
	return gx_group_table_task(st, GX_TASK_GROUP_READ, st->device, row0, n, gflags);
}

/*
 * empty the home table and the others the pass's chunks used (a
 * GROUP_READ that copies nothing on each one's device), after every task
 * of the session
 */
static void
gx_group_discard(GxScanState *st)
{
	GxGroupState *g = &st->grp;

	gx_slot_release(gx_group_read_task(st, 0, g->cap, GX_GROUP_DISCARD));
	for (int d = 0; d < GX_MAX_DEVICES; d++)
		if ((g->used & (1u << d)) != 0 && d != st->device)
			gx_slot_release(gx_group_table_task(st, GX_TASK_GROUP_READ, d, 0, g->cap,
												GX_GROUP_DISCARD));
	g->used = 0;
	g->merge_next = 0;
}

/* the records of GROUP_READ and GROUP_MERGE results not returned yet: their buffer */
static char *
gx_group_recs(GxScanState *st, uint64 room)
{
	GxGroupState *g = &st->grp;

	if (g->recs == NULL)
		g->recs = (char *) MemoryContextAllocHuge(st->css.ss.ps.state->es_query_cxt, room);
	return g->recs;
}

/*
 * Several devices: the next range of slots of the next table to merge
 * into the home table this pass (the first device of the source, past
 * home, whose table chunks used), a GROUP_MERGE on the home device,
 * ordered after every task of the session; the groups the home table had
 * no room for into g->recs as GROUP_READ's (count_only: counted in
 * *noroom alone).  A table merged to its last slot is emptied for the
 * next pass (a discarding GROUP_READ on its device).  false when no table
 * is left to merge.
 */
static bool
gx_group_merge_step(GxScanState *st, bool count_only, uint64 *noroom)
{
	GxGroupState *g = &st->grp;
	uint64		sb = gx_group_slot_bytes(g->nkeys, g->ndev);
	uint64		room = gx_shared->slot_bytes - GX_ALIGN_UP(sizeof(gx_chunk)) -
		GX_ALIGN_UP(sizeof(gx_result));
	int			d = -1;
	uint32		n;
	int			slot;
	gx_result  *res;

	for (int i = 1; i < st->src.devs.n && d < 0; i++)
		if ((g->used & (1u << st->src.devs.dev[i])) != 0)
			d = st->src.devs.dev[i];
	if (d < 0 || d == st->device)
		return false;
	n = (uint32) Min((uint64) (g->cap - g->merge_next), room / sb);
	slot = gx_group_table_task(st, GX_TASK_GROUP_MERGE, d, g->merge_next, n,
							   count_only ? GX_GROUP_DISCARD : 0);
	res = gx_chunk_result(gx_slot_chunk(slot));
	if (res->nsel > n || res->join_count + res->join_noroom > n ||
		(count_only && res->nsel > 0))
		elog(ERROR, "gpuext: group merge returned %u groups of %u slots", res->nsel, n);
	g->nrecs = count_only ? 0 : res->nsel;
	g->rec_pos = 0;
	if (g->nrecs > 0)
		memcpy(gx_group_recs(st, room), (char *) res + GX_ALIGN_UP(sizeof(gx_result)),
			   (size_t) g->nrecs * sb);
	*noroom += res->join_noroom;
	st->stats.group_merges++;
	st->stats.groups_merged += res->join_count;
	st->stats.groups_unmerged += res->join_noroom;
	gx_slot_release(slot);
	g->merge_next += n;
	if (g->merge_next >= g->cap)
	{
		gx_slot_release(gx_group_table_task(st, GX_TASK_GROUP_READ, d, 0, g->cap,
											GX_GROUP_DISCARD));
		g->used &= ~(1u << d);
		g->merge_next = 0;
	}
	return true;
}

/*
 * Finalizing (serial), once every chunk of a pass is done: merge the other
 * devices' tables into the home table now, before a group is returned.  A
 * group without room makes the pass run again (true: g->rerun), with
 * larger tables or its partition split, as a chunk whose table had no
 * room; split as far as it goes, such groups mean the fallback plan (an
 * ERROR once a pass's groups were returned).  Host rows already mean the
 * fallback plan: nothing to merge.
 */
bool
gx_group_merge_final(GxScanState *st)
{
	GxGroupState *g = &st->grp;
	uint64		noroom = 0;

	if (!g->final || st->par != NULL || g->nhost > 0)
		return false;
	/* (the first merge without room decides: the rerun empties every table) */
	while (noroom == 0 && gx_group_merge_step(st, true, &noroom))
		;
	if (noroom == 0)
		return false;
	if (pg_popcount32(g->part_mask) < GX_MAX_PASS_BITS)
	{
		g->rerun = true;
		g->rerun_want = (double) g->limit + (double) noroom;
		return true;
	}
	if (g->decided)
		gx_group_no_memory();
	g->nhost += (int64) noroom;
	return false;
}

/*
 * Every chunk of a pass that must run again is done: run it again, with a
 * larger table where gpuext.preagg_memory and the session's memory have
 * room for one, else with its partition split in 2^k (k >= 1) partitions,
 * so many that each is expected to fit.  The groups expected: the table's
 * limit over the share of the relation's blocks read when it filled up
 * (gx_source_progress), at least four times the limit, and a quarter
 * more.  The rows the pass left to the host are
 * dropped (only the pass that takes them has any: host_taken).  false
 * when the pass need not run again.
 */
bool
gx_group_rerun(GxScanState *st)
{
	GxGroupState *g = &st->grp;
	uint64		max_bytes = (uint64) gx_preagg_memory_mb * 1024 * 1024;
	double		share = Max(gx_source_progress(&st->src), 1e-6);
	double		want;
	uint64		cap;
	int			bits = pg_popcount32(g->part_mask);
	int			k = 0;

	if (!g->rerun)
		return false;
	CHECK_FOR_INTERRUPTS();
	/* finalizing with rows for the host already: the fallback plan, at once */
	if (g->final && g->nhost > 0 && !g->host_taken)
	{
		g->rerun = false;
		return false;
	}
	/* (a merge without room: the home table's groups and those it had no room for) */
	want = (g->rerun_want > 0 ? g->rerun_want : Max(4.0 * g->limit, g->limit / share)) * 1.25;
	g->rerun_want = 0;
	g->est_groups = want;
	g->gflags = gx_group_local(g) ? 0 : GX_GROUP_NO_LOCAL;
	/* larger tables (the full ones stay with the session), else these emptied */
	for (cap = gx_group_cap_for(g, 2.0 * want, max_bytes); cap > g->cap; cap /= 2)
		if (gx_group_alloc_tables(st, cap, false))
			break;
	if (cap <= g->cap)
		gx_group_discard(st);
	/* the partitions each of a table's worth (at least two when no larger table) */
	while (bits + k < GX_MAX_PASS_BITS &&
		   (want / (double) ((uint64) 1 << k) > g->limit || (k == 0 && cap <= g->cap)))
		k++;
	if (k > 0)
	{
		uint32		mask = (uint32) (((uint64) 1 << (bits + k)) - 1);

		/* this pass is now value + 0 * 2^bits; value + j * 2^bits (j >= 1) are to run */
		if (g->ntodo + (1 << k) > g->todo_size)
		{
			int			size = Max(64, 2 * (g->ntodo + (1 << k)));

			g->todo = (uint64 *) (g->todo == NULL ?
								  MemoryContextAlloc(st->css.ss.ps.state->es_query_cxt,
													 sizeof(uint64) * size) :
								  repalloc(g->todo, sizeof(uint64) * size));
			g->todo_size = size;
		}
		for (int j = (1 << k) - 1; j >= 1; j--)
			g->todo[g->ntodo++] = ((uint64) mask << 32) |
				(g->part_value + ((uint64) j << bits));
		g->part_mask = mask;
	}
	elog(DEBUG1, "gpuext: GpuPreAgg pass runs again: %u slots, %d more partitions",
		 g->cap, k > 0 ? (1 << k) - 1 : 0);
	if (!g->host_taken)
	{
		if (g->host_rows != NULL)
			tuplestore_clear(g->host_rows);
		g->nhost = 0;
	}
	g->merge_next = 0;
	g->nreruns++;
	g->rerun = false;
	gx_scan_restart_source(st);
	return true;
}

/* the group part of a task naming table obj of cap slots (its obj[0]) */
static void
gx_group_set_table(GxScanState *st, gx_chunk *c, uint32 obj, uint32 cap)
{
	gx_group_set_ext(st, c, 0, obj, cap);
}

/* the group fields of a task that names table obj (cap slots) as its obj[i] */
void
gx_group_set_ext(GxScanState *st, gx_chunk *c, int i, uint32 obj, uint32 cap)
{
	GxGroupState *g = &st->grp;

	c->obj[i] = obj;
	c->ext.ngroup_cap = cap;
	c->ext.ngroup_limit = cap / 2;
	c->ext.ngkeys = g->nkeys;
	c->ext.gflags = g->gflags | (g->host_taken ? GX_GROUP_SKIP_HOST : 0);
	c->ext.gpart_mask = g->part_mask;
	c->ext.gpart_value = g->part_value;
	for (int k = 0; k < g->nkeys; k++)
		c->ext.gkey_col[k] = (int16) g->keys[k].col;
	c->ext.nagg = g->ndev;
	memcpy(c->ext.agg, g->dev, sizeof(gx_agg) * g->ndev);
}

/*
 * the group part of a rows task: the current (home) table, keys, device
 * aggregates; gx_group_chunk_device names its device's table
 */
void
gx_group_set_chunk(GxScanState *st, gx_chunk *c)
{
	gx_group_set_table(st, c, st->agg_obj, st->grp.cap);
	st->agg_dirty = true;
}

/*
 * Once the source chose the device of batch b (a cache entry's, or the
 * least loaded), its task c adds into that device's table: no two devices
 * update one table
 */
void
gx_group_chunk_device(GxScanState *st, GxBatch *b, gx_chunk *c)
{
	GxGroupState *g = &st->grp;
	uint32		t = b->device >= 0 && b->device < GX_MAX_DEVICES ? g->tables[b->device] : 0;

	if (t == 0)
		elog(ERROR, "gpuext: GpuPreAgg has no group table on device %s",
			 gx_device_name(b->device));
	c->obj[0] = t;
	g->used |= 1u << b->device;
}

/* Datum of a device value of type typid (numeric: at scale; bpchar: typmod) */
static Datum
gx_int_datum(int64 v, Oid typid, int scale = 0, int32 typmod = -1)
{
	switch (typid)
	{
		case BPCHAROID:
			return gx_char8_datum(v, typmod);
		case NUMERICOID:
			return v == GX_NUMERIC_NAN ? gx_numeric_nan() :
				gx_numeric_from_scaled(v < 0 ? -1 : 0, (uint64) v, scale);
		case BOOLOID:
			return BoolGetDatum(v != 0);
		case INT2OID:
			return Int16GetDatum((int16) v);
		case INT4OID:
		case DATEOID:
			return Int32GetDatum((int32) v);
		default:
			return Int64GetDatum(v);
	}
}

/*
 * A row of partial states into the scan slot: the keys (NULL where the
 * mask says), and each aggregate's state from the device pairs.
 */
static TupleTableSlot *
gx_group_store(GxScanState *st, TupleTableSlot *slot, uint32 nulls, const int64 *keys,
			   const gx_agg_pair *pairs)
{
	GxGroupState *g = &st->grp;

	ExecClearTuple(slot);
	for (int i = 0; i < slot->tts_tupleDescriptor->natts; i++)
	{
		slot->tts_values[i] = (Datum) 0;
		slot->tts_isnull[i] = true;
	}
	for (int k = 0; k < g->nkeys; k++)
	{
		int			r = g->keys[k].resno - 1;

		slot->tts_isnull[r] = (nulls >> k) & 1;
		if (!slot->tts_isnull[r])
			slot->tts_values[r] = g->keys[k].dict != NULL ?
				gx_dict_datum(g->keys[k].dict, keys[k]) :
				gx_int_datum(keys[k], g->keys[k].type, g->keys[k].scale, g->keys[k].typmod);
	}
	for (int i = 0; i < st->nagg; i++)
	{
		GxAggSpec  *sp = &st->aggs[i];
		const gx_agg_pair *p = &pairs[sp->slot];
		int			r = sp->resno - 1;

		switch (sp->kind)
		{
			case GX_AGGK_COUNT_STAR:
			case GX_AGGK_COUNT:
				slot->tts_values[r] = Int64GetDatum(p->cnt);
				slot->tts_isnull[r] = false;
				break;
			case GX_AGGK_SUM:
				slot->tts_values[r] = Int64GetDatum(p->val);
				slot->tts_isnull[r] = p->cnt == 0;
				break;
			case GX_AGGK_MIN:
			case GX_AGGK_MAX:
				slot->tts_isnull[r] = p->cnt == 0;
				if (p->cnt > 0)
					slot->tts_values[r] = gx_int_datum(p->val, sp->argtype, sp->scale);
				break;
			case GX_AGGK_NSUM:
				/* p: {low word, count}, p + 1: {high word, NaNs} */
				slot->tts_isnull[r] =
					!gx_numeric_avg_state(sp->dcol >= 0 ?
										  gx_numeric_free_sum(p[1].val, (uint64) p->val,
															  &pairs[sp->dslot]) :
										  gx_numeric_from_scaled(p[1].val, (uint64) p->val,
																 sp->scale),
										  p->cnt, p[1].cnt, &slot->tts_values[r]);
				break;
			case GX_AGGK_SUM8:
				{
					/*
					 * p: {low word, count}, p + 1: {high word, values of
					 * INT64_MAX}: the device counts those apart as it does
					 * numeric NaNs (GX_NUMERIC_NAN), so add them back
					 */
					__int128	sum = (__int128) (((unsigned __int128) (uint64) p[1].val << 64) |
												  (uint64) p->val);

					sum += (__int128) p[1].cnt * PG_INT64_MAX;
					slot->tts_isnull[r] = !gx_int8_avg_state(sum, p->cnt + p[1].cnt,
															 &slot->tts_values[r]);
					break;
				}
			case GX_AGGK_IVAR:
				{
					/*
					 * p, q: {low word, count}, {high word, NaNs} of the
					 * exact sums of x and of x * x.  Integers: a value
					 * INT64_MAX is counted apart as a NaN would be (as for
					 * SUM8), though such a row cannot reach the device (its
					 * square is no device numeric)
					 */
					const gx_agg_pair *q = &pairs[sp->sqslot];
					__int128	sx = (__int128) (((unsigned __int128) (uint64) p[1].val << 64) |
												 (uint64) p->val);
					__int128	sx2 = (__int128) (((unsigned __int128) (uint64) q[1].val << 64) |
												  (uint64) q->val);
					int64		n = p->cnt;
					int64		nan = p[1].cnt;

					if (sp->argtype != NUMERICOID)
					{
						sx += (__int128) nan * PG_INT64_MAX;
						n += nan;
						nan = 0;
					}
					slot->tts_isnull[r] = !gx_exact_var_state(sp->argtype, n, nan, sx, sx2,
															  sp->scale, &slot->tts_values[r]);
					break;
				}
			case GX_AGGK_FSUM:
				/* a double of finite values: a non-finite sum is an overflow */
				slot->tts_isnull[r] = p->cnt == 0;
				if (p->cnt > 0)
					slot->tts_values[r] = gx_float_sum_state(gx_bitsd(p->val), sp->argtype);
				break;
			case GX_AGGK_FVAR:
				/* p: {sum x, N}, p + 1: {sum (x - c), c}, p + 2: {sum (x - c)^2, -} */
				slot->tts_values[r] = gx_float_var_state(p->cnt, gx_bitsd(p->val),
														 gx_bitsd(p[1].val), gx_bitsd(p[2].val));
				slot->tts_isnull[r] = false;
				break;
			case GX_AGGK_FMIN:
			case GX_AGGK_FMAX:
				{
					double		d = gx_float_unord(p->val);

					slot->tts_isnull[r] = p->cnt == 0;
					if (p->cnt > 0)
						slot->tts_values[r] = sp->argtype == FLOAT4OID ?
							Float4GetDatum((float4) d) : Float8GetDatum(d);
					break;
				}
			case GX_AGGK_AVG:
				{
					/* int4_avg_accum's state: int8[2] {N, sum} */
					Datum		d[2];

					d[0] = Int64GetDatum(p->cnt);
					d[1] = Int64GetDatum(p->val);
					slot->tts_values[r] =
						PointerGetDatum(construct_array(d, 2, INT8OID, sizeof(int64),
														FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
					slot->tts_isnull[r] = false;
					break;
				}
		}
	}
	/* finalizing: each aggregate's value from its state, as Finalize would */
	for (int i = 0; g->final && i < st->nagg; i++)
	{
		int			r = st->aggs[i].resno - 1;
		bool		null;

		slot->tts_values[r] = gx_agg_finalize(&g->fin[i], g->fagg, slot->tts_values[r],
											  slot->tts_isnull[r], &null);
		slot->tts_isnull[r] = null;
	}
	return ExecStoreVirtualTuple(slot);
}

/*
 * ERROR: a finalizing node that returned a pass's groups already finds
 * groups or rows a table has no room for, its partitions split as far as
 * they go
 */
static void
gx_group_no_memory(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("gpuext: GpuPreAgg has too little memory for its groups"),
			 errhint("Raise gpuext.preagg_memory, or set gpuext.enable_preagg_final to off.")));
}

/*
 * The rows of a finished batch that the device did not aggregate (its
 * selection): each becomes a row of partial states of its own, kept in
 * host_rows.  Called before the batch's pages are unpinned.
 */
static void
gx_group_host_rows(GxScanState *st, GxBatch *b)
{
	GxGroupState *g = &st->grp;
	TupleTableSlot *scan_slot = st->css.ss.ss_ScanTupleSlot;
	ExprContext *econtext = st->css.ss.ps.ps_ExprContext;
	TupleTableSlot *saved = econtext->ecxt_scantuple;
	MemoryContext old;

	if (b->nsel == 0)
		return;
	if (g->host_rows == NULL)
	{
		old = MemoryContextSwitchTo(st->css.ss.ps.state->es_query_cxt);
		g->host_rows = tuplestore_begin_heap(false, false, work_mem);
		MemoryContextSwitchTo(old);
	}
	for (uint32 i = 0; i < b->nsel; i++)
	{
		Datum	   *values = scan_slot->tts_values;
		bool	   *isnull = scan_slot->tts_isnull;

		ResetExprContext(econtext);
		econtext->ecxt_scantuple = gx_source_row(&st->src, b, b->sel[i], g->table_slot);
		/* (a row the device could not decide passes or fails here) */
		if (!ExecQual(g->quals, econtext))
			continue;
		if (g->final)
		{
			/*
			 * (finalizing: a row the device left means the fallback plan;
			 * after the first pass's groups were returned, too late: a pass
			 * left rows though split GX_MAX_PASS_BITS times)
			 */
			if (g->decided)
				gx_group_no_memory();
			g->nhost++;
			continue;
		}
		old = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
		ExecClearTuple(scan_slot);
		for (int c = 0; c < scan_slot->tts_tupleDescriptor->natts; c++)
		{
			values[c] = (Datum) 0;
			isnull[c] = true;
		}
		for (int k = 0; k < g->nkeys; k++)
		{
			int			r = g->keys[k].resno - 1;

			values[r] = ExecEvalExpr(g->keys[k].state, econtext, &isnull[r]);
		}
		/* each aggregate's partial state over this one row */
		for (int a = 0; a < st->nagg; a++)
		{
			GxAggSpec  *sp = &st->aggs[a];
			int			r = sp->resno - 1;
			bool		vnull = true;
			Datum		v = (Datum) 0;
			int64		iv = 0;
			double		dv;

			bool		skip = false;

			/* a row its FILTER leaves out: the state of no row (no argument) */
			if (sp->filtstate != NULL)
			{
				bool		fnull;
				Datum		f = ExecEvalExpr(sp->filtstate, econtext, &fnull);

				skip = fnull || !DatumGetBool(f);
			}
			if (sp->argstate != NULL && !skip)
				v = ExecEvalExpr(sp->argstate, econtext, &vnull);
			isnull[r] = false;
			switch (sp->kind)
			{
				case GX_AGGK_COUNT_STAR:
					values[r] = Int64GetDatum(skip ? 0 : 1);
					break;
				case GX_AGGK_SUM8:
					isnull[r] = vnull || !gx_int8_avg_state(DatumGetInt64(v), 1, &values[r]);
					break;
				case GX_AGGK_COUNT:
					values[r] = Int64GetDatum(vnull ? 0 : 1);
					break;
				case GX_AGGK_SUM:
					isnull[r] = vnull;
					if (!vnull)
					{
						gx_datum_value(v, sp->argtype, &iv, &dv);
						values[r] = Int64GetDatum(iv);
					}
					break;
				case GX_AGGK_MIN:
				case GX_AGGK_MAX:
				case GX_AGGK_FMIN:
				case GX_AGGK_FMAX:
				case GX_AGGK_FSUM:
					/* (a float sum's state over one value: that value) */
					isnull[r] = vnull;
					values[r] = v;
					break;
				case GX_AGGK_FVAR:
					values[r] = gx_float_var_row_state(v, vnull, sp->argtype);
					break;
				case GX_AGGK_IVAR:
					isnull[r] = !gx_exact_var_row_state(v, vnull, sp->argtype, &values[r]);
					break;
				case GX_AGGK_AVG:
					{
						Datum		d[2];

						if (!vnull)
							gx_datum_value(v, sp->argtype, &iv, &dv);
						d[0] = Int64GetDatum(vnull ? 0 : 1);
						d[1] = Int64GetDatum(iv);
						values[r] = PointerGetDatum(construct_array(d, 2, INT8OID, sizeof(int64),
																	FLOAT8PASSBYVAL,
																	TYPALIGN_DOUBLE));
						break;
					}
				case GX_AGGK_NSUM:
					{
						bool		nan = !vnull && numeric_is_nan(DatumGetNumeric(v));

						isnull[r] = vnull ||
							!gx_numeric_avg_state(v, nan ? 0 : 1, nan ? 1 : 0, &values[r]);
						break;
					}
			}
		}
		MemoryContextSwitchTo(old);
		econtext->ecxt_scantuple = saved;
		ExecStoreVirtualTuple(scan_slot);
		tuplestore_puttupleslot(g->host_rows, scan_slot);
		ExecClearTuple(scan_slot);
		g->nhost++;
	}
	econtext->ecxt_scantuple = saved;
	ResetExprContext(econtext);
}

/*
 * Read the next groups: first the other devices' tables merged into the
 * home table (gx_group_merge_step: the groups it had no room for), then
 * the next range of slots of the home table, a GROUP_READ task ordered
 * after every task of the session; the groups copied into g->recs.  false
 * when every slot has been read.
 */
static bool
gx_group_read_more(GxScanState *st)
{
	GxGroupState *g = &st->grp;
	uint64		sb = gx_group_slot_bytes(g->nkeys, g->ndev);
	uint64		room = gx_shared->slot_bytes - GX_ALIGN_UP(sizeof(gx_chunk)) -
		GX_ALIGN_UP(sizeof(gx_result));
	uint64		noroom = 0;
	uint32		n;
	int			slot;
	gx_result  *res;

	if (gx_group_merge_step(st, false, &noroom))
		return true;
	if (g->read_next >= g->cap)
		return false;
	n = (uint32) Min((uint64) (g->cap - g->read_next), room / sb);
	slot = gx_group_read_task(st, g->read_next, n, 0);
	res = gx_chunk_result(gx_slot_chunk(slot));
	if (res->nsel > n)
		elog(ERROR, "gpuext: group read returned %u groups of %u slots", res->nsel, n);
	memcpy(gx_group_recs(st, room), (char *) res + GX_ALIGN_UP(sizeof(gx_result)),
		   (size_t) res->nsel * sb);
	g->nrecs = res->nsel;
	g->rec_pos = 0;
	g->read_next += n;
	gx_slot_release(slot);
	return true;
}

/*
 * The next row GpuPreAgg returns once every chunk of a pass has run: the
 * table's groups (the process that reads it), then, after the last pass,
 * the host's rows.  An empty slot with passes still to run: the caller
 * runs the next (gx_group_next_pass).
 */
TupleTableSlot *
gx_group_next(GxScanState *st, TupleTableSlot *slot)
{
	GxGroupState *g = &st->grp;
	uint64		sb = gx_group_slot_bytes(g->nkeys, g->ndev);

	/*
	 * Finalizing: the groups are final only if each is in one row, i.e. no
	 * row was left to the host (by the first pass, which takes them all);
	 * else empty the table (a rescan reuses it) and let the node run its
	 * fallback plan (gx_exec_scan)
	 */
	if (g->final && !g->decided)
	{
		g->decided = true;
		if (g->nhost > 0)
		{
			g->fallback = true;
			if (g->reading)
				gx_group_discard(st);
			g->reading = false;
			st->agg_dirty = false;
			return ExecClearTuple(slot);
		}
	}
	while (g->reading)
	{
		if (g->rec_pos < g->nrecs)
		{
			char	   *rec = g->recs + (uint64) g->rec_pos++ * sb;
			gx_agg_pair *pairs = (gx_agg_pair *) (rec + 8 + 8 * g->nkeys);

			/* counts the device kept once for several aggregates */
			for (int a = 0; a < g->ndev; a++)
				pairs[a].cnt = gx_agg_count(g->dev, pairs, a);
			MemoryContext old;
			TupleTableSlot *r;

			g->ngroups++;
			/* (the row's values live until ExecScan's next reset, as any scan row's) */
			old = MemoryContextSwitchTo(st->css.ss.ps.ps_ExprContext->ecxt_per_tuple_memory);
			r = gx_group_store(st, slot, ((uint32 *) rec)[1], (const int64 *) (rec + 8),
							   (const gx_agg_pair *) (rec + 8 + 8 * g->nkeys));
			MemoryContextSwitchTo(old);
			return r;
		}
		CHECK_FOR_INTERRUPTS();
		if (!gx_group_read_more(st))
		{
			g->reading = false;
			st->agg_dirty = false;	/* read to the end: the tables are empty */
			g->used = 0;
			g->npasses++;
			g->host_taken = true;	/* (every later pass leaves them) */
		}
	}
	if (g->ntodo > 0)
		return ExecClearTuple(slot);
	if (g->host_rows != NULL &&
		tuplestore_gettupleslot(g->host_rows, true, false, g->min_slot))
		return ExecCopySlot(slot, g->min_slot);
	return ExecClearTuple(slot);
}

/*
 * A pass's groups were all returned: start the next pass, the partition
 * last pushed (gx_group_rerun), over the input from its start.  false
 * when none is left (or the node runs its fallback plan).
 */
bool
gx_group_next_pass(GxScanState *st)
{
	GxGroupState *g = &st->grp;
	uint64		p;

	if (g->ntodo == 0 || g->fallback || g->reading)
		return false;
	p = g->todo[--g->ntodo];
	g->part_mask = (uint32) (p >> 32);
	g->part_value = (uint32) p;
	g->read_next = 0;
	g->merge_next = 0;
	gx_scan_restart_source(st);
	return true;
}

/* "a, b": the group keys, for EXPLAIN (as gx_agg_describe) */
char *
gx_group_describe_keys(GxScanState *st, List *dpctx, bool prefix)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int k = 0; k < st->grp.nkeys; k++)
		appendStringInfo(&buf, "%s%s", k > 0 ? ", " : "",
						 deparse_expression((Node *) st->grp.keys[k].expr, dpctx, prefix,
											false));
	return buf.data;
}
