#!/usr/bin/python3
"""
The boot parameters the tree declares, read from their declarations.

Every parameter is declared once, next to its variable, by a KPARAM*() or
torture_param*() line (or an entry of an X-list header such as
kernel/rcu/tree_param_list.h, expanded by one .c file). Whether it is in a
given kernel is decided by the Kconfig conditions its declaration sits
under: the Kbuild line that builds its file (obj-$(CONFIG_X) and any
`ifdef CONFIG_Y` around it) and any `#ifdef CONFIG_Z` around the
declaration inside the file. This script reads both, so nothing lists the
parameters a second time:

  kparams.py table SRCTREE OBJTREE OUT
      writes OUT, the KPARAM_ABSENT() lines compiled by kernel/params_absent.c:
      every name declared in the tree but not built into the kernel that
      OBJTREE/.config describes, with its type and why it is absent: the
      flavor ("Tiny RCU", KPARAM_F_FLAVOR) when it needs Tree RCU (or Tree
      SRCU) and this is a Tiny build, else the options it needs
      ("CONFIG_X", KPARAM_F_TEST for a test parameter). The parser then
      answers for such a name instead of calling it unknown (lib/cmdline.c:
      "does not apply to Tiny RCU", "not in this kernel: needs CONFIG_X"),
      and a misspelt name, declared nowhere, is still unknown.
  kparams.py list SRCTREE
      every declared name, one a line (scripts/check-docs.sh).
  kparams.py check SRCTREE
      fails (exit 1) on a line that mentions a declaration macro in a form
      this script cannot read, on a declaration under an #if it cannot
      decide, and on a file whose test mark (#define KPARAM_TEST) and
      Kconfig conditions disagree: a test parameter lives only in files
      built with an option that depends on CONFIG_KERNEL_TESTS, and every
      such file marks its parameters as test parameters
      (scripts/check-contracts.sh, rule 4).

Run with /usr/bin/python3 (Kconfiglib, as scripts/kconfig.py).
"""
import os
import re
import sys

SKIP_DIRS = {".git", "tools", "tests"}
C_TYPES = {"int": "KPARAM_INT", "unsigned int": "KPARAM_UINT", "long": "KPARAM_LONG",
           "unsigned long": "KPARAM_ULONG"}
# Flavors: a name that needs the first option, in a build with the second, "does not apply to" it.
FLAVORS = [("TREE_RCU", "TINY_RCU", "Tiny RCU"), ("TREE_SRCU", "TINY_SRCU", "Tiny SRCU")]
# A line naming one of these is a declaration (or a macro defining one: those are skipped).
DECL_RE = re.compile(r"^\s*(KPARAM(?:_[A-Z]+)?|torture_param(?:_bool|_string)?)\(")


def kbuild_dirs(srctree):
    for root, dirs, files in os.walk(srctree):
        dirs[:] = sorted(d for d in dirs if not (root == srctree and d in SKIP_DIRS) and d != ".git")
        if "Kbuild" in files:
            yield os.path.relpath(root, srctree)


def logical_lines(path):
    """Lines with backslash continuations joined, each with its first line number."""
    out, buf, start = [], "", 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not buf:
                start = n
            if line.endswith("\\"):
                buf += line[:-1] + " "
                continue
            out.append((start, buf + line))
            buf = ""
    if buf:
        out.append((start, buf))
    return out


def kbuild_objects(srctree, d, problems):
    """{object path: [conditions]}, each condition a list of (SYMBOL, wanted y)."""
    objs = {}
    stack = []
    for n, line in logical_lines(os.path.join(srctree, d, "Kbuild")):
        s = line.split("#", 1)[0].strip()
        m = re.match(r"^(ifdef|ifndef)\s+CONFIG_(\w+)$", s)
        if m:
            stack.append((m.group(2), m.group(1) == "ifdef"))
            continue
        if re.match(r"^(if\w*|else\s+\S.*)$", s):
            problems.append("%s/Kbuild:%d: '%s': kparams.py reads only ifdef/ifndef CONFIG_X, "
                            "else and endif" % (d, n, s))
            return objs
        if s == "else":
            sym, want = stack.pop()
            stack.append((sym, not want))
            continue
        if s == "endif":
            stack.pop()
            continue
        m = re.match(r"^obj-(y|\$\(CONFIG_(\w+)\))\s*[+:]?=\s*(.*)$", s)
        if not m:
            continue
        cond = list(stack) + ([(m.group(2), True)] if m.group(2) else [])
        for o in m.group(3).split():
            objs.setdefault(os.path.join(d, o), []).append(cond)
    return objs


