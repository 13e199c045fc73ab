#!/usr/bin/env python3
"""bench/bench_json.py FACTS JSON - bench.json of bench/run.sh, written
with Python's json module from the facts bench/run.sh collects (one per
line, tab-separated):

  meta NAME VALUE              rows, transactions_per_query, postgres, cpu,
                               cores, gpu, mismatch (0/1)
  duckdb NAME VALUE            title, version, threads, load_ms, export_s, note
  query Q sql TEXT             a query's SQL, in query order
  ms Q CONFIG VALUE            ms of a query in a configuration
  plan Q CONFIG VALUE          gpuscan / pg
  result Q CONFIG VALUE        the query's result in a configuration
  tpcb NAME VALUE...           scale, runs_each, tps_with_gpuext,
                               tps_without_gpuext, ratio (one value);
                               runs_with, runs_without (several)

Numbers that are not numbers (n/a, err, empty) become null.
"""
import json
import sys

MS_KEYS = [("serial", "pg_serial"), ("par8", "pg_par8"), ("cpu", "gpuext_cpu"),
           ("gpu", "gpuext_gpu"), ("gpuhd", "gpu_backend_deform"), ("gpumap", "gpu_mapped"),
           ("gpupar", "gpu_par8"), ("gpucache", "gpu_cached"), ("duckdb", "duckdb")]
RESULT_KEYS = [("serial", "pg_serial"), ("par8", "pg_par8"), ("cpu", "gpuext_cpu"),
               ("gpu", "gpuext_gpu"), ("duckdb", "duckdb")]


def num(v):
    """a float (an int when whole), or None"""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return int(f) if f.is_integer() and "." not in str(v) else f


def main(facts_path, json_path):
    meta, duck, tpcb = {}, {}, {}
    order, sql, ms, plan, res = [], {}, {}, {}, {}
    with open(facts_path, encoding="utf-8") as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            kind = p[0]
            if kind == "meta":
                meta[p[1]] = p[2] if len(p) > 2 else ""
            elif kind == "duckdb":
                duck[p[1]] = p[2] if len(p) > 2 else ""
            elif kind == "query":
                order.append(p[1])
                sql[p[1]] = p[3] if len(p) > 3 else ""
            elif kind in ("ms", "plan", "result"):
                d = {"ms": ms, "plan": plan, "result": res}[kind]
                d[(p[1], p[2])] = p[3] if len(p) > 3 else ""
            elif kind == "tpcb":
                tpcb[p[1]] = p[2:]
    out = {
        "rows": num(meta.get("rows")),
        "transactions_per_query": num(meta.get("transactions_per_query")),
        "postgres": meta.get("postgres", ""),
        "cpu": meta.get("cpu", ""),
        "cores": num(meta.get("cores")),
        "gpu": meta.get("gpu", ""),
        "mismatch": meta.get("mismatch") == "1",
        "duckdb": {"title": duck.get("title", ""), "version": duck.get("version", ""),
                   "threads": num(duck.get("threads")), "load_ms": num(duck.get("load_ms")),
                   "export_s": num(duck.get("export_s")), "note": duck.get("note", "")},
        "queries": [],
    }
    for q in order:
        m = {name: num(ms.get((q, c))) for c, name in MS_KEYS}
        g, d = m["gpuext_gpu"], m["duckdb"]
        out["queries"].append({
            "query": q,
            "sql": sql[q],
            "ms": m,
            "gpu_vs_duckdb": round(d / g, 3) if g and d else None,
            "plan": {"gpuext_cpu": plan.get((q, "cpu"), ""), "gpuext_gpu": plan.get((q, "gpu"), "")},
            "result": {name: res.get((q, c), "") for c, name in RESULT_KEYS},
        })
    one = lambda k: num((tpcb.get(k) or [None])[0])
    out["tpcb"] = {"scale": one("scale"), "runs_each": one("runs_each"),
                   "tps_with_gpuext": one("tps_with_gpuext"),
                   "tps_without_gpuext": one("tps_without_gpuext"), "ratio": one("ratio"),
                   "runs_with": [num(v) for v in tpcb.get("runs_with", []) if v != ""],
                   "runs_without": [num(v) for v in tpcb.get("runs_without", []) if v != ""]}
    with open(json_path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: bench_json.py FACTS JSON")
    main(sys.argv[1], sys.argv[2])
