/*
 * shared_objects.cpp - engine objects owned by the service, not by a
 * session: one device copy of something that changes rarely (a
 * prefix-tree index's image today, the sorted projection later), named
 * read-only by the tasks of any session.
 *
 * Design note
 * -----------
 * A fixed table in shared memory (GX_MAX_SHARED_OBJECTS entries, its own
 * LWLock).  An entry is named by a key: database, relation, relfilenode,
 * kind and version (a ptree image: the index's change counter), plus a
 * hash of the contents that must match too.  Its handle is a session
 * object's id with GX_SHOBJ_BIT set, so a task names it in its obj[] like
 * any object; the service tells them apart (gx_task_context).
 *
 * Life of an entry:
 *  - the first backend that needs a key reserves it (gx_shobj_acquire,
 *    under the lock): WRITING, the backend its writer (its session's
 *    OBJ_WRITE tasks, and only those, may name it), accounted at once;
 *    a backend that finds the key WRITING (another writer) or a newer
 *    version of the relation uses a session copy for that call: never
 *    two writers, never a wait;
 *  - the writer fills it (gx_session_write) and marks it READY;
 *  - any backend then holds it for a call (holders), names it read-only
 *    in its tasks, and lets it go (gx_shobj_release; on abort the
 *    resource owner's release, at exit a before_shmem_exit callback);
 *  - the service pins it for each task in flight that names it (tasks,
 *    unpinned when the task finishes, also when its backend went away);
 *  - a newer key of the same relation and kind (the change counter moved,
 *    a new relfilenode after REINDEX, TRUNCATE, VACUUM FULL) makes the
 *    older ones DEAD, as does eviction; the service frees a DEAD entry's
 *    memory once nobody holds or pins it.  Tasks of a backend still
 *    holding a DEAD entry keep reading it (it is right for that backend's
 *    call, and its memory cannot go while held).
 * Memory: gpuext_memory's owner "shared", within gpuext.device_memory;
 * gpuext.shared_object_memory bounds the shared objects of a device.  A
 * key that does not fit frees unpinned READY entries least recently used
 * first, only if that makes room; otherwise the call uses a session copy
 * (as before shared objects; never an error where that works).  A service
 * restart forgets every entry (their memory died with the old service).
 * A dropped relation's entries can never be named again (the key has the
 * relfilenode): eviction frees them.
 */
#include "gpuext.h"
#include "engine.h"
#include "shared_objects.h"

