//! What the tables and the desk say to each other through the broker
//! (docs/hall.md): the broker address, the topics, the journal-line and
//! alert messages, and the arbiter's signed commands.
//!
//! ```text
//! tandem/EVENT/table/N/state     retained: the `tandem ctl state` object + players, event, round, seq
//! tandem/EVENT/table/N/journal   QoS 1: {"seq": line number, "hash": SHA-256 of the line, "line": "…"}
//! tandem/EVENT/table/N/alert     QoS 1: {"kind": "mismatch", "text": "…", "seq": line or null, …}
//! tandem/EVENT/table/N/online    retained: true, or false (the broker's last will)
//! tandem/EVENT/table/N/reply     QoS 1: what the table did with a desk command
//! tandem/EVENT/desk/cmd/N        QoS 1: a signed arbiter command for table N (`all`: every table)
//! tandem/EVENT/desk/witness/N    QoS 1: the desk's signature of the head of table N's journal it holds
//! tandem/EVENT/desk/resend/N     QoS 1: {"from": seq}: the desk lacks lines from `from` on
//! ```

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::desk_key::{DeskKey, SigningKey};
use crate::journal::{Event, Record};

/// Where the broker is: `mqtt://[USER[:PASSWORD]@]HOST[:PORT]` (`mqtts://` for TLS).
#[derive(Clone, PartialEq, Eq)]
pub struct BrokerUrl {
    /// The host name or address.
    pub host: String,
    /// The port (1883, or 8883 with TLS, by default).
    pub port: u16,
    /// The user name.
    pub user: Option<String>,
    /// The password.
    pub password: Option<String>,
    /// `mqtts://`.
    pub tls: bool,
}

impl std::fmt::Debug for BrokerUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the password (it would end up in a log).
        write!(f, "{}", self)
    }
}

impl std::fmt::Display for BrokerUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let scheme = if self.tls { "mqtts" } else { "mqtt" };
        match &self.user {
            Some(u) => write!(f, "{scheme}://{u}@{}:{}", self.host, self.port),
            None => write!(f, "{scheme}://{}:{}", self.host, self.port),
        }
    }
}

/// Decodes `%XX` escapes (a password with `@` or `:` in a URL).
fn percent_decode(s: &str) -> anyhow::Result<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| anyhow::anyhow!("a bad %-escape in {s:?}"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| anyhow::anyhow!("{s:?} is not UTF-8 once decoded"))
}

impl std::str::FromStr for BrokerUrl {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> anyhow::Result<BrokerUrl> {
        let bad = |why: &str| {
            anyhow::anyhow!("broker address: {why} (expected mqtt://[USER[:PASSWORD]@]HOST[:PORT] or mqtts://…)")
        };
        let (tls, rest) = if let Some(r) = s.strip_prefix("mqtts://") {
            (true, r)
        } else if let Some(r) = s.strip_prefix("mqtt://") {
            (false, r)
        } else {
            return Err(bad("it must start with mqtt:// or mqtts://"));
        };
        let rest = rest.trim_end_matches('/');
        let (auth, hostport) = match rest.rfind('@') {
            Some(i) => (Some(&rest[..i]), &rest[i + 1..]),
            None => (None, rest),
        };
        let (user, password) = match auth {
            None => (None, None),
            Some(a) => match a.split_once(':') {
                Some((u, p)) => (Some(percent_decode(u)?), Some(percent_decode(p)?)),
                None => (Some(percent_decode(a)?), None),
            },
        };
        if user.as_deref() == Some("") {
            return Err(bad("an empty user name"));
        }
        let (host, port) = match hostport.strip_prefix('[') {
            // [::1]:1883
            Some(v6) => {
                let (h, p) = v6.split_once(']').ok_or_else(|| bad("an unclosed ["))?;
                (h.to_owned(), p.strip_prefix(':'))
            }
            None => match hostport.rsplit_once(':') {
                Some((h, p)) => (h.to_owned(), Some(p)),
                None => (hostport.to_owned(), None),
            },
        };
        if host.is_empty() {
            return Err(bad("no host"));
        }
        let port = match port {
            Some(p) => p.parse().map_err(|_| bad(&format!("bad port {p:?}")))?,
            None if tls => 8883,
            None => 1883,
        };
        Ok(BrokerUrl {
            host,
            port,
            user,
            password,
            tls,
        })
    }
}

