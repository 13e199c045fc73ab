/*
 * ptree_build.cpp - CREATE INDEX / REINDEX of a gpuext_ptree index: the
 * bulk path.  The heap's keys (encoded, ptree_key.cpp) and TIDs are
 * gathered in a memory context and sorted; the tree is then written from
 * the sorted run, children before their node, into page images that are
 * WAL-logged whole (generic WAL, full image) as each fills.  Progress
 * shows in pg_stat_progress_create_index (subphases: scanning the table,
 * sorting, writing the tree; tuples written of total).
 *
 * The sort is in memory: the build needs about (key length + 32) bytes a
 * row (maintenance_work_mem is not a limit here; docs/ptree.md).
 */
#include "gpuext.h"
#include "ptree.h"

extern "C"
{
#include "access/tableam.h"
#include "catalog/index.h"
#include "commands/progress.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
}

/* CREATE INDEX subphases (PROGRESS_CREATEIDX_SUBPHASE; 1 is "initializing") */
#define PTREE_PHASE_SCAN	2
#define PTREE_PHASE_SORT	3
#define PTREE_PHASE_WRITE	4

/* one indexed row */
typedef struct PtreeBuildItem
{
	uint8	   *key;
	int			keylen;
	ItemPointerData tid;
} PtreeBuildItem;

/* one page image being filled, and its buffer (pinned) */
typedef struct PtreeBuildPage
{
	Buffer		buf;
	Page		image;
} PtreeBuildPage;

typedef struct PtreeBuildState
{
	Relation	index;
	uint32		key_kind;
	MemoryContext ctx;			/* keys and the item arrays */
	PtreeBuildItem *items;
	int64		nitems;
	int64		capitems;
	ItemPointerData *nulls;
	int64		nnulls;
	int64		capnulls;
	PtreeBuildPage inner;
	PtreeBuildPage leaf;
	int64		done;			/* rows written */
} PtreeBuildState;

/* grow an array of count elements of size each to hold one more */
static void *
ptree_build_grow(void *arr, int64 count, int64 *cap, Size size)
{
	if (count < *cap)
		return arr;
	*cap = (*cap == 0) ? 1024 : *cap * 2;
	if (arr == NULL)
		return MemoryContextAllocHuge(CurrentMemoryContext, *cap * size);
	return repalloc_huge(arr, *cap * size);
}

/* table_index_build_scan's callback: gather a row's key and TID */
static void
ptree_build_callback(Relation index, ItemPointer tid, Datum *values, bool *isnull,
					 bool tupleIsAlive, void *state)
{
	PtreeBuildState *bs = (PtreeBuildState *) state;
	MemoryContext old = MemoryContextSwitchTo(bs->ctx);

	if (isnull[0])
	{
		bs->nulls = (ItemPointerData *) ptree_build_grow(bs->nulls, bs->nnulls, &bs->capnulls,
														 sizeof(ItemPointerData));
		bs->nulls[bs->nnulls++] = *tid;
	}
	else
	{
		PtreeBuildItem *it;

		bs->items = (PtreeBuildItem *) ptree_build_grow(bs->items, bs->nitems, &bs->capitems,
														sizeof(PtreeBuildItem));
		it = &bs->items[bs->nitems++];
		it->key = ptree_encode(values[0], TupleDescAttr(RelationGetDescr(index), 0)->atttypid,
							   bs->key_kind, &it->keylen);
		ptree_check_key_length(index, it->keylen);
		it->tid = *tid;
	}
	MemoryContextSwitchTo(old);
}

/* qsort order of rows: key, then TID */
static int
ptree_build_item_cmp(const void *a, const void *b)
{
	const PtreeBuildItem *x = (const PtreeBuildItem *) a;
	const PtreeBuildItem *y = (const PtreeBuildItem *) b;
	int			c = ptree_key_cmp(x->key, x->keylen, y->key, y->keylen);

	return c != 0 ? c : ItemPointerCompare((ItemPointer) &x->tid, (ItemPointer) &y->tid);
}

