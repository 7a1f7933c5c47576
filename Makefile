# Top-level Makefile: Kconfig targets (via Kconfiglib), a Kbuild-lite build
# of the kernel from per-directory Kbuild files, and run/iso/check targets.
# `make O=DIR ...` keeps .config and every build product in DIR.

srctree := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
O ?= .
objtree := $(abspath $(O))
PYTHON := /usr/bin/python3
KCONFIG := $(PYTHON) $(srctree)/scripts/kconfig.py $(srctree) $(objtree)

CC := gcc
LD := ld
NM := nm
OBJCOPY := objcopy

SMP ?= 4
MEM ?= 256M
ACCEL ?= tcg
BOOT ?= grub
CMDLINE ?=
TIMEOUT ?=

.DEFAULT_GOAL := all
MAKEFLAGS += --no-print-directory
.SUFFIXES:

config-targets := defconfig %_defconfig olddefconfig savedefconfig menuconfig listnewconfig
.PHONY: all defconfig olddefconfig savedefconfig menuconfig listnewconfig deps clean distclean \
	run run-args iso check hosttest fuzz size size-compare help model checksrc debug

# `make O=DIR defconfig all` in one command: the object list comes from the .config the first
# goal writes, so when configuration and other goals are mixed, each goal runs in a make of its
# own, in order (Linux's one-by-one build).
mixed-goals := $(and $(filter $(config-targets),$(MAKECMDGOALS)),$(filter-out $(config-targets),$(MAKECMDGOALS)))
ifneq ($(mixed-goals),)
$(MAKECMDGOALS): one-by-one
	@:
one-by-one:
	@set -e; for g in $(MAKECMDGOALS); do $(MAKE) -f $(srctree)/Makefile $$g; done
.PHONY: one-by-one
else

deps:
	@$(srctree)/scripts/install-deps.sh

defconfig: | $(objtree)
	@$(KCONFIG) defconfig
%_defconfig: | $(objtree)
	@$(KCONFIG) defconfig $@
olddefconfig: | $(objtree)
	@$(KCONFIG) olddefconfig
savedefconfig: | $(objtree)
	@$(KCONFIG) savedefconfig
menuconfig: | $(objtree)
	@$(KCONFIG) menuconfig
listnewconfig: | $(objtree)
	@$(KCONFIG) listnewconfig

$(objtree):
	@mkdir -p $@

AUTOCONF := $(objtree)/include/generated/autoconf.h
KCONFIG_FILES := $(shell find $(srctree) -name 'Kconfig*' -not -path '*/.git/*' -not -path '*/tools/*')

# .config is the single source of truth; autoconf.h and auto.conf follow it.
# Without a .config the default configuration is used, as `make defconfig` would.
$(objtree)/.config: | $(objtree)
	@echo "  no .config: using arch/x86_64/configs/defconfig"
	@$(KCONFIG) defconfig >/dev/null
$(AUTOCONF) $(objtree)/include/config/auto.conf: $(objtree)/.config $(KCONFIG_FILES)
	@$(KCONFIG) syncconfig

ifeq ($(filter $(config-targets) deps clean distclean help hosttest fuzz model size-compare,$(MAKECMDGOALS)),)
-include $(objtree)/include/config/auto.conf
endif

# ---- Kbuild-lite: every directory's Kbuild file adds objects to obj-y ----
KBUILD_DIRS := $(sort $(patsubst $(srctree)/%/Kbuild,%,$(shell find $(srctree) -name Kbuild -not -path '*/.git/*' -not -path '*/tools/*' -not -path '*/tests/*')))
# ---- sanitizers: Linux's per-directory and per-file opt-outs ----
# A Kbuild file may set <TOOL>_SANITIZE := n (its whole directory) and <TOOL>_SANITIZE_foo.o :=
# n or y (one object, wins over the directory's), for each TOOL in SANITIZERS; the answer is kept
# per object (sanitize.<TOOL>.<dir>/<obj>) and the settings are forgotten before the next
# directory. An object compiled with TOOL gets CFLAGS_<TOOL> (scripts/Makefile.<tool>).
SANITIZERS := UBSAN KCSAN KASAN
define sanitize_dir
$(foreach o,$(obj-y),$(eval sanitize.$(2).$(1)/$(o) := \
	$(or $($(2)_SANITIZE_$(o)),$($(2)_SANITIZE),$(SANITIZE_DEFAULT_$(2)),y)))