/// A name that is safe as one MQTT topic level (no `/`, `+`, `#`, no control characters).
///
/// # Errors
/// The event name would break the topic tree.
pub fn check_level(what: &str, s: &str) -> anyhow::Result<()> {
    anyhow::ensure!(
        !s.is_empty() && s.len() <= 100,
        "{what} must be 1 to 100 characters"
    );
    anyhow::ensure!(
        !s.chars()
            .any(|c| matches!(c, '/' | '+' | '#') || c.is_control()),
        "{what} {s:?} may not contain / + # or control characters (it is a topic level)"
    );
    Ok(())
}

/// The topic prefix of a table: `tandem/EVENT/table/N/`.
#[must_use]
pub fn table_topic(event: &str, table: u32, leaf: &str) -> String {
    format!("tandem/{event}/table/{table}/{leaf}")
}

/// A desk topic: `tandem/EVENT/desk/LEAF`.
#[must_use]
pub fn desk_topic(event: &str, leaf: &str) -> String {
    format!("tandem/{event}/desk/{leaf}")
}

/// What a topic under `tandem/EVENT/table/` names: the table and the leaf.
#[must_use]
pub fn parse_table_topic<'a>(event: &str, topic: &'a str) -> Option<(u32, &'a str)> {
    let rest = topic.strip_prefix("tandem/")?.strip_prefix(event)?;
    let rest = rest.strip_prefix("/table/")?;
    let (n, leaf) = rest.split_once('/')?;
    Some((n.parse().ok()?, leaf))
}

/// One journal line as published.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineMsg {
    /// Its line number (the record's `seq`).
    pub seq: u64,
    /// The SHA-256 of the line (the next line's `prev`).
    pub hash: String,
    /// The line, without its newline, exactly as in the file.
    pub line: String,
    /// The game: the hash of the journal's first line (a new game at the same table has another).
    #[serde(default)]
    pub game: String,
    /// A line of one of the table's earlier journals, left over when the
    /// table stopped (sent at its next start): the desk adds it to that
    /// game's copy, not to the current one, and it is no sign of a second
    /// machine calling itself this table.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub earlier: bool,
}

/// An alert: something the arbiter should see at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alert {
    /// `mismatch`, `behind`, `flag`, `result`, `journal`, `device`, `resumed`, `chain`, `command`,
    /// `build` (a table runs another binary than the others, or its report changed: issue 41).
    pub kind: String,
    /// In words.
    pub text: String,
    /// The journal line it comes from, if any (so a repeat is recognised).
    #[serde(default)]
    pub seq: Option<u64>,
    /// Wall clock (RFC 3339).
    #[serde(default)]
    pub wall: String,
}

