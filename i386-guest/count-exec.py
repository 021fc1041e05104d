# gdb script (gdb -batch -x count-exec.py): count the instructions a
# guest kernel spends in the functions an exec of the series touches,
# single-stepping each call through QEMU's gdb stub from its entry to its
# return, callees included: read_exec_policy() (fs/binfmt_elf.c; kmalloc,
# elf_read() and the VFS read under it, the parser, kfree) and
# load_elf_phdrs(), which the series makes read past the program headers.
# QEMU's stub steps with interrupts and timers held off, so a count is the
# function's own work, exactly.  Used by i386-guest/bench-count.sh, which
# starts QEMU and reads:
#
#   exec PROGRAM             an exec of one of COUNT_PROGRAMS began
#   read ABI INSTRUCTIONS    one call of the reader, in that exec
#   phdrs ABI INSTRUCTIONS   one call of load_elf_phdrs(), in that exec
#
# Environment: COUNT_ARCH (i386 or x86_64), COUNT_EXECVE (bprm_execve's
# address), COUNT_READERS and COUNT_PHDRS (ABI=ADDRESS of each copy of
# read_exec_policy() and load_elf_phdrs(): x86_64 has binfmt_elf's and
# compat_binfmt_elf's, for ia32; a stock kernel has no reader),
# COUNT_PROGRAMS (space-separated paths), COUNT_EXECS (stop after this
# many execs of the programs), COUNT_PORT (the stub's TCP port).
import os
import gdb

arch = os.environ["COUNT_ARCH"]
word = 8 if arch == "x86_64" else 4
execve = int(os.environ["COUNT_EXECVE"], 16)


def copies(var):
    return {int(a, 16): abi for abi, a in
            (r.split("=") for r in os.environ.get(var, "").split())}


counted = {"read": copies("COUNT_READERS"), "phdrs": copies("COUNT_PHDRS")}
programs = set(os.environ["COUNT_PROGRAMS"].split())
remaining = int(os.environ["COUNT_EXECS"])
inferior = None


def reg(name):
    return int(gdb.parse_and_eval("$" + name)) & ((1 << (8 * word)) - 1)


def read_word(where):
    return int.from_bytes(bytes(inferior.read_memory(where, word)), "little")


def read_string(where, limit=128):
    raw = bytes(inferior.read_memory(where, limit))
    return raw.split(b"\0", 1)[0].decode(errors="replace")


def filename_arg():
    # bprm_execve(bprm, fd, filename, flags): the third argument, in
    # %rdx (x86_64) or %ecx (i386, -mregparm=3); struct filename starts
    # with the name's pointer.
    return read_string(read_word(reg("rdx" if arch == "x86_64" else "ecx")))


def count_until_return():
    sp = reg("sp")
    ret = read_word(sp)
    steps = 0
    while True:
        gdb.execute("stepi", to_string=True)
        steps += 1
        if reg("pc") == ret and reg("sp") > sp:
            return steps


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set architecture " + ("i386:x86-64" if arch == "x86_64" else "i386"))
gdb.execute("target remote :" + os.environ.get("COUNT_PORT", "1234"))
inferior = gdb.selected_inferior()
gdb.execute("break *%#x" % execve, to_string=True)
for addr in [a for c in counted.values() for a in c]:
    gdb.execute("break *%#x" % addr, to_string=True)
counting = False
while True:
    try:
        gdb.execute("continue", to_string=True)
    except gdb.error:
        break  # the guest is done and QEMU has gone
    pc = reg("pc")
    if pc == execve:
        if remaining == 0:
            gdb.execute("delete")
            gdb.execute("detach")
            break
        counting = filename_arg() in programs
        if counting:
            remaining -= 1
            print("exec %s" % filename_arg(), flush=True)
    elif counting:
        for what, where in counted.items():
            if pc in where:
                print("%s %s %d" % (what, where[pc], count_until_return()),
                      flush=True)
