//! The words a phrasebook gives speech input (`[listen]`): the commands a
//! player can speak, the typical mis-hearings, how squares are said.

use std::collections::BTreeMap;

/// A command a player can speak: its words are in a phrasebook's
/// `[listen.commands]` under [`CommandKind::key`]; JSON and data files name it
/// [`CommandKind::name`] (`last-move`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum CommandKind {
    /// Read the clock (001 ch. VIII 5.1).
    Clock,
    /// Read the position.
    Position,
    /// Repeat the last move.
    LastMove,
    /// Repeat the last message.
    Repeat,
    /// Say what stands on square N.
    Square,
    /// The other board has been brought up to date.
    Done,
    /// Confirm.
    Yes,
    /// Deny.
    No,
    /// Offer or accept a draw.
    Draw,
    /// Resign the game.
    Resign,
    /// List what can be said.
    Help,
    /// Cancel what is being entered.
    Cancel,
    /// Chess: claim a draw (002 art. 9.2, 9.3).
    ClaimDraw,
    /// Read the last moves of the record.
    Record,
    /// Read the record from move N.
    RecordFrom,
    /// Read move N and open the review there.
    MoveNumber,
    /// The review one move on.
    Next,
    /// The review one move back.
    Back,
    /// Close the review.
    Live,
}

/// Every command in order, with its name (data files, JSON) and its key
/// in `[listen.commands]`.
const COMMANDS: [(CommandKind, &str, &str); 19] = [
    (CommandKind::Clock, "clock", "clock"),
    (CommandKind::Position, "position", "position"),
    (CommandKind::LastMove, "last-move", "last_move"),
    (CommandKind::Repeat, "repeat", "repeat"),
    (CommandKind::Square, "square", "square"),
    (CommandKind::Done, "done", "done"),
    (CommandKind::Yes, "yes", "yes"),
    (CommandKind::No, "no", "no"),
    (CommandKind::Draw, "draw", "draw"),
    (CommandKind::Resign, "resign", "resign"),
    (CommandKind::Help, "help", "help"),
    (CommandKind::Cancel, "cancel", "cancel"),
    (CommandKind::ClaimDraw, "claim-draw", "claim_draw"),
    (CommandKind::Record, "record", "record"),
    (CommandKind::RecordFrom, "record-from", "record_from"),
    (CommandKind::MoveNumber, "move-number", "move_number"),
    (CommandKind::Next, "next", "next"),
    (CommandKind::Back, "back", "back"),
    (CommandKind::Live, "live", "live"),
];

impl CommandKind {
    /// Every command.
    pub const ALL: [CommandKind; 19] = {
        let mut all = [CommandKind::Clock; 19];
        let mut i = 0;
        while i < all.len() {
            all[i] = COMMANDS[i].0;
            i += 1;
        }
        all
    };

    /// Whether the command is followed by a number (a square, a move number).
    #[must_use]
    pub fn takes_number(self) -> bool {
        matches!(
            self,
            CommandKind::Square | CommandKind::RecordFrom | CommandKind::MoveNumber
        )
    }

    /// The name used in data files and JSON (`last-move`).
    #[must_use]
    pub fn name(self) -> &'static str {
        COMMANDS.iter().find(|c| c.0 == self).map_or("", |c| c.1)
    }
}

impl std::fmt::Display for CommandKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl CommandKind {
    /// Whether a phrasebook may leave the command out (written before it
    /// was added, or for a game without it).
    #[must_use]
    pub fn optional(self) -> bool {
        matches!(
            self,
            CommandKind::ClaimDraw
                | CommandKind::Record
                | CommandKind::RecordFrom
                | CommandKind::MoveNumber
                | CommandKind::Next
                | CommandKind::Back
                | CommandKind::Live
        )
    }

    /// The key in `[listen.commands]`.
    #[must_use]
    pub fn key(self) -> &'static str {
        COMMANDS.iter().find(|c| c.0 == self).map_or("", |c| c.2)
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
    pub commands: BTreeMap<CommandKind, Vec<String>>,
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
