/*
 * devices.cpp - gpuext_devices(): the devices the gpuext service found;
 * gpuext_service_restart(): stop the service (the postmaster starts a
 * fresh one), for administrators and the tests of what queries in flight
 * see then.
 */
#include "gpuext.h"
#include "engine.h"

extern "C"
{
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "miscadmin.h"
#include <signal.h>

PGDLLEXPORT Datum gpuext_devices(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum gpuext_service_restart(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_devices);
PG_FUNCTION_INFO_V1(gpuext_service_restart);
}

/* one row per device: the GPU (if usable) and the CPU device */
Datum
gpuext_devices(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Datum		values[6];
	bool		nulls[6];
	char		buf[64];

	InitMaterializedSRF(fcinfo, 0);
	if (gx_shared == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("gpuext must be loaded via shared_preload_libraries")));
	(void) gx_service_generation();

	if (gx_shared->gpu_state == 1)
	{
		gx_gpu_info *g = &gx_shared->gpu;

		memset(nulls, 0, sizeof(nulls));
		values[0] = Int32GetDatum(0);
		values[1] = CStringGetTextDatum("gpu");
		values[2] = CStringGetTextDatum(g->name);
		values[3] = Int64GetDatum((int64) (g->total_mem >> 20));
		snprintf(buf, sizeof(buf), "%d.%d", g->cc_major, g->cc_minor);
		values[4] = CStringGetTextDatum(buf);
		values[5] = Int32GetDatum(g->sm_count);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	memset(nulls, 0, sizeof(nulls));
	values[0] = Int32GetDatum(gx_shared->gpu_state == 1 ? 1 : 0);
	values[1] = CStringGetTextDatum("cpu");
	snprintf(buf, sizeof(buf), "CPU device (%d threads)", gx_shared->cpu_threads);
	values[2] = CStringGetTextDatum(buf);
	nulls[3] = true;
	nulls[4] = true;
	values[5] = Int32GetDatum(gx_shared->cpu_threads);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	return (Datum) 0;
}

/*
 * SQL: gpuext_service_restart() -> true when the service was signalled.
 * Sends it SIGTERM: it exits (FATAL, exit code 1: no crash), and the
 * backends whose tasks were in flight get a clean ERROR; the postmaster
 * starts a fresh service a second later.  Superuser only.
 */
Datum
gpuext_service_restart(PG_FUNCTION_ARGS)
{
	int			pid;

	if (gx_shared == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("gpuext must be loaded via shared_preload_libraries")));
	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be superuser to restart the gpuext service")));
	SpinLockAcquire(&gx_shared->mutex);
	pid = gx_shared->service_pid;
	SpinLockRelease(&gx_shared->mutex);
	if (pid == 0)
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(kill(pid, SIGTERM) == 0);
}
