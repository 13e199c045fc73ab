# gpuext - PostgreSQL extension running SQL filters on NVIDIA GPUs.
# Built by PGXS.  With nvcc on PATH (or NVCC=...) the library carries the
# CUDA kernels (static cudart); without it a CPU-only library is built.

EXTENSION = gpuext
MODULE_big = gpuext
DATA = sql/gpuext--1.0.sql sql/gpuext--1.6.sql \
	sql/gpuext--1.0--1.1.sql sql/gpuext--1.1--1.2.sql sql/gpuext--1.2--1.3.sql sql/gpuext--1.3--1.4.sql \
	sql/gpuext--1.4--1.5.sql sql/gpuext--1.5--1.6.sql sql/gpuext--1.6--1.7.sql sql/gpuext--1.7--1.8.sql
PGFILEDESC = "gpuext - GPU execution of SQL for PostgreSQL"

# setup creates the differential helpers the other tests use: keep it first
REGRESS = setup types errors plans params crosstype numeric numeric_free char8 datetime_expr search_sets chunks mvcc guc parallel cache aggs preagg preagg_more preagg_float preagg_var gpujoin gpujoin_outer gpujoin_band gpujoin_inputs gpujoin_gather gpujoin_chain gpujoin_merge gpujoin_parallel gpujoin_parts gpujoin_filter gpujoin_agg gpujoin_levels cursors stat engine multidevice multidevice_preagg multidevice_join ptree ptree_lookup shared_objects sorted_projection upgrade
REGRESS_OPTS = --inputdir=. --load-extension=gpuext
ISOLATION = mvcc_concurrent cache_concurrent cache_refresh preagg_concurrent engine_concurrent service_kill ptree_concurrent shared_objects_concurrent sorted_projection_concurrent
ISOLATION_OPTS = --load-extension=gpuext

# src/: the PostgreSQL side, one folder per concern (docs/architecture.md)
HOST_OBJS = src/module/gpuext.o src/module/guc.o \
	src/engine/shmem.o src/engine/session.o src/engine/service.o src/engine/devices.o src/engine/views.o src/engine/shared_objects.o \
	src/compiler/compile.o src/compiler/types.o src/compiler/runs.o \
	src/planner/scan_path.o src/planner/agg_path.o src/planner/join_path.o src/planner/join_agg_path.o src/planner/join_levels_path.o src/planner/join_gather_path.o \
	src/executor/gpuscan.o src/executor/source_heap.o src/executor/source_cache.o src/executor/aggscan.o src/executor/preagg.o src/executor/partial_states.o src/executor/parallel.o src/executor/explain.o src/executor/scroll.o src/executor/scan_sets.o src/executor/scan_stats.o src/executor/gpujoin.o src/executor/join_table.o src/executor/join_inputs.o src/executor/join_explain.o src/executor/join_parallel.o src/executor/join_parts.o src/executor/join_filter.o src/executor/join_agg.o src/executor/join_dict.o src/executor/join_levels.o src/executor/join_replicas.o src/executor/join_devparts.o src/executor/join_gather.o \
	src/cache/directory.o src/cache/blocks.o src/cache/load.o src/cache/info.o src/cache/worker.o src/cache/projection.o \
	src/index/ptree_handler.o src/index/ptree_page.o src/index/ptree_key.o src/index/ptree_build.o src/index/ptree_insert.o src/index/ptree_scan.o src/index/ptree_vacuum.o src/index/ptree_cost.o src/index/ptree_check.o src/index/ptree_device.o src/index/ptree_lookup.o
# cuda/: the devices (no PostgreSQL header); include/ is the C API shared with src/
# ops/: the operator table and its validators, shared by both devices (gx_ops.h)
CUDA_OPS_SRCS = cuda/ops/gx_ops.cpp cuda/ops/gx_validate.cpp
CUDA_HOST_OBJS = cuda/cpu/gx_cpu.o cuda/cpu/gx_sort.o $(CUDA_OPS_SRCS:.cpp=.o)
GX_INCLUDES = -Isrc/include -Icuda/include -Icuda/kernels -Icuda/gpu

PG_CONFIG ?= pg_config
NVCC ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
CUDA_ARCHS ?= 80 90
NVCC_GENCODE = $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) \
	-gencode arch=compute_$(lastword $(CUDA_ARCHS)),code=compute_$(lastword $(CUDA_ARCHS))

ifneq ($(strip $(NVCC)),)
GX_GPU_OBJ = cuda/gpu/gx_gpu.o cuda/gpu/gx_gpu_device.o cuda/gpu/gx_jit.o
SHLIB_LINK += -L$(CUDA_HOME)/lib64 -lcudart_static -lrt -ldl -lpthread
GX_BUILD_MSG = building gpuext with CUDA ($(NVCC), archs $(CUDA_ARCHS))
else
GX_GPU_OBJ = cuda/gpu/gx_gpu_none.o
GX_BUILD_MSG = nvcc not found: building a CPU-only gpuext (no GPU kernels)
endif

OBJS = $(HOST_OBJS) $(CUDA_HOST_OBJS) $(GX_GPU_OBJ)
SHLIB_LINK += -lstdc++ -lpthread

# set before PGXS is included, which reads it (make clean removes these too)
EXTRA_CLEAN = test/unit/test_interp test/unit/test_kernel cuda/gpu/gx_jit_src.inc \
	src/*/*.o cuda/*/*.o results regression.diffs regression.out output_iso

