//! Weighted word-level edit distance between what was heard and a phrase.
//!
//! A Vosk grammar only limits the vocabulary: the decoder can return other
//! sequences of the grammar's words (real-components.md). So the transcript
//! is never trusted as is; it is compared with every phrase the position
//! allows, the way Lichess's voice input does (per-word substitution costs,
//! a cost threshold, near-ties asked back to the player).
//!
//! Costs (0 = certain, 1 = unrelated), chosen so that a wrong *number* is
//! always expensive (it changes the move) and a wrong *little word* is cheap:
//!
//! | edit | cost |
//! | --- | --- |
//! | same word | 0 |
//! | same word without diacritics ("piec"/"pięć") | 0.05 |
//! | listed mis-hearing (`confusion = heard meant cost`) | as listed |
//! | one connective or filler for another ("na"/"do") | 0.3 |
//! | one square word for another ("trzydzieści"/"dwadzieścia", "ce"/"de") | 1.0 |
//! | other substitution | 0.3 + 0.7 x letter edit distance / longer length |
//! | connective or filler heard but not in the phrase | 0.35 (`[unk]`: 0.5) |
//! | connective of the phrase not heard | 0.35 |
//! | number word or command word ("zegar") added or dropped | 1.0 |

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use super::lexicon::{fold, Lexicon, Slot};

/// The cost above which a phrase is not considered heard at all.
pub const MAX_COST: f32 = 0.75;
/// Two meanings whose costs differ by less than this are a near-tie: the
/// player is asked which one they meant.
pub const TIE_WINDOW: f32 = 0.2;

const FOLDED: f32 = 0.05;
const CONNECTIVE_SWAP: f32 = 0.3;
const CONNECTIVE_INDEL: f32 = 0.35;
const UNK_INSERT: f32 = 0.5;
const NUMBER_INDEL: f32 = 1.0;

/// Costs derived from a lexicon.
#[derive(Debug, Clone)]
pub struct Costs<'a> {
    lex: &'a Lexicon,
    number_words: HashSet<String>,
    keywords: HashSet<String>,
    /// The heard words of the lexicon's listed mis-hearings (so that other
    /// words skip the look-up).
    confused: HashSet<String>,
    /// What one transcript costs against each phrase word seen so far: a
    /// transcript is matched against every phrase of a position, and their
    /// words are few.
    memo: RefCell<Memo>,
}

/// The costs of one heard transcript against the phrase words met so far.
#[derive(Debug, Clone, Default)]
struct Memo {
    heard: Vec<String>,
    words: Vec<Word>,
    meant: HashMap<String, Meant>,
}

/// A phrase word's costs against the memo's transcript.
#[derive(Debug, Clone)]
struct Meant {
    delete: f32,
    /// Substituting each heard word for it, in the transcript's order.
    substitute: Vec<f32>,
}

/// A word with what its costs depend on, worked out once rather than once
/// per cell of the table.
#[derive(Debug, Clone)]
struct Word {
    raw: String,
    folded: Vec<char>,
    /// A square word (its folded form is a number, file or such word).
    number: bool,
    /// A command word (the word as written).
    keyword: bool,
    /// Heard first in a listed mis-hearing.
    confused: bool,
}

