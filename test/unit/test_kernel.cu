/*
 * test_kernel.cu - compares the GPU device (gx_gpu.cu) with the CPU device
 * (gx_cpu.cpp) on random programs and chunks (column chunks and chunks of
 * raw heap pages), in both transfer modes (copy, and mapped: zero-copy
 * through the mapped staging area) and with both modes in flight together,
 * and measures the filter kernel's memory bandwidth against a
 * device-to-device copy and a plain read kernel, and reading the chunk
 * over PCIe in mapped mode.  Aggregates go to state objects (gx_mem_alloc)
 * and are read back with AGG_READ tasks on both devices; cache entries are
 * gx_mem_alloc blocks of each device.  Hash joins (JOIN_BUILD / FINISH /
 * PROBE, gx_join.cuh) run on both devices against a reference, and their
 * kernels are timed (GX_BW_ONLY figures).  Built with nvcc:
 * make test/unit/test_kernel
 * Without a GPU it prints "test_kernel: skipped (no GPU)" and exits 0, or,
 * with GX_REQUIRE_GPU=1 in the environment, fails (exit 1).
 *
 * GX_TEST_PARTS (a comma-separated list; default: all) runs only some of
 * the comparisons, so that a GPU host's 10-minute call can hold one share
 * of them: random (random programs, all transfer modes and the JIT),
 * types (integer edges, dates, big sets, numeric, char8), pages, cache, group
 * (aggregate reads, group tables, float and exact-variance groups), join,
 * jgroup (aggregation over a join: group probes on both devices against
 * a nested-loop reference, the cache-entry shape over GX_JG_SEEDS seeds,
 * the ordering of uploads into new pool blocks, and the group probe's
 * throughput figure),
 * validation (malformed tasks, pool memory), bandwidth (the GX_BW_ONLY
 * figures, the group probe's too), search (SEARCH: sorted projections,
 * binary and p-ary lookups, GPU = CPU = reference), projection (a cached
 * column's sorted projection: gx_projection.h's build and lookup tasks
 * over cache entries, GPU = CPU = reference), sets_search (big
 * sets of 1, 2, 1000 and 1M values with top keys in shared memory, binary
 * and p-ary, after an AND and two sets in one interpreter step, the
 * interpreter and the JIT: GPU = CPU = std::binary_search), search_bench
 * (Kaldewey's Table 1 and Figure 8 as markdown tables: figures only),
 * ptree_lookup (TREE_LOOKUP: prefix-tree images, the sequential walk and
 * speculative partitioned traversal, GPU = CPU = std::multimap; GPU = CPU
 * on malformed images; refusals), ptree_bench (Böhm et al.'s Figure 8 as
 * markdown tables: keys/s of the walk against speculative traversal for
 * batches of 16 to 1M keys and three skews; figures only), multigpu (two
 * GPUs on one staging area: random programs on the second, a group table
 * of the second merged into one of the first (GROUP_MERGE through peer
 * access), chunks of both adding into one state on the first through peer
 * access, read by a task that follows both GPUs' tasks; join tables built
 * on the first, copied to the second by OBJ_COPY and probed there, GPU =
 * CPU = reference; the copy's figures for 16M-row tables; skipped with
 * one GPU).  Part group also runs the GROUP_MERGE cases on one GPU; part
 * join also probes replicas copied within the GPU.
 * GX_BW_ONLY=1 is GX_TEST_PARTS=bandwidth.
 */
#include "gx_api.h"
#include "gx_eval.cuh"
#include "gx_deform.cuh"			/* gx_numeric_free_encode (gx_test.h) */
#include "gx_group.cuh"			/* gx_gkey_hash: a pass's partition */

#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <array>
#include <chrono>
#include <limits>
#include <map>
#include <random>
#include <thread>
#include <vector>

#include "gx_test.h"
#include "gx_test_ptree.h"
#include "gx_sets_test.h"

/* the GPU (CUDA ordinal) the parts below run on; "multigpu" runs some on each */
static int	g_gpu = 0;

/* ---------------------------------------------------------------------- */
/* random programs                                                        */
/* ---------------------------------------------------------------------- */

static const int num_types[] = {GX_INT2, GX_INT4, GX_INT8, GX_FLOAT4, GX_FLOAT8};

/*
 * the types of the random programs' columns: bool .. float8 (numeric has
 * its own test, test_numeric, with an exact reference)
 */
#define GX_TEST_NTYPES GX_NUMERIC

struct ProgGen
{
	ChunkBuilder &b;
	std::mt19937_64 &rng;
	int			colof[GX_TEST_NTYPES];	/* column index per type */
	int			nextreg = 0;

	ProgGen(ChunkBuilder &b_, std::mt19937_64 &rng_) : b(b_), rng(rng_) {}

	double		u()
	{
		return (double) (rng() >> 11) / 9007199254740992.0;
	}
	int			reg()
	{
		return nextreg++ % GX_MAX_REGS;
	}
	int			constant(int t)
	{
		switch (t)
		{
			case GX_INT2:
				return b.kint(t, (int64_t) (rng() % 201) - 100, u() < 0.03);
			case GX_INT4:
				return b.kint(t, (int64_t) (rng() % 20001) - 10000, u() < 0.03);
			case GX_INT8:
				return b.kint(t, u() < 0.05 ? std::numeric_limits<int64_t>::max() / 3 :
							  (int64_t) (rng() % 2000001) - 1000000, u() < 0.03);
			default:
				{
					double		v = (u() - 0.5) * 2000.0;

					if (u() < 0.05)
						v = u() < 0.5 ? 1e30 : NAN;
					return b.kfloat(t, v, u() < 0.03);
				}
		}
	}
	int			num(int t, int depth)
	{
		double		r = u();

		if (depth <= 0 || r < 0.4)
		{
			int			d = reg();

			if (u() < 0.6)
				b.emit(GX_OP_LDCOL, t, d, 0, 0, colof[t]);
			else
				b.emit(GX_OP_LDCONST, t, d, 0, 0, constant(t));
			return d;
		}
		if (r < 0.85)
		{
			int			nops = t <= GX_INT8 ? 5 : 4;
			int			op = GX_OP_ADD + (int) (rng() % nops);
			int			x = num(t, depth - 1);
			int			y = num(t, depth - 1);
			int			d = reg();

			b.emit(op, t, d, x, y);
			return d;
		}
		if (r < 0.9)
		{
			int			x = num(t, depth - 1);
			int			d = reg();

			b.emit(GX_OP_NEG, t, d, x);
			return d;
		}
		int			s = num_types[rng() % 5];
		int			x = num(s, depth - 1);
		int			d = reg();

		b.emit(GX_OP_CAST, t, d, x, 0, s);
		return d;
	}
	int			boolean(int depth)
	{
		double		r = u();

		if (depth <= 0 || r < 0.45)
		{
			if (u() < 0.1)
			{
				int			d = reg();

				b.emit(GX_OP_LDCOL, GX_BOOL, d, 0, 0, colof[GX_BOOL]);
				return d;
			}
			int			t = num_types[rng() % 5];
			int			x = num(t, depth - 1);
			int			y = num(t, depth - 1);
			int			d = reg();

			b.emit(GX_OP_EQ + (int) (rng() % 6), t, d, x, y);
			return d;
		}
		if (r < 0.8)
		{
			bool		isand = u() < 0.5;
			int			acc = reg();
			int			narms = 2 + (int) (rng() % 2);
			std::vector<int> steps;

			b.emit(GX_OP_SETBOOL, GX_BOOL, acc, 0, 0, isand ? 1 : 0);
			for (int i = 0; i < narms; i++)
			{
				int			x = boolean(depth - 1);

				steps.push_back(b.emit(isand ? GX_OP_ANDSTEP : GX_OP_ORSTEP, GX_BOOL, acc, x));
			}
			for (int s : steps)
				b.code[s].jump = (int16_t) b.code.size();
			return acc;
		}
		int			x = boolean(depth - 1);
		int			d = reg();
		static const int unops[] = {GX_OP_NOT, GX_OP_ISNULL, GX_OP_ISNOTNULL, GX_OP_ISTRUE,
		GX_OP_ISNOTTRUE, GX_OP_ISFALSE, GX_OP_ISNOTFALSE};

		b.emit(unops[rng() % 7], GX_BOOL, d, x);
		return d;
	}
};

/* fill b with random columns of every type, nrows rows */
static void
random_columns(ChunkBuilder &b, ProgGen &g, std::mt19937_64 &rng, uint32_t nrows)
{
	bool		nonzero = g.u() < 0.7;	/* mostly avoid division by zero */
	bool		hasnull = g.u() < 0.7;
	double		nullfrac = g.u() * 0.3;

	for (int t = GX_BOOL; t < GX_TEST_NTYPES; t++)
	{
		std::vector<int64_t> iv;
		std::vector<double> dv;
		std::vector<uint8_t> nl;

		for (uint32_t i = 0; i < nrows; i++)
		{
			nl.push_back(hasnull && g.u() < nullfrac);
			switch (t)
			{
				case GX_BOOL:
					iv.push_back(rng() & 1);
					break;
				case GX_INT2:
				case GX_INT4:
				case GX_INT8:
					{
						int64_t		range = t == GX_INT2 ? 150 : t == GX_INT4 ? 40000 : 3000000;
						int64_t		v = (int64_t) (rng() % (2 * range + 1)) - range;

						if (nonzero && v == 0)
							v = 1;
						if (t == GX_INT8 && g.u() < 0.0005)
							v = std::numeric_limits<int64_t>::min() + 5;
						iv.push_back(v);
					}
					break;
				default:
					{
						double		v = (g.u() - 0.5) * 2000.0;
						double		x = g.u();

						if (x < 0.001)
							v = NAN;
						else if (x < 0.002)
							v = INFINITY;
						else if (x < 0.003)
							v = 1e-30;
						else if (nonzero && v == 0.0)
							v = 1.0;
						dv.push_back(v);
					}
					break;
			}
		}
		g.colof[t] = t <= GX_INT8 ? b.add_int_col(t, iv, nl) : b.add_float_col(t, dv, nl);
	}
}

/* selection of a finished chunk, tile by tile; false if the layout is bad */
static bool
tile_selection(gx_chunk *c, std::vector<uint32_t> &out)
{
	gx_result  *res = gx_chunk_result(c);
	uint32_t   *seg_off = gx_result_seg_off(res);
	uint32_t   *seg_cnt = gx_result_seg_cnt(res);
	uint32_t   *sel = gx_result_sel(res);
	uint64_t	total = 0;

	out.clear();
	if (res->ntiles != gx_ntiles(c->nrows) || res->nsel > c->nrows)
		return false;
	for (uint32_t t = 0; t < res->ntiles; t++)
	{
		if ((uint64_t) seg_off[t] + seg_cnt[t] > res->nsel || seg_cnt[t] > GX_TILE_ROWS)
			return false;
		total += seg_cnt[t];
		for (uint32_t i = 0; i < seg_cnt[t]; i++)
			out.push_back(sel[seg_off[t] + i]);
	}
	return total == res->nsel;
}

/* poll slot of GPU gpu until done; false on an error */
static bool
poll_gpu_until_done(int gpu, int slot, char *err, size_t errlen)
{
	for (;;)
	{
		int			done = 0;

		if (gx_gpu_poll(gpu, slot, &done, err, errlen) != GX_OK)
			return false;
		if (done)
			return true;
	}
}

/* poll slot of the GPU under test until done */
static bool
poll_until_done(int slot, char *err, size_t errlen)
{
	return poll_gpu_until_done(g_gpu, slot, err, errlen);
}

/* run a task on the CPU device (slot_bytes: its slot); prints the error */
static gx_status
cpu_run(gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx = nullptr)
{
	char		err[512];
	gx_status	st = gx_cpu_run(c, slot_bytes, ctx, err, sizeof(err));

	if (st != GX_OK)
		fprintf(stderr, "gx_cpu_run: %s\n", err);
	return st;
}

/* lay an AGG_READ task of nagg aggregates out at mem; returns its slot bytes */
static uint64_t
build_agg_read(void *mem, uint32_t nagg)
{
	uint64_t	off = GX_ALIGN_UP(sizeof(gx_chunk));
	gx_chunk   *c = (gx_chunk *) mem;

	memset(mem, 0, off + gx_result_bytes(0));
	c->magic = GX_CHUNK_MAGIC;
	c->kind = GX_TASK_AGG_READ;
	c->obj[0] = 1;
	c->input_bytes = off;
	c->result_off = off;
	c->ext.nagg = nagg;
	return off + gx_result_bytes(0);
}

/* an aggregate state object on each device, and the contexts naming them */
struct AggStates
{
	void	   *gpu = nullptr;
	void	   *cpu = nullptr;
	gx_task_ctx gctx;
	gx_task_ctx cctx;

	bool		open()
	{
		char		err[512];

		memset(&gctx, 0, sizeof(gctx));
		memset(&cctx, 0, sizeof(cctx));
		CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, GX_AGG_STATE_BYTES, &gpu, err, sizeof(err)) == GX_OK,
			  "GPU state object: %s", err);
		CHECK(gx_mem_alloc(GX_DEV_CPU, GX_AGG_STATE_BYTES, &cpu, err, sizeof(err)) == GX_OK,
			  "CPU state object: %s", err);
		gctx.obj[0] = (char *) gpu;
		gctx.obj_bytes[0] = GX_AGG_STATE_BYTES;
		cctx.obj[0] = (char *) cpu;
		cctx.obj_bytes[0] = GX_AGG_STATE_BYTES;
		return gpu != nullptr && cpu != nullptr;
	}
	void		close()
	{
		gx_mem_free(GX_DEV_GPU + g_gpu, gpu);
		gx_mem_free(GX_DEV_CPU, cpu);
		gpu = cpu = nullptr;
	}
};

/*
 * Read both state objects with AGG_READ (GPU: staging slot 0), which zeroes
 * them; with compare, the totals of nagg aggregates must agree.  The GPU
 * totals go to val / cnt when given.
 */
static void
agg_read_both(void *staging, AggStates &a, uint32_t nagg, bool compare, const char *what,
			  int64_t *val = nullptr, int64_t *cnt = nullptr)
{
	char		err[512];
	std::vector<uint64_t> cmem(GX_ALIGN_UP(sizeof(gx_chunk)) / 8 + gx_result_bytes(0) / 8 + 2);
	uint64_t	slot = build_agg_read(staging, nagg);
	gx_chunk   *cc = (gx_chunk *) cmem.data();
	gx_result  *gr = gx_chunk_result((gx_chunk *) staging);
	gx_result  *cr;

	build_agg_read(cc, nagg);
	cr = gx_chunk_result(cc);
	CHECK(gx_gpu_submit(g_gpu, 0, &a.gctx, err, sizeof(err)) == GX_OK, "%s: AGG_READ submit: %s", what, err);
	CHECK(poll_until_done(0, err, sizeof(err)), "%s: AGG_READ poll: %s", what, err);
	CHECK(cpu_run(cc, slot, &a.cctx) == GX_OK, "%s: CPU AGG_READ", what);
	CHECK(gr->flags == GX_RESULT_GPU && gr->ntiles == 0 && gr->nsel == 0 &&
		  gr->error == GX_NO_ERROR, "%s: AGG_READ result flags %x ntiles %u nsel %u", what,
		  gr->flags, gr->ntiles, gr->nsel);
	for (uint32_t i = 0; compare && i < nagg; i++)
		CHECK(gr->agg_val[i] == cr->agg_val[i] && gr->agg_cnt[i] == cr->agg_cnt[i],
			  "%s: aggregate %u gpu %lld/%lld cpu %lld/%lld", what, i,
			  (long long) gr->agg_val[i], (long long) gr->agg_cnt[i],
			  (long long) cr->agg_val[i], (long long) cr->agg_cnt[i]);
	for (uint32_t i = 0; i < nagg; i++)
	{
		if (val)
			val[i] = gr->agg_val[i];
		if (cnt)
			cnt[i] = gr->agg_cnt[i];
	}
}

/* print the JIT counters of the GPU device */
static void
jit_report(const char *what)
{
	uint64_t	compiled,
				failed;
	double		ms;
	char		log[256];

	gx_gpu_jit_stats(&compiled, &failed, &ms, log, sizeof(log));
	printf("jit after %s: %llu programs compiled (%.1f ms each on average), %llu failed%s%s\n",
		   what, (unsigned long long) compiled, compiled ? ms / compiled : 0.0,
		   (unsigned long long) failed, failed ? ": " : "", failed ? log : "");
	CHECK(failed == 0, "no program failed to compile");
}

/* transfer modes a test runs in */
enum
{
	MODE_COPY = 0,
	MODE_MAPPED,
	MODE_MIXED,					/* slots alternate copy and mapped */
	MODE_JIT,					/* mixed, with kernels compiled per program */
	NMODES
};

static const char *const mode_name[NMODES] = {"copy", "mapped", "mixed", "jit"};

/* is mapped transfer available (gx_gpu_info.mapped of the open device) */
static int	g_mapped_ok = 0;

/* chunk flags for slot s in mode m */
static uint32_t
mode_flags(int m, int s)
{
	if (m == MODE_JIT)
		return (s % 2 == 1 ? GX_CHUNK_MAPPED : 0) | GX_CHUNK_JIT | GX_CHUNK_JIT_WAIT;
	if (m == MODE_MAPPED || (m == MODE_MIXED && s % 2 == 1))
		return GX_CHUNK_MAPPED;
	return 0;
}

/*
 * Check the mode that ran and its statistics: the result flags say GPU,
 * and mapped exactly when mapped was asked for and is available; mapped
 * runs move no bytes by copy (bytes_h2d: the input the kernels read).
 * A chunk that asks for its compiled kernel and waits for it must have run
 * it (the GPU host has NVRTC).
 */
static void
check_mode(gx_chunk *gc, uint32_t flags, const char *what)
{
	gx_result  *gr = gx_chunk_result(gc);
	bool		mapped = (flags & GX_CHUNK_MAPPED) && g_mapped_ok;
	uint32_t	want = GX_RESULT_GPU | (mapped ? GX_RESULT_MAPPED : 0) |
		((flags & GX_CHUNK_JIT_WAIT) && gc->nrows > 0 ? GX_RESULT_JIT : 0);
	uint64_t	hdr = GX_ALIGN_UP(sizeof(gx_result)) + (uint64_t) gx_ntiles(gc->nrows) * 8;

	CHECK(gr->flags == want, "%s: result flags %x, want %x", what, gr->flags, want);
	CHECK(gr->bytes_h2d == gc->input_bytes, "%s: bytes_h2d %llu, input %llu", what,
		  (unsigned long long) gr->bytes_h2d, (unsigned long long) gc->input_bytes);
	CHECK(gr->bytes_d2h == hdr + (uint64_t) gr->nsel * 4, "%s: bytes_d2h %llu", what,
		  (unsigned long long) gr->bytes_d2h);
	if (mapped)
		CHECK(gr->h2d_ns == 0 && gr->d2h_ns == 0, "%s: mapped run has no copy time", what);
	CHECK(gr->kernel_ns > 0 || gc->nrows == 0, "%s: kernel_ns set", what);
}

/* int8 + - * and int4 / % on edge values, one row per chunk, GPU vs CPU */
static void
test_int_edges(void *staging, size_t slot_bytes, int mode)
{
	const int64_t I8MAX = std::numeric_limits<int64_t>::max();
	const int64_t I8MIN = std::numeric_limits<int64_t>::min();
	const int64_t edges[] = {0, 1, -1, 2, -2, 3037000499LL, -3037000499LL, 3037000500LL,
		4294967296LL, -4294967296LL, I8MAX, I8MIN, I8MAX - 1, I8MIN + 1, I8MAX / 2,
		I8MIN / 2, I8MAX / 2 + 1, 2147483647, -2147483648LL, 65536, -65536, 32768, 46341, -46341};
	const int	nedge = sizeof(edges) / sizeof(edges[0]);
	char		err[512];
	int			mismatches = 0,
				runs = 0;

	for (int t : {GX_INT8, GX_INT4})
		for (int op = GX_OP_ADD; op <= GX_OP_MOD; op++)
			for (int i = 0; i < nedge; i++)
				for (int j = 0; j < nedge; j++)
				{
					int64_t		x = edges[i],
								y = edges[j];

					if (t == GX_INT4 && (x != (int32_t) x || y != (int32_t) y))
						continue;
					ChunkBuilder b;
					int			ca = b.add_int_col(t, {x});
					int			cb = b.add_int_col(t, {y});
					int			k = b.kint(t, 12345);

					b.emit(GX_OP_LDCOL, t, 0, 0, 0, ca);
					b.emit(GX_OP_LDCOL, t, 1, 0, 0, cb);
					b.emit(op, t, 2, 0, 1);
					b.emit(GX_OP_LDCONST, t, 3, 0, 0, k);
					b.emit(GX_OP_GT, t, 4, 2, 3);
					b.emit(GX_OP_QUAL, GX_BOOL, 0, 4);
					gx_chunk   *c = b.build();

					memcpy(staging, c, b.capacity);
					((gx_chunk *) staging)->flags = mode_flags(mode, runs);
					cpu_run(c, b.capacity);
					bool		ok = gx_gpu_submit(g_gpu, 0, nullptr, err, sizeof(err)) == GX_OK &&
						poll_until_done(0, err, sizeof(err));
					gx_result  *gr = gx_chunk_result((gx_chunk *) staging);
					gx_result  *cr = gx_chunk_result(c);
					bool		want_mapped = (mode_flags(mode, runs) & GX_CHUNK_MAPPED) && g_mapped_ok;

					runs++;
					if (!ok || gr->error != cr->error || gr->nsel != cr->nsel ||
						((gr->flags & GX_RESULT_MAPPED) != 0) != want_mapped)
					{
						if (mismatches++ < 10)
							fprintf(stderr, "edge mismatch (%s) type %d op %d: %lld, %lld: cpu err %llx nsel %u, gpu err %llx nsel %u flags %x %s\n",
									mode_name[mode], t, op, (long long) x, (long long) y,
									(unsigned long long) cr->error, cr->nsel,
									(unsigned long long) gr->error, gr->nsel, gr->flags, ok ? "" : err);
					}
				}
	(void) slot_bytes;
	CHECK(mismatches == 0, "integer edge cases (%s): %d of %d differ", mode_name[mode],
		  mismatches, runs);
	printf("integer edges (%s): %d single-row chunks, %d mismatches\n", mode_name[mode],
		   runs, mismatches);
}

/*
 * = ANY / <> ALL over big sets (GX_OP_INBIGSET): two sets of 200000 values
 * (int8, then float8 ending in NaN) written into a GPU object by OBJ_WRITE
 * tasks on the GPU, and into a CPU object on the CPU device; then a filter
 * of int8 and float8 rows (hits, misses, NULLs, -0, NaN) in the given
 * mode: GPU = CPU selection
 */
static void
test_bigsets(std::mt19937_64 &rng, void *staging, int mode)
{
	const int64_t nset = 200000;
	const uint64_t bytes = (uint64_t) (2 * nset) * sizeof(int64_t);
	const uint64_t src = GX_ALIGN_UP(sizeof(gx_chunk));
	const uint32_t nrows = 50000;
	std::vector<int64_t> vals(2 * nset);
	std::vector<char> cmem(src + bytes / 2 + gx_result_bytes(0) + 64);
	void	   *gobj = nullptr,
			   *cobj = nullptr;
	gx_task_ctx gctx,
				cctx;
	char		err[512];

	for (int64_t i = 0; i < nset; i++)
	{
		double		f = i == nset - 1 ? NAN : (double) (i - nset / 2) / 8.0;

		vals[i] = i * 10 - 1000000 + (int64_t) (rng() % 10);
		memcpy(&vals[nset + i], &f, sizeof(f));
	}
	CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, bytes, &gobj, err, sizeof(err)) == GX_OK, "GPU sets: %s", err);
	CHECK(gx_mem_alloc(GX_DEV_CPU, bytes, &cobj, err, sizeof(err)) == GX_OK, "CPU sets: %s", err);
	if (gobj == nullptr || cobj == nullptr)
		return;
	memset(&gctx, 0, sizeof(gctx));
	memset(&cctx, 0, sizeof(cctx));
	gctx.obj[0] = (char *) gobj;
	gctx.obj_bytes[0] = bytes;
	cctx.obj[0] = (char *) cobj;
	cctx.obj_bytes[0] = bytes;
	/* two OBJ_WRITE tasks a device, half the values each */
	for (int half = 0; half < 2; half++)
	{
		gx_chunk   *c = (gx_chunk *) cmem.data();

		memset(c, 0, src);
		c->magic = GX_CHUNK_MAGIC;
		c->kind = GX_TASK_OBJ_WRITE;
		c->input_bytes = src + bytes / 2;
		c->result_off = GX_ALIGN_UP(c->input_bytes);
		c->ext.entry = -1;
		c->ext.write.src = src;
		c->ext.write.dst = half * (bytes / 2);
		c->ext.write.bytes = bytes / 2;
		memcpy(cmem.data() + src, (const char *) vals.data() + half * (bytes / 2), bytes / 2);
		memcpy(staging, c, c->result_off);
		bool		ok = gx_gpu_submit(g_gpu, 0, &gctx, err, sizeof(err)) == GX_OK &&
			poll_until_done(0, err, sizeof(err));

		CHECK(ok && gx_chunk_result((gx_chunk *) staging)->error == GX_NO_ERROR,
			  "OBJ_WRITE on the GPU: %s", ok ? "" : err);
		CHECK(cpu_run(c, cmem.size(), &cctx) == GX_OK, "OBJ_WRITE on the CPU device");
	}

	/* the filter: i8 = ANY (set 0) AND f8 <> ALL (set 1) */
	std::vector<int64_t> iv(nrows);
	std::vector<double> fv(nrows);
	std::vector<uint8_t> inull(nrows),
				fnull(nrows);

	for (uint32_t r = 0; r < nrows; r++)
	{
		iv[r] = r % 2 == 0 ? vals[rng() % nset] : (int64_t) (rng() % 2200000) - 1100000;
		fv[r] = r % 5 == 0 ? NAN : r % 7 == 0 ? -0.0 :
			(double) ((int64_t) (rng() % 400000) - 200000) / 16.0;
		inull[r] = r % 31 == 0;
		fnull[r] = r % 37 == 0;
	}
	ChunkBuilder b;
	int			ci = b.add_int_col(GX_INT8, iv, inull);
	int			cf = b.add_float_col(GX_FLOAT8, fv, fnull);
	int			k0 = add_bigset(b, nset, 0);
	int			k1 = add_bigset(b, nset, nset);

	b.emit(GX_OP_LDCOL, GX_INT8, 0, 0, 0, ci);
	b.emit(GX_OP_INBIGSET, GX_INT8, 0, 0, 0, k0);
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 0);
	b.emit(GX_OP_LDCOL, GX_FLOAT8, 1, 0, 0, cf);
	b.emit(GX_OP_INBIGSET, GX_FLOAT8, 1, 1, 0, k1);
	b.emit(GX_OP_NOT, GX_BOOL, 1, 1);
	b.emit(GX_OP_QUAL, GX_BOOL, 0, 1);
	gx_chunk   *c = b.build();
	uint32_t	flags = mode_flags(mode, 0);

	memset(&gctx, 0, sizeof(gctx));
	memset(&cctx, 0, sizeof(cctx));
	gctx.obj[GX_TASK_OBJ_SETS] = (char *) gobj;
	gctx.obj_bytes[GX_TASK_OBJ_SETS] = bytes;
	cctx.obj[GX_TASK_OBJ_SETS] = (char *) cobj;
	cctx.obj_bytes[GX_TASK_OBJ_SETS] = bytes;
	memcpy(staging, c, b.capacity);
	((gx_chunk *) staging)->flags = flags;
	CHECK(cpu_run(c, b.capacity, &cctx) == GX_OK, "big sets on the CPU device");
	bool		ok = gx_gpu_submit(g_gpu, 0, &gctx, err, sizeof(err)) == GX_OK &&
		poll_until_done(0, err, sizeof(err));
	std::vector<uint32_t> gsel,
				csel;

	CHECK(ok, "big sets on the GPU (%s): %s", mode_name[mode], err);
	if (ok)
	{
		check_mode((gx_chunk *) staging, flags, "big sets");
		CHECK(tile_selection((gx_chunk *) staging, gsel) && tile_selection(c, csel),
			  "big sets (%s): selection layout", mode_name[mode]);
		std::sort(gsel.begin(), gsel.end());
		std::sort(csel.begin(), csel.end());
		CHECK(gsel == csel && csel.size() > nrows / 8 &&
			  gx_chunk_result((gx_chunk *) staging)->error == gx_chunk_result(c)->error,
			  "big sets (%s): GPU %zu rows, CPU %zu rows", mode_name[mode], gsel.size(),
			  csel.size());
		printf("big sets (%s): 2 x %lld values, %u rows, %zu selected on both devices\n",
			   mode_name[mode], (long long) nset, nrows, csel.size());
	}
	gx_mem_free(GX_DEV_GPU + g_gpu, gobj);
	gx_mem_free(GX_DEV_CPU, cobj);
}

/*
 * extract / date_part / date_trunc / date -> timestamp on the GPU against
 * values the CPU computed (gx_eval.cuh compiled by the host compiler): per
 * field, a program selects the rows whose device value equals the CPU's
 * (a reference column); infinities, NULLs and dates past the timestamps
 * (GX_ERR_HOST, NULL) must give the same selection and flags on both
 */
