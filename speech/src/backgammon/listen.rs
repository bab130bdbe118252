//! Backgammon by voice (004): what a player may say in each state of the
//! match, and from a transcript back to one action (pure, table-tested).
//!
//! The grammar follows the state of the [`Match`]:
//!
//! | state | said | the action |
//! | --- | --- | --- |
//! | opening roll (004 4.1) | "trzy jeden", "three one": white's die first | `roll 3 1` (a tie is refused: roll again) |
//! | on roll | any roll, either order: "trzy jeden", "jeden trzy", "rzut trzy jeden"; doubles "szóstki", "dwie szóstki", "sześć sześć", "double sixes", "six six" | `roll 3 1` |
//! | on roll, the cube may be turned | "kontruję", "double" | `double` |
//! | a double offered | "przyjmuję" / "pasuję", "take" / "pass" | `take`, `pass` |
//! | dice rolled | every legal move of the roll: "osiem pięć sześć pięć", "eight to five, six to five", "bar dwadzieścia dwa", "z bandy na dwadzieścia dwa", "sześć zdjęte", "six off", "osiem cztery dwa razy" (8/4(2)), the checkers in any order, a hit point named ("dwadzieścia cztery dwadzieścia jeden dwadzieścia", 24/21*/20) | the move in gnubg's notation (`8/5 6/5`) |
//! | dice rolled, no legal move | "pas", "pass" | `pass` |
//! | the side to act, a game under way, no resignation offered (004 4.5) | "poddaję pojedynczo", "poddaję podwójnie", "poddaję gammona", "poddaję potrójnie"; "resign a single game", "resign a gammon", "resign a backgammon" | `resign 1`, `resign 2`, `resign 3` (an offer) |
//! | a resignation offered (004 4.3 (ii) (g)): nothing else | "przyjmuję" / "odrzucam", "accept" / "decline" | `accept`, `decline` |
//! | always | "oczka", "pips" (the `pips` question); the commands of the table (clock, position, last move, repeat, done, yes, no, resign, help, cancel, the record) | |
//!
//! Points are said in the numbering of the player who speaks, the mover
//! (gnubg's notation is from the mover's side: the 1-point is the mover's
//! own). The words are data: `[numbers]` and `[listen]` of
//! `phrasebooks/backgammon/{pl,en}.toml`.
//!
//! Understanding: the heard words are brought to their content (numbers, the
//! bar, off, "twice", the cube words, a doubles word), the little words
//! (connectives, "bicie"/"hit", "rzut"/"roll", "[unk]", other words) dropped
//! at the matcher's costs ([`crate::listen::matcher`]: 0.35 a word, 0.5 for
//! `[unk]`, listed mis-hearings at their cost, a word a letter or two from a
//! listed word as that word). The content must then be exactly the content
//! of a phrase of a legal action: a number is never guessed (the matcher's
//! rule: a number changed costs more than [`MAX_COST`]). When it is not, the
//! numbers are read as a move text (every split of number words, "dwadzieścia
//! jeden" as 21 or 20 1, every grouping into checkers' paths) and resolved by
//! the rules ([`tandem_rules::backgammon::resolve`]): one legal move is that
//! move (a checker's steps said one by one: "24 21 21 20"); several are asked
//! which ("Który: ... czy ...?"); none is refused with the rules' reason
//! ("The 1 must be played too.").

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{Hash, Hasher};

use tandem_rules::backgammon::{notation, Action, Dice, Match, Phase, Play};

use crate::backgammon::{BgAnnouncer, BgPhrasebook, Numbering};
use crate::listen::lexicon::{fold, tokens_of, words_of, Lexicon, Words};

/// One thing a player may say to the match: the listener's "move".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BgInput {
    /// The dice (at the opening roll: white's die, black's die).
    Roll(Dice),
    /// A move of the roll ([`Play::PASS`]: the roll cannot be played).
    Play(Play),
    /// The cube offered (004 4.4 (ii)).
    Double,
    /// The cube taken.
    Take,
    /// The cube passed (the game given up for the cube's value).
    Pass,
    /// The side to act offers to resign the game for 1, 2 or 3 times the
    /// cube (004 4.5, 4.3 (ii) (g)).
    ResignOffer(u8),
    /// The resignation offered accepted (the game ends).
    Accept,
    /// The resignation offered declined (the game goes on).
    Decline,
}

