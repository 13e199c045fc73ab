/*
 * partial_states.cpp - numeric values and partial aggregate states that
 * GpuPreAgg returns (preagg.cpp), built with PostgreSQL's own functions.
 *
 * Design note
 * -----------
 * The device keeps numeric values as 64-bit fixed point at a scale the
 * compiler knows (the dscale PostgreSQL gives every value of the
 * expression), and sums them exactly in 128 bits.  Turning them back into
 * a numeric goes through numeric_in of the decimal string, so the result
 * has exactly that dscale, as PostgreSQL's own sum would.
 *
 * sum(numeric) and avg(numeric) have an internal transition state
 * (NumericAggState, private to numeric.c) that Finalize Aggregate receives
 * serialised (numeric_avg_serialize) and whose layout changes between
 * PostgreSQL versions.  The node never writes those bytes itself: it runs
 * PostgreSQL's transition function, numeric_avg_accum, over the group's
 * sum (and a NaN when the group had one), serialises the state with
 * numeric_avg_serialize, and then sets the count, the serialised state's
 * first field (an int64 in network order in every version), to the
 * group's count of values.  The other fields are what PostgreSQL's own
 * transitions would reach for the finalisation: the sum with its dscale,
 * the highest dscale, and NaN counted (its number matters only as zero or
 * not).  The transition and serial functions insist on being called by
 * an aggregate: a minimal AggState whose current aggregate context is the
 * caller's memory context stands for one.
 *
 * sum(int8) and avg(int8) (PolyNumAggState, int8_avg_serialize) go the
 * same way: see gx_int8_avg_state.
 *
 * stddev* / var* of int2/int4 (PolyNumAggState, numeric_poly_serialize)
 * and of int8 / numeric (NumericAggState with sumX2, numeric_serialize)
 * keep N, sum x and sum x^2, and no transition over values reaches a
 * given (N, sum x, sum x^2): their serialised states are written here,
 * in the layout the deserial functions read (gx_exact_var_state; every
 * numeric in them made by numeric_in, its digits taken from numeric_send).
 * That layout is checked once per backend against PostgreSQL's own
 * serialisation of states its transitions reached
 * (gx_exact_var_format_ok); where it differs, the planner leaves these
 * aggregates to PostgreSQL.
 */
#include "gpuext.h"
#include "executor.h"

extern "C"
{
#include "fmgr.h"
#include "libpq/pqformat.h"
#include "nodes/execnodes.h"
#include "port/pg_bswap.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/float.h"
#include "access/htup_details.h"
#include "catalog/pg_aggregate.h"
#include "utils/syscache.h"
}

