//! Move notation (001 ch. I 8.2): strict output, loose input resolved
//! against the position.

use crate::mv::Move;
use crate::position::Position;

/// Writes a move strictly: `32-28` for a move, `28x19` for a capture
/// (001 ch. I 8.2.2-8.2.3); algebraic squares in 64-square draughts. Where
/// another legal move has the same start and end, the full landing path is
/// written (`16x7x1`), which tells them apart.
///
/// ```
/// use tandem_rules::{notation::write_move, Position, Variant};
/// let p = Position::start(Variant::International);
/// let m = p.legal_moves()[0];
/// assert_eq!(write_move(&p, &m), "31-26");
/// ```
#[must_use]
pub fn write_move(pos: &Position, m: &Move) -> String {
    let v = pos.variant();
    let name = |sq| v.square_name(sq);
    if !m.is_capture() {
        return format!("{}-{}", name(m.from()), name(m.to()));
    }
    let ambiguous = pos
        .legal_moves()
        .iter()
        .any(|o| o.from() == m.from() && o.to() == m.to() && o != m);
    let mut s = name(m.from());
    if ambiguous {
        for l in m.landings() {
            s.push('x');
            s.push_str(&name(l));
        }
    } else {
        s.push('x');
        s.push_str(&name(m.to()));
    }
    s
}
