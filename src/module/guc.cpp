/*
 * guc.cpp - gpuext's configuration parameters, all under "gpuext.".
 */
#include "gpuext.h"
#include "engine.h"
#include "planner.h"

extern "C"
{
#include "utils/guc.h"
#include "utils/varlena.h"
}
#include <cfloat>
extern "C"
{
}

bool		gx_enabled = true;
int			gx_device_choice = GX_DEVICE_AUTO;
char	   *gx_devices = NULL;
int			gx_cpu_devices = 1;
bool		gx_force = false;
bool		gx_enable_scan = true;
bool		gx_device_deform = true;
int			gx_transfer = GX_TRANSFER_COPY;
int			gx_search = GX_SEARCH_BINARY;
int			gx_search_top_keys = 4096;
bool		gx_jit = true;
bool		gx_jit_wait = false;
double		gx_gpu_setup_cost = 1000.0;
double		gx_gpu_operator_cost = 0.00005;
double		gx_gpu_tuple_cost = 0.002;
int			gx_chunk_rows = 65536;
int			gx_staging_size_mb = 256;
int			gx_cpu_threads = 0;
int			gx_cache_size_mb = 1024;
int			gx_cache_entry_rows = 0;
bool		gx_cache_refresh = true;
int			gx_cache_policy = GX_CACHE_POLICY_MANUAL;
int			gx_cache_admit_scans = 20;
int			gx_cache_admit_pages = 1024;
bool		gx_use_cache = true;
bool		gx_enable_agg = true;
bool		gx_enable_preagg = true;
bool		gx_enable_final = true;
bool		gx_enable_gpujoin = true;
bool		gx_enable_hashjoin = true;
bool		gx_enable_mergejoin = true;
bool		gx_enable_join_inputs = true;
bool		gx_join_gather = true;
bool		gx_enable_join_levels = true;
bool		gx_join_levels_right = false;
bool		gx_enable_nestloop = true;
bool		gx_enable_parallel_join = true;
bool		gx_join_partitions = true;
int			gx_join_replicas = GX_JOIN_REPLICAS_AUTO;
int			gx_join_device_parts = GX_JOIN_DEVICE_PARTS_OFF;
int			gx_preagg_memory_mb = 16384;
int			gx_device_memory_mb = 0;
int			gx_session_memory_kb = 0;
int			gx_shared_object_memory_mb = 8192;
int			gx_debug_fault = GX_FAULT_NONE;
int			gx_debug_fault_skip = 0;

/*
 * the fault armed by the last SET gpuext.debug_fault, taken by the task
 * submitted after gx_fault_skip_left more
 */
static uint32 gx_fault_armed = GX_FAULT_NONE;
static int	gx_fault_skip_left = 0;

static const struct config_enum_entry gx_fault_options[] = {
	{"none", GX_FAULT_NONE, false},
	{"task_error", GX_FAULT_TASK_ERROR, false},
	{"service_exit", GX_FAULT_SERVICE_EXIT, false},
	{"device_error", GX_FAULT_DEVICE_ERROR, false},
	{NULL, 0, false}
};

/*
 * assign hook of gpuext.debug_fault: arm the fault for the task after the
 * next gpuext.debug_fault_skip ones
 */
static void
gx_assign_fault(int newval, void *extra)
{
	gx_fault_armed = (uint32) newval;
	gx_fault_skip_left = gx_debug_fault_skip;
}

/* the fault for the task being submitted (once: later ones get none) */
uint32
gx_take_fault(void)
{
	uint32		f = gx_fault_armed;

	if (f != GX_FAULT_NONE && gx_fault_skip_left > 0)
	{
		gx_fault_skip_left--;
		return GX_FAULT_NONE;
	}
	gx_fault_armed = GX_FAULT_NONE;
	return f;
}

static const struct config_enum_entry gx_device_options[] = {
	{"auto", GX_DEVICE_AUTO, false},
	{"gpu", GX_DEVICE_GPU, false},
	{"cpu", GX_DEVICE_CPU, false},
	{NULL, 0, false}
};

static const struct config_enum_entry gx_cache_policy_options[] = {
	{"manual", GX_CACHE_POLICY_MANUAL, false},
	{"auto", GX_CACHE_POLICY_AUTO, false},
	{NULL, 0, false}
};

static const struct config_enum_entry gx_search_options[] = {
	{"binary", GX_SEARCH_BINARY, false},
	{"pary", GX_SEARCH_PARY, false},
	{NULL, 0, false}
};

