//! The chess arbiter tools (002 annex E.7-E.8, art. 7.4-7.5) on real games:
//! records made to diverge in code at many plies (a wrong move, a missing
//! ply in either record, two moves swapped, one record ending early, an
//! illegal move), transpositions, board diffs and read-backs.

use tandem_rules::chess::arbiter::{
    compare_chess_readback, diff_boards, diff_chess, parse_chess_readback, reconcile_chess,
    reconcile_chess_game, ChessFix, ChessReadbackError,
};
use tandem_rules::chess::pgn::{parse_pgn, replay, Replay};
use tandem_rules::chess::shakmaty::{Board, Chess, Color, Piece, Position, Role, Square};
use tandem_rules::chess::{from_fen, start, to_fen, uci, ChessError, ChessGame, ChessMove};
use tandem_rules::reconcile::{Finding, Side};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/chess");

/// Every 8th game of the Aronian collection, replayed: (SAN record, game).
fn games() -> Vec<(Vec<String>, ChessGame)> {
    let text = std::fs::read_to_string(format!("{DATA}/aronian-1993-2002.pgn")).unwrap();
    let all = parse_pgn(&text);
    assert!(all.len() >= 400, "{} games", all.len());
    all.iter()
        .step_by(8)
        .filter_map(|g| match replay(g) {
            Replay::Ok(game) if game.ply() >= 20 => Some((game.sans().to_vec(), game)),
            _ => None,
        })
        .collect()
}

/// Plies to break a game at: early, middle and late, and near the end.
fn plies(n: usize) -> Vec<usize> {
    let mut v = vec![0, 1, 5, n / 3, n / 2, (2 * n) / 3, n - 3];
    v.sort_unstable();
    v.dedup();
    v.retain(|&k| k + 3 <= n);
    v
}

#[test]
fn a_record_agrees_with_itself_in_another_notation() {
    for (sans, game) in games() {
        let ucis: Vec<String> = game.moves().iter().map(uci).collect();
        let r = reconcile_chess(&start(), &sans, &ucis);
        assert!(r.agree(), "{:?}", r.first_difference);
        assert_eq!(r.agreed_plies, sans.len());
        assert_eq!(r.finding, Finding::Agree);
        assert!(r.transposition.is_none());
        assert_eq!(r.agreed_moves(), sans);
        assert_eq!(r.agreed_position(), game.position());
        // The running game against the typed record, too.
        assert!(reconcile_chess_game(&game, &ucis).agree());
    }
}

#[test]
fn a_wrong_move_is_found_at_its_ply_with_both_versions_legal() {
    let mut cases = 0;
    for (sans, game) in games() {
        for k in plies(sans.len()) {
            let pos = game.position_at(k).unwrap();
            // Another legal move in the same position.
            let Some(other) = pos
                .legal_moves()
                .iter()
                .map(ChessMove::from_shakmaty)
                .find(|m| *m != game.moves()[k])
            else {
                continue;
            };
            let mut b = sans.clone();
            b[k] = tandem_rules::chess::san(pos, &other);
            let r = reconcile_chess(&start(), &sans, &b);
            assert_eq!(r.agreed_plies, k, "{sans:?} at {k}");
            let d = r.first_difference.as_ref().unwrap();
            assert_eq!(d.ply, k + 1);
            assert_eq!((d.a_legal(), d.b_legal()), (Some(true), Some(true)));
            assert_eq!(d.b_result, Some(Ok(other)));
            assert_eq!(r.finding, Finding::WrongMove { ply: k + 1 }, "{b:?}");
            assert_eq!(r.agreed_position(), pos);
            assert!(!r.agree());
            cases += 1;
        }
    }
    assert!(cases >= 200, "{cases}");
}

