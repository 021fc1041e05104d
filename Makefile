# Stack Clash hardening for exec, tested in an i386 guest.  See README.md.
#
#   make deps     install the host packages everything below needs
#                 (deps/packages.txt; other architectures' come as data)
#   make check    host tests, then stock and patched guest kernels of each
#                 CHECK_COMBOS entry through every guest scenario;
#                 ends with "N passed, N failed"
#   make check-all  the same for linux-source-6.1 and 6.12, i386, x86_64, arm, arm64
#   make check-old-kernel  programs stamped after linking on Linux 5.10
#                 (bullseye's linux-source-5.10, i386, stock), after make check
#   make check-host the host tests alone (no guest kernel)
#   make fresh-check  make deps and check-host in a fresh bookworm (mmdebstrap)
#   make check-upstream-tools  Debian's elfutils and binutils built with the
#                 patches of elf-note-tool/upstream, and checked (as root)
#   make demo     boot stock and patched guests, print the scenario tables
#   make bench    time execs on both kernels (not a test): docs/benchmarks.md
#   make bench-count  count what reading the note adds to an exec (not a test)
#   make bench-scan  time elfnote scan --all /usr against readelf (not a test)
#   make shell    boot the patched guest with an interactive busybox shell
#   make elfnote  build the note tool; make install PREFIX=... DESTDIR=...
#   make clean    remove build products but keep the kernel trees and builds
#   make distclean  remove build/ (the caches clones share stay: $(CACHE))

SHELL := /bin/bash
BUILD ?= $(CURDIR)/build
PREFIX ?= /usr/local
DESTDIR ?=
SERIES ?= 6.1
ARCH ?= i386
export BUILD SERIES ARCH

# --- Debian packages --------------------------------------------------------
# The host's own packages (deps/packages.txt) are installed by
# deps/install.sh; packages of other architectures that the build reads as
# data (deps/data-packages.txt: musl, busybox and Debian's kernel config for
# i386) are fetched into $(BUILD)/sysroot/ARCH by deps/fetch.sh, with the
# project's own apt configuration.  The host's dpkg architectures never
# change.  A suite whose index cannot be fetched is a warning, a package
# that cannot be had is an error naming it (deps/apt.sh).

# Caches shared by every clone on this machine, keyed by content (safe to
# delete; make distclean names them): Debian's .debs, the kernel trees by
# the tarball's checksum and the series' bytes, ccache's objects, the
# built kernels by everything their build reads (kernel/kernel-cache.sh).
CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/stackclamp
export CACHE

deps:
	deps/install.sh

DATA_ARCHES := $(shell awk '!/^\#/ && NF { print $$1 }' deps/data-packages.txt)
sysroot: deps
	for arch in $(DATA_ARCHES); do deps/fetch.sh $$arch || exit; done

# --- kernels ----------------------------------------------------------------
KOUT = $(BUILD)/out/linux-$(SERIES)-$(ARCH)

VARIANTS ?= stock patched
kernels: deps
	for variant in $(VARIANTS); do kernel/build.sh $$variant $(ARCH) || exit; done

tree: deps
	kernel/tree.sh patched

# --- guest userland -----------------------------------------------------------
# The guest programs are built for each ABI that has programs of its own
# (i386-guest/abis.txt: i386 and x86_64), into $(GUEST_BIN)/ABI: an x86_64
# guest runs both (i386 ones through compat), and the host tests read both.
ABIS := i386-guest/abis.sh
PROGRAM_ABIS := $(shell $(ABIS) programs)
# The compiler of ABI $(1)'s programs: its gcc with musl's specs (the
# host's musl, or the one deps/fetch.sh unpacked: deps/sysroot.sh).
guest_cc = $(shell $(ABIS) cc abi=$(1)) -specs=$(shell deps/sysroot.sh --specs $(1))
GUEST_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -static -s
UAPI = $(BUILD)/uapi-$(ARCH)
GUEST_BIN := $(BUILD)/guest-bin
INIT = $(GUEST_BIN)/$(ARCH)/init
# One per tree and ARCH: the samples and the kernel's own selftests in it
# are built from that tree (make check-all boots 6.1 and 6.12 of one ARCH
# one after the other, from archives made before either boots).
INITRAMFS = $(BUILD)/guest-$(SERIES)-$(ARCH).cpio

