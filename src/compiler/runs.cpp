/*
 * runs.cpp - the values a program takes at scan start: Param values, the
 * sets of GX_OP_INSET and the bounds of GX_OP_INRANGES (gx_program.h has
 * the runs' layout).
 *
 * Design note
 * -----------
 * A comparison with timestamptz on one side depends on the session's
 * TimeZone, which the device does not know.  When the other side is a
 * value v of a column (date, timestamp or timestamptz) and this side a
 * Const or a Param K, the set of v for which "v op K" holds is computed
 * here, at scan start, as half-open ranges of v's own type, with
 * PostgreSQL's own comparison function as the oracle (cmp(v) =
 * date_cmp_timestamptz_internal, timestamp_cmp_timestamptz_internal, in
 * the operator's argument order), so the device compares integers only:
 *
 *  - when cmp is monotone in v (date vs timestamptz: a date's local
 *    midnight never goes back, as a UTC offset changes by less than a day;
 *    timestamptz vs a date or timestamp K: K is one instant), a binary
 *    search over v's domain (-infinity, every valid value, infinity) finds
 *    L = the first v with cmp >= 0 and U = the first with cmp > 0:
 *    "<" is [-inf, L), "<=" is [-inf, U), "=" is [L, U), and ">=", ">",
 *    "<>" their complements;
 *  - a timestamp v against a finite timestamptz K is not monotone: a local
 *    time in a spring-forward gap maps past later local times.  Only v
 *    within 26 hours of K can go either way (UTC offsets are below a day,
 *    as PostgreSQL's DetermineTimeZoneOffset assumes); there v -> instant
 *    is v + g(v) with g piecewise constant, changing at most once in 13
 *    hours (PostgreSQL assumes DST boundaries 48 hours apart).  g is
 *    sampled every 13 hours and each change located by bisection; each
 *    piece then contributes one range.  The ranges are checked against the
 *    oracle on both sides of every bound.  A window outside the timestamp
 *    range, a third value of g, or a failed check returns "not exact", and
 *    the scan runs its device quals on the host (always correct).
 *
 * Sets (= ANY / <> ALL): the array's distinct non-NULL elements, as the
 * comparison's type, sorted as the device searches them; NULL elements
 * only set GX_RUN_HAS_NULL.  A Const array that fits the constant table
 * is a run there (built at plan time); a longer one, and any array Param,
 * is a big set (GX_DYN_BIG): its int64 values are built here at scan
 * start into GxProgram.big, and the scan puts them in device memory
 * (scan_sets.cpp).  A Const's big set is built once per executor run
 * (GxBigSet.is_const: a rescan keeps it).
 */
#include "gpuext.h"
#include "compiler.h"
#include "gx_sort.h"

extern "C"
{
#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "portability/instr_time.h"
#include "utils/array.h"
#include "utils/date.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
}

/* ---------- sets ---------- */

/* order of integer set values */
static int
gx_run_cmp_int(const void *a, const void *b)
{
	int64		x = ((const gx_const *) a)->v.i;
	int64		y = ((const gx_const *) b)->v.i;

	return x < y ? -1 : (x > y ? 1 : 0);
}

/* order of float set values: float8_cmp_internal's (NaN last), as the device */
static int
gx_run_cmp_float(const void *a, const void *b)
{
	return float8_cmp_internal(((const gx_const *) a)->v.d, ((const gx_const *) b)->v.d);
}

/* sort the n set values of tmp (integers: by v.i, else as floats), drop repeats */
static int
gx_set_sort_distinct(gx_const *tmp, int n, bool isint)
{
	int			m = 0;
	int			(*cmp) (const void *, const void *) = isint ? gx_run_cmp_int : gx_run_cmp_float;

	if (n > 1)
		qsort(tmp, n, sizeof(gx_const), cmp);
	for (int i = 0; i < n; i++)
	{
		if (m > 0 && cmp(&tmp[m - 1], &tmp[i]) == 0)
			continue;
		tmp[m++] = tmp[i];
	}
	return m;
}

/* free what deconstruct_array (and detoasting) allocated for array */
static void
gx_array_free(Datum array, ArrayType *arr, Datum *values, bool *nulls)
{
	pfree(values);
	pfree(nulls);
	if ((Pointer) arr != DatumGetPointer(array))
		pfree(arr);
}