/// The alert a journal line raises, if any.
#[must_use]
pub fn alert_of(r: &Record) -> Option<Alert> {
    let (kind, text) = match &r.event {
        Event::Mismatch { diffs, .. } => (
            "mismatch",
            if diffs.is_empty() {
                "The boards differ; the clock is stopped.".to_owned()
            } else {
                format!("The boards differ: {}.", diffs.join("; "))
            },
        ),
        Event::Flag { side, .. } => ("flag", format!("{} flag fell.", side_name(*side))),
        Event::Result { result, .. } => ("result", format!("Result {result}.")),
        Event::JournalDegraded { error, .. } => (
            "journal",
            format!("The journal cannot be written ({error}); the game goes on."),
        ),
        Event::JournalRecovered { flushed } => (
            "journal",
            format!("The journal is written again ({flushed} kept lines written)."),
        ),
        Event::Resumed { lines, .. } => (
            "resumed",
            format!("The table restarted after a stop and resumed its game ({lines} lines)."),
        ),
        Event::Microphone {
            ok: false,
            error,
            seat,
        } => (
            "device",
            format!("{} stopped: {error}.", microphone_of(*seat)),
        ),
        Event::Microphone { ok: true, seat, .. } if r.seq > 2 => {
            ("device", format!("{} works again.", microphone_of(*seat)))
        }
        // tandem's own words about its devices; a seat's `say` is never news.
        Event::Say {
            text, seat: None, ..
        } if is_device_news(text) => ("device", text.clone()),
        Event::Paired { seat, address } => (
            "device",
            format!(
                "A device at {address} paired as {} seat.",
                side_name(*seat).to_lowercase()
            ),
        ),
        Event::Unpaired { seat, address } => (
            "device",
            format!(
                "The device at {address} is {} seat no more.",
                side_name(*seat).to_lowercase()
            ),
        ),
        Event::Pause {
            seat: Some(seat), ..
        } => (
            "arbiter",
            format!(
                "{} seat stopped the clock to call the arbiter.",
                side_name(*seat)
            ),
        ),
        Event::ClockSet { side, .. } => (
            "arbiter",
            format!("The arbiter set {}'s clock.", side_name(*side)),
        ),
        Event::Correction { plies, .. } => {
            ("arbiter", format!("The arbiter took back {plies} plies."))
        }
        _ => return None,
    };
    Some(Alert {
        kind: kind.to_owned(),
        text,
        seq: Some(r.seq),
        wall: r.wall.clone(),
    })
}

/// Whether a `say` line is tandem saying that a device was lost or is back:
/// speech moved to another backend, the braille display gone or working
/// again, in any language with data.
fn is_device_news(text: &str) -> bool {
    use crate::messages::{Messages, Msg};
    static PREFIXES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let prefixes = PREFIXES.get_or_init(|| {
        crate::lang::known()
            .into_iter()
            .filter_map(tandem_speech::Phrasebook::builtin)
            .flat_map(|b| {
                let m = Messages::new(b);
                [
                    Msg::SpeechFallback("\u{1}".into()),
                    Msg::BrailleLost,
                    Msg::BrailleBack,
                ]
                .iter()
                .map(|msg| {
                    let t = m.text(msg);
                    t.split('\u{1}').next().unwrap_or_default().to_owned()
                })
                .collect::<Vec<_>>()
            })
            .filter(|p| !p.is_empty())
            .collect()
    });
    prefixes.iter().any(|p| text.starts_with(p.as_str()))
}

/// "The microphone", or a seat's ("White's microphone") at a table of seats.
fn microphone_of(seat: Option<tandem_rules::Color>) -> String {
    match seat {
        Some(c) => format!("{} microphone", side_name(c)),
        None => "The microphone".to_owned(),
    }
}

fn side_name(c: tandem_rules::Color) -> &'static str {
    match c {
        tandem_rules::Color::White => "White's",
        tandem_rules::Color::Black => "Black's",
    }
}

/// How many plies a board may lag before it is an alert ("far behind").
pub const FAR_BEHIND: u64 = 2;

/// Milliseconds since 1970.
#[must_use]
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// An arbiter's command from the desk, signed with the desk's private key
/// (Ed25519, [`crate::desk_key`]); the tables check it with the public key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedCommand {
    /// The event.
    pub event: String,
    /// The table, or `all`.
    pub table: String,
    /// `start`, `pause`, `resume`, `say`, `takeback`, `clock`.
    pub cmd: String,
    /// Its argument (the words to say; `N why` for `takeback`; `set white|black
    /// SECONDS` for `clock`).
    #[serde(default)]
    pub arg: String,
    /// Strictly increasing per desk (never used twice).
    pub counter: u64,
    /// When it was signed (ms since 1970).
    pub time_ms: u64,
    /// The desk's Ed25519 signature over the fields above (and `game`), 128 hex digits.
    pub sig: String,
    /// The game it is for: the hash of the table's journal's first line (so
    /// it cannot be replayed into the table's next game within its window).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub game: String,
}

