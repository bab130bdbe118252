//! A seat at the table: one player's own channel (001 ch. VIII 1.3: a board
//! for each player, whether one or both are blind). A seat has its own
//! speech output, braille display, microphone and language, given on the
//! command line (`tandem play --seat SIDE:KEY=VALUE[,KEY=VALUE…]`) or in
//! the config file (`[seat.white]`, `[seat.black]`). Plain data: the
//! outputs, the voice thread and the session take it as arguments.
//!
//! Keys (exact contract, see `docs/seats.md`):
//! - `speech`: `auto`, `speechd`, `espeak`, `text`, `none`, `left`,
//!   `right` (one channel of the default stereo output: one splitter, two
//!   earphones) or `alsa:DEVICE` (a sound card of its own);
//! - `braille`: `none`, `terminal` or `brlapi:HOST` (`brlapi::1`: the
//!   BRLTTY that serves that display);
//! - `mic`: an ALSA device name, or `none`;
//! - `lang`: `pl` or `en`;
//! - `board`: `chesslink:PATH` (the seat's electronic board, a Millennium
//!   ChessLink on the serial device PATH: its moves are read, the other
//!   side's shown on its lights; chess only, `docs/eboards.md`), or `none`.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use serde::Deserialize;
use tandem_rules::Color;

/// Where speech goes: the table's (`--speech`, `speech = "…"` in the
/// config file: the first five) or a seat's (`--seat SIDE:speech=…`: any).
/// One type for both; only a seat has an ear or a sound card of its own.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SpeechChoice {
    /// speech-dispatcher if it answers, else espeak-ng, else text.
    #[default]
    Auto,
    /// speech-dispatcher.
    Speechd,
    /// espeak-ng.
    Espeak,
    /// Text lines (on stdout when headless, on the screen otherwise).
    Text,
    /// No speech.
    None,
    /// A seat's: the left channel of the default stereo output.
    Left,
    /// A seat's: the right channel of the default stereo output.
    Right,
    /// A seat's: an ALSA device of its own (`alsa:plughw:1`).
    Alsa(String),
}

/// The table's speech choices (`--speech`), in the order `--help` lists them.
static TABLE_SPEECH: [SpeechChoice; 5] = [
    SpeechChoice::Auto,
    SpeechChoice::Speechd,
    SpeechChoice::Espeak,
    SpeechChoice::Text,
    SpeechChoice::None,
];

/// `--speech` takes the table's five choices, with their help.
impl clap::ValueEnum for SpeechChoice {
    fn value_variants<'a>() -> &'a [Self] {
        &TABLE_SPEECH
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use clap::builder::PossibleValue;
        Some(match self {
            SpeechChoice::Auto => PossibleValue::new("auto")
                .help("speech-dispatcher if it answers, else espeak-ng, else text"),
            SpeechChoice::Speechd => PossibleValue::new("speechd").help("speech-dispatcher"),
            SpeechChoice::Espeak => PossibleValue::new("espeak").help("espeak-ng"),
            SpeechChoice::Text => PossibleValue::new("text")
                .help("Text lines (on stdout when headless, on the screen otherwise)"),
            SpeechChoice::None => PossibleValue::new("none").help("No speech"),
            SpeechChoice::Left | SpeechChoice::Right | SpeechChoice::Alsa(_) => return None,
        })
    }
}

/// The config file's `speech = "…"` takes the table's five choices, as `--speech`.
impl<'de> Deserialize<'de> for SpeechChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SpeechChoice, D::Error> {
        let s = String::deserialize(d)?;
        TABLE_SPEECH
            .iter()
            .find(|c| c.to_string() == s)
            .cloned()
            .ok_or_else(|| {
                serde::de::Error::unknown_variant(
                    &s,
                    &["auto", "speechd", "espeak", "text", "none"],
                )
            })
    }
}

/// Where a seat's braille goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SeatBraille {
    /// No display.
    #[default]
    None,
    /// The braille line in the terminal.
    Terminal,
    /// A display through the BRLTTY at this BrlAPI host (`:1`).
    Brlapi(String),
}

/// The protocols of the e-boards a seat may have (docs/eboards.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardProtocol {
    /// Millennium ChessLink (Dave Woodfield's document of 25/10/17), on a
    /// serial line.
    ChessLink,
}

/// A seat's electronic board: its protocol and where it is plugged in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardSpec {
    /// How it speaks.
    pub protocol: BoardProtocol,
    /// Its serial device (`/dev/ttyACM0`, `/dev/serial/by-id/…`).
    pub path: PathBuf,
}

