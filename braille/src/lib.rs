//! tandem's braille: what a refreshable braille display shows of the game
//! apart from how it is shown ([`display`]: BrlAPI/BRLTTY, a terminal,
//! memory), and what its keys do ([`ui`], [`keymap`]). One folder per game
//! holds its views and key input ([`draughts`]: list, rows, 8-dot graphic;
//! [`chess`]; [`backgammon`]); shared are the cells and lines ([`cell`],
//! [`line`]), the view, width and status line ([`view`]), the driver, the
//! record view, BRF and liblouis, and the display's state machine ([`ui`])
//! with what it asks of a game ([`routing`]: each game's folder implements
//! it). [`Board`] (the registry) holds any game's position for the driver
//! and gives its game's keys.
//!
//! Floors, from the bottom (`docs/architecture.md`): cells, tables, BRF and
//! liblouis; lines; keys, views, the key map, the record view and routing;
//! the games' folders; the registry ([`Board`]); the display's state
//! machine and the displays; the driver on top.
//!
//! ```
//! use tandem_braille::draughts::{BrailleRenderer, StandardRenderer};
//! use tandem_braille::{StatusInfo, View, Width};
//! use tandem_rules::draughts::{Position, Variant};
//! let pos = Position::from_fen(Variant::International, "W:W31,32,33,K45:B1,2,3,K12").unwrap();
//! let lines = StandardRenderer::default().render(&pos, &StatusInfo::new(pos.turn()), View::List, Width::new(40).unwrap());
//! assert_eq!(lines[0].text(), "W 31 32 33 K45 | B 1 2 3 K12");
//! assert_eq!(lines[0].cell_to_target(2).map(|s| s.number()), Some(31));
//! ```
#![deny(unsafe_op_in_unsafe_fn)]

pub mod backgammon;
pub mod board;
pub mod brf;
pub mod cell;
pub mod chess;
pub mod display;
pub mod draughts;
pub mod driver;
pub mod keymap;
pub mod keys;
pub mod line;
#[cfg(feature = "liblouis")]
pub mod louis;
pub mod record;
pub mod routing;
pub mod table;
#[cfg(feature = "testing")]
pub mod testing;
pub mod ui;
pub mod view;

pub use board::Board;
pub use cell::Cell;
pub use display::{BrailleDisplay, DisplayError, Geometry};
pub use line::{BrailleLine, CellKind, Target};
pub use ui::{Action, BrailleUi, Key, KeyCommand};
pub use view::{StatusInfo, View, Width};
