/*
 * gpuscan.cpp - the GpuScan node: its device pipeline and what it returns.
 *
 * Design note
 * -----------
 * The node reads its relation through a row source (source_heap.cpp,
 * source_cache.cpp), which fills batches in staging slots; the node makes
 * each one a task of its engine session (the program compiled at plan
 * time, its constants, the transfer mode, the aggregates) and submits it
 * to the gpuext service, which runs it on the GPU or the CPU device and
 * writes back the selected rows per tile, in row order.  Up to
 * GX_HEAP_BATCHES chunks (GX_MAX_BATCHES for count-only chunks of cached
 * columns) are kept in flight: while the device filters one, the backend
 * reads the next.  Each chunk carries the transfer mode of gpuext.transfer
 * (the GPU copies it to its memory, or reads it in place: mapped); the
 * result says which mode ran, and EXPLAIN ANALYZE reports it with how
 * much of the device's time was hidden behind the backend's own work.
 *
 * What the node returns: the selected rows, whose tuples the source puts
 * into the scan slot from the pages the batch pins (host quals and the
 * projection run through ExecScan); empty rows when nothing above reads a
 * column (count only); or, in aggregate mode (aggscan.cpp), one row of
 * partial aggregates read from a state object on the device.
 *
 * If the device raised an error (overflow, division by zero) at row r of a
 * chunk, the rows selected before r are returned first and the error is
 * raised when the next row is asked for: exactly where PostgreSQL would.
 */
#include "gpuext.h"
#include "executor.h"

extern "C"
{
#include "access/heapam.h"
#include "access/tupdesc_details.h"
#include "executor/nodeCustom.h"
#include "nodes/nodeFuncs.h"
#include "storage/bufmgr.h"
#include "miscadmin.h"
#include "optimizer/optimizer.h"
#include "portability/instr_time.h"
#include "utils/float.h"
#include "utils/memutils.h"
#include "utils/rel.h"
}

