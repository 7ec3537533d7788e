#!/usr/bin/env bash
# Failures first: a run with six failing cases (three mutants of the
# oracle) renders index.html in headless Chromium at 1400x1000; the
# screenshot of that first screen must show a red status cell for every
# failing case (counted as bands of the failure colour in the picture),
# the DOM must list them in the failures table before anything else, and
# the first 30 lines of summary.md must name each one.
set -euo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium not installed (ci/test installs Debian's chromium)"; exit 1; }
py=python3
$py -c 'import PIL' 2>/dev/null || py=/usr/bin/python3 # Debian's python3-pil
rc=0
"$bin" run --quiet --mutant fab:look=hand_owner --mutant fab:draw_empty=lose_at_state_check \
  --mutant mtg-current:ante.reorder --report-dir "$work/r" "$src/cases/fab" "$src/cases/mtg" >/dev/null || rc=$?
[ "$rc" -eq 1 ] || { echo "run with mutants: exit $rc, expected 1"; exit 1; }
grep '"type":"case"' "$work/r/run.jsonl" | grep '"status":"fail"' | sed 's/.*"id":"\([^"]*\)".*/\1/' > "$work/failing"
n=$(wc -l < "$work/failing")
[ "$n" -eq 6 ] || { echo "expected 6 failing cases, the record has $n"; exit 1; }
# summary.md: every failure within its first 30 lines (read from a file:
# grep -q leaving a pipe early would kill head with SIGPIPE under pipefail)
head -30 "$work/r/summary.md" > "$work/head30"
while read -r id; do
  grep -qF "\`$id\`" "$work/head30" || { echo "summary.md: $id not in the first 30 lines"; exit 1; }
done < "$work/failing"
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --user-data-dir="$work/profile" --window-size=1400,1000 --hide-scrollbars)
timeout 120 "$browser" "${flags[@]}" --screenshot="$work/shot.png" "file://$work/r/index.html" >/dev/null 2>&1
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$work/r/index.html" > "$work/dom.html" 2>/dev/null
"$py" - "$work/shot.png" "$work/dom.html" "$work/failing" <<'PY'
import re, sys
from PIL import Image
shot, dom, failing = sys.argv[1:]
ids = [l.strip() for l in open(failing) if l.strip()]
img = Image.open(shot).convert("RGB")
w, h = img.size
assert (w, h) == (1400, 1000), "screenshot is %dx%d" % (w, h)
px = img.load()
FAIL = (0xf6, 0xb8, 0xb8)  # td.fail
bands, inside = 0, False
for y in range(h):
    red = sum(1 for x in range(0, w, 2) if px[x, y] == FAIL) >= 10
    if red and not inside:
        bands += 1
    inside = red
assert bands == len(ids), "the first screen shows %d failing rows, the run has %d" % (bands, len(ids))
html = open(dom, encoding="utf-8").read()
table = html.find('<table id="failures">')
assert table >= 0, "no failures table"
for other in ('id="scenarios"', 'id="skips"', 'id="matrix-', 'id="cases"'):
    at = html.find(other)
    assert at < 0 or at > table, "%s comes before the failures" % other
rows = re.findall(r'<table id="failures">(.*?)</table>', html, re.S)[0]
for i in ids:
    assert i in rows, "%s not in the failures table" % i
print("first screen: %d failing rows of %d visible; summary.md names each in its first 30 lines" % (bands, len(ids)))
PY
