#!/usr/bin/env bash
# The real engines' results kept in the repository (reports/engines/, one
# folder per engine of ci/engines/): every run record still reads as one
# (the run record's schema), every known-gaps file of ci/engines/ is valid,
# and `zoneoracle site` renders them side by side: a page per engine and
# version, each engine named on the index. CI cannot build the engines (no
# network), so this is what keeps their records usable.
#   engine_records.sh ZONEORACLE SOURCE_DIR WORK_DIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 ZONEORACLE SOURCE_DIR WORK_DIR" >&2; exit 2; }
bin=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 2
fail() { echo "engine_records: FAIL: $*"; exit 1; }
cd "$src" || exit 2
shopt -s nullglob
records=(reports/engines/*/*.jsonl)
[ ${#records[@]} -gt 0 ] || fail "no run record under reports/engines/"
python3 ci/protocol/validate_report.py --kind run "${records[@]}" >"$work/out" 2>&1 || { cat "$work/out"; fail "a run record is invalid"; }
gaps=(ci/engines/*/known-gaps.yaml)
[ ${#gaps[@]} -eq 0 ] || python3 ci/protocol/validate_report.py --kind known-gaps "${gaps[@]}" >"$work/out" 2>&1 ||
  { cat "$work/out"; fail "a known-gaps file is invalid"; }
"$bin" site --out "$work/site" "${records[@]}" >"$work/out" 2>&1 || { cat "$work/out"; fail "site did not render the records"; }
for d in reports/engines/*/; do
  e=$(basename "$d")
  grep -qi "$e" "$work/site/index.html" || fail "the site's index does not name engine $e"
done
echo "engine_records: ${#records[@]} run records of $(ls -d reports/engines/*/ | wc -l) engines valid and rendered"