class Decl:
    def __init__(self, name, ktype, subsys, test, cond, where):
        self.name, self.ktype, self.subsys, self.test = name, ktype, subsys, test
        self.cond, self.where = cond, where


def local_lists(srctree, path, lines, lists=None, seen=None):
    """The X-lists of the local headers path includes (and theirs): {LIST: [(ktype, name)]}."""
    lists = {} if lists is None else lists
    seen = set() if seen is None else seen
    for _, line in lines:
        m = re.match(r'^\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        h = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))
        if h in seen or not os.path.isfile(os.path.join(srctree, h)):
            continue
        seen.add(h)
        hlines = logical_lines(os.path.join(srctree, h))
        local_lists(srctree, h, hlines, lists, seen)
        for _, hl in hlines:
            lm = re.match(r"^\s*#\s*define\s+(\w+)\(X\)\s+(.*)$", hl)
            if lm:
                lists[lm.group(1)] = re.findall(r"X\(KPARAM\w*, [^,]+, (KPARAM_\w+), (\w+),",
                                                lm.group(2))
    return lists


def scan_file(srctree, path, problems):
    """The parameters path declares: [Decl] with the #if conditions around each."""
    lines = logical_lines(os.path.join(srctree, path))
    subsys, prefix, test, included = "kernel", None, False, False
    callbacks = {}		# X-list callback macro -> the prefix it declares under
    fields = {}		# list macro -> (name's argument, type's argument or None, KPARAM type)
    lists = None
    stack = []		# (SYMBOL, wanted) or None for an #if this script cannot decide
    decls = []
    i = 0
    while i < len(lines):
        n, line = lines[i]
        i += 1
        where = "%s:%d" % (path, n)
        pp = re.match(r"^\s*#\s*(\w+)\s*(.*?)\s*(/\*.*)?$", line)
        if pp:
            kw, arg = pp.group(1), pp.group(2)
            if kw == "define":
                m = re.match(r'^KPARAM_SUBSYS\s+"([^"]+)"', arg)
                subsys = m.group(1) if m else subsys
                m = re.match(r'^TORTURE_PARAM_PREFIX\s+"([^"]+)"', arg)
                prefix = m.group(1) if m else prefix
                if re.match(r"^KPARAM_TEST\b", arg):
                    test = True
                    if included:
                        problems.append("%s: #define KPARAM_TEST after an #include: "
                                        "<kernel/param.h> may not see it" % where)
                m = re.match(r'^(\w+)\(decl, [^)]*\)\s+decl\("([^"]+)" #name,', arg)
                if m:
                    callbacks[m.group(1)] = m.group(2)
                # A list header's entries made torture_param_field*() registrations
                # (rcutorture_state.c over rcutorture_param_list.h).
                m = re.match(r'^(\w+)\(([^)]*)\)\s+torture_param_field(_bool|_string)?\(', arg)
                if m:
                    params = [a.strip() for a in m.group(2).split(",")]
                    kind = {"_bool": "KPARAM_BOOL", "_string": "KPARAM_STRING"}.get(m.group(3))
                    fields[m.group(1)] = (params.index("name") if "name" in params else None,
                                          params.index("type") if "type" in params else None, kind)
            elif kw == "undef":
                fields.pop(arg, None)
            elif kw == "include":
                included = True
                m = re.match(r'^"([^"]+)"$', arg)
                h = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1))) if m else None
                if fields and h and os.path.isfile(os.path.join(srctree, h)):
                    for hn, hl in logical_lines(os.path.join(srctree, h)):
                        em = re.match(r"^\s*(\w+)\((.*)$", hl)
                        if not em or em.group(1) not in fields:
                            continue
                        ni, ti, kind = fields[em.group(1)]
                        args = [a.strip() for a in em.group(2).split(",")]
                        if ni is None or ni >= len(args) or (kind is None and
                                                             (ti is None or args[ti] not in C_TYPES)):
                            problems.append("%s:%d: a %s() entry kparams.py cannot read" %
                                            (h, hn, em.group(1)))
                            continue
                        if prefix is None:
                            problems.append("%s: %s() entries without TORTURE_PARAM_PREFIX" %
                                            (where, em.group(1)))
                            continue
                        if None in stack:
                            problems.append("%s: %s is declared under an #if kparams.py cannot "
                                            "decide" % (where, prefix + args[ni]))
                            continue
                        decls.append(Decl(prefix + args[ni], kind or C_TYPES[args[ti]], subsys,
                                          True, list(stack), "%s:%d" % (h, hn)))
            elif kw in ("ifdef", "ifndef"):
                m = re.match(r"^CONFIG_(\w+)$", arg)
                stack.append((m.group(1), kw == "ifdef") if m else None)
            elif kw == "if":
                m = re.match(r"^(!?)\s*(?:IS_ENABLED\(|defined\s*\(?)CONFIG_(\w+)\)?$", arg)
                stack.append((m.group(2), not m.group(1)) if m else None)
            elif kw in ("elif",):
                stack[-1] = None
            elif kw == "else":
                stack[-1] = None if stack[-1] is None else (stack[-1][0], not stack[-1][1])
            elif kw == "endif":
                stack.pop()
            continue
        found = []
        m = re.match(r"^(\w+)\((\w+)\)\s*;?\s*$", line)
        if m and m.group(2) in callbacks:
            if lists is None:
                lists = local_lists(srctree, path, lines)
            if m.group(1) not in lists:
                problems.append("%s: %s(%s): no X-list %s in a local header" %
                                (where, m.group(1), m.group(2), m.group(1)))
            for ktype, name in lists.get(m.group(1), []):
                found.append((callbacks[m.group(2)] + name, ktype))
        dm = DECL_RE.match(line)
        if dm:
            stmt = line
            while ";" not in stmt and i < len(lines):
                stmt += " " + lines[i][1]
                i += 1
            macro = dm.group(1)
            args = [a.strip() for a in stmt[dm.end():].split(",")]
            name = re.match(r'^"([^"]+)"$', args[0]) if args else None
            if macro.startswith("KPARAM") and name:
                ktype = {"KPARAM_BOOL": "KPARAM_BOOL", "KPARAM_STRING": "KPARAM_STRING",
                         "KPARAM_CPULIST": "KPARAM_CPULIST", "KPARAM_UNIMPL": "KPARAM_UNIMPL"}.get(macro)
                if ktype is None and len(args) > 2 and re.match(r"^KPARAM_[A-Z]+$", args[2]):
                    ktype = args[2]
                if ktype:
                    found.append((name.group(1), ktype))
            elif macro.startswith("torture_param") and prefix:
                if macro == "torture_param" and len(args) > 1 and args[0] in C_TYPES:
                    found.append((prefix + args[1], C_TYPES[args[0]]))
                elif macro == "torture_param_bool" and args:
                    found.append((prefix + args[0], "KPARAM_BOOL"))
                elif macro == "torture_param_string" and args:
                    found.append((prefix + args[0], "KPARAM_STRING"))
            if not found:
                problems.append("%s: a %s() declaration kparams.py cannot read (a literal name, "
                                "and the type as the third argument)" % (where, macro))
        for name, ktype in found:
            is_test = test or (dm is not None and dm.group(1).startswith("torture_param"))
            if None in stack:
                problems.append("%s: %s is declared under an #if kparams.py cannot decide "
                                "(use #ifdef CONFIG_X or #if IS_ENABLED(CONFIG_X))" % (where, name))
                continue
            decls.append(Decl(name, ktype, subsys, is_test, list(stack), where))
    return decls


