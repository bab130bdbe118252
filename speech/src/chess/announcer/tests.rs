use super::*;
use crate::chess::{CHESS_ENGLISH_TOML, CHESS_POLISH_TOML};
use tandem_rules::chess::{resolve, start};

#[test]
fn built_in_books_load() {
    for b in [ChessPhrasebook::polish(), ChessPhrasebook::english()] {
        assert_eq!(b.file_word(4, FileStyle::Names).chars().next(), Some('E'));
        assert!(!b.listen().short_castle.is_empty());
    }
}

#[test]
fn a_book_with_a_wrong_name_or_missing_key_is_refused() {
    let bad = CHESS_POLISH_TOML.replace("{piece} {from}, {to}.", "{piece} {form}, {to}.");
    let e = ChessPhrasebook::from_toml_str(&bad).unwrap_err();
    assert!(e.to_string().contains("move.quiet"), "{e}");
    let bad = CHESS_POLISH_TOML.replace("knight = \"skoczek\"\n", "");
    let e = ChessPhrasebook::from_toml_str(&bad).unwrap_err();
    assert!(e.to_string().contains("pieces.nominative.knight"), "{e}");
    let bad = CHESS_ENGLISH_TOML.replace("\"Hector\"]", "]");
    assert!(ChessPhrasebook::from_toml_str(&bad).is_err());
    assert!(ChessPhrasebook::from_toml_str("not toml [").is_err());
}

#[test]
fn letters_style_names_files_plainly() {
    let a = ChessAnnouncer::new(ChessPhrasebook::polish(), FileStyle::Letters);
    let p = start();
    let m = resolve(&p, "e4").unwrap();
    assert_eq!(a.on_move(&p, &m).text(), "Pion e dwa, e cztery.");
}
