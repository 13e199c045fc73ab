/*
 * join_inputs.cpp - GpuJoin's device inputs: the sides the device reads
 * itself (issue 15; gpuext.join_device_inputs).
 *
 * Design note
 * -----------
 * The plan may give a side of a join a program (join_path.cpp,
 * gx_join_side_program: its table's quals, then the keys as outputs 0 ..
 * nkeys-1; a range join's outer side: its bounds, expressions the
 * program computes; custom_private 7 / 8) when its child is a plain scan
 * of a table.  The node then reads that table itself through a row source
 * (GxSource, as GpuScan does: cache entries where they lie on the device,
 * their stale blocks from the heap, other blocks as heap pages the device
 * deforms) and never runs the child:
 *
 *  - the inner side of a counting join (but RIGHT / FULL, whose inner
 *    NULL keys the host counts) and of SEMI and ANTI joins, whose inner
 *    rows are never returned: JOIN_BUILD tasks over its batches, up to
 *    GX_JOIN_BATCHES in flight (the first alone: it takes the table's
 *    memory).  The table is sized from the plan's estimate (1.02x); a
 *    task that finds it full makes the node make it again larger (from
 *    the rows read over the share of the table read) and read the side
 *    again; no table for the estimate at all sends the node to the
 *    child's rows (gx_join_read_inner: an empty side needs no table);
 *  - the outer side of every join.
 *    Counting: count-only JOIN_PROBE tasks
 *    over its batches, GX_JOIN_BATCHES in flight.  Returning rows (every
 *    outer column the node returns a column of the table): one batch at
 *    a time, its staging slot kept and submitted again for each pass
 *    (next_row / next_match; given back after the last pass, and in
 *    another GpuJoin's outer child, st->nested, between passes too, the
 *    task image copied out: the GpuJoin above takes a slot while these
 *    rows are returned), its pages pinned while its rows are
 *    returned, fetched from the table by the entries' row numbers
 *    (gx_source_row), or made from the values the device gathered
 *    (join_gather.cpp).  Every pass of a cached batch must see the rows
 *    the first one saw: its slot holds its entry pinned (hold_entry) and
 *    its passes run at once, their entries kept together up to hash_mem
 *    (gx_join_input_all_passes); one that would keep more, or a nested
 *    join's (its slot is given back between passes), is given up before
 *    any of its rows is returned, and its blocks are read from the heap
 *    next (gx_join_input_next_chunk).  A merge join's reads heap pages
 *    only.
 *
 * Several devices (join_replicas.cpp): the inner side's batches run on
 * the home device, which builds the table; the outer side's on the
 * devices holding a copy of it (its source spread over them: a cached
 * batch where its entry lies, a heap batch on the least loaded one), each
 * task naming its device's table once its batch is filled
 * (gx_join_probe_on), its later passes on the same device.
 *
 * Device errors come back as ERRORs (gx_join_result); CHECK_FOR_INTERRUPTS
 * runs between tasks.
 */
#include "gpuext.h"
#include "join_state.h"

extern "C"
{
#include "access/tableam.h"
#include "executor/nodeHash.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
}

/*
 * Can the outer side's rows come from its table (a device input that
 * returns rows)?  Every outer column the node returns must be a column of
 * the table (a Var of the scan in the child's target list): in->attno
 * maps the child's resnos to them.
 */
static bool
gx_join_outer_columns(GxJoinState *st, GxJoinInput *in)
{
	Plan	   *child = st->outer_ps->plan;
	Index		relid = ((Scan *) child)->scanrelid;
	int			n = list_length(child->targetlist);

	in->attno = (AttrNumber *) palloc0(sizeof(AttrNumber) * (n + 1));
	for (int i = 0; i < st->natts; i++)
	{
		TargetEntry *tle;
		Var		   *v;

		if (st->src_side[i] != 0)
			continue;
		if (st->src_att[i] < 1 || st->src_att[i] > n)
			return false;
		tle = (TargetEntry *) list_nth(child->targetlist, st->src_att[i] - 1);
		v = (Var *) tle->expr;
		if (!IsA(v, Var) || v->varno != (int) relid || v->varattno <= 0)
			return false;
		in->attno[st->src_att[i]] = v->varattno;
		in->maxattno = Max(in->maxattno, v->varattno);
	}
	return true;
}

