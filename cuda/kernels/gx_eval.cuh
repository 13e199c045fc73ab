/*
 * gx_eval.cuh - the opcode interpreter for one row, compiled both by nvcc
 * (inside the fused filter kernel) and by g++ (the CPU device and the unit
 * tests).  Keeping one source guarantees that the GPU and the CPU agree.
 *
 * Semantics follow PostgreSQL 15 exactly: integer arithmetic raises on
 * overflow per width (int2pl, int4mul, ...), division by zero raises,
 * int division by -1 is special-cased, float arithmetic follows float.h
 * (float8_pl, float8_mul, float8_div ...) including overflow/underflow
 * checks, float comparison orders NaN above everything and equal to
 * itself, casts follow i8toi4, dtoi4 (rint + range), dtof and friends.
 * Strict operators return NULL on a NULL input; AND/OR are three-valued.
 *
 * numeric (GX_NUMERIC, gx_program.h): int64 fixed-point values whose scales
 * the compiler tracks; NaN is GX_NUMERIC_NAN (INT64_MAX), above every
 * number.  + - * are exact (numeric_add / numeric_mul: the result scale is
 * the larger scale, or the sum of the scales), comparisons of different
 * scales are exact; where a value does not fit an int64 the row goes to
 * the host (GX_ERR_HOST) instead of raising.
 */
#ifndef GX_EVAL_CUH
#define GX_EVAL_CUH

#include "gx_program.h"
#ifndef __CUDACC_RTC__
#include <math.h>
#endif

#include "gx_bitmap.cuh"

typedef struct gx_reg
{
	union
	{
		int64_t		i;
		double		d;
	}			v;
	int			isnull;
} gx_reg;

/* is row of column col NULL?  (a column without NULLs has no bitmap) */
GX_HD int
gx_col_isnull(const char *base, const gx_column *col, uint32_t row)
{
	if (col->nulls_off == 0)
		return 0;
	return gx_bitmap_get(base + col->nulls_off, row);
}

/*
 * the register value of a stored value s of a column of scale
 * GX_NUMERIC_FREE (gx_numeric_free_encode): the number at scale
 * GX_NUMERIC_FREE_SCALE; NaN and GX_NUMERIC_UNFIT as they are
 */
GX_HD int64_t
gx_numeric_free_value(int64_t s)
{
	if (s == GX_NUMERIC_NAN || s == GX_NUMERIC_UNFIT)
		return s;
	return (s - (s & 7)) / 8;
}

/* load a value of a column of type 'type' (its col->type) into a register */
GX_HD void
gx_load_col_as(const char *chunk_base, const gx_column *col, int type, uint32_t row, gx_reg *r)
{
	const char *base = chunk_base + col->values_off;
	r->isnull = gx_col_isnull(chunk_base, col, row);
	switch (type)
	{
		case GX_BOOL:
			r->v.i = ((const uint8_t *) base)[row] != 0;
			break;
		case GX_INT2:
			r->v.i = ((const int16_t *) base)[row];
			break;
		case GX_INT4:
			r->v.i = ((const int32_t *) base)[row];
			break;
		case GX_NUMERIC:
			r->v.i = ((const int64_t *) base)[row];
			if (col->scale == GX_NUMERIC_FREE)
				r->v.i = gx_numeric_free_value(r->v.i);
			break;
		case GX_INT8:
		case GX_CHAR8:
			r->v.i = ((const int64_t *) base)[row];
			break;
		case GX_FLOAT4:
			r->v.d = ((const float *) base)[row];
			break;
		default:
			r->v.d = ((const double *) base)[row];
			break;
	}
}

/* load a column value into a register */
GX_HD void
gx_load_col(const char *chunk_base, const gx_column *col, uint32_t row, gx_reg *r)
{
	gx_load_col_as(chunk_base, col, (int) col->type, row, r);
}

GX_HD int
gx_isint(int t)
{
	return t == GX_BOOL || t == GX_INT2 || t == GX_INT4 || t == GX_INT8;
}

/* range check of an integer result for a given width */
GX_HD int
gx_int_fits(int t, int64_t v)
{
	if (t == GX_INT2)
		return v >= -32768 && v <= 32767;
	if (t == GX_INT4)
		return v >= (-2147483647 - 1) && v <= 2147483647;
	return 1;
}

GX_HD int
gx_range_err(int t)
{
	return t == GX_INT2 ? GX_ERR_INT2_RANGE :
		t == GX_INT4 ? GX_ERR_INT4_RANGE : GX_ERR_INT8_RANGE;
}

/*
 * 64-bit overflow checks: the GCC builtins are host-only under nvcc, so
 * device code computes the wrapped result and tests it explicitly.
 */
GX_HD int
gx_add64_ovf(int64_t a, int64_t b, int64_t *r)
{
#ifdef __CUDA_ARCH__
	*r = (int64_t) ((uint64_t) a + (uint64_t) b);
	return ((a ^ *r) & (b ^ *r)) < 0;
#else
	return __builtin_add_overflow(a, b, r);
#endif
}

