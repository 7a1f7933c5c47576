#!/usr/bin/python3
"""gp-scale-table.py LOGDIR - the markdown tables of a gp-scale.sh run.

Reads LOGDIR/<tree>-smp<N>.log (the consoles of rcutree.gp_bench=4 boots) and prints, for each
wait (synchronize_rcu, synchronize_rcu_expedited) and load (idle, busy, writers), one table with a row
per size and a column group per tree shape: median and p99 latency, the grace-period kthread's
CPU time per grace period, FQS scans per grace period, and the share of leaf and root rcu_node
lock acquisitions that found the lock held. A last table gives the boot's AP bring-up time.
"""
import os
import re
import sys

LINE = re.compile(r"rcu-bench: (synchronize_rcu(?:_expedited)?) (idle|busy|writers) cpus=(\d+) n=(\d+)"
                  r" median_ns=(\d+) p99_ns=(\d+) max_ns=(\d+) levels=(\d+) gps=(\d+)"
                  r" exp_gps=(\d+) gp_kthread_ns_per_gp=(\d+) fqs_per_gp=([\d.]+)"
                  r" leaf_lock_cont=(\d+)/(\d+) root_lock_cont=(\d+)/(\d+)")
BRINGUP = re.compile(r"smp: Total of (\d+) processors activated, bring-up took ([\d.]+) ms")
NAME = re.compile(r"(\w+)-smp(\d+)\.log$")
TREES = ["flat", "default", "deep"]


def fmt_ns(ns):
    if ns >= 1_000_000:
        return "%.2f ms" % (ns / 1e6)
    return "%.1f us" % (ns / 1e3)


def pct(c, a):
    return "%.1f%%" % (100.0 * c / a) if a else "-"


def main():
    logdir = sys.argv[1]
    res, boot = {}, {}
    for f in sorted(os.listdir(logdir)):
        m = NAME.match(f)
        if not m:
            continue
        tree, n = m.group(1), int(m.group(2))
        with open(os.path.join(logdir, f), errors="replace") as fh:
            for line in fh:
                b = BRINGUP.search(line)
                if b:
                    boot[(tree, n)] = float(b.group(2))
                x = LINE.search(line)
                if x:
                    res[(x.group(1), x.group(2), tree, n)] = x
    trees = [t for t in TREES if any(k[2] == t for k in res)]
    sizes = sorted({k[3] for k in res})
    for wait in ("synchronize_rcu", "synchronize_rcu_expedited"):
        for load in ("idle", "busy", "writers"):
            print("`%s()`, %s:\n" % (wait, load))
            hdr = "| CPUs |" + "".join(" %s: levels, median / p99 | GP kthread per GP, FQS/GP | lock contended leaf / root |" % t
                                       for t in trees)
            print(hdr)
            print("|---|" + "---|---|---|" * len(trees))
            for n in sizes:
                row = "| %d |" % n
                for t in trees:
                    x = res.get((wait, load, t, n))
                    if not x:
                        row += " - | - | - |"
                        continue
                    row += " %s, %s / %s |" % (x.group(8), fmt_ns(int(x.group(5))), fmt_ns(int(x.group(6))))
                    if wait == "synchronize_rcu":
                        row += " %s, %s |" % (fmt_ns(int(x.group(11))), x.group(12))
                    else:
                        row += " - |"
                    row += " %s / %s |" % (pct(int(x.group(13)), int(x.group(14))),
                                           pct(int(x.group(15)), int(x.group(16))))
                print(row)
            print()
    print("AP bring-up (guest ms, from `smp: Total of N processors activated, bring-up took T ms`):\n")
    print("| CPUs |" + "".join(" %s |" % t for t in trees))
    print("|---|" + "---|" * len(trees))
    for n in sizes:
        print("| %d |" % n + "".join(" %s |" % (("%.1f" % boot[(t, n)]) if (t, n) in boot else "-")
                                      for t in trees))


if __name__ == "__main__":
    main()
