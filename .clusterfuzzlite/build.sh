#!/bin/bash -eu
# ClusterFuzzLite build: the OSS-Fuzz build script, unchanged (one build for
# both; ci/oss-fuzz/build.sh says what it puts into $OUT). Run in the
# builder image from $SRC/zoneoracle with ClusterFuzzLite's $CC, $CFLAGS,
# $LIB_FUZZING_ENGINE and $OUT; ci/oss-fuzz/test-build runs it here.
exec bash "$SRC/zoneoracle/ci/oss-fuzz/build.sh"
