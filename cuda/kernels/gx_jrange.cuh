/*
 * gx_jrange.cuh - the range join's table and its per-row steps: GpuJoin's
 * algorithm for band and inequality predicates (issue 15), such as
 * r.k <= s.k AND s.k <= r.k + d.  Included by gx_join.cuh, whose build,
 * probe and write steps (and so the GPU kernels and the CPU device's
 * threads) are the hash join's: only the table and "the run of an outer
 * row" differ.
 *
 * Design note
 * -----------
 * A sorted range join, not a blocked nested loop: the inner rows' key
 * (one integer-like column: int64 values of int2/4/8, date, timestamp(tz),
 * numeric at one scale) is sorted once, and each outer row's matches are
 * one contiguous run of the sorted array, found by two binary searches:
 * O(n log n) to build, O(log n) per outer row plus the pairs, where a
 * nested loop costs O(n m).  The table (gx_program.h, gx_jrange_layout) is
 * built in two steps and then only read:
 *
 *  - JOIN_BUILD (ext.join.alg GX_JOIN_RANGE; any number of tasks,
 *    concurrently): a passing inner row with a non-NULL key reserves an
 *    index with one atomic add on hdr.nrows (under cap, exact: rows past
 *    cap are for the host, as in the hash join) and writes key[idx],
 *    pay[idx].  A NULL key never matches: the row is skipped.
 *  - JOIN_FINISH_BUILD: sort the (key, payload) pairs by key into skey /
 *    run (the GPU: cub::DeviceRadixSort::SortPairs, its temporary storage
 *    reserved in the table object; the CPU device: a parallel sort).  The
 *    order of equal keys is not defined (neither is the hash join's).
 *  - JOIN_PROBE: the outer row's program gives the bounds as outputs
 *    (ext.join.lo_out / hi_out, inclusive or not: bflags; either may be
 *    absent, unbounded); a NULL bound matches nothing (ANTI returns the
 *    row, as a NULL key).  The run is [lower, upper) of the sorted keys:
 *    lower = the first key >= lo (> lo when exclusive), upper = the first
 *    key > hi (>= hi when exclusive); an empty or inverted range is no
 *    match.  The rest (entries, passes, count-only) is the hash probe's.
 *
 * Every index read from the object is clamped to the task's geometry and
 * the placed rows (min(hdr.rows, cap)), so a malformed table gives wrong
 * matches but never an access out of bounds.
 *
 * Device and host code; valid under nvcc and g++ (no C library header,
 * no PostgreSQL header).
 */
#ifndef GX_JRANGE_CUH
#define GX_JRANGE_CUH

#include "gx_group.cuh"			/* atomics (GX_G_*) */

/* the first index i in [0, n) with k[i] > v (upper) or k[i] >= v (!upper); n if none */
GX_HD uint32_t
gx_jrange_search(const int64_t *k, uint32_t n, int64_t v, int upper)
{
	uint32_t	lo = 0,
				hi = n;

	while (lo < hi)
	{
		uint32_t	mid = lo + (hi - lo) / 2;

		if (upper ? k[mid] <= v : k[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * PROBE: the run of the sorted keys skey[0, rows) between the bounds in
 * the outer row's outputs out (its first place in *start), and its
 * length; 0 for a NULL bound or an empty range
 */
GX_HD uint32_t
gx_jrange_lookup(const int64_t *skey, uint32_t rows, const gx_join_ext *j, const gx_reg *out,
				 uint32_t *start)
{
	uint32_t	lo = 0,
				hi = rows;

	*start = 0;
	if (j->lo_out >= 0)
	{
		const gx_reg *r = &out[j->lo_out];

		if (r->isnull)
			return 0;
		/* key >= lo: the first key >= lo; key > lo: the first key > lo */
		lo = gx_jrange_search(skey, rows, r->v.i, (j->bflags & GX_JOIN_LO_INCL) == 0);
	}
	if (j->hi_out >= 0)
	{
		const gx_reg *r = &out[j->hi_out];

		if (r->isnull)
			return 0;
		/* key <= hi: before the first key > hi; key < hi: before the first key >= hi */
		hi = gx_jrange_search(skey, rows, r->v.i, (j->bflags & GX_JOIN_HI_INCL) != 0);
	}
	if (hi <= lo)
		return 0;
	*start = lo;
	return hi - lo;
}

#endif							/* GX_JRANGE_CUH */
