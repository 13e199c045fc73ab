/*
 * aggscan.cpp - device aggregates: execution (planning: agg_path.cpp).
 *
 * A GpuScan in aggregate mode (custom_private "agg") reads the table like
 * any GpuScan, but its chunks ask for no selection (count only) and add
 * the aggregates of their selected rows (gx_chunk_ext.agg: count and sum
 * of a column) into an aggregate state object that lives on the device in
 * the scan's engine session: the first stateful operator of the engine.
 * Partial states are merged there across chunks (and, under parallel
 * query, across the processes, which all name the leader's object); only
 * at the end does an AGG_READ task bring the totals back.  The scan
 * returns a single row of partial aggregate states for the Finalize
 * Aggregate above: count(*) (the rows selected, counted per chunk) and
 * count(col) as int8, sum(int2/int4) as int8 or NULL when no value was
 * summed, exactly the transition values of PostgreSQL's own aggregates.
 * A device error in any chunk is raised: no row is returned before it.
 */
#include "gpuext.h"
#include "compat.h"
#include "executor.h"

extern "C"
{
#include "nodes/nodeFuncs.h"
#include "catalog/pg_type.h"
#include "utils/fmgroids.h"
#include "utils/builtins.h"
#include "utils/ruleutils.h"
#include "utils/lsyscache.h"
}

/* replace Var(INDEX_VAR, k) by the k-th custom_scan_tlist expression */
static Node *
gx_agg_unindex(Node *node, List *scan_tlist)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varno == INDEX_VAR)
	{
		Var		   *v = (Var *) node;
		TargetEntry *te = (TargetEntry *) list_nth(scan_tlist, v->varattno - 1);

		return (Node *) copyObjectImpl(te->expr);
	}
	return expression_tree_mutator(node, GX_MUTATOR(gx_agg_unindex), (void *) scan_tlist);
}

/* is this plan a GpuScan computing aggregates? */
bool
gx_agg_plan(CustomScan *cscan)
{
	return cscan->custom_private != NIL &&
		strcmp(strVal(linitial(cscan->custom_private)), "agg") == 0;
}

/* the device quals of an aggregate GpuScan, on the table's Vars again */
List *
gx_agg_device_quals(CustomScan *cscan)
{
	return (List *) gx_agg_unindex((Node *) linitial(cscan->custom_exprs),
								   cscan->custom_scan_tlist);
}

/*
 * Is aggfnoid stddev, stddev_samp, stddev_pop, variance, var_samp or
 * var_pop of int2, int4, int8 or numeric (exact in PostgreSQL: numeric
 * sums)?  *argtype: its argument's type.
 */
bool
gx_exact_var_agg(Oid aggfnoid, Oid *argtype)
{
	switch (aggfnoid)
	{
		case F_STDDEV_INT2:
		case F_STDDEV_SAMP_INT2:
		case F_STDDEV_POP_INT2:
		case F_VARIANCE_INT2:
		case F_VAR_SAMP_INT2:
		case F_VAR_POP_INT2:
			*argtype = INT2OID;
			return true;
		case F_STDDEV_INT4:
		case F_STDDEV_SAMP_INT4:
		case F_STDDEV_POP_INT4:
		case F_VARIANCE_INT4:
		case F_VAR_SAMP_INT4:
		case F_VAR_POP_INT4:
			*argtype = INT4OID;
			return true;
		case F_STDDEV_INT8:
		case F_STDDEV_SAMP_INT8:
		case F_STDDEV_POP_INT8:
		case F_VARIANCE_INT8:
		case F_VAR_SAMP_INT8:
		case F_VAR_POP_INT8:
			*argtype = INT8OID;
			return true;
		case F_STDDEV_NUMERIC:
		case F_STDDEV_SAMP_NUMERIC:
		case F_STDDEV_POP_NUMERIC:
		case F_VARIANCE_NUMERIC:
		case F_VAR_SAMP_NUMERIC:
		case F_VAR_POP_NUMERIC:
			*argtype = NUMERICOID;
			return true;
		default:
			*argtype = InvalidOid;
			return false;
	}
}

