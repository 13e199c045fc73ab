/*
 * gpuext.cpp - module entry point: GUCs, shared memory, the service
 * background worker and the planner hook are installed only when gpuext is
 * loaded through shared_preload_libraries.  gpuext_check_preload() lets
 * CREATE EXTENSION fail with a hint otherwise.
 */
#include "gpuext.h"
#include "engine.h"
#include "planner.h"

extern "C"
{
#include "fmgr.h"
#include "miscadmin.h"

PG_MODULE_MAGIC;

void		_PG_init(void);
PGDLLEXPORT Datum gpuext_check_preload(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_check_preload);
}

static bool gx_preloaded = false;

/* module load: install everything when preloaded, nothing otherwise */
void
_PG_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	gx_define_gucs();
	gx_shmem_init_hooks();
	gx_register_service();
	gx_planner_init();
	gx_preloaded = true;
}

/* called by the install script: gpuext only works when preloaded */
Datum
gpuext_check_preload(PG_FUNCTION_ARGS)
{
	if (!gx_preloaded)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("gpuext must be loaded via shared_preload_libraries"),
				 errhint("Add gpuext to shared_preload_libraries in postgresql.conf and restart the server.")));
	PG_RETURN_VOID();
}