impl BgInput {
    /// The table's text for it (what `tandem ctl` and typed input take):
    /// `roll 3 1`, `8/5 6/5`, `pass`, `double`, `take`, `resign 2`,
    /// `accept`, `decline`.
    #[must_use]
    pub fn text(&self, m: &Match) -> String {
        match self {
            BgInput::Roll(d) => format!("roll {} {}", d.0, d.1),
            BgInput::Play(p) if p.is_pass() => "pass".to_owned(),
            BgInput::Play(p) => m.move_text(p),
            BgInput::Double => "double".to_owned(),
            BgInput::Take => "take".to_owned(),
            BgInput::Pass => "pass".to_owned(),
            BgInput::ResignOffer(n) => format!("resign {n}"),
            BgInput::Accept => "accept".to_owned(),
            BgInput::Decline => "decline".to_owned(),
        }
    }

    /// The rules' action in `m` (a resignation is the side to act's; an
    /// acceptance takes what was offered).
    fn action(self, m: &Match) -> Action {
        let acting = m.to_act().unwrap_or(m.board().turn());
        match self {
            BgInput::Roll(d) => Action::Roll(d),
            BgInput::Play(p) => Action::Move(p),
            BgInput::Double => Action::Double,
            BgInput::Take => Action::Take,
            BgInput::Pass => Action::Pass,
            BgInput::ResignOffer(level) => Action::ResignOffer {
                side: acting,
                level,
            },
            BgInput::Accept => {
                let (side, level) = m.resign_offer().unwrap_or((acting.other(), 1));
                Action::Resign { side, level }
            }
            BgInput::Decline => Action::ResignDecline,
        }
    }

    /// Whether it turns the cube (always read back, as resigning is: it
    /// cannot be taken back).
    #[must_use]
    pub fn is_cube(&self) -> bool {
        matches!(self, BgInput::Double | BgInput::Take | BgInput::Pass)
    }

    /// Whether it offers or answers a resignation.
    #[must_use]
    pub fn is_resignation(&self) -> bool {
        matches!(
            self,
            BgInput::ResignOffer(_) | BgInput::Accept | BgInput::Decline
        )
    }

    /// Whether it is always read back, even with `--confirm never`: the
    /// cube and the resignations cannot be taken back.
    #[must_use]
    pub fn is_final(&self) -> bool {
        self.is_cube() || self.is_resignation()
    }
}

/// A content token: a word of a number, or one of these classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Class {
    Bar,
    Off,
    Times(u8),
    Doubles(u8),
    Double,
    Take,
    Pass,
    Pips,
    /// A resignation offered for 1, 2 or 3 (004 4.5).
    Resign(u8),
    /// A resignation accepted.
    Accept,
    /// A resignation declined.
    Decline,
    /// A little word: dropped at no cost.
    Filler,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Tok {
    Word(String),
    Class(Class),
}

/// The listening words of a backgammon phrasebook (see the module docs).
#[derive(Debug, Clone)]
pub struct BgLexicon {
    announcer: BgAnnouncer,
    lang: String,
    syllables: bool,
    /// Points 1..24 (index 0 unused), as tokens.
    points: Vec<Words>,
    /// Dice 1..6 (index 0 unused), as tokens.
    dice: Vec<Words>,
    /// Dice 1..6 as said.
    dice_said: Vec<String>,
    /// The words before the dice ("rzut"), as said.
    roll_words: Vec<String>,
    /// The first word between a checker's points ("na"), as said.
    to_word: Option<String>,
    /// Every phrase of a class, as tokens, longest first.
    classes: Vec<(Words, Class)>,
    /// The first form of each class as said (for the recognizer and read-backs).
    first: BTreeMap<Class, String>,
    /// Every form of each class as said.
    forms: BTreeMap<Class, Vec<String>>,
    or: String,
    confusions: BTreeMap<String, (String, f32)>,
    /// Every token of a number.
    number_tokens: HashSet<String>,
}

