//! The games, each in its own folder, each implementing the one game
//! interface ([`crate::interface`], re-exported here) with its rules (the
//! rules crate), its words (the speech crate's announcer and listener of
//! that game), its braille view, its record format, its one-shot commands
//! and its arbiter's tools. The registry ([`crate::game`]) is the one place
//! that lists them; nothing below it names a game. See `docs/games.md`.

pub use crate::interface::*;

#[cfg(test)]
mod action_tests;
pub mod backgammon;
pub mod chess;
pub mod draughts;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::GameKind;

    fn game(kind: GameKind) -> Box<dyn Game> {
        let start = kind.position(None).unwrap();
        crate::game::new_game(start, tandem_rules::GameOptions::default(), "en")
    }

    #[test]
    fn each_game_marks_its_last_move_in_the_diagram_and_numbers_its_record() {
        let mut g = game("international".parse().unwrap());
        assert_eq!(g.diagram().matches('*').count(), 0, "no move yet");
        g.play_text("32-28").unwrap();
        g.play_text("19-23").unwrap();
        let d = g.diagram();
        assert_eq!(d.matches('*').count(), 2, "{d}");
        assert!(d.contains("b*"), "the black man on 23 is marked: {d}");
        assert_eq!(g.record_lines(), ["1. 32-28 19-23"]);
        assert!(g.state_extra().is_empty());

        let mut c = game(GameKind::Chess);
        c.play_text("e4").unwrap();
        let d = c.diagram();
        let rank = |n: &str| d.lines().find(|l| l.trim_start().starts_with(n)).unwrap();
        assert!(rank("4 ").contains("P*"), "{d}");
        assert!(rank("2 ").contains(".*"), "{d}");
        assert_eq!(c.record_lines(), ["1. e4"]);
        assert!(c.action("roll 3 1").is_none(), "no actions in chess");
    }

    #[test]
    fn each_game_lists_its_legal_moves_as_text_it_reads_back() {
        let mut g = game("international".parse().unwrap());
        let legal = g.legal_move_texts();
        assert_eq!(legal.len(), 9, "{legal:?}");
        assert!(legal.contains(&"32-28".to_owned()), "{legal:?}");
        g.play_text("32-28").unwrap();
        g.play_text("19-23").unwrap();
        assert_eq!(g.legal_move_texts(), ["28x19"], "the capture is compulsory");
        for t in g.legal_move_texts() {
            assert!(g.prepare(&t).is_ok(), "{t}");
        }

        let c = game(GameKind::Chess);
        let legal = c.legal_move_texts();
        assert_eq!(legal.len(), 20, "{legal:?}");
        assert!(legal.contains(&"Nf3".to_owned()) && legal.contains(&"e4".to_owned()));
        for t in &legal {
            assert!(c.prepare(t).is_ok(), "{t}");
        }
    }
}
