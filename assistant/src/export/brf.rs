//! The record in Braille Ready Format (`tandem export --format brf`) and the
//! way back (`tandem arbiter reconcile JOURNAL RECORD.brf`).
//!
//! The document: a heading (event, round, table, date, players, result, the
//! game and its time control; its words wrap), a line `Posunięcia:` /
//! `Moves:`, then one line a move number: `1. 32-28 [1:29:48] 19-23
//! [1:29:40]`, each move with the mover's time left after it in brackets.
//! A move with its number and time is never split: what does not fit goes
//! onto the next line, indented two cells. Every piece is translated with
//! liblouis through the player's table (Polish grade 1 `Pl-Pl-g1.utb`,
//! English `en-ueb-g1.ctb`, or any liblouis table) and the display table
//! `en-us-brf.dis`; the pages are laid out by [`tandem_braille::brf`].

use std::path::Path;

use anyhow::{bail, Context};
use tandem_braille::brf::BrfWriter;

use super::record::{clock, GameRecord, Labels, RecordedMove};

/// The liblouis table for a language: Polish grade 1 for `pl`, Unified
/// English Braille grade 1 for `en` (US English braille since 2016; the old
/// `en-us-g1.ctb` does not read numbers back).
#[must_use]
pub fn default_table(lang: &str) -> &'static str {
    if lang.eq_ignore_ascii_case("pl") {
        "Pl-Pl-g1.utb"
    } else {
        "en-ueb-g1.ctb"
    }
}

/// Page size and table of a BRF document.
#[derive(Debug, Clone)]
pub struct BrfOptions {
    /// The liblouis table (the language's, without the display table).
    pub table: String,
    /// Cells a line.
    pub width: usize,
    /// Lines a page.
    pub lines: usize,
}

/// The text of one move on the record: `32-28 [1:29:48]`.
fn move_text(m: &RecordedMove) -> String {
    match m.left_ms {
        Some(ms) => format!("{} [{}]", m.text, clock(ms)),
        None => m.text.clone(),
    }
}

/// The heading's lines and the moves' lines (as units kept whole), in print.
fn document(rec: &GameRecord, l: Labels) -> (Vec<String>, Vec<Vec<String>>) {
    let mut head = Vec::new();
    let mut line = |label: &str, v: &str| head.push(format!("{label}: {v}"));
    if let Some(e) = &rec.event {
        line(l.s("Event", "Turniej"), e);
    }
    if let Some(r) = &rec.round {
        line(l.s("Round", "Runda"), r);
    }
    if let Some(t) = &rec.table {
        line(l.s("Table", "Stół"), t);
    }
    if let Some(d) = &rec.date {
        // 2026-05-02: in braille a point inside a number ends the number
        // sign, and the digits after it would read back as letters.
        line(l.s("Date", "Data"), &d.replace('.', "-"));
    }
    line(l.s("White", "Białe"), rec.white.as_deref().unwrap_or("?"));
    line(l.s("Black", "Czarne"), rec.black.as_deref().unwrap_or("?"));
    line(l.s("Result", "Wynik"), &rec.result_words(l));
    line(
        rec.game_name(l),
        &format!("{} {}", l.s("time control", "tempo"), rec.control),
    );
    line(
        l.s("In brackets", "W nawiasach"),
        l.s("time left after the move", "czas pozostały po posunięciu"),
    );
    let mut rows = Vec::new();
    for row in rec.rows() {
        let mut units = Vec::new();
        match (row.white, row.black) {
            (Some(w), b) => {
                units.push(format!("{}. {}", row.number, move_text(w)));
                units.extend(b.map(move_text));
            }
            (None, Some(b)) => units.push(format!("{}... {}", row.number, move_text(b))),
            (None, None) => {}
        }
        rows.push(units);
    }
    (head, rows)
}

/// The moves label that opens the list of moves.
fn moves_label(l: Labels) -> &'static str {
    l.s("Moves:", "Posunięcia:")
}

/// The record laid out as BRF pages, each piece of print translated to
/// braille by `tr` (the heading's lines, the moves label, each move with its
/// number and time).
///
/// # Errors
/// `tr` fails or gives no BRF; a page too small.
pub fn layout(
    rec: &GameRecord,
    lang: &str,
    width: usize,
    lines: usize,
    tr: &mut dyn FnMut(&str) -> anyhow::Result<String>,
) -> anyhow::Result<String> {
    let l = Labels::new(lang);
    let mut w = BrfWriter::new(width, lines)?;
    let (head, rows) = document(rec, l);
    for h in &head {
        w.words(&tr(h)?, 2);
    }
    w.blank_line();
    w.words(&tr(moves_label(l))?, 0);
    for units in rows {
        let braille = units
            .iter()
            .map(|u| tr(u))
            .collect::<anyhow::Result<Vec<_>>>()?;
        w.units(&braille, 2);
    }
    Ok(w.finish())
}

