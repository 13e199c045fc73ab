/*
 * gx_ptree.cuh - batched lookups in a prefix-tree index's device image
 * (gx_ptree.h): the TREE_LOOKUP task's per-key steps, sequential and
 * speculative partitioned traversal, shared by the GPU kernels
 * (gx_gpu.cu) and the CPU device (gx_cpu.cpp).
 *
 * Design note
 * -----------
 * A key (the task's column 0, int8; NULL matches nothing) gives the run
 * [start, start + count) of the image's TID array of its leaf, or (0, 0)
 * when the index does not hold it; the result area is SEARCH's.
 *
 *  - SEQ: a thread a key walks from the root: at each node it compares
 *    the compressed path's nibbles it has not read yet, then takes the
 *    child of the branch nibble; a leaf ends the walk (its whole key is
 *    compared: lazy expansion hangs a key where it is alone, so the path
 *    alone does not decide).
 *  - SPEC: speculative partitioned traversal (Böhm et al., "Speculative
 *    query processing on GPUs", sections 3.1 and 3.3) with P = parts
 *    partitions of m = 16 / P nibbles.  Partition j of a key (its own
 *    thread on the GPU; lanes of a loop on the CPU) starts at nibble
 *    s = j m, from the computational tree of that level the key falls in:
 *    the node covering depth s whose path equals the key's first s
 *    nibbles, found by a binary search of level s's node table (the root
 *    for j = 0).  Traversing every computational tree of the level, as the
 *    paper does for its fixed-layout trees, would cost a read of every
 *    node of the level per key; in a trie at most one of them can lie on
 *    the key's way, and the table names it.  The partition walks as SEQ
 *    does until it leaves its nibbles [s, s + m): its result is NONE (a
 *    mismatch, an empty slot, no node at s), HIT (a leaf whose key is the
 *    key) or NEXT (the node covering s + m: the next partition's start).
 *    All partitions of a key run at once, speculatively: most find
 *    nothing, or work the sequential walk would not have done.
 *  - Parallel result building (section 3.3, the reversed table): a HIT of
 *    partition j is the answer when every partition i < j said NEXT and
 *    named exactly the node partition i + 1 started from; each HIT's lane
 *    checks its predecessors at once (on the GPU through shared memory,
 *    after a tile sync), at most one lane can pass (a passing j needs
 *    NEXT, not HIT, at every i < j) and it writes the run; when none
 *    passes, lane 0 writes (0, 0).  On a well-formed image this is the
 *    sequential walk's answer: the level tables give the node the walk is
 *    at when it reads nibble s.
 *
 * Bounds: every node, leaf and level index read from the image is
 * checked against the task's geometry (validated against the object's
 * bytes), a walk's position grows at every node (at most 16 steps), a
 * level's search range is clamped into the table, a run is clamped into
 * the TID array: no image makes a key read out of bounds or loop.  Both
 * devices run these functions, so their runs are identical for any image
 * and algorithm.
 *
 * Device and host code; valid under nvcc and g++ (no PostgreSQL header).
 */
#ifndef GX_PTREE_CUH
#define GX_PTREE_CUH

#include "gx_ptree.h"

/* what a TREE_LOOKUP task's keys read: its column, the image's parts */
typedef struct gx_pt_in
{
	const int64_t *keys;		/* column 0 */
	const uint32_t *nulls;		/* its bitmap (bit set = NULL), NULL: none */
	const gx_pt_node *nodes;
	const gx_pt_leaf *leaves;
	const gx_pt_level *levels;
	const uint32_t *dir;
	gx_pt_geom	g;				/* the task's geometry */
	uint32_t	parts;			/* SPEC: partitions a key; SEQ: 1 */
} gx_pt_in;

