//! Arbiter tools for chess: two boards that differ, two records that differ
//! (002 annex E.7-E.8; art. 7.4, 7.5).
//!
//! The chess counterpart of [`crate::arbiter`] (which works on the draughts
//! `Position`/`Game`); it shares its [`Side`] and [`Finding`] so the command
//! line and the daemon word the results the same way for both games.
//!
//! - [`reconcile_chess`] replays two records (SAN, UCI or any text
//!   [`resolve`] reads) of one game from the same start and finds how many
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
//! use tandem_rules::arbiter::{Finding, Side};
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

pub use crate::arbiter::{Finding, Side};

// ---------------------------------------------------------------- records

/// The first move of a record that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChessIllegalPly {
    /// 1-based ply.
    pub ply: usize,
    /// The move as written.
    pub text: String,
    /// Why it cannot be played there.
    pub reason: ChessError,
}

/// One record replayed from the start as far as its moves are legal.
#[derive(Debug, Clone)]
pub struct ChessRecordReplay {
    /// Every move as written (the legal ones and those after).
    pub texts: Vec<String>,
    /// The game up to the first illegal move (or the whole record).
    pub game: ChessGame,
    /// The first illegal move, if any.
    pub illegal: Option<ChessIllegalPly>,
}

impl ChessRecordReplay {
    /// Plies written.
    #[must_use]
    pub fn written(&self) -> usize {
        self.texts.len()
    }

    /// Plies replayed (legal).
    #[must_use]
    pub fn legal(&self) -> usize {
        self.game.ply()
    }
}

/// Replays a record (move texts as written: SAN, UCI, `e2-e4`, `0-0`) from
/// `start`, stopping at the first move that is illegal (002 art. 7.4) or
/// cannot be read.
///
/// ```
/// use tandem_rules::chess::arbiter::replay_chess_record;
/// use tandem_rules::chess::start;
/// let r = replay_chess_record(&start(), &["e4", "e7e5", "Ke3"]);
/// assert_eq!(r.legal(), 2);
/// assert_eq!(r.illegal.unwrap().ply, 3);
/// ```
#[must_use]
pub fn replay_chess_record<S: AsRef<str>>(start: &Chess, texts: &[S]) -> ChessRecordReplay {
    let texts: Vec<String> = texts.iter().map(|t| t.as_ref().trim().to_owned()).collect();
    let mut game = ChessGame::from_position(start.clone(), ChessOptions::default());
    for (i, t) in texts.iter().enumerate() {
        if let Err(reason) = game.play_text(t) {
            let illegal = Some(ChessIllegalPly {
                ply: i + 1,
                text: t.clone(),
                reason,
            });
            return ChessRecordReplay {
                texts,
                game,
                illegal,
            };
        }
    }
    ChessRecordReplay {
        texts,
        game,
        illegal: None,
    }
}

/// The first ply where two chess records differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChessDifference {
    /// 1-based ply.
    pub ply: usize,
    /// Record A's move there as written (`None`: A ends before it).
    pub a: Option<String>,
    /// Record B's move there as written.
    pub b: Option<String>,
    /// A's move played in the last agreed position: the move, or why not.
    pub a_result: Option<Result<ChessMove, ChessError>>,
    /// B's move played in the last agreed position.
    pub b_result: Option<Result<ChessMove, ChessError>>,
}

impl ChessDifference {
    /// Whether A's move is legal there (`None`: A has no move there).
    #[must_use]
    pub fn a_legal(&self) -> Option<bool> {
        self.a_result.as_ref().map(Result::is_ok)
    }

    /// Whether B's move is legal there.
    #[must_use]
    pub fn b_legal(&self) -> Option<bool> {
        self.b_result.as_ref().map(Result::is_ok)
    }

    /// The text of one side's move.
    #[must_use]
    pub fn text(&self, side: Side) -> Option<&str> {
        match side {
            Side::A => self.a.as_deref(),
            Side::B => self.b.as_deref(),
        }
    }

