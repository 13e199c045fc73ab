/*
 * types.cpp - the PostgreSQL side of the device type table: which
 * PostgreSQL types the device takes and as what gx_type (gx_program.h has
 * the device side: gx_type_width), and how their Datums become device
 * values, for constants, parameters and columns deformed by the backend;
 * and a relation's attributes as the page deformer reads them.
 */
#include "gpuext.h"
#include "compiler.h"

extern "C"
{
#include "access/tupdesc_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
}

#include "gx_deform.cuh"		/* gx_numeric_decode, gx_char8_pack: the device's readers */

/* map a PostgreSQL type to a device type */
bool
gx_type_supported(Oid typid, int *gxtype)
{
	switch (typid)
	{
		case BOOLOID:
			*gxtype = GX_BOOL;
			return true;
		case INT2OID:
			*gxtype = GX_INT2;
			return true;
		case INT4OID:
		case DATEOID:
			*gxtype = GX_INT4;
			return true;
		case INT8OID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			*gxtype = GX_INT8;
			return true;
		case FLOAT4OID:
			*gxtype = GX_FLOAT4;
			return true;
		case FLOAT8OID:
			*gxtype = GX_FLOAT8;
			return true;
		default:
			return false;
	}
}

/*
 * map a PostgreSQL type with its typmod to a device type and, for
 * GX_NUMERIC, the scale of its values: numeric with a typmod of precision
 * <= 18 and scale 0 .. 18 (every value then fits an int64 at that scale);
 * unconstrained numeric has scale GX_NUMERIC_FREE (gx_program.h: values
 * at scale GX_NUMERIC_FREE_SCALE with their dscale, the others host
 * rows).  bpchar(n) is GX_CHAR8 when n
 * characters of the database encoding's longest take at most 8 bytes
 * (n <= 8 for a single-byte encoding, n <= 2 for UTF-8), so that every
 * value fits (gx_char8_pack); whoever compares such values must check
 * that the collation is deterministic (gx_collation_exact).  Other types
 * as gx_type_supported, scale 0.
 */
bool
gx_type_supported_mod(Oid typid, int32 typmod, int *gxtype, int *scale)
{
	*scale = 0;
	if (typid == BPCHAROID)
	{
		if (typmod < (int32) VARHDRSZ + 1 ||
			(int64) (typmod - VARHDRSZ) * pg_database_encoding_max_length() > 8)
			return false;
		*gxtype = GX_CHAR8;
		return true;
	}
	if (typid == NUMERICOID)
	{
		int32		tm = typmod - VARHDRSZ;
		int			precision,
					sc;

		if (typmod < (int32) VARHDRSZ)
		{
			/* unconstrained: the values numeric(18,6) holds (GX_NUMERIC_FREE) */
			*gxtype = GX_NUMERIC;
			*scale = GX_NUMERIC_FREE;
			return true;
		}
		precision = (tm >> 16) & 0xffff;
		sc = ((tm & 0x7ff) ^ 1024) - 1024;	/* numeric.c: scale may be < 0 */
		if (precision < 1 || precision > 18 || sc < 0 || sc > GX_NUMERIC_MAX_SCALE)
			return false;
		*gxtype = GX_NUMERIC;
		*scale = sc;
		return true;
	}
	return gx_type_supported(typid, gxtype);
}

/*
 * A numeric Datum as an int64 at scale 'scale' (scale < 0: at its own
 * dscale, returned in *dscale).  False when it is no such int64: digits
 * beyond the scale, too large, an infinity.
 */
bool
gx_numeric_value(Datum d, int scale, int64 *v, int *dscale)
{
	struct varlena *vl = PG_DETOAST_DATUM_PACKED(d);
	const uint8 *data = (const uint8 *) VARDATA_ANY(vl);
	uint32		len = VARSIZE_ANY_EXHDR(vl);
	int			ds;
	uint32		h;

	/* the dscale from the header first, then the value at the scale asked for */
	if (len < 2)
		return false;
	h = gx_rd16(data);
	if ((h & 0xC000) == 0xC000)
		ds = 0;
	else if (h & 0x8000)
		ds = (int) ((h & 0x1F80) >> 7);
	else
		ds = (int) (h & 0x3FFF);
	if (dscale)
		*dscale = ds;
	if (scale < 0)
		scale = ds;
	return gx_numeric_decode(data, len, scale, v, &ds) == 0;
}

/*
 * A numeric Datum as a column of scale GX_NUMERIC_FREE stores it
 * (gx_numeric_free_encode: GX_NUMERIC_UNFIT for what the device cannot
 * hold)
 */
