/*
 * source_heap.cpp - the heap as a row source: a relation read into
 * batches for the device, in the scan's snapshot.
 *
 * Design note
 * -----------
 * A row source (GxSource, executor.h) is what a device node reads its
 * input from; it is separate from the device pipeline (tasks in flight,
 * their collection: gpuscan.cpp) and from what the node returns (rows,
 * or a row of aggregates).  GpuScan uses it today; GpuJoin and GpuPreAgg
 * read their base relations through the same interface.  It fills a
 * batch (a staging slot's payload) in one of four ways, chosen at scan
 * start and per block:
 *
 *  - a cache entry (source_cache.cpp): only the header goes to the device,
 *    which reads the entry's columns;
 *  - heap pages for the device (device deform, the default): whole pages
 *    read with gx_heap_read_page() are copied with a row map of the tuples the
 *    snapshot sees; the device deforms the needed columns;
 *  - heap pages deformed here (gpuext.device_deform off, or columns the
 *    device deformer cannot take): the needed columns, column-major, with
 *    a validity bitmap each (directly at their fixed offset when the tuple
 *    has no NULL, else with heap_getattr);
 *  - tuples of a non-page-mode scan (a non-MVCC snapshot), deformed here.
 *
 * gx_heap_read_page() (heapgetpage) decides visibility exactly as a sequential scan does
 * (all-visible pages skip the per-tuple check; SSI conflicts are checked).
 * The batch keeps a pin on every heap page it holds rows of until the
 * batch is consumed (like heapam's page-at-a-time scan, a pin keeps the
 * tuples of a page in place), so a selected row is returned by storing its
 * HeapTuple into a buffer-heap slot (gx_source_row): no copy, no second
 * lookup, and only projected columns are ever deformed for output.
 */
#include "gpuext.h"
#include "compat.h"
#include "executor.h"

extern "C"
{
#include "access/heapam.h"
#include "storage/bufmgr.h"
#include "miscadmin.h"
#include "utils/rel.h"
}

/* layout of a chunk for this scan's columns */
static void
gx_plan_layout(GxSource *src)
{
	GxProgram  *p = src->prog;
	uint64		row_bytes = 4 + 8;	/* selection entry + slack */
	uint64		rows;
	uint64		off;

	for (int i = 0; i < p->ncols; i++)
		row_bytes += 8 + 1;		/* value (padded) + bitmap, generously */
	row_bytes += src->result_row_bytes;
	rows = (gx_shared->slot_bytes - sizeof(gx_chunk) - 4096 - src->result_fixed_bytes -
			(uint64) GX_MAX_COLS * 2 * GX_ALIGN) / row_bytes;
	rows = Min(rows, (uint64) gx_chunk_rows);
	rows = Max(rows, (uint64) 1024);
	rows &= ~((uint64) 7);
	src->rows_per_chunk = (uint32) rows;

	off = gx_layout_columns(p->col_type, p->ncols, GX_ALIGN_UP(sizeof(gx_chunk)), rows,
							src->col_values_off, src->col_nulls_off);
	src->input_bytes = off;
	src->result_off = off;
	if (off + gx_result_bytes((uint32) rows) > gx_shared->slot_bytes)
		elog(ERROR, "gpuext: chunk layout does not fit a staging slot");
}

/* fixed offsets of the needed columns in tuples without NULLs */
static void
gx_fast_offsets(GxSource *src)
{
	TupleDesc	desc = RelationGetDescr(src->rel);
	int			off = 0;
	int			valid_upto = 0;
	int		   *offs = (int *) palloc(sizeof(int) * (desc->natts + 1));

	src->maxatt = 0;
	for (int i = 0; i < src->prog->ncols; i++)
		src->maxatt = Max(src->maxatt, src->prog->col_attno[i]);
	for (int a = 1; a <= desc->natts && a <= src->maxatt; a++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, a - 1);

		if (att->attlen <= 0)
			break;
		off = att_align_nominal(off, att->attalign);
		offs[a] = off;
		off += att->attlen;
		valid_upto = a;
	}
	for (int i = 0; i < src->prog->ncols; i++)
	{
		int			a = src->prog->col_attno[i];

		src->fast_off[i] = (a <= valid_upto) ? offs[a] : -1;
	}
	pfree(offs);
}