/*
 * The set of array (elements of elemtype) compared as gx_type ctype: its
 * non-NULL elements, unsorted, in *out (palloc'd).  Returns how many, or
 * -1 when elemtype is no device type; *flags gets GX_RUN_HAS_NULL when an
 * element is NULL; *isint whether they compare as integers (else floats).
 */
static int
gx_set_build(Datum array, Oid elemtype, int ctype, gx_const **out, int64 *flags, bool *isint)
{
	ArrayType  *arr = DatumGetArrayTypeP(array);
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	Datum	   *values;
	bool	   *nulls;
	int			nitems,
				n = 0,
				et;
	gx_const   *tmp;

	*flags = 0;
	*isint = ctype == GX_BOOL || ctype == GX_INT2 || ctype == GX_INT4 || ctype == GX_INT8;
	if (!gx_type_supported(elemtype, &et))
		return -1;
	get_typlenbyvalalign(elemtype, &elmlen, &elmbyval, &elmalign);
	deconstruct_array(arr, elemtype, elmlen, elmbyval, elmalign, &values, &nulls, &nitems);
	tmp = (gx_const *) palloc_extended(sizeof(gx_const) * Max(nitems, 1),
									   MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int i = 0; i < nitems; i++)
	{
		int64		iv;
		double		dv;

		if (nulls[i])
		{
			*flags |= GX_RUN_HAS_NULL;
			continue;
		}
		gx_datum_value(values[i], elemtype, &iv, &dv);
		tmp[n].type = ctype;
		if (*isint)
			tmp[n].v.i = iv;
		else if (et == GX_FLOAT4 || et == GX_FLOAT8)
			tmp[n].v.d = dv;
		else					/* an integer element compared as a float */
			tmp[n].v.d = ctype == GX_FLOAT4 ? (double) (float) iv : (double) iv;
		n++;
	}
	gx_array_free(array, arr, values, nulls);
	*out = tmp;
	return n;
}

/*
 * The set of an array of varlenas (numeric or bpchar, elemtype) as device
 * values (type gxtype, compared as integers): each non-NULL element
 * through conv, which returns false for one the other side never equals
 * (left out); unsorted, in *out (palloc'd).  Returns how many; *flags
 * gets GX_RUN_HAS_NULL when an element is NULL.
 */
static int
gx_vl_set_build(Datum array, Oid elemtype, int gxtype, int scale, gx_const **out,
				int64 *flags)
{
	ArrayType  *arr = DatumGetArrayTypeP(array);
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	Datum	   *values;
	bool	   *nulls;
	int			nitems,
				n = 0;
	gx_const   *tmp;

	*flags = 0;
	get_typlenbyvalalign(elemtype, &elmlen, &elmbyval, &elmalign);
	deconstruct_array(arr, elemtype, elmlen, elmbyval, elmalign, &values, &nulls, &nitems);
	tmp = (gx_const *) palloc_extended(sizeof(gx_const) * Max(nitems, 1),
									   MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int i = 0; i < nitems; i++)
	{
		int64		v;
		bool		ok;

		if (nulls[i])
		{
			*flags |= GX_RUN_HAS_NULL;
			continue;
		}
		ok = gxtype == GX_CHAR8 ? gx_char8_value(values[i], &v) :
			gx_numeric_value(values[i], scale, &v, NULL);
		if (ok)
		{
			tmp[n].type = gxtype;
			tmp[n].v.i = v;
			n++;
		}
	}
	gx_array_free(array, arr, values, nulls);
	*out = tmp;
	return n;
}

/*
 * The set of array for a set of dynamic kind dyn (GX_DYN_KIND and AUX1 of
 * a GX_DYN_*SET): GX_DYN_SET, elements of elemtype compared as the
 * gx_type AUX1 (gx_set_build); GX_DYN_NUMSET, numeric at scale AUX1 (an
 * element that has no value at that scale, with more digits after the
 * point or too large, equals no value of the other side and is left out);
 * GX_DYN_CHAR8SET, bpchar packed (gx_char8_value: one longer than 8 bytes
 * equals no GX_CHAR8 value and is left out).  Returns as gx_set_build
 * (unsorted; *isint: compared as integers, else as floats).
 */