/*
 * The sides the device reads itself (see the design note): the inner side
 * when its rows are never returned (counting, but for RIGHT / FULL; SEMI,
 * ANTI), the outer side when counting or when every outer column returned
 * is its table's, each when the plan gave it a program
 */
void
gx_join_inputs_begin(GxJoinState *st, EState *estate, int eflags)
{
	CustomScan *cscan = (CustomScan *) st->css.ss.ps.plan;
	List	   *priv = cscan->custom_private;

	for (int side = 0; side < 2; side++)
	{
		GxJoinInput *in = &st->input[side];
		Node	   *n = (Node *) list_nth(priv, 7 + side);
		PlanState  *child = side == 0 ? st->outer_ps : st->inner_ps;

		for (int i = 0; i < GX_JOIN_BATCHES; i++)
			in->batch[i].slot = -1;
		in->held = -1;
		/*
		 * (a join that aggregates the outer child's rows: join_agg.cpp; a
		 * level's inner side is read through its child, in the session of
		 * the join above: join_levels.cpp)
		 */
		/* (gathering its rows: the sides' gathering programs, join_gather.cpp) */
		if (st->gather && st->gather_prog[side] != NULL)
			n = st->gather_prog[side];
		if (!IsA(n, Const) || (side == 0 && st->grows_prog != NULL) || (side == 1 && st->level))
			continue;
		in->prog = gx_program_from_const((Const *) n, NIL);
		/*
		 * the outer side's rows: every column the node returns is the
		 * table's (in another GpuJoin's outer child too: its batch's slot
		 * is given back while its rows are returned,
		 * gx_join_input_after_pass)
		 */
		if (side == 0 && !st->count && !st->group && gx_join_outer_columns(st, in))
			in->rows = true;
		/*
		 * (a counting RIGHT / FULL join counts the inner rows with a NULL
		 * key on the host; a join that aggregates its pairs reads its
		 * inner columns from the child's rows, join_agg.cpp)
		 */
		in->on = gx_enable_join_inputs &&
			(side == 0 ? st->count || st->group || in->rows :
			 st->count || (st->group && (st->gncols == 0 || st->ginner_input)) ?
			 !GX_JOIN_MODE_MARKS(st->mode) :
			 !GX_JOIN_MODE_PAIRS(st->mode) || (st->gather && st->ginner_input));
		/* (gathering needs the outer rows from the device: cannot happen otherwise) */
		if (side == 0 && st->gather && !in->on)
			elog(ERROR, "gpuext: a gathering GpuJoin's outer side is not read by the device");
		if (!in->on)
			continue;
		/* (a merge probe's result area holds its sort's scratch: room for it) */
		if (side == 0 && st->alg == GX_JOIN_MERGE)
		{
			gx_jmerge_probe_offs o;

			in->src.result_row_bytes = (uint32) (gx_jmerge_probe_layout(1024, &o) -
												 o.scratch_bytes) / 1024 + 16;
			in->src.result_fixed_bytes = (uint32) gx_jrange_sort_scratch_bytes(0) + 4096;
		}
		gx_source_init(&in->src, ((ScanState *) child)->ss_currentRelation, in->prog,
					   st->device, &in->stats, estate, (eflags & EXEC_FLAG_EXPLAIN_ONLY) != 0);
		in->src.need_rows = in->rows;
		/*
		 * (a cached batch of rows returned takes one pass or is read again
		 * from its heap pages, gx_join_input_next_chunk; a merge probe's
		 * sort needs scratch, in its result area, or for cached batches,
		 * whose rows need more than a slot has, in a session object,
		 * gx_join_input_mscratch: one whose rows are returned reads heap
		 * pages only)
		 */
		in->src.no_cache = side == 0 && st->alg == GX_JOIN_MERGE && in->rows;
		if (in->rows && !(eflags & EXEC_FLAG_EXPLAIN_ONLY))
			in->tslot = table_slot_create(in->src.rel, NULL);
	}
}

