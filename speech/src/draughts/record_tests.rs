//! The spoken record (`crate::record`) with draughts' moves as its example.

use tandem_rules::draughts::notation::resolve;
use tandem_rules::draughts::{Position, Variant};
use tandem_rules::Color;

use crate::record::RecordWord;
use crate::{AnnounceOptions, Announcer, Phrasebook};

#[test]
fn a_move_pair_is_read_with_its_number_in_polish_and_english() {
    let pos = Position::start(Variant::International);
    let m = resolve(&pos, "32-28").unwrap();
    let pl = Announcer::new(Phrasebook::polish(), AnnounceOptions::default());
    let w = pl.on_move(&pos, &m);
    let u = pl.record_move(10, &[(Color::White, w)]);
    assert_eq!(
        u.text(),
        "Ruch dziesięć. Białe: trzydzieści dwa na dwadzieścia osiem."
    );
    let en = Announcer::new(Phrasebook::english(), AnnounceOptions::default());
    let w = en.on_move(&pos, &m);
    let u = en.record_move(2, &[(Color::White, w.clone()), (Color::Black, w)]);
    assert!(
        u.text().starts_with("Move two. White: thirty-two"),
        "{}",
        u.text()
    );
    assert!(u.text().contains(". Black: thirty-two"), "{}", u.text());
    assert_eq!(
        en.record_word(RecordWord::NoMove(12)).text(),
        "There is no move twelve."
    );
    assert_eq!(pl.record_word(RecordWord::Live).text(), "Powrót do gry.");
    assert_eq!(
        pl.record_word(RecordWord::PositionAfter(12, Color::Black))
            .text(),
        "Pozycja po ruchu dwanaście czarnych."
    );
    assert_eq!(
        en.record_word(RecordWord::PositionAfter(12, Color::White))
            .text(),
        "The position after white's move twelve."
    );
}
