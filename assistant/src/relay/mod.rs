//! The relay at a table (`tandem play --relay mqtt://… --event EV --table N`):
//! publishes the table's journal, state and alerts to the hall's broker,
//! carries out the arbiter's commands from the desk once their signature
//! checks with the desk's public key (`--desk-key`), and has the desk's
//! witnesses of the journal written into it (docs/hall.md).
//!
//! It stands beside the session, not in it: it follows the journal FILE as
//! it is written (the journal is the source of truth, synced before anything
//! is announced) and the control socket's events, as `tandem ctl events`
//! does, and it acts through the control socket like `tandem ctl`. The game
//! never waits for it: a broker that is down only delays the relay.
//!
//! It never reads the file on a timer: the session's journal writer tells it
//! each time lines reach the file ([`crate::session::SessionHandle::journal_written`]),
//! and it reads the file then. Nothing else writes that journal while the
//! table runs (`tandem ctl`, the desk's commands and witnesses all go through
//! the session; a restart is a new relay that reads the file from line 1), so
//! no safety net watches the file (docs/hall.md, "What wakes the relay").
//!
//! Lines are published in order with QoS 1 from the line after the last one
//! the broker acknowledged (remembered next to the journal), so a broker
//! restart, an outage or the table's own crash loses nothing; a line sent
//! twice carries its number and hash, and the desk drops the copy. What is
//! left of the table's earlier journals (a game that ended with the broker
//! down) is sent at the next start, after the new game's lines
//! ([`earlier`]).

pub mod bridge;
pub mod earlier;
pub mod mqtt;
pub mod proto;
pub mod tail;

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::time::Duration;

use rumqttc::{AsyncClient, Event, LastWill, Outgoing, Packet, QoS};
use serde_json::{json, Value};
use tokio::sync::{mpsc, watch};

use proto::{Alert, BrokerUrl, CommandReply, Resend, SignedCommand};
use tail::{Cursor, Tail};

/// A table's relay settings (flags or the config file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelaySettings {
    /// The broker, with the table's user name and password.
    pub broker: BrokerUrl,
    /// The event (a topic level).
    pub event: String,
    /// The table's number.
    pub table: u32,
    /// The round, if given.
    pub round: Option<String>,
    /// The desk's public key (`--desk-key`): the desk's commands and
    /// witnesses are checked with it; without it both are refused.
    pub desk_key: Option<crate::desk_key::DeskKey>,
}

/// Lines published and not yet acknowledged, at most.
const WINDOW: u64 = 64;
/// How often the last state is published again: the desk's "seen" time
/// (`seen_ms_ago`), by which the arbiter tells a table that is there from one
/// gone quiet (a protocol need, not a poll: the relay's only timer besides
/// the MQTT keep-alive).
const HEARTBEAT: Duration = Duration::from_secs(5);
/// The cursor is saved (synced) at most this often.
const SAVE_EVERY: Duration = Duration::from_millis(500);

/// The relay running at a table: stopped with [`RelayTask::drain`].
pub struct RelayTask {
    task: tokio::task::JoinHandle<()>,
    stop: watch::Sender<Option<tokio::time::Instant>>,
}

impl RelayTask {
    /// Stops the relay once every journal line written is acknowledged by
    /// the broker, or after `within` (what is left goes on the next start:
    /// the cursor says where it stopped).
    pub async fn drain(mut self, within: Duration) {
        let _ = self.stop.send(Some(tokio::time::Instant::now() + within));
        let grace = within + Duration::from_millis(500);
        if tokio::time::timeout(grace, &mut self.task).await.is_err() {
            self.task.abort();
        }
    }
}

/// How long `tandem play` waits at its stop for the relay to send the last lines.
pub const DRAIN: Duration = Duration::from_secs(3);

/// The table whose journal the relay follows: its control socket, its
/// journal file, and the session's word that lines reached that file.
pub struct Followed {
    /// The control socket.
    pub socket: PathBuf,
    /// The journal file.
    pub journal: PathBuf,
    /// Changed each time the session writes lines to the journal
    /// ([`crate::session::SessionHandle::journal_written`]).
    pub written: watch::Receiver<u64>,
}