int64
gx_numeric_free_datum(Datum d)
{
	struct varlena *vl = PG_DETOAST_DATUM_PACKED(d);
	int64		v = gx_numeric_free_encode((const uint8 *) VARDATA_ANY(vl),
										   VARSIZE_ANY_EXHDR(vl));

	if ((Pointer) vl != DatumGetPointer(d))
		pfree(vl);
	return v;
}

/*
 * Is equality under collation collid bytewise (after bpchar's trailing
 * spaces), i.e. may GX_CHAR8 values be compared as int64s?  Deterministic
 * collations (C, POSIX, the database default, ICU ones made so) are.
 */
bool
gx_collation_exact(Oid collid)
{
	return OidIsValid(collid) && get_collation_isdeterministic(collid);
}

/*
 * A bpchar Datum as a GX_CHAR8 value: its bytes without the trailing
 * spaces, packed (gx_char8_pack).  False when they are more than 8.
 */
bool
gx_char8_value(Datum d, int64 *v)
{
	struct varlena *vl = PG_DETOAST_DATUM_PACKED(d);
	bool		ok = gx_char8_pack((const uint8_t *) VARDATA_ANY(vl), VARSIZE_ANY_EXHDR(vl),
								   (int64_t *) v) == 0;

	if ((Pointer) vl != DatumGetPointer(d))
		pfree(vl);
	return ok;
}

/*
 * The bpchar Datum of GX_CHAR8 value 'packed' for a column of typmod
 * 'typmod': its bytes, padded with spaces to n = typmod - VARHDRSZ
 * characters as bpchar() pads a value of char(n) (no padding when typmod
 * is -1).  Palloc'd in the current memory context.
 */
Datum
gx_char8_datum(int64 packed, int32 typmod)
{
	char		buf[8];
	int			len = 0,
				pad = 0;
	BpChar	   *res;

	while (len < 8 && ((uint64) packed >> (8 * len)) & 0xFF)
	{
		buf[len] = (char) (((uint64) packed >> (8 * len)) & 0xFF);
		len++;
	}
	if (typmod >= (int32) VARHDRSZ)
	{
		int			n = typmod - VARHDRSZ;
		int			chars = len > 0 ? pg_mbstrlen_with_len(buf, len) : 0;

		pad = Max(n - chars, 0);
	}
	res = (BpChar *) palloc(VARHDRSZ + len + pad);
	SET_VARSIZE(res, VARHDRSZ + len + pad);
	memcpy(VARDATA(res), buf, len);
	memset(VARDATA(res) + len, ' ', pad);
	return PointerGetDatum(res);
}

/*
 * Datum -> (int64 | double) for a supported type; bpchar (of a GX_CHAR8
 * column) as its packed GX_CHAR8 value
 */
void
gx_datum_value(Datum d, Oid typid, int64 *ival, double *dval)
{
	*ival = 0;
	*dval = 0;
	switch (typid)
	{
		case BPCHAROID:
			if (!gx_char8_value(d, ival))
				elog(ERROR, "gpuext: bpchar value longer than 8 bytes on the device");
			break;
		case BOOLOID:
			*ival = DatumGetBool(d);
			break;
		case INT2OID:
			*ival = DatumGetInt16(d);
			break;
		case INT4OID:
		case DATEOID:
			*ival = DatumGetInt32(d);
			break;
		case INT8OID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			*ival = DatumGetInt64(d);
			break;
		case FLOAT4OID:
			*dval = DatumGetFloat4(d);
			break;
		case FLOAT8OID:
			*dval = DatumGetFloat8(d);
			break;
	}
}

/*
 * Store Datum d (of a type mapped to gx_type gxtype; ignored when isnull)
 * as row n of a column's values.
 */
void
gx_store_datum(char *vals, int gxtype, uint32 n, Datum d, bool isnull)
{
	gx_store_datum_scale(vals, gxtype, 0, n, d, isnull);
}

/*
 * gx_store_datum for a column of any device type: a GX_NUMERIC one holds
 * its values at 'scale' (its column's)
 */
void
gx_store_datum_scale(char *vals, int gxtype, int scale, uint32 n, Datum d, bool isnull)
{
	switch (gxtype)
	{
		case GX_NUMERIC:
			{
				int64		v = 0;

				if (scale == GX_NUMERIC_FREE)
				{
					((int64 *) vals)[n] = isnull ? 0 : gx_numeric_free_datum(d);
					break;
				}
				/* a value of the column's typmod always fits */
				if (!isnull && !gx_numeric_value(d, scale, &v, NULL))
					elog(ERROR, "gpuext: numeric value does not fit scale %d", scale);
				((int64 *) vals)[n] = v;
			}
			break;
		case GX_CHAR8:
			{
				int64		v = 0;

				/* a value of the column's typmod always fits */
				if (!isnull && !gx_char8_value(d, &v))
					elog(ERROR, "gpuext: bpchar value longer than 8 bytes on the device");
				((int64 *) vals)[n] = v;
			}
			break;
		case GX_BOOL:
			((uint8 *) vals)[n] = isnull ? 0 : DatumGetBool(d);
			break;
		case GX_INT2:
			((int16 *) vals)[n] = isnull ? 0 : DatumGetInt16(d);
			break;
		case GX_INT4:
			((int32 *) vals)[n] = isnull ? 0 : DatumGetInt32(d);
			break;
		case GX_FLOAT4:
			((float4 *) vals)[n] = isnull ? 0 : DatumGetFloat4(d);
			break;
		case GX_FLOAT8:
			((float8 *) vals)[n] = isnull ? 0 : DatumGetFloat8(d);
			break;
		default:
			((int64 *) vals)[n] = isnull ? 0 : DatumGetInt64(d);
			break;
	}
}