#[test]
fn a_missing_ply_is_found_in_either_record() {
    let mut cases = 0;
    for (sans, game) in games() {
        for k in plies(sans.len()) {
            if sans[k] == sans[k + 1] {
                // `Rxd8 Rxd8`: either may be the one missing.
                continue;
            }
            let mut short = sans.clone();
            short.remove(k);
            let r = reconcile_chess(&start(), &sans, &short);
            assert_eq!(r.agreed_plies, k);
            assert_eq!(
                r.finding,
                Finding::MissingPly {
                    record: Side::B,
                    ply: k + 1
                },
                "{sans:?} without {k}"
            );
            // The other way round.
            let r = reconcile_chess(&start(), &short, &sans);
            assert_eq!(
                r.finding,
                Finding::MissingPly {
                    record: Side::A,
                    ply: k + 1
                }
            );
            assert_eq!(r.agreed_position(), game.position_at(k).unwrap());
            cases += 1;
        }
    }
    assert!(cases >= 200, "{cases}");
}

#[test]
fn swapped_moves_of_one_side_are_found_and_transpose_when_both_orders_are_legal() {
    let (mut cases, mut transposed) = (0, 0);
    for (sans, game) in games() {
        for k in plies(sans.len()) {
            if sans[k] == sans[k + 2] {
                continue;
            }
            let mut b = sans.clone();
            b.swap(k, k + 2);
            let r = reconcile_chess(&start(), &sans, &b);
            assert_eq!(r.agreed_plies, k);
            assert_eq!(
                r.finding,
                Finding::Swapped {
                    first: k + 1,
                    second: k + 3
                },
                "{sans:?} swapped at {k}"
            );
            cases += 1;
            let b_legal_to = r.b.legal();
            if b_legal_to < k + 3 {
                // The other order is illegal: B's replay stops at one of the three.
                let ill = r.illegal(Side::B).unwrap();
                assert!((k + 1..=k + 3).contains(&ill.ply), "{ill:?}");
                assert!(r.illegal(Side::A).is_none());
                continue;
            }
            let (pa, pb) = (
                game.position_at(k + 3).unwrap(),
                r.b.game.position_at(k + 3).unwrap(),
            );
            if pa.board() != pb.board() {
                // The moves do not commute (a capture took another piece).
                continue;
            }
            // The boards match after the second swapped move; the positions
            // may match only later, when an en passant or castling right
            // that one order gave has lapsed (002 art. 9.2).
            let t = r.transposition.as_ref().unwrap();
            assert_eq!(t.from_ply, k + 1);
            assert!(t.same_after == k + 3 || pa != pb, "{t:?}");
            assert!(t.same_after <= k + 5, "{t:?}");
            if r.b.illegal.is_none() {
                assert_eq!(t.last_common_ply(), sans.len());
                assert_eq!(&t.last_common, game.position());
            }
            transposed += 1;
        }
    }
    assert!(cases >= 200 && transposed >= 20, "{cases} {transposed}");
}

#[test]
fn a_record_that_ends_early() {
    for (sans, game) in games().into_iter().take(10) {
        let k = sans.len() / 2;
        let r = reconcile_chess(&start(), &sans[..k], &sans);
        assert_eq!(
            r.finding,
            Finding::Ends {
                shorter: Side::A,
                plies: k
            }
        );
        let d = r.first_difference.as_ref().unwrap();
        assert_eq!((d.a_legal(), d.b_legal()), (None, Some(true)));
        assert_eq!(d.b.as_deref(), Some(sans[k].as_str()));
        assert_eq!(r.agreed_position(), game.position_at(k).unwrap());
    }
}

#[test]
fn an_illegal_move_is_found_with_its_reason() {
    for (sans, game) in games().into_iter().take(20) {
        let k = sans.len() / 2;
        let mut b = sans.clone();
        // The king cannot go two squares but by castling (002 art. 3.8).
        let king = game.position_at(k).unwrap();
        let ksq = king.board().king_of(king.turn()).unwrap();
        let Some(target) = [ksq.offset(16), ksq.offset(-16)]
            .into_iter()
            .flatten()
            .next()
        else {
            continue;
        };
        b[k] = format!("{ksq}{target}");
        let r = reconcile_chess(&start(), &sans, &b);
        assert_eq!(r.agreed_plies, k);
        let d = r.first_difference.as_ref().unwrap();
        assert_eq!((d.a_legal(), d.b_legal()), (Some(true), Some(false)));
        assert!(matches!(d.b_result, Some(Err(ChessError::Illegal { .. }))));
        let ill = r.illegal(Side::B).unwrap();
        assert_eq!((ill.ply, ill.text.as_str()), (k + 1, b[k].as_str()));
        assert_eq!(r.finding, Finding::WrongMove { ply: k + 1 });
        assert!(!r.agree());
    }
}

