#!/usr/bin/env python3
"""bench/compare_report.py RAW OUTDIR QDIR - the report of bench/compare.sh.

Reads RAW (compare_raw.tsv, tab-separated lines written by compare.sh):
  meta  KEY VALUE
  title CONFIG TITLE
  phase INDEX old|new SECONDS SO_MD5 CACHE_LOAD_MS NGPU
  ms    INDEX old|new CONFIG QUERY MS PLAN RESULT
  duck  QUERY MS RESULT
and writes OUTDIR/compare.md, OUTDIR/compare.json and
OUTDIR/compare_summary.txt (a compact text table, also printed).  A
query's figure for a build is the lowest of that build's phases; ratio =
new / old (above 1: the new build is slower).  Exit status 2 when results
differ between runs (MISMATCH), else 0.
"""
import json
import math
import os
import sys

DISPLAY = ["gpu", "gpupar", "gpucache", "par8"]   # table column order


def num(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def fms(v):
    if v is None:
        return "n/a"
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    return "%.2f" % v


def fr(v):
    return "n/a" if v is None else "%.3f" % v


def main():
    raw_path, outdir, qdir = sys.argv[1:4]
    meta, titles, phases, runs, duck = {}, {}, [], [], {}
    notes = []
    with open(raw_path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if p[0] == "meta" and len(p) >= 3:
                if p[1] == "note":
                    notes.append(p[2])
                else:
                    meta[p[1]] = p[2]
            elif p[0] == "title" and len(p) >= 3:
                titles[p[1]] = p[2]
            elif p[0] == "phase" and len(p) >= 7:
                phases.append({"phase": int(p[1]), "build": p[2], "seconds": int(p[3]),
                               "gpuext_so_md5": p[4], "cache_load_ms": num(p[5]),
                               "gpus": int(p[6]) if p[6].isdigit() else None})
            elif p[0] == "ms" and len(p) >= 8:
                runs.append({"phase": int(p[1]), "build": p[2], "config": p[3], "query": p[4],
                             "ms": num(p[5]), "plan": p[6], "result": p[7]})
            elif p[0] == "duck" and len(p) >= 4:
                duck[p[1]] = {"ms": num(p[2]), "result": p[3]}

    configs = [c for c in DISPLAY if c in meta.get("configs", "").split()]
    queries = []
    for r in runs:
        if r["query"] not in queries:
            queries.append(r["query"])
    queries.sort(key=lambda q: int(q[1:]) if q[1:].isdigit() else 0)

    def sql(q):
        try:
            with open(os.path.join(qdir, q + ".sql")) as f:
                return " ".join(f.read().split())
        except OSError:
            return ""

    # per query: reference result (first run), mismatches
    ref, mismatches = {}, []
    for r in runs:
        q = r["query"]
        if q not in ref:
            ref[q] = r["result"]
        elif r["result"] != ref[q]:
            mismatches.append("%s: %s (%s build, phase %d) returned '%s', first run '%s'"
                              % (q, titles.get(r["config"], r["config"]), r["build"], r["phase"],
                                 r["result"], ref[q]))
    for q, d in duck.items():
        if q in ref and d["result"] != ref[q]:
            mismatches.append("%s: DuckDB returned '%s', PostgreSQL '%s'" % (q, d["result"], ref[q]))

    # best (lowest) per build, query, config
    table = {}
    for q in queries:
        table[q] = {}
        for c in configs:
            cell = {}
            for b in ("old", "new"):
                vals = [r["ms"] for r in runs if r["query"] == q and r["config"] == c and r["build"] == b]
                good = [v for v in vals if v is not None]
                cell[b + "_runs_ms"] = vals
                cell[b + "_ms"] = min(good) if good else None
                plans = sorted({r["plan"] for r in runs if r["query"] == q and r["config"] == c and r["build"] == b})
                cell[b + "_plan"] = ",".join(plans)
            o, n = cell["old_ms"], cell["new_ms"]
            cell["ratio"] = round(n / o, 4) if (o and n) else None
            table[q][c] = cell

    summary_cfg = {}
    for c in configs:
        rs = [(table[q][c]["ratio"], q) for q in queries if table[q][c]["ratio"] is not None]
        if rs:
            worst = max(rs)
            best = min(rs)
            gm = math.exp(sum(math.log(r) for r, _ in rs) / len(rs))
            summary_cfg[c] = {"title": titles.get(c, c), "worst_ratio": worst[0], "worst_query": worst[1],
                              "best_ratio": best[0], "best_query": best[1], "geomean_ratio": round(gm, 4),
                              "queries": len(rs)}
        else:
            summary_cfg[c] = {"title": titles.get(c, c), "worst_ratio": None, "worst_query": None,
                              "best_ratio": None, "best_query": None, "geomean_ratio": None, "queries": 0}

    old_ph = [p["phase"] for p in phases if p["build"] == "old"]
    new_ph = [p["phase"] for p in phases if p["build"] == "new"]
    cpu_dev = meta.get("device") == "cpu"
    dk_title = "DuckDB %st" % meta.get("duckdb_threads", "16")
    have_duck = bool(duck)

    # ---------------------------------------------------------------- text
    # columns: query, then per configuration old / new / new/old, DuckDB;
    # two header lines: the configuration over its three columns
    sub = ["query"]
    groups = []          # (title, first column, number of columns)
    for c in configs:
        groups.append((titles.get(c, c), len(sub), 3))
        sub += ["old", "new", "new/old"]
    if have_duck:
        groups.append((dk_title, len(sub), 1))
        sub.append("ms")
    rows = []
    for q in queries:
        row = [q]
        for c in configs:
            cell = table[q][c]
            row += [fms(cell["old_ms"]), fms(cell["new_ms"]), fr(cell["ratio"])]
        if have_duck:
            row.append(fms(duck.get(q, {}).get("ms")))
        rows.append(row)
    widths = [max(len(str(r[i])) for r in [sub] + rows) for i in range(len(sub))]
    for title, first, n in groups:     # widen a group's first column for a long title
        span = sum(widths[first:first + n]) + 2 * (n - 1)
        if len(title) > span:
            widths[first] += len(title) - span

    def line(r):
        cells = []
        for i, v in enumerate(r):
            cells.append(str(v).ljust(widths[i]) if i == 0 else str(v).rjust(widths[i]))
        return "  ".join(cells).rstrip()

    top = " " * widths[0]
    for title, first, n in groups:
        span = sum(widths[first:first + n]) + 2 * (n - 1)
        top += "  " + title.center(span)

    txt = []
    txt.append("gpuext old vs new: %s rows, ms (best of %d old / %d new phase(s)); new/old > 1: new slower"
               % (meta.get("rows", "?"), len(old_ph), len(new_ph)))
    if cpu_dev:
        txt.append("NO GPU: the GPU configurations ran on gpuext's CPU device ([cpu dev])")
    txt.append(top.rstrip())
    txt.append(line(sub))
    for r in rows:
        txt.append(line(r))
    for c in configs:
        s = summary_cfg[c]
        if s["worst_ratio"] is None:
            txt.append("%-22s worst new/old n/a" % (s["title"] + ":"))
        else:
            txt.append("%-22s worst new/old %s (%s), geomean %s, best %s (%s)"
                       % (s["title"] + ":", fr(s["worst_ratio"]), s["worst_query"], fr(s["geomean_ratio"]),
                          fr(s["best_ratio"]), s["best_query"]))
    cl = {b: [p["cache_load_ms"] for p in phases if p["build"] == b and p["cache_load_ms"] is not None]
          for b in ("old", "new")}
    if cl["old"] or cl["new"]:
        txt.append("cache load ms: old %s, new %s" % (" ".join(fms(v) for v in cl["old"]) or "n/a",
                                                     " ".join(fms(v) for v in cl["new"]) or "n/a"))
    txt.append("phases: " + ", ".join("%d %s %ds (so %s)" % (p["phase"], p["build"], p["seconds"], p["gpuext_so_md5"])
                                      for p in phases)
               + "; total %s s" % meta.get("total_s", "?"))
    if not have_duck:
        txt.append("DuckDB: " + meta.get("duckdb_note", "not run"))
    for n in notes:
        txt.append("note: " + n)
    if meta.get("failed") == "1":
        txt.append("ERROR: a phase failed; the table holds what ran")
    if mismatches:
        txt.append("MISMATCH: " + "; ".join(mismatches))
    else:
        txt.append("results: all runs agree" + (" (DuckDB too)" if have_duck else ""))
    summary = "\n".join(txt) + "\n"

    # ---------------------------------------------------------------- markdown
    md = []
    md.append("# gpuext old vs new (%s rows)" % meta.get("rows", "?"))
    md.append("")
    md.append("- old: `%s`; new: `%s`" % (meta.get("old_label", "?"), meta.get("new_label", "?")))
    md.append("- %s, CPU: %s (%s cores), GPU: %s"
              % (meta.get("postgres", "?"), meta.get("cpu", "?"), meta.get("cores", "?"), meta.get("gpu") or "none"))
    if cpu_dev:
        md.append("- **NO GPU**: the GPU configurations ran on gpuext's CPU device (`gpuext.device=cpu`), marked [cpu dev]")
    bt = meta.get("bench_t", "?")
    if bt == "0":
        md.append("- ms: queries of 1 s or more: one client-timed run; faster ones: mean statement latency of "
                  "`pgbench -n -t %s -r` (bench/run.sh's BENCH_T=0)" % meta.get("bench_t_fast", "5"))
    else:
        md.append("- ms: mean statement latency of `pgbench -n -t %s -r`, after a result-check run" % bt)
    md.append("- phases (one cluster; restart + swap of gpuext.so and extension files + DROP/CREATE EXTENSION, "
              "pg_prewarm, gpuext_cache_load before each): "
              + ", ".join("%d %s (%d s, gpuext.so md5 %s, cache load %s ms)"
                          % (p["phase"], p["build"], p["seconds"], p["gpuext_so_md5"], fms(p["cache_load_ms"]))
                          for p in phases))
    md.append("- old/new figure: the lowest of that build's phases; new/old > 1: the new build is slower; "
              "PG par8 (gpuext off) shows the run-to-run noise")
    if have_duck:
        md.append("- %s: DuckDB %s, in-memory copy of tablet (CSV export %s s, load %s ms), mean of %s runs; "
                  "a reference, run once" % (dk_title, meta.get("duckdb_version", "?"), meta.get("duckdb_export_s", "?"),
                                             meta.get("duckdb_load_ms", "?"), meta.get("duckdb_reps", "?")))
    else:
        md.append("- DuckDB: n/a, %s" % meta.get("duckdb_note", "not run"))
    for n in notes:
        md.append("- note: " + n)
    md.append("")
    hdr = "| query"
    sep = "|---"
    for c in configs:
        t = titles.get(c, c)
        hdr += " | %s old ms | %s new ms | new/old" % (t, t)
        sep += "|---:|---:|---:"
    if have_duck:
        hdr += " | %s ms" % dk_title
        sep += "|---:"
    md.append(hdr + " | same |")
    md.append(sep + "|---|")
    for q in queries:
        row = "| " + q
        for c in configs:
            cell = table[q][c]
            row += " | %s | %s | %s" % (fms(cell["old_ms"]), fms(cell["new_ms"]), fr(cell["ratio"]))
        if have_duck:
            row += " | " + fms(duck.get(q, {}).get("ms"))
        same = "yes" if not any(m.startswith(q + ":") for m in mismatches) else "**MISMATCH**"
        nogs = [c for c in configs if c != "par8" and "pg" in (table[q][c]["old_plan"] + "," + table[q][c]["new_plan"]).split(",")]
        if nogs:
            same += " (no GpuScan: %s)" % ",".join(nogs)
        md.append(row + " | %s |" % same)
    md.append("")
    md.append("| configuration | worst new/old | query | geomean | best | query |")
    md.append("|---|---:|---|---:|---:|---|")
    for c in configs:
        s = summary_cfg[c]
        md.append("| %s | %s | %s | %s | %s | %s |" % (s["title"], fr(s["worst_ratio"]), s["worst_query"] or "",
                                                    fr(s["geomean_ratio"]), fr(s["best_ratio"]), s["best_query"] or ""))
    md.append("")
    md.append("Results: " + "; ".join("%s=%s" % (q, ref.get(q, "")) for q in queries))
    if mismatches:
        md.append("")
        md.append("**MISMATCH**: " + "; ".join(mismatches))
    md.append("")
    md.append("Queries:")
    md.append("")
    for q in queries:
        md.append("- %s: `%s`" % (q, sql(q)))
    md.append("")
    md.append("Per-phase figures: compare.json (`queries[].configs[].old_runs_ms` / `new_runs_ms`, in phase order).")

    # ---------------------------------------------------------------- json
    doc = {
        "rows": int(meta["rows"]) if meta.get("rows", "").isdigit() else None,
        "old": meta.get("old_label"), "new": meta.get("new_label"),
        "postgres": meta.get("postgres"), "cpu": meta.get("cpu"),
        "cores": int(meta["cores"]) if meta.get("cores", "").isdigit() else None,
        "gpu": meta.get("gpu") or None,
        "gpu_configs_device": meta.get("device"),
        "transactions_per_query": int(bt) if bt.isdigit() else None,
        "fast_query_transactions": int(meta.get("bench_t_fast", "5")),
        "pairs_planned": int(meta.get("pairs_planned", "0")), "pairs_run": int(meta.get("pairs_run", "0")),
        "budget_s": int(meta.get("budget_s", "0")), "load_s": int(meta.get("load_s", "0")),
        "total_s": int(meta.get("total_s", "0")),
        "failed": meta.get("failed") == "1",
        "mismatch": bool(mismatches), "mismatches": mismatches,
        "notes": notes,
        "phases": phases,
        "configs": {c: titles.get(c, c) for c in configs},
        "duckdb": {"title": dk_title, "version": meta.get("duckdb_version"),
                   "threads": int(meta["duckdb_threads"]) if meta.get("duckdb_threads", "").isdigit() else None,
                   "reps": int(meta["duckdb_reps"]) if meta.get("duckdb_reps", "").isdigit() else None,
                   "load_ms": num(meta.get("duckdb_load_ms")), "export_s": num(meta.get("duckdb_export_s")),
                   "note": meta.get("duckdb_note", "") if not have_duck else ""},
        "queries": [{"query": q, "sql": sql(q), "result": ref.get(q),
                     "configs": table[q],
                     "duckdb_ms": duck.get(q, {}).get("ms"), "duckdb_result": duck.get(q, {}).get("result")}
                    for q in queries],
        "summary": summary_cfg,
    }
    with open(os.path.join(outdir, "compare.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(os.path.join(outdir, "compare.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(outdir, "compare_summary.txt"), "w") as f:
        f.write(summary)
    print()
    print(summary, end="")
    return 2 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
