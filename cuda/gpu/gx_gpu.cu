/*
 * gx_gpu.cu - the GPU device: runs a chunk's filter program (gx_program.h)
 * with the shared opcode interpreter (gx_eval.cuh) and writes the same
 * result layout as the CPU device (gx_cpu.cpp).
 *
 * Per staging slot there is one device buffer, one non-blocking stream and
 * a few timing events.  A chunk runs in one of two transfer modes
 * (gx_chunk.flags; the mode that ran goes to gx_result.flags):
 *
 * copy (default): gx_gpu_submit() queues, on the slot's stream:
 *   H2D copy of the chunk input -> reset of the device result header ->
 *   [deform kernel, for a chunk of raw heap pages] -> fused filter kernel
 *   -> D2H copy of the result header + seg arrays.
 * gx_gpu_poll() waits for that first copy, reads nsel and then queues the
 * D2H copy of sel[0..nsel); the slot is done once that copy completes.
 *
 * mapped (GX_CHUNK_MAPPED; zero-copy): gx_gpu_open() registers the staging
 * area with cudaHostRegisterMapped and takes its device alias
 * (cudaHostGetDevicePointer); if that fails the area is only pinned and
 * mapped chunks run in copy mode.  No copy is queued: reset -> [deform] ->
 * filter -> publish kernels read the chunk input from host memory through
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
 * (chunk header, program, page images, row map, backend-deformed columns),
 * 'colbase' (where column offsets point: device-deformed columns, or 'in'
 * for backend-deformed chunks), the device result header 'dres' (atomics)
 * and 'out' (where the result area is written).  In copy mode all of them
 * point into the slot's device buffer and out == dres.
 *
 * The kernel runs one block of GX_BLOCK threads per tile of GX_TILE_ROWS
 * rows; thread t evaluates rows tile_base + t + k * GX_BLOCK, so column
 * loads are coalesced.  Rows passing are compacted in row order inside the
 * tile (warp ballots + a scan of the per-32-row counts) into shared memory,
 * one atomicAdd per tile reserves the tile's range of sel, and the block
 * writes the range with consecutive threads.  Like the CPU device, rows of
 * a tile after its first erroring row are not selected.
 *
 * No PostgreSQL header, no C++ exception leaves this file.
 */
#include "gx_api.h"
#include "gx_eval.cuh"
#include "gx_filter.cuh"
#include "gx_deform.cuh"
#include "gx_cache.cuh"
#include "gx_jit.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>


/* ---------------------------------------------------------------------- */
/* kernels                                                                */
/* ---------------------------------------------------------------------- */

/* reset the device result header of a chunk of ntiles tiles */
__global__ void
gx_reset_kernel(gx_result *res, uint32_t ntiles)
{
	res->error = GX_NO_ERROR;
	res->nsel = 0;
	res->ntiles = ntiles;
	res->flags = 0;
	res->pad = 0;
	res->error_key = 0;
	res->pad2 = 0;
	for (int a = 0; a < GX_MAX_AGGS; a++)
	{
		res->agg_val[a] = 0;
		res->agg_cnt[a] = 0;
	}
	res->h2d_ns = 0;
	res->kernel_ns = 0;
	res->d2h_ns = 0;
	res->bytes_h2d = 0;
	res->bytes_d2h = 0;
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
	eval(const gx_chunk *c, const char *base, uint32_t row, int *err)
	{
		return gx_eval_row_at(c, base, row, err);
	}
};

/* the filter kernel with the opcode interpreter (gx_filter.cuh) */
__global__ void __launch_bounds__(GX_BLOCK)
gx_filter_kernel(const char *__restrict__ in, const char *__restrict__ colbase,
				 uint32_t nrows, gx_result *res, char *out,
				 const uint32_t *__restrict__ rowmap, int write_sel)
{
	gx_filter_tiles<gx_interp_eval>(in, colbase, nrows, res, out, rowmap, write_sel);
}

/*
 * Cache LOAD: append the deformed rows of a chunk to its entry (one thread
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
 * after the filter kernel, on the same stream.
 */
__global__ void
gx_publish_kernel(const gx_result *dres, gx_result *hres)
{
	hres->error = dres->error;
	hres->nsel = dres->nsel;
	hres->ntiles = dres->ntiles;
	hres->error_key = dres->error_key;
	for (int a = 0; a < GX_MAX_AGGS; a++)
	{
		hres->agg_val[a] = dres->agg_val[a];
		hres->agg_cnt[a] = dres->agg_cnt[a];
	}
	hres->flags = 0;
	hres->pad = 0;
	hres->h2d_ns = 0;
	hres->kernel_ns = 0;
	hres->d2h_ns = 0;
	hres->bytes_h2d = 0;
	hres->bytes_d2h = 0;
}