/*
 * Device deforming: describe attributes 1 .. maxatt for the deformer.
 * Off when disabled or when the snapshot is not an MVCC one (no page mode).
 */
static void
gx_plan_deform(GxSource *src, EState *estate)
{
	int			maxatt;

	src->device_deform = gx_device_deform && IsMVCCSnapshot(estate->es_snapshot);
	if (!src->device_deform)
		return;
	src->atts = (gx_attr *) palloc0(sizeof(gx_attr) * GX_MAX_DEFORM_ATTS);
	src->device_deform = gx_deform_atts(RelationGetDescr(src->rel), src->prog->ncols,
									   src->prog->col_attno, src->prog->col_type,
									   src->prog->col_scale, src->atts, &maxatt);
}

/* write the needed columns of one tuple as row n of the chunk */
static inline void
gx_deform_row(GxSource *src, gx_chunk *c, uint32 n, HeapTuple tup,
			  TupleDesc desc, bool *has_nulls)
{
	GxProgram  *p = src->prog;
	HeapTupleHeader th = tup->t_data;
	bool		fast = !HeapTupleHasNulls(tup) &&
		HeapTupleHeaderGetNatts(th) >= src->maxatt;
	const char *tp = (const char *) th + th->t_hoff;

	for (int i = 0; i < p->ncols; i++)
	{
		char	   *vals = (char *) c + src->col_values_off[i];
		Datum		d;
		bool		isnull = false;

		if (fast && src->fast_off[i] >= 0)
		{
			/* no NULL, fixed offset: the value's bytes as they are */
			const char *from = tp + src->fast_off[i];
			uint32		w = gx_type_width((uint32) p->col_type[i]);

			memcpy(vals + (uint64) n * w, from, w);
			if (p->col_type[i] == GX_BOOL)
				vals[n] = vals[n] != 0;
			continue;
		}
		d = heap_getattr(tup, p->col_attno[i], desc, &isnull);
		if (isnull)
		{
			uint8	   *bm = (uint8 *) c + src->col_nulls_off[i];

			bm[n >> 3] |= (uint8) (1 << (n & 7));
			has_nulls[i] = true;
		}
		gx_store_datum_scale(vals, p->col_type[i], p->col_scale[i], n, d, isnull);
	}
}

/*
 * Page mode: fill rows from heap pages read with gx_heap_read_page().  The scan
 * keeps its pin on the current page; the batch takes one more per page.
 */
static uint32
gx_fill_pages(GxSource *src, GxBatch *b, gx_chunk *c, bool *has_nulls)
{
	HeapScanDesc hs = (HeapScanDesc) src->scan;
	TupleDesc	desc = RelationGetDescr(src->rel);
	Oid			relid = RelationGetRelid(src->rel);
	uint32		n = 0;

	while (n < src->rows_per_chunk)
	{
		if (src->page_valid && src->cur_line < (int) hs->rs_ntuples)
		{
			Page		page = BufferGetPage(hs->rs_cbuf);

			if (b->npins == 0 || b->pins[b->npins - 1] != hs->rs_cbuf)
			{
				IncrBufferRefCount(hs->rs_cbuf);
				b->pins[b->npins++] = hs->rs_cbuf;
			}
			while (n < src->rows_per_chunk && src->cur_line < (int) hs->rs_ntuples)
			{
				OffsetNumber off = hs->rs_vistuples[src->cur_line++];
				ItemId		lpp = PageGetItemId(page, off);
				HeapTuple	t = &b->tups[n];

				t->t_data = (HeapTupleHeader) PageGetItem(page, lpp);
				t->t_len = ItemIdGetLength(lpp);
				t->t_tableOid = relid;
				ItemPointerSet(&t->t_self, hs->rs_cblock, off);
				b->rowbuf[n] = hs->rs_cbuf;
				gx_deform_row(src, c, n, t, desc, has_nulls);
				n++;
			}
			continue;
		}
		BlockNumber blk;

		if (!gx_scan_next_block(src, &blk))
		{
			src->heap_done = true;
			break;
		}
		gx_heap_read_page(src->scan, blk);
		src->cur_line = 0;
		src->page_valid = true;
	}
	return n;
}

