/*
 * join_devparts.cpp - a GpuJoin's hash table partitioned over the devices
 * of its set (issue 17): each device builds and probes the keys of its
 * hash range, so a large build side shrinks with the devices.
 *
 * Design note
 * -----------
 * A replica (join_replicas.cpp) spreads a join's probes but not its
 * build, which is most of a large count: the 16M x 16M hash count spends
 * 6.5 of its 9.7 ms building, on one device, whatever the number of
 * devices.  Partitioned, each of the node's n devices holds a table of
 * its part of the keys (gx_join_part_of: the key hash's top bits, scaled
 * to n; a NULL key is part 0's) and every batch of either side visits
 * every device in turn: the task's gx_join_ext.part_d / part_n make its
 * BUILD stage, and its PROBE answer, only the rows of that device's part
 * (gx_join.cuh, both devices).  An inner row and every outer row with its
 * key meet on exactly one device, and each outer row is answered once,
 * so the counts of the devices add up to the join's.
 *
 * Which joins: counting hash joins (count(*) of INNER, LEFT, SEMI and
 * ANTI) whose two sides the device reads itself (join_inputs.cpp), of a
 * serial plan, on a set of devices that all reach each other: their
 * probes return no rows, so nothing has to be gathered back in row order.
 * gpuext.join_device_parts: auto partitions such a join when its inner
 * side has at least GX_JOIN_DEVPART_MIN_ROWS planner rows, on partitions
 * every one, off (the default until the node is measured on several GPUs)
 * never; a partitioned table is not replicated.
 *
 * A batch is filled once (its staging slot, its cache entry pinned, or
 * its heap pages copied) and submitted to its first device (the one its
 * source chose: a cached batch where its entry lies); when its result is
 * collected the same task image is submitted again, to the next device
 * with the next part, until every device has seen it, and only then is
 * the slot released and the batch unpinned.  A resubmitted batch goes to
 * the back of the batches in flight (a new sequence number), so with
 * GX_JOIN_BATCHES batches in flight the devices work at once without a
 * staging slot more than one device uses: no fan-out can wait for slots
 * while holding others.  Each device reads the cached entries of the
 * others by peer access (a 16M-row int4 key column is 64 MB; on four
 * devices each reads 48 MB of it over NVLink) but builds and probes 1 / n
 * of the rows.  The first build batch visits every device before another
 * is submitted (the first task on a table takes its memory).
 *
 * Sizing: each table holds the planner's rows / n x 1.25 (the parts of a
 * uniform hash differ little; a skewed key lands in one part), and a
 * BUILD finding a table full has every table made again twice as large
 * and the side read again, as a single table is.  A table that cannot be
 * had on one device (the limits, or its memory) drops the partitioning:
 * the join runs on one table as before.  FINISH runs on every device; the
 * table's rows are the sum.  EXPLAIN ANALYZE: "Table Parts On Devices: n"
 * and the probes per device ("Device Probe Tasks").
 */
#include "gpuext.h"
#include "join_state.h"
#include "planner.h"

extern "C"
{
#include "miscadmin.h"
}

/* the smallest inner side (planner rows) that auto partitions */
#define GX_JOIN_DEVPART_MIN_ROWS 1000000.0

/* do all of the devices of set reach each other? */
static bool
gx_devset_all_reach(const GxDevSet *set)
{
	for (int a = 0; a < set->n; a++)
		for (int b = 0; b < set->n; b++)
			if (a != b && !gx_device_reaches(set->dev[a], set->dev[b]))
				return false;
	return true;
}

/* is the node's table to be partitioned over its devices (see the design note)? */
bool
gx_join_devparts_wanted(const GxJoinState *st)
{
	if (gx_join_device_parts == GX_JOIN_DEVICE_PARTS_OFF || st->devs.n < 2 ||
		st->alg != GX_JOIN_HASH || !st->count || st->group || st->level ||
		GX_JOIN_MODE_MARKS(st->mode) || st->filtered || st->worker_table ||
		st->par != NULL || st->nparts != 0 || st->nested ||
		!st->input[0].on || st->input[0].rows || !st->input[1].on ||
		!gx_devset_all_reach(&st->devs))
		return false;
	return gx_join_device_parts == GX_JOIN_DEVICE_PARTS_ON ||
		st->inner_ps->plan->plan_rows >= GX_JOIN_DEVPART_MIN_ROWS;
}

