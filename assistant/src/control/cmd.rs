//! Control requests to session commands. An unknown command word becomes
//! [`Cmd::Unknown`], which the session refuses aloud and answers with an
//! error (like mini-redis's `Unknown`); a bad argument is an error reply.

use tandem_rules::Color;

use crate::session::{Cmd, DrawCmd};

/// `white`, `black` or nothing (`done`, `resign`, `pair` take a side).
pub(super) fn side(arg: Option<&str>) -> Result<Option<Color>, String> {
    match arg.map(str::trim).filter(|a| !a.is_empty()) {
        None => Ok(None),
        Some(a) => match a.to_ascii_lowercase().as_str() {
            "white" => Ok(Some(Color::White)),
            "black" => Ok(Some(Color::Black)),
            _ => Err(format!("expected white or black, not {a:?}")),
        },
    }
}

fn none(cmd: &str, arg: Option<&str>, c: Cmd) -> Result<Cmd, String> {
    match arg.map(str::trim).filter(|a| !a.is_empty()) {
        None => Ok(c),
        Some(a) => Err(format!("{cmd} takes no argument (got {a:?})")),
    }
}

/// The longest time the arbiter may set: 100 hours.
pub const MAX_CLOCK_SECONDS: u64 = 100 * 3600;

/// `set white|black SECONDS` (the argument of `clock`).
fn clock_set(a: &str) -> Result<Cmd, String> {
    let usage = || format!("clock takes no argument, or `set white|black SECONDS` (got {a:?})");
    let mut it = a.split_whitespace();
    if !it.next().is_some_and(|w| w.eq_ignore_ascii_case("set")) {
        return Err(usage());
    }
    let side = side(it.next())?.ok_or_else(usage)?;
    let secs: u64 = it
        .next()
        .and_then(|n| n.parse().ok())
        .filter(|n| *n <= MAX_CLOCK_SECONDS)
        .ok_or_else(usage)?;
    if it.next().is_some() {
        return Err(usage());
    }
    Ok(Cmd::ClockSet(side, secs))
}

/// `N [why…]`.
fn takeback(a: &str) -> Result<Cmd, String> {
    let a = a.trim();
    let (n, why) = a.split_once(char::is_whitespace).unwrap_or((a, ""));
    match n.parse::<u32>() {
        Ok(n) if (1..=1000).contains(&n) => Ok(Cmd::Takeback(n, why.trim().to_owned())),
        _ => Err(format!(
            "takeback needs the number of plies to take back (1-1000), then why (got {a:?})"
        )),
    }
}

/// A witness line's fields (JSON), as the relay brings them.
fn witness(a: &str) -> Result<Cmd, String> {
    use crate::journal::witness::{Witness, MAX_WITNESS};
    if a.len() > MAX_WITNESS {
        return Err(format!("a witness is at most {MAX_WITNESS} bytes"));
    }
    let w: Witness = serde_json::from_str(a).map_err(|e| format!("not a witness: {e}"))?;
    if !w.well_formed() {
        return Err("not a witness: a field is not of its size".into());
    }
    Ok(Cmd::Witness(Box::new(w)))
}

/// Whether a command is the arbiter's (needs the arbiter's secret).
#[must_use]
pub fn is_arbiter(cmd: &Cmd) -> bool {
    cmd.is_arbiters()
}