    /// One side's move, played in the last agreed position.
    #[must_use]
    pub fn result(&self, side: Side) -> Option<&Result<ChessMove, ChessError>> {
        match side {
            Side::A => self.a_result.as_ref(),
            Side::B => self.b_result.as_ref(),
        }
    }
}

/// The records reach the same position again after playing moves in
/// another order (the same position as for repetition, 002 art. 9.2).
#[derive(Debug, Clone, PartialEq)]
pub struct ChessTransposition {
    /// The first ply where the order differs.
    pub from_ply: usize,
    /// Both records reach the same position after this many plies.
    pub same_after: usize,
    /// From there, how many further plies both records agree on.
    pub agree_again: usize,
    /// The position after `same_after + agree_again` plies: the last
    /// position both records reach.
    pub last_common: Chess,
}

impl ChessTransposition {
    /// Plies up to the last position both records reach.
    #[must_use]
    pub fn last_common_ply(&self) -> usize {
        self.same_after + self.agree_again
    }
}

/// The comparison of two chess records. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct ChessReconciliation {
    /// Record A replayed.
    pub a: ChessRecordReplay,
    /// Record B replayed.
    pub b: ChessRecordReplay,
    /// Plies on which both records agree (the same legal move, however written).
    pub agreed_plies: usize,
    /// The first ply where they differ, `None` if they agree to the end.
    pub first_difference: Option<ChessDifference>,
    /// What the difference looks like.
    pub finding: Finding,
    /// The records reach the same position again later, if they do.
    pub transposition: Option<ChessTransposition>,
}

impl ChessReconciliation {
    /// The position after the agreed plies: where play goes back to
    /// (002 E.8: "the last position where both records agree").
    #[must_use]
    pub fn agreed_position(&self) -> &Chess {
        // agreed_plies <= a.legal(), so the position exists.
        self.a
            .game
            .position_at(self.agreed_plies)
            .unwrap_or_else(|| self.a.game.position())
    }