/// Starts the relay for the table whose control socket and journal these are.
/// `token` is the secret the control socket takes for the arbiter's acts
/// ([`crate::control::server::ControlSocket::in_hall`]): the relay sends it
/// only with a desk command whose signature it checked.
pub fn spawn(settings: RelaySettings, table: Followed, token: String) -> RelayTask {
    let (tx, rx) = mpsc::unbounded_channel();
    bridge::follow(table.socket.clone(), tx);
    let (stop, stop_rx) = watch::channel(None);
    let task = tokio::spawn(async move {
        let mut relay = Relay::new(settings, table.socket, &table.journal, token);
        relay.run(rx, table.written, stop_rx).await;
    });
    RelayTask { task, stop }
}

/// A journal line as sent: which journal (0 the current one, else an
/// earlier one's id) and its number.
type Sent = (u32, u64);

/// What has been sent on the current connection and is not acknowledged.
#[derive(Debug, Default)]
struct Conn {
    /// For each publish handed to the client, in order: the journal line it carries.
    order: VecDeque<Option<Sent>>,
    /// Packet id to journal line, for the publishes sent and not acknowledged.
    inflight: HashMap<u16, Option<Sent>>,
    /// Lines published on this connection and not acknowledged.
    unacked: u64,
    /// The next line to publish.
    next: u64,
    /// Whether the broker accepted the connection.
    up: bool,
}

struct Relay {
    s: RelaySettings,
    socket: PathBuf,
    journal: PathBuf,
    tail: Tail,
    /// The table's earlier journals with lines left to send.
    earlier: Vec<earlier::Earlier>,
    cursor: Cursor,
    cursor_path: PathBuf,
    cursor_dirty: bool,
    /// The control socket's token for the arbiter's acts.
    token: String,
    /// Lines acknowledged above the cursor (acknowledgements out of order).
    acked_above: BTreeSet<u64>,
    /// The last state from the daemon, with the time it came (ms since 1970).
    state: Option<(Value, u64)>,
    /// The last line whose alert was published (no repeats within a run).
    alerted_to: u64,
    /// State alerts already raised (a board far behind, the journal unhealthy).
    state_alerts: (bool, bool),
    /// Players, event and round from the journal's first line.
    names: Value,
    /// The last line a witness written here names (witnesses come in order;
    /// an older or repeated one is dropped).
    witnessed_to: u64,
    /// A witness being written through the control socket (one at a time).
    witnessing: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Command results from the blocking threads.
    done_tx: mpsc::UnboundedSender<CommandReply>,
    done_rx: mpsc::UnboundedReceiver<CommandReply>,
}

impl Relay {
    fn new(s: RelaySettings, socket: PathBuf, journal: &Path, token: String) -> Relay {
        let cursor_path = Cursor::path_of(journal);
        let mut cursor = Cursor::load(&cursor_path);
        // The cursor names the event and the table from the start, so that
        // a later start of this table finds this journal if lines are left.
        let named = cursor.event == s.event && cursor.table == Some(s.table);
        cursor.event.clone_from(&s.event);
        cursor.table = Some(s.table);
        let (done_tx, done_rx) = mpsc::unbounded_channel();
        Relay {
            s,
            socket,
            journal: journal.to_owned(),
            tail: Tail::new(journal),
            earlier: Vec::new(),
            cursor,
            cursor_path,
            cursor_dirty: !named,
            token,
            witnessed_to: 0,
            witnessing: std::sync::Arc::default(),
            acked_above: BTreeSet::new(),
            state: None,
            alerted_to: 0,
            state_alerts: (false, false),
            names: Value::Null,
            done_tx,
            done_rx,
        }
    }

    fn topic(&self, leaf: &str) -> String {
        proto::table_topic(&self.s.event, self.s.table, leaf)
    }

    /// Reads new journal lines; checks the cursor against the file once.
    fn read_journal(&mut self) {
        let before = self.tail.len();
        if let Err(e) = self.tail.poll() {
            tracing::warn!("relay: cannot read the journal: {e}");
        }
        // The witnesses the journal has (also from an earlier run): one
        // the broker brings again is not written twice.
        for seq in before + 1..=self.tail.len() {
            if !self
                .tail
                .line(seq)
                .is_some_and(|l| l.contains("\"type\":\"witness\""))
            {
                continue;
            }
            if let Some(crate::journal::Event::Witness(w)) = self.tail.record(seq).map(|r| r.event)
            {
                self.witnessed_to = self.witnessed_to.max(w.line);
            }
        }
        if before == 0 && !self.tail.is_empty() {
            // Another journal at the same path, or a cursor past the file: from the start.
            let a = self.cursor.acked;
            if a > 0
                && self
                    .tail
                    .hash(a)
                    .is_some_and(|h| h != self.cursor.acked_hash)
            {
                self.cursor.acked = 0;
            }
            if let Some(start) = self.tail.record(1) {
                if let crate::journal::Event::Start(info) = start.event {
                    self.names = json!({"white": info.white, "black": info.black,
                        "event": info.event, "variant": info.variant});
                }
            }
            // Lines acknowledged in an earlier run raised their alerts then.
            self.alerted_to = self.cursor.acked;
        }
    }

