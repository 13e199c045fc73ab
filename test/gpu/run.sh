#!/usr/bin/env bash
# test/gpu/run.sh - tests + benchmark on the GPU host (Ubuntu, CUDA, no
# PostgreSQL packages).  Run as root from the checkout:
#
#   test/gpu/run.sh                    # tests, then the benchmark
#   SKIP_BENCH=1 test/gpu/run.sh       # tests only
#   SKIP_TESTS=1 ROWS=10000000 test/gpu/run.sh   # benchmark only
#
# Uses the relocatable PostgreSQL 15 carried at .carry/pgport.tgz (unpacked
# to /tmp/pg/pgport), runs the cluster as OS user "pg".
# Outputs go to ${OUT:-/tmp/out}: test.log, bench.log, bench.md, bench.json,
# explain_q1_*.txt, pgbench logs, nvidia-smi.txt.
# ROWS (default 100000000) is the benchmark table size.

set -u -o pipefail
exec 2>&1

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
OUT=${OUT:-/tmp/out}
export OUT
mkdir -p "$OUT"
PGROOT=/tmp/pg
export ROWS=${ROWS:-100000000}

if [ "$(id -u)" != 0 ]; then
    echo "ERROR: run test/gpu/run.sh as root"
    exit 1
fi

if [ ! -x "$PGROOT/pgport/bin/pg_config" ]; then
    echo "==> unpacking .carry/pgport.tgz into $PGROOT"
    mkdir -p "$PGROOT"
    tar -xzf "$ROOT/.carry/pgport.tgz" -C "$PGROOT" || { echo "ERROR: cannot unpack pgport.tgz"; exit 1; }
fi
id -u pg >/dev/null 2>&1 || useradd -m -s /bin/bash pg || { echo "ERROR: useradd pg failed"; exit 1; }
chown -R pg "$PGROOT"
chmod 755 "$PGROOT"

export PATH=$PGROOT/pgport/bin:/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$PGROOT/pgport/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PG_CONFIG=$PGROOT/pgport/bin/pg_config
export GPUEXT_TEST_USER=pg

{
    echo "==> $(date -u)  $(uname -a)"
    nvidia-smi 2>&1 || echo "nvidia-smi not available"
    command -v nvcc && nvcc --version
    "$PG_CONFIG" --version
} | tee "$OUT/nvidia-smi.txt"

rc=0
if [ "${SKIP_TESTS:-0}" != 1 ]; then
    GPUEXT_DEVICE=gpu test/run.sh 2>&1 | tee "$OUT/test.log"
    rc=${PIPESTATUS[0]}
    cp -f regression.diffs "$OUT/" 2>/dev/null
    # the same suite with zero-copy transfers, every filter running its
    # compiled kernel (jit_wait) (TEST_MAPPED=0 skips it)
    if [ "${TEST_MAPPED:-1}" = 1 ]; then
        GPUEXT_DEVICE=gpu GPUEXT_TRANSFER=mapped GPUEXT_JIT_WAIT=1 GPUEXT_NO_CLEAN=1 test/run.sh >"$OUT/test_mapped.log" 2>&1
        mrc=$?
        cp -f regression.diffs "$OUT/regression_mapped.diffs" 2>/dev/null
        echo "==> the suite with gpuext.transfer = mapped, gpuext.jit_wait = on: $(tail -n 1 "$OUT/test_mapped.log")" | tee -a "$OUT/test.log"
        [ "$rc" = 0 ] && rc=$mrc
    fi
    # test/run.sh built and installed gpuext: the benchmark need not rebuild
    export BENCH_BUILD=${BENCH_BUILD:-0}
fi

if [ "${SKIP_BENCH:-0}" != 1 ]; then
    BENCH_START=1 bench/run.sh 2>&1 | tee "$OUT/bench.log"
    brc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] && rc=$brc
fi

# at most 8 files come back from the GPU host: keep the main ones, pack the rest
(cd "$OUT" && ls | grep -vxE 'test\.log|bench\.(log|md|json)|nvidia-smi\.txt|explain_q1_gpu(_1m)?\.txt|extra\.tgz' |
    tar -czf extra.tgz -T - --remove-files 2>/dev/null)
echo "==> outputs in $OUT:"
ls -l "$OUT"
if [ "${SKIP_TESTS:-0}" != 1 ]; then
    tail -n 1 "$OUT/test.log"
fi
exit "$rc"
