/*
 * gx_sets_test.h - big sets with top keys (gx_program.h "Big sets",
 * gx_sets.cuh) for the unit tests: test_interp (the CPU device and the
 * search functions) and test_kernel (GPU = CPU = std::binary_search).
 */
#ifndef GX_SETS_TEST_H
#define GX_SETS_TEST_H

#include "gx_program.h"

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

#endif							/* GX_SETS_TEST_H */
