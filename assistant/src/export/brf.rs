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

#[cfg(not(feature = "liblouis"))]
use anyhow::bail;
#[cfg(feature = "liblouis")]
use anyhow::Context;
use tandem_braille::brf::BrfWriter;

use super::record::{clock, GameRecord, Labels, RecordedMove};

pub use crate::brf_read::{back_translate_file, default_table, is_brf, record_bytes, typed_record};

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
        line(l.s("event"), e);
    }
    if let Some(r) = &rec.round {
        line(l.s("round"), r);
    }
    if let Some(t) = &rec.table {
        line(l.s("table"), t);
    }
    if let Some(d) = &rec.date {
        // 2026-05-02: in braille a point inside a number ends the number
        // sign, and the digits after it would read back as letters.
        line(l.s("date"), &d.replace('.', "-"));
    }
    line(l.s("white"), rec.white.as_deref().unwrap_or("?"));
    line(l.s("black"), rec.black.as_deref().unwrap_or("?"));
    line(l.s("result"), &rec.result_words(l));
    line(
        rec.game_name(l),
        &format!("{} {}", l.s("time_control"), rec.control),
    );
    line(l.s("in_brackets"), l.s("time_left_after_the_move"));
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
    l.s("moves")
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
