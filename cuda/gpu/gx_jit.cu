/*
 * gx_jit.cu - filter programs compiled at run time into their own kernels.
 *
 * Design note
 * -----------
 * The opcode interpreter (gx_eval.cuh) is exact but, on a GPU, compute
 * bound: per row and instruction it dispatches on the opcode and keeps its
 * registers in local memory, which caps a cached scan far below the
 * memory bandwidth (docs/architecture.md has the figures).  For a program
 * this file generates a row evaluator in CUDA C++: one statement per
 * instruction, registers as local variables, jumps as gotos.  Every
 * statement calls gx_step() (or gx_load_col_as()) from gx_eval.cuh with the
 * opcode, type and argument as constants, so that the compiler folds the
 * opcode switch away while the meaning of each opcode stays defined in one
 * place, shared with the interpreter and the CPU device.  The evaluator
 * instantiates the filter kernel's body (gx_filter.cuh) exactly as the
 * interpreter does; NVRTC compiles it for the device's architecture, with
 * --fmad=false like the library (floating point results must not change),
 * and the CUDA runtime loads the cubin (cudaLibraryLoadData).
 *
 * Constants and column offsets are not part of the generated code: the
 * kernel reads them from the chunk header like the interpreter, so one
 * compiled kernel serves every chunk and every parameter value of a query
 * shape.  The program's shape (shape_key: opcodes, registers, column
 * types, everything the generated source depends on) is the cache key, so
 * a chunk finds its kernel without generating the source, which is only
 * made to compile a new shape.  The headers are compiled into the library
 * (gx_jit_src.inc, made from the sources by the Makefile).
 *
 * Compilation takes a fraction of a second, so it does not stall the
 * service: the first request for a program starts it in a background
 * thread (two at most, signals blocked) and returns NULL, and the chunk
 * runs interpreted; later chunks of the program, from any session, get
 * the compiled kernel.  NVRTC is opened with dlopen() on first use, so a
 * host without it (or a program NVRTC rejects) simply keeps the
 * interpreter.  Compiled kernels live until the service closes the GPU
 * (at most GX_JIT_MAX_PROGRAMS programs; later ones stay interpreted).
 *
 * No PostgreSQL header, no C++ exception leaves this file.
 */
#include "gx_jit.h"
#include "gx_filter.cuh"			/* GX_FILTER_SMEM_MAX */

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

/* gx_src_gx_program_h, gx_src_gx_bitmap_cuh, gx_src_gx_eval_cuh, gx_src_gx_sets_cuh,
 * gx_src_gx_group_cuh, gx_src_gx_filter_cuh */
#include "gx_jit_src.inc"

#define GX_JIT_MAX_PROGRAMS 512
#define GX_JIT_MAX_THREADS 2

