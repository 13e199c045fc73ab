/*
 * session.cpp - engine sessions and their device-resident objects.
 *
 * Design note
 * -----------
 * A plan node opens a session when it starts executing and closes it when
 * it ends; every task it submits names the session (gx_chunk.session).
 * Objects that must outlive one task (an aggregate's state today; a join's
 * hash table, a group table, a sorted run in the operators that follow)
 * are reserved in a session by the backend (an entry of the shared table,
 * accounted against the limits at once), named by handle in tasks, given
 * memory by the service when the first task that names it runs, and freed
 * by the service when the session closes.  Parallel
 * workers of one query name the leader's session and objects (the handles
 * travel in the parallel query's DSM), so that one object serves them all.
 *
 * The session and object tables live in shared memory under one LWLock:
 * backends open and close sessions without a round trip to the service,
 * and the views (gpuext_sessions, gpuext_memory) read them.  Only the
 * service allocates and frees device memory and fills in object
 * addresses, which mean something in its process alone.
 *
 * Lifetimes.  A session is closed
 *  - by its node at executor end (gx_session_close);
 *  - on error or cancel, by the release of the resource owner that was
 *    current when it was opened (a portal's, for cursors);
 *  - at backend exit (before_shmem_exit);
 *  - when the service restarts: its objects died with the old service
 *    (gx_engine_service_reset forgets them; the session's next task fails
 *    because the service generation changed).
 * A session that holds objects goes to CLOSING; the service frees its
 * objects once none of its tasks is in flight, then frees the session.
 */
#include "gpuext.h"
#include "engine.h"

extern "C"
{
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/resowner.h"
#include "utils/timestamp.h"
}

GxEngine   *gx_engine = NULL;

/* backend-local: the sessions this backend opened, and their owners */
typedef struct GxLocalSession
{
	uint32		id;
	ResourceOwner owner;
} GxLocalSession;

#define GX_LOCAL_SESSIONS 64
static GxLocalSession gx_local[GX_LOCAL_SESSIONS];
static bool gx_session_callbacks = false;

/* index of a session or object id in its table, or -1 */
static inline int
gx_id_index(uint32 id, int n)
{
	int			idx = (int) (id & ((1u << GX_ID_INDEX_BITS) - 1)) - 1;

	return (id == 0 || idx < 0 || idx >= n) ? -1 : idx;
}

/* the id of table slot idx at its generation */
static inline uint32
gx_make_id(uint32 generation, int idx)
{
	return (generation << GX_ID_INDEX_BITS) | (uint32) (idx + 1);
}

/*
 * the next generation of a table slot (ids stay nonzero and below 2^31:
 * the top bit marks a shared object's handle, shared_objects.h)
 */
static uint32
gx_next_generation(uint32 generation)
{
	generation++;
	if (generation >= (1u << (31 - GX_ID_INDEX_BITS)))
		generation = 1;
	return generation;
}

Size
gx_engine_shmem_size(void)
{
	return sizeof(GxEngine);
}

/* shmem_request_hook part: the tables' LWLock */
void
gx_engine_shmem_request(void)
{
	RequestNamedLWLockTranche("gpuext engine", 1);
}

/* shmem_startup_hook part: create or attach (AddinShmemInitLock held) */
void
gx_engine_shmem_init(void)
{
	bool		found;

	gx_engine = (GxEngine *) ShmemInitStruct("gpuext engine", gx_engine_shmem_size(), &found);
	if (!found)
	{
		memset(gx_engine, 0, sizeof(GxEngine));
		gx_engine->lock = &(GetNamedLWLockTranche("gpuext engine"))->lock;
		for (int d = 0; d < GX_MAX_DEVICES; d++)
		{
			pg_atomic_init_u64(&gx_engine->mem[d].staging, 0);
			pg_atomic_init_u64(&gx_engine->mem[d].cache, 0);
			pg_atomic_init_u64(&gx_engine->mem[d].sessions, 0);
			pg_atomic_init_u64(&gx_engine->mem[d].shared, 0);
		}
		pg_atomic_init_u32(&gx_engine->reclaim, 0);
	}
}

/* ---------------------------------------------------------------------- */
/* backend side                                                           */
/* ---------------------------------------------------------------------- */

/* forget a session in the backend-local list */
static void
gx_local_forget(uint32 id)
{
	for (int i = 0; i < GX_LOCAL_SESSIONS; i++)
		if (gx_local[i].id == id)
			gx_local[i].id = 0;
}

