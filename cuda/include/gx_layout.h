/*
 * gx_layout.h - the one definition of where things lie in a batch (a
 * task's payload, gx_program.h) and in a cache entry: the backend that
 * builds a batch, the cache loader, the device validators and the unit
 * tests all lay out and size batches with these functions.
 *
 * A column is its values (gx_type_width() bytes each) then its validity
 * bitmap (gx_bitmap_bytes(): 32-bit words, bit set = NULL), each part
 * 16-byte aligned.  A page batch is the header, a gx_deform_hdr, the page
 * images, the row map (one uint32 a row), then the columns the device
 * deforms into, then the result area.  A column batch is the header, the
 * columns, then the result area.  A cache entry is its columns from
 * offset 0, then its row map.
 *
 * Plain C, no PostgreSQL header; valid for nvcc and g++.
 */
#ifndef GX_LAYOUT_H
#define GX_LAYOUT_H

#include "gx_program.h"

/* bytes of ncols columns (types[i]) of nrows rows, laid out as below */
static inline uint64_t
gx_columns_bytes(const int *types, int ncols, uint64_t nrows)
{
	uint64_t	bytes = 0;

	for (int i = 0; i < ncols; i++)
		bytes += GX_ALIGN_UP((uint64_t) gx_type_width((uint32_t) types[i]) * nrows) +
			GX_ALIGN_UP(gx_bitmap_bytes(nrows));
	return bytes;
}

/*
 * Lay ncols columns of nrows rows out from offset off (16-byte aligned):
 * values_off[i] and nulls_off[i] for column i of type types[i].  Returns
 * the offset after the last one.
 */
static inline uint64_t
gx_layout_columns(const int *types, int ncols, uint64_t off, uint64_t nrows,
				  uint64_t *values_off, uint64_t *nulls_off)
{
	for (int i = 0; i < ncols; i++)
	{
		values_off[i] = off;
		off = GX_ALIGN_UP(off + (uint64_t) gx_type_width((uint32_t) types[i]) * nrows);
		nulls_off[i] = off;
		off = GX_ALIGN_UP(off + gx_bitmap_bytes(nrows));
	}
	return off;
}

/* a page batch: where its gx_deform_hdr and its page images begin */
static inline uint64_t
gx_page_batch_deform_off(void)
{
	return GX_ALIGN_UP(sizeof(gx_chunk));
}

static inline uint64_t
gx_page_batch_pages_off(void)
{
	return GX_ALIGN_UP(gx_page_batch_deform_off() + sizeof(gx_deform_hdr));
}

/* bytes of a page batch of npages pages and nrows rows, result included */
static inline uint64_t
gx_page_batch_bytes(uint32_t npages, uint32_t page_size, uint64_t nrows,
					const int *types, int ncols)
{
	return gx_page_batch_pages_off() + (uint64_t) npages * page_size +
		GX_ALIGN_UP(nrows * 4) + gx_columns_bytes(types, ncols, nrows) +
		gx_result_bytes((uint32_t) nrows);
}

/*
 * Lay out a page batch of npages pages (already copied at
 * gx_page_batch_pages_off()) and c->nrows rows: the deform header's
 * offsets, the input's end, the columns the device deforms into (types
 * from c->cols[i].type) and the result area.  The row map goes at
 * d->rowmap_off.
 */
static inline void
gx_layout_page_batch(gx_chunk *c, uint32_t npages, uint32_t page_size)
{
	gx_deform_hdr *d = (gx_deform_hdr *) ((char *) c + gx_page_batch_deform_off());
	int			types[GX_MAX_COLS];
	uint64_t	values_off[GX_MAX_COLS];
	uint64_t	nulls_off[GX_MAX_COLS];

	c->deform_off = gx_page_batch_deform_off();
	d->npages = npages;
	d->page_size = page_size;
	d->pages_off = gx_page_batch_pages_off();
	d->rowmap_off = d->pages_off + (uint64_t) npages * page_size;
	c->input_bytes = GX_ALIGN_UP(d->rowmap_off + (uint64_t) c->nrows * 4);
	for (uint32_t i = 0; i < c->ncols; i++)
		types[i] = (int) c->cols[i].type;
	c->result_off = gx_layout_columns(types, (int) c->ncols, c->input_bytes, c->nrows,
									  values_off, nulls_off);
	for (uint32_t i = 0; i < c->ncols; i++)
	{
		c->cols[i].values_off = values_off[i];
		c->cols[i].nulls_off = nulls_off[i];
	}
}

/* bytes of a cache entry of cap rows (columns, then the row map) */
static inline uint64_t
gx_entry_layout(const int *types, int ncols, uint64_t cap, uint64_t *values_off,
				uint64_t *nulls_off, uint64_t *rowmap_off)
{
	*rowmap_off = gx_layout_columns(types, ncols, 0, cap, values_off, nulls_off);
	return GX_ALIGN_UP(*rowmap_off + cap * 4);
}

#endif							/* GX_LAYOUT_H */
