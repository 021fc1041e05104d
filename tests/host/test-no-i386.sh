#!/bin/bash
# make check runs every host step under tests/host/no-i386, so that the
# host tests see a host that refuses i386 programs on every machine.  This
# proves the wrapper does that, whatever this host's kernel does with
# them, and that qemu-i386 (how a host test runs an i386 program) still
# works below it.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
wrap=$BUILD/host/no-i386
i386_true=$BUILD/guest-bin/i386/true
x86_64_true=$BUILD/guest-bin/x86_64/true
. "$top/tests/lib/tap.sh"
TAP_PREFIX="no-i386: "
tap_plan 5

# How this host treats i386 programs on its own, for the record.
"$i386_true" 2>/dev/null
native=$?
case $native in
0) echo "# this host's kernel runs i386 programs" ;;
126) echo "# this host's kernel refuses i386 programs (ENOEXEC)" ;;
*) echo "# this host's kernel: an i386 program exits $native" ;;
esac

# Under the wrapper it cannot run: the host's ENOEXEC (exit 126) or the
# filter's SIGSYS at its first system call (exit 128 + 31).
"$wrap" sh -c '"$1"; echo $?' _ "$i386_true" > "$BUILD/host/no-i386.out" 2>/dev/null
status=$(tail -n 1 "$BUILD/host/no-i386.out")
[ "$status" = 126 ] || [ "$status" = 159 ]
tap_check $? "an i386 program does not run below the wrapper (exit $status: 126 ENOEXEC or 159 SIGSYS)"

# A 64-bit program asking for a 32-bit system call (int 0x80) does not
# get it: SIGSYS from the filter, or SIGSEGV where the host's kernel
# has 32-bit entry points disabled.
printf '.globl _start\n_start: movl $1, %%eax\n movl $0, %%ebx\n int $0x80\n' > "$BUILD/host/int80.s" &&
	as --64 -o "$BUILD/host/int80.o" "$BUILD/host/int80.s" && ld -o "$BUILD/host/int80" "$BUILD/host/int80.o"
"$wrap" sh -c '"$1"; echo $?' _ "$BUILD/host/int80" > "$BUILD/host/no-i386.out" 2>/dev/null
status=$(tail -n 1 "$BUILD/host/no-i386.out")
[ "$status" = 159 ] || [ "$status" = 139 ]
tap_check $? "int 0x80 from a 64-bit program exits 159 (SIGSYS) or 139 (SIGSEGV), not 0 (got $status)"

"$wrap" "$x86_64_true"
tap_check $? "an x86_64 program runs below the wrapper"
"$wrap" qemu-i386 "$i386_true"
tap_check $? "qemu-i386 runs an i386 program below the wrapper"
"$wrap" qemu-i386 "$BUILD/guest-bin/i386/probe" > "$BUILD/host/no-i386.out"
grep -q ' secure=0 ' "$BUILD/host/no-i386.out"
tap_check $? "qemu-i386 runs the i386 probe below the wrapper; it prints secure=0"