/* resource owner release: close the sessions of the owner being released */
static void
gx_session_release(ResourceReleasePhase phase, bool isCommit, bool isTopLevel, void *arg)
{
	if (phase != RESOURCE_RELEASE_BEFORE_LOCKS)
		return;
	for (int i = 0; i < GX_LOCAL_SESSIONS; i++)
	{
		if (gx_local[i].id == 0)
			continue;
		if (gx_local[i].owner == CurrentResourceOwner || (isTopLevel && !isCommit))
		{
			if (isCommit)
				elog(WARNING, "gpuext: session %u leaked", gx_local[i].id);
			gx_session_close(gx_local[i].id);
		}
	}
}

/* backend exit: close every session this backend still holds */
void
gx_session_backend_exit(void)
{
	if (gx_engine == NULL)
		return;
	for (int i = 0; i < GX_LOCAL_SESSIONS; i++)
		if (gx_local[i].id != 0)
			gx_session_close(gx_local[i].id);
}

static void
gx_session_exit_cb(int code, Datum arg)
{
	gx_session_backend_exit();
}

/*
 * Open a session for tasks on the devices of mask, its objects made on
 * 'device' (its home) unless another of them is named; it belongs to the
 * current resource owner, which closes it on abort.
 */
static uint32
gx_session_open_mask(int device, uint32 mask)
{
	uint32		id = 0;
	int			local = -1;

	if (!gx_session_callbacks)
	{
		RegisterResourceReleaseCallback(gx_session_release, NULL);
		before_shmem_exit(gx_session_exit_cb, 0);
		gx_session_callbacks = true;
	}
	for (int i = 0; i < GX_LOCAL_SESSIONS && local < 0; i++)
		if (gx_local[i].id == 0)
			local = i;
	if (local < 0)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("too many gpuext sessions open in this backend"),
				 errdetail("A backend may hold %d sessions (one per running GpuScan).",
						   GX_LOCAL_SESSIONS)));

	LWLockAcquire(gx_engine->lock, LW_EXCLUSIVE);
	for (int i = 0; i < GX_MAX_SESSIONS; i++)
	{
		GxSession  *s = &gx_engine->sessions[i];

		if (s->state != GX_SESSION_FREE)
			continue;
		s->generation = gx_next_generation(s->generation);
		s->id = id = gx_make_id(s->generation, i);
		s->state = GX_SESSION_OPEN;
		s->owner_pid = MyProcPid;
		s->device = device;
		s->devices = mask | (1u << device);
		s->dbid = MyDatabaseId;
		s->mem_limit = (uint64) gx_session_memory_kb * 1024;
		s->bytes = 0;
		s->nobjects = 0;
		s->opened = GetCurrentTimestamp();
		break;
	}
	LWLockRelease(gx_engine->lock);
	if (id == 0)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("too many gpuext sessions"),
				 errdetail("The engine has room for %d sessions at once.", GX_MAX_SESSIONS)));
	gx_local[local].id = id;
	gx_local[local].owner = CurrentResourceOwner;
	return id;
}

/* open a session for tasks on one device */
uint32
gx_session_open(int device)
{
	return gx_session_open_mask(device, 1u << device);
}

/* open a session for tasks on the devices of set, at home on its first */
uint32
gx_session_open_set(const GxDevSet *set)
{
	return gx_session_open_mask(set->dev[0], set->mask);
}

/*
 * Close a session (no-op for 0 or a session that is gone).  One without
 * objects is free at once; one with objects waits for the service.
 */
void
gx_session_close(uint32 id)
{
	int			idx = gx_id_index(id, GX_MAX_SESSIONS);
	bool		wake = false;

	gx_local_forget(id);
	if (idx < 0 || gx_engine == NULL)
		return;
	LWLockAcquire(gx_engine->lock, LW_EXCLUSIVE);
	{
		GxSession  *s = &gx_engine->sessions[idx];

		if (s->id == id && s->state == GX_SESSION_OPEN)
		{
			if (s->nobjects == 0)
			{
				s->state = GX_SESSION_FREE;
				s->id = 0;
			}
			else
			{
				s->state = GX_SESSION_CLOSING;
				pg_atomic_write_u32(&gx_engine->reclaim, 1);
				wake = true;
			}
		}
	}
	LWLockRelease(gx_engine->lock);
	if (wake)
		gx_service_wake();
}

/* the first part of a task's header: magic, kind, session, injected fault */
void
gx_task_init(gx_chunk *c, uint32 kind, uint32 session)
{
	memset(c, 0, offsetof(gx_chunk, nrows));
	c->magic = GX_CHUNK_MAGIC;
	c->kind = kind;
	c->session = session;
	c->fault = gx_take_fault();
}