GX_HD int
gx_sub64_ovf(int64_t a, int64_t b, int64_t *r)
{
#ifdef __CUDA_ARCH__
	*r = (int64_t) ((uint64_t) a - (uint64_t) b);
	return ((a ^ b) & (a ^ *r)) < 0;
#else
	return __builtin_sub_overflow(a, b, r);
#endif
}

GX_HD int
gx_mul64_ovf(int64_t a, int64_t b, int64_t *r)
{
#ifdef __CUDA_ARCH__
	*r = (int64_t) ((uint64_t) a * (uint64_t) b);
	return __mul64hi(a, b) != (*r >> 63);
#else
	return __builtin_mul_overflow(a, b, r);
#endif
}

/*
 * is v a number a device numeric holds?  |v| < INT64_MAX: INT64_MAX is
 * NaN, and INT64_MIN is left out so that negation is closed
 */
GX_HD int
gx_num_ok(int64_t v)
{
	return v != GX_NUMERIC_NAN && v != INT64_MIN;
}

/* 10^k for 0 <= k <= GX_NUMERIC_MAX_SCALE */
GX_HD int64_t
gx_pow10(int k)
{
	int64_t		p = 1;

	for (int i = 0; i < k; i++)
		p *= 10;
	return p;
}

/*
 * v * 10^k (0 <= k <= GX_NUMERIC_MAX_SCALE) into *r: a rescale of a
 * numeric number (not NaN); returns 1 when the result is no device
 * numeric (gx_num_ok)
 */
GX_HD int
gx_num_shift(int64_t v, int k, int64_t *r)
{
	if (k == 0)
	{
		*r = v;
		return 0;
	}
	return gx_mul64_ovf(v, gx_pow10(k), r) || !gx_num_ok(*r);
}

/*
 * numeric comparison of a (scale sa) with b (scale sb), shift = sa - sb as
 * in an instruction's arg (> 0: b is scaled up): -1, 0, 1, NaN equal to
 * itself and above every number (cmp_numerics).  Exact where the shifted
 * value overflows: it is then beyond every int64, on its own side of 0.
 */
GX_HD int
gx_num_cmp(int64_t a, int64_t b, int shift)
{
	int64_t		t;

	if (a == GX_NUMERIC_NAN || b == GX_NUMERIC_NAN)
		return a == b ? 0 : (a == GX_NUMERIC_NAN ? 1 : -1);
	if (shift > 0)
	{
		if (gx_mul64_ovf(b, gx_pow10(shift), &t))
			return b > 0 ? -1 : 1;
		b = t;
	}
	else if (shift < 0)
	{
		if (gx_mul64_ovf(a, gx_pow10(-shift), &t))
			return a > 0 ? 1 : -1;
		a = t;
	}
	return a > b ? 1 : (a < b ? -1 : 0);
}

/*
 * numeric a op b (ADD, SUB with shift as gx_num_cmp; MUL) into *res:
 * GX_ERR_NONE, or GX_ERR_HOST when the exact result is not an int64
 * number.  A NaN operand gives NaN.
 */
GX_HD int
gx_num_arith(int op, int64_t a, int64_t b, int shift, int64_t *res)
{
	int64_t		r;

	if (a == GX_NUMERIC_NAN || b == GX_NUMERIC_NAN)
	{
		*res = GX_NUMERIC_NAN;
		return GX_ERR_NONE;
	}
	if (op == GX_OP_MUL)
	{
		if (gx_mul64_ovf(a, b, &r) || !gx_num_ok(r))
			return GX_ERR_HOST;
		*res = r;
		return GX_ERR_NONE;
	}
	if (op != GX_OP_ADD && op != GX_OP_SUB)
		return GX_ERR_BAD_PROGRAM;
	if ((shift > 0 && gx_num_shift(b, shift, &b)) ||
		(shift < 0 && gx_num_shift(a, -shift, &a)))
		return GX_ERR_HOST;
	if ((op == GX_OP_ADD ? gx_add64_ovf(a, b, &r) : gx_sub64_ovf(a, b, &r)) ||
		!gx_num_ok(r))
		return GX_ERR_HOST;
	*res = r;
	return GX_ERR_NONE;
}

