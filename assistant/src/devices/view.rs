//! What a device's pages show, apart from how they show it: the table's
//! state for one seat (`GET /api/state` and the `state` events), with the
//! board drawn for that seat's chair (the same SVG as the hall's desk,
//! [`crate::picture::svg`]) and what the seat may tap on it
//! ([`crate::interface::Taps`]). The pages (`seat.js`, `board.js`) only
//! lay it out.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tandem_rules::Color;

use crate::picture::{svg, BoardPicture, Shape};
use crate::session::StateView;

/// Which page a paired device opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// The screen reader's page (`/seat`): the log, the command line, the
    /// board as a keyboard grid.
    Blind,
    /// The sighted player's page (`/board`): the board drawn, tapped.
    Board,
}

impl Page {
    /// The page's path.
    #[must_use]
    pub fn path(self) -> &'static str {
        match self {
            Page::Blind => "/seat",
            Page::Board => "/board",
        }
    }
}

/// The state as `side`'s device sees it: the `tandem ctl state` object,
/// `"seat"`, the board as SVG from that side's chair (`"svg"`) and what
/// may be tapped on it (`"taps"`).
#[must_use]
pub fn for_seat(st: &StateView, side: Color) -> Value {
    let mut v = serde_json::to_value(st).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("seat".into(), json!(side));
        let label = match side {
            Color::White => "The board, white at the bottom",
            Color::Black => "The board, black at the bottom",
        };
        let picture = st.board.clone().oriented(side);
        o.insert("svg".into(), json!(svg::svg(&picture, None, label)));
        o.insert("squares".into(), json!(square_words(&st.board)));
        o.insert(
            "taps".into(),
            serde_json::to_value(&st.taps).unwrap_or(Value::Null),
        );
    }
    v
}

/// Each square of the picture by its name and what stands on it ("6,
/// black man", "13, 5 white checkers"): what a square's button or grid
/// cell is called.
#[must_use]
pub fn square_words(p: &BoardPicture) -> BTreeMap<String, String> {
    p.square_ids()
        .into_iter()
        .map(|id| {
            let on: Vec<String> = p
                .on(&id)
                .map(|piece| {
                    let side = match piece.side {
                        Color::White => "white",
                        Color::Black => "black",
                    };
                    let what = shape_word(piece.shape);
                    if piece.count > 1 {
                        format!("{} {side} {what}s", piece.count)
                    } else {
                        format!("{side} {what}")
                    }
                })
                .collect();
            let words = if on.is_empty() {
                format!("{id}, empty")
            } else {
                format!("{id}, {}", on.join(", "))
            };
            (id, words)
        })
        .collect()
}

fn shape_word(s: Shape) -> &'static str {
    match s {
        Shape::Man => "man",
        Shape::Crowned | Shape::King => "king",
        Shape::Checker => "checker",
        Shape::Pawn => "pawn",
        Shape::Knight => "knight",
        Shape::Bishop => "bishop",
        Shape::Rook => "rook",
        Shape::Queen => "queen",
    }
}
