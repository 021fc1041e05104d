#!/bin/bash
# Host tests of the built-kernel cache (kernel/kernel-cache.sh) through
# kernel/build.sh, on a stand-in tree whose Makefile "builds" a bzImage
# from its own fs/exec.c and its .config and logs every build: a second
# clone takes the first one's kernel without building; anything the key
# covers (the series, the config) builds anew; a tree changed by hand
# builds and stores nothing; KERNEL_CACHE=0 builds; only the KEEP_KERNELS
# used last stay.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
TAP_PREFIX="host kernel cache: "
tap_plan 12
work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'

src=$work/linux-source-9.9
mkdir -p "$src/fs" "$src/scripts/kconfig"
cat > "$src/Makefile" <<'EOF'
kernelversion:
	@echo 9.9.42
tinyconfig:
	@mkdir -p $(O) && echo CONFIG_TINY=y > $(O)/.config
olddefconfig:
	@true
bzImage:
	@mkdir -p $(O)/arch/x86/boot
	@cat $(O)/.config fs/exec.c > $(O)/arch/x86/boot/bzImage
	@echo "map of $(O)" > $(O)/System.map
	@echo vmlinux > $(O)/vmlinux
	@echo "$(O)" >> $(BUILDS_LOG)
EOF
# merge_config.sh -m .config FRAGMENT, as far as build.sh's check of the
# result goes: the last value of each symbol wins, "=n" as kconfig writes it.
cat > "$src/scripts/kconfig/merge_config.sh" <<'EOF'
#!/bin/sh
cat "$2" "$3" | sed 's/^\(CONFIG_[A-Z0-9_]*\)=n$/# \1 is not set/' |
	awk '{ s = $0; sub(/^# /, "", s); sub(/[= ].*/, "", s)
		if (!(s in v)) order[++n] = s; v[s] = $0 }
		END { for (i = 1; i <= n; i++) print v[order[i]] }' > "$2.new" && mv "$2.new" "$2"
EOF
chmod +x "$src/scripts/kconfig/merge_config.sh"
echo one > "$src/fs/exec.c"
tar -cJf "$work/linux-source-9.9.tar.xz" -C "$work" linux-source-9.9

git init -q "$work/g" && cp -r "$src/." "$work/g/"
git -C "$work/g" add -A && git -C "$work/g" -c user.name=t -c user.email=t@t commit -qm base
echo ONE > "$work/g/fs/exec.c"
git -C "$work/g" -c user.name=t -c user.email=t@t commit -qam "first"
mkdir -p "$work/patches"
git -C "$work/g" format-patch -q -o "$work/patches" HEAD~1..HEAD
printf '0001-first.patch\n' > "$work/patches/series"

# build CLONE VARIANT [PROFILE]: kernel/build.sh as clone CLONE (its own
# build folder, the one shared cache); its output in $work/CLONE.log.
build() {
	BUILD=$work/$1 CACHE=$work/cache SERIES=9.9 TARBALL=$work/linux-source-9.9.tar.xz \
		PATCHES=$work/patches BUILDS_LOG=$work/builds.log \
		"$top/kernel/build.sh" "$2" i386 ${3:+"$3"} > "$work/$1.log" 2>&1
}
builds() { grep -c . "$work/builds.log" 2>/dev/null || echo 0; }
entries() { find "$work/cache/kernels" -mindepth 1 -maxdepth 1 -not -name '.*' | wc -l; }
image() { echo "$work/$1/out/linux-9.9-i386-$2/arch/x86/boot/bzImage"; }

build a patched && [ "$(builds)" = 1 ] && [ "$(entries)" = 1 ] && grep -q '  BUILT ' "$work/a.log"
tap_check $? "a first build builds and stores the kernel"

build b patched && [ "$(builds)" = 1 ] && grep -q '  CACHED ' "$work/b.log" &&
	cmp -s "$(image a patched)" "$(image b patched)" &&
	[ "$(tail -n 1 "$work/b.log")" = "$(image b patched)" ]
tap_check $? "a second clone takes that kernel, byte for byte, without building"

grep -qx ONE "$(image b patched)" && [ -f "$work/b/out/linux-9.9-i386-patched/System.map" ]
tap_check $? "the cached kernel is the patched tree's, with its System.map"

[ ! -e "$work/b/out/linux-9.9-i386-patched/vmlinux" ]
tap_check $? "a cached kernel leaves no vmlinux a later build would take as up to date"

build c stock && [ "$(builds)" = 2 ] && grep -qx one "$(image c stock)"
tap_check $? "the stock kernel (another tree) is built, not taken for the patched one"

build c patched bench && [ "$(builds)" = 3 ] && grep -q "# CONFIG_KUNIT is not set" "$(image c patched-bench)"
tap_check $? "another config (a profile's fragment) is built"

echo TWO > "$work/g/fs/exec.c"
git -C "$work/g" -c user.name=t -c user.email=t@t commit -qam "second"
git -C "$work/g" format-patch -q --start-number 2 -o "$work/patches" HEAD~1..HEAD
printf '0001-first.patch\n0002-second.patch\n' > "$work/patches/series"
build d patched && [ "$(builds)" = 4 ] && grep -qx TWO "$(image d patched)"
tap_check $? "a changed series is built"

KERNEL_CACHE=0 build e patched && [ "$(builds)" = 5 ]
tap_check $? "KERNEL_CACHE=0 builds although the kernel is cached"

# A hand edit in the shared tree, after kernel/tree.sh made it.
tree=$(readlink -f "$work/d/src/linux-9.9-patched")
sleep 0.01
echo EDITED > "$tree/fs/exec.c"
before=$(entries)
build f patched && [ "$(builds)" = 6 ] && grep -qx EDITED "$(image f patched)" &&
	grep -q "NOCACHE $tree/fs/exec.c is newer than the tree" "$work/f.log"
tap_check $? "a tree changed by hand is built, and the log says why"

[ "$(entries)" = "$before" ]
tap_check $? "a build from a changed tree is not stored"

# The tree as kernel/tree.sh made it again.
echo TWO > "$tree/fs/exec.c"
touch -d '1 hour ago' "$tree/fs/exec.c"
build b patched && [ "$(builds)" = 6 ] && grep -q '  CACHED ' "$work/b.log" && grep -qx TWO "$(image b patched)"
tap_check $? "the tree as it was made: the series' kernel is a hit again"

KEEP_KERNELS=2 build g patched bench && [ "$(builds)" = 7 ] && [ "$(entries)" = 2 ] &&
	build h patched bench && [ "$(builds)" = 7 ]
tap_check $? "only the KEEP_KERNELS used last stay, the one just stored among them"
