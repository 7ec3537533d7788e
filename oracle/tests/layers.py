#!/usr/bin/env python3
"""layers.py BUILD_DIR SOURCE_DIR: the library's layers keep one direction.

oracle/src/CMakeLists.txt gives each layer (base, rules, case, model,
engines, run, report, gen) the include directories of the layers below it
alone. This test checks that the build really enforces it, with each
layer's own compile command from BUILD_DIR/compile_commands.json:
  - every header of a higher (or side-by-side) layer, and a layer's
    private internal/ headers (the model's state, what the zcp/1 files
    share, what the decoder's files share), fails to compile when
    included from another layer;
  - every header of the layer itself and of the layers below compiles
    (so the failures above are the layering, not a broken command);
  - no source of the library, the CLI or the harnesses includes a header
    by a relative or folder path ("../x.h", "model/x.h"), which would get
    around the include directories.
Exit 0 when all holds, 1 with each breach named."""
import glob, json, os, re, shlex, subprocess, sys, tempfile

build, src = sys.argv[1], sys.argv[2]
LAYERS = ["base", "rules", "case", "model", "engines", "run", "report", "gen"]
BELOW = {"base": [], "rules": ["base"], "case": ["base", "rules"],
         "model": ["base", "rules", "case"], "engines": ["base", "rules", "case", "model"],
         "run": ["base", "rules", "case", "model", "engines"],
         "report": ["base", "rules", "case", "model", "engines", "run"],
         "gen": ["base", "rules", "case", "model", "engines", "run"]}
srcdir = os.path.join(src, "oracle", "src")
headers = {l: sorted(os.path.basename(h) for h in glob.glob(os.path.join(srcdir, l, "*.h")))
           for l in LAYERS}
private = {"model": ["model_int.h"], "engines": ["zcp_int.h"], "run": ["obs_check_int.h"],
           "gen": ["decoder_int.h"]}
commands = json.load(open(os.path.join(build, "compile_commands.json")))
failures = []

def command_of(layer):
    for c in commands:
        f = os.path.relpath(os.path.realpath(c["file"]), os.path.realpath(srcdir))
        if f.startswith(layer + os.sep) and f.endswith(".c"):
            return c
    return None

def compiles(cmd, header):
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.c")
        with open(probe, "w") as f:
            f.write('#include "%s"\nint zo_probe(void);\nint zo_probe(void) { return 0; }\n' % header)
        args = shlex.split(cmd["command"]) if "command" in cmd else list(cmd["arguments"])
        out = []
        skip = False
        for a in args:  # drop -o OUT, -c FILE and the source; keep the rest
            if skip:
                skip = False
                continue
            if a in ("-o", "-MF", "-MT", "-MQ"):
                skip = True
                continue
            if a in ("-c", "-MD", "-MMD") or a.endswith(".c"):
                continue
            out.append(a)
        out += ["-fsyntax-only", probe]
        r = subprocess.run(out, cwd=cmd["directory"], capture_output=True, text=True)
        return r.returncode == 0

checked = 0
for layer in LAYERS:
    cmd = command_of(layer)
    if not cmd:
        failures.append("no compile command for a file of oracle/src/%s (configure with CMAKE_EXPORT_COMPILE_COMMANDS)" % layer)
        continue
    allowed = set([layer] + BELOW[layer])
    for other in LAYERS:
        for h in headers[other]:
            ok = compiles(cmd, h)
            checked += 1
            if other in allowed and not ok:
                failures.append("%s cannot include %s/%s, a header of a layer below it" % (layer, other, h))
            if other not in allowed and ok:
                failures.append("%s can include %s/%s, a header of a layer above or beside it" % (layer, other, h))
    for owner, names in private.items():
        for h in names:
            ok = compiles(cmd, h)
            checked += 1
            if ok and layer != owner:
                failures.append("%s can include %s's private %s" % (layer, owner, h))
            if not ok and layer == owner:
                failures.append("%s cannot include its own %s" % (owner, h))

inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
for pattern in ("oracle/src/**/*.[ch]", "oracle/cli/*.[ch]", "fuzz/*.[ch]", "oracle/tests/*.c"):
    for path in glob.glob(os.path.join(src, pattern), recursive=True):
        for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
            m = inc.match(line)
            if m and "/" in m.group(1):
                failures.append("%s:%d: includes \"%s\" by path: name the header alone and let the "
                                "layer's include directories decide" % (os.path.relpath(path, src), n, m.group(1)))

for f in failures:
    print("layers: " + f)
print("layers: %d includes probed across %d layers, %d breaches" % (checked, len(LAYERS), len(failures)))
sys.exit(1 if failures else 0)
