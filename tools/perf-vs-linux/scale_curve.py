#!/usr/bin/env python3
"""The grace-period cost curve: perf-vs-linux.sh's logs of the sync1, exp1 and async1 kinds at
several guest sizes, as one markdown table (ours beside Linux's, ratios ours/Linux, the
accelerator of each size, and how much each figure grew from the previous size), and a gnuplot
PNG with the CPU count on a log scale when gnuplot exists.

usage: scale_curve.py LOGDIR [PNG]

Per size and side, the samples of every boot are pooled (as summarize.py does):
  sync1, exp1  writer-duration samples: median and p99 (nearest rank)
  async1       duration / samples of the writer phase: the time from one call_rcu() to the next
               when each waits for the previous callback (both sides); ours also prints each
               callback's call_rcu()-to-invocation time, whose median is given alone
  GP kthread   ours only, from the sync1 boots' "gp cost:" line (the grace-period kthread's CPU
               time per normal grace period, and FQS scans per grace period): Linux 6.1 prints
               no such counter
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
from collections import defaultdict

from summarize import NAME, PHASE, fmt_ns, nearest_rank, parse, ratio

ACCEL = re.compile(r"^# accel: (\S+)", re.M)
COST = re.compile(r"gp cost: levels=(\d+) gps=(\d+) gp_kthread_ns_per_gp=(\d+) fqs_per_gp=([\d.]+)")
KINDS = ("sync1", "exp1", "async1")


def load(logdir):
    """(side, kind, smp) -> {"samples": [...], "per_gp": [...], "cost": [...], "accel": set()}"""
    pooled = defaultdict(lambda: defaultdict(list))
    accel = defaultdict(set)
    for f in sorted(os.listdir(logdir)):
        m = NAME.match(f)
        if not m or m.group(2) not in KINDS:
            continue
        side, kind, smp = m.group(1), m.group(2), int(m.group(3))
        with open(os.path.join(logdir, f), errors="replace") as fh:
            text = fh.read().replace("\r", "")
        cell = pooled[(side, kind, smp)]
        cell["samples"].extend(parse(text, kind).get("samples", []))
        ph = PHASE.search(text)
        if ph and int(ph.group(4)) > 0:
            cell["per_gp"].append(int(ph.group(3)) / int(ph.group(4)))
        c = COST.search(text)
        if c:
            cell["cost"].append((int(c.group(1)), int(c.group(3)), float(c.group(4))))
        a = ACCEL.search(text)
        accel[smp].add(a.group(1) if a else "tcg")
    return pooled, accel


def med(v):
    return statistics.median(v) if v else None


def p99(v):
    return nearest_rank(v, 99) if v else None


def growth(cur, prev):
    return "x%.1f" % (cur / prev) if cur and prev else "-"


def main():
    logdir = sys.argv[1]
    png = sys.argv[2] if len(sys.argv) > 2 else None
    pooled, accel = load(logdir)
    smps = sorted({s for _, _, s in pooled})
    rows = {}   # smp -> figures for the plot and the growth columns
    print("| CPUs | accel | sync1 median ours / Linux (ratio) | sync1 p99 (ratio) | "
          "exp1 median (ratio) | exp1 p99 (ratio) | async1 per call_rcu() (ratio); ours cb | "
          "ours GP kthread per GP, FQS/GP, levels |")
    print("|---|---|---|---|---|---|---|---|")
    for smp in smps:
        g = lambda side, kind: pooled.get((side, kind, smp), {})
        r = {}
        cells = []
        for kind in ("sync1", "exp1"):
            os_, ls = g("ours", kind).get("samples", []), g("linux", kind).get("samples", [])
            r[kind] = (med(os_), med(ls), p99(os_), p99(ls))
            cells.append("%s / %s (%s)" % (fmt_ns(r[kind][0]), fmt_ns(r[kind][1]), ratio(r[kind][0], r[kind][1])))
            cells.append("%s / %s (%s)" % (fmt_ns(r[kind][2]), fmt_ns(r[kind][3]), ratio(r[kind][2], r[kind][3])))
        oa, la = med(g("ours", "async1").get("per_gp", [])), med(g("linux", "async1").get("per_gp", []))
        ocb = med(g("ours", "async1").get("samples", []))
        r["async1"] = (oa, la)
        cells.append("%s / %s (%s); %s" % (fmt_ns(oa), fmt_ns(la), ratio(oa, la), fmt_ns(ocb)))
        cost = g("ours", "sync1").get("cost", [])
        if cost:
            r["kthread"] = med([c[1] for c in cost])
            cells.append("%s, %.2f, %d" % (fmt_ns(r["kthread"]), med([c[2] for c in cost]), cost[0][0]))
        else:
            r["kthread"] = None
            cells.append("-")
        rows[smp] = r
        print("| %d | %s | %s |" % (smp, ",".join(sorted(accel[smp])), " | ".join(cells)))

    # Growth from one size to the next: where ours grows faster than Linux's, the term to find.
    print("\nGrowth from the previous size (ours; Linux):\n")
    print("| CPUs | sync1 median | sync1 p99 | exp1 median | exp1 p99 | async1 | ours GP kthread |")
    print("|---|---|---|---|---|---|---|")
    for prev, smp in zip(smps, smps[1:]):
        a, b = rows[prev], rows[smp]
        cells = []
        for kind, i in (("sync1", 0), ("sync1", 2), ("exp1", 0), ("exp1", 2), ("async1", 0)):
            cells.append("%s; %s" % (growth(b[kind][i], a[kind][i]), growth(b[kind][i + 1], a[kind][i + 1])))
        cells.append(growth(b["kthread"], a["kthread"]))
        print("| %d->%d | %s |" % (prev, smp, " | ".join(cells)))

    if png and shutil.which("gnuplot"):
        plot(rows, smps, png)


def plot(rows, smps, png):
    """Medians in microseconds against CPUs, both axes logarithmic."""
    dat = png + ".dat"
    us = lambda v: "%.3f" % (v / 1e3) if v else "NaN"
    with open(dat, "w") as fh:
        fh.write("# cpus sync1_ours sync1_linux exp1_ours exp1_linux async1_ours async1_linux kthread_ours\n")
        for smp in smps:
            r = rows[smp]
            fh.write("%d %s %s %s %s %s %s %s\n" % (smp, us(r["sync1"][0]), us(r["sync1"][1]), us(r["exp1"][0]),
                                                 us(r["exp1"][1]), us(r["async1"][0]), us(r["async1"][1]),
                                                 us(r["kthread"])))
    cols = [(2, "synchronize_rcu() median, ours"), (3, "synchronize_rcu() median, Linux 6.1"),
            (4, "expedited median, ours"), (5, "expedited median, Linux 6.1"),
            (6, "call_rcu() one at a time, ours"), (7, "call_rcu() one at a time, Linux 6.1"),
            (8, "GP kthread CPU per GP, ours")]
    lines = ", ".join("'%s' using 1:%d with linespoints title '%s'" % (dat, c, t) for c, t in cols)
    # A margin at both ends of the x axis: autoscaled, the largest size sat on the border and
    # its tic label was not drawn.
    script = ("set terminal pngcairo size 900,600 noenhanced\nset output '%s'\nset logscale x 2\nset logscale y 10\n"
              "set xlabel 'CPUs (-smp)'\nset ylabel 'microseconds'\nset key top left font ',9'\n"
              "set xrange [%g:%g]\nset xtics (%s)\nset grid\nplot %s\n"
              % (png, smps[0] / 1.25, smps[-1] * 1.25, ", ".join(str(s) for s in smps), lines))
    subprocess.run(["gnuplot"], input=script, text=True, check=False)


if __name__ == "__main__":
    main()
