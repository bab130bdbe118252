//! Tokens into games. A game starts at its first tag or move and ends at its
//! result, at the next game's tags, or where move 1 begins again; it is never
//! started by junk, a comment or a stray result, so a messy file is not split
//! into bogus games. Warnings go to the game they are in (those between two
//! games to the next one, those after the last game to it).

use super::lex::{Tok, Token};
use super::Warning;

/// What a word of move text is, as the format (PDN or PGN) reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Class {
    /// Nothing to keep (`...`, a bare move number).
    Skip,
    /// A move number: `12.` (white) or `12...` (black).
    Number(u32, bool),
    /// A result ending the game; `None` for a placeholder such as `-`.
    Result(Option<String>),
    /// A move, with the number glued before it if any.
    Move {
        /// `43.` in `43.28-23`.
        number: Option<(u32, bool)>,
        /// The move without marks.
        text: String,
        /// `!`, `?!`.
        marks: String,
    },
    /// Not a move and nothing else either: skipped with a warning.
    Junk,
    /// A move with the result written against it (`a5*`, `Qxf7#1-0`): the
    /// move, then the result, with a warning (PGN standard 8.2.6: a game
    /// termination marker ends the movetext wherever it stands).
    Glued {
        /// What the text before the result is (a [`Class::Move`]).
        before: Box<Class>,
        /// The result, as [`Class::Result`] holds it.
        result: String,
        /// Characters before the result in the word.
        at: usize,
    },
}

/// A game before the format makes its own type of it.
#[derive(Debug, Clone, Default)]
pub(crate) struct RawGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<RawMove>,
    pub result: Option<String>,
    pub line: usize,
    pub warnings: Vec<Warning>,
    foreign: bool,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct RawMove {
    pub text: String,
    pub marks: String,
    pub nags: Vec<u16>,
    pub comments: Vec<String>,
    pub line: usize,
    pub column: usize,
}

/// Tags that a game holds once: a second one after a blank line starts the
/// next game even when the first had no move text.
const ROSTER: [&str; 9] = [
    "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "FEN",
];

/// Whether the next token that matters ends the game: the next game's tags,
/// move 1 of a game without tags, or the end of the file.
fn at_game_end(tokens: &[Token]) -> bool {
    for t in tokens {
        match &t.tok {
            Tok::Comment(_) | Tok::Nag(_) | Tok::Warning(_) | Tok::Foreign => {}
            Tok::Tag(..) => return true,
            Tok::Word(w) => {
                let digits = w.trim_start_matches('0');
                return digits.starts_with("1.") && !digits.starts_with("1..");
            }
        }
    }
    true
}

struct Builder {
    games: Vec<RawGame>,
    cur: Option<RawGame>,
    pending: Vec<Warning>,
    pending_foreign: bool,
    /// Where a game announced by a move number starts.
    pending_line: Option<usize>,
    last_tag_line: usize,
}

impl Builder {
    fn finish(&mut self) {
        if let Some(g) = self.cur.take() {
            self.games.push(g);
        }
    }

    fn start(&mut self, line: usize) -> &mut RawGame {
        if self.cur.is_none() {
            self.cur = Some(RawGame {
                line: self.pending_line.take().unwrap_or(line),
                warnings: std::mem::take(&mut self.pending),
                foreign: std::mem::take(&mut self.pending_foreign),
                ..RawGame::default()
            });
        }
        self.cur.get_or_insert_with(RawGame::default)
    }

