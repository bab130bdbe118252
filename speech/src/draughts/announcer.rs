//! Draughts in words (001 ch. VIII 2.2: a move announced by its start and
//! end square and the pieces taken off): the draughts sentences of the
//! shared [`Announcer`] (moves, refusals, draw counts, the result, boards
//! behind or differing, squares and positions described), from the base
//! phrasebook's keys (`phrasebooks/{pl,en}.toml`).

use tandem_rules::draughts::notation::ResolveError;
use tandem_rules::draughts::{DrawCount, DrawRule, Move, Position, Square, Variant};
use tandem_rules::{Color, DrawReason, Outcome, WinReason};

use super::DraughtsBook;
use crate::announcer::{capitalize_sentences, Announcer};
use crate::phrasebook::{SquareWords, Value};
use crate::utterance::{Kind, Priority, Utterance};

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

impl Announcer {
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
        self.confirming("move.confirm", before, m)
    }

    /// A confirmed move: "Played 32 28".
    #[must_use]
    pub fn confirmed(&self, before: &Position, m: &Move) -> Utterance {
        self.confirming("move.confirmed", before, m)
    }

    /// The sentence `key` of a move being confirmed, naming it.
    fn confirming(&self, key: &str, before: &Position, m: &Move) -> Utterance {
        let mv = Value::Text(self.move_phrase(before.variant(), m));
        self.utter(
            Priority::Next,
            Kind::Confirm,
            vec![self.sentence(key, &[("move", mv)])],
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
            // A rated game's refusal (no candidates given): the rule only.
            ResolveError::NoSuchRoute { candidates } if candidates.is_empty() => {
                s.push(self.sentence("reject.no_such_route_rule", &[]));
            }
            ResolveError::Ambiguous { candidates } if candidates.is_empty() => {
                s.push(self.sentence("reject.ambiguous_rule", &[]));
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
}
