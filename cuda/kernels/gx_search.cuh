/*
 * gx_search.cuh - batched lookups in a sorted projection (issue 16): the
 * SEARCH task's per-probe steps, binary and p-ary search, shared by the
 * GPU kernels (gx_gpu.cu) and the CPU device (gx_cpu.cpp).
 *
 * Design note
 * -----------
 * The sorted projection is the range join's table (gx_jrange.cuh), built
 * by the tasks that already exist: JOIN_BUILD (alg GX_JOIN_RANGE, one key
 * output, payload_out -1, so a row's payload is its position row_base +
 * row) appends (key, position) pairs, JOIN_FINISH_BUILD sorts them with
 * cub::DeviceRadixSort on the GPU (its temporary storage in the object,
 * checked against CUB's figure; the CPU device: segments sorted on its
 * threads, merged) into skey / run and seals the table.  A SEARCH task
 * names that table as obj[0] and only reads skey[0, rows) (rows =
 * min(hdr.rows, cap)); the positions of a probe's run are run[start,
 * start + count), for the host or a later task to gather.
 *
 * A probe (one row of the task: a key, or a lower and an upper bound in
 * two columns) gives the run [start, start + count) of sorted keys equal
 * to the key (GX_SEARCH_EQ), or between the bounds (GX_SEARCH_RANGE,
 * inclusive or exclusive on each side: bflags); a NULL key or bound gives
 * (0, 0).  Two searches: the lower bound a (the first key >= lo, or > lo)
 * over [0, rows), then the upper bound b (the first key > hi, or >= hi) by
 * galloping from a, so a short run (a unique key, an absent one) costs a
 * step or two and a long one (a key holding 90% of the rows, a wide
 * range) log(count) steps; b >= a always, so an empty or inverted range
 * is (a, 0).
 *
 * One algorithm for both searches, parametrised by p, the lanes that
 * search one probe together (Kaldewey et al., "Parallel search on video
 * cards"): a step over the candidate range [lo, hi) has each lane j < p
 * read one pivot, lo + (j + 1) (hi - lo) / (p + 1), so that p pivots cut
 * the range into p + 1 parts; the lanes compare in parallel, the count m
 * of pivots before the bound (a ballot's population count) names the
 * part that holds it, and every lane narrows to that part by the same
 * arithmetic: no shared memory, no shuffle, log_{p+1}(n) steps instead of
 * log_2(n).  Galloping reads pivots lo + (j + 1) w - 1 with w = 1, p + 1,
 * (p + 1)^2 ... until a pivot lies past the bound, then searches the
 * bracket.  With p = 1 this is binary search (the pivot is the midpoint)
 * and ordinary galloping.
 *
 *  - BINARY (GPU): a thread a probe, p = 1 (gx_lanes_loop<1>).
 *  - PARY (GPU): a tile of p = lanes threads (2 .. 32, a sub-warp or a
 *    warp: cooperative_groups::thread_block_tile, gx_lanes_tile<P>) a
 *    probe; lane j reads pivot j, the tile's ballot gives m.  p is a
 *    task field so that the benchmark sweeps it.
 *  - CPU device: one thread a probe, the p lanes in a loop
 *    (gx_lanes_loop<P>): the same positions, compares and counts, so the
 *    runs are identical on both devices for every algorithm and p.
 *
 * The count m is the number of pivots before the bound, not the place of
 * the first one after it: both are the same on sorted keys, and with the
 * count a malformed (unsorted) table still gives every device the same
 * runs.  Every pivot lies in [lo, hi) within [0, rows) (galloping clamps
 * to rows - 1), rows is clamped to the task's geometry (validated against
 * the object's bytes), so no table can make a probe read out of bounds;
 * a start + count never passes rows.  A table not sealed (FINISH did not
 * run) fails the task with an error at row 0.
 *
 * Device and host code; valid under nvcc and g++ (no PostgreSQL header).
 */
#ifndef GX_SEARCH_CUH
#define GX_SEARCH_CUH

#include "gx_eval.cuh"			/* GX_ERR_BAD_PROGRAM */

