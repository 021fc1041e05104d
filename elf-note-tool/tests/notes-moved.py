#!/usr/bin/python3
# notes-moved.py ORIG STAMPED: checks how elfnote set carried the notes of
# ORIG into STAMPED (docs/note-format.md, "Stamping a linked program"):
# each PT_NOTE of ORIG inside a PT_LOAD has, in the same order, a PT_NOTE
# in STAMPED of the same size and alignment over the same bytes, mapped by
# the PT_LOAD that holds the new program header table (one of the old ones,
# extended over its page's tail, or a new one); a PT_GNU_PROPERTY keeps its
# place within its note; the
# policy note comes on top; and every PT_NOTE ends within the 256 bytes
# that follow the program header table, which the patched kernel reads
# with the table (EXEC_POLICY_NEAR_PHDRS in fs/binfmt_elf.c).  Prints
# "ok" or the first difference, and exits 0 or 1.
import struct
import sys

NEAR = 256
POLICY = b"Linux\0"


def segments(data):
    if data[:4] != b"\x7fELF":
        raise ValueError("not ELF")
    is64 = data[4] == 2
    e = "<" if data[5] == 1 else ">"
    if is64:
        phoff, = struct.unpack_from(e + "Q", data, 0x20)
        phentsize, phnum = struct.unpack_from(e + "HH", data, 0x36)
        fmt, names = e + "IIQQQQQQ", ("type", "flags", "offset", "vaddr", "paddr", "filesz", "memsz", "align")
    else:
        phoff, = struct.unpack_from(e + "I", data, 0x1c)
        phentsize, phnum = struct.unpack_from(e + "HH", data, 0x2a)
        fmt, names = e + "IIIIIIII", ("type", "offset", "vaddr", "paddr", "filesz", "memsz", "flags", "align")
    segs = [dict(zip(names, struct.unpack_from(fmt, data, phoff + i * phentsize))) for i in range(phnum)]
    return segs, phoff + phnum * phentsize, e


def is_policy(data, seg, e):
    namesz, = struct.unpack_from(e + "I", data, seg["offset"])
    return seg["filesz"] >= 12 + namesz and data[seg["offset"] + 12:seg["offset"] + 12 + namesz] == POLICY


def inside(seg, load):
    return load["offset"] <= seg["offset"] and seg["offset"] + seg["filesz"] <= load["offset"] + load["filesz"]


def check(orig, new):
    osegs, _, _ = segments(orig)
    nsegs, table_end, e = segments(new)
    phoff = table_end - len(nsegs) * (56 if new[4] == 2 else 32)
    PT_LOAD, PT_NOTE, PT_GNU_PROPERTY = 1, 4, 0x6474e553
    oloads = [s for s in osegs if s["type"] == PT_LOAD]
    old = [s for s in osegs if s["type"] == PT_NOTE and s["filesz"] and any(inside(s, l) for l in oloads)]
    if len(old) != len([s for s in osegs if s["type"] == PT_NOTE]):
        return "the original has a note outside its loadable segments (not handled here)"
    notes = [s for s in nsegs if s["type"] == PT_NOTE]
    policy = [s for s in notes if is_policy(new, s, e)]
    copies = [s for s in notes if not is_policy(new, s, e)]
    if len(policy) != 1:
        return "%d policy notes, not 1" % len(policy)
    if len(copies) != len(old):
        return "%d other notes, the original has %d" % (len(copies), len(old))
    holding = [s for s in nsegs if s["type"] == PT_LOAD and s["offset"] <= phoff < s["offset"] + s["filesz"]]
    if len(holding) != 1:
        return "the new program header table is in %d loadable segments, not 1" % len(holding)
    newload = holding[0]
    for i, (o, n) in enumerate(zip(old, copies)):
        if (n["filesz"], n["memsz"], n["align"]) != (o["filesz"], o["memsz"], o["align"]):
            return "note %d: size or alignment changed" % i
        if new[n["offset"]:n["offset"] + n["filesz"]] != orig[o["offset"]:o["offset"] + o["filesz"]]:
            return "note %d: other bytes" % i
        if not inside(n, newload) or n["vaddr"] - newload["vaddr"] != n["offset"] - newload["offset"]:
            return "note %d: not mapped by the PT_LOAD that holds the table" % i
        if n["offset"] % max(n["align"], 1):
            return "note %d: misaligned" % i
        for op in (s for s in osegs if s["type"] == PT_GNU_PROPERTY and inside(s, o)):
            moved = [s for s in nsegs if s["type"] == PT_GNU_PROPERTY and
                     s["offset"] - n["offset"] == op["offset"] - o["offset"] and s["filesz"] == op["filesz"]]
            if not moved:
                return "note %d: PT_GNU_PROPERTY did not move with it" % i
    for s in notes:
        if s["offset"] < table_end or s["offset"] + s["filesz"] > table_end + NEAR:
            return "a note at 0x%x+%d is not within %d bytes after the table (0x%x)" % (
                s["offset"], s["filesz"], NEAR, table_end)
    return None


def main():
    orig = open(sys.argv[1], "rb").read()
    new = open(sys.argv[2], "rb").read()
    why = check(orig, new)
    print(why or "ok")
    sys.exit(1 if why else 0)


main()
