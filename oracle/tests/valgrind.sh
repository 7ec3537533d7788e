#!/usr/bin/env bash
# valgrind (memcheck) over the library as the CLI drives it: the suite run,
# check and rule coverage, the mutants, a user's rule set file, and the error
# paths (every malformed case and rule set file, a rule set id already
# loaded). Any invalid read or write, use of uninitialised memory, or a
# definite, indirect or possible leak fails the test; the first report of
# each failing command is shown (rerun it with --track-origins=yes to see
# where an uninitialised value comes from). Builds nothing: give it a zoneoracle built
# WITHOUT sanitizers (valgrind can't run an ASan binary), e.g.
#   cmake -S . -B build-vg -DCMAKE_BUILD_TYPE=Debug -DBUILD_TESTING=OFF
#   cmake --build build-vg && oracle/tests/valgrind.sh build-vg/bin/zoneoracle .
# Exit 0 all clean, 1 an error or a leak, 2 usage, 77 skipped (valgrind not
# installed, or the binary is built with ASan/TSan/MSan): CTest's
# SKIP_RETURN_CODE.
#   valgrind.sh ZONEORACLE SOURCE_DIR
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 ZONEORACLE SOURCE_DIR" >&2; exit 2; }
bin=$1 src=$2
[ -x "$bin" ] || { echo "valgrind.sh: $bin is not an executable" >&2; exit 2; }
[ -d "$src/cases" ] || { echo "valgrind.sh: $src has no cases/" >&2; exit 2; }
if ! command -v valgrind >/dev/null 2>&1; then
  echo "valgrind.sh: SKIPPED: valgrind is not installed (apt-get install valgrind)"
  exit 77
fi
if grep -qaE '__(asan|tsan|msan)_init' "$bin"; then
  echo "valgrind.sh: SKIPPED: $bin is built with a sanitizer; valgrind needs a build without one"
  echo "  (cmake -DZO_SANITIZE= ..., or -DBUILD_TESTING=OFF in a directory of its own)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 ran=0

# vg EXPECTED_EXIT NAME ARGS...: zoneoracle ARGS under memcheck; the
# command's own exit code must be EXPECTED_EXIT, and valgrind must report
# nothing (its own exit code 99 means it did).
vg() {
  local want=$1 name=$2
  shift 2
  ran=$((ran + 1))
  (cd "$src" && valgrind -q --error-exitcode=99 --leak-check=full \
      --errors-for-leak-kinds=definite,indirect,possible --show-leak-kinds=definite,indirect,possible \
      --log-file="$work/$name.vg" "$bin" "$@" > "$work/$name.out" 2>&1)
  local rc=$?
  if [ -s "$work/$name.vg" ] || [ "$rc" -eq 99 ]; then
    echo "valgrind.sh: FAIL: $name (zoneoracle $*): memcheck reports:"
    head -40 "$work/$name.vg"
    failed=$((failed + 1))
  elif [ "$rc" -ne "$want" ]; then
    echo "valgrind.sh: FAIL: $name (zoneoracle $*): exit $rc, expected $want"
    tail -5 "$work/$name.out"
    failed=$((failed + 1))
  else
    echo "ok    $name: $(if [ "$want" -eq 0 ]; then tail -1; else head -1; fi < "$work/$name.out")"
  fi
}

vg 0 run run --quiet --report-dir "$work/reports" cases
vg 0 check check cases
vg 0 rules rules cases
vg 0 mutants mutants cases
vg 0 ruleset-file check --ruleset-file oracle/tests/ruleset-file/my-game.yaml \
  oracle/tests/ruleset-file/my-game-case.yaml
# error paths: every malformed case file, each malformed rule set file, an id taken
vg 3 malformed-cases check oracle/tests/malformed
vg 3 malformed-run run --quiet --report-dir "$work/reports-bad" oracle/tests/malformed
n=0
for f in "$src"/oracle/tests/malformed/rulesets/*.yaml; do
  n=$((n + 1))
  vg 3 "malformed-ruleset-$n" check --ruleset-file "$f" "$work"
done
sed 's/^id: my-game$/id: mtg-2011/' "$src/oracle/tests/ruleset-file/my-game.yaml" > "$work/taken.yaml"
vg 3 id-taken check --ruleset-file "$work/taken.yaml" "$work"

echo "valgrind.sh: $ran commands under memcheck, $failed failed"
[ "$failed" -eq 0 ]
