// scan_perft: perft over Scan 3.1's own move generator, for tandem's speed
// comparison (docs/bench/scan-comparison.md, scripts/bench-scan.sh).
//
// Written for tandem; it contains no code of Scan. It is compiled together
// with the object files of a Scan source folder the user supplies (Scan is
// GPL-3 and is not copied into this repository) and calls only Scan's public
// functions: bit::init, hash::init, pos::init, var::init, pos_from_fen,
// gen_moves, Pos::succ and List.
//
// Usage: scan_perft DEPTH [FEN]
//   FEN in Scan's (= PDN) form, e.g. W:W31,...:B1,...; default: the start.
// Prints one JSON object: {"engine":"scan","depth":D,"nodes":N,"seconds":S}.
// Only the perft call is timed (steady clock), as `tandem perft --json` does.
//
// Counting convention: the last ply is bulk-counted (the size of Scan's legal
// move list); Scan's list keeps one move per (from, to, captured set), the
// convention of tandem and of the published counts.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "bit.hpp"
#include "fen.hpp"
#include "gen.hpp"
#include "hash.hpp"
#include "list.hpp"
#include "pos.hpp"
#include "var.hpp"

namespace {

std::uint64_t leaves(const Pos &here, int depth) {
    List moves;
    gen_moves(moves, here);
    if (depth <= 1) {
        return static_cast<std::uint64_t>(moves.size());
    }
    std::uint64_t total = 0;
    for (int i = 0; i < moves.size(); ++i) {
        total += leaves(here.succ(moves[i]), depth - 1);
    }
    return total;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: %s DEPTH [FEN]\n", argv[0]);
        return 2;
    }
    const int depth = std::atoi(argv[1]);
    if (depth < 1) {
        std::fprintf(stderr, "depth must be 1 or more, not %s\n", argv[1]);
        return 2;
    }

    // The start-up sequence of Scan's own main(), without reading scan.ini:
    // the default variant is international draughts ("normal").
    bit::init();
    hash::init();
    pos::init();
    var::init();

    Pos root = pos::Start;
    if (argc == 3) {
        try {
            root = pos_from_fen(argv[2]);
        } catch (...) {
            std::fprintf(stderr, "Scan cannot read the FEN %s\n", argv[2]);
            return 2;
        }
    }

    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t n = leaves(root, depth);
    const auto t1 = std::chrono::steady_clock::now();
    const double secs = std::chrono::duration<double>(t1 - t0).count();
    std::printf("{\"engine\":\"scan\",\"depth\":%d,\"nodes\":%llu,\"seconds\":%.6f}\n",
                depth, static_cast<unsigned long long>(n), secs);
    return 0;
}
