//! The command line (`clap`). Each subcommand's work lives in `crate::cmd::*`.

use std::io::Write as _;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::cmd;

/// tandem: seats a blind or visually impaired player at a draughts, chess or backgammon
/// table on equal terms (two boards kept in sync, moves announced, the record in braille).
#[derive(Debug, Parser)]
#[command(name = "tandem", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a game at the table: the daemon, the terminal screen, speech and braille.
    Play(Box<cmd::play::Args>),
    /// Talk to a running daemon over its control socket.
    Ctl(cmd::ctl::Args),
    /// Check a game journal.
    Journal(cmd::journal::Args),
    /// Arbiter tools: reconcile two records, compare two positions.
    Arbiter(cmd::arbiter::Args),
    /// Count the leaf nodes of the move tree (move generator check and benchmark).
    Perft(cmd::perft::Args),
    /// List every legal move: backgammon for a Position ID and dice (as gnubg writes them), draughts, chess.
    Moves(cmd::moves::Args),
    /// Check or export PDN game records.
    #[command(subcommand)]
    Pdn(cmd::pdn::PdnCommand),
    /// Time controls: list presets, replay logged clock presses.
    #[command(subcommand)]
    Clock(cmd::clock::ClockCommand),
    /// Print (and optionally speak to a WAV file) the announcement of a move.
    Say(cmd::say::Args),
    /// Understand a spoken move or command, from a WAV file or a transcript.
    Hear(cmd::hear::Args),
    /// Braille views of a position.
    #[command(subcommand)]
    Braille(cmd::braille::BrailleCommand),
    /// The game's record as PDN/PGN, braille (BRF), a PDF scoresheet or audio (WAV).
    Export(cmd::export::Args),
    /// Voice input: `tandem voice check` tests the microphone and recognition.
    #[command(subcommand)]
    Voice(cmd::voice::VoiceCommand),
    /// What `tandem play` with the same options would run, for the arbiter (docs/tournament.md).
    Report(Box<cmd::report::Args>),
    /// The arbiter's desk: every table of an event live through an MQTT broker (docs/hall.md).
    Hall(cmd::hall::Args),
}

/// Parses the command line, runs the command and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(a) => cmd::play::run(*a),
        Command::Ctl(a) => cmd::ctl::run(a),
        Command::Journal(a) => cmd::journal::run(a),
        Command::Arbiter(a) => cmd::arbiter::run(a),
        Command::Perft(args) => cmd::perft::run(args),
        Command::Moves(a) => cmd::moves::run(a),
        Command::Pdn(c) => cmd::pdn::run(c),
        Command::Clock(c) => cmd::clock::run(c),
        Command::Say(a) => cmd::say::run(a),
        Command::Hear(a) => cmd::hear::run(a),
        Command::Braille(c) => cmd::braille::run(c),
        Command::Export(a) => cmd::export::run(a),
        Command::Voice(c) => cmd::voice::run(c),
        Command::Hall(a) => cmd::hall::run(a),
        Command::Report(a) => cmd::report::run(*a),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            if output_closed(&err) {
                return ExitCode::SUCCESS;
            }
            // Not eprintln!: an unwritable stderr must not turn exit 2 into a panic.
            let _ = writeln!(std::io::stderr(), "tandem: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Whether `err` is our own stdout (or stderr) closed by its reader, as
/// `tandem … | head` does: the one failure that is a quiet exit 0.
///
/// A broken pipe anywhere else is a failure like any other: above all the
/// control socket's, when the daemon dies as a request is written (that
/// request may not have been carried out: [`crate::client::NoReply`], exit 2).
/// So the error must be a broken pipe, must not be a request without its
/// reply, and stdout or stderr must really be closed (poll says so).
fn output_closed(err: &anyhow::Error) -> bool {
    let broken_pipe = err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    });
    let no_reply = err
        .chain()
        .any(|e| e.downcast_ref::<crate::client::NoReply>().is_some());
    broken_pipe && !no_reply && (hung_up(&std::io::stdout()) || hung_up(&std::io::stderr()))
}

/// Whether the reader of `fd` (a pipe or a socket) has gone: poll reports
/// an error or a hang-up on it, at once.
fn hung_up(fd: &impl std::os::fd::AsFd) -> bool {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let mut fds = [PollFd::new(fd, PollFlags::OUT)];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    poll(&mut fds, Some(&now)).is_ok()
        && fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP)
}
