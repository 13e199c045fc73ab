/*
 * service.cpp - the gpuext service, a background worker started by the
 * postmaster.  It is the only process that initialises CUDA and the only
 * one that allocates device memory.
 *
 * Design note
 * -----------
 * At start it opens the devices (devices.cpp): the CPU device's
 * persistent thread pool, and every GPU (context, memory pool, the pinned
 * and mapped staging area, a device buffer and a stream per staging slot
 * and GPU; peer access between GPUs), and numbers them in the device
 * table.  Then it loops:
 *
 *  - pick SUBMITTED slots; each holds a task (gx_program.h) of a kind;
 *  - resolve what the task names (its session must be open; the cache
 *    entry and the session objects it names are looked up, an object gets
 *    its memory from the device's pool when the first task names it; a
 *    task that follows its session's tasks in flight is ordered after
 *    them) and pass it by address in a gx_task_ctx, then hand the task to
 *    the device the backend submitted it to: a CPU device runs it
 *    synchronously, a GPU queues it on the slot's stream there and it is
 *    polled; the GPUs run their tasks at the same time.  A task may name
 *    memory of its own device or of a peer (gx_device_reaches).  Both validate the task through the operator table
 *    (cuda/include/gx_ops.h), so this loop knows no operator: adding one
 *    is an entry there;
 *  - free the objects of closed sessions once none of their tasks runs,
 *    and dead shared objects once none holds or pins them.
 *
 * Failures: a malformed task, or a task that names something it may not,
 * fails alone (its backend gets an ERROR).  A CUDA error fails every task
 * in flight with the CUDA message and restarts the service (exit 1), so
 * that a fresh context serves the next query; the postmaster does not
 * restart the cluster, and waiting backends get a clean ERROR.
 * gpuext.debug_fault injects each of these (tests).  Only this main
 * thread calls PostgreSQL.
 */
#include "gpuext.h"
#include "engine.h"
#include "cache.h"
#include "shared_objects.h"

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

/* what the service remembers of a slot it runs */
typedef struct GxRunning
{
	bool		gpu;			/* queued on a GPU, polled */
	int			device;			/* the device it runs on, or -1 */
	int			session;		/* session table index, or -1 */
} GxRunning;

static GxRunning *gx_run;
static int	gx_inflight[GX_MAX_SESSIONS];	/* tasks running, per session */

/* register the service; called from _PG_init */
void
gx_register_service(void)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	/* (a worker with a connection cannot start before a consistent state) */
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
	worker.bgw_restart_time = 1;
	strlcpy(worker.bgw_library_name, "gpuext", BGW_MAXLEN);
	strlcpy(worker.bgw_function_name, "gpuext_service_main", BGW_MAXLEN);
	strlcpy(worker.bgw_name, "gpuext service", BGW_MAXLEN);
	strlcpy(worker.bgw_type, "gpuext service", BGW_MAXLEN);
	RegisterBackgroundWorker(&worker);
}

/*
 * On exit: tell backends that no service runs, then stop the devices'
 * threads (the CPU pool, the filter compilations), so that exit() does not
 * tear libraries down under a running thread.
 */
static void
gx_service_exit(int code, Datum arg)
{
	SpinLockAcquire(&gx_shared->mutex);
	gx_shared->service_pid = 0;
	gx_shared->service_latch = NULL;
	SpinLockRelease(&gx_shared->mutex);
	ConditionVariableBroadcast(&gx_shared->done_cv);
	/* owners waiting for a result learn at once that no service runs */
	for (int i = 0; i < gx_shared->nslots; i++)
	{
		GxSlot	   *s = &gx_shared->slots[i];
		Latch	   *owner = NULL;

		SpinLockAcquire(&s->mutex);
		if (s->state == GX_SLOT_SUBMITTED || s->state == GX_SLOT_RUNNING)
			owner = s->owner_latch;
		SpinLockRelease(&s->mutex);
		if (owner != NULL)
			SetLatch(owner);
	}
	gx_gpu_quiesce();
	gx_cpu_close();
}

