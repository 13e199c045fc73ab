#!/usr/bin/env bash
# bench/plot/plot.sh JSON [PNG] - a PNG chart of a benchmark: per query,
# the time of each configuration on a log scale (bars), from the JSON of
# bench/run.sh (bench.json: every configuration it ran) or of
# bench/compare.sh (compare.json: the new build's PG par8, GPU par8, GPU
# cold, GPU cached, and DuckDB).  Uses gnuplot (Debian: gnuplot-nox) and
# python3; PNG defaults to the JSON's name with .png.
#
#   bench/plot/plot.sh /tmp/out/bench.json
set -u -o pipefail

JSON=${1:?usage: bench/plot/plot.sh JSON [PNG]}
PNG=${2:-${JSON%.json}.png}
for t in gnuplot python3; do
    command -v "$t" >/dev/null 2>&1 || { echo "ERROR: $t not found (Debian: apt-get install gnuplot-nox python3)"; exit 1; }
done
DAT=$(mktemp /tmp/gpuext-plot.XXXXXX)
trap 'rm -f "$DAT"' EXIT

# the table: a header of configuration titles, then a query a line
TITLE=$(python3 - "$JSON" "$DAT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = []
if "old" in d and "new" in d:                                  # compare.json
    names = {"par8": "PG par8", "gpupar": "GPU par8", "gpu": "GPU cold", "gpucache": "GPU cached"}
    cols = [c for c in ["par8", "gpupar", "gpu", "gpucache"] if c in d.get("configs", {})]
    for q in d["queries"]:
        r = [q["configs"].get(c, {}).get("new_ms") for c in cols] + [q.get("duckdb_ms")]
        rows.append((q["query"], r))
    titles = [names[c] for c in cols] + ["DuckDB 16t"]
    what = "gpuext %s, %s rows" % (str(d.get("new", ""))[:12], d.get("rows"))
else:                                                          # bench.json
    names = [("pg_serial", "PG serial"), ("pg_par8", "PG par8"), ("gpuext_cpu", "gpuext CPU"),
             ("gpuext_gpu", "GPU copy"), ("gpu_par8", "GPU par8"), ("gpu_cached", "GPU cached"),
             ("duckdb", "DuckDB")]
    present = [(k, t) for k, t in names if any(q["ms"].get(k) for q in d["queries"])]
    titles = [t for _, t in present]
    for q in d["queries"]:
        rows.append((q["query"], [q["ms"].get(k) for k, _ in present]))
    what = "%s rows" % d.get("rows")
with open(sys.argv[2], "w") as f:
    f.write("query\t" + "\t".join('"%s"' % t for t in titles) + "\n")
    for q, r in rows:
        f.write(q + "\t" + "\t".join("%g" % v if v else "NaN" for v in r) + "\n")
print("%s; %s; %s" % (what, d.get("gpu") or "no GPU", d.get("postgres", "")))
PY
) || exit 1
NCOL=$(head -n 1 "$DAT" | awk -F'\t' '{print NF}')

gnuplot <<GP || exit 1
set terminal pngcairo size 1400,700 font ",11"
set output "$PNG"
set title "gpuext benchmark: ms per query (log scale, lower is better)\n$TITLE" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set ylabel "ms"
set grid ytics
set key outside right top noenhanced
set datafile separator "\t"
set datafile missing "NaN"
plot for [c=2:$NCOL] "$DAT" using c:xtic(1) title columnheader(c)
GP
echo "wrote $PNG"
