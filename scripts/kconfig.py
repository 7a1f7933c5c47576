#!/usr/bin/python3
"""
Kconfiglib front end for the Makefile: defconfig, <name>_defconfig,
olddefconfig, savedefconfig, menuconfig and syncconfig (writes
include/generated/autoconf.h and include/config/auto.conf from .config).
Run with /usr/bin/python3: Debian's python3-kconfiglib lives there.
"""
import os
import sys

try:
    import kconfiglib
except ImportError:
    sys.exit("kconfig: python3-kconfiglib is missing (run scripts/install-deps.sh)")


def load(srctree, config):
    os.environ["srctree"] = srctree
    kconf = kconfiglib.Kconfig(os.path.join(srctree, "Kconfig"), warn_to_stderr=True)
    return kconf


def write_generated(kconf, objtree):
    inc = os.path.join(objtree, "include")
    os.makedirs(os.path.join(inc, "generated"), exist_ok=True)
    os.makedirs(os.path.join(inc, "config"), exist_ok=True)
    kconf.write_autoconf(os.path.join(inc, "generated", "autoconf.h"))
    # auto.conf is .config without comments: the Makefile includes it.
    kconf.write_config(os.path.join(inc, "config", "auto.conf"), header="# generated, do not edit\n")


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: kconfig.py SRCTREE OBJTREE ACTION [ARG]")
    srctree, objtree, action = sys.argv[1:4]
    arg = sys.argv[4] if len(sys.argv) > 4 else None
    config = os.path.join(objtree, ".config")
    os.environ["KCONFIG_CONFIG"] = config
    kconf = load(srctree, config)

    if action == "defconfig":
        name = arg or "defconfig"
        path = os.path.join(srctree, "arch", "x86_64", "configs", name)
        if not os.path.exists(path):
            sys.exit("kconfig: no such configuration: arch/x86_64/configs/%s" % name)
        kconf.load_config(path)
        print(kconf.write_config(config))
        write_generated(kconf, objtree)
    elif action in ("olddefconfig", "syncconfig"):
        if os.path.exists(config):
            kconf.load_config(config)
        else:
            kconf.load_config(os.path.join(srctree, "arch", "x86_64", "configs", "defconfig"))
        msg = kconf.write_config(config)
        if action == "olddefconfig":
            print(msg)
        write_generated(kconf, objtree)
    elif action == "savedefconfig":
        kconf.load_config(config)
        out = os.path.join(objtree, "defconfig")
        print(kconf.write_min_config(out))
    elif action == "menuconfig":
        import menuconfig
        if not os.path.exists(config):
            # As Linux: a fresh build directory starts from the arch defconfig,
            # written out first so that quitting without saving still leaves
            # a usable .config (and nothing to trip over below).
            kconf.load_config(os.path.join(srctree, "arch", "x86_64", "configs", "defconfig"))
            kconf.write_config(config)
            print("kconfig: no .config: starting from arch/x86_64/configs/defconfig")
        kconf.load_config(config)
        menuconfig.menuconfig(kconf)
        kconf.load_config(config)
        write_generated(kconf, objtree)
    elif action == "listnewconfig":
        kconf.load_config(config)
        for sym in kconf.unique_defined_syms:
            if sym.user_value is None and sym.visibility:
                print("CONFIG_%s" % sym.name)
    else:
        sys.exit("kconfig: unknown action %s" % action)


if __name__ == "__main__":
    main()