/* finish a slot: DONE for its owner, or FREE if abandoned meanwhile */
static void
gx_finish_slot(int i, bool failed, const char *msg, int failcode)
{
	GxSlot	   *s = &gx_shared->slots[i];

	if (gx_run[i].session >= 0)
		gx_inflight[gx_run[i].session]--;
	gx_shobj_unpin_slot(i);
	gx_run[i].session = -1;
	gx_run[i].gpu = false;
	gx_run[i].device = -1;
	Latch	   *owner = NULL;
	bool		freed;

	SpinLockAcquire(&s->mutex);
	gx_device_task_done(s->device);
	s->failed = failed;
	s->failcode = failcode;
	if (failed)
		strlcpy(s->errmsg, msg, sizeof(s->errmsg));
	freed = s->state == GX_SLOT_ABANDONED;
	s->state = freed ? GX_SLOT_FREE : GX_SLOT_DONE;
	if (!freed)
		owner = s->owner_latch;
	SpinLockRelease(&s->mutex);
	/* the owner alone for a result; every waiter for a free slot */
	if (owner != NULL)
		SetLatch(owner);
	else
		ConditionVariableBroadcast(&gx_shared->done_cv);
}

/*
 * The device is unusable (a CUDA error, or an injected one): fail every
 * task in flight with the message and restart the service.
 */
static void
gx_device_failed(const char *msg)
{
	for (int j = 0; j < gx_shared->nslots; j++)
		if (gx_run[j].gpu || gx_run[j].session >= 0)
			gx_finish_slot(j, true, msg, GX_FAIL_DEVICE);
	ereport(LOG, (errmsg("gpuext service: %s; restarting", msg)));
	proc_exit(1);
}

/*
 * Resolve what a device task names: its session (open, on this device),
 * the cache entry's memory and the objects' (of that session and device;
 * an object gets its memory here, at the first task that names it; a
 * shared object is checked and pinned for slot's task), and
 * the tasks in flight it must follow.  Returns an error message for the
 * task, or NULL.
 */
static const char *
gx_task_context(const gx_chunk *c, int device, int slot, gx_task_ctx *ctx, int *session_idx,
				char *err, size_t errlen, bool *oom)
{
	const char *msg;

	GxSession  *s = NULL;

	memset(ctx, 0, sizeof(*ctx));
	*session_idx = -1;
	*oom = false;
	if (c->session != 0)
	{
		s = gx_session_lookup(c->session);
		if (s == NULL || s->state != GX_SESSION_OPEN)
			return "the task's session is not open";
		if ((s->devices & (1u << device)) == 0)
			return "the task's session does not run on this device";
		*session_idx = (int) (s - gx_engine->sessions);
	}
	for (int k = 0; k < GX_TASK_MAX_OBJS; k++)
	{
		GxObject   *o;

		if (c->obj[k] == 0)
			continue;
		if (gx_shobj_is_handle(c->obj[k]))
		{
			/* a shared object (shared_objects.cpp): pinned while the task runs */
			if (s == NULL)
				return "the task names a shared object but no session";
			if ((msg = gx_shobj_resolve(c->obj[k], c, device, slot, k,
										&ctx->obj[k], &ctx->obj_bytes[k], err, errlen,
										oom)) != NULL)
				return msg;
			continue;
		}
		o = gx_object_lookup(c->obj[k]);
		if (o == NULL || s == NULL || o->session != c->session)
			return "the task names an object that is not its session's";
		/* its own device's, or a peer's (several devices: docs/engine.md) */
		if (!gx_device_reaches(device, o->device))
			return "the task names an object of a device it cannot reach";
		if ((msg = gx_object_memory(o, err, errlen, oom)) != NULL)
			return msg;
		ctx->obj[k] = (char *) (uintptr_t) o->addr;
		ctx->obj_bytes[k] = o->bytes;
	}
	if ((c->follow == GX_FOLLOW_SESSION || c->follow == GX_FOLLOW_DEVICE) && *session_idx >= 0)
	{
		/* gx_task_must_wait let it start with at most GX_TASK_MAX_AFTER */
		for (int j = 0; j < gx_shared->nslots; j++)
		{
			if (!gx_run[j].gpu || gx_run[j].session != *session_idx ||
				(c->follow == GX_FOLLOW_DEVICE && gx_run[j].device != device))
				continue;
			if (ctx->nafter == GX_TASK_MAX_AFTER)
				return "the task follows more tasks than it can be ordered after";
			ctx->after_gpu[ctx->nafter] = gx_shared->devs[gx_run[j].device].api - GX_DEV_GPU;
			ctx->after[ctx->nafter++] = j;
		}
	}
	else if (c->follow != GX_FOLLOW_NONE)
		return "malformed task";
	return gx_cache_task_memory(c, device, ctx, err, errlen, oom);
}

