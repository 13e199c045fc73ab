/*
 * shmem.cpp - the shared state between backends and the gpuext service:
 * a GxShared control block and the staging area, split into fixed-size
 * slots.  A backend owns a slot from acquire to release; the service only
 * touches SUBMITTED slots.  A slot's state moves under its spinlock:
 *
 *   FREE -> FILLING (backend) -> SUBMITTED (backend) -> RUNNING (service)
 *        -> DONE (service) -> FREE (backend)
 *
 * A backend that errors out or exits abandons its slots: FILLING/DONE go
 * back to FREE, SUBMITTED/RUNNING become ABANDONED and the service frees
 * them.  Slots are tracked per resource owner so that abort releases them.
 */
#include "gpuext.h"
#include "engine.h"
#include "executor.h"
#include "cache.h"
#include "shared_objects.h"

extern "C"
{
#include "miscadmin.h"
#include "pgstat.h"
#include "portability/instr_time.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/float.h"
#include "utils/resowner.h"
}

GxShared   *gx_shared = NULL;
char	   *gx_staging = NULL;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* backend-local: which resource owner holds each slot (NULL = not ours) */
static ResourceOwner *gx_slot_owner = NULL;
static bool gx_callbacks_registered = false;

static int
gx_nslots(void)
{
	int			n = (int) (((Size) gx_staging_size_mb * 1024 * 1024) / GX_SLOT_BYTES);

	return Max(n, 2);
}

static Size
gx_control_size(void)
{
	return add_size(offsetof(GxShared, slots),
					mul_size(sizeof(GxSlot), gx_nslots()));
}

static Size
gx_staging_bytes(void)
{
	/* one extra page to align the area for cudaHostRegister */
	return add_size(mul_size(GX_SLOT_BYTES, gx_nslots()), 4096);
}

/* shmem_request_hook: reserve the control block and the staging area */
static void
gx_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(gx_control_size());
	RequestAddinShmemSpace(gx_staging_bytes());
	RequestAddinShmemSpace(gx_cache_shmem_size());
	RequestAddinShmemSpace(gx_engine_shmem_size());
	RequestAddinShmemSpace(gx_shobj_shmem_size());
	RequestAddinShmemSpace(gx_stat_shmem_size());
	gx_cache_shmem_request();
	gx_engine_shmem_request();
	gx_shobj_shmem_request();
	gx_stat_shmem_request();
}

/* shmem_startup_hook: create or attach */
static void
gx_shmem_startup(void)
{
	bool		found;
	bool		found2;
	char	   *raw;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	gx_shared = (GxShared *) ShmemInitStruct("gpuext control", gx_control_size(), &found);
	raw = (char *) ShmemInitStruct("gpuext staging", gx_staging_bytes(), &found2);
	gx_staging = (char *) TYPEALIGN(4096, raw);
	if (!found)
	{
		memset(gx_shared, 0, gx_control_size());
		SpinLockInit(&gx_shared->mutex);
		ConditionVariableInit(&gx_shared->done_cv);
		pg_atomic_init_u32(&gx_shared->nspinning, 0);
		gx_shared->nslots = gx_nslots();
		gx_shared->slot_bytes = GX_SLOT_BYTES;
		for (int i = 0; i < gx_shared->nslots; i++)
		{
			SpinLockInit(&gx_shared->slots[i].mutex);
			gx_shared->slots[i].state = GX_SLOT_FREE;
			gx_shared->slots[i].cache_entry = -1;
		}
	}
	gx_cache_shmem_init();
	gx_engine_shmem_init();
	gx_shobj_shmem_init();
	gx_stat_shmem_init();
	LWLockRelease(AddinShmemInitLock);
}

void
gx_shmem_init_hooks(void)
{
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = gx_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = gx_shmem_startup;
}

