//! Draughts questions about the board (issue 23, `docs/ask.md`): the kings,
//! the men, a side's pieces, a row, the count, a square. Only what a
//! sighted player sees: never a move, a capture to make or a threat (the
//! Draughts Code's ban on advice).

use tandem_rules::draughts::{Position, Role, Square};
use tandem_rules::Color;

use super::DraughtsBook;
use crate::ask::{number_slot, AskBook, AskPhrase, Question, Slots};
use crate::phrasebook::Phrasebook;
use crate::Announcer;

/// The built-in question words of a language with data (none for
/// another: a phrasebook of its own keeps its own words only).
#[must_use]
pub fn ask_book(lang: &str) -> &'static AskBook {
    crate::ask::builtin_ask_book(crate::languages::Book::Draughts, lang)
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
    crate::ask::answer_keyed(ask, q, asker, KEYS, |q, _, sides| {
        let a = Asking {
            ask,
            words,
            pos,
            first: asker.unwrap_or(Color::White),
        };
        let each = |say: &dyn Fn(Color) -> String| sides.iter().map(|c| say(*c)).collect();
        Some(Ok(match q.word.as_str() {
            "kings" | "king" if q.arg.is_none() => each(&|c| a.list(c, Role::King)),
            "men" | "man" if q.arg.is_none() => each(&|c| a.list(c, Role::Man)),
            "pieces" if q.arg.is_none() => sides
                .iter()
                .flat_map(|c| [a.list(*c, Role::Man), a.list(*c, Role::King)])
                .collect(),
            "count" if q.arg.is_none() => each(&|c| a.count(c)),
            "row" => return Some(a.row(q.arg.as_deref())),
            "square" => {
                let s = q.arg.as_deref().and_then(|a| pos.variant().parse_square(a));
                let Some(s) = s else {
                    return Some(Err(ask.unknown()));
                };
                words.describe_square(pos, s).sentences
            }
            _ => return None,
        }))
    })
}

/// What every answer reads: the words, the position and whose side is said first.
struct Asking<'a> {
    ask: &'a AskBook,
    words: &'a Announcer,
    pos: &'a Position,
    first: Color,
}

impl Asking<'_> {
    /// A side's pieces of one kind from the asker's side of the board:
    /// white's men on the highest numbers.
    fn of(&self, c: Color, role: Role) -> Vec<Square> {
        let mut sq: Vec<Square> = self
            .pos
            .pieces()
            .filter(|(_, p)| p.color == c && p.role == role)
            .map(|(s, _)| s)
            .collect();
        sq.sort();
        if self.first == Color::White {
            sq.reverse();
        }
        sq
    }

    /// Where a side's kings (or men) stand, or that it has none.
    fn list(&self, c: Color, role: Role) -> String {
        let (key, none) = match role {
            Role::King => ("kings", "no_kings"),
            Role::Man => ("men", "no_men"),
        };
        let sq = self.of(c, role);
        let side = self.ask.side_word(c);
        if sq.is_empty() {
            self.ask.sentence(none, &[("side", &side)])
        } else {
            let squares = self.words.square_list(self.pos.variant(), &sq);
            self.ask
                .sentence(key, &[("side", &side), ("squares", &squares)])
        }
    }

    /// How many men and kings a side has.
    fn count(&self, c: Color) -> String {
        let (men, kings) = (self.of(c, Role::Man).len(), self.of(c, Role::King).len());
        self.ask.sentence(
            "count",
            &[
                ("side", &self.ask.side_word(c)),
                ("men", &men.to_string()),
                ("kings", &kings.to_string()),
            ],
        )
    }

    /// What stands on a row, counted from white's side.
    fn row(&self, arg: Option<&str>) -> Result<Vec<String>, String> {
        let v = self.pos.variant();
        let size = v.size();
        let n = arg.and_then(|a| a.parse::<u8>().ok());
        let Some(n) = n.filter(|n| (1..=size).contains(n)) else {
            let row = arg.unwrap_or_default();
            return Err(self
                .ask
                .sentence("bad_row", &[("row", row), ("last", &size.to_string())]));
        };
        // Row 1 is white's side (001 ch. I 2.6: square 46-50, a1-h1);
        // the squares left to right as white sees them.
        let row = size - n;
        let pieces: Vec<String> = (0..size)
            .filter_map(|col| v.square_at(row, col))
            .filter_map(|s| {
                self.pos.piece_at(s).map(|p| {
                    self.ask.text(
                        "piece",
                        &[
                            ("piece", self.words.phrasebook().piece(Some(p))),
                            ("square", &self.words.square_list(v, &[s])),
                        ],
                    )
                })
            })
            .collect();
        let n = n.to_string();
        Ok(if pieces.is_empty() {
            vec![self.ask.sentence("row_empty", &[("row", &n)])]
        } else {
            vec![self
                .ask
                .sentence("row", &[("row", &n), ("pieces", &pieces.join(", "))])]
        })
    }
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
