/*
 * ptree_lookup.cpp - gpuext_ptree_lookup(index, keys int8[], parts): a
 * batch of keys looked up in a gpuext_ptree index on the configured
 * device (gpuext.device), through the TREE_LOOKUP task (gx_ptree.cuh).
 *
 * Design note
 * -----------
 * The index's current device image (ptree_device.cpp: cached in the
 * backend while the index's change counter is unchanged) is a shared
 * object named by (index, relfilenode, change counter) and the image's
 * hash (shared_objects.cpp): the first call after a change writes it
 * (OBJ_WRITE tasks, gx_session_write, through a session opened for the
 * call), later calls of any backend name it and write nothing.  When it
 * cannot be had (another backend is writing it, no room within
 * gpuext.shared_object_memory) the image goes into a session object of
 * the call's session, as a copy of its own.  The keys then go in
 * TREE_LOOKUP tasks of as many
 * keys as a staging slot holds, each waited for; a key's run of the
 * image's TID array is read from the backend's own copy of the image.
 * The session is closed at the end (an ERROR closes it through its
 * resource owner).  The result is (key, tid) for each key of the array in
 * its order, each key's TIDs in the index's order; a NULL key matches
 * nothing.
 *
 * Visibility: by default these are the index's entries, as an index scan
 * has them before it visits the heap: TIDs of dead rows not yet vacuumed,
 * of aborted inserts, of rows the caller's snapshot does not see - and
 * the root of a HOT chain, whose visible version may lie elsewhere in the
 * chain.  The caller checks MVCC on the heap.  With visible => true the
 * function does what an index scan does: each entry's TID is fetched
 * through the table AM's index fetch (table_index_fetch_tuple: the HOT
 * chain followed, the query's active snapshot), and the TID of the row
 * version it sees is returned, entries it sees none of are left out; a
 * join on ctid = tid then gives exactly the visible rows.
 */
#include "gpuext.h"
#include "engine.h"
#include "ptree.h"
#include "shared_objects.h"

extern "C"
{
#include "access/relation.h"
#include "access/table.h"
#include "catalog/pg_am.h"
#include "commands/defrem.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
#include "utils/tuplestore.h"

PGDLLEXPORT Datum gpuext_ptree_lookup(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_ptree_lookup);
}

/* keys one TREE_LOOKUP task takes in a staging slot: its key, bitmap and run */
static uint32
ptree_lookup_batch(void)
{
	Size		room = gx_shared->slot_bytes - 2 * GX_ALIGN_UP(sizeof(gx_chunk)) -
		4 * GX_ALIGN;

	return (uint32) Min((Size) (room / (sizeof(int64) + sizeof(gx_search_run) + 1)),
						(Size) PG_INT32_MAX);
}

/*
 * One TREE_LOOKUP task of keys [from, from + n) of vals / nulls against the
 * image object obj, submitted and waited for; the runs into runs[from..]
 */
static void
ptree_lookup_task(uint32 session, int device, uint32 obj, const PtreeImage *img,
				  uint32 alg, uint32 parts, const Datum *vals, const bool *nulls,
				  uint32 from, uint32 n, gx_search_run *runs)
{
	int			slot = gx_slot_acquire(true);
	uint32		gen = gx_service_generation();
	gx_chunk   *c = gx_slot_chunk(slot);
	uint64		at = GX_ALIGN_UP(sizeof(gx_chunk));
	gx_result  *res;

	gx_task_init_plain(c, GX_TASK_TREE_LOOKUP, session);
	c->obj[0] = obj;
	c->follow = GX_FOLLOW_NONE;
	c->nrows = n;
	c->ncols = 1;
	c->ext.tree.alg = alg;
	c->ext.tree.parts = parts;
	c->ext.tree.nnodes = img->geom.nnodes;
	c->ext.tree.nleaves = img->geom.nleaves;
	c->ext.tree.ntids = img->geom.ntids;
	c->ext.tree.nlevel = img->geom.nlevel;
	memset(&c->cols[0], 0, sizeof(c->cols[0]));
	c->cols[0].type = GX_INT8;
	at = gx_task_put_int8_col(c, 0, at, vals + from, nulls + from, n);
	c->input_bytes = at;
	c->result_off = at;
	gx_slot_submit(slot, device);
	gx_slot_wait(slot, gen, GX_WAIT_SPIN_US);
	res = gx_chunk_result(c);
	if (res->error != GX_NO_ERROR || res->nsel != n)
	{
		gx_slot_release(slot);
		elog(ERROR, "gpuext: a tree lookup task failed (code %d)", (int) (res->error & 0xff));
	}
	memcpy(runs + from, (char *) res + gx_search_runs_off(), (Size) n * sizeof(gx_search_run));
	gx_slot_release(slot);
}

/*
 * The row version of index entry *tid the active snapshot sees, as an
 * index scan fetches it (the HOT chain from its root followed): true and
 * *tid its TID, or false when the snapshot sees none
 */
static bool
ptree_lookup_visible(IndexFetchTableData *fetch, TupleTableSlot *slot, ItemPointer tid)
{
	bool		call_again = false,
				all_dead = false;

	if (!table_index_fetch_tuple(fetch, tid, GetActiveSnapshot(), slot, &call_again, &all_dead))
		return false;
	*tid = slot->tts_tid;
	ExecClearTuple(slot);
	return true;
}

/*
 * The device copy of img for a call of 'session': a shared object held
 * for the call (*shared its handle; written now if this backend is the
 * first to need it), or a session object written now (*shared 0)
 */