/// How far a command's time may be from the table's clock.
pub const COMMAND_WINDOW_MS: u64 = 120_000;

/// The commands a desk may send.
pub const DESK_COMMANDS: [&str; 6] = ["start", "pause", "resume", "say", "takeback", "clock"];

/// The desk's commands that are the arbiter's own acts at the table
/// (`takeback N why`, `clock set SIDE SECONDS`): for one table, never `all`.
pub const ARBITER_COMMANDS: [&str; 2] = ["takeback", "clock"];

fn signed_bytes(c: &SignedCommand) -> Vec<u8> {
    let (counter, time) = (c.counter.to_string(), c.time_ms.to_string());
    crate::desk_key::framed(
        "tandem-hall-command-v2",
        &[
            c.event.as_bytes(),
            c.table.as_bytes(),
            c.cmd.as_bytes(),
            c.arg.as_bytes(),
            counter.as_bytes(),
            time.as_bytes(),
            c.game.as_bytes(),
        ],
    )
}

/// Whether a payload is a command signed the old way (HMAC with the shared
/// arbiter's secret: a `mac` field): the table says what to do about it.
#[must_use]
pub fn is_old_command(payload: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(payload)
        .is_ok_and(|v| v.get("mac").is_some() && v.get("sig").is_none())
}

impl SignedCommand {
    /// A command signed now with the desk's key, for every game of `table`
    /// (tests; the desk binds each command to a game, [`SignedCommand::sign_for`]).
    #[must_use]
    pub fn sign(
        key: &SigningKey,
        event: &str,
        table: &str,
        cmd: &str,
        arg: &str,
        counter: u64,
    ) -> SignedCommand {
        SignedCommand::sign_for(key, event, table, "", cmd, arg, counter)
    }

    /// A command signed now with the desk's key for the game `game` of table `table`.
    #[must_use]
    pub fn sign_for(
        key: &SigningKey,
        event: &str,
        table: &str,
        game: &str,
        cmd: &str,
        arg: &str,
        counter: u64,
    ) -> SignedCommand {
        let mut c = SignedCommand {
            event: event.to_owned(),
            table: table.to_owned(),
            cmd: cmd.to_owned(),
            arg: arg.to_owned(),
            counter,
            time_ms: now_ms(),
            sig: String::new(),
            game: game.to_owned(),
        };
        c.sig = key.sign(&signed_bytes(&c));
        c
    }

    /// Checks the signature, the event and table, the time window and that
    /// `counter` is above `last_counter` (a replay is refused).
    ///
    /// # Errors
    /// Why the command is refused.
    pub fn verify(
        &self,
        key: &DeskKey,
        event: &str,
        table: u32,
        last_counter: u64,
        now_ms: u64,
    ) -> Result<(), String> {
        if !key.verify(&signed_bytes(self), &self.sig) {
            return Err(format!(
                "bad signature (not signed by the desk's key {})",
                key.fingerprint()
            ));
        }
        if self.event != event {
            return Err(format!("for event {:?}, not this one", self.event));
        }
        if self.table != "all" && self.table != table.to_string() {
            return Err(format!("for table {}, not this one", self.table));
        }
        if !DESK_COMMANDS.contains(&self.cmd.as_str()) {
            return Err(format!("unknown command {:?}", self.cmd));
        }
        if ARBITER_COMMANDS.contains(&self.cmd.as_str()) && self.table == "all" {
            return Err(format!("{} is for one table, never all", self.cmd));
        }
        if self.counter <= last_counter {
            return Err(format!(
                "replayed (counter {} not above {last_counter})",
                self.counter
            ));
        }
        if self.time_ms.abs_diff(now_ms) > COMMAND_WINDOW_MS {
            return Err("too old or from the future (check both clocks)".to_owned());
        }
        Ok(())
    }