static int
gx_set_collect(int64 dyn, Datum array, Oid elemtype, gx_const **out, int64 *flags,
			   bool *isint)
{
	*out = NULL;
	*isint = true;
	switch (GX_DYN_KIND(dyn))
	{
		case GX_DYN_NUMSET:
			return gx_vl_set_build(array, NUMERICOID, GX_NUMERIC, GX_DYN_AUX1(dyn), out, flags);
		case GX_DYN_CHAR8SET:
			return gx_vl_set_build(array, BPCHAROID, GX_CHAR8, 0, out, flags);
		default:
			return gx_set_build(array, elemtype, GX_DYN_AUX1(dyn), out, flags, isint);
	}
}

/*
 * The set run of array for an INSET of dynamic kind dyn (gx_set_collect)
 * into vals: returns how many values, or -1 when more than cap or not a
 * device type.
 */
int
gx_set_run_build(int64 dyn, Datum array, Oid elemtype, gx_const *vals, int cap, int64 *flags)
{
	gx_const   *tmp;
	bool		isint;
	int			m = gx_set_collect(dyn, array, elemtype, &tmp, flags, &isint);

	if (m > 0)
		m = gx_set_sort_distinct(tmp, m, isint);
	if (m > cap)
		m = -1;
	if (m > 0)
		memcpy(vals, tmp, sizeof(gx_const) * m);
	if (tmp != NULL)
		pfree(tmp);
	return m;
}

/*
 * The non-NULL elements of a fixed-width array arr (elements of a device
 * type elemtype, compared as gx_type ctype) as big set values, read in
 * place (no Datum array, no gx_const: gx_set_build's conversions) into
 * v (room for every element): an integer, or a float's double bits.
 * Returns how many; *flags gets GX_RUN_HAS_NULL for a NULL element.
 */
static int64
gx_set_read_fixed(ArrayType *arr, Oid elemtype, int ctype, int64 *v, int64 *flags)
{
	int			nitems = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	const char *at = ARR_DATA_PTR(arr);
	const bits8 *bitmap = ARR_NULLBITMAP(arr);
	bool		isint = ctype == GX_BOOL || ctype == GX_INT2 || ctype == GX_INT4 ||
		ctype == GX_INT8;
	int64		n = 0;

	for (int i = 0; i < nitems; i++)
	{
		int64		iv = 0;
		double		dv = 0;
		bool		isfloat = false;

		if (bitmap != NULL && (bitmap[i / 8] & (1 << (i % 8))) == 0)
		{
			*flags |= GX_RUN_HAS_NULL;
			continue;
		}
		switch (elemtype)
		{
			case BOOLOID:
				iv = *(const bool *) at != 0;
				at += sizeof(bool);
				break;
			case INT2OID:
				iv = *(const int16 *) at;
				at += sizeof(int16);
				break;
			case INT4OID:
			case DATEOID:
				iv = *(const int32 *) at;
				at += sizeof(int32);
				break;
			case FLOAT4OID:
				dv = *(const float4 *) at;
				isfloat = true;
				at += sizeof(float4);
				break;
			case FLOAT8OID:
				memcpy(&dv, at, sizeof(dv));
				isfloat = true;
				at += sizeof(float8);
				break;
			default:			/* int8, timestamp, timestamptz */
				memcpy(&iv, at, sizeof(iv));
				at += sizeof(int64);
				break;
		}
		if (isint)
			v[n] = iv;
		else
		{
			if (!isfloat)		/* an integer element compared as a float */
				dv = ctype == GX_FLOAT4 ? (double) (float) iv : (double) iv;
			memcpy(&v[n], &dv, sizeof(dv));
		}
		n++;
	}
	return n;
}

/*
 * A big set (GX_DYN_BIG) of array for dynamic kind dyn (gx_set_collect):
 * its values as int64s (a float as its double's bits) in *vals, allocated
 * in cxt (NULL when none), sorted and distinct as the device searches them
 * (gx_sort.h: a radix sort, nothing to do for ascending input).  A plain
 * array of a device type is read in place (gx_set_read_fixed), numeric and
 * bpchar ones through gx_set_collect.  Returns how many.
 */
