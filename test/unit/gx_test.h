/*
 * gx_test.h - what the unit tests share: the CHECK counters and the chunk
 * builder, which lays a task out exactly as gx_program.h describes (one
 * definition for test_interp.cpp, built by g++, and test_kernel.cu, built
 * by nvcc).
 */
#ifndef GX_TEST_H
#define GX_TEST_H

#include "gx_api.h"
#include "gx_program.h"
#include "gx_projection.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <array>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

static int n_passed = 0;
static int n_failed = 0;

#define CHECK(cond, ...) \
	do { \
		if (cond) \
			n_passed++; \
		else \
		{ \
			n_failed++; \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__); \
			fprintf(stderr, "\n"); \
		} \
	} while (0)

/*
 * Does GX_TEST_PARTS (a comma-separated list; unset: every part) name
 * part?  GX_BW_ONLY=1 stands for GX_TEST_PARTS=bandwidth.  Both unit
 * tests split their cases into parts this way (their headers list them).
 */
static bool
test_part(const char *part)
{
	const char *parts = getenv("GX_TEST_PARTS");
	size_t		n = strlen(part);

	if (getenv("GX_BW_ONLY"))
		parts = "bandwidth";
	if (parts == NULL || parts[0] == '\0')
		return true;
	for (const char *p = parts; *p;)
	{
		const char *e = strchr(p, ',');
		size_t		len = e ? (size_t) (e - p) : strlen(p);

		if (len == n && strncmp(p, part, n) == 0)
			return true;
		p += len + (e ? 1 : 0);
	}
	return false;
}

/* ---------------------------------------------------------------------- */
/* chunk builder: lays out a chunk exactly as gx_program.h describes       */
/* ---------------------------------------------------------------------- */

struct TestCol
{
	int			type;
	uint32_t	scale = 0;		/* GX_NUMERIC */
	std::vector<int64_t> iv;	/* integer / bool / numeric values */
	std::vector<double> dv;		/* float values */
	std::vector<uint8_t> isnull;
};

struct ChunkBuilder
{
	uint32_t	nrows = 0;
	std::vector<TestCol> cols;
	std::vector<gx_const> consts;
	std::vector<gx_instr> code;
	uint32_t	nregs = 0;
	void	   *mem = nullptr;
	uint64_t	capacity = 0;	/* bytes of the built task: its slot */

	~ChunkBuilder()
	{
		free(mem);
	}

	int			add_int_col(int type, const std::vector<int64_t> &v,
							const std::vector<uint8_t> &nulls = {})
	{
		TestCol		c;

		c.type = type;
		c.iv = v;
		c.isnull = nulls;
		cols.push_back(c);
		if (nrows < v.size())
			nrows = v.size();
		return (int) cols.size() - 1;
	}
	/* a GX_NUMERIC column: int64 values at 'scale' */
	int			add_num_col(uint32_t scale, const std::vector<int64_t> &v,
							const std::vector<uint8_t> &nulls = {})
	{
		int			i = add_int_col(GX_NUMERIC, v, nulls);

		cols[i].scale = scale;
		return i;
	}
	int			add_float_col(int type, const std::vector<double> &v,
							  const std::vector<uint8_t> &nulls = {})
	{
		TestCol		c;

		c.type = type;
		c.dv = v;
		c.isnull = nulls;
		cols.push_back(c);
		if (nrows < v.size())
			nrows = v.size();
		return (int) cols.size() - 1;
	}
	int			kint(int type, int64_t v, int isnull = 0)
	{
		gx_const	k;

		memset(&k, 0, sizeof(k));
		k.v.i = v;
		k.type = type;
		k.isnull = isnull;
		consts.push_back(k);
		return (int) consts.size() - 1;
	}
	int			kfloat(int type, double v, int isnull = 0)
	{
		gx_const	k;

		memset(&k, 0, sizeof(k));
		k.v.d = type == GX_FLOAT4 ? (double) (float) v : v;
		k.type = type;
		k.isnull = isnull;
		consts.push_back(k);
		return (int) consts.size() - 1;
	}
	int			emit(int op, int type, int dst, int a = 0, int b = 0, int arg = 0, int jump = 0)
	{
		gx_instr	in;

		memset(&in, 0, sizeof(in));
		in.op = op;
		in.type = type;
		in.dst = dst;
		in.a = a;
		in.b = b;
		in.arg = arg;
		in.jump = jump;
		code.push_back(in);
		if ((uint32_t) dst + 1 > nregs)
			nregs = dst + 1;
		return (int) code.size() - 1;
	}

	/* lay out header, columns (+ null bitmaps) and the result area */
	gx_chunk   *build()
	{
		uint64_t	off = GX_ALIGN_UP(sizeof(gx_chunk));
		std::vector<uint64_t> voff(cols.size()), noff(cols.size());

		for (size_t i = 0; i < cols.size(); i++)
		{
			voff[i] = off;
			off += GX_ALIGN_UP((uint64_t) nrows * gx_type_width(cols[i].type));
			bool		hasnull = false;

			for (uint8_t n : cols[i].isnull)
				hasnull |= n != 0;
			if (hasnull)
			{
				noff[i] = off;
				off += GX_ALIGN_UP(gx_bitmap_bytes(nrows));
			}
			else
				noff[i] = 0;
		}
		uint64_t	input_bytes = off;
		capacity = input_bytes + gx_result_bytes(nrows);

		free(mem);
		mem = aligned_alloc(4096, GX_ALIGN_UP(capacity) + 4096 - (GX_ALIGN_UP(capacity) % 4096));
		memset(mem, 0, capacity);
		gx_chunk   *c = (gx_chunk *) mem;

		c->magic = GX_CHUNK_MAGIC;
		c->kind = GX_TASK_FILTER;
		c->nrows = nrows;
		c->ncols = cols.size();
		c->ninstr = code.size();
		c->nconsts = consts.size();
		c->nregs = nregs;
		c->input_bytes = input_bytes;
		c->result_off = input_bytes;
		for (size_t i = 0; i < cols.size(); i++)
		{
			const TestCol &tc = cols[i];
			char	   *base = (char *) c + voff[i];

			c->cols[i].values_off = voff[i];
			c->cols[i].nulls_off = noff[i];
			c->cols[i].type = tc.type;
			c->cols[i].scale = tc.scale;
			for (uint32_t r = 0; r < nrows; r++)
			{
				switch (tc.type)
				{
					case GX_BOOL:
						((uint8_t *) base)[r] = r < tc.iv.size() ? tc.iv[r] != 0 : 0;
						break;
					case GX_INT2:
						((int16_t *) base)[r] = r < tc.iv.size() ? (int16_t) tc.iv[r] : 0;
						break;
					case GX_INT4:
						((int32_t *) base)[r] = r < tc.iv.size() ? (int32_t) tc.iv[r] : 0;
						break;
					case GX_INT8:
					case GX_NUMERIC:
					case GX_CHAR8:
						((int64_t *) base)[r] = r < tc.iv.size() ? tc.iv[r] : 0;
						break;
					case GX_FLOAT4:
						((float *) base)[r] = r < tc.dv.size() ? (float) tc.dv[r] : 0;
						break;
					default:
						((double *) base)[r] = r < tc.dv.size() ? tc.dv[r] : 0;
						break;
				}
				if (noff[i] && r < tc.isnull.size() && tc.isnull[r])
					((uint32_t *) ((char *) c + noff[i]))[r >> 5] |= 1u << (r & 31);
			}
		}
		for (size_t i = 0; i < consts.size(); i++)
			c->consts[i] = consts[i];
		for (size_t i = 0; i < code.size(); i++)
			c->code[i] = code[i];
		return c;
	}
};

/* the header of a big set (GX_OP_INBIGSET) in b: n values from place off of the sets object */
static inline int
add_bigset(ChunkBuilder &b, int64_t n, int64_t off, int isnull = 0, int64_t flags = 0)
{
	int			k = b.kint(GX_INT8, n, isnull);

	b.kint(GX_INT8, flags);
	b.kint(GX_INT8, off);
	return k;
}

/*
 * A filter task with aggregates over n random rows: a < lim, with sum(a),
 * count(v), sum(v) (a int4, v int8, both nullable); adds the expected
 * totals to want_val / want_cnt.
 */
static void
build_agg_task(ChunkBuilder &b, std::mt19937_64 &rng, uint32_t n, int64_t *want_val,
			   int64_t *want_cnt)
{
	std::vector<int64_t> a(n), v(n);
	std::vector<uint8_t> an(n), vn(n);
	int64_t		lim = (int64_t) (rng() % 2000) - 1000;

	for (uint32_t i = 0; i < n; i++)
	{
		a[i] = (int64_t) (rng() % 2000001) - 1000000;
		v[i] = (int64_t) (rng() % 4000000001ULL) - 2000000000LL;
		an[i] = rng() % 13 == 0;
		vn[i] = rng() % 7 == 0;
		if (!an[i] && a[i] < lim)
		{
			want_val[0] += a[i];
			want_cnt[0]++;
			if (!vn[i])
			{
				want_cnt[1]++;
				want_val[2] += v[i];
				want_cnt[2]++;
			}
		}
	}
	int			ca = b.add_int_col(GX_INT4, a, an);
	int			cv = b.add_int_col(GX_INT8, v, vn);
	int			k = b.kint(GX_INT4, lim);

	b.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, ca);
	b.emit(GX_OP_LDCONST, GX_INT4, 1, 0, 0, k);
	b.emit(GX_OP_LT, GX_INT4, 2, 0, 1);
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 2);
	gx_chunk   *c = b.build();

	c->ext.nagg = 3;
	c->ext.agg[0] = gx_agg {GX_AGG_SUM, (int16_t) ca};
	c->ext.agg[1] = gx_agg {GX_AGG_COUNT, (int16_t) cv};
	c->ext.agg[2] = gx_agg {GX_AGG_SUM, (int16_t) cv};
	c->obj[0] = 1;
}


/* ---------------------------------------------------------------------- */
/* numeric (GX_NUMERIC): programs with an exact reference, and varlenas   */
/* ---------------------------------------------------------------------- */

typedef __int128 gx_i128;

#define NUM_NAN std::numeric_limits<int64_t>::max()

/* is v a device numeric number (|v| < INT64_MAX)? */
static inline bool
num_dev_ok(gx_i128 v)
{
	return v < (gx_i128) NUM_NAN && v > -(gx_i128) NUM_NAN;
}

static inline gx_i128
num_pow10(int k)
{
	gx_i128		p = 1;

	for (int i = 0; i < k; i++)
		p *= 10;
	return p;
}

/* PostgreSQL's order: NaN equal to itself, above every number */
static inline int
num_ref_cmp(int64_t a, int sa, int64_t b, int sb)
{
	if (a == NUM_NAN || b == NUM_NAN)
		return a == b ? 0 : (a == NUM_NAN ? 1 : -1);
	gx_i128		x = (gx_i128) a * num_pow10(sb > sa ? sb - sa : 0);
	gx_i128		y = (gx_i128) b * num_pow10(sa > sb ? sa - sb : 0);

	return x > y ? 1 : (x < y ? -1 : 0);
}

/* a value of the test's numeric columns: mostly small, some NaN, some huge */
static inline int64_t
num_random(std::mt19937_64 &rng, int64_t range)
{
	uint64_t	x = rng() % 1000;

	if (x < 20)
		return NUM_NAN;
	if (x < 40)
		return (int64_t) (rng() % 1999999999999999999ULL) - 999999999999999999LL;	/* 18 digits */
	if (x < 50)
		return 0;
	return (int64_t) (rng() % (2 * (uint64_t) range + 1)) - range;
}

/* what a numeric test program does to a row */
enum
{
	NUM_REJECT = 0,
	NUM_PASS = 1,
	NUM_HOST = 2
};

#define NUM_NPROGS 7

/*
 * A chunk of n rows of numeric columns a (scale 2), b (scale 0), c (scale
 * 6) and an int8 column i, NULLs and NaNs among them, with test program
 * 'prog' (0 .. NUM_NPROGS - 1); want[row] gets what the device must do
 * (NUM_PASS, NUM_REJECT, NUM_HOST), computed exactly with 128-bit integers.
 *  0: a < b           (shift -2)         1: a + c >= K (scale 3)
 *  2: b * b > K (0)   (host on overflow) 3: -a = K, or a IS NULL
 *  4: i::numeric <= a (shift 2)          5: a = ANY (set at scale 2)
 *  6: (c - a) * b <> K or b = K2 (or, and, host mid-way)
 */
static void
build_numeric_task(ChunkBuilder &b, std::mt19937_64 &rng, uint32_t n, int prog,
				   std::vector<int> &want)
{
	std::vector<int64_t> a(n), bb(n), c(n), iv(n);
	std::vector<uint8_t> an(n), bn(n), cn(n), in(n);

	for (uint32_t r = 0; r < n; r++)
	{
		a[r] = num_random(rng, 100000);
		bb[r] = num_random(rng, 3000);
		c[r] = num_random(rng, 100000000);
		iv[r] = rng() % 100 == 0 ? (rng() % 2 ? NUM_NAN : std::numeric_limits<int64_t>::min()) :
			(int64_t) (rng() % 20001) - 10000;
		an[r] = rng() % 17 == 0;
		bn[r] = rng() % 19 == 0;
		cn[r] = rng() % 23 == 0;
		in[r] = rng() % 29 == 0;
	}
	int			ca = b.add_num_col(2, a, an);
	int			cb = b.add_num_col(0, bb, bn);
	int			cc = b.add_num_col(6, c, cn);
	int			ci = b.add_int_col(GX_INT8, iv, in);
	int64_t		K = (int64_t) (rng() % 2000001) - 1000000;

	want.assign(n, NUM_REJECT);
	switch (prog)
	{
		case 0:
			b.emit(GX_OP_LDCOL, GX_NUMERIC, 0, 0, 0, ca);
			b.emit(GX_OP_LDCOL, GX_NUMERIC, 1, 0, 0, cb);
			b.emit(GX_OP_LT, GX_NUMERIC, 0, 0, 1, 2 - 0);
			b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
			for (uint32_t r = 0; r < n; r++)
				if (!an[r] && !bn[r] && num_ref_cmp(a[r], 2, bb[r], 0) < 0)
					want[r] = NUM_PASS;
			break;
		case 1:
			{
				int			k = b.kint(GX_NUMERIC, K);

				b.emit(GX_OP_LDCOL, GX_NUMERIC, 0, 0, 0, ca);
				b.emit(GX_OP_LDCOL, GX_NUMERIC, 1, 0, 0, cc);
				b.emit(GX_OP_ADD, GX_NUMERIC, 0, 0, 1, 2 - 6);	/* scale 6 */
				b.emit(GX_OP_LDCONST, GX_NUMERIC, 1, 0, 0, k);
				b.emit(GX_OP_GE, GX_NUMERIC, 0, 0, 1, 6 - 3);
				b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
				for (uint32_t r = 0; r < n; r++)
				{
					if (an[r] || cn[r])
						continue;
					if (a[r] == NUM_NAN || c[r] == NUM_NAN)
					{
						want[r] = num_ref_cmp(NUM_NAN, 6, K, 3) >= 0 ? NUM_PASS : NUM_REJECT;
						continue;
					}
					gx_i128		x = (gx_i128) a[r] * 10000;
					gx_i128		sum = x + c[r];

					if (!num_dev_ok(x) || !num_dev_ok(sum))
						want[r] = NUM_HOST;
					else
						want[r] = num_ref_cmp((int64_t) sum, 6, K, 3) >= 0 ? NUM_PASS : NUM_REJECT;
				}
			}
			break;
		case 2:
			{
				int			k = b.kint(GX_NUMERIC, K);

				b.emit(GX_OP_LDCOL, GX_NUMERIC, 0, 0, 0, cb);
				b.emit(GX_OP_MUL, GX_NUMERIC, 0, 0, 0);
				b.emit(GX_OP_LDCONST, GX_NUMERIC, 1, 0, 0, k);
				b.emit(GX_OP_GT, GX_NUMERIC, 0, 0, 1);
				b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
				for (uint32_t r = 0; r < n; r++)
				{
					if (bn[r])
						continue;
					if (bb[r] == NUM_NAN)
					{
						want[r] = NUM_PASS;	/* NaN > K */
						continue;
					}
					gx_i128		p = (gx_i128) bb[r] * bb[r];

					want[r] = !num_dev_ok(p) ? NUM_HOST : p > K ? NUM_PASS : NUM_REJECT;
				}
			}
			break;
		case 3:
			{
				int			k = b.kint(GX_NUMERIC, a[0] == NUM_NAN ? 5 : -a[0]);
				int64_t		kv = b.consts[k].v.i;

				b.emit(GX_OP_SETBOOL, GX_BOOL, 0, 0, 0, 0);
				b.emit(GX_OP_LDCOL, GX_NUMERIC, 1, 0, 0, ca);
				b.emit(GX_OP_NEG, GX_NUMERIC, 1, 1);
				b.emit(GX_OP_LDCONST, GX_NUMERIC, 2, 0, 0, k);
				b.emit(GX_OP_EQ, GX_NUMERIC, 1, 1, 2);
				b.emit(GX_OP_ORSTEP, GX_BOOL, 0, 1, 0, 0, 9);
				b.emit(GX_OP_LDCOL, GX_NUMERIC, 1, 0, 0, ca);
				b.emit(GX_OP_ISNULL, GX_BOOL, 1, 1);
				b.emit(GX_OP_ORSTEP, GX_BOOL, 0, 1, 0, 0, 9);
				b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
				for (uint32_t r = 0; r < n; r++)
					want[r] = an[r] || (a[r] == NUM_NAN ? kv == NUM_NAN : -a[r] == kv) ?
						NUM_PASS : NUM_REJECT;
			}
			break;
		case 4:
			b.emit(GX_OP_LDCOL, GX_INT8, 0, 0, 0, ci);
			b.emit(GX_OP_CAST, GX_NUMERIC, 0, 0, 0, GX_INT8);
			b.emit(GX_OP_LDCOL, GX_NUMERIC, 1, 0, 0, ca);
			b.emit(GX_OP_LE, GX_NUMERIC, 0, 0, 1, 0 - 2);
			b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
			for (uint32_t r = 0; r < n; r++)
			{
				if (in[r])
					continue;
				if (!num_dev_ok(iv[r]))
					want[r] = NUM_HOST;
				else if (!an[r] && num_ref_cmp(iv[r], 0, a[r], 2) <= 0)
					want[r] = NUM_PASS;
			}
			break;
		case 5:
			{
				std::vector<int64_t> set = {NUM_NAN, a[1 % n], a[2 % n], -a[3 % n], 0, 150};

				std::sort(set.begin(), set.end());
				set.erase(std::unique(set.begin(), set.end()), set.end());
				int			k = b.kint(GX_INT8, (int64_t) set.size());

				b.kint(GX_INT8, 0);
				for (int64_t v : set)
					b.kint(GX_NUMERIC, v);
				b.emit(GX_OP_LDCOL, GX_NUMERIC, 0, 0, 0, ca);
				b.emit(GX_OP_INSET, GX_NUMERIC, 0, 0, 0, k);
				b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
				for (uint32_t r = 0; r < n; r++)
					if (!an[r] && std::binary_search(set.begin(), set.end(), a[r]))
						want[r] = NUM_PASS;
			}
			break;
		default:
			{
				int			k = b.kint(GX_NUMERIC, K);
				int			k2 = b.kint(GX_NUMERIC, 7);

				/* ((c - a) * b <> K) OR (b = 7): c - a at scale 6, times b: scale 6 */
				b.emit(GX_OP_SETBOOL, GX_BOOL, 0, 0, 0, 0);
				b.emit(GX_OP_LDCOL, GX_NUMERIC, 1, 0, 0, cc);
				b.emit(GX_OP_LDCOL, GX_NUMERIC, 2, 0, 0, ca);
				b.emit(GX_OP_SUB, GX_NUMERIC, 1, 1, 2, 6 - 2);
				b.emit(GX_OP_LDCOL, GX_NUMERIC, 2, 0, 0, cb);
				b.emit(GX_OP_MUL, GX_NUMERIC, 1, 1, 2);
				b.emit(GX_OP_LDCONST, GX_NUMERIC, 2, 0, 0, k);
				b.emit(GX_OP_NE, GX_NUMERIC, 1, 1, 2, 6 - 0);
				b.emit(GX_OP_ORSTEP, GX_BOOL, 0, 1, 0, 0, 13);
				b.emit(GX_OP_LDCOL, GX_NUMERIC, 1, 0, 0, cb);
				b.emit(GX_OP_LDCONST, GX_NUMERIC, 2, 0, 0, k2);
				b.emit(GX_OP_EQ, GX_NUMERIC, 1, 1, 2);
				b.emit(GX_OP_ORSTEP, GX_BOOL, 0, 1, 0, 0, 13);
				b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
				for (uint32_t r = 0; r < n; r++)
				{
					int			first = -1;	/* -1 NULL, 0, 1, 2 host: in device order */

					if (!cn[r] && !an[r])
					{
						bool		dnan = c[r] == NUM_NAN || a[r] == NUM_NAN;
						gx_i128		d = 0;

						if (!dnan)
						{
							gx_i128		as = (gx_i128) a[r] * 10000;

							d = c[r] - as;
							if (!num_dev_ok(as) || !num_dev_ok(d))
								first = 2;
						}
						if (first != 2 && !bn[r])
						{
							if (dnan || bb[r] == NUM_NAN)
								first = num_ref_cmp(NUM_NAN, 6, K, 0) != 0;
							else
							{
								gx_i128		p = d * bb[r];

								first = !num_dev_ok(p) ? 2 :
									num_ref_cmp((int64_t) p, 6, K, 0) != 0;
							}
						}
					}
					if (first == 2)
						want[r] = NUM_HOST;
					else if (first == 1)
						want[r] = NUM_PASS;
					else if (!bn[r] && num_ref_cmp(bb[r], 0, 7, 0) == 0)
						want[r] = NUM_PASS;
				}
			}
			break;
	}
}

/* group mode for a numeric task: count(*) per value of its int8 column (3) */
#define NUM_GROUP_CAP 32768u

static inline void
numeric_group_mode(gx_chunk *c)
{
	/* the key, column 3, as the program's output 0 (GX_OP_OUT) */
	gx_instr   *ld = &c->code[c->ninstr];
	gx_instr   *out = &c->code[c->ninstr + 1];
	uint8_t		r = (uint8_t) c->nregs;

	memset(ld, 0, 2 * sizeof(gx_instr));
	ld->op = GX_OP_LDCOL;
	ld->type = (uint8_t) c->cols[3].type;
	ld->dst = r;
	ld->arg = 3;
	out->op = GX_OP_OUT;
	out->type = (uint8_t) c->cols[3].type;
	out->a = r;
	out->arg = 0;
	c->ninstr += 2;
	c->nregs = r + 1;
	c->ext.ngroup_cap = NUM_GROUP_CAP;
	c->ext.ngroup_limit = NUM_GROUP_CAP / 2;
	c->ext.ngkeys = 1;
	c->ext.gkey_col[0] = 0;
	c->ext.nagg = 1;
	c->ext.agg[0] = gx_agg {GX_AGG_COUNT, -1};
	c->obj[0] = 1;
}

/* rows counted in a group table of numeric_group_mode (host memory) */
static inline int64_t
numeric_group_rows(const char *table)
{
	const uint64_t sb = gx_group_slot_bytes(1, 1);
	int64_t		n = 0;

	for (uint32_t i = 0; i < NUM_GROUP_CAP; i++)
	{
		const char *slot = table + sizeof(gx_group_hdr) + (uint64_t) i * sb;

		if (*(const uint32_t *) slot == GX_GSLOT_READY)
			n += ((const gx_agg_pair *) (slot + 16))->cnt;
	}
	return n;
}

/*
 * The data of a numeric varlena (n_header onwards) as PostgreSQL writes
 * value v at scale 'scale': NBASE digits without leading or trailing
 * zeros, the short format where it fits, else (or with force_long) the
 * long one; NaN as 0xC000.
 */
