//! What a device's pages show, apart from how they show it: the table's
//! state for one seat (`GET /api/state` and the `state` events), with the
//! board drawn for that seat's chair (the same SVG as the hall's desk,
//! [`crate::picture::svg`]) and what the seat may tap on it
//! ([`crate::interface::Taps`]), and the words of its squares and of the
//! pages themselves in the seat's language (`assistant/data/squares/LANG.toml`, `assistant/data/page/LANG.toml`).
//! The pages (`seat.js`, `board.js`) only lay it out.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{json, Value};
use tandem_rules::Color;

use crate::picture::{svg, BoardPicture, Piece, Shape};
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
/// `"seat"`, the board as SVG from that side's chair (`"svg"`), what may
/// be tapped on it (`"taps"`), and each square's words in the seat's
/// language `lang` (`"squares"`, `"light_square"`).
#[must_use]
pub fn for_seat(st: &StateView, side: Color, lang: &str) -> Value {
    let mut v = serde_json::to_value(st).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("seat".into(), json!(side));
        let ui = page_words(lang);
        let label = match side {
            Color::White => ui.get("board_white"),
            Color::Black => ui.get("board_black"),
        }
        .map_or("", String::as_str);
        o.insert("svg".into(), json!(svg::svg_for(&st.board, side, label)));
        o.insert("squares".into(), json!(square_words(&st.board, lang, side)));
        o.insert("light_square".into(), json!(light_square(lang)));
        o.insert(
            "taps".into(),
            serde_json::to_value(&st.taps).unwrap_or(Value::Null),
        );
    }
    v
}

/// The device pages' own words in `lang` (`assistant/data/page/LANG.toml`,
/// read by [`crate::lang::words`]): their headings, buttons, labels and
/// prompts.
#[must_use]
pub fn page_words(lang: &str) -> &'static BTreeMap<String, String> {
    crate::lang::sentences("page", lang)
}

/// The squares' words of one language (`assistant/data/squares/LANG.toml`).
#[derive(Debug, Deserialize)]
struct Words {
    empty: String,
    light: String,
    white: BTreeMap<String, String>,
    black: BTreeMap<String, String>,
    /// A checker's noun by side, then by CLDR plural category.
    checkers: BTreeMap<String, BTreeMap<String, String>>,
}

/// The words of `lang` ([`crate::lang::words`]).
fn words(lang: &str) -> &'static Words {
    static ALL: crate::lang::Cache<Words> = OnceLock::new();
    static NONE: OnceLock<Words> = OnceLock::new();
    crate::lang::words(&ALL, "squares", lang).unwrap_or_else(|| {
        NONE.get_or_init(|| Words {
            empty: "empty".into(),
            light: "light square".into(),
            white: BTreeMap::new(),
            black: BTreeMap::new(),
            checkers: BTreeMap::new(),
        })
    })
}

/// What a light (unnamed) square is called in `lang`.
#[must_use]
pub fn light_square(lang: &str) -> &'static str {
    &words(lang).light
}

/// Each square of the picture by its name and what stands on it, in
/// `lang` ("6, black man", "6, czarny pion", "13, 5 white checkers"): what
/// a square's button or grid cell is called at `side`'s seat (a point of a
/// backgammon board by the number that side counts it with,
/// [`svg::point_label`]; the keys stay the picture's ids).
#[must_use]
pub fn square_words(p: &BoardPicture, lang: &str, side: Color) -> BTreeMap<String, String> {
    let w = words(lang);
    let points = matches!(p.layout, crate::picture::Layout::Points);
    p.square_ids()
        .into_iter()
        .map(|id| {
            let name = if points {
                svg::point_label(&id, side)
            } else {
                id.clone()
            };
            let on: Vec<String> = p.on(&id).map(|piece| piece_words(w, lang, piece)).collect();
            let words = if on.is_empty() {
                format!("{name}, {}", w.empty)
            } else {
                format!("{name}, {}", on.join(", "))
            };
            (id, words)
        })
        .collect()
}

fn piece_words(w: &Words, lang: &str, piece: &Piece) -> String {
    let side = match piece.side {
        Color::White => "white",
        Color::Black => "black",
    };
    let shape = shape_key(piece.shape);
    if piece.shape == Shape::Checker {
        let n = piece.count;
        // The count's CLDR plural category in the language (its phrasebook's
        // rules): Polish 2-4, 22-24… `few`, not 12-14.
        let category = tandem_speech::Phrasebook::builtin(lang)
            .map_or("other", |b| b.plural_category(u64::from(n)));
        let form = w
            .checkers
            .get(side)
            .and_then(|f| f.get(category).or_else(|| f.get("other")))
            .cloned()
            .unwrap_or_else(|| format!("{side} checkers"));
        return if n == 1 { form } else { format!("{n} {form}") };
    }
    let table = if piece.side == Color::White {
        &w.white
    } else {
        &w.black
    };
    table
        .get(shape)
        .cloned()
        .unwrap_or_else(|| format!("{side} {shape}"))
}

