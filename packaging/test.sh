#!/usr/bin/env bash
# packaging/test.sh ONLY VERSION: the packages ci/package built (ONLY:
# deb,wheel,npm as there), each installed into an empty place with no
# network and run there (ci/package --test calls it):
#   deb    its files unpacked into an empty root (dpkg-deb -x): the suite
#          passes from there; the .tar.gz likewise
#   wheel  a fresh venv, pip install --no-index: python3 -m zoneoracle run
#          passes; the Python reference adapter gated in process through
#          zoneoracle.gate (and through the pipe, for comparison); the
#          pytest plugin over it when pytest is at hand (Debian's
#          python3-pytest, seen through --system-site-packages)
#   npm    an empty directory, npm install --offline of the .tgz: npx
#          zoneoracle run passes; the Node reference adapter gated in
#          process through require('zoneoracle').gate and as a process
# Exits 1 at the first failure, naming it.
set -euo pipefail
only=$1 version=$2
src=$(cd "$(dirname "$0")/.." && pwd)
pk=$src/build/packages
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
want() { case ",$only," in *,"$1",*) return 0 ;; *) return 1 ;; esac; }
fail() { echo "package test: FAIL: $*" >&2; exit 1; }
# the suite's verdict line: N passed, 0 failed, N skipped
green() { # LABEL LOG RC
  [ "$3" -eq 0 ] || fail "$1: exit $3: $(tail -3 "$2")"
  grep -qE '^[1-9][0-9]* passed, 0 failed, [0-9]+ skipped$' "$2" || fail "$1: no green verdict: $(tail -3 "$2")"
  echo "ok  $1: $(grep -E '^[0-9]+ passed' "$2" | tail -1)"
}
set +e

if want deb; then
  mkdir "$work/root" "$work/deb-cwd" "$work/tgz"
  dpkg-deb -x "$pk"/zoneoracle_"$version"_*.deb "$work/root" || fail "dpkg-deb -x"
  (cd "$work/deb-cwd" && env -u ZO_DATA_DIR "$work/root/usr/bin/zoneoracle" run > ../deb.log 2>&1)
  green "deb: zoneoracle run from an unpacked root" "$work/deb.log" $?
  tar -xzf "$pk/zoneoracle-$version-Linux.tar.gz" -C "$work/tgz" || fail "tar -x"
  (cd "$work/deb-cwd" && env -u ZO_DATA_DIR "$work"/tgz/zoneoracle-*/bin/zoneoracle run > ../tgz.log 2>&1)
  green "tar.gz: bin/zoneoracle run" "$work/tgz.log" $?
fi

if want wheel; then
  whl=$(ls "$pk"/zoneoracle-"$version"-py3-none-*.whl)
  /usr/bin/python3 -m venv "$work/venv" || fail "venv"
  "$work/venv/bin/pip" install -q --no-index "$whl" > "$work/pip.log" 2>&1 || fail "pip install: $(tail -3 "$work/pip.log")"
  mkdir "$work/py" && cd "$work/py"
  env -u ZO_DATA_DIR "$work/venv/bin/python" -m zoneoracle run > ../py-run.log 2>&1
  green "wheel: python3 -m zoneoracle run" "$work/py-run.log" $?
  PYTHONPATH=$src/ci/adapters/python "$work/venv/bin/python" - > ../py-gate.log 2>&1 <<'PY'
import sys, engine, zoneoracle
sys.exit(zoneoracle.gate(engine.Server(), "--report-dir", "in-process"))
PY
  green "wheel: the Python adapter gated in process (zoneoracle.gate)" "$work/py-gate.log" $?
  "$work/venv/bin/python" -m zoneoracle gate --engine "/usr/bin/python3 $src/ci/adapters/python/engine.py" \
    --report-dir pipe > ../py-pipe.log 2>&1
  green "wheel: the Python adapter gated through the pipe" "$work/py-pipe.log" $?
  PYTHONPATH=$src/ci/adapters/python "$work/venv/bin/python" - > ../py-smoke.log 2>&1 <<'PY' ||
import sys, engine, zoneoracle
sys.exit(zoneoracle.smoke(engine.Server()))
PY
    fail "wheel: zoneoracle.smoke: $(grep -v '^ok' ../py-smoke.log | tail -5)"
  echo "ok  wheel: zoneoracle.smoke(engine) in process: $(tail -1 ../py-smoke.log)"
  if /usr/bin/python3 -c 'import pytest' 2>/dev/null; then
    /usr/bin/python3 -m venv --system-site-packages "$work/venv-pytest" || fail "venv"
    "$work/venv-pytest/bin/pip" install -q --no-index "$whl" > "$work/pip2.log" 2>&1 || fail "pip install (pytest venv)"
    PYTHONPATH=$src/ci/adapters/python "$work/venv-pytest/bin/python" -m pytest -q -p no:cacheprovider \
      --zoneoracle-engine engine:Server > ../pytest.log 2>&1
    rc=$?
    [ $rc -eq 0 ] && grep -qE '^[1-9][0-9]* passed, [0-9]+ skipped' ../pytest.log ||
      fail "wheel: pytest plugin: exit $rc: $(tail -3 ../pytest.log)"
    echo "ok  wheel: pytest --zoneoracle-engine engine:Server: $(tail -1 ../pytest.log)"
  else
    echo "--  wheel: pytest plugin not checked (no pytest for /usr/bin/python3: Debian's python3-pytest)"
  fi
  cd "$src"
fi

if want npm; then
  mkdir "$work/npm" && cd "$work/npm"
  npm install --offline --no-audit --no-fund --silent "$pk/zoneoracle-$version.tgz" > ../npm-install.log 2>&1 ||
    fail "npm install: $(tail -3 ../npm-install.log)"
  env -u ZO_DATA_DIR npx --offline zoneoracle run > ../npm-run.log 2>&1
  green "npm: npx zoneoracle run" "$work/npm-run.log" $?
  ZO_ADAPTER=$src/ci/adapters/node/engine.js node - > ../npm-gate.log 2>&1 <<'JS'
const zo = require('zoneoracle');
const { Server, mtgCurrent } = require(process.env.ZO_ADAPTER);
process.exitCode = zo.gate(new Server(mtgCurrent), '--report-dir', 'in-process');
JS
  green "npm: the Node adapter gated in process (require('zoneoracle').gate)" "$work/npm-gate.log" $?
  npx --offline zoneoracle gate --engine "node $src/ci/adapters/node/engine.js" --report-dir pipe > ../npm-pipe.log 2>&1
  green "npm: the Node adapter gated as a process (npx zoneoracle gate --engine)" "$work/npm-pipe.log" $?
  npx --offline zoneoracle smoke --engine "node $src/ci/adapters/node/engine.js" > ../npm-smoke.log 2>&1 ||
    fail "npm: npx zoneoracle smoke --engine: $(grep -v '^ok' ../npm-smoke.log | tail -5)"
  echo "ok  npm: npx zoneoracle smoke --engine: $(tail -1 ../npm-smoke.log)"
  cd "$src"
fi
echo "package test: every package installed offline into an empty place and green"
