//! The spoken record at the table (001 ch. VIII 2.4, 002 annex E): a move
//! pair read with its number ("Ruch dziesięć. Białe: trzydzieści dwa na
//! dwadzieścia osiem. Czarne: …"), and the words of the review. The moves'
//! own words are each game's announcement of that move; these sentences
//! (the `[record]` keys of the phrasebook) are the same for every game.

use tandem_rules::Color;

use crate::announcer::capitalize_sentences;
use crate::{Announcer, Kind, Priority, Utterance, Value};

/// A sentence of the review, without arguments or with a move number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordWord {
    /// Nothing has been played yet.
    Empty,
    /// There is no move with this number.
    NoMove(u32),
    /// Back at the first move.
    First,
    /// At the last move played.
    Last,
    /// The position after this move (its number, who made it) follows.
    PositionAfter(u32, Color),
    /// The starting position follows.
    StartPosition,
    /// The review is closed: the live game again.
    Live,
    /// `next`, `back`, `live` with no review open.
    NotReviewing,
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

impl Announcer {
    /// One move pair of the record: its number, then each ply as its side
    /// and the game's announcement of it.
    #[must_use]
    pub fn record_move(&self, number: u32, plies: &[(Color, Utterance)]) -> Utterance {
        let plies: Vec<_> = plies.iter().map(|(c, u)| (Some(*c), u.clone())).collect();
        self.record_plies(number, &plies)
    }

    /// [`Announcer::record_move`] where a ply may come without its side
    /// (`None`): its words are said alone, as they name the side themselves
    /// or continue the same side's turn (backgammon's move after its roll).
    #[must_use]
    pub fn record_plies(&self, number: u32, plies: &[(Option<Color>, Utterance)]) -> Utterance {
        let book = self.phrasebook();
        let mut s = vec![capitalize_sentences(&book.render(
            "record.move",
            &[("count", Value::Number(u64::from(number)))],
        ))];
        for (side, words) in plies {
            match side {
                Some(side) => {
                    let text = lower_first(&words.text());
                    s.push(capitalize_sentences(&book.render(
                        "record.ply",
                        &[("side", Value::Side(*side)), ("move", Value::Text(text))],
                    )));
                }
                None => s.push(capitalize_sentences(&words.text())),
            }
        }
        Utterance::new(Priority::Next, Kind::Describe, s)
    }

    /// A sentence of the review.
    #[must_use]
    pub fn record_word(&self, w: RecordWord) -> Utterance {
        let n = |n: u32| vec![("count", Value::Number(u64::from(n)))];
        let (key, args, kind) = match w {
            RecordWord::Empty => ("record.empty", vec![], Kind::Describe),
            RecordWord::NoMove(m) => ("record.no_move", n(m), Kind::Rejection),
            RecordWord::First => ("record.first", vec![], Kind::Describe),
            RecordWord::Last => ("record.last", vec![], Kind::Describe),
            RecordWord::PositionAfter(m, side) => {
                let mut a = n(m);
                a.push(("side", Value::Side(side)));
                ("record.position", a, Kind::Describe)
            }
            RecordWord::StartPosition => ("record.start_position", vec![], Kind::Describe),
            RecordWord::Live => ("record.live", vec![], Kind::Describe),
            RecordWord::NotReviewing => ("record.not_reviewing", vec![], Kind::Rejection),
        };
        let text = capitalize_sentences(&self.phrasebook().render(key, &args));
        Utterance::new(Priority::Next, kind, vec![text])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AnnounceOptions, Phrasebook};

    #[test]
    fn a_phrasebook_without_the_record_keys_speaks_the_english_defaults() {
        let src = crate::phrasebook::ENGLISH_TOML;
        let start = src.find("[record]").unwrap();
        let end = start + src[start..].find("\n[").unwrap() + 1;
        let without = format!("{}{}", &src[..start], &src[end..]);
        let book = Phrasebook::from_toml_str(&without).expect("loads without [record]");
        let a = Announcer::new(book, AnnounceOptions::default());
        assert_eq!(a.record_word(RecordWord::Empty).text(), "No moves yet.");
    }
}