static std::vector<uint8_t>
numeric_bytes(int64_t v, int scale, bool force_long)
{
	std::vector<uint8_t> out;
	auto		put16 = [&out](uint32_t x) {
		out.push_back((uint8_t) (x & 0xFF));
		out.push_back((uint8_t) ((x >> 8) & 0xFF));
	};

	if (v == NUM_NAN)
	{
		put16(0xC000);
		return out;
	}
	bool		neg = v < 0;
	unsigned __int128 m = neg ? (unsigned __int128) (-(gx_i128) v) : (unsigned __int128) v;
	int			fracgroups = (scale + 3) / 4;

	for (int i = 0; i < fracgroups * 4 - scale; i++)
		m *= 10;
	std::vector<uint32_t> dig;	/* least significant first */

	while (m > 0)
	{
		dig.push_back((uint32_t) (m % 10000));
		m /= 10000;
	}
	int			weight = (int) dig.size() - fracgroups - 1;
	size_t		lo = 0;

	while (lo < dig.size() && dig[lo] == 0)
		lo++;					/* trailing zeros */
	if (lo == dig.size())
	{
		weight = 0;
		neg = false;
	}
	if (!force_long && scale <= 0x3F && weight >= -64 && weight <= 63)
		put16(0x8000 | (neg ? 0x2000 : 0) | ((uint32_t) scale << 7) | ((uint32_t) weight & 0x7F));
	else
	{
		put16((neg ? 0x4000 : 0) | (uint32_t) scale);
		put16((uint32_t) (uint16_t) (int16_t) weight);
	}
	for (size_t i = dig.size(); i > lo; i--)
		put16(dig[i - 1]);
	return out;
}

/*
 * The page task of build_numeric_pages and build_char8_pages: the header
 * of rc (a column task with their program and two 8-byte columns), then
 * the pages and the row map of n rows whose tuples are (int4, varlena,
 * varlena, varlena, the last missing in older tuples: 'missing'); task
 * columns 0 and 1 are attributes 2 and 4.  *cap: its slot bytes.
 */
static gx_chunk *
gx_test_page_task(const gx_chunk *rc, const std::vector<std::vector<uint8_t>> &pages,
				  const std::vector<uint32_t> &rowmap, uint32_t n, int64_t missing,
				  uint64_t *cap)
{
	const uint32_t BLK = 8192;
	uint32_t	npages = (uint32_t) pages.size();
	uint64_t	deform_off = GX_ALIGN_UP(sizeof(gx_chunk));
	uint64_t	pages_off = GX_ALIGN_UP(deform_off + sizeof(gx_deform_hdr));
	uint64_t	rowmap_off = pages_off + (uint64_t) npages * BLK;
	uint64_t	input_bytes = GX_ALIGN_UP(rowmap_off + (uint64_t) n * 4);
	uint64_t	off = input_bytes;
	uint64_t	voff[2],
				noff[2];

	for (int i = 0; i < 2; i++)
	{
		voff[i] = off;
		off = GX_ALIGN_UP(off + 8ull * n);
		noff[i] = off;
		off = GX_ALIGN_UP(off + gx_bitmap_bytes(n));
	}
	*cap = off + gx_result_bytes(n);
	gx_chunk   *c = (gx_chunk *) aligned_alloc(4096, (*cap + 4095) & ~(uint64_t) 4095);

	memset(c, 0, *cap);
	memcpy(c, rc, sizeof(gx_chunk));
	c->nrows = n;
	c->input_bytes = input_bytes;
	c->result_off = off;
	c->deform_off = deform_off;
	for (int i = 0; i < 2; i++)
	{
		c->cols[i].values_off = voff[i];
		c->cols[i].nulls_off = noff[i];
	}
	gx_deform_hdr *d = gx_chunk_deform(c);
	static const int16_t attlen[4] = {4, -1, -1, -1};
	static const int16_t col[4] = {-1, 0, -1, 1};

	d->npages = npages;
	d->page_size = BLK;
	d->natts = 4;
	d->pages_off = pages_off;
	d->rowmap_off = rowmap_off;
	for (int a = 0; a < 4; a++)
	{
		d->atts[a].attlen = attlen[a];
		d->atts[a].attalign = 4;
		d->atts[a].col = col[a];
		d->atts[a].fixed_off = a == 0 ? 0 : -1;
	}
	d->atts[3].has_missing = 1;
	d->atts[3].missing = missing;
	for (uint32_t p = 0; p < npages; p++)
		memcpy((char *) c + pages_off + (uint64_t) p * BLK, pages[p].data(), BLK);
	memcpy((char *) c + rowmap_off, rowmap.data(), (size_t) n * 4);
	return c;
}

/*
 * A page chunk of n tuples (int4, numeric(15,2) a, text, numeric(18,6) c)
 * with NULLs, both varlena headers and tuples without the last attributes
 * (c has a missing value), deformed into columns a and c; the program is
 * a < c (shift -4) or c is NULL.  ref gets the same rows as columns (and
 * program), to filter the same way.  Returns the page chunk (malloc'd,
 * *cap bytes).  free_c: c is unconstrained numeric (GX_NUMERIC_FREE), its
 * values of dscale 0 .. 8, some too large: rows for the host.
 */
static gx_chunk *
build_numeric_pages(ChunkBuilder &ref, std::mt19937_64 &rng, uint32_t n, uint64_t *cap,
					bool free_c = false)
{
	const uint32_t BLK = 8192;
	std::vector<uint8_t> mbytes = numeric_bytes(1234567, 6, false);
	const int64_t cmissing = free_c ? gx_numeric_free_encode(mbytes.data(), mbytes.size()) :
		1234567;
	std::vector<std::vector<uint8_t>> pages;
	std::vector<uint8_t> page(BLK, 0);
	std::vector<uint32_t> rowmap;
	std::vector<int64_t> av(n), cv(n);
	std::vector<uint8_t> an(n), cnl(n);
	uint32_t	nlp = 0,
				upper = BLK;

	for (uint32_t r = 0; r < n; r++)
	{
		uint32_t	natts = rng() % 10 == 0 ? 2 : 4;
		bool		nul[4] = {false, rng() % 11 == 0, rng() % 3 == 0, rng() % 13 == 0};
		bool		hasnull = false;

		for (uint32_t i = 0; i < natts; i++)
			hasnull |= nul[i];
		uint32_t	hoff = (23 + (hasnull ? 1 : 0) + 7) & ~7u;
		std::vector<uint8_t> tup(hoff, 0);

		tup[18] = (uint8_t) natts;
		tup[20] = hasnull ? 1 : 0;
		tup[22] = (uint8_t) hoff;
		for (uint32_t i = 0; i < natts && hasnull; i++)
			if (!nul[i])
				tup[23] |= (uint8_t) (1u << i);
		auto		varlena = [&](const std::vector<uint8_t> &data) {
			if (data.size() + 1 < 127 && rng() % 4 != 0)
			{
				tup.push_back((uint8_t) (((data.size() + 1) << 1) | 1));
				tup.insert(tup.end(), data.begin(), data.end());
			}
			else
			{
				uint32_t	w = (uint32_t) (data.size() + 4) << 2;

				while ((tup.size() - hoff) % 4 != 0)
					tup.push_back(0);
				for (int i = 0; i < 4; i++)
					tup.push_back((uint8_t) (w >> (8 * i)));
				tup.insert(tup.end(), data.begin(), data.end());
			}
		};

		/* int4 */
		while ((tup.size() - hoff) % 4 != 0)
			tup.push_back(0);
		for (int i = 0; i < 4; i++)
			tup.push_back((uint8_t) (r >> (8 * i)));
		/* a numeric(15,2) */
		av[r] = rng() % 50 == 0 ? NUM_NAN : (int64_t) (rng() % 199999999999999ULL) - 99999999999999LL;
		if (rng() % 3 == 0)
			av[r] /= 1000000;
		an[r] = nul[1];
		if (!nul[1])
			varlena(numeric_bytes(av[r], 2, rng() % 5 == 0));
		else
			av[r] = 0;
		/* text */
		if (natts > 2 && !nul[2])
			varlena(std::vector<uint8_t>(rng() % 40, 'x'));
		/* c numeric(18,6) */
		if (natts > 3)
		{
			cv[r] = rng() % 50 == 0 ? NUM_NAN :
				(int64_t) (rng() % 1999999999999999999ULL) - 999999999999999999LL;
			if (rng() % 2 == 0)
				cv[r] /= 100000000000LL;
			cnl[r] = nul[3];
			if (!nul[3] && free_c)
			{
				/* any dscale; stored as the device keeps it */
				std::vector<uint8_t> bytes = numeric_bytes(cv[r], (int) (rng() % 9),
														   rng() % 5 == 0);

				varlena(bytes);
				cv[r] = gx_numeric_free_encode(bytes.data(), (uint32_t) bytes.size());
			}
			else if (!nul[3])
				varlena(numeric_bytes(cv[r], 6, rng() % 5 == 0));
			else
				cv[r] = 0;
		}
		else
			cv[r] = cmissing;
		uint32_t	len = (uint32_t) tup.size();

		if (upper < len || ((upper - len) & ~7u) < 24 + (nlp + 1) * 4)
		{
			pages.push_back(page);
			std::fill(page.begin(), page.end(), 0);
			nlp = 0;
			upper = BLK;
		}
		upper = (upper - len) & ~7u;
		memcpy(&page[upper], tup.data(), len);
		uint32_t	lp = upper | (1u << 15) | (len << 17);

		memcpy(&page[24 + nlp * 4], &lp, 4);
		nlp++;
		rowmap.push_back(((uint32_t) pages.size() << 16) | nlp);
	}
	if (nlp > 0)
		pages.push_back(page);

	int			ca = ref.add_num_col(2, av, an);
	int			cc = ref.add_num_col(free_c ? GX_NUMERIC_FREE : 6, cv, cnl);

	ref.emit(GX_OP_SETBOOL, GX_BOOL, 0, 0, 0, 0);
	ref.emit(GX_OP_LDCOL, GX_NUMERIC, 1, 0, 0, ca);
	ref.emit(GX_OP_LDCOL, GX_NUMERIC, 2, 0, 0, cc);
	ref.emit(GX_OP_LT, GX_NUMERIC, 1, 1, 2, 2 - 6);
	ref.emit(GX_OP_ORSTEP, GX_BOOL, 0, 1, 0, 0, 8);
	ref.emit(GX_OP_LDCOL, GX_NUMERIC, 1, 0, 0, cc);
	ref.emit(GX_OP_ISNULL, GX_BOOL, 1, 1);
	ref.emit(GX_OP_ORSTEP, GX_BOOL, 0, 1, 0, 0, 8);
	ref.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
	gx_chunk   *rc = ref.build();

	return gx_test_page_task(rc, pages, rowmap, n, cmissing, cap);
}

/* ---------------------------------------------------------------------- */
/* bpchar (GX_CHAR8): packed values and varlenas on heap pages             */
/* ---------------------------------------------------------------------- */

/*
 * The GX_CHAR8 value of string s as the reference computes it: s without
 * its trailing spaces, its bytes in a zeroed little-endian uint64
 */
static int64_t
char8_ref(const std::string &s)
{
	size_t		len = s.size();
	uint8_t		b[8] = {0};
	uint64_t	u = 0;

	while (len > 0 && s[len - 1] == ' ')
		len--;
	memcpy(b, s.data(), len < 8 ? len : 8);
	for (int i = 7; i >= 0; i--)
		u = (u << 8) | b[i];
	return (int64_t) u;
}

/* s without its trailing spaces (bpchareq compares these) */
static std::string
char8_trim(const std::string &s)
{
	size_t		len = s.size();

	while (len > 0 && s[len - 1] == ' ')
		len--;
	return s.substr(0, len);
}

/* values of the char8 tests: 1-byte, UTF-8, 8 bytes, with trailing spaces */
static const char *const char8_pool[] = {
	"A", "R", "N", " ", "", "R ", "ab", "a ", " a", "a", "\xc3\xa9\xc3\xa9",
	"\xf0\x9f\x98\x80\xf0\x9f\x98\x80", "12345678", "12345678   ", "\xff\x80", "x y"
};
#define CHAR8_POOL (sizeof(char8_pool) / sizeof(char8_pool[0]))

/*
 * A page chunk of n tuples (int4, bpchar f, text, bpchar g) with NULLs,
 * both varlena headers, trailing spaces and tuples without the last two
 * attributes (g then has the missing value "M"), deformed into columns f
 * and g; the program is f = 'R' OR g = ANY ({"ab", 8-byte emoji, ""}) OR
 * f = g.  ref gets the same rows as columns (and program); want[r] is
 * whether row r passes, by string comparison.  overlong: the last row's
 * g has 9 bytes (no GX_CHAR8 value: a bad page).  Returns the page chunk
 * (malloc'd, *cap bytes).
 */
static gx_chunk *
build_char8_pages(ChunkBuilder &ref, std::mt19937_64 &rng, uint32_t n, uint64_t *cap,
				  std::vector<int> &want, bool overlong = false)
{
	const uint32_t BLK = 8192;
	const std::string gmissing = "M";
	std::vector<std::vector<uint8_t>> pages;
	std::vector<uint8_t> page(BLK, 0);
	std::vector<uint32_t> rowmap;
	std::vector<int64_t> fv(n), gv(n);
	std::vector<uint8_t> fnl(n), gnl(n);
	uint32_t	nlp = 0,
				upper = BLK;
	const std::string set[3] = {"ab", "\xf0\x9f\x98\x80\xf0\x9f\x98\x80", ""};

	want.assign(n, 0);
	for (uint32_t r = 0; r < n; r++)
	{
		uint32_t	natts = rng() % 10 == 0 ? 2 : 4;
		bool		nul[4] = {false, rng() % 11 == 0, rng() % 3 == 0, rng() % 13 == 0};
		bool		hasnull = false;

		if (overlong && r == n - 1)
		{
			natts = 4;			/* the last row's g: 9 bytes */
			nul[3] = false;
		}

		for (uint32_t i = 0; i < natts; i++)
			hasnull |= nul[i];
		uint32_t	hoff = (23 + (hasnull ? 1 : 0) + 7) & ~7u;
		std::vector<uint8_t> tup(hoff, 0);

		tup[18] = (uint8_t) natts;
		tup[20] = hasnull ? 1 : 0;
		tup[22] = (uint8_t) hoff;
		for (uint32_t i = 0; i < natts && hasnull; i++)
			if (!nul[i])
				tup[23] |= (uint8_t) (1u << i);
		auto		varlena = [&](const std::string &data) {
			if (data.size() + 1 < 127 && rng() % 4 != 0)
			{
				tup.push_back((uint8_t) (((data.size() + 1) << 1) | 1));
				tup.insert(tup.end(), data.begin(), data.end());
			}
			else
			{
				uint32_t	w = (uint32_t) (data.size() + 4) << 2;

				while ((tup.size() - hoff) % 4 != 0)
					tup.push_back(0);
				for (int i = 0; i < 4; i++)
					tup.push_back((uint8_t) (w >> (8 * i)));
				tup.insert(tup.end(), data.begin(), data.end());
			}
		};
		std::string fs = char8_pool[rng() % CHAR8_POOL];
		std::string gs = char8_pool[rng() % CHAR8_POOL];

		if (rng() % 4 == 0)
			fs += std::string(rng() % 5, ' ');
		/* int4 */
		while ((tup.size() - hoff) % 4 != 0)
			tup.push_back(0);
		for (int i = 0; i < 4; i++)
			tup.push_back((uint8_t) (r >> (8 * i)));
		/* f */
		fnl[r] = nul[1];
		fv[r] = nul[1] ? 0 : char8_ref(fs);
		if (!nul[1])
			varlena(fs);
		/* text */
		if (natts > 2 && !nul[2])
			varlena(std::string(rng() % 40, 'x'));
		/* g */
		if (natts > 3)
		{
			if (overlong && r == n - 1)
				gs = "123456789";
			gnl[r] = nul[3];
			gv[r] = nul[3] ? 0 : char8_ref(gs);
			if (!nul[3])
				varlena(gs);
		}
		else
		{
			gs = gmissing;
			gv[r] = char8_ref(gs);
		}
		bool		gnull = natts > 3 && nul[3];
		bool		pass = !nul[1] && char8_trim(fs) == "R";

		for (const std::string &e : set)
			pass |= !gnull && char8_trim(gs) == e;
		pass |= !nul[1] && !gnull && char8_trim(fs) == char8_trim(gs);
		want[r] = pass;

		uint32_t	len = (uint32_t) tup.size();

		if (upper < len || ((upper - len) & ~7u) < 24 + (nlp + 1) * 4)
		{
			pages.push_back(page);
			std::fill(page.begin(), page.end(), 0);
			nlp = 0;
			upper = BLK;
		}
		upper = (upper - len) & ~7u;
		memcpy(&page[upper], tup.data(), len);
		uint32_t	lp = upper | (1u << 15) | (len << 17);

		memcpy(&page[24 + nlp * 4], &lp, 4);
		nlp++;
		rowmap.push_back(((uint32_t) pages.size() << 16) | nlp);
	}
	if (nlp > 0)
		pages.push_back(page);

	int			cf = ref.add_int_col(GX_CHAR8, fv, fnl);
	int			cg = ref.add_int_col(GX_CHAR8, gv, gnl);
	int			kr = ref.kint(GX_CHAR8, char8_ref("R"));
	std::vector<int64_t> sv;

	for (const std::string &e : set)
		sv.push_back(char8_ref(e));
	std::sort(sv.begin(), sv.end());
	int			ks = ref.kint(GX_INT8, (int64_t) sv.size());

	ref.kint(GX_INT8, 0);
	for (int64_t v : sv)
		ref.kint(GX_CHAR8, v);
	ref.emit(GX_OP_SETBOOL, GX_BOOL, 0, 0, 0, 0);
	ref.emit(GX_OP_LDCOL, GX_CHAR8, 1, 0, 0, cf);
	ref.emit(GX_OP_LDCONST, GX_CHAR8, 2, 0, 0, kr);
	ref.emit(GX_OP_EQ, GX_CHAR8, 1, 1, 2, 0);
	ref.emit(GX_OP_ORSTEP, GX_BOOL, 0, 1, 0, 0, 12);
	ref.emit(GX_OP_LDCOL, GX_CHAR8, 1, 0, 0, cg);
	ref.emit(GX_OP_INSET, GX_CHAR8, 1, 1, 1, ks);
	ref.emit(GX_OP_ORSTEP, GX_BOOL, 0, 1, 0, 0, 12);
	ref.emit(GX_OP_LDCOL, GX_CHAR8, 1, 0, 0, cf);
	ref.emit(GX_OP_LDCOL, GX_CHAR8, 2, 0, 0, cg);
	ref.emit(GX_OP_EQ, GX_CHAR8, 1, 1, 2, 0);
	ref.emit(GX_OP_ORSTEP, GX_BOOL, 0, 1, 0, 0, 12);
	ref.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
	gx_chunk   *rc = ref.build();

	return gx_test_page_task(rc, pages, rowmap, n, char8_ref(gmissing), cap);
}

/* ---------------------------------------------------------------------- */
/* joins (gx_join.cuh): one side's rows, tasks, passes, the reference      */
/* ---------------------------------------------------------------------- */

/*
 * One side of a join: key 1 (ktype) and key 2 (int8), each with NULLs, a
 * filter column f (a row passes where f >= 0), a payload column (inner:
 * an output, or row_base + row), and a numeric column h whose square
 * overflows int64 where h is large: the qual "h * h > 0" makes those rows
 * host rows (GX_ERR_HOST).
 */
struct JoinSide
{
	int			ktype = GX_INT4;
	std::vector<int64_t> k1,
				k2,
				f,
				pay,
				h;
	std::vector<uint8_t> n1,
				n2;

	uint32_t	size() const
	{
		return (uint32_t) k1.size();
	}
	void		add(int64_t a, bool an, int64_t b, bool bn, bool pass, bool host = false)
	{
		k1.push_back(a);
		n1.push_back(an);
		k2.push_back(b);
		n2.push_back(bn);
		f.push_back(pass ? 1 : -1);
		pay.push_back(1000000007ll * (int64_t) k1.size());
		h.push_back(host ? 4000000000ll : 1);
	}
	bool		passes(uint32_t r) const
	{
		return f[r] >= 0 && h[r] == 1;
	}
	bool		is_host(uint32_t r) const
	{
		return f[r] >= 0 && h[r] != 1;
	}
	bool		null_key(uint32_t r, int nkeys) const
	{
		return n1[r] || (nkeys > 1 && n2[r]);
	}
};

/* the join options of a test case */
struct JoinSpec
{
	int			nkeys = 1;
	bool		payload_out = false;	/* inner payload from an output */
	bool		host = false;	/* the programs carry the numeric qual */
	bool		lean = false;	/* one key column, no filter (throughput) */
	bool		entry = false;	/* the rows come from a cache entry (join_entry_task) */
	bool		noruns = false;	/* FINISH without runs where no payload is read */
	uint32_t	cap = 0;
	uint32_t	kcap = 0;
	/*
	 * the range join (gx_jrange.cuh): the inner key is key 1; an outer
	 * row's lower bound is its key 1 (output 0), its upper bound its key 2
	 * (output 1); each JOIN_BOUND_NONE, _INCL or _EXCL
	 */
	uint32_t	alg = GX_JOIN_HASH;
	int			lo = 0;
	int			hi = 0;
};

#define JOIN_BOUND_NONE 0
#define JOIN_BOUND_INCL 1
#define JOIN_BOUND_EXCL 2

/* the join options of a range join case with bounds lo and hi (JOIN_BOUND_*) */
static JoinSpec
join_range_spec(int lo, int hi)
{
	JoinSpec	js;

	js.alg = GX_JOIN_RANGE;
	js.lo = lo;
	js.hi = hi;
	return js;
}

/* bytes of the table of a case's options */
static uint64_t
join_table_bytes(const JoinSpec &js)
{
	if (js.alg == GX_JOIN_MERGE)
		return gx_jmerge_table_bytes(js.cap);
	return js.alg == GX_JOIN_RANGE ? gx_jrange_table_bytes(js.cap) :
		gx_join_table_bytes(js.cap, js.kcap);
}

/* the range join's fields of a task of the case's options */
static void
join_set_range(gx_chunk *c, const JoinSpec &js)
{
	c->ext.join.alg = js.alg;
	c->ext.join.lo_out = -1;
	c->ext.join.hi_out = -1;
	c->ext.join.bflags = 0;
	if (js.alg != GX_JOIN_RANGE)
		return;
	c->ext.join.nkeys = 1;
	c->ext.join.lo_out = js.lo != JOIN_BOUND_NONE ? 0 : -1;
	c->ext.join.hi_out = js.hi != JOIN_BOUND_NONE ? 1 : -1;
	c->ext.join.bflags = (js.lo == JOIN_BOUND_INCL ? GX_JOIN_LO_INCL : 0) |
		(js.hi == JOIN_BOUND_INCL ? GX_JOIN_HI_INCL : 0);
}

/* give a built task a result area of result_bytes */
static gx_chunk *
join_grow_result(ChunkBuilder &b, uint64_t result_bytes)
{
	gx_chunk   *c = (gx_chunk *) b.mem;
	uint64_t	in = c->input_bytes;
	uint64_t	cap = in + result_bytes;
	uint64_t	alloc = (cap + 4095) & ~(uint64_t) 4095;
	void	   *m = aligned_alloc(4096, alloc);

	memset(m, 0, alloc);
	memcpy(m, c, in);
	free(b.mem);
	b.mem = m;
	b.capacity = cap;
	return (gx_chunk *) m;
}

/*
 * The quals of a join side's program: "f >= 0" (column cf), and with host
 * "h * h > 0" (numeric column ch: the host's where it overflows);
 * registers 0 .. 2 and 6 .. 9
 */
static void
join_emit_quals(ChunkBuilder &b, int cf, int ch, bool host)
{
	b.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, cf);
	b.emit(GX_OP_LDCONST, GX_INT4, 1, 0, 0, b.kint(GX_INT4, 0));
	b.emit(GX_OP_GE, GX_INT4, 2, 0, 1);
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 2);
	if (!host)
		return;
	b.emit(GX_OP_LDCOL, GX_NUMERIC, 6, 0, 0, ch);
	b.emit(GX_OP_MUL, GX_NUMERIC, 7, 6, 6);
	b.emit(GX_OP_LDCONST, GX_NUMERIC, 8, 0, 0, b.kint(GX_NUMERIC, 0));
	b.emit(GX_OP_GT, GX_NUMERIC, 9, 7, 8);
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 9);
}

/*
 * A JOIN_BUILD or JOIN_PROBE task over rows [lo, hi) of side s: the
 * program is "f >= 0 [AND h * h > 0]", then the keys as outputs 0 (and 1)
 * and, for a build with payload_out, the payload as output 2 (lean: key 1
 * alone, its only column)
 */