    /// Places a word of move text the format has classified.
    fn word(&mut self, class: Class, w: &str, t: &Token) {
        let has_moves = self.cur.as_ref().is_some_and(|g| !g.moves.is_empty());
        let number = match &class {
            Class::Number(n, white) => Some((*n, *white)),
            Class::Move { number, .. } => *number,
            _ => None,
        };
        if number == Some((1, true)) && has_moves {
            // Move 1 again: the game before had no result.
            self.finish();
        }
        match class {
            Class::Skip | Class::Glued { .. } => {}
            Class::Number(..) => {
                if self.cur.is_none() {
                    self.pending_line.get_or_insert(t.line);
                }
            }
            Class::Result(r) => {
                if let Some(g) = &mut self.cur {
                    g.result = r;
                    self.finish();
                } else {
                    self.pending_line = None;
                    self.warn(Warning {
                        line: t.line,
                        column: t.col,
                        message: format!("result `{w}` outside a game skipped"),
                    });
                }
            }
            Class::Move { text, marks, .. } => self.start(t.line).moves.push(RawMove {
                text,
                marks,
                line: t.line,
                column: t.col,
                ..RawMove::default()
            }),
            Class::Junk => self.warn(Warning {
                line: t.line,
                column: t.col,
                message: format!("`{w}` is not a move; skipped"),
            }),
        }
    }

    fn warn(&mut self, w: Warning) {
        match &mut self.cur {
            Some(g) => g.warnings.push(w),
            None => self.pending.push(w),
        }
    }
}

/// Assembles tokens into games; `classify` reads a word, knowing whether the
/// game ends after it. The second part holds the warnings of a file with no game.
pub(crate) fn assemble<F>(tokens: &[Token], classify: F) -> (Vec<RawGame>, Vec<Warning>)
where
    F: Fn(&str, bool) -> Class,
{
    let mut b = Builder {
        games: Vec::new(),
        cur: None,
        pending: Vec::new(),
        pending_foreign: false,
        pending_line: None,
        last_tag_line: 0,
    };
    for (k, t) in tokens.iter().enumerate() {
        match &t.tok {
            Tok::Tag(name, value) => {
                let new_game = b.cur.as_ref().is_some_and(|g| {
                    !g.moves.is_empty()
                        || (t.line > b.last_tag_line + 1
                            && ROSTER.iter().any(|r| r.eq_ignore_ascii_case(name))
                            && g.tags.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)))
                });
                if new_game {
                    b.finish();
                }
                b.pending_line = None;
                b.last_tag_line = t.line;
                b.start(t.line).tags.push((name.clone(), value.clone()));
            }
            Tok::Word(w) => {
                let has_moves = b.cur.as_ref().is_some_and(|g| !g.moves.is_empty());
                match classify(w, has_moves && at_game_end(&tokens[k + 1..])) {
                    Class::Glued { before, result, at } => {
                        b.word(*before, w, t);
                        b.warn(Warning {
                            line: t.line,
                            column: t.col + at,
                            message: format!(
                                "the result `{result}` is written against the move `{}`: read as the move and the result (PGN standard 8.2.6)",
                                w.chars().take(at).collect::<String>()
                            ),
                        });
                        b.word(Class::Result(Some(result)), w, t);
                    }
                    class => b.word(class, w, t),
                }
            }
            Tok::Comment(c) => {
                if let Some(m) = b.cur.as_mut().and_then(|g| g.moves.last_mut()) {
                    m.comments.push(c.clone());
                }
            }
            Tok::Nag(n) => {
                if let Some(m) = b.cur.as_mut().and_then(|g| g.moves.last_mut()) {
                    m.nags.push(*n);
                }
            }
            Tok::Warning(_) => {
                if let Some(w) = t.warning() {
                    b.warn(w);
                }
            }
            Tok::Foreign => {
                let first = match &mut b.cur {
                    Some(g) => !std::mem::replace(&mut g.foreign, true),
                    None => !std::mem::replace(&mut b.pending_foreign, true),
                };
                if first {
                    b.warn(Warning {
                        line: t.line,
                        column: 1,
                        message: "not UTF-8: read as Windows-1252 (Latin-1)".into(),
                    });
                }
            }
        }
    }
    b.finish();
    let mut rest = std::mem::take(&mut b.pending);
    if let Some(last) = b.games.last_mut() {
        last.warnings.append(&mut rest);
    }
    for g in &mut b.games {
        g.warnings.sort_by_key(|w| (w.line, w.column));
    }
    (b.games, rest)
}