static int64
gx_set_big_build(int64 dyn, Datum array, Oid elemtype, MemoryContext cxt, int64 **vals,
				 int64 *flags)
{
	bool		isint = true;
	int64		n;
	int64	   *v,
			   *tmp;
	int			et;

	*vals = NULL;
	*flags = 0;
	if (GX_DYN_KIND(dyn) != GX_DYN_NUMSET && GX_DYN_KIND(dyn) != GX_DYN_CHAR8SET &&
		elemtype != BPCHAROID && gx_type_supported(elemtype, &et))
	{
		ArrayType  *arr = DatumGetArrayTypeP(array);
		int			ctype = GX_DYN_AUX1(dyn);

		isint = ctype == GX_BOOL || ctype == GX_INT2 || ctype == GX_INT4 || ctype == GX_INT8;
		v = (int64 *) MemoryContextAllocHuge(cxt, sizeof(int64) *
											 Max(ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr)), 1));
		n = gx_set_read_fixed(arr, elemtype, ctype, v, flags);
		if ((Pointer) arr != DatumGetPointer(array))
			pfree(arr);
	}
	else
	{
		gx_const   *in;
		int			m = gx_set_collect(dyn, array, elemtype, &in, flags, &isint);

		if (m < 0)
			elog(ERROR, "gpuext: array parameter of element type %u", elemtype);
		v = (int64 *) MemoryContextAllocHuge(cxt, sizeof(int64) * Max(m, 1));
		for (int i = 0; i < m; i++)
			v[i] = in[i].v.i;
		n = m;
		if (in != NULL)
			pfree(in);
	}
	if (n == 0)
	{
		pfree(v);
		return 0;
	}
	tmp = (int64 *) MemoryContextAllocHuge(CurrentMemoryContext, sizeof(int64) * n);
	n = isint ? gx_sort_distinct_int64(v, n, tmp) : gx_sort_distinct_float8(v, n, tmp);
	pfree(tmp);
	*vals = v;
	return n;
}

/* ---------- bounds ---------- */

/* a comparison of a value v (of a GX_DOM_*) with K, by PostgreSQL's functions */
typedef struct GxOracle
{
	int			dom;
	Oid			ktype;
	Datum		k;
} GxOracle;

/* cmp(v, K) as the operator "v op K" computes it; false when not supported */
static bool
gx_oracle_cmp(const GxOracle *o, int64 v, int *cmp)
{
	if (o->dom == GX_DOM_DATE && o->ktype == TIMESTAMPTZOID)
		*cmp = date_cmp_timestamptz_internal((DateADT) v, DatumGetTimestampTz(o->k));
	else if (o->dom == GX_DOM_TIMESTAMPTZ && o->ktype == DATEOID)
		*cmp = -date_cmp_timestamptz_internal(DatumGetDateADT(o->k), (TimestampTz) v);
	else if (o->dom == GX_DOM_TIMESTAMP && o->ktype == TIMESTAMPTZOID)
		*cmp = timestamp_cmp_timestamptz_internal((Timestamp) v, DatumGetTimestampTz(o->k));
	else if (o->dom == GX_DOM_TIMESTAMPTZ && o->ktype == TIMESTAMPOID)
		*cmp = -timestamp_cmp_timestamptz_internal(DatumGetTimestamp(o->k), (TimestampTz) v);
	else
		return false;
	*cmp = *cmp < 0 ? -1 : (*cmp > 0 ? 1 : 0);
	return true;
}

/* does comparison op (GX_OP_EQ .. GE) hold for cmp? */
static bool
gx_op_holds(int op, int cmp)
{
	switch (op)
	{
		case GX_OP_EQ:
			return cmp == 0;
		case GX_OP_NE:
			return cmp != 0;
		case GX_OP_LT:
			return cmp < 0;
		case GX_OP_LE:
			return cmp <= 0;
		case GX_OP_GT:
			return cmp > 0;
		default:
			return cmp >= 0;
	}
}

/* is v in the ranges of bounds b[0 .. n) (an odd number of bounds <= v)? */
static bool
gx_in_bounds(const int64 *b, int n, int64 v)
{
	int			c = 0;

	for (int i = 0; i < n; i++)
		c += b[i] <= v;
	return (c & 1) != 0;
}

/* the complement of the ranges b[0 .. *n) (room for one more bound) */
static void
gx_bounds_complement(int64 *b, int *n)
{
	if (*n > 0 && b[0] == PG_INT64_MIN)
	{
		memmove(b, b + 1, sizeof(int64) * (*n - 1));
		(*n)--;
	}
	else
	{
		memmove(b + 1, b, sizeof(int64) * *n);
		b[0] = PG_INT64_MIN;
		(*n)++;
	}
}

