/*
 * service.cpp - the gpuext service, a background worker started by the
 * postmaster.  It is the only process that initialises CUDA: it opens the
 * GPU, pins (and maps, for gpuext.transfer = mapped) the staging area, and
 * then loops: pick SUBMITTED slots, run them on the requested device (GPU:
 * asynchronous per-slot streams, polled, in the transfer mode the chunk
 * asks for; CPU: the multi-threaded interpreter, synchronous), mark them
 * DONE and wake the waiting backends.  A CUDA error fails the slots in flight with
 * its message and restarts the service (exit 1), so that a fresh context
 * serves the next query.  Only this main thread calls PostgreSQL.
 */
#include "gpuext.h"
#include "engine.h"
#include "cache.h"

extern "C"
{
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "tcop/tcopprot.h"
#include "utils/wait_event.h"
}

#include <thread>

#ifdef __linux__
#include <sys/prctl.h>
#endif

/* polls of in-flight GPU chunks before the service sleeps between polls */
#define GX_SERVICE_SPIN_POLLS 100

/* register the service; called from _PG_init */
void
gx_register_service(void)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS;
	worker.bgw_start_time = BgWorkerStart_PostmasterStart;
	worker.bgw_restart_time = 1;
	strlcpy(worker.bgw_library_name, "gpuext", BGW_MAXLEN);
	strlcpy(worker.bgw_function_name, "gpuext_service_main", BGW_MAXLEN);
	strlcpy(worker.bgw_name, "gpuext service", BGW_MAXLEN);
	strlcpy(worker.bgw_type, "gpuext service", BGW_MAXLEN);
	RegisterBackgroundWorker(&worker);
}

/* on exit: tell backends that no service runs */
static void
gx_service_exit(int code, Datum arg)
{
	SpinLockAcquire(&gx_shared->mutex);
	gx_shared->service_pid = 0;
	gx_shared->service_latch = NULL;
	SpinLockRelease(&gx_shared->mutex);
	ConditionVariableBroadcast(&gx_shared->done_cv);
}

/* finish a slot: DONE for its owner, or FREE if abandoned meanwhile */
static void
gx_finish_slot(int i, bool failed, const char *msg)
{
	GxSlot	   *s = &gx_shared->slots[i];

	SpinLockAcquire(&s->mutex);
	s->failed = failed;
	if (failed)
		strlcpy(s->errmsg, msg, sizeof(s->errmsg));
	s->state = (s->state == GX_SLOT_ABANDONED) ? GX_SLOT_FREE : GX_SLOT_DONE;
	SpinLockRelease(&s->mutex);
}

/*
 * Cache chunks: the pool must exist on the chunk's device (taken at first
 * use) and the entry must be in the state the operation needs.  Returns an
 * error message, or NULL.
 */
static const char *
gx_check_cache_chunk(gx_chunk *c, int device, bool gpu_ok, char *err, size_t errlen)
{
	static bool pool_open[2];
	const GxCacheEntry *e;

	if (c->ext.op == GX_CHUNK_FILTER)
		return NULL;
	if (gx_cache->nunits == 0 || device != gx_cache->device ||
		c->ext.entry < 0 || c->ext.entry >= gx_cache->nunits)
		return "chunk refers to a cache entry that does not exist";
	e = &gx_cache->entries[c->ext.entry];
	if (e->state != (c->ext.op == GX_CHUNK_CACHE_LOAD ? GX_CE_LOADING : GX_CE_READY))
		return "chunk refers to a cache entry in the wrong state";
	if (!pool_open[device])
	{
		gx_status	st;

		if (device == GX_DEV_GPU && gpu_ok)
			st = gx_gpu_cache_open(GX_CACHE_UNIT_BYTES, gx_cache->nunits, err, errlen);
		else
		{
			st = gx_cpu_cache_open(GX_CACHE_UNIT_BYTES, gx_cache->nunits);
			if (st != GX_OK)
				snprintf(err, errlen, "out of memory");
		}
		if (st != GX_OK)
		{
			char		msg[256];

			snprintf(msg, sizeof(msg), "cannot allocate the gpuext cache (%d MB): %s",
					 gx_cache->nunits * (int) (GX_CACHE_UNIT_BYTES >> 20), err);
			strlcpy(err, msg, errlen);
			return err;
		}
		pool_open[device] = true;
		ereport(LOG, (errmsg("gpuext service: cache of %d MB on the %s",
							 gx_cache->nunits * (int) (GX_CACHE_UNIT_BYTES >> 20),
							 device == GX_DEV_GPU ? "GPU" : "CPU device")));
	}
	return NULL;
}

