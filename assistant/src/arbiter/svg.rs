//! `--svg FILE` of `tandem arbiter diff` and `tandem arbiter reconcile`:
//! the positions drawn from the games' pictures ([`crate::picture`]),
//! side by side, the squares that differ marked (`data-differs="true"`),
//! for every game alike.

use std::path::Path;

use anyhow::Context as _;

use super::{Registry, Words};
use crate::kind::GameKind;
use crate::picture::{differing, svg::side_by_side, BoardPicture};

/// A position text of `kind` as a picture.
fn picture(reg: &Registry, kind: GameKind, text: &str) -> anyhow::Result<BoardPicture> {
    (reg.picture_of_text)(kind.name(), text)
}

/// Writes `tandem arbiter diff A B --svg FILE`: A (the record's position)
/// and B (the board to correct) side by side, the differing squares marked
/// on both.
///
/// Nothing is written when a position does not read: the diff says why.
///
/// # Errors
/// The file cannot be written.
pub(crate) fn write_diff(
    path: &Path,
    reg: &Registry,
    kind: GameKind,
    a: &str,
    b: &str,
    w: Words,
) -> anyhow::Result<()> {
    let (Ok(pa), Ok(pb)) = (picture(reg, kind, a), picture(reg, kind, b)) else {
        return Ok(());
    };
    let d = differing(&pa, &pb);
    let (ca, cb, title) = (w.s("svg_diff_a"), w.s("svg_diff_b"), w.s("svg_diff_title"));
    let title = if d.is_empty() {
        title.to_owned()
    } else {
        format!("{title}: {}", d.join(", "))
    };
    let svg = side_by_side(
        &[(&pa.with_differs(d.clone()), ca), (&pb.with_differs(d), cb)],
        &title,
    );
    std::fs::write(path, svg).with_context(|| format!("writing {}", path.display()))
}

/// Writes `tandem arbiter reconcile … --svg FILE`: the position at the
/// last agreement, then the position after each record's next ply (where
/// there is one), the squares where those differ marked on all. `picture`
/// draws a position text of the game (the registry's, through
/// [`Registry::picture_of_text`]).
///
/// # Errors
/// A position does not read, or the file cannot be written.
pub(super) fn write_reconcile(
    path: &Path,
    picture: &dyn Fn(&str) -> anyhow::Result<BoardPicture>,
    agreed: usize,
    agreed_fen: &str,
    next_a: Option<String>,
    next_b: Option<String>,
    w: Words,
) -> anyhow::Result<()> {
    let at = picture(agreed_fen)?;
    let a = next_a.map(|f| picture(&f)).transpose()?;
    let b = next_b.map(|f| picture(&f)).transpose()?;
    let d = match (&a, &b) {
        (Some(a), Some(b)) => differing(a, b),
        (Some(x), None) | (None, Some(x)) => differing(&at, x),
        (None, None) => Vec::new(),
    };
    let next = agreed + 1;
    let ply = |key: &'static str, n: usize| w.s(key).replace("{ply}", &n.to_string());
    let (c0, ca, cb, title) = (
        ply("svg_reconcile_agreed", agreed),
        ply("svg_reconcile_a", next),
        ply("svg_reconcile_b", next),
        w.s("svg_reconcile_title"),
    );
    let title = if d.is_empty() {
        title.to_owned()
    } else {
        format!("{title}: {}", d.join(", "))
    };
    let at = at.with_differs(d.clone());
    let a = a.map(|p| p.with_differs(d.clone()));
    let b = b.map(|p| p.with_differs(d.clone()));
    let mut boards: Vec<(&BoardPicture, &str)> = vec![(&at, &c0)];
    if let Some(a) = &a {
        boards.push((a, &ca));
    }
    if let Some(b) = &b {
        boards.push((b, &cb));
    }
    std::fs::write(path, side_by_side(&boards, &title))
        .with_context(|| format!("writing {}", path.display()))
}
