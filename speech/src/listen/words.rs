//! Words as the listeners compare them: a phrase as lower-case words
//! ([`words_of`]) and a word without its diacritics ([`fold`]).

/// A word sequence (one alternative).
pub type Words = Vec<String>;

/// Splits text into lower-case words: hyphens and punctuation separate words
/// ("thirty-two" is "thirty two").
#[must_use]
pub fn words_of(text: &str) -> Words {
    text.split(|c: char| c.is_whitespace() || (c.is_ascii_punctuation() && c != '[' && c != ']'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A word with Polish (and other Latin) diacritics removed, for matching
/// transcripts that lost them ("piec" for "pięć").
#[must_use]
pub fn fold(w: &str) -> String {
    w.chars()
        .map(|c| match c {
            'ą' => 'a',
            'ć' => 'c',
            'ę' => 'e',
            'ł' => 'l',
            'ń' => 'n',
            'ó' => 'o',
            'ś' => 's',
            'ź' | 'ż' => 'z',
            c => c,
        })
        .collect()
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
