/*
 * join_parts.cpp - a GpuJoin whose table does not fit: the inner side
 * split into partitions by its keys' hash, one table on the device at a
 * time, a pass over the outer side per partition (issue 15).
 *
 * Design note
 * -----------
 * A serial GpuJoin reads its inner side into backend memory and builds one
 * table for it.  When that table would pass gpuext.session_memory or
 * gpuext.device_memory (gx_join_table_fits), the node used to run its
 * fallback plan.  Now it first tries partitions, as PostgreSQL's hash join
 * does with batches:
 *
 *  - it keeps reading the inner side while the rows stay within
 *    GX_JOIN_MAX_PARTS times the hash join's memory limit
 *    (get_hash_memory_limit(): work_mem x hash_mem_multiplier) and a table
 *    for their share in GX_JOIN_MAX_PARTS partitions fits, else the
 *    fallback plan runs as before (gpuext.join_partitions off: always);
 *  - each inner row's partition is a hash of its keys as the host reads
 *    them (gx_join_host_keys: the int64 the device compares, floats as
 *    gx_join_float_key, numeric at the join's scale), so rows the device
 *    finds equal share a partition; a row with a NULL key is partition
 *    0's.  The node takes the fewest partitions, a power of 2 up to
 *    GX_JOIN_MAX_PARTS, whose largest table fits; none (one key holding
 *    too many rows) runs the fallback plan;
 *  - pass p builds the table of partition p's rows (st->inner is then
 *    that share, in "GpuJoin inner rows", grouped by partition) and probes
 *    the outer rows of partition p.  Pass 0 reads the outer child and
 *    keeps the other partitions' rows in one tuplestore each (work_mem /
 *    partitions each, spilled to temporary files past it), so every
 *    later pass reads its own rows only, and the child runs once;
 *  - between passes the session is closed (the service frees the table)
 *    and a new one opened for the next table: its memory may take a
 *    moment to come back, so the node waits for it (up to about 10 s)
 *    before it raises PostgreSQL's out-of-memory error, the only way a
 *    partitioned join fails where the fallback would not: rows have been
 *    returned by then.  Pass 0's table that cannot be had still means the
 *    fallback plan.
 *
 * Every join type runs this way: an outer row meets the inner rows of
 * its own partition only, and every row with its key is there (LEFT, ANTI
 * and FULL return an outer row without a match in its own pass); RIGHT and
 * FULL read each table's unmatched rows after its pass, and the inner rows
 * with a NULL key (partition 0's) after pass 0.  A counting node sums the
 * passes.  The outer side is read through its child (an outer device
 * input is turned off), the range join is never partitioned (a band
 * crosses any hash partition), nor a parallel GpuJoin (the leader's one
 * table is shared).  A rescan starts over from the inner side.
 */
#include "gpuext.h"
#include "join_state.h"
#include "planner.h"

extern "C"
{
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"
}

/* a float key as the device compares it (gx_join.cuh's gx_join_float_key) */
static inline int64
gx_join_host_float_key(double d)
{
	return gx_float_ord(d == 0.0 ? 0.0 : d);
}

/* a pass that finds the device memory still held waits this long, in steps */
#define GX_PART_WAIT_STEPS 200
#define GX_PART_WAIT_US 50000

/* may the node partition its inner side (see the design note)? */
static bool
gx_join_parts_allowed(GxJoinState *st)
{
	return gx_join_partitions && st->alg != GX_JOIN_RANGE && st->par == NULL;
}

/* the bytes of inner rows a partitioned join may hold in backend memory */
static Size
gx_join_parts_memory(void)
{
	return get_hash_memory_limit() * GX_JOIN_MAX_PARTS;
}

/*
 * May the node go on reading n inner rows for partitions: within the
 * memory, and the table of their share in GX_JOIN_MAX_PARTS partitions
 * (the largest partition holds at least that many) fits?
 */
bool
gx_join_parts_may_read(GxJoinState *st, uint32 n)
{
	return gx_join_parts_allowed(st) && st->inner_bytes <= gx_join_parts_memory() &&
		gx_join_table_fits(st, n / GX_JOIN_MAX_PARTS + 1);
}

