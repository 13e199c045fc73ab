#!/usr/bin/env bash
# bench/duckdb/fetch.sh - put DuckDB's shared library into the checkout's
# ignored .carry/ folder, for bench/run.sh on the GPU host (no network):
#
#   bench/duckdb/fetch.sh                 # pinned version (below)
#   DUCKDB_NPM_VERSION=latest bench/duckdb/fetch.sh
#
# Runs on a machine that reaches the npm registry: installs the platform
# package of DuckDB's Node bindings (@duckdb/node-bindings-linux-x64, which
# ships a plain libduckdb.so with the full C API) into a temp dir, checks it
# by building and running gx_duckdb_bench against it, and writes
# .carry/libduckdb.so.xz (xz -9).  Needs npm, gcc, xz.

set -u -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PKG=@duckdb/node-bindings-linux-x64
VER=${DUCKDB_NPM_VERSION:-1.5.6-r.1}
DEST=$ROOT/.carry/libduckdb.so.xz
CARRY_LIMIT=$((64 * 1024 * 1024))

for t in npm gcc xz; do
    command -v "$t" >/dev/null 2>&1 || { echo "ERROR: $t not found"; exit 1; }
done
TMP=$(mktemp -d /tmp/gx_duckdb_fetch.XXXXXX) || exit 1
trap 'rm -rf "$TMP"' EXIT

echo "==> npm install $PKG@$VER"
(cd "$TMP" && npm install --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
    "$PKG@$VER" >npm.log 2>&1) || { cat "$TMP/npm.log"; echo "ERROR: npm install failed"; exit 1; }
LIB=$(find "$TMP/node_modules" -name libduckdb.so -type f | head -n 1)
[ -n "$LIB" ] || { echo "ERROR: no libduckdb.so in $PKG"; exit 1; }
NPMVER=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$(dirname "$LIB")/package.json" | head -n 1)

echo "==> checking $LIB ($(du -h "$LIB" | cut -f1), npm version $NPMVER)"
gcc -O2 -o "$TMP/gx_duckdb_bench" "$HERE/gx_duckdb_bench.c" -L"$(dirname "$LIB")" -lduckdb \
    -Wl,-rpath,"$(dirname "$LIB")" || { echo "ERROR: gx_duckdb_bench does not build"; exit 1; }
OUTP=$("$TMP/gx_duckdb_bench" --threads 2 --exec "SELECT 42 // 5, -7 // 2") ||
    { echo "$OUTP"; echo "ERROR: gx_duckdb_bench does not run"; exit 1; }
echo "$OUTP"
echo "$OUTP" | grep -qx 'exec=1 result=8|-3' || { echo "ERROR: unexpected answer"; exit 1; }
LIBVER=$(echo "$OUTP" | sed -n 's/^version=//p')
echo "==> glibc versions needed: $(objdump -T "$LIB" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)," \
    "libstdc++: $(objdump -T "$LIB" 2>/dev/null | grep -o 'GLIBCXX_[0-9.]*' | sort -uV | tail -n 1)"

echo "==> xz -9 -> $DEST"
mkdir -p "$ROOT/.carry"
xz -9 -c "$LIB" >"$TMP/libduckdb.so.xz" || { echo "ERROR: xz failed"; exit 1; }
rm -f "$DEST"
mv "$TMP/libduckdb.so.xz" "$DEST" || exit 1

size=$(stat -c %s "$DEST")
total=$(du -cb "$ROOT/.carry" | tail -n 1 | cut -f1)
echo "==> $DEST: $size bytes; DuckDB $LIBVER (npm $PKG@$NPMVER)"
echo "==> .carry/ holds $total bytes of the $CARRY_LIMIT allowed:"
ls -l "$ROOT/.carry"
if [ "$total" -gt "$CARRY_LIMIT" ]; then
    echo "ERROR: .carry/ is over 64 MiB"
    exit 1
fi