    /// Whether every journal line (the earlier journals' too) is acknowledged by the broker.
    fn all_acked(&self) -> bool {
        self.cursor.acked >= self.tail.len() && self.earlier.iter().all(earlier::Earlier::done)
    }

    fn save_cursor(&mut self) {
        if self.cursor_dirty {
            self.cursor_dirty = false;
            if let Err(e) = self.cursor.save(&self.cursor_path, true) {
                tracing::warn!("relay: cannot save {}: {e}", self.cursor_path.display());
            }
        }
        for e in &mut self.earlier {
            if e.dirty {
                e.save();
            }
        }
    }

    fn dirty(&self) -> bool {
        self.cursor_dirty || self.earlier.iter().any(|e| e.dirty)
    }

    async fn run(
        &mut self,
        mut events: mpsc::UnboundedReceiver<Value>,
        mut written: watch::Receiver<u64>,
        mut stop: watch::Receiver<Option<tokio::time::Instant>>,
    ) {
        // Until the session stops (its writer dropped): then every line is in
        // the file, read once more below, and nothing more comes.
        let mut writing = true;
        let id = mqtt::client_id(
            &self.s.broker,
            format!("tandem-{}-table-{}", self.s.event, self.s.table),
        );
        let mut backoff = Duration::from_millis(200);
        let mut saved = tokio::time::Instant::now();
        if self.cursor_dirty {
            self.save_cursor();
        }
        // The earlier journals are read on a blocking thread: the game goes on meanwhile.
        let (journal, event, table) = (self.journal.clone(), self.s.event.clone(), self.s.table);
        self.earlier = tokio::task::spawn_blocking(move || earlier::find(&journal, &event, table))
            .await
            .unwrap_or_default();
        loop {
            self.read_journal();
            let mut opts = match mqtt::options(&self.s.broker, &id) {
                Ok(o) => o,
                Err(e) => {
                    tracing::error!("relay: {e:#}; the table plays on without the hall");
                    return;
                }
            };
            opts.set_last_will(LastWill::new(
                self.topic("online"),
                "false",
                QoS::AtLeastOnce,
                true,
            ));
            let (client, mut el) = AsyncClient::new(opts, 1024);
            let mut conn = Conn {
                next: self.cursor.acked + 1,
                ..Conn::default()
            };
            for e in &mut self.earlier {
                e.next = e.cursor.acked + 1;
            }
            // The heartbeat: the hall's protocol needs it (the desk's "seen"
            // time), so it stays; the journal has no timer (`written`).
            let mut beat = tokio::time::interval(HEARTBEAT);
            let why = loop {
                let until = *stop.borrow();
                if let Some(until) = until {
                    self.read_journal();
                    if self.all_acked() || tokio::time::Instant::now() >= until {
                        self.save_cursor();
                        let _ = client.try_disconnect();
                        return;
                    }
                }
                tokio::select! {
                    ev = el.poll() => match ev {
                        Ok(ev) => self.on_mqtt(&client, &mut conn, ev),
                        Err(e) => break e,
                    },
                    Some(v) = events.recv() => {
                        self.read_journal();
                        self.on_event(&client, &mut conn, v);
                    }
                    Some(r) = self.done_rx.recv() => {
                        self.publish(&client, &mut conn, &self.topic("reply"), false, serde_json::to_vec(&r).unwrap_or_default());
                    }
                    w = written.changed(), if writing => {
                        writing = w.is_ok();
                        self.read_journal();
                    }
                    _ = beat.tick() => if conn.up { self.publish_state(&client, &mut conn) },
                    () = tokio::time::sleep_until(saved + SAVE_EVERY), if self.dirty() => {}
                    _ = stop.changed(), if until.is_none() => {}
                    // Stopping: the lines not acknowledged by then go on the next start.
                    () = tokio::time::sleep_until(until.unwrap_or_else(tokio::time::Instant::now)), if until.is_some() => {}
                }
                self.pump(&client, &mut conn);
                // Synced (a crash never leaves an empty cursor), at most twice a second.
                if self.dirty() && saved.elapsed() >= SAVE_EVERY {
                    self.save_cursor();
                    saved = tokio::time::Instant::now();
                }
            };
            self.save_cursor();
            if stop.borrow().is_some() {
                // Stopping, and the broker is gone: what is left goes on the next start.
                return;
            }
            if conn.up {
                backoff = Duration::from_millis(200);
            }
            if mqtt::is_refusal(&why) {
                tracing::error!(
                    "relay: the broker {} refused table {}: {why}",
                    self.s.broker,
                    self.s.table
                );
                backoff = Duration::from_secs(5);
            } else {
                tracing::warn!("relay: broker {}: {why}; trying again", self.s.broker);
            }
            // Meanwhile the journal and the daemon's events go on.
            let until = tokio::time::Instant::now() + backoff;
            loop {
                tokio::select! {
                    () = tokio::time::sleep_until(until) => break,
                    Some(v) = events.recv() => self.remember_state(v),
                    _ = stop.changed() => return,
                }
            }
            backoff = (backoff * 2).min(Duration::from_secs(5));
        }
    }

