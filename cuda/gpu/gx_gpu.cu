/*
 * gx_gpu.cu - the GPU device: runs tasks (gx_program.h) with the shared
 * opcode interpreter (gx_eval.cuh) or a compiled kernel (gx_jit.cu), and
 * writes the same result layout as the CPU device (gx_cpu.cpp).
 *
 * Design note
 * -----------
 * Dispatch: gx_gpu_submit() validates the slot's task with its kind's
 * validator of the operator table (gx_ops.h), shared with the CPU device,
 * and calls the entry's GPU implementation, defined here: gx_gpu_rows
 * (FILTER, CACHE_LOAD, CACHE_SCAN) and gx_gpu_agg_read (AGG_READ).  A
 * malformed task is refused before any CUDA call (GX_INVALID); only a
 * failing CUDA call returns GX_CUDA_ERROR.  The cache entry and the
 * session objects a task uses come resolved in its gx_task_ctx.
 *
 * The GPUs themselves (open and close, memory pools, peer access, submit
 * and poll; several GPUs, each with its own pool and per-slot streams) are
 * gx_gpu_device.cu's; an operator here works on the current GPU's state
 * (GD, gx_gpu_state.h) and queues on the current device.
 *
 * Per staging slot and GPU there is one device buffer, one non-blocking
 * stream and a few timing events.  A rows task runs in one of two transfer modes
 * (gx_chunk.flags; the mode that ran goes to gx_result.flags):
 *
 * copy (default): gx_gpu_submit() queues, on the slot's stream:
 *   H2D copy of the task input -> reset of the device result header ->
 *   [deform kernel, for a task of raw heap pages] -> fused filter kernel
 *   (or, CACHE_LOAD, the append kernel) -> D2H copy of the result header
 *   + seg arrays.
 * gx_gpu_poll() waits for that first copy, reads nsel and then queues the
 * D2H copy of sel[0..nsel); the slot is done once that copy completes.
 *
 * mapped (GX_CHUNK_MAPPED, FILTER only; zero-copy): gx_gpu_open() registers
 * the staging area with cudaHostRegisterMapped and takes its device alias
 * (cudaHostGetDevicePointer); if that fails the area is only pinned and
 * mapped tasks run in copy mode.  No copy is queued: reset -> [deform] ->
 * filter -> publish kernels read the task input from host memory through
 * the alias (the filter kernel stages the program in shared memory; the
 * deform kernel the attribute layout), the deform kernel writes the
 * columns into the slot's device buffer (never into host memory), and the
 * filter kernel writes the seg arrays and the selection (one contiguous
 * coalesced range per tile) into the host result area.  The atomics
 * (error, nsel) run on the result header in device memory; the one-thread
 * publish kernel then writes that header into the host result.  The slot
 * is done when the event recorded after the last kernel has completed:
 * the host reads no byte of the result before cudaEventQuery() says so,
 * and kernel completion makes every kernel write to mapped memory visible
 * to the host (nothing on the host reads it while kernels run, so no
 * __threadfence_system() is needed).  Timing: no H2D/D2H; kernel time is
 * the span of the kernels, bytes to the device the input they may read
 * over PCIe, bytes from the device the result they write.
 *
 * Kernels take separate bases, so the same code serves both modes: 'in'
 * (task header, program, page images, row map, backend-deformed columns),
 * 'colbase' (where column offsets point: device-deformed columns, a cache
 * entry, or 'in' for backend-deformed chunks), the device result header
 * 'dres' (atomics) and 'out' (where the result area is written).  In copy
 * mode all of them point into the slot's device buffer and out == dres.
 *
 * The filter kernel runs one resident wave of blocks of GX_BLOCK threads
 * striding over the tiles of GX_TILE_ROWS rows; thread t evaluates rows
 * tile_base + t + k * GX_BLOCK, so column loads are coalesced.  Rows
 * passing are compacted in row order inside the tile (warp ballots + a
 * scan of the per-32-row counts) into shared memory, one atomicAdd per
 * tile reserves the tile's range of sel, and the block writes the range
 * with consecutive threads.  Like the CPU device, rows of a tile after its
 * first erroring row are not selected.  Aggregates go to the task's state
 * object (ctx->obj[0]), block b into stripe b % GX_AGG_STRIPES; AGG_READ
 * sums the stripes into its result header with a one-block kernel, zeroes
 * the state, and copies the header back.
 *
 * Joins (gx_join.cuh; copy mode, the interpreter): JOIN_BUILD is one
 * kernel (a thread a row: evaluate, add to the table; rows for the host
 * are appended to the selection with an atomic add); JOIN_FINISH_BUILD is
 * cub::DeviceScan::ExclusiveSum over the key counts (its temporary storage
 * in the table object, reserved by gx_join_layout) and a scatter kernel
 * (a range join's table, gx_jrange.cuh: a pad kernel and
 * cub::DeviceRadixSort::SortPairs, its storage reserved by
 * gx_jrange_layout; a merge join's table, gx_jmerge.cuh: an init kernel,
 * cub::DeviceRadixSort::SortPairs of an index permutation, a gather with
 * head flags, cub::DeviceScan::InclusiveSum into urow, an encode kernel:
 * gx_gpu_jmerge_finish);
 * JOIN_PROBE is the three phases as four kernels: count (a block a tile,
 * cub::BlockReduce), the prefix sum over the tiles (one block,
 * cub::BlockScan), the end of a pass (one block, only when the result
 * area is too small) and write (a block a tile, cub::BlockScan of the
 * rows' entries in row order).  The probe's header comes back, then nsel
 * entries of 16 bytes.  A merge join's PROBE first runs its extract
 * kernel, the sort (gx_jm_sort, in its result area's scratch) and the
 * merge path kernel (gx_gpu_jmerge_probe).  A group JOIN_PROBE
 * (ext.ngroup_cap > 0: aggregation over a join) is one kernel instead of
 * the four (gx_join_group_kernel: a thread a row, a shared-memory group
 * table a block merged at its end, as the filter's group mode); its
 * header alone comes back.  JOIN_UNMATCHED is one kernel
 * (a thread a placed row of the range; a block's unmatched payloads
 * reserved with one atomic add); its header comes back, then nsel
 * payloads of 8 bytes.
 *
 * SEARCH (gx_search.cuh; copy mode): the probes are copied in, one kernel
 * (a thread a probe for binary search, a tile of p threads for p-ary
 * search) reads the sorted projection where it lies (a session object),
 * and the header comes back, then a run of 8 bytes per probe.
 *
 * TREE_LOOKUP (gx_ptree.cuh; copy mode): the keys are copied in, one
 * kernel reads the image where it lies (a session object): a thread a key
 * (SEQ), or a tile of P threads a key, one a partition, their results in
 * shared memory, resolved by the tile's lanes at once (SPEC); the header
 * and a run per key come back, as SEARCH's.
 *
 * GROUP_MERGE (gx_group.cuh; copy mode, no input copied: the table
 * geometry and the aggregates go as kernel arguments): one kernel, a thread
 * a slot of the source's range (grid-stride); the source is another GPU's
 * table, read through peer access (the task follows the tasks that wrote
 * it), the destination is on this GPU, updated with device atomics; a
 * group without room is copied into the result records (an atomic add
 * reserves its place), the counts go to the header once a block.  The
 * header comes back, then nsel records, as GROUP_READ's.
 *
 * No PostgreSQL header; no C++ exception leaves the extern "C" functions
 * (gx_guard.h).
 */
#include "gx_gpu_state.h"
#include "gx_guard.h"
#include "gx_ops.h"
#include "gx_eval.cuh"
#include "gx_filter.cuh"
#include "gx_deform.cuh"
#include "gx_cache.cuh"
#include "gx_join.cuh"
#include "gx_search.cuh"
#include "gx_ptree.cuh"
#include "gx_jit.h"

#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <stdio.h>
#include <string.h>


namespace cg = cooperative_groups;


/* ---------------------------------------------------------------------- */
/* kernels                                                                */
/* ---------------------------------------------------------------------- */

/* reset the device result header of a task of ntiles tiles */
__global__ void
gx_reset_kernel(gx_result *res, uint32_t ntiles)
{
	res->error = GX_NO_ERROR;
	res->nsel = 0;
	res->ntiles = ntiles;
	res->flags = 0;
	res->pad = 0;
	res->h2d_ns = 0;
	res->kernel_ns = 0;
	res->d2h_ns = 0;
	res->bytes_h2d = 0;
	res->bytes_d2h = 0;
	res->error_key = 0;
	res->pad3 = 0;
	res->next_row = 0;
	res->next_match = 0;
	res->join_count = 0;
	res->join_noroom = 0;
	res->join_host = 0;
	for (int a = 0; a < GX_MAX_AGGS; a++)
	{
		res->agg_val[a] = 0;
		res->agg_cnt[a] = 0;
	}
}

/*
 * Deform the visible tuples of a page chunk into its columns: one thread
 * per row; each warp writes one 32-bit word of every null bitmap (rows of a
 * warp are consecutive and start on a multiple of 32).  'in' is the chunk
 * input (header, page images, row map), 'colbase' where the columns are
 * written (the slot's device buffer, in both modes), 'res' the device
 * result header (first error).  The attribute layout and the column
 * directory are staged in shared memory: every row reads them.
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_deform_kernel(const char *__restrict__ in, char *colbase, uint32_t nrows, gx_result *res)
{
	__shared__ gx_deform_hdr s_d;	/* only atts[0 .. natts) are staged */
	__shared__ gx_column s_cols[GX_MAX_COLS];
	__shared__ uint32_t s_ncols;
	__shared__ uint64_t s_doff;

	const gx_chunk *c = (const gx_chunk *) in;
	const uint32_t tid = threadIdx.x;
	const uint32_t lane = tid & 31;

	if (tid == 0)
	{
		s_ncols = c->ncols;
		s_doff = c->deform_off;
	}
	__syncthreads();
	{
		const gx_deform_hdr *d = (const gx_deform_hdr *) (in + s_doff);

		if (tid == 0)
		{
			s_d.npages = d->npages;
			s_d.page_size = d->page_size;
			s_d.natts = d->natts;
			s_d.pad = 0;
			s_d.pages_off = d->pages_off;
			s_d.rowmap_off = d->rowmap_off;
		}
		__syncthreads();
		for (uint32_t i = tid; i < s_d.natts; i += GX_BLOCK)
			s_d.atts[i] = d->atts[i];
		for (uint32_t i = tid; i < s_ncols; i += GX_BLOCK)
			s_cols[i] = c->cols[i];
		__syncthreads();
	}

	const uint32_t ncols = s_ncols;

	for (uint32_t base = blockIdx.x * GX_BLOCK; base < nrows; base += gridDim.x * GX_BLOCK)
	{
		uint32_t	row = base + tid;
		uint64_t	nulls = 0;
		int			err = GX_ERR_NONE;

		if (row < nrows)
			nulls = gx_deform_row(in, &s_d, s_cols, colbase, row, &err);
		if (err != GX_ERR_NONE)
			atomicMin((unsigned long long *) &res->error,
					  (unsigned long long) (((uint64_t) row << 8) | (uint64_t) err));
		for (uint32_t i = 0; i < ncols; i++)
		{
			uint32_t	m = __ballot_sync(0xFFFFFFFFu, (uint32_t) (nulls >> i) & 1u);

			if (lane == 0 && row < nrows)
				((uint32_t *) (colbase + s_cols[i].nulls_off))[row >> 5] = m;
		}
	}
}

/* the interpreter as the filter kernel's row evaluator */
struct gx_interp_eval
{
	static __device__ __forceinline__ int
	eval(const gx_chunk *c, const char *base, uint32_t row, int *err, gx_reg *out)
	{
		return gx_eval_row_out(c, base, row, err, out);
	}
};

/*
 * the filter kernel with the opcode interpreter (gx_filter.cuh); the
 * compiled kernels of gx_jit.cu take the same arguments.  4 blocks a SM:
 * at most 64 registers a thread, as before the big sets' p-ary search,
 * which would otherwise take it to 80 (3 blocks a SM) for every program
 */