/* one partition's intermediate result (the paper's result table) */
typedef struct gx_pt_part
{
	uint32_t	start;			/* the node it started from, GX_PT_EMPTY: none */
	uint32_t	kind;			/* GX_PT_NONE, GX_PT_NEXT, GX_PT_HIT */
	uint32_t	target;			/* NEXT: a node; HIT: a leaf */
	uint32_t	pad;
} gx_pt_part;

#define GX_PT_NONE 0u
#define GX_PT_NEXT 1u
#define GX_PT_HIT 2u

/*
 * The keys of task c whose column lies at base (the task as the device
 * sees it) against the image object obj
 */
GX_HD gx_pt_in
gx_pt_in_of(const gx_chunk *c, const char *base, const char *obj)
{
	gx_pt_in	in;
	gx_pt_offs	o;

	in.keys = (const int64_t *) (base + c->cols[0].values_off);
	in.nulls = c->cols[0].nulls_off != 0 ? (const uint32_t *) (base + c->cols[0].nulls_off) : 0;
	in.g.nnodes = c->ext.tree.nnodes;
	in.g.nleaves = c->ext.tree.nleaves;
	in.g.ntids = c->ext.tree.ntids;
	in.g.nlevel = c->ext.tree.nlevel;
	in.parts = c->ext.tree.alg == GX_TREE_SPEC ? c->ext.tree.parts : 1;
	gx_pt_layout(&in.g, &o);
	in.nodes = (const gx_pt_node *) (obj + o.nodes);
	in.leaves = (const gx_pt_leaf *) (obj + o.leaves);
	in.levels = (const gx_pt_level *) (obj + o.levels);
	in.dir = (const uint32_t *) (obj + o.dir);
	return in;
}

/* key 'row' into *v; 1 if it is NULL */
GX_HD int
gx_pt_key(const gx_pt_in *in, uint32_t row, int64_t *v)
{
	if (in->nulls != 0 && ((in->nulls[row >> 5] >> (row & 31)) & 1u) != 0)
		return 1;
	*v = in->keys[row];
	return 0;
}

/* the run of leaf l for key v: its TIDs (clamped), or (0, 0) when l holds another key */
GX_HD gx_search_run
gx_pt_leaf_run(const gx_pt_in *in, uint32_t l, int64_t v)
{
	gx_search_run r = {0, 0};

	if (l < in->g.nleaves && in->leaves[l].key == v)
	{
		uint32_t	s = in->leaves[l].tid_start;

		r.start = s < in->g.ntids ? s : in->g.ntids;
		r.count = in->leaves[l].tid_count < in->g.ntids - r.start ?
			in->leaves[l].tid_count : in->g.ntids - r.start;
	}
	return r;
}

/*
 * Walk key u (= gx_pt_ukey(v)) from node n at nibble pos until nibble
 * end (<= 16): NONE, HIT (a leaf of key v) or NEXT (the node covering
 * end: its path reaches end before it branches).  The position grows at
 * every node, so at most 16 nodes are read.
 */
GX_HD gx_pt_part
gx_pt_walk(const gx_pt_in *in, uint32_t n, uint32_t pos, uint32_t end, uint64_t u, int64_t v)
{
	gx_pt_part	r = {n, GX_PT_NONE, 0, 0};

	while (n < in->g.nnodes)
	{
		const gx_pt_node *node = &in->nodes[n];
		const uint64_t b = (uint64_t) node->depth + node->plen;	/* the branch nibble */
		const uint32_t lim = b < end ? (uint32_t) b : end;
		uint32_t	c;

		if (b < pos ||
			((u ^ node->path) & gx_pt_head_mask(lim) & ~gx_pt_head_mask(pos)) != 0)
			return r;			/* malformed, or the path leaves the key */
		if (b >= end)
		{
			r.kind = end < GX_PT_NIBBLES ? GX_PT_NEXT : GX_PT_NONE;
			r.target = n;
			return r;
		}
		c = node->child[gx_pt_nibble(u, (uint32_t) b)];
		if (c == GX_PT_EMPTY)
			return r;
		if ((c & GX_PT_LEAF) != 0)
		{
			c &= ~GX_PT_LEAF;
			if (c < in->g.nleaves && in->leaves[c].key == v)
			{
				r.kind = GX_PT_HIT;
				r.target = c;
			}
			return r;
		}
		n = c;
		pos = (uint32_t) b + 1;
	}
	return r;
}

