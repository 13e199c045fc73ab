/*
 * gx_test_ptree.h - what both unit tests share for TREE_LOOKUP
 * (gx_ptree.cuh): a device image built from a std::multimap of keys to
 * TIDs in the shape gpuext_ptree gives its tree (compressed paths, a key
 * in the shallowest slot where it is alone, a root without a path), the
 * task builder, the reference (the multimap's equal_range), the cases
 * (skews, duplicates, absent keys, an empty index, int8 extremes) and the
 * algorithms.  Included after gx_test.h.
 */
#ifndef GX_TEST_PTREE_H
#define GX_TEST_PTREE_H

#include "gx_ptree.h"

typedef std::multimap<int64_t, uint64_t> PtRef;	/* key -> TIDs, in TID order per key */

/* a device image in host memory (16-aligned), its geometry */
struct PtImage
{
	std::vector<uint64_t> mem;
	gx_pt_geom	g = {0, 0, 0, 0};
	uint64_t	bytes = 0;

	char	   *data()
	{
		return (char *) mem.data();
	}
};

/* the parts of an image while it is built */
struct PtBuild
{
	std::vector<gx_pt_node> nodes;
	std::vector<gx_pt_leaf> leaves;
	std::vector<uint64_t> tids;
	const PtRef *ref;
};

/* the encoded keys' nibbles equal from nibble 'from': how many */
static uint32_t
pt_common(uint64_t a, uint64_t b, uint32_t from)
{
	uint32_t	n = from;

	while (n < GX_PT_NIBBLES && gx_pt_nibble(a, n) == gx_pt_nibble(b, n))
		n++;
	return n - from;
}

/*
 * The children of node idx, branching on nibble br, over the distinct
 * sorted keys u[a, b): a leaf for a key alone in its slot, else a node
 * whose path is what the slot's keys share
 */
static void
pt_children(PtBuild &pb, uint32_t idx, const std::vector<uint64_t> &u, size_t a, size_t b,
			uint32_t br)
{
	for (size_t i = a; i < b;)
	{
		const uint32_t nib = gx_pt_nibble(u[i], br);
		size_t		j = i;

		while (j < b && gx_pt_nibble(u[j], br) == nib)
			j++;
		if (j - i == 1)
		{
			const int64_t v = (int64_t) (u[i] ^ ((uint64_t) 1 << 63));
			auto		rng = pb.ref->equal_range(v);
			gx_pt_leaf	l = {v, (uint32_t) pb.tids.size(), 0};

			for (auto it = rng.first; it != rng.second; ++it)
				pb.tids.push_back(it->second);
			l.tid_count = (uint32_t) (pb.tids.size() - l.tid_start);
			pb.nodes[idx].child[nib] = GX_PT_LEAF | (uint32_t) pb.leaves.size();
			pb.leaves.push_back(l);
		}
		else
		{
			const uint32_t d = br + 1;
			const uint32_t plen = pt_common(u[i], u[j - 1], d);
			gx_pt_node	n;
			uint32_t	ci = (uint32_t) pb.nodes.size();

			n.depth = d;
			n.plen = plen;
			n.path = u[i] & gx_pt_head_mask(d + plen);
			for (uint32_t c = 0; c < GX_PT_FANOUT; c++)
				n.child[c] = GX_PT_EMPTY;
			pb.nodes.push_back(n);
			pb.nodes[idx].child[nib] = ci;
			pt_children(pb, ci, u, i, j, d + plen);
		}
		i = j;
	}
}