$(foreach v,$(filter $(2)_SANITIZE%,$(.VARIABLES)),$(eval undefine $(v)))
endef
# sanitizer_cflags OBJ (relative to the tree, e.g. kernel/debug/ubsan.o)
sanitizer_cflags = $(foreach s,$(SANITIZERS),$(if $(filter y,$(sanitize.$(s).$(1))),$(CFLAGS_$(s))))
-include $(srctree)/scripts/Makefile.ubsan
-include $(srctree)/scripts/Makefile.kcsan
-include $(srctree)/scripts/Makefile.kasan
# ---- end sanitizers ----
define collect_dir
obj-y :=
include $(srctree)/$(1)/Kbuild
KERNEL_OBJS += $$(addprefix $(objtree)/$(1)/,$$(obj-y))
$$(foreach s,$$(SANITIZERS),$$(call sanitize_dir,$(1),$$(s)))
endef
KERNEL_OBJS :=
$(foreach d,$(KBUILD_DIRS),$(eval $(call collect_dir,$(d))))

include $(srctree)/arch/x86_64/Makefile.arch

INCLUDES := -I$(srctree)/include -I$(srctree)/arch/x86_64/include -I$(objtree)/include
CPPFLAGS := -D__KERNEL__ $(INCLUDES) -include $(AUTOCONF)
WARNINGS := -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers \
	-Wstrict-prototypes -Werror
CFLAGS := -std=gnu11 -O2 -g $(ARCH_CFLAGS) -fmacro-prefix-map=$(srctree)/= -fno-omit-frame-pointer -fno-strict-aliasing \
	-fno-common $(WARNINGS) -MMD -MP
AFLAGS := $(ARCH_AFLAGS) -g -MMD -MP -D__ASSEMBLY__


# ---- sparse, as Linux runs it: `make C=1` checks each C file it (re)compiles, `make C=2`
# every kernel C file whether or not it is rebuilt (and `make checksrc` only checks, no build).
# CHECKFLAGS: sparse defines __CHECKER__ itself; it gets the compiler's flags so it sees the
# same headers and CONFIG_ macros, plus what gcc predefines and sparse does not know for the
# target (__VERSION__, which init/main.c prints). -Wbitwise as Linux; Linux also passes
# -Wno-return-void and -Wno-unknown-attribute, but neither class occurs in this tree, so both stay
# on. Sparse's warnings do not fail the build (as in Linux): the test suite's sparse-clean test
# does. CF="..." adds flags for one run (CF=-Wsparse-all).
CHECK ?= sparse
# Only from the command line, as in Linux: a stray C in the environment must not turn checking on.
ifneq ($(origin C),command line)
C := 0
endif
CHECKFLAGS := -D__linux__ -D__x86_64__ -m64 -D__VERSION__='"$(shell $(CC) -dumpfullversion)"' \
	-Wbitwise $(CF)
# Run from the source tree on the relative name, so reports read "kernel/rcu/tree.c:12:3: ...".
quiet_check = @echo "  CHECK   $(1)"; cd $(srctree) && $(CHECK) $(CHECKFLAGS) $(CPPFLAGS) \
	$(filter-out -MMD -MP,$(CFLAGS)) $(1)

$(objtree)/%.o: $(srctree)/%.c $(AUTOCONF)
	@mkdir -p $(dir $@)
	@echo "  CC      $*.o"
	@$(CC) $(CPPFLAGS) $(CFLAGS) $(call sanitizer_cflags,$*.o) -c $< -o $@
ifeq ($(C),1)
	$(call quiet_check,$*.c)
endif

# C=2 (and checksrc): one forced check per C source, so -jN spreads them over the cores.
KERNEL_CSRCS := $(patsubst $(srctree)/%,%,$(wildcard $(patsubst $(objtree)/%.o,$(srctree)/%.c,$(KERNEL_OBJS))))
CHECK_TARGETS := $(addprefix checksrc/,$(KERNEL_CSRCS))
.PHONY: checksrc $(CHECK_TARGETS)
checksrc: $(CHECK_TARGETS)
$(CHECK_TARGETS): checksrc/%: $(AUTOCONF)
	$(call quiet_check,$*)
ifeq ($(C),2)
all: checksrc
endif

$(objtree)/%.o: $(srctree)/%.S $(AUTOCONF)
	@mkdir -p $(dir $@)
	@echo "  AS      $*.o"
	@$(CC) $(CPPFLAGS) $(AFLAGS) -c $< -o $@