# nvcc objects have no LLVM bitcode: do not ask for JIT inlining files
override with_llvm = no

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

override CXXFLAGS += -std=c++17 -fno-omit-frame-pointer -Wno-missing-field-initializers -Wno-register $(GX_INCLUDES)
override CPPFLAGS += $(GX_INCLUDES)
NVCCFLAGS ?= -O3 -fmad=false -std=c++17 $(NVCC_GENCODE) -Xcompiler -fPIC $(GX_INCLUDES)

$(info $(GX_BUILD_MSG))

GX_KERNEL_HDRS = $(wildcard cuda/kernels/*.cuh cuda/include/*.h cuda/gpu/*.h)

cuda/gpu/gx_gpu.o: cuda/gpu/gx_gpu.cu $(GX_KERNEL_HDRS)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

cuda/gpu/gx_gpu_device.o: cuda/gpu/gx_gpu_device.cu $(GX_KERNEL_HDRS)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

# the sources NVRTC compiles at run time (gx_jit.cu), as C string literals
GX_JIT_SRCS = cuda/include/gx_program.h cuda/kernels/gx_bitmap.cuh cuda/kernels/gx_eval.cuh \
	cuda/kernels/gx_sets.cuh cuda/kernels/gx_group.cuh cuda/kernels/gx_filter.cuh
cuda/gpu/gx_jit_src.inc: $(GX_JIT_SRCS)
	( for f in $(GX_JIT_SRCS); do \
		echo "static const char gx_src_$$(basename $$f | tr '.' '_')[] ="; \
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $$f; \
		echo ";"; \
	done ) > $@

cuda/gpu/gx_jit.o: cuda/gpu/gx_jit.cu cuda/gpu/gx_jit_src.inc $(GX_KERNEL_HDRS)
	$(NVCC) $(NVCCFLAGS) -DGX_CUDA_HOME='"$(CUDA_HOME)"' -c $< -o $@

cuda/cpu/gx_cpu.o: cuda/cpu/gx_cpu.cpp $(GX_KERNEL_HDRS)
	$(CXX) $(CXXFLAGS) -O2 -ffp-contract=off -fPIC $(GX_INCLUDES) -c $< -o $@

cuda/cpu/gx_sort.o: cuda/cpu/gx_sort.cpp cuda/include/gx_sort.h
	$(CXX) $(CXXFLAGS) -O2 -fPIC $(GX_INCLUDES) -c $< -o $@

cuda/ops/%.o: cuda/ops/%.cpp $(GX_KERNEL_HDRS)
	$(CXX) $(CXXFLAGS) -O2 -fPIC $(GX_INCLUDES) -c $< -o $@

cuda/gpu/gx_gpu_none.o: cuda/gpu/gx_gpu_none.cpp $(GX_KERNEL_HDRS)
	$(CXX) $(CXXFLAGS) -O2 -fPIC $(GX_INCLUDES) -c $< -o $@

$(HOST_OBJS): $(wildcard src/include/*.h) cuda/include/gx_program.h cuda/include/gx_api.h

# unit tests of the opcode interpreter and the CPU device (a CPU-only build:
# gx_gpu_none.cpp), and of the kernels against the CPU device when nvcc exists
UNIT_BIN = test/unit/test_interp
ifneq ($(strip $(NVCC)),)
UNIT_BIN += test/unit/test_kernel
endif

test/unit/test_interp: test/unit/test_interp.cpp test/unit/gx_test.h test/unit/gx_test_ptree.h test/unit/gx_sets_test.h cuda/cpu/gx_cpu.cpp cuda/cpu/gx_sort.cpp cuda/gpu/gx_gpu_none.cpp $(CUDA_OPS_SRCS) $(GX_KERNEL_HDRS)
	$(CXX) -std=c++17 -O2 -ffp-contract=off -Wall $(GX_INCLUDES) -o $@ test/unit/test_interp.cpp \
		cuda/cpu/gx_cpu.cpp cuda/cpu/gx_sort.cpp cuda/gpu/gx_gpu_none.cpp $(CUDA_OPS_SRCS) -lpthread

test/unit/test_kernel: test/unit/test_kernel.cu test/unit/gx_test.h test/unit/gx_test_ptree.h test/unit/gx_sets_test.h cuda/gpu/gx_gpu.cu cuda/gpu/gx_gpu_device.cu cuda/gpu/gx_jit.cu cuda/gpu/gx_jit_src.inc cuda/cpu/gx_cpu.cpp $(CUDA_OPS_SRCS) $(GX_KERNEL_HDRS)
	$(NVCC) -O3 -fmad=false -std=c++17 $(NVCC_GENCODE) $(GX_INCLUDES) -DGX_CUDA_HOME='"$(CUDA_HOME)"' -o $@ \
		test/unit/test_kernel.cu cuda/gpu/gx_gpu.cu cuda/gpu/gx_gpu_device.cu cuda/gpu/gx_jit.cu cuda/cpu/gx_cpu.cpp \
		$(CUDA_OPS_SRCS) -ldl -lpthread

unittest: $(UNIT_BIN)
	@for t in $(UNIT_BIN); do ./$$t || exit 1; done


.PHONY: unittest