/* the image of ref (keys with their TIDs), as gpuext_ptree shapes its tree */
static PtImage
pt_image(const PtRef &ref, uint64_t change_count = 0)
{
	PtBuild		pb;
	PtImage		img;
	std::vector<uint64_t> u;
	gx_pt_node	root;
	gx_pt_offs	o;

	pb.ref = &ref;
	for (auto it = ref.begin(); it != ref.end(); it = ref.upper_bound(it->first))
		u.push_back(gx_pt_ukey(it->first));	/* (ascending: the encoding keeps the order) */
	root.depth = 0;
	root.plen = 0;
	root.path = 0;
	for (uint32_t c = 0; c < GX_PT_FANOUT; c++)
		root.child[c] = GX_PT_EMPTY;
	pb.nodes.push_back(root);
	pt_children(pb, 0, u, 0, u.size(), 0);
	img.g.nnodes = (uint32_t) pb.nodes.size();
	img.g.nleaves = (uint32_t) pb.leaves.size();
	img.g.ntids = (uint32_t) pb.tids.size();
	img.g.nlevel = (uint32_t) gx_pt_level_count(pb.nodes.data(), img.g.nnodes);
	gx_pt_layout(&img.g, &o);
	img.bytes = o.bytes;
	img.mem.assign(o.bytes / 8, 0);

	gx_pt_hdr  *h = (gx_pt_hdr *) img.data();

	h->magic = GX_PT_MAGIC;
	h->version = 1;
	h->change_count = change_count;
	h->bytes = o.bytes;
	h->geom = img.g;
	memcpy(img.data() + o.nodes, pb.nodes.data(), pb.nodes.size() * sizeof(gx_pt_node));
	memcpy(img.data() + o.leaves, pb.leaves.data(), pb.leaves.size() * sizeof(gx_pt_leaf));
	memcpy(img.data() + o.tids, pb.tids.data(), pb.tids.size() * sizeof(uint64_t));
	gx_pt_fill_levels((const gx_pt_node *) (img.data() + o.nodes), img.g.nnodes,
					  (gx_pt_level *) (img.data() + o.levels), (uint32_t *) (img.data() + o.dir));
	return img;
}

/* the algorithms a lookup runs with: (alg, parts) */
static const uint32_t pt_algs[][2] = {
	{GX_TREE_SEQ, 0}, {GX_TREE_SPEC, 2}, {GX_TREE_SPEC, 4}, {GX_TREE_SPEC, 8}, {GX_TREE_SPEC, 16},
};
#define PT_NALGS (sizeof(pt_algs) / sizeof(pt_algs[0]))

/* a TREE_LOOKUP task of keys (NULL where nulls[i]) against an image of geometry g */
static gx_chunk *
pt_task(ChunkBuilder &b, const std::vector<int64_t> &keys, const std::vector<uint8_t> &nulls,
		uint32_t alg, uint32_t parts, const gx_pt_geom &g)
{
	b.add_int_col(GX_INT8, keys, nulls);
	b.nrows = (uint32_t) keys.size();
	b.build();

	gx_chunk   *c = join_grow_result(b, gx_search_result_bytes((uint32_t) keys.size()));

	c->kind = GX_TASK_TREE_LOOKUP;
	c->obj[0] = 1;
	c->ext.entry = -1;
	c->ext.tree.alg = alg;
	c->ext.tree.parts = parts;
	c->ext.tree.nnodes = g.nnodes;
	c->ext.tree.nleaves = g.nleaves;
	c->ext.tree.ntids = g.ntids;
	c->ext.tree.nlevel = g.nlevel;
	return c;
}

/*
 * Do task c's runs give, for each key, exactly ref's TIDs of it (in
 * order; none for a NULL), through img's TID array?  *sum: the TIDs
 */
static bool
pt_runs_ok(gx_chunk *c, PtImage &img, const PtRef &ref, const std::vector<int64_t> &keys,
		   const std::vector<uint8_t> &nulls, uint64_t *sum, std::string *why)
{
	const gx_search_run *r = (const gx_search_run *) ((char *) gx_chunk_result(c) +
													  gx_search_runs_off());
	gx_pt_offs	o;

	gx_pt_layout(&img.g, &o);
	const uint64_t *tids = (const uint64_t *) (img.data() + o.tids);

	*sum = 0;
	for (size_t i = 0; i < keys.size(); i++)
	{
		const bool	isnull = !nulls.empty() && nulls[i];
		auto		rng = ref.equal_range(keys[i]);
		uint64_t	t = r[i].start;
		bool		ok = (uint64_t) r[i].start + r[i].count <= img.g.ntids;

		for (auto it = rng.first; ok && !isnull && it != rng.second; ++it, ++t)
			ok = t < (uint64_t) r[i].start + r[i].count && tids[t] == it->second;
		ok = ok && t == (uint64_t) r[i].start + r[i].count && (!isnull || r[i].count == 0);
		if (!ok)
		{
			*why = "key " + std::to_string(keys[i]) + (isnull ? " (NULL)" : "") + " at " +
				std::to_string(i) + ": run (" + std::to_string(r[i].start) + ", " +
				std::to_string(r[i].count) + "), want " +
				std::to_string(isnull ? 0 : ref.count(keys[i])) + " TIDs";
			return false;
		}
		*sum += r[i].count;
	}
	return true;
}

