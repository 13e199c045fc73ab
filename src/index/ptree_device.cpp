/*
 * ptree_device.cpp - the device image of a gpuext_ptree index ("the device
 * copy", gx_ptree.h): the backend reads the index's pages and writes the
 * flat array form TREE_LOOKUP tasks search; a backend keeps the images it
 * built while the index does not change.
 *
 * Design note
 * -----------
 * Under the metapage's share lock (which excludes every change: inserts
 * and VACUUM take it exclusively) the tree is walked from the root as
 * gpuext_ptree_check walks it: each node becomes an image node (preorder,
 * the root first), each entry a leaf with its TID chain appended to the
 * TID array (depth-first in nibble order is key order, so leaves come
 * sorted), then the level tables are filled (gx_pt_fill_levels).  The
 * image records the change counter it was read at.
 *
 * Never stale: an image is reused only for the same index, relfilenode
 * (REINDEX, TRUNCATE, VACUUM FULL give a new one whose counter starts at
 * 0 again) and change counter, read under the same share lock at each
 * use; any change bumps the counter, so the next use rebuilds.  The images
 * live in a backend-local cache (GX_PT_CACHED of them, TopMemoryContext);
 * the device copy itself is a shared object named by (index, relfilenode,
 * change counter) and the image's hash, written once for every backend,
 * or a session copy of a lookup when it cannot be one (ptree_lookup.cpp,
 * shared_objects.cpp).
 *
 * Integer indexes only (int4, int8: 8-byte keys, 16 nibbles); a text
 * index is refused.  A structure the image cannot hold (a node past the
 * 16th nibble, a key ending at a node, an entry whose key is not 8 bytes
 * or does not begin with the path to it) is reported as corruption.
 */
#include "gpuext.h"
#include "ptree.h"
#include "gx_ptree.h"

extern "C"
{
#include "miscadmin.h"
#include "utils/memutils.h"
}

#define GX_PT_CACHED 8			/* images a backend keeps */

/* what a build collects before the image is laid out */
typedef struct PtreeImageBuild
{
	Relation	index;
	gx_pt_node *nodes;
	uint32		nnodes;
	uint64		capnodes;
	gx_pt_leaf *leaves;
	uint32		nleaves;
	uint64		capleaves;
	uint64	   *tids;
	uint64		ntids;
	uint64		captids;
} PtreeImageBuild;

static PtreeImage *ptree_images[GX_PT_CACHED];
static uint64 ptree_image_clock;	/* last use, for the replacement */

/* report a structure the image cannot hold */
static void
ptree_image_fail(Relation index, PtreePtr p, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("gpuext_ptree index \"%s\" cannot be copied to a device: %s (block %u, item %u)",
					RelationGetRelationName(index), what, p.blkno, p.off)));
}

/* room for one more of n items of size sz in *arr (capacity *cap), huge-aware */
static void *
ptree_image_grow(void *arr, uint64 n, uint64 *cap, Size sz)
{
	if (n < *cap)
		return arr;
	*cap = Max((uint64) 1024, *cap * 2);
	return arr == NULL ? MemoryContextAllocHuge(CurrentMemoryContext, *cap * sz) :
		repalloc_huge(arr, *cap * sz);
}

/* the TIDs of an entry into the build's TID array */
static void
ptree_image_tids(PtreeImageBuild *b, PtreeEntry *e)
{
	ItemPointerData *t = PtreeEntryTids(e);

	for (int i = 0; i < e->ntids; i++)
	{
		b->tids = (uint64 *) ptree_image_grow(b->tids, b->ntids, &b->captids, sizeof(uint64));
		b->tids[b->ntids++] = ((uint64) ItemPointerGetBlockNumberNoCheck(&t[i]) << 16) |
			ItemPointerGetOffsetNumberNoCheck(&t[i]);
	}
}