static gx_chunk *
join_side_task(ChunkBuilder &b, int kind, const JoinSide &s, const JoinSpec &js, uint32_t lo,
			   uint32_t hi)
{
	auto		sl = [&](const std::vector<int64_t> &v) {
		return std::vector<int64_t>(v.begin() + lo, v.begin() + hi);
	};
	auto		sn = [&](const std::vector<uint8_t> &v) {
		return std::vector<uint8_t>(v.begin() + lo, v.begin() + hi);
	};
	int			c1 = b.add_int_col(s.ktype, sl(s.k1), sn(s.n1));

	b.nrows = hi - lo;
	if (js.lean)
	{
		b.emit(GX_OP_LDCOL, s.ktype, 3, 0, 0, c1);
		b.emit(GX_OP_OUT, s.ktype, 0, 3, 0, 0);
	}
	else
	{
		int			c2 = b.add_int_col(GX_INT8, sl(s.k2), sn(s.n2));
		int			cf = b.add_int_col(GX_INT4, sl(s.f));
		int			cp = b.add_int_col(GX_INT8, sl(s.pay));
		int			ch = b.add_num_col(0, sl(s.h));

		join_emit_quals(b, cf, ch, js.host);
		b.emit(GX_OP_LDCOL, s.ktype, 3, 0, 0, c1);
		b.emit(GX_OP_OUT, s.ktype, 0, 3, 0, 0);
		if (js.nkeys > 1 || (js.alg == GX_JOIN_RANGE && kind == GX_TASK_JOIN_PROBE))
		{
			b.emit(GX_OP_LDCOL, GX_INT8, 4, 0, 0, c2);
			b.emit(GX_OP_OUT, GX_INT8, 0, 4, 0, 1);
		}
		if (kind == GX_TASK_JOIN_BUILD && js.payload_out)
		{
			b.emit(GX_OP_LDCOL, GX_INT8, 5, 0, 0, cp);
			b.emit(GX_OP_OUT, GX_INT8, 0, 5, 0, 2);
		}
	}
	gx_chunk   *c = b.build();

	c->kind = kind;
	c->obj[0] = 1;
	c->ext.entry = -1;
	c->ext.join.nkeys = js.nkeys;
	c->ext.join.key_out[0] = 0;
	c->ext.join.key_out[1] = 1;
	c->ext.join.payload_out = kind == GX_TASK_JOIN_BUILD && js.payload_out ? 2 : -1;
	c->ext.join.cap = js.cap;
	c->ext.join.kcap = js.kcap;
	c->ext.join.row_base = lo;
	join_set_range(c, js);
	return c;
}

/*
 * Cache entry rows (JoinSpec.entry): entry row r of a task is in block
 * r / 4 at line r % 4 + 1, except padding rows (r % 11 == 7: line 0);
 * blocks b with b % 5 == 2 are stale (in the task's skip bitmap).  Is
 * entry row r none of the entry's rows?
 */
static bool
join_entry_skipped(uint32_t r)
{
	return r % 11 == 7 || (r / 4) % 5 == 2;
}

/*
 * Make task c (its columns in its own input) one that reads them from a
 * cache entry: the entry is a copy of the task (so the column offsets
 * hold) with the row map after it; the skip bitmap goes where the first
 * column was, after the header
 */
static void
join_entry_task(gx_chunk *c, std::vector<uint64_t> &entry)
{
	uint64_t	in = c->input_bytes;
	uint32_t	nblocks = (c->nrows + 3) / 4;
	uint64_t	map_off = (in + 7) & ~(uint64_t) 7;

	entry.assign((map_off + 4 * (uint64_t) c->nrows) / 8 + 1, 0);
	memcpy(entry.data(), c, in);

	uint32_t   *map = (uint32_t *) ((char *) entry.data() + map_off);
	uint64_t	skip_off = GX_ALIGN_UP(sizeof(gx_chunk));
	uint32_t   *skip = (uint32_t *) ((char *) c + skip_off);

	for (uint32_t r = 0; r < c->nrows; r++)
		map[r] = (r / 4) << 16 | (r % 11 == 7 ? 0 : r % 4 + 1);
	memset(skip, 0, 4 * ((nblocks + 31) / 32));
	for (uint32_t b = 0; b < nblocks; b++)
		if (b % 5 == 2)
			skip[b / 32] |= 1u << (b % 32);
	c->ext.entry = 0;
	c->ext.rowmap_off = map_off;
	c->ext.skip_blocks = nblocks;
	c->ext.skip_off = nblocks > 0 ? skip_off : 0;
}

/*
 * side s (a JoinSide or a JgSide) as the device sees it from entries of
 * batches of 'batch' rows: skipped rows pass no qual
 */
template <class Side>
static Side
join_entry_visible(const Side &s, uint32_t batch)
{
	Side		v = s;

	for (uint32_t g = 0; g < s.size(); g++)
		if (join_entry_skipped(g % batch))
		{
			v.f[g] = -1;
			v.h[g] = 1;
		}
	return v;
}

/* a JOIN_FINISH_BUILD task in mem (bytes of at least join_finish_bytes()) */
static uint64_t
join_finish_bytes(void)
{
	return GX_ALIGN_UP(sizeof(gx_chunk)) + gx_result_bytes(0);
}

/* a task of kind without rows nor program on the table of js, in mem (bytes, zeroed) */
static gx_chunk *
join_table_task(void *mem, uint64_t bytes, int kind, const JoinSpec &js)
{
	gx_chunk   *c = (gx_chunk *) mem;

	memset(mem, 0, bytes);
	c->magic = GX_CHUNK_MAGIC;
	c->kind = kind;
	c->obj[0] = 1;
	c->ext.entry = -1;
	c->input_bytes = GX_ALIGN_UP(sizeof(gx_chunk));
	c->result_off = c->input_bytes;
	c->ext.join.nkeys = js.nkeys;
	c->ext.join.payload_out = -1;
	c->ext.join.cap = js.cap;
	c->ext.join.kcap = js.kcap;
	join_set_range(c, js);
	return c;
}

static gx_chunk *
join_finish_task(void *mem, const JoinSpec &js)
{
	return join_table_task(mem, join_finish_bytes(), GX_TASK_JOIN_FINISH_BUILD, js);
}

/*
 * runs a task in place (in its memory, capacity bytes) on a device, with
 * the cache entry 'entry' of entry_bytes (or none); false on failure
 */
typedef std::function<bool(gx_chunk *c, uint64_t capacity, const void *entry,
						   uint64_t entry_bytes)> JoinRunner;

/* bytes of a JOIN_UNMATCHED task of a range of n rows (its result area included) */
static uint64_t
join_unmatched_bytes(uint32_t n)
{
	return GX_ALIGN_UP(sizeof(gx_chunk)) + gx_join_unmatched_result_bytes(n, 0);
}

/* a JOIN_UNMATCHED task in mem (join_unmatched_bytes(n)): placed rows [lo, lo + n) */
static gx_chunk *
join_unmatched_task(void *mem, const JoinSpec &js, uint32_t lo, uint32_t n, int count_only)
{
	gx_chunk   *c = join_table_task(mem, join_unmatched_bytes(n), GX_TASK_JOIN_UNMATCHED, js);

	c->nrows = n;
	c->ext.count_only = count_only;
	c->ext.join.first_row = lo;
	return c;
}

/* what a join gave: entries (outer row of the side, flags, inner payload) and counts */
struct JoinOut
{
	std::vector<std::pair<uint32_t, int64_t>> pairs;	/* (outer row, payload) */
	std::vector<uint32_t> host;	/* outer rows flagged for the host */
	std::vector<int64_t> build_sel;	/* inner rows selected by BUILD (row numbers) */
	std::vector<int64_t> unmatched;	/* RIGHT / FULL: payloads of JOIN_UNMATCHED */
	uint64_t	ucount = 0;		/* ... the sum of its join_count */
	uint64_t	count = 0;		/* sum of join_count over the probe passes */
	uint64_t	table_rows = 0;	/* FINISH's join_count */
	int			passes = 0;
	bool		ok = true;		/* every task ran, no error, entries in order */
	bool		more_flags = true;	/* GX_RESULT_MORE exactly when nsel == max_pairs and rows remained */
};

/*
 * Build a table of the inner side in batches of ibatch rows, finish it,
 * and probe it with the outer side in batches of obatch rows, each batch
 * in passes of max_pairs entries; every task runs with 'run'
 */
static void
join_all(const JoinRunner &run, const JoinSide &inner, const JoinSide &outer, const JoinSpec &js,
		 uint32_t mode, int count_only, uint32_t max_pairs, uint32_t ibatch, uint32_t obatch,
		 JoinOut &o)
{
	for (uint32_t lo = 0; lo < inner.size() || lo == 0; lo += ibatch)
	{
		uint32_t	hi = std::min(inner.size(), lo + ibatch);
		ChunkBuilder b;
		gx_chunk   *c = join_side_task(b, GX_TASK_JOIN_BUILD, inner, js, lo, hi);
		std::vector<uint64_t> ent;

		if (js.entry)
			join_entry_task(c, ent);
		if (!run(c, b.capacity, js.entry ? ent.data() : nullptr, 8 * ent.size()) ||
			gx_chunk_result(c)->error != GX_NO_ERROR)
		{
			o.ok = false;
			return;
		}
		gx_result  *res = gx_chunk_result(c);

		for (uint32_t i = 0; i < res->nsel; i++)
			o.build_sel.push_back(lo + gx_result_sel(res)[i]);
		if (inner.size() == 0)
			break;
	}
	{
		std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
		gx_chunk   *c = join_finish_task(fm.data(), js);

		if (js.noruns && (count_only || mode == GX_JOIN_SEMI || mode == GX_JOIN_ANTI))
			c->ext.join.jflags = GX_JOIN_NO_RUNS;

		if (!run(c, join_finish_bytes(), nullptr, 0) || gx_chunk_result(c)->error != GX_NO_ERROR)
		{
			o.ok = false;
			return;
		}
		o.table_rows = gx_chunk_result(c)->join_count;
	}
	for (uint32_t lo = 0; lo < outer.size() || lo == 0; lo += obatch)
	{
		uint32_t	hi = std::min(outer.size(), lo + obatch);
		uint32_t	first_row = 0,
					first_match = 0;

		for (int pass = 0;; pass++)
		{
			ChunkBuilder b;
			gx_chunk   *c = join_side_task(b, GX_TASK_JOIN_PROBE, outer, js, lo, hi);
			std::vector<uint64_t> ent;

			c = join_grow_result(b, gx_join_probe_result_bytes(hi - lo, max_pairs, js.alg));
			c->ext.count_only = count_only;
			c->ext.join.mode = mode;
			c->ext.join.first_row = first_row;
			c->ext.join.first_match = first_match;
			c->ext.join.max_pairs = max_pairs;
			if (js.entry)
				join_entry_task(c, ent);
			if (pass > 1000000 ||
				!run(c, b.capacity, js.entry ? ent.data() : nullptr, 8 * ent.size()) ||
				gx_chunk_result(c)->error != GX_NO_ERROR)
			{
				o.ok = false;
				return;
			}
			gx_result  *res = gx_chunk_result(c);
			const gx_join_pair *p = (const gx_join_pair *) ((const char *) res +
															gx_join_pairs_off(hi - lo, js.alg));
			uint32_t	last = first_row;

			o.passes++;
			o.count += res->join_count;
			if (res->nsel > max_pairs)
			{
				o.ok = false;
				return;
			}
			for (uint32_t i = 0; i < res->nsel; i++)
			{
				if (p[i].outer < last || p[i].outer >= hi - lo)
					o.ok = false;	/* out of order, or not a row of the batch */
				last = p[i].outer;
				if (p[i].flags & GX_JOIN_PAIR_HOST)
					o.host.push_back(lo + p[i].outer);
				else if (p[i].flags & GX_JOIN_PAIR_NO_INNER)
				{
					if (p[i].inner != 0 || (mode != GX_JOIN_LEFT && mode != GX_JOIN_FULL))
						o.ok = false;
					o.pairs.push_back({lo + p[i].outer, -1});
				}
				else
					o.pairs.push_back({lo + p[i].outer, p[i].inner});
			}
			if (!(res->flags & GX_RESULT_MORE))
			{
				if (res->next_row != hi - lo)
					o.ok = false;
				break;
			}
			if (res->nsel != max_pairs || res->next_row < first_row || res->next_row >= hi - lo ||
				(res->next_row == first_row && res->next_match <= first_match && max_pairs > 0))
				o.more_flags = false;
			if (max_pairs == 0)
			{
				o.ok = false;	/* no pass can make progress */
				return;
			}
			first_row = res->next_row;
			first_match = res->next_match;
		}
		if (outer.size() == 0)
			break;
	}
	/* RIGHT / FULL: the unmatched placed rows, in ranges of about max_pairs rows */
	if (GX_JOIN_MODE_MARKS(mode))
	{
		uint32_t	range = std::max<uint32_t>(97, max_pairs);

		for (uint32_t lo = 0; lo < o.table_rows; lo += range)
		{
			uint32_t	n = std::min<uint32_t>(range, (uint32_t) o.table_rows - lo);
			std::vector<uint64_t> um(join_unmatched_bytes(n) / 8 + 1);
			gx_chunk   *c = join_unmatched_task(um.data(), js, lo, n, count_only);

			if (!run(c, join_unmatched_bytes(n), nullptr, 0) ||
				gx_chunk_result(c)->error != GX_NO_ERROR)
			{
				o.ok = false;
				return;
			}
			gx_result  *res = gx_chunk_result(c);
			const int64_t *pay = (const int64_t *) ((const char *) res + gx_join_unmatched_off());

			if (res->nsel > n || res->join_count > n ||
				res->nsel != (count_only ? 0 : res->join_count))
				o.ok = false;
			o.ucount += res->join_count;
			for (uint32_t i = 0; i < res->nsel && i < n; i++)
				o.unmatched.push_back(pay[i]);
		}
	}
	std::sort(o.pairs.begin(), o.pairs.end());
	std::sort(o.host.begin(), o.host.end());
	std::sort(o.build_sel.begin(), o.build_sel.end());
	std::sort(o.unmatched.begin(), o.unmatched.end());
}

/* the key of a row of a side, for the reference */
struct JoinKeyHash
{
	size_t		operator() (const std::pair<int64_t, int64_t> &k) const
	{
		return std::hash<int64_t>()(k.first * 1000003 ^ k.second);
	}
};

/*
 * The reference: inner rows that pass (not host rows, non-NULL keys, in
 * the table: not among 'excluded') in an unordered_multimap; the expected
 * entries and counts for the mode (LEFT / FULL: an outer row without a
 * match is (row, -1); RIGHT / FULL: the payloads of the table's rows no
 * outer row matched, and their count)
 */
static void
join_reference(const JoinSide &inner, const JoinSide &outer, const JoinSpec &js, uint32_t mode,
			   int count_only, const std::vector<int64_t> *excluded, JoinOut &w)
{
	std::unordered_multimap<std::pair<int64_t, int64_t>, int64_t, JoinKeyHash> h;
	std::vector<std::pair<int64_t, int64_t>> sorted;	/* range: (key, payload) */
	std::unordered_set<std::pair<int64_t, int64_t>, JoinKeyHash> matched;
	std::vector<uint8_t> skip(inner.size(), 0);
	const bool	range = js.alg == GX_JOIN_RANGE;
	const bool	pairs = GX_JOIN_MODE_PAIRS(mode);

	if (excluded)
		for (int64_t r : *excluded)
			skip[r] = 1;
	for (uint32_t r = 0; r < inner.size(); r++)
		if (inner.passes(r) && !inner.null_key(r, range ? 1 : js.nkeys) && !skip[r])
		{
			int64_t		pay = js.payload_out ? inner.pay[r] : (int64_t) r;

			if (range)
				sorted.push_back({inner.k1[r], pay});
			else
				h.insert({{inner.k1[r], js.nkeys > 1 ? inner.k2[r] : 0}, pay});
		}
	std::sort(sorted.begin(), sorted.end());
	for (uint32_t r = 0; r < outer.size(); r++)
	{
		if (js.host && outer.is_host(r))
		{
			w.host.push_back(r);
			continue;
		}
		if (!outer.passes(r))
			continue;
		size_t		n = 0;

		if (range)
		{
			bool		null = (js.lo != JOIN_BOUND_NONE && outer.n1[r]) ||
				(js.hi != JOIN_BOUND_NONE && outer.n2[r]);

			size_t		i = 0;

			/*
			 * every condition checked for each key from the first >= the
			 * lower bound to the first past the upper bound
			 */
			if (js.lo != JOIN_BOUND_NONE)
				i = std::lower_bound(sorted.begin(), sorted.end(),
									 std::pair<int64_t, int64_t>(outer.k1[r], INT64_MIN)) -
					sorted.begin();
			for (; i < sorted.size() && !null; i++)
			{
				int64_t		k = sorted[i].first;

				if (js.hi != JOIN_BOUND_NONE && k > outer.k2[r])
					break;

				if ((js.lo == JOIN_BOUND_INCL && k < outer.k1[r]) ||
					(js.lo == JOIN_BOUND_EXCL && k <= outer.k1[r]) ||
					(js.hi == JOIN_BOUND_INCL && k > outer.k2[r]) ||
					(js.hi == JOIN_BOUND_EXCL && k >= outer.k2[r]))
					continue;
				n++;
				if (mode == GX_JOIN_INNER && !count_only)
					w.pairs.push_back({r, sorted[i].second});
			}
		}
		else if (!outer.null_key(r, js.nkeys))
		{
			std::pair<int64_t, int64_t> key {outer.k1[r], js.nkeys > 1 ? outer.k2[r] : 0};
			auto		run = h.equal_range(key);

			for (auto it = run.first; it != run.second; ++it, n++)
				if (pairs && !count_only)
					w.pairs.push_back({r, it->second});
			if (n > 0)
				matched.insert(key);
		}
		size_t		m = mode == GX_JOIN_INNER || mode == GX_JOIN_RIGHT ? n :
			mode == GX_JOIN_LEFT || mode == GX_JOIN_FULL ? std::max<size_t>(n, 1) :
			mode == GX_JOIN_SEMI ? n > 0 : n == 0;

		w.count += m;
		if (!count_only && (mode == GX_JOIN_SEMI || mode == GX_JOIN_ANTI) && m)
			w.pairs.push_back({r, 0});
		if (!count_only && (mode == GX_JOIN_LEFT || mode == GX_JOIN_FULL) && n == 0)
			w.pairs.push_back({r, -1});
	}
	if (GX_JOIN_MODE_MARKS(mode))
		for (auto &e : h)
			if (!matched.count(e.first))
			{
				w.ucount++;
				if (!count_only)
					w.unmatched.push_back(e.second);
			}
	std::sort(w.pairs.begin(), w.pairs.end());
	std::sort(w.unmatched.begin(), w.unmatched.end());
}

/* the inner rows a table takes: passing, not for the host, non-NULL keys */
static uint32_t
join_inner_rows(const JoinSide &inner, const JoinSpec &js)
{
	uint32_t	n = 0;

	for (uint32_t r = 0; r < inner.size(); r++)
		n += inner.passes(r) && !inner.null_key(r, js.alg == GX_JOIN_RANGE ? 1 : js.nkeys);
	return n;
}

/* size a table for cap rows: kcap the power of 2 >= 2 cap (a range or merge table: none) */
static void
join_size(JoinSpec &js, uint32_t cap)
{
	js.cap = cap > 0 ? cap : 1;
	js.kcap = 2;
	while (js.kcap < 2 * js.cap)
		js.kcap *= 2;
	if (js.alg != GX_JOIN_HASH)
		js.kcap = 0;
}

/* run a join task on the CPU device with the table 'table' of tbytes */
static JoinRunner
cpu_join_runner(void *table, uint64_t tbytes)
{
	return [table, tbytes](gx_chunk *c, uint64_t capacity, const void *entry,
						   uint64_t entry_bytes) {
		gx_task_ctx ctx;
		char		err[256];

		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = (char *) table;
		ctx.obj_bytes[0] = tbytes;
		ctx.entry = (char *) entry;
		ctx.entry_bytes = entry_bytes;
		gx_status	st = gx_cpu_run(c, capacity, &ctx, err, sizeof(err));

		if (st != GX_OK)
			fprintf(stderr, "join task: %s\n", err);
		return st == GX_OK;
	};
}

/*
 * A table's replica (GX_TASK_OBJ_COPY, GpuJoin on several devices): an
 * OBJ_COPY task in mem (join_finish_bytes()) of the parts of the sealed
 * table of js that a probe reads (gx_join_probe_ranges; runs: the table
 * has runs), from obj[1] (the table) into obj[0] (the replica)
 */
static gx_chunk *
join_copy_task(void *mem, const JoinSpec &js, int runs)
{
	gx_chunk   *c = join_table_task(mem, join_finish_bytes(), GX_TASK_OBJ_COPY, js);

	c->obj[1] = 2;
	c->ext.copy.nranges = gx_join_probe_ranges(&c->ext.join, runs, c->ext.copy.range);
	return c;
}

/* runs an OBJ_COPY task (join_copy_task) from a table into its replica; false on failure */
typedef std::function<bool(gx_chunk *c)> JoinCopier;

/*
 * join_all's tasks with a replica: BUILD and FINISH run on the table
 * (build), then the probe parts are copied into a zeroed replica (copy),
 * and every later task (PROBE) runs on the replica (probe)
 */
static JoinRunner
replica_join_runner(const JoinRunner &build, const JoinRunner &probe, const JoinSpec &js,
					const JoinCopier &copy)
{
	return [=](gx_chunk *c, uint64_t capacity, const void *entry, uint64_t entry_bytes) {
		if (c->kind == GX_TASK_JOIN_BUILD)
			return build(c, capacity, entry, entry_bytes);
		if (c->kind != GX_TASK_JOIN_FINISH_BUILD)
			return probe(c, capacity, entry, entry_bytes);
		if (!build(c, capacity, entry, entry_bytes))
			return false;

		std::vector<uint64_t> m(join_finish_bytes() / 8 + 1);
		gx_chunk   *k = join_copy_task(m.data(), js, (c->ext.join.jflags & GX_JOIN_NO_RUNS) == 0);

		return copy(k) && gx_chunk_result(k)->error == GX_NO_ERROR;
	};
}

/*
 * join_all on the CPU device with a replica: the table built and finished
 * in one object, its probe parts copied (OBJ_COPY) into a zeroed second
 * one, every probe run there
 */
static void
join_all_cpu_replica(const JoinSide &inner, const JoinSide &outer, const JoinSpec &js,
					 uint32_t mode, int count_only, uint32_t max_pairs, uint32_t ibatch,
					 uint32_t obatch, JoinOut &o)
{
	uint64_t	tbytes = join_table_bytes(js);
	void	   *table = nullptr,
			   *replica = nullptr;
	char		err[256];

	if (gx_mem_alloc(GX_DEV_CPU, tbytes, &table, err, sizeof(err)) != GX_OK ||
		gx_mem_alloc(GX_DEV_CPU, tbytes, &replica, err, sizeof(err)) != GX_OK)
	{
		fprintf(stderr, "replica tables: %s\n", err);
		o.ok = false;
		return;
	}

	JoinCopier	copy = [&](gx_chunk *k) {
		gx_task_ctx ctx;

		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = (char *) replica;
		ctx.obj[1] = (char *) table;
		ctx.obj_bytes[0] = ctx.obj_bytes[1] = tbytes;
		return gx_cpu_run(k, join_finish_bytes(), &ctx, err, sizeof(err)) == GX_OK;
	};

	join_all(replica_join_runner(cpu_join_runner(table, tbytes), cpu_join_runner(replica, tbytes),
								 js, copy),
			 inner, outer, js, mode, count_only, max_pairs, ibatch, obatch, o);
	gx_mem_free(GX_DEV_CPU, table);
	gx_mem_free(GX_DEV_CPU, replica);
}

/*
 * join_all's tasks over a table partitioned into runs.size() parts (a
 * GpuJoin's table over several devices, join_devparts.cpp): each BUILD,
 * FINISH and PROBE runs once a part from the same task image, on that
 * part's table (runs[p]), a BUILD or PROBE with part_d = p of part_n;
 * their join_counts add up and a FULL flag of any part is the task's.
 * For count-only probes of sides without host rows (a part's probe
 * writes its own pairs; every part would select a host row)
 */
