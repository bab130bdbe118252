//! Arbiter tools for chess: two boards that differ, two records that differ
//! (002 annex E.7-E.8; art. 7.4, 7.5).
//!
//! The chess counterpart of [`crate::draughts::arbiter`] (which works on the draughts
//! `Position`/`Game`); it shares its [`Side`] and [`Finding`] so the command
//! line and the daemon word the results the same way for both games.
//!
//! - [`reconcile_chess`] replays two records (SAN, UCI or any text
//!   [`resolve`](super::resolve) reads) of one game from the same start and finds how many
//!   plies they agree on, the first ply where they differ (both versions and
//!   whether each is legal there), the first illegal move of each, what kind
//!   of slip it looks like ([`Finding`]) and whether the records reach the
//!   same position again in another order ([`ChessTransposition`]; positions
//!   compared as for repetition, art. 9.2: board, side to move, castling and
//!   en passant rights).
//! - [`diff_chess`] names the squares where two positions differ and
//!   [`ChessSquareChange::fix`] what to do on the second board to make it
//!   equal the first. [`parse_chess_readback`] reads the position a player
//!   reads back from a board (a FEN, or `square:piece` items), and
//!   [`compare_chess_readback`] compares it with the game's position.
//!
//! Pure: no I/O.
//!
//! ```
//! use tandem_rules::draughts::arbiter::{Finding, Side};
//! use tandem_rules::chess::arbiter::reconcile_chess;
//! use tandem_rules::chess::start;
//! // Record B lacks black's 1... e5.
//! let a = ["e4", "e5", "Nf3", "Nc6", "Bb5"];
//! let b = ["e4", "Nf3", "Nc6", "Bb5"];
//! let r = reconcile_chess(&start(), &a, &b);
//! assert_eq!(r.agreed_plies, 1);
//! assert_eq!(r.finding, Finding::MissingPly { record: Side::B, ply: 2 });
//! assert!(!r.agree());
//! ```

use std::fmt;

use shakmaty::fen::Fen;
use shakmaty::{Board, Chess, Color as ShColor, Piece, Position, Role, Square};

use super::error::ChessError;
use super::game::{ChessGame, ChessOptions};
use super::mv::ChessMove;
use crate::reconcile::{self as generic, Classify, ItemError, RecordedGame};

pub use crate::reconcile::{Finding, Side};

// ---------------------------------------------------------------- records

/// The first move of a record that cannot be played.
pub type ChessIllegalPly = generic::IllegalPly<ChessError>;

/// One chess record replayed from the start as far as its moves are legal
/// (`texts`, `game`, `illegal`).
pub type ChessRecordReplay = generic::RecordReplay<ChessGame>;

/// The first ply where two chess records differ (`ply`, `a`, `b`,
/// `a_result`, `b_result`).
pub type ChessDifference = generic::Difference<ChessMove, ChessError>;

/// The records reach the same position again after playing moves in
/// another order (the same position as for repetition, 002 art. 9.2).
pub type ChessTransposition = generic::Transposition<Chess>;

/// The comparison of two chess records. See the [module docs](self).
pub type ChessReconciliation = generic::Reconciliation<ChessGame>;

/// Replays a record (move texts as written: SAN, UCI, `e2-e4`, `0-0`) from
/// `start`, stopping at the first move that is illegal (002 art. 7.4) or
/// cannot be read. Moves recorded after a dead position are replayed as
/// written (the game was drawn there, FIDE Laws 5.2.2, but the records are
/// compared as the players kept them).
///
/// ```
/// use tandem_rules::chess::arbiter::replay_chess_record;
/// use tandem_rules::chess::{from_fen, start};
/// let r = replay_chess_record(&start(), &["e4", "e7e5", "Ke3"]);
/// assert_eq!(r.legal(), 2);
/// assert_eq!(r.illegal.unwrap().ply, 3);
/// // The knight takes the last rook; the players went on.
/// let dead = from_fen("4k3/8/8/8/1N6/8/r7/4K3 w - - 0 1").unwrap();
/// assert_eq!(replay_chess_record(&dead, &["Nxa2", "Kd7", "Kd2"]).legal(), 3);
/// ```
#[must_use]
pub fn replay_chess_record<S: AsRef<str>>(start: &Chess, texts: &[S]) -> ChessRecordReplay {
    generic::replay_record::<ChessGame, S>(start, texts)
}

