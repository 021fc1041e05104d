# Sourced by the elfnote host tests: where things are, and the sanitizer
# build's conventions.  A sanitizer report exits 99, which no elfnote
# status uses, so a test that expects a status also catches reports.
#
# The tests read the project's sample programs (GUEST_BIN: make samples
# in the top folder builds them for i386 and x86_64) and its
# malformed-note corpus (GENERATED), and run the sanitizer build in
# ELFNOTE_OUT (elf-note-tool's make test-build).
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$top/build}
GUEST_BIN=${GUEST_BIN:-$BUILD/guest-bin}
GENERATED=${GENERATED:-$BUILD/generated}
ELFNOTE_OUT=${ELFNOTE_OUT:-$BUILD/elfnote}
elfnote=${ELFNOTE:-$ELFNOTE_OUT/elfnote-asan}
bin=$GUEST_BIN/i386
corpus=$GENERATED/i386/bin
export ASAN_OPTIONS=detect_leaks=1:exitcode=99 UBSAN_OPTIONS=halt_on_error=1:exitcode=99
