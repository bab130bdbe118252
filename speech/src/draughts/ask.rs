//! Draughts questions about the board (issue 23, `docs/ask.md`): the kings,
//! the men, a side's pieces, a row, the count, a square. Only what a
//! sighted player sees: never a move, a capture to make or a threat (the
//! Draughts Code's ban on advice).

use tandem_rules::draughts::{Position, Role, Square};
use tandem_rules::Color;

use super::DraughtsBook;
use crate::ask::{number_slot, AskBook, AskPhrase, Question, Slots};
use crate::phrasebook::{Phrasebook, ENGLISH_TOML, POLISH_TOML};
use crate::Announcer;

/// The built-in question words of a language (`pl`, `en`; none for
/// another: a phrasebook of its own keeps its own words only).
#[must_use]
pub fn ask_book(lang: &str) -> &'static AskBook {
    static BOOKS: std::sync::OnceLock<[AskBook; 2]> = std::sync::OnceLock::new();
    crate::ask::builtin_ask_book(&BOOKS, [POLISH_TOML, ENGLISH_TOML], lang)
}

/// Every draughts question phrase of `book`'s language (rows 1-10 by
/// number, ordinal or digits), sorted for [`crate::ask::heard_question`].
#[must_use]
pub fn phrases(book: &Phrasebook) -> Vec<AskPhrase> {
    let ask = ask_book(book.language());
    let ordinals = ask.list("ordinal").to_vec();
    let mut slots = Slots::new();
    slots.insert(
        "row".into(),
        number_slot(1, 10, |n| {
            let mut v = vec![book.number(u64::from(n))];
            v.extend(ordinals.get(n as usize - 1).cloned());
            v
        }),
    );
    ask.phrases(&slots)
}

/// The question words draughts answers (`tandem ctl ask` lists them).
pub const QUESTIONS: &str = "kings, men, pieces, row N, count, square N \
     (each optionally preceded by white, black, my or opponent)";

/// The braille display's letter keys for the common questions
/// (docs/ask.md): k kings, m men, p pieces, c count.
pub const KEYS: &[(&str, &str)] = &[
    ("k", "kings"),
    ("m", "men"),
    ("p", "pieces"),
    ("c", "count"),
];

