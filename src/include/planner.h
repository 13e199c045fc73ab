/*
 * planner.h - planner hooks: GpuScan paths, device aggregate paths and
 * GpuJoin paths.
 */
#ifndef GX_PLANNER_H
#define GX_PLANNER_H

#include "gpuext.h"
#include "compiler.h"

/* ---- planner (planner.cpp, aggpath.cpp) ---- */
void		gx_planner_init(void);
int			gx_split_quals(List *rinfos, Index relid, List **device, List **host,
						   List **device_rinfos, GxProgram **prog_out);
GxProgram  *gx_path_program(CustomPath *path, List *clauses, Index relid,
							List **device, List **host);
CustomScan *gx_make_cscan(RelOptInfo *rel, CustomPath *best_path, List *tlist,
						  const char *mode, List *device, List *host, GxProgram *prog,
						  List *scan_tlist);
bool		gx_is_device_scan_path(Path *path, bool parallel);
bool		gx_scan_path_may_host(Path *path);
bool		gx_unfiltered_scan_paths(PlannerInfo *root, RelOptInfo *rel, Path **serial,
									 Path **partial);
bool		gx_extension_present(void);
double		gx_parallel_divisor(Path *path);
bool		gx_scan_rel_eligible(RelOptInfo *rel, RangeTblEntry *rte);
CustomPath *gx_serial_custom_path(RelOptInfo *rel, PathTarget *target, double rows);
void		gx_aggpath_init(void);
/* GpuJoin paths (join_path.cpp) */
void		gx_joinpath_init(void);
Path	   *gx_join_count_path(RelOptInfo *rel, Path *path, PathTarget *partial);
extern bool gx_enable_gpujoin;
extern bool gx_enable_hashjoin;
extern bool gx_enable_mergejoin;
extern bool gx_enable_nestloop;
extern bool gx_enable_parallel_join;
extern bool gx_join_partitions;
extern bool gx_enable_agg;
extern CustomScanMethods gx_scan_plan_methods;

#endif							/* GX_PLANNER_H */