def scan_tree(srctree, problems):
    """Every declaration: [(Decl, [Kbuild conditions of its file])]."""
    out = []
    for d in kbuild_dirs(srctree):
        for obj, conds in sorted(kbuild_objects(srctree, d, problems).items()):
            src = obj[:-2] + ".c"
            if not obj.endswith(".o") or not os.path.isfile(os.path.join(srctree, src)):
                continue
            for decl in scan_file(srctree, src, problems):
                out.append((decl, conds))
    return out


def load_kconfig(srctree, objtree):
    import kconfiglib
    os.environ["srctree"] = srctree
    if objtree:
        os.environ["KCONFIG_CONFIG"] = os.path.join(objtree, ".config")
    kconf = kconfiglib.Kconfig(os.path.join(srctree, "Kconfig"), warn=False)
    if objtree:
        kconf.load_config(os.path.join(objtree, ".config"))
    return kconf


def needs(kconf, sym, target, seen=None):
    """Does option sym need option target: itself, its depends on, or what sets it?"""
    import kconfiglib
    seen = set() if seen is None else seen
    if sym == target:
        return True
    s = kconf.syms.get(sym)
    if s is None or sym in seen:
        return False
    seen.add(sym)

    def expr(e):
        if isinstance(e, kconfiglib.Symbol):
            return needs(kconf, e.name, target, seen)
        if isinstance(e, tuple) and e[0] == kconfiglib.AND:
            return expr(e[1]) or expr(e[2])
        if isinstance(e, tuple) and e[0] == kconfiglib.OR:
            return expr(e[1]) and expr(e[2])
        return False

    if expr(s.direct_dep):
        return True
    if any(node.prompt for node in s.nodes):
        return False
    # No prompt: its value comes from its defaults (def_bool A && B) or from the options selecting it.
    ways = [(v, c) for v, c in s.defaults] + [(s.rev_dep, None)] * (s.rev_dep is not kconf.n)
    return bool(ways) and all(expr(v) or (c is not None and expr(c)) for v, c in ways)


