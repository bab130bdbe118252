//! `tandem arbiter diff ID_A ID_B --variant backgammon`: the points, bar
//! and borne-off checkers where two Position IDs differ, the Match IDs'
//! dice, cube and score, and what to do on board B, in the blind player's
//! numbering.

use std::process::ExitCode;

use anyhow::Context;
use serde_json::{json, Map, Value as Json};
use tandem_rules::backgammon::arbiter::{
    diff_boards, diff_infos, read_ids, InfoChange, Spot, SpotChange,
};
use tandem_rules::backgammon::position_id;
use tandem_rules::Color;
use tandem_speech::backgammon::arbiter::BgArbiterBook;
use tandem_speech::backgammon::{BgAnnouncer, BgPhrasebook, Numbering};

use super::books;
use crate::arbiter::{capitalize, print_diff, DiffArgs, DiffNumbering, DiffOutput, Words};

/// A place as the screen names it: the point in `listener`'s numbering
/// and the other side's (`13, black's 12`), `bar`, `off`.
fn spot_name(s: Spot, listener: Color, book: &BgArbiterBook) -> String {
    match s {
        Spot::Point(p) => {
            let mine = s.point_for(listener).unwrap_or(p);
            let theirs = s.point_for(listener.other()).unwrap_or(p);
            book.phrase(
                "board.point_both",
                &[
                    ("point", &mine.to_string()),
                    ("numbering", &book.numbering(listener.other())),
                    ("other", &theirs.to_string()),
                ],
            )
        }
        Spot::Bar => "bar".to_owned(),
        Spot::Off => "off".to_owned(),
    }
}

/// `n` as the sentences say it: in words when `spoken`, else in digits.
fn number(bg: &BgAnnouncer, spoken: bool, n: u32) -> String {
    if spoken {
        bg.number(n)
    } else {
        n.to_string()
    }
}

/// The sentences that make board B equal board A. `spoken`: numbers as
/// words and points in `listener`'s numbering (with the other side's too
/// when `both`); else digits and both numberings.
fn fix_sentences(
    changes: &[SpotChange],
    listener: Color,
    numbering: DiffNumbering,
    spoken: bool,
    book: &BgArbiterBook,
    bg: &BgAnnouncer,
) -> Vec<String> {
    let num = |n: u32| number(bg, spoken, n);
    let point = |p: u8| {
        let mine = Spot::Point(p).point_for(listener).unwrap_or(p);
        let theirs = Spot::Point(p).point_for(listener.other()).unwrap_or(p);
        if spoken && numbering == DiffNumbering::Listener {
            num(u32::from(mine))
        } else {
            book.phrase(
                "board.point_both",
                &[
                    ("point", &num(u32::from(mine))),
                    ("numbering", &book.numbering(listener.other())),
                    ("other", &num(u32::from(theirs))),
                ],
            )
        }
    };
    let mut out = Vec::new();
    for c in changes {
        let (key, side, spot, n) = match c.fix() {
            Some(tandem_rules::backgammon::arbiter::BgFix::Remove { side, spot, n }) => {
                ("remove", side, spot, n)
            }
            Some(tandem_rules::backgammon::arbiter::BgFix::Put { side, spot, n }) => {
                ("put", side, spot, n)
            }
            None => continue,
        };
        let n = u32::from(n);
        let count = num(n);
        let checkers = book.checkers(n).to_owned();
        let side_w = book.side(side);
        let s = match spot {
            Spot::Point(p) => book.phrase(
                &format!("board.{key}_point"),
                &[
                    ("count", &count),
                    ("side", &side_w),
                    ("checkers", &checkers),
                    ("point", &point(p)),
                ],
            ),
            _ => book.phrase(
                &format!("board.{key}_bar"),
                &[
                    ("count", &count),
                    ("side", &side_w),
                    ("checkers", &checkers),
                ],
            ),
        };
        out.push(capitalize(&s));
    }
    out
}

/// The sentences for the Match ID's fields that differ: set the dice, the
/// cube, the score as on A.
fn info_sentences(
    changes: &[InfoChange],
    spoken: bool,
    book: &BgArbiterBook,
    bg: &BgAnnouncer,
    bgbook: &BgPhrasebook,
) -> Vec<String> {
    let num = |n: u32| number(bg, spoken, n);
    let mut out = Vec::new();
    for c in changes {
        let s = match *c {
            InfoChange::Dice { a: Some(d), .. } => {
                let dice = if spoken {
                    bgbook.dice(d)
                } else {
                    format!("{}{}", d.0, d.1)
                };
                book.phrase("board.dice", &[("dice", &dice)])
            }
            InfoChange::Dice { a: None, .. } => book.phrase("board.no_dice", &[]),
            InfoChange::Cube {
                a, a_owner: None, ..
            } => book.phrase("board.cube_middle", &[("value", &num(a))]),
            InfoChange::Cube {
                a,
                a_owner: Some(o),
                ..
            } => book.phrase(
                "board.cube_owned",
                &[("value", &num(a)), ("side", &book.side(o))],
            ),
            // Scores in digits: a number after "do"/"to" takes a case in Polish.
            InfoChange::Score { a: (w, b, l), .. } => book.phrase(
                "board.score",
                &[
                    ("white", &w.to_string()),
                    ("black", &b.to_string()),
                    ("length", &l.to_string()),
                ],
            ),
            InfoChange::Crawford { a: true, .. } => book.phrase("board.crawford", &[]),
            InfoChange::Crawford { a: false, .. } => book.phrase("board.not_crawford", &[]),
            InfoChange::OnRoll { a, .. } => {
                book.phrase("board.on_roll", &[("side", bg.side_name(a))])
            }
            InfoChange::Doubled { a: true, .. } => book.phrase("board.doubled", &[]),
            InfoChange::Doubled { a: false, .. } => book.phrase("board.not_doubled", &[]),
        };
        out.push(capitalize(&s));
    }
    out
}

