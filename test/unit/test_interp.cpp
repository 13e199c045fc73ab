/*
 * test_interp.cpp - unit tests of the opcode interpreter (gx_eval.cuh) and
 * of the CPU device (gx_cpu.cpp: its thread pool, the operator table's
 * validators, aggregates and AGG_READ, cache scans) against hand-computed
 * PostgreSQL results, in a CPU-only build (gx_gpu_none.cpp).
 * Built with g++ only:  make test/unit/test_interp
 *
 * GX_TEST_PARTS (a comma-separated list; default: all, gx_test.h) runs
 * only some of the cases: basic (the interpreter, aggregates, validation,
 * groups and their merges, numeric and char8 programs, cache scans, the
 * pool), join (the hash, merge and range joins, on the caller's thread
 * and on the pool; each probed on a replica of its table, OBJ_COPY, as
 * GpuJoin's devices do),
 * projection (a cached column's sorted projection: gx_projection.h's
 * build and lookup tasks over cache entries, against a reference),
 * search (SEARCH: sorted projections, binary and p-ary lookups, on the
 * caller's thread and on the pool; its validator), jgroup (aggregation
 * over a join: group probes against a nested-loop reference, and the
 * validator's refusals), ptree_lookup (TREE_LOOKUP: prefix-tree images,
 * sequential and speculative lookups against a std::multimap, on the
 * caller's thread and on the pool; malformed images behind a guard page;
 * the validator's refusals).
 */
#include "gx_api.h"
#include "gx_eval.cuh"
#include "gx_deform.cuh"
#include "gx_group.cuh"

#include <dirent.h>
#include <sys/mman.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <limits>
#include <map>
#include <random>
#include <vector>

#include "gx_test.h"
#include "gx_test_ptree.h"
#include "gx_sets_test.h"
#include "gx_sort.h"

/* ---------------------------------------------------------------------- */
/* arithmetic, comparison and cast helpers                                 */
/* ---------------------------------------------------------------------- */

static int
iarith(int op, int t, int64_t a, int64_t b, int64_t *r)
{
	*r = 0x5a5a;
	return gx_int_arith(op, t, a, b, r);
}

static void
test_int_arith(void)
{
	int64_t		r;
	const int64_t I8MAX = std::numeric_limits<int64_t>::max();
	const int64_t I8MIN = std::numeric_limits<int64_t>::min();

	/* int2 */
	CHECK(iarith(GX_OP_ADD, GX_INT2, 32766, 1, &r) == 0 && r == 32767, "int2 32766+1");
	CHECK(iarith(GX_OP_ADD, GX_INT2, 32767, 1, &r) == GX_ERR_INT2_RANGE, "int2 32767+1");
	CHECK(iarith(GX_OP_SUB, GX_INT2, -32768, 1, &r) == GX_ERR_INT2_RANGE, "int2 -32768-1");
	CHECK(iarith(GX_OP_MUL, GX_INT2, 200, 200, &r) == GX_ERR_INT2_RANGE, "int2 200*200");
	CHECK(iarith(GX_OP_MUL, GX_INT2, -128, 256, &r) == 0 && r == -32768, "int2 -128*256");
	CHECK(iarith(GX_OP_DIV, GX_INT2, -32768, -1, &r) == GX_ERR_INT2_RANGE, "int2 min/-1");
	CHECK(iarith(GX_OP_MOD, GX_INT2, -32768, -1, &r) == 0 && r == 0, "int2 min%%-1");
	CHECK(iarith(GX_OP_DIV, GX_INT2, 5, 0, &r) == GX_ERR_DIV_ZERO, "int2 5/0");
	CHECK(iarith(GX_OP_MOD, GX_INT2, 5, 0, &r) == GX_ERR_DIV_ZERO, "int2 5%%0");

	/* int4 */
	CHECK(iarith(GX_OP_ADD, GX_INT4, 2147483647, 1, &r) == GX_ERR_INT4_RANGE, "int4 max+1");
	CHECK(iarith(GX_OP_SUB, GX_INT4, -2147483647 - 1, 1, &r) == GX_ERR_INT4_RANGE, "int4 min-1");
	CHECK(iarith(GX_OP_MUL, GX_INT4, 65536, 32768, &r) == GX_ERR_INT4_RANGE, "int4 2^16*2^15");
	CHECK(iarith(GX_OP_MUL, GX_INT4, -65536, 32768, &r) == 0 && r == -2147483647 - 1, "int4 -2^31");
	CHECK(iarith(GX_OP_DIV, GX_INT4, -2147483647 - 1, -1, &r) == GX_ERR_INT4_RANGE, "int4 min/-1");
	CHECK(iarith(GX_OP_DIV, GX_INT4, 2147483647, -1, &r) == 0 && r == -2147483647, "int4 max/-1");
	CHECK(iarith(GX_OP_MOD, GX_INT4, -2147483647 - 1, -1, &r) == 0 && r == 0, "int4 min%%-1");
	CHECK(iarith(GX_OP_MOD, GX_INT4, 7, -1, &r) == 0 && r == 0, "int4 7%%-1");
	CHECK(iarith(GX_OP_DIV, GX_INT4, -7, 2, &r) == 0 && r == -3, "int4 -7/2 truncates");
	CHECK(iarith(GX_OP_MOD, GX_INT4, -7, 2, &r) == 0 && r == -1, "int4 -7%%2");
	CHECK(iarith(GX_OP_MOD, GX_INT4, 7, -2, &r) == 0 && r == 1, "int4 7%%-2");
	CHECK(iarith(GX_OP_DIV, GX_INT4, 1, 0, &r) == GX_ERR_DIV_ZERO, "int4 1/0");
	CHECK(iarith(GX_OP_DIV, GX_INT4, 0, 0, &r) == GX_ERR_DIV_ZERO, "int4 0/0");
	CHECK(iarith(GX_OP_MOD, GX_INT4, 1, 0, &r) == GX_ERR_DIV_ZERO, "int4 1%%0");

	/* int8 */
	CHECK(iarith(GX_OP_ADD, GX_INT8, I8MAX, 1, &r) == GX_ERR_INT8_RANGE, "int8 max+1");
	CHECK(iarith(GX_OP_ADD, GX_INT8, I8MAX, -1, &r) == 0 && r == I8MAX - 1, "int8 max-1");
	CHECK(iarith(GX_OP_SUB, GX_INT8, I8MIN, 1, &r) == GX_ERR_INT8_RANGE, "int8 min-1");
	CHECK(iarith(GX_OP_SUB, GX_INT8, 0, I8MIN, &r) == GX_ERR_INT8_RANGE, "int8 0-min");
	CHECK(iarith(GX_OP_MUL, GX_INT8, 4294967296LL, 4294967296LL, &r) == GX_ERR_INT8_RANGE, "int8 2^32*2^32");
	CHECK(iarith(GX_OP_MUL, GX_INT8, I8MIN, -1, &r) == GX_ERR_INT8_RANGE, "int8 min*-1");
	CHECK(iarith(GX_OP_MUL, GX_INT8, 3037000499LL, 3037000499LL, &r) == 0 &&
		  r == 9223372030926249001LL, "int8 big square");
	CHECK(iarith(GX_OP_DIV, GX_INT8, I8MIN, -1, &r) == GX_ERR_INT8_RANGE, "int8 min/-1");
	CHECK(iarith(GX_OP_MOD, GX_INT8, I8MIN, -1, &r) == 0 && r == 0, "int8 min%%-1");
	CHECK(iarith(GX_OP_DIV, GX_INT8, I8MIN, 2, &r) == 0 && r == I8MIN / 2, "int8 min/2");
	CHECK(iarith(GX_OP_DIV, GX_INT8, 1, 0, &r) == GX_ERR_DIV_ZERO, "int8 1/0");
	CHECK(iarith(GX_OP_MOD, GX_INT8, 1, 0, &r) == GX_ERR_DIV_ZERO, "int8 1%%0");
}

static int
farith(int op, int t, double a, double b, double *r)
{
	*r = -12345.0;
	return gx_float_arith(op, t, a, b, r);
}

static void
test_float_arith(void)
{
	double		r;
	const double inf = INFINITY;
	const double nan = NAN;

	/* float8 */
	CHECK(farith(GX_OP_ADD, GX_FLOAT8, 1e308, 1e308, &r) == GX_ERR_FLOAT_OVERFLOW, "f8 overflow add");
	CHECK(farith(GX_OP_SUB, GX_FLOAT8, -1e308, 1e308, &r) == GX_ERR_FLOAT_OVERFLOW, "f8 overflow sub");
	CHECK(farith(GX_OP_MUL, GX_FLOAT8, 1e308, 10, &r) == GX_ERR_FLOAT_OVERFLOW, "f8 overflow mul");
	CHECK(farith(GX_OP_MUL, GX_FLOAT8, 1e-308, 1e-308, &r) == GX_ERR_FLOAT_UNDERFLOW, "f8 underflow mul");
	CHECK(farith(GX_OP_MUL, GX_FLOAT8, 0.0, 1e-308, &r) == 0 && r == 0.0, "f8 0*x no underflow");
	CHECK(farith(GX_OP_DIV, GX_FLOAT8, 1e308, 1e-10, &r) == GX_ERR_FLOAT_OVERFLOW, "f8 overflow div");
	CHECK(farith(GX_OP_DIV, GX_FLOAT8, 1e-308, 1e308, &r) == GX_ERR_FLOAT_UNDERFLOW, "f8 underflow div");
	CHECK(farith(GX_OP_DIV, GX_FLOAT8, 1.0, 0.0, &r) == GX_ERR_DIV_ZERO, "f8 1/0");
	CHECK(farith(GX_OP_DIV, GX_FLOAT8, 0.0, 0.0, &r) == GX_ERR_DIV_ZERO, "f8 0/0");
	CHECK(farith(GX_OP_DIV, GX_FLOAT8, nan, 0.0, &r) == 0 && isnan(r), "f8 NaN/0 = NaN");
	CHECK(farith(GX_OP_DIV, GX_FLOAT8, 1.0, inf, &r) == 0 && r == 0.0, "f8 1/inf = 0");
	CHECK(farith(GX_OP_DIV, GX_FLOAT8, inf, 2.0, &r) == 0 && isinf(r), "f8 inf/2");
	CHECK(farith(GX_OP_ADD, GX_FLOAT8, inf, 1.0, &r) == 0 && isinf(r), "f8 inf+1");
	CHECK(farith(GX_OP_SUB, GX_FLOAT8, inf, inf, &r) == 0 && isnan(r), "f8 inf-inf = NaN");
	CHECK(farith(GX_OP_MUL, GX_FLOAT8, inf, 0.0, &r) == 0 && isnan(r), "f8 inf*0 = NaN");
	CHECK(farith(GX_OP_ADD, GX_FLOAT8, 0.1, 0.2, &r) == 0 && r == 0.1 + 0.2, "f8 0.1+0.2");
	CHECK(farith(GX_OP_MOD, GX_FLOAT8, 1.0, 2.0, &r) == GX_ERR_BAD_PROGRAM, "f8 has no %%");

	/* float4: computed in float precision */
	CHECK(farith(GX_OP_MUL, GX_FLOAT4, 3e38, 10, &r) == GX_ERR_FLOAT_OVERFLOW, "f4 overflow mul");
	CHECK(farith(GX_OP_ADD, GX_FLOAT4, 3e38, 3e38, &r) == GX_ERR_FLOAT_OVERFLOW, "f4 overflow add");
	CHECK(farith(GX_OP_MUL, GX_FLOAT4, 1e-30, 1e-30, &r) == GX_ERR_FLOAT_UNDERFLOW, "f4 underflow mul");
	CHECK(farith(GX_OP_DIV, GX_FLOAT4, 1e-30, 1e30, &r) == GX_ERR_FLOAT_UNDERFLOW, "f4 underflow div");
	CHECK(farith(GX_OP_DIV, GX_FLOAT4, 1e30, 1e-30, &r) == GX_ERR_FLOAT_OVERFLOW, "f4 overflow div");
	CHECK(farith(GX_OP_DIV, GX_FLOAT4, 1, 0, &r) == GX_ERR_DIV_ZERO, "f4 1/0");
	CHECK(farith(GX_OP_ADD, GX_FLOAT4, (float) 0.1, (float) 0.2, &r) == 0 &&
		  r == (double) ((float) 0.1f + (float) 0.2f), "f4 0.1+0.2 in float precision");
	CHECK(farith(GX_OP_MUL, GX_FLOAT4, 1e20, 1e20, &r) == GX_ERR_FLOAT_OVERFLOW,
		  "f4 1e20*1e20 overflows float though not double");
}

static void
test_float_cmp(void)
{
	const double nan = NAN;

	CHECK(gx_float_cmp(nan, nan) == 0, "NaN = NaN");
	CHECK(gx_float_cmp(nan, 1e308) > 0, "NaN > 1e308");
	CHECK(gx_float_cmp(nan, INFINITY) > 0, "NaN > inf");
	CHECK(gx_float_cmp(INFINITY, nan) < 0, "inf < NaN");
	CHECK(gx_float_cmp(-0.0, 0.0) == 0, "-0 = 0");
	CHECK(gx_float_cmp(1.0, 2.0) < 0, "1 < 2");
}

static int
cast(int from, int to, gx_reg *r)
{
	return gx_cast(from, to, r);
}

static gx_reg
R(double d)
{
	gx_reg		r;

	r.v.d = d;
	r.isnull = 0;
	return r;
}

static gx_reg
RI(int64_t i)
{
	gx_reg		r;

	r.v.i = i;
	r.isnull = 0;
	return r;
}

static void
test_casts(void)
{
	gx_reg		r;

	/* rint: round half to even */
	r = R(2.5);
	CHECK(cast(GX_FLOAT8, GX_INT4, &r) == 0 && r.v.i == 2, "2.5::int4 = 2");
	r = R(3.5);
	CHECK(cast(GX_FLOAT8, GX_INT4, &r) == 0 && r.v.i == 4, "3.5::int4 = 4");
	r = R(-2.5);
	CHECK(cast(GX_FLOAT8, GX_INT4, &r) == 0 && r.v.i == -2, "-2.5::int4 = -2");
	r = R(-3.7);
	CHECK(cast(GX_FLOAT8, GX_INT8, &r) == 0 && r.v.i == -4, "-3.7::int8 = -4");
	r = R(2.5);
	CHECK(cast(GX_FLOAT4, GX_INT2, &r) == 0 && r.v.i == 2, "2.5::float4::int2 = 2");
	r = R(0.5);
	CHECK(cast(GX_FLOAT4, GX_INT4, &r) == 0 && r.v.i == 0, "0.5::float4::int4 = 0");

	/* ranges */
	r = R(2147483647.4);
	CHECK(cast(GX_FLOAT8, GX_INT4, &r) == 0 && r.v.i == 2147483647, "2147483647.4::int4");
	r = R(2147483647.5);
	CHECK(cast(GX_FLOAT8, GX_INT4, &r) == GX_ERR_INT4_RANGE, "2147483647.5::int4 out of range");
	r = R(-2147483648.5);
	CHECK(cast(GX_FLOAT8, GX_INT4, &r) == 0 && r.v.i == -2147483648LL, "-2147483648.5::int4");
	r = R(-2147483649.0);
	CHECK(cast(GX_FLOAT8, GX_INT4, &r) == GX_ERR_INT4_RANGE, "-2147483649::int4");
	r = R(32767.5);
	CHECK(cast(GX_FLOAT8, GX_INT2, &r) == GX_ERR_INT2_RANGE, "32767.5::int2 (rint 32768)");
	r = R(32766.5);
	CHECK(cast(GX_FLOAT8, GX_INT2, &r) == 0 && r.v.i == 32766, "32766.5::int2 = 32766");
	r = R(9.3e18);
	CHECK(cast(GX_FLOAT8, GX_INT8, &r) == GX_ERR_INT8_RANGE, "9.3e18::int8");
	r = R(-9223372036854775808.0);
	CHECK(cast(GX_FLOAT8, GX_INT8, &r) == 0 && r.v.i == std::numeric_limits<int64_t>::min(),
		  "-2^63::int8");
	r = R(NAN);
	CHECK(cast(GX_FLOAT8, GX_INT4, &r) == GX_ERR_INT4_RANGE, "NaN::int4");
	r = R(NAN);
	CHECK(cast(GX_FLOAT4, GX_INT8, &r) == GX_ERR_INT8_RANGE, "NaN::float4::int8");
	r = R(INFINITY);
	CHECK(cast(GX_FLOAT8, GX_INT2, &r) == GX_ERR_INT2_RANGE, "inf::int2");
	r = R(3e9);
	CHECK(cast(GX_FLOAT4, GX_INT4, &r) == GX_ERR_INT4_RANGE, "3e9::float4::int4");
	r = R(2147483648.0);		/* exactly 2^31 as float4 */
	CHECK(cast(GX_FLOAT4, GX_INT4, &r) == GX_ERR_INT4_RANGE, "2^31::float4::int4");

	/* int -> int */
	r = RI(40000);
	CHECK(cast(GX_INT4, GX_INT2, &r) == GX_ERR_INT2_RANGE, "40000::int2");
	r = RI(-32768);
	CHECK(cast(GX_INT4, GX_INT2, &r) == 0 && r.v.i == -32768, "-32768::int2");
	r = RI(2147483648LL);
	CHECK(cast(GX_INT8, GX_INT4, &r) == GX_ERR_INT4_RANGE, "2^31::int4");
	r = RI(-5);
	CHECK(cast(GX_INT2, GX_INT8, &r) == 0 && r.v.i == -5, "int2 -> int8");

	/* int -> float */
	r = RI(16777217);
	CHECK(cast(GX_INT4, GX_FLOAT4, &r) == 0 && r.v.d == 16777216.0, "16777217::float4 rounds");
	r = RI(16777217);
	CHECK(cast(GX_INT4, GX_FLOAT8, &r) == 0 && r.v.d == 16777217.0, "16777217::float8 exact");
	r = RI(9007199254740993LL);
	CHECK(cast(GX_INT8, GX_FLOAT8, &r) == 0 && r.v.d == 9007199254740992.0, "2^53+1::float8");

	/* float8 -> float4 */
	r = R(1e300);
	CHECK(cast(GX_FLOAT8, GX_FLOAT4, &r) == GX_ERR_FLOAT_OVERFLOW, "1e300::float4");
	r = R(1e-300);
	CHECK(cast(GX_FLOAT8, GX_FLOAT4, &r) == GX_ERR_FLOAT_UNDERFLOW, "1e-300::float4");
	r = R(INFINITY);
	CHECK(cast(GX_FLOAT8, GX_FLOAT4, &r) == 0 && isinf(r.v.d), "inf::float4");
	r = R(NAN);
	CHECK(cast(GX_FLOAT8, GX_FLOAT4, &r) == 0 && isnan(r.v.d), "NaN::float4");
	r = R(0.1);
	CHECK(cast(GX_FLOAT8, GX_FLOAT4, &r) == 0 && r.v.d == (double) 0.1f, "0.1::float4");
	r = R(0.1f);
	CHECK(cast(GX_FLOAT4, GX_FLOAT8, &r) == 0 && r.v.d == (double) 0.1f, "float4 -> float8 exact");
}

/* ---------------------------------------------------------------------- */
/* whole programs on one row                                              */
/* ---------------------------------------------------------------------- */

/* run program on row; returns pass, *err gets the error */
static int
eval(gx_chunk *c, uint32_t row, int *err)
{
	return gx_eval_row(c, row, err);
}

static void
test_programs(void)
{
	int			err;

	/* NEG */
	{
		ChunkBuilder b;
		int			ci = b.add_int_col(GX_INT4, {-2147483647 - 1, 5});
		int			cs = b.add_int_col(GX_INT2, {-32768, 5});
		int			cl = b.add_int_col(GX_INT8, {std::numeric_limits<int64_t>::min(), 5});

		b.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, ci);
		b.emit(GX_OP_NEG, GX_INT4, 1, 0);
		gx_chunk   *c = b.build();

		CHECK(!eval(c, 0, &err) && err == GX_ERR_INT4_RANGE, "-(int4 min)");
		CHECK(eval(c, 1, &err) && err == 0, "-(5)");
		c->code[0].arg = cs;
		c->code[1].type = GX_INT2;
		CHECK(!eval(c, 0, &err) && err == GX_ERR_INT2_RANGE, "-(int2 min)");
		c->code[0].arg = cl;
		c->code[1].type = GX_INT8;
		CHECK(!eval(c, 0, &err) && err == GX_ERR_INT8_RANGE, "-(int8 min)");
	}

	/* NaN comparisons through the program, float8 column vs constants */
	{
		ChunkBuilder b;
		int			cf = b.add_float_col(GX_FLOAT8, {NAN, 1.0, INFINITY});
		int			k = b.kfloat(GX_FLOAT8, 1e308);
		int			kn = b.kfloat(GX_FLOAT8, NAN);

		b.emit(GX_OP_LDCOL, GX_FLOAT8, 0, 0, 0, cf);
		b.emit(GX_OP_LDCONST, GX_FLOAT8, 1, 0, 0, k);
		b.emit(GX_OP_GT, GX_FLOAT8, 2, 0, 1);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 2);
		gx_chunk   *c = b.build();

		CHECK(eval(c, 0, &err) && err == 0, "NaN > 1e308");
		CHECK(!eval(c, 1, &err) && err == 0, "1 > 1e308 false");
		CHECK(eval(c, 2, &err), "inf > 1e308");
		c->code[1].arg = kn;
		c->code[2].op = GX_OP_EQ;
		CHECK(eval(c, 0, &err), "NaN = NaN");
		CHECK(!eval(c, 1, &err), "1 = NaN false");
		c->code[2].op = GX_OP_LT;
		CHECK(eval(c, 2, &err), "inf < NaN");
		CHECK(!eval(c, 0, &err), "NaN < NaN false");
		c->code[2].op = GX_OP_NE;
		CHECK(!eval(c, 0, &err), "NaN <> NaN false");
		c->code[2].op = GX_OP_GE;
		CHECK(eval(c, 0, &err), "NaN >= NaN");
	}

	/* float4 column compared to a float8 constant, arithmetic errors abort */
	{
		ChunkBuilder b;
		int			cf = b.add_float_col(GX_FLOAT4, {1.5, 3e38, 0.0});
		int			k10 = b.kfloat(GX_FLOAT4, 10.0);
		int			k0 = b.kfloat(GX_FLOAT4, 0.0);

		b.emit(GX_OP_LDCOL, GX_FLOAT4, 0, 0, 0, cf);
		b.emit(GX_OP_LDCONST, GX_FLOAT4, 1, 0, 0, k10);
		b.emit(GX_OP_MUL, GX_FLOAT4, 2, 0, 1);
		b.emit(GX_OP_LDCONST, GX_FLOAT4, 3, 0, 0, k0);
		b.emit(GX_OP_GT, GX_FLOAT4, 4, 2, 3);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 4);
		gx_chunk   *c = b.build();

		CHECK(eval(c, 0, &err) && err == 0, "1.5*10 > 0");
		CHECK(!eval(c, 1, &err) && err == GX_ERR_FLOAT_OVERFLOW, "3e38*10 overflows float4");
		CHECK(!eval(c, 2, &err) && err == 0, "0*10 > 0 false");
	}

	/* strict operators with NULL, QUAL rejects NULL */
	{
		ChunkBuilder b;
		int			ci = b.add_int_col(GX_INT4, {1, 0}, {0, 1});
		int			k0 = b.kint(GX_INT4, 0);

		b.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, ci);
		b.emit(GX_OP_LDCONST, GX_INT4, 1, 0, 0, k0);
		b.emit(GX_OP_DIV, GX_INT4, 2, 1, 0);	/* 0 / col: col NULL -> NULL */
		b.emit(GX_OP_EQ, GX_INT4, 3, 2, 1);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 3);
		gx_chunk   *c = b.build();

		CHECK(eval(c, 0, &err) && err == 0, "0/1 = 0");
		CHECK(!eval(c, 1, &err) && err == 0, "0/NULL = 0 is NULL: rejected, no error");
		c->code[2].a = 0;
		c->code[2].b = 1;		/* col / 0 */
		CHECK(!eval(c, 0, &err) && err == GX_ERR_DIV_ZERO, "1/0 raises");
		CHECK(!eval(c, 1, &err) && err == 0, "NULL/0 is NULL, no error");

		/* NULL constant */
		ChunkBuilder b2;
		int			c2 = b2.add_int_col(GX_INT4, {1});
		int			kn = b2.kint(GX_INT4, 0, 1);

		b2.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, c2);
		b2.emit(GX_OP_LDCONST, GX_INT4, 1, 0, 0, kn);
		b2.emit(GX_OP_LT, GX_INT4, 2, 1, 0);
		b2.emit(GX_OP_QUAL, GX_BOOL, 0, 2);
		gx_chunk   *cc = b2.build();

		CHECK(!eval(cc, 0, &err) && err == 0, "NULL < 1 rejected");
		cc->code[2].op = GX_OP_ISNULL;
		CHECK(eval(cc, 0, &err), "NULL IS NULL");
	}

	/* casts in a program */
	{
		ChunkBuilder b;
		int			cf = b.add_float_col(GX_FLOAT8, {2.5, 3.5, 3e9});
		int			k2 = b.kint(GX_INT4, 2);

		b.emit(GX_OP_LDCOL, GX_FLOAT8, 0, 0, 0, cf);
		b.emit(GX_OP_CAST, GX_INT4, 1, 0, 0, GX_FLOAT8);
		b.emit(GX_OP_LDCONST, GX_INT4, 2, 0, 0, k2);
		b.emit(GX_OP_EQ, GX_INT4, 3, 1, 2);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 3);
		gx_chunk   *c = b.build();

		CHECK(eval(c, 0, &err), "2.5::int4 = 2");
		CHECK(!eval(c, 1, &err) && err == 0, "3.5::int4 <> 2");
		CHECK(!eval(c, 2, &err) && err == GX_ERR_INT4_RANGE, "3e9::int4 raises");
	}
}

/* ---------------------------------------------------------------------- */
/* cross-type date/timestamp comparison and constant runs                  */
/* ---------------------------------------------------------------------- */

static const int64_t I4MIN = -2147483647LL - 1, I4MAX = 2147483647LL;
static const int64_t I8MIN = std::numeric_limits<int64_t>::min();
static const int64_t I8MAX = std::numeric_limits<int64_t>::max();

/* reserve a run of values in b: the header, then the values */
static int
add_run(ChunkBuilder &b, int type, const std::vector<int64_t> &iv, const std::vector<double> &dv,
		int isnull = 0, int64_t flags = 0)
{
	int			k = b.kint(GX_INT8, (int64_t) (iv.size() + dv.size()), isnull);

	b.kint(GX_INT8, flags);
	for (int64_t v : iv)
		b.kint(type, v);
	for (double v : dv)
		b.kfloat(type, v);
	return k;
}

/* ---------------------------------------------------------------------- */
/* extract / date_part / date_trunc (GX_OP_EXTRACT, DATETRUNC, DATE2TS)    */
/* ---------------------------------------------------------------------- */

/* reference: proleptic Gregorian civil date of a day from 1970-01-01 (H. Hinnant) */
static void
ref_civil(int64_t z, int64_t *y, int64_t *m, int64_t *d)
{
	z += 719468;
	int64_t		era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t		doe = z - era * 146097;
	int64_t		yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t		doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t		mp = (5 * doy + 2) / 153;

	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = yoe + era * 400 + (*m <= 2);
}

