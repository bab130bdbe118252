//! Entering a backgammon turn and a roll from the braille display's keys.
//!
//! **A turn by the routing keys.** A turn is several checker steps. The
//! routing key over a point (or the bar) picks a checker up (dots 7-8 mark
//! the cell); the key over another point (or the borne-off cell) puts it
//! there: one step of the turn, which may use one die or several (`24` then
//! `20` with 3-1). Each pick and each step is checked against the roll at
//! once ([`tandem_rules::backgammon::check_steps`]) and said back ("From
//! eight.", "Eight to five."): the game answers a query text
//! ([`query_text`]: `steps 13/8 from 8`) with its words and changes nothing.
//! A step no legal move allows is refused with the rules' reason and
//! nothing of it stays. The board line shows the board after the steps
//! entered so far. When the steps make a whole legal move of the roll, the
//! move goes to the game as the same text typed (`13/8 8/5`, gnubg's form)
//! and is played, journaled and announced like any typed move. The routing
//! key over the picked cell again, or the cancel key, drops the steps
//! entered so far ("Steps cleared."). When the roll cannot be played at
//! all, the pass is the only move: any routing key over the board plays it.
//!
//! The cells are in the viewer's numbering (the blind player's: the board
//! line); the texts for the game are in the mover's numbering (the
//! notation's), so a viewer entering the opponent's move routes the points
//! as shown and the texts are turned round ([`to_mover`]).
//!
//! **A roll by the braille keys.** Type the two dice as two characters,
//! then Enter: the digits `1`-`6` as the display's own braille table
//! writes them, or the letters `a`-`f` (dots 1, 1-2, 1-4, 1-4-5, 1-5, 1-2-4:
//! the digit shapes of literary braille without the number sign), so
//! `c` `a` Enter (or `3` `1` Enter) enters 3-1. The display shows `roll 3`,
//! then `roll 31`; backspace takes the last die back, the cancel key both.
//! Enter sends `roll 3 1` to the game, which checks it (an opening roll
//! is white's die first).

use tandem_rules::backgammon::{
    check_from, check_steps, notation, steps_text, Board, Match, MoveError, Phase, Step, StepCheck,
};
use tandem_rules::Color;

use super::BgSpot;

/// The word that starts a query about steps entered on the display.
pub const STEPS: &str = "steps";

/// The viewer's spot as the mover numbers it: a point `p` of the viewer's is
/// the opponent's `25 - p`; the bar is 25, off 0.
///
/// ```
/// use tandem_braille::backgammon::{input::to_mover, BgSpot};
/// use tandem_rules::Color;
/// assert_eq!(to_mover(BgSpot::Point(8), Color::Black, Color::Black), 8);
/// assert_eq!(to_mover(BgSpot::Point(8), Color::Black, Color::White), 17);
/// assert_eq!(to_mover(BgSpot::Bar, Color::Black, Color::White), 25);
/// ```
#[must_use]
pub fn to_mover(spot: BgSpot, viewer: Color, mover: Color) -> u8 {
    match spot {
        BgSpot::Bar => 25,
        BgSpot::Off => 0,
        BgSpot::Point(p) if viewer == mover => p,
        BgSpot::Point(p) => 25 - p,
    }
}

/// A die typed on the braille keys: `1`-`6`, or `a`-`f` (the digit shapes
/// of literary braille without the number sign).
#[must_use]
pub fn die_of(c: char) -> Option<u8> {
    match c.to_ascii_lowercase() {
        d @ '1'..='6' => Some(d as u8 - b'0'),
        l @ 'a'..='f' => Some(l as u8 - b'a' + 1),
        _ => None,
    }
}

/// The query text for the game: the steps entered (mover's numbering) and
/// the point a checker was just picked up from, if any: `steps 13/8 from 8`;
/// `steps` alone: the steps were dropped.
#[must_use]
pub fn query_text(steps: &[Step], from: Option<u8>) -> String {
    let mut s = STEPS.to_owned();
    if !steps.is_empty() {
        s.push(' ');
        s.push_str(&steps_text(steps));
    }
    if let Some(p) = from {
        s.push_str(&format!(" from {}", point_name(p)));
    }
    s
}

fn point_name(p: u8) -> String {
    match p {
        25 => "bar".to_owned(),
        0 => "off".to_owned(),
        p => p.to_string(),
    }
}

fn point_of(word: &str) -> Option<u8> {
    match word {
        "bar" => Some(25),
        "off" => Some(0),
        w => w.parse::<u8>().ok().filter(|&p| p <= 25),
    }
}