static JoinRunner
parts_join_runner(const std::vector<JoinRunner> &runs)
{
	return [runs](gx_chunk *c, uint64_t capacity, const void *entry, uint64_t entry_bytes) {
		std::vector<char> image((const char *) c, (const char *) c + capacity);
		uint64_t	count = 0;
		uint32_t	full = 0;
		uint32_t	n = (uint32_t) runs.size();

		for (uint32_t p = 0; p < n; p++)
		{
			memcpy((void *) c, image.data(), capacity);
			if (c->kind == GX_TASK_JOIN_BUILD || c->kind == GX_TASK_JOIN_PROBE)
			{
				c->ext.join.part_n = (uint16_t) n;
				c->ext.join.part_d = (uint16_t) p;
			}
			if (!runs[p](c, capacity, entry, entry_bytes))
				return false;

			gx_result  *res = gx_chunk_result(c);

			if (res->error != GX_NO_ERROR)
				return true;	/* (the caller sees the error) */
			if (res->nsel != 0 && c->kind == GX_TASK_JOIN_BUILD)
				return false;	/* (no host rows here) */
			count += res->join_count;
			full |= res->flags & GX_RESULT_FULL;
		}
		gx_chunk_result(c)->join_count = count;
		gx_chunk_result(c)->flags |= full;
		return true;
	};
}

/* join_all on the CPU device over a table in nparts parts (parts_join_runner), count-only */
static void
join_all_cpu_parts(const JoinSide &inner, const JoinSide &outer, const JoinSpec &js,
				   uint32_t mode, uint32_t nparts, uint32_t ibatch, uint32_t obatch, JoinOut &o)
{
	uint64_t	tbytes = join_table_bytes(js);
	std::vector<void *> tables(nparts, nullptr);
	std::vector<JoinRunner> runs;
	char		err[256];

	for (uint32_t p = 0; p < nparts; p++)
	{
		if (gx_mem_alloc(GX_DEV_CPU, tbytes, &tables[p], err, sizeof(err)) != GX_OK)
		{
			fprintf(stderr, "part tables: %s\n", err);
			o.ok = false;
			return;
		}
		runs.push_back(cpu_join_runner(tables[p], tbytes));
	}
	join_all(parts_join_runner(runs), inner, outer, js, mode, 1, 1u << 20, ibatch, obatch, o);
	for (void *t : tables)
		gx_mem_free(GX_DEV_CPU, t);
}

/* the modes a replica is probed in: those whose probes only read the table */
static bool
join_replica_mode(uint32_t mode, const JoinSpec &js)
{
	return !GX_JOIN_MODE_MARKS(mode) && !(js.alg == GX_JOIN_RANGE && mode > GX_JOIN_ANTI);
}

/*
 * A join case: its name, the sides, the options, the batch sizes of the
 * inner and outer side, the result area sizes (entries) to run with, and
 * the table's rows (0: every inner row)
 */
typedef std::function<void(const char *what, const JoinSide &inner, const JoinSide &outer,
						   const JoinSpec &js, uint32_t ibatch, uint32_t obatch,
						   const std::vector<uint32_t> &max_pairs, uint32_t cap_rows)> JoinCaseFn;

/*
 * The join cases of both unit tests (sizes times scale): random int4 keys
 * with NULLs, filters and host rows (also with a payload output, and a
 * full table), 90% one key, two int8 keys, empty sides, all-match,
 * no-match; result areas down to one entry
 */
static void
join_cases(std::mt19937_64 &rng, uint32_t scale, const JoinCaseFn &fn)
{
	{
		JoinSide	in,
					out;
		JoinSpec	js;

		js.host = true;
		for (uint32_t r = 0; r < 5000 * scale; r++)
			in.add((int64_t) (rng() % (500 * scale)), rng() % 20 == 0, 0, false,
				   rng() % 10 != 0, rng() % 50 == 0);
		for (uint32_t r = 0; r < 7000 * scale; r++)
			out.add((int64_t) (rng() % (700 * scale)) - 50, rng() % 20 == 0, 0, false,
					rng() % 10 != 0, rng() % 100 == 0);
		fn("random int4", in, out, js, 1500 * scale, 2000 * scale,
		   {1u << 20, 997 * scale, scale == 1 ? 1u : 101u}, 0);
		js.payload_out = true;
		fn("random int4, payload output", in, out, js, 5000 * scale, 7000 * scale, {64 * scale},
		   0);
		fn("random int4, full table", in, out, js, 700 * scale, 3000 * scale,
		   {1u << 20, 333 * scale}, 1000 * scale);
		js.payload_out = false;
		js.entry = true;
		fn("random int4, cache entries with stale blocks", in, out, js, 1500 * scale,
		   2000 * scale, {1u << 20, 101u}, 0);
		js.entry = false;
		js.noruns = true;
		fn("random int4, tables without runs for counts", in, out, js, 1500 * scale,
		   2000 * scale, {1u << 20, 101u}, 0);
	}
	{
		JoinSide	in,
					out;
		JoinSpec	js;

		/* 90% one key on both sides: 2.4M pairs, passes end inside a row */
		in.ktype = out.ktype = GX_INT8;
		for (int r = 0; r < 2000; r++)
			in.add(rng() % 10 != 0 ? 7 : (int64_t) (rng() % 100000), false, 0, false, true);
		for (int r = 0; r < 1500; r++)
			out.add(rng() % 10 != 0 ? 7 : (int64_t) (rng() % 100000), rng() % 50 == 0, 0, false,
					true);
		fn("skewed int8", in, out, js, 512, 1500, {1u << 20, 100003}, 0);
	}
	{
		JoinSide	in,
					out;
		JoinSpec	js;

		js.nkeys = 2;
		in.ktype = out.ktype = GX_INT8;
		for (uint32_t r = 0; r < 4000 * scale; r++)
			in.add((int64_t) (rng() % 30) - 15, rng() % 30 == 0, (int64_t) (rng() % (40 * scale)),
				   rng() % 30 == 0, rng() % 5 != 0);
		for (uint32_t r = 0; r < 4000 * scale; r++)
			out.add((int64_t) (rng() % 30) - 15, rng() % 30 == 0, (int64_t) (rng() % (40 * scale)),
					rng() % 30 == 0, rng() % 5 != 0);
		fn("two int8 keys", in, out, js, 4000 * scale, 1024 * scale, {1u << 20, 4096, 7 * scale}, 0);
	}
	{
		JoinSide	in,
					out,
					none;
		JoinSpec	js;

		for (int r = 0; r < 3000; r++)
			out.add((int64_t) (rng() % 100), rng() % 10 == 0, 0, false, true);
		for (int r = 0; r < 300; r++)
			in.add((int64_t) (rng() % 100), false, 0, false, true);
		fn("empty inner", none, out, js, 1000, 1000, {1u << 20, 10}, 0);
		fn("empty outer", in, none, js, 1000, 1000, {1u << 20, 10}, 0);
	}
	{
		JoinSide	in,
					out,
					far;
		JoinSpec	js;

		for (int r = 0; r < 300; r++)
			in.add(1, false, 0, false, true);
		for (uint32_t r = 0; r < 200 * scale; r++)
			out.add(1, false, 0, false, true);
		fn("all match", in, out, js, 300, 200 * scale, {1u << 20, 1000, 299}, 0);
		for (int r = 0; r < 3000; r++)
			far.add(1000 + (int64_t) (rng() % 1000), false, 0, false, true);
		fn("no match", in, far, js, 300, 3000, {1u << 20, 5}, 0);
	}
}

/*
 * The merge join's cases (gx_jmerge.cuh) of both unit tests (sizes times
 * scale): every hash join case (join_cases) as a merge join (but the
 * tables without runs: a merge table has its runs), then keys at both ends of the int8 range (the
 * largest key is what a row without a key sorts as) on one and two keys,
 * and outer batches far smaller than the table
 */
static void
join_merge_cases(std::mt19937_64 &rng, uint32_t scale, const JoinCaseFn &fn)
{
	join_cases(rng, scale, [&](const char *what, const JoinSide &in, const JoinSide &out,
							   const JoinSpec &js, uint32_t ib, uint32_t ob,
							   const std::vector<uint32_t> &maxp, uint32_t cap_rows) {
		JoinSpec	m = js;
		std::string name = std::string("merge ") + what;

		if (js.noruns)
			return;				/* (a merge table always has its runs) */
		m.alg = GX_JOIN_MERGE;
		m.noruns = false;
		fn(name.c_str(), in, out, m, ib, ob, maxp, cap_rows);
	});
	for (int nkeys = 1; nkeys <= 2; nkeys++)
	{
		JoinSide	in,
					out;
		JoinSpec	js;
		const int64_t ends[4] = {INT64_MIN, INT64_MIN + 1, INT64_MAX - 1, INT64_MAX};

		js.alg = GX_JOIN_MERGE;
		js.nkeys = nkeys;
		js.host = true;
		in.ktype = out.ktype = GX_INT8;
		for (uint32_t r = 0; r < 2000 * scale; r++)
			in.add(rng() % 4 == 0 ? ends[rng() % 4] : (int64_t) (rng() % 300) - 150,
				   rng() % 25 == 0, rng() % 3 == 0 ? INT64_MAX : (int64_t) (rng() % 3),
				   rng() % 40 == 0, rng() % 8 != 0, rng() % 60 == 0);
		for (uint32_t r = 0; r < 3000 * scale; r++)
			out.add(rng() % 4 == 0 ? ends[rng() % 4] : (int64_t) (rng() % 400) - 200,
					rng() % 25 == 0, rng() % 3 == 0 ? INT64_MAX : (int64_t) (rng() % 3),
					rng() % 40 == 0, rng() % 8 != 0, rng() % 60 == 0);
		fn(nkeys == 1 ? "merge int8 keys at the ends" : "merge two int8 keys at the ends", in,
		   out, js, 700 * scale, 1000 * scale, {1u << 20, 333 * scale}, 0);
		/* (small result areas only at scale 1: every pass sorts its batch again) */
		fn(nkeys == 1 ? "merge int8 keys at the ends, small batches" :
		   "merge two int8 keys at the ends, small batches", in, out, js, 2000 * scale, 37,
		   {1u << 20, 5 * scale * scale}, 0);
	}
}

/*
 * The range join's cases (gx_jrange.cuh) of both unit tests (sizes times
 * scale): bands of width 0, 1 and 10 with NULL bounds and keys, filters
 * and host rows, inclusive and exclusive bounds, a payload output, a full
 * table, one-sided inequalities (most pairs match: passes), inverted
 * bands, 90% one key with int8 keys at the ends of the range, empty sides
 */
static void
join_range_cases(std::mt19937_64 &rng, uint32_t scale, const JoinCaseFn &fn)
{
	{
		JoinSide	in,
					out;
		JoinSpec	js = join_range_spec(JOIN_BOUND_INCL, JOIN_BOUND_INCL);
		const int64_t widths[3] = {0, 1, 10};

		js.host = true;
		for (uint32_t r = 0; r < 3000 * scale; r++)
			in.add((int64_t) (rng() % (600 * scale)), rng() % 20 == 0, 0, false,
				   rng() % 10 != 0, rng() % 50 == 0);
		for (uint32_t r = 0; r < 4000 * scale; r++)
		{
			int64_t		x = (int64_t) (rng() % (700 * scale)) - 50;

			out.add(x, rng() % 20 == 0, x + widths[rng() % 3], rng() % 20 == 0, rng() % 10 != 0,
					rng() % 100 == 0);
		}
		fn("range band", in, out, js, 1000 * scale, 1500 * scale,
		   {1u << 20, 997 * scale, scale == 1 ? 1u : 101u}, 0);
		js = join_range_spec(JOIN_BOUND_EXCL, JOIN_BOUND_EXCL);
		js.host = true;
		fn("range band, exclusive", in, out, js, 3000 * scale, 4000 * scale, {1u << 20, 50}, 0);
		js = join_range_spec(JOIN_BOUND_INCL, JOIN_BOUND_EXCL);
		js.host = true;
		js.payload_out = true;
		fn("range band, payload output", in, out, js, 700 * scale, 4000 * scale, {64 * scale}, 0);
		fn("range band, full table", in, out, js, 700 * scale, 3000 * scale,
		   {1u << 20, 333 * scale}, 1000 * scale);
	}
	{
		JoinSide	in,
					out,
					inv,
					none;

		for (uint32_t r = 0; r < 500 * scale; r++)
			in.add((int64_t) (rng() % 1000), rng() % 25 == 0, 0, false, true);
		for (uint32_t r = 0; r < 400; r++)
		{
			int64_t		x = (int64_t) (rng() % 1100) - 50;

			out.add(x, rng() % 25 == 0, x, rng() % 25 == 0, true);
			inv.add(x, false, x - 5, false, true);
		}
		fn("range key >= outer", in, out, join_range_spec(JOIN_BOUND_INCL, JOIN_BOUND_NONE),
		   500 * scale, 400, {1u << 20, 4099}, 0);
		fn("range key < outer", in, out, join_range_spec(JOIN_BOUND_NONE, JOIN_BOUND_EXCL),
		   500 * scale, 100, {1u << 20, 777}, 0);
		fn("range key > outer", in, out, join_range_spec(JOIN_BOUND_EXCL, JOIN_BOUND_NONE),
		   128, 400, {1u << 20}, 0);
		fn("range inverted band", in, inv, join_range_spec(JOIN_BOUND_INCL, JOIN_BOUND_INCL),
		   500 * scale, 400, {1u << 20, 10}, 0);
		fn("range empty inner", none, out, join_range_spec(JOIN_BOUND_INCL, JOIN_BOUND_INCL),
		   1000, 1000, {1u << 20, 10}, 0);
		fn("range empty outer", in, none, join_range_spec(JOIN_BOUND_INCL, JOIN_BOUND_INCL),
		   1000, 1000, {1u << 20, 10}, 0);
	}
	{
		JoinSide	in,
					out;
		const int64_t ends[4] = {INT64_MIN, INT64_MIN + 1, INT64_MAX - 1, INT64_MAX};

		/* 90% one key; int8 keys at both ends of the range */
		in.ktype = out.ktype = GX_INT8;
		for (int r = 0; r < 2000; r++)
			in.add(rng() % 10 != 0 ? 7 : rng() % 3 == 0 ? ends[rng() % 4] :
				   (int64_t) (rng() % 100000) - 50000, false, 0, false, true);
		for (int r = 0; r < 1500; r++)
		{
			int64_t		x = rng() % 10 != 0 ? 7 : rng() % 3 == 0 ? ends[rng() % 4] :
				(int64_t) (rng() % 100000) - 50000;

			out.add(x, rng() % 50 == 0, x >= INT64_MAX - 2 ? x : x + (int64_t) (rng() % 3), false,
					true);
		}
		fn("range skewed int8", in, out, join_range_spec(JOIN_BOUND_INCL, JOIN_BOUND_INCL), 512,
		   1500, {1u << 20, 100003}, 0);
		fn("range skewed int8, exclusive", in, out,
		   join_range_spec(JOIN_BOUND_EXCL, JOIN_BOUND_EXCL), 2000, 700, {1u << 20}, 0);
	}
}

/*
 * Group mode for task c: the table obj[0] of cap slots (limit cap / 2), one
 * key (output 0), nagg aggregates (the caller fills ext.agg); returns c
 */
static gx_chunk *
group_task_table(gx_chunk *c, uint32_t cap, uint32_t nagg)
{
	c->obj[0] = 1;
	c->ext.entry = -1;
	c->ext.ngroup_cap = cap;
	c->ext.ngroup_limit = cap / 2;
	c->ext.ngkeys = 1;
	c->ext.gkey_col[0] = 0;
	c->ext.nagg = nagg;
	return c;
}

/*
 * A group-mode task over columns already added to b: every row passes, key
 * column kc (int8) is output 0 and each of cols ({column, type}) the next
 * output; the table obj[0] of cap slots (limit cap / 2), one key, nagg
 * aggregates (the caller fills ext.agg).
 */
static gx_chunk *
build_group_out_task(ChunkBuilder &b, int kc, const std::vector<std::pair<int, int>> &cols,
					 uint32_t cap, uint32_t nagg)
{
	b.emit(GX_OP_SETBOOL, GX_BOOL, 0, 0, 0, 1);
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
	b.emit(GX_OP_LDCOL, GX_INT8, 1, 0, 0, kc);
	b.emit(GX_OP_OUT, GX_INT8, 0, 1, 0, 0);
	for (size_t i = 0; i < cols.size(); i++)
	{
		b.emit(GX_OP_LDCOL, cols[i].second, 2 + (int) i, 0, 0, cols[i].first);
		b.emit(GX_OP_OUT, cols[i].second, 0, 2 + (int) i, 0, 1 + (int) i);
	}

	return group_task_table(b.build(), cap, nagg);
}

/* the reference sums of one group of build_exact_var_task */
struct ExactVarRef
{
	int64_t		nx = 0,
				ny = 0;
	__int128	sx = 0,
				sx2 = 0,
				sy = 0,
				sy2 = 0;
};

/*
 * A group-mode task of exact stddev / variance over integers (a table of
 * cap slots as obj[0]): n rows, key int8 (groups), x int4 (NULLs, its
 * extremes) and y int8 (NULLs, values whose square is past int64, and
 * the largest whose is not); outputs key (0), x (1), x * x (2: a numeric,
 * cast then MUL, as the planner's gx_square_expr), y (3), y * y (4);
 * aggregates SUM128 + HI of x, x * x, y * y and y.  *host: the rows whose
 * y * y overflows (host rows); *want: each group's sums over the others.
 */
static gx_chunk *
build_exact_var_task(ChunkBuilder &b, std::mt19937_64 &rng, uint32_t n, uint32_t groups,
					 uint32_t cap, std::vector<uint32_t> *host,
					 std::map<int64_t, ExactVarRef> *want)
{
	const int64_t root = 3037000499ll;	/* the largest |y| whose square fits */
	std::vector<int64_t> k(n),
				x(n),
				y(n);
	std::vector<uint8_t> xn(n),
				yn(n);

	for (uint32_t r = 0; r < n; r++)
	{
		k[r] = (int64_t) (rng() % groups);
		xn[r] = rng() % 10 == 0;
		x[r] = rng() % 20 == 0 ? (rng() % 2 ? INT32_MAX : INT32_MIN) :
			(int64_t) (rng() % 2000001) - 1000000;
		yn[r] = rng() % 9 == 0;
		switch (rng() % 4)
		{
			case 0:
				y[r] = (rng() % 2 ? 1 : -1) * (root + 1 + (int64_t) (rng() % 1000000000000ll));
				break;
			case 1:
				y[r] = (rng() % 2 ? root : -root) - (int64_t) (rng() % 3);
				break;
			default:
				y[r] = (int64_t) (rng() % 2000001) - 1000000;
		}
		if (!yn[r] && (y[r] > root || y[r] < -root))
		{
			host->push_back(r);
			continue;
		}
		ExactVarRef &w = (*want)[k[r]];

		if (!xn[r])
		{
			w.nx++;
			w.sx += x[r];
			w.sx2 += (__int128) x[r] * x[r];
		}
		if (!yn[r])
		{
			w.ny++;
			w.sy += y[r];
			w.sy2 += (__int128) y[r] * y[r];
		}
	}
	int			kc = b.add_int_col(GX_INT8, k);
	int			xc = b.add_int_col(GX_INT4, x, xn);
	int			yc = b.add_int_col(GX_INT8, y, yn);

	b.emit(GX_OP_SETBOOL, GX_BOOL, 0, 0, 0, 1);
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
	b.emit(GX_OP_LDCOL, GX_INT8, 1, 0, 0, kc);
	b.emit(GX_OP_OUT, GX_INT8, 0, 1, 0, 0);
	b.emit(GX_OP_LDCOL, GX_INT4, 2, 0, 0, xc);
	b.emit(GX_OP_OUT, GX_INT4, 0, 2, 0, 1);
	b.emit(GX_OP_CAST, GX_NUMERIC, 2, 2, 2, GX_INT4);
	b.emit(GX_OP_MUL, GX_NUMERIC, 2, 2, 2, 0);
	b.emit(GX_OP_OUT, GX_NUMERIC, 0, 2, 0, 2);
	b.emit(GX_OP_LDCOL, GX_INT8, 3, 0, 0, yc);
	b.emit(GX_OP_OUT, GX_INT8, 0, 3, 0, 3);
	b.emit(GX_OP_CAST, GX_NUMERIC, 3, 3, 3, GX_INT8);
	b.emit(GX_OP_MUL, GX_NUMERIC, 3, 3, 3, 0);
	b.emit(GX_OP_OUT, GX_NUMERIC, 0, 3, 0, 4);

	gx_chunk   *c = group_task_table(b.build(), cap, 8);

	for (int a = 0; a < 4; a++)
	{
		const int16_t col = (int16_t) (a == 0 ? 1 : a == 1 ? 2 : a == 2 ? 4 : 3);

		c->ext.agg[2 * a] = gx_agg {GX_AGG_SUM128, col, 0, 0};
		c->ext.agg[2 * a + 1] = gx_agg {GX_AGG_HI, col, 0, 0};
	}
	return c;
}

/* ---------------------------------------------------------------------- */
/* batched lookups (SEARCH, gx_search.cuh)                                 */
/* ---------------------------------------------------------------------- */

/*
 * A search case: the projection's keys in arrival order (key i has
 * position i), and its probes: a key (or lower bound) and an upper bound
 * each, with NULL flags
 */
struct SearchCase
{
	std::string what;
	int			ktype = GX_INT8;	/* the probe columns' type */
	std::vector<int64_t> keys;
	std::vector<int64_t> lo,
				hi;
	std::vector<uint8_t> lo_null,
				hi_null;
};

/* the algorithms a search runs with: (alg, lanes) */
static const uint32_t search_algs[][2] = {
	{GX_SEARCH_BINARY, 1}, {GX_SEARCH_BINARY, 0}, {GX_SEARCH_PARY, 2}, {GX_SEARCH_PARY, 4},
	{GX_SEARCH_PARY, 8}, {GX_SEARCH_PARY, 16}, {GX_SEARCH_PARY, 32},
};
#define SEARCH_NALGS (sizeof(search_algs) / sizeof(search_algs[0]))

/* the geometry of the projection of a case: its rows, at least 1 */
static uint32_t
search_cap(const SearchCase &sc)
{
	return sc.keys.empty() ? 1 : (uint32_t) sc.keys.size();
}

/* the JOIN_BUILD / FINISH options of a projection of cap rows (a range join's table) */
static JoinSpec
search_spec(uint32_t cap)
{
	JoinSpec	js = join_range_spec(JOIN_BOUND_INCL, JOIN_BOUND_INCL);

	js.cap = cap;
	js.kcap = 0;
	return js;
}

/*
 * Build the projection of keys (cap rows) with 'run' (bound to its table
 * object): JOIN_BUILD tasks of batch rows whose program outputs the key
 * and whose payload is the position (row_base + row), then FINISH; false
 * when a task fails or does not take every row
 */
static bool
search_build(const JoinRunner &run, const std::vector<int64_t> &keys, uint32_t cap,
			 uint32_t batch)
{
	JoinSpec	js = search_spec(cap);
	bool		ok = true;

	for (uint32_t lo = 0; lo < keys.size() && ok; lo += batch)
	{
		uint32_t	hi = std::min((uint32_t) keys.size(), lo + batch);
		ChunkBuilder b;

		b.add_int_col(GX_INT8, std::vector<int64_t>(keys.begin() + lo, keys.begin() + hi));
		b.emit(GX_OP_LDCOL, GX_INT8, 0, 0, 0, 0);
		b.emit(GX_OP_OUT, GX_INT8, 0, 0, 0, 0);
		gx_chunk   *c = b.build();

		c->kind = GX_TASK_JOIN_BUILD;
		c->obj[0] = 1;
		c->ext.entry = -1;
		c->ext.join.nkeys = 1;
		c->ext.join.key_out[0] = 0;
		c->ext.join.payload_out = -1;
		c->ext.join.cap = js.cap;
		c->ext.join.row_base = lo;
		join_set_range(c, js);
		ok = run(c, b.capacity, nullptr, 0) && gx_chunk_result(c)->error == GX_NO_ERROR &&
			gx_chunk_result(c)->nsel == 0;
	}
	std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
	gx_chunk   *fin = join_finish_task(fm.data(), js);

	return ok && run(fin, join_finish_bytes(), nullptr, 0) &&
		gx_chunk_result(fin)->error == GX_NO_ERROR &&
		gx_chunk_result(fin)->join_count == keys.size();
}

/*
 * Is the sealed projection of keys (its skey / run arrays, cap rows) the
 * keys sorted, each with its position?
 */
