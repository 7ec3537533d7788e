#!/usr/bin/env bash
# packaging/npm/build.sh BUILD OUT VERSION: the npm package zoneoracle,
# the oracle and its CLI in WebAssembly, as OUT/zoneoracle-VERSION.tgz.
# ci/package calls it; BUILD is its working directory (kept between runs).
#
#   1. libyaml and jansson from Debian's source packages, the versions of
#      the installed libyaml-dev and libjansson-dev (apt-get source with a
#      deb-src list of the build's own, nothing of the system's changed),
#      built with their own CMake builds under emscripten into BUILD/deps;
#   2. zoneoracle's CLI under emscripten (emcmake: the source tree as it
#      is, no header of its own), linked as a Node module exporting
#      zo_cli_main and zo_engine_register (oracle/cli/cli.h, zo.h);
#   3. the package: that module, packaging/npm's JavaScript and
#      TypeScript types, the suite and the rule sets, packed by npm.
#
# Needs emscripten (Debian's 3.1.6), dpkg-dev (dpkg-source), node and npm.
# Emscripten 3.1.6 wants two things on Debian: NODE_PATH to find Debian's
# acorn (its JavaScript optimizer), and -sWASM_ASYNC_COMPILATION=0 (its
# loader's async path fails on the fetch of Node 18 and later).
set -euo pipefail
build=$1 out=$2 version=$3
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$build" "$out"
cd "$build"
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc)
# emcmake and cmake talk on stderr too: into a log, shown when a step fails
log=$PWD/build.log
: > "$log"
quiet() { "$@" >>"$log" 2>&1 || { tail -30 "$log" >&2; echo "packaging/npm/build.sh: failed: $*" >&2; exit 1; }; }

# ---- 1. the dependencies, from Debian's sources ------------------------------
if [ ! -f deps/lib/libjansson.a ] || [ ! -f deps/lib/libyaml.a ]; then
  . /etc/os-release
  mkdir -p apt/lists/partial apt/cache/archives/partial sources
  echo "deb-src http://deb.debian.org/debian ${VERSION_CODENAME:-bookworm} main" > apt/sources.list
  A=(-o "Dir::Etc::SourceList=$PWD/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o "Dir::State::Lists=$PWD/apt/lists" -o "Dir::Cache=$PWD/apt/cache")
  quiet apt-get "${A[@]}" update -qq
  for pair in jansson:libjansson-dev libyaml:libyaml-dev; do
    pkg=${pair%%:*} dev=${pair#*:}
    v=$(dpkg-query -W -f='${source:Version}' "$dev")
    rm -rf "sources/$pkg"
    (cd sources && quiet apt-get "${A[@]}" source --download-only "$pkg=$v" &&
       quiet dpkg-source -x --no-check "${pkg}_${v#*:}.dsc" "$pkg")
  done
  rm -rf deps deps-build
  quiet emcmake cmake -S sources/jansson -B deps-build/jansson -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$PWD/deps" -DJANSSON_BUILD_DOCS=OFF -DJANSSON_WITHOUT_TESTS=ON \
    -DJANSSON_EXAMPLES=OFF -DJANSSON_BUILD_SHARED_LIBS=OFF
  quiet cmake --build deps-build/jansson -j"$jobs"
  quiet cmake --install deps-build/jansson
  quiet emcmake cmake -S sources/libyaml -B deps-build/libyaml -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$PWD/deps" -DBUILD_TESTING=OFF -DBUILD_SHARED_LIBS=OFF \
    -DINSTALL_CMAKE_DIR=lib/cmake/yaml
  quiet cmake --build deps-build/libyaml -j"$jobs"
  quiet cmake --install deps-build/libyaml
fi
if [ ! -f deps/lib/pkgconfig/yaml-0.1.pc ]; then
  # libyaml's CMake build installs no pkg-config file (its autotools
  # build does): the one it would install
  yv=$(dpkg-query -W -f='${source:Upstream-Version}' libyaml-dev 2>/dev/null || echo 0.2.5)
  mkdir -p deps/lib/pkgconfig
  printf 'prefix=%s\nlibdir=${prefix}/lib\nincludedir=${prefix}/include\n\nName: LibYAML\nDescription: Library to parse and emit YAML\nVersion: %s\nCflags: -I${includedir}\nLibs: -L${libdir} -lyaml\n' \
    "$PWD/deps" "${yv:-0.2.5}" > deps/lib/pkgconfig/yaml-0.1.pc
fi

# ---- 2. the CLI in WebAssembly --------------------------------------------------
link=(-L"$PWD/deps/lib" -sNODERAWFS=1 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 -sWASM_ASYNC_COMPILATION=0
      -sMODULARIZE=1 -sEXPORT_NAME=createZoneoracle -sINVOKE_RUN=0 -sEXIT_RUNTIME=0
      -sALLOW_TABLE_GROWTH=1
      -sEXPORTED_FUNCTIONS=_main,_zo_cli_main,_zo_engine_register,_malloc,_free,_fflush
      -sEXPORTED_RUNTIME_METHODS=addFunction,removeFunction,UTF8ToString,stringToUTF8,lengthBytesUTF8,ENV)
PKG_CONFIG_LIBDIR="$PWD/deps/lib/pkgconfig" PKG_CONFIG_PATH="" \
  quiet emcmake cmake -S "$src" -B zo -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DZO_BUILD_FUZZERS=OFF \
    -DZO_MIMALLOC=OFF -DZO_WERROR=ON -DZO_SOURCE_TREE_DATA=OFF "-DCMAKE_EXE_LINKER_FLAGS=${link[*]}"
quiet cmake --build zo -j"$jobs" --target zoneoracle

# ---- 3. the package ---------------------------------------------------------------
pkg=$PWD/package
rm -rf "$pkg"
mkdir -p "$pkg/wasm" "$pkg/share/zoneoracle/protocol" "$pkg/licenses"
cp "$src"/packaging/npm/{index.js,index.d.ts,cli.js,process_engine.js,process_worker.js,README.md} "$pkg/"
cp "$src/LICENSE" "$pkg/"
sed "s/\"version\": \"0.0.0\"/\"version\": \"$version\"/" "$src/packaging/npm/package.json" > "$pkg/package.json"
cp zo/bin/zoneoracle.js "$pkg/wasm/zoneoracle.js"
cp zo/bin/zoneoracle.wasm "$pkg/wasm/zoneoracle.wasm"
cp -r "$src/cases" "$pkg/share/zoneoracle/cases"
cp -r "$src/oracle/rulesets" "$pkg/share/zoneoracle/rulesets"
cp -r "$src/oracle/smoke" "$pkg/share/zoneoracle/smoke"
cp "$src"/ci/protocol/*.json "$src"/ci/protocol/*.md "$src"/ci/protocol/*.py "$pkg/share/zoneoracle/protocol/"
cp sources/libyaml/License "$pkg/licenses/libyaml"
cp sources/jansson/LICENSE "$pkg/licenses/jansson"
(cd "$out" && quiet npm pack --silent "$pkg")
ls "$out/zoneoracle-$version.tgz"
