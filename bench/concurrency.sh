#!/usr/bin/env bash
# bench/concurrency.sh - the column cache under many clients (issue 12):
# read queries served from the device cache while other clients update the
# table, against the same workload with gpuext off; and the OLTP cost of
# keeping a table in the cache (TPC-B).  Prints figures; a timing never
# makes it fail.
#
#   CONC_ROWS=300000 CONC_SECONDS=5 CONC_CLIENTS=8 bench/concurrency.sh   # smoke run, any host
#   GPUEXT_DEVICE=gpu bench/concurrency.sh                                # GPU host, 20M rows
#   bench/concurrency.sh --help                                           # this text
#
# The table ct(id int8 primary key, a int4, b int4, f float8) of CONC_ROWS
# rows (a, b uniform in [0, 1000000), f uniform in [0, 1)), VACUUMed (all
# blocks all-visible) and loaded with gpuext_cache_load('ct').  Read
# queries (two pgbench scripts, chosen at random with equal weight):
#   q1  SELECT count(*), sum(b) FROM ct WHERE a BETWEEN :x AND :x + 1000   (~0.1% of the rows)
#   q2  SELECT count(*) FROM ct WHERE b % 97 = :y AND f < 0.5               (~0.5%)
# Update: UPDATE ct SET b = b + 1 WHERE id = :id (a random row), wrapped in
# SET gpuext.force = off / RESET gpuext.force: with gpuext.force on the
# planner would give the UPDATE a zero-cost GpuScan (a whole-table scan)
# instead of the primary key's index scan.
#
# Workloads (CONC_WORKLOADS, default "ro rate1 rate10 rate100 mix"), each
# CONC_SECONDS long with CONC_CLIENTS read clients:
#   ro       read-only
#   rateN    reads, plus N single-row updates a second per read client: a
#            second pgbench runs alongside the read pgbench, with
#            CONC_UPDATE_CLIENTS clients and --rate = CONC_CLIENTS x N
#            (the total rate, shared by its clients); the read figures come
#            from the read pgbench, the achieved update rate from the other
#   mix      one pgbench with weighted scripts: q1@6 q2@6 update@1, i.e.
#            1 update per 13 transactions (CONC_MIX_READS reads to 1)
# Each workload runs in two modes, gpuext off first:
#   off      PGOPTIONS "-c gpuext.enabled=off" (PostgreSQL's plans, its
#            default parallel query included)
#   gpu      "-c gpuext.force=on -c gpuext.device=$GPUEXT_DEVICE
#            -c gpuext.use_cache=on -c max_parallel_workers_per_gather=0"
#            (a parallel GpuScan does not read the cache; bench/lib.sh's
#            "GPU cached" configuration sets the same)
# Before every run: CHECKPOINT (with synchronous_commit = off the last
# commits may not be flushed yet, and VACUUM cannot mark their blocks
# all-visible before), VACUUM (INDEX_CLEANUP ON) ct (by default VACUUM
# skips the index pass when under 2% of the pages have dead items, and
# those pages stay not all-visible), gpuext_cache_load('ct') (again until
# every row is cached, at most 3 times), in gpu mode each read query once
# with gpuext.jit_wait = on (its compiled kernel ready), then
# gpuext_stat_reset().  So every run starts from a fully cached table.
#
# Per run: tps, read-query latency p50 / p99 (pgbench -l per-transaction
# logs, percentiles by bench/conc_report.py), the update rate achieved, and
# from gpuext_stat (relation ct) the share of rows read from the cache
# (cache_rows / rows_in: stale blocks' rows come from the heap), the chunks
# read from the cache against all chunks, and the entries that could not be
# used at all.  The cache's state (gpuext_cache: ready, partly valid, not
# valid) after the run shows what the updates left of it.
#
# TPC-B (CONC_TPCB=1): pgbench -i -s TPCB_SCALE tables in their own
# database, CONC_TPCB_PAIRS pairs of runs alternating off, cached: "off"
# runs TPC-B with gpuext.enabled = off and nothing cached; "cached" loads
# pgbench_accounts into the cache (gpuext enabled at its defaults, no
# force) and runs TPC-B.  Before every run the database is made anew
# (pgbench -i, CREATE EXTENSION gpuext, VACUUM ANALYZE, TPCB_WARMUP s of
# warm-up, CHECKPOINT, VACUUM (INDEX_CLEANUP ON); then the load in cached
# runs), as bench/lib.sh's bench_tpcb does (its preload on/off pairing is
# bench/tpcb.sh's subject; here gpuext stays preloaded).  Reports the
# median tps of each side and the ratio cached / off (1.000: keeping the
# cache costs writers nothing).
#
# Environment:
#   CONC_ROWS            rows of ct (default 20000000 when nvidia-smi lists a
#                        GPU, else 2000000)
#   CONC_SECONDS         seconds a run (default 30)
#   CONC_CLIENTS         read clients (default 64)
#   CONC_THREADS         pgbench -j of the read pgbench (default: cores, at
#                        most CONC_CLIENTS)
#   CONC_UPDATE_CLIENTS  clients of the update pgbench of rateN (default
#                        CONC_CLIENTS, at most 16); its -j: at most CONC_THREADS
#   CONC_WORKLOADS       default "ro rate1 rate10 rate100 mix"
#   CONC_STAGING_MB      gpuext.staging_size (default 1024: 64 slots of 16 MB,
#                        so that 64 clients' cached chunks need not queue for one)
#   CONC_MODES           default "off gpu"
#   CONC_MIX_READS       reads per update in the mix (default 12)
#   CONC_PROTOCOL        pgbench -M (default prepared)
#   CONC_OFF_OPTS / CONC_GPU_OPTS   the modes' PGOPTIONS (defaults above)
#   GPUEXT_DEVICE        gpu or cpu (default cpu); the cache lives on the GPU
#                        whenever the service found one, so use gpu there
#   CONC_TPCB            1 (default): the TPC-B part; 0: none
#   CONC_TPCB_PAIRS      off/cached pairs (default 3)
#   CONC_TPCB_SECONDS    seconds a TPC-B run (default 20)
#   TPCB_SCALE (10), TPCB_CLIENTS (8; -j the same, at most the cores),
#   TPCB_WARMUP (2)      as in bench/tpcb.sh
#   CONC_BUDGET_S        0 (default): no limit; else the seconds the whole
#                        script may take: after the table is loaded, runs
#                        are shortened (to 5 s at least) so that all fit,
#                        from the measured time of a cache reload
#   CONC_JSON            the JSON (default bench/results/concurrency.json of
#                        this checkout; bench/results/ is git-ignored)
#   OUT                  output dir (default /tmp/out): concurrency.txt (the
#                        table), concurrency_logs/ (pgbench output, plans,
#                        facts); CONC_KEEP_LOGS=1 keeps the per-transaction
#                        logs there too (else removed after each run)
#   BENCH_PORT           port of the own cluster (default 54337)
#   BENCH_BUILD          as bench/run.sh (1: build and install first)
#   PG_CONFIG            as test/run.sh
# Exit status: 0; 1 when the set-up failed (cluster, table, cache load).

