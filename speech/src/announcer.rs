//! [`Announcer`]: moves, clock reports, rejections and game events to
//! [`Utterance`]s, through a [`Phrasebook`]. Pure: no I/O, no time read.
//! Golden-tested in `speech/tests/golden/*.txt`.
//!
//! Priorities (see [`Priority`]): the answer to the player's own input (a
//! rejection, "say again"), a flag fall and boards that differ interrupt
//! (`Now`); a move, a read-back, a clock report and warnings come next
//! (`Next`); the rest queues (`Normal`).

use std::time::Duration;

use tandem_rules::draughts::notation::ResolveError;
use tandem_rules::draughts::{DrawCount, DrawRule, Move, Position, Square, Variant};
use tandem_rules::{Color, DrawReason, Outcome, WinReason};

use crate::phrasebook::{Phrasebook, SquareStyle, SquareWords, Value};
use crate::utterance::{Kind, Priority, Utterance};

/// How the announcer speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AnnounceOptions {
    /// How squares of 64-square draughts are named.
    pub square_style: SquareStyle,
    /// Also say the landing squares of a capture of two or more pieces
    /// (the tactile board does not need them; some players ask).
    pub landings: bool,
}

/// One side's clock, for [`ClockReport`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideClock {
    /// Time used so far.
    pub used: Duration,
    /// Time left.
    pub remaining: Duration,
}

/// What a player may ask of the clock (001 ch. VIII 5.1: the time used by
/// both sides and the number of moves made), plus the moves to the next
/// control. The daemon fills it from the rules engine's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClockReport {
    /// White's clock.
    pub white: SideClock,
    /// Black's clock.
    pub black: SideClock,
    /// Moves completed (by the side that has made more: the move number).
    pub moves_made: u32,
    /// Moves still to make before the next time control, if there is one.
    pub moves_to_control: Option<u32>,
}

impl From<&tandem_rules::ClockReport> for ClockReport {
    /// The rules engine's clock report: moves made is the move number (the
    /// larger count of the two sides), the moves to the control are those of
    /// the side to move (the player who may ask, 001 ch. VIII 5.1).
    fn from(r: &tandem_rules::ClockReport) -> ClockReport {
        let side = |s: &tandem_rules::clock::SideReport| SideClock {
            used: Duration::from_millis(s.used_ms),
            remaining: Duration::from_millis(s.remaining_ms),
        };
        ClockReport {
            white: side(&r.white),
            black: side(&r.black),
            moves_made: r.white.moves_made.max(r.black.moves_made),
            moves_to_control: r.side(r.side_to_move).moves_to_control,
        }
    }
}

/// A square whose contents differ between the record and a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SquareDiff {
    /// The square.
    pub square: Square,
    /// What the record says stands there.
    pub expected: Option<tandem_rules::draughts::Piece>,
    /// What the board has.
    pub actual: Option<tandem_rules::draughts::Piece>,
}

/// Moves, clock reports, rejections and events to utterances. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct Announcer {
    book: Phrasebook,
    options: AnnounceOptions,
}

pub(crate) fn capitalize_sentences(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut at_start = true;
    let mut prev_end = false;
    for c in s.chars() {
        if at_start && c.is_alphabetic() {
            out.extend(c.to_uppercase());
            at_start = false;
            prev_end = false;
            continue;
        }
        if c.is_alphanumeric() {
            at_start = false;
        }
        if prev_end && c == ' ' {
            at_start = true;
        }
        prev_end = matches!(c, '.' | '?' | '!');
        out.push(c);
    }
    out
}

impl Announcer {
    /// An announcer speaking from `book`.
    #[must_use]
    pub fn new(book: Phrasebook, options: AnnounceOptions) -> Announcer {
        Announcer { book, options }
    }