__global__ void __launch_bounds__(GX_BLOCK, 4)
gx_filter_kernel(const char *__restrict__ in, const char *__restrict__ colbase,
				 uint32_t nrows, gx_result *res, char *out,
				 const uint32_t *__restrict__ rowmap, int write_sel,
				 gx_agg_pair *agg_state, char *group)
{
	gx_filter_tiles<gx_interp_eval>(in, colbase, nrows, res, out, rowmap, write_sel,
									agg_state, group);
}

/*
 * Cache LOAD: append the deformed rows of a task to its entry (one thread
 * per row); NULL bits are set or cleared with atomics, since a bitmap word
 * may hold rows of the previous chunk of the entry.  Rows from the
 * deformer's first failure on are left out (the load then fails).
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_cache_append_kernel(const char *__restrict__ in, const char *__restrict__ colbase,
					   char *entry, uint32_t nrows, const gx_result *res)
{
	const gx_chunk *c = (const gx_chunk *) in;
	uint64_t	derr = res->error;
	uint32_t	limit = derr != GX_NO_ERROR && (derr >> 8) < nrows ? (uint32_t) (derr >> 8) : nrows;

	for (uint32_t row = blockIdx.x * GX_BLOCK + threadIdx.x; row < limit;
		 row += gridDim.x * GX_BLOCK)
	{
		uint64_t	nulls = gx_cache_append_row(in, colbase, entry, row);
		uint64_t	dst = (uint64_t) c->ext.row0 + row;

		for (uint32_t i = 0; i < c->ncols; i++)
		{
			unsigned int *w = (unsigned int *) (entry + c->ext.nulls_off[i]) + (dst >> 5);
			unsigned int bit = 1u << (dst & 31);

			if ((nulls >> i) & 1)
				atomicOr(w, bit);
			else
				atomicAnd(w, ~bit);
		}
	}
}

/* cache SCAN: the row map value of the first erroring row, for the host */
__global__ void
gx_error_key_kernel(gx_result *res, const uint32_t *rowmap, uint32_t nrows)
{
	uint64_t	e = res->error;

	res->error_key = (e != GX_NO_ERROR && (e >> 8) < nrows) ? rowmap[e >> 8] : 0;
}

/*
 * Mapped mode: write the device result header (its atomics ran in device
 * memory) into the host result area, through the mapped alias.  Launched
 * after the last kernel of the task, on the same stream.
 */
__global__ void
gx_publish_kernel(const gx_result *dres, gx_result *hres)
{
	gx_result	r = *dres;

	r.flags &= GX_RESULT_KERNEL_FLAGS;	/* the filter kernel's; the host adds the mode */
	r.pad = 0;
	r.h2d_ns = 0;
	r.kernel_ns = 0;
	r.d2h_ns = 0;
	r.bytes_h2d = 0;
	r.bytes_d2h = 0;
	*hres = r;
}

/*
 * AGG_READ: thread a sums aggregate a over the stripes of the state into
 * the device result header (reset before), and zeroes its stripes
 */
__global__ void
gx_agg_read_kernel(gx_agg_pair *state, gx_result *res, uint32_t nagg)
{
	const uint32_t a = threadIdx.x;
	unsigned long long v = 0,
				n = 0;

	if (a >= GX_MAX_AGGS)
		return;
	for (int s = 0; s < GX_AGG_STRIPES; s++)
	{
		gx_agg_pair *p = &state[s * GX_MAX_AGGS + a];

		v += (unsigned long long) p->val;
		n += (unsigned long long) p->cnt;
		p->val = 0;
		p->cnt = 0;
	}
	if (a < nagg)
	{
		res->agg_val[a] = (int64_t) v;
		res->agg_cnt[a] = (int64_t) n;
	}
}

/*
 * GROUP_READ: copy the READY slots among [from, from + n) of a group
 * table into the result records (order does not matter), counting them
 * in res->nsel, and empty them (discard: only empty them); the read of
 * the last range empties the table (last: its header too)
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_group_read_kernel(char *table, uint32_t from, uint32_t n, uint32_t slot_bytes,
					 int last, int discard, gx_result *res, char *rec)
{
	char	   *slots = table + sizeof(gx_group_hdr);

	if (last && blockIdx.x == 0 && threadIdx.x == 0)
		*(gx_group_hdr *) table = gx_group_hdr {};
	for (uint32_t i = blockIdx.x * GX_BLOCK + threadIdx.x; i < n; i += gridDim.x * GX_BLOCK)
	{
		char	   *src = slots + (uint64_t) (from + i) * slot_bytes;

		if (*(const uint32_t *) src != GX_GSLOT_READY)
			continue;
		*(uint32_t *) src = GX_GSLOT_EMPTY;
		if (discard)
			continue;

		uint32_t	at = atomicAdd(&res->nsel, 1u);
		const uint64_t *s8 = (const uint64_t *) src;
		uint64_t   *d8 = (uint64_t *) (rec + (uint64_t) at * slot_bytes);

		for (uint32_t w = 0; w < slot_bytes / 8; w++)
			d8[w] = s8[w];
	}
}

/* a group table's aggregates, by value (a kernel argument) */
typedef struct gx_gmerge_aggs
{
	gx_agg		a[GX_MAX_AGGS];
} gx_gmerge_aggs;

/*
 * GROUP_MERGE: slots [from, from + n) of the source table's slots src (a
 * peer's: only read), a thread a slot, grid-stride: a READY one merged
 * into its group of the destination dst (made there where there is room),
 * else copied into the result records rec (NULL: counted only).  The
 * groups merged and without room go into the header once a block.
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_group_merge_kernel(gx_gtab dst, const char *src, uint32_t from, uint32_t n,
					  gx_gmerge_aggs aggs, gx_result *res, char *rec)
{
	__shared__ gx_agg sa[GX_MAX_AGGS];
	__shared__ unsigned long long merged,
				noroom;

	if (threadIdx.x < dst.nagg)
		sa[threadIdx.x] = aggs.a[threadIdx.x];
	if (threadIdx.x == 0)
		merged = noroom = 0;
	__syncthreads();
	for (uint32_t i = blockIdx.x * GX_BLOCK + threadIdx.x; i < n; i += gridDim.x * GX_BLOCK)
	{
		const char *slot = src + (uint64_t) (from + i) * dst.slot_bytes;

		if (*(const uint32_t *) slot != GX_GSLOT_READY)
			continue;
		if (gx_group_merge_slot(&dst, slot, sa, 1))
		{
			atomicAdd(&merged, 1ull);
			continue;
		}
		atomicAdd(&noroom, 1ull);
		if (rec == NULL)
			continue;

		uint32_t	at = atomicAdd(&res->nsel, 1u);
		const uint64_t *s8 = (const uint64_t *) slot;
		uint64_t   *d8 = (uint64_t *) (rec + (uint64_t) at * dst.slot_bytes);

		for (uint32_t w = 0; w < dst.slot_bytes / 8; w++)
			d8[w] = s8[w];
	}
	__syncthreads();
	if (threadIdx.x == 0 && merged > 0)
		atomicAdd((unsigned long long *) &res->join_count, merged);
	if (threadIdx.x == 0 && noroom > 0)
	{
		atomicAdd((unsigned long long *) &res->join_noroom, noroom);
		atomicOr(&res->flags, GX_RESULT_FULL);
	}
}

/* ---------------------------------------------------------------------- */
/* join kernels (gx_join.cuh)                                             */
/* ---------------------------------------------------------------------- */

/*
 * Stage what the interpreter reads of a join task (program, constants,
 * column directory, the join options) in shared memory; every thread of
 * the block calls it
 */
__device__ __forceinline__ void
gx_join_stage(const gx_chunk *c, gx_chunk *s)
{
	const uint32_t tid = threadIdx.x;

	if (tid == 0)
	{
		s->ninstr = c->ninstr;
		s->nconsts = c->nconsts;
		s->ncols = c->ncols;
		s->nrows = c->nrows;
		s->ext = c->ext;
	}
	__syncthreads();
	for (uint32_t i = tid; i < s->ninstr; i += blockDim.x)
		s->code[i] = c->code[i];
	for (uint32_t i = tid; i < s->nconsts; i += blockDim.x)
		s->consts[i] = c->consts[i];
	for (uint32_t i = tid; i < s->ncols; i += blockDim.x)
		s->cols[i] = c->cols[i];
	__syncthreads();
}

/* record the error of a row (the first one wins) */
__device__ __forceinline__ void
gx_join_error(gx_result *res, uint32_t row, int err)
{
	atomicMin((unsigned long long *) &res->error,
			  (unsigned long long) (((uint64_t) row << 8) | (uint64_t) err));
}

/*
 * JOIN_BUILD: a thread a row; passing rows go into the table obj (their
 * inner columns into the store icols, when the task has them), rows
 * without room and rows for the host are appended to sel (res->nsel).  A
 * table already finished takes nothing (an error at row 0).
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_join_build_kernel(const char *__restrict__ in, const char *colbase, const char *entry,
					 char *obj, char *icols, gx_result *res, uint32_t *sel)
{
	__shared__ gx_chunk s_prog;
	__shared__ unsigned long long s_added;

	gx_join_stage((const gx_chunk *) in, &s_prog);

	const gx_join_ext *j = &s_prog.ext.join;
	const uint32_t nrows = s_prog.nrows;
	gx_jtab		t = gx_jtab_of(obj, j);
	const gx_jin jin = gx_jin_of(&s_prog, in, colbase, entry);
	unsigned long long added = 0;

	gx_jtab_cols(&t, icols, j);

	if (t.hdr->built)
	{
		if (blockIdx.x == 0 && threadIdx.x == 0)
			gx_join_error(res, 0, GX_ERR_BAD_PROGRAM);
		return;
	}
	if (threadIdx.x == 0)
		s_added = 0;
	__syncthreads();
	for (uint32_t row = blockIdx.x * GX_BLOCK + threadIdx.x; row < nrows;
		 row += gridDim.x * GX_BLOCK)
	{
		gx_reg		out[GX_MAX_OUTS];
		int64_t		k[GX_JOIN_MAX_KEYS];
		int64_t		payload = (int64_t) (j->row_base + row);
		int			err = GX_ERR_NONE;
		int			want = 0;
		uint32_t	flag = 0;

		if (!gx_jin_skipped(&jin, row))
		{
			if (gx_eval_row_out(&s_prog, jin.colbase, row, &err, out))
				want = gx_join_build_keys(&t, j, out, k, &payload);
			else if (err == GX_ERR_HOST)
				flag = GX_RESULT_HOST;
			else if (err != GX_ERR_NONE)
				gx_join_error(res, row, err);
		}
		if (want)
		{
			/*
			 * the rows of a warp that go into the table reserve their
			 * indexes with one add (hdr.nrows is every row's counter)
			 */
			cg::coalesced_group g = cg::coalesced_threads();
			uint32_t	base = 0;

			if (g.thread_rank() == 0)
				base = atomicAdd(&t.hdr->nrows, g.size());
			base = g.shfl(base, 0);
			if (gx_join_build_at(&t, j, out, k, payload, base + g.thread_rank()) ==
				GX_JOIN_ADDED)
				added++;
			else
				flag = GX_RESULT_FULL;
		}
		if (flag)
		{
			sel[atomicAdd(&res->nsel, 1u)] = row;
			atomicOr(&res->flags, flag);
		}
	}
	if (added)
		atomicAdd(&s_added, added);
	__syncthreads();
	if (threadIdx.x == 0 && s_added)
		atomicAdd((unsigned long long *) &res->join_count, s_added);
}

/* JOIN_FINISH_BUILD, after the prefix sum: a thread a staged row */
__global__ void __launch_bounds__(GX_BLOCK)
gx_join_place_kernel(char *obj, gx_join_ext j)
{
	gx_jtab		t = gx_jtab_of(obj, &j);
	const uint32_t n = gx_join_staged_rows(&t);

	for (uint32_t i = blockIdx.x * GX_BLOCK + threadIdx.x; i < n; i += gridDim.x * GX_BLOCK)
		gx_join_place(&t, i);
}