/* fill the chunk's error-free result for an empty or invalid chunk */
static bool
gx_chunk_valid(gx_chunk *c)
{
	return c->magic == GX_CHUNK_MAGIC && c->ncols <= GX_MAX_COLS &&
		c->ninstr <= GX_MAX_INSTR && c->nconsts <= GX_MAX_CONSTS &&
		c->result_off + gx_result_bytes(c->nrows) <= gx_shared->slot_bytes &&
		c->input_bytes <= c->result_off;
}

extern "C" void
gpuext_service_main(Datum arg)
{
	char		err[256];
	int			nslots;
	int			nthreads;
	bool	   *running;
	bool		gpu_ok = false;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();

	nthreads = gx_cpu_threads > 0 ? gx_cpu_threads : (int) std::thread::hardware_concurrency();
	if (nthreads < 1)
		nthreads = 1;
	nslots = gx_shared->nslots;
	running = (bool *) palloc0(sizeof(bool) * nslots);

	/* a previous incarnation may have died with slots in flight */
	for (int i = 0; i < nslots; i++)
	{
		GxSlot	   *s = &gx_shared->slots[i];

		SpinLockAcquire(&s->mutex);
		s->cache_entry = -1;
		if (s->state == GX_SLOT_RUNNING || s->state == GX_SLOT_SUBMITTED)
		{
			s->failed = 1;
			strlcpy(s->errmsg, "gpuext service restarted", sizeof(s->errmsg));
			s->state = GX_SLOT_DONE;
		}
		else if (s->state == GX_SLOT_ABANDONED)
			s->state = GX_SLOT_FREE;
		SpinLockRelease(&s->mutex);
	}

	/* open the GPU: this process owns the only CUDA context */
	err[0] = '\0';
	{
		gx_gpu_info info;
		gx_status	st;

		memset(&info, 0, sizeof(info));
		st = gx_gpu_open(gx_staging, nslots, gx_shared->slot_bytes, &info, err, sizeof(err));
		gpu_ok = (st == GX_OK);
		if (gpu_ok)
		{
			gx_shared->gpu = info;
			ereport(LOG, (errmsg("gpuext service: using GPU \"%s\" (%d SMs, %llu MB, mapped transfer %s)",
								 info.name, info.sm_count,
								 (unsigned long long) (info.total_mem >> 20),
								 info.mapped ? "available" : "unavailable")));
			if (err[0] != '\0')
				ereport(LOG, (errmsg("gpuext service: %s", err)));
		}
		else
			ereport(LOG, (errmsg("gpuext service: no GPU, CPU device only: %s", err)));
	}

	/* the cache pool died with the previous service, if any */
	gx_cache_service_reset(gpu_ok ? GX_DEV_GPU : GX_DEV_CPU);

	SpinLockAcquire(&gx_shared->mutex);
	gx_shared->cpu_threads = nthreads;
	gx_shared->gpu_state = gpu_ok ? 1 : -1;
	strlcpy(gx_shared->gpu_message, gpu_ok ? "" : err, sizeof(gx_shared->gpu_message));
	gx_shared->service_latch = MyLatch;
	gx_shared->generation++;
	gx_shared->service_pid = MyProcPid;
	SpinLockRelease(&gx_shared->mutex);
	on_shmem_exit(gx_service_exit, 0);
	ConditionVariableBroadcast(&gx_shared->done_cv);

	uint64_t	jit_failed_seen = 0;
	int			idle_polls = 0;

#ifdef __linux__
	/* sleeps of 20 us, not the default timer slack of 50 us on top */
	(void) prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif

	for (;;)
	{
		bool		inflight = false;
		bool		did = false;

		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();

		for (int i = 0; i < nslots; i++)
		{
			GxSlot	   *s = &gx_shared->slots[i];
			int			device = -1;

			if (running[i])
				continue;
			SpinLockAcquire(&s->mutex);
			if (s->state == GX_SLOT_SUBMITTED)
			{
				s->state = GX_SLOT_RUNNING;
				device = s->device;
			}
			else if (s->state == GX_SLOT_ABANDONED)
				s->state = GX_SLOT_FREE;
			SpinLockRelease(&s->mutex);
			if (device < 0)
				continue;

			gx_chunk   *c = gx_slot_chunk(i);

			did = true;
			if (!gx_chunk_valid(c))
			{
				gx_finish_slot(i, true, "malformed chunk");
				continue;
			}
			{
				const char *msg = gx_check_cache_chunk(c, device, gpu_ok, err, sizeof(err));

				if (msg != NULL)
				{
					gx_finish_slot(i, true, msg);
					ConditionVariableBroadcast(&gx_shared->done_cv);
					continue;
				}
			}
			if (device == GX_DEV_GPU && gpu_ok)
			{
				if (gx_gpu_submit(i, err, sizeof(err)) != GX_OK)
				{
					gx_finish_slot(i, true, err);
					ereport(LOG, (errmsg("gpuext service: %s; restarting", err)));
					ConditionVariableBroadcast(&gx_shared->done_cv);
					proc_exit(1);
				}
				running[i] = true;
			}
			else if (device == GX_DEV_GPU)
				gx_finish_slot(i, true, "no GPU is usable");
			else
			{
				gx_status	st = gx_cpu_run_chunk(c, nthreads);

				gx_finish_slot(i, st != GX_OK, "CPU device failed to run the chunk");
			}
			ConditionVariableBroadcast(&gx_shared->done_cv);
		}

		/* a filter program that failed to compile stays interpreted: say so once */
		if (did && gpu_ok)
		{
			uint64_t	jit_compiled,
						jit_failed;
			double		jit_ms;

			gx_gpu_jit_stats(&jit_compiled, &jit_failed, &jit_ms, err, sizeof(err));
			if (jit_failed > jit_failed_seen)
			{
				jit_failed_seen = jit_failed;
				ereport(LOG,
						(errmsg("gpuext service: a filter program failed to compile and runs interpreted"),
						 errdetail_internal("%s", err)));
			}
		}

		/* poll the GPU slots in flight */
		for (int i = 0; i < nslots; i++)
		{
			int			done = 0;

			if (!running[i])
				continue;
			if (gx_gpu_poll(i, &done, err, sizeof(err)) != GX_OK)
			{
				for (int j = 0; j < nslots; j++)
					if (running[j])
						gx_finish_slot(j, true, err);
				ereport(LOG, (errmsg("gpuext service: %s; restarting", err)));
				ConditionVariableBroadcast(&gx_shared->done_cv);
				proc_exit(1);
			}
			if (done)
			{
				running[i] = false;
				gx_finish_slot(i, false, NULL);
				ConditionVariableBroadcast(&gx_shared->done_cv);
				did = true;
			}
			else
				inflight = true;
		}

		if (inflight)
		{
			/*
			 * Kernels in flight: a chunk of cached columns takes tens of
			 * microseconds on the GPU, so poll without sleeping for a while
			 * (about 100 polls, a few hundred microseconds), then sleep
			 * 20 us between polls to yield the core.
			 */
			if (did)
				idle_polls = 0;
			else if (++idle_polls > GX_SERVICE_SPIN_POLLS)
				pg_usleep(20);
			continue;
		}
		idle_polls = 0;
		if (!did)
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 1000L, PG_WAIT_EXTENSION);
	}
}