/// The record as BRF pages, translated with liblouis.
///
/// # Errors
/// liblouis cannot load the table or translate a piece; a page too small.
#[cfg(feature = "liblouis")]
pub fn to_brf(rec: &GameRecord, lang: &str, o: &BrfOptions) -> anyhow::Result<String> {
    use tandem_braille::louis;
    let tables = louis::brf_tables(&o.table);
    let mut tr = |text: &str| -> anyhow::Result<String> {
        let text = defined_letters(&tables, text)?;
        let b = louis::translate(&tables, &text)?;
        tandem_braille::brf::to_brf(&b)
            .with_context(|| format!("liblouis table {} gave no BRF for {text:?}", o.table))
    };
    layout(rec, lang, o.width, o.lines, &mut tr)
}

/// `text` with each letter the table does not define (liblouis writes it
/// as an escape such as `'\x017c'`, which reads back as nothing) replaced
/// by its base letter: `ż` is `z` in English braille, which has no `ż`.
#[cfg(feature = "liblouis")]
fn defined_letters(tables: &str, text: &str) -> anyhow::Result<String> {
    use tandem_braille::louis;
    let undefined = |b: &str| b.to_ascii_lowercase().contains("\\x");
    if text.is_ascii() || !undefined(&louis::translate(tables, text)?) {
        return Ok(text.to_owned());
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() || !undefined(&louis::translate(tables, &c.to_string())?) {
            out.push(c);
        } else {
            out.push_str(base_letter(c));
        }
    }
    Ok(out)
}

/// The letter without its accent, for Polish and the other Latin letters a
/// name may hold; `?` for anything else.
#[cfg(feature = "liblouis")]
fn base_letter(c: char) -> &'static str {
    const PAIRS: &[(&str, &str)] = &[
        ("ąàáâãäåā", "a"),
        ("ĄÀÁÂÃÄÅĀ", "A"),
        ("ćçč", "c"),
        ("ĆÇČ", "C"),
        ("ęèéêëěē", "e"),
        ("ĘÈÉÊËĚĒ", "E"),
        ("ìíîïī", "i"),
        ("ÌÍÎÏĪ", "I"),
        ("łľĺ", "l"),
        ("ŁĽĹ", "L"),
        ("ńñň", "n"),
        ("ŃÑŇ", "N"),
        ("óòôõöøō", "o"),
        ("ÓÒÔÕÖØŌ", "O"),
        ("śšş", "s"),
        ("ŚŠŞ", "S"),
        ("ùúûüůū", "u"),
        ("ÙÚÛÜŮŪ", "U"),
        ("ýÿ", "y"),
        ("Ý", "Y"),
        ("źżž", "z"),
        ("ŹŻŽ", "Z"),
        ("ř", "r"),
        ("Ř", "R"),
        ("ď", "d"),
        ("Ď", "D"),
        ("ť", "t"),
        ("Ť", "T"),
    ];
    PAIRS
        .iter()
        .find(|(from, _)| from.contains(c))
        .map_or("?", |(_, to)| to)
}

/// Without liblouis: says how to get it.
///
/// # Errors
/// Always.
#[cfg(not(feature = "liblouis"))]
pub fn to_brf(_rec: &GameRecord, _lang: &str, _o: &BrfOptions) -> anyhow::Result<String> {
    bail!("this tandem was built without liblouis (build with the liblouis feature; apt-get install liblouis-dev)")
}

/// A BRF file back-translated with liblouis through `table`, page by page
/// and line by line.
///
/// # Errors
/// The file cannot be read, is not BRF, or liblouis cannot read it.
#[cfg(feature = "liblouis")]
pub fn back_translate_file(path: &Path, table: &str) -> anyhow::Result<String> {
    use tandem_braille::louis;
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let Ok(text) = std::str::from_utf8(&bytes) else {
        bail!(
            "{}: not a BRF file (it is not ASCII braille)",
            path.display()
        );
    };
    let tables = louis::brf_tables(table);
    let mut out = String::with_capacity(text.len());
    for (n, line) in text.split(['\n', '\x0c']).enumerate() {
        let line = line.trim_end_matches('\r');
        if let Some(c) = line
            .chars()
            .find(|c| tandem_braille::brf::brf_char(*c).is_none())
        {
            bail!(
                "{}: line {}: {c:?} is not a braille character (not a BRF file?)",
                path.display(),
                n + 1
            );
        }
        // BRF is upper case; the display table reads either.
        out.push_str(&louis::back_translate(&tables, line)?);
        out.push('\n');
    }
    Ok(out)
}

/// Without liblouis: says how to get it.
///
/// # Errors
/// Always.
#[cfg(not(feature = "liblouis"))]
pub fn back_translate_file(path: &Path, _table: &str) -> anyhow::Result<String> {
    bail!(
        "{}: reading BRF needs liblouis (build with the liblouis feature; apt-get install liblouis-dev)",
        path.display()
    )
}

