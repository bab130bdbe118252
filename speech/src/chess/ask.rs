//! Chess questions about the board (issue 23, `docs/ask.md`): the pieces
//! of one kind, a file, a rank, a square, the pawns file by file, the
//! material. Only what a sighted player sees: never a legal move, a check
//! to give, an attacked piece or a capture (002 art. 11.3).
//!
//! The words are the chess phrasebook's `[ask]` and `[listen.ask]`
//! ([`AskBook`]); squares and files are said in the player's `--files`
//! style.

use tandem_rules::chess::shakmaty::{
    Bitboard, Board, Chess, Color as ShColor, File, Piece, Position as _, Rank, Role, Square,
};
use tandem_rules::Color;

use super::{ChessAnnouncer, ChessPhrasebook, FileStyle};
use crate::ask::{number_slot, AskBook, AskPhrase, Question, Slots};
use crate::listen::lexicon::words_of;

/// The built-in question words of a language with data (none for
/// another: a phrasebook of its own keeps its own words only).
#[must_use]
pub fn ask_book(lang: &str) -> &'static AskBook {
    crate::ask::builtin_ask_book(crate::languages::Book::Chess, lang)
}

/// The slots of the chess phrasings: `{file}` (names, letters and the
/// book's other file words), `{rank}` (the rank words, ordinals, digits),
/// `{square}` (file and rank words, and `e4` as typed).
#[must_use]
pub fn slots(book: &ChessPhrasebook, ask: &AskBook) -> Slots {
    let mut s = Slots::new();
    let mut files = Vec::new();
    for f in 0..8 {
        let typed = ((b'a' + f as u8) as char).to_string();
        let mut forms: Vec<String> = vec![
            book.file_word(f, FileStyle::Names).to_owned(),
            book.file_word(f, FileStyle::Letters).to_owned(),
        ];
        forms.extend(book.listen().file_words[f].iter().cloned());
        forms.sort();
        forms.dedup();
        for w in forms {
            files.push((words_of(&w), typed.clone()));
        }
    }
    let ordinals = ask.list("ordinal");
    let ranks = number_slot(1, 8, |n| {
        let i = n as usize - 1;
        let mut v = vec![book.rank_word(i).to_owned()];
        v.extend(ordinals.get(i).cloned());
        v
    });
    let mut squares = Vec::new();
    for (fw, f) in &files {
        for r in 0..8 {
            let mut w = fw.clone();
            w.extend(words_of(book.rank_word(r)));
            squares.push((w, format!("{f}{}", r + 1)));
        }
    }
    for f in 0..8u8 {
        for r in 1..=8 {
            let typed = format!("{}{r}", (b'a' + f) as char);
            squares.push((vec![typed.clone()], typed));
        }
    }
    s.insert("file".into(), files);
    s.insert("rank".into(), ranks);
    s.insert("square".into(), squares);
    s
}

/// Every chess question phrase of `book`'s language, sorted for
/// [`crate::ask::heard_question`].
#[must_use]
pub fn phrases(book: &ChessPhrasebook) -> Vec<AskPhrase> {
    let ask = ask_book(book.language());
    ask.phrases(&slots(book, ask))
}

fn sh(c: Color) -> ShColor {
    match c {
        Color::White => ShColor::White,
        Color::Black => ShColor::Black,
    }
}

fn role_of(word: &str) -> Option<Role> {
    Some(match word {
        "knights" | "knight" => Role::Knight,
        "bishops" | "bishop" => Role::Bishop,
        "rooks" | "rook" => Role::Rook,
        "queens" | "queen" => Role::Queen,
        "kings" | "king" => Role::King,
        "pawns" | "pawn" => Role::Pawn,
        _ => return None,
    })
}

/// The question words chess answers (`tandem ctl ask` lists them).
pub const QUESTIONS: &str = "knights, bishops, rooks, queens, kings, pawns, file X, rank N, \
     square SQ, material (each optionally preceded by white, black, my or opponent)";