/* JOIN_FINISH_BUILD, last: seal the table, the rows it holds into the result */
__global__ void
gx_join_seal_kernel(char *obj, gx_join_ext j, gx_result *res)
{
	gx_jtab		t = gx_jtab_of(obj, &j);
	const uint32_t n = gx_join_staged_rows(&t);

	t.hdr->rows = n;
	t.hdr->noruns = (j.jflags & GX_JOIN_NO_RUNS) != 0;
	t.hdr->built = 1;
	res->join_count = n;
}

/*
 * Range JOIN_FINISH_BUILD, before the sort: the entries past the appended
 * rows, [nrows, cap), get the largest key, so that the sort of all cap
 * entries leaves the rows first (the sort is stable: a row's own largest
 * key stays before them)
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_jrange_pad_kernel(char *obj, gx_join_ext j)
{
	gx_jtab		t = gx_jtab_range_of(obj, &j);
	const uint32_t n = gx_join_staged_rows(&t);

	for (uint32_t i = n + blockIdx.x * GX_BLOCK + threadIdx.x; i < t.cap;
		 i += gridDim.x * GX_BLOCK)
	{
		t.key[i] = (int64_t) 0x7fffffffffffffffLL;
		t.pay[i] = 0;
	}
}

/* ---- the merge join (gx_jmerge.cuh) ---- */

/*
 * Merge sort, pass 2 (two keys): dst[i] = the first key of sorted index
 * perm[i] (src[perm[i]]; an index past the valid ones, the largest key:
 * nvalid NULL: every index valid)
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_jm_gather_key_kernel(const int64_t *src, const uint32_t *perm, int64_t *dst, uint32_t n,
						const uint32_t *nvalid)
{
	const uint32_t valid = nvalid != NULL ? *nvalid : n;

	for (uint32_t i = blockIdx.x * GX_BLOCK + threadIdx.x; i < n; i += gridDim.x * GX_BLOCK)
	{
		uint32_t	p = perm[i];

		dst[i] = p < valid && p < n ? src[p] : GX_JM_MAX_KEY;
	}
}

/*
 * Merge JOIN_FINISH_BUILD, first: the identity into vx, the first sort
 * pass's keys into kx (key1 with two keys, else key0; the entries past
 * the appended rows the largest key, so that the stable sort of all cap
 * entries leaves the rows first)
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_jm_finish_init_kernel(char *obj, gx_join_ext j, int64_t *kx, uint32_t *vx)
{
	gx_jtab		t = gx_jtab_merge_of(obj, &j);
	const uint32_t n = gx_join_staged_rows(&t);

	for (uint32_t i = blockIdx.x * GX_BLOCK + threadIdx.x; i < t.cap; i += gridDim.x * GX_BLOCK)
	{
		vx[i] = i;
		kx[i] = i < n ? (t.nkeys > 1 ? t.key1[i] : t.key[i]) : GX_JM_MAX_KEY;
	}
}

/*
 * Merge JOIN_FINISH_BUILD, after the sort (perm): the sorted keys and
 * payloads, and a head flag per sorted row (its key differs from the row
 * before's; 0 past the rows)
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_jm_finish_gather_kernel(char *obj, gx_join_ext j, const uint32_t *perm, uint32_t *flags)
{
	gx_jtab		t = gx_jtab_merge_of(obj, &j);
	const uint32_t n = gx_join_staged_rows(&t);

	for (uint32_t i = blockIdx.x * GX_BLOCK + threadIdx.x; i < t.cap; i += gridDim.x * GX_BLOCK)
	{
		uint32_t	p = perm[i] < t.cap ? perm[i] : 0,
					q = i > 0 && perm[i - 1] < t.cap ? perm[i - 1] : 0;

		flags[i] = i < n && (i == 0 || t.key[p] != t.key[q] || t.key1[p] != t.key1[q]);
		if (i >= n)
			continue;
		t.skey[i] = t.key[p];
		t.skey1[i] = t.key1[p];
		t.run[i] = t.pay[p];
	}
}

/*
 * Merge JOIN_FINISH_BUILD, after the inclusive sum of the head flags into
 * urow: each sorted row's distinct key (urow - 1), each distinct key and
 * its run's start, the number of them (hdr.keys: the last row's)
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_jm_finish_encode_kernel(char *obj, gx_join_ext j, const uint32_t *flags)
{
	gx_jtab		t = gx_jtab_merge_of(obj, &j);
	const uint32_t n = gx_join_staged_rows(&t);

	for (uint32_t i = blockIdx.x * GX_BLOCK + threadIdx.x; i < n; i += gridDim.x * GX_BLOCK)
	{
		uint32_t	u = t.urow[i] - 1;

		t.urow[i] = u;
		if (flags[i])
		{
			t.ukey0[u] = t.skey[i];
			t.ukey1[u] = t.skey1[i];
			t.ustart[u] = i;
		}
		if (i == n - 1)
			t.hdr->keys = u + 1;
	}
}

/*
 * Merge JOIN_PROBE, (a) extract: a thread a row (rows of a block staged
 * program): its state and keys into the scratch (ok0, ok1, mrow), the
 * first sort pass's key into kx, its index into vx; errors recorded
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_jm_extract_kernel(const char *__restrict__ in, const char *colbase, const char *entry,
					 char *obj, gx_result *res, int64_t *ok0, int64_t *ok1, int64_t *kx,
					 uint32_t *vx, gx_jmerge_row *mrow)
{
	__shared__ gx_chunk s_prog;

	gx_join_stage((const gx_chunk *) in, &s_prog);

	const gx_join_ext *j = &s_prog.ext.join;
	const uint32_t nrows = s_prog.nrows;
	gx_jtab		t = gx_jtab_of(obj, j);
	const gx_jin jin = gx_jin_of(&s_prog, in, colbase, entry);

	for (uint32_t row = blockIdx.x * GX_BLOCK + threadIdx.x; row < nrows;
		 row += gridDim.x * GX_BLOCK)
	{
		int			err = gx_jmerge_extract(&s_prog, &jin, &t, j, row, &ok0[row], &ok1[row],
											&mrow[row]);

		if (err != GX_ERR_NONE)
			gx_join_error(res, row, err);
		vx[row] = row;
		kx[row] = t.nkeys > 1 ? ok1[row] : ok0[row];
	}
}

/*
 * Merge JOIN_PROBE, (c) merge: a thread a diagonal part of the merge path
 * of the batch's sorted keys (a0, a1 or none; rows perm) with the table's
 * distinct keys; nothing before the table is finished
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_jm_merge_kernel(char *obj, gx_join_ext j, const int64_t *a0, const int64_t *a1,
				   const uint32_t *perm, uint32_t n, gx_jmerge_row *mrow)
{
	gx_jtab		t = gx_jtab_of(obj, &j);
	gx_jmerge	m;

	if (!t.hdr->built)
		return;
	m.a0 = a0;
	m.a1 = a1;
	m.arow = perm;
	m.na = n;
	m.b0 = t.ukey0;
	m.b1 = t.ukey1;
	m.ustart = t.ustart;
	m.nb = t.ukeys;
	m.rows = t.rows;
	m.umatched = GX_JOIN_MODE_MARKS(j.mode) ? t.kmatched : NULL;
	m.mrow = mrow;

	const uint64_t parts = gx_jmerge_parts(&m);

	for (uint64_t p = (uint64_t) blockIdx.x * GX_BLOCK + threadIdx.x; p < parts;
		 p += (uint64_t) gridDim.x * GX_BLOCK)
		gx_jmerge_part(&m, p);
}

/*
 * Group JOIN_PROBE (gx_join.cuh, "Group probe"): a thread a row (rows of
 * a block staged program), its pairs into the block's group table in
 * shared memory (dynamic, GX_GROUP_SMEM bytes; the global table group
 * with GX_GROUP_NO_LOCAL, or when the block's has no room), merged into
 * the global table at the block's end as the filter kernel's; inner
 * columns from the store icols.  The block's counts go into the header
 * (join_count, join_noroom, join_host; GX_RESULT_FULL, GX_RESULT_HOST).
 * Nothing before the table is finished (an error at row 0).
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_join_group_kernel(const char *__restrict__ in, const char *colbase, const char *entry,
					 char *obj, char *icols, char *group, gx_result *res, char *mscratch,
					 gx_jlevel_objs lobj)
{
	extern __shared__ __align__(16) char gx_jg_smem[];	/* the block's group table */
	__shared__ gx_chunk s_prog;
	__shared__ unsigned long long s_n[3];	/* added, no room, host */

	gx_join_stage((const gx_chunk *) in, &s_prog);

	const gx_chunk_ext *x = &s_prog.ext;
	const uint32_t nrows = s_prog.nrows;
	gx_jtab		t = gx_jtab_probe_of(obj, &x->join, (char *) res, mscratch, nrows);
	const gx_jin jin = gx_jin_of(&s_prog, in, colbase, entry);
	gx_gtab		gtab,
				stab;
	gx_jgcount	n = {0, 0, 0};
	gx_jlevels	lv;
	int			levels_built;

	gx_jtab_cols(&t, icols, &x->join);
	gx_jlevels_of(&lv, &x->join, &lobj, &levels_built);
	if (blockIdx.x == 0 && threadIdx.x == 0)
	{
		res->next_row = nrows;	/* (no passes: every row is this task's) */
		if (!t.hdr->built || !levels_built)
			gx_join_error(res, 0, GX_ERR_BAD_PROGRAM);
	}
	if (!t.hdr->built || !levels_built)
		return;					/* (the whole block) */
	if (threadIdx.x < 3)
		s_n[threadIdx.x] = 0;
	gx_group_block_tables(group, x, gx_jg_smem, &gtab, &stab);
	for (uint32_t row = blockIdx.x * GX_BLOCK + threadIdx.x; row < nrows;
		 row += gridDim.x * GX_BLOCK)
	{
		int			err = gx_join_group_row(&s_prog, &jin, &t, &lv, x, x->agg, row, &stab, &gtab,
											&n);

		if (err != GX_ERR_NONE)
			gx_join_error(res, row, err);
	}
	if (n.added)
		atomicAdd(&s_n[0], (unsigned long long) n.added);
	if (n.noroom)
		atomicAdd(&s_n[1], (unsigned long long) n.noroom);
	if (n.host)
		atomicAdd(&s_n[2], (unsigned long long) n.host);
	__syncthreads();
	if (gx_group_merge_table(&stab, &gtab, x->agg, threadIdx.x, GX_BLOCK) > 0)
		gx_join_error(res, 0, GX_ERR_BAD_PROGRAM);	/* cannot happen */
	if (threadIdx.x == 0)
	{
		if (s_n[0])
			atomicAdd((unsigned long long *) &res->join_count, s_n[0]);
		if (s_n[1])
		{
			atomicAdd((unsigned long long *) &res->join_noroom, s_n[1]);
			atomicOr(&res->flags, GX_RESULT_FULL);
		}
		if (s_n[2])
		{
			atomicAdd((unsigned long long *) &res->join_host, s_n[2]);
			atomicOr(&res->flags, GX_RESULT_HOST);
		}
	}
}

typedef cub::BlockReduce<unsigned long long, GX_BLOCK> gx_join_reduce;
typedef cub::BlockScan<unsigned long long, GX_BLOCK> gx_join_scan;

#define GX_JOIN_ROWS_PER_THREAD (GX_TILE_ROWS / GX_BLOCK)

