//! Draughts on the braille display: the list, rows, 8-dot graphic and
//! status views of a position ([`StandardRenderer`]).

pub mod render;

pub use render::{graphic_letter, piece_code, BrailleRenderer, GraphicPatterns, StandardRenderer};