#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)
#include <cooperative_groups.h>
#define GX_SEARCH_MHD __host__ __device__ __forceinline__	/* member functions */
#else
#define GX_SEARCH_MHD inline
#endif

/* what a SEARCH task's probes read: its columns, the projection's keys */
typedef struct gx_search_in
{
	const char *vals[2];		/* column 0: keys or lower bounds, 1: upper bounds */
	const uint32_t *nulls[2];	/* their bitmaps (bit set = NULL), NULL: none */
	uint32_t	width[2];		/* bytes a value: 2, 4 or 8 */
	uint32_t	op;				/* enum gx_search_op */
	uint32_t	bflags;			/* RANGE: GX_JOIN_LO_INCL, GX_JOIN_HI_INCL */
	uint32_t	cap;			/* the projection's geometry */
	const gx_join_hdr *hdr;		/* the projection's header (rows, built) */
	const int64_t *skey;		/* its sorted keys */
} gx_search_in;

/*
 * The probes of task c whose columns lie at base (the task as the device
 * sees it) against the projection object obj
 */
GX_HD gx_search_in
gx_search_in_of(const gx_chunk *c, const char *base, const char *obj)
{
	gx_search_in in;
	gx_jrange_offs o;

	for (uint32_t i = 0; i < 2; i++)
	{
		const gx_column *col = &c->cols[i < c->ncols ? i : 0];

		in.vals[i] = base + col->values_off;
		in.nulls[i] = col->nulls_off != 0 ? (const uint32_t *) (base + col->nulls_off) : 0;
		in.width[i] = gx_type_width(col->type);
	}
	in.op = c->ext.search.op;
	in.bflags = c->ext.search.bflags;
	in.cap = c->ext.search.cap;
	gx_jrange_layout(in.cap, &o);
	in.hdr = (const gx_join_hdr *) obj;
	in.skey = (const int64_t *) (obj + o.skey);
	return in;
}

/* the sorted keys a probe searches: the placed rows, within the geometry */
GX_HD uint32_t
gx_search_rows(const gx_search_in *in)
{
	return in->hdr->rows < in->cap ? in->hdr->rows : in->cap;
}

/* value 'row' of probe column i into *v (sign-extended); 1 if it is NULL */
GX_HD int
gx_search_value(const gx_search_in *in, uint32_t i, uint32_t row, int64_t *v)
{
	const char *p = in->vals[i];

	if (in->nulls[i] != 0 && ((in->nulls[i][row >> 5] >> (row & 31)) & 1u) != 0)
		return 1;
	*v = in->width[i] == 2 ? (int64_t) ((const int16_t *) p)[row] :
		in->width[i] == 4 ? (int64_t) ((const int32_t *) p)[row] : ((const int64_t *) p)[row];
	return 0;
}

/*
 * The p lanes of a group run by one thread in a loop (the GPU's binary
 * search, p = 1; the CPU device, any p): count(f) = how many lanes j < P
 * have f(j)
 */
template <uint32_t P>
struct gx_lanes_loop
{
	static constexpr uint32_t p = P;

	template <class F>
	GX_SEARCH_MHD uint32_t count(F f) const
	{
		uint32_t	m = 0;

		for (uint32_t j = 0; j < P; j++)
			m += f(j) ? 1u : 0u;
		return m;
	}
};

#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)
/*
 * The p lanes of a group run by a tile of P threads, one lane each:
 * count(f) is the tile's ballot of f(its lane), counted
 */
template <uint32_t P>
struct gx_lanes_tile
{
	static constexpr uint32_t p = P;
	cooperative_groups::thread_block_tile<P> t;

	template <class F>
	__device__ __forceinline__ uint32_t count(F f) const
	{
		return (uint32_t) __popc(t.ballot(f(t.thread_rank())));
	}
};
#endif

/* is key k before the bound v: k < v (the first key >= v), or k <= v (after: the first > v)? */
GX_HD bool
gx_search_before(int64_t k, int64_t v, int after)
{
	return after ? k <= v : k < v;
}

