#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build: compiles every harness with $CC and
# $CFLAGS, links it with $LIB_FUZZING_ENGINE, and puts into $OUT each
# fuzzer with its seed corpus (<fuzzer>_seed_corpus.zip), dictionary
# (<fuzzer>.dict) and options (<fuzzer>.options). $SRC holds the checkout
# (as $SRC/zoneoracle). Run locally by ci/oss-fuzz/test-build; the
# ClusterFuzzLite build (.clusterfuzzlite/build.sh) is this script.
#
# libyaml and jansson are linked statically (the runners have neither), so
# no plugin file is built: fuzz_diff has the oracle's own plugin
# (ci/adapters/c-plugin/plugin.c) compiled in and compares the oracle with
# it over the plugin path when ZO_DIFF_ENGINE is unset, as it is on the
# runners. A difference there is a bug of that path (serve, zcp/1 JSON in
# and out, the engine driver), never of an engine. Its seeds are
# fuzz_moves' (the same decoder).
src=${SRC}/zoneoracle
build=${WORK:-/tmp}/zoneoracle-ossfuzz-build
rm -rf "$build"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="${CXXFLAGS:-$CFLAGS}" \
  -DZO_FUZZ_ENGINE=ossfuzz -DZO_LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DZO_STATIC_DEPS=ON -DZO_BUILD_CLI=OFF -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" -j"${ZO_BUILD_JOBS:-$(nproc)}" >/dev/null
for h in fuzz_moves fuzz_case_load fuzz_ruleset_load fuzz_protocol fuzz_diff; do
  seeds=$h
  [ "$h" = fuzz_diff ] && seeds=fuzz_moves
  cp "$build/bin/$h" "$OUT/"
  rm -f "$OUT/${h}_seed_corpus.zip"
  (cd "$src/corpus/$seeds" && zip -q -r -X "$OUT/${h}_seed_corpus.zip" .)
  options="[libfuzzer]\ntimeout = 10\n"
  if [ -f "$src/fuzz/$h.dict" ]; then
    cp "$src/fuzz/$h.dict" "$OUT/"
    options+="dict = $h.dict\n"
  fi
  case $h in fuzz_moves | fuzz_diff) options+="max_len = 512\n" ;; esac
  printf "$options" > "$OUT/$h.options"
done
