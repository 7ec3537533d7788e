#!/usr/bin/env bash
# The command line itself: every command answers --help; usage errors (no
# command, an unknown command or option, a bad value) exit 2 naming what was
# wrong; no silent limit on the number of paths; paths that are not regular
# files, unreadable or looping are errors naming them, never a hang; an
# engine that cannot be started exits 4; version; the suite is found
# without a PATH from any directory.
#   cli.sh ZONEORACLE SOURCE_DIR
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 ZONEORACLE SOURCE_DIR" >&2; exit 2; }
bin=$1 src=$2 work=$(mktemp -d)
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
passed=0
fail() { echo "cli: FAIL: $*"; [ -f "$work/out" ] && { echo "--- output:"; head -20 "$work/out"; }; exit 1; }
ok() { passed=$((passed + 1)); }

# z ARGS...: run zoneoracle (at most 10 s: nothing here may hang), stdout
# and stderr into $work/out, the exit code in $rc
z() {
  timeout 10 "$bin" "$@" > "$work/out" 2>&1
  rc=$?
  [ "$rc" -ne 124 ] || fail "zoneoracle $*: still running after 10 s"
}
# expect CODE TEXT ARGS...: zoneoracle ARGS exits CODE and says TEXT (a grep -E pattern)
expect() {
  local code=$1 text=$2
  shift 2
  z "$@"
  [ "$rc" -eq "$code" ] || fail "zoneoracle $*: exit $rc, expected $code"
  grep -qE -- "$text" "$work/out" || fail "zoneoracle $*: no '$text' in the output"
  ok
}

# --- help ---------------------------------------------------------------
commands="run gate check rulesets rules replay corpus serve smoke mutants diff version help"
for c in $commands; do
  for h in --help -h; do
    "$bin" "$c" "$h" > "$work/out" 2> "$work/err"
    rc=$?
    [ "$rc" -eq 0 ] || fail "$c $h: exit $rc"
    grep -q "^usage: zoneoracle $c" "$work/out" || fail "$c $h: no usage line on stdout"
    ok
  done
  "$bin" help "$c" > "$work/out" 2>&1 && grep -q "^usage: zoneoracle $c" "$work/out" || fail "help $c"
  ok
done
"$bin" --help > "$work/out" 2>&1 && grep -q '^usage: zoneoracle COMMAND' "$work/out" \
  && grep -q 'exit codes: .*4 the engine' <(tr '\n' ' ' < "$work/out") || fail "--help"
ok
"$bin" help > "$work/out" 2>&1 && [ "$(grep -c '^usage: zoneoracle' "$work/out")" -ge 13 ] || fail "help: not every command"
ok
# no arguments: the command list on stderr, exit 2
"$bin" > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" -eq 2 ] && [ ! -s "$work/out" ] && grep -q 'usage' "$work/err" && grep -q '^  gate ' "$work/err" \
  || fail "no arguments: exit $rc, expected 2 and the commands on stderr"
ok
echo "help: every command answers --help, -h and help CMD; no arguments exits 2"