static void
test_datetime(std::mt19937_64 &rng, void *staging, int mode)
{
	const int64_t D = GX_USECS_PER_DAY;
	const int64_t tmin = GX_MIN_TIMESTAMP,
				tmax = (int64_t) GX_DATE_TS_END * D - 1;
	const uint32_t n = 3000;
	std::vector<int64_t> dv(n), tv(n);
	std::vector<uint8_t> dn(n, 0), tn(n, 0);
	char		err[512];
	int			mismatches = 0,
				runs = 0;

	for (uint32_t i = 0; i < n; i++)
	{
		dv[i] = -GX_POSTGRES_EPOCH_JDATE + (int64_t) (rng() % 2147483494ULL);
		if (i % 3 == 0)
			dv[i] = (int64_t) (rng() % 1600000) - 800000;
		tv[i] = (int64_t) ((uint64_t) tmin + rng() % ((uint64_t) tmax - (uint64_t) tmin + 1));
		if (i % 3 == 0)
			tv[i] = ((int64_t) (rng() % 1600000) - 800000) * D + (int64_t) (rng() % D);
	}
	dv[0] = 2147483647;
	dv[1] = -2147483647 - 1;
	dn[2] = 1;
	dv[3] = GX_DATE_TS_END;
	tv[0] = INT64_MAX;
	tv[1] = INT64_MIN;
	tn[2] = 1;
	tv[3] = tmin;
	tv[4] = tmax;
	/* {op, type, field, source: 0 date, 1 timestamp, 2 date as a timestamp} */
	std::vector<std::array<int, 4>> all;

	all.push_back({GX_OP_DATE2TS, GX_INT8, 0, 0});
	for (int f = 0; f < GX_DT_NFIELDS; f++)
	{
		if (f < GX_DT_HOUR)
			all.push_back({GX_OP_EXTRACT, GX_NUMERIC, f, 0});
		all.push_back({GX_OP_EXTRACT, GX_NUMERIC, f, 1});
		all.push_back({GX_OP_EXTRACT, GX_FLOAT8, f, 1});
		all.push_back({GX_OP_EXTRACT, GX_FLOAT8, f, 2});
		if (f != GX_DT_DOW && f != GX_DT_ISODOW && f != GX_DT_DOY && f != GX_DT_EPOCH)
			all.push_back({GX_OP_DATETRUNC, GX_INT8, f, 1});
	}
	for (const auto &pg : all)
	{
		int			op = pg[0],
					type = pg[1],
					f = pg[2],
					src = pg[3];
		int			arg = op == GX_OP_EXTRACT ? f | (src ? GX_DT_TS : 0) : f;
		std::vector<int64_t> ri(n, 0);
		std::vector<double> rd(n, 0);

		/* the reference values, by the host's build of the interpreter */
		for (uint32_t i = 0; i < n; i++)
		{
			gx_reg		a,
						d;
			int			e = 0;

			a.v.i = src == 1 ? tv[i] : dv[i];
			a.isnull = 0;
			if (src == 2)
			{
				gx_step(GX_OP_DATE2TS, GX_INT8, 0, nullptr, nullptr, i, &a, &a, &a, &e);
				if (e)
					continue;
			}
			d.v.i = 0;
			if (gx_step(op, type, arg, nullptr, nullptr, i, &d, &a, &a, &e) == GX_STEP_NEXT)
			{
				ri[i] = d.v.i;
				rd[i] = d.v.d;
			}
		}
		ChunkBuilder b;
		int			cs = src == 1 ? b.add_int_col(GX_INT8, tv, tn) : b.add_int_col(GX_INT4, dv, dn);
		int			cr = type == GX_FLOAT8 ? b.add_float_col(GX_FLOAT8, rd) :
			b.add_int_col(type, ri);

		b.emit(GX_OP_LDCOL, src == 1 ? GX_INT8 : GX_INT4, 0, 0, 0, cs);
		if (src == 2)
			b.emit(GX_OP_DATE2TS, GX_INT8, 0, 0);
		b.emit(op, type, 0, 0, 0, arg);
		b.emit(GX_OP_LDCOL, type, 1, 0, 0, cr);
		b.emit(GX_OP_EQ, type, 2, 0, 1);
		b.emit(GX_OP_QUAL, GX_BOOL, 0, 2);
		gx_chunk   *c = b.build();

		memcpy(staging, c, b.capacity);
		((gx_chunk *) staging)->flags = mode_flags(mode, runs);
		cpu_run(c, b.capacity);
		bool		ok = gx_gpu_submit(g_gpu, 0, nullptr, err, sizeof(err)) == GX_OK &&
			poll_until_done(0, err, sizeof(err));
		gx_result  *gr = gx_chunk_result((gx_chunk *) staging);
		gx_result  *cr2 = gx_chunk_result(c);

		runs++;
		/* every row but the NULL one: equal, or for the host */
		if (!ok || gr->error != cr2->error || gr->nsel != cr2->nsel || cr2->nsel != n - 1 ||
			(gr->flags & GX_RESULT_HOST) != (cr2->flags & GX_RESULT_HOST))
		{
			if (mismatches++ < 10)
				fprintf(stderr, "datetime mismatch (%s) op %d type %d field %d src %d: cpu nsel %u flags %x, gpu nsel %u flags %x %s\n",
						mode_name[mode], op, type, f, src, cr2->nsel, cr2->flags, gr->nsel,
						gr->flags, ok ? "" : err);
		}
	}
	CHECK(mismatches == 0, "datetime (%s): %d of %d programs differ", mode_name[mode],
		  mismatches, runs);
	printf("datetime (%s): %d programs of %u rows, %d mismatches\n", mode_name[mode], runs, n,
		   mismatches);
}

/* GPU vs CPU on random programs over random column chunks, in one mode */
static void
test_random_mode(std::mt19937_64 &rng, void *staging, int nslots, size_t slot_bytes,
				 int mode, int rounds)
{
	char		err[512];
	gx_status	st;
	const uint32_t sizes[] = {1, 7, 1000, 1023, 1024, 1025, 4096, 5000, 65537, 100000, 250000};
	int			nprog = 0,
				nerr = 0,
				naggs = 0;
	uint64_t	total_sel = 0,
				total_rows = 0;
	AggStates	states;

	if (!states.open())
		return;
	for (int round = 0; round < rounds; round++)
	{
		std::vector<ChunkBuilder *> bs(nslots);
		bool		round_err = false;

		for (int s = 0; s < nslots; s++)
		{
			ChunkBuilder *b = new ChunkBuilder();
			ProgGen		g(*b, rng);
			uint32_t	nrows = sizes[rng() % (sizeof(sizes) / sizeof(sizes[0]))];

			random_columns(*b, g, rng, nrows);
			for (int tries = 0;; tries++)
			{
				b->consts.clear();
				b->code.clear();
				b->nregs = 0;
				g.nextreg = 0;
				int			top = g.boolean(1 + (int) (rng() % 3));

				b->emit(GX_OP_QUAL, GX_BOOL, 0, top);
				if (g.nextreg < GX_MAX_REGS && b->code.size() <= GX_MAX_INSTR &&
					b->consts.size() <= GX_MAX_CONSTS)
					break;
			}
			gx_chunk   *c = b->build();

			if (b->capacity > slot_bytes)
			{
				fprintf(stderr, "chunk too big for the slot\n");
				exit(2);
			}
			/*
			 * Half the chunks aggregate into the round's state objects
			 * (the slots' kernels add into one GPU object concurrently):
			 * sums of the integer columns, counts of the others.
			 */
			if (rng() % 2)
			{
				static const int aggcols[] = {GX_INT2, GX_INT4, GX_INT8, GX_BOOL, GX_FLOAT8};

				c->obj[0] = 1;
				c->ext.nagg = 1 + (uint32_t) (rng() % 5);
				for (uint32_t a = 0; a < c->ext.nagg; a++)
				{
					int			t = aggcols[a];

					c->ext.agg[a].op = t == GX_BOOL || t == GX_FLOAT8 ? GX_AGG_COUNT :
						(rng() % 3 ? GX_AGG_SUM : GX_AGG_COUNT);
					c->ext.agg[a].col = (int16_t) g.colof[t];
				}
				naggs++;
			}
			memcpy((char *) staging + s * slot_bytes, c, b->capacity);
			((gx_chunk *) ((char *) staging + s * slot_bytes))->flags = mode_flags(mode, s);
			bs[s] = b;
		}
		/* all slots in flight together */
		for (int s = 0; s < nslots; s++)
		{
			st = gx_gpu_submit(g_gpu, s, &states.gctx, err, sizeof(err));
			CHECK(st == GX_OK, "gx_gpu_submit(%d, %s): %s", s, mode_name[mode], err);
		}
		for (int s = 0; s < nslots; s++)
		{
			gx_chunk   *cc = (gx_chunk *) bs[s]->mem;
			gx_chunk   *gc = (gx_chunk *) ((char *) staging + s * slot_bytes);
			bool		ok = poll_until_done(s, err, sizeof(err));

			CHECK(ok, "gx_gpu_poll(%d, %s): %s", s, mode_name[mode], err);
			if (!ok)
			{
				delete bs[s];
				continue;
			}
			CHECK(cpu_run(cc, bs[s]->capacity, &states.cctx) == GX_OK, "cpu run");

			gx_result  *cr = gx_chunk_result(cc);
			gx_result  *gr = gx_chunk_result(gc);
			std::vector<uint32_t> csel, gsel;
			bool		clay = tile_selection(cc, csel);
			bool		glay = tile_selection(gc, gsel);

			nprog++;
			nerr += cr->error != GX_NO_ERROR;
			round_err |= cr->error != GX_NO_ERROR || gr->error != GX_NO_ERROR;
			total_sel += cr->nsel;
			total_rows += cc->nrows;
			CHECK(clay && glay, "%s round %d slot %d: layout cpu %d gpu %d", mode_name[mode],
				  round, s, clay, glay);
			CHECK(cr->error == gr->error, "%s round %d slot %d: error cpu %llx gpu %llx (nrows %u)",
				  mode_name[mode], round, s, (unsigned long long) cr->error,
				  (unsigned long long) gr->error, cc->nrows);
			CHECK(cr->nsel == gr->nsel, "%s round %d slot %d: nsel cpu %u gpu %u (nrows %u)",
				  mode_name[mode], round, s, cr->nsel, gr->nsel, cc->nrows);
			CHECK(csel == gsel, "%s round %d slot %d: selections differ", mode_name[mode], round, s);
			check_mode(gc, mode_flags(mode, s), mode_name[mode]);
			delete bs[s];
		}
		/* the round's aggregates (their sums are exact only without an error) */
		agg_read_both(staging, states, GX_MAX_AGGS, !round_err, mode_name[mode]);
	}
	states.close();
	printf("random (%s): %d programs (%d raised an error, %d aggregated), %llu of %llu rows selected\n",
		   mode_name[mode], nprog, nerr, naggs, (unsigned long long) total_sel,
		   (unsigned long long) total_rows);
}

/* ---------------------------------------------------------------------- */
/* chunks of raw heap pages (device deforming)                            */
/* ---------------------------------------------------------------------- */

/*
 * An attribute of the test relation.  Fixed-width ones are by value; kind
 * 'v' is a varlena (1-byte header, 4-byte header or TOAST pointer), 'c' a
 * cstring.  col >= 0: the chunk column it fills.
 */
struct PageAtt
{
	int			attlen;
	int			attalign;
	int			gxtype;			/* for fixed-width attributes */
	int			col;
	int			has_missing;
	int64_t		missing;
};

/* PostgreSQL 15 page / tuple constants the deformer restates */
#define PG_BLCKSZ 8192
#define PG_PAGE_HEADER 24
#define PG_TUP_HEADER 23
#define PG_MAXALIGN(x) (((x) + 7) & ~(uint32_t) 7)

/*
 * A chunk of raw heap pages whose needed attributes (one of every device
 * type) are known, and the same rows as a column chunk (the reference the
 * CPU device filters), both with the same program.
 */
struct PageChunk
{
	std::vector<PageAtt> atts;
	ChunkBuilder ref;			/* the needed attributes as columns */
	void	   *mem = nullptr;	/* the page chunk */
	uint64_t	capacity = 0;

	~PageChunk()
	{
		free(mem);
	}
};

/* align off to a (1, 2, 4, 8) */
static uint32_t
align_to(uint32_t off, int a)
{
	return (off + (uint32_t) a - 1) & ~(uint32_t) (a - 1);
}

/*
 * Build nrows random tuples on heap pages: every device type as a needed
 * attribute, with varlena, cstring and unneeded fixed attributes between
 * them, NULLs, and tuples with fewer attributes (missing values).  Fills
 * pc.ref with the expected columns and a random program over them, and
 * pc.mem with the page chunk (same program).
 */
static void
build_page_chunk(PageChunk &pc, std::mt19937_64 &rng, uint32_t nrows)
{
	ProgGen		g(pc.ref, rng);
	std::vector<std::vector<int64_t>> iv(GX_TEST_NTYPES);
	std::vector<std::vector<double>> dv(GX_TEST_NTYPES);
	std::vector<std::vector<uint8_t>> nl(GX_TEST_NTYPES);
	double		nullfrac = g.u() < 0.5 ? 0.0 : g.u() * 0.3;
	double		shortfrac = g.u() < 0.3 ? 0.0 : 0.2;	/* tuples of fewer atts */

	/* layout: a varlena first in half of the relations (no fixed prefix) */
	static const int fixed_len[GX_TEST_NTYPES] = {1, 2, 4, 8, 4, 8};
	int			ncol = 0;

	pc.atts.clear();
	if (rng() % 2)
		pc.atts.push_back({-1, 4, -1, -1, 0, 0});
	for (int t = GX_BOOL; t < GX_TEST_NTYPES; t++)
	{
		if (rng() % 3 == 0)
			pc.atts.push_back({4, 4, GX_INT4, -1, 0, 0});	/* unneeded int4 */
		if (rng() % 4 == 0)
			pc.atts.push_back({-1, 4, -1, -1, 0, 0});	/* text */
		if (rng() % 8 == 0)
			pc.atts.push_back({-2, 1, -1, -1, 0, 0});	/* cstring */
		pc.atts.push_back({fixed_len[t], fixed_len[t], t, ncol++, 0, 0});
		if (rng() % 3 == 0)
		{
			/* ALTER TABLE ... ADD COLUMN ... DEFAULT: the value's bits */
			PageAtt    &at = pc.atts.back();
			float		f = (float) (rng() % 50) - 10.5f;
			double		d = (double) (rng() % 50) - 10.25;
			uint32_t	fbits;

			at.has_missing = 1;
			at.missing = (int64_t) (rng() % 50);
			if (t == GX_FLOAT4)
			{
				memcpy(&fbits, &f, 4);
				at.missing = (int64_t) fbits;
			}
			else if (t == GX_FLOAT8)
				memcpy(&at.missing, &d, 8);
		}
	}
	const uint32_t natts = (uint32_t) pc.atts.size();

	/* tuples and their pages */
	std::vector<std::vector<uint8_t>> pages;
	std::vector<uint32_t> rowmap;
	std::vector<uint8_t> page(PG_BLCKSZ, 0);
	uint32_t	nlp = 0,
				upper = PG_BLCKSZ;

	for (uint32_t r = 0; r < nrows; r++)
	{
		uint32_t	tnatts = g.u() < shortfrac ? (uint32_t) (rng() % natts) : natts;
		std::vector<uint8_t> isnull(natts, 0);
		bool		hasnull = false;

		for (uint32_t a = 0; a < tnatts; a++)
		{
			isnull[a] = g.u() < nullfrac;
			hasnull |= isnull[a] != 0;
		}
		uint32_t	hoff = PG_MAXALIGN(PG_TUP_HEADER + (hasnull ? (tnatts + 7) / 8 : 0));
		std::vector<uint8_t> tup(hoff, 0);

		tup[18] = (uint8_t) (tnatts & 0xFF);
		tup[19] = (uint8_t) ((tnatts >> 8) & 0x07);
		tup[20] = hasnull ? 1 : 0;
		tup[22] = (uint8_t) hoff;
		for (uint32_t a = 0; a < tnatts && hasnull; a++)
			if (!isnull[a])
				tup[PG_TUP_HEADER + a / 8] |= (uint8_t) (1u << (a % 8));

		/* values of the needed attributes, as the deformer must read them */
		int64_t		vi[GX_TEST_NTYPES] = {0};
		double		vd[GX_TEST_NTYPES] = {0};
		uint8_t		vn[GX_TEST_NTYPES] = {0};

		for (uint32_t a = 0; a < natts; a++)
		{
			const PageAtt &at = pc.atts[a];
			uint32_t	off = (uint32_t) tup.size() - hoff;

			if (a >= tnatts)
			{
				if (at.col >= 0)
				{
					vn[at.gxtype] = !at.has_missing;
					vi[at.gxtype] = at.has_missing ? at.missing : 0;
					vd[at.gxtype] = 0.0;
					if (at.has_missing && at.gxtype == GX_FLOAT4)
					{
						uint32_t	fbits = (uint32_t) at.missing;
						float		f;

						memcpy(&f, &fbits, 4);
						vd[at.gxtype] = f;
					}
					else if (at.has_missing && at.gxtype == GX_FLOAT8)
						memcpy(&vd[at.gxtype], &at.missing, 8);
				}
				continue;
			}
			if (isnull[a])
			{
				if (at.col >= 0)
					vn[at.gxtype] = 1;
				continue;
			}
			if (at.attlen == -1)
			{
				/* 1-byte header, 4-byte header (aligned), or TOAST pointer */
				int			form = (int) (rng() % 3);

				if (form == 0)
				{
					uint32_t	len = 1 + (uint32_t) (rng() % 20);

					tup.push_back((uint8_t) ((len << 1) | 1));
					for (uint32_t i = 1; i < len; i++)
						tup.push_back('a' + (uint8_t) (i % 26));
				}
				else if (form == 1)
				{
					uint32_t	len = 4 + (uint32_t) (rng() % 40);
					uint32_t	w = len << 2;

					tup.resize(hoff + align_to(off, 4), 0);
					for (int i = 0; i < 4; i++)
						tup.push_back((uint8_t) (w >> (8 * i)));
					for (uint32_t i = 4; i < len; i++)
						tup.push_back('b');
				}
				else
				{
					tup.push_back(0x01);
					tup.push_back(18);
					for (int i = 0; i < 16; i++)
						tup.push_back((uint8_t) (i + 1));
				}
				continue;
			}
			if (at.attlen == -2)
			{
				uint32_t	len = (uint32_t) (rng() % 10);

				for (uint32_t i = 0; i < len; i++)
					tup.push_back('c');
				tup.push_back(0);
				continue;
			}
			/* fixed width */
			tup.resize(hoff + align_to(off, at.attalign), 0);
			int64_t		v = 0;

			switch (at.gxtype)
			{
				case GX_BOOL:
					v = rng() & 1;
					break;
				case GX_INT2:
					v = (int64_t) (rng() % 301) - 150;
					break;
				case GX_INT4:
					v = (int64_t) (rng() % 80001) - 40000;
					break;
				case GX_INT8:
					v = (int64_t) (rng() % 6000001) - 3000000;
					break;
				case GX_FLOAT4:
					{
						float		f = (float) ((g.u() - 0.5) * 2000.0);

						memcpy(&v, &f, 4);
						if (at.col >= 0)
							vd[GX_FLOAT4] = f;
					}
					break;
				default:
					{
						double		d = (g.u() - 0.5) * 2000.0;

						memcpy(&v, &d, 8);
						if (at.col >= 0)
							vd[GX_FLOAT8] = d;
					}
					break;
			}
			for (int i = 0; i < at.attlen; i++)
				tup.push_back((uint8_t) ((uint64_t) v >> (8 * i)));
			if (at.col >= 0)
			{
				vi[at.gxtype] = v;
				vn[at.gxtype] = 0;
			}
		}
		for (int t = GX_BOOL; t < GX_TEST_NTYPES; t++)
		{
			iv[t].push_back(vi[t]);
			dv[t].push_back(vd[t]);
			nl[t].push_back(vn[t]);
		}

		/* place the tuple: a new page when it does not fit */
		uint32_t	len = (uint32_t) tup.size();

		if (upper < len || ((upper - len) & ~(uint32_t) 7) < PG_PAGE_HEADER + (nlp + 1) * 4)
		{
			pages.push_back(page);
			std::fill(page.begin(), page.end(), 0);
			nlp = 0;
			upper = PG_BLCKSZ;
		}
		upper = (upper - len) & ~(uint32_t) 7;
		memcpy(&page[upper], tup.data(), len);
		uint32_t	lp = upper | (1u << 15) | (len << 17);

		memcpy(&page[PG_PAGE_HEADER + nlp * 4], &lp, 4);
		nlp++;
		rowmap.push_back(((uint32_t) pages.size() << 16) | nlp);
	}
	if (nlp > 0)
		pages.push_back(page);

	/* the reference column chunk */
	for (int t = GX_BOOL; t < GX_TEST_NTYPES; t++)
		g.colof[t] = t <= GX_INT8 ? pc.ref.add_int_col(t, iv[t], nl[t]) :
			pc.ref.add_float_col(t, dv[t], nl[t]);
	if (nrows == 0)
		pc.ref.nrows = 0;
	for (;;)
	{
		pc.ref.consts.clear();
		pc.ref.code.clear();
		pc.ref.nregs = 0;
		g.nextreg = 0;
		int			top = g.boolean(1 + (int) (rng() % 3));

		pc.ref.emit(GX_OP_QUAL, GX_BOOL, 0, top);
		if (g.nextreg < GX_MAX_REGS && pc.ref.code.size() <= GX_MAX_INSTR &&
			pc.ref.consts.size() <= GX_MAX_CONSTS)
			break;
	}
	gx_chunk   *rc = pc.ref.build();

	/* the page chunk: header, deform header, pages, row map, columns, result */
	uint32_t	npages = (uint32_t) pages.size();
	uint64_t	deform_off = GX_ALIGN_UP(sizeof(gx_chunk));
	uint64_t	pages_off = GX_ALIGN_UP(deform_off + sizeof(gx_deform_hdr));
	uint64_t	rowmap_off = pages_off + (uint64_t) npages * PG_BLCKSZ;
	uint64_t	input_bytes = GX_ALIGN_UP(rowmap_off + (uint64_t) nrows * 4);
	uint64_t	off = input_bytes;
	uint64_t	voff[GX_TEST_NTYPES],
				noff[GX_TEST_NTYPES];

	for (int t = GX_BOOL; t < GX_TEST_NTYPES; t++)
	{
		voff[t] = off;
		off = GX_ALIGN_UP(off + (uint64_t) fixed_len[t] * nrows);
		noff[t] = off;
		off = GX_ALIGN_UP(off + ((uint64_t) nrows + 31) / 32 * 4);
	}
	uint64_t	result_off = off;

	pc.capacity = result_off + gx_result_bytes(nrows);
	free(pc.mem);
	pc.mem = aligned_alloc(4096, (pc.capacity + 4095) & ~(uint64_t) 4095);
	memset(pc.mem, 0, pc.capacity);
	gx_chunk   *c = (gx_chunk *) pc.mem;

	memcpy(c, rc, sizeof(gx_chunk));	/* program, constants */
	c->nrows = nrows;
	c->flags = 0;
	c->input_bytes = input_bytes;
	c->result_off = result_off;
	c->deform_off = deform_off;
	for (int t = GX_BOOL; t < GX_TEST_NTYPES; t++)
	{
		c->cols[t].values_off = voff[t];
		c->cols[t].nulls_off = noff[t];
		c->cols[t].type = t;
	}

	gx_deform_hdr *d = gx_chunk_deform(c);
	int			fixed = 1;
	uint32_t	foff = 0;

	d->npages = npages;
	d->page_size = PG_BLCKSZ;
	d->natts = natts;
	d->pages_off = pages_off;
	d->rowmap_off = rowmap_off;
	for (uint32_t a = 0; a < natts; a++)
	{
		const PageAtt &at = pc.atts[a];
		gx_attr    *ga = &d->atts[a];

		ga->attlen = (int16_t) at.attlen;
		ga->attalign = (uint8_t) at.attalign;
		ga->col = (int16_t) at.col;
		ga->has_missing = (uint8_t) at.has_missing;
		ga->missing = at.missing;
		ga->fixed_off = -1;
		if (fixed && at.attlen > 0)
		{
			foff = align_to(foff, at.attalign);
			ga->fixed_off = (int16_t) foff;
			foff += (uint32_t) at.attlen;
		}
		else
			fixed = 0;
	}
	for (uint32_t p = 0; p < npages; p++)
		memcpy((char *) c + pages_off + (uint64_t) p * PG_BLCKSZ, pages[p].data(), PG_BLCKSZ);
	memcpy((char *) c + rowmap_off, rowmap.data(), (size_t) nrows * 4);
}

/* the selection of a finished chunk truncated at its error, as the backend reads it */
static std::vector<uint32_t>
backend_selection(gx_chunk *c)
{
	gx_result  *res = gx_chunk_result(c);
	uint32_t   *seg_off = gx_result_seg_off(res);
	uint32_t   *seg_cnt = gx_result_seg_cnt(res);
	uint32_t   *sel = gx_result_sel(res);
	uint32_t	errrow = res->error != GX_NO_ERROR ? (uint32_t) (res->error >> 8) : UINT32_MAX;
	std::vector<uint32_t> out;

	for (uint32_t t = 0; t < res->ntiles; t++)
	{
		for (uint32_t k = 0; k < seg_cnt[t] && seg_off[t] + k < res->nsel; k++)
		{
			if (sel[seg_off[t] + k] >= errrow)
				break;
			out.push_back(sel[seg_off[t] + k]);
		}
		if ((uint64_t) (t + 1) * GX_TILE_ROWS > errrow)
			break;
	}
	return out;
}

/*
 * Page chunks: the GPU (both modes) deforms and filters like the CPU device
 * does, and like the CPU device filtering the same rows given as columns;
 * a corrupt row map entry raises GX_ERR_BAD_PAGE at the same row.
 */
static void
test_pages(std::mt19937_64 &rng, void *staging, int nslots, size_t slot_bytes)
{
	const uint32_t sizes[] = {0, 1, 31, 33, 1000, 1025, 5000, 40000};
	char		err[512];
	int			nchunks = 0,
				nbad = 0;

	for (int mode = 0; mode < NMODES; mode++)
		for (int round = 0; round < 12; round++)
		{
			std::vector<PageChunk *> pcs(nslots);

			for (int s = 0; s < nslots; s++)
			{
				PageChunk  *pc = new PageChunk();
				uint32_t	nrows = sizes[rng() % (sizeof(sizes) / sizeof(sizes[0]))];

				build_page_chunk(*pc, rng, nrows);
				gx_chunk   *c = (gx_chunk *) pc->mem;

				/* a corrupt row map entry in some chunks: past the page's line pointers */
				if (nrows > 10 && rng() % 4 == 0)
				{
					uint32_t	r = (uint32_t) (rng() % nrows);
					uint32_t   *map = (uint32_t *) ((char *) c + gx_chunk_deform(c)->rowmap_off);

					map[r] = (map[r] & 0xFFFF0000u) | 0x7FFFu;
					nbad++;
				}
				if (pc->capacity > slot_bytes)
				{
					fprintf(stderr, "page chunk too big for the slot\n");
					exit(2);
				}
				memcpy((char *) staging + s * slot_bytes, c, pc->capacity);
				((gx_chunk *) ((char *) staging + s * slot_bytes))->flags = mode_flags(mode, s);
				pcs[s] = pc;
			}
			for (int s = 0; s < nslots; s++)
			{
				gx_status	st = gx_gpu_submit(g_gpu, s, nullptr, err, sizeof(err));

				CHECK(st == GX_OK, "pages: gx_gpu_submit(%d, %s): %s", s, mode_name[mode], err);
			}
			for (int s = 0; s < nslots; s++)
			{
				PageChunk  *pc = pcs[s];
				gx_chunk   *cc = (gx_chunk *) pc->mem;
				gx_chunk   *gc = (gx_chunk *) ((char *) staging + s * slot_bytes);
				gx_chunk   *rc = (gx_chunk *) pc->ref.mem;
				bool		ok = poll_until_done(s, err, sizeof(err));

				CHECK(ok, "pages: gx_gpu_poll(%d, %s): %s", s, mode_name[mode], err);
				if (!ok)
				{
					delete pc;
					continue;
				}
				CHECK(cpu_run(cc, pc->capacity) == GX_OK, "pages: cpu run");
				CHECK(cpu_run(rc, pc->ref.capacity) == GX_OK, "pages: cpu run of the columns");

				gx_result  *cr = gx_chunk_result(cc);
				gx_result  *gr = gx_chunk_result(gc);
				gx_result  *rr = gx_chunk_result(rc);
				std::vector<uint32_t> csel = backend_selection(cc);
				std::vector<uint32_t> gsel = backend_selection(gc);
				std::vector<uint32_t> rsel = backend_selection(rc);
				bool		corrupt = cr->error != GX_NO_ERROR && (cr->error & 0xff) == GX_ERR_BAD_PAGE;

				nchunks++;
				CHECK(cr->error == gr->error, "pages %s round %d slot %d: error cpu %llx gpu %llx (nrows %u)",
					  mode_name[mode], round, s, (unsigned long long) cr->error,
					  (unsigned long long) gr->error, cc->nrows);
				CHECK(csel == gsel, "pages %s round %d slot %d: selections differ (cpu %zu gpu %zu rows)",
					  mode_name[mode], round, s, csel.size(), gsel.size());
				check_mode(gc, mode_flags(mode, s), "pages");
				/* the deformer reads what the builder wrote */
				if (!corrupt)
				{
					CHECK(cr->error == rr->error, "pages %s round %d slot %d: error pages %llx columns %llx",
						  mode_name[mode], round, s, (unsigned long long) cr->error,
						  (unsigned long long) rr->error);
					CHECK(csel == rsel, "pages %s round %d slot %d: pages and columns select differently (%zu, %zu rows)",
						  mode_name[mode], round, s, csel.size(), rsel.size());
				}
				else
				{
					/* rows before the corrupt one agree with the columns */
					uint32_t	bad = (uint32_t) (cr->error >> 8);
					std::vector<uint32_t> rpre;

					for (uint32_t r : rsel)
						if (r < bad)
							rpre.push_back(r);
					CHECK(csel == rpre, "pages %s round %d slot %d: rows before the bad page differ",
						  mode_name[mode], round, s);
				}
				delete pc;
			}
		}
	printf("pages: %d page chunks in %d modes (%d with a corrupt row map entry)\n",
		   nchunks, NMODES, nbad);
}

/* lay an entry of cap rows out for the columns of chunk c; returns its bytes */
static uint64_t
cache_layout(const gx_chunk *c, uint64_t cap, gx_chunk_ext *x)
{
	uint64_t	off = 0;

	for (uint32_t i = 0; i < c->ncols; i++)
	{
		x->values_off[i] = off;
		off = GX_ALIGN_UP(off + (uint64_t) gx_type_width(c->cols[i].type) * cap);
		x->nulls_off[i] = off;
		off = GX_ALIGN_UP(off + (cap + 31) / 32 * 4);
	}
	x->rowmap_off = off;
	return GX_ALIGN_UP(off + cap * 4);
}

/* the selection of a finished cache SCAN chunk, as the backend reads it */
static std::vector<uint32_t>
cache_selection(gx_chunk *c)
{
	gx_result  *res = gx_chunk_result(c);
	uint32_t   *seg_off = gx_result_seg_off(res);
	uint32_t   *seg_cnt = gx_result_seg_cnt(res);
	uint32_t   *sel = gx_result_sel(res);
	uint32_t	errrow = res->error != GX_NO_ERROR ? (uint32_t) (res->error >> 8) : UINT32_MAX;
	uint32_t	errkey = res->error != GX_NO_ERROR ? res->error_key : UINT32_MAX;
	std::vector<uint32_t> out;

	for (uint32_t t = 0; t < res->ntiles; t++)
	{
		for (uint32_t k = 0; k < seg_cnt[t]; k++)
		{
			if (sel[seg_off[t] + k] >= errkey)
				break;
			out.push_back(sel[seg_off[t] + k]);
		}
		if ((uint64_t) (t + 1) * GX_TILE_ROWS > errrow)
			break;
	}
	return out;
}

