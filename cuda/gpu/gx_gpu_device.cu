/*
 * gx_gpu_device.cu - the GPUs as devices of the engine: open and close
 * each, their memory pools, peer access between them, and the submission
 * and polling of a slot's task (the kernels and the operators' GPU
 * implementations are in gx_gpu.cu; their shared state in gx_gpu_state.h).
 *
 * Design note
 * -----------
 * Several GPUs.  gx_gpu_open opens one GPU (its CUDA ordinal); the service
 * calls it for each GPU it uses.  A GPU gets its own stream-ordered memory
 * pool (freed blocks stay cached: the release threshold is at its
 * maximum) with an internal allocation stream, and per staging slot a
 * device buffer from that pool, a non-blocking stream and timing events.
 * The staging area is registered once, by the first open, as portable
 * (pinned for every GPU) and mapped; each GPU takes its own alias of it.
 * Every entry point makes its GPU current (cudaSetDevice) before any CUDA
 * call, so a kernel launch or an allocation always lands on the GPU the
 * service named.
 *
 * Peer access: gx_gpu_peer enables, both ways, the access of two GPUs to
 * each other's memory (NVLink or PCIe peer to peer), the blocks of their
 * memory pools included (cudaMemPoolSetAccess: a pool's access is its
 * own, not the device's peer access).  A task on one GPU
 * may then read and write objects and cache entries of the other through
 * their addresses (unified addressing), which is how one group table or
 * join table serves the tasks of every GPU (docs/engine.md, "Several
 * devices").
 *
 * Memory: gx_mem_alloc(GX_DEV_GPU + ordinal) allocates from that GPU's
 * pool and zeroes the block on its allocation stream, then records an
 * event there: nothing waits on the host.  gx_gpu_submit makes a slot's
 * stream wait for that event once after each new allocation on the GPU it
 * runs on, and for the events of every other GPU's allocations when the
 * task may reach their memory (peers): every task that can name a block
 * runs after its zeroing.
 *
 * Ordering across GPUs: a task that follows tasks in flight (gx_task_ctx
 * after[], after_gpu[]) waits for the event after their last kernel, on
 * whatever GPU they run (cudaStreamWaitEvent accepts another device's
 * event).
 *
 * No PostgreSQL header; no C++ exception leaves the extern "C" functions
 * (gx_guard.h).
 */
#include "gx_gpu_state.h"
#include "gx_guard.h"
#include "gx_ops.h"
#include "gx_jit.h"

#include <stdio.h>
#include <string.h>

gx_gpu_staging GS;
gx_gpu_dev *GD;

static gx_gpu_dev gx_gpus[GX_MAX_GPUS];

/* the pools' live block sets and allocation counters */
static std::mutex gx_mem_mu;

/* write the message of CUDA error e in 'what' to err; returns GX_CUDA_ERROR */
gx_status
gx_cuda_fail(cudaError_t e, const char *what, char *err, size_t errlen)
{
	gx_errf(err, errlen, "CUDA error in %s: %s (%s)", what,
			cudaGetErrorString(e), cudaGetErrorName(e));
	return GX_CUDA_ERROR;
}

/* the state of GPU 'gpu' if it is open, else NULL */
static gx_gpu_dev *
gx_gpu_get(int gpu)
{
	if (gpu < 0 || gpu >= GX_MAX_GPUS || !gx_gpus[gpu].open)
		return NULL;
	return &gx_gpus[gpu];
}

/* make d the current GPU of this thread and of the operators (GD) */
static gx_status
gx_gpu_enter(gx_gpu_dev *d, char *err, size_t errlen)
{
	int			cur = -1;

	if (cudaGetDevice(&cur) != cudaSuccess || cur != d->ordinal)
		GX_CHECK(cudaSetDevice(d->ordinal), "cudaSetDevice");
	GD = d;
	return GX_OK;
}

/* ---------------------------------------------------------------------- */
/* memory pools                                                           */
/* ---------------------------------------------------------------------- */

/*
 * bytes of zeroed memory of GPU d's pool, queued on its allocation
 * stream: usable by the tasks submitted after this returns
 * (gx_order_after_allocations).  d is current.
 */
