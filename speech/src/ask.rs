//! Questions about the board (issue 23): what a sighted player sees at a
//! glance, asked typed (`ask knights`, `tandem ctl ask opponent knights`),
//! by voice ("gdzie są skoczki przeciwnika") or from the braille display.
//!
//! This module is game-neutral: the form of a question ([`Question`]: an
//! optional side, a word, an optional argument: `opponent knights`,
//! `file e`, `row 5`, `point 8`), and a game's question words read from
//! its phrasebook ([`AskBook`]: `[ask]` holds the answers' templates,
//! `[listen.ask]` the phrasings listened for). Each game answers its own
//! questions in its own folder; the words are data.
//!
//! Fair play (FIDE art. 11.3 and the other games' codes ban advice): only what
//! a sighted player sees on the board is answered, never a legal move, a
//! threat, an attacked piece or a capture to make. See `docs/ask.md`.

use std::collections::{BTreeMap, BTreeSet};

use tandem_rules::Color;

use crate::listen::words::{fold, words_of, Words};

/// Whose pieces a question is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Whose {
    /// White's.
    White,
    /// Black's.
    Black,
    /// The asker's (the blind player's at a one-blind table).
    Mine,
    /// The asker's opponent's.
    Opponent,
}

impl Whose {
    /// The typed word (`white`, `black`, `my`, `opponent`).
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Whose::White => "white",
            Whose::Black => "black",
            Whose::Mine => "my",
            Whose::Opponent => "opponent",
        }
    }

    fn parse(w: &str) -> Option<Whose> {
        match w {
            "white" | "białe" | "biale" => Some(Whose::White),
            "black" | "czarne" => Some(Whose::Black),
            "my" | "mine" | "moje" | "me" => Some(Whose::Mine),
            "opponent" | "opponents" | "opponent's" | "their" | "przeciwnika" => {
                Some(Whose::Opponent)
            }
            _ => None,
        }
    }

    /// The colour meant, for `asker` (`None`: nobody in particular, as at a
    /// table where both players are blind).
    ///
    /// # Errors
    /// "my" or "opponent" with no asker: the side must be named.
    pub fn color(self, asker: Option<Color>) -> Result<Color, NoAsker> {
        match self {
            Whose::White => Ok(Color::White),
            Whose::Black => Ok(Color::Black),
            Whose::Mine => asker.ok_or(NoAsker),
            Whose::Opponent => asker.map(Color::other).ok_or(NoAsker),
        }
    }
}

/// "my" or "opponent" where nobody in particular asks (`--blind both`):
/// the player is asked which side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoAsker;

/// A question in its typed form: `[white|black|my|opponent] WORD [ARG]`
/// (`kings`, `opponent knights`, `file e`, `rank 7`, `row 5`, `point 8`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// Whose pieces (none: both sides, or the asker's where only one fits).
    pub whose: Option<Whose>,
    /// The question word (`knights`, `file`, `point`).
    pub word: String,
    /// Its argument (`e`, `7`, `e4`).
    pub arg: Option<String>,
}

impl Question {
    /// Reads the typed form (`ask` in front is skipped); `None` if empty or
    /// longer than a side, a word and an argument.
    #[must_use]
    pub fn parse(text: &str) -> Option<Question> {
        let mut words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
        if words.first().is_some_and(|w| w == "ask") {
            words.remove(0);
        }
        let mut it = words.into_iter().peekable();
        let whose = it.peek().and_then(|w| Whose::parse(w));
        if whose.is_some() {
            it.next();
        }
        let word = it.next()?;
        let arg = it.next();
        if it.next().is_some() {
            return None;
        }
        Some(Question { whose, word, arg })
    }

    /// The typed form again (`opponent knights`, `file e`).
    #[must_use]
    pub fn text(&self) -> String {
        let mut s = Vec::new();
        if let Some(w) = self.whose {
            s.push(w.word().to_owned());
        }
        s.push(self.word.clone());
        if let Some(a) = &self.arg {
            s.push(a.clone());
        }
        s.join(" ")
    }
}

