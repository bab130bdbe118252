//! Requests to the session: commands from any input (typed lines, the
//! control socket, spoken commands, braille keys), what a new game is
//! started with. Plain data on a low floor, so that the
//! inputs that make requests (voice, control, screen) and the session that
//! answers them share one vocabulary without importing each other; the
//! session re-exports it (`crate::session::request`).

use std::time::Duration;

use serde::Serialize;
use tandem_rules::clock::TimeControl;
use tandem_rules::{Color, GameOptions};

use crate::kind::AnyPosition;

/// Which players cannot see the board (001 ch. VIII).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Blind {
    /// White is blind or visually impaired.
    #[default]
    White,
    /// Black is.
    Black,
    /// Both are.
    Both,
    /// Neither (tandem as a plain recorder and clock).
    None,
}

impl Blind {
    /// The name used in the journal and the config file.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Blind::White => "white",
            Blind::Black => "black",
            Blind::Both => "both",
            Blind::None => "none",
        }
    }

    /// The one blind side, if exactly one.
    #[must_use]
    pub fn side(self) -> Option<Color> {
        match self {
            Blind::White => Some(Color::White),
            Blind::Black => Some(Color::Black),
            _ => None,
        }
    }
}

/// What a new game is started with.
#[derive(Debug, Clone)]
pub struct GameSetup {
    /// The start position (of any game the registry knows, `crate::game`).
    pub start: AnyPosition,
    /// The time control.
    pub control: TimeControl,
    /// Warning thresholds (default 5 min, 1 min, 10 s).
    pub warnings: Vec<Duration>,
    /// Names.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// The event.
    pub event: Option<String>,
    /// The round in the event (`--round`), written in the journal's first line.
    pub round: Option<String>,
    /// Who is blind.
    pub blind: Blind,
    /// Speech language (`pl`, `en`).
    pub lang: String,
    /// Rule options.
    pub options: GameOptions,
}

/// What a draw command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawCmd {
    /// Offer a draw (after one's own move, 001 ch. II 5.1).
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline it.
    Decline,
    /// Claim a draw by repetition or fifty moves, where the game has such
    /// claims (002 art. 9.2, 9.3).
    Claim,
}

/// A request to the session, from any input.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Cmd {
    /// Play a move (loose text: `32-28`, `32 28`, `3228`, `28x19`).
    Move(String),
    /// A board is up to date (`None`: the one that is behind).
    Done(Option<Color>),
    /// What a board is missing (`None`: the blind player's, else the one behind).
    Missing(Option<Color>),
    /// The clock report (001 ch. VIII 5.1).
    Clock,
    /// Read the position.
    Position,
    /// The last move again.
    Last,
    /// The state as JSON (no speech).
    State,
    /// The boards differ; optionally the position one board shows (FEN).
    Mismatch(Option<String>),
    /// Stop the clock.
    Pause,
    /// Restart the clock.
    Resume,
    /// A draw offer or its answer; the side is the one that offers or answers.
    Draw(DrawCmd, Option<Color>),
    /// Resignation (`None`: the side to move).
    Resign(Option<Color>),
    /// Speak a text.
    Say(String),
    /// Help.
    Help,
    /// A command not understood (answered with an error, nothing changes).
    Unknown(String),
    /// Arbiter: set a side's remaining time, in seconds (001 ch. VIII 3.1.2).
    /// Refused unless the source is [`Source::Arbiter`](crate::journal::Source::Arbiter).
    ClockSet(Color, u64),
    /// Arbiter: take back the last N plies after a mismatch, and why (001 ch.
    /// VIII 3.1.2). Refused unless the source is [`Source::Arbiter`](crate::journal::Source::Arbiter).
    Takeback(u32, String),
    /// Voice input: the push-to-talk key (down, then up), or listening on/off.
    Listen,
    /// The desk's witness of the journal, to be written as a `witness` line
    /// (from the table's relay only: refused unless the source is
    /// [`Source::Arbiter`](crate::journal::Source::Arbiter)).
    Witness(Box<crate::journal::witness::Witness>),
    /// Read the record: from move FROM to move TO (to the last); with
    /// neither, the last `record-last` move pairs (issue 15).
    Record(Option<u32>, Option<u32>),
    /// Read move N and open the review at it (`move 12`).
    ReviewMove(u32),
    /// Open the review after this ply (a move routed on the braille record).
    ReviewPly(u32),
    /// The review one ply on.
    Next,
    /// The review one ply back (opens it at the last move).
    Back,
    /// Close the review: the live game again.
    Live,
    /// A question about the board (issue 23, `docs/ask.md`): `knights`,
    /// `opponent kings`, `file e`, `row 5`, `point 8`, or the phrasebook's
    /// words for one.
    Ask(String),
    /// Words made outside the session (a device seat's pairing code: the
    /// table's input line, `tandem ctl --seat SIDE pair SIDE`), said as an
    /// answer. Never read from a typed or spoken line.
    Tell(Box<Tell>),
    /// Say again what the asking seat last heard (the table's own channel:
    /// what the table's output last said): never another seat's words.
    Repeat,
    /// A device became a seat, or is one no more (`devices::pairing`):
    /// journaled, said to that seat and shown. From tandem itself only
    /// ([`Source::Tandem`](crate::journal::Source::Tandem)); never read
    /// from a typed or spoken line.
    Device(DeviceChange),
}

