/*
 * devices.cpp - the engine's devices: the table the gpuext service fills
 * when it opens them, the device sets plan nodes resolve from gpuext.device
 * and gpuext.devices and spread their tasks over, the devices' memory, and
 * gpuext_devices() / gpuext_service_restart().
 *
 * Design note
 * -----------
 * The service numbers the devices when it starts (engine.h, GxDevice): 0
 * is the CPU device, 1 .. n the GPUs it opened (every GPU the driver shows,
 * CUDA_VISIBLE_DEVICES applies), then the extra CPU devices of
 * gpuext.cpu_devices.  Each GPU has its own memory pool, streams and share
 * of the column cache (gx_gpu_device.cu, cache/directory.cpp).  Between
 * GPUs the service enables peer access where the hardware allows it (NVLink
 * or PCIe peer to peer): a device's 'peers' mask says whose memory its
 * tasks may name.  CPU devices all share the service's memory, so they are
 * peers of each other; a CPU device and a GPU are not.
 *
 * A plan node resolves its device set when it starts (gx_resolve_devset):
 * the devices of the kind gpuext.device asks for, restricted to those
 * gpuext.devices lists; the first is its home device, where its session
 * objects live (an aggregate state, a group table, a join table).  Its
 * tasks run where their input is (a cache entry's device) or on the
 * least loaded device of the set (gx_devset_pick: the tasks in flight per
 * device, counted in shared memory); a node with objects keeps to the
 * devices that reach its home (gx_devset_reaching), whose tasks add into
 * or read those objects through peer access.  docs/engine.md, "Several
 * devices", is the contract.
 */
#include "gpuext.h"
#include "engine.h"

