//! The start of a written turn entry: the side named (`white`, `czarne`)
//! and the dice (`52:`, `roll 52`, `5-2`), before the move.

use crate::Color;

/// The sides' names a record may start an entry with.
fn side_word(w: &str) -> Option<Color> {
    match w.to_lowercase().as_str() {
        "white" | "w" | "białe" | "biały" | "biale" | "bialy" => Some(Color::White),
        "black" | "b" | "czarne" | "czarny" => Some(Color::Black),
        _ => None,
    }
}

/// Splits `white 52: 13/8 13/11` into the side and the rest.
pub(super) fn split_side(t: &str) -> (Option<Color>, &str) {
    let t = t.trim_start();
    let end = t
        .find(|c: char| c.is_whitespace() || c == ':')
        .unwrap_or(t.len());
    match side_word(&t[..end]) {
        Some(s) if end < t.len() => (Some(s), t[end..].trim_start_matches(':').trim_start()),
        _ => (None, t),
    }
}

/// The dice at the start of a turn entry (`52:`, `52 `, `roll 52`, `5-2:`)
/// and the rest (the move).
pub(super) fn roll_prefix(body: &str) -> Option<(u8, u8, &str)> {
    let b = body.trim_start();
    let b = b
        .strip_prefix("roll ")
        .or_else(|| b.strip_prefix("Roll "))
        .map_or(b, str::trim_start);
    let bytes = b.as_bytes();
    let digit = |i: usize| {
        bytes
            .get(i)
            .filter(|c| (b'1'..=b'6').contains(c))
            .map(|c| c - b'0')
    };
    let (d0, d1, rest) = if let (Some(x), Some(y)) = (digit(0), digit(1)) {
        (x, y, &b[2..])
    } else if let (Some(x), Some(b'-' | b' '), Some(y)) = (digit(0), bytes.get(1), digit(2)) {
        (x, y, &b[3..])
    } else {
        return None;
    };
    // The dice end there: `52:`, `52 13/8`, `52` alone.
    match rest.chars().next() {
        None | Some(':') => {}
        Some(c) if c.is_whitespace() => {}
        _ => return None,
    }
    let rest = rest.trim_start().strip_prefix(':').unwrap_or(rest).trim();
    Some((d0, d1, rest))
}
