#!/usr/bin/env bash
# The HTML report renders in a real browser: run two case folders, render
# index.html in headless Chromium (Debian's chromium; no network), take a
# screenshot and dump the DOM Chromium built, and check the matrix is there
# with a passing cell for a rule each rule set is known to cover, and the
# transition tables.
set -euo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium not installed (ci/test installs Debian's chromium)"; exit 1; }
"$bin" run --quiet --report-dir "$work/r" "$src/cases/mtg" "$src/cases/fab" >/dev/null
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --user-data-dir="$work/profile" --window-size=1400,1000)
timeout 120 "$browser" "${flags[@]}" --screenshot="$work/shot.png" "file://$work/r/index.html" >/dev/null 2>&1
size=$(stat -c %s "$work/shot.png")
[ "$size" -gt 20000 ] || { echo "screenshot too small ($size bytes): nothing rendered?"; exit 1; }
head -c 8 "$work/shot.png" | od -An -tx1 | grep -q "89 50 4e 47" || { echo "not a PNG"; exit 1; }
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$work/r/index.html" > "$work/dom.html" 2>/dev/null
for game in mtg fab; do grep -q "<table id=\"matrix-$game\">" "$work/dom.html" || { echo "no matrix table for $game in the rendered page"; exit 1; }; done
for rs in fab mtg-2011; do
  grep -q "<th>$rs</th>" "$work/dom.html" || { echo "no column for $rs"; exit 1; }
done
# the row of FaB 3.0.7b holds a passing cell linking to a case
grep -A0 -E '<td class="seed">FaB 3.0.7b</td>' "$work/dom.html" | grep -q 'class="cell pass"' \
  || { echo "FaB 3.0.7b row has no passing cell"; exit 1; }
grep -q 'href="#c-fab-fab-3-0-7b' "$work/dom.html" || { echo "cells do not link to cases"; exit 1; }
# the transition tables (zoneoracle table) of every rule set of the run,
# as Chromium built them: a token leaving the battlefield ceases at the
# state check in mtg-current (CR 704.5d), and leaving the arena in FaB
for rs in fab mtg-current; do
  grep -q "<details class=\"ttable\" id=\"table-$rs\">" "$work/dom.html" || { echo "no transition table of $rs"; exit 1; }
done
grep -q 'CR 704.5d' "$work/dom.html" || { echo "the mtg-current table does not show CR 704.5d"; exit 1; }
grep -q 'FaB 8.1.8a' "$work/dom.html" || { echo "the fab table does not show FaB 8.1.8a"; exit 1; }
! grep -qiE '<script|https?://' "$work/r/index.html" || { echo "page is not self-contained"; exit 1; }
echo "rendered: screenshot $size bytes, matrix and transition tables present"