impl<'a> Costs<'a> {
    /// Costs for a lexicon's words.
    #[must_use]
    pub fn new(lex: &'a Lexicon) -> Costs<'a> {
        // Square words: numbers (nominative and "from" forms) and file words.
        let mut number_words = HashSet::new();
        let files = (0..8).flat_map(|i| lex.file(i));
        for form in (1..=50)
            .flat_map(|n| lex.number(n).iter().chain(lex.number_from(n)))
            .chain(files)
        {
            for w in lex.tokens(form) {
                number_words.insert(fold(&w));
            }
        }
        // Words that only commands use ("zegar", "pole"): what makes a
        // command a command, so dropping or adding one is as bad as a number.
        let mut connectives = HashSet::new();
        for t in lex.moves.iter().chain(&lex.captures) {
            for s in t {
                if let Slot::Word(w) = s {
                    connectives.extend(lex.tokens(std::slice::from_ref(w)));
                }
            }
        }
        for w in &lex.taken {
            connectives.extend(lex.tokens(w));
        }
        let mut keywords = HashSet::new();
        for t in lex.commands.values().flatten() {
            for s in t {
                if let Slot::Word(w) = s {
                    keywords.extend(
                        lex.tokens(std::slice::from_ref(w))
                            .into_iter()
                            .filter(|k| !connectives.contains(k)),
                    );
                }
            }
        }
        let confused = lex.confusions.keys().map(|(h, _)| h.clone()).collect();
        Costs {
            lex,
            number_words,
            keywords,
            confused,
            memo: RefCell::default(),
        }
    }

    fn word(&self, w: &str) -> Word {
        let folded = fold(w);
        Word {
            raw: w.to_owned(),
            number: self.number_words.contains(&folded),
            folded: folded.chars().collect(),
            keyword: self.keywords.contains(w),
            confused: self.confused.contains(w),
        }
    }

    /// [`Costs::substitute`] on words worked out beforehand (the same costs).
    fn substitute_word(&self, heard: &Word, meant: &Word) -> f32 {
        if heard.raw == meant.raw {
            return 0.0;
        }
        if heard.confused {
            if let Some(&c) = self
                .lex
                .confusions
                .get(&(heard.raw.clone(), meant.raw.clone()))
            {
                return c;
            }
        }
        if heard.folded == meant.folded {
            return FOLDED;
        }
        let plain = |w: &Word| !w.number && !w.keyword && w.raw != "[unk]";
        if plain(heard) && plain(meant) {
            return CONNECTIVE_SWAP;
        }
        if heard.number && meant.number {
            return NUMBER_INDEL;
        }
        spelling_cost(&heard.folded, &meant.folded)
    }

    /// [`Costs::insert`] on a word worked out beforehand.
    fn insert_word(heard: &Word) -> f32 {
        if heard.raw == "[unk]" {
            UNK_INSERT
        } else if heard.number || heard.keyword {
            NUMBER_INDEL
        } else {
            CONNECTIVE_INDEL
        }
    }

    /// [`Costs::delete`] on a word worked out beforehand.
    fn delete_word(meant: &Word) -> f32 {
        if meant.number || meant.keyword {
            NUMBER_INDEL
        } else {
            CONNECTIVE_INDEL
        }
    }

    /// Adds words that carry a move's meaning the way square words do (chess
    /// piece names, file names, "krótka"/"długa"): adding, dropping or
    /// swapping one costs as much as a number, so "skoczek" is never heard as
    /// "goniec" unless a mis-hearing is listed.
    #[must_use]
    pub fn with_square_words<I: IntoIterator<Item = String>>(mut self, words: I) -> Costs<'a> {
        for w in words {
            self.number_words.insert(fold(&w));
        }
        self.memo = RefCell::default();
        self
    }

    fn is_number(&self, w: &str) -> bool {
        self.number_words.contains(&fold(w))
    }

    /// Cost of hearing `heard` where the phrase has `meant`.
    #[must_use]
    pub fn substitute(&self, heard: &str, meant: &str) -> f32 {
        if heard == meant {
            return 0.0;
        }
        if let Some(&c) = self
            .lex
            .confusions
            .get(&(heard.to_owned(), meant.to_owned()))
        {
            return c;
        }
        let (fh, fm) = (fold(heard), fold(meant));
        if fh == fm {
            return FOLDED;
        }
        let plain = |w: &str| !self.is_number(w) && !self.keywords.contains(w) && w != "[unk]";
        if plain(heard) && plain(meant) {
            return CONNECTIVE_SWAP;
        }
        if self.is_number(heard) && self.is_number(meant) {
            // A square word heard clearly is never turned into another one
            // ("trzydzieści" into "dwadzieścia"): that would play a move the
            // player did not name. Only listed mis-hearings may do it.
            return NUMBER_INDEL;
        }
        let a: Vec<char> = fh.chars().collect();
        let b: Vec<char> = fm.chars().collect();
        spelling_cost(&a, &b)
    }

    /// Cost of a heard word the phrase does not have.
    #[must_use]
    pub fn insert(&self, heard: &str) -> f32 {
        if heard == "[unk]" {
            UNK_INSERT
        } else if self.is_number(heard) || self.keywords.contains(heard) {
            NUMBER_INDEL
        } else {
            CONNECTIVE_INDEL
        }
    }

