#!/bin/bash
# make-elf-kinds.sh OUTDIR: the sample matrix of real ELF programs elfnote
# must handle (docs/toolchain.md, "The ELF kinds matrix"): i386 and x86_64
# programs from gcc and clang against glibc and musl, static, static-pie and
# dynamic, and tiny big-endian _start programs (MIPS, PowerPC, PowerPC64)
# from the assembler alone.  Each kind is built twice: NAME without the
# exec policy note and NAME.note with it (48 MiB), stamped at link time the
# way a packager would: the C header for C programs, the assembly snippet
# for the assembler ones.  The stamped clang programs are also stripped four
# ways (NAME.note.strip, .strip-all, .eu-strip, .objcopy).
#
# OUTDIR/kinds.tsv lists every file, one per line after a "#" header line,
# tab-separated:
#   name class(32|64) data(little|big) type(EXEC|DYN) link(static|dynamic)
#   compiler(gcc|clang|as) libc(glibc|musl|none) arch runs_i386(yes|no)
#   interp(PT_INTERP path, or -) note(expected suid stack in bytes, or none)
# runs_i386 is yes for an i386 program the i386 guest kernel could run:
# static ones, and dynamic ones whose interpreter is a file on this host
# that could go into an initramfs: /lib/ld-musl-i386.so.1 (musl for i386,
# fetched as data: lib/i386-linux-musl/libc.so of its sysroot, the whole
# of musl), and
# /lib/ld-linux.so.2, which is /usr/i686-linux-gnu/lib/ld-linux.so.2 (with
# libc.so.6 next to it).
#
# Idempotent: everything is rebuilt in a private directory and copied over
# the previous files; kinds.tsv is written last, and only when every kind
# was built.  A kind that cannot be built is named on stderr, with its
# command and output; the script then removes OUTDIR/kinds.tsv and exits 1.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
inc=$top/elf-note-tool/include
out=${1:?usage: make-elf-kinds.sh OUTDIR}
note=$((48 << 20))
# musl for i386: Debian's, fetched as data (deps/fetch.sh, deps/sysroot.sh).
musl32root=$("$top/deps/sysroot.sh" i386)
musl32=$musl32root/usr/lib/i386-linux-musl
export LC_ALL=C SOURCE_DATE_EPOCH=0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()
manifest=()
declare -A cols_of	# name -> its manifest columns after the name

# The programs: the same trivial main, with and without the note.
cat > "$work/note.c" <<C
#include <exec-policy-note.h>
EXEC_POLICY_SUID_STACK(48 << 20);
int main(void) { return 0; }
C
cat > "$work/plain.c" <<'C'
int main(void) { return 0; }
C

# The snippet for the assemblers, which have no preprocessor driver: the
# host cpp expands it (it only needs the constants of the header).
if ! cpp -P -I"$inc" -DEXEC_POLICY_SUID_STACK_BYTES=$note \
	"$inc/exec-policy-note.S" -o "$work/note.s" 2>"$work/cpp.err"; then
	echo "make-elf-kinds: cannot preprocess exec-policy-note.S:" >&2
	cat "$work/cpp.err" >&2
	exit 1
fi

# Exit 0 from _start, per architecture.
cat > "$work/mips.s" <<'S'
	.text
	.globl	__start
	.ent	__start
__start:
	li	$a0, 0
	li	$v0, 4001		# __NR_exit (o32)
	syscall
	.end	__start
	.section .note.GNU-stack, "", %progbits
S
cat > "$work/ppc.s" <<'S'
	.text
	.globl	_start
_start:
	li	0, 1			# __NR_exit
	li	3, 0
	sc
	.section .note.GNU-stack, "", %progbits
S
# ELFv1: the entry point is a function descriptor in .opd.
cat > "$work/ppc64.s" <<'S'
	.section .opd, "aw"
	.balign	8
	.globl	_start
_start:
	.quad	._start, .TOC.@tocbase, 0
	.text
._start:
	li	0, 1			# __NR_exit
	li	3, 0
	sc
	.section .note.GNU-stack, "", %progbits
S

# run NAME CMD...: run a build step of kind NAME, recording a failure.
run() {
	local name=$1
	shift
	if ! "$@" >"$work/log" 2>&1; then
		failed+=("$name")
		echo "make-elf-kinds: cannot build $name:" >&2
		echo "  $*" >&2
		sed 's/^/  /' "$work/log" >&2
		return 1
	fi
}

# row NAME FIELDS...: a manifest line (the name, then the columns after it).
row() {
	local IFS=$'\t'
	manifest+=("$*")
	cols_of[$1]="${*:2}"
}