# Kernel UAPI headers from the patched tree: the guest programs see exactly
# the definitions of the kernel under test.  Reinstalled when the series
# changed; the stamp holds the series id kernel/tree.sh computed.
SERIES_ID = $(BUILD)/src/linux-$(SERIES)-patched/.git/series-id

# One set per kernel ARCH whose programs are built (a programs folder of
# abis.txt is named as the kernel that runs those programs natively).
UAPI_ARCHES := $(sort $(ARCH) $(PROGRAM_ABIS))
uapi: tree
	@for arch in $(UAPI_ARCHES); do \
		dir=$(BUILD)/uapi-$$arch; \
		cmp -s $(SERIES_ID) $$dir/.stamp && continue; \
		echo "  UAPI    $$dir"; rm -rf $$dir; \
		$(MAKE) -s -C $(BUILD)/src/linux-$(SERIES)-patched ARCH=$$arch \
			O=$(BUILD)/uapi-obj-$$arch INSTALL_HDR_PATH=$$dir headers_install && \
		cp $(SERIES_ID) $$dir/.stamp || exit; \
	done

# The runner and its library (i386-guest/lib, which the programs in
# samples/ use too).
GUEST_LIB := i386-guest/lib
GUEST_SRC := i386-guest/init.c i386-guest/scenario.c i386-guest/scenario.h \
	i386-guest/exec-observe.c i386-guest/exec-observe.h \
	$(addprefix $(GUEST_LIB)/,size-expr.c size-expr.h pad.c pad.h proc-status.c proc-status.h)

$(GUEST_BIN)/%/init: $(GUEST_SRC) $(BUILD)/uapi-%/.stamp
	@mkdir -p $(@D)
	$(call guest_cc,$*) $(GUEST_CFLAGS) -isystem $(BUILD)/uapi-$*/include -o $@ \
		i386-guest/init.c i386-guest/exec-observe.c i386-guest/scenario.c \
		$(GUEST_LIB)/size-expr.c $(GUEST_LIB)/pad.c $(GUEST_LIB)/proc-status.c

$(BUILD)/host/gen_init_cpio: $(BUILD)/src/linux-$(SERIES)-pristine/.tarball-id
	@mkdir -p $(@D)
	cc -O2 -o $@ $(BUILD)/src/linux-$(SERIES)-pristine/usr/gen_init_cpio.c

# Sub-makes, so that files the previous step rewrote are seen with their
# new times.
samples: deps sysroot uapi
	$(MAKE) -s -C elf-note-tool OUT=$(BUILD)/elfnote all
	for abi in $(PROGRAM_ABIS); do \
		$(MAKE) -s -C samples ABI=$$abi OUT=$(GUEST_BIN)/$$abi ELFNOTE=$(BUILD)/elfnote/elfnote \
			UAPI=$(BUILD)/uapi-$$abi/include && \
		tests/malformed/make-corpus.sh $(BUILD)/generated $$abi && \
		i386-guest/kselftests.sh $(BUILD)/src/linux-$(SERIES)-patched $$abi $(BUILD)/uapi-$$abi \
			$(BUILD)/generated || exit; \
	done
	$(MAKE) -s $(INIT) $(BUILD)/host/gen_init_cpio $(BUILD)/host/scenario-lint $(DEB_SAMPLE_LIST) \
		$(SELINUX_POLICY)

# The SELinux policy the guest's "selinux" boot loads (i386-guest/init.c,
# tests/scenarios/90-lsm-limits.scn), compiled by Debian's secilc.  Policy
# version 31 is one every guest kernel reads.
SELINUX_POLICY := $(BUILD)/generated/selinux.policy
$(SELINUX_POLICY): i386-guest/selinux/policy.cil
	@mkdir -p $(@D)
	secilc -c 31 -f /dev/null -o $@.tmp $<
	mv $@.tmp $@

# The setuid helper of a real Debian package, for the x86_64 guest: the
# elfnote package built from this tree, then elf-note-tool/tests/dh-sample
# built with it (docs/packaging.md); mkinitramfs.sh adds the list.
DEB_SAMPLE := $(BUILD)/deb-sample
DEB_SAMPLE_LIST := $(BUILD)/generated/x86_64/deb.list
DEB_SAMPLE_SRC := $(shell find debian elf-note-tool/src elf-note-tool/include elf-note-tool/man \
	elf-note-tool/debhelper elf-note-tool/tests/dh-sample -type f) elf-note-tool/Makefile \
	elf-note-tool/tests/build-dh-sample.sh
