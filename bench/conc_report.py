#!/usr/bin/env python3
"""bench/conc_report.py - the Python parts of bench/concurrency.sh.

  conc_report.py lat PREFIX CLASS...
      Latencies of one pgbench run from its per-transaction logs
      (pgbench -l --log-prefix=PREFIX: files PREFIX.<pid>[.<thread>]).
      CLASS i names the class of script i (the order of the -f options):
      "read" or "update".  Prints "name value" lines, for each class C
      present: C_n (transactions logged), C_failed (logged as failed or
      skipped), C_p50_ms, C_p99_ms, C_mean_ms; and per script i of class
      C: C_s<i>_n, C_s<i>_p50_ms, C_s<i>_p99_ms.  A log line is
        client_id transaction_no time script_no time_epoch time_us [schedule_lag]
      with time the latency in microseconds (with --rate, counted from the
      transaction's scheduled start).

  conc_report.py report FACTS JSON TXT
      The summary of a bench/concurrency.sh run, from its facts file (one
      fact a line, tab-separated):
        meta NAME VALUE              settings and host facts
        run WORKLOAD MODE NAME VALUE one figure of a run
        tpcb NAME VALUE...           TPC-B pairs (tps_off, tps_cached: several)
      Writes JSON (Python's json module) and the text table TXT.

Numbers that are not numbers (n/a, err, empty) become null / "n/a".
"""
import glob
import json
import math
import sys


def num(v):
    """a float (an int when whole and written without a dot), or None"""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    if math.isnan(f) or math.isinf(f):
        return None
    return int(f) if f.is_integer() and "." not in str(v) else f


def pct(sorted_vals, p):
    """the p-th percentile (nearest rank) of sorted values, or None"""
    if not sorted_vals:
        return None
    k = max(0, min(len(sorted_vals) - 1, int(math.ceil(p / 100.0 * len(sorted_vals))) - 1))
    return sorted_vals[k]


def lat(prefix, classes):
    per_script = {}
    failed = {}
    for path in glob.glob(prefix + ".*"):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                p = line.split()
                if len(p) < 4:
                    continue
                try:
                    script = int(p[3])
                except ValueError:
                    continue
                try:
                    us = float(p[2])
                except ValueError:
                    failed[script] = failed.get(script, 0) + 1
                    continue
                per_script.setdefault(script, []).append(us / 1000.0)
    out = []
    by_class = {}
    for i, cls in enumerate(classes):
        vals = sorted(per_script.get(i, []))
        out.append(("%s_s%d_n" % (cls, i), len(vals)))
        out.append(("%s_s%d_p50_ms" % (cls, i), pct(vals, 50)))
        out.append(("%s_s%d_p99_ms" % (cls, i), pct(vals, 99)))
        c = by_class.setdefault(cls, {"vals": [], "failed": 0})
        c["vals"].extend(vals)
        c["failed"] += failed.get(i, 0)
    for cls, c in by_class.items():
        vals = sorted(c["vals"])
        out.append(("%s_n" % cls, len(vals)))
        out.append(("%s_failed" % cls, c["failed"]))
        out.append(("%s_p50_ms" % cls, pct(vals, 50)))
        out.append(("%s_p99_ms" % cls, pct(vals, 99)))
        out.append(("%s_mean_ms" % cls, sum(vals) / len(vals) if vals else None))
    for k, v in out:
        if v is None:
            print(k, "n/a")
        elif isinstance(v, float):
            print(k, "%.3f" % v)
        else:
            print(k, v)


def fmt(v, spec="%.1f"):
    return "n/a" if v is None else spec % v