/// Answers a draughts question: `None` if the word is not one; `Err` with
/// the words that say why it cannot be answered.
///
/// Rows count from white's side (1-10, 1-8 on 64 squares); the asker's
/// side is said first.
///
/// # Errors
/// The question needs a side, or its row or square does not exist.
pub fn answer(
    ask: &AskBook,
    words: &Announcer,
    pos: &Position,
    q: &Question,
    asker: Option<Color>,
) -> Option<Result<Vec<String>, String>> {
    let v = pos.variant();
    let first = asker.unwrap_or(Color::White);
    let side = match q.whose.map(|w| w.color(asker)) {
        None => None,
        Some(Ok(c)) => Some(c),
        Some(Err(_)) => return Some(Err(ask.sentence("which_side", &[]))),
    };
    let sides: Vec<Color> = side.map_or_else(|| vec![first, first.other()], |c| vec![c]);
    let side_word = |c: Color| match c {
        Color::White => ask.text("white", &[]),
        Color::Black => ask.text("black", &[]),
    };
    // From the asker's side of the board: white's men on the highest numbers.
    let of = |c: Color, role: Role| {
        let mut sq: Vec<Square> = pos
            .pieces()
            .filter(|(_, p)| p.color == c && p.role == role)
            .map(|(s, _)| s)
            .collect();
        sq.sort();
        if first == Color::White {
            sq.reverse();
        }
        sq
    };
    let list = |c: Color, role: Role, key: &str, none: &str| {
        let sq = of(c, role);
        if sq.is_empty() {
            ask.sentence(none, &[("side", &side_word(c))])
        } else {
            ask.sentence(
                key,
                &[
                    ("side", &side_word(c)),
                    ("squares", &words.square_list(v, &sq)),
                ],
            )
        }
    };
    // A letter key of the braille display (`ask key k`, docs/ask.md).
    if let Some(key) = q.from_key(KEYS) {
        let Some(q) = key else {
            return Some(Err(
                ask.sentence("unknown", &[("questions", &ask.text("questions", &[]))])
            ));
        };
        return answer(ask, words, pos, &q, asker);
    }
    let out = match q.word.as_str() {
        "kings" | "king" if q.arg.is_none() => sides
            .iter()
            .map(|c| list(*c, Role::King, "kings", "no_kings"))
            .collect(),
        "men" | "man" if q.arg.is_none() => sides
            .iter()
            .map(|c| list(*c, Role::Man, "men", "no_men"))
            .collect(),
        "pieces" if q.arg.is_none() => sides
            .iter()
            .flat_map(|c| {
                [
                    list(*c, Role::Man, "men", "no_men"),
                    list(*c, Role::King, "kings", "no_kings"),
                ]
            })
            .collect(),
        "count" if q.arg.is_none() => sides
            .iter()
            .map(|c| {
                let (men, kings) = (of(*c, Role::Man).len(), of(*c, Role::King).len());
                ask.sentence(
                    "count",
                    &[
                        ("side", &side_word(*c)),
                        ("men", &men.to_string()),
                        ("kings", &kings.to_string()),
                    ],
                )
            })
            .collect(),
        "row" => {
            let size = v.size();
            let n = q.arg.as_deref().and_then(|a| a.parse::<u8>().ok());
            let Some(n) = n.filter(|n| (1..=size).contains(n)) else {
                let row = q.arg.clone().unwrap_or_default();
                return Some(Err(
                    ask.sentence("bad_row", &[("row", &row), ("last", &size.to_string())])
                ));
            };
            // Row 1 is white's side (001 ch. I 2.6: square 46-50, a1-h1);
            // the squares left to right as white sees them.
            let row = size - n;
            let pieces: Vec<String> = (0..size)
                .filter_map(|col| v.square_at(row, col))
                .filter_map(|s| {
                    pos.piece_at(s).map(|p| {
                        ask.text(
                            "piece",
                            &[
                                ("piece", words.phrasebook().piece(Some(p))),
                                ("square", &words.square_list(v, &[s])),
                            ],
                        )
                    })
                })
                .collect();
            let n = n.to_string();
            if pieces.is_empty() {
                vec![ask.sentence("row_empty", &[("row", &n)])]
            } else {
                vec![ask.sentence("row", &[("row", &n), ("pieces", &pieces.join(", "))])]
            }
        }
        "square" => {
            let s = q.arg.as_deref().and_then(|a| v.parse_square(a));
            let Some(s) = s else {
                return Some(Err(
                    ask.sentence("unknown", &[("questions", &ask.text("questions", &[]))])
                ));
            };
            words.describe_square(pos, s).sentences
        }
        _ => return None,
    };
    Some(Ok(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ask::heard_question;
    use crate::AnnounceOptions;
    use tandem_rules::draughts::Variant;

    fn ask(lang: &str, fen: &str, q: &str, asker: Option<Color>) -> String {
        let book = Phrasebook::builtin(lang).unwrap();
        let words = Announcer::new(book, AnnounceOptions::default());
        let pos = Position::from_fen(Variant::International, fen).unwrap();
        match answer(
            ask_book(lang),
            &words,
            &pos,
            &Question::parse(q).unwrap(),
            asker,
        )
        .unwrap()
        {
            Ok(s) => s.join(" "),
            Err(s) => s,
        }
    }

    const FEN: &str = "W:W32,33,K45:B18,K7";

    #[test]
    fn kings_rows_and_the_count() {
        assert_eq!(
            ask("en", FEN, "kings", Some(Color::White)),
            "White kings: forty-five. Black kings: seven."
        );
        assert_eq!(
            ask("en", FEN, "opponent men", Some(Color::White)),
            "Black men: eighteen."
        );
        assert_eq!(
            ask("en", FEN, "count", Some(Color::Black)),
            "Black: 1 men, 1 kings. White: 2 men, 1 kings."
        );
        assert_eq!(
            ask("en", FEN, "row 4", None),
            "Row 4: white man thirty-two, white man thirty-three."
        );
        assert_eq!(ask("en", FEN, "row 5", None), "Row 5: empty.");
        assert!(ask("en", FEN, "row 11", None).starts_with("There is no row 11"));
        assert!(ask("en", FEN, "my kings", None).starts_with("Whose pieces?"));
        assert_eq!(
            ask("pl", FEN, "white kings", None),
            "Białe: damki czterdzieści pięć."
        );
    }

    #[test]
    fn spoken_questions_are_heard_exactly() {
        let p = phrases(&Phrasebook::polish());
        let h = |t: &str| heard_question(&p, t);
        assert_eq!(h("damki").as_deref(), Some("kings"));
        assert_eq!(h("damki przeciwnika").as_deref(), Some("opponent kings"));
        assert_eq!(h("rząd piąty").as_deref(), Some("row 5"));
        assert_eq!(h("rząd pięć").as_deref(), Some("row 5"));
        assert_eq!(h("trzydzieści dwa na dwadzieścia osiem"), None);
        let e = phrases(&Phrasebook::english());
        assert_eq!(heard_question(&e, "kings").as_deref(), Some("kings"));
        assert_eq!(heard_question(&e, "row seven").as_deref(), Some("row 7"));
    }
}