namespace
{

/* the part of the NVRTC API used here (nvrtc.h), resolved with dlsym */
typedef int (*nvrtc_create_fn) (void **prog, const char *src, const char *name, int nheaders,
								const char *const *headers, const char *const *names);
typedef int (*nvrtc_compile_fn) (void *prog, int nopts, const char *const *opts);
typedef int (*nvrtc_size_fn) (void *prog, size_t *size);
typedef int (*nvrtc_get_fn) (void *prog, char *buf);
typedef int (*nvrtc_destroy_fn) (void **prog);

struct nvrtc_api
{
	int			tried;
	void	   *handle;
	nvrtc_create_fn create;
	nvrtc_compile_fn compile;
	nvrtc_size_fn log_size;
	nvrtc_get_fn log;
	nvrtc_size_fn cubin_size;
	nvrtc_get_fn cubin;
	nvrtc_destroy_fn destroy;
};

enum jit_state
{
	JIT_COMPILING = 0,			/* a thread compiles it */
	JIT_COMPILED,				/* cubin ready, not loaded yet */
	JIT_READY,					/* loaded: kernel is usable */
	JIT_FAILED					/* NVRTC or the loader refused it */
};

struct jit_entry
{
	std::atomic<int> state {JIT_COMPILING};
	std::vector<char> cubin;	/* written by the compiling thread */
	std::string log;
	double		compile_ms = 0;
	cudaLibrary_t lib = nullptr;
	cudaKernel_t kernel = nullptr;
	uint32_t	devices = 0;	/* GPUs whose shared memory attribute is set */
};

struct jit_globals
{
	std::mutex	mu;
	nvrtc_api	api {};
	std::string arch;			/* "-arch=sm_XY" */
	bool		quiesced = false;	/* the process exits: nothing new compiles */
	/* program shape (shape_key) -> its kernel */
	std::unordered_map<std::string, std::shared_ptr<jit_entry>> programs;
	int			threads = 0;	/* compiling threads running */
	uint64_t	compiled = 0;
	uint64_t	failed = 0;
	double		compile_ms = 0;
	std::string last_log;		/* log of the last failed compilation */
};

jit_globals *J;					/* allocated by gx_jit_open */

/* open NVRTC: the soname of this toolkit, then the CUDA home it came from */
bool
nvrtc_open(nvrtc_api *a)
{
	static const char *const names[] = {
		"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
#ifdef GX_CUDA_HOME
		GX_CUDA_HOME "/lib64/libnvrtc.so", GX_CUDA_HOME "/targets/x86_64-linux/lib/libnvrtc.so",
#endif
	};

	if (a->tried)
		return a->handle != nullptr;
	a->tried = 1;
	for (const char *n : names)
	{
		a->handle = dlopen(n, RTLD_NOW | RTLD_LOCAL);
		if (a->handle)
			break;
	}
	if (!a->handle)
		return false;
	a->create = (nvrtc_create_fn) dlsym(a->handle, "nvrtcCreateProgram");
	a->compile = (nvrtc_compile_fn) dlsym(a->handle, "nvrtcCompileProgram");
	a->log_size = (nvrtc_size_fn) dlsym(a->handle, "nvrtcGetProgramLogSize");
	a->log = (nvrtc_get_fn) dlsym(a->handle, "nvrtcGetProgramLog");
	a->cubin_size = (nvrtc_size_fn) dlsym(a->handle, "nvrtcGetCUBINSize");
	a->cubin = (nvrtc_get_fn) dlsym(a->handle, "nvrtcGetCUBIN");
	a->destroy = (nvrtc_destroy_fn) dlsym(a->handle, "nvrtcDestroyProgram");
	if (!a->create || !a->compile || !a->log_size || !a->log || !a->cubin_size ||
		!a->cubin || !a->destroy)
	{
		dlclose(a->handle);
		a->handle = nullptr;
		return false;
	}
	return true;
}

/*
 * The cache key of a program: the bytes generate() depends on (counts,
 * every instruction's fields, the column types, group mode).  Chunks of one query
 * shape share it.
 */
void
shape_key(const gx_chunk *c, std::string &key)
{
	const uint32_t n = c->ninstr <= GX_MAX_INSTR ? c->ninstr : GX_MAX_INSTR + 1;
	const uint32_t ncols = c->ncols <= GX_MAX_COLS ? c->ncols : GX_MAX_COLS;
	uint32_t	hdr[4] = {n, c->ncols, c->nconsts, c->ext.ngroup_cap > 0};

	key.reserve(sizeof(hdr) + (size_t) n * 11 + ncols);
	key.append((const char *) hdr, sizeof(hdr));
	for (uint32_t pc = 0; pc < n && pc < GX_MAX_INSTR; pc++)
	{
		const gx_instr *in = &c->code[pc];
		char		b[11];

		b[0] = (char) in->op;
		b[1] = (char) in->type;
		b[2] = (char) in->dst;
		b[3] = (char) in->a;
		b[4] = (char) in->b;
		memcpy(b + 5, &in->jump, 2);
		memcpy(b + 7, &in->arg, 4);
		key.append(b, sizeof(b));
	}
	for (uint32_t i = 0; i < ncols; i++)
		key.push_back((char) c->cols[i].type);
}

/*
 * Generate the evaluator and kernel for the program of chunk c into src.
 * Returns false for a program the generator does not take (the
 * interpreter then runs it and reports what is wrong with it).
 */
bool
generate(const gx_chunk *c, std::string &src)
{
	const uint32_t n = c->ninstr;
	std::vector<char> target(n + 1, 0);
	uint32_t	nregs = 0;
	char		line[256];

	if (n == 0 || n > GX_MAX_INSTR)
		return false;
	for (uint32_t pc = 0; pc < n; pc++)
	{
		const gx_instr *in = &c->code[pc];

		if (in->op >= GX_OP_COUNT || in->type >= GX_NTYPES ||
			in->dst >= GX_MAX_REGS || in->a >= GX_MAX_REGS || in->b >= GX_MAX_REGS)
			return false;
		if ((in->op == GX_OP_LDCOL || in->op == GX_OP_DSCALE) &&
			(in->arg < 0 || (uint32_t) in->arg >= c->ncols || c->cols[in->arg].type >= GX_NTYPES))
			return false;
		if (in->op == GX_OP_LDCONST && (in->arg < 0 || (uint32_t) in->arg >= c->nconsts))
			return false;
		if (!gx_instr_args_ok(in, c->nconsts))
			return false;
		if (in->op == GX_OP_ANDSTEP || in->op == GX_OP_ORSTEP)
		{
			/* the compiler only jumps forward; anything else stays interpreted */
			if (in->jump <= (int) pc || in->jump > (int) n)
				return false;
			target[in->jump] = 1;
		}
		uint32_t	m = in->dst;

		if (in->a > m)
			m = in->a;
		if (in->b > m)
			m = in->b;
		if (m + 1 > nregs)
			nregs = m + 1;
	}

	src.reserve(256 + 160 * n);
	/* a program outside group mode leaves the group table code out */
	src += c->ext.ngroup_cap > 0 ? "#define GX_WITH_GROUP 1\n" : "#define GX_WITH_GROUP 0\n";
	src += "#include \"gx_filter.cuh\"\n"
		"struct gx_jit_eval\n{\n"
		"static __device__ __forceinline__ int\n"
		"eval(const gx_chunk *c, const char *base, uint32_t row, int *err, gx_reg *out)\n{\n";
	for (uint32_t r = 0; r < nregs; r++)
	{
		snprintf(line, sizeof(line), "gx_reg r%u; r%u.v.i = 0; r%u.isnull = 1;\n", r, r, r);
		src += line;
	}
	src += "int s;\n*err = GX_ERR_NONE;\n";
	for (uint32_t pc = 0; pc < n; pc++)
	{
		const gx_instr *in = &c->code[pc];

		if (target[pc])
		{
			snprintf(line, sizeof(line), "L%u: ;\n", pc);
			src += line;
		}
		if (in->op == GX_OP_OUT)
		{
			snprintf(line, sizeof(line), "if (out) out[%d] = r%u;\n", (int) in->arg,
					 (unsigned) in->a);
			src += line;
			continue;
		}
		if (in->op == GX_OP_LDCOL && c->cols[in->arg].type != GX_NUMERIC)
		{
			/* (a numeric column's load may send the row to the host: gx_step) */
			snprintf(line, sizeof(line), "gx_load_col_as(base, &c->cols[%d], %u, row, &r%u);\n",
					 (int) in->arg, (unsigned) c->cols[in->arg].type, (unsigned) in->dst);
			src += line;
			continue;
		}
		snprintf(line, sizeof(line),
				 "s = gx_step(%u, %u, %d, c, base, row, &r%u, &r%u, &r%u, err);\n",
				 (unsigned) in->op, (unsigned) in->type, (int) in->arg,
				 (unsigned) in->dst, (unsigned) in->a, (unsigned) in->b);
		src += line;
		if (in->op == GX_OP_ANDSTEP || in->op == GX_OP_ORSTEP)
			snprintf(line, sizeof(line), "if (s == GX_STEP_JUMP) goto L%d;\n", (int) in->jump);
		else
			snprintf(line, sizeof(line), "if (s != GX_STEP_NEXT) return 0;\n");
		src += line;
	}
	if (target[n])
	{
		snprintf(line, sizeof(line), "L%u: ;\n", n);
		src += line;
	}
	src += "return 1;\n}\n};\n"
		"extern \"C\" __global__ void __launch_bounds__(GX_BLOCK)\n"
		"gx_filter_jit(const char *__restrict__ in, const char *__restrict__ colbase,\n"
		"              uint32_t nrows, gx_result *res, char *out,\n"
		"              const uint32_t *__restrict__ rowmap, int write_sel,\n"
		"              gx_agg_pair *agg_state, char *group)\n"
		"{\n"
		"\tgx_filter_tiles<gx_jit_eval>(in, colbase, nrows, res, out, rowmap, write_sel,\n"
		"\t                             agg_state, group);\n"
		"}\n";
	return true;
}

/* compile src with NVRTC into e (any thread: touches no CUDA state) */
void
compile(std::shared_ptr<jit_entry> e, std::string src, std::string arch, nvrtc_api api)
{
	static const char *const headers[] = {gx_src_gx_program_h, gx_src_gx_bitmap_cuh,
	gx_src_gx_eval_cuh, gx_src_gx_sets_cuh, gx_src_gx_group_cuh, gx_src_gx_filter_cuh};
	static const char *const names[] = {"gx_program.h", "gx_bitmap.cuh", "gx_eval.cuh",
	"gx_sets.cuh", "gx_group.cuh", "gx_filter.cuh"};
	const int	nheaders = (int) (sizeof(headers) / sizeof(headers[0]));
	/* -default-device: the plain inline helpers of gx_program.h */
	const char *opts[] = {arch.c_str(), "-std=c++17", "--fmad=false", "-default-device", "-w"};
	auto		t0 = std::chrono::steady_clock::now();
	void	   *prog = nullptr;
	int			state = JIT_FAILED;

	try
	{
		if (api.create(&prog, src.c_str(), "gx_jit.cu", nheaders, headers, names) == 0)
		{
			int			rc = api.compile(prog, (int) (sizeof(opts) / sizeof(opts[0])), opts);
			size_t		sz = 0;

			if (api.log_size(prog, &sz) == 0 && sz > 1)
			{
				e->log.resize(sz);
				api.log(prog, &e->log[0]);
			}
			if (rc == 0 && api.cubin_size(prog, &sz) == 0 && sz > 0)
			{
				e->cubin.resize(sz);
				if (api.cubin(prog, e->cubin.data()) == 0)
					state = JIT_COMPILED;
			}
			api.destroy(&prog);
		}
	}
	catch (...)
	{
		if (prog)
			api.destroy(&prog);
		state = JIT_FAILED;
	}
	e->compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

	std::lock_guard<std::mutex> g(J->mu);

	if (state == JIT_COMPILED)
	{
		J->compiled++;
		J->compile_ms += e->compile_ms;
	}
	else
	{
		J->failed++;
		J->last_log = e->log.empty() ? std::string("NVRTC failed") : e->log;
	}
	e->state.store(state);
}

/* background compilation: the thread blocks every signal (the service's) */
bool
start_thread(std::shared_ptr<jit_entry> e, const std::string &src, const std::string &arch,
			 const nvrtc_api &api)
{
	sigset_t	all,
				old;
	bool		ok = true;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	try
	{
		std::thread t([e, src, arch, api] {
			compile(e, src, arch, api);
			std::lock_guard<std::mutex> g(J->mu);
			J->threads--;
		});

		t.detach();
	}
	catch (...)
	{
		ok = false;
	}
	pthread_sigmask(SIG_SETMASK, &old, nullptr);
	return ok;
}

/* load the cubin of a compiled entry (the CUDA context's thread) */
void
load(jit_entry *e)
{
	if (cudaLibraryLoadData(&e->lib, e->cubin.data(), nullptr, nullptr, 0,
							nullptr, nullptr, 0) != cudaSuccess ||
		cudaLibraryGetKernel(&e->kernel, e->lib, "gx_filter_jit") != cudaSuccess)
	{
		cudaGetLastError();
		if (e->lib)
			cudaLibraryUnload(e->lib);
		e->lib = nullptr;
		e->kernel = nullptr;
		e->state.store(JIT_FAILED);
		return;
	}
	std::vector<char>().swap(e->cubin);
	e->state.store(JIT_READY);
}

/*
 * The library's kernel is context independent, but a function attribute
 * is set per device: as the interpreter's, a filter block's dynamic shared
 * memory may hold a group table and the sets' top keys.  Set once for
 * each GPU the kernel runs on (the current one); false if it fails.
 */
bool
on_device(jit_entry *e)
{
	int			dev = 0;

	if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 32)
	{
		cudaGetLastError();
		return false;
	}
	if (e->devices & (1u << dev))
		return true;
	if (cudaKernelSetAttributeForDevice(e->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
										GX_FILTER_SMEM_MAX, dev) != cudaSuccess)
	{
		cudaGetLastError();
		return false;
	}
	e->devices |= 1u << dev;
	return true;
}

}								/* namespace */