/* integer + - * / % with PostgreSQL's overflow rules */
GX_HD int
gx_int_arith(int op, int t, int64_t a, int64_t b, int64_t *res)
{
	int64_t		r;

	switch (op)
	{
		case GX_OP_ADD:
			if (t == GX_INT8)
			{
				if (gx_add64_ovf(a, b, &r))
					return GX_ERR_INT8_RANGE;
			}
			else
				r = a + b;
			break;
		case GX_OP_SUB:
			if (t == GX_INT8)
			{
				if (gx_sub64_ovf(a, b, &r))
					return GX_ERR_INT8_RANGE;
			}
			else
				r = a - b;
			break;
		case GX_OP_MUL:
			if (t == GX_INT8)
			{
				if (gx_mul64_ovf(a, b, &r))
					return GX_ERR_INT8_RANGE;
			}
			else
				r = a * b;
			break;
		case GX_OP_DIV:
			if (b == 0)
				return GX_ERR_DIV_ZERO;
			if (b == -1)
			{
				/* -MIN overflows: int4div/int2div/int8div special case */
				if (t == GX_INT8 && a == INT64_MIN)
					return GX_ERR_INT8_RANGE;
				r = -a;
			}
			else
				r = a / b;
			break;
		case GX_OP_MOD:
			if (b == 0)
				return GX_ERR_DIV_ZERO;
			r = (b == -1) ? 0 : a % b;
			break;
		default:
			return GX_ERR_BAD_PROGRAM;
	}
	if (!gx_int_fits(t, r))
		return gx_range_err(t);
	*res = r;
	return GX_ERR_NONE;
}

/* float arithmetic: float4 ops are done in float precision like float4pl */
GX_HD int
gx_float_arith(int op, int t, double a, double b, double *res)
{
	if (t == GX_FLOAT4)
	{
		float		fa = (float) a, fb = (float) b, r;

		switch (op)
		{
			case GX_OP_ADD:
				r = fa + fb;
				if (isinf(r) && !isinf(fa) && !isinf(fb))
					return GX_ERR_FLOAT_OVERFLOW;
				break;
			case GX_OP_SUB:
				r = fa - fb;
				if (isinf(r) && !isinf(fa) && !isinf(fb))
					return GX_ERR_FLOAT_OVERFLOW;
				break;
			case GX_OP_MUL:
				r = fa * fb;
				if (isinf(r) && !isinf(fa) && !isinf(fb))
					return GX_ERR_FLOAT_OVERFLOW;
				if (r == 0.0f && fa != 0.0f && fb != 0.0f)
					return GX_ERR_FLOAT_UNDERFLOW;
				break;
			case GX_OP_DIV:
				if (fb == 0.0f && !isnan(fa))
					return GX_ERR_DIV_ZERO;
				r = fa / fb;
				if (isinf(r) && !isinf(fa))
					return GX_ERR_FLOAT_OVERFLOW;
				if (r == 0.0f && fa != 0.0f && !isinf(fb))
					return GX_ERR_FLOAT_UNDERFLOW;
				break;
			default:
				return GX_ERR_BAD_PROGRAM;
		}
		*res = r;
		return GX_ERR_NONE;
	}
	else
	{
		double		r;

		switch (op)
		{
			case GX_OP_ADD:
				r = a + b;
				if (isinf(r) && !isinf(a) && !isinf(b))
					return GX_ERR_FLOAT_OVERFLOW;
				break;
			case GX_OP_SUB:
				r = a - b;
				if (isinf(r) && !isinf(a) && !isinf(b))
					return GX_ERR_FLOAT_OVERFLOW;
				break;
			case GX_OP_MUL:
				r = a * b;
				if (isinf(r) && !isinf(a) && !isinf(b))
					return GX_ERR_FLOAT_OVERFLOW;
				if (r == 0.0 && a != 0.0 && b != 0.0)
					return GX_ERR_FLOAT_UNDERFLOW;
				break;
			case GX_OP_DIV:
				if (b == 0.0 && !isnan(a))
					return GX_ERR_DIV_ZERO;
				r = a / b;
				if (isinf(r) && !isinf(a))
					return GX_ERR_FLOAT_OVERFLOW;
				if (r == 0.0 && a != 0.0 && !isinf(b))
					return GX_ERR_FLOAT_UNDERFLOW;
				break;
			default:
				return GX_ERR_BAD_PROGRAM;
		}
		*res = r;
		return GX_ERR_NONE;
	}
}

/* float comparison like float8_cmp_internal: NaN equals NaN, sorts last */
GX_HD int
gx_float_cmp(double a, double b)
{
	if (isnan(a))
		return isnan(b) ? 0 : 1;
	if (isnan(b))
		return -1;
	return a > b ? 1 : (a < b ? -1 : 0);
}