/* a lookup case: the index (key -> TIDs) and a batch of keys */
struct PtCase
{
	std::string what;
	PtRef		ref;
	std::vector<int64_t> keys;
	std::vector<uint8_t> nulls;
};

/*
 * n probe keys of c: its keys, their neighbours (+-1, +-16: absent keys
 * sharing long prefixes), random values, int8's extremes, NULLs
 */
static void
pt_probes(std::mt19937_64 &rng, PtCase &c, uint32_t n)
{
	std::vector<int64_t> present;

	for (auto it = c.ref.begin(); it != c.ref.end(); it = c.ref.upper_bound(it->first))
		present.push_back(it->first);
	for (uint32_t i = 0; i < n; i++)
	{
		uint32_t	kind = (uint32_t) (rng() % 10);
		int64_t		v;

		if (!present.empty() && kind < 5)
			v = present[rng() % present.size()];
		else if (!present.empty() && kind < 7)
		{
			static const int64_t d[] = {-16, -1, 1, 16};
			int64_t		p = present[rng() % present.size()];
			int64_t		dd = d[rng() % 4];

			v = (dd > 0 && p > INT64_MAX - dd) || (dd < 0 && p < INT64_MIN - dd) ? p : p + dd;
		}
		else if (kind == 7)
			v = (rng() & 1) ? INT64_MIN : INT64_MAX;
		else
			v = (int64_t) rng();
		c.keys.push_back(v);
		c.nulls.push_back(rng() % 25 == 0);
	}
}

typedef std::function<void (PtCase &)> PtCaseFn;

/*
 * The cases of both unit tests (sizes times scale): random sparse keys
 * (the speculative traversal's worst skew: partitions everywhere), dense
 * consecutive keys (its best: one level grows), clustered keys sharing
 * long prefixes (URL-like: the tree deepens only at the end), keys with
 * many TIDs and one with thousands, an empty index, a single key, int8's
 * extremes and neighbours, small negative and positive numbers
 */
static void
pt_cases(std::mt19937_64 &rng, uint32_t scale, const PtCaseFn &fn)
{
	uint64_t	tid = 1;
	auto		add = [&](PtCase &c, int64_t k, uint32_t ntids) {
		for (uint32_t i = 0; i < ntids; i++, tid++)
			c.ref.emplace(k, (tid << 16) | (tid % 300 + 1));
	};
	auto		run = [&](PtCase &c, uint32_t nprobes) {
		pt_probes(rng, c, nprobes);
		fn(c);
	};

	{
		PtCase		c;

		c.what = "empty index";
		run(c, 100);
	}
	{
		PtCase		c;

		c.what = "one key";
		add(c, 42, 3);
		run(c, 100);
	}
	{
		PtCase		c;

		c.what = "int8 extremes";
		for (int64_t k : {INT64_MIN, INT64_MIN + 1, INT64_MIN + 16, (int64_t) -1, (int64_t) 0,
				 (int64_t) 1, INT64_MAX - 16, INT64_MAX - 1, INT64_MAX})
			add(c, k, 1 + (uint32_t) (rng() % 3));
		run(c, 500);
	}
	{
		PtCase		c;

		c.what = "random sparse";
		for (uint32_t i = 0; i < 20000 * scale; i++)
			add(c, (int64_t) rng(), 1);
		run(c, 20000 * scale);
	}
	{
		PtCase		c;

		c.what = "dense consecutive";
		for (uint32_t i = 0; i < 20000 * scale; i++)
			add(c, 1000000 + (int64_t) i, 1);
		run(c, 20000 * scale);
	}
	{
		PtCase		c;

		c.what = "clustered (shared prefixes)";
		for (uint32_t i = 0; i < 20000 * scale; i++)
			add(c, (int64_t) (((uint64_t) (rng() % 8) << 52) | 0x0ABCDE00000000ull |
							  (rng() & 0xFFFFF)), 1);
		run(c, 20000 * scale);
	}
	{
		PtCase		c;

		c.what = "duplicates";
		for (uint32_t i = 0; i < 2000 * scale; i++)
			add(c, (int64_t) (rng() % 500) - 250, 1 + (uint32_t) (rng() % 4));
		add(c, 7, 5000);
		run(c, 5000 * scale);
	}
}

#endif							/* GX_TEST_PTREE_H */
