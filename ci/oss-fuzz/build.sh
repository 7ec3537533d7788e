#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build: compiles every harness with $CC and
# $CFLAGS, links it with $LIB_FUZZING_ENGINE, and puts into $OUT each
# fuzzer with its seed corpus (<fuzzer>_seed_corpus.zip), dictionary
# (<fuzzer>.dict) and options (<fuzzer>.options). $SRC holds the checkout
# (as $SRC/zoneoracle). Run locally by ci/oss-fuzz/test-build.
src=${SRC}/zoneoracle
build=${WORK:-/tmp}/zoneoracle-ossfuzz-build
rm -rf "$build"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="${CXXFLAGS:-$CFLAGS}" \
  -DZO_FUZZ_ENGINE=ossfuzz -DZO_LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DZO_STATIC_DEPS=ON -DZO_BUILD_CLI=OFF -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
for h in fuzz_moves fuzz_case_load fuzz_ruleset_load fuzz_protocol; do
  cp "$build/bin/$h" "$OUT/"
  (cd "$src/corpus/$h" && zip -q -r "$OUT/${h}_seed_corpus.zip" .)
  options="[libfuzzer]\ntimeout = 10\n"
  if [ -f "$src/fuzz/$h.dict" ]; then
    cp "$src/fuzz/$h.dict" "$OUT/"
    options+="dict = $h.dict\n"
  fi
  if [ "$h" = fuzz_moves ]; then options+="max_len = 512\n"; fi
  printf "$options" > "$OUT/$h.options"
done
