//! The lexer of PDN and PGN text: tags, comments, variations, NAGs and words,
//! with what broken exporters write repaired or skipped:
//! - escape sequences written out as text: a literal `\r`, `\n`, `\t`
//!   outside a tag value is white space, and `&quot;`, `&amp;`, `&lt;`,
//!   `&gt;`, `&apos;`, `&nbsp;`, `&#NN;` stand for their characters;
//! - CR, LF and CRLF line ends mixed; tabs; byte-order marks inside the text;
//! - tags: split over two lines (a line holding only `[`, the value or the
//!   `]` on the next line), a missing closing quote or `]`, an unquoted
//!   value, an unescaped quote inside the value; a tag without a name and
//!   anything else in `[ ]` is skipped with a warning;
//! - a comment or variation that never closes ends at the end of its line
//!   (with a warning) rather than swallowing the games after it: a comment
//!   holds no tag line, a variation no tag line and no blank line;
//! - stray `}`, `)`, `]`, quotes and control characters are skipped with a
//!   warning.
//!
//! Positions are those of the file: a line is counted at every real line
//! end, never at an escape written out as text.

use super::Warning;

/// What the lexer found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// `[Name "value"]`.
    Tag(String, String),
    /// `{...}`, trimmed.
    Comment(String),
    /// `$n`.
    Nag(u16),
    /// A word of move text (a move, a number, a result or junk).
    Word(String),
    /// Text skipped or repaired.
    Warning(String),
    /// The line of the token before is not UTF-8 (read as Windows-1252).
    Foreign,
}

/// A token and where it starts (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: usize,
    pub col: usize,
}

impl Token {
    pub(crate) fn warning(&self) -> Option<Warning> {
        match &self.tok {
            Tok::Warning(m) => Some(Warning {
                line: self.line,
                column: self.col,
                message: m.clone(),
            }),
            _ => None,
        }
    }
}

/// A character as read: escapes written out as text give the character
/// they stand for.
#[derive(Clone, Copy)]
struct Ch {
    c: char,
    /// Bytes taken in the text.
    len: usize,
    /// A real line end (LF, CR or CRLF).
    newline: bool,
    /// Came from `\n`, `&quot;` and the like.
    escape: bool,
}

#[derive(Clone, Copy)]
struct Cursor<'a> {
    s: &'a str,
    i: usize,
    line: usize,
    col: usize,
    /// Nothing but white space since the last line end (real or escaped).
    line_start: bool,
}

const ENTITIES: [(&str, char); 6] = [
    ("&quot;", '"'),
    ("&amp;", '&'),
    ("&lt;", '<'),
    ("&gt;", '>'),
    ("&apos;", '\''),
    ("&nbsp;", ' '),
];

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.i..]
    }

    /// The next character with escapes written out as text decoded.
    fn peek(&self) -> Option<Ch> {
        let rest = self.rest();
        let c = rest.chars().next()?;
        let plain = |c: char, len: usize| Ch {
            c,
            len,
            newline: false,
            escape: false,
        };
        let escaped = |c: char, len: usize| Ch {
            c,
            len,
            newline: false,
            escape: true,
        };
        Some(match c {
            '\r' => Ch {
                c: '\n',
                len: if rest.as_bytes().get(1) == Some(&b'\n') {
                    2
                } else {
                    1
                },
                newline: true,
                escape: false,
            },
            '\n' => Ch {
                c: '\n',
                len: 1,
                newline: true,
                escape: false,
            },
            '\\' => match rest.as_bytes().get(1) {
                Some(b'r' | b'n') => escaped('\n', 2),
                Some(b't') => escaped(' ', 2),
                _ => plain('\\', 1),
            },
            '&' => {
                for (name, ch) in ENTITIES {
                    if rest.len() >= name.len()
                        && rest.as_bytes()[..name.len()].eq_ignore_ascii_case(name.as_bytes())
                    {
                        return Some(escaped(ch, name.len()));
                    }
                }
                numeric_entity(rest).map_or(plain('&', 1), |(ch, len)| escaped(ch, len))
            }
            '\t' | '\u{feff}' | '\u{a0}' => plain(' ', c.len_utf8()),
            c => plain(c, c.len_utf8()),
        })
    }

    fn bump(&mut self) -> Option<Ch> {
        let ch = self.peek()?;
        self.i += ch.len;
        if ch.newline {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += if ch.escape { ch.len } else { 1 };
        }
        if ch.c == '\n' {
            self.line_start = true;
        } else if !ch.c.is_whitespace() {
            self.line_start = false;
        }
        Some(ch)
    }

    fn peek_c(&self) -> Option<char> {
        self.peek().map(|ch| ch.c)
    }

    /// Skips spaces and tabs (not line ends).
    fn skip_blanks(&mut self) {
        while self
            .peek()
            .is_some_and(|ch| ch.c != '\n' && ch.c.is_whitespace())
        {
            self.bump();
        }
    }

    /// Skips to the end of the current line (real or escaped), not past it.
    fn skip_line(&mut self) {
        while self.peek().is_some_and(|ch| ch.c != '\n') {
            self.bump();
        }
    }

    /// At a line end; the cursor just after it and its blanks.
    fn after_newline(&self) -> Option<Self> {
        let mut c = *self;
        if c.peek_c() != Some('\n') {
            return None;
        }
        c.bump();
        c.skip_blanks();
        Some(c)
    }

    /// Whether a tag line starts here: `[`, a name, blanks, a quote.
    fn at_tag(&self) -> bool {
        let mut c = *self;
        if c.bump().map(|ch| ch.c) != Some('[') {
            return false;
        }
        c.skip_blanks();
        c.at_tag_body()
    }

    /// Whether a tag's body starts here: a name, blanks, a quote.
    fn at_tag_body(&self) -> bool {
        let mut c = *self;
        if !c.peek_c().is_some_and(|c| c.is_ascii_alphabetic()) {
            return false;
        }
        while c.peek_c().is_some_and(is_name_char) {
            c.bump();
        }
        c.skip_blanks();
        c.peek_c() == Some('"')
    }

    fn pos(&self) -> (usize, usize) {
        (self.line, self.col)
    }
}