    /// The agreed moves in SAN.
    #[must_use]
    pub fn agreed_moves(&self) -> Vec<String> {
        self.a.game.sans()[..self.agreed_plies].to_vec()
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Chess {
        self.a.game.start()
    }

    /// Whether the records agree completely (same moves, all legal, same length).
    #[must_use]
    pub fn agree(&self) -> bool {
        self.first_difference.is_none() && self.a.illegal.is_none() && self.b.illegal.is_none()
    }

    /// A record's first illegal move, if any.
    #[must_use]
    pub fn illegal(&self, side: Side) -> Option<&ChessIllegalPly> {
        self.record(side).illegal.as_ref()
    }

    /// A record replayed.
    #[must_use]
    pub fn record(&self, side: Side) -> &ChessRecordReplay {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
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
    let a = replay_chess_record(start, a);
    let b = replay_chess_record(start, b);
    let (am, bm) = (a.game.moves(), b.game.moves());
    let agreed = am.iter().zip(bm).take_while(|(x, y)| x == y).count();
    let same = agreed == a.written() && agreed == b.written();
    let first_difference = if same {
        None
    } else {
        let pos = a
            .game
            .position_at(agreed)
            .unwrap_or_else(|| a.game.position())
            .clone();
        let result = |r: &ChessRecordReplay| -> Option<Result<ChessMove, ChessError>> {
            let text = r.texts.get(agreed)?;
            Some(match r.game.moves().get(agreed) {
                Some(m) => Ok(*m),
                None => match &r.illegal {
                    // The record's replay stopped here: its own reason.
                    Some(i) if i.ply == agreed + 1 => Err(i.reason.clone()),
                    _ => ChessGame::from_position(pos.clone(), ChessOptions::default())
                        .play_text(text),
                },
            })
        };
        Some(ChessDifference {
            ply: agreed + 1,
            a: a.texts.get(agreed).cloned(),
            b: b.texts.get(agreed).cloned(),
            a_result: result(&a),
            b_result: result(&b),
        })
    };
    let finding = match &first_difference {
        None => Finding::Agree,
        Some(d) => classify(
            &keys(&a),
            &keys(&b),
            agreed,
            d.a_legal() == Some(false) && d.b_legal() == Some(false),
        ),
    };
    let transposition = first_difference
        .as_ref()
        .and_then(|_| find_transposition(&a, &b, agreed));
    ChessReconciliation {
        a,
        b,
        agreed_plies: agreed,
        first_difference,
        finding,
        transposition,
    }
}

/// [`reconcile_chess`] for a running game (record A) against a record the
/// arbiter types in (record B), from the game's start position.
///
/// ```
/// use tandem_rules::arbiter::Finding;
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

/// A ply's key for [`classify`]: the text as written and, where the record
/// was legal there, the SAN of the move, both without capture and check
/// marks. Two keys match when either matches, so `g1f3` in one record
/// matches `Nf3` in the other, and `Nxe5+` matches `Ne5` after a swap.
#[derive(Debug, Clone)]
struct Key {
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

/// `both_illegal`: both records have a move at the first difference and
/// neither is legal there (two legal moves that differ are never "the same").
fn classify(ka: &[Key], kb: &[Key], agreed: usize, both_illegal: bool) -> Finding {
    let k = agreed;
    let ply = k + 1;
    if ka.len() == k || kb.len() == k {
        if ka.len() == k && kb.len() == k {
            // Same length and agreeing moves, yet an illegal move.
            return Finding::Differ { ply };
        }
        let shorter = if ka.len() == k { Side::A } else { Side::B };
        return Finding::Ends { shorter, plies: k };
    }
    if both_illegal && ka[k] == kb[k] {
        return Finding::SameIllegal { ply };
    }
    let (rest_a, rest_b) = (&ka[k + 1..], &kb[k + 1..]);
    let tail_eq = |x: &[Key], y: &[Key]| {
        !x.is_empty() && !y.is_empty() && x.iter().zip(y).all(|(p, q)| p == q)
    };
    // A wrong move: the same moves after it, to the end of both records.
    if rest_a.len() == rest_b.len() && (rest_a.is_empty() || tail_eq(rest_a, rest_b)) {
        return Finding::WrongMove { ply };
    }
    // Swapped: ply k with ply k+d (d = 1: written in the wrong order; d = 2:
    // the same side's two moves in the other order).
    for d in [1usize, 2] {
        if ka.len() > k + d
            && kb.len() > k + d
            && ka[k] == kb[k + d]
            && ka[k + d] == kb[k]
            && ka[k + 1..k + d] == kb[k + 1..k + d]
            && ka[k + d + 1..]
                .iter()
                .zip(&kb[k + d + 1..])
                .all(|(p, q)| p == q)
        {
            return Finding::Swapped {
                first: ply,
                second: ply + d,
            };
        }
    }
    // Missing ply: one record skips the other's ply k and goes on the same.
    if ka.len() > k + 1 && tail_eq(&ka[k + 1..], &kb[k..]) {
        return Finding::MissingPly {
            record: Side::B,
            ply,
        };
    }
    if kb.len() > k + 1 && tail_eq(&ka[k..], &kb[k + 1..]) {
        return Finding::MissingPly {
            record: Side::A,
            ply,
        };
    }
    // A wrong move, and one record goes on further than the other.
    if tail_eq(rest_a, rest_b) {
        return Finding::WrongMove { ply };
    }
    Finding::Differ { ply }
}

fn find_transposition(
    a: &ChessRecordReplay,
    b: &ChessRecordReplay,
    agreed: usize,
) -> Option<ChessTransposition> {
    let (ga, gb) = (&a.game, &b.game);
    let common = ga.ply().min(gb.ply());
    // `Chess` equality is board, side to move, castling rights and a legal
    // en passant square: the same position as for repetition (002 art. 9.2).
    let j = (agreed + 1..=common).find(|&j| ga.position_at(j) == gb.position_at(j))?;
    let again = ga.moves()[j..]
        .iter()
        .zip(&gb.moves()[j..])
        .take_while(|(x, y)| x == y)
        .count();
    let last_common = ga.position_at(j + again)?.clone();
    Some(ChessTransposition {
        from_ply: agreed + 1,
        same_after: j,
        agree_again: again,
        last_common,
    })
}

// ------------------------------------------------------------------ boards

/// A square whose contents differ between two boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChessSquareChange {
    /// The square.
    pub square: Square,
    /// What stands there on the first board (the record, the game).
    pub a: Option<Piece>,
    /// What stands there on the second (the board to correct).
    pub b: Option<Piece>,
}

/// What to do on a square of the second board to make it equal the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChessFix {
    /// Take `piece` off `square`.
    Remove {
        /// The square.
        square: Square,
        /// The piece to take off.
        piece: Piece,
    },
    /// Put `piece` on `square`.
    Put {
        /// The square.
        square: Square,
        /// The piece to put there.
        piece: Piece,
    },
    /// Take `remove` off `square` and put `put` there.
    Replace {
        /// The square.
        square: Square,
        /// The piece to take off.
        remove: Piece,
        /// The piece to put there.
        put: Piece,
    },
}

impl ChessSquareChange {
    /// What to do on the second board for this square (002 E.7: the
    /// position is corrected from the records). `None` only if both sides
    /// are equal (never for a change [`diff_chess`] returns).
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
    #[must_use]
    pub fn fix(&self) -> Option<ChessFix> {
        match (self.a, self.b) {
            (Some(want), None) => Some(ChessFix::Put {
                square: self.square,
                piece: want,
            }),
            (None, Some(has)) => Some(ChessFix::Remove {
                square: self.square,
                piece: has,
            }),
            (Some(want), Some(has)) if want != has => Some(ChessFix::Replace {
                square: self.square,
                remove: has,
                put: want,
            }),
            _ => None,
        }
    }
}

/// The squares where two boards differ, in square order (`a1`, `b1`, …
/// `h8`). Boards, not positions: a board read from a player may hold no
/// legal chess position (a king knocked over, art. 7.5).
#[must_use]
pub fn diff_boards(a: &Board, b: &Board) -> Vec<ChessSquareChange> {
    Square::ALL
        .iter()
        .filter_map(|&square| {
            let (pa, pb) = (a.piece_at(square), b.piece_at(square));
            (pa != pb).then_some(ChessSquareChange {
                square,
                a: pa,
                b: pb,
            })
        })
        .collect()
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
    let mut squares: Vec<(Square, Option<Piece>)> = Vec::new();
    for item in t
        .split([',', ';', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let (sq, piece) = match item.split_once([':', '=']) {
            Some((s, p)) => (s.trim(), p.trim()),
            None => match item.split_once(char::is_whitespace) {
                Some((s, p)) => (s.trim(), p.trim()),
                None => return Err(ChessReadbackError::BadItem(item.to_owned())),
            },
        };
        let square: Square = sq
            .to_ascii_lowercase()
            .parse()
            .map_err(|_| ChessReadbackError::BadSquare(sq.to_owned()))?;
        let piece = parse_chess_piece(piece)
            .ok_or_else(|| ChessReadbackError::BadPiece(piece.to_owned()))?;
        match squares.iter().find(|(s, _)| *s == square) {
            Some((_, p)) if *p != piece => {
                return Err(ChessReadbackError::Conflict(square.to_string()))
            }
            Some(_) => {}
            None => squares.push((square, piece)),
        }
    }
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
    let mut out: Vec<ChessSquareChange> = rb
        .squares
        .iter()
        .filter_map(|&(square, b)| {
            let a = pos.board().piece_at(square);
            (a != b).then_some(ChessSquareChange { square, a, b })
        })
        .collect();
    out.sort_by_key(|c| c.square);
    out
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
