# shellcheck shell=bash
# test/lib.sh - shared shell helpers for test/run.sh, bench/run.sh and
# bench/demo.sh: find PostgreSQL, build/install gpuext, run a throwaway
# cluster as a non-root user, load the "tablet" benchmark table.
#
# Source it from bash:  . "$(dirname "$0")/../test/lib.sh"
#
# Environment understood here:
#   PG_CONFIG          pg_config to use (default: pg_config on PATH, else
#                      /usr/lib/postgresql/15/bin/pg_config).  initdb, pg_ctl,
#                      psql, pgbench all come from its --bindir.
#   GPUEXT_TEST_USER   OS user owning the cluster when we run as root
#                      (default: gpuext; created with useradd if missing).
#   GPUEXT_NO_CLEAN=1  skip "make clean" before building.

GX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# shellcheck source=test/prereqs.sh
. "$(dirname "${BASH_SOURCE[0]}")/prereqs.sh"

gx_log() { printf '==> %s\n' "$*"; }
gx_warn() { printf 'WARNING: %s\n' "$*"; }

gx_is_root() { [ "$(id -u)" = 0 ]; }

gx_nproc() { nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2; }

# Sets PG_CONFIG and PGBIN (the server's bindir); returns 1 if not usable.
gx_find_pg_config() {
    if [ -z "${PG_CONFIG:-}" ]; then
        if command -v pg_config >/dev/null 2>&1; then
            PG_CONFIG=$(command -v pg_config)
        else
            PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
        fi
    fi
    case "$PG_CONFIG" in
        */*) ;;
        *) PG_CONFIG=$(command -v "$PG_CONFIG" 2>/dev/null || echo "$PG_CONFIG") ;;
    esac
    # install what is missing on a Debian/Ubuntu machine (test/prereqs.sh)
    gx_prereqs || return 1
    if [ ! -x "$PG_CONFIG" ]; then
        echo "ERROR: pg_config not found ($PG_CONFIG); set PG_CONFIG=/path/to/pg_config"
        return 1
    fi
    PGBIN=$("$PG_CONFIG" --bindir) || return 1
    local ver
    ver=$("$PG_CONFIG" --version 2>/dev/null)
    # Debian's /usr/bin/pg_config may point at a bindir without server tools
    if [ ! -x "$PGBIN/initdb" ]; then
        local major
        major=$(echo "$ver" | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')
        if [ -n "$major" ] && [ -x "/usr/lib/postgresql/$major/bin/initdb" ]; then
            PGBIN=/usr/lib/postgresql/$major/bin
        fi
    fi
    case "$ver" in
        "PostgreSQL 15"*) ;;
        "PostgreSQL 16"*|"PostgreSQL 17"*|"PostgreSQL 18"*)
            gx_warn "gpuext is tested on PostgreSQL 15 and builds on 16-18 (README): $ver" ;;
        *) gx_warn "gpuext targets PostgreSQL 15-18, $PG_CONFIG says: $ver" ;;
    esac
    export PG_CONFIG PGBIN
    gx_log "PG_CONFIG=$PG_CONFIG ($ver), bindir $PGBIN"
}

# make clean (unless GPUEXT_NO_CLEAN=1) + make; returns make's status
gx_build() {
    if [ "${GPUEXT_NO_CLEAN:-0}" != 1 ]; then
        make -C "$GX_ROOT" PG_CONFIG="$PG_CONFIG" clean >/dev/null 2>&1 || true
    fi
    gx_log "make -j$(gx_nproc) PG_CONFIG=$PG_CONFIG"
    make -C "$GX_ROOT" -j"$(gx_nproc)" PG_CONFIG="$PG_CONFIG"
}

# make install as root, through sudo when available, else as we are
gx_install() {
    gx_log "make install"
    if gx_is_root; then
        make -C "$GX_ROOT" PG_CONFIG="$PG_CONFIG" install
    elif command -v sudo >/dev/null 2>&1; then
        sudo env PATH="$PATH" make -C "$GX_ROOT" PG_CONFIG="$PG_CONFIG" install
    else
        make -C "$GX_ROOT" PG_CONFIG="$PG_CONFIG" install
    fi
}

# Sets GX_USER: the OS user that owns and runs the cluster.
gx_setup_user() {
    if gx_is_root; then
        GX_USER=${GPUEXT_TEST_USER:-gpuext}
        if ! id -u "$GX_USER" >/dev/null 2>&1; then
            gx_log "creating OS user $GX_USER"
            useradd -m -s /bin/bash "$GX_USER" 2>/dev/null ||
                adduser --disabled-password --gecos "" "$GX_USER" >/dev/null 2>&1 ||
                { echo "ERROR: cannot create user $GX_USER"; return 1; }
        fi
    else
        GX_USER=$(id -un)
    fi
    export GX_USER
}

# gx_as CMD ARGS...: run a command as GX_USER (PostgreSQL refuses root)
gx_as() {
    if gx_is_root; then
        if command -v runuser >/dev/null 2>&1; then
            runuser -u "$GX_USER" -- "$@"
        else
            su -s /bin/bash "$GX_USER" -c "$(printf '%q ' "$@")"
        fi
    else
        "$@"
    fi
}

# gx_cluster_init PORT [extra postgresql.conf lines...]
# Creates a temp dir GX_BASE with data/, sock/, server.log; exports
# PGHOST/PGPORT/PGUSER for clients (clients may run as root: trust auth).
gx_cluster_init() {
    GX_PORT=$1; shift
    GX_BASE=$(mktemp -d /tmp/gpuext-pg.XXXXXX) || return 1
    GX_DATA=$GX_BASE/data
    GX_SOCK=$GX_BASE/sock
    GX_LOG=$GX_BASE/server.log
    mkdir -p "$GX_SOCK"
    chmod 755 "$GX_BASE" "$GX_SOCK"
    gx_is_root && chown -R "$GX_USER" "$GX_BASE"
    gx_log "initdb $GX_DATA (user $GX_USER)"
    if ! (cd "$GX_BASE" && gx_as "$PGBIN/initdb" -D "$GX_DATA" -A trust -U "$GX_USER" \
            --locale=C -E UTF8 -N) >"$GX_BASE/initdb.log" 2>&1; then
        cat "$GX_BASE/initdb.log"
        return 1
    fi
    {
        echo ""
        echo "# added by gpuext test/lib.sh"
        echo "port = $GX_PORT"
        echo "listen_addresses = ''"
        echo "unix_socket_directories = '$GX_SOCK'"
        echo "fsync = off"
        echo "shared_preload_libraries = 'gpuext'"
        echo "lc_messages = 'C'"
        local s
        for s in "$@"; do echo "$s"; done
    } >>"$GX_DATA/postgresql.conf"
    export PGHOST=$GX_SOCK PGPORT=$GX_PORT PGUSER=$GX_USER
    unset PGDATABASE PGOPTIONS
}

gx_cluster_start() {
    gx_log "starting cluster on port $GX_PORT (socket $GX_SOCK)"
    if ! (cd "$GX_BASE" && gx_as "$PGBIN/pg_ctl" -D "$GX_DATA" -l "$GX_LOG" -w -t 180 start) >/dev/null; then
        echo "ERROR: cluster did not start; server log:"
        tail -n 60 "$GX_LOG" 2>/dev/null
        return 1
    fi
}

gx_cluster_restart() {
    gx_log "restarting cluster"
    if ! (cd "$GX_BASE" && gx_as "$PGBIN/pg_ctl" -D "$GX_DATA" -l "$GX_LOG" -w -t 180 -m fast restart) >/dev/null; then
        echo "ERROR: cluster did not restart; server log:"
        tail -n 60 "$GX_LOG" 2>/dev/null
        return 1
    fi
}

# Stops the cluster if running; safe to call more than once.
gx_cluster_stop() {
    [ -n "${GX_DATA:-}" ] || return 0
    if [ -f "$GX_DATA/postmaster.pid" ]; then
        gx_log "stopping cluster"
        (cd "$GX_BASE" && gx_as "$PGBIN/pg_ctl" -D "$GX_DATA" -w -t 60 -m fast stop) >/dev/null 2>&1 ||
            (cd "$GX_BASE" && gx_as "$PGBIN/pg_ctl" -D "$GX_DATA" -w -t 30 -m immediate stop) >/dev/null 2>&1
    fi
}

# Removes the cluster dir (keeps it when GPUEXT_KEEP=1)
gx_cluster_remove() {
    [ -n "${GX_BASE:-}" ] && [ -d "$GX_BASE" ] || return 0
    if [ "${GPUEXT_KEEP:-0}" = 1 ]; then
        gx_log "keeping $GX_BASE"
    else
        rm -rf "$GX_BASE"
    fi
}

gx_psql() { "$PGBIN/psql" -X -v ON_ERROR_STOP=1 "$@"; }

# gx_has_gpu DB: prints the number of GPU devices gpuext_devices() lists
gx_has_gpu() {
    local n
    n=$(gx_psql -At -d "$1" -c "SELECT count(*) FROM gpuext_devices() WHERE kind ILIKE '%gpu%' OR kind ILIKE '%cuda%'" 2>/dev/null | tail -n 1)
    case "$n" in ''|*[!0-9]*) n=0 ;; esac
    echo "$n"
}

# gx_load_tablet DB ROWS: (re)creates table tablet with ROWS rows, loading
# in parallel sessions, then primary key + VACUUM (FREEZE, ANALYZE).
# Skips the load when the table already holds ROWS rows (table comment).
gx_load_tablet() {
    local db=$1 rows=$2 sqldir=$GX_ROOT/bench/sql
    local have
    have=$(gx_psql -At -d "$db" -c "SELECT obj_description('tablet'::regclass, 'pg_class')" 2>/dev/null | tail -n 1)
    if [ "$have" = "rows=$rows" ]; then
        gx_log "table tablet already holds $rows rows"
        return 0
    fi
    local jobs
    jobs=$(gx_nproc)
    [ "$jobs" -gt 16 ] && jobs=16
    [ "$rows" -lt 200000 ] && jobs=1
    gx_log "loading tablet: $rows rows in $jobs sessions"
    local t0=$SECONDS
    gx_psql -q -d "$db" -f "$sqldir/create.sql" || return 1
    local chunk=$(( (rows + jobs - 1) / jobs )) i lo hi pids="" rc=0 p
    for ((i = 0; i < jobs; i++)); do
        lo=$(( i * chunk + 1 )); hi=$(( (i + 1) * chunk ))
        [ "$hi" -gt "$rows" ] && hi=$rows
        [ "$lo" -gt "$hi" ] && continue
        gx_psql -q -d "$db" -v lo="$lo" -v hi="$hi" -f "$sqldir/insert.sql" &
        pids="$pids $!"
    done
    for p in $pids; do wait "$p" || rc=1; done
    [ "$rc" = 0 ] || { echo "ERROR: loading tablet failed"; return 1; }
    gx_psql -q -d "$db" -v rows="$rows" -f "$sqldir/finish.sql" || return 1
    gx_log "tablet loaded in $((SECONDS - t0)) s ($(gx_psql -At -d "$db" -c "SELECT pg_size_pretty(pg_table_size('tablet'))"))"
}