static bool
search_projection_ok(const int64_t *skey, const int64_t *run, const std::vector<int64_t> &keys)
{
	std::vector<std::pair<int64_t, int64_t>> want,
				got;

	for (size_t i = 0; i < keys.size(); i++)
	{
		want.push_back({keys[i], (int64_t) i});
		got.push_back({skey[i], run[i]});
	}
	for (size_t i = 1; i < keys.size(); i++)
		if (skey[i - 1] > skey[i])
			return false;
	std::sort(want.begin(), want.end());
	std::sort(got.begin(), got.end());
	return want == got;
}

/*
 * A SEARCH task in b over probes [lo, hi) of case sc (columns of its
 * ktype), operation op with bound flags, algorithm alg with lanes, on
 * a projection of cap rows
 */
static gx_chunk *
search_task(ChunkBuilder &b, const SearchCase &sc, uint32_t lo, uint32_t hi, uint32_t op,
			uint32_t bflags, uint32_t alg, uint32_t lanes, uint32_t cap)
{
	const int	ktype = sc.ktype;

	auto		sl = [&](const std::vector<int64_t> &v) {
		return std::vector<int64_t>(v.begin() + lo, v.begin() + hi);
	};
	auto		sn = [&](const std::vector<uint8_t> &v) {
		return std::vector<uint8_t>(v.begin() + lo, v.begin() + hi);
	};

	b.add_int_col(ktype, sl(sc.lo), sn(sc.lo_null));
	if (op == GX_SEARCH_RANGE)
		b.add_int_col(ktype, sl(sc.hi), sn(sc.hi_null));
	b.nrows = hi - lo;
	b.build();

	gx_chunk   *c = join_grow_result(b, gx_search_result_bytes(hi - lo));

	c->kind = GX_TASK_SEARCH;
	c->obj[0] = 1;
	c->ext.entry = -1;
	c->ext.search.op = op;
	c->ext.search.bflags = bflags;
	c->ext.search.alg = alg;
	c->ext.search.lanes = lanes;
	c->ext.search.cap = cap;
	return c;
}

/*
 * The runs of probes [lo, hi) of sc in the sorted keys (std::lower_bound /
 * upper_bound), and the sum of their counts
 */
static std::vector<gx_search_run>
search_reference(const std::vector<int64_t> &sorted, const SearchCase &sc, uint32_t lo,
				 uint32_t hi, uint32_t op, uint32_t bflags, uint64_t *sum)
{
	std::vector<gx_search_run> want;

	*sum = 0;
	for (uint32_t r = lo; r < hi; r++)
	{
		gx_search_run w = {0, 0};

		if (!sc.lo_null[r] && !(op == GX_SEARCH_RANGE && sc.hi_null[r]))
		{
			bool		li = op == GX_SEARCH_EQ || (bflags & GX_JOIN_LO_INCL);
			bool		hinc = op == GX_SEARCH_EQ || (bflags & GX_JOIN_HI_INCL);
			int64_t		hv = op == GX_SEARCH_EQ ? sc.lo[r] : sc.hi[r];
			auto		a = li ? std::lower_bound(sorted.begin(), sorted.end(), sc.lo[r]) :
				std::upper_bound(sorted.begin(), sorted.end(), sc.lo[r]);
			auto		e = hinc ? std::upper_bound(sorted.begin(), sorted.end(), hv) :
				std::lower_bound(sorted.begin(), sorted.end(), hv);

			w.start = (uint32_t) (a - sorted.begin());
			w.count = e > a ? (uint32_t) (e - a) : 0;
		}
		*sum += w.count;
		want.push_back(w);
	}
	return want;
}

/* do a task's runs (its result area) equal want? */
static bool
search_runs_equal(gx_chunk *c, const std::vector<gx_search_run> &want)
{
	const gx_search_run *got = (const gx_search_run *) ((char *) gx_chunk_result(c) +
														gx_search_runs_off());

	for (size_t i = 0; i < want.size(); i++)
		if (got[i].start != want[i].start || got[i].count != want[i].count)
			return false;
	return true;
}

/* a + d, saturated to int64 */
static int64_t
search_add_sat(int64_t a, int64_t d)
{
	if (d > 0 && a > std::numeric_limits<int64_t>::max() - d)
		return std::numeric_limits<int64_t>::max();
	if (d < 0 && a < std::numeric_limits<int64_t>::min() - d)
		return std::numeric_limits<int64_t>::min();
	return a + d;
}

/*
 * Probes for keys: n of them, keys present, absent, below the first and
 * above the last, INT64_MIN / INT64_MAX, about 5% NULL; each upper bound
 * its key plus a span (empty, inverted, short, wide, unbounded)
 */
static void
search_probes(std::mt19937_64 &rng, SearchCase &sc, uint32_t n)
{
	const int64_t I8MIN = std::numeric_limits<int64_t>::min();
	const int64_t I8MAX = std::numeric_limits<int64_t>::max();
	int64_t		kmin = sc.keys.empty() ? 0 : *std::min_element(sc.keys.begin(), sc.keys.end());
	int64_t		kmax = sc.keys.empty() ? 0 : *std::max_element(sc.keys.begin(), sc.keys.end());

	for (uint32_t i = 0; i < n; i++)
	{
		int64_t		v,
					h;

		switch (rng() % 8)
		{
			case 0:
			case 1:
			case 2:
				v = sc.keys.empty() ? (int64_t) (rng() % 100) : sc.keys[rng() % sc.keys.size()];
				break;
			case 3:
				v = search_add_sat(kmin, -(int64_t) (rng() % 3));
				break;
			case 4:
				v = search_add_sat(kmax, (int64_t) (rng() % 3));
				break;
			case 5:
				v = rng() % 2 ? I8MIN : I8MAX;
				break;
			default:
				v = kmin + (int64_t) ((uint64_t) (rng() % 1000) *
									  ((uint64_t) kmax - (uint64_t) kmin) / 1000);
				v = search_add_sat(v, (int64_t) (rng() % 5) - 2);
				break;
		}
		switch (rng() % 6)
		{
			case 0:
				h = v;
				break;
			case 1:
				h = search_add_sat(v, -(int64_t) (rng() % 100) - 1);
				break;
			case 2:
				h = search_add_sat(v, (int64_t) (rng() % 10));
				break;
			case 3:
				h = I8MAX;
				break;
			default:
				h = search_add_sat(v, (int64_t) (rng() % 1000000));
				break;
		}
		sc.lo.push_back(v);
		sc.hi.push_back(h);
		sc.lo_null.push_back(rng() % 20 == 0);
		sc.hi_null.push_back(rng() % 20 == 0);
	}
	/* the whole range, and the extremes as keys */
	for (int64_t v : {I8MIN, I8MAX})
	{
		sc.lo.push_back(v);
		sc.hi.push_back(I8MAX);
		sc.lo_null.push_back(0);
		sc.hi_null.push_back(0);
	}
}

/*
 * a SEARCH task (in its memory of capacity bytes) of operation op with
 * bound flags, algorithm a[0] with a[1] lanes, and its reference runs
 * and count
 */
typedef std::function<void(gx_chunk *c, uint64_t capacity, uint32_t op, uint32_t bflags,
						   const uint32_t *a, const std::vector<gx_search_run> &want,
						   uint64_t sum)> SearchTaskFn;

/*
 * Every operation (equality; ranges with every bound flag) and every
 * algorithm and p over all the probes of sc, on a projection of cap rows:
 * a task each, given to fn with its reference; the tasks' number
 */
static int
search_each_task(const SearchCase &sc, uint32_t cap, const SearchTaskFn &fn)
{
	std::vector<int64_t> sorted = sc.keys;
	const uint32_t np = (uint32_t) sc.lo.size();
	int			n = 0;

	std::sort(sorted.begin(), sorted.end());
	for (uint32_t op : {GX_SEARCH_EQ, GX_SEARCH_RANGE})
		for (uint32_t bflags = 0; bflags < (op == GX_SEARCH_RANGE ? 4u : 1u); bflags++)
		{
			uint64_t	sum = 0;
			std::vector<gx_search_run> want = search_reference(sorted, sc, 0, np, op, bflags,
															   &sum);

			for (const auto &a : search_algs)
			{
				ChunkBuilder b;
				gx_chunk   *c = search_task(b, sc, 0, np, op, bflags, a[0], a[1], cap);

				fn(c, b.capacity, op, bflags, a, want, sum);
				n++;
			}
		}
	return n;
}

typedef std::function<void(const SearchCase &sc)> SearchCaseFn;

/*
 * The search cases of both unit tests (sizes times scale): unique random
 * keys, many duplicates, 90% one key, negative keys with INT64_MIN and
 * INT64_MAX (repeated), an empty projection, one key, int4 keys
 */
static void
search_cases(std::mt19937_64 &rng, uint32_t scale, const SearchCaseFn &fn)
{
	const int64_t I8MIN = std::numeric_limits<int64_t>::min();
	const int64_t I8MAX = std::numeric_limits<int64_t>::max();
	const uint32_t n = 3000 * scale;
	SearchCase	sc;

	auto		done = [&](const char *what, uint32_t nprobes) {
		sc.what = what;
		search_probes(rng, sc, nprobes);
		/* (int4 probes: clamped to the type) */
		for (size_t i = 0; i < sc.lo.size() && sc.ktype == GX_INT4; i++)
		{
			sc.lo[i] = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, sc.lo[i]));
			sc.hi[i] = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, sc.hi[i]));
		}
		fn(sc);
		sc = SearchCase();
	};

	{
		std::unordered_set<int64_t> seen;

		while (sc.keys.size() < n)
		{
			int64_t		k = (int64_t) rng();

			if (seen.insert(k).second)
				sc.keys.push_back(k);
		}
		done("unique keys", 2000 * scale);
	}
	for (uint32_t i = 0; i < n; i++)
		sc.keys.push_back((int64_t) (rng() % 300) - 150);
	done("duplicates", 2000 * scale);
	for (uint32_t i = 0; i < n; i++)
		sc.keys.push_back(rng() % 10 < 9 ? 42 : (int64_t) (rng() % 2001) - 1000);
	done("90% one key", 2000 * scale);
	for (uint32_t i = 0; i < n; i++)
		sc.keys.push_back(i % 50 == 0 ? I8MIN : i % 50 == 1 ? I8MAX :
						  -(int64_t) (rng() % 1000000000000ll));
	done("negative and extreme keys", 2000 * scale);
	done("empty projection", 500);
	sc.keys.push_back(7);
	done("one key", 500);
	sc.keys.push_back(I8MIN);
	done("INT64_MIN alone", 100);
	for (uint32_t i = 0; i < n; i++)
		sc.keys.push_back((int64_t) (rng() % 200001) - 100000);
	sc.keys.push_back(INT32_MIN);
	sc.keys.push_back(INT32_MAX);
	sc.ktype = GX_INT4;
	done("int4 probes", 2000 * scale);
}

/* ---------------------------------------------------------------------- */
/* aggregation over a join (group probe, gx_join.cuh): cases, reference    */
/* ---------------------------------------------------------------------- */

/*
 * One side of a group join case: key k (int4) and the upper bound of a
 * range probe kd = k + 0..3 (int8; both NULL where k is), a group column a
 * (int4), a value v (int8), a float x (float8: quarters, so that every sum
 * is exact in any order), each with NULLs; a filter f (a row passes where
 * f >= 0) and h (numeric: h * h overflows where h is large, so an outer
 * program with the host qual makes the row the host's)
 */
struct JgSide
{
	std::vector<int64_t> k,
				kd,
				a,
				v,
				f,
				h;
	std::vector<double> x;
	std::vector<uint8_t> kn,
				an,
				vn,
				xn;

	uint32_t	size() const
	{
		return (uint32_t) k.size();
	}
	/*
	 * a row of key (NULL 1 in nullk), other NULLs 1 in 10, f < 0 1 in
	 * pfail, a host row 1 in phost (0: never)
	 */
	void		add_random(std::mt19937_64 &rng, int64_t key, int nullk, int pfail, int phost)
	{
		bool		knull = nullk > 0 && rng() % nullk == 0;

		k.push_back(knull ? 0 : key);
		kd.push_back(knull ? 0 : key + (int64_t) (rng() % 4));
		kn.push_back(knull);
		a.push_back((int64_t) (rng() % 7));
		an.push_back(rng() % 10 == 0);
		v.push_back((int64_t) (rng() % 2001) - 1000);
		vn.push_back(rng() % 10 == 0);
		x.push_back(((double) (rng() % 4001) - 2000.0) / 4.0);
		xn.push_back(rng() % 10 == 0);
		f.push_back(pfail > 0 && rng() % pfail == 0 ? -1 : 1);
		h.push_back(phost > 0 && rng() % phost == 0 ? 4000000000ll : 1);
	}
	bool		passes(uint32_t r) const
	{
		return f[r] >= 0 && h[r] == 1;
	}
	bool		is_host(uint32_t r) const
	{
		return f[r] >= 0 && h[r] != 1;
	}
};

/* the joined output vector of a group probe: outer outputs 0 .. 4, inner columns from 5 */
#define JG_ICOL_BASE 5
#define JG_NCOLS 3

/* the options of a group join run */
struct JgSpec
{
	uint32_t	alg = GX_JOIN_HASH;
	uint32_t	mode = GX_JOIN_INNER;
	int			keys = 1;		/* group keys, bits: 1 outer a, 2 inner a, 4 outer
								 * k (0: one group) */
	bool		host = false;	/* the outer program carries the host qual */
	uint32_t	gcap = 4096;	/* group table slots */
	uint32_t	glimit = 2048;	/* ... and its limit */
	uint32_t	gflags = 0;
	uint32_t	gpart_mask = 0;
	uint32_t	gpart_value = 0;
	uint32_t	ibatch = 1u << 30;	/* rows per BUILD / PROBE task */
	uint32_t	obatch = 1u << 30;
	bool		entry = false;	/* rows from cache entries (join_entry_task) */
};

/*
 * A JOIN_BUILD or JOIN_PROBE task over rows [lo, hi) of side s: the
 * program is "f >= 0 [AND h * h > 0]", then outputs 0 = k, 1 = a, 2 = v,
 * 3 = x, 4 = kd; a BUILD stages outputs 1, 2, 3 as its inner columns
 * (obj[1]), a PROBE reads them at j[5 ..] (icol_base 5) and adds into the
 * group table obj[2] (keys and aggregates of jg_set_group).  With id,
 * output 5 is the row's number in the side (int8, never NULL), and a
 * BUILD stages it as a fourth inner column (JGA_NCOLS).
 */
static gx_chunk *
jg_side_task(ChunkBuilder &b, int kind, const JgSide &s, const JgSpec &sp, uint32_t cap,
			 uint32_t kcap, uint32_t lo, uint32_t hi, bool id = false)
{
	auto		sl = [&](const std::vector<int64_t> &v) {
		return std::vector<int64_t>(v.begin() + lo, v.begin() + hi);
	};
	auto		sn = [&](const std::vector<uint8_t> &v) {
		return std::vector<uint8_t>(v.begin() + lo, v.begin() + hi);
	};
	int			ck = b.add_int_col(GX_INT4, sl(s.k), sn(s.kn));
	int			ckd = b.add_int_col(GX_INT8, sl(s.kd), sn(s.kn));
	int			ca = b.add_int_col(GX_INT4, sl(s.a), sn(s.an));
	int			cv = b.add_int_col(GX_INT8, sl(s.v), sn(s.vn));
	int			cx = b.add_float_col(GX_FLOAT8,
									 std::vector<double>(s.x.begin() + lo, s.x.begin() + hi),
									 sn(s.xn));
	int			cf = b.add_int_col(GX_INT4, sl(s.f));
	int			ch = b.add_num_col(0, sl(s.h));

	const int	outs[5][2] = {{ck, GX_INT4}, {ca, GX_INT4}, {cv, GX_INT8}, {cx, GX_FLOAT8},
	{ckd, GX_INT8}};

	b.nrows = hi - lo;
	join_emit_quals(b, cf, ch, sp.host && kind == GX_TASK_JOIN_PROBE);
	for (int o = 0; o < 5; o++)
	{
		b.emit(GX_OP_LDCOL, outs[o][1], 10 + o, 0, 0, outs[o][0]);
		b.emit(GX_OP_OUT, outs[o][1], 0, 10 + o, 0, o);
	}
	if (id)
	{
		std::vector<int64_t> ids(hi - lo);

		for (uint32_t i = lo; i < hi; i++)
			ids[i - lo] = i;

		int			cid = b.add_int_col(GX_INT8, ids);

		b.emit(GX_OP_LDCOL, GX_INT8, 15, 0, 0, cid);
		b.emit(GX_OP_OUT, GX_INT8, 0, 15, 0, 5);
	}

	gx_chunk   *c = b.build();

	if (kind == GX_TASK_JOIN_PROBE)
		c = join_grow_result(b, gx_join_probe_result_bytes(hi - lo, 0, sp.alg));
	c->kind = kind;
	c->obj[0] = 1;
	c->obj[1] = 2;
	c->ext.entry = -1;

	gx_join_ext *j = &c->ext.join;

	j->nkeys = 1;
	j->key_out[0] = 0;
	j->payload_out = -1;
	j->cap = cap;
	j->kcap = sp.alg == GX_JOIN_HASH ? kcap : 0;
	j->row_base = lo;
	j->alg = sp.alg;
	j->lo_out = j->hi_out = -1;
	j->ncols = JG_NCOLS;
	j->col_out[0] = 1;
	j->col_out[1] = 2;
	j->col_out[2] = 3;
	j->col_type[0] = GX_INT4;
	j->col_type[1] = GX_INT8;
	j->col_type[2] = GX_FLOAT8;
	if (id)
	{
		j->ncols = JG_NCOLS + 1;
		j->col_out[3] = 5;
		j->col_type[3] = GX_INT8;
	}
	j->icol_base = JG_ICOL_BASE;
	if (kind == GX_TASK_JOIN_PROBE)
	{
		j->mode = sp.mode;
		if (sp.alg == GX_JOIN_RANGE)
		{
			j->lo_out = 0;		/* inner k in [k, kd] */
			j->hi_out = 4;
			j->bflags = GX_JOIN_LO_INCL | GX_JOIN_HI_INCL;
		}
	}
	return c;
}

/*
 * The group keys and aggregates of a probe of spec sp: count(*),
 * count(iv), sum(v), sum128(iv) + hi, min(ia), max(a), fsum(ix), sum(iv)
 * where iv / ia / ix are the inner v / a / x (the outer ones in SEMI /
 * ANTI, which have no inner column); the group table obj[2]
 */
static void
jg_set_group(gx_chunk *c, const JgSpec &sp)
{
	gx_chunk_ext *x = &c->ext;
	const bool	inner = sp.mode == GX_JOIN_INNER || sp.mode == GX_JOIN_LEFT;
	const int16_t ia = inner ? JG_ICOL_BASE : 1,
				iv = inner ? JG_ICOL_BASE + 1 : 2,
				ix = inner ? JG_ICOL_BASE + 2 : 3;

	c->obj[GX_JOIN_OBJ_GROUP] = 3;
	x->ngroup_cap = sp.gcap;
	x->ngroup_limit = sp.glimit;
	x->gflags = sp.gflags;
	x->gpart_mask = sp.gpart_mask;
	x->gpart_value = sp.gpart_value;
	x->ngkeys = 0;
	if (sp.keys & 1)
		x->gkey_col[x->ngkeys++] = 1;
	if (sp.keys & 2)
		x->gkey_col[x->ngkeys++] = ia;
	if (sp.keys & 4)
		x->gkey_col[x->ngkeys++] = 0;
	x->nagg = 9;
	x->agg[0] = gx_agg {GX_AGG_COUNT, -1, 0, 0};
	x->agg[1] = gx_agg {GX_AGG_COUNT, iv, 0, 0};
	x->agg[2] = gx_agg {GX_AGG_SUM, 2, 0, 0};
	x->agg[3] = gx_agg {GX_AGG_SUM128, iv, 0, 0};
	x->agg[4] = gx_agg {GX_AGG_HI, iv, 0, 0};
	x->agg[5] = gx_agg {GX_AGG_MIN, ia, 0, 0};
	x->agg[6] = gx_agg {GX_AGG_MAX, 1, 0, 0};
	x->agg[7] = gx_agg {GX_AGG_FSUM, ix, 0, 0};
	x->agg[8] = gx_agg {GX_AGG_SUM, iv, 0, 0};
}

/* groups: (NULL flag, value) per key -> the aggregates' states */
typedef std::map<std::vector<int64_t>, std::vector<gx_agg_pair>> JgGroups;

/* what a group join gave (or should give) */
struct JgOut
{
	JgGroups	groups;
	uint64_t	added = 0;		/* sum of join_count (the reference: every pair) */
	uint64_t	noroom = 0;
	uint64_t	host = 0;
	bool		ok = true;		/* every task ran, no error, flags and counts consistent */
	/* jg_run: each probe task's (pass, first row, join_count, join_host), for diagnostics */
	std::vector<std::array<uint64_t, 4>> tasks;
};

/* the reference's states of a new group (gx_gslot_init's) */
static std::vector<gx_agg_pair>
jg_ref_init(const gx_chunk_ext *x)
{
	std::vector<gx_agg_pair> p(x->nagg);

	for (uint32_t a = 0; a < x->nagg; a++)
	{
		const int	op = x->agg[a].op;

		p[a].val = op == GX_AGG_MIN ? INT64_MAX : op == GX_AGG_MAX || op == GX_AGG_FSUM ?
			INT64_MIN : 0;
		p[a].cnt = 0;
	}
	return p;
}

/* the reference: add one joined output vector jv into its group of g */
static void
jg_ref_add(JgGroups &g, const gx_chunk_ext *x, const gx_reg *jv)
{
	std::vector<int64_t> key;

	for (uint32_t k = 0; k < x->ngkeys; k++)
	{
		const gx_reg &r = jv[x->gkey_col[k]];

		key.push_back(r.isnull ? 1 : 0);
		key.push_back(r.isnull ? 0 : r.v.i);
	}
	auto		it = g.find(key);

	if (it == g.end())
		it = g.emplace(key, jg_ref_init(x)).first;

	std::vector<gx_agg_pair> &p = it->second;

	for (uint32_t a = 0; a < x->nagg; a++)
	{
		const gx_agg &ag = x->agg[a];

		if (ag.op == GX_AGG_HI)
			continue;
		if (ag.col < 0)
		{
			p[a].cnt++;
			continue;
		}
		const gx_reg &r = jv[ag.col];

		if (r.isnull)
			continue;
		p[a].cnt++;
		switch (ag.op)
		{
			case GX_AGG_SUM:
				p[a].val = (int64_t) ((uint64_t) p[a].val + (uint64_t) r.v.i);
				break;
			case GX_AGG_MIN:
				p[a].val = std::min(p[a].val, r.v.i);
				break;
			case GX_AGG_MAX:
				p[a].val = std::max(p[a].val, r.v.i);
				break;
			case GX_AGG_FSUM:
				p[a].val = gx_dbits(gx_bitsd(p[a].val) + r.v.d);
				break;
			case GX_AGG_SUM128:
				{
					__int128	s = (__int128) ((unsigned __int128) (uint64_t) p[a + 1].val << 64 |
												(uint64_t) p[a].val);

					s += r.v.i;
					p[a].val = (int64_t) (uint64_t) s;
					p[a + 1].val = (int64_t) (s >> 64);
					break;
				}
			default:
				break;
		}
	}
}

/* the outputs of outer row r of side out (k, a, v, x, kd) into jv[0 .. 4], the rest zero */
static void
jg_outer_jv(const JgSide &out, uint32_t r, gx_reg *jv)
{
	memset(jv, 0, sizeof(gx_reg) * GX_MAX_OUTS);
	jv[0].v.i = out.k[r];
	jv[0].isnull = out.kn[r];
	jv[1].v.i = out.a[r];
	jv[1].isnull = out.an[r];
	jv[2].v.i = out.v[r];
	jv[2].isnull = out.vn[r];
	jv[3].v.d = out.x[r];
	jv[3].isnull = out.xn[r];
	jv[4].v.i = out.kd[r];
	jv[4].isnull = out.kn[r];
}

/* the inner columns a, v, x of row i of side s into jv[base ..] (the references) */
static void
jg_put_inner(gx_reg *jv, int base, const JgSide &s, uint32_t i)
{
	gx_reg	   *r = &jv[base];

	r[0].v.i = s.a[i];
	r[0].isnull = s.an[i];
	r[1].v.i = s.v[i];
	r[1].isnull = s.vn[i];
	r[2].v.d = s.x[i];
	r[2].isnull = s.xn[i];
}

