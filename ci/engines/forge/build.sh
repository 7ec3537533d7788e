#!/bin/sh
# Build Forge (the open-source Java MTG engine) and zoneoracle's zcp adapter
# for it, with Debian's JDK and jars only (no Maven, no network but apt).
#
#   ci/engines/forge/build.sh SRC [OUTDIR]
#
# SRC: a git clone of Forge (bare or not; a fork holding FORGE_COMMIT does),
#      or a URL to clone it from.
# OUTDIR: where the build goes (default: build/forge under the repository).
#
# The pinned commit is extracted with `git archive` (forge-core, forge-game,
# forge-ai and the one language file Forge reads at start), compiled with
# javac unchanged: no patch is applied to Forge's source. io.sentry, which
# Forge's game code calls for breadcrumbs only and Debian lacks, is replaced
# by two do-nothing classes of our own (stubs/). forge-ai is compiled for
# its PlayerControllerAi: a Forge Player needs a controller, and the adapter
# makes every choice itself, so no AI decision is ever asked for on a path
# the adapter uses.
#
# Last line printed: the command line for `zoneoracle gate --engine`.
set -eu

# Forge 1.6.50-SNAPSHOT, upstream Card-Forge/forge commit 71464684ff
# (2022-05-01), as held by the fork yunejae/forge (its HEAD).
FORGE_COMMIT=71464684fffb582383ffca3599232f1a7fc6f5c2

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 FORGE_CLONE_OR_URL [OUTDIR]" >&2
    exit 2
fi
src=$1
out=${2:-$root/build/forge}
mkdir -p "$out"
out=$(cd "$out" && pwd)

log() { printf '%s\n' "forge build: $*" >&2; }

# --- Debian packages --------------------------------------------------------
jars="guava commons-lang3 minlog commons-math3 gson"
need_pkgs=
command -v javac >/dev/null 2>&1 || need_pkgs="$need_pkgs openjdk-17-jdk-headless"
for j in $jars; do
    if [ ! -e "/usr/share/java/$j.jar" ]; then
        case $j in
            guava) need_pkgs="$need_pkgs libguava-java" ;;
            commons-lang3) need_pkgs="$need_pkgs libcommons-lang3-java" ;;
            minlog) need_pkgs="$need_pkgs libminlog-java" ;;
            commons-math3) need_pkgs="$need_pkgs libcommons-math3-java" ;;
            gson) need_pkgs="$need_pkgs libgoogle-gson-java" ;;
        esac
    fi
done
command -v git >/dev/null 2>&1 || need_pkgs="$need_pkgs git"
if [ -n "$need_pkgs" ]; then
    log "installing:$need_pkgs"
    sudo=
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $need_pkgs
fi
cp=
for j in $jars; do cp="$cp${cp:+:}/usr/share/java/$j.jar"; done

# --- Forge's source at the pinned commit ------------------------------------
case $src in
    *://*|git@*)
        repo=$out/forge.git
        if [ ! -d "$repo" ]; then
            log "cloning $src"
            git clone --bare --filter=blob:none "$src" "$repo" ||
                git clone --bare "$src" "$repo"
        fi ;;
    *)
        repo=$src ;;
esac
if ! git -C "$repo" cat-file -e "$FORGE_COMMIT^{commit}" 2>/dev/null; then
    echo "$0: $src does not hold Forge commit $FORGE_COMMIT" >&2
    exit 1
fi
stamp=$out/src/.commit
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$FORGE_COMMIT" ]; then
    log "extracting $FORGE_COMMIT"
    rm -rf "$out/src"
    mkdir -p "$out/src"
    git -C "$repo" archive "$FORGE_COMMIT" \
        forge-core/src/main forge-game/src/main forge-ai/src/main \
        forge-gui/res/languages/en-US.properties |
        tar -x -C "$out/src"
    echo "$FORGE_COMMIT" > "$stamp"
    rm -rf "$out/classes"
fi

# --- compile: one javac at a time --------------------------------------------
javac_opts="--release 17 -proc:none -nowarn -encoding UTF-8 -J-Xmx1500m"
if [ ! -f "$out/classes/.done" ]; then
    log "compiling forge-core, forge-game, forge-ai (a minute or two)"
    rm -rf "$out/classes"
    mkdir -p "$out/classes"
    find "$out/src/forge-core/src/main/java" "$out/src/forge-game/src/main/java" \
        "$out/src/forge-ai/src/main/java" "$here/stubs" -name '*.java' > "$out/forge-sources.txt"
    # shellcheck disable=SC2086
    javac $javac_opts -cp "$cp" -d "$out/classes" @"$out/forge-sources.txt" 2> "$out/javac-forge.log" || {
        tail -30 "$out/javac-forge.log" >&2; exit 1; }
    touch "$out/classes/.done"
fi

log "compiling the adapter"
rm -rf "$out/adapter"
mkdir -p "$out/adapter"
# shellcheck disable=SC2086
javac $javac_opts -cp "$cp:$out/classes" -d "$out/adapter" "$here"/ZcpForge.java

# what the adapter reads at run time: Forge's English strings
res=$out/src/forge-gui/res

cmd="java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -cp $out/adapter:$out/classes:$cp ZcpForge $res"
echo "$cmd" > "$out/engine-command.txt"
log "done; engine command in $out/engine-command.txt"
echo "$cmd"