/*
 * The header of a task with no program (gx_task_init, then no rows,
 * columns, instructions, constants, registers, flags or deforming, the
 * extension zeroed, no cache entry); the caller sets its sizes, objects,
 * ordering and its kind's part of the extension
 */
void
gx_task_init_plain(gx_chunk *c, uint32 kind, uint32 session)
{
	gx_task_init(c, kind, session);
	c->nrows = 0;
	c->ncols = 0;
	c->ninstr = 0;
	c->nconsts = 0;
	c->nregs = 0;
	c->flags = 0;
	c->deform_off = 0;
	memset(&c->ext, 0, sizeof(c->ext));
	c->ext.entry = -1;
}

/*
 * Lay n int8 values (vals, NULL where nulls says) out as column col of
 * task c from byte at: the values, then a NULL bitmap only when one is
 * NULL (a NULL's value 0); returns where the next part may go.  The
 * batched lookups' keys (ptree_lookup.cpp, projection.cpp).
 */
uint64
gx_task_put_int8_col(gx_chunk *c, int col, uint64 at, const Datum *vals, const bool *nulls,
					 uint32 n)
{
	int64	   *k = (int64 *) ((char *) c + at);
	bool		anynull = false;

	c->cols[col].values_off = at;
	for (uint32 i = 0; i < n; i++)
	{
		k[i] = nulls[i] ? 0 : DatumGetInt64(vals[i]);
		anynull |= nulls[i];
	}
	at = GX_ALIGN_UP(at + (uint64) n * sizeof(int64));
	if (anynull)
	{
		uint32	   *bm = (uint32 *) ((char *) c + at);

		memset(bm, 0, gx_bitmap_bytes(n));
		for (uint32 i = 0; i < n; i++)
			if (nulls[i])
				bm[i >> 5] |= 1u << (i & 31);
		c->cols[col].nulls_off = at;
		at = GX_ALIGN_UP(at + gx_bitmap_bytes(n));
	}
	return at;
}

/* ERROR: device memory for an object is not to be had */
static void
gx_object_oom(uint64 bytes, const char *limit)
{
	ereport(ERROR,
			(errcode(ERRCODE_OUT_OF_MEMORY),
			 errmsg("gpuext: out of device memory: %llu bytes more would exceed %s",
					(unsigned long long) bytes, limit),
			 errhint("Raise gpuext.session_memory or gpuext.device_memory, or run the query with gpuext.enabled off.")));
}

/*
 * Reserve a zeroed object of 'bytes' in a session on each of n distinct
 * devices of it, all or none; their handles into handles[].  No round
 * trip: the objects are entries of the shared table, accounted now (ERROR
 * when gpuext.session_memory or gpuext.device_memory would be exceeded,
 * or the table is full; missing_ok: false instead), and the service takes
 * each one's memory from its device's pool when the first task that names
 * it runs.
 */
static bool
gx_session_alloc_ex(uint32 session, const int *devices, int n, uint64 bytes, int kind,
					bool missing_ok, uint32 *handles)
{
	int			sidx = gx_id_index(session, GX_MAX_SESSIONS);
	GxSession  *s;
	const char *limit = NULL;
	int			slots[GX_MAX_DEVICES];
	int			nslots = 0;
	bool		open;

	if (sidx < 0 || bytes == 0 || n < 1 || n > GX_MAX_DEVICES)
		elog(ERROR, "gpuext: invalid object request");
	LWLockAcquire(gx_engine->lock, LW_EXCLUSIVE);
	s = &gx_engine->sessions[sidx];
	open = s->id == session && s->state == GX_SESSION_OPEN;
	for (int k = 0; k < n && open; k++)
		open = devices[k] >= 0 && devices[k] < GX_MAX_DEVICES &&
			(s->devices & (1u << devices[k])) != 0;
	if (!open)
	{
		LWLockRelease(gx_engine->lock);
		elog(ERROR, "gpuext: session %u is not open on this device", session);
	}
	if (s->mem_limit > 0 && s->bytes + (uint64) n * bytes > s->mem_limit)
		limit = "gpuext.session_memory";
	for (int k = 0; k < n && limit == NULL; k++)
		if (gx_memory_over_limit(devices[k], bytes))
			limit = "gpuext.device_memory";
	for (int i = 0; i < GX_MAX_OBJECTS && limit == NULL && nslots < n; i++)
		if (gx_engine->objects[i].handle == 0)
			slots[nslots++] = i;
	for (int k = 0; k < n && limit == NULL && nslots == n; k++)
	{
		GxObject   *o = &gx_engine->objects[slots[k]];

		o->generation = gx_next_generation(o->generation);
		o->handle = handles[k] = gx_make_id(o->generation, slots[k]);
		o->session = session;
		o->device = devices[k];
		o->kind = kind;
		o->bytes = bytes;
		o->addr = 0;
		s->bytes += bytes;
		s->nobjects++;
		pg_atomic_fetch_add_u64(&gx_engine->mem[devices[k]].sessions, bytes);
	}
	LWLockRelease(gx_engine->lock);
	if (limit == NULL && nslots == n)
		return true;
	if (missing_ok)
		return false;
	if (limit != NULL)
		gx_object_oom((uint64) n * bytes, limit);
	ereport(ERROR,
			(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
			 errmsg("too many gpuext device objects"),
			 errdetail("The engine has room for %d objects at once.", GX_MAX_OBJECTS)));
	return false;
}

