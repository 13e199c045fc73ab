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
 * obj[GX_TASK_OBJ_SETS]; each set's header in the constant table gets the
 * place of its first value.  The values travel in OBJ_WRITE tasks, as
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
}

/*
 * Put the program's big sets in the scan's sets object (made or grown as
 * needed) and their places in their headers; nothing when the program has
 * none or this run evaluates its device quals on the host.
 */
void
gx_scan_sets_upload(GxScanState *st)
{
	GxProgram  *p = st->prog;
	uint64		total = 0;

	if (p->nbig == 0 || st->host_run || (!p->big_changed && st->sets_obj != 0))
		return;					/* (a rescan whose sets are all Consts': in place) */
	for (int i = 0; i < p->nbig; i++)
	{
		p->consts[p->big[i].k + 2].v.i = (int64) total;
		total += (uint64) p->big[i].n;
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
		const char *vals = (const char *) p->big[i].vals;
		uint64		bytes = (uint64) p->big[i].n * sizeof(int64);
		uint64		dst = (uint64) p->consts[p->big[i].k + 2].v.i * sizeof(int64);

		gx_session_write(st->session, st->device, st->sets_obj, vals, dst, bytes);
	}
	p->big_changed = false;
}
