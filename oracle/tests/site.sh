#!/usr/bin/env bash
# zoneoracle site: three runs of two engines (the oracle, the oracle over
# zcp/1 as `serve`, and a run with a mutant whose header is rewritten to
# act as another engine's version) make one results site. index.html and
# the mutant's engine page are rendered in headless Chromium (screenshots,
# the DOM Chromium built): the conformance table holds the percentages the
# records give, the trend plot one polyline per engine, the disagreement
# list the cases the mutant breaks, each linking to its failure; no script
# and no address anywhere. A file that is not a run record is FILE:LINE
# and exit 2, and leaves the site as it was.
set -euo pipefail
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium not installed (ci/test installs Debian's chromium)"; exit 1; }
fail() { echo "FAIL: $*"; exit 1; }
mutant=fab:new_object=every_move

"$bin" run --quiet --report-dir "$work/r1" "$src/cases" >/dev/null
"$bin" gate --engine "$bin serve" --quiet --report-dir "$work/r2" "$src/cases" >/dev/null
rc=0
"$bin" run --quiet --report-dir "$work/r3" --mutant "$mutant" "$src/cases" >/dev/null || rc=$?
[ "$rc" = 1 ] || fail "the mutant run exited $rc, expected 1 (failures)"
# the mutant's run as the record of another engine, a day later
python3 - "$work/r3/run.jsonl" "$work/rival.jsonl" <<'EOF'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
head = json.loads(lines[0])
head.update(engine="rival-engine", engine_version="2.1.0", started="2099-01-02T03:04:05Z")
with open(sys.argv[2], "w", encoding="utf-8") as f:
    f.write(json.dumps(head) + "\n" + "\n".join(lines[1:]) + "\n")
EOF

"$bin" site --out "$work/site" "$work/r1/run.jsonl" "$work/r2/run.jsonl" "$work/rival.jsonl" > "$work/out.txt"
grep -q "3 runs .* of 2 engines" "$work/out.txt" || fail "unexpected summary: $(cat "$work/out.txt")"
page=engine-rival-engine-2.1.0.html
for f in index.html "$page" engine-zoneoracle-*.html; do
  ls "$work/site/"$f >/dev/null 2>&1 || fail "no $f in the site"
done

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --user-data-dir="$work/profile" --window-size=1400,1400)
for p in index.html "$page"; do
  timeout 120 "$browser" "${flags[@]}" --screenshot="$work/$p.png" "file://$work/site/$p" >/dev/null 2>&1
  size=$(stat -c %s "$work/$p.png")
  [ "$size" -gt 20000 ] || fail "screenshot of $p too small ($size bytes): nothing rendered?"
  head -c 8 "$work/$p.png" | od -An -tx1 | grep -q "89 50 4e 47" || fail "screenshot of $p is not a PNG"
  timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$work/site/$p" > "$work/$p.dom" 2>/dev/null