/* ---------------------------------------------------------------------- */
/* host side                                                              */
/* ---------------------------------------------------------------------- */

enum gx_slot_state
{
	GX_SLOT_IDLE = 0,
	GX_SLOT_STAGE1,				/* copy: input copy, kernels, header copy queued */
	GX_SLOT_STAGE2,				/* copy: sel copy queued */
	GX_SLOT_MAPPED,				/* mapped: kernels queued, no copy */
	GX_SLOT_DONE
};

enum
{
	GX_EV_H2D_START = 0,
	GX_EV_H2D_END,				/* copy: also the start of the kernels */
	GX_EV_KERNEL_START,			/* mapped: before the first kernel */
	GX_EV_KERNEL_END,			/* after the last kernel */
	GX_EV_S1_END,
	GX_EV_S2_START,
	GX_EV_S2_END,
	GX_NEVENTS
};

typedef struct gx_slot
{
	char	   *dev;			/* device buffer of slot_bytes */
	cudaStream_t stream;
	cudaEvent_t ev[GX_NEVENTS];
	int			state;
	int			jit;			/* the filter ran a compiled kernel */
	uint64_t	bytes_h2d;
	uint64_t	bytes_d2h;
} gx_slot;

static struct
{
	int			open;
	char	   *staging;
	int			nslots;
	size_t		slot_bytes;
	int			pinned;			/* staging area registered with CUDA */
	int			mapped;			/* ... and mapped: staging_dev is its alias */
	char	   *staging_dev;	/* device address of the staging area */
	int			sm_count;
	gx_slot    *slots;
	char	   *cache_base;		/* cache pool: cache_nunits entries */
	int			cache_nunits;
	size_t		cache_unit;
} G;

/* write the message of CUDA error e in 'what' to err; returns GX_CUDA_ERROR */
static gx_status
gx_cuda_fail(cudaError_t e, const char *what, char *err, size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "CUDA error in %s: %s (%s)", what,
				 cudaGetErrorString(e), cudaGetErrorName(e));
	return GX_CUDA_ERROR;
}

#define GX_CHECK(call, what) \
	do { \
		cudaError_t gx_e_ = (call); \
		if (gx_e_ != cudaSuccess) \
			return gx_cuda_fail(gx_e_, (what), err, errlen); \
	} while (0)

/* release everything gx_gpu_open() took (also after a partial open) */
static void
gx_release_all(void)
{
	if (G.slots)
	{
		for (int i = 0; i < G.nslots; i++)
		{
			gx_slot    *s = &G.slots[i];

			if (s->stream)
			{
				cudaStreamSynchronize(s->stream);
				cudaStreamDestroy(s->stream);
			}
			for (int j = 0; j < GX_NEVENTS; j++)
				if (s->ev[j])
					cudaEventDestroy(s->ev[j]);
			if (s->dev)
				cudaFree(s->dev);
		}
		delete[] G.slots;
	}
	gx_jit_close();				/* no kernel runs any more */
	if (G.pinned)
		cudaHostUnregister(G.staging);
	if (G.cache_base)
		cudaFree(G.cache_base);
	cudaGetLastError();			/* clear non-sticky errors of the above */
	memset(&G, 0, sizeof(G));
}

/* JIT counters of this process (gx_jit.h) */
extern "C" void
gx_gpu_jit_stats(uint64_t *compiled, uint64_t *failed, double *compile_ms,
				 char *last_error, size_t errlen)
{
	uint64_t	known;

	gx_jit_stats(compiled, failed, &known, compile_ms, last_error, errlen);
}

/* this build carries the CUDA kernels */
extern "C" int
gx_gpu_built(void)
{
	return 1;
}

/*
 * Open GPU 0: context, registration of the staging area (mapped when
 * possible), one device buffer, stream and event set per slot.  On success
 * err may hold a warning (pinning or mapping failed: slower or copy only).
 */