#[test]
fn the_same_illegal_move_in_both_records() {
    let a = ["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "Bxe8"];
    let r = reconcile_chess(&start(), &a, &a);
    assert_eq!(r.finding, Finding::SameIllegal { ply: 7 });
    assert_eq!(r.agreed_plies, 6);
    assert!(!r.agree());
}

#[test]
fn a_move_order_transposition_is_found() {
    // 1. e4 e5 2. Nf3 Nc6 and 1. Nf3 Nc6 2. e4 e5 reach the same position.
    let a = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"];
    let b = ["Nf3", "Nc6", "e4", "e5", "Bb5", "a6"];
    let r = reconcile_chess(&start(), &a, &b);
    assert_eq!(r.agreed_plies, 0);
    assert_eq!(r.finding, Finding::Differ { ply: 1 });
    let t = r.transposition.unwrap();
    assert_eq!(
        (t.from_ply, t.same_after, t.agree_again, t.last_common_ply()),
        (1, 4, 2, 6)
    );
    assert_eq!(
        to_fen(&t.last_common),
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
    );
}

#[test]
fn a_transposition_needs_the_same_castling_rights() {
    // Kf1-Ke1 loses castling: the boards match, the positions do not (002 art. 9.2).
    let a = ["e4", "e5", "Nf3", "Nc6", "Be2", "Nf6"];
    let b = [
        "e4", "e5", "Be2", "Nc6", "Kf1", "Nf6", "Ke1", "Ng8", "Nf3", "Nf6",
    ];
    let r = reconcile_chess(&start(), &a, &b);
    assert!(r.transposition.is_none());
}

#[test]
fn records_from_a_set_up_position() {
    let p = from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    let r = reconcile_chess(&p, &["e4", "Kd7", "e5"], &["e2e4", "e8d7", "e4e5"]);
    assert!(r.agree());
    let r = reconcile_chess(&p, &["e4", "Kd7", "e5"], &["e3", "Kd7", "e5"]);
    assert_eq!(r.finding, Finding::WrongMove { ply: 1 });
    assert_eq!(r.start(), &p);
}

/// Applies the fixes of `changes` to `board` (the second board).
fn apply(board: &Board, changes: &[tandem_rules::chess::arbiter::ChessSquareChange]) -> Board {
    let mut b = board.clone();
    for c in changes {
        match c.fix().unwrap() {
            ChessFix::Remove { square, piece } => {
                assert_eq!(b.remove_piece_at(square), Some(piece));
            }
            ChessFix::Put { square, piece } => {
                assert_eq!(b.piece_at(square), None);
                b.set_piece_at(square, piece);
            }
            ChessFix::Replace {
                square,
                remove,
                put,
            } => {
                assert_eq!(b.remove_piece_at(square), Some(remove));
                b.set_piece_at(square, put);
            }
        }
    }
    b
}

#[test]
fn board_diffs_of_real_games_name_the_squares_a_move_touches_and_fix_the_board() {
    let mut checked = 0;
    for (_, game) in games() {
        for (i, m) in game.moves().iter().enumerate() {
            let (before, after) = (
                game.position_at(i).unwrap(),
                game.position_at(i + 1).unwrap(),
            );
            let d = diff_chess(after, before);
            let want = match m.kind {
                tandem_rules::chess::MoveKind::Castle { .. } => 4,
                tandem_rules::chess::MoveKind::EnPassant => 3,
                tandem_rules::chess::MoveKind::Normal => 2,
            };
            assert_eq!(d.len(), want, "{m:?}");
            assert!(d.windows(2).all(|w| w[0].square < w[1].square));
            assert!(d.iter().any(|c| c.square == m.from && c.b.is_some()));
            // The fixes turn the board before the move into the board after it.
            assert_eq!(&apply(before.board(), &d), after.board());
            // Two plies apart, too.
            if let Some(later) = game.position_at(i + 2) {
                let d = diff_chess(later, before);
                assert_eq!(&apply(before.board(), &d), later.board());
            }
            checked += 1;
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn a_captured_piece_left_on_the_board_is_a_replace() {
    let a = from_fen("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2").unwrap();
    let b = from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2").unwrap();
    let d = diff_chess(&a, &b);
    assert_eq!(d.len(), 2);
    assert_eq!(
        d[0].fix(),
        Some(ChessFix::Remove {
            square: Square::E4,
            piece: Piece {
                color: Color::White,
                role: Role::Pawn
            }
        })
    );
    assert_eq!(
        d[1].fix(),
        Some(ChessFix::Replace {
            square: Square::D5,
            remove: Piece {
                color: Color::Black,
                role: Role::Pawn
            },
            put: Piece {
                color: Color::White,
                role: Role::Pawn
            },
        })
    );
}

#[test]
fn a_whole_fen_read_back_compares_every_square() {
    for (_, game) in games().into_iter().take(10) {
        for i in (0..game.ply()).step_by(7) {
            let pos = game.position_at(i).unwrap();
            let fen = to_fen(pos);
            // The whole FEN, or only its board: the same position, no change.
            for text in [fen.as_str(), fen.split(' ').next().unwrap()] {
                let rb = parse_chess_readback(text).unwrap();
                assert!(rb.complete);
                assert!(compare_chess_readback(pos, &rb).is_empty(), "{text}");
            }
            // Another ply's board read back: exactly the diff of the two.
            let other = game.position_at(i + 1).unwrap();
            let rb = parse_chess_readback(&to_fen(other)).unwrap();
            assert_eq!(compare_chess_readback(pos, &rb), diff_chess(pos, other));
        }
    }
}

#[test]
fn a_board_read_back_need_not_be_a_legal_position() {
    // The white king fell off the board (002 art. 7.5).
    let rb = parse_chess_readback("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR").unwrap();
    let c = compare_chess_readback(&start(), &rb);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].square, Square::E1);
    assert_eq!(c[0].b, None);
    assert!(matches!(
        c[0].fix(),
        Some(ChessFix::Put {
            square: Square::E1,
            ..
        })
    ));
    let empty: Board = "8/8/8/8/8/8/8/8".parse().unwrap();
    assert_eq!(diff_boards(start().board(), &empty).len(), 32);
}

#[test]
fn squares_read_back_one_by_one_in_any_of_the_forms() {
    let pos: Chess = start();
    let rb = parse_chess_readback(
        "e2:empty; e4:P, d7 -\nG8: n, b1=wn, f8 black bishop, c8: czarny goniec, d1: biały hetman, a1 wieża biała",
    )
    .unwrap();
    assert!(!rb.complete);
    assert_eq!(rb.squares.len(), 9);
    let c = compare_chess_readback(&pos, &rb);
    let sq: Vec<Square> = c.iter().map(|c| c.square).collect();
    // Only e2 (emptied), e4 (a pawn) and d7 (emptied) differ.
    assert_eq!(sq, [Square::E2, Square::E4, Square::D7]);
    assert_eq!(
        c[1].b,
        Some(Piece {
            color: Color::White,
            role: Role::Pawn
        })
    );
}

#[test]
fn bad_read_backs_say_what_is_wrong() {
    assert_eq!(parse_chess_readback("\n"), Err(ChessReadbackError::Empty));
    let e = parse_chess_readback("e4:P, e9:p").unwrap_err();
    assert_eq!(e, ChessReadbackError::BadSquare("e9".into()));
    assert!(e.to_string().contains("a1"));
    let e = parse_chess_readback("e4: purple pawn").unwrap_err();
    assert_eq!(e, ChessReadbackError::BadPiece("purple pawn".into()));
    assert!(matches!(
        parse_chess_readback("e4:P, e4:empty"),
        Err(ChessReadbackError::Conflict(s)) if s == "e4"
    ));
    // The same square twice with the same piece is fine.
    assert_eq!(
        parse_chess_readback("e4:P, e4 white pawn")
            .unwrap()
            .squares
            .len(),
        1
    );
    assert!(matches!(
        parse_chess_readback("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"),
        Err(ChessReadbackError::Fen(_))
    ));
}