/* the decimal digits of |v| (a 128-bit value), most significant first */
static int
gx_u128_digits(unsigned __int128 v, char *buf)
{
	char		tmp[48];
	int			n = 0;

	do
	{
		tmp[n++] = (char) ('0' + (int) (v % 10));
		v /= 10;
	} while (v != 0);
	for (int i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

/*
 * The numeric hi * 2^64 + lo (two's complement) divided by 10^scale, with
 * dscale = scale
 */
Datum
gx_numeric_from_scaled(int64 hi, uint64 lo, int scale)
{
	__int128	v = (__int128) (((unsigned __int128) (uint64) hi << 64) | lo);
	bool		neg = v < 0;
	unsigned __int128 u = neg ? -(unsigned __int128) v : (unsigned __int128) v;
	char		digits[48];
	char		str[64];
	int			n = gx_u128_digits(u, digits);
	int			p = 0;

	if (neg)
		str[p++] = '-';
	if (n <= scale)
	{
		/* 0.00ddd */
		str[p++] = '0';
		if (scale > 0)
			str[p++] = '.';
		for (int i = 0; i < scale - n; i++)
			str[p++] = '0';
		memcpy(str + p, digits, n);
		p += n;
	}
	else
	{
		memcpy(str + p, digits, n - scale);
		p += n - scale;
		if (scale > 0)
		{
			str[p++] = '.';
			memcpy(str + p, digits + n - scale, scale);
			p += scale;
		}
	}
	str[p] = '\0';
	return DirectFunctionCall3(numeric_in, CStringGetDatum(str),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/*
 * The sum hi * 2^64 + lo of values of an unconstrained numeric column
 * (at GX_NUMERIC_FREE_SCALE) as a numeric of the largest of their
 * dscales, *dmax (a GX_AGG_MAX pair: none counted, 0): numeric_add's
 * result scale.  Every value is a multiple of 10^(6 - its dscale), so
 * the division is exact.
 */
Datum
gx_numeric_free_sum(int64 hi, uint64 lo, const gx_agg_pair *dmax)
{
	__int128	v = (__int128) (((unsigned __int128) (uint64) hi << 64) | lo);
	int			ds = dmax->cnt > 0 ? (int) dmax->val : 0;

	if (ds < 0 || ds > GX_NUMERIC_FREE_SCALE)
		elog(ERROR, "gpuext: unexpected numeric dscale %d", ds);
	for (int k = ds; k < GX_NUMERIC_FREE_SCALE; k++)
		v /= 10;
	return gx_numeric_from_scaled((int64) (v >> 64), (uint64) v, ds);
}

/* a numeric NaN */
Datum
gx_numeric_nan(void)
{
	return DirectFunctionCall3(numeric_in, CStringGetDatum("NaN"),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* call an aggregate support function of two arguments as an aggregate would */
static Datum
gx_call_as_agg(PGFunction fn, AggState *agg, Datum a0, bool a0null, Datum a1, bool a1null,
			   bool *isnull)
{
	LOCAL_FCINFO(fcinfo, 2);
	Datum		r;

	InitFunctionCallInfoData(*fcinfo, NULL, 2, InvalidOid, (Node *) agg, NULL);
	fcinfo->args[0].value = a0;
	fcinfo->args[0].isnull = a0null;
	fcinfo->args[1].value = a1;
	fcinfo->args[1].isnull = a1null;
	r = fn(fcinfo);
	*isnull = fcinfo->isnull;
	return r;
}

/* a minimal AggState whose aggregate context is the current memory context */
static AggState *
gx_fake_agg(void)
{
	AggState   *agg = makeNode(AggState);
	ExprContext *ecxt = (ExprContext *) palloc0(sizeof(ExprContext));

	ecxt->ecxt_per_tuple_memory = CurrentMemoryContext;
	agg->curaggcontext = ecxt;
	return agg;
}

/*
 * The serialised partial state of sum(numeric) / avg(numeric) over n
 * values summing to sum (a numeric, valid when n > 0) and nan NaNs; false
 * (a NULL state) when there was no value at all.
 */
bool
gx_numeric_avg_state(Datum sum, int64 n, int64 nan, Datum *state)
{
	AggState   *agg;
	Datum		st = (Datum) 0;
	bool		stnull = true;
	bytea	   *b;
	int64		netn;

	if (n == 0 && nan == 0)
		return false;
	agg = gx_fake_agg();
	if (n > 0)
		st = gx_call_as_agg(numeric_avg_accum, agg, st, stnull, sum, false, &stnull);
	if (nan > 0)
		st = gx_call_as_agg(numeric_avg_accum, agg, st, stnull, gx_numeric_nan(), false,
							&stnull);
	b = DatumGetByteaPP(gx_call_as_agg(numeric_avg_serialize, agg, st, stnull, (Datum) 0,
									   true, &stnull));
	if (stnull || VARSIZE_ANY_EXHDR(b) < sizeof(int64))
		elog(ERROR, "gpuext: unexpected numeric aggregate state");
	/* the count: the state's first field, in network order */
	b = (bytea *) PG_DETOAST_DATUM_COPY(PointerGetDatum(b));
	netn = (int64) pg_hton64((uint64) n);
	memcpy(VARDATA(b), &netn, sizeof(int64));
	*state = PointerGetDatum(b);
	return true;
}

/* the serialised state st with its count (first field) set to n */
static bytea *
gx_int8_state_bytes(AggState *agg, Datum st, int64 n)
{
	bool		isnull;
	bytea	   *b = DatumGetByteaPP(gx_call_as_agg(int8_avg_serialize, agg, st, false, (Datum) 0,
												   true, &isnull));
	int64		netn;

	if (isnull || VARSIZE_ANY_EXHDR(b) < sizeof(int64))
		elog(ERROR, "gpuext: unexpected int8 aggregate state");
	b = (bytea *) PG_DETOAST_DATUM_COPY(PointerGetDatum(b));
	netn = (int64) pg_hton64((uint64) n);
	memcpy(VARDATA(b), &netn, sizeof(int64));
	return b;
}

/*
 * the state st with the same sum and a count of 1: a state doubled by
 * int8_avg_combine doubles its count too, and the combine ignores a state
 * whose count has overflowed (N > 0 is its test)
 */
static Datum
gx_int8_state_count_one(AggState *agg, Datum st)
{
	bool		isnull;
	Datum		r = gx_call_as_agg(int8_avg_deserialize, agg,
								   PointerGetDatum(gx_int8_state_bytes(agg, st, 1)), false,
								   (Datum) 0, true, &isnull);

	if (isnull)
		elog(ERROR, "gpuext: unexpected int8 aggregate state");
	return r;
}

/*
 * The serialised partial state of sum(int8) / avg(int8) (PolyNumAggState,
 * int8_avg_serialize) over n values summing to sum; false (a NULL state)
 * when there was no value.
 *
 * Built with PostgreSQL's own functions only, whatever the state's layout
 * (its sum is a NumericVar serialised differently across versions): a sum
 * that fits an int64 is int8_avg_accum's state over that one value; a
 * larger one is reached by Horner's rule in base 2^32 over its magnitude,
 * int8_avg_combine of the state with itself doubling it (the state's sum
 * is an int128: sumX += sumX is exact) and int8_avg_accum adding a digit.
 * The count, the serialised state's first field (an int64 in network
 * order in every version) is then set to n, as for numeric; between
 * digits it is set to 1 (serialise, set, int8_avg_deserialize), as 64
 * doublings would overflow it.
 */
bool
gx_int8_avg_state(__int128 sum, int64 n, Datum *state)
{
	AggState   *agg;
	Datum		st = (Datum) 0;
	bool		stnull = true;

	if (n == 0)
		return false;
	agg = gx_fake_agg();
	if (sum >= PG_INT64_MIN && sum <= PG_INT64_MAX)
		st = gx_call_as_agg(int8_avg_accum, agg, st, true, Int64GetDatum((int64) sum), false,
							&stnull);
	else
	{
		bool		neg = sum < 0;
		unsigned __int128 u = neg ? -(unsigned __int128) sum : (unsigned __int128) sum;
		int			top = 3;

		while (top > 0 && (uint32) (u >> (32 * top)) == 0)
			top--;
		for (int d = top; d >= 0; d--)
		{
			int64		digit = (int64) (uint32) (u >> (32 * d));

			if (d < top)
			{
				st = gx_int8_state_count_one(agg, st);
				for (int i = 0; i < 32; i++)
					st = gx_call_as_agg(int8_avg_combine, agg, st, stnull, st, stnull,
										&stnull);
			}
			st = gx_call_as_agg(int8_avg_accum, agg, st, stnull,
								Int64GetDatum(neg ? -digit : digit), false, &stnull);
		}
	}
	if (stnull)
		elog(ERROR, "gpuext: unexpected int8 aggregate state");
	*state = PointerGetDatum(gx_int8_state_bytes(agg, st, n));
	return true;
}

/*
 * The partial state of sum(float4 / float8) over a group whose finite
 * values the device summed in double precision (GX_AGG_FSUM): the sum in
 * the argument's type.  Rows with NaN or infinite values never reach the
 * device sums (gx_group_add_out sends them to the host), so a non-finite
 * sum, or a float4 one past FLT_MAX, is an overflow: PostgreSQL's own
 * error (float4pl / float8pl raise it for finite operands).
 */
Datum
gx_float_sum_state(double sum, Oid argtype)
{
	float4		f;

	if (isinf(sum) || isnan(sum))
		float_overflow_error();
	if (argtype != FLOAT4OID)
		return Float8GetDatum(sum);
	f = (float4) sum;
	if (isinf(f))
		float_overflow_error();
	return Float4GetDatum(f);
}

/* float8_accum's state array float8[3] {N, Sx, Sxx} */
static Datum
gx_float_accum_array(double n, double sx, double sxx)
{
	Datum		d[3];

	d[0] = Float8GetDatum(n);
	d[1] = Float8GetDatum(sx);
	d[2] = Float8GetDatum(sxx);
	return PointerGetDatum(construct_array(d, 3, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL,
										   TYPALIGN_DOUBLE));
}

/*
 * The partial state of avg / stddev* / var* of float4 / float8
 * (float8_accum's and float4_accum's float8[3] {N, Sx, Sxx}, combined by
 * float8_combine) over a group of n finite values (GX_AGG_FVAR): sum sx,
 * and the sums shifted by a value c of the group, s = sum (x - c) and
 * q = sum (x - c)^2.  Sxx, the sum of squared deviations from the mean
 * (what PostgreSQL's Youngs-Cramer transition keeps), is q - s^2 / n:
 * with c a value of the group, s and q stay near the scale of the
 * deviations, so the subtraction does not cancel as sum x^2 - (sum x)^2 / n
 * would.  Rounding can leave it slightly negative: 0 then (a sum of
 * squares).  A non-finite part with finite values only is an overflow, as
 * float8_accum raises it.  n = 0: the initial state {0, 0, 0}.
 */
Datum
gx_float_var_state(int64 n, double sx, double s, double q)
{
	double		sxx;

	if (n == 0)
		return gx_float_accum_array(0.0, 0.0, 0.0);
	sxx = q - s * (s / (double) n);
	if (isinf(sx) || isnan(sx) || isinf(q) || isnan(q) || isinf(sxx) || isnan(sxx))
		float_overflow_error();
	if (sxx < 0.0)
		sxx = 0.0;
	return gx_float_accum_array((double) n, sx, sxx);
}

/*
 * The same state over one row the host aggregates (v, of type argtype,
 * or NULL): PostgreSQL's transition, float8_accum / float4_accum, from
 * the initial state, so NaN and infinities are PostgreSQL's own
 */
Datum
gx_float_var_row_state(Datum v, bool isnull, Oid argtype)
{
	Datum		st = gx_float_accum_array(0.0, 0.0, 0.0);

	if (isnull)
		return st;
	return DirectFunctionCall2(argtype == FLOAT4OID ? float4_accum : float8_accum, st, v);
}

/* a finalizing GpuPreAgg's calls for aggregate aggfnoid (pg_aggregate) */
void
gx_agg_final_init(GxAggFinal *f, Oid aggfnoid)
{
	HeapTuple	tup = SearchSysCache1(AGGFNOID, ObjectIdGetDatum(aggfnoid));
	Form_pg_aggregate agg;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for aggregate %u", aggfnoid);
	agg = (Form_pg_aggregate) GETSTRUCT(tup);
	/* (the planner offers no aggregate whose final function takes more) */
	if (agg->aggfinalextra)
		elog(ERROR, "gpuext: aggregate %u has extra final arguments", aggfnoid);
	f->has_deserial = OidIsValid(agg->aggdeserialfn);
	f->has_final = OidIsValid(agg->aggfinalfn);
	if (f->has_deserial)
		fmgr_info(agg->aggdeserialfn, &f->deserial);
	if (f->has_final)
		fmgr_info(agg->aggfinalfn, &f->final);
	ReleaseSysCache(tup);
}

/*
 * The final value of an aggregate from its partial state (v, isnull) of
 * one group, as Finalize Aggregate computes it from one partial row:
 * deserialize (an internal state's bytes), then the final function, both
 * called in an aggregate context (agg); without a final function the
 * state is the value.  Allocates in CurrentMemoryContext.
 */
Datum
gx_agg_finalize(const GxAggFinal *f, AggState *agg, Datum v, bool isnull, bool *resnull)
{
	if (f->has_deserial && !isnull)
	{
		LOCAL_FCINFO(fcinfo, 2);

		InitFunctionCallInfoData(*fcinfo, (FmgrInfo *) &f->deserial, 2, InvalidOid,
								 (Node *) agg, NULL);
		fcinfo->args[0].value = v;
		fcinfo->args[0].isnull = false;
		fcinfo->args[1].value = (Datum) 0;
		fcinfo->args[1].isnull = false;
		v = FunctionCallInvoke(fcinfo);
		isnull = fcinfo->isnull;
	}
	if (!f->has_final || (isnull && f->final.fn_strict))
	{
		*resnull = isnull;
		return isnull ? (Datum) 0 : v;
	}
	{
		LOCAL_FCINFO(fcinfo, 1);
		Datum		r;

		InitFunctionCallInfoData(*fcinfo, (FmgrInfo *) &f->final, 1, InvalidOid,
								 (Node *) agg, NULL);
		fcinfo->args[0].value = v;
		fcinfo->args[0].isnull = isnull;
		r = FunctionCallInvoke(fcinfo);
		*resnull = fcinfo->isnull;
		return r;
	}
}

/*
 * Append one sum of a numeric aggregate state as numericvar_deserialize
 * reads it (numeric.c, numericvar_serialize: PostgreSQL 15 and 18 alike,
 * read in their sources and checked byte for byte by
 * gx_exact_var_format_ok): int32 ndigits, weight, sign, dscale, then the
 * base-NBASE digits as int16.  numeric_send writes the same fields as
 * int16, so they are read from its bytes: nothing here depends on the
 * numeric's own layout.  (Older releases embedded numeric_send's own
 * bytes, int16 fields: gpuext builds for 15 and 18, and on a server whose
 * layout differs, gx_exact_var_format_ok keeps these aggregates on the
 * host rather than have a second writer that nothing tests.)
 */
static void
gx_send_numeric_var(StringInfo buf, Datum num)
{
	bytea	   *b = DatumGetByteaPP(DirectFunctionCall1(numeric_send, num));
	StringInfoData in;
	int			ndigits;

	initStringInfo(&in);
	appendBinaryStringInfo(&in, VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
	ndigits = (int16) pq_getmsgint(&in, 2);
	pq_sendint32(buf, ndigits);
	pq_sendint32(buf, (int16) pq_getmsgint(&in, 2));	/* weight */
	pq_sendint32(buf, (uint16) pq_getmsgint(&in, 2));	/* sign */
	pq_sendint32(buf, (uint16) pq_getmsgint(&in, 2));	/* dscale */
	for (int i = 0; i < ndigits; i++)
		pq_sendint16(buf, (int16) pq_getmsgint(&in, 2));
	pq_getmsgend(&in);
	pfree(in.data);
}

/* the numeric v / 10^scale of a 128-bit v, with dscale = scale */
static Datum
gx_numeric_from_int128(__int128 v, int scale)
{
	return gx_numeric_from_scaled((int64) (v >> 64), (uint64) v, scale);
}

/*
 * The serialised partial state of stddev* / var* of argtype (int2, int4,
 * int8, numeric at scale) over a group of n numbers (and nan NaNs, numeric
 * only) whose sum is sx and sum of squares sx2 (at scale 2 * scale); false
 * (a NULL state) when the group had no value.
 *
 * int2 / int4: numeric_poly_serialize's PolyNumAggState, int64 N, sumX,
 * sumX2 (numerics of scale 0: the int128 sums as numerics).
 *
 * int8 / numeric: numeric_serialize's NumericAggState, int64 N, sumX,
 * sumX2, int32 maxScale, int64 maxScaleCount, NaNcount, pInfcount,
 * nInfcount, as do_numeric_accum leaves them: N counts the numbers (not
 * NaN), the sums have the values' dscale (int8: 0; a numeric(p,s) value,
 * or an expression the device computes, always has dscale s) and twice it
 * (mul_var(X, X, X2, 2 * dscale)), which numeric_stddev_internal's result
 * scale follows; maxScale is that dscale (0 before any number) and
 * maxScaleCount the numbers; a numeric(p,s) holds no infinity.
 */
bool
gx_exact_var_state(Oid argtype, int64 n, int64 nan, __int128 sx, __int128 sx2, int scale,
				   Datum *state)
{
	StringInfoData buf;
	int			s = n > 0 ? scale : 0;

	if (n == 0 && nan == 0)
		return false;
	pq_begintypsend(&buf);
	pq_sendint64(&buf, n);
	gx_send_numeric_var(&buf, gx_numeric_from_int128(sx, s));
	gx_send_numeric_var(&buf, gx_numeric_from_int128(sx2, 2 * s));
	if (argtype == INT8OID || argtype == NUMERICOID)
	{
		pq_sendint32(&buf, s);	/* maxScale */
		pq_sendint64(&buf, n);	/* maxScaleCount */
		pq_sendint64(&buf, nan);	/* NaNcount */
		pq_sendint64(&buf, 0);	/* pInfcount */
		pq_sendint64(&buf, 0);	/* nInfcount */
	}
	else if (nan != 0)
		elog(ERROR, "gpuext: NaN in an integer variance");
	*state = PointerGetDatum(pq_endtypsend(&buf));
	return true;
}

/*
 * PostgreSQL's transition (int2_accum, int4_accum, int8_accum,
 * numeric_accum) of stddev* / var* of argtype, and its serial function
 */
static void
gx_exact_var_fns(Oid argtype, PGFunction *trans, PGFunction *serial)
{
	*serial = numeric_serialize;
	switch (argtype)
	{
		case INT2OID:
			*trans = int2_accum;
			*serial = numeric_poly_serialize;
			break;
		case INT4OID:
			*trans = int4_accum;
			*serial = numeric_poly_serialize;
			break;
		case INT8OID:
			*trans = int8_accum;
			break;
		case NUMERICOID:
			*trans = numeric_accum;
			break;
		default:
			elog(ERROR, "gpuext: unexpected variance argument type %u", argtype);
	}
}

/*
 * PostgreSQL's serialised state of stddev* / var* of argtype over the
 * values vals[0 .. n-1] (transition and serial functions); false when
 * the state is NULL
 */
static bool
gx_exact_var_pg_state(Oid argtype, const Datum *vals, int n, Datum *state)
{
	AggState   *agg = gx_fake_agg();
	PGFunction	trans,
				serial;
	Datum		st = (Datum) 0;
	bool		stnull = true;

	gx_exact_var_fns(argtype, &trans, &serial);
	for (int i = 0; i < n; i++)
		st = gx_call_as_agg(trans, agg, st, stnull, vals[i], false, &stnull);
	if (stnull)
		return false;
	*state = gx_call_as_agg(serial, agg, st, false, (Datum) 0, true, &stnull);
	return !stnull;
}

/*
 * The partial state of stddev* / var* over one row the host aggregates
 * (v, of type argtype, or NULL: no state): PostgreSQL's own
 */
bool
gx_exact_var_row_state(Datum v, bool isnull, Oid argtype, Datum *state)
{
	if (isnull)
		return false;
	return gx_exact_var_pg_state(argtype, &v, 1, state);
}

/* are the bytea a and b equal? */
static bool
gx_bytea_eq(Datum a, Datum b)
{
	bytea	   *x = DatumGetByteaPP(a);
	bytea	   *y = DatumGetByteaPP(b);

	return VARSIZE_ANY_EXHDR(x) == VARSIZE_ANY_EXHDR(y) &&
		memcmp(VARDATA_ANY(x), VARDATA_ANY(y), VARSIZE_ANY_EXHDR(x)) == 0;
}

/*
 * Does gx_exact_var_state write what PostgreSQL's own transitions and
 * serial functions write?  Compared once per backend over {3, -5} of
 * int2, int4 and int8 and {1.50, NaN} of numeric (sums of a single
 * base-NBASE digit each, so that the digits compare exactly); false
 * (the planner keeps these aggregates on the host) where this
 * PostgreSQL's format differs.
 */
bool
gx_exact_var_format_ok(void)
{
	static int	known = -1;
	bool		ok = true;
	static const Oid types[] = {INT2OID, INT4OID, INT8OID};
	MemoryContext cxt;
	MemoryContext old;

	if (known >= 0)
		return known != 0;
	cxt = AllocSetContextCreate(CurrentMemoryContext, "gpuext variance check",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(cxt);
	for (size_t i = 0; i < lengthof(types) && ok; i++)
	{
		Datum		v[2];
		Datum		pg,
					mine;

		v[0] = types[i] == INT2OID ? Int16GetDatum(3) :
			types[i] == INT4OID ? Int32GetDatum(3) : Int64GetDatum(3);
		v[1] = types[i] == INT2OID ? Int16GetDatum(-5) :
			types[i] == INT4OID ? Int32GetDatum(-5) : Int64GetDatum(-5);
		ok = gx_exact_var_pg_state(types[i], v, 2, &pg) &&
			gx_exact_var_state(types[i], 2, 0, -2, 34, 0, &mine) && gx_bytea_eq(pg, mine);
	}
	if (ok)
	{
		Datum		v[2];
		Datum		pg,
					mine;

		v[0] = gx_numeric_from_int128(150, 2);
		v[1] = gx_numeric_nan();
		ok = gx_exact_var_pg_state(NUMERICOID, v, 2, &pg) &&
			gx_exact_var_state(NUMERICOID, 1, 1, 150, 22500, 2, &mine) && gx_bytea_eq(pg, mine);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	known = ok ? 1 : 0;
	return ok;
}
