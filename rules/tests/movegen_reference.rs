//! The move generator against a slow reference written straight from the
//! rules (001 ch. I 3-4) on rows and columns, with none of the generator's
//! shortcuts (bitboards, ray tables, the straight-line and three-piece
//! duplicate shortcuts, bulk counting): on random positions with men and kings
//! of both sides, the legal moves, their count and perft to depth 2 agree.

use std::collections::BTreeSet;

use proptest::prelude::*;
use tandem_rules::draughts::{perft, Piece, Position, Role, Square, Variant};
use tandem_rules::Color;

/// A move as the reference sees it: start, end, captured set, promotion.
type RefMove = (u8, u8, BTreeSet<u8>, bool);

const DIRS: [(i8, i8); 4] = [(1, -1), (1, 1), (-1, 1), (-1, -1)];

struct Ref {
    v: Variant,
    pos: Position,
    me: Color,
}

impl Ref {
    fn at(&self, r: i8, c: i8) -> Option<Square> {
        if r < 0 || c < 0 {
            return None;
        }
        self.v.square_at(r as u8, c as u8)
    }

    /// Empty for the moving piece: its own start square counts as empty.
    fn empty(&self, sq: Square, start: Square) -> bool {
        sq == start || self.pos.piece_at(sq).is_none()
    }

    fn is_opp(&self, sq: Square) -> bool {
        matches!(self.pos.piece_at(sq), Some(p) if p.color != self.me)
    }

    fn search(
        &self,
        start: Square,
        at: Square,
        king: bool,
        taken: &mut Vec<u8>,
        out: &mut Vec<RefMove>,
    ) {
        let (r0, c0) = self.v.coords(at);
        let (r0, c0) = (r0 as i8, c0 as i8);
        let mut extended = false;
        for (dr, dc) in DIRS {
            // Find the piece to jump: adjacent for a man, the first on the
            // line for a king (4.2, 4.3).
            let mut k = 1;
            let victim = loop {
                let Some(sq) = self.at(r0 + dr * k, c0 + dc * k) else {
                    break None;
                };
                if self.empty(sq, start) {
                    if !king {
                        break None;
                    }
                    k += 1;
                    continue;
                }
                break Some((sq, k));
            };
            let Some((victim, k)) = victim else { continue };
            if !self.is_opp(victim) || taken.contains(&victim.number()) {
                continue;
            }
            // Landing squares: the empty ones right behind it (one for a man).
            let mut j = k + 1;
            while let Some(land) = self.at(r0 + dr * j, c0 + dc * j) {
                if !self.empty(land, start) {
                    break;
                }
                extended = true;
                taken.push(victim.number());
                self.search(start, land, king, taken, out);
                taken.pop();
                if !king {
                    break;
                }
                j += 1;
            }
        }
        if !extended && !taken.is_empty() {
            let promotes = !king && self.v.coords(at).0 == self.v.promotion_row(self.me);
            out.push((
                start.number(),
                at.number(),
                taken.iter().copied().collect(),
                promotes,
            ));
        }
    }

    fn moves(&self) -> BTreeSet<RefMove> {
        let mut caps = Vec::new();
        for (sq, p) in self.pos.pieces().filter(|(_, p)| p.color == self.me) {
            self.search(sq, sq, p.role == Role::King, &mut Vec::new(), &mut caps);
        }
        if let Some(best) = caps.iter().map(|m| m.2.len()).max() {
            // 4.13: the most pieces; routes to the same set are one move.
            return caps.into_iter().filter(|m| m.2.len() == best).collect();
        }
        let mut quiet = BTreeSet::new();
        let fwd: i8 = if self.me == Color::White { -1 } else { 1 };
        for (sq, p) in self.pos.pieces().filter(|(_, p)| p.color == self.me) {
            let (r, c) = self.v.coords(sq);
            let (r, c) = (r as i8, c as i8);
            for (dr, dc) in DIRS {
                if p.role == Role::Man && dr != fwd {
                    continue;
                }
                let mut k = 1;
                while let Some(to) = self.at(r + dr * k, c + dc * k) {
                    if self.pos.piece_at(to).is_some() {
                        break;
                    }
                    let promotes =
                        p.role == Role::Man && self.v.coords(to).0 == self.v.promotion_row(self.me);
                    quiet.insert((sq.number(), to.number(), BTreeSet::new(), promotes));
                    if p.role == Role::Man {
                        break;
                    }
                    k += 1;
                }
            }
        }
        quiet
    }
}

fn reference(pos: &Position) -> BTreeSet<RefMove> {
    Ref {
        v: pos.variant(),
        pos: *pos,
        me: pos.turn(),
    }
    .moves()
}

fn generated(pos: &Position) -> BTreeSet<RefMove> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            (
                m.from().number(),
                m.to().number(),
                m.captured().map(Square::number).collect(),
                m.promotes(),
            )
        })
        .collect()
}

/// A position from one byte per square: mostly empty, else a man or king.
fn position(v: Variant, cells: &[u8], white: bool) -> Position {
    let mut pos = Position::empty(v, if white { Color::White } else { Color::Black });
    for (sq, &c) in v.all_squares().zip(cells) {
        let piece = |color, role| Some(Piece { color, role });
        let p = match c % 16 {
            0..=2 => piece(Color::White, Role::Man),
            3..=5 => piece(Color::Black, Role::Man),
            6 => piece(Color::White, Role::King),
            7 => piece(Color::Black, Role::King),
            _ => None,
        };
        pos.set(sq, p);
    }
    pos
}

fn check(pos: &Position) -> Result<(), TestCaseError> {
    let want = reference(pos);
    let moves = pos.legal_moves();
    prop_assert_eq!(moves.len(), want.len(), "duplicates in {}", pos.to_fen());
    prop_assert_eq!(&generated(pos), &want, "{}", pos.to_fen());
    prop_assert_eq!(pos.count_legal(), want.len(), "{}", pos.to_fen());
    let mut two = 0u64;
    for m in &moves {
        let mut child = *pos;
        child.play_unchecked(m);
        two += reference(&child).len() as u64;
    }
    prop_assert_eq!(perft(pos, 2), two, "{}", pos.to_fen());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn international_matches_the_reference(cells in prop::collection::vec(any::<u8>(), 50), white in any::<bool>()) {
        check(&position(Variant::International, &cells, white))?;
    }

    #[test]
    fn sixty_four_matches_the_reference(cells in prop::collection::vec(any::<u8>(), 32), white in any::<bool>()) {
        check(&position(Variant::SixtyFour, &cells, white))?;
    }
}

#[test]
fn known_positions_match_the_reference() {
    for fen in [
        // Woldouby, the start, a king with two routes to 1, kings and men.
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        "W:WK16:B21,23,33,39",
        "W:WK3,K46,28,33,38,39,42:BK49,12,17,19,22,23,24,29,34",
        "W:W32,K36,37,38,42,45,47:B3,6,8,11,12,14,19,27,34",
        "W:WK4,20,39,44:B12,18,28,29,37",
    ] {
        let pos = Position::from_fen(Variant::International, fen).unwrap();
        check(&pos).unwrap();
    }
    check(&Position::start(Variant::International)).unwrap();
    check(&Position::start(Variant::SixtyFour)).unwrap();
}