/* the task header of a batch of a side the device reads (gx_source_fill fills its rows) */
static void
gx_join_input_task(GxJoinState *st, GxJoinInput *in, gx_chunk *c, uint32 kind)
{
	GxProgram  *p = in->prog;

	gx_join_header(st, c, kind, in->src.input_bytes);
	c->result_off = in->src.result_off;
	c->deform_off = 0;
	c->ncols = p->ncols;
	c->ninstr = p->ninstr;
	c->nconsts = p->nconsts;
	c->nregs = p->nregs;
	memcpy(c->code, p->code, sizeof(gx_instr) * p->ninstr);
	memcpy(c->consts, p->consts, sizeof(gx_const) * p->nconsts);
	for (int k = 0; k < st->nkeys; k++)
		c->ext.join.key_out[k] = k;
	c->ext.join.mode = st->mode;
	c->ext.count_only = kind == GX_TASK_JOIN_PROBE && !in->rows && !st->group ? 1 : 0;
	/*
	 * (a probe's table and a merge probe's scratch object are those of the
	 * device its batch goes to, once filled: gx_join_probe_on)
	 */
	/* (a group probe: the group table, the inner columns; join_agg.cpp) */
	if (kind == GX_TASK_JOIN_PROBE && st->group)
		gx_join_agg_task(st, c);
	else if (kind == GX_TASK_JOIN_BUILD && (st->group || st->gather) && st->gncols > 0)
		gx_join_agg_input_cols(st, c);
	/* (gathering the rows: the columns, join_gather.cpp) */
	else if (kind == GX_TASK_JOIN_PROBE && st->gather)
		gx_join_gather_task(st, c);
}

/*
 * The outer side of a merge join read by the device, not returning rows
 * (counting, aggregating), its source started: a scratch object in the
 * join's session for its probes' sorts (GX_JOIN_MSCRATCH), room for its
 * largest batch, a cache entry's rows or a chunk of heap pages, on each
 * device that probes (home, and each holding a replica of the table:
 * join_replicas.cpp; one without it leaves its entries to home).  Each
 * probe sorting in one runs on its device after those in flight there
 * (GX_FOLLOW_DEVICE), which would otherwise sort into the same scratch at
 * once on a GPU's streams (the CPU device runs tasks one at a time
 * anyway).  Without one on home (no room, a parallel worker, whose
 * session is the leader's) the side reads heap pages only, whose batches
 * hold their scratch in their result area.
 */
static void
gx_join_input_mscratch(GxJoinState *st, GxJoinInput *in)
{
	GxSource   *src = &in->src;
	uint32		rows = src->rows_per_chunk;
	gx_jmerge_probe_offs o;

	if (in != &st->input[0] || st->alg != GX_JOIN_MERGE || in->rows)
		return;
	for (int i = 0; i < src->ncrefs; i++)
		rows = Max(rows, src->crefs[i].nrows);
	if (src->ncrefs > 0 && rows > st->mscratch_rows && !st->worker_table && st->session != 0)
	{
		for (int i = 0; i < st->devs.n; i++)
		{
			int			d = st->devs.dev[i];

			st->mscratch[d] = i == 0 || st->replica[d] != 0 ?
				gx_session_try_alloc(st->session, d, gx_jmerge_probe_layout(rows, &o),
									 GX_OBJ_JOIN_SCRATCH) : 0;
		}
		st->mscratch_rows = st->mscratch[st->device] != 0 ? rows : 0;
	}
	if (rows > st->mscratch_rows)
	{
		/* (no scratch for the cached batches: heap pages) */
		src->ncrefs = 0;
		gx_set_stop_block(src);
	}
}

/* the side's source from its start (in the query's snapshot) */
void
gx_join_input_start(GxJoinState *st, GxJoinInput *in)
{
	if (in->started)
	{
		gx_source_release(&in->src);
		gx_source_rescan(&in->src);
	}
	gx_source_start(&in->src, st->css.ss.ps.state->es_snapshot);
	in->started = true;
	in->next_seq = 0;
	gx_join_input_mscratch(st, in);
	/*
	 * (the outer side's batches: on the devices holding the table; a
	 * partitioned table's batches of either side start on any device, a
	 * cached one where its entry lies, join_devparts.cpp)
	 */
	if (st->ndevparts > 0)
		gx_source_spread(&in->src, &st->devs);
	else if (in == &st->input[0])
		gx_join_outer_devs(st);
}

