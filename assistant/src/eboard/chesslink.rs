//! The Millennium ChessLink board (Dave Woodfield's "Magic Chessboard
//! Communications Protocol" of 25/10/17), on a serial line.
//!
//! The document, as this module reads it:
//! - 38400 baud, 7 data bits, odd parity, 1 stop bit; every character
//!   printable ASCII. A port (or a pseudo-terminal) that cannot do 7 bits
//!   with odd parity is set to 8 bits without parity: the parity bit is
//!   then written by hand in bit 7, and whatever arrives is read with bit 7
//!   cleared, so that both kinds of line work.
//! - Every message ends in its block parity: the XOR of all its characters
//!   before it, as two hex digits. A message whose block parity is wrong
//!   is dropped (the board drops ours the same way).
//! - Commands (upper case) and their acknowledgements (the same letter in
//!   lower case): `S` status, answered `s` and 64 piece codes, a8 … h8,
//!   a7 … h1 (`KQRNBP` white, `kqrnbp` black, `.` empty); `L` LEDs, a slot
//!   time (units of 4.096 ms) and 81 pattern bytes, each two upper-case hex
//!   digits whose bits b7 … b0 light the LED slot by slot (`FF`: steady),
//!   LED 1 in the a8 corner, 9 in the a1 corner, 73 in the h8 corner, 81 in
//!   the h1 corner; `X` all LEDs out; `T` reset (no answer); `V` version,
//!   answered `v` and four hex digits; `W` write E2ROM, an address and a
//!   byte, answered `w` with both; `R` read E2ROM, answered `r` with both.
//! - E2ROM address 02, automatic status reports: b2-b0 `011` sends the
//!   status on any change. Reports may come between a command and its
//!   acknowledgement, so every message is told apart by its letter.

use std::collections::VecDeque;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::fs::{Mode, OFlags};
use rustix::termios::{self, ControlModes, OptionalActions};

use super::EBoard;

/// The line's speed (the document: 38400 baud).
pub const BAUD: u32 = 38_400;
/// E2ROM address of the automatic status reports.
pub const E2_AUTO_REPORTS: u8 = 0x02;
/// Automatic reports: the status on any change (b2-b0 = 011).
pub const REPORT_ON_CHANGE: u8 = 0b011;
/// The slot time of the lights, in units of 4.096 ms (≈ 41 ms a slot).
pub const SLOT_TIME: u8 = 0x0A;
/// The pattern of a lit move's from square: on half of the 8 slots (blinks).
pub const FROM_PATTERN: u8 = 0xF0;
/// The pattern of a lit move's to square: steady.
pub const TO_PATTERN: u8 = 0xFF;
/// The most a line may hold that is no message yet (bytes): beyond it, it
/// is dropped (a board that sends garbage holds nothing).
const MAX_PENDING: usize = 512;

/// The XOR of `bytes` (the document's block parity).
#[must_use]
pub fn block_parity(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0, |a, b| a ^ (b & 0x7F))
}

/// A command or message with its block parity appended.
#[must_use]
pub fn framed(body: &str) -> String {
    format!("{body}{:02X}", block_parity(body.as_bytes()))
}

/// The 81 LED codes that show a move's from and to squares (`e2`); a
/// corner both squares share is steady.
#[must_use]
pub fn led_codes(from: Option<&str>, to: Option<&str>) -> [u8; 81] {
    let mut leds = [0u8; 81];
    for (square, pattern) in [(from, FROM_PATTERN), (to, TO_PATTERN)] {
        let Some((file, rank)) = square.and_then(square_coords) else {
            continue;
        };
        // Corner columns run from the a side (0) to the h side (8), corner
        // rows from the 8th rank's edge (0) to the 1st's (8): LED 1 + 9 ×
        // column + row.
        for col in [file, file + 1] {
            for row in [8 - rank, 9 - rank] {
                let i = usize::from(col) * 9 + usize::from(row);
                leds[i] |= pattern;
            }
        }
    }
    leds
}

/// `e2` as (file 0-7, rank 1-8).
fn square_coords(s: &str) -> Option<(u8, u8)> {
    let b = s.as_bytes();
    match b {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((f - b'a', r - b'0')),
        _ => None,
    }
}

/// The `L` command lighting a move's squares.
#[must_use]
pub fn led_command(from: Option<&str>, to: Option<&str>) -> String {
    use std::fmt::Write as _;
    let mut body = format!("L{SLOT_TIME:02X}");
    for c in led_codes(from, to) {
        let _ = write!(body, "{c:02X}");
    }
    framed(&body)
}

/// One message from the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// `s`: the 64 squares, a8 … h1.
    Status(String),
    /// `l`, `x`: the lights were set, put out.
    Lights,
    /// `v`: the firmware's version.
    Version(String),
    /// `w`, `r`: an E2ROM address and its byte.
    E2rom(u8, u8),
}

