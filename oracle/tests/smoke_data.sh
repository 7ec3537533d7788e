#!/usr/bin/env bash
# smoke_data.sh ZONEORACLE SOURCE_DIR: smoke's cases are data
# (oracle/smoke/: checks.yaml and cases/), read before the engine starts:
# a copy of them works from $ZO_DATA_DIR; missing, unreadable or broken
# ones stop smoke with exit 2 and the file, line and column, never an
# engine's failure and never a crash.
set -uo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "smoke_data: FAIL: $1"; [ -f "$work/out" ] && cat "$work/out"; exit 1; }
engine="$bin serve"

# smoke with the data in DIR ($ZO_DATA_DIR); rc in $rc
smoke_in() {
  ZO_DATA_DIR=$1 timeout 60 "$bin" smoke --engine "$engine" > "$work/out" 2>&1
  rc=$?
}
# a fresh copy of the data as $work/d/smoke
fresh() { rm -rf "$work/d"; mkdir -p "$work/d"; cp -r "$src/oracle/smoke" "$work/d/smoke"; }
# refused DIR PATTERN WHAT: exit 2 before the engine, the message matching
refused() {
  [ "$rc" -eq 2 ] || fail "$3: exit $rc, expected 2"
  grep -q "$2" "$work/out" || fail "$3: no message matching '$2'"
  ! grep -q '^smoke: ' "$work/out" || fail "$3: the engine was started"
  echo "$3: exit 2, $(grep -m1 'error:\|not found' "$work/out")"
}

fresh
smoke_in "$work/d"
[ "$rc" -eq 0 ] || fail "a copy of the data: exit $rc"
grep -Eq '^([0-9]+) checks: \1 ok, 0 failed, 0 skipped' "$work/out" || fail "a copy of the data: not all ok"
echo "a copy in \$ZO_DATA_DIR: $(tail -1 "$work/out")"

mkdir -p "$work/empty"
smoke_in "$work/empty"
refused "$work/empty" "its cases are not found: no folder $work/empty/smoke" "no smoke folder"

fresh
rm "$work/d/smoke/cases/marks.yaml"
smoke_in "$work/d"
refused "$work/d" "checks.yaml:[0-9]*:[0-9]*: error: check marks: case file marks.yaml cannot be read" "a case file missing"

fresh
sed -i 's/^steps:/stepz:/' "$work/d/smoke/cases/look.yaml"
smoke_in "$work/d"
refused "$work/d" "cases/look.yaml:[0-9]*:[0-9]*: error: .*stepz" "a broken case file"

fresh
printf 'core: [core.yaml]\nwings: [core.yaml]\n' > "$work/d/smoke/checks.yaml"
smoke_in "$work/d"
refused "$work/d" "checks.yaml:2:1: error: 'wings' is neither core nor a protocol feature" "an unknown check"

fresh
printf 'core: [core.yaml\n' > "$work/d/smoke/checks.yaml"
smoke_in "$work/d"
refused "$work/d" "checks.yaml:[0-9]*:[0-9]*: error: " "checks.yaml not YAML"

fresh
printf 'triggers: [triggers.yaml]\n' > "$work/d/smoke/checks.yaml"
smoke_in "$work/d"
refused "$work/d" "checks.yaml: error: no core case" "no core check"

fresh
rm "$work/d/smoke/checks.yaml"
smoke_in "$work/d"
refused "$work/d" "checks.yaml: error: .*cannot" "no checks.yaml"
echo "smoke_data: ok"
