# gpuext - PostgreSQL extension running SQL filters on NVIDIA GPUs.
# Built by PGXS.  With nvcc on PATH (or NVCC=...) the library carries the
# CUDA kernels (static cudart); without it a CPU-only library is built.

EXTENSION = gpuext
MODULE_big = gpuext
DATA = sql/gpuext--1.0.sql
PGFILEDESC = "gpuext - GPU execution of SQL for PostgreSQL"

# setup creates the differential helpers the other tests use: keep it first
REGRESS = setup types errors plans params chunks mvcc guc parallel cache aggs
REGRESS_OPTS = --inputdir=. --load-extension=gpuext
ISOLATION = mvcc_concurrent cache_concurrent
ISOLATION_OPTS = --load-extension=gpuext

HOST_OBJS = src/gpuext.o src/guc.o src/shmem.o src/service.o src/compile.o src/cache.o src/aggpath.o src/aggscan.o \
	src/planner.o src/gpuscan.o src/parallel.o src/explain.o src/devices.o
CUDA_HOST_OBJS = cuda/gx_cpu.o

PG_CONFIG ?= pg_config
NVCC ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
CUDA_ARCHS ?= 80 90
NVCC_GENCODE = $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) \
	-gencode arch=compute_$(lastword $(CUDA_ARCHS)),code=compute_$(lastword $(CUDA_ARCHS))

ifneq ($(strip $(NVCC)),)
GX_GPU_OBJ = cuda/gx_gpu.o cuda/gx_jit.o
SHLIB_LINK += -L$(CUDA_HOME)/lib64 -lcudart_static -lrt -ldl -lpthread
GX_BUILD_MSG = building gpuext with CUDA ($(NVCC), archs $(CUDA_ARCHS))
else
GX_GPU_OBJ = cuda/gx_gpu_none.o
GX_BUILD_MSG = nvcc not found: building a CPU-only gpuext (no GPU kernels)
endif

OBJS = $(HOST_OBJS) $(CUDA_HOST_OBJS) $(GX_GPU_OBJ)
SHLIB_LINK += -lstdc++ -lpthread

# nvcc objects have no LLVM bitcode: do not ask for JIT inlining files
override with_llvm = no

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

override CXXFLAGS += -std=c++17 -fno-omit-frame-pointer -Wno-missing-field-initializers -Wno-register -Icuda
override CPPFLAGS += -Icuda
NVCCFLAGS ?= -O3 -fmad=false -std=c++17 $(NVCC_GENCODE) -Xcompiler -fPIC -Icuda

$(info $(GX_BUILD_MSG))

GX_KERNEL_HDRS = cuda/gx_eval.cuh cuda/gx_filter.cuh cuda/gx_deform.cuh cuda/gx_cache.cuh \
	cuda/gx_program.h cuda/gx_api.h cuda/gx_jit.h

cuda/gx_gpu.o: cuda/gx_gpu.cu $(GX_KERNEL_HDRS)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

# the sources NVRTC compiles at run time (gx_jit.cu), as C string literals
GX_JIT_SRCS = cuda/gx_program.h cuda/gx_eval.cuh cuda/gx_filter.cuh
cuda/gx_jit_src.inc: $(GX_JIT_SRCS)
	( for f in $(GX_JIT_SRCS); do \
		echo "static const char gx_src_$$(basename $$f | tr '.' '_')[] ="; \
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $$f; \
		echo ";"; \
	done ) > $@

cuda/gx_jit.o: cuda/gx_jit.cu cuda/gx_jit_src.inc $(GX_KERNEL_HDRS)
	$(NVCC) $(NVCCFLAGS) -DGX_CUDA_HOME='"$(CUDA_HOME)"' -c $< -o $@

cuda/gx_cpu.o: cuda/gx_cpu.cpp cuda/gx_eval.cuh cuda/gx_deform.cuh cuda/gx_program.h cuda/gx_api.h
	$(CXX) $(CXXFLAGS) -O2 -ffp-contract=off -fPIC -Icuda -c $< -o $@

$(HOST_OBJS): src/gpuext.h cuda/gx_program.h cuda/gx_api.h

# unit tests of the opcode interpreter (and of the kernels when nvcc exists)
UNIT_BIN = test/unit/test_interp
ifneq ($(strip $(NVCC)),)
UNIT_BIN += test/unit/test_kernel
endif

test/unit/test_interp: test/unit/test_interp.cpp cuda/gx_cpu.cpp cuda/gx_eval.cuh cuda/gx_deform.cuh cuda/gx_program.h cuda/gx_api.h
	$(CXX) -std=c++17 -O2 -ffp-contract=off -Icuda -o $@ test/unit/test_interp.cpp cuda/gx_cpu.cpp -lpthread

test/unit/test_kernel: test/unit/test_kernel.cu cuda/gx_gpu.cu cuda/gx_jit.cu cuda/gx_jit_src.inc cuda/gx_cpu.cpp $(GX_KERNEL_HDRS)
	$(NVCC) -O3 -fmad=false -std=c++17 $(NVCC_GENCODE) -Icuda -DGX_CUDA_HOME='"$(CUDA_HOME)"' -o $@ \
		test/unit/test_kernel.cu cuda/gx_gpu.cu cuda/gx_jit.cu cuda/gx_cpu.cpp -ldl

unittest: $(UNIT_BIN)
	@for t in $(UNIT_BIN); do ./$$t || exit 1; done

EXTRA_CLEAN = $(UNIT_BIN) cuda/*.o cuda/gx_jit_src.inc src/*.o results regression.diffs regression.out

.PHONY: unittest
