//! Questions about the board (issue 23, `docs/ask.md`): typed `ask …` or
//! a bare question word, `tandem ctl ask QUERY…`, spoken, or from the
//! braille display. The game answers ([`crate::games::Game::ask`]); the
//! session says it, shows it on the braille display as a message line and
//! journals it like every utterance. Nothing else changes.

use super::*;

impl Session {
    /// A typed line that is a question: the game's own (`pips`) or one
    /// about the board in its typed form (`knights`, `opponent kings`,
    /// `row 5`), answered; `None` for anything else (a move, a command).
    pub(super) fn bare_question(&mut self, text: &str, source: Source) -> Option<Reply> {
        if let Some(u) = self.table.game.query(text) {
            self.announce(u);
            return Some(self.ok());
        }
        let answer = self
            .table
            .game
            .ask(text, self.asker.or(self.blind.side()), false)?;
        Some(self.answer(text.trim(), answer, source))
    }

    /// Answers a question: `any_words` takes the phrasebook's spoken words
    /// too (`ask skoczki przeciwnika`). "my" is the asking seat's, else the blind player's (at a
    /// table where both are blind, the answer asks which side).
    pub(super) fn ask(&mut self, text: &str, any_words: bool, source: Source) -> Reply {
        let text = text.trim();
        match self
            .table
            .game
            .ask(text, self.asker.or(self.blind.side()), any_words)
        {
            Some(answer) => self.answer(text, answer, source),
            None => match (!text.is_empty())
                .then(|| self.table.game.query(text))
                .flatten()
            {
                // A game's own question asked with `ask` (the pips).
                Some(u) => {
                    self.announce(u);
                    self.ok()
                }
                None => {
                    let r = self.table.game.unknown_question(text);
                    self.refuse(source, &format!("ask {text}"), r.reason, r.say)
                }
            },
        }
    }

    /// Says an answer (shown on the braille display as its message line),
    /// or the refusal of a question that cannot be answered.
    fn answer(
        &mut self,
        text: &str,
        answer: Result<tandem_speech::Utterance, crate::interface::Refused>,
        source: Source,
    ) -> Reply {
        match answer {
            Ok(u) => {
                for b in self.displays_of(self.audience(u.kind)) {
                    let _ = b.send(DriverInput::Message(u.text()));
                }
                self.announce(u);
                self.ok()
            }
            Err(r) => self.refuse(source, &format!("ask {text}"), r.reason, r.say),
        }
    }
}
