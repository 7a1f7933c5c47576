#!/usr/bin/env python3
"""Turn perf-vs-linux.sh's console logs into markdown tables, ours beside Linux's.

usage: summarize.py LOGDIR   (files SIDE-KIND-smpN-repR.log, SIDE = ours | linux; KIND may be
ref-TYPE, read as refscale, or gp-FLAVOR, read as the grace-period shapes)

Both kernels print the same per-sample lines (Linux's formats, which ours follow):
  "<tag>: W writer-duration: I NS"            one grace-period wait (rcuscale / rcuperf)
  "<tag>: start: S end: E duration: D gps: G"  the whole writer phase
  "Runs\\tTime(ns)" then "R\\tNS" per run        refscale, ns per reader pair
  "rcu-torture: rtc: ... ver: N"              rcutorture's writer updates so far
  "rcu_torture_fwd_prog_cr Duration D ... n_launders: L ... n_max_cbs: C ..."
                                              one forward-progress flood: C callbacks
                                              allocated at its peak (struct rcu_fwd_cb, the
                                              same 64-byte kmalloc object on both sides)
  "Total time taken by all kfree'ers: N ns, loops: L, batches: B, memory footprint: MMB"
                                              rcuscale's kfree_rcu() test (rcuperf's here)
Samples of all boots of one side, kind and size are pooled. Percentiles are nearest-rank.
"""
import math
import os
import re
import statistics
import sys
from collections import defaultdict

NAME = re.compile(r"^(ours|linux)-([\w-]+)-smp(\d+)-rep(\d+)\.log$")
ORDER = "sync1 exp1 sync exp async async1 refscale torture fwd kfree".split()


def kind_key(kind):
    """The fixed kinds first, in their order; then gp-FLAVOR, then ref-TYPE, by name."""
    if kind in ORDER:
        return (0, ORDER.index(kind), "")
    return (1 if kind.startswith("gp-") else 2, 0, kind)


def base(kind):
    """ref-TYPE is read as refscale, gp-FLAVOR as the grace-period shapes, async1 as async."""
    return "refscale" if kind.startswith("ref-") else "async" if kind == "async1" else kind
TS = r"^\[\s*(\d+\.\d+)\]\s*"
# The tag is the flavor's name: rcu-, srcu-, tasks-, ... then -scale (Linux) or -perf (ours).
DUR = re.compile(r"[\w-]+-(?:scale|perf):\s+\d+ writer-duration:\s+\d+ (\d+)")
PHASE = re.compile(r"[\w-]+-(?:scale|perf): start: (\d+) end: (\d+) duration: (\d+) gps: (\d+)")
RUN = re.compile(TS + r"(\d+)\t(\d+\.\d+)$", re.M)
START = re.compile(TS + r"rcu-torture:--- Start of test", re.M)
RTC = re.compile(TS + r"rcu-torture: rtc: \S+ (?:ver|VER): (\d+) ", re.M)
FWD = re.compile(r"rcu_torture_fwd_prog_cr Duration (\d+) barrier: \d+ pending -?\d+ n_launders: (\d+)"
                 r" n_launders_sa: -?\d+ n_max_gps: -?\d+ n_max_cbs: (\d+)")
KFREE = re.compile(r"Total time taken by all kfree'ers: (\d+) ns, loops: \d+, batches: (-?\d+), "
                   r"memory footprint: (-?\d+)MB")
FWD_OBJ = 64    # bytes of one struct rcu_fwd_cb in both kernels' kmalloc


def nearest_rank(vals, p):
    s = sorted(vals)
    return s[max(0, math.ceil(p / 100.0 * len(s)) - 1)]


def parse(text, kind):
    """One boot: a dict of what it measured (empty when it measured nothing)."""
    got = {}
    kind = base(kind)
    if kind == "refscale":
        i = text.find("END OF TEST")
        got["runs"] = [float(m.group(3)) for m in RUN.finditer(text[i:])] if i >= 0 else []
    elif kind == "torture":
        start, rtcs = START.search(text), list(RTC.finditer(text))
        if start and rtcs and float(rtcs[-1].group(1)) > float(start.group(1)):
            got["ver_per_s"] = int(rtcs[-1].group(2)) / (float(rtcs[-1].group(1)) - float(start.group(1)))
        got["verdict"] = "SUCCESS" if "End of test: SUCCESS" in text else "FAIL"
    elif kind == "fwd":
        floods = [(int(m.group(1)), int(m.group(2)), int(m.group(3))) for m in FWD.finditer(text)]
        got["max_cbs"] = [c for _, _, c in floods]
        got["per_jiffy"] = [n / d for d, n, _ in floods if d]
        # The pooled rate (all launders over all jiffies of the side's floods) beside the median.
        got["launders"] = [n for _, n, _ in floods]
        got["jiffies"] = [d for d, _, _ in floods]
    elif kind == "kfree":
        m = KFREE.search(text)
        if m:
            got["kfree_ns"], got["kfree_gps"], got["kfree_mb"] = [int(m.group(1))], [int(m.group(2))], [int(m.group(3))]
    else:
        got["samples"] = [int(m.group(1)) for m in DUR.finditer(text)]
        m = PHASE.search(text)
        if m and int(m.group(3)) > 0:
            got["per_s"] = int(m.group(4)) / (int(m.group(3)) / 1e9)
    return got


def fmt_ns(ns):
    if ns is None:
        return "-"
    return "%.2f ms" % (ns / 1e6) if ns >= 1e6 else "%.1f us" % (ns / 1e3)