/*
 * JOIN_PROBE (1), count: a block a tile; te[tile] / tm[tile] = the
 * entries / matches of its rows [first_row, nrows).  Every tile is
 * written (zeros when the table is not finished: an error at row 0).
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_join_count_kernel(const char *__restrict__ in, const char *colbase, const char *entry,
					 char *obj, gx_result *res, unsigned long long *te, unsigned long long *tm,
					 char *mscratch)
{
	__shared__ gx_chunk s_prog;
	__shared__ typename gx_join_reduce::TempStorage s_red;

	gx_join_stage((const gx_chunk *) in, &s_prog);

	const gx_join_ext *j = &s_prog.ext.join;
	const uint32_t nrows = s_prog.nrows;
	const uint32_t ntiles = gx_ntiles(nrows);
	const int	count_only = s_prog.ext.count_only != 0;
	gx_jtab		t = gx_jtab_probe_of(obj, j, (char *) res, mscratch, nrows);
	const int	built = t.hdr->built != 0;
	const gx_jin jin = gx_jin_of(&s_prog, in, colbase, entry);

	if (!built && blockIdx.x == 0 && threadIdx.x == 0)
		gx_join_error(res, 0, GX_ERR_BAD_PROGRAM);
	for (uint32_t tile = blockIdx.x; tile < ntiles; tile += gridDim.x)
	{
		unsigned long long e = 0,
					m = 0;
		int			host = 0;

#pragma unroll
		for (int k = 0; k < GX_JOIN_ROWS_PER_THREAD; k++)
		{
			uint32_t	row = tile * GX_TILE_ROWS + threadIdx.x + (uint32_t) k * GX_BLOCK;
			gx_jrow		jr;

			if (!built || row >= nrows || row < j->first_row)
				continue;
			int			err = gx_join_probe_in(&s_prog, &jin, &t, j, count_only, row, &jr);

			if (err != GX_ERR_NONE)
			{
				gx_join_error(res, row, err);
				continue;
			}
			e += jr.e;
			m += jr.m;
			host |= jr.host;
		}
		unsigned long long se = gx_join_reduce(s_red).Sum(e);

		__syncthreads();
		unsigned long long sm = gx_join_reduce(s_red).Sum(m);

		if (__syncthreads_or(host) && threadIdx.x == 0)
			atomicOr(&res->flags, GX_RESULT_HOST);
		if (threadIdx.x == 0)
		{
			te[tile] = se;
			tm[tile] = sm;
		}
	}
}

/*
 * JOIN_PROBE (2), one block of GX_JOIN_SCAN_THREADS: te / tm become their
 * exclusive prefix sums; the pass's size: all its entries (nsel,
 * join_count) when they fit in max_pairs, else GX_RESULT_MORE, nsel =
 * max_pairs and, for (3b), join_count = the total of the entries
 */
#define GX_JOIN_SCAN_THREADS 1024
typedef cub::BlockScan<unsigned long long, GX_JOIN_SCAN_THREADS> gx_join_tile_scan;

__global__ void __launch_bounds__(GX_JOIN_SCAN_THREADS)
gx_join_tile_scan_kernel(gx_result *res, unsigned long long *te, unsigned long long *tm,
						 uint32_t ntiles, uint32_t nrows, uint32_t max_pairs)
{
	__shared__ typename gx_join_tile_scan::TempStorage s_scan;
	__shared__ unsigned long long s_e,
				s_m;

	if (threadIdx.x == 0)
		s_e = s_m = 0;
	__syncthreads();
	for (uint32_t base = 0; base < ntiles; base += GX_JOIN_SCAN_THREADS)
	{
		const uint32_t i = base + threadIdx.x;
		unsigned long long e = i < ntiles ? te[i] : 0,
					m = i < ntiles ? tm[i] : 0,
					oe,
					om,
					ae,
					am;

		gx_join_tile_scan(s_scan).ExclusiveSum(e, oe, ae);
		__syncthreads();
		gx_join_tile_scan(s_scan).ExclusiveSum(m, om, am);
		if (i < ntiles)
		{
			te[i] = s_e + oe;
			tm[i] = s_m + om;
		}
		__syncthreads();
		if (threadIdx.x == 0)
		{
			s_e += ae;
			s_m += am;
		}
		__syncthreads();
	}
	if (threadIdx.x == 0)
	{
		res->next_match = 0;
		if (s_e <= max_pairs)
		{
			res->nsel = (uint32_t) s_e;
			res->join_count = s_m;
			res->next_row = nrows;
		}
		else
		{
			res->nsel = max_pairs;
			res->join_count = s_e;	/* for the end of the pass */
			atomicOr(&res->flags, GX_RESULT_MORE);
		}
	}
}

/*
 * JOIN_PROBE (3b), one block, only when the result area is too small: the
 * outer row holding entry max_pairs (next_row), how many of its matches
 * the pass writes (next_match) and the matches of the pass (join_count).
 * Rows of the tile in row order: thread t has rows 4t .. 4t + 3.
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_join_pass_end_kernel(const char *__restrict__ in, const char *colbase, const char *entry,
						char *obj, gx_result *res, const unsigned long long *te,
						const unsigned long long *tm, char *mscratch)
{
	__shared__ gx_chunk s_prog;
	__shared__ typename gx_join_scan::TempStorage s_scan;
	__shared__ uint32_t s_ts;

	if (!(res->flags & GX_RESULT_MORE))
		return;
	gx_join_stage((const gx_chunk *) in, &s_prog);

	const gx_join_ext *j = &s_prog.ext.join;
	const uint32_t nrows = s_prog.nrows;
	const uint32_t ntiles = gx_ntiles(nrows);
	const unsigned long long max = j->max_pairs;
	const unsigned long long total = res->join_count;
	gx_jtab		t = gx_jtab_probe_of(obj, j, (char *) res, mscratch, nrows);
	const gx_jin jin = gx_jin_of(&s_prog, in, colbase, entry);

	if (threadIdx.x == 0)
		s_ts = ntiles;
	__syncthreads();
	for (uint32_t i = threadIdx.x; i < ntiles; i += GX_BLOCK)
	{
		unsigned long long next = i + 1 < ntiles ? te[i + 1] : total;

		if (te[i] <= max && max < next)
			s_ts = i;			/* one tile holds position max */
	}
	__syncthreads();
	if (s_ts >= ntiles)
		return;

	const uint32_t ts = s_ts;
	gx_jrow		jr[GX_JOIN_ROWS_PER_THREAD];
	uint32_t	row0 = ts * GX_TILE_ROWS + threadIdx.x * GX_JOIN_ROWS_PER_THREAD;
	unsigned long long e = 0,
				m = 0,
				oe,
				om;

	for (int k = 0; k < GX_JOIN_ROWS_PER_THREAD; k++)
	{
		uint32_t	row = row0 + (uint32_t) k;

		jr[k].e = jr[k].m = jr[k].skip = jr[k].host = jr[k].none = 0;
		if (row < nrows && row >= j->first_row &&
			gx_join_probe_in(&s_prog, &jin, &t, j, s_prog.ext.count_only != 0, row, &jr[k]) !=
			GX_ERR_NONE)
			jr[k].e = jr[k].m = 0;
		e += jr[k].e;
		m += jr[k].m;
	}
	gx_join_scan(s_scan).ExclusiveSum(e, oe);
	__syncthreads();
	gx_join_scan(s_scan).ExclusiveSum(m, om);

	unsigned long long off = te[ts] + oe,
				mpre = tm[ts] + om;

	for (int k = 0; k < GX_JOIN_ROWS_PER_THREAD; k++)
	{
		if (jr[k].e > 0 && off <= max && max < off + jr[k].e)
		{
			res->next_row = row0 + (uint32_t) k;
			res->next_match = (uint32_t) (max - off) + jr[k].skip;
			res->join_count = mpre + (jr[k].host ? 0 : max - off);
		}
		off += jr[k].e;
		mpre += jr[k].m;
	}
}

/*
 * JOIN_PROBE (3), write: a block a tile with entries before max_pairs;
 * thread t has rows 4t .. 4t + 3 of the tile (entries in row order), its
 * offset from a scan of the threads' entries.  A gathering probe (gval
 * not NULL, ext.join.ngather > 0) also writes each entry's columns into
 * gval / gnull (gx_join_gather_row: a row with entries is evaluated again,
 * its inner columns from the store icols).
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_join_write_kernel(const char *__restrict__ in, const char *colbase, const char *entry,
					 char *obj, gx_result *res, const unsigned long long *te,
					 gx_join_pair *pairs, char *mscratch, char *icols, int64_t *gval,
					 uint8_t *gnull)
{
	__shared__ gx_chunk s_prog;
	__shared__ typename gx_join_scan::TempStorage s_scan;

	if (res->nsel == 0)
		return;
	gx_join_stage((const gx_chunk *) in, &s_prog);

	const gx_join_ext *j = &s_prog.ext.join;
	const uint32_t nrows = s_prog.nrows;
	const uint32_t ntiles = gx_ntiles(nrows);
	const uint32_t max = j->max_pairs;
	const int	count_only = s_prog.ext.count_only != 0;
	gx_jtab		t = gx_jtab_probe_of(obj, j, (char *) res, mscratch, nrows);
	const gx_jin jin = gx_jin_of(&s_prog, in, colbase, entry);

	if (gval != NULL)
		gx_jtab_cols(&t, icols, j);
	for (uint32_t tile = blockIdx.x; tile < ntiles; tile += gridDim.x)
	{
		unsigned long long next = tile + 1 < ntiles ? te[tile + 1] : ~0ull;

		if (te[tile] >= max || te[tile] == next)
			continue;			/* (the same for every thread of the block) */

		gx_jrow		jr[GX_JOIN_ROWS_PER_THREAD];
		uint32_t	row0 = tile * GX_TILE_ROWS + threadIdx.x * GX_JOIN_ROWS_PER_THREAD;
		unsigned long long e = 0,
					oe;

		for (int k = 0; k < GX_JOIN_ROWS_PER_THREAD; k++)
		{
			uint32_t	row = row0 + (uint32_t) k;

			jr[k].e = jr[k].m = jr[k].skip = jr[k].host = jr[k].none = 0;
			if (row < nrows && row >= j->first_row &&
				gx_join_probe_in(&s_prog, &jin, &t, j, count_only, row, &jr[k]) != GX_ERR_NONE)
				jr[k].e = 0;
			e += jr[k].e;
		}
		gx_join_scan(s_scan).ExclusiveSum(e, oe);
		__syncthreads();		/* s_scan is reused by the next tile */

		unsigned long long off = te[tile] + oe;

		for (int k = 0; k < GX_JOIN_ROWS_PER_THREAD && off < max; k++)
		{
			if (jr[k].e > 0)
			{
				gx_join_write_row(&t, &jr[k], j->mode, gx_jin_outer(&jin, row0 + (uint32_t) k),
								  off, max, pairs);
				if (gval != NULL)
					gx_join_gather_row(&s_prog, jin.colbase, &t, j, &jr[k], row0 + (uint32_t) k,
									   off, max, gval, gnull);
			}
			off += jr[k].e;
		}
	}
}

/*
 * JOIN_UNMATCHED: a thread a placed row of [lo, lo + n); the block's
 * unmatched payloads reserved in out (res->nsel) with one atomic add (none
 * written when out is NULL: count only); res->join_count counts them
 */
__global__ void __launch_bounds__(GX_BLOCK)
gx_join_unmatched_kernel(char *obj, gx_join_ext j, uint32_t n, gx_result *res, int64_t *out)
{
	typedef cub::BlockScan<uint32_t, GX_BLOCK> scan_t;
	__shared__ typename scan_t::TempStorage s_scan;
	__shared__ uint32_t s_base;
	gx_jtab		t = gx_jtab_of(obj, &j);

	if (!t.hdr->built)
	{
		if (blockIdx.x == 0 && threadIdx.x == 0)
			gx_join_error(res, 0, GX_ERR_BAD_PROGRAM);
		return;
	}
	for (uint32_t base = blockIdx.x * GX_BLOCK; base < n; base += gridDim.x * GX_BLOCK)
	{
		uint32_t	i = base + threadIdx.x;
		int64_t		payload = 0;
		uint32_t	one = i < n ? (uint32_t) gx_join_unmatched_row(&t, j.first_row + i, &payload) : 0,
					off,
					total;

		scan_t(s_scan).ExclusiveSum(one, off, total);
		if (threadIdx.x == 0 && total > 0)
		{
			atomicAdd((unsigned long long *) &res->join_count, (unsigned long long) total);
			s_base = out ? atomicAdd(&res->nsel, total) : 0;
		}
		__syncthreads();
		if (one && out)
			out[s_base + off] = payload;
		__syncthreads();		/* s_scan and s_base are reused */
	}
}

/* ---------------------------------------------------------------------- */
/* operators                                                              */
/* ---------------------------------------------------------------------- */

/*
 * Start a task on its slot's stream: the timing events, and in copy mode
 * the H2D copy of h2d_bytes of input (none for AGG_READ).
 */