/// The braille display's letter keys for the common questions
/// (docs/ask.md): k kings, q queens, r rooks, b bishops, n knights,
/// p pawns, m material.
pub const KEYS: &[(&str, &str)] = &[
    ("k", "kings"),
    ("q", "queens"),
    ("r", "rooks"),
    ("b", "bishops"),
    ("n", "knights"),
    ("p", "pawns"),
    ("m", "material"),
];

/// Answers a chess question: `None` if the word is not one; `Err` with the
/// words that say why it cannot be answered (whose pieces? no such file).
///
/// `asker` is whose "my" is (`None`: nobody in particular); the sides are
/// said the asker's first, ranks from the asker's side of the board.
///
/// # Errors
/// The question needs a side, or its argument is not a file, rank or square.
pub fn answer(
    ask: &AskBook,
    words: &ChessAnnouncer,
    pos: &Chess,
    q: &Question,
    asker: Option<Color>,
) -> Option<Result<Vec<String>, String>> {
    crate::ask::answer_keyed(ask, q, asker, KEYS, |q, side, sides| {
        let a = Asking {
            ask,
            words,
            board: pos.board(),
            first: asker.unwrap_or(Color::White),
        };
        let arg = q.arg.as_deref();
        Some(match q.word.as_str() {
            "pawns" | "pawn" if side.is_none() && arg.is_none() => Ok(a.pawns(sides)),
            w if role_of(w).is_some() && arg.is_none() => Ok(a.pieces(role_of(w)?, sides)),
            "file" | "linia" => a.file(arg),
            "rank" => a.rank(arg),
            "square" => match arg.and_then(|a| a.parse::<Square>().ok()) {
                Some(s) => Ok(words.describe_square(pos, s).sentences),
                None => Err(ask.unknown()),
            },
            "material" => Ok(a.material(sides)),
            _ => return None,
        })
    })
}

/// What every answer reads: the words, the board and whose side is said first.
struct Asking<'a> {
    ask: &'a AskBook,
    words: &'a ChessAnnouncer,
    board: &'a Board,
    first: Color,
}

