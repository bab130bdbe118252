//! Property tests of the backgammon rules: every legal move's text resolves
//! back to it, checkers are neither made nor lost, the pips fall by the dice
//! used, and the Position ID and Match ID read back what they wrote.

use proptest::prelude::*;
use tandem_rules::backgammon::{
    apply, legal_plays, match_id, notation, position_id, resolve, Board, Dice,
};
use tandem_rules::Color;

mod support;
use support::board_after;

fn on_board(b: &Board, side: Color) -> u32 {
    b.side(side).iter().map(|&n| u32::from(n)).sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_moves_text_resolves_back_to_it(seed in any::<u64>(), plies in 0usize..120) {
        let (b, d) = board_after(seed, plies);
        for p in legal_plays(&b, d) {
            let text = notation::write(&b, &p);
            let back = resolve(&b, d, &text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(position_id::encode(&apply(&b, &back)), position_id::encode(&apply(&b, &p)), "{}", text);
            // The plain form (`.mat`) reads back too.
            let plain = notation::write_plain(&b, &p);
            let back = resolve(&b, d, &plain).map_err(|e| TestCaseError::fail(format!("{plain}: {e}")))?;
            prop_assert_eq!(apply(&b, &back), apply(&b, &p), "{}", plain);
        }
    }

    #[test]
    fn fifteen_checkers_a_side_and_pips_fall_by_the_dice(seed in any::<u64>(), plies in 0usize..120) {
        let (b, d) = board_after(seed, plies);
        let me = b.turn();
        let them = me.other();
        let dice_sum = if d.is_double() { 4 * u32::from(d.0) } else { u32::from(d.0) + u32::from(d.1) };
        for p in legal_plays(&b, d) {
            let a = apply(&b, &p);
            for side in [Color::White, Color::Black] {
                prop_assert_eq!(on_board(&a, side) + u32::from(a.borne_off(side)), 15);
            }
            // The opponent loses no checker off the board; hits go to the bar.
            prop_assert_eq!(a.borne_off(them), b.borne_off(them));
            // Each step moves by a die (bearing off may use a larger die).
            let mut used = 0u32;
            for s in p.steps() {
                let dist = u32::from(s.from - s.to);
                let die = if s.from == 25 { 25 - u32::from(s.to) } else { dist };
                prop_assert!(die == u32::from(d.0) || die == u32::from(d.1) || (s.to == 0 && dist < u32::from(d.0.max(d.1))), "{:?} with {}", p, d);
                used += dist;
            }
            let fall = b.pips(me) - a.pips(me);
            prop_assert_eq!(fall, used);
            prop_assert!(fall <= dice_sum);
            if !a.all_home(me) && b.bar(me) == 0 {
                // No bearing off happened, so every pip of every step counts a die.
                prop_assert_eq!(a.borne_off(me), b.borne_off(me));
            }
        }
    }

    #[test]
    fn position_id_round_trip(seed in any::<u64>(), plies in 0usize..150) {
        let (b, _) = board_after(seed, plies);
        let id = position_id::encode(&b);
        prop_assert_eq!(id.len(), 14);
        prop_assert_eq!(position_id::decode(&id, b.turn()).unwrap(), b);
    }

    #[test]
    fn match_id_round_trip(
        cube_log in 0u32..7, owner in 0u8..3, roll_white in any::<bool>(), turn_white in any::<bool>(),
        crawford in any::<bool>(), state in 0u8..5, doubled in any::<bool>(), resigned in 0u8..4,
        dice in proptest::option::of((1u8..7, 1u8..7)), length in 0u32..64, sw in 0u32..64, sb in 0u32..64,
    ) {
        let side = |w: bool| if w { Color::White } else { Color::Black };
        let info = match_id::MatchInfo {
            cube: 1 << cube_log,
            cube_owner: match owner { 0 => Some(Color::White), 1 => Some(Color::Black), _ => None },
            on_roll: side(roll_white),
            crawford,
            game_state: state,
            turn: side(turn_white),
            doubled,
            resigned,
            dice: dice.map(|(a, b)| Dice(a, b)),
            length,
            score_white: sw,
            score_black: sb,
        };
        let id = match_id::encode(&info);
        prop_assert_eq!(id.len(), 12);
        prop_assert_eq!(match_id::decode(&id).unwrap(), info);
    }

    #[test]
    fn untrusted_text_never_panics(text in ".{0,40}", id in "[A-Za-z0-9+/]{14}", mid in "[A-Za-z0-9+/]{12}") {
        let b = Board::start(Color::White);
        let _ = resolve(&b, Dice(3, 1), &text);
        let _ = position_id::decode(&id, Color::White);
        let _ = match_id::decode(&mid);
        let _ = tandem_rules::backgammon::mat::import(&text);
    }
}
