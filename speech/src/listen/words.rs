//! Words as the listeners compare them: a phrase as lower-case words
//! ([`words_of`]) and a word without its diacritics ([`fold`]).

/// A word sequence (one alternative).
pub type Words = Vec<String>;

/// Splits text into lower-case words: hyphens and punctuation separate words
/// ("thirty-two" is "thirty two"), in any script: an apostrophe (`l'échiquier`,
/// `l’échiquier`), Spanish `¿` and `¡`, guillemets and dashes too; letters and
/// digits of every script stay (Cyrillic, Latin with its diacritics).
#[must_use]
pub fn words_of(text: &str) -> Words {
    text.split(|c: char| c.is_whitespace() || (!c.is_alphanumeric() && c != '[' && c != ']'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Latin letters with diacritics and the letter they fold to (lower case:
/// [`words_of`] lowers first), for every language with data: Polish, French,
/// German, Spanish, Dutch and the rest of Latin Extended-A.
const FOLDS: &[(&str, char)] = &[
    ("àáâãäåāăą", 'a'),
    ("çćĉċč", 'c'),
    ("ďđ", 'd'),
    ("èéêëēĕėęě", 'e'),
    ("ĝğġģ", 'g'),
    ("ĥħ", 'h'),
    ("ìíîïĩīĭįı", 'i'),
    ("ĵ", 'j'),
    ("ķ", 'k'),
    ("ĺļľŀł", 'l'),
    ("ñńņňŉ", 'n'),
    ("òóôõöøōŏő", 'o'),
    ("ŕŗř", 'r'),
    ("śŝşšș", 's'),
    ("ţťŧț", 't'),
    ("ùúûüũūŭůűų", 'u'),
    ("ŵ", 'w'),
    ("ýÿŷ", 'y'),
    ("źżž", 'z'),
    // Russian: ё is written е in most texts (and transcripts).
    ("ё", 'е'),
];

/// A word with its diacritics removed, for matching transcripts that lost
/// them ("piec" for "pięć", "echiquier" for "échiquier", "strasse" for
/// "straße", "ij" for the ligature "ĳ", "еще" for "ещё"); the letters of
/// Cyrillic that are letters of their own (й, ї, є, ґ) stay.
#[must_use]
pub fn fold(w: &str) -> String {
    let mut out = String::with_capacity(w.len());
    for c in w.chars() {
        match c {
            'ß' => out.push_str("ss"),
            'æ' => out.push_str("ae"),
            'œ' => out.push_str("oe"),
            'ĳ' => out.push_str("ij"),
            c if c.is_ascii() => out.push(c),
            c => out.push(
                FOLDS
                    .iter()
                    .find(|(from, _)| from.contains(c))
                    .map_or(c, |(_, to)| *to),
            ),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_of_every_language_are_split_and_lowered() {
        assert_eq!(words_of("Thirty-two, e4!"), ["thirty", "two", "e4"]);
        assert_eq!(words_of("¿Cuántas damas?"), ["cuántas", "damas"]);
        assert_eq!(
            words_of("l’échiquier «Hector»"),
            ["l", "échiquier", "hector"]
        );
        assert_eq!(words_of("Ферзь — Е2"), ["ферзь", "е2"]);
        assert_eq!(words_of("[Zwart] ĲSSELMEER"), ["[zwart]", "ĳsselmeer"]);
    }

    #[test]
    fn diacritics_fold_away_but_cyrillic_letters_stay() {
        for (w, folded) in [
            ("pięć", "piec"),
            ("żółć", "zolc"),
            ("échec", "echec"),
            ("dernière", "derniere"),
            ("läufer", "laufer"),
            ("straße", "strasse"),
            ("peón", "peon"),
            ("niño", "nino"),
            ("ĳzer", "ijzer"),
            ("reeën", "reeen"),
            ("ещё", "еще"),
            ("слон", "слон"),
            ("йде", "йде"),
            ("їх", "їх"),
            ("ґанок", "ґанок"),
        ] {
            assert_eq!(fold(w), folded, "{w}");
        }
    }
}

/// A question about the board as it is listened for (`crate::ask` builds
/// them from a game's `[listen.ask]`): the phrase and the question it asks
/// (typed form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AskPhrase {
    /// The words, folded (no Polish diacritics) for matching.
    pub tokens: Words,
    /// The words as said (for the recognizer's grammar).
    pub words: Words,
    /// The question (`opponent knights`).
    pub question: String,
}
