/*
 * gx_jmerge.cuh - the merge join's per-row steps: GpuJoin's sort-merge
 * algorithm for equi-joins (issue 15; ext.join.alg GX_JOIN_MERGE),
 * shared by the GPU kernels (gx_gpu.cu) and the CPU device (gx_cpu.cpp).
 * Included by gx_join.cuh, whose build, probe and write steps it plugs
 * into: only the table and "the run of an outer row" differ.
 *
 * Design note
 * -----------
 * The paper's sort-merge join (relational-joins-on-graphics-processors,
 * section "sort-merge join"): both sides are sorted on the join key, then
 * merged.  One or two integer-like keys (int64 values, as the hash join
 * takes them) sort as one combined key, (key0, key1) in lexicographic
 * order (one key: key1 is 0).  A NULL key never matches.
 *
 *  - JOIN_BUILD appends a passing inner row with non-NULL keys (key0,
 *    key1, payload; one atomic add under cap, exact, as the range join).
 *  - JOIN_FINISH_BUILD sorts the appended rows by key (the GPU: an
 *    index permutation sorted with cub::DeviceRadixSort::SortPairs, key1
 *    first then key0, the sort being stable; the CPU device: segments
 *    sorted by the threads, merged), gathers the sorted keys and payloads
 *    (skey0, skey1, run), and makes the run-length encoding of the keys:
 *    each distinct key (ukey0, ukey1, ascending) with the start of its run
 *    (ustart; the last run ends at the rows), and the distinct key of each sorted row
 *    (urow; a head flag per row, an inclusive prefix sum).
 *  - JOIN_PROBE (a batch of outer rows, in passes) sorts the batch too,
 *    then merges it with the distinct keys, before the hash probe's
 *    phases (gx_join.cuh: count, prefix sum, write, passes):
 *     (a) extract: each row's program runs once (quals, keys): a keyed row
 *         gets its keys, a row with a NULL key, one for the host or one
 *         that does not pass (or raised an error: recorded) gets a state
 *         (gx_jmerge_row) and the largest key, so it sorts last;
 *     (b) sort: (key, row) pairs of every row of the batch, as FINISH;
 *     (c) merge: merge path partitioning (Green, McColl, Bader: "GPU merge
 *         path"): the merged sequence of the batch's sorted keys A and the
 *         distinct keys B is cut into diagonal parts of equal length
 *         (gx_jmerge_part_len: GX_JM_ITEMS, or longer for a batch far
 *         smaller than the table, so that a part holds about GX_JM_APART
 *         outer keys); each thread (a CPU thread: a range of parts) finds
 *         where its part's diagonals cross the merge path with one binary
 *         search each (A first on ties) and walks its part in order: an
 *         outer key meets the first distinct key >= it (the B elements
 *         before it passed by galloping), so equality is one compare, and
 *         the row's run [ustart[u], ustart[u + 1]) is written to the
 *         row's entry (scattered back to the row's place: the output keeps
 *         the hash probe's order, outer rows in task order, which the
 *         passes resume by).  A part holding no outer key ends after its
 *         searches.  RIGHT / FULL mark the distinct key matched (umatched,
 *         read first).
 *     The phases then read each row's entry instead of evaluating its
 *     program again (gx_join_probe_row).
 *  - JOIN_UNMATCHED reads the sorted rows [first_row, + nrows): a row
 *    whose distinct key is unmarked gives its payload.
 *
 * The probe's extract, sort and merge run again for each pass of a batch
 * (its result area holds the scratch: gx_jmerge_probe_layout); the sort
 * is deterministic per row, so every pass sees the same runs.  Every
 * index read from the table is clamped to the task's geometry and the
 * placed rows; a key's run is clamped to the placed rows.
 *
 * Device and host code; valid under nvcc and g++ (no C library header,
 * no PostgreSQL header).
 */
#ifndef GX_JMERGE_CUH
#define GX_JMERGE_CUH

#include "gx_group.cuh"			/* atomics (GX_G_*) */

#define GX_JM_ITEMS 64			/* merged elements of a diagonal part, at least */
#define GX_JM_APART 8			/* outer keys of a diagonal part, on average */
#define GX_JM_MAX_KEY ((int64_t) 0x7fffffffffffffffLL)	/* sorts last */

/* (a0, a1) < (b0, b1), lexicographically */
GX_HD int
gx_jm_less(int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
	return a0 < b0 || (a0 == b0 && a1 < b1);
}

/* entry i of a second key array, 0 when there is none (one key) */
GX_HD int64_t
gx_jm_k1(const int64_t *k1, uint64_t i)
{
	return k1 != 0 ? k1[i] : 0;
}

/*
 * What a merge of a batch reads and writes: A = the batch's sorted keys
 * (a0, a1 or none) and their rows (arow), B = the table's distinct keys
 * and the starts of their runs
 */
typedef struct gx_jmerge
{
	const int64_t *a0;
	const int64_t *a1;			/* NULL: one key */
	const uint32_t *arow;
	uint32_t	na;				/* the batch's rows */
	const int64_t *b0;
	const int64_t *b1;
	const uint32_t *ustart;		/* where each one's run starts */
	uint32_t	nb;				/* distinct keys */
	uint32_t	rows;			/* the table's placed rows (runs clamped) */
	uint32_t   *umatched;		/* RIGHT / FULL: marks, else NULL */
	gx_jmerge_row *mrow;		/* per row of the batch */
} gx_jmerge;

/*
 * Merge path: how many elements of A lie among the first d elements of
 * the merge of A and B (A first on ties), by one binary search over the
 * diagonal d
 */
