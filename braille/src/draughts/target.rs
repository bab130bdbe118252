//! A draughts square as a routing target ([`crate::line::Target`]): its
//! number, in every variant (64-square draughts writes `c3` for the square
//! numbered 22; the target is 22).

use tandem_rules::draughts::Square;

use crate::line::Target;

/// The routing target of a square: its number.
///
/// ```
/// use tandem_braille::draughts::target::{square, target};
/// use tandem_rules::draughts::Square;
/// let sq = Square::new(32).unwrap();
/// assert_eq!(target(sq).number(), 32);
/// assert_eq!(square(target(sq)), Some(sq));
/// ```
#[must_use]
pub fn target(sq: Square) -> Target {
    Target::new(u16::from(sq.number()))
}

/// The square a routing target names, if any.
#[must_use]
pub fn square(t: Target) -> Option<Square> {
    u8::try_from(t.number()).ok().and_then(Square::new)
}
