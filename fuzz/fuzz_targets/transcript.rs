#![no_main]
//! Spoken transcripts (what the recognizer returned) through the listener's
//! `understand` on fixed positions, Polish and English: never panic; a move
//! it hears is legal in the position and its strict text is the notation.
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tandem_rules::draughts::notation::write_move;
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::draughts::listen::{understand, Grammar, Heard};
use tandem_speech::listen::{Lexicon, Transcript};

/// The lexicons, positions and grammars, built once (building is the slow part).
fn tables() -> &'static [(Lexicon, Position, Grammar)] {
    static T: OnceLock<Vec<(Lexicon, Position, Grammar)>> = OnceLock::new();
    T.get_or_init(|| {
        let positions = [
            Position::start(Variant::International),
            Position::from_fen(Variant::International, "W:WK16,28,32:B21,23,33,39,19")
                .expect("fixed fen"),
            Position::start(Variant::SixtyFour),
        ];
        let mut out = Vec::new();
        for lex in [Lexicon::polish(), Lexicon::english()] {
            for pos in positions {
                let g = Grammar::build(&pos, &lex);
                out.push((lex.clone(), pos, g));
            }
        }
        out
    })
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the lexicon and position (one `understand` per
    // input, not six: a thousand inputs a second and more; the fuzzer learns
    // the byte), the rest is what the recognizer said.
    let Some((&pick, data)) = data.split_first() else {
        return;
    };
    let t = tables();
    let (lex, pos, grammar) = &t[usize::from(pick) % t.len()];
    let s = String::from_utf8_lossy(data);
    // Several hypotheses, as a recognizer gives them: split on '|'.
    let transcripts: Vec<Transcript> = s.split('|').take(4).map(Transcript::text).collect();
    match understand(pos, grammar, lex, &transcripts) {
        Heard::Move { notation, mv, .. } => {
            assert!(pos.is_legal(&mv), "{s:?} heard an illegal move");
            assert_eq!(notation, write_move(pos, &mv));
        }
        Heard::Ambiguous { moves, .. } => {
            assert!(moves.iter().all(|m| pos.is_legal(m)));
        }
        _ => {}
    }
});
