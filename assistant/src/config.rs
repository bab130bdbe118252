//! Configuration: a TOML file in the XDG config dir
//! (`$XDG_CONFIG_HOME/tandem/config.toml`, else `~/.config/tandem/config.toml`)
//! with the same names as `tandem play`'s flags; a flag given on the command
//! line wins. [`RawConfig`] is what the file and the flags say (every field
//! optional, ripgrep's "low args"); [`Config`] is checked and complete.
//!
//! ```toml
//! variant = "international"
//! control = "fmjd-preferred"
//! blind = "white"
//! lang = "pl"
//! speech = "auto"
//! braille = "auto"
//! warnings = ["5m", "1m", "10s"]
//! event = "Polish Championship 2026"
//! # voice input (docs/voice.md): on when a model for `lang` is installed
//! voice = "auto"         # or "off"
//! voice-model = "/home/me/models/vosk-model-small-pl-0.22"
//! confirm = "always"
//! push-to-talk = false
//! # how many move pairs "record" reads
//! record-last = 3
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use serde::Deserialize;
use tandem_rules::clock::TimeControl;

use crate::game::GameKind;
pub use crate::outputs::{BrailleChoice, SpeechChoice};
pub use crate::screen::ScreenChoice;
use crate::session::{Blind, GameSetup, DEFAULT_WARNINGS};

/// What the config file and the flags say, every field optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawConfig {
    pub variant: Option<String>,
    pub fen: Option<String>,
    pub blind: Option<Blind>,
    pub control: Option<String>,
    pub lang: Option<String>,
    pub speech: Option<SpeechChoice>,
    pub braille: Option<BrailleChoice>,
    pub brlapi_host: Option<String>,
    pub voice_model: Option<PathBuf>,
    /// Voice input: `auto` (listen when a model for `lang` is installed) or `off`.
    pub voice: Option<crate::voice_start::VoiceSwitch>,
    /// A phrasebook file for speech and voice input (else the built-in one of `lang`).
    pub phrasebook: Option<PathBuf>,
    /// Voice input: when a spoken move is read back (`always`, `low`, `never`).
    pub confirm: Option<crate::voice::ConfirmChoice>,
    /// Voice input: listen only between two `listen` commands.
    pub push_to_talk: Option<bool>,
    /// Voice input: the microphone's device name.
    pub mic: Option<String>,
    pub socket: Option<PathBuf>,
    pub journal: Option<PathBuf>,
    pub journal_dir: Option<PathBuf>,
    pub event: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
    pub warnings: Option<Vec<String>>,
    pub headless: Option<bool>,
    pub screen: Option<ScreenChoice>,
    /// The full screen in ASCII only (`--ascii`: pieces by their codes).
    pub ascii: Option<bool>,
    pub draws_with_advantage: Option<bool>,
    /// The hall's broker (`mqtt://[USER[:PASSWORD]@]HOST[:PORT]`, docs/hall.md).
    pub relay: Option<String>,
    /// The table's number in the hall.
    pub table: Option<u32>,
    /// The relay's broker password, in a file.
    pub relay_password_file: Option<PathBuf>,
    /// The desk's public key (`desk.pub` from `tandem hall keygen`).
    pub desk_key: Option<PathBuf>,
    /// The round (shown at the desk).
    pub round: Option<String>,
    /// How many move pairs `record` reads (default 3).
    pub record_last: Option<u32>,
    /// Backgammon: the match length (`--match N`).
    #[serde(rename = "match")]
    pub match_length: Option<u32>,
    /// Backgammon: who rolls the dice (`--dice tandem|players`).
    pub dice: Option<DiceChoice>,
    /// Backgammon: whose numbering the opponent's moves are said in.
    pub numbering: Option<tandem_rules::PointNumbering>,
    /// Each player's own channel (`[seat.white]`, `[seat.black]`; `--seat`).
    pub seat: Option<crate::seat::RawSeats>,
    /// Where the device seats' pages are served (`--seats ADDR`).
    pub devices: Option<String>,
    /// Their TLS certificate and key beyond loopback (`--seats-cert`, `--seats-key`).
    pub seats_cert: Option<PathBuf>,
    /// The key.
    pub seats_key: Option<PathBuf>,
    /// A rated game (`--rated`, issue 41): no radio up, no device seats,
    /// refused moves without hints, unless `allow` grants them.
    pub rated: Option<bool>,
    /// What a rated game allows (`--allow radio,devices,hints`).
    pub allow: Option<Vec<crate::report::Allow>>,
}