$(DEB_SAMPLE_LIST): $(DEB_SAMPLE_SRC)
	@echo "  DEB     elfnote and the dh_elfnote sample package in $(DEB_SAMPLE)"
	rm -rf $(DEB_SAMPLE)
	elf-note-tool/tests/build-dh-sample.sh $(DEB_SAMPLE) || \
		{ tail -20 $(DEB_SAMPLE)/pkg/build.log $(DEB_SAMPLE)/a/build.log 2>/dev/null; exit 1; }
	@mkdir -p $(@D)
	echo "file /bin/deb-helper-suid $(DEB_SAMPLE)/deb-root/usr/lib/sample/helper 4755 0 0" > $@

# The Debian boot's archive (guest.debian, tests/scenarios/70-debian.scn):
# the guest's own, then the Debian root of the kernel's 32-bit programs
# (abis.txt's debroot: i386 or armhf) under /debian, compressed.  The
# kernel unpacks concatenated archives one after the other.  Compressed,
# because the guest holds the archive in memory until it is unpacked,
# and the root file system (tmpfs) may take only half of what is left
# then: uncompressed, the KASAN guest ran out of room.
DEBIAN_INITRAMFS = $(BUILD)/guest-$(SERIES)-$(ARCH)-debian.cpio

initramfs: samples debian-root
	i386-guest/mkinitramfs.sh $(INITRAMFS) $(ARCH)
	cat $(INITRAMFS) $(DEBIAN_ROOT_CPIO).zst > $(DEBIAN_INITRAMFS).tmp
	mv $(DEBIAN_INITRAMFS).tmp $(DEBIAN_INITRAMFS)

guest: kernels initramfs

# --- host side ----------------------------------------------------------------
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
	-fno-omit-frame-pointer -fno-sanitize-recover=all

$(BUILD)/host/scenario-lint: i386-guest/scenario-lint.c $(GUEST_SRC)
	@mkdir -p $(@D)
	cc $(HOST_CFLAGS) -o $@ i386-guest/scenario-lint.c i386-guest/scenario.c $(GUEST_LIB)/size-expr.c

$(BUILD)/host/test-scenario: tests/host/test-scenario.c $(GUEST_SRC)
	@mkdir -p $(@D)
	cc $(HOST_CFLAGS) -o $@ tests/host/test-scenario.c i386-guest/scenario.c $(GUEST_LIB)/size-expr.c

# The note's two definitions (kernel UAPI, elf-note-tool's header) must
# agree: built for i386 and x86_64 against the patched tree's headers, run here.
$(BUILD)/host/test-note-abi-%: tests/host/test-note-abi.c tests/lib/tap.h elf-note-tool/include/exec-policy-note.h $(BUILD)/uapi-%/.stamp
	@mkdir -p $(@D)
	$(call guest_cc,$*) $(GUEST_CFLAGS) -isystem $(BUILD)/uapi-$*/include -Ielf-note-tool/include -Itests/lib -o $@ $<

$(BUILD)/host/no-i386: tests/host/no-i386.c
	@mkdir -p $(@D)
	cc -std=gnu11 -O2 -Wall -Wextra -Werror -D_FORTIFY_SOURCE=2 -fstack-protector-strong -o $@ $<

host-tools: $(BUILD)/host/scenario-lint

# elfnote's tests are elf-note-tool's (elf-note-tool/tests/): its
# check-build builds what they need, tests/check.sh runs them.
host-tests: uapi samples
	$(MAKE) -s $(BUILD)/host/scenario-lint $(BUILD)/host/test-scenario \
		$(addprefix $(BUILD)/host/test-note-abi-,$(PROGRAM_ABIS))
	$(MAKE) -s -C elf-note-tool OUT=$(BUILD)/elfnote all check-build

# --- elfnote --------------------------------------------------------------------
elfnote: deps
	$(MAKE) -C elf-note-tool OUT=$(BUILD)/elfnote

# Not part of check: make fuzz FUZZ_SECONDS=N fuzzes the note walk,
# whole-file inspection and the editor for N seconds each.
fuzz: deps
	$(MAKE) -C elf-note-tool OUT=$(BUILD)/elfnote fuzz FUZZ_SECONDS=$(or $(FUZZ_SECONDS),60)