impl Asking<'_> {
    /// Squares ordered as the asker scans: rows from their side, files a to h.
    fn scan(&self, mut v: Vec<Square>) -> Vec<Square> {
        v.sort_by_key(|s| {
            let r = u32::from(s.rank());
            let r = if self.first == Color::White { r } else { 7 - r };
            (r, u32::from(s.file()))
        });
        v
    }

    /// "biały król Ewa jeden".
    fn piece_at(&self, s: Square) -> String {
        self.ask.text(
            "piece",
            &[
                ("piece", &self.words.piece_name(self.board.piece_at(s))),
                ("square", &self.words.square(s)),
            ],
        )
    }

    /// The pawns file by file: "Anna: white two, black seven".
    fn pawns(&self, sides: &[Color]) -> Vec<String> {
        let files: Vec<String> = File::ALL
            .into_iter()
            .filter_map(|f| self.pawn_file(f, sides))
            .collect();
        if files.is_empty() {
            vec![self.ask.sentence("no_pawns", &[])]
        } else {
            vec![self
                .ask
                .sentence("pawn_files", &[("files", &files.join("; "))])]
        }
    }

    /// One file's pawns, each side's ranks ("Anna: white two, black
    /// seven"); `None` for a file without pawns.
    fn pawn_file(&self, f: File, sides: &[Color]) -> Option<String> {
        let book = self.words.phrasebook();
        let mut per = Vec::new();
        for c in sides {
            let mut ranks: Vec<Rank> = (self.board.by_piece(Piece {
                color: sh(*c),
                role: Role::Pawn,
            }) & Bitboard::from(f))
            .into_iter()
            .map(Square::rank)
            .collect();
            if *c == Color::Black {
                ranks.reverse();
            }
            if ranks.is_empty() {
                continue;
            }
            let r: Vec<&str> = ranks
                .iter()
                .map(|r| book.rank_word(usize::from(*r)))
                .collect();
            per.push(self.ask.text(
                "pawn_side",
                &[
                    ("side", &self.ask.side_word(*c)),
                    ("ranks", &r.join(&self.ask.text("and", &[]))),
                ],
            ));
        }
        (!per.is_empty()).then(|| {
            self.ask.text(
                "pawn_file",
                &[
                    ("file", book.file_word(usize::from(f), self.words.style())),
                    ("sides", &per.join(", ")),
                ],
            )
        })
    }

    /// Where each side's pieces of one kind stand.
    fn pieces(&self, role: Role, sides: &[Color]) -> Vec<String> {
        let name = self.ask.text(w_key(role), &[]);
        sides
            .iter()
            .map(|c| {
                let side = self.ask.side_word(*c);
                let sq = self.scan(
                    self.board
                        .by_piece(Piece {
                            color: sh(*c),
                            role,
                        })
                        .into_iter()
                        .collect(),
                );
                if sq.is_empty() {
                    self.ask
                        .sentence("none", &[("side", &side), ("name", &name)])
                } else {
                    let list: Vec<String> = sq.iter().map(|s| self.words.square(*s)).collect();
                    self.ask.sentence(
                        "pieces",
                        &[
                            ("side", &side),
                            ("name", &name),
                            ("squares", &list.join(", ")),
                        ],
                    )
                }
            })
            .collect()
    }

    /// What stands on a file, from the asker's side.
    fn file(&self, arg: Option<&str>) -> Result<Vec<String>, String> {
        let book = self.words.phrasebook();
        let Some(f) = arg.and_then(|a| file_of(book, a)) else {
            return Err(self.ask.unknown());
        };
        let mut sq: Vec<Square> = (self.board.occupied() & Bitboard::from(f))
            .into_iter()
            .collect();
        if self.first == Color::Black {
            sq.reverse();
        }
        let fw = book.file_word(usize::from(f), self.words.style());
        Ok(self.line("file", fw, sq))
    }

    /// What stands on a rank (1-8), files a to h.
    fn rank(&self, arg: Option<&str>) -> Result<Vec<String>, String> {
        let Some(r) = arg
            .and_then(|a| a.parse::<u32>().ok())
            .filter(|n| (1..=8).contains(n))
            .map(|n| Rank::new(n - 1))
        else {
            return Err(self.ask.unknown());
        };
        let sq: Vec<Square> = (self.board.occupied() & Bitboard::from(r))
            .into_iter()
            .collect();
        let rw = self.words.phrasebook().rank_word(usize::from(r));
        Ok(self.line("rank", rw, sq))
    }

    /// The pieces on a `kind` of line (`file`, `rank`) called `word`, or
    /// that it is empty.
    fn line(&self, kind: &str, word: &str, sq: Vec<Square>) -> Vec<String> {
        if sq.is_empty() {
            let line = self.ask.text(&format!("{kind}_name"), &[(kind, word)]);
            vec![self.ask.sentence("empty", &[("line", &line)])]
        } else {
            let p: Vec<String> = sq.into_iter().map(|s| self.piece_at(s)).collect();
            vec![self
                .ask
                .sentence(kind, &[(kind, word), ("pieces", &p.join(", "))])]
        }
    }

    /// Each side's pieces counted by kind, the king left out.
    fn material(&self, sides: &[Color]) -> Vec<String> {
        let names: Vec<String> = self
            .ask
            .text("material_names", &[])
            .split(',')
            .map(|s| s.trim().to_owned())
            .collect();
        let roles = [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ];
        sides
            .iter()
            .map(|c| {
                let counts: Vec<String> = roles
                    .iter()
                    .zip(&names)
                    .filter_map(|(role, name)| {
                        let n = self
                            .board
                            .by_piece(Piece {
                                color: sh(*c),
                                role: *role,
                            })
                            .count();
                        (n > 0).then(|| {
                            self.ask
                                .text("count", &[("name", name), ("n", &n.to_string())])
                        })
                    })
                    .collect();
                let pieces = if counts.is_empty() {
                    self.ask.text("kings", &[])
                } else {
                    counts.join(", ")
                };
                self.ask.sentence(
                    "material",
                    &[("side", &self.ask.side_word(*c)), ("pieces", &pieces)],
                )
            })
            .collect()
    }
}

