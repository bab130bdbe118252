//! What a seat's e-board shows, against the game (issue 42,
//! docs/eboards.md): the decisions, apart from the line and the session,
//! so that they are tested and measured alone.
//!
//! A reading (the 64 squares the board reports) counts once it has stood
//! still for the settle time: a piece slid across the squares between, a
//! piece knocked and put back, are seen only in passing and do nothing.
//! A settled reading is
//! - the game's position: the board is up to date (`board-done` when it
//!   was behind the other side's move; the lights go out);
//! - a legal next position, on the seat's turn: that move is played,
//!   whatever order the hand worked in (the board shows only where the
//!   pieces end up); a move that is also on the way to another (the rook
//!   of a castling set down first is a rook move) counts only after it has
//!   stood [`HOLD`] times the settle time;
//! - the position before the last move: the board is behind, the lights
//!   show that move until the board shows it;
//! - on the way: every piece on it stands where it stands now or where a
//!   legal move (or the move the board lacks) puts it, so a hand is at work
//!   (pieces lifted, a king set down before its rook); it waits as long as
//!   it takes;
//! - else wrong: after a second unchanged, a mismatch (once for that
//!   reading); play goes on once the board is put right.

use std::time::{Duration, Instant};

use tandem_rules::Color;

use crate::interface::BoardSight;

/// How many settle times a move that is also on the way to another must
/// stand before it counts.
pub const HOLD: u32 = 5;

/// What the seat's adapter is to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// Play this move for the seat (the game's text of it).
    Play(String),
    /// The seat's board shows the game's position now.
    Done,
    /// The board shows no position of the game: this placement.
    Mismatch(String),
    /// Show these squares on the board's lights (none: all out).
    Lights(Vec<String>),
}

/// The game as the adapter last heard of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameNow {
    /// What the board is compared with (`None`: no game to follow, over).
    pub sight: Option<BoardSight>,
    /// Who is to move.
    pub turn: Option<Color>,
    /// The seat's board lacks moves (the session's count).
    pub behind: bool,
}

/// How a settled reading stands to the game.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Class {
    Now,
    /// A legal next position; `true`: also on the way to another move.
    Next(usize, bool),
    Before,
    OnTheWay,
    Wrong,
}

/// The decisions for one seat's board.
#[derive(Debug)]
pub struct Watch {
    side: Color,
    settle: Duration,
    mismatch_after: Duration,
    game: GameNow,
    reading: Option<(String, Instant)>,
    /// The reading was decided on against the game as it is.
    decided: bool,
    /// A mismatch was reported for this reading.
    reported: bool,
    lights: Vec<String>,
}

impl Watch {
    /// The board of `side`'s seat, a reading counting after `settle`
    /// unchanged, a wrong one reported after `mismatch_after`.
    #[must_use]
    pub fn new(side: Color, settle: Duration, mismatch_after: Duration) -> Watch {
        Watch {
            side,
            settle,
            mismatch_after: mismatch_after.max(settle),
            game: GameNow::default(),
            reading: None,
            decided: false,
            reported: false,
            lights: Vec::new(),
        }
    }

    /// The game changed (or was told again).
    pub fn game(&mut self, game: GameNow) {
        if game != self.game {
            if game.sight != self.game.sight {
                self.reported = false;
            }
            self.game = game;
            self.decided = false;
        }
    }

    /// The board reported its squares at `at`.
    pub fn reading(&mut self, squares: String, at: Instant) {
        if self.reading.as_ref().map(|r| &r.0) != Some(&squares) {
            self.reading = Some((squares, at));
            self.decided = false;
            self.reported = false;
        }
    }

    /// The board is gone: nothing it showed counts; lit lights are
    /// forgotten (a board plugged back starts dark).
    pub fn lost(&mut self) {
        self.reading = None;
        self.decided = false;
        self.lights.clear();
    }

    /// When [`Watch::decide`] has something to decide next.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        let (_, since) = self.reading.as_ref()?;
        if !self.decided {
            return Some(*since + self.settle_of(self.class().as_ref()));
        }
        (!self.reported && self.class() == Some(Class::Wrong)).then(|| *since + self.mismatch_after)
    }

    fn class(&self) -> Option<Class> {
        let (r, _) = self.reading.as_ref()?;
        let sight = self.game.sight.as_ref()?;
        Some(classify(sight, r))
    }

    /// How long a reading of `class` must stand.
    fn settle_of(&self, class: Option<&Class>) -> Duration {
        match class {
            Some(Class::Next(_, true)) => self.settle * HOLD,
            _ => self.settle,
        }
    }

    /// What to do at `now`.
    pub fn decide(&mut self, now: Instant) -> Vec<Act> {
        let mut acts = Vec::new();
        let class = self.class();
        let settled = self
            .reading
            .as_ref()
            .is_some_and(|(_, since)| now >= *since + self.settle_of(class.as_ref()));
        let class = if settled { class } else { None };
        if let (Some(class), false) = (&class, self.decided) {
            self.decided = true;
            match class {
                Class::Now if self.game.behind => acts.push(Act::Done),
                Class::Next(i, _) if self.game.turn == Some(self.side) => {
                    if let Some(m) = self.game.sight.as_ref().and_then(|s| s.next.get(*i)) {
                        acts.push(Act::Play(m.text.clone()));
                    }
                }
                _ => {}
            }
        }
        if let (Some(Class::Wrong), Some((r, since))) = (&class, &self.reading) {
            if !self.reported && now >= *since + self.mismatch_after {
                self.reported = true;
                acts.push(Act::Mismatch(r.clone()));
            }
        }
        let lights = self.wanted_lights(class.as_ref());
        if lights != self.lights {
            self.lights.clone_from(&lights);
            acts.push(Act::Lights(lights));
        }
        acts
    }

    /// The last move's squares while the board lacks it, else none.
    fn wanted_lights(&self, class: Option<&Class>) -> Vec<String> {
        let Some(last) = self.game.sight.as_ref().and_then(|s| s.last.as_ref()) else {
            return Vec::new();
        };
        let lacks = match class {
            Some(Class::Now) => false,
            Some(Class::Before) => true,
            _ => self.game.behind,
        };
        if lacks {
            last.squares.clone()
        } else {
            Vec::new()
        }
    }
}

