//! What more than one backgammon test file needs: boards reached by random
//! legal play.

use tandem_rules::backgammon::{apply, legal_plays, Board, Dice, Play};
use tandem_rules::Color;

/// A board reached by `plies` random legal moves from the start (seeded).
pub fn board_after(seed: u64, plies: usize) -> (Board, Dice) {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let die = |n: u64| u8::try_from(n % 6).unwrap() + 1;
    let mut b = Board::start(Color::White);
    for _ in 0..plies {
        let d = Dice(die(next()), die(next()));
        let plays = legal_plays(&b, d);
        let p = if plays.is_empty() {
            Play::PASS
        } else {
            plays[usize::try_from(next() % plays.len() as u64).unwrap()]
        };
        let after = apply(&b, &p);
        if after.borne_off(b.turn()) == 15 {
            break;
        }
        b = after;
    }
    let d = Dice(die(next()), die(next()));
    (b, d)
}