    /// The phrasebook.
    #[must_use]
    pub fn phrasebook(&self) -> &Phrasebook {
        &self.book
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> AnnounceOptions {
        self.options
    }

    fn sentence(&self, key: &str, args: &[(&str, Value)]) -> String {
        capitalize_sentences(&self.book.render(key, args))
    }

    fn utter(&self, priority: Priority, kind: Kind, sentences: Vec<String>) -> Utterance {
        Utterance::new(priority, kind, sentences)
    }

    fn sq(&self, variant: Variant, sq: Square) -> SquareWords {
        self.book
            .square_words(variant, sq, self.options.square_style)
    }

    fn sqv(&self, variant: Variant, sq: Square) -> Value {
        Value::Square(self.sq(variant, sq))
    }

    /// A list of squares in words, in the order given: "dwadzieścia dwa, trzynaście i dwanaście".
    #[must_use]
    pub fn square_list(&self, variant: Variant, squares: &[Square]) -> String {
        let words: Vec<String> = squares
            .iter()
            .map(|&s| self.sq(variant, s).nominative)
            .collect();
        self.book.list(&words)
    }

    /// A move as a phrase, without a full stop: "trzydzieści dwa na
    /// dwadzieścia osiem", "twenty-seven takes eighteen". Used alone and
    /// inside other sentences.
    #[must_use]
    pub fn move_phrase(&self, variant: Variant, m: &Move) -> String {
        let key = if m.is_capture() {
            "move.capture"
        } else {
            "move.quiet"
        };
        self.book.render(
            key,
            &[
                ("from", self.sqv(variant, m.from())),
                ("to", self.sqv(variant, m.to())),
            ],
        )
    }

    /// A move played in `before` (the position before it): start and end
    /// square (001 ch. VIII 2.2), for a capture the squares of the pieces to
    /// take off in the order taken, the landing squares of a multi-capture if
    /// the options ask, and a promotion.
    #[must_use]
    pub fn on_move(&self, before: &Position, m: &Move) -> Utterance {
        self.move_utterance(before.variant(), m, self.options.landings)
    }

    /// [`Announcer::on_move`] with the landing squares, whatever the options
    /// say (the player asked for them).
    #[must_use]
    pub fn on_move_with_landings(&self, before: &Position, m: &Move) -> Utterance {
        self.move_utterance(before.variant(), m, true)
    }

    fn move_utterance(&self, v: Variant, m: &Move, landings: bool) -> Utterance {
        let mut s = vec![capitalize_sentences(&format!(
            "{}.",
            self.move_phrase(v, m)
        ))];
        let captured: Vec<Square> = m.captured().collect();
        match captured.as_slice() {
            [] => {}
            [one] => s.push(self.sentence("move.remove_one", &[("square", self.sqv(v, *one))])),
            many => s.push(self.sentence(
                "move.remove_many",
                &[
                    ("count", Value::Number(many.len() as u64)),
                    ("squares", Value::Text(self.square_list(v, many))),
                ],
            )),
        }
        if landings && m.capture_count() >= 2 {
            let l: Vec<Square> = m.landings().collect();
            s.push(self.sentence(
                "move.landings",
                &[("squares", Value::Text(self.square_list(v, &l)))],
            ));
        }
        if m.promotes() {
            s.push(self.sentence("move.promotion", &[("square", self.sqv(v, m.to()))]));
        }
        self.utter(Priority::Next, Kind::Move, s)
    }

    /// The move read back for confirmation: "32 28, correct?".
    #[must_use]
    pub fn confirm_move(&self, before: &Position, m: &Move) -> Utterance {
        let mv = Value::Text(self.move_phrase(before.variant(), m));
        self.utter(
            Priority::Next,
            Kind::Confirm,
            vec![self.sentence("move.confirm", &[("move", mv)])],
        )
    }

    /// A confirmed move: "Played 32 28".
    #[must_use]
    pub fn confirmed(&self, before: &Position, m: &Move) -> Utterance {
        let mv = Value::Text(self.move_phrase(before.variant(), m));
        self.utter(
            Priority::Next,
            Kind::Confirm,
            vec![self.sentence("move.confirmed", &[("move", mv)])],
        )
    }

    /// The entry was cancelled.
    #[must_use]
    pub fn cancelled(&self) -> Utterance {
        self.utter(
            Priority::Now,
            Kind::Confirm,
            vec![self.sentence("move.cancelled", &[])],
        )
    }

    /// The last move (`None` before the first move).
    #[must_use]
    pub fn last_move(&self, last: Option<(&Position, &Move)>) -> Utterance {
        let s = match last {
            Some((before, m)) => self.sentence(
                "move.last",
                &[("move", Value::Text(self.move_phrase(before.variant(), m)))],
            ),
            None => self.sentence("move.no_last", &[]),
        };
        self.utter(Priority::Next, Kind::Move, vec![s])
    }

    /// Whose move it is.
    #[must_use]
    pub fn turn(&self, side: Color) -> Utterance {
        self.utter(
            Priority::Normal,
            Kind::Turn,
            vec![self.sentence("turn.to_move", &[("side", Value::Side(side))])],
        )
    }

    /// A clock report (001 ch. VIII 5.1): time used and left for both sides,
    /// moves made, moves to the next control. Durations in words, never as a
    /// clock reading.
    #[must_use]
    pub fn on_clock(&self, r: &ClockReport) -> Utterance {
        let mut s = Vec::new();
        for (side, c) in [(Color::White, r.white), (Color::Black, r.black)] {
            s.push(self.sentence(
                "clock.side",
                &[
                    ("side", Value::Side(side)),
                    ("used", Value::Text(self.book.duration(c.used))),
                    ("left", Value::Text(self.book.duration(c.remaining))),
                ],
            ));
        }
        s.push(self.sentence(
            "clock.moves_made",
            &[("count", Value::Number(u64::from(r.moves_made)))],
        ));
        if let Some(n) = r.moves_to_control {
            s.push(self.sentence(
                "clock.to_control",
                &[("count", Value::Number(u64::from(n)))],
            ));
        }
        self.utter(Priority::Next, Kind::Clock, s)
    }

    /// A low-time warning: "Warning, white: two minutes left".
    #[must_use]
    pub fn low_time(&self, side: Color, left: Duration) -> Utterance {
        let s = self.sentence(
            "clock.low_time",
            &[
                ("side", Value::Side(side)),
                ("left", Value::Text(self.book.duration(left))),
            ],
        );
        self.utter(Priority::Next, Kind::Warning, vec![s])
    }

    /// A flag fell (interrupts).
    #[must_use]
    pub fn flag_fall(&self, side: Color) -> Utterance {
        let s = self.sentence("clock.flag_fall", &[("side", Value::Side(side))]);
        self.utter(Priority::Now, Kind::Warning, vec![s])
    }

    /// The clock was stopped.
    #[must_use]
    pub fn clock_stopped(&self) -> Utterance {
        self.utter(
            Priority::Next,
            Kind::Clock,
            vec![self.sentence("clock.stopped", &[])],
        )
    }

    /// The alternatives of an ambiguous capture, each named by the captured
    /// squares that set it apart from the others ("trzydzieści trzy czy
    /// trzydzieści dziewięć"); squares every candidate takes are left out,
    /// because they do not help the player choose.
    fn options_list(&self, v: Variant, candidates: &[Move]) -> String {
        let common: Vec<Square> = candidates
            .first()
            .map(|f| {
                f.captured()
                    .filter(|s| candidates.iter().all(|m| m.captured().any(|c| c == *s)))
                    .collect()
            })
            .unwrap_or_default();
        let opts: Vec<String> = candidates
            .iter()
            .map(|m| {
                let own: Vec<Square> = m.captured().filter(|s| !common.contains(s)).collect();
                let c: Vec<Square> = if own.is_empty() {
                    m.captured().collect()
                } else {
                    own
                };
                self.square_list(v, &c)
            })
            .collect();
        self.book.alternatives(&opts)
    }

    /// Why a move was refused, in plain words (interrupts: the player is
    /// waiting for the answer). `pos` is the position the move was tried in;
    /// `text` what was entered.
    #[must_use]
    pub fn on_rejected(&self, pos: &Position, text: &str, err: &ResolveError) -> Utterance {
        let v = pos.variant();
        let mut s = Vec::new();
        match err {
            ResolveError::Syntax(_) => {
                s.push(self.sentence("reject.syntax", &[("text", Value::Text(text.to_owned()))]))
            }
            ResolveError::NoMoves => s.push(self.sentence("reject.no_moves", &[])),
            ResolveError::NoPiece { square } => {
                s.push(self.sentence("reject.no_piece", &[("square", self.sqv(v, *square))]));
            }
            ResolveError::NotYourPiece { square, turn } => s.push(self.sentence(
                "reject.not_your_piece",
                &[
                    ("square", self.sqv(v, *square)),
                    ("side", Value::Side(turn.other())),
                ],
            )),
            ResolveError::CaptureCompulsory {
                required,
                capturers,
            } => {
                // 001 ch. I 4.2, 4.13: capture is compulsory, and the largest one.
                s.push(self.sentence(
                    "reject.capture_compulsory",
                    &[("count", Value::Number(*required as u64))],
                ));
                match capturers.as_slice() {
                    [] => {}
                    [one] => s.push(
                        self.sentence("reject.capturers_one", &[("square", self.sqv(v, *one))]),
                    ),
                    many => s.push(self.sentence(
                        "reject.capturers_many",
                        &[("squares", Value::Text(self.square_list(v, many)))],
                    )),
                }
            }
            ResolveError::NotLargestCapture { required, given } => s.push(self.sentence(
                "reject.not_largest",
                &[
                    ("required", Value::Number(*required as u64)),
                    ("given", Value::Number(*given as u64)),
                ],
            )),
            ResolveError::WrongDirection { from, to } => s.push(self.sentence(
                "reject.wrong_direction",
                &[("from", self.sqv(v, *from)), ("to", self.sqv(v, *to))],
            )),
            ResolveError::Occupied { square } => {
                s.push(self.sentence("reject.occupied", &[("square", self.sqv(v, *square))]));
            }
            ResolveError::Unreachable { from, to } => {
                s.push(self.sentence(
                    "reject.unreachable",
                    &[("from", self.sqv(v, *from)), ("to", self.sqv(v, *to))],
                ));
            }
            ResolveError::NoSuchRoute { candidates } => s.push(self.sentence(
                "reject.no_such_route",
                &[("options", Value::Text(self.options_list(v, candidates)))],
            )),
            ResolveError::Ambiguous { candidates } => {
                let to = candidates
                    .first()
                    .map_or_else(|| Value::Text(String::new()), |m| self.sqv(v, m.to()));
                s.push(self.sentence(
                    "reject.ambiguous",
                    &[
                        ("to", to),
                        ("options", Value::Text(self.options_list(v, candidates))),
                    ],
                ));
            }
            // ResolveError is non-exhaustive: a reason added later is still refused aloud.
            _ => s.push(self.sentence("reject.not_understood", &[])),
        }
        self.utter(Priority::Now, Kind::Rejection, s)
    }

    /// A move after the game ended.
    #[must_use]
    pub fn game_over_refusal(&self) -> Utterance {
        self.utter(
            Priority::Now,
            Kind::Rejection,
            vec![self.sentence("reject.game_over", &[])],
        )
    }

    /// Nothing was understood clearly: ask to repeat (nothing is played on a guess).
    #[must_use]
    pub fn not_understood(&self) -> Utterance {
        self.utter(
            Priority::Now,
            Kind::Rejection,
            vec![self.sentence("reject.not_understood", &[])],
        )
    }

    /// A draw-rule counter (001 ch. I 6.2-6.4): "Kings only: draw in 7 moves".
    #[must_use]
    pub fn draw_count(&self, c: &DrawCount) -> Utterance {
        let key = match c.rule {
            DrawRule::KingMoves => "draw.kings_only",
            _ => "draw.endgame",
        };
        let s = self.sentence(key, &[("left", Value::Number(u64::from(c.moves_left())))]);
        self.utter(Priority::Normal, Kind::Draw, vec![s])
    }

    /// The position occurred for the second time: a third is a draw (001 ch. I 6.1).
    #[must_use]
    pub fn repetition_warning(&self) -> Utterance {
        self.utter(
            Priority::Normal,
            Kind::Draw,
            vec![self.sentence("draw.repetition", &[])],
        )
    }

    /// The game ended: result, then reason. `variant` gives the 6.2 limit.
    #[must_use]
    pub fn game_over(&self, variant: Variant, outcome: &Outcome) -> Utterance {
        let mut s = Vec::new();
        match outcome {
            Outcome::Win { winner, reason } => {
                s.push(self.sentence(
                    if *winner == Color::White {
                        "end.white_wins"
                    } else {
                        "end.black_wins"
                    },
                    &[],
                ));
                let loser = Value::Side(winner.other());
                match reason {
                    WinReason::NoPieces | WinReason::Blocked => {
                        s.push(self.sentence("end.no_moves", &[("side", loser)]))
                    }
                    WinReason::Resignation => {
                        s.push(self.sentence("end.resigned", &[("side", loser)]))
                    }
                    WinReason::Time => s.push(self.sentence("end.flag", &[("side", loser)])),
                    _ => {}
                }
            }
            Outcome::Draw { reason } => {
                s.push(self.sentence("end.draw", &[]));
                match reason {
                    DrawReason::Repetition => s.push(self.sentence("end.repetition", &[])),
                    DrawReason::Agreement => s.push(self.sentence("end.agreed", &[])),
                    DrawReason::KingMoves => {
                        // 001 ch. I 6.2: 25 moves, 20 in 64-square draughts.
                        let limit = if variant == Variant::SixtyFour {
                            20
                        } else {
                            25
                        };
                        s.push(self.sentence("end.kings_only", &[("limit", Value::Number(limit))]));
                    }
                    DrawReason::Endgame | DrawReason::ShortEndgame => {
                        s.push(self.sentence("end.endgame", &[]))
                    }
                    _ => {}
                }
            }
        }
        self.utter(Priority::Next, Kind::GameEnd, s)
    }

    /// The listener's board is `behind` moves behind; `next` is the first
    /// move to make on it, in the position before it.
    #[must_use]
    pub fn board_behind(&self, behind: u32, before: &Position, next: &Move) -> Utterance {
        let mv = Value::Text(self.move_phrase(before.variant(), next));
        let s = if behind <= 1 {
            self.sentence("sync.behind_one", &[("move", mv)])
        } else {
            self.sentence(
                "sync.behind_many",
                &[("count", Value::Number(u64::from(behind))), ("move", mv)],
            )
        };
        self.utter(Priority::Normal, Kind::Sync, vec![s])
    }

    /// The opponent has not yet made the listener's move on their board.
    #[must_use]
    pub fn other_board_behind(&self, before: &Position, m: &Move) -> Utterance {
        let mv = Value::Text(self.move_phrase(before.variant(), m));
        self.utter(
            Priority::Normal,
            Kind::Sync,
            vec![self.sentence("sync.other_behind", &[("move", mv)])],
        )
    }

    /// Both boards agree.
    #[must_use]
    pub fn boards_in_sync(&self) -> Utterance {
        self.utter(
            Priority::Normal,
            Kind::Sync,
            vec![self.sentence("sync.in_sync", &[])],
        )
    }

    /// The boards differ (001 ch. VIII 3.1): interrupts, then names each differing square.
    #[must_use]
    pub fn boards_differ(&self, variant: Variant, diffs: &[SquareDiff]) -> Utterance {
        let mut s = vec![self.sentence("sync.differ", &[])];
        for d in diffs {
            s.push(self.sentence(
                "sync.differ_square",
                &[
                    ("square", self.sqv(variant, d.square)),
                    (
                        "expected",
                        Value::Text(self.book.piece(d.expected).to_owned()),
                    ),
                    ("actual", Value::Text(self.book.piece(d.actual).to_owned())),
                ],
            ));
        }
        self.utter(Priority::Now, Kind::Sync, s)
    }

    /// The daemon resumed a game after a restart.
    #[must_use]
    pub fn resumed(&self, moves_made: u32, turn: Color) -> Utterance {
        let s = vec![
            self.sentence(
                "sync.resumed",
                &[("count", Value::Number(u64::from(moves_made)))],
            ),
            self.sentence("turn.to_move", &[("side", Value::Side(turn))]),
        ];
        self.utter(Priority::Next, Kind::Sync, s)
    }

    /// What stands on one square ("pole N").
    #[must_use]
    pub fn describe_square(&self, pos: &Position, sq: Square) -> Utterance {
        let v = pos.variant();
        let s = self.sentence(
            "describe.square",
            &[
                ("square", self.sqv(v, sq)),
                (
                    "piece",
                    Value::Text(self.book.piece(pos.piece_at(sq)).to_owned()),
                ),
            ],
        );
        self.utter(Priority::Next, Kind::Describe, vec![s])
    }

    /// The whole position: each side's men and kings by square, side to move last.
    #[must_use]
    pub fn describe_position(&self, pos: &Position) -> Utterance {
        let v = pos.variant();
        let mut s = Vec::new();
        for side in [Color::White, Color::Black] {
            let mut men = Vec::new();
            let mut kings = Vec::new();
            for (sq, p) in pos.pieces() {
                if p.color == side {
                    match p.role {
                        tandem_rules::draughts::Role::Man => men.push(sq),
                        tandem_rules::draughts::Role::King => kings.push(sq),
                    }
                }
            }
            men.sort();
            kings.sort();
            if men.is_empty() && kings.is_empty() {
                s.push(self.sentence("describe.none", &[("side", Value::Side(side))]));
            }
            if !men.is_empty() {
                s.push(self.sentence(
                    "describe.men",
                    &[
                        ("side", Value::Side(side)),
                        ("squares", Value::Text(self.square_list(v, &men))),
                    ],
                ));
            }
            if !kings.is_empty() {
                s.push(self.sentence(
                    "describe.kings",
                    &[
                        ("side", Value::Side(side)),
                        ("squares", Value::Text(self.square_list(v, &kings))),
                    ],
                ));
            }
        }
        s.push(self.sentence("turn.to_move", &[("side", Value::Side(pos.turn()))]));
        self.utter(Priority::Next, Kind::Describe, s)
    }

    /// Any phrasebook template as an utterance (the daemon's own messages,
    /// `game.*` keys): sentences capitalised like every other announcement.
    #[must_use]
    pub fn message(
        &self,
        key: &str,
        args: &[(&str, Value)],
        priority: Priority,
        kind: Kind,
    ) -> Utterance {
        self.utter(priority, kind, vec![self.sentence(key, args)])
    }

    /// What can be said.
    #[must_use]
    pub fn help(&self) -> Utterance {
        self.utter(
            Priority::Normal,
            Kind::Help,
            vec![self.sentence("help.text", &[])],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::capitalize_sentences;

    #[test]
    fn capitalizes_each_sentence() {
        assert_eq!(
            capitalize_sentences("białe: x. czarne? y"),
            "Białe: x. Czarne? Y"
        );
        assert_eq!(
            capitalize_sentences("game resumed. twenty moves made."),
            "Game resumed. Twenty moves made."
        );
        assert_eq!(capitalize_sentences("32.5 a"), "32.5 a");
    }
}

#[cfg(test)]
mod clock_tests {
    use std::time::Duration;

    use tandem_rules::clock::{ClockReport as RulesReport, SideReport};
    use tandem_rules::Color;

    use super::ClockReport;

    fn side(
        used_ms: u64,
        remaining_ms: u64,
        moves_made: u32,
        moves_to_control: Option<u32>,
    ) -> SideReport {
        SideReport {
            used_ms,
            remaining_ms,
            moves_made,
            moves_to_control,
            time_trouble: false,
            flag_ms: None,
            last_move_ms: None,
            bonus_applies: false,
        }
    }

    #[test]
    fn from_the_rules_engines_clock_report() {
        let r = RulesReport {
            at_ms: 0,
            control: "80+1".into(),
            side_to_move: Color::Black,
            started: true,
            running: true,
            thinking_ms: 0,
            delay_left_ms: 0,
            white: side(725_000, 2_875_000, 21, Some(19)),
            black: side(61_500, 3_538_500, 20, Some(20)),
            first_flag: None,
        };
        let c = ClockReport::from(&r);
        assert_eq!(c.white.used, Duration::from_secs(725));
        assert_eq!(c.black.remaining, Duration::from_millis(3_538_500));
        assert_eq!(c.moves_made, 21);
        assert_eq!(c.moves_to_control, Some(20));
    }
}