static gx_status
gx_slot_start(gx_slot *s, const gx_chunk *c, int mapped, uint64_t h2d_bytes,
			  char *err, size_t errlen)
{
	if (mapped)
	{
		GX_CHECK(cudaEventRecord(s->ev[GX_EV_KERNEL_START], s->stream), "cudaEventRecord");
		return GX_OK;
	}
	GX_CHECK(cudaEventRecord(s->ev[GX_EV_H2D_START], s->stream), "cudaEventRecord");
	if (h2d_bytes > 0)
		GX_CHECK(cudaMemcpyAsync(s->dev, c, h2d_bytes, cudaMemcpyHostToDevice, s->stream),
				 "cudaMemcpyAsync (input)");
	GX_CHECK(cudaEventRecord(s->ev[GX_EV_H2D_END], s->stream), "cudaEventRecord");
	return GX_OK;
}

/*
 * End a task's queue after its kernels: mapped, publish the header; copy,
 * the D2H copy of the header and hdr_bytes of seg arrays.  gx_gpu_poll()
 * then copies the selection if copy_sel, and completes the slot.
 */
static gx_status
gx_slot_finish(gx_slot *s, gx_chunk *c, gx_result *dres, char *out, int mapped,
			   uint64_t h2d_bytes, size_t hdr_bytes, int copy_sel, char *err, size_t errlen)
{
	if (mapped)
	{
		gx_publish_kernel<<<1, 1, 0, s->stream>>>(dres, (gx_result *) out);
		GX_CHECK(cudaGetLastError(), "publish kernel launch");
	}
	GX_CHECK(cudaEventRecord(s->ev[GX_EV_KERNEL_END], s->stream), "cudaEventRecord");
	s->bytes_h2d = h2d_bytes;
	s->bytes_d2h = hdr_bytes;	/* + the selection, known when done */
	s->copy_sel = copy_sel;
	s->sel_width = c->kind == GX_TASK_GROUP_READ || c->kind == GX_TASK_GROUP_MERGE ?
		(uint32_t) gx_group_slot_bytes(c->ext.ngkeys, c->ext.nagg) :
		c->kind == GX_TASK_JOIN_PROBE ? (uint32_t) sizeof(gx_join_pair) :
		c->kind == GX_TASK_JOIN_UNMATCHED ? (uint32_t) sizeof(int64_t) :
		c->kind == GX_TASK_SEARCH || c->kind == GX_TASK_TREE_LOOKUP ?
		(uint32_t) sizeof(gx_search_run) : 4;
	s->sel_at = c->kind == GX_TASK_JOIN_PROBE ?
		c->result_off + gx_join_pairs_off(c->nrows, gx_join_res_alg(&c->ext.join)) :
		c->kind == GX_TASK_SEARCH || c->kind == GX_TASK_TREE_LOOKUP ?
		c->result_off + gx_search_runs_off() : 0;
	/* a gathering probe's columns: their first nsel entries come back too */
	s->gather_n = 0;
	if (c->kind == GX_TASK_JOIN_PROBE && copy_sel && c->ext.join.ngather > 0)
	{
		const gx_join_ext *j = &c->ext.join;

		s->gather_n = j->ngather;
		s->gather_pitch = j->max_pairs;
		s->gather_at = c->result_off + gx_join_gather_off(c->nrows, j->max_pairs,
														   gx_join_res_alg(j));
		s->gather_nulls_at = c->result_off +
			gx_join_gather_nulls_off(c->nrows, j->max_pairs, gx_join_res_alg(j), j->ngather);
	}
	if (mapped)
	{
		s->state = GX_SLOT_MAPPED;
		return GX_OK;
	}
	GX_CHECK(cudaMemcpyAsync(gx_chunk_result(c), dres, hdr_bytes, cudaMemcpyDeviceToHost,
							 s->stream), "cudaMemcpyAsync (result header)");
	GX_CHECK(cudaEventRecord(s->ev[GX_EV_S1_END], s->stream), "cudaEventRecord");
	s->state = GX_SLOT_STAGE1;
	return GX_OK;
}

/*
 * Begin a copy-mode task that is not a filter (AGG_READ, GROUP_READ,
 * JOIN_*): the host header must not look finished, then the H2D copy of
 * h2d_bytes of input (gx_slot_start) and the reset of the device header
 * dres for ntiles tiles
 */
static gx_status
gx_slot_begin(gx_slot *s, gx_chunk *c, gx_result *dres, uint32_t ntiles, uint64_t h2d_bytes,
			  char *err, size_t errlen)
{
	gx_result  *hres = gx_chunk_result(c);
	gx_status	st;

	hres->ntiles = ntiles;
	hres->flags = 0;
	s->jit = 0;
	if ((st = gx_slot_start(s, c, 0, h2d_bytes, err, errlen)) != GX_OK)
		return st;
	gx_reset_kernel<<<1, 1, 0, s->stream>>>(dres, ntiles);
	GX_CHECK(cudaGetLastError(), "reset kernel launch");
	return GX_OK;
}

/*
 * FILTER, CACHE_LOAD, CACHE_SCAN (validated): queue the task in the mode it
 * asks for (copy, or mapped for a FILTER when the staging area is mapped).
 */
gx_status
gx_gpu_rows(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	const uint32_t kind = c->kind;
	const int	mapped = (c->flags & GX_CHUNK_MAPPED) != 0 && GD->mapped &&
		kind == GX_TASK_FILTER;
	char	   *entry = kind != GX_TASK_FILTER ? ctx->entry : NULL;
	const uint32_t *rowmap = kind == GX_TASK_CACHE_SCAN && c->ext.map_sel ?
		(const uint32_t *) (entry + c->ext.rowmap_off) : NULL;
	char	   *group = c->ext.ngroup_cap > 0 ? (char *) ctx->obj[0] : NULL;
	gx_agg_pair *agg = c->ext.nagg > 0 && group == NULL ? (gx_agg_pair *) ctx->obj[0] : NULL;
	const uint32_t nrows = c->nrows;
	/* the group table, then the big sets' top keys (gx_sets_plan: as the kernel stages them) */
	const size_t smem = (group != NULL ? GX_GROUP_SMEM : 0) +
		(size_t) 8 * gx_sets_plan(c->code, c->ninstr, c->consts, NULL, 0);
	const uint32_t ntiles = gx_ntiles(nrows);
	const int	deform = c->deform_off != 0;
	size_t		hdr_bytes = GX_ALIGN_UP(sizeof(gx_result)) + (size_t) ntiles * 8;
	gx_status	st;

	/*
	 * Bases: the input is the device buffer (copy) or the slot's mapped
	 * alias; deformed columns always go to the device buffer; the result
	 * header with the atomics is in the device buffer, the result area is
	 * written there (copy) or into host memory (mapped).
	 */
	char	   *alias = mapped ? GD->staging_dev + (size_t) slot * GS.slot_bytes : NULL;
	const char *in = mapped ? alias : s->dev;
	const char *colbase = kind == GX_TASK_CACHE_SCAN ? entry : deform ? s->dev : in;
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	char	   *out = mapped ? alias + c->result_off : s->dev + c->result_off;
	gx_result  *hres = gx_chunk_result(c);

	/* the host header must not look finished before the kernels ran */
	hres->ntiles = ntiles;
	hres->flags = 0;
	s->jit = 0;
	/* the big sets' object, for GX_OP_INBIGSET (validated; copied in below) */
	c->ext.sets = (uint64_t) (uintptr_t) ctx->obj[GX_TASK_OBJ_SETS];

	uint32_t	dgrid = (nrows + GX_BLOCK - 1) / GX_BLOCK;
	uint32_t	fgrid = ntiles;

	if (dgrid > (uint32_t) GD->sm_count * 16)
		dgrid = (uint32_t) GD->sm_count * 16;
	/*
	 * One resident wave of blocks (8 a SM) that stride over the tiles: a
	 * block stages the program once for several tiles of a big (cached)
	 * task.
	 */
	if (fgrid > (uint32_t) GD->sm_count * 8)
		fgrid = (uint32_t) GD->sm_count * 8;

	/*
	 * Look the compiled kernel up before queueing anything, so that the
	 * host's work does not leave the stream idle between the events.
	 */
	const void *jk = (kind != GX_TASK_CACHE_LOAD && ntiles > 0 &&
					  (c->flags & GX_CHUNK_JIT) && GD->jit) ?
		gx_jit_kernel(c, (c->flags & GX_CHUNK_JIT_WAIT) != 0) : NULL;

	if ((st = gx_slot_start(s, c, mapped, c->input_bytes, err, errlen)) != GX_OK)
		return st;
	gx_reset_kernel<<<1, 1, 0, s->stream>>>(dres, ntiles);
	GX_CHECK(cudaGetLastError(), "reset kernel launch");
	if (deform && nrows > 0)
	{
		gx_deform_kernel<<<dgrid, GX_BLOCK, 0, s->stream>>>(in, s->dev, nrows, dres);
		GX_CHECK(cudaGetLastError(), "deform kernel launch");
	}
	if (kind == GX_TASK_CACHE_LOAD)
	{
		if (nrows > 0)
		{
			gx_cache_append_kernel<<<dgrid, GX_BLOCK, 0, s->stream>>>(in, s->dev, entry, nrows, dres);
			GX_CHECK(cudaGetLastError(), "cache append kernel launch");
		}
	}
	else if (ntiles > 0)
	{
		int			write_sel = !c->ext.count_only;

		if (jk)
		{
			void	   *args[] = {(void *) &in, (void *) &colbase, (void *) &nrows, (void *) &dres,
				(void *) &out, (void *) &rowmap, (void *) &write_sel, (void *) &agg,
			(void *) &group};

			GX_CHECK(cudaLaunchKernel(jk, dim3(fgrid), dim3(GX_BLOCK), args, smem, s->stream),
					 "compiled filter kernel launch");
			s->jit = 1;
		}
		else
		{
			gx_filter_kernel<<<fgrid, GX_BLOCK, smem, s->stream>>>(in, colbase, nrows, dres, out,
																   rowmap, write_sel, agg, group);
			GX_CHECK(cudaGetLastError(), "filter kernel launch");
		}
		if (rowmap)
		{
			gx_error_key_kernel<<<1, 1, 0, s->stream>>>(dres, rowmap, nrows);
			GX_CHECK(cudaGetLastError(), "error key kernel launch");
		}
	}
	return gx_slot_finish(s, c, dres, out, mapped, c->input_bytes, hdr_bytes,
						  !c->ext.count_only, err, errlen);
}

/*
 * AGG_READ (validated): sum the state object's stripes into the result
 * header, zero the state, copy the header back (copy mode, no input).
 */
gx_status
gx_gpu_agg_read(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	gx_agg_pair *state = (gx_agg_pair *) ctx->obj[0];
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	gx_status	st;

	if ((st = gx_slot_begin(s, c, dres, 0, 0, err, errlen)) != GX_OK)
		return st;
	gx_agg_read_kernel<<<1, GX_MAX_AGGS, 0, s->stream>>>(state, dres, c->ext.nagg);
	GX_CHECK(cudaGetLastError(), "aggregate read kernel launch");
	return gx_slot_finish(s, c, dres, (char *) dres, 0, 0, GX_ALIGN_UP(sizeof(gx_result)), 0,
						  err, errlen);
}

/*
 * OBJ_WRITE (validated): the task's bytes straight from its staging slot
 * into the object, on the slot's stream; the header comes back.
 */
gx_status
gx_gpu_obj_write(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	const gx_write_ext *w = &c->ext.write;
	gx_status	st;

	if ((st = gx_slot_begin(s, c, dres, 0, 0, err, errlen)) != GX_OK)
		return st;
	if (w->bytes > 0)
		GX_CHECK(cudaMemcpyAsync(ctx->obj[0] + w->dst, (const char *) c + w->src,
								 (size_t) w->bytes, cudaMemcpyHostToDevice, s->stream),
				 "cudaMemcpyAsync (object write)");
	return gx_slot_finish(s, c, dres, (char *) dres, 0, w->bytes,
						  GX_ALIGN_UP(sizeof(gx_result)), 0, err, errlen);
}