/*
 * The keys of a row of one side (in slot, its child's target list) as
 * the device compares them, into k; false when one is NULL
 */
static bool
gx_join_host_keys(GxJoinState *st, TupleTableSlot *slot, bool inner, int64 *k)
{
	const int  *types = inner ? st->itype : st->otype;
	const AttrNumber *keys = inner ? st->ikey : st->okey;

	for (int i = 0; i < st->nkeys; i++)
	{
		bool		isnull;
		Datum		d = slot_getattr(slot, keys[i], &isnull);
		union
		{
			int64		i8;
			int32		i4;
			int16		i2;
			uint8		b;
			float4		f4;
			float8		f8;
		}			v;

		if (isnull)
			return false;
		v.i8 = 0;
		gx_store_datum_scale((char *) &v, types[i], types[i] == GX_NUMERIC ? st->kscale[i] : 0,
							 0, d, false);
		switch (types[i])
		{
			case GX_BOOL:
				k[i] = v.b;
				break;
			case GX_INT2:
				k[i] = v.i2;
				break;
			case GX_INT4:
				k[i] = v.i4;
				break;
			case GX_FLOAT4:
				k[i] = gx_join_host_float_key((double) v.f4);
				break;
			case GX_FLOAT8:
				k[i] = gx_join_host_float_key(v.f8);
				break;
			default:
				k[i] = v.i8;
				break;
		}
	}
	return true;
}

/* the partition of the row in slot among nparts (a power of 2); a NULL key's: 0 */
static int
gx_join_row_part(GxJoinState *st, TupleTableSlot *slot, bool inner, int nparts)
{
	int64		k[GX_JOIN_MAX_KEYS] = {0, 0};

	if (!gx_join_host_keys(st, slot, inner, k))
		return 0;
	return (int) (hash_bytes_extended((const unsigned char *) k, sizeof(int64) * st->nkeys, 0) &
				  (uint64) (nparts - 1));
}

/*
 * Split the inner rows (st->inner, all of them) into the fewest
 * partitions whose largest table fits, grouped by partition in a new
 * array; pass 0's share becomes st->inner.  false when none fits.
 */
bool
gx_join_parts_begin(GxJoinState *st)
{
	uint32		count[GX_JOIN_MAX_PARTS] = {0};
	uint16	   *part;
	MinimalTuple *grouped;
	int			nparts = 0;

	if (!gx_join_parts_allowed(st) || st->ninner == 0)
		return false;
	part = (uint16 *) MemoryContextAllocHuge(st->inner_cxt, sizeof(uint16) * st->ninner);
	for (uint32 i = 0; i < st->ninner; i++)
	{
		ExecStoreMinimalTuple(st->inner[i], st->islot, false);
		part[i] = (uint16) gx_join_row_part(st, st->islot, true, GX_JOIN_MAX_PARTS);
		count[part[i]]++;
	}
	ExecClearTuple(st->islot);
	/* (a partition of p is the union of those of GX_JOIN_MAX_PARTS with its low bits) */
	for (int p = 2; p <= GX_JOIN_MAX_PARTS && nparts == 0; p *= 2)
	{
		uint32		largest = 0;

		for (int q = 0; q < p; q++)
		{
			uint32		n = 0;

			for (int r = q; r < GX_JOIN_MAX_PARTS; r += p)
				n += count[r];
			largest = Max(largest, n);
		}
		if (gx_join_table_fits(st, Max(largest, 1)))
			nparts = p;
	}
	if (nparts == 0)
		return false;
	/* the rows grouped by partition (a counting sort, stable) */
	st->part_first = (uint32 *) MemoryContextAllocZero(st->inner_cxt,
													   sizeof(uint32) * (nparts + 1));
	for (uint32 i = 0; i < st->ninner; i++)
		st->part_first[(part[i] & (nparts - 1)) + 1]++;
	for (int p = 0; p < nparts; p++)
		st->part_first[p + 1] += st->part_first[p];
	grouped = (MinimalTuple *) MemoryContextAllocHuge(st->inner_cxt,
													  sizeof(MinimalTuple) * st->ninner);
	{
		uint32		next[GX_JOIN_MAX_PARTS];

		memcpy(next, st->part_first, sizeof(uint32) * nparts);
		for (uint32 i = 0; i < st->ninner; i++)
			grouped[next[part[i] & (nparts - 1)]++] = st->inner[i];
	}
	pfree(part);
	st->part_rows = grouped;
	st->nparts = nparts;
	st->part = 0;
	st->spool = (Tuplestorestate **) MemoryContextAllocZero(st->inner_cxt,
															sizeof(Tuplestorestate *) * nparts);
	/* (the outer side through its child: its rows go to the passes' spools) */
	st->input[0].on = false;
	st->inner = grouped;
	st->ninner = st->part_first[1];
	st->stats.parts = Max(st->stats.parts, nparts);
	st->stats.passes++;
	return true;
}

