#!/usr/bin/env bash
# zoneoracle gate --validate: every message of a run against ci/protocol's
# JSON Schemas. The oracle over the whole suite: all valid, transcript in
# REPORT_DIR/protocol.jsonl. An engine answering one observe with a
# wrong-typed field: exit 1 and that message's transcript line, schema and
# JSON path. No jsonschema: exit 2 naming the Debian package.
set -uo pipefail
bin=$1 fake=$2 src=$3 work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$src"
fail() { echo "$1"; [ -f "$work/out" ] && tail -15 "$work/out"; exit 1; }

"$bin" gate --validate --engine "$bin serve" --quiet --report-dir "$work/r-serve" cases > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "serve: exit $rc, expected 0"
t="$work/r-serve/protocol.jsonl"
[ -s "$t" ] || fail "serve: no $t"
n=$(wc -l < "$t")
grep -q "^[0-9]* passed, 0 failed, 0 skipped; $n protocol messages valid$" "$work/out" \
  || fail "serve: the summary does not say all $n messages are valid"
for op in hello setup step observe bye; do
  for dir in request response; do
    grep -q "^{\"dir\":\"$dir\",\"op\":\"$op\",\"message\":{" "$t" || fail "serve: no $op $dir in the transcript"
  done
done
echo "serve: the whole suite, $n messages (hello, setup, step, observe, bye) valid"
"$bin" gate --validate --engine "python3 ci/adapters/python/engine.py" --quiet --report-dir "$work/r-py" cases \
  > "$work/out" 2>&1 || fail "python adapter: exit $?, expected 0"
echo "python adapter: $(tail -1 "$work/out")"

rm -f "$work/count"
FAKE_ENGINE_COUNT="$work/count" "$bin" gate --validate --engine "$fake badschema 2" --quiet \
  --report-dir "$work/r-bad" cases/mtg/eras > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "badschema: exit $rc, expected 1"
t="$work/r-bad/protocol.jsonl"
loc=$(grep -o "^$t:[0-9]*: response observe (id [0-9]*) does not match observe.response.json: at \\\$\\.objects\\.[^.]*\\.layer: " "$work/out") \
  || fail "badschema: the invalid message's line, schema and path are not shown"
line=$(sed 's/^[^:]*:\([0-9]*\):.*/\1/' <<<"$loc")
sed -n "${line}p" "$t" | grep -q '^{"dir":"response","op":"observe",.*"layer":"bottom"' \
  || fail "badschema: transcript line $line is not the wrong-typed observe answer"
# the runner reads every answer against the protocol too (PROTOCOL.md 8):
# the case whose observation is wrong fails as an engine error naming the
# field, with or without --validate
grep -q "^[0-9]* passed, 1 failed, 0 skipped; 1 of $(wc -l < "$t") protocol messages invalid$" "$work/out" \
  || fail "badschema: the summary line does not say so"
grep -q 'engine error: the observe answer is not one zcp/[12] defines: \$\.objects\.[^.]*\.layer must be null or an integer' \
  "$work/out" || fail "badschema: the engine error does not name \$.objects.*.layer"
echo "badschema: exit 1, transcript line $line, observe.response.json, \$.objects.*.layer"

# validate.py on its own, under every Python at hand with jsonschema (the
# Debian package's 4.10 uses RefResolver, 4.18 and later referencing); error
# answers are checked against error.response.json
e="$work/errors.jsonl"
{
  echo '{"dir":"request","op":"setup","message":{"op":"setup","id":2,"ruleset":"x","players":["a"],"cards":{}}}'
  echo '{"dir":"response","op":"setup","message":{"id":2,"ok":false,"error":{"code":"unsupported","message":"no x"}}}'
  echo '{"dir":"response","op":"frobnicate","message":{"id":null,"ok":false,"error":{"code":"bad_request","message":"?"}}}'
  echo '{"dir":"response","op":"step","message":{"id":4,"ok":false,"error":{"code":"no_such_code","message":"?"}}}'
  echo '{"dir":"response","op":"setup","raw":"this is not JSON"}'
} > "$e"
for py in python3 /usr/bin/python3; do
  command -v "$py" >/dev/null && "$py" -c 'import jsonschema' 2>/dev/null || continue
  v=$("$py" -c 'import importlib.metadata as m; print(m.version("jsonschema"))' 2>/dev/null)
  out=$("$py" ci/protocol/validate.py "$t")
  [ $? -eq 1 ] && grep -q "^$t:$line: .*observe.response.json: at \\\$\\.objects\\.[^.]*\\.layer: " <<<"$out" \
    || fail "validate.py under $py (jsonschema $v): $out"
  "$py" ci/protocol/validate.py "$work/r-serve/protocol.jsonl" > /dev/null || fail "validate.py under $py: serve invalid"
  out=$("$py" ci/protocol/validate.py "$e")
  [ $? -eq 1 ] && [ "$(grep -c "^$e:" <<<"$out")" -eq 2 ] \
    && grep -q "^$e:4: response step (id 4) does not match error.response.json: at \\\$\\.error\\.code: " <<<"$out" \
    && grep -q "^$e:5: response setup is not JSON" <<<"$out" \
    && grep -q "^protocol: 5 messages checked, 2 invalid$" <<<"$out" || fail "validate.py under $py, error answers: $out"
  echo "validate.py under $py, jsonschema $v: the same finding"
done

# no jsonschema: python3 without site-packages
printf '#!/bin/sh\nexec python3 -S "$@"\n' > "$work/python-bare"
chmod +x "$work/python-bare"
ZO_PYTHON="$work/python-bare" "$bin" gate --validate --engine "$bin serve" --quiet \
  --report-dir "$work/r-nojs" cases > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q 'install the Debian package python3-jsonschema' "$work/out" \
  || fail "no jsonschema: exit $rc, expected 2 and the package named"
echo "no jsonschema: exit 2, python3-jsonschema named"
