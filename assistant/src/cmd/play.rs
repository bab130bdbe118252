//! `tandem play`: runs one game at the table: the session actor, the control
//! socket, speech, braille, and the terminal screen (`--screen`). Typed
//! moves and commands come from the full screen's input line, else as
//! lines from stdin.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::config::{BrailleChoice, Config, RawConfig, ScreenChoice, SpeechChoice};
use crate::control::server::ArbiterSecret;
use crate::session::Blind;
use anyhow::Context;

/// Arguments of `tandem play` (each also settable in the config file).
#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// `international` (10x10, the default), `sixty-four`, `chess` (FIDE annex E) or
    /// `backgammon` (EUBGF; a match, `--match N`).
    #[arg(long)]
    pub variant: Option<String>,
    /// Start from this position (PDN FEN, `W:W31,32:B1,2`; chess FEN for chess).
    #[arg(long)]
    pub fen: Option<String>,
    /// Who is blind or visually impaired.
    #[arg(long, value_enum)]
    pub blind: Option<Blind>,
    /// Time control: a preset name (`tandem clock presets`) or a written spec (`90m/45,30m+30s@46`).
    #[arg(long)]
    pub control: Option<String>,
    /// Speech language: any with data, `pl`, `en`, `nl`, `fr`, `de`, `es`,
    /// `ru`, `uk` (docs/languages.md); another is refused with the list.
    #[arg(long)]
    pub lang: Option<String>,
    /// Speech backend.
    #[arg(long, value_enum)]
    pub speech: Option<SpeechChoice>,
    /// Braille backend.
    #[arg(long, value_enum)]
    pub braille: Option<BrailleChoice>,
    /// BrlAPI host (`:N`); default `BRLAPI_HOST` or BRLTTY's default.
    #[arg(long)]
    pub brlapi_host: Option<String>,
    /// Voice input: `auto` listens when libvosk, a model for `--lang` and a
    /// microphone are there (`scripts/setup.sh --voice pl` installs the model);
    /// `off` never listens. What tandem found is said at start.
    #[arg(long, value_enum)]
    pub voice: Option<crate::voice_start::VoiceSwitch>,
    /// The Vosk model folder for voice input, instead of the one installed for
    /// `--lang` (docs/voice.md).
    #[arg(long)]
    pub voice_model: Option<PathBuf>,
    /// A phrasebook file: what tandem says and the words it listens for.
    #[arg(long)]
    pub phrasebook: Option<PathBuf>,
    /// Voice input: read spoken moves back and wait for "yes" always, only
    /// when heard with low confidence, or never (resigning and draws always).
    #[arg(long, value_enum)]
    pub confirm: Option<crate::voice::ConfirmChoice>,
    /// Voice input: listen only between two `listen` commands (typed, or `tandem ctl listen`).
    #[arg(long)]
    pub push_to_talk: bool,
    /// Voice input: the microphone's device name (`arecord -L`); default: the system's.
    #[arg(long)]
    pub mic: Option<String>,
    /// Control socket (default `$XDG_RUNTIME_DIR/tandem/tandem.sock`).
    #[arg(long)]
    pub socket: Option<PathBuf>,
    /// The journal to write (default `$XDG_STATE_HOME/tandem/journals/game-<time>.jsonl`).
    #[arg(long)]
    pub journal: Option<PathBuf>,
    /// Resume the game of this journal after a crash (clock stopped).
    #[arg(long, conflicts_with_all = ["journal", "fen", "variant", "control"])]
    pub resume: Option<PathBuf>,
    /// The event's name (PDN `Event`).
    #[arg(long)]
    pub event: Option<String>,
    /// White's name.
    #[arg(long)]
    pub white: Option<String>,
    /// Black's name.
    #[arg(long)]
    pub black: Option<String>,
    /// Warning thresholds, e.g. `--warnings 5m,1m,10s`.
    #[arg(long, value_delimiter = ',')]
    pub warnings: Option<Vec<String>>,
    /// No terminal screen: speech and braille as text lines on stdout
    /// (the same as `--screen none`).
    #[arg(long)]
    pub headless: bool,
    /// How many move pairs `record` reads (default 3).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub record_last: Option<u32>,
    /// The terminal screen: `full` (board, clocks, moves, alerts, an input
    /// line), `plain` (one line per thing said or changed, for a screen
    /// reader), `none`, or `auto`: full on a terminal, plain otherwise.
    #[arg(long, value_enum)]
    pub screen: Option<ScreenChoice>,
    /// The full screen for a terminal without the board's glyphs: pieces
    /// written by their codes (`w` `b` `W` `B`, FEN letters), ASCII only.
    #[arg(long)]
    pub ascii: bool,
    /// A config file instead of `$XDG_CONFIG_HOME/tandem/config.toml`.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The arbiter's secret, in a file (else `TANDEM_ARBITER_SECRET`): control
    /// requests carrying it may set a clock or take moves back. Without one,
    /// arbiter actions are refused.
    #[arg(long)]
    pub arbiter_secret_file: Option<PathBuf>,
    /// Where log lines go: a file, or `-` for stderr (default
    /// `$XDG_STATE_HOME/tandem/tandem.log`, or stderr when `TANDEM_LOG` is set).
    #[arg(long, value_name = "FILE|-")]
    pub log: Option<PathBuf>,
    /// Relay the table to the hall's broker (docs/hall.md):
    /// `mqtt://[USER[:PASSWORD]@]HOST[:PORT]`, or `mqtts://…` for TLS. Needs `--event` and `--table`.
    #[arg(long, value_name = "URL")]
    pub relay: Option<String>,
    /// This table's number in the hall (with `--relay`).
    #[arg(long)]
    pub table: Option<u32>,
    /// The relay's broker password, in a file (instead of in the `--relay` address).
    #[arg(long)]
    pub relay_password_file: Option<PathBuf>,
    /// The desk's public key (`desk.pub`, made by `tandem hall keygen`), with
    /// `--relay`: the desk's signed commands (and its witnesses of the
    /// journal) are checked with it. Without it the table refuses them all.
    #[arg(long, value_name = "FILE")]
    pub desk_key: Option<PathBuf>,
    /// The round, shown at the hall's desk.
    #[arg(long)]
    pub round: Option<String>,
    /// Backgammon: the match length in points (default 7; the clock `eubgf-N`).
    #[arg(long = "match", value_name = "N")]
    pub match_length: Option<u32>,
    /// Backgammon: who rolls the dice: the players (entered with `roll 3 1`) or tandem.
    #[arg(long, value_enum)]
    pub dice: Option<crate::config::DiceChoice>,
    /// Backgammon: the opponent's moves said in the listener's point numbers,
    /// the mover's, or both (`listener`, `mover`, `both`).
    #[arg(long)]
    pub numbering: Option<tandem_rules::PointNumbering>,
    /// A player's own channel, repeatable: `SIDE:KEY=VALUE[,KEY=VALUE…]`,
    /// SIDE `white` or `black`; keys `speech` (auto, speechd, espeak, text,
    /// none, left, right, alsa:DEVICE), `braille` (none, terminal,
    /// brlapi:HOST), `mic` (an ALSA device, or none), `lang` (pl, en, nl, fr, de, es, ru, uk: any language with data),
    /// `board` (chesslink:PATH, the seat's e-board on a serial device;
    /// docs/eboards.md). Each seat hears the moves and its own answers
    /// (docs/seats.md).
    #[arg(long = "seat", value_name = "SIDE:KEY=VALUE,…")]
    pub seats: Vec<String>,
    /// Serve the device seats' pages at ADDR (`127.0.0.1:PORT`): a phone
    /// or laptop paired with `tandem ctl pair SIDE` becomes that side's seat
    /// (docs/devices.md). Off unless given; beyond loopback over TLS.
    #[arg(long = "seats", value_name = "ADDR")]
    pub devices: Option<String>,
    /// The device pages' TLS certificate (PEM), beyond loopback; without
    /// it the table makes its own at first start (docs/devices.md).
    #[arg(long = "seats-cert", value_name = "FILE", requires = "devices_key")]
    pub devices_cert: Option<PathBuf>,
    /// The certificate's key (PEM).
    #[arg(long = "seats-key", value_name = "FILE", requires = "devices_cert")]
    pub devices_key: Option<PathBuf>,
    /// A rated game (FIDE Laws 11.3.2.1; docs/tournament.md): refuses to
    /// start while a Wi-Fi or Bluetooth radio is up, refuses `--seats`, and
    /// a refused move names the rule, never the pieces that could move.
    #[arg(long)]
    pub rated: bool,
    /// What a rated game allows: `radio`, `devices`, `hints` (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub allow: Vec<crate::report::Allow>,
}

