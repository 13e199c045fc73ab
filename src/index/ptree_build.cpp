/*
 * ptree_build.cpp - CREATE INDEX / REINDEX of a gpuext_ptree index: the
 * bulk path.
 *
 * The heap's keys (encoded, ptree_key.cpp) and TIDs go through a tuplesort
 * (maintenance_work_mem, spilling to disk beyond it; byte order of the
 * keys is bytea's order); NULL keys' TIDs go straight into their chain.
 * The sorted run then builds the tree in one pass, keeping only the open
 * nodes of the rightmost path (the "spine") in memory: a key and the one
 * before it share L nibbles, so every open node that begins past L can
 * take no more keys and is written; a node whose path the key leaves
 * inside is split (the part past L written); a key that shares the slot
 * of the one before opens the nodes that part them (lazy expansion, as
 * an insert does).  Items go into page images, WAL-logged whole (generic
 * WAL, full image) as each fills; the metapage last.  Progress shows in
 * pg_stat_progress_create_index (subphases: scanning the table, sorting,
 * writing the tree; tuples written of total).
 */
#include "gpuext.h"
#include "ptree.h"

extern "C"
{
#include "access/tableam.h"
#include "access/tupdesc.h"
#include "catalog/index.h"
#include "catalog/pg_operator_d.h"
#include "catalog/pg_type_d.h"
#include "commands/progress.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/tuplesort.h"
}

/* CREATE INDEX subphases (PROGRESS_CREATEIDX_SUBPHASE; 1 is "initializing") */
#define PTREE_PHASE_SCAN	2
#define PTREE_PHASE_SORT	3
#define PTREE_PHASE_WRITE	4

/* the term slot of a node */
#define PTREE_SLOT_TERM		(-1)

/* one page image being filled, and its buffer (pinned) */
typedef struct PtreeBuildPage
{
	Buffer		buf;
	Page		image;
} PtreeBuildPage;

/* the TIDs of one key (or of NULL) being written as a chain */
typedef struct PtreeChainBuild
{
	ItemPointerData *tids;		/* a continuation's worth */
	int			ntids;
	PtreePtr	next;			/* the continuations written so far */
} PtreeChainBuild;

/* a node of the spine, not written yet */
typedef struct PtreeOpenNode
{
	int			depth;			/* the nibble its prefix begins at */
	int			nprefix;
	uint8	   *prefix;			/* PTREE_MAX_PREFIX nibbles of room */
	int			parent_slot;	/* its slot in the node above */
	PtreePtr	term;
	PtreePtr	child[PTREE_FANOUT];
} PtreeOpenNode;

typedef struct PtreeBuildState
{
	Relation	index;
	uint32		key_kind;
	MemoryContext ctx;			/* the build's state */
	MemoryContext rowctx;		/* one row's, reset per row */
	Tuplesortstate *sort;
	TupleDesc	sortdesc;		/* (key bytea, tid) */
	TupleTableSlot *slot;
	int64		nitems;
	int64		nnulls;
	int64		done;			/* rows written */
	PtreeBuildPage inner;
	PtreeBuildPage leaf;
	PtreeChainBuild nulls;
	PtreeChainBuild cur;		/* the current key's TIDs */
	uint8	   *key;			/* the current key */
	int			keylen;
	bool		has_key;
	int			key_node;		/* where it hangs: a spine node */
	int			key_slot;		/* and its slot */
	PtreeOpenNode *spine;
	int			nspine;
	int			capspine;
} PtreeBuildState;

/* TIDs in a continuation entry */
#define PTREE_CONT_TIDS ((int) ((PTREE_MAX_ITEM - PtreeEntryTidOff(0)) / sizeof(ItemPointerData)))

/* an empty pointer */
static PtreePtr
ptree_build_none(void)
{
	return ptree_make_ptr(InvalidBlockNumber, InvalidOffsetNumber, PTREE_PTR_NONE);
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

/* write an entry: key (none for a continuation), TIDs, next */
static PtreePtr
ptree_build_entry(PtreeBuildState *bs, const uint8 *key, int keylen, uint16 flags,
				  const ItemPointerData *tids, int n, PtreePtr next)
{
	Size		size = PtreeEntrySize(keylen, n);
	PtreeEntry *e = (PtreeEntry *) palloc0(size);
	PtreePtr	p;

	e->next = next;
	e->flags = flags;
	e->keylen = (uint16) keylen;
	e->ntids = (uint16) n;
	if (keylen > 0)
		memcpy(PtreeEntryKey(e), key, keylen);
	memcpy(PtreeEntryTids(e), tids, n * sizeof(ItemPointerData));
	p = ptree_build_add(bs, PTREE_PTR_ENTRY, e, size);
	pfree(e);
	return p;
}

/* one more TID of a chain: a full continuation's worth is written */
static void
ptree_build_chain_add(PtreeBuildState *bs, PtreeChainBuild *cb, ItemPointer tid)
{
	if (cb->ntids == PTREE_CONT_TIDS)
	{
		cb->next = ptree_build_entry(bs, NULL, 0, PTREE_ENTRY_CONT, cb->tids, cb->ntids, cb->next);
		cb->ntids = 0;
	}
	cb->tids[cb->ntids++] = *tid;
	if (++bs->done % 1024 == 0)
		pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, bs->done);
}

