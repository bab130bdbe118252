//! Arbiter tools: two boards that differ, two records that differ
//! (001 ch. VIII 3.1; 002 annex E.7-E.8).
//!
//! - [`reconcile`] replays two records of one game from the same start and
//!   finds how many plies they agree on, the first ply where they differ
//!   (with both versions and whether each is legal there), the first illegal
//!   move of each, what kind of slip it looks like ([`Finding`]: a wrong
//!   move, a missing ply, two moves swapped) and whether the records reach
//!   the same position again in another order ([`Transposition`]).
//!   [`reconcile_game`] does the same for a running game against a record
//!   the arbiter types in.
//! - [`diff_positions`] names the squares where two positions differ and
//!   [`SquareChange::fix`] what to do on the second board to make it equal
//!   the first. [`parse_readback`] reads the position a player reads back
//!   (a FEN, or `square:piece` items), and [`compare_readback`] compares it
//!   with the game's position, square by square.
//!
//! Pure: no I/O. The command line (`tandem arbiter`) and the daemon
//! (`tandem ctl mismatch`) present the results.
//!
//! ```
//! use tandem_rules::draughts::arbiter::{reconcile, Finding, Side};
//! use tandem_rules::draughts::{Position, Variant};
//! let start = Position::start(Variant::International);
//! // Record B wrote 33-29 where A has 32-28 ... at ply 3.
//! let a = ["32-28", "19-23", "28x19", "14x23"];
//! let b = ["32-28", "19-23", "33-29", "14-19"];
//! let r = reconcile(&start, &a, &b);
//! assert_eq!(r.agreed_plies, 2);
//! let d = r.first_difference.as_ref().unwrap();
//! assert_eq!((d.ply, d.a.as_deref(), d.b.as_deref()), (3, Some("28x19"), Some("33-29")));
//! assert!(d.a_legal() == Some(true) && d.b_legal() == Some(false)); // capture is compulsory
//! assert_eq!(r.illegal(Side::B).unwrap().ply, 3);
//! assert_eq!(r.agreed_position().to_fen(), "W:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,23");
//! assert!(!r.agree());
//! assert!(matches!(r.finding, Finding::Differ { .. }));
//! ```

use std::fmt;

use crate::draughts::game::{Game, PlayError};
use crate::draughts::notation::MoveText;
use crate::draughts::pdn::{replay, PdnGame, PdnMove, Replay};
use crate::draughts::position::Position;
use crate::draughts::types::{Piece, Role, Square};
use crate::draughts::variant::Variant;
use crate::draughts::Move;
use crate::reconcile::{self as generic, Classify, ItemError, RecordedGame};
use crate::Color;
use crate::GameOptions;

pub use crate::reconcile::{Finding, Side};

/// The first move of a record that cannot be played.
pub type IllegalPly = generic::IllegalPly<PlayError>;

/// One record replayed from the start as far as its moves are legal
/// (`texts`, `game`, `illegal`; [`written`](generic::RecordReplay::written),
/// [`legal`](generic::RecordReplay::legal)).
pub type RecordReplay = generic::RecordReplay<Game>;

/// The first ply where two records differ (`ply`, `a`, `b`, `a_result`,
/// `b_result`; [`a_legal`](generic::Difference::a_legal), ...).
pub type Difference = generic::Difference<Move, PlayError>;

/// The records reach the same position again after playing moves in
/// another order.
pub type Transposition = generic::Transposition<Position>;

/// The comparison of two records. See the [module docs](self).
///
/// The shared comparison (`crate::reconcile`) takes draughts' [`Game`] as
/// any game:
///
/// ```
/// use tandem_rules::reconcile::{reconcile, Finding};
/// use tandem_rules::draughts::{Game, Position, Variant};
/// let start = Position::start(Variant::International);
/// let r = reconcile::<Game, _, _>(&start, &["32-28", "19-23"], &["32-28", "19-24"]);
/// assert_eq!(r.finding, Finding::WrongMove { ply: 2 });
/// ```
pub type Reconciliation = generic::Reconciliation<Game>;

