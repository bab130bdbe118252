//! What the one-shot commands ask of any game, and the shape of each game's
//! answer: `tandem moves` ([`MovesAsked`]), `tandem say` ([`SayAsked`],
//! [`Said`]) and `tandem pdn check` ([`RecordReport`]). Each game answers
//! in its folder (`crate::games::<game>::one_shot`), chosen by the registry
//! ([`crate::game::GameKind::list_moves`], `say`, `check_records`);
//! `crate::cmd::*` parses the arguments and prints. `tandem perft` has its
//! own ([`crate::perft_count`]).

use std::path::Path;

use serde_json::json;
use tandem_rules::record::{Replay, Warning};
use tandem_rules::TableGame;

use crate::interface::{Game, Refused};

/// `tandem moves`: the position, each game reading what is its own.
#[derive(Debug, Clone, Copy, Default)]
pub struct MovesAsked<'a> {
    /// `--fen`: the position as its game's text (draughts, chess).
    pub fen: Option<&'a str>,
    /// `--position`: a Position ID (backgammon).
    pub position: Option<&'a str>,
    /// `--dice`: the roll (backgammon).
    pub dice: Option<&'a str>,
}

/// `tandem say`: a move to announce, in a position, in a language.
#[derive(Debug, Clone, Copy)]
pub struct SayAsked<'a> {
    /// The move as written.
    pub mv: &'a str,
    /// `--fen`: the position before it (its game's text; the start when left out).
    pub fen: Option<&'a str>,
    /// `--lang`: a language with data, the built-in phrasebook.
    pub lang: &'a str,
    /// `--phrasebook`: a phrasebook file instead of the built-in one.
    pub phrasebook: Option<&'a Path>,
    /// `--files letters`: chess files as letters rather than annex E's names.
    pub letters: bool,
    /// `--dice`: the roll the move is played with, entered before it.
    pub dice: Option<&'a str>,
}

/// What `tandem say` worked out, in any game.
#[derive(Debug, Clone)]
pub struct Said {
    /// The announcement (or the refusal, in the same words).
    pub utterance: tandem_speech::Utterance,
    /// The move in strict notation (SAN for chess), if legal.
    pub played: Option<String>,
    /// Why the move was refused.
    pub error: Option<String>,
    /// The game's name.
    pub variant: &'static str,
    /// The position before the move, in its game's text.
    pub fen: String,
    /// The phrasebook's language.
    pub lang: String,
    /// The espeak-ng voice for `--wav`.
    pub voice: String,
    /// A game's own JSON fields beside the common ones (chess: `uci`).
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// `tandem say` through the game at the table (a game whose words are
/// only its table's: the roll, if any, entered and said first, then the
/// move's announcement). `fen` is the start's position text. A roll the
/// rules refuse is refused like a move.
///
/// # Errors
/// The game takes no roll and `--dice` was given.
pub fn said_at_the_table(
    game: &mut dyn Game,
    fen: String,
    asked: &SayAsked,
) -> anyhow::Result<Said> {
    let refused = |r: Refused| (r.say, None, Some(r.reason));
    let roll = match asked.dice {
        Some(d) => match game.action(&format!("roll {d}")) {
            Some(Ok(a)) => {
                game.play_action(&a.text)?;
                Ok(Some(a.announce))
            }
            Some(Err(r)) => Err(r),
            None => anyhow::bail!("--dice {d:?}: this game takes no roll"),
        },
        None => Ok(None),
    };
    let (utterance, played, error) = match roll {
        Err(r) => refused(r),
        Ok(roll) => match game.prepare(asked.mv) {
            Ok(p) => {
                let mut u = p.announce;
                if let Some(r) = roll {
                    let mut sentences = r.sentences;
                    sentences.append(&mut u.sentences);
                    u.sentences = sentences;
                }
                (u, Some(p.text), None)
            }
            Err(r) => refused(r),
        },
    };
    Ok(Said {
        utterance,
        played,
        error,
        variant: game.kind().name(),
        fen,
        lang: asked.lang.to_owned(),
        voice: asked.lang.to_owned(),
        extra: serde_json::Map::new(),
    })
}

/// One game of a record file checked by `tandem pdn check`, whatever the format.
#[derive(Debug, Clone)]
pub struct RecordReport {
    /// The line where the game starts.
    pub line: usize,
    /// `White - Black`.
    pub players: String,
    /// The status fields of the JSON object (`status`, `plies`, `ply`, `move`, ...).
    pub fields: serde_json::Map<String, serde_json::Value>,
    /// Whether every move was legal.
    pub ok: bool,
    /// `ok (N plies)`, `illegal move ...`, `unreadable: ...`.
    pub text: String,
    /// What the reader skipped or repaired.
    pub warnings: Vec<Warning>,
}

/// What replaying one game of a record came to, in any game: what a
/// [`RecordReport`]'s status fields are made from.
#[derive(Debug, Clone)]
pub enum Replayed<'a> {
    /// Every move was legal.
    Ok {
        /// Plies played.
        plies: usize,
    },
    /// A move the rules refuse.
    Illegal {
        /// Its ply, from 1.
        ply: usize,
        /// The move as written.
        text: &'a str,
        /// Why the rules refuse it.
        reason: String,
        /// The position it was refused in, as the game writes positions.
        fen: String,
        /// The record's line the move is on.
        move_line: usize,
    },
    /// The game does not read.
    Unreadable(&'a str),
}

impl Said {
    /// `tandem say`'s answer in `variant` from `fen` (as the game writes
    /// positions): the announcement or the refusal, the move played, why it
    /// was refused; in a phrasebook's language with its espeak-ng voice.
    #[must_use]
    pub fn new(
        variant: &'static str,
        fen: String,
        (utterance, played, error): (tandem_speech::Utterance, Option<String>, Option<String>),
        (lang, voice): (&str, &str),
    ) -> Said {
        Said {
            utterance,
            played,
            error,
            variant,
            fen,
            lang: lang.to_owned(),
            voice: voice.to_owned(),
            extra: serde_json::Map::new(),
        }
    }
}

impl<'a> Replayed<'a> {
    /// What a game's replay came to, as the report tells it: a refused
    /// move with the position it was refused in (as the game writes
    /// positions) and its line in the record (`move_line` of its ply).
    pub fn of<G: TableGame, E: std::fmt::Display>(
        r: &'a Replay<G, E>,
        move_line: impl Fn(usize) -> usize,
    ) -> Replayed<'a> {
        match r {
            Replay::Ok(game) => Replayed::Ok {
                plies: game.plies(),
            },
            Replay::Illegal {
                ply,
                text,
                reason,
                game,
            } => Replayed::Illegal {
                ply: *ply,
                text,
                reason: reason.to_string(),
                fen: game.position_text(),
                move_line: move_line(*ply),
            },
            Replay::Unreadable(why) => Replayed::Unreadable(why),
        }
    }
}