/// Reads the board's messages out of what arrives on the line.
#[derive(Debug, Default)]
pub struct Decoder {
    pending: Vec<u8>,
}

impl Decoder {
    /// Takes `bytes` as they came (bit 7 cleared: a parity bit the line
    /// left in) and gives every whole message they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Message> {
        self.pending.extend(bytes.iter().map(|b| b & 0x7F));
        let mut out = Vec::new();
        while let Some(&first) = self.pending.first() {
            let len = match first {
                b's' => 67,
                b'l' | b'x' => 3,
                b'v' | b'w' | b'r' => 7,
                // Not the start of a message: skipped.
                _ => {
                    self.pending.remove(0);
                    continue;
                }
            };
            if self.pending.len() < len {
                break;
            }
            match parse(&self.pending[..len]) {
                Some(m) => {
                    out.push(m);
                    self.pending.drain(..len);
                }
                // A wrong block parity or piece code: the letter was no
                // message's start after all.
                None => {
                    self.pending.remove(0);
                }
            }
        }
        if self.pending.len() > MAX_PENDING {
            self.pending.clear();
        }
        out
    }
}

fn hex_byte(two: &[u8]) -> Option<u8> {
    u8::from_str_radix(std::str::from_utf8(two).ok()?, 16).ok()
}

fn parse(m: &[u8]) -> Option<Message> {
    let (body, check) = m.split_at(m.len() - 2);
    if hex_byte(check)? != block_parity(body) {
        return None;
    }
    let data = &body[1..];
    Some(match body[0] {
        b's' => {
            if !data.iter().all(|c| b"KQRNBPkqrnbp.".contains(c)) {
                return None;
            }
            Message::Status(String::from_utf8(data.to_vec()).ok()?)
        }
        b'l' | b'x' => Message::Lights,
        b'v' => Message::Version(String::from_utf8(data.to_vec()).ok()?),
        _ => Message::E2rom(hex_byte(&data[..2])?, hex_byte(&data[2..])?),
    })
}

/// Odd parity in bit 7 of a 7-bit character (a line that cannot add it).
#[must_use]
pub fn with_odd_parity(c: u8) -> u8 {
    let c = c & 0x7F;
    if c.count_ones() % 2 == 0 {
        c | 0x80
    } else {
        c
    }
}

/// A ChessLink board on a serial device.
#[derive(Debug)]
pub struct ChessLink {
    path: PathBuf,
    fd: Option<OwnedFd>,
    decoder: Decoder,
    /// The line could not be set to 7 bits with odd parity: the parity bit
    /// is written by hand.
    parity_by_hand: bool,
    readings: VecDeque<String>,
}

impl ChessLink {
    /// The board at `path` (not opened yet).
    #[must_use]
    pub fn new(path: &Path) -> ChessLink {
        ChessLink {
            path: path.to_owned(),
            fd: None,
            decoder: Decoder::default(),
            parity_by_hand: false,
            readings: VecDeque::new(),
        }
    }

    fn fd(&self) -> io::Result<&OwnedFd> {
        self.fd
            .as_ref()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotConnected, "the board is not open"))
    }

    fn send(&mut self, framed: &str) -> io::Result<()> {
        let bytes: Vec<u8> = if self.parity_by_hand {
            framed.bytes().map(with_odd_parity).collect()
        } else {
            framed.bytes().collect()
        };
        let fd = self.fd()?;
        let mut rest = &bytes[..];
        let deadline = Instant::now() + Duration::from_secs(1);
        while !rest.is_empty() {
            match rustix::io::write(fd, rest) {
                Ok(n) => rest = &rest[n..],
                Err(rustix::io::Errno::AGAIN) => {
                    if Instant::now() > deadline {
                        return Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            "the board takes nothing in",
                        ));
                    }
                    let mut fds = [PollFd::new(fd, PollFlags::OUT)];
                    let t = Timespec {
                        tv_sec: 0,
                        tv_nsec: 50_000_000,
                    };
                    let _ = poll(&mut fds, Some(&t));
                }
                Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }
}

/// Sets the line to 38400 baud, 7 data bits, odd parity, raw; `true` when
/// it keeps 8 bits without parity (a pseudo-terminal, some adapters).
fn configure(fd: &OwnedFd) -> io::Result<bool> {
    let mut t = termios::tcgetattr(fd)?;
    t.make_raw();
    // A speed the device refuses (a pseudo-terminal takes any) is no reason
    // not to try the board.
    let _ = t.set_speed(BAUD);
    t.control_modes -= ControlModes::CSIZE | ControlModes::CSTOPB;
    t.control_modes |= ControlModes::CS7
        | ControlModes::PARENB
        | ControlModes::PARODD
        | ControlModes::CREAD
        | ControlModes::CLOCAL;
    termios::tcsetattr(fd, OptionalActions::Now, &t)?;
    let got = termios::tcgetattr(fd)?;
    let seven = (got.control_modes & ControlModes::CSIZE) == ControlModes::CS7
        && got.control_modes.contains(ControlModes::PARENB);
    if !seven {
        let mut t = got;
        t.control_modes -= ControlModes::CSIZE | ControlModes::PARENB;
        t.control_modes |= ControlModes::CS8;
        termios::tcsetattr(fd, OptionalActions::Now, &t)?;
    }
    // What came in before the line was raw (echoed, cooked) is no message.
    termios::tcflush(fd, termios::QueueSelector::IFlush)?;
    Ok(!seven)
}