    /// Hands a message to the client, noting which journal line (if any) it carries.
    fn publish(
        &self,
        client: &AsyncClient,
        conn: &mut Conn,
        topic: &str,
        retain: bool,
        payload: Vec<u8>,
    ) -> bool {
        queue(client, conn, topic, retain, payload, None)
    }

    /// Publishes journal lines from `conn.next` while the window allows.
    fn pump(&mut self, client: &AsyncClient, conn: &mut Conn) {
        if !conn.up {
            return;
        }
        let topic = self.topic("journal");
        while conn.unacked < WINDOW {
            let Some(msg) = self.tail.message(conn.next) else {
                break;
            };
            let seq = msg.seq;
            let payload = serde_json::to_vec(&msg).unwrap_or_default();
            if !queue(client, conn, &topic, false, payload, Some((0, seq))) {
                break;
            }
            conn.unacked += 1;
            conn.next += 1;
            if seq > self.alerted_to {
                let sent = match self.tail.record(seq).as_ref().and_then(proto::alert_of) {
                    Some(a) => self.publish_alert(client, conn, a),
                    None => true,
                };
                // Not sent (the client's queue full): the line and its alert go again.
                if !sent {
                    conn.next = seq;
                    break;
                }
                self.alerted_to = seq;
            }
        }
        // The earlier journals' left-over lines, oldest journal first, only
        // with the room the current game's lines leave.
        if self.tail.message(conn.next).is_some() {
            return;
        }
        for e in &mut self.earlier {
            while conn.unacked < WINDOW {
                let Some(msg) = e.next_message() else { break };
                let payload = serde_json::to_vec(&msg).unwrap_or_default();
                if !queue(client, conn, &topic, false, payload, Some((e.id, msg.seq))) {
                    return;
                }
                conn.unacked += 1;
                e.next += 1;
            }
        }
    }

    fn publish_alert(&self, client: &AsyncClient, conn: &mut Conn, a: Alert) -> bool {
        let topic = self.topic("alert");
        self.publish(
            client,
            conn,
            &topic,
            false,
            serde_json::to_vec(&a).unwrap_or_default(),
        )
    }