extern "C"
{
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"
#include "utils/varlena.h"

#include "miscadmin.h"
#include <signal.h>

PGDLLEXPORT Datum gpuext_devices(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum gpuext_service_restart(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_devices);
PG_FUNCTION_INFO_V1(gpuext_service_restart);
}

/* ---------------------------------------------------------------------- */
/* the service: open the devices                                           */
/* ---------------------------------------------------------------------- */

/* a new entry of the device table (service, before gpu_state is set) */
static GxDevice *
gx_device_add(int kind, int api, const char *name)
{
	GxDevice   *d = &gx_shared->devs[gx_shared->ndevices++];

	memset(&d->gpu, 0, sizeof(d->gpu));
	d->kind = kind;
	d->api = api;
	strlcpy(d->name, name, sizeof(d->name));
	d->peers = 0;
	pg_atomic_write_u32(&d->inflight, 0);
	return d;
}

/*
 * Service start: open the CPU device's thread pool and every GPU, enable
 * peer access between the GPUs, and fill the device table.  Returns the
 * number of GPUs opened; msg says why there is none.
 */
int
gx_devices_open(int nthreads, char *msg, size_t msglen)
{
	char		err[256] = "";
	int			started = 1;
	int			ncuda = 0;
	int			ngpus = 0;
	gx_status	st;

	if (gx_cpu_open(nthreads, &started, err, sizeof(err)) != GX_OK || started < nthreads)
		ereport(LOG, (errmsg("gpuext service: the CPU device runs %d of %d threads%s%s",
							 started, nthreads, err[0] ? ": " : "", err)));
	SpinLockAcquire(&gx_shared->mutex);
	gx_shared->cpu_threads = started;
	SpinLockRelease(&gx_shared->mutex);

	gx_shared->ndevices = 0;
	gx_shared->ngpus = 0;
	for (int i = 0; i < GX_MAX_DEVICES; i++)
		pg_atomic_init_u32(&gx_shared->devs[i].inflight, 0);
	(void) gx_device_add(GX_DEV_CPU, GX_DEV_CPU, "cpu");

	msg[0] = '\0';
	st = gx_gpu_count(&ncuda, msg, msglen);
	for (int g = 0; st == GX_OK && g < ncuda && gx_shared->ndevices < GX_MAX_DEVICES; g++)
	{
		gx_gpu_info info;
		char		name[16];
		GxDevice   *d;

		err[0] = '\0';
		memset(&info, 0, sizeof(info));
		if (gx_gpu_open(g, gx_staging, gx_shared->nslots, gx_shared->slot_bytes, &info,
						err, sizeof(err)) != GX_OK)
		{
			ereport(LOG, (errmsg("gpuext service: GPU %d is not used: %s", g, err)));
			strlcpy(msg, err, msglen);
			continue;
		}
		snprintf(name, sizeof(name), "gpu%d", g);
		d = gx_device_add(GX_DEV_GPU, GX_DEV_GPU + g, name);
		d->gpu = info;
		ngpus++;
		pg_atomic_write_u64(&gx_engine->mem[gx_shared->ndevices - 1].staging,
							(uint64) gx_shared->nslots * gx_shared->slot_bytes);
		ereport(LOG, (errmsg("gpuext service: using GPU %d \"%s\" as %s (%d SMs, %llu MB, mapped transfer %s)",
							 g, info.name, name, info.sm_count,
							 (unsigned long long) (info.total_mem >> 20),
							 info.mapped ? "available" : "unavailable")));
		if (err[0] != '\0')
			ereport(LOG, (errmsg("gpuext service: %s", err)));
	}
	gx_shared->ngpus = ngpus;
	if (ngpus == 0)
		ereport(LOG, (errmsg("gpuext service: no GPU, CPU device only: %s", msg)));

	/* the extra CPU devices (tests): the CPU device's threads and memory */
	for (int c = 1; c < gx_cpu_devices && gx_shared->ndevices < GX_MAX_DEVICES; c++)
	{
		char		name[16];

		snprintf(name, sizeof(name), "cpu%d", c);
		(void) gx_device_add(GX_DEV_CPU, GX_DEV_CPU, name);
	}

	/* who reaches whom: the CPU devices each other, GPUs their peers */
	for (int a = 0; a < gx_shared->ndevices; a++)
	{
		GxDevice   *da = &gx_shared->devs[a];

		da->peers |= 1u << a;
		for (int b = a + 1; b < gx_shared->ndevices; b++)
		{
			GxDevice   *db = &gx_shared->devs[b];
			int			enabled = 0;

			if (da->kind != db->kind)
				continue;
			if (da->kind == GX_DEV_GPU)
			{
				err[0] = '\0';
				if (gx_gpu_peer(da->api - GX_DEV_GPU, db->api - GX_DEV_GPU, &enabled,
								err, sizeof(err)) != GX_OK || !enabled)
				{
					ereport(LOG, (errmsg("gpuext service: %s and %s cannot reach each other's memory%s%s",
										 da->name, db->name, err[0] ? ": " : "", err)));
					continue;
				}
			}
			da->peers |= 1u << b;
			db->peers |= 1u << a;
		}
	}
	if (ngpus > 1)
	{
		char		buf[256] = "";

		for (int a = 1; a <= ngpus; a++)
			if ((gx_shared->devs[a].peers & ~(1u << a)) != 0)
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
						 buf[0] ? ", " : "", gx_shared->devs[a].name);
		ereport(LOG, (errmsg("gpuext service: %d GPUs; peer access: %s", ngpus,
							 buf[0] ? buf : "none")));
	}
	return ngpus;
}

/* ---------------------------------------------------------------------- */
/* memory                                                                  */
/* ---------------------------------------------------------------------- */

/* service: zeroed memory of a device (gx_mem_alloc of its kind and ordinal) */
gx_status
gx_device_alloc(int device, uint64 bytes, void **ptr, char *err, size_t errlen)
{
	if (device < 0 || device >= gx_shared->ndevices)
	{
		snprintf(err, errlen, "no device %d", device);
		return GX_INVALID;
	}
	return gx_mem_alloc(gx_shared->devs[device].api, bytes, ptr, err, errlen);
}

/* service: give memory back to its device */
void
gx_device_free(int device, void *ptr)
{
	if (device >= 0 && device < gx_shared->ndevices)
		gx_mem_free(gx_shared->devs[device].api, ptr);
}

