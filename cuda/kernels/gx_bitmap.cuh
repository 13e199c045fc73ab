/*
 * gx_bitmap.cuh - the one encoding of validity bitmaps on the devices:
 * 32-bit words, bit (row & 31) of word (row >> 5) set = NULL; a bitmap of
 * n rows has gx_bitmap_bytes(n) bytes (gx_program.h) and starts on a
 * multiple of 4.  The host's byte-wise bitmaps (bit row & 7 of byte
 * row >> 3) are the same bits on a little-endian host, so every device
 * reads every bitmap - chunk columns, deformed columns, cache entries -
 * through gx_bitmap_get().
 *
 * Compiled by nvcc, NVRTC and g++, like gx_eval.cuh.
 */
#ifndef GX_BITMAP_CUH
#define GX_BITMAP_CUH

#include "gx_program.h"

/* is row NULL in the bitmap at bm? */
GX_HD int
gx_bitmap_get(const char *bm, uint32_t row)
{
	return (int) ((((const uint32_t *) bm)[row >> 5] >> (row & 31)) & 1u);
}

/* mark row NULL (no other thread may write the word) */
GX_HD void
gx_bitmap_set(char *bm, uint32_t row)
{
	((uint32_t *) bm)[row >> 5] |= 1u << (row & 31);
}

#endif							/* GX_BITMAP_CUH */
