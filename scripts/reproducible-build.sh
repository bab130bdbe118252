#!/usr/bin/env bash
# The release binary of tandem, built so that two builds of one commit in two
# folders give the same SHA-256 (`tandem report`'s `binary_sha256`; issue 41,
# docs/tournament.md "Is this the published build?"):
#   - paths remapped: the source folder, cargo's home and rustc's own sources
#     are written into the binary (panic messages, debug info) as fixed names;
#   - dependencies locked: `--locked` builds exactly Cargo.lock's versions;
#   - a fixed build date: SOURCE_DATE_EPOCH is the commit's date, and the
#     commit embedded (`tandem report`'s `commit`) is given, not looked up;
#   - the toolchain named: the same rustc (printed) must build both.
#
#   scripts/reproducible-build.sh            # build here: target/reproducible/release/tandem
#   scripts/reproducible-build.sh --check    # build HEAD twice, in two fresh clones, and compare
#   scripts/reproducible-build.sh --check-fast   # the same, the second clone reusing the first's
#       dependencies (crates.io's, at the same path on this machine): only tandem's own crates,
#       the ones whose folder differs, are built again there
#
# Not run by CI (two full release builds). The measured result is in
# docs/tournament.md.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"

build() {
    # build SOURCE_DIR [OTHER_DIR…]: builds in SOURCE_DIR, prints the binary's
    # SHA-256. Every folder named is remapped, so that two builds given the
    # same folders have the same flags (cargo rebuilds what other flags built).
    local src="$1"
    local remaps="" d
    # In one order whatever the order given: the same flags in both builds.
    while read -r d; do remaps="$remaps --remap-path-prefix=$d=/tandem"; done \
        < <(printf '%s\n' "$@" | sort)
    cd "$src"
    local commit epoch cargo_home sysroot
    commit="$(git rev-parse HEAD)"
    epoch="$(git log -1 --format=%ct HEAD)"
    cargo_home="${CARGO_HOME:-$HOME/.cargo}"
    sysroot="$(rustc --print sysroot)"
    export TANDEM_COMMIT="$commit"
    export SOURCE_DATE_EPOCH="$epoch"
    export CARGO_TARGET_DIR="$src/target/reproducible"
    export RUSTFLAGS="${remaps# } --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$sysroot=/rust ${TANDEM_EXTRA_RUSTFLAGS:-}"
    export CARGO_INCREMENTAL=0
    # Build in a fixed locale and time zone; nothing else of the machine.
    export LC_ALL=C TZ=UTC
    cargo build --release --locked -p tandem --bin tandem >&2
    sha256sum "$CARGO_TARGET_DIR/release/tandem" | cut -d' ' -f1
}

case "${1:-}" in
--check | --check-fast)
    rustc --version >&2
    base="$(mktemp -d "${TMPDIR:-/tmp}/tandem-repro.XXXXXX")"
    trap 'rm -rf "$base"' EXIT
    rev="$(git -C "$here" rev-parse HEAD)"
    for d in a b; do
        # Two folders of different names and depths.
        dir="$base/$d/src-$d"
        if [ "$d" = b ]; then dir="$dir/nested"; fi
        mkdir -p "$(dirname "$dir")"
        git clone -q --no-hardlinks "$here" "$dir"
        git -C "$dir" checkout -q "$rev"
    done
    start=$(date +%s)
    a="$base/a/src-a"
    b="$base/b/src-b/nested"
    h1="$(build "$a" "$b")"
    mid=$(date +%s)
    if [ "$1" = --check-fast ]; then
        # The dependencies built once (the same flags: both folders remapped
        # in both builds); tandem's crates built again in b.
        mkdir -p "$b/target"
        cp -a "$a/target/reproducible" "$b/target/"
        (cd "$b" && CARGO_TARGET_DIR=target/reproducible cargo clean --release \
            -p tandem -p tandem-rules -p tandem-speech -p tandem-braille >&2)
    fi
    h2="$(build "$b" "$a")"
    end=$(date +%s)
    echo "commit   $rev"
    echo "build 1  $h1  ($((mid - start)) s)"
    echo "build 2  $h2  ($((end - mid)) s)"
    if [ "$h1" = "$h2" ]; then
        echo "same binary: reproducible"
    else
        echo "DIFFERENT binaries" >&2
        exit 1
    fi
    ;;
"")
    rustc --version >&2
    h="$(build "$here")"
    echo "$h  $here/target/reproducible/release/tandem"
    ;;
*)
    echo "usage: $0 [--check]" >&2
    exit 2
    ;;
esac
