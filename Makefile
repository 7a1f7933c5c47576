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
	run iso check hosttest fuzz size size-compare help model debug

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
define collect_dir
obj-y :=
include $(srctree)/$(1)/Kbuild
KERNEL_OBJS += $$(addprefix $(objtree)/$(1)/,$$(obj-y))
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

$(objtree)/%.o: $(srctree)/%.c $(AUTOCONF)
	@mkdir -p $(dir $@)
	@echo "  CC      $*.o"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(objtree)/%.o: $(srctree)/%.S $(AUTOCONF)
	@mkdir -p $(dir $@)
	@echo "  AS      $*.o"
	@$(CC) $(CPPFLAGS) $(AFLAGS) -c $< -o $@

-include $(KERNEL_OBJS:.o=.d)

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
ifeq ($(BOOT),direct)
run: deps $(objtree)/kernel.elf
	@$(QEMU_RUN) --kernel $(objtree)/kernel.elf --append "$(CMDLINE)"
else
run: deps $(ISO)
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
		$(objtree)/check-build
	@find $(objtree) \( -name '*.o' -o -name '*.d' \) -not -path '*/.git/*' -delete
distclean: clean
	@rm -rf $(objtree)/.config $(objtree)/.config.old $(objtree)/include/generated $(objtree)/include/config $(objtree)/defconfig

help:
	@echo "Configuration: defconfig <name>_defconfig olddefconfig savedefconfig menuconfig"
	@echo "Build:         all (kernel.elf) iso size size-compare clean distclean   (O=DIR builds out of tree)"
	@echo "Run:           run [SMP=$(SMP)] [MEM=$(MEM)] [ACCEL=tcg|tcg-single|kvm|repro] [BOOT=grub|direct] [CMDLINE='...']"
	@echo "Test:          check hosttest fuzz model"
	@echo "Debug:         debug [GDB_PORT=1234] (gdb on a stopped guest: lx-dmesg lx-ps lx-cpus rcu-gp)"
