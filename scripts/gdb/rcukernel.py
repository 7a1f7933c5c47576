# scripts/gdb/rcukernel.py - gdb commands for a stopped rcukernel guest, after Linux's
# scripts/gdb (lx-*): load with `source scripts/gdb/rcukernel.py` in gdb on kernel.elf
# (`make debug` does it). Everything is read from guest memory through the symbols and types
# of kernel.elf (built with -g), so the guest needs no cooperation:
#   lx-dmesg   the kernel log (log_buf, kernel/printk/printk_log.c)
#   lx-ps      every task (the all_tasks list, kernel/sched/task.c): pid, state, cpu, comm
#   lx-cpus    each possible CPU: online or not, its current task, its per-CPU offset
#   rcu-gp     Tree RCU's grace-period state: rcu_state, each rcu_node, each CPU's rcu_data
# Per-CPU variables are at their link address plus __per_cpu_offset[cpu] (mm/percpu.c).
# Without a live target (QEMU gone, or never connected) gdb would read the variables' initial
# values from kernel.elf's sections and the commands would print an empty task list and one CPU
# as if that were the guest's state: each command refuses instead (require_live_target).

import gdb

TASK_STATES = ((0x0002, "D"), (0x0001, "S"), (0x0040, "P"), (0x0080, "X"))
# enum rcu_gp_state (kernel/rcu/tree.h), named as the stall warning names them.
GP_STATES = ("RCU_GP_IDLE", "RCU_GP_WAIT_GPS", "RCU_GP_INIT", "RCU_GP_WAIT_FQS",
             "RCU_GP_DOING_FQS", "RCU_GP_CLEANUP", "RCU_GP_CLEANED")


def require_live_target(cmd):
    """Fail the command unless gdb is attached to a running guest (QEMU's stub)."""
    inf = gdb.selected_inferior()
    if inf.pid == 0 or not inf.threads():
        raise gdb.GdbError(
            "%s: no live target: gdb would read kernel.elf's initial values, not the guest's. "
            "Connect first (make debug, or: target remote localhost:1234); if QEMU has exited, "
            "see its console log (debug-console.log)" % cmd)


def val(expr):
    return gdb.parse_and_eval(expr)


def per_cpu(sym, cpu):
    """The per-CPU variable sym of cpu, as a gdb.Value of its type."""
    var = val(sym)
    off = int(val("__per_cpu_offset")[cpu])
    addr = int(var.address) + off
    return gdb.Value(addr).cast(var.type.pointer()).dereference()