/// Reads a query text back: the steps and the picked point; `None` if
/// `text` is not one.
///
/// ```
/// use tandem_braille::backgammon::input::{parse_query, query_text};
/// use tandem_rules::backgammon::Step;
/// let steps = [Step { from: 25, to: 22 }, Step { from: 6, to: 0 }];
/// let text = query_text(&steps, Some(8));
/// assert_eq!(text, "steps bar/22 6/off from 8");
/// assert_eq!(parse_query(&text), Some((steps.to_vec(), Some(8))));
/// assert_eq!(parse_query("8/5 6/5"), None);
/// ```
#[must_use]
pub fn parse_query(text: &str) -> Option<(Vec<Step>, Option<u8>)> {
    let lower = text.trim().to_ascii_lowercase();
    let mut words = lower.split_whitespace();
    if words.next() != Some(STEPS) {
        return None;
    }
    let mut steps = Vec::new();
    let mut from = None;
    while let Some(w) = words.next() {
        if w == "from" {
            from = Some(point_of(words.next()?)?);
            if words.next().is_some() {
                return None;
            }
            break;
        }
        let (a, b) = w.split_once('/')?;
        steps.push(Step {
            from: point_of(a)?,
            to: point_of(b)?,
        });
    }
    Some((steps, from))
}

/// What a key asks of the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BgRequest {
    /// A question to answer in words, changing nothing ([`query_text`]).
    Query(String),
    /// The whole move, as gnubg writes it: play it as if typed.
    Move(String),
}

/// The turn and the roll being entered on the display.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BgInput {
    /// The spot a checker was picked up from (viewer's numbering).
    pick: Option<BgSpot>,
    /// The steps entered (mover's numbering).
    steps: Vec<Step>,
    /// The dice typed so far.
    dice: Vec<u8>,
}

impl BgInput {
    /// The spot picked, waiting for its destination.
    #[must_use]
    pub fn picked(&self) -> Option<BgSpot> {
        self.pick
    }

    /// The steps entered so far (mover's numbering).
    #[must_use]
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Drops the pick and the steps; whether there were any.
    pub fn clear_steps(&mut self) -> bool {
        let had = self.pick.is_some() || !self.steps.is_empty();
        self.pick = None;
        self.steps.clear();
        had
    }

    /// The board with the steps entered so far played (the mover still on
    /// roll), for the board line.
    #[must_use]
    pub fn shown_board(&self, m: &Match) -> Board {
        match (m.dice(), self.steps.is_empty()) {
            (Some(d), false) => match check_steps(m.board(), d, &self.steps) {
                StepCheck::Partial { board, .. } => board,
                _ => *m.board(),
            },
            _ => *m.board(),
        }
    }

    /// The dice still to play after the steps entered, while there are steps.
    #[must_use]
    pub fn dice_left(&self, m: &Match) -> Option<Vec<u8>> {
        match (m.dice(), self.steps.is_empty()) {
            (Some(d), false) => match check_steps(m.board(), d, &self.steps) {
                StepCheck::Partial { dice, .. } => Some(dice),
                _ => None,
            },
            _ => None,
        }
    }

    /// The routing key over `spot` on `m`'s board line seen by `viewer`:
    /// what to ask the game, and the refusal if the key changed nothing
    /// because the rules forbid it (the game words the same reason).
    pub fn route(
        &mut self,
        m: &Match,
        viewer: Color,
        spot: BgSpot,
    ) -> (BgRequest, Option<MoveError>) {
        let mover = m.board().turn();
        let p = to_mover(spot, viewer, mover);
        let dice = match (m.phase(), m.dice()) {
            (Phase::Move, Some(d)) => d,
            // No roll to play: the game says why (roll first, a double waits…).
            _ => return (BgRequest::Query(query_text(&[], Some(p))), None),
        };
        let board = m.board();
        if m.legal().is_empty() {
            // A roll that cannot be played: the pass is the only move, and
            // any routing key over the board plays it (the dance is said).
            self.clear_steps();
            return (BgRequest::Move("pass".into()), None);
        }
        match self.pick {
            Some(s) if s == spot => {
                self.clear_steps();
                (BgRequest::Query(query_text(&[], None)), None)
            }
            Some(s) => {
                self.pick = None;
                let mut all = self.steps.clone();
                all.push(Step {
                    from: to_mover(s, viewer, mover),
                    to: p,
                });
                match check_steps(board, dice, &all) {
                    StepCheck::Partial { .. } => {
                        self.steps.clone_from(&all);
                        (BgRequest::Query(query_text(&all, None)), None)
                    }
                    StepCheck::Complete(play) => {
                        self.steps.clear();
                        (BgRequest::Move(notation::write(board, &play)), None)
                    }
                    StepCheck::Refused(e) => (BgRequest::Query(query_text(&all, None)), Some(e)),
                }
            }
            None => {
                let q = BgRequest::Query(query_text(&self.steps, Some(p)));
                match check_from(board, dice, &self.steps, p) {
                    Ok(()) => {
                        self.pick = Some(spot);
                        (q, None)
                    }
                    Err(e) => (q, Some(e)),
                }
            }
        }
    }