impl RecordedGame for ChessGame {
    type Position = Chess;
    type Move = ChessMove;
    type Error = ChessError;
    type Key = Key;
    // Two legal moves that differ are never "the same"; a wrong move is
    // told from a missing ply or a swap before records of unequal length
    // are read as a wrong move.
    const CLASSIFY: Classify = Classify {
        same_needs_both_illegal: true,
        wrong_move_first: false,
    };

    /// Plays the record move by move (002 art. 7.4: the first illegal move).
    fn replay(start: &Chess, texts: Vec<String>) -> ChessRecordReplay {
        let mut game = ChessGame::from_position(start.clone(), ChessOptions::default());
        game.play_on_past_dead_position();
        generic::replay_with(game, texts, ChessGame::play_text)
    }

    fn play_in(pos: &Chess, text: &str) -> Result<ChessMove, ChessError> {
        let mut game = ChessGame::from_position(pos.clone(), ChessOptions::default());
        game.play_on_past_dead_position();
        game.play_text(text)
    }

    fn start_position(&self) -> &Chess {
        self.start()
    }

    fn current_position(&self) -> &Chess {
        self.position()
    }

    fn position_after(&self, ply: usize) -> Option<&Chess> {
        // `Chess` equality is board, side to move, castling rights and a
        // legal en passant square: the same position as for repetition
        // (002 art. 9.2), which is what a transposition compares.
        self.position_at(ply)
    }

    fn played(&self) -> &[ChessMove] {
        self.moves()
    }

    /// SAN.
    fn strict_texts(&self, plies: usize) -> Vec<String> {
        self.sans()[..plies].to_vec()
    }

    fn keys(_start: &Chess, record: &ChessRecordReplay) -> Vec<Key> {
        keys(record)
    }
}

/// Compares two records of one chess game played from `start`
/// (002 annex E.7-E.8: where both records agree, play goes back to).
///
/// They agree on a ply when both name the same legal move, however written
/// (`Nf3`, `g1f3`, `Ng1-f3`). See the [module docs](self) for an example.
#[must_use]
pub fn reconcile_chess<S: AsRef<str>, T: AsRef<str>>(
    start: &Chess,
    a: &[S],
    b: &[T],
) -> ChessReconciliation {
    generic::reconcile::<ChessGame, S, T>(start, a, b)
}

/// [`reconcile_chess`] for a running game (record A) against a record the
/// arbiter types in (record B), from the game's start position.
///
/// ```
/// use tandem_rules::reconcile::Finding;
/// use tandem_rules::chess::arbiter::reconcile_chess_game;
/// use tandem_rules::chess::ChessGame;
/// let mut g = ChessGame::new();
/// for m in ["e4", "e5", "Nf3", "Nc6"] { g.play_text(m).unwrap(); }
/// let r = reconcile_chess_game(&g, &["e4", "e5", "Nf3", "Nf6"]);
/// assert_eq!(r.finding, Finding::WrongMove { ply: 4 });
/// ```
#[must_use]
pub fn reconcile_chess_game<S: AsRef<str>>(game: &ChessGame, typed: &[S]) -> ChessReconciliation {
    reconcile_chess(game.start(), game.sans(), typed)
}

/// A ply's key for the [`Finding`]: the text as written and, where the record
/// was legal there, the SAN of the move, both without capture and check
/// marks. Two keys match when either matches, so `g1f3` in one record
/// matches `Nf3` in the other, and `Nxe5+` matches `Ne5` after a swap.
#[derive(Debug, Clone)]
pub struct Key {
    text: String,
    san: Option<String>,
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.text == other.text || matches!((&self.san, &other.san), (Some(x), Some(y)) if x == y)
    }
}

fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, 'x' | ':' | '+' | '#' | '!' | '?' | '=' | '-' | ' '))
        .map(|c| if c == '0' { 'O' } else { c })
        .collect()
}

fn keys(r: &ChessRecordReplay) -> Vec<Key> {
    r.texts
        .iter()
        .enumerate()
        .map(|(i, t)| Key {
            text: normalise(t),
            san: r.game.sans().get(i).map(|s| normalise(s)),
        })
        .collect()
}

