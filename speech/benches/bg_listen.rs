//! Backgammon by voice: the grammar is built again on every roll (and
//! swapped on the live recognizer), so its cost on the worst rolls matters.
//!
//! - `bg_listen/build/*`: [`BgVoice::grammar`] (the phrases of every legal
//!   move in every order, and the commands), Polish: the start with 3-1
//!   (16 moves), a spread position with 1-1 (1,030 moves) and one with 2-2
//!   (1,238 moves: the most found).
//! - `bg_listen/understand_2-2`: one transcript understood in the 2-2 grammar.
//! - `bg_listen/swap_2-2`: that grammar's phrases set on the live Vosk
//!   recognizer (the Korean model and the Korean backgammon test book, where
//!   `scripts/setup.sh --test` puts them; skipped without them).

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use tandem_rules::backgammon::{legal_plays, Action, Board, Dice, Match, MatchOptions};
use tandem_rules::Color;
use tandem_speech::backgammon::listen::{BgLexicon, BgVoice, BgWords};
use tandem_speech::listen::command_words;
use tandem_speech::listen::vosk::{set_log_level, VoskRecognizer};
use tandem_speech::listen::{Lexicon, ListenGame, Recognizer, Transcript};

fn board(white: &[(usize, u8)]) -> Board {
    let mut w = [0u8; 25];
    for &(p, n) in white {
        w[p - 1] = n;
    }
    let free = (1..=24usize)
        .find(|p| w[24 - p] == 0)
        .expect("a free point");
    let mut b = [0u8; 25];
    b[free - 1] = 15;
    Board::from_sides(w, b, Color::White).unwrap()
}

fn rolled(b: Board, d: Dice) -> Match {
    let mut m = Match::from_board(MatchOptions { length: 7 }, b);
    m.act(Action::Roll(d)).unwrap();
    m
}

fn bench(c: &mut Criterion) {
    let words = BgWords::builtin("pl").unwrap();
    let start = rolled(Board::start(Color::White), Dice(3, 1));
    let ones = rolled(
        board(&[
            (24, 1),
            (22, 1),
            (20, 1),
            (18, 1),
            (16, 1),
            (14, 1),
            (12, 1),
            (10, 2),
            (8, 2),
            (6, 2),
            (4, 1),
            (2, 1),
        ]),
        Dice(1, 1),
    );
    let spread: Vec<(usize, u8)> = (10..=24).map(|p| (p, 1)).collect();
    let twos = rolled(board(&spread), Dice(2, 2));
    for (name, m) in [("3-1_start", &start), ("1-1", &ones), ("2-2", &twos)] {
        let n = legal_plays(m.board(), m.dice().unwrap()).len();
        eprintln!("bg_listen/build/{name}: {n} legal moves");
        c.bench_function(&format!("bg_listen/build/{name}"), |b| {
            b.iter(|| BgVoice::grammar(m, &words))
        });
    }
    let g = BgVoice::grammar(&twos, &words);
    eprintln!(
        "bg_listen/build/2-2: {} phrase contents, {} recognizer phrases",
        g.moves.len(),
        BgVoice::recognizer_phrases(&g).len()
    );
    let said = [Transcript::text(
        "dwadzieścia cztery dwadzieścia dwa dwadzieścia trzy dwadzieścia jeden dwadzieścia dwa dwadzieścia dwadzieścia jeden dziewiętnaście",
    )];
    c.bench_function("bg_listen/understand_2-2", |b| {
        b.iter(|| BgVoice::understand(&twos, &g, &words, &said))
    });

    let Some(model) = tandem_speech::listen::fixture::korean_model() else {
        return;
    };
    set_log_level(-1);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/backgammon-ko.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let ko = BgWords::new(
        BgLexicon::from_toml_str(&text, &Lexicon::english()).unwrap(),
        command_words(&path, Lexicon::english()).unwrap(),
    );
    let phrases = BgVoice::recognizer_phrases(&BgVoice::grammar(&twos, &ko));
    let mut rec = VoskRecognizer::new(&model, &[]).unwrap();
    let mut group = c.benchmark_group("bg_listen");
    group.sample_size(10);
    group.bench_function("swap_2-2", |b| {
        b.iter(|| rec.set_grammar(&phrases).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