/*
 * The reference of a group probe of spec sp over the sides (a nested loop
 * over the rows, every pass's groups): the groups, every pair in added,
 * the outer host rows in host
 */
static void
jg_reference(const JgSide &in, const JgSide &out, const JgSpec &sp, const gx_chunk_ext *x,
			 JgOut &w)
{
	for (uint32_t r = 0; r < out.size(); r++)
	{
		gx_reg		jv[GX_MAX_OUTS];
		uint32_t	n = 0;

		if (sp.host && out.is_host(r))
		{
			w.host++;
			continue;
		}
		if (!out.passes(r))
			continue;
		jg_outer_jv(out, r, jv);
		for (int c = 0; c < JG_NCOLS; c++)
			jv[JG_ICOL_BASE + c].isnull = 1;
		for (uint32_t i = 0; i < in.size() && !out.kn[r]; i++)
		{
			if (!in.passes(i) || in.kn[i])
				continue;
			if (sp.alg == GX_JOIN_RANGE ? in.k[i] < out.k[r] || in.k[i] > out.kd[r] :
				in.k[i] != out.k[r])
				continue;
			n++;
			if (sp.mode != GX_JOIN_INNER && sp.mode != GX_JOIN_LEFT)
				continue;
			jg_put_inner(jv, JG_ICOL_BASE, in, i);
			jg_ref_add(w.groups, x, jv);
			w.added++;
		}
		for (int c = 0; c < JG_NCOLS; c++)
			jv[JG_ICOL_BASE + c].isnull = 1;
		if ((sp.mode == GX_JOIN_LEFT && n == 0) || (sp.mode == GX_JOIN_SEMI && n > 0) ||
			(sp.mode == GX_JOIN_ANTI && n == 0))
		{
			jg_ref_add(w.groups, x, jv);
			w.added++;
		}
	}
}

/* the READY groups of a group table (host copy) of task ext x into g */
static void
jg_read_table(const char *table, const gx_chunk_ext *x, JgGroups &g)
{
	const uint64_t sb = gx_group_slot_bytes(x->ngkeys, x->nagg);

	for (uint32_t i = 0; i < x->ngroup_cap; i++)
	{
		const char *slot = table + sizeof(gx_group_hdr) + i * sb;

		if (*(const uint32_t *) slot != GX_GSLOT_READY)
			continue;
		std::vector<int64_t> key;
		const uint32_t nulls = ((const uint32_t *) slot)[1];
		const int64_t *k = (const int64_t *) (slot + 8);
		const gx_agg_pair *p = (const gx_agg_pair *) (slot + 8 + 8 * x->ngkeys);

		for (uint32_t q = 0; q < x->ngkeys; q++)
		{
			key.push_back((nulls >> q) & 1);
			key.push_back(k[q]);
		}
		g[key] = std::vector<gx_agg_pair>(p, p + x->nagg);
	}
}

/* a device for group join runs: zeroed memory, tasks, reads of memory */
struct JgDev
{
	std::function<void *(uint64_t)> alloc;	/* zeroed; NULL on failure */
	std::function<void(void *)> release;
	std::function<void(void *, const void *, uint64_t)> read;	/* (host, device, bytes) */
	/*
	 * run task c (capacity bytes) with objects obj[0 .. GX_TASK_MAX_OBJS)
	 * of ob bytes (NULL: none), and the cache entry (host memory) of
	 * entry_bytes, or none
	 */
	std::function<bool(gx_chunk *, uint64_t, void *const *, const uint64_t *, const void *,
					   uint64_t)> run;
};

/* the CPU device as a group join runner */
static JgDev
cpu_jg_dev(void)
{
	JgDev		d;

	d.alloc = [](uint64_t bytes) -> void * {
		void	   *p = nullptr;
		char		err[256];

		return gx_mem_alloc(GX_DEV_CPU, bytes, &p, err, sizeof(err)) == GX_OK ? p : nullptr;
	};
	d.release = [](void *p) {
		if (p != nullptr)
			gx_mem_free(GX_DEV_CPU, p);
	};
	d.read = [](void *host, const void *dev, uint64_t bytes) {
		memcpy(host, dev, bytes);
	};
	d.run = [](gx_chunk *c, uint64_t capacity, void *const *obj, const uint64_t *ob,
			   const void *entry, uint64_t entry_bytes) {
		gx_task_ctx ctx;
		char		err[256];

		memset(&ctx, 0, sizeof(ctx));
		ctx.entry = (char *) entry;
		ctx.entry_bytes = entry_bytes;
		for (int i = 0; i < GX_TASK_MAX_OBJS; i++)
		{
			ctx.obj[i] = (char *) obj[i];
			ctx.obj_bytes[i] = obj[i] != nullptr ? ob[i] : 0;
		}
		gx_status	st = gx_cpu_run(c, capacity, &ctx, err, sizeof(err));

		if (st != GX_OK)
			fprintf(stderr, "group join task: %s\n", err);
		return st == GX_OK;
	};
	return d;
}

/*
 * Build the inner side's table (its inner columns in the store), finish
 * it, and probe it with the outer side into a fresh group table per pass
 * of the partition list parts (gpart_value each; spec's mask); the
 * groups of every pass into o (a group in two passes is an error)
 */
static void
jg_run(const JgDev &dev, const JgSide &in, const JgSide &out, JgSpec sp,
	   const std::vector<uint32_t> &parts, JgOut &o)
{
	uint32_t	cap = std::max<uint32_t>(1, in.size());
	uint32_t	kcap = 2;

	while (kcap < 2 * cap)
		kcap *= 2;

	JoinSpec	js;

	js.alg = sp.alg;
	js.cap = cap;
	js.kcap = sp.alg == GX_JOIN_HASH ? kcap : 0;

	uint64_t	ob[GX_TASK_MAX_OBJS] = {join_table_bytes(js), gx_join_cols_bytes(cap, JG_NCOLS), 0};
	void	   *obj[GX_TASK_MAX_OBJS] = {dev.alloc(ob[0]), dev.alloc(ob[1]), nullptr};

	for (uint32_t lo = 0; lo < in.size() && obj[0] && obj[1]; lo += sp.ibatch)
	{
		ChunkBuilder b;
		gx_chunk   *c = jg_side_task(b, GX_TASK_JOIN_BUILD, in, sp, cap, kcap, lo,
									 std::min(in.size(), lo + sp.ibatch));
		std::vector<uint64_t> ent;

		if (sp.entry)
			join_entry_task(c, ent);
		if (!dev.run(c, b.capacity, obj, ob, sp.entry ? ent.data() : nullptr, 8 * ent.size()) ||
			gx_chunk_result(c)->error != GX_NO_ERROR ||
			gx_chunk_result(c)->nsel != 0)
			o.ok = false;
	}
	if (obj[0] && obj[1])
	{
		std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
		gx_chunk   *c = join_finish_task(fm.data(), js);

		if (!dev.run(c, join_finish_bytes(), obj, ob, nullptr, 0) ||
			gx_chunk_result(c)->error != GX_NO_ERROR)
			o.ok = false;
	}
	for (uint32_t part : parts)
	{
		JgSpec		ps = sp;
		JgOut		po;

		ps.gpart_value = part;
		if (part != parts[0])
			ps.gflags |= GX_GROUP_SKIP_HOST;	/* the first pass takes the host rows */
		{
			ChunkBuilder b;
			gx_chunk   *c = jg_side_task(b, GX_TASK_JOIN_PROBE, out, ps, cap, kcap, 0, 0);

			jg_set_group(c, ps);
			ob[2] = gx_group_table_bytes(ps.gcap, c->ext.ngkeys, c->ext.nagg);
		}
		obj[2] = dev.alloc(ob[2]);
		if (!obj[0] || !obj[1] || !obj[2])
		{
			o.ok = false;
			break;
		}
		gx_chunk_ext x = {};

		for (uint32_t lo = 0; lo < out.size() || lo == 0; lo += sp.obatch)
		{
			ChunkBuilder b;
			gx_chunk   *c = jg_side_task(b, GX_TASK_JOIN_PROBE, out, ps, cap, kcap, lo,
										 std::min(out.size(), lo + sp.obatch));

			std::vector<uint64_t> ent;

			jg_set_group(c, ps);
			x = c->ext;
			if (sp.entry)
				join_entry_task(c, ent);
			if (!dev.run(c, b.capacity, obj, ob, sp.entry ? ent.data() : nullptr, 8 * ent.size()))
			{
				o.ok = false;
				break;
			}
			const gx_result *res = gx_chunk_result(c);

			if (res->error != GX_NO_ERROR || res->nsel != 0 || (res->flags & GX_RESULT_MORE) ||
				((res->flags & GX_RESULT_FULL) != 0) != (res->join_noroom > 0) ||
				((res->flags & GX_RESULT_HOST) != 0) != (res->join_host > 0))
				o.ok = false;
			po.added += res->join_count;
			po.noroom += res->join_noroom;
			po.host += res->join_host;
			o.tasks.push_back({part, lo, res->join_count, res->join_host});
			if (out.size() == 0)
				break;
		}
		std::vector<char> table(ob[2]);

		dev.read(table.data(), obj[2], ob[2]);
		jg_read_table(table.data(), &x, po.groups);
		/* the pairs added are those the groups hold (count(*) is aggregate 0) */
		uint64_t	held = 0;

		for (auto &g : po.groups)
			held += g.second[0].cnt;
		if (held != po.added)
			o.ok = false;
		for (auto &g : po.groups)
			if (!o.groups.emplace(g.first, g.second).second)
				o.ok = false;	/* a group in two passes */
		o.added += po.added;
		o.noroom += po.noroom;
		o.host += po.host;
		dev.release(obj[2]);
		obj[2] = nullptr;
	}
	dev.release(obj[0]);
	dev.release(obj[1]);
}

/* do two groups' states agree (bit for bit: every sum is exact) */
static bool
jg_same_states(const std::vector<gx_agg_pair> &a, const std::vector<gx_agg_pair> &b)
{
	if (a.size() != b.size())
		return false;
	for (size_t i = 0; i < a.size(); i++)
		if (a[i].val != b[i].val || a[i].cnt != b[i].cnt)
			return false;
	return true;
}

/*
 * Check a group join's result o against the reference w: with room for
 * every group, the same groups; else every group the table holds is the
 * reference's, exactly (a group has all its pairs or none), there are
 * min(limit, groups) of them per pass, and the pairs without room are
 * exactly the others.  Returns a description of the first difference, or
 * "" when they agree.
 */
static std::string
jg_compare(const JgOut &o, const JgOut &w, const JgSpec &sp, size_t nparts)
{
	char		buf[256];

	if (!o.ok)
		return "a task failed, or its result is inconsistent";
	if (o.host != w.host)
	{
		snprintf(buf, sizeof(buf), "host %llu, want %llu", (unsigned long long) o.host,
				 (unsigned long long) w.host);
		return buf;
	}
	if (o.added + o.noroom != w.added)
	{
		snprintf(buf, sizeof(buf), "added %llu + no room %llu, want %llu pairs",
				 (unsigned long long) o.added, (unsigned long long) o.noroom,
				 (unsigned long long) w.added);
		return buf;
	}
	for (auto &g : o.groups)
	{
		auto		it = w.groups.find(g.first);

		if (it == w.groups.end() || !jg_same_states(g.second, it->second))
			return "a group differs from the reference's";
	}
	if (o.noroom == 0 && o.groups.size() != w.groups.size())
	{
		snprintf(buf, sizeof(buf), "%zu groups, want %zu", o.groups.size(), w.groups.size());
		return buf;
	}
	if (o.noroom > 0 &&
		(nparts != 1 || o.groups.size() != std::min<size_t>(sp.glimit, w.groups.size())))
	{
		snprintf(buf, sizeof(buf), "%zu groups in a full table of limit %u (%zu groups)",
				 o.groups.size(), sp.glimit, w.groups.size());
		return buf;
	}
	return "";
}

/* ---------------------------------------------------------------------- */
/* multi-level group probes (gx_join_group_levels)                         */
/* ---------------------------------------------------------------------- */

/* where level l's columns a, v, x lie in the joined output vector */
#define JGL_ICOL(l) (JG_ICOL_BASE + JG_NCOLS * (l))

/*
 * A multi-level case: the outer side and levels 0 .. L - 1.  Level 0 joins
 * the outer k to ins[0]'s k; level 1 joins level 0's a (and, with
 * two_keys, the outer a) to ins[1]'s k (and a); level 2 joins the outer a
 * to ins[2]'s k.  Each level's a, v, x go to jv[JGL_ICOL(l) ..].
 */
struct JglCase
{
	JgSide		out;
	std::vector<JgSide> ins;
	bool		two_keys = false;
};

/*
 * The group keys and aggregates of a multi-level probe of L levels: keys
 * the outer a and the last level's a; count(*), count(level 1 v), sum(outer
 * v), sum128(last level v) + hi, min(level 0 a), max(level 1 a), fsum(last
 * level x), sum(level 0 v)
 */
static void
jgl_set_group(gx_chunk *c, int L)
{
	gx_chunk_ext *x = &c->ext;
	const int16_t last = (int16_t) JGL_ICOL(L - 1);

	c->obj[GX_JOIN_OBJ_GROUP] = 3;
	x->ngroup_cap = 4096;
	x->ngroup_limit = 2048;
	x->ngkeys = 2;
	x->gkey_col[0] = 1;
	x->gkey_col[1] = last;
	x->nagg = 9;
	x->agg[0] = gx_agg {GX_AGG_COUNT, -1, 0, 0};
	x->agg[1] = gx_agg {GX_AGG_COUNT, (int16_t) (JGL_ICOL(1) + 1), 0, 0};
	x->agg[2] = gx_agg {GX_AGG_SUM, 2, 0, 0};
	x->agg[3] = gx_agg {GX_AGG_SUM128, (int16_t) (last + 1), 0, 0};
	x->agg[4] = gx_agg {GX_AGG_HI, (int16_t) (last + 1), 0, 0};
	x->agg[5] = gx_agg {GX_AGG_MIN, (int16_t) JGL_ICOL(0), 0, 0};
	x->agg[6] = gx_agg {GX_AGG_MAX, (int16_t) JGL_ICOL(1), 0, 0};
	x->agg[7] = gx_agg {GX_AGG_FSUM, (int16_t) (last + 2), 0, 0};
	x->agg[8] = gx_agg {GX_AGG_SUM, (int16_t) (JGL_ICOL(0) + 1), 0, 0};
}

/* the hash table geometry of a side: cap (at least 1) and kcap */
static void
jgl_geometry(const JgSide &s, uint32_t *cap, uint32_t *kcap)
{
	*cap = std::max<uint32_t>(1, s.size());
	*kcap = 2;
	while (*kcap < 2 * *cap)
		*kcap *= 2;
}

/* the multi-level probe task of case cs over rows [lo, hi) of its outer side (levels: cs.ins) */
static gx_chunk *
jgl_probe_task(ChunkBuilder &b, const JglCase &cs, uint32_t lo, uint32_t hi)
{
	const int	L = (int) cs.ins.size();
	JgSpec		sp;
	uint32_t	cap,
				kcap;

	jgl_geometry(cs.ins[0], &cap, &kcap);

	gx_chunk   *c = jg_side_task(b, GX_TASK_JOIN_PROBE, cs.out, sp, cap, kcap, lo, hi);
	gx_join_ext *j = &c->ext.join;

	jgl_set_group(c, L);
	j->nlevels = (uint32_t) L;
	for (int l = 1; l < L; l++)
	{
		gx_join_level *v = &j->level[l - 1];

		jgl_geometry(cs.ins[l], &cap, &kcap);
		v->cap = cap;
		v->kcap = kcap;
		v->nkeys = l == 1 && cs.two_keys ? 2 : 1;
		v->kfloat = 0;
		v->key_ref[0] = (int16_t) (l == 1 ? JGL_ICOL(0) : 1);
		v->key_ref[1] = 1;
		v->ncols = JG_NCOLS;
		v->icol_base = (uint16_t) JGL_ICOL(l);
		v->col_type[0] = GX_INT4;
		v->col_type[1] = GX_INT8;
		v->col_type[2] = GX_FLOAT8;
		c->obj[GX_JOIN_OBJ_LEVEL(l)] = 4 + 2 * l;
		c->obj[GX_JOIN_OBJ_LEVEL_COLS(l)] = 5 + 2 * l;
	}
	return c;
}

/* does inner row i of level l's side s join the vector jv (the reference; l >= 1) */
static bool
jgl_matches(const JglCase &cs, int l, const JgSide &s, uint32_t i, const gx_reg *jv)
{
	const gx_reg &k = jv[l == 1 ? JGL_ICOL(0) : 1];

	if (!s.passes(i) || s.kn[i] || k.isnull || s.k[i] != k.v.i)
		return false;
	if (l == 1 && cs.two_keys)
		return !s.an[i] && !jv[1].isnull && s.a[i] == jv[1].v.i;
	return true;
}

/* the reference: every combination of levels l .. L - 1 of jv into w */
static void
jgl_ref_levels(const JglCase &cs, int l, gx_reg *jv, const gx_chunk_ext *x, JgOut &w)
{
	if (l == (int) cs.ins.size())
	{
		jg_ref_add(w.groups, x, jv);
		w.added++;
		return;
	}
	const JgSide &s = cs.ins[l];

	for (uint32_t i = 0; i < s.size(); i++)
	{
		if (!jgl_matches(cs, l, s, i, jv))
			continue;
		jg_put_inner(jv, JGL_ICOL(l), s, i);
		jgl_ref_levels(cs, l + 1, jv, x, w);
	}
}

/* the reference of a multi-level case (a nested loop per level) */
static void
jgl_reference(const JglCase &cs, const gx_chunk_ext *x, JgOut &w)
{
	const JgSide &out = cs.out,
			   &in0 = cs.ins[0];

	for (uint32_t r = 0; r < out.size(); r++)
	{
		gx_reg		jv[GX_MAX_OUTS];

		if (!out.passes(r) || out.kn[r])
			continue;
		jg_outer_jv(out, r, jv);
		for (uint32_t i = 0; i < in0.size(); i++)
		{
			if (!in0.passes(i) || in0.kn[i] || in0.k[i] != out.k[r])
				continue;
			jg_put_inner(jv, JGL_ICOL(0), in0, i);
			jgl_ref_levels(cs, 1, jv, x, w);
		}
	}
}

/*
 * Run a multi-level case on dev: each level's table built (BUILD tasks of
 * its side, with a second key for level 1 when two_keys) and finished,
 * then the outer side probed in tasks of obatch rows into one group
 * table; the groups and counts into o.  kill_level >= 1: that level's
 * table is left unfinished (the probe must fail).
 */
static void
jgl_run(const JgDev &dev, const JglCase &cs, uint32_t obatch, int kill_level, JgOut &o)
{
	const int	L = (int) cs.ins.size();
	uint64_t	ob[GX_TASK_MAX_OBJS] = {0};
	void	   *obj[GX_TASK_MAX_OBJS] = {nullptr};
	JgSpec		sp;

	for (int l = 0; l < L && o.ok; l++)
	{
		uint32_t	cap,
					kcap;
		const int	to = l == 0 ? 0 : GX_JOIN_OBJ_LEVEL(l),
					co = l == 0 ? GX_JOIN_OBJ_COLS : GX_JOIN_OBJ_LEVEL_COLS(l);
		uint64_t	lb[GX_TASK_MAX_OBJS] = {0};
		void	   *lo[GX_TASK_MAX_OBJS] = {nullptr};
		JoinSpec	js;
		ChunkBuilder b;

		jgl_geometry(cs.ins[l], &cap, &kcap);
		ob[to] = lb[0] = gx_join_table_bytes(cap, kcap);
		ob[co] = lb[1] = gx_join_cols_bytes(cap, JG_NCOLS);
		obj[to] = lo[0] = dev.alloc(lb[0]);
		obj[co] = lo[1] = dev.alloc(lb[1]);
		if (lo[0] == nullptr || lo[1] == nullptr)
		{
			o.ok = false;
			break;
		}
		gx_chunk   *c = jg_side_task(b, GX_TASK_JOIN_BUILD, cs.ins[l], sp, cap, kcap, 0,
									 cs.ins[l].size());

		if (l == 1 && cs.two_keys)
		{
			c->ext.join.nkeys = 2;
			c->ext.join.key_out[1] = 1;
		}
		if (!dev.run(c, b.capacity, lo, lb, nullptr, 0) ||
			gx_chunk_result(c)->error != GX_NO_ERROR)
			o.ok = false;
		js.cap = cap;
		js.kcap = kcap;
		js.nkeys = l == 1 && cs.two_keys ? 2 : 1;

		std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);

		if (l != kill_level &&
			(!dev.run(join_finish_task(fm.data(), js), join_finish_bytes(), lo, lb, nullptr, 0) ||
			 gx_chunk_result((gx_chunk *) fm.data())->error != GX_NO_ERROR))
			o.ok = false;
	}
	gx_chunk_ext x = {};

	{
		ChunkBuilder b;

		x = jgl_probe_task(b, cs, 0, 0)->ext;
		ob[GX_JOIN_OBJ_GROUP] = gx_group_table_bytes(x.ngroup_cap, x.ngkeys, x.nagg);
		obj[GX_JOIN_OBJ_GROUP] = dev.alloc(ob[GX_JOIN_OBJ_GROUP]);
		if (obj[GX_JOIN_OBJ_GROUP] == nullptr)
			o.ok = false;
	}
	for (uint32_t lo = 0; o.ok && (lo < cs.out.size() || lo == 0); lo += obatch)
	{
		ChunkBuilder b;
		gx_chunk   *c = jgl_probe_task(b, cs, lo, std::min(cs.out.size(), lo + obatch));

		if (!dev.run(c, b.capacity, obj, ob, nullptr, 0))
		{
			o.ok = false;
			break;
		}
		const gx_result *res = gx_chunk_result(c);

		if (res->error != GX_NO_ERROR || res->nsel != 0 || (res->flags & GX_RESULT_MORE) ||
			((res->flags & GX_RESULT_FULL) != 0) != (res->join_noroom > 0))
			o.ok = false;
		o.added += res->join_count;
		o.noroom += res->join_noroom;
		o.host += res->join_host;
		if (cs.out.size() == 0)
			break;
	}
	if (o.ok)
	{
		std::vector<char> table(ob[GX_JOIN_OBJ_GROUP]);

		dev.read(table.data(), obj[GX_JOIN_OBJ_GROUP], ob[GX_JOIN_OBJ_GROUP]);
		jg_read_table(table.data(), &x, o.groups);
	}
	for (int i = 0; i < GX_TASK_MAX_OBJS; i++)
		dev.release(obj[i]);
}

/* the multi-level cases: 2 and 3 levels, one and two keys, duplicates, NULL keys, an empty level */
static std::vector<std::pair<std::string, JglCase>>
jgl_cases(std::mt19937_64 &rng, uint32_t scale)
{
	std::vector<std::pair<std::string, JglCase>> v;

	for (int L = 2; L <= 3; L++)
		for (int variant = 0; variant < 3; variant++)
		{
			JglCase		cs;

			cs.two_keys = variant == 1;
			for (uint32_t r = 0; r < 300 * scale; r++)
				cs.out.add_random(rng, (int64_t) (rng() % (50 * scale)), 20, 7, 0);
			cs.ins.resize(L);
			for (uint32_t r = 0; r < 80 * scale; r++)
				cs.ins[0].add_random(rng, (int64_t) (rng() % (50 * scale)), 15, 9, 0);
			for (int l = 1; l < L; l++)
				for (uint32_t r = 0; variant != 2 || l != L - 1 ? r < 30 : false; r++)
					cs.ins[l].add_random(rng, (int64_t) (rng() % 7), 10, 8, 0);

			char		name[96];

			snprintf(name, sizeof(name), "%d levels%s", L,
					 variant == 1 ? ", two keys at level 1" :
					 variant == 2 ? ", the last level empty" : "");
			v.emplace_back(name, cs);
		}
	return v;
}

/*
 * Every multi-level case on dev (devname) against the reference, in tasks
 * of obatch rows; then one with a level left unfinished, which must fail.
 * Returns the runs.
 */