impl Question {
    /// The side a question names (`None`: none named) and the sides its
    /// answer speaks of, the asker's first (white's where nobody in
    /// particular asks).
    ///
    /// # Errors
    /// The book's words asking which side, for "my" or "opponent" with no asker.
    pub fn sides(
        &self,
        ask: &AskBook,
        asker: Option<Color>,
    ) -> Result<(Option<Color>, Vec<Color>), String> {
        let first = asker.unwrap_or(Color::White);
        let side = match self.whose.map(|w| w.color(asker)) {
            None => None,
            Some(Ok(c)) => Some(c),
            Some(Err(_)) => return Err(ask.sentence("which_side", &[])),
        };
        let sides = side.map_or_else(|| vec![first, first.other()], |c| vec![c]);
        Ok((side, sides))
    }

    /// The question a letter key of the braille display asks (`ask key k`,
    /// docs/ask.md), from a game's `(letter, question word)` keys: `None`
    /// for another question, `Some(None)` for a letter the game has no
    /// question for.
    #[must_use]
    pub fn from_key(&self, keys: &[(&str, &str)]) -> Option<Option<Question>> {
        if self.word != "key" {
            return None;
        }
        Some(
            keys.iter()
                .find(|(k, _)| Some(*k) == self.arg.as_deref())
                .map(|(_, w)| Question {
                    whose: self.whose,
                    word: (*w).to_owned(),
                    arg: None,
                }),
        )
    }
}

/// A game's answer to `q`: its sides checked first ([`Question::sides`]),
/// a letter key of the braille display (`ask key k`, docs/ask.md) taken as
/// the question of the game's `keys` (an unknown letter refused), then
/// `answer` given the question, the side it names and the sides it speaks of.
pub fn answer_keyed(
    ask: &AskBook,
    q: &Question,
    asker: Option<Color>,
    keys: &[(&str, &str)],
    answer: impl FnOnce(&Question, Option<Color>, &[Color]) -> Option<Result<Vec<String>, String>>,
) -> Option<Result<Vec<String>, String>> {
    let (side, sides) = match q.sides(ask, asker) {
        Ok(s) => s,
        Err(e) => return Some(Err(e)),
    };
    match q.from_key(keys) {
        None => answer(q, side, &sides),
        Some(None) => Some(Err(ask.unknown())),
        Some(Some(keyed)) => answer(&keyed, side, &sides),
    }
}

/// The built-in question words of a game's `book` in `lang`, read once
/// and lent, not copied (every typed move
/// asks whether it is a question first); empty for another language: a
/// phrasebook of its own keeps its own words only.
#[must_use]
pub fn builtin_ask_book(book: crate::languages::Book, lang: &str) -> &'static AskBook {
    type Books =
        std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<String, &'static AskBook>>>;
    static BOOKS: [Books; 4] = [const { Books::new() }; 4];
    static EMPTY: std::sync::OnceLock<AskBook> = std::sync::OnceLock::new();
    let i = crate::languages::Book::ALL
        .iter()
        .position(|b| *b == book)
        .unwrap_or(0);
    // Made once per known language and book, and kept: a few small tables.
    crate::languages::once_per_language(&BOOKS[i], lang, || {
        let text = crate::languages::text(book, lang).ok()?;
        let made: &'static AskBook =
            Box::leak(Box::new(AskBook::from_toml_str(text).unwrap_or_default()));
        Some(made)
    })
    .unwrap_or_else(|| EMPTY.get_or_init(AskBook::default))
}

/// One piece of a phrasing: a word, where a side's words may stand, or a
/// slot the game fills (`{file}`, `{rank}`, `{row}`, `{point}`, `{square}`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Word(String),
    Side,
    Slot(String),
}

/// What a slot of a phrasing may be: each value's spoken words and its
/// typed form (`(["ewa"], "e")`, `(["siedem"], "7")`).
pub type Slots = BTreeMap<String, Vec<(Words, String)>>;

/// A phrase listened for and the question it asks: data of the listener's
/// lexicon ([`crate::listen::Lexicon::ask`]), defined there.
pub use crate::listen::words::AskPhrase;