/// Backgammon: who rolls the dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DiceChoice {
    /// The players roll real dice and enter the roll (004 3.4).
    #[default]
    Players,
    /// tandem rolls from the OS random source.
    Tandem,
}

impl RawConfig {
    /// Reads a config file.
    ///
    /// # Errors
    /// The file cannot be read or is not valid TOML for these fields.
    pub fn from_file(path: &Path) -> anyhow::Result<RawConfig> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("config file {}", path.display()))
    }

    /// The default config file, if it exists.
    #[must_use]
    pub fn default_path() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
        Some(base.join("tandem").join("config.toml"))
    }

    /// `self` with every field that `over` sets replaced (flags over the file).
    #[must_use]
    pub fn overlay(self, over: RawConfig) -> RawConfig {
        macro_rules! pick {
            ($($f:ident),*) => { RawConfig {
                $($f: over.$f.or(self.$f),)*
                seat: crate::seat::RawSeats::overlay(self.seat, over.seat),
            } };
        }
        pick!(
            variant,
            fen,
            blind,
            control,
            lang,
            speech,
            braille,
            brlapi_host,
            voice_model,
            voice,
            phrasebook,
            confirm,
            push_to_talk,
            mic,
            socket,
            journal,
            journal_dir,
            event,
            white,
            black,
            warnings,
            headless,
            screen,
            ascii,
            draws_with_advantage,
            relay,
            table,
            relay_password_file,
            desk_key,
            round,
            record_last,
            match_length,
            dice,
            numbering,
            devices,
            seats_cert,
            seats_key,
            rated,
            allow
        )
    }
}

/// A checked configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// The game to start.
    pub setup: GameSetup,
    /// Speech backend.
    pub speech: SpeechChoice,
    /// Braille backend.
    pub braille: BrailleChoice,
    /// BrlAPI host (`:N`), else `BRLAPI_HOST` or the default.
    pub brlapi_host: Option<String>,
    /// A Vosk model folder for voice input.
    pub voice_model: Option<PathBuf>,
    /// Voice input with the model of `voice_model` (checked at start).
    pub voice: Option<crate::voice::VoiceConfig>,
    /// Voice input as asked for: on or off, the model if given, the settings.
    pub voice_input: crate::voice_start::VoiceRequest,
    /// A phrasebook file for what is said (and heard).
    pub phrasebook: Option<PathBuf>,
    /// The control socket.
    pub socket: PathBuf,
    /// The journal to write.
    pub journal: PathBuf,
    /// No terminal screen (`--screen none`).
    pub headless: bool,
    /// The relay to the hall's broker (`--relay`), if any.
    pub relay: Option<crate::relay::RelaySettings>,
    /// How many move pairs `record` reads (`record-last`).
    pub record_last: u32,
    /// The screen asked for (`none` when headless; `auto` is decided at start).
    pub screen: ScreenChoice,
    /// The full screen in ASCII only (`--ascii`).
    pub ascii: bool,
    /// Each player's own channel (`--seat`), white first; empty: the one
    /// seat of the `--blind` side on the table's outputs.
    pub seats: Vec<crate::seat::SeatSpec>,
    /// Where the device seats' pages are served (`--seats ADDR`); off without.
    pub devices: Option<String>,
    /// Their TLS certificate and key, given (else made at first start).
    pub devices_cert: Option<(PathBuf, PathBuf)>,
    /// A rated game (`--rated`; docs/tournament.md).
    pub rated: bool,
    /// What the rated game allows (`--allow`), sorted, once each.
    pub allow: Vec<crate::report::Allow>,
}