static void gx_begin_scan(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *gx_exec_scan(CustomScanState *node);
static void gx_end_scan(CustomScanState *node);
static void gx_rescan(CustomScanState *node);
static void gx_end_loop(GxScanState *st);

static CustomExecMethods gx_scan_exec_methods = {
	"GpuScan",
	gx_begin_scan,
	gx_exec_scan,
	gx_end_scan,
	gx_rescan,
	NULL, NULL,
	gx_par_estimate_dsm,
	gx_par_init_dsm,
	gx_par_reinit_dsm,
	gx_par_init_worker,
	gx_par_shutdown,
	gx_explain_scan
};

/* CreateCustomScanState callback */
Node *
gx_create_scan_state(CustomScan *cscan)
{
	GxScanState *st = (GxScanState *) newNode(sizeof(GxScanState), T_CustomScanState);

	st->css.methods = &gx_scan_exec_methods;
	return (Node *) st;
}

/*
 * Evaluate Params (and session-dependent Consts) into the program's
 * constant table (scan start, rescan): values, sets, bounds
 * (gx_program_fill).  False when a run cannot hold them exactly: this run
 * then evaluates the device quals on the host.
 */
static bool
gx_eval_params(GxScanState *st)
{
	ExprContext *econtext = st->css.ss.ps.ps_ExprContext;
	ListCell   *lc1,
			   *lc2,
			   *lc3,
			   *lc4;
	bool		exact = true;

	forfour(lc1, st->param_states, lc2, st->prog->param_idx, lc3, st->prog->params,
			lc4, st->prog->param_kind)
	{
		ExprState  *es = (ExprState *) lfirst(lc1);
		Node	   *expr = (Node *) lfirst(lc3);
		bool		isnull;
		Datum		d;

		if (IsA(expr, Const))
		{
			/* (a Const array's big set is built once: gx_program_fill_const) */
			if (!gx_program_fill_const(st->prog, lfirst_int(lc4), lfirst_int(lc2),
									   (Const *) expr))
				exact = false;
			continue;
		}
		d = ExecEvalExprSwitchContext(es, econtext, &isnull);
		if (!gx_program_fill(st->prog, lfirst_int(lc4), lfirst_int(lc2), d, isnull,
							 exprType(expr)))
			exact = false;
	}
	return exact;
}

/*
 * Use n batches (at most GX_MAX_BATCHES).  Their row arrays are allocated
 * when a batch first needs them (gx_source_batch_arrays for heap rows,
 * gx_collect_batch for a selection): a count-only scan of cached columns
 * allocates none, which is most of its per-query cost on the host.
 */
static void
gx_alloc_batches(GxScanState *st, int n)
{
	st->nbatches = n;
}

/* BeginCustomScan */
static void
gx_begin_scan(CustomScanState *node, EState *estate, int eflags)
{
	GxScanState *st = (GxScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	Index		relid = cscan->scan.scanrelid;
	ListCell   *lc;

	st->src.rel = node->ss.ss_currentRelation;
	/* a finalizing GpuPreAgg's fallback plan (agg_path.cpp) */
	foreach(lc, cscan->custom_plans)
		node->custom_ps = lappend(node->custom_ps,
								  ExecInitNode((Plan *) lfirst(lc), estate, eflags));
	st->group_mode = gx_group_plan(cscan);
	st->agg_mode = gx_agg_plan(cscan) || st->group_mode;
	if (st->agg_mode)
	{
		/*
		 * aggregates: ExecInitCustomScan made the scan slot from
		 * custom_scan_tlist (the partial aggregates); the quals point into
		 * it and are mapped back to the table's columns
		 */
		st->device_quals = gx_agg_device_quals(cscan);
		st->host_quals = NIL;
		st->device_recheck = NULL;
	}
	else
	{
		st->device_quals = (List *) linitial(cscan->custom_exprs);
		st->host_quals = (List *) lsecond(cscan->custom_exprs);

		/* scan slot: a buffer heap slot holding the pinned tuple */
		ExecInitScanTupleSlot(estate, &node->ss, RelationGetDescr(st->src.rel),
							  table_slot_callbacks(st->src.rel));
		ExecAssignScanProjectionInfoWithVarno(&node->ss, relid);
		node->ss.ps.qual = ExecInitQual(st->host_quals, &node->ss.ps);
		st->device_recheck = ExecInitQual(st->device_quals, &node->ss.ps);
	}
	st->host_qual = node->ss.ps.qual;
	st->fallback_qual = NULL;
	st->host_run = false;

	/* the device program was compiled at plan time (scan_path.cpp) */
	st->prog = gx_program_from_const((Const *) lsecond(cscan->custom_private),
									 (List *) lthird(cscan->custom_exprs));
	st->param_states = NIL;
	foreach(lc, st->prog->params)
		st->param_states = lappend(st->param_states,
								   ExecInitExpr((Expr *) lfirst(lc), &node->ss.ps));
	if (st->prog->may_fallback && !st->agg_mode)
		st->fallback_qual = ExecInitQual(list_concat(list_copy(st->device_quals),
													 st->host_quals), &node->ss.ps);

	/* does anything above read columns of the rows we return? */
	if (st->agg_mode)
		gx_agg_begin(st, cscan);
	else
	{
		Bitmapset  *attrs = NULL;

		pull_varattnos((Node *) cscan->scan.plan.targetlist, relid, &attrs);
		pull_varattnos((Node *) st->host_quals, relid, &attrs);
		/* rows for the host (prog->may_host) are rechecked: they need tuples */
		st->need_tuples = !bms_is_empty(attrs) || estate->es_epq_active != NULL ||
			st->fallback_qual != NULL || st->prog->may_host;
		gx_scroll_begin(st, cscan);
	}
	/*
	 * The devices: a chunk runs where its cache entry lies, or on the
	 * least loaded device; the aggregate state and the big sets live on
	 * the home device, which every device that names them must reach
	 * (docs/engine.md, "Several devices"); GpuPreAgg has a group table on
	 * each device, merged into the home device's through peer access
	 * (preagg.cpp)
	 */
	{
		GxDevSet	set;

		gx_resolve_devset(&set);
		if (st->agg_mode || gx_program_has_bigsets(st->prog))
			gx_devset_reaching(&set, set.dev[0]);
		st->device = set.dev[0];
		st->transfer = gx_transfer;
		gx_source_init(&st->src, st->src.rel, st->prog, st->device, &st->stats, estate,
					   (eflags & EXEC_FLAG_EXPLAIN_ONLY) != 0);
		gx_source_spread(&st->src, &set);
	}
	st->src.need_rows = st->need_tuples;
	for (int i = 0; i < GX_MAX_BATCHES; i++)
		st->batch[i].slot = -1;
	st->agg_read_slot = -1;
	gx_alloc_batches(st, GX_HEAP_BATCHES);
}

/*
 * The task header of a scan batch: a FILTER task of the scan's session
 * with the program, its constants, the transfer mode, and the aggregates
 * (the source turns it into a CACHE_SCAN task for a cache entry).
 */
static void
gx_scan_task(GxScanState *st, gx_chunk *c)
{
	GxProgram  *p = st->prog;

	gx_task_init(c, GX_TASK_FILTER, st->session);
	c->ncols = p->ncols;
	c->ninstr = st->host_run ? 0 : p->ninstr;	/* a host run: every row */
	c->nconsts = p->nconsts;
	c->nregs = p->nregs;
	c->flags = (st->transfer == GX_TRANSFER_MAPPED ? GX_CHUNK_MAPPED : 0) |
		(gx_jit ? GX_CHUNK_JIT : 0) | (gx_jit && gx_jit_wait ? GX_CHUNK_JIT_WAIT : 0);
	c->pad = 0;
	c->result_off = st->src.result_off;
	c->input_bytes = st->src.input_bytes;
	c->deform_off = 0;
	memset(&c->ext, 0, sizeof(c->ext));
	c->ext.entry = -1;
	c->ext.count_only = st->need_tuples ? 0 : 1;
	if (st->group_mode)
		gx_group_set_chunk(st, c);
	else if (st->agg_mode)
		gx_agg_set_chunk(st, c);
	c->obj[GX_TASK_OBJ_SETS] = st->sets_obj;	/* the big sets (scan_sets.cpp) */
	memcpy(c->code, p->code, sizeof(gx_instr) * p->ninstr);
	memcpy(c->consts, p->consts, sizeof(gx_const) * p->nconsts);
}

/* read up to rows_per_chunk rows into a new staging slot and submit it */
static bool
gx_fill_batch(GxScanState *st, GxBatch *b, bool wait)
{
	gx_chunk   *c;
	uint32		n;
	int			slot;
	instr_time	t0,
				t1;

	slot = gx_slot_acquire(wait);
	if (slot < 0)
		return false;
	gx_unpin_batch(b);
	INSTR_TIME_SET_CURRENT(t0);
	b->slot = slot;
	b->generation = gx_service_generation();
	c = gx_slot_chunk(slot);
	gx_scan_task(st, c);
	b->count_only = !st->need_tuples;
	n = gx_source_fill(&st->src, b, c, slot);
	/* (GpuPreAgg: the table of the device the source chose) */
	if (n > 0 && st->group_mode)
		gx_group_chunk_device(st, b, c);
	b->table = c->obj[0];
	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	st->stats.fill_ms += INSTR_TIME_GET_MILLISEC(t1);
	if (n == 0)
	{
		gx_slot_release(slot);
		b->slot = -1;
		return false;
	}
	b->seq = st->next_seq++;
	b->inflight = true;
	gx_slot_submit(slot, b->device);
	st->stats.chunks++;
	st->stats.dev_chunks[b->device]++;
	st->stats.rows_in += n - b->skipped_rows;	/* a cached entry's stale rows are not read */
	return true;
}

/* wait for a batch's slot and copy its selection out; frees the slot */
static void
gx_collect_batch(GxScanState *st, GxBatch *b)
{
	gx_chunk   *c;
	gx_result  *res;
	uint32	   *seg_off,
			   *seg_cnt,
			   *sel;
	uint32		n = 0;
	uint32		errrow = UINT32_MAX;
	uint32		errkey = UINT32_MAX;
	instr_time	t0,
				t1;

	INSTR_TIME_SET_CURRENT(t0);
	gx_slot_wait(b->slot, b->generation, b->cached ? GX_WAIT_SPIN_US : 0);
	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	st->stats.wait_ms += INSTR_TIME_GET_MILLISEC(t1);

	c = gx_slot_chunk(b->slot);
	res = gx_chunk_result(c);
	seg_off = gx_result_seg_off(res);
	seg_cnt = gx_result_seg_cnt(res);
	sel = gx_result_sel(res);
	b->error = GX_ERR_NONE;
	if (res->error != GX_NO_ERROR)
	{
		errrow = (uint32) (res->error >> 8);
		/* a cached chunk's selection holds row map values */
		errkey = (b->cached && !b->count_only) ? res->error_key : errrow;
		b->error = (int) (res->error & 0xff);
	}
	/* a cache entry has more rows than a heap chunk */
	if (!b->count_only && b->nrows > b->selcap)
	{
		uint32		cap = Max(b->nrows, st->src.rows_per_chunk);

		b->sel = (uint32 *) (b->sel == NULL ?
							 MemoryContextAlloc(st->css.ss.ps.state->es_query_cxt,
												sizeof(uint32) * cap) :
							 repalloc(b->sel, sizeof(uint32) * cap));
		b->selcap = cap;
	}
	for (uint32 t = 0; t < res->ntiles && n < b->nrows; t++)
	{
		if (b->count_only)
			n += seg_cnt[t];	/* rows of a tile stop at its error */
		else
		{
			for (uint32 k = 0; k < seg_cnt[t]; k++)
			{
				uint32		row = sel[seg_off[t] + k];

				if (row >= errkey)
					break;
				b->sel[n++] = row;
			}
		}
		if ((uint64) (t + 1) * GX_TILE_ROWS > errrow)
			break;
	}
	n = Min(n, b->nrows);
	/* some selected rows were left to the host: recheck every one (gx_next_row) */
	b->group_full = (res->flags & GX_RESULT_FULL) != 0;
	b->group_host = (res->flags & GX_RESULT_HOST) != 0;
	b->host_recheck = (res->flags & GX_RESULT_HOST) != 0 && !st->agg_mode;
	/* the planner gives no device aggregate a program that may need the host */
	if ((res->flags & GX_RESULT_HOST) != 0 && st->agg_mode && !st->group_mode)
		elog(ERROR, "gpuext: a device aggregate's rows need the host");
	if (st->agg_mode && b->error == GX_ERR_NONE)
		gx_agg_collect(st, n);
	b->nsel = n;
	b->pos = 0;
	st->stats.rows_selected += n;
	st->stats.bytes_h2d += res->bytes_h2d;
	st->stats.bytes_d2h += res->bytes_d2h;
	st->stats.h2d_ms += res->h2d_ns / 1e6;
	st->stats.kernel_ms += res->kernel_ns / 1e6;
	st->stats.d2h_ms += res->d2h_ns / 1e6;
	/* device busy time: copies + kernels (mapped: the kernels' span) */
	st->stats.device_ms += (res->h2d_ns + res->kernel_ns + res->d2h_ns) / 1e6;
	if (res->flags & GX_RESULT_GPU)
		st->stats.chunks_gpu++;
	if (res->flags & GX_RESULT_MAPPED)
		st->stats.chunks_mapped++;
	if (res->flags & GX_RESULT_JIT)
		st->stats.chunks_jit++;
	gx_slot_release(b->slot);
	b->slot = -1;
	b->inflight = false;
}

/* keep up to st->nbatches chunks in flight */
static void
gx_keep_inflight(GxScanState *st)
{
	for (int i = 0; i < st->nbatches && !st->src.heap_done; i++)
	{
		GxBatch    *b = &st->batch[i];
		bool		any_inflight = gx_oldest_batch(st->batch, st->nbatches) != NULL;

		if (b->inflight || b == st->consuming)
			continue;
		/* the first chunk in flight may wait for a slot, a prefetch may not */
		if (!gx_fill_batch(st, b, !any_inflight && st->consuming == NULL))
			break;
	}
}

/*
 * Run every chunk of the scan (of a GpuPreAgg pass): collect each, raising
 * a device error; GpuPreAgg takes the rows a chunk's table had no room
 * for while their batch still pins them, and runs a pass again when its
 * table filled up (preagg.cpp).
 */
static void
gx_run_agg_chunks(GxScanState *st)
{
	for (;;)
	{
		GxBatch    *next;

		CHECK_FOR_INTERRUPTS();
		gx_keep_inflight(st);

		/*
		 * Every chunk is submitted: submit the read of the state now, ordered
		 * after them on the device, so that it costs no round trip of its
		 * own (serial scans; in a parallel one the last process reads).
		 */
		if (st->src.heap_done && st->par == NULL && st->agg_obj != 0 &&
			st->agg_read_slot < 0 && !st->group_mode)
			(void) gx_agg_read_submit(st, false);
		next = gx_oldest_batch(st->batch, st->nbatches);
		if (next == NULL)
		{
			/*
			 * GpuPreAgg: a pass that must run again starts over; a
			 * finalizing one merges its devices' tables first, and runs
			 * again if the home table had no room for their groups
			 */
			if (st->group_mode && gx_group_rerun(st))
				continue;
			if (st->group_mode && gx_group_merge_final(st) && gx_group_rerun(st))
				continue;
			break;
		}
		gx_collect_batch(st, next);
		if (st->group_mode && next->error == GX_ERR_NONE)
			gx_group_collect(st, next);
		gx_unpin_batch(next);
		next->nsel = next->pos = 0;
		if (next->error != GX_ERR_NONE)
		{
			int			code = next->error;

			next->error = GX_ERR_NONE;
			gx_raise_error(code);
		}
	}
}

/*
 * Aggregate mode: run every chunk, adding up their aggregates, then return
 * the one row of partial aggregate states (raising a device error first).
 * Group mode (GpuPreAgg): the same, then a row per group (preagg.cpp), a
 * pass at a time.
 */
static TupleTableSlot *
gx_next_agg_row(GxScanState *st, TupleTableSlot *slot)
{
	for (;;)
	{
		if (st->agg_done)
		{
			TupleTableSlot *r;

			if (!st->group_mode)
				return ExecClearTuple(slot);
			/* this pass's groups; none left: the next pass, if any */
			r = gx_group_next(st, slot);
			if (!TupIsNull(r) || !gx_group_next_pass(st))
				return r;
			st->agg_done = false;
		}
		if (st->agg_skip)
		{
			/* parallel: the processes that read the table return the row */
			st->agg_done = true;
			return ExecClearTuple(slot);
		}
		gx_run_agg_chunks(st);
		st->agg_done = true;
		if (!st->group_mode)
			break;
		/* parallel: the last process to finish returns the table's groups */
		st->grp.reading = st->par == NULL || gx_par_agg_leave(st);
	}
	/* parallel: the last process to finish returns the row of all of them */
	if (st->par != NULL && !gx_par_agg_leave(st))
		return ExecClearTuple(slot);
	gx_agg_read(st, true);
	return gx_agg_store(st, slot);
}

/*
 * GpuPreAgg's next pass, or a pass run again: the source from its start,
 * in the same snapshot (no chunk is in flight)
 */
void
gx_scan_restart_source(GxScanState *st)
{
	gx_source_release(&st->src);
	gx_source_rescan(&st->src);
	gx_source_start(&st->src, st->css.ss.ps.state->es_snapshot);
}

/* the engine session this scan's tasks name: its own, opened here once, on its devices */
void
gx_scan_session(GxScanState *st)
{
	if (st->session != 0)
		return;
	st->session = gx_session_open_set(&st->src.devs);
	st->own_session = true;
}

/* close the scan's own session (a parallel worker's belongs to the leader) */
static void
gx_scan_close_session(GxScanState *st)
{
	if (st->own_session)
		gx_session_close(st->session);
	st->session = 0;
	st->own_session = false;
	st->agg_obj = 0;
	st->agg_dirty = false;
	st->sets_obj = 0;
	st->sets_bytes = 0;
}

static bool gx_recheck(ScanState *ss, TupleTableSlot *slot);

/* ExecScan access method: next row that passed the device quals */
static TupleTableSlot *
gx_next_row(ScanState *ss)
{
	GxScanState *st = (GxScanState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;

	if (st->agg_mode)
		return gx_next_agg_row(st, slot);
	for (;;)
	{
		GxBatch    *b = st->consuming;

		if (b != NULL)
		{
			if (b->pos < b->nsel && b->count_only)
			{
				/* nothing reads the row's columns: an empty row will do */
				b->pos++;
				if (st->null_row && !TTS_EMPTY(slot))
					return slot;	/* still there from the last row */
				st->null_row = true;
				return ExecStoreAllNullTuple(slot);
			}
			st->null_row = false;
			if (b->pos < b->nsel && b->host_recheck)
			{
				/*
				 * the device could not evaluate some rows of this chunk
				 * (GX_ERR_HOST): its selected rows pass the device quals
				 * only if they pass them on the host
				 */
				TupleTableSlot *row = gx_source_row(&st->src, b, b->sel[b->pos++], slot);

				if (!gx_recheck(ss, row))
					continue;
				return row;
			}
			if (b->pos < b->nsel)
				return gx_source_row(&st->src, b, b->sel[b->pos++], slot);
			if (b->error != GX_ERR_NONE)
			{
				int			code = b->error;

				b->error = GX_ERR_NONE;
				gx_raise_error(code);
			}
			st->consuming = NULL;
		}

		CHECK_FOR_INTERRUPTS();
		gx_keep_inflight(st);

		/* collect the oldest chunk in flight */
		GxBatch    *next = gx_oldest_batch(st->batch, st->nbatches);

		if (next == NULL)
		{
			gx_end_loop(st);
			return ExecClearTuple(slot);
		}
		gx_collect_batch(st, next);
		st->consuming = next;
		/* refill the other buffer while this one is consumed */
		gx_keep_inflight(st);
	}
}

/* ExecScan access method of a cursor's GpuScan (scroll.cpp) */
static TupleTableSlot *
gx_next_scroll_row(ScanState *ss)
{
	return gx_scroll_row((GxScanState *) ss, gx_next_row);
}

/*
 * ExecScan recheck method, used by EvalPlanQual: a row version updated
 * concurrently must still pass the device quals, evaluated here on the host
 * (ExecScan then applies the host quals).
 */
static bool
gx_recheck(ScanState *ss, TupleTableSlot *slot)
{
	GxScanState *st = (GxScanState *) ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;

	econtext->ecxt_scantuple = slot;
	return ExecQualAndReset(st->device_recheck, econtext);
}

/* end the current scan loop: add its wall time to the statistics */
static void
gx_end_loop(GxScanState *st)
{
	instr_time	now;

	if (!st->loop_open)
		return;
	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, st->loop_start);
	st->stats.wall_ms += INSTR_TIME_GET_MILLISEC(now);
	st->loop_open = false;
}

/* start the heap scan on first use */
static void
gx_start(GxScanState *st)
{
	EState	   *estate = st->css.ss.ps.state;

	INSTR_TIME_SET_CURRENT(st->loop_start);
	st->loop_open = true;
	st->ran = true;

	st->host_run = !gx_eval_params(st);
	if (st->host_run && st->fallback_qual == NULL)
		elog(ERROR, "gpuext: device program cannot take its parameter values");
	if (st->host_run)
		elog(DEBUG1, "gpuext: this scan runs its device quals on the host");
	if (!st->agg_mode)
		st->css.ss.ps.qual = st->host_run ? st->fallback_qual : st->host_qual;
	gx_source_start(&st->src, estate->es_snapshot);
	st->agg_done = false;
	st->agg_skip = false;
	st->agg_rows = 0;
	memset(st->agg_val, 0, sizeof(st->agg_val));
	memset(st->agg_cnt, 0, sizeof(st->agg_cnt));
	if (st->agg_mode)
	{
		gx_agg_prepare(st);
		if (st->par != NULL)
			st->agg_skip = !gx_par_agg_join(st);
	}
	else
		gx_scan_session(st);
	gx_scan_sets_upload(st);
	st->consuming = NULL;
	st->started = true;
	/*
	 * count-only chunks of cached columns (and GpuPreAgg's, which select
	 * few rows): keep more of them in flight
	 */
	gx_alloc_batches(st, st->src.ncrefs > 0 && (!st->need_tuples || st->group_mode) ?
					 Min(GX_MAX_BATCHES, GX_DEVICE_BATCHES * st->src.devs.n) :
					 GX_HEAP_BATCHES * st->src.devs.n > GX_MAX_BATCHES ? GX_MAX_BATCHES :
					 GX_HEAP_BATCHES * st->src.devs.n);
}

/* ExecCustomScan */
static TupleTableSlot *
gx_exec_scan(CustomScanState *node)
{
	GxScanState *st = (GxScanState *) node;

	TupleTableSlot *slot;

	/* a finalizing GpuPreAgg that could not: the rows of its Finalize plan */
	if (st->group_mode && st->grp.fallback)
		return ExecProcNode((PlanState *) linitial(node->custom_ps));
	if (!st->started)
		gx_start(st);
	slot = ExecScan(&node->ss, st->scrollable ? gx_next_scroll_row : gx_next_row, gx_recheck);
	if (st->group_mode && st->grp.fallback)
		return ExecProcNode((PlanState *) linitial(node->custom_ps));
	return slot;
}

/* drop batches in flight */
static void
gx_drop_batches(GxScanState *st)
{
	for (int i = 0; i < GX_MAX_BATCHES; i++)
	{
		GxBatch    *b = &st->batch[i];

		if (b->slot >= 0)
			gx_slot_release(b->slot);
		b->slot = -1;
		b->inflight = false;
		b->nsel = b->pos = 0;
		b->error = GX_ERR_NONE;
		gx_unpin_batch(b);
	}
	st->consuming = NULL;
	if (st->agg_read_slot >= 0)
		gx_slot_release(st->agg_read_slot);
	st->agg_read_slot = -1;
	gx_source_release(&st->src);
}

/* EndCustomScan */
static void
gx_end_scan(CustomScanState *node)
{
	GxScanState *st = (GxScanState *) node;
	ListCell   *lc;

	if (st->css.ss.ss_ScanTupleSlot)
		ExecClearTuple(st->css.ss.ss_ScanTupleSlot);
	gx_end_loop(st);
	gx_drop_batches(st);
	if (st->group_mode)
		gx_group_reset(st);		/* its tuplestore's temporary files */
	gx_source_end(&st->src);
	gx_scan_close_session(st);
	foreach(lc, node->custom_ps)
		ExecEndNode((PlanState *) lfirst(lc));
	if (st->ran)
	{
		gx_stat_report(RelationGetRelid(st->src.rel), &st->stats);
		if (!IsParallelWorker())
			gx_cache_note_scan(st->src.rel, st->stats.cache_chunks > 0);
	}
}

/* ReScanCustomScan: new Params, restart from the first block */
static void
gx_rescan(CustomScanState *node)
{
	GxScanState *st = (GxScanState *) node;

	gx_end_loop(st);
	gx_drop_batches(st);
	/*
	 * A loop that did not finish may still have chunks adding into the
	 * state object (abandoned, they run on): take a new one (the old one
	 * goes with the session).
	 */
	if (st->agg_dirty && st->par == NULL)
	{
		st->agg_obj = 0;
		st->agg_dirty = false;
	}
	if (st->group_mode)
		gx_group_reset(st);
	gx_source_rescan(&st->src);
	gx_scroll_reset(st);
	st->started = false;
	ExecScanReScan(&node->ss);
	if (node->custom_ps != NIL)
		ExecReScan((PlanState *) linitial(node->custom_ps));
}