/* WAL-log a filled page image into its buffer and let it go */
static void
ptree_build_flush(PtreeBuildState *bs, PtreeBuildPage *bp)
{
	GenericXLogState *xs;
	Page		page;

	if (!BufferIsValid(bp->buf))
		return;
	LockBuffer(bp->buf, BUFFER_LOCK_EXCLUSIVE);
	xs = GenericXLogStart(bs->index);
	page = GenericXLogRegisterBuffer(xs, bp->buf, GENERIC_XLOG_FULL_IMAGE);
	memcpy(page, bp->image, BLCKSZ);
	GenericXLogFinish(xs);
	UnlockReleaseBuffer(bp->buf);
	bp->buf = InvalidBuffer;
}

/*
 * Add an item to the page image of its kind (a new page when it lacks the
 * room; leaf pages keep a tenth free for entries to grow in place).
 */
static PtreePtr
ptree_build_add(PtreeBuildState *bs, uint16 kind, const void *item, Size size)
{
	PtreeBuildPage *bp = (kind == PTREE_PTR_NODE) ? &bs->inner : &bs->leaf;
	Size		reserve = (kind == PTREE_PTR_ENTRY) ? BLCKSZ / 10 : 0;
	OffsetNumber off;

	if (BufferIsValid(bp->buf) && PageGetMaxOffsetNumber(bp->image) > 0 &&
		PageGetFreeSpace(bp->image) < MAXALIGN(size) + reserve)
		ptree_build_flush(bs, bp);
	if (!BufferIsValid(bp->buf))
	{
		bp->buf = ptree_new_buffer(bs->index);
		LockBuffer(bp->buf, BUFFER_LOCK_UNLOCK);
		ptree_init_page(bp->image, kind == PTREE_PTR_NODE ? PTREE_PAGE_INNER : PTREE_PAGE_LEAF);
	}
	off = PageAddItem(bp->image, (Item) item, size, InvalidOffsetNumber, false, false);
	if (off == InvalidOffsetNumber)
		elog(ERROR, "gpuext_ptree: could not add an item of %zu bytes", size);
	return ptree_make_ptr(BufferGetBlockNumber(bp->buf), off, kind);
}

/* write the entries of TIDs tids[0..n) (one key, or NULL: key == NULL) */
static PtreePtr
ptree_build_chain(PtreeBuildState *bs, const uint8 *key, int keylen, const ItemPointerData *tids,
				  int64 n, uint16 headflags)
{
	int64		cap_head = (PTREE_MAX_ITEM - PtreeEntryTidOff(keylen)) / sizeof(ItemPointerData);
	int64		cap_cont = (PTREE_MAX_ITEM - PtreeEntryTidOff(0)) / sizeof(ItemPointerData);
	int64		nhead = Min(n, cap_head);
	int64		rest = n - nhead;
	PtreePtr	next = ptree_make_ptr(InvalidBlockNumber, InvalidOffsetNumber, PTREE_PTR_NONE);
	PtreeEntry *e = (PtreeEntry *) palloc(PTREE_MAX_ITEM);

	/* continuations from the tail, so that each knows its next */
	while (rest > 0)
	{
		int64		m = (rest % cap_cont) ? rest % cap_cont : cap_cont;

		rest -= m;
		memset(e, 0, PtreeEntryTidOff(0));
		e->next = next;
		e->flags = PTREE_ENTRY_CONT;
		e->keylen = 0;
		e->ntids = (uint16) m;
		memcpy(PtreeEntryTids(e), tids + nhead + rest, m * sizeof(ItemPointerData));
		next = ptree_build_add(bs, PTREE_PTR_ENTRY, e, PtreeEntrySize(0, m));
	}
	memset(e, 0, PtreeEntryTidOff(keylen));
	e->next = next;
	e->flags = headflags;
	e->keylen = (uint16) keylen;
	e->ntids = (uint16) nhead;
	if (keylen > 0)
		memcpy(PtreeEntryKey(e), key, keylen);
	memcpy(PtreeEntryTids(e), tids, nhead * sizeof(ItemPointerData));
	next = ptree_build_add(bs, PTREE_PTR_ENTRY, e, PtreeEntrySize(keylen, nhead));
	pfree(e);

	bs->done += n;
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, bs->done);
	return next;
}

