#![no_main]
//! Backgammon move text (the first two bytes pick a position and the dice,
//! the rest is the text): never panic; a text that resolves names a legal
//! move whose gnubg form resolves to the same position.
use libfuzzer_sys::fuzz_target;
use tandem_rules::backgammon::{apply, legal_plays, notation, position_id, resolve, Board, Dice};
use tandem_rules::Color;

const POSITIONS: [&str; 6] = [
    "4HPwATDgc/ABMA", // the start
    "sGfwATDgc/ABMA", // after 8/5 6/5
    "OoI8YFE2XiBCUQ", // a checker on the bar, blots to hit
    "nEqyQgPv/QAABA", // a hit on the way
    "8H0AALC7BQAAAA", // bearing off
    "27YdAADg/wcAQA", // closed out: a pass
];

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let id = POSITIONS[usize::from(data[0]) % POSITIONS.len()];
    let board: Board = position_id::decode(id, Color::White).expect("a fixed ID");
    let dice = Dice(data[1] % 6 + 1, (data[1] / 6) % 6 + 1);
    let Ok(text) = std::str::from_utf8(&data[2..]) else {
        return;
    };
    if let Ok(play) = resolve(&board, dice, text) {
        let after = apply(&board, &play);
        let legal = legal_plays(&board, dice);
        assert!(legal.is_empty() == play.is_pass(), "{text:?}");
        assert!(legal.iter().any(|p| apply(&board, p) == after) || legal.is_empty(), "{text:?}");
        let written = notation::write(&board, &play);
        let again = resolve(&board, dice, &written).expect("gnubg's form resolves");
        assert_eq!(apply(&board, &again), after, "{text:?} -> {written}");
    }
});
