//! How `tandem hear` and `tandem voice` listen in one position ([`Ear`]) and what they made of
//! an utterance ([`Verdict`]): shared by one recording and a batch.

use tandem_speech::listen::Transcript;

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
