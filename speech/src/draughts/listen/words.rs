//! Draughts' squares in the listening words ([`DraughtsWords`]): by number
//! in international draughts (001 ch. I 2.6), by file and rank in 64-square
//! draughts (001 ch. I 2.6.4), the file as a letter or an annex E name;
//! and the draughts lexicon itself (the table's words and draughts'
//! questions about the board).

use std::path::Path;

use tandem_rules::draughts::{Square, Variant};

use crate::listen::lexicon::{fold, Lexicon, Words};
use crate::phrasebook::{Phrasebook, PhrasebookError};

/// Draughts' words on a [`Lexicon`]: the lexicon a draughts game listens
/// with, and how its squares are said.
pub trait DraughtsWords: Sized {
    /// The words of `book` with draughts' questions about the board
    /// (`crate::draughts::ask`).
    fn draughts(book: &Phrasebook) -> Self;

    /// [`DraughtsWords::draughts`] of a built-in phrasebook (`pl`, `en`).
    fn draughts_builtin(lang: &str) -> Option<Self> {
        Phrasebook::builtin(lang).map(|b| Self::draughts(&b))
    }

    /// [`DraughtsWords::draughts`] of a phrasebook file (the same file
    /// `tandem say --phrasebook` takes).
    ///
    /// # Errors
    /// The file cannot be read or is not a valid phrasebook.
    fn draughts_file(path: &Path) -> Result<Self, PhrasebookError> {
        Phrasebook::from_file(path).map(|b| Self::draughts(&b))
    }

    /// Every way a square is said in a variant: its number in international
    /// draughts (001 ch. I 2.6), its file and rank in 64-square draughts
    /// (001 ch. I 2.6.4) with every word for the file ("ce trzy", "c trzy",
    /// "Cesar trzy"; 002 annex E.2.1).
    fn square(&self, variant: Variant, sq: Square) -> Vec<Words>;

    /// [`DraughtsWords::square`] in the form used after "from" (the
    /// genitive of square numbers; algebraic squares do not change).
    fn square_from(&self, variant: Variant, sq: Square) -> Vec<Words>;

    /// Every square of the board by its number, with its ways of being
    /// said: the numbers of "square N" (and of the record's commands).
    fn squares(&self, variant: Variant) -> Vec<(u8, Vec<Words>)>;

    /// Reads a square named at the start of `tokens` (see
    /// [`Lexicon::tokens`]), longest match first (nominative or "from"
    /// forms): `(square, tokens used)`.
    fn read_square(&self, variant: Variant, tokens: &[String]) -> Option<(Square, usize)>;
}

impl DraughtsWords for Lexicon {
    fn draughts(book: &Phrasebook) -> Lexicon {
        let mut lex = Lexicon::from_phrasebook(book);
        lex.ask = crate::draughts::ask::phrases(book);
        lex
    }

    fn square(&self, variant: Variant, sq: Square) -> Vec<Words> {
        if !variant.algebraic_notation() {
            return self.number(sq.number()).to_vec();
        }
        let (file, rank) = variant.algebraic(sq);
        let mut out = Vec::new();
        for f in self.file(usize::from((file as u8).saturating_sub(b'a'))) {
            for r in self.number(rank) {
                out.push(f.iter().chain(r).cloned().collect());
            }
        }
        out
    }

    fn square_from(&self, variant: Variant, sq: Square) -> Vec<Words> {
        if variant.algebraic_notation() {
            self.square(variant, sq)
        } else {
            self.number_from(sq.number()).to_vec()
        }
    }

    fn squares(&self, variant: Variant) -> Vec<(u8, Vec<Words>)> {
        variant
            .all_squares()
            .map(|sq| (sq.number(), self.square(variant, sq)))
            .collect()
    }

    fn read_square(&self, variant: Variant, tokens: &[String]) -> Option<(Square, usize)> {
        let mut best: Option<(Square, usize)> = None;
        for sq in variant.all_squares() {
            for f in self
                .square(variant, sq)
                .iter()
                .chain(&self.square_from(variant, sq))
            {
                let f = &self.tokens(f);
                let len = f.len();
                if len > 0
                    && tokens.len() >= len
                    && tokens[..len].iter().zip(f).all(|(a, b)| fold(a) == fold(b))
                    && best.map_or(true, |(_, l)| len > l)
                {
                    best = Some((sq, len));
                }
            }
        }
        best
    }
}