impl RecordReport {
    /// The reports of a record file's games, one a game (`report`); one
    /// that says so for a file with no game.
    pub fn each<G>(
        file: tandem_rules::record::RecordFile<G>,
        report: impl FnMut(G) -> RecordReport,
    ) -> Vec<RecordReport> {
        if file.games.is_empty() {
            return vec![RecordReport::no_game(file.warnings)];
        }
        file.games.into_iter().map(report).collect()
    }

    /// One game's report: where it starts, who played, what its replay came
    /// to and in words (`text`), and what the reader skipped or repaired.
    #[must_use]
    pub fn new(
        line: usize,
        (white, black): (Option<&str>, Option<&str>),
        replayed: &Replayed<'_>,
        text: String,
        warnings: Vec<Warning>,
    ) -> RecordReport {
        let v = match replayed {
            Replayed::Ok { plies } => {
                json!({"status": "ok", "plies": plies, "ply": null, "move": null, "reason": null})
            }
            Replayed::Illegal {
                ply,
                text,
                reason,
                fen,
                move_line,
            } => json!({
                "status": "illegal", "ply": ply, "move": text, "reason": reason,
                "fen": fen, "move_line": move_line,
            }),
            Replayed::Unreadable(why) => {
                json!({"status": "unreadable", "ply": null, "move": null, "reason": why})
            }
        };
        let serde_json::Value::Object(fields) = v else {
            unreachable!("a JSON object literal")
        };
        RecordReport {
            line,
            players: format!("{} - {}", white.unwrap_or("?"), black.unwrap_or("?")),
            fields,
            ok: matches!(replayed, Replayed::Ok { .. }),
            text,
            warnings,
        }
    }

    /// A file with no game: one unreadable report carrying the file's warnings.
    #[must_use]
    pub fn no_game(warnings: Vec<Warning>) -> RecordReport {
        let why = "no game found in the file";
        RecordReport::new(
            1,
            (None, None),
            &Replayed::Unreadable(why),
            format!("unreadable: {why}"),
            warnings,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameKind;

    /// `tandem say MV --dice 31 --lang en` in the game `kind`.
    fn say_31(kind: GameKind, mv: &str) -> Said {
        kind.say(&SayAsked {
            mv,
            fen: None,
            lang: "en",
            phrasebook: None,
            letters: false,
            dice: Some("31"),
        })
        .unwrap()
    }

    /// Every game of the registry lists its moves from the start, and
    /// `tandem say` reads each of them back as the same legal move, in the
    /// game's name: the two commands agree through the registry.
    #[test]
    fn every_move_a_game_lists_is_said_back_as_that_move() {
        for name in ["international", "sixty-four", "chess", "backgammon"] {
            let kind: GameKind = name.parse().unwrap();
            let moves = kind
                .list_moves(&MovesAsked {
                    dice: Some("31"),
                    ..MovesAsked::default()
                })
                .unwrap();
            assert!(moves.len() > 1, "{name}: {moves:?}");
            for m in &moves {
                let said = say_31(kind, m);
                assert_eq!(said.played.as_deref(), Some(m.as_str()), "{name}: {said:?}");
                assert_eq!((said.error, said.variant), (None, name));
                assert!(!said.utterance.text().is_empty(), "{name} {m}");
            }
        }
    }

    /// A move the rules refuse is said as a refusal in every game, with
    /// the reason, and nothing played.
    #[test]
    fn a_move_no_game_allows_is_refused_in_words() {
        for name in ["international", "sixty-four", "chess", "backgammon"] {
            let kind: GameKind = name.parse().unwrap();
            let said = say_31(kind, "1-1");
            assert_eq!(said.played, None, "{name}: {said:?}");
            assert!(said.error.is_some(), "{name}: {said:?}");
            assert!(!said.utterance.text().is_empty(), "{name}");
        }
    }
}
