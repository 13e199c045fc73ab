/*
 * ptree_page.cpp - gpuext_ptree's pages: the metapage, inner pages of
 * nodes, leaf pages of entries, and reading their items.
 *
 * Design note (gpuext_ptree, a prefix tree in an index's own pages)
 * ------------------------------------------------------------------
 * Keys are byte strings whose byte order is the key order (ptree_key.cpp);
 * the tree branches on 4-bit spans ("nibbles"), so a node has 16 children
 * (the paper's fixed-span prefix tree).  Long keys: a node keeps a
 * compressed path (up to PTREE_MAX_PREFIX nibbles that all keys below it
 * share), and a key hangs as an entry at the shallowest slot where it is
 * the only key (lazy expansion): the tree goes deeper only where keys
 * share a prefix, whatever their length.  An entry holds its whole key
 * (at most PTREE_MAX_KEY bytes: a page), so a reader compares it exactly.
 *
 * Block 0 is the metapage (PtreeMeta).  Inner pages hold nodes (PtreeNode:
 * prefix, the "term" entry of the key that ends at the node, 16 child
 * pointers), leaf pages entries (PtreeEntry: key, TIDs, next).  A pointer
 * is (block, offset, kind).  Items are only ever added: an offset, once
 * given, stays valid, so a reader may follow a pointer it read earlier.
 *
 * Changes (ptree_insert.cpp):
 *  - a node is never resized: a change of its prefix copies it (the old
 *    copy stays, unreachable), a child slot is set in place;
 *  - a new key: a new entry in an empty slot; where the slot holds an
 *    entry of another key, new nodes that split the two (the old entry is
 *    reused, not copied); where a node's prefix differs, a new node with
 *    the shared part above a copy of the old node with the rest;
 *  - a TID of a known key: the head (or its first continuation) grows in
 *    place if its page has room, else a new continuation is linked after
 *    the head.
 * New items are written first (each in its own generic WAL record: they are
 * unreachable until linked), then one record links them (a slot or a next
 * pointer) and bumps the metapage's change counter.  A crash in between
 * leaves unreachable items, never a broken tree.  Build (ptree_build.cpp)
 * writes the whole tree from sorted keys, a page image at a time.
 *
 * Locking: every change (insert, vacuum) holds the metapage's buffer lock
 * exclusively, so changes are serial; a page is changed under its
 * exclusive lock.  A scan holds one page's share lock at a time, and
 * only while copying an item.  Entries present when a scan starts stay
 * reachable from the nodes it has not read yet, and are reachable once
 * (a slot changes from an entry or a node to a node that holds what the
 * old one held), so a scan sees each of them once; what is added
 * meanwhile it may or may not see (invisible to its snapshot anyway).
 *
 * VACUUM removes dead TIDs from entries in place; an entry emptied stays
 * (its key too) and takes TIDs again.  NULL keys are indexed: a chain from
 * the metapage, after all keys in a forward scan.
 */
#include "gpuext.h"
#include "ptree.h"

extern "C"
{
#include "storage/lmgr.h"
#include "utils/rel.h"
}

/* a pointer to item off of block blkno */
PtreePtr
ptree_make_ptr(BlockNumber blkno, OffsetNumber off, uint16 kind)
{
	PtreePtr	p;

	p.blkno = blkno;
	p.off = off;
	p.kind = kind;
	return p;
}

/* an empty page of a kind */
void
ptree_init_page(Page page, uint16 kind)
{
	PtreePageOpaque *op;

	PageInit(page, BLCKSZ, sizeof(PtreePageOpaque));
	op = PtreePageGetOpaque(page);
	op->kind = kind;
	op->flags = 0;
	op->magic = PTREE_MAGIC;
}