extern "C"
{
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

PGDLLEXPORT Datum gpuext_shared_objects(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum gpuext_shared_object_stats(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_shared_objects);
PG_FUNCTION_INFO_V1(gpuext_shared_object_stats);
}

typedef struct GxSharedObject
{
	uint32		handle;			/* 0 while free */
	uint32		generation;		/* of the table slot */
	int			state;			/* GxSharedState */
	bool		writing;		/* reserved, not yet marked ready by its writer */
	bool		accounted;		/* its bytes are in gpuext_memory's "shared" */
	GxSharedKey key;
	int			device;
	uint64		bytes;
	uint64		addr;			/* device address (the service's), 0 before
								 * the first write */
	uint32		service_gen;	/* the service generation it was reserved in */
	uint32		writer_session; /* the session whose OBJ_WRITE tasks fill it */
	int			holders;		/* backends holding it for a call */
	int			tasks;			/* tasks in flight naming it (service) */
	uint64		uses;			/* calls that held it */
	TimestampTz last_use;
} GxSharedObject;

typedef struct GxSharedTable
{
	LWLock	   *lock;
	pg_atomic_uint32 reclaim;	/* 1: a DEAD entry may be unpinned */
	/* counters since server start (under the lock) */
	uint64		objects_written;
	uint64		bytes_written;
	uint64		session_copies; /* calls that wrote a session copy instead */
	uint64		session_copy_bytes;
	uint64		evictions;
	GxSharedObject objs[GX_MAX_SHARED_OBJECTS];
} GxSharedTable;

static GxSharedTable *gx_shobj = NULL;

/* backend-local: the entries this backend holds, and their owners */
typedef struct GxLocalHold
{
	uint32		handle;
	ResourceOwner owner;
} GxLocalHold;

#define GX_SHOBJ_LOCAL 16
static GxLocalHold gx_holds[GX_SHOBJ_LOCAL];
static bool gx_shobj_callbacks = false;

/* service-local: the entry each slot's task pinned per object (index + 1) */
static int (*gx_shobj_pins)[GX_TASK_MAX_OBJS] = NULL;

Size
gx_shobj_shmem_size(void)
{
	return sizeof(GxSharedTable);
}

/* shmem_request_hook part: the table's LWLock */
void
gx_shobj_shmem_request(void)
{
	RequestNamedLWLockTranche("gpuext shared objects", 1);
}

/* shmem_startup_hook part: create or attach (AddinShmemInitLock held) */
void
gx_shobj_shmem_init(void)
{
	bool		found;

	gx_shobj = (GxSharedTable *) ShmemInitStruct("gpuext shared objects",
												 gx_shobj_shmem_size(), &found);
	if (!found)
	{
		memset(gx_shobj, 0, sizeof(GxSharedTable));
		gx_shobj->lock = &(GetNamedLWLockTranche("gpuext shared objects"))->lock;
		pg_atomic_init_u32(&gx_shobj->reclaim, 0);
	}
}

/* the entry a handle names (live or not), or NULL for a malformed handle */
static GxSharedObject *
gx_shobj_slot(uint32 handle)
{
	int			idx = (int) (handle & ((1u << GX_ID_INDEX_BITS) - 1)) - 1;

	if (!gx_shobj_is_handle(handle) || idx < 0 || idx >= GX_MAX_SHARED_OBJECTS)
		return NULL;
	return &gx_shobj->objs[idx];
}

/* the live entry with this handle, or NULL (lock held) */
static GxSharedObject *
gx_shobj_lookup(uint32 handle)
{
	GxSharedObject *e = gx_shobj_slot(handle);

	return (e != NULL && e->handle == handle && e->state != GX_SHOBJ_FREE) ? e : NULL;
}

/* may the service free e now?  (lock held) */
static inline bool
gx_shobj_unused(const GxSharedObject *e)
{
	return e->holders == 0 && e->tasks == 0;
}

/*
 * e is dead (replaced, evicted, or its writer gave up); unused, its bytes
 * leave the accounting now and the service frees it at its next pass.
 * Returns whether the service should be woken.  (Lock held.)
 */
static bool
gx_shobj_kill(GxSharedObject *e)
{
	e->state = GX_SHOBJ_DEAD;
	if (!gx_shobj_unused(e))
		return false;
	if (e->accounted)
	{
		pg_atomic_fetch_sub_u64(&gx_engine->mem[e->device].shared, e->bytes);
		e->accounted = false;
	}
	pg_atomic_write_u32(&gx_shobj->reclaim, 1);
	return true;
}

/* ---------------------------------------------------------------------- */
/* backend side                                                           */
/* ---------------------------------------------------------------------- */

/* forget a hold in the backend-local list */
static void
gx_hold_forget(uint32 handle)
{
	for (int i = 0; i < GX_SHOBJ_LOCAL; i++)
		if (gx_holds[i].handle == handle)
		{
			gx_holds[i].handle = 0;
			return;
		}
}

/* resource owner release: let go of the entries of the owner being released */
static void
gx_shobj_owner_release(ResourceReleasePhase phase, bool isCommit, bool isTopLevel, void *arg)
{
	if (phase != RESOURCE_RELEASE_BEFORE_LOCKS)
		return;
	for (int i = 0; i < GX_SHOBJ_LOCAL; i++)
	{
		if (gx_holds[i].handle == 0)
			continue;
		if (gx_holds[i].owner == CurrentResourceOwner || (isTopLevel && !isCommit))
		{
			if (isCommit)
				elog(WARNING, "gpuext: shared object %u leaked", gx_holds[i].handle);
			gx_shobj_release(gx_holds[i].handle);
		}
	}
}

/* backend exit: let go of every entry this backend still holds */
static void
gx_shobj_exit_cb(int code, Datum arg)
{
	for (int i = 0; i < GX_SHOBJ_LOCAL; i++)
		if (gx_holds[i].handle != 0)
			gx_shobj_release(gx_holds[i].handle);
}

/*
 * Room for 'bytes' more shared object on 'device': the unpinned READY
 * entries to evict, least recently used first, so that the device's shared
 * objects stay within gpuext.shared_object_memory and the device within
 * gpuext.device_memory; evicts them only when that makes room.  Returns
 * whether there is room (lock held; *wake when the service has to free).
 */
static bool
gx_shobj_make_room(int device, uint64 bytes, bool *wake)
{
	uint64		limit = (uint64) gx_shared_object_memory_mb * 1024 * 1024;
	uint64		shared = pg_atomic_read_u64(&gx_engine->mem[device].shared);
	uint64		need = 0;
	uint64		evictable = 0;
	uint64		freed = 0;

	if (shared + bytes > limit)
		need = shared + bytes - limit;
	if (gx_device_memory_mb > 0)
	{
		uint64		dlimit = (uint64) gx_device_memory_mb * 1024 * 1024;
		uint64		used = gx_memory_used(device);

		if (used + bytes > dlimit)
			need = Max(need, used + bytes - dlimit);
	}
	if (need == 0)
		return true;
	for (int i = 0; i < GX_MAX_SHARED_OBJECTS; i++)
	{
		GxSharedObject *e = &gx_shobj->objs[i];

		if (e->state == GX_SHOBJ_READY && e->device == device && gx_shobj_unused(e))
			evictable += e->bytes;
	}
	if (evictable < need)
		return false;
	while (freed < need)
	{
		GxSharedObject *lru = NULL;

		for (int i = 0; i < GX_MAX_SHARED_OBJECTS; i++)
		{
			GxSharedObject *e = &gx_shobj->objs[i];

			if (e->state == GX_SHOBJ_READY && e->device == device && gx_shobj_unused(e) &&
				(lru == NULL || e->last_use < lru->last_use))
				lru = e;
		}
		Assert(lru != NULL);
		freed += lru->bytes;
		gx_shobj_kill(lru);
		gx_shobj->evictions++;
		*wake = true;
	}
	return true;
}

/*
 * A free table slot, or NULL; with none, the least recently used unpinned
 * READY entry is evicted so that a later call finds one (lock held)
 */
static GxSharedObject *
gx_shobj_free_slot(bool *wake)
{
	GxSharedObject *lru = NULL;

	for (int i = 0; i < GX_MAX_SHARED_OBJECTS; i++)
	{
		GxSharedObject *e = &gx_shobj->objs[i];

		if (e->state == GX_SHOBJ_FREE)
			return e;
		if (e->state == GX_SHOBJ_READY && gx_shobj_unused(e) &&
			(lru == NULL || e->last_use < lru->last_use))
			lru = e;
	}
	if (lru != NULL)
	{
		gx_shobj_kill(lru);
		gx_shobj->evictions++;
		*wake = true;
	}
	return NULL;
}

/* remember a hold for the release on abort or exit */
static void
gx_hold_remember(uint32 handle)
{
	for (int i = 0; i < GX_SHOBJ_LOCAL; i++)
		if (gx_holds[i].handle == 0)
		{
			gx_holds[i].handle = handle;
			gx_holds[i].owner = CurrentResourceOwner;
			return;
		}
}

/* is there room in the backend-local list of holds? */
static bool
gx_hold_room(void)
{
	for (int i = 0; i < GX_SHOBJ_LOCAL; i++)
		if (gx_holds[i].handle == 0)
			return true;
	return false;
}

/*
 * The shared object of 'key' on 'device' of 'bytes', held for this call:
 * its handle, READY (*write false), or reserved now with this backend its
 * writer (*write true: fill it through 'session''s OBJ_WRITE tasks, then
 * gx_shobj_ready).  0 when the call must use a session copy: another
 * backend is writing the key, a newer version of the relation exists, or
 * there is no room (gpuext.shared_object_memory, gpuext.device_memory, the
 * table).  Entries of older versions of the relation become dead.  Let go
 * of it with gx_shobj_release (an ERROR does so through the resource
 * owner).
 */
uint32
gx_shobj_acquire(const GxSharedKey *key, int device, uint64 bytes, uint32 session, bool *write)
{
	uint32		gen;
	uint32		handle = 0;
	bool		newer = false;
	bool		wake = false;
	GxSharedObject *e = NULL;

	*write = false;
	if (gx_shared_object_memory_mb <= 0 || bytes == 0 || gx_shobj == NULL || !gx_hold_room())
		return 0;
	if (!gx_shobj_callbacks)
	{
		RegisterResourceReleaseCallback(gx_shobj_owner_release, NULL);
		before_shmem_exit(gx_shobj_exit_cb, 0);
		gx_shobj_callbacks = true;
	}
	gen = gx_service_generation();
	LWLockAcquire(gx_shobj->lock, LW_EXCLUSIVE);
	for (int i = 0; i < GX_MAX_SHARED_OBJECTS && handle == 0; i++)
	{
		GxSharedObject *o = &gx_shobj->objs[i];

		if (o->state == GX_SHOBJ_FREE || o->state == GX_SHOBJ_DEAD ||
			o->key.dbid != key->dbid || o->key.relid != key->relid ||
			o->key.kind != key->kind || o->key.attnum != key->attnum)
			continue;
		if (o->key.filenode == key->filenode && o->key.version == key->version &&
			o->device != device)
			continue;			/* the same version on another device */
		if (o->key.filenode == key->filenode && o->key.version == key->version &&
			o->key.check == key->check && o->service_gen == gen)
		{
			if (o->state == GX_SHOBJ_READY)
			{
				o->holders++;
				o->uses++;
				o->last_use = GetCurrentTimestamp();
				handle = o->handle;
			}
			else
				newer = true;	/* being written by another backend */
		}
		else if (o->key.filenode == key->filenode && o->key.version > key->version)
			newer = true;		/* this call's copy is already old */
		else
			wake |= gx_shobj_kill(o);	/* an older version (or contents) */
	}
	if (handle == 0 && !newer && gx_shobj_make_room(device, bytes, &wake) &&
		(e = gx_shobj_free_slot(&wake)) != NULL)
	{
		e->generation = (e->generation + 1) & ((1u << (31 - GX_ID_INDEX_BITS)) - 1);
		if (e->generation == 0)
			e->generation = 1;
		e->handle = handle = GX_SHOBJ_BIT | (e->generation << GX_ID_INDEX_BITS) |
			(uint32) (e - gx_shobj->objs + 1);
		e->state = GX_SHOBJ_WRITING;
		e->writing = true;
		e->accounted = true;
		e->key = *key;
		e->device = device;
		e->bytes = bytes;
		e->addr = 0;
		e->service_gen = gen;
		e->writer_session = session;
		e->holders = 1;
		e->tasks = 0;
		e->uses = 1;
		e->last_use = GetCurrentTimestamp();
		pg_atomic_fetch_add_u64(&gx_engine->mem[device].shared, bytes);
		*write = true;
	}
	LWLockRelease(gx_shobj->lock);
	if (wake)
		gx_service_wake();
	if (handle != 0)
		gx_hold_remember(handle);
	return handle;
}

/* the writer has filled the entry: READY (unless it died meanwhile) */
void
gx_shobj_ready(uint32 handle)
{
	GxSharedObject *e;

	LWLockAcquire(gx_shobj->lock, LW_EXCLUSIVE);
	e = gx_shobj_lookup(handle);
	if (e != NULL && e->writing)
	{
		e->writing = false;
		if (e->state == GX_SHOBJ_WRITING)
			e->state = GX_SHOBJ_READY;
		gx_shobj->objects_written++;
		gx_shobj->bytes_written += e->bytes;
	}
	LWLockRelease(gx_shobj->lock);
}

/*
 * Let go of an entry held for a call (no-op for one the service forgot).
 * An entry its writer lets go of before it is ready is dead.
 */
void
gx_shobj_release(uint32 handle)
{
	GxSharedObject *e;
	bool		wake = false;

	gx_hold_forget(handle);
	if (gx_shobj == NULL)
		return;
	LWLockAcquire(gx_shobj->lock, LW_EXCLUSIVE);
	e = gx_shobj_lookup(handle);
	if (e != NULL && e->holders > 0)
	{
		e->holders--;
		if (e->writing)
		{
			e->writing = false;
			e->state = GX_SHOBJ_DEAD;
		}
		if (e->state == GX_SHOBJ_DEAD)
			wake = gx_shobj_kill(e);
	}
	LWLockRelease(gx_shobj->lock);
	if (wake)
		gx_service_wake();
}

/* a call wrote a session copy of 'bytes' instead of using a shared object */
void
gx_shobj_count_session_copy(uint64 bytes)
{
	LWLockAcquire(gx_shobj->lock, LW_EXCLUSIVE);
	gx_shobj->session_copies++;
	gx_shobj->session_copy_bytes += bytes;
	LWLockRelease(gx_shobj->lock);
}

/*
 * Copy the live entries of 'kind' in database dbid (at most max) into out;
 * returns how many (for the views of their owners: gpuext_cache_projections)
 */
int
gx_shobj_list(int kind, Oid dbid, GxSharedInfo *out, int max)
{
	int			n = 0;

	if (gx_shobj == NULL)
		return 0;
	LWLockAcquire(gx_shobj->lock, LW_SHARED);
	for (int i = 0; i < GX_MAX_SHARED_OBJECTS && n < max; i++)
	{
		const GxSharedObject *e = &gx_shobj->objs[i];

		if (e->state == GX_SHOBJ_FREE || e->state == GX_SHOBJ_DEAD ||
			e->key.kind != kind || e->key.dbid != dbid)
			continue;
		out[n].key = e->key;
		out[n].device = e->device;
		out[n].bytes = e->bytes;
		out[n].state = e->state;
		out[n].uses = e->uses;
		n++;
	}
	LWLockRelease(gx_shobj->lock);
	return n;
}

/*
 * The entries of 'kind' of relation relid are dead (freed once unpinned):
 * what they were made of is gone (gpuext_cache_evict of a table)
 */
void
gx_shobj_drop_rel(int kind, Oid dbid, Oid relid)
{
	bool		wake = false;

	if (gx_shobj == NULL)
		return;
	LWLockAcquire(gx_shobj->lock, LW_EXCLUSIVE);
	for (int i = 0; i < GX_MAX_SHARED_OBJECTS; i++)
	{
		GxSharedObject *e = &gx_shobj->objs[i];

		if (e->state != GX_SHOBJ_FREE && e->state != GX_SHOBJ_DEAD && e->key.kind == kind &&
			e->key.dbid == dbid && e->key.relid == relid)
			wake |= gx_shobj_kill(e);	/* (a writer still fills it for its call) */
	}
	LWLockRelease(gx_shobj->lock);
	if (wake)
		gx_service_wake();
}

/* ---------------------------------------------------------------------- */
/* service side                                                           */
/* ---------------------------------------------------------------------- */

/* the service's per-slot pins, at its start */
void
gx_shobj_service_init(int nslots)
{
	gx_shobj_pins = (int (*)[GX_TASK_MAX_OBJS])
		MemoryContextAllocZero(TopMemoryContext, sizeof(*gx_shobj_pins) * nslots);
}

/* free the memory of e and the entry (service, lock held) */
static void
gx_shobj_free(GxSharedObject *e)
{
	if (e->addr != 0)
		gx_device_free(e->device, (void *) (uintptr_t) e->addr);
	if (e->accounted)
		pg_atomic_fetch_sub_u64(&gx_engine->mem[e->device].shared, e->bytes);
	e->handle = 0;
	e->addr = 0;
	e->accounted = false;
	e->state = GX_SHOBJ_FREE;
}

/* free every unused DEAD entry, and with 'ready' every unused READY one too */
static void
gx_shobj_free_unused(bool ready, int device)
{
	for (int i = 0; i < GX_MAX_SHARED_OBJECTS; i++)
	{
		GxSharedObject *e = &gx_shobj->objs[i];

		if (!gx_shobj_unused(e) || (device >= 0 && e->device != device))
			continue;
		if (e->state == GX_SHOBJ_DEAD)
			gx_shobj_free(e);
		else if (ready && e->state == GX_SHOBJ_READY)
		{
			gx_shobj_free(e);
			gx_shobj->evictions++;
		}
	}
}

/*
 * May task c name a shared object as its obj[k]?  Only where its kind
 * reads it and never writes it: a prefix-tree image or a sorted
 * projection searched (TREE_LOOKUP, SEARCH, and an INNER range probe
 * without a group table or a merge scratch: it writes nothing into its
 * table), a program's big sets (FILTER, CACHE_SCAN obj[GX_TASK_OBJ_SETS]);
 * the writer's tasks are checked apart (gx_shobj_writes).  A kind added
 * here must not write the object.
 */
static bool
gx_shobj_read_only(const gx_chunk *c, int k)
{
	switch (c->kind)
	{
		case GX_TASK_TREE_LOOKUP:
		case GX_TASK_SEARCH:
			return k == 0;
		case GX_TASK_JOIN_PROBE:
			return k == 0 && c->ext.join.alg == GX_JOIN_RANGE &&
				c->ext.join.mode == GX_JOIN_INNER && c->ext.ngroup_cap == 0 &&
				c->ext.join.nlevels <= 1 && c->ext.join.ncols == 0 &&
				(c->ext.join.jflags & GX_JOIN_MSCRATCH) == 0;
		case GX_TASK_FILTER:
		case GX_TASK_CACHE_SCAN:
			return k == GX_TASK_OBJ_SETS;
		default:
			return false;
	}
}

/*
 * Does task c fill a shared object it names as obj[k] (while its writer
 * writes it)?  OBJ_WRITE (a ptree image's bytes), or a sorted
 * projection's JOIN_BUILD / JOIN_FINISH_BUILD as obj[0] (a range join's
 * table)
 */
static bool
gx_shobj_writes(const gx_chunk *c, int k)
{
	return c->kind == GX_TASK_OBJ_WRITE ||
		((c->kind == GX_TASK_JOIN_BUILD || c->kind == GX_TASK_JOIN_FINISH_BUILD) && k == 0 &&
		 c->ext.join.alg == GX_JOIN_RANGE && c->ext.join.ncols == 0);
}

/*
 * Service: resolve a shared object a task names as its obj[k]: it exists,
 * is of this service and of the task's device; an OBJ_WRITE task must be
 * its writer's (its session) while it is being written (as may a sorted
 * projection's build tasks: gx_shobj_writes), a task that only reads it
 * there (gx_shobj_read_only) may name it once written.  Its memory is taken from the pool at its
 * first write (after freeing dead entries; when the pool has none, after
 * freeing every unused entry).  Pinned for slot's task until
 * gx_shobj_unpin_slot.  Returns NULL, or an error message for the task
 * (*oom: memory was the reason).
 */
const char *
gx_shobj_resolve(uint32 handle, const gx_chunk *c, int device, int slot, int k,
				 char **addr, uint64 *bytes, char *err, size_t errlen, bool *oom)
{
	const char *msg = NULL;
	GxSharedObject *e;
	const uint32 session = c->session;
	const bool	writes = gx_shobj_writes(c, k);

	*oom = false;
	LWLockAcquire(gx_shobj->lock, LW_EXCLUSIVE);
	e = gx_shobj_lookup(handle);
	if (e == NULL)
		msg = "the task names a shared object that does not exist";
	else if (!gx_device_reaches(device, e->device))
		msg = "the task names a shared object of a device it cannot reach";
	else if (e->service_gen != gx_shared->generation)
		msg = "the task names a shared object of an earlier service";
	else if (writes ? !(e->writing && e->writer_session == session && session != 0)
			 : e->writing)
		msg = writes ? "the task writes a shared object it is not the writer of"
			: "the task names a shared object that is not ready";
	else if (!writes && !gx_shobj_read_only(c, k))
		msg = "the task's kind may not name a shared object there (it is read-only)";
	else if (e->addr == 0 && !e->writing)
		msg = "the task names a shared object that holds no memory";
	if (msg == NULL && e->addr == 0)
	{
		void	   *p = NULL;
		gx_status	st;

		gx_shobj_free_unused(false, e->device);
		st = gx_device_alloc(e->device, e->bytes, &p, err, errlen);
		if (st == GX_NO_MEMORY)
		{
			gx_shobj_free_unused(true, e->device);
			st = gx_device_alloc(e->device, e->bytes, &p, err, errlen);
		}
		if (st != GX_OK)
		{
			*oom = (st == GX_NO_MEMORY);
			msg = err;
		}
		else
			e->addr = (uint64) (uintptr_t) p;
	}
	if (msg == NULL)
	{
		e->tasks++;
		gx_shobj_pins[slot][k] = (int) (e - gx_shobj->objs) + 1;
		*addr = (char *) (uintptr_t) e->addr;
		*bytes = e->bytes;
	}
	LWLockRelease(gx_shobj->lock);
	return msg;
}

/* Service: slot's task is done (or failed): unpin what it named */
void
gx_shobj_unpin_slot(int slot)
{
	bool		any = false;

	if (gx_shobj_pins == NULL)
		return;
	for (int k = 0; k < GX_TASK_MAX_OBJS; k++)
		any |= gx_shobj_pins[slot][k] != 0;
	if (!any)
		return;
	LWLockAcquire(gx_shobj->lock, LW_EXCLUSIVE);
	for (int k = 0; k < GX_TASK_MAX_OBJS; k++)
	{
		int			idx = gx_shobj_pins[slot][k] - 1;

		gx_shobj_pins[slot][k] = 0;
		if (idx < 0)
			continue;
		if (--gx_shobj->objs[idx].tasks == 0 && gx_shobj->objs[idx].state == GX_SHOBJ_DEAD &&
			gx_shobj->objs[idx].holders == 0)
			gx_shobj_free(&gx_shobj->objs[idx]);
	}
	LWLockRelease(gx_shobj->lock);
}

/* Service: free the dead entries nobody holds or pins (when one may be) */
void
gx_shobj_reclaim(void)
{
	if (gx_shobj == NULL || pg_atomic_exchange_u32(&gx_shobj->reclaim, 0) == 0)
		return;
	LWLockAcquire(gx_shobj->lock, LW_EXCLUSIVE);
	gx_shobj_free_unused(false, -1);
	LWLockRelease(gx_shobj->lock);
}

/*
 * Service start: the entries died with the previous service; forget them
 * (their holders' releases find nothing), the accounting starts again
 */
void
gx_shobj_service_reset(void)
{
	LWLockAcquire(gx_shobj->lock, LW_EXCLUSIVE);
	for (int i = 0; i < GX_MAX_SHARED_OBJECTS; i++)
	{
		GxSharedObject *e = &gx_shobj->objs[i];
		uint32		generation = e->generation;

		memset(e, 0, sizeof(*e));
		e->generation = generation;
	}
	for (int d = 0; d < GX_MAX_DEVICES; d++)
		pg_atomic_write_u64(&gx_engine->mem[d].shared, 0);
	pg_atomic_write_u32(&gx_shobj->reclaim, 0);
	LWLockRelease(gx_shobj->lock);
}

/* ---------------------------------------------------------------------- */
/* views                                                                  */
/* ---------------------------------------------------------------------- */

/* ERROR unless the library was preloaded */
static void
gx_shobj_require(void)
{
	if (gx_shobj == NULL || gx_engine == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("gpuext must be loaded via shared_preload_libraries")));
}