/* what an Aggref of a device aggregate plan computes (agg_path.cpp chose it) */
void
gx_agg_spec(GxAggSpec *sp, Aggref *a)
{
	sp->col = -1;
	sp->attno = 0;
	sp->argtype = InvalidOid;
	sp->arg = NULL;
	sp->argstate = NULL;
	sp->scale = 0;
	sp->dcol = sp->dslot = -1;
	sp->sqcol = sp->sqslot = -1;
	sp->filter = a->aggfilter;	/* (GpuPreAgg only: agg_path.cpp) */
	sp->filt = -1;
	sp->filtstate = NULL;
	sp->name = get_func_name(a->aggfnoid);
	sp->fnoid = a->aggfnoid;
	switch (a->aggfnoid)
	{
		case F_COUNT_:
			sp->kind = GX_AGGK_COUNT_STAR;
			return;
		case F_COUNT_ANY:
			sp->kind = GX_AGGK_COUNT;
			break;
		case F_SUM_INT2:
		case F_SUM_INT4:
			sp->kind = GX_AGGK_SUM;
			break;
		case F_AVG_INT2:
		case F_AVG_INT4:
			sp->kind = GX_AGGK_AVG;
			break;
		case F_SUM_NUMERIC:
		case F_AVG_NUMERIC:
			sp->kind = GX_AGGK_NSUM;
			break;
		case F_SUM_INT8:
		case F_AVG_INT8:
			sp->kind = GX_AGGK_SUM8;
			break;
		case F_SUM_FLOAT4:
		case F_SUM_FLOAT8:
			sp->kind = GX_AGGK_FSUM;
			break;
		case F_AVG_FLOAT4:
		case F_AVG_FLOAT8:
		case F_STDDEV_FLOAT4:
		case F_STDDEV_FLOAT8:
		case F_STDDEV_SAMP_FLOAT4:
		case F_STDDEV_SAMP_FLOAT8:
		case F_STDDEV_POP_FLOAT4:
		case F_STDDEV_POP_FLOAT8:
		case F_VARIANCE_FLOAT4:
		case F_VARIANCE_FLOAT8:
		case F_VAR_SAMP_FLOAT4:
		case F_VAR_SAMP_FLOAT8:
		case F_VAR_POP_FLOAT4:
		case F_VAR_POP_FLOAT8:
			sp->kind = GX_AGGK_FVAR;
			break;
		case F_MIN_FLOAT4:
		case F_MIN_FLOAT8:
			sp->kind = GX_AGGK_FMIN;
			break;
		case F_MAX_FLOAT4:
		case F_MAX_FLOAT8:
			sp->kind = GX_AGGK_FMAX;
			break;
		case F_MIN_NUMERIC:
		case F_MIN_INT2:
		case F_MIN_INT4:
		case F_MIN_INT8:
		case F_MIN_DATE:
		case F_MIN_TIMESTAMP:
		case F_MIN_TIMESTAMPTZ:
		case F_BOOL_AND:
		case F_EVERY:
			sp->kind = GX_AGGK_MIN;
			break;
		case F_MAX_NUMERIC:
		case F_MAX_INT2:
		case F_MAX_INT4:
		case F_MAX_INT8:
		case F_MAX_DATE:
		case F_MAX_TIMESTAMP:
		case F_MAX_TIMESTAMPTZ:
		case F_BOOL_OR:
			sp->kind = GX_AGGK_MAX;
			break;
		default:
			if (!gx_exact_var_agg(a->aggfnoid, &sp->argtype))
				elog(ERROR, "gpuext: aggregate %u is not a device aggregate", a->aggfnoid);
			sp->kind = GX_AGGK_IVAR;
			break;
	}
	sp->arg = ((TargetEntry *) linitial(a->args))->expr;
	sp->argtype = exprType((Node *) sp->arg);
	if (IsA(sp->arg, Var))
		sp->attno = ((Var *) sp->arg)->varattno;
}

/*
 * Aggregate mode at scan start (after the quals are compiled): one
 * GxAggSpec per partial Aggref of custom_scan_tlist; the columns they read
 * become columns of the chunks.  Group mode (GpuPreAgg) goes on in
 * gx_group_begin: the keys, and the device aggregates.
 */