extern "C" gx_status
gx_gpu_open(void *staging, int nslots, size_t slot_bytes, gx_gpu_info *info,
			char *err, size_t errlen)
{
	int			ndev = 0;
	cudaError_t e;
	char		warn[200] = "";

	if (err && errlen)
		err[0] = '\0';
	if (G.open)
	{
		snprintf(err, errlen, "GPU device is already open");
		return GX_INVALID;
	}
	if (staging == NULL || nslots <= 0 || slot_bytes < sizeof(gx_chunk))
	{
		snprintf(err, errlen, "invalid staging area (%d slots of %zu bytes)",
				 nslots, slot_bytes);
		return GX_INVALID;
	}

	e = cudaGetDeviceCount(&ndev);
	if (e != cudaSuccess || ndev <= 0)
	{
		if (e != cudaSuccess)
			snprintf(err, errlen, "no usable CUDA device: %s", cudaGetErrorString(e));
		else
			snprintf(err, errlen, "no CUDA device found");
		cudaGetLastError();
		return GX_NO_DEVICE;
	}
	GX_CHECK(cudaSetDevice(0), "cudaSetDevice");

	try
	{
		cudaDeviceProp prop;
		int			clock_khz = 0,
					bus_bits = 0;

		GX_CHECK(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
		if (info)
		{
			memset(info, 0, sizeof(*info));
			size_t		nlen = strnlen(prop.name, sizeof(prop.name));

			if (nlen >= sizeof(info->name))
				nlen = sizeof(info->name) - 1;
			memcpy(info->name, prop.name, nlen);
			info->name[nlen] = '\0';
			info->total_mem = prop.totalGlobalMem;
			info->cc_major = prop.major;
			info->cc_minor = prop.minor;
			info->sm_count = prop.multiProcessorCount;
			if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, 0) != cudaSuccess ||
				cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0) != cudaSuccess)
			{
				clock_khz = bus_bits = 0;
				cudaGetLastError();
			}
			info->mem_bandwidth_gbs =
				2.0 * (double) clock_khz * 1e3 * ((double) bus_bits / 8.0) / 1e9;
		}

		G.staging = (char *) staging;
		G.nslots = nslots;
		G.slot_bytes = slot_bytes;
		G.sm_count = prop.multiProcessorCount > 0 ? prop.multiProcessorCount : 1;
		gx_jit_open(prop.major, prop.minor);

		/*
		 * Pin the staging area and map it into the device's address space,
		 * so that mapped chunks are read in place (zero-copy).  If mapping
		 * fails, pin it only: mapped chunks then run in copy mode.  Without
		 * pinning copies still work, only slower.
		 */
		size_t		area = (size_t) nslots * slot_bytes;

		G.pinned = G.mapped = 0;
		G.staging_dev = NULL;
		if (prop.canMapHostMemory)
		{
			e = cudaHostRegister(staging, area, cudaHostRegisterMapped | cudaHostRegisterPortable);
			if (e == cudaSuccess)
			{
				void	   *dp = NULL;

				G.pinned = 1;
				e = cudaHostGetDevicePointer(&dp, staging, 0);
				if (e == cudaSuccess && dp != NULL)
				{
					G.mapped = 1;
					G.staging_dev = (char *) dp;
				}
				else
				{
					snprintf(warn, sizeof(warn),
							 "cudaHostGetDevicePointer of the staging area failed: %s (%s); mapped transfer unavailable",
							 cudaGetErrorString(e), cudaGetErrorName(e));
					cudaGetLastError();
				}
			}
			else
			{
				snprintf(warn, sizeof(warn),
						 "cudaHostRegister (mapped) of the staging area failed: %s (%s); mapped transfer unavailable",
						 cudaGetErrorString(e), cudaGetErrorName(e));
				cudaGetLastError();
			}
		}
		else
			snprintf(warn, sizeof(warn),
					 "the GPU cannot map host memory; mapped transfer unavailable");
		if (!G.pinned)
		{
			e = cudaHostRegister(staging, area, cudaHostRegisterDefault);
			if (e == cudaSuccess)
				G.pinned = 1;
			else
			{
				snprintf(warn, sizeof(warn),
						 "cudaHostRegister of the staging area failed: %s (%s); copies are unpinned, mapped transfer unavailable",
						 cudaGetErrorString(e), cudaGetErrorName(e));
				cudaGetLastError();
			}
		}
		if (info)
			info->mapped = G.mapped;

		G.slots = new gx_slot[nslots];
		memset(G.slots, 0, sizeof(gx_slot) * nslots);
		for (int i = 0; i < nslots; i++)
		{
			gx_slot    *s = &G.slots[i];

			e = cudaMalloc((void **) &s->dev, slot_bytes);
			if (e != cudaSuccess)
			{
				s->dev = NULL;
				gx_cuda_fail(e, "cudaMalloc of a slot buffer", err, errlen);
				gx_release_all();
				return GX_CUDA_ERROR;
			}
			e = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking);
			if (e != cudaSuccess)
			{
				s->stream = NULL;
				gx_cuda_fail(e, "cudaStreamCreateWithFlags", err, errlen);
				gx_release_all();
				return GX_CUDA_ERROR;
			}
			for (int j = 0; j < GX_NEVENTS; j++)
			{
				e = cudaEventCreate(&s->ev[j]);
				if (e != cudaSuccess)
				{
					s->ev[j] = NULL;
					gx_cuda_fail(e, "cudaEventCreate", err, errlen);
					gx_release_all();
					return GX_CUDA_ERROR;
				}
			}
			s->state = GX_SLOT_IDLE;
		}
		G.open = 1;
		if (warn[0] && err && errlen)
			snprintf(err, errlen, "warning: %s", warn);
		return GX_OK;
	}
	catch (...)
	{
		gx_release_all();
		snprintf(err, errlen, "out of memory opening the GPU device");
		return GX_CUDA_ERROR;
	}
}

