#!/usr/bin/env python3
"""bench/tpch/tpch_json.py FACTS JSON - tpch.json of bench/tpch.sh, written
with Python's json module from its facts (one a line, tab-separated):

  meta NAME VALUE           sf, lineitem_rows, load_s, postgres, cpu, cores,
                            gpu, cache_load_ms, mismatch, explain_config,
                            q1_scan_ms, q1_exec_ms, ...
  duckdb NAME VALUE         title, version, threads, export_s, note
  title CONFIG TEXT         a configuration's title
  query Q SQL               a query's text, in query order
  ms / plan / same / result Q CONFIG VALUE

Per query and configuration: ms, speedup (PG serial ms / ms), plan, same,
result.  Values that are not numbers (n/a, err, empty) become null where a
number is expected.
"""
import json
import sys

NUMERIC_META = {"sf", "lineitem_rows", "load_s", "transactions_per_query", "cores",
                "cache_load_ms", "mismatch", "q1_scan_ms", "q1_exec_ms"}


def num(v):
    """a float (an int when whole), or None"""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return int(f) if f.is_integer() else f


def main():
    meta, duck, titles, queries = {}, {}, {}, {}
    order = []
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            kind = p[0]
            if kind == "meta":
                meta[p[1]] = num(p[2]) if p[1] in NUMERIC_META else (p[2] if len(p) > 2 else "")
            elif kind == "duckdb":
                duck[p[1]] = num(p[2]) if p[1] in ("threads", "export_s") else (p[2] if len(p) > 2 else "")
            elif kind == "title":
                titles[p[1]] = p[2]
            elif kind == "query":
                order.append(p[1])
                queries[p[1]] = {"sql": p[2], "configs": {}}
            elif kind in ("ms", "plan", "same", "result"):
                cfg = queries[p[1]]["configs"].setdefault(p[2], {"title": titles.get(p[2], p[2])})
                v = p[3] if len(p) > 3 else ""
                cfg[kind] = num(v) if kind == "ms" else (None if v in ("", "n/a") else v)
    for q in order:
        cfgs = queries[q]["configs"]
        ref = cfgs.get("serial", {}).get("ms")
        for c in cfgs.values():
            c["speedup_vs_pg_serial"] = round(ref / c["ms"], 3) if ref and c.get("ms") else None
    out = {"meta": meta, "duckdb": duck, "queries": {q: queries[q] for q in order}}
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