/* give a slot up whatever its state (abort, exit, end of scan) */
static void
gx_slot_abandon(int slot)
{
	GxSlot	   *s = &gx_shared->slots[slot];
	bool		freed = false;

	SpinLockAcquire(&s->mutex);
	if (s->owner_pid == MyProcPid)
	{
		if (s->state == GX_SLOT_SUBMITTED || s->state == GX_SLOT_RUNNING)
			s->state = GX_SLOT_ABANDONED;
		else
		{
			s->state = GX_SLOT_FREE;
			freed = true;
		}
		s->owner_pid = 0;
	}
	SpinLockRelease(&s->mutex);
	gx_slot_owner[slot] = NULL;
	if (freed)
		ConditionVariableBroadcast(&gx_shared->done_cv);
}

/* resource owner release: abandon the slots of the owner being released */
static void
gx_resource_release(ResourceReleasePhase phase, bool isCommit, bool isTopLevel,
					void *arg)
{
	if (phase != RESOURCE_RELEASE_BEFORE_LOCKS || gx_slot_owner == NULL)
		return;
	for (int i = 0; i < gx_shared->nslots; i++)
	{
		if (gx_slot_owner[i] != NULL &&
			(gx_slot_owner[i] == CurrentResourceOwner || (isTopLevel && !isCommit)))
		{
			if (isCommit)
				elog(WARNING, "gpuext: staging slot %d leaked", i);
			gx_slot_abandon(i);
		}
	}
}

/* backend exit: abandon everything */
static void
gx_backend_exit(int code, Datum arg)
{
	gx_cache_backend_exit();
	if (gx_slot_owner == NULL || gx_shared == NULL)
		return;
	for (int i = 0; i < gx_shared->nslots; i++)
		if (gx_slot_owner[i] != NULL)
			gx_slot_abandon(i);
}

static void
gx_backend_setup(void)
{
	if (gx_callbacks_registered)
		return;
	gx_slot_owner = (ResourceOwner *) MemoryContextAllocZero(TopMemoryContext,
															 sizeof(ResourceOwner) * gx_shared->nslots);
	RegisterResourceReleaseCallback(gx_resource_release, NULL);
	before_shmem_exit(gx_backend_exit, 0);
	gx_callbacks_registered = true;
}

/* number of slots not in use by anyone (a hint, read without locks) */
static int
gx_free_slots_hint(void)
{
	int			n = 0;

	for (int i = 0; i < gx_shared->nslots; i++)
		if (gx_shared->slots[i].state == GX_SLOT_FREE)
			n++;
	return n;
}

/* take a free slot if there is one: its index, else -1 */
static int
gx_slot_try_take(void)
{
	for (int i = 0; i < gx_shared->nslots; i++)
	{
		GxSlot	   *s = &gx_shared->slots[i];
		bool		got = false;

		if (s->state != GX_SLOT_FREE)
			continue;
		SpinLockAcquire(&s->mutex);
		if (s->state == GX_SLOT_FREE)
		{
			s->state = GX_SLOT_FILLING;
			s->owner_pid = MyProcPid;
			s->owner_latch = MyLatch;
			s->cache_entry = -1;
			s->hold_entry = false;
			s->failed = 0;
			s->failcode = GX_FAIL_DEVICE;
			s->errmsg[0] = '\0';
			got = true;
		}
		SpinLockRelease(&s->mutex);
		if (got)
			return i;
	}
	return -1;
}

/*
 * Take a free slot.  With wait = false (a prefetch), return -1 unless a
 * slot is free and at least two others remain free, so that prefetching
 * does not starve other scans of this or another backend.
 *
 * Prefetches count and take under the control block's lock: then slots
 * taken by prefetches never exceed nslots - 2.  A scan only waits for a
 * slot when it holds none, and a process that blocks on another one
 * (a parallel worker whose tuple queue is full, waiting for its leader)
 * holds at most prefetched slots; so a process waiting for a slot always
 * finds one freed by a process that is not waiting for it.
 */