fn info_line(c: &InfoChange, w: Words, book: &BgArbiterBook) -> String {
    let owner = |o: Option<Color>| o.map_or_else(|| w.s("middle").to_owned(), |c| book.side(c));
    let dice = |d: Option<tandem_rules::backgammon::Dice>| {
        d.map_or_else(|| "-".to_owned(), |d| format!("{}{}", d.0, d.1))
    };
    match *c {
        InfoChange::Dice { a, b } => {
            format!("{}: A {}, B {}", w.s("dice"), dice(a), dice(b))
        }
        InfoChange::Cube {
            a,
            a_owner,
            b,
            b_owner,
        } => format!(
            "{}: A {a} ({}), B {b} ({})",
            w.s("cube"),
            owner(a_owner),
            owner(b_owner)
        ),
        InfoChange::Score { a, b } => format!(
            "{}: A {}-{}/{}, B {}-{}/{}",
            w.s("score"),
            a.0,
            a.1,
            a.2,
            b.0,
            b.1,
            b.2
        ),
        InfoChange::Crawford { a, b } => format!("Crawford: A {a}, B {b}"),
        InfoChange::OnRoll { a, b } => {
            format!("{}: A {}, B {}", w.s("on_roll"), book.side(a), book.side(b))
        }
        InfoChange::Doubled { a, b } => {
            format!("{}: A {a}, B {b}", w.s("double_waiting"))
        }
    }
}

/// `tandem arbiter diff ID_A ID_B --variant backgammon`: the points, bar
/// and borne-off checkers that differ, and what to do on board B; with
/// Match IDs, the dice, cube and score too.
///
/// # Errors
/// A bad Position ID or Match ID (exit status 2).
pub fn run_diff(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let on_roll = args.on_roll.map_or(Color::White, Color::from);
    let a = read_ids(&args.a, on_roll).with_context(|| format!("reading ID_A {:?}", args.a))?;
    let b = read_ids(&args.b, on_roll).with_context(|| format!("reading ID_B {:?}", args.b))?;
    let listener = args.blind.map_or(Color::White, Color::from);
    let numbering = args.numbering.unwrap_or_default();
    let w = Words::new(args.lang);
    let (book, bgbook) = books(args.lang)?;
    let bg = BgAnnouncer::new(bgbook.clone(), Numbering::Mover, listener);
    let changes = diff_boards(&a.board, &b.board);
    let infos = match (a.info, b.info) {
        (Some(x), Some(y)) => diff_infos(&x, &y),
        _ => Vec::new(),
    };
    let turn = infos.iter().find_map(|c| match *c {
        InfoChange::OnRoll { a, b } => Some((a, b)),
        _ => None,
    });
    let others: Vec<InfoChange> = infos
        .iter()
        .copied()
        .filter(|c| !matches!(c, InfoChange::OnRoll { .. }))
        .collect();
    let mut instructions = fix_sentences(&changes, listener, numbering, false, &book, &bg);
    let mut spoken = fix_sentences(&changes, listener, numbering, true, &book, &bg);
    instructions.extend(info_sentences(&infos, false, &book, &bg, &bgbook));
    spoken.extend(info_sentences(&infos, true, &book, &bg, &bgbook));
    let count = |side: Color, n: u8| {
        if n == 0 {
            book.phrase("sides.none", &[])
        } else {
            format!("{n} {}", book.side(side))
        }
    };
    let squares = changes
        .iter()
        .map(|c| {
            (
                spot_name(c.spot, listener, &book),
                count(c.side, c.a),
                count(c.side, c.b),
            )
        })
        .collect();
    let differences: Vec<Json> = changes
        .iter()
        .map(|c| {
            json!({
                "side": c.side.name(),
                "spot": match c.spot { Spot::Point(_) => "point", Spot::Bar => "bar", Spot::Off => "off" },
                "point": c.spot.point_for(Color::White),
                "point_black": c.spot.point_for(Color::Black),
                "a": c.a,
                "b": c.b,
            })
        })
        .collect();
    let mut extra = Map::new();
    extra.insert("match".into(), json!(others));
    extra.insert(
        "position_ids".into(),
        json!({"a": position_id::encode(&a.board), "b": position_id::encode(&b.board)}),
    );
    extra.insert("listener".into(), json!(listener.name()));
    print_diff(
        args.json,
        w,
        &DiffOutput {
            variant: "backgammon",
            lang: book.language().to_owned(),
            differences: json!(differences),
            squares,
            turn,
            instructions,
            spoken,
            in_sync: book.phrase("board.in_sync", &[]),
            game: "backgammon",
            extra,
            extra_lines: others.iter().map(|c| info_line(c, w, &book)).collect(),
        },
    )
}
