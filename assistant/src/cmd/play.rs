//! `tandem play`: runs one game at the table: the session actor, the control
//! socket, speech, braille, and the terminal screen (`--screen`). Typed
//! moves and commands come from the full screen's input line, else as
//! lines from stdin.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use tokio::sync::{broadcast, mpsc};

use crate::config::{BrailleChoice, Config, RawConfig, ScreenChoice, SpeechChoice};
use crate::control::server::{ArbiterSecret, ControlSocket};
use crate::game::GameKind;
use crate::journal::Source;
use crate::messages::Messages;
use crate::session::{Blind, Cmd, Outputs, Session};

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
    /// Speech language: `pl` or `en`.
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
    /// brlapi:HOST), `mic` (an ALSA device, or none), `lang` (pl, en).
    /// Each seat hears the moves and its own answers (docs/seats.md).
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
            speech: self.speech,
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

/// The config of `tandem play` (and `tandem report`): the config file
/// (`--config`, else the default one if it exists) under the flags.
///
/// # Errors
/// The file cannot be read, or the settings are wrong.
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
    let report = super::report::report(&config, None);
    if let Some(why) = super::report::refusal(&config, &report) {
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

/// The device seats' listener (`--seats ADDR`), its pairings, the `Host`
/// names it answers to, and TLS beyond loopback.
struct Devices {
    pairing: std::sync::Arc<crate::devices::Pairing>,
    listener: std::net::TcpListener,
    hosts: Vec<String>,
    tls: Option<crate::devices::tls::Tls>,
    /// Bound to every address: any of the machine's at this port.
    any_port: Option<u16>,
}

fn bind_devices(
    addr: Option<&str>,
    cert: Option<(&std::path::Path, &std::path::Path)>,
) -> anyhow::Result<Option<Devices>> {
    let Some(addr) = addr else { return Ok(None) };
    let listener = std::net::TcpListener::bind(addr)
        .with_context(|| format!("--seats {addr}: cannot listen there"))?;
    let local = listener.local_addr()?;
    listener.set_nonblocking(true)?;
    let port = local.port();
    // The bound address first (the pairing page's address), then loopback's names.
    let mut hosts = Vec::new();
    if !local.ip().is_unspecified() {
        hosts.push(local.to_string());
    }
    for h in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        if !hosts.contains(&h) {
            hosts.push(h);
        }
    }
    // Beyond loopback, TLS with the table's own certificate.
    let tls = if local.ip().is_loopback() {
        None
    } else {
        let mut names = vec!["localhost".to_owned(), "127.0.0.1".to_owned()];
        if !local.ip().is_unspecified() {
            names.push(local.ip().to_string());
        }
        Some(crate::devices::tls::load_or_make(
            cert,
            &crate::devices::tls::default_dir(),
            names,
        )?)
    };
    let scheme = if tls.is_some() { "https" } else { "http" };
    let url = format!("{scheme}://{}/", hosts[0]);
    let mut pairing = crate::devices::Pairing::new(url);
    if let Some(t) = &tls {
        pairing = pairing.with_fingerprint(t.fingerprint.clone());
    }
    Ok(Some(Devices {
        pairing: std::sync::Arc::new(pairing),
        listener,
        hosts,
        tls,
        any_port: local.ip().is_unspecified().then_some(port),
    }))
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

/// Who may act as the arbiter at this table. Without a hall, whoever has
/// the local arbiter's secret, as before. In a hall (`--relay`), only the
/// desk: its signed commands, checked by the relay, which alone knows the
/// token the control socket takes (made here, never written anywhere); the
/// local secret is dropped, and what the table will refuse is said at start.
fn hall_arbiter(
    config: &Config,
    local: Option<ArbiterSecret>,
) -> anyhow::Result<(Option<ArbiterSecret>, Option<String>, Vec<String>)> {
    let Some(relay) = &config.relay else {
        return Ok((local, None, Vec::new()));
    };
    let mut token = [0u8; 32];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut token)
        .map_err(|_| anyhow::anyhow!("no randomness for the relay's token"))?;
    let mut notes = Vec::new();
    if local.is_some() {
        notes.push(
            "the local arbiter's secret is not taken at a table in a hall: takeback and clock \
             set come only as commands signed by the arbiter's desk"
                .to_owned(),
        );
    }
    match &relay.desk_key {
        Some(k) => notes.push(format!(
            "the desk's commands are checked with the desk's key {}",
            k.fingerprint()
        )),
        None => notes.push(
            "no --desk-key: this table refuses every command from the arbiter's desk (pause, \
             resume, say, takeback, clock set) and writes no witness of its journal; give \
             --desk-key desk.pub (made by `tandem hall keygen`)"
                .to_owned(),
        ),
    }
    Ok((None, Some(crate::desk_key::hex(&token)), notes))
}