install: elfnote
	$(MAKE) -C elf-note-tool OUT=$(BUILD)/elfnote install PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)"

# --- Debian's 32-bit root for the guests ------------------------------------------
# make debian-root: Debian bookworm's packages (i386-guest/debian/packages.txt
# and what they depend on) of the architecture ARCH's debian boot runs
# (abis.txt's debroot: i386 for i386 and x86_64, armhf for arm and arm64)
# unpacked, configured and packed under /debian into $(DEBIAN_ROOT_CPIO)
# (docs/debian-root.md).  fetch.sh runs every time
# but uses the network only when packages.txt or the host's sources changed;
# mkroot.sh remakes the archive only when an input changed.  javac comes
# from openjdk-17-jdk-headless.
DEBIAN_ARCH := $(shell $(ABIS) debroot abi=$(ARCH))
DEBIAN_ROOT_CPIO := $(BUILD)/guest-debian-$(DEBIAN_ARCH).cpio
DEBIAN_ROOT_SRC := $(shell find i386-guest/debian tests/debian -type f)

debian-root: deps $(if $(wildcard $(BUILD)/src/linux-$(SERIES)-pristine/.tarball-id),,tree)
	i386-guest/debian/fetch.sh $(DEBIAN_ARCH)
	$(MAKE) -s -C elf-note-tool OUT=$(BUILD)/elfnote all
	$(MAKE) -s $(BUILD)/host/gen_init_cpio $(DEBIAN_ROOT_CPIO).zst

$(DEBIAN_ROOT_CPIO): $(DEBIAN_ROOT_SRC) $(BUILD)/debian/$(DEBIAN_ARCH)/debs.txt \
		$(BUILD)/elfnote/elfnote $(BUILD)/host/gen_init_cpio i386-guest/abis.txt
	i386-guest/debian/mkroot.sh $(DEBIAN_ARCH)
	@touch $@

# zstd, which every guest kernel unpacks (RD_ZSTD, kernel/config/guest.config).
$(DEBIAN_ROOT_CPIO).zst: $(DEBIAN_ROOT_CPIO)
	zstd -q -f -10 -T2 -o $@.tmp $<
	mv $@.tmp $@

.PHONY: debian-root

# --- the commands ---------------------------------------------------------------
# The kernels (Debian tree / guest architecture) make check boots; each
# gets its stock and its patched build and runs every scenario, or only
# the variant a third part names (6.1/x86_64/patched).
#
# On 2 cores a kernel build takes 6 to 8 minutes cold, and a new machine
# (CI) starts cold: make check builds three (i386 stock and patched, and
# x86_64 patched, which runs every scenario as x86_64 and as ia32
# programs), and check-all adds the stock x86_64 kernel, the arm64 pair
# (arm64 and armhf programs through compat, aarch32), the 32-bit arm
# kernels, the KASAN+UBSAN kernel and 6.12.  Since every guest has two
# CPUs and races its execs (tests/scenarios/95-exec-race.scn), a fourth
# kernel took a cold make check past 30 minutes: the ARM kernels run in
# check-all (docs/measurements.md has the figures).
CHECK_COMBOS ?= 6.1/i386 6.1/x86_64/patched
# Trees whose patched x86_64 kernel is also booted built with KASAN and
# UBSAN (kernel/config/debug.config), through the same scenarios.
CHECK_DEBUG ?=

# Everything check builds and runs, it runs under tests/host/no-i386: no
# i386 program can run on the host then, whatever the host's kernel does,
# so no test can come to depend on a host that runs them (they run under
# qemu-i386 or in a guest).
check: deps $(BUILD)/host/no-i386
	$(BUILD)/host/no-i386 $(MAKE) check-run