fn toml_list(t: &toml::Table, path: &[&str]) -> Vec<toml::Value> {
    let mut v: Option<&toml::Value> = None;
    for (i, k) in path.iter().enumerate() {
        v = if i == 0 {
            t.get(*k)
        } else {
            v.and_then(|x| x.get(*k))
        };
    }
    v.and_then(toml::Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn strings(v: &[toml::Value]) -> Vec<String> {
    v.iter()
        .filter_map(|x| x.as_str().map(str::to_owned))
        .collect()
}

/// A phrase as the recognizer's tokens: folded words, or their syllables
/// (`match = "syllables"`).
fn spoken_tokens(s: &str, syllables: bool) -> Words {
    let w: Words = words_of(s).iter().map(|w| fold(w)).collect();
    tokens_of(&w, syllables)
}

/// Every class's phrases from `[listen]` (and the doubles of `[numbers]`):
/// the cube's words required, the rest optional.
fn word_forms(t: &toml::Table) -> Result<BTreeMap<Class, Vec<String>>, String> {
    let list = |key: &str| strings(&toml_list(t, &["listen", key]));
    let mut forms: BTreeMap<Class, Vec<String>> = BTreeMap::new();
    for (key, class) in [
        ("bar", Class::Bar),
        ("off", Class::Off),
        ("double", Class::Double),
        ("take", Class::Take),
        ("pass", Class::Pass),
        ("pips", Class::Pips),
        ("accept", Class::Accept),
        ("decline", Class::Decline),
    ] {
        let v = list(key);
        if v.is_empty() && matches!(class, Class::Double | Class::Take | Class::Pass) {
            return Err(format!("listen.{key}: missing list"));
        }
        forms.insert(class, v);
    }
    let mut fillers = Vec::new();
    for key in ["to", "hit", "and", "roll"] {
        fillers.extend(list(key));
    }
    forms.insert(Class::Filler, fillers);
    // Three groups each: `times` for 2, 3 and 4; `resign` for levels 1 to 3
    // (optional: a book without them cannot offer or answer a resignation
    // by voice; the table's commands still resign).
    let times: fn(u8) -> Class = Class::Times;
    for (key, class, first) in [("times", times, 2), ("resign", Class::Resign, 1)] {
        for (i, group) in toml_list(t, &["listen", key]).iter().enumerate().take(3) {
            let v = strings(group.as_array().map_or(&[][..], Vec::as_slice));
            forms.insert(class(i as u8 + first), v);
        }
    }
    let book_doubles = strings(&toml_list(t, &["numbers", "doubles"]));
    let extra = toml_list(t, &["listen", "doubles"]);
    for face in 1..=6u8 {
        let mut v: Vec<String> = book_doubles
            .get(usize::from(face))
            .filter(|s| !s.is_empty())
            .cloned()
            .into_iter()
            .collect();
        if let Some(e) = extra.get(usize::from(face) - 1).and_then(|x| x.as_array()) {
            v.extend(strings(e));
        }
        forms.insert(Class::Doubles(face), v);
    }
    Ok(forms)
}

/// The phrases as tokens with their class, longest first (each once), and
/// each class's first phrase (the one said back).
fn classes_of(
    forms: &BTreeMap<Class, Vec<String>>,
    tokens: &dyn Fn(&str) -> Words,
) -> (Vec<(Words, Class)>, BTreeMap<Class, String>) {
    let mut classes: Vec<(Words, Class)> = Vec::new();
    let mut first = BTreeMap::new();
    for (class, v) in forms {
        if let Some(f) = v.first() {
            first.insert(*class, f.clone());
        }
        for f in v {
            let tk = tokens(f);
            if !tk.is_empty() && !classes.contains(&(tk.clone(), *class)) {
                classes.push((tk, *class));
            }
        }
    }
    classes.sort_by_key(|c| std::cmp::Reverse(c.0.len()));
    (classes, first)
}

impl BgLexicon {
    /// The listening words of a backgammon phrasebook's TOML text; `base` is
    /// the table's words of the language (its mis-hearings).
    ///
    /// # Errors
    /// The text is not a backgammon phrasebook, or its `[listen]` section
    /// lacks the cube words.
    pub fn from_toml_str(text: &str, base: &Lexicon) -> Result<BgLexicon, String> {
        let book = BgPhrasebook::from_toml_str(text).map_err(|e| e.to_string())?;
        let t: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
        let listen = t.get("listen").and_then(toml::Value::as_table);
        let syllables = listen
            .and_then(|l| l.get("match"))
            .and_then(toml::Value::as_str)
            == Some("syllables");
        let tokens = |s: &str| spoken_tokens(s, syllables);
        let points: Vec<Words> = strings(&toml_list(&t, &["numbers", "points"]))
            .iter()
            .map(|s| tokens(s))
            .collect();
        let dice_said = strings(&toml_list(&t, &["numbers", "dice"]));
        let dice: Vec<Words> = dice_said.iter().map(|s| tokens(s)).collect();
        if points.len() != 25 || dice.len() != 7 {
            return Err("[numbers] points needs 25 entries and dice 7".into());
        }
        let list = |key: &str| strings(&toml_list(&t, &["listen", key]));
        let forms = word_forms(&t)?;
        let (classes, first) = classes_of(&forms, &tokens);
        let number_tokens = points.iter().chain(&dice).flatten().cloned().collect();
        let confusions = base
            .confusions
            .iter()
            .map(|((h, m), c)| (fold(h), (fold(m), *c)))
            .collect();
        let or = listen
            .and_then(|l| l.get("or"))
            .and_then(toml::Value::as_str)
            .unwrap_or(", ")
            .to_owned();
        Ok(BgLexicon {
            announcer: BgAnnouncer::new(book.clone(), Numbering::Mover, tandem_rules::Color::White),
            lang: book.language().to_owned(),
            syllables,
            points,
            dice,
            dice_said,
            roll_words: list("roll"),
            to_word: list("to").first().cloned(),
            classes,
            first,
            forms,
            or,
            confusions,
            number_tokens,
        })
    }

    /// The built-in words of a language with data (its backgammon and
    /// draughts phrasebooks).
    #[must_use]
    pub fn builtin(lang: &str) -> Option<BgLexicon> {
        let text = crate::languages::text(crate::languages::Book::Backgammon, lang).ok()?;
        let base = Lexicon::builtin(lang)?;
        BgLexicon::from_toml_str(text, &base).ok()
    }

    /// The announcer of these words (mover's numbering: read-backs).
    #[must_use]
    pub fn announcer(&self) -> &BgAnnouncer {
        &self.announcer
    }

    fn tok_words(&self, words: &[String]) -> Vec<String> {
        tokens_of(words, self.syllables)
    }

    /// The heard words as content tokens, and the cost of what was
    /// dropped or changed on the way (see the module docs). A phrase of two
    /// classes ("przyjmuję": take the cube, accept a resignation) is the
    /// one of `prefer` (the classes the grammar listens for) if either is.
    fn content(&self, text: &str, prefer: &BTreeSet<Class>) -> (Vec<Tok>, f32) {
        let mut cost = 0.0f32;
        let mut words = Vec::new();
        for w in words_of(text) {
            if w == "[unk]" {
                cost += 0.5;
                continue;
            }
            let f = fold(&w);
            // A listed mis-hearing, unless the word heard is one of ours.
            let ours =
                self.number_tokens.contains(&f) || self.classes.iter().any(|(c, _)| c[0] == f);
            match self.confusions.get(&f) {
                Some((meant, c)) if !ours && self.number_tokens.contains(meant) => {
                    cost += c;
                    words.push(meant.clone());
                }
                _ => words.push(f),
            }
        }
        let toks = self.tok_words(&words);
        let mut out = Vec::new();
        let mut i = 0;
        'scan: while i < toks.len() {
            for (phrase, class) in &self.classes {
                if toks[i..].starts_with(phrase) {
                    let class = self
                        .classes
                        .iter()
                        .filter(|(p, _)| p == phrase)
                        .map(|(_, c)| *c)
                        .find(|c| prefer.contains(c))
                        .unwrap_or(*class);
                    if class != Class::Filler {
                        out.push(Tok::Class(class));
                    }
                    i += phrase.len();
                    continue 'scan;
                }
            }
            let t = &toks[i];
            if self.number_tokens.contains(t) {
                out.push(Tok::Word(t.clone()));
            } else if let Some((class, c)) = self.near_class(t) {
                cost += c;
                if class != Class::Filler {
                    out.push(Tok::Class(class));
                }
            } else {
                cost += 0.35;
            }
            i += 1;
        }
        (out, cost)
    }

    /// A one-word class form a letter or two from `w` ("zdjęta" for
    /// "zdjęte"), at the matcher's cost for another word (at most 0.5).
    fn near_class(&self, w: &str) -> Option<(Class, f32)> {
        if self.syllables {
            return None;
        }
        let a: Vec<char> = w.chars().collect();
        let mut best: Option<(Class, f32)> = None;
        for (phrase, class) in &self.classes {
            let [p] = phrase.as_slice() else { continue };
            let b: Vec<char> = p.chars().collect();
            // At most 0.5: `spelling_cost`'s cap at 1 changes nothing here.
            let c = crate::listen::matcher::spelling_cost(&a, &b);
            if c <= 0.5 && best.map_or(true, |(_, x)| c < x) {
                best = Some((*class, c));
            }
        }
        best
    }

    fn point_toks(&self, p: u8) -> Vec<Tok> {
        self.points
            .get(usize::from(p))
            .map(|w| w.iter().cloned().map(Tok::Word).collect())
            .unwrap_or_default()
    }

    fn die_toks(&self, d: u8) -> Vec<Tok> {
        self.dice
            .get(usize::from(d))
            .map(|w| w.iter().cloned().map(Tok::Word).collect())
            .unwrap_or_default()
    }

    fn said(&self, class: Class) -> String {
        self.first.get(&class).cloned().unwrap_or_default()
    }

    fn point_said(&self, p: u8) -> String {
        self.announcer.number(u32::from(p))
    }

    fn die_said(&self, d: u8) -> String {
        self.dice_said
            .get(usize::from(d))
            .cloned()
            .unwrap_or_default()
    }

    /// How `input` is read back: "trzy jeden", "osiem na pięć, sześć na
    /// pięć", "kontruję".
    #[must_use]
    pub fn readback(&self, m: &Match, input: &BgInput) -> String {
        match input {
            BgInput::Roll(d) if m.phase() == Phase::Opening || !d.is_double() => {
                let d = if m.phase() == Phase::Opening {
                    *d
                } else {
                    d.high_first()
                };
                format!("{} {}", self.die_said(d.0), self.die_said(d.1))
            }
            BgInput::Roll(d) => self.announcer.dice_words(*d),
            BgInput::Play(p) if p.is_pass() => self.said(Class::Pass),
            BgInput::Play(p) => self.announcer.mover_steps(m.board(), p),
            BgInput::Double => self.said(Class::Double),
            BgInput::Take => self.said(Class::Take),
            BgInput::Pass => self.said(Class::Pass),
            BgInput::ResignOffer(n) => self.said(Class::Resign(*n)),
            BgInput::Accept => self.said(Class::Accept),
            BgInput::Decline => self.said(Class::Decline),
        }
    }
}

fn key_hash(toks: &[Tok]) -> u64 {
    let mut h = DefaultHasher::new();
    toks.hash(&mut h);
    h.finish()
}

/// Every action a player may say in one state of the match, and their
/// phrases (see the module docs).
#[derive(Debug, Clone)]
pub struct BgGrammar {
    /// The match.
    pub state: Match,
    /// The legal actions said here.
    pub inputs: Vec<BgInput>,
    /// Content of a phrase -> the actions it names.
    phrases: HashMap<Vec<Tok>, Vec<usize>>,
    /// Hashes of every strict beginning of a phrase's content.
    prefixes: HashSet<u64>,
    /// The phrases for the recognizer.
    recognizer: BTreeSet<String>,
    /// The word classes of the phrases.
    classes: BTreeSet<Class>,
}

/// Every order of `items` (each distinct order once).
fn orders<T: Clone + Ord>(items: &[T]) -> Vec<Vec<T>> {
    let mut v = items.to_vec();
    v.sort();
    let mut out = vec![v.clone()];
    // Next lexicographic permutation until none.
    loop {
        let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
            return out;
        };
        let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).unwrap_or(i);
        v.swap(i - 1, j);
        v[i..].reverse();
        out.push(v.clone());
    }
}

