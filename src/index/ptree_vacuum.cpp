/*
 * ptree_vacuum.cpp - VACUUM of gpuext_ptree: ambulkdelete removes the
 * dead TIDs from every entry (the leaf pages in block order), in place;
 * amvacuumcleanup counts what is left.  A page with a dead TID is changed
 * under the metapage's exclusive lock (changes are serial, ptree_page.cpp)
 * in one generic WAL record with the metapage, whose change counter it
 * bumps.  An entry emptied stays: its key keeps its place in the tree and
 * takes TIDs again; the tree itself shrinks only by REINDEX.
 */
#include "gpuext.h"
#include "compat.h"
#include "ptree.h"

extern "C"
{
#include "commands/vacuum.h"
#include "miscadmin.h"
}

/* does an entry hold a TID that callback calls dead? */
static bool
ptree_vacuum_has_dead(PtreeEntry *e, IndexBulkDeleteCallback callback, void *state)
{
	ItemPointerData *tids = PtreeEntryTids(e);

	for (int i = 0; i < e->ntids; i++)
		if (callback(&tids[i], state))
			return true;
	return false;
}

/* remove the dead TIDs of the leaf page at buf (pinned, not locked) */
static void
ptree_vacuum_page(Relation index, Buffer buf, IndexBulkDeleteResult *stats,
				  IndexBulkDeleteCallback callback, void *state)
{
	Buffer		metabuf = ReadBuffer(index, PTREE_METAPAGE_BLKNO);
	GenericXLogState *xs;
	Page		page;
	PtreeMeta  *meta;
	OffsetNumber maxoff;
	uint64		removed = 0;

	/* the metapage first: the order of every change */
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	xs = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(xs, buf, 0);
	maxoff = PageGetMaxOffsetNumber(page);
	for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++)
	{
		ItemId		iid = PageGetItemId(page, off);
		PtreeEntry *e;
		PtreeEntry *kept;
		int			n = 0;

		if (!ItemIdIsNormal(iid))
			continue;
		e = (PtreeEntry *) PageGetItem(page, iid);
		if (!ptree_vacuum_has_dead(e, callback, state))
			continue;
		kept = (PtreeEntry *) palloc(ItemIdGetLength(iid));
		memcpy(kept, e, PtreeEntryTidOff(e->keylen));
		for (int i = 0; i < e->ntids; i++)
		{
			ItemPointerData *tid = &PtreeEntryTids(e)[i];

			if (callback(tid, state))
				removed++;
			else
				PtreeEntryTids(kept)[n++] = *tid;
		}
		kept->ntids = (uint16) n;
		if (!PageIndexTupleOverwrite(page, off, (Item) kept, PtreeEntrySize(kept->keylen, n)))
			elog(ERROR, "gpuext_ptree: could not shrink an entry");
		pfree(kept);
	}
	if (removed > 0)
	{
		meta = PtreePageGetMeta(GenericXLogRegisterBuffer(xs, metabuf, 0));
		meta->change_count++;
		meta->ntids -= Min(meta->ntids, removed);
		GenericXLogFinish(xs);
	}
	else
		GenericXLogAbort(xs);
	stats->tuples_removed += removed;
	LockBuffer(buf, BUFFER_LOCK_UNLOCK);
	UnlockReleaseBuffer(metabuf);
}

/* the TIDs of a leaf page */
static double
ptree_vacuum_count(Page page)
{
	double		n = 0;
	OffsetNumber maxoff = PageGetMaxOffsetNumber(page);

	for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++)
	{
		ItemId		iid = PageGetItemId(page, off);

		if (ItemIdIsNormal(iid))
			n += ((PtreeEntry *) PageGetItem(page, iid))->ntids;
	}
	return n;
}

/*
 * Visit every leaf page: with a callback, remove its dead TIDs; count the
 * TIDs and pages left into stats.
 */
static void
ptree_vacuum_scan(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
				  IndexBulkDeleteCallback callback, void *state)
{
	Relation	index = info->index;
	BlockNumber nblocks = RelationGetNumberOfBlocks(index);

	stats->num_index_tuples = 0;
	for (BlockNumber blk = PTREE_METAPAGE_BLKNO + 1; blk < nblocks; blk++)
	{
		Buffer		buf;
		Page		page;
		bool		dead = false;

		GX_VACUUM_DELAY_POINT();
		buf = ReadBufferExtended(index, MAIN_FORKNUM, blk, RBM_NORMAL, info->strategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (ptree_page_ok(page, PTREE_PAGE_LEAF) && callback != NULL)
		{
			OffsetNumber maxoff = PageGetMaxOffsetNumber(page);

			for (OffsetNumber off = FirstOffsetNumber; off <= maxoff && !dead; off++)
			{
				ItemId		iid = PageGetItemId(page, off);

				dead = ItemIdIsNormal(iid) &&
					ptree_vacuum_has_dead((PtreeEntry *) PageGetItem(page, iid), callback, state);
			}
		}
		LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		if (dead)
			ptree_vacuum_page(index, buf, stats, callback, state);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		if (ptree_page_ok(page, PTREE_PAGE_LEAF))
			stats->num_index_tuples += ptree_vacuum_count(page);
		UnlockReleaseBuffer(buf);
	}
	stats->num_pages = nblocks;
	stats->estimated_count = false;
}

/* ambulkdelete: remove the TIDs callback calls dead */
IndexBulkDeleteResult *
ptree_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
				 IndexBulkDeleteCallback callback, void *callback_state)
{
	if (stats == NULL)
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
	ptree_vacuum_scan(info, stats, callback, callback_state);
	return stats;
}

/* amvacuumcleanup: the counts, when no bulkdelete ran */
IndexBulkDeleteResult *
ptree_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	if (info->analyze_only)
		return stats;
	if (stats == NULL)
	{
		stats = (IndexBulkDeleteResult *) palloc0(sizeof(IndexBulkDeleteResult));
		ptree_vacuum_scan(info, stats, NULL, NULL);
	}
	return stats;
}