static gx_status
gx_pool_alloc(gx_gpu_dev *d, uint64_t bytes, void **ptr, char *err, size_t errlen)
{
	std::lock_guard<std::mutex> g(gx_mem_mu);
	void	   *p = NULL;
	cudaError_t e;

	*ptr = NULL;
	e = cudaMallocFromPoolAsync(&p, (size_t) bytes, d->pool, d->mem_stream);
	if (e == cudaErrorMemoryAllocation)
	{
		cudaGetLastError();
		gx_errf(err, errlen, "GPU %d has no memory left for %llu bytes", d->ordinal,
				(unsigned long long) bytes);
		return GX_NO_MEMORY;
	}
	if (e != cudaSuccess)
		return gx_cuda_fail(e, "cudaMallocFromPoolAsync", err, errlen);
	e = cudaMemsetAsync(p, 0, (size_t) bytes, d->mem_stream);
	if (e == cudaSuccess)
		e = cudaEventRecord(d->mem_ev, d->mem_stream);
	if (e != cudaSuccess)
	{
		cudaFreeAsync(p, d->mem_stream);
		return gx_cuda_fail(e, "zeroing GPU memory", err, errlen);
	}
	try
	{
		d->live->insert(p);
	}
	catch (...)
	{
		cudaFreeAsync(p, d->mem_stream);
		throw;
	}
	__atomic_store_n(&d->mem_seq, d->mem_seq + 1, __ATOMIC_RELEASE);
	*ptr = p;
	return GX_OK;
}

/* give a block back to GPU d's pool (stream-ordered on its allocation stream) */
static void
gx_pool_free(gx_gpu_dev *d, void *p)
{
	std::lock_guard<std::mutex> g(gx_mem_mu);

	if (p == NULL || d->live == NULL || d->live->erase(p) == 0)
		return;					/* not a block of this pool */
	cudaFreeAsync(p, d->mem_stream);
	cudaGetLastError();
}

/* zeroed memory of a device: a GPU's pool or the CPU device's heap */
extern "C" gx_status
gx_mem_alloc(int device, uint64_t bytes, void **ptr, char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		gx_gpu_dev *d;
		gx_status	st;

		if (ptr)
			*ptr = NULL;
		if (device == GX_DEV_CPU)
			return gx_cpu_mem_alloc(bytes, ptr, err, errlen);
		if (device < GX_DEV_GPU || ptr == NULL || bytes == 0)
		{
			gx_errf(err, errlen, "invalid allocation of %llu bytes on device %d",
					(unsigned long long) bytes, device);
			return GX_INVALID;
		}
		if ((d = gx_gpu_get(device - GX_DEV_GPU)) == NULL)
		{
			gx_errf(err, errlen, "GPU %d is not open", device - GX_DEV_GPU);
			return GX_INVALID;
		}
		if ((st = gx_gpu_enter(d, err, errlen)) != GX_OK)
			return st;
		return gx_pool_alloc(d, bytes, ptr, err, errlen);
	});
}

/* give memory back to its device */
extern "C" void
gx_mem_free(int device, void *ptr)
{
	GX_API_GUARD_VOID()
	{
		gx_gpu_dev *d;
		char		err[8];

		if (device == GX_DEV_CPU)
			gx_cpu_mem_free(ptr);
		else if ((d = gx_gpu_get(device - GX_DEV_GPU)) != NULL &&
				 gx_gpu_enter(d, err, sizeof(err)) == GX_OK)
			gx_pool_free(d, ptr);
	});
}

/* ---------------------------------------------------------------------- */
/* open / close                                                           */
/* ---------------------------------------------------------------------- */

/* release everything gx_gpu_open() took on d (also after a partial open) */
static void
gx_release_gpu(gx_gpu_dev *d)
{
	if (cudaSetDevice(d->ordinal) != cudaSuccess)
		cudaGetLastError();
	if (d->slots)
	{
		for (int i = 0; i < GS.nslots; i++)
		{
			gx_slot    *s = &d->slots[i];

			if (s->stream)
			{
				cudaStreamSynchronize(s->stream);
				cudaStreamDestroy(s->stream);
			}
			for (int j = 0; j < GX_NEVENTS; j++)
				if (s->ev[j])
					cudaEventDestroy(s->ev[j]);
		}
		delete[] d->slots;
	}
	{
		std::lock_guard<std::mutex> g(gx_mem_mu);

		/* every block still allocated: slot buffers, entries, objects */
		if (d->live)
		{
			for (void *p : *d->live)
				cudaFreeAsync(p, d->mem_stream);
			delete d->live;
			d->live = NULL;
		}
	}
	if (d->mem_stream)
	{
		cudaStreamSynchronize(d->mem_stream);
		cudaStreamDestroy(d->mem_stream);
	}
	if (d->mem_ev)
		cudaEventDestroy(d->mem_ev);
	if (d->pool)
		cudaMemPoolDestroy(d->pool);
	cudaGetLastError();			/* clear non-sticky errors of the above */
	memset(d, 0, sizeof(*d));
	if (GD == d)
		GD = NULL;
}

