#![no_main]
//! Phrasebook files (`tandem say/hear --phrasebook FILE`): never panic on
//! any text; a book that loads can announce moves, numbers, durations and
//! clock reports, and build the listener's lexicon, without panicking.
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use tandem_rules::Color;
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::draughts::listen::Grammar;
use tandem_speech::listen::Lexicon;
use tandem_speech::{AnnounceOptions, Announcer, Phrasebook};

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let Ok(book) = Phrasebook::from_toml_str(&s) else {
        return;
    };
    let _ = book.number(0);
    let _ = book.number(1_234_567);
    let _ = book.count(21, "move");
    let _ = book.duration(Duration::from_secs(5_399));
    let _ = book.side(Color::Black, "nominative");
    let a = Announcer::new(book.clone(), AnnounceOptions::default());
    for v in [Variant::International, Variant::SixtyFour] {
        let p = Position::start(v);
        for m in p.legal_moves().into_iter().take(3) {
            let _ = a.on_move(&p, &m).text();
        }
        let _ = a.describe_position(&p).text();
        let _ = a.turn(p.turn()).text();
    }
    let lex = Lexicon::from_phrasebook(&book);
    let _ = Grammar::build(&Position::start(Variant::International), &lex);
});