impl BgGrammar {
    /// The grammar of `m` (see the module docs).
    #[must_use]
    pub fn build(m: &Match, lex: &BgLexicon) -> BgGrammar {
        let mut g = BgGrammar {
            state: m.clone(),
            inputs: Vec::new(),
            phrases: HashMap::new(),
            prefixes: HashSet::new(),
            recognizer: BTreeSet::new(),
            classes: BTreeSet::new(),
        };
        for f in lex.forms.get(&Class::Pips).into_iter().flatten() {
            g.recognizer.insert(f.clone());
        }
        let legal = |a: Action| m.clone().act(a).is_ok();
        // 004 4.3 (ii) (g): while a resignation waits, only its answer.
        if m.resign_offer().is_some() {
            for (input, class) in [
                (BgInput::Accept, Class::Accept),
                (BgInput::Decline, Class::Decline),
            ] {
                if lex.forms.get(&class).is_some_and(|v| !v.is_empty()) {
                    let i = g.push(input);
                    g.add(vec![Tok::Class(class)], i);
                    g.say_all(lex, class);
                }
            }
            return g;
        }
        match m.phase() {
            Phase::Opening | Phase::Roll => {
                let opening = m.phase() == Phase::Opening;
                for a in 1..=6u8 {
                    for b in 1..=6u8 {
                        if opening && a == b {
                            continue;
                        }
                        let i = g.push(BgInput::Roll(Dice(a, b)));
                        let key = [lex.die_toks(a), lex.die_toks(b)].concat();
                        g.add(key, i);
                        g.recognizer
                            .insert(format!("{} {}", lex.die_said(a), lex.die_said(b)));
                        if a == b {
                            g.add(vec![Tok::Class(Class::Doubles(a))], i);
                            for f in lex.forms.get(&Class::Doubles(a)).into_iter().flatten() {
                                g.recognizer.insert(f.clone());
                            }
                        }
                    }
                }
                // The words before the dice, in the recognizer's vocabulary.
                for f in &lex.roll_words {
                    g.recognizer
                        .insert(format!("{f} {} {}", lex.die_said(3), lex.die_said(1)));
                }
                if !opening && legal(Action::Double) {
                    let i = g.push(BgInput::Double);
                    g.add(vec![Tok::Class(Class::Double)], i);
                    g.say_all(lex, Class::Double);
                }
            }
            Phase::DoubleOffered => {
                for (input, class) in [(BgInput::Take, Class::Take), (BgInput::Pass, Class::Pass)] {
                    let i = g.push(input);
                    g.add(vec![Tok::Class(class)], i);
                    g.say_all(lex, class);
                    // "Accept" with a double waiting is the take, as typed.
                    if input == BgInput::Take
                        && lex.forms.get(&Class::Accept).is_some_and(|v| !v.is_empty())
                    {
                        g.add(vec![Tok::Class(Class::Accept)], i);
                    }
                }
            }
            Phase::Move => {
                let plays = m.legal();
                if plays.is_empty() {
                    let i = g.push(BgInput::Play(Play::PASS));
                    g.add(vec![Tok::Class(Class::Pass)], i);
                    g.say_all(lex, Class::Pass);
                }
                for p in plays {
                    let i = g.push(BgInput::Play(p));
                    g.add_play(lex, m, i, &p);
                }
            }
            Phase::MatchOver => {}
        }
        // 004 4.5: the side to act may offer to resign the game.
        if let Some(side) = m.to_act() {
            for level in 1..=3u8 {
                let class = Class::Resign(level);
                if lex.forms.get(&class).is_some_and(|v| !v.is_empty())
                    && legal(Action::ResignOffer { side, level })
                {
                    let i = g.push(BgInput::ResignOffer(level));
                    g.add(vec![Tok::Class(class)], i);
                    g.say_all(lex, class);
                }
            }
        }
        g
    }