/// A device paired to a seat, or unpaired from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceChange {
    /// Whose seat.
    pub side: Color,
    /// The device's address as the table saw it.
    pub address: String,
    /// Paired (else unpaired).
    pub paired: bool,
}

/// Words made outside the session, in each language it may speak, said to
/// whom they are for: the asking seat alone; else the table's own output
/// and [`Tell::side`]'s seat (never the other side's: a pairing code is
/// that side's). The journal records [`TellWords::journaled`], not the
/// words themselves (a code said is never written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tell {
    /// The words, one for each language there are words in (`en`, `pl`);
    /// a language without its own is said in the first's.
    pub words: Vec<TellWords>,
    /// The side the words are about, when they are for that seat alone.
    pub side: Option<Color>,
    /// A refusal (the request was not carried out: said as one).
    pub refusal: bool,
    /// What was asked (a refusal's journal line names it).
    pub input: String,
    /// The words are [`Tell::side`]'s secret (a pairing code): said only
    /// on that seat's own outputs (its earphone, its braille display, its
    /// device) and shown on the operator's screen, never on the table's
    /// own loudspeaker, which the other player hears too.
    pub private: bool,
}

/// [`Tell`]'s words in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TellWords {
    /// `en`, `pl`.
    pub lang: String,
    /// What is said.
    pub text: String,
    /// What the journal's `announced` line records of it.
    pub journaled: String,
}

impl Tell {
    /// The words for `lang`, else the first.
    #[must_use]
    pub fn words_in(&self, lang: &str) -> Option<&TellWords> {
        self.words
            .iter()
            .find(|w| w.lang == lang)
            .or_else(|| self.words.first())
    }
}

/// Every language's typed words (`assistant/data/commands/LANG.toml`):
/// each word (lower case) and the command it names.
fn command_words() -> &'static std::collections::HashMap<String, &'static str> {
    type Words = std::collections::BTreeMap<String, Vec<String>>;
    static ALL: std::sync::OnceLock<std::collections::HashMap<String, &'static str>> =
        std::sync::OnceLock::new();
    static READ: crate::lang::Cache<Words> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = std::collections::HashMap::new();
        for lang in crate::lang::known() {
            let Some(words) = crate::lang::words(&READ, "commands", lang) else {
                continue;
            };
            for (command, said) in words {
                for w in said {
                    all.entry(w.to_lowercase()).or_insert(command.as_str());
                }
            }
        }
        all
    })
}

/// The command a typed word names (`clock`, `draw_accept`, `white`: the
/// keys of assistant/data/commands/en.toml), in any language with data.
pub(crate) fn command_word(word: &str) -> Option<&'static str> {
    command_words().get(&word.trim().to_lowercase()).copied()
}