    fn on_mqtt(&mut self, client: &AsyncClient, conn: &mut Conn, ev: Event) {
        match ev {
            Event::Incoming(Packet::ConnAck(_)) => {
                conn.up = true;
                let cmd = proto::desk_topic(&self.s.event, &format!("cmd/{}", self.s.table));
                let all = proto::desk_topic(&self.s.event, "cmd/all");
                let resend = proto::desk_topic(&self.s.event, &format!("resend/{}", self.s.table));
                let witness =
                    proto::desk_topic(&self.s.event, &format!("witness/{}", self.s.table));
                for t in [cmd, all, resend, witness] {
                    if let Err(e) = client.try_subscribe(t, QoS::AtLeastOnce) {
                        tracing::warn!("relay: cannot subscribe: {e}");
                    }
                }
                let online = self.topic("online");
                self.publish(client, conn, &online, true, b"true".to_vec());
                self.publish_state(client, conn);
            }
            Event::Outgoing(Outgoing::Publish(pkid)) => {
                let line = conn.order.pop_front().flatten();
                conn.inflight.insert(pkid, line);
            }
            Event::Incoming(Packet::PubAck(ack)) => {
                if let Some(Some((id, seq))) = conn.inflight.remove(&ack.pkid) {
                    conn.unacked = conn.unacked.saturating_sub(1);
                    if id == 0 {
                        self.acked(seq);
                    } else if let Some(e) = self.earlier.iter_mut().find(|e| e.id == id) {
                        e.acked(seq);
                        if e.done() {
                            tracing::info!(
                                "relay: every line of an earlier journal ({} lines) is with the hall",
                                e.tail.len()
                            );
                        }
                    }
                }
            }
            Event::Incoming(Packet::Publish(p)) => {
                let t = p.topic.as_str();
                if t.ends_with(&format!("/resend/{}", self.s.table)) {
                    if let Ok(r) = serde_json::from_slice::<Resend>(&p.payload) {
                        let from = r.from.max(1);
                        let current = self.tail.hash(1).unwrap_or_default();
                        match r.game {
                            Some(g) if g != current => {
                                // An earlier journal's lines (still known in this run).
                                if let Some(e) = self.earlier.iter_mut().find(|e| e.game() == g) {
                                    e.next = e.next.min(from);
                                }
                            }
                            _ => conn.next = conn.next.min(from),
                        }
                    }
                } else if t.ends_with(&format!("/witness/{}", self.s.table)) {
                    self.on_witness(&p.payload);
                } else {
                    self.on_command(&p.payload);
                }
            }
            _ => {}
        }
    }

    fn acked(&mut self, seq: u64) {
        self.cursor_dirty |= self.cursor.ack(seq, &mut self.acked_above, &self.tail);
    }

    fn remember_state(&mut self, v: Value) {
        if v.get("event").and_then(Value::as_str) == Some("state") {
            self.state = Some((v, proto::now_ms()));
        }
    }

    fn on_event(&mut self, client: &AsyncClient, conn: &mut Conn, v: Value) {
        if v.get("event").and_then(Value::as_str) != Some("state") {
            return;
        }
        let behind = |side: &str| v["boards"][side]["behind"].as_u64().unwrap_or(0);
        let far = behind("white").max(behind("black")) >= proto::FAR_BEHIND;
        let unhealthy = v["journal_health"]["ok"] == false;
        let mut alerts = Vec::new();
        if far && !self.state_alerts.0 {
            alerts.push((
                0,
                Alert {
                    kind: "behind".into(),
                    text: format!(
                        "A board is far behind: white's {} and black's {} plies.",
                        behind("white"),
                        behind("black")
                    ),
                    seq: None,
                    wall: crate::journal::wall_now(),
                },
            ));
        }
        if unhealthy && !self.state_alerts.1 {
            alerts.push((
                1,
                Alert {
                    kind: "journal".into(),
                    text: format!(
                        "The journal cannot be written: {}.",
                        v["journal_health"]["error"]
                            .as_str()
                            .unwrap_or("unknown error")
                    ),
                    seq: None,
                    wall: crate::journal::wall_now(),
                },
            ));
        }
        // A condition that ended may be raised again; one raised is marked
        // only once its alert was handed to the client (else: on the next state).
        if !far {
            self.state_alerts.0 = false;
        }
        if !unhealthy {
            self.state_alerts.1 = false;
        }
        self.remember_state(v);
        if conn.up {
            self.publish_state(client, conn);
            for (which, a) in alerts {
                if self.publish_alert(client, conn, a) {
                    if which == 0 {
                        self.state_alerts.0 = true;
                    } else {
                        self.state_alerts.1 = true;
                    }
                }
            }
        }
    }