/* start the task of slot i on 'device' (the slot is RUNNING) */
static void
gx_start_task(int i, int device)
{
	gx_chunk   *c = gx_slot_chunk(i);
	char		err[256];
	gx_task_ctx ctx;
	int			sidx;
	bool		oom;
	const char *msg;
	gx_status	st;

	if (c->magic != GX_CHUNK_MAGIC || c->kind >= GX_TASK_NKINDS)
	{
		gx_finish_slot(i, true, "malformed task", GX_FAIL_DEVICE);
		return;
	}
	switch (c->fault)
	{
		case GX_FAULT_NONE:
			break;
		case GX_FAULT_TASK_ERROR:
			gx_finish_slot(i, true, "injected fault (gpuext.debug_fault = task_error)",
						   GX_FAIL_DEVICE);
			return;
		case GX_FAULT_SERVICE_EXIT:
			ereport(LOG, (errmsg("gpuext service: exiting while a task runs (gpuext.debug_fault = service_exit)")));
			proc_exit(1);
			break;
		default:
			gx_finish_slot(i, true, "injected device error (gpuext.debug_fault = device_error)",
						   GX_FAIL_DEVICE);
			gx_device_failed("injected device error (gpuext.debug_fault = device_error)");
	}
	if (device < 0 || device >= gx_shared->ndevices)
	{
		gx_finish_slot(i, true, "the task names no device of the service", GX_FAIL_DEVICE);
		return;
	}
	msg = gx_task_context(c, device, i, &ctx, &sidx, err, sizeof(err), &oom);
	if (msg != NULL)
	{
		gx_finish_slot(i, true, msg, oom ? GX_FAIL_MEMORY : GX_FAIL_DEVICE);
		return;
	}
	gx_run[i].session = sidx;
	gx_run[i].device = device;
	if (sidx >= 0)
		gx_inflight[sidx]++;
	if (gx_device_is_gpu(device))
	{
		st = gx_gpu_submit(gx_shared->devs[device].api - GX_DEV_GPU, i, &ctx, err, sizeof(err));
		if (st == GX_OK)
			gx_run[i].gpu = true;
		else if (st == GX_INVALID)
			gx_finish_slot(i, true, err, GX_FAIL_DEVICE);
		else
		{
			gx_finish_slot(i, true, err, GX_FAIL_DEVICE);
			gx_device_failed(err);
		}
		return;
	}
	st = gx_cpu_run(c, gx_shared->slot_bytes, &ctx, err, sizeof(err));
	gx_finish_slot(i, st != GX_OK, err, st == GX_NO_MEMORY ? GX_FAIL_MEMORY : GX_FAIL_DEVICE);
}

/*
 * Must the SUBMITTED task of slot i (for device) wait?  A task that
 * follows its session's tasks (GX_FOLLOW_SESSION) starts only once every
 * other task of the session submitted before it has started (slots are
 * taken in index order, not in the order they were submitted), so that it
 * can be ordered after them, and only while at most GX_TASK_MAX_AFTER of
 * them are running, so that it can be ordered after every one (on any
 * GPU: a stream waits for another GPU's event); on a CPU device only once
 * none of them runs on a GPU.  Other following
 * tasks of the session are not waited for: two of them would wait for
 * each other.  A task that follows its session's tasks on its device
 * (GX_FOLLOW_DEVICE) considers only those.
 */
static bool
gx_task_must_wait(int i, int device)
{
	const gx_chunk *c = gx_slot_chunk(i);
	int			running = 0;

	if ((c->follow != GX_FOLLOW_SESSION && c->follow != GX_FOLLOW_DEVICE) || c->session == 0)
		return false;
	for (int j = 0; j < gx_shared->nslots; j++)
	{
		const gx_chunk *o = gx_slot_chunk(j);

		if (j == i || o->session != c->session ||
			(c->follow == GX_FOLLOW_DEVICE && gx_shared->slots[j].device != device))
			continue;
		if (gx_shared->slots[j].state == GX_SLOT_SUBMITTED && o->follow == GX_FOLLOW_NONE)
			return true;
		if (gx_run[j].gpu)
		{
			/* a CPU device cannot be ordered after a GPU's kernels: it waits */
			if (!gx_device_is_gpu(device))
				return true;
			running++;
		}
	}
	return running > GX_TASK_MAX_AFTER;
}

