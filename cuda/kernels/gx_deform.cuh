/*
 * gx_deform.cuh - deforms one heap tuple of a raw page into the chunk's
 * columns; compiled by nvcc (the deform kernel) and by g++ (the CPU device),
 * like gx_eval.cuh.
 *
 * Design note
 * -----------
 * The backend copies heap pages, as they are in shared buffers, into the
 * chunk and lists the tuples its snapshot sees (gx_deform_hdr row map), so
 * visibility stays PostgreSQL's own.  This file only reads the on-disk
 * format of PostgreSQL 15 (bufpage.h, itemid.h, htup_details.h,
 * varatt.h), restated here because cuda/ includes no PostgreSQL header:
 *  - page header: 24 bytes, then 4-byte line pointers: lp_off (15 bits),
 *    lp_flags (2), lp_len (15), low bits first;
 *  - tuple header: t_infomask2 at 18 (natts in the low 11 bits),
 *    t_infomask at 20 (HEAP_HASNULL = 1), t_hoff at 22, null bitmap at 23
 *    (bit set = not null);
 *  - attributes follow from t_hoff, each aligned to its attalign, except a
 *    varlena whose first byte is not zero (a 1-byte header: short or TOAST
 *    pointer), which is not padded; sizes: 1-byte header (b >> 1) & 127,
 *    TOAST pointer 2 + size of its tag (18: 16 bytes), 4-byte header
 *    (w >> 2) & 0x3FFFFFFF, cstring strlen + 1;
 *  - an attribute past the tuple's natts has the column's missing value
 *    (ALTER TABLE ... ADD COLUMN ... DEFAULT) or is NULL.
 * Fixed-width by-value attributes are stored into columns as they are;
 * the one varlena read is numeric (a GX_NUMERIC column, numeric.c's
 * format: after the varlena header a uint16 n_header, for the long format
 * (top bit clear) an int16 weight, then NBASE 10000 digits, most
 * significant first; the short format (top bits 10) keeps the sign
 * (0x2000), dscale (0x1F80) and a 7-bit weight (0x007F, sign 0x0040) in
 * n_header; 0xC000 is NaN, 0xD000 and 0xF000 the infinities), converted
 * to an int64 at the column's scale (gx_numeric_decode).  A numeric of a
 * column with a typmod of precision <= 18 always fits (and is too short
 * to be compressed or stored out of line); anything else is a bad page.
 * An unconstrained numeric column (scale GX_NUMERIC_FREE) stores
 * gx_numeric_free_encode's value, GX_NUMERIC_UNFIT for what it cannot
 * hold (the program sends such rows to the host).
 * bpchar (a GX_CHAR8 column, char(n) with n times the encoding's longest
 * character <= 8 bytes) is packed into an int64 without its trailing
 * spaces (gx_char8_pack); longer, compressed or external is a bad page.
 * Other compressed or external values are only skipped, never read.  Every offset
 * is checked against the page, so a corrupt page yields GX_ERR_BAD_PAGE
 * instead of a stray read.
 *
 * The input (page images, row map) and the columns written are separate
 * bases: the GPU in mapped mode reads the pages from host memory and
 * writes the columns into device memory, at the same offsets.
 */
#ifndef GX_DEFORM_CUH
#define GX_DEFORM_CUH

#include "gx_program.h"

#define GX_PAGE_HEADER 24
#define GX_TUP_INFOMASK2 18
#define GX_TUP_INFOMASK 20
#define GX_TUP_HOFF 22
#define GX_TUP_BITS 23
#define GX_TUP_MIN_HEADER 23

/*
 * read a little-endian 16-bit value: one load when aligned (pages are read
 * over PCIe in mapped mode, where every load is a request), else bytewise
 * (a corrupt page may hold any offset; a misaligned load faults on a GPU)
 */
GX_HD uint32_t
gx_rd16(const uint8_t *p)
{
	if (((uintptr_t) p & 1) == 0)
		return *(const uint16_t *) p;
	return (uint32_t) p[0] | ((uint32_t) p[1] << 8);
}

/* read a little-endian 32-bit value, as gx_rd16 */
GX_HD uint32_t
gx_rd32(const uint8_t *p)
{
	if (((uintptr_t) p & 3) == 0)
		return *(const uint32_t *) p;
	return (uint32_t) p[0] | ((uint32_t) p[1] << 8) | ((uint32_t) p[2] << 16) |
		((uint32_t) p[3] << 24);
}