/*
 * Device deform: copy whole heap pages read with gx_heap_read_page() into the
 * chunk and list their visible tuples in b->map; the device deforms them.
 * The batch keeps a pin on each page (b->pins, indexed like the map), so
 * selected rows are returned from the shared buffer.  Pages are copied
 * without the content lock, as heapgettup_pagemode() reads them: the pin
 * keeps visible tuples in place and nothing the deformer reads of them
 * (line pointer, natts, HEAP_HASNULL, t_hoff, null bitmap, data) changes.
 * Fills the page section and the column directory; returns the rows.
 */
static uint32
gx_fill_device_pages(GxSource *src, GxBatch *b, gx_chunk *c)
{
	HeapScanDesc hs = (HeapScanDesc) src->scan;
	uint64		slot_bytes = gx_shared->slot_bytes;
	uint64		pages_off = gx_page_batch_pages_off();
	gx_deform_hdr *d = (gx_deform_hdr *) ((char *) c + gx_page_batch_deform_off());
	uint32		n = 0;
	uint32		np = 0;

	for (;;)
	{
		if (src->page_valid && src->cur_line < (int) hs->rs_ntuples)
		{
			uint32		k = (uint32) hs->rs_ntuples;
			uint64		need = gx_page_batch_bytes(np + 1, BLCKSZ, n + k,
												   src->prog->col_type, src->prog->ncols) +
				(uint64) (n + k) * src->result_row_bytes + src->result_fixed_bytes;

			if (n + k > src->rows_per_chunk || need > slot_bytes)
			{
				if (n == 0)
					elog(ERROR, "gpuext: a heap page does not fit a staging slot");
				break;			/* this page starts the next chunk */
			}
			memcpy((char *) c + pages_off + (uint64) np * BLCKSZ,
				   BufferGetPage(hs->rs_cbuf), BLCKSZ);
			IncrBufferRefCount(hs->rs_cbuf);
			b->pins[np] = hs->rs_cbuf;
			for (uint32 i = 0; i < k; i++)
				b->map[n++] = (np << 16) | hs->rs_vistuples[i];
			np++;
			src->cur_line = hs->rs_ntuples;
			continue;
		}
		BlockNumber blk;
		bool		stale = false;

		if (src->ipending < src->npending)
		{
			blk = src->pending[src->ipending++];	/* a stale block of the last entry */
			stale = true;
		}
		else
		{
			/* a cache entry starts here (serial scans only use the cache) */
			if (src->next_block >= src->stop_block && src->next_block < hs->rs_nblocks)
				break;
			if (!gx_scan_next_block(src, &blk))
			{
				src->heap_done = true;
				break;
			}
		}
		gx_heap_read_page(src->scan, blk);
		if (stale)
			src->stats->cache_stale_rows += hs->rs_ntuples;
		src->cur_line = 0;
		src->page_valid = true;
	}
	b->npins = np;

	/* the device writes the columns after the input, then the result */
	c->nrows = n;
	for (int i = 0; i < src->prog->ncols; i++)
	{
		c->cols[i].type = src->prog->col_type[i];
		c->cols[i].scale = src->prog->col_scale[i];
	}
	gx_layout_page_batch(c, np, BLCKSZ);
	d->natts = src->maxatt;
	d->pad = 0;
	memcpy(d->atts, src->atts, sizeof(gx_attr) * src->maxatt);
	memcpy((char *) c + d->rowmap_off, b->map, sizeof(uint32) * n);
	Assert(c->result_off + gx_result_bytes(n) <= slot_bytes);
	return n;
}

