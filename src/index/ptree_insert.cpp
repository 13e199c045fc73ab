/*
 * ptree_insert.cpp - aminsert of gpuext_ptree: one key and TID into the
 * tree, under the metapage's exclusive lock (changes are serial; see the
 * design note in ptree_page.cpp).
 *
 * New items (entries, nodes) are written first, each in its own generic
 * WAL record and unreachable until linked; then one record links them
 * into the tree (a node's slot, an entry's next, or the metapage's NULL
 * chain) and bumps the change counter.  A crash between the two leaves
 * unreachable items only.
 */
#include "gpuext.h"
#include "ptree.h"

extern "C"
{
#include "miscadmin.h"
#include "utils/memutils.h"
}

/* the term slot of a node (PtreeNode.term) */
#define PTREE_SLOT_TERM (-1)

/*
 * Write an item into the page its kind fills now (the metapage's hint),
 * or a new page; returns where it went.  Its own WAL record.
 */
static PtreePtr
ptree_insert_add(Relation index, Buffer metabuf, uint16 kind, const void *item, Size size)
{
	PtreeMeta  *meta = PtreePageGetMeta(BufferGetPage(metabuf));
	BlockNumber hint = (kind == PTREE_PTR_NODE) ? meta->inner_hint : meta->leaf_hint;
	uint16		pagekind = (kind == PTREE_PTR_NODE) ? PTREE_PAGE_INNER : PTREE_PAGE_LEAF;
	Buffer		buf = InvalidBuffer;
	bool		fresh = false;
	GenericXLogState *xs;
	Page		page;
	OffsetNumber off;
	BlockNumber blkno;

	if (hint != InvalidBlockNumber)
	{
		buf = ReadBuffer(index, hint);
		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		if (!ptree_page_ok(BufferGetPage(buf), pagekind) ||
			PageGetFreeSpace(BufferGetPage(buf)) < MAXALIGN(size))
		{
			UnlockReleaseBuffer(buf);
			buf = InvalidBuffer;
		}
	}
	if (!BufferIsValid(buf))
	{
		buf = ptree_new_buffer(index);
		fresh = true;
	}
	blkno = BufferGetBlockNumber(buf);
	xs = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(xs, buf, fresh ? GENERIC_XLOG_FULL_IMAGE : 0);
	if (fresh)
	{
		Page		mp = GenericXLogRegisterBuffer(xs, metabuf, 0);

		ptree_init_page(page, pagekind);
		if (kind == PTREE_PTR_NODE)
			PtreePageGetMeta(mp)->inner_hint = blkno;
		else
			PtreePageGetMeta(mp)->leaf_hint = blkno;
	}
	off = PageAddItem(page, (Item) item, size, InvalidOffsetNumber, false, false);
	if (off == InvalidOffsetNumber)
	{
		GenericXLogAbort(xs);
		elog(ERROR, "gpuext_ptree: could not add an item of %zu bytes to block %u", size, blkno);
	}
	GenericXLogFinish(xs);
	UnlockReleaseBuffer(buf);
	return ptree_make_ptr(blkno, off, kind);
}

/* a new entry (a head with key, or a continuation: key NULL) with one TID */
static PtreePtr
ptree_insert_entry(Relation index, Buffer metabuf, const uint8 *key, int keylen,
				   ItemPointer tid, uint16 flags, PtreePtr next)
{
	Size		size = PtreeEntrySize(keylen, 1);
	PtreeEntry *e = (PtreeEntry *) palloc0(size);

	e->next = next;
	e->flags = flags;
	e->keylen = (uint16) keylen;
	e->ntids = 1;
	if (keylen > 0)
		memcpy(PtreeEntryKey(e), key, keylen);
	memcpy(PtreeEntryTids(e), tid, sizeof(ItemPointerData));
	return ptree_insert_add(index, metabuf, PTREE_PTR_ENTRY, e, size);
}