    /// Cost of a phrase word that was not heard.
    #[must_use]
    pub fn delete(&self, meant: &str) -> f32 {
        if self.is_number(meant) || self.keywords.contains(meant) {
            NUMBER_INDEL
        } else {
            CONNECTIVE_INDEL
        }
    }

    /// The weighted edit distance from `heard` to `phrase`.
    #[must_use]
    pub fn distance(&self, heard: &[String], phrase: &[String]) -> f32 {
        self.distance_within(heard, phrase, f32::INFINITY)
    }

    /// [`Costs::distance`], or, as soon as it is sure to be above `bound`,
    /// some value above `bound` (the least of a row of the table: every
    /// alignment passes through each row, and no cost is negative). Matching
    /// a transcript against every phrase of a position, most phrases are
    /// out of reach after a word or two. The costs of the transcript's words
    /// against each phrase word are worked out once for all its phrases
    /// (kept while the same `heard` comes again).
    #[must_use]
    pub fn distance_within(&self, heard: &[String], phrase: &[String], bound: f32) -> f32 {
        let mut memo = self.memo.borrow_mut();
        if memo.heard != heard {
            *memo = Memo {
                heard: heard.to_vec(),
                words: heard.iter().map(|w| self.word(w)).collect(),
                meant: HashMap::new(),
            };
        }
        for m in phrase {
            if !memo.meant.contains_key(m) {
                let w = self.word(m);
                let costs = Meant {
                    delete: Self::delete_word(&w),
                    substitute: memo
                        .words
                        .iter()
                        .map(|h| self.substitute_word(h, &w))
                        .collect(),
                };
                memo.meant.insert(m.clone(), costs);
            }
        }
        let phrase: Vec<&Meant> = phrase.iter().map(|m| &memo.meant[m]).collect();
        let mut prev: Vec<f32> = Vec::with_capacity(phrase.len() + 1);
        prev.push(0.0);
        for m in &phrase {
            let last = prev[prev.len() - 1];
            prev.push(last + m.delete);
        }
        let mut cur = vec![0.0f32; phrase.len() + 1];
        for (i, h) in memo.words.iter().enumerate() {
            let insert = Self::insert_word(h);
            cur[0] = prev[0] + insert;
            let mut least = cur[0];
            for (j, m) in phrase.iter().enumerate() {
                let sub = prev[j] + m.substitute[i];
                let ins = prev[j + 1] + insert;
                let del = cur[j] + m.delete;
                cur[j + 1] = sub.min(ins).min(del);
                least = least.min(cur[j + 1]);
            }
            std::mem::swap(&mut prev, &mut cur);
            if least > bound {
                return least;
            }
        }
        prev[phrase.len()]
    }
}

/// The cost of hearing one word for another spelt differently: 0.3 for
/// the first letter changed, up to 1 for a word wholly unlike.
#[must_use]
pub fn spelling_cost(a: &[char], b: &[char]) -> f32 {
    let longer = a.len().max(b.len()).max(1) as f32;
    (0.3 + 0.7 * levenshtein(a, b) as f32 / longer).min(1.0)
}

fn levenshtein(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listen::lexicon::words_of;

    #[test]
    fn exact_phrase_costs_nothing_and_numbers_cost_most() {
        let pl = Lexicon::polish();
        let c = Costs::new(&pl);
        let p = words_of("trzydzieści dwa na dwadzieścia osiem");
        assert_eq!(c.distance(&p, &p), 0.0);
        // A dropped connective is cheap, a dropped number is not.
        assert!(
            (c.distance(&words_of("trzydzieści dwa dwadzieścia osiem"), &p) - 0.35).abs() < 1e-6
        );
        assert!(c.distance(&words_of("trzydzieści na dwadzieścia osiem"), &p) >= 1.0);
        // Listed mis-hearing and lost diacritics.
        assert!(
            (c.distance(&words_of("trzydzieści dwie na dwadzieścia osiem"), &p) - 0.1).abs() < 1e-6
        );
        assert!((c.substitute("piec", "pięć") - 0.05).abs() < 1e-6);
    }

    #[test]
    fn levenshtein_counts_letters() {
        let v = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(levenshtein(&v("kitten"), &v("sitting")), 3);
        assert_eq!(levenshtein(&v(""), &v("abc")), 3);
    }
}