done
[ -n "${ZO_SITE_SHOTS:-}" ] && cp "$work"/*.png "$ZO_SITE_SHOTS"/

# the DOM against the records: percentages, polylines, disagreements, links
python3 - "$work" "$page" <<'EOF'
import json, re, sys
from html.parser import HTMLParser
work, page = sys.argv[1], sys.argv[2]

def record(path):
    lines = [json.loads(l) for l in open(path, encoding="utf-8")]
    cases = [l for l in lines if l["type"] == "case"]
    ran = [c for c in cases if c["status"] != "skip"]
    ok = [c for c in ran if c["status"] in ("pass", "xpass")]
    return cases, "%.1f%%" % (100.0 * len(ok) / len(ran)), len(ok), len(ran)

class Rows(HTMLParser):
    """The cells' text of table#conformance-table, row by row; the ids of rows."""
    def __init__(self):
        super().__init__()
        self.table = self.cell = None
        self.rows, self.ids, self.hrefs, self.polylines, self.svg = [], set(), [], 0, 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "conformance-table": self.table = True
        if tag == "tr" and self.table: self.rows.append([])
        if self.cell is not None: self.cell.append(" ")
        if tag in ("td", "th") and self.table: self.cell = []
        if "id" in a: self.ids.add(a["id"])
        if tag == "a" and "href" in a: self.hrefs.append(a["href"])
        if tag == "svg": self.svg += 1
        if tag == "polyline": self.polylines += 1
    def handle_endtag(self, tag):
        if tag == "table": self.table = None
        if tag in ("td", "th") and self.cell is not None and self.table:
            self.rows[-1].append(" ".join("".join(self.cell).split())); self.cell = None
    def handle_data(self, d):
        if self.cell is not None: self.cell.append(d)

idx = Rows(); idx.feed(open(f"{work}/index.html.dom", encoding="utf-8").read())
rows = {r[0]: r for r in idx.rows[1:]}
_, want_oracle, _, _ = record(f"{work}/r2/run.jsonl")  # the newest of zoneoracle 0.2.0
cases, want_rival, ok, ran = record(f"{work}/rival.jsonl")
assert set(rows) == {"rival-engine", "zoneoracle"}, rows.keys()
assert rows["zoneoracle"][3].startswith(want_oracle), (rows["zoneoracle"], want_oracle)
assert rows["rival-engine"][3].startswith(f"{want_rival} {ok} / {ran}"), (rows["rival-engine"], want_rival)
assert want_oracle == "100.0%" and want_rival != "100.0%", (want_oracle, want_rival)
assert idx.svg == 1 and idx.polylines == 2, ("svg", idx.svg, "polylines", idx.polylines)

def frag(s):
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch in "./-") else "".join("_%02X" % b for b in ch.encode()) for ch in s)

broken = [c for c in cases if c["status"] not in ("pass", "xpass", "skip")]
assert broken, "the mutant breaks no case"
for c in broken:  # each is a disagreement, its status linking to the failure
    key = frag(c["ruleset"]) + "~" + frag(c["id"])
    assert "d-" + key in idx.ids, "no disagreement row for " + c["id"]
    assert f"{page}#c-{key}" in idx.hrefs, "no link to the failure of " + c["id"]
eng = Rows(); eng.feed(open(f"{work}/{page}.dom", encoding="utf-8").read())
for c in broken:
    assert "c-" + frag(c["ruleset"]) + "~" + frag(c["id"]) in eng.ids, "engine page lacks " + c["id"]
assert "index.html" in eng.hrefs, "the engine page does not link back"
dom = open(f"{work}/{page}.dom", encoding="utf-8").read()
first = broken[0]
for s in (first["expected"], first["observed"], first["what"], ":%d" % first["line"]):
    assert s in dom, "engine page lacks " + s
print(f"site: zoneoracle {want_oracle}, rival-engine {want_rival}, {len(broken)} disagreements linked")
EOF

! grep -rqiE '<script|https?://' "$work/site" "$work"/*.dom || fail "the site is not self-contained"

# not a run record: FILE:LINE, exit 2, the site untouched
before=$(ls -l --time-style=full-iso "$work/site" | md5sum)
case_file=$(find "$src/cases/fab" -name '*.yaml' | sort | sed -n 1p) # sed reads it all: no SIGPIPE under pipefail
rc=0
"$bin" site --out "$work/site" "$work/r1/run.jsonl" "$case_file" 2> "$work/err.txt" || rc=$?
[ "$rc" = 2 ] || fail "a case file as a record exited $rc, expected 2"
grep -q "^$case_file:1: error: not a run record" "$work/err.txt" || fail "unexpected message: $(cat "$work/err.txt")"
{ cat "$work/r1/run.jsonl"; echo '{"type":"case","id":"x","ruleset":"fab","status":"sideways"}'; } > "$work/bad.jsonl"
n=$(wc -l < "$work/bad.jsonl")
rc=0
"$bin" site --out "$work/site" "$work/bad.jsonl" 2> "$work/err.txt" || rc=$?
[ "$rc" = 2 ] || fail "an unknown status exited $rc, expected 2"
grep -q "^$work/bad.jsonl:$n: error: case x: unknown status 'sideways'" "$work/err.txt" \
  || fail "unexpected message: $(cat "$work/err.txt")"
: > "$work/empty.jsonl"
rc=0
"$bin" site --out "$work/site" "$work/empty.jsonl" 2> "$work/err.txt" || rc=$?
[ "$rc" = 2 ] && grep -q "empty.jsonl:1: error: not a run record: empty file" "$work/err.txt" \
  || fail "an empty file: exit $rc, $(cat "$work/err.txt")"
[ "$(ls -l --time-style=full-iso "$work/site" | md5sum)" = "$before" ] || fail "a failed site changed the old one"
ls -a "$work" | grep -q zoneoracle-site && fail "a temporary directory was left behind"

# a site is replaced whole; a directory that is not a site is refused
"$bin" site --out "$work/site" "$work/r1/run.jsonl" >/dev/null
[ "$(ls "$work/site")" = "$(printf 'engine-zoneoracle-0.2.0.html\nindex.html')" ] || fail "old pages left: $(ls "$work/site")"
mkdir "$work/mine" && echo keep > "$work/mine/notes.txt"
rc=0
"$bin" site --out "$work/mine" "$work/r1/run.jsonl" 2> "$work/err.txt" || rc=$?
[ "$rc" = 2 ] && grep -q "notes.txt" "$work/err.txt" && [ -f "$work/mine/notes.txt" ] \
  || fail "a foreign directory: exit $rc, $(cat "$work/err.txt")"
# the command line: help, and usage errors exit 2
"$bin" site --help | grep -q "^usage: zoneoracle site" || fail "site --help"
"$bin" help site | grep -q "Conformance: (pass + xpass)" || fail "help site"
for args in "" "--out" "--frobnicate x.jsonl"; do
  rc=0
  "$bin" site $args >/dev/null 2>&1 || rc=$?
  [ "$rc" = 2 ] || fail "site $args: exit $rc, expected 2"
done
echo "site: ok"