def ratio(a, b):
    return "%.2f" % (a / b) if a is not None and b else "-"


def main():
    logdir = sys.argv[1]
    pooled = defaultdict(lambda: defaultdict(list))  # (side, kind, smp) -> field -> values
    for f in sorted(os.listdir(logdir)):
        m = NAME.match(f)
        if not m:
            continue
        side, kind, smp = m.group(1), m.group(2), int(m.group(3))
        with open(os.path.join(logdir, f), errors="replace") as fh:
            got = parse(fh.read().replace("\r", ""), kind)
        for k, v in got.items():
            pooled[(side, kind, smp)][k].extend(v if isinstance(v, list) else [v])
    kinds = sorted({k for _, k, _ in pooled}, key=kind_key)
    smps = sorted({s for _, _, s in pooled})
    for name in kinds:
        print("\n### %s\n" % name)
        kind = base(name)
        if kind == "refscale":
            print("| smp | ours ns/pair (median of runs) | Linux | ours/Linux |\n|---|---|---|---|")
        elif kind == "torture":
            print("| smp | ours ver/s (boots) | Linux | ours/Linux | verdicts ours, Linux |\n|---|---|---|---|---|")
        elif kind == "async":
            print("| smp | ours callbacks/s | Linux call_rcu()s/s | ours/Linux |\n|---|---|---|---|")
        elif kind == "kfree":
            print("| smp | ours time median (boots); grace periods; footprint MB | Linux | time ours/Linux | footprint ours/Linux |")
            print("|---|---|---|---|---|")
        elif kind == "fwd":
            print("| smp | ours floods: peak callbacks held, largest (KiB) / median; invoked per jiffy,"
                  " median [pooled] | Linux | peak ours/Linux | per jiffy ours/Linux, median [pooled] |")
            print("|---|---|---|---|---|")
        else:
            print("| smp | ours median / p99 (n) | Linux median / p99 (n) | median ours/Linux | p99 ours/Linux |")
            print("|---|---|---|---|---|")
        for smp in smps:
            o, l = pooled.get(("ours", name, smp)), pooled.get(("linux", name, smp))
            if not o and not l:
                continue
            o, l = o or {}, l or {}
            if kind == "refscale":
                om = statistics.median(o["runs"]) if o.get("runs") else None
                lm = statistics.median(l["runs"]) if l.get("runs") else None
                print("| %d | %s | %s | %s |" % (smp, "%.3f" % om if om else "-", "%.3f" % lm if lm else "-",
                                                 ratio(om, lm)))
            elif kind == "torture":
                om = statistics.median(o["ver_per_s"]) if o.get("ver_per_s") else None
                lm = statistics.median(l["ver_per_s"]) if l.get("ver_per_s") else None
                print("| %d | %s (%d) | %s (%d) | %s | %s; %s |" % (
                    smp, "%.1f" % om if om else "-", len(o.get("ver_per_s", [])),
                    "%.1f" % lm if lm else "-", len(l.get("ver_per_s", [])), ratio(om, lm),
                    ",".join(o.get("verdict", [])) or "-", ",".join(l.get("verdict", [])) or "-"))
            elif kind == "fwd":
                def cell(d):
                    c = d.get("max_cbs", [])
                    if not c:
                        return "-", None, None, None
                    pj = statistics.median(d["per_jiffy"]) if d.get("per_jiffy") else 0
                    pool = sum(d["launders"]) / sum(d["jiffies"]) if sum(d.get("jiffies", [])) else 0
                    return "%d: %d (%d) / %d; %.1f [%.1f]" % (len(c), max(c), max(c) * FWD_OBJ // 1024,
                                                              statistics.median(c), pj, pool), max(c), pj, pool
                (oc, om, opj, opool), (lc, lm, lpj, lpool) = cell(o), cell(l)
                print("| %d | %s | %s | %s | %s [%s] |" % (smp, oc, lc, ratio(om, lm), ratio(opj, lpj),
                                                            ratio(opool, lpool)))
            elif kind == "kfree":
                def kcell(d):
                    if not d.get("kfree_ns"):
                        return "-", None, None
                    t, mb = statistics.median(d["kfree_ns"]), statistics.median(d["kfree_mb"])
                    return "%s (%d); %s; %s" % (fmt_ns(t), len(d["kfree_ns"]), statistics.median(d["kfree_gps"]),
                                                mb), t, mb
                (oc, ot, omb), (lc, lt, lmb) = kcell(o), kcell(l)
                print("| %d | %s | %s | %s | %s |" % (smp, oc, lc, ratio(ot, lt), ratio(omb, lmb)))
            elif kind == "async":
                om = statistics.median(o["per_s"]) if o.get("per_s") else None
                lm = statistics.median(l["per_s"]) if l.get("per_s") else None
                print("| %d | %s | %s | %s |" % (smp, "%.0f" % om if om else "-", "%.0f" % lm if lm else "-",
                                                 ratio(om, lm)))
            else:
                os_, ls = o.get("samples", []), l.get("samples", [])
                omed = statistics.median(os_) if os_ else None
                lmed = statistics.median(ls) if ls else None
                o99 = nearest_rank(os_, 99) if os_ else None
                l99 = nearest_rank(ls, 99) if ls else None
                print("| %d | %s / %s (%d) | %s / %s (%d) | %s | %s |" % (
                    smp, fmt_ns(omed), fmt_ns(o99), len(os_), fmt_ns(lmed), fmt_ns(l99), len(ls),
                    ratio(omed, lmed), ratio(o99, l99)))


if __name__ == "__main__":
    main()
