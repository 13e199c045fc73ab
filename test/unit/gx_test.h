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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <random>
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

/* ---------------------------------------------------------------------- */
/* chunk builder: lays out a chunk exactly as gx_program.h describes       */
/* ---------------------------------------------------------------------- */

struct TestCol
{
	int			type;
	std::vector<int64_t> iv;	/* integer / bool values */
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

#endif							/* GX_TEST_H */
