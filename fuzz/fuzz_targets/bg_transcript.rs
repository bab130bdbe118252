#![no_main]
//! Spoken transcripts through the backgammon listener's understanding in
//! fixed match states (before the roll, after rolls with hits, the bar and
//! doubles, a double offered, a resignation offered), Polish and English:
//! never panic; an action it hears is legal in that state, and each
//! candidate of a "which one?" too.
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tandem_rules::backgammon::{Action, Board, Dice, Match, MatchOptions};
use tandem_rules::Color;
use tandem_speech::backgammon::listen::{BgSaid, BgVoice, BgVoiceGrammar, BgWords, BgHeard};
use tandem_speech::listen::{ListenGame, Transcript};

/// The words, states and grammars, built once.
fn tables() -> &'static [(BgWords, Match, BgVoiceGrammar)] {
    static T: OnceLock<Vec<(BgWords, Match, BgVoiceGrammar)>> = OnceLock::new();
    T.get_or_init(|| {
        let opts = MatchOptions { length: 7 };
        let mut states = vec![Match::new(opts)];
        let start = Match::from_board(opts, Board::start(Color::White));
        states.push(start.clone());
        for d in [Dice(3, 1), Dice(6, 6), Dice(5, 2)] {
            let mut m = start.clone();
            m.act(Action::Roll(d)).expect("a roll");
            states.push(m);
        }
        let mut doubled = start.clone();
        doubled.act(Action::Double).expect("a double");
        states.push(doubled);
        let mut offered = start.clone();
        offered
            .act(Action::ResignOffer {
                side: Color::White,
                level: 2,
            })
            .expect("a resignation offered");
        states.push(offered);
        let mut out = Vec::new();
        for lang in ["pl", "en"] {
            let words = BgWords::builtin(lang).expect("built-in words");
            for m in &states {
                let g = BgVoice::grammar(m, &words);
                out.push((words.clone(), m.clone(), g));
            }
        }
        out
    })
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the language and match state (one `understand`
    // per input, not fourteen: a thousand inputs a second and more; the
    // fuzzer learns the byte), the rest is what the recognizer said.
    let Some((&pick, data)) = data.split_first() else {
        return;
    };
    let t = tables();
    let (words, m, g) = &t[usize::from(pick) % t.len()];
    let s = String::from_utf8_lossy(data);
    // Several hypotheses, as a recognizer gives them: split on '|'.
    let transcripts: Vec<Transcript> = s.split('|').take(4).map(Transcript::text).collect();
    let legal = |input: &tandem_speech::backgammon::listen::BgInput| g.moves.inputs.contains(input);
    match BgVoice::understand(m, g, words, &transcripts) {
        BgSaid::Bg(BgHeard::Move { input, .. }) => {
            assert!(legal(&input), "{s:?} heard an action not allowed now");
        }
        BgSaid::Bg(BgHeard::Ambiguous { inputs, .. }) => {
            assert!(inputs.iter().all(legal));
        }
        _ => {}
    }
});