/* the domain of a GX_DOM_*: -infinity, [lo, hi] (valid values), infinity */
typedef struct GxDomain
{
	int64		ninf,
				lo,
				hi,
				pinf;
} GxDomain;

static GxDomain
gx_domain(int dom)
{
	GxDomain	d;

	if (dom == GX_DOM_DATE)
	{
		d.ninf = DATEVAL_NOBEGIN;
		d.lo = DATETIME_MIN_JULIAN - POSTGRES_EPOCH_JDATE;
		d.hi = DATE_END_JULIAN - POSTGRES_EPOCH_JDATE - 1;
		d.pinf = DATEVAL_NOEND;
	}
	else
	{
		d.ninf = DT_NOBEGIN;
		d.lo = MIN_TIMESTAMP;
		d.hi = END_TIMESTAMP - 1;
		d.pinf = DT_NOEND;
	}
	return d;
}

/* the number of values of a domain (the timestamp range needs 64 unsigned bits) */
static uint64
gx_domain_size(const GxDomain *d)
{
	return (uint64) d->hi - (uint64) d->lo + 3;
}

/* the i-th value of a domain (0: -infinity, size - 1: infinity) */
static int64
gx_domain_value(const GxDomain *d, uint64 i)
{
	if (i == 0)
		return d->ninf;
	if (i == gx_domain_size(d) - 1)
		return d->pinf;
	return (int64) ((uint64) d->lo + i - 1);
}

/*
 * Monotone cmp: the index of the first domain value with cmp >= want
 * (want 0 or 1), or the domain's size when none.
 */
static bool
gx_first_at_least(const GxOracle *o, const GxDomain *d, int want, uint64 *idx)
{
	uint64		lo = 0,
				hi = gx_domain_size(d);

	while (lo < hi)
	{
		uint64		mid = lo + (hi - lo) / 2;
		int			cmp;

		if (!gx_oracle_cmp(o, gx_domain_value(d, mid), &cmp))
			return false;
		if (cmp >= want)
			hi = mid;
		else
			lo = mid + 1;
	}
	*idx = lo;
	return true;
}

/* bounds of "v op K" for a cmp monotone in v: from L and U (see the note) */
static int
gx_bounds_monotone(const GxOracle *o, int op, int64 *b)
{
	GxDomain	d = gx_domain(o->dom);
	uint64		size = gx_domain_size(&d);
	uint64		li,
				ui;
	int			n = 0;
	int			base = op == GX_OP_GT ? GX_OP_LE : op == GX_OP_GE ? GX_OP_LT :
		op == GX_OP_NE ? GX_OP_EQ : op;

	if (!gx_first_at_least(o, &d, 0, &li) || !gx_first_at_least(o, &d, 1, &ui))
		return -1;
	if (base == GX_OP_LT || base == GX_OP_LE)
	{
		uint64		e = base == GX_OP_LT ? li : ui;

		b[n++] = PG_INT64_MIN;
		if (e < size)
			b[n++] = gx_domain_value(&d, e);
	}
	else if (li < size)			/* = : [L, U) */
	{
		b[n++] = gx_domain_value(&d, li);
		if (ui < size)
			b[n++] = gx_domain_value(&d, ui);
	}
	if (base != op)
		gx_bounds_complement(b, &n);
	return n;
}

/* g(v) = the instant of timestamp v minus v; false on overflow */
static bool
gx_tz_shift(Timestamp v, int64 *g)
{
	int			overflow;
	TimestampTz t = timestamp2timestamptz_opt_overflow(v, &overflow);

	if (overflow != 0)
		return false;
	*g = t - v;
	return true;
}