/*
 * A table of cap rows on every device of the node's set, all or none, in
 * its session (ptable[d]; home's is st->table); false when a limit or the
 * object table has no room for all of them
 */
bool
gx_join_devparts_alloc(GxJoinState *st, uint32 cap)
{
	uint32		h[GX_MAX_DEVICES];

	if (!gx_session_alloc_each(st->session, st->devs.dev, st->devs.n,
							   gx_join_bytes(st, cap, gx_join_kcap(st, cap)),
							   GX_OBJ_JOIN_TABLE, false, h))
		return false;
	memset(st->ptable, 0, sizeof(st->ptable));
	for (int i = 0; i < st->devs.n; i++)
		st->ptable[st->devs.dev[i]] = h[i];
	st->ndevparts = st->devs.n;
	st->table = st->ptable[st->device];
	st->stats.dev_parts = Max(st->stats.dev_parts, st->ndevparts);
	return true;
}

/* the partitioning given up (the tables go with the session) */
void
gx_join_devparts_drop(GxJoinState *st)
{
	st->ndevparts = 0;
	memset(st->ptable, 0, sizeof(st->ptable));
}

/*
 * Point task c of batch b (in->batch) at its visit 'visit': the device
 * and part devs.dev[(first + visit) % n], its table; returns the device
 */
static int
gx_join_devparts_aim(GxJoinState *st, GxJoinInput *in, GxBatch *b, gx_chunk *c)
{
	int			i = b - in->batch;
	int			p = (in->pfirst[i] + in->pvisit[i]) % st->ndevparts;
	int			d = st->devs.dev[p];

	c->ext.join.part_n = (uint16) st->ndevparts;
	c->ext.join.part_d = (uint16) p;
	c->obj[0] = st->ptable[d];
	c->follow = GX_FOLLOW_NONE;
	return d;
}

/*
 * A batch just filled (its task in c): its first visit, on the device its
 * source chose when that is one of the node's (a cached batch's entry's),
 * else home; returns the device to submit it to
 */
int
gx_join_devparts_first(GxJoinState *st, GxJoinInput *in, GxBatch *b, gx_chunk *c)
{
	int			i = b - in->batch;

	in->pfirst[i] = (uint8) Max(gx_devset_index(&st->devs, b->device), 0);
	in->pvisit[i] = 0;
	/* (its cache entry stays pinned between the visits: the slot is kept) */
	gx_slot_hold_entry(b->slot);
	return gx_join_devparts_aim(st, in, b, c);
}

/*
 * Batch b's result for its current device collected: when devices are
 * left, its task (of kind) submitted again to the next (behind the batches in
 * flight: a new sequence number) and true; false when every device has
 * seen it (the caller releases its slot)
 */
bool
gx_join_devparts_next(GxJoinState *st, GxJoinInput *in, GxBatch *b, uint32 kind)
{
	int			i = b - in->batch;
	gx_chunk   *c = gx_slot_chunk(b->slot);

	if (++in->pvisit[i] >= st->ndevparts)
		return false;
	CHECK_FOR_INTERRUPTS();
	c->kind = kind;
	c->fault = 0;
	b->device = gx_join_devparts_aim(st, in, b, c);
	b->generation = gx_service_generation();
	b->seq = in->next_seq++;
	gx_slot_submit(b->slot, b->device);
	return true;
}

/* JOIN_FINISH_BUILD on every device's table; the rows they hold together */
uint64
gx_join_devparts_finish(GxJoinState *st)
{
	uint64		rows = 0;

	for (int i = 0; i < st->ndevparts; i++)
		rows += gx_join_finish_on(st, st->ptable[st->devs.dev[i]], st->devs.dev[i]);
	st->placed = (uint32) Min(rows, (uint64) PG_UINT32_MAX);
	st->stats.table_rows += rows;
	return rows;
}
