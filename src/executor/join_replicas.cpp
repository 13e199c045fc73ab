/*
 * join_replicas.cpp - GpuJoin on several devices (issue 17): the sealed
 * table replicated on the other devices of the node's set, and each probe
 * task sent to the device where its rows lie, naming that device's copy.
 *
 * Design note
 * -----------
 * A GpuJoin resolves its devices when it starts (gx_join_devices_begin:
 * gpuext.device and gpuext.devices, restricted to the devices that reach
 * the first, its home).  Its table is built once, on the home device, as
 * on one device: the inner side's batches run there (cache entries of the
 * other devices read by peer access), then FINISH seals it.  When the
 * copies pay (gx_join_copies_pay: gpuext.join_replicas) the node then
 * replicates it (gx_join_replicate): on every other device of its set a
 * replica object of the table's geometry in the node's session, filled by
 * one OBJ_COPY task submitted to that device whose source is the home
 * table, a peer's object (a peer-to-peer copy on the GPU).  Only the parts
 * a probe reads are copied (gx_join_probe_ranges: a counting hash table's
 * key directory and counts; a pairs table's run starts and runs too; the
 * rest of the replica stays zeroed).  A replica holds the home table's
 * probe parts byte for byte, so a probe gives the same entries, in the
 * same order, whatever device runs it, and the passes of a batch (which
 * all run where its first pass ran) resume exactly.
 *
 * Probes then go where their rows lie: the outer device input's batches
 * (its source spread over st->pdevs, gx_join_outer_devs) run on the device
 * holding their cache entry, heap batches on the least loaded device; the
 * chunks the node lays out from the outer child's rows on the least loaded
 * device (gx_join_pick_device).  Each names its device's table
 * (gx_join_probe_on), and a merge probe of a cached batch, which sorts in
 * a scratch object, the scratch of its device (one per probing device,
 * each probe ordered after its device's others in flight:
 * GX_FOLLOW_DEVICE, so the devices' probes run at once).  The node still
 * collects its batches oldest first, so rows come back in the order they
 * do on one device.
 *
 * The copies are waited for before the first probe, except for a
 * counting join reading its outer side itself (its probes, several in
 * flight, are the one place where devices probe at once within a query):
 * there the probes start at once and a device joins st->pdevs when its
 * copy is seen done (gx_join_replicas_collect, polled before each probe;
 * waited for before the node would wait for a staging slot, since the
 * copies hold theirs).  Meanwhile a batch whose entry lies on a device
 * still copying goes, when the rows that device would probe take it
 * longer than the copy (gx_join_worth_waiting: a merge join's, whose
 * probes sort; seldom a hash join's, since a 16M-row counting table takes
 * about 2.4 ms of NVLink, what probing 12M rows takes), to that device,
 * ordered after the copy there (GX_FOLLOW_DEVICE: on the GPU its stream
 * waits for the copy's event, no round trip); else to the home device,
 * which reads the entry by peer access, as on one device.  So a copy
 * delays no probe that would not wait for it anyway.  Should such a copy
 * fail (no device memory), the probes sent after it are not counted and
 * the outer side is counted again without that device (st->redo,
 * gx_join_count_input).
 *
 * Why copy rather than build on every device (each device running every
 * inner batch's BUILD and its own FINISH): copying moves the probe parts
 * once, device to device (NVLink: about 395 GB/s on the H200 pair, a
 * 16M-row counting hash table's 0.9 GB in about 2.3 ms), touches no host
 * work and no source (a batch is filled, pinned and submitted once), and
 * keeps the replicas identical (a build's run order depends on its
 * threads).  Building everywhere would take no longer than building once
 * when the inner side is cached (the devices build at once), but submits
 * each batch to every device (a slot each: the task image copied, heap
 * pages staged again, entries pinned again), doubles the device work the
 * other queries share, and multiplies the build's memory failures and
 * rebuilds; a join whose inner rows come from its child would lay each
 * batch out again per device.  Neither shortens the build, which is most
 * of a 16M x 16M count's time: that needs the build side partitioned by
 * hash across the devices (each builds half), left for later.
 *
 * What stays on the home device (a set of one device): joins whose probes
 * write into the table (RIGHT and FULL mark the keys they match, which
 * JOIN_UNMATCHED reads: replicas would hold different marks), joins that
 * aggregate their pairs (group tables, join_agg.cpp) and the levels of a
 * multi-level group probe (join_levels.cpp, whose tables are another
 * join's), and partitioned passes (join_parts.cpp: a table per pass, its
 * probes laid out one chunk at a time).  A replica that cannot be had
 * (gx_session_try_alloc: a memory limit or the object table; its copy
 * failing for device memory) leaves its device out: the query runs on the
 * others, that device's cache entries probed from the home device.
 * Parallel GpuJoin: the leader builds and copies (waiting for the copies)
 * before the workers start, and the replicas' handles and the probing
 * devices reach the workers in the DSM (join_parallel.cpp).
 */