/* is any GPU open? */
static bool
gx_any_open(void)
{
	for (int g = 0; g < GX_MAX_GPUS; g++)
		if (gx_gpus[g].open)
			return true;
	return false;
}

/* unregister the staging area once no GPU uses it */
static void
gx_release_staging(void)
{
	if (gx_any_open())
		return;
	if (GS.pinned)
		cudaHostUnregister(GS.base);
	cudaGetLastError();
	memset(&GS, 0, sizeof(GS));
}

/* JIT counters of this process (gx_jit.h) */
extern "C" void
gx_gpu_jit_stats(uint64_t *compiled, uint64_t *failed, double *compile_ms,
				 char *last_error, size_t errlen)
{
	GX_API_GUARD_VOID()
	{
		uint64_t	c = 0,
					f = 0,
					known;
		double		ms = 0;

		gx_jit_stats(&c, &f, &known, &ms, last_error, errlen);
		if (compiled)
			*compiled = c;
		if (failed)
			*failed = f;
		if (compile_ms)
			*compile_ms = ms;
	});
}

/* this build carries the CUDA kernels */
extern "C" int
gx_gpu_built(void)
{
	return 1;
}

/* the GPUs the driver shows (CUDA_VISIBLE_DEVICES applies) */
extern "C" gx_status
gx_gpu_count(int *n, char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		int			ndev = 0;
		cudaError_t e = cudaGetDeviceCount(&ndev);

		*n = 0;
		if (e != cudaSuccess || ndev <= 0)
		{
			if (e != cudaSuccess)
				gx_errf(err, errlen, "no usable CUDA device: %s", cudaGetErrorString(e));
			else
				gx_errf(err, errlen, "no CUDA device found");
			cudaGetLastError();
			return GX_NO_DEVICE;
		}
		*n = ndev < GX_MAX_GPUS ? ndev : GX_MAX_GPUS;
		return GX_OK;
	});
}

/* the memory pool of d and its allocation stream (d is current) */
static gx_status
gx_open_pool(gx_gpu_dev *d, char *err, size_t errlen)
{
	cudaMemPoolProps props;
	uint64_t	keep = UINT64_MAX;
	int			supported = 0;

	if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, d->ordinal) !=
		cudaSuccess || !supported)
	{
		cudaGetLastError();
		gx_errf(err, errlen, "GPU %d does not support stream-ordered memory pools", d->ordinal);
		return GX_NO_DEVICE;
	}
	memset(&props, 0, sizeof(props));
	props.allocType = cudaMemAllocationTypePinned;
	props.handleTypes = cudaMemHandleTypeNone;
	props.location.type = cudaMemLocationTypeDevice;
	props.location.id = d->ordinal;
	GX_CHECK(cudaMemPoolCreate(&d->pool, &props), "cudaMemPoolCreate");
	/* freed blocks stay in the pool for the next allocation */
	GX_CHECK(cudaMemPoolSetAttribute(d->pool, cudaMemPoolAttrReleaseThreshold, &keep),
			 "cudaMemPoolSetAttribute");
	GX_CHECK(cudaStreamCreateWithFlags(&d->mem_stream, cudaStreamNonBlocking),
			 "cudaStreamCreateWithFlags");
	GX_CHECK(cudaEventCreateWithFlags(&d->mem_ev, cudaEventDisableTiming), "cudaEventCreate");
	d->live = new std::unordered_set<void *>();
	return GX_OK;
}

/*
 * Pin the staging area (portable: for every GPU) and map it into the
 * devices' address space, so that mapped tasks are read in place
 * (zero-copy).  If mapping fails, pin it only: mapped tasks then run in
 * copy mode.  Without pinning copies still work, only slower.  A failure
 * is a warning in warn.  Once, by the first GPU opened.
 */
static void
gx_register_staging(const cudaDeviceProp *prop, char *warn, size_t warnlen)
{
	size_t		area = (size_t) GS.nslots * GS.slot_bytes;
	cudaError_t e;

	GS.pinned = GS.mapped = 0;
	if (prop->canMapHostMemory)
	{
		e = cudaHostRegister(GS.base, area, cudaHostRegisterMapped | cudaHostRegisterPortable);
		if (e == cudaSuccess)
			GS.pinned = GS.mapped = 1;
		else
		{
			snprintf(warn, warnlen,
					 "cudaHostRegister (mapped) of the staging area failed: %s (%s); mapped transfer unavailable",
					 cudaGetErrorString(e), cudaGetErrorName(e));
			cudaGetLastError();
		}
	}
	else
		snprintf(warn, warnlen, "the GPU cannot map host memory; mapped transfer unavailable");
	if (!GS.pinned)
	{
		e = cudaHostRegister(GS.base, area, cudaHostRegisterPortable);
		if (e == cudaSuccess)
			GS.pinned = 1;
		else
		{
			snprintf(warn, warnlen,
					 "cudaHostRegister of the staging area failed: %s (%s); copies are unpinned, mapped transfer unavailable",
					 cudaGetErrorString(e), cudaGetErrorName(e));
			cudaGetLastError();
		}
	}
}