/* drop the page pins a consumed batch holds */
void
gx_unpin_batch(GxBatch *b)
{
	for (int i = 0; i < b->npins; i++)
		ReleaseBuffer(b->pins[i]);
	b->npins = 0;
}

/*
 * A scan that is not in page mode (a non-MVCC snapshot): take tuples from
 * table_scan_getnextslot() and deform the needed columns here.
 */
static uint32
gx_fill_slots(GxSource *src, GxBatch *b, gx_chunk *c, bool *has_nulls)
{
	GxProgram  *p = src->prog;
	TupleTableSlot *rs = src->read_slot;
	uint32		n = 0;

	while (n < src->rows_per_chunk)
	{
		if (!table_scan_getnextslot(src->scan, ForwardScanDirection, rs))
		{
			src->heap_done = true;
			break;
		}
		slot_getsomeattrs(rs, src->maxatt);
		for (int i = 0; i < p->ncols; i++)
		{
			int			a = p->col_attno[i] - 1;
			char	   *vals = (char *) c + src->col_values_off[i];
			Datum		d = rs->tts_values[a];

			if (rs->tts_isnull[a])
			{
				uint8	   *bm = (uint8 *) c + src->col_nulls_off[i];

				bm[n >> 3] |= (uint8) (1 << (n & 7));
				has_nulls[i] = true;
				d = (Datum) 0;
			}
			gx_store_datum_scale(vals, p->col_type[i], p->col_scale[i], n, d,
								 rs->tts_isnull[a]);
		}
		{
			BufferHeapTupleTableSlot *bs = (BufferHeapTupleTableSlot *) rs;

			if (b->npins == 0 || b->pins[b->npins - 1] != bs->buffer)
			{
				IncrBufferRefCount(bs->buffer);
				b->pins[b->npins++] = bs->buffer;
			}
			b->tups[n] = *bs->base.tuple;
			b->rowbuf[n] = bs->buffer;
		}
		n++;
	}
	ExecClearTuple(rs);
	return n;
}

/*
 * The row arrays of a batch that takes heap rows (tuples, their buffers,
 * page pins, the device-deform row map), allocated on first use in the
 * query's memory context: batches of cached columns never need them.
 */
static void
gx_source_batch_arrays(GxSource *src, GxBatch *b)
{
	uint32		n = src->rows_per_chunk;

	if (b->tups != NULL)
		return;
	b->tups = (HeapTupleData *) MemoryContextAlloc(src->cxt, sizeof(HeapTupleData) * n);
	b->rowbuf = (Buffer *) MemoryContextAlloc(src->cxt, sizeof(Buffer) * n);
	b->pins = (Buffer *) MemoryContextAlloc(src->cxt, sizeof(Buffer) * n);
	b->map = src->device_deform ?
		(uint32 *) MemoryContextAlloc(src->cxt, sizeof(uint32) * n) : NULL;
	b->npins = 0;
}

/*
 * Has a serial page-mode scan read everything?  (No page left to read, no
 * stale block of a cache entry pending, the current page used up.)  Lets the
 * batch that takes the last rows be known as the last one when it is
 * submitted, so that what follows the scan on the device (an aggregate's
 * read) is submitted with it.  A parallel scan, or one without page mode,
 * learns its end at the next fill.
 */
static bool
gx_source_exhausted(GxSource *src)
{
	HeapScanDesc hs = (HeapScanDesc) src->scan;

	if (!src->pagemode || src->scan->rs_parallel != NULL)
		return false;
	if (src->page_valid && src->cur_line < (int) hs->rs_ntuples)
		return false;
	return src->ipending >= src->npending && src->next_block >= hs->rs_nblocks;
}

