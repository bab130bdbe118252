//! The arbiter's desk (`tandem hall`): subscribes to the event's tables on
//! the broker, keeps a checked copy of every table's journal, and serves the
//! live page, the JSON API, the downloads and the arbiter's signed commands
//! (docs/hall.md).
//!
//! Locks: the desk's mutexes (`tables`, `public`, `alerts`, `replies`,
//! `lag`, `counter`, `witnesses`, `sessions`) are never nested: each is taken, used and
//! released before another is taken (a copy of what is needed is carried
//! over), so no order between them can deadlock the broker loop and the web
//! server (`hall_stress` toggles spectators while everything is read).

pub mod build;
pub mod delay;
pub mod guard;
pub mod heavy;
pub mod login;
pub mod serve;
pub mod store;
pub mod tools;
pub mod view;
pub mod web;
pub mod witness;

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rumqttc::{AsyncClient, Event, Packet, QoS};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{broadcast, mpsc};

use crate::relay::mqtt;
use crate::relay::proto::{self, Alert, BrokerUrl, CommandReply, LineMsg, Resend, SignedCommand};
use store::{TableCopy, Taken};

/// What changed, for the page's live stream.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Update {
    /// A table's view changed.
    Table {
        /// Which.
        table: u32,
    },
    /// An alert at a table.
    Alert {
        /// Which table.
        table: u32,
        /// What.
        alert: Alert,
    },
    /// A table answered a desk command.
    Reply {
        /// Which table.
        table: u32,
        /// Its answer.
        reply: CommandReply,
    },
}

/// Messages the desk sends: topic and payload.
pub type Outbox = mpsc::UnboundedReceiver<(String, Vec<u8>)>;

/// How long a gap may last before it is an alert.
const GAP_ALERT_S: u64 = 10;
/// How often the desk asks a table for the same lines again, at most.
const ASK_AGAIN: Duration = Duration::from_secs(2);

/// Delays from a journal line's time at the table to the desk (for `GET /api/stats`).
#[derive(Debug, Default)]
pub struct LagStats {
    /// The last lags, in ms.
    pub recent: VecDeque<u64>,
    /// Lines taken.
    pub lines: u64,
    /// Messages handled.
    pub messages: u64,
    /// Times a live-stream subscriber fell behind and was sent everything again.
    pub sse_lagged: u64,
}

/// The desk's state, shared by the broker loop and the web server.
pub struct Hall {
    /// The event.
    pub event: String,
    data: PathBuf,
    tables: Mutex<BTreeMap<u32, TableCopy>>,
    /// Changes for the page.
    pub updates: broadcast::Sender<Update>,
    /// The arbiter's login secret (the desk's page; never a table's).
    secret: Option<String>,
    /// The desk's private key: its commands and witnesses are signed with it.
    signing: Option<crate::desk_key::SigningKey>,
    counter: Mutex<u64>,
    /// The public half of `signing`: the witness lines a table's journal
    /// brings back are checked with it.
    witness_key: Option<crate::desk_key::DeskKey>,
    /// When each table's journal is witnessed (`witness.rs`).
    witnesses: Mutex<witness::Cadence>,
    out: mpsc::UnboundedSender<(String, Vec<u8>)>,
    /// The tables' answers to desk commands, newest last.
    pub replies: Mutex<VecDeque<(u32, CommandReply)>>,
    /// Every alert of the hall, newest last (the page's alert list).
    alerts: Mutex<Alerts>,
    /// Line delays.
    pub lag: Mutex<LagStats>,
    /// What the arbiter has made public (the spectators' server shows only these).
    public: Mutex<Public>,
    /// The heavy routes' builds and what they built (`heavy.rs`).
    pub heavy: heavy::Heavy,
    /// The runner of `tandem arbiter` for the pages (`tools.rs`).
    pub tools: tools::Tools,
    /// Itself, for the threads that read copies aside.
    me: std::sync::Weak<Hall>,
    /// Copies aside being read on threads of their own.
    loads: std::sync::atomic::AtomicUsize,
}

/// Copies aside read at once, at most (on threads of their own, never the
/// broker's; the rest wait, and their lines are asked for again).
const LOADS: usize = 2;

