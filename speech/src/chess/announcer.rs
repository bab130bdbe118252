//! Chess speech (002: FIDE Laws of Chess, annex E): [`ChessAnnouncer`],
//! which turns moves, refusals and endings into [`Utterance`]s with the
//! words of a [`ChessPhrasebook`]. Pure and golden-tested (`tests/golden/chess-*.txt`).
//!
//! What an announcement says follows annex E.2: the piece, the start and end
//! squares with the files named Anna … Hektor (or as plain letters,
//! [`FileStyle`]) and the ranks as numbers; castling as "krótka roszada" /
//! "długa roszada" with where king and rook go; and what a player on a
//! tactile board must do: for a capture, which piece comes off and from
//! which square (for en passant, the captured pawn's own square, E.2.3(a));
//! the promotion piece; check and mate.

use tandem_rules::chess::arbiter::{ChessFix, ChessSquareChange};
use tandem_rules::chess::shakmaty::{
    CastlingSide, Chess, Color as ShColor, Piece, Position, Role, Square,
};
use tandem_rules::chess::{ChessError, ChessMove, IllegalReason};
use tandem_rules::{Color, DrawReason, Outcome, WinReason};

use super::phrasebook::{ChessPhrasebook, FileStyle};
use crate::utterance::{Kind, Priority, Utterance};

/// Turns chess events into utterances (pure).
#[derive(Debug, Clone)]
pub struct ChessAnnouncer {
    book: ChessPhrasebook,
    style: FileStyle,
}

impl ChessAnnouncer {
    /// An announcer speaking files in `style`.
    #[must_use]
    pub fn new(book: ChessPhrasebook, style: FileStyle) -> ChessAnnouncer {
        ChessAnnouncer { book, style }
    }

    /// The phrasebook.
    #[must_use]
    pub fn phrasebook(&self) -> &ChessPhrasebook {
        &self.book
    }

    /// The file style.
    #[must_use]
    pub fn style(&self) -> FileStyle {
        self.style
    }

    /// A square's words.
    #[must_use]
    pub fn square(&self, sq: Square) -> String {
        self.book.square(sq, self.style)
    }

    /// The sentences of a move (without check or mate): what to do on a tactile board.
    #[must_use]
    pub fn move_sentences(&self, before: &Chess, m: &ChessMove) -> Vec<String> {
        let b = &self.book;
        let mut s = Vec::new();
        if let (Some(side), Some((rook_from, rook_to))) = (m.castling(), m.rook_move()) {
            let key = match side {
                CastlingSide::KingSide => "move.short_castle",
                CastlingSide::QueenSide => "move.long_castle",
            };
            s.push(b.sentence(
                key,
                &[
                    ("king", &self.square(m.to)),
                    ("rook_from", &self.square(rook_from)),
                    ("rook_to", &self.square(rook_to)),
                ],
            ));
            return s;
        }
        let piece = b.piece("nominative", m.role);
        let (from, to) = (self.square(m.from), self.square(m.to));
        let key = match (m.kind, m.is_capture()) {
            (tandem_rules::chess::MoveKind::EnPassant, _) => "move.en_passant",
            (_, true) => "move.capture",
            _ => "move.quiet",
        };
        s.push(b.sentence(key, &[("piece", piece), ("from", &from), ("to", &to)]));
        if let Some((role, sq)) = m.captured() {
            let form = match Color::from(!before.turn()) {
                Color::White => "white_taken",
                Color::Black => "black_taken",
            };
            s.push(b.sentence(
                "move.remove",
                &[("taken", b.piece(form, role)), ("square", &self.square(sq))],
            ));
        }
        if let Some(p) = m.promotion {
            s.push(b.sentence("move.promotion", &[("piece", b.piece("accusative", p))]));
        }
        s
    }

    /// The announcement of a move played in `before` (002 annex E.2.1), with
    /// check or mate after it.
    #[must_use]
    pub fn on_move(&self, before: &Chess, m: &ChessMove) -> Utterance {
        let mut s = self.move_sentences(before, m);
        let mut after = before.clone();
        after.play_unchecked(&m.to_shakmaty());
        if after.is_checkmate() {
            s.push(self.book.sentence("move.checkmate", &[]));
        } else if after.is_check() {
            s.push(self.book.sentence("move.check", &[]));
        }
        Utterance::new(Priority::Next, Kind::Move, s)
    }

