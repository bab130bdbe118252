//! [`ChessMove`]: a legal chess move with what a tactile board needs.

use shakmaty::{CastlingSide, Move, Role, Square};

/// How a move is made on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A piece moves, perhaps capturing on its target square, perhaps promoting.
    Normal,
    /// A pawn captures en passant (002 art. 3.7(d)): the captured pawn
    /// stands beside the target square, not on it.
    EnPassant,
    /// Castling (002 art. 3.8(b)); `rook` is the rook's start square.
    Castle {
        /// King side (`O-O`, "krótka roszada") or queen side (`O-O-O`).
        side: CastlingSide,
        /// Where the rook stands before castling.
        rook: Square,
    },
}

/// A legal chess move: which piece goes from where to where, which piece
/// comes off and from which square, the promotion piece.
///
/// For castling, `from`/`to` are the king's squares (`e1` to `g1`).
///
/// ```
/// use tandem_rules::chess::{resolve, start, shakmaty::{Role, Square}};
/// let m = resolve(&start(), "Nf3").unwrap();
/// assert_eq!((m.role, m.from, m.to), (Role::Knight, Square::G1, Square::F3));
/// assert_eq!(m.captured(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChessMove {
    /// The piece that moves (the king when castling, the pawn when promoting).
    pub role: Role,
    /// Start square (the king's when castling).
    pub from: Square,
    /// Target square (the king's when castling).
    pub to: Square,
    /// The role of the captured piece.
    pub capture: Option<Role>,
    /// The piece a pawn becomes (002 art. 3.7(e)).
    pub promotion: Option<Role>,
    /// Normal, en passant or castling.
    pub kind: MoveKind,
}

impl ChessMove {
    /// The move as tandem keeps it. A piece drop (crazyhouse) cannot happen
    /// in standard chess; it is kept as a move from and to its square.
    #[must_use]
    pub fn from_shakmaty(m: &Move) -> ChessMove {
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => ChessMove {
                role,
                from,
                to,
                capture,
                promotion,
                kind: MoveKind::Normal,
            },
            Move::EnPassant { from, to } => ChessMove {
                role: Role::Pawn,
                from,
                to,
                capture: Some(Role::Pawn),
                promotion: None,
                kind: MoveKind::EnPassant,
            },
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                ChessMove {
                    role: Role::King,
                    from: king,
                    to: Square::from_coords(side.king_to_file(), king.rank()),
                    capture: None,
                    promotion: None,
                    kind: MoveKind::Castle { side, rook },
                }
            }
            Move::Put { role, to } => ChessMove {
                role,
                from: to,
                to,
                capture: None,
                promotion: None,
                kind: MoveKind::Normal,
            },
        }
    }

    /// The shakmaty move.
    #[must_use]
    pub fn to_shakmaty(&self) -> Move {
        match self.kind {
            MoveKind::Normal => Move::Normal {
                role: self.role,
                from: self.from,
                capture: self.capture,
                to: self.to,
                promotion: self.promotion,
            },
            MoveKind::EnPassant => Move::EnPassant {
                from: self.from,
                to: self.to,
            },
            MoveKind::Castle { rook, .. } => Move::Castle {
                king: self.from,
                rook,
            },
        }
    }

    /// The square of the piece that comes off the board: the target square,
    /// or for en passant the captured pawn's own square (002 art. 3.7(d)),
    /// which a player on a tactile board must empty.
    ///
    /// ```
    /// use tandem_rules::chess::{from_fen, resolve, shakmaty::{Role, Square}};
    /// let p = from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
    /// let m = resolve(&p, "exd6").unwrap();
    /// assert_eq!(m.captured(), Some((Role::Pawn, Square::D5)));
    /// ```
    #[must_use]
    pub fn captured(&self) -> Option<(Role, Square)> {
        let role = self.capture?;
        let sq = match self.kind {
            MoveKind::EnPassant => Square::from_coords(self.to.file(), self.from.rank()),
            _ => self.to,
        };
        Some((role, sq))
    }

    /// Whether the move captures.
    #[must_use]
    pub fn is_capture(&self) -> bool {
        self.capture.is_some()
    }

    /// The castling side, for a castling move.
    #[must_use]
    pub fn castling(&self) -> Option<CastlingSide> {
        match self.kind {
            MoveKind::Castle { side, .. } => Some(side),
            _ => None,
        }
    }

    /// For castling, the rook's start and end squares (`h1` to `f1`).
    #[must_use]
    pub fn rook_move(&self) -> Option<(Square, Square)> {
        match self.kind {
            MoveKind::Castle { side, rook } => Some((
                rook,
                Square::from_coords(side.rook_to_file(), self.from.rank()),
            )),
            _ => None,
        }
    }

    /// UCI text (`e2e4`, `e7e8q`, castling as the king's move `e1g1`).
    #[must_use]
    pub fn uci(&self) -> String {
        let mut s = format!("{}{}", self.from, self.to);
        if let Some(p) = self.promotion {
            s.push(p.char());
        }
        s
    }
}
