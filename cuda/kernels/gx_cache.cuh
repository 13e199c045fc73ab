/*
 * gx_cache.cuh - appending the deformed rows of a CACHE_LOAD task to a
 * cache entry (gx_chunk_ext in gx_program.h).  Compiled by nvcc for the
 * GPU device and by g++ for the CPU device, like gx_eval.cuh.  The task
 * was checked by gx_validate_cache_load (gx_validate.cpp).
 *
 * gx_cache_append_row copies a row's values and its row map value; the
 * NULL bit is set or cleared by the caller, because the bit of entry row
 * row0 + r shares a 32-bit word with rows of a neighbouring chunk (the GPU
 * uses atomics, the CPU device appends from one thread).
 */
#ifndef GX_CACHE_CUH
#define GX_CACHE_CUH

#include "gx_program.h"
#include "gx_bitmap.cuh"

#include <stdint.h>

/*
 * Copy the values of deformed row 'row' of a LOAD task to entry row
 * row0 + row, and its row map value (page index + block0).  'in' is the
 * task input (header, row map), 'colbase' where its columns were deformed
 * (the same pointer on the CPU device and in the GPU's copy mode).
 * Returns the NULL flags of the row, bit i for column i.
 */
GX_HD uint64_t
gx_cache_append_row(const char *in, const char *colbase, char *entry, uint32_t row)
{
	const gx_chunk *c = (const gx_chunk *) in;
	const gx_deform_hdr *d = (const gx_deform_hdr *) (in + c->deform_off);
	uint64_t	dst = (uint64_t) c->ext.row0 + row;
	uint64_t	nulls = 0;

	for (uint32_t i = 0; i < c->ncols; i++)
	{
		const gx_column *col = &c->cols[i];
		uint32_t	w = gx_type_width(col->type);
		const char *src = colbase + col->values_off + (uint64_t) row * w;
		char	   *to = entry + c->ext.values_off[i] + dst * w;

		switch (w)
		{
			case 1:
				*(uint8_t *) to = *(const uint8_t *) src;
				break;
			case 2:
				*(uint16_t *) to = *(const uint16_t *) src;
				break;
			case 4:
				*(uint32_t *) to = *(const uint32_t *) src;
				break;
			default:
				*(uint64_t *) to = *(const uint64_t *) src;
				break;
		}
		if (gx_bitmap_get(colbase + col->nulls_off, row))
			nulls |= (uint64_t) 1 << i;
	}
	((uint32_t *) (entry + c->ext.rowmap_off))[dst] =
		((const uint32_t *) (in + d->rowmap_off))[row] + (c->ext.block0 << 16);
	return nulls;
}

#endif							/* GX_CACHE_CUH */
