/*
 * gpuext.h - the base header of the PostgreSQL side of gpuext: postgres.h
 * (inside extern "C") and the configuration parameters.  Each concern has
 * its own header beside this one (engine.h, cache.h, compiler.h,
 * planner.h, executor.h); a file includes the ones it uses.
 *
 * Include this first in every src/ file: it includes postgres.h (inside
 * extern "C") before anything else.  Code in src/ is C++17 but written in
 * PostgreSQL's C style: no object with a destructor lives across a call
 * that may ereport(), and every extern "C" entry point that could see a
 * C++ exception catches it (GX_TRY/GX_CATCH) and turns it into an ERROR.
 */
#ifndef GPUEXT_H
#define GPUEXT_H

extern "C"
{
#include "postgres.h"

#include "access/relscan.h"
#include "access/tableam.h"
#include "executor/executor.h"
#include "nodes/extensible.h"
#include "nodes/pathnodes.h"
#include "access/xlogdefs.h"
#include "port/atomics.h"
#include "storage/condition_variable.h"
#include "storage/lwlock.h"
#include "storage/latch.h"
#include "storage/spin.h"
}

#include "gx_api.h"
#include "gx_program.h"

/* ---- GUCs (guc.cpp) ---- */
typedef enum GxDeviceChoice
{
	GX_DEVICE_AUTO,
	GX_DEVICE_GPU,
	GX_DEVICE_CPU
} GxDeviceChoice;

typedef enum GxTransfer
{
	GX_TRANSFER_COPY,			/* chunk copied to GPU memory, result back */
	GX_TRANSFER_MAPPED			/* kernels work on the mapped staging slot */
} GxTransfer;

extern bool gx_enabled;
extern int	gx_device_choice;
extern char *gx_devices;		/* gpuext.devices: names, '' = every device */
extern int	gx_cpu_devices;
extern bool gx_force;
extern bool gx_enable_scan;
extern bool gx_device_deform;
extern int	gx_transfer;
extern int	gx_search;		/* gx_search_alg: GX_SEARCH_BINARY or PARY */
extern int	gx_search_top_keys;
extern bool gx_jit;
extern bool gx_jit_wait;
extern double gx_gpu_setup_cost;
extern double gx_gpu_operator_cost;
extern double gx_gpu_tuple_cost;
extern int	gx_chunk_rows;
extern int	gx_staging_size_mb;
extern int	gx_cpu_threads;
extern int	gx_cache_size_mb;
extern int	gx_cache_entry_rows;
extern bool gx_cache_refresh;
extern int	gx_cache_policy;
extern int	gx_cache_admit_scans;
extern int	gx_cache_admit_pages;

/* gpuext.cache_policy */
typedef enum GxCachePolicy
{
	GX_CACHE_POLICY_MANUAL = 0,
	GX_CACHE_POLICY_AUTO
} GxCachePolicy;
extern bool gx_use_cache;
extern int	gx_device_memory_mb;
extern int	gx_session_memory_kb;
extern int	gx_shared_object_memory_mb;
extern bool gx_enable_preagg;
extern bool gx_enable_final;
extern bool gx_enable_join_levels;	/* gpuext.enable_join_levels */
extern bool gx_join_levels_right;	/* gpuext.join_levels_right */
extern int	gx_preagg_memory_mb;
extern int	gx_debug_fault;
extern int	gx_debug_fault_skip;

void		gx_define_gucs(void);

#endif							/* GPUEXT_H */
