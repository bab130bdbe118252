//! [`Utterance`] and [`Priority`]: what to say and how urgently, with no
//! backend types (NVDA keeps speech sequences apart from synth drivers the
//! same way: `source/speech/priorities.py`).

use std::fmt;

/// How urgently an utterance must be spoken, as screen readers have it.
///
/// Ordered: `Normal < Next < Now`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// Queued behind everything else, in order.
    Normal,
    /// Spoken as soon as the current utterance ends, before queued `Normal` ones.
    Next,
    /// Interrupts what is being said at once (a flag fall, boards that differ,
    /// the answer to the player's own input). What it interrupts is spoken
    /// again afterwards, from its start, so no announcement is lost.
    Now,
}

impl Priority {
    /// `"normal"`, `"next"`, `"now"`: the name in golden files and JSON.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Priority::Normal => "normal",
            Priority::Next => "next",
            Priority::Now => "now",
        }
    }
}

impl fmt::Display for Priority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What an utterance is about (for logs, JSON, and for a listener that wants
/// to repeat "the last move").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Kind {
    /// A move was played.
    Move,
    /// A move read back for confirmation, or the answer to it.
    Confirm,
    /// Whose move it is.
    Turn,
    /// A clock report.
    Clock,
    /// A low-time warning or a flag fall.
    Warning,
    /// An input was refused, with the reason.
    Rejection,
    /// A draw-rule counter.
    Draw,
    /// The game ended.
    GameEnd,
    /// The two boards: one behind, in sync, different, resumed.
    Sync,
    /// A square or the position read out.
    Describe,
    /// Help.
    Help,
}

/// Something to say: one or more sentences, each ending in punctuation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Utterance {
    /// How urgently.
    pub priority: Priority,
    /// What it is about.
    pub kind: Kind,
    /// The sentences, in order.
    pub sentences: Vec<String>,
}

impl Utterance {
    /// An utterance of the given sentences.
    #[must_use]
    pub fn new(priority: Priority, kind: Kind, sentences: Vec<String>) -> Utterance {
        Utterance {
            priority,
            kind,
            sentences,
        }
    }

    /// The whole text: the sentences joined by spaces.
    ///
    /// ```
    /// use tandem_speech::{Kind, Priority, Utterance};
    /// let u = Utterance::new(Priority::Next, Kind::Move, vec!["A.".into(), "B.".into()]);
    /// assert_eq!(u.text(), "A. B.");
    /// ```
    #[must_use]
    pub fn text(&self) -> String {
        self.sentences.join(" ")
    }

    /// The golden-file line: `SPEECH[next]: text`.
    #[must_use]
    pub fn golden_line(&self) -> String {
        format!("SPEECH[{}]: {}", self.priority, self.text())
    }
}

impl fmt::Display for Utterance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}
