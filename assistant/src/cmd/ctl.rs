//! `tandem ctl [--socket PATH] CMD [ARG…]`: one request to a running daemon.
//!
//! Prints what tandem said in answer (one line each), or the state as JSON
//! for `state`, or the whole reply with `--json`. Exits 1 when the daemon
//! refuses (an illegal move, an unknown command: the reason goes to stderr),
//! 2 when it cannot be reached or the connection fails or closes before the
//! reply (the daemon died or was restarted: the request may not have been
//! carried out, and the message says to check with `tandem ctl state`).
//! Exit 0 means the daemon answered `ok` and the change is on disk in the
//! journal (written and `fsync`ed), nothing else: once its reply is in, the
//! exit status is its verdict even if stdout cannot be written. Exit 3: the
//! request was carried out (the move is played and was announced) but is not
//! yet safe on disk, because the journal file cannot be written (a full disk,
//! a file-size limit); stderr says so, where the line is kept, and what to do.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;

use crate::client::Client;
use crate::control::default_socket_path;

/// Arguments of `tandem ctl`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The daemon's control socket (default `$XDG_RUNTIME_DIR/tandem/tandem.sock`).
    #[arg(long)]
    pub socket: Option<PathBuf>,
    /// Print the daemon's whole reply as JSON.
    #[arg(long)]
    pub json: bool,
    /// Ask as this seat (white or black): the answer goes to that seat's
    /// own outputs only, and a move is taken only for its side on its
    /// turn (exit 1 otherwise). Without it: the table's own channel.
    #[arg(long, value_parser = crate::seat::side_of)]
    pub seat: Option<tandem_rules::Color>,
    /// The command: move M, done [white|black], clock, position, last, state,
    /// missing [white|black], mismatch [FEN], pause, resume,
    /// draw offer|accept|decline|claim, resign [white|black], say TEXT, help, events;
    /// ask QUERY (a question about the board: kings, knights, file e, row 5, point 8…; docs/ask.md);
    /// backgammon: roll A B (or roll with --dice tandem), reroll, double, take, pass, pips;
    /// pair white|black (a code for a device to become that seat, `tandem play --seats`),
    /// unpair white|black, devices (each seat's paired devices: address, since when);
    /// repeat (what this seat last heard).
    #[arg(required = true, num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<String>,
}

/// Runs `tandem ctl`.
pub fn run(mut args: Args) -> anyhow::Result<ExitCode> {
    // `tandem ctl pair white --json`, `tandem ctl devices --json`: the flag after the command is the
    // flag (exact contract, docs/devices.md), not a word of the command.
    if args.command.len() > 1 && args.command.last().is_some_and(|w| w == "--json") {
        args.command.pop();
        args.json = true;
    }
    let path = args.socket.unwrap_or_else(default_socket_path);
    let mut client = Client::connect(&path)?;
    let (cmd, rest) = args
        .command
        .split_first()
        .map(|(c, r)| (c.as_str(), r.join(" ")))
        .unwrap_or(("", String::new()));
    let mut out = std::io::stdout().lock();
    if cmd == "events" {
        // Follow the event stream until the daemon goes away.
        client.subscribe()?;
        loop {
            let v = client.next_line()?;
            writeln!(out, "{v}")?;
            out.flush()?;
        }
    }
    let arg = (!rest.is_empty()).then_some(rest.as_str());
    let reply = client.request_as(cmd, arg, args.seat)?;
    let ok = reply["ok"] == true;
    if let Err(e) = print_reply(&mut out, cmd, &reply, args.json) {
        // A reader that left (`| head`) is nobody's concern; anything else is said.
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = writeln!(
                std::io::stderr(),
                "tandem ctl: {cmd}: the reply cannot be printed: {e}"
            );
        }
    }
    if ok && reply["unsaved"].is_object() {
        // Not eprintln!: a closed stderr must not turn exit 3 into a panic.
        let _ = writeln!(
            std::io::stderr(),
            "tandem ctl: {cmd}: {}",
            crate::client::unsaved_text(&reply["unsaved"])
        );
        Ok(ExitCode::from(crate::client::UNSAVED))
    } else if ok {
        Ok(ExitCode::SUCCESS)
    } else {
        let why = reply["error"].as_str().unwrap_or("refused");
        // Not eprintln!: a closed stderr must not turn exit 1 into a panic.
        let _ = writeln!(std::io::stderr(), "tandem ctl: {cmd}: {why}");
        Ok(ExitCode::from(1))
    }
}

/// Prints a reply: all of it with `--json`, the state for `state`, else what tandem said.
fn print_reply(out: &mut impl Write, cmd: &str, reply: &Value, json: bool) -> std::io::Result<()> {
    if json && cmd == "pair" && reply["pair"].is_object() {
        // Exact (docs/devices.md): {"code": "NNNNNN", "url": "http://…", "expires_ms": N}
        writeln!(out, "{}", reply["pair"])?;
    } else if json && cmd == "devices" && reply["devices"].is_object() {
        // Exact (docs/devices.md): {"white": [{"seat", "address", "since"}…], "black": […]}
        writeln!(out, "{}", reply["devices"])?;
    } else if json {
        writeln!(out, "{reply}")?;
    } else if cmd == "state" && reply["ok"] == true {
        let text = serde_json::to_string_pretty(&reply["state"]).map_err(std::io::Error::other)?;
        writeln!(out, "{text}")?;
    } else {
        for s in reply["said"].as_array().into_iter().flatten() {
            writeln!(out, "{}", s.as_str().unwrap_or_default())?;
        }
    }
    out.flush()
}