/* reference: days from 1970-01-01 of a proleptic Gregorian date */
static int64_t
ref_days(int64_t y, int64_t m, int64_t d)
{
	y -= m <= 2;
	int64_t		era = (y >= 0 ? y : y - 399) / 400;
	int64_t		yoe = y - era * 400;
	int64_t		doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;

	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

static int64_t
floordiv(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/* check every field of date d (days from 2000-01-01) against the reference */
static bool
check_date_fields(int64_t d)
{
	int64_t		ud = d + 10957,
				y,
				m,
				dd;
	gx_reg		r;

	ref_civil(ud, &y, &m, &dd);
	int64_t		want[GX_DT_HOUR] = {
		y > 0 ? y : y - 1, (m - 1) / 3 + 1, m, dd, ((ud + 4) % 7 + 7) % 7, 0,
		ud - ref_days(y, 1, 1) + 1, ud * 86400
	};

	want[GX_DT_ISODOW] = want[GX_DT_DOW] == 0 ? 7 : want[GX_DT_DOW];
	for (int f = 0; f < GX_DT_HOUR; f++)
	{
		if (gx_extract(f, GX_NUMERIC, d, &r) != GX_ERR_NONE || r.v.i != want[f])
		{
			CHECK(false, "date %lld field %d: got %lld, want %lld", (long long) d, f,
				  (long long) r.v.i, (long long) want[f]);
			return false;
		}
	}
	return true;
}

/* check the fields and truncations of timestamp t against the reference */
static bool
check_ts_fields(int64_t t)
{
	const int64_t D = GX_USECS_PER_DAY;
	int64_t		day = floordiv(t, D),
				tod = t - day * D,
				ud = day + 10957,
				y,
				m,
				dd;
	gx_reg		r;
	int64_t		tr;

	ref_civil(ud, &y, &m, &dd);
	int64_t		want[GX_DT_NFIELDS] = {
		y > 0 ? y : y - 1, (m - 1) / 3 + 1, m, dd, ((ud + 4) % 7 + 7) % 7, 0,
		ud - ref_days(y, 1, 1) + 1, (int64_t) ((uint64_t) t + 946684800000000ULL), tod / 3600000000LL,
		tod / 60000000LL % 60, tod % 60000000LL
	};
	int64_t		trunc[GX_DT_NFIELDS] = {
		(ref_days(y, 1, 1) - 10957) * D, (ref_days(y, (m - 1) / 3 * 3 + 1, 1) - 10957) * D,
		(ref_days(y, m, 1) - 10957) * D, day * D, 0, 0, 0, 0,
		day * D + tod / 3600000000LL * 3600000000LL, day * D + tod / 60000000LL * 60000000LL,
		day * D + tod / 1000000 * 1000000
	};

	want[GX_DT_ISODOW] = want[GX_DT_DOW] == 0 ? 7 : want[GX_DT_DOW];
	for (int f = 0; f < GX_DT_NFIELDS; f++)
	{
		if (f == GX_DT_EPOCH && t >= INT64_MAX - 946684800000000LL)
		{
			/* beyond an int64 at scale 6: the host */
			if (gx_extract(f | GX_DT_TS, GX_NUMERIC, t, &r) != GX_ERR_HOST)
			{
				CHECK(false, "timestamp %lld epoch beyond int64 is no GX_ERR_HOST", (long long) t);
				return false;
			}
		}
		else if (gx_extract(f | GX_DT_TS, GX_NUMERIC, t, &r) != GX_ERR_NONE || r.v.i != want[f])
		{
			CHECK(false, "timestamp %lld field %d: got %lld, want %lld", (long long) t, f,
				  (long long) r.v.i, (long long) want[f]);
			return false;
		}
		if (f == GX_DT_DOW || f == GX_DT_ISODOW || f == GX_DT_DOY || f == GX_DT_EPOCH)
			continue;
		if (trunc[f] < GX_MIN_TIMESTAMP)
		{
			if (gx_datetrunc(f, t, &tr) != GX_ERR_HOST)
			{
				CHECK(false, "timestamp %lld trunc %d below the range is no GX_ERR_HOST",
					  (long long) t, f);
				return false;
			}
			continue;
		}
		if (gx_datetrunc(f, t, &tr) != GX_ERR_NONE || tr != trunc[f])
		{
			CHECK(false, "timestamp %lld trunc %d: got %lld, want %lld", (long long) t, f,
				  (long long) tr, (long long) trunc[f]);
			return false;
		}
	}
	return true;
}

static void
test_datetime(void)
{
	const int64_t first = -GX_POSTGRES_EPOCH_JDATE;	/* 4714-11-24 BC */
	const int64_t last_date = 2147483493LL - GX_POSTGRES_EPOCH_JDATE;	/* 5874897-12-31 */
	const int64_t D = GX_USECS_PER_DAY;
	bool		ok = true;
	std::mt19937_64 rng(20261124);
	gx_reg		r;
	int64_t		tr;
	int			y,
				m,
				d;

	/* the reference against known dates, and j2date / date2j */
	gx_j2date(GX_POSTGRES_EPOCH_JDATE, &y, &m, &d);
	CHECK(y == 2000 && m == 1 && d == 1, "j2date(2000-01-01)");
	gx_j2date(0, &y, &m, &d);
	CHECK(y == -4713 && m == 11 && d == 24, "j2date(0) is 4714-11-24 BC");
	gx_j2date(2147483493LL, &y, &m, &d);
	CHECK(y == 5874897 && m == 12 && d == 31, "j2date of the last date");
	CHECK(gx_date2j(2000, 2, 29) == GX_POSTGRES_EPOCH_JDATE + 59, "date2j(2000-02-29)");
	CHECK(ref_days(2000, 1, 1) == 10957 && ref_days(-4713, 11, 24) == first + 10957,
		  "reference days of 2000-01-01 and 4714-11-24 BC");

	/* every day of the first 800000, of 1 BC +- 2000 years, and around 2000 */
	for (int64_t x = first; ok && x < first + 800000; x++)
		ok = check_date_fields(x);
	for (int64_t x = -800000; ok && x < 800000; x++)
		ok = check_date_fields(x);
	for (int64_t x = last_date - 100000; ok && x <= last_date; x++)
		ok = check_date_fields(x);
	for (int i = 0; ok && i < 200000; i++)
		ok = check_date_fields(first + (int64_t) (rng() % (uint64_t) (last_date - first + 1)));
	CHECK(ok, "date fields over the range");

	/* timestamps: random over the range, and near midnights and year ends */
	ok = true;
	const int64_t tmax = GX_DATE_TS_END * D - 1;

	for (int i = 0; ok && i < 300000; i++)
		ok = check_ts_fields((int64_t) ((uint64_t) GX_MIN_TIMESTAMP +
										rng() % ((uint64_t) tmax - (uint64_t) GX_MIN_TIMESTAMP + 1)));
	for (int64_t x = -800000; ok && x < 800000; x += 7)
		for (int64_t o : {(int64_t) 0, (int64_t) 1, D - 1, D / 2 + 1234567})
			ok = check_ts_fields(x * D + o);
	for (int64_t o = 0; ok && o < 400 * D; o += D / 3 + 1)
		ok = check_ts_fields(GX_MIN_TIMESTAMP + o);
	ok = ok && check_ts_fields(tmax);
	CHECK(ok, "timestamp fields and truncations over the range");

	/* float8 (date_part) and numeric second / epoch */
	CHECK(gx_extract(GX_DT_SECOND | GX_DT_TS, GX_FLOAT8, 59500001, &r) == 0 &&
		  r.v.d == 59 + 500001 / 1000000.0, "date_part second");
	CHECK(gx_extract(GX_DT_EPOCH | GX_DT_TS, GX_FLOAT8, -946684800500000LL, &r) == 0 &&
		  r.v.d == -0.5, "date_part epoch -0.5");
	CHECK(gx_extract(GX_DT_EPOCH | GX_DT_TS, GX_NUMERIC, -946684800500000LL, &r) == 0 &&
		  r.v.i == -500000, "extract epoch at scale 6");
	CHECK(gx_extract(GX_DT_YEAR | GX_DT_TS, GX_FLOAT8, 0, &r) == 0 && r.v.d == 2000.0,
		  "date_part year");
	CHECK(gx_extract(GX_DT_YEAR, GX_NUMERIC, -730120, &r) == 0 && r.v.i == -1,
		  "1 BC is year -1");
	/* infinities and errors: the host */
	CHECK(gx_extract(GX_DT_YEAR, GX_NUMERIC, I4MAX, &r) == GX_ERR_HOST, "year of date infinity");
	CHECK(gx_extract(GX_DT_MONTH, GX_NUMERIC, I4MIN, &r) == GX_ERR_HOST, "month of -infinity");
	CHECK(gx_extract(GX_DT_HOUR | GX_DT_TS, GX_FLOAT8, I8MAX, &r) == GX_ERR_HOST,
		  "hour of timestamp infinity");
	CHECK(gx_datetrunc(GX_DT_DAY, I8MIN, &tr) == GX_ERR_HOST, "date_trunc of -infinity");
	CHECK(gx_datetrunc(GX_DT_MONTH, GX_MIN_TIMESTAMP + D, &tr) == GX_ERR_HOST,
		  "date_trunc below the first timestamp");
	CHECK(gx_datetrunc(GX_DT_DAY, GX_MIN_TIMESTAMP + D + 5, &tr) == 0 &&
		  tr == GX_MIN_TIMESTAMP + D, "date_trunc day at the range's start");

	/* a program: date -> timestamp -> date_part, NULLs, infinities, dates past the range */
	{
		ChunkBuilder b;
		int			cd = b.add_int_col(GX_INT4, {59, 0, I4MAX, GX_DATE_TS_END, I4MIN, -730120},
									   {0, 1, 0, 0, 0, 0});
		int			err;

		b.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, cd);
		b.emit(GX_OP_DATE2TS, GX_INT8, 0, 0, 0, 0);
		b.emit(GX_OP_EXTRACT, GX_FLOAT8, 0, 0, 0, GX_DT_DAY | GX_DT_TS);
		b.emit(GX_OP_ISNULL, GX_BOOL, 1, 0, 0, 0);
		b.emit(GX_OP_NOT, GX_BOOL, 1, 1, 0, 0);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 1);
		gx_chunk   *c = b.build();

		CHECK(eval(c, 0, &err) && err == 0, "date_part(day, 2000-02-29) row passes");
		CHECK(!eval(c, 1, &err) && err == 0, "a NULL date gives NULL");
		CHECK(!eval(c, 2, &err) && err == GX_ERR_HOST, "infinity: the host");
		CHECK(!eval(c, 3, &err) && err == GX_ERR_HOST, "a date past the timestamps: the host");
		CHECK(!eval(c, 4, &err) && err == GX_ERR_HOST, "-infinity: the host");
		CHECK(eval(c, 5, &err) && err == 0, "1 BC");
	}
	/* the validator's operand checks */
	{
		gx_instr	in;

		memset(&in, 0, sizeof(in));
		in.op = GX_OP_EXTRACT;
		in.type = GX_NUMERIC;
		in.arg = GX_DT_HOUR;
		CHECK(!gx_instr_args_ok(&in, 0), "extract hour from a date is no program");
		in.arg = GX_DT_HOUR | GX_DT_TS;
		CHECK(gx_instr_args_ok(&in, 0), "extract hour from a timestamp");
		in.arg = GX_DT_NFIELDS | GX_DT_TS;
		CHECK(!gx_instr_args_ok(&in, 0), "an unknown field");
		in.arg = GX_DT_YEAR;
		in.type = GX_INT4;
		CHECK(!gx_instr_args_ok(&in, 0), "extract into int4");
		in.op = GX_OP_DATETRUNC;
		in.type = GX_INT8;
		in.arg = GX_DT_DOW;
		CHECK(!gx_instr_args_ok(&in, 0), "date_trunc dow");
		in.arg = GX_DT_SECOND;
		CHECK(gx_instr_args_ok(&in, 0), "date_trunc second");
	}
}

/* three-valued result of a program whose last register is QUALed: 1, 0 */
static void
test_crosstype(void)
{
	int			err;

	/* GX_OP_CMPDT: date_cmp_timestamp_internal, by hand */
	CHECK(gx_date_cmp_ts(0, 0) == 0, "2000-01-01 = its midnight");
	CHECK(gx_date_cmp_ts(0, 1) < 0, "a date < a microsecond past its midnight");
	CHECK(gx_date_cmp_ts(1, GX_USECS_PER_DAY - 1) > 0, "a date > the day before's last microsecond");
	CHECK(gx_date_cmp_ts(I4MIN, I8MIN) == 0, "-infinity = -infinity");
	CHECK(gx_date_cmp_ts(I4MAX, I8MAX) == 0, "infinity = infinity");
	CHECK(gx_date_cmp_ts(I4MIN, -GX_USECS_PER_DAY * 1000) < 0, "-infinity < a timestamp");
	CHECK(gx_date_cmp_ts(I4MAX, I8MAX - 1) > 0, "infinity > any finite value");
	CHECK(gx_date_cmp_ts(GX_DATE_TS_END, I8MAX) < 0, "294277-01-01 < timestamp infinity");
	CHECK(gx_date_cmp_ts(GX_DATE_TS_END, I8MAX - 1) > 0, "294277-01-01 > any finite timestamp");
	CHECK(gx_date_cmp_ts(GX_DATE_TS_END + 1000, I8MIN) > 0, "a far date > -infinity");
	CHECK(gx_date_cmp_ts(GX_DATE_TS_END - 1, (GX_DATE_TS_END - 1) * GX_USECS_PER_DAY) == 0,
		  "294276-12-31 = its midnight");

	{
		ChunkBuilder b;
		/* 2000-01-02, NULL, infinity, 294277-01-01, -infinity */
		int			cd = b.add_int_col(GX_INT4, {1, 0, I4MAX, GX_DATE_TS_END, I4MIN}, {0, 1, 0, 0, 0});
		int			ct = b.add_int_col(GX_INT8, {GX_USECS_PER_DAY, 5, I8MAX, I8MAX, I8MIN});

		b.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, cd);
		b.emit(GX_OP_LDCOL, GX_INT8, 1, 0, 0, ct);
		b.emit(GX_OP_CMPDT, GX_INT8, 0, 0, 1, GX_OP_EQ);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
		gx_chunk   *c = b.build();
		const int	want_eq[5] = {1, 0, 1, 0, 1};
		const int	want_lt[5] = {0, 0, 0, 1, 0};

		for (uint32_t r = 0; r < 5; r++)
			CHECK(eval(c, r, &err) == want_eq[r] && err == 0, "CMPDT = row %u", r);
		c->code[2].arg = GX_OP_LT;
		for (uint32_t r = 0; r < 5; r++)
			CHECK(eval(c, r, &err) == want_lt[r] && err == 0, "CMPDT < row %u", r);
		c->code[2].arg = GX_OP_NE;
		CHECK(!eval(c, 1, &err), "CMPDT <> with a NULL date is NULL");
		CHECK(eval(c, 3, &err), "294277-01-01 <> infinity");
	}

	/* GX_OP_INSET over integers: = ANY with NULL rules, NOT for <> ALL */
	{
		ChunkBuilder b;
		int			ci = b.add_int_col(GX_INT4, {5, 7, 0, -3, 100, 42}, {0, 0, 1, 0, 0, 0});
		int			k = add_run(b, GX_INT4, {-3, 5, 42, 100}, {});

		b.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, ci);
		b.emit(GX_OP_INSET, GX_INT4, 0, 0, 0, k);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
		gx_chunk   *c = b.build();
		const int	want[6] = {1, 0, 0, 1, 1, 1};

		for (uint32_t r = 0; r < 6; r++)
			CHECK(eval(c, r, &err) == want[r] && err == 0, "INSET row %u", r);
		/* a NULL element: a miss is NULL (rejected), a hit true */
		c->consts[k + 1].v.i = GX_RUN_HAS_NULL;
		CHECK(!eval(c, 1, &err) && eval(c, 0, &err), "INSET with a NULL element");
		c->code[2].op = GX_OP_ISNULL;
		c->code[2].dst = 1;
		c->code[2].a = 0;
		c->ninstr = 4;
		c->code[3] = c->code[2];
		c->code[3].op = GX_OP_QUAL;
		c->code[3].a = 1;
		CHECK(eval(c, 1, &err) && !eval(c, 0, &err) && eval(c, 2, &err),
			  "INSET: miss with a NULL element and NULL a are NULL");
		/* an empty array: false even for a NULL a */
		c->consts[k].v.i = 0;
		c->consts[k + 1].v.i = 0;
		CHECK(!eval(c, 2, &err), "INSET over no element: not NULL for a NULL a");
		/* a NULL array */
		c->consts[k].isnull = 1;
		CHECK(eval(c, 0, &err) && eval(c, 2, &err), "INSET over a NULL array is NULL");
		/* a count past the table is cut at the table's end */
		c->consts[k].isnull = 0;
		c->consts[k].v.i = 1000000;
		c->code[2].op = GX_OP_ISNOTNULL;
		CHECK(eval(c, 3, &err) && err == 0, "INSET with a count past the table");
		c->consts[k].v.i = -5;
		CHECK(eval(c, 3, &err) && err == 0, "INSET with a negative count");
	}

	/* GX_OP_INSET over floats: NaN equals NaN, -0 equals 0 */
	{
		ChunkBuilder b;
		int			cf = b.add_float_col(GX_FLOAT8, {NAN, -0.0, 1.5, INFINITY, 2.0});
		int			k = add_run(b, GX_FLOAT8, {}, {-INFINITY, 0.0, 1.5, NAN});

		b.emit(GX_OP_LDCOL, GX_FLOAT8, 0, 0, 0, cf);
		b.emit(GX_OP_INSET, GX_FLOAT8, 0, 0, 0, k);
		b.emit(GX_OP_NOT, GX_BOOL, 0, 0);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
		gx_chunk   *c = b.build();
		const int	want[5] = {0, 0, 0, 1, 1};	/* <> ALL */

		for (uint32_t r = 0; r < 5; r++)
			CHECK(eval(c, r, &err) == want[r] && err == 0, "float <> ALL row %u", r);
	}

	/* GX_OP_INRANGES: an odd number of bounds <= a */
	{
		ChunkBuilder b;
		int			ct = b.add_int_col(GX_INT8, {I8MIN, -1, 0, 9, 10, 19, 20, 30, I8MAX, 0},
									   {0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
		/* [INT64_MIN, 0) U [10, 20) U [30, ...) */
		int			k = add_run(b, GX_INT8, {I8MIN, 0, 10, 20, 30}, {});

		b.emit(GX_OP_LDCOL, GX_INT8, 0, 0, 0, ct);
		b.emit(GX_OP_INRANGES, GX_INT8, 0, 0, 0, k);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
		gx_chunk   *c = b.build();
		const int	want[10] = {1, 1, 0, 0, 1, 1, 0, 1, 1, 0};

		for (uint32_t r = 0; r < 10; r++)
			CHECK(eval(c, r, &err) == want[r] && err == 0, "INRANGES row %u", r);
		c->consts[k].v.i = 0;	/* no bound: nothing */
		CHECK(!eval(c, 0, &err) && !eval(c, 8, &err), "INRANGES without bounds");
		c->consts[k].v.i = 2;	/* [INT64_MIN, 0) */
		CHECK(eval(c, 1, &err) && !eval(c, 2, &err), "INRANGES [min, 0)");
		c->consts[k].isnull = 1;
		CHECK(!eval(c, 1, &err), "INRANGES with a NULL bound is NULL");
		/* a date register against the bounds */
		ChunkBuilder b2;
		int			cd = b2.add_int_col(GX_INT4, {I4MIN, -5, 7, I4MAX});
		int			k2 = add_run(b2, GX_INT8, {I4MIN + 1, 7}, {});

		b2.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, cd);
		b2.emit(GX_OP_INRANGES, GX_INT8, 0, 0, 0, k2);
		b2.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
		gx_chunk   *c2 = b2.build();

		CHECK(!eval(c2, 0, &err) && eval(c2, 1, &err) && !eval(c2, 2, &err) && !eval(c2, 3, &err),
			  "INRANGES over dates");
	}
}

/* three-valued logic over all (T, F, NULL) pairs */
enum tv
{
	TV_F = 0, TV_T = 1, TV_N = 2
};

static tv
and3(tv a, tv b)
{
	if (a == TV_F || b == TV_F)
		return TV_F;
	if (a == TV_N || b == TV_N)
		return TV_N;
	return TV_T;
}

static tv
or3(tv a, tv b)
{
	if (a == TV_T || b == TV_T)
		return TV_T;
	if (a == TV_N || b == TV_N)
		return TV_N;
	return TV_F;
}

static tv
not3(tv a)
{
	return a == TV_N ? TV_N : (a == TV_T ? TV_F : TV_T);
}

static void
test_logic(void)
{
	ChunkBuilder b;
	std::vector<int64_t> va, vb, vc;
	std::vector<uint8_t> na, nb, nc;
	std::vector<tv> ta, tb, tc;

	for (int x = 0; x < 3; x++)
		for (int y = 0; y < 3; y++)
			for (int z = 0; z < 3; z++)
			{
				ta.push_back((tv) x);
				tb.push_back((tv) y);
				tc.push_back((tv) z);
				va.push_back(x == TV_T);
				vb.push_back(y == TV_T);
				vc.push_back(z == TV_T);
				na.push_back(x == TV_N);
				nb.push_back(y == TV_N);
				nc.push_back(z == TV_N);
			}
	int			ca = b.add_int_col(GX_BOOL, va, na);
	int			cb = b.add_int_col(GX_BOOL, vb, nb);
	int			cc = b.add_int_col(GX_BOOL, vc, nc);

	/*
	 * r5 = (a AND b AND c); r6 = (a OR b OR c); r7 = NOT a; then a test
	 * op (r8) on the register picked, QUAL r8.
	 */
	b.emit(GX_OP_LDCOL, GX_BOOL, 0, 0, 0, ca);	/* 0 */
	b.emit(GX_OP_LDCOL, GX_BOOL, 1, 0, 0, cb);	/* 1 */
	b.emit(GX_OP_LDCOL, GX_BOOL, 2, 0, 0, cc);	/* 2 */
	b.emit(GX_OP_SETBOOL, GX_BOOL, 5, 0, 0, 1);	/* 3 */
	b.emit(GX_OP_ANDSTEP, GX_BOOL, 5, 0, 0, 0, 7);	/* 4 */
	b.emit(GX_OP_ANDSTEP, GX_BOOL, 5, 1, 0, 0, 7);	/* 5 */
	b.emit(GX_OP_ANDSTEP, GX_BOOL, 5, 2, 0, 0, 7);	/* 6 */
	b.emit(GX_OP_SETBOOL, GX_BOOL, 6, 0, 0, 0);	/* 7 */
	b.emit(GX_OP_ORSTEP, GX_BOOL, 6, 0, 0, 0, 11);	/* 8 */
	b.emit(GX_OP_ORSTEP, GX_BOOL, 6, 1, 0, 0, 11);	/* 9 */
	b.emit(GX_OP_ORSTEP, GX_BOOL, 6, 2, 0, 0, 11);	/* 10 */
	b.emit(GX_OP_NOT, GX_BOOL, 7, 0);	/* 11 */
	b.emit(GX_OP_ISTRUE, GX_BOOL, 8, 5);	/* 12: op and source patched */
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 8);	/* 13 */
	gx_chunk   *c = b.build();

	const int	tests[] = {GX_OP_ISTRUE, GX_OP_ISNOTTRUE, GX_OP_ISFALSE, GX_OP_ISNOTFALSE,
	GX_OP_ISNULL, GX_OP_ISNOTNULL};
	const char *names[] = {"AND", "OR", "NOT"};

	for (int which = 0; which < 3; which++)
	{
		c->code[12].a = 5 + which;
		for (int ti = 0; ti < 6; ti++)
		{
			c->code[12].op = tests[ti];
			for (uint32_t row = 0; row < c->nrows; row++)
			{
				tv			e = which == 0 ? and3(and3(ta[row], tb[row]), tc[row]) :
					which == 1 ? or3(or3(ta[row], tb[row]), tc[row]) : not3(ta[row]);
				int			want;

				switch (tests[ti])
				{
					case GX_OP_ISTRUE:
						want = e == TV_T;
						break;
					case GX_OP_ISNOTTRUE:
						want = e != TV_T;
						break;
					case GX_OP_ISFALSE:
						want = e == TV_F;
						break;
					case GX_OP_ISNOTFALSE:
						want = e != TV_F;
						break;
					case GX_OP_ISNULL:
						want = e == TV_N;
						break;
					default:
						want = e != TV_N;
						break;
				}
				int			err;
				int			got = eval(c, row, &err);

				CHECK(got == want && err == 0, "%s test op %d row %u (a=%d b=%d c=%d): got %d want %d",
					  names[which], tests[ti], row, ta[row], tb[row], tc[row], got, want);
			}
		}
	}

	/* QUAL directly on the AND / OR result: only TRUE passes */
	c->ninstr = 14;
	c->code[12].op = GX_OP_SETBOOL;		/* harmless filler */
	c->code[12].dst = 9;
	c->code[12].arg = 1;
	for (int which = 0; which < 3; which++)
	{
		c->code[13].a = 5 + which;
		for (uint32_t row = 0; row < c->nrows; row++)
		{
			tv			e = which == 0 ? and3(and3(ta[row], tb[row]), tc[row]) :
				which == 1 ? or3(or3(ta[row], tb[row]), tc[row]) : not3(ta[row]);
			int			err;

			CHECK(eval(c, row, &err) == (e == TV_T), "QUAL %s row %u", names[which], row);
		}
	}
}

/* ---------------------------------------------------------------------- */
/* gx_cpu_run result layout                                               */
/* ---------------------------------------------------------------------- */

static std::vector<uint32_t>
concat_sel(gx_chunk *c, bool *layout_ok)
{
	gx_result  *res = gx_chunk_result(c);
	uint32_t   *seg_off = gx_result_seg_off(res);
	uint32_t   *seg_cnt = gx_result_seg_cnt(res);
	uint32_t   *sel = gx_result_sel(res);
	std::vector<uint32_t> out;
	std::vector<uint8_t> covered(res->nsel + 1, 0);
	bool		ok = res->ntiles == gx_ntiles(c->nrows);
	uint64_t	total = 0;

	for (uint32_t t = 0; ok && t < res->ntiles; t++)
	{
		if ((uint64_t) seg_off[t] + seg_cnt[t] > res->nsel || seg_cnt[t] > GX_TILE_ROWS)
		{
			ok = false;
			break;
		}
		total += seg_cnt[t];
		for (uint32_t i = 0; i < seg_cnt[t]; i++)
		{
			uint32_t	row = sel[seg_off[t] + i];

			if (covered[seg_off[t] + i])
				ok = false;
			covered[seg_off[t] + i] = 1;
			if (row / GX_TILE_ROWS != t)
				ok = false;
			out.push_back(row);
		}
	}
	if (total != res->nsel)
		ok = false;
	*layout_ok = ok;
	return out;
}

/* ---------------------------------------------------------------------- */
/* numeric (GX_NUMERIC)                                                   */
/* ---------------------------------------------------------------------- */

/* the helpers: exact comparison across scales, arithmetic, the decoder */
static void
test_numeric_ops(void)
{
	int64_t		r;
	int			ds;

	/* comparisons across scales (shift = sa - sb) */
	CHECK(gx_num_cmp(150, 15, 1) == 0, "1.50 = 1.5");
	CHECK(gx_num_cmp(15, 150, -1) == 0, "1.5 = 1.50");
	CHECK(gx_num_cmp(151, 15, 1) > 0, "1.51 > 1.5");
	CHECK(gx_num_cmp(-5, 0, 0) < 0, "-5 < 0");
	CHECK(gx_num_cmp(I8MAX, I8MAX, 3) == 0, "NaN = NaN (any scales)");
	CHECK(gx_num_cmp(I8MAX, I8MAX - 1, 0) > 0, "NaN > every number");
	CHECK(gx_num_cmp(-I8MAX + 1, I8MAX, 0) < 0, "a number < NaN");
	CHECK(gx_num_cmp(100, 500000000000000000LL, -18) > 0, "100 > 0.5 (shift overflows)");
	CHECK(gx_num_cmp(-100, 500000000000000000LL, -18) < 0, "-100 < 0.5 (shift overflows)");
	CHECK(gx_num_cmp(500000000000000000LL, 100, 18) < 0, "0.5 < 100 (shift overflows)");
	CHECK(gx_num_cmp(500000000000000000LL, -100, 18) > 0, "0.5 > -100 (shift overflows)");
	CHECK(gx_num_cmp(1, 1000000000000000000LL, -18) == 0, "1 = 1.000000000000000000");

	/* arithmetic: NaN in, NaN out; beyond int64: the host */
	CHECK(gx_num_arith(GX_OP_ADD, 150, 5, 1, &r) == 0 && r == 200, "1.50 + 0.5 = 2.00");
	CHECK(gx_num_arith(GX_OP_SUB, 5, 150, -1, &r) == 0 && r == -100, "0.5 - 1.50 = -1.00");
	CHECK(gx_num_arith(GX_OP_MUL, 150, -25, 0, &r) == 0 && r == -3750, "1.50 * -2.5");
	CHECK(gx_num_arith(GX_OP_ADD, I8MAX, 5, 3, &r) == 0 && r == I8MAX, "NaN + x = NaN");
	CHECK(gx_num_arith(GX_OP_MUL, 0, I8MAX, 0, &r) == 0 && r == I8MAX, "0 * NaN = NaN");
	CHECK(gx_num_arith(GX_OP_ADD, I8MAX - 1, 1, 0, &r) == GX_ERR_HOST, "sum reaching INT64_MAX");
	CHECK(gx_num_arith(GX_OP_SUB, -I8MAX, 1, 0, &r) == GX_ERR_HOST, "difference INT64_MIN");
	CHECK(gx_num_arith(GX_OP_SUB, -I8MAX + 1, 1, 0, &r) == 0 && r == -I8MAX, "difference -INT64_MAX");
	CHECK(gx_num_arith(GX_OP_ADD, 1, 10, 18, &r) == GX_ERR_HOST, "shift overflows");
	CHECK(gx_num_arith(GX_OP_MUL, 3037000500LL, 3037000500LL, 0, &r) == GX_ERR_HOST,
		  "product overflows");
	CHECK(gx_num_arith(GX_OP_MUL, 3037000499LL, -3037000499LL, 0, &r) == 0 &&
		  r == -9223372030926249001LL, "product fits");
	CHECK(gx_num_arith(GX_OP_DIV, 1, 1, 0, &r) == GX_ERR_BAD_PROGRAM, "no numeric division");

	/* the decoder against the encoder: both formats, every scale */
	{
		std::mt19937_64 rng(77);
		int			bad = 0;

		for (int i = 0; i < 20000; i++)
		{
			int			scale = (int) (rng() % 19);
			int64_t		v = num_random(rng, 1000000000);
			std::vector<uint8_t> bytes = numeric_bytes(v, scale, rng() % 3 == 0);
			int64_t		got = 0;

			if (gx_numeric_decode(bytes.data(), (uint32_t) bytes.size(), scale, &got, &ds) ||
				got != v || (v != I8MAX && ds != scale))
				bad++;
			/* one more digit after the point: ten times the value, or no int64 */
			if (scale < 18 && v != I8MAX)
			{
				gx_i128		w = (gx_i128) v * 10;
				int			rc = gx_numeric_decode(bytes.data(), (uint32_t) bytes.size(),
												   scale + 1, &got, &ds);

				if (num_dev_ok(w) ? (rc != 0 || got != (int64_t) w) : rc == 0)
					bad++;
			}
			/* one less: only when the last digit is 0 */
			if (scale > 0 && v != I8MAX)
			{
				int			rc = gx_numeric_decode(bytes.data(), (uint32_t) bytes.size(),
												   scale - 1, &got, &ds);

				if (v % 10 == 0 ? (rc != 0 || got != v / 10) : rc == 0)
					bad++;
			}
		}
		CHECK(bad == 0, "numeric decode: %d of 20000 values wrong", bad);
	}
	{
		const uint8_t pinf[] = {0x00, 0xD0}, ninf[] = {0x00, 0xF0}, nan[] = {0x00, 0xC0};
		const uint8_t badd[] = {0x00, 0x80, 0x10, 0x27};	/* digit 10000 */
		const uint8_t big[] = {0x04, 0x80, 0xE8, 0x03};	/* 1000 * 10000^4 = 1e19 */
		const uint8_t e18[] = {0x04, 0x80, 0x64, 0x00};	/* 100 * 10000^4 = 1e18 */

		CHECK(gx_numeric_decode(pinf, 2, 0, &r, &ds) != 0, "+Infinity does not decode");
		CHECK(gx_numeric_decode(ninf, 2, 0, &r, &ds) != 0, "-Infinity does not decode");
		CHECK(gx_numeric_decode(nan, 2, 5, &r, &ds) == 0 && r == I8MAX, "NaN");
		CHECK(gx_numeric_decode(badd, 4, 0, &r, &ds) != 0, "digit 10000");
		CHECK(gx_numeric_decode(big, 4, 0, &r, &ds) != 0, "1e19 is no int64");
		CHECK(gx_numeric_decode(e18, 4, 0, &r, &ds) == 0 && r == 1000000000000000000LL, "1e18");
		CHECK(gx_numeric_decode(e18, 4, 1, &r, &ds) != 0, "1e18 at scale 1 is no int64");
		CHECK(gx_numeric_decode(e18, 1, 0, &r, &ds) != 0, "a short header");
	}
}

/*
 * numeric programs: each row as the exact reference says, through the
 * interpreter, and through the CPU device (rows for the host selected,
 * GX_RESULT_HOST set exactly when there is one)
 */
static void
test_numeric_programs(void)
{
	std::mt19937_64 rng(4242);

	for (int prog = 0; prog < NUM_NPROGS; prog++)
	{
		for (int round = 0; round < 4; round++)
		{
			ChunkBuilder b;
			std::vector<int> want;
			uint32_t	n = round == 0 ? 7 : 3000 + (uint32_t) (rng() % 5000);

			build_numeric_task(b, rng, n, prog, want);
			gx_chunk   *c = b.build();
			int			bad = 0,
						nhost = 0;
			std::vector<uint32_t> expect;

			for (uint32_t r = 0; r < n; r++)
			{
				int			err;
				int			pass = eval(c, r, &err);
				int			got = pass ? NUM_PASS : err == GX_ERR_HOST ? NUM_HOST :
					err == 0 ? NUM_REJECT : -1;

				if (got != want[r] && bad++ < 5)
					fprintf(stderr, "numeric program %d row %u: got %d, want %d\n", prog, r,
							got, want[r]);
				if (want[r] != NUM_REJECT)
					expect.push_back(r);
				nhost += want[r] == NUM_HOST;
			}
			CHECK(bad == 0, "numeric program %d: %d of %u rows differ", prog, bad, n);

			char		err[256];
			bool		ok;

			CHECK(gx_cpu_run(c, b.capacity, nullptr, err, sizeof(err)) == GX_OK,
				  "numeric program %d on the CPU device: %s", prog, err);
			gx_result  *res = gx_chunk_result(c);

			CHECK(concat_sel(c, &ok) == expect && ok && res->error == GX_NO_ERROR,
				  "numeric program %d: CPU device selection (%u rows, want %zu)", prog,
				  res->nsel, expect.size());
			CHECK(((res->flags & GX_RESULT_HOST) != 0) == (nhost > 0),
				  "numeric program %d: GX_RESULT_HOST %x with %d host rows", prog, res->flags,
				  nhost);
		}
	}

	/* a program that may not be shifted by 19 is refused (gx_instr_args_ok) */
	{
		gx_instr	in;

		memset(&in, 0, sizeof(in));
		in.op = GX_OP_LT;
		in.type = GX_NUMERIC;
		in.arg = 18;
		CHECK(gx_instr_args_ok(&in, 0), "numeric shift 18");
		in.arg = 19;
		CHECK(!gx_instr_args_ok(&in, 0), "numeric shift 19");
		in.op = GX_OP_CAST;
		in.arg = GX_INT4;
		CHECK(gx_instr_args_ok(&in, 0), "int4 -> numeric");
		in.arg = GX_FLOAT4;
		CHECK(!gx_instr_args_ok(&in, 0), "float4 -> numeric");
	}
}

/*
 * unconstrained numeric (a column of scale GX_NUMERIC_FREE): the stored
 * form (gx_numeric_free_encode) against the encoder, every dscale and
 * both formats; then a program x > 1.5 on the CPU device (a value the
 * device cannot hold makes its row the host's) and GX_OP_DSCALE
 */
