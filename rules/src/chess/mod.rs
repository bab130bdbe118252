//! Chess for blind and visually impaired players (002: FIDE Laws of Chess,
//! annex E), on the `shakmaty` crate: tandem writes no chess move generator.
//!
//! - [`ChessMove`]: a legal move with everything the announcer, the braille
//!   record and a tactile board need (which piece, which piece comes off and
//!   from which square, castling side, promotion piece). `Copy`, unlike
//!   `shakmaty::Move`, so it can be the [`TableGame`](crate::TableGame) move.
//! - [`resolve`]: loose move text (SAN `Nf3`, `exd5`, `O-O`, `0-0-0`, `e8=Q`;
//!   UCI `e2e4`, `e7e8q`; spoken-like `e2-e4`, `e2 e4`, `Ng1-f3`) against a
//!   position, with the reason for a refusal ([`ChessError`]).
//! - [`ChessGame`]: the record from a start position, results (checkmate,
//!   stalemate, dead position) and the draws a player may claim (threefold
//!   repetition, 50 moves); implements [`TableGame`](crate::TableGame).
//! - [`pgn`]: a lenient PGN reader, [`pgn::replay`] with the first illegal
//!   move and its reason, and a PGN writer.
//! - [`perft`]: node counts through shakmaty.
//!
//! Squares are shakmaty's (`a1` = index 0 … `h8` = 63); braille and the
//! command line number them 1-64 (`a1` = 1, `b1` = 2, … `h8` = 64), see
//! [`square_number`].
//!
//! ```
//! use tandem_rules::chess::ChessGame;
//! use tandem_rules::TableGame;
//! let mut g = ChessGame::new();
//! for m in ["e4", "e7e5", "Ng1-f3", "Nc6", "Bb5", "a6", "O-O"] {
//!     g.play_text(m).unwrap();
//! }
//! assert_eq!(g.record(), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"]);
//! ```

pub mod arbiter;
mod error;
mod game;
mod mv;
pub mod pgn;
mod result;
mod text;

pub use error::{ChessError, IllegalReason};
pub use game::{pgn_result, ChessGame, ChessOptions};
pub use mv::{ChessMove, MoveKind};
/// The chess library tandem builds on, for the crates that name its types
/// (squares, roles, positions) without depending on it themselves.
pub use shakmaty;
pub use text::{resolve, san, uci};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, Role, Square};

/// The kinds of piece in the order a position is read out, said, listed
/// and shown: king, queen, rooks, bishops, knights, pawns.
pub const ROLES: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// The standard start position.
#[must_use]
pub fn start() -> Chess {
    Chess::default()
}

/// A position from FEN (the relaxed reader of shakmaty: missing counters
/// and castling fields are filled in).
///
/// # Errors
/// The text is not FEN, or the position is not a legal chess position.
///
/// ```
/// let p = tandem_rules::chess::from_fen("8/8/8/8/8/8/4K3/4k3 b - - 0 1");
/// assert!(p.is_err()); // kings side by side
/// let p = tandem_rules::chess::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
/// assert_eq!(tandem_rules::chess::to_fen(&p), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
/// ```
pub fn from_fen(text: &str) -> Result<Chess, ChessError> {
    from_fen_in(text, false)
}

/// A position from FEN, castling by Chess960's rules when `chess960` (the
/// Laws' guidelines for Chess960: the rooks may stand anywhere on the back
/// rank; castling rights in X-FEN `KQkq` or Shredder-FEN `HAha`).
///
/// # Errors
/// As [`from_fen`].
///
/// ```
/// use tandem_rules::chess::{from_fen_in, is_chess960, resolve, san, to_fen};
/// let p = from_fen_in("nbbrkn1q/pppppppp/8/8/8/8/PPPPPPPP/NBBRK1RQ w GDd - 0 1", true).unwrap();
/// assert!(is_chess960(&p));
/// assert_eq!(to_fen(&p), "nbbrkn1q/pppppppp/8/8/8/8/PPPPPPPP/NBBRK1RQ w KQq - 0 1");
/// let m = resolve(&p, "O-O").unwrap();
/// assert_eq!(san(&p, &m), "O-O");
/// for t in ["e1g1", "Kxg1"] {
///     assert_eq!(resolve(&p, t).unwrap(), m, "{t}: the king takes its own rook");
/// }
/// ```
pub fn from_fen_in(text: &str, chess960: bool) -> Result<Chess, ChessError> {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let fen: Fen = text
        .trim()
        .parse()
        .map_err(|e: shakmaty::fen::ParseFenError| ChessError::Fen(format!("{e}: {text:?}")))?;
    fen.into_position(mode)
        .map_err(|e| ChessError::Fen(format!("{e}: {text:?}")))
}

/// Whether a position castles by Chess960's rules.
#[must_use]
pub fn is_chess960(pos: &Chess) -> bool {
    pos.castles().mode() == CastlingMode::Chess960
}

/// A position as FEN (the en passant square only when a capture is legal).
#[must_use]
pub fn to_fen(pos: &Chess) -> String {
    Fen::from_position(pos.clone(), EnPassantMode::Legal).to_string()
}

/// Leaf nodes at `depth` plies (shakmaty's perft).
///
/// ```
/// assert_eq!(tandem_rules::chess::perft(&tandem_rules::chess::start(), 3), 8902);
/// ```
#[must_use]
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    shakmaty::perft(pos, depth)
}

/// The count below each legal move, in shakmaty's move order.
#[must_use]
pub fn perft_divide(pos: &Chess, depth: u32) -> Vec<(ChessMove, u64)> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            let n = if depth <= 1 {
                1
            } else {
                shakmaty::perft(&next, depth - 1)
            };
            (ChessMove::from_shakmaty(m), n)
        })
        .collect()
}

/// The number tandem gives a square: 1-64, `a1` = 1, `b1` = 2, … `h1` = 8,
/// `a2` = 9, … `h8` = 64 (rank by rank from white's side).
///
/// ```
/// use tandem_rules::chess::{square_number, shakmaty::Square};
/// assert_eq!(square_number(Square::A1), 1);
/// assert_eq!(square_number(Square::H8), 64);
/// ```
#[must_use]
pub fn square_number(sq: Square) -> u8 {
    u8::from(sq) + 1
}

/// The square numbered `n` (1-64), see [`square_number`].
#[must_use]
pub fn square_from_number(n: u8) -> Option<Square> {
    (1..=64).contains(&n).then(|| Square::new(u32::from(n - 1)))
}