/* bounds of "timestamp v op K" for a finite timestamptz K (see the note) */
static int
gx_bounds_timestamp(const GxOracle *o, int op, int64 *b, int cap)
{
	const int64 H = INT64CONST(26) * USECS_PER_HOUR;
	TimestampTz k = DatumGetTimestampTz(o->k);
	int64		w0,
				w1,
				s[5],
				g[5];
	int64		ps[5],
				pg[5];
	int			npieces = 0,
				n = 0;
	int			base = op == GX_OP_GT ? GX_OP_LE : op == GX_OP_GE ? GX_OP_LT :
		op == GX_OP_NE ? GX_OP_EQ : op;

	if (k < MIN_TIMESTAMP + H || k >= END_TIMESTAMP - H)
		return -1;
	w0 = k - H;
	w1 = k + H;
	for (int i = 0; i < 5; i++)
	{
		s[i] = w0 + (w1 - w0) / 4 * i;
		if (!gx_tz_shift(s[i], &g[i]))
			return -1;
	}
	ps[npieces] = w0;
	pg[npieces++] = g[0];
	for (int i = 0; i < 4; i++)
	{
		int64		lo = s[i],
					hi = s[i + 1];

		if (g[i] == g[i + 1])
			continue;
		/* one change in (lo, hi]: the first v with g[i + 1] */
		while (hi - lo > 1)
		{
			int64		mid = lo + (hi - lo) / 2,
						gm;

			if (!gx_tz_shift(mid, &gm))
				return -1;
			if (gm == g[i])
				lo = mid;
			else if (gm == g[i + 1])
				hi = mid;
			else
				return -1;
		}
		ps[npieces] = hi;
		pg[npieces++] = g[i + 1];
	}
	/* the ranges of the base comparison, in order */
	if (base != GX_OP_EQ)
	{
		b[n++] = PG_INT64_MIN;	/* below the window: every instant < K */
		b[n++] = w0;
	}
	for (int i = 0; i < npieces; i++)
	{
		int64		start = ps[i];
		int64		end = i + 1 < npieces ? ps[i + 1] : w1;
		int64		lo,
					hi;

		/* v in the piece: instant v + g; < K: v < K - g; = K: v = K - g */
		if (base == GX_OP_EQ)
		{
			lo = Max(start, k - pg[i]);
			hi = Min(end, k - pg[i] + 1);
		}
		else
		{
			lo = start;
			hi = Min(end, k - pg[i] + (base == GX_OP_LE ? 1 : 0));
		}
		if (lo >= hi)
			continue;
		if (n > 0 && b[n - 1] == lo)
			b[n - 1] = hi;		/* continues the last range */
		else
		{
			if (n + 2 > cap - 1)
				return -1;
			b[n++] = lo;
			b[n++] = hi;
		}
	}
	if (base != op)
		gx_bounds_complement(b, &n);
	/* check: the oracle on both sides of every bound and of the window */
	for (int i = -2; i < n; i++)
	{
		int64		at = i == -2 ? w0 : i == -1 ? w1 : b[i];

		if (at == PG_INT64_MIN)
			continue;
		for (int64 v = at - 1; v <= at; v++)
		{
			int			cmp;

			if (v < MIN_TIMESTAMP || v >= END_TIMESTAMP || !gx_oracle_cmp(o, v, &cmp) ||
				gx_op_holds(op, cmp) != gx_in_bounds(b, n, v))
				return -1;
		}
	}
	return n;
}

/*
 * The bounds run of "v op K" (v of domain dom, K a Datum of ktype) into b
 * (room for cap bounds).  Returns the number of bounds, or -1 when they
 * cannot be exact.
 */
static int
gx_bounds(int op, int dom, Oid ktype, Datum k, int64 *b, int cap)
{
	GxOracle	o;
	int			n;

	o.dom = dom;
	o.ktype = ktype;
	o.k = k;
	if (dom == GX_DOM_TIMESTAMP && ktype == TIMESTAMPTZOID &&
		!TIMESTAMP_NOT_FINITE(DatumGetTimestampTz(k)))
		n = gx_bounds_timestamp(&o, op, b, cap);
	else
		n = gx_bounds_monotone(&o, op, b);
	return n > cap ? -1 : n;
}

/* ---------- filling a program ---------- */

/*
 * Fill what Param (or Const) number i of program p sets at scan start: the
 * value d (isnull) of type typid, for kind (GX_DYN_*), at constant k.
 * Returns false when the run cannot hold it exactly: the scan must then
 * run its device quals on the host.
 */