set -u -o pipefail

if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
    sed -n '2,/^$/{/^#/!q;s/^# \{0,1\}//;p}' "$0"
    exit 0
fi
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

T0=$SECONDS
if [ -z "${CONC_ROWS:-}" ]; then
    if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then CONC_ROWS=20000000; else CONC_ROWS=2000000; fi
fi
ROWS=$CONC_ROWS
SECS=${CONC_SECONDS:-30}
CLIENTS=${CONC_CLIENTS:-64}
THREADS=${CONC_THREADS:-$(gx_nproc)}
[ "$THREADS" -gt "$CLIENTS" ] && THREADS=$CLIENTS
UCLIENTS=${CONC_UPDATE_CLIENTS:-$CLIENTS}
[ -z "${CONC_UPDATE_CLIENTS:-}" ] && [ "$UCLIENTS" -gt 16 ] && UCLIENTS=16
UTHREADS=$THREADS
[ "$UTHREADS" -gt "$UCLIENTS" ] && UTHREADS=$UCLIENTS
WORKLOADS=${CONC_WORKLOADS:-ro rate1 rate10 rate100 mix}
MODES=${CONC_MODES:-off gpu}
MIX_READS=${CONC_MIX_READS:-12}
PROTO=${CONC_PROTOCOL:-prepared}
DEV=${GPUEXT_DEVICE:-cpu}
OFF_OPTS=${CONC_OFF_OPTS:--c gpuext.enabled=off}
GPU_OPTS=${CONC_GPU_OPTS:--c gpuext.force=on -c gpuext.device=$DEV -c gpuext.use_cache=on -c max_parallel_workers_per_gather=0}
TPCB_PAIRS=${CONC_TPCB_PAIRS:-3}
TPCB_SECS=${CONC_TPCB_SECONDS:-20}
BUDGET=${CONC_BUDGET_S:-0}
OUT=${OUT:-/tmp/out}
LOGS=$OUT/concurrency_logs
JSON=${CONC_JSON:-$GX_ROOT/bench/results/concurrency.json}
DB=conc
AMAX=1000000                   # a and b are uniform in [0, AMAX)
mkdir -p "$OUT" "$LOGS" "$(dirname "$JSON")" || exit 1
FACTS=$LOGS/facts.tsv
: >"$FACTS"
SQLDIR=$(mktemp -d /tmp/gx_conc_sql.XXXXXX) || exit 1
chmod 755 "$SQLDIR"