fn classify(sight: &BoardSight, r: &str) -> Class {
    if r == sight.now {
        return Class::Now;
    }
    if let Some(i) = sight.next.iter().position(|m| m.placement == r) {
        let passing = sight.next.iter().any(|m| m.via.iter().any(|v| v == r));
        return Class::Next(i, passing);
    }
    if sight.last.as_ref().is_some_and(|l| l.placement == r) {
        return Class::Before;
    }
    let mut ways = sight
        .next
        .iter()
        .map(|m| (&sight.now, &m.placement, &m.via[..]));
    let on_the_way = on_the_way(r, &sight.now, &sight.now, &[])
        || ways.any(|(from, to, via)| on_the_way(r, from, to, via))
        || sight
            .last
            .as_ref()
            .is_some_and(|l| on_the_way(r, &l.placement, &sight.now, &[]));
    if on_the_way {
        Class::OnTheWay
    } else {
        Class::Wrong
    }
}

/// Every piece on `r` stands where it stands in `from`, in `to`, or in one
/// of `via` (empty squares are pieces in the hand).
fn on_the_way(r: &str, from: &str, to: &str, via: &[String]) -> bool {
    r.bytes().enumerate().all(|(i, c)| {
        c == b'.'
            || from.as_bytes().get(i) == Some(&c)
            || to.as_bytes().get(i) == Some(&c)
            || via.iter().any(|v| v.as_bytes().get(i) == Some(&c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interface::SightMove;

    const START: &str = "rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR";
    const E4: &str = "rnbqkbnrpppppppp....................P...........PPPP.PPPRNBQKBNR";

    fn sight() -> BoardSight {
        BoardSight {
            now: START.into(),
            last: None,
            next: vec![SightMove {
                placement: E4.into(),
                text: "e2e4".into(),
                squares: vec!["e2".into(), "e4".into()],
                via: Vec::new(),
            }],
        }
    }

    fn watch() -> (Watch, Instant) {
        let mut w = Watch::new(
            Color::White,
            Duration::from_millis(500),
            Duration::from_secs(1),
        );
        w.game(GameNow {
            sight: Some(sight()),
            turn: Some(Color::White),
            behind: false,
        });
        (w, Instant::now())
    }

    #[test]
    fn a_move_counts_once_it_has_settled() {
        let (mut w, t) = watch();
        w.reading(E4.into(), t);
        assert!(w.decide(t + Duration::from_millis(100)).is_empty());
        assert_eq!(w.deadline(), Some(t + Duration::from_millis(500)));
        assert_eq!(
            w.decide(t + Duration::from_millis(500)),
            [Act::Play("e2e4".into())]
        );
        assert!(w.decide(t + Duration::from_secs(5)).is_empty(), "once");
    }

    #[test]
    fn a_lifted_piece_waits_and_a_stray_one_is_a_mismatch_once() {
        let (mut w, t) = watch();
        let lifted = START.replacen('P', ".", 1);
        w.reading(lifted, t);
        assert!(w.decide(t + Duration::from_secs(9)).is_empty());
        let stray = format!("{}N{}", &START[..40], &START[41..]);
        w.reading(stray.clone(), t);
        assert!(w.decide(t + Duration::from_millis(600)).is_empty());
        assert_eq!(w.decide(t + Duration::from_secs(1)), [Act::Mismatch(stray)]);
        assert!(w.decide(t + Duration::from_secs(3)).is_empty());
    }

    #[test]
    fn a_move_on_the_way_to_another_waits_longer() {
        let (mut w, t) = watch();
        // As if e2e4 were also the first half of another move.
        let mut s = sight();
        s.next.push(SightMove {
            placement: "x".repeat(64),
            text: "other".into(),
            squares: Vec::new(),
            via: vec![E4.into()],
        });
        w.game(GameNow {
            sight: Some(s),
            turn: Some(Color::White),
            behind: false,
        });
        w.reading(E4.into(), t);
        assert!(w.decide(t + Duration::from_millis(600)).is_empty());
        assert_eq!(w.deadline(), Some(t + Duration::from_millis(500) * HOLD));
        assert_eq!(
            w.decide(t + Duration::from_millis(500) * HOLD),
            [Act::Play("e2e4".into())]
        );
    }

    #[test]
    fn the_lights_show_the_move_the_board_lacks_until_it_shows_it() {
        let (mut w, t) = watch();
        // The other side played e2e4; the board still shows the start.
        let s = BoardSight {
            now: E4.into(),
            last: Some(SightMove {
                placement: START.into(),
                text: "e2e4".into(),
                squares: vec!["e2".into(), "e4".into()],
                via: Vec::new(),
            }),
            next: Vec::new(),
        };
        w.game(GameNow {
            sight: Some(s),
            turn: Some(Color::White),
            behind: true,
        });
        w.reading(START.into(), t);
        assert_eq!(
            w.decide(t + Duration::from_secs(1)),
            [Act::Lights(vec!["e2".into(), "e4".into()])]
        );
        w.reading(E4.into(), t + Duration::from_secs(2));
        assert_eq!(
            w.decide(t + Duration::from_secs(3)),
            [Act::Done, Act::Lights(Vec::new())]
        );
    }
}
