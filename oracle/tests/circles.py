#!/usr/bin/env python3
"""circles.py BUILD_DIR SOURCE_DIR: no two files of the library or the CLI
depend on each other, round a circle of any length, except inside the
model (oracle/src/model/, whose steps recurse through each other: a nested
step is run by the same dispatch that ran its parent).

A file depends on another when it
  - uses a name the other defines: the undefined symbols of its object
    file (`nm`) against the global symbols each other object file of the
    build defines (functions and data, not what a header makes static or
    a macro); or
  - includes the other's header: X.h beside X.c (or in its internal/
    folder) stands for X.c, since what the header declares, its types and
    macros included, is X.c's to keep; a header with no such file is
    followed to what it includes.
The files are those of oracle/src and oracle/cli that BUILD_DIR's
compile_commands.json compiles (the debug build: configure with
CMAKE_EXPORT_COMPILE_COMMANDS, as CMakeLists.txt does). Each circle is
printed with the names and headers that tie it, file -> file.

Exit 0 when the only circles are the model's (and those PENDING lists),
1 with each other one named, 2 when the build cannot be read."""
import json, os, re, shlex, subprocess, sys

build, src = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
# Circles allowed: every file of it under one of these folders.
ALLOWED = ["oracle/src/model/"]
# Circles being broken apart on a branch of their own, each allowed as
# exactly these files until then: one that is gone must be taken off
# (the check fails on it), and one that gains a file is a new circle.
PENDING = []
SCOPE = ("oracle/src/", "oracle/cli/")


def rel(path):
    return os.path.relpath(os.path.realpath(path), src)


def fail(msg):
    print("circles: " + msg)
    sys.exit(2)


try:
    commands = json.load(open(os.path.join(build, "compile_commands.json")))
except OSError as e:
    fail("%s (configure with CMAKE_EXPORT_COMPILE_COMMANDS=ON)" % e)

# source -> (object file, include dirs); the first command of each source
# (a file built into two targets compiles the same text)
units = {}
for c in commands:
    f = rel(c["file"])
    if not f.startswith(SCOPE) or not f.endswith(".c") or f in units:
        continue
    args = shlex.split(c["command"]) if "command" in c else list(c["arguments"])
    out = c.get("output")
    incs = []
    for i, a in enumerate(args):
        if a == "-o" and i + 1 < len(args):
            out = args[i + 1]
        elif a.startswith("-I") and len(a) > 2:
            incs.append(os.path.join(c["directory"], a[2:]))
        elif a in ("-I", "-isystem", "-iquote") and i + 1 < len(args):
            incs.append(os.path.join(c["directory"], args[i + 1]))
    if not out:
        fail("no object file for %s in compile_commands.json" % f)
    units[f] = (os.path.join(c["directory"], out), incs)
if not units:
    fail("compile_commands.json compiles no file of oracle/src or oracle/cli")

# ---- names: who defines what, who uses what ---------------------------
defined, used = {}, {}
for f, (obj, _) in units.items():
    if not os.path.exists(obj):
        fail("%s is not built (build %s first)" % (os.path.relpath(obj, build), build))
    r = subprocess.run(["nm", "-P", obj], capture_output=True, text=True)
    if r.returncode:
        fail("nm %s: %s" % (obj, r.stderr.strip()))
    used[f] = set()
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            used[f].add(name)
        elif kind in "TDBRCGSVW":  # global: text, data, bss, read-only, common, weak
            defined.setdefault(name, set()).add(f)

edges = {f: {} for f in units}  # f -> {g: [why, ...]}
for f in units:
    for name in sorted(used[f]):
        for g in defined.get(name, ()):
            if g != f:
                edges[f].setdefault(g, []).append(name)

# ---- headers: X.h stands for X.c; others are followed -----------------
inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def resolve(name, here, incs):
    for d in [here] + incs:
        p = os.path.join(d, name)
        if os.path.exists(p):
            return os.path.realpath(p)
    return None


def owner(header):
    """The .c file a header stands for: X.c beside X.h, or one folder up
    from internal/X.h; None when there is none."""
    d, base = os.path.split(header)
    stem = os.path.splitext(base)[0]
    for folder in (d, os.path.dirname(d) if os.path.basename(d) == "internal" else None):
        if folder and os.path.exists(os.path.join(folder, stem + ".c")):
            c = rel(os.path.join(folder, stem + ".c"))
            if c in units:
                return c
    return None


def header_deps(path, incs, seen, out, via):
    """The files path's includes stand for, into out (file -> header chain)."""
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        return
    for line in lines:
        m = inc_re.match(line)
        if not m:
            continue
        h = resolve(m.group(1), os.path.dirname(path), incs)
        if not h or h in seen or not rel(h).startswith(SCOPE + ("oracle/include/",)):
            continue
        seen.add(h)
        chain = via + [os.path.basename(h)]
        o = owner(h)
        if o:
            out.setdefault(o, " > ".join(chain))
        else:
            header_deps(h, incs, seen, out, chain)


for f, (_, incs) in units.items():
    deps = {}
    header_deps(os.path.join(src, f), incs, set(), deps, [])
    for g, chain in deps.items():
        if g != f:
            edges[f].setdefault(g, []).append("#include " + chain)

# ---- circles: the strongly connected components -----------------------
index, low, stack, on, comps = {}, {}, [], set(), []
counter = [0]


def strong(v):
    # iterative Tarjan: (node, iterator over its successors)
    work = [(v, iter(sorted(edges[v])))]
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    while work:
        node, it = work[-1]
        advanced = False
        for w in it:
            if w not in index:
                index[w] = low[w] = counter[0]
                counter[0] += 1
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(edges[w]))))
                advanced = True
                break
            if w in on:
                low[node] = min(low[node], index[w])
        if advanced:
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[node])
        if low[node] == index[node]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == node:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))


for v in sorted(units):
    if v not in index:
        strong(v)

bad = 0
for comp in sorted(comps):
    allowed = any(all(f.startswith(a) for f in comp) for a in ALLOWED)
    pending = set(comp) in PENDING
    bad += not allowed and not pending
    print("circles: %s circle of %d files%s:" % ("an allowed" if allowed or pending else "a", len(comp),
                                                  " (the model's)" if allowed else
                                                  " (pending: being broken apart)" if pending else ""))
    if allowed:
        print("  " + ", ".join(comp))
        continue
    members = set(comp)
    for f in comp:
        for g in sorted(edges[f]):
            if g in members:
                why = edges[f][g]
                more = " and %d more" % (len(why) - 8) if len(why) > 8 else ""
                print("  %s -> %s: %s%s" % (f, g, ", ".join(why[:8]), more))
for p in PENDING:
    if sorted(p) not in comps:
        bad += 1
        print("circles: %s no longer make a circle: take them off PENDING in oracle/tests/circles.py"
              % " and ".join(sorted(p)))
nedges = sum(len(e) for e in edges.values())
print("circles: %d files, %d file-to-file dependencies, %d circle(s) outside %s" %
      (len(units), nedges, bad, " ".join(ALLOWED)))
sys.exit(1 if bad else 0)