/* rows a count-only chunk returns: seg counts up to its error's tile */
static uint64_t
count_only_rows(gx_chunk *c)
{
	gx_result  *res = gx_chunk_result(c);
	uint32_t   *seg_cnt = gx_result_seg_cnt(res);
	uint32_t	errrow = res->error != GX_NO_ERROR ? (uint32_t) (res->error >> 8) : UINT32_MAX;
	uint64_t	n = 0;

	for (uint32_t t = 0; t < res->ntiles; t++)
	{
		n += seg_cnt[t];
		if ((uint64_t) (t + 1) * GX_TILE_ROWS > errrow)
			break;
	}
	return n;
}

/*
 * run chunk c (capacity bytes) in GPU slot 0 and on the CPU device, each
 * with its context; false on failure
 */
static bool
run_both(void *staging, const gx_chunk *c, uint64_t capacity, gx_chunk *cpu,
		 const gx_task_ctx *gctx, const gx_task_ctx *cctx, const char *what)
{
	char		err[512];

	memcpy(staging, c, capacity);
	memcpy(cpu, c, capacity);
	CHECK(gx_gpu_submit(g_gpu, 0, gctx, err, sizeof(err)) == GX_OK, "%s: gx_gpu_submit: %s", what, err);
	if (!poll_until_done(0, err, sizeof(err)))
	{
		CHECK(false, "%s: gx_gpu_poll: %s", what, err);
		return false;
	}
	CHECK(cpu_run(cpu, capacity, cctx) == GX_OK, "%s: gx_cpu_run", what);
	return true;
}

/*
 * The device cache: a page chunk is loaded twice into one of two entries
 * of each device (gx_mem_alloc blocks: rows [0, n) and [n, 2n), the second
 * with block0 = its page count, so that NULL bitmap words are shared
 * between the two loads), then the entry is filtered by a SCAN chunk with
 * the page chunk's program: the GPU and the CPU device must agree (row map
 * values, error and its key, count-only counts, aggregates read back with
 * AGG_READ), and the first half must select the page chunk's own rows,
 * mapped.
 */
static void
test_cache(std::mt19937_64 &rng, void *staging, size_t slot_bytes)
{
	const uint32_t sizes[] = {1, 31, 33, 1000, 1025, 5000, 30000};
	const size_t unit = 8u << 20;
	char		err[512];
	int			nscans = 0,
				naggs = 0;
	gx_chunk   *cpu = (gx_chunk *) malloc(slot_bytes);
	void	   *gentry[2] = {nullptr, nullptr},
			   *centry[2] = {nullptr, nullptr};
	AggStates	states;

	for (int e = 0; e < 2; e++)
	{
		CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, unit, &gentry[e], err, sizeof(err)) == GX_OK,
			  "GPU cache entry: %s", err);
		CHECK(gx_mem_alloc(GX_DEV_CPU, unit, &centry[e], err, sizeof(err)) == GX_OK,
			  "CPU cache entry: %s", err);
	}
	if (!states.open() || !gentry[0] || !gentry[1] || !centry[0] || !centry[1])
	{
		free(cpu);
		return;
	}
	for (int round = 0; round < 24; round++)
	{
		PageChunk	pc;
		uint32_t	n = sizes[rng() % (sizeof(sizes) / sizeof(sizes[0]))];

		build_page_chunk(pc, rng, n);

		gx_chunk   *pg = (gx_chunk *) pc.mem;
		gx_chunk   *ld = (gx_chunk *) malloc(pc.capacity);
		uint32_t	npages = gx_chunk_deform(pg)->npages;
		int			entry = (int) (rng() % 2);
		bool		ok = true;
		gx_task_ctx gctx = states.gctx,
					cctx = states.cctx;

		gctx.entry = (char *) gentry[entry];
		gctx.entry_bytes = unit;
		cctx.entry = (char *) centry[entry];
		cctx.entry_bytes = unit;
		if (pg->ncols > GX_CACHE_MAX_COLS || pc.capacity > slot_bytes)
		{
			free(ld);
			continue;
		}
		/* the reference: the page chunk filtered by the CPU device */
		CHECK(cpu_run(pg, pc.capacity) == GX_OK, "cache: cpu run of the pages");
		std::vector<uint32_t> ref = backend_selection(pg);
		const uint32_t *map = (const uint32_t *) ((char *) pg + gx_chunk_deform(pg)->rowmap_off);

		/* two LOADs of the same pages */
		memcpy(ld, pg, pc.capacity);
		ld->kind = GX_TASK_CACHE_LOAD;
		ld->ninstr = 0;
		ld->nconsts = 0;
		ld->flags = 0;
		memset(&ld->ext, 0, sizeof(ld->ext));
		ld->ext.count_only = 1;
		ld->ext.entry = entry;
		ld->ext.entry_rows = 2 * (uint64_t) n;
		CHECK(cache_layout(pg, 2 * (uint64_t) n, &ld->ext) <= unit, "cache: entry layout fits");
		for (int part = 0; part < 2 && ok; part++)
		{
			ld->ext.row0 = part * n;
			ld->ext.block0 = part * npages;
			ok = run_both(staging, ld, pc.capacity, cpu, &gctx, &cctx, "cache load");
			if (ok)
				CHECK(gx_chunk_result((gx_chunk *) staging)->error == GX_NO_ERROR &&
					  gx_chunk_result(cpu)->error == GX_NO_ERROR, "cache load: no error");
		}
		/*
		 * SCAN the entry: selection of map values, then count only, then a
		 * selection that skips the rows of random blocks (stale blocks)
		 */
		for (int pass = 0; pass < 3 && ok; pass++)
		{
			gx_chunk   *sc = (gx_chunk *) calloc(1, slot_bytes);
			gx_chunk_ext x;
			const int	count_only = pass == 1;
			const uint32_t nblk = 2 * npages;
			std::vector<uint32_t> skip((nblk + 31) / 32, 0);

			memcpy(sc, pg, sizeof(gx_chunk));
			memset(&x, 0, sizeof(x));
			cache_layout(pg, 2 * (uint64_t) n, &x);
			sc->kind = GX_TASK_CACHE_SCAN;
			sc->deform_off = 0;
			sc->flags = (round & 1) ? GX_CHUNK_JIT | GX_CHUNK_JIT_WAIT : 0;
			sc->nrows = 2 * n;
			sc->input_bytes = GX_ALIGN_UP(sizeof(gx_chunk));
			sc->result_off = sc->input_bytes;
			for (uint32_t i = 0; i < sc->ncols; i++)
			{
				sc->cols[i].values_off = x.values_off[i];
				sc->cols[i].nulls_off = x.nulls_off[i];
			}
			memset(&sc->ext, 0, sizeof(sc->ext));
			sc->ext.entry = entry;
			sc->ext.map_sel = count_only ? 0 : 1;
			sc->ext.count_only = (uint32_t) count_only;
			sc->ext.rowmap_off = x.rowmap_off;
			if (pass == 2)
			{
				for (uint32_t b = 0; b < nblk; b++)
					if (rng() % 3 == 0)
						skip[b / 32] |= 1u << (b % 32);
				sc->ext.skip_blocks = nblk;
				sc->ext.skip_off = sc->input_bytes;
				memcpy((char *) sc + sc->input_bytes, skip.data(), skip.size() * 4);
				sc->input_bytes = GX_ALIGN_UP(sc->input_bytes + skip.size() * 4);
				sc->result_off = sc->input_bytes;
			}
			/* count-only scans also aggregate: count every column, sum the integers */
			if (count_only)
			{
				sc->obj[0] = 1;
				for (uint32_t i = 0; i < sc->ncols && sc->ext.nagg < GX_MAX_AGGS; i++)
				{
					uint32_t	t = sc->cols[i].type;
					bool		integer = t == GX_INT2 || t == GX_INT4 || t == GX_INT8;

					sc->ext.agg[sc->ext.nagg].op = integer ? GX_AGG_SUM : GX_AGG_COUNT;
					sc->ext.agg[sc->ext.nagg].col = (int16_t) i;
					sc->ext.nagg++;
				}
			}
			ok = run_both(staging, sc, sc->result_off + gx_result_bytes(sc->nrows),
						  cpu, &gctx, &cctx, "cache scan");
			if (ok)
			{
				gx_chunk   *gc = (gx_chunk *) staging;
				gx_result  *gr = gx_chunk_result(gc);
				gx_result  *cr = gx_chunk_result(cpu);

				nscans++;
				CHECK(!(sc->flags & GX_CHUNK_JIT) || (gr->flags & GX_RESULT_JIT),
					  "cache scan round %d: compiled kernel ran (flags %x)", round, gr->flags);
				CHECK(gr->error == cr->error, "cache scan round %d: error gpu %llx cpu %llx",
					  round, (unsigned long long) gr->error, (unsigned long long) cr->error);
				if (count_only)
				{
					bool		noerr = gr->error == GX_NO_ERROR;
					char		what[64];

					CHECK(count_only_rows(gc) == count_only_rows(cpu),
						  "cache scan round %d: count-only rows gpu %llu cpu %llu", round,
						  (unsigned long long) count_only_rows(gc), (unsigned long long) count_only_rows(cpu));
					/* aggregates agree when no row raised an error */
					snprintf(what, sizeof(what), "cache scan round %d", round);
					agg_read_both(staging, states, sc->ext.nagg, noerr, what);
					naggs += sc->ext.nagg;
				}
				else
				{
					std::vector<uint32_t> gsel = cache_selection(gc);
					std::vector<uint32_t> csel = cache_selection(cpu);
					std::vector<uint32_t> first,
								want;

					CHECK(gr->error == GX_NO_ERROR || gr->error_key == cr->error_key,
						  "cache scan round %d: error key gpu %u cpu %u", round,
						  gr->error_key, cr->error_key);
					CHECK(gsel == csel, "cache scan round %d pass %d: selections differ (gpu %zu cpu %zu)",
						  round, pass, gsel.size(), csel.size());
					for (uint32_t v : gsel)
						if (pass == 2 && (skip[(v >> 16) / 32] >> ((v >> 16) % 32)) & 1)
						{
							CHECK(false, "cache scan round %d: a row of a skipped block was selected", round);
							break;
						}
					/* first half = the page chunk's selection through its row map */
					for (uint32_t v : csel)
						if ((v >> 16) < npages)
							first.push_back(v);
					for (uint32_t r : ref)
						want.push_back(map[r]);
					if (pass == 0 && gx_chunk_result(pg)->error == GX_NO_ERROR)
						CHECK(first == want, "cache scan round %d: first half selects %zu rows, pages %zu",
							  round, first.size(), want.size());
				}
			}
			free(sc);
		}
		free(ld);
	}
	for (int e = 0; e < 2; e++)
	{
		gx_mem_free(GX_DEV_GPU + g_gpu, gentry[e]);
		gx_mem_free(GX_DEV_CPU, centry[e]);
	}
	states.close();
	free(cpu);
	printf("cache: %d scans of loaded entries, %d aggregates (GPU vs CPU device)\n", nscans, naggs);
}

/*
 * AGG_READ: in every mode, all slots in flight add into one GPU state
 * object (and the CPU device into its own); AGG_READ on both returns the
 * hand-computed totals and zeroes the states: a second read gives zeros.
 */
static void
test_agg_read(std::mt19937_64 &rng, void *staging, int nslots, size_t slot_bytes)
{
	const uint32_t sizes[] = {1, 1000, 1024, 4097, 100000, 300000};
	char		err[512];
	AggStates	states;

	if (!states.open())
		return;
	for (int mode = 0; mode < NMODES; mode++)
	{
		int64_t		want_val[GX_MAX_AGGS] = {0},
					want_cnt[GX_MAX_AGGS] = {0},
					got_val[GX_MAX_AGGS],
					got_cnt[GX_MAX_AGGS];

		for (int round = 0; round < 3; round++)
		{
			std::vector<ChunkBuilder *> bs(nslots);

			for (int s = 0; s < nslots; s++)
			{
				bs[s] = new ChunkBuilder();
				build_agg_task(*bs[s], rng, sizes[rng() % (sizeof(sizes) / sizeof(sizes[0]))],
							   want_val, want_cnt);
				gx_chunk   *c = (gx_chunk *) bs[s]->mem;

				c->ext.count_only = (uint32_t) (rng() % 2);
				c->flags = mode_flags(mode, s);
				memcpy((char *) staging + s * slot_bytes, c, bs[s]->capacity);
			}
			for (int s = 0; s < nslots; s++)
				CHECK(gx_gpu_submit(g_gpu, s, &states.gctx, err, sizeof(err)) == GX_OK,
					  "agg read (%s): submit %d: %s", mode_name[mode], s, err);
			for (int s = 0; s < nslots; s++)
			{
				gx_chunk   *gc = (gx_chunk *) ((char *) staging + s * slot_bytes);

				CHECK(poll_until_done(s, err, sizeof(err)), "agg read (%s): poll %d: %s",
					  mode_name[mode], s, err);
				CHECK(gx_chunk_result(gc)->agg_cnt[0] == 0 && gx_chunk_result(gc)->agg_val[0] == 0,
					  "agg read (%s): a filter result carries no aggregate", mode_name[mode]);
				CHECK(cpu_run((gx_chunk *) bs[s]->mem, bs[s]->capacity, &states.cctx) == GX_OK,
					  "agg read (%s): cpu run", mode_name[mode]);
				delete bs[s];
			}
		}
		agg_read_both(staging, states, 3, true, "agg read", got_val, got_cnt);
		for (int a = 0; a < 3; a++)
			CHECK(got_val[a] == want_val[a] && got_cnt[a] == want_cnt[a],
				  "agg read (%s): aggregate %d %lld/%lld, want %lld/%lld", mode_name[mode], a,
				  (long long) got_val[a], (long long) got_cnt[a],
				  (long long) want_val[a], (long long) want_cnt[a]);
		/* the states were zeroed */
		agg_read_both(staging, states, 3, true, "agg read again", got_val, got_cnt);
		CHECK(got_val[0] == 0 && got_cnt[0] == 0 && got_val[2] == 0 && got_cnt[2] == 0,
			  "agg read (%s): a second read gives zeros", mode_name[mode]);
	}
	states.close();
	printf("agg read: aggregates of %d slots in flight on one state object, %d modes\n",
		   nslots, NMODES);
}

/* ---------------------------------------------------------------------- */
/* group tables (GpuPreAgg)                                               */
/* ---------------------------------------------------------------------- */

/* a group's count(*), sum, min, max and count of the value column */
struct GroupVal
{
	int64_t		rows = 0,
				sum = 0,
				min = std::numeric_limits<int64_t>::max(),
				max = std::numeric_limits<int64_t>::min(),
				n = 0;

	void		add(int64_t r, int64_t s, int64_t lo, int64_t hi, int64_t cnt)
	{
		rows += r;
		if (cnt == 0)
			return;
		sum += s;
		min = lo < min ? lo : min;
		max = hi > max ? hi : max;
		n += cnt;
	}
	bool		operator==(const GroupVal &o) const
	{
		return rows == o.rows && sum == o.sum && n == o.n &&
			(n == 0 || (min == o.min && max == o.max));
	}
};

typedef std::map<std::pair<uint32_t, int64_t>, GroupVal> GroupMap;

/* the groups of a GROUP_READ result (nsel records) into m */
static void
group_records(const gx_result *res, GroupMap &m)
{
	const uint64_t sb = gx_group_slot_bytes(1, 4);
	const char *rec = (const char *) res + GX_ALIGN_UP(sizeof(gx_result));

	for (uint32_t i = 0; i < res->nsel; i++, rec += sb)
	{
		const gx_agg_pair *p = (const gx_agg_pair *) (rec + 16);
		uint32_t	nulls = ((const uint32_t *) rec)[1];

		m[{nulls, ((const int64_t *) rec)[1]}].add(p[0].cnt, p[1].val, p[2].val, p[3].val,
												   p[1].cnt);
	}
}

/* read a whole group table on both devices into gm / cm; the read empties it */
static void
group_read_both(void *staging, size_t slot_bytes, gx_chunk *cpu, const gx_task_ctx *gctx,
				const gx_task_ctx *cctx, uint32_t cap, GroupMap &gm, GroupMap &cm,
				uint64_t *ngroups, const char *what)
{
	const uint64_t sb = gx_group_slot_bytes(1, 4);
	const uint64_t hdr = GX_ALIGN_UP(sizeof(gx_chunk));
	const uint32_t room = (uint32_t) ((slot_bytes - hdr - GX_ALIGN_UP(sizeof(gx_result))) / sb);
	char		err[512];

	*ngroups = 0;
	for (uint32_t from = 0; from < cap; from += room)
	{
		gx_chunk   *c = (gx_chunk *) staging;

		memset(c, 0, hdr + sizeof(gx_result));
		c->magic = GX_CHUNK_MAGIC;
		c->kind = GX_TASK_GROUP_READ;
		c->obj[0] = 1;
		c->nrows = cap - from < room ? cap - from : room;
		c->input_bytes = hdr;
		c->result_off = hdr;
		c->ext.ngroup_cap = cap;
		c->ext.ngroup_limit = cap / 2;
		c->ext.ngkeys = 1;
		c->ext.nagg = 4;
		c->ext.row0 = from;
		memcpy(cpu, c, hdr);
		CHECK(gx_gpu_submit(g_gpu, 0, gctx, err, sizeof(err)) == GX_OK, "%s: GROUP_READ submit: %s",
			  what, err);
		CHECK(poll_until_done(0, err, sizeof(err)), "%s: GROUP_READ poll: %s", what, err);
		CHECK(cpu_run(cpu, slot_bytes, cctx) == GX_OK, "%s: CPU GROUP_READ", what);
		CHECK(gx_chunk_result(c)->nsel == gx_chunk_result(cpu)->nsel,
			  "%s: GROUP_READ at %u: gpu %u groups, cpu %u", what, from,
			  gx_chunk_result(c)->nsel, gx_chunk_result(cpu)->nsel);
		group_records(gx_chunk_result(c), gm);
		group_records(gx_chunk_result(cpu), cm);
		*ngroups += gx_chunk_result(c)->nsel;
	}
}

/*
 * GROUP BY in a group table: chunks of (key int8 with NULLs, value int4
 * with NULLs) filtered by "value IS NULL OR value > -900", the key and the
 * value as the program's outputs (GX_OP_OUT), add count(*),
 * sum, min and max of the value per key into a table of each device; the
 * rows a table has no room for are selected.  The table's groups (read
 * with GROUP_READ) plus the selected rows as groups of one must be the
 * host's groups, on both devices; tables too small for the groups send
 * rows to the host and lose nothing; a second read finds the tables empty.
 * Each case runs again with FILTER (WHERE value > 0) on the four
 * aggregates (output 2, gx_agg.filt): rows add only where it is true.
 */
static void
test_group(std::mt19937_64 &rng, void *staging, size_t slot_bytes)
{
	/* each way rows reach a group: a block's table, or straight */
	struct
	{
		uint32_t	groups, cap, rows, chunks, gflags;
	}			cases[] = {
		{1, 1024, 5000, 2, 0}, {10, 1024, 200000, 3, 0},
		{3000, 8192, 60000, 2, 0}, {50000, 4096, 100000, 2, GX_GROUP_NO_LOCAL},
		{200000, 1u << 19, 300000, 2, 0}, {40, 2048, 100000, 2, 0}
	};
	gx_chunk   *cpu = (gx_chunk *) malloc(slot_bytes);
	int			ncases = 0;

	for (int filtered : {0, 1})
	for (auto &tc : cases)
		for (int mode : {MODE_COPY, MODE_MAPPED, MODE_JIT})
		{
			char		what[112];
			char		err[512];
			uint64_t	tbytes = gx_group_table_bytes(tc.cap, 1, 4);
			void	   *gt = nullptr,
					   *ct = nullptr;
			GroupMap	want,
						gm,
						cm;
			uint64_t	host_g = 0,
						host_c = 0,
						ngroups;
			gx_task_ctx gctx,
						cctx;

			snprintf(what, sizeof(what), "group %u groups, %u slots (%s%s)", tc.groups, tc.cap,
					 mode_name[mode], filtered ? ", FILTER (WHERE value > 0)" : "");
			CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gt, err, sizeof(err)) == GX_OK &&
				  gx_mem_alloc(GX_DEV_CPU, tbytes, &ct, err, sizeof(err)) == GX_OK,
				  "%s: table: %s", what, err);
			memset(&gctx, 0, sizeof(gctx));
			memset(&cctx, 0, sizeof(cctx));
			gctx.obj[0] = (char *) gt;
			gctx.obj_bytes[0] = tbytes;
			cctx.obj[0] = (char *) ct;
			cctx.obj_bytes[0] = tbytes;
			for (uint32_t ch = 0; ch < tc.chunks; ch++)
			{
				ChunkBuilder b;
				std::vector<int64_t> k(tc.rows),
							v(tc.rows);
				std::vector<uint8_t> kn(tc.rows),
							vn(tc.rows);

				for (uint32_t r = 0; r < tc.rows; r++)
				{
					k[r] = (int64_t) (rng() % tc.groups) * 1000003 - 7;
					kn[r] = rng() % 40 == 0;
					v[r] = (int64_t) (rng() % 2001) - 1000;
					vn[r] = rng() % 20 == 0;
				}
				int			kc = b.add_int_col(GX_INT8, k, kn);
				int			vc = b.add_int_col(GX_INT4, v, vn);
				/* value IS NULL OR value > -900: r3 accumulates the OR */
				b.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, vc);
				b.emit(GX_OP_SETBOOL, GX_BOOL, 3, 0, 0, 0);
				b.emit(GX_OP_ISNULL, GX_BOOL, 1, 0);
				b.emit(GX_OP_ORSTEP, GX_BOOL, 3, 1, 0, 0, 7);
				b.emit(GX_OP_LDCONST, GX_INT4, 2, 0, 0, b.kint(GX_INT4, -900));
				b.emit(GX_OP_GT, GX_INT4, 2, 0, 2);
				b.emit(GX_OP_ORSTEP, GX_BOOL, 3, 2, 0, 0, 7);
				b.emit(GX_OP_QUAL, GX_BOOL, 0, 3);
				/* outputs: the key (0), the value (1) */
				b.emit(GX_OP_LDCOL, GX_INT8, 4, 0, 0, kc);
				b.emit(GX_OP_OUT, GX_INT8, 0, 4, 0, 0);
				b.emit(GX_OP_OUT, GX_INT4, 0, 0, 0, 1);
				/* FILTER (WHERE value > 0): output 2, NULL where the value is */
				b.emit(GX_OP_LDCONST, GX_INT4, 5, 0, 0, b.kint(GX_INT4, 0));
				b.emit(GX_OP_GT, GX_INT4, 5, 0, 5);
				b.emit(GX_OP_OUT, GX_BOOL, 0, 5, 0, 2);

				gx_chunk   *c = b.build();
				/* a row's contribution: only where the filter is true, if any */
				auto		add = [&](GroupMap &m, uint32_t r) {
					bool		in = !filtered || (!vn[r] && v[r] > 0);

					m[{kn[r] ? 1u : 0u, kn[r] ? 0 : k[r]}].add(in ? 1 : 0, v[r], v[r], v[r],
															   in && !vn[r] ? 1 : 0);
				};

				c->flags = mode_flags(mode, 0);
				c->obj[0] = 1;
				c->ext.entry = -1;
				c->ext.ngroup_cap = tc.cap;
				c->ext.ngroup_limit = tc.cap / 2;
				c->ext.ngkeys = 1;
				c->ext.gflags = tc.gflags;
				c->ext.gkey_col[0] = 0;
				c->ext.nagg = 4;
				c->ext.agg[0] = {GX_AGG_COUNT, -1};
				c->ext.agg[1] = {GX_AGG_SUM, 1};
				/* min and max keep no count: the sum's is theirs (as the executor sets) */
				c->ext.agg[2] = {GX_AGG_MIN, 1, 0, 2};
				c->ext.agg[3] = {GX_AGG_MAX, 1, 0, 2};
				for (uint32_t a = 0; a < 4 && filtered; a++)
					c->ext.agg[a].filt = 3;		/* 1 + output 2 */
				for (uint32_t r = 0; r < tc.rows; r++)
					if (vn[r] || v[r] > -900)
						add(want, r);
				if (!run_both(staging, c, b.capacity, cpu, &gctx, &cctx, what))
					break;

				std::vector<uint32_t> gs,
							cs;

				CHECK(tile_selection((gx_chunk *) staging, gs) && tile_selection(cpu, cs),
					  "%s: selections", what);
				CHECK(gx_chunk_result((gx_chunk *) staging)->error == GX_NO_ERROR &&
					  gx_chunk_result(cpu)->error == GX_NO_ERROR, "%s: no error", what);
				for (uint32_t r : gs)
					add(gm, r);
				for (uint32_t r : cs)
					add(cm, r);
				host_g += gs.size();
				host_c += cs.size();
			}
			group_read_both(staging, slot_bytes, cpu, &gctx, &cctx, tc.cap, gm, cm, &ngroups, what);
			CHECK(gm == want, "%s: GPU groups differ from the host's (%zu groups, want %zu)",
				  what, gm.size(), want.size());
			CHECK(cm == want, "%s: CPU groups differ from the host's (%zu groups, want %zu)",
				  what, cm.size(), want.size());
			CHECK(ngroups <= tc.cap / 2, "%s: %llu groups in %u slots", what,
				  (unsigned long long) ngroups, tc.cap);
			CHECK((host_g == 0) == (want.size() <= tc.cap / 2) || want.size() > tc.cap / 2,
				  "%s: rows went to the host with room in the table", what);
			{
				GroupMap	g2,
							c2;

				group_read_both(staging, slot_bytes, cpu, &gctx, &cctx, tc.cap, g2, c2, &ngroups,
								what);
				CHECK(ngroups == 0 && c2.empty(), "%s: the read empties the table", what);
			}
			printf("%s: %zu groups, %llu / %llu rows to the host (gpu / cpu)\n", what,
				   want.size(), (unsigned long long) host_g, (unsigned long long) host_c);
			gx_mem_free(GX_DEV_GPU + g_gpu, gt);
			gx_mem_free(GX_DEV_CPU, ct);
			ncases++;
		}
	free(cpu);
	printf("group tables: %d cases agree with the host\n", ncases);
}

/* ---------------------------------------------------------------------- */
/* joins (gx_join.cuh): GPU against the CPU device and the reference      */
/* ---------------------------------------------------------------------- */

/*
 * Copy bytes of host memory into dev, a block of the GPU's pool
 * (gx_mem_alloc), before a task that reads it is submitted.  The block's
 * zeroing is queued on the pool's own non-blocking stream, which
 * cudaMemcpy (the legacy stream) does not wait for, and a copy from
 * pageable memory may return before its DMA is over, while the slots'
 * non-blocking streams do not wait for the legacy stream either: so the
 * device is synchronized before the copy (the zeroing is over) and after
 * it (the bytes are there).  A bare cudaMemcpy here let the zeroing land
 * after the copy: an entry of zeros, every row padding, a task without
 * rows (test_upload_order shows it).
 */
static bool
gpu_upload(void *dev, const void *host, uint64_t bytes)
{
	return cudaDeviceSynchronize() == cudaSuccess &&
		cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice) == cudaSuccess &&
		cudaDeviceSynchronize() == cudaSuccess;
}

/*
 * Run task c (capacity bytes) in GPU slot 0 with the objects of ctx and
 * the cache entry (host memory) of entry_bytes, or none, copied into
 * device memory for the run (gpu_upload): the task is copied into the
 * staging slot, run, and its slot copied back over c; false (a message
 * naming what) on failure
 */
static bool
gpu_run_slot0(void *staging, size_t slot_bytes, gx_chunk *c, uint64_t capacity, gx_task_ctx *ctx,
			  const void *entry, uint64_t entry_bytes, const char *what)
{
	char		err[512];
	void	   *gentry = nullptr;
	bool		ok = true;

	if (capacity > slot_bytes)
	{
		fprintf(stderr, "%s of %llu bytes does not fit the slot\n", what,
				(unsigned long long) capacity);
		return false;
	}
	/* a cache entry: in device memory */
	if (entry != nullptr &&
		(gx_mem_alloc(GX_DEV_GPU + g_gpu, entry_bytes, &gentry, err, sizeof(err)) != GX_OK ||
		 !gpu_upload(gentry, entry, entry_bytes)))
	{
		fprintf(stderr, "GPU %s: entry: %s\n", what, err);
		return false;
	}
	ctx->entry = (char *) gentry;
	ctx->entry_bytes = entry != nullptr ? entry_bytes : 0;
	memcpy(staging, c, capacity);
	if (gx_gpu_submit(g_gpu, 0, ctx, err, sizeof(err)) != GX_OK || !poll_until_done(0, err, sizeof(err)))
	{
		fprintf(stderr, "GPU %s: %s\n", what, err);
		ok = false;
	}
	else
		memcpy(c, staging, capacity);
	if (gentry != nullptr)
		gx_mem_free(GX_DEV_GPU + g_gpu, gentry);
	return ok;
}

/* run a join task in GPU slot 0 with the table gt (gpu_run_slot0) */
static JoinRunner
gpu_join_runner(void *staging, size_t slot_bytes, void *gt, uint64_t tbytes)
{
	return [=](gx_chunk *c, uint64_t capacity, const void *entry, uint64_t entry_bytes) {
		gx_task_ctx ctx;

		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = (char *) gt;
		ctx.obj_bytes[0] = tbytes;
		return gpu_run_slot0(staging, slot_bytes, c, capacity, &ctx, entry, entry_bytes,
							 "join task");
	};
}

/*
 * One join case on both devices, every mode, count-only or not, each
 * result area size: the GPU's entries and counts equal the CPU device's
 * and the reference's (each against its own table's room: which rows find
 * room in a full table depends on the threads)
 */