    /// The retained state: the daemon's state object plus the table, the
    /// event, the round, the players and a sequence number.
    fn publish_state(&mut self, client: &AsyncClient, conn: &mut Conn) {
        let Some((Value::Object(st), at)) = self.state.clone() else {
            return;
        };
        let mut o = st;
        o.remove("event");
        self.cursor.state_seq += 1;
        self.cursor_dirty = true;
        o.insert("table".into(), json!(self.s.table));
        o.insert("event".into(), json!(self.s.event));
        o.insert("round".into(), json!(self.s.round));
        o.insert(
            "players".into(),
            json!({"white": self.names["white"], "black": self.names["black"]}),
        );
        o.insert("seq".into(), json!(self.cursor.state_seq));
        o.insert("state_ms".into(), json!(at));
        o.insert("sent_ms".into(), json!(proto::now_ms()));
        o.insert("journal_lines".into(), json!(self.tail.len()));
        if !self.earlier.is_empty() {
            // The earlier journals being sent: the desk asks for what it lacks of them.
            let list: Vec<Value> = self
                .earlier
                .iter()
                .map(|e| json!({"game": e.game(), "lines": e.tail.len()}))
                .collect();
            o.insert("earlier_journals".into(), Value::Array(list));
        }
        let topic = self.topic("state");
        self.publish(
            client,
            conn,
            &topic,
            true,
            serde_json::to_vec(&o).unwrap_or_default(),
        );
    }

    /// The desk's witness of this table's journal: checked (its size, the
    /// desk's signature, the event, the table, the game, and that it names a
    /// line of this journal with that line's hash), then written into the
    /// journal by the session through the control socket, on a blocking
    /// thread (the game never waits for it). One at a time; one that comes
    /// meanwhile, or names no line after the last witnessed, is dropped (the
    /// desk witnesses again as lines come).
    fn on_witness(&mut self, payload: &[u8]) {
        use crate::journal::witness::Flaw;
        use std::sync::atomic::Ordering;
        let Some(key) = self.s.desk_key else {
            return;
        };
        if payload.len() > crate::journal::witness::MAX_WITNESS {
            tracing::warn!("relay: a witness of {} bytes dropped", payload.len());
            return;
        }
        let Ok(w) = serde_json::from_slice::<crate::journal::witness::Witness>(payload) else {
            tracing::warn!("relay: a witness that is not one dropped");
            return;
        };
        self.read_journal();
        let game = self.tail.hash(1).unwrap_or_default();
        // Not written yet: any line of the journal is before it.
        let flaw = if w.well_formed() {
            w.flaw(u64::MAX, &key, game, |n| self.tail.hash(n))
        } else {
            Some(Flaw::Signature)
        };
        let elsewhere = w.event != self.s.event || w.table != self.s.table;
        let why_not = if flaw == Some(Flaw::Signature) {
            Some("not signed by the desk's key")
        } else if elsewhere || flaw == Some(Flaw::Game) {
            Some("for another event, table or game")
        } else if flaw.is_some() {
            Some("it names a line this journal does not have")
        } else if w.line <= self.witnessed_to {
            // A repeat (the broker's redelivery), or older than one written.
            return;
        } else {
            None
        };
        if let Some(why) = why_not {
            tracing::warn!("relay: a witness dropped: {why}");
            return;
        }
        if self.witnessing.swap(true, Ordering::AcqRel) {
            return;
        }
        self.witnessed_to = w.line;
        let (socket, token, busy) = (
            self.socket.clone(),
            self.token.clone(),
            std::sync::Arc::clone(&self.witnessing),
        );
        let arg = serde_json::to_string(&w).unwrap_or_default();
        tokio::task::spawn_blocking(move || {
            let (outcome, text) = bridge::act_with(&socket, "witness", Some(&arg), Some(&token));
            if outcome != bridge::Outcome::Done {
                tracing::warn!("relay: the desk's witness not written: {text}");
            }
            busy.store(false, Ordering::Release);
        });
    }

