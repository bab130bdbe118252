//! A refused action in the player's words, and in a rated game without
//! the moves that could be played (issue 41: the rule only).

use tandem_rules::backgammon::ActionError;
use tandem_speech::{Kind, Priority, Utterance};

use super::BackgammonTable;
use crate::interface::Refused;

impl BackgammonTable {
    /// Why `text` was refused: `e` in the player's words, without its
    /// candidate moves unless hints are on ([`crate::interface::Game::set_hints`]).
    pub(super) fn refusal(&self, e: &ActionError, text: &str) -> Refused {
        let e = if self.hints {
            e.clone()
        } else {
            e.clone().without_hints()
        };
        Refused {
            reason: e.to_string(),
            say: Utterance::new(
                Priority::Now,
                Kind::Rejection,
                vec![self.words.refusal(&e, text)],
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use tandem_rules::backgammon::{Match, MatchOptions, MoveError};
    use tandem_rules::GameOptions;

    use super::*;
    use crate::interface::Game as _;

    #[test]
    fn a_rated_table_does_not_name_the_moves_that_fit() {
        let mut t = BackgammonTable::new(
            Match::new(MatchOptions { length: 3 }),
            GameOptions::default(),
            "en",
        );
        let e = ActionError::Move(MoveError::Ambiguous(vec![
            "13/10*/8".into(),
            "13/11*/8".into(),
        ]));
        let open = t.refusal(&e, "13/8*");
        assert!(open.say.text().contains("13/10*/8"), "{}", open.say.text());
        assert!(open.reason.contains("13/11*/8"), "{}", open.reason);
        t.set_hints(false);
        let rated = t.refusal(&e, "13/8*");
        assert_eq!(
            rated.say.text(),
            "More than one move fits: say the points of each checker moved."
        );
        assert_eq!(
            rated.reason,
            "ambiguous: say the points of each checker moved"
        );
    }
}
