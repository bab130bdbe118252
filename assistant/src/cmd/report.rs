//! `tandem report [the options of tandem play…] [--json] [--pdf FILE]`:
//! what `tandem play` with the same options and config file would run,
//! without starting it (issue 41; docs/tournament.md). Also the rated
//! game's checks `tandem play --rated` makes before it starts.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::config::{BrailleChoice, Config, SpeechChoice};
use crate::radios::{Radio, RadioKind};
use crate::report::{Allow, Report};
use crate::seat::{SeatBraille, SeatSpeech};

/// Arguments of `tandem report`: those of `tandem play`, and how to print.
#[derive(Debug, clap::Args)]
#[group(id = "report")]
pub struct Args {
    #[command(flatten)]
    pub play: super::play::Args,
    /// One JSON object (the fields of docs/tournament.md).
    #[arg(long)]
    pub json: bool,
    /// One page for the arbiter to sign, with the binary's hash as text
    /// and as a QR code.
    #[arg(long, value_name = "FILE")]
    pub pdf: Option<PathBuf>,
}

/// Runs `tandem report`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = super::play::config(&args.play)?;
    let report = report(&config, None);
    if let Some(p) = &args.pdf {
        let bytes = crate::export::report_pdf(&report)?;
        std::fs::write(p, bytes)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))?;
    }
    let mut out = std::io::stdout().lock();
    use std::io::Write as _;
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", report.text())?;
        if let Some(why) = refusal(&config, &report) {
            writeln!(out, "tandem play would refuse to start: {why}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What `tandem play` opens with this config: its inputs, what it listens
/// on, what it connects to. The one place that says it: `tandem report`,
/// the rated checks and the journal's `report` line all read it here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opens {
    /// Of [`crate::report::INPUTS`].
    pub inputs: Vec<String>,
    /// `unix:PATH`, `tcp:ADDR:PORT`.
    pub listens: Vec<String>,
    /// `tcp:HOST:PORT`, `unix:PATH`.
    pub connects: Vec<String>,
}

/// What `tandem play` opens with `config` (see [`Opens`]).
#[must_use]
pub fn opens(config: &Config) -> Opens {
    let mut inputs = vec!["keyboard".to_owned(), "control-socket".to_owned()];
    let voice_on = config.voice_input.switch != crate::voice_start::VoiceSwitch::Off;
    let table_voice = config.seats.is_empty() && voice_on;
    let seat_voice = config.seats.iter().any(|s| s.mic.is_some());
    if table_voice || seat_voice {
        inputs.push("voice".to_owned());
    }
    let table_braille = config.braille != BrailleChoice::None;
    let seat_braille = config.seats.iter().any(|s| s.braille != SeatBraille::None);
    if table_braille || seat_braille {
        inputs.push("braille".to_owned());
    }
    let mut listens = vec![format!("unix:{}", config.socket.display())];
    if let Some(addr) = &config.devices {
        inputs.push("device".to_owned());
        listens.push(format!("tcp:{addr}"));
    }
    let mut connects = Vec::new();
    if let Some(r) = &config.relay {
        connects.push(format!("tcp:{}:{}", r.broker.host, r.broker.port));
    }
    let speechd = matches!(config.speech, SpeechChoice::Auto | SpeechChoice::Speechd)
        || config
            .seats
            .iter()
            .any(|s| matches!(s.speech, SeatSpeech::Auto | SeatSpeech::Speechd));
    if speechd {
        connects.push(speechd_address());
    }
    if matches!(config.braille, BrailleChoice::Auto | BrailleChoice::Brlapi) {
        connects.push(brlapi_address(config.brlapi_host.as_deref()));
    }
    for s in &config.seats {
        if let SeatBraille::Brlapi(h) = &s.braille {
            connects.push(brlapi_address(Some(h)));
        }
    }
    connects.dedup();
    Opens {
        inputs,
        listens,
        connects,
    }
}

/// speech-dispatcher's address: `SPEECHD_ADDRESS`, else its socket in
/// `$XDG_RUNTIME_DIR`.
fn speechd_address() -> String {
    match std::env::var("SPEECHD_ADDRESS") {
        Ok(a) if a.starts_with("unix_socket:") => format!("unix:{}", &a["unix_socket:".len()..]),
        Ok(a) if a.starts_with("inet_socket:") => format!("tcp:{}", &a["inet_socket:".len()..]),
        _ => {
            let dir = std::env::var("XDG_RUNTIME_DIR")
                .unwrap_or_else(|_| format!("/run/user/{}", rustix::process::getuid().as_raw()));
            format!("unix:{dir}/speech-dispatcher/speechd.sock")
        }
    }
}

/// BRLTTY's address for a BrlAPI host (`:N` a local socket, `HOST:N` TCP
/// port 4101+N), else `BRLAPI_HOST`, else `:0`.
fn brlapi_address(host: Option<&str>) -> String {
    let env = std::env::var("BRLAPI_HOST").ok();
    let host = host.or(env.as_deref()).unwrap_or(":0");
    let (name, n) = host.rsplit_once(':').unwrap_or((host, "0"));
    let n: u32 = n.parse().unwrap_or(0);
    if name.is_empty() {
        format!("unix:/var/lib/BrlAPI/{n}")
    } else {
        format!("tcp:{name}:{}", 4101 + n)
    }
}

/// The report of a table with `config`, the radios read under
/// `TANDEM_SYSFS` or `/sys`; `variant` that of a resumed journal (else
/// the config's).
#[must_use]
pub fn report(config: &Config, variant: Option<&str>) -> Report {
    let (version, commit, binary_sha256) = crate::report::binary();
    let o = opens(config);
    let allow: Vec<String> = config.allow.iter().map(|a| a.name().to_owned()).collect();
    let hints = !config.rated || config.allow.contains(&Allow::Hints);
    Report {
        version,
        commit,
        binary_sha256,
        variant: variant
            .unwrap_or(config.setup.start.kind().name())
            .to_owned(),
        rated: config.rated,
        allow,
        inputs: o.inputs,
        listens: o.listens,
        connects: o.connects,
        radios: crate::radios::read(&crate::radios::sysfs_root()),
        engine: false,
        assistance: crate::report::assistance(hints),
        journal_dir: journal_dir(&config.journal),
    }
}

fn journal_dir(journal: &Path) -> String {
    journal
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .display()
        .to_string()
}

/// Why a rated table may not start (`tandem play --rated`, exit 2): a
/// radio up without `--allow radio`, device seats without `--allow devices`.
#[must_use]
pub fn refusal(config: &Config, report: &Report) -> Option<String> {
    if !config.rated {
        return None;
    }
    let up: Vec<&Radio> = crate::radios::up(&report.radios);
    if !up.is_empty() && !config.allow.contains(&Allow::Radio) {
        let names: Vec<String> = up
            .iter()
            .map(|r| {
                let kind = match r.kind {
                    RadioKind::Wifi => "Wi-Fi",
                    RadioKind::Bluetooth => "Bluetooth",
                };
                format!("{kind} {}", r.name)
            })
            .collect();
        return Some(format!(
            "a rated game (FIDE Laws 11.3.2.1) does not start while a radio is up: {} \
             (switch it off, e.g. `rfkill block all`, or give --allow radio if the arbiter approves)",
            names.join(", ")
        ));
    }
    if config.devices.is_some() && !config.allow.contains(&Allow::Devices) {
        return Some(
            "a rated game (FIDE Laws 11.3.2.1) does not serve device seats: --seats opens pages \
             for phones (give --allow devices if the arbiter approves)"
                .to_owned(),
        );
    }
    None
}
