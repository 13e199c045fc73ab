#!/usr/bin/env bash
# test/nodes.sh - several throwaway clusters in one test script
# (test/sharding.sh, test/standby.sh): sourced after test/lib.sh, with
# DEVICE set.  Each node is a cluster of test/lib.sh's functions whose
# globals use_node switches; the EXIT trap stops and removes them all and
# prints the runner line "N passed, M failed".

PASSED=0
FAILED=0
NODES=()
declare -A N_BASE N_DATA N_SOCK N_PORT

# the globals of test/lib.sh's cluster functions, for node $1
use_node() {
    GX_BASE=${N_BASE[$1]}; GX_DATA=${N_DATA[$1]}; GX_SOCK=${N_SOCK[$1]}; GX_PORT=${N_PORT[$1]}
    GX_LOG=$GX_BASE/server.log
    export PGHOST=$GX_SOCK PGPORT=$GX_PORT PGUSER=$GX_USER
}

finish() {
    local n
    for n in "${NODES[@]}"; do
        use_node "$n"
        gx_cluster_stop
        gx_cluster_remove
    done
    NODES=()
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" = 0 ] || exit 1
}

# the libpq of this PostgreSQL for its modules (postgres_fdw, the
# walreceiver): a relocatable build's modules do not find it by themselves,
# and another version's libpq may not serve them
node_libpq() {
    LD_LIBRARY_PATH="$("$PG_CONFIG" --libdir)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export LD_LIBRARY_PATH
}
trap finish EXIT
trap 'exit 130' INT TERM HUP PIPE

# start_node NAME PORT [settings...]: a cluster with gpuext preloaded
# (gpuext.device = $DEVICE), CREATE EXTENSION
start_node() {
    local name=$1 port=$2
    shift 2
    gx_cluster_init "$port" "gpuext.device = '$DEVICE'" "gpuext.staging_size = 64" \
        "max_worker_processes = 8" "$@" || return 1
    N_BASE[$name]=$GX_BASE; N_DATA[$name]=$GX_DATA; N_SOCK[$name]=$GX_SOCK; N_PORT[$name]=$GX_PORT
    NODES+=("$name")
    gx_cluster_start || return 1
    gx_psql -d postgres -qc "CREATE EXTENSION gpuext" || return 1
}

# check NAME GOT WANT: one test case
check() {
    if [ "$2" = "$3" ]; then
        PASSED=$((PASSED + 1))
        echo "ok   $1"
    else
        FAILED=$((FAILED + 1))
        echo "FAIL $1"
        echo "     got:  $2"
        echo "     want: $3"
    fi
}

