//! Backgammon questions about the board (issue 23, `docs/ask.md`): one
//! point (its count and whose, in the asker's numbering), the bar, the
//! checkers borne off, a home board. The pip count stays the table's
//! `pips`. Only what a sighted player sees: never a move for the roll or a
//! blot to hit.

use tandem_rules::backgammon::Board;
use tandem_rules::Color;

use super::{BgAnnouncer, BgPhrasebook, Numbering};
use crate::ask::{number_slot, AskBook, AskPhrase, Question, Slots};

/// The built-in question words of a language with data (none for
/// another: a phrasebook of its own keeps its own words only).
#[must_use]
pub fn ask_book(lang: &str) -> &'static AskBook {
    crate::ask::builtin_ask_book(crate::languages::Book::Backgammon, lang)
}

/// Every backgammon question phrase of `book`'s language (points 1-24 as
/// words or digits), sorted for [`crate::ask::heard_question`].
#[must_use]
pub fn phrases(book: &BgPhrasebook) -> Vec<AskPhrase> {
    let ask = ask_book(book.language());
    let a = BgAnnouncer::new(book.clone(), Numbering::default(), Color::White);
    let mut slots = Slots::new();
    slots.insert("point".into(), number_slot(1, 24, |n| vec![a.number(n)]));
    ask.phrases(&slots)
}

/// The question words backgammon answers (`tandem ctl ask` lists them).
pub const QUESTIONS: &str = "point N, bar, off, home, pips \
     (each optionally preceded by white, black, my or opponent)";

/// Answers a backgammon question: `None` if the word is not one; `Err`
/// with the words that say why it cannot be answered.
///
/// Points are numbered from the asker's home (`asker`, else `viewer`: the
/// table's listener); a home board is the asker's unless a side is named.
///
/// # Errors
/// The question needs a side, or its point does not exist.
pub fn answer(
    ask: &AskBook,
    board: &Board,
    q: &Question,
    asker: Option<Color>,
    viewer: Color,
) -> Option<Result<Vec<String>, String>> {
    let me = asker.unwrap_or(viewer);
    let side_word = |c: Color| ask.side_word(c);
    // What stands on the asker's point `n` (1..24): whose and how many.
    let on = |n: u8| -> Option<(Color, u8)> {
        let mine = board.count(me, n);
        let theirs = board.count(me.other(), 25 - n);
        if mine > 0 {
            Some((me, mine))
        } else if theirs > 0 {
            Some((me.other(), theirs))
        } else {
            None
        }
    };
    let both = |key: &str, f: &dyn Fn(Color) -> u8| {
        ask.sentence(
            key,
            &[
                ("white", &side_word(Color::White)),
                ("white_n", &f(Color::White).to_string()),
                ("black", &side_word(Color::Black)),
                ("black_n", &f(Color::Black).to_string()),
            ],
        )
    };
    let out = match q.word.as_str() {
        "point" => {
            let n = q.arg.as_deref().and_then(|a| a.parse::<u8>().ok());
            let Some(n) = n.filter(|n| (1..=24).contains(n)) else {
                let p = q.arg.clone().unwrap_or_default();
                return Some(Err(ask.sentence("bad_point", &[("point", &p)])));
            };
            let p = n.to_string();
            vec![match on(n) {
                Some((c, k)) => ask.sentence(
                    "point",
                    &[
                        ("point", &p),
                        ("n", &k.to_string()),
                        ("side", &side_word(c)),
                    ],
                ),
                None => ask.sentence("point_empty", &[("point", &p)]),
            }]
        }
        "bar" if q.arg.is_none() => vec![both("bar", &|c| board.bar(c))],
        "off" if q.arg.is_none() => vec![both("off", &|c| board.borne_off(c))],
        "home" if q.arg.is_none() => {
            let whose = match q.whose.map(|w| w.color(asker.or(Some(viewer)))) {
                None => me,
                Some(Ok(c)) => c,
                Some(Err(_)) => return Some(Err(ask.sentence("which_side", &[]))),
            };
            // The home board's points in the asker's numbering: 1-6 for
            // the asker's own, 19-24 for the opponent's.
            let range: Vec<u8> = if whose == me {
                (1..=6).collect()
            } else {
                (19..=24).rev().collect()
            };
            let points: Vec<String> = range
                .into_iter()
                .filter_map(|n| {
                    on(n).map(|(c, k)| {
                        ask.text(
                            "home_point",
                            &[
                                ("point", &n.to_string()),
                                ("n", &k.to_string()),
                                ("side", &side_word(c)),
                            ],
                        )
                    })
                })
                .collect();
            let s = side_word(whose);
            vec![if points.is_empty() {
                ask.sentence("home_empty", &[("side", &s)])
            } else {
                ask.sentence("home", &[("side", &s), ("points", &points.join(", "))])
            }]
        }
        _ => return None,
    };
    Some(Ok(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ask::heard_question;

    fn ask(q: &str, asker: Option<Color>) -> String {
        let b = Board::start(Color::White);
        match answer(
            ask_book("en"),
            &b,
            &Question::parse(q).unwrap(),
            asker,
            Color::White,
        )
        .unwrap()
        {
            Ok(s) => s.join(" "),
            Err(s) => s,
        }
    }

    #[test]
    fn points_in_the_asker_s_numbering_the_bar_and_the_home_board() {
        // The start: each side has 2 on its 24, 5 on 13, 3 on 8, 5 on 6.
        assert_eq!(ask("point 6", Some(Color::White)), "Point 6: 5 white.");
        assert_eq!(ask("point 1", Some(Color::White)), "Point 1: 2 black.");
        assert_eq!(ask("point 1", Some(Color::Black)), "Point 1: 2 white.");
        assert_eq!(ask("point 2", None), "Point 2: empty.");
        assert!(ask("point 25", None).starts_with("There is no point 25"));
        assert_eq!(ask("bar", None), "Bar: white 0, black 0.");
        assert_eq!(ask("off", None), "Borne off: white 0, black 0.");
        assert_eq!(
            ask("home", Some(Color::White)),
            "Home board, white: 1: 2 black, 6: 5 white."
        );
        assert_eq!(
            ask("opponent home", Some(Color::White)),
            "Home board, black: 24: 2 white, 19: 5 black."
        );
    }

    #[test]
    fn spoken_questions_are_heard_exactly() {
        let p = phrases(&BgPhrasebook::builtin("pl").unwrap());
        assert_eq!(
            heard_question(&p, "punkt osiem").as_deref(),
            Some("point 8")
        );
        assert_eq!(heard_question(&p, "na bandzie").as_deref(), Some("bar"));
        assert_eq!(heard_question(&p, "osiem pięć sześć pięć"), None);
        let e = phrases(&BgPhrasebook::builtin("en").unwrap());
        assert_eq!(
            heard_question(&e, "point eight").as_deref(),
            Some("point 8")
        );
        assert_eq!(heard_question(&e, "my home").as_deref(), Some("my home"));
    }
}