/* the head of a chain (what the head cannot hold first); the chain is reset */
static PtreePtr
ptree_build_chain_end(PtreeBuildState *bs, PtreeChainBuild *cb, const uint8 *key, int keylen,
					  uint16 flags)
{
	int			cap = (int) ((PTREE_MAX_ITEM - PtreeEntryTidOff(keylen)) / sizeof(ItemPointerData));
	PtreePtr	head;

	if (cb->ntids > cap)
	{
		cb->next = ptree_build_entry(bs, NULL, 0, PTREE_ENTRY_CONT, cb->tids + cap,
									 cb->ntids - cap, cb->next);
		cb->ntids = cap;
	}
	head = ptree_build_entry(bs, key, keylen, flags, cb->tids, cb->ntids, cb->next);
	cb->ntids = 0;
	cb->next = ptree_build_none();
	return head;
}

/* open a node on the spine: prefix nibbles [depth, depth + nprefix) of key */
static PtreeOpenNode *
ptree_build_open(PtreeBuildState *bs, const uint8 *key, int depth, int nprefix, int parent_slot)
{
	PtreeOpenNode *n;

	if (bs->nspine == bs->capspine)
	{
		bs->capspine = Max(16, bs->capspine * 2);
		bs->spine = (PtreeOpenNode *) (bs->spine
									   ? repalloc(bs->spine, bs->capspine * sizeof(PtreeOpenNode))
									   : palloc(bs->capspine * sizeof(PtreeOpenNode)));
		for (int i = bs->nspine; i < bs->capspine; i++)
			bs->spine[i].prefix = NULL;
	}
	n = &bs->spine[bs->nspine++];
	if (n->prefix == NULL)
		n->prefix = (uint8 *) palloc(PTREE_MAX_PREFIX);
	n->depth = depth;
	n->nprefix = nprefix;
	for (int i = 0; i < nprefix; i++)
		n->prefix[i] = (uint8) ptree_nibble(key, depth + i);
	n->parent_slot = parent_slot;
	n->term = ptree_build_none();
	for (int c = 0; c < PTREE_FANOUT; c++)
		n->child[c] = ptree_build_none();
	return n;
}

/* write a node of prefix[0..nprefix) and the slots of n */
static PtreePtr
ptree_build_node(PtreeBuildState *bs, const PtreeOpenNode *n, const uint8 *prefix, int nprefix)
{
	PtreeNode  *node = (PtreeNode *) palloc0(PtreeNodeSize(nprefix));
	PtreePtr	p;

	node->nprefix = (uint16) nprefix;
	node->term = n->term;
	memcpy(node->child, n->child, sizeof(node->child));
	memcpy(node->prefix, prefix, nprefix);
	p = ptree_build_add(bs, PTREE_PTR_NODE, node, PtreeNodeSize(nprefix));
	pfree(node);
	return p;
}

/* write the top node of the spine into its parent's slot; the root's pointer */
static PtreePtr
ptree_build_close(PtreeBuildState *bs)
{
	PtreeOpenNode *n = &bs->spine[bs->nspine - 1];
	PtreePtr	p = ptree_build_node(bs, n, n->prefix, n->nprefix);

	bs->nspine--;
	if (bs->nspine > 0)
		bs->spine[bs->nspine - 1].child[n->parent_slot] = p;
	return p;
}

/* set slot (PTREE_SLOT_TERM or a nibble) of spine node i */
static void
ptree_build_set(PtreeBuildState *bs, int i, int slot, PtreePtr p)
{
	if (slot == PTREE_SLOT_TERM)
		bs->spine[i].term = p;
	else
		bs->spine[i].child[slot] = p;
}

/*
 * A new key k, greater than the current one (written by now, in its slot):
 * close what it passes, split or open nodes, and find its slot.
 */