static int
jgl_test(const JgDev &dev, const char *devname, std::mt19937_64 &rng, uint32_t scale,
		 uint32_t obatch)
{
	int			runs = 0;

	for (auto &nc : jgl_cases(rng, scale))
	{
		JgOut		o,
					w;
		JgSpec		sp;
		ChunkBuilder b;

		jgl_reference(nc.second, &jgl_probe_task(b, nc.second, 0, 0)->ext, w);
		jgl_run(dev, nc.second, obatch, -1, o);

		std::string d = jg_compare(o, w, sp, 1);

		CHECK(d.empty() && o.noroom == 0 && (w.added > 0 || nc.first.find("empty") !=
											 std::string::npos),
			  "multi-level group probe (%s, %s): %s (%llu pairs, %zu groups)", devname,
			  nc.first.c_str(), d.c_str(), (unsigned long long) w.added, w.groups.size());
		runs++;
	}
	{
		auto		cases = jgl_cases(rng, 1);
		JgOut		o;

		jgl_run(dev, cases[3].second, obatch, 2, o);
		CHECK(!o.ok, "multi-level group probe (%s): a level's table unfinished fails the task",
			  devname);
	}
	return runs;
}

/* a group join case: its name, the sides, and whether the outer rows carry host rows */
typedef std::function<void(const char *what, const JgSide &in, const JgSide &out,
						   bool host)> JgCaseFn;

/*
 * The group join cases of both unit tests (sizes times scale): random
 * keys with NULLs, filters and host rows; 90% one key; empty inner; empty
 * outer; all-match; no-match
 */
static void
jg_cases(std::mt19937_64 &rng, uint32_t scale, const JgCaseFn &fn)
{
	/* a side: rows (times scale), keys base + [0, mod) (how: random, 90% key 7, i % mod), odds */
	struct JgSideSpec
	{
		uint32_t	n;
		int64_t		base,
					mod;
		int			how;		/* 0 random, 1 90% key 7, 2 row i: base + i % mod */
		int			nullk,
					pfail,
					phost;		/* add_random's odds */
	};
	static const struct
	{
		const char *name;
		JgSideSpec	in,
					out;
	}			cases[] = {
		{"random", {150, 0, 60, 0, 10, 10, 0}, {200, 0, 70, 0, 10, 10, 20}},
		{"90% one key", {150, 0, 40, 1, 20, 0, 0}, {100, 0, 40, 1, 20, 0, 0}},
		{"empty inner", {0, 0, 10, 0, 10, 10, 0}, {100, 0, 10, 0, 10, 10, 0}},
		{"empty outer", {100, 0, 10, 0, 10, 10, 0}, {0, 0, 10, 0, 10, 10, 0}},
		{"all-match", {40, 0, 5, 2, 0, 0, 0}, {100, 0, 5, 0, 0, 0, 0}},
		{"no-match", {80, 0, 50, 0, 10, 0, 0}, {80, 1000, 50, 0, 10, 0, 0}},
	};

	for (const auto &cs : cases)
	{
		JgSide		sides[2];
		const JgSideSpec *sp[2] = {&cs.in, &cs.out};

		for (int q = 0; q < 2; q++)
			for (uint32_t i = 0; i < sp[q]->n * scale; i++)
			{
				int64_t		key = sp[q]->how == 2 ? (int64_t) i % sp[q]->mod :
					sp[q]->how == 1 && rng() % 10 < 9 ? 7 : (int64_t) (rng() % sp[q]->mod);

				sides[q].add_random(rng, sp[q]->base + key, sp[q]->nullk, sp[q]->pfail,
									sp[q]->phost);
			}
		fn(cs.name, sides[0], sides[1], cs.out.phost > 0);
	}
}

/* rows [lo, hi) of side s */
static JgSide
jg_slice(const JgSide &s, uint32_t lo, uint32_t hi)
{
	JgSide		r;
	auto		sl = [&](auto &dst, const auto &src) {
		dst.assign(src.begin() + lo, src.begin() + hi);
	};

	sl(r.k, s.k);
	sl(r.kd, s.kd);
	sl(r.a, s.a);
	sl(r.v, s.v);
	sl(r.f, s.f);
	sl(r.h, s.h);
	sl(r.x, s.x);
	sl(r.kn, s.kn);
	sl(r.an, s.an);
	sl(r.vn, s.vn);
	sl(r.xn, s.xn);
	return r;
}

/*
 * After a failed run of one pass with room for every group: each probe
 * task whose counts differ from the reference of its own outer rows
 * (in / out: the rows as the device sees them), to stderr
 */
static void
jg_print_tasks(const JgOut &o, const JgSide &in, const JgSide &out, const JgSpec &sp,
			   const gx_chunk_ext *x)
{
	int			bad = 0;

	for (const auto &t : o.tasks)
	{
		const uint32_t lo = (uint32_t) t[1];
		const uint32_t hi = std::min<uint32_t>(out.size(), lo + sp.obatch);
		JgOut		w;

		jg_reference(in, jg_slice(out, lo, hi), sp, x, w);
		if (w.added == t[2] && w.host == t[3])
			continue;
		bad++;
		fprintf(stderr, "  probe task of outer rows [%u, %u): added %llu, host %llu; "
				"want %llu, %llu\n", lo, hi, (unsigned long long) t[2],
				(unsigned long long) t[3], (unsigned long long) w.added,
				(unsigned long long) w.host);
	}
	fprintf(stderr, "  %d of %zu probe tasks differ from their rows' reference\n", bad,
			o.tasks.size());
}

/*
 * One group join run on dev of a case (in, out; host: the outer program
 * carries the host qual): algorithm alg, mode, group keys (JgSpec.keys)
 * and variant var (0: plain; in batches: 1 a table too small, 2 four
 * passes of a partition, 3 no local tables, 4 both sides' rows from cache
 * entries, stale blocks and padding rows skipped) against the reference
 */
static void
jg_case_run(const JgDev &dev, const char *devname, const char *what, const JgSide &in,
			const JgSide &out, bool host, uint32_t alg, uint32_t mode, int keys, int var)
{
	JgSpec		sp;
	std::vector<uint32_t> parts = {0};

	sp.alg = alg;
	sp.mode = mode;
	sp.keys = keys;
	sp.host = host;
	sp.ibatch = 97;
	sp.obatch = var == 0 ? 1u << 30 : 61;
	if (var == 1)
	{
		sp.gcap = 16;
		sp.glimit = 5;
	}
	if (var == 2)
	{
		sp.gpart_mask = 3;
		parts = {0, 1, 2, 3};
	}
	if (var == 3)
		sp.gflags = GX_GROUP_NO_LOCAL;
	sp.entry = var == 4;

	JgOut		o,
				w;
	ChunkBuilder b;
	gx_chunk   *c = jg_side_task(b, GX_TASK_JOIN_PROBE, out, sp, 1, 2, 0, 0);
	/* the rows the device sees (cache entries skip some) */
	const JgSide iref = sp.entry ? join_entry_visible(in, sp.ibatch) : in;
	const JgSide oref = sp.entry ? join_entry_visible(out, sp.obatch) : out;

	jg_set_group(c, sp);
	jg_reference(iref, oref, sp, &c->ext, w);
	jg_run(dev, in, out, sp, parts, o);

	std::string d = jg_compare(o, w, sp, parts.size());

	CHECK(d.empty() && (var != 1 || w.groups.size() <= sp.glimit || o.noroom > 0),
		  "group join %s (%s): alg %u mode %u keys %d variant %d: %s (added %llu, "
		  "no room %llu, host %llu; want %llu pairs, %zu groups)",
		  what, devname, alg, mode, keys, var, d.c_str(),
		  (unsigned long long) o.added, (unsigned long long) o.noroom,
		  (unsigned long long) o.host, (unsigned long long) w.added,
		  w.groups.size());
	if (!d.empty() && parts.size() == 1 && o.noroom == 0)
		jg_print_tasks(o, iref, oref, sp, &c->ext);
}

/*
 * Run one group join case on dev in every mode (INNER, LEFT, SEMI, ANTI),
 * algorithm (hash, range, merge) and set of group keys (none, outer,
 * inner, both, and the outer key with an inner column: many groups; SEMI
 * / ANTI have no inner column), against the reference; the random case
 * also in every variant of jg_case_run.  Returns the runs.
 */
static int
jg_case_runs(const JgDev &dev, const char *devname, const char *what, const JgSide &in,
			 const JgSide &out, bool host)
{
	int			runs = 0;

	for (uint32_t alg : {GX_JOIN_HASH, GX_JOIN_RANGE, GX_JOIN_MERGE})
		for (uint32_t mode : {GX_JOIN_INNER, GX_JOIN_LEFT, GX_JOIN_SEMI, GX_JOIN_ANTI})
			for (int keys : {0, 1, 2, 3, 6})
			{
				const bool	inner = mode == GX_JOIN_INNER || mode == GX_JOIN_LEFT;

				if (!inner && (keys & 2))
					continue;
				/* variants: plain; the random case: batches, a small table, passes, no local */
				for (int var = 0; var < (host ? 5 : 1); var++)
				{
					jg_case_run(dev, devname, what, in, out, host, alg, mode, keys, var);
					runs++;
				}
			}
	return runs;
}

/* ---------------------------------------------------------------------- */
/* gathered output (a probe's entries with their columns, gx_join.cuh)     */
/* ---------------------------------------------------------------------- */

#define JGA_NCOLS (JG_NCOLS + 1)	/* inner a, v, x and the row's number (jg_side_task id) */

/*
 * The columns a gathering probe of the cases writes: inner id, outer k,
 * inner a, outer x, inner v, outer id, inner x, outer a, outer kd
 * (gx_join_ext.gather: >= 0 an outer output, < 0 inner column -1 - g)
 */
static const int16_t jga_gather[] = {-4, 0, -1, 3, -2, 5, -3, 1, 4};

#define JGA_NGATHER ((uint32_t) (sizeof(jga_gather) / sizeof(jga_gather[0])))

/* an entry of a gathering probe: {outer row, kind (JGA_*), inner row or -1} */
typedef std::array<int64_t, 3> JgaEntry;

#define JGA_PAIR 0				/* a match: its inner row */
#define JGA_NO_INNER 1			/* LEFT / FULL: the row without a match */
#define JGA_ROW 2				/* SEMI / ANTI: the row */
#define JGA_HOST 3				/* the host's row */

/*
 * The reference's entries of a probe of mode (algorithm alg: range, the
 * inner keys in [k, kd]; else equal keys) over the sides as the device
 * sees them, sorted; host: the outer program carries the host qual
 */
static std::vector<JgaEntry>
jga_reference(const JgSide &in, const JgSide &out, uint32_t alg, uint32_t mode, bool host)
{
	std::vector<JgaEntry> w;

	for (uint32_t r = 0; r < out.size(); r++)
	{
		uint32_t	n = 0;

		if (host && out.is_host(r))
		{
			w.push_back({r, JGA_HOST, -1});
			continue;
		}
		if (!out.passes(r))
			continue;
		for (uint32_t i = 0; i < in.size() && !out.kn[r]; i++)
		{
			if (!in.passes(i) || in.kn[i])
				continue;
			if (alg == GX_JOIN_RANGE ? in.k[i] < out.k[r] || in.k[i] > out.kd[r] :
				in.k[i] != out.k[r])
				continue;
			n++;
			if (GX_JOIN_MODE_PAIRS(mode))
				w.push_back({r, JGA_PAIR, i});
		}
		if ((mode == GX_JOIN_LEFT || mode == GX_JOIN_FULL) && n == 0)
			w.push_back({r, JGA_NO_INNER, -1});
		if ((mode == GX_JOIN_SEMI && n > 0) || (mode == GX_JOIN_ANTI && n == 0))
			w.push_back({r, JGA_ROW, -1});
	}
	std::sort(w.begin(), w.end());
	return w;
}

/*
 * The value gathered column ref must have in an entry of outer row r of
 * out and inner row i of in (-1: none; host: the host's entry): *null,
 * and the value (gx_reg.v.i; 0 when NULL)
 */
static int64_t
jga_value(const JgSide &in, const JgSide &out, int ref, int64_t r, int64_t i, bool host,
		  bool *null)
{
	gx_reg		jv[GX_MAX_OUTS];
	const gx_reg *v;

	*null = true;
	if (host || (ref < 0 && i < 0))
		return 0;
	if (ref >= 0)
	{
		jg_outer_jv(out, (uint32_t) r, jv);
		jv[5].v.i = r;			/* (output 5: the row's number) */
		jv[5].isnull = 0;
		v = &jv[ref];
	}
	else
	{
		jg_put_inner(jv, 0, in, (uint32_t) i);
		jv[3].v.i = i;
		jv[3].isnull = 0;
		v = &jv[-1 - ref];
	}
	*null = v->isnull != 0;
	return *null ? 0 : v->v.i;
}

