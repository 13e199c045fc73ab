/*
 * gx_cpu.cpp - the CPU device: runs a chunk's filter program with the same
 * interpreter as the GPU kernel (gx_eval.cuh) and writes the same result
 * layout: per tile of GX_TILE_ROWS rows, the selected row indexes in row
 * order, placed at an offset obtained with one atomic add per tile.
 *
 * A chunk of raw heap pages is deformed tile by tile first (gx_deform.cuh),
 * by the thread that then filters the tile.
 *
 * Cache operations (gx_chunk_ext): a SCAN chunk reads its columns from an
 * entry of the CPU device's cache pool (host memory of the service, taken
 * by gx_cpu_cache_open) and selects row map values; a LOAD chunk is
 * deformed and filtered like any page chunk (it has no program), then its
 * rows are appended to the entry from one thread.
 *
 * Threads take tiles from a shared counter.  No PostgreSQL API is used
 * here: the service calls this from its main thread, which waits.  The
 * transfer mode of the chunk (GX_CHUNK_MAPPED) means nothing here: the
 * chunk is run in place and the result says so (flags 0, no bytes moved).
 */
#include "gx_api.h"
#include "gx_eval.cuh"
#include "gx_deform.cuh"
#include "gx_cache.cuh"

#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

/* record the error of row 'row' if it is the first one so far */
static void
gx_cpu_record_error(std::atomic<uint64_t> *error, uint32_t row, int err)
{
	uint64_t	code = ((uint64_t) row << 8) | (uint64_t) err;
	uint64_t	cur = error->load();

	while (code < cur && !error->compare_exchange_weak(cur, code))
		;
}

/*
 * Deform rows [lo, hi) of a page chunk into its columns and null bitmaps
 * (a tile starts on a byte of every bitmap, so threads share no byte).
 * Returns the first row that could not be deformed, or hi.
 */
static uint32_t
gx_cpu_deform_tile(gx_chunk *c, uint32_t lo, uint32_t hi, std::atomic<uint64_t> *error)
{
	const gx_deform_hdr *d = gx_chunk_deform(c);
	char	   *base = (char *) c;

	for (uint32_t i = 0; i < c->ncols; i++)
		memset(base + c->cols[i].nulls_off + lo / 8, 0, (hi - lo + 7) / 8);
	for (uint32_t row = lo; row < hi; row++)
	{
		int			err;
		uint64_t	nulls = gx_deform_row(base, d, c->cols, base, row, &err);

		if (err != GX_ERR_NONE)
		{
			gx_cpu_record_error(error, row, err);
			return row;
		}
		for (uint32_t i = 0; nulls != 0; i++, nulls >>= 1)
			if (nulls & 1)
				base[c->cols[i].nulls_off + (row >> 3)] |= (char) (1 << (row & 7));
	}
	return hi;
}

/* the CPU device's cache pool */
static struct
{
	char	   *base;
	int			nunits;
	uint64_t	unit_bytes;
} gx_cpu_pool;

extern "C" gx_status
gx_cpu_cache_open(size_t unit_bytes, int nunits)
{
	if (gx_cpu_pool.base != NULL)
		return (gx_cpu_pool.unit_bytes == unit_bytes && gx_cpu_pool.nunits == nunits) ?
			GX_OK : GX_INVALID;
	if (unit_bytes == 0 || nunits <= 0)
		return GX_INVALID;
	/* untouched pages cost nothing until an entry is loaded */
	gx_cpu_pool.base = (char *) malloc(unit_bytes * (size_t) nunits);
	if (gx_cpu_pool.base == NULL)
		return GX_INVALID;
	gx_cpu_pool.unit_bytes = unit_bytes;
	gx_cpu_pool.nunits = nunits;
	return GX_OK;
}

/* base of entry e of the pool */
static char *
gx_cpu_entry(int e)
{
	return gx_cpu_pool.base + (size_t) e * gx_cpu_pool.unit_bytes;
}

/* append the rows of a deformed LOAD chunk to its entry */
static void
gx_cpu_cache_append(gx_chunk *c)
{
	char	   *entry = gx_cpu_entry(c->ext.entry);

	for (uint32_t row = 0; row < c->nrows; row++)
	{
		uint64_t	nulls = gx_cache_append_row((const char *) c, (const char *) c, entry, row);
		uint64_t	dst = (uint64_t) c->ext.row0 + row;

		for (uint32_t i = 0; i < c->ncols; i++)
		{
			uint32_t   *w = (uint32_t *) (entry + c->ext.nulls_off[i]) + (dst >> 5);
			uint32_t	bit = 1u << (dst & 31);

			if ((nulls >> i) & 1)
				*w |= bit;
			else
				*w &= ~bit;
		}
	}
}