/* the entries of rows lo..hi (one key) */
static PtreePtr
ptree_build_key(PtreeBuildState *bs, int64 lo, int64 hi)
{
	ItemPointerData *tids = (ItemPointerData *) palloc((hi - lo) * sizeof(ItemPointerData));
	PtreePtr	p;

	for (int64 i = lo; i < hi; i++)
		tids[i - lo] = bs->items[i].tid;
	p = ptree_build_chain(bs, bs->items[lo].key, bs->items[lo].keylen, tids, hi - lo,
						  PTREE_ENTRY_HEAD);
	pfree(tids);
	return p;
}

static PtreePtr ptree_build_node(PtreeBuildState *bs, int64 lo, int64 hi, int depth, int nprefix);

/* what goes in a slot for rows lo..hi, which share nibbles [0, depth) */
static PtreePtr
ptree_build_slot(PtreeBuildState *bs, int64 lo, int64 hi, int depth)
{
	PtreeBuildItem *a = &bs->items[lo];
	PtreeBuildItem *b = &bs->items[hi - 1];
	int			common;

	if (ptree_key_cmp(a->key, a->keylen, b->key, b->keylen) == 0)
		return ptree_build_key(bs, lo, hi);
	/* sorted: what the first and the last share, all share */
	common = ptree_common_nibbles(a->key, a->keylen, b->key, b->keylen, depth);
	return ptree_build_node(bs, lo, hi, depth, Min(common, PTREE_MAX_PREFIX));
}

/*
 * The node of rows lo..hi, whose keys share nibbles [0, depth + nprefix):
 * those ending there are its term, the others go to its children by their
 * next nibble.
 */
static PtreePtr
ptree_build_node(PtreeBuildState *bs, int64 lo, int64 hi, int depth, int nprefix)
{
	PtreeNode  *node = (PtreeNode *) palloc0(PtreeNodeSize(nprefix));
	int			d2 = depth + nprefix;
	int64		i = lo;
	PtreePtr	p;

	check_stack_depth();
	node->nprefix = (uint16) nprefix;
	for (int k = 0; k < nprefix; k++)
		node->prefix[k] = (uint8) ptree_nibble(bs->items[lo].key, depth + k);
	while (i < hi && 2 * bs->items[i].keylen == d2)
		i++;
	if (i > lo)
		node->term = ptree_build_key(bs, lo, i);
	while (i < hi)
	{
		int			c = ptree_nibble(bs->items[i].key, d2);
		int64		j = i + 1;

		CHECK_FOR_INTERRUPTS();
		while (j < hi && ptree_nibble(bs->items[j].key, d2) == c)
			j++;
		node->child[c] = ptree_build_slot(bs, i, j, d2 + 1);
		i = j;
	}
	p = ptree_build_add(bs, PTREE_PTR_NODE, node, PtreeNodeSize(nprefix));
	pfree(node);
	return p;
}

