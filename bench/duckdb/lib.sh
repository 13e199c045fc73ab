# shellcheck shell=bash
# bench/duckdb/lib.sh - DuckDB comparison for bench/run.sh and
# bench/duckdb/check.sh: build gx_duckdb_bench against the carried
# libduckdb.so, export table tablet from PostgreSQL to CSV files in
# parallel, run the queries on DuckDB.  See bench/duckdb/README.md.
#
# Needs PGBIN (test/lib.sh's gx_find_pg_config) and the client environment
# (PGHOST, PGPORT, PGUSER) of the cluster holding tablet.
#
# Environment:
#   GX_DUCKDB_LIB  a libduckdb.so to use instead of unpacking
#                  .carry/libduckdb.so.xz

GXD_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GXD_ROOT=$(cd "$GXD_DIR/../.." && pwd)
GXD_XZ=$GXD_ROOT/.carry/libduckdb.so.xz

# true when a DuckDB library is at hand
gxd_available() {
    [ -f "${GX_DUCKDB_LIB:-$GXD_XZ}" ]
}

# gxd_build WORKDIR: unpacks libduckdb.so into WORKDIR/lib (unless
# GX_DUCKDB_LIB is set) and compiles WORKDIR/gx_duckdb_bench; sets GXD_BIN.
gxd_build() {
    local work=$1 libdir
    GXD_BIN=""
    if [ -n "${GX_DUCKDB_LIB:-}" ]; then
        [ -f "$GX_DUCKDB_LIB" ] || { echo "duckdb: GX_DUCKDB_LIB=$GX_DUCKDB_LIB not found"; return 1; }
        libdir=$(cd "$(dirname "$GX_DUCKDB_LIB")" && pwd)
        if [ "$(basename "$GX_DUCKDB_LIB")" != libduckdb.so ]; then
            mkdir -p "$work/lib" && ln -sf "$libdir/$(basename "$GX_DUCKDB_LIB")" "$work/lib/libduckdb.so" || return 1
            libdir=$work/lib
        fi
    else
        [ -f "$GXD_XZ" ] || { echo "duckdb: $GXD_XZ not found (bench/duckdb/fetch.sh makes it)"; return 1; }
        libdir=$work/lib
        mkdir -p "$libdir" || return 1
        if command -v xz >/dev/null 2>&1; then
            xz -dc "$GXD_XZ" >"$libdir/libduckdb.so"
        else
            python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' \
                "$GXD_XZ" >"$libdir/libduckdb.so"
        fi || { echo "duckdb: cannot unpack $GXD_XZ"; return 1; }
    fi
    if ! gcc -O2 -o "$work/gx_duckdb_bench" "$GXD_DIR/gx_duckdb_bench.c" \
            -L"$libdir" -lduckdb -Wl,-rpath,"$libdir" >"$work/build.log" 2>&1; then
        echo "duckdb: building gx_duckdb_bench failed:"
        tail -n 20 "$work/build.log"
        return 1
    fi
    GXD_BIN=$work/gx_duckdb_bench
}

# gxd_export DB DIR JOBS: COPY tablet (GXD_TABLE, its columns GXD_COLUMNS:
# bench/tpch.sh exports lineitem) (PostgreSQL text format) into
# DIR/part<k>.csv, JOBS sessions in parallel, each a range of heap blocks
# (TID range scan: every session reads only its own pages).  float4 values
# come out in the shortest form that reads back exactly (extra_float_digits
# = 1), which DuckDB parses to the same float.
gxd_export() {
    local db=$1 dir=$2 jobs=$3 nblocks k lo hi where pids="" p rc=0
    local table=${GXD_TABLE:-tablet} cols=${GXD_COLUMNS:-id, ui, ni5, ni20, uf, nf5, nf20}
    local psql=("$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$db")
    nblocks=$("${psql[@]}" -Atc "SELECT pg_relation_size('$table') / current_setting('block_size')::int") ||
        { echo "duckdb: cannot read the size of $table"; return 1; }
    case "$nblocks" in ''|*[!0-9]*) echo "duckdb: bad block count '$nblocks'"; return 1 ;; esac
    [ "$nblocks" -lt "$jobs" ] && jobs=1
    for ((k = 0; k < jobs; k++)); do
        lo=$(( nblocks * k / jobs )); hi=$(( nblocks * (k + 1) / jobs ))
        where="ctid >= '($lo,0)'::tid"
        # the last range is open: pages added since the size was read
        [ "$k" -lt $((jobs - 1)) ] && where="$where AND ctid < '($hi,0)'::tid"
        PGOPTIONS="-c extra_float_digits=1 -c max_parallel_workers_per_gather=0 ${GXD_PGOPTIONS:-}" \
            "${psql[@]}" -c "COPY (SELECT $cols FROM $table WHERE $where) TO STDOUT" \
            >"$dir/part$k.csv" &
        pids="$pids $!"
    done
    for p in $pids; do wait "$p" || rc=1; done
    [ "$rc" = 0 ] || { echo "duckdb: exporting $table failed"; return 1; }
}

