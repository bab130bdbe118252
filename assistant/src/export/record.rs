//! The game's record as the documents show it (`tandem export`): the
//! heading (event, round, table, date, players, result) and every move
//! numbered with its clock times, read from a journal. What is game-specific
//! (the game's name, the moves in words) is asked of the game in one place
//! ([`GameRecord::spoken`], [`GameRecord::game_name`]); backgammon adds its
//! arms there.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use tandem_rules::GameOptions;
use tandem_rules::{Color, Outcome};
use tandem_speech::{Phrasebook, Value};

use crate::interface::Game;
use crate::journal::Event;

/// The document's language: the words of headings and labels
/// (`assistant/data/record/LANG.toml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Labels {
    code: &'static str,
    words: &'static BTreeMap<String, String>,
}

impl Labels {
    /// The words of `lang` (English's for a language without data).
    #[must_use]
    pub fn new(lang: &str) -> Labels {
        let lang = lang.to_ascii_lowercase();
        let code = crate::lang::known()
            .into_iter()
            .find(|k| *k == lang)
            .unwrap_or(tandem_speech::languages::REFERENCE);
        Labels {
            code,
            words: crate::lang::sentences("record", code),
        }
    }

    /// The word of `key` (the key itself where a file lacks it: the tests
    /// check every language has every key).
    #[must_use]
    pub fn s(self, key: &'static str) -> &'static str {
        self.words.get(key).map_or(key, String::as_str)
    }

    /// The language code.
    #[must_use]
    pub fn code(self) -> &'static str {
        self.code
    }

    /// A game's title (`title_international`, `title_chess`, ...: the
    /// game's name on the command line).
    #[must_use]
    pub fn title(self, kind: crate::kind::GameKind) -> &'static str {
        let key = format!("title_{}", kind.name());
        self.words
            .get(&key)
            .map_or_else(|| kind.name(), String::as_str)
    }
}

/// What the command line adds to the journal's heading (it wins).
#[derive(Debug, Clone, Default)]
pub struct Heading {
    /// The event.
    pub event: Option<String>,
    /// The round.
    pub round: Option<String>,
    /// The table (board) number.
    pub table: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
}

/// One move of the record with its clock times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedMove {
    /// Ply, from 1.
    pub ply: usize,
    /// Who moved.
    pub side: Color,
    /// The move as tandem writes it (`32-28`, `28x19`; SAN `Nf3`).
    pub text: String,
    /// The mover's time left after the press (from the journal).
    pub left_ms: Option<u64>,
    /// The time the move took.
    pub move_ms: Option<u64>,
}

/// One line of a scoresheet: a move number with white's and black's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row<'a> {
    /// The move number.
    pub number: usize,
    /// White's move (none when black moved first).
    pub white: Option<&'a RecordedMove>,
    /// Black's move (none after white's last).
    pub black: Option<&'a RecordedMove>,
}

/// A game's record, ready for any document.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// The game replayed from the journal.
    pub game: Box<dyn Game>,
    /// The journal's language (`pl`, `en`): the default of the documents.
    pub lang: String,
    /// The event.
    pub event: Option<String>,
    /// The round.
    pub round: Option<String>,
    /// The table (board) number.
    pub table: Option<String>,
    /// The date the game began (`2026.05.02`).
    pub date: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// The time control as written at the start.
    pub control: String,
    /// The result as the game's record writes it (`2-0`, `1-0`, `*`).
    pub result: String,
    /// How the game ended.
    pub outcome: Option<Outcome>,
    /// The moves in order.
    pub moves: Vec<RecordedMove>,
    /// The plies the game stood at after the arbiter last took moves back
    /// (`Correction`), if the arbiter did.
    pub taken_back_to: Option<usize>,
}

/// A clock reading (`1:29:48`, `4:05`).
#[must_use]
pub fn clock(ms: u64) -> String {
    tandem_braille::view::format_clock(Some(Duration::from_millis(ms)))
}