/* fill a free batch of the side with its next rows and submit it; false at the end */
static bool
gx_join_input_submit(GxJoinState *st, GxJoinInput *in, uint32 kind, bool wait)
{
	GxBatch    *b = NULL;
	gx_chunk   *c;
	uint32		n;
	int			slot;

	for (int i = 0; i < GX_JOIN_BATCHES && b == NULL; i++)
		if (!in->batch[i].inflight)
			b = &in->batch[i];
	if (b == NULL || in->src.heap_done)
		return false;
	slot = gx_join_acquire(st, wait);
	if (slot < 0)
		return false;
	gx_unpin_batch(b);
	b->slot = slot;
	b->generation = gx_service_generation();
	b->count_only = true;
	c = gx_slot_chunk(slot);
	gx_join_input_task(st, in, c, kind);
	n = gx_source_fill(&in->src, b, c, slot);
	if (n == 0)
	{
		gx_slot_release(slot);
		b->slot = -1;
		return false;
	}
	c->kind = kind;				/* (a cache entry's batch came back as a CACHE_SCAN) */
	c->fault = gx_take_fault();
	/* (a partitioned table: the batch visits every device, join_devparts.cpp) */
	if (st->ndevparts > 0)
	{
		in->pending[b - in->batch] = false;
		b->device = gx_join_devparts_first(st, in, b, c);
	}
	else
		in->pending[b - in->batch] = kind == GX_TASK_JOIN_PROBE &&
			gx_join_probe_on(st, c, b->device, in->rows);
	b->seq = in->next_seq++;
	b->inflight = true;
	gx_slot_submit(slot, b->device);
	in->stats.chunks++;
	in->stats.rows_in += n - b->skipped_rows;
	return true;
}

/* outcomes of gx_join_input_run */
#define GX_INPUT_DONE 0
#define GX_INPUT_FULL 1			/* BUILD: the table had no room for a row */
#define GX_INPUT_NO_MEMORY 2	/* BUILD: the table's memory cannot be had */

/*
 * Run every row of a side the device reads through tasks of kind
 * (JOIN_BUILD, or count-only JOIN_PROBE), GX_JOIN_BATCHES in flight (a
 * build's first task alone: it takes the table's memory), adding their
 * join_count into *count.  A build stops submitting when a task found no
 * room (GX_INPUT_FULL) or no memory (GX_INPUT_NO_MEMORY); the tasks in
 * flight are collected first.  Device errors are raised.
 */