    /// [`SignedCommand::verify`], and that it is for the game `game` (the
    /// hash of the table's journal's first line): a command signed for one
    /// game is refused in the next.
    ///
    /// # Errors
    /// Why the command is refused.
    pub fn verify_game(
        &self,
        key: &DeskKey,
        event: &str,
        table: u32,
        game: &str,
        last_counter: u64,
        now_ms: u64,
    ) -> Result<(), String> {
        self.verify(key, event, table, last_counter, now_ms)?;
        if self.game != game {
            return Err(if self.game.is_empty() {
                "not bound to this game (sent by an older desk?)".to_owned()
            } else {
                "for another game at this table".to_owned()
            });
        }
        Ok(())
    }
}

/// What a table answers to a desk command (on `…/reply`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandReply {
    /// The command's counter.
    pub counter: u64,
    /// The command.
    pub cmd: String,
    /// Whether the table did it: true only when its daemon answered `ok`.
    pub ok: bool,
    /// Why not, or what the table said.
    pub text: String,
    /// Not `ok` because no answer came (the daemon died or restarted as the
    /// command was sent): it may or may not have been done, the table's
    /// state tells. False when the daemon refused.
    #[serde(default)]
    pub unconfirmed: bool,
}

/// A desk's request to send lines again from `from` on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resend {
    /// The first line it lacks.
    pub from: u64,
    /// The game it lacks them of, when not the table's current one (an
    /// earlier journal's left-over lines).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broker_urls() {
        let u: BrokerUrl = "mqtt://table1:p%40ss@127.0.0.1:18830".parse().unwrap();
        assert_eq!(
            (
                u.user.as_deref(),
                u.password.as_deref(),
                u.host.as_str(),
                u.port,
                u.tls
            ),
            (Some("table1"), Some("p@ss"), "127.0.0.1", 18830, false)
        );
        assert_eq!(format!("{u:?}"), "mqtt://table1@127.0.0.1:18830");
        let u: BrokerUrl = "mqtts://broker.local".parse().unwrap();
        assert_eq!((u.port, u.tls, u.user), (8883, true, None));
        let u: BrokerUrl = "mqtt://[::1]:1884".parse().unwrap();
        assert_eq!((u.host.as_str(), u.port), ("::1", 1884));
        for bad in ["http://x", "mqtt://", "mqtt://h:port", "mqtt://:pw@h"] {
            assert!(bad.parse::<BrokerUrl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn alerts_of_journal_lines() {
        let rec = |event| Record {
            seq: 9,
            wall: "w".into(),
            t_ms: 0,
            prev: String::new(),
            event,
        };
        // What tandem itself says (no seat, no source).
        let said = |text: &str| {
            rec(Event::Say {
                text: text.into(),
                seat: None,
                source: None,
            })
        };
        // A switch of speech, a display lost or back.
        for text in [
            "Speech switched to espeak-ng.",
            "Mowa przełączona na espeak-ng.",
            "The braille display is not answering. Play goes on.",
            "Monitor brajlowski znów działa.",
        ] {
            assert_eq!(alert_of(&said(text)).unwrap().kind, "device", "{text}");
        }
        assert!(alert_of(&said("Five minutes left.")).is_none());
        // A seat's words are never tandem's news about its devices.
        assert!(alert_of(&rec(Event::Say {
            text: "Speech switched to espeak-ng.".into(),
            seat: Some(tandem_rules::Color::Black),
            source: Some(crate::journal::Source::Device),
        }))
        .is_none());
        // A device paired or unpaired, a seat calling the arbiter: the desk sees it.
        let a = alert_of(&rec(Event::Paired {
            seat: tandem_rules::Color::White,
            address: "10.0.0.7:5123".into(),
        }))
        .unwrap();
        assert_eq!(
            (a.kind.as_str(), a.text.as_str()),
            (
                "device",
                "A device at 10.0.0.7:5123 paired as white's seat."
            )
        );
        let a = alert_of(&rec(Event::Unpaired {
            seat: tandem_rules::Color::White,
            address: "10.0.0.7:5123".into(),
        }))
        .unwrap();
        assert_eq!(a.kind, "device");
        let a = alert_of(&rec(Event::Pause {
            reason: "device".into(),
            source: Some(crate::journal::Source::Device),
            seat: Some(tandem_rules::Color::Black),
        }))
        .unwrap();
        assert_eq!(
            (a.kind.as_str(), a.text.as_str()),
            (
                "arbiter",
                "Black's seat stopped the clock to call the arbiter."
            )
        );
        assert!(alert_of(&rec(Event::Pause {
            reason: "control".into(),
            source: Some(crate::journal::Source::Control),
            seat: None,
        }))
        .is_none());
        let a = alert_of(&rec(Event::Flag {
            side: tandem_rules::Color::Black,
            at_ms: 5,
        }))
        .unwrap();
        assert_eq!((a.kind.as_str(), a.seq), ("flag", Some(9)));
        assert!(alert_of(&rec(Event::Tick)).is_none());
    }

    #[test]
    fn topics() {
        assert_eq!(table_topic("EV", 3, "state"), "tandem/EV/table/3/state");
        assert_eq!(
            parse_table_topic("EV", "tandem/EV/table/3/journal"),
            Some((3, "journal"))
        );
        assert_eq!(parse_table_topic("EV", "tandem/EVX/table/3/journal"), None);
        assert!(check_level("--event", "Open 2026").is_ok());
        assert!(check_level("--event", "a/b").is_err());
    }

    #[test]
    fn signed_commands_verify_once() {
        let dir = tempfile::tempdir().unwrap();
        let (private, public) = crate::desk_key::keygen(dir.path()).unwrap();
        let (k, pk) = (
            SigningKey::load(&private).unwrap(),
            DeskKey::load(&public).unwrap(),
        );
        let other_dir = tempfile::tempdir().unwrap();
        let (other, _) = crate::desk_key::keygen(other_dir.path()).unwrap();
        let other = SigningKey::load(&other).unwrap().public();
        let c = SignedCommand::sign(&k, "EV", "4", "say", "Time.", 10);
        let now = c.time_ms;
        assert_eq!(c.verify(&pk, "EV", 4, 9, now), Ok(()));
        assert!(c
            .verify(&pk, "EV", 4, 10, now)
            .unwrap_err()
            .contains("replayed"));
        assert!(c
            .verify(&other, "EV", 4, 0, now)
            .unwrap_err()
            .contains("signature"));
        assert!(c
            .verify(&pk, "EV", 5, 0, now)
            .unwrap_err()
            .contains("table"));
        assert!(c.verify(&pk, "EV", 4, 0, now + 600_000).is_err());
        let mut forged = c.clone();
        forged.arg = "Other words.".into();
        assert!(forged.verify(&pk, "EV", 4, 0, now).is_err());
        let all = SignedCommand::sign(&k, "EV", "all", "start", "", 1);
        assert_eq!(all.verify(&pk, "EV", 17, 0, all.time_ms), Ok(()));
        let all_back = SignedCommand::sign(&k, "EV", "all", "takeback", "1", 2);
        assert!(all_back.verify(&pk, "EV", 17, 0, all.time_ms).is_err());
        // Bound to a game: refused in another one, and the game is signed.
        let g = SignedCommand::sign_for(&k, "EV", "4", "aa11", "pause", "", 3);
        assert_eq!(g.verify_game(&pk, "EV", 4, "aa11", 0, g.time_ms), Ok(()));
        assert!(g
            .verify_game(&pk, "EV", 4, "bb22", 0, g.time_ms)
            .unwrap_err()
            .contains("another game"));
        let mut moved = g.clone();
        moved.game = "bb22".into();
        assert!(moved
            .verify_game(&pk, "EV", 4, "bb22", 0, g.time_ms)
            .unwrap_err()
            .contains("signature"));
        assert!(all
            .verify_game(&pk, "EV", 4, "aa11", 0, all.time_ms)
            .is_err());
        assert!(is_old_command(br#"{"event":"EV","mac":"00"}"#));
        assert!(!is_old_command(&serde_json::to_vec(&g).unwrap()));
    }
}