/*
 * Fill the rows of a batch whose header (task, program) the node wrote:
 * from a cache entry, heap pages for the device, or columns deformed here,
 * with the column directory.  Returns the rows (0 at the end).
 */
uint32
gx_source_fill(GxSource *src, GxBatch *b, gx_chunk *c, int slot)
{
	GxProgram  *p = src->prog;
	bool		has_nulls[GX_MAX_COLS];
	uint32		n = 0;
	gx_chunk_ext ext = c->ext;	/* the node's, put back if an entry is empty */

	b->cached = false;
	b->skipped_rows = 0;
	b->device = src->device;
	for (int i = 0; i < p->ncols && !src->device_deform; i++)
	{
		has_nulls[i] = false;
		memset((char *) c + src->col_nulls_off[i], 0, gx_bitmap_bytes(src->rows_per_chunk));
	}

	if (src->device_deform)
	{
		for (;;)
		{
			if (gx_fill_cached(src, b, c, slot))
			{
				n = c->nrows;
				if (n > 0)
					break;
				/* an entry of empty pages: nothing to filter */
				gx_shared->slots[slot].cache_entry = -1;
				b->cached = false;
				c->kind = GX_TASK_FILTER;
				c->ext = ext;
				continue;
			}
			gx_source_batch_arrays(src, b);
			n = gx_fill_device_pages(src, b, c);
			/* stopped at a cache entry before any row: use or skip it */
			if (n > 0 || src->heap_done)
				break;
		}
	}
	else
	{
		gx_source_batch_arrays(src, b);
		if (src->pagemode)
			n = gx_fill_pages(src, b, c, has_nulls);
		else
			n = gx_fill_slots(src, b, c, has_nulls);
	}

	for (int i = 0; i < p->ncols && !src->device_deform; i++)
	{
		c->cols[i].values_off = src->col_values_off[i];
		c->cols[i].nulls_off = has_nulls[i] ? src->col_nulls_off[i] : 0;
		c->cols[i].type = p->col_type[i];
		c->cols[i].scale = p->col_scale[i];
	}
	c->nrows = n;
	b->nrows = n;
	/* heap rows: the least loaded device (a cache entry's: where it lies) */
	if (!b->cached)
		b->device = gx_devset_pick(&src->devs);
	/* the last batch: say so now, not at the next (empty) fill */
	if (n > 0 && !src->heap_done && gx_source_exhausted(src))
		src->heap_done = true;
	return n;
}

/*
 * The tuple of a selected row into the scan slot: 'sel' is a selection
 * entry of the batch (a row number, or for a cached batch a row map
 * value), the tuple comes from the page the batch (or the fetch) pins.
 */
TupleTableSlot *
gx_source_row(GxSource *src, GxBatch *b, uint32 sel, TupleTableSlot *slot)
{
	if (b->cached)
		return gx_fetch_cached(src, b, sel, slot);
	if (b->map != NULL && src->device_deform)
	{
		/* device deform: the tuple from its pinned page */
		uint32		m = b->map[sel];
		Buffer		buf = b->pins[m >> 16];
		OffsetNumber off = (OffsetNumber) (m & 0xFFFF);
		Page		page = BufferGetPage(buf);
		ItemId		lpp = PageGetItemId(page, off);
		HeapTuple	t = &src->cur_tup;

		t->t_data = (HeapTupleHeader) PageGetItem(page, lpp);
		t->t_len = ItemIdGetLength(lpp);
		t->t_tableOid = RelationGetRelid(src->rel);
		ItemPointerSet(&t->t_self, BufferGetBlockNumber(buf), off);
		return ExecStoreBufferHeapTuple(t, slot, buf);
	}
	return ExecStoreBufferHeapTuple(&b->tups[sel], slot, b->rowbuf[sel]);
}