def holds(kconf, cond):
    return all((kconf.syms[s].str_value == "y" if s in kconf.syms else False) == want
               for s, want in cond)


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def table(srctree, objtree, out):
    problems = []
    decls = scan_tree(srctree, problems)
    if problems:
        for p in problems:
            print("kparams: " + p, file=sys.stderr)
        return 1
    kconf = load_kconfig(srctree, objtree)
    built, absent = set(), {}
    for decl, conds in decls:
        if any(holds(kconf, c + decl.cond) for c in conds):
            built.add(decl.name)
    for decl, conds in decls:
        if decl.name in built or decl.name in absent:
            continue
        unmet = [(s, w) for s, w in conds[0] + decl.cond if not holds(kconf, [(s, w)])]
        why, flags = None, []
        for tree, tiny, flavor in FLAVORS:
            if holds(kconf, [(tiny, True)]) and any(
                    (w and needs(kconf, s, tree)) or (not w and s == tiny) for s, w in unmet):
                why, flags = flavor, ["KPARAM_F_FLAVOR"]
        if why is None:
            why = " and ".join("CONFIG_" + s if w else "no CONFIG_" + s for s, w in unmet)
            flags = ["KPARAM_F_TEST"] if decl.test else []
        absent[decl.name] = (decl, why, " | ".join(flags) or "0")
    text = ["/* Generated by scripts/kparams.py from the tree's declarations and .config. */"]
    for name in sorted(absent):
        decl, why, flags = absent[name]
        # A CPU list's range depends on the machine, a Linux name's value on Linux: shown as given.
        ktype = "KPARAM_STRING" if decl.ktype in ("KPARAM_CPULIST", "KPARAM_UNIMPL") else decl.ktype
        text.append("KPARAM_ABSENT(%s, %s, %s, %s, %s)" % (c_string(name), c_string(decl.subsys),
                                                           ktype, c_string(why), flags))
    data = "\n".join(text) + "\n"
    old = open(out).read() if os.path.exists(out) else None
    if data != old:		# unchanged: keep the date, so nothing recompiles
        with open(out, "w") as f:
            f.write(data)
    return 0


def check(srctree):
    problems = []
    decls = scan_tree(srctree, problems)
    kconf = load_kconfig(srctree, None)
    for decl, conds in decls:
        is_test = all(any(w and needs(kconf, s, "KERNEL_TESTS") for s, w in c + decl.cond)
                      for c in conds)
        if decl.test and not is_test:
            problems.append("%s: test parameter %s in a file built without CONFIG_KERNEL_TESTS "
                            "(build it with a test option only)" % (decl.where, decl.name))
        elif is_test and not decl.test:
            problems.append("%s: %s is built only with CONFIG_KERNEL_TESTS but not marked a test "
                            "parameter (#define KPARAM_TEST before <kernel/param.h>)" %
                            (decl.where, decl.name))
    for p in problems:
        print("kparams: " + p)
    return 1 if problems else 0


def main():
    args = sys.argv[1:]
    if len(args) == 4 and args[0] == "table":
        return table(*args[1:])
    if len(args) == 2 and args[0] == "list":
        problems = []
        for name in sorted({d.name for d, _ in scan_tree(args[1], problems)}):
            print(name)
        for p in problems:
            print("kparams: " + p, file=sys.stderr)
        return 1 if problems else 0
    if len(args) == 2 and args[0] == "check":
        return check(args[1])
    sys.exit("usage: kparams.py table SRCTREE OBJTREE OUT | list SRCTREE | check SRCTREE")


if __name__ == "__main__":
    sys.exit(main())