/* an object of bytes on a device of the session (gx_session_alloc_ex), ERROR without room */
uint32
gx_session_alloc(uint32 session, int device, uint64 bytes, int kind)
{
	uint32		handle = 0;

	(void) gx_session_alloc_ex(session, &device, 1, bytes, kind, false, &handle);
	return handle;
}

/*
 * gx_session_alloc, returning 0 when a memory limit or the object table
 * has no room (the caller can ask for less)
 */
uint32
gx_session_try_alloc(uint32 session, int device, uint64 bytes, int kind)
{
	uint32		handle = 0;

	return gx_session_alloc_ex(session, &device, 1, bytes, kind, true, &handle) ? handle : 0;
}

/*
 * An object of bytes on each of n distinct devices of the session, all or
 * none (a node's table per device, of one geometry): true with their
 * handles in handles[]; false when a limit or the object table has no room
 * for all of them (must: an ERROR instead)
 */
bool
gx_session_alloc_each(uint32 session, const int *devices, int n, uint64 bytes, int kind,
					  bool must, uint32 *handles)
{
	return gx_session_alloc_ex(session, devices, n, bytes, kind, !must, handles);
}

/* ---------------------------------------------------------------------- */
/* service side                                                           */
/* ---------------------------------------------------------------------- */

/* the open or closing session with this id, or NULL (no lock: the service) */
GxSession *
gx_session_lookup(uint32 id)
{
	int			idx = gx_id_index(id, GX_MAX_SESSIONS);
	GxSession  *s;

	if (idx < 0)
		return NULL;
	s = &gx_engine->sessions[idx];
	return (s->id == id && s->state != GX_SESSION_FREE) ? s : NULL;
}

/* the live object with this handle, or NULL */
GxObject *
gx_object_lookup(uint32 handle)
{
	int			idx = gx_id_index(handle, GX_MAX_OBJECTS);
	GxObject   *o;

	if (idx < 0)
		return NULL;
	o = &gx_engine->objects[idx];
	return o->handle == handle ? o : NULL;
}

/* bytes of device memory in use on a device, all owners */
uint64
gx_memory_used(int device)
{
	GxMemory   *m = &gx_engine->mem[device];

	return pg_atomic_read_u64(&m->staging) + pg_atomic_read_u64(&m->cache) +
		pg_atomic_read_u64(&m->sessions) + pg_atomic_read_u64(&m->shared);
}

/*
 * A new service: the objects died with the old one.  Open sessions stay
 * open (their owners close them; their tasks fail on the generation),
 * closing ones are freed, the memory counters start again.
 */
void
gx_engine_service_reset(void)
{
	LWLockAcquire(gx_engine->lock, LW_EXCLUSIVE);
	for (int i = 0; i < GX_MAX_OBJECTS; i++)
		memset(&gx_engine->objects[i], 0, offsetof(GxObject, generation));
	for (int i = 0; i < GX_MAX_SESSIONS; i++)
	{
		GxSession  *s = &gx_engine->sessions[i];

		s->bytes = 0;
		s->nobjects = 0;
		if (s->state == GX_SESSION_CLOSING)
		{
			s->state = GX_SESSION_FREE;
			s->id = 0;
		}
	}
	for (int d = 0; d < GX_MAX_DEVICES; d++)
	{
		pg_atomic_write_u64(&gx_engine->mem[d].staging, 0);
		pg_atomic_write_u64(&gx_engine->mem[d].cache, 0);
		pg_atomic_write_u64(&gx_engine->mem[d].sessions, 0);
	}
	LWLockRelease(gx_engine->lock);
}

/*
 * Would 'bytes' more on 'device' exceed gpuext.device_memory?  (0 = the
 * device's own size is the limit: the allocation then fails by itself.)
 */