/* SEQ: the run of key v from the root */
GX_HD gx_search_run
gx_pt_seq(const gx_pt_in *in, int64_t v)
{
	gx_search_run none = {0, 0};
	gx_pt_part	p = gx_pt_walk(in, 0, 0, GX_PT_NIBBLES, gx_pt_ukey(v), v);

	return p.kind == GX_PT_HIT ? gx_pt_leaf_run(in, p.target, v) : none;
}

/*
 * The computational tree of level s key u falls in: the node of level s's
 * table whose path is u's first s nibbles (the root for s = 0), or
 * GX_PT_EMPTY; a binary search within the clamped table
 */
GX_HD uint32_t
gx_pt_level_node(const gx_pt_in *in, uint32_t s, uint64_t u)
{
	const uint64_t want = u & gx_pt_head_mask(s);
	uint32_t	lo,
				hi,
				end;

	if (s == 0)
		return 0;
	lo = in->dir[s] < in->g.nlevel ? in->dir[s] : in->g.nlevel;
	end = in->dir[s + 1] < in->g.nlevel ? in->dir[s + 1] : in->g.nlevel;
	hi = end;
	while (lo < hi)
	{
		uint32_t	mid = lo + (hi - lo) / 2;

		if (in->levels[mid].path < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && in->levels[lo].path == want ? in->levels[lo].node : GX_PT_EMPTY;
}

/* SPEC: partition j (of in->parts) of key v: its start and its result */
GX_HD gx_pt_part
gx_pt_partition(const gx_pt_in *in, uint32_t j, int64_t v)
{
	const uint32_t m = GX_PT_NIBBLES / in->parts;
	const uint64_t u = gx_pt_ukey(v);
	const uint32_t n = gx_pt_level_node(in, j * m, u);
	gx_pt_part	none = {GX_PT_EMPTY, GX_PT_NONE, 0, 0};

	if (n == GX_PT_EMPTY)
		return none;
	return gx_pt_walk(in, n, j * m, j * m + m, u, v);
}

/*
 * Parallel result building: is partition j's result the key's answer?  A
 * HIT whose every predecessor i said NEXT to the node partition i + 1
 * started from (r: the key's parts results)
 */
GX_HD bool
gx_pt_resolves(const gx_pt_part *r, uint32_t j)
{
	if (r[j].kind != GX_PT_HIT)
		return false;
	for (uint32_t i = 0; i < j; i++)
		if (r[i].kind != GX_PT_NEXT || r[i].target != r[i + 1].start)
			return false;
	return true;
}

/* SPEC on one thread (the CPU device): the partitions in a loop, then the resolve */
GX_HD gx_search_run
gx_pt_spec_loop(const gx_pt_in *in, int64_t v)
{
	gx_pt_part	r[GX_PT_MAX_PARTS];
	gx_search_run none = {0, 0};

	for (uint32_t j = 0; j < in->parts; j++)
		r[j] = gx_pt_partition(in, j, v);
	for (uint32_t j = 0; j < in->parts; j++)
		if (gx_pt_resolves(r, j))
			return gx_pt_leaf_run(in, r[j].target, v);
	return none;
}

/* key 'row' on one thread, SEQ or SPEC (in->parts > 1) */
GX_HD gx_search_run
gx_pt_lookup(const gx_pt_in *in, uint32_t row)
{
	gx_search_run none = {0, 0};
	int64_t		v;

	if (gx_pt_key(in, row, &v))
		return none;
	return in->parts > 1 ? gx_pt_spec_loop(in, v) : gx_pt_seq(in, v);
}

#endif							/* GX_PTREE_CUH */
