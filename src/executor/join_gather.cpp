/*
 * join_gather.cpp - gathered output: a GpuJoin that returns rows has the
 * device write the values of the columns it returns beside each entry
 * (planning: join_gather_path.cpp; the layout: gx_program.h, "Gathered
 * output"; the device's step: gx_join.cuh).
 *
 * Design note
 * -----------
 * When the plan has the gathering programs (custom_private 10) and the
 * node qualifies at run time (gpuext.join_gather and
 * gpuext.join_device_inputs on; not counting or aggregating, no join
 * quals the node runs over the rows), the node:
 *
 *  - reads the outer side through its device input with the plan's
 *    gathering program (the keys, then every outer column it returns);
 *  - stores the inner columns it returns in the table's inner column
 *    store (st->gncols of them, GX_OBJ_JOIN_COLS), built either by the
 *    inner device input's gathering program (outputs after the keys:
 *    st->gicol_out) or from the inner child's rows (the build batch's
 *    columns after the keys: gx_join_task), the same code as a join that
 *    aggregates its pairs (join_agg.cpp); a build with columns gives each
 *    row its staged index as its payload, which the probes' entries carry;
 *  - probes with ext.join.ngather = the scan slot's columns, each its
 *    outer output or its inner column (st->gather_ref), so that every
 *    pass brings back, beside its entries, the columns' values, which
 *    gx_join_gather_take copies out of the staging slot with the entries
 *    (a nested join gives its slot back between passes);
 *  - makes each returned row from those values alone
 *    (gx_join_gather_store): no heap fetch of the outer row, no inner
 *    row kept per entry, no read of the inner child when its table is
 *    read by the device.
 *
 * The probes run on the home device only (the column store has no
 * replicas: join_replicas.cpp leaves such a join alone).  A parallel
 * GpuJoin's workers probe the leader's table and column store
 * (join_parallel.cpp shares the store instead of the inner rows).  A table that
 * does not fit turns gathering off before any row is returned
 * (gx_join_gather_off): the partitioned passes read both children's
 * rows as without it.  The entries of one pass are checked by the caller
 * as any pass's.
 */
#include "gpuext.h"
#include "join_state.h"

extern "C"
{
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "utils/memutils.h"
}

/*
 * At node start (after the scan columns' map, before the devices, the
 * geometry and the inputs): does this run gather?  If so the columns'
 * references and types, the inner columns to store and the sides'
 * gathering programs (see the design note).
 */
void
gx_join_gather_begin(GxJoinState *st, CustomScan *cscan)
{
	List	   *priv = cscan->custom_private;
	List	   *item;
	List	   *oouts;
	TupleDesc	odesc,
				idesc;

	st->gather = false;
	if (!gx_join_gather || !gx_enable_join_inputs || st->count || st->group || st->level ||
		st->filtered || list_length(priv) <= 10 ||
		list_nth(priv, 10) == NIL || st->natts == 0 || st->natts > GX_JOIN_MAX_GATHER ||
		!(st->mode == GX_JOIN_INNER || st->mode == GX_JOIN_LEFT ||
		  st->mode == GX_JOIN_SEMI || st->mode == GX_JOIN_ANTI))
		return;
	item = (List *) list_nth(priv, 10);
	oouts = (List *) lsecond(item);
	if (list_length(oouts) != st->natts)
		elog(ERROR, "gpuext: GpuJoin gathers %d columns of %d", list_length(oouts), st->natts);
	odesc = ExecGetResultType(st->outer_ps);
	idesc = ExecGetResultType(st->inner_ps);
	st->gather_ref = (int16 *) palloc(sizeof(int16) * st->natts);
	st->gather_type = (int *) palloc(sizeof(int) * st->natts);
	st->gncols = 0;
	for (int i = 0; i < st->natts; i++)
	{
		bool		outer = st->src_side[i] == 0;
		TupleDesc	desc = outer ? odesc : idesc;
		int			c;

		if (st->src_att[i] < 1 || st->src_att[i] > desc->natts ||
			!gx_type_supported(TupleDescAttr(desc, st->src_att[i] - 1)->atttypid,
							   &st->gather_type[i]))
			elog(ERROR, "gpuext: GpuJoin gathers a column of an unsupported type");
		if (outer)
		{
			st->gather_ref[i] = (int16) list_nth_int(oouts, i);
			continue;
		}
		/* an inner column of the store: each of the inner child's columns once */
		for (c = 0; c < st->gncols && st->gcol_res[c] != st->src_att[i]; c++)
			;
		if (c == st->gncols)
		{
			if (c >= GX_JOIN_MAX_COLS)
				elog(ERROR, "gpuext: GpuJoin gathers more than %d inner columns",
					 GX_JOIN_MAX_COLS);
			st->gcol_res[c] = st->src_att[i];
			st->gcol_type[c] = st->gather_type[i];
			st->gcol_scale[c] = 0;
			st->gcol_dict[c] = NULL;
			st->gncols++;
		}
		st->gather_ref[i] = (int16) (-1 - c);
	}
	st->gather_prog[0] = (Node *) linitial(item);
	st->gather_prog[1] = NULL;
	st->ginner_input = false;
	if (IsA(lthird(item), Const) && st->gncols > 0)
	{
		List	   *iouts = (List *) lfourth(item);

		if (list_length(iouts) != st->gncols)
			elog(ERROR, "gpuext: GpuJoin's inner program gives %d columns of %d",
				 list_length(iouts), st->gncols);
		for (int c = 0; c < st->gncols; c++)
			st->gicol_out[c] = (int16) list_nth_int(iouts, c);
		st->gather_prog[1] = (Node *) lthird(item);
		st->ginner_input = true;
	}
	st->ngather = st->natts;
	st->gather = true;
}

