//! A Millennium ChessLink board emulated on a pseudo-terminal, written from
//! the published protocol (Dave Woodfield, "Magic Chessboard Communications
//! Protocol", 25/10/17), not from tandem's reader:
//!
//! - 7 data bits, odd parity: a pseudo-terminal carries 8-bit bytes, so
//!   every byte the board sends has its odd parity in bit 7 (as a 7O1 line
//!   read as 8 bits shows it), and every byte the host sends is checked for
//!   odd parity over its 8 bits and read with bit 7 cleared;
//! - each message ends in the XOR of its characters as two hex digits;
//!   commands with a wrong one are ignored (the board answers nothing);
//! - `S` is answered `s` + 64 piece codes a8 … h8, a7 … h1; `L` (slot time,
//!   81 LED codes) is answered `l`; `X` `x`; `V` `v` + 4 hex digits; `W`
//!   (address, byte) `w` with both; `R` `r` with the address and its byte;
//! - E2ROM address 02 chooses the automatic reports: this board sends its
//!   status on every change when b2-b0 is 000 (its "every scan", of which
//!   only the scans that differ are sent) or 011 … 111, none for 001.
//!
//! The board is plugged in at a symlink (`link`), as `/dev/serial/by-id/…`
//! is: pulling the cable closes the pseudo-terminal; plugging it back makes
//! a new one behind the same link.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};

/// The starting position, a8 … h1.
pub const START: &str = "rnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR";

#[derive(Debug, Default)]
pub struct Shared {
    /// The 64 squares, a8 … h1.
    pub squares: Vec<u8>,
    /// Status reports to send (each a whole message).
    outbox: Vec<String>,
    /// The host's commands, as received (checked).
    pub commands: Vec<String>,
    /// The LED codes of the last `L` (`None`: all out).
    pub leds: Option<Vec<u8>>,
    /// The E2ROM.
    pub e2rom: Vec<u8>,
    /// Host bytes whose 8 bits did not have odd parity.
    pub bad_parity: usize,
    /// Host commands with a wrong block parity.
    pub bad_block: usize,
    /// What those commands were.
    pub bad: Vec<String>,
    /// A host spoke on this connection (a command with a right block
    /// parity): before it, the line may still echo what the board sends (a
    /// terminal's default), so the board sends nothing of itself.
    pub host: bool,
}

pub struct Board {
    pub link: PathBuf,
    pub shared: Arc<Mutex<Shared>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

fn xor(s: &str) -> u8 {
    s.bytes().fold(0, |a, b| a ^ b)
}

fn message(body: &str) -> String {
    format!("{body}{:02X}", xor(body))
}

fn odd(b: u8) -> u8 {
    if b.count_ones() % 2 == 0 {
        b | 0x80
    } else {
        b
    }
}

/// The square's index, a8 = 0 … h1 = 63.
pub fn index(square: &str) -> usize {
    let b = square.as_bytes();
    let file = usize::from(b[0] - b'a');
    let rank = usize::from(b[1] - b'0');
    (8 - rank) * 8 + file
}

/// The LED numbers (1 … 81) at a square's corners: LED 1 in the a8 corner,
/// 9 in a1, 73 in h8, 81 in h1 (the document), so nine a column from the a
/// side, each column from the 8th rank's edge to the 1st's.
pub fn corners(square: &str) -> Vec<usize> {
    let b = square.as_bytes();
    let file = usize::from(b[0] - b'a');
    let rank = usize::from(b[1] - b'0');
    let mut v = Vec::new();
    for col in [file, file + 1] {
        for row in [8 - rank, 9 - rank] {
            v.push(col * 9 + row + 1);
        }
    }
    v.sort_unstable();
    v
}

impl Board {
    /// A board showing `squares`, plugged in at `link`.
    pub fn plug_in(link: &Path, squares: &str) -> Board {
        let shared = Arc::new(Mutex::new(Shared {
            squares: squares.as_bytes().to_vec(),
            e2rom: vec![0; 256],
            ..Shared::default()
        }));
        let mut b = Board {
            link: link.to_owned(),
            shared,
            stop: Arc::new(AtomicBool::new(false)),
            thread: None,
        };
        b.plug();
        b
    }

    /// The cable plugged (back) in: a new pseudo-terminal behind the link.
    pub fn plug(&mut self) {
        // Close-on-exec: a daemon started later must not hold the board's end
        // (the cable could never be pulled).
        let master =
            openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC).unwrap();
        grantpt(&master).unwrap();
        unlockpt(&master).unwrap();
        let name = ptsname(&master, Vec::new()).unwrap();
        let slave = PathBuf::from(name.to_str().unwrap());
        let _ = std::fs::remove_file(&self.link);
        std::os::unix::fs::symlink(&slave, &self.link).unwrap();
        self.stop = Arc::new(AtomicBool::new(false));
        self.shared.lock().unwrap().host = false;
        let (stop, shared) = (self.stop.clone(), self.shared.clone());
        self.thread = Some(std::thread::spawn(move || serve(&master, &shared, &stop)));
    }

    /// The cable pulled out: the pseudo-terminal closed.
    pub fn pull(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }

