/*
 * scan_sets.cpp - a GpuScan's big sets (= ANY / <> ALL over a long array
 * or an array Param: GX_OP_INBIGSET) in device memory.
 *
 * Design note
 * -----------
 * At scan start (and rescan) gx_program_fill has built each big set of the
 * program: sorted, distinct int64 device values (GxProgram.big).  Here
 * they go, one after the other, into one session object of the scan's
 * session, which every FILTER / CACHE_SCAN task of the scan names as
 * obj[GX_TASK_OBJ_SETS], each set's values followed by its top keys (a
 * power of 2 of them, gpuext.search_top_keys at most: the first value of
 * each segment, which a GPU filter block keeps in shared memory,
 * gx_sets.cuh); each set's header in the constant table gets the place of
 * its first value, the search (gpuext.search) and its number of top keys.  The values travel in OBJ_WRITE tasks, as
 * many as the staging slot's size needs, each ordered after every task of
 * the session still in flight (GX_FOLLOW_SESSION: the chunks of a rescan's
 * abandoned loop may still read the object being overwritten) and waited
 * for, so that every chunk submitted afterwards finds the sets in place.
 * The object is kept for later rescans whose sets fit it (and not written
 * again when they are all a Const array's, built once); it goes with the
 * session.  A parallel worker makes its own object in the leader's session
 * (its Params give the same sets; each process fills and names its own).
 */
#include "gpuext.h"
#include "executor.h"

extern "C"
{
#include "miscadmin.h"
#include "portability/instr_time.h"
}

/*
 * The top keys of a big set of n values (gx_program.h): gpuext.search_top_keys
 * rounded down to a power of 2, at most n / 8 (a segment of 8 values or
 * more), 0 for a small set
 */
static uint32
gx_sets_top_count(int64 n)
{
	int64		want = Min((int64) gx_search_top_keys, n / 8);
	uint32		t = 1;

	if (want < 2)
		return 0;
	while ((int64) t * 2 <= want && t < (1u << GX_BIGSET_TOP_MAX_LOG2))
		t *= 2;
	return t;
}

/*
 * Put the program's big sets in the scan's sets object (made or grown as
 * needed): each set's values, then its top keys (gx_sets_top_count), and
 * its place, the search (gpuext.search) and its top keys in its header;
 * nothing when the program has none or this run evaluates its device
 * quals on the host.
 */
void
gx_scan_sets_upload(GxScanState *st)
{
	GxProgram  *p = st->prog;
	uint64		total = 0;
	uint32		top[GX_MAX_BIGSETS];
	instr_time	t0,
				t1;

	if (p->nbig == 0 || st->host_run || (!p->big_changed && st->sets_obj != 0))
		return;					/* (a rescan whose sets are all Consts': in place) */
	INSTR_TIME_SET_CURRENT(t0);
	for (int i = 0; i < p->nbig; i++)
	{
		gx_const   *h = &p->consts[p->big[i].k];
		int			log2t = 0;

		top[i] = gx_sets_top_count(p->big[i].n);
		while (top[i] > 0 && (1u << log2t) < top[i])
			log2t++;
		h[1].v.i = (h[1].v.i & GX_RUN_HAS_NULL) |
			(gx_search == GX_SEARCH_PARY ? GX_BIGSET_PARY : 0) |
			(top[i] > 0 ? (int64) (log2t + 1) << GX_BIGSET_TOP_SHIFT : 0);
		h[2].v.i = (int64) total;
		total += (uint64) p->big[i].n + top[i];
	}
	if (total == 0)
		return;
	gx_scan_session(st);
	if (st->sets_obj == 0 || st->sets_bytes < total * sizeof(int64))
	{
		/* (a smaller one goes with the session) */
		st->sets_obj = gx_session_alloc(st->session, st->device, total * sizeof(int64),
										GX_OBJ_SETS);
		st->sets_bytes = total * sizeof(int64);
	}
	for (int i = 0; i < p->nbig; i++)
	{
		const GxBigSet *b = &p->big[i];
		uint64		dst = (uint64) p->consts[b->k + 2].v.i * sizeof(int64);
		int64	   *keys = top[i] > 0 ? (int64 *) palloc(top[i] * sizeof(int64)) : NULL;

		gx_session_write(st->session, st->device, st->sets_obj, (const char *) b->vals, dst,
						 (uint64) b->n * sizeof(int64));
		/* its top keys: the first value of each segment */
		for (uint32 j = 0; j < top[i]; j++)
			keys[j] = b->vals[gx_bigset_seg(j, b->n, top[i])];
		if (keys != NULL)
		{
			gx_session_write(st->session, st->device, st->sets_obj, (const char *) keys,
							 dst + (uint64) b->n * sizeof(int64), top[i] * sizeof(int64));
			pfree(keys);
		}
	}
	p->big_changed = false;
	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	p->big_ms += INSTR_TIME_GET_MILLISEC(t1);
}
