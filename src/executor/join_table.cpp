/*
 * join_table.cpp - the steps on GpuJoin's table that the node
 * (gpujoin.cpp) and its device inputs (join_inputs.cpp) share: a join
 * task's header, a finished task's result with its device error raised,
 * the table's geometry and bytes for the node's algorithm (hash, merge,
 * range: docs/engine.md, GpuJoin), whether a table fits the memory
 * limits, its JOIN_FINISH_BUILD, and a probe pass's entries taken into
 * the node's pair array.
 */
#include "gpuext.h"
#include "join_state.h"

extern "C"
{
#include "utils/memutils.h"
}

/*
 * The header of a join task of the table: zeroed (no rows, no program),
 * the session, the table and its geometry, the input's size (the result
 * follows it)
 */
void
gx_join_header(GxJoinState *st, gx_chunk *c, uint32 kind, uint64 input_bytes)
{
	memset(c, 0, sizeof(gx_chunk));
	gx_task_init(c, kind, st->session);
	c->obj[0] = st->table;
	c->input_bytes = input_bytes;
	c->result_off = input_bytes;
	c->ext.entry = -1;
	c->ext.join.nkeys = gx_join_side_keys(st, true);
	c->ext.join.payload_out = -1;
	c->ext.join.cap = st->cap;
	c->ext.join.kcap = st->kcap;
	c->ext.join.alg = st->alg;
	c->ext.join.lo_out = st->lo_k;
	c->ext.join.hi_out = st->hi_k;
	c->ext.join.bflags = st->bflags;
	c->ext.join.kfloat = st->kfloat;
}

/*
 * Store column k of row 'row' of a batch the node lays out from the row
 * in slot (its column resno): as the batch holds it (a numeric at scale),
 * or its id in dict (a string key: join_dict.cpp); its NULL bit
 */
void
gx_join_store_col(gx_chunk *c, int k, uint32 row, TupleTableSlot *slot, AttrNumber resno,
				  int gxtype, int scale, GxDict *dict)
{
	bool		isnull;
	Datum		d = slot_getattr(slot, resno, &isnull);
	char	   *vals = (char *) c + c->cols[k].values_off;

	if (dict != NULL)
		((int64 *) vals)[row] = isnull ? 0 : gx_dict_id(dict, d);
	else
		gx_store_datum_scale(vals, gxtype, gxtype == GX_NUMERIC ? scale : 0, row, d, isnull);
	if (isnull)
		((uint32 *) ((char *) c + c->cols[k].nulls_off))[row >> 5] |= 1u << (row & 31);
}

/* the result of the finished task in slot (its device error raised) */
gx_result *
gx_join_result(int slot)
{
	gx_result  *res = gx_chunk_result(gx_slot_chunk(slot));

	if (res->error != GX_NO_ERROR)
	{
		int			code = (int) (res->error & 0xff);

		gx_slot_release(slot);
		gx_raise_error(code);
	}
	return res;
}

/*
 * submit the task in slot to device and wait for it; its result (device
 * errors raised)
 */
gx_result *
gx_join_run_on(GxJoinState *st, int slot, uint32 generation, int device)
{
	gx_slot_submit(slot, device);
	gx_slot_wait(slot, generation, 0);
	return gx_join_result(slot);
}

/* gx_join_run_on the home device (the table's builds, finish, unmatched rows) */
gx_result *
gx_join_run(GxJoinState *st, int slot, uint32 generation)
{
	return gx_join_run_on(st, slot, generation, st->device);
}

/*
 * the key directory's slots for cap rows: a power of 2 >= 2 cap (a range
 * or merge join: none)
 */
uint32
gx_join_kcap(const GxJoinState *st, uint32 cap)
{
	uint64		kcap = 2;

	if (st->alg != GX_JOIN_HASH)
		return 0;

	while (kcap < 2 * (uint64) cap)
		kcap *= 2;
	return (uint32) kcap;
}

/* bytes of the table of cap rows (kcap key slots) of the node's algorithm */
uint64
gx_join_bytes(const GxJoinState *st, uint32 cap, uint32 kcap)
{
	if (st->alg == GX_JOIN_MERGE)
		return gx_jmerge_table_bytes(cap);
	return st->alg == GX_JOIN_RANGE ? gx_jrange_table_bytes(cap) :
		gx_join_table_bytes(cap, kcap);
}