/*
 * The next outer row of this pass (NULL at its end): pass 0 reads the
 * child and spools the other partitions' rows, a later pass reads its
 * spool (into st->spool_slot)
 */
TupleTableSlot *
gx_join_parts_outer(GxJoinState *st)
{
	if (st->part > 0)
	{
		Tuplestorestate *ts = st->spool[st->part];

		if (ts == NULL || !tuplestore_gettupleslot(ts, true, false, st->spool_slot))
			return NULL;
		return st->spool_slot;
	}
	for (;;)
	{
		TupleTableSlot *s = ExecProcNode(st->outer_ps);
		int			p;

		if (TupIsNull(s))
			return NULL;
		p = gx_join_row_part(st, s, false, st->nparts);
		if (p == 0)
			return s;
		if (st->spool[p] == NULL)
		{
			MemoryContext old = MemoryContextSwitchTo(st->inner_cxt);

			st->spool[p] = tuplestore_begin_heap(false, false,
												 Max(64, work_mem / st->nparts));
			MemoryContextSwitchTo(old);
		}
		tuplestore_puttupleslot(st->spool[p], s);
	}
}

/*
 * Open a session and reserve the table for this pass's rows, waiting for
 * the memory of the last pass's table, which the service frees after its
 * session closed; false when it cannot be had
 */
static bool
gx_join_parts_table(GxJoinState *st, bool wait)
{
	for (int i = 0;; i++)
	{
		if (gx_join_build_rows(st))
			return true;
		gx_join_drop_device(st);
		if (!wait || i >= GX_PART_WAIT_STEPS)
			return false;
		CHECK_FOR_INTERRUPTS();
		pg_usleep(GX_PART_WAIT_US);
	}
}

/*
 * The first pass's table (gx_join_parts_begin chose the partitions);
 * false when it cannot be had: the fallback plan runs
 */
bool
gx_join_parts_build_first(GxJoinState *st)
{
	return gx_join_parts_table(st, false);
}

/*
 * The next pass, once this one's outer rows and (RIGHT / FULL) unmatched
 * rows are done: its table built, its outer rows next; false after the
 * last.  An ERROR when its table cannot be had (see the design note).
 */
bool
gx_join_parts_next(GxJoinState *st)
{
	if (st->nparts == 0 || st->part + 1 >= st->nparts)
		return false;
	if (st->spool[st->part] != NULL)
		tuplestore_end(st->spool[st->part]);
	st->spool[st->part] = NULL;
	st->part++;
	gx_join_drop_device(st);
	st->inner = st->part_rows + st->part_first[st->part];
	st->ninner = st->part_first[st->part + 1] - st->part_first[st->part];
	gx_join_reset_outer(st);
	st->stats.passes++;
	if (!gx_join_parts_table(st, true))
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("gpuext: no device memory for pass %d of %d of a GpuJoin", st->part + 1,
						st->nparts),
				 errhint("Raise gpuext.device_memory, or turn gpuext.enable_gpujoin off.")));
	if (st->table != 0)
		st->stats.builds++;
	return true;
}

/* forget the partitions (their spools end; the rows go with "GpuJoin inner rows") */
void
gx_join_parts_end(GxJoinState *st)
{
	if (st->nparts > 0 && st->spool != NULL)
		for (int p = 0; p < st->nparts; p++)
			if (st->spool[p] != NULL)
				tuplestore_end(st->spool[p]);
	st->spool = NULL;
	st->nparts = 0;
	st->part = 0;
	st->part_rows = NULL;
	st->part_first = NULL;
}
