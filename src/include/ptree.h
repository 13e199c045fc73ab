/*
 * ptree.h - gpuext_ptree, a prefix-tree index access method (src/index/):
 * the on-disk layout and the functions the files of src/index/ share.
 * docs/ptree.md describes the design; ptree_page.cpp holds its note.
 *
 * Keys are order-preserving byte strings (ptree_key.cpp): an integer
 * (int4 or int8) is its int64 value with the sign bit flipped, big-endian
 * (8 bytes); a text is its bytes.  The tree branches on 4-bit spans of
 * the key ("nibbles"): 16-way nodes.
 */
#ifndef GX_PTREE_H
#define GX_PTREE_H

extern "C"
{
#include "access/amapi.h"
#include "access/genam.h"
#include "access/generic_xlog.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "utils/rel.h"
}

#include "gx_ptree.h"

#define PTREE_MAGIC			0x50545245	/* "PTRE" */
#define PTREE_VERSION		1
#define PTREE_METAPAGE_BLKNO 0
#define PTREE_SPAN_BITS		4
#define PTREE_FANOUT		(1 << PTREE_SPAN_BITS)
/* the most nibbles one node's compressed path (prefix) holds */
#define PTREE_MAX_PREFIX	1024

/* strategy numbers: those of btree, so the planner treats it like one */
#define PTREE_STRATEGIES	5

/* page kinds (PtreePageOpaque.kind) */
#define PTREE_PAGE_META		1
#define PTREE_PAGE_INNER	2	/* holds nodes */
#define PTREE_PAGE_LEAF		3	/* holds entries */

/* what a key is made of (PtreeMeta.key_kind) */
#define PTREE_KEY_INT		1
#define PTREE_KEY_TEXT		2

/* special space of every page */
typedef struct PtreePageOpaque
{
	uint16		kind;
	uint16		flags;
	uint32		magic;
} PtreePageOpaque;

#define PtreePageGetOpaque(page) ((PtreePageOpaque *) PageGetSpecialPointer(page))

/* what a pointer points to (PtreePtr.kind) */
#define PTREE_PTR_NONE		0
#define PTREE_PTR_NODE		1
#define PTREE_PTR_ENTRY		2

/* a pointer to a node or an entry: an item of an index page */
typedef struct PtreePtr
{
	BlockNumber blkno;
	OffsetNumber off;
	uint16		kind;
} PtreePtr;

#define PtreePtrIsValid(p) ((p).kind != PTREE_PTR_NONE)

/* the metapage's contents (block 0) */
typedef struct PtreeMeta
{
	uint32		magic;
	uint32		version;
	uint32		key_kind;		/* PTREE_KEY_* */
	uint32		span_bits;		/* PTREE_SPAN_BITS */
	PtreePtr	root;			/* a node with no prefix; never replaced */
	PtreePtr	nulls;			/* the entry chain of NULL keys, or none */
	BlockNumber inner_hint;		/* where new nodes go first */
	BlockNumber leaf_hint;		/* where new entries go first */
	/*
	 * Bumped by every change of the tree (insert, vacuum) in the same WAL
	 * record: a copy of the index elsewhere (a device) that read it at count
	 * c is current while the count is still c.
	 */
	uint64		change_count;
	uint64		ntids;			/* heap TIDs indexed (a statistic) */
} PtreeMeta;

#define PtreePageGetMeta(page) ((PtreeMeta *) PageGetContents(page))

/*
 * A node (an item of an inner page): its compressed path, then the entry
 * of the key that ends at it (term) and its 16 children.  A node is never
 * resized or moved: only a slot is set in place (ptree_insert.cpp).
 */
typedef struct PtreeNode
{
	uint16		nprefix;		/* nibbles in prefix[] */
	uint16		flags;
	PtreePtr	term;
	PtreePtr	child[PTREE_FANOUT];
	uint8		prefix[FLEXIBLE_ARRAY_MEMBER];	/* one nibble a byte */
} PtreeNode;

#define PtreeNodeSize(nprefix) (offsetof(PtreeNode, prefix) + (nprefix))

/* entry flags */
#define PTREE_ENTRY_HEAD	0x0001	/* the first entry of a key: has the key */
#define PTREE_ENTRY_CONT	0x0002	/* more TIDs of the key of its head */
#define PTREE_ENTRY_NULL	0x0004	/* the chain of NULL keys */

/*
 * An entry (an item of a leaf page): a key (a head) and TIDs; next links
 * the entries of the same key (a chain: head, then continuations without
 * the key).  Layout: the header, the key's bytes, TIDs from
 * PtreeEntryTidOff(keylen) on.
 */
typedef struct PtreeEntry
{
	PtreePtr	next;
	uint16		flags;
	uint16		keylen;
	uint16		ntids;
	char		data[FLEXIBLE_ARRAY_MEMBER];
} PtreeEntry;

