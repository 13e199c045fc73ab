/*
 * gx_sort.cpp - sorting a big set's values at scan start (gx_sort.h).
 *
 * Design note
 * -----------
 * A big set of a million keys was sorted with std::sort in the backend
 * for every scan start (about 57 ms for 1M random int64 on the
 * development host, 650 ms for 10M).  Here: an LSD radix sort, 8 bits a
 * pass, of unsigned keys that order as the values do (an int64 with its
 * sign bit flipped; a double's bits mapped so that unsigned order is
 * gx_float_cmp's), with one counting pass for all eight digits and every
 * pass skipped whose digit is the same for all keys (keys of a narrow
 * range take 3 or 4 passes: 12 ms for 1M, 130 ms for 10M; 17 / 170 ms
 * for keys over the whole range).  Input that is already ascending (an
 * ORDER BY, a generated series) is found in one pass and not sorted.  The
 * CUB sort on the GPU would be faster still, but would cost a round trip
 * (the set's size after removing repeats is needed before the set can be
 * placed) and a second implementation on the CPU device; the host sort
 * runs on the backend's own core, once per scan.
 *
 * No PostgreSQL header; nothing here allocates or throws (the caller
 * provides the scratch).
 */
#include "gx_sort.h"

#include <string.h>

#define GX_SIGN ((uint64_t) 1 << 63)
#define GX_QNAN ((uint64_t) 0x7ff8000000000000ULL)

/* sort the n unsigned keys k ascending (tmp: scratch of n keys) */
static void
gx_radix_u64(uint64_t *k, uint64_t *tmp, int64_t n)
{
	static_assert(sizeof(uint64_t) == 8, "8 digits of 8 bits");
	uint64_t	hist[8][256];
	uint64_t   *src = k,
			   *dst = tmp;

	memset(hist, 0, sizeof(hist));
	for (int64_t i = 0; i < n; i++)
	{
		uint64_t	x = k[i];

		for (int d = 0; d < 8; d++)
			hist[d][(x >> (8 * d)) & 0xff]++;
	}
	for (int d = 0; d < 8; d++)
	{
		uint64_t   *h = hist[d];
		uint64_t	sum = 0;

		if (h[(src[0] >> (8 * d)) & 0xff] == (uint64_t) n)
			continue;			/* every key has this digit */
		for (int b = 0; b < 256; b++)
		{
			uint64_t	c = h[b];

			h[b] = sum;
			sum += c;
		}
		for (int64_t i = 0; i < n; i++)
		{
			uint64_t	x = src[i];

			dst[h[(x >> (8 * d)) & 0xff]++] = x;
		}
		uint64_t   *t = src;

		src = dst;
		dst = t;
	}
	if (src != k)
		memcpy(k, src, (size_t) n * sizeof(uint64_t));
}

/* sort the n keys k (unless already ascending) and drop repeats; returns how many remain */
static int64_t
gx_sort_distinct_keys(uint64_t *k, int64_t n, uint64_t *tmp)
{
	int64_t		m = 0;
	int64_t		i;

	for (i = 1; i < n; i++)
		if (k[i - 1] > k[i])
			break;
	if (i < n)
		gx_radix_u64(k, tmp, n);
	for (i = 0; i < n; i++)
		if (m == 0 || k[m - 1] != k[i])
			k[m++] = k[i];
	return m;
}

/* gx_sort.h */
int64_t
gx_sort_distinct_int64(int64_t *v, int64_t n, int64_t *tmp)
{
	uint64_t   *k = (uint64_t *) v;

	if (n <= 0)
		return 0;
	for (int64_t i = 0; i < n; i++)
		k[i] ^= GX_SIGN;
	n = gx_sort_distinct_keys(k, n, (uint64_t *) tmp);
	for (int64_t i = 0; i < n; i++)
		k[i] ^= GX_SIGN;
	return n;
}

/* gx_sort.h: a double's bits as a key whose unsigned order is gx_float_cmp's */
int64_t
gx_sort_distinct_float8(int64_t *v, int64_t n, int64_t *tmp)
{
	uint64_t   *k = (uint64_t *) v;

	if (n <= 0)
		return 0;
	for (int64_t i = 0; i < n; i++)
	{
		uint64_t	b = k[i];

		if ((b & ~GX_SIGN) > 0x7ff0000000000000ULL)
			b = GX_QNAN;		/* every NaN: one, above +Infinity */
		else if (b == GX_SIGN)
			b = 0;				/* -0 = 0 */
		k[i] = (b & GX_SIGN) ? ~b : (b | GX_SIGN);
	}
	n = gx_sort_distinct_keys(k, n, (uint64_t *) tmp);
	for (int64_t i = 0; i < n; i++)
		k[i] = (k[i] & GX_SIGN) ? (k[i] & ~GX_SIGN) : ~k[i];
	return n;
}
