//! From a transcript to one action of the match: the content looked up
//! among the phrases of the legal actions, else the numbers read as a roll
//! or a move text and checked by the rules (see the parent module's docs).

use serde::Serialize;
use tandem_rules::backgammon::{Action, ActionError, Dice, Match, Phase, Play};

use super::{BgGrammar, BgInput, BgLexicon, Class, Tok};
use crate::listen::grammar::{first_fit, Fit};
use crate::listen::lexicon::Words;
use crate::listen::matcher::MAX_COST;
use crate::listen::Transcript;

/// What was understood from a spoken or typed backgammon input.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum BgHeard {
    /// A legal action.
    Move {
        /// The table's text (`roll 3 1`, `8/5 6/5`, `double`).
        #[serde(rename = "move")]
        text: String,
        /// 0..1: the recognizer's confidence times how well the phrase matched.
        confidence: f64,
        /// What the recognizer returned.
        transcript: String,
        /// The action.
        #[serde(skip)]
        input: BgInput,
    },
    /// Several legal actions fit: ask which.
    Ambiguous {
        /// Their texts.
        candidates: Vec<String>,
        /// The question in the phrasebook's words.
        question: String,
        /// What the recognizer returned.
        transcript: String,
        /// The actions.
        #[serde(skip)]
        inputs: Vec<BgInput>,
    },
    /// The words name an action that is not allowed now. Never done.
    Illegal {
        /// What was heard as the table's text (`roll 6 6`, `13/7 13/9`).
        text: String,
        /// Why, in the phrasebook's words.
        message: String,
        /// What the recognizer returned.
        transcript: String,
        /// The rules' refusal.
        #[serde(skip)]
        error: ActionError,
    },
    /// The pip count asked for (JSON as a command: `"kind": "command",
    /// "command": "pips"`).
    #[serde(rename = "command")]
    Query {
        /// `pips`.
        #[serde(rename = "command")]
        query: String,
        /// 0..1.
        confidence: f64,
        /// What the recognizer returned.
        transcript: String,
    },
    /// Nothing understood clearly: ask the player to repeat.
    Unknown {
        /// What the recognizer returned.
        transcript: String,
    },
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Understands the n-best transcripts of one utterance with `g`.
#[must_use]
pub fn understand_bg(g: &BgGrammar, lex: &BgLexicon, transcripts: &[Transcript]) -> BgHeard {
    let heards = transcripts.iter().map(|t| understand_one(g, lex, t));
    let unknown = BgHeard::Unknown {
        transcript: String::new(),
    };
    first_fit(heards, BgHeard::fit, unknown)
}

impl BgHeard {
    /// How it stands among an utterance's n-best ([`understand_bg`]): a
    /// move, an ambiguity or a question wins.
    fn fit(&self) -> Fit {
        match self {
            BgHeard::Move { .. } | BgHeard::Ambiguous { .. } | BgHeard::Query { .. } => Fit::Wins,
            BgHeard::Illegal { .. } => Fit::Illegal,
            BgHeard::Unknown { .. } => Fit::Unknown,
        }
    }
}

fn looks_like_notation(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty()
        && t.chars().any(|c| c.is_ascii_digit())
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || " /-*(),".contains(c))
}

fn illegal(lex: &BgLexicon, text: String, error: ActionError, transcript: String) -> BgHeard {
    BgHeard::Illegal {
        message: lex.announcer.refusal(&error, &text),
        text,
        transcript,
        error,
    }
}

/// The error of doing `a` now, with the table's reading of the phase (a
/// move while a double waits is "take or pass"; before the opening roll,
/// "no game").
fn refusal_of(m: &Match, a: Action) -> Option<ActionError> {
    let e = m.clone().act(a).err()?;
    Some(match (m.phase(), a, e) {
        (_, _, ActionError::ResignPending) => ActionError::ResignPending,
        (Phase::DoubleOffered, Action::Move(_), _) => ActionError::DoublePending,
        (Phase::Opening, Action::Move(_), _) => ActionError::NoGame,
        (_, _, e) => e,
    })
}

