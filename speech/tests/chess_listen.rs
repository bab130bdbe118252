//! Chess by voice (002 annex E.2): a table of what players say and what
//! tandem understands, in Polish and English, from real positions.

use tandem_rules::chess::{from_fen, start};
use tandem_speech::chess::listen::{understand_chess, ChessGrammar, ChessHeard, ChessLexicon};
use tandem_speech::chess::ChessPhrasebook;
use tandem_speech::listen::Transcript;

const KNIGHTS: &str = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
const CASTLES: &str = "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 8";
const CAPTURE: &str = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
const EN_PASSANT: &str = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
const PROMOTION: &str = "8/4P2k/8/8/8/8/8/4K3 w - - 0 40";
const BISHOP_TAKES: &str = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 3";

/// (language, fen or "" for the start, transcript, expected): `=SAN` a move,
/// `?SAN,SAN` an ambiguity with those candidates, `!` an illegal move, `~` not understood.
const TABLE: &[(&str, &str, &str, &str)] = &[
    ("pl", "", "Ewa dwa Ewa cztery", "=e4"),
    ("pl", "", "ewa dwa na ewa cztery", "=e4"),
    ("pl", "", "e2 e4", "=e4"),
    ("pl", "", "e cztery", "=e4"),
    ("pl", "", "pion e dwa e cztery", "=e4"),
    ("pl", "", "skoczek f trzy", "=Nf3"),
    ("pl", "", "skoczek Feliks trzy", "=Nf3"),
    ("pl", "", "skoczek Gustaw jeden Feliks trzy", "=Nf3"),
    ("pl", "", "skoczka f trzy", "=Nf3"),
    ("pl", "", "Nf3", "=Nf3"),
    ("pl", "", "g1-f3", "=Nf3"),
    // A connective lost or an extra word: still the move.
    ("pl", "", "ewa dwa yyy ewa cztery", "=e4"),
    // A piece word heard clearly is never turned into another.
    ("pl", "", "goniec f trzy", "~"),
    ("pl", CAPTURE, "Ewa bije Dawid pięć", "=exd5"),
    ("pl", CAPTURE, "pion Ewa cztery bije Dawid pięć", "=exd5"),
    ("pl", CAPTURE, "e4 bije d5", "=exd5"),
    ("pl", EN_PASSANT, "Ewa pięć bije Feliks sześć", "=exf6"),
    ("pl", BISHOP_TAKES, "goniec bije Cesar sześć", "=Bxc6"),
    ("pl", CASTLES, "krótka roszada", "=O-O"),
    ("pl", CASTLES, "długa roszada", "=O-O-O"),
    ("pl", CASTLES, "roszada krótka", "=O-O"),
    ("pl", CASTLES, "król Ewa jeden Gustaw jeden", "=O-O"),
    ("pl", KNIGHTS, "skoczek Dawid dwa", "?Nbd2,Nfd2"),
    ("pl", KNIGHTS, "skoczek Bella jeden Dawid dwa", "=Nbd2"),
    (
        "pl",
        PROMOTION,
        "Ewa siedem Ewa osiem zamiana na hetmana",
        "=e8=Q",
    ),
    ("pl", PROMOTION, "e osiem skoczek", "=e8=N"),
    (
        "pl",
        PROMOTION,
        "Ewa siedem Ewa osiem",
        "?e8=Q,e8=R,e8=B,e8=N",
    ),
    // Squares heard clearly that make no legal move: refused with the reason.
    ("pl", "", "Ewa dwa Ewa pięć", "!"),
    ("pl", "", "Ewa trzy Ewa cztery", "!"),
    ("pl", "", "zupełnie coś innego", "~"),
    ("pl", "", "", "~"),
    ("en", "", "knight f three", "=Nf3"),
    ("en", "", "night f three", "=Nf3"),
    ("en", "", "Eva two Eva four", "=e4"),
    ("en", "", "e two to e four", "=e4"),
    ("en", CASTLES, "short castling", "=O-O"),
    ("en", CASTLES, "castles long", "=O-O-O"),
    ("en", CAPTURE, "e takes David five", "=exd5"),
    ("en", KNIGHTS, "knight d two", "?Nbd2,Nfd2"),
    (
        "en",
        PROMOTION,
        "e seven e eight promotes to queen",
        "=e8=Q",
    ),
    ("en", "", "Eva two Eva five", "!"),
];

