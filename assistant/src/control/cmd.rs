//! Control requests to session commands. An unknown command word becomes
//! [`Cmd::Unknown`], which the session refuses aloud and answers with an
//! error (like mini-redis's `Unknown`); a bad argument is an error reply.

use tandem_rules::Color;

use crate::session::{Cmd, DrawCmd};

fn side(arg: Option<&str>) -> Result<Option<Color>, String> {
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
        "clock" => none(&word, arg, Cmd::Clock)?,
        "position" => none(&word, arg, Cmd::Position)?,
        "last" => none(&word, arg, Cmd::Last)?,
        "state" => none(&word, arg, Cmd::State)?,
        "pause" => none(&word, arg, Cmd::Pause)?,
        "resume" => none(&word, arg, Cmd::Resume)?,
        "help" => none(&word, arg, Cmd::Help)?,
        "mismatch" => Cmd::Mismatch(
            arg.map(str::trim)
                .filter(|a| !a.is_empty())
                .map(str::to_owned),
        ),
        "resign" => Cmd::Resign(side(arg)?),
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
                _ => return Err(format!("draw needs offer, accept or decline (got {a:?})")),
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
        assert!(to_cmd("move", None).is_err());
        assert!(to_cmd("done", Some("green")).is_err());
        assert!(to_cmd("clock", Some("now")).is_err());
        assert!(to_cmd("draw", Some("maybe")).is_err());
    }
}
