#!/bin/bash
# boot.sh IMAGE INITRAMFS LOG [KERNEL PARAMETERS...]
#
# Boots the guest once under QEMU's software emulation (no KVM) with the
# console on the serial port, written to LOG.  The guest's init reboots when
# it is done and -no-reboot turns that into QEMU exiting.  A guest that hangs
# is killed after $GUEST_TIMEOUT seconds; the log is kept either way, and the
# exit status is 124 after a timeout.
#
# With GUEST_INTERACTIVE=1 the serial console is this terminal instead
# (make shell).
set -uo pipefail

kernel=${1:?usage: boot.sh IMAGE INITRAMFS LOG [PARAMS...]}
initrd=${2:?}
log=${3:?}
shift 3
GUEST_TIMEOUT=${GUEST_TIMEOUT:-600}
# The guest's architecture (ARCH, as for kernel/build.sh) picks the
# emulator, its machine, CPU and the console: the row of the ABI named as the
# ARCH (abis.txt).
read -r qemu machine cpu console < <("$(dirname "$0")/abis.sh" qemu,machine,cpu,console abi="${ARCH:-i386}")
[ -n "${console:-}" ] || { echo "boot.sh: no ABI row for ARCH=${ARCH:-i386} in abis.txt" >&2; exit 2; }
QEMU=${QEMU:-$qemu}

# GUEST_MEM: the guest's memory (QEMU -m), 512M unless a boot needs more.
# GUEST_CPUS: its CPUs, 2: a racer beside an exec runs on the other one
# (tests/scenarios/95-exec-race.scn); the benchmarks, which count or time
# one exec at a time under -icount, take 1.
# QEMU_EXTRA: more QEMU options, e.g. "-icount shift=0" (bench.sh).
# shellcheck disable=SC2206
args=(-M "$machine" -cpu "$cpu" -m "${GUEST_MEM:-512M}" -smp "${GUEST_CPUS:-2}" -no-reboot -nodefaults
      ${QEMU_EXTRA:-}
      -kernel "$kernel" -initrd "$initrd"
      -append "console=$console panic=-1 oops=panic $*")

if [ "${GUEST_INTERACTIVE:-0}" = 1 ]; then
	exec "$QEMU" "${args[@]}" -nographic -serial mon:stdio
fi

mkdir -p "$(dirname "$log")"
timeout --kill-after=10 "$GUEST_TIMEOUT" \
	"$QEMU" "${args[@]}" -display none -monitor none -serial "file:$log" </dev/null