    /// A hand at work: each step (`-e2` lifts the piece on e2, `+e4P` puts
    /// a white pawn on e4) changes the squares and, with automatic reports
    /// on, makes a status report; the reports of one call go out together
    /// (the positions between are seen only in passing).
    pub fn hand(&self, steps: &[&str]) {
        let mut s = self.shared.lock().unwrap();
        for step in steps {
            let sq = index(&step[1..3]);
            s.squares[sq] = match step.as_bytes()[0] {
                b'-' => b'.',
                b'+' => step.as_bytes()[3],
                other => panic!("a step is -SQ or +SQP, not {}", char::from(other)),
            };
            if s.host && matches!(s.e2rom[2] & 0b111, 0b000 | 0b011..=0b111) {
                let status = message(&format!("s{}", String::from_utf8_lossy(&s.squares)));
                s.outbox.push(status);
            }
        }
    }

    /// A hand at work on the board while its cable is out: no reports.
    pub fn hand_unplugged(&self, steps: &[&str]) {
        let saved = self.shared.lock().unwrap().e2rom[2];
        self.shared.lock().unwrap().e2rom[2] = 0b001;
        self.hand(steps);
        self.shared.lock().unwrap().e2rom[2] = saved;
    }

    /// Waits (20 s at most) until a host has spoken on this connection.
    pub fn wait_host(&self) {
        let t0 = Instant::now();
        while !self.shared.lock().unwrap().host {
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "no host opened the board"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The LEDs lit by the last `L` (their numbers, 1 … 81), none after `X`.
    pub fn lit(&self) -> Vec<usize> {
        let s = self.shared.lock().unwrap();
        s.leds
            .as_ref()
            .map(|l| (0..81).filter(|&i| l[i] != 0).map(|i| i + 1).collect())
            .unwrap_or_default()
    }

    /// Waits (20 s at most) until the lit LEDs are those of `squares`.
    pub fn wait_lit(&self, squares: &[&str]) {
        let mut want: Vec<usize> = squares.iter().flat_map(|s| corners(s)).collect();
        want.sort_unstable();
        want.dedup();
        let t0 = Instant::now();
        loop {
            if self.lit() == want {
                return;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "lights {:?}, not {want:?} ({squares:?})",
                self.lit()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        self.pull();
        let _ = std::fs::remove_file(&self.link);
    }
}

/// The length of a host command by its letter (the document's formats).
fn command_len(c: u8) -> Option<usize> {
    Some(match c {
        b'S' | b'X' | b'T' | b'V' => 3,
        b'L' => 1 + 2 + 81 * 2 + 2,
        b'W' => 7,
        b'R' => 5,
        _ => return None,
    })
}

fn answer(s: &mut Shared, cmd: &str) {
    let hex = |a: usize| u8::from_str_radix(&cmd[a..a + 2], 16).unwrap();
    match cmd.as_bytes()[0] {
        b'S' => {
            let status = message(&format!("s{}", String::from_utf8_lossy(&s.squares)));
            s.outbox.push(status);
        }
        b'X' => {
            s.leds = None;
            s.outbox.push(message("x"));
        }
        b'L' => {
            s.leds = Some((0..81).map(|i| hex(3 + 2 * i)).collect());
            s.outbox.push(message("l"));
        }
        b'V' => s.outbox.push(message("v0107")),
        b'W' => {
            let (a, d) = (hex(1), hex(3));
            s.e2rom[usize::from(a)] = d;
            s.outbox.push(message(&format!("w{a:02X}{d:02X}")));
        }
        b'R' => {
            let a = hex(1);
            let d = s.e2rom[usize::from(a)];
            s.outbox.push(message(&format!("r{a:02X}{d:02X}")));
        }
        // `T`: a reset, no answer.
        _ => {}
    }
}

fn serve(master: &OwnedFd, shared: &Mutex<Shared>, stop: &AtomicBool) {
    let mut pending: Vec<u8> = Vec::new();
    let mut buf = [0u8; 4096];
    while !stop.load(Ordering::Relaxed) {
        let mut fds = [PollFd::new(master, PollFlags::IN)];
        let t = Timespec {
            tv_sec: 0,
            tv_nsec: 10_000_000,
        };
        let readable =
            poll(&mut fds, Some(&t)).unwrap_or(0) > 0 && fds[0].revents().contains(PollFlags::IN);
        if readable {
            match rustix::io::read(master, &mut buf) {
                Ok(n) => {
                    let mut s = shared.lock().unwrap();
                    for &b in &buf[..n] {
                        if b.count_ones() % 2 == 0 {
                            s.bad_parity += 1;
                        }
                        pending.push(b & 0x7F);
                    }
                }
                // No host has the line open (yet).
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        } else if fds[0].revents().contains(PollFlags::HUP) {
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut s = shared.lock().unwrap();
        while let Some(&c) = pending.first() {
            let Some(len) = command_len(c) else {
                pending.remove(0);
                continue;
            };
            if pending.len() < len {
                break;
            }
            let cmd = String::from_utf8_lossy(&pending[..len]).into_owned();
            pending.drain(..len);
            let (body, check) = cmd.split_at(len - 2);
            if u8::from_str_radix(check, 16).ok() == Some(xor(body)) {
                s.commands.push(cmd.clone());
                s.host = true;
                answer(&mut s, &cmd);
            } else {
                s.bad_block += 1;
                s.bad.push(cmd);
            }
        }
        if !s.outbox.is_empty() {
            let bytes: Vec<u8> = s.outbox.concat().bytes().map(odd).collect();
            s.outbox.clear();
            drop(s);
            let mut rest = &bytes[..];
            while !rest.is_empty() {
                match rustix::io::write(master, rest) {
                    Ok(n) => rest = &rest[n..],
                    Err(_) => break,
                }
            }
        }
    }
}
