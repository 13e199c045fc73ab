/*
 * join_filter.cpp - SEMI, ANTI and LEFT GpuJoins with other join quals
 * (issue 15): `EXISTS (SELECT ... WHERE s.k = r.k AND s.x <> r.x)`, TPC-H
 * Q21's shape.
 *
 * Design note
 * -----------
 * Such a qual decides which inner rows match an outer row, so it cannot
 * run as a filter over the join's result: a SEMI join returns an outer
 * row when some pair of it passes the quals, an ANTI join when none does
 * (no pair at all included), a LEFT join every pair that passes, and the
 * outer row with NULL inner columns when none does.  The device finds the
 * pairs of the keys: the node probes a SEMI join as INNER (pairs) and an
 * ANTI or LEFT join as LEFT (pairs, and an outer row without any, or with
 * a NULL key, as one GX_JOIN_PAIR_NO_INNER entry), so st->mode is that
 * probe mode and st->jtype the plan's join type.  Its inner side is read
 * through the child (the pairs need its rows), as an INNER join's.
 *
 * The entries of one outer row come together, in the order of the outer
 * rows (every algorithm writes them so, and a pass resumes where the one
 * before stopped), so the node reads them as a stream of runs: it forms
 * each pair in the scan slot, runs the quals (ExecQual in the per-tuple
 * context, reset per pair; a pair they reject counts in "Rows Removed by
 * Join Filter"), and keeps per run whether a pair passed (cur_any) and
 * whether the outer row was returned (cur_done).  A run ends when an entry
 * of another outer row comes, or when the chunk's last pass is read (the
 * outer rows, or a device input's batch, are still there then): ANTI and
 * LEFT return the row with NULL inner columns if no pair passed.  The
 * quals are not ExecScan's (ps.qual stays NULL): the access method
 * returns only the rows of the join.
 */
#include "gpuext.h"
#include "join_state.h"

extern "C"
{
#include "executor/executor.h"
}

/*
 * Set the node up for quals that decide the matches (see the design
 * note): the probe mode, the quals over the scan slot
 */
void
gx_join_filter_begin(GxJoinState *st, List *quals)
{
	if (st->jtype != GX_JOIN_SEMI && st->jtype != GX_JOIN_ANTI && st->jtype != GX_JOIN_LEFT)
		elog(ERROR, "gpuext: GpuJoin of join type %d with join quals", st->jtype);
	st->filtered = true;
	st->join_qual = ExecInitQual(quals, &st->css.ss.ps);
	st->mode = st->jtype == GX_JOIN_SEMI ? GX_JOIN_INNER : GX_JOIN_LEFT;
	st->cur = -1;
}

/*
 * The run of outer row st->cur ends: its row with NULL inner columns
 * (ANTI, LEFT) when no pair passed and it was not returned, else NULL
 */
static TupleTableSlot *
gx_join_filter_end_run(GxJoinState *st)
{
	gx_join_pair p;
	int64		row = st->cur;

	st->cur = -1;
	if (row < 0 || st->cur_any || st->cur_done || st->jtype == GX_JOIN_SEMI)
		return NULL;
	p.outer = (uint32) row;
	p.flags = GX_JOIN_PAIR_NO_INNER;
	p.inner = 0;
	return gx_join_store(st, &p);
}

/*
 * The next row of the join from the entries read (NULL: none left of
 * them); a run that ends with a row to return returns it first
 */
static TupleTableSlot *
gx_join_filter_entries(GxJoinState *st)
{
	ExprContext *econtext = st->css.ss.ps.ps_ExprContext;

	while (st->pair_pos < st->npairs)
	{
		const gx_join_pair *p = &st->pairs[st->pair_pos];
		TupleTableSlot *row;

		if ((int64) p->outer != st->cur)
		{
			/* another outer row: the last one's run ends (p is read next time) */
			row = gx_join_filter_end_run(st);
			st->cur = p->outer;
			st->cur_any = st->cur_done = false;
			if (row != NULL)
				return row;
		}
		st->pair_pos++;
		if (p->flags & GX_JOIN_PAIR_NO_INNER)
		{
			/* no pair (or a NULL key): ANTI and LEFT return the row */
			st->cur_done = true;
			return st->jtype == GX_JOIN_SEMI ? NULL : gx_join_store(st, p);
		}
		/* (SEMI: returned already; ANTI: a pair passed, the row is out) */
		if (st->cur_done || (st->jtype == GX_JOIN_ANTI && st->cur_any))
			continue;
		row = gx_join_store(st, p);
		ResetExprContext(econtext);
		econtext->ecxt_scantuple = row;
		if (!ExecQual(st->join_qual, econtext))
		{
			InstrCountFiltered1(&st->css.ss.ps, 1);
			continue;
		}
		st->cur_any = true;
		if (st->jtype == GX_JOIN_SEMI)
		{
			st->cur_done = true;
			return row;
		}
		if (st->jtype == GX_JOIN_LEFT)
			return row;
	}
	return NULL;
}

/*
 * ExecScan access method of a filtered join: the next row, reading
 * entries, ending runs, and probing on (passes, chunks, partitions)
 */
TupleTableSlot *
gx_join_filter_next(GxJoinState *st)
{
	TupleTableSlot *scan = st->css.ss.ss_ScanTupleSlot;

	/* SEMI over an empty inner side: nothing (the outer side is not read) */
	if (st->ninner == 0 && st->nparts == 0 && st->jtype == GX_JOIN_SEMI)
		return ExecClearTuple(scan);
	for (;;)
	{
		TupleTableSlot *row = gx_join_filter_entries(st);

		if (row != NULL)
			return row;
		/* the chunk's last pass read: its last run ends before the next chunk */
		if (!st->more && (row = gx_join_filter_end_run(st)) != NULL)
			return row;
		if (!gx_join_step(st) && !gx_join_parts_next(st))
			return ExecClearTuple(scan);
	}
}
