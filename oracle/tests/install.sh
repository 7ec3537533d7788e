#!/usr/bin/env bash
# install.sh SOURCE_DIR: a release build (no sanitizers, as a package is
# built), `cmake --install` into a fresh prefix, and the result used as a
# stranger would, from outside the source tree:
#   - the installed zoneoracle runs the installed suite from another
#     directory with no PATH (every case passes), and `version`, `rules`
#     and `check` work there too; `gate --help` names the installed
#     documents; `smoke` reads its installed cases;
#   - a CMake project finds it with find_package(zoneoracle) and links the
#     library; a plain cc command links it through pkg-config;
#   - the tree holds the headers, the data and the documentation, whose
#     relative links all lead to installed files (doc_links.py).
set -euo pipefail
src=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "install: FAIL: $*" >&2; exit 1; }
build="$work/build"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DZO_BUILD_FUZZERS=OFF >/dev/null \
  || fail "configure"
cmake --build "$build" -j"$(nproc)" >/dev/null || fail "build"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null || fail "cmake --install"
for f in bin/zoneoracle include/zoneoracle/zo.h include/zoneoracle/zo_engine.h \
         share/zoneoracle/protocol/PROTOCOL.md share/zoneoracle/protocol/validate.py \
         share/zoneoracle/protocol/validate_report.py share/zoneoracle/protocol/run-record.schema.json \
         share/zoneoracle/protocol/badge.schema.json share/zoneoracle/protocol/known-gaps.schema.json \
         share/zoneoracle/rulesets/RULESETS.md share/zoneoracle/rulesets/schema.json \
         share/zoneoracle/cases/README.md share/zoneoracle/cases/schema.json \
         share/zoneoracle/smoke/checks.yaml share/zoneoracle/smoke/cases/core.yaml \
         share/doc/zoneoracle/LICENSE share/doc/zoneoracle/CHANGELOG.md \
         share/doc/zoneoracle/INVARIANTS.md; do
  [ -e "$prefix/$f" ] || fail "the install has no $f"
done
python3 "$src/oracle/tests/doc_links.py" --prefix "$prefix" > "$work/links.out" \
  || { cat "$work/links.out"; fail "broken links in the installed documents"; }
pc=$(find "$prefix" -name zoneoracle.pc | head -1)
cfg=$(find "$prefix" -name zoneoracleConfig.cmake | head -1)
[ -n "$pc" ] && [ -n "$cfg" ] || fail "no zoneoracle.pc or zoneoracleConfig.cmake"

# the installed CLI, from a directory that is not the source tree, and
# with the source tree out of reach (moved prefix: relocatable)
mv "$prefix" "$work/moved"
prefix="$work/moved"
pc=$(find "$prefix" -name zoneoracle.pc | head -1)
mkdir "$work/elsewhere"
cd "$work/elsewhere"
zo="$prefix/bin/zoneoracle"
"$zo" version | grep -q "^zoneoracle [0-9]" || fail "version"
# the help names the installed documents, not the source tree's
"$zo" gate --help > "$work/help.out" || fail "gate --help"
for doc in PROTOCOL.md INVARIANTS.md; do
  path=$(awk -v d="$doc" '$1 == d { print $2 }' "$work/help.out")
  case $path in "$(cd "$prefix" && pwd -P)"/*) ;; *) fail "gate --help names $doc as '$path', not in the install";; esac
  [ -f "$path" ] || fail "gate --help names $path, which is not there"
done
! grep -q "ci/protocol\|fuzz/INVARIANTS" "$work/help.out" || fail "gate --help names source-tree paths"
"$zo" run --quiet --report-dir "$work/reports" > "$work/run.out" 2>&1 || { cat "$work/run.out"; fail "installed run"; }
tail -1 "$work/run.out" | grep -Eq '^[1-9][0-9]* passed, 0 failed' || fail "installed run: $(tail -1 "$work/run.out")"
n_src=$(find "$src/cases" -name '*.yaml' | wc -l)
n_inst=$(find "$prefix/share/zoneoracle/cases" -name '*.yaml' | wc -l)
[ "$n_src" = "$n_inst" ] || fail "installed $n_inst case files, the source has $n_src"
"$zo" check > "$work/check.out" 2>&1 || fail "installed check"
grep -q "^$n_src case files checked, 0 invalid" "$work/check.out" || fail "check: $(cat "$work/check.out")"
[ -s "$work/reports/run.jsonl" ] || fail "no run record"
grep -q '"suite_commit"' "$work/reports/run.jsonl" || fail "no suite commit in the run record"
# smoke's cases are installed data: every one there, and the installed
# smoke reads them (not the source tree's: one taken away is named there)
n_src=$(find "$src/oracle/smoke" -name '*.yaml' | wc -l)
n_inst=$(find "$prefix/share/zoneoracle/smoke" -name '*.yaml' | wc -l)
[ "$n_src" = "$n_inst" ] || fail "installed $n_inst smoke files, the source has $n_src"
"$zo" smoke --engine "$zo serve" > "$work/smoke.out" 2>&1 || { cat "$work/smoke.out"; fail "installed smoke"; }
grep -Eq '^([0-9]+) checks: \1 ok, 0 failed, 0 skipped' "$work/smoke.out" || fail "installed smoke: $(tail -1 "$work/smoke.out")"
mv "$prefix/share/zoneoracle/smoke/cases/core.yaml" "$work/core.yaml"
rc=0; "$zo" smoke --engine "$zo serve" > "$work/smoke.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "smoke without an installed case file: exit $rc, expected 2"
grep -q "$prefix/share/zoneoracle/smoke/checks.yaml:[0-9]*:[0-9]*: error: check core: case file core.yaml cannot be read" \
  "$work/smoke.out" || fail "smoke without an installed case file: $(cat "$work/smoke.out")"
mv "$work/core.yaml" "$prefix/share/zoneoracle/smoke/cases/core.yaml"

# find_package(zoneoracle)
cmake -S "$src/oracle/tests/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null \
  || fail "find_package(zoneoracle)"
cmake --build "$work/consumer" >/dev/null || fail "building against zoneoracle::zoneoracle"
"$work/consumer/consumer" | grep -q "set up under 2 rule sets" || fail "the find_package consumer"

# pkg-config
flags=$(PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --cflags --libs zoneoracle) || fail "pkg-config"
cc -std=c11 -o "$work/pc-consumer" "$src/oracle/tests/consumer/consumer.c" -DZO_DATA_DIR='"pkg-config"' $flags \
  || fail "cc with pkg-config --cflags --libs zoneoracle ($flags)"
"$work/pc-consumer" | grep -q "set up under 2 rule sets" || fail "the pkg-config consumer"
echo "install: the installed CLI ran $n_inst case files from another directory; find_package and pkg-config consumers built and ran"
