#!/usr/bin/env bash
# oracle/tests/afl_sync.sh ROOT: one AFL++ campaign on two "machines".
#
# ci/fuzz-campaign runs twice at once, as two machines would: a main (name
# a, output dir A/) and a secondary (name b, output dir B/), each with its
# own output directory, exchanging through a third, shared one (--sync HUB)
# exactly as through a shared filesystem or an rsync'd directory. The
# secondary starts from a single tiny seed once the main has found a path of
# its own (a queue entry that is not one of its seeds) and copied it to the
# hub; the test then wants, in b's queue, an entry AFL++ imported from a
# (id:NNNNNN,sync:a,src:MMMMMM) whose source is such a path found by a.
# Then --merge adds what the campaign reached to an empty directory.
# Skips (exit 77) without AFL++. About a minute: a small build, 25 s of
# fuzzing, the merge.
set -euo pipefail
root=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
for t in afl-fuzz afl-clang-fast afl-cmin afl-showmap; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not found (apt-get install afl++)"; exit 77; }
done
work=$(mktemp -d)
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null || true; done # each run's process group
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL $*"; for l in "$work"/*.log; do [ -f "$l" ] && { echo "--- $l"; tail -5 "$l"; }; done; exit 1; }

# the fuzz_moves harness for AFL++ (persistent, and the fork server afl-cmin uses)
cmake -S "$root" -B "$work/build" -DCMAKE_C_COMPILER=afl-clang-fast -DCMAKE_BUILD_TYPE=Release \
  -DZO_FUZZ_ENGINE=afl -DZO_BUILD_CLI=OFF -DBUILD_TESTING=OFF > "$work/cmake.log" 2>&1 || fail "configure"
cmake --build "$work/build" --target fuzz_moves fuzz_moves_forkserver -j"$(nproc)" >> "$work/cmake.log" 2>&1 ||
  fail "build"
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
campaign=("$root/ci/fuzz-campaign" --harness moves --build-dir "$work/build" --no-coverage --sync "$work/hub" --sync-every 2)

setsid "${campaign[@]}" --seconds 25 --role main --name a --out "$work/A" > "$work/a.log" 2>&1 &
pids+=($!)
found="" marked=""
for _ in $(seq 1 50); do # until a path a found (not a seed) is in the hub
  found=$(ls "$work/hub/a/queue" 2>/dev/null | grep -v 'orig:' | grep -m1 '^id:' || true)
  [ -e "$work/hub/a/is_main_node" ] && marked=1 # AFL++ removes it when the main stops
  [ -n "$found" ] && break
  sleep 0.5
done
[ -n "$found" ] || fail "the main found no path of its own in 25 s, or did not copy it to the hub"
[ -n "$marked" ] || fail "the hub does not mark a as the main"
mkdir -p "$work/tiny"
printf '\000\000\001' > "$work/tiny/seed"
setsid "${campaign[@]}" --seconds 8 --role secondary --name b --input "$work/tiny" --out "$work/B" > "$work/b.log" 2>&1 &
pids+=($!)
for p in "${pids[@]}"; do wait "$p" || fail "a ci/fuzz-campaign run failed"; done
pids=()

# separate output directories, each with the other's copy
for d in A/sync/a A/sync/b B/sync/b B/sync/a; do
  [ -d "$work/$d/queue" ] || fail "no $d/queue"
done
# b imported paths a found
imported=$(ls "$work/B/sync/b/queue" | grep ',sync:a,' || true)
[ -n "$imported" ] || fail "b imported nothing from a"
proof=""
while IFS= read -r e; do
  src=$(sed -n 's/.*,sync:a,src:\([0-9]\{6\}\).*/\1/p' <<<"$e")
  origin=$(ls "$work/A/sync/a/queue" | grep -m1 "^id:$src," || true)
  if [ -n "$origin" ] && [[ $origin != *orig:* ]]; then proof="$e <- a's $origin"; break; fi
done <<<"$imported"
[ -n "$proof" ] || fail "b imported $(wc -l <<<"$imported") entries from a, none of them a path a found by fuzzing"
echo "ok   b imported $(wc -l <<<"$imported") of a's entries through the hub, among them a path a found:"
echo "     $proof"
back=$(ls "$work/A/sync/a/queue" | grep -c ',sync:b,' || true)
echo "ok   a imported $back of b's entries (the main syncs from every instance)"

# --merge: what the campaign reached, into an empty directory
mkdir -p "$work/merged"
"$root/ci/fuzz-campaign" --harness moves --build-dir "$work/build" --no-coverage --seconds 0 \
  --out "$work/A" --merge "$work/merged" > "$work/merge.log" 2>&1 || fail "--merge failed"
n=$(ls "$work/merged" | grep -c '^campaign-[0-9a-f]\{16\}$' || true)
[ "$n" -gt 0 ] || fail "--merge added nothing"
echo "ok   --merge: $(grep -o 'merge: .*' "$work/merge.log")"
echo "afl_sync: passed"