# The kernels build in the background while everything that needs no
# guest kernel runs: the host side's build (guest programs, elfnote and
# its tests, the Debian packages), the guests' initramfs and the host
# part of the tests (host tests, checkpatch, the W=1 check).  That side
# is mostly one process at a time and a kernel build leaves part of the
# second core idle, so on 2 cores the two together take less than one
# after the other.  The kernels' log is printed when both are done, then
# the guests boot.
KERNEL_LIST = CHECK_COMBOS="$(CHECK_COMBOS)" CHECK_DEBUG="$(CHECK_DEBUG)" kernel/build-kernels.sh
check-run:
	@mkdir -p $(BUILD)
	@setsid env $(KERNEL_LIST) > $(BUILD)/kernels.log 2>&1 & kernels=$$!; \
	$(MAKE) check-no-kernel || { kill -- -$$kernels 2>/dev/null; wait; exit 1; }; \
	wait $$kernels || { cat $(BUILD)/kernels.log; echo "make: the kernel builds failed (log: $(BUILD)/kernels.log)" >&2; exit 1; }; \
	cat $(BUILD)/kernels.log
	CHECK_COMBOS="$(CHECK_COMBOS)" CHECK_DEBUG="$(CHECK_DEBUG)" tests/check.sh guests
	tests/check.sh --summary host guests

check-no-kernel: host-tests
	for kernel in $$($(KERNEL_LIST) --list | cut -d/ -f1,2 | sort -u); do \
		$(MAKE) -s initramfs SERIES=$${kernel%/*} ARCH=$${kernel#*/} || exit; \
	done
	CHECK_COMBOS="$(CHECK_COMBOS)" tests/check.sh host

# The host tests alone, no guest kernel: what make fresh-check runs in a
# fresh system.
check-host: deps $(BUILD)/host/no-i386
	$(BUILD)/host/no-i386 $(MAKE) check-host-run

check-host-run: host-tests
	CHECK_COMBOS= tests/check.sh host
	tests/check.sh --summary host

# Not part of check: make deps and make check-host in a fresh bookworm
# system that mmdebstrap builds (tests/fresh-check.sh; as root).
fresh-check: deps
	tests/fresh-check.sh

# Every tree on every architecture, and both debug kernels.
check-all:
	$(MAKE) check CHECK_COMBOS="6.1/i386 6.1/x86_64 6.1/arm 6.1/arm64 6.12/i386 6.12/x86_64 \
		6.12/arm 6.12/arm64 7.2/i386 7.2/x86_64/patched" CHECK_DEBUG="6.1 6.12"

# A kernel before 5.18, where AT_PHDR is the load address plus e_phoff:
# the programs stamped after linking must start there too.  Uses the
# guest initramfs of make check; prints TAP (kernel/old-kernel.sh).
check-old-kernel: deps
	kernel/old-kernel.sh

# Not part of check: Debian's own elfutils and binutils source packages
# (bookworm) built with the patches of elf-note-tool/upstream, their test
# suites run, and the tools they install checked on Debian's programs
# stamped by elfnote (as root, in a bookworm chroot made by mmdebstrap;
# about 16 minutes: docs/measurements.md).
check-upstream-tools: deps elfnote
	$(MAKE) debian-root ARCH=i386
	elf-note-tool/upstream/build-debian.sh

demo: deps guest
	i386-guest/demo.sh

# Not a test: times execs on both kernels, writes docs/benchmarks.md.
bench: deps initramfs
	kernel/build.sh stock $(ARCH) bench
	kernel/build.sh patched $(ARCH) bench
	i386-guest/bench.sh

# Not a test: counts the instructions reading the note adds to an exec,
# exactly, by single-stepping the stock and the patched kernel; writes
# docs/benchmarks.md.
bench-count: deps guest
	i386-guest/bench-count.sh

# Not a test: elfnote scan --all /usr against readelf -n, eu-readelf -n and
# a floor (ROUNDS=3), writes docs/benchmarks.md.
bench-scan: deps
	elf-note-tool/bench/scan-bench.sh

shell: deps guest
	GUEST_INTERACTIVE=1 i386-guest/boot.sh $(KOUT)-patched/$(shell $(ABIS) image abi=$(ARCH)) \
		$(INITRAMFS) /dev/null guest.shell loglevel=4

clean:
	rm -rf $(BUILD)/guest-bin $(BUILD)/host $(BUILD)/logs $(BUILD)/guest*.cpio* $(BUILD)/uapi-*

distclean:
	rm -rf $(BUILD)
	@echo "  CACHE   $(CACHE) is kept: the .debs, kernel trees, built kernels and ccache objects"
	@echo "          every clone shares (content-keyed, safe to delete: rm -rf $(CACHE))"

.PHONY: check-old-kernel check-upstream-tools check-host check-host-run check-no-kernel fresh-check elfnote fuzz install deps sysroot kernels tree uapi samples initramfs guest host-tools host-tests check check-run check-all demo bench bench-count bench-scan shell clean distclean
