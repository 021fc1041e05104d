# kernel/ccache.sh: how the project's kernel builds compile, sourced by
# kernel/build.sh and kernel/check-debian-configs.sh.  Every compile goes
# through ccache, whose objects every clone on the machine shares
# ($CACHE/ccache).  ccache keys an object by the compiler, its arguments
# and the contents of the source and of every header it read, so a hit is
# the object the compiler would have made: a second clone builds its
# kernels from the cache, and nothing stale can come out of it.  (The
# trees themselves come from $CACHE/kernel at one path per content,
# kernel/tree.sh, so a clone's compiles are the same commands.)
CACHE=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stackclamp}
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
# Depend mode: on a miss, ccache's default mode runs the preprocessor once
# more only to key the result, a fifth more work in a cold build; this one
# keys it from the dependency file the compiler writes anyway (kbuild
# always asks for one, -Wp,-MMD), as sound and no slower than no ccache.
export CCACHE_DEPEND=${CCACHE_DEPEND:-true}
# make's variables for it.
KCC=(CC="ccache gcc" HOSTCC="ccache gcc")

# kcc_cross PREFIX: KCC for a kernel built with the cross compiler
# PREFIXgcc (abis.txt's kcross; "-" or empty: the host's gcc).  CC must
# name the prefix itself: make's CC overrides the one CROSS_COMPILE gives.
kcc_cross() {
	local prefix=${1#-}
	KCC=(CC="ccache ${prefix}gcc" HOSTCC="ccache gcc")
	[ -z "$prefix" ] || KCC+=(CROSS_COMPILE="$prefix")
}