/* a new node: prefix nibbles [from, from + nprefix) of key, no children */
static PtreeNode *
ptree_insert_new_node(const uint8 *key, int from, int nprefix)
{
	PtreeNode  *n = (PtreeNode *) palloc0(PtreeNodeSize(nprefix));

	n->nprefix = (uint16) nprefix;
	for (int i = 0; i < nprefix; i++)
		n->prefix[i] = (uint8) ptree_nibble(key, from + i);
	return n;
}

/* bump the change counter (and the TID count) in the metapage image mp */
static void
ptree_insert_count(Page mp)
{
	PtreeMeta  *meta = PtreePageGetMeta(mp);

	meta->change_count++;
	meta->ntids++;
}

/*
 * Link target into the tree: owner's slot (a node), owner's next (an
 * entry), or the NULL chain (owner of kind none): the record that makes a
 * change visible.
 */
static void
ptree_insert_link(Relation index, Buffer metabuf, PtreePtr owner, int slot, PtreePtr target)
{
	GenericXLogState *xs;
	Buffer		buf = InvalidBuffer;

	if (PtreePtrIsValid(owner))
	{
		buf = ReadBuffer(index, owner.blkno);
		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	}
	xs = GenericXLogStart(index);
	if (BufferIsValid(buf))
	{
		Page		page = GenericXLogRegisterBuffer(xs, buf, 0);
		Size		len;
		void	   *item = ptree_item_in_page(index, page, owner, owner.kind, &len);

		if (owner.kind == PTREE_PTR_ENTRY)
			((PtreeEntry *) item)->next = target;
		else if (slot == PTREE_SLOT_TERM)
			((PtreeNode *) item)->term = target;
		else
			((PtreeNode *) item)->child[slot] = target;
	}
	else
		PtreePageGetMeta(GenericXLogRegisterBuffer(xs, metabuf, 0))->nulls = target;
	ptree_insert_count(GenericXLogRegisterBuffer(xs, metabuf, 0));
	GenericXLogFinish(xs);
	if (BufferIsValid(buf))
		UnlockReleaseBuffer(buf);
}

/* add tid to the entry at ptr in place if its page has room */
static bool
ptree_insert_grow(Relation index, Buffer metabuf, PtreePtr ptr, ItemPointer tid)
{
	Buffer		buf = ReadBuffer(index, ptr.blkno);
	GenericXLogState *xs;
	Page		page;
	PtreeEntry *e;
	PtreeEntry *grown;
	Size		len;
	Size		newlen;
	bool		done = false;

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	xs = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(xs, buf, 0);
	e = (PtreeEntry *) ptree_item_in_page(index, page, ptr, PTREE_PTR_ENTRY, &len);
	newlen = PtreeEntrySize(e->keylen, e->ntids + 1);
	if (e->ntids < PG_UINT16_MAX && newlen <= PTREE_MAX_ITEM)
	{
		grown = (PtreeEntry *) palloc(newlen);
		memcpy(grown, e, PtreeEntrySize(e->keylen, e->ntids));
		memcpy(&PtreeEntryTids(grown)[grown->ntids], tid, sizeof(ItemPointerData));
		grown->ntids++;
		done = PageIndexTupleOverwrite(page, ptr.off, (Item) grown, newlen);
	}
	if (done)
	{
		ptree_insert_count(GenericXLogRegisterBuffer(xs, metabuf, 0));
		GenericXLogFinish(xs);
	}
	else
		GenericXLogAbort(xs);
	UnlockReleaseBuffer(buf);
	return done;
}

/*
 * Add tid to the chain of entries headed at ptr (head: a copy): the head
 * or its first continuation grows, else a new continuation follows the
 * head.
 */
static void
ptree_insert_tid(Relation index, Buffer metabuf, PtreePtr ptr, PtreeEntry *head, ItemPointer tid)
{
	PtreePtr	cont;

	if (ptree_insert_grow(index, metabuf, ptr, tid))
		return;
	if (PtreePtrIsValid(head->next) && ptree_insert_grow(index, metabuf, head->next, tid))
		return;
	cont = ptree_insert_entry(index, metabuf, NULL, 0, tid, PTREE_ENTRY_CONT, head->next);
	ptree_insert_link(index, metabuf, ptr, 0, cont);
}