fn understand_one(g: &BgGrammar, lex: &BgLexicon, t: &Transcript) -> BgHeard {
    let transcript = t.text.clone();
    let conf = f64::from(t.confidence.clamp(0.0, 1.0));
    let m = &g.state;
    let found = |i: usize, c: f64, transcript: String| BgHeard::Move {
        text: g.inputs[i].text(m),
        confidence: round2(c),
        transcript,
        input: g.inputs[i],
    };
    // Typed or written notation: the rules read it.
    if looks_like_notation(&t.text) {
        match m.parse_action(&t.text) {
            Ok(a) => {
                if let Some(e) = refusal_of(m, a) {
                    return illegal(lex, t.text.trim().to_owned(), e, transcript);
                }
                if let Some(i) = g.inputs.iter().position(|x| x.action(m) == a) {
                    return found(i, conf, transcript);
                }
            }
            Err(ActionError::Move(tandem_rules::backgammon::MoveError::Parse(_))) => {}
            Err(e) => return illegal(lex, t.text.trim().to_owned(), e, transcript),
        }
    }
    let (toks, cost) = lex.content(&t.text, &g.classes);
    if toks.is_empty() || cost > MAX_COST {
        return BgHeard::Unknown { transcript };
    }
    let conf = conf * f64::from(1.0 - cost).max(0.0);
    if let Some(ids) = g.lookup(&toks) {
        return match ids.as_slice() {
            [i] => found(*i, conf, transcript),
            _ => ambiguous(
                g,
                lex,
                ids.iter().map(|&i| g.inputs[i]).collect(),
                transcript,
            ),
        };
    }
    // One class word alone: the cube, a resignation, or the pips.
    if let [Tok::Class(c)] = toks.as_slice() {
        let a = match c {
            Class::Pips => {
                return BgHeard::Query {
                    query: "pips".into(),
                    confidence: round2(conf),
                    transcript,
                }
            }
            Class::Double => Some((Action::Double, "double")),
            Class::Take => Some((Action::Take, "take")),
            Class::Pass if m.phase() == Phase::Move => Some((Action::Move(Play::PASS), "pass")),
            Class::Pass => Some((Action::Pass, "pass")),
            // Refused only when no resignation waits (else it was looked up).
            Class::Accept => Some((Action::ResignDecline, "accept")),
            Class::Decline => Some((Action::ResignDecline, "decline")),
            Class::Resign(level) => Some((
                Action::ResignOffer {
                    side: m.to_act().unwrap_or(m.board().turn()),
                    level: *level,
                },
                "resign",
            )),
            _ => None,
        };
        if let Some((a, text)) = a {
            let text = match c {
                Class::Resign(level) => format!("{text} {level}"),
                _ => text.to_owned(),
            };
            return match refusal_of(m, a) {
                Some(e) => illegal(lex, text, e, transcript),
                None => BgHeard::Unknown { transcript },
            };
        }
    }
    read_numbers(g, lex, &toks, conf, transcript)
}

fn ambiguous(g: &BgGrammar, lex: &BgLexicon, inputs: Vec<BgInput>, transcript: String) -> BgHeard {
    let m = &g.state;
    let said: Vec<String> = inputs.iter().map(|i| lex.readback(m, i)).collect();
    BgHeard::Ambiguous {
        candidates: inputs.iter().map(|i| i.text(m)).collect(),
        question: lex
            .announcer
            .phrase("refusals.ambiguous", &[("moves", &said.join(&lex.or))]),
        transcript,
        inputs,
    }
}

/// The most points, bar, off and "twice" words a move is read from.
const MAX_ITEMS: usize = 20;
/// The most move texts of one utterance the rules are asked about.
const MAX_RESOLVES: usize = 64;

/// An item of a move or a roll read from the content.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Item {
    Num(u8),
    Bar,
    Off,
    Times(u8),
}

/// Every reading of the content as numbers (number words split every way
/// they can be: "dwadzieścia jeden" is 21, or 20 then 1), at most `limit`.
fn readings(lex: &BgLexicon, toks: &[Tok], dice: bool, limit: usize) -> Vec<Vec<Item>> {
    let forms: Vec<(u8, &Words)> = if dice {
        (1..=6u8).map(|d| (d, &lex.dice[usize::from(d)])).collect()
    } else {
        (1..=24u8)
            .map(|p| (p, &lex.points[usize::from(p)]))
            .collect()
    };
    let mut out = Vec::new();
    let mut stack: Vec<(usize, Vec<Item>)> = vec![(0, Vec::new())];
    while let Some((i, items)) = stack.pop() {
        if out.len() >= limit {
            break;
        }
        if i == toks.len() {
            out.push(items);
            continue;
        }
        match &toks[i] {
            Tok::Class(c) => {
                let item = match c {
                    Class::Bar => Item::Bar,
                    Class::Off => Item::Off,
                    Class::Times(n) => Item::Times(*n),
                    Class::Doubles(f) if dice => {
                        let mut v = items.clone();
                        v.extend([Item::Num(*f), Item::Num(*f)]);
                        stack.push((i + 1, v));
                        continue;
                    }
                    _ => continue,
                };
                let mut v = items;
                v.push(item);
                stack.push((i + 1, v));
            }
            Tok::Word(_) => {
                for (n, f) in &forms {
                    let len = f.len();
                    let matches = len > 0
                        && toks.len() >= i + len
                        && toks[i..i + len]
                            .iter()
                            .zip(f.iter())
                            .all(|(a, b)| *a == Tok::Word(b.clone()));
                    if matches {
                        let mut v = items.clone();
                        v.push(Item::Num(*n));
                        stack.push((i + len, v));
                    }
                }
            }
        }
    }
    out
}