GX_HD uint32_t
gx_jmerge_split(const gx_jmerge *m, uint64_t d)
{
	uint32_t	lo = d > m->nb ? (uint32_t) (d - m->nb) : 0;
	uint32_t	hi = d < m->na ? (uint32_t) d : m->na;

	while (lo < hi)
	{
		uint32_t	mid = lo + (hi - lo) / 2;
		uint64_t	j = d - 1 - mid;

		/* A[mid] <= B[j]: A[mid] is among the first d */
		if (!gx_jm_less(m->b0[j], gx_jm_k1(m->b1, j), m->a0[mid], gx_jm_k1(m->a1, mid)))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* is B[j] < (a0, a1)? */
GX_HD int
gx_jmerge_b_less(const gx_jmerge *m, uint64_t j, int64_t a0, int64_t a1)
{
	return gx_jm_less(m->b0[j], gx_jm_k1(m->b1, j), a0, a1);
}

/*
 * Walk the merge path over the diagonals [d0, d1): each keyed row of A
 * there gets its run (the distinct key equal to its key, or none).  The
 * part holds A[i, iend) and B[j, jend); the B elements before an outer
 * key are passed by galloping (steps 1, 2, 4 ... then a binary search
 * between the last two), so a part whose few outer keys lie far apart in
 * B costs their gaps' logarithms, not the gaps; a part without an element
 * of A ends at once.
 */
GX_HD void
gx_jmerge_walk(const gx_jmerge *m, uint64_t d0, uint64_t d1)
{
	uint32_t	i = gx_jmerge_split(m, d0);
	uint32_t	iend = gx_jmerge_split(m, d1);
	uint64_t	j = d0 - i;
	uint64_t	jend = d1 - iend;	/* (the first B >= any A of the part is <= jend) */

	while (i < iend)
	{
		int64_t		a0 = m->a0[i],
					a1 = gx_jm_k1(m->a1, i);

		if (j < jend && gx_jmerge_b_less(m, j, a0, a1))
		{
			/* B[lo] < A[i]; the first B >= A[i] lies in (lo, hi] */
			uint64_t	lo = j,
						step = 1,
						hi;

			while (lo + step < jend && gx_jmerge_b_less(m, lo + step, a0, a1))
			{
				lo += step;
				step *= 2;
			}
			hi = lo + step < jend ? lo + step : jend;
			while (hi - lo > 1)
			{
				uint64_t	mid = lo + (hi - lo) / 2;

				if (gx_jmerge_b_less(m, mid, a0, a1))
					lo = mid;
				else
					hi = mid;
			}
			j = hi;
		}
		uint32_t	row = m->arow[i++];

		if (row >= m->na || m->mrow[row].state != GX_JM_KEYED)
			continue;

		gx_jmerge_row *r = &m->mrow[row];

		r->start = r->count = 0;
		if (j >= m->nb || m->b0[j] != a0 || gx_jm_k1(m->b1, j) != a1)
			continue;			/* B[j] > A[i]: no match */
		/* (the last distinct key's run ends at the placed rows) */
		uint32_t	s = m->ustart[j],
					e = j + 1 < m->nb ? m->ustart[j + 1] : m->rows;

		s = s < m->rows ? s : m->rows;
		e = e < m->rows ? e : m->rows;
		r->start = s;
		r->count = e > s ? e - s : 0;
		if (m->umatched != 0 && GX_G_LOAD32(&m->umatched[j]) == 0)
			GX_G_STORE_REL32(&m->umatched[j], 1);
	}
}

/*
 * The length of the diagonal parts of the merge of a batch: the merged
 * elements over ceil(na / GX_JM_APART) parts, GX_JM_ITEMS at least.  A
 * batch about the table's size gets parts of GX_JM_ITEMS elements (the
 * classic merge path); a batch far smaller than the table gets fewer,
 * longer parts, each with about GX_JM_APART outer keys (the walk gallops
 * over the table between them), instead of many parts without an outer
 * key.  So there are at most ceil(na / GX_JM_APART) parts.
 */
GX_HD uint64_t
gx_jmerge_part_len(const gx_jmerge *m)
{
	uint64_t	total = (uint64_t) m->na + m->nb;
	uint64_t	q = ((uint64_t) m->na + GX_JM_APART - 1) / GX_JM_APART;
	uint64_t	len = q > 0 ? (total + q - 1) / q : total;

	return len > GX_JM_ITEMS ? len : GX_JM_ITEMS;
}

/* the diagonal parts of the merge of a batch (at most ceil(na / GX_JM_APART)) */
GX_HD uint64_t
gx_jmerge_parts(const gx_jmerge *m)
{
	uint64_t	len = gx_jmerge_part_len(m);

	return ((uint64_t) m->na + m->nb + len - 1) / len;
}

/* the merge of diagonal part p (of gx_jmerge_parts) */
GX_HD void
gx_jmerge_part(const gx_jmerge *m, uint64_t p)
{
	uint64_t	total = (uint64_t) m->na + m->nb;
	uint64_t	len = gx_jmerge_part_len(m);
	uint64_t	d0 = p * len;
	uint64_t	d1 = d0 + len < total ? d0 + len : total;

	if (d0 < total)
		gx_jmerge_walk(m, d0, d1);
}

/*
 * FINISH: does sorted row i (of n) start a run of its key?  (k0, k1 the
 * sorted keys; k1 NULL: one key)
 */
GX_HD int
gx_jmerge_head(const int64_t *k0, const int64_t *k1, uint32_t i)
{
	return i == 0 || k0[i] != k0[i - 1] || gx_jm_k1(k1, i) != gx_jm_k1(k1, i - 1);
}

#endif							/* GX_JMERGE_CUH */
