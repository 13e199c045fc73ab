# bench/tpch/plan.awk - reads PostgreSQL's EXPLAIN text (with or without
# ANALYZE, COSTS, VERBOSE; psql -At or aligned output) for
# bench/tpch_join.sh:
#
#   awk -v mode=tree -f plan.awk FILE   the plan as one line, its join, scan
#       and aggregate nodes nested: HashAgg(HashJoin(GpuScan lineitem,
#       GpuJoin(GpuScan orders, Seq customer))) (a P in front: Parallel).  Sort, Hash, Limit,
#       Result, Materialize, Memoize and Incremental Sort are left out (their
#       child stands for them), so is a GpuJoin's third child (its fallback
#       plan, run only when the device cannot join).  With ANALYZE a
#       GpuJoin says how it joined: GpuJoin:device ("Joined: on the
#       device"), GpuJoin:fallback ("by the Hash Join below", "by the
#       Nested Loop below"), GpuJoin:mixed (anything else).
#   awk -v mode=time -f plan.awk FILE   (EXPLAIN ANALYZE) where the time
#       goes: a line per node that ran, "SELF_MS<tab>TOTAL_MS<tab>LABEL",
#       SELF the node's own time (its actual total time x loops less its
#       children's, at least 0), in plan order; LABEL the node's name, its
#       join condition (Hash Cond / Join Keys / Merge Cond), how a GpuJoin
#       joined and, in brackets, a gpuext node's device figures: a
#       GpuScan's Device Time and cached chunks of its chunks, a GpuJoin's
#       Build and Probe Time and the cached chunks of the outer side it
#       read itself (the rest of a GpuScan's own time is the host's: heap
#       pages, rows fetched and formed for the node above).  Under a Gather the workers' times add up (loops),
#       so they can exceed the wall-clock time.
#   awk -v mode=nodes -f plan.awk FILE   a line per node of tree mode's
#       plan (no fallback plans, no Sort, Hash, ...): "LABEL<tab>CONDITION"
#       (the join's Hash Cond / Join Keys / Merge Cond)
function trim(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); return s }
function short(s,    t) {
    t = s
    sub(/^public\./, "", t)
    gsub(/ on public\./, " on ", t)
    if (t ~ /^(Parallel )?Custom Scan \(Gpu[A-Za-z]+\)/) {
        sub(/^Parallel Custom Scan \(/, "P", t)
        sub(/^Custom Scan \(/, "", t); sub(/\)( on)?/, "", t)
    }
    sub(/^Parallel Seq Scan on /, "PSeq ", t)
    sub(/^Seq Scan on /, "Seq ", t)
    sub(/^Parallel Hash Join/, "PHashJoin", t)
    sub(/^Hash Join/, "HashJoin", t)
    sub(/^Merge Join/, "MergeJoin", t)
    sub(/^Nested Loop/, "NestLoop", t)
    sub(/^Finalize HashAggregate/, "FinalHashAgg", t)
    sub(/^Finalize GroupAggregate/, "FinalGroupAgg", t)
    sub(/^Finalize Aggregate/, "FinalAgg", t)
    sub(/^Partial HashAggregate/, "PartialHashAgg", t)
    sub(/^Partial GroupAggregate/, "PartialGroupAgg", t)
    sub(/^Partial Aggregate/, "PartialAgg", t)
    sub(/^HashAggregate/, "HashAgg", t)
    sub(/^GroupAggregate/, "GroupAgg", t)
    sub(/^Aggregate/, "Agg", t)
    sub(/^Gather Merge/, "GatherMerge", t)
    # an alias equal to the table's name (VERBOSE): once
    if (match(t, /^[A-Za-z]+ [a-z_0-9]+ [a-z_0-9]+$/)) {
        split(t, w, " ")
        if (w[2] == w[3]) t = w[1] " " w[2]
    }
    return t
}
function transparent(s) {
    return s ~ /^(Sort|Incremental Sort|Hash|Parallel Hash|Limit|Result|Materialize|Memoize|Unique)$/
}
# the tree of node i as text
function tree(i,    s, c, k, sub_, n) {
    s = ""; n = 0
    for (k = 1; k <= nch[i]; k++) {
        c = ch[i, k]
        if (skip[c]) continue
        sub_ = tree(c)
        if (sub_ == "") continue
        s = s (n++ ? ", " : "") sub_
    }
    if (transparent(name[i])) return s
    return label(i) (s == "" ? "" : "(" s ")")
}
function label(i,    t) {
    t = short(name[i])
    if (t == "GpuJoin" && joined[i] != "") {
        if (joined[i] == "on the device") t = t ":device"
        else if (joined[i] ~ /^by the (Hash Join|Nested Loop) below$/) t = t ":fallback"
        else t = t ":mixed"
    }
    return t
}
# " [device ... ms, ...]": a GpuScan's device time and cached chunks, a
# GpuJoin's build and probe time and its outer side's cached chunks
function figures(i,    f) {
    f = ""
    if ((i, "Device Time") in fig) f = f ", device " fig[i, "Device Time"] " ms"
    if ((i, "Build Time") in fig) f = f ", build " fig[i, "Build Time"] " ms"
    if ((i, "Probe Time") in fig) f = f ", probe " fig[i, "Probe Time"] " ms"
    if ((i, "Cached Chunks") in fig && (i, "Chunks") in fig)
        f = f ", cached chunks " fig[i, "Cached Chunks"] "/" fig[i, "Chunks"]
    if ((i, "Outer Cached Chunks") in fig && (i, "Outer Device Chunks") in fig)
        f = f ", outer cached chunks " fig[i, "Outer Cached Chunks"] "/" fig[i, "Outer Device Chunks"]
    return f == "" ? "" : " [" substr(f, 3) "]"
}
BEGIN { n = 0; cur = 0 }
/^ *QUERY PLAN *$/ || /^-+$/ || /^\([0-9]+ rows?\)$/ { next }
/^ *(Planning|Execution) Time:/ { next }
/^ *Planning:/ { next }
{
    line = $0
    isnode = 0
    if (match(line, /^ *->  /)) {
        ind = RLENGTH - 4; isnode = 1; txt = substr(line, RLENGTH + 1)
    } else if (n == 0 && trim(line) != "") {
        ind = -1; isnode = 1; txt = trim(line)
    }
    if (!isnode) {
        d = trim(line)
        if (cur && d ~ /^Joined: /) { sub(/^Joined: /, "", d); joined[cur] = d }
        # a gpuext node's device figures (EXPLAIN ANALYZE)
        if (cur && d ~ /^(Device Time|Build Time|Probe Time|Chunks|Cached Chunks|Outer Device Chunks|Outer Cached Chunks): [0-9.]+/) {
            k = d; sub(/:.*/, "", k); v = d; sub(/^[^:]*: /, "", v); sub(/ .*/, "", v)
            fig[cur, k] = v
        }
        if (cur && cond[cur] == "" && d ~ /^(Hash Cond|Join Keys|Merge Cond|Join Filter): /) {
            sub(/^[A-Za-z ]+: /, "", d); cond[cur] = d
        }
        next
    }
    n++; cur = n
    nm = txt
    never[n] = (nm ~ /\(never executed\)/)
    tot[n] = 0
    if (match(nm, /actual time=[0-9.]+\.\.[0-9.]+/)) {
        t = substr(nm, RSTART, RLENGTH); sub(/.*\.\./, "", t)
        lo = 1
        if (match(nm, /loops=[0-9]+/)) lo = substr(nm, RSTART + 6, RLENGTH - 6) + 0
        tot[n] = t * lo
    }
    sub(/  \((cost|actual|never).*/, "", nm)
    sub(/ \((actual|never).*/, "", nm)
    name[n] = trim(nm); indent[n] = ind
    # the parent: the nearest node above with a smaller indent
    while (sp > 0 && indent[stack[sp]] >= ind) sp--
    p = (sp > 0) ? stack[sp] : 0
    par[n] = p
    if (p) { nch[p]++; ch[p, nch[p]] = n; chsum[p] += tot[n] }
    # a GpuJoin's third child is its fallback plan
    skip[n] = (p && (skip[p] || (name[p] ~ /GpuJoin/ && nch[p] == 3)))
    stack[++sp] = n
}
END {
    if (n == 0) exit 1
    if (mode == "tree") {
        print tree(1)
    } else if (mode == "time") {
        for (i = 1; i <= n; i++) {
            if (never[i]) continue
            self = tot[i] - chsum[i]
            if (self < 0) self = 0
            l = label(i)
            if (name[i] == "Hash" || name[i] == "Parallel Hash") l = l " (build)"
            if (cond[i] != "") l = l " " cond[i]
            l = l figures(i)
            printf "%.3f\t%.3f\t%s\n", self, tot[i], l
        }
    } else if (mode == "nodes") {
        for (i = 1; i <= n; i++) {
            if (skip[i] || transparent(name[i])) continue
            printf "%s\t%s\n", label(i), cond[i]
        }
    }
}