static void
test_numeric_free(void)
{
	std::mt19937_64 rng(606);
	int			bad = 0;
	const int64_t UNFIT = GX_NUMERIC_UNFIT;

	for (int i = 0; i < 20000; i++)
	{
		int			ds = (int) (rng() % 9);
		int64_t		v = num_random(rng, rng() % 2 ? 1000000 : 2000000000000000LL);
		std::vector<uint8_t> bytes = numeric_bytes(v, ds, rng() % 3 == 0);
		int64_t		s = gx_numeric_free_encode(bytes.data(), (uint32_t) bytes.size());

		if (v == I8MAX)
		{
			bad += s != I8MAX;
			continue;
		}
		gx_i128		w = ds <= 6 ? (gx_i128) v * num_pow10(6 - ds) : 0;
		bool		fits = ds <= 6 && w < GX_NUMERIC_FREE_LIMIT && w > -GX_NUMERIC_FREE_LIMIT;

		if (fits ? (s == UNFIT || gx_numeric_free_value(s) != (int64_t) w || (s & 7) != ds) :
			s != UNFIT)
		{
			if (bad++ < 5)
				fprintf(stderr, "free numeric %lld dscale %d: stored %lld\n", (long long) v, ds,
						(long long) s);
		}
	}
	CHECK(bad == 0, "free numeric encode: %d of 20000 values wrong", bad);
	{
		const uint8_t pinf[] = {0x00, 0xD0}, nan[] = {0x00, 0xC0};
		std::vector<uint8_t> lim = numeric_bytes(999999999999999999LL, 6, false);
		std::vector<uint8_t> e12 = numeric_bytes(1000000000000LL, 0, false);
		std::vector<uint8_t> z8 = numeric_bytes(150000000LL, 8, false);	/* 1.50000000 */

		CHECK(gx_numeric_free_encode(pinf, 2) == UNFIT, "+Infinity is the host's");
		CHECK(gx_numeric_free_encode(nan, 2) == I8MAX, "NaN");
		CHECK(gx_numeric_free_value(gx_numeric_free_encode(lim.data(), lim.size())) ==
			  999999999999999999LL, "999999999999.999999 fits");
		CHECK(gx_numeric_free_encode(e12.data(), e12.size()) == UNFIT, "10^12 does not");
		CHECK(gx_numeric_free_encode(z8.data(), z8.size()) == UNFIT, "dscale 8 does not");
		CHECK(gx_numeric_free_value(-2) == -1 && gx_numeric_free_value(-8) == -1,
			  "negative values: -0.000001 (dscale 6) and -1 (dscale 0) at scale 6");
	}

	/* x > 1.5 over stored values; DSCALE of each row */
	{
		ChunkBuilder b;
		std::vector<int64_t> vals;
		std::vector<uint8_t> nulls;
		std::vector<int> want;
		std::vector<int64_t> wantds;
		std::vector<uint32_t> expect;
		uint32_t	n = 5000;

		for (uint32_t r = 0; r < n; r++)
		{
			int			ds = (int) (rng() % 8);
			int64_t		v = num_random(rng, 100000);
			std::vector<uint8_t> bytes = numeric_bytes(v, ds, false);
			int64_t		s = gx_numeric_free_encode(bytes.data(), (uint32_t) bytes.size());
			bool		isnull = rng() % 13 == 0;

			vals.push_back(isnull ? 0 : s);
			nulls.push_back(isnull);
			if (isnull)
				want.push_back(NUM_REJECT);
			else if (s == UNFIT)
				want.push_back(NUM_HOST);
			else
				want.push_back(num_ref_cmp(v, ds, 15, 1) > 0 ? NUM_PASS : NUM_REJECT);
			wantds.push_back(isnull || s == UNFIT || v == I8MAX ? 0 : ds);
			if (want.back() != NUM_REJECT)
				expect.push_back(r);
		}
		int			cx = b.add_num_col(GX_NUMERIC_FREE, vals, nulls);
		int			k = b.kint(GX_NUMERIC, 15);

		b.emit(GX_OP_LDCOL, GX_NUMERIC, 1, 0, 0, cx);
		b.emit(GX_OP_LDCONST, GX_NUMERIC, 2, 0, 0, k);
		b.emit(GX_OP_GT, GX_NUMERIC, 0, 1, 2, 6 - 1);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
		gx_chunk   *c = b.build();

		bad = 0;
		for (uint32_t r = 0; r < n; r++)
		{
			int			err;
			int			pass = eval(c, r, &err);
			int			got = pass ? NUM_PASS : err == GX_ERR_HOST ? NUM_HOST :
				err == 0 ? NUM_REJECT : -1;
			gx_reg		d;
			int			e2 = 0;
			int			st = gx_step(GX_OP_DSCALE, GX_INT8, cx, c, (const char *) c, r, &d, &d,
									 &d, &e2);

			if (got != want[r] ||
				(want[r] == NUM_HOST ? st != GX_STEP_ERROR || e2 != GX_ERR_HOST :
				 st != GX_STEP_NEXT || d.isnull != (int) nulls[r] ||
				 (!d.isnull && d.v.i != wantds[r])))
				bad++;
		}
		CHECK(bad == 0, "free numeric program and DSCALE: %d of %u rows differ", bad, n);

		char		err[256];
		bool		ok;

		CHECK(gx_cpu_run(c, b.capacity, nullptr, err, sizeof(err)) == GX_OK,
			  "free numeric program on the CPU device: %s", err);
		gx_result  *res = gx_chunk_result(c);

		CHECK(concat_sel(c, &ok) == expect && ok && res->error == GX_NO_ERROR &&
			  (res->flags & GX_RESULT_HOST) != 0,
			  "free numeric program: CPU device selection (%u rows, want %zu)", res->nsel,
			  expect.size());
	}
	{
		gx_instr	in;

		memset(&in, 0, sizeof(in));
		in.op = GX_OP_DSCALE;
		in.type = GX_INT8;
		CHECK(gx_instr_args_ok(&in, 0), "DSCALE gives an int8");
		in.type = GX_NUMERIC;
		CHECK(!gx_instr_args_ok(&in, 0), "DSCALE gives no numeric");
	}
}

/*
 * group mode: rows for the host stay selected and are not added to a
 * group; the passing rows are all in the table
 */
static void
test_numeric_group(void)
{
	std::mt19937_64 rng(31337);
	std::vector<uint64_t> table(gx_group_table_bytes(NUM_GROUP_CAP, 1, 1) / 8 + 1);

	for (int prog : {1, 2, 6})
	{
		ChunkBuilder b;
		std::vector<int> want;
		uint32_t	n = 2000 + (uint32_t) (rng() % 6000);
		gx_task_ctx ctx;
		char		err[256];
		bool		ok;
		std::vector<uint32_t> host;
		int64_t		npass = 0;

		build_numeric_task(b, rng, n, prog, want);
		gx_chunk   *c = b.build();

		numeric_group_mode(c);
		std::fill(table.begin(), table.end(), 0);
		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = (char *) table.data();
		ctx.obj_bytes[0] = table.size() * 8;
		for (uint32_t r = 0; r < n; r++)
		{
			if (want[r] == NUM_HOST)
				host.push_back(r);
			npass += want[r] == NUM_PASS;
		}
		CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK,
			  "numeric group mode %d: %s", prog, err);
		CHECK(concat_sel(c, &ok) == host && ok && !host.empty(),
			  "numeric group mode %d: the host rows alone are selected (%u, want %zu)", prog,
			  gx_chunk_result(c)->nsel, host.size());
		CHECK((gx_chunk_result(c)->flags & GX_RESULT_HOST) != 0,
			  "numeric group mode %d: GX_RESULT_HOST", prog);
		CHECK(numeric_group_rows((const char *) table.data()) == npass,
			  "numeric group mode %d: %lld rows in groups, want %lld", prog,
			  (long long) numeric_group_rows((const char *) table.data()), (long long) npass);
	}
}

/*
 * Group mode with FILTER and 128-bit int8 sums (CPU device): key int8,
 * value int8 with NULLs, INT64_MAX and sums past 2^63; outputs key (0),
 * value (1) and "value > 0" (2, a bool, NULL where the value is).
 * Aggregates: count(*) FILTER, sum128 + hi FILTER, count(*), min(value).
 * The table, read in host memory, must hold the reference's states: the
 * filtered ones over the rows where the filter is true only (INT64_MAX
 * values counted apart, as numeric NaNs).  Then the validator refuses a
 * filter that is not a bool output, is out of range, differs between a
 * 128-bit sum's two halves, or appears without a group table.
 */
static void expect_invalid(gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
						   const char *what);

static void
test_group_filter(void)
{
	std::mt19937_64 rng(1414);
	const uint32_t cap = 1024;
	const uint32_t n = 20000;
	const int64_t big = 9000000000000000000ll;
	const uint64_t sb = gx_group_slot_bytes(1, 6);
	std::vector<uint64_t> table((sizeof(gx_group_hdr) + cap * sb) / 8 + 1, 0);
	std::vector<int64_t> k(n),
				v(n);
	std::vector<uint8_t> vn(n);
	struct Ref
	{
		int64_t		cntf = 0,
					nf = 0,
					rows = 0,
					nv = 0,
					min = std::numeric_limits<int64_t>::max(),
					max = std::numeric_limits<int64_t>::min();
		__int128	sumf = 0;
	};
	std::map<int64_t, Ref> want;
	ChunkBuilder b;
	gx_task_ctx ctx;
	char		err[256];

	for (uint32_t r = 0; r < n; r++)
	{
		k[r] = (int64_t) (rng() % 7);
		vn[r] = rng() % 10 == 0;
		switch (rng() % 5)
		{
			case 0:
				v[r] = std::numeric_limits<int64_t>::max();
				break;
			case 1:
				v[r] = big - (int64_t) (rng() % 1000);
				break;
			case 2:
				v[r] = -big + (int64_t) (rng() % 1000);
				break;
			default:
				v[r] = (int64_t) (rng() % 2001) - 1000;
		}
		Ref		   &w = want[k[r]];

		w.rows++;
		if (vn[r])
			continue;
		w.nv++;
		w.min = std::min(w.min, v[r]);
		w.max = std::max(w.max, v[r]);
		if (v[r] > 0)
		{
			w.cntf++;
			w.nf++;
			w.sumf += v[r];
		}
	}
	int			kc = b.add_int_col(GX_INT8, k);
	int			vc = b.add_int_col(GX_INT8, v, vn);

	/* value IS NULL OR value > INT64_MIN: every row */
	b.emit(GX_OP_LDCOL, GX_INT8, 0, 0, 0, vc);
	b.emit(GX_OP_SETBOOL, GX_BOOL, 3, 0, 0, 0);
	b.emit(GX_OP_ISNULL, GX_BOOL, 1, 0);
	b.emit(GX_OP_ORSTEP, GX_BOOL, 3, 1, 0, 0, 7);
	b.emit(GX_OP_LDCONST, GX_INT8, 2, 0, 0, b.kint(GX_INT8, std::numeric_limits<int64_t>::min()));
	b.emit(GX_OP_GT, GX_INT8, 2, 0, 2);
	b.emit(GX_OP_ORSTEP, GX_BOOL, 3, 2, 0, 0, 7);
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 3);
	b.emit(GX_OP_LDCOL, GX_INT8, 4, 0, 0, kc);
	b.emit(GX_OP_OUT, GX_INT8, 0, 4, 0, 0);
	b.emit(GX_OP_OUT, GX_INT8, 0, 0, 0, 1);
	b.emit(GX_OP_LDCONST, GX_INT8, 5, 0, 0, b.kint(GX_INT8, 0));
	b.emit(GX_OP_GT, GX_INT8, 5, 0, 5);
	b.emit(GX_OP_OUT, GX_BOOL, 0, 5, 0, 2);

	gx_chunk   *c = group_task_table(b.build(), cap, 6);

	c->ext.agg[0] = gx_agg {GX_AGG_COUNT, -1, 3, 0};
	c->ext.agg[1] = gx_agg {GX_AGG_SUM128, 1, 3, 0};
	c->ext.agg[2] = gx_agg {GX_AGG_HI, 1, 3, 0};
	c->ext.agg[3] = gx_agg {GX_AGG_COUNT, -1, 0, 0};
	c->ext.agg[4] = gx_agg {GX_AGG_MIN, 1, 0, 0};
	c->ext.agg[5] = gx_agg {GX_AGG_MAX, 1, 0, 5};	/* min's count is its own */
	memset(&ctx, 0, sizeof(ctx));
	ctx.obj[0] = (char *) table.data();
	ctx.obj_bytes[0] = table.size() * 8;

	std::vector<char> good((const char *) c, (const char *) c + b.capacity);

	CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK, "group filter: %s", err);
	CHECK(gx_chunk_result(c)->nsel == 0 && gx_chunk_result(c)->error == GX_NO_ERROR,
		  "group filter: every row in the table (%u to the host)", gx_chunk_result(c)->nsel);

	size_t		seen = 0;

	for (uint32_t i = 0; i < cap; i++)
	{
		const char *slot = (const char *) table.data() + sizeof(gx_group_hdr) + i * sb;
		const gx_agg_pair *p = (const gx_agg_pair *) (slot + 16);
		int64_t		key = ((const int64_t *) slot)[1];

		if (*(const uint32_t *) slot != GX_GSLOT_READY)
			continue;
		seen++;
		if (want.count(key) == 0)
		{
			CHECK(false, "group filter: unknown key %lld", (long long) key);
			continue;
		}
		const Ref  &w = want[key];
		__int128	sum = (__int128) (((unsigned __int128) (uint64_t) p[2].val << 64) |
									  (uint64_t) p[1].val) +
			(__int128) p[2].cnt * std::numeric_limits<int64_t>::max();

		CHECK(p[0].cnt == w.cntf, "group filter %lld: count(*) FILTER %lld, want %lld",
			  (long long) key, (long long) p[0].cnt, (long long) w.cntf);
		CHECK(sum == w.sumf && p[1].cnt + p[2].cnt == w.nf,
			  "group filter %lld: 128-bit sum FILTER wrong (%lld values, want %lld)",
			  (long long) key, (long long) (p[1].cnt + p[2].cnt), (long long) w.nf);
		CHECK(p[3].cnt == w.rows && p[4].cnt == w.nv && p[4].val == w.min,
			  "group filter %lld: count(*) %lld / %lld, min %lld / %lld", (long long) key,
			  (long long) p[3].cnt, (long long) w.rows, (long long) p[4].val, (long long) w.min);

		CHECK(p[5].cnt == 0 && gx_agg_count(c->ext.agg, p, 5) == w.nv && p[5].val == w.max,
			  "group filter %lld: max with the count of min: count %lld / %lld, max %lld / %lld",
			  (long long) key, (long long) p[5].cnt, (long long) gx_agg_count(c->ext.agg, p, 5),
			  (long long) p[5].val, (long long) w.max);
	}
	CHECK(seen == want.size(), "group filter: %zu groups, want %zu", seen, want.size());

	/* malformed filters are refused */
#define FMUTATE(what, stmt) \
	do { \
		memcpy(c, good.data(), b.capacity); \
		stmt; \
		expect_invalid(c, b.capacity, &ctx, (what)); \
	} while (0)
	FMUTATE("filter of an int8 output", c->ext.agg[0].filt = 2);
	FMUTATE("filter of a missing output", c->ext.agg[0].filt = 7);
	FMUTATE("filter out of range", c->ext.agg[3].filt = GX_MAX_OUTS + 1);
	FMUTATE("filter apart from its 128-bit sum", c->ext.agg[2].filt = 0);
	FMUTATE("count of a later aggregate", c->ext.agg[4].cnt_of = 6);
	FMUTATE("count of a 128-bit sum", c->ext.agg[5].cnt_of = 2);
	FMUTATE("count of another input", c->ext.agg[5].cnt_of = 4);
	FMUTATE("count of an aggregate without its own",
			(c->ext.agg[4].cnt_of = 4, c->ext.agg[5].cnt_of = 5));
	FMUTATE("filter without a group table",
			(c->ext.ngroup_cap = 0, c->ext.ngkeys = 0, c->ext.nagg = 1,
			 c->ext.agg[0] = gx_agg {GX_AGG_COUNT, 0, 3, 0}));
#undef FMUTATE
	printf("group filter: %zu groups with FILTER and 128-bit int8 sums agree\n", seen);
}

/*
 * Float aggregates in a group table (CPU device): key int8, f float8 (the
 * sums: FSUM, FVAR + FPART x2; NULLs, NaN and infinities, values near 1e6
 * so that the shifted sums matter) and g float8 (FMIN / FMAX over NaN, -0,
 * +0, infinities).  Rows with a non-finite f go to the host (selected,
 * GX_RESULT_HOST) and add nowhere; the others' states must match a long
 * double reference: counts and min / max exactly (gx_float_ord), the sums
 * and Sxx = q - s^2 / n within 1e-9 relative.  Then the validator refuses
 * an FVAR without its parts, a part alone, a float op over an int output.
 */
static void
test_group_float(void)
{
	std::mt19937_64 rng(1515);
	const uint32_t cap = 1024;
	const uint32_t n = 30000;
	const uint64_t sb = gx_group_slot_bytes(1, 7);
	std::vector<uint64_t> table((sizeof(gx_group_hdr) + cap * sb) / 8 + 1, 0);
	std::vector<int64_t> k(n);
	std::vector<double> f(n),
				g(n);
	std::vector<uint8_t> fn(n),
				gn(n);
	const double specials[] = {NAN, -NAN, INFINITY, -INFINITY, -0.0, 0.0, 1e300, -1e300};
	struct Ref
	{
		int64_t		rows = 0,
					nf = 0,
					ng = 0,
					gmin = std::numeric_limits<int64_t>::max(),
					gmax = std::numeric_limits<int64_t>::min();
		std::vector<long double> xs;
	};
	std::map<int64_t, Ref> want;
	uint32_t	nhost = 0;
	ChunkBuilder b;
	gx_task_ctx ctx;
	char		err[256];

	for (uint32_t r = 0; r < n; r++)
	{
		k[r] = (int64_t) (rng() % 7);
		fn[r] = rng() % 10 == 0;
		f[r] = rng() % 50 == 0 ? specials[rng() % 4] : 1e6 + (double) (rng() % 20001) / 7.0;
		gn[r] = rng() % 9 == 0;
		g[r] = rng() % 5 == 0 ? specials[rng() % 8] : (double) ((int64_t) (rng() % 2001) - 1000) / 3.0;
		if (!fn[r] && !std::isfinite(f[r]))
		{
			nhost++;			/* the host's row */
			continue;
		}
		Ref		   &w = want[k[r]];

		w.rows++;
		if (!fn[r])
		{
			w.nf++;
			w.xs.push_back(f[r]);
		}
		if (!gn[r])
		{
			w.ng++;
			w.gmin = std::min(w.gmin, gx_float_ord(g[r]));
			w.gmax = std::max(w.gmax, gx_float_ord(g[r]));
		}
	}
	int			kc = b.add_int_col(GX_INT8, k);
	int			fc = b.add_float_col(GX_FLOAT8, f, fn);
	int			gc = b.add_float_col(GX_FLOAT8, g, gn);
	gx_chunk   *c = build_group_out_task(b, kc, {{fc, GX_FLOAT8}, {gc, GX_FLOAT8}}, cap, 7);

	c->ext.agg[0] = gx_agg {GX_AGG_FSUM, 1, 0, 0};
	c->ext.agg[1] = gx_agg {GX_AGG_FVAR, 1, 0, 0};
	c->ext.agg[2] = gx_agg {GX_AGG_FPART, 1, 0, 0};
	c->ext.agg[3] = gx_agg {GX_AGG_FPART, 1, 0, 0};
	c->ext.agg[4] = gx_agg {GX_AGG_FMIN, 2, 0, 0};
	c->ext.agg[5] = gx_agg {GX_AGG_FMAX, 2, 0, 0};
	c->ext.agg[6] = gx_agg {GX_AGG_COUNT, -1, 0, 0};
	memset(&ctx, 0, sizeof(ctx));
	ctx.obj[0] = (char *) table.data();
	ctx.obj_bytes[0] = table.size() * 8;

	std::vector<char> good((const char *) c, (const char *) c + b.capacity);

	CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK, "group float: %s", err);
	CHECK(gx_chunk_result(c)->nsel == nhost && gx_chunk_result(c)->error == GX_NO_ERROR &&
		  (gx_chunk_result(c)->flags & GX_RESULT_HOST) != 0,
		  "group float: %u rows to the host, want %u (flagged)", gx_chunk_result(c)->nsel, nhost);

	size_t		seen = 0;

	for (uint32_t i = 0; i < cap; i++)
	{
		const char *slot = (const char *) table.data() + sizeof(gx_group_hdr) + i * sb;
		const gx_agg_pair *p = (const gx_agg_pair *) (slot + 16);
		int64_t		key = ((const int64_t *) slot)[1];

		if (*(const uint32_t *) slot != GX_GSLOT_READY)
			continue;
		seen++;
		if (want.count(key) == 0)
		{
			CHECK(false, "group float: unknown key %lld", (long long) key);
			continue;
		}
		const Ref  &w = want[key];
		long double sum = 0,
					sxx = 0;

		for (long double x : w.xs)
			sum += x;
		for (long double x : w.xs)
			sxx += (x - sum / w.nf) * (x - sum / w.nf);

		const double dsum = gx_bitsd(p[0].val);
		const double s = gx_bitsd(p[2].val);
		const double dsxx = gx_bitsd(p[3].val) - s * (s / (double) p[1].cnt);

		CHECK(p[6].cnt == w.rows && p[0].cnt == w.nf && p[1].cnt == w.nf &&
			  p[4].cnt == w.ng && p[5].cnt == w.ng,
			  "group float %lld: counts %lld %lld %lld, want %lld %lld %lld", (long long) key,
			  (long long) p[6].cnt, (long long) p[0].cnt, (long long) p[4].cnt,
			  (long long) w.rows, (long long) w.nf, (long long) w.ng);
		CHECK(fabsl(dsum - sum) <= 1e-9L * fabsl(sum) &&
			  fabsl(gx_bitsd(p[1].val) - sum) <= 1e-9L * fabsl(sum),
			  "group float %lld: sum %.17g, want %.17Lg", (long long) key, dsum, sum);
		CHECK(fabsl(dsxx - sxx) <= 1e-9L * sxx,
			  "group float %lld: Sxx %.17g, want %.17Lg", (long long) key, dsxx, sxx);
		CHECK(p[4].val == w.gmin && p[5].val == w.gmax,
			  "group float %lld: min %g max %g, want %g %g", (long long) key,
			  gx_float_unord(p[4].val), gx_float_unord(p[5].val), gx_float_unord(w.gmin),
			  gx_float_unord(w.gmax));
	}
	CHECK(seen == want.size(), "group float: %zu groups, want %zu", seen, want.size());
	CHECK(gx_float_ord(NAN) > gx_float_ord(INFINITY) && gx_float_ord(-NAN) == gx_float_ord(NAN) &&
		  gx_float_ord(-INFINITY) < gx_float_ord(-1e308) && gx_float_ord(-0.0) < gx_float_ord(0.0) &&
		  std::signbit(gx_float_unord(gx_float_ord(-0.0))) && std::isnan(gx_float_unord(gx_float_ord(NAN))),
		  "gx_float_ord: PostgreSQL's float order");

#define FMUTATE(what, stmt) \
	do { \
		memcpy(c, good.data(), b.capacity); \
		stmt; \
		expect_invalid(c, b.capacity, &ctx, (what)); \
	} while (0)
	FMUTATE("FVAR without its parts", c->ext.agg[3].op = GX_AGG_COUNT);
	FMUTATE("an FPART alone", c->ext.agg[1].op = GX_AGG_FSUM);
	FMUTATE("FVAR parts of another column", c->ext.agg[2].col = 2);
	FMUTATE("float sum of an int8 output", c->ext.agg[0].col = 0);
	FMUTATE("float min of an int8 output", c->ext.agg[4].col = 0);
#undef FMUTATE
	printf("group float: %zu groups, %u host rows: float sums, shifted squares, min/max agree\n",
		   seen, nhost);
}

/*
 * Passes (CPU device): 3000 groups of key int8 over a table of 1024 slots
 * (512 groups), in 8 passes, one partition of the key hash's high word
 * each (gx_chunk_ext.gpart_mask / gpart_value).  Each pass's table must
 * hold the groups of its partition alone, with their count(*) and float
 * sum, and fill up in none; the rows with a NaN input (the host's) must
 * be selected by the first pass alone (the others: GX_GROUP_SKIP_HOST).
 * GROUP_READ with GX_GROUP_DISCARD empties a table and copies nothing;
 * the validator refuses a mask that is not 2^d - 1, a value outside it.
 */
static void
test_group_passes(void)
{
	std::mt19937_64 rng(1717);
	const uint32_t cap = 1024;
	const uint32_t n = 20000;
	const uint32_t groups = 3000;
	const uint32_t npart = 8;
	const uint64_t sb = gx_group_slot_bytes(1, 2);
	const uint64_t hdr = GX_ALIGN_UP(sizeof(gx_chunk));
	const uint64_t rbytes = hdr + GX_ALIGN_UP(sizeof(gx_result)) + cap * sb;
	std::vector<uint64_t> table((sizeof(gx_group_hdr) + cap * sb) / 8 + 1, 0);
	std::vector<uint64_t> rbuf(rbytes / 8 + 1, 0);
	std::vector<int64_t> k(n);
	std::vector<double> f(n);
	std::vector<uint8_t> fn(n, 0);
	std::map<int64_t, std::pair<int64_t, double>> want,
				got;
	uint32_t	nhost = 0;
	ChunkBuilder b;
	gx_task_ctx ctx;
	char		err[256];

	for (uint32_t r = 0; r < n; r++)
	{
		k[r] = (int64_t) (rng() % groups);
		f[r] = r % 97 == 0 ? NAN : (double) (rng() % 1000);
		if (std::isnan(f[r]))
		{
			nhost++;
			continue;
		}
		want[k[r]].first++;
		want[k[r]].second += f[r];
	}
	int			kc = b.add_int_col(GX_INT8, k);
	int			fc = b.add_float_col(GX_FLOAT8, f, fn);
	gx_chunk   *c = build_group_out_task(b, kc, {{fc, GX_FLOAT8}}, cap, 2);

	c->ext.agg[0] = gx_agg {GX_AGG_COUNT, -1, 0, 0};
	c->ext.agg[1] = gx_agg {GX_AGG_FSUM, 1, 0, 0};
	c->ext.gpart_mask = npart - 1;
	memset(&ctx, 0, sizeof(ctx));
	ctx.obj[0] = (char *) table.data();
	ctx.obj_bytes[0] = table.size() * 8;

	std::vector<char> good((const char *) c, (const char *) c + b.capacity);
	gx_chunk   *rd = (gx_chunk *) rbuf.data();

	/* a GROUP_READ of the whole table (discard: copy nothing) */
	auto		read_table = [&](bool discard) -> const gx_result *
	{
		memset(rd, 0, hdr + sizeof(gx_result));
		rd->magic = GX_CHUNK_MAGIC;
		rd->kind = GX_TASK_GROUP_READ;
		rd->obj[0] = 1;
		rd->nrows = cap;
		rd->input_bytes = hdr;
		rd->result_off = hdr;
		rd->ext.entry = -1;
		rd->ext.ngroup_cap = cap;
		rd->ext.ngroup_limit = cap / 2;
		rd->ext.ngkeys = 1;
		rd->ext.nagg = 2;
		rd->ext.gflags = discard ? GX_GROUP_DISCARD : 0;
		CHECK(gx_cpu_run(rd, discard ? hdr + gx_result_bytes(0) : rbytes, &ctx,
						 err, sizeof(err)) == GX_OK, "group passes: read: %s", err);
		return gx_chunk_result(rd);
	};

	for (uint32_t v = 0; v < npart; v++)
	{
		memcpy(c, good.data(), b.capacity);
		c->ext.gpart_value = v;
		c->ext.gflags = v == 0 ? 0 : GX_GROUP_SKIP_HOST;
		CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK, "group passes: %s", err);
		CHECK(gx_chunk_result(c)->nsel == (v == 0 ? nhost : 0) &&
			  !(gx_chunk_result(c)->flags & GX_RESULT_FULL),
			  "group passes %u: %u rows to the host (want %u), flags %x", v,
			  gx_chunk_result(c)->nsel, v == 0 ? nhost : 0, gx_chunk_result(c)->flags);

		const gx_result *res = read_table(false);
		const char *rec = (const char *) res + GX_ALIGN_UP(sizeof(gx_result));

		for (uint32_t i = 0; i < res->nsel; i++, rec += sb)
		{
			gx_gkey		key = {};
			const gx_agg_pair *p = (const gx_agg_pair *) (rec + 16);

			key.k[0] = ((const int64_t *) rec)[1];
			CHECK(((uint32_t) (gx_gkey_hash(&key, 1) >> 32) & (npart - 1)) == v &&
				  got.count(key.k[0]) == 0,
				  "group passes %u: key %lld of another partition, or twice", v,
				  (long long) key.k[0]);
			got[key.k[0]] = {p[0].cnt, gx_bitsd(p[1].val)};
		}
		CHECK(((const gx_group_hdr *) table.data())->used == 0, "group passes %u: read empties", v);
	}
	CHECK(got == want, "group passes: %zu groups in %u passes, want %zu with their count and sum",
		  got.size(), npart, want.size());

	/* a pass run again: its table emptied without a copy */
	memcpy(c, good.data(), b.capacity);
	CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK, "group passes: %s", err);
	CHECK(read_table(true)->nsel == 0 && read_table(false)->nsel == 0,
		  "group passes: a discarding read leaves an empty table");

#define PMUTATE(what, stmt) \
	do { \
		memcpy(c, good.data(), b.capacity); \
		stmt; \
		expect_invalid(c, b.capacity, &ctx, (what)); \
	} while (0)
	PMUTATE("a partition mask not 2^d - 1", c->ext.gpart_mask = 5);
	PMUTATE("a partition outside its mask", c->ext.gpart_value = npart);
	PMUTATE("an unknown group flag", c->ext.gflags = GX_GROUP_DISCARD);
#undef PMUTATE
	printf("group passes: %zu groups in %u passes, %u host rows in the first alone\n",
		   got.size(), npart, nhost);
}

/*
 * GROUP_MERGE (CPU device; where: the caller alone, or the pool): for each
 * case of gm_cases (gx_test.h), rows into tables A and B (group-mode
 * tasks), then B merged into A in ranges of its slots: A's groups and the
 * records of the groups without room are, each group once, the reference
 * over both tables' rows (counts, 128-bit sums with INT64_MAX counted
 * apart, min / max, float sums and Sxx across two shifts, a FILTER's count,
 * NULL keys); a group without room only when A is full; B unchanged (the
 * source is only read); counted only: no record, the same counts.  Then
 * the validator's refusals.
 */
static void
test_group_merge(const char *where)
{
	std::mt19937_64 rng(2121);
	char		err[256];
	int			ncases = 0;

	for (const GmCase &tc : gm_cases)
	{
		const uint64_t tbytes = gx_group_table_bytes(tc.cap, 1, GM_NAGG);
		std::vector<uint64_t> ta(tbytes / 8 + 1, 0),
					tb(tbytes / 8 + 1, 0);
		GmRows		ra = gm_rows(rng, tc.rows_a, tc.a0, tc.na, 1e6),
					rb = gm_rows(rng, tc.rows_b, tc.b0, tc.nb, 1e6 + 5000);
		GmMap		want,
					got,
					gb;
		gx_task_ctx ctx;
		uint32_t	na,
					nb,
					nsel = 0,
					step = (tc.cap + tc.ranges - 1) / tc.ranges;
		uint64_t	merged = 0,
					noroom = 0;
		bool		full = false,
					once = true;
		std::string why;
		char		what[160];

		snprintf(what, sizeof(what), "group merge, %s (%s)", tc.name, where);
		memset(&ctx, 0, sizeof(ctx));
		for (int t = 0; t < 2; t++)
		{
			ChunkBuilder b;
			const GmRows &r = t == 0 ? ra : rb;

			if (r.k.empty())
				continue;
			gx_chunk   *c = gm_task(b, r, tc.cap);

			ctx.obj[0] = (char *) (t == 0 ? ta : tb).data();
			ctx.obj_bytes[0] = tbytes;
			CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK &&
				  gx_chunk_result(c)->nsel == 0, "%s: table %c: %s", what, 'A' + t, err);
		}
		gm_ref_add(want, ra);
		gm_ref_add(want, rb);
		CHECK(gm_table_groups((const char *) tb.data(), tc.cap, gb, &nb), "%s: B", what);

		std::vector<uint64_t> b_before(tb);
		std::vector<uint64_t> mem(gm_merge_bytes(step) / 8 + 1);

		ctx.obj[0] = (char *) ta.data();
		ctx.obj[1] = (char *) tb.data();
		ctx.obj_bytes[1] = tbytes;
		for (uint32_t row0 = 0; row0 < tc.cap; row0 += step)
		{
			uint32_t	n = std::min(step, tc.cap - row0);
			gx_chunk   *c = gm_merge_task(mem.data(), tc.cap, row0, n, tc.count_only);
			const gx_result *res = gx_chunk_result(c);

			CHECK(gx_cpu_run(c, gm_merge_bytes(n), &ctx, err, sizeof(err)) == GX_OK,
				  "%s: merge: %s", what, err);
			CHECK(res->error == GX_NO_ERROR && res->nsel == (tc.count_only ? 0 : res->join_noroom) &&
				  ((res->flags & GX_RESULT_FULL) != 0) == (res->join_noroom > 0),
				  "%s: merge at %u: %u records, %llu without room, flags %x", what, row0,
				  res->nsel, (unsigned long long) res->join_noroom, res->flags);
			once &= gm_records(c, got);
			nsel += res->nsel;
			merged += res->join_count;
			noroom += res->join_noroom;
			full |= (res->flags & GX_RESULT_FULL) != 0;
		}
		once &= gm_table_groups((const char *) ta.data(), tc.cap, got, &na);
		CHECK(once, "%s: a group came back twice", what);
		CHECK(merged + noroom == nb, "%s: %llu merged + %llu without room, B has %u groups",
			  what, (unsigned long long) merged, (unsigned long long) noroom, nb);
		CHECK(tb == b_before, "%s: the source changed", what);
		CHECK(noroom == 0 || na == tc.cap / 2, "%s: groups without room, A holds %u", what, na);
		if (tc.count_only)
			CHECK(nsel == 0 && noroom > 0, "%s: %u records, %llu without room", what, nsel,
				  (unsigned long long) noroom);
		else
			CHECK(gm_same(want, got, &why), "%s: %s", what, why.c_str());
		CHECK(full == (want.size() > tc.cap / 2),
			  "%s: %zu groups in all, limit %u, full %d", what, want.size(), tc.cap / 2, full);
		ncases++;
	}

	/* malformed merges are refused */
	{
		const uint32_t cap = 1024;
		const uint64_t tbytes = gx_group_table_bytes(cap, 1, GM_NAGG);
		std::vector<uint64_t> ta(tbytes / 8 + 1, 0),
					tb(tbytes / 8 + 1, 0);
		std::vector<uint64_t> mem(gm_merge_bytes(cap) / 8 + 1);
		gx_task_ctx ctx;
		gx_chunk   *c = (gx_chunk *) mem.data();

		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = (char *) ta.data();
		ctx.obj[1] = (char *) tb.data();
		ctx.obj_bytes[0] = ctx.obj_bytes[1] = tbytes;
#define GMUTATE(what, stmt) \
	do { \
		gx_task_ctx mctx = ctx; \
		gm_merge_task(c, cap, 0, cap, 0); \
		stmt; \
		expect_invalid(c, gm_merge_bytes(cap), &mctx, (what)); \
	} while (0)
		GMUTATE("merge of a table into itself", mctx.obj[1] = mctx.obj[0]);
		GMUTATE("merge of overlapping tables", mctx.obj[1] = mctx.obj[0] + 64);
		GMUTATE("merge without a source", mctx.obj[1] = NULL);
		GMUTATE("merge without a destination", mctx.obj[0] = NULL);
		GMUTATE("merge into a smaller table", mctx.obj_bytes[0] = tbytes - 8);
		GMUTATE("merge of slots past the table", c->ext.row0 = 1);
		GMUTATE("merge of a table not a power of 2", c->ext.ngroup_cap = 1000);
		GMUTATE("merge above half the slots", c->ext.ngroup_limit = cap / 2 + 1);
		GMUTATE("merge with group flags", c->ext.gflags = GX_GROUP_DISCARD);
		GMUTATE("merge with no room for its records", c->result_off += 64);
		GMUTATE("merge of an FVAR without its parts", c->ext.agg[7].op = GX_AGG_SUM);
		GMUTATE("merge of a 128-bit sum without its high word", c->ext.agg[2].op = GX_AGG_COUNT);
		GMUTATE("merge of a count of a later aggregate", c->ext.agg[3].cnt_of = 5);
		GMUTATE("merge of an unknown aggregate", c->ext.agg[0].op = 99);
		GMUTATE("merge of too many aggregates", c->ext.nagg = GX_MAX_AGGS + 1);
#undef GMUTATE
		/* a merge that names no slot, of an empty source, changes nothing */
		gm_merge_task(c, cap, cap, 0, 0);
		CHECK(gx_cpu_run(c, gm_merge_bytes(0), &ctx, err, sizeof(err)) == GX_OK &&
			  gx_chunk_result(c)->nsel == 0 && gx_chunk_result(c)->join_count == 0,
			  "group merge of no slot: %s", err);
	}
	printf("group merge (%s): %d cases, every group once, as the reference\n", where, ncases);
}