static const struct config_enum_entry gx_join_replicas_options[] = {
	{"auto", GX_JOIN_REPLICAS_AUTO, false},
	{"on", GX_JOIN_REPLICAS_ON, false},
	{"off", GX_JOIN_REPLICAS_OFF, false},
	{NULL, 0, false}
};

static const struct config_enum_entry gx_join_device_parts_options[] = {
	{"auto", GX_JOIN_DEVICE_PARTS_AUTO, false},
	{"on", GX_JOIN_DEVICE_PARTS_ON, false},
	{"off", GX_JOIN_DEVICE_PARTS_OFF, false},
	{NULL, 0, false}
};

static const struct config_enum_entry gx_transfer_options[] = {
	{"copy", GX_TRANSFER_COPY, false},
	{"mapped", GX_TRANSFER_MAPPED, false},
	{NULL, 0, false}
};

/*
 * check hook of gpuext.devices: a comma-separated list of device names
 * (gpu, gpuN, cpu, cpuN); whether the service has them is known only when
 * a plan node starts (gx_resolve_devset)
 */
static bool
gx_check_devices(char **newval, void **extra, GucSource source)
{
	char	   *raw = pstrdup(*newval);
	List	   *names = NIL;
	ListCell   *lc;
	bool		ok = true;

	if (!SplitIdentifierString(raw, ',', &names))
	{
		GUC_check_errdetail("List syntax is invalid.");
		ok = false;
	}
	foreach(lc, names)
	{
		if (ok && gx_device_parse((const char *) lfirst(lc)) == GX_DEVNAME_BAD)
		{
			GUC_check_errdetail("\"%s\" is not a device name: gpu, gpuN, cpu or cpuN.",
								(const char *) lfirst(lc));
			ok = false;
		}
	}
	pfree(raw);
	list_free(names);
	return ok;
}