/// Move texts the items can be read as: split into paths of two or more
/// points each (the bar first, off last, "twice" after a path).
fn move_texts(items: &[Item], limit: usize) -> Vec<String> {
    fn go(items: &[Item], at: usize, cur: Vec<String>, out: &mut Vec<String>, limit: usize) {
        if out.len() >= limit {
            return;
        }
        if at == items.len() {
            if !cur.is_empty() {
                out.push(cur.join(" "));
            }
            return;
        }
        for end in at + 2..=items.len() {
            let path = &items[at..end];
            let mut pts = Vec::new();
            let mut ok = true;
            for (k, it) in path.iter().enumerate() {
                match it {
                    Item::Num(n) => pts.push(n.to_string()),
                    Item::Bar if k == 0 => pts.push("bar".into()),
                    Item::Off if k == path.len() - 1 => pts.push("off".into()),
                    _ => ok = false,
                }
            }
            if !ok {
                continue;
            }
            let mut text = pts.join("/");
            let mut next = end;
            if let Some(Item::Times(n)) = items.get(end) {
                text.push_str(&format!("({n})"));
                next += 1;
            }
            let mut c = cur.clone();
            c.push(text);
            go(items, next, c, out, limit);
        }
    }
    let mut out = Vec::new();
    go(items, 0, Vec::new(), &mut out, limit);
    out
}

/// The numbers read as a roll or a move and checked by the rules: one
/// legal action, several (ask which), or an illegal one with the reason.
fn read_numbers(
    g: &BgGrammar,
    lex: &BgLexicon,
    toks: &[Tok],
    conf: f64,
    transcript: String,
) -> BgHeard {
    let m = &g.state;
    let dice = matches!(m.phase(), Phase::Opening | Phase::Roll);
    let mut legal: Vec<usize> = Vec::new();
    let mut first_error: Option<(String, ActionError)> = None;
    // The plainest reading (pairs of points) names the error if it can.
    let mut pair_error: Option<(String, ActionError)> = None;
    let mut budget = MAX_RESOLVES;
    let mut all = readings(lex, toks, dice, 64);
    if dice && !all.iter().any(|r| r.len() == 2) {
        // Not a roll: points of a move, refused (roll first).
        all = readings(lex, toks, false, 64);
    }
    for items in all {
        if dice {
            if let [Item::Num(a), Item::Num(b)] = items[..] {
                let text = format!("roll {a} {b}");
                match refusal_of(m, Action::Roll(Dice(a, b))) {
                    None => {
                        if let Some(i) = g
                            .inputs
                            .iter()
                            .position(|x| *x == BgInput::Roll(Dice(a, b)))
                        {
                            if !legal.contains(&i) {
                                legal.push(i);
                            }
                        }
                    }
                    Some(e) => {
                        first_error.get_or_insert((text, e));
                    }
                }
                continue;
            }
        }
        // A move is at most four paths of a few points: anything longer is
        // not one, and the rules are asked a bounded number of times (each
        // asks for every legal move of the roll).
        if items.len() > MAX_ITEMS {
            continue;
        }
        for text in move_texts(&items, 64) {
            if budget == 0 {
                break;
            }
            budget -= 1;
            // While a resignation waits, no move (004 4.3 (ii) (g)).
            let resolved = match m.resolve(&text) {
                Ok(_)
                | Err(ActionError::Move(tandem_rules::backgammon::MoveError::Ambiguous(_)))
                    if m.resign_offer().is_some() =>
                {
                    Err(ActionError::ResignPending)
                }
                r => r,
            };
            match resolved {
                Ok(p) => {
                    let i = g.inputs.iter().position(|x| *x == BgInput::Play(p));
                    if let Some(i) = i.filter(|i| !legal.contains(i)) {
                        legal.push(i);
                    }
                }
                Err(ActionError::Move(tandem_rules::backgammon::MoveError::Parse(_))) => {}
                // Several legal moves fit the points said (a hit on either
                // way): each is a candidate.
                Err(ActionError::Move(tandem_rules::backgammon::MoveError::Ambiguous(texts))) => {
                    for (i, input) in g.inputs.iter().enumerate() {
                        if texts.contains(&input.text(m)) && !legal.contains(&i) {
                            legal.push(i);
                        }
                    }
                }
                Err(e) => {
                    let e = match (m.phase(), e) {
                        _ if m.resign_offer().is_some() => ActionError::ResignPending,
                        (Phase::DoubleOffered, _) => ActionError::DoublePending,
                        (Phase::Opening, _) => ActionError::NoGame,
                        (_, e) => e,
                    };
                    if text.split(' ').all(|p| p.matches('/').count() == 1) {
                        pair_error.get_or_insert((text.clone(), e));
                    } else {
                        first_error.get_or_insert((text.clone(), e));
                    }
                }
            }
        }
    }
    match legal.as_slice() {
        [i] => BgHeard::Move {
            text: g.inputs[*i].text(m),
            confidence: round2(conf),
            transcript,
            input: g.inputs[*i],
        },
        [] => match pair_error.or(first_error) {
            Some((text, e)) => illegal(lex, text, e, transcript),
            None => BgHeard::Unknown { transcript },
        },
        many => ambiguous(
            g,
            lex,
            many.iter().map(|&i| g.inputs[i]).collect(),
            transcript,
        ),
    }
}