/// A duration such as `5m`, `1m30s`, `10s` (the clock's time syntax).
fn duration(s: &str) -> anyhow::Result<Duration> {
    let tc: TimeControl = s
        .parse()
        .map_err(|e| anyhow::anyhow!("warning {s:?}: {e}"))?;
    Ok(tc.initial_time())
}

fn default_journal_dir() -> PathBuf {
    crate::paths::state_dir().join("journals")
}

impl Config {
    /// Checks a raw config and fills in the defaults.
    ///
    /// # Errors
    /// An unknown variant, a bad FEN, time control or warning, an unknown language.
    pub fn from_raw(raw: RawConfig) -> anyhow::Result<Config> {
        let relay = relay_settings(&raw)?;
        let (rated, allow) = rated(&raw)?;
        let kind: GameKind = raw.variant.as_deref().unwrap_or("international").parse()?;
        let start = kind
            .position(raw.fen.as_deref())
            .map_err(|e| anyhow::anyhow!("--fen: {e}"))?;
        // The default control is the game's (games/<game>/options.rs).
        let match_length = raw.match_length.unwrap_or(7);
        anyhow::ensure!(
            (1..=64).contains(&match_length),
            "--match {match_length}: a match is 1 to 64 points"
        );
        let default_control = kind.default_control(match_length);
        let control_text = raw.control.as_deref().unwrap_or(&default_control);
        // A new match of the length asked for, in a game played in matches.
        let start = start.for_match(match_length);
        let control =
            TimeControl::lookup(control_text).map_err(|e| anyhow::anyhow!("--control: {e}"))?;
        let options = kind.options(&crate::table_options::Asked {
            match_length,
            tandem_dice: raw.dice == Some(DiceChoice::Tandem),
            listener: match raw.blind {
                Some(Blind::Black) => tandem_rules::Color::Black,
                _ => tandem_rules::Color::White,
            },
            draws_with_advantage: raw.draws_with_advantage.unwrap_or(false),
            numbering: raw.numbering.unwrap_or_default(),
            control: &control,
        });
        let lang = raw.lang.unwrap_or_else(|| "pl".into());
        // `--headless` is `--screen none`.
        let screen = match raw.headless {
            Some(true) => ScreenChoice::None,
            _ => raw.screen.unwrap_or_default(),
        };
        crate::lang::check(&lang).map_err(|e| anyhow::anyhow!("--lang {lang:?}: {e}"))?;
        let warnings = match &raw.warnings {
            Some(w) => w
                .iter()
                .map(|s| duration(s))
                .collect::<anyhow::Result<Vec<_>>>()?,
            None => DEFAULT_WARNINGS.to_vec(),
        };
        let journal = journal_path(raw.journal, raw.journal_dir);
        let seats = match &raw.seat {
            Some(s) => s.specs().map_err(|e| anyhow::anyhow!("--seat: {e}"))?,
            None => Vec::new(),
        };
        // Beside seats of their own, the table's loudspeaker and display
        // are off unless asked for: each player's words are their own.
        let table_on = seats.is_empty();
        Ok(Config {
            relay,
            setup: GameSetup {
                start,
                control,
                warnings,
                white: raw.white,
                black: raw.black,
                event: raw.event,
                round: raw.round.clone(),
                blind: raw.blind.unwrap_or_default(),
                lang,
                options,
            },
            speech: raw.speech.unwrap_or(if table_on {
                SpeechChoice::Auto
            } else {
                SpeechChoice::None
            }),
            braille: raw.braille.unwrap_or(if table_on {
                BrailleChoice::Auto
            } else {
                BrailleChoice::None
            }),
            brlapi_host: raw.brlapi_host,
            voice: raw
                .voice_model
                .clone()
                .map(|model| crate::voice::VoiceConfig {
                    model,
                    phrasebook: raw.phrasebook.clone(),
                    confirm: raw.confirm.unwrap_or_default(),
                    push_to_talk: raw.push_to_talk.unwrap_or(false),
                    mic: raw.mic.clone(),
                }),
            voice_input: crate::voice_start::VoiceRequest {
                switch: raw.voice.unwrap_or_default(),
                model: raw.voice_model.clone(),
                phrasebook: raw.phrasebook.clone(),
                confirm: raw.confirm.unwrap_or_default(),
                push_to_talk: raw.push_to_talk.unwrap_or(false),
                mic: raw.mic.clone(),
            },
            voice_model: raw.voice_model,
            phrasebook: raw.phrasebook,
            socket: raw
                .socket
                .unwrap_or_else(crate::control::default_socket_path),
            journal,
            headless: screen == ScreenChoice::None,
            screen,
            ascii: raw.ascii.unwrap_or(false),
            record_last: raw
                .record_last
                .unwrap_or(crate::session::DEFAULT_RECORD_LAST)
                .max(1),
            seats,
            devices: raw.devices,
            devices_cert: raw.seats_cert.zip(raw.seats_key),
            rated,
            allow,
        })
    }
}

