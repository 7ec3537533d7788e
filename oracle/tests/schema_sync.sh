#!/usr/bin/env bash
# schema_sync.sh SOURCE_DIR ZONEORACLE: the step language's JSON Schema is written
# once, in cases/schema.json; ci/protocol/common.json's copy is generated
# from it by ci/sync-schemas. The tree is in step, and the check finds each
# way the two could part: a generated definition edited in common.json,
# cases/schema.json changed without running the script, a definition
# written by hand in both, a generated one left behind. And cases/schema.json
# follows the step table (`zoneoracle steps`): every kind, option,
# required option and feature of the table, and no other.
set -uo pipefail
src=$1 exe=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "schema_sync: FAIL: $1"; cat "$work/out" 2>/dev/null; exit 1; }

ZONEORACLE=$exe python3 "$src/ci/sync-schemas" --check "$src" > "$work/out" ||
  fail "the tree is not in step (with the step table)"
cat "$work/out"

# parted KIND PYTHON PATTERN: a copy of the two files, changed by PYTHON
# (t: the tree), must fail the check with a line matching PATTERN
parted() {
  rm -rf "$work/t"; mkdir -p "$work/t/cases" "$work/t/ci/protocol"
  cp "$src/cases/schema.json" "$work/t/cases/"; cp "$src/ci/protocol/common.json" "$work/t/ci/protocol/"
  T="$work/t" python3 -c "import json, os
t = os.environ['T']
case = json.load(open(t + '/cases/schema.json')); common = json.load(open(t + '/ci/protocol/common.json'))
$2
json.dump(case, open(t + '/cases/schema.json', 'w'), indent=2); json.dump(common, open(t + '/ci/protocol/common.json', 'w'), indent=2)"
  ${WITH_TABLE:+env ZONEORACLE=$exe} python3 "$src/ci/sync-schemas" --check "$work/t" > "$work/out"
  rc=$?
  [ "$rc" -eq 1 ] || fail "$1: exit $rc, expected 1"
  grep -q "$3" "$work/out" || fail "$1: no line matching '$3'"
  echo "$1: found ($(grep -m1 "$3" "$work/out"))"
}
parted "a generated definition edited in common.json" \
  "common['\$defs']['face']['enum'] = ['up']" 'defs/face differs'
parted "cases/schema.json changed, common.json not regenerated" \
  "case['\$defs']['kind']['description'] = 'changed'" 'defs/kind differs'
parted "a definition written by hand in both" \
  "d = dict(common['\$defs']['seed']); d.pop('\$comment'); common['\$defs']['seed'] = d" 'defs/seed is written by hand in both'
parted "a generated definition the case schema no longer has" \
  "del case['\$defs']['step_as_enters']; case['\$defs']['step']['properties'].pop('as_enters')" \
  'defs/step_as_enters is marked generated'
WITH_TABLE=1 parted "an option of the step table missing from cases/schema.json" \
  "del case['\$defs']['step_attach']['properties']['to']" 'step_attach differs from the step table'
WITH_TABLE=1 parted "a required option the table does not require" \
  "case['\$defs']['step_look']['required'].append('card')" 'step_look differs from the step table'
WITH_TABLE=1 parted "a step kind the table does not have" \
  "case['\$defs']['step']['properties']['unmove'] = {'\$ref': '#/\$defs/step_move'}" 'step differs from the step table'
WITH_TABLE=1 parted "a feature missing from the case file's features" \
  "case['properties']['features']['items']['enum'].remove('cant')" 'features differs from the step table'
echo "schema_sync: ok"