impl GameRecord {
    /// Reads a journal: the game replayed, the heading, the clock times.
    ///
    /// # Errors
    /// The journal cannot be read, its chain is broken, or it is not a game.
    pub fn from_journal(path: &Path, heading: &Heading) -> anyhow::Result<GameRecord> {
        let super::ReadGame {
            journal: j,
            table,
            date,
        } = super::read_game(path)?;
        let info = &table.info;
        // Clock times per ply; a later move event for a ply (after the
        // arbiter took moves back) replaces it and what followed.
        let mut clocks: Vec<(u64, u64)> = Vec::new();
        // Plies played as the journal goes, for where a correction left the game.
        let mut plies = 0usize;
        let mut taken_back_to = None;
        for r in &j.records {
            if let Event::Move { ply, .. } = &r.event {
                plies = *ply as usize;
            }
            if let Event::Correction { plies: back, .. } = &r.event {
                plies = plies.saturating_sub(*back as usize);
                taken_back_to = Some(plies);
            }
            if let Event::Move {
                ply,
                side,
                move_ms,
                white_ms,
                black_ms,
                ..
            } = &r.event
            {
                clocks.truncate((*ply as usize).saturating_sub(1));
                let left = match side {
                    Color::White => *white_ms,
                    Color::Black => *black_ms,
                };
                clocks.push((left, *move_ms));
            }
        }
        let first = table.game.position_at(0).map_or(Color::White, |p| p.turn());
        let moves = table
            .game
            .move_texts()
            .into_iter()
            .enumerate()
            .map(|(i, text)| RecordedMove {
                ply: i + 1,
                side: if i % 2 == 0 { first } else { first.other() },
                text,
                left_ms: clocks.get(i).map(|c| c.0),
                move_ms: clocks.get(i).map(|c| c.1),
            })
            .collect();
        let outcome = table.game.outcome();
        Ok(GameRecord {
            result: table.game.result_text(outcome).to_owned(),
            outcome,
            lang: info.lang.clone(),
            event: heading.event.clone().or_else(|| info.event.clone()),
            round: heading.round.clone(),
            table: heading.table.clone(),
            date,
            white: heading.white.clone().or_else(|| info.white.clone()),
            black: heading.black.clone().or_else(|| info.black.clone()),
            control: info.control.clone(),
            moves,
            taken_back_to,
            game: table.game,
        })
    }

    /// The side that moved first.
    #[must_use]
    pub fn first_side(&self) -> Color {
        self.moves.first().map_or(Color::White, |m| m.side)
    }

    /// The moves by number, white's and black's on one row.
    #[must_use]
    pub fn rows(&self) -> Vec<Row<'_>> {
        let mut rows: Vec<Row<'_>> = Vec::new();
        let offset = usize::from(self.first_side() == Color::Black);
        for m in &self.moves {
            let k = m.ply - 1 + offset;
            let number = k / 2 + 1;
            if rows.last().map(|r| r.number) != Some(number) {
                rows.push(Row {
                    number,
                    white: None,
                    black: None,
                });
            }
            let row = rows.last_mut().expect("pushed above");
            match m.side {
                Color::White => row.white = Some(m),
                Color::Black => row.black = Some(m),
            }
        }
        rows
    }

    /// The game's name (`Warcaby międzynarodowe`, `Chess`).
    #[must_use]
    pub fn game_name(&self, l: Labels) -> &'static str {
        l.title(self.game.kind())
    }

    /// The result in words for a heading (`2-0`, or "not finished").
    #[must_use]
    pub fn result_words(&self, l: Labels) -> String {
        if self.outcome.is_none() {
            return l.s("game_not_finished").to_owned();
        }
        self.result.clone()
    }

    /// The game replayed with its words in `lang`.
    fn game_in(&self, lang: &str) -> Box<dyn Game> {
        let Some(start) = self.game.position_at(0) else {
            return self.game.clone();
        };
        let mut g = crate::game::new_game(start, GameOptions::default(), lang);
        for m in self.game.move_texts() {
            if g.play_text(&m).is_err() {
                // The record replayed once already: it cannot fail now.
                return self.game.clone();
            }
        }
        if let Some(o) = self.game.outcome() {
            g.declare(o);
        }
        g
    }

    /// Each move in the announcer's words, in the game's language
    /// (001 ch. VIII 2.2; 002 annex E.2): what tandem said at the table.
    #[must_use]
    pub fn spoken(game: &dyn Game) -> Vec<String> {
        (0..game.ply())
            .filter_map(|i| game.move_words(i))
            .map(|u| u.text())
            .collect()
    }

    /// The whole record as sentences to read aloud: the heading, each move
    /// number and the moves in the announcer's words, how the game ended.
    #[must_use]
    pub fn read_aloud(&self, lang: &str) -> Vec<String> {
        let book = Phrasebook::builtin(lang).unwrap_or_else(Phrasebook::english);
        let game = self.game_in(lang);
        let spoken = Self::spoken(game.as_ref());
        let name = |n: &Option<String>| Value::Text(n.clone().unwrap_or_else(|| "?".into()));
        let mut out = vec![book.render(
            "export.heading",
            &[("white", name(&self.white)), ("black", name(&self.black))],
        )];
        for row in self.rows() {
            let mut s = book.render(
                "export.move_number",
                &[("count", Value::Number(row.number as u64))],
            );
            for m in [row.white, row.black].into_iter().flatten() {
                if let Some(t) = spoken.get(m.ply - 1) {
                    s.push(' ');
                    s.push_str(t);
                }
            }
            out.push(s);
        }
        if let Some(o) = &self.outcome {
            out.push(game.game_over(o).text());
        }
        out
    }
}