/* cast register value from type 'from' to type 'to' */
GX_HD int
gx_cast(int from, int to, gx_reg *r)
{
	if (gx_isint(from) && gx_isint(to))
	{
		if (!gx_int_fits(to, r->v.i))
			return gx_range_err(to);
		return GX_ERR_NONE;
	}
	if (gx_isint(from))
	{
		/* int -> float: i4tod, i8tof, ...; float4 rounds to float */
		double		d = (double) r->v.i;

		if (to == GX_FLOAT4)
			d = (float) r->v.i;
		r->v.d = d;
		return GX_ERR_NONE;
	}
	if (gx_isint(to))
	{
		/* ftoi4 / dtoi4 etc.: round to nearest even, then range check */
		double		num;

		if (from == GX_FLOAT4)
		{
			float		f = rintf((float) r->v.d);

			if (isnan(f))
				return gx_range_err(to);
			if (to == GX_INT2 && !(f >= -32768.0f && f < 32768.0f))
				return GX_ERR_INT2_RANGE;
			if (to == GX_INT4 && !(f >= -2147483648.0f && f < 2147483648.0f))
				return GX_ERR_INT4_RANGE;
			if (to == GX_INT8 && !(f >= -9223372036854775808.0f && f < 9223372036854775808.0f))
				return GX_ERR_INT8_RANGE;
			num = f;
		}
		else
		{
			num = rint(r->v.d);
			if (isnan(num))
				return gx_range_err(to);
			if (to == GX_INT2 && !(num >= -32768.0 && num < 32768.0))
				return GX_ERR_INT2_RANGE;
			if (to == GX_INT4 && !(num >= -2147483648.0 && num < 2147483648.0))
				return GX_ERR_INT4_RANGE;
			if (to == GX_INT8 && !(num >= -9223372036854775808.0 && num < 9223372036854775808.0))
				return GX_ERR_INT8_RANGE;
		}
		r->v.i = (int64_t) num;
		return GX_ERR_NONE;
	}
	/* float <-> float */
	if (from == GX_FLOAT8 && to == GX_FLOAT4)
	{
		double		num = r->v.d;
		float		f = (float) num;

		if (isinf(f) && !isinf(num))
			return GX_ERR_FLOAT_OVERFLOW;
		if (f == 0.0f && num != 0.0)
			return GX_ERR_FLOAT_UNDERFLOW;
		r->v.d = f;
	}
	return GX_ERR_NONE;
}

/* the result of comparison op (GX_OP_EQ .. GX_OP_GE) given cmp = -1, 0, 1 */
GX_HD int
gx_cmp_result(int op, int cmp)
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

/*
 * date d against timestamp t as PostgreSQL's date_cmp_timestamp_internal:
 * the date's midnight (date2timestamp, infinities to infinities); a date
 * past the last timestamp is above every finite timestamp and below
 * infinity.
 */
GX_HD int
gx_date_cmp_ts(int64_t d, int64_t t)
{
	int64_t		dt;

	if (d == (-2147483647 - 1))
		dt = INT64_MIN;
	else if (d == 2147483647)
		dt = 9223372036854775807LL;
	else if (d >= GX_DATE_TS_END)
		return t == 9223372036854775807LL ? -1 : 1;
	else
		dt = d * GX_USECS_PER_DAY;
	return dt > t ? 1 : (dt < t ? -1 : 0);
}

/* the number of values of the run at const[k] a device may read */
GX_HD int64_t
gx_run_len(const gx_chunk *c, int k)
{
	int64_t		n = c->consts[k].v.i;
	int64_t		room = (int64_t) c->nconsts - k - GX_RUN_HEADER;

	if (n > room)
		n = room;
	return n < 0 ? 0 : n;
}

/*
 * a = ANY (a sorted run of n distinct values, value i at vals + i * stride,
 * an int64 or a double as type says) into d, three-valued: arrnull, a NULL
 * array; has_null, a NULL element (GX_RUN_HAS_NULL).  The one definition
 * of INSET (runs in the constant table): a binary search (INBIGSET's,
 * over big sets in device memory, is gx_sets.cuh's).
 */