/* bytes of a value of gx_type t, 0 for an unknown type */
/* take the cache pool in device memory (once; the same sizes again: no-op) */
extern "C" gx_status
gx_gpu_cache_open(size_t unit_bytes, int nunits, char *err, size_t errlen)
{
	cudaError_t e;

	if (err && errlen)
		err[0] = '\0';
	if (!G.open || unit_bytes == 0 || nunits <= 0)
	{
		snprintf(err, errlen, "GPU device is not open");
		return GX_INVALID;
	}
	if (G.cache_base != NULL)
	{
		if (G.cache_unit == unit_bytes && G.cache_nunits == nunits)
			return GX_OK;
		snprintf(err, errlen, "GPU cache pool is already open with other sizes");
		return GX_INVALID;
	}
	e = cudaMalloc((void **) &G.cache_base, unit_bytes * (size_t) nunits);
	if (e != cudaSuccess)
	{
		G.cache_base = NULL;
		cudaGetLastError();
		return gx_cuda_fail(e, "cudaMalloc of the cache pool", err, errlen);
	}
	G.cache_unit = unit_bytes;
	G.cache_nunits = nunits;
	return GX_OK;
}

static int
gx_type_size(uint32_t t)
{
	switch (t)
	{
		case GX_BOOL:
			return 1;
		case GX_INT2:
			return 2;
		case GX_INT4:
		case GX_FLOAT4:
			return 4;
		case GX_INT8:
		case GX_FLOAT8:
			return 8;
		default:
			return 0;
	}
}

/*
 * Check the page section of a chunk of raw heap pages: the deform kernel
 * checks every tuple against its page, this checks the pages, the row map
 * and the columns it writes against the slot.
 */
static gx_status
gx_validate_pages(const gx_chunk *c, char *err, size_t errlen)
{
	const gx_deform_hdr *d = (const gx_deform_hdr *) ((const char *) c + c->deform_off);
	uint64_t	in = c->input_bytes;

	if (c->deform_off < sizeof(gx_chunk) || c->deform_off % 8 != 0 ||
		c->deform_off + sizeof(gx_deform_hdr) > in ||
		d->natts > GX_MAX_DEFORM_ATTS || d->page_size < 64 || d->page_size > 32768 ||
		d->pages_off > in || (uint64_t) d->npages * d->page_size > in - d->pages_off ||
		d->rowmap_off % 4 != 0 || d->rowmap_off > in ||
		(uint64_t) c->nrows * 4 > in - d->rowmap_off)
	{
		snprintf(err, errlen, "chunk page section does not fit its slot");
		return GX_INVALID;
	}
	for (uint32_t a = 0; a < d->natts; a++)
	{
		const gx_attr *at = &d->atts[a];

		if ((at->attalign != 1 && at->attalign != 2 && at->attalign != 4 && at->attalign != 8) ||
			at->attlen == 0 || at->attlen < -2 ||
			(at->col >= 0 && ((uint32_t) at->col >= c->ncols ||
							  at->attlen != gx_type_size(c->cols[at->col].type))) ||
			(at->fixed_off >= 0 && (uint32_t) at->fixed_off + 8 > d->page_size))
		{
			snprintf(err, errlen, "chunk attribute %u is malformed", a + 1);
			return GX_INVALID;
		}
	}
	for (uint32_t i = 0; i < c->ncols; i++)
	{
		const gx_column *col = &c->cols[i];

		if (col->nulls_off == 0 || col->nulls_off % 4 != 0 || col->nulls_off < in ||
			col->nulls_off > c->result_off ||
			((uint64_t) c->nrows + 31) / 32 * 4 > c->result_off - col->nulls_off ||
			col->values_off < in)
		{
			snprintf(err, errlen, "chunk column %u of a page chunk is misplaced", i);
			return GX_INVALID;
		}
	}
	return GX_OK;
}

/* does column i (values and bitmap) lie below col_limit? */
static bool
gx_col_fits(const gx_chunk *c, int i, uint64_t col_limit)
{
	const gx_column *col = &c->cols[i];
	int			sz = gx_type_size(col->type);

	return !(sz == 0 || col->values_off % sz != 0 ||
			 col->values_off > col_limit ||
			 (uint64_t) c->nrows * sz > col_limit - col->values_off ||
			 (col->nulls_off != 0 &&
			  (col->nulls_off > col_limit ||
			   ((uint64_t) c->nrows + 7) / 8 > col_limit - col->nulls_off)));
}