/// A square whose contents differ between two boards (`square`; `a`: what
/// stands there on the first board, the record or the game; `b`: on the
/// second, the board to correct).
pub type ChessSquareChange = generic::SquareChange<Square, Piece>;

/// What to do on a square of the second board to make it equal the first
/// ([`ChessSquareChange::fix`](generic::SquareChange::fix); 002 E.7: the
/// position is corrected from the records).
///
/// ```
/// use tandem_rules::chess::arbiter::{diff_chess, ChessFix};
/// use tandem_rules::chess::{resolve, start, shakmaty::{Position, Square}};
/// let s = start();
/// let mut a = s.clone();
/// a.play_unchecked(&resolve(&s, "e4").unwrap().to_shakmaty());
/// let fixes: Vec<ChessFix> = diff_chess(&a, &s).iter().filter_map(|c| c.fix()).collect();
/// assert!(matches!(fixes[0], ChessFix::Remove { square: Square::E2, .. }));
/// assert!(matches!(fixes[1], ChessFix::Put { square: Square::E4, .. }));
/// ```
pub type ChessFix = generic::Fix<Square, Piece>;

/// The squares where two boards differ, in square order (`a1`, `b1`, …
/// `h8`). Boards, not positions: a board read from a player may hold no
/// legal chess position (a king knocked over, art. 7.5).
#[must_use]
pub fn diff_boards(a: &Board, b: &Board) -> Vec<ChessSquareChange> {
    generic::diff_squares(Square::ALL, |s| a.piece_at(s), |s| b.piece_at(s))
}

/// The squares where two positions differ, in square order `a1` … `h8`
/// (002 art. 7.5, annex E.7: the arbiter corrects the boards).
///
/// ```
/// use tandem_rules::chess::arbiter::diff_chess;
/// use tandem_rules::chess::{from_fen, shakmaty::Square};
/// let a = from_fen("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1").unwrap();
/// let b = from_fen("4k3/8/5n2/8/8/8/4P3/4K3 w - - 0 1").unwrap();
/// let d = diff_chess(&a, &b);
/// let sq: Vec<Square> = d.iter().map(|c| c.square).collect();
/// assert_eq!(sq, [Square::E2, Square::E4, Square::F6]);
/// ```
#[must_use]
pub fn diff_chess(a: &Chess, b: &Chess) -> Vec<ChessSquareChange> {
    diff_boards(a.board(), b.board())
}

// ---------------------------------------------------------------- read-back

/// A position as a player reads it back from their board: some squares
/// with what stands on them (`None`: empty), and whether the reading
/// covers the whole board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChessReadback {
    /// Squares read, in the order given.
    pub squares: Vec<(Square, Option<Piece>)>,
    /// `true` for a whole board (a FEN): every square not listed is empty.
    pub complete: bool,
}

/// Why a chess read-back cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChessReadbackError {
    /// Nothing was given.
    Empty,
    /// A FEN whose board does not read.
    Fen(String),
    /// An item that is not `square:piece`.
    BadItem(String),
    /// Not a square `a1` … `h8`.
    BadSquare(String),
    /// A piece word that is not known.
    BadPiece(String),
    /// A square given twice with different contents.
    Conflict(String),
}

impl fmt::Display for ChessReadbackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChessReadbackError::Empty => write!(f, "empty read-back"),
            ChessReadbackError::Fen(e) => write!(f, "not a FEN board: {e}"),
            ChessReadbackError::BadItem(s) => write!(
                f,
                "{s:?} is not square:piece (for example e4:P, e5:empty, d8:q, f3 white knight)"
            ),
            ChessReadbackError::BadSquare(s) => write!(f, "{s:?} is not a square a1 … h8"),
            ChessReadbackError::BadPiece(s) => write!(
                f,
                "{s:?} is not a piece (a FEN letter KQRBNP for white or kqrbnp for black, \
                 wn/bq …, \"white knight\", \"czarny goniec\", or empty / -)"
            ),
            ChessReadbackError::Conflict(s) => {
                write!(f, "square {s} is given twice with different pieces")
            }
        }
    }
}

impl std::error::Error for ChessReadbackError {}

