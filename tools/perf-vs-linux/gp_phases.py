#!/usr/bin/env python3
"""gp_phases.py - where rcuperf sync1's normal grace periods spend their time (issue 36).

Reads the console of one of our boots with CONFIG_RCU_TRACE (a large
CONFIG_RCU_TRACE_BUF_ENTRIES, e.g. 4096: the grace-period kthread's CPU logs
an rcu_fqs line per idle CPU per grace period) and
rcutree.trace_dump_at_shutdown=1, running rcuperf with one writer and no
readers. For each grace period that served synchronize_rcu()'s callback
(wakeme_after_rcu) still in the buffers it gives four phases:
  call->start   the writer's call_rcu() to the kthread's "start" (the wake-up)
  start->end    the grace period itself (init, FQS scan, cleanup)
  end->invoke   "end" to rcuc/N invoking the callback on the writer's CPU
  total         call_rcu() to the callback (the writer runs a few us later)
with the CPUs of the writer and of the kthread, then the slowest grace
periods and, inside them, every gap of more than --gap us between two
consecutive events (which CPU stopped, between which events: a gap with
interrupts off, inside an FQS scan of a leaf, is time the vCPU did not run).
Usage: gp_phases.py CONSOLE [--gap US] [--slowest N]
"""
import re
import sys

EV = re.compile(r'(\S+)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+): (\w+): (.*)$')


def events(path):
    ev = []
    for line in open(path, errors='replace'):
        m = EV.search(line.rstrip())
        if m:
            comm, _, cpu, s, us, name, rest = m.groups()
            ev.append((int(s) * 1000000 + int(us), int(cpu), comm, name, rest))
    ev.sort(key=lambda e: e[0])
    return ev


def grace_periods(ev):
    gps, cur = [], None
    for t, cpu, _, name, rest in ev:
        if name == 'rcu_callback' and 'wakeme_after_rcu' in rest:
            cur = {'call': t, 'wcpu': cpu}
        elif cur is None:
            continue
        elif name == 'rcu_grace_period' and rest.endswith(' start') and 'start' not in cur:
            cur['start'], cur['gcpu'] = t, cpu
        elif name == 'rcu_grace_period' and rest.endswith(' end') and 'start' in cur and 'end' not in cur:
            cur['end'] = t
        elif name == 'rcu_invoke_callback' and 'wakeme_after_rcu' in rest and 'end' in cur:
            cur['inv'] = t
            gps.append(cur)
            cur = None
    return gps


def pct(a, p):
    a = sorted(a)
    return a[min(len(a) - 1, len(a) * p // 100)]


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith('-'):
        print(__doc__)
        sys.exit(2)
    gap, slowest = 100, 5
    if '--gap' in args:
        gap = int(args[args.index('--gap') + 1])
    if '--slowest' in args:
        slowest = int(args[args.index('--slowest') + 1])
    ev = events(args[0])
    gps = grace_periods(ev)
    if not gps:
        print('gp_phases: no complete synchronize_rcu() grace period in the trace')
        sys.exit(1)
    print(f"{len(gps)} grace periods; writer on CPU {sorted({g['wcpu'] for g in gps})}, "
          f"grace-period kthread on CPU {sorted({g['gcpu'] for g in gps})}")
    phases = [('call->start', 'call', 'start'), ('start->end', 'start', 'end'),
              ('end->invoke', 'end', 'inv'), ('total', 'call', 'inv')]
    for name, a, b in phases:
        d = [g[b] - g[a] for g in gps]
        print(f"  {name:12s} us: min {min(d)} median {pct(d, 50)} p90 {pct(d, 90)} max {max(d)}")
    print(f"slowest {slowest} (us call->start, start->end, end->invoke, total) and gaps over {gap} us:")
    for g in sorted(gps, key=lambda g: g['call'] - g['inv'])[:slowest]:
        print(f"  {g['start'] - g['call']} {g['end'] - g['start']} {g['inv'] - g['end']} "
              f"{g['inv'] - g['call']} (writer CPU {g['wcpu']}, kthread CPU {g['gcpu']})")
        win = [e for e in ev if g['call'] <= e[0] <= g['inv']]
        for x, y in zip(win, win[1:]):
            if y[0] - x[0] > gap:
                print(f"    {y[0] - x[0]} us between [{x[1]:03d}] {x[3]}: {x[4][:48]} "
                      f"and [{y[1]:03d}] {y[3]}: {y[4][:48]}")


if __name__ == '__main__':
    main()
