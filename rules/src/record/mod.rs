//! What PDN (draughts) and PGN (chess) records share: bytes to text, the
//! lexer that reads tags, comments, variations and words as leniently as real
//! exporters write them, and the assembly of tokens into games. The two
//! formats differ only in what a word of the move text is (a move, a move
//! number, a result or junk): each game's reader (draughts' PDN, chess's PGN) says so.
//!
//! Nothing a file holds makes the reader give up: text that cannot be placed
//! is skipped and reported as a [`Warning`] with its line and column, and a
//! game fails only at a move (in replay), never in reading.

use std::borrow::Cow;
use std::fmt;

mod assemble;
mod lex;

pub(crate) use assemble::{Class, RawGame};

/// What replaying a game of a record gave (each game's reader's `replay`:
/// `G` its game, `E` why its rules refuse a move).
#[derive(Debug, Clone)]
pub enum Replay<G, E> {
    /// Every move was legal.
    Ok(G),
    /// The first illegal move: move `ply` (1-based) is not legal; `game`
    /// holds the moves before it.
    Illegal {
        /// 1-based ply.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it is illegal.
        reason: E,
        /// The game up to the move before it.
        game: G,
    },
    /// The record cannot be used at all.
    Unreadable(String),
}

impl<G: crate::TableGame, E: fmt::Display> fmt::Display for Replay<G, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Replay::Ok(g) => write!(f, "ok ({} plies)", g.plies()),
            Replay::Illegal {
                ply, text, reason, ..
            } => write!(f, "illegal move {text} at ply {ply}: {reason}"),
            Replay::Unreadable(why) => write!(f, "unreadable: {why}"),
        }
    }
}

/// Something the reader skipped or had to guess, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// 1-based line in the file.
    pub line: usize,
    /// 1-based column (in characters) on that line.
    pub column: usize,
    /// What was skipped or guessed.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// A file's bytes as text, and the lines that were not UTF-8.
pub(crate) struct Decoded<'a> {
    pub text: Cow<'a, str>,
    /// 1-based lines read as Windows-1252 because they are not UTF-8.
    pub foreign_lines: Vec<usize>,
}

/// Reads bytes as text: a UTF-16 file by its byte-order mark; otherwise every
/// line that is valid UTF-8 as UTF-8 and every other line as Windows-1252
/// (which is Latin-1 with printable characters in 0x80-0x9F), so a file
/// joined from exports in different encodings keeps every name readable.
/// A UTF-8 byte-order mark is dropped.
pub(crate) fn decode(bytes: &[u8]) -> Decoded<'_> {
    if let Some((enc, _)) = encoding_rs::Encoding::for_bom(bytes) {
        if enc != encoding_rs::UTF_8 {
            let (text, _) = enc.decode_with_bom_removal(bytes);
            return Decoded {
                text,
                foreign_lines: Vec::new(),
            };
        }
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Decoded {
            text: Cow::Borrowed(s),
            foreign_lines: Vec::new(),
        };
    }
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    let mut foreign_lines = Vec::new();
    let mut rest = bytes;
    let mut number = 1;
    while !rest.is_empty() {
        // A line ends at LF, CR or CRLF, as the lexer counts them.
        let end = match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(k) if rest[k] == b'\r' && rest.get(k + 1) == Some(&b'\n') => k + 2,
            Some(k) => k + 1,
            None => rest.len(),
        };
        let (line, tail) = rest.split_at(end);
        match std::str::from_utf8(line) {
            Ok(s) => text.push_str(s),
            Err(_) => {
                foreign_lines.push(number);
                let (s, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(line);
                text.push_str(&s);
            }
        }
        rest = tail;
        number += 1;
    }
    Decoded {
        text: Cow::Owned(text),
        foreign_lines,
    }
}

/// A record file's bytes as text, decoded as the games' record readers do
/// decodes them (UTF-8 or Windows-1252 line by line, UTF-16 by its mark),
/// for readers that take text.
#[must_use]
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    decode(bytes).text
}

/// Every game of a record file (PDN or PGN), and what the reader skipped
/// outside them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordFile<G> {
    /// The games in file order, each with its own warnings.
    pub games: Vec<G>,
    /// Warnings that belong to no game (only in a file with no game).
    pub warnings: Vec<Warning>,
}

impl<G> Default for RecordFile<G> {
    fn default() -> Self {
        RecordFile {
            games: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// Reads the bytes of a file into games: `classify` decides what each word
/// of the move text is, `make` turns a raw game into the format's own.
pub(crate) fn read_file<F, G>(bytes: &[u8], classify: F, make: fn(RawGame) -> G) -> RecordFile<G>
where
    F: Fn(&str, bool) -> Class,
{
    let decoded = decode(bytes);
    let tokens = lex::lex(&decoded.text, &decoded.foreign_lines);
    let (games, warnings) = assemble::assemble(&tokens, classify);
    RecordFile {
        games: games.into_iter().map(make).collect(),
        warnings,
    }
}

/// [`read_file`]'s games for text already decoded.
pub(crate) fn parse_games<F, G>(text: &str, classify: F, make: fn(RawGame) -> G) -> Vec<G>
where
    F: Fn(&str, bool) -> Class,
{
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let tokens = lex::lex(text, &[]);
    assemble::assemble(&tokens, classify)
        .0
        .into_iter()
        .map(make)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_lines_stay_and_other_lines_are_windows_1252() {
        let d = decode(b"\xEF\xBB\xBF[White \"\xC5\x81ukasz\"]\n[Black \"M\xFCller \x80\"]\n");
        assert_eq!(
            d.text,
            "[White \"\u{141}ukasz\"]\n[Black \"M\u{fc}ller \u{20ac}\"]\n"
        );
        assert_eq!(d.foreign_lines, [2]);
        let d = decode(b"a\r\nb\r\xE9\n\xE9");
        assert_eq!(d.text, "a\r\nb\r\u{e9}\n\u{e9}");
        assert_eq!(d.foreign_lines, [3, 4]);
        let d = decode(b"\xFF\xFE[\0A\0]\0");
        assert_eq!(d.text, "[A]");
    }
}
