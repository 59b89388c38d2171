# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# sysfs-observe: `make` builds everything, `make check` tests everything,
# `make run TEST=0028` does the main job (natively when this machine can,
# else in the guest).  `make help` lists the rest.

O       ?= build
CACHE   ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/sysfs-observe
V       ?= 0
ifeq ($(V),0)
Q       := @
msg      = @printf '  %-8s %s\n' "$(1)" "$(2)";
else
Q       :=
msg      =
endif

CC      ?= cc
CLANG   ?= clang
BPFTOOL ?= bpftool
# The kernel's name for this machine (bpf_tracing.h's __TARGET_ARCH_),
# from `uname -m` as libbpf-tools map it; ARCH= sets it for another.
# vmlinux/vmlinux.h must then be that kernel's (`make vmlinux-h`).
ARCH    ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/arm.*/arm/' \
	     -e 's/aarch64/arm64/' -e 's/ppc64le/powerpc/' -e 's/mips.*/mips/' \
	     -e 's/riscv64/riscv/' -e 's/loongarch64/loongarch/' \
	     -e 's/s390x/s390/')
ARCH    := $(ARCH)

# The guest kernel (Debian's cloud kernel), fetched once into $(CACHE).
# Expanded at most once, and only by the rules that need it.
GUEST_DIR  = $(eval GUEST_DIR := $(shell scripts/guest-kernel.sh $(CACHE)))$(GUEST_DIR)
GUEST_KDIR = $(GUEST_DIR)/kdir

# KDIR: what `make module` builds against.  The running kernel's headers
# when they are installed, else the guest's.
NATIVE_KDIR := /lib/modules/$(shell uname -r)/build
ifneq ($(wildcard $(NATIVE_KDIR)/Makefile),)
KDIR ?= $(NATIVE_KDIR)
else
KDIR ?= $(GUEST_KDIR)
endif
# The guest boots KERNEL and loads modules built against VM_KDIR: the
# Debian guest kernel unless KERNEL= and KDIR= name another one.
ifneq ($(filter command line environment,$(origin KDIR)),)
VM_KDIR ?= $(KDIR)
else
VM_KDIR ?= $(GUEST_KDIR)
endif
KERNEL  ?= $(GUEST_DIR)/vmlinuz
# The guest's module and initramfs live in a directory per guest kernel:
# a module built for one kernel has the wrong vermagic on another, so
# `make vm` and `make vm KERNEL=.. KDIR=..` must not share them.  The
# Debian guest's key is its release as the cache last recorded it (read
# without fetching anything); another kernel's is its release and a hash
# of the KERNEL and VM_KDIR paths.
ifeq ($(value KERNEL)$(value VM_KDIR),$$(GUEST_DIR)/vmlinuz$$(GUEST_KDIR))
VM_KEY := debian-$(shell cat $(CACHE)/kernel/current 2>/dev/null)
# A fresh cache has no release yet: goals that boot or build the guest
# fetch it now, at parse time, so the key is right on the first run (not
# `debian-`, rebuilt under the real name the second time).  Other goals
# (unit, asan, install) fetch nothing.
GUEST_GOALS := vm vm-base vm-base-path check bench bench-prof vmlinux-h
ifeq ($(VM_KEY),debian-)
ifneq ($(filter $(GUEST_GOALS),$(MAKECMDGOALS)),)
VM_KEY := debian-$(notdir $(shell scripts/deps.sh >&2 && \
	    scripts/guest-kernel.sh $(CACHE)))
endif
endif
else
VM_KEY := $(shell cat $(VM_KDIR)/include/config/kernel.release \
	    2>/dev/null)-$(shell printf '%s\n' $(abspath $(KERNEL)) \
	    $(abspath $(VM_KDIR)) | sha256sum | cut -c1-8)
# A rebuilt kernel (same paths) rebuilds the module.
VM_KDIR_STAMP := $(wildcard $(VM_KDIR)/Module.symvers)
endif
VM_GUEST := $(O)/guest/$(VM_KEY)
# Modules of the guest kernel (virtio for the output disk), if it has any.
VM_MODROOT ?= $(if $(filter $(GUEST_DIR)/vmlinuz,$(KERNEL)),$(GUEST_DIR)/root)
VM_TIMEOUT ?= 300
SEEDS      ?= ../shared/seeds/extracted
TEST       ?= 0028
FIXED      ?= 0
RUN_IN     ?=
ARGS       ?=
VM_FILES   ?=
VM_OUT     ?=
CMD        ?= sysfs-observe --version

