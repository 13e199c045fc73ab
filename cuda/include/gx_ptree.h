/*
 * gx_ptree.h - the device image of a gpuext_ptree index ("the device
 * copy", issue 16 part 2): a flat, pointer-free array form of the prefix
 * tree that TREE_LOOKUP tasks (gx_ptree.cuh) search.  Shared by the
 * backend that writes it from the index's pages (src/index/ptree_device.cpp),
 * the validator, both devices and the unit tests; no PostgreSQL header.
 *
 * Design note
 * -----------
 * The image mirrors the index's tree (docs/ptree.md): 16-way nodes over
 * the 4-bit spans ("nibbles") of an int64 key encoded as in the index
 * (the sign bit flipped, so unsigned order is key order; nibble 0 is the
 * highest), compressed paths, and keys hanging as leaves in the shallowest
 * slot where they are alone (lazy expansion).  Integer keys only (int4 and
 * int8 indexes: 16 nibbles); text keys are later work.
 *
 *  - node i (gx_pt_node): 'depth', the nibble where its path begins,
 *    'plen' nibbles of compressed path, then it branches on nibble
 *    depth + plen through child[16]; 'path' holds the key bits of every
 *    nibble before the branch (those below the node), the rest zero.  A
 *    child is GX_PT_EMPTY, a node index, or GX_PT_LEAF | a leaf index.
 *    Node 0 is the root (depth 0, no path).
 *  - leaf i (gx_pt_leaf): the whole key and its run [tid_start, +tid_count)
 *    of the TID array; leaves in key order, runs in leaf order.
 *  - TIDs: uint64 (block << 16 | offset), heap order within a key as the
 *    index's chain holds them.
 *  - level tables, the speculative traversal's "node table of a level"
 *    (Böhm et al., section 3.1: a computational tree starts at each node
 *    covering a level's first nibble): for every nibble depth s in
 *    [0, 16), the nodes that cover s (depth <= s <= depth + plen: the walk
 *    of any key below them is at that node when it reads nibble s), as
 *    (path of the first s nibbles, node) sorted by path: level s is
 *    levels[dir[s], dir[s + 1]).  A node covers the depths from its own to
 *    its branch, so the tables hold sum(plen + 1) entries.
 *
 * Nothing here is trusted by a device: the task repeats the geometry
 * (gx_tree_ext), the validator checks that the layout of that geometry
 * fits the object, and every index read from the image is clamped
 * (gx_ptree.cuh), so a malformed image gives wrong runs, never a read out
 * of bounds.  The header's magic and change counter are for the host
 * (which copy this is); devices do not read it.
 */
#ifndef GX_PTREE_IMAGE_H
#define GX_PTREE_IMAGE_H

#include "gx_program.h"

#define GX_PT_MAGIC 0x47585054u	/* "GXPT" */
#define GX_PT_NIBBLES 16		/* nibbles of an int64 key */
#define GX_PT_FANOUT 16
#define GX_PT_EMPTY 0xFFFFFFFFu /* a child slot holding nothing */
#define GX_PT_LEAF 0x80000000u	/* a child slot holding a leaf (its index below) */
#define GX_PT_MAX_ITEMS 0x7FFFFFFFu /* nodes, leaves: below the leaf bit */
#define GX_PT_MAX_PARTS 16		/* speculative partitions of a key */

typedef struct gx_pt_node
{
	uint64_t	path;			/* key bits of nibbles [0, depth + plen) */
	uint32_t	depth;			/* first nibble of the compressed path */
	uint32_t	plen;			/* nibbles of compressed path */
	uint32_t	child[GX_PT_FANOUT];
} gx_pt_node;

typedef struct gx_pt_leaf
{
	int64_t		key;			/* the key (not encoded) */
	uint32_t	tid_start;		/* its run of the TID array */
	uint32_t	tid_count;
} gx_pt_leaf;

typedef struct gx_pt_level
{
	uint64_t	path;			/* key bits of the level's first s nibbles */
	uint32_t	node;
	uint32_t	pad;
} gx_pt_level;

/* how many of each part an image holds (a TREE_LOOKUP task repeats it) */
typedef struct gx_pt_geom
{
	uint32_t	nnodes;
	uint32_t	nleaves;
	uint32_t	ntids;
	uint32_t	nlevel;			/* level table entries, all depths */
} gx_pt_geom;

/* the image's first bytes (host information; devices use the task's geometry) */
typedef struct gx_pt_hdr
{
	uint32_t	magic;			/* GX_PT_MAGIC */
	uint32_t	version;		/* 1 */
	uint64_t	change_count;	/* the index's metapage counter it was read at */
	uint64_t	bytes;			/* the whole image */
	gx_pt_geom	geom;
} gx_pt_hdr;