/* d's alias of the registered staging area, when it is mapped (d is current) */
static void
gx_map_staging(gx_gpu_dev *d, char *warn, size_t warnlen)
{
	void	   *dp = NULL;
	cudaError_t e;

	d->mapped = 0;
	d->staging_dev = NULL;
	if (!GS.mapped)
		return;
	e = cudaHostGetDevicePointer(&dp, GS.base, 0);
	if (e == cudaSuccess && dp != NULL)
	{
		d->mapped = 1;
		d->staging_dev = (char *) dp;
	}
	else
	{
		snprintf(warn, warnlen,
				 "cudaHostGetDevicePointer of the staging area failed on GPU %d: %s (%s); mapped transfer unavailable there",
				 d->ordinal, cudaGetErrorString(e), cudaGetErrorName(e));
		cudaGetLastError();
	}
}

/* d's slots: a device buffer from its pool, a stream and events each */
static gx_status
gx_open_slots(gx_gpu_dev *d, char *err, size_t errlen)
{
	d->slots = new gx_slot[GS.nslots];
	memset(d->slots, 0, sizeof(gx_slot) * GS.nslots);
	for (int i = 0; i < GS.nslots; i++)
	{
		gx_slot    *s = &d->slots[i];
		gx_status	st = gx_pool_alloc(d, GS.slot_bytes, (void **) &s->dev, err, errlen);

		if (st != GX_OK)
			return st;
		GX_CHECK(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking),
				 "cudaStreamCreateWithFlags");
		for (int j = 0; j < GX_NEVENTS; j++)
			GX_CHECK(cudaEventCreate(&s->ev[j]), "cudaEventCreate");
		s->state = GX_SLOT_IDLE;
	}
	return GX_OK;
}

/* describe GPU 'ordinal' in info */
static void
gx_describe(int ordinal, const cudaDeviceProp *prop, gx_gpu_info *info)
{
	int			clock_khz = 0,
				bus_bits = 0;
	size_t		nlen = strnlen(prop->name, sizeof(prop->name));

	memset(info, 0, sizeof(*info));
	if (nlen >= sizeof(info->name))
		nlen = sizeof(info->name) - 1;
	memcpy(info->name, prop->name, nlen);
	info->name[nlen] = '\0';
	info->ordinal = ordinal;
	info->total_mem = prop->totalGlobalMem;
	info->cc_major = prop->major;
	info->cc_minor = prop->minor;
	info->sm_count = prop->multiProcessorCount;
	if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, ordinal) != cudaSuccess ||
		cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal) != cudaSuccess)
	{
		clock_khz = bus_bits = 0;
		cudaGetLastError();
	}
	info->mem_bandwidth_gbs = 2.0 * (double) clock_khz * 1e3 * ((double) bus_bits / 8.0) / 1e9;
}

/*
 * Open GPU 'gpu' (its CUDA ordinal): context, memory pool, the staging
 * area's registration (the first GPU) and mapping, one device buffer,
 * stream and event set per slot.  Every GPU opened must be given the same
 * staging area.  On success err may hold a warning (pinning or mapping
 * failed: slower or copy only).
 */