# c_kind NAME CLASS DATA TYPE LINK COMPILER LIBC ARCH RUNS INTERP -- CMD...
# CMD builds a C program; @SRC@ and @OUT@ in it stand for the source and
# the output.  Builds NAME (without the note) and NAME.note (with it).
c_kind() {
	local name=$1 cols=("${@:2:9}") variant src dst arg cmd
	shift 10
	[ "$1" = -- ] && shift
	for variant in "" .note; do
		src=$work/plain.c
		[ -n "$variant" ] && src=$work/note.c
		dst=$work/out/$name$variant
		cmd=()
		for arg in "$@"; do
			arg=${arg//@SRC@/$src}
			cmd+=("${arg//@OUT@/$dst}")
		done
		run "$name$variant" "${cmd[@]}" || continue
		if [ -n "$variant" ]; then
			row "$name$variant" "${cols[@]}" "$note"
		else
			row "$name$variant" "${cols[@]}" none
		fi
	done
}

# as_kind NAME CLASS DATA TYPE ARCH TRIPLET PROGRAM [LD FLAGS...]: a
# _start program assembled and linked with the cross binutils alone.
as_kind() {
	local name=$1 class=$2 data=$3 type=$4 arch=$5 triplet=$6 prog=$7
	shift 7
	local obj=$work/$arch.o nobj=$work/note-$arch.o
	[ -f "$obj" ] || run "$name" "$triplet-as" -o "$obj" "$work/$prog.s" || return
	[ -f "$nobj" ] || run "$name.note" "$triplet-as" -o "$nobj" "$work/note.s" || return
	run "$name" "$triplet-ld" "$@" -o "$work/out/$name" "$obj" &&
		row "$name" "$class" "$data" "$type" static as none "$arch" no - none
	run "$name.note" "$triplet-ld" "$@" -o "$work/out/$name.note" "$obj" "$nobj" &&
		row "$name.note" "$class" "$data" "$type" static as none "$arch" no - "$note"
}

mkdir -p "$work/out"
I=-I$inc
M=-specs=$musl32/musl-gcc.specs
crtbeginS=$(i686-linux-gnu-gcc -print-file-name=crtbeginS.o)
crtendS=$(i686-linux-gnu-gcc -print-file-name=crtendS.o)
rt32=$(clang --target=i686-linux-gnu --rtlib=compiler-rt -print-libgcc-file-name)
res=$(clang -print-resource-dir)

# --- i386 ------------------------------------------------------------------
c_kind i386-gcc-musl-static 32 little EXEC static gcc musl i386 yes - -- \
	i686-linux-gnu-gcc "$M" -static -O2 "$I" -o @OUT@ @SRC@
# Debian's musl specs know no -static-pie: the start files (rcrt1.o, which
# relocates the program itself) and the link flags are given by hand.
c_kind i386-gcc-musl-static-pie 32 little DYN static gcc musl i386 yes - -- \
	i686-linux-gnu-gcc "$M" -static-pie -nostartfiles -O2 "$I" -o @OUT@ \
	$musl32/rcrt1.o $musl32/crti.o "$crtbeginS" @SRC@ "$crtendS" $musl32/crtn.o \
	-Wl,-static,-pie,--no-dynamic-linker,-z,text
c_kind i386-gcc-musl-pie 32 little DYN dynamic gcc musl i386 yes /lib/ld-musl-i386.so.1 -- \
	i686-linux-gnu-gcc "$M" -O2 "$I" -o @OUT@ @SRC@
c_kind i386-gcc-glibc-static 32 little EXEC static gcc glibc i386 yes - -- \
	i686-linux-gnu-gcc -static -O2 "$I" -o @OUT@ @SRC@
c_kind i386-gcc-glibc-static-pie 32 little DYN static gcc glibc i386 yes - -- \
	i686-linux-gnu-gcc -static-pie -O2 "$I" -o @OUT@ @SRC@
c_kind i386-gcc-glibc-pie 32 little DYN dynamic gcc glibc i386 yes /lib/ld-linux.so.2 -- \
	i686-linux-gnu-gcc -O2 "$I" -o @OUT@ @SRC@
# clang compiles against the musl headers and links by itself (through
# i686-linux-gnu-ld), with musl's start files and libc and compiler-rt's
# builtins in place of libgcc; musl needs no crtbegin/crtend.
c_kind i386-clang-musl-static 32 little EXEC static clang musl i386 yes - -- \
	clang --target=i686-linux-gnu -static -O2 -nostdinc \
	-isystem "$musl32root/usr/include/i386-linux-musl" -isystem "$res/include" "$I" \
	-nostdlib -o @OUT@ $musl32/crt1.o $musl32/crti.o @SRC@ $musl32/libc.a "$rt32" $musl32/crtn.o
# clang finds the i686 cross gcc's glibc and libgcc by itself.
c_kind i386-clang-glibc-pie 32 little DYN dynamic clang glibc i386 yes /lib/ld-linux.so.2 -- \
	clang --target=i686-linux-gnu -O2 "$I" -o @OUT@ @SRC@

# --- x86_64 ----------------------------------------------------------------
c_kind x86_64-gcc-glibc-pie 64 little DYN dynamic gcc glibc x86_64 no /lib64/ld-linux-x86-64.so.2 -- \
	gcc -O2 "$I" -o @OUT@ @SRC@
c_kind x86_64-gcc-glibc-static 64 little EXEC static gcc glibc x86_64 no - -- \
	gcc -static -O2 "$I" -o @OUT@ @SRC@
c_kind x86_64-gcc-glibc-static-pie 64 little DYN static gcc glibc x86_64 no - -- \
	gcc -static-pie -O2 "$I" -o @OUT@ @SRC@
c_kind x86_64-gcc-musl-static 64 little EXEC static gcc musl x86_64 no - -- \
	musl-gcc -static -O2 "$I" -o @OUT@ @SRC@
c_kind x86_64-clang-glibc-pie 64 little DYN dynamic clang glibc x86_64 no /lib64/ld-linux-x86-64.so.2 -- \
	clang -O2 "$I" -o @OUT@ @SRC@
c_kind x86_64-clang-glibc-static 64 little EXEC static clang glibc x86_64 no - -- \
	clang -static -O2 "$I" -o @OUT@ @SRC@

# --- big-endian, assembler and linker only ---------------------------------
as_kind mips-as-static 32 big EXEC mips mips-linux-gnu mips
# ld -pie alone requests /usr/lib/libc.so.1, an interpreter no MIPS system
# here has: a static-pie (no interpreter) is the honest ET_DYN.
as_kind mips-as-static-pie 32 big DYN mips mips-linux-gnu mips -pie --no-dynamic-linker
as_kind ppc-as-static 32 big EXEC ppc powerpc-linux-gnu ppc
as_kind ppc64-as-static 64 big EXEC ppc64 powerpc64-linux-gnu ppc64
# (Its .opd relocations are left to a self-relocation it lacks: a sample
# of the format, not a program to run.)
as_kind ppc64-as-static-pie 64 big DYN ppc64 powerpc64-linux-gnu ppc64 -pie --no-dynamic-linker

# --- the stamped clang programs, stripped ----------------------------------
for name in i386-clang-musl-static i386-clang-glibc-pie x86_64-clang-glibc-pie x86_64-clang-glibc-static; do
	base=$work/out/$name.note
	[ -f "$base" ] || continue
	IFS=$'\t' read -r -a cols <<<"${cols_of[$name.note]}"
	cp "$base" "$base.strip" && run "$name.note.strip" strip "$base.strip" &&
		row "$name.note.strip" "${cols[@]}"
	cp "$base" "$base.strip-all" && run "$name.note.strip-all" strip --strip-all "$base.strip-all" &&
		row "$name.note.strip-all" "${cols[@]}"
	run "$name.note.eu-strip" eu-strip -o "$base.eu-strip" "$base" &&
		row "$name.note.eu-strip" "${cols[@]}"
	run "$name.note.objcopy" objcopy "$base" "$base.objcopy" &&
		row "$name.note.objcopy" "${cols[@]}"
done

if [ "${#failed[@]}" != 0 ]; then
	echo "make-elf-kinds: ${#failed[@]} kind(s) not built: ${failed[*]}" >&2
	rm -f "$out/kinds.tsv"	# no manifest for a matrix that is not all there
	exit 1
fi

# Replace the previous matrix: its files, then the new ones, manifest last.
mkdir -p "$out" || exit 1
if [ -f "$out/kinds.tsv" ]; then
	while IFS=$'\t' read -r name _; do
		case "$name" in ''|'#'*|*/*) continue ;; esac
		rm -f "$out/$name"
	done < "$out/kinds.tsv"
fi
cp "$work"/out/* "$out/" || exit 1
{
	printf '# name\tclass\tdata\ttype\tlink\tcompiler\tlibc\tarch\truns_i386\tinterp\tnote\n'
	printf '%s\n' "${manifest[@]}"
} > "$out/kinds.tsv.tmp" && mv "$out/kinds.tsv.tmp" "$out/kinds.tsv"