#include "gpuext.h"
#include "join_state.h"
#include "planner.h"

extern "C"
{
#include "miscadmin.h"
}

/* BeginCustomScan: the node's home device and the devices its probes may use */
void
gx_join_devices_begin(GxJoinState *st)
{
	GxDevSet	set;

	gx_resolve_devset(&set);
	st->device = set.dev[0];
	if (st->group || st->gather || st->level || GX_JOIN_MODE_MARKS(st->mode))
		gx_devset_one(&set, st->device);
	else
		gx_devset_reaching(&set, st->device);
	st->devs = set;
	for (int d = 0; d < GX_MAX_DEVICES; d++)
		st->copy_slot[d] = -1;
	gx_join_replicas_drop(st);
}

/*
 * The replicas go (the session's objects: closing it frees them; a
 * worker's are the leader's), copies in flight are given up (the service
 * finishes and frees their slots), every device but home stops probing
 */
void
gx_join_replicas_drop(GxJoinState *st)
{
	for (int d = 0; d < GX_MAX_DEVICES; d++)
	{
		if (st->copy_slot[d] >= 0)
			gx_slot_release(st->copy_slot[d]);
		st->copy_slot[d] = -1;
		st->replica[d] = 0;
		st->mscratch[d] = 0;
	}
	st->ncopies = 0;
	st->mscratch_rows = 0;
	gx_devset_one(&st->pdevs, st->device);
	gx_join_devparts_drop(st);
}

/*
 * Device time per outer row of a probe (the 16M x 16M join on the H100,
 * docs/bench/h100_join_c0f5c44.md: a hash probe 3.1 ms, a merge probe,
 * which sorts its batch, 15.0 ms; a range probe's two searches taken as
 * a merge probe's), and the bytes a device copies from its peer per
 * nanosecond (NVLink between the H200s, docs/bench/h200x2_join_replicas.md)
 */
#define GX_PROBE_NS_HASH 0.19
#define GX_PROBE_NS_SORTED 0.94
#define GX_PEER_BYTES_PER_NS 395.0

/*
 * Does a device's share of the probes (the planner's outer rows over the
 * node's devices) take longer than one copy of copy_bytes?  Both whether
 * the copies pay (gx_join_copies_pay) and whether probes should wait for
 * a copy in flight (gx_join_worth_waiting) turn on it.
 */
static bool
gx_join_share_outlasts_copy(const GxJoinState *st, uint64 copy_bytes)
{
	double		rows = st->outer_ps->plan->plan_rows / Max(st->devs.n, 1);
	double		ns = st->alg == GX_JOIN_HASH ? GX_PROBE_NS_HASH : GX_PROBE_NS_SORTED;

	return rows * ns > copy_bytes / GX_PEER_BYTES_PER_NS;
}

/*
 * Is it worth sending probes to device d while its copy is in flight
 * (ordered after it)?  When its share of the probes outlasts the copy
 * (see the design note)
 */
static bool
gx_join_worth_waiting(const GxJoinState *st, int d)
{
	return st->copy_slot[d] >= 0 && st->replica[d] != 0 &&
		gx_join_share_outlasts_copy(st, st->copy_bytes);
}

/* st->pdevs: home, and the devices of st->devs whose replica is ready, in set order */
static void
gx_join_pdevs_update(GxJoinState *st)
{
	uint32		next = st->pdevs.next;

	gx_devset_one(&st->pdevs, st->device);
	for (int i = 1; i < st->devs.n; i++)
	{
		int			d = st->devs.dev[i];

		if (st->replica[d] != 0 && st->copy_slot[d] < 0)
		{
			st->pdevs.dev[st->pdevs.n++] = d;
			st->pdevs.mask |= 1u << d;
		}
	}
	st->pdevs.next = next;
}

/*
 * The devices the outer device input's batches may run on: those holding
 * a ready table and those worth waiting for (gx_join_worth_waiting), in
 * set order, but for a merge probe of cached batches (its scratch in an
 * object) those without a scratch object (their entries are probed from
 * home).  A batch's device is decided as it is filled, so this may change
 * while the side is read.
 */