-include $(KERNEL_OBJS:.o=.d)

# ---- the boot parameters declared in the tree but not in this build (kernel/params_absent.c):
# scripts/kparams.py reads every declaration and its Kconfig condition; it rewrites the table
# only when it changes. It reads every C file and Kbuild, so any of them may change it.
KPARAMS := $(srctree)/scripts/kparams.py
KPARAM_ABSENT := $(objtree)/include/generated/kparam_absent.h
KPARAM_INPUTS := $(shell find $(srctree) \( -name '*.c' -o -name '*.h' -o -name Kbuild \) \
	-not -path '*/.git/*' -not -path '*/tools/*' -not -path '*/tests/*' -not -path '*/include/generated/*' \
	$(if $(filter $(srctree),$(objtree)),,-not -path '$(objtree)/*'))
$(KPARAM_ABSENT): $(KPARAMS) $(objtree)/include/config/auto.conf $(KCONFIG_FILES) $(KPARAM_INPUTS)
	@mkdir -p $(dir $@)
	@$(PYTHON) $(KPARAMS) table $(srctree) $(objtree) $@
$(objtree)/kernel/params_absent.o checksrc/kernel/params_absent.c: $(KPARAM_ABSENT)

# ---- user programs (user/): freestanding static executables embedded in the kernel ----
# Position-independent code linked at a fixed address in the user half (user/user.ld);
# they may use x87, SSE and AVX: the kernel keeps that state per process
# (arch/x86_64/kernel/fpu.c). kernel/user/programs.S includes them.
USER_PROGS := init hello hostile spin fpu fuzz
USER_CFLAGS := -std=gnu11 -O2 -g -m64 -ffreestanding -fno-builtin -nostdlib -fpie \
	-fvisibility=hidden -fno-stack-protector -fno-asynchronous-unwind-tables \
	-I$(srctree)/user/include $(WARNINGS)
USER_ELFS := $(addprefix $(objtree)/user/,$(addsuffix .elf,$(USER_PROGS)))
# Kept (not intermediates make would delete, and rebuild, on every change).
.SECONDARY: $(addprefix $(objtree)/user/,$(addsuffix .o,$(USER_PROGS) lib fpu_math fuzz_insn))
# Programs of more than one file: their other objects.
$(objtree)/user/fpu.elf: $(objtree)/user/fpu_math.o
$(objtree)/user/fuzz.elf: $(objtree)/user/fuzz_insn.o
$(objtree)/user/fuzz.o $(objtree)/user/fuzz_insn.o: $(srctree)/user/fuzz.h
$(objtree)/user/%.o: $(srctree)/user/%.c $(srctree)/user/include/ulib.h
	@mkdir -p $(dir $@)
	@echo "  CC [U]  user/$*.o"
	@$(CC) $(USER_CFLAGS) -c $< -o $@
$(objtree)/user/%.elf: $(objtree)/user/%.o $(objtree)/user/lib.o $(srctree)/user/user.ld
	@echo "  LD [U]  user/$*.elf"
	@$(LD) -nostdlib -static -no-pie -z max-page-size=0x1000 -z noexecstack --build-id=none \
		-T $(srctree)/user/user.ld -o $@ $(filter %.o,$^)
$(objtree)/kernel/user/programs.o: $(USER_ELFS)
$(objtree)/kernel/user/programs.o: AFLAGS += -Wa,-I$(objtree)/user

# ---- link: two passes so the image carries its own symbol table ----
LDS := $(srctree)/arch/x86_64/kernel.ld
LINK = $(LD) $(ARCH_LDFLAGS) -T $(LDS) -o $@ $(KERNEL_OBJS) $(1)
KALLSYMS := $(srctree)/scripts/gen-kallsyms.sh

$(objtree)/.tmp_kallsyms0.S:
	@mkdir -p $(dir $@)
	@$(KALLSYMS) /dev/null > $@
$(objtree)/.tmp_kallsyms%.o: $(objtree)/.tmp_kallsyms%.S
	@$(CC) $(CPPFLAGS) $(AFLAGS) -c $< -o $@
$(objtree)/.tmp_kernel1.elf: $(KERNEL_OBJS) $(objtree)/.tmp_kallsyms0.o $(LDS)
	@$(call LINK,$(objtree)/.tmp_kallsyms0.o)
$(objtree)/.tmp_kallsyms1.S: $(objtree)/.tmp_kernel1.elf $(KALLSYMS)
	@$(NM) -n $< | $(KALLSYMS) - > $@
