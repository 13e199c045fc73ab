/*
 * gx_cpu.cpp - the CPU device: runs tasks (gx_program.h) in place with the
 * same interpreter as the GPU kernels (gx_eval.cuh) and writes the same
 * result layout: per tile of GX_TILE_ROWS rows, the selected rows in row
 * order, placed at an offset obtained with one atomic add per tile.
 *
 * Design note
 * -----------
 * Threads: gx_cpu_open() starts a persistent pool of worker threads (with
 * every signal blocked: the service's signals go to its main thread); a
 * task runs on the workers and on the calling thread, which then waits for
 * the workers to finish it.  Nothing is created per task.  Without
 * gx_cpu_open() (or after gx_cpu_close()) a task runs on the calling
 * thread alone.  Tasks are serialized on the pool.
 *
 * Dispatch: gx_cpu_run() validates the task with its kind's validator of
 * the operator table (gx_ops.h) - the same one the GPU device runs - and
 * calls the entry's CPU implementation:
 *  - rows (FILTER, CACHE_LOAD, CACHE_SCAN): threads take tiles from a
 *    shared counter; a tile of raw heap pages is deformed (gx_deform.cuh)
 *    by the thread that then filters it; a SCAN reads its columns from the
 *    cache entry (ctx->entry) and selects row map values; a LOAD is
 *    deformed and filtered like any page task (it has no program), then
 *    its rows are appended to the entry from one thread.  Aggregates are
 *    summed per thread and added, once per task, into the stripe
 *    (thread index modulo GX_AGG_STRIPES) of the state object ctx->obj[0]
 *    with 64-bit atomics, as GPU blocks do.  In group mode (GROUP BY) each
 *    thread adds rows into a table of its own (GX_CPU_GROUP_SLOTS slots)
 *    and merges it into the shared table (ctx->obj[0]) at its end, as a
 *    GPU block merges its shared-memory table (gx_group.cuh);
 *  - AGG_READ: sums the stripes into the result, zeroes the state;
 *  - GROUP_READ: copies the READY slots of a range of a group table;
 *  - GROUP_MERGE: threads take tiles of a range of the source table's
 *    slots and merge each READY one into its group of the destination
 *    (found, or made where there is room: gx_group_merge_slot), with the
 *    table's atomics; a group without room is copied into the result (an
 *    atomic add reserves its record);
 *  - JOIN_BUILD: threads take tiles and add their passing rows into the
 *    join table (gx_join.cuh) with its atomics, as GPU threads do;
 *    JOIN_FINISH_BUILD: a serial prefix sum over the key counts, then the
 *    threads place the staged rows (a range join's table: the pairs
 *    sorted in segments by the threads, merged); JOIN_PROBE: the three
 *    phases, the count and the write on the threads (a tile each), the
 *    prefix sum over the tiles and the end of a pass between them on the
 *    caller; JOIN_UNMATCHED: threads take tiles of the range of placed
 *    rows and append their unmatched payloads (one atomic add a tile).
 *    The merge join (gx_jmerge.cuh): FINISH sorts an index permutation in
 *    segments on the threads, merges them pairwise on the caller
 *    (gx_cpu_merge_segments, as the range join's pairs), then gathers and
 *    encodes the distinct keys in segments; a PROBE first extracts its
 *    rows (tiles), sorts them the same way and walks the merge path
 *    (GX_CPU_MERGE_PARTS parts at a time) before the three phases.  A
 *    group PROBE (ext.ngroup_cap > 0: aggregation over a join) has no
 *    phases: threads take tiles of outer rows and add each row's pairs
 *    into a group table of their own (gx_cpu_gtabs, as group mode's),
 *    merged into the group object at their end; a JOIN_BUILD with inner
 *    columns writes them into the store ctx->obj[1] (gx_join_put_cols).
 *  - SEARCH (gx_search.cuh): threads take blocks of probes; each probe's
 *    lower bound and galloping upper bound with the task's p lanes run in
 *    a loop (one lane: binary search), the counts summed per thread.
 *  - TREE_LOOKUP (gx_ptree.cuh): threads take blocks of keys as SEARCH's;
 *    a key's walk from the root, or its speculative partitions in a loop
 *    and their resolve (the GPU's lanes), so the runs are the GPU's.
 *  - OBJ_COPY: threads take 4 MB pieces of the ranges and memcpy them.
 *
 * The transfer mode of a task (GX_CHUNK_MAPPED) means nothing here: the
 * task runs in place and the result says so (flags 0, no bytes moved).
 * No PostgreSQL API is used; no exception leaves the extern "C" functions.
 */
#include "gx_api.h"
#include "gx_guard.h"
#include "gx_ops.h"
#include "gx_eval.cuh"
#include "gx_deform.cuh"
#include "gx_cache.cuh"
#include "gx_group.cuh"
#include "gx_join.cuh"
#include "gx_search.cuh"
#include "gx_ptree.cuh"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#define GX_CPU_MAX_THREADS 1024
#define GX_CPU_GROUP_SLOTS 4096	/* a thread's own group table */

/* ---------------------------------------------------------------------- */
/* memory                                                                 */
/* ---------------------------------------------------------------------- */

/* zeroed heap memory for the CPU device (cache entries, objects, buffers) */
gx_status
gx_cpu_mem_alloc(uint64_t bytes, void **ptr, char *err, size_t errlen)
{
	if (ptr == NULL || bytes == 0 || bytes > (uint64_t) SIZE_MAX)
	{
		gx_errf(err, errlen, "invalid allocation of %llu bytes", (unsigned long long) bytes);
		return GX_INVALID;
	}
	*ptr = calloc(1, (size_t) bytes);
	if (*ptr == NULL)
	{
		gx_errf(err, errlen, "out of host memory allocating %llu bytes",
				(unsigned long long) bytes);
		return GX_NO_MEMORY;
	}
	return GX_OK;
}

/* give CPU device memory back */
void
gx_cpu_mem_free(void *ptr)
{
	free(ptr);
}

/* ---------------------------------------------------------------------- */
/* the thread pool                                                        */
/* ---------------------------------------------------------------------- */

/* a job: fn(arg, t) runs on threads t = 0 (the caller) .. nthreads - 1 */
typedef void (*gx_cpu_job_fn) (void *arg, int thread);

/*
 * The pool is allocated once and never freed while a worker may use it;
 * it is not a static object, so no destructor runs (and no joinable
 * std::thread is destroyed) when the process exits without gx_cpu_close().
 */
struct gx_cpu_pool
{
	std::mutex	run_mu;			/* one task at a time */
	std::mutex	mu;				/* the fields below */
	std::condition_variable wake;	/* a new job, or stop */
	std::condition_variable done;	/* active reached 0 */
	std::vector<std::thread> threads;	/* worker t + 1 is threads[t] */
	uint64_t	gen = 0;		/* job number */
	gx_cpu_job_fn fn = nullptr;
	void	   *arg = nullptr;
	int			job_threads = 0;	/* threads of the job, caller included */
	int			active = 0;		/* workers still running the job */
	bool		stop = false;
};

static gx_cpu_pool *gx_pool;

/* a worker: run every job it is part of until the pool stops */
static void
gx_cpu_worker_main(gx_cpu_pool *p, int t)
{
	uint64_t	seen = 0;
	std::unique_lock<std::mutex> lk(p->mu);

	for (;;)
	{
		p->wake.wait(lk, [&] { return p->stop || p->gen != seen; });
		if (p->stop)
			return;
		seen = p->gen;
		if (t >= p->job_threads)
			continue;
		gx_cpu_job_fn fn = p->fn;
		void	   *arg = p->arg;

		lk.unlock();
		fn(arg, t);				/* job functions do not throw */
		lk.lock();
		if (--p->active == 0)
			p->done.notify_one();
	}
}

/*
 * Run fn on up to nwant threads (the caller is thread 0) and wait for all
 * of them; the caller alone without a pool.
 */
static void
gx_cpu_parallel(gx_cpu_job_fn fn, void *arg, int nwant)
{
	gx_cpu_pool *p = gx_pool;

	if (p == NULL || nwant <= 1)
	{
		fn(arg, 0);
		return;
	}
	std::lock_guard<std::mutex> run(p->run_mu);
	int			n = (int) p->threads.size() + 1;

	if (n > nwant)
		n = nwant;
	if (n <= 1)
	{
		fn(arg, 0);
		return;
	}
	{
		std::lock_guard<std::mutex> g(p->mu);

		p->fn = fn;
		p->arg = arg;
		p->job_threads = n;
		p->active = n - 1;
		p->gen++;
	}
	p->wake.notify_all();
	fn(arg, 0);

	std::unique_lock<std::mutex> lk(p->mu);

	p->done.wait(lk, [&] { return p->active == 0; });
}

/*
 * Start the pool: nthreads threads run a task, the caller included, so
 * nthreads - 1 workers are created, with every signal blocked.  A thread
 * that cannot be created ends the creation: the pool keeps those started
 * (a warning goes to err).  A second call only reports the pool's size.
 */