def cpumask_test(mask_sym, cpu):
    bits = val(mask_sym)["bits"]
    width = bits[0].type.sizeof * 8
    return bool((int(bits[cpu // width]) >> (cpu % width)) & 1)


def nr_cpu_ids():
    return int(val("nr_cpu_ids"))


def task_state(t):
    s = int(t["__state"])
    if s == 0:
        return "R"
    for bit, ch in TASK_STATES:
        if s & bit:
            return ch
    return "N"


def for_each_task():
    """The task_structs on all_tasks, by their ->tasks links (container_of)."""
    ttype = gdb.lookup_type("struct task_struct")
    off = [f.bitpos // 8 for f in ttype.fields() if f.name == "tasks"][0]
    head = val("all_tasks").address
    node = val("all_tasks")["next"]
    n = 0
    while int(node) != int(head) and n < 100000:
        yield gdb.Value(int(node) - off).cast(ttype.pointer()).dereference()
        node = node["next"]
        n += 1


class LxDmesg(gdb.Command):
    """Print the kernel log kept in log_buf (the last 32 KiB printed)."""

    def __init__(self):
        super().__init__("lx-dmesg", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        require_live_target("lx-dmesg")
        buf = val("log_buf")
        size = buf.type.sizeof
        nxt = int(val("log_next"))
        inf = gdb.selected_inferior()
        data = bytes(inf.read_memory(int(buf.address), size))
        if nxt <= size:
            text = data[:nxt]
        else:
            pos = nxt % size
            text = data[pos:] + data[:pos]
            text = text[text.find(b"\n") + 1:]  # drop the partial first line
        gdb.write(text.decode(errors="replace").replace("\r", ""))


class LxPs(gdb.Command):
    """List every task: pid, state, cpu, prio, comm (Linux's lx-ps)."""

    def __init__(self):
        super().__init__("lx-ps", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        require_live_target("lx-ps")
        gdb.write("%-18s %6s %5s %3s %4s %s\n" % ("TASK", "PID", "STATE", "CPU", "PRIO", "COMM"))
        for t in for_each_task():
            gdb.write("0x%016x %6d %5s %3d %4d %s\n" % (
                int(t.address), int(t["pid"]), task_state(t), int(t["cpu"]), int(t["prio"]),
                t["comm"].string()))


class LxCpus(gdb.Command):
    """List the possible CPUs: online, current task, per-CPU offset."""

    def __init__(self):
        super().__init__("lx-cpus", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        require_live_target("lx-cpus")
        gdb.write("nr_cpu_ids=%d\n" % nr_cpu_ids())
        for cpu in range(nr_cpu_ids()):
            if not cpumask_test("__cpu_possible_mask", cpu):
                continue
            online = cpumask_test("__cpu_online_mask", cpu)
            cur = per_cpu("current_task", cpu)
            comm = cur.dereference()["comm"].string() if int(cur) else "-"
            pid = int(cur.dereference()["pid"]) if int(cur) else -1
            gdb.write("CPU %d: %s current %s (pid %d) per_cpu_offset 0x%x\n" % (
                cpu, "online" if online else "offline", comm, pid,
                int(val("__per_cpu_offset")[cpu])))


class RcuGp(gdb.Command):
    """Tree RCU's grace-period state: rcu_state, the rcu_node tree, each CPU's rcu_data."""

    def __init__(self):
        super().__init__("rcu-gp", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        require_live_target("rcu-gp")
        try:
            rs = val("rcu_state")
        except gdb.error:
            gdb.write("no rcu_state: not a Tree RCU kernel (Tiny RCU: print rcu_ctrlblk)\n")
            return
        gp_seq = int(rs["gp_seq"])
        signed = gp_seq - (1 << 64) if gp_seq >= 1 << 63 else gp_seq
        gs = int(rs["gp_state"])
        gdb.write("%s: g=%d (%s) gp_state=%d %s gp_flags=%#x completed=%d\n" % (
            rs["name"].string(), signed, "in progress" if gp_seq & 3 else "idle", gs,
            GP_STATES[gs] if 0 <= gs < len(GP_STATES) else "???", int(rs["gp_flags"]),
            int(rs["n_gp_completed"])))
        for i in range(int(rs["geo"]["num_nodes"])):
            rnp = rs["node"][i]
            gdb.write("  rcu_node %d:%d level %d qsmask %#x qsmaskinit %#x qsmaskinitnext %#x expmask %#x\n" % (
                int(rnp["grplo"]), int(rnp["grphi"]), int(rnp["level"]), int(rnp["qsmask"]),
                int(rnp["qsmaskinit"]), int(rnp["qsmaskinitnext"]), int(rnp["expmask"])))
        for cpu in range(nr_cpu_ids()):
            if not cpumask_test("__cpu_possible_mask", cpu):
                continue
            rdp = per_cpu("rcu_data", cpu)
            rdt = per_cpu("rcu_dynticks", cpu)
            dyn = int(rdt["dynticks"]["counter"])
            g = int(rdp["gp_seq"])
            g = g - (1 << 64) if g >= 1 << 63 else g
            gdb.write("  cpu %d gp_seq %d dynticks %#x%s nesting %d cbs %d\n" % (
                cpu, g, dyn, " (eqs)" if not dyn & 1 else "", int(rdt["nesting"]),
                int(rdp["cblist"]["len"])))


LxDmesg()
LxPs()
LxCpus()
RcuGp()