/// Alerts the hall's list keeps.
const MAX_ALERTS: usize = 500;
/// Alerts a table may raise at once…
const ALERT_BURST: f64 = 20.0;
/// …and then one every this many seconds.
const ALERT_EVERY_S: f64 = 3.0;

/// A table's allowance of alerts.
struct Bucket {
    tokens: f64,
    at: Instant,
    flooding: bool,
}

/// The hall's alert list and each table's allowance.
#[derive(Default)]
struct Alerts {
    list: VecDeque<(u32, Alert)>,
    buckets: BTreeMap<u32, Bucket>,
}

/// The tables shown to spectators (`DATA/EVENT/public.json`).
#[derive(Debug, Default, Clone, Serialize, serde::Deserialize)]
pub struct Public {
    /// Every table, present and to come.
    pub all: bool,
    /// These tables.
    pub tables: std::collections::BTreeSet<u32>,
}

impl Public {
    /// Whether table `n` is shown.
    #[must_use]
    pub fn shows(&self, n: u32) -> bool {
        self.all || self.tables.contains(&n)
    }
}

/// How many changes the live stream keeps for a subscriber who is behind
/// (`TANDEM_HALL_UPDATES`, default 4096); one further behind is sent
/// everything again, checked as it goes out.
fn updates_capacity() -> usize {
    std::env::var("TANDEM_HALL_UPDATES")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n: &usize| *n > 0)
        .unwrap_or(4096)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Hall {
    /// A desk for `event`, its copies in `data/EVENT/`; reads back what an earlier run kept.
    ///
    /// # Errors
    /// The data folder cannot be made or read.
    pub fn new(
        event: &str,
        data: PathBuf,
        secret: Option<String>,
        signing: Option<crate::desk_key::SigningKey>,
    ) -> anyhow::Result<(Arc<Hall>, Outbox)> {
        let dir = data.join(event);
        std::fs::create_dir_all(&dir)
            .map_err(|e| anyhow::anyhow!("--data: cannot make {}: {e}", dir.display()))?;
        let mut tables = BTreeMap::new();
        // Each table's copies of earlier games (`table-N-GAME….jsonl`) and
        // their bytes, counted once.
        let mut game_files: BTreeMap<u32, (u32, u64)> = BTreeMap::new();
        for entry in std::fs::read_dir(&dir)? {
            let p = entry?.path();
            let Some(name) = p.file_name().and_then(|f| f.to_str()) else {
                continue;
            };
            let Some(rest) = name
                .strip_prefix("table-")
                .and_then(|r| r.strip_suffix(".jsonl"))
            else {
                continue;
            };
            if let Ok(n) = rest.parse::<u32>() {
                tables.insert(n, TableCopy::open(n, &p)?);
            } else if let Some(n) = rest.split('-').next().and_then(|n| n.parse::<u32>().ok()) {
                let bytes = std::fs::metadata(&p).map_or(0, |m| m.len());
                let (k, b) = game_files.entry(n).or_default();
                *k += 1;
                *b += bytes;
            }
        }
        for (n, (k, bytes)) in game_files {
            if let Some(t) = tables.get_mut(&n) {
                t.set_game_files(k);
                t.set_disk_aside(bytes);
            }
        }
        let counter = std::fs::read_to_string(dir.join("desk-counter"))
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0);
        let (out, rx) = mpsc::unbounded_channel();
        let public = std::fs::read(dir.join("public.json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        let mut alerts = Alerts::default();
        for (n, t) in &tables {
            for a in &t.alerts {
                alerts.list.push_back((*n, a.clone()));
            }
        }
        Ok((
            Arc::new_cyclic(|me| Hall {
                event: event.to_owned(),
                data: dir,
                tables: Mutex::new(tables),
                updates: broadcast::channel(updates_capacity()).0,
                secret,
                witness_key: signing.as_ref().map(crate::desk_key::SigningKey::public),
                signing,
                counter: Mutex::new(counter),
                witnesses: Mutex::new(witness::Cadence::from_env()),
                out,
                replies: Mutex::new(VecDeque::new()),
                alerts: Mutex::new(alerts),
                lag: Mutex::new(LagStats::default()),
                public: Mutex::new(public),
                heavy: heavy::Heavy::default(),
                tools: tools::Tools::default(),
                me: me.clone(),
                loads: std::sync::atomic::AtomicUsize::new(0),
            }),
            rx,
        ))
    }

    /// The tables, locked.
    pub fn tables(&self) -> MutexGuard<'_, BTreeMap<u32, TableCopy>> {
        lock(&self.tables)
    }

    fn table_file(&self, n: u32) -> PathBuf {
        self.data.join(format!("table-{n}.jsonl"))
    }

    /// Puts an alert on the hall's list and the page, unless its table has
    /// raised too many lately (then one alert says so, and the rest of its
    /// flood is dropped until it calms down); a full list drops the oldest
    /// alert of the table that holds the most, so a flood from one table
    /// never pushes out another's.
    fn alert(&self, table: u32, alert: Alert) {
        let mut all = lock(&self.alerts);
        let now = Instant::now();
        let bucket = all.buckets.entry(table).or_insert(Bucket {
            tokens: ALERT_BURST,
            at: now,
            flooding: false,
        });
        bucket.tokens = (bucket.tokens
            + now.duration_since(bucket.at).as_secs_f64() / ALERT_EVERY_S)
            .min(ALERT_BURST);
        bucket.at = now;
        let alert = if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            bucket.flooding = false;
            alert
        } else if !bucket.flooding {
            bucket.flooding = true;
            Alert {
                kind: "flood".into(),
                text: format!(
                    "Table {table} raises too many alerts; more of them are dropped for a while."
                ),
                seq: None,
                wall: crate::journal::wall_now(),
            }
        } else {
            return;
        };
        all.list.push_back((table, alert.clone()));
        if all.list.len() > MAX_ALERTS {
            let mut count: BTreeMap<u32, usize> = BTreeMap::new();
            for (t, _) in &all.list {
                *count.entry(*t).or_default() += 1;
            }
            let most = count
                .iter()
                .max_by_key(|(_, c)| **c)
                .map_or(table, |(t, _)| *t);
            if let Some(i) = all.list.iter().position(|(t, _)| *t == most) {
                all.list.remove(i);
            }
        }
        drop(all);
        let _ = self.updates.send(Update::Alert { table, alert });
    }

    /// The hall's alerts, oldest first.
    #[must_use]
    pub fn alert_list(&self) -> Vec<(u32, Alert)> {
        lock(&self.alerts).list.iter().cloned().collect()
    }

    fn ask(&self, table: u32, from: u64, game: Option<String>) {
        let topic = proto::desk_topic(&self.event, &format!("resend/{table}"));
        let payload = serde_json::to_vec(&Resend { from, game }).unwrap_or_default();
        let _ = self.out.send((topic, payload));
    }

    /// A message from the broker. Whatever a table sends, it changes at most
    /// that table's own view and raises alerts under its own number.
    pub fn on_message(&self, topic: &str, payload: &[u8]) {
        let Some((n, leaf)) = proto::parse_table_topic(&self.event, topic) else {
            return;
        };
        let mut got = Got::default();
        {
            let mut tables = self.tables();
            let t = match tables.entry(n) {
                std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::btree_map::Entry::Vacant(e) => {
                    match TableCopy::open(n, &self.table_file(n)) {
                        Ok(t) => e.insert(t),
                        Err(err) => {
                            drop(tables);
                            tracing::error!("hall: table {n}: {err}");
                            self.alert(
                                n,
                                Alert {
                                    kind: "desk".into(),
                                    text: format!(
                                        "The desk cannot open its copy of table {n}: {err}."
                                    ),
                                    seq: None,
                                    wall: crate::journal::wall_now(),
                                },
                            );
                            return;
                        }
                    }
                }
            };
            t.seen = Some(Instant::now());
            let report_from = t.records.len();
            match leaf {
                "journal" => self.on_journal(t, payload, &mut got),
                other => got
                    .raised
                    .extend(on_table_news(t, n, other, payload, &mut got.reply)),
            }
            // The facts follow the lines taken, and the state is held against them.
            got.raised.extend(t.refresh_facts());
            got.load = self.may_load().then(|| t.take_load()).flatten();
            // A report line taken: is this table's build the others'?
            got.raised
                .extend(build::after_lines(&mut tables, n, report_from));
        }
        self.after_message(n, got);
    }

    /// A table's journal lines: taken into its copy, its witnesses checked,
    /// its head offered to witness (`got.head`), a gap asked for again.
    fn on_journal(&self, t: &mut TableCopy, payload: &[u8], got: &mut Got) {
        let Ok(msg) = serde_json::from_slice::<LineMsg>(payload) else {
            got.raised.extend(t.junk(&format!(
                "a journal message that is not one ({} bytes)",
                payload.len()
            )));
            return;
        };
        // A left-over line of an earlier game: its delay is not the desk's.
        let wall = serde_json::from_str::<Value>(&msg.line)
            .ok()
            .filter(|_| !msg.earlier)
            .and_then(|v| v["wall"].as_str().map(str::to_owned));
        let earlier = msg.earlier.then(|| msg.game.clone());
        // Where this message's lines begin (all of them after another game began).
        let before = (t.game().map(str::to_owned), t.records.len());
        let (taken, alerts) = if msg.earlier {
            t.take_earlier(msg)
        } else {
            t.take(msg)
        };
        got.raised = alerts;
        let from = if before.0.as_deref() == t.game() {
            before.1
        } else {
            0
        };
        if let Some(key) = &self.witness_key {
            got.raised.extend(t.check_witnesses(from, key, &self.event));
        }
        let earlier = earlier.filter(|g| t.game() != Some(g.as_str()));
        match taken {
            Taken::Appended(k) => {
                got.lines = k;
                // The current game's head, to witness; at once when a line
                // taken ends the game (its result: the end of every game is
                // witnessed, whatever the period).
                if earlier.is_none() {
                    let ends = t.records[from.min(t.records.len())..]
                        .iter()
                        .any(|r| matches!(r.event, crate::journal::Event::Result { .. }));
                    got.head = t.game().map(str::to_owned).zip(t.head()).map(
                        |(game, (line, hash, is_witness))| {
                            let head = witness::Head {
                                game,
                                line,
                                hash: hash.to_owned(),
                            };
                            (head, is_witness, ends)
                        },
                    );
                }
                got.lag_ms = wall
                    .and_then(|w| humantime::parse_rfc3339(&w).ok())
                    .map(|w| {
                        std::time::SystemTime::now()
                            .duration_since(w)
                            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
                    });
            }
            Taken::Gap(from) => {
                // An earlier game's lines are asked for apart from the current game's.
                let asked = if earlier.is_some() {
                    &mut t.asked_earlier
                } else {
                    &mut t.asked
                };
                if asked.map_or(true, |a| a.elapsed() >= ASK_AGAIN) {
                    *asked = Some(Instant::now());
                    got.ask = Some((from, earlier));
                }
            }
            _ => {}
        }
    }

    /// What a message leaves to do once the tables' lock is let go: the
    /// lag counted, a reply kept, lines asked for, a witness sent, alerts.
    fn after_message(&self, n: u32, got: Got) {
        if let Some((game, file)) = got.load {
            self.load_aside(n, game, file);
        }
        {
            let mut lag = lock(&self.lag);
            lag.messages += 1;
            lag.lines += got.lines;
            if let Some(ms) = got.lag_ms {
                lag.recent.push_back(ms);
                if lag.recent.len() > 100_000 {
                    lag.recent.pop_front();
                }
            }
        }
        if let Some(r) = got.reply {
            let mut replies = lock(&self.replies);
            // Each table keeps its last replies: one table's flood never pushes out another's.
            if replies.iter().filter(|(t, _)| *t == n).count() >= 20 {
                if let Some(i) = replies.iter().position(|(t, _)| *t == n) {
                    replies.remove(i);
                }
            }
            replies.push_back((n, r.clone()));
            if replies.len() > 200 {
                replies.pop_front();
            }
            drop(replies);
            let _ = self.updates.send(Update::Reply { table: n, reply: r });
        }
        if let Some((from, game)) = got.ask {
            self.ask(n, from, game);
        }
        if let Some((h, is_witness, ends)) = got.head.filter(|_| self.signing.is_some()) {
            let now = lock(&self.witnesses).offer(n, h, is_witness, ends, Instant::now());
            if let Some(h) = now {
                self.send_witness(n, h);
            }
        }
        for a in got.raised {
            self.alert(n, a);
        }
        let _ = self.updates.send(Update::Table { table: n });
    }

    /// The arbiter has seen table `n`'s broken chain: its `chain_ok` is true again.
    ///
    /// # Errors
    /// No such table, or its mark on disk cannot be removed.
    pub fn acknowledge(&self, n: u32) -> anyhow::Result<()> {
        let r = match self.tables().get_mut(&n) {
            Some(t) => t.acknowledge().map_err(anyhow::Error::from),
            None => Err(anyhow::anyhow!("no table {n} in this event")),
        };
        r?;
        let _ = self.updates.send(Update::Table { table: n });
        Ok(())
    }

    /// Signs the head `h` of table `n`'s copy and sends it to the table
    /// (`desk/witness/N`), whose relay writes it into its journal.
    fn send_witness(&self, n: u32, h: witness::Head) {
        let Some(key) = &self.signing else { return };
        let mut w = crate::journal::witness::Witness {
            event: self.event.clone(),
            table: n,
            game: h.game,
            line: h.line,
            hash: h.hash,
            sig: String::new(),
        };
        w.sig = key.sign(&w.signed_bytes());
        let topic = proto::desk_topic(&self.event, &format!("witness/{n}"));
        let _ = self
            .out
            .send((topic, serde_json::to_vec(&w).unwrap_or_default()));
    }

    /// Once a second: asks again for lines still missing, and raises an
    /// alert for a gap that lasts; sends the witnesses whose time came.
    pub fn check(&self) {
        if self.signing.is_some() {
            let due = lock(&self.witnesses).due(Instant::now());
            for (n, h) in due {
                self.send_witness(n, h);
            }
        }
        let mut asks = Vec::new();
        let mut loads = Vec::new();
        let mut earlier_asks = Vec::new();
        let mut raised = Vec::new();
        {
            let mut tables = self.tables();
            for (n, t) in tables.iter_mut() {
                if let Some(a) = t.check_gap(GAP_ALERT_S) {
                    raised.push((*n, a));
                }
                if t.lacking() && !t.full() {
                    let since = *t.lacking_since.get_or_insert_with(Instant::now);
                    if since.elapsed() >= Duration::from_millis(1500)
                        && t.asked.map_or(true, |a| a.elapsed() >= ASK_AGAIN)
                    {
                        t.asked = Some(Instant::now());
                        asks.push((*n, t.len() + 1));
                    }
                } else {
                    t.lacking_since = None;
                }
                // An earlier game's left-over lines the table is sending.
                let lacking = t.earlier_lacking();
                if lacking.is_some()
                    && lacking == t.earlier_last
                    && t.asked_earlier.map_or(true, |a| a.elapsed() >= ASK_AGAIN)
                {
                    t.asked_earlier = Some(Instant::now());
                    earlier_asks.extend(lacking.clone().map(|(g, from)| (*n, from, g)));
                }
                t.earlier_last = lacking;
                if self.may_load() {
                    loads.extend(t.take_load().map(|(g, f)| (*n, g, f)));
                }
            }
        }
        for (n, game, file) in loads {
            self.load_aside(n, game, file);
        }
        for (n, from) in asks {
            self.ask(n, from, None);
        }
        for (n, from, game) in earlier_asks {
            self.ask(n, from, Some(game));
        }
        for (n, a) in raised {
            self.alert(n, a);
        }
    }

    /// Whether another copy aside may be read now ([`LOADS`] at once).
    fn may_load(&self) -> bool {
        self.loads.load(std::sync::atomic::Ordering::Relaxed) < LOADS
    }

    /// Reads table `n`'s copy aside of `game` (`file`) on a thread of its
    /// own, the tables unlocked; then keeps it and asks the table for what
    /// the desk lacks of that game.
    fn load_aside(&self, n: u32, game: String, file: PathBuf) {
        use std::sync::atomic::Ordering;
        let Some(hall) = self.me.upgrade() else {
            return;
        };
        self.loads.fetch_add(1, Ordering::Relaxed);
        let spawned = std::thread::Builder::new()
            .name("tandem-hall-aside".into())
            .spawn(move || {
                let copy = TableCopy::open_with(n, &file, false);
                let done = hall
                    .tables()
                    .get_mut(&n)
                    .map(|t| t.loaded(game.clone(), &file, copy));
                hall.loads.fetch_sub(1, Ordering::Relaxed);
                match done {
                    Some(Ok(Some(from))) => hall.ask(n, from, Some(game)),
                    Some(Err(a)) => hall.alert(n, a),
                    _ => {}
                }
            });
        if let Err(e) = spawned {
            tracing::error!("hall: cannot start a thread to read a copy aside: {e}");
            self.loads.fetch_sub(1, Ordering::Relaxed);
            if let Some(t) = self.tables().get_mut(&n) {
                t.loading = false;
            }
        }
    }

    /// After (re)connecting: every known table is asked for what the desk lacks.
    fn ask_all(&self) {
        let asks: Vec<(u32, u64)> = self
            .tables()
            .iter()
            .map(|(n, t)| (*n, t.len() + 1))
            .collect();
        for (n, from) in asks {
            self.ask(n, from, None);
        }
    }

    /// Whether the desk can sign commands (it has its private key).
    #[must_use]
    pub fn can_command(&self) -> bool {
        self.signing.is_some()
    }

    /// The arbiter's secret, for the desk's login page.
    #[must_use]
    pub fn secret_for_login(&self) -> Option<String> {
        self.secret.clone()
    }

    /// Signs and sends an arbiter command to one table or (`None`) every table.
    ///
    /// # Errors
    /// No key, an unknown command, or the counter cannot be kept.
    pub fn command(
        &self,
        table: Option<u32>,
        cmd: &str,
        arg: &str,
    ) -> anyhow::Result<SignedCommand> {
        let key = self.signing.as_ref().ok_or_else(|| {
            anyhow::anyhow!(
                "the desk has no signing key (make one with `tandem hall keygen DIR`, start \
                 tandem hall with --signing-key DIR/desk.key, the tables with --desk-key DIR/desk.pub)"
            )
        })?;
        anyhow::ensure!(
            proto::DESK_COMMANDS.contains(&cmd),
            "unknown command {cmd:?}"
        );
        anyhow::ensure!(
            !proto::ARBITER_COMMANDS.contains(&cmd) || table.is_some(),
            "{cmd} is for one table, never every table"
        );
        anyhow::ensure!(
            cmd != "takeback"
                || arg
                    .split_whitespace()
                    .next()
                    .is_some_and(|n| n.parse::<u32>().is_ok()),
            "takeback needs the number of plies, then why (`2 wrong move`)"
        );
        anyhow::ensure!(
            cmd != "clock" || arg.trim_start().starts_with("set "),
            "clock needs `set white|black SECONDS`"
        );
        anyhow::ensure!(cmd != "say" || !arg.trim().is_empty(), "say what?");
        anyhow::ensure!(arg.len() <= 1000, "the message is too long");
        // Each command is bound to the game the desk has of its table (a
        // command for every table is one per table): never replayed into the next game.
        let targets: Vec<(u32, String)> = {
            let tables = self.tables();
            match table {
                Some(n) => {
                    let game = tables.get(&n).and_then(|t| t.game().map(str::to_owned));
                    vec![(n, game.ok_or_else(|| {
                        anyhow::anyhow!("table {n} has sent no journal line yet: the command cannot name its game")
                    })?)]
                }
                None => tables
                    .iter()
                    .filter_map(|(n, t)| Some((*n, t.game()?.to_owned())))
                    .collect(),
            }
        };
        anyhow::ensure!(!targets.is_empty(), "no table has sent its journal yet");
        let mut first = None;
        for (n, game) in targets {
            let mut counter = lock(&self.counter);
            // Never used twice, even if the file was lost: at least the time in ms.
            let next = (*counter + 1).max(proto::now_ms());
            let path = self.data.join("desk-counter");
            std::fs::write(&path, next.to_string()).map_err(|e| {
                anyhow::anyhow!("cannot keep the command counter in {}: {e}", path.display())
            })?;
            *counter = next;
            drop(counter);
            let target = n.to_string();
            let c =
                SignedCommand::sign_for(key, &self.event, &target, &game, cmd, arg.trim(), next);
            let topic = proto::desk_topic(&self.event, &format!("cmd/{target}"));
            let _ = self.out.send((topic, serde_json::to_vec(&c)?));
            first.get_or_insert(c);
        }
        first.ok_or_else(|| anyhow::anyhow!("no table has sent its journal yet"))
    }

    /// Whether the arbiter has made table `n` public.
    #[must_use]
    pub fn is_public(&self, n: u32) -> bool {
        lock(&self.public).shows(n)
    }

    /// What is public now (a copy: no lock is held once it returns, so a
    /// caller may then lock the tables; see "Locks" at the top).
    #[must_use]
    pub fn public_now(&self) -> Public {
        lock(&self.public).clone()
    }

    /// Shows (or hides) one table, or (`None`) every table, to spectators.
    ///
    /// # Errors
    /// The choice cannot be kept on disk.
    pub fn set_public(&self, table: Option<u32>, on: bool) -> anyhow::Result<()> {
        // The tables first, released before `public` is taken: never one lock
        // held while another is taken.
        let known: Vec<u32> = self.tables().keys().copied().collect();
        let mut p = lock(&self.public);
        match table {
            None => {
                p.all = on;
                if !on {
                    p.tables.clear();
                }
            }
            Some(n) if on => {
                p.tables.insert(n);
            }
            Some(n) => {
                p.tables.remove(&n);
                if p.all {
                    // Every table but this one.
                    p.all = false;
                    p.tables = known.iter().copied().filter(|t| *t != n).collect();
                }
            }
        }
        let bytes = serde_json::to_vec(&*p)?;
        drop(p);
        std::fs::write(self.data.join("public.json"), bytes)?;
        for n in known {
            let _ = self.updates.send(Update::Table { table: n });
        }
        Ok(())
    }

    /// Sends a message as it is (a test's replay of a captured command).
    pub fn send_raw(&self, topic: String, payload: Vec<u8>) {
        let _ = self.out.send((topic, payload));
    }
}