/* ---------------------------------------------------------------------- */
/* device sets (backends)                                                  */
/* ---------------------------------------------------------------------- */

/* a name of gpuext.devices (engine.h, GX_DEVNAME_*) */
int
gx_device_parse(const char *name)
{
	int			n = 0;
	const char *p;

	if (pg_strcasecmp(name, "gpu") == 0)
		return GX_DEVNAME_GPUS;
	if (pg_strcasecmp(name, "cpu") == 0)
		return GX_DEVNAME_CPU(0);
	if (pg_strncasecmp(name, "gpu", 3) != 0 && pg_strncasecmp(name, "cpu", 3) != 0)
		return GX_DEVNAME_BAD;
	p = name + 3;
	if (*p == '\0' || strlen(p) > 2)
		return GX_DEVNAME_BAD;
	for (; *p; p++)
	{
		if (*p < '0' || *p > '9')
			return GX_DEVNAME_BAD;
		n = n * 10 + (*p - '0');
	}
	if (pg_strncasecmp(name, "gpu", 3) == 0)
		return n < GX_MAX_GPUS ? GX_DEVNAME_GPU(n) : GX_DEVNAME_BAD;
	return n < GX_MAX_CPU_DEVICES ? GX_DEVNAME_CPU(n) : GX_DEVNAME_BAD;
}

/* does parsed name code match device d? */
static bool
gx_device_matches(int code, int d)
{
	const GxDevice *dev = &gx_shared->devs[d];

	if (code == GX_DEVNAME_GPUS)
		return dev->kind == GX_DEV_GPU;
	if (dev->kind == GX_DEV_GPU)
		return code == GX_DEVNAME_GPU(dev->api - GX_DEV_GPU);
	/* CPU devices: "cpu" is device 0, "cpuN" the Nth extra one */
	return code == GX_DEVNAME_CPU(d == 0 ? 0 : d - gx_shared->ngpus);
}

/* the devices gpuext.devices lists (a mask); *listed = false when it is empty */
static uint32
gx_devices_listed(bool *listed)
{
	char	   *raw;
	List	   *names = NIL;
	ListCell   *lc;
	uint32		mask = 0;

	*listed = gx_devices != NULL && gx_devices[0] != '\0';
	if (!*listed)
		return 0;
	raw = pstrdup(gx_devices);
	if (!SplitIdentifierString(raw, ',', &names))
		names = NIL;			/* (the check hook refused such a value) */
	foreach(lc, names)
	{
		int			code = gx_device_parse((const char *) lfirst(lc));

		for (int d = 0; d < gx_shared->ndevices; d++)
			if (code != GX_DEVNAME_BAD && gx_device_matches(code, d))
				mask |= 1u << d;
	}
	pfree(raw);
	list_free(names);
	return mask;
}

/* set = the devices of mask: GPUs first, then CPU devices, each by number */
static void
gx_devset_from_mask(GxDevSet *set, uint32 mask)
{
	memset(set, 0, sizeof(*set));
	for (int pass = 0; pass < 2; pass++)
		for (int d = 0; d < gx_shared->ndevices; d++)
			if ((mask & (1u << d)) != 0 &&
				(gx_shared->devs[d].kind == GX_DEV_GPU) == (pass == 0))
				set->dev[set->n++] = d;
	set->mask = mask;
}

/* why gx_devset_build found no device */
typedef enum GxDevSetError
{
	GX_DEVSET_OK = 0,
	GX_DEVSET_NO_GPU,			/* gpuext.device = gpu, and no GPU is usable */
	GX_DEVSET_NO_LISTED_GPU,	/* ... none of the listed ones */
	GX_DEVSET_NO_LISTED			/* the list names no device that is there */
} GxDevSetError;

/*
 * The devices a new plan node may use: those of the kind gpuext.device
 * asks for (auto: the GPUs when the service has one, else the CPU
 * devices), among those gpuext.devices lists; with a list, auto takes
 * every listed device, of either kind.  The home device comes first.  The
 * device table must be filled.
 */
