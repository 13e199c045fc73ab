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
/* a float key type (float4, float8: compared as float8eq, gx_join_float_key) */
#define GX_JOIN_FLOAT(t) ((t) == GX_FLOAT4 || (t) == GX_FLOAT8)
void		gx_joinpath_init(void);
Path	   *gx_join_count_path(RelOptInfo *rel, Path *path, PathTarget *partial);
Path	   *gx_join_swapped_path(Path *path);
extern CustomPathMethods gx_join_path_methods;
Path	   *gx_join_group_path(PlannerInfo *root, RelOptInfo *rel, Path *path,
							   PathTarget *scanjoin, PathTarget *partial, double groups);
struct GxProgram *gx_join_side_prog(Plan *child, List *resnos, bool bounds, Index *relid);
AttrNumber	gx_child_resno(Plan *child, Expr *e);
/* a row-returning GpuJoin's gathered output (join_gather_path.cpp) */
List	   *gx_join_gather_plan(int mode, Plan *outer, Plan *inner, List *ores, List *ires,
								bool range, List *src);

/*
 * Aggregation over a GpuJoin (join_agg_path.cpp): the inner side's columns
 * that group keys and aggregate arguments read (plain Vars of the inner
 * relations), each an inner column of the join table
 */
typedef struct GxInnerCols
{
	Relids		relids;			/* the inner side's relations */
	List	   *vars;			/* column c: its Var */
	List	   *types;			/* ... its gx_type */
	List	   *scales;			/* ... its numeric scale */
	List	   *dicts;			/* ... 1: a string column's dictionary ids */
	/*
	 * string keys (join_dict.cpp): per target entry, where its dictionary
	 * is: 0 none, resno > 0 the outer rows' column, -(c + 1) inner column c;
	 * and the outer rows' columns that are dictionary ids
	 */
	List	   *entry_dicts;
	List	   *dict_resnos;
	int			max_cols;		/* columns at most; 0: GX_JOIN_MAX_COLS (a
								 * multi-level join's levels: more, each level
								 * GX_JOIN_MAX_COLS, join_levels_path.cpp) */
} GxInnerCols;

/* the inner columns inner may have */
static inline int
gx_inner_max(const GxInnerCols *inner)
{
	return inner->max_cols > 0 ? inner->max_cols : GX_JOIN_MAX_COLS;
}

#define GX_INNER_OUT(c) (10000 + (c))	/* an output entry naming inner column c */
/*
 * The relation a join's outer rows' program reads (join_agg_path.cpp):
 * Var(GX_ROWS_VARNO, resno) is column resno of the outer child's rows; no
 * range table index comes near it (PostgreSQL's special varnos are
 * negative from 16, or 65000 and up before)
 */
#define GX_ROWS_VARNO 1000000
#define GX_IS_INNER_OUT(o) ((o) >= 10000)

int			gx_inner_col(GxInnerCols *inner, Var *v, int *scale);
int			gx_dict_key(GxInnerCols *inner, Var *v, Index relid, Var **ids);
void		gx_join_group_paths(PlannerInfo *root, RelOptInfo *input_rel,
								RelOptInfo *output_rel, Node *having);
List	   *gx_join_group_plan(Plan *outer, Plan *inner, List *oresnos, List *iresnos,
							   bool bounds, List *tlist, Relids outer_relids,
							   Relids inner_relids, Node *groups, Node **outer_prog,
							   Node **inner_prog);
bool		gx_join_group_fits(List *exprs, RelOptInfo *outer, Relids inner_relids, bool rows,
							   int max_cols = 0);
List	   *gx_join_group_inner_prog(Plan *inner, List *iresnos, GxInnerCols *icols,
									 Node **inner_prog);
/* the multi-level form of an aggregating GpuJoin (join_levels_path.cpp) */
bool		gx_join_levels_ok(Path *w, PathTarget *partial);
Path	   *gx_join_levels_path(Path *g, Path *w);
bool		gx_join_levels_marked(List *priv);
bool		gx_join_levels_plan(CustomScan *cscan, Plan *outer, Plan *inner, Path *opath,
								Path *ipath, List *okeys, List *ikeys, List *tlist,
								Node *groups);
/* device aggregates (agg_path.cpp), shared with aggregation over a join */
PathTarget *gx_partial_target(PlannerInfo *root, PathTarget *target, Node *having,
							  Index relid, bool dict, bool *group);
bool		gx_dict_type(Oid typid);
Path	   *gx_add_final_paths(PlannerInfo *root, RelOptInfo *output_rel, Path *input,
							   PathTarget *target, List *having, struct AggClauseCosts *costs,
							   double groups);
bool		gx_group_outputs(struct GxProgram *prog, List *exprs, Index relid, List **outs,
							 List **scales, List **filts, List **dscales, List **sqs,
							 GxInnerCols *inner);
Path	   *gx_unproject(Path *path);
bool		gx_partial_count_star(PathTarget *partial);
List	   *gx_target_refs(PathTarget *target);
List	   *gx_refs_tlist(List *exprs, List *refs);
void		gx_plan_finalizing(CustomScan *cscan, List *tlist, List *having);
Path	   *gx_final_hashed(PlannerInfo *root, RelOptInfo *output_rel, Path *input,
							PathTarget *target, List *groupClause, List *having,
							struct AggClauseCosts *costs, double groups);
void		gx_final_costs(PlannerInfo *root, RelOptInfo *output_rel,
						   struct AggClauseCosts *costs);
extern bool gx_enable_gpujoin;
extern bool gx_enable_hashjoin;
extern bool gx_enable_mergejoin;
extern bool gx_enable_nestloop;
extern bool gx_enable_parallel_join;
extern bool gx_join_partitions;
/* gpuext.join_replicas: copy a GpuJoin's table to its other devices? */
typedef enum GxJoinReplicas
{
	GX_JOIN_REPLICAS_AUTO = 0,	/* when the copies pay (gx_join_copies_pay) */
	GX_JOIN_REPLICAS_ON,		/* whenever the join may spread */
	GX_JOIN_REPLICAS_OFF		/* never: its probes run on home */
} GxJoinReplicas;
extern int	gx_join_replicas;
/* gpuext.join_device_parts: partition a counting join's table over the devices? */
typedef enum GxJoinDeviceParts
{
	GX_JOIN_DEVICE_PARTS_AUTO = 0,	/* an inner side of 1M planner rows or more */
	GX_JOIN_DEVICE_PARTS_ON,	/* every join that can */
	GX_JOIN_DEVICE_PARTS_OFF	/* the default until the node is proven on GPUs */
} GxJoinDeviceParts;
extern int	gx_join_device_parts;
extern bool gx_enable_agg;
extern CustomScanMethods gx_scan_plan_methods;

#endif							/* GX_PLANNER_H */