impl FromStr for BoardSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<BoardSpec, String> {
        match s.split_once(':') {
            Some(("chesslink", path)) if !path.trim().is_empty() => Ok(BoardSpec {
                protocol: BoardProtocol::ChessLink,
                path: PathBuf::from(path.trim()),
            }),
            _ => Err(format!(
                "board is chesslink:PATH (a serial device such as /dev/ttyACM0) or none, not {s:?}"
            )),
        }
    }
}

impl fmt::Display for BoardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.protocol {
            BoardProtocol::ChessLink => write!(f, "chesslink:{}", self.path.display()),
        }
    }
}

/// One seat's channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatSpec {
    /// Whose seat.
    pub side: Color,
    /// Its speech output (any of the choices).
    pub speech: SpeechChoice,
    /// Its braille display.
    pub braille: SeatBraille,
    /// Its microphone (an ALSA device name); `None`: none.
    pub mic: Option<String>,
    /// Its language (`pl`, `en`); `None`: the table's.
    pub lang: Option<String>,
    /// Its electronic board (`board=chesslink:PATH`); `None`: none.
    pub board: Option<BoardSpec>,
}

impl SeatSpec {
    /// A seat with nothing of its own yet.
    #[must_use]
    pub fn new(side: Color) -> SeatSpec {
        SeatSpec {
            side,
            speech: SpeechChoice::None,
            braille: SeatBraille::None,
            mic: None,
            lang: None,
            board: None,
        }
    }

    /// Sets one `KEY=VALUE` of the seat.
    ///
    /// # Errors
    /// An unknown key or a value the key does not take.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let v = value.trim();
        match key.trim() {
            "speech" => self.speech = v.parse()?,
            "braille" => self.braille = v.parse()?,
            "mic" => {
                self.mic = match v {
                    "" => return Err("mic needs an ALSA device name, or none".into()),
                    "none" => None,
                    d => Some(d.to_owned()),
                }
            }
            "lang" => {
                crate::lang::check(v).map_err(|e| format!("lang: {e}"))?;
                self.lang = Some(v.to_owned());
            }
            "board" => {
                self.board = match v {
                    "none" => None,
                    b => Some(b.parse()?),
                }
            }
            k => return Err(unknown_key(k)),
        }
        Ok(())
    }
}

fn unknown_key(k: &str) -> String {
    format!("unknown seat key {k:?}: the keys are speech, braille, mic, lang and board")
}

/// A seat's side as the command line names it (`white`, `black`).
///
/// # Errors
/// Another word.
pub fn side_of(s: &str) -> Result<Color, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(format!("a seat is white or black, not {other:?}")),
    }
}

impl FromStr for SeatSpec {
    type Err = String;

    /// `SIDE:KEY=VALUE[,KEY=VALUE…]` (`white:speech=left,mic=hw:1`). A value
    /// may hold `:` (`brlapi::1`, `alsa:plughw:1`) but not `,`.
    fn from_str(s: &str) -> Result<SeatSpec, String> {
        let (side, pairs) = split_flag(s)?;
        let mut seat = SeatSpec::new(side);
        for (k, v) in pairs {
            seat.set(k, v)?;
        }
        Ok(seat)
    }
}

/// A flag's keys and values, as given.
type Pairs<'a> = Vec<(&'a str, &'a str)>;

/// `SIDE:KEY=VALUE[,KEY=VALUE…]` split into its side and its pairs.
fn split_flag(s: &str) -> Result<(Color, Pairs<'_>), String> {
    let (side, rest) = s
        .split_once(':')
        .ok_or_else(|| format!("a seat is SIDE:KEY=VALUE[,KEY=VALUE…], not {s:?}"))?;
    let side = side_of(side)?;
    let pairs = rest
        .split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|pair| {
            pair.split_once('=')
                .ok_or_else(|| format!("{pair:?} is not KEY=VALUE"))
        })
        .collect::<Result<_, _>>()?;
    Ok((side, pairs))
}

impl FromStr for SpeechChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<SpeechChoice, String> {
        Ok(match s {
            "auto" => SpeechChoice::Auto,
            "speechd" => SpeechChoice::Speechd,
            "espeak" => SpeechChoice::Espeak,
            "text" => SpeechChoice::Text,
            "none" => SpeechChoice::None,
            "left" => SpeechChoice::Left,
            "right" => SpeechChoice::Right,
            _ => match s.strip_prefix("alsa:") {
                Some(d) if !d.is_empty() => SpeechChoice::Alsa(d.to_owned()),
                _ => {
                    return Err(format!(
                        "speech is auto, speechd, espeak, text, none, left, right or alsa:DEVICE, not {s:?}"
                    ))
                }
            },
        })
    }
}