# --- user space -------------------------------------------------------
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	    -Wmissing-prototypes -Wno-unused-parameter
CFLAGS   ?= -O2 -g
USER_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) \
	      -Iuser -Ibpf -I$(O)/bpf
# Static, so the binary runs in the guest's busybox initramfs as it is.
USER_LIBS := -static -lbpf -lelf -lz -lzstd -lpthread

# Pure logic: no libbpf, no syscalls beyond stdio; unit-tested on the host.
# app/ holds four: the pipeline, the findings fed by it and their part
# of the summary, the replay.
APP_LOGIC  := user/app/findings.c user/app/findings_report.c \
	      user/app/pipeline.c user/app/replay.c
USER_LOGIC := $(sort $(wildcard user/lib/*.c user/cli/*.c user/trace/*.c \
		user/analysis/*.c user/report/*.c) $(APP_LOGIC))
# Kernel-facing code and the entry point.
USER_KERNEL := $(sort $(wildcard user/kernel/*.c) \
		$(filter-out $(APP_LOGIC),$(wildcard user/app/*.c))) \
	       user/main.c
BPF_SRCS    := $(sort $(wildcard bpf/*.bpf.c))
BPF_OBJS    := $(patsubst bpf/%.bpf.c,$(O)/bpf/%.bpf.o,$(BPF_SRCS))
BPF_SKELS   := $(patsubst bpf/%.bpf.c,$(O)/bpf/%.skel.h,$(BPF_SRCS))

LOGIC_OBJS  := $(patsubst user/%.c,$(O)/user/%.o,$(USER_LOGIC))
KERNEL_OBJS := $(patsubst user/%.c,$(O)/user/%.o,$(USER_KERNEL))
BIN         := $(O)/bin/sysfs-observe

UNIT_SRCS   := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS   := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRCS))
ASAN_BINS   := $(patsubst tests/unit/%.c,$(O)/asan/%,$(UNIT_SRCS))
ASAN_FLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer \
	       -fno-sanitize-recover=all
ASAN_LOGIC  := $(patsubst user/%.c,$(O)/asan/user/%.o,$(USER_LOGIC))
# The same with clang: its UBSan catches what gcc's misses (pointer
# arithmetic past an array, as ksyms.c once did).
CASAN_BINS  := $(patsubst tests/unit/%.c,$(O)/casan/%,$(UNIT_SRCS))
CASAN_LOGIC := $(patsubst user/%.c,$(O)/casan/user/%.o,$(USER_LOGIC))

MODULE_SRCS := $(wildcard module/*.c module/*.h) module/Kbuild

.DELETE_ON_ERROR:
# Keep intermediates (skeletons, sanitizer objects): no rebuild next time.
.SECONDARY:
.PHONY: all deps kernel kdir module vm vm-base run check unit asan fuzz spdx \
	guest-check vmlinux-h bench bench-prof clean distclean help \
	vm-base-path pictures FORCE

all: $(BIN) module

help:
	@sed -n 's/^## \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

## Targets:
##   make                  build sysfs-observe, the BPF objects, test_sysfs.ko
##   make check            all tests: SPDX, unit, ASan+UBSan, guest tests
##   make run TEST=0028    the main job: natively with root+BTF, else guest
##   make vm CMD='...'     boot the guest, run CMD as root, exit with status
##        VM_FILES=DIR     ... with DIR's files at /mnt/files
##        VM_OUT=DIR       ... and the guest's /mnt/out copied to DIR
##        VM_TIMEOUT=S     ... kill a hung guest after S s (exit 124)
##        KERNEL=bzImage KDIR=DIR   ... boot another kernel (its own
##                          module and initramfs: alternating is safe)
##   make vm-base-path     print the initramfs of KERNEL= KDIR= (for scripts)
##   make kdir             print the guest kernel's build dir (for M= builds)
##   make module           test_sysfs.ko against KDIR ($(O)/module)
##   make vmlinux-h [BTF=/sys/kernel/btf/vmlinux]   regenerate vmlinux.h
##   make kernfs-kernel    build the knob kernel, with lockdep (kernfs/, ~25 min)
##   make bench            throughput and overhead figures (guest)
##   make bench-prof       each BPF program's ns per run under a write loop
##   make pictures         docs/pictures/: --svg of the golden 0028 traces,
##                          rendered to PNG by headless Chromium
##   make install [PREFIX=/usr/local] [DESTDIR=]   sbin/sysfs-observe,
##                          its man page, test_sysfs.ko (modules_install,
##                          depmod) for KDIR's kernel; `make uninstall`
##   make dkms-install     the module through DKMS instead (every kernel)
##   make kselftest-install [KSFT_INSTALL_PATH=DIR]   the sysfs_observe
##                          kselftest collection with the kernel's runner,
##                          the module for KDIR's kernel; then
##                          DIR/run_kselftest.sh -c sysfs_observe
##   make clean            remove $(O)/ (the download cache stays)

# --- pictures ---------------------------------------------------------
# The pictures the docs show, from the recorded 0028 runs in
# tests/golden/traces (unfixed: DEADLOCK-PRONE and the deadlock; fixed:
# GATED), drawn by `report --svg` and rendered by headless Chromium.
PICTURES := $(foreach t,0028 0028-fixed,docs/pictures/$(t).svg \
		docs/pictures/$(t).png)
pictures: $(PICTURES)
docs/pictures/%.svg: tests/golden/traces/%.data $(BIN)
	$(call msg,SVG,$@)
	$(Q)rm -f $@
	$(Q)$(BIN) report -i $< --svg $@ >/dev/null; test -s $@
	$(Q)chmod 644 $@
docs/pictures/%.png: docs/pictures/%.svg scripts/render-svg.sh | $(O)/.deps
	$(call msg,PNG,$@)
	$(Q)scripts/render-svg.sh $< $@ >/dev/null

# --- dependencies -----------------------------------------------------
$(O)/.deps: scripts/deps.sh
	$(Q)mkdir -p $(O)
	$(Q)scripts/deps.sh
	$(Q)touch $@
deps: $(O)/.deps

kernel: $(O)/.deps
	@echo $(GUEST_DIR)
kdir: $(O)/.deps
	@echo $(abspath $(GUEST_KDIR))

# --- BPF --------------------------------------------------------------
# -mcpu=v3: compare-and-exchange claims a task's slot (Linux 5.12+).
$(O)/bpf/%.bpf.o: bpf/%.bpf.c bpf/*.h vmlinux/vmlinux.h | $(O)/.deps
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) \
		-Wall -Werror -Ivmlinux -Ibpf -c $< -o $@

$(O)/bpf/%.skel.h: $(O)/bpf/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< >$@

# --- user space -------------------------------------------------------
$(O)/user/%.o: user/%.c $(BPF_SKELS) $(wildcard user/*/*.h user/*.h bpf/*.h)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

$(BIN): $(LOGIC_OBJS) $(KERNEL_OBJS)
	$(call msg,LD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $^ $(USER_LIBS) -o $@

# --- module -----------------------------------------------------------
# Built in a copy of module/ so that one source tree serves several kernels.
# `O=` on our command line reaches kbuild through MAKEFLAGS and would
# become its output directory: hand it an empty one.
define module_rule
$(1)/test_sysfs.ko: $(MODULE_SRCS) $(3) | $(O)/.deps
	$$(call msg,MODULE,$$@ [$$(notdir $$(realpath $(2)))])
	$(Q)mkdir -p $(1)
	$(Q)cp $(MODULE_SRCS) $(1)/
	$(Q)$$(MAKE) -s -C $(2) M=$$(abspath $(1)) O= modules
endef
$(eval $(call module_rule,$(O)/module,$$(KDIR),$(O)/module/.kdir))
# Which KDIR $(O)/module was built against: another one rebuilds it.
$(O)/module/.kdir: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo '$(abspath $(KDIR))' | cmp -s - $@ 2>/dev/null || \
		echo '$(abspath $(KDIR))' >$@
FORCE:
$(eval $(call module_rule,$(VM_GUEST)/module,$$(VM_KDIR),$(VM_KDIR_STAMP)))
module: $(O)/module/test_sysfs.ko

# --- guest ------------------------------------------------------------
VM_BASE := $(VM_GUEST)/base.cpio
VM_KO   := $(VM_GUEST)/module/test_sysfs.ko
$(VM_BASE): $(BIN) $(VM_KO) scripts/mkinitramfs.sh \
	    scripts/guest/init | $(O)/.deps
	$(call msg,CPIO,$@)
	$(Q)scripts/mkinitramfs.sh $@ \
		"$$(modinfo -F vermagic $(VM_KO) | cut -d" " -f1)" \
		"$(VM_MODROOT)" $(O)/bin $(VM_KO)
vm-base: $(VM_BASE)
# For scripts (tests/run.sh): which initramfs goes with KERNEL= KDIR=.
vm-base-path:
	@echo $(VM_BASE)

# CMD is shell, not make: $(value CMD) hands it over unexpanded, so
# `make vm CMD='false; echo $$?'` prints the shell's 1, not make's $$?.
vm: $(VM_BASE)
	$(Q)scripts/vm.sh -k $(KERNEL) -i $(VM_BASE) -t $(VM_TIMEOUT) \
		$(if $(VM_FILES),-f $(VM_FILES)) $(if $(VM_OUT),-o $(VM_OUT)) \
		-- '$(subst ','\'',$(value CMD))'

# --- the kernfs knob kernel (kernfs/) ----------------------------------
# Debian's linux-source-6.1 with the knob patches, cached; boot it with
#   make vm KERNEL=$(KERNFS_O)/arch/x86/boot/bzImage KDIR=$(KERNFS_O)
KERNFS_O := $(CACHE)/kernfs/O
kernfs-kernel: $(O)/.deps
	$(Q)kernfs/build.sh $(CACHE)
.PHONY: kernfs-kernel

# --- vmlinux.h --------------------------------------------------------
define vmlinux_h
{ echo '/* SPDX-License-Identifier: GPL-2.0 */'; \
  echo "/* Generated from $(notdir $(1)) by \`make vmlinux-h\`. */"; \
  $(BPFTOOL) btf dump file $(1) format c; } >vmlinux/vmlinux.h
endef
# From a BTF file (BTF=/sys/kernel/btf/vmlinux), else from the guest's.
vmlinux-h: $(VM_BASE)
ifneq ($(BTF),)
	$(Q)$(call vmlinux_h,$(BTF))
else
	$(Q)scripts/vm.sh -k $(KERNEL) -i $(VM_BASE) -t 120 -o $(O)/btf \
		-- 'cp /sys/kernel/btf/vmlinux /mnt/out/vmlinux.btf'
	$(Q)$(call vmlinux_h,$(O)/btf/vmlinux.btf)
endif
	@echo "vmlinux/vmlinux.h: $$(wc -l <vmlinux/vmlinux.h) lines"

# --- tests ------------------------------------------------------------
$(O)/tests/%: tests/unit/%.c $(LOGIC_OBJS) $(wildcard tests/unit/*.h)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -Itests/unit $< $(LOGIC_OBJS) -lcmocka -o $@

$(O)/asan/user/%.o: user/%.c $(BPF_SKELS) $(wildcard user/*/*.h bpf/*.h)
	$(call msg,CC-ASAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) $(ASAN_FLAGS) -c $< -o $@

$(O)/asan/%: tests/unit/%.c $(ASAN_LOGIC) $(wildcard tests/unit/*.h)
	$(call msg,CC-ASAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) $(ASAN_FLAGS) -Itests/unit $< $(ASAN_LOGIC) \
		-lcmocka -o $@

$(O)/casan/user/%.o: user/%.c $(BPF_SKELS) $(wildcard user/*/*.h bpf/*.h)
	$(call msg,CLANG-ASAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(USER_CFLAGS) $(ASAN_FLAGS) -c $< -o $@

$(O)/casan/%: tests/unit/%.c $(CASAN_LOGIC) $(wildcard tests/unit/*.h)
	$(call msg,CLANG-ASAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(USER_CFLAGS) $(ASAN_FLAGS) -Itests/unit $< \
		$(CASAN_LOGIC) -lcmocka -o $@

unit: $(UNIT_BINS)
asan: $(ASAN_BINS) $(CASAN_BINS)

# libFuzzer harnesses over the pure logic, ASan and UBSan halting at the
# first report (tests/run.sh's fuzz group runs each for FUZZ_SECS).
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined \
	      -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZERS    := $(patsubst tests/fuzz/%.c,$(O)/fuzz/%, \
		$(wildcard tests/fuzz/fuzz_*.c))
$(O)/fuzz/%: tests/fuzz/%.c $(USER_LOGIC) $(BPF_SKELS) \
	     $(wildcard user/*/*.h bpf/*.h)
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -std=c11 -D_GNU_SOURCE $(WARN) $(FUZZ_FLAGS) \
		-Iuser -Ibpf -I$(O)/bpf $< $(USER_LOGIC) -o $@
fuzz: $(FUZZERS)

# Every test, host and guest; the runner prints `N passed, N failed`.
check: $(BIN) $(UNIT_BINS) $(ASAN_BINS) $(CASAN_BINS) $(FUZZERS) $(VM_BASE)
	$(Q)O=$(O) KERNEL=$(KERNEL) VM_BASE=$(VM_BASE) SEEDS=$(SEEDS) \
		VM_TIMEOUT=$(VM_TIMEOUT) tests/run.sh $(CHECKS)

# The guest's initramfs is built by scripts/run.sh only when the run
# cannot be native: a machine that can run natively never fetches it.
run: $(BIN) $(O)/module/test_sysfs.ko
	$(Q)O=$(O) TEST=$(TEST) FIXED=$(FIXED) VM_TIMEOUT=$(VM_TIMEOUT) \
		RUN_IN=$(RUN_IN) ARGS='$(subst ','\'',$(value ARGS))' \
		MODULE=$(O)/module/test_sysfs.ko scripts/run.sh

# Bench tools ride along in $(O)/bin, so they are on the guest's PATH.
$(O)/bin/so-bench-writer: tests/bench/sysfs_writer.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -static -pthread $< -o $@
$(VM_BASE): $(O)/bin/so-bench-writer
$(O)/bin/so-bench-pipe: tests/bench/pipe_pingpong.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -static $< -o $@
$(VM_BASE): $(O)/bin/so-bench-pipe
# The trampoline floor: empty programs where one write passes.
$(O)/bench/floor.bpf.o: tests/bench/floor.bpf.c vmlinux/vmlinux.h | $(O)/.deps
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) \
		-Wall -Werror -Ivmlinux -c $< -o $@
$(O)/bench/floor.skel.h: $(O)/bench/floor.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< >$@
$(O)/bin/so-bench-floor: tests/bench/floor.c $(O)/bench/floor.skel.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -I$(O)/bench $< \
		$(USER_LIBS) -o $@
$(VM_BASE): $(O)/bin/so-bench-floor

# TSC, not the emulated HPET tests use: every bpf_ktime_get_ns() would
# otherwise be an emulated MMIO read, a cost real hardware does not have
# (issue 12).  guest-bench.sh prints the clocksource it ran on.
bench: $(VM_BASE)
	$(Q)scripts/vm.sh -k $(KERNEL) -i $(VM_BASE) -t 1500 -f tests/bench \
		-c 'tsc=reliable clocksource=tsc' \
		-- 'BENCH_SECS=$(or $(BENCH_SECS),3) \
		    BENCH_ROUNDS=$(or $(BENCH_ROUNDS),3) \
		    BENCH_MODES="$(BENCH_MODES)" \
		    bash /mnt/files/guest-bench.sh'
	$(Q)$(O)/bench/analysis_bench

# Per-program cost (kernel.bpf_stats_enabled) under the same write loop.
bench-prof: $(VM_BASE)
	$(Q)scripts/vm.sh -k $(KERNEL) -i $(VM_BASE) -t 600 -f tests/bench \
		-c 'tsc=reliable clocksource=tsc' \
		-- 'BENCH_SECS=$(or $(BENCH_SECS),3) \
		    bash /mnt/files/guest-prof.sh'

# The analysis on synthetic graphs of 10,000 edges, on the host.
# What the bench times and what that stands on in lib/; the rest of
# the analysis would pull in trace/ and report/ for nothing.
BENCH_ANALYSIS := $(wildcard user/analysis/order_graph*.c \
			    user/analysis/waitfor*.c) user/analysis/gates.c \
		  user/lib/addr.c user/lib/index.c
$(O)/bench/analysis_bench: tests/bench/analysis_bench.c $(BENCH_ANALYSIS) \
			   $(wildcard user/analysis/*.h user/lib/*.h)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) $< $(BENCH_ANALYSIS) -o $@
bench: $(O)/bench/analysis_bench

# --- install ----------------------------------------------------------
# `make && sudo make install`, then `sudo sysfs-observe --test 0028`: the
# binary on PATH, the man page, and test_sysfs.ko where modprobe finds it
# (kbuild's modules_install into extra/, for the kernel KDIR names: the
# running one when its headers are installed).  The module is not signed:
# Debian's signing key is not ours (it loads and taints the kernel E).
# depmod runs here, not in kbuild (Debian's headers have no System.map),
# and not at all under DESTDIR: a package's postinst does that.
PREFIX   ?= /usr/local
DESTDIR  ?=
SBINDIR  := $(PREFIX)/sbin
MAN8DIR  := $(PREFIX)/share/man/man8
MOD_KO   := $(O)/module/test_sysfs.ko
MOD_REL   = $(shell modinfo -F vermagic $(MOD_KO) | cut -d' ' -f1)
INSTALLED = $(DESTDIR)$(SBINDIR)/sysfs-observe \
	    $(DESTDIR)$(MAN8DIR)/sysfs-observe.8 \
	    $(DESTDIR)/lib/modules/$(MOD_REL)/extra/test_sysfs.ko
install: $(BIN) $(MOD_KO)
	$(call msg,INSTALL,$(DESTDIR)$(SBINDIR)/sysfs-observe)
	$(Q)install -D -m 0755 $(BIN) $(DESTDIR)$(SBINDIR)/sysfs-observe
	$(call msg,INSTALL,$(DESTDIR)$(MAN8DIR)/sysfs-observe.8)
	$(Q)install -D -m 0644 man/sysfs-observe.8 \
		$(DESTDIR)$(MAN8DIR)/sysfs-observe.8
	$(call msg,INSTALL,$(lastword $(INSTALLED)))
	$(Q)$(MAKE) -s -C $(KDIR) M=$(abspath $(O)/module) O= \
		INSTALL_MOD_PATH=$(abspath $(DESTDIR)) INSTALL_MOD_DIR=extra \
		CONFIG_MODULE_SIG_ALL= modules_install
	$(if $(DESTDIR),,$(call msg,DEPMOD,$(MOD_REL)))
	$(Q)$(if $(DESTDIR),:,depmod -a $(MOD_REL))
uninstall:
	$(call msg,RM,$(INSTALLED))
	$(Q)rm -f $(INSTALLED)
	$(Q)$(if $(DESTDIR),:,depmod -a $(MOD_REL))
# Or through DKMS, which rebuilds the module for every kernel Debian
# installs: the sources and module/dkms.conf into /usr/src, then `dkms
# install` (not under DESTDIR: a package does that in its postinst).
DKMS_VER := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' module/dkms.conf)
DKMS_SRC := $(DESTDIR)/usr/src/test_sysfs-$(DKMS_VER)
dkms-install:
	$(call msg,INSTALL,$(DKMS_SRC))
	$(Q)install -d $(DKMS_SRC)
	$(Q)install -m 0644 $(MODULE_SRCS) module/dkms.conf $(DKMS_SRC)/
	$(Q)$(if $(DESTDIR),:,dkms install test_sysfs/$(DKMS_VER))
dkms-uninstall:
	$(Q)$(if $(DESTDIR),:,dkms remove test_sysfs/$(DKMS_VER) --all)
	$(Q)rm -rf $(DKMS_SRC)

# The kselftest collection (tests/kselftest/), installed as the kernel's
# selftests install lays out its own, so that KernelCI or LAVA run it with
# the kernel's run_kselftest.sh.  The module is built for KDIR's kernel:
# the machine that runs the collection must boot that kernel.
KSFT_INSTALL_PATH ?= $(O)/kselftest_install
kselftest-install: $(BIN) $(MOD_KO)
	$(call msg,INSTALL,$(KSFT_INSTALL_PATH)/sysfs_observe)
	$(Q)scripts/kselftest-install.sh $(KSFT_INSTALL_PATH) $(BIN) $(MOD_KO)
.PHONY: install uninstall dkms-install dkms-uninstall kselftest-install

clean:
	$(Q)rm -rf $(O)
distclean: clean
	@echo "the download cache stays in $(CACHE); remove it by hand"
