//! The words a phrasebook gives speech input (`[listen]`): the commands a
//! player can speak, the typical mis-hearings, how squares are said.

use std::collections::BTreeMap;

use super::{PhrasebookError, Tab};

/// A command a player can speak (the words are in `[listen.commands]`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum CommandWord {
    /// Read the clock (001 ch. VIII 5.1).
    Clock,
    /// Read the position.
    Position,
    /// Repeat the last move.
    LastMove,
    /// Repeat the last message.
    Repeat,
    /// Say what stands on square N ("pole N").
    Square,
    /// The other board has been brought up to date.
    Done,
    /// Confirm.
    Yes,
    /// Deny.
    No,
    /// Offer or accept a draw.
    Draw,
    /// Resign.
    Resign,
    /// What can be said.
    Help,
    /// Cancel what is being entered.
    Cancel,
    /// Chess: claim a draw (002 art. 9.2, 9.3). Optional in a phrasebook.
    ClaimDraw,
    /// Read the last moves of the record ("zapis"). Optional, as the
    /// record's other words.
    Record,
    /// Read the record from move N ("zapis od N").
    RecordFrom,
    /// Read move N and open the review at it ("ruch N").
    MoveNumber,
    /// The review one move on ("dalej").
    Next,
    /// The review one move back ("wstecz").
    Back,
    /// Close the review ("wróć do gry").
    Live,
}

impl CommandWord {
    /// Every command, in a fixed order.
    pub const ALL: [CommandWord; 19] = [
        CommandWord::Clock,
        CommandWord::Position,
        CommandWord::LastMove,
        CommandWord::Repeat,
        CommandWord::Square,
        CommandWord::Done,
        CommandWord::Yes,
        CommandWord::No,
        CommandWord::Draw,
        CommandWord::Resign,
        CommandWord::Help,
        CommandWord::Cancel,
        CommandWord::ClaimDraw,
        CommandWord::Record,
        CommandWord::RecordFrom,
        CommandWord::MoveNumber,
        CommandWord::Next,
        CommandWord::Back,
        CommandWord::Live,
    ];

    /// Whether a phrasebook may leave the command out (written before it
    /// was added, or for a game without it).
    #[must_use]
    pub fn optional(self) -> bool {
        matches!(
            self,
            CommandWord::ClaimDraw
                | CommandWord::Record
                | CommandWord::RecordFrom
                | CommandWord::MoveNumber
                | CommandWord::Next
                | CommandWord::Back
                | CommandWord::Live
        )
    }

    /// The key in `[listen.commands]`.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            CommandWord::Clock => "clock",
            CommandWord::Position => "position",
            CommandWord::LastMove => "last_move",
            CommandWord::Repeat => "repeat",
            CommandWord::Square => "square",
            CommandWord::Done => "done",
            CommandWord::Yes => "yes",
            CommandWord::No => "no",
            CommandWord::Draw => "draw",
            CommandWord::Resign => "resign",
            CommandWord::Help => "help",
            CommandWord::ClaimDraw => "claim_draw",
            CommandWord::Cancel => "cancel",
            CommandWord::Record => "record",
            CommandWord::RecordFrom => "record_from",
            CommandWord::MoveNumber => "move_number",
            CommandWord::Next => "next",
            CommandWord::Back => "back",
            CommandWord::Live => "live",
        }
    }
}

/// A typical mis-hearing (`[[listen.mishearings]]`): the recognizer wrote
/// `heard` where the player said `meant`.
#[derive(Debug, Clone, PartialEq)]
pub struct Mishearing {
    /// The word the recognizer wrote (lower case).
    pub heard: String,
    /// The word the player said (lower case).
    pub meant: String,
    /// How sure a match it still is: 0 (the same word) to 1 (unrelated).
    pub cost: f32,
}

/// The words speech input listens for (`[listen]`).
#[derive(Debug, Clone, PartialEq)]
pub struct ListenWords {
    /// Between the start and end of a move ("na", "to").
    pub to: Vec<String>,
    /// Between the start and end of a capture ("bije", "takes", "x").
    pub takes: Vec<String>,
    /// Before a start square in the genitive ("z").
    pub from: Vec<String>,
    /// Before the captured squares of an ambiguous capture ("zbijając").
    pub taking: Vec<String>,
    /// Every command's phrases.
    pub commands: BTreeMap<CommandWord, Vec<String>>,
    /// More ways to say the files a-h of 64-square draughts, besides
    /// `[squares]` (`[listen.files]`: `c = ["cé", "Cezar"]`); index 0 is a.
    pub files: [Vec<String>; 8],
    /// Typical mis-hearings and their costs (`[[listen.mishearings]]`).
    pub mishearings: Vec<Mishearing>,
    /// Compare transcripts syllable by syllable (`match = "syllables"`), for
    /// languages whose recognizers split words unpredictably (Korean);
    /// otherwise word by word (`match = "words"`, the default).
    pub match_syllables: bool,
}

/// How 64-square draughts squares are spoken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SquareStyle {
    /// As the variant writes them: numbers in international draughts,
    /// letter and rank in 64-square draughts ("ce trzy").
    #[default]
    Notation,
    /// 64-square with the names of FIDE annex E.2.1 ("Cesar trzy").
    AnnexE,
    /// Always the square number, also in 64-square draughts.
    Numbers,
}

/// A square's spoken forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SquareWords {
    /// As named: "trzydzieści dwa", "thirty-two", "ce trzy".
    pub nominative: String,
    /// After "z" ("trzydziestu dwóch"); the nominative where the language has
    /// no genitive list or the square has a letter.
    pub genitive: String,
}

/// `[[listen.mishearings]]`: `{ heard = "dwie", meant = "dwa", cost = 0.1 }`.
pub(super) fn parse_mishearings(listen_t: &Tab<'_>) -> Result<Vec<Mishearing>, PhrasebookError> {
    let Some(v) = listen_t.t.get("mishearings") else {
        return Ok(Vec::new());
    };
    let key = listen_t.full("mishearings");
    let bad = |i: usize, reason: &str| PhrasebookError::Invalid {
        key: format!("{key}[{}]", i + 1),
        reason: reason.to_owned(),
    };
    let toml::Value::Array(a) = v else {
        return Err(listen_t.invalid("mishearings", "must be a list of tables"));
    };
    let mut out = Vec::with_capacity(a.len());
    for (i, e) in a.iter().enumerate() {
        let toml::Value::Table(t) = e else {
            return Err(bad(i, "must be a table { heard, meant, cost }"));
        };
        let word = |k: &str| match t.get(k) {
            Some(toml::Value::String(w)) if w.split_whitespace().count() == 1 => {
                Ok(w.trim().to_lowercase())
            }
            _ => Err(bad(i, &format!("`{k}` must be one word"))),
        };
        let cost = match t.get("cost") {
            Some(toml::Value::Float(f)) => *f,
            Some(toml::Value::Integer(n)) => *n as f64,
            _ => return Err(bad(i, "`cost` must be a number from 0 to 1")),
        };
        if !(0.0..=1.0).contains(&cost) {
            return Err(bad(i, "`cost` must be a number from 0 to 1"));
        }
        out.push(Mishearing {
            heard: word("heard")?,
            meant: word("meant")?,
            cost: cost as f32,
        });
    }
    Ok(out)
}