static void
join_case_both(void *staging, size_t slot_bytes, const char *what, const JoinSide &inner,
			   const JoinSide &outer, JoinSpec js, uint32_t ibatch, uint32_t obatch,
			   const std::vector<uint32_t> &max_pairs_list, uint32_t cap_rows)
{
	int			ncases = 0;
	/* the rows the device sees (cache entries skip some) */
	const JoinSide iref = js.entry ? join_entry_visible(inner, ibatch) : inner;
	const JoinSide oref = js.entry ? join_entry_visible(outer, obatch) : outer;

	join_size(js, cap_rows ? cap_rows : join_inner_rows(iref, js));

	uint64_t	tbytes = join_table_bytes(js);

	for (uint32_t mode : {GX_JOIN_INNER, GX_JOIN_SEMI, GX_JOIN_ANTI, GX_JOIN_LEFT,
		 GX_JOIN_RIGHT, GX_JOIN_FULL})
		for (int count_only : {0, 1})
			if (js.alg == GX_JOIN_RANGE && mode > GX_JOIN_ANTI)
				continue;		/* (the range join: INNER, SEMI, ANTI) */
			else
			for (uint32_t maxp : max_pairs_list)
			{
				void	   *gt = nullptr,
						   *ct = nullptr;
				char		err[512];
				JoinOut		g,
							cp,
							wg,
							wc;

				CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gt, err, sizeof(err)) == GX_OK &&
					  gx_mem_alloc(GX_DEV_CPU, tbytes, &ct, err, sizeof(err)) == GX_OK,
					  "%s: tables: %s", what, err);
				join_all(gpu_join_runner(staging, slot_bytes, gt, tbytes), inner, outer, js, mode,
						 count_only, maxp, ibatch, obatch, g);
				join_all(cpu_join_runner(ct, tbytes), inner, outer, js, mode, count_only, maxp,
						 ibatch, obatch, cp);
				join_reference(iref, oref, js, mode, count_only, &g.build_sel, wg);
				join_reference(iref, oref, js, mode, count_only, &cp.build_sel, wc);
				CHECK(g.ok && g.more_flags && cp.ok,
					  "%s: mode %u count_only %d max %u: tasks ran in order", what, mode,
					  count_only, maxp);
				CHECK(g.pairs == wg.pairs && cp.pairs == wc.pairs && g.count == wg.count &&
					  g.host == wg.host && g.table_rows == cp.table_rows &&
					  g.build_sel.size() == cp.build_sel.size(),
					  "%s: mode %u count_only %d max %u: GPU %zu entries, count %llu, want %zu, %llu",
					  what, mode, count_only, maxp, g.pairs.size(), (unsigned long long) g.count,
					  wg.pairs.size(), (unsigned long long) wg.count);
				CHECK(g.unmatched == wg.unmatched && g.ucount == wg.ucount &&
					  cp.unmatched == wc.unmatched && cp.ucount == wc.ucount,
					  "%s: mode %u count_only %d max %u: GPU %zu unmatched (count %llu), want %zu",
					  what, mode, count_only, maxp, g.unmatched.size(),
					  (unsigned long long) g.ucount, wg.unmatched.size());
				if (cap_rows == 0)
					CHECK(g.pairs == cp.pairs && g.count == cp.count && g.passes == cp.passes &&
						  g.unmatched == cp.unmatched,
						  "%s: mode %u count_only %d max %u: GPU and CPU differ", what, mode,
						  count_only, maxp);
				gx_mem_free(GX_DEV_GPU + g_gpu, gt);
				gx_mem_free(GX_DEV_CPU, ct);
				ncases++;
			}
	printf("join %s: %d runs, GPU = CPU = reference\n", what, ncases);
}

/* gpu_join_runner with its tasks on GPU gpu (g_gpu while they run) */
static JoinRunner
gpu_join_runner_on(int gpu, void *staging, size_t slot_bytes, void *gt, uint64_t tbytes)
{
	JoinRunner	run = gpu_join_runner(staging, slot_bytes, gt, tbytes);

	return [=](gx_chunk *c, uint64_t capacity, const void *entry, uint64_t entry_bytes) {
		int			was = g_gpu;

		g_gpu = gpu;

		bool		ok = run(c, capacity, entry, entry_bytes);

		g_gpu = was;
		return ok;
	};
}

/*
 * One join case probed on a replica of its table (GpuJoin on several
 * devices): built and finished on GPU bgpu, its probe parts copied into a
 * zeroed replica on GPU pgpu by an OBJ_COPY task run there (a
 * peer-to-peer copy when the GPUs differ), every probe run on pgpu; the
 * same on the CPU device; the modes whose probes only read the table: the
 * GPU's entries and counts are the reference's and (room for every row)
 * the CPU device's
 */
static void
join_replica_both(void *staging, size_t slot_bytes, int bgpu, int pgpu, const char *what,
				  const JoinSide &inner, const JoinSide &outer, JoinSpec js, uint32_t ibatch,
				  uint32_t obatch, const std::vector<uint32_t> &max_pairs_list, uint32_t cap_rows)
{
	int			ncases = 0;
	const JoinSide iref = js.entry ? join_entry_visible(inner, ibatch) : inner;
	const JoinSide oref = js.entry ? join_entry_visible(outer, obatch) : outer;

	join_size(js, cap_rows ? cap_rows : join_inner_rows(iref, js));

	uint64_t	tbytes = join_table_bytes(js);

	for (uint32_t mode : {GX_JOIN_INNER, GX_JOIN_SEMI, GX_JOIN_ANTI, GX_JOIN_LEFT})
		for (int count_only : {0, 1})
			for (uint32_t maxp : max_pairs_list)
			{
				void	   *gt = nullptr,
						   *gr = nullptr;
				char		err[512];
				JoinOut		g,
							cp,
							wg;

				if (!join_replica_mode(mode, js))
					continue;
				CHECK(gx_mem_alloc(GX_DEV_GPU + bgpu, tbytes, &gt, err, sizeof(err)) == GX_OK &&
					  gx_mem_alloc(GX_DEV_GPU + pgpu, tbytes, &gr, err, sizeof(err)) == GX_OK,
					  "%s: tables: %s", what, err);

				JoinCopier	gcopy = [&](gx_chunk *k) {
					gx_task_ctx ctx;
					int			was = g_gpu;

					memset(&ctx, 0, sizeof(ctx));
					ctx.obj[0] = (char *) gr;
					ctx.obj[1] = (char *) gt;
					ctx.obj_bytes[0] = ctx.obj_bytes[1] = tbytes;
					g_gpu = pgpu;

					bool		ok = gpu_run_slot0(staging, slot_bytes, k, join_finish_bytes(), &ctx,
												   nullptr, 0, "object copy");

					g_gpu = was;
					return ok;
				};

				join_all(replica_join_runner(gpu_join_runner_on(bgpu, staging, slot_bytes, gt, tbytes),
											 gpu_join_runner_on(pgpu, staging, slot_bytes, gr, tbytes),
											 js, gcopy),
						 inner, outer, js, mode, count_only, maxp, ibatch, obatch, g);
				join_all_cpu_replica(inner, outer, js, mode, count_only, maxp, ibatch, obatch, cp);
				join_reference(iref, oref, js, mode, count_only, &g.build_sel, wg);
				CHECK(g.ok && g.more_flags && cp.ok && g.pairs == wg.pairs && g.count == wg.count &&
					  g.host == wg.host,
					  "%s: replica on GPU %d of GPU %d's table, mode %u count_only %d max %u: "
					  "%zu entries, count %llu, want %zu, %llu", what, pgpu, bgpu, mode, count_only,
					  maxp, g.pairs.size(), (unsigned long long) g.count, wg.pairs.size(),
					  (unsigned long long) wg.count);
				if (cap_rows == 0)
					CHECK(g.pairs == cp.pairs && g.count == cp.count && g.passes == cp.passes,
						  "%s: replica, mode %u count_only %d max %u: GPU and CPU differ", what,
						  mode, count_only, maxp);
				gx_mem_free(GX_DEV_GPU + bgpu, gt);
				gx_mem_free(GX_DEV_GPU + pgpu, gr);
				ncases++;
			}
	printf("join replica %s (table on GPU %d, probed on GPU %d): %d runs, GPU = CPU = reference\n",
		   what, bgpu, pgpu, ncases);
}

/*
 * A hash join case over a table in 2 and 3 parts (parts_join_runner:
 * every task once a part, join_devparts.cpp), part p's table on GPU
 * gpus[p % gpus.size()] (several GPUs: each reads the task's rows, a
 * cache entry too, from host memory as a device does its peers'),
 * count-only INNER, SEMI, ANTI and LEFT probes: the count is the
 * reference's and the CPU device's, the parts' rows the whole table's
 */
static void
join_parts_both(void *staging, size_t slot_bytes, const std::vector<int> &gpus, const char *what,
				const JoinSide &inner, const JoinSide &outer, JoinSpec js, uint32_t ibatch,
				uint32_t obatch, uint32_t cap_rows)
{
	int			ncases = 0;

	/* (a device input never leaves a row to the host) */
	if (js.alg != GX_JOIN_HASH || js.host || cap_rows != 0)
		return;

	const JoinSide iref = js.entry ? join_entry_visible(inner, ibatch) : inner;
	const JoinSide oref = js.entry ? join_entry_visible(outer, obatch) : outer;

	join_size(js, join_inner_rows(iref, js));

	uint64_t	tbytes = join_table_bytes(js);

	for (uint32_t mode : {GX_JOIN_INNER, GX_JOIN_SEMI, GX_JOIN_ANTI, GX_JOIN_LEFT})
		for (uint32_t nparts : {2u, 3u})
		{
			std::vector<void *> tables(nparts, nullptr);
			std::vector<JoinRunner> runs;
			char		err[512];
			JoinOut		g,
						cp,
						want;

			for (uint32_t p = 0; p < nparts; p++)
			{
				int			gpu = gpus[p % gpus.size()];

				CHECK(gx_mem_alloc(GX_DEV_GPU + gpu, tbytes, &tables[p], err, sizeof(err)) == GX_OK,
					  "%s: part tables: %s", what, err);
				runs.push_back(gpu_join_runner_on(gpu, staging, slot_bytes, tables[p], tbytes));
			}
			join_all(parts_join_runner(runs), inner, outer, js, mode, 1, 1u << 20, ibatch, obatch, g);
			join_all_cpu_parts(inner, outer, js, mode, nparts, ibatch, obatch, cp);
			join_reference(iref, oref, js, mode, 1, &g.build_sel, want);
			CHECK(g.ok && cp.ok && g.count == want.count && cp.count == want.count &&
				  g.table_rows == join_inner_rows(iref, js),
				  "%s: %u parts on GPUs, mode %u: count %llu (CPU %llu), want %llu; %llu rows in the parts",
				  what, nparts, mode, (unsigned long long) g.count, (unsigned long long) cp.count,
				  (unsigned long long) want.count, (unsigned long long) g.table_rows);
			for (uint32_t p = 0; p < nparts; p++)
				gx_mem_free(GX_DEV_GPU + gpus[p % gpus.size()], tables[p]);
			ncases++;
		}
	printf("join parts %s (on %zu GPU(s)): %d runs, GPU = CPU = reference\n", what, gpus.size(),
		   ncases);
}

/* the hash join's cases (scale 1) over tables in parts on the GPUs gpus */
static void
test_join_parts(std::mt19937_64 &rng, void *staging, size_t slot_bytes, const std::vector<int> &gpus)
{
	JoinCaseFn	parts = [&](const char *what, const JoinSide &in, const JoinSide &out,
							const JoinSpec &js, uint32_t ib, uint32_t ob,
							const std::vector<uint32_t> &maxp, uint32_t cap_rows) {
		(void) maxp;
		join_parts_both(staging, slot_bytes, gpus, what, in, out, js, ib, ob, cap_rows);
	};

	join_cases(rng, 1, parts);
}

/* the join cases (scale 1) probed on replicas: the table on GPU bgpu, the probes on pgpu */
static void
test_join_replicas(std::mt19937_64 &rng, void *staging, size_t slot_bytes, int bgpu, int pgpu)
{
	JoinCaseFn	rep = [&](const char *what, const JoinSide &in, const JoinSide &out,
						  const JoinSpec &js, uint32_t ib, uint32_t ob,
						  const std::vector<uint32_t> &maxp, uint32_t cap_rows) {
		join_replica_both(staging, slot_bytes, bgpu, pgpu, what, in, out, js, ib, ob, maxp,
						  cap_rows);
	};

	join_cases(rng, 1, rep);
	join_merge_cases(rng, 1, rep);
	join_range_cases(rng, 1, rep);
}

/*
 * Joins on the GPU: random keys with NULLs, filters and host rows, a/*
 * Joins on the GPU: random keys with NULLs, filters and host rows, a
 * payload output, a full table, 90% one key, two keys, empty sides,
 * all-match, no-match; passes of small result areas; the range join's
 * cases (its table sorted by cub::DeviceRadixSort).  Then a malformed
 * probe is refused before any CUDA call.
 */
static void
test_join(std::mt19937_64 &rng, void *staging, size_t slot_bytes)
{
	JoinCaseFn	both = [&](const char *what, const JoinSide &in, const JoinSide &out,
						   const JoinSpec &js, uint32_t ib, uint32_t ob,
						   const std::vector<uint32_t> &maxp, uint32_t cap_rows) {
		join_case_both(staging, slot_bytes, what, in, out, js, ib, ob, maxp, cap_rows);
	};

	join_cases(rng, 10, both);
	join_merge_cases(rng, 10, both);
	join_range_cases(rng, 10, both);
	/* (probed on a replica of the table: OBJ_COPY, here on the same GPU) */
	test_join_replicas(rng, staging, slot_bytes, g_gpu, g_gpu);
	/* (a table in parts, as over several devices: here all on one GPU) */
	test_join_parts(rng, staging, slot_bytes, {g_gpu});
	{
		/* a probe whose result area passes the slot: refused, the GPU stays usable */
		JoinSide	in;
		JoinSpec	js;
		ChunkBuilder b;
		char		err[512];
		gx_task_ctx ctx;
		void	   *gt = nullptr;

		for (int r = 0; r < 100; r++)
			in.add(r, false, 0, false, true);
		js.cap = 128;
		js.kcap = 256;
		gx_chunk   *c = join_side_task(b, GX_TASK_JOIN_PROBE, in, js, 0, 100);

		CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, gx_join_table_bytes(128, 256), &gt, err, sizeof(err)) ==
			  GX_OK, "join table: %s", err);
		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = (char *) gt;
		ctx.obj_bytes[0] = gx_join_table_bytes(128, 256);
		c->ext.join.max_pairs = (uint32_t) (slot_bytes / sizeof(gx_join_pair));
		memcpy(staging, c, b.capacity);
		CHECK(gx_gpu_submit(g_gpu, 0, &ctx, err, sizeof(err)) == GX_INVALID,
			  "GPU: a probe result area past the slot is refused");
		ctx.obj_bytes[0] = 1024;
		c->ext.join.max_pairs = 0;
		memcpy(staging, c, b.capacity);
		CHECK(gx_gpu_submit(g_gpu, 0, &ctx, err, sizeof(err)) == GX_INVALID,
			  "GPU: a join table object too small is refused");
		gx_mem_free(GX_DEV_GPU + g_gpu, gt);
	}
}

/*
 * Malformed tasks are refused with GX_INVALID before any CUDA call, in
 * both modes, and the device stays usable: a valid task then runs and
 * agrees with the CPU device.
 */
static void
test_gpu_validation(std::mt19937_64 &rng, void *staging, size_t slot_bytes)
{
	char		err[512];
	int64_t		wv[GX_MAX_AGGS] = {0},
				wc[GX_MAX_AGGS] = {0};
	ChunkBuilder b;
	AggStates	states;
	gx_chunk   *c = (gx_chunk *) staging;

	if (!states.open())
		return;
	build_agg_task(b, rng, 5000, wv, wc);

	gx_task_ctx small = states.gctx;
	gx_task_ctx entry = states.gctx;

	small.obj_bytes[0] = GX_AGG_STATE_BYTES - 8;
	entry.entry = (char *) states.gpu;	/* some device memory, too small */
	entry.entry_bytes = 64;

	struct
	{
		const char *what;
		int			field;
		const gx_task_ctx *ctx;
	}			cases[] = {
		{"bad magic", 0, &states.gctx},
		{"unknown flags", 1, &states.gctx},
		{"service kind", 2, &states.gctx},
		{"aggregates without a state", 3, nullptr},
		{"state too small", 3, &small},
		{"scan without entry", 4, &states.gctx},
		{"scan columns past the entry", 4, &entry},
		{"aggregate read with rows", 5, &states.gctx},
		{"bad jump", 6, &states.gctx},
		{"result past the slot", 7, &states.gctx},
	};

	for (int mode = MODE_COPY; mode <= MODE_MAPPED; mode++)
		for (auto &k : cases)
		{
			memcpy(c, b.mem, b.capacity);
			c->flags = mode_flags(mode, 0);
			switch (k.field)
			{
				case 0:
					c->magic = 0;
					break;
				case 1:
					c->flags |= 0x100;
					break;
				case 2:
					c->kind = GX_TASK_NKINDS;
					break;
				case 3:
					break;
				case 4:
					c->kind = GX_TASK_CACHE_SCAN;
					c->ext.map_sel = 0;
					break;
				case 5:
					c->kind = GX_TASK_AGG_READ;
					break;
				case 6:
					c->code[1].op = GX_OP_ANDSTEP;
					c->code[1].jump = 0;
					break;
				case 7:
					c->result_off = slot_bytes - 16;
					break;
			}
			err[0] = '\0';
			CHECK(gx_gpu_submit(g_gpu, 0, k.ctx, err, sizeof(err)) == GX_INVALID && err[0],
				  "%s refused (%s): %s", k.what, mode_name[mode], err);
		}

	/* the device is still usable */
	gx_chunk   *cpu = (gx_chunk *) malloc(b.capacity);

	c->flags = 0;
	if (run_both(staging, (gx_chunk *) b.mem, b.capacity, cpu, &states.gctx, &states.cctx,
				 "after refusals"))
	{
		std::vector<uint32_t> gsel, csel;

		CHECK(tile_selection(c, gsel) && tile_selection(cpu, csel) && gsel == csel,
			  "after refusals: same selection");
		agg_read_both(staging, states, 3, true, "after refusals");
	}
	free(cpu);
	states.close();
}

/* open the GPU on a staging area and run every comparison in every mode */

/*
 * numeric programs (gx_test.h: build_numeric_task, with rows for the
 * host) and numeric varlenas on heap pages, GPU against the CPU device
 * and the exact reference, in copy, mapped and compiled-kernel modes: the
 * same selection, and GX_RESULT_HOST exactly when a row needs the host
 */
static void
test_numeric(std::mt19937_64 &rng, void *staging, size_t slot_bytes)
{
	char		err[512];
	int			runs = 0,
				bad = 0;

	for (int mode : {MODE_COPY, MODE_MAPPED, MODE_JIT})
	{
		for (int prog = 0; prog < NUM_NPROGS; prog++)
		{
			ChunkBuilder b;
			std::vector<int> want;
			uint32_t	n = 1000 + (uint32_t) (rng() % 30000);

			build_numeric_task(b, rng, n, prog, want);
			gx_chunk   *c = b.build();

			if (b.capacity > slot_bytes)
				continue;
			memcpy(staging, c, b.capacity);
			((gx_chunk *) staging)->flags = mode_flags(mode, 0);
			cpu_run(c, b.capacity);
			bool		ok = gx_gpu_submit(g_gpu, 0, nullptr, err, sizeof(err)) == GX_OK &&
				poll_until_done(0, err, sizeof(err));
			gx_chunk   *gc = (gx_chunk *) staging;
			gx_result  *gr = gx_chunk_result(gc);
			gx_result  *cr = gx_chunk_result(c);
			std::vector<uint32_t> gs,
						cs,
						ws;
			bool		host = false;

			for (uint32_t r = 0; r < n; r++)
			{
				if (want[r] != NUM_REJECT)
					ws.push_back(r);
				host |= want[r] == NUM_HOST;
			}
			runs++;
			if (!ok || !tile_selection(gc, gs) || !tile_selection(c, cs))
			{
				bad++;
				fprintf(stderr, "numeric program %d (%s): %s\n", prog, mode_name[mode],
						ok ? "bad layout" : err);
				continue;
			}
			std::sort(gs.begin(), gs.end());
			if (gs != ws || cs != ws || gr->error != GX_NO_ERROR ||
				((gr->flags & GX_RESULT_HOST) != 0) != host ||
				((cr->flags & GX_RESULT_HOST) != 0) != host ||
				(mode == MODE_JIT && !(gr->flags & GX_RESULT_JIT)))
			{
				bad++;
				fprintf(stderr, "numeric program %d (%s): gpu %zu rows flags %x, cpu %zu flags %x, want %zu host %d\n",
						prog, mode_name[mode], gs.size(), gr->flags, cs.size(), cr->flags,
						ws.size(), (int) host);
			}
		}

		/* numeric varlenas deformed on the GPU */
		for (int round = 0; round < 3; round++)
		{
			ChunkBuilder ref;
			uint64_t	cap;
			/* (round 2: an unconstrained numeric column, with rows for the host) */
			gx_chunk   *pc = build_numeric_pages(ref, rng, 200 + (uint32_t) (rng() % 20000), &cap,
											 round == 2);
			std::vector<uint32_t> gs,
						cs;

			if (cap > slot_bytes)
			{
				free(pc);
				continue;
			}
			memcpy(staging, pc, cap);
			((gx_chunk *) staging)->flags = mode_flags(mode, 0);
			cpu_run(pc, cap);
			bool		ok = gx_gpu_submit(g_gpu, 0, nullptr, err, sizeof(err)) == GX_OK &&
				poll_until_done(0, err, sizeof(err));

			runs++;
			if (!ok || !tile_selection((gx_chunk *) staging, gs) || !tile_selection(pc, cs))
				bad++;
			else
			{
				std::sort(gs.begin(), gs.end());
				if (gs != cs || gx_chunk_result((gx_chunk *) staging)->error != GX_NO_ERROR ||
					gx_chunk_result(pc)->error != GX_NO_ERROR)
				{
					bad++;
					fprintf(stderr, "numeric pages (%s): gpu %zu rows, cpu %zu\n",
							mode_name[mode], gs.size(), cs.size());
				}
			}
			free(pc);
		}
	}

	/* group mode: rows for the host stay selected, out of every group */
	{
		const uint64_t tbytes = gx_group_table_bytes(NUM_GROUP_CAP, 1, 1);
		std::vector<char> htab(tbytes);
		std::vector<uint64_t> ctab(tbytes / 8 + 1);
		void	   *gtab = nullptr;

		CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gtab, err, sizeof(err)) == GX_OK,
			  "numeric group table: %s", err);
		for (int mode : {MODE_COPY, MODE_JIT})
			for (int prog : {1, 2, 6})
			{
				ChunkBuilder b;
				std::vector<int> want;
				uint32_t	n = 2000 + (uint32_t) (rng() % 6000);
				gx_task_ctx gctx,
							cctx;
				std::vector<uint32_t> host,
							gs,
							cs;
				int64_t		npass = 0;

				if (gtab == nullptr)
					break;
				build_numeric_task(b, rng, n, prog, want);
				gx_chunk   *c = b.build();

				numeric_group_mode(c);
				for (uint32_t r = 0; r < n; r++)
				{
					if (want[r] == NUM_HOST)
						host.push_back(r);
					npass += want[r] == NUM_PASS;
				}
				memset(&gctx, 0, sizeof(gctx));
				memset(&cctx, 0, sizeof(cctx));
				std::fill(ctab.begin(), ctab.end(), 0);
				cudaMemset(gtab, 0, tbytes);
				cudaDeviceSynchronize();
				gctx.obj[0] = (char *) gtab;
				gctx.obj_bytes[0] = tbytes;
				cctx.obj[0] = (char *) ctab.data();
				cctx.obj_bytes[0] = ctab.size() * 8;
				memcpy(staging, c, b.capacity);
				((gx_chunk *) staging)->flags = mode_flags(mode, 0);
				cpu_run(c, b.capacity, &cctx);
				bool		ok = gx_gpu_submit(g_gpu, 0, &gctx, err, sizeof(err)) == GX_OK &&
					poll_until_done(0, err, sizeof(err)) &&
					cudaMemcpy(htab.data(), gtab, tbytes, cudaMemcpyDeviceToHost) == cudaSuccess;

				runs++;
				if (!ok || !tile_selection((gx_chunk *) staging, gs) || !tile_selection(c, cs))
				{
					bad++;
					continue;
				}
				std::sort(gs.begin(), gs.end());
				if (gs != host || cs != host ||
					!(gx_chunk_result((gx_chunk *) staging)->flags & GX_RESULT_HOST) ||
					numeric_group_rows(htab.data()) != npass ||
					numeric_group_rows((const char *) ctab.data()) != npass)
				{
					bad++;
					fprintf(stderr, "numeric group mode %d (%s): gpu %zu rows, cpu %zu, want %zu; grouped gpu %lld cpu %lld want %lld\n",
							prog, mode_name[mode], gs.size(), cs.size(), host.size(),
							(long long) numeric_group_rows(htab.data()),
							(long long) numeric_group_rows((const char *) ctab.data()),
							(long long) npass);
				}
			}
		gx_mem_free(GX_DEV_GPU + g_gpu, gtab);
	}
	CHECK(bad == 0, "numeric: %d of %d GPU runs differ", bad, runs);
	printf("numeric: %d chunks, %d mismatches\n", runs, bad);
}

/*
 * Run group-mode task c (capacity bytes, obj[0] a table of tbytes) on the
 * CPU device (its table ctab, zeroed first) and on the GPU in mode (gtab,
 * zeroed first, copied back into htab); the rows each selected for the
 * host, sorted, into gs (GPU) and cs (CPU).  false (err) when the GPU run
 * or a selection failed.
 */
static bool
run_group_gpu_cpu(gx_chunk *c, uint64_t capacity, void *staging, int mode, void *gtab,
				  uint64_t tbytes, std::vector<char> &htab, std::vector<uint64_t> &ctab,
				  std::vector<uint32_t> &gs, std::vector<uint32_t> &cs, char *err, size_t errlen)
{
	gx_task_ctx gctx,
				cctx;

	memset(&gctx, 0, sizeof(gctx));
	memset(&cctx, 0, sizeof(cctx));
	std::fill(ctab.begin(), ctab.end(), 0);
	cudaMemset(gtab, 0, tbytes);
	cudaDeviceSynchronize();
	gctx.obj[0] = (char *) gtab;
	gctx.obj_bytes[0] = tbytes;
	cctx.obj[0] = (char *) ctab.data();
	cctx.obj_bytes[0] = ctab.size() * 8;
	memcpy(staging, c, capacity);
	((gx_chunk *) staging)->flags = mode_flags(mode, 0);
	cpu_run(c, capacity, &cctx);
	err[0] = '\0';
	if (gx_gpu_submit(g_gpu, 0, &gctx, err, errlen) != GX_OK || !poll_until_done(0, err, errlen) ||
		cudaMemcpy(htab.data(), gtab, tbytes, cudaMemcpyDeviceToHost) != cudaSuccess ||
		!tile_selection((gx_chunk *) staging, gs) || !tile_selection(c, cs))
		return false;
	std::sort(gs.begin(), gs.end());
	std::sort(cs.begin(), cs.end());
	return true;
}

/* the READY slots of a one-key group table (cap slots of sb bytes) by key */
static std::map<int64_t, const gx_agg_pair *>
group_slots_by_key(const std::vector<uint64_t> &tab, uint32_t cap, uint64_t sb)
{
	std::map<int64_t, const gx_agg_pair *> m;

	for (uint32_t i = 0; i < cap; i++)
	{
		const char *slot = (const char *) tab.data() + sizeof(gx_group_hdr) + i * sb;

		if (*(const uint32_t *) slot == GX_GSLOT_READY)
			m[((const int64_t *) slot)[1]] = (const gx_agg_pair *) (slot + 16);
	}
	return m;
}

/*
 * Float aggregates in group mode, GPU against the CPU device: key int8
 * (few or many groups), f float8 (FSUM, FVAR + FPART x2: values near 1e6,
 * NULLs, NaN / +-Infinity rows that go to the host), g float8 (FMIN /
 * FMAX over NaN, -0, +0, infinities), in each group mode (warp lanes add
 * their own float rows into the leader's slot, block tables merge with a
 * shift of their own, straight to the global table) and with the JIT.
 * The host rows must be the same rows (GX_RESULT_HOST); counts and
 * min / max equal; sums, shifted sums moved to one shift and Sxx within
 * 1e-9 relative (atomics add in another order).
 */
static void
test_group_float(std::mt19937_64 &rng, void *staging)
{
	const double specials[] = {NAN, -NAN, INFINITY, -INFINITY, -0.0, 0.0, 1e300, -1e300};
	const uint32_t cap = 4096;
	const uint64_t sb = gx_group_slot_bytes(1, 7);
	const uint64_t tbytes = gx_group_table_bytes(cap, 1, 7);
	std::vector<char> htab(tbytes);
	std::vector<uint64_t> ctab(tbytes / 8 + 1);
	void	   *gtab = nullptr;
	char		err[512];
	int			runs = 0,
				bad = 0;

	CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gtab, err, sizeof(err)) == GX_OK,
		  "float group table: %s", err);
	/* (the last case: one pass of four, partition 2, another pass taking the host rows) */
	for (auto gcase : {std::pair<uint32_t, uint32_t> {0u, 5}, {0u, 1500}, {GX_GROUP_NO_LOCAL, 1500},
					   {GX_GROUP_NO_LOCAL | GX_GROUP_SKIP_HOST, 1500}})
		for (int mode : {MODE_COPY, MODE_JIT})
		{
			const uint32_t n = 100000;
			const uint32_t gflags = gcase.first;
			const uint32_t groups = gcase.second;
			const bool	pass = (gflags & GX_GROUP_SKIP_HOST) != 0;
			ChunkBuilder b;
			std::vector<int64_t> k(n);
			std::vector<double> f(n),
						g(n);
			std::vector<uint8_t> fn(n),
						gn(n);
			std::vector<uint32_t> host,
						gs,
						cs;

			for (uint32_t r = 0; r < n; r++)
			{
				k[r] = (int64_t) (rng() % groups);
				fn[r] = rng() % 10 == 0;
				f[r] = rng() % 200 == 0 ? specials[rng() % 4] :
					1e6 + (double) (rng() % 20001) / 7.0;
				gn[r] = rng() % 9 == 0;
				g[r] = rng() % 5 == 0 ? specials[rng() % 8] :
					(double) ((int64_t) (rng() % 2001) - 1000) / 3.0;
				if (!fn[r] && !std::isfinite(f[r]) && !pass)
					host.push_back(r);
			}
			int			kc = b.add_int_col(GX_INT8, k);
			int			fc = b.add_float_col(GX_FLOAT8, f, fn);
			int			gc = b.add_float_col(GX_FLOAT8, g, gn);
			gx_chunk   *c = build_group_out_task(b, kc, {{fc, GX_FLOAT8}, {gc, GX_FLOAT8}},
												 cap, 7);

			c->ext.gflags = gflags;
			c->ext.agg[0] = {GX_AGG_FSUM, 1};
			c->ext.agg[1] = {GX_AGG_FVAR, 1};
			c->ext.agg[2] = {GX_AGG_FPART, 1};
			c->ext.agg[3] = {GX_AGG_FPART, 1};
			c->ext.agg[4] = {GX_AGG_FMIN, 2};
			c->ext.agg[5] = {GX_AGG_FMAX, 2};
			c->ext.agg[6] = {GX_AGG_COUNT, -1};
			c->ext.gpart_mask = pass ? 3 : 0;
			c->ext.gpart_value = pass ? 2 : 0;
			bool		ok = run_group_gpu_cpu(c, b.capacity, staging, mode, gtab, tbytes, htab,
											   ctab, gs, cs, err, sizeof(err));

			runs++;
			if (!ok)
			{
				bad++;
				fprintf(stderr, "float groups (%s, gflags %u): %s\n", mode_name[mode], gflags, err);
				continue;
			}
			/* the CPU table's groups by key, then the GPU's against them */
			std::map<int64_t, const gx_agg_pair *> cpu_groups = group_slots_by_key(ctab, cap, sb);
			int			diff = gs != host || cs != host ||
				!(gx_chunk_result((gx_chunk *) staging)->flags & GX_RESULT_HOST) != pass;
			size_t		seen = 0;

			/* a pass: the groups of its partition alone (about a quarter) */
			for (auto &kv : cpu_groups)
			{
				gx_gkey		key = {};

				key.k[0] = kv.first;
				diff |= pass && ((uint32_t) (gx_gkey_hash(&key, 1) >> 32) & 3) != 2;
			}
			diff |= pass && (cpu_groups.size() < groups / 8 || cpu_groups.size() > groups / 2);

			for (uint32_t i = 0; i < cap && !diff; i++)
			{
				const char *slot = htab.data() + sizeof(gx_group_hdr) + i * sb;
				const gx_agg_pair *p = (const gx_agg_pair *) (slot + 16);

				if (*(const uint32_t *) slot != GX_GSLOT_READY)
					continue;
				seen++;
				auto		it = cpu_groups.find(((const int64_t *) slot)[1]);

				if (it == cpu_groups.end())
				{
					diff = 1;
					break;
				}
				const gx_agg_pair *q = it->second;
				auto		near = [](double a, double b) {
					return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-9;
				};
				auto		sxx = [](const gx_agg_pair *x) {
					double		s = gx_bitsd(x[2].val);

					return gx_bitsd(x[3].val) - s * (s / (double) x[1].cnt);
				};

				for (int a : {0, 1, 4, 5, 6})
					diff |= p[a].cnt != q[a].cnt;
				diff |= p[4].val != q[4].val || p[5].val != q[5].val;
				diff |= !near(gx_bitsd(p[0].val), gx_bitsd(q[0].val)) ||
					!near(gx_bitsd(p[1].val), gx_bitsd(q[1].val));
				diff |= p[1].cnt > 1 && !near(sxx(p), sxx(q));
			}
			diff |= seen != cpu_groups.size();
			if (diff)
			{
				bad++;
				fprintf(stderr, "float groups (%s, gflags %u): gpu %zu host rows, cpu %zu, want %zu; %zu / %zu groups\n",
						mode_name[mode], gflags, gs.size(), cs.size(), host.size(), seen,
						cpu_groups.size());
			}
		}
	gx_mem_free(GX_DEV_GPU + g_gpu, gtab);
	CHECK(bad == 0, "float groups: %d of %d GPU runs differ from the CPU device", bad, runs);
	printf("float groups: %d runs (block tables, global, a pass; JIT) agree with the CPU device\n",
		   runs);
}