/// The session command for a request, or why it is malformed.
///
/// # Errors
/// A missing or malformed argument.
pub fn to_cmd(cmd: &str, arg: Option<&str>) -> Result<Cmd, String> {
    let word = cmd.trim().to_ascii_lowercase();
    Ok(match word.as_str() {
        "move" => match arg.map(str::trim).filter(|a| !a.is_empty()) {
            Some(m) => Cmd::Move(m.to_owned()),
            None => return Err("move needs the move, e.g. 32-28".into()),
        },
        "done" => Cmd::Done(side(arg)?),
        "missing" => Cmd::Missing(side(arg)?),
        "clock" => match arg.map(str::trim).filter(|a| !a.is_empty()) {
            None => Cmd::Clock,
            Some(a) => clock_set(a)?,
        },
        "takeback" => takeback(arg.unwrap_or(""))?,
        // The desk's witness of the journal, from the table's relay (its token only).
        "witness" => witness(arg.unwrap_or(""))?,
        "position" => none(&word, arg, Cmd::Position)?,
        "last" => none(&word, arg, Cmd::Last)?,
        "state" => none(&word, arg, Cmd::State)?,
        "pause" => none(&word, arg, Cmd::Pause)?,
        "resume" => none(&word, arg, Cmd::Resume)?,
        "help" => none(&word, arg, Cmd::Help)?,
        "repeat" => none(&word, arg, Cmd::Repeat)?,
        "listen" => none(&word, arg, Cmd::Listen)?,
        "mismatch" => Cmd::Mismatch(
            arg.map(str::trim)
                .filter(|a| !a.is_empty())
                .map(str::to_owned),
        ),
        // Not a side: a game's own kind of resignation (`resign 2`,
        // `resign white 2`: Game::action), refused as unknown by the others.
        "resign" => side(arg)
            .map(Cmd::Resign)
            .unwrap_or_else(|_| Cmd::Unknown(format!("resign {}", arg.unwrap_or_default().trim()))),
        // The record at the table (issue 15).
        "record" => crate::session::parse_record(arg.unwrap_or("")).ok_or_else(|| {
            format!(
                "record takes no argument, FROM, or FROM TO (move numbers from 1; got {:?})",
                arg.unwrap_or("")
            )
        })?,
        "review" => match arg.map(str::trim).and_then(|a| a.parse::<u32>().ok()) {
            Some(n) if n >= 1 => Cmd::ReviewMove(n),
            _ => return Err("review needs a move number from 1, e.g. review 12".into()),
        },
        // A question about the board (issue 23): the same words as typed.
        "ask" => Cmd::Ask(arg.unwrap_or_default().trim().to_owned()),
        "next" => none(&word, arg, Cmd::Next)?,
        "back" => none(&word, arg, Cmd::Back)?,
        "live" => none(&word, arg, Cmd::Live)?,
        "say" => match arg.map(str::trim).filter(|a| !a.is_empty()) {
            Some(t) => Cmd::Say(t.to_owned()),
            None => return Err("say needs a text".into()),
        },
        "draw" => {
            let a = arg.unwrap_or("").trim();
            let (what, who) = a.split_once(char::is_whitespace).unwrap_or((a, ""));
            let what = match what.to_ascii_lowercase().as_str() {
                "offer" => DrawCmd::Offer,
                "accept" => DrawCmd::Accept,
                "decline" => DrawCmd::Decline,
                "claim" => DrawCmd::Claim,
                _ => {
                    return Err(format!(
                        "draw needs offer, accept, decline or claim (got {a:?})"
                    ))
                }
            };
            Cmd::Draw(what, side(Some(who))?)
        }
        _ => Cmd::Unknown(match arg {
            Some(a) => format!("{} {a}", cmd.trim()),
            None => cmd.trim().to_owned(),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_map_to_commands() {
        assert_eq!(to_cmd("move", Some("32-28")), Ok(Cmd::Move("32-28".into())));
        assert_eq!(
            to_cmd("done", Some("black")),
            Ok(Cmd::Done(Some(Color::Black)))
        );
        assert_eq!(to_cmd("done", None), Ok(Cmd::Done(None)));
        assert_eq!(
            to_cmd("draw", Some("offer")),
            Ok(Cmd::Draw(DrawCmd::Offer, None))
        );
        assert_eq!(
            to_cmd("draw", Some("accept white")),
            Ok(Cmd::Draw(DrawCmd::Accept, Some(Color::White)))
        );
        assert_eq!(to_cmd("dance", None), Ok(Cmd::Unknown("dance".into())));
        assert_eq!(
            to_cmd("resign", Some("black")),
            Ok(Cmd::Resign(Some(Color::Black)))
        );
        assert_eq!(
            to_cmd("resign", Some("white 2")),
            Ok(Cmd::Unknown("resign white 2".into()))
        );
        assert!(to_cmd("move", None).is_err());
        assert!(to_cmd("done", Some("green")).is_err());
        assert!(to_cmd("clock", Some("now")).is_err());
        assert_eq!(
            to_cmd("clock", Some("set white 300")),
            Ok(Cmd::ClockSet(Color::White, 300))
        );
        assert!(to_cmd("clock", Some("set green 300")).is_err());
        assert!(to_cmd("clock", Some("set black -1")).is_err());
        assert!(to_cmd("clock", Some("set black 99999999999999999999")).is_err());
        assert!(to_cmd("clock", Some("set black 10 extra")).is_err());
        assert_eq!(
            to_cmd("takeback", Some("2 boards differed at 23")),
            Ok(Cmd::Takeback(2, "boards differed at 23".into()))
        );
        assert!(to_cmd("takeback", None).is_err());
        assert!(to_cmd("takeback", Some("0")).is_err());
        assert!(to_cmd("takeback", Some("x")).is_err());
        assert!(to_cmd("draw", Some("maybe")).is_err());
        assert_eq!(to_cmd("record", None), Ok(Cmd::Record(None, None)));
        assert_eq!(
            to_cmd("record", Some("10 12")),
            Ok(Cmd::Record(Some(10), Some(12)))
        );
        assert!(to_cmd("record", Some("ten")).is_err());
        assert!(to_cmd("record", Some("0")).is_err());
        assert_eq!(to_cmd("review", Some("12")), Ok(Cmd::ReviewMove(12)));
        assert!(to_cmd("review", None).is_err());
        assert_eq!(to_cmd("next", None), Ok(Cmd::Next));
        assert!(to_cmd("live", Some("now")).is_err());
    }
}