/*
 * Check that the chunk cannot make the kernel read out of its buffer or
 * loop: a fault would poison the CUDA context for every later chunk.
 */
static gx_status
gx_validate_chunk(const gx_chunk *c, char *err, size_t errlen)
{
	if (c->magic != GX_CHUNK_MAGIC)
	{
		snprintf(err, errlen, "chunk has a bad magic number");
		return GX_INVALID;
	}
	if (c->ninstr > GX_MAX_INSTR || c->ncols > GX_MAX_COLS ||
		c->nconsts > GX_MAX_CONSTS || c->nregs > GX_MAX_REGS)
	{
		snprintf(err, errlen, "chunk program exceeds limits");
		return GX_INVALID;
	}
	if ((c->flags & ~(GX_CHUNK_MAPPED | GX_CHUNK_JIT | GX_CHUNK_JIT_WAIT)) != 0)
	{
		snprintf(err, errlen, "chunk has unknown flags 0x%x", c->flags);
		return GX_INVALID;
	}
	if (c->input_bytes < sizeof(gx_chunk) || c->input_bytes > G.slot_bytes ||
		c->result_off < c->input_bytes || (c->result_off & 15) != 0 ||
		c->result_off > G.slot_bytes ||
		gx_result_bytes(c->nrows) > G.slot_bytes - c->result_off)
	{
		snprintf(err, errlen, "chunk layout does not fit its slot");
		return GX_INVALID;
	}
	/* aggregates: known operations on the chunk's columns, row selections */
	if (c->ext.nagg > GX_MAX_AGGS || (c->ext.nagg > 0 && c->ext.map_sel))
	{
		snprintf(err, errlen, "chunk has malformed aggregates");
		return GX_INVALID;
	}
	for (uint32_t a = 0; a < c->ext.nagg; a++)
		if ((c->ext.agg[a].op != GX_AGG_COUNT && c->ext.agg[a].op != GX_AGG_SUM) ||
			c->ext.agg[a].col < 0 || (uint32_t) c->ext.agg[a].col >= c->ncols)
		{
			snprintf(err, errlen, "chunk aggregate %u is malformed", a);
			return GX_INVALID;
		}
	/* cache operations: the pool exists, the entry and its offsets fit */
	if (c->ext.op != GX_CHUNK_FILTER &&
		(G.cache_base == NULL ||
		 gx_cache_check_chunk(c, G.cache_nunits, G.cache_unit) != 0))
	{
		snprintf(err, errlen, "chunk has a malformed cache part");
		return GX_INVALID;
	}
	/* columns lie in the input, or (page chunks) between input and result */
	uint64_t	col_limit = c->deform_off != 0 ? c->result_off : c->input_bytes;
	/* ... or in a cache entry (checked above) */
	const int	cache_cols = c->ext.op == GX_CHUNK_CACHE_SCAN;

	if (c->deform_off != 0 && gx_validate_pages(c, err, errlen) != GX_OK)
		return GX_INVALID;
	for (uint32_t pc = 0; pc < c->ninstr; pc++)
	{
		const gx_instr *in = &c->code[pc];

		if (in->dst >= GX_MAX_REGS || in->a >= GX_MAX_REGS || in->b >= GX_MAX_REGS ||
			in->op >= GX_OP_COUNT)
		{
			snprintf(err, errlen, "chunk program: bad instruction %u", pc);
			return GX_INVALID;
		}
		if ((in->op == GX_OP_ANDSTEP || in->op == GX_OP_ORSTEP) &&
			(in->jump <= (int) pc || (uint32_t) in->jump > c->ninstr))
		{
			snprintf(err, errlen, "chunk program: bad jump at %u", pc);
			return GX_INVALID;
		}
		if (in->op == GX_OP_LDCONST && (in->arg < 0 || (uint32_t) in->arg >= c->nconsts))
		{
			snprintf(err, errlen, "chunk program: bad constant at %u", pc);
			return GX_INVALID;
		}
		if (in->op == GX_OP_LDCOL && cache_cols)
		{
			if (in->arg < 0 || (uint32_t) in->arg >= c->ncols)
			{
				snprintf(err, errlen, "chunk program: bad column at %u", pc);
				return GX_INVALID;
			}
		}
		else if (in->op == GX_OP_LDCOL)
		{
			if (in->arg < 0 || (uint32_t) in->arg >= c->ncols)
			{
				snprintf(err, errlen, "chunk program: bad column at %u", pc);
				return GX_INVALID;
			}
			if (!gx_col_fits(c, in->arg, col_limit))
			{
				snprintf(err, errlen, "chunk column %d lies outside the chunk", in->arg);
				return GX_INVALID;
			}
		}
	}
	/* columns only aggregates read */
	for (uint32_t a = 0; a < c->ext.nagg && !cache_cols; a++)
		if (!gx_col_fits(c, c->ext.agg[a].col, col_limit))
		{
			snprintf(err, errlen, "chunk aggregate column %d lies outside the chunk",
					 c->ext.agg[a].col);
			return GX_INVALID;
		}
	return GX_OK;
}

