//! How `tandem hear` and `tandem voice` listen in one position ([`Ear`])
//! and what they made of an utterance ([`Verdict`]): shared by one
//! recording and a batch. Each game builds its ear in its folder
//! (`games/<game>/ear.rs`) from an [`EarRequest`]; the registry
//! (`GameKind::ear`) picks the game.

use std::path::Path;

use tandem_speech::ask::AskPhrase;
use tandem_speech::listen::{CommandHeard, Transcript};

/// What to listen in, as the command line gives it (`tandem hear`).
#[derive(Debug, Clone, Copy)]
pub struct EarRequest<'a> {
    /// The language of the built-in words (`--lang`).
    pub lang: &'a str,
    /// The game's phrasebook file (`--phrasebook`), instead of the built-in words.
    pub phrasebook: Option<&'a Path>,
    /// The position as FEN (`--fen`).
    pub fen: Option<&'a str>,
    /// The position as the game writes it otherwise (`--position`: a
    /// backgammon Position ID).
    pub position: Option<&'a str>,
    /// The dice rolled (`--dice`, backgammon).
    pub dice: Option<&'a str>,
}

/// What one utterance was understood as.
pub struct Verdict {
    /// The JSON object of `--json`.
    pub json: String,
    /// The line printed without `--json`.
    pub line: String,
    /// A move or a command (not an ambiguity, an illegal move or nothing).
    pub understood: bool,
    /// The short form `--batch` compares with the expected one: the move's
    /// notation (`32-28`, `Nf3`), the command's name (`clock`, `square 23`),
    /// `A or B` (ambiguous), `illegal 32-26`, or the transcript in quotes when
    /// nothing was understood (empty when nothing was heard).
    pub label: String,
}

/// Understands the transcripts of one utterance.
pub type Judge = Box<dyn Fn(&[Transcript]) -> anyhow::Result<Verdict>>;

/// How tandem listens in one position: the phrases and words for the
/// recognizer, and how transcripts are understood.
pub struct Ear {
    /// The language of the words (for finding the model).
    pub lang: String,
    /// The recognizer's grammar.
    pub phrases: Vec<String>,
    /// Every word listened for (checked against the model's vocabulary).
    pub words: Vec<String>,
    /// Understands the transcripts of one utterance.
    pub judge: Judge,
    /// An expected answer of a labels file in [`Verdict::label`]'s form
    /// (`3228` -> `32-28`, `e4` -> `e4`, `clock` -> `clock`).
    pub normalize: Box<dyn Fn(&str) -> String>,
}

impl Ear {
    /// An ear from its parts (see the fields).
    #[must_use]
    pub fn new(
        lang: String,
        phrases: Vec<String>,
        words: Vec<String>,
        judge: impl Fn(&[Transcript]) -> anyhow::Result<Verdict> + 'static,
        normalize: impl Fn(&str) -> String + 'static,
    ) -> Ear {
        Ear {
            lang,
            phrases,
            words,
            judge: Box::new(judge),
            normalize: Box::new(normalize),
        }
    }
}

/// A transcript in quotes (empty when nothing was heard).
#[must_use]
pub fn quoted_transcript(t: &str) -> String {
    if t.trim().is_empty() {
        String::new()
    } else {
        format!("{t:?}")
    }
}

/// An ear that hears the questions about the board first, exactly
/// (`{"kind": "query", "query": "opponent knights", ...}`): a question is
/// never a move, and no move phrase is a question's. `questions` are the
/// built-in ones of the words' language: none for a language without
/// built-in words, such as a `--phrasebook` of its own.
#[must_use]
pub fn asking(mut ear: Ear, questions: Vec<AskPhrase>) -> Ear {
    let unk = ear.phrases.iter().position(|p| p == "[unk]");
    let said: Vec<String> = questions
        .iter()
        .map(|q| q.words.join(" "))
        .filter(|q| !ear.phrases.contains(q))
        .collect();
    let at = unk.unwrap_or(ear.phrases.len());
    ear.phrases.splice(at..at, said);
    let mut words: std::collections::BTreeSet<String> = ear.words.drain(..).collect();
    words.extend(questions.iter().flat_map(|q| q.words.iter().cloned()));
    ear.words = words.into_iter().collect();
    let inner = ear.judge;
    ear.judge = Box::new(move |t: &[Transcript]| {
        for tr in t {
            if let Some(q) = tandem_speech::ask::heard_question(&questions, &tr.text) {
                let confidence = (f64::from(tr.confidence.clamp(0.0, 1.0)) * 100.0).round() / 100.0;
                return Ok(Verdict {
                    json: serde_json::json!({
                        "kind": "query",
                        "query": q,
                        "confidence": confidence,
                        "transcript": tr.text,
                    })
                    .to_string(),
                    line: format!(
                        "question {q} (confidence {confidence:.2}; heard {:?})",
                        tr.text
                    ),
                    understood: true,
                    label: format!("ask {q}"),
                });
            }
        }
        inner(t)
    });
    ear
}

/// The line of a command heard in any game.
#[must_use]
pub fn describe_command(h: &CommandHeard) -> String {
    match h {
        CommandHeard::Command {
            command,
            square: Some(n),
            confidence,
            ..
        } => format!("command {command} {n} (confidence {confidence:.2})"),
        CommandHeard::Command {
            command,
            confidence,
            ..
        } => format!("command {command} (confidence {confidence:.2})"),
        query @ CommandHeard::Query { .. } => format!("{query:?}"),
    }
}

/// [`Verdict::label`] of a command heard in any game.
#[must_use]
pub fn command_label(h: &CommandHeard) -> String {
    match h {
        CommandHeard::Command { .. } => h.fields().1,
        query @ CommandHeard::Query { .. } => format!("{query:?}"),
    }
}