int
gx_slot_acquire(bool wait)
{
	int			slot;

	gx_backend_setup();
	if (!wait)
	{
		slot = -1;
		SpinLockAcquire(&gx_shared->mutex);
		if (gx_free_slots_hint() >= 3)
			slot = gx_slot_try_take();
		SpinLockRelease(&gx_shared->mutex);
		if (slot >= 0)
			gx_slot_owner[slot] = CurrentResourceOwner;
		return slot;
	}
	for (;;)
	{
		slot = gx_slot_try_take();
		if (slot >= 0)
		{
			gx_slot_owner[slot] = CurrentResourceOwner;
			return slot;
		}
		ConditionVariableTimedSleep(&gx_shared->done_cv, 10, PG_WAIT_EXTENSION);
		CHECK_FOR_INTERRUPTS();
	}
}

/* wake the service (a task was submitted, a session closed) */
void
gx_service_wake(void)
{
	Latch	   *latch;

	SpinLockAcquire(&gx_shared->mutex);
	latch = gx_shared->service_pid != 0 ? gx_shared->service_latch : NULL;
	SpinLockRelease(&gx_shared->mutex);
	if (latch)
		SetLatch(latch);
}

/* hand a filled slot to the service */
void
gx_slot_submit(int slot, int device)
{
	GxSlot	   *s = &gx_shared->slots[slot];

	/* the device's load, for gx_devset_pick (the service counts it down) */
	if (device >= 0 && device < GX_MAX_DEVICES)
		pg_atomic_fetch_add_u32(&gx_shared->devs[device].inflight, 1);
	SpinLockAcquire(&s->mutex);
	s->device = device;
	s->state = GX_SLOT_SUBMITTED;
	SpinLockRelease(&s->mutex);
	gx_service_wake();
}

/* current service generation; ERROR when no service runs */
uint32
gx_service_generation(void)
{
	uint32		gen = 0;
	int			pid = 0;

	/* right after startup the service may still be opening the GPU */
	for (int tries = 0; tries < 1500; tries++)
	{
		SpinLockAcquire(&gx_shared->mutex);
		pid = gx_shared->service_pid;
		gen = gx_shared->generation;
		SpinLockRelease(&gx_shared->mutex);
		if (pid != 0 && gx_shared->gpu_state != 0)
			return gen;
		pg_usleep(20000L);
		CHECK_FOR_INTERRUPTS();
	}
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("gpuext service is not running"),
			 errhint("Check the server log for the gpuext service; the postmaster restarts it.")));
	return 0;
}

/* raise a device error with PostgreSQL's message and SQLSTATE */
void
gx_raise_error(int code)
{
	switch (code)
	{
		case GX_ERR_INT2_RANGE:
			ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
							errmsg("smallint out of range")));
			break;
		case GX_ERR_INT4_RANGE:
			ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
							errmsg("integer out of range")));
			break;
		case GX_ERR_INT8_RANGE:
			ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
							errmsg("bigint out of range")));
			break;
		case GX_ERR_DIV_ZERO:
			ereport(ERROR, (errcode(ERRCODE_DIVISION_BY_ZERO),
							errmsg("division by zero")));
			break;
		case GX_ERR_FLOAT_OVERFLOW:
			float_overflow_error();
			break;
		case GX_ERR_FLOAT_UNDERFLOW:
			float_underflow_error();
			break;
		case GX_ERR_BAD_PAGE:
			elog(ERROR, "gpuext: a heap page failed the checks of the device deformer");
			break;
		default:
			elog(ERROR, "gpuext: device program failed with code %d", code);
	}
}

/* has the service finished the slot? */
static bool
gx_slot_done(GxSlot *s)
{
	int			state;

	SpinLockAcquire(&s->mutex);
	state = s->state;
	SpinLockRelease(&s->mutex);
	return state == GX_SLOT_DONE;
}

/* has the service finished the task of slot (its owner's; no wait)? */
bool
gx_slot_finished(int slot)
{
	return gx_slot_done(&gx_shared->slots[slot]);
}

/* poll the slot for up to spin_us microseconds; true once it is done */
static bool
gx_slot_spin(GxSlot *s, int spin_us)
{
	instr_time	start,
				now;

	INSTR_TIME_SET_CURRENT(start);
	for (int i = 0;; i++)
	{
		if (gx_slot_done(s))
			return true;
		pg_spin_delay();
		if ((i & 15) == 15)
		{
			INSTR_TIME_SET_CURRENT(now);
			INSTR_TIME_SUBTRACT(now, start);
			if ((int64) INSTR_TIME_GET_MICROSEC(now) >= (int64) spin_us)
				return false;
		}
	}
}