$(objtree)/kernel.elf: $(objtree)/.tmp_kernel1.elf $(objtree)/.tmp_kallsyms1.o
	@echo "  LD      kernel.elf"
	@$(call LINK,$(objtree)/.tmp_kallsyms1.o)
	@$(NM) -n $@ | $(KALLSYMS) - | cmp -s - $(objtree)/.tmp_kallsyms1.S || \
		{ echo "kallsyms: symbol addresses moved between link passes" >&2; rm -f $@; exit 1; }

# The image's footprint, one line at the end of every build (binutils size, decimal bytes).
all: $(objtree)/kernel.elf
	@size $< | awk 'NR == 2 { printf "  SIZE    kernel.elf  text=%s data=%s bss=%s\n", $$1, $$2, $$3 }'

size: $(objtree)/kernel.elf
	@size $<

# Tiny RCU (tiny_defconfig) against Tree RCU (defconfig): both built under $(objtree)/size-compare.
size-compare:
	@$(srctree)/scripts/rcu-size-compare.sh $(objtree)/size-compare/tiny $(objtree)/size-compare/tree

# ---- running ----
ISO := $(objtree)/kernel.iso
$(ISO): $(objtree)/kernel.elf $(objtree)/.config FORCE
	@$(srctree)/scripts/mkiso.sh $< $@ "$(CMDLINE)"
iso: $(ISO)
FORCE:

# A guest booted with shutdown_secs=N that is still running N + 60 s later gets qemu-run.sh's
# overrun report (an NMI backtrace of every CPU, QEMU's threads); without shutdown_secs, no limit.
shutdown_secs_arg = $(lastword $(patsubst shutdown_secs=%,%,$(filter shutdown_secs=%,$(CMDLINE))))
RUN_TIMEOUT = $(if $(TIMEOUT),$(TIMEOUT),$(if $(filter-out 0,$(shutdown_secs_arg)),$(shell expr $(shutdown_secs_arg) + 60 2>/dev/null || echo 0),0))
QEMU_RUN = $(srctree)/scripts/qemu-run.sh --smp $(SMP) --mem $(MEM) --accel $(ACCEL) --timeout $(RUN_TIMEOUT)
# Catch a bad SMP= before building anything, naming the variable (not qemu-run.sh's --smp).
run-args:
	@case "$(SMP)" in ''|*[!0-9]*|0|0*) echo "make run: SMP=$(SMP): not a number of CPUs (1..255)" >&2; exit 2;; esac
	@[ "$(SMP)" -le 255 ] || { echo "make run: SMP=$(SMP): more than 255 CPUs (QEMU's pc machine takes 255)" >&2; exit 2; }
	@case "$(BOOT)" in grub|direct) ;; *) echo "make run: BOOT=$(BOOT): not grub or direct" >&2; exit 2;; esac
ifeq ($(BOOT),direct)
run: run-args deps $(objtree)/kernel.elf
	@$(QEMU_RUN) --kernel $(objtree)/kernel.elf --append "$(CMDLINE)"
else
run: run-args deps $(ISO)
	@$(QEMU_RUN) --iso $(ISO)
endif

# The guest stopped at its first instruction under gdb (QEMU's stub on localhost:$(GDB_PORT)),
# with scripts/gdb/rcukernel.py's lx-dmesg, lx-ps, lx-cpus and rcu-gp; console in debug-console.log.
GDB_PORT ?= 1234
debug: deps $(objtree)/kernel.elf
	@GDB_PORT=$(GDB_PORT) $(srctree)/scripts/debug.sh $(objtree)/kernel.elf --smp $(SMP) --mem $(MEM) \
		--accel $(ACCEL) --append "$(CMDLINE)"

# ---- tests ----
hosttest:
	@$(MAKE) -C $(srctree)/tests/host check
fuzz:
	@$(MAKE) -C $(srctree)/tests/host fuzz
# The suite needs the in-kernel tests: it tests this build when its .config has
# CONFIG_KERNEL_TESTS=y, else a test_defconfig kernel built in $(objtree)/check-build/.
# Logs go to $(objtree)/test-logs either way.
ifeq ($(CONFIG_KERNEL_TESTS),y)
check: deps $(objtree)/kernel.elf
	@O=$(objtree) LOGDIR=$${LOGDIR:-$(objtree)/test-logs} $(srctree)/tests/run-all.sh