/*
 * Exact stddev / variance of integers in group mode (CPU device): the
 * task of build_exact_var_task (gx_test.h).  A row whose y * y overflows
 * must go to the host (the numeric MUL's GX_ERR_HOST) and add nowhere;
 * every other row's values must be in its group's exact 128-bit sums of
 * x (an int4 output), x * x, y * y and y.  The validator refuses a
 * 128-bit sum of a float output.
 */
static void
test_group_exact_var(void)
{
	std::mt19937_64 rng(1616);
	const uint32_t cap = 1024;
	const uint64_t sb = gx_group_slot_bytes(1, 8);
	std::vector<uint64_t> table((sizeof(gx_group_hdr) + cap * sb) / 8 + 1, 0);
	std::map<int64_t, ExactVarRef> want;
	std::vector<uint32_t> host;
	ChunkBuilder b;
	gx_task_ctx ctx;
	char		err[256];
	gx_chunk   *c = build_exact_var_task(b, rng, 30000, 5, cap, &host, &want);

	memset(&ctx, 0, sizeof(ctx));
	ctx.obj[0] = (char *) table.data();
	ctx.obj_bytes[0] = table.size() * 8;

	std::vector<char> good((const char *) c, (const char *) c + b.capacity);

	CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK, "group exact var: %s", err);
	CHECK(gx_chunk_result(c)->nsel == host.size() && gx_chunk_result(c)->error == GX_NO_ERROR &&
		  (gx_chunk_result(c)->flags & GX_RESULT_HOST) != 0,
		  "group exact var: %u rows to the host, want %zu (flagged)", gx_chunk_result(c)->nsel,
		  host.size());

	size_t		seen = 0;

	for (uint32_t i = 0; i < cap; i++)
	{
		const char *slot = (const char *) table.data() + sizeof(gx_group_hdr) + i * sb;
		const gx_agg_pair *p = (const gx_agg_pair *) (slot + 16);
		int64_t		key = ((const int64_t *) slot)[1];
		__int128	got[4];

		if (*(const uint32_t *) slot != GX_GSLOT_READY)
			continue;
		seen++;
		if (want.count(key) == 0)
		{
			CHECK(false, "group exact var: unknown key %lld", (long long) key);
			continue;
		}
		const ExactVarRef &w = want[key];

		for (int a = 0; a < 4; a++)
			got[a] = (__int128) (((unsigned __int128) (uint64_t) p[2 * a + 1].val << 64) |
								 (uint64_t) p[2 * a].val);
		CHECK(p[0].cnt == w.nx && p[2].cnt == w.nx && p[4].cnt == w.ny && p[6].cnt == w.ny &&
			  p[1].cnt == 0 && p[3].cnt == 0 && p[5].cnt == 0 && p[7].cnt == 0,
			  "group exact var %lld: counts %lld %lld %lld %lld, want %lld %lld", (long long) key,
			  (long long) p[0].cnt, (long long) p[2].cnt, (long long) p[4].cnt,
			  (long long) p[6].cnt, (long long) w.nx, (long long) w.ny);
		CHECK(got[0] == w.sx && got[1] == w.sx2 && got[2] == w.sy2 && got[3] == w.sy,
			  "group exact var %lld: 128-bit sums of x, x*x, y*y, y differ", (long long) key);
	}
	CHECK(seen == want.size(), "group exact var: %zu groups, want %zu", seen, want.size());

	memcpy(c, good.data(), b.capacity);
	c->code[5].type = GX_FLOAT8;	/* (x's output as a float8) */
	expect_invalid(c, b.capacity, &ctx, "128-bit sum of a float output");
	printf("group exact var: %zu groups, %zu host rows: 128-bit sums of int4, squares agree\n",
		   seen, host.size());
}

/* numeric varlenas on heap pages, deformed by the CPU device */
static void
test_numeric_pages(void)
{
	std::mt19937_64 rng(999);

	for (int round = 0; round < 6; round++)
	{
		ChunkBuilder ref;
		uint64_t	cap;
		uint32_t	n = round == 0 ? 1 : 500 + (uint32_t) (rng() % 4000);
		gx_chunk   *pc = build_numeric_pages(ref, rng, n, &cap, round >= 4);
		gx_chunk   *rc = (gx_chunk *) ref.mem;
		char		err[256];
		bool		ok1,
					ok2;

		CHECK(gx_cpu_run(pc, cap, nullptr, err, sizeof(err)) == GX_OK, "numeric pages: %s", err);
		CHECK(gx_cpu_run(rc, ref.capacity, nullptr, err, sizeof(err)) == GX_OK,
			  "numeric columns: %s", err);
		CHECK(gx_chunk_result(pc)->error == GX_NO_ERROR, "numeric pages: error %llx",
			  (unsigned long long) gx_chunk_result(pc)->error);
		std::vector<uint32_t> ps = concat_sel(pc, &ok1);
		std::vector<uint32_t> rs = concat_sel(rc, &ok2);

		CHECK(ok1 && ok2 && ps == rs && !rs.empty(),
			  "numeric pages select the rows of their columns (%zu, %zu)", ps.size(), rs.size());
		/* the deformed values and NULLs are the columns' */
		int			bad = 0;

		for (uint32_t r = 0; r < n; r++)
			for (int col = 0; col < 2; col++)
			{
				gx_reg		x,
							y;

				gx_load_col((const char *) pc, &pc->cols[col], r, &x);
				gx_load_col((const char *) rc, &rc->cols[col], r, &y);
				if (x.isnull != y.isnull || (!x.isnull && x.v.i != y.v.i))
					bad++;
			}
		CHECK(bad == 0, "numeric pages: %d values differ from the columns", bad);

		/* a numeric whose digits go beyond its column's scale: a bad page */
		pc->cols[0].scale = 1;
		CHECK(gx_cpu_run(pc, cap, nullptr, err, sizeof(err)) == GX_OK &&
			  (gx_chunk_result(pc)->error & 0xff) == GX_ERR_BAD_PAGE,
			  "numeric beyond its scale: bad page");
		free(pc);
	}
}

/* ---------------------------------------------------------------------- */
/* bpchar (GX_CHAR8)                                                      */
/* ---------------------------------------------------------------------- */

/* packing, = <> = ANY on columns with NULLs, the instructions it takes */
static void
test_char8(void)
{
	int64_t		v = -1;
	auto		pack = [&](const std::string &s) {
		v = -1;
		return gx_char8_pack((const uint8_t *) s.data(), (uint32_t) s.size(), &v);
	};

	/* packing: trailing spaces go, byte i at bits 8i, zero-padded */
	CHECK(pack("R") == 0 && v == 'R', "pack R");
	CHECK(pack("R   ") == 0 && v == 'R', "pack R with trailing spaces");
	CHECK(pack("") == 0 && v == 0 && pack("    ") == 0 && v == 0, "empty and blank are 0");
	CHECK(pack(" a") == 0 && v == (' ' | ('a' << 8)), "leading space kept");
	CHECK(pack("a b ") == 0 && v == ('a' | (' ' << 8) | ('b' << 16)), "inner space kept");
	CHECK(pack("12345678") == 0 && v == 0x3837363534333231LL, "8 bytes");
	CHECK(pack("12345678        ") == 0 && v == 0x3837363534333231LL, "8 bytes and spaces");
	CHECK(pack("123456789") == 1, "9 bytes do not fit");
	CHECK(pack("\xff\xff\xff\xff\xff\xff\xff\xff") == 0 && v == -1, "high bytes: a negative int64");
	CHECK(pack("\xc3\xa9") == 0 && v == 0xa9c3, "UTF-8 bytes in order");
	for (size_t i = 0; i < CHAR8_POOL; i++)
		for (size_t j = 0; j < CHAR8_POOL; j++)
		{
			int64_t		a,
						b;
			std::string x = char8_pool[i],
						y = char8_pool[j];

			gx_char8_pack((const uint8_t *) x.data(), (uint32_t) x.size(), &a);
			gx_char8_pack((const uint8_t *) y.data(), (uint32_t) y.size(), &b);
			CHECK((a == b) == (char8_trim(x) == char8_trim(y)) && a == char8_ref(x),
				  "char8 equality is bpchareq's: '%s' '%s'", x.c_str(), y.c_str());
		}

	/* programs on columns: f = 'R', f <> g, f = ANY ({"", "ab", NULL}) */
	{
		std::vector<std::string> fs = {"R", "R  ", "", "A", "ab", " ", "x", "R"};
		std::vector<std::string> gs = {"R ", "a", " ", "A", "ab  ", "", "y", "R"};
		std::vector<uint8_t> fn = {0, 0, 0, 0, 0, 0, 0, 1};
		std::vector<uint8_t> gn = {0, 0, 0, 0, 0, 0, 1, 0};
		std::vector<int64_t> fv,
					gv;

		for (size_t i = 0; i < fs.size(); i++)
		{
			fv.push_back(char8_ref(fs[i]));
			gv.push_back(char8_ref(gs[i]));
		}
		for (int prog = 0; prog < 4; prog++)
		{
			ChunkBuilder b;
			int			cf = b.add_int_col(GX_CHAR8, fv, fn);
			int			cg = b.add_int_col(GX_CHAR8, gv, gn);
			char		err[256];

			b.emit(GX_OP_LDCOL, GX_CHAR8, 0, 0, 0, cf);
			if (prog == 0)
			{
				b.emit(GX_OP_LDCONST, GX_CHAR8, 1, 0, 0, b.kint(GX_CHAR8, char8_ref("R")));
				b.emit(GX_OP_EQ, GX_CHAR8, 0, 0, 1);
			}
			else if (prog == 1)
			{
				b.emit(GX_OP_LDCOL, GX_CHAR8, 1, 0, 0, cg);
				b.emit(GX_OP_NE, GX_CHAR8, 0, 0, 1);
			}
			else
			{
				/* the run: "" < "ab" as int64s; prog 3 with a NULL element */
				int			k = b.kint(GX_INT8, 2);

				b.kint(GX_INT8, prog == 3 ? GX_RUN_HAS_NULL : 0);
				b.kint(GX_CHAR8, char8_ref(""));
				b.kint(GX_CHAR8, char8_ref("ab"));
				b.emit(GX_OP_INSET, GX_CHAR8, 0, 0, 0, k);
				if (prog == 3)
					b.emit(GX_OP_NOT, GX_BOOL, 0, 0);
			}
			b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
			gx_chunk   *c = b.build();

			CHECK(gx_cpu_run(c, b.capacity, nullptr, err, sizeof(err)) == GX_OK &&
				  gx_chunk_result(c)->error == GX_NO_ERROR,
				  "char8 program %d runs on the CPU device: %s", prog, err);
			for (uint32_t r = 0; r < fs.size(); r++)
			{
				int			e;
				int			got = eval(c, r, &e);
				bool		want;
				std::string f = char8_trim(fs[r]),
							g = char8_trim(gs[r]);

				if (prog == 0)
					want = !fn[r] && f == "R";
				else if (prog == 1)
					want = !fn[r] && !gn[r] && f != g;
				else if (prog == 2)
					want = !fn[r] && (f == "" || f == "ab");
				else
					want = false;	/* NOT (x = ANY {.., NULL}): false or NULL */
				CHECK(e == GX_ERR_NONE && got == (int) want,
					  "char8 program %d row %u: got %d, want %d", prog, r, got, (int) want);
			}
		}
	}

	/* the validator refuses an order comparison of char8 values */
	{
		ChunkBuilder b;
		int			cf = b.add_int_col(GX_CHAR8, {char8_ref("A"), char8_ref("B")});
		char		err[256];

		b.emit(GX_OP_LDCOL, GX_CHAR8, 0, 0, 0, cf);
		b.emit(GX_OP_LDCONST, GX_CHAR8, 1, 0, 0, b.kint(GX_CHAR8, char8_ref("B")));
		b.emit(GX_OP_LT, GX_CHAR8, 0, 0, 1);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
		gx_chunk   *c = b.build();

		CHECK(gx_cpu_run(c, b.capacity, nullptr, err, sizeof(err)) == GX_INVALID,
			  "char8 < is refused by the validator");
	}

	/* instructions: = <> = ANY and loads; no order, arithmetic or casts */
	{
		gx_instr	in;

		memset(&in, 0, sizeof(in));
		in.type = GX_CHAR8;
		for (int op : {GX_OP_LDCOL, GX_OP_LDCONST, GX_OP_EQ, GX_OP_NE})
		{
			in.op = op;
			CHECK(gx_instr_args_ok(&in, 8), "char8 op %d is allowed", op);
		}
		for (int op : {GX_OP_LT, GX_OP_LE, GX_OP_GT, GX_OP_GE, GX_OP_ADD, GX_OP_SUB, GX_OP_MUL,
					   GX_OP_DIV, GX_OP_MOD, GX_OP_NEG, GX_OP_CAST, GX_OP_CMPDT, GX_OP_INRANGES})
		{
			in.op = op;
			CHECK(!gx_instr_args_ok(&in, 8), "char8 op %d is refused", op);
		}
		in.op = GX_OP_CAST;
		in.type = GX_INT8;
		in.arg = GX_CHAR8;
		CHECK(!gx_instr_args_ok(&in, 8), "no cast from char8");
		CHECK(gx_type_width(GX_CHAR8) == 8, "char8 is 8 bytes");
	}
}

/* bpchar varlenas on heap pages, deformed by the CPU device */
static void
test_char8_pages(void)
{
	std::mt19937_64 rng(4242);

	for (int round = 0; round < 6; round++)
	{
		ChunkBuilder ref;
		uint64_t	cap;
		uint32_t	n = round == 0 ? 1 : 500 + (uint32_t) (rng() % 4000);
		std::vector<int> want;
		gx_chunk   *pc = build_char8_pages(ref, rng, n, &cap, want);
		gx_chunk   *rc = (gx_chunk *) ref.mem;
		char		err[256];
		bool		ok1,
					ok2;
		std::vector<uint32_t> ws;

		for (uint32_t r = 0; r < n; r++)
			if (want[r])
				ws.push_back(r);
		CHECK(gx_cpu_run(pc, cap, nullptr, err, sizeof(err)) == GX_OK, "char8 pages: %s", err);
		CHECK(gx_cpu_run(rc, ref.capacity, nullptr, err, sizeof(err)) == GX_OK,
			  "char8 columns: %s", err);
		CHECK(gx_chunk_result(pc)->error == GX_NO_ERROR, "char8 pages: error %llx",
			  (unsigned long long) gx_chunk_result(pc)->error);
		std::vector<uint32_t> ps = concat_sel(pc, &ok1);
		std::vector<uint32_t> rs = concat_sel(rc, &ok2);

		CHECK(ok1 && ok2 && ps == rs && rs == ws && (n == 1 || !rs.empty()),
			  "char8 pages select the rows bpchareq selects (%zu, %zu, want %zu)", ps.size(),
			  rs.size(), ws.size());
		int			bad = 0;

		for (uint32_t r = 0; r < n; r++)
			for (int col = 0; col < 2; col++)
			{
				gx_reg		x,
							y;

				gx_load_col((const char *) pc, &pc->cols[col], r, &x);
				gx_load_col((const char *) rc, &rc->cols[col], r, &y);
				if (x.isnull != y.isnull || (!x.isnull && x.v.i != y.v.i))
					bad++;
			}
		CHECK(bad == 0, "char8 pages: %d values differ from the columns", bad);
		free(pc);
	}
	/* the validator: a GX_CHAR8 column reads a varlena attribute only */
	{
		ChunkBuilder ref;
		uint64_t	cap;
		std::vector<int> want;
		gx_chunk   *pc = build_char8_pages(ref, rng, 100, &cap, want);
		gx_deform_hdr *d = gx_chunk_deform(pc);
		char		err[256];

		d->atts[1].attlen = 8;
		CHECK(gx_cpu_run(pc, cap, nullptr, err, sizeof(err)) == GX_INVALID,
			  "char8 column of a fixed-width attribute is refused");
		d->atts[1].attlen = -1;
		d->atts[1].fixed_off = 4;
		CHECK(gx_cpu_run(pc, cap, nullptr, err, sizeof(err)) == GX_INVALID,
			  "char8 column with a fixed offset is refused");
		d->atts[1].fixed_off = -1;
		CHECK(gx_cpu_run(pc, cap, nullptr, err, sizeof(err)) == GX_OK,
			  "char8 pages valid again: %s", err);
		free(pc);
	}
	/* a stored value of 9 bytes: no GX_CHAR8 value, a bad page */
	{
		ChunkBuilder ref;
		uint64_t	cap;
		std::vector<int> want;
		gx_chunk   *pc = build_char8_pages(ref, rng, 300, &cap, want, true);
		char		err[256];

		CHECK(gx_cpu_run(pc, cap, nullptr, err, sizeof(err)) == GX_OK &&
			  (gx_chunk_result(pc)->error & 0xff) == GX_ERR_BAD_PAGE,
			  "char8 of 9 bytes: bad page");
		free(pc);
	}
}

/* run a task on the CPU device (its slot: the builder's bytes) */
static gx_status
run_cpu(gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx = nullptr)
{
	char		err[256];

	return gx_cpu_run(c, slot_bytes, ctx, err, sizeof(err));
}

/*
 * The result layout of filter tasks, on the calling thread alone (before
 * gx_cpu_open) or on the pool (pooled).
 */
static void
test_cpu_layout(bool pooled)
{
	const int	nthreads = pooled ? 4 : 1;	/* for the messages */

	const uint32_t N = 100000;
	std::mt19937_64 rng(12345);
	std::vector<int64_t> a(N);
	std::vector<double> f(N);
	std::vector<uint8_t> fnull(N), anull(N);

	for (uint32_t i = 0; i < N; i++)
	{
		a[i] = (int64_t) (rng() % 200) - 100;
		f[i] = (double) (rng() % 1000000) / 1e6;
		fnull[i] = rng() % 10 == 0;
		anull[i] = rng() % 17 == 0;
	}

	/* a < 50 AND (f > 0.5 OR f IS NULL) */
	ChunkBuilder b;
	int			ca = b.add_int_col(GX_INT4, a, anull);
	int			cf = b.add_float_col(GX_FLOAT8, f, fnull);
	int			k50 = b.kint(GX_INT4, 50);
	int			kh = b.kfloat(GX_FLOAT8, 0.5);

	b.emit(GX_OP_SETBOOL, GX_BOOL, 0, 0, 0, 1);	/* 0 acc and */
	b.emit(GX_OP_LDCOL, GX_INT4, 1, 0, 0, ca);	/* 1 */
	b.emit(GX_OP_LDCONST, GX_INT4, 2, 0, 0, k50);	/* 2 */
	b.emit(GX_OP_LT, GX_INT4, 3, 1, 2);	/* 3 */
	b.emit(GX_OP_ANDSTEP, GX_BOOL, 0, 3, 0, 0, 13);	/* 4 */
	b.emit(GX_OP_SETBOOL, GX_BOOL, 4, 0, 0, 0);	/* 5 acc or */
	b.emit(GX_OP_LDCOL, GX_FLOAT8, 5, 0, 0, cf);	/* 6 */
	b.emit(GX_OP_LDCONST, GX_FLOAT8, 6, 0, 0, kh);	/* 7 */
	b.emit(GX_OP_GT, GX_FLOAT8, 7, 5, 6);	/* 8 */
	b.emit(GX_OP_ORSTEP, GX_BOOL, 4, 7, 0, 0, 12);	/* 9 */
	b.emit(GX_OP_ISNULL, GX_BOOL, 8, 5);	/* 10 */
	b.emit(GX_OP_ORSTEP, GX_BOOL, 4, 8, 0, 0, 12);	/* 11 */
	b.emit(GX_OP_ANDSTEP, GX_BOOL, 0, 4, 0, 0, 13);	/* 12 */
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);	/* 13 */

	std::vector<uint32_t> want;

	for (uint32_t i = 0; i < N; i++)
		if (!anull[i] && a[i] < 50 && (fnull[i] || f[i] > 0.5))
			want.push_back(i);

	{
		gx_chunk   *c = b.build();
		gx_result  *res = gx_chunk_result(c);

		CHECK(run_cpu(c, b.capacity) == GX_OK, "run ok");
		CHECK(res->error == GX_NO_ERROR, "no error (%d threads)", nthreads);
		CHECK(res->nsel == want.size(), "nsel %u want %zu (%d threads)", res->nsel, want.size(), nthreads);
		bool		ok;
		std::vector<uint32_t> got = concat_sel(c, &ok);

		CHECK(ok, "segment layout (%d threads)", nthreads);
		CHECK(got == want, "selection in row order (%d threads)", nthreads);
		if (!pooled)
		{
			/* one thread: tiles in order, so sel itself is sorted */
			uint32_t   *sel = gx_result_sel(res);

			CHECK(std::vector<uint32_t>(sel, sel + res->nsel) == want, "1 thread: dense sel");
		}
	}

	/* the CPU device ignores the transfer mode and says it ran on the CPU */
	{
		gx_chunk   *c = b.build();
		gx_result  *res = gx_chunk_result(c);

		c->flags = GX_CHUNK_MAPPED;
		res->flags = ~0u;
		CHECK(run_cpu(c, b.capacity) == GX_OK, "run ok (mapped asked)");
		bool		ok;
		std::vector<uint32_t> got = concat_sel(c, &ok);

		CHECK(ok && got == want, "mapped asked: same selection on the CPU device");
		CHECK(res->flags == 0, "CPU device result flags %x", res->flags);
		CHECK(res->bytes_h2d == 0 && res->bytes_d2h == 0 && res->h2d_ns == 0 && res->d2h_ns == 0,
			  "CPU device moves no bytes");
	}

	/* errors: 1000 / b where b has zeros at a few rows; error = min row */
	{
		std::vector<int64_t> d(N);

		for (uint32_t i = 0; i < N; i++)
			d[i] = (int64_t) (rng() % 1000) + 1;
		const uint32_t zeros[] = {98765, 4321, 77777, 4400};

		for (uint32_t z : zeros)
			d[z] = 0;
		std::vector<uint8_t> dnull(N, 0);

		dnull[100] = 1;			/* a NULL divisor raises nothing */
		ChunkBuilder b2;
		int			cd = b2.add_int_col(GX_INT8, d, dnull);
		int			k1000 = b2.kint(GX_INT8, 1000);
		int			k10 = b2.kint(GX_INT8, 10);

		b2.emit(GX_OP_LDCONST, GX_INT8, 0, 0, 0, k1000);
		b2.emit(GX_OP_LDCOL, GX_INT8, 1, 0, 0, cd);
		b2.emit(GX_OP_DIV, GX_INT8, 2, 0, 1);
		b2.emit(GX_OP_LDCONST, GX_INT8, 3, 0, 0, k10);
		b2.emit(GX_OP_GT, GX_INT8, 4, 2, 3);
		b2.emit(GX_OP_QUAL, GX_BOOL, 0, 4);

		{
			gx_chunk   *c = b2.build();
			gx_result  *res = gx_chunk_result(c);

			CHECK(run_cpu(c, b2.capacity) == GX_OK, "run ok");
			CHECK(res->error == (((uint64_t) 4321 << 8) | GX_ERR_DIV_ZERO),
				  "error word %llx (%d threads)", (unsigned long long) res->error, nthreads);
			bool		ok;
			std::vector<uint32_t> got = concat_sel(c, &ok);

			CHECK(ok, "error run: segment layout (%d threads)", nthreads);
			/* the erroring tile keeps only rows before the error */
			uint32_t	et = 4321 / GX_TILE_ROWS;
			bool		tile_ok = true;

			for (uint32_t r : got)
				if (r / GX_TILE_ROWS == et && r >= 4321)
					tile_ok = false;
			CHECK(tile_ok, "no row after the error selected in its tile");
			size_t		before = 0;

			for (uint32_t r : got)
				if (r < 4321)
					before++;
			size_t		want_before = 0;

			for (uint32_t i = 0; i < 4321; i++)
				if (!dnull[i] && 1000 / d[i] > 10)
					want_before++;
			CHECK(before == want_before, "rows before the error all selected");
		}
	}

	/* empty chunk */
	{
		ChunkBuilder b3;

		b3.emit(GX_OP_SETBOOL, GX_BOOL, 0, 0, 0, 1);
		b3.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
		gx_chunk   *c = b3.build();

		CHECK(run_cpu(c, b3.capacity) == GX_OK && gx_chunk_result(c)->nsel == 0 &&
			  gx_chunk_result(c)->ntiles == 0 && gx_chunk_result(c)->error == GX_NO_ERROR,
			  "empty chunk");
		c->magic = 0;
		CHECK(run_cpu(c, b3.capacity) == GX_INVALID, "bad magic rejected");
	}
}

/* ---------------------------------------------------------------------- */
/* memory, aggregates, validation, cache scans, the thread pool           */
/* ---------------------------------------------------------------------- */

/* threads of this process */
static int
count_threads(void)
{
	DIR		   *d = opendir("/proc/self/task");
	struct dirent *e;
	int			n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* CPU memory is zeroed heap memory; this build has no GPU */
static void
test_mem(void)
{
	char		err[256];
	void	   *p = (void *) 1;

	CHECK(gx_mem_alloc(GX_DEV_CPU, 4096, &p, err, sizeof(err)) == GX_OK && p != NULL,
		  "gx_mem_alloc(CPU): %s", err);
	if (p)
	{
		bool		zero = true;

		for (int i = 0; i < 4096; i++)
			zero &= ((char *) p)[i] == 0;
		CHECK(zero, "CPU memory is zeroed");
		gx_mem_free(GX_DEV_CPU, p);
	}
	CHECK(gx_mem_alloc(GX_DEV_CPU, 0, &p, err, sizeof(err)) == GX_INVALID, "0 bytes refused");
	CHECK(gx_mem_alloc(GX_DEV_GPU + GX_MAX_GPUS, 16, &p, err, sizeof(err)) == GX_INVALID,
		  "unknown device refused");
	CHECK(gx_mem_alloc(GX_DEV_GPU, 16, &p, err, sizeof(err)) == GX_NO_CUDA && p == NULL,
		  "no GPU memory without CUDA");
	CHECK(gx_mem_alloc(GX_DEV_GPU + 1, 16, &p, err, sizeof(err)) == GX_NO_CUDA && p == NULL,
		  "no second GPU's memory without CUDA");
	CHECK(gx_gpu_built() == 0, "CPU-only build");
	{
		int			n = -1,
					enabled = -1;

		CHECK(gx_gpu_count(&n, err, sizeof(err)) == GX_NO_CUDA && n == 0, "no GPU to count");
		CHECK(gx_gpu_peer(0, 1, &enabled, err, sizeof(err)) == GX_NO_CUDA && enabled == 0,
			  "no GPUs to connect");
	}
	CHECK(gx_gpu_submit(0, 0, nullptr, err, sizeof(err)) == GX_NO_CUDA, "no GPU submit without CUDA");
	CHECK(gx_gpu_submit(1, 0, nullptr, err, sizeof(err)) == GX_NO_CUDA,
		  "no second GPU submit without CUDA");
	gx_mem_free(GX_DEV_GPU, nullptr);	/* harmless */
}

/* an AGG_READ task of nagg aggregates, in its own slot (mem) */
static gx_chunk *
agg_read_task(std::vector<uint64_t> &mem, uint32_t nagg, uint64_t *slot_bytes)
{
	uint64_t	off = GX_ALIGN_UP(sizeof(gx_chunk));

	*slot_bytes = off + gx_result_bytes(0);
	mem.assign(*slot_bytes / 8 + 1, 0);
	gx_chunk   *c = (gx_chunk *) mem.data();

	c->magic = GX_CHUNK_MAGIC;
	c->kind = GX_TASK_AGG_READ;
	c->obj[0] = 1;
	c->input_bytes = off;
	c->result_off = off;
	c->ext.nagg = nagg;
	return c;
}

/*
 * Aggregates: several tasks add into one state object, AGG_READ returns
 * the totals and zeroes the state (a second read gives zeros).
 */
static void
test_aggregates(bool pooled)
{
	const char *what = pooled ? "pool" : "caller alone";
	std::mt19937_64 rng(777);
	const uint32_t sizes[] = {1, 1000, 1024, 5000, 100000};
	int64_t		want_val[GX_MAX_AGGS] = {0},
				want_cnt[GX_MAX_AGGS] = {0};
	char		err[256];
	void	   *state = NULL;
	gx_task_ctx ctx;

	CHECK(gx_mem_alloc(GX_DEV_CPU, GX_AGG_STATE_BYTES, &state, err, sizeof(err)) == GX_OK,
		  "state object: %s", err);
	if (state == NULL)
		return;
	memset(&ctx, 0, sizeof(ctx));
	ctx.obj[0] = (char *) state;
	ctx.obj_bytes[0] = GX_AGG_STATE_BYTES;
	for (uint32_t n : sizes)
	{
		ChunkBuilder b;

		build_agg_task(b, rng, n, want_val, want_cnt);
		gx_chunk   *c = (gx_chunk *) b.mem;
		gx_result  *res = gx_chunk_result(c);

		CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK,
			  "aggregating task (%s): %s", what, err);
		CHECK(res->error == GX_NO_ERROR && res->agg_cnt[0] == 0 && res->agg_val[0] == 0,
			  "a filter task's result carries no aggregate (%s)", what);
	}

	std::vector<uint64_t> mem;
	uint64_t	slot;
	gx_chunk   *rd = agg_read_task(mem, 3, &slot);
	gx_result  *rr = gx_chunk_result(rd);

	CHECK(gx_cpu_run(rd, slot, &ctx, err, sizeof(err)) == GX_OK, "AGG_READ (%s): %s", what, err);
	for (int a = 0; a < 3; a++)
		CHECK(rr->agg_val[a] == want_val[a] && rr->agg_cnt[a] == want_cnt[a],
			  "aggregate %d (%s): %lld/%lld, want %lld/%lld", a, what,
			  (long long) rr->agg_val[a], (long long) rr->agg_cnt[a],
			  (long long) want_val[a], (long long) want_cnt[a]);
	CHECK(rr->nsel == 0 && rr->ntiles == 0 && rr->error == GX_NO_ERROR && rr->flags == 0,
		  "AGG_READ result header (%s)", what);
	bool		zero = true;

	for (uint64_t i = 0; i < GX_AGG_STATE_BYTES; i++)
		zero &= ((char *) state)[i] == 0;
	CHECK(zero, "AGG_READ zeroes the state (%s)", what);
	CHECK(gx_cpu_run(rd, slot, &ctx, err, sizeof(err)) == GX_OK &&
		  rr->agg_val[0] == 0 && rr->agg_cnt[0] == 0 && rr->agg_cnt[2] == 0,
		  "a second AGG_READ reads zeros (%s)", what);
	gx_mem_free(GX_DEV_CPU, state);
}

/* a task that must be refused as malformed, with a message */
static void
expect_invalid(gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx, const char *what)
{
	char		err[256] = "";
	gx_status	st = gx_cpu_run(c, slot_bytes, ctx, err, sizeof(err));

	CHECK(st == GX_INVALID && err[0] != '\0', "%s: status %d, message '%s'", what, (int) st, err);
	if (getenv("GX_VERBOSE"))
		printf("refused (%s): %s\n", what, err);
}