bench_on_exit 'rm -rf "$SQLDIR"'

# fact KIND FIELDS...: one tab-separated line of the facts file
fact() { local IFS=$'\t'; printf '%s\n' "$*" >>"$FACTS"; }

# is WORKLOAD a known one?  Sets WL_RATE (updates a second per client of
# rateN, else empty)
wl_parse() {
    WL_RATE=""
    case "$1" in
        ro|mix) return 0 ;;
        rate*) WL_RATE=${1#rate}
               case "$WL_RATE" in ''|*[!0-9]*) return 1 ;; esac
               [ "$WL_RATE" -gt 0 ] ;;
        *) return 1 ;;
    esac
}
for wl in $WORKLOADS; do
    wl_parse "$wl" || { echo "ERROR: unknown workload '$wl' in CONC_WORKLOADS (ro, rateN, mix)"; exit 1; }
done
for m in $MODES; do
    case "$m" in off|gpu) ;; *) echo "ERROR: unknown mode '$m' in CONC_MODES (off, gpu)"; exit 1 ;; esac
done
NRUNS=$(( $(echo "$WORKLOADS" | wc -w) * $(echo "$MODES" | wc -w) ))

# --- pgbench scripts --------------------------------------------------------
Q1="SELECT count(*), sum(b) FROM ct WHERE a BETWEEN :x AND :x + 1000"
Q2="SELECT count(*) FROM ct WHERE b % 97 = :y AND f < 0.5"
UPD="UPDATE ct SET b = b + 1 WHERE id = :id"
printf '%s\n' "\\set x random(0, $((AMAX - 1001)))" "$Q1;" >"$SQLDIR/q1.sql"
printf '%s\n' "\\set y random(0, 96)" "$Q2;" >"$SQLDIR/q2.sql"
printf '%s\n' "\\set id random(1, $ROWS)" "SET gpuext.force = off;" "$UPD;" "RESET gpuext.force;" >"$SQLDIR/update.sql"
chmod 644 "$SQLDIR"/*.sql
W1=$(( (MIX_READS + 1) / 2 )); W2=$(( MIX_READS - W1 ))

# --- cluster and table --------------------------------------------------------
gx_find_pg_config || exit 1
bench_ensure_installed || exit 1
gx_setup_user || exit 1
# cache: entries of at most ~4M rows (128 MB each) for ct, one for
# pgbench_accounts, room for a reload: (ceil(rows / 4M) + 3) x 128 MB
CACHE_MB=$(( ( (ROWS + 4000000 - 1) / 4000000 + 3) * 128 ))
[ "$CACHE_MB" -lt 1024 ] && CACHE_MB=1024
MAXCONN=$(( CLIENTS + UCLIENTS + 20 ))
[ "$MAXCONN" -lt 100 ] && MAXCONN=100
TPCB_C=${TPCB_CLIENTS:-8}
[ "$MAXCONN" -lt $((TPCB_C + 20)) ] && MAXCONN=$((TPCB_C + 20))
bench_cluster_init "${BENCH_PORT:-54337}" "$ROWS" \
    "gpuext.cache_size = ${CACHE_MB}MB" \
    "gpuext.staging_size = ${CONC_STAGING_MB:-1024}MB" \
    "gpuext.device = $DEV" \
    "max_connections = $MAXCONN" || exit 1
gx_cluster_start || exit 1
gx_psql -d postgres -qc "CREATE DATABASE $DB" || exit 1
gx_psql -d "$DB" -qc "CREATE EXTENSION gpuext" || exit 1
DEVICES=$(gx_psql -d "$DB" -At -c "SELECT string_agg(kind || ': ' || name, '; ') FROM gpuext_devices()")
gx_log "devices: $DEVICES; gpuext.device = $DEV"

# ct: loaded in parallel sessions (at most 16), then the primary key
load_ct() {
    local jobs chunk i lo hi pids="" p rc=0 t0=$SECONDS
    jobs=$(gx_nproc); [ "$jobs" -gt 16 ] && jobs=16
    [ "$ROWS" -lt 200000 ] && jobs=1
    gx_log "loading ct: $ROWS rows in $jobs sessions"
    gx_psql -d "$DB" -qc "CREATE TABLE ct(id int8, a int4, b int4, f float8)" || return 1
    chunk=$(( (ROWS + jobs - 1) / jobs ))
    for ((i = 0; i < jobs; i++)); do
        lo=$(( i * chunk + 1 )); hi=$(( (i + 1) * chunk ))
        [ "$hi" -gt "$ROWS" ] && hi=$ROWS
        [ "$lo" -gt "$hi" ] && continue
        gx_psql -d "$DB" -qc "INSERT INTO ct SELECT g, (random() * $AMAX)::int4 % $AMAX, (random() * $AMAX)::int4 % $AMAX, random() FROM generate_series($lo::int8, $hi::int8) g" &
        pids="$pids $!"
    done
    for p in $pids; do wait "$p" || rc=1; done
    [ "$rc" = 0 ] || { echo "ERROR: loading ct failed"; return 1; }
    PGOPTIONS="-c maintenance_work_mem=1GB" gx_psql -d "$DB" -qc "ALTER TABLE ct ADD PRIMARY KEY (id)" || return 1
    gx_psql -d "$DB" -qc "CHECKPOINT" -c "VACUUM (FREEZE, ANALYZE) ct" || return 1
    gx_log "ct loaded in $((SECONDS - t0)) s ($(gx_psql -d "$DB" -At -c "SELECT pg_size_pretty(pg_table_size('ct'))"))"
}
load_ct || exit 1

# cache_state DB TABLE: "state rows entries" of TABLE in gpuext_cache
cache_state() {
    gx_psql -d "$1" -At -F ' ' -c "SELECT replace(state, ' ', '_'), rows, chunks FROM gpuext_cache WHERE \"table\" = '$2'::regclass" 2>/dev/null | head -n 1
}

# reload DB TABLE WANT: CHECKPOINT, VACUUM, gpuext_cache_load until WANT
# rows are cached (at most 3 attempts).  Sets RL_ROWS (rows cached),
# RL_TRIES; returns 1 when the load itself failed.
reload() {
    local db=$1 tbl=$2 want=$3 out
    RL_ROWS=0; RL_TRIES=0
    while [ "$RL_TRIES" -lt 3 ]; do
        RL_TRIES=$((RL_TRIES + 1))
        if [ "$RL_TRIES" = 1 ]; then
            gx_psql -d "$db" -qc "CHECKPOINT" -c "VACUUM (INDEX_CLEANUP ON) $tbl" || return 1
        else
            # again: what holds the blocks back goes to reload_diag.log
            {
                echo "# $(date -u +%T) $db.$tbl: $RL_ROWS of $want rows cached, load $RL_TRIES"
                gx_psql -d "$db" -c "SELECT pid, backend_type, state, backend_xmin, backend_xid, left(query, 60) AS query FROM pg_stat_activity WHERE backend_xmin IS NOT NULL OR backend_xid IS NOT NULL"
                gx_psql -d "$db" -qc "CHECKPOINT" -c "VACUUM (VERBOSE, INDEX_CLEANUP ON) $tbl"
            } >>"$LOGS/reload_diag.log" 2>&1 || return 1
        fi
        if ! out=$(PGOPTIONS="-c gpuext.device=$DEV -c client_min_messages=warning" gx_psql -d "$db" -At -c "SELECT gpuext_cache_load('$tbl')" 2>&1); then
            echo "ERROR: gpuext_cache_load('$tbl') failed: $out"
            [ "$DEV" = cpu ] && echo "HINT: the cache lives on the GPU when the service found one: set GPUEXT_DEVICE=gpu"
            return 1
        fi
        RL_ROWS=$(echo "$out" | tail -n 1)
        [ "$RL_ROWS" -ge "$want" ] 2>/dev/null && return 0
        sleep 1
    done
    gx_warn "$tbl: $RL_ROWS of $want rows cached after $RL_TRIES loads"
    return 0
}

# time a first reload: the per-run overhead for CONC_BUDGET_S
t_rl=$SECONDS
reload "$DB" ct "$ROWS" || exit 1
RELOAD_S=$(( SECONDS - t_rl + 2 ))
gx_log "ct cached: $RL_ROWS rows ($(cache_state "$DB" ct)); a VACUUM + reload takes ~$((RELOAD_S - 2)) s"

if [ "$BUDGET" != 0 ]; then
    # TPC-B: per run warm-up + seconds + ~8 s for pgbench -i and the rest
    tpcb_est=0
    [ "${CONC_TPCB:-1}" = 1 ] && tpcb_est=$(( 2 * TPCB_PAIRS * (TPCB_SECS + ${TPCB_WARMUP:-2} + 8) + 10 ))
    fit=$(( (BUDGET - (SECONDS - T0) - tpcb_est - 15) / NRUNS - RELOAD_S - 3 ))
    [ "$fit" -lt 5 ] && fit=5
    if [ "$fit" -lt "$SECS" ]; then
        gx_log "runs shortened to $fit s (CONC_SECONDS=$SECS does not fit CONC_BUDGET_S=$BUDGET: $NRUNS runs, ~$tpcb_est s of TPC-B)"
        SECS=$fit
    fi
fi
gx_log "$NRUNS runs of $SECS s ($WORKLOADS; $MODES), about $(( NRUNS * (SECS + RELOAD_S + 3) )) s"

# --- one run ------------------------------------------------------------------
# pgbench_tps LOG: the tps line of a pgbench output
pgbench_tps() { sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$1" | tail -n 1; }

# pgbench_problems LOG: the lines of a pgbench output that say something
# went wrong (errors, warnings, aborted clients, failed transactions)
pgbench_problems() {
    grep -iE 'error|warning|abort|fatal|number of failed transactions: [1-9]' "$1"
}

# run_one WORKLOAD MODE
run_one() {
    local wl=$1 mode=$2 opts tag rlog ulog lat upid urc=0 rrc tps ntot
    local rate="" target="" method stat key val ok=1 plan
    wl_parse "$wl"; rate=$WL_RATE
    if [ "$mode" = off ]; then opts=$OFF_OPTS; else opts=$GPU_OPTS; fi
    tag=${wl}_$mode
    rlog=$LOGS/$tag.pgbench.log; ulog=$LOGS/$tag.update.log
    rm -f "$LOGS/$tag".tx_*
    gx_log "run $wl / $mode"

    # a fully cached table at the start of every run
    reload "$DB" ct "$ROWS" || return 1
    fact run "$wl" "$mode" load_attempts "$RL_TRIES"
    read -r st_before crows centries <<<"$(cache_state "$DB" ct)"
    fact run "$wl" "$mode" cache_state_before "${st_before:-none}"
    fact run "$wl" "$mode" cache_rows "${crows:-0}"
    fact run "$wl" "$mode" cache_entries "${centries:-0}"
    if [ -n "${centries:-}" ] && [ "${centries:-0}" -gt 0 ]; then
        fact run "$wl" "$mode" cache_entry_rows "$(( crows / centries ))"
    fi
    # the plans, and the compiled kernels ready (gpu mode)
    {
        echo "# PGOPTIONS=$opts"
        PGOPTIONS="$opts" gx_psql -d "$DB" -c "EXPLAIN (ANALYZE, COSTS OFF) ${Q1//:x/500000}" \
            -c "EXPLAIN (ANALYZE, COSTS OFF) ${Q2//:y/5}"
    } >"$LOGS/$tag.plans.txt" 2>&1
    if grep -q GpuScan "$LOGS/$tag.plans.txt"; then plan=gpuscan; else plan=pg; fi
    # the update as update.sql runs it (gpuext.force off)
    PGOPTIONS="$opts" gx_psql -d "$DB" -c "SET gpuext.force = off" \
        -c "EXPLAIN (COSTS OFF) ${UPD//:id/5}" >>"$LOGS/$tag.plans.txt" 2>&1
    fact run "$wl" "$mode" plan "$plan"
    if [ "$mode" = gpu ]; then
        PGOPTIONS="$opts -c gpuext.jit_wait=on" gx_psql -d "$DB" -q -c "${Q1//:x/1}" -c "${Q2//:y/1}" >/dev/null
    fi
    gx_psql -d "$DB" -Atqc "SELECT gpuext_stat_reset()" >/dev/null

    # the updates of rateN: their own pgbench, throttled
    if [ -n "$rate" ]; then
        target=$(( CLIENTS * rate ))
        method="separate pgbench: -c $UCLIENTS -j $UTHREADS --rate $target ($CLIENTS x $rate/s)"
        PGOPTIONS="$opts" "$PGBIN/pgbench" -n -M "$PROTO" -c "$UCLIENTS" -j "$UTHREADS" -T "$SECS" \
            --rate="$target" -f "$SQLDIR/update.sql" -l --log-prefix="$LOGS/$tag.tx_upd" "$DB" >"$ulog" 2>&1 &
        upid=$!
    elif [ "$wl" = mix ]; then
        method="weighted scripts in the read pgbench: q1@$W1 q2@$W2 update@1"
    else
        method="none"
    fi
    fact run "$wl" "$mode" update_method "$method"
    fact run "$wl" "$mode" per_client_rate "$rate"
    fact run "$wl" "$mode" target_rate "$target"

    # the reads (and the mix's updates)
    if [ "$wl" = mix ]; then
        PGOPTIONS="$opts" "$PGBIN/pgbench" -n -M "$PROTO" -c "$CLIENTS" -j "$THREADS" -T "$SECS" \
            -f "$SQLDIR/q1.sql@$W1" -f "$SQLDIR/q2.sql@$W2" -f "$SQLDIR/update.sql@1" \
            -l --log-prefix="$LOGS/$tag.tx_read" "$DB" >"$rlog" 2>&1
    else
        PGOPTIONS="$opts" "$PGBIN/pgbench" -n -M "$PROTO" -c "$CLIENTS" -j "$THREADS" -T "$SECS" \
            -f "$SQLDIR/q1.sql" -f "$SQLDIR/q2.sql" \
            -l --log-prefix="$LOGS/$tag.tx_read" "$DB" >"$rlog" 2>&1
    fi
    rrc=$?
    if [ -n "$rate" ]; then wait "$upid"; urc=$?; fi

    # pgbench's own verdict
    if [ "$rrc" != 0 ] || pgbench_problems "$rlog" >/dev/null; then
        ok=0; echo "pgbench (reads, $tag) exit $rrc:"; pgbench_problems "$rlog" | head -n 5; tail -n 3 "$rlog"
    fi
    if [ -n "$rate" ] && { [ "$urc" != 0 ] || pgbench_problems "$ulog" >/dev/null; }; then
        ok=0; echo "pgbench (updates, $tag) exit $urc:"; pgbench_problems "$ulog" | head -n 5; tail -n 3 "$ulog"
    fi
    fact run "$wl" "$mode" pgbench_ok "$ok"

    # latencies from the per-transaction logs
    if [ "$wl" = mix ]; then
        lat=$(python3 "$HERE/conc_report.py" lat "$LOGS/$tag.tx_read" read read update)
    else
        lat=$(python3 "$HERE/conc_report.py" lat "$LOGS/$tag.tx_read" read read)
    fi
    while read -r key val; do [ -n "$key" ] && fact run "$wl" "$mode" "$key" "$val"; done <<<"$lat"
    if [ -n "$rate" ]; then
        while read -r key val; do
            [ -n "$key" ] && fact run "$wl" "$mode" "$key" "$val"
        done <<<"$(python3 "$HERE/conc_report.py" lat "$LOGS/$tag.tx_upd" update)"
    fi
    [ "${CONC_KEEP_LOGS:-0}" = 1 ] || rm -f "$LOGS/$tag".tx_*

    # throughput: the read pgbench's tps; the mix's split by its logged counts
    tps=$(pgbench_tps "$rlog")
    fact run "$wl" "$mode" tps "${tps:-err}"
    if [ "$wl" = mix ]; then
        local rn un
        rn=$(awk '$1 == "read_n" {print $2}' <<<"$lat"); un=$(awk '$1 == "update_n" {print $2}' <<<"$lat")
        ntot=$(( ${rn:-0} + ${un:-0} ))
        if [ -n "$tps" ] && [ "$ntot" -gt 0 ]; then
            fact run "$wl" "$mode" read_tps "$(awk -v t="$tps" -v r="$rn" -v n="$ntot" 'BEGIN { printf "%.1f", t * r / n }')"
            fact run "$wl" "$mode" update_tps "$(awk -v t="$tps" -v u="$un" -v n="$ntot" 'BEGIN { printf "%.1f", t * u / n }')"
        fi
    else
        fact run "$wl" "$mode" read_tps "${tps:-err}"
        if [ -n "$rate" ]; then
            fact run "$wl" "$mode" update_tps "$(pgbench_tps "$ulog")"
        fi
    fi

    # gpuext_stat of ct, and what is left of the cache
    stat=$(gx_psql -d "$DB" -At -F ' ' -c "SELECT scans, chunks, cache_chunks, cache_not_valid, rows_in, rows_selected, round(wait_ms::numeric, 1), round(wall_ms::numeric, 1), cache_rows, cache_stale_blocks FROM gpuext_stat WHERE relation = 'ct'::regclass")
    if [ -n "$stat" ]; then
        read -r s_scans s_chunks s_cchunks s_inv s_rows s_sel s_wait s_wall s_crows s_stale <<<"$stat"
        fact run "$wl" "$mode" stat_scans "$s_scans"
        fact run "$wl" "$mode" stat_chunks "$s_chunks"
        fact run "$wl" "$mode" stat_cache_chunks "$s_cchunks"
        fact run "$wl" "$mode" stat_cache_not_valid "$s_inv"
        fact run "$wl" "$mode" stat_rows_in "$s_rows"
        fact run "$wl" "$mode" stat_rows_selected "$s_sel"
        fact run "$wl" "$mode" stat_wait_ms "$s_wait"
        fact run "$wl" "$mode" stat_wall_ms "$s_wall"
        fact run "$wl" "$mode" stat_cache_rows "$s_crows"
        fact run "$wl" "$mode" stat_cache_stale_blocks "$s_stale"
    fi
    read -r st_after _ <<<"$(cache_state "$DB" ct)"
    fact run "$wl" "$mode" cache_state_after "${st_after//_/ }"
    gx_log "  $wl / $mode: ${tps:-err} tps, reads p50 $(awk '$1 == "read_p50_ms" {print $2}' <<<"$lat") ms, p99 $(awk '$1 == "read_p99_ms" {print $2}' <<<"$lat") ms; cache chunks ${s_cchunks:--}/${s_chunks:--}; cache now: ${st_after:-none}"
    s_cchunks=""; s_chunks=""
}

for wl in $WORKLOADS; do
    for mode in $MODES; do
        run_one "$wl" "$mode" || { echo "ERROR: run $wl / $mode could not be set up"; exit 1; }
    done
done

# --- TPC-B: pgbench_accounts cached against gpuext off -------------------------
# conc_tpcb PAIRS SECONDS: alternating off, cached runs (see the header)
conc_tpcb() {
    local pairs=$1 secs=$2 k mode log tps opts st rc=0
    local scale=${TPCB_SCALE:-10} clients=$TPCB_C warm=${TPCB_WARMUP:-2} threads
    local off_opts="-c gpuext.enabled=off" cached_opts="-c gpuext.device=$DEV"
    threads=$(gx_nproc); [ "$threads" -gt "$clients" ] && threads=$clients
    TPS_OFF=""; TPS_CACHED=""; STATES=()
    for ((k = 1; k <= pairs; k++)); do
        for mode in off cached; do
            log=$LOGS/tpcb_${k}_$mode.log
            if [ "$mode" = off ]; then opts=$off_opts; else opts=$cached_opts; fi
            {
                echo "# TPC-B run $k, $mode: PGOPTIONS=$opts"
                gx_psql -d postgres -qc "DROP DATABASE IF EXISTS tpcb" &&
                    gx_psql -d postgres -qc "CREATE DATABASE tpcb" &&
                    "$PGBIN/pgbench" -i -q -s "$scale" tpcb 2>&1 &&
                    gx_psql -d tpcb -qc "CREATE EXTENSION gpuext" &&
                    gx_psql -d tpcb -qc "VACUUM ANALYZE" &&
                    if [ "$warm" -gt 0 ]; then
                        PGOPTIONS="$opts" "$PGBIN/pgbench" -c "$clients" -j "$threads" -T "$warm" -M prepared tpcb >/dev/null 2>&1
                    fi &&
                    if [ "$mode" = cached ]; then
                        reload tpcb pgbench_accounts $((scale * 100000)) &&
                            echo "# pgbench_accounts cached: $RL_ROWS rows ($(cache_state tpcb pgbench_accounts)), $RL_TRIES loads"
                    else
                        gx_psql -d tpcb -qc "CHECKPOINT" -c "VACUUM (INDEX_CLEANUP ON) pgbench_accounts"
                    fi &&
                    PGOPTIONS="$opts" "$PGBIN/pgbench" -c "$clients" -j "$threads" -T "$secs" -M prepared tpcb 2>&1
            } >"$log" 2>&1
            tps=$(pgbench_tps "$log" | awk '{printf "%.1f", $1}')
            if [ -z "$tps" ] || pgbench_problems "$log" >/dev/null; then
                echo "TPC-B run $k ($mode) failed or reported problems:"; pgbench_problems "$log" | head -n 5; tail -n 5 "$log"
                [ -z "$tps" ] && tps=err
                rc=1
            fi
            if [ "$mode" = cached ]; then
                st=$(cache_state tpcb pgbench_accounts); st=${st%% *}
                STATES+=("${st//_/ }")
                TPS_CACHED="$TPS_CACHED${TPS_CACHED:+ }$tps"
                gx_psql -d tpcb -Atqc "SELECT gpuext_cache_evict('pgbench_accounts')" >/dev/null
            else
                TPS_OFF="$TPS_OFF${TPS_OFF:+ }$tps"
            fi
            gx_log "TPC-B run $k, $mode: $tps tps${st:+ (pgbench_accounts in the cache: ${st//_/ })}"
            st=""
        done
    done
    # shellcheck disable=SC2086
    MED_OFF=$(bench_median $TPS_OFF)
    # shellcheck disable=SC2086
    MED_CACHED=$(bench_median $TPS_CACHED)
    fact tpcb pairs "$pairs"; fact tpcb seconds "$secs"; fact tpcb scale "$scale"
    fact tpcb clients "$clients"; fact tpcb threads "$threads"
    fact tpcb off_opts "$off_opts"; fact tpcb cached_opts "$cached_opts; pgbench_accounts in the cache"
    # shellcheck disable=SC2086
    fact tpcb tps_off $TPS_OFF
    # shellcheck disable=SC2086
    fact tpcb tps_cached $TPS_CACHED
    fact tpcb median_off "$MED_OFF"; fact tpcb median_cached "$MED_CACHED"
    fact tpcb ratio "$(bench_ratio "$MED_CACHED" "$MED_OFF")"
    fact tpcb cache_state_after "${STATES[@]}"
    fact tpcb failed "$rc"
}

if [ "${CONC_TPCB:-1}" = 1 ]; then
    gx_log "TPC-B: $TPCB_PAIRS pairs off / cached, $TPCB_SECS s a run"
    gx_psql -d "$DB" -Atqc "SELECT gpuext_cache_evict('ct')" >/dev/null
    conc_tpcb "$TPCB_PAIRS" "$TPCB_SECS"
fi

# --- report ---------------------------------------------------------------------
fact meta rows "$ROWS"; fact meta seconds "$SECS"; fact meta clients "$CLIENTS"
fact meta threads "$THREADS"; fact meta update_clients "$UCLIENTS"; fact meta cores "$(gx_nproc)"
fact meta protocol "$PROTO"; fact meta mix_reads "$MIX_READS"; fact meta cache_size_mb "$CACHE_MB"
fact meta postgres "$("$PG_CONFIG" --version)"; fact meta devices "$DEVICES"; fact meta device "$DEV"
fact meta cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
fact meta gpu "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)"
fact meta q1 "$Q1"; fact meta q2 "$Q2"; fact meta update_sql "SET gpuext.force = off; $UPD; RESET gpuext.force"
fact meta off_opts "$OFF_OPTS"; fact meta gpu_opts "$GPU_OPTS"
fact meta update_rate_method "rateN: a second pgbench (-c $UCLIENTS -j $UTHREADS --rate CLIENTS x N, the total rate) alongside the read pgbench; mix: one pgbench, weighted scripts q1@$W1 q2@$W2 update@1 (1 update per $((MIX_READS + 1)) transactions)"
fact meta between_runs "CHECKPOINT, VACUUM (INDEX_CLEANUP ON) ct, gpuext_cache_load('ct') until every row is cached (at most 3 loads), gpu mode: each query once with jit_wait, gpuext_stat_reset()"
fact meta row_fraction_note "'cache rows' = gpuext_stat cache_rows / rows_in: the rows scans read from cache entries (stale blocks' rows excepted) against all rows they read; 'cache chunk' = cache_chunks/chunks (a cache chunk is a whole entry of up to ~4M rows, a heap chunk up to gpuext.chunk_rows rows: stale blocks and blocks past the entries); 'invalid' = cache entries scans could not use at all"
fact meta elapsed_s "$((SECONDS - T0))"

python3 "$HERE/conc_report.py" report "$FACTS" "$JSON" "$OUT/concurrency.txt" || { echo "ERROR: conc_report.py failed"; exit 1; }
echo
cat "$OUT/concurrency.txt"
echo
echo "JSON: $JSON; table: $OUT/concurrency.txt; logs: $LOGS ($((SECONDS - T0)) s)"
exit 0