/*
 * Exact stddev / variance of integers on the GPU (build_exact_var_task,
 * gx_test.h): 128-bit sums of an int4 output, of numeric squares (the
 * MUL's overflow making host rows) and of int8, in each group mode and
 * with the JIT.  The host rows must be the CPU device's; every group's
 * pairs equal the CPU's exactly (integer sums: any order gives them).
 */
static void
test_group_exact_var(std::mt19937_64 &rng, void *staging)
{
	const uint32_t cap = 4096;
	const uint64_t sb = gx_group_slot_bytes(1, 8);
	const uint64_t tbytes = gx_group_table_bytes(cap, 1, 8);
	std::vector<char> htab(tbytes);
	std::vector<uint64_t> ctab(tbytes / 8 + 1);
	void	   *gtab = nullptr;
	char		err[512];
	int			runs = 0,
				bad = 0;

	CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gtab, err, sizeof(err)) == GX_OK,
		  "exact var group table: %s", err);
	/* (the last case: a later pass, whose rows for the host are another's: none selected) */
	for (auto gcase : {std::pair<uint32_t, uint32_t> {0u, 5}, {0u, 1500}, {GX_GROUP_NO_LOCAL, 1500},
					   {GX_GROUP_NO_LOCAL | GX_GROUP_SKIP_HOST, 1500}})
		for (int mode : {MODE_COPY, MODE_JIT})
		{
			ChunkBuilder b;
			std::vector<uint32_t> host,
						gs,
						cs;
			std::map<int64_t, ExactVarRef> want;
			gx_chunk   *c = build_exact_var_task(b, rng, 100000, gcase.second, cap, &host, &want);
			const bool	skip = (gcase.first & GX_GROUP_SKIP_HOST) != 0;

			if (skip)
				host.clear();
			c->ext.gflags = gcase.first;
			bool		ok = run_group_gpu_cpu(c, b.capacity, staging, mode, gtab, tbytes, htab,
											   ctab, gs, cs, err, sizeof(err));

			runs++;
			if (!ok)
			{
				bad++;
				fprintf(stderr, "exact var groups (%s, gflags %u): %s\n", mode_name[mode],
						gcase.first, err);
				continue;
			}
			std::map<int64_t, const gx_agg_pair *> cpu_groups = group_slots_by_key(ctab, cap, sb);
			int			diff = gs != host || cs != host ||
				!(gx_chunk_result((gx_chunk *) staging)->flags & GX_RESULT_HOST) != skip ||
				gx_chunk_result((gx_chunk *) staging)->error != GX_NO_ERROR;
			size_t		seen = 0;

			for (uint32_t i = 0; i < cap && !diff; i++)
			{
				const char *slot = htab.data() + sizeof(gx_group_hdr) + i * sb;
				const gx_agg_pair *p = (const gx_agg_pair *) (slot + 16);

				if (*(const uint32_t *) slot != GX_GSLOT_READY)
					continue;
				seen++;
				auto		it = cpu_groups.find(((const int64_t *) slot)[1]);

				diff |= it == cpu_groups.end() ||
					memcmp(p, it->second, 8 * sizeof(gx_agg_pair)) != 0;
			}
			diff |= seen != cpu_groups.size() || cpu_groups.size() != want.size();
			if (diff)
			{
				bad++;
				fprintf(stderr, "exact var groups (%s, gflags %u): gpu %zu host rows, cpu %zu, want %zu; %zu / %zu groups\n",
						mode_name[mode], gcase.first, gs.size(), cs.size(), host.size(), seen,
						cpu_groups.size());
			}
		}
	gx_mem_free(GX_DEV_GPU + g_gpu, gtab);
	CHECK(bad == 0, "exact var groups: %d of %d GPU runs differ from the CPU device", bad, runs);
	printf("exact var groups: %d runs (block tables, global, a later pass; JIT) agree with the CPU device\n",
		   runs);
}

/*
 * bpchar (GX_CHAR8): varlenas on heap pages deformed on the GPU and the
 * program (= a constant, = ANY, column = column) on them, against the CPU
 * device and the string reference (gx_test.h: build_char8_pages); the
 * same program on columns; a stored value of 9 bytes is a bad page
 */
static void
test_char8(std::mt19937_64 &rng, void *staging, size_t slot_bytes)
{
	char		err[512];
	int			runs = 0,
				bad = 0;

	for (int mode : {MODE_COPY, MODE_MAPPED, MODE_JIT})
	{
		for (int round = 0; round < 4; round++)
		{
			ChunkBuilder ref;
			uint64_t	cap;
			std::vector<int> want;
			uint32_t	n = 200 + (uint32_t) (rng() % 20000);
			gx_chunk   *pc = build_char8_pages(ref, rng, n, &cap, want, round == 3);
			std::vector<uint32_t> gs,
						cs,
						ws;

			for (uint32_t r = 0; r < n; r++)
				if (want[r])
					ws.push_back(r);
			/* pages (round 3: the last row overlong), then the columns */
			for (int cols = 0; cols < 2; cols++)
			{
				gx_chunk   *c = cols ? (gx_chunk *) ref.mem : pc;
				uint64_t	bytes = cols ? ref.capacity : cap;

				if (bytes > slot_bytes || (cols && round == 3))
					continue;
				memcpy(staging, c, bytes);
				((gx_chunk *) staging)->flags = mode_flags(mode, 0);
				cpu_run(c, bytes);
				bool		ok = gx_gpu_submit(g_gpu, 0, nullptr, err, sizeof(err)) == GX_OK &&
					poll_until_done(0, err, sizeof(err));
				gx_result  *gr = gx_chunk_result((gx_chunk *) staging);
				gx_result  *cr = gx_chunk_result(c);

				runs++;
				if (!ok)
				{
					bad++;
					fprintf(stderr, "char8 %s (%s): %s\n", cols ? "columns" : "pages",
							mode_name[mode], err);
					continue;
				}
				if (round == 3)
				{
					if ((gr->error & 0xff) != GX_ERR_BAD_PAGE ||
						(cr->error & 0xff) != GX_ERR_BAD_PAGE)
					{
						bad++;
						fprintf(stderr, "char8 overlong (%s): gpu error %llx, cpu %llx\n",
								mode_name[mode], (unsigned long long) gr->error,
								(unsigned long long) cr->error);
					}
					continue;
				}
				gs.clear();
				cs.clear();
				if (!tile_selection((gx_chunk *) staging, gs) || !tile_selection(c, cs))
				{
					bad++;
					continue;
				}
				std::sort(gs.begin(), gs.end());
				std::sort(cs.begin(), cs.end());
				if (gs != ws || cs != ws || gr->error != GX_NO_ERROR ||
					cr->error != GX_NO_ERROR || (mode == MODE_JIT && !(gr->flags & GX_RESULT_JIT)))
				{
					bad++;
					fprintf(stderr, "char8 %s (%s): gpu %zu rows, cpu %zu, want %zu\n",
							cols ? "columns" : "pages", mode_name[mode], gs.size(), cs.size(),
							ws.size());
				}
			}
			free(pc);
		}
	}
	CHECK(bad == 0, "char8: %d of %d GPU runs differ", bad, runs);
	printf("char8: %d chunks, %d mismatches\n", runs, bad);
}

/* ---------------------------------------------------------------------- */
/* several GPUs: each its own slots and streams, peers' memory           */
/* ---------------------------------------------------------------------- */

/* copy a table of GPU g (after its tasks) to host memory */
static bool
gm_gpu_table(int g, const void *dev, std::vector<char> &host)
{
	bool		ok = cudaSetDevice(g) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess &&
		cudaMemcpy(host.data(), dev, host.size(), cudaMemcpyDeviceToHost) == cudaSuccess;

	cudaSetDevice(g_gpu);
	return ok;
}

/* run the task in staging slot 0 on GPU g with ctx; false (err) when it failed */
static bool
gm_gpu_run(int g, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	return gx_gpu_submit(g, 0, ctx, err, errlen) == GX_OK &&
		poll_gpu_until_done(g, 0, err, errlen);
}

/*
 * GROUP_MERGE on GPUs: for each case of gm_cases (gx_test.h), rows into a
 * table A of GPU ga and a table B of GPU gb (group-mode tasks there), then
 * B merged into A by tasks on GPU ga in ranges of B's slots (gb != ga: B
 * read through peer access), and the same on the CPU device.  On both, A's
 * groups and the records of the groups without room are, each group once,
 * the reference of both tables' rows; the counts of groups merged and
 * without room are the CPU device's (exact: reservations are); B is
 * unchanged.  A merge of a table into itself is refused.
 */
static void
gm_gpu_cases(std::mt19937_64 &rng, void *staging, size_t slot_bytes, int ga, int gb,
			 const char *where)
{
	gx_chunk   *cpu = (gx_chunk *) malloc(slot_bytes);
	char		err[512];
	int			ncases = 0;

	for (const GmCase &tc : gm_cases)
	{
		const uint64_t tbytes = gx_group_table_bytes(tc.cap, 1, GM_NAGG);
		const uint32_t step = (tc.cap + tc.ranges - 1) / tc.ranges;
		GmRows		ra = gm_rows(rng, tc.rows_a, tc.a0, tc.na, 1e6),
					rb = gm_rows(rng, tc.rows_b, tc.b0, tc.nb, 1e6 + 5000);
		std::vector<uint64_t> ca(tbytes / 8 + 1, 0),
					cb(tbytes / 8 + 1, 0);
		std::vector<char> ha(tbytes),
					hb(tbytes),
					hb2(tbytes);
		void	   *ta = nullptr,
				   *tb = nullptr;
		GmMap		want,
					ggot,
					cgot;
		gx_task_ctx gctx,
					cctx;
		uint64_t	gmerged = 0,
					gnoroom = 0,
					cmerged = 0,
					cnoroom = 0;
		uint32_t	na = 0,
					nb = 0;
		bool		ok = true,
					once = true;
		std::string why;
		char		what[160];

		if (gm_merge_bytes(step) > slot_bytes)
			continue;
		snprintf(what, sizeof(what), "group merge, %s (%s)", tc.name, where);
		CHECK(gx_mem_alloc(GX_DEV_GPU + ga, tbytes, &ta, err, sizeof(err)) == GX_OK &&
			  gx_mem_alloc(GX_DEV_GPU + gb, tbytes, &tb, err, sizeof(err)) == GX_OK,
			  "%s: tables: %s", what, err);
		if (ta == nullptr || tb == nullptr)
			break;
		memset(&gctx, 0, sizeof(gctx));
		memset(&cctx, 0, sizeof(cctx));
		/* the rows of A on GPU ga, of B on GPU gb; and on the CPU device */
		for (int t = 0; t < 2 && ok; t++)
		{
			ChunkBuilder b;
			const GmRows &r = t == 0 ? ra : rb;

			if (r.k.empty())
				continue;
			gx_chunk   *c = gm_task(b, r, tc.cap);

			gctx.obj[0] = (char *) (t == 0 ? ta : tb);
			gctx.obj_bytes[0] = tbytes;
			cctx.obj[0] = (char *) (t == 0 ? ca : cb).data();
			cctx.obj_bytes[0] = tbytes;
			memcpy(staging, c, b.capacity);
			ok = gm_gpu_run(t == 0 ? ga : gb, &gctx, err, sizeof(err)) &&
				gx_chunk_result((gx_chunk *) staging)->nsel == 0 &&
				cpu_run(c, b.capacity, &cctx) == GX_OK && gx_chunk_result(c)->nsel == 0;
			CHECK(ok, "%s: table %c: %s", what, 'A' + t, err);
		}
		gm_ref_add(want, ra);
		gm_ref_add(want, rb);
		ok = ok && gm_gpu_table(gb, tb, hb);
		CHECK(ok && gm_table_groups(hb.data(), tc.cap, ggot, &nb), "%s: B", what);
		ggot.clear();

		/* B into A, range by range, on GPU ga and on the CPU device */
		gctx.obj[0] = (char *) ta;
		gctx.obj[1] = (char *) tb;
		gctx.obj_bytes[1] = tbytes;
		cctx.obj[0] = (char *) ca.data();
		cctx.obj[1] = (char *) cb.data();
		cctx.obj_bytes[1] = tbytes;
		for (uint32_t row0 = 0; row0 < tc.cap && ok; row0 += step)
		{
			uint32_t	n = std::min(step, tc.cap - row0);
			gx_chunk   *c = gm_merge_task(staging, tc.cap, row0, n, tc.count_only);
			const gx_result *gr = gx_chunk_result(c),
					   *cr;

			/* (the CPU's result where its copy of the header says: after the copy) */
			memcpy(cpu, c, GX_ALIGN_UP(sizeof(gx_chunk)));
			cr = gx_chunk_result(cpu);
			ok = gm_gpu_run(ga, &gctx, err, sizeof(err));
			CHECK(ok, "%s: GPU merge at %u: %s", what, row0, err);
			CHECK(cpu_run(cpu, gm_merge_bytes(n), &cctx) == GX_OK, "%s: CPU merge", what);
			if (!ok)
				break;
			CHECK(gr->error == GX_NO_ERROR && (gr->flags & GX_RESULT_GPU) &&
				  gr->nsel == (tc.count_only ? 0 : gr->join_noroom) &&
				  ((gr->flags & GX_RESULT_FULL) != 0) == (gr->join_noroom > 0),
				  "%s: GPU merge at %u: %u records, %llu without room, flags %x", what, row0,
				  gr->nsel, (unsigned long long) gr->join_noroom, gr->flags);
			once &= gm_records(c, ggot) && gm_records(cpu, cgot);
			gmerged += gr->join_count;
			gnoroom += gr->join_noroom;
			cmerged += cr->join_count;
			cnoroom += cr->join_noroom;
		}
		ok = ok && gm_gpu_table(ga, ta, ha) && gm_gpu_table(gb, tb, hb2);
		CHECK(ok, "%s: tables back", what);
		if (ok)
		{
			once &= gm_table_groups(ha.data(), tc.cap, ggot, &na) &&
				gm_table_groups((const char *) ca.data(), tc.cap, cgot, &na);
			CHECK(once, "%s: a group came back twice", what);
			CHECK(gmerged == cmerged && gnoroom == cnoroom && gmerged + gnoroom == nb,
				  "%s: GPU %llu merged, %llu without room; CPU %llu, %llu; B %u groups", what,
				  (unsigned long long) gmerged, (unsigned long long) gnoroom,
				  (unsigned long long) cmerged, (unsigned long long) cnoroom, nb);
			CHECK(hb == hb2, "%s: the source changed", what);
			if (!tc.count_only)
			{
				CHECK(gm_same(want, ggot, &why), "%s: GPU: %s", what, why.c_str());
				CHECK(gm_same(want, cgot, &why), "%s: CPU: %s", what, why.c_str());
			}
			ncases++;
		}
		/* a table merged into itself is refused, on the GPU too */
		{
			gx_task_ctx bad = gctx;

			gm_merge_task(staging, tc.cap, 0, 0, 0);
			bad.obj[1] = bad.obj[0];
			err[0] = '\0';
			CHECK(gx_gpu_submit(ga, 0, &bad, err, sizeof(err)) == GX_INVALID && err[0] != '\0',
				  "%s: a table into itself: %s", what, err);
		}
		gx_mem_free(GX_DEV_GPU + ga, ta);
		gx_mem_free(GX_DEV_GPU + gb, tb);
	}
	free(cpu);
	printf("group merge (%s): %d cases agree with the CPU device and the reference\n", where,
		   ncases);
}

/*
 * Figures (no check but that the copies run): the OBJ_COPY of the probe
 * parts of a 16M-row hash table (GpuJoin's replica of the 16M x 16M
 * benchmark's table; without runs, as a count's, and with runs, as a
 * pairs join's), a 16M-row merge table's, from GPU 0 to GPU 1 (peer to
 * peer) and within GPU 1, device time and bandwidth
 */
static void
test_replica_copy_figures(void *staging, size_t slot_bytes)
{
	const uint32_t cap = 16u << 20;

	printf("\n| table (16M rows) | copy | MB | device ms | GB/s |\n|---|---|---:|---:|---:|\n");
	for (int kind = 0; kind < 3; kind++)
	{
		JoinSpec	js;
		void	   *src = nullptr,
				   *dst = nullptr,
				   *loc = nullptr;
		char		err[512];
		std::vector<uint64_t> m(join_finish_bytes() / 8 + 1);

		js.alg = kind == 2 ? GX_JOIN_MERGE : GX_JOIN_HASH;
		join_size(js, cap);

		uint64_t	tbytes = join_table_bytes(js);

		if (gx_mem_alloc(GX_DEV_GPU + 0, tbytes, &src, err, sizeof(err)) != GX_OK ||
			gx_mem_alloc(GX_DEV_GPU + 1, tbytes, &dst, err, sizeof(err)) != GX_OK ||
			gx_mem_alloc(GX_DEV_GPU + 1, tbytes, &loc, err, sizeof(err)) != GX_OK)
		{
			printf("multigpu: replica figures: %s\n", err);
			break;
		}
		for (int from = 0; from < 2; from++)
		{
			gx_task_ctx ctx;
			gx_chunk   *k = join_copy_task(m.data(), js, kind != 0);
			uint64_t	bytes = 0;
			double		best = 0;
			int			was = g_gpu;

			memset(&ctx, 0, sizeof(ctx));
			ctx.obj[0] = (char *) (from == 0 ? dst : loc);
			ctx.obj[1] = (char *) (from == 0 ? src : dst);
			ctx.obj_bytes[0] = ctx.obj_bytes[1] = tbytes;
			for (uint32_t i = 0; i < k->ext.copy.nranges; i++)
				bytes += k->ext.copy.range[i].bytes;
			g_gpu = 1;
			for (int rep = 0; rep < 4; rep++)
			{
				k = join_copy_task(m.data(), js, kind != 0);
				CHECK(gpu_run_slot0(staging, slot_bytes, k, join_finish_bytes(), &ctx, nullptr, 0,
									"replica copy"), "multigpu: replica copy ran");

				double		ms = gx_chunk_result(k)->kernel_ns / 1e6;

				if (rep > 0 && (best == 0 || ms < best))
					best = ms;
			}
			g_gpu = was;
			printf("| %s | %s | %.0f | %.3f | %.0f |\n",
				   kind == 0 ? "hash, no runs (count)" : kind == 1 ? "hash, runs (pairs)" :
				   "merge", from == 0 ? "GPU 0 -> GPU 1" : "GPU 1 -> GPU 1", bytes / 1048576.0,
				   best, best > 0 ? bytes / best / 1e6 : 0.0);
		}
		gx_mem_free(GX_DEV_GPU + 0, src);
		gx_mem_free(GX_DEV_GPU + 1, dst);
		gx_mem_free(GX_DEV_GPU + 1, loc);
	}
	printf("\n");
}

/*
 * Two GPUs on one staging area (the service's layout): random programs on/*
 * Two GPUs on one staging area (the service's layout): random programs on
 * the second GPU against the CPU device, in every mode; then chunks on
 * both GPUs at once adding into one aggregate state on GPU 0 (GPU 1
 * reaches it by peer access), read by an AGG_READ on GPU 0 that follows
 * the chunks of both GPUs in flight (gx_task_ctx after_gpu): the totals
 * are the hand-computed ones.  Skipped with one GPU.
 */
static void
test_multigpu(std::mt19937_64 &rng)
{
	const int	nslots = 5;
	const size_t slot_bytes = 32u << 20;
	char		err[512];
	gx_gpu_info info;
	int			ndev = 0,
				peer = 0;
	void	   *staging;

	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 2)
	{
		printf("multigpu: skipped (%d GPU)\n", ndev);
		return;
	}
	staging = aligned_alloc(4096, nslots * slot_bytes);
	memset(staging, 0, nslots * slot_bytes);
	for (int g = 0; g < 2; g++)
	{
		gx_status	st = gx_gpu_open(g, staging, nslots, slot_bytes, &info, err, sizeof(err));

		CHECK(st == GX_OK, "gx_gpu_open(%d): %s", g, err);
		if (st != GX_OK)
		{
			gx_gpu_close();
			free(staging);
			return;
		}
	}
	CHECK(gx_gpu_peer(0, 1, &peer, err, sizeof(err)) == GX_OK && peer,
		  "gx_gpu_peer(0, 1): enabled %d: %s", peer, err);
	g_mapped_ok = info.mapped;

	/* the second GPU runs every program as the first does */
	g_gpu = 1;
	test_random_mode(rng, staging, nslots, slot_bytes, MODE_COPY, 8);
	test_random_mode(rng, staging, nslots, slot_bytes, MODE_MAPPED, 8);
	test_random_mode(rng, staging, nslots, slot_bytes, MODE_JIT, 4);
	g_gpu = 0;

	/* a group table of GPU 1 merged into one of GPU 0, read through peer access */
	if (peer)
		gm_gpu_cases(rng, staging, slot_bytes, 0, 1, "GPU 1 into GPU 0");

	/* one state on GPU 0, chunks of both GPUs adding into it */
	if (peer)
	{
		AggStates	states;
		int			rounds = 0;

		if (states.open())
		{
			for (int round = 0; round < 4; round++)
			{
				int64_t		want_val[GX_MAX_AGGS] = {0},
							want_cnt[GX_MAX_AGGS] = {0};
				std::vector<ChunkBuilder *> bs(nslots - 1);
				gx_task_ctx rctx = states.gctx;
				bool		ok = true;

				for (int s = 0; s < nslots - 1; s++)
				{
					bs[s] = new ChunkBuilder();
					build_agg_task(*bs[s], rng, 100000 + (uint32_t) (rng() % 200000), want_val,
								   want_cnt);
					((gx_chunk *) bs[s]->mem)->flags = mode_flags(round % 2 ? MODE_MAPPED : MODE_COPY, s);
					memcpy((char *) staging + s * slot_bytes, bs[s]->mem, bs[s]->capacity);
				}
				/* slots 0, 1 on GPU 0; 2, 3 on GPU 1; all in flight */
				for (int s = 0; s < nslots - 1; s++)
					ok &= gx_gpu_submit(s < 2 ? 0 : 1, s, &states.gctx, err, sizeof(err)) == GX_OK;
				CHECK(ok, "multigpu: chunk submit: %s", err);
				/* the read follows all four, on both GPUs */
				build_agg_read((char *) staging + (nslots - 1) * slot_bytes, 3);
				rctx.nafter = nslots - 1;
				for (int s = 0; s < nslots - 1; s++)
				{
					rctx.after[s] = s;
					rctx.after_gpu[s] = s < 2 ? 0 : 1;
				}
				CHECK(gx_gpu_submit(0, nslots - 1, &rctx, err, sizeof(err)) == GX_OK,
					  "multigpu: AGG_READ submit: %s", err);
				for (int s = 0; s < nslots - 1; s++)
				{
					CHECK(poll_gpu_until_done(s < 2 ? 0 : 1, s, err, sizeof(err)),
						  "multigpu: poll %d: %s", s, err);
					delete bs[s];
				}
				CHECK(poll_gpu_until_done(0, nslots - 1, err, sizeof(err)),
					  "multigpu: AGG_READ poll: %s", err);

				gx_result  *r = gx_chunk_result((gx_chunk *) ((char *) staging +
															  (nslots - 1) * slot_bytes));

				for (int a = 0; a < 3; a++)
					CHECK(r->agg_val[a] == want_val[a] && r->agg_cnt[a] == want_cnt[a],
						  "multigpu round %d: aggregate %d %lld/%lld, want %lld/%lld", round, a,
						  (long long) r->agg_val[a], (long long) r->agg_cnt[a],
						  (long long) want_val[a], (long long) want_cnt[a]);
				rounds++;
			}
			states.close();
		}
		printf("multigpu: %d rounds of chunks on 2 GPUs adding into one state on GPU 0 (peer access)\n",
			   rounds);
		/* a join table built on GPU 0, copied to GPU 1 (OBJ_COPY, peer to peer), probed there */
		test_join_replicas(rng, staging, slot_bytes, 0, 1);
		/* a table in parts on GPU 0 and GPU 1 (join_devparts.cpp) */
		test_join_parts(rng, staging, slot_bytes, {0, 1});
		test_replica_copy_figures(staging, slot_bytes);
	}
	gx_gpu_close();
	free(staging);
}

static void test_search(std::mt19937_64 &rng, void *staging, size_t slot_bytes);
static void test_projection(std::mt19937_64 &rng, void *staging, size_t slot_bytes);
static void test_ptree(std::mt19937_64 &rng, void *staging, size_t slot_bytes);
static void test_sets_search(std::mt19937_64 &rng, void *staging);
static void test_jgroup(std::mt19937_64 &rng, void *staging, size_t slot_bytes);
static void test_join_gather(std::mt19937_64 &rng, void *staging, size_t slot_bytes);

static void
test_random(std::mt19937_64 &rng)
{
	const int	nslots = 4;
	const size_t slot_bytes = 32u << 20;
	char		err[512];
	gx_gpu_info info;
	void	   *staging = aligned_alloc(4096, nslots * slot_bytes);

	memset(staging, 0, nslots * slot_bytes);
	gx_status	st = gx_gpu_open(g_gpu, staging, nslots, slot_bytes, &info, err, sizeof(err));

	CHECK(st == GX_OK, "gx_gpu_open: %s", err);
	if (st != GX_OK)
	{
		free(staging);
		return;
	}
	g_mapped_ok = info.mapped;
	printf("device: %s, cc %d.%d, %d SMs, %.1f GiB, %.0f GB/s theoretical, mapped transfer %s%s%s\n",
		   info.name, info.cc_major, info.cc_minor, info.sm_count,
		   info.total_mem / 1073741824.0, info.mem_bandwidth_gbs,
		   info.mapped ? "available" : "UNAVAILABLE (mapped runs fall back to copy)",
		   err[0] ? "; " : "", err);
	CHECK(info.mapped, "mapped transfer available: %s", err);

	if (test_part("random"))
	{
		test_random_mode(rng, staging, nslots, slot_bytes, MODE_COPY, 60);
		test_random_mode(rng, staging, nslots, slot_bytes, MODE_MAPPED, 60);
		test_random_mode(rng, staging, nslots, slot_bytes, MODE_MIXED, 30);
		test_random_mode(rng, staging, nslots, slot_bytes, MODE_JIT, 12);
		jit_report("random programs");
	}
	if (test_part("types"))
	{
		for (int mode : {MODE_COPY, MODE_MAPPED, MODE_JIT})
			test_int_edges(staging, slot_bytes, mode);
		for (int mode : {MODE_COPY, MODE_MAPPED, MODE_JIT})
			test_datetime(rng, staging, mode);
		for (int mode : {MODE_COPY, MODE_MAPPED, MODE_JIT})
			test_bigsets(rng, staging, mode);
		test_numeric(rng, staging, slot_bytes);
		test_char8(rng, staging, slot_bytes);
	}
	if (test_part("pages"))
		test_pages(rng, staging, nslots, slot_bytes);
	if (test_part("cache"))
		test_cache(rng, staging, slot_bytes);
	if (test_part("group"))
	{
		test_agg_read(rng, staging, nslots, slot_bytes);
		test_group(rng, staging, slot_bytes);
		test_group_float(rng, staging);
		gm_gpu_cases(rng, staging, slot_bytes, g_gpu, g_gpu, "one GPU");
	}
	if (test_part("join"))
		test_join(rng, staging, slot_bytes);
	if (test_part("jgroup"))
	{
		test_jgroup(rng, staging, slot_bytes);
		test_join_gather(rng, staging, slot_bytes);
	}
	if (test_part("group"))
		test_group_exact_var(rng, staging);
	if (test_part("search"))
		test_search(rng, staging, slot_bytes);
	if (test_part("projection"))
		test_projection(rng, staging, slot_bytes);
	if (test_part("ptree_lookup"))
		test_ptree(rng, staging, slot_bytes);
	if (test_part("sets_search"))
		test_sets_search(rng, staging);
	if (!test_part("validation"))
	{
		gx_gpu_close();
		free(staging);
		return;
	}

	/* malformed tasks are refused without touching the GPU, in both modes */
	test_gpu_validation(rng, staging, slot_bytes);

	/* GPU memory: zeroed blocks from the pool, reused after a free */
	{
		void	   *p = nullptr;
		std::vector<char> host(1 << 20, 1);

		for (int i = 0; i < 20; i++)
		{
			CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, host.size(), &p, err, sizeof(err)) == GX_OK,
				  "gx_mem_alloc(GPU): %s", err);
			if (p == nullptr)
				break;
			/* the zeroing is queued on the pool's stream: tasks wait for it */
			CHECK(cudaDeviceSynchronize() == cudaSuccess, "wait for the zeroing");
			CHECK(cudaMemcpy(host.data(), p, host.size(), cudaMemcpyDeviceToHost) == cudaSuccess,
				  "read GPU block");
			bool		zero = true;

			for (char ch : host)
				zero &= ch == 0;
			CHECK(zero, "GPU block %d is zeroed", i);
			CHECK(cudaMemset(p, 0x5a, host.size()) == cudaSuccess &&
				  cudaDeviceSynchronize() == cudaSuccess, "dirty the block");
			gx_mem_free(GX_DEV_GPU + g_gpu, p);
		}
		CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, 4 * info.total_mem, &p, err, sizeof(err)) == GX_NO_MEMORY,
			  "4 times the GPU's memory: GX_NO_MEMORY (%s)", err);
		/* the device stays usable after running out */
		CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, 4096, &p, err, sizeof(err)) == GX_OK, "alloc after OOM: %s",
			  err);
		gx_mem_free(GX_DEV_GPU + g_gpu, p);
	}
	jit_report("all tests");
	gx_gpu_close();
	free(staging);
}