/// Follows the broker for ever: subscribes to the event's tables, feeds
/// their messages to the desk, sends the desk's messages; reconnects.
pub async fn broker_loop(hall: Arc<Hall>, broker: BrokerUrl, mut out: Outbox) {
    let id = mqtt::client_id(
        &broker,
        format!("tandem-{}-desk-{}", hall.event, std::process::id()),
    );
    let mut backoff = Duration::from_millis(200);
    // The largest message taken; a larger one (a broker without
    // `max_packet_size`) is taken once it came, so it can never keep the
    // desk off the broker (docs/hall.md, "The broker").
    let mut max_in = mqtt::MAX_PACKET;
    loop {
        let mut opts = match mqtt::options(&broker, &id) {
            Ok(o) => o,
            Err(e) => {
                tracing::error!("hall: {e:#}");
                return;
            }
        };
        opts.set_max_packet_size(max_in, mqtt::MAX_PACKET);
        let (client, mut el) = AsyncClient::new(opts, 4096);
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        let mut up = false;
        let why = loop {
            tokio::select! {
                ev = el.poll() => match ev {
                    Ok(Event::Incoming(Packet::ConnAck(_))) => {
                        up = true;
                        backoff = Duration::from_millis(200);
                        let topic = format!("tandem/{}/table/+/+", hall.event);
                        if let Err(e) = client.try_subscribe(topic, QoS::AtLeastOnce) {
                            tracing::error!("hall: cannot subscribe: {e}");
                        }
                        hall.ask_all();
                        tracing::info!("hall: connected to {broker}");
                    }
                    Ok(Event::Incoming(Packet::Publish(p))) => hall.on_message(&p.topic, &p.payload),
                    Ok(_) => {}
                    Err(e) => break e,
                },
                Some((topic, payload)) = out.recv(), if up => {
                    if let Err(e) = client.try_publish(topic, QoS::AtLeastOnce, false, payload) {
                        tracing::warn!("hall: cannot send: {e}");
                    }
                }
                _ = tick.tick() => hall.check(),
            }
        };
        if let rumqttc::ConnectionError::MqttState(rumqttc::StateError::Deserialization(
            rumqttc::mqttbytes::Error::PayloadSizeLimitExceeded(len),
        )) = &why
        {
            let len = *len;
            hall.alert(
                0,
                Alert {
                    kind: "broker".into(),
                    text: format!(
                        "A message of {len} bytes came through the broker, over the desk's limit of \
                         {max_in}: set max_packet_size in the broker's settings (docs/hall.md). \
                         The desk takes it this time, to see which table sent it."
                    ),
                    seq: None,
                    wall: crate::journal::wall_now(),
                },
            );
            max_in = max_in.max(len.saturating_add(64).min(mqtt::MAX_EVER));
            backoff = Duration::from_millis(200);
        }
        if mqtt::is_refusal(&why) {
            tracing::error!("hall: the broker {broker} refused the desk: {why}");
            backoff = Duration::from_secs(5);
        } else {
            tracing::warn!("hall: broker {broker}: {why}; trying again");
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}

/// What one broker message leaves to do after the tables' lock
/// ([`Hall::after_message`]).
#[derive(Default)]
struct Got {
    raised: Vec<Alert>,
    /// Lines to ask for again (from, and of which earlier game).
    ask: Option<(u64, Option<String>)>,
    lag_ms: Option<u64>,
    lines: u64,
    reply: Option<CommandReply>,
    /// The head to witness, whether it is a witness line, and whether a
    /// line taken ends the game.
    head: Option<(witness::Head, bool, bool)>,
    load: Option<(String, PathBuf)>,
}

/// A table's message other than journal lines (`state`, `alert`,
/// `online`, `reply`, or junk): the alerts it raises; a reply goes to `reply`.
fn on_table_news(
    t: &mut TableCopy,
    n: u32,
    leaf: &str,
    payload: &[u8],
    reply: &mut Option<CommandReply>,
) -> Vec<Alert> {
    let mut raised = Vec::new();
    match leaf {
        "state" => {
            // One publisher per topic, delivered in order: the last is the newest.
            match serde_json::from_slice::<Value>(payload) {
                Ok(v) if v.is_object() && payload.len() <= store::MAX_LINE => {
                    t.set_state(v);
                }
                _ => raised.extend(t.junk(&format!(
                    "a state that is not a JSON object of at most 256 KiB ({} bytes)",
                    payload.len()
                ))),
            }
        }
        "alert" => {
            // Alerts from journal lines come with the lines; the others
            // (a board far behind, an unhealthy journal) only here.
            match serde_json::from_slice::<Alert>(payload) {
                Ok(a) if a.seq.is_none() => {
                    if t.raise(a) {
                        raised.extend(t.alerts.last().cloned());
                    }
                }
                Ok(_) => {}
                Err(_) => raised.extend(t.junk(&format!(
                    "an alert that is not one ({} bytes)",
                    payload.len()
                ))),
            }
        }
        "online" => {
            let on = payload == b"true";
            if t.online == Some(true) && !on {
                let a = Alert {
                    kind: "offline".into(),
                    text: format!("Table {n} lost its connection to the hall."),
                    seq: None,
                    wall: crate::journal::wall_now(),
                };
                t.raise(a.clone());
                raised.push(a);
            }
            t.online = Some(on);
        }
        "reply" => match serde_json::from_slice::<CommandReply>(payload) {
            Ok(mut r) => {
                r.text = store::cut(&r.text, store::MAX_ALERT_TEXT);
                r.cmd = store::cut(&r.cmd, 32);
                *reply = Some(r);
            }
            Err(_) => raised.extend(t.junk(&format!(
                "a reply that is not one ({} bytes)",
                payload.len()
            ))),
        },
        other => {
            let other = store::cut(other, 40);
            raised.extend(t.junk(&format!("a message on an unknown topic {other:?}")));
        }
    }
    raised
}