/*
 * OBJ_COPY (validated): each range of the source object into the
 * destination, one cudaMemcpyAsync a range on the slot's stream of the GPU
 * the task runs on (the destination's: the service submits the task
 * there), after the allocations it may name (gx_gpu_submit: the
 * destination's zeroing).  With unified addressing a source on a peer GPU
 * makes it a peer-to-peer copy (NVLink); the source was written by tasks
 * the backend waited for (a join table's FINISH).  The header comes back;
 * its kernel time is the copy's.
 */
gx_status
gx_gpu_obj_copy(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	const gx_copy_ext *x = &c->ext.copy;
	gx_status	st;

	if ((st = gx_slot_begin(s, c, dres, 0, 0, err, errlen)) != GX_OK)
		return st;
	for (uint32_t i = 0; i < x->nranges; i++)
		if (x->range[i].bytes > 0)
			GX_CHECK(cudaMemcpyAsync(ctx->obj[0] + x->range[i].dst, ctx->obj[1] + x->range[i].src,
									 (size_t) x->range[i].bytes, cudaMemcpyDefault, s->stream),
					 "cudaMemcpyAsync (object copy)");
	return gx_slot_finish(s, c, dres, (char *) dres, 0, 0, GX_ALIGN_UP(sizeof(gx_result)), 0,
						  err, errlen);
}

/*
 * GROUP_READ (validated): the READY slots of a range of a group table into
 * the result records; the header comes back, then nsel records (stage 2).
 */
gx_status
gx_gpu_group_read(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	uint32_t	sb = (uint32_t) gx_group_slot_bytes(c->ext.ngkeys, c->ext.nagg);
	uint32_t	grid = (c->nrows + GX_BLOCK - 1) / GX_BLOCK;
	gx_status	st;

	if (grid > (uint32_t) GD->sm_count * 8)
		grid = (uint32_t) GD->sm_count * 8;
	if ((st = gx_slot_begin(s, c, dres, 0, 0, err, errlen)) != GX_OK)
		return st;
	if (grid > 0)
	{
		gx_group_read_kernel<<<grid, GX_BLOCK, 0, s->stream>>>(
			ctx->obj[0], c->ext.row0, c->nrows, sb, c->ext.row0 + c->nrows == c->ext.ngroup_cap,
			(c->ext.gflags & GX_GROUP_DISCARD) != 0, dres,
			(char *) dres + GX_ALIGN_UP(sizeof(gx_result)));
		GX_CHECK(cudaGetLastError(), "group read kernel launch");
	}
	return gx_slot_finish(s, c, dres, (char *) dres, 0, 0, GX_ALIGN_UP(sizeof(gx_result)), 1,
						  err, errlen);
}

/*
 * GROUP_MERGE (validated): a range of the source table obj[1]'s groups
 * (a peer's, read in place) into the destination obj[0] on this GPU; the
 * header comes back, then the nsel records of the groups without room
 * (stage 2), as GROUP_READ's.
 */
gx_status
gx_gpu_group_merge(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	gx_gtab		dst = gx_gtab_global(ctx->obj[0], &c->ext);
	gx_gmerge_aggs aggs;
	uint32_t	grid = (c->nrows + GX_BLOCK - 1) / GX_BLOCK;
	gx_status	st;

	memcpy(aggs.a, c->ext.agg, sizeof(aggs.a));
	if (grid > (uint32_t) GD->sm_count * 8)
		grid = (uint32_t) GD->sm_count * 8;
	if ((st = gx_slot_begin(s, c, dres, 0, 0, err, errlen)) != GX_OK)
		return st;
	if (grid > 0)
	{
		gx_group_merge_kernel<<<grid, GX_BLOCK, 0, s->stream>>>(
			dst, ctx->obj[1] + sizeof(gx_group_hdr), c->ext.row0, c->nrows, aggs, dres,
			c->ext.count_only ? NULL : (char *) dres + GX_ALIGN_UP(sizeof(gx_result)));
		GX_CHECK(cudaGetLastError(), "group merge kernel launch");
	}
	return gx_slot_finish(s, c, dres, (char *) dres, 0, 0, GX_ALIGN_UP(sizeof(gx_result)),
						  !c->ext.count_only, err, errlen);
}

/*
 * The rows of a JOIN_BUILD / JOIN_PROBE task, after its input was copied
 * in: heap pages are deformed into the columns after the input first;
 * *colbase and *entry say where the kernels read the columns (the task's
 * copy, or the cache entry)
 */
static gx_status
gx_join_rows_input(gx_slot *s, const gx_chunk *c, const gx_task_ctx *ctx, gx_result *dres,
				   const char **colbase, const char **entry, char *err, size_t errlen)
{
	*entry = c->ext.entry >= 0 ? ctx->entry : NULL;
	*colbase = *entry != NULL ? *entry : s->dev;
	if (c->deform_off != 0 && c->nrows > 0)
	{
		uint32_t	dgrid = (c->nrows + GX_BLOCK - 1) / GX_BLOCK;

		if (dgrid > (uint32_t) GD->sm_count * 16)
			dgrid = (uint32_t) GD->sm_count * 16;
		gx_deform_kernel<<<dgrid, GX_BLOCK, 0, s->stream>>>(s->dev, s->dev, c->nrows, dres);
		GX_CHECK(cudaGetLastError(), "deform kernel launch");
	}
	return GX_OK;
}

/*
 * JOIN_BUILD (validated): copy the task in, add its rows to the table;
 * the header comes back, then the nsel rows selected for the host
 */
gx_status
gx_gpu_join_build(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	uint32_t	grid = (c->nrows + GX_BLOCK - 1) / GX_BLOCK;
	const char *colbase,
			   *entry;
	gx_status	st;

	if (grid > (uint32_t) GD->sm_count * 16)
		grid = (uint32_t) GD->sm_count * 16;
	if ((st = gx_slot_begin(s, c, dres, 0, c->input_bytes, err, errlen)) != GX_OK ||
		(st = gx_join_rows_input(s, c, ctx, dres, &colbase, &entry, err, errlen)) != GX_OK)
		return st;
	if (grid > 0)
	{
		gx_join_build_kernel<<<grid, GX_BLOCK, 0, s->stream>>>(
			s->dev, colbase, entry, ctx->obj[0], ctx->obj[GX_JOIN_OBJ_COLS], dres,
			(uint32_t *) ((char *) dres + GX_ALIGN_UP(sizeof(gx_result))));
		GX_CHECK(cudaGetLastError(), "join build kernel launch");
	}
	return gx_slot_finish(s, c, dres, (char *) dres, 0, c->input_bytes,
						  GX_ALIGN_UP(sizeof(gx_result)), 1, err, errlen);
}

/*
 * The start of a JOIN_FINISH_BUILD whose CUB call (what) needs temp bytes
 * of the table's reserved scratch: refused when it needs more; *grid
 * clamped; the slot begun
 */
static gx_status
gx_join_finish_begin(gx_slot *s, gx_chunk *c, gx_result *dres, const char *what, size_t temp,
					 uint64_t reserved, uint32_t *grid, char *err, size_t errlen)
{
	if (temp > reserved)
	{
		gx_errf(err, errlen, "join finish: %s needs %zu bytes, the table reserves %llu", what,
				temp, (unsigned long long) reserved);
		return GX_INVALID;
	}
	if (*grid > (uint32_t) GD->sm_count * 16)
		*grid = (uint32_t) GD->sm_count * 16;
	return gx_slot_begin(s, c, dres, 0, 0, err, errlen);
}

/*
 * Range JOIN_FINISH_BUILD (validated; gx_jrange.cuh): pad the entries
 * past the appended rows, cub::DeviceRadixSort::SortPairs of all cap
 * (key, payload) entries (the double-buffer form over key / pay and skey /
 * run: its temporary storage is the table's scratch, CUB's figure checked
 * against it), the sorted entries into skey / run where CUB left them in
 * key / pay, and the seal; the header comes back
 */
static gx_status
gx_gpu_jrange_finish(gx_slot *s, gx_chunk *c, gx_result *dres, char *obj, char *err,
					 size_t errlen)
{
	const gx_join_ext j = c->ext.join;
	gx_jrange_offs o;
	size_t		temp = 0;
	uint32_t	grid = (j.cap + GX_BLOCK - 1) / GX_BLOCK;
	int64_t    *skey,
			   *run;
	gx_status	st;

	gx_jrange_layout(j.cap, &o);
	skey = (int64_t *) (obj + o.skey);
	run = (int64_t *) (obj + o.run);

	cub::DoubleBuffer<int64_t> keys((int64_t *) (obj + o.key), skey);
	cub::DoubleBuffer<int64_t> vals((int64_t *) (obj + o.pay), run);

	GX_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp, keys, vals, (int) j.cap, 0, 64,
											 s->stream), "cub::DeviceRadixSort (size)");
	if ((st = gx_join_finish_begin(s, c, dres, "the sort", temp, o.scratch_bytes, &grid, err,
								   errlen)) != GX_OK)
		return st;
	gx_jrange_pad_kernel<<<grid, GX_BLOCK, 0, s->stream>>>(obj, j);
	GX_CHECK(cudaGetLastError(), "range join pad kernel launch");
	GX_CHECK(cub::DeviceRadixSort::SortPairs(obj + o.scratch, temp, keys, vals, (int) j.cap, 0,
											 64, s->stream), "cub::DeviceRadixSort");
	if (keys.Current() != skey)
		GX_CHECK(cudaMemcpyAsync(skey, keys.Current(), (size_t) j.cap * 8,
								 cudaMemcpyDeviceToDevice, s->stream), "range join copy");
	if (vals.Current() != run)
		GX_CHECK(cudaMemcpyAsync(run, vals.Current(), (size_t) j.cap * 8,
								 cudaMemcpyDeviceToDevice, s->stream), "range join copy");
	gx_join_seal_kernel<<<1, 1, 0, s->stream>>>(obj, j, dres);
	GX_CHECK(cudaGetLastError(), "join seal kernel launch");
	return gx_slot_finish(s, c, dres, (char *) dres, 0, 0, GX_ALIGN_UP(sizeof(gx_result)), 0,
						  err, errlen);
}

/* a grid of blocks of GX_BLOCK threads for n items, at most 16 blocks an SM */
static uint32_t
gx_jm_grid(uint64_t n)
{
	uint64_t	grid = (n + GX_BLOCK - 1) / GX_BLOCK;

	if (grid > (uint64_t) GD->sm_count * 16)
		grid = (uint64_t) GD->sm_count * 16;
	return grid > 0 ? (uint32_t) grid : 1;
}

/* the temporary bytes the merge join's sort of n entries asks of CUB (*bytes) */
static gx_status
gx_jm_sort_temp(uint32_t n, size_t *bytes, char *err, size_t errlen)
{
	cub::DoubleBuffer<int64_t> kb(NULL, NULL);
	cub::DoubleBuffer<uint32_t> vb(NULL, NULL);

	*bytes = 0;
	GX_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, *bytes, kb, vb, (int) n, 0, 64),
			 "cub::DeviceRadixSort (size)");
	return GX_OK;
}

/*
 * The merge join's sort (gx_jmerge.cuh) on stream st: n entries whose
 * first pass's keys are in kx and indexes in vx (the identity): one
 * stable cub::DeviceRadixSort::SortPairs pass, and with two keys (k0, the
 * first keys by index; nvalid on the device: how many indexes are valid,
 * or NULL: all) a second over the first keys gathered in the order of the
 * first.  *keys: the sorted first keys, *perm: the sorted indexes; the
 * other buffers are free.  temp: temp_bytes, checked by the caller.
 */
static gx_status
gx_jm_sort(cudaStream_t st, uint32_t n, const int64_t *k0, const uint32_t *nvalid, int64_t *kx,
		   int64_t *ky, uint32_t *vx, uint32_t *vy, char *temp, size_t temp_bytes, int64_t **keys,
		   uint32_t **perm, char *err, size_t errlen)
{
	cub::DoubleBuffer<int64_t> kb(kx, ky);
	cub::DoubleBuffer<uint32_t> vb(vx, vy);
	size_t		bytes = temp_bytes;

	GX_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, kb, vb, (int) n, 0, 64, st),
			 "cub::DeviceRadixSort");
	if (k0 != NULL)
	{
		gx_jm_gather_key_kernel<<<gx_jm_grid(n), GX_BLOCK, 0, st>>>(k0, vb.Current(),
																	kb.Alternate(), n, nvalid);
		GX_CHECK(cudaGetLastError(), "merge join gather kernel launch");
		kb.selector ^= 1;
		bytes = temp_bytes;
		GX_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, kb, vb, (int) n, 0, 64, st),
				 "cub::DeviceRadixSort");
	}
	*keys = kb.Current();
	*perm = vb.Current();
	return GX_OK;
}