int
gx_jit_open(int cc_major, int cc_minor)
{
	try
	{
		if (!J)
			J = new jit_globals();
		std::lock_guard<std::mutex> g(J->mu);
		char		a[32];

		snprintf(a, sizeof(a), "-arch=sm_%d%d", cc_major, cc_minor);
		/* the first GPU sets the architecture; others of another run interpreted */
		if (J->arch.empty() && !J->quiesced)
			J->arch = a;
		return J->arch == a ? 1 : 0;
	}
	catch (...)
	{
		return 0;
	}
}

const void *
gx_jit_kernel(const gx_chunk *c, int wait)
{
	try
	{
		if (!J || J->arch.empty())
			return nullptr;

		std::string key;
		std::string src;
		std::shared_ptr<jit_entry> e;
		bool		compile_here = false;

		shape_key(c, key);
		{
			std::lock_guard<std::mutex> g(J->mu);
			auto		it = J->programs.find(key);

			if (it != J->programs.end())
				e = it->second;	/* compiled, being compiled, or refused */
			else
			{
				/* a new shape: its source is only needed to compile it */
				if (J->programs.size() >= GX_JIT_MAX_PROGRAMS || !nvrtc_open(&J->api))
					return nullptr;
				if (!wait && J->threads >= GX_JIT_MAX_THREADS)
					return nullptr;
				if (!generate(c, src))
					return nullptr;
				e = std::make_shared<jit_entry>();
				J->programs.emplace(key, e);
				if (!wait)
				{
					J->threads++;
					if (!start_thread(e, src, J->arch, J->api))
					{
						J->threads--;
						J->programs.erase(key);
					}
					return nullptr;
				}
				compile_here = true;
			}
		}
		/* (an entry another thread compiles stays interpreted meanwhile) */
		if (compile_here)
			compile(e, src, J->arch, J->api);
		if (e->state.load() == JIT_COMPILED)
			load(e.get());
		if (e->state.load() != JIT_READY)
			return nullptr;
		return on_device(e.get()) ? (const void *) e->kernel : nullptr;
	}
	catch (...)
	{
		return nullptr;
	}
}