impl FromStr for SeatBraille {
    type Err = String;

    fn from_str(s: &str) -> Result<SeatBraille, String> {
        Ok(match s {
            "none" => SeatBraille::None,
            "terminal" => SeatBraille::Terminal,
            _ => match s.strip_prefix("brlapi:") {
                Some(h) if !h.is_empty() => SeatBraille::Brlapi(h.to_owned()),
                _ => {
                    return Err(format!(
                        "braille is none, terminal or brlapi:HOST (brlapi::1), not {s:?}"
                    ))
                }
            },
        })
    }
}

impl fmt::Display for SpeechChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpeechChoice::Auto => f.write_str("auto"),
            SpeechChoice::Speechd => f.write_str("speechd"),
            SpeechChoice::Espeak => f.write_str("espeak"),
            SpeechChoice::Text => f.write_str("text"),
            SpeechChoice::None => f.write_str("none"),
            SpeechChoice::Left => f.write_str("left"),
            SpeechChoice::Right => f.write_str("right"),
            SpeechChoice::Alsa(d) => write!(f, "alsa:{d}"),
        }
    }
}

/// A seat as the config file gives it (`[seat.white]`): the same keys.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSeat {
    /// `speech = "left"`.
    pub speech: Option<String>,
    /// `braille = "brlapi::1"`.
    pub braille: Option<String>,
    /// `mic = "hw:1"`.
    pub mic: Option<String>,
    /// `lang = "en"`.
    pub lang: Option<String>,
    /// `board = "chesslink:/dev/ttyACM0"`.
    pub board: Option<String>,
}

impl RawSeat {
    /// The seat of `side` this table gives.
    ///
    /// # Errors
    /// A value its key does not take.
    pub fn to_spec(&self, side: Color) -> Result<SeatSpec, String> {
        let mut seat = SeatSpec::new(side);
        for (k, v) in [
            ("speech", &self.speech),
            ("braille", &self.braille),
            ("mic", &self.mic),
            ("lang", &self.lang),
            ("board", &self.board),
        ] {
            if let Some(v) = v {
                seat.set(k, v)?;
            }
        }
        Ok(seat)
    }
}

impl RawSeat {
    /// `self` with each key `over` sets replaced (the flags over the file).
    #[must_use]
    pub fn overlay(self, over: RawSeat) -> RawSeat {
        RawSeat {
            speech: over.speech.or(self.speech),
            braille: over.braille.or(self.braille),
            mic: over.mic.or(self.mic),
            lang: over.lang.or(self.lang),
            board: over.board.or(self.board),
        }
    }
}

/// The seats a config file gives (`[seat.white]`, `[seat.black]`), or the
/// flags (`--seat`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSeats {
    /// `[seat.white]`.
    pub white: Option<RawSeat>,
    /// `[seat.black]`.
    pub black: Option<RawSeat>,
}

impl RawSeats {
    /// The flags' seats over the file's, key by key.
    #[must_use]
    pub fn overlay(base: Option<RawSeats>, over: Option<RawSeats>) -> Option<RawSeats> {
        let merge = |a: Option<RawSeat>, b: Option<RawSeat>| match (a, b) {
            (Some(a), Some(b)) => Some(a.overlay(b)),
            (a, b) => b.or(a),
        };
        match (base, over) {
            (Some(a), Some(b)) => Some(RawSeats {
                white: merge(a.white, b.white),
                black: merge(a.black, b.black),
            }),
            (a, b) => b.or(a),
        }
    }

    /// The `--seat` flags, each `SIDE:KEY=VALUE[,…]`; a side given twice
    /// takes the keys of both, the later winning.
    ///
    /// # Errors
    /// A flag that does not read as a seat.
    pub fn from_flags(flags: &[String]) -> Result<Option<RawSeats>, String> {
        let mut seats: Option<RawSeats> = None;
        for f in flags {
            let (side, pairs) = split_flag(f)?;
            let mut raw = RawSeat::default();
            for (k, v) in pairs {
                let v = Some(v.trim().to_owned());
                match k.trim() {
                    "speech" => raw.speech = v,
                    "braille" => raw.braille = v,
                    "mic" => raw.mic = v,
                    "lang" => raw.lang = v,
                    "board" => raw.board = v,
                    k => return Err(unknown_key(k)),
                }
            }
            // Each value checked as its key takes it, as the file's are.
            raw.to_spec(side)?;
            let one = match side {
                Color::White => RawSeats {
                    white: Some(raw),
                    black: None,
                },
                Color::Black => RawSeats {
                    white: None,
                    black: Some(raw),
                },
            };
            seats = RawSeats::overlay(seats, Some(one));
        }
        Ok(seats)
    }