void
gx_join_outer_devs(GxJoinState *st)
{
	GxJoinInput *in = &st->input[0];
	GxDevSet	set;
	bool		scratch = st->alg == GX_JOIN_MERGE && !in->rows && in->src.ncrefs > 0;

	if (!in->on)
		return;
	gx_devset_one(&set, st->device);
	for (int i = 1; i < st->devs.n; i++)
	{
		int			d = st->devs.dev[i];

		if ((st->pdevs.mask & (1u << d)) == 0 && !gx_join_worth_waiting(st, d))
			continue;
		if (scratch && st->mscratch[d] == 0)
			continue;
		set.dev[set.n++] = d;
		set.mask |= 1u << d;
	}
	set.next = in->src.devs.next;
	gx_source_spread(&in->src, &set);
}

/* is the node's table to be copied to its other devices? */
static bool
gx_join_replicable(const GxJoinState *st)
{
	return st->devs.n > 1 && st->table != 0 && st->placed > 0 && st->nparts == 0 &&
		st->ndevparts == 0 &&
		!st->worker_table && !st->level && !st->group && !GX_JOIN_MODE_MARKS(st->mode);
}

/*
 * Do the copies pay (gpuext.join_replicas = auto)?  The probes of the outer side (the planner's rows)
 * take one device rows * ns; spread over the node's n devices they save
 * (n - 1) / n of that, while the n - 1 copies all leave the home device
 * over its links (the four H200s: three copies of a 16M-row counting
 * table, 0.9 GB each, took about 7 ms at once).  So copy when a device's
 * share of the probes takes longer than one copy: a 16M x 16M hash count
 * (3 ms of probes, 2.3 ms a copy) stays on home, whose probes the copies
 * would only slow (docs/bench/h200x4_multigpu.md); a merge join's
 * probes, which sort, or an outer side many times the inner, spread.
 */
static bool
gx_join_copies_pay(const GxJoinState *st, uint64 copy_bytes)
{
	if (gx_join_replicas != GX_JOIN_REPLICAS_AUTO)
		return gx_join_replicas == GX_JOIN_REPLICAS_ON;
	return gx_join_share_outlasts_copy(st, copy_bytes);
}

/*
 * The sealed table (st->table, on the home device) copied to every other
 * device of the node (see the design note): a replica object on each,
 * filled by an OBJ_COPY task of the probe parts submitted there.  The
 * copies are waited for, but a counting join reading its outer side
 * itself collects them as its probes go (gx_join_replicas_collect).
 */
void
gx_join_replicate(GxJoinState *st)
{
	gx_join_ext geom;
	gx_copy_range r[GX_COPY_MAX_RANGES];
	uint32		nr;
	uint64		bytes;

	if (!gx_join_replicable(st))
		return;
	memset(&geom, 0, sizeof(geom));
	geom.alg = st->alg;
	geom.cap = st->cap;
	geom.kcap = st->kcap;
	nr = gx_join_probe_ranges(&geom, gx_join_table_runs(st), r);
	bytes = gx_join_bytes(st, st->cap, st->kcap);
	st->copy_bytes = 0;
	for (uint32 i = 0; i < nr; i++)
		st->copy_bytes += r[i].bytes;
	if (!gx_join_copies_pay(st, st->copy_bytes))
		return;
	for (int i = 1; i < st->devs.n; i++)
	{
		int			d = st->devs.dev[i];
		int			slot;
		gx_chunk   *c;

		/* (no room on d within the limits: it probes nothing) */
		st->replica[d] = gx_session_try_alloc(st->session, d, bytes, GX_OBJ_JOIN_TABLE);
		if (st->replica[d] == 0)
			continue;
		CHECK_FOR_INTERRUPTS();
		slot = gx_join_acquire(st, true);
		c = gx_slot_chunk(slot);
		gx_task_init_plain(c, GX_TASK_OBJ_COPY, st->session);
		c->obj[0] = st->replica[d];
		c->obj[1] = st->table;
		c->input_bytes = GX_ALIGN_UP(sizeof(gx_chunk));
		c->result_off = c->input_bytes;
		c->ext.copy.nranges = nr;
		memcpy(c->ext.copy.range, r, sizeof(gx_copy_range) * nr);
		st->copy_gen[d] = gx_service_generation();
		st->copy_slot[d] = slot;
		st->ncopies++;
		gx_slot_submit(slot, d);
	}
	/* (only a counting join's own probes of its outer table go on meanwhile) */
	if (!(st->count && st->input[0].on && !st->nested))
		gx_join_replicas_collect(st, true);
}

