/*
 * gx_sort.h - sorting a big set's values (the backend at scan start,
 * runs.cpp; gx_program.h "Big sets"): int64 values, or doubles' bits in
 * gx_float_cmp's order, sorted and made distinct in place (gx_sort.cpp).
 * No PostgreSQL header.
 */
#ifndef GX_SORT_H
#define GX_SORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

/*
 * Sort the n int64 values v ascending and drop repeats; tmp has room for
 * n values (scratch).  Returns how many remain in v[0 ..).
 */
int64_t		gx_sort_distinct_int64(int64_t *v, int64_t n, int64_t *tmp);

/*
 * The same for n doubles held as their bits, in gx_float_cmp's order
 * (NaN last, NaN = NaN, -0 = 0): each NaN is left as one quiet NaN, -0
 * as 0.
 */
int64_t		gx_sort_distinct_float8(int64_t *v, int64_t n, int64_t *tmp);

#ifdef __cplusplus
}
#endif

#endif							/* GX_SORT_H */