void
gx_agg_begin(GxScanState *st, CustomScan *cscan)
{
	st->need_tuples = false;
	gx_agg_specs(st, cscan->custom_scan_tlist);
	if (st->group_mode)
		gx_group_begin(st, cscan);
}

/*
 * One GxAggSpec per partial Aggref of tlist (group mode: the keys are
 * gx_group_begin_spec's); in aggregate mode the columns they read become
 * columns of the chunks
 */
void
gx_agg_specs(GxScanState *st, List *tlist)
{
	ListCell   *lc;

	st->nagg = 0;
	foreach(lc, tlist)
	{
		TargetEntry *te = (TargetEntry *) lfirst(lc);
		GxAggSpec  *sp;

		/* (group mode: the keys, gx_group_begin) */
		if (te->resjunk || (st->group_mode && !IsA(te->expr, Aggref)))
			continue;
		if (!IsA(te->expr, Aggref) || st->nagg >= GX_MAX_AGGS)
			elog(ERROR, "gpuext: unexpected device aggregate target");
		sp = &st->aggs[st->nagg++];
		gx_agg_spec(sp, (Aggref *) te->expr);
		sp->resno = te->resno;
		/* (group mode: the program's outputs, gx_group_begin) */
		if (!st->group_mode && sp->attno != 0)
		{
			sp->col = gx_program_add_column(st->prog, sp->attno, sp->argtype);
			if (sp->col < 0)
				elog(ERROR, "gpuext: device aggregate column cannot be read");
		}
	}
}

/*
 * The aggregates part of a task: the device aggregates (count(*) is the
 * selected rows' count, kept on the host) and their state object.
 */
void
gx_agg_set_chunk(GxScanState *st, gx_chunk *c)
{
	int			n = 0;

	for (int i = 0; i < st->nagg; i++)
	{
		if (st->aggs[i].kind == GX_AGGK_COUNT_STAR)
			continue;
		st->aggs[i].slot = n;
		c->ext.agg[n].op = st->aggs[i].kind == GX_AGGK_SUM ? GX_AGG_SUM : GX_AGG_COUNT;
		c->ext.agg[n].col = (int16) st->aggs[i].col;
		c->ext.agg[n].filt = 0;
		c->ext.agg[n].cnt_of = 0;
		n++;
	}
	c->ext.nagg = n;
	if (n > 0)
	{
		c->obj[0] = st->agg_obj;
		st->agg_dirty = true;
	}
}

/* add a finished chunk's selected rows (the aggregates stay on the device) */
void
gx_agg_collect(GxScanState *st, uint32 nsel)
{
	st->agg_rows += nsel;
}

/*
 * At scan start: the session, and the state object when a device
 * aggregate needs one (a parallel worker was given the leader's); in group
 * mode the group table.
 */
void
gx_agg_prepare(GxScanState *st)
{
	if (st->group_mode)
	{
		gx_group_prepare(st);
		return;
	}
	st->nagg_dev = 0;
	for (int i = 0; i < st->nagg; i++)
		if (st->aggs[i].kind != GX_AGGK_COUNT_STAR)
			st->nagg_dev++;
	gx_scan_session(st);
	if (st->nagg_dev > 0 && st->agg_obj == 0)
		st->agg_obj = gx_session_alloc(st->session, st->device, GX_AGG_STATE_BYTES,
									   GX_OBJ_AGG_STATE);
}

/*
 * Submit an AGG_READ task of the state object, ordered on the device after
 * every task of the session in flight (so that it can be submitted right
 * after the last chunk, without waiting for them).  wait = false: only if
 * a staging slot is free now.  Sets st->agg_read_slot; false when no slot
 * was taken.
 */
bool
gx_agg_read_submit(GxScanState *st, bool wait)
{
	int			slot = gx_slot_acquire(wait);
	gx_chunk   *c;

	if (slot < 0)
		return false;
	st->agg_read_gen = gx_service_generation();
	c = gx_slot_chunk(slot);
	gx_task_init(c, GX_TASK_AGG_READ, st->session);
	c->follow = GX_FOLLOW_SESSION;
	c->nrows = 0;
	c->input_bytes = GX_ALIGN_UP(sizeof(gx_chunk));
	c->result_off = c->input_bytes;
	memset(&c->ext, 0, sizeof(c->ext));
	c->ext.entry = -1;
	gx_agg_set_chunk(st, c);
	gx_slot_submit(slot, st->device);
	st->agg_read_slot = slot;
	return true;
}

