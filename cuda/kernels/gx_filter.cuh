/*
 * gx_filter.cuh - the fused filter kernel's body, a template over the row
 * evaluator: gx_gpu.cu instantiates it with the opcode interpreter, and
 * gx_jit.cu compiles it at run time (NVRTC) with an evaluator generated
 * from the chunk's program.  Both therefore share the tiling, the
 * compaction of the selection, the aggregates and the error rules below.
 *
 * Aggregates (ext.nagg > 0) are added into the task's aggregate state
 * object (gx_program.h: GX_AGG_STRIPES stripes of GX_MAX_AGGS pairs): per
 * tile, each warp reduces its selected rows with shuffles and lane 0 adds
 * the warp's sum and count into the block's totals in shared memory; when
 * the block has done its tiles, it adds its totals into the stripe of the
 * block (blockIdx.x modulo GX_AGG_STRIPES) with 64-bit atomics: one pair
 * of device atomics per aggregate and block, on addresses the concurrent
 * tasks of a session share.  AGG_READ (gx_gpu.cu) sums the stripes.
 *
 * Device code only; valid under nvcc and NVRTC (no C library header).
 */
#ifndef GX_FILTER_CUH
#define GX_FILTER_CUH

#include "gx_eval.cuh"
#include "gx_group.cuh"

/* dynamic shared memory of a filter block: its group table, then its sets' top keys */
#define GX_FILTER_SMEM_MAX (GX_GROUP_SMEM + GX_SETS_SMEM_KEYS * 8)

/*
 * 0: the kernel has no group mode (a compiled kernel of a program outside
 * GpuPreAgg: less code to compile and to hold in registers)
 */
#ifndef GX_WITH_GROUP
#define GX_WITH_GROUP 1
#endif

#define GX_BLOCK 256
#define GX_ROWS_PER_THREAD (GX_TILE_ROWS / GX_BLOCK)
#define GX_NWARPS (GX_BLOCK / 32)

static_assert(GX_TILE_ROWS % GX_BLOCK == 0, "tile must be a multiple of the block");
static_assert(GX_TILE_ROWS / 32 == 32, "the in-tile scan is done by one warp over 32 groups");
static_assert(GX_ROWS_PER_THREAD <= 32, "pass flags are kept in one 32-bit mask");

/*
 * Filter the rows of a chunk: 'in' holds the program (staged in shared
 * memory by every block), the columns are at colbase + values_off, 'res'
 * is the device result header (atomics: first error, nsel; it holds the
 * deform kernel's first error, if any, when this kernel starts) and the
 * seg arrays and the selection are written to the result area at 'out'
 * (gx_result layout; its header is not written here).  A cache SCAN chunk
 * passes the entry's row map: the selection holds its values, not row
 * numbers, and skips the rows gx_row_skipped names (stale blocks,
 * padding); a count-only chunk (write_sel = 0) writes no selection.
 * agg_state is the aggregate state object (device memory), NULL when the
 * chunk has no aggregate.  group is the group table object in group mode
 * (ext.ngroup_cap > 0), else NULL: every selected row is added into its
 * group through a table in shared memory (dynamic, GX_GROUP_SMEM bytes)
 * that the block merges into the global table at its end, or straight
 * into the global table when the shared one has no room; only rows whose
 * group the global table has no room for are selected (gx_group.cuh).
 * The big sets' top keys follow in dynamic shared memory (gx_sets_stage).
 * EVAL::eval(program, colbase, row, &err, out) runs the program on one row
 * (out: its outputs, GX_OP_OUT, or NULL): the
 * interpreter (gx_gpu.cu) or a JIT-compiled evaluator (gx_jit.cu).
 */