/*
 * Decode a numeric varlena's data (the n_header onwards, len bytes, not
 * aligned) as an int64 at scale 'scale' (0 .. GX_NUMERIC_MAX_SCALE) into
 * *v, and its dscale into *dscale: NaN is GX_NUMERIC_NAN.  Returns 0, or 1
 * when the value is not exactly such an int64 (digits beyond the scale, a
 * magnitude of INT64_MAX or more, an infinity, a malformed header).
 * Shared with the backend (types.cpp), for constants and its own deforming.
 */
GX_HD int
gx_numeric_decode(const uint8_t *p, uint32_t len, int scale, int64_t *v, int *dscale)
{
	uint32_t	h;
	int			neg,
				weight,
				hdr;
	uint64_t	mag = 0;
	const uint64_t lim = 9223372036854775807ULL;	/* INT64_MAX: NaN */

	if (len < 2 || scale < 0 || scale > GX_NUMERIC_MAX_SCALE)
		return 1;
	h = gx_rd16(p);
	if ((h & 0xC000) == 0xC000)
	{
		*dscale = 0;
		*v = GX_NUMERIC_NAN;
		return h == 0xC000 ? 0 : 1; /* NaN; the infinities do not fit */
	}
	if (h & 0x8000)
	{
		/* short format */
		neg = (h & 0x2000) != 0;
		*dscale = (int) ((h & 0x1F80) >> 7);
		weight = (h & 0x0040) ? (int) (h & 0x003F) - 64 : (int) (h & 0x003F);
		hdr = 2;
	}
	else
	{
		if (len < 4)
			return 1;
		neg = (h & 0xC000) == 0x4000;
		*dscale = (int) (h & 0x3FFF);
		weight = (int) (int16_t) gx_rd16(p + 2);
		hdr = 4;
	}
	for (uint32_t i = 0; (uint32_t) hdr + 2 * i + 2 <= len; i++)
	{
		uint64_t	d = gx_rd16(p + hdr + 2 * i);
		int			e = 4 * (weight - (int) i) + scale;	/* d's power of 10 */
		uint64_t	pw = 1,
					add;

		if (d > 9999)
			return 1;
		if (d == 0)
			continue;
		if (e < 0)
		{
			/* a fraction digit below the scale: only its zeros may go */
			if (e <= -4)
				return 1;
			for (int k = 0; k < -e; k++)
				pw *= 10;
			if (d % pw != 0)
				return 1;
			add = d / pw;
		}
		else
		{
			if (e > GX_NUMERIC_MAX_SCALE)
				return 1;
			for (int k = 0; k < e; k++)
				pw *= 10;
			if (pw > lim / d)
				return 1;
			add = d * pw;
		}
		if (add >= lim - mag)
			return 1;
		mag += add;
	}
	*v = neg ? -(int64_t) mag : (int64_t) mag;
	return 0;
}

/*
 * The stored value of a numeric (its data from the n_header on, len bytes)
 * in a column of scale GX_NUMERIC_FREE: value * 10^6 * 8 + dscale when
 * its dscale is at most GX_NUMERIC_FREE_SCALE and |value * 10^6| <
 * GX_NUMERIC_FREE_LIMIT, GX_NUMERIC_NAN for NaN, else GX_NUMERIC_UNFIT.
 * Shared with the backend (types.cpp).
 */
GX_HD int64_t
gx_numeric_free_encode(const uint8_t *p, uint32_t len)
{
	int64_t		v;
	int			ds;

	if (gx_numeric_decode(p, len, GX_NUMERIC_FREE_SCALE, &v, &ds) != 0)
		return GX_NUMERIC_UNFIT;
	if (v == GX_NUMERIC_NAN)
		return v;
	if (ds > GX_NUMERIC_FREE_SCALE || v >= GX_NUMERIC_FREE_LIMIT || v <= -GX_NUMERIC_FREE_LIMIT)
		return GX_NUMERIC_UNFIT;
	return v * 8 + ds;
}

/*
 * Pack the bytes of a bpchar value (p, len: the data after the varlena
 * header) as a GX_CHAR8 int64 into *v: its trailing spaces dropped, byte i
 * at bits 8i .. 8i+7, the rest zero.  Returns 0, or 1 when more than 8
 * bytes remain (no GX_CHAR8 value).  Shared with the backend (types.cpp).
 */
GX_HD int
gx_char8_pack(const uint8_t *p, uint32_t len, int64_t *v)
{
	uint64_t	u = 0;

	while (len > 0 && p[len - 1] == ' ')
		len--;
	if (len > 8)
		return 1;
	for (uint32_t i = 0; i < len; i++)
		u |= (uint64_t) p[i] << (8 * i);
	*v = (int64_t) u;
	return 0;
}