# gxd_query_file Q: the DuckDB version of bench/queries/Q.sql
gxd_query_file() {
    if [ -f "$GXD_DIR/queries/$1.sql" ]; then
        echo "$GXD_DIR/queries/$1.sql"
    else
        echo "$GXD_ROOT/bench/queries/$1.sql"
    fi
}

# gxd_bench DB LOG THREADS REPS TMPBASE Q...: build, export, run; the
# output of gx_duckdb_bench (lines version=, threads=, load_ms=,
# query=...) goes to LOG, progress to stdout.  Works in a temp dir under
# TMPBASE, removed at the end (GXD_TMP names it meanwhile, for a trap).
# Returns 1 on any failure.
gxd_bench() {
    local db=$1 log=$2 threads=$3 reps=$4 base=$5 rc=0 q qfiles=""
    shift 5
    for q in "$@"; do qfiles="$qfiles${qfiles:+,}$(gxd_query_file "$q")"; done
    GXD_EXPORT_S=n/a
    GXD_TMP=$(mktemp -d "$base/duckdb_tmp.XXXXXX") || { echo "duckdb: mktemp in $base failed"; return 1; }
    _gxd_bench "$db" "$log" "$threads" "$reps" "$qfiles" || rc=1
    rm -rf "$GXD_TMP"
    GXD_TMP=""
    return "$rc"
}

_gxd_bench() {
    local db=$1 log=$2 threads=$3 reps=$4 qfiles=$5 need avail t0
    gxd_build "$GXD_TMP" || return 1
    # the CSV files take less room than the heap: want heap size + 1 GB
    need=$("$PGBIN/psql" -X -d "$db" -Atc "SELECT pg_relation_size('tablet') / 1024 + 1048576" 2>/dev/null)
    avail=$(df -Pk "$GXD_TMP" 2>/dev/null | awk 'NR == 2 {print $4}')
    if [ -n "$need" ] && [ -n "$avail" ] && [ "$avail" -lt "$need" ]; then
        echo "duckdb: not enough disk under $(dirname "$GXD_TMP") for the CSV export (${avail} kB free, want ${need} kB)"
        return 1
    fi
    mkdir -p "$GXD_TMP/csv" || return 1
    t0=$(date +%s.%N)
    gxd_export "$db" "$GXD_TMP/csv" "${GXD_EXPORT_JOBS:-8}" || return 1
    GXD_EXPORT_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "duckdb: exported tablet in $GXD_EXPORT_S s ($(du -sh "$GXD_TMP/csv" | cut -f1)); running $threads threads, $reps reps"
    if ! "$GXD_BIN" --threads "$threads" --csv-glob "$GXD_TMP/csv/part*.csv" \
            --queries "$qfiles" --reps "$reps" >"$log" 2>&1; then
        echo "duckdb: gx_duckdb_bench failed:"
        tail -n 20 "$log"
        return 1
    fi
}

# gxd_copy_and_run DB TABLES COLUMNS TYPES QFILES REPS LOG: the DuckDB side
# of a benchmark: builds gx_duckdb_bench in a new GXD_TMP (under
# BENCH_DUCKDB_TMP, else OUT; the caller removes it), exports COLUMNS of
# each of the blank-separated TABLES (the same columns in each) to CSV
# (PGOPTIONS: GXD_PGOPTIONS), loads them into in-memory DuckDB tables of
# the same names (TYPES: read_csv's columns, 'name': 'TYPE', ...; the
# tables take the same types) and runs the comma-separated QFILES REPS
# times (output in LOG; the last exec= line is the rows of all the tables,
# exec=3 with one table).  Wants the tables' heap size / 2 + 1 GB of disk
# (the CSV of a few columns is smaller than the heap).  Sets
# DUCKDB_EXPORT_S, DUCKDB_RUN_S.  (gxd_copy_tables_and_run with the same
# columns for every table.)
gxd_copy_and_run() {
    local db=$1 tables=$2 cols=$3 types=$4 qfiles=$5 reps=$6 log=$7 table specs=""
    for table in $tables; do specs="$specs$table"$'\t'"$cols"$'\t'"$types"$'\n'; done
    gxd_copy_tables_and_run "$db" "$specs" "$qfiles" "$reps" "$log"
}

