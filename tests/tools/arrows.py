#!/usr/bin/env python3
"""arrows.py ROOT [OBJDIR] - the arrows between the folders of ROOT (tests/arrows.t).

Reads the table "What may include what" of ROOT/docs/ARCHITECTURE.md (rows
"| `folder` | `a`, `b` |"), resolves every `#include "x"` of the C files in
those folders (the including file's own folder first, then the one folder of
the table that holds a file named x; the generated nvtxt.tab.h and nvtxt.lex.h
are grammar/'s), and prints one line per fault:
  - a header name held by two folders (one header per name),
  - an include the table does not allow (FILE:LINE: folder -> folder),
  - a cycle in the folders' graph of actual includes, or in the table,
  - a public header (include/nvtxt) included by its bare name from outside
    include/nvtxt: the tree includes it as "nvtxt/name.h", as users do.
With OBJDIR (a build directory: OBJDIR/F/NAME.o built from ROOT/src/F/NAME.c,
the grammar's nvtxt.tab.o and nvtxt.lex.o), the arrows at link time too, from
the objects' symbols (nm -P): a call of a function defined in a folder that the
table does not allow (FILE: folder -> folder (symbol)), and a cycle between
the folders at link time.
Exit status 1 when there is a fault, 2 on a bad table; 0 and nothing printed otherwise.
"""
import os
import re
import subprocess
import sys

GENERATED = {"nvtxt.tab.h": "grammar", "nvtxt.lex.h": "grammar"}
# installed with the public headers (Makefile, install): it is public
PUBLIC_DATA = {"checks.def": "include/nvtxt"}


def read_table(root):
    path = os.path.join(root, "docs", "ARCHITECTURE.md")
    allowed = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\|\s*`([^`]+)`\s*\|([^|]*)\|\s*$", line)
            if m:
                allowed[m.group(1)] = set(re.findall(r"`([^`]+)`", m.group(2)))
    for k, v in allowed.items():
        for d in v - set(allowed):
            print(f"docs/ARCHITECTURE.md: {k} may include {d}, which is no folder of the table")
            sys.exit(2)
    if not allowed:
        print("docs/ARCHITECTURE.md: no table of what may include what")
        sys.exit(2)
    return allowed


def find_cycle(graph):
    """A cycle of graph (dict node -> set of nodes) as a list, or None."""
    state = {}
    stack = []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def arrow(graph, allowed, faults, d, to, where, what):
    """Adds the arrow d -> to (found at `where`, through `what`) to graph; a fault when the table forbids it."""
    if to == d:
        return
    graph[d].add(to)
    if to not in allowed[d]:
        faults.append(f"{where}: {d} -> {to} ({what}), which the table does not allow")


def objects(root, objdir, allowed):
    """(folder, object path) of each object in objdir whose source is in a folder of the table."""
    out = []
    for d in sorted(allowed):
        if d == "grammar":
            out += [(d, os.path.join(objdir, n)) for n in ("nvtxt.tab.o", "nvtxt.lex.o")
                    if os.path.exists(os.path.join(objdir, n))]
            continue
        if not d.startswith("src/"):
            continue
        sub = os.path.join(objdir, d[len("src/"):])
        if not os.path.isdir(sub):
            continue
        for name in sorted(os.listdir(sub)):
            if name.endswith(".o") and os.path.exists(os.path.join(root, d, name[:-2] + ".c")):
                out.append((d, os.path.join(sub, name)))
    return out


def link_faults(root, objdir, allowed):
    """The calls between objects that the table does not allow, and a cycle among them."""
    defined, used = {}, []
    for d, obj in objects(root, objdir, allowed):
        text = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
        for line in text.splitlines():
            f = line.split()
            if len(f) < 2:
                continue
            if f[1] == "U":
                used.append((d, obj, f[0]))
            elif f[1] in "TDBRGSVW" and f[1].isupper():
                defined.setdefault(f[0], d)
    faults, graph = [], {d: set() for d in allowed}
    for d, obj, sym in used:
        if sym in defined:
            arrow(graph, allowed, faults, d, defined[sym], os.path.relpath(obj, objdir), sym)
    cycle = find_cycle(graph)
    if cycle:
        faults.append("the calls make a cycle: " + " -> ".join(cycle))
    return sorted(set(faults))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    allowed = read_table(root)
    faults = []
    holder = {}
    for d in sorted(allowed):
        full = os.path.join(root, d)
        if not os.path.isdir(full):
            faults.append(f"{d}: in the table, but no such folder")
            continue
        for name in sorted(os.listdir(full)):
            if name.endswith((".h", ".def")):
                if name in holder:
                    faults.append(f"two headers named {name}: {holder[name]}/{name} and {d}/{name}")
                holder.setdefault(name, d)
    holder.update(PUBLIC_DATA)
    holder.update(GENERATED)
    graph = {d: set() for d in allowed}
    for d in sorted(allowed):
        full = os.path.join(root, d)
        if not os.path.isdir(full):
            continue
        for name in sorted(os.listdir(full)):
            if not name.endswith((".c", ".h", ".y", ".l")):
                continue
            with open(os.path.join(full, name), encoding="utf-8", errors="replace") as f:
                lines = f.read().split("\n")
            for i, line in enumerate(lines, 1):
                m = re.match(r'^\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                h = m.group(1)
                if h.startswith("nvtxt/"):
                    to = "include/nvtxt"
                elif os.path.exists(os.path.join(full, h)):
                    to = d
                elif h in holder:
                    to = holder[h]
                    if to == "include/nvtxt" and h not in PUBLIC_DATA:
                        faults.append(f'{d}/{name}:{i}: the public header {h} is included as "nvtxt/{h}", '
                                      "as an installed user includes it")
                else:
                    faults.append(f"{d}/{name}:{i}: {h} is in no folder of the table")
                    continue
                arrow(graph, allowed, faults, d, to, f"{d}/{name}:{i}", h)
    cycle = find_cycle(allowed)
    if cycle:
        faults.append("the table has a cycle: " + " -> ".join(cycle))
    cycle = find_cycle(graph)
    if cycle:
        faults.append("the includes make a cycle: " + " -> ".join(cycle))
    if len(sys.argv) > 2:
        faults += link_faults(root, sys.argv[2], allowed)
    for f in faults:
        print(f)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