void
gx_jit_quiesce(int timeout_ms)
{
	if (!J)
		return;
	try
	{
		{
			std::lock_guard<std::mutex> g(J->mu);

			J->arch.clear();	/* gx_jit_kernel starts no new compilation */
			J->quiesced = true;
		}
		for (int waited = 0; waited < timeout_ms; waited += 5)
		{
			{
				std::lock_guard<std::mutex> g(J->mu);

				if (J->threads == 0)
					return;
			}
			std::this_thread::sleep_for(std::chrono::milliseconds(5));
		}
	}
	catch (...)
	{
	}
}

void
gx_jit_close(void)
{
	if (!J)
		return;
	try
	{
		std::lock_guard<std::mutex> g(J->mu);

		for (auto &p : J->programs)
		{
			jit_entry  *e = p.second.get();

			if (e->state.load() == JIT_READY && e->lib)
				cudaLibraryUnload(e->lib);
			e->lib = nullptr;
			e->kernel = nullptr;
		}
		/* entries still compiling are kept alive by their thread */
		J->programs.clear();
		if (!J->quiesced)
			J->arch.clear();
		J->compiled = J->failed = 0;
		J->compile_ms = 0;
	}
	catch (...)
	{
	}
}

void
gx_jit_stats(uint64_t *compiled, uint64_t *failed, uint64_t *cached, double *compile_ms,
			 char *last_error, size_t errlen)
{
	*compiled = *failed = *cached = 0;
	*compile_ms = 0;
	if (last_error && errlen)
		last_error[0] = '\0';
	if (!J)
		return;
	try
	{
		std::lock_guard<std::mutex> g(J->mu);

		*compiled = J->compiled;
		*failed = J->failed;
		*cached = J->programs.size();
		*compile_ms = J->compile_ms;
		if (last_error && errlen)
			snprintf(last_error, errlen, "%s", J->last_log.c_str());
	}
	catch (...)
	{
	}
}