static void
ptree_build_place(PtreeBuildState *bs, const uint8 *k, int klen)
{
	int			common = ptree_common_nibbles(bs->key, bs->keylen, k, klen, 0);
	int			i = bs->nspine - 1;
	PtreeOpenNode *t;
	int			d2;

	CHECK_FOR_INTERRUPTS();
	while (bs->spine[i].depth > common)
		i--;
	while (bs->nspine - 1 > i)
		(void) ptree_build_close(bs);
	t = &bs->spine[i];
	d2 = t->depth + t->nprefix;
	if (d2 > common)
	{
		/* k leaves t's path at nibble common (not the root: no path) */
		int			keep = common - t->depth;
		PtreePtr	rest = ptree_build_node(bs, t, t->prefix + keep + 1, t->nprefix - keep - 1);
		int			c = t->prefix[keep];

		t->nprefix = keep;
		t->term = ptree_build_none();
		for (int j = 0; j < PTREE_FANOUT; j++)
			t->child[j] = ptree_build_none();
		t->child[c] = rest;
	}
	else if (d2 < common)
	{
		/* k takes the slot of the current key: nodes that part them */
		int			c = ptree_nibble(k, d2);
		PtreePtr	old = t->child[c];
		int			s = d2 + 1;
		int			slot = c;
		PtreeOpenNode *m;

		t->child[c] = ptree_build_none();
		while (common - s > PTREE_MAX_PREFIX)
		{
			ptree_build_open(bs, k, s, PTREE_MAX_PREFIX, slot);
			slot = ptree_nibble(k, s + PTREE_MAX_PREFIX);
			s += PTREE_MAX_PREFIX + 1;
		}
		m = ptree_build_open(bs, k, s, common - s, slot);
		if (2 * bs->keylen == common)
			m->term = old;
		else
			m->child[ptree_nibble(bs->key, common)] = old;
	}
	/* k is longer than common: it is greater than a key it shares all with */
	bs->key_node = bs->nspine - 1;
	bs->key_slot = ptree_nibble(k, common);
}

/* the current key is complete: write its chain into its slot */
static void
ptree_build_key_end(PtreeBuildState *bs)
{
	ptree_build_set(bs, bs->key_node, bs->key_slot,
					ptree_build_chain_end(bs, &bs->cur, bs->key, bs->keylen, PTREE_ENTRY_HEAD));
}

/* a sorted row: a new key is placed, its TID joins its chain */
static void
ptree_build_row(PtreeBuildState *bs, const uint8 *k, int klen, ItemPointer tid)
{
	if (!bs->has_key || ptree_key_cmp(bs->key, bs->keylen, k, klen) != 0)
	{
		if (bs->has_key)
		{
			ptree_build_key_end(bs);
			ptree_build_place(bs, k, klen);
		}
		else
		{
			bs->key_node = 0;
			bs->key_slot = (klen == 0) ? PTREE_SLOT_TERM : ptree_nibble(k, 0);
		}
		memcpy(bs->key, k, klen);
		bs->keylen = klen;
		bs->has_key = true;
	}
	ptree_build_chain_add(bs, &bs->cur, tid);
}

/* table_index_build_scan's callback: a key into the sort, a NULL's TID into its chain */
static void
ptree_build_callback(Relation index, ItemPointer tid, Datum *values, bool *isnull,
					 bool tupleIsAlive, void *state)
{
	PtreeBuildState *bs = (PtreeBuildState *) state;
	MemoryContext old = MemoryContextSwitchTo(bs->rowctx);

	if (isnull[0])
	{
		ptree_build_chain_add(bs, &bs->nulls, tid);
		bs->nnulls++;
	}
	else
	{
		int			len;
		uint8	   *key = ptree_encode(values[0], index->rd_opcintype[0],
									   bs->key_kind, &len);
		bytea	   *b = (bytea *) palloc(VARHDRSZ + len);

		ptree_check_key_length(index, len);
		SET_VARSIZE(b, VARHDRSZ + len);
		memcpy(VARDATA(b), key, len);
		ExecClearTuple(bs->slot);
		bs->slot->tts_values[0] = PointerGetDatum(b);
		bs->slot->tts_values[1] = PointerGetDatum(tid);
		bs->slot->tts_isnull[0] = false;
		bs->slot->tts_isnull[1] = false;
		ExecStoreVirtualTuple(bs->slot);
		tuplesort_puttupleslot(bs->sort, bs->slot);
		bs->nitems++;
	}
	MemoryContextSwitchTo(old);
	MemoryContextReset(bs->rowctx);
}