static GxDevSetError
gx_devset_build(GxDevSet *set)
{
	bool		listed;
	uint32		named,
				gpus = 0,
				cpus = 0,
				mask;

	for (int d = 0; d < gx_shared->ndevices; d++)
		if (gx_shared->devs[d].kind == GX_DEV_GPU)
			gpus |= 1u << d;
		else
			cpus |= 1u << d;
	named = gx_devices_listed(&listed);
	if (gx_device_choice == GX_DEVICE_CPU)
		/* a list without a CPU device: every CPU device */
		mask = (named & cpus) != 0 ? named & cpus : cpus;
	else if (gx_device_choice == GX_DEVICE_GPU)
	{
		if (gpus == 0)
			return GX_DEVSET_NO_GPU;
		mask = listed ? named & gpus : gpus;
		if (mask == 0)
			return GX_DEVSET_NO_LISTED_GPU;
	}
	else if (listed)
	{
		mask = named;
		if (mask == 0)
			return GX_DEVSET_NO_LISTED;
	}
	else
		mask = gpus != 0 ? gpus : cpus;
	gx_devset_from_mask(set, mask);
	return GX_DEVSET_OK;
}

/*
 * gx_devset_build for a plan node that starts: ERROR when gpuext.device =
 * gpu and no listed GPU is usable, or when the list names no device that
 * is there
 */
void
gx_resolve_devset(GxDevSet *set)
{
	(void) gx_service_generation();
	switch (gx_devset_build(set))
	{
		case GX_DEVSET_OK:
			break;
		case GX_DEVSET_NO_GPU:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("gpuext.device is \"gpu\" but no GPU is usable"),
					 errdetail("%s", gx_shared->gpu_message),
					 errhint("Set gpuext.device to \"auto\" or \"cpu\".")));
			break;
		case GX_DEVSET_NO_LISTED_GPU:
		case GX_DEVSET_NO_LISTED:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("gpuext.devices lists no usable %s",
							gx_device_choice == GX_DEVICE_GPU ? "GPU" : "device"),
					 errdetail("gpuext.devices is \"%s\".", gx_devices),
					 errhint("See gpuext_devices() for the devices' names.")));
			break;
	}
}

/*
 * The planner's view of gx_resolve_devset: false, without an ERROR or a
 * wait, while the service has not opened its devices or when no device
 * would do
 */
bool
gx_try_resolve_devset(GxDevSet *set)
{
	if (gx_shared == NULL || gx_shared->gpu_state == 0)
		return false;
	return gx_devset_build(set) == GX_DEVSET_OK;
}

/* the home device of a new plan node (gx_resolve_devset's first) */
int
gx_resolve_device(void)
{
	GxDevSet	set;

	gx_resolve_devset(&set);
	return set.dev[0];
}

/* a set of one device */
void
gx_devset_one(GxDevSet *set, int device)
{
	gx_devset_from_mask(set, 1u << device);
}

/*
 * Keep the devices whose tasks may name memory of device home (a node's
 * objects live there); home stays first.
 */
void
gx_devset_reaching(GxDevSet *set, int home)
{
	uint32		mask = 0;

	for (int i = 0; i < set->n; i++)
		if (gx_device_reaches(set->dev[i], home))
			mask |= 1u << set->dev[i];
	mask |= 1u << home;
	gx_devset_from_mask(set, mask);
	/* home first, whatever its kind */
	for (int i = 0; i < set->n; i++)
		if (set->dev[i] == home)
		{
			memmove(&set->dev[1], &set->dev[0], sizeof(int) * i);
			set->dev[0] = home;
			break;
		}
}

/*
 * The device of the set with the fewest tasks in flight (submitted to the
 * service and not finished, by every backend), for a task whose input
 * lies nowhere in particular (heap pages, a batch of rows); equally
 * loaded devices take turns.
 */