/* the operator table's validators refuse malformed tasks (CPU device) */
static void
test_validation(void)
{
	std::mt19937_64 rng(99);
	int64_t		wv[GX_MAX_AGGS] = {0},
				wc[GX_MAX_AGGS] = {0};
	ChunkBuilder b;
	char		err[256];
	std::vector<uint64_t> state(GX_AGG_STATE_BYTES / 8 + 1, 0);
	gx_task_ctx ctx;

	build_agg_task(b, rng, 3000, wv, wc);
	b.add_float_col(GX_FLOAT8, std::vector<double>(3000, 1.5));
	gx_chunk   *good = (gx_chunk *) malloc(b.capacity);
	gx_chunk   *c = (gx_chunk *) malloc(b.capacity);

	/* the float column was added after build(): rebuild with it */
	b.build();
	{
		gx_chunk   *bc = (gx_chunk *) b.mem;

		bc->ext.count_only = 1;
		bc->ext.nagg = 3;
		bc->ext.agg[0] = gx_agg {GX_AGG_SUM, 0};
		bc->ext.agg[1] = gx_agg {GX_AGG_COUNT, 1};
		bc->ext.agg[2] = gx_agg {GX_AGG_SUM, 1};
		free(good);
		free(c);
		good = (gx_chunk *) malloc(b.capacity);
		c = (gx_chunk *) malloc(b.capacity);
		memcpy(good, bc, b.capacity);
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.obj[0] = (char *) state.data();
	ctx.obj_bytes[0] = GX_AGG_STATE_BYTES;
	memcpy(c, good, b.capacity);
	CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK, "valid task: %s", err);

#define MUTATE(what, stmt, slot, cx) \
	do { \
		memcpy(c, good, b.capacity); \
		stmt; \
		expect_invalid(c, (slot), (cx), (what)); \
	} while (0)

	gx_task_ctx small = ctx;
	gx_task_ctx misaligned = ctx;

	small.obj_bytes[0] = GX_AGG_STATE_BYTES - 1;
	misaligned.obj[0] = ctx.obj[0] + 4;
	MUTATE("bad magic", c->magic = 0, b.capacity, &ctx);
	MUTATE("unknown kind", c->kind = GX_TASK_NKINDS, b.capacity, &ctx);
	MUTATE("unknown kind", c->kind = 99, b.capacity, &ctx);
	MUTATE("unknown flags", c->flags = 0x100, b.capacity, &ctx);
	MUTATE("result outside the slot", (void) 0, b.capacity - 8, &ctx);
	MUTATE("input past the result", c->input_bytes = c->result_off + 16, b.capacity, &ctx);
	MUTATE("aggregates without a state", (void) 0, b.capacity, nullptr);
	MUTATE("state too small", (void) 0, b.capacity, &small);
	MUTATE("state misaligned", (void) 0, b.capacity, &misaligned);
	MUTATE("too many aggregates", c->ext.nagg = GX_MAX_AGGS + 1, b.capacity, &ctx);
	MUTATE("unknown aggregate", c->ext.agg[1].op = 9, b.capacity, &ctx);
	MUTATE("aggregate column", c->ext.agg[1].col = 3, b.capacity, &ctx);
	MUTATE("sum of a float column", c->ext.agg[1] = (gx_agg {GX_AGG_SUM, 2}), b.capacity, &ctx);
	MUTATE("aggregates with map_sel", c->ext.map_sel = 1, b.capacity, &ctx);
	MUTATE("backward jump", (c->code[1].op = GX_OP_ANDSTEP, c->code[1].jump = 0), b.capacity, &ctx);
	MUTATE("jump past the end", (c->code[1].op = GX_OP_ORSTEP, c->code[1].jump = 9), b.capacity, &ctx);
	MUTATE("bad constant", c->code[1].arg = 5, b.capacity, &ctx);
	MUTATE("bad column", c->code[0].arg = 7, b.capacity, &ctx);
	MUTATE("bad register", c->code[2].a = GX_MAX_REGS, b.capacity, &ctx);
	MUTATE("bad opcode", c->code[2].op = GX_OP_COUNT, b.capacity, &ctx);
	MUTATE("CMPDT without a comparison", (c->code[2].op = GX_OP_CMPDT, c->code[2].arg = GX_OP_ADD),
		   b.capacity, &ctx);
	MUTATE("INSET run past the constants",
		   (c->code[2].op = GX_OP_INSET, c->code[2].arg = (int32_t) c->nconsts - 1), b.capacity, &ctx);
	MUTATE("INSET of a bad type", (c->code[2].op = GX_OP_INSET, c->code[2].arg = 0,
								   c->nconsts = 2, c->code[2].type = GX_NTYPES), b.capacity, &ctx);
	MUTATE("INRANGES run past the constants",
		   (c->code[2].op = GX_OP_INRANGES, c->code[2].arg = -1), b.capacity, &ctx);
	MUTATE("numeric shift beyond 18", (c->code[2].type = GX_NUMERIC, c->code[2].arg = 19),
		   b.capacity, &ctx);
	MUTATE("numeric shift below -18", (c->code[2].type = GX_NUMERIC, c->code[2].arg = -19),
		   b.capacity, &ctx);
	MUTATE("numeric division", (c->code[2].op = GX_OP_DIV, c->code[2].type = GX_NUMERIC),
		   b.capacity, &ctx);
	MUTATE("numeric modulo", (c->code[2].op = GX_OP_MOD, c->code[2].type = GX_NUMERIC),
		   b.capacity, &ctx);
	MUTATE("cast from numeric", (c->code[2].op = GX_OP_CAST, c->code[2].type = GX_INT8,
								 c->code[2].arg = GX_NUMERIC), b.capacity, &ctx);
	MUTATE("cast to numeric from float", (c->code[2].op = GX_OP_CAST,
										  c->code[2].type = GX_NUMERIC,
										  c->code[2].arg = GX_FLOAT8), b.capacity, &ctx);
	MUTATE("char8 order comparison", (c->code[2].op = GX_OP_LT, c->code[2].type = GX_CHAR8,
									  c->code[2].arg = 0), b.capacity, &ctx);
	MUTATE("char8 arithmetic", (c->code[2].op = GX_OP_ADD, c->code[2].type = GX_CHAR8,
								c->code[2].arg = 0), b.capacity, &ctx);
	MUTATE("cast from char8", (c->code[2].op = GX_OP_CAST, c->code[2].type = GX_INT8,
							   c->code[2].arg = GX_CHAR8), b.capacity, &ctx);
	MUTATE("unknown instruction type", c->code[2].type = GX_NTYPES, b.capacity, &ctx);
	MUTATE("too many instructions", c->ninstr = GX_MAX_INSTR + 1, b.capacity, &ctx);
	MUTATE("column past the input", c->cols[0].values_off = c->input_bytes - 8, b.capacity, &ctx);
	MUTATE("misaligned column", c->cols[0].values_off += 2, b.capacity, &ctx);
	MUTATE("misaligned bitmap", c->cols[0].nulls_off += 2, b.capacity, &ctx);
	MUTATE("unknown column type", c->cols[0].type = GX_NTYPES, b.capacity, &ctx);
	MUTATE("page section outside", c->deform_off = c->input_bytes, b.capacity, &ctx);
	MUTATE("scan without entry", c->kind = GX_TASK_CACHE_SCAN, b.capacity, &ctx);
	gx_task_ctx with_entry = ctx;

	with_entry.entry = (char *) state.data();
	with_entry.entry_bytes = GX_AGG_STATE_BYTES;
	MUTATE("load without pages", (c->kind = GX_TASK_CACHE_LOAD, c->ext.nagg = 0), b.capacity,
		   &with_entry);
	MUTATE("aggregate read with rows", c->kind = GX_TASK_AGG_READ, b.capacity, &ctx);
	MUTATE("aggregate read without a state", (c->kind = GX_TASK_AGG_READ, c->nrows = 0),
		   b.capacity, nullptr);
#undef MUTATE

	/* nothing was run: the valid task still runs, the state holds its sums once */
	memcpy(c, good, b.capacity);
	CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK, "valid task again: %s", err);
	free(good);
	free(c);
}

/*
 * Cache scans on the CPU device: an entry (gx_mem_alloc) holding an int4
 * column with NULLs and a row map; SCAN selects row map values, raises at
 * the right row with its key, and aggregates in count-only mode.
 */
static void
test_cache_scan(const char *what)
{
	const uint32_t n = 5000;
	uint64_t	voff = 0,
				noff = GX_ALIGN_UP((uint64_t) n * 4),
				moff = noff + GX_ALIGN_UP(gx_bitmap_bytes(n)),
				ebytes = moff + (uint64_t) n * 4;
	void	   *entry = NULL,
			   *state = NULL;
	char		err[256];
	std::mt19937_64 rng(4242);
	std::vector<int32_t> a(n);
	std::vector<uint8_t> an(n);
	std::vector<uint32_t> map(n);

	CHECK(gx_mem_alloc(GX_DEV_CPU, ebytes, &entry, err, sizeof(err)) == GX_OK, "entry: %s", err);
	CHECK(gx_mem_alloc(GX_DEV_CPU, GX_AGG_STATE_BYTES, &state, err, sizeof(err)) == GX_OK,
		  "state: %s", err);
	if (!entry || !state)
		return;
	for (uint32_t r = 0; r < n; r++)
	{
		a[r] = (int32_t) (rng() % 100) - 10;
		an[r] = rng() % 11 == 0;
		map[r] = ((r / 50) << 16) | (r % 50 + 1);
		((int32_t *) ((char *) entry + voff))[r] = a[r];
		if (an[r])
			((uint32_t *) ((char *) entry + noff))[r >> 5] |= 1u << (r & 31);
		((uint32_t *) ((char *) entry + moff))[r] = map[r];
	}

	/* 1000 / a > 20: a = 0 raises division by zero */
	ChunkBuilder b;
	int			kdiv = b.kint(GX_INT4, 1000);
	int			k20 = b.kint(GX_INT4, 20);

	b.add_int_col(GX_INT4, {});
	b.emit(GX_OP_LDCONST, GX_INT4, 0, 0, 0, kdiv);
	b.emit(GX_OP_LDCOL, GX_INT4, 1, 0, 0, 0);
	b.emit(GX_OP_DIV, GX_INT4, 2, 0, 1);
	b.emit(GX_OP_LDCONST, GX_INT4, 3, 0, 0, k20);
	b.emit(GX_OP_GT, GX_INT4, 4, 2, 3);
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 4);
	b.build();

	uint64_t	hdr = GX_ALIGN_UP(sizeof(gx_chunk));
	uint64_t	slot = hdr + gx_result_bytes(n);
	std::vector<uint64_t> mem(slot / 8 + 1, 0);
	gx_chunk   *c = (gx_chunk *) mem.data();
	gx_task_ctx ctx;

	memcpy(c, b.mem, sizeof(gx_chunk));
	c->kind = GX_TASK_CACHE_SCAN;
	c->nrows = n;
	c->input_bytes = hdr;
	c->result_off = hdr;
	c->cols[0].values_off = voff;
	c->cols[0].nulls_off = noff;
	c->ext.entry = 0;
	c->ext.map_sel = 1;
	c->ext.rowmap_off = moff;
	memset(&ctx, 0, sizeof(ctx));
	ctx.entry = (char *) entry;
	ctx.entry_bytes = ebytes;

	/* the first zero, and the rows selected before it */
	uint32_t	zrow = n;
	std::vector<uint32_t> want;

	for (uint32_t r = 0; r < n; r++)
		if (!an[r] && a[r] == 0 && zrow == n)
			zrow = r;
	for (uint32_t r = 0; r < zrow; r++)
		if (!an[r] && 1000 / a[r] > 20)
			want.push_back(map[r]);

	gx_result  *res = gx_chunk_result(c);

	CHECK(gx_cpu_run(c, slot, &ctx, err, sizeof(err)) == GX_OK, "scan (%s): %s", what, err);
	CHECK(zrow < n && res->error == (((uint64_t) zrow << 8) | GX_ERR_DIV_ZERO) &&
		  res->error_key == map[zrow], "scan (%s): error %llx key %x, want row %u key %x", what,
		  (unsigned long long) res->error, res->error_key, zrow, zrow < n ? map[zrow] : 0);
	bool		ok;
	std::vector<uint32_t> got = concat_sel(c, &ok),
				before;

	/* (concat_sel's layout check expects row numbers: not these) */
	for (uint32_t v : got)
		if (v < map[zrow])
			before.push_back(v);
	CHECK(before == want, "scan (%s): selection of row map values before the error (%zu, want %zu)",
		  what, before.size(), want.size());

	/* without the zeros: count-only with aggregates, read back */
	for (uint32_t r = 0; r < n; r++)
		if (a[r] == 0)
			((int32_t *) ((char *) entry + voff))[r] = a[r] = 1;
	int64_t		sum = 0,
				cnt = 0;

	for (uint32_t r = 0; r < n; r++)
		if (!an[r] && 1000 / a[r] > 20)
		{
			sum += a[r];
			cnt++;
		}
	c->ext.map_sel = 0;
	c->ext.count_only = 1;
	c->ext.nagg = 1;
	c->ext.agg[0] = gx_agg {GX_AGG_SUM, 0};
	c->obj[0] = 1;
	ctx.obj[0] = (char *) state;
	ctx.obj_bytes[0] = GX_AGG_STATE_BYTES;
	CHECK(gx_cpu_run(c, slot, &ctx, err, sizeof(err)) == GX_OK && res->error == GX_NO_ERROR &&
		  res->nsel == (uint32_t) cnt, "count-only scan (%s): %s nsel %u want %lld", what, err,
		  res->nsel, (long long) cnt);
	std::vector<uint64_t> rmem;
	uint64_t	rslot;
	gx_chunk   *rd = agg_read_task(rmem, 1, &rslot);

	CHECK(gx_cpu_run(rd, rslot, &ctx, err, sizeof(err)) == GX_OK &&
		  gx_chunk_result(rd)->agg_val[0] == sum && gx_chunk_result(rd)->agg_cnt[0] == cnt,
		  "scan aggregate (%s): %lld/%lld want %lld/%lld", what,
		  (long long) gx_chunk_result(rd)->agg_val[0], (long long) gx_chunk_result(rd)->agg_cnt[0],
		  (long long) sum, (long long) cnt);

	/*
	 * stale blocks and padding rows: the skip bitmap (blocks 3 and 7, bit
	 * per block of the row map) after the header, and line pointer 0 rows,
	 * are neither evaluated nor selected
	 */
	{
		uint64_t	skip_at = hdr;
		uint64_t	in2 = GX_ALIGN_UP(skip_at + 4 * 4);
		uint64_t	slot2 = in2 + gx_result_bytes(n);
		std::vector<uint64_t> mem2(slot2 / 8 + 1, 0);
		gx_chunk   *c2 = (gx_chunk *) mem2.data();
		uint32_t   *bits = (uint32_t *) ((char *) c2 + skip_at);
		uint32_t	want2 = 0;

		for (uint32_t r = 0; r < n; r += 97)
			((uint32_t *) ((char *) entry + moff))[r] = map[r] & 0xFFFF0000u;	/* padding */
		memcpy(c2, c, sizeof(gx_chunk));
		c2->ext.nagg = 0;
		c2->obj[0] = 0;
		c2->ext.map_sel = 1;
		c2->ext.count_only = 0;
		c2->input_bytes = in2;
		c2->result_off = in2;
		c2->ext.skip_blocks = n / 50;
		c2->ext.skip_off = skip_at;
		bits[0] = (1u << 3) | (1u << 7);
		for (uint32_t r = 0; r < n; r++)
			if (!an[r] && 1000 / a[r] > 20 && r % 97 != 0 && r / 50 != 3 && r / 50 != 7)
				want2++;
		CHECK(gx_cpu_run(c2, slot2, &ctx, err, sizeof(err)) == GX_OK &&
			  gx_chunk_result(c2)->error == GX_NO_ERROR &&
			  gx_chunk_result(c2)->nsel == want2,
			  "scan with skipped rows (%s): %s nsel %u want %u", what, err,
			  gx_chunk_result(c2)->nsel, want2);
		bool		ok2;
		bool		none_skipped = true;

		for (uint32_t v : concat_sel(c2, &ok2))
			if ((v & 0xFFFF) == 0 || (v >> 16) == 3 || (v >> 16) == 7)
				none_skipped = false;
		CHECK(none_skipped, "scan with skipped rows (%s): a skipped row was selected", what);
		/* the bitmap must lie in the task input, after the header */
		c2->ext.skip_off = in2;
		expect_invalid(c2, slot2, &ctx, "skip bitmap past the task input");
		c2->ext.skip_off = 8;
		expect_invalid(c2, slot2, &ctx, "skip bitmap inside the header");
		for (uint32_t r = 0; r < n; r += 97)
			((uint32_t *) ((char *) entry + moff))[r] = map[r];
	}

	/* entry offsets are checked against the entry's bytes */
	ctx.entry_bytes = ebytes - 4;
	CHECK(gx_cpu_run(c, slot, &ctx, err, sizeof(err)) == GX_OK, "scan without row map fits");
	c->ext.map_sel = 1;
	c->ext.nagg = 0;
	expect_invalid(c, slot, &ctx, "row map past the entry");
	ctx.entry_bytes = ebytes;
	c->cols[0].nulls_off = ebytes - 4;
	expect_invalid(c, slot, &ctx, "bitmap past the entry");
	gx_mem_free(GX_DEV_CPU, entry);
	gx_mem_free(GX_DEV_CPU, state);
}

/*
 * The pool: gx_cpu_open starts nthreads - 1 workers once; many tasks reuse
 * them (no thread is created per task); gx_cpu_close joins them.
 */
static void
test_pool_open(int *before)
{
	char		err[256];
	int			started = 0;

	*before = count_threads();
	CHECK(gx_cpu_open(4, &started, err, sizeof(err)) == GX_OK && started == 4,
		  "gx_cpu_open(4): started %d: %s", started, err);
	CHECK(count_threads() == *before + started - 1, "%d workers running (%d threads, %d before)",
		  started - 1, count_threads(), *before);
	CHECK(gx_cpu_open(8, &started, err, sizeof(err)) == GX_OK && started == 4,
		  "a second gx_cpu_open is a no-op (started %d)", started);
}

/* many tasks on the pool: same results, same threads */
static void
test_pool_reuse(void)
{
	std::mt19937_64 rng(31337);
	int			threads = count_threads();
	int			bad = 0;
	char		err[256];

	for (int round = 0; round < 200; round++)
	{
		ChunkBuilder b;
		uint32_t	n = 1 + (uint32_t) (rng() % 40000);
		std::vector<int64_t> a(n);
		std::vector<uint32_t> want;
		int64_t		lim = (int64_t) (rng() % 100);

		for (uint32_t i = 0; i < n; i++)
		{
			a[i] = (int64_t) (rng() % 100);
			if (a[i] < lim)
				want.push_back(i);
		}
		int			ca = b.add_int_col(GX_INT8, a);
		int			k = b.kint(GX_INT8, lim);

		b.emit(GX_OP_LDCOL, GX_INT8, 0, 0, 0, ca);
		b.emit(GX_OP_LDCONST, GX_INT8, 1, 0, 0, k);
		b.emit(GX_OP_LT, GX_INT8, 2, 0, 1);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 2);
		gx_chunk   *c = b.build();
		bool		ok;

		if (gx_cpu_run(c, b.capacity, nullptr, err, sizeof(err)) != GX_OK ||
			concat_sel(c, &ok) != want || !ok)
			bad++;
	}
	CHECK(bad == 0, "pool: %d of 200 tasks wrong", bad);
	CHECK(count_threads() == threads, "pool: no thread created per task (%d, was %d)",
		  count_threads(), threads);
}

/* ---------------------------------------------------------------------- */
/* joins (gx_join.cuh) on the CPU device                                  */
/* ---------------------------------------------------------------------- */

/*
 * One join case on the CPU device: every mode, count-only or not, with
 * result areas large and small (passes), against join_reference; with
 * room for every inner row, or (cap_rows) less
 */
static void
join_case(const char *what, const JoinSide &inner, const JoinSide &outer, JoinSpec js,
		  uint32_t ibatch, uint32_t obatch, const std::vector<uint32_t> &max_pairs_list,
		  uint32_t cap_rows)
{
	/* the rows the device sees (cache entries skip some) */
	const JoinSide iref = js.entry ? join_entry_visible(inner, ibatch) : inner;
	const JoinSide oref = js.entry ? join_entry_visible(outer, obatch) : outer;
	const uint32_t npass = join_inner_rows(iref, js);

	join_size(js, cap_rows ? cap_rows : npass);

	uint64_t	tbytes = join_table_bytes(js);
	int			ncases = 0;

	for (uint32_t mode : {GX_JOIN_INNER, GX_JOIN_SEMI, GX_JOIN_ANTI, GX_JOIN_LEFT,
		 GX_JOIN_RIGHT, GX_JOIN_FULL})
		for (int count_only : {0, 1})
			if (js.alg == GX_JOIN_RANGE && mode > GX_JOIN_ANTI)
				continue;		/* (the range join: INNER, SEMI, ANTI) */
			else
			for (uint32_t maxp : max_pairs_list)
			{
				void	   *table = nullptr;
				char		err[256];
				JoinOut		got,
							want;

				CHECK(gx_mem_alloc(GX_DEV_CPU, tbytes, &table, err, sizeof(err)) == GX_OK,
					  "%s: table: %s", what, err);
				join_all(cpu_join_runner(table, tbytes), inner, outer, js, mode, count_only, maxp,
						 ibatch, obatch, got);
				join_reference(iref, oref, js, mode, count_only, &got.build_sel, want);
				CHECK(got.ok && got.more_flags, "%s: mode %u count_only %d max %u: tasks ran in order",
					  what, mode, count_only, maxp);
				CHECK(got.pairs == want.pairs,
					  "%s: mode %u count_only %d max %u: %zu entries, want %zu", what, mode,
					  count_only, maxp, got.pairs.size(), want.pairs.size());
				CHECK(got.count == want.count,
					  "%s: mode %u count_only %d max %u: count %llu, want %llu", what, mode,
					  count_only, maxp, (unsigned long long) got.count,
					  (unsigned long long) want.count);
				CHECK(got.host == want.host, "%s: mode %u: %zu host rows, want %zu", what, mode,
					  got.host.size(), want.host.size());
				CHECK(got.unmatched == want.unmatched && got.ucount == want.ucount,
					  "%s: mode %u count_only %d max %u: %zu unmatched (count %llu), want %zu (%llu)",
					  what, mode, count_only, maxp, got.unmatched.size(),
					  (unsigned long long) got.ucount, want.unmatched.size(),
					  (unsigned long long) want.ucount);
				/* the table holds min(cap, rows); the others were selected, none lost */
				{
					uint64_t	hosts = 0;

					for (uint32_t r = 0; r < iref.size(); r++)
						hosts += js.host && iref.is_host(r);
					CHECK(got.table_rows == std::min<uint64_t>(npass, js.cap) &&
						  got.build_sel.size() == hosts + (npass - got.table_rows),
						  "%s: table %llu rows of %u, %zu selected (%llu host rows)", what,
						  (unsigned long long) got.table_rows, npass, got.build_sel.size(),
						  (unsigned long long) hosts);
				}
				gx_mem_free(GX_DEV_CPU, table);
				ncases++;
				if (getenv("GX_VERBOSE"))
					printf("%s: mode %u count_only %d max %u: %zu entries, count %llu, %d passes\n",
						   what, mode, count_only, maxp, got.pairs.size(),
						   (unsigned long long) got.count, got.passes);
			}
	printf("join %s: %d runs agree with the reference\n", what, ncases);
}

/* the join cases (gx_test.h) on the CPU device */
static void
test_join(void)
{
	std::mt19937_64 rng(1515);

	join_cases(rng, 1, join_case);
}

/* the merge join's cases (gx_test.h) on the CPU device */
static void
test_join_merge(void)
{
	std::mt19937_64 rng(1517);

	join_merge_cases(rng, 1, join_case);
}

/* the range join's cases (gx_test.h) on the CPU device */
static void
test_join_range(void)
{
	std::mt19937_64 rng(1516);

	join_range_cases(rng, 1, join_case);
}

/*
 * One join case probed on a replica of its table (GpuJoin on several
 * devices): built and finished in one table, its probe parts copied by an
 * OBJ_COPY task into a zeroed second table (gx_join_probe_ranges), every
 * probe run there; the modes whose probes only read the table, count-only
 * or not, each result area size: the entries, counts and host rows are
 * the reference's, and (a table with room for every row) the entries and
 * passes those of probing the table itself
 */
static void
join_replica_case(const char *what, const JoinSide &inner, const JoinSide &outer, JoinSpec js,
				  uint32_t ibatch, uint32_t obatch, const std::vector<uint32_t> &max_pairs_list,
				  uint32_t cap_rows)
{
	const JoinSide iref = js.entry ? join_entry_visible(inner, ibatch) : inner;
	const JoinSide oref = js.entry ? join_entry_visible(outer, obatch) : outer;

	join_size(js, cap_rows ? cap_rows : join_inner_rows(iref, js));

	uint64_t	tbytes = join_table_bytes(js);
	int			ncases = 0;

	for (uint32_t mode : {GX_JOIN_INNER, GX_JOIN_SEMI, GX_JOIN_ANTI, GX_JOIN_LEFT})
		for (int count_only : {0, 1})
			for (uint32_t maxp : max_pairs_list)
			{
				void	   *direct = nullptr;
				char		err[256];
				JoinOut		got,
							self,
							want;

				if (!join_replica_mode(mode, js))
					continue;
				CHECK(gx_mem_alloc(GX_DEV_CPU, tbytes, &direct, err, sizeof(err)) == GX_OK,
					  "%s: table: %s", what, err);
				join_all_cpu_replica(inner, outer, js, mode, count_only, maxp, ibatch, obatch, got);
				join_all(cpu_join_runner(direct, tbytes), inner, outer, js, mode, count_only, maxp,
						 ibatch, obatch, self);
				join_reference(iref, oref, js, mode, count_only, &got.build_sel, want);
				CHECK(got.ok && got.more_flags && got.pairs == want.pairs &&
					  got.count == want.count && got.host == want.host,
					  "%s: replica, mode %u count_only %d max %u: %zu entries, count %llu, want %zu, %llu",
					  what, mode, count_only, maxp, got.pairs.size(), (unsigned long long) got.count,
					  want.pairs.size(), (unsigned long long) want.count);
				if (cap_rows == 0)
					CHECK(got.pairs == self.pairs && got.passes == self.passes &&
						  got.table_rows == self.table_rows,
						  "%s: replica, mode %u count_only %d max %u: %d passes, the table's %d",
						  what, mode, count_only, maxp, got.passes, self.passes);
				gx_mem_free(GX_DEV_CPU, direct);
				ncases++;
			}
	printf("join replica %s: %d runs against the reference\n", what, ncases);
}

/* the hash, merge and range joins' cases (gx_test.h), probed on replicas of their tables */
static void
test_join_replica(void)
{
	std::mt19937_64 rng(1518);

	join_cases(rng, 1, join_replica_case);
	join_merge_cases(rng, 1, join_replica_case);
	join_range_cases(rng, 1, join_replica_case);
}

/*
 * A hash join case over a table in 2, 3 and 4 parts (join_all_cpu_parts:
 * every task once a part, join_devparts.cpp), count-only INNER, SEMI,
 * ANTI and LEFT probes of sides without host rows: the count is the
 * reference's, the parts' rows the whole table's (a table of each part
 * with room for every row: none is full; cap_rows: a part may be)
 */
static void
join_parts_case(const char *what, const JoinSide &inner, const JoinSide &outer, JoinSpec js,
				uint32_t ibatch, uint32_t obatch, const std::vector<uint32_t> &max_pairs_list,
				uint32_t cap_rows)
{
	int			ncases = 0;

	(void) max_pairs_list;
	/* (a device input never leaves a row to the host) */
	if (js.alg != GX_JOIN_HASH || js.host)
		return;

	const JoinSide iref = js.entry ? join_entry_visible(inner, ibatch) : inner;
	const JoinSide oref = js.entry ? join_entry_visible(outer, obatch) : outer;

	join_size(js, cap_rows ? cap_rows : join_inner_rows(iref, js));
	for (uint32_t mode : {GX_JOIN_INNER, GX_JOIN_SEMI, GX_JOIN_ANTI, GX_JOIN_LEFT})
		for (uint32_t nparts : {2u, 3u, 4u})
		{
			JoinOut		got,
						want;

			join_all_cpu_parts(inner, outer, js, mode, nparts, ibatch, obatch, got);
			join_reference(iref, oref, js, mode, 1, &got.build_sel, want);
			if (cap_rows != 0 && !got.ok)
				continue;		/* (a part was full: the node makes the tables again) */
			CHECK(got.ok && got.count == want.count,
				  "%s: %u parts, mode %u: count %llu, want %llu", what, nparts, mode,
				  (unsigned long long) got.count, (unsigned long long) want.count);
			if (cap_rows == 0)
				CHECK(got.table_rows == join_inner_rows(iref, js),
					  "%s: %u parts: %llu rows in the parts, want %u", what, nparts,
					  (unsigned long long) got.table_rows, join_inner_rows(iref, js));
			ncases++;
		}
	printf("join parts %s: %d runs against the reference\n", what, ncases);
}

/*
 * The hash join's cases (gx_test.h) over tables in parts, and the
 * validator's refusals of a part: past part_n, on a merge table, a part
 * without part_n
 */
static void
test_join_devparts(void)
{
	std::mt19937_64 rng(1717);
	JoinSpec	js;
	JoinSide	in;
	ChunkBuilder b;
	std::vector<uint64_t> t;
	gx_task_ctx ctx;

	join_cases(rng, 1, join_parts_case);
	for (int r = 0; r < 100; r++)
		in.add(r, false, 0, false, true);
	join_size(js, 100);
	t.resize(join_table_bytes(js) / 8 + 1);
	memset(&ctx, 0, sizeof(ctx));
	ctx.obj[0] = (char *) t.data();
	ctx.obj_bytes[0] = 8 * t.size();
#define PMUTATE(what, stmt) \
	do { \
		ChunkBuilder bb; \
		gx_chunk   *c = join_side_task(bb, GX_TASK_JOIN_BUILD, in, js, 0, 100); \
		stmt; \
		expect_invalid(c, bb.capacity, &ctx, what); \
	} while (0)
	PMUTATE("part past part_n", (c->ext.join.part_n = 2, c->ext.join.part_d = 2));
	PMUTATE("part of more than 64", (c->ext.join.part_n = 65, c->ext.join.part_d = 1));
	PMUTATE("part without part_n", c->ext.join.part_d = 1);
	PMUTATE("part of a merge table", (c->ext.join.part_n = 2, c->ext.join.alg = GX_JOIN_MERGE));
#undef PMUTATE
	{
		gx_chunk   *c = join_side_task(b, GX_TASK_JOIN_BUILD, in, js, 0, 100);
		char		err[256];

		c->ext.join.part_n = 2;
		c->ext.join.part_d = 1;
		CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK,
			  "a part's build: %s", err);
	}
	printf("join parts: the validator's refusals\n");
}

/*
 * The OBJ_COPY validator: a copy is refused without both objects, between
 * one object and itself, without ranges or with too many, with rows or a
 * program, or with a range past either object (also one whose end
 * overflows); a copy of a table's probe parts of another geometry reads
 * past a smaller object
 */
static void
test_join_replica_invalid(void)
{
	JoinSpec	js;
	std::vector<uint64_t> a(4096),
				b(4096),
				m(join_finish_bytes() / 8 + 64);
	gx_task_ctx ctx;
	gx_chunk   *c;

	join_size(js, 100);
	memset(&ctx, 0, sizeof(ctx));
	ctx.obj[0] = (char *) a.data();
	ctx.obj[1] = (char *) b.data();
	ctx.obj_bytes[0] = ctx.obj_bytes[1] = 8 * a.size();
	c = join_copy_task(m.data(), js, 1);
	c->ext.copy.nranges = 1;
	c->ext.copy.range[0] = gx_copy_range {8, 16, 1024};
	{
		char		err[256];

		CHECK(gx_cpu_run(c, join_finish_bytes(), &ctx, err, sizeof(err)) == GX_OK,
			  "object copy of a range: %s", err);
	}
#define CMUTATE(what, stmt) \
	do { \
		gx_task_ctx cx = ctx; \
		c = join_copy_task(m.data(), js, 1); \
		c->ext.copy.nranges = 1; \
		c->ext.copy.range[0] = gx_copy_range {8, 16, 1024}; \
		stmt; \
		expect_invalid(c, join_finish_bytes(), &cx, what); \
	} while (0)
	CMUTATE("copy without a destination", cx.obj[0] = nullptr);
	CMUTATE("copy without a source", cx.obj[1] = nullptr);
	CMUTATE("copy into its source", cx.obj[0] = cx.obj[1]);
	CMUTATE("copy naming one object twice", c->obj[1] = c->obj[0]);
	CMUTATE("copy without ranges", c->ext.copy.nranges = 0);
	CMUTATE("copy of too many ranges", c->ext.copy.nranges = GX_COPY_MAX_RANGES + 1);
	CMUTATE("copy with rows", c->nrows = 1);
	CMUTATE("copy with a program", c->ninstr = 1);
	CMUTATE("copy past its source", c->ext.copy.range[0].src = 8 * b.size() - 8);
	CMUTATE("copy past its destination", c->ext.copy.range[0].dst = 8 * a.size() - 8);
	CMUTATE("copy of a range whose end overflows",
			(c->ext.copy.range[0].src = ~(uint64_t) 0 - 8, c->ext.copy.range[0].bytes = 64));
	CMUTATE("copy of more bytes than either holds", c->ext.copy.range[0].bytes = 8 * a.size());
	CMUTATE("copy whose second range is past its source",
			(c->ext.copy.nranges = 2, c->ext.copy.range[1] = gx_copy_range {8 * b.size(), 0, 8}));
	CMUTATE("copy into a smaller destination", cx.obj_bytes[0] = 512);
	CMUTATE("copy of a table's probe parts into a small object",
			(c = join_copy_task(m.data(), js, 1), cx.obj_bytes[0] = 4096));
#undef CMUTATE
}