bool
gx_memory_over_limit(int device, uint64 bytes)
{
	uint64		limit = (uint64) gx_device_memory_mb * 1024 * 1024;

	return limit > 0 && gx_memory_used(device) + bytes > limit;
}

/*
 * Service: the memory of an object a task names, taken from the device's
 * pool (zeroed) when the first such task runs.  Returns NULL, or an error
 * message (in err) for the task; *oom tells whether memory was the reason.
 */
const char *
gx_object_memory(GxObject *o, char *err, size_t errlen, bool *oom)
{
	void	   *addr = NULL;
	gx_status	st;

	*oom = false;
	if (o->addr != 0)
		return NULL;
	st = gx_device_alloc(o->device, o->bytes, &addr, err, errlen);
	if (st != GX_OK)
	{
		*oom = (st == GX_NO_MEMORY);
		return err;
	}
	LWLockAcquire(gx_engine->lock, LW_EXCLUSIVE);
	o->addr = (uint64) (uintptr_t) addr;
	LWLockRelease(gx_engine->lock);
	return NULL;
}

/*
 * Service: free the objects of closing sessions none of whose tasks is in
 * flight (inflight[i]: tasks of session slot i running now), then the
 * sessions.  Returns true when a closing session had to wait.
 */
bool
gx_sessions_reclaim(const int *inflight)
{
	bool		waiting = false;

	if (pg_atomic_exchange_u32(&gx_engine->reclaim, 0) == 0)
		return false;
	LWLockAcquire(gx_engine->lock, LW_EXCLUSIVE);
	for (int i = 0; i < GX_MAX_SESSIONS; i++)
	{
		GxSession  *s = &gx_engine->sessions[i];

		if (s->state != GX_SESSION_CLOSING)
			continue;
		if (inflight[i] > 0)
		{
			waiting = true;
			continue;
		}
		for (int k = 0; k < GX_MAX_OBJECTS; k++)
		{
			GxObject   *o = &gx_engine->objects[k];

			if (o->handle == 0 || o->session != s->id)
				continue;
			if (o->addr != 0)
				gx_device_free(o->device, (void *) (uintptr_t) o->addr);
			pg_atomic_fetch_sub_u64(&gx_engine->mem[o->device].sessions, o->bytes);
			o->handle = 0;
			o->addr = 0;
		}
		s->bytes = 0;
		s->nobjects = 0;
		s->state = GX_SESSION_FREE;
		s->id = 0;
	}
	if (waiting)
		pg_atomic_write_u32(&gx_engine->reclaim, 1);
	LWLockRelease(gx_engine->lock);
	return waiting;
}

/* bytes of an object's contents one OBJ_WRITE task carries: its slot after the header */
static Size
gx_session_write_piece(void)
{
	Size		room = gx_shared->slot_bytes - GX_ALIGN_UP(sizeof(gx_chunk)) -
		GX_ALIGN_UP(gx_result_bytes(0)) - GX_ALIGN;

	return room & ~(Size) 7;
}

/*
 * Write len bytes (a multiple of 8) from src into object obj of a session
 * from byte dst (8-aligned): OBJ_WRITE tasks of a slot's size each, each
 * ordered after every task of the session still in flight
 * (GX_FOLLOW_SESSION) and waited for (an ERROR if one fails), so that
 * every task submitted afterwards finds the bytes in place
 */
void
gx_session_write(uint32 session, int device, uint32 obj, const char *src, uint64 dst,
				 uint64 len)
{
	const Size	piece = gx_session_write_piece();

	for (uint64 done = 0; done < len; done += piece)
	{
		Size		n = (Size) Min((uint64) piece, len - done);
		int			slot;
		uint32		gen;
		gx_chunk   *c;
		uint64		at = GX_ALIGN_UP(sizeof(gx_chunk));

		CHECK_FOR_INTERRUPTS();
		slot = gx_slot_acquire(true);
		gen = gx_service_generation();
		c = gx_slot_chunk(slot);
		gx_task_init_plain(c, GX_TASK_OBJ_WRITE, session);
		c->obj[0] = obj;
		c->follow = GX_FOLLOW_SESSION;
		c->input_bytes = at + n;
		c->result_off = GX_ALIGN_UP(c->input_bytes);
		c->ext.write.src = at;
		c->ext.write.dst = dst + done;
		c->ext.write.bytes = n;
		memcpy((char *) c + at, src + done, n);
		gx_slot_submit(slot, device);
		gx_slot_wait(slot, gen, 0);
		gx_slot_release(slot);
	}
}
