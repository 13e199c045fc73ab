/*
 * gx_cache.cuh - appending the deformed rows of a LOAD chunk to a cache
 * entry (gx_chunk_ext in gx_program.h).  Compiled by nvcc for the GPU
 * device and by g++ for the CPU device, like gx_eval.cuh.
 *
 * gx_cache_append_row copies a row's values and its row map value; the
 * NULL bit is set or cleared by the caller, because the bit of entry row
 * row0 + r shares a 32-bit word with rows of a neighbouring chunk (the GPU
 * uses atomics, the CPU device appends from one thread).
 */
#ifndef GX_CACHE_CUH
#define GX_CACHE_CUH

#include "gx_program.h"

#include <stdint.h>
#include <string.h>

#ifndef GX_HD
#ifdef __CUDACC__
#define GX_HD __host__ __device__ __forceinline__
#else
#define GX_HD static inline
#endif
#endif

/* bytes of a value of a gx_type */
GX_HD uint32_t
gx_cache_type_width(uint32_t type)
{
	switch (type)
	{
		case GX_BOOL:
			return 1;
		case GX_INT2:
			return 2;
		case GX_INT4:
		case GX_FLOAT4:
			return 4;
		default:
			return 8;
	}
}

/*
 * Copy the values of deformed row 'row' of a LOAD chunk to entry row
 * row0 + row, and its row map value (page index + block0).  'in' is the
 * chunk input (header, row map), 'colbase' where its columns were deformed
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
		uint32_t	w = gx_cache_type_width(col->type);
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
		if ((((const uint8_t *) colbase + col->nulls_off)[row >> 3] >> (row & 7)) & 1)
			nulls |= (uint64_t) 1 << i;
	}
	((uint32_t *) (entry + c->ext.rowmap_off))[dst] =
		((const uint32_t *) (in + d->rowmap_off))[row] + (c->ext.block0 << 16);
	return nulls;
}

/*
 * Check the cache part of a chunk against the pool: entry index, row
 * ranges and every entry-relative offset.  Returns 0 when it is sound.
 */
GX_HD int
gx_cache_check_chunk(const gx_chunk *c, int nunits, uint64_t unit_bytes)
{
	const gx_chunk_ext *x = &c->ext;

	if (x->op == GX_CHUNK_FILTER)
		return 0;
	if (x->entry < 0 || x->entry >= nunits || c->ncols > GX_CACHE_MAX_COLS)
		return -1;
	if (x->op == GX_CHUNK_CACHE_LOAD)
	{
		uint64_t	end = (uint64_t) x->row0 + c->nrows;

		if (c->deform_off == 0 || end > x->entry_rows || x->block0 > 0xFFFF)
			return -1;
		if (x->rowmap_off % 4 != 0 || x->rowmap_off + x->entry_rows * 4 > unit_bytes)
			return -1;
		for (uint32_t i = 0; i < c->ncols; i++)
		{
			uint32_t	w = gx_cache_type_width(c->cols[i].type);

			if (x->values_off[i] % w != 0 ||
				x->values_off[i] + x->entry_rows * w > unit_bytes ||
				x->nulls_off[i] % 4 != 0 ||
				x->nulls_off[i] + (x->entry_rows + 31) / 32 * 4 > unit_bytes)
				return -1;
		}
		return 0;
	}
	if (x->op != GX_CHUNK_CACHE_SCAN || c->deform_off != 0)
		return -1;
	if (x->map_sel &&
		(x->rowmap_off % 4 != 0 || x->rowmap_off + (uint64_t) c->nrows * 4 > unit_bytes))
		return -1;
	for (uint32_t i = 0; i < c->ncols; i++)
	{
		const gx_column *col = &c->cols[i];
		uint32_t	w = gx_cache_type_width(col->type);

		if (col->type >= GX_NTYPES || col->values_off % w != 0 ||
			col->values_off + (uint64_t) c->nrows * w > unit_bytes ||
			(col->nulls_off != 0 &&
			 (col->nulls_off % 4 != 0 ||
			  col->nulls_off + ((uint64_t) c->nrows + 31) / 32 * 4 > unit_bytes)))
			return -1;
	}
	return 0;
}

#endif							/* GX_CACHE_CUH */
