/*
 * views.cpp - what the engine shows: gpuext_sessions() (the sessions open
 * now, their objects and device memory) and gpuext_memory() (device memory
 * in use per device and owner: staging buffers, the cache, sessions,
 * shared objects; shared_objects.cpp lists those).
 */
#include "gpuext.h"
#include "engine.h"

extern "C"
{
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

PGDLLEXPORT Datum gpuext_sessions(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum gpuext_memory(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_sessions);
PG_FUNCTION_INFO_V1(gpuext_memory);
}

static void
gx_views_require(void)
{
	if (gx_engine == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("gpuext must be loaded via shared_preload_libraries")));
}

/*
 * SQL: gpuext_sessions() -> one row per open or closing session: id,
 * backend pid, device, state, objects, bytes, opened.
 */
Datum
gpuext_sessions(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxSession  *copy;
	int			n = 0;

	InitMaterializedSRF(fcinfo, 0);
	gx_views_require();
	copy = (GxSession *) palloc(sizeof(GxSession) * GX_MAX_SESSIONS);
	LWLockAcquire(gx_engine->lock, LW_SHARED);
	for (int i = 0; i < GX_MAX_SESSIONS; i++)
		if (gx_engine->sessions[i].state != GX_SESSION_FREE)
			copy[n++] = gx_engine->sessions[i];
	LWLockRelease(gx_engine->lock);

	for (int i = 0; i < n; i++)
	{
		Datum		values[7];
		bool		nulls[7];

		memset(nulls, 0, sizeof(nulls));
		values[0] = Int64GetDatum((int64) copy[i].id);
		values[1] = Int32GetDatum(copy[i].owner_pid);
		values[2] = CStringGetTextDatum(gx_device_mask_names(copy[i].devices,
																	  copy[i].device));
		values[3] = CStringGetTextDatum(copy[i].state == GX_SESSION_OPEN ? "open" : "closing");
		values[4] = Int32GetDatum(copy[i].nobjects);
		values[5] = Int64GetDatum((int64) copy[i].bytes);
		values[6] = TimestampTzGetDatum(copy[i].opened);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * SQL: gpuext_memory() -> per device and owner (staging, cache, sessions,
 * shared objects)
 * the bytes in use, and the device's limit (gpuext.device_memory; NULL
 * when the device's own size is the limit).
 */
Datum
gpuext_memory(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	static const char *const owners[] = {"staging", "cache", "sessions", "shared"};

	InitMaterializedSRF(fcinfo, 0);
	gx_views_require();
	for (int d = 0; d < gx_shared->ndevices; d++)
	{
		GxMemory   *m = &gx_engine->mem[d];
		uint64		used[4];

		used[0] = pg_atomic_read_u64(&m->staging);
		used[1] = pg_atomic_read_u64(&m->cache);
		used[2] = pg_atomic_read_u64(&m->sessions);
		used[3] = pg_atomic_read_u64(&m->shared);
		for (int k = 0; k < 4; k++)
		{
			Datum		values[4];
			bool		nulls[4];

			memset(nulls, 0, sizeof(nulls));
			values[0] = CStringGetTextDatum(gx_device_name(d));
			values[1] = CStringGetTextDatum(owners[k]);
			values[2] = Int64GetDatum((int64) used[k]);
			if (gx_device_memory_mb > 0)
				values[3] = Int64GetDatum((int64) gx_device_memory_mb * 1024 * 1024);
			else
				nulls[3] = true;
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
	}
	return (Datum) 0;
}