# --- usage errors: exit 2, naming the option or value --------------------
expect 2 "unknown command 'frobnicate'" frobnicate
expect 2 "unknown command 'nope'" help nope
expect 2 "unknown option '--frobnicate'" run --frobnicate
expect 2 "unknown option '-x'" check -x
expect 2 "unknown option '--frobnicate'" smoke --engine "$bin serve" --frobnicate
expect 2 "ambiguous option '--r'" run --r
expect 2 "option --timeout needs a value" gate --engine "$bin serve" --timeout
expect 2 "option --quiet takes no value" run --quiet=1
expect 2 "'abc' for --timeout" gate --engine "$bin serve" --timeout abc
expect 2 "'-1' for --timeout" gate --engine "$bin serve" --timeout -1
expect 2 "'0' for --timeout" smoke --engine "$bin serve" --timeout 0
expect 2 "'inf' for --timeout" smoke --engine "$bin serve" --timeout inf
expect 2 "'5s' for --timeout" run --engine "$bin serve" --timeout 5s
expect 2 "'3/2' for --shard" gate --engine "$bin serve" --shard 3/2
expect 2 "'0/2' for --shard" gate --engine "$bin serve" --shard 0/2
expect 2 "'1/2x' for --shard" gate --engine "$bin serve" --shard 1/2x
expect 2 "'x' for --seed" gate --engine "$bin serve" --fuzz 1 --seed x
expect 2 "'-1' for --seed" gate --engine "$bin serve" --fuzz 1 --seed -1
expect 2 "'0' for --fuzz" gate --engine "$bin serve" --fuzz 0
expect 2 "'xml' for --format" rules --format xml
expect 2 "'loader' for --harness" replay --harness loader x
expect 2 "--timeout is for a run against an engine" run --timeout 3
expect 2 "--seed is for --fuzz" gate --engine "$bin serve" --seed 3
expect 2 "--fuzz does not take --strict" gate --engine "$bin serve" --fuzz 1 --strict
expect 2 "needs --engine CMD or --engine-plugin" gate
expect 2 "not both" smoke --engine "$bin serve" --engine-plugin x.so
expect 2 "unexpected argument 'x'" rulesets x
expect 2 "missing argument" diff a.jsonl
expect 2 "unknown rule set 'nope'" run --ruleset nope
echo "usage errors: exit 2, each naming the option and value"