fn shape_key(s: Shape) -> &'static str {
    match s {
        Shape::Man => "man",
        Shape::Crowned => "crowned",
        Shape::Checker => "checker",
        Shape::Pawn => "pawn",
        Shape::Knight => "knight",
        Shape::Bishop => "bishop",
        Shape::Rook => "rook",
        Shape::Queen => "queen",
        Shape::King => "king",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_of_the_squares_file_has_every_piece() {
        for lang in crate::lang::known() {
            let w = words(lang);
            for side in [&w.white, &w.black] {
                for shape in [
                    "man", "crowned", "pawn", "knight", "bishop", "rook", "queen", "king",
                ] {
                    assert!(side.contains_key(shape), "{lang}: {shape}");
                }
            }
            // A form for every plural category a count of checkers takes.
            let book = tandem_speech::Phrasebook::builtin(lang).unwrap();
            for side in ["white", "black"] {
                for n in 0..=30 {
                    let c = book.plural_category(n);
                    assert!(w.checkers[side].contains_key(c), "{lang}: {side} {c} ({n})");
                }
            }
        }
    }

    #[test]
    fn the_board_page_has_its_words_in_every_language() {
        let en = page_words("en");
        for lang in crate::lang::known() {
            let w = page_words(lang);
            assert_eq!(
                w.keys().collect::<Vec<_>>(),
                en.keys().collect::<Vec<_>>(),
                "{lang}"
            );
            // The same blanks to fill in.
            for (k, v) in w {
                let blanks = |s: &str| {
                    let mut b: Vec<String> = s
                        .split('{')
                        .skip(1)
                        .filter_map(|x| x.split_once('}').map(|(n, _)| n.to_owned()))
                        .collect();
                    b.sort();
                    b
                };
                assert_eq!(blanks(v), blanks(&en[k]), "{lang}: {k}");
            }
        }
        // Every word the page asks for is there.
        let page = format!(
            "{}{}{}",
            include_str!("board.html"),
            include_str!("board.js"),
            include_str!("seat.html")
        );
        for part in page
            .split("data-w=\"")
            .skip(1)
            .chain(page.split("w(\"").skip(1))
        {
            let key = part.split('"').next().unwrap_or("");
            assert!(en.contains_key(key), "the page asks for {key:?}");
        }
        for key in [
            "roll-here",
            "double",
            "take",
            "pass",
            "queen",
            "rook",
            "bishop",
            "knight",
            "white_side",
            "black_side",
            "behind_many",
        ] {
            assert!(en.contains_key(key), "{key}");
        }
    }

    #[test]
    fn a_backgammon_point_is_named_as_the_seat_counts_it() {
        let p = BoardPicture {
            layout: crate::picture::Layout::Points,
            pieces: vec![Piece {
                square: "1".into(),
                code: "b".into(),
                side: Color::Black,
                shape: Shape::Checker,
                count: 2,
            }],
            turn: Some(Color::Black),
            last: vec![],
            captured: vec![],
            differs: vec![],
            dice: vec![],
            cube: None,
        };
        // White's point 1 is black's 24: the key stays the picture's id.
        let white = square_words(&p, "en", Color::White);
        let black = square_words(&p, "en", Color::Black);
        assert!(white["1"].starts_with("1, 2 black checkers"), "{white:?}");
        assert!(black["1"].starts_with("24, 2 black checkers"), "{black:?}");
        assert!(black["24"].starts_with("1, "), "{black:?}");
        assert!(black["bar"].starts_with("bar, "), "{black:?}");
    }

    #[test]
    fn a_stack_of_checkers_is_counted_in_polish_as_in_english() {
        let stack = |count| Piece {
            square: "6".into(),
            code: "w".into(),
            side: Color::White,
            shape: Shape::Checker,
            count,
        };
        let pl = words("pl");
        assert_eq!(piece_words(pl, "pl", &stack(1)), "biały pion");
        assert_eq!(piece_words(pl, "pl", &stack(3)), "3 białe piony");
        assert_eq!(piece_words(pl, "pl", &stack(5)), "5 białych pionów");
        assert_eq!(piece_words(pl, "pl", &stack(12)), "12 białych pionów");
        assert_eq!(
            piece_words(words("en"), "en", &stack(5)),
            "5 white checkers"
        );
        assert_eq!(
            piece_words(words("xx"), "xx", &stack(2)),
            "2 white checkers"
        );
    }
}