/* the metapage of an index with no tree yet (no root) */
void
ptree_init_meta(Page page, uint32 key_kind)
{
	PtreeMeta  *meta;

	ptree_init_page(page, PTREE_PAGE_META);
	meta = PtreePageGetMeta(page);
	memset(meta, 0, sizeof(PtreeMeta));
	meta->magic = PTREE_MAGIC;
	meta->version = PTREE_VERSION;
	meta->key_kind = key_kind;
	meta->span_bits = PTREE_SPAN_BITS;
	meta->root = ptree_make_ptr(InvalidBlockNumber, InvalidOffsetNumber, PTREE_PTR_NONE);
	meta->nulls = meta->root;
	meta->inner_hint = InvalidBlockNumber;
	meta->leaf_hint = InvalidBlockNumber;
	/* keep the contents below pd_lower: generic WAL skips the hole */
	((PageHeader) page)->pd_lower = ((char *) meta + sizeof(PtreeMeta)) - (char *) page;
}

/* a new page at the end of the index, pinned and exclusively locked */
Buffer
ptree_new_buffer(Relation index)
{
	Buffer		buf;

	LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBuffer(index, P_NEW);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	UnlockRelationForExtension(index, ExclusiveLock);
	return buf;
}

/* is a page one of ours, of a kind (0: any)? */
bool
ptree_page_ok(Page page, uint16 kind)
{
	PtreePageOpaque *op;

	if (PageIsNew(page) || PageGetSpecialSize(page) != MAXALIGN(sizeof(PtreePageOpaque)))
		return false;
	op = PtreePageGetOpaque(page);
	return op->magic == PTREE_MAGIC && (kind == 0 || op->kind == kind);
}

/*
 * The item ptr points to in page (locked by the caller), checked against
 * the kind of page it must be on; ERROR (index corrupted) if it is not.
 */
void *
ptree_item_in_page(Relation index, Page page, PtreePtr ptr, uint16 kind, Size *len)
{
	uint16		pagekind = (kind == PTREE_PTR_NODE) ? PTREE_PAGE_INNER : PTREE_PAGE_LEAF;
	ItemId		iid;

	if (!ptree_page_ok(page, pagekind) || ptr.off < FirstOffsetNumber ||
		ptr.off > PageGetMaxOffsetNumber(page))
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a bad pointer to block %u, item %u",
						RelationGetRelationName(index), ptr.blkno, ptr.off)));
	iid = PageGetItemId(page, ptr.off);
	if (!ItemIdIsNormal(iid))
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" points to an unused item (block %u, item %u)",
						RelationGetRelationName(index), ptr.blkno, ptr.off)));
	*len = ItemIdGetLength(iid);
	return PageGetItem(page, iid);
}

/* a palloc'd copy of the item ptr points to (read under a share lock) */
static void *
ptree_read_item(Relation index, PtreePtr ptr, uint16 kind)
{
	Buffer		buf;
	Size		len;
	void	   *item;
	void	   *copy;

	if (ptr.kind != kind || ptr.blkno == PTREE_METAPAGE_BLKNO || ptr.blkno == InvalidBlockNumber)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a bad pointer to block %u, item %u",
						RelationGetRelationName(index), ptr.blkno, ptr.off)));
	buf = ReadBuffer(index, ptr.blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	item = ptree_item_in_page(index, BufferGetPage(buf), ptr, kind, &len);
	copy = palloc(len);
	memcpy(copy, item, len);
	UnlockReleaseBuffer(buf);
	return copy;
}

/* a copy of the node ptr points to */
PtreeNode *
ptree_read_node(Relation index, PtreePtr ptr)
{
	return (PtreeNode *) ptree_read_item(index, ptr, PTREE_PTR_NODE);
}

/* a copy of the entry ptr points to */
PtreeEntry *
ptree_read_entry(Relation index, PtreePtr ptr)
{
	return (PtreeEntry *) ptree_read_item(index, ptr, PTREE_PTR_ENTRY);
}

/* a copy of the metapage's contents; ERROR if it is not ours */
PtreeMeta
ptree_read_meta(Relation index)
{
	Buffer		buf = ReadBuffer(index, PTREE_METAPAGE_BLKNO);
	Page		page;
	PtreeMeta	meta;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (!ptree_page_ok(page, PTREE_PAGE_META) || PtreePageGetMeta(page)->magic != PTREE_MAGIC ||
		PtreePageGetMeta(page)->version != PTREE_VERSION)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is not a gpuext_ptree index of version %d",
						RelationGetRelationName(index), PTREE_VERSION)));
	meta = *PtreePageGetMeta(page);
	UnlockReleaseBuffer(buf);
	return meta;
}
