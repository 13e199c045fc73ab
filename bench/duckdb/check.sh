#!/usr/bin/env bash
# bench/duckdb/check.sh - do the DuckDB versions of the benchmark queries
# return what PostgreSQL returns?  Against a running server holding table
# tablet (PGHOST/PGPORT/PGUSER as for psql):
#
#   bench/duckdb/check.sh [DB]            # DB defaults to bench
#   EDGE=1 bench/duckdb/check.sh DB       # first REPLACES tablet in DB by
#                                         # 200000 random rows + edge.sql
#
# Exports tablet (bench/duckdb/lib.sh), runs bench/duckdb/queries/qN.sql
# (or bench/queries/qN.sql where no translation is needed) on DuckDB and
# compares each result with PostgreSQL's (serial, gpuext off).  Also runs
# the untranslated bench/queries/*.sql on DuckDB and reports where they give
# another answer (information only: that is why the translations exist).
# Exit status 0 when all translated queries agree, 1 otherwise.
#
# Environment: GX_DUCKDB_LIB (see lib.sh), PG_CONFIG, THREADS (default 4),
# GXD_PGOPTIONS (extra PGOPTIONS for the export, e.g. "-c gpuext.enabled=off").

set -u -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../../test/lib.sh"
# shellcheck source=bench/duckdb/lib.sh
. "$HERE/lib.sh"

DB=${1:-bench}
gx_find_pg_config >/dev/null || exit 1
WORK=$(mktemp -d /tmp/gx_duckdb_check.XXXXXX) || exit 1
trap 'rm -rf "$WORK"' EXIT

if [ "${EDGE:-0}" = 1 ]; then
    echo "==> replacing tablet in $DB: 200000 random rows + bench/duckdb/edge.sql"
    gx_psql -q -d "$DB" -f "$GX_ROOT/bench/sql/create.sql" 2>/dev/null &&
        gx_psql -q -d "$DB" -v lo=1 -v hi=200000 -f "$GX_ROOT/bench/sql/insert.sql" &&
        gx_psql -q -d "$DB" -f "$HERE/edge.sql" || exit 1
fi
gxd_build "$WORK" || exit 1
mkdir -p "$WORK/csv"
gxd_export "$DB" "$WORK/csv" 4 || exit 1

QS=(); TRANS=""; ORIG=""
for i in 1 2 3 4 5 6 7 8 9 10; do
    [ -f "$GX_ROOT/bench/queries/q$i.sql" ] || continue
    QS+=("q$i")
    TRANS="$TRANS${TRANS:+,}$(gxd_query_file "q$i")"
    ORIG="$ORIG${ORIG:+,}$GX_ROOT/bench/queries/q$i.sql"
done
"$GXD_BIN" --threads "${THREADS:-4}" --csv-glob "$WORK/csv/part*.csv" --queries "$TRANS" --reps 1 \
    >"$WORK/trans.log" 2>&1 || { cat "$WORK/trans.log"; exit 1; }
# an untranslated query may also fail on DuckDB: keep what ran
"$GXD_BIN" --threads "${THREADS:-4}" --csv-glob "$WORK/csv/part*.csv" --queries "$ORIG" --reps 1 \
    >"$WORK/orig.log" 2>&1

pgrows=$(PGOPTIONS="${GXD_PGOPTIONS:-}" gx_psql -d "$DB" -Atc "SELECT count(*) FROM tablet")
echo "DuckDB $(gxd_field "$WORK/trans.log" version), rows: PostgreSQL $pgrows, DuckDB $(gxd_field "$WORK/trans.log" rows)"
bad=0
for q in "${QS[@]}"; do
    pg=$(PGOPTIONS="-c max_parallel_workers_per_gather=0 ${GXD_PGOPTIONS:-}" \
        gx_psql -d "$DB" -At -f "$GX_ROOT/bench/queries/$q.sql" 2>&1 | tr '\n' ' ' | sed 's/ *$//')
    dk=$(gxd_query_result "$WORK/trans.log" "$q")
    orig=$(gxd_query_result "$WORK/orig.log" "$q") || orig="(error)"
    if [ "$pg" = "$dk" ]; then
        printf '%-4s same      %s' "$q" "$pg"
    else
        printf '%-4s MISMATCH  PostgreSQL %s, DuckDB %s' "$q" "$pg" "$dk"
        bad=1
    fi
    [ "$orig" = "$pg" ] || printf '   (untranslated query on DuckDB: %s)' "$orig"
    printf '\n'
done
[ "$bad" = 0 ] && echo "all DuckDB results match PostgreSQL" || echo "MISMATCH between DuckDB and PostgreSQL"
exit "$bad"