/*
 * store the fixed-width value at src (or the missing value) as row 'row'
 * of column 'col', whose values lie at colbase + col->values_off
 */
GX_HD void
gx_store_value(char *colbase, const gx_column *col, uint32_t row, const uint8_t *src,
			   int64_t missing, int from_missing)
{
	char	   *dst = colbase + col->values_off;

	switch (col->type)
	{
		case GX_BOOL:
			((uint8_t *) dst)[row] = from_missing ? (missing != 0) : (src[0] != 0);
			break;
		case GX_INT2:
			((uint16_t *) dst)[row] = from_missing ? (uint16_t) missing : (uint16_t) gx_rd16(src);
			break;
		case GX_INT4:
		case GX_FLOAT4:
			((uint32_t *) dst)[row] = from_missing ? (uint32_t) missing : gx_rd32(src);
			break;
		default:
			((uint64_t *) dst)[row] = from_missing ? (uint64_t) missing :
				((uint64_t) gx_rd32(src) | ((uint64_t) gx_rd32(src + 4) << 32));
			break;
	}
}

/*
 * Deform row 'row' of a page chunk: store each needed attribute into its
 * column and return the bit mask (by column index) of the NULL ones.
 * 'in' is the chunk input (page images and row map at the offsets of d),
 * 'cols' the column directory (cols[at->col]), 'colbase' where column
 * offsets point; d and cols may be copies (GPU shared memory).  *err is
 * set to GX_ERR_BAD_PAGE when the tuple fails a bounds check.
 */