/*
 * Replicas copied in several pieces by the pool's threads (OBJ_COPY):
 * hash tables of 300000 rows with and without runs, a merge and a range
 * table of 300000 rows, probed on their replicas
 */
static void
test_join_replica_big(void)
{
	std::mt19937_64 rng(1519);
	JoinSide	in,
				out;
	JoinSpec	js;

	for (uint32_t r = 0; r < 300000; r++)
		in.add((int64_t) (rng() % 200000), rng() % 50 == 0, 0, false, true);
	for (uint32_t r = 0; r < 30000; r++)
		out.add((int64_t) (rng() % 250000), rng() % 50 == 0, 0, false, true);
	join_replica_case("hash, 300000 rows", in, out, js, 65536, 8192, {1u << 20, 5000}, 0);
	js.noruns = true;
	join_replica_case("hash without runs, 300000 rows", in, out, js, 65536, 8192, {1u << 20}, 0);
	js.noruns = false;
	js.alg = GX_JOIN_MERGE;
	join_replica_case("merge, 300000 rows", in, out, js, 65536, 8192, {1u << 20, 5000}, 0);
	for (uint32_t r = 0; r < out.size(); r++)
		out.k2[r] = out.k1[r] + (int64_t) (rng() % 4);
	join_replica_case("range band, 300000 rows", in, out,
					  join_range_spec(JOIN_BOUND_INCL, JOIN_BOUND_INCL), 65536, 8192,
					  {1u << 20, 5000}, 0);
}

/*
 * A range join whose table the CPU device sorts in segments in parallel
 * and merges (200000 inner rows, duplicates, NULL keys), on its pool
 */
static void
test_join_range_big(void)
{
	std::mt19937_64 rng(1517);
	JoinSide	in,
				out;

	for (uint32_t r = 0; r < 200000; r++)
		in.add((int64_t) (rng() % 150000) - 1000, rng() % 40 == 0, 0, false, true);
	for (uint32_t r = 0; r < 20000; r++)
	{
		int64_t		x = (int64_t) (rng() % 160000) - 5000;

		out.add(x, rng() % 40 == 0, x + (int64_t) (rng() % 4), false, true);
	}
	join_case("range band, 200000 rows", in, out, join_range_spec(JOIN_BOUND_INCL, JOIN_BOUND_INCL),
			  65536, 8192, {1u << 20, 5000}, 0);
}

/*
 * The tasks of the join tests below over rows [0, 100) of side in: a
 * table of 100 rows (js sized for it) on the CPU device and its task
 * context, a BUILD task, a PROBE task of 64 entries, and copies of both
 * to mutate (JMUTATE)
 */
struct JoinTasks
{
	uint64_t	tbytes;
	void	   *table = nullptr;
	gx_task_ctx ctx;
	ChunkBuilder bb,
				pb;
	gx_chunk   *build,
			   *probe;
	std::vector<char> gb,
				gp;

	JoinTasks(const JoinSide &in, JoinSpec &js)
	{
		char		err[256];

		join_size(js, 100);
		tbytes = join_table_bytes(js);
		CHECK(gx_mem_alloc(GX_DEV_CPU, tbytes, &table, err, sizeof(err)) == GX_OK,
			  "join table: %s", err);
		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = (char *) table;
		ctx.obj_bytes[0] = tbytes;
		build = join_side_task(bb, GX_TASK_JOIN_BUILD, in, js, 0, 100);
		join_side_task(pb, GX_TASK_JOIN_PROBE, in, js, 0, 100);
		probe = join_grow_result(pb, gx_join_probe_result_bytes(100, 64, js.alg));
		probe->ext.join.max_pairs = 64;
		gb.assign((const char *) build, (const char *) build + bb.capacity);
		gp.assign((const char *) probe, (const char *) probe + pb.capacity);
	}
	~JoinTasks()
	{
		gx_mem_free(GX_DEV_CPU, table);
	}
};

/* task c of builder b restored from good, changed by stmt: refused */
#define JMUTATE(c, b, good, what, stmt) \
	do { \
		memcpy(c, good.data(), b.capacity); \
		stmt; \
		expect_invalid(c, b.capacity, &ctx, (what)); \
	} while (0)

/*
 * Build the table of ctx (obj[0]) from the 100 rows of side in, in three
 * tasks out of order, and finish it (what: the algorithm, for messages)
 */
static void
join_build_unordered(const JoinSide &in, const JoinSpec &js, gx_task_ctx *ctx, const char *what)
{
	char		err[256];

	for (uint32_t lo : {60u, 0u, 30u})
	{
		ChunkBuilder b;
		gx_chunk   *c = join_side_task(b, GX_TASK_JOIN_BUILD, in, js, lo, lo == 60 ? 100 : lo + 30);

		CHECK(gx_cpu_run(c, b.capacity, ctx, err, sizeof(err)) == GX_OK &&
			  gx_chunk_result(c)->error == GX_NO_ERROR, "%s build: %s", what, err);
	}

	std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
	gx_chunk   *fin = join_finish_task(fm.data(), js);

	CHECK(gx_cpu_run(fin, join_finish_bytes(), ctx, err, sizeof(err)) == GX_OK &&
		  gx_chunk_result(fin)->join_count == 100, "%s finish: %s", what, err);
}

/*
 * Join tasks the validator refuses, and the device's refusals of tasks
 * out of order: a probe of a table not finished, a build after the finish
 */
static void
test_join_invalid(void)
{
	JoinSide	in;
	JoinSpec	js;
	char		err[256];

	for (int r = 0; r < 100; r++)
		in.add(r % 10, false, r, false, true);
	JoinTasks	t(in, js);
	gx_task_ctx &ctx = t.ctx;
	ChunkBuilder &bb = t.bb,
			   &pb = t.pb;
	gx_chunk   *build = t.build,
			   *probe = t.probe;
	std::vector<char> &gb = t.gb,
			   &gp = t.gp;
	uint64_t	tbytes = t.tbytes;

	JMUTATE(build, bb, gb, "join without keys", build->ext.join.nkeys = 0);
	JMUTATE(build, bb, gb, "join build naming rows by the row map", build->ext.map_sel = 1);
	JMUTATE(build, bb, gb, "join task skipping blocks without an entry",
			build->ext.skip_blocks = 1);
	JMUTATE(build, bb, gb, "join task of an entry without entry memory", build->ext.entry = 0);
	JMUTATE(build, bb, gb, "join with three keys", build->ext.join.nkeys = 3);
	JMUTATE(build, bb, gb, "join key of a missing output", build->ext.join.key_out[0] = 5);
	JMUTATE(build, bb, gb, "join key out of range", build->ext.join.key_out[0] = GX_MAX_OUTS);
	JMUTATE(build, bb, gb, "join key of a float output",
			(build->code[build->ninstr - 1].type = GX_FLOAT8,
			 build->code[build->ninstr - 2].type = GX_FLOAT8));
	JMUTATE(build, bb, gb, "float key bit beyond the keys", build->ext.join.kfloat = 2);
	JMUTATE(build, bb, gb, "float key of an integer output", build->ext.join.kfloat = 1);
	JMUTATE(build, bb, gb, "payload of a missing output", build->ext.join.payload_out = 3);
	JMUTATE(build, bb, gb, "payload below -1", build->ext.join.payload_out = -2);
	JMUTATE(build, bb, gb, "key slots not a power of 2", build->ext.join.kcap = 300);
	JMUTATE(build, bb, gb, "key slots under twice the rows", build->ext.join.cap = js.kcap);
	JMUTATE(build, bb, gb, "no rows in the table", build->ext.join.cap = 0);
	JMUTATE(build, bb, gb, "a table larger than its object",
			(build->ext.join.cap = 4 * js.cap, build->ext.join.kcap = 8 * js.kcap));
	JMUTATE(build, bb, gb, "a table past the limit",
			(build->ext.join.cap = GX_JOIN_MAX_CAP + 1, build->ext.join.kcap = 0x80000000u));
	JMUTATE(build, bb, gb, "join with aggregates",
			(build->ext.nagg = 1, build->ext.agg[0] = gx_agg {GX_AGG_COUNT, 0}));
	JMUTATE(build, bb, gb, "join with a group table", build->ext.ngroup_cap = 1024);
	JMUTATE(build, bb, gb, "join of a malformed page section",
			build->deform_off = sizeof(gx_chunk));
	JMUTATE(build, bb, gb, "count-only build", build->ext.count_only = 1);
	JMUTATE(build, bb, gb, "column outside the task", build->cols[0].values_off = bb.capacity);
	JMUTATE(probe, pb, gp, "probe mode 6", probe->ext.join.mode = GX_JOIN_FULL + 1);
	JMUTATE(probe, pb, gp, "probe past its rows", probe->ext.join.first_row = 101);
	JMUTATE(probe, pb, gp, "probe skipping matches of a semi join",
			(probe->ext.join.mode = GX_JOIN_SEMI, probe->ext.join.first_match = 1));
	JMUTATE(probe, pb, gp, "count-only probe skipping matches",
			(probe->ext.count_only = 1, probe->ext.join.first_match = 1));
	JMUTATE(probe, pb, gp, "count-only left join skipping matches",
			(probe->ext.count_only = 1, probe->ext.join.mode = GX_JOIN_LEFT,
			 probe->ext.join.first_match = 1));
	JMUTATE(probe, pb, gp, "probe result area past its slot", probe->ext.join.max_pairs = 65);
	JMUTATE(probe, pb, gp, "probe result area far past its slot",
			probe->ext.join.max_pairs = 0xFFFFFFFFu);
	{
		gx_task_ctx none;

		memset(&none, 0, sizeof(none));
		memcpy(probe, gp.data(), pb.capacity);
		expect_invalid(probe, pb.capacity, &none, "probe without a table");
		memcpy(probe, gp.data(), pb.capacity);
		ctx.obj_bytes[0] = tbytes - 1;
		expect_invalid(probe, pb.capacity, &ctx, "probe of a table object too small");
		ctx.obj_bytes[0] = tbytes;
	}
	{
		std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
		gx_chunk   *fin = join_finish_task(fm.data(), js);

		fin->nrows = 1;
		expect_invalid(fin, join_finish_bytes() + 64, &ctx, "finish with rows");
		fin = join_finish_task(fm.data(), js);
		fin->ext.join.kcap = js.kcap / 2;
		expect_invalid(fin, join_finish_bytes(), &ctx, "finish of a bad geometry");
		fin = join_finish_task(fm.data(), js);
		fin->ext.join.jflags = 2;
		expect_invalid(fin, join_finish_bytes(), &ctx, "finish with unknown flags");
	}
	{
		/* JOIN_UNMATCHED: no program nor column, a range inside the table, its result area */
		uint64_t	ub = join_unmatched_bytes(100);
		std::vector<uint64_t> um(ub / 8 + 1);
		gx_chunk   *u = join_unmatched_task(um.data(), js, 0, 100, 0);

		u->ninstr = 1;
		expect_invalid(u, ub, &ctx, "unmatched with a program");
		u = join_unmatched_task(um.data(), js, 0, 100, 0);
		u->ncols = 1;
		expect_invalid(u, ub, &ctx, "unmatched with a column");
		u = join_unmatched_task(um.data(), js, 0, 100, 0);
		u->ext.nagg = 1;
		expect_invalid(u, ub, &ctx, "unmatched with aggregates");
		u = join_unmatched_task(um.data(), js, 1, 100, 0);
		expect_invalid(u, ub, &ctx, "unmatched range past the table");
		u = join_unmatched_task(um.data(), js, 0xFFFFFFF0u, 100, 0);
		expect_invalid(u, ub, &ctx, "unmatched range far past the table");
		u = join_unmatched_task(um.data(), js, 0, 100, 0);
		expect_invalid(u, ub - 8, &ctx, "unmatched result area past its slot");
		u = join_unmatched_task(um.data(), js, 0, 100, 0);
		u->ext.join.kcap = js.kcap / 2;
		expect_invalid(u, ub, &ctx, "unmatched of a bad geometry");
		u = join_unmatched_task(um.data(), js, 0, 100, 2);
		expect_invalid(u, ub, &ctx, "unmatched count_only 2");
		u = join_unmatched_task(um.data(), js, 0, 100, 0);
		u->ext.join.alg = GX_JOIN_RANGE;
		expect_invalid(u, ub, &ctx, "unmatched of a range join's table");
		u = join_unmatched_task(um.data(), js, 0, 100, 1);
		ctx.obj_bytes[0] = tbytes - 1;
		expect_invalid(u, ub, &ctx, "unmatched of a table object too small");
		ctx.obj_bytes[0] = tbytes;
		/* count-only needs no room for payloads */
		u = join_unmatched_task(um.data(), js, 0, 100, 1);
		CHECK(gx_cpu_run(u, GX_ALIGN_UP(sizeof(gx_chunk)) + gx_join_unmatched_result_bytes(100, 1),
						 &ctx, err, sizeof(err)) == GX_OK &&
			  (gx_chunk_result(u)->error & 0xff) == GX_ERR_BAD_PROGRAM,
			  "an unmatched read of an unfinished table fails: %s", err);
	}

	/* out of order: a probe before the finish, a build after it */
	memcpy(probe, gp.data(), pb.capacity);
	CHECK(gx_cpu_run(probe, pb.capacity, &ctx, err, sizeof(err)) == GX_OK &&
		  (gx_chunk_result(probe)->error & 0xff) == GX_ERR_BAD_PROGRAM &&
		  gx_chunk_result(probe)->nsel == 0, "a probe of an unfinished table fails");
	memcpy(build, gb.data(), bb.capacity);
	CHECK(gx_cpu_run(build, bb.capacity, &ctx, err, sizeof(err)) == GX_OK &&
		  gx_chunk_result(build)->error == GX_NO_ERROR &&
		  gx_chunk_result(build)->join_count == 100, "build: %s", err);
	{
		std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
		gx_chunk   *fin = join_finish_task(fm.data(), js);

		CHECK(gx_cpu_run(fin, join_finish_bytes(), &ctx, err, sizeof(err)) == GX_OK &&
			  gx_chunk_result(fin)->join_count == 100, "finish: %s", err);
	}
	memcpy(build, gb.data(), bb.capacity);
	CHECK(gx_cpu_run(build, bb.capacity, &ctx, err, sizeof(err)) == GX_OK &&
		  (gx_chunk_result(build)->error & 0xff) == GX_ERR_BAD_PROGRAM &&
		  gx_chunk_result(build)->join_count == 0, "a build after the finish fails");
	memcpy(probe, gp.data(), pb.capacity);
	CHECK(gx_cpu_run(probe, pb.capacity, &ctx, err, sizeof(err)) == GX_OK &&
		  gx_chunk_result(probe)->error == GX_NO_ERROR &&
		  gx_chunk_result(probe)->nsel == 64 &&
		  (gx_chunk_result(probe)->flags & GX_RESULT_MORE) &&
		  gx_chunk_result(probe)->join_count == 64, "a probe after the finish: %u pairs",
		  gx_chunk_result(probe)->nsel);
	printf("join: malformed tasks refused, tasks out of order fail\n");
}

/*
 * Range join tasks the validator refuses (the table's geometry, the
 * bounds), and a sort that keeps every row: a table built in three tasks
 * of rows in descending order holds them sorted
 */
static void
test_join_range_invalid(void)
{
	JoinSide	in;
	JoinSpec	js = join_range_spec(JOIN_BOUND_INCL, JOIN_BOUND_EXCL);
	char		err[256];

	for (int r = 0; r < 100; r++)
		in.add(1000 - 7 * r, false, 1000 - 7 * r + 3, false, true);
	JoinTasks	t(in, js);
	gx_task_ctx &ctx = t.ctx;
	ChunkBuilder &bb = t.bb,
			   &pb = t.pb;
	gx_chunk   *build = t.build,
			   *probe = t.probe;
	std::vector<char> &gb = t.gb,
			   &gp = t.gp;

	JMUTATE(build, bb, gb, "join of an unknown algorithm", build->ext.join.alg = 3);
	JMUTATE(build, bb, gb, "range join with key slots", build->ext.join.kcap = 256);
	JMUTATE(build, bb, gb, "range join with two keys", build->ext.join.nkeys = 2);
	JMUTATE(build, bb, gb, "range join without rows", build->ext.join.cap = 0);
	JMUTATE(build, bb, gb, "range join past the limit",
			build->ext.join.cap = GX_JOIN_MAX_CAP + 1);
	JMUTATE(build, bb, gb, "range table larger than its object", build->ext.join.cap = 200);
	JMUTATE(build, bb, gb, "range join key of a missing output", build->ext.join.key_out[0] = 5);
	JMUTATE(probe, pb, gp, "range probe without bounds",
			(probe->ext.join.lo_out = -1, probe->ext.join.hi_out = -1));
	JMUTATE(probe, pb, gp, "range probe bound below -1", probe->ext.join.lo_out = -2);
	JMUTATE(probe, pb, gp, "range probe bound out of range",
			probe->ext.join.hi_out = GX_MAX_OUTS);
	JMUTATE(probe, pb, gp, "range probe bound of a missing output", probe->ext.join.hi_out = 7);
	JMUTATE(probe, pb, gp, "range probe bound of a float output",
			(probe->code[probe->ninstr - 1].type = GX_FLOAT8,
			 probe->code[probe->ninstr - 2].type = GX_FLOAT8));
	JMUTATE(probe, pb, gp, "range probe with unknown bound flags", probe->ext.join.bflags = 4);
	JMUTATE(probe, pb, gp, "range probe of a hash table's geometry",
			(probe->ext.join.alg = GX_JOIN_HASH, probe->ext.join.kcap = 256,
			 probe->ext.join.cap = 128));

	/* built in three tasks, out of order: the finish sorts, the probe finds */
	join_build_unordered(in, js, &ctx, "range");
	{
		gx_jrange_offs o;
		const int64_t *skey,
				   *run;
		bool		sorted = true;

		gx_jrange_layout(js.cap, &o);
		skey = (const int64_t *) ((char *) t.table + o.skey);
		run = (const int64_t *) ((char *) t.table + o.run);
		for (uint32_t i = 0; i < 100; i++)
			sorted &= skey[i] == 1000 - 7 * (99 - (int64_t) i) && run[i] == 99 - (int64_t) i;
		CHECK(sorted, "range finish: keys sorted, payloads with their keys");
	}
	memcpy(probe, gp.data(), pb.capacity);
	CHECK(gx_cpu_run(probe, pb.capacity, &ctx, err, sizeof(err)) == GX_OK &&
		  gx_chunk_result(probe)->error == GX_NO_ERROR &&
		  gx_chunk_result(probe)->join_count == 64 && gx_chunk_result(probe)->nsel == 64 &&
		  (gx_chunk_result(probe)->flags & GX_RESULT_MORE) &&
		  gx_chunk_result(probe)->next_row == 64,
		  "range probe: each row's band [k, k + 3) holds its own key alone (%s)", err);
}

/*
 * Merge join tasks the validator refuses (gx_jmerge.cuh), then a table
 * built in tasks out of order: FINISH sorts it and encodes its distinct
 * keys; a probe in passes; an UNMATCHED of the sorted rows
 */
static void
test_join_merge_invalid(void)
{
	JoinSide	in;
	JoinSpec	js;
	char		err[256];

	js.alg = GX_JOIN_MERGE;
	js.nkeys = 2;
	/* keys (r % 10, r % 3 - 1): 30 distinct keys of about 3 rows each */
	for (int r = 0; r < 100; r++)
		in.add(r % 10, false, r % 3 - 1, false, true);
	JoinTasks	t(in, js);
	gx_task_ctx &ctx = t.ctx;
	ChunkBuilder &bb = t.bb,
			   &pb = t.pb;
	gx_chunk   *build = t.build,
			   *probe = t.probe;
	std::vector<char> &gb = t.gb,
			   &gp = t.gp;

	JMUTATE(build, bb, gb, "merge join with key slots", build->ext.join.kcap = 256);
	JMUTATE(build, bb, gb, "merge join with three keys", build->ext.join.nkeys = 3);
	JMUTATE(build, bb, gb, "merge join without keys", build->ext.join.nkeys = 0);
	JMUTATE(build, bb, gb, "merge join without rows", build->ext.join.cap = 0);
	JMUTATE(build, bb, gb, "merge join past the limit",
			build->ext.join.cap = GX_JOIN_MAX_CAP + 1);
	JMUTATE(build, bb, gb, "merge table larger than its object", build->ext.join.cap = 200);
	JMUTATE(build, bb, gb, "merge join key of a missing output", build->ext.join.key_out[1] = 5);
	/* a merge probe's result area holds its scratch: a hash probe's is too small */
	JMUTATE(probe, pb, gp, "merge probe without room for its scratch",
			probe->ext.join.max_pairs = 64 + (uint32_t) ((gx_join_pairs_off(100, GX_JOIN_MERGE) -
														  gx_join_pairs_off(100, GX_JOIN_HASH)) /
														 sizeof(gx_join_pair)) + 1);
	JMUTATE(probe, pb, gp, "merge probe of a hash table's geometry",
			(probe->ext.join.alg = GX_JOIN_HASH, probe->ext.join.kcap = 4096));
	{
		std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
		gx_chunk   *fin = join_finish_task(fm.data(), js);

		fin->ext.join.jflags = GX_JOIN_NO_RUNS;
		expect_invalid(fin, join_finish_bytes(), &ctx, "merge finish without runs");
	}
	{
		std::vector<uint64_t> um(join_unmatched_bytes(10) / 8 + 1);
		gx_chunk   *u = join_unmatched_task(um.data(), js, 95, 10, 0);

		expect_invalid(u, join_unmatched_bytes(10), &ctx, "merge unmatched past the table");
	}

	/* built in three tasks, out of order */
	join_build_unordered(in, js, &ctx, "merge");
	{
		gx_jmerge_offs o;
		const gx_join_hdr *hdr = (const gx_join_hdr *) t.table;
		const int64_t *s0,
				   *s1,
				   *run,
				   *u0,
				   *u1;
		const uint32_t *ustart,
				   *urow;
		bool		ok = hdr->keys == 30 && hdr->rows == 100;

		gx_jmerge_layout(js.cap, &o);
		s0 = (const int64_t *) ((char *) t.table + o.skey0);
		s1 = (const int64_t *) ((char *) t.table + o.skey1);
		run = (const int64_t *) ((char *) t.table + o.run);
		u0 = (const int64_t *) ((char *) t.table + o.ukey0);
		u1 = (const int64_t *) ((char *) t.table + o.ukey1);
		ustart = (const uint32_t *) ((char *) t.table + o.ustart);
		urow = (const uint32_t *) ((char *) t.table + o.urow);
		for (uint32_t i = 0; i < 100 && ok; i++)
		{
			/* sorted by (key0, key1), each row's payload (its row) with its keys */
			ok = (i == 0 || s0[i - 1] < s0[i] || (s0[i - 1] == s0[i] && s1[i - 1] <= s1[i])) &&
				s0[i] == run[i] % 10 && s1[i] == run[i] % 3 - 1 && urow[i] < 30 &&
				u0[urow[i]] == s0[i] && u1[urow[i]] == s1[i] && ustart[urow[i]] <= i &&
				i < (urow[i] + 1 < 30 ? ustart[urow[i] + 1] : 100);
		}
		CHECK(ok && ustart[0] == 0 && ustart[29] < 100,
			  "merge finish: rows sorted, 30 distinct keys with their runs");
	}
	memcpy(probe, gp.data(), pb.capacity);
	probe->ext.join.mode = GX_JOIN_RIGHT;
	CHECK(gx_cpu_run(probe, pb.capacity, &ctx, err, sizeof(err)) == GX_OK &&
		  gx_chunk_result(probe)->error == GX_NO_ERROR &&
		  (gx_chunk_result(probe)->flags & GX_RESULT_MORE) &&
		  gx_chunk_result(probe)->nsel == 64 && gx_chunk_result(probe)->next_row < 100,
		  "merge probe: a first pass of 64 entries (%s)", err);
	{
		/*
		 * the same pass with its scratch in an object (GX_JOIN_MSCRATCH,
		 * as for a cached batch): the same entries, where a hash probe's
		 * result area has them; refused without the object or too small
		 * a one
		 */
		gx_jmerge_probe_offs mo;
		const uint64_t mbytes = gx_jmerge_probe_layout(100, &mo);
		const gx_result *r = gx_chunk_result(probe);
		std::vector<gx_join_pair> first(r->nsel);
		std::vector<uint64_t> ms(mbytes / 8 + 1);

		memcpy(first.data(), (const char *) r + gx_join_pairs_off(100, GX_JOIN_MERGE),
			   sizeof(gx_join_pair) * first.size());
		memcpy(probe, gp.data(), pb.capacity);
		probe->ext.join.mode = GX_JOIN_RIGHT;
		probe->ext.join.jflags |= GX_JOIN_MSCRATCH;
		expect_invalid(probe, pb.capacity, &ctx, "merge probe without its scratch object");
		ctx.obj[GX_JOIN_OBJ_MSCRATCH] = (char *) ms.data();
		ctx.obj_bytes[GX_JOIN_OBJ_MSCRATCH] = mbytes - 8;
		expect_invalid(probe, pb.capacity, &ctx, "merge probe with too small a scratch object");
		ctx.obj_bytes[GX_JOIN_OBJ_MSCRATCH] = mbytes;
		CHECK(gx_cpu_run(probe, pb.capacity, &ctx, err, sizeof(err)) == GX_OK &&
			  r->error == GX_NO_ERROR && r->nsel == first.size() && r->nsel == 64 &&
			  memcmp((const char *) r + gx_join_pairs_off(100, GX_JOIN_HASH), first.data(),
					 sizeof(gx_join_pair) * first.size()) == 0,
			  "merge probe with its scratch in an object: the same first pass (%s)", err);
		ctx.obj[GX_JOIN_OBJ_MSCRATCH] = NULL;
		ctx.obj_bytes[GX_JOIN_OBJ_MSCRATCH] = 0;
		memcpy(probe, gp.data(), pb.capacity);
		probe->ext.join.alg = GX_JOIN_HASH;
		probe->ext.join.jflags |= GX_JOIN_MSCRATCH;
		expect_invalid(probe, pb.capacity, &ctx, "hash probe with a merge scratch flag");
	}
	{
		std::vector<uint64_t> um(join_unmatched_bytes(100) / 8 + 1);
		gx_chunk   *u = join_unmatched_task(um.data(), js, 0, 100, 0);

		/* (the probe's rows are the table's: every key marked, none unmatched) */
		CHECK(gx_cpu_run(u, join_unmatched_bytes(100), &ctx, err, sizeof(err)) == GX_OK &&
			  gx_chunk_result(u)->error == GX_NO_ERROR && gx_chunk_result(u)->join_count == 0,
			  "merge unmatched: every key matched (%s)", err);
	}
}

/* ---------------------------------------------------------------------- */
/* aggregation over a join (group probe, gx_join.cuh)                      */
/* ---------------------------------------------------------------------- */

/*
 * Aggregation over a join on the CPU device (where: "caller alone" or
 * "pool"; sizes times scale: the pool's tasks span several tiles, so its
 * threads add into their own tables and merge them concurrently): every
 * case, mode, algorithm and key set of jg_cases against the nested-loop
 * reference
 */
static void
test_jgroup(const char *where, uint32_t scale)
{
	std::mt19937_64 rng(4242);
	const JgDev dev = cpu_jg_dev();
	int			runs = 0;

	jg_cases(rng, scale, [&](const char *what, const JgSide &in, const JgSide &out, bool host) {
		runs += jg_case_runs(dev, where, what, in, out, host);
	});
	printf("group join (%s, sizes x%u): %d runs against the reference\n", where, scale, runs);
}

/* the 50 inner and 50 outer rows (keys 0..9, 0..11) of the validator tests, from seed */
static void
jg_invalid_sides(uint64_t seed, JgSide &in, JgSide &out)
{
	std::mt19937_64 rng(seed);

	for (int i = 0; i < 50; i++)
	{
		in.add_random(rng, i % 10, 0, 0, 0);
		out.add_random(rng, i % 12, 0, 0, 0);
	}
}

/*
 * Group probes and inner column builds the validator refuses: inner
 * columns past the outputs or GX_JOIN_MAX_COLS, no store or one too
 * small, RIGHT / FULL, a pass, SEMI reading an inner column, a build's
 * payload output with inner columns, a column not of its type
 */
static void
test_jgroup_invalid(void)
{
	JgSide		in,
				out;
	JgSpec		sp;

	jg_invalid_sides(7, in, out);
	const JgDev dev = cpu_jg_dev();
	const uint32_t cap = 64,
				kcap = 128;
	uint64_t	ob[GX_TASK_MAX_OBJS] = {gx_join_table_bytes(cap, kcap),
		gx_join_cols_bytes(cap, JG_NCOLS), 0};
	ChunkBuilder bb,
				pb;
	gx_chunk   *build = jg_side_task(bb, GX_TASK_JOIN_BUILD, in, sp, cap, kcap, 0, in.size());
	gx_chunk   *probe = jg_side_task(pb, GX_TASK_JOIN_PROBE, out, sp, cap, kcap, 0, out.size());

	jg_set_group(probe, sp);
	ob[2] = gx_group_table_bytes(sp.gcap, probe->ext.ngkeys, probe->ext.nagg);

	void	   *obj[GX_TASK_MAX_OBJS] = {dev.alloc(ob[0]), dev.alloc(ob[1]), dev.alloc(ob[2])};
	gx_task_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	for (int i = 0; i < 3; i++)
	{
		ctx.obj[i] = (char *) obj[i];
		ctx.obj_bytes[i] = ob[i];
	}
	std::vector<char> gb((char *) build, (char *) build + bb.capacity),
				gp((char *) probe, (char *) probe + pb.capacity);


	JMUTATE(build, bb, gb, "inner columns past the limit", build->ext.join.ncols = 9);
	JMUTATE(build, bb, gb, "a build's payload output with inner columns",
			 build->ext.join.payload_out = 2);
	JMUTATE(build, bb, gb, "an inner column not of its type",
			 build->ext.join.col_type[1] = GX_INT4);
	JMUTATE(build, bb, gb, "an inner column of a missing output",
			 build->ext.join.col_out[2] = 9);
	JMUTATE(build, bb, gb, "an inner column store too small",
			 ctx.obj_bytes[1] = gx_join_cols_bytes(cap, JG_NCOLS) - 1);
	ctx.obj_bytes[1] = ob[1];
	JMUTATE(build, bb, gb, "no inner column store", ctx.obj[1] = NULL);
	ctx.obj[1] = (char *) obj[1];

	/* the table built and finished: the probe is then valid */
	{
		std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
		JoinSpec	js;

		js.cap = cap;
		js.kcap = kcap;
		memcpy(build, gb.data(), bb.capacity);
		CHECK(dev.run(build, bb.capacity, obj, ob, nullptr, 0) &&
			  gx_chunk_result(build)->error == GX_NO_ERROR &&
			  dev.run(join_finish_task(fm.data(), js), join_finish_bytes(), obj, ob, nullptr, 0),
			  "group join: the table built");
		memcpy(probe, gp.data(), pb.capacity);
		CHECK(dev.run(probe, pb.capacity, obj, ob, nullptr, 0) &&
			  gx_chunk_result(probe)->error == GX_NO_ERROR &&
			  gx_chunk_result(probe)->join_count > 0,
			  "group join: the unmutated probe runs");
	}
	JMUTATE(probe, pb, gp, "inner columns past the outputs",
			 probe->ext.join.icol_base = GX_MAX_OUTS - 2);
	JMUTATE(probe, pb, gp, "inner column base past the outputs",
			 probe->ext.join.icol_base = GX_MAX_OUTS + 1);
	JMUTATE(probe, pb, gp, "a probe of 9 inner columns", probe->ext.join.ncols = 9);
	JMUTATE(probe, pb, gp, "a group probe in RIGHT mode",
			 probe->ext.join.mode = GX_JOIN_RIGHT);
	JMUTATE(probe, pb, gp, "a group probe in FULL mode", probe->ext.join.mode = GX_JOIN_FULL);
	JMUTATE(probe, pb, gp, "a group probe in passes", probe->ext.join.first_row = 1);
	JMUTATE(probe, pb, gp, "a group probe skipping matches", probe->ext.join.first_match = 1);
	JMUTATE(probe, pb, gp, "a group probe writing entries", probe->ext.join.max_pairs = 1);
	JMUTATE(probe, pb, gp, "a group probe count-only", probe->ext.count_only = 1);
	JMUTATE(probe, pb, gp, "a SEMI group probe reading an inner column",
			 probe->ext.join.mode = GX_JOIN_SEMI);
	JMUTATE(probe, pb, gp, "a group key past the inner columns",
			 probe->ext.gkey_col[0] = JG_ICOL_BASE + JG_NCOLS);
	JMUTATE(probe, pb, gp, "an aggregate of an output the program lacks",
			 probe->ext.join.icol_base = 7);
	JMUTATE(probe, pb, gp, "a float inner column as a group key",
			 probe->ext.gkey_col[0] = JG_ICOL_BASE + 2);
	JMUTATE(probe, pb, gp, "no inner column store", ctx.obj[1] = NULL);
	ctx.obj[1] = (char *) obj[1];
	JMUTATE(probe, pb, gp, "an inner column store too small",
			 ctx.obj_bytes[1] = gx_join_cols_bytes(cap, JG_NCOLS) - 1);
	ctx.obj_bytes[1] = ob[1];
	JMUTATE(probe, pb, gp, "no group table", ctx.obj[2] = NULL);
	ctx.obj[2] = (char *) obj[2];
	JMUTATE(probe, pb, gp, "a group table too small", ctx.obj_bytes[2] = ob[2] - 1);
	ctx.obj_bytes[2] = ob[2];
	for (int i = 0; i < 3; i++)
		dev.release(obj[i]);
}

