/*
 * scroll.cpp - backward scans of a GpuScan under a cursor.
 *
 * A cursor declared without NO SCROLL may be fetched backward (FETCH
 * BACKWARD, MOVE BACKWARD, FETCH PRIOR / ABSOLUTE / LAST), and PostgreSQL
 * allows it only when every node of the plan can scan backward.  Chunks
 * go forward only, so a GpuScan planned for such a cursor (the path flag
 * CUSTOMPATH_SUPPORT_BACKWARD_SCAN, set by scan_path.cpp) keeps the ids
 * of the rows it has returned, in order.  Moving back, or forward again
 * over rows already returned, fetches them again by id in the scan's
 * snapshot (table_tuple_fetch_row_version: the same versions, the same
 * order, as a seqscan gives); past the last one returned, the device
 * pipeline goes on.  The scan slot always holds a heap tuple with its id,
 * so UPDATE/DELETE ... WHERE CURRENT OF works wherever the cursor stands.
 * ExecScan applies the host quals and the projection to every row, as a
 * seqscan does in both directions.
 */
#include "gpuext.h"
#include "executor.h"

extern "C"
{
#include "access/tableam.h"
}

/* a cursor's GpuScan: keep row ids (the scan returns tuples) */
void
gx_scroll_begin(GxScanState *st, CustomScan *cscan)
{
	st->scrollable = (cscan->flags & CUSTOMPATH_SUPPORT_BACKWARD_SCAN) != 0;
	if (st->scrollable)
		st->need_tuples = true;
	gx_scroll_reset(st);
}

/* forget the rows returned (scan start, rescan) */
void
gx_scroll_reset(GxScanState *st)
{
	st->scroll_n = 0;
	st->scroll_pos = -1;
	st->scroll_end = false;
}

/* row i of those returned, fetched again into the scan slot */
static TupleTableSlot *
gx_scroll_fetch(GxScanState *st, int64 i)
{
	TupleTableSlot *slot = st->css.ss.ss_ScanTupleSlot;
	EState	   *estate = st->css.ss.ps.state;

	if (!table_tuple_fetch_row_version(st->src.rel, &st->scroll_tids[i],
									   estate->es_snapshot, slot))
		elog(ERROR, "gpuext: a row the cursor returned is not visible to it any more");
	return slot;
}

/* remember the id of a row the forward pipeline returned */
static void
gx_scroll_append(GxScanState *st, TupleTableSlot *slot)
{
	if (st->scroll_n == st->scroll_cap)
	{
		int64		cap = Max(st->scroll_cap * 2, 1024);
		MemoryContext cxt = st->css.ss.ps.state->es_query_cxt;

		st->scroll_tids = (ItemPointerData *) (st->scroll_tids == NULL ?
											   MemoryContextAlloc(cxt, sizeof(ItemPointerData) * cap) :
											   repalloc_huge(st->scroll_tids, sizeof(ItemPointerData) * cap));
		st->scroll_cap = cap;
	}
	st->scroll_tids[st->scroll_n++] = slot->tts_tid;
}

/*
 * ExecScan access method of a cursor's GpuScan: the next row in the
 * executor's direction; 'forward' is the device pipeline's access method.
 */
TupleTableSlot *
gx_scroll_row(GxScanState *st, ExecScanAccessMtd forward)
{
	EState	   *estate = st->css.ss.ps.state;
	TupleTableSlot *slot;

	if (ScanDirectionIsBackward(estate->es_direction))
	{
		if (st->scroll_pos <= 0)
		{
			st->scroll_pos = -1;	/* before the first row */
			return ExecClearTuple(st->css.ss.ss_ScanTupleSlot);
		}
		return gx_scroll_fetch(st, --st->scroll_pos);
	}
	if (st->scroll_pos + 1 < st->scroll_n)
		return gx_scroll_fetch(st, ++st->scroll_pos);
	if (st->scroll_end)
	{
		st->scroll_pos = st->scroll_n;	/* after the last row */
		return ExecClearTuple(st->css.ss.ss_ScanTupleSlot);
	}
	slot = forward(&st->css.ss);
	if (TupIsNull(slot))
	{
		st->scroll_end = true;
		st->scroll_pos = st->scroll_n;
		return slot;
	}
	gx_scroll_append(st, slot);
	st->scroll_pos = st->scroll_n - 1;
	return slot;
}