/// Replays a record (move texts as written, loose notation accepted) from
/// `start`, stopping at the first illegal move. A capture written
/// ambiguously (`36x16` where two sets of pieces can be taken) is read the
/// way that lets the rest of the record be played, as [`crate::draughts::pdn::replay`] does.
///
/// ```
/// use tandem_rules::draughts::arbiter::replay_record;
/// use tandem_rules::draughts::{Position, Variant};
/// let r = replay_record(&Position::start(Variant::International), &["32-28", "19-23", "28-22"]);
/// assert_eq!(r.legal(), 2);
/// assert_eq!(r.illegal.unwrap().ply, 3); // 28x19 is compulsory
/// ```
#[must_use]
pub fn replay_record<S: AsRef<str>>(start: &Position, texts: &[S]) -> RecordReplay {
    generic::replay_record::<Game, S>(start, texts)
}

/// A record replayed through the PDN replay, which reads an ambiguous
/// capture the way that lets the rest of the record be played.
fn pdn_replay(start: &Position, texts: Vec<String>) -> RecordReplay {
    let pdn = PdnGame {
        tags: vec![("FEN".to_owned(), start.to_fen())],
        moves: texts
            .iter()
            .map(|t| PdnMove {
                text: t.clone(),
                marks: String::new(),
                nags: Vec::new(),
                comments: Vec::new(),
                line: 0,
            })
            .collect(),
        result: None,
        line: 0,
        error: None,
        warnings: Vec::new(),
    };
    match replay(&pdn, start.variant()) {
        Replay::Ok(game) => RecordReplay {
            texts,
            game,
            illegal: None,
        },
        Replay::Illegal {
            ply,
            text,
            reason,
            game,
        } => RecordReplay {
            texts,
            game,
            illegal: Some(IllegalPly { ply, text, reason }),
        },
        // Only a start position or ambiguity the PDN replay cannot settle
        // ends here; play the record move by move instead, without trying
        // both readings of an ambiguous capture.
        Replay::Unreadable(_) => generic::replay_with(
            Game::from_position(*start, replay_options()),
            texts,
            Game::play_text,
        ),
    }
}

fn replay_options() -> GameOptions {
    GameOptions {
        play_on_after_rule_draw: true,
        ..GameOptions::default()
    }
}

impl RecordedGame for Game {
    type Position = Position;
    type Move = Move;
    type Error = PlayError;
    type Key = String;
    // 001 ch. VIII 3.1: keys are the squares, so equal keys at the first
    // difference are the same (illegal) move; a wrong move is looked for
    // first.
    const CLASSIFY: Classify = Classify {
        same_needs_both_illegal: false,
        wrong_move_first: true,
    };

    fn replay(start: &Position, texts: Vec<String>) -> RecordReplay {
        pdn_replay(start, texts)
    }

    fn play_in(pos: &Position, text: &str) -> Result<Move, PlayError> {
        Game::from_position(*pos, replay_options()).play_text(text)
    }

    fn start_position(&self) -> &Position {
        self.start()
    }

    fn current_position(&self) -> &Position {
        self.position()
    }

    fn position_after(&self, ply: usize) -> Option<&Position> {
        self.position_at(ply)
    }

    fn played(&self) -> &[Move] {
        self.moves()
    }

    fn strict_texts(&self, plies: usize) -> Vec<String> {
        let mut v = self.move_texts();
        v.truncate(plies);
        v
    }

    fn keys(start: &Position, record: &RecordReplay) -> Vec<String> {
        record
            .texts
            .iter()
            .map(|t| key(start.variant(), t))
            .collect()
    }
}

/// Compares two records of one game played from `start`.
///
/// They agree on a ply when both name the same legal move, however written
/// (`32-28`, `32 28`, `3228`). See the [module docs](self) for an example.
#[must_use]
pub fn reconcile<S: AsRef<str>, T: AsRef<str>>(
    start: &Position,
    a: &[S],
    b: &[T],
) -> Reconciliation {
    generic::reconcile::<Game, S, T>(start, a, b)
}

