# Sourced by the elfnote host tests: where things are, and the sanitizer
# build's conventions.  A sanitizer report exits 99, which no elfnote
# status uses, so a test that expects a status also catches reports.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$top/build}
elfnote=${ELFNOTE:-$BUILD/elfnote/elfnote-asan}
bin=$BUILD/guest-bin/i386
corpus=$BUILD/generated/i386/bin
export ASAN_OPTIONS=detect_leaks=1:exitcode=99 UBSAN_OPTIONS=halt_on_error=1:exitcode=99