/*
 * Queue a chunk on its slot's stream, in the mode it asks for (copy, or
 * mapped when the staging area is mapped); gx_gpu_poll() completes it.
 */
extern "C" gx_status
gx_gpu_submit(int slot, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (!G.open || slot < 0 || slot >= G.nslots)
	{
		snprintf(err, errlen, "invalid GPU slot %d", slot);
		return GX_INVALID;
	}
	gx_slot    *s = &G.slots[slot];

	if (s->state == GX_SLOT_STAGE1 || s->state == GX_SLOT_STAGE2 ||
		s->state == GX_SLOT_MAPPED)
	{
		snprintf(err, errlen, "GPU slot %d is busy", slot);
		return GX_INVALID;
	}

	gx_chunk   *c = (gx_chunk *) (G.staging + (size_t) slot * G.slot_bytes);
	gx_status	st = gx_validate_chunk(c, err, errlen);

	if (st != GX_OK)
		return st;

	/* cache chunks always run in copy mode (their header is all the input) */
	const int	mapped = (c->flags & GX_CHUNK_MAPPED) != 0 && G.mapped &&
		c->ext.op == GX_CHUNK_FILTER;
	char	   *entry = c->ext.op != GX_CHUNK_FILTER ?
		G.cache_base + (size_t) c->ext.entry * G.cache_unit : NULL;
	const uint32_t *rowmap = c->ext.op == GX_CHUNK_CACHE_SCAN && c->ext.map_sel ?
		(const uint32_t *) (entry + c->ext.rowmap_off) : NULL;
	const uint32_t nrows = c->nrows;
	const uint32_t ntiles = gx_ntiles(nrows);
	const int	deform = c->deform_off != 0;
	size_t		hdr_bytes = GX_ALIGN_UP(sizeof(gx_result)) + (size_t) ntiles * 8;

	/*
	 * Bases: the input is the device buffer (copy) or the slot's mapped
	 * alias; deformed columns always go to the device buffer; the result
	 * header with the atomics is in the device buffer, the result area is
	 * written there (copy) or into host memory (mapped).
	 */
	char	   *alias = mapped ? G.staging_dev + (size_t) slot * G.slot_bytes : NULL;
	const char *in = mapped ? alias : s->dev;
	const char *colbase = c->ext.op == GX_CHUNK_CACHE_SCAN ? entry : deform ? s->dev : in;
	gx_result  *dres = (gx_result *) (s->dev + c->result_off);
	char	   *out = mapped ? alias + c->result_off : s->dev + c->result_off;
	gx_result  *hres = gx_chunk_result(c);

	/* the host header must not look finished before the kernels ran */
	hres->ntiles = ntiles;
	hres->flags = 0;
	s->jit = 0;

	uint32_t	dgrid = (nrows + GX_BLOCK - 1) / GX_BLOCK;
	uint32_t	fgrid = ntiles;

	if (dgrid > (uint32_t) G.sm_count * 16)
		dgrid = (uint32_t) G.sm_count * 16;
	/*
	 * One resident wave of blocks (8 a SM) that stride over the tiles: a
	 * block stages the program once for several tiles of a big (cached)
	 * chunk.
	 */
	if (fgrid > (uint32_t) G.sm_count * 8)
		fgrid = (uint32_t) G.sm_count * 8;

	/*
	 * Look the compiled kernel up before queueing anything, so that the
	 * host's work does not leave the stream idle between the events.
	 */
	const void *jk = (c->ext.op != GX_CHUNK_CACHE_LOAD && ntiles > 0 &&
					  (c->flags & GX_CHUNK_JIT)) ?
		gx_jit_kernel(c, (c->flags & GX_CHUNK_JIT_WAIT) != 0) : NULL;

	if (mapped)
		GX_CHECK(cudaEventRecord(s->ev[GX_EV_KERNEL_START], s->stream), "cudaEventRecord");
	else
	{
		GX_CHECK(cudaEventRecord(s->ev[GX_EV_H2D_START], s->stream), "cudaEventRecord");
		GX_CHECK(cudaMemcpyAsync(s->dev, c, c->input_bytes, cudaMemcpyHostToDevice, s->stream),
				 "cudaMemcpyAsync (input)");
		GX_CHECK(cudaEventRecord(s->ev[GX_EV_H2D_END], s->stream), "cudaEventRecord");
	}

	gx_reset_kernel<<<1, 1, 0, s->stream>>>(dres, ntiles);
	GX_CHECK(cudaGetLastError(), "reset kernel launch");
	if (deform && nrows > 0)
	{
		gx_deform_kernel<<<dgrid, GX_BLOCK, 0, s->stream>>>(in, s->dev, nrows, dres);
		GX_CHECK(cudaGetLastError(), "deform kernel launch");
	}
	if (c->ext.op == GX_CHUNK_CACHE_LOAD)
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
				(void *) &out, (void *) &rowmap, (void *) &write_sel};

			GX_CHECK(cudaLaunchKernel(jk, dim3(fgrid), dim3(GX_BLOCK), args, 0, s->stream),
					 "compiled filter kernel launch");
			s->jit = 1;
		}
		else
		{
			gx_filter_kernel<<<fgrid, GX_BLOCK, 0, s->stream>>>(in, colbase, nrows, dres, out,
																rowmap, write_sel);
			GX_CHECK(cudaGetLastError(), "filter kernel launch");
		}
		if (rowmap)
		{
			gx_error_key_kernel<<<1, 1, 0, s->stream>>>(dres, rowmap, nrows);
			GX_CHECK(cudaGetLastError(), "error key kernel launch");
		}
	}
	if (mapped)
	{
		gx_publish_kernel<<<1, 1, 0, s->stream>>>(dres, (gx_result *) out);
		GX_CHECK(cudaGetLastError(), "publish kernel launch");
	}
	GX_CHECK(cudaEventRecord(s->ev[GX_EV_KERNEL_END], s->stream), "cudaEventRecord");

	if (mapped)
	{
		s->bytes_h2d = c->input_bytes;
		s->bytes_d2h = hdr_bytes;	/* + the selection, known when done */
		s->state = GX_SLOT_MAPPED;
		return GX_OK;
	}
	GX_CHECK(cudaMemcpyAsync(hres, dres, hdr_bytes, cudaMemcpyDeviceToHost, s->stream),
			 "cudaMemcpyAsync (result header)");
	GX_CHECK(cudaEventRecord(s->ev[GX_EV_S1_END], s->stream), "cudaEventRecord");

	s->bytes_h2d = c->input_bytes;
	s->bytes_d2h = hdr_bytes;
	s->state = GX_SLOT_STAGE1;
	return GX_OK;
}