/// A game's question words in one language: the answers' templates
/// (`[ask]`) and the phrasings listened for (`[listen.ask]`).
#[derive(Debug, Clone, Default)]
pub struct AskBook {
    templates: BTreeMap<String, String>,
    sides: BTreeMap<Whose, Vec<Words>>,
    phrasings: BTreeMap<String, Vec<Vec<Part>>>,
    lists: BTreeMap<String, Vec<String>>,
}

fn parse_phrasing(key: &str, text: &str) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    for w in text.split_whitespace() {
        if let Some(name) = w.strip_prefix('{').and_then(|w| w.strip_suffix('}')) {
            parts.push(if name == "side" {
                Part::Side
            } else {
                Part::Slot(name.to_owned())
            });
        } else if w.contains(['{', '}']) {
            return Err(format!("listen.ask.{key}: a slot stands alone: {text:?}"));
        } else {
            parts.extend(words_of(w).into_iter().map(Part::Word));
        }
    }
    if parts.is_empty() {
        return Err(format!("listen.ask.{key}: an empty phrasing"));
    }
    Ok(parts)
}

fn strings(v: &toml::Value, what: &str) -> Result<Vec<String>, String> {
    v.as_array()
        .and_then(|a| a.iter().map(|s| s.as_str().map(str::to_owned)).collect())
        .ok_or_else(|| format!("{what}: not a list of strings"))
}

impl AskBook {
    /// Reads `[ask]` and `[listen.ask]` of a phrasebook's text (a book
    /// without them has no questions).
    ///
    /// # Errors
    /// Not TOML, or a section of the wrong shape (the message names the key).
    pub fn from_toml_str(text: &str) -> Result<AskBook, String> {
        let root: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut book = AskBook::default();
        if let Some(ask) = root.get("ask") {
            let t = ask.as_table().ok_or("ask: not a table")?;
            for (k, v) in t {
                let s = v.as_str().ok_or_else(|| format!("ask.{k}: not a string"))?;
                book.templates.insert(k.clone(), s.to_owned());
            }
        }
        let listen = root
            .get("listen")
            .and_then(|l| l.as_table())
            .and_then(|l| l.get("ask"));
        if let Some(l) = listen {
            let t = l.as_table().ok_or("listen.ask: not a table")?;
            for (k, v) in t {
                if k == "sides" {
                    let s = v.as_table().ok_or("listen.ask.sides: not a table")?;
                    for (side, words) in s {
                        let whose = Whose::parse(side).ok_or_else(|| {
                            format!(
                                "listen.ask.sides: {side:?} is not white, black, my or opponent"
                            )
                        })?;
                        let forms = strings(words, &format!("listen.ask.sides.{side}"))?;
                        book.sides
                            .insert(whose, forms.iter().map(|f| words_of(f)).collect());
                    }
                    continue;
                }
                if k == "words" {
                    let s = v.as_table().ok_or("listen.ask.words: not a table")?;
                    for (name, words) in s {
                        let list = strings(words, &format!("listen.ask.words.{name}"))?;
                        book.lists.insert(name.clone(), list);
                    }
                    continue;
                }
                let forms = strings(v, &format!("listen.ask.{k}"))?;
                let parsed = forms
                    .iter()
                    .map(|f| parse_phrasing(k, f))
                    .collect::<Result<Vec<_>, _>>()?;
                book.phrasings.insert(k.clone(), parsed);
            }
        }
        Ok(book)
    }