/* put an entry into node n's slot for a key of nibble length knib at depth d */
static void
ptree_insert_place(PtreeNode *n, const uint8 *key, int knib, int d, PtreePtr entry)
{
	if (knib == d)
		n->term = entry;
	else
		n->child[ptree_nibble(key, d)] = entry;
}

/*
 * Two keys in one slot: the nodes below that slot that part the entry
 * old (key okey) and a new entry of key, which share nibbles [0, from);
 * returns the top node.  Nodes of full prefixes first where they share
 * more than a node's prefix holds.
 */
static PtreePtr
ptree_insert_expand(Relation index, Buffer metabuf, const uint8 *okey, int olen, PtreePtr old,
					const uint8 *key, int len, ItemPointer tid, int from)
{
	int			common = ptree_common_nibbles(okey, olen, key, len, from);
	int			split = from + common;	/* where they part */
	int			nchain = 0;
	int			start = from;
	PtreeNode  *n;
	PtreePtr	p;
	PtreePtr	none = ptree_make_ptr(InvalidBlockNumber, InvalidOffsetNumber, PTREE_PTR_NONE);

	while (split - start > PTREE_MAX_PREFIX)
	{
		start += PTREE_MAX_PREFIX + 1;
		nchain++;
	}
	n = ptree_insert_new_node(key, start, split - start);
	ptree_insert_place(n, okey, 2 * olen, split, old);
	ptree_insert_place(n, key, 2 * len, split,
					   ptree_insert_entry(index, metabuf, key, len, tid, PTREE_ENTRY_HEAD, none));
	p = ptree_insert_add(index, metabuf, PTREE_PTR_NODE, n, PtreeNodeSize(n->nprefix));
	for (int j = nchain - 1; j >= 0; j--)
	{
		int			s = from + j * (PTREE_MAX_PREFIX + 1);

		n = ptree_insert_new_node(key, s, PTREE_MAX_PREFIX);
		n->child[ptree_nibble(key, s + PTREE_MAX_PREFIX)] = p;
		p = ptree_insert_add(index, metabuf, PTREE_PTR_NODE, n, PtreeNodeSize(n->nprefix));
	}
	return p;
}

/*
 * A node whose prefix the key leaves at prefix nibble i (node at depth):
 * a new node with prefix [0, i) over a copy of the old one with the rest
 * and an entry of the key; returns the new node.
 */
static PtreePtr
ptree_insert_split(Relation index, Buffer metabuf, PtreeNode *node, int depth, int i,
				   const uint8 *key, int len, ItemPointer tid)
{
	int			rest = node->nprefix - i - 1;
	PtreeNode  *copy = (PtreeNode *) palloc(PtreeNodeSize(rest));
	PtreeNode  *top = (PtreeNode *) palloc0(PtreeNodeSize(i));
	PtreePtr	none = ptree_make_ptr(InvalidBlockNumber, InvalidOffsetNumber, PTREE_PTR_NONE);

	memcpy(copy, node, offsetof(PtreeNode, prefix));
	copy->nprefix = (uint16) rest;
	memcpy(copy->prefix, node->prefix + i + 1, rest);
	top->nprefix = (uint16) i;
	memcpy(top->prefix, node->prefix, i);
	top->child[node->prefix[i]] =
		ptree_insert_add(index, metabuf, PTREE_PTR_NODE, copy, PtreeNodeSize(rest));
	ptree_insert_place(top, key, 2 * len, depth + i,
					   ptree_insert_entry(index, metabuf, key, len, tid, PTREE_ENTRY_HEAD, none));
	return ptree_insert_add(index, metabuf, PTREE_PTR_NODE, top, PtreeNodeSize(i));
}