/*
 * Merge JOIN_FINISH_BUILD (validated; gx_jmerge.cuh): all cap entries
 * sorted (those past the appended rows with the largest key: gx_jm_sort
 * in the table's kx / ky / vx / vy), the sorted keys and payloads
 * gathered with the head flags, cub::DeviceScan::InclusiveSum of the
 * flags into urow, the distinct keys encoded, the seal; CUB's temporary
 * storage is the table's scratch (its figures checked against it); the
 * header comes back
 */
static gx_status
gx_gpu_jmerge_finish(gx_slot *s, gx_chunk *c, gx_result *dres, char *obj, char *err,
					 size_t errlen)
{
	const gx_join_ext j = c->ext.join;
	gx_jmerge_offs o;
	size_t		temp = 0,
				scan = 0;
	uint32_t	grid = (j.cap + GX_BLOCK - 1) / GX_BLOCK;
	int64_t    *keys;
	uint32_t   *perm;
	uint32_t   *flags;
	gx_status	st;

	gx_jmerge_layout(j.cap, &o);
	if ((st = gx_jm_sort_temp(j.cap, &temp, err, errlen)) != GX_OK)
		return st;
	GX_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan, (const uint32_t *) NULL,
										   (uint32_t *) NULL, (int) j.cap),
			 "cub::DeviceScan (size)");
	if ((st = gx_join_finish_begin(s, c, dres, "the sort", temp > scan ? temp : scan,
								   o.scratch_bytes, &grid, err, errlen)) != GX_OK)
		return st;
	gx_jm_finish_init_kernel<<<grid, GX_BLOCK, 0, s->stream>>>(obj, j, (int64_t *) (obj + o.kx),
															   (uint32_t *) (obj + o.vx));
	GX_CHECK(cudaGetLastError(), "merge join init kernel launch");
	if ((st = gx_jm_sort(s->stream, j.cap, j.nkeys > 1 ? (const int64_t *) (obj + o.key0) : NULL,
						 (const uint32_t *) obj /* hdr.nrows */ , (int64_t *) (obj + o.kx),
						 (int64_t *) (obj + o.ky), (uint32_t *) (obj + o.vx),
						 (uint32_t *) (obj + o.vy), obj + o.scratch, o.scratch_bytes, &keys,
						 &perm, err, errlen)) != GX_OK)
		return st;
	flags = perm == (uint32_t *) (obj + o.vx) ? (uint32_t *) (obj + o.vy) :
		(uint32_t *) (obj + o.vx);
	gx_jm_finish_gather_kernel<<<grid, GX_BLOCK, 0, s->stream>>>(obj, j, perm, flags);
	GX_CHECK(cudaGetLastError(), "merge join gather kernel launch");
	GX_CHECK(cub::DeviceScan::InclusiveSum(obj + o.scratch, scan, flags,
										   (uint32_t *) (obj + o.urow), (int) j.cap, s->stream),
			 "cub::DeviceScan");
	gx_jm_finish_encode_kernel<<<grid, GX_BLOCK, 0, s->stream>>>(obj, j, flags);
	GX_CHECK(cudaGetLastError(), "merge join encode kernel launch");
	gx_join_seal_kernel<<<1, 1, 0, s->stream>>>(obj, j, dres);
	GX_CHECK(cudaGetLastError(), "join seal kernel launch");
	return gx_slot_finish(s, c, dres, (char *) dres, 0, 0, GX_ALIGN_UP(sizeof(gx_result)), 0,
						  err, errlen);
}

/*
 * Merge JOIN_PROBE's steps before the phases (gx_jmerge.cuh), queued
 * after the rows' input: extract (the rows' keys and states into the
 * scratch, of the result area or the object mscratch: gx_jmerge_scratch), sort (gx_jm_sort; with two keys the
 * sorted second keys gathered), merge (the runs into the rows' entries)
 */
static gx_status
gx_gpu_jmerge_probe(gx_slot *s, gx_chunk *c, gx_result *dres, char *obj, char *mscratch,
					const char *colbase, const char *entry, size_t temp, char *err,
					size_t errlen)
{
	const uint32_t n = c->nrows;
	const gx_join_ext j = c->ext.join;
	gx_jmerge_probe_offs o;
	char	   *scratch = gx_jmerge_scratch(&j, (char *) dres, mscratch, n);
	int64_t    *ok0,
			   *ok1,
			   *kx,
			   *ky,
			   *keys,
			   *a1 = NULL;
	uint32_t   *vx,
			   *vy,
			   *perm;
	gx_jmerge_row *mrow;
	gx_status	st;

	gx_jmerge_probe_layout(n, &o);
	ok0 = (int64_t *) (scratch + o.ok0);
	ok1 = (int64_t *) (scratch + o.ok1);
	kx = (int64_t *) (scratch + o.kx);
	ky = (int64_t *) (scratch + o.ky);
	vx = (uint32_t *) (scratch + o.vx);
	vy = (uint32_t *) (scratch + o.vy);
	mrow = (gx_jmerge_row *) (scratch + o.mrow);
	gx_jm_extract_kernel<<<gx_jm_grid(n), GX_BLOCK, 0, s->stream>>>(s->dev, colbase, entry, obj,
																	dres, ok0, ok1, kx, vx, mrow);
	GX_CHECK(cudaGetLastError(), "merge join extract kernel launch");
	if ((st = gx_jm_sort(s->stream, n, j.nkeys > 1 ? ok0 : NULL, NULL, kx, ky, vx, vy,
						 scratch + o.scratch, temp, &keys, &perm, err, errlen)) != GX_OK)
		return st;
	if (j.nkeys > 1)
	{
		a1 = keys == kx ? ky : kx;
		gx_jm_gather_key_kernel<<<gx_jm_grid(n), GX_BLOCK, 0, s->stream>>>(ok1, perm, a1, n,
																		   NULL);
		GX_CHECK(cudaGetLastError(), "merge join gather kernel launch");
	}
	/* (the parts: at most ceil(n / GX_JM_APART), gx_jmerge_part_len) */
	gx_jm_merge_kernel<<<gx_jm_grid(((uint64_t) n + GX_JM_APART - 1) / GX_JM_APART), GX_BLOCK, 0,
		s->stream>>>(obj, j, keys, a1, perm, n, mrow);
	GX_CHECK(cudaGetLastError(), "merge join merge kernel launch");
	return GX_OK;
}

/*
 * JOIN_FINISH_BUILD (validated): kstart = the exclusive prefix sum of
 * kcount (cub::DeviceScan, its temporary storage in the table object),
 * the staged rows into their runs (neither with GX_JOIN_NO_RUNS), the
 * table sealed; a range join's table sorted instead; the header comes back
 */
gx_status
gx_gpu_join_finish(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	const gx_join_ext j = c->ext.join;
	gx_join_offs o;
	size_t		temp = 0;
	uint32_t	grid = (j.cap + GX_BLOCK - 1) / GX_BLOCK;
	char	   *obj = ctx->obj[0];
	gx_status	st;

	if (j.alg == GX_JOIN_RANGE)
		return gx_gpu_jrange_finish(s, c, dres, obj, err, errlen);
	if (j.alg == GX_JOIN_MERGE)
		return gx_gpu_jmerge_finish(s, c, dres, obj, err, errlen);
	gx_join_layout(j.cap, j.kcap, &o);
	GX_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp, (const uint32_t *) (obj + o.kcount),
										   (uint32_t *) (obj + o.kstart), (int) j.kcap,
										   s->stream), "cub::DeviceScan (size)");
	if ((st = gx_join_finish_begin(s, c, dres, "the prefix sum", temp, o.scratch_bytes, &grid,
								   err, errlen)) != GX_OK)
		return st;
	if (!(j.jflags & GX_JOIN_NO_RUNS))
	{
		GX_CHECK(cub::DeviceScan::ExclusiveSum(obj + o.scratch, temp,
											   (const uint32_t *) (obj + o.kcount),
											   (uint32_t *) (obj + o.kstart), (int) j.kcap,
											   s->stream), "cub::DeviceScan");
		gx_join_place_kernel<<<grid, GX_BLOCK, 0, s->stream>>>(obj, j);
		GX_CHECK(cudaGetLastError(), "join place kernel launch");
	}
	gx_join_seal_kernel<<<1, 1, 0, s->stream>>>(obj, j, dres);
	GX_CHECK(cudaGetLastError(), "join seal kernel launch");
	return gx_slot_finish(s, c, dres, (char *) dres, 0, 0, GX_ALIGN_UP(sizeof(gx_result)), 0,
						  err, errlen);
}

/*
 * JOIN_PROBE (validated): copy the task in; count, prefix sum over the
 * tiles, [end of the pass], write; the header comes back, then the nsel
 * entries (gx_gpu_poll, sel_at)
 */
gx_status
gx_gpu_join_probe(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	const uint32_t nrows = c->nrows;
	const uint32_t ntiles = gx_ntiles(nrows);
	unsigned long long *te = (unsigned long long *) ((char *) dres + gx_join_tiles_off());
	unsigned long long *tm = te + ntiles;
	gx_join_pair *pairs = (gx_join_pair *) ((char *) dres +
											gx_join_pairs_off(nrows,
															  gx_join_res_alg(&c->ext.join)));
	const gx_join_ext *j = &c->ext.join;
	/* a gathering probe's columns after the entries (ngather > 0: not a group probe) */
	int64_t    *gval = j->ngather > 0 ?
		(int64_t *) ((char *) dres + gx_join_gather_off(nrows, j->max_pairs,
														gx_join_res_alg(j))) : NULL;
	uint8_t    *gnull = j->ngather > 0 ?
		(uint8_t *) dres + gx_join_gather_nulls_off(nrows, j->max_pairs, gx_join_res_alg(j),
													j->ngather) : NULL;
	uint32_t	grid = ntiles;
	char	   *obj = ctx->obj[0];
	char	   *mscratch = ctx->obj[GX_JOIN_OBJ_MSCRATCH];	/* (GX_JOIN_MSCRATCH, validated) */
	const char *colbase,
			   *entry;
	size_t		temp = 0;
	gx_status	st;

	if (grid > (uint32_t) GD->sm_count * 8)
		grid = (uint32_t) GD->sm_count * 8;
	if (c->ext.join.alg == GX_JOIN_MERGE)
	{
		gx_jmerge_probe_offs o;

		/* (the batch's sort: CUB's temporary storage in the task's scratch) */
		gx_jmerge_probe_layout(nrows, &o);
		if ((st = gx_jm_sort_temp(nrows, &temp, err, errlen)) != GX_OK)
			return st;
		if (temp > o.scratch_bytes)
		{
			gx_errf(err, errlen, "merge join probe: the sort needs %zu bytes, the task reserves %llu",
					temp, (unsigned long long) o.scratch_bytes);
			return GX_INVALID;
		}
	}
	if ((st = gx_slot_begin(s, c, dres, ntiles, c->input_bytes, err, errlen)) != GX_OK ||
		(st = gx_join_rows_input(s, c, ctx, dres, &colbase, &entry, err, errlen)) != GX_OK)
		return st;
	if (ntiles > 0 && c->ext.join.alg == GX_JOIN_MERGE &&
		(st = gx_gpu_jmerge_probe(s, c, dres, obj, mscratch, colbase, entry, temp, err,
								  errlen)) != GX_OK)
		return st;
	if (c->ext.ngroup_cap > 0)
	{
		/* a group probe: its pairs into the group table, the header comes back */
		uint32_t	ggrid = (nrows + GX_BLOCK - 1) / GX_BLOCK;

		if (ggrid > (uint32_t) GD->sm_count * 8)
			ggrid = (uint32_t) GD->sm_count * 8;
		if (ggrid > 0)
		{
			gx_join_group_kernel<<<ggrid, GX_BLOCK, GX_GROUP_SMEM, s->stream>>>(
				s->dev, colbase, entry, obj, ctx->obj[GX_JOIN_OBJ_COLS],
				ctx->obj[GX_JOIN_OBJ_GROUP], dres, mscratch, gx_jlevel_objs_of(ctx));
			GX_CHECK(cudaGetLastError(), "join group kernel launch");
		}
		return gx_slot_finish(s, c, dres, (char *) dres, 0, c->input_bytes,
							  GX_ALIGN_UP(sizeof(gx_result)), 0, err, errlen);
	}
	if (ntiles > 0)
	{
		gx_join_count_kernel<<<grid, GX_BLOCK, 0, s->stream>>>(s->dev, colbase, entry, obj,
															   dres, te, tm, mscratch);
		GX_CHECK(cudaGetLastError(), "join count kernel launch");
		gx_join_tile_scan_kernel<<<1, GX_JOIN_SCAN_THREADS, 0, s->stream>>>(
			dres, te, tm, ntiles, nrows, c->ext.join.max_pairs);
		GX_CHECK(cudaGetLastError(), "join scan kernel launch");
		gx_join_pass_end_kernel<<<1, GX_BLOCK, 0, s->stream>>>(s->dev, colbase, entry, obj,
															   dres, te, tm, mscratch);
		GX_CHECK(cudaGetLastError(), "join pass end kernel launch");
		gx_join_write_kernel<<<grid, GX_BLOCK, 0, s->stream>>>(
			s->dev, colbase, entry, obj, dres, te, pairs, mscratch, ctx->obj[GX_JOIN_OBJ_COLS],
			gval, gnull);
		GX_CHECK(cudaGetLastError(), "join write kernel launch");
	}
	/* (no rows: the reset header is the complete pass, next_row = 0) */
	return gx_slot_finish(s, c, dres, (char *) dres, 0, c->input_bytes,
						  GX_ALIGN_UP(sizeof(gx_result)), 1, err, errlen);
}