/// A role word in English or Polish (002 annex E.2.1 names the pieces in
/// both), or its letter.
fn role_word(w: &str) -> Option<Role> {
    Some(match w {
        "k" | "king" | "król" | "krol" => Role::King,
        "q" | "h" | "queen" | "hetman" | "hetmana" => Role::Queen,
        "r" | "w" | "rook" | "wieża" | "wieza" => Role::Rook,
        "b" | "g" | "bishop" | "goniec" => Role::Bishop,
        "n" | "s" | "knight" | "skoczek" => Role::Knight,
        "p" | "pawn" | "pion" | "pionek" => Role::Pawn,
        _ => return None,
    })
}

fn color_word(w: &str) -> Option<ShColor> {
    match w {
        "w" | "white" | "biały" | "biała" | "białe" | "bialy" | "biala" | "biale" => {
            Some(ShColor::White)
        }
        "b" | "black" | "czarny" | "czarna" | "czarne" => Some(ShColor::Black),
        _ => None,
    }
}

/// Reads what stands on a square: `empty`; a FEN letter (`P` white pawn,
/// `n` black knight); colour and piece letters (`wp`, `bn`); or words,
/// English or Polish, in either order (`white knight`, `czarny goniec`).
fn parse_chess_piece(text: &str) -> Option<Option<Piece>> {
    let t = text.trim();
    if matches!(
        t.to_lowercase().as_str(),
        "" | "-" | "." | "0" | "e" | "empty" | "none" | "nothing" | "puste" | "pusty" | "nic"
    ) {
        return (!t.is_empty()).then_some(None);
    }
    let mut chars = t.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        // One FEN letter: the case gives the colour.
        return Piece::from_char(c).map(Some);
    }
    let lower = t.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let (color, role) = match words.as_slice() {
        [two] if two.chars().count() == 2 => {
            let mut c = two.chars();
            let (x, y) = (c.next()?.to_string(), c.next()?.to_string());
            (color_word(&x)?, role_word(&y)?)
        }
        [x, y] => match (color_word(x), role_word(y)) {
            (Some(c), Some(r)) => (c, r),
            _ => (color_word(y)?, role_word(x)?),
        },
        _ => return None,
    };
    Some(Some(Piece { color, role }))
}

fn board_of_fen(text: &str) -> Result<Board, ChessReadbackError> {
    let t = text.trim();
    let board_part = t.split_whitespace().next().unwrap_or(t);
    if t.contains(char::is_whitespace) {
        // A whole FEN: read it all, so a bad field is reported too.
        let fen: Fen = t
            .parse()
            .map_err(|e| ChessReadbackError::Fen(format!("{e}: {t:?}")))?;
        return Ok(fen.0.board);
    }
    board_part
        .parse::<Board>()
        .map_err(|e| ChessReadbackError::Fen(format!("{e}: {t:?}")))
}

/// Reads a position read back from a board:
///
/// - a whole FEN (`rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1`)
///   or only its board part: the whole board ([`ChessReadback::complete`]),
///   and the board need not be a legal position;
/// - or `square:piece` items separated by commas, semicolons or new lines,
///   which cover only the squares named: `e4:P, e5:empty, d1:q` (FEN
///   letters: upper case white, lower case black), `e4=wp`, `f3 white
///   knight`, `c5: czarny goniec`, `d4 -`. Empty: `empty`, `-`, `.`, `0`,
///   `puste`.
///
/// ```
/// use tandem_rules::chess::arbiter::parse_chess_readback;
/// use tandem_rules::chess::shakmaty::{Color, Piece, Role, Square};
/// let r = parse_chess_readback("e4:P, e5:empty; f3 white knight\nc5: czarny goniec").unwrap();
/// assert!(!r.complete);
/// assert_eq!(r.squares[0], (Square::E4, Some(Piece { color: Color::White, role: Role::Pawn })));
/// assert_eq!(r.squares[1], (Square::E5, None));
/// assert_eq!(r.squares[3].1, Some(Piece { color: Color::Black, role: Role::Bishop }));
/// assert!(parse_chess_readback("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").unwrap().complete);
/// assert!(parse_chess_readback("i9:P").is_err());
/// ```
///
/// # Errors
/// A [`ChessReadbackError`] naming the item that is wrong.
pub fn parse_chess_readback(text: &str) -> Result<ChessReadback, ChessReadbackError> {
    let t = text.trim().trim_matches('"').trim();
    if t.is_empty() {
        return Err(ChessReadbackError::Empty);
    }
    let first = t.split_whitespace().next().unwrap_or(t);
    if first.contains('/') {
        let board = board_of_fen(t)?;
        return Ok(ChessReadback {
            squares: Square::ALL
                .iter()
                .filter_map(|&s| board.piece_at(s).map(|p| (s, Some(p))))
                .collect(),
            complete: true,
        });
    }
    let squares = generic::read_items(
        t,
        |s| s.to_ascii_lowercase().parse::<Square>().ok(),
        parse_chess_piece,
    )
    .map_err(|e| match e {
        ItemError::BadItem(s) => ChessReadbackError::BadItem(s),
        ItemError::BadSquare(s) => ChessReadbackError::BadSquare(s),
        ItemError::BadPiece(s) => ChessReadbackError::BadPiece(s),
        ItemError::Conflict(s) => ChessReadbackError::Conflict(s.to_string()),
    })?;
    Ok(ChessReadback {
        squares,
        complete: false,
    })
}