    fn push(&mut self, input: BgInput) -> usize {
        self.inputs.push(input);
        self.inputs.len() - 1
    }

    fn add(&mut self, key: Vec<Tok>, i: usize) {
        for t in &key {
            if let Tok::Class(c) = t {
                self.classes.insert(*c);
            }
        }
        for n in 1..key.len() {
            self.prefixes.insert(key_hash(&key[..n]));
        }
        let e = self.phrases.entry(key).or_default();
        if !e.contains(&i) {
            e.push(i);
        }
    }

    fn say_all(&mut self, lex: &BgLexicon, class: Class) {
        for f in lex.forms.get(&class).into_iter().flatten() {
            self.recognizer.insert(f.clone());
        }
    }

    /// A move's phrases: its checkers' paths in every order, each path its
    /// points (the bar first, off last, a hit point on the way), a path
    /// taken by several checkers said once with "twice" or said again.
    fn add_play(&mut self, lex: &BgLexicon, m: &Match, i: usize, play: &Play) {
        let board = m.board();
        let paths = notation::paths(board, play);
        // Each path as content and as said (the first forms).
        let path_toks = |chain: &[u8]| -> (Vec<Tok>, Vec<String>) {
            let mut toks = Vec::new();
            let mut said = Vec::new();
            for &p in chain {
                match p {
                    25 => {
                        toks.push(Tok::Class(Class::Bar));
                        said.push(lex.said(Class::Bar));
                    }
                    0 => {
                        toks.push(Tok::Class(Class::Off));
                        said.push(lex.said(Class::Off));
                    }
                    p => {
                        toks.extend(lex.point_toks(p));
                        said.push(lex.point_said(p));
                    }
                }
            }
            (toks, said)
        };
        // Units: one per checker path, or a counted path.
        let mut units: Vec<Vec<Vec<Tok>>> = Vec::new(); // per path: its alternatives
        let mut said_parts: Vec<Vec<String>> = Vec::new();
        for (chain, count) in &paths {
            let (t, s) = path_toks(chain);
            for _ in 0..*count {
                said_parts.push(s.clone());
            }
            let mut alts: Vec<Vec<Tok>> =
                vec![(0..*count).flat_map(|_| t.iter().cloned()).collect()];
            if *count > 1 {
                let mut c = t.clone();
                c.push(Tok::Class(Class::Times(*count)));
                alts.push(c);
                if let Some(w) = lex.forms.get(&Class::Times(*count)).and_then(|v| v.first()) {
                    self.recognizer.insert(format!("{} {w}", s.join(" ")));
                }
            }
            units.push(alts);
        }
        // Every order of the paths, every choice of alternatives.
        let idx: Vec<usize> = (0..units.len()).collect();
        let mut keys: HashSet<Vec<Tok>> = HashSet::new();
        for order in orders(&idx) {
            let mut partial: Vec<Vec<Tok>> = vec![Vec::new()];
            for &u in &order {
                partial = partial
                    .iter()
                    .flat_map(|p| {
                        units[u]
                            .iter()
                            .map(move |alt| p.iter().chain(alt).cloned().collect::<Vec<Tok>>())
                    })
                    .collect();
            }
            keys.extend(partial);
        }
        for k in keys {
            self.add(k, i);
        }
        // For the recognizer: the move as gnubg orders it, bare and with
        // the first connective, and the other words of its paths once.
        let joined = |sep: &str| {
            said_parts
                .iter()
                .map(|points| points.join(sep))
                .collect::<Vec<_>>()
                .join(" ")
        };
        self.recognizer.insert(joined(" "));
        if let Some(to) = &lex.to_word {
            self.recognizer.insert(joined(&format!(" {to} ")));
        }
        for (chain, _) in &paths {
            if chain.first() == Some(&25) {
                for f in lex.forms.get(&Class::Bar).into_iter().flatten() {
                    let rest: Vec<String> = chain[1..].iter().map(|&p| lex.point_said(p)).collect();
                    self.recognizer.insert(format!("{f} {}", rest.join(" ")));
                }
            }
            if chain.last() == Some(&0) {
                for f in lex.forms.get(&Class::Off).into_iter().flatten() {
                    self.recognizer
                        .insert(format!("{} {f}", lex.point_said(chain[0])));
                }
            }
        }
    }

