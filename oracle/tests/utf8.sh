#!/usr/bin/env bash
# Reports are valid UTF-8 always, and every record that should exist
# exists: invalid case files whose messages hold invalid UTF-8 (a Latin-1
# file name, invalid bytes in the file, a long non-ASCII name cut by a
# fixed buffer) are each in run.jsonl, junit.xml, summary.md and
# index.html; an engine with a long non-ASCII name keeps its header; an
# engine's long non-ASCII error messages stay in the case's message. Every
# report file decodes as strict UTF-8, run.jsonl and badge.json as JSON,
# junit.xml as XML.
#   utf8.sh ZONEORACLE SOURCE_DIR
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 ZONEORACLE SOURCE_DIR" >&2; exit 2; }
bin=$1 src=$2 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "utf8: FAIL: $*"; exit 1; }
command -v python3 >/dev/null || fail "python3 is needed"
template="$src/cases/mtg/400.3-aven-fisher-goes-to-owner-graveyard.yaml"
euro=$(printf '\xe2\x82\xac')

# check_reports DIR: every file strictly UTF-8; JSON Lines, JSON, XML parse
check_reports() {
  python3 - "$1" <<'EOF' || fail "reports in $1 are not valid"
import json, os, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
for name in sorted(os.listdir(d)):
    p = os.path.join(d, name)
    if not os.path.isfile(p) or name.startswith('.'):
        continue
    raw = open(p, 'rb').read()
    try:
        text = raw.decode('utf-8', 'strict')
    except UnicodeDecodeError as e:
        sys.exit(f"{name}: not UTF-8: {e}")
    if name.endswith('.jsonl'):
        for i, line in enumerate(text.splitlines(), 1):
            json.loads(line)
    elif name.endswith('.json'):
        json.loads(text)
    elif name.endswith('.xml'):
        ET.fromstring(raw)
EOF
}

# --- invalid case files with invalid UTF-8 in their messages -------------
mkdir -p "$work/cases"
cp "$template" "$work/cases/good.yaml"
printf 'id: [\n' > "$work/cases/caf$(printf '\xe9').yaml"                 # Latin-1 file name
printf 'id: x\ntitle: "caf\xe9"\n' > "$work/cases/bad-bytes.yaml"          # invalid bytes inside
long=""
for i in $(seq 1 250); do long="$long$euro"; done
for pre in "" a ab; do                                                        # cut at every offset
  sed "s|^id: .*|id: utf8/long-$pre|; s|zone: battlefield, types|zone: $pre$long, types|" \
    "$template" > "$work/cases/long-zone-$pre.yaml"
done
ninvalid=5
"$bin" run --report-dir "$work/r" "$work/cases" > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 3 ] || { cat "$work/out"; fail "run: exit $rc, expected 3 (invalid case files)"; }
check_reports "$work/r"
n=$(grep -c '"type":"invalid"' "$work/r/run.jsonl")
[ "$n" -eq "$ninvalid" ] || fail "run.jsonl: $n invalid-file records, expected $ninvalid"
grep -q '"file":"[^"]*caf\\\\xE9.yaml"' "$work/r/run.jsonl" || fail "run.jsonl: the Latin-1 file name is not shown as caf\\xE9.yaml"
n=$(grep -c '<testcase classname="case files"' "$work/r/junit.xml")
[ "$n" -eq "$ninvalid" ] || fail "junit.xml: $n invalid-file test cases, expected $ninvalid"
for f in 'caf\xE9.yaml' bad-bytes.yaml long-zone-.yaml long-zone-a.yaml long-zone-ab.yaml; do
  grep -qF "$f" "$work/r/summary.md" || fail "summary.md lacks $f"
  grep -qF "$f" "$work/r/index.html" || fail "index.html lacks $f"
done
grep -q '"type":"case".*"status":"pass"' "$work/r/run.jsonl" || fail "the good case is not in run.jsonl"
echo "invalid case files with invalid UTF-8: all $ninvalid in every report, every report valid UTF-8"

# --- an engine with a long non-ASCII name and non-ASCII error messages ---
cat > "$work/proxy.py" <<'EOF'
# zoneoracle serve behind a proxy: a long non-ASCII engine name and
# version, and error answers with long non-ASCII messages for three setups
import json, subprocess, sys
serve = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding='utf-8')
setups = 0
for line in sys.stdin:
    req = json.loads(line)
    if req.get('op') == 'setup':
        setups += 1
        if setups in (2, 3, 4):
            msg = 'x' * (setups - 2) + '\u20ac' * 250
            serve.stdin.write(line); serve.stdin.flush(); serve.stdout.readline()
            print(json.dumps({"id": req.get("id"), "ok": False,
                              "error": {"code": "bad_request", "message": msg}}, ensure_ascii=False), flush=True)
            continue
    serve.stdin.write(line); serve.stdin.flush()
    ans = json.loads(serve.stdout.readline())
    if req.get('op') == 'hello':
        ans['engine'] = 'moteur-' + '\u20ac' * 40
        ans['version'] = 'v' + '\u00e9' * 40
    print(json.dumps(ans, ensure_ascii=False), flush=True)
    if req.get('op') == 'bye':
        break
EOF
"$bin" gate --engine "python3 $work/proxy.py $bin serve" --report-dir "$work/g" --timeout 20 \
  "$src/cases/mtg/eras" > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { tail -5 "$work/out"; fail "gate with the proxy: exit $rc, expected 1 (three errors)"; }
check_reports "$work/g"
head -1 "$work/g/run.jsonl" | grep -q "\"type\":\"header\".*\"engine\":\"moteur-$euro$euro" \
  || fail "run.jsonl: no header with the engine's non-ASCII name"
n=$(grep -c '"status":"error"' "$work/g/run.jsonl")
[ "$n" -eq 3 ] || fail "run.jsonl: $n errors, expected 3"
n=$(grep '"status":"error"' "$work/g/run.jsonl" | grep -c "\"message\":\"[^\"]*$euro$euro$euro")
[ "$n" -eq 3 ] || fail "run.jsonl: $n of the 3 errors keep the engine's non-ASCII message"
grep -q 'moteur-' "$work/g/summary.md" && grep -q 'moteur-' "$work/g/index.html" || fail "summary.md or index.html lacks the engine name"
echo "engine with a non-ASCII name and messages: header kept, 3 errors with their messages, every report valid UTF-8"
echo "utf8: all checks passed"