/// A file-size limit (`ulimit -f`) must make a journal write fail, which the
/// journal survives, not kill the daemon: SIGXFSZ gets a handler (tokio's,
/// which only records it; it stays installed for the life of the process).
fn ignore_sigxfsz() {
    use tokio::signal::unix::{signal, SignalKind};
    let xfsz = rustix::process::Signal::XFSZ.as_raw();
    if let Err(e) = signal(SignalKind::from_raw(xfsz)) {
        tracing::warn!("cannot catch SIGXFSZ: {e}");
    }
}

async fn serve(
    config: Config,
    resume: Option<PathBuf>,
    arbiter: Option<ArbiterSecret>,
) -> anyhow::Result<ExitCode> {
    ignore_sigxfsz();
    let mode = crate::screen::mode(config.screen);
    let headless = mode == crate::screen::Mode::None;
    // Log lines never under the full screen (dropped last: an error that
    // ends tandem is said on the terminal).
    let _quiet = (mode == crate::screen::Mode::Full).then(crate::screen::StderrToLog::start);
    // The socket first: a second daemon on the same table must not touch the journal.
    let devices = bind_devices(
        config.devices.as_deref(),
        config
            .devices_cert
            .as_ref()
            .map(|(c, k)| (c.as_path(), k.as_path())),
    )?;
    let (arbiter, relay_token, hall_notes) = hall_arbiter(&config, arbiter)?;
    // The pairings reach the control socket (`tandem ctl pair`) and the
    // table's own input line (`pair SIDE` typed).
    let device_pairing = devices.as_ref().map(|d| d.pairing.clone());
    let mut socket = ControlSocket::bind(&config.socket)?
        .with_arbiter(arbiter)
        .with_devices(device_pairing.clone());
    if let Some(t) = &relay_token {
        socket = socket.in_hall(ArbiterSecret::new(t)?);
    }
    for note in &hall_notes {
        tracing::warn!("{note}");
        let _ = writeln!(std::io::stderr(), "tandem: {note}");
    }
    let (speech_tx, speech_rx) = mpsc::unbounded_channel();
    let (notices, _) = broadcast::channel(crate::control::EVENT_QUEUE);
    let start = config.setup.start.clone();
    let turn = start.turn();
    // Each player's own channel (`--seat`; docs/seats.md).
    let seat_speaking = super::play_seats::speaking_states(&config);
    let mut seats: Vec<crate::outputs::SeatStarted> = config
        .seats
        .iter()
        .map(|spec| {
            crate::outputs::start_seat(
                spec,
                &config.setup.lang,
                headless,
                start.clone().braille_board(spec.side),
                tandem_braille::StatusInfo::new(turn),
                seat_speaking
                    .iter()
                    .find(|(side, _)| *side == spec.side)
                    .map(|(_, s)| s.clone()),
            )
        })
        .collect();
    let mut braille = crate::outputs::braille(
        config.braille,
        config.brlapi_host.clone(),
        headless,
        start.braille_board(match config.setup.blind {
            crate::session::Blind::Black => tandem_rules::Color::Black,
            _ => tandem_rules::Color::White,
        }),
        tandem_braille::StatusInfo::new(turn),
    );
    let mut out = Outputs::new(
        speech_tx,
        braille.as_ref().map(|b| b.input.clone()),
        notices.clone(),
    );
    out.table_speaks = config.speech != SpeechChoice::None;
    out.seats = seats.iter().map(|s| s.output.clone()).collect();
    // A device is a seat (`--seats`): what each side's seat hears also goes
    // to that side's paired devices.
    let feeds = devices.as_ref().map(|_| {
        [tandem_rules::Color::White, tandem_rules::Color::Black].map(|side| {
            let lang = config
                .seats
                .iter()
                .find(|s| s.side == side)
                .and_then(|s| s.lang.clone());
            let (tx, feed) = crate::devices::web::seat_feed();
            out.seats.push(crate::session::SeatOutput {
                side,
                speech: Some(tx),
                braille: None,
                lang,
            });
            feed
        })
    });
    // `quit` typed, or Ctrl-C on the full screen: the end, as on SIGINT.
    let (quit_tx, mut quit_rx) = mpsc::unbounded_channel::<()>();
    // The prompt's line ended by a typed line (the plain screen).
    let typed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let full_notices = (mode == crate::screen::Mode::Full).then(|| notices.subscribe());
    let plain = (mode == crate::screen::Mode::Plain)
        .then(|| tokio::spawn(crate::screen::run_plain(notices.subscribe(), typed.clone())));
    // `--phrasebook`: the game's phrasebook (`GameKind::read_phrasebook`,
    // the registry). A new
    // game's is read before its journal is created; a resumed game's kind
    // is known from its journal.
    let mut books = match &resume {
        Some(_) => None,
        None => Some(load_books(
            config.phrasebook.as_deref(),
            config.setup.start.kind(),
        )?),
    };
    let mut session = match &resume {
        Some(j) => Session::resume(j, out)?,
        None => Session::start(&config.setup, &config.journal, out)?,
    };
    let books = match books.take() {
        Some(b) => b,
        None => load_books(config.phrasebook.as_deref(), session.table().game.kind())?,
    };
    // The table's report, before the first move (issue 41): a resumed
    // journal's game, this binary.
    let variant = session.table().info.variant.clone();
    session.report(super::report::report(&config, Some(&variant)))?;
    session.set_record_last(config.record_last);
    session.set_in_hall(config.relay.is_some());
    let book = books.table.clone();
    if let Some(b) = &book {
        session.set_phrasebook(b.clone());
    }
    if let Some(b) = &books.own {
        session.set_game_phrasebook(b.as_ref());
    }
    // Voice input: on when libvosk, a model for the game's language (or
    // --voice-model) and the microphone are there; said at start either way.
    // Beside seats of their own, voice input is each seat's microphone
    // (`--seat SIDE:mic=…`), not the table's.
    let mut table_voice = config.voice_input.clone();
    if !config.seats.is_empty() {
        table_voice.switch = crate::voice_start::VoiceSwitch::Off;
    }
    let (voice_config, voice_status) = crate::voice_start::decide(
        &table_voice,
        &session.table().info.lang,
        crate::voice_start::probe_microphone,
    );
    let seat_voices =
        super::play_seats::decide(&config, &mut session, &books, book.as_ref(), &seat_speaking)?;
    // tandem must not hear itself: the speech output marks when it speaks.
    let speaking = voice_config
        .as_ref()
        .map(|_| crate::voice::SpeakingState::default());
    let voice = match &voice_config {
        Some(v) => {
            let (tx, rx) = std::sync::mpsc::channel();
            session.set_voice(crate::voice::VoiceLink::new(tx, v.push_to_talk));
            let lang = session.table().info.lang.clone();
            let draughts_book = book.clone().unwrap_or_else(|| {
                tandem_speech::Phrasebook::builtin(&lang)
                    .unwrap_or_else(tandem_speech::Phrasebook::english)
            });
            let game = &session.table().game;
            let words = game.kind().voice_words(&books, &draughts_book, &lang)?;
            let setup = crate::voice::VoiceSetup {
                config: v.clone(),
                book: draughts_book,
                words,
                ply: game.ply() as u32,
                pos: game.position(),
            };
            Some((setup, rx))
        }
        None => None,
    };
    let lang = match (&book, &books.language) {
        (Some(b), _) => b.language().to_owned(),
        (None, Some(l)) => l.clone(),
        (None, None) => session.table().info.lang.clone(),
    };
    // The game that names a move routed by targets on the braille display.
    let kind = session.table().game.kind();
    let blind_side = match session.table().info.blind.as_str() {
        "white" => Some(tandem_rules::Color::White),
        "black" => Some(tandem_rules::Color::Black),
        _ => None,
    };
    // A blind side's device opens the screen reader's page, a sighted
    // side's the drawn board (docs/devices.md).
    let device_pages = {
        use crate::devices::view::Page;
        let info = &session.table().info.blind;
        let page = |side: &str| match info.as_str() {
            b if b == side || b == "both" => Page::Blind,
            _ => Page::Board,
        };
        [page("white"), page("black")]
    };
    let journal_path = session.view().journal;
    let voice_lang = lang.clone();
    // The device seats' words: a seat's own language, else the table's.
    let device_lang = lang.clone();
    let msgs = Messages::new(
        tandem_speech::Phrasebook::builtin(&lang)
            .unwrap_or_else(tandem_speech::Phrasebook::english),
    );
    let (switched_tx, mut switched_rx) = mpsc::unbounded_channel::<String>();
    let speech = tokio::spawn(crate::outputs::speech_task(
        speech_rx,
        config.speech,
        lang,
        headless,
        msgs.clone(),
        Some(switched_tx),
        speaking.clone(),
    ));
    let (handle, mut actor) = session.spawn();
    if let (Some((setup, rx)), Some(sp)) = (voice, speaking) {
        // Not joined: it may wait on a microphone that is gone; it ends
        // when the session does.
        let to_session = handle.clone();
        crate::voice_thread::spawn(
            setup,
            Box::new(move |heard| to_session.blocking_voice(heard)),
            rx,
            sp,
        )?;
    }
    super::play_seats::start(seat_voices, &handle)?;
    if config.seats.is_empty() {
        // Said once, at start: whether tandem listens, else why not and
        // the one command that fixes it (journaled as a `say` line).
        let _ = writeln!(std::io::stderr(), "tandem: {}", voice_status.detail());
        let text = voice_status.text(&voice_lang);
        let h = handle.clone();
        tokio::spawn(async move {
            let _ = h.request(Cmd::Say(text), Source::Tandem).await;
        });
    }
    if let Some(b) = braille.as_mut() {
        let events = std::mem::replace(&mut b.events, std::sync::mpsc::channel().1);
        let (h, n, m) = (handle.clone(), notices.clone(), msgs.clone());
        std::thread::Builder::new()
            .name("tandem-keys".into())
            .spawn(move || {
                crate::outputs::forward_keys(events, h, n, &m, blind_side, kind, None)
            })?;
    }
    for seat in &mut seats {
        let Some(b) = seat.braille.as_mut() else {
            continue;
        };
        let events = std::mem::replace(&mut b.events, std::sync::mpsc::channel().1);
        let (h, n, m, side) = (
            handle.clone(),
            notices.clone(),
            msgs.clone(),
            seat.output.side,
        );
        std::thread::Builder::new()
            .name(format!("tandem-keys-{side}"))
            .spawn(move || {
                crate::outputs::forward_keys(events, h, n, &m, blind_side, kind, Some(side))
            })?;
    }
    {
        // A speech backend that died: everyone is told at once (and the
        // journal records it), in the new backend's voice.
        let (h, n) = (handle.clone(), notices.clone());
        tokio::spawn(async move {
            while let Some(name) = switched_rx.recv().await {
                let _ = n.send(crate::session::Notice::Device {
                    device: "speech".into(),
                    ok: true,
                    text: format!("speech failed; now through {name}"),
                });
                let text = msgs.text(&crate::messages::Msg::SpeechFallback(name));
                if h.request(Cmd::Say(text), Source::Tandem).await.is_err() {
                    return;
                }
            }
        });
    }
    let where_ = format!(
        "tandem: journal {}, control socket {}",
        journal_path.display(),
        socket.path().display()
    );
    // The hall (docs/hall.md): the relay follows the journal file and the
    // control socket; the game never waits for it.
    let relay = config.relay.clone().zip(relay_token).map(|(r, token)| {
        crate::relay::spawn(r, socket.path().to_owned(), journal_path.clone(), token)
    });
    // The full screen, else typed lines from stdin.
    let mut full = None;
    if let Some(rx) = full_notices {
        let header = format!(
            "tandem · quit or Ctrl-C stops · journal {} · socket {}",
            journal_path.display(),
            socket.path().display()
        );
        match crate::screen::spawn_full(
            rx,
            (handle.clone(), device_pairing.clone()),
            header,
            quit_tx.clone(),
            crate::screen::Look::from_env(config.ascii),
        ) {
            Ok(f) => full = Some(f),
            Err(e) => {
                anyhow::bail!("--screen full: cannot use the terminal ({e}); try --screen plain")
            }
        }
    } else {
        let (h, q, t) = (handle.clone(), quit_tx.clone(), typed.clone());
        let p = device_pairing.clone();
        std::thread::Builder::new()
            .name("tandem-stdin".into())
            .spawn(move || crate::screen::read_stdin(&h, p.as_deref(), &q, &t))?;
        // Not `eprintln!`: it panics when stderr cannot be written (a closed
        // pipe, a full disk, a file-size limit), and a game must not stop for that.
        let _ = writeln!(std::io::stderr(), "{where_}");
    }
    if let (Some(dev), Some(feeds)) = (devices, feeds) {
        let cert = dev
            .tls
            .as_ref()
            .map(|t| format!(", certificate SHA-256 {}", t.fingerprint))
            .unwrap_or_default();
        let _ = writeln!(
            std::io::stderr(),
            "tandem: device seats at {}{cert} (pair one: tandem ctl pair white|black)",
            dev.pairing.url()
        );
        let mut app = crate::devices::web::App::new(dev.pairing, handle.clone(), dev.hosts, feeds)
            .secure(dev.tls.is_some())
            .pages(device_pages)
            .langs(
                [tandem_rules::Color::White, tandem_rules::Color::Black].map(|side| {
                    config
                        .seats
                        .iter()
                        .find(|s| s.side == side)
                        .and_then(|s| s.lang.clone())
                        .unwrap_or_else(|| device_lang.clone())
                }),
            );
        if let Some(port) = dev.any_port {
            app = app.any_address(port);
        }
        let listener = tokio::net::TcpListener::from_std(dev.listener)?;
        tokio::spawn(crate::devices::serve::serve(
            listener,
            crate::devices::web::router(app),
            dev.tls.map(|t| t.acceptor),
        ));
    }
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(socket.serve(handle.clone(), async move {
        let _ = stop_rx.await;
    }));
    // The session actor ends only when told to. If it ever ends by itself (a
    // bug), a daemon that still answers but can no longer play is the worst
    // outcome at the table: exit non-zero instead, so systemd (Restart=on-failure)
    // or the assistant restarts it and the game resumes from the journal.
    tokio::select! {
        () = wait_for_signal() => {}
        _ = quit_rx.recv() => {}
        r = &mut actor => {
            let why = match r {
                Err(e) if e.is_panic() => "it panicked",
                _ => "it ended",
            };
            tracing::error!("the game session stopped unexpectedly ({why}); resume with --resume {}", journal_path.display());
            // Said on stderr too: the log may be a file, and tandem exits.
            let _ = writeln!(std::io::stderr(), "tandem: the game session stopped unexpectedly ({why}); resume with --resume {}", journal_path.display());
            let _ = stop_tx.send(());
            let _ = server.await;
            return Ok(ExitCode::from(3));
        }
    }
    let _ = stop_tx.send(());
    let _ = server.await;
    handle.shutdown().await;
    let _ = actor.await;
    // The journal's last lines (the result) sent before the table stops, for
    // a bounded time; what is left goes on the next start.
    if let Some(r) = relay {
        r.drain(crate::relay::DRAIN).await;
    }
    drop(handle);
    let _ = speech.await;
    if let Some(s) = plain {
        s.abort();
    }
    // The terminal put back.
    drop(full);
    drop(quit_tx);
    if let Some(b) = braille {
        b.shutdown();
    }
    Ok(ExitCode::SUCCESS)
}

/// The phrasebook of `--phrasebook`, read for the game played (none without one).
fn load_books(
    file: Option<&std::path::Path>,
    kind: GameKind,
) -> anyhow::Result<crate::game_book::GameBook> {
    match file {
        Some(p) => kind.read_phrasebook(p),
        None => Ok(crate::game_book::GameBook::default()),
    }
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