/*
 * At scan start (and rescan): open the heap scan once, in the snapshot,
 * then position at the first block and list the cache entries to use.
 */
void
gx_source_start(GxSource *src, Snapshot snapshot)
{
	if (src->scan == NULL)
	{
		/* no syncscan: rows come in block order, like a fresh seqscan */
		src->scan = table_beginscan_strat(src->rel, snapshot, 0, NULL, true, false);
		src->pagemode = (src->scan->rs_flags & SO_ALLOW_PAGEMODE) != 0;
		if (!src->pagemode)
			src->device_deform = false;
	}
	src->next_block = 0;
	src->npending = src->ipending = 0;
	src->cur_line = 0;
	src->page_valid = false;
	src->heap_done = false;
	gx_source_cache_begin(src);
	gx_set_stop_block(src);
}

/*
 * Set a source up for the program's columns (BeginCustomScan): the batch
 * layout, the fixed offsets, whether the device deforms.  The heap scan
 * opens at the first gx_source_start().
 */
void
gx_source_init(GxSource *src, Relation rel, GxProgram *prog, int device,
			   GxScanStats *stats, EState *estate, bool explain_only)
{
	src->rel = rel;
	src->prog = prog;
	src->device = device;
	gx_devset_one(&src->devs, device);
	src->stats = stats;
	src->cxt = estate->es_query_cxt;
	src->vmbuf = InvalidBuffer;
	src->fetch_buf = InvalidBuffer;
	src->fetch_blk = InvalidBlockNumber;
	src->stop_block = InvalidBlockNumber;
	src->skip = NULL;
	src->pending = NULL;
	src->npending = src->ipending = 0;
	gx_plan_layout(src);
	gx_fast_offsets(src);
	gx_plan_deform(src, estate);
	if (!explain_only)
		src->read_slot = table_slot_create(rel, NULL);
}

/*
 * Let the source's batches run on the devices of set (its first the
 * node's home device, which every device of the set must reach when the
 * node's tasks name objects): a cache entry's batch on the device holding
 * it, heap batches on the least loaded one.  Before gx_source_start, or
 * while the source is read (a batch's device is taken as it is filled;
 * the entries it reads are those of the devices reaching home: GpuJoin's
 * probes join a device once it holds the table, join_replicas.cpp).
 */
void
gx_source_spread(GxSource *src, const GxDevSet *set)
{
	src->devs = *set;
	src->device = set->dev[0];
}

/* the share of the relation's blocks handed to chunks so far (0 .. 1) */
double
gx_source_progress(GxSource *src)
{
	HeapScanDesc hs = (HeapScanDesc) src->scan;

	if (hs == NULL || hs->rs_nblocks == 0)
		return 1.0;
	return Min((double) src->next_block / hs->rs_nblocks, 1.0);
}

/* a rescan: the heap scan starts again at gx_source_start() */
void
gx_source_rescan(GxSource *src)
{
	if (src->scan)
		table_rescan(src->scan, NULL);
	src->page_valid = false;
}

/* release the pins of the cached-row fetch */
void
gx_source_release(GxSource *src)
{
	if (BufferIsValid(src->fetch_buf))
		ReleaseBuffer(src->fetch_buf);
	src->fetch_buf = InvalidBuffer;
	src->fetch_blk = InvalidBlockNumber;
}

/* end: the heap scan, the slot, the buffers */
void
gx_source_end(GxSource *src)
{
	gx_source_release(src);
	if (BufferIsValid(src->vmbuf))
		ReleaseBuffer(src->vmbuf);
	src->vmbuf = InvalidBuffer;
	if (src->scan)
		table_endscan(src->scan);
	src->scan = NULL;
	if (src->read_slot)
		ExecDropSingleTupleTableSlot(src->read_slot);
	src->read_slot = NULL;
}