/// `--journal FILE`, else a new file named for this moment in
/// `--journal-dir` (the state folder's `journals` by default).
fn journal_path(journal: Option<PathBuf>, dir: Option<PathBuf>) -> PathBuf {
    journal.unwrap_or_else(|| {
        let stamp = crate::journal::wall_now().replace([':', '.'], "-");
        dir.unwrap_or_else(default_journal_dir)
            .join(format!("game-{stamp}.jsonl"))
    })
}

/// `--rated` and what `--allow` grants it (sorted, once each), checked.
fn rated(raw: &RawConfig) -> anyhow::Result<(bool, Vec<crate::report::Allow>)> {
    let mut allow = raw.allow.clone().unwrap_or_default();
    anyhow::ensure!(
        raw.rated == Some(true) || allow.is_empty(),
        "--allow is for a rated game: give --rated too"
    );
    allow.sort();
    allow.dedup();
    Ok((raw.rated.unwrap_or(false), allow))
}

/// `--relay URL --event EV --table N` (with `--relay-password-file`), checked.
fn relay_settings(raw: &RawConfig) -> anyhow::Result<Option<crate::relay::RelaySettings>> {
    let Some(url) = &raw.relay else {
        anyhow::ensure!(
            raw.desk_key.is_none(),
            "--desk-key is for a table in a hall: give --relay (and --event, --table) too"
        );
        return Ok(None);
    };
    let mut broker: crate::relay::proto::BrokerUrl =
        url.parse().map_err(|e| anyhow::anyhow!("--relay: {e}"))?;
    let event = raw
        .event
        .clone()
        .ok_or_else(|| anyhow::anyhow!("--relay needs --event EVENT (the hall's event name)"))?;
    crate::relay::proto::check_level("--event", &event)?;
    let table = raw
        .table
        .ok_or_else(|| anyhow::anyhow!("--relay needs --table N (this table's number)"))?;
    if let Some(f) = &raw.relay_password_file {
        anyhow::ensure!(
            broker.password.is_none(),
            "--relay-password-file: the --relay address has a password already"
        );
        broker.password = Some(crate::relay::mqtt::password_from_file(f)?);
    }
    Ok(Some(crate::relay::RelaySettings {
        broker,
        event,
        table,
        round: raw.round.clone(),
        desk_key: raw
            .desk_key
            .as_deref()
            .map(crate::desk_key::DeskKey::load)
            .transpose()
            .map_err(|e| anyhow::anyhow!("--desk-key: {e:#}"))?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_win_over_the_file_and_defaults_fill_the_rest() {
        let file: RawConfig = toml::from_str("control = \"fmjd-basic\"\nlang = \"en\"\nwarnings = [\"2m\", \"30s\"]\nblind = \"black\"\n").unwrap();
        let flags = RawConfig {
            lang: Some("pl".into()),
            journal: Some("/tmp/x.jsonl".into()),
            ..RawConfig::default()
        };
        let c = Config::from_raw(file.overlay(flags)).unwrap();
        assert_eq!(c.setup.lang, "pl");
        assert_eq!(c.setup.control.to_string(), "80m+1m");
        assert_eq!(
            c.setup.warnings,
            [Duration::from_secs(120), Duration::from_secs(30)]
        );
        assert_eq!(c.setup.blind, Blind::Black);
        assert_eq!(c.speech, SpeechChoice::Auto);
        assert_eq!(c.record_last, 3, "record-last defaults to three pairs");
        let file: RawConfig = toml::from_str("record-last = 5\n").unwrap();
        let five = RawConfig {
            journal: Some("/tmp/x.jsonl".into()),
            ..file
        };
        assert_eq!(Config::from_raw(five).unwrap().record_last, 5);
        assert_eq!(
            c.voice_input.switch,
            crate::voice_start::VoiceSwitch::Auto,
            "voice input is on by default"
        );
        // The start of international draughts, by its name in the registry.
        let international: crate::game::GameKind = "international".parse().unwrap();
        assert_eq!(c.setup.start, international.position(None).unwrap());
    }

    #[test]
    fn the_relay_from_the_config_file() {
        let dir = tempfile::tempdir().unwrap();
        let pw = dir.path().join("pw");
        std::fs::write(&pw, "s3cret\n").unwrap();
        let text = format!(
            "event = \"Open 2026\"\nrelay = \"mqtts://table7@desk.hall\"\ntable = 7\nround = \"3\"\nrelay-password-file = {:?}\n",
            pw.display().to_string()
        );
        let raw: RawConfig = toml::from_str(&text).unwrap();
        let r = Config::from_raw(raw).unwrap().relay.unwrap();
        assert_eq!(
            (r.table, r.event.as_str(), r.round.as_deref()),
            (7, "Open 2026", Some("3"))
        );
        assert_eq!((r.broker.port, r.broker.tls), (8883, true));
        assert_eq!(r.broker.user.as_deref(), Some("table7"));
        assert_eq!(r.broker.password.as_deref(), Some("s3cret"));
        let no_table = RawConfig {
            relay: Some("mqtt://h".into()),
            event: Some("E".into()),
            ..RawConfig::default()
        };
        assert!(Config::from_raw(no_table)
            .unwrap_err()
            .to_string()
            .contains("--table"));
        let bad_event = RawConfig {
            relay: Some("mqtt://h".into()),
            event: Some("a/b".into()),
            table: Some(1),
            ..RawConfig::default()
        };
        assert!(Config::from_raw(bad_event)
            .unwrap_err()
            .to_string()
            .contains("topic level"));
    }

    #[test]
    fn the_screen_comes_from_the_file_or_the_flag_and_headless_is_none() {
        let screen = |file: &str, flags: RawConfig| {
            let file: RawConfig = toml::from_str(file).unwrap();
            Config::from_raw(file.overlay(flags)).unwrap()
        };
        let c = screen("", RawConfig::default());
        assert_eq!((c.screen, c.headless), (ScreenChoice::Auto, false));
        let c = screen("screen = \"plain\"", RawConfig::default());
        assert_eq!((c.screen, c.headless), (ScreenChoice::Plain, false));
        let flag = RawConfig {
            screen: Some(ScreenChoice::Full),
            ..RawConfig::default()
        };
        assert_eq!(
            screen("screen = \"plain\"", flag).screen,
            ScreenChoice::Full
        );
        let c = screen("screen = \"none\"", RawConfig::default());
        assert_eq!((c.screen, c.headless), (ScreenChoice::None, true));
        let headless = RawConfig {
            headless: Some(true),
            ..RawConfig::default()
        };
        let c = screen("screen = \"full\"", headless);
        assert_eq!((c.screen, c.headless), (ScreenChoice::None, true));
        assert!(toml::from_str::<RawConfig>("screen = \"fancy\"").is_err());
    }

    #[test]
    fn bad_values_are_named() {
        let bad = |raw: RawConfig| Config::from_raw(raw).unwrap_err().to_string();
        assert!(bad(RawConfig {
            control: Some("90x".into()),
            ..RawConfig::default()
        })
        .contains("--control"));
        assert!(bad(RawConfig {
            lang: Some("xx".into()),
            ..RawConfig::default()
        })
        .contains("--lang \"xx\": unknown language \"xx\": tandem speaks "));
        assert!(toml::from_str::<RawConfig>("colour = \"red\"").is_err());
        assert!(toml::from_str::<RawConfig>("voice = \"loud\"").is_err());
        // `voice = "off"` in the file; a flag would win.
        let file: RawConfig = toml::from_str("voice = \"off\"").unwrap();
        let c = Config::from_raw(file.clone().overlay(RawConfig::default())).unwrap();
        assert_eq!(c.voice_input.switch, crate::voice_start::VoiceSwitch::Off);
        let flags = RawConfig {
            voice: Some(crate::voice_start::VoiceSwitch::Auto),
            ..RawConfig::default()
        };
        let c = Config::from_raw(file.overlay(flags)).unwrap();
        assert_eq!(c.voice_input.switch, crate::voice_start::VoiceSwitch::Auto);
    }

    #[test]
    fn a_backgammon_match_takes_its_length_dice_numbering_and_eubgf_control() {
        let file: RawConfig =
            toml::from_str("variant = \"backgammon\"\nmatch = 5\ndice = \"tandem\"\nnumbering = \"both\"\nblind = \"black\"\n")
                .unwrap();
        let c = Config::from_raw(file.overlay(RawConfig::default())).unwrap();
        assert_eq!(
            c.setup.control,
            TimeControl::lookup("eubgf-5").unwrap(),
            "the EUBGF control of the match length by default"
        );
        let o = c.setup.options;
        assert_eq!(o.match_length, 5);
        assert!(o.tandem_dice);
        assert_eq!(o.numbering, tandem_rules::PointNumbering::Both);
        assert_eq!(o.listener, Some(tandem_rules::Color::Black));
        let delay = c.setup.control.bonus().unwrap().amount.as_secs();
        assert_eq!(u64::from(o.delay_secs), delay);
        assert!(c.setup.start.to_fen().starts_with("4HPwATDgc/ABMA:"));
        // Draughts keeps its options as they were (the journal's start line too).
        let d = Config::from_raw(RawConfig::default()).unwrap();
        assert_eq!(d.setup.options, tandem_rules::GameOptions::default());
        let bad = |raw: RawConfig| Config::from_raw(raw).unwrap_err().to_string();
        assert!(bad(RawConfig {
            variant: Some("backgammon".into()),
            match_length: Some(0),
            ..RawConfig::default()
        })
        .contains("--match 0"));
    }

    #[test]
    fn each_game_names_its_default_control() {
        let control = |variant: &str| {
            Config::from_raw(RawConfig {
                variant: Some(variant.into()),
                ..RawConfig::default()
            })
            .unwrap()
            .setup
            .control
        };
        // 002 art. 6.1 (docs/chess.md); the Polish federation's 90 minutes.
        assert_eq!(control("chess"), TimeControl::lookup("90m+30s").unwrap());
        assert_eq!(
            control("international"),
            TimeControl::lookup("pzwarc-90").unwrap()
        );
        assert_eq!(
            control("sixty-four"),
            TimeControl::lookup("pzwarc-90").unwrap()
        );
        assert_eq!(
            control("backgammon"),
            TimeControl::lookup("eubgf-7").unwrap()
        );
    }
}
