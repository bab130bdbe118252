//! The Polish and English grammars and phrase understanding, table-tested on
//! text from `tests/data/listen_phrases.csv` (phrasings, typical
//! mis-hearings, illegal moves, commands, ambiguous captures).

use tandem_rules::draughts::{Position, Variant};
use tandem_speech::draughts::listen::{understand, DraughtsWords, Grammar, Heard};
use tandem_speech::listen::{ConfirmPolicy, Lexicon, Transcript};

/// `-` is the start position; `64:` before it means 64-square draughts.
fn position(fen: &str) -> Position {
    let (variant, fen) = match fen.strip_prefix("64:") {
        Some(f) => (Variant::SixtyFour, f),
        None => (Variant::International, fen),
    };
    if fen == "-" {
        Position::start(variant)
    } else {
        Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("bad fen {fen}: {e}"))
    }
}

fn describe(h: &Heard) -> String {
    match h {
        Heard::Move { notation, .. } => format!("move {notation}"),
        Heard::Command {
            command,
            square: Some(s),
            ..
        } => format!("command {command} {s}"),
        Heard::Command { command, .. } => format!("command {command}"),
        Heard::Illegal { reason, .. } => format!(
            "illegal {}",
            serde_json::to_value(reason).unwrap().as_str().unwrap()
        ),
        Heard::Ambiguous { candidates, .. } => {
            let mut c: Vec<&str> = candidates.iter().map(|c| c.notation.as_str()).collect();
            c.sort_unstable();
            format!("ambiguous {}", c.join(" "))
        }
        Heard::Unknown { .. } => "unknown".to_owned(),
        other => format!("{other:?}"),
    }
}

#[test]
fn phrase_table() {
    let table = include_str!("data/listen_phrases.csv");
    let mut failures = Vec::new();
    let mut rows = 0;
    for (i, line) in table.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split(';').collect();
        assert_eq!(cols.len(), 4, "line {}: {line}", i + 1);
        let lex = Lexicon::draughts_builtin(cols[0]).expect("pl or en");
        let pos = position(cols[1]);
        let g = Grammar::build(&pos, &lex);
        let heard = understand(&pos, &g, &lex, &[Transcript::text(cols[2])]);
        let got = describe(&heard);
        if got != cols[3] {
            failures.push(format!(
                "line {}: {:?} -> {got} (expected {})",
                i + 1,
                cols[2],
                cols[3]
            ));
        }
        // Whatever the table says, a non-move must never serialize as a move.
        let json = serde_json::to_value(&heard).unwrap();
        if !cols[3].starts_with("move") {
            if json["kind"] == "move" {
                failures.push(format!("line {}: a non-move came out as {json}", i + 1));
            }
        } else {
            if json["kind"] == "move" && json["confidence"].as_f64().unwrap_or(0.0) <= 0.0 {
                failures.push(format!("line {}: no confidence in {json}", i + 1));
            }
        }
        rows += 1;
    }
    assert!(rows > 60, "the table has {rows} rows");
    assert!(
        failures.is_empty(),
        "{} of {rows} rows failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_legal_move_is_understood_in_every_phrasing() {
    // A middle-game position with quiet moves for both languages.
    for (lang, variant) in [
        ("pl", Variant::International),
        ("en", Variant::International),
        ("pl", Variant::SixtyFour),
        ("en", Variant::SixtyFour),
    ] {
        let lex = Lexicon::draughts_builtin(lang).unwrap();
        let pos = Position::start(variant);
        let g = Grammar::build(&pos, &lex);
        // 64-square grammars are five times larger (every file word by every
        // file word); a debug build checks every third phrase there, and the
        // first phrasing of every meaning.
        let stride = if variant == Variant::SixtyFour { 3 } else { 1 };
        let mut seen = Vec::new();
        for (k, p) in g.phrases.iter().enumerate() {
            if k % stride != 0 && seen.contains(&p.meaning) {
                continue;
            }
            seen.push(p.meaning);
            let text = p.words.join(" ");
            let h = understand(&pos, &g, &lex, &[Transcript::text(&text)]);
            match (p.meaning, &h) {
                (
                    tandem_speech::listen::grammar::Meaning::Move(i),
                    Heard::Move {
                        notation,
                        confidence,
                        ..
                    },
                ) => {
                    assert_eq!(notation, &g.notations[i], "{text}");
                    assert_eq!(*confidence, 1.0, "{text}");
                }
                (
                    tandem_speech::listen::grammar::Meaning::Command(c, sq),
                    Heard::Command {
                        command, square, ..
                    },
                ) => {
                    assert_eq!((c, sq), (*command, *square), "{text}");
                }
                _ => panic!("{lang} {text:?} -> {h:?}"),
            }
        }
    }
}

#[test]
fn confidence_drives_confirmation() {
    let lex = Lexicon::draughts_builtin("pl").unwrap();
    let pos = Position::start(Variant::International);
    let g = Grammar::build(&pos, &lex);
    let unsure = Transcript {
        text: "trzydzieści dwa na dwadzieścia osiem".into(),
        confidence: 0.6,
    };
    let h = understand(&pos, &g, &lex, &[unsure]);
    assert_eq!(h.confidence(), 0.6);
    assert!(h.needs_confirmation(ConfirmPolicy::BelowConfidence(0.8)));
    assert!(!h.needs_confirmation(ConfirmPolicy::BelowConfidence(0.5)));
    assert!(!h.needs_confirmation(ConfirmPolicy::Never));
    // A mis-heard word lowers the confidence: "dwie" for "dwa" costs 0.1.
    let h = understand(
        &pos,
        &g,
        &lex,
        &[Transcript::text("trzydzieści dwie na dwadzieścia osiem")],
    );
    assert_eq!(h.confidence(), 0.9);
}

#[test]
fn later_alternatives_are_used_when_the_best_is_garbage() {
    let lex = Lexicon::draughts_builtin("en").unwrap();
    let pos = Position::start(Variant::International);
    let g = Grammar::build(&pos, &lex);
    let nbest = [
        Transcript {
            text: "hello there".into(),
            confidence: 0.7,
        },
        Transcript {
            text: "thirty three twenty eight".into(),
            confidence: 0.5,
        },
    ];
    let h = understand(&pos, &g, &lex, &nbest);
    assert!(
        matches!(&h, Heard::Move { notation, .. } if notation == "33-28"),
        "{h:?}"
    );
}

#[test]
fn korean_test_phrasebook_matches_by_syllable() {
    let lex = Lexicon::draughts_file(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/listen_ko.toml"
    )))
    .unwrap();
    let pos = Position::start(Variant::International);
    let g = Grammar::build(&pos, &lex);
    // The Korean model splits words where it likes: "삼 십삼 이십 구" is 33 29.
    for text in ["삼십삼 이십구", "삼 십삼 이십 구", "삼십 삼 이십 구"] {
        let h = understand(&pos, &g, &lex, &[Transcript::text(text)]);
        assert!(
            matches!(&h, Heard::Move { notation, .. } if notation == "33-29"),
            "{text}: {h:?}"
        );
    }
    // Garbage in front of the squares is not ignored: it could be a digit.
    let h = understand(&pos, &g, &lex, &[Transcript::text("사 삼십 삼 이십 구")]);
    assert!(!matches!(h, Heard::Move { .. }), "{h:?}");
}