static int
gx_join_input_run(GxJoinState *st, GxJoinInput *in, uint32 kind, uint64 *count)
{
	int			outcome = GX_INPUT_DONE;
	bool		first = kind == GX_TASK_JOIN_BUILD;

	for (;;)
	{
		GxBatch    *b;
		gx_result  *res;

		CHECK_FOR_INTERRUPTS();
		while (outcome == GX_INPUT_DONE &&
			   !(first && gx_oldest_batch(in->batch, GX_JOIN_BATCHES) != NULL) &&
			   gx_join_input_submit(st, in, kind,
									gx_oldest_batch(in->batch, GX_JOIN_BATCHES) == NULL))
			;
		b = gx_oldest_batch(in->batch, GX_JOIN_BATCHES);
		if (b == NULL)
			return outcome;
		/*
		 * a probe sent to a device before its table's copy was done, the
		 * copy without device memory there: its result is not the
		 * table's, the side is counted again (gx_join_count_input)
		 */
		if (kind == GX_TASK_JOIN_PROBE && in->pending[b - in->batch] &&
			gx_join_probe_lost(st, b->device))
		{
			if (gx_slot_wait_memory(b->slot, b->generation))
				gx_slot_release(b->slot);
			st->redo = true;
			b->slot = -1;
			b->inflight = false;
			gx_unpin_batch(b);
			continue;
		}
		if (kind == GX_TASK_JOIN_BUILD)
		{
			if (!gx_slot_wait_memory(b->slot, b->generation))
			{
				outcome = GX_INPUT_NO_MEMORY;	/* (its slot released) */
				b->slot = -1;
				b->inflight = false;
				gx_unpin_batch(b);
				continue;
			}
		}
		else
			gx_slot_wait(b->slot, b->generation, b->cached ? GX_WAIT_SPIN_US : 0);
		res = gx_join_result(b->slot);
		/*
		 * a group probe whose pairs did not all go into the group table (no
		 * room, the host's): the node's fallback runs (join_agg.cpp)
		 */
		if (kind == GX_TASK_JOIN_PROBE && st->group && gx_join_group_missed(res))
		{
			st->group_bad = true;
			outcome = GX_INPUT_FULL;
		}
		/* a key program never leaves a row to the host; a probe of counts returns none */
		else if ((res->flags & GX_RESULT_HOST) ||
				 (kind == GX_TASK_JOIN_PROBE &&
				  (res->nsel != 0 || (res->flags & GX_RESULT_MORE))))
			elog(ERROR, "gpuext: GpuJoin task of a device input returned rows");
		else if (res->flags & GX_RESULT_FULL)
			outcome = GX_INPUT_FULL;
		*count += res->join_count;
		in->stats.kernel_ms += res->kernel_ns / 1e6;
		if (kind == GX_TASK_JOIN_BUILD)
			st->stats.build_tasks++;
		else
		{
			st->stats.probe_tasks++;
			st->stats.dev_probes[b->device]++;
		}
		/* (a partitioned table: the batch's next device, join_devparts.cpp) */
		if (st->ndevparts > 0 && outcome == GX_INPUT_DONE && gx_join_devparts_next(st, in, b, kind))
			continue;
		/* (the first build task, on every device, has taken the tables' memory) */
		first = false;
		gx_slot_release(b->slot);
		b->slot = -1;
		b->inflight = false;
		gx_unpin_batch(b);
	}
}

/*
 * Build the table from the inner side's own rows (a device input): JOIN_BUILD
 * tasks over its batches, then JOIN_FINISH_BUILD.  The side's size is
 * known only once read, so the table is sized from the plan's estimate
 * and, when a task finds it full, made again larger (from the rows read
 * so far over the share of the table read), the side read again from its
 * start.  GX_BUILD_DECLINED when no table for the estimate can be had:
 * the caller reads the child's rows instead (an empty side needs no
 * table, a small one may fit once counted); GX_BUILD_NONE when a larger
 * table cannot be had (the fallback plan runs).  The rows the table holds
 * (non-NULL keys) stand for the side's rows: none, and INNER / SEMI
 * return nothing, ANTI every outer row.
 */
int
gx_join_build_input(GxJoinState *st)
{
	GxJoinInput *in = &st->input[1];
	/* (the estimate of a whole table is close: a small margin keeps kcap down) */
	double		est = st->inner_ps->plan->plan_rows * 1.02 + 1024;
	uint32		cap = (uint32) Min(est, (double) GX_JOIN_MAX_CAP);
	int			no_table = GX_BUILD_DECLINED;	/* (a larger one: GX_BUILD_NONE) */

	/* (several devices: a table per device for its part of the keys, join_devparts.cpp) */
	bool		parts = gx_join_devparts_wanted(st);

	if (parts)
		cap = (uint32) Min(est / st->devs.n * 1.25 + 1024, (double) GX_JOIN_MAX_CAP);
	for (;;)
	{
		uint64		added = 0;
		int64		rows0 = in->stats.rows_in;
		int			outcome;

		if (!gx_join_table_fits(st, cap))
			return no_table;
		st->cap = cap;
		st->kcap = gx_join_kcap(st, cap);
		st->session = gx_session_open_set(&st->devs);
		if (parts && !gx_join_devparts_alloc(st, cap))
		{
			/* (not on every device: one table, as on one device) */
			gx_session_close(st->session);
			st->session = 0;
			parts = false;
			cap = (uint32) Min(est, (double) GX_JOIN_MAX_CAP);
			continue;
		}
		if (!parts)
			st->table = gx_session_try_alloc(st->session, st->device,
											 gx_join_bytes(st, st->cap, st->kcap),
											 GX_OBJ_JOIN_TABLE);
		if (st->table == 0)
			return no_table;
		/* (a join that aggregates its pairs: the inner columns' store, join_agg.cpp) */
		if (!gx_join_agg_alloc_cols(st))
			return no_table;
		gx_join_input_start(st, in);
		outcome = gx_join_input_run(st, in, GX_TASK_JOIN_BUILD, &added);
		if (outcome == GX_INPUT_NO_MEMORY)
			return GX_BUILD_NONE;
		if (outcome == GX_INPUT_DONE)
		{
			st->stats.inner_rows += in->stats.rows_in - rows0;
			break;
		}
		/* full: a larger table, the side from its start */
		if (cap >= GX_JOIN_MAX_CAP)
			return GX_BUILD_NONE;
		est = (double) (in->stats.rows_in - rows0) /
			Max(gx_source_progress(&in->src), 0.001) * 1.25;
		/* (a part's rows are not counted apart: twice as large) */
		cap = (uint32) Min(parts ? 2.0 * cap : Max(est, 2.0 * cap), (double) GX_JOIN_MAX_CAP);
		gx_session_close(st->session);
		st->session = 0;
		st->table = 0;
		st->cols_obj = 0;
		gx_join_replicas_drop(st);
		st->stats.rebuilds++;
		no_table = GX_BUILD_NONE;
	}
	st->ninner = (uint32) (st->ndevparts > 0 ? gx_join_devparts_finish(st) :
						   gx_join_finish_table(st));
	return GX_BUILD_DONE;
}