/* alignment in bytes of an attalign code */
uint8
gx_align_bytes(char attalign)
{
	switch (attalign)
	{
		case TYPALIGN_SHORT:
			return 2;
		case TYPALIGN_INT:
			return 4;
		case TYPALIGN_DOUBLE:
			return 8;
		default:
			return 1;
	}
}

/*
 * Describe attributes 1 .. max(attno) of a relation for the page deformer
 * (gx_deform.cuh); column i of the chunk is attribute attno[i] of type
 * gxtype[i].  False when the deformer cannot produce them: an attribute
 * beyond GX_MAX_DEFORM_ATTS or the relation, or a needed attribute that is
 * not fixed-width by-value of the column's width (or, for a GX_NUMERIC
 * column of scale scale[i], a numeric; for a GX_CHAR8 one, a bpchar).  atts has room for
 * GX_MAX_DEFORM_ATTS entries.
 */
bool
gx_deform_atts(TupleDesc desc, int ncols, const AttrNumber *attno,
			   const int *gxtype, const int *scale, gx_attr *atts, int *maxatt)
{
	int			off = 0;
	bool		fixed = true;
	int			maxa = 0;

	for (int i = 0; i < ncols; i++)
		maxa = Max(maxa, attno[i]);
	*maxatt = maxa;
	if (maxa > GX_MAX_DEFORM_ATTS || maxa > desc->natts)
		return false;
	memset(atts, 0, sizeof(gx_attr) * Max(maxa, 1));
	for (int a = 1; a <= maxa; a++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, a - 1);
		gx_attr    *ga = &atts[a - 1];

		ga->attlen = att->attlen;
		ga->attalign = gx_align_bytes(att->attalign);
		ga->col = -1;
		ga->fixed_off = -1;
		if (fixed && att->attlen > 0)
		{
			off = att_align_nominal(off, att->attalign);
			ga->fixed_off = off;
			off += att->attlen;
		}
		else
			fixed = false;
		if (att->atthasmissing && desc->constr && desc->constr->missing &&
			desc->constr->missing[a - 1].am_present)
		{
			ga->has_missing = 1;
			ga->missing = (int64) desc->constr->missing[a - 1].am_value;
		}
	}
	for (int i = 0; i < ncols; i++)
	{
		gx_attr    *ga;

		if (attno[i] < 1)
			return false;
		ga = &atts[attno[i] - 1];
		if (gxtype[i] == GX_NUMERIC)
		{
			Form_pg_attribute att = TupleDescAttr(desc, attno[i] - 1);

			/* numeric varlenas are decoded; the missing value here */
			if (att->atttypid != NUMERICOID || ga->attlen != -1)
				return false;
			if (ga->has_missing && scale && scale[i] == GX_NUMERIC_FREE)
				ga->missing =
					gx_numeric_free_datum(desc->constr->missing[attno[i] - 1].am_value);
			else if (ga->has_missing &&
					 !gx_numeric_value(desc->constr->missing[attno[i] - 1].am_value,
									   scale ? scale[i] : 0, &ga->missing, NULL))
				return false;
			ga->col = (int16) i;
			continue;
		}
		if (gxtype[i] == GX_CHAR8)
		{
			Form_pg_attribute att = TupleDescAttr(desc, attno[i] - 1);

			/* bpchar varlenas are packed; the missing value here */
			if (att->atttypid != BPCHAROID || ga->attlen != -1)
				return false;
			if (ga->has_missing &&
				!gx_char8_value(desc->constr->missing[attno[i] - 1].am_value, &ga->missing))
				return false;
			ga->col = (int16) i;
			continue;
		}
		/* other columns: fixed-width by-value attributes, as they are */
		if (ga->attlen != (int) gx_type_width(gxtype[i]) ||
			!TupleDescAttr(desc, attno[i] - 1)->attbyval)
			return false;
		ga->col = (int16) i;
	}
	return true;
}