extern "C" gx_status
gx_gpu_open(int gpu, void *staging, int nslots, size_t slot_bytes, gx_gpu_info *info,
			char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		int			ndev = 0;
		cudaError_t e;
		char		warn[200] = "";
		cudaDeviceProp prop;
		gx_status	st;
		gx_gpu_dev *d;
		bool		first = !gx_any_open();

		if (gpu < 0 || gpu >= GX_MAX_GPUS)
		{
			gx_errf(err, errlen, "invalid GPU %d", gpu);
			return GX_INVALID;
		}
		d = &gx_gpus[gpu];
		if (d->open)
		{
			gx_errf(err, errlen, "GPU %d is already open", gpu);
			return GX_INVALID;
		}
		if (staging == NULL || nslots <= 0 || slot_bytes < sizeof(gx_chunk) ||
			(!first && (staging != GS.base || nslots != GS.nslots ||
						slot_bytes != GS.slot_bytes)))
		{
			gx_errf(err, errlen, "invalid staging area (%d slots of %zu bytes)",
					nslots, slot_bytes);
			return GX_INVALID;
		}
		e = cudaGetDeviceCount(&ndev);
		if (e != cudaSuccess || ndev <= gpu)
		{
			if (e != cudaSuccess)
				gx_errf(err, errlen, "no usable CUDA device: %s", cudaGetErrorString(e));
			else
				gx_errf(err, errlen, "no CUDA device %d (%d found)", gpu, ndev);
			cudaGetLastError();
			return GX_NO_DEVICE;
		}
		GX_CHECK(cudaSetDevice(gpu), "cudaSetDevice");
		GX_CHECK(cudaGetDeviceProperties(&prop, gpu), "cudaGetDeviceProperties");
		if (info)
			gx_describe(gpu, &prop, info);

		if (first)
		{
			GS.base = (char *) staging;
			GS.nslots = nslots;
			GS.slot_bytes = slot_bytes;
		}
		d->ordinal = gpu;
		d->sm_count = prop.multiProcessorCount > 0 ? prop.multiProcessorCount : 1;
		/* the compiled kernels are built for one architecture: the first GPU's */
		d->jit = gx_jit_open(prop.major, prop.minor);
		try
		{
			st = gx_open_pool(d, err, errlen);
			if (st == GX_OK)
			{
				if (first)
					gx_register_staging(&prop, warn, sizeof(warn));
				gx_map_staging(d, warn, sizeof(warn));
				st = gx_open_slots(d, err, errlen);
			}
			if (st == GX_OK)
			{
				GD = d;
				st = gx_gpu_kernels_init(err, errlen);
			}
		}
		catch (...)
		{
			gx_release_gpu(d);
			gx_release_staging();
			throw;
		}
		if (st != GX_OK)
		{
			gx_release_gpu(d);
			gx_release_staging();
			return st;
		}
		if (info)
			info->mapped = d->mapped;
		d->open = 1;
		if (warn[0])
			gx_errf(err, errlen, "warning: %s", warn);
		return GX_OK;
	});
}

/*
 * Enable the access of GPUs a and b to each other's memory, both ways;
 * *enabled = 1 when both directions work (0: the tasks of one may not
 * name the other's memory).  Both must be open.
 */
extern "C" gx_status
gx_gpu_peer(int a, int b, int *enabled, char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		gx_gpu_dev *da = gx_gpu_get(a),
				   *db = gx_gpu_get(b);
		int			ab = 0,
					ba = 0;

		*enabled = 0;
		if (da == NULL || db == NULL || a == b)
		{
			gx_errf(err, errlen, "invalid GPU pair %d, %d", a, b);
			return GX_INVALID;
		}
		if (cudaDeviceCanAccessPeer(&ab, a, b) != cudaSuccess ||
			cudaDeviceCanAccessPeer(&ba, b, a) != cudaSuccess)
		{
			cudaGetLastError();
			return GX_OK;
		}
		if (!ab || !ba)
			return GX_OK;
		for (int k = 0; k < 2; k++)
		{
			gx_gpu_dev *from = k == 0 ? da : db;
			cudaError_t e;

			GX_CHECK(cudaSetDevice(from->ordinal), "cudaSetDevice");
			e = cudaDeviceEnablePeerAccess(k == 0 ? b : a, 0);
			if (e == cudaErrorPeerAccessAlreadyEnabled)
				cudaGetLastError();
			else if (e != cudaSuccess)
			{
				cudaGetLastError();
				gx_errf(err, errlen, "peer access of GPU %d to GPU %d: %s", from->ordinal,
						k == 0 ? b : a, cudaGetErrorString(e));
				return GX_OK;
			}
		}
		/*
		 * Blocks of a stream-ordered pool are not reached by a peer through
		 * cudaDeviceEnablePeerAccess: each pool grants the other GPU access
		 * itself (for its blocks now and later)
		 */
		for (int k = 0; k < 2; k++)
		{
			cudaMemAccessDesc desc;

			memset(&desc, 0, sizeof(desc));
			desc.location.type = cudaMemLocationTypeDevice;
			desc.location.id = k == 0 ? b : a;
			desc.flags = cudaMemAccessFlagsProtReadWrite;
			GX_CHECK(cudaMemPoolSetAccess((k == 0 ? da : db)->pool, &desc, 1),
					 "cudaMemPoolSetAccess");
		}
		*enabled = 1;
		return GX_OK;
	});
}

