#!/usr/bin/env python3
# cpio-list.py: the Python half of mkroot.sh (docs/debian-root.md):
#   cpio-list.py listing ARCHIVES DEBS.TXT   the packages' tar headers, one entry a line
#   cpio-list.py list LISTING OVERLAY ETC ROOT PREFIX   gen_init_cpio's list
# In Python because tarfile reads the packages' own modes and owners.
import os, stat, subprocess, sys, tarfile

MERGED = {"bin", "sbin", "lib", "lib32", "libx32", "lib64"}
DROP = ("usr/share/doc", "usr/share/man", "usr/share/locale", "usr/share/info")

def die(msg):
    sys.exit("mkroot.sh (cpio-list.py): " + msg)

def canon(p):
    """A package path as it lies in a merged-/usr root, without ./ or /."""
    if p.startswith("./"):
        p = p[2:]
    p = p.strip("/")
    if p == ".":
        return ""
    if p.split("/", 1)[0] in MERGED:
        p = "usr/" + p
    return p

def dropped(p):
    return any(p == d or p.startswith(d + "/") for d in DROP)

def plain(s):
    return s and not any(c.isspace() or c == "\\" for c in s)

def listing(archives, manifest):
    """Every entry of every package: PATH TYPE MODE OWNER GROUP LINK PKG MTIME."""
    seen = {}
    for deb in open(manifest).read().split():
        pkg = deb.split("_", 1)[0]
        proc = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", os.path.join(archives, deb)],
                                stdout=subprocess.PIPE)
        with tarfile.open(fileobj=proc.stdout, mode="r|") as tf:
            for m in tf:
                p = canon(m.name)
                if not p or dropped(p):
                    continue
                if not plain(p):
                    die(f"{deb}: '{m.name}' has a blank or backslash, which gen_init_cpio cannot take")
                if m.isdir():
                    t, link = "d", ""
                elif m.issym():
                    t, link = "l", m.linkname
                elif m.islnk():
                    t, link = "h", canon(m.linkname)
                    if dropped(link):
                        die(f"{deb}: hard link {p} to {link}, which is dropped")
                elif m.isreg():
                    t, link = "f", ""
                else:
                    die(f"{deb}: {m.name} is neither file, directory nor link")
                if t in "lh" and not plain(link):
                    die(f"{deb}: link target '{link}' of {p}")
                e = (p, t, "%04o" % (m.mode & 0o7777), m.uname or str(m.uid),
                     m.gname or str(m.gid), link, pkg, str(int(m.mtime)))
                old = seen.get(p)
                if old is None or (t == "d" and old[1] == "d" and pkg == "base-files"):
                    seen[p] = e
                elif old[1] == "d" and t == "d":
                    pass
                elif old[1:6] != e[1:6]:
                    die(f"{p} is in {old[6]} and in {pkg} (with /usr merged)")
        if proc.wait() != 0:
            die(f"dpkg-deb --fsys-tarfile {deb} failed")
    for p in sorted(seen):
        print("\t".join(seen[p]))

def ids(path, field):
    table = {}
    for line in open(path):
        f = line.rstrip("\n").split(":")
        table[f[0]] = int(f[field])
    return table

def cpio_list(listing, overlay, etc, root, prefix):
    users, groups = ids(os.path.join(etc, "passwd"), 2), ids(os.path.join(etc, "group"), 2)

    def num(name, table, what):
        if name.isdigit():
            return int(name)
        if name not in table:
            die(f"the packages name {what} '{name}', which etc/ does not define")
        return table[name]

    # PATH -> [TYPE, MODE, UID, GID, EXTRA]
    ent = {}
    for line in open(listing):
        p, t, mode, user, group, link, _pkg, _mtime = line.rstrip("\n").split("\t")
        ent[p] = [t, mode, num(user, users, "user"), num(group, groups, "group"), link]
    copies = []
    for line in open(overlay):
        p, t, mode, uid, gid, extra = line.rstrip("\n").split("\t")
        if not plain(p):
            die(f"overlay path '{p}'")
        if t == "c":
            copies.append((p, extra))
            continue
        if p in ent and ent[p][0] == "d" and t != "d":
            under = [q for q in ent if q.startswith(p + "/")]
            if under:
                die(f"{p} is made a {t} but the packages put {under[0]} in it")
        ent[p] = [t, mode, int(uid), int(gid), extra]
    for p, orig in copies:
        if orig not in ent or ent[orig][0] != "f":
            die(f"{p} is a copy of {orig}, not a file of the root")
        ent[p] = ["f"] + ent[orig][1:4] + [""]

    links = {}
    for p, e in ent.items():
        parent = os.path.dirname(p)
        if parent and ent.get(parent, ["?"])[0] != "d":
            die(f"{p}: its folder {parent} is not a folder of the root")
        if e[0] == "h":
            if ent.get(e[4], ["?"])[0] != "f":
                die(f"{p}: hard link to {e[4]}, not a file of the root")
            links.setdefault(e[4], []).append(p)
    # What is on disk and what is listed must agree.
    for p, e in ent.items():
        disk = os.path.join(root, p)
        if e[0] in "fh" and (os.path.islink(disk) or not os.path.isfile(disk)):
            die(f"{disk} (listed as a file) is not a file")
        if e[0] == "d" and (os.path.islink(disk) or not os.path.isdir(disk)):
            die(f"{disk} (listed as a folder) is not a folder")
        if e[0] == "l" and (not os.path.islink(disk) or os.readlink(disk) != e[4]):
            die(f"{disk} (listed as a link to {e[4]}) is not that link")
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.relpath(os.path.join(d, n), root)
            if p not in ent:
                die(f"{root}/{p} is on disk but in no package and not added "
                    f"(remove {root} to unpack afresh)")
    print(f"dir {prefix} 0755 0 0")
    for p in sorted(ent):
        t, mode, uid, gid, extra = ent[p]
        name = f"{prefix}/{p}"
        if t == "d":
            print(f"dir {name} {mode} {uid} {gid}")
        elif t == "f":
            hard = "".join(f" {prefix}/{q}" for q in sorted(links.get(p, [])))
            print(f"file {name} {root}/{p} {mode} {uid} {gid}{hard}")
        elif t == "l":
            print(f"slink {name} {extra} 0777 {uid} {gid}")
        elif t == "n":
            print(f"nod {name} {mode} {uid} {gid} {extra}")

if sys.argv[1] == "listing":
    listing(*sys.argv[2:])
else:
    cpio_list(*sys.argv[2:])