/* the entry at p, reached by nibbles [0, n) of path: a leaf and its TIDs */
static uint32
ptree_image_leaf(PtreeImageBuild *b, PtreePtr p, uint64 path, uint32 n)
{
	PtreeEntry *e = ptree_read_entry(b->index, p);
	const uint8 *k = (const uint8 *) PtreeEntryKey(e);
	uint64		u = 0;
	uint64		chain = 0;
	const uint64 chain_max = (uint64) RelationGetNumberOfBlocks(b->index) * MaxOffsetNumber;
	PtreePtr	next;
	gx_pt_leaf *l;

	if (e->flags != PTREE_ENTRY_HEAD || e->keylen != 8)
		ptree_image_fail(b->index, p, "a slot's entry is not the head of an 8-byte key");
	for (int i = 0; i < 8; i++)
		u = (u << 8) | k[i];
	if (((u ^ path) & gx_pt_head_mask(n)) != 0)
		ptree_image_fail(b->index, p, "an entry's key does not begin with the path to it");
	if (b->nleaves >= GX_PT_MAX_ITEMS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("gpuext_ptree index \"%s\" has too many keys for a device image",
						RelationGetRelationName(b->index))));
	b->leaves = (gx_pt_leaf *) ptree_image_grow(b->leaves, b->nleaves, &b->capleaves,
												sizeof(gx_pt_leaf));
	l = &b->leaves[b->nleaves];
	l->key = (int64) (u ^ (UINT64CONST(1) << 63));
	l->tid_start = (uint32) b->ntids;
	ptree_image_tids(b, e);
	next = e->next;
	pfree(e);
	while (PtreePtrIsValid(next))
	{
		PtreeEntry *c = ptree_read_entry(b->index, next);

		CHECK_FOR_INTERRUPTS();
		if (c->flags != PTREE_ENTRY_CONT || ++chain > chain_max)
			ptree_image_fail(b->index, next, "an entry chain is broken or loops");
		ptree_image_tids(b, c);
		next = c->next;
		pfree(c);
	}
	if (b->ntids > UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("gpuext_ptree index \"%s\" has too many TIDs for a device image",
						RelationGetRelationName(b->index))));
	b->leaves[b->nleaves].tid_count = (uint32) (b->ntids - b->leaves[b->nleaves].tid_start);
	return b->nleaves++;
}

/*
 * The node at p, whose path begins at nibble depth (path: the bits of the
 * nibbles before), and below it: image nodes in preorder; its index
 */
static uint32
ptree_image_node(PtreeImageBuild *b, PtreePtr p, uint32 depth, uint64 path)
{
	PtreeNode  *node = ptree_read_node(b->index, p);
	uint32		idx,
				br;

	CHECK_FOR_INTERRUPTS();
	if (depth + node->nprefix >= GX_PT_NIBBLES)
		ptree_image_fail(b->index, p, "a node branches past an integer key's last nibble");
	if (PtreePtrIsValid(node->term))
		ptree_image_fail(b->index, p, "an integer key ends at a node");
	if (b->nnodes >= GX_PT_MAX_ITEMS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("gpuext_ptree index \"%s\" has too many nodes for a device image",
						RelationGetRelationName(b->index))));
	for (int i = 0; i < node->nprefix; i++)
	{
		if (node->prefix[i] >= GX_PT_FANOUT)
			ptree_image_fail(b->index, p, "a node's path holds a value that is no nibble");
		path |= (uint64) node->prefix[i] << (60 - 4 * (depth + i));
	}
	br = depth + node->nprefix;
	b->nodes = (gx_pt_node *) ptree_image_grow(b->nodes, b->nnodes, &b->capnodes,
											   sizeof(gx_pt_node));
	idx = b->nnodes++;
	b->nodes[idx].path = path;
	b->nodes[idx].depth = depth;
	b->nodes[idx].plen = node->nprefix;
	for (int c = 0; c < GX_PT_FANOUT; c++)
	{
		PtreePtr	cp = node->child[c];
		uint64		cpath = path | ((uint64) c << (60 - 4 * br));
		uint32		slot = GX_PT_EMPTY;

		if (cp.kind == PTREE_PTR_NODE)
			slot = ptree_image_node(b, cp, br + 1, cpath);
		else if (cp.kind == PTREE_PTR_ENTRY)
			slot = GX_PT_LEAF | ptree_image_leaf(b, cp, cpath, br + 1);
		else if (cp.kind != PTREE_PTR_NONE)
			ptree_image_fail(b->index, p, "a node has a pointer of no kind");
		b->nodes[idx].child[c] = slot;	/* (the array may have moved) */
	}
	pfree(node);
	return idx;
}

/*
 * A 64-bit hash of an image's bytes (a multiple of 8): equal images, equal
 * hashes, so that a shared device copy named by (index, relfilenode,
 * change counter) is used only by backends whose own image is the same
 */
static uint64
ptree_image_hash(const char *bytes, uint64 n)
{
	uint64		h = UINT64CONST(0x9E3779B97F4A7C15) ^ n;

	for (uint64 i = 0; i + 8 <= n; i += 8)
	{
		uint64		w;

		memcpy(&w, bytes + i, 8);
		h = (h ^ w) * UINT64CONST(0x100000001B3);
		h ^= h >> 29;
	}
	return h;
}