/*
 * Multi-level group probes the validator refuses (a valid 3-level probe of
 * jgl_cases, its tables built on the CPU device, mutated): too many
 * levels, not INNER, not a group probe, a level's geometry, a key at or
 * after its level's columns or of the wrong type, columns overlapping the
 * level before or past the outputs, a missing or small table or store,
 * a group key in the gap between levels
 */
static void
test_jgroup_levels_invalid(void)
{
	std::mt19937_64 rng(99);
	auto		cases = jgl_cases(rng, 1);
	const JglCase &cs = cases[3].second;	/* 3 levels, one key */
	const JgDev dev = cpu_jg_dev();
	uint64_t	ob[GX_TASK_MAX_OBJS] = {0};
	void	   *obj[GX_TASK_MAX_OBJS] = {nullptr};
	ChunkBuilder pb;
	gx_chunk   *probe = jgl_probe_task(pb, cs, 0, cs.out.size());
	gx_task_ctx ctx;
	char		err[256];

	memset(&ctx, 0, sizeof(ctx));
	for (int l = 0; l < 3; l++)
	{
		uint32_t	cap,
					kcap;
		const int	to = l == 0 ? 0 : GX_JOIN_OBJ_LEVEL(l),
					co = l == 0 ? GX_JOIN_OBJ_COLS : GX_JOIN_OBJ_LEVEL_COLS(l);

		jgl_geometry(cs.ins[l], &cap, &kcap);
		ob[to] = gx_join_table_bytes(cap, kcap);
		ob[co] = gx_join_cols_bytes(cap, JG_NCOLS);
	}
	ob[GX_JOIN_OBJ_GROUP] = gx_group_table_bytes(probe->ext.ngroup_cap, probe->ext.ngkeys,
												 probe->ext.nagg);
	for (int i = 0; i < GX_TASK_MAX_OBJS; i++)
	{
		obj[i] = ob[i] > 0 ? dev.alloc(ob[i]) : nullptr;
		ctx.obj[i] = (char *) obj[i];
		ctx.obj_bytes[i] = obj[i] != nullptr ? ob[i] : 0;
	}
	std::vector<char> gp((char *) probe, (char *) probe + pb.capacity);

	/* unfinished tables fail the task; the valid probe passes the validator */
	CHECK(gx_cpu_run(probe, pb.capacity, &ctx, err, sizeof(err)) == GX_OK &&
		  gx_chunk_result(probe)->error != GX_NO_ERROR,
		  "multi-level probe over unfinished tables: an error (%s)", err);

#define LMUTATE(what, stmt) \
	do { \
		memcpy(probe, gp.data(), pb.capacity); \
		stmt; \
		expect_invalid(probe, pb.capacity, &ctx, (what)); \
	} while (0)
	gx_join_level *v1 = &probe->ext.join.level[0],
			   *v2 = &probe->ext.join.level[1];

	LMUTATE("a probe of 5 levels", probe->ext.join.nlevels = 5);
	LMUTATE("a LEFT multi-level probe", probe->ext.join.mode = GX_JOIN_LEFT);
	LMUTATE("a multi-level probe without a group table", probe->ext.ngroup_cap = 0);
	LMUTATE("a level of no rows", v1->cap = 0);
	LMUTATE("a level's key slots not a power of 2", v1->kcap = v1->kcap * 3 / 2);
	LMUTATE("a level's key slots too few", v1->kcap = v1->cap);
	LMUTATE("a level of 3 keys", v1->nkeys = 3);
	LMUTATE("a level's float key bit past its keys", v1->kfloat = 2);
	LMUTATE("a level's key at its own columns", v1->key_ref[0] = JGL_ICOL(1));
	LMUTATE("a level's key after its columns", v1->key_ref[0] = JGL_ICOL(2));
	LMUTATE("a level's key a float column", v1->key_ref[0] = JGL_ICOL(0) + 2);
	LMUTATE("a level's key in the gap before its columns",
			 (v2->icol_base = JGL_ICOL(2) + 1, v2->key_ref[0] = JGL_ICOL(2)));
	LMUTATE("a level's columns over the level before", v2->icol_base = JGL_ICOL(2) - 1);
	LMUTATE("a level's columns past the outputs", v2->icol_base = GX_MAX_OUTS - 2);
	LMUTATE("a level of 9 columns", v2->ncols = 9);
	LMUTATE("a level column of no type", v2->col_type[1] = GX_NTYPES);
	LMUTATE("a group key past the last level's columns",
			 probe->ext.gkey_col[1] = JGL_ICOL(3));
	LMUTATE("no level table", ctx.obj[GX_JOIN_OBJ_LEVEL(2)] = NULL);
	ctx.obj[GX_JOIN_OBJ_LEVEL(2)] = (char *) obj[GX_JOIN_OBJ_LEVEL(2)];
	LMUTATE("a level table too small", ctx.obj_bytes[GX_JOIN_OBJ_LEVEL(1)] -= 8);
	ctx.obj_bytes[GX_JOIN_OBJ_LEVEL(1)] = ob[GX_JOIN_OBJ_LEVEL(1)];
	LMUTATE("no level column store", ctx.obj[GX_JOIN_OBJ_LEVEL_COLS(1)] = NULL);
	ctx.obj[GX_JOIN_OBJ_LEVEL_COLS(1)] = (char *) obj[GX_JOIN_OBJ_LEVEL_COLS(1)];
	LMUTATE("a level column store too small", ctx.obj_bytes[GX_JOIN_OBJ_LEVEL_COLS(2)] -= 8);
	ctx.obj_bytes[GX_JOIN_OBJ_LEVEL_COLS(2)] = ob[GX_JOIN_OBJ_LEVEL_COLS(2)];
#undef LMUTATE
	for (int i = 0; i < GX_TASK_MAX_OBJS; i++)
		dev.release(obj[i]);
}

/* ---------------------------------------------------------------------- */
/* gathered output (a probe's entries with their columns, gx_join.cuh)     */
/* ---------------------------------------------------------------------- */

/*
 * Gathering probes on the CPU device (where: "caller alone" or "pool";
 * sizes times scale): every case of jg_cases, algorithm and mode of
 * jga_case_runs, every pass's entries and their gathered columns against
 * the rows
 */
static void
test_join_gather(const char *where, uint32_t scale)
{
	std::mt19937_64 rng(5151);
	const JgDev dev = cpu_jg_dev();
	int			runs = 0;

	jg_cases(rng, scale, [&](const char *what, const JgSide &in, const JgSide &out, bool host) {
		runs += jga_case_runs(dev, where, what, in, out, host, scale);
	});
	printf("gathered join (%s, sizes x%u): %d runs against the reference\n", where, scale, runs);
}

/*
 * Gathering probes the validator refuses (a valid gathering probe over a
 * table built with inner columns, mutated): too many columns, an output
 * the program lacks or past the outputs, an inner column past ncols, no
 * store or one too small, a result area too small, count-only, a group
 * probe, several levels; a BUILD, FINISH or UNMATCHED with columns.  A
 * probe gathering outer outputs alone needs no store.
 */
static void
test_join_gather_invalid(void)
{
	JgSide		in,
				out;
	JgSpec		sp;

	jg_invalid_sides(8, in, out);
	const JgDev dev = cpu_jg_dev();
	const uint32_t cap = 64,
				kcap = 128,
				max_pairs = 16;
	uint64_t	ob[GX_TASK_MAX_OBJS] = {gx_join_table_bytes(cap, kcap),
		gx_join_cols_bytes(cap, JGA_NCOLS)};
	ChunkBuilder bb,
				pb;
	gx_chunk   *build = jg_side_task(bb, GX_TASK_JOIN_BUILD, in, sp, cap, kcap, 0, in.size(),
									 true);
	gx_chunk   *probe = jg_side_task(pb, GX_TASK_JOIN_PROBE, out, sp, cap, kcap, 0, out.size(),
									 true);
	const uint64_t rbytes = gx_join_gather_result_bytes(out.size(), max_pairs, GX_JOIN_HASH,
														JGA_NGATHER);

	probe = join_grow_result(pb, rbytes);
	probe->ext.join.max_pairs = max_pairs;
	probe->ext.join.ngather = JGA_NGATHER;
	for (uint32_t g = 0; g < JGA_NGATHER; g++)
		probe->ext.join.gather[g] = jga_gather[g];

	void	   *obj[GX_TASK_MAX_OBJS] = {dev.alloc(ob[0]), dev.alloc(ob[1])};
	gx_task_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	for (int i = 0; i < 2; i++)
	{
		ctx.obj[i] = (char *) obj[i];
		ctx.obj_bytes[i] = ob[i];
	}
	std::vector<char> gb((char *) build, (char *) build + bb.capacity),
				gp((char *) probe, (char *) probe + pb.capacity);
	std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
	JoinSpec	js;
	char		err[256] = "";

	js.cap = cap;
	js.kcap = kcap;

	/* the table built and finished: the probe is then valid */
	CHECK(dev.run(build, bb.capacity, obj, ob, nullptr, 0) &&
		  gx_chunk_result(build)->error == GX_NO_ERROR &&
		  dev.run(join_finish_task(fm.data(), js), join_finish_bytes(), obj, ob, nullptr, 0),
		  "gathered join: the table built");
	CHECK(dev.run(probe, pb.capacity, obj, ob, nullptr, 0) &&
		  gx_chunk_result(probe)->error == GX_NO_ERROR && gx_chunk_result(probe)->nsel > 0,
		  "gathered join: the unmutated probe runs");

	/* outer outputs alone: no store needed */
	memcpy(probe, gp.data(), pb.capacity);
	probe->ext.join.ngather = 2;
	probe->ext.join.gather[0] = 0;
	probe->ext.join.gather[1] = 5;
	ctx.obj[1] = NULL;
	ctx.obj_bytes[1] = 0;
	CHECK(gx_cpu_run(probe, pb.capacity, &ctx, err, sizeof(err)) == GX_OK &&
		  gx_chunk_result(probe)->error == GX_NO_ERROR && gx_chunk_result(probe)->nsel > 0,
		  "gathered join: outer outputs without a store (%s)", err);
	ctx.obj[1] = (char *) obj[1];
	ctx.obj_bytes[1] = ob[1];

	JMUTATE(probe, pb, gp, "a probe gathering 17 columns",
			 probe->ext.join.ngather = GX_JOIN_MAX_GATHER + 1);
	JMUTATE(probe, pb, gp, "a gathered output the program lacks", probe->ext.join.gather[1] = 6);
	JMUTATE(probe, pb, gp, "a gathered output past the outputs",
			 probe->ext.join.gather[1] = GX_MAX_OUTS);
	JMUTATE(probe, pb, gp, "a gathered inner column past ncols",
			 probe->ext.join.gather[0] = -1 - JGA_NCOLS);
	JMUTATE(probe, pb, gp, "a gathered inner column without inner columns",
			 probe->ext.join.ncols = 0);
	JMUTATE(probe, pb, gp, "gathered inner columns past GX_JOIN_MAX_COLS",
			 (probe->ext.join.ncols = GX_JOIN_MAX_COLS + 1,
			  probe->ext.join.gather[0] = -1 - GX_JOIN_MAX_COLS));
	JMUTATE(probe, pb, gp, "gathered inner columns without a store", ctx.obj[1] = NULL);
	ctx.obj[1] = (char *) obj[1];
	JMUTATE(probe, pb, gp, "gathered inner columns with a store too small",
			 ctx.obj_bytes[1] = gx_join_cols_bytes(cap, JGA_NCOLS) - 1);
	ctx.obj_bytes[1] = ob[1];
	JMUTATE(probe, pb, gp, "a count-only gathering probe", probe->ext.count_only = 1);
	JMUTATE(probe, pb, gp, "a gathering group probe",
			 (jg_set_group(probe, sp), probe->ext.join.max_pairs = 0));
	JMUTATE(probe, pb, gp, "a gathering probe of 2 levels", probe->ext.join.nlevels = 2);
	JMUTATE(probe, pb, gp, "a gathering probe's result area too small",
			 probe->ext.join.max_pairs = max_pairs + 1);
	{
		/* the slot one byte short of the result area */
		memcpy(probe, gp.data(), pb.capacity);
		expect_invalid(probe, probe->result_off + rbytes - 1, &ctx,
					   "a gathering probe's slot too small");
		memcpy(probe, gp.data(), pb.capacity);
		CHECK(gx_cpu_run(probe, probe->result_off + rbytes, &ctx, err, sizeof(err)) == GX_OK,
			  "gathered join: a slot of exactly the result area (%s)", err);
	}
	JMUTATE(build, bb, gb, "a build gathering columns",
			 (build->ext.join.ngather = 1, build->ext.join.gather[0] = 0));
	{
		std::vector<uint64_t> um(join_unmatched_bytes(4) / 8 + 1);
		gx_chunk   *c = join_finish_task(fm.data(), js);

		c->ext.join.ngather = 1;
		expect_invalid(c, join_finish_bytes(), &ctx, "a finish gathering columns");
		c = join_unmatched_task(um.data(), js, 0, 4, 0);
		c->ext.join.ngather = 1;
		c->ext.join.gather[0] = -1;
		expect_invalid(c, join_unmatched_bytes(4), &ctx, "an unmatched task gathering columns");
	}
	for (int i = 0; i < 2; i++)
		dev.release(obj[i]);
}
#undef JMUTATE


/* ---------------------------------------------------------------------- */
/* batched lookups: SEARCH (gx_search.cuh)                                 */
/* ---------------------------------------------------------------------- */

/*
 * The sorted projection of case sc built on the CPU device (JOIN_BUILD
 * tasks of a range join's table, FINISH) in table (cap rows, tbytes) and
 * checked: the keys sorted, each with its position; ctx names it
 */
static bool
search_cpu_projection(const SearchCase &sc, uint32_t cap, void *table, uint64_t tbytes,
					  gx_task_ctx *ctx)
{
	gx_jrange_offs o;

	memset(ctx, 0, sizeof(*ctx));
	ctx->obj[0] = (char *) table;
	ctx->obj_bytes[0] = tbytes;
	gx_jrange_layout(cap, &o);
	return search_build(cpu_join_runner(table, tbytes), sc.keys, cap, 1000) &&
		search_projection_ok((const int64_t *) ((char *) table + o.skey),
							 (const int64_t *) ((char *) table + o.run), sc.keys);
}

/*
 * SEARCH on the CPU device ('how': on the caller's thread or the pool;
 * sizes times scale, so that the pool's threads share the probes): each
 * case's projection, then every operation (equality; ranges with
 * every bound flag), every algorithm and p, against std::lower_bound /
 * upper_bound: the runs, nsel, join_count; and a task without probes
 */
static void
test_search(const char *how, uint32_t scale)
{
	std::mt19937_64 rng(1616);
	int			ntasks = 0;

	search_cases(rng, scale, [&](const SearchCase &sc) {
		const uint32_t cap = search_cap(sc);
		const uint64_t tbytes = gx_jrange_table_bytes(cap);
		void	   *table = nullptr;
		gx_task_ctx ctx;
		char		err[256] = "";

		CHECK(gx_mem_alloc(GX_DEV_CPU, tbytes, &table, err, sizeof(err)) == GX_OK,
			  "search %s: table: %s", sc.what.c_str(), err);
		if (table == nullptr)
			return;
		CHECK(search_cpu_projection(sc, cap, table, tbytes, &ctx),
			  "search %s (%s): the projection holds the keys sorted, with their positions",
			  sc.what.c_str(), how);
		ntasks += search_each_task(sc, cap, [&](gx_chunk *c, uint64_t capacity, uint32_t op,
												uint32_t bflags, const uint32_t *a,
												const std::vector<gx_search_run> &want,
												uint64_t sum) {
			gx_status	st = gx_cpu_run(c, capacity, &ctx, err, sizeof(err));
			gx_result  *r = gx_chunk_result(c);

			CHECK(st == GX_OK && r->error == GX_NO_ERROR && r->nsel == sc.lo.size() &&
				  r->join_count == sum && search_runs_equal(c, want),
				  "search %s (%s): op %u flags %u alg %u lanes %u: status %d (%s), "
				  "%u runs, count %llu, want %llu", sc.what.c_str(), how, op, bflags,
				  a[0], a[1], (int) st, err, r->nsel, (unsigned long long) r->join_count,
				  (unsigned long long) sum);
		});
		{
			ChunkBuilder b;
			gx_chunk   *c = search_task(b, sc, 0, 0, GX_SEARCH_EQ, 0, GX_SEARCH_PARY, 8, cap);

			CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK &&
				  gx_chunk_result(c)->nsel == 0 && gx_chunk_result(c)->join_count == 0,
				  "search %s (%s): no probes, no runs (%s)", sc.what.c_str(), how, err);
		}
		gx_mem_free(GX_DEV_CPU, table);
	});
	printf("search (%s): %d tasks against std::lower_bound / upper_bound\n", how, ntasks);
}

/* task c restored from good (bytes), changed by stmt: refused */
#define SMUTATE(c, good, bytes, what, stmt) \
	do { \
		memcpy(c, good.data(), bytes); \
		stmt; \
		expect_invalid(c, bytes, &ctx, (what)); \
	} while (0)

/*
 * SEARCH tasks the validator refuses: sizes, offsets, the projection
 * (missing, too small, its geometry), operation, bound flags, algorithm
 * and lanes, column types, what a search does not take; then a search of
 * a table that was never sealed fails at row 0
 */
static void
test_search_invalid(void)
{
	std::mt19937_64 rng(1717);
	SearchCase	sc;
	const uint32_t cap = 100;
	const uint64_t tbytes = gx_jrange_table_bytes(cap);
	std::vector<uint64_t> table(tbytes / 8 + 1, 0);
	gx_task_ctx ctx;
	char		err[256] = "";

	for (uint32_t i = 0; i < cap; i++)
		sc.keys.push_back((int64_t) (rng() % 50));
	search_probes(rng, sc, 50);
	CHECK(search_cpu_projection(sc, cap, table.data(), tbytes, &ctx), "search: projection");

	ChunkBuilder eb,
				rb;
	gx_chunk   *eq = search_task(eb, sc, 0, 50, GX_SEARCH_EQ, 0, GX_SEARCH_PARY, 8, cap);
	gx_chunk   *range = search_task(rb, sc, 0, 50, GX_SEARCH_RANGE, GX_JOIN_LO_INCL,
									GX_SEARCH_BINARY, 1, cap);
	std::vector<char> ge((const char *) eq, (const char *) eq + eb.capacity),
				gr((const char *) range, (const char *) range + rb.capacity);

	CHECK(gx_cpu_run(eq, eb.capacity, &ctx, err, sizeof(err)) == GX_OK &&
		  gx_cpu_run(range, rb.capacity, &ctx, err, sizeof(err)) == GX_OK,
		  "search: the good tasks run (%s)", err);

	memcpy(eq, ge.data(), eb.capacity);
	expect_invalid(eq, eb.capacity - 8, &ctx, "search result area past its slot");
	SMUTATE(eq, ge, eb.capacity, "search result area past its slot (offset)",
			eq->result_off = eb.capacity - gx_search_result_bytes(50) + 16);
	SMUTATE(eq, ge, eb.capacity, "search column outside the task",
			eq->cols[0].values_off = eq->input_bytes - 8);
	SMUTATE(eq, ge, eb.capacity, "search null bitmap outside the task",
			eq->cols[0].nulls_off = eq->input_bytes);
	SMUTATE(eq, ge, eb.capacity, "search column misaligned", eq->cols[0].values_off += 4);
	SMUTATE(eq, ge, eb.capacity, "search of an unknown operation", eq->ext.search.op = 2);
	SMUTATE(eq, ge, eb.capacity, "search range with one column",
			eq->ext.search.op = GX_SEARCH_RANGE);
	SMUTATE(eq, ge, eb.capacity, "search equality with bound flags",
			eq->ext.search.bflags = GX_JOIN_LO_INCL);
	SMUTATE(range, gr, rb.capacity, "search range with unknown bound flags",
			range->ext.search.bflags = 4);
	SMUTATE(range, gr, rb.capacity, "search equality with two columns",
			range->ext.search.op = GX_SEARCH_EQ);
	SMUTATE(eq, ge, eb.capacity, "search of an unknown algorithm", eq->ext.search.alg = 2);
	SMUTATE(eq, ge, eb.capacity, "p-ary search with 0 lanes", eq->ext.search.lanes = 0);
	SMUTATE(eq, ge, eb.capacity, "p-ary search with 1 lane", eq->ext.search.lanes = 1);
	SMUTATE(eq, ge, eb.capacity, "p-ary search with 3 lanes", eq->ext.search.lanes = 3);
	SMUTATE(eq, ge, eb.capacity, "p-ary search with 64 lanes", eq->ext.search.lanes = 64);
	SMUTATE(range, gr, rb.capacity, "binary search with 4 lanes", range->ext.search.lanes = 4);
	SMUTATE(eq, ge, eb.capacity, "search of a float column", eq->cols[0].type = GX_FLOAT8);
	SMUTATE(eq, ge, eb.capacity, "search of a bool column", eq->cols[0].type = GX_BOOL);
	SMUTATE(range, gr, rb.capacity, "search of an unknown column type",
			range->cols[1].type = GX_NTYPES);
	SMUTATE(eq, ge, eb.capacity, "search with a program", eq->ninstr = 1);
	SMUTATE(eq, ge, eb.capacity, "search of a cache entry", eq->ext.entry = 0);
	SMUTATE(eq, ge, eb.capacity, "search with aggregates", eq->ext.nagg = 1);
	SMUTATE(eq, ge, eb.capacity, "search with a group table", eq->ext.ngroup_cap = 64);
	SMUTATE(eq, ge, eb.capacity, "count-only search", eq->ext.count_only = 1);
	SMUTATE(eq, ge, eb.capacity, "search of heap pages", eq->deform_off = 64);
	SMUTATE(eq, ge, eb.capacity, "projection without rows", eq->ext.search.cap = 0);
	SMUTATE(eq, ge, eb.capacity, "projection past the limit",
			eq->ext.search.cap = GX_JOIN_MAX_CAP + 1);
	SMUTATE(eq, ge, eb.capacity, "projection larger than its object", eq->ext.search.cap = 200);
	{
		gx_task_ctx keep = ctx;

		ctx.obj[0] = NULL;
		SMUTATE(eq, ge, eb.capacity, "search without a projection", (void) 0);
		ctx = keep;
		ctx.obj_bytes[0] = tbytes - 8;
		SMUTATE(eq, ge, eb.capacity, "search of a projection object too small", (void) 0);
		ctx = keep;
	}

	/* a table never sealed: an error at row 0, no run */
	{
		std::vector<uint64_t> fresh(tbytes / 8 + 1, 0);
		gx_task_ctx fctx = ctx;

		fctx.obj[0] = (char *) fresh.data();
		memcpy(eq, ge.data(), eb.capacity);
		CHECK(gx_cpu_run(eq, eb.capacity, &fctx, err, sizeof(err)) == GX_OK &&
			  gx_chunk_result(eq)->error == ((uint64_t) 0 << 8 | GX_ERR_BAD_PROGRAM) &&
			  gx_chunk_result(eq)->nsel == 0,
			  "search of a table not sealed: an error at row 0 (%s)", err);
	}
}
#undef SMUTATE

/* ---------------------------------------------------------------------- */
/* big sets (GX_OP_INBIGSET) and OBJ_WRITE                                */
/* ---------------------------------------------------------------------- */

/*
 * = ANY over a big set in an object: the interpreter against
 * std::binary_search, the CPU device (which writes ext.sets) against it,
 * the NULL rules and float order INSET has, the validator's checks of the
 * sets against their object, and OBJ_WRITE
 */
static void
test_bigsets(void)
{
	std::mt19937_64 rng(16);
	int			err;
	char		msg[256];

	/* random int8 rows against 100000 sorted values at place 5 of an object */
	{
		const uint32_t nrows = 6000;
		const int64_t nset = 100000;
		std::vector<int64_t> obj(5 + nset + 3, 777);
		std::vector<int64_t> vals(nrows);
		std::vector<uint8_t> nulls(nrows);
		std::vector<uint32_t> want;

		for (int64_t i = 0; i < nset; i++)
			obj[5 + i] = i * 20 - 1000000 + (int64_t) (rng() % 20);
		for (uint32_t r = 0; r < nrows; r++)
		{
			nulls[r] = r % 37 == 0;
			vals[r] = r % 3 == 0 ? obj[5 + rng() % nset] : (int64_t) (rng() % 2200000) - 1100000;
		}
		ChunkBuilder b;
		int			ci = b.add_int_col(GX_INT8, vals, nulls);
		int			k = add_bigset(b, nset, 5);

		b.emit(GX_OP_LDCOL, GX_INT8, 0, 0, 0, ci);
		b.emit(GX_OP_INBIGSET, GX_INT8, 0, 0, 0, k);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
		gx_chunk   *c = b.build();
		int			bad = 0;

		c->ext.sets = (uint64_t) (uintptr_t) obj.data();
		for (uint32_t r = 0; r < nrows; r++)
		{
			int			w = !nulls[r] && std::binary_search(obj.begin() + 5, obj.begin() + 5 + nset,
															vals[r]);

			if (w)
				want.push_back(r);
			if (eval(c, r, &err) != w || err != 0)
				bad++;
		}
		CHECK(bad == 0 && want.size() > nrows / 4, "INBIGSET: %d of %u rows differ (%zu hits)",
			  bad, nrows, want.size());

		/* the CPU device names the object itself: a stale address is replaced */
		gx_task_ctx ctx;
		bool		ok;

		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[GX_TASK_OBJ_SETS] = (char *) obj.data();
		ctx.obj_bytes[GX_TASK_OBJ_SETS] = obj.size() * sizeof(int64_t);
		c->ext.sets = 8;
		CHECK(gx_cpu_run(c, b.capacity, &ctx, msg, sizeof(msg)) == GX_OK, "INBIGSET task: %s", msg);
		std::vector<uint32_t> got = concat_sel(c, &ok);

		std::sort(got.begin(), got.end());
		CHECK(ok && got == want, "INBIGSET on the CPU device: %zu rows, want %zu", got.size(),
			  want.size());

		/* the validator: every set inside its object */
		gx_chunk   *good = (gx_chunk *) malloc(b.capacity);
		gx_task_ctx small = ctx;
		gx_task_ctx none = ctx;
		gx_task_ctx misaligned = ctx;

		memcpy(good, c, b.capacity);
		small.obj_bytes[GX_TASK_OBJ_SETS] = (5 + nset - 1) * sizeof(int64_t);
		none.obj[GX_TASK_OBJ_SETS] = NULL;
		none.obj_bytes[GX_TASK_OBJ_SETS] = 0;
		misaligned.obj[GX_TASK_OBJ_SETS] += 4;
		expect_invalid(c, b.capacity, &small, "big set past its object");
		memcpy(c, good, b.capacity);
		expect_invalid(c, b.capacity, &none, "big set without its object");
		memcpy(c, good, b.capacity);
		expect_invalid(c, b.capacity, &misaligned, "big set in a misaligned object");
		memcpy(c, good, b.capacity);
		c->consts[k + 2].v.i = -1;
		expect_invalid(c, b.capacity, &ctx, "big set at a negative place");
		memcpy(c, good, b.capacity);
		c->consts[k + 2].v.i = INT64_MAX;
		expect_invalid(c, b.capacity, &ctx, "big set at a huge place");
		memcpy(c, good, b.capacity);
		c->consts[k].v.i = INT64_MAX;
		expect_invalid(c, b.capacity, &ctx, "big set of a huge count");
		memcpy(c, good, b.capacity);
		c->code[1].arg = (int32_t) c->nconsts - 2;
		expect_invalid(c, b.capacity, &ctx, "big set header past the constants");
		/* a NULL array or no value reads nothing: no object needed */
		memcpy(c, good, b.capacity);
		c->consts[k].isnull = 1;
		CHECK(gx_cpu_run(c, b.capacity, &none, msg, sizeof(msg)) == GX_OK &&
			  gx_chunk_result(c)->nsel == 0, "NULL big set without an object: %s", msg);
		memcpy(c, good, b.capacity);
		c->consts[k].v.i = 0;
		CHECK(gx_cpu_run(c, b.capacity, &none, msg, sizeof(msg)) == GX_OK &&
			  gx_chunk_result(c)->nsel == 0, "empty big set without an object: %s", msg);
		/* only a filter's program may search one */
		memcpy(c, good, b.capacity);
		c->kind = GX_TASK_JOIN_BUILD;
		msg[0] = '\0';
		CHECK(gx_cpu_run(c, b.capacity, &ctx, msg, sizeof(msg)) == GX_INVALID &&
			  strstr(msg, "big set") != NULL, "big set in a join build: '%s'", msg);
		free(good);
	}

	/* NULL rules (as INSET's) and <> ALL over floats: NaN equals NaN, -0 equals 0 */
	{
		std::vector<int64_t> obj = {-3, 5, 42, 100};
		ChunkBuilder b;
		int			ci = b.add_int_col(GX_INT4, {5, 7, 0, -3, 100, 42}, {0, 0, 1, 0, 0, 0});
		int			k = add_bigset(b, 4, 0);

		b.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, ci);
		b.emit(GX_OP_INBIGSET, GX_INT4, 0, 0, 0, k);
		b.emit(GX_OP_ISNULL, GX_BOOL, 1, 0);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 1);
		gx_chunk   *c = b.build();

		c->ext.sets = (uint64_t) (uintptr_t) obj.data();
		CHECK(!eval(c, 0, &err) && !eval(c, 1, &err) && eval(c, 2, &err),
			  "INBIGSET: only a NULL a is NULL");
		c->consts[k + 1].v.i = GX_RUN_HAS_NULL;
		CHECK(!eval(c, 0, &err) && eval(c, 1, &err) && eval(c, 2, &err),
			  "INBIGSET with a NULL element: a miss is NULL");
		c->consts[k].v.i = 0;
		c->consts[k + 1].v.i = 0;
		CHECK(!eval(c, 2, &err), "INBIGSET over no element: not NULL for a NULL a");
		c->consts[k].isnull = 1;
		CHECK(eval(c, 0, &err) && eval(c, 3, &err), "INBIGSET over a NULL array is NULL");
	}
	{
		double		fv[4] = {-INFINITY, 0.0, 1.5, NAN};
		std::vector<int64_t> obj(4);
		ChunkBuilder b;
		int			cf = b.add_float_col(GX_FLOAT8, {NAN, -0.0, 1.5, INFINITY, 2.0});
		int			k = add_bigset(b, 4, 0);

		memcpy(obj.data(), fv, sizeof(fv));
		b.emit(GX_OP_LDCOL, GX_FLOAT8, 0, 0, 0, cf);
		b.emit(GX_OP_INBIGSET, GX_FLOAT8, 0, 0, 0, k);
		b.emit(GX_OP_NOT, GX_BOOL, 0, 0);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
		gx_chunk   *c = b.build();
		const int	want[5] = {0, 0, 0, 1, 1};	/* <> ALL */

		c->ext.sets = (uint64_t) (uintptr_t) obj.data();
		for (uint32_t r = 0; r < 5; r++)
			CHECK(eval(c, r, &err) == want[r] && err == 0, "float8 <> ALL big set row %u", r);
	}

	/* OBJ_WRITE: bytes after the header into an object; malformed ones refused */
	{
		const uint64_t src = GX_ALIGN_UP(sizeof(gx_chunk));
		const uint64_t len = 4096;
		const uint64_t slot = src + len + gx_result_bytes(0) + 64;
		gx_chunk   *c = (gx_chunk *) aligned_alloc(4096, GX_ALIGN_UP(slot) + 4096);
		gx_chunk   *good = (gx_chunk *) malloc(slot);
		std::vector<int64_t> obj(1024, -1);
		gx_task_ctx ctx;

		memset(c, 0, slot);
		c->magic = GX_CHUNK_MAGIC;
		c->kind = GX_TASK_OBJ_WRITE;
		c->input_bytes = src + len;
		c->result_off = GX_ALIGN_UP(src + len);
		c->ext.entry = -1;
		c->ext.write.src = src;
		c->ext.write.dst = 2048;
		c->ext.write.bytes = len - 2048;
		for (uint64_t i = 0; i < len / 8; i++)
			((int64_t *) ((char *) c + src))[i] = (int64_t) i * 3;
		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = (char *) obj.data();
		ctx.obj_bytes[0] = obj.size() * sizeof(int64_t);
		memcpy(good, c, slot);
		CHECK(gx_cpu_run(c, slot, &ctx, msg, sizeof(msg)) == GX_OK, "OBJ_WRITE: %s", msg);
		bool		same = true;

		for (uint64_t i = 0; i < obj.size(); i++)
			same &= obj[i] == (i < 256 ? -1 : i < 512 ? (int64_t) (i - 256) * 3 : -1);
		CHECK(same, "OBJ_WRITE wrote its bytes where it said");

		gx_task_ctx noobj = ctx;

		noobj.obj[0] = NULL;
		noobj.obj_bytes[0] = 0;
		memcpy(c, good, slot);
		c->ext.write.dst = 8192 - 8;
		expect_invalid(c, slot, &ctx, "OBJ_WRITE past its object");
		memcpy(c, good, slot);
		c->ext.write.dst = 4;
		expect_invalid(c, slot, &ctx, "OBJ_WRITE misaligned");
		memcpy(c, good, slot);
		c->ext.write.bytes = len;
		c->ext.write.src = src + 8;
		expect_invalid(c, slot, &ctx, "OBJ_WRITE past its input");
		memcpy(c, good, slot);
		c->ext.write.src = 64;
		expect_invalid(c, slot, &ctx, "OBJ_WRITE from the header");
		memcpy(c, good, slot);
		c->ext.write.bytes = ~(uint64_t) 0 - 16;
		expect_invalid(c, slot, &ctx, "OBJ_WRITE of a huge length");
		memcpy(c, good, slot);
		expect_invalid(c, slot, &noobj, "OBJ_WRITE without an object");
		memcpy(c, good, slot);
		c->nrows = 5;
		expect_invalid(c, slot, &ctx, "OBJ_WRITE with rows");
		free(good);
		free(c);
	}
}