/// Compares the game's position (`a` of each change) with a position read
/// back from a board (`b`): every square for a complete read-back, only the
/// squares named otherwise; in square order. The changes say what to do on
/// that board ([`ChessSquareChange::fix`]).
///
/// ```
/// use tandem_rules::chess::arbiter::{compare_chess_readback, parse_chess_readback};
/// use tandem_rules::chess::{start, shakmaty::Square};
/// let rb = parse_chess_readback("e2:empty, e4:P, d2:P").unwrap();
/// let c = compare_chess_readback(&start(), &rb);
/// assert_eq!(c.iter().map(|c| c.square).collect::<Vec<_>>(), [Square::E2, Square::E4]);
/// ```
#[must_use]
pub fn compare_chess_readback(pos: &Chess, rb: &ChessReadback) -> Vec<ChessSquareChange> {
    if rb.complete {
        let mut b = Board::empty();
        for &(s, p) in &rb.squares {
            if let Some(p) = p {
                b.set_piece_at(s, p);
            }
        }
        return diff_boards(pos.board(), &b);
    }
    generic::compare_squares(rb.squares.iter().copied(), |s| pos.board().piece_at(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::start;

    #[test]
    fn identical_records_agree_however_written() {
        let r = reconcile_chess(
            &start(),
            &["e4", "e5", "Nf3", "Nc6", "O-O"][..4],
            &["e2e4", "e7-e5", "Ng1-f3", "b8c6"],
        );
        assert!(r.agree(), "{:?}", r.first_difference);
        assert_eq!(r.agreed_plies, 4);
        assert_eq!(r.finding, Finding::Agree);
    }

    #[test]
    fn one_record_ends() {
        let r = reconcile_chess(&start(), &["e4", "e5", "Nf3"], &["e4", "e5"]);
        assert_eq!(
            r.finding,
            Finding::Ends {
                shorter: Side::B,
                plies: 2
            }
        );
        let d = r.first_difference.unwrap();
        assert_eq!((d.a_legal(), d.b_legal()), (Some(true), None));
    }

    #[test]
    fn same_illegal_move_in_both() {
        let r = reconcile_chess(&start(), &["e4", "e5", "Ke3"], &["e4", "e5", "Ke3"]);
        assert_eq!(r.finding, Finding::SameIllegal { ply: 3 });
        assert!(!r.agree());
    }

    #[test]
    fn readback_errors() {
        assert_eq!(parse_chess_readback(" "), Err(ChessReadbackError::Empty));
        assert!(matches!(
            parse_chess_readback("e4:P, e4:p"),
            Err(ChessReadbackError::Conflict(_))
        ));
        assert!(matches!(
            parse_chess_readback("e4:x"),
            Err(ChessReadbackError::BadPiece(_))
        ));
        assert!(matches!(
            parse_chess_readback("e4"),
            Err(ChessReadbackError::BadItem(_))
        ));
        assert!(matches!(
            parse_chess_readback("rnbqkbnr/ppppzppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
            Err(ChessReadbackError::Fen(_))
        ));
    }
}