    /// A desk command: checked (signature, table, time, not a replay), then
    /// done through the control socket; the answer goes to `…/reply`.
    fn on_command(&mut self, payload: &[u8]) {
        let reply = |counter: u64, cmd: &str, ok: bool, text: String| CommandReply {
            counter,
            cmd: cmd.to_owned(),
            ok,
            text,
            unconfirmed: false,
        };
        self.read_journal();
        if proto::is_old_command(payload) {
            let _ = self.done_tx.send(reply(
                0,
                "",
                false,
                "refused: signed with the shared arbiter's secret of an older desk; the desk now \
                 signs with its own key: `tandem hall keygen DIR`, the desk with --signing-key \
                 DIR/desk.key, this table with --desk-key DIR/desk.pub"
                    .into(),
            ));
            return;
        }
        let c: SignedCommand = match serde_json::from_slice(payload) {
            Ok(c) => c,
            Err(e) => {
                let _ = self
                    .done_tx
                    .send(reply(0, "", false, format!("not a command: {e}")));
                return;
            }
        };
        let Some(key) = &self.s.desk_key else {
            let _ = self
                .done_tx
                .send(reply(c.counter, &c.cmd, false, NO_DESK_KEY.into()));
            return;
        };
        let game = self.tail.hash(1).unwrap_or_default().to_owned();
        if let Err(why) = c.verify_game(
            key,
            &self.s.event,
            self.s.table,
            &game,
            self.cursor.counter,
            proto::now_ms(),
        ) {
            tracing::warn!("relay: desk command refused: {why}");
            let _ = self
                .done_tx
                .send(reply(c.counter, &c.cmd, false, format!("refused: {why}")));
            return;
        }
        // On disk before acting: a replay after a crash is refused too.
        self.cursor.counter = c.counter;
        if let Err(e) = self.cursor.save(&self.cursor_path, true) {
            let _ = self.done_tx.send(reply(
                c.counter,
                &c.cmd,
                false,
                format!("refused: cannot record the command's counter: {e}"),
            ));
            return;
        }
        let running = self
            .state
            .as_ref()
            .is_some_and(|(s, _)| s["clocks"]["running"] == true);
        // The start signal starts a game not begun; a clock stopped mid-game
        // (a mismatch, the arbiter) is resumed only by `resume` for this table.
        let begun = self
            .state
            .as_ref()
            .is_some_and(|(s, _)| s["ply"].as_u64() != Some(0) || !s["result"].is_null());
        let (cmd, arg) = match c.cmd.as_str() {
            "start" if running => {
                let _ = self.done_tx.send(reply(
                    c.counter,
                    &c.cmd,
                    true,
                    "the clock already runs".into(),
                ));
                return;
            }
            "start" if begun => {
                let _ = self.done_tx.send(reply(
                    c.counter,
                    &c.cmd,
                    false,
                    "not started: the game is under way (resume this table to restart its clock)"
                        .into(),
                ));
                return;
            }
            "start" | "resume" => ("resume", None),
            "pause" => ("pause", None),
            "takeback" => ("takeback", Some(c.arg.clone())),
            "clock" => ("clock", Some(c.arg.clone())),
            _ => ("say", Some(c.arg.clone())),
        };
        // Every desk command goes with the control socket's token: the
        // desk's signature, checked above, is the arbiter's authority here
        // (its pause, resume and words are journaled as the arbiter's, and
        // only the arbiter or the operator restarts a stopped clock).
        let token = Some(self.token.clone());
        let socket = self.socket.clone();
        let tx = self.done_tx.clone();
        let (counter, name) = (c.counter, c.cmd.clone());
        tokio::task::spawn_blocking(move || {
            let (outcome, text) = bridge::act_with(&socket, cmd, arg.as_deref(), token.as_deref());
            let mut r = reply(counter, &name, outcome == bridge::Outcome::Done, text);
            // Carried out but not yet on the table's disk: not done either.
            r.unconfirmed = matches!(
                outcome,
                bridge::Outcome::Unconfirmed | bridge::Outcome::Unsaved
            );
            let _ = tx.send(r);
        });
    }
}

/// Hands a message to the client, noting which journal line (if any) it carries.
fn queue(
    client: &AsyncClient,
    conn: &mut Conn,
    topic: &str,
    retain: bool,
    payload: Vec<u8>,
    line: Option<Sent>,
) -> bool {
    match client.try_publish(topic, QoS::AtLeastOnce, retain, payload) {
        Ok(()) => {
            conn.order.push_back(line);
            true
        }
        Err(e) => {
            tracing::warn!("relay: cannot queue a message: {e}");
            false
        }
    }
}

/// Why a table without `--desk-key` refuses the desk's commands.
pub const NO_DESK_KEY: &str = "refused: this table has no desk key: start it with --desk-key \
     desk.pub (the public key `tandem hall keygen` made for the desk)";

/// The arbiter's secret in a file (else `TANDEM_ARBITER_SECRET`): the desk's
/// login secret (`tandem hall --arbiter-secret-file`).
///
/// # Errors
/// The file cannot be read.
pub fn secret_text(file: Option<&Path>) -> anyhow::Result<Option<String>> {
    let t =
        match file {
            Some(f) => Some(std::fs::read_to_string(f).map_err(|e| {
                anyhow::anyhow!("cannot read the arbiter secret {}: {e}", f.display())
            })?),
            None => std::env::var("TANDEM_ARBITER_SECRET").ok(),
        };
    Ok(t.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()))
}