/* define every GUC; called from _PG_init */
void
gx_define_gucs(void)
{
	DefineCustomBoolVariable("gpuext.enabled",
							 "Enables gpuext plans.",
							 NULL, &gx_enabled, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpuext.device",
							 "Device that runs gpuext operators: auto, gpu or cpu.",
							 "auto uses the GPU when the service found one, else the CPU device.",
							 &gx_device_choice, GX_DEVICE_AUTO, gx_device_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomStringVariable("gpuext.devices",
							   "Devices gpuext operators may use: a comma-separated list of names.",
							   "Names as gpuext_devices() lists them: gpu0, gpu1, ..., cpu (and the "
							   "extra CPU devices of gpuext.cpu_devices: cpu1, ...); gpu means every "
							   "GPU.  Empty: every device of the kind gpuext.device picks.  With a "
							   "list and gpuext.device = auto, a plan node uses exactly the listed "
							   "devices that are there.",
							   &gx_devices, "",
							   PGC_USERSET, GUC_LIST_INPUT, gx_check_devices, NULL, NULL);
	DefineCustomIntVariable("gpuext.cpu_devices",
							"CPU devices the gpuext service runs (more than one: tests of the multi-device paths).",
							"The extra CPU devices (cpu1, ...) share the CPU device's threads and "
							"memory; plan nodes spread their work over them as over several GPUs.",
							&gx_cpu_devices, 1, 1, GX_MAX_CPU_DEVICES,
							PGC_POSTMASTER, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.force",
							 "Plans gpuext paths wherever they are eligible: a relation's other scan paths are dropped.",
							 "The gpuext paths keep their real costs, so the plan around them (rescans, "
							 "Materialize, join order, parallelism) is still chosen by cost.",
							 &gx_force, false,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.enable_scan",
							 "Enables GpuScan (filters on the device).",
							 NULL, &gx_enable_scan, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.device_deform",
							 "Sends heap pages to the device, which deforms them (else the backend deforms).",
							 NULL, &gx_device_deform, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpuext.transfer",
							 "How chunks reach the GPU: copy or mapped.",
							 "copy copies each chunk to GPU memory and the result back; "
							 "mapped lets the kernels read the chunk and write the result "
							 "in pinned host memory over PCIe (zero-copy).",
							 &gx_transfer, GX_TRANSFER_COPY, gx_transfer_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpuext.search",
							 "How a filter searches a big set (= ANY over a long array): binary or pary.",
							 "binary: a thread a row, the set's top keys in shared memory; pary: "
							 "the lanes of a warp search each row's key together (p-ary search).",
							 &gx_search, GX_SEARCH_BINARY, gx_search_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.search_top_keys",
							"Top keys of a big set a filter block keeps in shared memory (rounded down to a power of 2).",
							"At most an eighth of the set's values; 0 searches the whole set in device memory.",
							&gx_search_top_keys, 4096, 0, 8192,
							PGC_USERSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.jit",
							 "Runs filters with kernels compiled for their program (GPU).",
							 "The service compiles each new filter program with NVRTC in the "
							 "background; chunks run interpreted until its kernel is ready.",
							 &gx_jit, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.jit_wait",
							 "Compiles a filter program before its first chunk runs (tests).",
							 NULL, &gx_jit_wait, false,
							 PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomRealVariable("gpuext.gpu_setup_cost",
							 "Planner cost of starting a device operator.",
							 NULL, &gx_gpu_setup_cost, 1000.0, 0.0, DBL_MAX,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomRealVariable("gpuext.gpu_operator_cost",
							 "Planner cost of one opcode on one row on the device.",
							 NULL, &gx_gpu_operator_cost, 0.00005, 0.0, DBL_MAX,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomRealVariable("gpuext.gpu_tuple_cost",
							 "Planner cost of returning one row selected on the device.",
							 NULL, &gx_gpu_tuple_cost, 0.002, 0.0, DBL_MAX,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.chunk_rows",
							"Rows per chunk sent to the device.",
							"Capped by what fits in one staging slot.",
							&gx_chunk_rows, 65536, 1024, 1048576,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.staging_size",
							"Shared staging area between backends and the gpuext service.",
							"Split into 16 MB slots; pinned for the GPU by the service.",
							&gx_staging_size_mb, 256, 32, 1024 * 1024,
							PGC_POSTMASTER, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.cpu_threads",
							"Threads of the CPU device in the gpuext service (0 = all cores).",
							NULL, &gx_cpu_threads, 0, 0, 1024,
							PGC_POSTMASTER, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.cache_size",
							"Size of the device-resident column cache (0 turns it off).",
							"Taken on the device that runs filters when a table is first loaded "
							"with gpuext_cache_load(), 128 MB at a time; an entry takes the 1 MB "
							"granules its rows need.",
							&gx_cache_size_mb, 1024, 0, INT_MAX / 2,
							PGC_POSTMASTER, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.cache_refresh",
							 "Lets this session's scans start the background refresh of stale cache blocks.",
							 "A scan that finds blocks of a cache entry all-visible again after "
							 "they changed starts a worker that reloads them in place.",
							 &gx_cache_refresh, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpuext.cache_policy",
							 "Which tables enter the column cache: manual (gpuext_cache_load) or auto.",
							 "auto: the background worker also loads a table that GpuScans read "
							 "gpuext.cache_admit_scans times without the cache, into free cache "
							 "space only (it evicts nothing).",
							 &gx_cache_policy, GX_CACHE_POLICY_MANUAL, gx_cache_policy_options,
							 PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.cache_admit_scans",
							"GpuScans of an uncached table after which gpuext.cache_policy = auto loads it.",
							NULL, &gx_cache_admit_scans, 20, 1, INT_MAX,
							PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.cache_admit_pages",
							"The smallest table (in pages) that gpuext.cache_policy = auto loads.",
							NULL, &gx_cache_admit_pages, 1024, 1, INT_MAX,
							PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.cache_entry_rows",
							"The most rows a cache entry holds (0 = what fits 128 MB, up to 4M).",
							"Smaller entries make eviction finer and refreshes smaller, at a "
							"kernel launch per entry.",
							&gx_cache_entry_rows, 0, 0, 4 * 1024 * 1024,
							PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.enable_agg",
							 "Enables device aggregates: count and integer sums computed with the filter.",
							 NULL, &gx_enable_agg, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.enable_preagg",
							 "Enables GpuPreAgg: GROUP BY and aggregates computed on the device.",
							 "PostgreSQL finalises the partial states the device returns.",
							 &gx_enable_preagg, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.enable_preagg_final",
							 "Lets GpuPreAgg finalise GROUP BY results itself when every group is on the device once.",
							 "Serial plans; otherwise it runs the Finalize plan it shows below it.",
							 &gx_enable_final, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.enable_gpujoin",
							 "Enables GpuJoin: joins of two tables on the device.",
							 "Each algorithm has its own switch (gpuext.enable_hashjoin, gpuext.enable_mergejoin, gpuext.enable_nestloop).",
							 &gx_enable_gpujoin, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.enable_join_levels",
							 "Lets an aggregating GpuJoin absorb the GpuJoin below it: one multi-level group probe over the lower join's outer table.",
							 "Else the lower GpuJoin returns its rows to the one above.",
							 &gx_enable_join_levels, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.join_levels_right",
							 "Lets the multi-level form also take the right-deep shape (a table joined to a GpuJoin).",
							 "Its first level is built from the rows of the inner join's outer side, all of "
							 "them, where the row-passing plan reads that side on the device and returns only "
							 "the inner join's rows: on the H100, TPC-H Q3 at SF 3 took 881 ms with it, 508 "
							 "ms without.",
							 &gx_join_levels_right, false,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.enable_hashjoin",
							 "Enables GpuJoin's hash join (inner, semi and anti equi-joins).",
							 NULL, &gx_enable_hashjoin, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.enable_mergejoin",
							 "Enables GpuJoin's sort-merge join (equi-joins: both sides sorted on the device, then merged).",
							 NULL, &gx_enable_mergejoin, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.enable_nestloop",
							 "Enables GpuJoin's non-equi algorithm (inner, semi and anti band and inequality joins, run as a sorted range join).",
							 NULL, &gx_enable_nestloop, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.enable_parallel_join",
							 "Enables parallel GpuJoin: the inner side built once by the leader, probed by every process of a parallel query.",
							 "Inner, left, semi and anti joins; Gather above them is chosen by cost, as for any partial path.",
							 &gx_enable_parallel_join, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.join_partitions",
							 "Lets a GpuJoin whose table does not fit in device memory run a pass per partition of its inner side.",
							 "Off: such a join runs its fallback plan, PostgreSQL's join of the same sides.",
							 &gx_join_partitions, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpuext.join_replicas",
							 "When a GpuJoin on several devices copies its table to the others, whose probes then run where their rows lie: auto, on or off.",
							 "auto: when a device's share of the probes takes longer than a copy (a hash count of two "
							 "equal sides stays on its home device, whose probes the copies would slow); "
							 "off: every probe on the home device. The rows are the same.",
							 &gx_join_replicas, GX_JOIN_REPLICAS_AUTO, gx_join_replicas_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpuext.join_device_parts",
							 "When a counting GpuJoin on several devices splits its hash table by key over them, each device building and probing its part: auto, on or off.",
							 "auto: when the inner side has a million planner rows or more; the join's "
							 "two sides must be read by the device (count(*) of inner, left, semi and anti "
							 "hash joins). The rows are the same. Off by default until measured on GPUs.",
							 &gx_join_device_parts, GX_JOIN_DEVICE_PARTS_OFF, gx_join_device_parts_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.join_device_inputs",
							 "Lets GpuJoin read a side's table itself, cached columns where they lie on the device.",
							 "Otherwise both sides are read by their child plans and handed to the device.",
							 &gx_enable_join_inputs, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.join_gather",
							 "Lets a GpuJoin that returns rows have the device gather the columns it returns, both sides read by the device.",
							 "Otherwise each joined row is read back from its table and from the inner rows the node keeps. The rows are the same.",
							 &gx_join_gather, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.preagg_memory",
							"Device memory one GpuPreAgg group table may take.",
							"Rows whose groups do not fit are aggregated by the host; gpuext.session_memory also applies.",
							&gx_preagg_memory_mb, 16384, 1, INT_MAX / 2,
							PGC_USERSET, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpuext.use_cache",
							 "Lets scans read cached columns instead of heap pages where the cache is valid.",
							 NULL, &gx_use_cache, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.device_memory",
							"Device memory the gpuext engine may use on each device (0 = all of it).",
							"Staging buffers, cache entries and session objects all count.",
							&gx_device_memory_mb, 0, 0, INT_MAX / 2,
							PGC_POSTMASTER, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.session_memory",
							"Device memory one gpuext session may hold in objects (0 = no limit of its own).",
							NULL, &gx_session_memory_kb, 0, 0, INT_MAX,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomIntVariable("gpuext.shared_object_memory",
							"Device memory the shared objects of each device may take (0 = none: session copies).",
							"Shared objects (a prefix-tree index's device image) are named by every session; "
							"least recently used ones are freed to make room, and a call whose object does "
							"not fit uses a copy of its own.",
							&gx_shared_object_memory_mb, 8192, 0, INT_MAX / 2,
							PGC_SUSET, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpuext.debug_fault",
							 "Injects a fault into the next task this session submits (tests).",
							 "task_error fails the task, service_exit stops the service while "
							 "the task runs, device_error fails every task in flight and "
							 "restarts the service.",
							 &gx_debug_fault, GX_FAULT_NONE, gx_fault_options,
							 PGC_SUSET, 0, NULL, gx_assign_fault, NULL);
	DefineCustomIntVariable("gpuext.debug_fault_skip",
							"Tasks that pass before the fault of gpuext.debug_fault hits (tests).",
							"Read when gpuext.debug_fault is set.",
							&gx_debug_fault_skip, 0, 0, 1000000,
							PGC_SUSET, 0, NULL, NULL, NULL);
	MarkGUCPrefixReserved("gpuext");
}