/*
 * Would a table for n rows fit under gpuext.session_memory (the session
 * holds nothing else) and gpuext.device_memory now?  (A guess for the
 * device limit, which other sessions share: gx_session_try_alloc decides.)
 */
bool
gx_join_table_fits(GxJoinState *st, uint32 n)
{
	uint64		bytes = gx_join_bytes(st, n, gx_join_kcap(st, n));

	if (gx_session_memory_kb > 0 && bytes > (uint64) gx_session_memory_kb * 1024)
		return false;
	return !gx_memory_over_limit(st->device, bytes);
}

/*
 * Does the table get runs at its FINISH?  Not a hash table probed for
 * counts only (counting, SEMI, ANTI, a group probe without inner
 * columns): its probes read a key's count, never its run
 * (GX_JOIN_NO_RUNS; a replica copies no runs either)
 */
bool
gx_join_table_runs(const GxJoinState *st)
{
	return !(st->alg == GX_JOIN_HASH &&
			 (st->count || st->mode == GX_JOIN_SEMI || st->mode == GX_JOIN_ANTI ||
			  (st->group && st->gncols == 0)));
}

/*
 * JOIN_FINISH_BUILD of the table object 'table' on device (the node's, or
 * a part's: join_devparts.cpp): its rows into place; the rows it holds
 */
uint64
gx_join_finish_on(GxJoinState *st, uint32 table, int device)
{
	int			slot = gx_slot_acquire(true);
	uint32		gen = gx_service_generation();
	gx_chunk   *c = gx_slot_chunk(slot);
	gx_result  *res;
	uint64		rows;

	gx_join_header(st, c, GX_TASK_JOIN_FINISH_BUILD, GX_ALIGN_UP(sizeof(gx_chunk)));
	c->obj[0] = table;
	if (!gx_join_table_runs(st))
		c->ext.join.jflags = GX_JOIN_NO_RUNS;
	res = gx_join_run_on(st, slot, gen, device);
	rows = res->join_count;
	if (rows > st->cap)
		elog(ERROR, "gpuext: GpuJoin table holds %llu rows for %u",
			 (unsigned long long) rows, st->cap);
	gx_slot_release(slot);
	return rows;
}

/* the table's JOIN_FINISH_BUILD (gx_join_finish_on the home device); the rows it holds */
uint64
gx_join_finish_table(GxJoinState *st)
{
	uint64		rows = gx_join_finish_on(st, st->table, st->device);

	st->placed = (uint32) rows;
	st->stats.table_rows += rows;
	return rows;
}

/* make room for n entries in st->pairs (its first 'keep' kept) */
void
gx_join_pairs_room(GxJoinState *st, uint32 n, uint32 keep)
{
	if (n <= st->pairs_alloc)
		return;
	st->pairs_alloc = Max(n, Max(1024, keep > 0 ? 2 * st->pairs_alloc : 0));
	if (st->pairs != NULL && keep > 0)
		st->pairs = (gx_join_pair *) repalloc_huge(st->pairs,
												   sizeof(gx_join_pair) * (Size) st->pairs_alloc);
	else
	{
		if (st->pairs != NULL)
			pfree(st->pairs);
		st->pairs = (gx_join_pair *)
			MemoryContextAllocHuge(st->css.ss.ps.state->es_query_cxt,
								   sizeof(gx_join_pair) * (Size) st->pairs_alloc);
	}
}

/*
 * the entries of a finished probe pass of nrows outer rows into st->pairs
 * (after the st->npairs there when 'append': a cached batch's passes at
 * once, join_inputs.cpp), and where the next starts
 */
void
gx_join_take_pass(GxJoinState *st, gx_result *res, uint32 nrows, bool append)
{
	uint32		base = append ? st->npairs : 0;

	gx_join_pairs_room(st, base + res->nsel, base);
	memcpy(st->pairs + base, (char *) res + gx_join_pairs_off(nrows, st->alg),
		   sizeof(gx_join_pair) * (Size) res->nsel);
	st->npairs = base + res->nsel;
	st->pair_pos = 0;
	st->more = (res->flags & GX_RESULT_MORE) != 0;
	st->next_row = res->next_row;
	st->next_match = res->next_match;
}