    /// Whose move it is.
    #[must_use]
    pub fn turn(&self, pos: &Chess) -> Utterance {
        let key = match pos.turn() {
            ShColor::White => "turn.white",
            ShColor::Black => "turn.black",
        };
        Utterance::new(
            Priority::Normal,
            Kind::Turn,
            vec![self.book.sentence(key, &[])],
        )
    }

    /// The question for several candidate moves: "Który skoczek: Bella jeden
    /// czy Feliks trzy?", or for a promotion "Na jaką figurę …: hetman, …?".
    #[must_use]
    pub fn ask_which(&self, candidates: &[ChessMove]) -> Utterance {
        let b = &self.book;
        if candidates.is_empty() {
            // A rated game (issue 41): the rule, not the pieces that could move.
            let s = b.sentence("reject.which_rule", &[]);
            return Utterance::new(Priority::Now, Kind::Rejection, vec![s]);
        }
        let promotion = candidates.len() > 1
            && candidates.iter().all(|m| {
                m.promotion.is_some() && m.from == candidates[0].from && m.to == candidates[0].to
            });
        let s = if promotion {
            let opts: Vec<String> = candidates
                .iter()
                .filter_map(|m| m.promotion)
                .map(|r| b.piece("nominative", r).to_owned())
                .collect();
            b.sentence(
                "reject.which_promotion",
                &[("options", &b.alternatives(&opts))],
            )
        } else {
            let role = candidates.first().map_or(Role::Pawn, |m| m.role);
            let same_role = candidates.iter().all(|m| m.role == role);
            let mut opts: Vec<String> = Vec::new();
            for m in candidates {
                let o = if same_role {
                    self.square(m.from)
                } else {
                    format!("{} {}", b.piece("nominative", m.role), self.square(m.from))
                };
                if !opts.contains(&o) {
                    opts.push(o);
                }
            }
            let which = if same_role {
                b.piece("which", role)
            } else {
                b.piece("which", Role::Pawn)
            };
            b.sentence(
                "reject.which",
                &[("which", which), ("options", &b.alternatives(&opts))],
            )
        };
        Utterance::new(Priority::Now, Kind::Rejection, vec![s])
    }

    /// Why a move was refused, in the player's words.
    #[must_use]
    pub fn on_rejected(&self, text: &str, e: &ChessError) -> Utterance {
        let b = &self.book;
        let sq = |s: Square| self.square(s);
        let s = match e {
            ChessError::Ambiguous { candidates, .. } => return self.ask_which(candidates),
            ChessError::GameOver(_) => b.sentence("reject.game_over", &[]),
            ChessError::Illegal { reason, .. } => match *reason {
                IllegalReason::NoPiece { square } => {
                    b.sentence("reject.no_piece", &[("square", &sq(square))])
                }
                IllegalReason::NotYourPiece { square } => {
                    b.sentence("reject.not_your_piece", &[("square", &sq(square))])
                }
                IllegalReason::OwnPiece { square } => {
                    b.sentence("reject.own_piece", &[("square", &sq(square))])
                }
                IllegalReason::CannotReach { role, from, to } => b.sentence(
                    "reject.cannot_reach",
                    &[
                        ("piece", b.piece("nominative", role)),
                        ("from", &sq(from)),
                        ("to", &sq(to)),
                    ],
                ),
                IllegalReason::KingInCheck { from, to } => b.sentence(
                    "reject.king_in_check",
                    &[("from", &sq(from)), ("to", &sq(to))],
                ),
                IllegalReason::CastlingNotAllowed => b.sentence("reject.castling", &[]),
                IllegalReason::NoSuchMove { role, to } => b.sentence(
                    "reject.no_such_move",
                    &[("piece", b.piece("nominative", role)), ("to", &sq(to))],
                ),
                IllegalReason::Promotion => b.sentence("reject.promotion", &[]),
                IllegalReason::NoMoves => b.sentence("reject.no_moves", &[]),
                _ => b.sentence("reject.syntax", &[("text", text)]),
            },
            _ => b.sentence("reject.syntax", &[("text", text)]),
        };
        Utterance::new(Priority::Now, Kind::Rejection, vec![s])
    }

    /// A draw the player on move may claim (002 art. 9.2, 9.3).
    #[must_use]
    pub fn claimable(&self, reason: DrawReason) -> Option<Utterance> {
        let key = match reason {
            DrawReason::Repetition => "draw.claim_repetition",
            DrawReason::FiftyMoves => "draw.claim_fifty",
            _ => return None,
        };
        Some(Utterance::new(
            Priority::Normal,
            Kind::Draw,
            vec![self.book.sentence(key, &[])],
        ))
    }

