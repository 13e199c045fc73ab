#!/usr/bin/env bash
# bench/force.sh - does gpuext.force make plans bad?  Joins, a correlated
# subquery and a filter over a 300k-row "orders" table, each run with
# gpuext off and with gpuext.force on (the device of GPUEXT_DEVICE,
# default cpu), on a throwaway cluster; prints both times (the median of
# BENCH_REPS runs, default 3, alternating) and force/off (the aim: no
# query above 2), and the band join's plan with force.
#
#   PG_CONFIG=... bench/force.sh     # after test/run.sh installed gpuext
set -u -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
gx_find_pg_config >/dev/null || exit 1
gx_setup_user >/dev/null || exit 1
gx_cluster_init "${BENCH_PORT:-54360}" "gpuext.device = ${GPUEXT_DEVICE:-cpu}" "max_worker_processes = 8" >/dev/null && gx_cluster_start >/dev/null || exit 1
trap 'gx_cluster_stop; gx_cluster_remove' EXIT
gx_psql -d postgres -q <<'SQL'
CREATE EXTENSION gpuext;
CREATE TABLE orders (o_id int4, o_cust int4, o_date int4, o_total float8);
INSERT INTO orders SELECT g, g % 5000, g % 2500, (g % 1000) / 3.0 FROM generate_series(1, 300000) g;
CREATE TABLE cust (c_id int4, c_nation int4);
INSERT INTO cust SELECT g, g % 25 FROM generate_series(0, 4999) g;
CREATE TABLE win (w_start int4);
INSERT INTO win SELECT g * 25 FROM generate_series(0, 99) g;
VACUUM ANALYZE orders, cust, win;
SQL
# q NAME SQL: run SQL BENCH_REPS times (default 3) with gpuext off and
# with gpuext.force, alternating, and print the median of each (one run
# on a shared host can be several times slower than the next)
REPS=${BENCH_REPS:-3}
q() {
  local name=$1 sql=$2 t0 t1 r mode o off on
  local -a offs=() ons=()
  for ((r = 0; r < REPS; r++)); do
    for mode in off on; do
      if [ $mode = off ]; then o="-c gpuext.enabled=off"; else o="-c gpuext.force=on"; fi
      t0=$(date +%s%N)
      PGOPTIONS="$o" gx_psql -d postgres -At -c "$sql" >/dev/null
      t1=$(date +%s%N)
      if [ $mode = off ]; then offs+=($(( (t1 - t0) / 1000000 ))); else ons+=($(( (t1 - t0) / 1000000 ))); fi
    done
  done
  off=$(printf '%s\n' "${offs[@]}" | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")
  on=$(printf '%s\n' "${ons[@]}" | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")
  echo "$name: off ${off} ms, force ${on} ms, force/off $(awk -v a=$on -v b=$off 'BEGIN{printf "%.2f", a/b}') (median of $REPS)"
}
q "band join (win x orders)" "SELECT count(*), sum(o_total) FROM win w JOIN orders o ON o.o_date BETWEEN w.w_start AND w.w_start + 5 WHERE o.o_total > 10"
q "equi join + filter" "SELECT c_nation, count(*) FROM orders o JOIN cust c ON c.c_id = o.o_cust WHERE o.o_total > 100 GROUP BY 1 ORDER BY 1"
q "correlated subquery" "SELECT count(*) FROM cust c WHERE c.c_id < 200 AND EXISTS (SELECT 1 FROM orders o WHERE o.o_cust = c.c_id AND o.o_total > 300)"
q "filter only" "SELECT count(*) FROM orders WHERE o_total > 200 AND o_date % 7 = 3"
echo "plan of the band join with force:"
PGOPTIONS="-c gpuext.force=on" gx_psql -d postgres -c "EXPLAIN (COSTS OFF) SELECT count(*), sum(o_total) FROM win w JOIN orders o ON o.o_date BETWEEN w.w_start AND w.w_start + 5 WHERE o.o_total > 10"