template <class EVAL>
__device__ __forceinline__ void
gx_filter_tiles(const char *__restrict__ in, const char *__restrict__ colbase,
				uint32_t nrows, gx_result *res, char *out,
				const uint32_t *__restrict__ rowmap, int write_sel,
				gx_agg_pair *agg_state, char *group)
{
	extern __shared__ __align__(16) char gx_smem[];	/* group mode: the block's table */

	if (!GX_WITH_GROUP)
		group = NULL;			/* (compiled without group mode) */
	__shared__ uint32_t s_cnt[32];	/* selected rows per group of 32 rows */
	__shared__ uint32_t s_pre[32];	/* exclusive prefix of s_cnt */
	__shared__ uint32_t s_base;
	__shared__ uint32_t s_total;	/* rows the tile selects */
	__shared__ uint32_t s_err_row;
	__shared__ uint32_t s_limit;	/* rows evaluated: [0, s_limit) */
	__shared__ uint32_t s_sel[GX_TILE_ROWS];	/* the tile's selection */
	__shared__ gx_chunk s_prog;	/* program, constants, column directory */
	__shared__ gx_agg s_agg[GX_MAX_AGGS];
	__shared__ uint32_t s_nagg;
	__shared__ unsigned long long s_agg_val[GX_MAX_AGGS];	/* the block's totals */
	__shared__ unsigned long long s_agg_cnt[GX_MAX_AGGS];
	__shared__ uint32_t s_skip_blocks;	/* cache SCAN: rows to skip */

	const gx_chunk *c = (const gx_chunk *) in;
	const uint32_t ntiles = (nrows + GX_TILE_ROWS - 1) / GX_TILE_ROWS;
	const uint32_t tid = threadIdx.x;
	const uint32_t lane = tid & 31;
	const uint32_t warp = tid >> 5;
	const uint32_t lt_mask = (1u << lane) - 1u;

	/* result area: seg_off[ntiles], seg_cnt[ntiles], then sel (computed where used) */
	const uint64_t seg_at = GX_ALIGN_UP(sizeof(gx_result));
	const uint64_t sel_at = seg_at + GX_ALIGN_UP((uint64_t) ntiles * 8);

	/*
	 * Stage the program in shared memory: every row reads it.  Rows from
	 * the first row the deform kernel failed on are not evaluated (their
	 * columns are not written), so the first error is the CPU device's.
	 * That row is in the header if its error is GX_ERR_BAD_PAGE, which
	 * only the deformer raises: the deform kernel is complete, and blocks
	 * of this kernel may only have lowered the error to a program error
	 * at an earlier row, which then is the first error anyway.
	 */
	if (tid == 0)
	{
		uint64_t	derr = res->error;

		s_prog.ninstr = c->ninstr;
		s_prog.nconsts = c->nconsts;
		s_prog.ncols = c->ncols;
		s_prog.nrows = nrows;
		s_prog.ext = c->ext;
		s_nagg = c->ext.nagg;
		s_skip_blocks = c->kind == GX_TASK_CACHE_SCAN ? c->ext.skip_blocks : 0;
		for (uint32_t a = 0; a < s_nagg; a++)
		{
			s_agg[a] = c->ext.agg[a];
			s_agg_val[a] = 0;
			s_agg_cnt[a] = 0;
		}
		s_limit = derr != GX_NO_ERROR && (derr & 0xff) == GX_ERR_BAD_PAGE &&
			(derr >> 8) < nrows ? (uint32_t) (derr >> 8) : nrows;
	}
	__syncthreads();

	/* group mode: the global table, and the block's own in shared memory */
	gx_gtab		gtab,
				stab;

	if (group != NULL)
		gx_group_block_tables(group, &c->ext, gx_smem, &gtab, &stab);
	{
		const uint32_t ni = s_prog.ninstr, nk = s_prog.nconsts, nc = s_prog.ncols;

		for (uint32_t i = tid; i < ni; i += GX_BLOCK)
			s_prog.code[i] = c->code[i];
		for (uint32_t i = tid; i < nk; i += GX_BLOCK)
			s_prog.consts[i] = c->consts[i];
		for (uint32_t i = tid; i < nc; i += GX_BLOCK)
			s_prog.cols[i] = c->cols[i];
		__syncthreads();
	}
	/* the top keys of the big sets, after the group table (gx_sets.cuh) */
	gx_sets_stage(&s_prog, (int64_t *) gx_smem, group != NULL ? GX_GROUP_SMEM / 8 : 0, tid,
				  GX_BLOCK);

	const uint32_t limit = s_limit;
	const uint32_t skip_blocks = s_skip_blocks;
	const uint32_t *skip_bits = (const uint32_t *) (in + c->ext.skip_off);
	const uint32_t *emap = (const uint32_t *) (colbase + c->ext.rowmap_off);

	for (uint32_t tile = blockIdx.x; tile < ntiles; tile += gridDim.x)
	{
		const uint32_t lo = tile * GX_TILE_ROWS;
		uint32_t	pass = 0;
		uint32_t	host = 0;	/* rows the device cannot evaluate (GX_ERR_HOST) */
		int			full = 0;	/* group mode: a row found no room */

		if (tid == 0)
			s_err_row = 0xFFFFFFFFu;
		__syncthreads();

#pragma unroll
		for (int k = 0; k < GX_ROWS_PER_THREAD; k++)
		{
			uint32_t	row = lo + tid + (uint32_t) k * GX_BLOCK;

			gx_reg		out[GX_MAX_OUTS];
			int			has = 0;	/* group mode: a passing row to add */

			if (row < limit &&
				(skip_blocks == 0 || !gx_row_skipped(skip_bits, skip_blocks, emap, row)))
			{
				int			err;

				/*
				 * group mode: a passing row goes into its group (a row after
				 * an error in the tile too: the task then fails); only a row
				 * without room is selected, for the host
				 */
				if (EVAL::eval(&s_prog, colbase, row, &err, group != NULL ? out : NULL))
				{
					if (group == NULL)
						pass |= 1u << k;
					else
						has = 1;
				}
				else if (err == GX_ERR_HOST)
				{
					/* selected, for the host (never in a group); a later pass: not at all */
					if (group == NULL || !(s_prog.ext.gflags & GX_GROUP_SKIP_HOST))
						host |= 1u << k;
				}
				else if (err != GX_ERR_NONE)
				{
					atomicMin(&s_err_row, row);
					atomicMin((unsigned long long *) &res->error,
							  (unsigned long long) (((uint64_t) row << 8) | (uint64_t) err));
				}
			}
			if (has)
			{
				const int	added = gx_group_add_out(&s_prog.ext, s_agg, out, &stab, &gtab);

				if (added == GX_GROUP_NO_ROOM)
				{
					pass |= 1u << k;
					full = 1;	/* no room in the table */
				}
				else if (added == GX_GROUP_HOST && !(s_prog.ext.gflags & GX_GROUP_SKIP_HOST))
					host |= 1u << k;	/* a non-finite float: the host's */
			}
		}
		/*
		 * (does any row of the tile need the host, or find no room?  a flag
		 * write per warp that has one, and the one barrier a tile the
		 * filter needs anyway, not a __syncthreads_or for each flag)
		 */
		{
			const uint32_t hb = __ballot_sync(0xFFFFFFFFu, host != 0);
			const uint32_t fb = __ballot_sync(0xFFFFFFFFu, full);

			if (lane == 0 && (hb | fb) != 0)
				atomicOr(&res->flags, (hb ? GX_RESULT_HOST : 0u) | (fb ? GX_RESULT_FULL : 0u));
		}
		__syncthreads();

		/* rows after the tile's first error are dropped, as on the CPU */
		const uint32_t err_row = s_err_row;
		uint32_t	ballots[GX_ROWS_PER_THREAD];

		/* rows for the host are selected (the result says so, above) */
		pass |= host;

#pragma unroll
		for (int k = 0; k < GX_ROWS_PER_THREAD; k++)
		{
			uint32_t	row = lo + tid + (uint32_t) k * GX_BLOCK;
			int			flag = ((pass >> k) & 1) && row < err_row;

			ballots[k] = __ballot_sync(0xFFFFFFFFu, flag);
			if (lane == 0)
				s_cnt[k * GX_NWARPS + warp] = __popc(ballots[k]);
		}
		__syncthreads();

		/*
		 * aggregates of the tile's selected rows: warp sums, added into the
		 * block's totals (shared memory)
		 */
		for (uint32_t a = 0; a < (group != NULL ? 0u : s_nagg); a++)
		{
			const gx_column *col = &s_prog.cols[s_agg[a].col];
			unsigned long long v = 0,
						n = 0;

#pragma unroll
			for (int k = 0; k < GX_ROWS_PER_THREAD; k++)
			{
				if ((ballots[k] >> lane) & 1)
				{
					gx_reg		r;

					gx_load_col(colbase, col, lo + tid + (uint32_t) k * GX_BLOCK, &r);
					if (!r.isnull)
					{
						n++;
						if (s_agg[a].op == GX_AGG_SUM)
							v += (unsigned long long) r.v.i;
					}
				}
			}
#pragma unroll
			for (int d = 16; d > 0; d >>= 1)
			{
				v += __shfl_down_sync(0xFFFFFFFFu, v, d);
				n += __shfl_down_sync(0xFFFFFFFFu, n, d);
			}
			if (lane == 0 && n > 0)
			{
				atomicAdd(&s_agg_val[a], v);
				atomicAdd(&s_agg_cnt[a], n);
			}
		}

		/* group g = k * NWARPS + warp covers rows lo + 32 g .. lo + 32 g + 31 */
		if (warp == 0)
		{
			uint32_t	v = s_cnt[lane];
			uint32_t	incl = v;

#pragma unroll
			for (int d = 1; d < 32; d <<= 1)
			{
				uint32_t	o = __shfl_up_sync(0xFFFFFFFFu, incl, d);

				if (lane >= (uint32_t) d)
					incl += o;
			}
			s_pre[lane] = incl - v;
			if (lane == 31)
			{
				uint32_t	base = atomicAdd(&res->nsel, incl);
				uint32_t   *seg_off = (uint32_t *) (out + seg_at);

				s_base = base;
				s_total = incl;
				seg_off[tile] = base;
				seg_off[ntiles + tile] = incl;	/* seg_cnt[tile] */
			}
		}
		__syncthreads();

		/*
		 * count only: no selection to compact (every thread has read
		 * s_err_row, and warp 0 has written s_base / s_total, before the
		 * barrier above, so the next tile may rewrite them)
		 */
		if (!write_sel)
			continue;

		/* compact in shared memory, in row order ... */
#pragma unroll
		for (int k = 0; k < GX_ROWS_PER_THREAD; k++)
		{
			if ((ballots[k] >> lane) & 1)
			{
				uint32_t	row = lo + tid + (uint32_t) k * GX_BLOCK;

				s_sel[s_pre[k * GX_NWARPS + warp] + __popc(ballots[k] & lt_mask)] = row;
			}
		}
		__syncthreads();

		/* ... then write the tile's range with consecutive threads */
		{
			const uint32_t base = s_base,
						total = s_total;
			uint32_t   *sel = (uint32_t *) (out + sel_at);

			for (uint32_t i = tid; i < total; i += GX_BLOCK)
				sel[base + i] = rowmap ? rowmap[s_sel[i]] : s_sel[i];
		}
		/* s_pre / s_base / s_total / s_sel / s_err_row are rewritten next iteration */
		__syncthreads();
	}

	/* group mode: merge the block's groups into the global table */
	__syncthreads();
	if (group != NULL)
	{
		if (gx_group_merge_table(&stab, &gtab, s_agg, tid, GX_BLOCK) > 0)
			atomicMin((unsigned long long *) &res->error,	/* cannot happen */
					  (unsigned long long) GX_ERR_BAD_PROGRAM);
		return;
	}

	/*
	 * The block's aggregate totals into its stripe of the state: system
	 * scope, as the state may be another GPU's (the scan's home device,
	 * reached by peer access, when its chunks run on several GPUs); two
	 * atomics a block
	 */
	if (tid < s_nagg && s_agg_cnt[tid] > 0)
	{
		gx_agg_pair *p = agg_state + (blockIdx.x % GX_AGG_STRIPES) * GX_MAX_AGGS + tid;

		atomicAdd_system((unsigned long long *) &p->val, s_agg_val[tid]);
		atomicAdd_system((unsigned long long *) &p->cnt, s_agg_cnt[tid]);
	}
}

#endif							/* GX_FILTER_CUH */