    /// Whether the book has any question words.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.templates.is_empty() && self.phrasings.is_empty()
    }

    /// A list of words the game fills its slots with (`[listen.ask.words]`:
    /// `ordinal`, the ordinal numbers from one); empty if the book has none.
    #[must_use]
    pub fn list(&self, name: &str) -> &[String] {
        self.lists.get(name).map_or(&[], Vec::as_slice)
    }

    /// A template filled in (`{name}` replaced by its value; a template
    /// missing from the book gives its key, so a gap is heard, not hidden).
    #[must_use]
    pub fn text(&self, key: &str, args: &[(&str, &str)]) -> String {
        let Some(t) = self.templates.get(key) else {
            return key.to_owned();
        };
        let mut s = t.clone();
        for (name, value) in args {
            s = s.replace(&format!("{{{name}}}"), value);
        }
        s
    }

    /// A side's word (`[ask] white`, `black`).
    #[must_use]
    pub fn side_word(&self, c: Color) -> String {
        match c {
            Color::White => self.text("white", &[]),
            Color::Black => self.text("black", &[]),
        }
    }

    /// The words for a question the game does not know, listing those it does.
    #[must_use]
    pub fn unknown(&self) -> String {
        self.sentence("unknown", &[("questions", &self.text("questions", &[]))])
    }

    /// A template as a sentence: its first letter a capital.
    #[must_use]
    pub fn sentence(&self, key: &str, args: &[(&str, &str)]) -> String {
        let s = self.text(key, args);
        let mut c = s.chars();
        match c.next() {
            Some(f) => f.to_uppercase().chain(c).collect(),
            None => s,
        }
    }

    /// Every phrase listened for, its slots filled from `slots` (a
    /// phrasing whose slot the game does not fill is left out).
    #[must_use]
    pub fn phrases(&self, slots: &Slots) -> Vec<AskPhrase> {
        let mut out = Vec::new();
        for (key, phrasings) in &self.phrasings {
            for p in phrasings {
                // (words, side, argument)
                let mut partial: Vec<(Words, Option<Whose>, Option<String>)> =
                    vec![(Vec::new(), None, None)];
                let mut ok = true;
                for part in p {
                    let mut next = Vec::new();
                    match part {
                        Part::Word(w) => {
                            for (ws, s, a) in partial {
                                let mut ws = ws;
                                ws.push(w.clone());
                                next.push((ws, s, a));
                            }
                        }
                        Part::Side => {
                            for (ws, s, a) in partial {
                                next.push((ws.clone(), s, a.clone()));
                                for (whose, forms) in &self.sides {
                                    for f in forms {
                                        let mut w2 = ws.clone();
                                        w2.extend(f.iter().cloned());
                                        next.push((w2, Some(*whose), a.clone()));
                                    }
                                }
                            }
                        }
                        Part::Slot(name) => {
                            let Some(values) = slots.get(name) else {
                                ok = false;
                                break;
                            };
                            for (ws, s, _) in partial {
                                for (vw, typed) in values {
                                    let mut w2 = ws.clone();
                                    w2.extend(vw.iter().cloned());
                                    next.push((w2, s, Some(typed.clone())));
                                }
                            }
                        }
                    }
                    partial = next;
                }
                if !ok {
                    continue;
                }
                for (words, whose, arg) in partial {
                    let q = Question {
                        whose,
                        word: key.clone(),
                        arg,
                    };
                    out.push(AskPhrase {
                        tokens: words.iter().map(|w| fold(w)).collect(),
                        words,
                        question: q.text(),
                    });
                }
            }
        }
        out.sort_by(|a, b| a.tokens.cmp(&b.tokens));
        out.dedup_by(|a, b| a.tokens == b.tokens);
        out
    }

    /// Every word of the phrasings (checked against a speech model).
    #[must_use]
    pub fn words(&self, slots: &Slots) -> BTreeSet<String> {
        let mut set: BTreeSet<String> = BTreeSet::new();
        for phrasings in self.phrasings.values() {
            for p in phrasings {
                for part in p {
                    match part {
                        Part::Word(w) => {
                            set.insert(w.clone());
                        }
                        Part::Side => {
                            for f in self.sides.values().flatten() {
                                set.extend(f.iter().cloned());
                            }
                        }
                        Part::Slot(name) => {
                            for (ws, _) in slots.get(name).into_iter().flatten() {
                                set.extend(ws.iter().cloned());
                            }
                        }
                    }
                }
            }
        }
        set
    }
}

/// The question a transcript says, if it is exactly one of `phrases`
/// (Polish letters folded, case ignored; words a recognizer marks `[unk]`
/// dropped). Exact, so that a question is never a guess and never a move.
#[must_use]
pub fn heard_question(phrases: &[AskPhrase], text: &str) -> Option<String> {
    let tokens: Words = words_of(text)
        .into_iter()
        .filter(|w| w != "[unk]")
        .map(|w| fold(&w))
        .collect();
    if tokens.is_empty() {
        return None;
    }
    phrases
        .binary_search_by(|p| p.tokens.cmp(&tokens))
        .ok()
        .map(|i| phrases[i].question.clone())
}