/* printf into a std::string */
static std::string
jga_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static std::string
jga_fmt(const char *fmt, ...)
{
	char		buf[512];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

/*
 * A gathering join run on dev (spec sp: algorithm, mode, host qual,
 * batches, cache entries): the inner side's table with its JGA_NCOLS
 * inner columns built in batches, finished, probed by the outer side in
 * batches, each in passes of max_pairs entries gathering jga_gather.
 * Every entry of every pass is checked against the rows: its outer
 * outputs, and the inner columns of the inner row of its payload (the
 * store's id column, read back); the columns' bytes are stale (0x5a)
 * before each pass, so a value not written or not copied back shows.
 * The entries {outer row, kind, inner row} into *got (unsorted), the
 * passes into *passes; "" or what went wrong.
 */
static std::string
jga_run(const JgDev &dev, const JgSide &in, const JgSide &out, const JgSpec &sp,
		uint32_t max_pairs, std::vector<JgaEntry> *got, int *passes)
{
	const uint32_t cap = std::max<uint32_t>(1, in.size());
	uint32_t	kcap = 2;
	JoinSpec	js;
	std::string why;

	while (kcap < 2 * cap)
		kcap *= 2;
	js.alg = sp.alg;
	js.cap = cap;
	js.kcap = sp.alg == GX_JOIN_HASH ? kcap : 0;

	uint64_t	ob[GX_TASK_MAX_OBJS] = {join_table_bytes(js), gx_join_cols_bytes(cap, JGA_NCOLS)};
	void	   *obj[GX_TASK_MAX_OBJS] = {dev.alloc(ob[0]), dev.alloc(ob[1])};

	if (!obj[0] || !obj[1])
		why = "no device memory";
	for (uint32_t lo = 0; why.empty() && lo < in.size(); lo += sp.ibatch)
	{
		ChunkBuilder b;
		gx_chunk   *c = jg_side_task(b, GX_TASK_JOIN_BUILD, in, sp, cap, kcap, lo,
									 std::min(in.size(), lo + sp.ibatch), true);
		std::vector<uint64_t> ent;

		if (sp.entry)
			join_entry_task(c, ent);
		if (!dev.run(c, b.capacity, obj, ob, sp.entry ? ent.data() : nullptr, 8 * ent.size()) ||
			gx_chunk_result(c)->error != GX_NO_ERROR || gx_chunk_result(c)->nsel != 0)
			why = jga_fmt("build of inner rows from %u failed", lo);
	}
	if (why.empty())
	{
		std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
		gx_chunk   *c = join_finish_task(fm.data(), js);

		if (!dev.run(c, join_finish_bytes(), obj, ob, nullptr, 0) ||
			gx_chunk_result(c)->error != GX_NO_ERROR)
			why = "finish failed";
	}

	/* the inner row of each payload (a staged index): the store's id column */
	std::vector<int64_t> store(ob[1] / 8 + 1);

	if (why.empty())
		dev.read(store.data(), obj[1], ob[1]);

	const int64_t *ids = store.data() + (uint64_t) JG_NCOLS * cap;

	for (uint32_t lo = 0; why.empty() && (lo < out.size() || lo == 0); lo += sp.obatch)
	{
		const uint32_t hi = std::min(out.size(), lo + sp.obatch);
		uint32_t	first_row = 0,
					first_match = 0;

		for (int pass = 0; why.empty(); pass++)
		{
			ChunkBuilder b;
			gx_chunk   *c = jg_side_task(b, GX_TASK_JOIN_PROBE, out, sp, cap, kcap, lo, hi, true);
			const uint32_t ra = gx_join_res_alg(&c->ext.join);
			const uint64_t goff = gx_join_gather_off(hi - lo, max_pairs, ra);
			std::vector<uint64_t> ent;

			c = join_grow_result(b, gx_join_gather_result_bytes(hi - lo, max_pairs, ra,
																 JGA_NGATHER));

			gx_join_ext *j = &c->ext.join;

			j->first_row = first_row;
			j->first_match = first_match;
			j->max_pairs = max_pairs;
			j->ngather = JGA_NGATHER;
			for (uint32_t g = 0; g < JGA_NGATHER; g++)
				j->gather[g] = jga_gather[g];
			memset((char *) gx_chunk_result(c) + goff, 0x5a,
				   gx_join_gather_result_bytes(hi - lo, max_pairs, ra, JGA_NGATHER) - goff);
			if (sp.entry)
				join_entry_task(c, ent);
			if (pass > 1000000 ||
				!dev.run(c, b.capacity, obj, ob, sp.entry ? ent.data() : nullptr, 8 * ent.size()) ||
				gx_chunk_result(c)->error != GX_NO_ERROR)
			{
				why = jga_fmt("probe of outer rows [%u, %u), pass %d failed", lo, hi, pass);
				break;
			}
			(*passes)++;

			const gx_result *res = gx_chunk_result(c);
			const char *ra_base = (const char *) res;
			const gx_join_pair *p = (const gx_join_pair *) (ra_base + gx_join_pairs_off(hi - lo, ra));
			const int64_t *gval = (const int64_t *) (ra_base + goff);
			const uint8_t *gnull = (const uint8_t *) ra_base +
				gx_join_gather_nulls_off(hi - lo, max_pairs, ra, JGA_NGATHER);
			uint32_t	last = first_row;

			if (res->nsel > max_pairs)
				why = jga_fmt("%u entries, room for %u", res->nsel, max_pairs);
			for (uint32_t i = 0; i < res->nsel && why.empty(); i++)
			{
				const int64_t r = (int64_t) lo + p[i].outer;
				int64_t		kind = JGA_ROW,
							ii = -1;

				if (p[i].outer < last || p[i].outer >= hi - lo)
					why = jga_fmt("entry %u: outer row %u out of order", i, p[i].outer);
				last = p[i].outer;
				if (p[i].flags & GX_JOIN_PAIR_HOST)
					kind = JGA_HOST;
				else if (p[i].flags & GX_JOIN_PAIR_NO_INNER)
					kind = JGA_NO_INNER;
				else if (GX_JOIN_MODE_PAIRS(sp.mode))
				{
					kind = JGA_PAIR;
					if (p[i].inner < 0 || p[i].inner >= (int64_t) cap)
					{
						why = jga_fmt("entry %u: payload %lld outside the store", i,
									  (long long) p[i].inner);
						break;
					}
					ii = ids[p[i].inner];
				}
				got->push_back({r, kind, ii});
				for (uint32_t g = 0; g < JGA_NGATHER && why.empty(); g++)
				{
					bool		null;
					const int64_t want = jga_value(in, out, jga_gather[g], r, ii,
												   kind == JGA_HOST, &null);
					const int64_t v = gval[(uint64_t) g * max_pairs + i];
					const uint8_t n = gnull[(uint64_t) g * max_pairs + i];

					if (n != (uint8_t) null || v != want)
						why = jga_fmt("pass %d entry %u (outer %lld, kind %lld, inner %lld): "
									  "column %u (%d) = %lld null %u, want %lld null %d",
									  pass, i, (long long) r, (long long) kind, (long long) ii,
									  g, jga_gather[g], (long long) v, n, (long long) want,
									  (int) null);
				}
			}
			if (!why.empty())
				break;
			if (!(res->flags & GX_RESULT_MORE))
			{
				if (res->next_row != hi - lo)
					why = jga_fmt("pass %d ends at row %u of %u", pass, res->next_row, hi - lo);
				break;
			}
			if (max_pairs == 0 || res->nsel != max_pairs)
			{
				why = jga_fmt("pass %d: more, with %u entries of %u", pass, res->nsel, max_pairs);
				break;
			}
			first_row = res->next_row;
			first_match = res->next_match;
		}
		if (out.size() == 0)
			break;
	}
	dev.release(obj[0]);
	dev.release(obj[1]);
	return why;
}

/*
 * One gathering join run on dev of a case (in, out; host: the outer
 * program carries the host qual) in algorithm alg and mode, passes of
 * max_pairs entries, outer batches of obatch rows (entry: both sides'
 * rows from cache entries), against the reference: the same entries,
 * each with its rows' values
 */
static void
jga_case_run(const JgDev &dev, const char *devname, const char *what, const JgSide &in,
			 const JgSide &out, bool host, uint32_t alg, uint32_t mode, uint32_t max_pairs,
			 uint32_t obatch, bool entry)
{
	JgSpec		sp;

	sp.alg = alg;
	sp.mode = mode;
	sp.host = host;
	sp.ibatch = 97;
	sp.obatch = obatch;
	sp.entry = entry;

	const JgSide iref = entry ? join_entry_visible(in, sp.ibatch) : in;
	const JgSide oref = entry ? join_entry_visible(out, sp.obatch) : out;
	const std::vector<JgaEntry> want = jga_reference(iref, oref, alg, mode, host);
	std::vector<JgaEntry> got;
	int			passes = 0;
	std::string why = jga_run(dev, in, out, sp, max_pairs, &got, &passes);

	std::sort(got.begin(), got.end());
	if (why.empty() && got != want)
	{
		size_t		i = 0;

		while (i < got.size() && i < want.size() && got[i] == want[i])
			i++;
		why = jga_fmt("%zu entries, want %zu; first difference at %zu", got.size(), want.size(),
					  i);
	}
	CHECK(why.empty(), "gathered join %s (%s): alg %u mode %u max_pairs %u obatch %u%s: %s",
		  what, devname, alg, mode, max_pairs, obatch, entry ? " entries" : "", why.c_str());
}

/*
 * Run one gathering join case on dev in every algorithm (hash, range,
 * merge) and mode (INNER, LEFT, SEMI, ANTI, and RIGHT / FULL's entries
 * but in a range join), in passes of few entries (3 * scale: a row's
 * matches span passes) and of room for all, in one batch; the case with
 * host rows also in batches of 61 * scale outer rows from cache entries.
 * Returns the runs.
 */
static int
jga_case_runs(const JgDev &dev, const char *devname, const char *what, const JgSide &in,
			  const JgSide &out, bool host, uint32_t scale)
{
	int			runs = 0;

	for (uint32_t alg : {GX_JOIN_HASH, GX_JOIN_RANGE, GX_JOIN_MERGE})
		for (uint32_t mode : {GX_JOIN_INNER, GX_JOIN_LEFT, GX_JOIN_SEMI, GX_JOIN_ANTI,
							  GX_JOIN_RIGHT, GX_JOIN_FULL})
		{
			if (alg == GX_JOIN_RANGE && GX_JOIN_MODE_MARKS(mode))
				continue;
			jga_case_run(dev, devname, what, in, out, host, alg, mode, 3 * scale, 1u << 30,
						 false);
			jga_case_run(dev, devname, what, in, out, host, alg, mode, 20000 * scale, 1u << 30,
						 false);
			runs += 2;
			if (!host)
				continue;
			jga_case_run(dev, devname, what, in, out, host, alg, mode, 3 * scale, 61 * scale,
						 true);
			runs++;
		}
	return runs;
}

/* ---------------------------------------------------------------------- */
/* sorted projections of cached columns (gx_projection.h)                  */
/* ---------------------------------------------------------------------- */

/*
 * A cache entry of a projection case: its first block, the key column's
 * type, keys with NULL flags; row r lies in block delta r / 7 at line
 * r % 7 + 1, except padding rows (r % 13 == 5: line 0, a non-NULL key
 * that must not become a row of the projection)
 */
struct ProjEntry
{
	uint32_t	start;
	int			keytype;
	std::vector<int64_t> keys;
	std::vector<uint8_t> nulls;
};

/* is row r of a projection case's entry a padding row? */
static bool
proj_padding(uint32_t r)
{
	return r % 13 == 5;
}

/* the row map value of row r of an entry */
static uint32_t
proj_map(uint32_t r)
{
	return (r / 7) << 16 | (proj_padding(r) ? 0 : r % 7 + 1);
}

/* the entry image of e: key values at 0, their NULL bitmap, the row map (offsets out) */
static std::vector<uint64_t>
proj_entry_image(const ProjEntry &e, uint64_t *nulls_off, uint64_t *map_off)
{
	const uint32_t n = (uint32_t) e.keys.size();
	const uint32_t w = e.keytype == GX_INT2 ? 2 : e.keytype == GX_INT4 ? 4 : 8;
	std::vector<uint64_t> img;

	*nulls_off = GX_ALIGN_UP((uint64_t) n * w);
	*map_off = GX_ALIGN_UP(*nulls_off + gx_bitmap_bytes(n));
	img.assign((*map_off + 4 * (uint64_t) n) / 8 + 2, 0);

	char	   *base = (char *) img.data();
	uint32_t   *bm = (uint32_t *) (base + *nulls_off);
	uint32_t   *map = (uint32_t *) (base + *map_off);

	for (uint32_t r = 0; r < n; r++)
	{
		if (w == 2)
			((int16_t *) base)[r] = (int16_t) e.keys[r];
		else if (w == 4)
			((int32_t *) base)[r] = (int32_t) e.keys[r];
		else
			((int64_t *) base)[r] = e.keys[r];
		if (e.nulls[r])
			bm[r / 32] |= 1u << (r % 32);
		map[r] = proj_map(r);
	}
	return img;
}

/* a projection's position of row r of entry e: its TID, block << 16 | line */
static int64_t
proj_position(const ProjEntry &e, uint32_t r)
{
	return ((int64_t) e.start << 16) + proj_map(r);
}

/*
 * Build the projection of entries with run (bound to a zeroed table of
 * gx_jrange_table_bytes(cap)): a JOIN_BUILD task per entry (the program
 * of gx_proj_build_program, a zero skip bitmap: its padding rows are
 * skipped), then FINISH; *rows the rows FINISH placed; false on failure
 */
static bool
proj_build_all(const JoinRunner &run, const std::vector<ProjEntry> &entries, uint32_t cap,
			   uint64_t *rows)
{
	for (const ProjEntry &e : entries)
	{
		const uint32_t n = (uint32_t) e.keys.size();
		const uint32_t nblocks = (n + 6) / 7;
		uint64_t	nulls_off,
					map_off;
		std::vector<uint64_t> img = proj_entry_image(e, &nulls_off, &map_off);
		const uint64_t skip_off = GX_ALIGN_UP(sizeof(gx_chunk));
		const uint64_t in = GX_ALIGN_UP(skip_off + 4 * (uint64_t) ((nblocks + 31) / 32));
		const uint64_t cap_bytes = in + gx_result_bytes(n) + 4096;
		std::vector<uint64_t> mem(cap_bytes / 8 + 1, 0);
		gx_chunk   *c = (gx_chunk *) mem.data();

		c->magic = GX_CHUNK_MAGIC;
		c->kind = GX_TASK_JOIN_BUILD;
		gx_proj_build_program(c, 1, cap, e.keytype, 0, nulls_off, map_off, e.start);
		c->nrows = n;
		c->ext.entry = 0;
		c->ext.skip_blocks = nblocks;
		c->ext.skip_off = nblocks > 0 ? skip_off : 0;
		c->input_bytes = in;
		c->result_off = in;
		if (!run(c, cap_bytes, img.data(), img.size() * 8) ||
			gx_chunk_result(c)->error != GX_NO_ERROR || gx_chunk_result(c)->nsel != 0)
			return false;
	}

	JoinSpec	js = search_spec(cap);
	std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
	gx_chunk   *fin = join_finish_task(fm.data(), js);

	if (!run(fin, join_finish_bytes(), nullptr, 0) ||
		gx_chunk_result(fin)->error != GX_NO_ERROR)
		return false;
	*rows = gx_chunk_result(fin)->join_count;
	return true;
}

/*
 * Probe a built projection (cap rows) with keys / knull through run in
 * tasks of at most max_pairs entries each (passes): the (probe, position)
 * pairs, sorted; false on failure
 */
static bool
proj_probe_all(const JoinRunner &run, uint32_t cap, const std::vector<int64_t> &keys,
			   const std::vector<uint8_t> &knull, uint32_t max_pairs,
			   std::vector<std::pair<uint32_t, int64_t>> *out)
{
	const uint32_t n = (uint32_t) keys.size();
	const uint64_t vals_off = GX_ALIGN_UP(sizeof(gx_chunk));
	const uint64_t nulls_off = GX_ALIGN_UP(vals_off + 8 * (uint64_t) n);
	const uint64_t in = GX_ALIGN_UP(nulls_off + gx_bitmap_bytes(n));
	const uint64_t cap_bytes = in + gx_join_probe_result_bytes(n, max_pairs, GX_JOIN_RANGE);
	uint32_t	first_row = 0,
				first_match = 0;

	out->clear();
	for (int pass = 0; pass < 1000000; pass++)
	{
		std::vector<uint64_t> mem(cap_bytes / 8 + 1, 0);
		gx_chunk   *c = (gx_chunk *) mem.data();

		c->magic = GX_CHUNK_MAGIC;
		c->kind = GX_TASK_JOIN_PROBE;
		c->ext.entry = -1;
		gx_proj_probe_program(c, 1, cap, first_row, first_match, max_pairs);
		c->nrows = n;
		c->cols[0].values_off = vals_off;
		c->cols[0].nulls_off = nulls_off;
		for (uint32_t i = 0; i < n; i++)
		{
			((int64_t *) ((char *) c + vals_off))[i] = knull[i] ? 0 : keys[i];
			if (knull[i])
				((uint32_t *) ((char *) c + nulls_off))[i / 32] |= 1u << (i % 32);
		}
		c->input_bytes = in;
		c->result_off = in;
		if (!run(c, cap_bytes, nullptr, 0))
			return false;

		const gx_result *r = gx_chunk_result(c);
		const gx_join_pair *p = (const gx_join_pair *) ((const char *) r +
														gx_join_pairs_off(n, GX_JOIN_RANGE));

		if (r->error != GX_NO_ERROR || r->nsel > max_pairs)
			return false;
		for (uint32_t i = 0; i < r->nsel; i++)
			out->push_back({p[i].outer, p[i].inner});
		if (!(r->flags & GX_RESULT_MORE))
		{
			std::sort(out->begin(), out->end());
			return true;
		}
		first_row = r->next_row;
		first_match = r->next_match;
	}
	return false;
}

/* the pairs a projection of entries gives keys / knull: (probe, position), sorted */
static std::vector<std::pair<uint32_t, int64_t>>
proj_reference(const std::vector<ProjEntry> &entries, const std::vector<int64_t> &keys,
			   const std::vector<uint8_t> &knull, uint64_t *rows)
{
	std::unordered_multimap<int64_t, int64_t> at;
	std::vector<std::pair<uint32_t, int64_t>> want;

	*rows = 0;
	for (const ProjEntry &e : entries)
		for (uint32_t r = 0; r < e.keys.size(); r++)
			if (!e.nulls[r] && !proj_padding(r))
			{
				at.insert({e.keys[r], proj_position(e, r)});
				(*rows)++;
			}
	for (uint32_t i = 0; i < keys.size(); i++)
	{
		if (knull[i])
			continue;
		auto		range = at.equal_range(keys[i]);

		for (auto it = range.first; it != range.second; ++it)
			want.push_back({i, it->second});
	}
	std::sort(want.begin(), want.end());
	return want;
}

/*
 * The projection cases (sizes times scale): int2, int4 and int8 keys (int8
 * with its extremes), repeated keys, NULL keys and padding rows, entries
 * whose first blocks put positions past 2^16 and 2^32 blocks' worth, no
 * entry rows; probes present, absent, NULL, repeated.  fn(what, entries,
 * keys, knull) runs each.
 */
typedef std::function<void(const char *what, const std::vector<ProjEntry> &entries,
						   const std::vector<int64_t> &keys,
						   const std::vector<uint8_t> &knull)> ProjCaseFn;

static void
proj_cases(std::mt19937_64 &rng, uint32_t scale, const ProjCaseFn &fn)
{
	const uint32_t starts[] = {0, 5000, 70000, 4000000000u};

	for (int keytype : {GX_INT2, GX_INT4, GX_INT8})
		for (int shape = 0; shape < 3; shape++)
		{
			std::vector<ProjEntry> entries;
			std::vector<int64_t> keys;
			std::vector<uint8_t> knull;
			const int64_t range = shape == 0 ? 50 : shape == 1 ? 30000 : 3;
			char		what[96];

			for (uint32_t s : starts)
			{
				ProjEntry	e;
				const uint32_t n = s == 5000 ? 0 : (uint32_t) (rng() % (3000 * scale)) + 1;

				e.start = s;
				e.keytype = keytype;
				for (uint32_t r = 0; r < n; r++)
				{
					int64_t		k = (int64_t) (rng() % (uint64_t) range) - range / 2;

					if (keytype == GX_INT8 && r % 97 == 3)
						k = r % 2 ? INT64_MAX : INT64_MIN;
					else if (keytype == GX_INT2 && r % 89 == 3)
						k = r % 2 ? INT16_MAX : INT16_MIN;
					e.keys.push_back(k);
					e.nulls.push_back(rng() % 10 == 0);
				}
				entries.push_back(e);
			}
			for (uint32_t i = 0; i < 500 * scale; i++)
			{
				keys.push_back((int64_t) (rng() % (uint64_t) (range + 20)) - range / 2 - 10);
				knull.push_back(rng() % 20 == 0);
			}
			keys.push_back(keytype == GX_INT8 ? INT64_MAX : keytype == GX_INT2 ? INT16_MAX : 0);
			keys.push_back(keytype == GX_INT8 ? INT64_MIN : keytype == GX_INT2 ? INT16_MIN : 0);
			knull.push_back(0);
			knull.push_back(0);
			snprintf(what, sizeof(what), "int%d keys, %s", keytype == GX_INT2 ? 2 :
					 keytype == GX_INT4 ? 4 : 8,
					 shape == 0 ? "50 values" : shape == 1 ? "30000 values" : "3 values");
			fn(what, entries, keys, knull);
		}
}

/* rows of a projection case: its entries' rows, at least 1 (the table's cap) */
static uint32_t
proj_cap(const std::vector<ProjEntry> &entries)
{
	uint32_t	n = 0;

	for (const ProjEntry &e : entries)
		n += (uint32_t) e.keys.size();
	return n > 0 ? n : 1;
}

/* ---------------------------------------------------------------------- */
/* GROUP_MERGE: one group table's groups into another (several devices)   */
/* ---------------------------------------------------------------------- */

/*
 * The group tables of the merge cases: one key (int8, NULLs) and the
 * aggregates of gm_set_aggs over the outputs v int8 (NULLs, INT64_MAX
 * counted apart, values near the int8 limits: carries into the high
 * word), f float8 (NULLs, near fbase: the tables' FVAR shifts differ), w
 * int4 (NULLs) and w > 0 (a FILTER).  test_interp merges on the CPU device
 * against the reference, test_kernel on the GPU against the CPU device
 * and the reference, and a table of GPU 1 into one of GPU 0.
 */
#define GM_NAGG 14

struct GmRows
{
	std::vector<int64_t> k,
				v,
				w;
	std::vector<double> f;
	std::vector<uint8_t> kn,
				vn,
				fn,
				wn;
};

/* n rows of keys k0 .. k0 + nkeys - 1 (and NULL), floats near fbase */
static GmRows
gm_rows(std::mt19937_64 &rng, uint32_t n, int64_t k0, int64_t nkeys, double fbase)
{
	GmRows		r;

	for (uint32_t i = 0; i < n; i++)
	{
		uint64_t	x = rng();

		r.k.push_back(k0 + (int64_t) (rng() % (uint64_t) nkeys));
		r.kn.push_back(x % 53 == 0);
		r.v.push_back(x % 7 == 0 ? INT64_MAX :
					  x % 7 == 1 ? 9000000000000000000ll - (int64_t) (rng() % 1000) :
					  x % 7 == 2 ? -9000000000000000000ll + (int64_t) (rng() % 1000) :
					  (int64_t) (rng() % 20001) - 10000);
		r.vn.push_back(x % 11 == 0);
		r.f.push_back(fbase + (double) (rng() % 100001) / 8.0);
		r.fn.push_back(x % 13 == 0);
		r.w.push_back((int64_t) (rng() % 2001) - 1000);
		r.wn.push_back(x % 17 == 0);
	}
	return r;
}

/* the aggregates of the merge cases' tables (as the executor shares counts) */
static void
gm_set_aggs(gx_chunk_ext *x)
{
	const gx_agg aggs[GM_NAGG] = {
		{GX_AGG_COUNT, -1, 0, 0},	/* count(*) */
		{GX_AGG_SUM128, 1, 0, 0}, {GX_AGG_HI, 1, 0, 0},	/* sum(v) */
		{GX_AGG_MIN, 1, 0, 0}, {GX_AGG_MAX, 1, 0, 4},	/* min(v), max(v): min's count */
		{GX_AGG_FVAR, 2, 0, 0}, {GX_AGG_FPART, 2, 0, 0}, {GX_AGG_FPART, 2, 0, 0},	/* var(f) */
		{GX_AGG_FSUM, 2, 0, 0}, {GX_AGG_FMIN, 2, 0, 0}, {GX_AGG_FMAX, 2, 0, 0},
		{GX_AGG_SUM, 3, 0, 0}, {GX_AGG_COUNT, 3, 0, 12},	/* sum(w), count(w) */
		{GX_AGG_COUNT, -1, 5, 0}	/* count(*) FILTER (WHERE w > 0) */
	};

	x->nagg = GM_NAGG;
	memcpy(x->agg, aggs, sizeof(aggs));
}

/* the group-mode task of rows r into table obj[0] of cap slots (limit cap / 2) */
static gx_chunk *
gm_task(ChunkBuilder &b, const GmRows &r, uint32_t cap)
{
	int			kc = b.add_int_col(GX_INT8, r.k, r.kn);
	int			vc = b.add_int_col(GX_INT8, r.v, r.vn);
	int			fc = b.add_float_col(GX_FLOAT8, r.f, r.fn);
	int			wc = b.add_int_col(GX_INT4, r.w, r.wn);

	b.emit(GX_OP_SETBOOL, GX_BOOL, 0, 0, 0, 1);
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
	b.emit(GX_OP_LDCOL, GX_INT8, 1, 0, 0, kc);
	b.emit(GX_OP_OUT, GX_INT8, 0, 1, 0, 0);
	b.emit(GX_OP_LDCOL, GX_INT8, 2, 0, 0, vc);
	b.emit(GX_OP_OUT, GX_INT8, 0, 2, 0, 1);
	b.emit(GX_OP_LDCOL, GX_FLOAT8, 3, 0, 0, fc);
	b.emit(GX_OP_OUT, GX_FLOAT8, 0, 3, 0, 2);
	b.emit(GX_OP_LDCOL, GX_INT4, 4, 0, 0, wc);
	b.emit(GX_OP_OUT, GX_INT4, 0, 4, 0, 3);
	b.emit(GX_OP_LDCONST, GX_INT4, 5, 0, 0, b.kint(GX_INT4, 0));
	b.emit(GX_OP_GT, GX_INT4, 5, 4, 5);
	b.emit(GX_OP_OUT, GX_BOOL, 0, 5, 0, 4);

	gx_chunk   *c = group_task_table(b.build(), cap, GM_NAGG);

	gm_set_aggs(&c->ext);
	return c;
}

/* bytes of a GROUP_MERGE task of n slots at mem (its slot), with room for n records */
static uint64_t
gm_merge_bytes(uint32_t n)
{
	return GX_ALIGN_UP(sizeof(gx_chunk)) + GX_ALIGN_UP(sizeof(gx_result)) +
		(uint64_t) n * gx_group_slot_bytes(1, GM_NAGG);
}

/* lay a GROUP_MERGE of source slots [row0, row0 + n) out at mem (gm_merge_bytes(n)) */
static gx_chunk *
gm_merge_task(void *mem, uint32_t cap, uint32_t row0, uint32_t n, int count_only)
{
	const uint64_t hdr = GX_ALIGN_UP(sizeof(gx_chunk));
	gx_chunk   *c = (gx_chunk *) mem;

	memset(c, 0, hdr + sizeof(gx_result));
	c->magic = GX_CHUNK_MAGIC;
	c->kind = GX_TASK_GROUP_MERGE;
	c->obj[0] = 1;
	c->obj[1] = 2;
	c->nrows = n;
	c->input_bytes = hdr;
	c->result_off = hdr;
	c->ext.entry = -1;
	c->ext.ngroup_cap = cap;
	c->ext.ngroup_limit = cap / 2;
	c->ext.ngkeys = 1;
	c->ext.gkey_col[0] = 0;
	c->ext.row0 = row0;
	c->ext.count_only = (uint32_t) count_only;
	gm_set_aggs(&c->ext);
	return c;
}

/* a group's states: exact ones, and the float sums (long double: the reference's) */
struct GmVal
{
	int64_t		rows = 0,
				nv = 0,
				nmax = 0,
				vmin = INT64_MAX,
				vmax = INT64_MIN,
				nf = 0,
				fmin = INT64_MAX,
				fmax = INT64_MIN,
				nw = 0,
				wsum = 0,
				nfilt = 0;
	__int128	vsum = 0;
	long double fsum = 0,
				fsq = 0,		/* reference: sum of squares */
				sxx = 0;		/* a table's: from its shifted sums */
};

typedef std::map<std::pair<uint32_t, int64_t>, GmVal> GmMap;

/* the reference: rows r added into want */
static void
gm_ref_add(GmMap &want, const GmRows &r)
{
	for (size_t i = 0; i < r.k.size(); i++)
	{
		GmVal	   &g = want[{r.kn[i] ? 1u : 0u, r.kn[i] ? 0 : r.k[i]}];

		g.rows++;
		if (!r.vn[i])
		{
			g.nv++;
			g.vmin = std::min(g.vmin, r.v[i]);
			g.vmax = std::max(g.vmax, r.v[i]);
			if (r.v[i] == INT64_MAX)
				g.nmax++;
			else
				g.vsum += r.v[i];
		}
		if (!r.fn[i])
		{
			g.nf++;
			g.fsum += r.f[i];
			g.fsq += (long double) r.f[i] * r.f[i];
			g.fmin = std::min(g.fmin, gx_float_ord(r.f[i]));
			g.fmax = std::max(g.fmax, gx_float_ord(r.f[i]));
		}
		if (!r.wn[i])
		{
			g.nw++;
			g.wsum += r.w[i];
			g.nfilt += r.w[i] > 0;
		}
	}
	for (auto &e : want)
		if (e.second.nf > 0)
			e.second.sxx = e.second.fsq - e.second.fsum * e.second.fsum / e.second.nf;
}

/*
 * The group of a table's READY slot (or a record) into got; false when its
 * key is there already (a group twice)
 */
static bool
gm_got_add(GmMap &got, const char *slot)
{
	const gx_agg_pair *p = (const gx_agg_pair *) (slot + 16);
	std::pair<uint32_t, int64_t> key = {((const uint32_t *) slot)[1], ((const int64_t *) slot)[1]};
	GmVal		g;
	const double s = gx_bitsd(p[6].val);

	if (got.count(key) != 0)
		return false;
	g.rows = p[0].cnt;
	g.nv = p[1].cnt + p[2].cnt;
	g.nmax = p[2].cnt;
	g.vsum = (__int128) (((unsigned __int128) (uint64_t) p[2].val << 64) | (uint64_t) p[1].val);
	g.vmin = p[3].cnt > 0 ? p[3].val : INT64_MAX;
	g.vmax = p[3].cnt > 0 ? p[4].val : INT64_MIN;
	g.nf = p[5].cnt;
	g.fsum = g.nf > 0 ? gx_bitsd(p[5].val) : 0;
	g.sxx = g.nf > 0 ? (long double) gx_bitsd(p[7].val) - (long double) s * s / g.nf : 0;
	g.fmin = p[9].cnt > 0 ? p[9].val : INT64_MAX;
	g.fmax = p[10].cnt > 0 ? p[10].val : INT64_MIN;
	g.nw = p[11].cnt;
	g.wsum = p[11].cnt > 0 ? p[11].val : 0;
	g.nfilt = p[13].cnt;
	/* (count(w) keeps no count: sum(w)'s is its own, cnt_of) */
	if (p[12].cnt != 0 || p[4].cnt != 0 || p[8].cnt != g.nf || p[10].cnt != p[9].cnt)
		g.rows = -1;			/* states that must not be */
	got[key] = g;
	return true;
}

/* the READY slots of a table's host copy (cap slots) into got; false on a group twice */
static bool
gm_table_groups(const char *table, uint32_t cap, GmMap &got, uint32_t *ngroups)
{
	const uint64_t sb = gx_group_slot_bytes(1, GM_NAGG);
	bool		ok = true;

	*ngroups = 0;
	for (uint32_t i = 0; i < cap; i++)
	{
		const char *slot = table + sizeof(gx_group_hdr) + i * sb;

		if (*(const uint32_t *) slot != GX_GSLOT_READY)
			continue;
		(*ngroups)++;
		ok &= gm_got_add(got, slot);
	}
	return ok;
}

/* the records of a finished GROUP_MERGE (its groups without room) into got */
static bool
gm_records(const gx_chunk *c, GmMap &got)
{
	const gx_result *res = gx_chunk_result((gx_chunk *) c);
	const char *rec = (const char *) res + GX_ALIGN_UP(sizeof(gx_result));
	bool		ok = true;

	for (uint32_t i = 0; i < res->nsel; i++)
		ok &= gm_got_add(got, rec + i * gx_group_slot_bytes(1, GM_NAGG));
	return ok;
}

/*
 * got against want: every group once with its exact states, its float
 * sums within 1e-9 (relative; Sxx: and 1e-3 absolute, the reference's
 * own rounding of sum^2 / n: the cases' floats are eighths, whose shifted
 * sums the devices add exactly); the first
 * difference goes to why
 */
static bool
gm_same(const GmMap &want, const GmMap &got, std::string *why)
{
	char		buf[256];

	if (want.size() != got.size())
	{
		snprintf(buf, sizeof(buf), "%zu groups, want %zu", got.size(), want.size());
		*why = buf;
		return false;
	}
	for (const auto &e : want)
	{
		auto		it = got.find(e.first);
		const GmVal &w = e.second;

		if (it == got.end())
		{
			snprintf(buf, sizeof(buf), "group (%u, %lld) missing", e.first.first,
					 (long long) e.first.second);
			*why = buf;
			return false;
		}
		const GmVal &g = it->second;
		bool		exact = g.rows == w.rows && g.nv == w.nv && g.nmax == w.nmax &&
			g.vsum == w.vsum && g.vmin == w.vmin && g.vmax == w.vmax && g.nf == w.nf &&
			g.fmin == w.fmin && g.fmax == w.fmax && g.nw == w.nw && g.wsum == w.wsum &&
			g.nfilt == w.nfilt;
		bool		close = w.nf == 0 ||
			(fabsl(g.fsum - w.fsum) <= 1e-9L * fabsl(w.fsum) &&
			 fabsl(g.sxx - w.sxx) <= 1e-9L * w.sxx + 1e-3L);

		if (!exact || !close)
		{
			snprintf(buf, sizeof(buf),
					 "group (%u, %lld): rows %lld/%lld, v %lld/%lld, f %lld/%lld, sum f %.17Lg/%.17Lg, Sxx %.17Lg/%.17Lg",
					 e.first.first, (long long) e.first.second, (long long) g.rows,
					 (long long) w.rows, (long long) g.nv, (long long) w.nv, (long long) g.nf,
					 (long long) w.nf, g.fsum, w.fsum, g.sxx, w.sxx);
			*why = buf;
			return false;
		}
	}
	return true;
}

/* the merge cases: keys of tables A and B (overlapping or not), slots, rows */
struct GmCase
{
	const char *name;
	int64_t		a0,
				na,				/* A's keys: a0 .. a0 + na - 1 */
				b0,
				nb;				/* B's */
	uint32_t	cap,
				rows_a,
				rows_b,
				ranges;			/* merge tasks, each a range of B's slots */
	int			count_only;
};

static const GmCase gm_cases[] = {
	{"overlapping keys", 0, 300, 150, 300, 1024, 20000, 15000, 1, 0},
	{"in 3 ranges", 0, 300, 150, 300, 1024, 20000, 15000, 3, 0},
	{"destination full", 0, 500, 250, 500, 1024, 20000, 20000, 2, 0},
	{"destination full, counted only", 0, 500, 250, 500, 1024, 20000, 20000, 1, 1},
	{"disjoint keys, one group each", 0, 1, 1000, 1, 64, 500, 700, 1, 0},
	{"empty source", 0, 200, 0, 1, 1024, 5000, 0, 1, 0},
	{"many groups", 0, 60000, 30000, 60000, 1u << 18, 200000, 200000, 4, 0},
};

#endif							/* GX_TEST_H */