/* insert key with tid, from the root down */
static void
ptree_insert_key(Relation index, Buffer metabuf, const uint8 *key, int len, ItemPointer tid)
{
	PtreeMeta  *meta = PtreePageGetMeta(BufferGetPage(metabuf));
	PtreePtr	cur = meta->root;
	PtreePtr	parent = cur;
	PtreePtr	none = ptree_make_ptr(InvalidBlockNumber, InvalidOffsetNumber, PTREE_PTR_NONE);
	int			pslot = 0;
	int			depth = 0;
	int			knib = 2 * len;

	for (;;)
	{
		PtreeNode  *node = ptree_read_node(index, cur);
		int			i = 0;
		int			d2;
		int			slot;
		PtreePtr	sp;
		PtreeEntry *head;

		CHECK_FOR_INTERRUPTS();
		while (i < node->nprefix && depth + i < knib && ptree_nibble(key, depth + i) == node->prefix[i])
			i++;
		if (i < node->nprefix)
		{
			/* not the root: it has no prefix */
			ptree_insert_link(index, metabuf, parent, pslot,
							  ptree_insert_split(index, metabuf, node, depth, i, key, len, tid));
			return;
		}
		d2 = depth + node->nprefix;
		slot = (d2 == knib) ? PTREE_SLOT_TERM : ptree_nibble(key, d2);
		sp = (slot == PTREE_SLOT_TERM) ? node->term : node->child[slot];
		if (!PtreePtrIsValid(sp))
		{
			ptree_insert_link(index, metabuf, cur, slot,
							  ptree_insert_entry(index, metabuf, key, len, tid, PTREE_ENTRY_HEAD, none));
			return;
		}
		if (sp.kind == PTREE_PTR_NODE && slot != PTREE_SLOT_TERM)
		{
			parent = cur;
			pslot = slot;
			cur = sp;
			depth = d2 + 1;
			pfree(node);
			continue;
		}
		head = ptree_read_entry(index, sp);
		if (!(head->flags & PTREE_ENTRY_HEAD) || (slot == PTREE_SLOT_TERM && 2 * head->keylen != knib))
			ereport(ERROR,
					(errcode(ERRCODE_INDEX_CORRUPTED),
					 errmsg("index \"%s\" has a bad entry at block %u, item %u",
							RelationGetRelationName(index), sp.blkno, sp.off)));
		if (ptree_key_cmp((uint8 *) PtreeEntryKey(head), head->keylen, key, len) == 0)
		{
			ptree_insert_tid(index, metabuf, sp, head, tid);
			return;
		}
		ptree_insert_link(index, metabuf, cur, slot,
						  ptree_insert_expand(index, metabuf, (uint8 *) PtreeEntryKey(head),
											  head->keylen, sp, key, len, tid, d2 + 1));
		return;
	}
}

/* aminsert: index one row (a NULL key goes to the NULL chain) */
bool
ptree_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
			 Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
			 IndexInfo *indexInfo)
{
	MemoryContext ctx = AllocSetContextCreate(CurrentMemoryContext, "gpuext_ptree insert",
											  ALLOCSET_SMALL_SIZES);
	MemoryContext old = MemoryContextSwitchTo(ctx);
	PtreeMeta	meta = ptree_read_meta(index);
	Buffer		metabuf;
	uint8	   *key = NULL;
	int			len = 0;

	if (!isnull[0])
	{
		key = ptree_encode(values[0], index->rd_opcintype[0],
						   meta.key_kind, &len);
		ptree_check_key_length(index, len);
	}
	metabuf = ReadBuffer(index, PTREE_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	if (!isnull[0])
		ptree_insert_key(index, metabuf, key, len, ht_ctid);
	else
	{
		PtreePtr	nulls = PtreePageGetMeta(BufferGetPage(metabuf))->nulls;
		PtreePtr	none = ptree_make_ptr(InvalidBlockNumber, InvalidOffsetNumber, PTREE_PTR_NONE);

		if (PtreePtrIsValid(nulls))
			ptree_insert_tid(index, metabuf, nulls, ptree_read_entry(index, nulls), ht_ctid);
		else
			ptree_insert_link(index, metabuf, none, 0,
							  ptree_insert_entry(index, metabuf, NULL, 0, ht_ctid,
												 PTREE_ENTRY_HEAD | PTREE_ENTRY_NULL, none));
	}
	UnlockReleaseBuffer(metabuf);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(ctx);
	return false;
}