/// [`reconcile`] for a running game (record A, strict notation) against a
/// record the arbiter types in (record B), from the game's start position.
///
/// ```
/// use tandem_rules::draughts::arbiter::{reconcile_game, Finding, Side};
/// use tandem_rules::draughts::{Game, Variant};
/// let mut g = Game::new(Variant::International);
/// for m in ["32-28", "19-23", "28x19", "14x23"] { g.play_text(m).unwrap(); }
/// // The arbiter types the blind player's braille record, which lacks 19-23.
/// let r = reconcile_game(&g, &["32-28", "28x19", "14x23"]);
/// assert_eq!(r.agreed_plies, 1);
/// assert_eq!(r.finding, Finding::MissingPly { record: Side::B, ply: 2 });
/// ```
#[must_use]
pub fn reconcile_game<S: AsRef<str>>(game: &Game, typed: &[S]) -> Reconciliation {
    reconcile(game.start(), &game.move_texts(), typed)
}

/// A move text reduced to its squares, to compare records written in
/// different styles (`32-28`, `32 28`, `3228`).
fn key(variant: Variant, text: &str) -> String {
    match MoveText::parse(variant, text) {
        Ok(t) => t.readings[0]
            .iter()
            .map(|s| s.number().to_string())
            .collect::<Vec<_>>()
            .join("-"),
        Err(_) => text.trim().to_ascii_lowercase(),
    }
}

/// A square whose contents differ between two positions (`square`, `a`:
/// what stands there in the first position, the record or the game; `b`:
/// in the second, the board to correct).
pub type SquareChange = generic::SquareChange<Square, Piece>;

/// What to do on a square of the second board to make it equal the first
/// ([`SquareChange::fix`](generic::SquareChange::fix); a man that should be
/// a king: [`Fix::Replace`](generic::Fix::Replace), crown it).
///
/// ```
/// use tandem_rules::draughts::arbiter::{diff_positions, Fix};
/// use tandem_rules::draughts::{Position, Variant};
/// let v = Variant::International;
/// let a = Position::from_fen(v, "B:W28:B19").unwrap();
/// let b = Position::from_fen(v, "B:W32:B19").unwrap();
/// let fixes: Vec<Fix> = diff_positions(&a, &b).unwrap().changes.iter().filter_map(|c| c.fix()).collect();
/// assert!(matches!(fixes[0], Fix::Put { square, .. } if square.number() == 28));
/// assert!(matches!(fixes[1], Fix::Remove { square, .. } if square.number() == 32));
/// ```
pub type Fix = generic::Fix<Square, Piece>;

/// How two positions differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionDiff {
    /// The squares that differ, in square order.
    pub changes: Vec<SquareChange>,
    /// `Some((a, b))` if the side to move differs.
    pub turn: Option<(Color, Color)>,
}

impl PositionDiff {
    /// Whether the positions are the same.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.turn.is_none()
    }
}

/// Two positions of different variants cannot be compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VariantMismatch {
    /// The first position's variant.
    pub a: Variant,
    /// The second's.
    pub b: Variant,
}

impl fmt::Display for VariantMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the positions are of different variants ({} and {})",
            self.a.name(),
            self.b.name()
        )
    }
}

impl std::error::Error for VariantMismatch {}

/// The squares where `a` and `b` differ, and whether the side to move
/// differs (001 ch. VIII 3.1.1: the arbiter corrects the boards).
///
/// ```
/// use tandem_rules::draughts::arbiter::diff_positions;
/// use tandem_rules::draughts::{Position, Variant};
/// let v = Variant::International;
/// let a = Position::from_fen(v, "W:W32,33:B19").unwrap();
/// let b = Position::from_fen(v, "W:W28,33:BK19").unwrap();
/// let d = diff_positions(&a, &b).unwrap();
/// let sq: Vec<u8> = d.changes.iter().map(|c| c.square.number()).collect();
/// assert_eq!(sq, [19, 28, 32]);
/// assert_eq!(d.changes[1].b.unwrap().name(), "white man");
/// assert!(d.turn.is_none());
/// ```
///
/// # Errors
/// [`VariantMismatch`] if the positions are of different variants.
pub fn diff_positions(a: &Position, b: &Position) -> Result<PositionDiff, VariantMismatch> {
    if a.variant() != b.variant() {
        return Err(VariantMismatch {
            a: a.variant(),
            b: b.variant(),
        });
    }
    let changes = generic::diff_squares(
        a.variant().all_squares(),
        |s| a.piece_at(s),
        |s| b.piece_at(s),
    );
    let turn = (a.turn() != b.turn()).then_some((a.turn(), b.turn()));
    Ok(PositionDiff { changes, turn })
}

