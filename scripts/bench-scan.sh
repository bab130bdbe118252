#!/usr/bin/env bash
# tandem's perft against Scan 3.1's move generator, side by side.
#
#   scripts/bench-scan.sh [--rounds N] [--out FILE] [--no-callgrind] SCAN_SRC_DIR
#
# SCAN_SRC_DIR is a Scan 3.1 source folder (the one holding Makefile, gen.cpp,
# list.hpp, ...; a checkout whose src/ holds them is accepted too). Scan is not
# part of this repository; its public source is e.g. github.com/rhalbersma/scan
# (commit "Scan 3.1 by Fabien Letouzey."). The script
#   1. copies that folder to target/scan-bench/ (the user's folder is only read)
#      and builds it there with Scan's own Makefile and flags;
#   2. compiles our driver (docs/bench/scan-driver/scan_perft.cpp, our own code)
#      with the same compiler and flags and links it with Scan's objects;
#   3. builds `tandem` in release (cargo build --release -p tandem);
#   4. checks that both give the same counts at depths 1-8 of both positions;
#   5. runs N rounds (default 5), interleaved: in each round the start position
#      at perft 10 and Woldouby at perft 14, each by both programs, the order
#      of the two programs swapped every round; both count the last ply in bulk
#      and time only the perft call;
#   6. checks every count (258,895,763 and 58,360,286) and writes every run's
#      time and load average, the commit, CPU and compilers to
#      docs/bench/scan-runs-<UTC date and time>.md, and prints the medians;
#   7. when valgrind is installed (and not --no-callgrind), counts the
#      instructions of both under callgrind, a figure the machine's load does
#      not move: start perft 8 and Woldouby perft 12, less a depth-1 run
#      (start-up), written to the same file.
# Not part of CI (it needs a Scan source folder). Method and results:
# docs/bench/scan-comparison.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

rounds=5
out=""
callgrind=1
usage() {
  echo "usage: scripts/bench-scan.sh [--rounds N] [--out FILE] [--no-callgrind] SCAN_SRC_DIR" >&2
  exit 2
}
scan_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) [ $# -ge 2 ] || usage; rounds="$2"; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out="$2"; shift 2 ;;
    --no-callgrind) callgrind=0; shift ;;
    -h|--help) usage ;;
    -*) echo "unknown option $1" >&2; usage ;;
    *) [ -z "$scan_dir" ] || usage; scan_dir="$1"; shift ;;
  esac
done
[ -n "$scan_dir" ] || usage
case "$rounds" in ''|*[!0-9]*|0) echo "--rounds wants a positive number, not '$rounds'" >&2; exit 2 ;; esac

if [ -f "$scan_dir/src/gen.cpp" ]; then scan_dir="$scan_dir/src"; fi
for f in Makefile gen.cpp gen.hpp list.hpp pos.hpp fen.hpp main.cpp; do
  if [ ! -f "$scan_dir/$f" ]; then
    echo "$scan_dir does not look like Scan's source folder: $f is missing" >&2
    exit 2
  fi
done
scan_dir="$(cd "$scan_dir" && pwd)"

START_FEN="W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
WOLDOUBY_FEN="W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"
# name, FEN, depth, expected leaves, depth under callgrind
cases=(
  "start|$START_FEN|10|258895763|8"
  "woldouby|$WOLDOUBY_FEN|14|58360286|12"
)

build="$root/target/scan-bench"
step() { echo "=== $*" >&2; }