/* ---------------------------------------------------------------------- */
/* bandwidth                                                              */
/* ---------------------------------------------------------------------- */

__global__ void
read_kernel(const int4 *p, size_t n, unsigned long long *out)
{
	unsigned int acc = 0;

	for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
		 i += (size_t) gridDim.x * blockDim.x)
	{
		int4		v = p[i];

		acc += (unsigned int) (v.x ^ v.y ^ v.z ^ v.w);
	}
	if (acc == 0x12345678u)
		atomicAdd(out, 1ull);
}

static void
test_bandwidth(std::mt19937_64 &rng)
{
	const uint32_t nrows = 64u << 20;	/* 64M int4 = 256 MiB */
	const uint64_t col_bytes = (uint64_t) nrows * 4;
	uint64_t	off = GX_ALIGN_UP(sizeof(gx_chunk));
	uint64_t	input_bytes = off + GX_ALIGN_UP(col_bytes);
	uint64_t	capacity = input_bytes + gx_result_bytes(nrows);
	size_t		slot_bytes = (capacity + 4095) & ~(size_t) 4095;
	char		err[512];
	gx_gpu_info info;
	void	   *staging = aligned_alloc(4096, slot_bytes);

	memset(staging, 0, slot_bytes);
	gx_chunk   *c = (gx_chunk *) staging;
	int32_t    *vals = (int32_t *) ((char *) c + off);

	c->magic = GX_CHUNK_MAGIC;
	c->kind = GX_TASK_FILTER;
	c->nrows = nrows;
	c->ncols = 1;
	c->ninstr = 4;
	c->nconsts = 1;
	c->nregs = 3;
	c->input_bytes = input_bytes;
	c->result_off = input_bytes;
	c->cols[0].values_off = off;
	c->cols[0].nulls_off = 0;
	c->cols[0].type = GX_INT4;
	c->consts[0].v.i = 500000;
	c->consts[0].type = GX_INT4;
	c->code[0] = gx_instr {GX_OP_LDCOL, GX_INT4, 0, 0, 0, 0, 0, 0};
	c->code[1] = gx_instr {GX_OP_LDCONST, GX_INT4, 1, 0, 0, 0, 0, 0};
	c->code[2] = gx_instr {GX_OP_LT, GX_INT4, 2, 0, 1, 0, 0, 0};
	c->code[3] = gx_instr {GX_OP_QUAL, GX_BOOL, 0, 2, 0, 0, 0, 0};
	uint32_t	want = 0;

	for (uint32_t i = 0; i < nrows; i++)
	{
		vals[i] = (int32_t) (rng() % 1000000);
		want += vals[i] < 500000;
	}

	gx_status	st = gx_gpu_open(g_gpu, staging, 1, slot_bytes, &info, err, sizeof(err));

	CHECK(st == GX_OK, "gx_gpu_open (bandwidth): %s", err);
	if (st != GX_OK)
	{
		free(staging);
		return;
	}
	g_mapped_ok = info.mapped;
	gx_result  *res = gx_chunk_result(c);
	uint64_t	best_kernel = ~(uint64_t) 0;
	uint64_t	best_mapped = ~(uint64_t) 0;
	uint64_t	h2d = 0,
				d2h = 0;

	for (int mode = MODE_COPY; mode <= MODE_MAPPED; mode++)
	{
		c->flags = mode_flags(mode, 0);
		for (int it = 0; it < 3; it++)
		{
			st = gx_gpu_submit(g_gpu, 0, nullptr, err, sizeof(err));
			CHECK(st == GX_OK, "submit (%s): %s", mode_name[mode], err);
			CHECK(poll_until_done(0, err, sizeof(err)), "poll (%s): %s", mode_name[mode], err);
			CHECK(res->nsel == want && res->error == GX_NO_ERROR,
				  "bandwidth run (%s) nsel %u want %u", mode_name[mode], res->nsel, want);
			if (mode == MODE_COPY && res->kernel_ns < best_kernel)
			{
				best_kernel = res->kernel_ns;
				h2d = res->h2d_ns;
				d2h = res->d2h_ns;
			}
			if (mode == MODE_MAPPED && res->kernel_ns < best_mapped)
				best_mapped = res->kernel_ns;
		}
		check_mode(c, c->flags, "bandwidth");
		/* the tile-ordered selection must be exactly the rows below the limit */
		{
			std::vector<uint32_t> sel;
			bool		ok = tile_selection(c, sel);
			bool		match = ok && sel.size() == want;

			for (size_t i = 0; match && i < sel.size(); i++)
				match = vals[sel[i]] < 500000 && (i == 0 || sel[i] > sel[i - 1]);
			CHECK(match, "bandwidth run selection (%s)", mode_name[mode]);
		}
	}
	/*
	 * Interpreted vs compiled kernel, with the selection written back and
	 * count-only (as cached count queries run): copy mode, best of 4.
	 */
	/*
	 * The last variant is a chunk of 1M rows: its kernel time shows the
	 * fixed costs of a launch against the bytes it reads.
	 */
	const uint32_t small_rows = 1u << 20;
	uint32_t	small_want = 0;
	int64_t		want_sum = 0;

	for (uint32_t i = 0; i < small_rows; i++)
		small_want += vals[i] < 500000;
	for (uint32_t i = 0; i < nrows; i++)
		want_sum += vals[i] < 500000 ? vals[i] : 0;

	/*
	 * The variants "count + sum" aggregate sum(col) into a state object
	 * (read back after their 8 runs): the aggregate's cost.
	 */
	struct
	{
		const char *name;
		uint32_t	flags;
		uint32_t	count_only;
		uint32_t	rows;
		uint32_t	nagg;
		uint64_t	best;
	}			var[] = {
		{"interpreted, count only", 0, 1, nrows, 0, ~(uint64_t) 0},
		{"interpreted, count + sum", 0, 1, nrows, 1, ~(uint64_t) 0},
		{"compiled", GX_CHUNK_JIT | GX_CHUNK_JIT_WAIT, 0, nrows, 0, ~(uint64_t) 0},
		{"compiled, count only", GX_CHUNK_JIT | GX_CHUNK_JIT_WAIT, 1, nrows, 0, ~(uint64_t) 0},
		{"compiled, count + sum", GX_CHUNK_JIT | GX_CHUNK_JIT_WAIT, 1, nrows, 1, ~(uint64_t) 0},
		{"compiled, count, 1M rows", GX_CHUNK_JIT | GX_CHUNK_JIT_WAIT, 1, small_rows, 0, ~(uint64_t) 0},
	};
	AggStates	states;
	bool		have_states = states.open();

	for (auto &v : var)
	{
		uint32_t	w = v.rows == nrows ? want : small_want;

		if (v.nagg && !have_states)
			continue;
		c->flags = v.flags;
		c->ext.count_only = v.count_only;
		c->nrows = v.rows;
		c->ext.nagg = v.nagg;
		c->ext.agg[0] = gx_agg {GX_AGG_SUM, 0};
		c->obj[0] = v.nagg ? 1 : 0;
		for (int it = 0; it < 8; it++)
		{
			st = gx_gpu_submit(g_gpu, 0, v.nagg ? &states.gctx : nullptr, err, sizeof(err));
			CHECK(st == GX_OK, "submit (%s): %s", v.name, err);
			CHECK(poll_until_done(0, err, sizeof(err)), "poll (%s): %s", v.name, err);
			CHECK(res->nsel == w && res->error == GX_NO_ERROR,
				  "bandwidth run (%s) nsel %u want %u", v.name, res->nsel, w);
			CHECK(!(v.flags & GX_CHUNK_JIT) || (res->flags & GX_RESULT_JIT),
				  "bandwidth run (%s) ran the compiled kernel", v.name);
			if (res->kernel_ns < v.best)
				v.best = res->kernel_ns;
		}
		if (v.nagg)
		{
			/* AGG_READ in slot 0: keep the bytes of the chunk it overwrites */
			size_t		keep = GX_ALIGN_UP(sizeof(gx_chunk)) + gx_result_bytes(0);
			std::vector<char> saved((char *) c, (char *) c + keep);
			int64_t		val[1],
						cnt[1];

			agg_read_both(staging, states, 1, false, v.name, val, cnt);
			memcpy(c, saved.data(), keep);
			CHECK(val[0] == 8 * want_sum && cnt[0] == 8 * (int64_t) want,
				  "bandwidth run (%s): sum %lld count %lld, want %lld %lld", v.name,
				  (long long) val[0], (long long) cnt[0], (long long) (8 * want_sum),
				  (long long) (8 * (int64_t) want));
		}
	}
	c->nrows = nrows;
	c->ext.count_only = 0;
	c->ext.nagg = 0;
	c->obj[0] = 0;
	c->flags = 0;
	if (have_states)
		states.close();
	gx_gpu_close();

	/* references: D2D copy and a streaming read of the same byte count */
	void	   *d_a = NULL,
			   *d_b = NULL;
	unsigned long long *d_out = NULL;
	cudaEvent_t e0, e1;
	float		ms_copy = 0,
				ms_read = 0,
				ms;
	int			sms = info.sm_count > 0 ? info.sm_count : 1;

	cudaMalloc(&d_a, col_bytes);
	cudaMalloc(&d_b, col_bytes);
	cudaMalloc(&d_out, sizeof(*d_out));
	cudaMemset(d_a, 1, col_bytes);
	cudaEventCreate(&e0);
	cudaEventCreate(&e1);
	for (int it = 0; it < 4; it++)
	{
		cudaEventRecord(e0);
		cudaMemcpy(d_b, d_a, col_bytes, cudaMemcpyDeviceToDevice);
		cudaEventRecord(e1);
		cudaEventSynchronize(e1);
		cudaEventElapsedTime(&ms, e0, e1);
		if (it > 0 && (ms_copy == 0 || ms < ms_copy))
			ms_copy = ms;
		cudaEventRecord(e0);
		read_kernel<<<sms * 8, 512>>>((const int4 *) d_a, col_bytes / 16, d_out);
		cudaEventRecord(e1);
		cudaEventSynchronize(e1);
		cudaEventElapsedTime(&ms, e0, e1);
		if (it > 0 && (ms_read == 0 || ms < ms_read))
			ms_read = ms;
	}
	cudaError_t ce = cudaGetLastError();

	CHECK(ce == cudaSuccess, "reference kernels: %s", cudaGetErrorString(ce));
	cudaFree(d_a);
	cudaFree(d_b);
	cudaFree(d_out);
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);

	double		kern_gbs = best_kernel ? (double) input_bytes / (double) best_kernel : 0;
	double		copy_gbs = ms_copy > 0 ? 2.0 * col_bytes / (ms_copy * 1e6) : 0;
	double		read_gbs = ms_read > 0 ? (double) col_bytes / (ms_read * 1e6) : 0;

	printf("bandwidth: %u rows int4 (%.0f MiB), %u selected\n", nrows, col_bytes / 1048576.0, want);
	printf("  filter kernel   %8.3f ms  %7.1f GB/s (input bytes)\n", best_kernel / 1e6, kern_gbs);
	printf("  D2D memcpy      %8.3f ms  %7.1f GB/s (read+write)\n", ms_copy, copy_gbs);
	printf("  read kernel     %8.3f ms  %7.1f GB/s\n", ms_read, read_gbs);
	printf("  H2D %.3f ms (%.1f GB/s), D2H %.3f ms\n", h2d / 1e6,
		   h2d ? (double) input_bytes / h2d : 0.0, d2h / 1e6);
	printf("  copy   chunk    %8.3f ms  (H2D + kernel + D2H)\n", (h2d + best_kernel + d2h) / 1e6);
	printf("  mapped chunk    %8.3f ms  %7.1f GB/s (kernels reading the input over PCIe)%s\n",
		   best_mapped / 1e6, best_mapped ? (double) input_bytes / best_mapped : 0.0,
		   g_mapped_ok ? "" : " [mapped unavailable: ran as copy]");
	printf("  filter / read kernel = %.2f, filter / D2D copy = %.2f, filter / theoretical = %.2f\n",
		   read_gbs > 0 ? kern_gbs / read_gbs : 0.0, copy_gbs > 0 ? kern_gbs / copy_gbs : 0.0,
		   info.mem_bandwidth_gbs > 0 ? kern_gbs / info.mem_bandwidth_gbs : 0.0);
	for (auto &v : var)
	{
		double		gbs = v.best ? (double) v.rows * 4 / (double) v.best : 0;

		printf("  filter kernel, %-24s %8.3f ms  %7.1f GB/s  = %.2f of the read kernel\n",
			   v.name, v.best / 1e6, gbs, read_gbs > 0 ? gbs / read_gbs : 0.0);
	}
	free(staging);
}

/*
 * Group-mode throughput (GX_BW_ONLY figures): SELECT k, count(*), sum(v),
 * min(v), max(v) ... GROUP BY k over nrows rows of two int4 columns, k
 * spread as bench/groupby's (i * 2654435761 mod groups), with the table
 * emptied before each run (creating the groups is part of the cost);
 * interpreted and compiled, each way rows reach a group, and compiled
 * with min and max keeping counts of their own (gx_agg.cnt_of = 0).  Best of 4
 * kernel times; no run may send a row to the host.
 */
static void
test_group_bandwidth(std::mt19937_64 &rng)
{
	const uint32_t nrows = 16u << 20;
	std::vector<int64_t> v(nrows);
	struct
	{
		uint32_t	groups;
		uint32_t	gflags;
		const char *how;
	}			cases[] = {
		{1, 0, "block table"}, {10, 0, "block table"},
		{100, 0, "block table"}, {100, GX_GROUP_NO_LOCAL, "global"},
		{10000, 0, "block table"}, {10000, GX_GROUP_NO_LOCAL, "global"},
		{1000000, GX_GROUP_NO_LOCAL, "global"}, {8000000, GX_GROUP_NO_LOCAL, "global"},
	};
	char		err[512];

	for (uint32_t i = 0; i < nrows; i++)
		v[i] = (int64_t) (rng() % 200001) - 100000;
	printf("group kernel: %u rows, count(*), sum, min, max of an int4 by an int4 key\n", nrows);
	for (auto &tc : cases)
	{
		ChunkBuilder b;
		std::vector<int64_t> k(nrows);

		for (uint32_t i = 0; i < nrows; i++)
			k[i] = (int64_t) (((uint64_t) i * 2654435761u) % tc.groups);
		int			kc = b.add_int_col(GX_INT4, k);
		int			vc = b.add_int_col(GX_INT4, v);

		b.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, kc);
		b.emit(GX_OP_OUT, GX_INT4, 0, 0, 0, 0);
		b.emit(GX_OP_LDCOL, GX_INT4, 1, 0, 0, vc);
		b.emit(GX_OP_OUT, GX_INT4, 0, 1, 0, 1);
		gx_chunk   *c = b.build();
		uint32_t	cap = 1024;

		while (cap < 2 * tc.groups)
			cap *= 2;
		c->obj[0] = 1;
		c->ext.entry = -1;
		c->ext.ngroup_cap = cap;
		c->ext.ngroup_limit = cap / 2;
		c->ext.ngkeys = 1;
		c->ext.gflags = tc.gflags;
		c->ext.gkey_col[0] = 0;
		c->ext.nagg = 4;
		c->ext.agg[0] = {GX_AGG_COUNT, -1};
		c->ext.agg[1] = {GX_AGG_SUM, 1};
		c->ext.agg[2] = {GX_AGG_MIN, 1, 0, 2};
		c->ext.agg[3] = {GX_AGG_MAX, 1, 0, 2};

		size_t		slot_bytes = (b.capacity + 4095) & ~(size_t) 4095;
		void	   *staging = aligned_alloc(4096, slot_bytes);
		uint64_t	tbytes = gx_group_table_bytes(cap, 1, 4);
		gx_gpu_info info;
		void	   *gt = nullptr;
		gx_task_ctx ctx;

		if (gx_gpu_open(g_gpu, staging, 1, slot_bytes, &info, err, sizeof(err)) != GX_OK ||
			gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gt, err, sizeof(err)) != GX_OK)
		{
			CHECK(false, "group bandwidth: %s", err);
			free(staging);
			return;
		}
		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = (char *) gt;
		ctx.obj_bytes[0] = tbytes;
		/* interpreted, compiled; then compiled with a count per aggregate */
		for (int run = 0; run < 3; run++)
		{
			const int	jit = run > 0;
			uint64_t	best = ~(uint64_t) 0;

			for (int it = 0; it < 4; it++)
			{
				memcpy(staging, c, b.capacity);
				((gx_chunk *) staging)->flags = jit ? GX_CHUNK_JIT | GX_CHUNK_JIT_WAIT : 0;
				if (run == 2)
					((gx_chunk *) staging)->ext.agg[2].cnt_of =
						((gx_chunk *) staging)->ext.agg[3].cnt_of = 0;
				cudaMemset(gt, 0, tbytes);
				cudaDeviceSynchronize();
				CHECK(gx_gpu_submit(g_gpu, 0, &ctx, err, sizeof(err)) == GX_OK &&
					  poll_until_done(0, err, sizeof(err)), "group bandwidth run: %s", err);
				gx_result  *res = gx_chunk_result((gx_chunk *) staging);

				CHECK(res->error == GX_NO_ERROR && res->nsel == 0,
					  "group bandwidth: %u groups: error %llx, %u rows to the host", tc.groups,
					  (unsigned long long) res->error, res->nsel);
				if (res->kernel_ns < best)
					best = res->kernel_ns;
			}
			printf("  %8u groups, %-11s %-11s %8.3f ms  %7.2f G rows/s%s\n", tc.groups, tc.how,
				   jit ? "compiled" : "interpreted", best / 1e6, (double) nrows / best,
				   run == 2 ? " (a count per aggregate)" : "");
		}
		gx_mem_free(GX_DEV_GPU + g_gpu, gt);
		gx_gpu_close();
		free(staging);
	}
}

/*
 * Join throughput (GX_BW_ONLY figures) of algorithm alg (the hash join,
 * the merge join): an inner equi-join of 16M x 16M int4 rows, the inner
 * keys distinct (i * 2654435761 mod 2^24), the outer keys uniform over
 * them (every outer row has one match): JOIN_BUILD of the 16M inner rows,
 * JOIN_FINISH_BUILD, then JOIN_PROBE count(*) (no pair written) and
 * JOIN_PROBE writing the 16M pairs in one pass, and the count(*) probe in
 * batches of GX_BW_JOIN_BATCH rows, as the node sends them (the kernel
 * time of all its tasks).  Kernel time (no transfer) of each task, best of
 * 4, the table emptied before each build.
 */
#define GX_BW_JOIN_BATCH 65536

static void
test_join_bandwidth(std::mt19937_64 &rng, uint32_t alg)
{
	const uint32_t n = 16u << 20;
	JoinSide	in,
				out;
	JoinSpec	js;
	char		err[512];

	in.k1.resize(n);
	out.k1.resize(n);
	for (uint32_t i = 0; i < n; i++)
	{
		in.k1[i] = (int64_t) (((uint64_t) i * 2654435761u) & (n - 1));
		out.k1[i] = (int64_t) (rng() % n);
	}
	in.n1.assign(n, 0);
	out.n1.assign(n, 0);
	js.alg = alg;
	js.cap = n;
	js.kcap = alg == GX_JOIN_HASH ? 2 * n : 0;
	js.lean = true;

	ChunkBuilder bb,
				pb;
	gx_chunk   *build = join_side_task(bb, GX_TASK_JOIN_BUILD, in, js, 0, n);
	gx_chunk   *probe = join_side_task(pb, GX_TASK_JOIN_PROBE, out, js, 0, n);

	probe = join_grow_result(pb, gx_join_probe_result_bytes(n, n, alg));
	probe->ext.join.max_pairs = n;

	std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
	gx_chunk   *fin = join_finish_task(fm.data(), js);
	size_t		slot_bytes = (std::max(bb.capacity, pb.capacity) + 4095) & ~(size_t) 4095;
	void	   *staging = aligned_alloc(4096, slot_bytes);
	uint64_t	tbytes = join_table_bytes(js);
	gx_gpu_info info;
	void	   *gt = nullptr;
	gx_task_ctx ctx;

	if (gx_gpu_open(g_gpu, staging, 1, slot_bytes, &info, err, sizeof(err)) != GX_OK ||
		gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gt, err, sizeof(err)) != GX_OK)
	{
		CHECK(false, "join bandwidth: %s", err);
		free(staging);
		return;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.obj[0] = (char *) gt;
	ctx.obj_bytes[0] = tbytes;

	uint64_t	best[5] = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull};
	const char *name[5] = {"build", "finish build", "probe count(*)", "probe, pairs written",
	"probe count(*), batches"};

	/* run task c (capacity bytes) in slot 0, check its count, keep its best kernel time */
	auto		run = [&](const gx_chunk *c, uint64_t capacity, int what,
						  uint64_t want_count) -> uint64_t {
		memcpy(staging, c, capacity);
		bool		ok = gx_gpu_submit(g_gpu, 0, &ctx, err, sizeof(err)) == GX_OK &&
			poll_until_done(0, err, sizeof(err));
		gx_result  *res = gx_chunk_result((gx_chunk *) staging);

		CHECK(ok && res->error == GX_NO_ERROR && res->join_count == want_count &&
			  !(res->flags & GX_RESULT_MORE),
			  "join bandwidth %s: %s (error %llx, count %llu, want %llu)", name[what], err,
			  (unsigned long long) res->error, (unsigned long long) res->join_count,
			  (unsigned long long) want_count);
		/* (a batch's time counts in its batches' sum: run_batches) */
		if (ok && what < 4 && res->kernel_ns < best[what])
			best[what] = res->kernel_ns;
		return ok ? res->kernel_ns : 0;
	};
	/* the outer side in count-only probes of GX_BW_JOIN_BATCH rows: their kernel time */
	auto		run_batches = [&]() -> void {
		uint64_t	ns = 0;

		for (uint32_t lo = 0; lo < n; lo += GX_BW_JOIN_BATCH)
		{
			uint32_t	hi = std::min(n, lo + GX_BW_JOIN_BATCH);
			ChunkBuilder b;
			gx_chunk   *c = join_side_task(b, GX_TASK_JOIN_PROBE, out, js, lo, hi);

			c = join_grow_result(b, gx_join_probe_result_bytes(hi - lo, 0, alg));
			c->ext.count_only = 1;
			c->ext.join.mode = GX_JOIN_INNER;
			ns += run(c, b.capacity, 4, hi - lo);
		}
		best[4] = ns < best[4] ? ns : best[4];
	};

	for (int it = 0; it < 4; it++)
	{
		cudaMemset(gt, 0, tbytes);
		cudaDeviceSynchronize();
		run(build, bb.capacity, 0, n);
		run(fin, join_finish_bytes(), 1, n);
		probe->ext.count_only = 1;
		run(probe, pb.capacity, 2, n);
		probe->ext.count_only = 0;
		run(probe, pb.capacity, 3, n);
		run_batches();
	}
	printf("join kernels (%s join): %u x %u int4 rows, distinct inner keys, uniform outer keys (%s)\n",
		   alg == GX_JOIN_MERGE ? "merge" : "hash", n, n, info.name);
	for (int w = 0; w < 5; w++)
		printf("  %-22s %8.3f ms  %7.2f G rows/s\n", name[w], best[w] / 1e6,
			   (double) n / best[w]);
	gx_mem_free(GX_DEV_GPU + g_gpu, gt);
	gx_gpu_close();
	free(staging);
}

/* ---------------------------------------------------------------------- */
/* batched lookups: SEARCH (gx_search.cuh)                                 */
/* ---------------------------------------------------------------------- */

/*
 * The GPU projection gt (cap rows, tbytes) copied back: the keys sorted,
 * each with its position?
 */
static bool
search_gpu_projection_ok(void *gt, uint32_t cap, uint64_t tbytes, const std::vector<int64_t> &keys)
{
	std::vector<char> host(tbytes);
	gx_jrange_offs o;

	gx_jrange_layout(cap, &o);
	if (cudaDeviceSynchronize() != cudaSuccess ||
		cudaMemcpy(host.data(), gt, tbytes, cudaMemcpyDeviceToHost) != cudaSuccess)
		return false;
	return search_projection_ok((const int64_t *) (host.data() + o.skey),
								(const int64_t *) (host.data() + o.run), keys);
}

/*
 * A cached column's sorted projection on the GPU (gx_projection.h): each
 * case's projection built from its cache entries on both devices (the
 * backend's JOIN_BUILD programs, FINISH: cub::DeviceRadixSort on the GPU),
 * then probed by the backend's lookups in one pass and in passes of 7
 * pairs: the GPU's rows and (probe, position) pairs equal the CPU
 * device's and the reference's
 */
static void
test_projection(std::mt19937_64 &rng, void *staging, size_t slot_bytes)
{
	int			ncases = 0;
	char		err[512] = "";

	proj_cases(rng, 4, [&](const char *what, const std::vector<ProjEntry> &entries,
						   const std::vector<int64_t> &keys, const std::vector<uint8_t> &knull) {
		const uint32_t cap = proj_cap(entries);
		const uint64_t tbytes = gx_jrange_table_bytes(cap);
		uint64_t	want_rows = 0;
		auto		want = proj_reference(entries, keys, knull, &want_rows);

		for (uint32_t maxp : {7u, 1u << 16})
		{
			void	   *gt = nullptr,
					   *ct = nullptr;
			std::vector<std::pair<uint32_t, int64_t>> gpairs,
						cpairs;
			uint64_t	grows = 0,
						crows = 0;

			CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gt, err, sizeof(err)) == GX_OK &&
				  gx_mem_alloc(GX_DEV_CPU, tbytes, &ct, err, sizeof(err)) == GX_OK,
				  "projection %s: tables: %s", what, err);
			if (gt == nullptr || ct == nullptr)
				return;
			JoinRunner	grun = gpu_join_runner(staging, slot_bytes, gt, tbytes);
			JoinRunner	crun = cpu_join_runner(ct, tbytes);
			bool		gok = proj_build_all(grun, entries, cap, &grows) &&
				proj_probe_all(grun, cap, keys, knull, maxp, &gpairs);
			bool		cok = proj_build_all(crun, entries, cap, &crows) &&
				proj_probe_all(crun, cap, keys, knull, maxp, &cpairs);

			CHECK(gok && cok && grows == want_rows && crows == want_rows && gpairs == want &&
				  cpairs == want,
				  "projection %s (passes of %u pairs): GPU %d, %llu rows, %zu pairs; CPU %d, "
				  "%llu rows, %zu pairs; want %llu rows, %zu pairs", what, maxp, gok,
				  (unsigned long long) grows, gpairs.size(), cok, (unsigned long long) crows,
				  cpairs.size(), (unsigned long long) want_rows, want.size());
			gx_mem_free(GX_DEV_GPU + g_gpu, gt);
			gx_mem_free(GX_DEV_CPU, ct);
			ncases++;
		}
	});
	printf("projection: %d cases, GPU = CPU = reference\n", ncases);
}

/*
 * SEARCH on the GPU: each case's projection built on both devices
 * (JOIN_BUILD of a range join's table, FINISH: cub::DeviceRadixSort on
 * the GPU), both checked; then every operation (equality, ranges with
 * every bound flag), every algorithm and p: the GPU's runs, nsel and
 * join_count equal the CPU device's and std::lower_bound / upper_bound's.
 * Then a malformed task is refused before any CUDA call, and a search of
 * a table never sealed fails at row 0.
 */