/* nanoseconds between two completed events; 0 when they cannot be timed */
static uint64_t
gx_elapsed_ns(cudaEvent_t a, cudaEvent_t b)
{
	float		ms = 0.0f;

	if (cudaEventElapsedTime(&ms, a, b) != cudaSuccess)
	{
		cudaGetLastError();
		return 0;
	}
	return ms > 0.0f ? (uint64_t) ((double) ms * 1e6) : 0;
}

/*
 * Advance a submitted slot without blocking: *done = 1 once its result
 * area (with statistics and the mode that ran in flags) is in host memory.
 */
extern "C" gx_status
gx_gpu_poll(int slot, int *done, char *err, size_t errlen)
{
	cudaError_t e;

	if (err && errlen)
		err[0] = '\0';
	if (done)
		*done = 0;
	if (!G.open || slot < 0 || slot >= G.nslots || done == NULL)
	{
		snprintf(err, errlen, "invalid GPU slot %d", slot);
		return GX_INVALID;
	}
	gx_slot    *s = &G.slots[slot];
	gx_chunk   *c = (gx_chunk *) (G.staging + (size_t) slot * G.slot_bytes);
	gx_result  *hres = gx_chunk_result(c);

	switch (s->state)
	{
		case GX_SLOT_IDLE:
			snprintf(err, errlen, "GPU slot %d was not submitted", slot);
			return GX_INVALID;
		case GX_SLOT_DONE:
			*done = 1;
			return GX_OK;
		case GX_SLOT_MAPPED:
			e = cudaEventQuery(s->ev[GX_EV_KERNEL_END]);
			if (e == cudaErrorNotReady)
				return GX_OK;
			if (e != cudaSuccess)
			{
				s->state = GX_SLOT_IDLE;
				return gx_cuda_fail(e, "GPU filter (mapped)", err, errlen);
			}
			/* the kernels are complete: their writes to the host are visible */
			if (hres->nsel > c->nrows || hres->ntiles != gx_ntiles(c->nrows))
			{
				s->state = GX_SLOT_IDLE;
				snprintf(err, errlen, "GPU result is inconsistent (nsel %u, nrows %u)",
						 hres->nsel, c->nrows);
				return GX_CUDA_ERROR;
			}
			hres->h2d_ns = 0;
			hres->kernel_ns = gx_elapsed_ns(s->ev[GX_EV_KERNEL_START], s->ev[GX_EV_KERNEL_END]);
			hres->d2h_ns = 0;
			hres->bytes_h2d = s->bytes_h2d;
			hres->bytes_d2h = s->bytes_d2h +
				(c->ext.count_only ? 0 : (uint64_t) hres->nsel * 4);
			hres->flags = GX_RESULT_GPU | GX_RESULT_MAPPED | (s->jit ? GX_RESULT_JIT : 0);
			s->state = GX_SLOT_DONE;
			*done = 1;
			return GX_OK;
		case GX_SLOT_STAGE1:
			e = cudaEventQuery(s->ev[GX_EV_S1_END]);
			if (e == cudaErrorNotReady)
				return GX_OK;
			if (e != cudaSuccess)
			{
				s->state = GX_SLOT_IDLE;
				return gx_cuda_fail(e, "GPU filter (stage 1)", err, errlen);
			}
			if (hres->nsel > c->nrows || hres->ntiles != gx_ntiles(c->nrows))
			{
				s->state = GX_SLOT_IDLE;
				snprintf(err, errlen, "GPU result is inconsistent (nsel %u, nrows %u)",
						 hres->nsel, c->nrows);
				return GX_CUDA_ERROR;
			}
			if (c->ext.count_only)
			{
				/* no selection to copy: the header and seg arrays are all */
				hres->h2d_ns = gx_elapsed_ns(s->ev[GX_EV_H2D_START], s->ev[GX_EV_H2D_END]);
				hres->kernel_ns = gx_elapsed_ns(s->ev[GX_EV_H2D_END], s->ev[GX_EV_KERNEL_END]);
				hres->d2h_ns = gx_elapsed_ns(s->ev[GX_EV_KERNEL_END], s->ev[GX_EV_S1_END]);
				hres->bytes_h2d = s->bytes_h2d;
				hres->bytes_d2h = s->bytes_d2h;
				hres->flags = GX_RESULT_GPU | (s->jit ? GX_RESULT_JIT : 0);
				s->state = GX_SLOT_DONE;
				*done = 1;
				return GX_OK;
			}
			{
				size_t		sel_off = (char *) gx_result_sel(hres) - (char *) c;
				size_t		sel_bytes = (size_t) hres->nsel * 4;

				GX_CHECK(cudaEventRecord(s->ev[GX_EV_S2_START], s->stream), "cudaEventRecord");
				if (sel_bytes > 0)
					GX_CHECK(cudaMemcpyAsync((char *) c + sel_off, s->dev + sel_off, sel_bytes,
											 cudaMemcpyDeviceToHost, s->stream),
							 "cudaMemcpyAsync (selection)");
				GX_CHECK(cudaEventRecord(s->ev[GX_EV_S2_END], s->stream), "cudaEventRecord");
				s->bytes_d2h += sel_bytes;
				s->state = GX_SLOT_STAGE2;
			}
			/* an empty selection may already be complete */
			[[fallthrough]];
		case GX_SLOT_STAGE2:
			e = cudaEventQuery(s->ev[GX_EV_S2_END]);
			if (e == cudaErrorNotReady)
				return GX_OK;
			if (e != cudaSuccess)
			{
				s->state = GX_SLOT_IDLE;
				return gx_cuda_fail(e, "GPU filter (stage 2)", err, errlen);
			}
			/* every copy into the host result is over: statistics stay */
			hres->h2d_ns = gx_elapsed_ns(s->ev[GX_EV_H2D_START], s->ev[GX_EV_H2D_END]);
			hres->kernel_ns = gx_elapsed_ns(s->ev[GX_EV_H2D_END], s->ev[GX_EV_KERNEL_END]);
			hres->d2h_ns = gx_elapsed_ns(s->ev[GX_EV_KERNEL_END], s->ev[GX_EV_S1_END]) +
				gx_elapsed_ns(s->ev[GX_EV_S2_START], s->ev[GX_EV_S2_END]);
			hres->bytes_h2d = s->bytes_h2d;
			hres->bytes_d2h = s->bytes_d2h;
			hres->flags = GX_RESULT_GPU | (s->jit ? GX_RESULT_JIT : 0);
			s->state = GX_SLOT_DONE;
			*done = 1;
			return GX_OK;
	}
	snprintf(err, errlen, "GPU slot %d in a bad state", slot);
	return GX_INVALID;
}

/* release the GPU: wait for every stream, free buffers, unregister */
extern "C" void
gx_gpu_close(void)
{
	if (!G.open && G.slots == NULL)
		return;
	gx_release_all();
}