impl EBoard for ChessLink {
    fn open(&mut self) -> io::Result<()> {
        self.close();
        let fd = rustix::fs::open(
            &self.path,
            OFlags::RDWR | OFlags::NOCTTY | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        self.parity_by_hand = configure(&fd)?;
        self.fd = Some(fd);
        // Reports on every change; the lights out; the squares now.
        self.send(&framed(&format!(
            "W{E2_AUTO_REPORTS:02X}{REPORT_ON_CHANGE:02X}"
        )))?;
        self.send(&framed("X"))?;
        self.send(&framed("S"))?;
        Ok(())
    }

    fn read(&mut self, wait: Duration) -> io::Result<Option<String>> {
        if let Some(r) = self.readings.pop_front() {
            return Ok(Some(r));
        }
        let fd = self.fd()?;
        let mut fds = [PollFd::new(fd, PollFlags::IN)];
        let t = Timespec {
            tv_sec: i64::try_from(wait.as_secs()).unwrap_or(0),
            tv_nsec: i64::from(wait.subsec_nanos()),
        };
        match poll(&mut fds, Some(&t)) {
            Ok(0) | Err(rustix::io::Errno::INTR) => return Ok(None),
            Ok(_) => {}
            Err(e) => return Err(e.into()),
        }
        let mut buf = [0u8; 1024];
        let n = match rustix::io::read(fd.as_fd(), &mut buf) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the board's line closed",
                ))
            }
            Ok(n) => n,
            Err(rustix::io::Errno::AGAIN | rustix::io::Errno::INTR) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        for m in self.decoder.push(&buf[..n]) {
            match m {
                Message::Status(s) => self.readings.push_back(s),
                Message::Version(v) => tracing::info!("ChessLink firmware {v}"),
                Message::Lights | Message::E2rom(..) => {}
            }
        }
        Ok(self.readings.pop_front())
    }

    fn light(&mut self, squares: &[String]) -> io::Result<()> {
        if squares.is_empty() {
            return self.send(&framed("X"));
        }
        let cmd = led_command(
            squares.first().map(String::as_str),
            squares.get(1).map(String::as_str),
        );
        self.send(&cmd)
    }

    fn close(&mut self) {
        self.fd = None;
        self.decoder = Decoder::default();
        self.readings.clear();
    }

    fn opens(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_parity_is_the_xor_in_two_hex_digits() {
        // 'S' = 0x53.
        assert_eq!(framed("S"), "S53");
        // 'W' ^ '0' ^ '2' ^ '0' ^ '3' = 0x57 ^ 0x30 ^ 0x32 ^ 0x30 ^ 0x33 = 0x56.
        assert_eq!(framed("W0203"), "W020356");
    }

    #[test]
    fn messages_are_read_out_of_noise_and_parity_bits() {
        let start = "rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR";
        let status = framed(&format!("s{start}"));
        let mut line: Vec<u8> = b"?\r".to_vec();
        line.extend(framed("x").bytes().map(with_odd_parity));
        line.extend(status.as_bytes());
        line.extend(b"s00");
        let mut d = Decoder::default();
        let (a, b) = line.split_at(40);
        let mut got = d.push(a);
        got.extend(d.push(b));
        assert_eq!(got, [Message::Lights, Message::Status(start.into())]);
        // A wrong block parity: nothing.
        let mut bad = framed(&format!("s{start}")).into_bytes();
        bad[5] = b'.';
        assert!(Decoder::default().push(&bad).is_empty());
        assert_eq!(
            Decoder::default().push(framed("w0203").as_bytes()),
            [Message::E2rom(2, 3)]
        );
    }

    #[test]
    fn a_square_lights_its_four_corners() {
        let leds = led_codes(Some("a8"), None);
        // LED 1, 2, 10, 11 (indices 0, 1, 9, 10).
        let lit: Vec<usize> = (0..81).filter(|&i| leds[i] != 0).collect();
        assert_eq!(lit, [0, 1, 9, 10]);
        let leds = led_codes(None, Some("h1"));
        let lit: Vec<usize> = (0..81).filter(|&i| leds[i] != 0).collect();
        assert_eq!(lit, [70, 71, 79, 80]);
        // e2-e3 share two corners: steady there.
        let leds = led_codes(Some("e2"), Some("e3"));
        assert_eq!(leds.iter().filter(|&&c| c == 0xFF).count(), 4);
        assert_eq!(leds.iter().filter(|&&c| c == 0xF0).count(), 2);
    }
}