/* the process is about to exit: let the background compilations finish */
extern "C" void
gx_gpu_quiesce(void)
{
	GX_API_GUARD_VOID()
	{
		gx_jit_quiesce(10000);
	});
}

/* release every GPU: wait for every stream, free the pools' blocks, unregister */
extern "C" void
gx_gpu_close(void)
{
	GX_API_GUARD_VOID()
	{
		bool		any = false;

		for (int g = 0; g < GX_MAX_GPUS; g++)
			if (gx_gpus[g].open || gx_gpus[g].slots != NULL || gx_gpus[g].pool != NULL)
			{
				gx_release_gpu(&gx_gpus[g]);
				any = true;
			}
		if (!any && !GS.pinned)
			return;
		gx_jit_close();			/* no kernel runs any more */
		gx_release_staging();
	});
}

/* ---------------------------------------------------------------------- */
/* submit / poll                                                          */
/* ---------------------------------------------------------------------- */

/*
 * Order a slot's stream on d after every pool allocation made so far
 * (their zeroing) on d and, when the task reaches peer memory, on every
 * other GPU; once per new allocation: a task may name a block allocated
 * just before it was submitted.
 */
static gx_status
gx_order_after_allocations(gx_gpu_dev *d, gx_slot *s, char *err, size_t errlen)
{
	/* an atomic read: no lock on every submit (the event is recorded before the count moves) */
	uint64_t	seq = 0;

	for (int g = 0; g < GX_MAX_GPUS; g++)
		if (gx_gpus[g].open)
			seq += __atomic_load_n(&gx_gpus[g].mem_seq, __ATOMIC_ACQUIRE);
	if (s->mem_seq == seq)
		return GX_OK;
	for (int g = 0; g < GX_MAX_GPUS; g++)
		if (gx_gpus[g].open && gx_gpus[g].mem_seq > 0)
			GX_CHECK(cudaStreamWaitEvent(s->stream, gx_gpus[g].mem_ev, 0),
					 "cudaStreamWaitEvent (allocations)");
	s->mem_seq = seq;
	return GX_OK;
}

/* is slot s of a GPU in flight (queued, not yet polled done)? */
static inline bool
gx_slot_busy(const gx_slot *s)
{
	return s->state == GX_SLOT_STAGE1 || s->state == GX_SLOT_STAGE2 ||
		s->state == GX_SLOT_MAPPED;
}

/*
 * Validate a slot's task with its operator's validator, then queue it on
 * GPU 'gpu' with the operator's GPU implementation; gx_gpu_poll() completes
 * it.
 */
extern "C" gx_status
gx_gpu_submit(int gpu, int slot, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		static const gx_task_ctx none = {};
		const gx_operator *op;
		gx_gpu_dev *d = gx_gpu_get(gpu);
		gx_status	st;

		if (d == NULL || slot < 0 || slot >= GS.nslots)
		{
			gx_errf(err, errlen, "invalid GPU slot %d on GPU %d", slot, gpu);
			return GX_INVALID;
		}
		gx_slot    *s = &d->slots[slot];

		if (gx_slot_busy(s))
		{
			gx_errf(err, errlen, "GPU slot %d is busy", slot);
			return GX_INVALID;
		}
		if (ctx == NULL)
			ctx = &none;

		gx_chunk   *c = (gx_chunk *) (GS.base + (size_t) slot * GS.slot_bytes);

		st = gx_op_check(c, GS.slot_bytes, ctx, &op, err, errlen);
		if (st != GX_OK)
			return st;
		if (op->gpu_submit == NULL)
		{
			gx_errf(err, errlen, "operator %s has no GPU implementation", op->name);
			return GX_INVALID;
		}
		/* order the task after the tasks in flight it follows */
		if (ctx->nafter < 0 || ctx->nafter > GX_TASK_MAX_AFTER)
		{
			gx_errf(err, errlen, "task follows %d tasks", ctx->nafter);
			return GX_INVALID;
		}
		for (int k = 0; k < ctx->nafter; k++)
		{
			int			j = ctx->after[k];
			gx_gpu_dev *o = gx_gpu_get(ctx->after_gpu[k]);

			if (o == NULL || j < 0 || j >= GS.nslots || (o == d && j == slot))
			{
				gx_errf(err, errlen, "task follows an invalid slot %d", j);
				return GX_INVALID;
			}
		}
		if ((st = gx_gpu_enter(d, err, errlen)) != GX_OK ||
			(st = gx_order_after_allocations(d, s, err, errlen)) != GX_OK)
			return st;
		for (int k = 0; k < ctx->nafter; k++)
		{
			gx_slot    *f = &gx_gpu_get(ctx->after_gpu[k])->slots[ctx->after[k]];

			if (gx_slot_busy(f))
				GX_CHECK(cudaStreamWaitEvent(s->stream, f->ev[GX_EV_KERNEL_END], 0),
						 "cudaStreamWaitEvent");
		}
		return op->gpu_submit(slot, c, ctx, err, errlen);
	});
}