    /// The game ended: result, then reason.
    #[must_use]
    pub fn game_over(&self, outcome: &Outcome) -> Utterance {
        let b = &self.book;
        let mut s = Vec::new();
        match outcome {
            Outcome::Win { winner, reason } => {
                s.push(b.sentence(
                    if *winner == Color::White {
                        "end.white_wins"
                    } else {
                        "end.black_wins"
                    },
                    &[],
                ));
                let loser_white = *winner == Color::Black;
                let key = match reason {
                    WinReason::Checkmate => Some("end.checkmate"),
                    WinReason::Resignation if loser_white => Some("end.resigned_white"),
                    WinReason::Resignation => Some("end.resigned_black"),
                    WinReason::Time if loser_white => Some("end.flag_white"),
                    WinReason::Time => Some("end.flag_black"),
                    _ => None,
                };
                if let Some(k) = key {
                    s.push(b.sentence(k, &[]));
                }
            }
            Outcome::Draw { reason } => {
                s.push(b.sentence("end.draw", &[]));
                let key = match reason {
                    DrawReason::Stalemate => Some("end.stalemate"),
                    DrawReason::DeadPosition => Some("end.dead_position"),
                    DrawReason::Repetition => Some("end.repetition"),
                    DrawReason::FiftyMoves => Some("end.fifty_moves"),
                    DrawReason::FlagNoMate => Some("end.flag_no_mate"),
                    DrawReason::Agreement => Some("end.agreed"),
                    _ => None,
                };
                if let Some(k) = key {
                    s.push(b.sentence(k, &[]));
                }
            }
        }
        Utterance::new(Priority::Next, Kind::GameEnd, s)
    }
}

/// What the daemon says at the table besides moves: the position, the last
/// move, a board behind, draw claims (002 annex E.3, E.4 and art. 9).
impl ChessAnnouncer {
    /// A piece in its colour, as a name standing alone ("biały skoczek").
    #[must_use]
    pub fn piece_name(&self, piece: Option<Piece>) -> String {
        match piece {
            Some(p) => {
                let form = match p.color {
                    ShColor::White => "white",
                    ShColor::Black => "black",
                };
                self.book.piece(form, p.role).to_owned()
            }
            None => self.book.render("table.empty", &[]),
        }
    }

    /// The whole position: each side's pieces by kind (king, queen, rooks,
    /// bishops, knights, pawns) with their squares, then whose move it is.
    #[must_use]
    pub fn describe_position(&self, pos: &Chess) -> Utterance {
        let b = &self.book;
        let order = tandem_rules::chess::ROLES;
        let mut s = Vec::new();
        for (color, key) in [
            (ShColor::White, "table.white"),
            (ShColor::Black, "table.black"),
        ] {
            let mut pieces = Vec::new();
            for role in order {
                let squares = pos.board().by_color(color) & pos.board().by_role(role);
                for sq in squares {
                    pieces.push(b.render(
                        "table.piece",
                        &[
                            ("piece", b.piece("nominative", role)),
                            ("square", &self.square(sq)),
                        ],
                    ));
                }
            }
            s.push(b.sentence(key, &[("pieces", &pieces.join(b.list_separator()))]));
        }
        s.extend(self.turn(pos).sentences);
        Utterance::new(Priority::Next, Kind::Describe, s)
    }

    /// What stands on one square.
    #[must_use]
    pub fn describe_square(&self, pos: &Chess, sq: Square) -> Utterance {
        let piece = self.piece_name(pos.board().piece_at(sq));
        let s = self.book.sentence(
            "table.square",
            &[("square", &self.square(sq)), ("piece", &piece)],
        );
        Utterance::new(Priority::Next, Kind::Describe, vec![s])
    }

    /// The last move again (`None` before the first), as it was announced.
    #[must_use]
    pub fn last_move(&self, last: Option<(&Chess, &ChessMove)>) -> Utterance {
        let s = match last {
            Some((before, m)) => {
                let words = self.on_move(before, m).sentences.join(" ");
                vec![self.book.sentence("table.last", &[("move", &words)])]
            }
            None => vec![self.book.sentence("table.no_last", &[])],
        };
        Utterance::new(Priority::Next, Kind::Move, s)
    }