# gxd_copy_tables_and_run DB SPECS QFILES REPS LOG: gxd_copy_and_run with
# each table's own columns: SPECS holds a line per table,
#   TABLE<tab>COLUMNS<tab>TYPES
# COLUMNS the select list exported (expressions allowed: bench/tpch_join.sh
# exports char(n) columns as col::text, without their trailing blanks),
# TYPES read_csv's columns in the same order ('name': 'TYPE', ...: the
# DuckDB table's column names and types).  The last exec= line is the
# rows of all the tables (exec=<2 x tables + 1>).
gxd_copy_tables_and_run() {
    local db=$1 specs=$2 qfiles=$3 reps=$4 log=$5 t0 need avail create k
    local tables=() colss=() typess=() table cols types execs=() counts=""
    while IFS=$'\t' read -r table cols types; do
        [ -n "$table" ] || continue
        tables+=("$table"); colss+=("$cols"); typess+=("$types")
    done <<<"$specs"
    [ "${#tables[@]}" -gt 0 ] || { echo "duckdb: no tables to export"; return 1; }
    GXD_TMP=$(mktemp -d "${BENCH_DUCKDB_TMP:-$OUT}/duckdb_tmp.XXXXXX") || return 1
    gxd_build "$GXD_TMP" || return 1
    need=$(gx_psql -d "$db" -Atc "SELECT $(printf "pg_relation_size('%s') + " "${tables[@]}") 0" | awk '{ printf "%d", $1 / 2048 + 1048576 }')
    avail=$(df -Pk "$GXD_TMP" | awk 'NR == 2 {print $4}')
    if [ -n "$need" ] && [ -n "$avail" ] && [ "$avail" -lt "$need" ]; then
        echo "duckdb: not enough disk for the CSV export (${avail} kB free, want ${need} kB)"; return 1
    fi
    t0=$(date +%s.%N)
    for ((k = 0; k < ${#tables[@]}; k++)); do
        table=${tables[$k]}; cols=${colss[$k]}; types=${typess[$k]}
        # shellcheck disable=SC2001  # (a back reference: no ${//} form)
        create=$(sed "s/'\([^']*\)': '\([^']*\)'/\1 \2/g" <<<"$types")
        mkdir -p "$GXD_TMP/csv/$table" || return 1
        GXD_TABLE=$table GXD_COLUMNS=$cols gxd_export "$db" "$GXD_TMP/csv/$table" "${GXD_EXPORT_JOBS:-8}" || return 1
        execs+=(--exec "CREATE TABLE $table ($create)"
                --exec "INSERT INTO $table SELECT * FROM read_csv('$GXD_TMP/csv/$table/part*.csv', delim = '"$'\t'"', header = false, quote = '', escape = '', nullstr = '\\N', auto_detect = false, columns = {$types})")
        counts="$counts(SELECT count(*) FROM $table) + "
    done
    DUCKDB_EXPORT_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    if [ "${#tables[@]}" = 1 ]; then
        echo "duckdb: exported ${tables[0]} (${colss[0]}) in $DUCKDB_EXPORT_S s ($(du -sh "$GXD_TMP/csv" | cut -f1))"
    else
        echo "duckdb: exported ${tables[*]} in $DUCKDB_EXPORT_S s ($(du -sh "$GXD_TMP/csv" | cut -f1))"
    fi
    t0=$(date +%s.%N)
    if ! "$GXD_BIN" --threads "$DUCKDB_THREADS" "${execs[@]}" \
            --exec "SELECT ${counts}0" \
            --queries "$qfiles" --reps "$reps" >"$log" 2>&1; then
        echo "duckdb: gx_duckdb_bench failed:"; tail -n 20 "$log"; return 1
    fi
    # shellcheck disable=SC2034  # (read by the sourcing script)
    DUCKDB_RUN_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
}

# gxd_field LOG KEY: value of KEY=... on the first line where it occurs
# (values without blanks: version, threads, load_ms, rows)
gxd_field() {
    sed -n "s/^\(.* \)\{0,1\}$2=\([^ ]*\).*/\2/p" "$1" | head -n 1
}

# gxd_query_ms LOG Q / gxd_query_result LOG Q
gxd_query_ms() {
    sed -n "s/^query=$2 ms=\([^ ]*\) .*/\1/p" "$1" | head -n 1
}
gxd_query_result() {
    grep -q "^query=$2 " "$1" || return 1
    sed -n "s/^query=$2 .* result=//p" "$1" | head -n 1
}
