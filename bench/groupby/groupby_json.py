#!/usr/bin/env python3
"""bench/groupby/groupby_json.py FACTS JSON - groupby.json of bench/groupby.sh
(and join.json of bench/join.sh, tpch_join.json of bench/tpch_join.sh,
multigpu.json of bench/multigpu.sh: no cub facts, no cub section), written with Python's json module from its facts (one a line, tab-separated):

  meta NAME VALUE            rows, load_s, runs, postgres, cpu, gpu, preagg, ...
  duckdb NAME VALUE          title, version, threads, export_s, run_s, note
  cub NAME VALUE             note, device, n, groups, check, g50m_config,
                             g50m_ratio_vs_sort_keys, within_3x, ...
  cubop OP MS MEAN_MS        a CUB call's best and mean ms
  title CONFIG TEXT          a configuration's title
  query Q SQL                a query's text, in query order
  qmeta Q NAME VALUE         groups, result (the reference), explain_config,
                             agg_node, agg_node_ms, exec_ms
  cfg Q CONFIG NAME VALUE    ms, runs, all_ms (blank-separated), plan,
                             check, result

Per query and configuration also speedup_vs_pg_serial (PG serial ms / ms;
with a fact "meta ref_config NAME": speedup_vs_NAME, NAME's ms / ms) and
speedup_vs_duckdb (DuckDB ms / ms).  Numbers become JSON numbers; n/a,
err and empty values become null (a string field keeps "err").
"""
import json
import sys

# fields that stay strings even when they look like numbers
TEXT = {"result", "sql", "title", "plan", "check", "note", "version", "postgres", "cpu",
        "gpu", "device", "table_size", "work_mem", "preagg", "gpu_device", "agg_node",
        "explain_config", "explain_file", "g50m_config", "within_3x",
        "join_node", "detail", "aim_count", "aim_band", "aim_tpch",
        "workload", "tables", "labels", "device_counts", "device_kind", "left_out", "ref_config"}
# name prefixes of text fields (bench/tpch_join.sh: one per configuration;
# bench/multigpu.sh: one per device count or workload)
TEXT_PREFIX = ("explain_file_", "own_time_", "device_chunks_", "devices_", "aim_", "note_")


def num(v):
    """a float (an int when whole), or None"""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return int(f) if f.is_integer() else f


def val(name, v):
    if name in TEXT or name.startswith(TEXT_PREFIX):
        return None if v in ("", "n/a") else v
    if name == "all_ms":
        return [num(x) for x in v.split()]
    return num(v)


def speedup(a, b):
    return round(a / b, 3) if a and b else None


def main():
    meta, duck, cub, cubops, titles, queries = {}, {}, {}, {}, {}, {}
    order = []
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            p += [""] * (5 - len(p))
            kind = p[0]
            if kind in ("meta", "duckdb", "cub"):
                {"meta": meta, "duckdb": duck, "cub": cub}[kind][p[1]] = val(p[1], p[2])
            elif kind == "cubop":
                cubops[p[1]] = {"ms": num(p[2]), "mean_ms": num(p[3])}
            elif kind == "title":
                titles[p[1]] = p[2]
            elif kind == "query":
                order.append(p[1])
                queries[p[1]] = {"sql": p[2], "configs": {}}
            elif kind == "qmeta":
                queries[p[1]][p[2]] = val(p[2], p[3])
            elif kind == "cfg":
                cfg = queries[p[1]]["configs"].setdefault(p[2], {"title": titles.get(p[2], p[2])})
                cfg[p[3]] = val(p[3], p[4])
    ref_cfg = meta.get("ref_config") or "serial"
    ref_key = "speedup_vs_" + ("pg_serial" if ref_cfg == "serial" else ref_cfg)
    for q in order:
        cfgs = queries[q]["configs"]
        ref = cfgs.get(ref_cfg, {}).get("ms")
        duckms = cfgs.get("duckdb", {}).get("ms")
        for c in cfgs.values():
            c[ref_key] = speedup(ref, c.get("ms"))
            c["speedup_vs_duckdb"] = speedup(duckms, c.get("ms"))
    out = {"meta": meta, "duckdb": duck}
    if cub or cubops:
        cub["ops"] = cubops
        out["cub"] = cub
    out["queries"] = {q: queries[q] for q in order}
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
