//! The grammar of one position built, without a recognizer: every game's
//! phrases of its legal moves and the shared commands (draughts: the
//! international and 64-square start; chess: the start; backgammon: the
//! start before the opening roll), Polish words.
//!
//! `cargo bench -p tandem-speech --bench grammar` (BENCHMARKS.md, "Speech").

use criterion::{criterion_group, criterion_main, Criterion};
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::backgammon::listen::{BgVoice, BgWords};
use tandem_speech::chess::listen::{ChessVoice, ChessWords};
use tandem_speech::chess::ChessPhrasebook;
use tandem_speech::draughts::listen::{DraughtsWords, Grammar};
use tandem_speech::listen::{Lexicon, ListenGame};

fn bench(c: &mut Criterion) {
    let lex = Lexicon::draughts_builtin("pl").unwrap();
    let intl = Position::start(Variant::International);
    let s64 = Position::start(Variant::SixtyFour);
    let cw = ChessWords::new(&ChessPhrasebook::polish(), Lexicon::polish());
    let cpos = tandem_rules::chess::start();
    let bw = BgWords::builtin("pl").unwrap();
    let m =
        tandem_rules::backgammon::Match::new(tandem_rules::backgammon::MatchOptions { length: 7 });
    let mut g = c.benchmark_group("grammar_build");
    g.bench_function("draughts_intl", |b| b.iter(|| Grammar::build(&intl, &lex)));
    g.bench_function("draughts_64", |b| b.iter(|| Grammar::build(&s64, &lex)));
    g.bench_function("chess", |b| b.iter(|| ChessVoice::grammar(&cpos, &cw)));
    g.bench_function("backgammon", |b| b.iter(|| BgVoice::grammar(&m, &bw)));
    g.finish();
}
criterion_group!(benches, bench);
criterion_main!(benches);