static void
test_search(std::mt19937_64 &rng, void *staging, size_t slot_bytes)
{
	int			ntasks = 0;
	char		err[512] = "";

	search_cases(rng, 4, [&](const SearchCase &sc) {
		const uint32_t cap = search_cap(sc);
		const uint64_t tbytes = gx_jrange_table_bytes(cap);
		const uint32_t np = (uint32_t) sc.lo.size();
		void	   *gt = nullptr,
				   *ct = nullptr;
		gx_task_ctx cctx;

		CHECK(gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gt, err, sizeof(err)) == GX_OK &&
			  gx_mem_alloc(GX_DEV_CPU, tbytes, &ct, err, sizeof(err)) == GX_OK,
			  "search %s: tables: %s", sc.what.c_str(), err);
		if (gt == nullptr || ct == nullptr)
			return;
		JoinRunner	grun = gpu_join_runner(staging, slot_bytes, gt, tbytes);
		gx_jrange_offs o;

		gx_jrange_layout(cap, &o);
		CHECK(search_build(grun, sc.keys, cap, 5000) &&
			  search_gpu_projection_ok(gt, cap, tbytes, sc.keys),
			  "search %s: the GPU projection holds the keys sorted, with their positions",
			  sc.what.c_str());
		CHECK(search_build(cpu_join_runner(ct, tbytes), sc.keys, cap, 5000) &&
			  search_projection_ok((const int64_t *) ((char *) ct + o.skey),
								   (const int64_t *) ((char *) ct + o.run), sc.keys),
			  "search %s: the CPU projection holds the keys sorted, with their positions",
			  sc.what.c_str());
		memset(&cctx, 0, sizeof(cctx));
		cctx.obj[0] = (char *) ct;
		cctx.obj_bytes[0] = tbytes;
		ntasks += search_each_task(sc, cap, [&](gx_chunk *c, uint64_t capacity, uint32_t op,
												uint32_t bflags, const uint32_t *a,
												const std::vector<gx_search_run> &want,
												uint64_t sum) {
			std::vector<char> good((const char *) c, (const char *) c + capacity);
			bool		gok = grun(c, capacity, nullptr, 0);
			gx_result  *r = gx_chunk_result(c);

			CHECK(gok && r->error == GX_NO_ERROR && r->nsel == np && r->join_count == sum &&
				  search_runs_equal(c, want) && (r->flags & GX_RESULT_GPU),
				  "search %s: op %u flags %u alg %u lanes %u: GPU %u runs, count %llu, "
				  "want %llu", sc.what.c_str(), op, bflags, a[0], a[1], r->nsel,
				  (unsigned long long) r->join_count, (unsigned long long) sum);
			memcpy(c, good.data(), capacity);
			CHECK(cpu_run(c, capacity, &cctx) == GX_OK && r->error == GX_NO_ERROR &&
				  r->nsel == np && r->join_count == sum && search_runs_equal(c, want),
				  "search %s: op %u flags %u alg %u lanes %u: CPU %u runs, count %llu, "
				  "want %llu", sc.what.c_str(), op, bflags, a[0], a[1], r->nsel,
				  (unsigned long long) r->join_count, (unsigned long long) sum);
		});
		gx_mem_free(GX_DEV_GPU + g_gpu, gt);
		gx_mem_free(GX_DEV_CPU, ct);
	});
	printf("search: %d tasks, GPU = CPU = std::lower_bound / upper_bound\n", ntasks);

	/* refused before any CUDA call; a table never sealed: an error at row 0 */
	{
		SearchCase	sc;
		const uint32_t cap = 100;
		const uint64_t tbytes = gx_jrange_table_bytes(cap);
		void	   *gt = nullptr;

		for (uint32_t i = 0; i < cap; i++)
			sc.keys.push_back((int64_t) i);
		search_probes(rng, sc, 50);
		if (gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gt, err, sizeof(err)) != GX_OK)
		{
			CHECK(false, "search: table: %s", err);
			return;
		}
		JoinRunner	grun = gpu_join_runner(staging, slot_bytes, gt, tbytes);
		ChunkBuilder b;
		gx_chunk   *c = search_task(b, sc, 0, 50, GX_SEARCH_EQ, 0, GX_SEARCH_PARY, 8, cap);
		std::vector<char> good((const char *) c, (const char *) c + b.capacity);
		gx_task_ctx ctx;

		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = (char *) gt;
		ctx.obj_bytes[0] = tbytes;
		for (int m = 0; m < 3; m++)
		{
			memcpy(staging, good.data(), b.capacity);
			gx_chunk   *s = (gx_chunk *) staging;

			if (m == 0)
				s->ext.search.lanes = 3;
			else if (m == 1)
				s->ext.search.cap = 200;
			else
				s->cols[0].values_off = s->input_bytes;
			CHECK(gx_gpu_submit(g_gpu, 0, &ctx, err, sizeof(err)) == GX_INVALID,
				  "GPU search mutation %d refused (%s)", m, err);
		}
		CHECK(grun(c, b.capacity, nullptr, 0) &&
			  gx_chunk_result(c)->error == ((uint64_t) 0 << 8 | GX_ERR_BAD_PROGRAM) &&
			  gx_chunk_result(c)->nsel == 0,
			  "GPU search of a table not sealed: an error at row 0");
		memcpy(c, good.data(), b.capacity);
		CHECK(search_build(grun, sc.keys, cap, 64) && grun(c, b.capacity, nullptr, 0) &&
			  gx_chunk_result(c)->error == GX_NO_ERROR && gx_chunk_result(c)->nsel == 50,
			  "GPU search once sealed: runs");
		gx_mem_free(GX_DEV_GPU + g_gpu, gt);
	}
}

/* ---------------------------------------------------------------------- */
/* aggregation over a join (group probe, gx_join.cuh)                      */
/* ---------------------------------------------------------------------- */

/* GPU slot 0 as a group join runner (gpu_run_slot0) */
static JgDev
gpu_jg_dev(void *staging, size_t slot_bytes)
{
	JgDev		d;

	d.alloc = [](uint64_t bytes) -> void * {
		void	   *p = nullptr;
		char		err[256];

		if (gx_mem_alloc(GX_DEV_GPU + g_gpu, bytes, &p, err, sizeof(err)) != GX_OK)
			return nullptr;
		cudaMemset(p, 0, bytes);
		cudaDeviceSynchronize();
		return p;
	};
	d.release = [](void *p) {
		if (p != nullptr)
			gx_mem_free(GX_DEV_GPU + g_gpu, p);
	};
	d.read = [](void *host, const void *dev, uint64_t bytes) {
		cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost);
	};
	d.run = [staging, slot_bytes](gx_chunk *c, uint64_t capacity, void *const *obj,
								  const uint64_t *ob, const void *entry, uint64_t entry_bytes) {
		gx_task_ctx ctx;

		memset(&ctx, 0, sizeof(ctx));
		for (int i = 0; i < GX_TASK_MAX_OBJS; i++)
		{
			ctx.obj[i] = (char *) obj[i];
			ctx.obj_bytes[i] = obj[i] != nullptr ? ob[i] : 0;
		}
		return gpu_run_slot0(staging, slot_bytes, c, capacity, &ctx, entry, entry_bytes,
							 "group join task");
	};
	return d;
}

/*
 * The ordering of host uploads into new blocks of the GPU's pool: a
 * block's zeroing is queued on the pool's stream, which cudaMemcpy does
 * not wait for.  With that stream busy zeroing large blocks, a small
 * block filled by a bare cudaMemcpy may be zeroed after the copy (printed:
 * how often on this GPU; the cause of a lost group probe task, "variant
 * 4", before gpu_upload); filled by gpu_upload, never (checked).
 */
static void
test_upload_order(void)
{
	const int	rounds = 20;
	const int	nbig = 4;
	const uint64_t big = 512ull << 20;	/* 2 GiB of zeroing queued ahead */
	const uint32_t words = 4096;
	std::vector<uint32_t> pattern(words),
				back(words);
	int			lost[2] = {0, 0};
	char		err[512] = "";
	bool		ok = true;

	for (uint32_t i = 0; i < words; i++)
		pattern[i] = 0x80000000u | i;
	for (int how = 0; how < 2 && ok; how++)
		for (int r = 0; r < rounds && ok; r++)
		{
			void	   *b[nbig] = {};
			void	   *p = nullptr;

			for (int i = 0; i < nbig && ok; i++)
				ok = gx_mem_alloc(GX_DEV_GPU + g_gpu, big, &b[i], err, sizeof(err)) == GX_OK;
			ok = ok && gx_mem_alloc(GX_DEV_GPU + g_gpu, 4 * words, &p, err, sizeof(err)) == GX_OK;
			if (ok)
				ok = how == 0 ?
					cudaMemcpy(p, pattern.data(), 4 * words, cudaMemcpyHostToDevice) ==
					cudaSuccess : gpu_upload(p, pattern.data(), 4 * words);
			ok = ok && cudaDeviceSynchronize() == cudaSuccess &&
				cudaMemcpy(back.data(), p, 4 * words, cudaMemcpyDeviceToHost) == cudaSuccess;
			if (ok && memcmp(back.data(), pattern.data(), 4 * words) != 0)
				lost[how]++;
			for (int i = 0; i < nbig; i++)
				if (b[i] != nullptr)
					gx_mem_free(GX_DEV_GPU + g_gpu, b[i]);
			if (p != nullptr)
				gx_mem_free(GX_DEV_GPU + g_gpu, p);
		}
	CHECK(ok, "upload order: %s", err);
	printf("upload order: behind 2 GiB of queued zeroing, a new pool block filled by a bare "
		   "cudaMemcpy lost its bytes in %d of %d rounds, by gpu_upload in %d\n", lost[0],
		   rounds, lost[1]);
	CHECK(ok && lost[1] == 0, "upload order: gpu_upload's bytes are there (%d of %d lost)",
		  lost[1], rounds);
}

/*
 * The shape of the H100's lost group probe task again, over GX_JG_SEEDS
 * seeds (default 40): the random case of jg_cases, both sides' rows from
 * cache entries (variant 4), LEFT, group keys on both sides (keys 3),
 * every algorithm, on the GPU against the reference; a failure prints
 * each probe task that differs from its rows' reference.  Returns the
 * runs.
 */
static int
test_jgroup_entries(const JgDev &gpu)
{
	const char *env = getenv("GX_JG_SEEDS");
	const int	seeds = env != nullptr ? atoi(env) : 40;
	int			runs = 0;

	for (int seed = 1; seed <= seeds; seed++)
	{
		std::mt19937_64 rng(seed);
		char		what[64];

		snprintf(what, sizeof(what), "random, seed %d", seed);
		jg_cases(rng, 10, [&](const char *, const JgSide &in, const JgSide &out, bool host) {
			if (!host)
				return;			/* (the random case alone has host rows and variants) */
			for (uint32_t alg : {GX_JOIN_HASH, GX_JOIN_RANGE, GX_JOIN_MERGE})
			{
				jg_case_run(gpu, "GPU", what, in, out, host, alg, GX_JOIN_LEFT, 3, 4);
				runs++;
			}
		});
	}
	return runs;
}

/*
 * Aggregation over a join on the GPU and on the CPU device: every case,
 * mode, algorithm and key set of jg_cases (sizes x10), each device
 * against the nested-loop reference (so GPU = CPU = reference); the
 * cache-entry shape over many seeds on the GPU (test_jgroup_entries), the
 * ordering of the tests' uploads (test_upload_order); then a malformed
 * group probe is refused before any CUDA call
 */
static void
test_jgroup(std::mt19937_64 &rng, void *staging, size_t slot_bytes)
{
	const JgDev gpu = gpu_jg_dev(staging, slot_bytes);
	const JgDev cpu = cpu_jg_dev();
	int			runs = 0;

	jg_cases(rng, 10, [&](const char *what, const JgSide &in, const JgSide &out, bool host) {
		runs += jg_case_runs(gpu, "GPU", what, in, out, host);
		runs += jg_case_runs(cpu, "CPU", what, in, out, host);
	});
	printf("group join: %d runs, GPU = CPU = reference\n", runs);
	{
		/* multi-level group probes: the same cases (same seed) on both devices */
		std::mt19937_64 grng(779),
					crng(779);

		runs = jgl_test(gpu, "GPU", grng, 8, 1500);
		runs += jgl_test(cpu, "CPU", crng, 8, 1500);
		runs += jgl_test(gpu, "GPU, sizes x40", grng, 40, 1u << 30);
		printf("multi-level group probes: %d runs, GPU = CPU = reference\n", runs);
	}
	runs = test_jgroup_entries(gpu);
	printf("group join, rows from cache entries, LEFT, keys 3: %d GPU runs over seeds\n", runs);
	test_upload_order();
	{
		JgSide		out;
		JgSpec		sp;
		ChunkBuilder b;
		char		err[512];
		gx_task_ctx ctx;

		for (int r = 0; r < 100; r++)
			out.add_random(rng, r, 0, 0, 0);
		gx_chunk   *c = jg_side_task(b, GX_TASK_JOIN_PROBE, out, sp, 64, 128, 0, 100);

		jg_set_group(c, sp);
		c->ext.join.mode = GX_JOIN_RIGHT;
		memset(&ctx, 0, sizeof(ctx));
		memcpy(staging, c, b.capacity);
		CHECK(gx_gpu_submit(g_gpu, 0, &ctx, err, sizeof(err)) == GX_INVALID,
			  "GPU: a RIGHT group probe is refused");
	}
}

/*
 * Gathered output (a probe's entries with their columns) on the GPU and
 * on the CPU device: every case of jg_cases (sizes x6: several tiles),
 * algorithm and mode of jga_case_runs, every pass's entries and their
 * columns against the rows (so GPU = CPU = reference; the GPU's columns
 * come back with its entries, gx_gpu_poll); then a malformed gathering
 * probe is refused before any CUDA call
 */
static void
test_join_gather(std::mt19937_64 &rng, void *staging, size_t slot_bytes)
{
	const JgDev gpu = gpu_jg_dev(staging, slot_bytes);
	const JgDev cpu = cpu_jg_dev();
	int			runs = 0;

	jg_cases(rng, 6, [&](const char *what, const JgSide &in, const JgSide &out, bool host) {
		runs += jga_case_runs(gpu, "GPU", what, in, out, host, 6);
		runs += jga_case_runs(cpu, "CPU", what, in, out, host, 6);
	});
	printf("gathered join: %d runs, GPU = CPU = reference\n", runs);
	{
		JgSide		out;
		JgSpec		sp;
		ChunkBuilder b;
		char		err[512];
		gx_task_ctx ctx;

		for (int r = 0; r < 100; r++)
			out.add_random(rng, r, 0, 0, 0);
		gx_chunk   *c = jg_side_task(b, GX_TASK_JOIN_PROBE, out, sp, 64, 128, 0, 100, true);

		c = join_grow_result(b, gx_join_gather_result_bytes(100, 8, GX_JOIN_HASH, 1));
		c->ext.join.max_pairs = 8;
		c->ext.join.ngather = 1;
		c->ext.join.gather[0] = 0;
		c->ext.count_only = 1;
		memset(&ctx, 0, sizeof(ctx));
		memcpy(staging, c, b.capacity);
		CHECK(gx_gpu_submit(g_gpu, 0, &ctx, err, sizeof(err)) == GX_INVALID,
			  "GPU: a count-only gathering probe is refused");
	}
}

/*
 * Kaldewey et al.'s Table 1 and Figure 8 at the kernel level (part
 * search_bench; figures only, never a pass or fail on time): a sorted
 * projection of SB_KEYS unique int8 keys, built on the GPU by JOIN_BUILD
 * tasks and FINISH (cub::DeviceRadixSort), searched with batches of
 * uniformly random keys of the projection (equality: every key has one
 * match, join_count checked).  Rows: GPU binary search, GPU p-ary search
 * for each p, the CPU device's SEARCH on a pool of every core (binary
 * search), and a serial std::lower_bound loop.  Per batch: the median of
 * several runs of the device time (the GPU's kernels, the projection
 * already on the device) and of the end-to-end time (submit to done: the
 * probes' copy in, the kernels, the runs' copy back; the CPU: the task's
 * wall time), and the throughput.  Then the best throughput under
 * response-time limits (end to end), 1 ms among them.
 */
#define SB_KEYS 36000000u
#define SB_BUILD_BATCH (4u << 20)

static void
test_search_bench(std::mt19937_64 &rng)
{
	const uint32_t n = SB_KEYS;
	const uint32_t batches[] = {16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576};
	const uint32_t table1[] = {16, 1024, 16384, 1048576};
	const uint32_t maxb = 1048576;
	std::vector<int64_t> sorted(n),
				keys(n);
	std::vector<uint32_t> perm(n);
	char		err[512] = "";
	int			started = 0;
	int			ncpu = (int) std::thread::hardware_concurrency();

	/*
	 * unique keys, ascending (one in each stretch of 64 values), then in a
	 * random order: position i holds sorted[perm[i]]
	 */
	for (uint32_t i = 0; i < n; i++)
	{
		sorted[i] = ((int64_t) i - (int64_t) (n / 2)) * 64 + (int64_t) (rng() % 64);
		perm[i] = i;
	}
	std::shuffle(perm.begin(), perm.end(), rng);
	for (uint32_t i = 0; i < n; i++)
		keys[i] = sorted[perm[i]];

	/* the slot: a build batch, or a search of the largest batch */
	SearchCase	sc;

	sc.keys.clear();
	for (uint32_t i = 0; i < maxb; i++)
	{
		sc.lo.push_back(sorted[rng() % n]);
		sc.hi.push_back(0);
		sc.lo_null.push_back(0);
		sc.hi_null.push_back(0);
	}
	const uint64_t tbytes = gx_jrange_table_bytes(n);
	size_t		slot_bytes = (size_t) (GX_ALIGN_UP(sizeof(gx_chunk)) +
									   GX_ALIGN_UP((uint64_t) SB_BUILD_BATCH * 8) +
									   gx_result_bytes(SB_BUILD_BATCH) + 65536 + 4095) &
		~(size_t) 4095;
	void	   *staging = aligned_alloc(4096, slot_bytes);
	gx_gpu_info info;
	void	   *gt = nullptr;

	memset(staging, 0, slot_bytes);
	if (gx_gpu_open(g_gpu, staging, 1, slot_bytes, &info, err, sizeof(err)) != GX_OK ||
		gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gt, err, sizeof(err)) != GX_OK)
	{
		CHECK(false, "search bench: %s", err);
		free(staging);
		return;
	}
	JoinRunner	grun = gpu_join_runner(staging, slot_bytes, gt, tbytes);
	auto		t0 = std::chrono::steady_clock::now();
	bool		built = search_build(grun, keys, n, SB_BUILD_BATCH);
	double		build_ms = std::chrono::duration<double, std::milli>(
		std::chrono::steady_clock::now() - t0).count();

	CHECK(built, "search bench: the projection of %u keys is built", n);
	if (!built)
	{
		gx_mem_free(GX_DEV_GPU + g_gpu, gt);
		gx_gpu_close();
		free(staging);
		return;
	}

	/* the CPU device's projection: the same arrays, sealed (built by the unit tests' tasks) */
	void	   *ct = nullptr;
	gx_task_ctx gctx,
				cctx;

	if (gx_mem_alloc(GX_DEV_CPU, tbytes, &ct, err, sizeof(err)) == GX_OK)
	{
		gx_jrange_offs o;

		gx_jrange_layout(n, &o);
		for (uint32_t i = 0; i < n; i++)
		{
			((int64_t *) ((char *) ct + o.skey))[perm[i]] = keys[i];
			((int64_t *) ((char *) ct + o.run))[perm[i]] = (int64_t) i;
		}
		((gx_join_hdr *) ct)->rows = n;
		((gx_join_hdr *) ct)->built = 1;
	}
	else
		CHECK(false, "search bench: CPU table: %s", err);
	memset(&gctx, 0, sizeof(gctx));
	gctx.obj[0] = (char *) gt;
	gctx.obj_bytes[0] = tbytes;
	memset(&cctx, 0, sizeof(cctx));
	cctx.obj[0] = (char *) ct;
	cctx.obj_bytes[0] = tbytes;
	/* the CPU device on a pool of every core */
	gx_cpu_close();
	CHECK(gx_cpu_open(ncpu, &started, err, sizeof(err)) == GX_OK, "search bench: pool: %s", err);

	/* methods: GPU binary, GPU p-ary (p lanes), CPU device (pool), CPU serial */
	struct Method
	{
		const char *name;
		int			dev;		/* 0 GPU, 1 CPU device, 2 serial loop */
		uint32_t	alg;
		uint32_t	lanes;
	};
	const Method methods[] = {
		{"GPU binary", 0, GX_SEARCH_BINARY, 1}, {"GPU p-ary p=2", 0, GX_SEARCH_PARY, 2},
		{"GPU p-ary p=4", 0, GX_SEARCH_PARY, 4},
		{"GPU p-ary p=8", 0, GX_SEARCH_PARY, 8}, {"GPU p-ary p=16", 0, GX_SEARCH_PARY, 16},
		{"GPU p-ary p=32", 0, GX_SEARCH_PARY, 32}, {"CPU binary, pool", 1, GX_SEARCH_BINARY, 1},
		{"CPU binary, serial", 2, GX_SEARCH_BINARY, 1},
	};
	const int	nm = (int) (sizeof(methods) / sizeof(methods[0]));
	const int	nb = (int) (sizeof(batches) / sizeof(batches[0]));
	std::vector<double> dev_ms(nm * nb, 0),
				e2e_ms(nm * nb, 0);
	/* a markdown table's header: first, then the columns right-aligned */
	auto		header = [](const char *first, const std::vector<std::string> &cols) {
		printf("| %s |", first);
		for (const std::string &col : cols)
			printf(" %s |", col.c_str());
		printf("\n|---|");
		for (size_t i = 0; i < cols.size(); i++)
			printf("---:|");
		printf("\n");
	};
	auto		median = [](std::vector<double> v) {
		std::sort(v.begin(), v.end());
		return v.empty() ? 0.0 : v[v.size() / 2];
	};

	for (int bi = 0; bi < nb; bi++)
	{
		const uint32_t B = batches[bi];
		const int	runs = B <= 65536 ? 15 : 5;
		ChunkBuilder b;
		gx_chunk   *c = search_task(b, sc, 0, B, GX_SEARCH_EQ, 0, GX_SEARCH_BINARY, 1, n);
		std::vector<char> good((const char *) c, (const char *) c + b.capacity);

		for (int mi = 0; mi < nm; mi++)
		{
			const Method &m = methods[mi];
			std::vector<double> dv,
						ev;

			for (int it = 0; it < runs + 1; it++)
			{
				gx_chunk   *t = m.dev == 0 ? (gx_chunk *) staging : c;
				bool		ok = true;
				uint64_t	count = 0;

				memcpy(t, good.data(), b.capacity);
				/*
				 * (the result of the task now in t: the staging slot held
				 * the last task before the copy, of another result_off)
				 */
				gx_result  *r = gx_chunk_result(t);

				t->ext.search.alg = m.alg;
				t->ext.search.lanes = m.lanes;
				auto		s0 = std::chrono::steady_clock::now();

				if (m.dev == 0)
					ok = gx_gpu_submit(g_gpu, 0, &gctx, err, sizeof(err)) == GX_OK &&
						poll_until_done(0, err, sizeof(err));
				else if (m.dev == 1)
					ok = gx_cpu_run(t, b.capacity, &cctx, err, sizeof(err)) == GX_OK;
				else
				{
					const int64_t *p = (const int64_t *) ((char *) t +
														  t->cols[0].values_off);
					gx_search_run *out = (gx_search_run *) ((char *) r +
															gx_search_runs_off());

					for (uint32_t i = 0; i < B; i++)
					{
						auto		lo = std::lower_bound(sorted.begin(), sorted.end(), p[i]);
						auto		hi = lo;

						while (hi != sorted.end() && *hi == p[i])
							++hi;
						out[i].start = (uint32_t) (lo - sorted.begin());
						out[i].count = (uint32_t) (hi - lo);
						count += out[i].count;
					}
					r->error = GX_NO_ERROR;
					r->join_count = count;
				}
				double		wall = std::chrono::duration<double, std::milli>(
					std::chrono::steady_clock::now() - s0).count();

				CHECK(ok && r->error == GX_NO_ERROR && r->join_count == B,
					  "search bench %s, %u keys, run %d: %s (count %llu, nsel %u, error %llx)",
					  m.name, B, it, err, (unsigned long long) r->join_count, r->nsel,
					  (unsigned long long) r->error);
				if (it == 0)
					continue;	/* (a warm-up run) */
				dv.push_back(m.dev == 0 ? r->kernel_ns / 1e6 : wall);
				ev.push_back(wall);
				if (m.dev == 2 && B >= 262144 && it >= 3)
					break;		/* (the serial loop: 3 runs of the large batches) */
			}
			dev_ms[mi * nb + bi] = median(dv);
			e2e_ms[mi * nb + bi] = median(ev);
		}
	}

	printf("\n### Batched lookups (SEARCH), %u unique int8 keys, %s\n\n", n, info.name);
	printf("Projection built on the GPU (JOIN_BUILD in batches of %u, FINISH: radix sort): "
		   "%.1f ms end to end. CPU device: %d threads. Medians of 5 to 15 runs.\n\n",
		   SB_BUILD_BATCH, build_ms, started);
	printf("| batch | method | device ms | end-to-end ms | M keys/s (device) | "
		   "M keys/s (end to end) | speedup vs serial (end to end) |\n");
	printf("|---:|---|---:|---:|---:|---:|---:|\n");
	for (int bi = 0; bi < nb; bi++)
		for (int mi = 0; mi < nm; mi++)
		{
			double		d = dev_ms[mi * nb + bi],
						e = e2e_ms[mi * nb + bi],
						serial = e2e_ms[(nm - 1) * nb + bi];

			printf("| %u | %s | %.4f | %.4f | %.1f | %.1f | %.2f |\n", batches[bi],
				   methods[mi].name, d, e, d > 0 ? batches[bi] / d / 1e3 : 0.0,
				   e > 0 ? batches[bi] / e / 1e3 : 0.0, e > 0 ? serial / e : 0.0);
		}

	/* Table 1: speedups over the serial CPU search, end to end */
	printf("\nKaldewey Table 1 (speedup over the serial CPU binary search, end to end):\n\n");
	{
		std::vector<std::string> cols;

		for (uint32_t B : table1)
			cols.push_back(std::to_string(B));
		header("method", cols);
	}
	for (int mi = 0; mi < nm; mi++)
	{
		printf("| %s |", methods[mi].name);
		for (uint32_t B : table1)
		{
			int			bi = (int) (std::find(batches, batches + nb, B) - batches);
			double		e = e2e_ms[mi * nb + bi];

			printf(" %.2f |", e > 0 ? e2e_ms[(nm - 1) * nb + bi] / e : 0.0);
		}
		printf("\n");
	}

	/* Figure 8: the best throughput whose batch takes at most the limit, end to end */
	const double limits[] = {0.1, 0.2, 0.5, 1.0, 2.0, 5.0};

	printf("\nKaldewey Figure 8 (best M keys/s, end to end, of a batch size whose median "
		   "response time is within the limit; in brackets the batch):\n\n");
	{
		std::vector<std::string> cols;
		char		col[32];

		for (double l : limits)
		{
			snprintf(col, sizeof(col), "<= %.1f ms", l);
			cols.push_back(col);
		}
		header("method", cols);
	}
	for (int mi = 0; mi < nm; mi++)
	{
		printf("| %s |", methods[mi].name);
		for (double l : limits)
		{
			double		best = 0;
			uint32_t	bestb = 0;

			for (int bi = 0; bi < nb; bi++)
			{
				double		e = e2e_ms[mi * nb + bi];

				if (e > 0 && e <= l && batches[bi] / e / 1e3 > best)
				{
					best = batches[bi] / e / 1e3;
					bestb = batches[bi];
				}
			}
			if (bestb > 0)
				printf(" %.1f (%u) |", best, bestb);
			else
				printf(" - |");
		}
		printf("\n");
	}
	/* the response-time limit of the issue: 1 ms a batch */
	{
		double		best = 0;
		int			bm = -1,
					bb = -1;

		for (int mi = 0; mi < nm; mi++)
			for (int bi = 0; bi < nb; bi++)
			{
				double		e = e2e_ms[mi * nb + bi];

				if (e > 0 && e <= 1.0 && batches[bi] / e / 1e3 > best)
				{
					best = batches[bi] / e / 1e3;
					bm = mi;
					bb = bi;
				}
			}
		if (bm >= 0)
			printf("\nBest throughput within 1 ms a batch (end to end): %.1f M keys/s, %s, "
				   "batches of %u keys\n", best, methods[bm].name, batches[bb]);
	}
	printf("\n");

	gx_cpu_close();
	CHECK(gx_cpu_open(4, &started, err, sizeof(err)) == GX_OK, "search bench: pool: %s", err);
	gx_mem_free(GX_DEV_GPU + g_gpu, gt);
	if (ct != nullptr)
		gx_mem_free(GX_DEV_CPU, ct);
	gx_gpu_close();
	free(staging);
}

/*
 * The group probe's throughput: 16M x 16M int4 rows (distinct inner
 * keys, uniform outer keys: each outer row one match), the inner column
 * c = key % 1000 in the store; sum(c) GROUP BY outer key % G for G = 10,
 * 1000, 1000000 (the last without local tables, GX_GROUP_NO_LOCAL), and
 * count(*) GROUP BY c, each one probe task of 16M rows over device
 * memory; kernel time (no transfer), best of 3, the group table emptied
 * before each.  Printed only.
 */