/* nanoseconds between two completed events; 0 when they cannot be timed */
static uint64_t
gx_elapsed_ns(cudaEvent_t a, cudaEvent_t b)
{
	float		ms = 0.0f;

	if (cudaEventElapsedTime(&ms, a, b) != cudaSuccess)
	{
		cudaGetLastError();
		return 0;
	}
	return ms > 0.0f ? (uint64_t) ((double) ms * 1e6) : 0;
}

/* the result header copied back (or published) is consistent with its task */
static gx_status
gx_check_result(gx_slot *s, const gx_chunk *c, const gx_result *hres, char *err, size_t errlen)
{
	const uint32_t kind = c->kind;
	uint32_t	ntiles = kind == GX_TASK_GROUP_READ || kind == GX_TASK_GROUP_MERGE ||
		kind == GX_TASK_JOIN_BUILD ||
		kind == GX_TASK_JOIN_FINISH_BUILD || kind == GX_TASK_JOIN_UNMATCHED ||
		kind == GX_TASK_SEARCH || kind == GX_TASK_TREE_LOOKUP ? 0 :
		gx_ntiles(c->nrows);
	uint32_t	max_sel = kind == GX_TASK_JOIN_PROBE ? c->ext.join.max_pairs : c->nrows;

	if (hres->nsel > max_sel || hres->ntiles != ntiles)
	{
		s->state = GX_SLOT_IDLE;
		gx_errf(err, errlen, "GPU result is inconsistent (nsel %u, nrows %u)",
				hres->nsel, c->nrows);
		return GX_CUDA_ERROR;
	}
	return GX_OK;
}

/* a task's statistics and flags into its host result; the slot is done */
static void
gx_slot_complete(gx_slot *s, gx_result *hres, uint64_t h2d_ns, uint64_t kernel_ns,
				 uint64_t d2h_ns, uint32_t mode_flags)
{
	hres->h2d_ns = h2d_ns;
	hres->kernel_ns = kernel_ns;
	hres->d2h_ns = d2h_ns;
	hres->bytes_h2d = s->bytes_h2d;
	hres->bytes_d2h = s->bytes_d2h;
	hres->flags = (hres->flags & GX_RESULT_KERNEL_FLAGS) | GX_RESULT_GPU | mode_flags |
		(s->jit ? GX_RESULT_JIT : 0);
	s->state = GX_SLOT_DONE;
}

/*
 * Advance a slot submitted to GPU 'gpu' without blocking: *done = 1 once
 * its result area (with statistics and the mode that ran in flags) is in
 * host memory.
 */
