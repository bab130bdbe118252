//! A question about the board is never a move, and a move never a
//! question (issue 23): every phrasing of every legal move of several real
//! positions of each game, as the grammar gives them to the recognizer, is
//! heard as no question; and every question phrase is heard as its
//! question, whichever position is on the board. In every language with a
//! phrasebook (the stems of `phrasebooks/*.toml`, issue 43).

use tandem_rules::backgammon::{Action, Board, Dice, Match, MatchOptions};
use tandem_rules::draughts::{Position, Variant};
use tandem_rules::Color;
use tandem_speech::ask::{heard_question, AskPhrase};
use tandem_speech::backgammon::listen::{BgGrammar, BgLexicon};
use tandem_speech::backgammon::BgPhrasebook;
use tandem_speech::chess::listen::{ChessGrammar, ChessLexicon};
use tandem_speech::chess::ChessPhrasebook;
use tandem_speech::draughts::listen::{DraughtsWords, Grammar};
use tandem_speech::listen::Lexicon;
use tandem_speech::Phrasebook;

/// Every language with a phrasebook: the stems of `phrasebooks/*.toml`.
fn languages() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("phrasebooks");
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "toml"))
        .map(|p| p.file_stem().unwrap().to_str().unwrap().to_owned())
        .collect();
    out.sort();
    assert!(out.contains(&"pl".to_owned()) && out.contains(&"en".to_owned()));
    out
}

fn no_move_is_a_question(moves: &[String], questions: &[AskPhrase], what: &str) {
    assert!(moves.len() > 10, "{what}: too few phrases to mean anything");
    assert!(!questions.is_empty(), "{what}: no questions");
    for m in moves.iter().filter(|m| *m != "[unk]") {
        assert_eq!(heard_question(questions, m), None, "{what}: the move {m:?}");
    }
    for q in questions {
        let said = q.words.join(" ");
        assert!(
            !moves.contains(&said),
            "{what}: the question {said:?} is a move phrase"
        );
        assert_eq!(
            heard_question(questions, &said).as_deref(),
            Some(q.question.as_str()),
            "{what}"
        );
    }
}

#[test]
fn draughts_moves_are_never_questions() {
    for lang in languages() {
        let lang = lang.as_str();
        let book = Phrasebook::builtin(lang).unwrap();
        let q = tandem_speech::draughts::ask::phrases(&book);
        let lex = Lexicon::draughts_builtin(lang).unwrap();
        for (v, fen) in [
            (Variant::International, None),
            (
                Variant::International,
                Some("W:W27,28,32,33,K45:B17,18,19,K7"),
            ),
            (
                Variant::International,
                Some("B:W31,32,33,34,35,36,37,38:B13,14,15,16,17,18,19,20"),
            ),
            (Variant::SixtyFour, None),
        ] {
            let pos = fen.map_or_else(|| Position::start(v), |f| Position::from_fen(v, f).unwrap());
            let g = Grammar::build(&pos, &lex);
            // The moves' and commands' phrasings (the recognizer's list has
            // the questions too).
            let said: Vec<String> = g.phrases.iter().map(|p| p.words.join(" ")).collect();
            let all = g.recognizer_phrases();
            assert!(
                q.iter().all(|p| all.contains(&p.words.join(" "))),
                "the recognizer hears the questions"
            );
            no_move_is_a_question(&said, &q, &format!("{lang} {v:?} {fen:?}"));
        }
    }
}

#[test]
fn chess_moves_are_never_questions() {
    for lang in languages() {
        let book = ChessPhrasebook::builtin(&lang)
            .unwrap_or_else(|| panic!("{lang}: no chess phrasebook"));
        let q = tandem_speech::chess::ask::phrases(&book);
        let lex = ChessLexicon::new(&book);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2P5/8/8/8/8/5k2/K7 w - - 0 1",
        ] {
            let pos = tandem_rules::chess::from_fen(fen).unwrap();
            let g = ChessGrammar::build(&pos, &lex);
            no_move_is_a_question(&g.recognizer_phrases(), &q, &format!("{lang} {fen}"));
        }
    }
}

#[test]
fn backgammon_moves_are_never_questions() {
    for lang in languages() {
        let lang = lang.as_str();
        let q = tandem_speech::backgammon::ask::phrases(&BgPhrasebook::builtin(lang).unwrap());
        let lex = BgLexicon::builtin(lang).unwrap();
        for dice in [None, Some(Dice(3, 1)), Some(Dice(6, 6)), Some(Dice(5, 2))] {
            let mut m = Match::from_board(MatchOptions { length: 7 }, Board::start(Color::White));
            if let Some(d) = dice {
                m.act(Action::Roll(d)).unwrap();
            }
            let g = BgGrammar::build(&m, &lex);
            no_move_is_a_question(&g.recognizer_phrases(), &q, &format!("{lang} {dice:?}"));
        }
    }
}