/// A back-translated braille record as a typed move list: the heading up to
/// the moves label (or up to the first line that begins with a move number)
/// left out, the clock times in brackets taken out. With `shared_cells`
/// (Polish braille, where `+` shares a cell with `!` and `=` with `(`, and
/// liblouis reads them back as `!` and `(`), those cells are read as chess
/// signs where a chess move needs them: `e8(Q!` is `e8=Q+`.
#[must_use]
pub fn typed_record(text: &str, shared_cells: bool) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let is_label = |l: &str| {
        let w = l.trim().trim_end_matches(':').to_lowercase();
        matches!(w.as_str(), "posunięcia" | "moves" | "ruchy" | "zapis")
    };
    let starts_numbered = |l: &str| {
        let t = l.trim_start();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && t[digits..].starts_with('.')
    };
    let from = if let Some(i) = lines.iter().position(|l| is_label(l)) {
        i + 1
    } else {
        lines.iter().position(|l| starts_numbered(l)).unwrap_or(0)
    };
    let mut out = String::new();
    for l in &lines[from..] {
        let mut depth = 0usize;
        let mut kept = String::new();
        for c in l.chars() {
            match c {
                '[' => depth += 1,
                ']' => depth = depth.saturating_sub(1),
                _ if depth == 0 => kept.push(c),
                _ => {}
            }
        }
        // `12...` (black's move first) reads back as `12. . .` in Polish
        // braille and `12…` in English.
        let kept = kept.replace('…', "...");
        let words: Vec<String> = kept
            .split_whitespace()
            .filter(|w| !w.chars().all(|c| c == '.'))
            .map(|w| {
                if shared_cells {
                    chess_signs(w)
                } else {
                    w.to_owned()
                }
            })
            .collect();
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

/// `e8(Q!` (Polish grade 1's cells for `=` and `+`, read back as `(` and
/// `!`) as `e8=Q+`; anything that is not a chess move stays as it is.
fn chess_signs(word: &str) -> String {
    let b = word.as_bytes();
    let sanlike = matches!(
        b.first(),
        Some(b'K' | b'Q' | b'R' | b'B' | b'N' | b'O' | b'a'..=b'h')
    ) && (!word.contains('-') || word.starts_with("O-O"))
        && word
            .bytes()
            .any(|c| (b'1'..=b'8').contains(&c) || c == b'O');
    if !sanlike {
        return word.to_owned();
    }
    let mut w = word.to_owned();
    if let Some(i) = w.find('(') {
        if i >= 2 && w[i + 1..].starts_with(['Q', 'R', 'B', 'N']) {
            w.replace_range(i..=i, "=");
        }
    }
    if w.ends_with('!') && !w.ends_with("!!") && !w.ends_with("?!") {
        w.pop();
        w.push('+');
    }
    w
}

/// Whether a record file is a BRF file (by its name: `.brf`).
#[must_use]
pub fn is_brf(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("brf"))
}

/// A record file's bytes as a record reader takes them: a BRF file
/// back-translated through `table` and read as a typed move list; any
/// other file as it is.
///
/// # Errors
/// The file cannot be read, or a BRF file cannot be back-translated.
pub fn record_bytes(path: &Path, table: &str) -> anyhow::Result<Vec<u8>> {
    if is_brf(path) {
        let text = back_translate_file(path, table)?;
        let polish = table.to_ascii_lowercase().starts_with("pl");
        return Ok(typed_record(&text, polish).into_bytes());
    }
    std::fs::read(path).with_context(|| format!("reading {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_record_drops_the_heading_and_the_clock_times() {
        let t = "Turniej: 3. Liga\nBiałe: Kowalski\n\nPosunięcia:\n1. 32-28 [1:29:48] 19-23 [1:29:40]\n  2. 28x19 [1:29:00]\n";
        assert_eq!(typed_record(t, false), "1. 32-28 19-23\n2. 28x19\n");
        let hand = "Kowalski - Nowak\n1. 32-28 19-23\n2. 28x19\n";
        assert_eq!(typed_record(hand, true), "1. 32-28 19-23\n2. 28x19\n");
        assert_eq!(typed_record("32-28\n19-23\n", true), "32-28\n19-23\n");
        assert_eq!(
            typed_record("1. . . 19-23\n2… 28x19\n", true),
            "1. 19-23\n2... 28x19\n"
        );
    }

    #[test]
    fn odd_records_do_not_panic() {
        for t in [
            "",
            "[[[",
            "]]] 1. ł(ó!",
            "Posunięcia:",
            "1.",
            "ż( Q!",
            "e(Ą",
            "\u{0}\t[1:00\n32-28]",
        ] {
            let _ = typed_record(t, true);
            let _ = typed_record(t, false);
        }
        assert_eq!(
            typed_record("1. 32-28 [1:00\n19-23]\n2. 28x19", false),
            "1. 32-28\n19-23\n2. 28x19\n"
        );
    }

    #[test]
    fn polish_braille_cells_read_as_chess_signs() {
        assert_eq!(chess_signs("e8(Q!"), "e8=Q+");
        assert_eq!(chess_signs("Nf3!"), "Nf3+");
        assert_eq!(chess_signs("Qxf7#"), "Qxf7#");
        assert_eq!(chess_signs("O-O!"), "O-O+");
        assert_eq!(chess_signs("32-28!"), "32-28!");
        assert_eq!(chess_signs("c3-d4!"), "c3-d4!");
        assert_eq!(chess_signs("e4!!"), "e4!!");
    }
}