    /// The seats, white first.
    ///
    /// # Errors
    /// A value its key does not take, named with its seat.
    pub fn specs(&self) -> Result<Vec<SeatSpec>, String> {
        let mut out = Vec::new();
        for (side, raw) in [(Color::White, &self.white), (Color::Black, &self.black)] {
            if let Some(r) = raw {
                out.push(r.to_spec(side).map_err(|e| format!("seat {side}: {e}"))?);
            }
        }
        Ok(out)
    }
}

/// Who heard an announcement: the sides whose seats' outputs got it, in
/// the order white, black (the journal's `to`).
#[must_use]
pub fn sides_in_order(sides: impl IntoIterator<Item = Color>) -> Vec<Color> {
    let v: Vec<Color> = sides.into_iter().collect();
    [Color::White, Color::Black]
        .into_iter()
        .filter(|c| v.contains(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_reads_its_keys_with_colons_in_values() {
        let s: SeatSpec = "white:speech=left,braille=brlapi::1,mic=hw:1,lang=en"
            .parse()
            .unwrap();
        assert_eq!(s.side, Color::White);
        assert_eq!(s.speech, SpeechChoice::Left);
        assert_eq!(s.braille, SeatBraille::Brlapi(":1".into()));
        assert_eq!(s.mic.as_deref(), Some("hw:1"));
        assert_eq!(s.lang.as_deref(), Some("en"));
        let e: SeatSpec = "white:board=chesslink:/dev/serial/by-id/usb-x:y"
            .parse()
            .unwrap();
        assert_eq!(
            e.board,
            Some(BoardSpec {
                protocol: BoardProtocol::ChessLink,
                path: "/dev/serial/by-id/usb-x:y".into()
            })
        );
        let b: SeatSpec = "black:speech=alsa:plughw:2".parse().unwrap();
        assert_eq!(b.speech, SpeechChoice::Alsa("plughw:2".into()));
        assert_eq!(b.braille, SeatBraille::None);
    }

    #[test]
    fn bad_seats_say_what_is_wrong() {
        for (text, said) in [
            ("red:speech=left", "white or black"),
            ("white", "SIDE:KEY=VALUE"),
            ("white:speech", "KEY=VALUE"),
            ("white:volume=3", "unknown seat key"),
            ("white:speech=loud", "speech is auto"),
            ("white:braille=brlapi:", "braille is none"),
            (
                "white:lang=xx",
                "lang: unknown language \"xx\": tandem speaks ",
            ),
            ("white:mic=", "ALSA device"),
            ("white:board=dgt:/dev/ttyUSB0", "board is chesslink:PATH"),
            ("white:board=chesslink:", "board is chesslink:PATH"),
        ] {
            let e = text.parse::<SeatSpec>().unwrap_err();
            assert!(e.contains(said), "{text}: {e}");
        }
    }

    #[test]
    fn the_config_files_seat_takes_the_same_keys() {
        let raw: RawSeat = toml::from_str("speech = \"right\"\nmic = \"none\"").unwrap();
        let s = raw.to_spec(Color::Black).unwrap();
        assert_eq!((s.speech, s.mic), (SpeechChoice::Right, None));
        let raw: RawSeat = toml::from_str("board = \"chesslink:/dev/ttyACM0\"").unwrap();
        let s = raw.to_spec(Color::White).unwrap();
        assert_eq!(s.board.unwrap().to_string(), "chesslink:/dev/ttyACM0");
        assert!(toml::from_str::<RawSeat>("volume = 3").is_err());
    }

    #[test]
    fn the_flags_win_over_the_file_key_by_key() {
        let file: RawSeats = toml::from_str(
            "[white]\nspeech = \"left\"\nmic = \"hw:1\"\n[black]\nspeech = \"right\"",
        )
        .unwrap();
        let flags =
            RawSeats::from_flags(&["white:speech=alsa:plughw:2".into(), "white:lang=en".into()])
                .unwrap();
        let seats = RawSeats::overlay(Some(file), flags)
            .unwrap()
            .specs()
            .unwrap();
        assert_eq!(seats.len(), 2);
        assert_eq!(seats[0].speech, SpeechChoice::Alsa("plughw:2".into()));
        assert_eq!(seats[0].mic.as_deref(), Some("hw:1"));
        assert_eq!(seats[0].lang.as_deref(), Some("en"));
        assert_eq!(seats[1].speech, SpeechChoice::Right);
        assert!(RawSeats::from_flags(&["white:speech=loud".into()]).is_err());
    }
}
