//! Results and draw rules of 001 ch. I 6-7 (issue 2 item 6).

use tandem_rules::draughts::{DrawCount, DrawRule, Game, Move, Position, Role, Variant};
use tandem_rules::{Color, DrawReason, GameOptions, Outcome, WinReason};

fn game(v: Variant, fen: &str) -> Game {
    Game::from_position(Position::from_fen(v, fen).unwrap(), GameOptions::default())
}

/// The first quiet king move after which the opponent has no capture and
/// (with `fresh`) the position has not stood before.
/// The count of `rule` running in `g`.
fn count(g: &Game, rule: DrawRule) -> DrawCount {
    g.draw_counts()
        .into_iter()
        .find(|c| c.rule == rule)
        .unwrap()
}

fn safe_king_move(g: &Game, fresh: bool) -> Move {
    let pos = g.position();
    let seen: Vec<Position> = (0..=g.ply()).map(|i| *g.position_at(i).unwrap()).collect();
    let v = pos.variant();
    // Of the safe moves, the one ending farthest from the opponent's pieces
    // (kings that keep apart do not run out of safe moves).
    let distance = |m: &Move| {
        let (r, c) = v.coords(m.to());
        pos.pieces()
            .filter(|(_, p)| p.color != pos.turn())
            .map(|(sq, _)| {
                let (r2, c2) = v.coords(sq);
                r.abs_diff(r2) + c.abs_diff(c2)
            })
            .min()
            .unwrap_or(0)
    };
    pos.legal_moves()
        .into_iter()
        .filter(|m| {
            let mut next = *pos;
            next.play_unchecked(m);
            !m.is_capture()
                && pos.piece_at(m.from()).unwrap().role == Role::King
                && next.legal_moves().iter().all(|r| !r.is_capture())
                && (!fresh || !seen.contains(&next))
        })
        .max_by_key(distance)
        .unwrap_or_else(|| panic!("no safe king move in {}", pos.to_fen()))
}

fn play_fresh(g: &mut Game, plies: usize) {
    for _ in 0..plies {
        assert!(
            g.outcome().is_none(),
            "ended early at ply {}: {:?}",
            g.ply(),
            g.outcome()
        );
        let m = safe_king_move(g, true);
        g.play(&m).unwrap();
    }
}

#[test]
fn loss_with_no_pieces_and_when_blocked() {
    // 7.2.3: white takes black's last piece.
    let mut g = game(Variant::International, "W:W28:B23");
    g.play_text("28x19").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::NoPieces
        })
    );
    // 7.2.2: black to move, its man on 45 is blocked by the white man on 50.
    let g = game(Variant::International, "B:W50:B45");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Blocked
        })
    );
    assert!(game(Variant::International, "B:W40:B45")
        .outcome()
        .is_none());
}

#[test]
fn threefold_repetition_6_1() {
    let mut g = game(Variant::International, "W:WK47,36:BK4,15");
    let w1 = safe_king_move(&g, true);
    g.play(&w1).unwrap();
    let b1 = safe_king_move(&g, true);
    g.play(&b1).unwrap();
    let back = |m: Move, g: &Game| {
        let text = format!("{}-{}", m.to(), m.from());
        tandem_rules::draughts::notation::resolve(g.position(), &text).unwrap()
    };
    for ply in 2..8 {
        let m = match ply % 4 {
            0 => w1,
            1 => b1,
            2 => back(w1, &g),
            _ => back(b1, &g),
        };
        assert!(g.outcome().is_none(), "ply {ply}");
        g.play(&m).unwrap();
    }
    // The start position stood at plies 0, 4 and 8.
    assert_eq!(g.repetitions(), 3);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Repetition
        })
    );
}

#[test]
fn twenty_five_king_moves_6_2_and_twenty_in_64() {
    // Kings and men on both sides (no endgame rule): 25 moves each of kings only.
    let mut g = game(Variant::International, "W:WK47,K49,36:BK2,K4,15");
    play_fresh(&mut g, 49);
    let c = count(&g, DrawRule::KingMoves);
    assert_eq!((c.limit, c.plies, c.moves_left()), (25, 49, 1));
    play_fresh(&mut g, 1);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::KingMoves
        })
    );

    // 64: 20 moves; a man move resets the count.
    let mut g = game(Variant::SixtyFour, "W:WKe1,h2,g1:BKd8,a7,b8");
    play_fresh(&mut g, 3);
    assert_eq!(
        (g.draw_counts()[0].plies, g.draw_counts()[0].limit),
        (3, 20)
    );
    g.play_text("a7-b6").unwrap();
    assert!(g
        .draw_counts()
        .iter()
        .all(|c| c.rule != DrawRule::KingMoves));
    play_fresh(&mut g, 40);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::KingMoves
        })
    );
}

#[test]
fn endgame_rules_6_3_and_6_4() {
    // 6.4: two kings against one, 5 moves each.
    let mut g = game(Variant::International, "W:WK47,K49:BK4");
    assert_eq!(count(&g, DrawRule::Endgame5).moves_left(), 5);
    play_fresh(&mut g, 9);
    assert_eq!(count(&g, DrawRule::Endgame5).moves_left(), 1);
    play_fresh(&mut g, 1);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::ShortEndgame
        })
    );

    // 6.3: three kings against one: 16 moves each; 25 with draws with advantage (6.5.3).
    let g = game(Variant::International, "W:WK46,K47,K48:BK5");
    assert_eq!(count(&g, DrawRule::Endgame16).limit, 16);
    let g = Game::from_position(
        Position::from_fen(Variant::International, "W:WK46,K47,K48:BK5").unwrap(),
        GameOptions {
            draws_with_advantage: true,
            ..GameOptions::default()
        },
    );
    assert_eq!(count(&g, DrawRule::Endgame16).limit, 25);
    // 64: the weaker side's king holds the main diagonal: 5 moves.
    let g = game(Variant::SixtyFour, "W:WKc1,Ke1,Kg1:BKd4");
    assert_eq!(count(&g, DrawRule::MainDiagonal5).limit, 5);
    // 64: three kings against one, the stronger side on the main diagonal: 15 moves.
    let g = game(Variant::SixtyFour, "W:WKa1,Ke1,Kg1:BKb8");
    assert_eq!(count(&g, DrawRule::ThreeKings15).limit, 15);
    // 64 otherwise: no 6.3 count, 6.2 applies.
    let g = game(Variant::SixtyFour, "W:WKc1,Ke1,g1:BKb8");
    assert!(g.draw_counts().is_empty());
}

#[test]
fn draw_offers_after_40_moves_or_15_in_64() {
    let g = Game::new(Variant::International);
    assert!(!g.may_offer_draw(Color::White));
    assert_eq!(Variant::International.draw_offer_min_moves(), 40);
    assert_eq!(Variant::SixtyFour.draw_offer_min_moves(), 15);
}