/* take tiles from next_tile and run them (deform, filter) until none are left */
static void
gx_cpu_worker(gx_chunk *c, const char *colbase, std::atomic<uint32_t> *next_tile,
			  std::atomic<uint32_t> *nsel, std::atomic<uint64_t> *error,
			  std::atomic<int64_t> *agg_val, std::atomic<int64_t> *agg_cnt)
{
	const uint32_t nagg = c->ext.nagg;
	int64_t		my_val[GX_MAX_AGGS] = {0};
	int64_t		my_cnt[GX_MAX_AGGS] = {0};

	const uint32_t *rowmap = (c->ext.op == GX_CHUNK_CACHE_SCAN && c->ext.map_sel) ?
		(const uint32_t *) (colbase + c->ext.rowmap_off) : NULL;

	gx_result  *res = gx_chunk_result(c);
	uint32_t   *seg_off = gx_result_seg_off(res);
	uint32_t   *seg_cnt = gx_result_seg_cnt(res);
	uint32_t   *sel = gx_result_sel(res);
	uint32_t	ntiles = res->ntiles;
	uint32_t	local[GX_TILE_ROWS];

	for (;;)
	{
		uint32_t	t = next_tile->fetch_add(1);

		if (t >= ntiles)
			break;
		uint32_t	lo = t * GX_TILE_ROWS;
		uint32_t	hi = lo + GX_TILE_ROWS < c->nrows ? lo + GX_TILE_ROWS : c->nrows;
		uint32_t	cnt = 0;
		uint32_t	stop = hi;

		if (c->deform_off != 0)
			stop = gx_cpu_deform_tile(c, lo, hi, error);
		for (uint32_t row = lo; row < stop; row++)
		{
			int			err;

			if (gx_eval_row_at(c, colbase, row, &err))
				local[cnt++] = rowmap ? rowmap[row] : row;
			else if (err != GX_ERR_NONE)
			{
				gx_cpu_record_error(error, row, err);
				break;			/* later rows of this tile cannot matter */
			}
		}
		uint32_t	base = nsel->fetch_add(cnt);

		/* aggregates: selection entries are row numbers in this mode */
		for (uint32_t a = 0; a < nagg; a++)
			for (uint32_t i = 0; i < cnt; i++)
			{
				gx_reg		r;

				gx_load_col(colbase, &c->cols[c->ext.agg[a].col], local[i], &r);
				if (r.isnull)
					continue;
				my_cnt[a]++;
				if (c->ext.agg[a].op == GX_AGG_SUM)
					my_val[a] += r.v.i;
			}
		for (uint32_t i = 0; i < cnt; i++)
			sel[base + i] = local[i];
		seg_off[t] = base;
		seg_cnt[t] = cnt;
	}
	for (uint32_t a = 0; a < nagg; a++)
	{
		agg_val[a] += my_val[a];
		agg_cnt[a] += my_cnt[a];
	}
}

/* run chunk c in place on nthreads threads; fills its result area */
extern "C" gx_status
gx_cpu_run_chunk(gx_chunk *c, int nthreads)
{
	if (c->magic != GX_CHUNK_MAGIC)
		return GX_INVALID;
	if (c->ext.nagg > GX_MAX_AGGS)
		return GX_INVALID;
	for (uint32_t a = 0; a < c->ext.nagg; a++)
		if ((c->ext.agg[a].op != GX_AGG_COUNT && c->ext.agg[a].op != GX_AGG_SUM) ||
			c->ext.agg[a].col < 0 || (uint32_t) c->ext.agg[a].col >= c->ncols ||
			c->ext.map_sel)
			return GX_INVALID;
	if (c->ext.op != GX_CHUNK_FILTER &&
		(gx_cpu_pool.base == NULL ||
		 gx_cache_check_chunk(c, gx_cpu_pool.nunits, gx_cpu_pool.unit_bytes) != 0))
		return GX_INVALID;
	try
	{
		gx_result  *res = gx_chunk_result(c);
		const char *colbase = c->ext.op == GX_CHUNK_CACHE_SCAN ?
			gx_cpu_entry(c->ext.entry) : (const char *) c;
		std::atomic<uint32_t> next_tile(0), nsel(0);
		std::atomic<uint64_t> error(GX_NO_ERROR);
		std::atomic<int64_t> agg_val[GX_MAX_AGGS];
		std::atomic<int64_t> agg_cnt[GX_MAX_AGGS];

		for (int a = 0; a < GX_MAX_AGGS; a++)
		{
			agg_val[a] = 0;
			agg_cnt[a] = 0;
		}
		auto		t0 = std::chrono::steady_clock::now();

		res->ntiles = gx_ntiles(c->nrows);
		if (nthreads < 1)
			nthreads = 1;
		if ((uint32_t) nthreads > res->ntiles)
			nthreads = res->ntiles ? res->ntiles : 1;

		if (nthreads == 1)
			gx_cpu_worker(c, colbase, &next_tile, &nsel, &error, agg_val, agg_cnt);
		else
		{
			std::vector<std::thread> pool;

			for (int i = 0; i < nthreads; i++)
				pool.emplace_back(gx_cpu_worker, c, colbase, &next_tile, &nsel, &error, agg_val, agg_cnt);
			for (auto &th : pool)
				th.join();
		}
		res->nsel = nsel.load();
		res->error = error.load();
		for (int a = 0; a < GX_MAX_AGGS; a++)
		{
			res->agg_val[a] = agg_val[a].load();
			res->agg_cnt[a] = agg_cnt[a].load();
		}
		res->error_key = 0;
		if (res->error != GX_NO_ERROR && c->ext.op == GX_CHUNK_CACHE_SCAN && c->ext.map_sel)
			res->error_key = ((const uint32_t *) (colbase + c->ext.rowmap_off))[res->error >> 8];
		if (c->ext.op == GX_CHUNK_CACHE_LOAD && res->error == GX_NO_ERROR)
			gx_cpu_cache_append(c);
		res->kernel_ns = (uint64_t) std::chrono::duration_cast<std::chrono::nanoseconds>(
			std::chrono::steady_clock::now() - t0).count();
		res->h2d_ns = res->d2h_ns = 0;
		res->bytes_h2d = res->bytes_d2h = 0;
		res->flags = 0;
		res->pad = 0;
		return GX_OK;
	}
	catch (...)
	{
		return GX_INVALID;
	}
}