int
gx_devset_pick(GxDevSet *set)
{
	int			best = -1;
	uint32		best_load = PG_UINT32_MAX;

	if (set->n == 1)
		return set->dev[0];
	for (int k = 0; k < set->n; k++)
	{
		int			d = set->dev[(set->next + k) % set->n];
		uint32		load = pg_atomic_read_u32(&gx_shared->devs[d].inflight);

		if (load < best_load)
		{
			best_load = load;
			best = d;
		}
	}
	set->next++;
	return best;
}

/* service: a task submitted to device is over (its load, never below 0) */
void
gx_device_task_done(int device)
{
	pg_atomic_uint32 *c;
	uint32		v;

	if (device < 0 || device >= GX_MAX_DEVICES)
		return;
	c = &gx_shared->devs[device].inflight;
	v = pg_atomic_read_u32(c);
	while (v > 0 && !pg_atomic_compare_exchange_u32(c, &v, v - 1))
		;
}

/*
 * The names of the devices of mask, comma-separated, device first when it
 * is one of them (-1: in device order); palloc'd (the views)
 */
char *
gx_device_mask_names(uint32 mask, int first)
{
	StringInfoData b;

	initStringInfo(&b);
	if (first >= 0 && first < GX_MAX_DEVICES && (mask & (1u << first)) != 0)
		appendStringInfoString(&b, gx_device_name(first));
	for (int d = 0; d < gx_shared->ndevices; d++)
		if (d != first && (mask & (1u << d)) != 0)
			appendStringInfo(&b, "%s%s", b.len > 0 ? "," : "", gx_device_name(d));
	return b.data;
}

/* the position of device in set, or -1 */
int
gx_devset_index(const GxDevSet *set, int device)
{
	for (int i = 0; i < set->n; i++)
		if (set->dev[i] == device)
			return i;
	return -1;
}

/* the set's device names, comma-separated, into buf */
const char *
gx_devset_names(const GxDevSet *set, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < set->n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "",
				 gx_device_name(set->dev[i]));
	return buf;
}

/* ---------------------------------------------------------------------- */
/* SQL                                                                     */
/* ---------------------------------------------------------------------- */

/*
 * One row per device of the service: its number, kind, description,
 * memory, compute capability and multiprocessors (a CPU device: threads),
 * its name for gpuext.devices, and the devices whose memory its tasks may
 * name.
 */
Datum
gpuext_devices(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Datum		values[8];
	bool		nulls[8];
	char		buf[256];

	InitMaterializedSRF(fcinfo, 0);
	if (gx_shared == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("gpuext must be loaded via shared_preload_libraries")));
	(void) gx_service_generation();
	/* (extension 1.7 and older define the first six columns only: the rest is not read) */

	for (int d = 0; d < gx_shared->ndevices; d++)
	{
		const GxDevice *dev = &gx_shared->devs[d];

		memset(nulls, 0, sizeof(nulls));
		values[0] = Int32GetDatum(d);
		values[1] = CStringGetTextDatum(dev->kind == GX_DEV_GPU ? "gpu" : "cpu");
		if (dev->kind == GX_DEV_GPU)
		{
			values[2] = CStringGetTextDatum(dev->gpu.name);
			values[3] = Int64GetDatum((int64) (dev->gpu.total_mem >> 20));
			snprintf(buf, sizeof(buf), "%d.%d", dev->gpu.cc_major, dev->gpu.cc_minor);
			values[4] = CStringGetTextDatum(buf);
			values[5] = Int32GetDatum(dev->gpu.sm_count);
		}
		else
		{
			snprintf(buf, sizeof(buf), "CPU device (%d threads)", gx_shared->cpu_threads);
			values[2] = CStringGetTextDatum(buf);
			nulls[3] = nulls[4] = true;
			values[5] = Int32GetDatum(gx_shared->cpu_threads);
		}
		values[6] = CStringGetTextDatum(dev->name);
		values[7] = CStringGetTextDatum(gx_device_mask_names(dev->peers & ~(1u << d), -1));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
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