pub(crate) fn parse_side(s: &str) -> Option<Color> {
    match command_word(s)? {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

impl Cmd {
    /// Whether this is the arbiter's action (`clock set`, `takeback`):
    /// only with the arbiter's secret, never from a seat's device.
    #[must_use]
    pub fn is_arbiters(&self) -> bool {
        matches!(
            self,
            Cmd::ClockSet(..) | Cmd::Takeback(..) | Cmd::Witness(_)
        )
    }

    /// A line typed on the screen or stdin: a command word (of any language
    /// with data, [`command_word`]) or else a move.
    #[must_use]
    pub fn parse_line(line: &str) -> Cmd {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let side = || {
            if rest.is_empty() {
                Ok(None)
            } else {
                parse_side(rest).map(Some).ok_or(())
            }
        };
        match command_word(word).unwrap_or_default() {
            "clock" if rest.is_empty() => Cmd::Clock,
            "position" if rest.is_empty() => Cmd::Position,
            "last" if rest.is_empty() => Cmd::Last,
            "state" if rest.is_empty() => Cmd::State,
            "help" if rest.is_empty() => Cmd::Help,
            "listen" if rest.is_empty() => Cmd::Listen,
            "pause" if rest.is_empty() => Cmd::Pause,
            "resume" if rest.is_empty() => Cmd::Resume,
            "done" => side().map_or_else(|()| Cmd::Unknown(line.into()), Cmd::Done),
            "missing" => side().map_or_else(|()| Cmd::Unknown(line.into()), Cmd::Missing),
            "resign" => side().map_or_else(|()| Cmd::Unknown(line.into()), Cmd::Resign),
            "mismatch" => Cmd::Mismatch((!rest.is_empty()).then(|| rest.to_owned())),
            "say" => Cmd::Say(rest.to_owned()),
            "repeat" if rest.is_empty() => Cmd::Repeat,
            "ask" => Cmd::Ask(rest.to_owned()),
            "record" => parse_record(rest).unwrap_or_else(|| Cmd::Unknown(line.into())),
            // `move 12`: a move number (a move itself is never one number).
            "move" if rest.parse::<u32>().is_ok() => {
                Cmd::ReviewMove(rest.parse().unwrap_or_default())
            }
            "next" if rest.is_empty() => Cmd::Next,
            "back" if rest.is_empty() => Cmd::Back,
            "live" if rest.is_empty() => Cmd::Live,
            "draw" => {
                let mut it = rest.split_whitespace();
                let what = match it.next().map(command_word) {
                    Some(Some("draw_offer")) | None => Some(DrawCmd::Offer),
                    Some(Some("draw_accept")) => Some(DrawCmd::Accept),
                    Some(Some("draw_decline")) => Some(DrawCmd::Decline),
                    Some(Some("draw_claim")) => Some(DrawCmd::Claim),
                    _ => None,
                };
                let side = it.next().map(parse_side);
                match (what, side) {
                    (Some(w), None) => Cmd::Draw(w, None),
                    (Some(w), Some(Some(c))) => Cmd::Draw(w, Some(c)),
                    _ => Cmd::Unknown(line.into()),
                }
            }
            _ => Cmd::Move(line.to_owned()),
        }
    }
}

/// The arguments of `record`: none, `FROM`, `FROM TO`, also `od FROM`
/// / `from FROM` (as spoken). `None`: not that.
#[must_use]
pub fn parse_record(rest: &str) -> Option<Cmd> {
    let words: Vec<&str> = rest
        .split_whitespace()
        .filter(|w| !matches!(command_word(w), Some("record_from" | "record_to")))
        .collect();
    let n = |w: &str| w.parse::<u32>().ok().filter(|n| *n >= 1);
    match words.as_slice() {
        [] => Some(Cmd::Record(None, None)),
        [f] => Some(Cmd::Record(Some(n(f)?), None)),
        [f, t] => Some(Cmd::Record(Some(n(f)?), Some(n(t)?))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_typed_word_names_two_commands_in_any_two_languages() {
        type Words = std::collections::BTreeMap<String, Vec<String>>;
        let mut seen: std::collections::HashMap<String, (String, &str)> = Default::default();
        for lang in crate::lang::known() {
            let words: Words =
                toml::from_str(crate::lang::text("commands", lang).unwrap()).unwrap();
            for (command, said) in words {
                for w in said {
                    let w = w.to_lowercase();
                    if let Some((other, l)) = seen.get(&w) {
                        assert_eq!(
                            other, &command,
                            "{w:?} is {command} in {lang} and {other} in {l}"
                        );
                    }
                    seen.insert(w, (command.clone(), lang));
                }
            }
        }
    }

    #[test]
    fn typed_lines_in_polish_and_english() {
        assert_eq!(Cmd::parse_line("clock"), Cmd::Clock);
        assert_eq!(Cmd::parse_line("Zegar"), Cmd::Clock);
        assert_eq!(Cmd::parse_line("done white"), Cmd::Done(Some(Color::White)));
        assert_eq!(
            Cmd::parse_line("gotowe czarne"),
            Cmd::Done(Some(Color::Black))
        );
        assert_eq!(
            Cmd::parse_line("remis przyjmuję b"),
            Cmd::Draw(DrawCmd::Accept, Some(Color::Black))
        );
        assert_eq!(
            Cmd::parse_line("record from 3 to 5"),
            Cmd::Record(Some(3), Some(5))
        );
        assert_eq!(
            Cmd::parse_line("zapis od 3 do 5"),
            Cmd::Record(Some(3), Some(5))
        );
        assert_eq!(Cmd::parse_line("ruch 12"), Cmd::ReviewMove(12));
        assert_eq!(Cmd::parse_line("32-28"), Cmd::Move("32-28".into()));
        assert_eq!(
            Cmd::parse_line("done green"),
            Cmd::Unknown("done green".into())
        );
    }
}
