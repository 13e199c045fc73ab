/*
 * gx_sets_test.h - big sets with top keys (gx_program.h "Big sets",
 * gx_sets.cuh) for the unit tests: test_interp (the CPU device and the
 * search functions) and test_kernel (GPU = CPU = std::binary_search).
 */
#ifndef GX_SETS_TEST_H
#define GX_SETS_TEST_H

#include "gx_program.h"
#include "gx_test.h"

#include <algorithm>

#include <stdint.h>
#include <vector>

/* a big set's header flags: T top keys (0 or a power of 2), the search, a NULL element */
static inline int64_t
sets_flags(uint32_t T, bool pary, bool has_null = false)
{
	int64_t		f = (has_null ? GX_RUN_HAS_NULL : 0) | (pary ? GX_BIGSET_PARY : 0);
	int			lg = 0;

	if (T == 0)
		return f;
	while ((1u << lg) < T)
		lg++;
	return f | ((int64_t) (lg + 1) << GX_BIGSET_TOP_SHIFT);
}

/* append the set vals (sorted, distinct) and its T top keys to obj; returns its place */
static inline int64_t
sets_append(std::vector<int64_t> &obj, const std::vector<int64_t> &vals, uint32_t T)
{
	int64_t		at = (int64_t) obj.size();
	int64_t		n = (int64_t) vals.size();

	obj.insert(obj.end(), vals.begin(), vals.end());
	for (uint32_t i = 0; i < T; i++)
		obj.push_back(vals[gx_bigset_seg(i, n, T)]);
	return at;
}

/* the top key counts worth testing for a set of n values: none, small, every power of 2 up to min(n, 8192) */
static inline std::vector<uint32_t>
sets_tops(int64_t n)
{
	std::vector<uint32_t> t = {0};

	for (uint32_t T = 1; T <= 8192 && (int64_t) T <= n; T *= 2)
		if (T <= 4 || T * 8 >= (uint64_t) n / 2 || T == 8192 || (int64_t) T == n)
			t.push_back(T);
	return t;
}

/*
 * The filter program of a test (column ci: x; header k: the set, k2: a
 * second one; constant kt: thr) in b, by variant: 0, x = ANY (set); 1,
 * x > thr AND x = ANY (set), where the AND skips the search for about
 * half the lanes of a warp; 2, (x > thr AND x = ANY (set)) OR x = ANY
 * (set 2), where a row of x <= thr jumps straight to the second search,
 * so that in the interpreter it runs INBIGSET (set 2) in the same step as
 * a row of x > thr runs INBIGSET (set)
 */
static inline void
sets_program(ChunkBuilder &b, int ci, int k, int k2, int kt, int variant)
{
	b.emit(GX_OP_LDCOL, GX_INT8, 0, 0, 0, ci);	/* 0 */
	if (variant == 0)
	{
		b.emit(GX_OP_INBIGSET, GX_INT8, 0, 0, 0, k);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
		return;
	}
	b.emit(GX_OP_LDCONST, GX_INT8, 1, 0, 0, kt);	/* 1 */
	b.emit(GX_OP_GT, GX_INT8, 2, 0, 1);	/* 2 */
	if (variant == 1)
	{
		b.emit(GX_OP_SETBOOL, GX_BOOL, 5, 0, 0, 1);	/* 3 */
		b.emit(GX_OP_ANDSTEP, GX_BOOL, 5, 2, 0, 0, 7);	/* 4 */
		b.emit(GX_OP_INBIGSET, GX_INT8, 3, 0, 0, k);	/* 5 */
		b.emit(GX_OP_ANDSTEP, GX_BOOL, 5, 3, 0, 0, 7);	/* 6 */
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 5);	/* 7 */
		return;
	}
	b.emit(GX_OP_SETBOOL, GX_BOOL, 5, 0, 0, 0);	/* 3 */
	b.emit(GX_OP_SETBOOL, GX_BOOL, 6, 0, 0, 1);	/* 4 */
	b.emit(GX_OP_ANDSTEP, GX_BOOL, 6, 2, 0, 0, 7);	/* 5 */
	b.emit(GX_OP_INBIGSET, GX_INT8, 5, 0, 0, k);	/* 6 */
	b.emit(GX_OP_INBIGSET, GX_INT8, 7, 0, 0, k2);	/* 7 */
	b.emit(GX_OP_SETBOOL, GX_BOOL, 8, 0, 0, 0);	/* 8 */
	b.emit(GX_OP_ORSTEP, GX_BOOL, 8, 5, 0, 0, 11);	/* 9 */
	b.emit(GX_OP_ORSTEP, GX_BOOL, 8, 7, 0, 0, 11);	/* 10 */
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 8);	/* 11 */
}

/* the rows sets_program (variant) selects, by std::binary_search of the sorted sets v, v2 */
static inline std::vector<uint32_t>
sets_want(const std::vector<int64_t> &v, const std::vector<int64_t> &v2,
		  const std::vector<int64_t> &rows, const std::vector<uint8_t> &nulls, int64_t thr,
		  int variant)
{
	std::vector<uint32_t> want;

	for (uint32_t r = 0; r < rows.size(); r++)
	{
		bool		in1 = std::binary_search(v.begin(), v.end(), rows[r]),
					in2 = std::binary_search(v2.begin(), v2.end(), rows[r]);
		bool		pass = variant == 0 ? in1 : variant == 1 ? rows[r] > thr && in1 :
			(rows[r] > thr && in1) || in2;

		if (!nulls[r] && pass)
			want.push_back(r);
	}
	return want;
}

#endif							/* GX_SETS_TEST_H */