step "building Scan from $scan_dir with its own Makefile (in $build)"
rm -rf "$build/src"
mkdir -p "$build"
cp -R "$scan_dir" "$build/src"
rm -f "$build/src"/*.o "$build/src/.depend" "$build/src/scan"
nice_make() { make -C "$build/src" --no-print-directory "$@"; }
nice_make -j2 scan >&2
# Scan's compiler and flags, read from its Makefile.
flags="$(nice_make --eval 'tandem-print-flags: ; @echo "$(CXX)|$(CXXFLAGS)|$(LDFLAGS)|$(OBJS)"' tandem-print-flags)"
IFS='|' read -r scan_cxx scan_cxxflags scan_ldflags scan_objs <<<"$flags"
scan_cxx="$(echo "$scan_cxx" | awk '{print $1}')"
step "driver: $scan_cxx $scan_cxxflags"
objs=()
for o in $scan_objs; do
  [ "$o" = main.o ] || objs+=("$build/src/$o")
done
# shellcheck disable=SC2086 # the flags are word lists
"$scan_cxx" $scan_cxxflags -I "$build/src" -c "$root/docs/bench/scan-driver/scan_perft.cpp" -o "$build/scan_perft.o"
# shellcheck disable=SC2086
"$scan_cxx" $scan_ldflags -o "$build/scan_perft" "$build/scan_perft.o" "${objs[@]}"
scan_bin="$build/scan_perft"

step "building tandem (release)"
# shellcheck source=scripts/env.sh
. "$here/env.sh"
(cd "$root" && cargo build --release -p tandem --bin tandem >&2)
tandem_bin="$root/target/release/tandem"

run_scan() { "$scan_bin" "$2" "$1"; }
run_tandem() { "$tandem_bin" perft --fen "$1" --json "$2"; }
field() { jq -r ".$2" <<<"$1"; }

step "checking that both count the same at depths 1-8"
for c in "${cases[@]}"; do
  IFS='|' read -r name fen _ _ _ <<<"$c"
  for d in 1 2 3 4 5 6 7 8; do
    s="$(field "$(run_scan "$fen" "$d")" nodes)"
    t="$(field "$(run_tandem "$fen" "$d")" nodes)"
    if [ "$s" != "$t" ]; then
      echo "COUNTS DIFFER: $name depth $d: Scan $s, tandem $t" >&2
      exit 1
    fi
  done
done

stamp="$(date -u +%Y-%m-%d-%H%M)"
[ -n "$out" ] || out="$root/docs/bench/scan-runs-$stamp.md"
commit="$(git -C "$root" rev-parse --short=12 HEAD)"
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no -- rules assistant Cargo.toml Cargo.lock .cargo)" ]; then
  commit="$commit (with uncommitted changes)"
fi
scan_id="$(git -C "$scan_dir" log -1 --format='%h %s' 2>/dev/null || true)"
scan_sum="$(cat "$scan_dir"/*.cpp "$scan_dir"/*.hpp | sha256sum | cut -c1-16)"
cpu="$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)"

raw="$(mktemp)"
trap 'rm -f "$raw"' EXIT
for r in $(seq 1 "$rounds"); do
  for c in "${cases[@]}"; do
    IFS='|' read -r name fen depth expected _ <<<"$c"
    if [ $((r % 2)) -eq 1 ]; then order="scan tandem"; else order="tandem scan"; fi
    for engine in $order; do
      load="$(cut -d' ' -f1 /proc/loadavg)"
      json="$("run_$engine" "$fen" "$depth")"
      nodes="$(field "$json" nodes)"
      secs="$(field "$json" seconds)"
      if [ "$nodes" != "$expected" ]; then
        echo "WRONG COUNT: $engine $name depth $depth gave $nodes, expected $expected" >&2
        exit 1
      fi
      printf '%s\t%s\t%s\t%s\t%s\t%.4f\t%s\n' "$r" "$name" "$depth" "$engine" "$nodes" "$secs" "$load" >>"$raw"
      step "round $r $name $engine: $secs s (load $load)"
    done
  done
done

cg="$(mktemp)"
trap 'rm -f "$raw" "$cg"' EXIT
if [ "$callgrind" = 1 ] && command -v valgrind >/dev/null; then
  ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/refs:/ {gsub(",", "", $NF); print $NF}'; }
  for c in "${cases[@]}"; do
    IFS='|' read -r name fen _ _ cgdepth <<<"$c"
    step "callgrind: $name perft $cgdepth"
    s=$(($(ir "$scan_bin" "$cgdepth" "$fen") - $(ir "$scan_bin" 1 "$fen")))
    t=$(($(ir "$tandem_bin" perft --fen "$fen" --json "$cgdepth") - $(ir "$tandem_bin" perft --fen "$fen" --json 1)))
    printf '%s\t%s\t%s\t%s\n' "$name" "$cgdepth" "$s" "$t" >>"$cg"
  done
fi

median() { # name engine
  awk -F'\t' -v n="$1" -v e="$2" '$2 == n && $4 == e {print $6}' "$raw" | sort -g |
    awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else printf "%.4f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

{
  echo "# Perft, tandem against Scan 3.1: raw runs of $stamp (UTC)"
  echo
  echo "Written by \`scripts/bench-scan.sh\` (method: \`docs/bench/scan-comparison.md\`)."
  echo
  echo "- tandem commit: $commit; \`cargo build --release -p tandem\`, $(rustc --version)"
  echo "- Scan: ${scan_id:-source folder} (sources sha256 $scan_sum), built with its Makefile: $scan_cxx $scan_cxxflags; $("$scan_cxx" --version | head -1)"
  echo "- CPU: $cpu, $(nproc) cores; $(uname -sr)"
  echo "- load average (1 min) before the first run: $(awk -F'\t' 'NR == 1 {print $7}' "$raw"), after the last: $(cut -d' ' -f1 /proc/loadavg)"
  echo "- $rounds rounds, interleaved (the program that starts is swapped every round); counts checked at depths 1-8 and at every run"
  echo
  echo "| round | position | depth | program | leaves | seconds | load (1 min) |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  awk -F'\t' '{printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7}' "$raw"
  echo
  echo "| position | Scan median | tandem median | tandem's speed / Scan's |"
  echo "| --- | --- | --- | --- |"
  for c in "${cases[@]}"; do
    IFS='|' read -r name _ depth _ _ <<<"$c"
    s="$(median "$name" scan)"
    t="$(median "$name" tandem)"
    echo "| $name, perft $depth | $s s | $t s | $(awk -v s="$s" -v t="$t" 'BEGIN {printf "%.2f", s / t}') |"
  done
  if [ -s "$cg" ]; then
    echo
    echo "Instructions executed (valgrind --tool=callgrind, $(valgrind --version)), the perft call less a depth-1 run:"
    echo
    echo "| position | Scan | tandem | Scan's / tandem's |"
    echo "| --- | --- | --- | --- |"
    awk -F'\t' '{printf "| %s, perft %s | %d | %d | %.2f |\n", $1, $2, $3, $4, $3 / $4}' "$cg"
  fi
} >"$out"
echo "raw results: $out" >&2
sed -n '/^| position | Scan median/,$p' "$out"
