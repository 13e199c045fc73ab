# test/prereqs.sh - sourced: gx_prereqs, what the README's two commands
# (bench/demo.sh, test/run.sh) and CI (.ci/run) need on a Debian or Ubuntu
# machine, installed when missing: a PostgreSQL server of the major
# version asked for (PG_CONFIG's, else 15), its server development
# package pinned to the installed server's own version (an unpinned one
# may pull newer server packages in under running clusters), g++, make,
# runuser and useradd.  Without apt-get, or without root or sudo, it stops
# with one line naming what to install.  A PG_CONFIG of a PostgreSQL not
# installed by packages (a relocatable build) must come with its headers.
#
# Environment: PG_CONFIG; GPUEXT_NO_INSTALL=1 only reports what is missing.

# gx_prereqs: returns 0 when everything is there (now); else 1
gx_prereqs() {
    local major=15 need="" sudo="" ver pgc inc
    if [ -n "${PG_CONFIG:-}" ] && [ -x "$PG_CONFIG" ]; then
        pgc=$PG_CONFIG
        major=$("$pgc" --version 2>/dev/null | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')
        inc=$("$pgc" --includedir-server 2>/dev/null)
        case "$pgc" in
            /usr/lib/postgresql/*|/usr/bin/pg_config) ;;
            *)
                # not a packaged PostgreSQL: nothing to install for it
                if [ ! -f "$inc/postgres.h" ]; then
                    echo "ERROR: $pgc has no server headers ($inc/postgres.h): use a PostgreSQL built with its headers installed"
                    return 1
                fi
                pgc="" ;;
        esac
    else
        pgc=/usr/lib/postgresql/$major/bin/pg_config
        inc=/usr/include/postgresql/$major/server
    fi
    if [ -n "$pgc" ]; then
        [ -x "/usr/lib/postgresql/$major/bin/initdb" ] || need="$need postgresql-$major"
        { [ -x "/usr/lib/postgresql/$major/bin/pg_config" ] && [ -f "$inc/postgres.h" ] &&
            [ -f "/usr/lib/postgresql/$major/lib/pgxs/src/makefiles/pgxs.mk" ]; } ||
            need="$need postgresql-server-dev-$major"
    fi
    command -v g++ >/dev/null 2>&1 || need="$need g++"
    command -v make >/dev/null 2>&1 || need="$need make"
    command -v runuser >/dev/null 2>&1 || need="$need util-linux"
    command -v useradd >/dev/null 2>&1 || need="$need passwd"
    [ -z "$need" ] && return 0
    # the dev package of the server that is installed, at its version
    if command -v dpkg-query >/dev/null 2>&1; then
        ver=$(dpkg-query -W -f='${Version}' "postgresql-$major" 2>/dev/null)
        [ -n "$ver" ] && need=$(echo "$need" | sed "s/ postgresql-server-dev-$major\b/ postgresql-server-dev-$major=$ver/")
    fi

    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null 2>&1 && sudo="sudo"
    fi
    if [ "${GPUEXT_NO_INSTALL:-0}" = 1 ] || ! command -v apt-get >/dev/null 2>&1 ||
        { [ "$(id -u)" != 0 ] && [ -z "$sudo" ]; }; then
        echo "ERROR: missing:$need (on Debian/Ubuntu: apt-get install$need)"
        return 1
    fi
    echo "==> installing:$need"
    export DEBIAN_FRONTEND=noninteractive
    # keep the distribution's own cluster from being created and started
    if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
        $sudo mkdir -p /etc/postgresql-common
        echo "create_main_cluster = false" | $sudo tee /etc/postgresql-common/createcluster.conf >/dev/null
    fi
    $sudo apt-get update -qq || echo "WARNING: apt-get update failed"
    if ! apt-cache show "postgresql-$major" >/dev/null 2>&1; then
        # not in this distribution: PostgreSQL's own repository
        echo "==> postgresql-$major is not in the distribution: adding apt.postgresql.org"
        $sudo apt-get install -y -qq ca-certificates curl gnupg lsb-release >/dev/null
        local codename
        codename=$(lsb_release -cs 2>/dev/null)
        [ -n "$codename" ] || codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
        $sudo install -d /usr/share/postgresql-common/pgdg
        curl -fsSL https://www.postgresql.org/media/keys/ACCC4CF8.asc |
            $sudo tee /usr/share/postgresql-common/pgdg/apt.postgresql.org.asc >/dev/null
        echo "deb [signed-by=/usr/share/postgresql-common/pgdg/apt.postgresql.org.asc] https://apt.postgresql.org/pub/repos/apt ${codename}-pgdg main" |
            $sudo tee /etc/apt/sources.list.d/pgdg.list >/dev/null
        $sudo apt-get update -qq
    fi
    # shellcheck disable=SC2086
    if ! $sudo apt-get install -y -qq --no-install-recommends $need; then
        echo "ERROR: apt-get install$need failed"
        return 1
    fi
}