#define PtreeEntryTidOff(keylen) SHORTALIGN(offsetof(PtreeEntry, data) + (keylen))
#define PtreeEntrySize(keylen, ntids) (PtreeEntryTidOff(keylen) + (ntids) * sizeof(ItemPointerData))
#define PtreeEntryKey(e) ((e)->data)
#define PtreeEntryTids(e) ((ItemPointerData *) ((char *) (e) + PtreeEntryTidOff((e)->keylen)))

/* the largest item a page takes */
#define PTREE_MAX_ITEM \
	(BLCKSZ - MAXALIGN(SizeOfPageHeaderData + sizeof(ItemIdData)) - MAXALIGN(sizeof(PtreePageOpaque)))
/* the longest key: an entry with it and one TID fills a page */
#define PTREE_MAX_KEY \
	((int) (PTREE_MAX_ITEM - MAXIMUM_ALIGNOF - PtreeEntrySize(0, 1)))

/* the nibble i of a key (0: the high half of byte 0) */
static inline int
ptree_nibble(const uint8 *key, int i)
{
	return (i & 1) ? (key[i >> 1] & 0x0F) : (key[i >> 1] >> 4);
}

/* ---- ptree_page.cpp: pages, the metapage, reading items ---- */
extern void ptree_init_page(Page page, uint16 kind);
extern void ptree_init_meta(Page page, uint32 key_kind);
extern Buffer ptree_new_buffer(Relation index);
extern bool ptree_page_ok(Page page, uint16 kind);
extern PtreeNode *ptree_read_node(Relation index, PtreePtr ptr);
extern PtreeEntry *ptree_read_entry(Relation index, PtreePtr ptr);
extern PtreeMeta ptree_read_meta(Relation index);
extern void *ptree_item_in_page(Relation index, Page page, PtreePtr ptr, uint16 kind, Size *len);
extern PtreePtr ptree_make_ptr(BlockNumber blkno, OffsetNumber off, uint16 kind);

/* ---- ptree_key.cpp: keys as byte strings ---- */
extern uint32 ptree_key_kind(Relation index);
extern uint8 *ptree_encode(Datum value, Oid typid, uint32 key_kind, int *len);
extern int	ptree_key_cmp(const uint8 *a, int alen, const uint8 *b, int blen);
extern int	ptree_common_nibbles(const uint8 *a, int alen, const uint8 *b, int blen, int from);
extern void ptree_check_key_length(Relation index, int len);

/* ---- ptree_handler.cpp: the routine, options, validate ---- */
extern bytea *ptree_options(Datum reloptions, bool validate);
extern bool ptree_validate(Oid opclassoid);

/* ---- ptree_build.cpp ---- */
extern IndexBuildResult *ptree_build(Relation heap, Relation index, struct IndexInfo *indexInfo);
extern void ptree_buildempty(Relation index);
extern char *ptree_buildphasename(int64 phasenum);

/* ---- ptree_insert.cpp ---- */
extern bool ptree_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
						 Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
						 struct IndexInfo *indexInfo);

/* ---- ptree_scan.cpp ---- */
extern IndexScanDesc ptree_beginscan(Relation r, int nkeys, int norderbys);
extern void ptree_rescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
						 ScanKey orderbys, int norderbys);
extern bool ptree_gettuple(IndexScanDesc scan, ScanDirection dir);
extern int64 ptree_getbitmap(IndexScanDesc scan, TIDBitmap *tbm);
extern void ptree_endscan(IndexScanDesc scan);

/* ---- ptree_vacuum.cpp ---- */
extern IndexBulkDeleteResult *ptree_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
											   IndexBulkDeleteCallback callback, void *callback_state);
extern IndexBulkDeleteResult *ptree_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats);

/* ---- ptree_device.cpp: the device image (gx_ptree.h) ---- */
typedef struct PtreeImage
{
	Oid			indexoid;
	Oid			filenode;		/* the index's relfilenode it was read from */
	uint64		change_count;	/* the metapage's counter it was read at */
	gx_pt_geom	geom;
	char	   *bytes;			/* the image (gx_pt_layout of geom) */
	uint64		nbytes;
	const uint64 *tids;			/* its TID array (block << 16 | offset) */
	uint64		used;			/* last use (the cache's replacement) */
	uint64		check;			/* a hash of bytes (a shared copy's key, ptree_lookup.cpp) */
} PtreeImage;

extern PtreeImage *ptree_device_image(Relation index, bool *reused);

/* ---- ptree_cost.cpp ---- */
extern void ptree_costestimate(struct PlannerInfo *root, struct IndexPath *path, double loop_count,
							   Cost *indexStartupCost, Cost *indexTotalCost,
							   Selectivity *indexSelectivity, double *indexCorrelation,
							   double *indexPages);

#endif							/* GX_PTREE_H */