fn numeric_entity(rest: &str) -> Option<(char, usize)> {
    let body = rest.strip_prefix("&#")?;
    let end = body.find(';').filter(|&e| (1..=7).contains(&e))?;
    let n = &body[..end];
    let code = match n.strip_prefix(['x', 'X']) {
        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
        None => n.parse().ok()?,
    };
    Some((char::from_u32(code)?, end + 3))
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Ends a word of move text.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';' | '"')
}

struct Lexer<'a> {
    cur: Cursor<'a>,
    out: Vec<Token>,
    /// Where the last comment that never closed stopped looking: one that
    /// starts before it cannot close either (so a file of unclosed `{`
    /// lines is read in linear time).
    comment_open_until: usize,
    /// The same for variations (a heuristic there: nesting could close one).
    variation_open_until: usize,
}

/// Splits a text into tokens; `foreign_lines` (sorted) are the lines that
/// were not UTF-8, marked after the tokens of each.
pub(crate) fn lex(text: &str, foreign_lines: &[usize]) -> Vec<Token> {
    let mut lx = Lexer {
        cur: Cursor {
            s: text,
            i: 0,
            line: 1,
            col: 1,
            line_start: true,
        },
        out: Vec::new(),
        comment_open_until: 0,
        variation_open_until: 0,
    };
    lx.run();
    if foreign_lines.is_empty() {
        return lx.out;
    }
    let mut out = Vec::with_capacity(lx.out.len() + foreign_lines.len());
    let mut f = foreign_lines.iter().peekable();
    for t in lx.out {
        while let Some(&&l) = f.peek() {
            if l < t.line {
                out.push(Token {
                    tok: Tok::Foreign,
                    line: l,
                    col: 1,
                });
                f.next();
            } else {
                break;
            }
        }
        out.push(t);
    }
    out.extend(f.map(|&l| Token {
        tok: Tok::Foreign,
        line: l,
        col: 1,
    }));
    out
}