# --- no silent limit: 600 case files as 600 paths ------------------------
mkdir -p "$work/many"
template="$src/cases/mtg/400.3-aven-fisher-goes-to-owner-graveyard.yaml"
[ -f "$template" ] || template=$(ls "$src"/cases/mtg/*.yaml | sed -n 1p)
for i in $(seq 1 600); do
  sed "s|^id: .*|id: cli/many-$i|" "$template" > "$work/many/c$i.yaml"
done
mapfile -t many < <(ls "$work"/many/*.yaml)
[ "${#many[@]}" -eq 600 ] || fail "made ${#many[@]} case files, not 600"
expect 0 '^600 case files checked, 0 invalid$' check "${many[@]}"
# one of them broken is found even when it is the last
printf 'id: [\n' > "$work/many/zz-broken.yaml"
expect 3 '^601 case files checked, 1 invalid$' check "${many[@]}" "$work/many/zz-broken.yaml"
rm "$work/many/zz-broken.yaml"
echo "600 paths: all checked"

# --- paths: FIFOs, loops, unreadable, explicit files -----------------------
mkdir -p "$work/fifo"
cp "$template" "$work/fifo/a.yaml"
mkfifo "$work/fifo/x.yaml"
expect 2 "x.yaml: not a regular file" check "$work/fifo"
expect 2 "x.yaml: not a regular file" check "$work/fifo/x.yaml"
expect 2 "x.yaml: not a regular file" run --report-dir "$work/r-fifo" "$work/fifo"
mkdir -p "$work/loop/sub"
cp "$template" "$work/loop/sub/a.yaml"
ln -s .. "$work/loop/sub/up"
expect 2 "loop/sub/up: symlink loop" check "$work/loop"
ln -s self "$work/self" # ELOOP
expect 2 "self: symlink loop" check "$work/self"
ln -s "$work/nowhere" "$work/loop/sub/dangling.yaml"
rm "$work/loop/sub/up"
expect 2 "dangling.yaml: No such file" check "$work/loop"
rm "$work/loop/sub/dangling.yaml"
expect 2 "nonexistent: No such file" check "$work/nonexistent"
# a file named on the command line is taken whatever its extension
cp "$template" "$work/case.txt"
expect 0 '^1 case files checked, 0 invalid$' check "$work/case.txt"
# a directory takes *.yaml and *.yml only, in sorted order
mkdir -p "$work/sorted/b" "$work/sorted/a"
for f in b/2.yaml a/1.yml c.yaml; do sed "s|^id: .*|id: cli/${f%%.*}|" "$template" > "$work/sorted/$f"; done
cp "$template" "$work/sorted/ignored.txt"
expect 0 '^3 case files checked, 0 invalid$' check "$work/sorted"
z run --report-dir "$work/r-sorted" "$work/sorted"
[ "$rc" -eq 0 ] && grep -o '"file":"[^"]*"' "$work/r-sorted/run.jsonl" | sed 's|.*/sorted/||' | tr -d '"' \
  | paste -sd' ' | grep -qx 'a/1.yml b/2.yaml c.yaml' || fail "not a/1.yml b/2.yaml c.yaml in that order"
ok
if [ "$(id -u)" -eq 0 ]; then
  echo "unreadable directory: skipped (running as root, who reads anything)"
else
  mkdir -p "$work/locked/in"
  cp "$template" "$work/locked/in/a.yaml"
  chmod 000 "$work/locked/in"
  expect 2 "locked/in: Permission denied" check "$work/locked"
  chmod 700 "$work/locked/in"
  chmod 000 "$work/locked/in/a.yaml"
  expect 2 "a.yaml: Permission denied" check "$work/locked"
  chmod 600 "$work/locked/in/a.yaml"
fi
echo "paths: a FIFO, a symlink loop, a dangling link, a missing path: exit 2 naming it, no hang"

# --- engines that cannot be started: exit 4 --------------------------------
expect 4 "could not be started" gate --engine /nonexistent/engine --report-dir "$work/r-gate" "$work/sorted"
expect 4 "could not be started" gate --engine-plugin /nonexistent/engine.so --report-dir "$work/r-gate" "$work/sorted"
expect 4 "could not be started" run --engine /nonexistent/engine --report-dir "$work/r-gate" "$work/sorted"
expect 4 "could not be started" gate --engine /nonexistent/engine --fuzz 1 --out "$work/fz"
expect 4 "no zcp/1 handshake" smoke --engine /nonexistent
expect 4 "could not be started" smoke --engine-plugin /nonexistent.so
printf '\0\1\2' > "$work/input"
expect 4 "could not be started" replay --harness diff --engine /nonexistent "$work/input"
echo "engines that cannot be started: exit 4"

# --- version, and the suite found from anywhere ----------------------------
expect 0 '^zoneoracle [0-9]+\.[0-9]+\.[0-9]+' version
grep -q '^suite commit ' "$work/out" && grep -q '^cases /' "$work/out" || fail "version: no suite commit or cases line"
# which malloc this build linked (ZO_MIMALLOC): never mimalloc in a
# sanitized or Debug build, where ASan and valgrind intercept the C library's
grep -Eq "^allocator (mimalloc [0-9]+\.[0-9]+\.[0-9]+|the C library's malloc)\$" "$work/out" ||
  fail "version: no allocator line"
if [ -n "${ZO_EXPECT_ALLOCATOR:-}" ]; then # set by CTest from the build's choice
  grep -q "^allocator $ZO_EXPECT_ALLOCATOR" "$work/out" || fail "version: allocator is not $ZO_EXPECT_ALLOCATOR"
fi
ok
mkdir -p "$work/elsewhere"
(cd "$work/elsewhere" && timeout 300 "$bin" run --quiet --report-dir "$work/elsewhere/r" > "$work/out" 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "run without PATH from $work/elsewhere: exit $rc"
grep -q ' passed, 0 failed' "$work/out" || fail "run without PATH: no summary"
grep -q '"zoneoracle_version":"' "$work/elsewhere/r/run.jsonl" || fail "the run record has no zoneoracle_version"
ok
(cd "$work/elsewhere" && ZO_DATA_DIR="$work/nowhere" "$bin" check > "$work/out" 2>&1)
rc=$?
[ "$rc" -eq 2 ] && grep -q 'no case suite found (give a PATH or set ZO_DATA_DIR)' "$work/out" \
  || fail "no suite: exit $rc, expected 2"
ok
echo "version ok; run without PATH finds the suite from another directory"

# --engine-plugin @NAME names an engine a host process registered
# (zo_engine_register): none is, in the command, and no file is looked for
(cd "$work" && "$bin" gate --engine-plugin @nobody --report-dir "$work/r-at" "$src/cases" > "$work/out" 2>&1)
rc=$?
[ "$rc" -eq 4 ] && grep -q "engine '@nobody' could not be started or driven: no engine is registered under this name" "$work/out" \
  || fail "--engine-plugin @nobody: exit $rc, expected 4 with the reason"
ok

echo "cli: $passed checks passed"