extern "C" gx_status
gx_gpu_poll(int gpu, int slot, int *done, char *err, size_t errlen)
{
	GX_API_GUARD(err, errlen)
	{
		cudaError_t e;
		gx_gpu_dev *d = gx_gpu_get(gpu);
		gx_status	st;

		if (done)
			*done = 0;
		if (d == NULL || slot < 0 || slot >= GS.nslots || done == NULL)
		{
			gx_errf(err, errlen, "invalid GPU slot %d on GPU %d", slot, gpu);
			return GX_INVALID;
		}
		gx_slot    *s = &d->slots[slot];
		gx_chunk   *c = (gx_chunk *) (GS.base + (size_t) slot * GS.slot_bytes);
		gx_result  *hres = gx_chunk_result(c);

		switch (s->state)
		{
			case GX_SLOT_IDLE:
				gx_errf(err, errlen, "GPU slot %d was not submitted", slot);
				return GX_INVALID;
			case GX_SLOT_DONE:
				*done = 1;
				return GX_OK;
			case GX_SLOT_MAPPED:
				e = cudaEventQuery(s->ev[GX_EV_KERNEL_END]);
				if (e == cudaErrorNotReady)
					return GX_OK;
				if (e != cudaSuccess)
				{
					s->state = GX_SLOT_IDLE;
					return gx_cuda_fail(e, "GPU task (mapped)", err, errlen);
				}
				/* the kernels are complete: their writes to the host are visible */
				if (gx_check_result(s, c, hres, err, errlen) != GX_OK)
					return GX_CUDA_ERROR;
				s->bytes_d2h += s->copy_sel ? (uint64_t) hres->nsel * s->sel_width : 0;
				gx_slot_complete(s, hres, 0,
								 gx_elapsed_ns(s->ev[GX_EV_KERNEL_START], s->ev[GX_EV_KERNEL_END]),
								 0, GX_RESULT_MAPPED);
				*done = 1;
				return GX_OK;
			case GX_SLOT_STAGE1:
				e = cudaEventQuery(s->ev[GX_EV_S1_END]);
				if (e == cudaErrorNotReady)
					return GX_OK;
				if (e != cudaSuccess)
				{
					s->state = GX_SLOT_IDLE;
					return gx_cuda_fail(e, "GPU task (stage 1)", err, errlen);
				}
				if (gx_check_result(s, c, hres, err, errlen) != GX_OK)
					return GX_CUDA_ERROR;
				if (!s->copy_sel)
				{
					/* no selection to copy: the header and seg arrays are all */
					gx_slot_complete(s, hres,
									 gx_elapsed_ns(s->ev[GX_EV_H2D_START], s->ev[GX_EV_H2D_END]),
									 gx_elapsed_ns(s->ev[GX_EV_H2D_END], s->ev[GX_EV_KERNEL_END]),
									 gx_elapsed_ns(s->ev[GX_EV_KERNEL_END], s->ev[GX_EV_S1_END]),
									 0);
					*done = 1;
					return GX_OK;
				}
				if ((st = gx_gpu_enter(d, err, errlen)) != GX_OK)
					return st;
				{
					size_t		sel_off = s->sel_at ? (size_t) s->sel_at :
						(size_t) ((char *) gx_result_sel(hres) - (char *) c);
					size_t		sel_bytes = (size_t) hres->nsel * s->sel_width;

					GX_CHECK(cudaEventRecord(s->ev[GX_EV_S2_START], s->stream), "cudaEventRecord");
					if (sel_bytes > 0)
						GX_CHECK(cudaMemcpyAsync((char *) c + sel_off, s->dev + sel_off, sel_bytes,
												 cudaMemcpyDeviceToHost, s->stream),
								 "cudaMemcpyAsync (selection)");
					if (s->gather_n > 0 && hres->nsel > 0)
					{
						/*
						 * a gathering probe's columns: the first nsel entries of
						 * each (gval rows of gather_pitch int64, then gnull
						 * rows of gather_pitch bytes), one 2D copy each
						 */
						size_t		n = hres->nsel < s->gather_pitch ? hres->nsel : s->gather_pitch;
						size_t		p = s->gather_pitch;

						GX_CHECK(cudaMemcpy2DAsync((char *) c + s->gather_at, p * 8,
												   s->dev + s->gather_at, p * 8, n * 8,
												   s->gather_n, cudaMemcpyDeviceToHost,
												   s->stream), "cudaMemcpy2DAsync (gathered values)");
						GX_CHECK(cudaMemcpy2DAsync((char *) c + s->gather_nulls_at, p,
												   s->dev + s->gather_nulls_at, p, n,
												   s->gather_n, cudaMemcpyDeviceToHost,
												   s->stream), "cudaMemcpy2DAsync (gathered nulls)");
						s->bytes_d2h += 9 * n * s->gather_n;
					}
					GX_CHECK(cudaEventRecord(s->ev[GX_EV_S2_END], s->stream), "cudaEventRecord");
					s->bytes_d2h += sel_bytes;
					s->state = GX_SLOT_STAGE2;
				}
				/* an empty selection may already be complete */
				[[fallthrough]];
			case GX_SLOT_STAGE2:
				e = cudaEventQuery(s->ev[GX_EV_S2_END]);
				if (e == cudaErrorNotReady)
					return GX_OK;
				if (e != cudaSuccess)
				{
					s->state = GX_SLOT_IDLE;
					return gx_cuda_fail(e, "GPU task (stage 2)", err, errlen);
				}
				/* every copy into the host result is over: statistics stay */
				gx_slot_complete(s, hres,
								 gx_elapsed_ns(s->ev[GX_EV_H2D_START], s->ev[GX_EV_H2D_END]),
								 gx_elapsed_ns(s->ev[GX_EV_H2D_END], s->ev[GX_EV_KERNEL_END]),
								 gx_elapsed_ns(s->ev[GX_EV_KERNEL_END], s->ev[GX_EV_S1_END]) +
								 gx_elapsed_ns(s->ev[GX_EV_S2_START], s->ev[GX_EV_S2_END]),
								 0);
				*done = 1;
				return GX_OK;
		}
		gx_errf(err, errlen, "GPU slot %d in a bad state", slot);
		return GX_INVALID;
	});
}