/*
 * Wait for the AGG_READ task and take the totals into agg_val/agg_cnt
 * (keep = false: only the reset of the state mattered).
 */
static void
gx_agg_read_collect(GxScanState *st, bool keep)
{
	int			slot = st->agg_read_slot;
	gx_result  *res;

	gx_slot_wait(slot, st->agg_read_gen, GX_WAIT_SPIN_US);
	res = gx_chunk_result(gx_slot_chunk(slot));
	for (int i = 0; i < st->nagg && keep; i++)
	{
		if (st->aggs[i].kind == GX_AGGK_COUNT_STAR)
			continue;
		st->agg_val[i] = res->agg_val[st->aggs[i].slot];
		st->agg_cnt[i] = res->agg_cnt[st->aggs[i].slot];
	}
	gx_slot_release(slot);
	st->agg_read_slot = -1;
	st->agg_dirty = false;
}

/*
 * The totals of the state object into agg_val/agg_cnt (keep = false: only
 * reset it): the AGG_READ already submitted, else one now.  The object is
 * zero afterwards.
 */
void
gx_agg_read(GxScanState *st, bool keep)
{
	memset(st->agg_val, 0, sizeof(st->agg_val));
	memset(st->agg_cnt, 0, sizeof(st->agg_cnt));
	if (st->agg_obj == 0)
		return;
	if (st->agg_read_slot < 0)
		(void) gx_agg_read_submit(st, true);
	gx_agg_read_collect(st, keep);
}

/* the row of partial aggregate states, into the (virtual) scan slot */
TupleTableSlot *
gx_agg_store(GxScanState *st, TupleTableSlot *slot)
{
	ExecClearTuple(slot);
	for (int i = 0; i < slot->tts_tupleDescriptor->natts; i++)
	{
		slot->tts_values[i] = (Datum) 0;
		slot->tts_isnull[i] = true;
	}
	for (int i = 0; i < st->nagg; i++)
	{
		GxAggSpec  *sp = &st->aggs[i];
		int			k = sp->resno - 1;

		switch (sp->kind)
		{
			case GX_AGGK_COUNT_STAR:
				slot->tts_values[k] = Int64GetDatum(st->agg_rows);
				slot->tts_isnull[k] = false;
				break;
			case GX_AGGK_COUNT:
				slot->tts_values[k] = Int64GetDatum(st->agg_cnt[i]);
				slot->tts_isnull[k] = false;
				break;
			case GX_AGGK_SUM:
				/* int2_sum / int4_sum: NULL until a value was added */
				slot->tts_values[k] = Int64GetDatum(st->agg_val[i]);
				slot->tts_isnull[k] = st->agg_cnt[i] == 0;
				break;
			default:
				elog(ERROR, "gpuext: aggregate kind %d has no stripes", (int) sp->kind);
		}
	}
	return ExecStoreVirtualTuple(slot);
}

/*
 * "count(*), sum(a)": what EXPLAIN shows as Device Aggregates (dpctx: the
 * plan's deparse context; prefix: with table names)
 */
char *
gx_agg_describe(GxScanState *st, List *dpctx, bool prefix)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < st->nagg; i++)
	{
		GxAggSpec  *sp = &st->aggs[i];

		if (i > 0)
			appendStringInfoString(&buf, ", ");
		if (sp->kind == GX_AGGK_COUNT_STAR)
			appendStringInfoString(&buf, "count(*)");
		else
			appendStringInfo(&buf, "%s(%s)", sp->name,
							 deparse_expression((Node *) sp->arg, dpctx, prefix, false));
		if (sp->filter != NULL)
			appendStringInfo(&buf, " FILTER (WHERE %s)",
							 deparse_expression((Node *) sp->filter, dpctx, prefix, false));
	}
	return buf.data;
}
