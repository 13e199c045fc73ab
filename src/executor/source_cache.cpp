/*
 * source_cache.cpp - the device-resident column cache as a row source
 * (the cache itself: src/cache/cache.cpp).
 *
 * At scan start the relation's ready entries that hold every column of the
 * program are listed in block order (gx_source_cache_begin); heap reading
 * stops at the next entry's first block (stop_block).  There the entry is
 * pinned through the staging slot (eviction and refresh respect entries a
 * slot refers to), its blocks are checked (src/cache/blocks.cpp), and it is
 * sent as a CACHE_SCAN task: only the header goes to the device, with a
 * bitmap of the entry's stale blocks when it has some, and the device
 * reads the entry's columns, skips the stale blocks' rows and writes row
 * map values into the selection.  A selected row is fetched from its heap
 * page by (block, offset) (gx_fetch_cached).  The stale blocks are read
 * from the heap right after the entry, in the scan's snapshot.
 */
#include "gpuext.h"
#include "compat.h"
#include "executor.h"

extern "C"
{
#include "access/heapam.h"
#include "storage/bufmgr.h"
#include "storage/lwlock.h"
#include "miscadmin.h"
#include "utils/rel.h"
}

static int
gx_cref_cmp(const void *a, const void *b)
{
	BlockNumber x = ((const GxCacheRef *) a)->start;
	BlockNumber y = ((const GxCacheRef *) b)->start;

	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * At scan start: the READY entries of the scanned relation that hold every
 * column of the program and lie where the source's devices can read them,
 * in block order (src->crefs).  None when the cache is off or the scan
 * cannot use it.
 */
void
gx_source_cache_begin(GxSource *src)
{
	Relation	rel = src->rel;
	GxProgram  *p = src->prog;
	int			n = 0;

	src->ncrefs = 0;
	src->cidx = 0;
	if (!gx_use_cache || src->no_cache || gx_cache == NULL || gx_cache->nunits == 0 ||
		!src->device_deform || !src->pagemode ||
		src->scan->rs_parallel != NULL || p->ncols == 0 || !gx_cache_rel_ok(rel))
		return;
	if (src->crefs == NULL)
		src->crefs = (GxCacheRef *) palloc(sizeof(GxCacheRef) * gx_cache->nentries);

	LWLockAcquire(gx_cache->lock, LW_SHARED);
	for (int i = 0; i < gx_cache->nentries; i++)
	{
		GxCacheEntry *e = &gx_cache->entries[i];
		GxCacheRef *r = &src->crefs[n];
		bool		ok = true;

		if (e->state != GX_CE_READY || e->dbid != MyDatabaseId ||
			e->relid != RelationGetRelid(rel) ||
			e->relfilenode != GX_REL_FILENUMBER(rel) ||
			gx_cache_run_device(&src->devs, gx_cache_entry_device(i)) < 0)
			continue;
		for (int c = 0; c < p->ncols && ok; c++)
		{
			int			k;

			for (k = 0; k < e->ncols; k++)
				if (e->attnum[k] == p->col_attno[c] && e->typid[k] == p->col_typid[c] &&
					e->gxtype[k] == p->col_type[c] && e->scale[k] == p->col_scale[c])
					break;
			if (k == e->ncols)
				ok = false;
			else
			{
				r->values_off[c] = e->values_off[k];
				r->nulls_off[c] = e->nulls_off[k];
			}
		}
		if (!ok)
			continue;
		gx_cache_ref_fill(i, r);
		n++;
	}
	LWLockRelease(gx_cache->lock);
	qsort(src->crefs, n, sizeof(GxCacheRef), gx_cref_cmp);
	src->ncrefs = n;
}

/* block where heap reading must stop: the next cache entry, if any */
void
gx_set_stop_block(GxSource *src)
{
	src->stop_block = src->cidx < src->ncrefs ? src->crefs[src->cidx].start : InvalidBlockNumber;
}

/*
 * If the scan stands at the first block of a cache entry, fill the chunk
 * with a reference to it (program + entry-relative column directory, and
 * the bitmap of its stale blocks) and return its rows; the entry is pinned
 * through the slot, and its stale blocks are read from the heap next.  An
 * entry that cannot be used is skipped: its blocks are read from the
 * heap.  Returns false when no entry was used.
 */
bool
gx_fill_cached(GxSource *src, GxBatch *b, gx_chunk *c, int slot)
{
	HeapScanDesc hs = (HeapScanDesc) src->scan;
	GxCacheRef *r;
	GxBlockView v;
	uint32		nwords;

	while (src->cidx < src->ncrefs && src->crefs[src->cidx].start < src->next_block)
		src->cidx++;
	if (src->cidx >= src->ncrefs || src->crefs[src->cidx].start != src->next_block ||
		(src->page_valid && src->cur_line < (int) hs->rs_ntuples) ||
		src->ipending < src->npending)
	{
		gx_set_stop_block(src);
		return false;
	}
	r = &src->crefs[src->cidx++];
	gx_set_stop_block(src);
	if (src->skip == NULL)
	{
		src->skip = (uint32 *) MemoryContextAlloc(src->cxt, sizeof(uint32) * (GX_VM_BLOCKS_PER_PAGE / 32 + 1));
		src->pending = (BlockNumber *) MemoryContextAlloc(src->cxt, sizeof(BlockNumber) * GX_VM_BLOCKS_PER_PAGE);
	}
	v.skip = src->skip;
	if (r->start + r->nblocks > hs->rs_nblocks || r->nblocks > GX_VM_BLOCKS_PER_PAGE ||
		!gx_cache_view(r, &v, slot))
	{
		src->stats->cache_invalid++;
		return false;
	}
	if (!gx_cache_check_blocks(src->rel, &src->vmbuf, r, &v) || v.nskip == r->nblocks)
	{
		gx_shared->slots[slot].cache_entry = -1;
		src->stats->cache_invalid++;
		return false;
	}
	gx_cache_touch(r->idx);

	c->deform_off = 0;
	c->nrows = r->nrows;
	c->input_bytes = GX_ALIGN_UP(sizeof(gx_chunk));
	c->ext.skip_blocks = 0;
	c->ext.skip_off = 0;
	if (v.nskip > 0 || v.padded)
	{
		/* the stale blocks' bitmap follows the header */
		nwords = (r->nblocks + 31) / 32;
		c->ext.skip_blocks = r->nblocks;
		c->ext.skip_off = c->input_bytes;
		memcpy((char *) c + c->input_bytes, v.skip, sizeof(uint32) * nwords);
		c->input_bytes = GX_ALIGN_UP(c->input_bytes + sizeof(uint32) * nwords);
	}
	c->result_off = c->input_bytes;
	for (int i = 0; i < src->prog->ncols; i++)
	{
		c->cols[i].values_off = r->values_off[i];
		c->cols[i].nulls_off = r->nulls_off[i];
		c->cols[i].type = src->prog->col_type[i];
		c->cols[i].scale = src->prog->col_scale[i];
	}
	c->kind = GX_TASK_CACHE_SCAN;
	c->ext.entry = r->idx;
	c->ext.map_sel = src->need_rows ? 1 : 0;
	c->ext.rowmap_off = r->rowmap_off;
	b->cached = true;
	b->device = gx_cache_run_device(&src->devs, r->device);
	b->cache_start = r->start;
	b->skipped_rows = v.nskip > 0 ? gx_cache_skipped_rows(r, &v) : 0;
	b->npins = 0;
	/* the stale blocks are read next, from the heap */
	src->npending = 0;
	for (uint32 i = 0; i < r->nblocks && v.nskip > 0; i++)
		if ((v.skip[i / 32] >> (i % 32)) & 1)
			src->pending[src->npending++] = r->start + i;
	src->ipending = 0;
	src->next_block = r->start + r->nblocks;
	src->page_valid = false;
	src->stats->cache_chunks++;
	src->stats->cache_stale_blocks += v.nskip;
	for (int i = 0; i < src->prog->ncols; i++)
		src->stats->cache_bytes += (int64) r->nrows * gx_type_width(src->prog->col_type[i]);
	src->stats->cache_rows += r->nrows - b->skipped_rows;
	pg_atomic_fetch_add_u64(&gx_cache->entries[r->idx].rows_device, r->nrows - b->skipped_rows);
	if (v.nskip > 0)
		pg_atomic_fetch_add_u64(&gx_cache->entries[r->idx].blocks_heap, v.nskip);
	return true;
}

/*
 * Read the blocks of cached batch b, the last one filled, from the heap
 * next, as if all of them were stale (in the scan's snapshot): for a
 * node that gives the batch up before returning any of its rows
 */
void
gx_source_cache_reread(GxSource *src, GxBatch *b)
{
	BlockNumber end = src->next_block;

	if (!b->cached || end < b->cache_start || end - b->cache_start > GX_VM_BLOCKS_PER_PAGE)
		elog(ERROR, "gpuext: no cached batch to read again");
	src->npending = 0;
	for (BlockNumber blk = b->cache_start; blk < end; blk++)
		src->pending[src->npending++] = blk;
	src->ipending = 0;
	src->page_valid = false;
	src->heap_done = false;		/* (said at the fill when the entry was the last) */
	src->stats->cache_chunks--;
	src->cache_reread++;
}

/*
 * A row selected from a cache entry: the tuple at (block, offset) of the
 * heap, returned from its pinned buffer.  The entry was valid when the
 * chunk was sent, so the tuple is there and visible to the scan.
 */
TupleTableSlot *
gx_fetch_cached(GxSource *src, GxBatch *b, uint32 m, TupleTableSlot *slot)
{
	BlockNumber blk = b->cache_start + (m >> 16);
	OffsetNumber off = (OffsetNumber) (m & 0xFFFF);
	HeapTuple	t = &src->cur_tup;
	Page		page;
	ItemId		lpp;

	if (blk != src->fetch_blk || !BufferIsValid(src->fetch_buf))
	{
		if (BufferIsValid(src->fetch_buf))
			ReleaseBuffer(src->fetch_buf);
		src->fetch_buf = InvalidBuffer;
		src->fetch_buf = ReadBufferExtended(src->rel, MAIN_FORKNUM, blk, RBM_NORMAL, NULL);
		src->fetch_blk = blk;
	}
	/*
	 * No content lock: like heapgettup_pagemode() reading a tuple after
	 * gx_heap_read_page() (heapgetpage before PostgreSQL 17), the pin keeps the line pointer and the tuple in place
	 * (pruning needs a cleanup lock); concurrent inserts only add items.
	 */
	page = BufferGetPage(src->fetch_buf);
	if (off < FirstOffsetNumber || off > PageGetMaxOffsetNumber(page) ||
		!ItemIdIsNormal(PageGetItemId(page, off)))
		elog(ERROR, "gpuext: cached row (%u,%u) of \"%s\" is not in the heap",
			 blk, off, RelationGetRelationName(src->rel));
	lpp = PageGetItemId(page, off);
	t->t_data = (HeapTupleHeader) PageGetItem(page, lpp);
	t->t_len = ItemIdGetLength(lpp);
	t->t_tableOid = RelationGetRelid(src->rel);
	ItemPointerSet(&t->t_self, blk, off);
	return ExecStoreBufferHeapTuple(t, slot, src->fetch_buf);
}