bool
gx_program_fill(GxProgram *p, int kind, int k, Datum d, bool isnull, Oid typid)
{
	gx_const   *c = &p->consts[k];

	switch (GX_DYN_KIND(kind))
	{
		case GX_DYN_VALUE:
			{
				int64		iv;
				double		dv;
				int			t;

				c->isnull = isnull;
				c->v.i = 0;
				if (!isnull)
				{
					gx_datum_value(d, typid, &iv, &dv);
					if (gx_type_supported(typid, &t) && (t == GX_FLOAT4 || t == GX_FLOAT8))
						c->v.d = dv;
					else
						c->v.i = iv;
				}
				return true;
			}
		case GX_DYN_NUMERIC:
			c->isnull = isnull;
			c->v.i = 0;
			if (!isnull && typid != NUMERICOID)
				elog(ERROR, "gpuext: numeric parameter of type %u", typid);
			return isnull || gx_numeric_value(d, GX_DYN_AUX1(kind), &c->v.i, NULL);
		case GX_DYN_CHAR8:
			c->isnull = isnull;
			c->v.i = 0;
			if (!isnull && typid != BPCHAROID)
				elog(ERROR, "gpuext: bpchar parameter of type %u", typid);
			return isnull || gx_char8_value(d, &c->v.i);
		case GX_DYN_SET:
		case GX_DYN_NUMSET:
		case GX_DYN_CHAR8SET:
			{
				int			idx = GX_DYN_AUX2(kind);
				GxBigSet   *b = &p->big[idx];
				int64		flags = 0;

				if ((kind & GX_DYN_BIG) == 0 || idx >= GX_MAX_BIGSETS ||
					k + GX_BIGSET_HEADER > p->nconsts)
					elog(ERROR, "gpuext: malformed device program in the plan");
				if (b->vals != NULL)
					pfree(b->vals);
				b->vals = NULL;
				b->n = 0;
				b->k = k;
				if (!isnull)
				{
					Oid			elemtype = get_element_type(typid);

					if (GX_DYN_KIND(kind) == GX_DYN_NUMSET && elemtype != NUMERICOID)
						elog(ERROR, "gpuext: numeric array parameter of type %u", typid);
					if (GX_DYN_KIND(kind) == GX_DYN_CHAR8SET && elemtype != BPCHAROID)
						elog(ERROR, "gpuext: bpchar array parameter of type %u", typid);
					instr_time	t0,
								t1;

					INSTR_TIME_SET_CURRENT(t0);
					b->n = gx_set_big_build(kind, d, elemtype, GetMemoryChunkContext(p),
											&b->vals, &flags);
					INSTR_TIME_SET_CURRENT(t1);
					INSTR_TIME_SUBTRACT(t1, t0);
					p->big_ms += INSTR_TIME_GET_MILLISEC(t1);
				}
				p->nbig = Max(p->nbig, idx + 1);
				p->big_changed = true;
				c[0].isnull = isnull;
				c[0].v.i = isnull ? -1 : b->n;	/* (-1: "a parameter", EXPLAIN) */
				c[1].v.i = flags;
				c[2].v.i = 0;	/* where it goes: gx_scan_sets_upload */
				return true;
			}
		case GX_DYN_BOUND:
			{
				int64		b[GX_BOUNDS_CAP];
				int			n = 0;

				if (k + GX_RUN_HEADER + GX_BOUNDS_CAP > p->nconsts)
					elog(ERROR, "gpuext: malformed device program in the plan");
				if (!isnull)
				{
					n = gx_bounds(GX_DYN_AUX1(kind), GX_DYN_AUX2(kind), typid, d, b,
								  GX_BOUNDS_CAP);
					if (n < 0)
						return false;
				}
				c[0].isnull = isnull;
				c[0].v.i = n;
				c[1].v.i = 0;
				for (int i = 0; i < n; i++)
					c[GX_RUN_HEADER + i].v.i = b[i];
				return true;
			}
		default:
			elog(ERROR, "gpuext: malformed device program in the plan");
	}
	return false;
}

/*
 * gx_program_fill for a Const (a session-dependent Const, or a Const
 * array's big set): a big set already built from it is kept (a rescan
 * gives the same set; only its place in the object may need no change).
 */
bool
gx_program_fill_const(GxProgram *p, int kind, int k, Const *c)
{
	if (kind & GX_DYN_BIG)
	{
		GxBigSet   *b = &p->big[GX_DYN_AUX2(kind) % GX_MAX_BIGSETS];

		if (b->is_const && b->k == k)
			return true;
		if (!gx_program_fill(p, kind, k, c->constvalue, c->constisnull, c->consttype))
			return false;
		b->is_const = true;
		return true;
	}
	return gx_program_fill(p, kind, k, c->constvalue, c->constisnull, c->consttype);
}