/* the service died while it ran a task of ours */
static void
gx_service_died(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_SYSTEM_ERROR),
			 errmsg("gpuext service terminated while running a query"),
			 errhint("The postmaster restarts the service; retry the query.")));
}

/*
 * May this backend poll a slot instead of sleeping?  Only a few backends
 * at a time (a quarter of the cores, at least two): with many clients,
 * backends that poll would take the cores the service and the other
 * backends need.
 */
static bool
gx_spin_begin(void)
{
	uint32		max = (uint32) Max(2, gx_shared->cpu_threads / 4);

	if (pg_atomic_fetch_add_u32(&gx_shared->nspinning, 1) < max)
		return true;
	pg_atomic_fetch_sub_u32(&gx_shared->nspinning, 1);
	return false;
}

static bool gx_slot_wait_ex(int slot, uint32 generation, int spin_us, bool memory_ok);

/*
 * Wait until the service is done with a slot; ERROR if the service died.
 * A chunk expected to be done within microseconds (spin_us > 0: cached
 * columns) is first polled for up to spin_us when few other backends poll,
 * which saves the latch wake-up.  Otherwise the backend sleeps on its
 * latch, which the service sets when it finishes the slot (only this
 * backend wakes, not every waiter).
 */
void
gx_slot_wait(int slot, uint32 generation, int spin_us)
{
	(void) gx_slot_wait_ex(slot, generation, spin_us, false);
}

/*
 * gx_slot_wait, except that a task that failed for lack of device memory
 * returns false (its slot released) instead of raising the ERROR: the
 * caller has another way to do the work (GpuJoin's fallback plan)
 */
bool
gx_slot_wait_memory(int slot, uint32 generation)
{
	return gx_slot_wait_ex(slot, generation, 0, true);
}

/* gx_slot_wait; memory_ok: false for a task without device memory */
static bool
gx_slot_wait_ex(int slot, uint32 generation, int spin_us, bool memory_ok)
{
	GxSlot	   *s = &gx_shared->slots[slot];
	bool		done = false;

	if (spin_us > 0 && gx_spin_begin())
	{
		done = gx_slot_spin(s, spin_us);
		pg_atomic_fetch_sub_u32(&gx_shared->nspinning, 1);
	}
	while (!done)
	{
		uint32		gen;
		int			pid;

		ResetLatch(MyLatch);
		if (gx_slot_done(s))
			break;
		SpinLockAcquire(&gx_shared->mutex);
		gen = gx_shared->generation;
		pid = gx_shared->service_pid;
		SpinLockRelease(&gx_shared->mutex);
		if (pid == 0 || gen != generation)
			gx_service_died();
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		CHECK_FOR_INTERRUPTS();
	}
	if (s->failed)
	{
		char		msg[256];
		int			code = s->failcode;

		strlcpy(msg, s->errmsg, sizeof(msg));
		gx_slot_release(slot);
		if (code == GX_FAIL_RESTART)
			gx_service_died();
		if (code == GX_FAIL_MEMORY && memory_ok)
			return false;
		if (code == GX_FAIL_MEMORY)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("gpuext: %s", msg),
					 errhint("Raise gpuext.session_memory or gpuext.device_memory, or run the query with gpuext.enabled off.")));
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("gpuext device error: %s", msg)));
	}
	return true;
}

/*
 * Keep the cache entry of an owned slot's task pinned while the task is
 * DONE, until the slot is given back: its task is to be submitted again
 * and must see the rows it saw (gx_slot_may_touch)
 */
void
gx_slot_hold_entry(int slot)
{
	gx_shared->slots[slot].hold_entry = true;
}

/* give back a slot whose result has been consumed (or never submitted) */
void
gx_slot_release(int slot)
{
	gx_slot_abandon(slot);
}