/* the sort of (key, TID) rows by key (bytea's order is byte order) */
static void
ptree_build_sort_begin(PtreeBuildState *bs)
{
	AttrNumber	attno = 1;
	Oid			sortop = ByteaLessOperator;
	Oid			coll = InvalidOid;
	bool		nullsfirst = false;

	bs->sortdesc = CreateTemplateTupleDesc(2);
	TupleDescInitEntry(bs->sortdesc, (AttrNumber) 1, "key", BYTEAOID, -1, 0);
	TupleDescInitEntry(bs->sortdesc, (AttrNumber) 2, "tid", TIDOID, -1, 0);
	bs->slot = MakeSingleTupleTableSlot(bs->sortdesc, &TTSOpsVirtual);
	bs->sort = tuplesort_begin_heap(bs->sortdesc, 1, &attno, &sortop, &coll, &nullsfirst,
									maintenance_work_mem, NULL, TUPLESORT_NONE);
}

/* the sorted rows into the tree; returns the root */
static PtreePtr
ptree_build_tree(PtreeBuildState *bs)
{
	TupleTableSlot *in = MakeSingleTupleTableSlot(bs->sortdesc, &TTSOpsMinimalTuple);
	PtreePtr	root;

	bs->key = (uint8 *) palloc(PTREE_MAX_KEY + 1);
	bs->cur.tids = (ItemPointerData *) palloc(PTREE_CONT_TIDS * sizeof(ItemPointerData));
	bs->cur.next = ptree_build_none();
	ptree_build_open(bs, NULL, 0, 0, 0);	/* the root: no prefix */
	while (tuplesort_gettupleslot(bs->sort, true, false, in, NULL))
	{
		bool		isnull;
		/* a sorted tuple's varlena is inline and not compressed */
		struct varlena *b = (struct varlena *) DatumGetPointer(slot_getattr(in, 1, &isnull));
		ItemPointer tid = (ItemPointer) DatumGetPointer(slot_getattr(in, 2, &isnull));

		ptree_build_row(bs, (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b), tid);
	}
	if (bs->has_key)
		ptree_build_key_end(bs);
	do
		root = ptree_build_close(bs);
	while (bs->nspine > 0);
	ExecDropSingleTupleTableSlot(in);
	return root;
}

/* ambuild: scan the heap into the sort, write the tree, then the metapage */
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
	MemoryContext old;

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
	bs.rowctx = AllocSetContextCreate(bs.ctx, "gpuext_ptree build row", ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(bs.ctx);
	bs.inner.buf = InvalidBuffer;
	bs.leaf.buf = InvalidBuffer;
	bs.inner.image = (Page) palloc(BLCKSZ);
	bs.leaf.image = (Page) palloc(BLCKSZ);
	bs.nulls.tids = (ItemPointerData *) palloc(PTREE_CONT_TIDS * sizeof(ItemPointerData));
	bs.nulls.next = ptree_build_none();
	ptree_build_sort_begin(&bs);

	/* block 0: the metapage, written last */
	metabuf = ptree_new_buffer(index);
	Assert(BufferGetBlockNumber(metabuf) == PTREE_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_UNLOCK);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, PTREE_PHASE_SCAN);
	reltuples = table_index_build_scan(heap, index, indexInfo, true, true,
									   ptree_build_callback, &bs, NULL);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, PTREE_PHASE_SORT);
	tuplesort_performsort(bs.sort);
	{
		const int	which[] = {PROGRESS_CREATEIDX_SUBPHASE, PROGRESS_CREATEIDX_TUPLES_TOTAL};
		const int64 vals[] = {PTREE_PHASE_WRITE, bs.nitems + bs.nnulls};

		pgstat_progress_update_multi_param(2, which, vals);
	}

	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	xs = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(xs, metabuf, GENERIC_XLOG_FULL_IMAGE);
	ptree_init_meta(page, bs.key_kind);
	meta = PtreePageGetMeta(page);
	/* the tree is written under the metapage's lock, the metapage last */
	meta->root = ptree_build_tree(&bs);
	if (bs.nnulls > 0)
		meta->nulls = ptree_build_chain_end(&bs, &bs.nulls, NULL, 0,
											PTREE_ENTRY_HEAD | PTREE_ENTRY_NULL);
	meta->inner_hint = BufferGetBlockNumber(bs.inner.buf);
	meta->leaf_hint = BufferIsValid(bs.leaf.buf) ? BufferGetBlockNumber(bs.leaf.buf) : InvalidBlockNumber;
	meta->ntids = bs.nitems + bs.nnulls;
	ptree_build_flush(&bs, &bs.inner);
	ptree_build_flush(&bs, &bs.leaf);
	GenericXLogFinish(xs);
	UnlockReleaseBuffer(metabuf);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, bs.nitems + bs.nnulls);

	tuplesort_end(bs.sort);
	ExecDropSingleTupleTableSlot(bs.slot);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(bs.ctx);
	result = (IndexBuildResult *) palloc(sizeof(IndexBuildResult));
	result->heap_tuples = reltuples;
	result->index_tuples = bs.nitems + bs.nnulls;
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
