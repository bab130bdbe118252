//! Property tests (issue 2): every generated move is legal and resolves from
//! its own notation; FEN and move text round-trip; the parsers never panic.

use proptest::prelude::*;
use tandem_rules::draughts::notation::{resolve, write_move, MoveText};
use tandem_rules::draughts::pdn::{parse_pdn, replay, write_pdn, PdnHeader, Replay};
use tandem_rules::draughts::{perft, Game, Position, Variant};

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::International), Just(Variant::SixtyFour)]
}

/// A game of random legal moves (choices are indices into the move list).
fn random_game(v: Variant, choices: &[usize]) -> Game {
    let mut g = Game::new(v);
    for &c in choices {
        if g.outcome().is_some() {
            break;
        }
        let moves = g.position().legal_moves();
        let m = moves[c % moves.len()];
        g.play(&m).unwrap();
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn generated_moves_are_legal_and_resolve_from_their_notation(v in variant(), choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let g = random_game(v, &choices);
        for ply in 0..=g.ply() {
            let pos = g.position_at(ply).unwrap();
            let moves = pos.legal_moves();
            for m in &moves {
                prop_assert!(pos.is_legal(m));
                let text = write_move(pos, m);
                let back = resolve(pos, &text);
                prop_assert_eq!(back.as_ref().ok(), Some(m), "{} in {}", text, pos.to_fen());
                // Captures also resolve from the full landing path.
                if m.is_capture() {
                    let mut path = pos.variant().square_name(m.from());
                    for l in m.landings() {
                        path.push('x');
                        path.push_str(&pos.variant().square_name(l));
                    }
                    let r = resolve(pos, &path).ok();
                    prop_assert_eq!(r.as_ref(), Some(m), "{} in {}", path, pos.to_fen());
                }
            }
            // Majority rule: all captures take the same number of pieces, the largest.
            if let Some(first) = moves.first() {
                let n = first.capture_count();
                prop_assert!(moves.iter().all(|m| m.capture_count() == n));
                let max = pos.all_captures().iter().map(|m| m.capture_count()).max().unwrap_or(0);
                prop_assert_eq!(n, max);
            }
            // Bulk counting agrees with the list.
            prop_assert_eq!(pos.count_legal(), moves.len());
            prop_assert_eq!(perft(pos, 1), moves.len() as u64);
        }
    }

    #[test]
    fn fen_round_trips(v in variant(), choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let g = random_game(v, &choices);
        let pos = g.position();
        let fen = pos.to_fen();
        prop_assert_eq!(&Position::from_fen(v, &fen).unwrap(), pos);
        prop_assert_eq!(Position::from_fen(v, &fen).unwrap().to_fen(), fen);
    }

    #[test]
    fn pdn_round_trips(v in variant(), choices in prop::collection::vec(any::<usize>(), 0..80)) {
        let g = random_game(v, &choices);
        let text = write_pdn(&g, &PdnHeader::default(), "*");
        let games = parse_pdn(&text);
        prop_assert_eq!(games.len(), 1);
        match replay(&games[0], Variant::International) {
            Replay::Ok(back) => {
                prop_assert_eq!(back.position(), g.position());
                prop_assert_eq!(back.move_texts(), g.move_texts());
            }
            other => prop_assert!(false, "{}", other),
        }
    }

    #[test]
    fn parsers_never_panic(v in variant(), s in ".{0,80}") {
        let _ = Position::from_fen(v, &s);
        let _ = MoveText::parse(v, &s);
        let _ = resolve(&Position::start(v), &s);
        for g in parse_pdn(&s) {
            let _ = replay(&g, v);
        }
    }

    #[test]
    fn parsers_never_panic_on_near_misses(v in variant(), s in "[WBK0-9a-h:,x -]{0,40}") {
        let _ = Position::from_fen(v, &s);
        let _ = resolve(&Position::start(v), &s);
        let _ = parse_pdn(&format!("[FEN \"{s}\"]\n1. {s} *"));
    }
}