def report(facts_path, json_path, txt_path):
    meta, tpcb = {}, {}
    runs, order = {}, []
    with open(facts_path, encoding="utf-8") as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if p[0] == "meta":
                meta[p[1]] = p[2] if len(p) > 2 else ""
            elif p[0] == "run" and len(p) >= 5:
                key = (p[1], p[2])
                if key not in runs:
                    runs[key] = {}
                    order.append(key)
                runs[key][p[3]] = p[4]
            elif p[0] == "tpcb":
                tpcb[p[1]] = p[2:]

    run_docs = []
    for wl, mode in order:
        r = runs[(wl, mode)]
        g = lambda k: num(r.get(k))
        chunks, cchunks, rows_in = g("stat_chunks"), g("stat_cache_chunks"), g("stat_rows_in")
        entry_rows = g("cache_entry_rows")
        chunk_frac = cchunks / chunks if chunks and cchunks is not None else None
        row_frac = None
        crows = g("stat_cache_rows")
        if rows_in and crows is not None:
            row_frac = min(1.0, crows / rows_in)
        elif rows_in and cchunks is not None and entry_rows is not None:
            row_frac = min(1.0, cchunks * entry_rows / rows_in)
        run_docs.append({
            "workload": wl, "mode": mode,
            "update_method": r.get("update_method", ""),
            "updates_per_client_s": g("per_client_rate"),
            "target_update_rate": g("target_rate"),
            "tps": g("tps"), "read_tps": g("read_tps"), "update_tps": g("update_tps"),
            "read_latency_ms": {"p50": g("read_p50_ms"), "p99": g("read_p99_ms"),
                                "mean": g("read_mean_ms"), "n": g("read_n")},
            "read_latency_ms_per_query": {
                "q1": {"p50": g("read_s0_p50_ms"), "p99": g("read_s0_p99_ms"), "n": g("read_s0_n")},
                "q2": {"p50": g("read_s1_p50_ms"), "p99": g("read_s1_p99_ms"), "n": g("read_s1_n")}},
            "update_latency_ms": {"p50": g("update_p50_ms"), "p99": g("update_p99_ms"),
                                  "n": g("update_n")},
            "failed_transactions": (g("read_failed") or 0) + (g("update_failed") or 0),
            "plan": r.get("plan", ""),
            "cache_before": {"rows": g("cache_rows"), "entries": g("cache_entries"),
                             "state": r.get("cache_state_before", ""),
                             "load_attempts": g("load_attempts")},
            "cache_state_after": r.get("cache_state_after", ""),
            "gpuext_stat": {k[5:]: g(k) for k in sorted(r) if k.startswith("stat_")},
            "cache_chunk_fraction": chunk_frac,
            "cache_row_fraction_est": row_frac,
            "pgbench_ok": r.get("pgbench_ok") == "1",
        })

    # gpu / off per workload
    ratios = []
    by = {(d["workload"], d["mode"]): d for d in run_docs}
    for wl in dict.fromkeys(w for w, _ in order):
        off, gpu = by.get((wl, "off")), by.get((wl, "gpu"))
        if not off or not gpu:
            continue
        rt = lambda a, b: round(a / b, 3) if a and b else None
        ratios.append({"workload": wl,
                       "read_tps_gpu_off": rt(gpu["read_tps"], off["read_tps"]),
                       "read_p50_gpu_off": rt(gpu["read_latency_ms"]["p50"], off["read_latency_ms"]["p50"]),
                       "read_p99_gpu_off": rt(gpu["read_latency_ms"]["p99"], off["read_latency_ms"]["p99"])})

    nums = lambda k: [num(v) for v in tpcb.get(k, []) if v != ""]
    one = lambda k: num((tpcb.get(k) or [None])[0])
    tpcb_doc = None
    if tpcb:
        tpcb_doc = {"pairs": one("pairs"), "seconds": one("seconds"), "scale": one("scale"),
                    "clients": one("clients"), "threads": one("threads"),
                    "off_means": " ".join(tpcb.get("off_opts", [])),
                    "cached_means": " ".join(tpcb.get("cached_opts", [])),
                    "tps_off": nums("tps_off"), "tps_cached": nums("tps_cached"),
                    "median_tps_off": one("median_off"), "median_tps_cached": one("median_cached"),
                    "ratio_cached_off": one("ratio"),
                    "cache_state_after": tpcb.get("cache_state_after", []),
                    "failed": (tpcb.get("failed") or ["0"])[0] != "0"}

    doc = {"benchmark": "gpuext column cache under many clients (bench/concurrency.sh)"}
    for k in ("postgres", "devices", "device", "cpu", "gpu", "host", "protocol",
              "update_rate_method", "q1", "q2", "update_sql", "off_opts", "gpu_opts",
              "between_runs", "row_fraction_note", "started"):
        if k in meta:
            doc[k] = meta[k]
    for k in ("rows", "seconds", "clients", "threads", "update_clients", "cores",
              "mix_reads", "cache_size_mb", "elapsed_s"):
        if k in meta:
            doc[k] = num(meta[k])
    doc["runs"] = run_docs
    doc["gpu_vs_off"] = ratios
    doc["tpcb"] = tpcb_doc
    with open(json_path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")

    lines = []
    lines.append("gpuext column cache under many clients: %s rows, %s s a run, %s clients, -j %s, "
                 "pgbench -M %s; %s; device %s (%s)"
                 % (meta.get("rows"), meta.get("seconds"), meta.get("clients"), meta.get("threads"),
                    meta.get("protocol"), meta.get("postgres"), meta.get("device"), meta.get("devices")))
    lines.append("modes: off = PGOPTIONS '%s'; gpu = '%s'" % (meta.get("off_opts"), meta.get("gpu_opts")))
    lines.append("updates: %s" % meta.get("update_rate_method"))
    lines.append("before every run: %s" % meta.get("between_runs"))
    lines.append("")
    hdr = "%-9s %-4s %9s %9s %12s %9s %9s %10s %11s %8s %-13s" % (
        "workload", "mode", "tps", "reads/s", "upd/s(tgt)", "rd p50ms", "rd p99ms",
        "cache rows", "cache chunk", "invalid", "cache after")
    lines.append(hdr)
    lines.append("-" * len(hdr))
    for d in run_docs:
        tgt = d["target_update_rate"]
        upd = "%s(%s)" % (fmt(d["update_tps"]), "-" if tgt is None else fmt(tgt, "%g"))
        if d["workload"] == "ro":
            upd = "-"
        st = d["gpuext_stat"]
        cr = "-" if d["mode"] == "off" else fmt(None if d["cache_row_fraction_est"] is None
                                                 else 100 * d["cache_row_fraction_est"], "%.0f%%")
        cc = "-" if d["mode"] == "off" else (
            "%s/%s" % (fmt(st.get("cache_chunks"), "%d"), fmt(st.get("chunks"), "%d")))
        inv = "-" if d["mode"] == "off" else fmt(st.get("cache_not_valid"), "%d")
        lines.append("%-9s %-4s %9s %9s %12s %9s %9s %10s %11s %8s %-13s%s" % (
            d["workload"], d["mode"], fmt(d["tps"]), fmt(d["read_tps"]), upd,
            fmt(d["read_latency_ms"]["p50"], "%.2f"), fmt(d["read_latency_ms"]["p99"], "%.2f"),
            cr, cc, inv, d["cache_state_after"] or "-",
            "" if d["pgbench_ok"] else "  (pgbench reported errors: see its log)"))
    lines.append("")
    lines.append("cache rows: %s" % meta.get("row_fraction_note", ""))
    if ratios:
        lines.append("")
        lines.append("gpu / off:  %-9s %10s %10s %10s" % ("workload", "reads/s", "rd p50", "rd p99"))
        for r in ratios:
            lines.append("            %-9s %10s %10s %10s" % (
                r["workload"], fmt(r["read_tps_gpu_off"], "%.3f"),
                fmt(r["read_p50_gpu_off"], "%.3f"), fmt(r["read_p99_gpu_off"], "%.3f")))
    if tpcb_doc:
        lines.append("")
        lines.append("TPC-B (pgbench -s %s -c %s -j %s -T %s -M prepared, %s alternating pairs, "
                     "database made anew before each run):"
                     % (tpcb_doc["scale"], tpcb_doc["clients"], tpcb_doc["threads"],
                        tpcb_doc["seconds"], tpcb_doc["pairs"]))
        lines.append("  off    (%s): tps %s -> median %s" % (
            tpcb_doc["off_means"], " ".join(fmt(v) for v in tpcb_doc["tps_off"]),
            fmt(tpcb_doc["median_tps_off"])))
        lines.append("  cached (%s): tps %s -> median %s" % (
            tpcb_doc["cached_means"], " ".join(fmt(v) for v in tpcb_doc["tps_cached"]),
            fmt(tpcb_doc["median_tps_cached"])))
        lines.append("  ratio cached / off (medians): %s   (pgbench_accounts' cache after each cached run: %s)"
                     % (fmt(tpcb_doc["ratio_cached_off"], "%.3f"),
                        ", ".join(tpcb_doc["cache_state_after"]) or "n/a"))
    with open(txt_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main(argv):
    if len(argv) >= 3 and argv[1] == "lat":
        lat(argv[2], argv[3:])
    elif len(argv) == 5 and argv[1] == "report":
        report(argv[2], argv[3], argv[4])
    else:
        sys.exit("usage: conc_report.py lat PREFIX CLASS... | report FACTS JSON TXT")


if __name__ == "__main__":
    main(sys.argv)