/*
 * SQL: gpuext_shared_objects() -> one row per shared object: database,
 * relation, relfilenode, kind, version, device, bytes, state, pins
 * (backends holding it for a call + tasks in flight), uses, last use
 */
Datum
gpuext_shared_objects(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	static const char *const states[] = {"free", "writing", "ready", "dead"};
	GxSharedObject *copy;
	int			n = 0;

	InitMaterializedSRF(fcinfo, 0);
	gx_shobj_require();
	copy = (GxSharedObject *) palloc(sizeof(GxSharedObject) * GX_MAX_SHARED_OBJECTS);
	LWLockAcquire(gx_shobj->lock, LW_SHARED);
	for (int i = 0; i < GX_MAX_SHARED_OBJECTS; i++)
		if (gx_shobj->objs[i].state != GX_SHOBJ_FREE)
			copy[n++] = gx_shobj->objs[i];
	LWLockRelease(gx_shobj->lock);
	for (int i = 0; i < n; i++)
	{
		Datum		values[11];
		bool		nulls[11];

		memset(nulls, 0, sizeof(nulls));
		values[0] = ObjectIdGetDatum(copy[i].key.dbid);
		values[1] = ObjectIdGetDatum(copy[i].key.relid);
		values[2] = ObjectIdGetDatum(copy[i].key.filenode);
		values[3] = CStringGetTextDatum(copy[i].key.kind == GX_SHOBJ_PTREE_IMAGE ? "ptree image" :
										copy[i].key.kind == GX_SHOBJ_SORTED_PROJ ? "sorted projection" : "?");
		values[4] = Int64GetDatum((int64) copy[i].key.version);
		values[5] = CStringGetTextDatum(gx_device_name(copy[i].device));
		values[6] = Int64GetDatum((int64) copy[i].bytes);
		values[7] = CStringGetTextDatum(states[copy[i].state & 3]);
		values[8] = Int32GetDatum(copy[i].holders + copy[i].tasks);
		values[9] = Int64GetDatum((int64) copy[i].uses);
		values[10] = TimestampTzGetDatum(copy[i].last_use);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * SQL: gpuext_shared_object_stats() -> one row since server start: shared
 * objects written and their bytes, calls that wrote a session copy
 * instead and their bytes, evictions
 */
Datum
gpuext_shared_object_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Datum		values[5];
	bool		nulls[5];

	InitMaterializedSRF(fcinfo, 0);
	gx_shobj_require();
	memset(nulls, 0, sizeof(nulls));
	LWLockAcquire(gx_shobj->lock, LW_SHARED);
	values[0] = Int64GetDatum((int64) gx_shobj->objects_written);
	values[1] = Int64GetDatum((int64) gx_shobj->bytes_written);
	values[2] = Int64GetDatum((int64) gx_shobj->session_copies);
	values[3] = Int64GetDatum((int64) gx_shobj->session_copy_bytes);
	values[4] = Int64GetDatum((int64) gx_shobj->evictions);
	LWLockRelease(gx_shobj->lock);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	return (Datum) 0;
}