    /// The phrases for a recognizer's grammar (without the commands).
    #[must_use]
    pub fn recognizer_phrases(&self) -> Vec<String> {
        self.recognizer.iter().cloned().collect()
    }

    /// How many distinct contents the phrases have.
    #[must_use]
    pub fn len(&self) -> usize {
        self.phrases.len()
    }

    /// Whether nothing can be said (the match is over).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }

    /// The actions whose phrases have exactly this content.
    fn lookup(&self, toks: &[Tok]) -> Option<&Vec<usize>> {
        self.phrases.get(toks)
    }

    /// Whether the words of `text` begin a longer phrase of the
    /// recognizer ("poddaję się" of "poddaję się podwójnie"): a command
    /// said so far is then not yet complete.
    #[must_use]
    pub fn continues(&self, text: &str) -> bool {
        let said: Vec<String> = words_of(text).iter().map(|w| fold(w)).collect();
        !said.is_empty()
            && self.recognizer.iter().any(|p| {
                let w: Vec<String> = words_of(p).iter().map(|w| fold(w)).collect();
                w.len() > said.len() && w.starts_with(&said)
            })
    }

    /// Whether `text` is a whole phrase that no longer phrase continues.
    #[must_use]
    pub fn is_complete(&self, lex: &BgLexicon, text: &str) -> bool {
        let (toks, _) = lex.content(text, &self.classes);
        !toks.is_empty()
            && self.lookup(&toks).is_some()
            && !self.prefixes.contains(&key_hash(&toks))
    }
}

mod understand;
mod voice;

pub use understand::{understand_bg, BgHeard};
pub use voice::{BgSaid, BgVoice, BgVoiceGrammar, BgWords};

#[cfg(test)]
mod tests;