/*
 * The copy to device d, done (or waited for): its replica is ready, or,
 * without device memory there, gone (another failure is the query's
 * ERROR); true when d's table is ready
 */
static bool
gx_join_copy_done(GxJoinState *st, int d)
{
	int			slot = st->copy_slot[d];
	gx_result  *res;

	st->copy_slot[d] = -1;
	st->ncopies--;
	if (!gx_slot_wait_memory(slot, st->copy_gen[d]))
	{
		st->replica[d] = 0;		/* (its slot released) */
		return false;
	}
	res = gx_join_result(slot);
	st->stats.replicas++;
	st->stats.replica_ms += res->kernel_ns / 1e6;
	gx_slot_release(slot);
	return true;
}

/*
 * The copies that are done (wait: all of them): each device whose copy
 * succeeded joins the probing devices, one whose copy had no device
 * memory is left out
 */
void
gx_join_replicas_collect(GxJoinState *st, bool wait)
{
	bool		changed = false;

	for (int d = 0; d < GX_MAX_DEVICES && st->ncopies > 0; d++)
	{
		if (st->copy_slot[d] < 0 || (!wait && !gx_slot_finished(st->copy_slot[d])))
			continue;
		(void) gx_join_copy_done(st, d);
		changed = true;
	}
	if (changed)
	{
		gx_join_pdevs_update(st);
		gx_join_outer_devs(st);
	}
}

/*
 * A probe was sent to device before its copy was seen done (ordered after
 * it there): was it lost with the copy (no device memory for the replica:
 * its result is not the table's)?  The copy is collected first.
 */
bool
gx_join_probe_lost(GxJoinState *st, int device)
{
	if (st->copy_slot[device] >= 0)
	{
		(void) gx_join_copy_done(st, device);
		gx_join_pdevs_update(st);
		gx_join_outer_devs(st);
	}
	return st->replica[device] == 0;
}

/*
 * A staging slot for a task of the node: one is waited for only when the
 * caller may wait, and never while the table's copies hold slots (a
 * backend waiting for a slot while it holds one could wait forever): they
 * are collected first
 */
int
gx_join_acquire(GxJoinState *st, bool wait)
{
	int			slot;

	if (st->ncopies > 0)
	{
		gx_join_replicas_collect(st, false);
		slot = gx_slot_acquire(false);
		if (slot >= 0 || !wait)
			return slot;
		gx_join_replicas_collect(st, true);
	}
	return gx_slot_acquire(wait);
}

/*
 * A JOIN_PROBE task going to device (home, or one of the outer side's
 * devices): it names that device's table, and runs after the table's copy
 * there while it is in flight (GX_FOLLOW_DEVICE); a merge probe whose rows
 * are not returned sorts in that device's scratch object when there is
 * one (after the device's other probes in flight, which share it), else
 * in its result area.  True when it follows the copy.
 */
bool
gx_join_probe_on(GxJoinState *st, gx_chunk *c, int device, bool rows)
{
	bool		pending = device != st->device && st->copy_slot[device] >= 0;

	if (device != st->device)
	{
		if (st->replica[device] == 0)
			elog(ERROR, "gpuext: GpuJoin probe on %s, which holds no table",
				 gx_device_name(device));
		c->obj[0] = st->replica[device];
	}
	c->ext.join.jflags &= ~GX_JOIN_MSCRATCH;
	c->obj[GX_JOIN_OBJ_MSCRATCH] = 0;
	c->follow = pending ? GX_FOLLOW_DEVICE : GX_FOLLOW_NONE;
	if (st->alg == GX_JOIN_MERGE && !rows && st->mscratch[device] != 0)
	{
		c->ext.join.jflags |= GX_JOIN_MSCRATCH;
		c->obj[GX_JOIN_OBJ_MSCRATCH] = st->mscratch[device];
		c->follow = GX_FOLLOW_DEVICE;
	}
	return pending;
}

/*
 * The device to probe a chunk of outer rows the node laid out: the least
 * loaded one holding the table
 */
int
gx_join_pick_device(GxJoinState *st)
{
	if (st->ncopies > 0)
		gx_join_replicas_collect(st, false);
	return gx_devset_pick(&st->pdevs);
}