/* does this run read the outer side's rows through its device input? */
bool
gx_join_outer_rows_input(GxJoinState *st)
{
	return st->input[0].on && st->input[0].rows && st->table != 0;
}

/* give back the outer device input's batch: its held slot and its pins */
void
gx_join_input_drop_batch(GxJoinInput *in)
{
	if (in->held >= 0)
		gx_slot_release(in->held);
	in->held = -1;
	in->saved_bytes = 0;
	for (int i = 0; i < GX_JOIN_BATCHES; i++)
		gx_unpin_batch(&in->batch[i]);
}

/*
 * After a pass over the outer device input's batch, its staging slot:
 * given back when no pass is due (the rows come from the batch's pinned
 * pages, not the slot); kept for the next pass, but in another GpuJoin's
 * outer child (st->nested), whose parent takes a slot of its own while
 * these rows are returned: there the task image (its input part) is
 * copied out and the slot given back, so that a backend never waits for
 * a slot while holding one
 */
static void
gx_join_input_after_pass(GxJoinState *st, GxJoinInput *in)
{
	gx_chunk   *c = gx_slot_chunk(in->held);

	if (st->more && !st->nested)
		return;
	if (st->more)
	{
		if (in->saved_alloc < c->result_off)
		{
			if (in->saved != NULL)
				pfree(in->saved);
			in->saved = (char *) MemoryContextAllocHuge(st->css.ss.ps.state->es_query_cxt,
													   c->result_off);
			in->saved_alloc = c->result_off;
		}
		memcpy(in->saved, c, c->result_off);
		in->saved_bytes = c->result_off;
	}
	gx_slot_release(in->held);
	in->held = -1;
}

/*
 * One JOIN_PROBE pass over the outer device input's batch in its held
 * slot (the first, or the next one from next_row / next_match): the
 * task, still in the slot (or copied back into one: a nested join's,
 * gx_join_input_after_pass), is submitted again; its entries into
 * st->pairs (after those there when append: gx_join_input_all_passes),
 * with their gathered values (join_gather.cpp).
 */
