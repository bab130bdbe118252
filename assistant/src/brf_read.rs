//! A braille record read back (`tandem arbiter reconcile JOURNAL
//! RECORD.brf`): a BRF file back-translated with liblouis through the
//! player's table, then read as a typed move list ([`typed_record`]), for
//! every game's record reader. The way there, writing a record as BRF, is
//! the export's (`crate::export::brf`); this half sits on the bottom floor
//! because the games' arbiters read records with it.

use std::path::Path;

use anyhow::{bail, Context};

/// The liblouis table for a language: its card's
/// (`assistant/data/language/LANG.toml`, `[braille] table`; docs/languages.md
/// says which code each language writes).
#[must_use]
pub fn default_table(lang: &str) -> String {
    crate::lang::braille_table(&lang.to_ascii_lowercase())
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
    // The moves' label of the export in every language (`moves` in
    // assistant/data/record/LANG.toml), and the words a hand-made Polish
    // record puts there.
    let labels: Vec<String> = crate::lang::known()
        .into_iter()
        .filter_map(|l| crate::lang::sentences("record", l).get("moves"))
        .map(|m| m.trim().trim_end_matches(':').to_lowercase())
        .chain(["ruchy".to_owned(), "zapis".to_owned()])
        .collect();
    let is_label = |l: &str| {
        let w = l.trim().trim_end_matches(':').to_lowercase();
        labels.contains(&w)
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
        // The cells chess's `=` and `+` share (the card of the language
        // whose table this is).
        let shared = crate::lang::known().into_iter().any(|l| {
            crate::lang::card(l).is_ok_and(|c| {
                c.braille.shared_cells && c.braille.table.eq_ignore_ascii_case(table)
            })
        });
        return Ok(typed_record(&text, shared).into_bytes());
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
