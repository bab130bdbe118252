//! Arbiter tools on real tournament games whose records were made to diverge
//! (001 ch. VIII 3.1; 002 annex E.7-E.8): a wrong move at ply k, a missing
//! ply, two moves swapped, a transposition; and board differences.

use tandem_rules::draughts::arbiter::{
    compare_readback, diff_positions, parse_readback, reconcile, Fix,
};
use tandem_rules::draughts::notation::{write_move, ResolveError};
use tandem_rules::draughts::pdn::{parse_pdn, replay, Replay};
use tandem_rules::draughts::{Game, PlayError, Position, Variant};
use tandem_rules::reconcile::{Finding, Side};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

/// Real games (strict notation of every ply) from the PDN test data.
fn games(file: &str) -> Vec<Game> {
    let text = std::fs::read_to_string(format!("{DATA}/pdn/{file}")).unwrap();
    parse_pdn(&text)
        .iter()
        .filter_map(|g| match replay(g, Variant::International) {
            Replay::Ok(game) if game.ply() >= 30 => Some(game),
            _ => None,
        })
        .collect()
}

fn all_games() -> Vec<Game> {
    let mut v = games("nk2009-ronde12.pdn");
    v.extend(games("wk2003.pdn").into_iter().take(8));
    v.extend(games("lidraughts-brazilian.pdn").into_iter().take(6));
    assert!(v.len() >= 15, "too few real games: {}", v.len());
    assert!(v.iter().any(|g| g.variant() == Variant::SixtyFour));
    v
}

/// Plies where the mover had a choice of quiet moves (a slip there stays legal).
fn plies_with_alternatives(g: &Game) -> Vec<usize> {
    (1..g.ply())
        .filter(|&k| {
            let pos = g.position_at(k - 1).unwrap();
            pos.legal_moves().len() > 1 && !g.moves()[k - 1].is_capture()
        })
        .collect()
}

#[test]
fn identical_real_records_agree_however_written() {
    for g in all_games() {
        let a = g.move_texts();
        // The same record with spaces instead of dashes (as typed from a scoresheet).
        let b: Vec<String> = a.iter().map(|t| t.replace('-', " ")).collect();
        let r = reconcile(g.start(), &a, &b);
        assert!(r.agree(), "{:?}", r.first_difference);
        assert_eq!(r.agreed_plies, g.ply());
        assert_eq!(r.agreed_position(), g.position());
        assert_eq!(r.finding, Finding::Agree);
    }
}