#[test]
fn spoken_moves_table() {
    let pl = ChessLexicon::new(&ChessPhrasebook::polish());
    let en = ChessLexicon::new(&ChessPhrasebook::english());
    let mut failures = Vec::new();
    for (lang, fen, said, want) in TABLE {
        let lex = if *lang == "pl" { &pl } else { &en };
        let pos = if fen.is_empty() {
            start()
        } else {
            from_fen(fen).unwrap()
        };
        let h = understand_chess(lex, &pos, &[Transcript::text(said)]);
        let ok = match (&h, want.chars().next()) {
            (ChessHeard::Move { san, .. }, Some('=')) => {
                san.trim_end_matches(['+', '#']) == &want[1..]
            }
            (ChessHeard::Ambiguous { candidates, .. }, Some('?')) => {
                let mut got: Vec<&str> = candidates.iter().map(String::as_str).collect();
                let mut exp: Vec<&str> = want[1..].split(',').collect();
                got.sort_unstable();
                exp.sort_unstable();
                got == exp
            }
            (ChessHeard::Illegal { .. }, Some('!')) => true,
            (ChessHeard::Unknown { .. }, Some('~')) => true,
            _ => false,
        };
        if !ok {
            failures.push(format!("{lang} {said:?}: want {want}, got {h:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ambiguous_moves_are_asked_in_the_players_words() {
    let pl = ChessLexicon::new(&ChessPhrasebook::polish());
    let pos = from_fen(KNIGHTS).unwrap();
    match understand_chess(&pl, &pos, &[Transcript::text("skoczek Dawid dwa")]) {
        ChessHeard::Ambiguous { question, .. } => {
            assert_eq!(question, "Który skoczek: Bella jeden czy Feliks trzy?");
        }
        other => panic!("{other:?}"),
    }
    let en = ChessLexicon::new(&ChessPhrasebook::english());
    match understand_chess(&en, &pos, &[Transcript::text("knight d two")]) {
        ChessHeard::Ambiguous { question, .. } => {
            assert_eq!(question, "Which knight: Bella one or Felix three?");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn illegal_spoken_moves_carry_the_reason_in_words() {
    let pl = ChessLexicon::new(&ChessPhrasebook::polish());
    match understand_chess(&pl, &start(), &[Transcript::text("Ewa trzy Ewa cztery")]) {
        ChessHeard::Illegal { text, message, .. } => {
            assert_eq!(text, "e3e4");
            assert_eq!(message, "Na polu Ewa trzy nie ma bierki.");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_n_best_list_is_tried_in_order() {
    let pl = ChessLexicon::new(&ChessPhrasebook::polish());
    let h = understand_chess(
        &pl,
        &start(),
        &[
            Transcript {
                text: "zegar zegar".into(),
                confidence: 0.9,
            },
            Transcript {
                text: "skoczek f trzy".into(),
                confidence: 0.8,
            },
        ],
    );
    match h {
        ChessHeard::Move {
            san, confidence, ..
        } => {
            assert_eq!(san, "Nf3");
            assert!((confidence - 0.8).abs() < 1e-9);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_grammar_covers_every_legal_move_and_serialises() {
    let pl = ChessLexicon::new(&ChessPhrasebook::polish());
    let pos =
        from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let g = ChessGrammar::build(&pos, &pl);
    assert_eq!(g.moves.len(), 48);
    let phrases = g.recognizer_phrases();
    assert!(phrases.contains(&"krótka roszada".to_owned()));
    assert!(phrases.contains(&"goniec bije anna sześć".to_owned()));
    // Every move said as start and end square is understood as itself.
    for m in &g.moves {
        let said = format!("{} {}", m.from, m.to);
        let h = understand_chess(&pl, &pos, &[Transcript::text(&said)]);
        match h {
            ChessHeard::Move { uci, .. } => assert_eq!(uci, m.uci(), "{said}"),
            other => panic!("{said}: {other:?}"),
        }
    }
    let h = understand_chess(&pl, &start(), &[Transcript::text("e2 e4")]);
    let v = serde_json::to_value(&h).unwrap();
    assert_eq!(v["kind"], "move");
    assert_eq!(v["move"], "e4");
    assert_eq!(v["uci"], "e2e4");
}

#[test]
fn odd_transcripts_never_panic_and_never_play() {
    let pl = ChessLexicon::new(&ChessPhrasebook::polish());
    let pos = from_fen(PROMOTION).unwrap();
    for t in [
        "",
        " ",
        "[unk]",
        "[unk] [unk]",
        "}",
        "e9",
        "e",
        "ewa",
        "ewa ewa ewa ewa",
        "1 2 3 4",
        "x x x",
        "zamiana na",
        "krótka",
        "ą ę ł",
        "e7e8e8",
        "e7-",
        "-",
        "=",
        "99999999999",
        "hetman hetman hetman hetman hetman hetman hetman hetman hetman hetman",
    ] {
        let h = understand_chess(&pl, &pos, &[Transcript::text(t)]);
        assert!(!matches!(h, ChessHeard::Move { .. }), "{t:?}: {h:?}");
    }
}