else
check: deps
	@echo "  check: building arch/x86_64/configs/test_defconfig in $(objtree)/check-build"
	@$(MAKE) -s O=$(objtree)/check-build test_defconfig >/dev/null
	@$(MAKE) O=$(objtree)/check-build -j2 all
	@O=$(objtree)/check-build LOGDIR=$${LOGDIR:-$(objtree)/test-logs} $(srctree)/tests/run-all.sh
endif
# The spin model of RCU's handshakes at bigger sizes than make check's (minutes, a few GB).
model:
	@$(srctree)/scripts/install-deps.sh --quiet
	@PAN_OPT=-O2 PAN_CFLAGS=-DCOLLAPSE PAN_MEMLIM=$${PAN_MEMLIM:-6144} $(srctree)/tools/model/rcu/check.sh --suite deep

clean:
	@rm -rf $(objtree)/.tmp_* $(objtree)/kernel.elf $(objtree)/kernel.iso $(objtree)/test-logs \
		$(objtree)/check-build $(objtree)/user
	@find $(objtree) \( -name '*.o' -o -name '*.d' \) -not -path '*/.git/*' -delete
distclean: clean
	@rm -rf $(objtree)/.config $(objtree)/.config.old $(objtree)/include/generated $(objtree)/include/config $(objtree)/defconfig

help:
	@echo "Configuration targets:"
	@echo "  defconfig            arch/x86_64/configs/defconfig into O=DIR/.config (the default)"
	@for f in $(notdir $(wildcard $(srctree)/arch/x86_64/configs/*_defconfig)); do \
		printf '  %-20s arch/x86_64/configs/%s\n' "$$f" "$$f"; done
	@echo "  olddefconfig savedefconfig menuconfig listnewconfig"
	@echo "                       (menuconfig in a fresh O=DIR starts from defconfig, as Linux)"
	@echo "  scripts/config --file DIR/.config -e X -d Y --set-val Z 8 --refresh   (as Linux's)"
	@echo "Build targets:"
	@echo "  all                  kernel.elf (the default goal); iso: kernel.iso for GRUB"
	@echo "  size size-compare    section sizes; Tree vs Tiny RCU"
	@echo "  checksrc             run sparse over every kernel C file, compile nothing"
	@echo "  clean distclean"
	@echo "Run and test targets:"
	@echo "  run                  build and boot under QEMU (Ctrl-A X quits)"
	@echo "  check                the test suite; last line 'N passed, N failed' (~33 min on 2 cores)"
	@echo "                       one test: make check SKIP_HOST=1 TEST_FILTER='^gdb-helpers\$$'"
	@echo "                       (TEST_FILTER: regex on test names; SKIP_HOST=1: no host tests)"
	@echo "  hosttest fuzz        host-side unit tests; libFuzzer on the command-line parser"
	@echo "  model                the spin model of RCU's handshakes, bigger sizes than check"
	@echo "  debug [GDB_PORT=1234] gdb on a stopped guest (lx-dmesg lx-ps lx-cpus rcu-gp)"
	@echo "  deps                 install missing Debian packages (scripts/install-deps.sh)"
	@echo "Variables (make VAR=value target):"
	@echo "  O=DIR                build directory (default: the source tree)"
	@echo "  SMP=N                virtual CPUs for run, 1..255 (default $(SMP))"
	@echo "  MEM=SIZE             guest RAM, QEMU syntax (default $(MEM))"
	@echo "  ACCEL=A              tcg | tcg-single | kvm | repro (default $(ACCEL))"
	@echo "  BOOT=B               grub (ISO) | direct (-kernel) (default $(BOOT))"
	@echo "  CMDLINE='...'        kernel command line, e.g. CMDLINE='shutdown_secs=10 rcutree.blimit=20'"
	@echo "  C=1 | C=2            also run sparse on each C file compiled | on every kernel C file"
	@echo "  CF='...'             extra sparse flags (e.g. CF=-Wsparse-all)"
	@echo "  TIMEOUT=S            host-side limit for run in seconds (default shutdown_secs + 60, or none)"
	@echo "Torture and benchmarks (tools/testing/rcutorture/, see its README.md):"
	@echo "  tools/testing/rcutorture/bin/kvm.sh --configs 'TREE01 TREE03' --duration 2m"
	@echo "  tools/testing/rcutorture/bin/torture.sh --dryrun      (the long campaign)"
	@echo "  tools/testing/rcutorture/bin/kvm.sh --torture rcuperf --configs TREE2 --duration 60s"

endif # mixed-goals