GX_HD uint64_t
gx_deform_row(const char *in, const gx_deform_hdr *d, const gx_column *cols,
			  char *colbase, uint32_t row, int *err)
{
	uint32_t	map = ((const uint32_t *) (in + d->rowmap_off))[row];
	uint32_t	pg = map >> 16;
	uint32_t	lineoff = map & 0xFFFF;
	uint64_t	nulls = 0;

	*err = GX_ERR_NONE;
	if (lineoff == 0 && pg < d->npages)
	{
		/*
		 * A padding row (a cache refresh writes a block back into its old
		 * rows, and the rows it no longer fills get line pointer 0): every
		 * column NULL; scans skip it by its row map value.
		 */
		for (uint32_t a = 0; a < d->natts; a++)
			if (d->atts[a].col >= 0)
			{
				gx_store_value(colbase, &cols[d->atts[a].col], row, (const uint8_t *) in, 0, 1);
				nulls |= (uint64_t) 1 << d->atts[a].col;
			}
		return nulls;
	}
	if (pg >= d->npages || lineoff == 0 ||
		GX_PAGE_HEADER + lineoff * 4 > d->page_size)
	{
		*err = GX_ERR_BAD_PAGE;
		return 0;
	}
	const uint8_t *page = (const uint8_t *) in + d->pages_off + (uint64_t) pg * d->page_size;
	uint32_t	lp = gx_rd32(page + GX_PAGE_HEADER + (lineoff - 1) * 4);
	uint32_t	lp_off = lp & 0x7FFF;
	uint32_t	lp_len = lp >> 17;

	if (lp_len < GX_TUP_MIN_HEADER || lp_off + lp_len > d->page_size)
	{
		*err = GX_ERR_BAD_PAGE;
		return 0;
	}
	const uint8_t *tup = page + lp_off;
	uint32_t	natts = gx_rd16(tup + GX_TUP_INFOMASK2) & 0x07FF;
	int			hasnull = gx_rd16(tup + GX_TUP_INFOMASK) & 0x0001;
	uint32_t	hoff = tup[GX_TUP_HOFF];

	if (hoff > lp_len || (hasnull && GX_TUP_BITS + (natts + 7) / 8 > hoff))
	{
		*err = GX_ERR_BAD_PAGE;
		return 0;
	}
	const uint8_t *data = tup + hoff;
	uint32_t	len = lp_len - hoff;
	uint32_t	off = 0;
	int			fast = !hasnull && natts >= d->natts;

	for (uint32_t a = 0; a < d->natts; a++)
	{
		const gx_attr *at = &d->atts[a];

		if (fast && at->fixed_off >= 0)
		{
			/* no NULL in this tuple and a fixed offset: read directly */
			if (at->col >= 0)
			{
				if ((uint32_t) at->fixed_off + (uint32_t) at->attlen > len)
				{
					*err = GX_ERR_BAD_PAGE;
					return 0;
				}
				gx_store_value(colbase, &cols[at->col], row, data + at->fixed_off, 0, 0);
			}
			off = (uint32_t) at->fixed_off + (uint32_t) at->attlen;
			continue;
		}
		if (a >= natts)
		{
			/* not in this tuple: the missing value, else NULL */
			if (at->col >= 0)
			{
				if (at->has_missing)
					gx_store_value(colbase, &cols[at->col], row, data, at->missing, 1);
				else
				{
					gx_store_value(colbase, &cols[at->col], row, data, 0, 1);
					nulls |= (uint64_t) 1 << at->col;
				}
			}
			continue;
		}
		if (hasnull && !((tup[GX_TUP_BITS + (a >> 3)] >> (a & 7)) & 1))
		{
			if (at->col >= 0)
			{
				gx_store_value(colbase, &cols[at->col], row, data, 0, 1);
				nulls |= (uint64_t) 1 << at->col;
			}
			continue;
		}
		uint32_t	size;

		if (at->attlen > 0)
		{
			off = (off + at->attalign - 1) & ~(uint32_t) (at->attalign - 1);
			size = (uint32_t) at->attlen;
		}
		else if (at->attlen == -1)
		{
			if (off >= len)
			{
				*err = GX_ERR_BAD_PAGE;
				return 0;
			}
			if (data[off] == 0)
				off = (off + at->attalign - 1) & ~(uint32_t) (at->attalign - 1);
			if (off >= len)
			{
				*err = GX_ERR_BAD_PAGE;
				return 0;
			}
			uint8_t		b = data[off];

			if (b == 0x01)
			{
				/* TOAST pointer: 2 header bytes + the tag's payload */
				if (off + 2 > len)
				{
					*err = GX_ERR_BAD_PAGE;
					return 0;
				}
				uint8_t		tag = data[off + 1];

				size = 2 + (tag == 18 ? 16 : 8);
			}
			else if (b & 0x01)
				size = (b >> 1) & 0x7F;
			else
			{
				if (off + 4 > len)
				{
					*err = GX_ERR_BAD_PAGE;
					return 0;
				}
				size = (gx_rd32(data + off) >> 2) & 0x3FFFFFFF;
			}
		}
		else
		{
			/* cstring */
			uint32_t	e = off;

			while (e < len && data[e] != 0)
				e++;
			size = e - off + 1;
		}
		if (off + size > len || size == 0)
		{
			*err = GX_ERR_BAD_PAGE;
			return 0;
		}
		if (at->col >= 0 && cols[at->col].type == GX_CHAR8)
		{
			/*
			 * a bpchar of a column the compiler takes (at most 8 bytes, too
			 * short to be compressed or stored out of line): pack it
			 */
			uint32_t	h = (data[off] & 0x01) ? 1 : 4;
			int64_t		v;

			if (at->attlen != -1 || data[off] == 0x01 || (h == 4 && (data[off] & 0x02)) ||
				size < h || gx_char8_pack(data + off + h, size - h, &v))
			{
				*err = GX_ERR_BAD_PAGE;
				return 0;
			}
			((int64_t *) (colbase + cols[at->col].values_off))[row] = v;
		}
		else if (at->col >= 0 && cols[at->col].type == GX_NUMERIC &&
				 cols[at->col].scale == GX_NUMERIC_FREE)
		{
			/*
			 * unconstrained numeric: what the device cannot hold (compressed,
			 * out of line, too many digits, an infinity) is GX_NUMERIC_UNFIT
			 */
			uint32_t	h = (data[off] & 0x01) ? 1 : 4;
			int64_t		v = GX_NUMERIC_UNFIT;

			if (at->attlen != -1)
			{
				*err = GX_ERR_BAD_PAGE;
				return 0;
			}
			if (data[off] != 0x01 && !(h == 4 && (data[off] & 0x02)) && size >= h)
				v = gx_numeric_free_encode(data + off + h, size - h);
			((int64_t *) (colbase + cols[at->col].values_off))[row] = v;
		}
		else if (at->col >= 0 && cols[at->col].type == GX_NUMERIC)
		{
			/* a numeric (1-byte or 4-byte header, never compressed): decode */
			uint32_t	h = (data[off] & 0x01) ? 1 : 4;
			int64_t		v;
			int			ds;

			if (at->attlen != -1 || data[off] == 0x01 || (h == 4 && (data[off] & 0x02)) ||
				size < h ||
				gx_numeric_decode(data + off + h, size - h, (int) cols[at->col].scale, &v, &ds))
			{
				*err = GX_ERR_BAD_PAGE;
				return 0;
			}
			((int64_t *) (colbase + cols[at->col].values_off))[row] = v;
		}
		else if (at->col >= 0)
			gx_store_value(colbase, &cols[at->col], row, data + off, 0, 0);
		off += size;
	}
	return nulls;
}

#endif							/* GX_DEFORM_CUH */