fn w_key(role: Role) -> &'static str {
    match role {
        Role::Knight => "knights",
        Role::Bishop => "bishops",
        Role::Rook => "rooks",
        Role::Queen => "queens",
        Role::King => "kings",
        Role::Pawn => "pawns",
    }
}

fn file_of(book: &ChessPhrasebook, a: &str) -> Option<File> {
    let a = a.to_lowercase();
    (0..8).find_map(|f| {
        let hit = [FileStyle::Letters, FileStyle::Names]
            .iter()
            .any(|s| book.file_word(f, *s).to_lowercase() == a)
            || book.listen().file_words[f]
                .iter()
                .any(|w| w.to_lowercase() == a);
        hit.then(|| File::new(f as u32))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ask::heard_question;

    fn ask_pl(fen: &str, q: &str, asker: Option<Color>) -> String {
        let book = ChessPhrasebook::polish();
        let words = ChessAnnouncer::new(book, FileStyle::Names);
        let pos = tandem_rules::chess::from_fen(fen).unwrap();
        let q = Question::parse(q).unwrap();
        match answer(ask_book("pl"), &words, &pos, &q, asker).unwrap() {
            Ok(s) => s.join(" "),
            Err(s) => s,
        }
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn pieces_of_a_kind_files_ranks_and_material_at_the_start() {
        assert_eq!(
            ask_pl(START, "knights", Some(Color::White)),
            "Białe: skoczki Bella jeden, Gustaw jeden. Czarne: skoczki Bella osiem, Gustaw osiem."
        );
        assert_eq!(
            ask_pl(START, "opponent knights", Some(Color::White)),
            "Czarne: skoczki Bella osiem, Gustaw osiem."
        );
        assert_eq!(
            ask_pl(START, "my kings", Some(Color::Black)),
            "Czarne: król Ewa osiem."
        );
        assert!(ask_pl(START, "my kings", None).starts_with("Czyje bierki?"));
        assert_eq!(
            ask_pl(START, "file e", Some(Color::White)),
            "Linia Ewa: biały król Ewa jeden, biały pion Ewa dwa, czarny pion Ewa siedem, czarny król Ewa osiem."
        );
        assert_eq!(ask_pl(START, "rank 4", None), "Rząd cztery: pusto.");
        assert_eq!(
            ask_pl(START, "material", None),
            "Białe: hetmany 1, wieże 2, gońce 2, skoczki 2, piony 8. Czarne: hetmany 1, wieże 2, gońce 2, skoczki 2, piony 8."
        );
        assert_eq!(ask_pl(START, "square e4", None), "Pole Ewa cztery: puste.");
    }

    #[test]
    fn pawns_file_by_file() {
        let fen = "4k3/p6p/8/8/3P4/8/P7/4K3 w - - 0 1";
        assert_eq!(
            ask_pl(fen, "pawns", None),
            "Piony: Anna: białe dwa, czarne siedem; Dawid: białe cztery; Hektor: czarne siedem."
        );
    }

    #[test]
    fn spoken_questions_are_heard_exactly() {
        let p = phrases(&ChessPhrasebook::polish());
        let h = |t: &str| heard_question(&p, t);
        assert_eq!(h("gdzie są skoczki").as_deref(), Some("knights"));
        assert_eq!(
            h("skoczki przeciwnika").as_deref(),
            Some("opponent knights")
        );
        assert_eq!(h("linia Ewa").as_deref(), Some("file e"));
        assert_eq!(h("rząd siódmy").as_deref(), Some("rank 7"));
        assert_eq!(h("pole Ewa cztery").as_deref(), Some("square e4"));
        assert_eq!(h("Ewa dwa Ewa cztery"), None);
        let e = phrases(&ChessPhrasebook::english());
        let h = |t: &str| heard_question(&e, t);
        assert_eq!(h("where are the knights").as_deref(), Some("knights"));
        assert_eq!(h("file e").as_deref(), Some("file e"));
        assert_eq!(h("rank seven").as_deref(), Some("rank 7"));
        assert_eq!(h("kings").as_deref(), Some("kings"));
    }
}
