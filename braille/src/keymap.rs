//! BRLTTY's key codes (as BrlAPI delivers them in tty mode) to [`Key`]s.
//!
//! BrlAPI passes BRLTTY *commands*, so whatever keys a display model has are
//! bound to these commands by BRLTTY's own key tables, and the player's
//! habits carry over:
//!
//! | BRLTTY command / key            | tandem                       |
//! |---------------------------------|------------------------------|
//! | `ROUTE` n (routing key n)       | select square under cell n   |
//! | `FWINLT` / `FWINRT`             | pan left / right             |
//! | `LNUP` / `LNDN`                 | line up / down               |
//! | `TOP`, `TOP_LEFT` / `BOT`, `BOT_LEFT` | first / last line      |
//! | `DISPMD` (display mode)         | next view                    |
//! | `TIME` (date and time)          | clock report                 |
//! | `HOME` (go to cursor)           | last move                    |
//! | Enter (`KEY_ENTER`, keysym Return) | done: my board is up to date |
//! | Escape (`KEY_ESCAPE`, keysym Escape) | cancel                     |
//! | BackSpace (`KEY_BACKSPACE`)     | erase the last character typed |
//! | a character typed on the braille keys (keysym) | [`Key::Char`] (backgammon: a die of the roll) |
//!
//! The numbers are BrlAPI's (`brlapi_keycodes.h`, `brlapi_constants.h`),
//! written out here so the mapping is tested without libbrlapi.

use crate::keys::{Key, KeyCommand};

/// `BRLAPI_KEY_TYPE_MASK`.
pub const KEY_TYPE_MASK: u64 = 0xE000_0000;
/// `BRLAPI_KEY_TYPE_CMD`: the code is a BRLTTY command.
pub const KEY_TYPE_CMD: u64 = 0x2000_0000;
/// `BRLAPI_KEY_TYPE_SYM`: the code is a keysym.
pub const KEY_TYPE_SYM: u64 = 0;
/// `BRLAPI_KEY_CODE_MASK`.
pub const KEY_CODE_MASK: u64 = 0x1FFF_FFFF;
/// `BRLAPI_KEY_CMD_BLK_MASK`: the command block.
pub const KEY_CMD_BLK_MASK: u64 = 0x1FFF_0000;
/// `BRLAPI_KEY_CMD_ARG_MASK`: the command's argument.
pub const KEY_CMD_ARG_MASK: u64 = 0x0000_FFFF;

/// `BRLAPI_KEY_CMD(v)`.
#[must_use]
pub const fn cmd_block(v: u64) -> u64 {
    v << 16
}

/// `BRLAPI_KEY_CMD_LNUP`.
pub const CMD_LNUP: u64 = 1;
/// `BRLAPI_KEY_CMD_LNDN`.
pub const CMD_LNDN: u64 = 2;
/// `BRLAPI_KEY_CMD_TOP`.
pub const CMD_TOP: u64 = 9;
/// `BRLAPI_KEY_CMD_BOT`.
pub const CMD_BOT: u64 = 10;
/// `BRLAPI_KEY_CMD_TOP_LEFT`.
pub const CMD_TOP_LEFT: u64 = 11;
/// `BRLAPI_KEY_CMD_BOT_LEFT`.
pub const CMD_BOT_LEFT: u64 = 12;
/// `BRLAPI_KEY_CMD_FWINLT`.
pub const CMD_FWINLT: u64 = 23;
/// `BRLAPI_KEY_CMD_FWINRT`.
pub const CMD_FWINRT: u64 = 24;
/// `BRLAPI_KEY_CMD_HOME`.
pub const CMD_HOME: u64 = 29;
/// `BRLAPI_KEY_CMD_DISPMD`.
pub const CMD_DISPMD: u64 = 33;
/// `BRLAPI_KEY_CMD_TIME`.
pub const CMD_TIME: u64 = 81;
/// `BRLAPI_KEY_CMD_ROUTE` is block 1.
pub const BLK_ROUTE: u64 = 1;
/// `BRLAPI_KEY_SYM_LINEFEED` (X's `Return`).
pub const SYM_RETURN: u64 = 0xFF0D;
/// `BRLAPI_KEY_SYM_ESCAPE`.
pub const SYM_ESCAPE: u64 = 0xFF1B;
/// `BRLAPI_KEY_SYM_BACKSPACE`.
pub const SYM_BACKSPACE: u64 = 0xFF08;
/// `BRLAPI_KEY_SYM_UNICODE`: the keysym is this bit and a Unicode code point.
pub const SYM_UNICODE: u64 = 0x0100_0000;

/// The BrlAPI key code of a BRLTTY command (block 0) with no argument.
#[must_use]
pub const fn command_code(cmd: u64) -> u64 {
    KEY_TYPE_CMD | cmd
}

/// The BrlAPI key code of routing key `n`.
#[must_use]
pub const fn routing_code(n: u16) -> u64 {
    KEY_TYPE_CMD | cmd_block(BLK_ROUTE) | n as u64
}