    /// A character typed: a die (see [`die_of`]) is added while fewer than
    /// two are typed; `false` if it is not taken.
    pub fn type_char(&mut self, c: char) -> bool {
        match die_of(c) {
            Some(d) if self.dice.len() < 2 => {
                self.dice.push(d);
                true
            }
            _ => false,
        }
    }

    /// Backspace: the last die typed goes; `false` if none was.
    pub fn erase(&mut self) -> bool {
        self.dice.pop().is_some()
    }

    /// Drops the dice typed; whether there were any.
    pub fn clear_dice(&mut self) -> bool {
        let had = !self.dice.is_empty();
        self.dice.clear();
        had
    }

    /// Whether dice are being typed.
    #[must_use]
    pub fn typing(&self) -> bool {
        !self.dice.is_empty()
    }

    /// Enter: the roll typed (`roll 3 1`) once two dice are in; they are
    /// cleared. `None` (nothing cleared) with fewer.
    pub fn enter(&mut self) -> Option<String> {
        if self.dice.len() != 2 {
            return None;
        }
        let text = format!("roll {} {}", self.dice[0], self.dice[1]);
        self.dice.clear();
        Some(text)
    }

    /// What the display shows while dice are typed: `roll 3`, `roll 31`.
    #[must_use]
    pub fn dice_line(&self) -> Option<String> {
        if self.dice.is_empty() {
            return None;
        }
        let d: String = self.dice.iter().map(u8::to_string).collect();
        Some(format!("roll {d}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::board_line;
    use tandem_rules::backgammon::{Action, Dice, MatchOptions};

    fn rolled(d: Dice) -> Match {
        let mut m = Match::new(MatchOptions { length: 7 });
        m.act(Action::Roll(d)).unwrap();
        m
    }

    #[test]
    fn every_cell_maps_to_the_point_it_shows_for_either_viewer_and_mover() {
        let b = Board::start(Color::White);
        for viewer in [Color::White, Color::Black] {
            let line = board_line(&b, viewer);
            // The line reads bar, 24..19, 18..13, 12..7, 6..1, off, gaps between.
            let mut want = vec![Some(BgSpot::Bar)];
            for q in 0..4u8 {
                want.push(None);
                want.extend((0..6u8).map(|k| Some(BgSpot::Point(24 - q * 6 - k))));
            }
            want.push(None);
            want.push(Some(BgSpot::Off));
            assert_eq!(line.spots, want);
            for (n, spot) in want.iter().enumerate() {
                let Some(spot) = *spot else { continue };
                assert_eq!(line.cell_of(spot), Some(n));
                for mover in [Color::White, Color::Black] {
                    let p = to_mover(spot, viewer, mover);
                    if let BgSpot::Point(v) = spot {
                        // The viewer's point and the mover's name one place.
                        let own = b.count(viewer, v) + b.count(viewer.other(), 25 - v);
                        let theirs = b.count(mover, p) + b.count(mover.other(), 25 - p);
                        assert_eq!(own, theirs, "{viewer:?} {mover:?} {v}");
                    }
                }
            }
        }
    }

    #[test]
    fn windows_keep_the_spots_and_cover_the_line_once() {
        let line = board_line(&Board::start(Color::White), Color::White);
        for w in 14..=80u16 {
            let width = crate::Width::new(w).unwrap();
            let windows = line.windows(width);
            let mut cells = Vec::new();
            let mut spots = Vec::new();
            for win in &windows {
                assert!(win.cells.len() <= usize::from(w), "{w}");
                cells.extend(win.cells.clone());
                spots.extend(win.spots.clone());
            }
            assert_eq!(cells, line.cells, "{w}");
            assert_eq!(spots, line.spots, "{w}");
            assert_eq!(windows.len() == 1, w >= 31, "{w}");
        }
    }

    #[test]
    fn a_turn_by_routing_keys_step_by_step() {
        let m = rolled(Dice(3, 1));
        let mut input = BgInput::default();
        let w = Color::White;
        assert_eq!(
            input.route(&m, w, BgSpot::Point(8)),
            (BgRequest::Query("steps from 8".into()), None)
        );
        assert_eq!(input.picked(), Some(BgSpot::Point(8)));
        assert_eq!(
            input.route(&m, w, BgSpot::Point(5)),
            (BgRequest::Query("steps 8/5".into()), None)
        );
        assert_eq!(input.shown_board(&m).count(w, 5), 1);
        assert_eq!(input.dice_left(&m), Some(vec![1]));
        // An impossible step: refused, the step before stays.
        input.route(&m, w, BgSpot::Point(6));
        let (q, e) = input.route(&m, w, BgSpot::Point(3));
        assert_eq!(q, BgRequest::Query("steps 8/5 6/3".into()));
        assert_eq!(e, Some(MoveError::NotRolled { from: 6, to: 3 }));
        assert_eq!(input.steps(), &[Step { from: 8, to: 5 }]);
        assert_eq!(input.picked(), None);
        // No checker on 7: nothing is picked up.
        let (_, e) = input.route(&m, w, BgSpot::Point(7));
        assert_eq!(e, Some(MoveError::NoChecker { point: 7 }));
        assert_eq!(input.picked(), None);
        input.route(&m, w, BgSpot::Point(6));
        assert_eq!(
            input.route(&m, w, BgSpot::Point(5)),
            (BgRequest::Move("8/5 6/5".into()), None)
        );
        assert!(input.steps().is_empty());
    }

    #[test]
    fn the_picked_cell_again_clears_and_the_opponent_routes_in_the_viewers_numbers() {
        let m = rolled(Dice(3, 1)); // white to move
        let mut input = BgInput::default();
        // Black watches: white's 8 and 5 are black's 17 and 20.
        input.route(&m, Color::Black, BgSpot::Point(17));
        input.route(&m, Color::Black, BgSpot::Point(20));
        assert_eq!(input.steps(), &[Step { from: 8, to: 5 }]);
        input.route(&m, Color::Black, BgSpot::Point(19));
        assert_eq!(
            input.route(&m, Color::Black, BgSpot::Point(19)),
            (BgRequest::Query("steps".into()), None)
        );
        assert!(input.steps().is_empty() && input.picked().is_none());
    }

    #[test]
    fn a_roll_that_cannot_be_played_is_passed_by_any_routing_key() {
        // White on the bar; black holds its whole home board.
        let mut white = [0u8; 25];
        white[24] = 1;
        white[5] = 14;
        let mut black = [0u8; 25];
        black[..6].fill(2);
        black[22] = 3;
        let b = Board::from_sides(white, black, Color::White).unwrap();
        let mut m = Match::from_board(MatchOptions { length: 7 }, b);
        m.act(Action::Roll(Dice(6, 5))).unwrap();
        let mut input = BgInput::default();
        assert_eq!(
            input.route(&m, Color::White, BgSpot::Point(3)),
            (BgRequest::Move("pass".into()), None)
        );
    }

    #[test]
    fn before_the_roll_the_game_says_why() {
        let m = Match::new(MatchOptions { length: 7 });
        let mut input = BgInput::default();
        assert_eq!(
            input.route(&m, Color::White, BgSpot::Point(8)),
            (BgRequest::Query("steps from 8".into()), None)
        );
        assert_eq!(input.picked(), None);
    }

    #[test]
    fn dice_typed_then_enter() {
        let mut input = BgInput::default();
        assert!(input.type_char('c'));
        assert_eq!(input.dice_line().as_deref(), Some("roll 3"));
        assert_eq!(input.enter(), None);
        assert!(!input.type_char('7'));
        assert!(!input.type_char('x'));
        assert!(input.type_char('1'));
        assert!(!input.type_char('2'), "two dice at most");
        assert_eq!(input.dice_line().as_deref(), Some("roll 31"));
        assert!(input.erase());
        assert!(input.type_char('F'));
        assert_eq!(input.enter().as_deref(), Some("roll 3 6"));
        assert!(!input.typing());
        assert_eq!(die_of('a'), Some(1));
        assert_eq!(die_of('0'), None);
    }
}