/// A position as a player reads it back from their board: some squares
/// with what stands on them (`None`: empty), and whether the reading
/// covers the whole board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Readback {
    /// Squares read, in the order given.
    pub squares: Vec<(Square, Option<Piece>)>,
    /// `true` for a whole position (a FEN): every square not listed is empty.
    pub complete: bool,
}

/// Why a read-back cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadbackError {
    /// Nothing was given.
    Empty,
    /// A FEN that does not read.
    Fen(crate::draughts::FenError),
    /// An item that is not `square:piece`.
    BadItem(String),
    /// A square that is not on this board.
    BadSquare(String),
    /// A piece word that is not known.
    BadPiece(String),
    /// A square given twice with different contents.
    Conflict(String),
}

impl fmt::Display for ReadbackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadbackError::Empty => write!(f, "empty read-back"),
            ReadbackError::Fen(e) => write!(f, "{e}"),
            ReadbackError::BadItem(s) => write!(
                f,
                "{s:?} is not square:piece (for example 28:w, 45:wk, 19:b, 7:bk, 30:empty)"
            ),
            ReadbackError::BadSquare(s) => write!(f, "{s:?} is not a square of this board"),
            ReadbackError::BadPiece(s) => {
                write!(f, "{s:?} is not a piece (w, wk, b, bk, white man, white king, black man, black king, empty)")
            }
            ReadbackError::Conflict(s) => {
                write!(f, "square {s} is given twice with different pieces")
            }
        }
    }
}

impl std::error::Error for ReadbackError {}

fn parse_piece(word: &str) -> Option<Option<Piece>> {
    let w = word.trim().to_ascii_lowercase();
    let w = w.split_whitespace().collect::<Vec<_>>().join(" ");
    let (color, role) = match w.as_str() {
        "w" | "wm" | "white" | "white man" | "man white" => (Color::White, Role::Man),
        "wk" | "kw" | "white king" | "king white" => (Color::White, Role::King),
        "b" | "bm" | "black" | "black man" | "man black" => (Color::Black, Role::Man),
        "bk" | "kb" | "black king" | "king black" => (Color::Black, Role::King),
        "e" | "empty" | "-" | "0" | "." | "none" => return Some(None),
        _ => return None,
    };
    Some(Some(Piece { color, role }))
}

/// Reads a position read back from a board: a FEN (`W:W28,32:B19,K7`, the
/// whole board), or `square:piece` items separated by commas, semicolons or
/// new lines (`28:w, 45:wk, 19:b, 7:bk, 30:empty`; also `28 white man`),
/// which cover only the squares named. Pieces: `w`, `wk`, `b`, `bk`, the
/// words of [`Piece::name`], or `empty` (also `e`, `-`, `0`). In 64-square
/// draughts, squares may be named algebraically (`c3:w`).
///
/// ```
/// use tandem_rules::draughts::arbiter::parse_readback;
/// use tandem_rules::draughts::Variant;
/// let r = parse_readback(Variant::International, "28:w, 45:wk; 19 black man\n30:empty").unwrap();
/// assert_eq!(r.squares.len(), 4);
/// assert!(!r.complete);
/// assert!(parse_readback(Variant::International, "W:W28:B19").unwrap().complete);
/// assert!(parse_readback(Variant::International, "51:w").is_err());
/// ```
///
/// # Errors
/// A [`ReadbackError`] naming the item that is wrong.
pub fn parse_readback(variant: Variant, text: &str) -> Result<Readback, ReadbackError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(ReadbackError::Empty);
    }
    let first = t.trim_matches('"').trim_start();
    let looks_fen = first.len() > 1
        && matches!(first.as_bytes()[0].to_ascii_uppercase(), b'W' | b'B')
        && first[1..].trim_start().starts_with(':');
    if looks_fen {
        let pos = Position::from_fen(variant, t).map_err(ReadbackError::Fen)?;
        return Ok(Readback {
            squares: pos.pieces().map(|(s, p)| (s, Some(p))).collect(),
            complete: true,
        });
    }
    let squares =
        generic::read_items(t, |s| variant.parse_square(s), parse_piece).map_err(|e| match e {
            ItemError::BadItem(s) => ReadbackError::BadItem(s),
            ItemError::BadSquare(s) => ReadbackError::BadSquare(s),
            ItemError::BadPiece(s) => ReadbackError::BadPiece(s),
            ItemError::Conflict(s) => ReadbackError::Conflict(variant.square_name(s)),
        })?;
    Ok(Readback {
        squares,
        complete: false,
    })
}