impl Args {
    fn raw(&self) -> anyhow::Result<RawConfig> {
        let seat = crate::seat::RawSeats::from_flags(&self.seats)
            .map_err(|e| anyhow::anyhow!("--seat: {e}"))?;
        Ok(RawConfig {
            variant: self.variant.clone(),
            fen: self.fen.clone(),
            blind: self.blind,
            control: self.control.clone(),
            lang: self.lang.clone(),
            speech: self.speech.clone(),
            braille: self.braille,
            brlapi_host: self.brlapi_host.clone(),
            voice_model: self.voice_model.clone(),
            voice: self.voice,
            phrasebook: self.phrasebook.clone(),
            confirm: self.confirm,
            push_to_talk: self.push_to_talk.then_some(true),
            mic: self.mic.clone(),
            socket: self.socket.clone(),
            journal: self.journal.clone(),
            journal_dir: None,
            event: self.event.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            warnings: self.warnings.clone(),
            headless: self.headless.then_some(true),
            screen: self.screen,
            ascii: self.ascii.then_some(true),
            draws_with_advantage: None,
            relay: self.relay.clone(),
            table: self.table,
            relay_password_file: self.relay_password_file.clone(),
            desk_key: self.desk_key.clone(),
            round: self.round.clone(),
            match_length: self.match_length,
            dice: self.dice,
            numbering: self.numbering,
            record_last: self.record_last,
            seat,
            devices: self.devices.clone(),
            seats_cert: self.devices_cert.clone(),
            seats_key: self.devices_key.clone(),
            rated: self.rated.then_some(true),
            allow: (!self.allow.is_empty()).then(|| self.allow.clone()),
        })
    }
}

