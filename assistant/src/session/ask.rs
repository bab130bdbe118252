//! Questions about the board (issue 23, `docs/ask.md`): typed `ask …` or
//! a bare question word, `tandem ctl ask QUERY…`, spoken, or from the
//! braille display. The game answers ([`crate::games::Game::ask`]); the
//! session says it, shows it on the braille display as a message line and
//! journals it like every utterance. Nothing else changes.

use super::*;

impl Session {
    /// Whether a typed line is a question of the game in its typed form
    /// (`knights`, `opponent kings`, `row 5`).
    pub(super) fn is_question(&self, text: &str) -> bool {
        self.table
            .game
            .ask(text, self.blind.side(), false)
            .is_some()
    }

    /// Answers a question: `any_words` takes the phrasebook's spoken words
    /// too (`ask skoczki przeciwnika`). "my" is the blind player's (at a
    /// table where both are blind, the answer asks which side).
    pub(super) fn ask(&mut self, text: &str, any_words: bool, source: Source) -> Reply {
        let text = text.trim();
        let answer = self.table.game.ask(text, self.blind.side(), any_words);
        match answer {
            Some(Ok(u)) => {
                if let Some(b) = &self.out.braille {
                    let _ = b.send(DriverInput::Message(u.text()));
                }
                self.announce(u);
                self.ok()
            }
            Some(Err(r)) => self.refuse(source, &format!("ask {text}"), r.reason, r.say),
            // A game's own question asked with `ask` (the pips).
            None if !text.is_empty() && self.table.game.query(text).is_some() => {
                if let Some(u) = self.table.game.query(text) {
                    self.announce(u);
                }
                self.ok()
            }
            None => {
                let r = self.table.game.unknown_question(text);
                self.refuse(source, &format!("ask {text}"), r.reason, r.say)
            }
        }
    }
}