#[test]
fn a_wrong_move_at_ply_k_is_found_at_k_and_both_versions_are_legal() {
    let mut checked = 0;
    for g in all_games() {
        let a = g.move_texts();
        for k in plies_with_alternatives(&g).into_iter().step_by(7) {
            let pos = g.position_at(k - 1).unwrap();
            let other = pos
                .legal_moves()
                .into_iter()
                .find(|m| *m != g.moves()[k - 1])
                .unwrap();
            let mut b = a.clone();
            b[k - 1] = write_move(pos, &other);
            let r = reconcile(g.start(), &a, &b);
            assert_eq!(r.agreed_plies, k - 1);
            assert_eq!(r.agreed_position(), pos);
            let d = r.first_difference.as_ref().unwrap();
            assert_eq!(d.ply, k);
            assert_eq!(d.a.as_deref(), Some(a[k - 1].as_str()));
            assert_eq!(d.b.as_deref(), Some(b[k - 1].as_str()));
            assert_eq!((d.a_legal(), d.b_legal()), (Some(true), Some(true)));
            assert_eq!(r.finding, Finding::WrongMove { ply: k });
            assert!(r.illegal(Side::A).is_none());
            // The record with the slip goes wrong later, or ends in another position.
            assert!(
                r.illegal(Side::B).is_some_and(|i| i.ply > k)
                    || r.b.game.position() != g.position()
            );
            assert!(!r.agree());
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked}");
}

#[test]
fn a_missing_ply_is_named_and_the_next_move_is_the_wrong_colour() {
    let mut checked = 0;
    for g in all_games() {
        let a = g.move_texts();
        for k in (3..g.ply() - 2).step_by(11) {
            let mut b = a.clone();
            b.remove(k - 1);
            let r = reconcile(g.start(), &a, &b);
            assert_eq!(r.agreed_plies, k - 1, "game {:?} k {k}", g.start());
            assert_eq!(
                r.finding,
                Finding::MissingPly {
                    record: Side::B,
                    ply: k
                }
            );
            let d = r.first_difference.as_ref().unwrap();
            assert_eq!(d.b_legal(), Some(false));
            // And the other way round: A lacks it.
            let r = reconcile(g.start(), &b, &a);
            assert_eq!(
                r.finding,
                Finding::MissingPly {
                    record: Side::A,
                    ply: k
                }
            );
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked}");
}

#[test]
fn two_swapped_plies_are_named() {
    let mut checked = 0;
    for g in all_games() {
        let a = g.move_texts();
        for k in (2..g.ply() - 2).step_by(9) {
            let mut b = a.clone();
            b.swap(k - 1, k);
            let r = reconcile(g.start(), &a, &b);
            assert_eq!(r.agreed_plies, k - 1);
            assert_eq!(
                r.finding,
                Finding::Swapped {
                    first: k,
                    second: k + 1
                }
            );
            // Black's move written where White's belongs: the piece is not theirs,
            // unless the two moves are the same text (never in these games).
            let d = r.first_difference.as_ref().unwrap();
            assert_eq!(d.b_legal(), Some(false));
            match d.b_result.as_ref().unwrap() {
                Err(PlayError::Resolve(
                    ResolveError::NotYourPiece { .. }
                    | ResolveError::NoPiece { .. }
                    | ResolveError::CaptureCompulsory { .. },
                )) => {}
                other => panic!("ply {k}: {other:?}"),
            }
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked}");
}

#[test]
fn a_transposition_is_found_and_the_records_agree_again() {
    let mut found = 0;
    for g in all_games() {
        let a = g.move_texts();
        // The same side's moves k and k+2 in the other order, where both orders are legal.
        for k in 1..g.ply() - 2 {
            let mut b = a.clone();
            b.swap(k - 1, k + 1);
            let r = reconcile(g.start(), &a, &b);
            let Some(t) = &r.transposition else { continue };
            assert_eq!(r.agreed_plies, k - 1);
            assert_eq!(t.from_ply, k);
            assert_eq!(t.same_after, k + 2);
            assert_eq!(t.last_common_ply(), g.ply());
            assert_eq!(&t.last_common, g.position());
            assert_eq!(
                r.finding,
                Finding::Swapped {
                    first: k,
                    second: k + 2
                }
            );
            found += 1;
            break;
        }
    }
    assert!(found >= 10, "{found}");
}

#[test]
fn diff_between_plies_names_the_moved_and_captured_squares() {
    for g in all_games() {
        for k in 0..g.ply() {
            let (before, after) = (g.position_at(k).unwrap(), g.position_at(k + 1).unwrap());
            let m = g.moves()[k];
            let d = diff_positions(after, before).unwrap();
            let mut want: Vec<u8> = m.captured().map(|s| s.number()).collect();
            if m.from() != m.to() {
                want.extend([m.from().number(), m.to().number()]);
            }
            want.sort_unstable();
            let got: Vec<u8> = d.changes.iter().map(|c| c.square.number()).collect();
            assert_eq!(got, want, "ply {}", k + 1);
            assert_eq!(d.turn, Some((after.turn(), before.turn())));
            // The fixes turn the board before the move into the board after it.
            let mut board = *before;
            for c in &d.changes {
                match c.fix().unwrap() {
                    Fix::Remove { square, .. } => board.set(square, None),
                    Fix::Put { square, piece } => board.set(square, Some(piece)),
                    Fix::Replace { square, put, .. } => board.set(square, Some(put)),
                }
            }
            board.set_turn(after.turn());
            assert_eq!(&board, after);
        }
    }
}

#[test]
fn a_board_read_back_square_by_square_is_compared_with_the_game() {
    let g = &games("nk2009-ronde12.pdn")[0];
    let game = g.position_at(40).unwrap();
    // The player reads back the whole board as a FEN, with one man missing.
    let (sq, _) = game.pieces().next().unwrap();
    let mut board = *game;
    board.set(sq, None);
    let rb = parse_readback(Variant::International, &board.to_fen()).unwrap();
    let c = compare_readback(game, &rb);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].square, sq);
    assert!(matches!(c[0].fix(), Some(Fix::Put { .. })));
    // A partial read-back: only the squares named are compared.
    let items: Vec<String> = game
        .pieces()
        .take(3)
        .map(|(s, p)| format!("{}:{}", s.number(), p.name()))
        .collect();
    let rb = parse_readback(Variant::International, &items.join(", ")).unwrap();
    assert!(compare_readback(game, &rb).is_empty());
}

#[test]
fn sixty_four_square_records_in_algebraic_notation_reconcile() {
    let g = games("lidraughts-brazilian.pdn")
        .into_iter()
        .next()
        .unwrap();
    assert_eq!(g.variant(), Variant::SixtyFour);
    let a = g.move_texts();
    assert!(a[0].contains(char::is_alphabetic), "{}", a[0]);
    // The same record with square numbers 1-32, as some scoresheets have it.
    let numbers: Vec<String> = g
        .moves()
        .iter()
        .map(|m| format!("{}-{}", m.from().number(), m.to().number()))
        .collect();
    let r = reconcile(g.start(), &a, &numbers);
    assert!(r.agree(), "{:?}", r.first_difference);
    let start = Position::start(Variant::SixtyFour);
    assert_eq!(g.start(), &start);
}