/// The config `tandem play` with these arguments runs: the config file
/// (`--config`, else the default one if there is one) under the flags,
/// checked. What the table opens is `table::opens` of it.
///
/// # Errors
/// The file does not read, or a value is wrong.
pub fn config(args: &Args) -> anyhow::Result<Config> {
    let file = match &args.config {
        Some(p) => RawConfig::from_file(p)?,
        None => match RawConfig::default_path().filter(|p| p.exists()) {
            Some(p) => RawConfig::from_file(&p)?,
            None => RawConfig::default(),
        },
    };
    Config::from_raw(file.overlay(args.raw()?))
}

/// Runs `tandem play`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Log lines never onto the screen: a file unless asked for on stderr.
    crate::logging::init(args.log.as_deref());
    let config = config(&args)?;
    // A rated game (issue 41): no radio up, no device seats, unless allowed.
    let report = crate::table::report(&config, None);
    if let Some(why) = crate::table::refusal(&config, &report) {
        anyhow::bail!("{why}");
    }
    let arbiter = arbiter_secret(args.arbiter_secret_file.as_deref())?;
    if let Some(v) = config
        .voice
        .as_ref()
        .filter(|_| config.voice_input.switch != crate::voice_start::VoiceSwitch::Off)
    {
        // A wrong --voice-model is a typo to fix now, not a game without
        // voice. The phrasebook is checked where it is loaded (a draughts or
        // a chess one, as the game is).
        v.check_model()?;
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    rt.block_on(serve(config, args.resume, arbiter))
}

/// The arbiter's secret from `--arbiter-secret-file` or `TANDEM_ARBITER_SECRET`.
fn arbiter_secret(file: Option<&std::path::Path>) -> anyhow::Result<Option<ArbiterSecret>> {
    let text = match file {
        Some(f) => Some(
            std::fs::read_to_string(f)
                .with_context(|| format!("cannot read the arbiter secret {}", f.display()))?,
        ),
        None => std::env::var("TANDEM_ARBITER_SECRET").ok(),
    };
    text.map(|t| ArbiterSecret::new(&t)).transpose()
}

/// `tandem play`: the config, the list of parts, run (`table`).
async fn serve(
    config: Config,
    resume: Option<PathBuf>,
    arbiter: Option<ArbiterSecret>,
) -> anyhow::Result<ExitCode> {
    crate::table::run(config, resume, arbiter, wait_for_signal()).await
}

/// Waits for SIGTERM or SIGINT (Ctrl-C).
pub(crate) async fn wait_for_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        // No signal handling: run until killed.
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {},
        _ = int.recv() => {},
    }
}