/* a filter program that failed to compile stays interpreted: say so once */
static void
gx_log_jit_failures(void)
{
	static uint64_t seen = 0;
	uint64_t	compiled,
				failed;
	double		ms;
	char		err[256];

	gx_gpu_jit_stats(&compiled, &failed, &ms, err, sizeof(err));
	if (failed > seen)
	{
		seen = failed;
		ereport(LOG,
				(errmsg("gpuext service: a filter program failed to compile and runs interpreted"),
				 errdetail_internal("%s", err)));
	}
}

extern "C" void
gpuext_service_main(Datum arg)
{
	char		err[256];
	int			nslots;
	int			nthreads;
	bool		gpu_ok;
	int			idle_polls = 0;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	/*
	 * Connected to no database (it reads no catalog): this gives the
	 * service a row in pg_stat_activity (backend_type "gpuext service",
	 * its wait events) like PostgreSQL's own launchers.
	 */
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);

	nthreads = gx_cpu_threads > 0 ? gx_cpu_threads : (int) std::thread::hardware_concurrency();
	if (nthreads < 1)
		nthreads = 1;
	nslots = gx_shared->nslots;
	gx_run = (GxRunning *) palloc0(sizeof(GxRunning) * nslots);
	for (int i = 0; i < nslots; i++)
	{
		gx_run[i].session = -1;
		gx_run[i].device = -1;
	}

	/* a previous incarnation may have died with slots in flight */
	for (int i = 0; i < nslots; i++)
	{
		GxSlot	   *s = &gx_shared->slots[i];

		SpinLockAcquire(&s->mutex);
		s->cache_entry = -1;
		if (s->state == GX_SLOT_RUNNING || s->state == GX_SLOT_SUBMITTED)
		{
			s->failed = 1;
			s->failcode = GX_FAIL_RESTART;
			strlcpy(s->errmsg, "gpuext service restarted", sizeof(s->errmsg));
			s->state = GX_SLOT_DONE;
		}
		else if (s->state == GX_SLOT_ABANDONED)
			s->state = GX_SLOT_FREE;
		SpinLockRelease(&s->mutex);
	}

	/* the objects and the cache died with the previous service, if any */
	gx_engine_service_reset();
	gx_shobj_service_reset();
	gx_shobj_service_init(nslots);
	err[0] = '\0';
	gpu_ok = gx_devices_open(nthreads, err, sizeof(err)) > 0;
	gx_cache_service_reset();

	SpinLockAcquire(&gx_shared->mutex);
	gx_shared->gpu_state = gpu_ok ? 1 : -1;
	strlcpy(gx_shared->gpu_message, gpu_ok ? "" : err, sizeof(gx_shared->gpu_message));
	gx_shared->service_latch = MyLatch;
	gx_shared->generation++;
	gx_shared->service_pid = MyProcPid;
	SpinLockRelease(&gx_shared->mutex);
	on_shmem_exit(gx_service_exit, 0);
	ConditionVariableBroadcast(&gx_shared->done_cv);

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

			if (gx_run[i].gpu)
				continue;
			SpinLockAcquire(&s->mutex);
			if (s->state == GX_SLOT_SUBMITTED && !gx_task_must_wait(i, s->device))
			{
				s->state = GX_SLOT_RUNNING;
				device = s->device;
			}
			else if (s->state == GX_SLOT_ABANDONED)
			{
				/* abandoned before it started: never ran on its device */
				gx_device_task_done(s->device);
				s->state = GX_SLOT_FREE;
			}
			SpinLockRelease(&s->mutex);
			if (device < 0)
				continue;
			did = true;
			gx_start_task(i, device);
		}
		if (did && gpu_ok)
			gx_log_jit_failures();

		/* poll the GPU slots in flight */
		for (int i = 0; i < nslots; i++)
		{
			int			done = 0;

			if (!gx_run[i].gpu)
				continue;
			if (gx_gpu_poll(gx_shared->devs[gx_run[i].device].api - GX_DEV_GPU, i, &done,
							err, sizeof(err)) != GX_OK)
				gx_device_failed(err);
			if (done)
			{
				gx_finish_slot(i, false, NULL, GX_FAIL_DEVICE);
				did = true;
			}
			else
				inflight = true;
		}

		/* closed sessions whose tasks are done: free their objects */
		if (gx_sessions_reclaim(gx_inflight))
			inflight = true;
		gx_shobj_reclaim();

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