static void
gx_join_input_pass_to(GxJoinState *st, GxJoinInput *in, bool append)
{
	uint32		base = append ? st->npairs : 0;
	gx_chunk   *c;
	gx_result  *res;
	uint32		nrows;

	CHECK_FOR_INTERRUPTS();
	if (in->held < 0)
	{
		if (in->saved_bytes == 0)
			elog(ERROR, "gpuext: GpuJoin pass over a batch that was given back");
		in->held = gx_join_acquire(st, true);
		memcpy(gx_slot_chunk(in->held), in->saved, in->saved_bytes);
		in->saved_bytes = 0;
	}
	c = gx_slot_chunk(in->held);
	nrows = c->nrows;
	c->kind = GX_TASK_JOIN_PROBE;
	c->ext.join.first_row = st->next_row;
	c->ext.join.first_match = st->next_match;
	in->held_gen = gx_service_generation();
	gx_slot_submit(in->held, in->batch[0].device);
	gx_slot_wait(in->held, in->held_gen, in->batch[0].cached ? GX_WAIT_SPIN_US : 0);
	res = gx_chunk_result(c);
	if (res->error != GX_NO_ERROR)
	{
		int			code = (int) (res->error & 0xff);

		gx_join_input_drop_batch(in);
		gx_raise_error(code);
	}
	if (res->nsel > c->ext.join.max_pairs || (res->flags & GX_RESULT_HOST))
		elog(ERROR, "gpuext: GpuJoin probe returned %u entries for %u", res->nsel,
			 c->ext.join.max_pairs);
	gx_join_take_pass(st, res, nrows, append);
	/* (and the values it gathered: join_gather.cpp) */
	if (st->gather)
		gx_join_gather_take(st, c, res, base);
	in->stats.kernel_ms += res->kernel_ns / 1e6;
	for (uint32 i = base; i < st->npairs; i++)
		if ((!in->batch[0].cached && st->pairs[i].outer >= nrows) ||
			(st->mode == GX_JOIN_INNER && (uint64) st->pairs[i].inner >= st->ninner))
			elog(ERROR, "gpuext: GpuJoin probe returned a bad entry");
	st->stats.probe_tasks++;
	st->stats.dev_probes[in->batch[0].device]++;
	st->stats.pairs += st->npairs - base;
	gx_join_input_after_pass(st, in);
}

/* gx_join_input_pass_to: the batch's next pass, its entries in place of the last's */
void
gx_join_input_pass(GxJoinState *st, GxJoinInput *in)
{
	gx_join_input_pass_to(st, in, false);
}

/*
 * Entries a probe pass of nrows outer rows may write in a staging slot
 * whose result area starts at result_off (0: no room for one); a
 * gathering probe's carry their columns' values (join_gather.cpp), after
 * the entries at an aligned place
 */
static uint32
gx_join_input_max_pairs(const GxJoinState *st, uint64 result_off, uint32 nrows)
{
	uint32		ng = st->gather ? (uint32) st->ngather : 0;
	uint64		fixed = result_off + gx_join_gather_result_bytes(nrows, 0, st->alg, ng) +
		(ng > 0 ? 2 * GX_ALIGN : 0);

	if (fixed >= gx_shared->slot_bytes)
		return 0;
	return (uint32) Min((uint64) PG_INT32_MAX,
						(gx_shared->slot_bytes - fixed) / GX_JOIN_GATHER_ENTRY_BYTES(ng));
}

/*
 * A cached batch whose first pass said more: its other passes at once,
 * their entries after the first's, while its slot holds the cache entry
 * pinned (hold_entry, set when the batch was filled: every pass sees the
 * rows the first saw; the hold ends with the slot, after the last pass).
 * The entries of one batch are kept up to hash_mem (work_mem x
 * hash_mem_multiplier), at least four staging slots' worth; false when
 * they would take more (the batch is then read from its heap pages).
 */
static bool
gx_join_input_all_passes(GxJoinState *st, GxJoinInput *in)
{
	uint64		cap = Max((uint64) get_hash_memory_limit(), 4 * (uint64) gx_shared->slot_bytes);
	uint64		entry = GX_JOIN_GATHER_ENTRY_BYTES(st->gather ? st->ngather : 0);

	while (st->more)
	{
		gx_chunk   *c = gx_slot_chunk(in->held);

		if ((uint64) (st->npairs + c->ext.join.max_pairs) * entry > cap)
			return false;
		gx_join_input_pass_to(st, in, true);
	}
	return true;
}

static uint32 gx_join_input_first_pass(GxJoinState *st, GxJoinInput *in);

/*
 * The outer device input's next batch (cached columns, heap pages or
 * deformed columns), probed (its first pass); its slot is kept for the
 * passes and its pages stay pinned while its rows are returned.  A
 * cached batch whose pairs do not fit one pass runs all its passes at
 * once, its entry pinned by its slot (gx_join_input_all_passes); one
 * whose entries would take more than hash_mem, or a nested join's, is
 * given up before any of its rows is returned, and its entry's blocks
 * are read from the heap instead (their batches' task images are
 * submitted again for each pass, which a cache entry's could not be
 * while its rows are returned: the entry may be refreshed or evicted
 * once no slot pins it).  false at the end of the side.
 */