    /// A board `behind` plies behind the record; `next` (played in `before`)
    /// is the first move to make on it (002 annex E.4).
    #[must_use]
    pub fn board_behind(&self, behind: u32, before: &Chess, next: &ChessMove) -> Utterance {
        let words = self.on_move(before, next).sentences.join(" ");
        let s = if behind <= 1 {
            self.book.sentence("table.behind_one", &[("move", &words)])
        } else {
            self.book.sentence(
                "table.behind_many",
                &[("count", &behind.to_string()), ("move", &words)],
            )
        };
        Utterance::new(Priority::Normal, Kind::Sync, vec![s])
    }

    /// Both boards show the record's position.
    #[must_use]
    pub fn boards_in_sync(&self) -> Utterance {
        Utterance::new(
            Priority::Normal,
            Kind::Sync,
            vec![self.book.sentence("table.in_sync", &[])],
        )
    }

    /// A draw claim that is not correct: the opponent gets `minutes` more and
    /// play goes on (002 art. 9.5(b)).
    #[must_use]
    pub fn claim_wrong(&self, minutes: u64) -> Utterance {
        let s = self
            .book
            .sentence("table.claim_wrong", &[("minutes", &minutes.to_string())]);
        Utterance::new(Priority::Now, Kind::Draw, vec![s])
    }

    /// No draw can be claimed now (a claim with nothing to claim).
    #[must_use]
    pub fn no_claim(&self) -> Utterance {
        Utterance::new(
            Priority::Now,
            Kind::Rejection,
            vec![self.book.sentence("table.no_claim", &[])],
        )
    }

    /// How to play by voice and keys.
    #[must_use]
    pub fn help(&self) -> Utterance {
        Utterance::new(
            Priority::Next,
            Kind::Help,
            vec![self.book.sentence("table.help", &[])],
        )
    }
}

/// The arbiter's words (002 annex E.7-E.8): boards that differ and what to
/// do on a board to correct it, square by square.
impl ChessAnnouncer {
    /// The boards differ (002 annex E.7): say so at once, then each square:
    /// what the record has there and what the board has. For the daemon's
    /// mismatch handling (`a` of each change: the record's position; `b`:
    /// the board read back).
    #[must_use]
    pub fn boards_differ(&self, changes: &[ChessSquareChange]) -> Utterance {
        let b = &self.book;
        let mut s = vec![b.sentence("arbiter.differ", &[])];
        for c in changes {
            s.push(b.sentence(
                "arbiter.differ_square",
                &[
                    ("square", &self.square(c.square)),
                    ("expected", &self.piece_name(c.a)),
                    ("actual", &self.piece_name(c.b)),
                ],
            ));
        }
        Utterance::new(Priority::Now, Kind::Sync, s)
    }

    /// What to do on the second board to make it equal the first, one
    /// sentence a step (a piece that should be another: take it off, put the
    /// other on). `spoken`: squares in words ("Feliks sześć") for speech,
    /// else as written (`f6`) for a screen.
    #[must_use]
    pub fn fix_sentences(&self, changes: &[ChessSquareChange], spoken: bool) -> Vec<String> {
        let b = &self.book;
        let square = |sq: Square| {
            if spoken {
                self.square(sq)
            } else {
                sq.to_string()
            }
        };
        let say = |key: &str, sq: Square, piece: Piece| {
            b.sentence(
                key,
                &[
                    ("square", &square(sq)),
                    ("piece", &self.piece_name(Some(piece))),
                ],
            )
        };
        let mut out = Vec::new();
        for c in changes {
            match c.fix() {
                Some(ChessFix::Remove { square, piece }) => {
                    out.push(say("arbiter.fix_remove", square, piece));
                }
                Some(ChessFix::Put { square, piece }) => {
                    out.push(say("arbiter.fix_put", square, piece));
                }
                Some(ChessFix::Replace {
                    square,
                    remove,
                    put,
                }) => {
                    out.push(say("arbiter.fix_remove", square, remove));
                    out.push(say("arbiter.fix_put", square, put));
                }
                None => {}
            }
        }
        out
    }

    /// [`ChessAnnouncer::fix_sentences`] spoken, for the player whose board
    /// is corrected.
    #[must_use]
    pub fn fix_board(&self, changes: &[ChessSquareChange]) -> Utterance {
        Utterance::new(
            Priority::Next,
            Kind::Sync,
            self.fix_sentences(changes, true),
        )
    }
}

#[cfg(test)]
mod tests;