extern "C" gx_status
gx_cpu_open(int nthreads, int *started, char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		if (started)
			*started = 1;
		if (gx_pool != NULL)
		{
			if (started)
				*started = (int) gx_pool->threads.size() + 1;
			return GX_OK;
		}
		if (nthreads < 1)
			nthreads = 1;
		if (nthreads > GX_CPU_MAX_THREADS)
			nthreads = GX_CPU_MAX_THREADS;

		/* freed if reserving fails; nothing throws once a thread runs */
		std::unique_ptr<gx_cpu_pool> pool(new gx_cpu_pool());
		gx_cpu_pool *p = pool.get();
		sigset_t	all,
					old;
		char		why[160] = "";

		p->threads.reserve((size_t) nthreads - 1);
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		for (int t = 1; t < nthreads; t++)
		{
			try
			{
				p->threads.emplace_back(gx_cpu_worker_main, p, t);
			}
			catch (const std::exception &e)
			{
				/* std::system_error (no thread), or bad_alloc: keep those started */
				snprintf(why, sizeof(why), "%s", e.what());
				break;
			}
			catch (...)
			{
				snprintf(why, sizeof(why), "thread creation failed");
				break;
			}
		}
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		gx_pool = pool.release();
		if (started)
			*started = (int) p->threads.size() + 1;
		if ((int) p->threads.size() + 1 < nthreads)
			gx_errf(err, errlen, "warning: started %d of %d CPU threads: %s",
					(int) p->threads.size() + 1, nthreads, why);
		return GX_OK;
	});
}

/* stop and join the pool's workers; later tasks run on the calling thread */
extern "C" void
gx_cpu_close(void)
{
	GX_API_GUARD_VOID()
	{
		gx_cpu_pool *p = gx_pool;

		if (p == NULL)
			return;
		{
			/* no task runs once run_mu is ours */
			std::lock_guard<std::mutex> run(p->run_mu);
			std::lock_guard<std::mutex> g(p->mu);

			p->stop = true;
		}
		p->wake.notify_all();
		for (auto &th : p->threads)
		{
			/* a std::thread destroyed while joinable would terminate the process */
			try
			{
				if (th.joinable())
					th.join();
			}
			catch (...)
			{
				if (th.joinable())
					th.detach();
			}
		}
		gx_pool = NULL;
		delete p;
	});
}

/* ---------------------------------------------------------------------- */
/* rows: FILTER, CACHE_LOAD, CACHE_SCAN                                   */
/* ---------------------------------------------------------------------- */

/* what the threads of one rows task share */
struct gx_cpu_rows_job
{
	gx_chunk   *c;
	const char *colbase;		/* where column offsets point */
	const uint32_t *rowmap;		/* SCAN with map_sel: selection holds its values */
	gx_agg_pair *agg;			/* state object, NULL without aggregates */
	char	   *group;			/* group table object in group mode, else NULL */
	uint32_t	skip_blocks;	/* SCAN: rows to skip (gx_row_skipped) */
	const uint32_t *skip_bits;
	const uint32_t *emap;		/* SCAN: the entry's row map */
	std::atomic<uint32_t> next_tile {0};
	std::atomic<uint32_t> nsel {0};
	std::atomic<uint64_t> error {GX_NO_ERROR};
	std::atomic<bool> host {false};	/* a row selected for the host (GX_ERR_HOST) */
	std::atomic<bool> full {false};	/* group mode: a row found no room in the table */
};

/*
 * A thread's group tables in group mode: the shared table of the group
 * object, and the thread's own (GX_CPU_GROUP_SLOTS slots; none with
 * GX_GROUP_NO_LOCAL), merged into it at the end (gx_group_slot)
 */
struct gx_cpu_gtabs
{
	gx_gtab		g;				/* the group object's table */
	gx_gtab		l;				/* the thread's own */
	uint32_t	lused = 0;
	std::vector<char> lslots;

	/* the tables of group object 'group' of a task of ext x (not moved after) */
	void		init(char *group, const gx_chunk_ext *x)
	{
		g = gx_gtab_global(group, x);
		lslots.assign((size_t) GX_CPU_GROUP_SLOTS * g.slot_bytes, 0);
		l = g;
		l.slots = lslots.data();
		l.used = &lused;
		l.mask = (x->gflags & GX_GROUP_NO_LOCAL) ? 0 : GX_CPU_GROUP_SLOTS - 1;
		l.limit = (l.mask + 1) / 2;
	}
};

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
 * Take the next tile of a task of nrows rows in ntiles tiles from the
 * counter next: its index and rows [*lo, *hi); false when none is left
 */
static bool
gx_cpu_take_tile(std::atomic<uint32_t> &next, uint32_t ntiles, uint32_t nrows, uint32_t *tile,
				 uint32_t *lo, uint32_t *hi)
{
	*tile = next.fetch_add(1);
	if (*tile >= ntiles)
		return false;
	*lo = *tile * GX_TILE_ROWS;
	*hi = *lo + GX_TILE_ROWS < nrows ? *lo + GX_TILE_ROWS : nrows;
	return true;
}

/*
 * Deform rows [lo, hi) of a page task into its columns and NULL bitmaps (a
 * tile starts on a word of every bitmap, so threads share no word).
 * Returns the first row that could not be deformed, or hi.
 */
static uint32_t
gx_cpu_deform_tile(gx_chunk *c, uint32_t lo, uint32_t hi, std::atomic<uint64_t> *error)
{
	const gx_deform_hdr *d = gx_chunk_deform(c);
	char	   *base = (char *) c;

	for (uint32_t i = 0; i < c->ncols; i++)
		memset(base + c->cols[i].nulls_off + lo / 8, 0, gx_bitmap_bytes(hi - lo));
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
				gx_bitmap_set(base + c->cols[i].nulls_off, row);
	}
	return hi;
}

