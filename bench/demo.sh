#!/usr/bin/env bash
# bench/demo.sh - THE demo of gpuext: build, install, start a throwaway
# cluster with gpuext preloaded, CREATE EXTENSION, list devices, load a
# 2M-row "tablet" table and show plans and timings of three queries with
# gpuext off, on its CPU device and on the GPU (when there is one), checking
# that all answers are equal.  The cluster is removed at the end.
#
# Environment: PG_CONFIG (as test/run.sh), DEMO_ROWS (default 2000000),
# DEMO_PORT (default 54331), GPUEXT_NO_CLEAN=1, DEMO_NO_BUILD=1.

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"

ROWS=${DEMO_ROWS:-2000000}
DB=demo
QDIR=$GX_ROOT/bench/queries
SHOW=(q3 q7 q9)

cleanup() { gx_cluster_stop; gx_cluster_remove; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP PIPE

gx_find_pg_config || exit 1
if [ "${DEMO_NO_BUILD:-0}" != 1 ]; then
    gx_build || { echo "ERROR: build failed"; exit 1; }
    gx_install || { echo "ERROR: make install failed"; exit 1; }
fi
gx_setup_user || exit 1
gx_cluster_init "${DEMO_PORT:-54331}" \
    "shared_buffers = 512MB" \
    "max_worker_processes = 16" \
    "max_parallel_workers = 8" || exit 1
gx_cluster_start || exit 1

gx_psql -d postgres -qc "CREATE DATABASE $DB" || exit 1
echo
echo "### CREATE EXTENSION gpuext; SELECT * FROM gpuext_devices();"
gx_psql -d "$DB" -qc "CREATE EXTENSION gpuext" || exit 1
gx_psql -d "$DB" -c "SELECT * FROM gpuext_devices()" || exit 1
NGPU=$(gx_has_gpu "$DB")

gx_load_tablet "$DB" "$ROWS" || exit 1

NAMES=(off cpu)
TITLES=("gpuext off (plain PostgreSQL)" "gpuext on, CPU device")
OPTS=("-c gpuext.enabled=off"
      "-c gpuext.force=on -c gpuext.device=cpu -c max_parallel_workers_per_gather=0")
if [ "$NGPU" -gt 0 ]; then
    NAMES+=(gpu); TITLES+=("gpuext on, GPU device")
    OPTS+=("-c gpuext.force=on -c gpuext.device=gpu -c max_parallel_workers_per_gather=0")
else
    echo
    echo "(no GPU listed by gpuext_devices(): showing plain PostgreSQL and the CPU device only)"
fi

BAD=0
for q in "${SHOW[@]}"; do
    sql=$(sed 's/;[[:space:]]*$//' "$QDIR/$q.sql")
    ref=""
    for i in "${!NAMES[@]}"; do
        echo
        echo "################ $q - ${TITLES[$i]}   (PGOPTIONS='${OPTS[$i]}')"
        PGOPTIONS="${OPTS[$i]}" gx_psql -d "$DB" <<EOF
\\echo '$sql;'
EXPLAIN $sql;
\\timing on
$sql;
$sql;
EOF
        r=$(PGOPTIONS="${OPTS[$i]}" gx_psql -d "$DB" -At -c "$sql" 2>&1 | tr '\n' ' ')
        if [ -z "$ref" ]; then
            ref=$r
        elif [ "$r" != "$ref" ]; then
            echo "!!!!!!!! MISMATCH: $q returned '$r' with ${NAMES[$i]}, '$ref' with gpuext off !!!!!!!!"
            BAD=1
        fi
    done
done

echo
if [ "$BAD" = 0 ]; then
    echo "==> all configurations returned the same results"
else
    echo "==> MISMATCH: configurations returned different results"
fi
exit "$BAD"