bool
gx_join_input_next_chunk(GxJoinState *st)
{
	while (true)
	{
		GxJoinInput *in = &st->input[0];
		GxBatch    *b = &in->batch[0];
		uint32		n;

		n = gx_join_input_first_pass(st, in);
		if (n == 0)
			return false;
		if (!b->cached || !st->more)
			return true;
		/* (its other passes at once, its entry held: not in a nested join) */
		if (!st->nested && gx_join_input_all_passes(st, in))
			return true;
		gx_source_cache_reread(&in->src, b);
		in->stats.chunks--;
		in->stats.rows_in -= n - b->skipped_rows;
		st->stats.outer_rows -= n - b->skipped_rows;
		st->stats.pairs -= st->npairs;
		st->npairs = st->pair_pos = 0;
		st->more = false;
		gx_join_input_drop_batch(in);
	}
}

/*
 * gx_join_input_next_chunk's step: the next batch filled and its first
 * pass run; its rows (0 at the end of the side)
 */
static uint32
gx_join_input_first_pass(GxJoinState *st, GxJoinInput *in)
{
	GxBatch    *b = &in->batch[0];
	gx_chunk   *c;
	uint32		n;

	gx_join_input_drop_batch(in);
	if (in->src.heap_done)
		return 0;
	in->held = gx_join_acquire(st, true);
	c = gx_slot_chunk(in->held);
	gx_join_input_task(st, in, c, GX_TASK_JOIN_PROBE);
	b->slot = in->held;
	b->count_only = false;
	n = gx_source_fill(&in->src, b, c, in->held);
	b->slot = -1;
	if (n == 0)
	{
		gx_join_input_drop_batch(in);
		return 0;
	}
	/*
	 * (a cached batch's entry stays pinned by its slot between passes,
	 * until the slot is given back: gx_join_input_all_passes; a nested
	 * join gives its slot back between passes)
	 */
	if (b->cached && !st->nested)
		gx_slot_hold_entry(in->held);
	/* (its passes, all on the device of its batch: gx_join_input_pass) */
	gx_join_probe_on(st, c, b->device, true);
	c->ext.join.max_pairs = gx_join_input_max_pairs(st, c->result_off, n);
	if (c->ext.join.max_pairs == 0)
		elog(ERROR, "gpuext: a GpuJoin probe batch leaves no room for its result");
	c->fault = gx_take_fault();
	in->stats.chunks++;
	in->stats.rows_in += n - b->skipped_rows;
	st->stats.outer_rows += n - b->skipped_rows;
	st->next_row = st->next_match = 0;
	gx_join_input_pass(st, in);
	return n;
}

/*
 * Counting with the outer side read by the device: count-only probes of
 * its batches (cached columns probe the table where they lie), timed; a
 * join that aggregates its pairs runs its group probes so (join_agg.cpp;
 * stopping at the first that did not add all its pairs: st->group_bad)
 */
void
gx_join_count_input(GxJoinState *st)
{
	GxJoinInput *in = &st->input[0];
	int64		rows0;
	uint64		count;
	instr_time	t0,
				t1;

	INSTR_TIME_SET_CURRENT(t0);
	/* (again without a device whose table's copy failed under its probes: join_replicas.cpp) */
	do
	{
		rows0 = in->stats.rows_in;
		count = 0;
		st->redo = false;
		gx_join_input_start(st, in);
		(void) gx_join_input_run(st, in, GX_TASK_JOIN_PROBE, &count);
		/* (the table's copies, if some are still in flight) */
		gx_join_replicas_collect(st, true);
	} while (st->redo);
	if (st->group)
		st->stats.pairs += (int64) count;	/* (join_agg.cpp) */
	else
		st->count_sum += (int64) count;
	st->stats.outer_rows += in->stats.rows_in - rows0;
	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	st->stats.probe_ms += INSTR_TIME_GET_MILLISEC(t1);
}
