#!/usr/bin/env bash
# Runs every check CI runs: formatting, clippy, all tests with every backend
# feature against the real components (BRLTTY, speech-dispatcher, espeak-ng,
# Vosk, ALSA), the deep perft counts in release mode, and a short fuzz run.
# Run scripts/setup.sh --test first.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
# shellcheck source=scripts/env.sh
. "$here/env.sh"

step() { echo; echo "=== $*"; }

# CI runs every test of a real component: TANDEM_SKIP_REAL (which lets a
# test whose component is missing return early) is refused there.
if [ -n "${CI:-}" ] && [ -n "${TANDEM_SKIP_REAL:-}" ]; then
  echo "TANDEM_SKIP_REAL is set while CI is set: CI must run every real-component test; unset it" >&2
  exit 2
fi

step "cargo fmt --check"
cargo fmt --all -- --check

step "floors: each crate's modules keep to docs/architecture.md"
python3 scripts/floors.py

step "cargo clippy (all targets, all features) -D warnings"
cargo clippy --workspace --all-targets --all-features -- -D warnings

step "cargo test (all features, real components), in two lanes"
# The test binaries are built once; then two `cargo test` runs share them,
# each running its own set of binaries (most of the suite waits on real
# components, sockets and timers, not on the cores). Meanwhile the release
# builds of the deep perft and of the fuzz targets run at the lowest
# priority (the tests' processes come first on the cores), so that they are
# ready when the tests end.
cargo test --workspace --all-features --no-run
logs="$(mktemp -d)"
(
  nice -n 19 cargo test --release -p tandem-rules --test perft --test chess --no-run
  cd fuzz && RUSTC_BOOTSTRAP=1 nice -n 19 cargo fuzz build --sanitizer none -O
) >"$logs/builds.log" 2>&1 &
builds=$!
# Lane B: the hall's, the voice's and the device seats' binaries; lane A:
# every other test binary of the workspace, the unit tests and the doc tests.
# Every test target is in exactly one lane (the list comes from cargo).
mapfile -t targets < <(cargo metadata --format-version 1 --no-deps --all-features | python3 -c '
import json, sys
for p in json.load(sys.stdin)["packages"]:
    for t in p["targets"]:
        if "test" in t["kind"]:
            print(t["name"])
' | sort -u)
if [ "${#targets[@]}" -eq 0 ]; then
  echo "cargo metadata listed no test target: the lanes would run nothing" >&2
  exit 1
fi
lane_a=(); lane_b=()
for t in "${targets[@]}"; do
  case "$t" in
    hall_*|voice_*|devices_*|orca_*) lane_b+=(--test "$t") ;;
    *) lane_a+=(--test "$t") ;;
  esac
done
echo "lane A: $((${#lane_a[@]} / 2)) test binaries and the unit and doc tests; lane B: $((${#lane_b[@]} / 2))"
( cargo test --workspace --all-features --no-fail-fast --lib --bins "${lane_a[@]}" \
    && cargo test --workspace --all-features --doc ) >"$logs/a.log" 2>&1 &
lane_a_pid=$!
cargo test --workspace --all-features --no-fail-fast "${lane_b[@]}" >"$logs/b.log" 2>&1 &
lane_b_pid=$!
status_a=0; status_b=0
wait "$lane_a_pid" || status_a=$?
wait "$lane_b_pid" || status_b=$?
for l in a b; do echo "--- lane $l"; cat "$logs/$l.log"; done
if [ "$status_a" -ne 0 ] || [ "$status_b" -ne 0 ]; then
  echo "cargo test failed (lane A exit $status_a, lane B exit $status_b)" >&2
  kill "$builds" 2>/dev/null || true
  exit 1
fi
build_status=0
wait "$builds" || build_status=$?
if [ "$build_status" -ne 0 ]; then
  cat "$logs/builds.log" >&2
  echo "the release builds (deep perft, fuzz targets) failed" >&2
  exit 1
fi

step "deep perft (release): published counts to depth 10-11"
cargo test --release -p tandem-rules --test perft -- --ignored
cargo test --release -p tandem-rules --test chess -- --ignored

step "fuzz targets, briefly (two at a time)"
fuzz_secs="${TANDEM_FUZZ_SECONDS:-20}"
fuzz_one() { # fuzz_one TARGET SECONDS: runs one target; prints its summary
  local t="$1" secs="$2" log status=0
  # The committed seeds (fuzz/seeds/T) are read as a second corpus; new
  # finds go to fuzz/corpus/T (not committed).
  mkdir -p fuzz/corpus/"$t"
  local seeds=()
  if [ -d fuzz/seeds/"$t" ]; then seeds=(seeds/"$t"); fi
  # Only this run's finds count: an artifact left from an earlier run (its
  # bug fixed since, with a regression test) must not fail this one.
  rm -rf fuzz/artifacts/"$t"
  log="$(mktemp)"
  (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none -O "$t" corpus/"$t" "${seeds[@]}" -- \
      -max_total_time="$secs" -rss_limit_mb=2048 -max_len=16384) >"$log" 2>&1 || status=$?
  echo "$t: $(grep -E '^Done|panicked|SUMMARY' "$log" | tr '\n' ' ')"
  if [ "$status" -ne 0 ] || ls fuzz/artifacts/"$t"/crash-* >/dev/null 2>&1; then
    tail -40 "$log" >&2
    echo "fuzz target $t failed (exit $status): see fuzz/artifacts/$t" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}
export -f fuzz_one
(cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz list) \
  | xargs -P 2 -I{} bash -c 'fuzz_one "$1" "$2" || exit 255' _ {} "$fuzz_secs"
echo; echo "all checks passed"