/// Maps a BrlAPI key code to a tandem key; `None` for keys tandem does not
/// use (they are ignored, never an error). Flags (the upper 32 bits, such
/// as key-release or toggles) are ignored.
///
/// ```
/// use tandem_braille::keymap::{from_brlapi, routing_code};
/// use tandem_braille::Key;
/// assert_eq!(from_brlapi(routing_code(5)), Some(Key::Routing(5)));
/// ```
#[must_use]
pub fn from_brlapi(code: u64) -> Option<Key> {
    let code = code & (KEY_TYPE_MASK | KEY_CODE_MASK);
    match code & KEY_TYPE_MASK {
        KEY_TYPE_CMD => {
            let block = (code & KEY_CMD_BLK_MASK) >> 16;
            let arg = code & KEY_CMD_ARG_MASK;
            match (block, arg) {
                (BLK_ROUTE, n) => u16::try_from(n).ok().map(Key::Routing),
                (0, CMD_FWINLT) => Some(Key::PanLeft),
                (0, CMD_FWINRT) => Some(Key::PanRight),
                (0, CMD_LNUP) => Some(Key::LineUp),
                (0, CMD_LNDN) => Some(Key::LineDown),
                (0, CMD_TOP | CMD_TOP_LEFT) => Some(Key::Top),
                (0, CMD_BOT | CMD_BOT_LEFT) => Some(Key::Bottom),
                (0, CMD_DISPMD) => Some(Key::Command(KeyCommand::NextView)),
                (0, CMD_TIME) => Some(Key::Command(KeyCommand::ClockReport)),
                (0, CMD_HOME) => Some(Key::Command(KeyCommand::LastMove)),
                _ => None,
            }
        }
        KEY_TYPE_SYM => match code & KEY_CODE_MASK {
            SYM_RETURN => Some(Key::Command(KeyCommand::Done)),
            SYM_ESCAPE => Some(Key::Command(KeyCommand::Cancel)),
            SYM_BACKSPACE => Some(Key::Command(KeyCommand::Erase)),
            // A character typed on the braille keys, as BRLTTY's text
            // table translated the dots: Latin-1 keysyms are the character
            // itself, others carry the Unicode bit.
            c if c & SYM_UNICODE != 0 => u32::try_from(c & (SYM_UNICODE - 1))
                .ok()
                .and_then(char::from_u32)
                .filter(|ch| !ch.is_control())
                .map(Key::Char),
            c @ 0x20..=0xFF if c != 0x7F => u8::try_from(c).ok().map(|b| Key::Char(char::from(b))),
            _ => None,
        },
        _ => None,
    }
}

/// The BRLTTY command names of the mapping (as BRLTTY's key tables and the
/// `vr` driver spell them), for help texts and test fixtures.
#[must_use]
pub fn brltty_command_name(key: Key) -> String {
    match key {
        Key::Routing(n) => format!("ROUTE {n}"),
        Key::PanLeft => "FWINLT".into(),
        Key::PanRight => "FWINRT".into(),
        Key::LineUp => "LNUP".into(),
        Key::LineDown => "LNDN".into(),
        Key::Top => "TOP".into(),
        Key::Bottom => "BOT".into(),
        Key::Command(KeyCommand::NextView) => "DISPMD".into(),
        Key::Command(KeyCommand::ClockReport) => "TIME".into(),
        Key::Command(KeyCommand::LastMove) => "HOME".into(),
        Key::Command(KeyCommand::Done) => "KEY_ENTER".into(),
        Key::Command(KeyCommand::Cancel) => "KEY_ESCAPE".into(),
        Key::Command(KeyCommand::Erase) => "KEY_BACKSPACE".into(),
        // The dots BRLTTY's `en-nabcc` text table gives the character (the
        // test fixture's table): `PASSDOTS` takes them as a bit mask.
        Key::Char(c) => format!(
            "PASSDOTS {}",
            crate::table::text_cells(&c.to_string())
                .first()
                .map_or(0, |cell| cell.mask())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_map_and_flags_are_ignored() {
        assert_eq!(from_brlapi(command_code(CMD_FWINRT)), Some(Key::PanRight));
        assert_eq!(
            from_brlapi(command_code(CMD_LNDN) | 0x0001_0000_0000),
            Some(Key::LineDown)
        );
        assert_eq!(
            from_brlapi(command_code(CMD_TIME)),
            Some(Key::Command(KeyCommand::ClockReport))
        );
        assert_eq!(
            from_brlapi(SYM_RETURN),
            Some(Key::Command(KeyCommand::Done))
        );
        assert_eq!(
            from_brlapi(SYM_ESCAPE),
            Some(Key::Command(KeyCommand::Cancel))
        );
        assert_eq!(from_brlapi(routing_code(79)), Some(Key::Routing(79)));
        assert_eq!(from_brlapi(u64::from(b'a')), Some(Key::Char('a')));
        assert_eq!(from_brlapi(u64::from(b'3')), Some(Key::Char('3')));
        assert_eq!(from_brlapi(SYM_UNICODE | 0x0142), Some(Key::Char('ł')));
        assert_eq!(
            from_brlapi(SYM_BACKSPACE),
            Some(Key::Command(KeyCommand::Erase))
        );
        assert_eq!(brltty_command_name(Key::Char('3')), "PASSDOTS 18");
        assert_eq!(from_brlapi(command_code(52)), None); // PREFMENU stays BRLTTY's
        assert_eq!(from_brlapi(0x4000_0000), None); // an unknown type
    }
}