/* ---------------------------------------------------------------------- */
/* prefix-tree lookups: TREE_LOOKUP (gx_ptree.cuh)                        */
/* ---------------------------------------------------------------------- */

/*
 * A copy of an image that ends where a PROT_NONE page begins: a read past
 * its end kills the test (the bounds the steps promise, checked)
 */
struct PtGuarded
{
	char	   *map = nullptr;
	size_t		len = 0;
	char	   *img = nullptr;

	explicit PtGuarded(PtImage &im)
	{
		const size_t page = (size_t) sysconf(_SC_PAGESIZE);
		const size_t body = (im.bytes + page - 1) / page * page;

		len = body + page;
		map = (char *) mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
							-1, 0);
		if (map == (char *) MAP_FAILED)
		{
			map = nullptr;
			return;
		}
		mprotect(map + body, page, PROT_NONE);
		img = map + body - im.bytes;	/* (bytes is a multiple of 16) */
		memcpy(img, im.data(), im.bytes);
	}
	~PtGuarded()
	{
		if (map != nullptr)
			munmap(map, len);
	}
};

/*
 * TREE_LOOKUP on the CPU device ('how': on the caller's thread or the
 * pool; sizes times scale): each case's image behind a guard page, every
 * algorithm (the walk, 2 to 16 speculative partitions): the runs give
 * exactly the std::multimap's TIDs of each key, nsel, join_count; and a
 * task without keys
 */
static void
test_ptree_lookup(const char *how, uint32_t scale)
{
	std::mt19937_64 rng(1618);
	int			ntasks = 0;

	pt_cases(rng, scale, [&](PtCase &pc) {
		PtImage		img = pt_image(pc.ref);
		PtGuarded	gm(img);
		gx_task_ctx ctx;
		char		err[256] = "";

		CHECK(gm.img != nullptr, "ptree %s: guarded image", pc.what.c_str());
		if (gm.img == nullptr)
			return;
		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = gm.img;
		ctx.obj_bytes[0] = img.bytes;
		for (const auto &a : pt_algs)
		{
			ChunkBuilder b;
			gx_chunk   *c = pt_task(b, pc.keys, pc.nulls, a[0], a[1], img.g);
			gx_status	st = gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err));
			gx_result  *r = gx_chunk_result(c);
			uint64_t	sum = 0;
			std::string why;
			bool		ok = st == GX_OK && r->error == GX_NO_ERROR &&
				r->nsel == pc.keys.size() && pt_runs_ok(c, img, pc.ref, pc.keys, pc.nulls, &sum, &why);

			CHECK(ok && r->join_count == sum,
				  "ptree %s (%s): alg %u parts %u: status %d (%s), %u runs, count %llu: %s",
				  pc.what.c_str(), how, a[0], a[1], (int) st, err, r->nsel,
				  (unsigned long long) r->join_count, why.c_str());
			ntasks++;
		}
		{
			ChunkBuilder b;
			gx_chunk   *c = pt_task(b, {}, {}, GX_TREE_SPEC, 4, img.g);

			CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK &&
				  gx_chunk_result(c)->nsel == 0 && gx_chunk_result(c)->join_count == 0,
				  "ptree %s (%s): no keys, no runs (%s)", pc.what.c_str(), how, err);
		}
	});
	printf("ptree lookup (%s): %d tasks against std::multimap\n", how, ntasks);
}

/*
 * Malformed images: random bytes written over the nodes, leaves, level
 * tables and their directory of a real image (and images of all-ones and
 * all-zero bytes); every algorithm runs on them behind a guard page and
 * gives runs inside the TID array, nothing more (no read out of bounds,
 * no endless walk)
 */
static void
test_ptree_malformed(void)
{
	std::mt19937_64 rng(1619);
	PtRef		ref;
	std::vector<int64_t> keys;
	std::vector<uint8_t> nulls;
	int			runs = 0;

	for (uint32_t i = 0; i < 3000; i++)
		ref.emplace((int64_t) (rng() % 100000) * (i % 2 ? 1 : 7919), (uint64_t) i << 16 | 1);
	for (uint32_t i = 0; i < 2000; i++)
	{
		keys.push_back(i % 2 ? (int64_t) (rng() % 100000) : (int64_t) rng());
		nulls.push_back(0);
	}
	for (int round = 0; round < 60; round++)
	{
		PtImage		img = pt_image(ref);
		gx_pt_offs	o;

		gx_pt_layout(&img.g, &o);
		if (round == 0 || round == 1)
			memset(img.data() + o.nodes, round == 0 ? 0xFF : 0x00, img.bytes - o.nodes);
		else
			for (int k = 0; k < 1 + round * 20; k++)
			{
				/* a byte of the nodes, leaves, levels or directory (not the TIDs) */
				uint64_t	at = o.nodes + rng() % (img.bytes - o.nodes);

				if (at >= o.tids && at < o.levels)
					continue;
				img.data()[at] = (char) (k % 3 == 0 ? 0xFF : rng());
			}

		PtGuarded	gm(img);
		gx_task_ctx ctx;

		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = gm.img;
		ctx.obj_bytes[0] = img.bytes;
		for (const auto &a : pt_algs)
		{
			ChunkBuilder b;
			gx_chunk   *c = pt_task(b, keys, nulls, a[0], a[1], img.g);
			char		err[256] = "";
			bool		ok = gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK &&
				gx_chunk_result(c)->nsel == keys.size();
			const gx_search_run *r = (const gx_search_run *) ((char *) gx_chunk_result(c) +
															  gx_search_runs_off());

			for (size_t i = 0; ok && i < keys.size(); i++)
				ok = (uint64_t) r[i].start + r[i].count <= img.g.ntids;
			CHECK(ok, "ptree malformed image round %d, alg %u parts %u: runs inside the TIDs (%s)",
				  round, a[0], a[1], err);
			runs++;
		}
	}
	printf("ptree lookup: %d tasks on malformed images, every run in bounds\n", runs);
}

/* task c restored from good (bytes), changed by stmt: refused */
#define PMUTATE(c, good, bytes, what, stmt) \
	do { \
		memcpy(c, good.data(), bytes); \
		stmt; \
		expect_invalid(c, bytes, &ctx, (what)); \
	} while (0)

/*
 * TREE_LOOKUP tasks the validator refuses: sizes, offsets, the key column
 * (type, count, place), algorithm and partitions, the image (missing, too
 * small for the task's geometry, past the limits), what a lookup does not
 * take
 */
static void
test_ptree_invalid(void)
{
	std::mt19937_64 rng(1620);
	PtRef		ref;
	std::vector<int64_t> keys;
	std::vector<uint8_t> nulls;
	gx_task_ctx ctx;
	char		err[256] = "";

	for (uint32_t i = 0; i < 500; i++)
		ref.emplace((int64_t) (rng() % 1000), (uint64_t) i << 16 | 1);
	for (uint32_t i = 0; i < 50; i++)
	{
		keys.push_back((int64_t) (rng() % 1000));
		nulls.push_back(i % 7 == 0);
	}

	PtImage		img = pt_image(ref);
	ChunkBuilder b;
	gx_chunk   *c = pt_task(b, keys, nulls, GX_TREE_SPEC, 4, img.g);
	std::vector<char> good((const char *) c, (const char *) c + b.capacity);

	memset(&ctx, 0, sizeof(ctx));
	ctx.obj[0] = img.data();
	ctx.obj_bytes[0] = img.bytes;
	CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK,
		  "ptree: the good task runs (%s)", err);
	memcpy(c, good.data(), b.capacity);
	expect_invalid(c, b.capacity - 8, &ctx, "tree lookup result area past its slot");
	PMUTATE(c, good, b.capacity, "tree lookup column outside the task",
			c->cols[0].values_off = c->input_bytes - 8);
	PMUTATE(c, good, b.capacity, "tree lookup null bitmap outside the task",
			c->cols[0].nulls_off = c->input_bytes);
	PMUTATE(c, good, b.capacity, "tree lookup column misaligned", c->cols[0].values_off += 4);
	PMUTATE(c, good, b.capacity, "tree lookup of an int4 column", c->cols[0].type = GX_INT4);
	PMUTATE(c, good, b.capacity, "tree lookup of a float column", c->cols[0].type = GX_FLOAT8);
	PMUTATE(c, good, b.capacity, "tree lookup of two columns", c->ncols = 2);
	PMUTATE(c, good, b.capacity, "tree lookup of no column", c->ncols = 0);
	PMUTATE(c, good, b.capacity, "tree lookup of an unknown algorithm", c->ext.tree.alg = 2);
	PMUTATE(c, good, b.capacity, "speculative lookup of 3 partitions", c->ext.tree.parts = 3);
	PMUTATE(c, good, b.capacity, "speculative lookup of 1 partition", c->ext.tree.parts = 1);
	PMUTATE(c, good, b.capacity, "speculative lookup of 32 partitions", c->ext.tree.parts = 32);
	PMUTATE(c, good, b.capacity, "sequential lookup of 4 partitions",
			(c->ext.tree.alg = GX_TREE_SEQ, c->ext.tree.parts = 4));
	PMUTATE(c, good, b.capacity, "tree lookup with a program", c->ninstr = 1);
	PMUTATE(c, good, b.capacity, "tree lookup of a cache entry", c->ext.entry = 0);
	PMUTATE(c, good, b.capacity, "tree lookup with aggregates", c->ext.nagg = 1);
	PMUTATE(c, good, b.capacity, "count-only tree lookup", c->ext.count_only = 1);
	PMUTATE(c, good, b.capacity, "tree lookup of heap pages", c->deform_off = 64);
	PMUTATE(c, good, b.capacity, "image of more nodes than its object",
			c->ext.tree.nnodes = img.g.nnodes + 100);
	PMUTATE(c, good, b.capacity, "image of more TIDs than its object",
			c->ext.tree.ntids = img.g.ntids + 100);
	PMUTATE(c, good, b.capacity, "image of more level entries than its object",
			c->ext.tree.nlevel = img.g.nlevel + 100);
	PMUTATE(c, good, b.capacity, "image of leaves past the limit",
			c->ext.tree.nleaves = GX_PT_MAX_ITEMS + 1);
	{
		gx_task_ctx keep = ctx;

		ctx.obj[0] = NULL;
		PMUTATE(c, good, b.capacity, "tree lookup without an image", (void) 0);
		ctx = keep;
		ctx.obj_bytes[0] = img.bytes - 16;
		PMUTATE(c, good, b.capacity, "tree lookup of an image object too small", (void) 0);
		ctx = keep;
		ctx.obj[0] = img.data() + 4;
		PMUTATE(c, good, b.capacity, "tree lookup of a misaligned image", (void) 0);
		ctx = keep;
	}
	/* the good task again: it still runs */
	memcpy(c, good.data(), b.capacity);
	CHECK(gx_cpu_run(c, b.capacity, &ctx, err, sizeof(err)) == GX_OK &&
		  gx_chunk_result(c)->nsel == 50, "ptree: the good task runs again (%s)", err);
}

#undef PMUTATE

/* big sets: the sort, the searches with top keys, binary and p-ary       */
/* ---------------------------------------------------------------------- */

/* gx_sort_distinct_* of v against std::sort + std::unique (floats: gx_float_cmp's order) */
static bool
sort_matches(std::vector<int64_t> v, bool isfloat)
{
	std::vector<int64_t> want = v,
				tmp(v.size() + 1);
	int64_t		n;

	if (!isfloat)
	{
		std::sort(want.begin(), want.end());
		want.erase(std::unique(want.begin(), want.end()), want.end());
		n = gx_sort_distinct_int64(v.data(), (int64_t) v.size(), tmp.data());
		return n == (int64_t) want.size() && std::equal(want.begin(), want.end(), v.begin());
	}
	auto		d = [](int64_t x) {
		double		f;

		memcpy(&f, &x, sizeof(f));
		return f;
	};

	std::sort(want.begin(), want.end(), [&](int64_t a, int64_t b) {
		return gx_float_cmp(d(a), d(b)) < 0;
	});
	want.erase(std::unique(want.begin(), want.end(), [&](int64_t a, int64_t b) {
		return gx_float_cmp(d(a), d(b)) == 0;
	}), want.end());
	n = gx_sort_distinct_float8(v.data(), (int64_t) v.size(), tmp.data());
	if (n != (int64_t) want.size())
		return false;
	for (int64_t i = 0; i < n; i++)
		if (gx_float_cmp(d(v[i]), d(want[i])) != 0 ||
			(i > 0 && gx_float_cmp(d(v[i - 1]), d(v[i])) >= 0))
			return false;
	return true;
}

/* the radix sort of a big set's values: random, narrow, ascending, descending, equal, edges */
static void
test_sets_sort(void)
{
	std::mt19937_64 rng(161);
	const int64_t mn = std::numeric_limits<int64_t>::min(),
				mx = std::numeric_limits<int64_t>::max();

	for (size_t n : {(size_t) 0, (size_t) 1, (size_t) 2, (size_t) 3, (size_t) 1000,
		 (size_t) 100000, (size_t) 1000000})
	{
		std::vector<int64_t> wide(n), narrow(n), asc(n), desc(n), eq(n, -7), edge(n);

		for (size_t i = 0; i < n; i++)
		{
			wide[i] = (int64_t) rng();
			narrow[i] = (int64_t) (rng() % (4 * n + 1)) - (int64_t) n;
			asc[i] = (int64_t) i * 3 - 5;
			desc[i] = -(int64_t) (i / 2);
			edge[i] = i % 3 == 0 ? mn : i % 3 == 1 ? mx : (int64_t) (rng() % 5) - 2;
		}
		CHECK(sort_matches(wide, false) && sort_matches(narrow, false) &&
			  sort_matches(asc, false) && sort_matches(desc, false) &&
			  sort_matches(eq, false) && sort_matches(edge, false),
			  "radix sort of %zu int64 values", n);
	}
	/* floats: NaNs of several payloads and signs, -0, infinities, repeats */
	{
		std::vector<int64_t> v;
		const double special[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.5, -1.5,
		5e-324, -5e-324, 1.7976931348623157e308};

		for (int rep = 0; rep < 3; rep++)
			for (double f : special)
			{
				int64_t		x;

				memcpy(&x, &f, sizeof(x));
				v.push_back(x);
			}
		v.push_back((int64_t) 0x7ff0000000000001LL);	/* a signalling NaN */
		v.push_back((int64_t) 0xfff8000000000123LL);
		for (int i = 0; i < 50000; i++)
		{
			double		f = (double) ((int64_t) (rng() % 20001) - 10000) / 16.0;
			int64_t		x;

			memcpy(&x, &f, sizeof(x));
			v.push_back(x);
		}
		CHECK(sort_matches(v, true), "radix sort of float8 bits (NaN last, -0 = 0)");
		std::vector<int64_t> tmp(v.size());
		int64_t		n = gx_sort_distinct_float8(v.data(), (int64_t) v.size(), tmp.data());
		double		last,
					first;

		memcpy(&last, &v[n - 1], sizeof(last));
		memcpy(&first, &v[0], sizeof(first));
		CHECK(isnan(last) && first == -INFINITY, "float8 set: -Infinity first, one NaN last");
	}
}

/* is a in the set, by every search: binary and p-ary (p = 1 .. 32), with the top keys given */
static int
sets_find_all(const int64_t *vals, int64_t n, const int64_t *top, uint32_t T, int isint,
			  const gx_reg *a, int want)
{
	int			bad = gx_sets_find_binary(isint, vals, n, top, T, a) != want;

	for (uint32_t p : {1u, 2u, 3u, 7u, 31u, 32u})
	{
		gx_sets_lanes l;

		l.p = p;
		bad += gx_sets_find_pary(l, isint, vals, n, top, T, a) != want;
	}
	return bad;
}

/*
 * The searches of a big set (gx_sets.cuh) against std::binary_search:
 * sets of 1, 2, 3, 1000, 1024 and 1M values (random, INT64_MIN / MAX
 * members), every top key count worth trying, every value, its
 * neighbours and random probes; floats with NaN and -0; then INBIGSET
 * through the interpreter and the CPU device in both modes, and the
 * validator's checks of the flags and the top keys
 */
static void
test_sets_search(void)
{
	std::mt19937_64 rng(162);
	const int64_t mn = std::numeric_limits<int64_t>::min(),
				mx = std::numeric_limits<int64_t>::max();
	int			err;
	char		msg[256];

	for (int64_t n : {(int64_t) 1, (int64_t) 2, (int64_t) 3, (int64_t) 1000, (int64_t) 1024,
		 (int64_t) 1000000})
		for (int shape = 0; shape < 3; shape++)
		{
			std::vector<int64_t> v(n), probes;
			int			bad = 0,
						tried = 0;

			for (int64_t i = 0; i < n; i++)
				v[i] = shape == 0 ? (int64_t) rng() : shape == 1 ? i * 4 - n : (int64_t) (rng() % 64);
			if (shape == 0 && n >= 2)
			{
				v[0] = mn;
				v[1] = mx;
			}
			std::sort(v.begin(), v.end());
			v.erase(std::unique(v.begin(), v.end()), v.end());
			for (int64_t x : {mn, mn + 1, mx - 1, mx, (int64_t) 0, (int64_t) -1})
				probes.push_back(x);
			for (size_t i = 0; i < v.size(); i += v.size() > 5000 ? 97 : 1)
				for (int64_t d : {(int64_t) -1, (int64_t) 0, (int64_t) 1})
					probes.push_back(v[i] + (d < 0 && v[i] == mn ? 0 : d > 0 && v[i] == mx ? 0 : d));
			for (int i = 0; i < 3000; i++)
				probes.push_back(i % 2 ? v[rng() % v.size()] : (int64_t) rng());
			for (uint32_t T : sets_tops((int64_t) v.size()))
			{
				std::vector<int64_t> obj;

				sets_append(obj, v, T);
				for (int64_t x : probes)
				{
					gx_reg		a;

					a.v.i = x;
					a.isnull = 0;
					bad += sets_find_all(obj.data(), (int64_t) v.size(), obj.data() + v.size(), T,
										 1, &a, std::binary_search(v.begin(), v.end(), x));
					tried++;
				}
			}
			CHECK(bad == 0, "set of %zu values (shape %d): %d of %d searches differ", v.size(),
				  shape, bad, tried);
		}

	/* floats: NaN = NaN, -0 = 0, infinities, at every top key count */
	{
		const double fv[] = {-INFINITY, -2.5, 0.0, 0.5, 1.5, 3.0, 1e300, INFINITY, NAN};
		const double probes[] = {NAN, -0.0, 0.0, 1.5, 1.25, INFINITY, -INFINITY, 1e301, -3.0};
		std::vector<int64_t> v(9);
		int			bad = 0;

		memcpy(v.data(), fv, sizeof(fv));
		for (uint32_t T : {0u, 1u, 2u, 4u, 8u})
		{
			std::vector<int64_t> obj;

			sets_append(obj, v, T);
			for (double x : probes)
			{
				gx_reg		a;
				int			want = 0;

				a.v.d = x;
				a.isnull = 0;
				for (double y : fv)
					want |= gx_float_cmp(x, y) == 0;
				bad += sets_find_all(obj.data(), 9, obj.data() + 9, T, 0, &a, want);
			}
		}
		CHECK(bad == 0, "float8 set searches: %d differ", bad);
	}

	/*
	 * test_kernel's programs (sets_program: one set, after an AND, two sets
	 * in one step) on the CPU device against sets_want, both searches
	 */
	{
		const uint32_t nrows = 20000;
		std::vector<int64_t> v, v2, obj(7, -5), rows(nrows);
		std::vector<uint8_t> nulls(nrows);
		int			bad = 0,
					cases = 0;

		for (int64_t i = 0; i < 30000; i++)
			v.push_back(i * 5 - 70000);
		for (size_t i = 0; i < v.size(); i += 2)
			v2.push_back(v[i] + 1);
		const int64_t at = sets_append(obj, v, 1024);
		const int64_t at2 = sets_append(obj, v2, 1024);
		const int64_t thr = v[v.size() / 2];

		for (uint32_t r = 0; r < nrows; r++)
		{
			rows[r] = r % 2 ? v[rng() % v.size()] : r % 3 ? v2[rng() % v2.size()] :
				(int64_t) (rng() % 200000) - 100000;
			nulls[r] = r % 29 == 4;
		}
		for (int pary = 0; pary < 2; pary++)
			for (int variant = 0; variant < 3; variant++)
			{
				ChunkBuilder b;
				int			ci = b.add_int_col(GX_INT8, rows, nulls);
				int			k = add_bigset(b, (int64_t) v.size(), at, 0, sets_flags(1024, pary));
				int			kt = b.kint(GX_INT8, thr);
				std::vector<uint32_t> want = sets_want(v, v2, rows, nulls, thr, variant);
				gx_task_ctx ctx;
				bool		ok;

				sets_program(b, ci, k, variant == 2 ? add_bigset(b, (int64_t) v2.size(), at2, 0,
																 sets_flags(1024, pary)) : -1,
							 kt, variant);
				gx_chunk   *c = b.build();

				memset(&ctx, 0, sizeof(ctx));
				ctx.obj[GX_TASK_OBJ_SETS] = (char *) obj.data();
				ctx.obj_bytes[GX_TASK_OBJ_SETS] = obj.size() * sizeof(int64_t);
				bool		ran = gx_cpu_run(c, b.capacity, &ctx, msg, sizeof(msg)) == GX_OK;
				std::vector<uint32_t> got = concat_sel(c, &ok);

				std::sort(got.begin(), got.end());
				bad += !ran || !ok || got != want || want.size() < nrows / 8;
				cases++;
			}
		CHECK(bad == 0, "test_kernel's set programs on the CPU device: %d of %d differ", bad, cases);
	}

	/* INBIGSET with top keys, both modes: the interpreter, the CPU device, NULL rules */
	{
		const uint32_t nrows = 4000;
		std::vector<int64_t> v, obj(3, 555), rows(nrows);
		std::vector<uint8_t> nulls(nrows);

		for (int64_t i = 0; i < 50000; i++)
			v.push_back(i * 7 - 100000);
		v.push_back(mx);
		v.insert(v.begin(), mn);
		const int64_t at = sets_append(obj, v, 2048);

		for (uint32_t r = 0; r < nrows; r++)
		{
			rows[r] = r % 3 == 0 ? v[rng() % v.size()] : r == 1 ? mn : r == 2 ? mx :
				(int64_t) (rng() % 400000) - 200000;
			nulls[r] = r % 41 == 5;
		}
		for (int pary = 0; pary < 2; pary++)
			for (int has_null = 0; has_null < 2; has_null++)
			{
				/* the rows where it is true, or (has_null) where it is NULL */
				ChunkBuilder b;
				int			ci = b.add_int_col(GX_INT8, rows, nulls);
				int			k = add_bigset(b, (int64_t) v.size(), at, 0,
										   sets_flags(2048, pary, has_null));
				std::vector<uint32_t> want;
				int			bad = 0;
				gx_task_ctx ctx;
				bool		ok;

				b.emit(GX_OP_LDCOL, GX_INT8, 0, 0, 0, ci);
				b.emit(GX_OP_INBIGSET, GX_INT8, 0, 0, 0, k);
				if (has_null)
					b.emit(GX_OP_ISNULL, GX_BOOL, 0, 0);
				b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
				gx_chunk   *c = b.build();

				c->ext.sets = (uint64_t) (uintptr_t) obj.data();
				for (uint32_t r = 0; r < nrows; r++)
				{
					bool		hit = !nulls[r] && std::binary_search(v.begin(), v.end(), rows[r]);
					int			w = has_null ? !hit : hit;	/* NULL: a NULL row or a miss */

					if (w)
						want.push_back(r);
					bad += eval(c, r, &err) != w || err != 0;
				}
				CHECK(bad == 0 && want.size() > nrows / 4,
					  "INBIGSET with 2048 top keys (%s, NULL element %d): %d rows differ",
					  pary ? "pary" : "binary", has_null, bad);
				memset(&ctx, 0, sizeof(ctx));
				ctx.obj[GX_TASK_OBJ_SETS] = (char *) obj.data();
				ctx.obj_bytes[GX_TASK_OBJ_SETS] = obj.size() * sizeof(int64_t);
				CHECK(gx_cpu_run(c, b.capacity, &ctx, msg, sizeof(msg)) == GX_OK,
					  "INBIGSET task with top keys: %s", msg);
				std::vector<uint32_t> got = concat_sel(c, &ok);

				std::sort(got.begin(), got.end());
				CHECK(ok && got == want, "INBIGSET with top keys on the CPU device (%s): %zu rows, want %zu",
					  pary ? "pary" : "binary", got.size(), want.size());

				/* the validator: the top keys inside the object, known flags only */
				if (pary || has_null)
					continue;
				gx_chunk   *good = (gx_chunk *) malloc(b.capacity);
				gx_task_ctx small = ctx;

				memcpy(good, c, b.capacity);
				small.obj_bytes[GX_TASK_OBJ_SETS] -= 8;
				expect_invalid(c, b.capacity, &small, "big set's top keys past its object");
				memcpy(c, good, b.capacity);
				c->consts[k + 1].v.i |= GX_BIGSET_STAGED | ((int64_t) 1 << GX_BIGSET_STAGED_SHIFT);
				expect_invalid(c, b.capacity, &ctx, "big set staged by the backend");
				memcpy(c, good, b.capacity);
				c->consts[k + 1].v.i = (int64_t) 15 << GX_BIGSET_TOP_SHIFT;
				expect_invalid(c, b.capacity, &ctx, "big set of 16384 top keys");
				memcpy(c, good, b.capacity);
				c->consts[k + 1].v.i = 0x4;
				expect_invalid(c, b.capacity, &ctx, "big set with an unknown flag");
				memcpy(c, good, b.capacity);
				c->consts[k].v.i = 1024;	/* 1024 values, 2048 top keys */
				expect_invalid(c, b.capacity, &ctx, "big set with more top keys than values");
				/* a GPU block would stage 2048 keys of it (none for a NULL or empty set) */
				memcpy(c, good, b.capacity);
				CHECK(gx_sets_plan(c->code, c->ninstr, c->consts, NULL, 0) == 2048,
					  "a block stages the set's 2048 top keys");
				c->consts[k].v.i = 0;
				CHECK(gx_sets_plan(c->code, c->ninstr, c->consts, NULL, 0) == 0,
					  "no top keys of an empty set are staged");
				free(good);
			}
	}
}

/* ---------------------------------------------------------------------- */
/* sorted projections of cached columns (gx_projection.h)                  */
/* ---------------------------------------------------------------------- */

/*
 * The projection cases on the CPU device: built from cache entries by the
 * backend's programs (each row's position its TID from the entry's row map
 * and first block; padding rows and NULL keys no rows), sealed, probed by
 * the backend's lookups in one pass and in passes of 7 pairs: the rows
 * placed and the (probe, position) pairs equal the reference's
 */
static void
test_projection(const char *how, uint32_t scale)
{
	std::mt19937_64 rng(4242 + scale);
	int			ncases = 0;

	proj_cases(rng, scale, [&](const char *what, const std::vector<ProjEntry> &entries,
							   const std::vector<int64_t> &keys,
							   const std::vector<uint8_t> &knull) {
		const uint32_t cap = proj_cap(entries);
		const uint64_t tbytes = gx_jrange_table_bytes(cap);
		uint64_t	want_rows = 0;
		auto		want = proj_reference(entries, keys, knull, &want_rows);

		for (uint32_t maxp : {7u, 1u << 20})
		{
			std::vector<uint64_t> table(tbytes / 8 + 1, 0);
			JoinRunner	run = cpu_join_runner(table.data(), tbytes);
			std::vector<std::pair<uint32_t, int64_t>> got;
			uint64_t	rows = 0;
			bool		built = proj_build_all(run, entries, cap, &rows);
			bool		probed = built && proj_probe_all(run, cap, keys, knull, maxp, &got);

			CHECK(built && probed && rows == want_rows && got == want,
				  "projection %s (%s, passes of %u pairs): built %d, probed %d, %llu rows of %llu, "
				  "%zu pairs of %zu", what, how, maxp, built, probed, (unsigned long long) rows,
				  (unsigned long long) want_rows, got.size(), want.size());
			ncases++;
		}
	});
	printf("projection (%s): %d cases against the reference\n", how, ncases);
}

int
main(void)
{
	int			before;

	if (test_part("basic"))
	{
		test_int_arith();
		test_float_arith();
		test_float_cmp();
		test_casts();
		test_programs();
		test_crosstype();
		test_bigsets();
		test_datetime();
		test_numeric_ops();
		test_logic();
		test_mem();

		/* the CPU device on the calling thread alone */
		test_cpu_layout(false);
		test_aggregates(false);
		test_validation();
		test_numeric_programs();
		test_numeric_free();
		test_numeric_group();
		test_group_filter();
		test_group_float();
		test_group_passes();
		test_group_merge("caller alone");
		test_group_exact_var();
		test_numeric_pages();
		test_char8();
		test_char8_pages();
		test_cache_scan("caller alone");
	}
	if (test_part("join"))
	{
		test_join();
		test_join_invalid();
		test_join_range();
		test_join_range_invalid();
		test_join_merge();
		test_join_merge_invalid();
		test_join_replica();
		test_join_replica_invalid();
		test_join_devparts();
	}
	if (test_part("sets_search"))
	{
		test_sets_sort();
		test_sets_search();
	}
	if (test_part("search"))
	{
		test_search("caller alone", 1);
		test_search_invalid();
	}
	if (test_part("projection"))
		test_projection("caller alone", 1);
	if (test_part("ptree_lookup"))
	{
		test_ptree_lookup("caller alone", 1);
		test_ptree_malformed();
		test_ptree_invalid();
	}
	if (test_part("jgroup"))
	{
		test_jgroup("caller alone", 1);
		test_jgroup_invalid();
		test_jgroup_levels_invalid();
		test_join_gather("caller alone", 1);
		test_join_gather_invalid();
		{
			std::mt19937_64 rng(777);
			int			runs = jgl_test(cpu_jg_dev(), "CPU, caller alone", rng, 1, 1u << 30);

			printf("multi-level group probes (caller alone): %d cases against the reference\n",
				   runs);
		}
	}

	/* then on its pool */
	test_pool_open(&before);
	if (test_part("basic"))
	{
		test_cpu_layout(true);
		test_aggregates(true);
		test_group_merge("pool");
		test_cache_scan("pool");
	}
	if (test_part("join"))
	{
		test_join();
		test_join_merge();
		test_join_range_big();
		test_join_replica_big();
	}
	if (test_part("search"))
		test_search("pool", 4);
	if (test_part("projection"))
		test_projection("pool", 4);
	if (test_part("ptree_lookup"))
		test_ptree_lookup("pool", 4);
	if (test_part("jgroup"))
	{
		std::mt19937_64 rng(778);

		test_jgroup("pool", 6);
		test_join_gather("pool", 6);
		printf("multi-level group probes (pool, sizes x8, tasks of 1500 rows): %d cases\n",
			   jgl_test(cpu_jg_dev(), "CPU, pool", rng, 8, 1500));
	}
	if (test_part("basic"))
		test_pool_reuse();
	gx_cpu_close();
	/* a joined thread may stay listed in /proc for a moment after it exited */
	for (int i = 0; i < 200 && count_threads() != before; i++)
		usleep(5000);
	CHECK(count_threads() == before, "gx_cpu_close joins the workers (%d threads, %d before)",
		  count_threads(), before);
	test_cpu_layout(false);		/* the caller alone again */

	printf("test_interp: %d passed, %d failed\n", n_passed, n_failed);
	return n_failed == 0 ? 0 : 1;
}