/* the build's parts laid out as an image in memory of cxt */
static PtreeImage *
ptree_image_layout(PtreeImageBuild *b, uint64 change_count, MemoryContext cxt)
{
	PtreeImage *img;
	gx_pt_geom	g;
	gx_pt_offs	o;
	gx_pt_hdr  *h;
	uint64		nlevel = gx_pt_level_count(b->nodes, b->nnodes);

	if (nlevel > UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("gpuext_ptree index \"%s\" is too large for a device image",
						RelationGetRelationName(b->index))));
	g.nnodes = b->nnodes;
	g.nleaves = b->nleaves;
	g.ntids = (uint32) b->ntids;
	g.nlevel = (uint32) nlevel;
	gx_pt_layout(&g, &o);
	/* one allocation: the descriptor, then the image */
	img = (PtreeImage *) MemoryContextAllocHuge(cxt, TYPEALIGN(16, sizeof(PtreeImage)) + o.bytes);
	memset(img, 0, sizeof(PtreeImage));
	img->geom = g;
	img->bytes = (char *) img + TYPEALIGN(16, sizeof(PtreeImage));
	img->nbytes = o.bytes;
	memset(img->bytes, 0, o.bytes);
	h = (gx_pt_hdr *) img->bytes;
	h->magic = GX_PT_MAGIC;
	h->version = 1;
	h->change_count = change_count;
	h->bytes = o.bytes;
	h->geom = g;
	if (b->nnodes > 0)
		memcpy(img->bytes + o.nodes, b->nodes, (Size) b->nnodes * sizeof(gx_pt_node));
	if (b->nleaves > 0)
		memcpy(img->bytes + o.leaves, b->leaves, (Size) b->nleaves * sizeof(gx_pt_leaf));
	if (b->ntids > 0)
		memcpy(img->bytes + o.tids, b->tids, (Size) b->ntids * sizeof(uint64));
	gx_pt_fill_levels((const gx_pt_node *) (img->bytes + o.nodes), b->nnodes,
					  (gx_pt_level *) (img->bytes + o.levels), (uint32 *) (img->bytes + o.dir));
	img->tids = (const uint64 *) (img->bytes + o.tids);
	img->change_count = change_count;
	img->check = ptree_image_hash(img->bytes, img->nbytes);
	return img;
}

/* forget cached image i */
static void
ptree_image_drop(int i)
{
	if (ptree_images[i] == NULL)
		return;
	pfree(ptree_images[i]);		/* (the image with it) */
	ptree_images[i] = NULL;
}

/*
 * The device image of a gpuext_ptree index of integers, current: the
 * cached one while the index's relfilenode and change counter are those it
 * was read at, else one built now from the pages (and cached).  *reused
 * says which.  ERROR for another index or a text index.
 */
PtreeImage *
ptree_device_image(Relation index, bool *reused)
{
	Buffer		metabuf;
	PtreeMeta	meta;
	PtreeImage *img = NULL;
	int			slot = 0;
	Oid			filenode = index->rd_rel->relfilenode;
	MemoryContext tmp,
				old;
	PtreeImageBuild b;

	if (ptree_key_kind(index) != PTREE_KEY_INT)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("gpuext_ptree index \"%s\" has text keys: device lookups take int4 and int8 indexes",
						RelationGetRelationName(index))));
	(void) ptree_read_meta(index);	/* (ERROR if it is not ours) */
	metabuf = ReadBuffer(index, PTREE_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_SHARE);
	meta = *PtreePageGetMeta(BufferGetPage(metabuf));
	for (int i = 0; i < GX_PT_CACHED; i++)
	{
		PtreeImage *c = ptree_images[i];

		if (c != NULL && c->indexoid == RelationGetRelid(index))
		{
			if (c->filenode == filenode && c->change_count == meta.change_count)
				img = c;
			else
				ptree_image_drop(i);	/* stale: never used again */
		}
		if (ptree_images[i] == NULL || (ptree_images[slot] != NULL &&
										ptree_images[i]->used < ptree_images[slot]->used))
			slot = i;
	}
	*reused = img != NULL;
	if (img != NULL)
	{
		UnlockReleaseBuffer(metabuf);
		img->used = ++ptree_image_clock;
		return img;
	}
	if (meta.root.kind != PTREE_PTR_NODE)
		ptree_image_fail(index, meta.root, "the root is not a node");
	tmp = AllocSetContextCreate(CurrentMemoryContext, "gpuext_ptree image build",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(tmp);
	memset(&b, 0, sizeof(b));
	b.index = index;
	(void) ptree_image_node(&b, meta.root, 0, 0);
	UnlockReleaseBuffer(metabuf);
	MemoryContextSwitchTo(old);
	ptree_image_drop(slot);
	img = ptree_image_layout(&b, meta.change_count, TopMemoryContext);
	MemoryContextDelete(tmp);
	img->indexoid = RelationGetRelid(index);
	img->filenode = filenode;
	img->used = ++ptree_image_clock;
	ptree_images[slot] = img;
	return img;
}