/* pivot j (< p) of a step over [lo, hi) (lo < hi): p pivots cut it into p + 1 parts */
GX_HD uint32_t
gx_search_pivot(uint32_t lo, uint32_t hi, uint32_t j, uint32_t p)
{
	return lo + (uint32_t) (((uint64_t) (j + 1) * (hi - lo)) / (p + 1));
}

/*
 * The bound in [lo, hi]: the first index of k[lo, hi) whose key is not
 * before v (gx_search_before), hi if none, in log_{p+1}(hi - lo) steps of
 * the group's lanes
 */
template <class L>
GX_HD uint32_t
gx_search_bound(const L &l, const int64_t *k, uint32_t lo, uint32_t hi, int64_t v, int after)
{
	const uint32_t p = L::p;

	while (lo < hi)
	{
		const uint32_t a = lo,
					b = hi;
		uint32_t	m = l.count([&](uint32_t j) {
			return gx_search_before(k[gx_search_pivot(a, b, j, p)], v, after);
		});

		lo = m > 0 ? gx_search_pivot(a, b, m - 1, p) + 1 : a;
		hi = m < p ? gx_search_pivot(a, b, m, p) : b;
	}
	return lo;
}

/* galloping pivot j from lo with width w: lo + (j + 1) w - 1, at most n - 1 */
GX_HD uint32_t
gx_search_gpivot(uint32_t lo, uint64_t w, uint32_t j, uint32_t n)
{
	uint64_t	q = (uint64_t) lo + (j + 1) * w - 1;

	return q < n ? (uint32_t) q : n - 1;
}

/*
 * The bound in [lo, n] (k[0, n) sorted, the bound known to be >= lo) by
 * galloping from lo: pivots at widths 1, p + 1, (p + 1)^2 ... until one
 * is not before v, then gx_search_bound within the bracket; about
 * log_{p+1}(bound - lo) steps, one or two for a short run
 */
template <class L>
GX_HD uint32_t
gx_search_gallop(const L &l, const int64_t *k, uint32_t lo, uint32_t n, int64_t v, int after)
{
	const uint32_t p = L::p;
	uint64_t	w = 1;

	while (lo < n)
	{
		const uint32_t a = lo;
		const uint64_t ww = w;
		uint32_t	m = l.count([&](uint32_t j) {
			return gx_search_before(k[gx_search_gpivot(a, ww, j, n)], v, after);
		});

		if (m < p)
			return gx_search_bound(l, k, m > 0 ? gx_search_gpivot(a, w, m - 1, n) + 1 : a,
								   gx_search_gpivot(a, w, m, n), v, after);
		if (gx_search_gpivot(a, w, p - 1, n) == n - 1)
			return n;			/* every key before v */
		lo = gx_search_gpivot(a, w, p - 1, n) + 1;
		w *= p + 1;
	}
	return lo;
}

/*
 * Probe 'row' against the n sorted keys of in->skey with the group's
 * lanes: its run (every lane of the group gets the same)
 */
template <class L>
GX_HD gx_search_run
gx_search_probe(const L &l, const gx_search_in *in, uint32_t n, uint32_t row)
{
	gx_search_run r;
	int64_t		lo = 0,
				hi = 0;
	int			lo_after = 0,
				hi_after = 1;

	r.start = 0;
	r.count = 0;
	if (gx_search_value(in, 0, row, &lo))
		return r;
	hi = lo;
	if (in->op == GX_SEARCH_RANGE)
	{
		if (gx_search_value(in, 1, row, &hi))
			return r;
		/* key >= lo: the first key >= lo, key > lo: the first > lo (and so for hi) */
		lo_after = (in->bflags & GX_JOIN_LO_INCL) == 0;
		hi_after = (in->bflags & GX_JOIN_HI_INCL) != 0;
	}
	r.start = gx_search_bound(l, in->skey, 0, n, lo, lo_after);
	r.count = gx_search_gallop(l, in->skey, r.start, n, hi, hi_after) - r.start;
	return r;
}

#endif							/* GX_SEARCH_CUH */
