//! Writing a move exactly as GNU Backgammon writes it.
//!
//! The steps are sorted by their start point, highest first (then by the
//! point reached, highest first); a checker's steps are joined into one
//! (`24/21 21/20` is `24/20`) unless it hits on the way, when the point hit
//! stays written (`24/21*/20`); equal paths are counted (`8/4(2)`); the bar
//! is `bar`, off is `off`; a `*` marks the first landing on each point where
//! an opposing blot stood. The reading side (loose text) is in
//! [`super::resolve`].

use std::fmt::Write as _;

use super::board::Board;
use super::movegen::{Play, Step};

fn point_text(out: &mut String, p: u8) {
    match p {
        0 => out.push_str("off"),
        25 => out.push_str("bar"),
        _ => {
            let _ = write!(out, "{p}");
        }
    }
}

/// The checker paths of a play after joining, each with how many checkers
/// take it: `(points, count)` where `points` is start, hit points passed,
/// end.
#[must_use]
pub fn paths(board: &Board, play: &Play) -> Vec<(Vec<u8>, u8)> {
    let them = board.side(board.turn().other());
    // An opposing checker stood on the mover's point `p` (1..24) before the move.
    let held = |p: u8| (1..=24).contains(&p) && them[24 - usize::from(p)] > 0;
    let mut rows: Vec<Step> = play.steps().to_vec();
    rows.sort_by(|a, b| b.from.cmp(&a.from).then(b.to.cmp(&a.to)));
    let mut chains: Vec<Option<Vec<u8>>> = rows.iter().map(|s| Some(vec![s.from, s.to])).collect();
    for i in 0..chains.len() {
        for j in i..chains.len() {
            let (Some(ci), Some(cj)) = (&chains[i], &chains[j]) else {
                continue;
            };
            let last = *ci.last().unwrap_or(&0);
            if last != cj[0] {
                continue;
            }
            let end = *cj.last().unwrap_or(&0);
            let mut ci = ci.clone();
            if held(last) {
                // A hit on the way: the point stays written.
                ci.push(end);
            } else if let Some(l) = ci.last_mut() {
                *l = end;
            }
            chains[i] = Some(ci);
            chains[j] = None;
        }
    }
    let chains: Vec<Vec<u8>> = chains.into_iter().flatten().collect();
    let mut out: Vec<(Vec<u8>, u8)> = Vec::new();
    for c in chains {
        if let Some(e) = out.iter_mut().find(|(p, _)| *p == c) {
            e.1 += 1;
        } else {
            out.push((c, 1));
        }
    }
    out
}

/// A legal play written as GNU Backgammon writes it (`8/5 6/5`,
/// `24/21*/20`, `bar/22`, `6/off`, `8/4(2)`); the empty string for a pass.
///
/// ```
/// use tandem_rules::backgammon::{legal_plays, notation, Board, Dice};
/// use tandem_rules::Color;
/// let b = Board::start(Color::White);
/// let texts: Vec<String> = legal_plays(&b, Dice(3, 1)).iter().map(|p| notation::write(&b, p)).collect();
/// assert!(texts.contains(&"8/5 6/5".to_owned()));
/// ```
#[must_use]
pub fn write(board: &Board, play: &Play) -> String {
    let them = board.side(board.turn().other());
    let held = |p: u8| (1..=24).contains(&p) && them[24 - usize::from(p)] > 0;
    let mut marked = [false; 26];
    let mut out = String::new();
    for (k, (chain, count)) in paths(board, play).iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        point_text(&mut out, chain[0]);
        let n = chain.len();
        for &mid in &chain[1..n - 1] {
            out.push('/');
            point_text(&mut out, mid);
            out.push('*');
            marked[usize::from(mid)] = true;
        }
        let end = chain[n - 1];
        out.push('/');
        point_text(&mut out, end);
        if end != 0 && held(end) && !marked[usize::from(end)] {
            out.push('*');
            marked[usize::from(end)] = true;
        }
        if *count > 1 {
            let _ = write!(out, "({count})");
        }
    }
    out
}

/// The plain form the Jellyfish `.mat` files use: every step on its own,
/// `25` for the bar, `0` for off, `*` on a hit (`25/22* 13/11`).
#[must_use]
pub fn write_plain(board: &Board, play: &Play) -> String {
    let them = board.side(board.turn().other());
    let mut hit = [false; 26];
    let mut out = String::new();
    for (k, s) in play.steps().iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{}/{}", s.from, s.to);
        if s.to >= 1 && them[24 - usize::from(s.to)] > 0 && !hit[usize::from(s.to)] {
            out.push('*');
            hit[usize::from(s.to)] = true;
        }
    }
    out
}