GX_HD void
gx_in_sorted(int type, int arrnull, int has_null, const char *vals, uint32_t stride, int64_t n,
			 gx_reg *d, const gx_reg *a)
{
	int64_t		lo = 0,
				hi = n;

	if (arrnull)
	{
		d->isnull = 1;			/* a NULL array */
		return;
	}
	if (n == 0 && !has_null)
	{
		d->v.i = 0;				/* no element: false, even for a NULL a */
		d->isnull = 0;
		return;
	}
	if (a->isnull)
	{
		d->isnull = 1;
		return;
	}
	/* binary search of [lo, hi) */
	while (lo < hi)
	{
		int64_t		mid = lo + (hi - lo) / 2;
		const char *at = vals + (uint64_t) mid * stride;
		int			cmp;

		if (gx_isint(type) || type == GX_NUMERIC || type == GX_CHAR8)
		{
			int64_t		v = *(const int64_t *) at;

			cmp = v < a->v.i ? -1 : (v > a->v.i ? 1 : 0);
		}
		else
			cmp = gx_float_cmp(*(const double *) at, a->v.d);
		if (cmp == 0)
		{
			d->v.i = 1;
			d->isnull = 0;
			return;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	d->v.i = 0;
	d->isnull = has_null;
}

/* GX_OP_INSET: a = ANY (the set run at const[k]) into d (three-valued) */
GX_HD void
gx_in_set(int type, int k, const gx_chunk *c, gx_reg *d, const gx_reg *a)
{
	gx_in_sorted(type, c->consts[k].isnull, (c->consts[k + 1].v.i & GX_RUN_HAS_NULL) != 0,
				 (const char *) &c->consts[k + GX_RUN_HEADER].v, (uint32_t) sizeof(gx_const),
				 gx_run_len(c, k), d, a);
}

/* GX_OP_INBIGSET (gx_in_bigset): the search of a big set */
#include "gx_sets.cuh"

/* GX_OP_INRANGES: does a lie in the ranges run at const[k]? (three-valued) */
GX_HD void
gx_in_ranges(int k, const gx_chunk *c, gx_reg *d, const gx_reg *a)
{
	const gx_const *v = &c->consts[k + GX_RUN_HEADER];
	int64_t		lo = 0,
				hi = gx_run_len(c, k);

	if (c->consts[k].isnull || a->isnull)
	{
		d->isnull = 1;
		return;
	}
	/* lo = the number of bounds <= a */
	while (lo < hi)
	{
		int64_t		mid = lo + (hi - lo) / 2;

		if (v[mid].v.i <= a->v.i)
			lo = mid + 1;
		else
			hi = mid;
	}
	d->v.i = lo & 1;
	d->isnull = 0;
}

/*
 * Julian day jd (>= 0) to a proleptic Gregorian year (astronomical: 0 is
 * 1 BC), month and day: PostgreSQL's j2date, in its unsigned arithmetic
 */
GX_HD void
gx_j2date(int64_t jd, int *year, int *month, int *day)
{
	uint32_t	julian = (uint32_t) jd;
	uint32_t	quad;
	uint32_t	extra;
	int			y;

	julian += 32044;
	quad = julian / 146097;
	extra = (julian - quad * 146097) * 4 + 3;
	julian += 60 + quad * 3 + extra / 146097;
	quad = julian / 1461;
	julian -= quad * 1461;
	y = (int) (julian * 4 / 1461);
	julian = ((y != 0) ? ((julian + 305) % 365) : ((julian + 306) % 366)) + 123;
	y += (int) (quad * 4);
	*year = y - 4800;
	quad = julian * 2141 / 65536;
	*day = (int) (julian - 7834 * quad / 256);
	*month = (int) ((quad + 10) % 12 + 1);
}

/* year (astronomical), month, day to a Julian day: PostgreSQL's date2j */
GX_HD int64_t
gx_date2j(int64_t year, int64_t month, int64_t day)
{
	int64_t		julian;
	int64_t		century;

	if (month > 2)
	{
		month += 1;
		year += 4800;
	}
	else
	{
		month += 13;
		year += 4799;
	}
	century = year / 100;
	julian = year * 365 - 32167;
	julian += year / 4 - century + century / 4;
	julian += 7834 * month / 256 + day;
	return julian;
}

/* is a date (days from 2000-01-01) +-infinity? */
GX_HD int
gx_date_inf(int64_t d)
{
	return d == (-2147483647 - 1) || d == 2147483647;
}

/* is a timestamp +-infinity? */
GX_HD int
gx_ts_inf(int64_t t)
{
	return t == INT64_MIN || t == INT64_MAX;
}

/*
 * A finite timestamp t into its Julian day and time of day (usecs), as
 * timestamp2tm does (floor); returns 0 when the day is no Julian day
 * PostgreSQL converts (the host then raises its error)
 */
GX_HD int
gx_ts_split(int64_t t, int64_t *jd, int64_t *tod)
{
	int64_t		date = t / GX_USECS_PER_DAY;
	int64_t		time = t - date * GX_USECS_PER_DAY;

	if (time < 0)
	{
		time += GX_USECS_PER_DAY;
		date -= 1;
	}
	date += GX_POSTGRES_EPOCH_JDATE;
	if (date < 0 || date > 2147483647)
		return 0;
	*jd = date;
	*tod = time;
	return 1;
}

/*
 * GX_OP_EXTRACT: field f | GX_DT_TS of date / timestamp v, into d as
 * 'type' (GX_NUMERIC at scale 0, or 6 for a timestamp's second and epoch;
 * GX_FLOAT8): extract_date / timestamp_part_common of PostgreSQL 14 and
 * later.  GX_ERR_HOST for infinities and what PostgreSQL raises for.
 */
GX_HD int
gx_extract(int arg, int type, int64_t v, gx_reg *d)
{
	int			f = arg & ~GX_DT_TS;
	int			is_ts = (arg & GX_DT_TS) != 0;
	int64_t		jd,
				tod = 0,
				r;
	int			year,
				mon,
				mday;

	if (is_ts ? gx_ts_inf(v) : gx_date_inf(v))
		return GX_ERR_HOST;
	if (f == GX_DT_EPOCH)
	{
		if (!is_ts)
			r = (v + GX_POSTGRES_EPOCH_JDATE - 2440588) * 86400;	/* UNIX_EPOCH_JDATE */
		else if (v < INT64_MAX + GX_UNIX_EPOCH_USECS)
		{
			if (type == GX_FLOAT8)
			{
				d->v.d = (double) (v - GX_UNIX_EPOCH_USECS) / 1000000.0;
				return GX_ERR_NONE;
			}
			r = v - GX_UNIX_EPOCH_USECS;	/* scale 6 */
		}
		else
			return GX_ERR_HOST;
		if (type == GX_FLOAT8)
			d->v.d = (double) r;
		else
			d->v.i = r;
		return GX_ERR_NONE;
	}
	if (is_ts)
	{
		if (!gx_ts_split(v, &jd, &tod))
			return GX_ERR_HOST;
	}
	else
		jd = v + GX_POSTGRES_EPOCH_JDATE;
	gx_j2date(jd, &year, &mon, &mday);
	switch (f)
	{
		case GX_DT_YEAR:
			r = year > 0 ? year : year - 1;	/* no year 0: 1 BC is -1 */
			break;
		case GX_DT_QUARTER:
			r = (mon - 1) / 3 + 1;
			break;
		case GX_DT_MONTH:
			r = mon;
			break;
		case GX_DT_DAY:
			r = mday;
			break;
		case GX_DT_DOW:
		case GX_DT_ISODOW:
			r = (jd + 1) % 7;	/* j2day */
			if (f == GX_DT_ISODOW && r == 0)
				r = 7;
			break;
		case GX_DT_DOY:
			r = jd - gx_date2j(year, 1, 1) + 1;
			break;
		case GX_DT_HOUR:
			r = tod / 3600000000LL;
			break;
		case GX_DT_MINUTE:
			r = tod / 60000000LL % 60;
			break;
		case GX_DT_SECOND:
			{
				int64_t		us = tod % 60000000LL;	/* tm_sec * 1000000 + fsec */

				if (type == GX_FLOAT8)
					d->v.d = (double) (us / 1000000) + (double) (us % 1000000) / 1000000.0;
				else
					d->v.i = us;	/* scale 6 */
				return GX_ERR_NONE;
			}
		default:
			return GX_ERR_BAD_PROGRAM;
	}
	if (type == GX_FLOAT8)
		d->v.d = (double) r;
	else
		d->v.i = r;
	return GX_ERR_NONE;
}

/*
 * GX_OP_DATETRUNC: date_trunc(field f, timestamp t) into *res, as
 * timestamp_trunc; GX_ERR_HOST for infinities and results below the
 * first timestamp (PostgreSQL raises "timestamp out of range")
 */
GX_HD int
gx_datetrunc(int f, int64_t t, int64_t *res)
{
	int64_t		jd,
				tod,
				r;
	int			year,
				mon,
				mday;

	if (gx_ts_inf(t) || !gx_ts_split(t, &jd, &tod))
		return GX_ERR_HOST;
	gx_j2date(jd, &year, &mon, &mday);
	switch (f)
	{
		case GX_DT_YEAR:
			jd = gx_date2j(year, 1, 1);
			tod = 0;
			break;
		case GX_DT_QUARTER:
			jd = gx_date2j(year, 3 * ((mon - 1) / 3) + 1, 1);
			tod = 0;
			break;
		case GX_DT_MONTH:
			jd = gx_date2j(year, mon, 1);
			tod = 0;
			break;
		case GX_DT_DAY:
			tod = 0;
			break;
		case GX_DT_HOUR:
			tod -= tod % 3600000000LL;
			break;
		case GX_DT_MINUTE:
			tod -= tod % 60000000LL;
			break;
		case GX_DT_SECOND:
			tod -= tod % 1000000LL;
			break;
		default:
			return GX_ERR_BAD_PROGRAM;
	}
	r = (jd - GX_POSTGRES_EPOCH_JDATE) * GX_USECS_PER_DAY + tod;
	if (r < GX_MIN_TIMESTAMP)
		return GX_ERR_HOST;
	*res = r;
	return GX_ERR_NONE;
}

/* what one instruction step tells its caller (gx_step) */
#define GX_STEP_NEXT 0			/* go on with the next instruction */
#define GX_STEP_JUMP 1			/* go on at the instruction's jump target */
#define GX_STEP_REJECT 2		/* the row is rejected (QUAL) */
#define GX_STEP_ERROR 3			/* evaluation raised *err; row rejected */

/*
 * Execute one instruction (op, type, arg) on one row: d is the destination
 * register, a and b the sources (d may alias them: sources are read before
 * d is written).  'c' holds the column directory and the constants, 'base'
 * is where column offsets point.  This is the one definition of what an
 * opcode means: the interpreter (gx_eval_row_at) calls it with the
 * instruction read from the program, the JIT-compiled evaluators
 * (gx_jit.cu) with op, type and arg as constants, so that the compiler
 * folds the switch away.
 */
GX_HD int
gx_step(int op, int type, int arg, const gx_chunk *c, const char *base, uint32_t row,
		gx_reg *d, const gx_reg *a, const gx_reg *b, int *err)
{
	int			e;

	switch (op)
	{
		case GX_OP_LDCOL:
			gx_load_col(base, &c->cols[arg], row, d);
			if (c->cols[arg].type == GX_NUMERIC && !d->isnull && d->v.i == GX_NUMERIC_UNFIT)
			{
				/* an unconstrained numeric the device cannot hold */
				*err = GX_ERR_HOST;
				return GX_STEP_ERROR;
			}
			break;
		case GX_OP_DSCALE:
			{
				/* a column of scale GX_NUMERIC_FREE keeps it in the low bits */
				const gx_column *col = &c->cols[arg];
				int64_t		sv = ((const int64_t *) (base + col->values_off))[row];

				d->isnull = gx_col_isnull(base, col, row);
				if (!d->isnull && sv == GX_NUMERIC_UNFIT && col->scale == GX_NUMERIC_FREE)
				{
					*err = GX_ERR_HOST;
					return GX_STEP_ERROR;
				}
				d->v.i = col->scale != GX_NUMERIC_FREE ? (int64_t) col->scale :
					(d->isnull || sv == GX_NUMERIC_NAN ? 0 : (sv & 7));
			}
			break;
		case GX_OP_LDCONST:
			d->isnull = c->consts[arg].isnull;
			d->v.i = c->consts[arg].v.i;
			break;
		case GX_OP_ADD:
		case GX_OP_SUB:
		case GX_OP_MUL:
		case GX_OP_DIV:
		case GX_OP_MOD:
			if (a->isnull || b->isnull)
			{
				d->isnull = 1;
				break;
			}
			if (type == GX_NUMERIC)
			{
				int64_t		r;

				e = gx_num_arith(op, a->v.i, b->v.i, arg, &r);
				if (e)
				{
					*err = e;
					return GX_STEP_ERROR;
				}
				d->v.i = r;
			}
			else if (gx_isint(type))
			{
				int64_t		r;

				e = gx_int_arith(op, type, a->v.i, b->v.i, &r);
				if (e)
				{
					*err = e;
					return GX_STEP_ERROR;
				}
				d->v.i = r;
			}
			else
			{
				double		r;

				e = gx_float_arith(op, type, a->v.d, b->v.d, &r);
				if (e)
				{
					*err = e;
					return GX_STEP_ERROR;
				}
				d->v.d = r;
			}
			d->isnull = 0;
			break;
		case GX_OP_NEG:
			if (a->isnull)
			{
				d->isnull = 1;
				break;
			}
			if (type == GX_NUMERIC)
			{
				/* -NaN is NaN; -INT64_MIN is no int64 */
				if (a->v.i == INT64_MIN)
				{
					*err = GX_ERR_HOST;
					return GX_STEP_ERROR;
				}
				d->v.i = a->v.i == GX_NUMERIC_NAN ? a->v.i : -a->v.i;
			}
			else if (gx_isint(type))
			{
				if ((type == GX_INT8 && a->v.i == INT64_MIN) ||
					!gx_int_fits(type, -a->v.i))
				{
					*err = gx_range_err(type);
					return GX_STEP_ERROR;
				}
				d->v.i = -a->v.i;
			}
			else
				d->v.d = -a->v.d;
			d->isnull = 0;
			break;
		case GX_OP_CAST:
			if (a->isnull)
			{
				d->isnull = 1;
				break;
			}
			if (type == GX_NUMERIC)
			{
				/* int2/4/8 -> numeric at scale 0: int8's extremes are not device numerics */
				if (!gx_num_ok(a->v.i))
				{
					*err = GX_ERR_HOST;
					return GX_STEP_ERROR;
				}
				d->v.i = a->v.i;
				d->isnull = 0;
			}
			else
			{
				gx_reg		t = *a;

				e = gx_cast(arg, type, &t);
				if (e)
				{
					*err = e;
					return GX_STEP_ERROR;
				}
				*d = t;
				d->isnull = 0;
			}
			break;
		case GX_OP_EQ:
		case GX_OP_NE:
		case GX_OP_LT:
		case GX_OP_LE:
		case GX_OP_GT:
		case GX_OP_GE:
			if (a->isnull || b->isnull)
			{
				d->isnull = 1;
				break;
			}
			{
				int			cmp;
				int			res;

				if (type == GX_NUMERIC)
					cmp = gx_num_cmp(a->v.i, b->v.i, arg);
				else if (gx_isint(type) || type == GX_CHAR8)
					cmp = a->v.i > b->v.i ? 1 : (a->v.i < b->v.i ? -1 : 0);
				else
					cmp = gx_float_cmp(a->v.d, b->v.d);
				res = gx_cmp_result(op, cmp);
				d->v.i = res;
				d->isnull = 0;
			}
			break;
		case GX_OP_CMPDT:
			if (a->isnull || b->isnull)
			{
				d->isnull = 1;
				break;
			}
			{
				int			res = gx_cmp_result(arg, gx_date_cmp_ts(a->v.i, b->v.i));

				d->v.i = res;
				d->isnull = 0;
			}
			break;
		case GX_OP_EXTRACT:
		case GX_OP_DATETRUNC:
		case GX_OP_DATE2TS:
			if (a->isnull)
			{
				d->isnull = 1;
				break;
			}
			{
				int64_t		v = a->v.i;

				if (op == GX_OP_EXTRACT)
					e = gx_extract(arg, type, v, d);
				else if (op == GX_OP_DATETRUNC)
					e = gx_datetrunc(arg, v, &d->v.i);
				else if (gx_date_inf(v))
				{
					/* date2timestamp: infinities to infinities */
					d->v.i = v < 0 ? INT64_MIN : INT64_MAX;
					e = GX_ERR_NONE;
				}
				else if (v >= GX_DATE_TS_END)
					e = GX_ERR_HOST;	/* "date out of range for timestamp" */
				else
				{
					d->v.i = v * GX_USECS_PER_DAY;
					e = GX_ERR_NONE;
				}
				if (e)
				{
					*err = e;
					return GX_STEP_ERROR;
				}
				d->isnull = 0;
			}
			break;
		case GX_OP_INSET:
			gx_in_set(type, arg, c, d, a);
			break;
		case GX_OP_INBIGSET:
			gx_in_bigset(type, arg, c, d, a);
			break;
		case GX_OP_INRANGES:
			gx_in_ranges(arg, c, d, a);
			break;
		case GX_OP_SETBOOL:
			d->v.i = arg;
			d->isnull = 0;
			break;
		case GX_OP_ANDSTEP:
			if (a->isnull)
				d->isnull = 1;
			else if (!a->v.i)
			{
				d->v.i = 0;
				d->isnull = 0;
				return GX_STEP_JUMP;
			}
			break;
		case GX_OP_ORSTEP:
			if (a->isnull)
				d->isnull = 1;
			else if (a->v.i)
			{
				d->v.i = 1;
				d->isnull = 0;
				return GX_STEP_JUMP;
			}
			break;
		case GX_OP_NOT:
			d->isnull = a->isnull;
			d->v.i = !a->v.i;
			break;
		case GX_OP_ISNULL:
			d->v.i = a->isnull;
			d->isnull = 0;
			break;
		case GX_OP_ISNOTNULL:
			d->v.i = !a->isnull;
			d->isnull = 0;
			break;
		case GX_OP_ISTRUE:
			d->v.i = !a->isnull && a->v.i;
			d->isnull = 0;
			break;
		case GX_OP_ISNOTTRUE:
			d->v.i = a->isnull || !a->v.i;
			d->isnull = 0;
			break;
		case GX_OP_ISFALSE:
			d->v.i = !a->isnull && !a->v.i;
			d->isnull = 0;
			break;
		case GX_OP_ISNOTFALSE:
			d->v.i = a->isnull || a->v.i;
			d->isnull = 0;
			break;
		case GX_OP_QUAL:
			if (a->isnull || !a->v.i)
				return GX_STEP_REJECT;
			break;
		default:
			*err = GX_ERR_BAD_PROGRAM;
			return GX_STEP_ERROR;
	}
	return GX_STEP_NEXT;
}

/*
 * Run the program on one row.  'c' holds the program (it may be a copy of
 * the chunk header in GPU shared memory); 'base' is where column offsets
 * point: the chunk itself, or (GPU) the device buffer the columns of a
 * page chunk were deformed into, or the chunk's mapped alias, or a cache
 * entry.  Returns 1 when the row passes, 0 when it is rejected; *err
 * receives a gx_error when evaluation raised one (the row then counts as
 * rejected), or GX_ERR_HOST when the device cannot evaluate the row
 * exactly: the caller then selects it for the host to evaluate.  out
 * (GX_MAX_OUTS registers, or NULL) receives the outputs (GX_OP_OUT) of a
 * passing row.
 */
GX_HD int
gx_eval_row_out(const gx_chunk *c, const char *base, uint32_t row, int *err, gx_reg *out)
{
	gx_reg		regs[GX_MAX_REGS];
	uint32_t	pc = 0;
	uint32_t	n = c->ninstr;

	*err = GX_ERR_NONE;
	while (pc < n)
	{
		const gx_instr *in = &c->code[pc];

		pc++;
		if (in->op == GX_OP_OUT)
		{
			if (out != NULL)
				out[in->arg] = regs[in->a];
			continue;
		}

		int			s = gx_step(in->op, in->type, in->arg, c, base, row,
								&regs[in->dst], &regs[in->a], &regs[in->b], err);

		if (s == GX_STEP_JUMP)
			pc = (uint32_t) in->jump;
		else if (s != GX_STEP_NEXT)
			return 0;
	}
	return 1;
}

/* gx_eval_row_out without outputs */
GX_HD int
gx_eval_row_at(const gx_chunk *c, const char *base, uint32_t row, int *err)
{
	return gx_eval_row_out(c, base, row, err, NULL);
}

/* run the program of chunk c on one of its rows */
GX_HD int
gx_eval_row(const gx_chunk *c, uint32_t row, int *err)
{
	return gx_eval_row_at(c, (const char *) c, row, err);
}

#endif							/* GX_EVAL_CUH */