/* where the parts of an image lie (byte offsets from its start) */
typedef struct gx_pt_offs
{
	uint64_t	nodes;
	uint64_t	leaves;
	uint64_t	tids;
	uint64_t	levels;
	uint64_t	dir;			/* GX_PT_NIBBLES + 1 uint32 */
	uint64_t	bytes;
} gx_pt_offs;

/* the layout of an image of geometry g */
GX_INLINE void
gx_pt_layout(const gx_pt_geom *g, gx_pt_offs *o)
{
	o->nodes = GX_ALIGN_UP(sizeof(gx_pt_hdr));
	o->leaves = GX_ALIGN_UP(o->nodes + (uint64_t) g->nnodes * sizeof(gx_pt_node));
	o->tids = GX_ALIGN_UP(o->leaves + (uint64_t) g->nleaves * sizeof(gx_pt_leaf));
	o->levels = GX_ALIGN_UP(o->tids + (uint64_t) g->ntids * sizeof(uint64_t));
	o->dir = GX_ALIGN_UP(o->levels + (uint64_t) g->nlevel * sizeof(gx_pt_level));
	o->bytes = GX_ALIGN_UP(o->dir + (GX_PT_NIBBLES + 1) * sizeof(uint32_t));
}

/* an int64 key as the index encodes it: unsigned order is key order */
GX_INLINE uint64_t
gx_pt_ukey(int64_t v)
{
	return (uint64_t) v ^ ((uint64_t) 1 << 63);
}

/* nibble i (< 16) of an encoded key (0: the highest) */
GX_INLINE uint32_t
gx_pt_nibble(uint64_t ukey, uint32_t i)
{
	return (uint32_t) (ukey >> (60 - 4 * i)) & 15u;
}

/* the bits of nibbles [0, n) (n <= 16) */
GX_INLINE uint64_t
gx_pt_head_mask(uint32_t n)
{
	return n == 0 ? 0 : n >= GX_PT_NIBBLES ? ~(uint64_t) 0 : ~(~(uint64_t) 0 >> (4 * n));
}

/* level table entries of n nodes: each covers depth .. min(depth + plen, 15) */
GX_INLINE uint64_t
gx_pt_level_count(const gx_pt_node *nodes, uint32_t n)
{
	uint64_t	total = 0;

	for (uint32_t i = 0; i < n; i++)
	{
		uint64_t	b = (uint64_t) nodes[i].depth + nodes[i].plen;

		if (nodes[i].depth < GX_PT_NIBBLES)
			total += (b < GX_PT_NIBBLES - 1 ? b : GX_PT_NIBBLES - 1) - nodes[i].depth + 1;
	}
	return total;
}

#if !defined(__CUDACC_RTC__)
#include <stdlib.h>

/* qsort order of level entries: by path (a level's entries only) */
static inline int
gx_pt_level_cmp(const void *a, const void *b)
{
	uint64_t	x = ((const gx_pt_level *) a)->path,
				y = ((const gx_pt_level *) b)->path;

	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * Host: the level tables of n nodes into caller storage, levels (of
 * gx_pt_level_count(nodes, n) entries) and dir (GX_PT_NIBBLES + 1): a
 * counting pass per depth, then each level sorted by path
 */
static inline void
gx_pt_fill_levels(const gx_pt_node *nodes, uint32_t n, gx_pt_level *levels, uint32_t *dir)
{
	uint32_t	at[GX_PT_NIBBLES];

	for (uint32_t s = 0; s <= GX_PT_NIBBLES; s++)
		dir[s] = 0;
	for (uint32_t i = 0; i < n; i++)
		for (uint64_t s = nodes[i].depth;
			 s < GX_PT_NIBBLES && s <= (uint64_t) nodes[i].depth + nodes[i].plen; s++)
			dir[s + 1]++;
	for (uint32_t s = 0; s < GX_PT_NIBBLES; s++)
	{
		dir[s + 1] += dir[s];
		at[s] = dir[s];
	}
	for (uint32_t i = 0; i < n; i++)
		for (uint64_t s = nodes[i].depth;
			 s < GX_PT_NIBBLES && s <= (uint64_t) nodes[i].depth + nodes[i].plen; s++)
		{
			gx_pt_level *l = &levels[at[s]++];

			l->path = nodes[i].path & gx_pt_head_mask((uint32_t) s);
			l->node = i;
			l->pad = 0;
		}
	for (uint32_t s = 0; s < GX_PT_NIBBLES; s++)
		if (dir[s + 1] - dir[s] > 1)
			qsort(levels + dir[s], dir[s + 1] - dir[s], sizeof(gx_pt_level), gx_pt_level_cmp);
}
#endif

#endif							/* GX_PTREE_IMAGE_H */