static void
test_jgroup_bandwidth(std::mt19937_64 &rng)
{
	const uint32_t n = 16u << 20;
	std::vector<int64_t> ik(n),
				ok(n);
	char		err[512];

	for (uint32_t i = 0; i < n; i++)
	{
		ik[i] = (int64_t) (((uint64_t) i * 2654435761u) & (n - 1));
		ok[i] = (int64_t) (rng() % n);
	}

	/* the program of a side: outputs 0 = key, 1 = key % m */
	auto		side = [&](ChunkBuilder &b, const std::vector<int64_t> &k, int64_t m) {
		int			ck = b.add_int_col(GX_INT4, k);

		b.emit(GX_OP_LDCOL, GX_INT4, 0, 0, 0, ck);
		b.emit(GX_OP_OUT, GX_INT4, 0, 0, 0, 0);
		b.emit(GX_OP_LDCONST, GX_INT4, 1, 0, 0, b.kint(GX_INT4, m));
		b.emit(GX_OP_MOD, GX_INT4, 2, 0, 1);
		b.emit(GX_OP_OUT, GX_INT4, 0, 2, 0, 1);
		return b.build();
	};
	JoinSpec	js;

	js.cap = n;
	js.kcap = 2 * n;

	ChunkBuilder bb;
	gx_chunk   *build = side(bb, ik, 1000);

	build->kind = GX_TASK_JOIN_BUILD;
	build->obj[0] = 1;
	build->obj[1] = 2;
	build->ext.entry = -1;
	build->ext.join.nkeys = 1;
	build->ext.join.payload_out = -1;
	build->ext.join.cap = js.cap;
	build->ext.join.kcap = js.kcap;
	build->ext.join.lo_out = build->ext.join.hi_out = -1;
	build->ext.join.ncols = 1;
	build->ext.join.col_out[0] = 1;
	build->ext.join.col_type[0] = GX_INT4;

	std::vector<uint64_t> fm(join_finish_bytes() / 8 + 1);
	gx_chunk   *fin = join_finish_task(fm.data(), js);

	/* the probes: {G, group key (1: outer key % G, 2: inner c), aggregate} */
	const uint32_t gs[4] = {10, 1000, 1000000, 1000};
	const char *name[4] = {"sum(c) by outer % 10", "sum(c) by outer % 1000",
	"sum(c) by outer % 1e6", "count(*) by inner c"};
	ChunkBuilder pb[4];
	gx_chunk   *probe[4];
	uint64_t	gbytes[4];
	size_t		slot_bytes = bb.capacity;

	for (int w = 0; w < 4; w++)
	{
		gx_chunk   *c = side(pb[w], ok, w == 3 ? 1 : gs[w]);

		c = join_grow_result(pb[w], gx_join_probe_result_bytes(n, 0, GX_JOIN_HASH));
		c->kind = GX_TASK_JOIN_PROBE;
		c->obj[0] = 1;
		c->obj[1] = 2;
		c->obj[2] = 3;
		c->ext.entry = -1;
		c->ext.join = build->ext.join;
		c->ext.join.mode = GX_JOIN_INNER;
		c->ext.join.icol_base = 2;

		uint32_t	cap = 1024;

		while (cap < 2 * gs[w])
			cap *= 2;
		c->ext.ngroup_cap = cap;
		c->ext.ngroup_limit = cap / 2;
		c->ext.gflags = gs[w] >= 1000000 ? GX_GROUP_NO_LOCAL : 0;
		c->ext.ngkeys = 1;
		c->ext.gkey_col[0] = w == 3 ? 2 : 1;
		c->ext.nagg = 1;
		c->ext.agg[0] = w == 3 ? gx_agg {GX_AGG_COUNT, -1, 0, 0} : gx_agg {GX_AGG_SUM, 2, 0, 0};
		gbytes[w] = gx_group_table_bytes(cap, 1, 1);
		probe[w] = c;
		slot_bytes = std::max<size_t>(slot_bytes, pb[w].capacity);
	}
	slot_bytes = (slot_bytes + 4095) & ~(size_t) 4095;

	void	   *staging = aligned_alloc(4096, slot_bytes);
	uint64_t	tbytes = join_table_bytes(js),
				cbytes = gx_join_cols_bytes(js.cap, 1);
	gx_gpu_info info;
	void	   *gt = nullptr,
			   *gc = nullptr,
			   *gg = nullptr;
	gx_task_ctx ctx;

	if (gx_gpu_open(g_gpu, staging, 1, slot_bytes, &info, err, sizeof(err)) != GX_OK ||
		gx_mem_alloc(GX_DEV_GPU + g_gpu, tbytes, &gt, err, sizeof(err)) != GX_OK ||
		gx_mem_alloc(GX_DEV_GPU + g_gpu, cbytes, &gc, err, sizeof(err)) != GX_OK ||
		gx_mem_alloc(GX_DEV_GPU + g_gpu, gbytes[2], &gg, err, sizeof(err)) != GX_OK)
	{
		CHECK(false, "group join bandwidth: %s", err);
		free(staging);
		return;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.obj[0] = (char *) gt;
	ctx.obj_bytes[0] = tbytes;
	ctx.obj[1] = (char *) gc;
	ctx.obj_bytes[1] = cbytes;
	ctx.obj[2] = (char *) gg;

	/* run task c (capacity bytes) in slot 0; its result, or NULL */
	auto		run = [&](const gx_chunk *c, uint64_t capacity) -> gx_result * {
		memcpy(staging, c, capacity);
		if (gx_gpu_submit(g_gpu, 0, &ctx, err, sizeof(err)) != GX_OK ||
			!poll_until_done(0, err, sizeof(err)))
			return nullptr;
		return gx_chunk_result((gx_chunk *) staging);
	};
	gx_result  *r;

	r = run(build, bb.capacity);
	CHECK(r != nullptr && r->error == GX_NO_ERROR && r->join_count == n,
		  "group join bandwidth: build: %s", err);
	r = run(fin, join_finish_bytes());
	CHECK(r != nullptr && r->error == GX_NO_ERROR && r->join_count == n,
		  "group join bandwidth: finish: %s", err);

	uint64_t	best[4] = {~0ull, ~0ull, ~0ull, ~0ull};

	for (int it = 0; it < 3; it++)
		for (int w = 0; w < 4; w++)
		{
			ctx.obj_bytes[2] = gbytes[w];
			cudaMemset(gg, 0, gbytes[w]);
			cudaDeviceSynchronize();
			r = run(probe[w], pb[w].capacity);
			CHECK(r != nullptr && r->error == GX_NO_ERROR && r->join_count == n &&
				  r->join_noroom == 0 && r->join_host == 0,
				  "group join bandwidth %s: %s (error %llx, added %llu, no room %llu)", name[w],
				  err, r ? (unsigned long long) r->error : 0ull,
				  r ? (unsigned long long) r->join_count : 0ull,
				  r ? (unsigned long long) r->join_noroom : 0ull);
			if (r != nullptr && r->kernel_ns < best[w])
				best[w] = r->kernel_ns;
		}
	printf("group join kernels (hash join, one group probe task of %u rows): %u x %u int4 rows, "
		   "distinct inner keys, uniform outer keys (%s)\n", n, n, n, info.name);
	for (int w = 0; w < 4; w++)
		printf("  %-24s %8.3f ms  %7.2f G pairs/s\n", name[w], best[w] / 1e6,
			   (double) n / best[w]);
	gx_mem_free(GX_DEV_GPU + g_gpu, gt);
	gx_mem_free(GX_DEV_GPU + g_gpu, gc);
	gx_mem_free(GX_DEV_GPU + g_gpu, gg);
	gx_gpu_close();
	free(staging);
}

/* ---------------------------------------------------------------------- */
/* prefix-tree lookups: TREE_LOOKUP (gx_ptree.cuh)                        */
/* ---------------------------------------------------------------------- */

/* an image in device memory (a copy of img), or nullptr */
static void *
ptree_gpu_image(PtImage &img)
{
	void	   *g = nullptr;
	char		err[256];

	if (gx_mem_alloc(GX_DEV_GPU + g_gpu, img.bytes, &g, err, sizeof(err)) != GX_OK)
	{
		fprintf(stderr, "ptree image: %s\n", err);
		return nullptr;
	}
	if (!gpu_upload(g, img.data(), img.bytes))
	{
		gx_mem_free(GX_DEV_GPU + g_gpu, g);
		return nullptr;
	}
	return g;
}

/* the runs of task c (after it ran) */
static std::vector<gx_search_run>
ptree_runs(gx_chunk *c)
{
	const gx_search_run *r = (const gx_search_run *) ((char *) gx_chunk_result(c) +
													  gx_search_runs_off());

	return std::vector<gx_search_run>(r, r + c->nrows);
}

/* equal runs? */
static bool
ptree_runs_same(const std::vector<gx_search_run> &a, const std::vector<gx_search_run> &b)
{
	if (a.size() != b.size())
		return false;
	for (size_t i = 0; i < a.size(); i++)
		if (a[i].start != b[i].start || a[i].count != b[i].count)
			return false;
	return true;
}

/*
 * TREE_LOOKUP on the GPU: each case's image on both devices, every
 * algorithm (the walk; 2, 4, 8, 16 speculative partitions): the GPU's
 * runs, nsel and join_count equal the CPU device's and the
 * std::multimap's.  Malformed images (random bytes over nodes, leaves,
 * level tables): the GPU's runs equal the CPU device's, in bounds (the
 * same clamped steps; compute-sanitizer shows no read out of bounds).
 * Then malformed tasks are refused before any CUDA call.
 */
static void
test_ptree(std::mt19937_64 &rng, void *staging, size_t slot_bytes)
{
	int			ntasks = 0;
	char		err[512] = "";

	pt_cases(rng, 4, [&](PtCase &pc) {
		PtImage		img = pt_image(pc.ref);
		void	   *gimg = ptree_gpu_image(img);
		gx_task_ctx gctx,
					cctx;

		CHECK(gimg != nullptr, "ptree %s: GPU image", pc.what.c_str());
		if (gimg == nullptr)
			return;
		memset(&gctx, 0, sizeof(gctx));
		gctx.obj[0] = (char *) gimg;
		gctx.obj_bytes[0] = img.bytes;
		memset(&cctx, 0, sizeof(cctx));
		cctx.obj[0] = img.data();
		cctx.obj_bytes[0] = img.bytes;
		for (const auto &a : pt_algs)
		{
			ChunkBuilder b;
			gx_chunk   *c = pt_task(b, pc.keys, pc.nulls, a[0], a[1], img.g);
			std::vector<char> good((const char *) c, (const char *) c + b.capacity);
			gx_result  *r = gx_chunk_result(c);
			uint64_t	sum = 0;
			std::string why;
			bool		gok = gpu_run_slot0(staging, slot_bytes, c, b.capacity, &gctx, nullptr, 0,
											"tree lookup") &&
				r->error == GX_NO_ERROR && r->nsel == pc.keys.size() &&
				(r->flags & GX_RESULT_GPU) &&
				pt_runs_ok(c, img, pc.ref, pc.keys, pc.nulls, &sum, &why) && r->join_count == sum;

			CHECK(gok, "ptree %s: alg %u parts %u: GPU %u runs, count %llu: %s", pc.what.c_str(),
				  a[0], a[1], r->nsel, (unsigned long long) r->join_count, why.c_str());

			std::vector<gx_search_run> grun = ptree_runs(c);

			memcpy(c, good.data(), b.capacity);
			CHECK(cpu_run(c, b.capacity, &cctx) == GX_OK && r->nsel == pc.keys.size() &&
				  pt_runs_ok(c, img, pc.ref, pc.keys, pc.nulls, &sum, &why) &&
				  r->join_count == sum && ptree_runs_same(grun, ptree_runs(c)),
				  "ptree %s: alg %u parts %u: CPU runs (= GPU's, reference): %s",
				  pc.what.c_str(), a[0], a[1], why.c_str());
			ntasks++;
		}
		gx_mem_free(GX_DEV_GPU + g_gpu, gimg);
	});
	printf("ptree lookup: %d tasks, GPU = CPU = std::multimap\n", ntasks);

	/* malformed images: GPU = CPU, in bounds */
	{
		PtRef		ref;
		std::vector<int64_t> keys;
		std::vector<uint8_t> nulls;
		int			same = 0;

		for (uint32_t i = 0; i < 3000; i++)
			ref.emplace((int64_t) (rng() % 100000) * (i % 2 ? 1 : 7919), (uint64_t) i << 16 | 1);
		for (uint32_t i = 0; i < 2000; i++)
		{
			keys.push_back(i % 2 ? (int64_t) (rng() % 100000) : (int64_t) rng());
			nulls.push_back(i % 31 == 0);
		}
		for (int round = 0; round < 30; round++)
		{
			PtImage		img = pt_image(ref);
			gx_pt_offs	o;

			gx_pt_layout(&img.g, &o);
			if (round < 2)
				memset(img.data() + o.nodes, round == 0 ? 0xFF : 0x00, img.bytes - o.nodes);
			else
				for (int k = 0; k < 1 + round * 40; k++)
				{
					uint64_t	at = o.nodes + rng() % (img.bytes - o.nodes);

					img.data()[at] = (char) (k % 3 == 0 ? 0xFF : rng());
				}

			void	   *gimg = ptree_gpu_image(img);
			gx_task_ctx gctx,
						cctx;

			if (gimg == nullptr)
			{
				CHECK(false, "ptree malformed: GPU image");
				break;
			}
			memset(&gctx, 0, sizeof(gctx));
			gctx.obj[0] = (char *) gimg;
			gctx.obj_bytes[0] = img.bytes;
			memset(&cctx, 0, sizeof(cctx));
			cctx.obj[0] = img.data();
			cctx.obj_bytes[0] = img.bytes;
			for (const auto &a : pt_algs)
			{
				ChunkBuilder b;
				gx_chunk   *c = pt_task(b, keys, nulls, a[0], a[1], img.g);
				std::vector<char> good((const char *) c, (const char *) c + b.capacity);
				bool		ok = gpu_run_slot0(staging, slot_bytes, c, b.capacity, &gctx, nullptr,
											   0, "malformed tree lookup");
				std::vector<gx_search_run> grun = ptree_runs(c);

				memcpy(c, good.data(), b.capacity);
				ok = ok && cpu_run(c, b.capacity, &cctx) == GX_OK &&
					ptree_runs_same(grun, ptree_runs(c));
				for (const gx_search_run &r : grun)
					ok = ok && (uint64_t) r.start + r.count <= img.g.ntids;
				CHECK(ok, "ptree malformed round %d, alg %u parts %u: GPU = CPU, in bounds",
					  round, a[0], a[1]);
				same += ok;
			}
			gx_mem_free(GX_DEV_GPU + g_gpu, gimg);
		}
		printf("ptree lookup: %d tasks on malformed images, GPU = CPU\n", same);
	}

	/* refused before any CUDA call */
	{
		PtRef		ref;
		std::vector<int64_t> keys(50, 1);

		for (uint32_t i = 0; i < 100; i++)
			ref.emplace((int64_t) i, (uint64_t) i << 16 | 1);

		PtImage		img = pt_image(ref);
		void	   *gimg = ptree_gpu_image(img);
		ChunkBuilder b;
		gx_chunk   *c = pt_task(b, keys, {}, GX_TREE_SPEC, 4, img.g);
		std::vector<char> good((const char *) c, (const char *) c + b.capacity);
		gx_task_ctx ctx;

		memset(&ctx, 0, sizeof(ctx));
		ctx.obj[0] = (char *) gimg;
		ctx.obj_bytes[0] = img.bytes;
		for (int m = 0; m < 4; m++)
		{
			memcpy(staging, good.data(), b.capacity);
			gx_chunk   *t = (gx_chunk *) staging;

			if (m == 0)
				t->ext.tree.parts = 3;
			else if (m == 1)
				t->ext.tree.nnodes = img.g.nnodes + 1000;
			else if (m == 2)
				t->cols[0].type = GX_INT4;
			else
				t->cols[0].values_off = t->input_bytes;
			CHECK(gx_gpu_submit(g_gpu, 0, &ctx, err, sizeof(err)) == GX_INVALID,
				  "GPU tree lookup mutation %d refused (%s)", m, err);
		}
		CHECK(gimg != nullptr && gpu_run_slot0(staging, slot_bytes, c, b.capacity, &ctx, nullptr, 0,
											   "tree lookup") &&
			  gx_chunk_result(c)->nsel == 50 && gx_chunk_result(c)->join_count == 50,
			  "GPU tree lookup after the refusals: runs");
		if (gimg != nullptr)
			gx_mem_free(GX_DEV_GPU + g_gpu, gimg);
	}
}

/*
 * ptree_bench (GX_TEST_PARTS=ptree_bench; figures only, never a pass or
 * fail on time), after Böhm et al.'s Figure 8: an index of PB_KEYS int8
 * keys with a TID each, in three skews - random keys (the speculative
 * traversal's worst case: partitions everywhere), dense consecutive keys
 * (its best: the tree grows at the last level only) and clustered keys
 * sharing long prefixes (URL-like) - its image on the GPU, looked up with
 * batches of 16, 1K, 16K and 1M keys of the index (each finds one TID,
 * join_count checked): the sequential walk and speculative traversal with
 * 2, 4, 8, 16 partitions on the GPU, and the CPU device (a pool of every
 * core: the walk, 4 partitions).  Per batch and method the median of
 * several runs of the device time (the kernel; the image already on the
 * device) and of the end-to-end time (submit to done); keys/s of both.
 */
#define PB_KEYS 4000000u

static void
test_ptree_bench(std::mt19937_64 &rng)
{
	const uint32_t batches[] = {16, 1024, 16384, 1048576};
	const uint32_t maxb = 1048576;
	const int	nb = (int) (sizeof(batches) / sizeof(batches[0]));
	char		err[512] = "";
	int			started = 0;
	const int	ncpu = (int) std::thread::hardware_concurrency();
	size_t		slot_bytes = (size_t) (GX_ALIGN_UP(sizeof(gx_chunk)) +
									   GX_ALIGN_UP((uint64_t) maxb * 8) + gx_bitmap_bytes(maxb) +
									   gx_search_result_bytes(maxb) + 65536 + 4095) &
		~(size_t) 4095;
	void	   *staging = aligned_alloc(4096, slot_bytes);
	gx_gpu_info info;
	struct Method
	{
		const char *name;
		int			dev;		/* 0 GPU, 1 CPU device */
		uint32_t	alg;
		uint32_t	parts;
	};
	const Method methods[] = {
		{"GPU sequential", 0, GX_TREE_SEQ, 0}, {"GPU speculative P=2", 0, GX_TREE_SPEC, 2},
		{"GPU speculative P=4", 0, GX_TREE_SPEC, 4}, {"GPU speculative P=8", 0, GX_TREE_SPEC, 8},
		{"GPU speculative P=16", 0, GX_TREE_SPEC, 16}, {"CPU sequential, pool", 1, GX_TREE_SEQ, 0},
		{"CPU speculative P=4, pool", 1, GX_TREE_SPEC, 4},
	};
	const int	nm = (int) (sizeof(methods) / sizeof(methods[0]));
	const char *skews[] = {"random keys", "dense consecutive keys", "clustered keys (shared prefixes)"};
	auto		median = [](std::vector<double> v) {
		std::sort(v.begin(), v.end());
		return v.empty() ? 0.0 : v[v.size() / 2];
	};

	memset(staging, 0, slot_bytes);
	if (gx_gpu_open(g_gpu, staging, 1, slot_bytes, &info, err, sizeof(err)) != GX_OK)
	{
		CHECK(false, "ptree bench: %s", err);
		free(staging);
		return;
	}
	gx_cpu_close();
	CHECK(gx_cpu_open(ncpu, &started, err, sizeof(err)) == GX_OK, "ptree bench: pool: %s", err);
	printf("\n### Prefix-tree lookups (TREE_LOOKUP), %u int8 keys, %s; CPU device: %d threads\n",
		   PB_KEYS, info.name, started);
	for (int sk = 0; sk < 3; sk++)
	{
		PtRef		ref;
		std::vector<int64_t> present;

		for (uint32_t i = 0; i < PB_KEYS; i++)
		{
			int64_t		k = sk == 0 ? (int64_t) rng() :
				sk == 1 ? (int64_t) 1000000000 + (int64_t) i :
				(int64_t) (((uint64_t) (i % 16) << 56) | 0x00ABCDEF000000ull | (rng() & 0xFFFFFF));

			if (ref.emplace(k, (uint64_t) i << 16 | 1) != ref.end())
				present.push_back(k);
		}
		/* (clustered keys may repeat: keep the keys of one TID as the probes) */
		std::vector<int64_t> probes;

		while (probes.size() < maxb)
		{
			int64_t		k = present[rng() % present.size()];

			if (ref.count(k) == 1)
				probes.push_back(k);
		}
		auto		t0 = std::chrono::steady_clock::now();
		PtImage		img = pt_image(ref);
		double		build_ms = std::chrono::duration<double, std::milli>(
			std::chrono::steady_clock::now() - t0).count();
		void	   *gimg = ptree_gpu_image(img);
		gx_task_ctx gctx,
					cctx;
		std::vector<double> dev_ms(nm * nb, 0),
					e2e_ms(nm * nb, 0);

		if (gimg == nullptr)
		{
			CHECK(false, "ptree bench: GPU image of %llu bytes", (unsigned long long) img.bytes);
			break;
		}
		memset(&gctx, 0, sizeof(gctx));
		gctx.obj[0] = (char *) gimg;
		gctx.obj_bytes[0] = img.bytes;
		memset(&cctx, 0, sizeof(cctx));
		cctx.obj[0] = img.data();
		cctx.obj_bytes[0] = img.bytes;
		for (int bi = 0; bi < nb; bi++)
		{
			const uint32_t B = batches[bi];
			const int	runs = B <= 16384 ? 15 : 5;
			ChunkBuilder b;
			gx_chunk   *c = pt_task(b, std::vector<int64_t>(probes.begin(), probes.begin() + B),
									{}, GX_TREE_SEQ, 0, img.g);
			std::vector<char> good((const char *) c, (const char *) c + b.capacity);

			for (int mi = 0; mi < nm; mi++)
			{
				const Method &m = methods[mi];
				std::vector<double> dv,
							ev;

				for (int it = 0; it < runs + 1; it++)
				{
					gx_chunk   *t = m.dev == 0 ? (gx_chunk *) staging : c;
					bool		ok;

					memcpy(t, good.data(), b.capacity);
					gx_result  *r = gx_chunk_result(t);

					t->ext.tree.alg = m.alg;
					t->ext.tree.parts = m.parts;
					auto		s0 = std::chrono::steady_clock::now();

					if (m.dev == 0)
						ok = gx_gpu_submit(g_gpu, 0, &gctx, err, sizeof(err)) == GX_OK &&
							poll_until_done(0, err, sizeof(err));
					else
						ok = gx_cpu_run(t, b.capacity, &cctx, err, sizeof(err)) == GX_OK;
					double		wall = std::chrono::duration<double, std::milli>(
						std::chrono::steady_clock::now() - s0).count();

					CHECK(ok && r->error == GX_NO_ERROR && r->join_count == B,
						  "ptree bench %s, %s, %u keys, run %d: %s (count %llu)", skews[sk],
						  m.name, B, it, err, (unsigned long long) r->join_count);
					if (it == 0)
						continue;	/* (a warm-up run) */
					dv.push_back(m.dev == 0 ? r->kernel_ns / 1e6 : wall);
					ev.push_back(wall);
				}
				dev_ms[mi * nb + bi] = median(dv);
				e2e_ms[mi * nb + bi] = median(ev);
			}
		}

		printf("\n#### %s: %u nodes, %u keys, image %.1f MB (built on the host in %.0f ms)\n\n",
			   skews[sk], img.g.nnodes, img.g.nleaves, img.bytes / 1048576.0, build_ms);
		printf("| batch | method | device ms | end-to-end ms | M keys/s (device) | "
			   "M keys/s (end to end) |\n|---:|---|---:|---:|---:|---:|\n");
		for (int bi = 0; bi < nb; bi++)
			for (int mi = 0; mi < nm; mi++)
			{
				double		d = dev_ms[mi * nb + bi],
							e = e2e_ms[mi * nb + bi];

				printf("| %u | %s | %.4f | %.4f | %.1f | %.1f |\n", batches[bi], methods[mi].name,
					   d, e, d > 0 ? batches[bi] / d / 1e3 : 0.0, e > 0 ? batches[bi] / e / 1e3 : 0.0);
			}
		/* Figure 8's shape: M keys/s (device time) per method and batch */
		printf("\nFig. 8 (%s): M keys/s, device time\n\n| method |", skews[sk]);
		for (int bi = 0; bi < nb; bi++)
			printf(" %u |", batches[bi]);
		printf("\n|---|");
		for (int bi = 0; bi < nb; bi++)
			printf("---:|");
		printf("\n");
		for (int mi = 0; mi < nm; mi++)
		{
			printf("| %s |", methods[mi].name);
			for (int bi = 0; bi < nb; bi++)
			{
				double		d = dev_ms[mi * nb + bi];

				printf(" %.1f |", d > 0 ? batches[bi] / d / 1e3 : 0.0);
			}
			printf("\n");
		}
		gx_mem_free(GX_DEV_GPU + g_gpu, gimg);
	}
	printf("\n");
	gx_cpu_close();
	CHECK(gx_cpu_open(4, &started, err, sizeof(err)) == GX_OK, "ptree bench: pool: %s", err);
	gx_gpu_close();
	free(staging);
}

int
main(void)
{
	int			ndev = 0;

	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0)
	{
		const char *req = getenv("GX_REQUIRE_GPU");

		if (req && strcmp(req, "1") == 0)
		{
			fprintf(stderr, "FAIL: GX_REQUIRE_GPU=1 but no GPU was found\n");
			printf("test_kernel: 0 passed, 1 failed\n");
			return 1;
		}
		printf("test_kernel: skipped (no GPU)\n");
		return 0;
	}
	std::mt19937_64 rng(20240607);
	char		err[512];
	int			started = 0;

	/* the CPU device's pool: every CPU run below reuses its threads */
	CHECK(gx_cpu_open(4, &started, err, sizeof(err)) == GX_OK && started >= 1,
		  "gx_cpu_open: %s", err);

	/* GX_TEST_PARTS: some parts only (GX_BW_ONLY=1: the bandwidth figures) */
	if (test_part("random") || test_part("types") || test_part("pages") ||
		test_part("cache") || test_part("group") || test_part("join") ||
		test_part("search") || test_part("jgroup") || test_part("validation") ||
		test_part("ptree_lookup") || test_part("sets_search"))
		test_random(rng);
	if (test_part("multigpu"))
		test_multigpu(rng);
	if (test_part("bandwidth"))
	{
		test_bandwidth(rng);
		test_group_bandwidth(rng);
		test_join_bandwidth(rng, GX_JOIN_HASH);
		test_join_bandwidth(rng, GX_JOIN_MERGE);
	}
	if (test_part("bandwidth") || test_part("jgroup"))
		test_jgroup_bandwidth(rng);
	if (test_part("search_bench"))
		test_search_bench(rng);
	if (test_part("ptree_bench"))
		test_ptree_bench(rng);
	gx_cpu_close();
	printf("test_kernel: %d passed, %d failed\n", n_passed, n_failed);
	return n_failed == 0 ? 0 : 1;
}

/* ---------------------------------------------------------------------- */
/* big sets searched with top keys, binary and p-ary (gx_sets.cuh)       */
/* ---------------------------------------------------------------------- */

/*
 * One filter of rows against a big set (values, then T top keys) on the
 * GPU in the given mode and on the CPU device; both selections must be
 * want.  Three programs (variant): "x = ANY (set)", "x > thr AND x = ANY
 * (set)", where the AND skips the search for about half the lanes of a
 * warp (the p-ary search's warp collective must take only the lanes that
 * reach it), and "(x > thr AND x = ANY (set)) OR x = ANY (set 2)" (at2,
 * n2: the second set, with the same flags), where the interpreter runs
 * the two searches in one step (the collective must group the lanes by
 * set).
 */
static int
sets_filter_case(void *staging, const std::vector<int64_t> &obj, int64_t at, int64_t n,
				 int64_t flags, const std::vector<int64_t> &rows,
				 const std::vector<uint8_t> &nulls, int64_t thr, int variant, int64_t at2,
				 int64_t n2, int mode, const std::vector<uint32_t> &want, const char *what)
{
	const uint64_t bytes = obj.size() * sizeof(int64_t);
	void	   *gobj = nullptr;
	char		err[512] = "";
	gx_task_ctx gctx,
				cctx;
	int			bad = 0;

	if (gx_mem_alloc(GX_DEV_GPU + g_gpu, bytes, &gobj, err, sizeof(err)) != GX_OK ||
		!gpu_upload(gobj, obj.data(), bytes))
	{
		CHECK(false, "%s: the GPU object: %s", what, err);
		return 1;
	}
	ChunkBuilder b;
	int			ci = b.add_int_col(GX_INT8, rows, nulls);
	int			k = add_bigset(b, n, at, 0, flags);
	int			kt = b.kint(GX_INT8, thr);

	sets_program(b, ci, k, variant == 2 ? add_bigset(b, n2, at2, 0, flags) : -1, kt, variant);
	gx_chunk   *c = b.build();
	uint32_t	mflags = mode_flags(mode, 0);
	std::vector<uint32_t> gsel,
				csel;

	memset(&gctx, 0, sizeof(gctx));
	memset(&cctx, 0, sizeof(cctx));
	gctx.obj[GX_TASK_OBJ_SETS] = (char *) gobj;
	gctx.obj_bytes[GX_TASK_OBJ_SETS] = bytes;
	cctx.obj[GX_TASK_OBJ_SETS] = (char *) obj.data();
	cctx.obj_bytes[GX_TASK_OBJ_SETS] = bytes;
	memcpy(staging, c, b.capacity);
	((gx_chunk *) staging)->flags = mflags;
	bad += cpu_run(c, b.capacity, &cctx) != GX_OK;
	bool		ok = gx_gpu_submit(g_gpu, 0, &gctx, err, sizeof(err)) == GX_OK &&
		poll_until_done(0, err, sizeof(err));

	CHECK(ok, "%s (%s): GPU: %s", what, mode_name[mode], err);
	if (ok)
	{
		check_mode((gx_chunk *) staging, mflags, what);
		ok = tile_selection((gx_chunk *) staging, gsel) && tile_selection(c, csel);
		std::sort(gsel.begin(), gsel.end());
		std::sort(csel.begin(), csel.end());
		if (!ok || gsel != want || csel != want ||
			gx_chunk_result((gx_chunk *) staging)->error != ~(uint64_t) 0 ||
			gx_chunk_result(c)->error != ~(uint64_t) 0)
		{
			bad++;
			fprintf(stderr, "%s (%s): GPU %zu rows, CPU %zu rows, want %zu\n", what,
					mode_name[mode], gsel.size(), csel.size(), want.size());
		}
	}
	else
		bad++;
	gx_mem_free(GX_DEV_GPU + g_gpu, gobj);
	return bad;
}

/*
 * = ANY over big sets with top keys on the GPU (interpreted and compiled
 * kernels) = the CPU device = std::binary_search: sets of 1, 2, 1000 and
 * 1M values (random with INT64_MIN and MAX, evenly spaced, every row
 * equal), every few top key counts (none, 1, some, the most a set takes),
 * both searches, with and without an AND before the search
 */
static void
test_sets_search(std::mt19937_64 &rng, void *staging)
{
	const int64_t mn = std::numeric_limits<int64_t>::min(),
				mx = std::numeric_limits<int64_t>::max();
	const uint32_t nrows = 100003;	/* (a last warp of 3 lanes) */
	int			cases = 0,
				bad = 0;

	for (int64_t size : {(int64_t) 1, (int64_t) 2, (int64_t) 1000, (int64_t) 1000000})
		for (int shape = 0; shape < 3; shape++)
		{
			std::vector<int64_t> v(size), rows(nrows);
			std::vector<uint8_t> nulls(nrows);

			for (int64_t i = 0; i < size; i++)
				v[i] = shape == 0 ? (int64_t) rng() : i * 3 - size;
			if (shape == 0 && size >= 2)
			{
				v[0] = mn;
				v[1] = mx;
			}
			if (shape == 2)
				v.assign(1, 42);	/* an array of one value repeated: one value */
			std::sort(v.begin(), v.end());
			v.erase(std::unique(v.begin(), v.end()), v.end());
			for (uint32_t r = 0; r < nrows; r++)
			{
				rows[r] = shape == 2 ? (r % 5 == 0 ? 41 : 42) :
					r % 2 == 0 ? v[rng() % v.size()] : r % 7 == 1 ? (r % 3 ? mn : mx) :
					(int64_t) rng();
				nulls[r] = r % 31 == 3;
			}
			const int64_t thr = shape == 2 ? 0 : v[v.size() / 2];
			std::vector<uint32_t> tops = {0};

			for (uint32_t T = 1; T <= 8192 && (int64_t) T <= (int64_t) v.size(); T *= 4)
				tops.push_back(T);
			if (v.size() >= 8192)
				tops.push_back(8192);
			/* a second set: every other value of the first, plus one */
			std::vector<int64_t> v2;

			for (size_t i = 0; i < v.size(); i += 2)
				if (v[i] != mx)
					v2.push_back(v[i] + 1);
			if (v2.empty())
				v2.push_back(0);
			for (uint32_t T : tops)
				for (int pary = 0; pary < 2; pary++)
					for (int variant = 0; variant < 3; variant++)
					{
						std::vector<int64_t> obj(7, -5);	/* (the set at place 7) */
						const int64_t at = sets_append(obj, v, T);
						const uint32_t T2 = T <= v2.size() ? T : 0;
						const int64_t at2 = sets_append(obj, v2, T2);
						std::vector<uint32_t> want = sets_want(v, v2, rows, nulls, thr, variant);
						char		what[160];

						snprintf(what, sizeof(what), "set of %zu values (shape %d), %u top keys, %s%s",
								 v.size(), shape, T, pary ? "pary" : "binary",
								 variant == 1 ? ", after an AND" :
								 variant == 2 ? ", two sets searched in one step" : "");
						for (int mode : {MODE_COPY, MODE_JIT})
						{
							/* (both sets with the same flags: the second's T is T too, or none) */
							if (variant == 2 && T2 != T)
								continue;
							bad += sets_filter_case(staging, obj, at, (int64_t) v.size(),
													sets_flags(T, pary), rows, nulls, thr,
													variant, at2, (int64_t) v2.size(), mode,
													want, what);
							cases++;
						}
					}
		}
	CHECK(bad == 0, "big set searches: %d of %d cases differ (GPU, CPU, std::binary_search)",
		  bad, cases);
	printf("big set searches: %d cases (binary and p-ary, top keys in shared memory), %d differ\n",
		   cases, bad);
}