/*
 * Gathering off for the rest of the node's runs (a table that does not
 * fit: partitioned passes of the children's rows): no inner columns, the
 * inner side read by its child where its rows are returned
 */
void
gx_join_gather_off(GxJoinState *st)
{
	st->gather = false;
	st->gncols = 0;
	st->ginner_input = false;
	if (GX_JOIN_MODE_PAIRS(st->mode))
		st->input[1].on = false;
}

/* a probe task's gathering part: its columns, and the inner column store they read */
void
gx_join_gather_task(GxJoinState *st, gx_chunk *c)
{
	c->ext.join.ngather = (uint32) st->ngather;
	for (int i = 0; i < st->ngather; i++)
		c->ext.join.gather[i] = st->gather_ref[i];
	gx_join_cols_task(st, c);
}

/*
 * Room for n entries' values in st->gval / st->gnull, the first 'keep'
 * of each column kept (a column's pitch is st->gval_alloc)
 */
static void
gx_join_gather_room(GxJoinState *st, uint32 n, uint32 keep)
{
	MemoryContext cxt = st->css.ss.ps.state->es_query_cxt;
	uint32		alloc;
	int64	   *gval;
	uint8	   *gnull;

	if (n <= st->gval_alloc)
		return;
	alloc = Max(n, Max(1024, keep > 0 ? 2 * st->gval_alloc : 0));
	gval = (int64 *) MemoryContextAllocHuge(cxt, sizeof(int64) * st->ngather * (Size) alloc);
	gnull = (uint8 *) MemoryContextAllocHuge(cxt, (Size) st->ngather * alloc);
	for (int g = 0; g < st->ngather && keep > 0; g++)
	{
		memcpy(gval + (Size) g * alloc, st->gval + (Size) g * st->gval_alloc,
			   sizeof(int64) * keep);
		memcpy(gnull + (Size) g * alloc, st->gnull + (Size) g * st->gval_alloc, keep);
	}
	if (st->gval != NULL)
		pfree(st->gval);
	if (st->gnull != NULL)
		pfree(st->gnull);
	st->gval = gval;
	st->gnull = gnull;
	st->gval_alloc = alloc;
}

/*
 * After gx_join_take_pass of gathering probe c (its result res): the
 * values of its entries into st->gval / st->gnull from entry 'base' on
 * (column g of entry i at g * st->gval_alloc + i; base > 0: after the
 * values of the batch's earlier passes)
 */
void
gx_join_gather_take(GxJoinState *st, const gx_chunk *c, const gx_result *res, uint32 base)
{
	const uint32 max = c->ext.join.max_pairs;
	const uint32 n = res->nsel;
	const uint32 alg = gx_join_res_alg(&c->ext.join);
	const char *r = (const char *) res;
	const int64 *gval = (const int64 *) (r + gx_join_gather_off(c->nrows, max, alg));
	const uint8 *gnull = (const uint8 *) (r + gx_join_gather_nulls_off(c->nrows, max, alg,
																		(uint32) st->ngather));

	if (c->ext.join.ngather != (uint32) st->ngather)
		elog(ERROR, "gpuext: GpuJoin probe gathered %u columns of %d", c->ext.join.ngather,
			 st->ngather);
	gx_join_gather_room(st, base + n, base);
	for (int g = 0; g < st->ngather; g++)
	{
		memcpy(st->gval + (Size) g * st->gval_alloc + base, gval + (Size) g * max,
			   sizeof(int64) * n);
		memcpy(st->gnull + (Size) g * st->gval_alloc + base, gnull + (Size) g * max, n);
	}
}

/* a gathered value of device type t as a Datum of its column (by value: gx_type_supported's types) */
static inline Datum
gx_join_gather_datum(int t, int64 v)
{
	double		d;

	switch (t)
	{
		case GX_BOOL:
			return BoolGetDatum(v != 0);
		case GX_INT2:
			return Int16GetDatum((int16) v);
		case GX_INT4:
			return Int32GetDatum((int32) v);
		case GX_FLOAT4:
			memcpy(&d, &v, sizeof(d));
			return Float4GetDatum((float4) d);
		case GX_FLOAT8:
			memcpy(&d, &v, sizeof(d));
			return Float8GetDatum(d);
		default:
			return Int64GetDatum(v);
	}
}

/* the scan slot's row of entry i of the last gathering pass, from its values alone */
TupleTableSlot *
gx_join_gather_store(GxJoinState *st, uint32 i)
{
	TupleTableSlot *scan = st->css.ss.ss_ScanTupleSlot;

	ExecClearTuple(scan);
	for (int g = 0; g < st->ngather; g++)
	{
		Size		at = (Size) g * st->gval_alloc + i;
		bool		null = st->gnull[at] != 0;

		scan->tts_isnull[g] = null;
		scan->tts_values[g] = null ? (Datum) 0 : gx_join_gather_datum(st->gather_type[g],
																		st->gval[at]);
	}
	return ExecStoreVirtualTuple(scan);
}
