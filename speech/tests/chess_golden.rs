//! Golden files for chess speech (002 annex E.2): one block per scenario with
//! the FEN, the event and the `SPEECH[prio]:` lines.
//!
//! Regenerate with `UPDATE_GOLDEN=1 cargo test -p tandem-speech --test chess_golden`
//! and review the diff.

use std::fmt::Write as _;

use tandem_rules::chess::arbiter::diff_chess;
use tandem_rules::chess::{from_fen, resolve, start, to_fen};
use tandem_rules::{Color, DrawReason, Outcome, WinReason};
use tandem_speech::chess::{ChessAnnouncer, ChessPhrasebook, FileStyle};

fn scenarios(book: &ChessPhrasebook) -> String {
    let a = ChessAnnouncer::new(book.clone(), FileStyle::Names);
    let letters = ChessAnnouncer::new(book.clone(), FileStyle::Letters);
    let mut out = String::new();
    let moves: &[(&str, Option<&str>, &str)] = &[
        ("pawn move", None, "e4"),
        ("knight move", None, "Nf3"),
        (
            "capture: the captured piece comes off",
            Some("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
            "exd5",
        ),
        (
            "en passant: the pawn comes off its own square",
            Some("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
            "exf6",
        ),
        (
            "short castling",
            Some("r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 8"),
            "O-O",
        ),
        (
            "long castling by black",
            Some("r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R4RK1 b kq - 1 8"),
            "0-0-0",
        ),
        (
            "promotion with a capture and check",
            Some("3rk3/2P5/8/8/8/8/8/4K3 w - - 0 40"),
            "cxd8=Q+",
        ),
        (
            "under-promotion",
            Some("8/4P2k/8/8/8/8/8/4K3 w - - 0 40"),
            "e8=N",
        ),
        (
            "checkmate",
            Some("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2"),
            "Qh4#",
        ),
        (
            "a rook takes a queen",
            Some("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1"),
            "Rxd8+",
        ),
    ];
    for (title, fen, mv) in moves {
        let pos = fen.map_or_else(start, |f| from_fen(f).unwrap());
        let m = resolve(&pos, mv).unwrap();
        writeln!(out, "## {title}").unwrap();
        writeln!(out, "fen: {}", to_fen(&pos)).unwrap();
        writeln!(out, "event: move {mv}").unwrap();
        writeln!(out, "{}", a.on_move(&pos, &m).golden_line()).unwrap();
        writeln!(out, "{}", letters.on_move(&pos, &m).golden_line()).unwrap();
        writeln!(out).unwrap();
    }
    let refusals: &[(&str, Option<&str>, &str)] = &[
        (
            "ambiguous knight: ask which",
            Some("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"),
            "Nd2",
        ),
        (
            "promotion piece missing: ask which",
            Some("8/4P2k/8/8/8/8/8/4K3 w - - 0 40"),
            "e7e8",
        ),
        ("no piece there", None, "e3e4"),
        ("opponent's piece", None, "e7e5"),
        ("own piece on the target", None, "d1d2"),
        ("the piece does not move so", None, "g1g3"),
        ("no such move", None, "Nf4"),
        (
            "pinned piece",
            Some("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"),
            "e2c3",
        ),
        (
            "castling not allowed",
            Some("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1"),
            "O-O",
        ),
        ("not a move", None, "hello"),
    ];
    for (title, fen, text) in refusals {
        let pos = fen.map_or_else(start, |f| from_fen(f).unwrap());
        let e = resolve(&pos, text).unwrap_err();
        writeln!(out, "## {title}").unwrap();
        writeln!(out, "fen: {}", to_fen(&pos)).unwrap();
        writeln!(out, "event: rejected {text}").unwrap();
        writeln!(out, "{}", a.on_rejected(text, &e).golden_line()).unwrap();
        writeln!(out).unwrap();
    }
    let ends = [
        (
            "checkmate",
            Outcome::Win {
                winner: Color::Black,
                reason: WinReason::Checkmate,
            },
        ),
        (
            "resignation",
            Outcome::Win {
                winner: Color::White,
                reason: WinReason::Resignation,
            },
        ),
        (
            "flag",
            Outcome::Win {
                winner: Color::White,
                reason: WinReason::Time,
            },
        ),
        (
            "stalemate",
            Outcome::Draw {
                reason: DrawReason::Stalemate,
            },
        ),
        (
            "dead position",
            Outcome::Draw {
                reason: DrawReason::DeadPosition,
            },
        ),
        (
            "threefold repetition claimed",
            Outcome::Draw {
                reason: DrawReason::Repetition,
            },
        ),
        (
            "fifty moves claimed",
            Outcome::Draw {
                reason: DrawReason::FiftyMoves,
            },
        ),
        (
            "agreement",
            Outcome::Draw {
                reason: DrawReason::Agreement,
            },
        ),
    ];
    for (title, o) in ends {
        writeln!(out, "## game over: {title}").unwrap();
        writeln!(out, "{}", a.game_over(&o).golden_line()).unwrap();
        writeln!(out).unwrap();
    }
    for r in [DrawReason::Repetition, DrawReason::FiftyMoves] {
        writeln!(out, "## draw may be claimed: {r:?}").unwrap();
        writeln!(out, "{}", a.claimable(r).unwrap().golden_line()).unwrap();
        writeln!(out).unwrap();
    }
    writeln!(out, "## turn").unwrap();
    let p = from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
    writeln!(out, "{}", a.turn(&p).golden_line()).unwrap();
    // The arbiter (002 annex E.7-E.8): the record's position against a board
    // where e2-e4 was not made, the knight went to f6 instead of c6, and a
    // captured pawn was left where the capturing piece should stand.
    let record =
        from_fen("r1bqkbnr/ppp2ppp/2n5/3Bp3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4").unwrap();
    let board = from_fen("rnbqkb1r/ppp2ppp/5n2/3pp3/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 0 3").unwrap();
    let changes = diff_chess(&record, &board);
    writeln!(out, "\n## arbiter: boards differ").unwrap();
    writeln!(out, "record: {}", to_fen(&record)).unwrap();
    writeln!(out, "board: {}", to_fen(&board)).unwrap();
    writeln!(out, "{}", a.boards_differ(&changes).golden_line()).unwrap();
    writeln!(out, "## arbiter: fix the board").unwrap();
    writeln!(out, "{}", a.fix_board(&changes).golden_line()).unwrap();
    writeln!(out, "{}", letters.fix_board(&changes).golden_line()).unwrap();
    writeln!(
        out,
        "screen: {}",
        a.fix_sentences(&changes, false).join(" ")
    )
    .unwrap();
    out
}

fn check(lang: &str, book: &ChessPhrasebook) {
    let path = format!(
        "{}/tests/golden/chess-{lang}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let got = scenarios(book);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (run with UPDATE_GOLDEN=1)"));
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "{path}: first difference at line {}", i + 1);
    }
    assert_eq!(got.lines().count(), want.lines().count(), "{path}");
}

#[test]
fn golden_chess_polish() {
    check("pl", &ChessPhrasebook::polish());
}

#[test]
fn golden_chess_english() {
    check("en", &ChessPhrasebook::english());
}

#[test]
fn every_legal_move_of_real_positions_is_announced_in_full_sentences() {
    // Every move from a few busy positions: non-empty, ends in punctuation,
    // names its target square.
    let a = ChessAnnouncer::new(ChessPhrasebook::polish(), FileStyle::Names);
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ] {
        let pos = from_fen(fen).unwrap();
        for m in tandem_rules::chess::ChessGame::from_position(pos.clone(), Default::default())
            .legal_moves()
        {
            let u = a.on_move(&pos, &m);
            assert!(!u.sentences.is_empty());
            for s in &u.sentences {
                assert!(s.ends_with(['.', '?', '!']), "{s}");
            }
            assert!(
                u.text().contains(&a.square(m.to)),
                "{}: {}",
                m.uci(),
                u.text()
            );
            if m.is_capture() {
                assert!(u.text().contains("Zdejmij"), "{}", u.text());
            }
        }
    }
}