/* ambuild: scan the heap, sort, write the tree and then the metapage */
IndexBuildResult *
ptree_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	IndexBuildResult *result;
	PtreeBuildState bs;
	Buffer		metabuf;
	PtreeMeta  *meta;
	GenericXLogState *xs;
	Page		page;
	double		reltuples;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data", RelationGetRelationName(index));
	memset(&bs, 0, sizeof(bs));
	bs.index = index;
	bs.key_kind = ptree_key_kind(index);
	if (bs.key_kind == PTREE_KEY_TEXT &&
		(!OidIsValid(index->rd_indcollation[0]) ||
		 !get_collation_isdeterministic(index->rd_indcollation[0])))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("gpuext_ptree indexes text only under a deterministic collation"),
				 errhint("Use a deterministic collation such as \"C\" for the index column.")));
	bs.ctx = AllocSetContextCreate(CurrentMemoryContext, "gpuext_ptree build",
								   ALLOCSET_DEFAULT_SIZES);
	bs.inner.buf = InvalidBuffer;
	bs.leaf.buf = InvalidBuffer;
	bs.inner.image = (Page) MemoryContextAlloc(bs.ctx, BLCKSZ);
	bs.leaf.image = (Page) MemoryContextAlloc(bs.ctx, BLCKSZ);

	/* block 0: the metapage, written last */
	metabuf = ptree_new_buffer(index);
	Assert(BufferGetBlockNumber(metabuf) == PTREE_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_UNLOCK);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, PTREE_PHASE_SCAN);
	reltuples = table_index_build_scan(heap, index, indexInfo, true, true,
									   ptree_build_callback, &bs, NULL);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, PTREE_PHASE_SORT);
	if (bs.nitems > 1)
		qsort(bs.items, bs.nitems, sizeof(PtreeBuildItem), ptree_build_item_cmp);

	{
		const int	which[] = {PROGRESS_CREATEIDX_SUBPHASE, PROGRESS_CREATEIDX_TUPLES_TOTAL,
							   PROGRESS_CREATEIDX_TUPLES_DONE};
		const int64 vals[] = {PTREE_PHASE_WRITE, bs.nitems + bs.nnulls, 0};

		pgstat_progress_update_multi_param(3, which, vals);
	}

	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	xs = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(xs, metabuf, GENERIC_XLOG_FULL_IMAGE);
	ptree_init_meta(page, bs.key_kind);
	meta = PtreePageGetMeta(page);
	/* the tree is written under the metapage's lock, the metapage last */
	meta->root = ptree_build_node(&bs, 0, bs.nitems, 0, 0);
	if (bs.nnulls > 0)
		meta->nulls = ptree_build_chain(&bs, NULL, 0, bs.nulls, bs.nnulls,
										PTREE_ENTRY_HEAD | PTREE_ENTRY_NULL);
	meta->inner_hint = BufferGetBlockNumber(bs.inner.buf);
	meta->leaf_hint = BufferIsValid(bs.leaf.buf) ? BufferGetBlockNumber(bs.leaf.buf) : InvalidBlockNumber;
	meta->ntids = bs.nitems + bs.nnulls;
	ptree_build_flush(&bs, &bs.inner);
	ptree_build_flush(&bs, &bs.leaf);
	GenericXLogFinish(xs);
	UnlockReleaseBuffer(metabuf);

	result = (IndexBuildResult *) palloc(sizeof(IndexBuildResult));
	result->heap_tuples = reltuples;
	result->index_tuples = bs.nitems + bs.nnulls;
	MemoryContextDelete(bs.ctx);
	return result;
}

/* ambuildempty: the init fork of an unlogged index: a metapage and a root */
void
ptree_buildempty(Relation index)
{
	PtreeNode  *root = (PtreeNode *) palloc0(PtreeNodeSize(0));
	Buffer		metabuf;
	Buffer		rootbuf;
	PtreeMeta  *meta;

	metabuf = ReadBufferExtended(index, INIT_FORKNUM, P_NEW, RBM_NORMAL, NULL);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	rootbuf = ReadBufferExtended(index, INIT_FORKNUM, P_NEW, RBM_NORMAL, NULL);
	LockBuffer(rootbuf, BUFFER_LOCK_EXCLUSIVE);

	START_CRIT_SECTION();
	ptree_init_page(BufferGetPage(rootbuf), PTREE_PAGE_INNER);
	if (PageAddItem(BufferGetPage(rootbuf), (Item) root, PtreeNodeSize(0), InvalidOffsetNumber,
					false, false) != FirstOffsetNumber)
		elog(PANIC, "gpuext_ptree: could not add the root node");
	ptree_init_meta(BufferGetPage(metabuf), ptree_key_kind(index));
	meta = PtreePageGetMeta(BufferGetPage(metabuf));
	meta->root = ptree_make_ptr(BufferGetBlockNumber(rootbuf), FirstOffsetNumber, PTREE_PTR_NODE);
	meta->inner_hint = BufferGetBlockNumber(rootbuf);
	MarkBufferDirty(metabuf);
	MarkBufferDirty(rootbuf);
	log_newpage_buffer(metabuf, true);
	log_newpage_buffer(rootbuf, true);
	END_CRIT_SECTION();

	UnlockReleaseBuffer(rootbuf);
	UnlockReleaseBuffer(metabuf);
	pfree(root);
}

/* ambuildphasename: the names of the subphases above */
char *
ptree_buildphasename(int64 phasenum)
{
	switch (phasenum)
	{
		case PROGRESS_CREATEIDX_SUBPHASE_INITIALIZE:
			return (char *) "initializing";
		case PTREE_PHASE_SCAN:
			return (char *) "building index: scanning table";
		case PTREE_PHASE_SORT:
			return (char *) "building index: sorting keys";
		case PTREE_PHASE_WRITE:
			return (char *) "building index: writing tree";
		default:
			return NULL;
	}
}