/*
 * JOIN_UNMATCHED (validated): the unmatched payloads of a range of the
 * table's placed rows; the header comes back, then the nsel payloads
 * (none when count_only)
 */
gx_status
gx_gpu_join_unmatched(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	uint32_t	grid = (c->nrows + GX_BLOCK - 1) / GX_BLOCK;
	int64_t    *out = c->ext.count_only ? NULL :
		(int64_t *) ((char *) dres + gx_join_unmatched_off());
	gx_status	st;

	if (grid > (uint32_t) GD->sm_count * 16)
		grid = (uint32_t) GD->sm_count * 16;
	if ((st = gx_slot_begin(s, c, dres, 0, 0, err, errlen)) != GX_OK)
		return st;
	if (grid > 0)
	{
		gx_join_unmatched_kernel<<<grid, GX_BLOCK, 0, s->stream>>>(ctx->obj[0], c->ext.join,
																   c->nrows, dres, out);
		GX_CHECK(cudaGetLastError(), "join unmatched kernel launch");
	}
	return gx_slot_finish(s, c, dres, (char *) dres, 0, 0, GX_ALIGN_UP(sizeof(gx_result)),
						  !c->ext.count_only, err, errlen);
}

/* ---------------------------------------------------------------------- */
/* SEARCH (gx_search.cuh)                                                 */
/* ---------------------------------------------------------------------- */

#define GX_SEARCH_BLOCK 256		/* threads a block: 256 / P probes */

typedef cub::BlockReduce<unsigned long long, GX_SEARCH_BLOCK> gx_search_reduce;

/*
 * SEARCH: the probes of this block's groups of P lanes (L: a tile of P
 * threads, or one thread for P = 1), 256 / P probes a block; lane 0
 * writes the probe's run, the block's counts go to join_count with one
 * atomic add.  A table that is not sealed is an error at row 0.
 */
template <uint32_t P, class L>
__device__ __forceinline__ void
gx_search_block(const L &lanes, const gx_search_in &in, uint32_t nrows, gx_result *res,
				gx_search_run *out)
{
	__shared__ typename gx_search_reduce::TempStorage tmp;
	const uint64_t probe = ((uint64_t) blockIdx.x * GX_SEARCH_BLOCK + threadIdx.x) / P;
	unsigned long long cnt = 0;

	if (!in.hdr->built)
	{
		if (blockIdx.x == 0 && threadIdx.x == 0)
			res->error = ((uint64_t) 0 << 8) | GX_ERR_BAD_PROGRAM;	/* not finished */
		return;					/* (every thread: the table is one) */
	}
	/* (the P lanes of a group share the probe: whole groups pass) */
	if (probe < nrows)
	{
		gx_search_run r = gx_search_probe(lanes, &in, gx_search_rows(&in), (uint32_t) probe);

		if (threadIdx.x % P == 0)
		{
			out[probe] = r;
			cnt = r.count;
		}
	}
	cnt = gx_search_reduce(tmp).Sum(cnt);
	if (threadIdx.x == 0 && cnt != 0)
		atomicAdd((unsigned long long *) &res->join_count, cnt);
	if (blockIdx.x == 0 && threadIdx.x == 0)
		res->nsel = nrows;
}

/*
 * SEARCH of P lanes a probe: P = 1, binary search, a thread each; else
 * p-ary search, a tile of P threads each (made by every thread of the
 * block)
 */
template <uint32_t P>
__global__ void __launch_bounds__(GX_SEARCH_BLOCK)
gx_search_kernel(gx_search_in in, uint32_t nrows, gx_result *res, gx_search_run *out)
{
	if constexpr (P == 1)
		gx_search_block<P>(gx_lanes_loop<1>(), in, nrows, res, out);
	else
	{
		const gx_lanes_tile<P> lanes = {cg::tiled_partition<P>(cg::this_thread_block())};

		gx_search_block<P>(lanes, in, nrows, res, out);
	}
}

/*
 * SEARCH (validated): copy the probes in, the search kernel of the task's
 * algorithm and lanes; the header comes back, then the nsel runs
 * (gx_gpu_poll, sel_at)
 */
gx_status
gx_gpu_search(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	gx_search_run *out = (gx_search_run *) ((char *) dres + gx_search_runs_off());
	const gx_search_in in = gx_search_in_of(c, s->dev, ctx->obj[0]);
	const uint32_t p = c->ext.search.alg == GX_SEARCH_PARY ? c->ext.search.lanes : 1;
	/* (at least one block: a task without probes still checks the seal, as the CPU's) */
	const uint64_t grid = ((uint64_t) c->nrows * p + GX_SEARCH_BLOCK - 1) / GX_SEARCH_BLOCK;
	void		(*kernel) (gx_search_in, uint32_t, gx_result *, gx_search_run *) =
		p == 2 ? gx_search_kernel<2> : p == 4 ? gx_search_kernel<4> :
		p == 8 ? gx_search_kernel<8> : p == 16 ? gx_search_kernel<16> :
		p == 32 ? gx_search_kernel<32> : gx_search_kernel<1>;
	gx_status	st;

	if ((st = gx_slot_begin(s, c, dres, 0, c->input_bytes, err, errlen)) != GX_OK)
		return st;
	kernel<<<grid > 0 ? (uint32_t) grid : 1u, GX_SEARCH_BLOCK, 0, s->stream>>>(in, c->nrows,
																			 dres, out);
	GX_CHECK(cudaGetLastError(), "search kernel launch");
	return gx_slot_finish(s, c, dres, (char *) dres, 0, c->input_bytes,
						  GX_ALIGN_UP(sizeof(gx_result)), 1, err, errlen);
}

/* ---------------------------------------------------------------------- */
/* TREE_LOOKUP (gx_ptree.cuh)                                             */
/* ---------------------------------------------------------------------- */

/*
 * TREE_LOOKUP with P threads a key (256 / P keys a block): P = 1, the
 * walk from the root; else lane j runs partition j, the tile's results go
 * to shared memory, each lane checks whether its HIT resolves the key
 * (gx_pt_resolves, all lanes at once) and the one that does, or lane 0
 * when none does, writes the run; the block's counts go to join_count
 * with one atomic add
 */
template <uint32_t P>
__global__ void __launch_bounds__(GX_SEARCH_BLOCK)
gx_tree_kernel(gx_pt_in in, uint32_t nrows, gx_result *res, gx_search_run *out)
{
	__shared__ typename gx_search_reduce::TempStorage tmp;
	__shared__ gx_pt_part parts[GX_SEARCH_BLOCK];
	const uint64_t key = ((uint64_t) blockIdx.x * GX_SEARCH_BLOCK + threadIdx.x) / P;
	unsigned long long cnt = 0;

	if constexpr (P == 1)
	{
		if (key < nrows)
		{
			out[key] = gx_pt_lookup(&in, (uint32_t) key);
			cnt = out[key].count;
		}
	}
	else
	{
		const cg::thread_block_tile<P> t = cg::tiled_partition<P>(cg::this_thread_block());
		const uint32_t j = t.thread_rank();
		const gx_pt_part *mine = &parts[threadIdx.x - j];
		gx_search_run r = {0, 0};
		int64_t		v = 0;
		bool		ok = false;

		/* (the P lanes of a key share it: whole tiles pass) */
		if (key < nrows && !gx_pt_key(&in, (uint32_t) key, &v))
		{
			parts[threadIdx.x] = gx_pt_partition(&in, j, v);
			t.sync();
			ok = gx_pt_resolves(mine, j);
		}
		if (key < nrows)
		{
			const uint32_t won = t.ballot(ok);

			if (ok)
				r = gx_pt_leaf_run(&in, mine[j].target, v);
			if (ok || (won == 0 && j == 0))
			{
				out[key] = r;
				cnt = r.count;
			}
		}
	}
	cnt = gx_search_reduce(tmp).Sum(cnt);
	if (threadIdx.x == 0 && cnt != 0)
		atomicAdd((unsigned long long *) &res->join_count, cnt);
	if (blockIdx.x == 0 && threadIdx.x == 0)
		res->nsel = nrows;
}

/*
 * TREE_LOOKUP (validated): copy the keys in, the kernel of the task's
 * algorithm and partitions; the header comes back, then the runs
 */
gx_status
gx_gpu_tree_lookup(int slot, gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_slot    *s = &GD->slots[slot];
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	gx_search_run *out = (gx_search_run *) ((char *) dres + gx_search_runs_off());
	const gx_pt_in in = gx_pt_in_of(c, s->dev, ctx->obj[0]);
	const uint32_t p = in.parts;
	const uint64_t grid = ((uint64_t) c->nrows * p + GX_SEARCH_BLOCK - 1) / GX_SEARCH_BLOCK;
	void		(*kernel) (gx_pt_in, uint32_t, gx_result *, gx_search_run *) =
		p == 2 ? gx_tree_kernel<2> : p == 4 ? gx_tree_kernel<4> :
		p == 8 ? gx_tree_kernel<8> : p == 16 ? gx_tree_kernel<16> : gx_tree_kernel<1>;
	gx_status	st;

	if ((st = gx_slot_begin(s, c, dres, 0, c->input_bytes, err, errlen)) != GX_OK)
		return st;
	kernel<<<grid > 0 ? (uint32_t) grid : 1u, GX_SEARCH_BLOCK, 0, s->stream>>>(in, c->nrows,
																			 dres, out);
	GX_CHECK(cudaGetLastError(), "tree lookup kernel launch");
	return gx_slot_finish(s, c, dres, (char *) dres, 0, c->input_bytes,
						  GX_ALIGN_UP(sizeof(gx_result)), 1, err, errlen);
}

/* ---------------------------------------------------------------------- */
/* per GPU                                                                */
/* ---------------------------------------------------------------------- */

/*
 * At a GPU's open (it is current): a filter block's dynamic shared memory
 * may hold a group table and the big sets' top keys; function attributes
 * are set for the current device, so every GPU sets them
 */
gx_status
gx_gpu_kernels_init(char *err, size_t errlen)
{
	GX_CHECK(cudaFuncSetAttribute(gx_filter_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
								  GX_FILTER_SMEM_MAX), "filter kernel shared memory");
	return GX_OK;
}
