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
 */
#include "gpuext.h"
#include "executor.h"

extern "C"
{
#include "fmgr.h"
#include "nodes/execnodes.h"
#include "port/pg_bswap.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"
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

/*
 * The serialised partial state of sum(numeric) / avg(numeric) over n
 * values summing to sum (a numeric, valid when n > 0) and nan NaNs; false
 * (a NULL state) when there was no value at all.
 */
bool
gx_numeric_avg_state(Datum sum, int64 n, int64 nan, Datum *state)
{
	AggState   *agg = makeNode(AggState);
	ExprContext *ecxt = (ExprContext *) palloc0(sizeof(ExprContext));
	Datum		st = (Datum) 0;
	bool		stnull = true;
	bytea	   *b;
	int64		netn;

	if (n == 0 && nan == 0)
		return false;
	ecxt->ecxt_per_tuple_memory = CurrentMemoryContext;
	agg->curaggcontext = ecxt;
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