/// Compares the game's position (`a`) with a position read back from a
/// board (`b`): every square for a complete read-back, only the squares
/// named otherwise. The changes say what to do on that board
/// ([`SquareChange::fix`]).
///
/// ```
/// use tandem_rules::draughts::arbiter::{compare_readback, parse_readback};
/// use tandem_rules::draughts::{Position, Variant};
/// let v = Variant::International;
/// let game = Position::from_fen(v, "B:W28,33:B19").unwrap();
/// let rb = parse_readback(v, "28:empty, 32:w, 19:b").unwrap();
/// let c = compare_readback(&game, &rb);
/// assert_eq!(c.iter().map(|c| c.square.number()).collect::<Vec<_>>(), [28, 32]);
/// ```
#[must_use]
pub fn compare_readback(a: &Position, rb: &Readback) -> Vec<SquareChange> {
    if rb.complete {
        let mut b = Position::empty(a.variant(), a.turn());
        for (s, p) in &rb.squares {
            b.set(*s, *p);
        }
        return diff_positions(a, &b).map(|d| d.changes).unwrap_or_default();
    }
    generic::compare_squares(
        rb.squares
            .iter()
            .copied()
            .filter(|(s, _)| a.variant().contains(*s)),
        |s| a.piece_at(s),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Position {
        Position::start(Variant::International)
    }

    #[test]
    fn identical_records_agree() {
        let m = ["32-28", "19-23", "28x19", "14x23"];
        let r = reconcile(&start(), &m, &m);
        assert!(r.agree());
        assert_eq!(r.agreed_plies, 4);
        assert_eq!(r.finding, Finding::Agree);
        assert!(r.transposition.is_none());
    }

    #[test]
    fn styles_of_writing_agree() {
        let r = reconcile(
            &start(),
            &["32-28", "19-23", "28x19"],
            &["3228", "19 23", "28-19"],
        );
        assert!(r.agree(), "{:?}", r.first_difference);
    }

    #[test]
    fn shorter_record_ends() {
        let r = reconcile(&start(), &["32-28", "19-23", "28x19"], &["32-28", "19-23"]);
        assert_eq!(r.agreed_plies, 2);
        assert_eq!(
            r.finding,
            Finding::Ends {
                shorter: Side::B,
                plies: 2
            }
        );
        let d = r.first_difference.unwrap();
        assert_eq!(d.b, None);
        assert_eq!(d.b_legal(), None);
        assert_eq!(d.a_legal(), Some(true));
    }

    #[test]
    fn swapped_same_side_moves_transpose() {
        let a = ["31-26", "20-24", "32-27", "15-20", "37-31"];
        let b = ["32-27", "20-24", "31-26", "15-20", "37-31"];
        let r = reconcile(&start(), &a, &b);
        assert_eq!(r.agreed_plies, 0);
        assert_eq!(
            r.finding,
            Finding::Swapped {
                first: 1,
                second: 3
            }
        );
        let t = r.transposition.unwrap();
        assert_eq!(
            (t.from_ply, t.same_after, t.agree_again, t.last_common_ply()),
            (1, 3, 2, 5)
        );
    }

    #[test]
    fn readback_conflict_and_words() {
        let v = Variant::International;
        assert!(matches!(
            parse_readback(v, "28:w, 28:b"),
            Err(ReadbackError::Conflict(_))
        ));
        assert!(matches!(
            parse_readback(v, "28:x"),
            Err(ReadbackError::BadPiece(_))
        ));
        assert!(matches!(
            parse_readback(v, "28"),
            Err(ReadbackError::BadItem(_))
        ));
        assert!(matches!(parse_readback(v, "  "), Err(ReadbackError::Empty)));
        let r = parse_readback(Variant::SixtyFour, "c3:wk").unwrap();
        assert_eq!(Variant::SixtyFour.square_name(r.squares[0].0), "c3");
    }

    #[test]
    fn diff_refuses_mixed_variants() {
        assert!(diff_positions(&start(), &Position::start(Variant::SixtyFour)).is_err());
    }
}
