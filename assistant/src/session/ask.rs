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
        if self.table.game.query(text).is_some() {
            self.announce_with(|s| s.table.game.query(text).unwrap_or_else(nothing));
            return Some(self.ok());
        }
        let answer = self
            .table
            .game
            .ask(text, self.asker.or(self.blind.side()), false)?;
        Some(self.answer(text.trim(), false, answer, source))
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
            Some(answer) => self.answer(text, any_words, answer, source),
            None => match (!text.is_empty())
                .then(|| self.table.game.query(text))
                .flatten()
            {
                // A game's own question asked with `ask` (the pips).
                Some(_) => {
                    self.announce_with(|s| s.table.game.query(text).unwrap_or_else(nothing));
                    self.ok()
                }
                None => {
                    let r = self.table.game.unknown_question(text);
                    self.refuse_with(source, &format!("ask {text}"), r.reason, |s| {
                        s.table.game.unknown_question(text).say
                    })
                }
            },
        }
    }

    /// Says an answer (shown on the braille display as its message line),
    /// or the refusal of a question that cannot be answered.
    fn answer(
        &mut self,
        text: &str,
        any_words: bool,
        answer: Result<tandem_speech::Utterance, crate::interface::Refused>,
        source: Source,
    ) -> Reply {
        let asker = self.asker.or(self.blind.side());
        // The answer in each seat's language (nothing changes by asking).
        let again = |s: &Session| s.table.game.ask(text, asker, any_words);
        match answer {
            Ok(u) => {
                let versions = self.in_every_tongue(&|s| match again(s) {
                    Some(Ok(u)) => u,
                    _ => nothing(),
                });
                let to = self.audience(u.kind);
                for (side, b) in self.displays_of(to) {
                    let v = side.map_or(0, |s| self.version_of(s));
                    let shown = versions.get(v).map_or_else(|| u.text(), Utterance::text);
                    let _ = b.send(DriverInput::Message(shown));
                }
                self.announce_versions(versions, to);
                self.ok()
            }
            Err(r) => self.refuse_with(source, &format!("ask {text}"), r.reason, |s| {
                match again(s) {
                    Some(Err(r)) => r.say,
                    _ => nothing(),
                }
            }),
        }
    }
}