impl Lexer<'_> {
    fn push(&mut self, tok: Tok, (line, col): (usize, usize)) {
        self.out.push(Token { tok, line, col });
    }

    fn warn(&mut self, message: String, at: (usize, usize)) {
        self.push(Tok::Warning(message), at);
    }

    fn run(&mut self) {
        while let Some(ch) = self.cur.peek() {
            let at = self.cur.pos();
            match ch.c {
                c if c.is_whitespace() => {
                    self.cur.bump();
                }
                '[' => self.tag(),
                '{' => self.comment(),
                '(' => self.variation(),
                ';' => self.cur.skip_line(),
                '%' if self.cur.line_start => self.cur.skip_line(),
                '$' => {
                    self.cur.bump();
                    let w = self.word_text();
                    match w.parse::<u16>() {
                        Ok(n) => self.push(Tok::Nag(n), at),
                        Err(_) => self.warn(format!("`${w}` is not a NAG; skipped"), at),
                    }
                }
                '}' | ')' | ']' | '"' => {
                    self.cur.bump();
                    self.warn(format!("a stray `{}` skipped", ch.c), at);
                }
                c if c.is_control() => {
                    while self
                        .cur
                        .peek_c()
                        .is_some_and(|c| c.is_control() && !c.is_whitespace())
                    {
                        self.cur.bump();
                    }
                    self.warn("control characters skipped".into(), at);
                }
                _ => {
                    let mut w = self.word_text();
                    // Right-aligned squares: "1- 6", "28x 9" are one move.
                    while w.len() > 1
                        && w.ends_with(['-', 'x', 'X', ':'])
                        && w.starts_with(|c: char| c.is_ascii_digit())
                        && w.bytes()
                            .all(|b| b.is_ascii_digit() || b"-xX:".contains(&b))
                    {
                        let save = self.cur;
                        self.cur.skip_blanks();
                        if self.cur.peek_c().is_some_and(|c| c.is_ascii_digit()) {
                            w.push_str(&self.word_text());
                        } else {
                            self.cur = save;
                            break;
                        }
                    }
                    if w.is_empty() {
                        self.cur.bump();
                        continue;
                    }
                    self.push(Tok::Word(w), at);
                }
            }
        }
    }

    fn word_text(&mut self) -> String {
        let mut w = String::new();
        while let Some(ch) = self.cur.peek() {
            if is_delimiter(ch.c) || (ch.c == '$' && !w.is_empty()) {
                break;
            }
            w.push(ch.c);
            self.cur.bump();
        }
        w
    }

    /// `{...}`; one that never closes (before the next tag line or the end)
    /// ends at the end of its first line.
    fn comment(&mut self) {
        let at = self.cur.pos();
        self.cur.bump();
        let mut text = String::new();
        let mut first_line_end = None;
        let known_open = self.cur.i < self.comment_open_until;
        loop {
            match self.cur.peek() {
                Some(ch) if known_open && ch.c == '\n' => {
                    first_line_end = Some((self.cur, text.len()));
                    break;
                }
                Some(ch) if ch.c == '}' => {
                    self.cur.bump();
                    self.push(Tok::Comment(text.trim().to_owned()), at);
                    return;
                }
                Some(ch) if ch.c == '\n' => {
                    first_line_end.get_or_insert((self.cur, text.len()));
                    if ch.newline && self.cur.after_newline().is_some_and(|c| c.at_tag()) {
                        break;
                    }
                    text.push('\n');
                    self.cur.bump();
                }
                Some(ch) => {
                    text.push(ch.c);
                    self.cur.bump();
                }
                None => {
                    first_line_end.get_or_insert((self.cur, text.len()));
                    break;
                }
            }
        }
        if !known_open {
            self.comment_open_until = self.cur.i;
        }
        let (end, len) = first_line_end.unwrap_or((self.cur, text.len()));
        self.cur = end;
        text.truncate(len);
        self.push(Tok::Comment(text.trim().to_owned()), at);
        self.warn(
            "this comment is never closed; it ends at the end of its line".into(),
            at,
        );
    }

    /// `( ... )`, nested, with comments; skipped. One that never closes
    /// ends at the end of its first line.
    fn variation(&mut self) {
        let at = self.cur.pos();
        let mut first_line_end = None;
        let mut depth = 0usize;
        let mut in_comment = false;
        let known_open = self.cur.i < self.variation_open_until;
        while let Some(ch) = self.cur.peek() {
            if ch.c == '\n' {
                first_line_end.get_or_insert(self.cur);
                if known_open {
                    break;
                }
                // A variation holds no tag line and no blank line.
                if ch.newline
                    && self
                        .cur
                        .after_newline()
                        .is_some_and(|c| c.at_tag() || c.peek().is_some_and(|n| n.newline))
                {
                    break;
                }
            } else if in_comment {
                in_comment = ch.c != '}';
            } else {
                match ch.c {
                    '(' => depth += 1,
                    ')' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            self.cur.bump();
                            return;
                        }
                    }
                    '{' => in_comment = true,
                    _ => {}
                }
            }
            self.cur.bump();
        }
        if !known_open {
            self.variation_open_until = self.cur.i;
        }
        self.cur = first_line_end.unwrap_or(self.cur);
        self.warn(
            "this variation is never closed; it ends at the end of its line".into(),
            at,
        );
    }

    /// Skips the rest of a broken `[...]` on its line.
    fn skip_bracket(&mut self) {
        while let Some(c) = self.cur.peek_c() {
            if c == '\n' {
                return;
            }
            self.cur.bump();
            if c == ']' {
                return;
            }
        }
    }

    fn tag(&mut self) {
        let at = self.cur.pos();
        self.cur.bump(); // '['
        self.cur.skip_blanks();
        let mut split = false;
        // A line holding only `[`: the tag may go on on the next line.
        if let Some(next) = self.cur.after_newline() {
            if next.at_tag_body() {
                self.cur = next;
                split = true;
            } else {
                self.warn("a lone `[` skipped".into(), at);
                return;
            }
        }
        let mut name = String::new();
        if !self.cur.peek_c().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.skip_bracket();
            let what = if self.cur.s[..self.cur.i].ends_with(']')
                && self.cur.s[..self.cur.i]
                    .trim_end_matches(']')
                    .trim_end()
                    .ends_with('"')
            {
                "tag without a name"
            } else {
                "broken tag"
            };
            self.warn(format!("{what} skipped"), at);
            return;
        }
        while let Some(c) = self.cur.peek_c().filter(|&c| is_name_char(c)) {
            name.push(c);
            self.cur.bump();
        }
        self.cur.skip_blanks();
        if let Some(next) = self.cur.after_newline() {
            if next.peek_c() == Some('"') {
                self.cur = next;
                split = true;
            }
        }
        let value = if self.cur.peek_c() == Some('"') {
            self.cur.bump();
            let (v, joined) = self.quoted(&name, at);
            split |= joined;
            v
        } else {
            let mut v = String::new();
            while let Some(c) = self.cur.peek_c().filter(|&c| c != ']' && c != '\n') {
                v.push(c);
                self.cur.bump();
            }
            v.trim().to_owned()
        };
        self.cur.skip_blanks();
        match self.cur.peek_c() {
            Some(']') => {
                self.cur.bump();
            }
            Some('\n') => {
                if let Some(next) = self.cur.after_newline() {
                    if next.peek_c() == Some(']') {
                        self.cur = next;
                        self.cur.bump();
                        split = true;
                    }
                }
            }
            None | Some('[') => {}
            Some(_) => {
                let from = self.cur.pos();
                self.skip_bracket();
                self.warn(format!("text after the value of tag {name} skipped"), from);
            }
        }
        if split {
            self.warn(format!("tag {name} runs over two lines; joined"), at);
        }
        self.push(Tok::Tag(name, value), at);
    }

    /// A quoted tag value after its opening quote: the value, and whether it
    /// ran over a line end. A quote ends the value only where `]`, a line
    /// end or the next tag follows it; another is part of the value.
    fn quoted(&mut self, name: &str, at: (usize, usize)) -> (String, bool) {
        let mut v = String::new();
        let mut joined = false;
        let mut control = false;
        loop {
            let Some(ch) = self.cur.peek() else {
                self.warn(format!("tag {name} has no closing quote"), at);
                break;
            };
            if ch.c == '\n' && !ch.escape {
                let next = self.cur.after_newline();
                let rest = next.map_or("", |n| n.rest());
                let next_line = rest.split(['\n', '\r']).next().unwrap_or("");
                let closes =
                    next_line.trim_end().ends_with("\"]") || next_line.trim_end().ends_with('"');
                if !joined && closes && next.is_some_and(|n| !n.at_tag() && n.peek_c() != Some('['))
                {
                    joined = true;
                    v.push(' ');
                    self.cur = next.unwrap_or(self.cur);
                    continue;
                }
                self.warn(format!("tag {name} has no closing quote"), at);
                break;
            }
            self.cur.bump();
            match ch.c {
                '\\' if !ch.escape => match self.cur.rest().chars().next() {
                    Some(c @ ('"' | '\\')) => {
                        v.push(c);
                        self.cur.i += 1;
                        self.cur.col += 1;
                    }
                    _ => v.push('\\'),
                },
                '"' => {
                    let mut after = self.cur;
                    after.skip_blanks();
                    if matches!(after.peek_c(), None | Some(']' | '\n' | '[')) {
                        break;
                    }
                    v.push('"');
                }
                '\n' => v.push(' '),
                c if c.is_control() => control = true,
                c => v.push(c),
            }
        }
        if control {
            self.warn(format!("control characters in tag {name} removed"), at);
        }
        (v.trim().to_owned(), joined)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s, &[]).into_iter().map(|t| t.tok).collect()
    }

    fn tag(n: &str, v: &str) -> Tok {
        Tok::Tag(n.into(), v.into())
    }

    fn word(w: &str) -> Tok {
        Tok::Word(w.into())
    }

    #[test]
    fn escapes_written_out_as_text_are_read_as_what_they_stand_for() {
        assert_eq!(
            toks("[Event \"Open &quot;Delft&quot; &amp; more\"]\\r\\n1.32-28\\n19-23&#32;*"),
            [
                tag("Event", "Open \"Delft\" & more"),
                word("1.32-28"),
                word("19-23"),
                word("*")
            ]
        );
        assert_eq!(
            toks("[Event &quot;x&quot;]"),
            [tag("Event", "x")],
            "a value quoted with entities"
        );
    }

    #[test]
    fn broken_tags_are_joined_or_skipped_with_their_position() {
        let t = lex(
            "[\nEvent \"a\"]\n[\n[White \"Open\nDelft\"]\n[ \"x\"]\n[Black \"B\"\n]",
            &[],
        );
        let got: Vec<(Tok, usize, usize)> = t.into_iter().map(|t| (t.tok, t.line, t.col)).collect();
        assert_eq!(
            got,
            [
                (
                    Tok::Warning("tag Event runs over two lines; joined".into()),
                    1,
                    1
                ),
                (tag("Event", "a"), 1, 1),
                (Tok::Warning("a lone `[` skipped".into()), 3, 1),
                (
                    Tok::Warning("tag White runs over two lines; joined".into()),
                    4,
                    1
                ),
                (tag("White", "Open Delft"), 4, 1),
                (Tok::Warning("tag without a name skipped".into()), 6, 1),
                (
                    Tok::Warning("tag Black runs over two lines; joined".into()),
                    7,
                    1
                ),
                (tag("Black", "B"), 7, 1),
            ]
        );
    }

    #[test]
    fn a_quote_inside_a_value_and_a_missing_quote() {
        assert_eq!(
            toks("[Event \"The \"Open\" 2024\"][Site \"x\"]\n[Date \"2024\n[Round 3]"),
            [
                tag("Event", "The \"Open\" 2024"),
                tag("Site", "x"),
                Tok::Warning("tag Date has no closing quote".into()),
                tag("Date", "2024"),
                tag("Round", "3"),
            ]
        );
    }

    #[test]
    fn unclosed_comments_and_variations_end_at_their_line() {
        assert_eq!(
            toks("1. 32-28 {open\n19-23 ( 2. 33-29\n[Event \"x\"]"),
            [
                word("1."),
                word("32-28"),
                Tok::Comment("open".into()),
                Tok::Warning("this comment is never closed; it ends at the end of its line".into()),
                word("19-23"),
                Tok::Warning(
                    "this variation is never closed; it ends at the end of its line".into()
                ),
                tag("Event", "x"),
            ]
        );
        assert_eq!(
            toks("1. 32-28 {a\nb} (1. 31-27 {c\n} 27-22) 19-23"),
            [
                word("1."),
                word("32-28"),
                Tok::Comment("a\nb".into()),
                word("19-23")
            ]
        );
    }

    #[test]
    fn many_comments_and_variations_that_never_close() {
        // Each is cut at its line; with the end of the search remembered,
        // the file is read once, not once per line.
        let text =
            "1. 32-28 { a\n".repeat(3000) + &"( b\n".repeat(3000) + "[Event \"x\"]\n19-23 {x} (y)";
        let t = toks(&text);
        let comments = t
            .iter()
            .filter(|t| matches!(t, Tok::Comment(c) if c == "a"))
            .count();
        let warnings = t.iter().filter(|t| matches!(t, Tok::Warning(_))).count();
        assert_eq!((comments, warnings), (3000, 6000));
        assert_eq!(t[t.len() - 2..], [word("19-23"), Tok::Comment("x".into())]);
    }

    #[test]
    fn line_ends_of_every_kind_count_and_columns_are_characters() {
        let t = lex("a\r\nb\rc\n\u{e9}\u{e9} d", &[]);
        let pos: Vec<(usize, usize)> = t.iter().map(|t| (t.line, t.col)).collect();
        assert_eq!(pos, [(1, 1), (2, 1), (3, 1), (4, 1), (4, 4)]);
        assert_eq!(t[3].tok, word("\u{e9}\u{e9}"));
        let t = lex("\u{e9}\u{e9} d\\r\\n e", &[]);
        assert_eq!((t[1].line, t[1].col), (1, 4));
        assert_eq!((t[2].line, t[2].col), (1, 10));
    }
}