/// The question of the first of `transcripts` (best first) that says one
/// exactly, as the listeners' [`CommandHeard::Query`](crate::listen::CommandHeard::Query).
#[must_use]
pub fn heard(
    phrases: &[AskPhrase],
    transcripts: &[crate::listen::Transcript],
) -> Option<crate::listen::CommandHeard> {
    transcripts.iter().find_map(|t| {
        heard_question(phrases, &t.text).map(|query| crate::listen::CommandHeard::Query {
            query,
            confidence: (f64::from(t.confidence.clamp(0.0, 1.0)) * 100.0).round() / 100.0,
            transcript: t.text.clone(),
        })
    })
}

/// The numbers `from..=to` as slot values: the book's words for them
/// (`words(n)`) and the digits, both typed as the digits.
#[must_use]
pub fn number_slot(from: u32, to: u32, words: impl Fn(u32) -> Vec<String>) -> Vec<(Words, String)> {
    let mut v = Vec::new();
    for n in from..=to {
        for w in words(n) {
            v.push((words_of(&w), n.to_string()));
        }
        v.push((vec![n.to_string()], n.to_string()));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK: &str = r#"
[ask]
kings = "{side}: damki na {squares}."
[listen.ask]
sides = { my = ["moje"], opponent = ["przeciwnika"], white = ["białe"] }
kings = ["gdzie są {side} damki", "damki {side}"]
row = ["rząd {row}"]
file = ["linia {file}"]
"#;

    #[test]
    fn questions_read_and_write_their_typed_form() {
        let q = Question::parse("ask opponent knights").unwrap();
        assert_eq!(q.whose, Some(Whose::Opponent));
        assert_eq!(q.word, "knights");
        assert_eq!(q.text(), "opponent knights");
        assert_eq!(Question::parse("file E").unwrap().text(), "file e");
        assert!(Question::parse("").is_none());
        assert!(Question::parse("white knights on e4 now").is_none());
        assert_eq!(Whose::Mine.color(Some(Color::Black)), Ok(Color::Black));
        assert_eq!(Whose::Opponent.color(Some(Color::Black)), Ok(Color::White));
        assert_eq!(Whose::Opponent.color(None), Err(NoAsker));
    }

    #[test]
    fn phrasings_expand_sides_and_slots_and_match_exactly() {
        let b = AskBook::from_toml_str(BOOK).unwrap();
        let mut slots = Slots::new();
        slots.insert("row".into(), number_slot(1, 3, |n| vec![format!("r{n}")]));
        let p = b.phrases(&slots);
        assert_eq!(heard_question(&p, "Gdzie są damki"), Some("kings".into()));
        assert_eq!(
            heard_question(&p, "gdzie sa moje damki"),
            Some("my kings".into())
        );
        assert_eq!(
            heard_question(&p, "damki przeciwnika"),
            Some("opponent kings".into())
        );
        assert_eq!(heard_question(&p, "rząd 2"), Some("row 2".into()));
        assert_eq!(heard_question(&p, "rząd r3"), Some("row 3".into()));
        assert_eq!(heard_question(&p, "rząd cztery"), None);
        assert_eq!(
            heard_question(&p, "trzydzieści dwa na dwadzieścia osiem"),
            None
        );
        // No file slot given: no file phrasing.
        assert!(p.iter().all(|x| !x.question.starts_with("file")));
        assert_eq!(
            b.sentence("kings", &[("side", "białe"), ("squares", "5")]),
            "Białe: damki na 5."
        );
        assert!(b.words(&slots).contains("przeciwnika"));
    }

    #[test]
    fn a_bad_section_is_named() {
        let e = AskBook::from_toml_str("[listen.ask]\nkings = 3").unwrap_err();
        assert!(e.contains("listen.ask.kings"), "{e}");
        let e = AskBook::from_toml_str("[listen.ask]\nsides = { ours = [\"x\"] }").unwrap_err();
        assert!(e.contains("ours"), "{e}");
    }
}