/* append the rows of a deformed LOAD task to its entry (one thread) */
static void
gx_cpu_cache_append(gx_chunk *c, char *entry)
{
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

/* thread t of a rows task: take tiles (deform, filter, aggregate) until none are left */
static void
gx_cpu_rows_worker(void *arg, int t)
{
	gx_cpu_rows_job *job = (gx_cpu_rows_job *) arg;
	gx_chunk   *c = job->c;
	const char *colbase = job->colbase;
	const uint32_t *rowmap = job->rowmap;
	const uint32_t nagg = c->ext.nagg;
	int64_t		my_val[GX_MAX_AGGS] = {0};
	int64_t		my_cnt[GX_MAX_AGGS] = {0};

	gx_result  *res = gx_chunk_result(c);
	uint32_t   *seg_off = gx_result_seg_off(res);
	uint32_t   *seg_cnt = gx_result_seg_cnt(res);
	uint32_t   *sel = gx_result_sel(res);
	uint32_t	ntiles = res->ntiles;
	uint32_t	local[GX_TILE_ROWS];
	gx_cpu_gtabs tabs;
	/* group mode: rows for the host are another pass's */
	const bool	skip_host = job->group != NULL && (c->ext.gflags & GX_GROUP_SKIP_HOST) != 0;

	/* group mode: the shared table, and this thread's own */
	if (job->group != NULL)
		tabs.init(job->group, &c->ext);

	for (;;)
	{
		uint32_t	tile,
					lo,
					hi;

		if (!gx_cpu_take_tile(job->next_tile, ntiles, c->nrows, &tile, &lo, &hi))
			break;
		uint32_t	cnt = 0;
		uint32_t	stop = hi;

		if (c->deform_off != 0)
			stop = gx_cpu_deform_tile(c, lo, hi, &job->error);
		for (uint32_t row = lo; row < stop; row++)
		{
			int			err;

			if (job->skip_blocks > 0 &&
				gx_row_skipped(job->skip_bits, job->skip_blocks, job->emap, row))
				continue;
			gx_reg		out[GX_MAX_OUTS];

			if (gx_eval_row_out(c, colbase, row, &err, job->group != NULL ? out : NULL))
			{
				/*
				 * group mode: only the rows no table has room for are
				 * selected, and the host's (in the pass that takes them)
				 */
				int			added = job->group == NULL ? GX_GROUP_NO_ROOM :
					gx_group_add_out(&c->ext, c->ext.agg, out, &tabs.l, &tabs.g);

				if (added == GX_GROUP_HOST && skip_host)
					continue;
				if (added == GX_GROUP_NO_ROOM || added == GX_GROUP_HOST)
					local[cnt++] = row;
				if (job->group != NULL && added == GX_GROUP_NO_ROOM)
					job->full.store(true);	/* no room in the table */
				else if (added == GX_GROUP_HOST)
					job->host.store(true, std::memory_order_relaxed);	/* a non-finite float */
			}
			else if (err == GX_ERR_HOST && skip_host)
				continue;		/* another pass's */
			else if (err == GX_ERR_HOST)
			{
				/* selected for the host, never added to a group */
				local[cnt++] = row;
				job->host.store(true, std::memory_order_relaxed);
			}
			else if (err != GX_ERR_NONE)
			{
				gx_cpu_record_error(&job->error, row, err);
				break;			/* later rows of this tile cannot matter */
			}
		}
		uint32_t	base = job->nsel.fetch_add(cnt);

		for (uint32_t a = 0; a < (job->group != NULL ? 0u : nagg); a++)
		{
			const gx_column *col = &c->cols[c->ext.agg[a].col];
			const int	sum = c->ext.agg[a].op == GX_AGG_SUM;

			for (uint32_t i = 0; i < cnt; i++)
			{
				gx_reg		r;

				gx_load_col(colbase, col, local[i], &r);
				if (r.isnull)
					continue;
				my_cnt[a]++;
				if (sum)
					my_val[a] = (int64_t) ((uint64_t) my_val[a] + (uint64_t) r.v.i);
			}
		}
		for (uint32_t i = 0; i < cnt; i++)
			sel[base + i] = rowmap ? rowmap[local[i]] : local[i];
		seg_off[tile] = base;
		seg_cnt[tile] = cnt;
	}
	if (job->group != NULL &&
		gx_group_merge_table(&tabs.l, &tabs.g, c->ext.agg, 0, 1) > 0)
		gx_cpu_record_error(&job->error, 0, GX_ERR_BAD_PROGRAM);	/* cannot happen */
	else if (nagg > 0)
	{
		gx_agg_pair *stripe = job->agg + (size_t) (t % GX_AGG_STRIPES) * GX_MAX_AGGS;

		for (uint32_t a = 0; a < nagg; a++)
		{
			if (my_cnt[a] == 0)
				continue;
			__atomic_fetch_add(&stripe[a].val, my_val[a], __ATOMIC_RELAXED);
			__atomic_fetch_add(&stripe[a].cnt, my_cnt[a], __ATOMIC_RELAXED);
		}
	}
}

/* the statistics and flags of a task run by the CPU device */
static void
gx_cpu_finish(gx_result *res, std::chrono::steady_clock::time_point t0)
{
	res->kernel_ns = (uint64_t) std::chrono::duration_cast<std::chrono::nanoseconds>(
		std::chrono::steady_clock::now() - t0).count();
	res->h2d_ns = res->d2h_ns = 0;
	res->bytes_h2d = res->bytes_d2h = 0;
	res->flags = 0;
	res->pad = 0;
	res->pad3 = 0;
}

/* FILTER, CACHE_LOAD, CACHE_SCAN on the pool (the task is valid) */
gx_status
gx_cpu_rows(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_cpu_rows_job job;
	gx_result  *res = gx_chunk_result(c);
	auto		t0 = std::chrono::steady_clock::now();

	(void) err;
	(void) errlen;
	/* the big sets' object, for GX_OP_INBIGSET (validated) */
	c->ext.sets = (uint64_t) (uintptr_t) ctx->obj[GX_TASK_OBJ_SETS];
	job.c = c;
	job.colbase = c->kind == GX_TASK_CACHE_SCAN ? ctx->entry : (const char *) c;
	job.rowmap = c->kind == GX_TASK_CACHE_SCAN && c->ext.map_sel ?
		(const uint32_t *) (ctx->entry + c->ext.rowmap_off) : NULL;
	job.group = c->ext.ngroup_cap > 0 ? ctx->obj[0] : NULL;
	job.agg = c->ext.nagg > 0 && job.group == NULL ? (gx_agg_pair *) ctx->obj[0] : NULL;
	job.skip_blocks = c->kind == GX_TASK_CACHE_SCAN ? c->ext.skip_blocks : 0;
	job.skip_bits = (const uint32_t *) ((const char *) c + c->ext.skip_off);
	job.emap = c->kind == GX_TASK_CACHE_SCAN ?
		(const uint32_t *) (ctx->entry + c->ext.rowmap_off) : NULL;

	res->ntiles = gx_ntiles(c->nrows);
	gx_cpu_parallel(gx_cpu_rows_worker, &job, (int) res->ntiles);

	res->nsel = job.nsel.load();
	res->error = job.error.load();
	res->error_key = 0;
	for (int a = 0; a < GX_MAX_AGGS; a++)
		res->agg_val[a] = res->agg_cnt[a] = 0;
	if (res->error != GX_NO_ERROR && job.rowmap)
		res->error_key = job.rowmap[res->error >> 8];
	if (c->kind == GX_TASK_CACHE_LOAD && res->error == GX_NO_ERROR)
		gx_cpu_cache_append(c, ctx->entry);
	gx_cpu_finish(res, t0);
	if (job.host.load())
		res->flags |= GX_RESULT_HOST;
	if (job.full.load())
		res->flags |= GX_RESULT_FULL;
	return GX_OK;
}

/* ---------------------------------------------------------------------- */
/* AGG_READ                                                               */
/* ---------------------------------------------------------------------- */

/* the totals of the state object's stripes into the result; zero the state */
gx_status
gx_cpu_agg_read(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_agg_pair *state = (gx_agg_pair *) ctx->obj[0];
	gx_result  *res = gx_chunk_result(c);
	auto		t0 = std::chrono::steady_clock::now();

	(void) err;
	(void) errlen;
	memset(res, 0, sizeof(*res));
	res->error = GX_NO_ERROR;
	for (uint32_t a = 0; a < c->ext.nagg; a++)
	{
		uint64_t	val = 0,
					cnt = 0;

		for (int s = 0; s < GX_AGG_STRIPES; s++)
		{
			val += (uint64_t) __atomic_load_n(&state[s * GX_MAX_AGGS + a].val, __ATOMIC_RELAXED);
			cnt += (uint64_t) __atomic_load_n(&state[s * GX_MAX_AGGS + a].cnt, __ATOMIC_RELAXED);
		}
		res->agg_val[a] = (int64_t) val;
		res->agg_cnt[a] = (int64_t) cnt;
	}
	memset(state, 0, GX_AGG_STATE_BYTES);
	gx_cpu_finish(res, t0);
	return GX_OK;
}

/* ---------------------------------------------------------------------- */
/* GROUP_READ                                                             */
/* ---------------------------------------------------------------------- */

/*
 * the READY slots of [row0, row0 + nrows) of a group table, as result
 * records (GX_GROUP_DISCARD: none); they are emptied, and the read of the
 * last range empties the table
 */
gx_status
gx_cpu_group_read(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_result  *res = gx_chunk_result(c);
	const uint64_t sb = gx_group_slot_bytes(c->ext.ngkeys, c->ext.nagg);
	char	   *slots = ctx->obj[0] + sizeof(gx_group_hdr);
	char	   *rec = (char *) res + GX_ALIGN_UP(sizeof(gx_result));
	uint32_t	n = 0;
	const bool	discard = (c->ext.gflags & GX_GROUP_DISCARD) != 0;
	auto		t0 = std::chrono::steady_clock::now();

	(void) err;
	(void) errlen;
	memset(res, 0, sizeof(*res));
	res->error = GX_NO_ERROR;
	for (uint32_t i = 0; i < c->nrows; i++)
	{
		char	   *src = slots + (uint64_t) (c->ext.row0 + i) * sb;

		if (__atomic_load_n((const uint32_t *) src, __ATOMIC_ACQUIRE) != GX_GSLOT_READY)
			continue;
		if (!discard)
			memcpy(rec + (uint64_t) n++ * sb, src, sb);
		*(uint32_t *) src = GX_GSLOT_EMPTY;
	}
	if (c->ext.row0 + c->nrows == c->ext.ngroup_cap)
		memset(ctx->obj[0], 0, sizeof(gx_group_hdr));	/* the table is empty again */
	res->nsel = n;
	gx_cpu_finish(res, t0);
	return GX_OK;
}

/* ---------------------------------------------------------------------- */
/* joins: JOIN_BUILD, FINISH_BUILD, PROBE, UNMATCHED (gx_join.cuh)       */
/* ---------------------------------------------------------------------- */

/* the result header of a join task of ntiles tiles before it runs */
static void
gx_cpu_join_reset(gx_result *res, uint32_t ntiles)
{
	memset(res, 0, sizeof(*res));
	res->error = GX_NO_ERROR;
	res->ntiles = ntiles;
}

/* the rows of a JOIN_BUILD / JOIN_PROBE task (gx_join.cuh, gx_jin) */
static gx_jin
gx_cpu_join_input(gx_chunk *c, const gx_task_ctx *ctx)
{
	const char *entry = c->ext.entry >= 0 ? ctx->entry : NULL;

	return gx_jin_of(c, (const char *) c, entry != NULL ? entry : (const char *) c, entry);
}

/* what the threads of a JOIN_BUILD share */
struct gx_cpu_join_build_job
{
	gx_chunk   *c;
	gx_jin		in;				/* its rows */
	gx_jtab		t;
	uint32_t   *sel;			/* rows for the host (no room, GX_ERR_HOST) */
	std::atomic<uint32_t> next_tile {0};
	std::atomic<uint32_t> nsel {0};
	std::atomic<uint64_t> added {0};
	std::atomic<uint64_t> error {GX_NO_ERROR};
	std::atomic<bool> host {false};
	std::atomic<bool> full {false};
};

/* thread t of a JOIN_BUILD: evaluate tiles of rows and add the passing ones */
static void
gx_cpu_join_build_worker(void *arg, int t)
{
	gx_cpu_join_build_job *job = (gx_cpu_join_build_job *) arg;
	gx_chunk   *c = job->c;
	const gx_join_ext *j = &c->ext.join;
	const uint32_t ntiles = gx_ntiles(c->nrows);
	uint32_t	local[GX_TILE_ROWS];
	uint64_t	added = 0;

	(void) t;
	for (;;)
	{
		uint32_t	tile,
					lo,
					hi;

		if (!gx_cpu_take_tile(job->next_tile, ntiles, c->nrows, &tile, &lo, &hi))
			break;
		uint32_t	cnt = 0;

		if (c->deform_off != 0)
			hi = gx_cpu_deform_tile(c, lo, hi, &job->error);
		for (uint32_t row = lo; row < hi; row++)
		{
			gx_reg		out[GX_MAX_OUTS];
			int			err;

			if (gx_jin_skipped(&job->in, row))
				continue;
			if (gx_eval_row_out(c, job->in.colbase, row, &err, out))
			{
				int			r = gx_join_build_row(&job->t, j, out,
												  (int64_t) (j->row_base + row));

				if (r == GX_JOIN_ADDED)
					added++;
				else if (r == GX_JOIN_NO_ROOM)
				{
					local[cnt++] = row;
					job->full.store(true, std::memory_order_relaxed);
				}
			}
			else if (err == GX_ERR_HOST)
			{
				local[cnt++] = row;
				job->host.store(true, std::memory_order_relaxed);
			}
			else if (err != GX_ERR_NONE)
			{
				gx_cpu_record_error(&job->error, row, err);
				break;
			}
		}
		uint32_t	base = job->nsel.fetch_add(cnt);

		for (uint32_t i = 0; i < cnt; i++)
			job->sel[base + i] = local[i];
	}
	job->added.fetch_add(added);
}

/*
 * JOIN_BUILD (valid): add the passing rows into the join table obj[0];
 * the rows it has no room for, and those for the host, are selected
 * (ntiles 0: nsel row numbers after the header, in no order)
 */
gx_status
gx_cpu_join_build(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_cpu_join_build_job job;
	gx_result  *res = gx_chunk_result(c);
	auto		t0 = std::chrono::steady_clock::now();

	(void) err;
	(void) errlen;
	gx_cpu_join_reset(res, 0);
	job.c = c;
	job.in = gx_cpu_join_input(c, ctx);
	job.t = gx_jtab_of(ctx->obj[0], &c->ext.join);
	gx_jtab_cols(&job.t, ctx->obj[GX_JOIN_OBJ_COLS], &c->ext.join);
	job.sel = gx_result_sel(res);
	if (job.t.hdr->built)
		gx_cpu_record_error(&job.error, 0, GX_ERR_BAD_PROGRAM);	/* built already */
	else
		gx_cpu_parallel(gx_cpu_join_build_worker, &job, (int) gx_ntiles(c->nrows));
	res->nsel = job.nsel.load();
	res->error = job.error.load();
	res->join_count = job.added.load();
	gx_cpu_finish(res, t0);
	if (job.host.load())
		res->flags |= GX_RESULT_HOST;
	if (job.full.load())
		res->flags |= GX_RESULT_FULL;
	return GX_OK;
}

/* what the threads of a JOIN_FINISH_BUILD share */
struct gx_cpu_join_finish_job
{
	gx_jtab		t;
	uint32_t	n;				/* staged rows */
	std::atomic<uint32_t> next {0};
};

#define GX_CPU_PLACE_ROWS 65536	/* staged rows a thread places at a time */

/* thread t of a JOIN_FINISH_BUILD: place ranges of staged rows */
static void
gx_cpu_join_place_worker(void *arg, int t)
{
	gx_cpu_join_finish_job *job = (gx_cpu_join_finish_job *) arg;

	(void) t;
	for (;;)
	{
		uint32_t	lo = job->next.fetch_add(GX_CPU_PLACE_ROWS);

		if (lo >= job->n)
			break;
		uint32_t	hi = job->n - lo < GX_CPU_PLACE_ROWS ? job->n : lo + GX_CPU_PLACE_ROWS;

		for (uint32_t i = lo; i < hi; i++)
			gx_join_place(&job->t, i);
	}
}

/* ---- the range join's FINISH_BUILD (gx_jrange.cuh): a parallel sort ---- */

/* a (key, payload) pair being sorted */
struct gx_cpu_jrange_pair
{
	int64_t		key;
	int64_t		pay;

	bool		operator<(const gx_cpu_jrange_pair &o) const
	{
		return key < o.key || (key == o.key && pay < o.pay);
	}
};

#define GX_CPU_SORT_SEGS 64		/* segments sorted in parallel, then merged */

/* the first index of segment i of n entries cut into nseg */
static uint32_t
gx_cpu_seg(uint32_t n, uint32_t nseg, uint32_t i)
{
	return (uint32_t) ((uint64_t) n * i / nseg);
}

/*
 * Take the next of the nseg segments of n entries that no thread took
 * yet (next counts them): its number and its range [*lo, *hi); false when
 * none is left
 */
static bool
gx_cpu_take_seg(std::atomic<uint32_t> &next, uint32_t n, uint32_t nseg, uint32_t *seg,
				uint32_t *lo, uint32_t *hi)
{
	*seg = next.fetch_add(1);
	if (*seg >= nseg)
		return false;
	*lo = gx_cpu_seg(n, nseg, *seg);
	*hi = gx_cpu_seg(n, nseg, *seg + 1);
	return true;
}

/*
 * Merge the nseg sorted segments (gx_cpu_seg) of a[0, n) into one sorted
 * run, pairs of runs at a time (std::inplace_merge: with a temporary
 * buffer if it gets one, else in place)
 */
template <typename T, typename Less>
static void
gx_cpu_merge_segments(T *a, uint32_t n, uint32_t nseg, Less less)
{
	for (uint32_t w = 1; w < nseg; w *= 2)
		for (uint32_t s = 0; s + w < nseg; s += 2 * w)
		{
			uint32_t	e = s + 2 * w < nseg ? s + 2 * w : nseg;

			std::inplace_merge(a + gx_cpu_seg(n, nseg, s), a + gx_cpu_seg(n, nseg, s + w),
							   a + gx_cpu_seg(n, nseg, e), less);
		}
}

/* what the threads of a range FINISH_BUILD share */
struct gx_cpu_jrange_job
{
	gx_jtab		t;
	gx_cpu_jrange_pair *p;		/* n pairs, over skey and run (16 n bytes) */
	uint32_t	n;
	uint32_t	nseg;
	int			phase;			/* 0: gather and sort, 1: split, 2: copy */
	std::atomic<uint32_t> next {0};
};

/*
 * thread t of a range FINISH_BUILD, segment at a time: phase 0 gathers
 * the segment's appended rows into pairs and sorts them; phase 1 splits
 * the merged pairs into key / pay (free once gathered); phase 2 copies
 * those into skey / run (where the pairs were)
 */
static void
gx_cpu_jrange_worker(void *arg, int t)
{
	gx_cpu_jrange_job *job = (gx_cpu_jrange_job *) arg;

	uint32_t	seg,
				lo,
				hi;

	(void) t;
	while (gx_cpu_take_seg(job->next, job->n, job->nseg, &seg, &lo, &hi))
	{

		for (uint32_t i = lo; i < hi; i++)
		{
			if (job->phase == 0)
				job->p[i] = gx_cpu_jrange_pair {job->t.key[i], job->t.pay[i]};
			else if (job->phase == 1)
			{
				job->t.key[i] = job->p[i].key;
				job->t.pay[i] = job->p[i].pay;
			}
		}
		if (job->phase == 0)
			std::sort(job->p + lo, job->p + hi);
		else if (job->phase == 2)
		{
			memcpy(job->t.skey + lo, job->t.key + lo, sizeof(int64_t) * (hi - lo));
			memcpy(job->t.run + lo, job->t.pay + lo, sizeof(int64_t) * (hi - lo));
		}
	}
}

/*
 * JOIN_FINISH_BUILD of a range table (valid): sort the appended (key,
 * payload) pairs by key (then payload) into skey / run within the table:
 * the pairs are sorted where skey and run lie (16 bytes a row:
 * gx_jrange_layout), in segments in parallel, merged (std::inplace_merge:
 * with a temporary buffer if it gets one, else in place), split into key
 * / pay and copied into place; the table is sealed (built)
 */
static gx_status
gx_cpu_jrange_finish(gx_chunk *c, const gx_task_ctx *ctx)
{
	gx_cpu_jrange_job job;
	gx_result  *res = gx_chunk_result(c);
	auto		t0 = std::chrono::steady_clock::now();

	gx_cpu_join_reset(res, 0);
	job.t = gx_jtab_range_of(ctx->obj[0], &c->ext.join);
	job.n = job.t.hdr->nrows < job.t.cap ? job.t.hdr->nrows : job.t.cap;
	job.p = (gx_cpu_jrange_pair *) job.t.skey;
	job.nseg = job.n < 65536 ? 1 : GX_CPU_SORT_SEGS;
	for (job.phase = 0; job.phase < 3; job.phase++)
	{
		job.next.store(0);
		gx_cpu_parallel(gx_cpu_jrange_worker, &job, (int) job.nseg);
		/* after the sort: merge the segments */
		if (job.phase == 0)
			gx_cpu_merge_segments(job.p, job.n, job.nseg,
								  std::less<gx_cpu_jrange_pair>());
	}
	job.t.hdr->rows = job.n;
	job.t.hdr->built = 1;
	res->join_count = job.n;
	gx_cpu_finish(res, t0);
	return GX_OK;
}


/* ---- the merge join (gx_jmerge.cuh): sorts, run-length encoding, merge ---- */

/* what the threads of a permutation sort share */
struct gx_cpu_jm_sort_job
{
	uint32_t   *perm;			/* n indexes, sorted by (k0, k1, index) */
	const int64_t *k0;
	const int64_t *k1;			/* NULL: one key */
	uint32_t	n;
	uint32_t	nseg;
	std::atomic<uint32_t> next {0};

	/* does index a sort before index b? */
	bool		less(uint32_t a, uint32_t b) const
	{
		int64_t		a1 = gx_jm_k1(k1, a),
					b1 = gx_jm_k1(k1, b);

		return k0[a] < k0[b] || (k0[a] == k0[b] && (a1 < b1 || (a1 == b1 && a < b)));
	}
};

/* thread t of a permutation sort: segments at a time, the identity, sorted */
static void
gx_cpu_jm_sort_worker(void *arg, int t)
{
	gx_cpu_jm_sort_job *job = (gx_cpu_jm_sort_job *) arg;

	uint32_t	seg,
				lo,
				hi;

	(void) t;
	while (gx_cpu_take_seg(job->next, job->n, job->nseg, &seg, &lo, &hi))
	{

		for (uint32_t i = lo; i < hi; i++)
			job->perm[i] = i;
		std::sort(job->perm + lo, job->perm + hi,
				  [job] (uint32_t a, uint32_t b) { return job->less(a, b); });
	}
}

/*
 * perm[0, n) = the indexes of the keys (k0, k1; k1 NULL: one key) in key
 * order (ties by index: deterministic): segments sorted by the threads,
 * merged pairwise (std::inplace_merge)
 */
static void
gx_cpu_jm_sort(uint32_t *perm, uint32_t n, const int64_t *k0, const int64_t *k1)
{
	gx_cpu_jm_sort_job job;

	job.perm = perm;
	job.k0 = k0;
	job.k1 = k1;
	job.n = n;
	job.nseg = n < 65536 ? 1 : GX_CPU_SORT_SEGS;
	gx_cpu_parallel(gx_cpu_jm_sort_worker, &job, (int) job.nseg);
	gx_cpu_merge_segments(perm, n, job.nseg,
						  [&job] (uint32_t a, uint32_t b) { return job.less(a, b); });
}

/* what the threads of a merge FINISH_BUILD share (after the sort) */
struct gx_cpu_jm_finish_job
{
	gx_jtab		t;
	const uint32_t *perm;
	uint32_t	n;
	uint32_t	nseg;
	uint32_t	seg_heads[GX_CPU_SORT_SEGS + 1];	/* heads per segment, then
													 * their prefix */
	int			phase;			/* 0: gather and count heads, 1: encode */
	std::atomic<uint32_t> next {0};
};

/*
 * thread t of a merge FINISH_BUILD, segment at a time: phase 0 gathers
 * the sorted keys and payloads and counts the segment's run heads; phase
 * 1 (the heads' prefix known) writes each row's distinct key and each
 * distinct key with its run's start
 */
static void
gx_cpu_jm_finish_worker(void *arg, int t)
{
	gx_cpu_jm_finish_job *job = (gx_cpu_jm_finish_job *) arg;
	const gx_jtab *tb = &job->t;

	uint32_t	seg,
				lo,
				hi;

	(void) t;
	while (gx_cpu_take_seg(job->next, job->n, job->nseg, &seg, &lo, &hi))
	{

		if (job->phase == 0)
		{
			uint32_t	h = 0;

			for (uint32_t i = lo; i < hi; i++)
			{
				uint32_t	p = job->perm[i];

				tb->skey[i] = tb->key[p];
				tb->skey1[i] = tb->key1[p];
				tb->run[i] = tb->pay[p];
				/* (a head: its key differs from the row before's, maybe another segment's) */
				h += i == 0 || tb->key[p] != tb->key[job->perm[i - 1]] ||
					tb->key1[p] != tb->key1[job->perm[i - 1]];
			}
			job->seg_heads[seg] = h;
			continue;
		}
		uint32_t	u = job->seg_heads[seg];

		for (uint32_t i = lo; i < hi; i++)
		{
			if (gx_jmerge_head(tb->skey, tb->skey1, i))
			{
				tb->ukey0[u] = tb->skey[i];
				tb->ukey1[u] = tb->skey1[i];
				tb->ustart[u] = i;
				u++;
			}
			tb->urow[i] = u - 1;
		}
	}
}

/*
 * JOIN_FINISH_BUILD of a merge table (valid): sort the appended rows by
 * key into skey0 / skey1 / run, encode the distinct keys (ukey0, ukey1,
 * ustart, urow; hdr.keys); the table is sealed (built)
 */
static gx_status
gx_cpu_jmerge_finish(gx_chunk *c, const gx_task_ctx *ctx)
{
	gx_cpu_jm_finish_job job;
	gx_result  *res = gx_chunk_result(c);
	gx_jmerge_offs o;
	auto		t0 = std::chrono::steady_clock::now();
	uint32_t	acc = 0;

	gx_cpu_join_reset(res, 0);
	gx_jmerge_layout(c->ext.join.cap, &o);
	job.t = gx_jtab_merge_of(ctx->obj[0], &c->ext.join);
	job.n = gx_join_staged_rows(&job.t);
	job.perm = (const uint32_t *) (ctx->obj[0] + o.vx);
	job.nseg = job.n < 65536 ? 1 : GX_CPU_SORT_SEGS;
	gx_cpu_jm_sort((uint32_t *) job.perm, job.n, job.t.key,
				   job.t.nkeys > 1 ? job.t.key1 : NULL);
	job.phase = 0;
	gx_cpu_parallel(gx_cpu_jm_finish_worker, &job, (int) job.nseg);
	/* the prefix of the segments' heads (serial: nseg values) */
	for (uint32_t seg = 0; seg < job.nseg; seg++)
	{
		uint32_t	h = job.seg_heads[seg];

		job.seg_heads[seg] = acc;
		acc += h;
	}
	job.phase = 1;
	job.next.store(0);
	gx_cpu_parallel(gx_cpu_jm_finish_worker, &job, (int) job.nseg);
	job.t.hdr->keys = acc;
	job.t.hdr->rows = job.n;
	job.t.hdr->built = 1;
	res->join_count = job.n;
	gx_cpu_finish(res, t0);
	return GX_OK;
}

/*
 * JOIN_FINISH_BUILD (valid): kstart = the exclusive prefix sum of kcount,
 * each staged row into its key's run; the table is sealed (built).  A
 * range table is sorted instead (gx_cpu_jrange_finish).
 */
gx_status
gx_cpu_join_finish(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_cpu_join_finish_job job;
	gx_result  *res = gx_chunk_result(c);
	auto		t0 = std::chrono::steady_clock::now();
	uint32_t	acc = 0;

	(void) err;
	(void) errlen;
	if (c->ext.join.alg == GX_JOIN_RANGE)
		return gx_cpu_jrange_finish(c, ctx);
	if (c->ext.join.alg == GX_JOIN_MERGE)
		return gx_cpu_jmerge_finish(c, ctx);
	gx_cpu_join_reset(res, 0);
	job.t = gx_jtab_of(ctx->obj[0], &c->ext.join);
	job.n = gx_join_staged_rows(&job.t);
	if (!(c->ext.join.jflags & GX_JOIN_NO_RUNS))
	{
		for (uint32_t s = 0; s <= job.t.kmask; s++)
		{
			job.t.kstart[s] = acc;
			acc += job.t.kcount[s];
		}
		gx_cpu_parallel(gx_cpu_join_place_worker, &job,
						(int) ((job.n + GX_CPU_PLACE_ROWS - 1) / GX_CPU_PLACE_ROWS));
	}
	job.t.hdr->rows = job.n;
	job.t.hdr->noruns = (c->ext.join.jflags & GX_JOIN_NO_RUNS) != 0;
	job.t.hdr->built = 1;
	res->join_count = job.n;
	gx_cpu_finish(res, t0);
	return GX_OK;
}

/* what the threads of a JOIN_PROBE share */
struct gx_cpu_join_probe_job
{
	gx_chunk   *c;
	gx_jin		in;				/* its rows */
	gx_jtab		t;
	uint64_t   *te;				/* per tile: entries, then their offset */
	uint64_t   *tm;				/* per tile: matches, then their prefix */
	gx_join_pair *pairs;
	int64_t    *gval;			/* a gathering probe's columns (ngather > 0), else NULL */
	uint8_t    *gnull;
	uint32_t	ntiles;
	int			write;			/* phase 3 (else phase 1) */
	std::atomic<uint32_t> next_tile {0};
	std::atomic<uint64_t> error {GX_NO_ERROR};
	std::atomic<bool> host {false};
};


/* what the threads of a merge probe's extract, gather and merge share */
struct gx_cpu_jm_probe_job
{
	gx_chunk   *c;
	gx_jin		in;
	const gx_jtab *t;
	int64_t    *ok0,
			   *ok1;			/* the rows' keys */
	int64_t    *kx,
			   *ky;				/* ... sorted */
	uint32_t   *perm;			/* the rows in key order */
	gx_jmerge  *m;
	uint64_t	nwork;			/* tiles, row ranges or merge parts */
	int			phase;			/* 0: extract, 1: gather, 2: merge */
	std::atomic<uint64_t> next {0};
	std::atomic<uint64_t> *error;
};

#define GX_CPU_MERGE_PARTS 64	/* merge path parts a thread takes at a time */

/*
 * thread t of a merge probe: phase 0 extracts tiles of rows (deformed
 * first), phase 1 gathers the sorted keys, phase 2 walks the merge path,
 * GX_CPU_MERGE_PARTS parts at a time
 */
static void
gx_cpu_jm_probe_worker(void *arg, int t)
{
	gx_cpu_jm_probe_job *job = (gx_cpu_jm_probe_job *) arg;
	gx_chunk   *c = job->c;
	const gx_join_ext *j = &c->ext.join;

	(void) t;
	for (;;)
	{
		uint64_t	w = job->next.fetch_add(1);

		if (w >= job->nwork)
			break;
		if (job->phase == 2)
		{
			uint64_t	p1 = (w + 1) * GX_CPU_MERGE_PARTS;

			for (uint64_t p = w * GX_CPU_MERGE_PARTS; p < p1; p++)
				gx_jmerge_part(job->m, p);
			continue;
		}
		uint32_t	lo = (uint32_t) w * GX_TILE_ROWS;
		uint32_t	hi = lo + GX_TILE_ROWS < c->nrows ? lo + GX_TILE_ROWS : c->nrows;

		if (job->phase == 1)
		{
			for (uint32_t i = lo; i < hi; i++)
			{
				job->kx[i] = job->ok0[job->perm[i]];
				job->ky[i] = job->ok1[job->perm[i]];
			}
			continue;
		}
		uint32_t	end = c->deform_off != 0 ? gx_cpu_deform_tile(c, lo, hi, job->error) : hi;

		for (uint32_t row = lo; row < hi; row++)
		{
			gx_jmerge_row *mr = &job->m->mrow[row];
			int			err;

			if (row >= end)
			{
				/* (not deformed: an error was recorded) */
				mr->state = GX_JM_NONE;
				mr->start = mr->count = 0;
				job->ok0[row] = job->ok1[row] = GX_JM_MAX_KEY;
				continue;
			}
			err = gx_jmerge_extract(c, &job->in, job->t, j, row, &job->ok0[row],
									&job->ok1[row], mr);
			if (err != GX_ERR_NONE)
				gx_cpu_record_error(job->error, row, err);
		}
	}
}

/*
 * A merge PROBE's steps before the hash probe's phases (gx_jmerge.cuh):
 * extract the rows (their keys and states into the scratch of the result
 * area res), sort them by key, merge them with the table's distinct keys:
 * each keyed row's run into t->mrow
 */
static void
gx_cpu_jmerge_probe(gx_chunk *c, gx_jin in, const gx_jtab *t, gx_result *res, char *mscratch,
					std::atomic<uint64_t> *error)
{
	gx_jmerge_probe_offs o;
	char	   *scratch = gx_jmerge_scratch(&c->ext.join, (char *) res, mscratch, c->nrows);
	gx_jmerge	m;
	gx_cpu_jm_probe_job job;
	const uint32_t ntiles = gx_ntiles(c->nrows);

	gx_jmerge_probe_layout(c->nrows, &o);
	job.c = c;
	job.in = in;
	job.t = t;
	job.ok0 = (int64_t *) (scratch + o.ok0);
	job.ok1 = (int64_t *) (scratch + o.ok1);
	job.kx = (int64_t *) (scratch + o.kx);
	job.ky = (int64_t *) (scratch + o.ky);
	job.perm = (uint32_t *) (scratch + o.vx);
	job.m = &m;
	job.error = error;
	m.mrow = t->mrow;
	/* (a) extract */
	job.phase = 0;
	job.nwork = ntiles;
	gx_cpu_parallel(gx_cpu_jm_probe_worker, &job, (int) ntiles);
	/* (b) sort, then the sorted keys gathered */
	gx_cpu_jm_sort(job.perm, c->nrows, job.ok0, t->nkeys > 1 ? job.ok1 : NULL);
	job.phase = 1;
	job.next.store(0);
	gx_cpu_parallel(gx_cpu_jm_probe_worker, &job, (int) ntiles);
	/* (c) merge with the distinct keys */
	m.a0 = job.kx;
	m.a1 = t->nkeys > 1 ? job.ky : NULL;
	m.arow = job.perm;
	m.na = c->nrows;
	m.b0 = t->ukey0;
	m.b1 = t->ukey1;
	m.ustart = t->ustart;
	m.nb = t->ukeys;
	m.rows = t->rows;
	m.umatched = GX_JOIN_MODE_MARKS(c->ext.join.mode) ? t->kmatched : NULL;
	job.phase = 2;
	job.nwork = (gx_jmerge_parts(&m) + GX_CPU_MERGE_PARTS - 1) / GX_CPU_MERGE_PARTS;
	job.next.store(0);
	gx_cpu_parallel(gx_cpu_jm_probe_worker, &job, (int) job.nwork);
}

/*
 * thread t of a JOIN_PROBE: phase 1 (count a tile's entries and matches)
 * or phase 3 (write them from the tile's offset on), tiles at a time
 */
static void
gx_cpu_join_probe_worker(void *arg, int t)
{
	gx_cpu_join_probe_job *job = (gx_cpu_join_probe_job *) arg;
	gx_chunk   *c = job->c;
	const gx_join_ext *j = &c->ext.join;
	const int	count_only = c->ext.count_only != 0;

	(void) t;
	for (;;)
	{
		uint32_t	tile,
					lo,
					hi;

		if (!gx_cpu_take_tile(job->next_tile, job->ntiles, c->nrows, &tile, &lo, &hi))
			break;
		uint64_t	e = 0,
					m = 0;
		uint64_t	off = job->write ? job->te[tile] : 0;

		/* (pages are deformed in phase 1, for both phases; a merge's in its extract) */
		if (!job->write && c->deform_off != 0 && job->t.alg != GX_JOIN_MERGE)
			hi = gx_cpu_deform_tile(c, lo, hi, &job->error);
		if (lo < j->first_row)
			lo = j->first_row < hi ? j->first_row : hi;
		if (job->write && off >= j->max_pairs)
			continue;
		for (uint32_t row = lo; row < hi; row++)
		{
			gx_jrow		jr;
			int			err = gx_join_probe_in(c, &job->in, &job->t, j, count_only, row, &jr);

			if (err != GX_ERR_NONE)
			{
				if (!job->write)
					gx_cpu_record_error(&job->error, row, err);
				continue;
			}
			if (job->write)
			{
				if (jr.e > 0)
				{
					gx_join_write_row(&job->t, &jr, j->mode, gx_jin_outer(&job->in, row), off,
									  j->max_pairs, job->pairs);
					if (job->gval != NULL)
						gx_join_gather_row(c, job->in.colbase, &job->t, j, &jr, row, off,
										   j->max_pairs, job->gval, job->gnull);
				}
				off += jr.e;
				if (off >= j->max_pairs)
					break;
				continue;
			}
			e += jr.e;
			m += jr.m;
			if (jr.host)
				job->host.store(true, std::memory_order_relaxed);
		}
		if (!job->write)
		{
			job->te[tile] = e;
			job->tm[tile] = m;
		}
	}
}

/*
 * The end of a pass whose entries (E in all) pass max_pairs: the outer
 * row of entry max_pairs and how many of its matches the pass wrote
 * (next_row / next_match), and the matches of the pass (join_count)
 */
static void
gx_cpu_join_pass_end(gx_cpu_join_probe_job *job, uint64_t E, gx_result *res)
{
	gx_chunk   *c = job->c;
	const gx_join_ext *j = &c->ext.join;
	const uint64_t max = j->max_pairs;
	uint32_t	ts = 0;

	/* the tile that holds position max: te[ts] <= max < the next offset */
	for (ts = 0; ts < job->ntiles; ts++)
	{
		uint64_t	next = ts + 1 < job->ntiles ? job->te[ts + 1] : E;

		if (job->te[ts] <= max && max < next)
			break;
	}
	if (ts == job->ntiles)
		return;					/* cannot happen: E > max */

	uint64_t	off = job->te[ts],
				mpre = job->tm[ts];
	uint32_t	lo = ts * GX_TILE_ROWS;
	uint32_t	hi = lo + GX_TILE_ROWS < c->nrows ? lo + GX_TILE_ROWS : c->nrows;

	for (uint32_t row = lo < j->first_row ? j->first_row : lo; row < hi; row++)
	{
		gx_jrow		jr;

		if (gx_join_probe_in(c, &job->in, &job->t, j, c->ext.count_only != 0, row,
							 &jr) != GX_ERR_NONE)
			continue;
		if (jr.e > 0 && off <= max && max < off + jr.e)
		{
			res->next_row = row;
			res->next_match = (uint32_t) (max - off) + jr.skip;
			res->join_count = mpre + (jr.host ? 0 : max - off);
			return;
		}
		off += jr.e;
		mpre += jr.m;
	}
}

/* what the threads of a group JOIN_PROBE share */
struct gx_cpu_join_group_job
{
	gx_chunk   *c;
	gx_jin		in;				/* its rows */
	gx_jtab		t;				/* the join table and its inner columns */
	gx_jlevels	lv;				/* a multi-level probe's other levels */
	char	   *group;			/* the group table object */
	uint32_t	ntiles;
	std::atomic<uint32_t> next_tile {0};
	std::atomic<uint64_t> added {0};
	std::atomic<uint64_t> noroom {0};
	std::atomic<uint64_t> host {0};
	std::atomic<uint64_t> error {GX_NO_ERROR};
};

/*
 * thread t of a group JOIN_PROBE: tiles of outer rows (deformed first),
 * each row's pairs into the thread's own group table (gx_join_group_row),
 * merged into the shared one at the end
 */
static void
gx_cpu_join_group_worker(void *arg, int t)
{
	gx_cpu_join_group_job *job = (gx_cpu_join_group_job *) arg;
	gx_chunk   *c = job->c;
	gx_cpu_gtabs tabs;
	gx_jgcount	n = {0, 0, 0};

	(void) t;
	tabs.init(job->group, &c->ext);
	for (;;)
	{
		uint32_t	tile,
					lo,
					hi;

		if (!gx_cpu_take_tile(job->next_tile, job->ntiles, c->nrows, &tile, &lo, &hi))
			break;

		/* (a merge probe's pages were deformed in its extract) */
		if (c->deform_off != 0 && job->t.alg != GX_JOIN_MERGE)
			hi = gx_cpu_deform_tile(c, lo, hi, &job->error);
		for (uint32_t row = lo; row < hi; row++)
		{
			int			err = gx_join_group_row(c, &job->in, &job->t, &job->lv, &c->ext,
												c->ext.agg, row, &tabs.l, &tabs.g, &n);

			if (err != GX_ERR_NONE)
			{
				gx_cpu_record_error(&job->error, row, err);
				break;			/* the task fails: later rows cannot matter */
			}
		}
	}
	if (gx_group_merge_table(&tabs.l, &tabs.g, c->ext.agg, 0, 1) > 0)
		gx_cpu_record_error(&job->error, 0, GX_ERR_BAD_PROGRAM);	/* cannot happen */
	job->added.fetch_add(n.added);
	job->noroom.fetch_add(n.noroom);
	job->host.fetch_add(n.host);
}

/*
 * A group JOIN_PROBE (valid, ext.ngroup_cap > 0): the outer rows against
 * the sealed join table obj[0] (a merge probe's rows sorted and merged
 * first), every joined pair into the group table obj[GX_JOIN_OBJ_GROUP]
 * with its inner columns from obj[GX_JOIN_OBJ_COLS]; no entry written
 */
static gx_status
gx_cpu_join_group(gx_chunk *c, const gx_task_ctx *ctx)
{
	gx_cpu_join_group_job job;
	gx_result  *res = gx_chunk_result(c);
	const gx_join_ext *j = &c->ext.join;
	auto		t0 = std::chrono::steady_clock::now();
	gx_jlevel_objs lobj = gx_jlevel_objs_of(ctx);
	int			levels_built;

	job.c = c;
	job.in = gx_cpu_join_input(c, ctx);
	job.ntiles = gx_ntiles(c->nrows);
	job.t = gx_jtab_probe_of(ctx->obj[0], j, (char *) res, ctx->obj[GX_JOIN_OBJ_MSCRATCH],
							 c->nrows);
	gx_jtab_cols(&job.t, ctx->obj[GX_JOIN_OBJ_COLS], j);
	gx_jlevels_of(&job.lv, j, &lobj, &levels_built);
	job.group = ctx->obj[GX_JOIN_OBJ_GROUP];
	gx_cpu_join_reset(res, job.ntiles);
	res->next_row = c->nrows;
	if (!job.t.hdr->built || !levels_built)
		gx_cpu_record_error(&job.error, 0, GX_ERR_BAD_PROGRAM);	/* not finished */
	else
	{
		if (j->alg == GX_JOIN_MERGE)
			gx_cpu_jmerge_probe(c, job.in, &job.t, res, ctx->obj[GX_JOIN_OBJ_MSCRATCH],
								&job.error);
		gx_cpu_parallel(gx_cpu_join_group_worker, &job, (int) job.ntiles);
	}
	res->error = job.error.load();
	res->join_count = job.added.load();
	res->join_noroom = job.noroom.load();
	res->join_host = job.host.load();
	gx_cpu_finish(res, t0);
	if (res->join_noroom > 0)
		res->flags |= GX_RESULT_FULL;
	if (res->join_host > 0)
		res->flags |= GX_RESULT_HOST;
	return GX_OK;
}

/*
 * JOIN_PROBE (valid): the outer rows [first_row, nrows) against the
 * sealed join table obj[0]; count, prefix sum over the tiles, write (with
 * ngather > 0 each entry's gathered columns too, the inner ones from
 * obj[GX_JOIN_OBJ_COLS]; a group probe: gx_cpu_join_group)
 */
gx_status
gx_cpu_join_probe(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_cpu_join_probe_job job;
	gx_result  *res = gx_chunk_result(c);
	const gx_join_ext *j = &c->ext.join;
	auto		t0 = std::chrono::steady_clock::now();
	uint64_t	E = 0,
				M = 0;

	(void) err;
	(void) errlen;
	if (c->ext.ngroup_cap > 0)
		return gx_cpu_join_group(c, ctx);
	job.c = c;
	job.in = gx_cpu_join_input(c, ctx);
	job.ntiles = gx_ntiles(c->nrows);
	job.t = gx_jtab_probe_of(ctx->obj[0], j, (char *) res, ctx->obj[GX_JOIN_OBJ_MSCRATCH],
							 c->nrows);
	job.te = (uint64_t *) ((char *) res + gx_join_tiles_off());
	job.tm = job.te + job.ntiles;
	job.pairs = (gx_join_pair *) ((char *) res +
								  gx_join_pairs_off(c->nrows, gx_join_res_alg(j)));
	job.gval = NULL;
	job.gnull = NULL;
	if (j->ngather > 0)
	{
		/* gathered output: the inner columns from the store, the values after the entries */
		gx_jtab_cols(&job.t, ctx->obj[GX_JOIN_OBJ_COLS], j);
		job.gval = (int64_t *) ((char *) res +
								gx_join_gather_off(c->nrows, j->max_pairs, gx_join_res_alg(j)));
		job.gnull = (uint8_t *) res + gx_join_gather_nulls_off(c->nrows, j->max_pairs,
																gx_join_res_alg(j), j->ngather);
	}
	gx_cpu_join_reset(res, job.ntiles);
	res->next_row = c->nrows;
	if (!job.t.hdr->built)
	{
		res->error = ((uint64_t) 0 << 8) | GX_ERR_BAD_PROGRAM;	/* not finished */
		gx_cpu_finish(res, t0);
		return GX_OK;
	}
	/* (a merge probe: its rows sorted and merged first) */
	if (j->alg == GX_JOIN_MERGE)
		gx_cpu_jmerge_probe(c, job.in, &job.t, res, ctx->obj[GX_JOIN_OBJ_MSCRATCH],
								&job.error);

	/* (1) count */
	job.write = 0;
	gx_cpu_parallel(gx_cpu_join_probe_worker, &job, (int) job.ntiles);
	/* (2) prefix sum over the tiles */
	for (uint32_t t = 0; t < job.ntiles; t++)
	{
		uint64_t	e = job.te[t],
					m = job.tm[t];

		job.te[t] = E;
		job.tm[t] = M;
		E += e;
		M += m;
	}
	if (E <= j->max_pairs)
	{
		res->nsel = (uint32_t) E;
		res->join_count = M;
	}
	else
	{
		res->nsel = j->max_pairs;
		gx_cpu_join_pass_end(&job, E, res);
	}
	/* (3) write */
	if (res->nsel > 0)
	{
		job.write = 1;
		job.next_tile.store(0);
		gx_cpu_parallel(gx_cpu_join_probe_worker, &job, (int) job.ntiles);
	}
	res->error = job.error.load();
	gx_cpu_finish(res, t0);
	if (E > j->max_pairs)
		res->flags |= GX_RESULT_MORE;
	if (job.host.load())
		res->flags |= GX_RESULT_HOST;
	return GX_OK;
}

/* what the threads of a JOIN_UNMATCHED share */
struct gx_cpu_join_unmatched_job
{
	gx_jtab		t;
	uint32_t	lo,
				hi;				/* the range of placed rows */
	int64_t    *out;			/* payloads, NULL: count only */
	std::atomic<uint32_t> next {0};
	std::atomic<uint32_t> nsel {0};
	std::atomic<uint64_t> count {0};
};

/* thread t of a JOIN_UNMATCHED: tiles of the range, their unmatched rows */
static void
gx_cpu_join_unmatched_worker(void *arg, int t)
{
	gx_cpu_join_unmatched_job *job = (gx_cpu_join_unmatched_job *) arg;
	int64_t		local[GX_TILE_ROWS];

	(void) t;
	for (;;)
	{
		uint32_t	lo = job->lo + job->next.fetch_add(GX_TILE_ROWS);

		if (lo >= job->hi || lo < job->lo)
			break;
		uint32_t	hi = job->hi - lo < GX_TILE_ROWS ? job->hi : lo + GX_TILE_ROWS;
		uint32_t	cnt = 0;

		for (uint32_t i = lo; i < hi; i++)
			cnt += (uint32_t) gx_join_unmatched_row(&job->t, i, &local[cnt]);
		job->count.fetch_add(cnt);
		if (job->out == NULL || cnt == 0)
			continue;
		uint32_t	base = job->nsel.fetch_add(cnt);

		memcpy(job->out + base, local, sizeof(int64_t) * cnt);
	}
}

/*
 * JOIN_UNMATCHED (valid): the payloads of the placed rows [first_row,
 * + nrows) of the join table obj[0] whose key no probe marked (in no
 * order; count_only: only their count, join_count)
 */
gx_status
gx_cpu_join_unmatched(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_cpu_join_unmatched_job job;
	gx_result  *res = gx_chunk_result(c);
	auto		t0 = std::chrono::steady_clock::now();

	(void) err;
	(void) errlen;
	gx_cpu_join_reset(res, 0);
	job.t = gx_jtab_of(ctx->obj[0], &c->ext.join);
	job.lo = c->ext.join.first_row;
	job.hi = c->ext.join.first_row + c->nrows;
	job.out = c->ext.count_only ? NULL :
		(int64_t *) ((char *) res + gx_join_unmatched_off());
	if (!job.t.hdr->built)
		res->error = ((uint64_t) 0 << 8) | GX_ERR_BAD_PROGRAM;	/* not finished */
	else
		gx_cpu_parallel(gx_cpu_join_unmatched_worker, &job,
						(int) ((c->nrows + GX_TILE_ROWS - 1) / GX_TILE_ROWS));
	res->nsel = job.nsel.load();
	res->join_count = job.count.load();
	gx_cpu_finish(res, t0);
	return GX_OK;
}

/* ---------------------------------------------------------------------- */
/* GROUP_MERGE                                                            */
/* ---------------------------------------------------------------------- */

/* what the threads of a GROUP_MERGE share */
struct gx_cpu_gmerge_job
{
	gx_gtab		dst;			/* the destination table */
	const char *src;			/* the source's slot 0 */
	const gx_agg *aggs;
	uint32_t	lo,
				hi;				/* the source's slots to merge */
	char	   *rec;			/* records of the groups without room, or NULL */
	std::atomic<uint32_t> next{0};
	std::atomic<uint32_t> nsel{0};	/* records written */
	std::atomic<uint64_t> merged{0};
	std::atomic<uint64_t> noroom{0};
};

/* a thread of a GROUP_MERGE: tiles of source slots, each READY one merged or copied */
static void
gx_cpu_group_merge_worker(void *arg, int t)
{
	gx_cpu_gmerge_job *job = (gx_cpu_gmerge_job *) arg;
	const uint32_t n = job->hi - job->lo;
	uint64_t	merged = 0,
				noroom = 0;
	uint32_t	tile,
				lo,
				hi;

	(void) t;
	while (gx_cpu_take_tile(job->next, gx_ntiles(n), n, &tile, &lo, &hi))
	{
		for (uint32_t i = job->lo + lo; i < job->lo + hi; i++)
		{
			const char *src = job->src + (uint64_t) i * job->dst.slot_bytes;

			if (__atomic_load_n((const uint32_t *) src, __ATOMIC_ACQUIRE) != GX_GSLOT_READY)
				continue;
			if (gx_group_merge_slot(&job->dst, src, job->aggs, 1))
			{
				merged++;
				continue;
			}
			noroom++;
			if (job->rec != NULL)
				memcpy(job->rec + (uint64_t) job->nsel.fetch_add(1) * job->dst.slot_bytes, src,
					   job->dst.slot_bytes);
		}
	}
	job->merged.fetch_add(merged);
	job->noroom.fetch_add(noroom);
}

/*
 * GROUP_MERGE (valid): the READY slots of [row0, row0 + nrows) of the
 * source table obj[1] into their groups of obj[0], on the pool's threads;
 * those without room as result records (count_only: counted only).  The
 * source is only read.
 */
gx_status
gx_cpu_group_merge(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_cpu_gmerge_job job;
	gx_result  *res = gx_chunk_result(c);
	auto		t0 = std::chrono::steady_clock::now();

	(void) err;
	(void) errlen;
	gx_cpu_join_reset(res, 0);
	job.dst = gx_gtab_global(ctx->obj[0], &c->ext);
	job.src = ctx->obj[1] + sizeof(gx_group_hdr);
	job.aggs = c->ext.agg;
	job.lo = c->ext.row0;
	job.hi = c->ext.row0 + c->nrows;
	job.rec = c->ext.count_only ? NULL : (char *) res + GX_ALIGN_UP(sizeof(gx_result));
	gx_cpu_parallel(gx_cpu_group_merge_worker, &job,
					(int) ((c->nrows + GX_TILE_ROWS - 1) / GX_TILE_ROWS));
	res->nsel = job.nsel.load();
	res->join_count = job.merged.load();
	res->join_noroom = job.noroom.load();
	gx_cpu_finish(res, t0);
	if (res->join_noroom > 0)
		res->flags |= GX_RESULT_FULL;
	return GX_OK;
}

/* ---------------------------------------------------------------------- */
/* SEARCH (gx_search.cuh)                                                 */
/* ---------------------------------------------------------------------- */

#define GX_CPU_SEARCH_ROWS 1024	/* probes a thread takes at a time */

/* what the threads of a SEARCH or TREE_LOOKUP share */
struct gx_cpu_search_job
{
	gx_search_in in;
	gx_pt_in	tree;			/* TREE_LOOKUP */
	uint32_t	nrows;			/* probes */
	uint32_t	n;				/* sorted keys */
	gx_search_run *out;
	std::atomic<uint32_t> next {0};
	std::atomic<uint64_t> count {0};
};

/* thread t of a SEARCH: blocks of probes, each searched with P loop lanes */
template <uint32_t P>
static void
gx_cpu_search_worker(void *arg, int t)
{
	gx_cpu_search_job *job = (gx_cpu_search_job *) arg;
	const gx_lanes_loop<P> lanes;
	uint64_t	count = 0;
	uint32_t	seg,
				lo,
				hi;
	const uint32_t nseg = (job->nrows + GX_CPU_SEARCH_ROWS - 1) / GX_CPU_SEARCH_ROWS;

	(void) t;
	while (gx_cpu_take_seg(job->next, job->nrows, nseg, &seg, &lo, &hi))
		for (uint32_t row = lo; row < hi; row++)
		{
			if constexpr (P == 0)
				job->out[row] = gx_pt_lookup(&job->tree, row);
			else
				job->out[row] = gx_search_probe(lanes, &job->in, job->n, row);
			count += job->out[row].count;
		}
	job->count.fetch_add(count);
}

/* run a SEARCH or TREE_LOOKUP job's blocks of probes with fn on the pool */
static void
gx_cpu_search_run(gx_chunk *c, gx_cpu_search_job *job, gx_cpu_job_fn fn)
{
	gx_cpu_parallel(fn, job, (int) ((c->nrows + GX_CPU_SEARCH_ROWS - 1) / GX_CPU_SEARCH_ROWS));
	gx_chunk_result(c)->nsel = c->nrows;
}

/*
 * SEARCH (valid): each probe's run in the sorted projection obj[0], on
 * the pool's threads; p-ary search runs its p lanes in a loop, so the
 * runs are the GPU's for every algorithm
 */
gx_status
gx_cpu_search(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_cpu_search_job job;
	gx_result  *res = gx_chunk_result(c);
	auto		t0 = std::chrono::steady_clock::now();
	const uint32_t p = c->ext.search.alg == GX_SEARCH_PARY ? c->ext.search.lanes : 1;
	gx_cpu_job_fn fn;

	(void) err;
	(void) errlen;
	gx_cpu_join_reset(res, 0);
	job.in = gx_search_in_of(c, (const char *) c, ctx->obj[0]);
	job.nrows = c->nrows;
	job.n = gx_search_rows(&job.in);
	job.out = (gx_search_run *) ((char *) res + gx_search_runs_off());
	fn = p == 2 ? gx_cpu_search_worker<2> : p == 4 ? gx_cpu_search_worker<4> :
		p == 8 ? gx_cpu_search_worker<8> : p == 16 ? gx_cpu_search_worker<16> :
		p == 32 ? gx_cpu_search_worker<32> : gx_cpu_search_worker<1>;
	if (!job.in.hdr->built)
		res->error = ((uint64_t) 0 << 8) | GX_ERR_BAD_PROGRAM;	/* not finished */
	else
		gx_cpu_search_run(c, &job, fn);
	res->join_count = job.count.load();
	gx_cpu_finish(res, t0);
	return GX_OK;
}

/*
 * TREE_LOOKUP (valid): each key's run of the image obj[0]'s TIDs, on the
 * pool's threads (gx_cpu_search_worker<0>: the walk, or the speculative
 * partitions in a loop and their resolve)
 */
gx_status
gx_cpu_tree_lookup(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_cpu_search_job job;
	gx_result  *res = gx_chunk_result(c);
	auto		t0 = std::chrono::steady_clock::now();

	(void) err;
	(void) errlen;
	gx_cpu_join_reset(res, 0);
	job.tree = gx_pt_in_of(c, (const char *) c, ctx->obj[0]);
	job.nrows = c->nrows;
	job.n = 0;
	job.out = (gx_search_run *) ((char *) res + gx_search_runs_off());
	gx_cpu_search_run(c, &job, gx_cpu_search_worker<0>);
	res->join_count = job.count.load();
	gx_cpu_finish(res, t0);
	return GX_OK;
}

/* ---------------------------------------------------------------------- */
/* OBJ_WRITE                                                              */
/* ---------------------------------------------------------------------- */

/* the task's bytes into its object (validated: both spans fit) */
gx_status
gx_cpu_obj_write(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	const gx_write_ext *w = &c->ext.write;
	gx_result  *res = gx_chunk_result(c);
	auto		t0 = std::chrono::steady_clock::now();

	(void) err;
	(void) errlen;
	memcpy(ctx->obj[0] + w->dst, (const char *) c + w->src, (size_t) w->bytes);
	memset(res, 0, sizeof(*res));
	res->error = GX_NO_ERROR;
	gx_cpu_finish(res, t0);
	return GX_OK;
}

/* ---------------------------------------------------------------------- */
/* OBJ_COPY                                                               */
/* ---------------------------------------------------------------------- */

#define GX_CPU_COPY_PIECE ((uint64_t) 4 << 20)	/* bytes a thread copies at a time */

/* an OBJ_COPY on the pool: its ranges cut into pieces the threads take */
struct gx_cpu_copy_job
{
	const gx_copy_ext *x;
	char	   *dst;
	const char *src;
	uint64_t	first[GX_COPY_MAX_RANGES + 1];	/* the pieces before range i */
	std::atomic<uint64_t> next {0};
};

/* thread t of an OBJ_COPY: pieces of the ranges, memcpy each */
static void
gx_cpu_copy_worker(void *arg, int t)
{
	gx_cpu_copy_job *job = (gx_cpu_copy_job *) arg;
	const uint64_t npieces = job->first[job->x->nranges];
	uint64_t	p;

	(void) t;
	while ((p = job->next.fetch_add(1)) < npieces)
	{
		uint32_t	i = 0;

		while (p >= job->first[i + 1])
			i++;

		const gx_copy_range *r = &job->x->range[i];
		uint64_t	off = (p - job->first[i]) * GX_CPU_COPY_PIECE;
		uint64_t	n = std::min(GX_CPU_COPY_PIECE, r->bytes - off);

		memcpy(job->dst + r->dst + off, job->src + r->src + off, (size_t) n);
	}
}

/*
 * OBJ_COPY (validated: every range inside both objects, which differ): the
 * ranges of obj[1] into obj[0], in pieces on the pool's threads
 */
gx_status
gx_cpu_obj_copy(gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	gx_cpu_copy_job job;
	gx_result  *res = gx_chunk_result(c);
	auto		t0 = std::chrono::steady_clock::now();

	(void) err;
	(void) errlen;
	job.x = &c->ext.copy;
	job.dst = ctx->obj[0];
	job.src = ctx->obj[1];
	job.first[0] = 0;
	for (uint32_t i = 0; i < job.x->nranges; i++)
		job.first[i + 1] = job.first[i] +
			(job.x->range[i].bytes + GX_CPU_COPY_PIECE - 1) / GX_CPU_COPY_PIECE;
	gx_cpu_parallel(gx_cpu_copy_worker, &job,
					(int) std::min<uint64_t>(job.first[job.x->nranges], GX_CPU_MAX_THREADS));
	gx_cpu_join_reset(res, 0);
	gx_cpu_finish(res, t0);
	return GX_OK;
}

/* ---------------------------------------------------------------------- */
/* entry                                                                  */
/* ---------------------------------------------------------------------- */

/* validate a task with its operator's validator, then run it on the pool */
extern "C" gx_status
gx_cpu_run(gx_chunk *task, uint64_t slot_bytes, const gx_task_ctx *ctx,
		   char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		static const gx_task_ctx none = {};
		const gx_operator *op;
		gx_status	st;

		if (ctx == NULL)
			ctx = &none;
		st = gx_op_check(task, slot_bytes, ctx, &op, err, errlen);
		if (st != GX_OK)
			return st;
		return op->cpu_run(task, ctx, err, errlen);
	});
}
