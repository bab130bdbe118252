//! Draughts on the braille display: the list, rows, 8-dot graphic and
//! status views of a position ([`StandardRenderer`]) and the routing keys
//! over its squares ([`keys`]).

pub mod keys;
pub mod render;
pub mod target;

pub use keys::DraughtsKeys;
pub use render::{
    graphic_letter, piece_code, printed, BrailleRenderer, GraphicPatterns, StandardRenderer,
};
