#!/bin/sh
# Build Wagic's console configuration at a pinned commit, then the zcp
# adapter (adapter.cpp) linked against Wagic's own object files.
#
#   ci/engines/wagic/build.sh SRC [OUTDIR]
#
# SRC: a clone of WagicProject/wagic (work tree or bare git directory) or a
# URL git can clone. OUTDIR (default: build-wagic at the top of this
# repository) receives the extracted source, Wagic's objects and the
# adapter. Nothing of Wagic's is patched: only qmake command-line options.
# The last line printed is the command to pass to `zoneoracle gate --engine`.
set -eu

WAGIC_COMMIT=37115e15ea4e24ac122e63b5d0270228d31553bc
JOBS=${JOBS:-1}

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 SRC [OUTDIR]" >&2; exit 2; }
src=$1
out=${2:-$top/build-wagic}
mkdir -p "$out"
out=$(cd "$out" && pwd)

log() { echo "build.sh: $*" >&2; }

# 1. Debian packages
need=""
for p in g++ make git ca-certificates qtbase5-dev qt5-qmake qtchooser qtmultimedia5-dev zlib1g-dev nlohmann-json3-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need="$need $p"
done
if [ -n "$need" ]; then
    log "installing:$need"
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo=sudo; fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $need
fi

# 2. the source at WAGIC_COMMIT
case $src in
    *://*|git@*)
        gitdir=$out/wagic.git
        if [ ! -d "$gitdir" ]; then
            log "cloning $src"
            git clone --bare --quiet "$src" "$gitdir"
        fi ;;
    *)
        gitdir=$(git -C "$src" rev-parse --absolute-git-dir) ;;
esac
git --git-dir="$gitdir" cat-file -e "$WAGIC_COMMIT^{commit}" || {
    echo "build.sh: $src does not have commit $WAGIC_COMMIT" >&2; exit 1; }

tree=$out/src
if [ "$(cat "$out/src.commit" 2>/dev/null)" != "$WAGIC_COMMIT" ]; then
    log "extracting $WAGIC_COMMIT into $tree"
    rm -rf "$tree" "$out/src.commit"
    mkdir -p "$tree"
    if git --git-dir="$gitdir" archive --format=tar -o "$out/src.tar" "$WAGIC_COMMIT" 2>/dev/null \
            && tar -x -C "$tree" -f "$out/src.tar"; then
        rm -f "$out/src.tar"
    else
        # Some mirrors lack a few big blobs (the card database among them):
        # git archive aborts on them, so take the tree file by file and
        # skip what is missing.
        log "git archive failed: extracting file by file"
        rm -rf "$tree" "$out/src.tar"; mkdir -p "$tree"
        git --git-dir="$gitdir" -c core.quotepath=off ls-tree -r "$WAGIC_COMMIT" | while read -r mode type sha path; do
            [ "$type" = blob ] || continue
            mkdir -p "$tree/$(dirname "$path")"
            if [ "$mode" = 120000 ]; then
                target=$(git --git-dir="$gitdir" cat-file blob "$sha" 2>/dev/null) || { log "missing: $path"; continue; }
                ln -sfn "$target" "$tree/$path"
            elif git --git-dir="$gitdir" cat-file blob "$sha" > "$tree/$path" 2>/dev/null; then
                [ "$mode" = 100755 ] && chmod +x "$tree/$path"
                :
            else
                rm -f "$tree/$path"; log "missing: $path"
            fi
        done
    fi
    echo "$WAGIC_COMMIT" > "$out/src.commit"
fi

# 3. Wagic's console (test-suite) configuration, flags on the command line:
#    -std=gnu++14 (GCC 12's C++17 std::filesystem clashes with JGE's
#    zip_file_system::filesystem under `using namespace std`), -Wno-error
#    (wagic.pri has -Werror), no gcov instrumentation.
obj=$out/obj
mkdir -p "$obj"
if [ "$(cat "$obj/.built" 2>/dev/null)" != "$WAGIC_COMMIT" ]; then
    log "qmake + make -j$JOBS (about 9 minutes at -j1)"
    cd "$obj"
    qmake "$tree/projects/mtg/wagic-qt.pro" CONFIG+=console CONFIG+=debug \
        -after \
        "QMAKE_CXXFLAGS -= -fprofile-arcs -ftest-coverage" \
        "QMAKE_LFLAGS -= -fprofile-arcs -ftest-coverage" \
        "QMAKE_LDFLAGS -= -fprofile-arcs -ftest-coverage" \
        "LIBS -= -lgcov" \
        "QMAKE_CXXFLAGS += -std=gnu++14 -Wno-error" \
        "CONFIG -= precompile_header"
    make -j"$JOBS"
    echo "$WAGIC_COMMIT" > "$obj/.built"
    cd - >/dev/null
fi

# 4. the adapter: our own source, compiled with the defines and include
#    paths of Wagic's generated Makefile, linked with Wagic's objects but
#    its console main (Qtconsole.o)
log "building the adapter"
mkvar() { sed -n "s/^$1 *= *//p" "$obj/Makefile" | sed 's/\$(SUBLIBS)//; s/\$(DEFINES)//'; }
defs=$(mkvar DEFINES)
incs=$(mkvar INCPATH)
libs=$(mkvar LIBS)
objs=$(cd "$obj" && ls *.o | grep -v '^Qtconsole\.o$' | tr '\n' ' ')
(cd "$obj" && eval "g++ -std=gnu++14 -g -O1 -fPIC -w $defs $incs -I/usr/include -c \"$here/adapter.cpp\" -o \"$out/adapter.o\"")
(cd "$obj" && eval "g++ -g -o \"$out/wagic-zcp\" \"$out/adapter.o\" $objs $libs")
ln -sfn "$tree/projects/mtg/bin/Res" "$out/Res"

log "done"
echo "$out/wagic-zcp --res $tree/projects/mtg/bin/Res"
