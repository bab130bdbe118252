//! Draughts' squares and pieces in the table's [`Phrasebook`]
//! ([`DraughtsBook`]): a square by its number in international draughts
//! (001 ch. I 2.6), by file and rank in 64-square draughts (001 ch. I
//! 2.6.4), as the [`SquareStyle`] asks; a piece by `[pieces]`.

use tandem_rules::draughts::{Piece, Role, Square, Variant};
use tandem_rules::Color;

use crate::phrasebook::{Phrasebook, SquareStyle, SquareWords};

/// Draughts' words of a [`Phrasebook`].
pub trait DraughtsBook {
    /// The spoken forms of a square in a variant.
    ///
    /// ```
    /// use tandem_rules::draughts::{Square, Variant};
    /// use tandem_speech::draughts::DraughtsBook;
    /// use tandem_speech::{Phrasebook, SquareStyle};
    /// let pl = Phrasebook::polish();
    /// let s = pl.square_words(Variant::International, Square::new(32).unwrap(), SquareStyle::Notation);
    /// assert_eq!((s.nominative.as_str(), s.genitive.as_str()), ("trzydzieści dwa", "trzydziestu dwóch"));
    /// let c3 = pl.square_words(Variant::SixtyFour, Square::new(22).unwrap(), SquareStyle::AnnexE);
    /// assert_eq!(c3.nominative, "Cesar trzy");
    /// ```
    fn square_words(&self, variant: Variant, sq: Square, style: SquareStyle) -> SquareWords;

    /// A piece's name, or the word for an empty square.
    fn piece(&self, piece: Option<Piece>) -> &str;
}

impl DraughtsBook for Phrasebook {
    fn square_words(&self, variant: Variant, sq: Square, style: SquareStyle) -> SquareWords {
        let algebraic = variant.algebraic_notation() && style != SquareStyle::Numbers;
        if algebraic {
            let (file, rank) = variant.algebraic(sq);
            let i = (file as u8).saturating_sub(b'a') as usize;
            let (letters, names) = self.file_words();
            let letters = match (style, names) {
                (SquareStyle::AnnexE, Some(names)) => names,
                _ => letters,
            };
            let letter = letters.get(i).cloned().unwrap_or_else(|| file.to_string());
            let s = format!("{letter} {}", self.number(u64::from(rank)));
            return SquareWords {
                nominative: s.clone(),
                genitive: s,
            };
        }
        let n = u64::from(sq.number());
        let nominative = self.number(n);
        let genitive = self
            .genitive_numbers()
            .and_then(|g| g.get(sq.number() as usize - 1))
            .cloned()
            .unwrap_or_else(|| nominative.clone());
        SquareWords {
            nominative,
            genitive,
        }
    }

    fn piece(&self, piece: Option<Piece>) -> &str {
        self.piece_word(match piece {
            Some(Piece {
                color: Color::White,
                role: Role::Man,
            }) => "white_man",
            Some(Piece {
                color: Color::White,
                role: Role::King,
            }) => "white_king",
            Some(Piece {
                color: Color::Black,
                role: Role::Man,
            }) => "black_man",
            Some(Piece {
                color: Color::Black,
                role: Role::King,
            }) => "black_king",
            None => "empty",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genitive_squares_polish() {
        let pl = Phrasebook::polish();
        let sq = |n| Square::new(n).unwrap();
        assert_eq!(
            pl.square_words(Variant::International, sq(28), SquareStyle::Notation)
                .genitive,
            "dwudziestu ośmiu"
        );
    }

    #[test]
    fn algebraic_squares() {
        let pl = Phrasebook::polish();
        let en = Phrasebook::english();
        let sq = |n| Square::new(n).unwrap();
        // 29 = a1, 4 = h8 in 64-square numbering.
        assert_eq!(
            pl.square_words(Variant::SixtyFour, sq(29), SquareStyle::Notation)
                .nominative,
            "a jeden"
        );
        assert_eq!(
            en.square_words(Variant::SixtyFour, sq(4), SquareStyle::AnnexE)
                .nominative,
            "Hector eight"
        );
        assert_eq!(
            en.square_words(Variant::SixtyFour, sq(4), SquareStyle::Numbers)
                .nominative,
            "four"
        );
    }
}