static uint32
ptree_lookup_image_object(Relation index, const PtreeImage *img, uint32 session, int device,
						  uint32 *shared)
{
	GxSharedKey key;
	bool		write;
	uint32		obj;

	memset(&key, 0, sizeof(key));
	key.dbid = MyDatabaseId;
	key.relid = RelationGetRelid(index);
	key.filenode = img->filenode;
	key.kind = GX_SHOBJ_PTREE_IMAGE;
	key.version = img->change_count;
	key.check = img->check;
	*shared = obj = gx_shobj_acquire(&key, device, img->nbytes, session, &write);
	if (obj != 0)
	{
		if (write)
		{
			gx_session_write(session, device, obj, img->bytes, 0, img->nbytes);
			gx_shobj_ready(obj);
		}
		return obj;
	}
	obj = gx_session_alloc(session, device, img->nbytes, GX_OBJ_PTREE_IMAGE);
	gx_session_write(session, device, obj, img->bytes, 0, img->nbytes);
	gx_shobj_count_session_copy(img->nbytes);
	return obj;
}

/*
 * gpuext_ptree_lookup(index regclass, keys int8[], parts int, visible
 * bool): (key, tid) of every index entry of each key, looked up on the
 * configured device; parts 0 (or 1): a sequential walk a key; 2, 4, 8,
 * 16: speculative partitioned traversal in that many partitions; visible:
 * the TIDs of the row versions the active snapshot sees instead
 */
Datum
gpuext_ptree_lookup(PG_FUNCTION_ARGS)
{
	Oid			indexoid = PG_GETARG_OID(0);
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(1);
	int32		parts = PG_GETARG_INT32(2);
	bool		visible = PG_GETARG_BOOL(3);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Relation	index;
	Oid			heapoid;
	Datum	   *vals;
	bool	   *nulls;
	int			nkeys;
	PtreeImage *img;
	bool		reused;
	gx_search_run *runs;
	int			device;
	uint32		session,
				obj,
				shared;
	const uint32 batch = ptree_lookup_batch();
	Relation	heap = NULL;
	IndexFetchTableData *fetch = NULL;
	TupleTableSlot *slot = NULL;

	if (parts != 0 && parts != 1 && parts != 2 && parts != 4 && parts != 8 &&
		parts != GX_PT_MAX_PARTS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("parts must be 0 (a sequential walk), 2, 4, 8 or 16, not %d", parts)));
	index = relation_open(indexoid, AccessShareLock);
	if (index->rd_rel->relkind != RELKIND_INDEX ||
		index->rd_rel->relam != get_index_am_oid("gpuext_ptree", false))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a gpuext_ptree index", RelationGetRelationName(index))));
	heapoid = index->rd_index->indrelid;
	if (pg_class_aclcheck(heapoid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for table %s", get_rel_name(heapoid))));
	deconstruct_array(arr, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &vals, &nulls, &nkeys);
	InitMaterializedSRF(fcinfo, 0);

	img = ptree_device_image(index, &reused);
	ereport(DEBUG1,
			(errmsg_internal("gpuext_ptree_lookup: device image of \"%s\" %s at change %llu: "
							 "%u nodes, %u keys, %u TIDs",
							 RelationGetRelationName(index), reused ? "reused" : "built",
							 (unsigned long long) img->change_count, img->geom.nnodes,
							 img->geom.nleaves, img->geom.ntids)));
	runs = (gx_search_run *) palloc_extended(Max((Size) nkeys, 1) * sizeof(gx_search_run),
											 MCXT_ALLOC_HUGE);
	if (nkeys > 0)
	{
		device = gx_resolve_device();
		session = gx_session_open(device);
		obj = ptree_lookup_image_object(index, img, session, device, &shared);
		for (uint32 from = 0; from < (uint32) nkeys; from += batch)
		{
			CHECK_FOR_INTERRUPTS();
			ptree_lookup_task(session, device, obj, img,
							  parts > 1 ? GX_TREE_SPEC : GX_TREE_SEQ, parts > 1 ? parts : 0,
							  vals, nulls, from, Min(batch, (uint32) nkeys - from), runs);
		}
		if (shared != 0)
			gx_shobj_release(shared);
		gx_session_close(session);
	}
	if (visible)
	{
		heap = table_open(heapoid, AccessShareLock);
		fetch = table_index_fetch_begin(heap);
		slot = table_slot_create(heap, NULL);
	}
	for (int i = 0; i < nkeys; i++)
	{
		Datum		out[2];
		bool		outnull[2] = {false, false};
		uint64		end = (uint64) runs[i].start + runs[i].count;

		if (end > img->geom.ntids)
			elog(ERROR, "gpuext: a tree lookup's run lies outside the image");
		out[0] = vals[i];
		for (uint64 t = runs[i].start; t < end; t++)
		{
			ItemPointerData *tid = (ItemPointerData *) palloc(sizeof(ItemPointerData));

			ItemPointerSet(tid, (BlockNumber) (img->tids[t] >> 16),
						   (OffsetNumber) (img->tids[t] & 0xFFFF));
			if (visible && !ptree_lookup_visible(fetch, slot, tid))
			{
				pfree(tid);
				continue;
			}
			out[1] = PointerGetDatum(tid);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, out, outnull);
			pfree(tid);
		}
	}
	if (visible)
	{
		ExecDropSingleTupleTableSlot(slot);
		table_index_fetch_end(fetch);
		table_close(heap, AccessShareLock);
	}
	relation_close(index, AccessShareLock);
	PG_RETURN_NULL();
}
