//! What the hall tests share: a private Mosquitto (passwords and an ACL, on
//! a free port), tables (`tandem play --headless --relay …`) and a desk
//! (`tandem hall`) as real processes, and waiting on the desk's API.
#![allow(dead_code)]

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{run_ok, Daemon, Play, TANDEM};

pub mod chain;
pub mod spectator;

/// The event every hall test plays.
pub const EVENT: &str = "EV";
/// The arbiter's secret of the tests: the desk's login only (a table in a
/// hall never takes it).
pub const SECRET: &str = "hall-test-secret";

/// The desk's key pair of a test, made once in `dir/keys` by `tandem hall
/// keygen` (the real command): `(desk.key, desk.pub)`.
pub fn desk_keys(dir: &Path) -> (PathBuf, PathBuf) {
    let keys = dir.join("keys");
    let (private, public) = (keys.join("desk.key"), keys.join("desk.pub"));
    if !private.exists() {
        let mut keygen = Command::new(TANDEM);
        run_ok(
            keygen.args(["hall", "keygen"]).arg(&keys),
            "tandem hall keygen",
        );
    }
    (private, public)
}
/// How long anything may take on a loaded machine.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// The broker's bound on a message, as docs/hall.md gives it.
pub const MAX_PACKET_LINE: &str = "max_packet_size 262144";

/// Each client's id is its user name, as docs/hall.md gives it: one
/// table's credentials cannot take another's (or the desk's) client id.
pub const CLIENT_ID_LINE: &str = "use_username_as_clientid true";

/// A port nobody listens on now.
// Not every hall test file connects from another address.
#[allow(unused_imports)]
pub use crate::support::devices::connect_from;
pub use tandem_testkit::free_port;

/// A new journal at `path` whose line 1 starts an international draughts
/// game (90 minutes) of `white` against Nowak.
pub fn started(path: &Path, white: &str) -> tandem::journal::JournalWriter {
    use tandem::journal::{Event, JournalWriter, StartInfo};
    let mut w = JournalWriter::create(path).unwrap();
    w.append(
        0,
        Event::Start(StartInfo {
            variant: "international".into(),
            fen: "W:W31-50:B1-20".into(),
            control: "90m".into(),
            warnings_s: vec![],
            white: Some(white.into()),
            black: Some("Nowak".into()),
            event: None,
            round: None,
            blind: "white".into(),
            lang: "en".into(),
            options: Default::default(),
            version: "test".into(),
        }),
    )
    .unwrap();
    w
}

/// Waits until `f` gives something (polling), or panics with `what` and the last value.
pub fn wait_for<T>(what: &str, mut f: impl FnMut() -> Result<T, String>) -> T {
    let t0 = Instant::now();
    loop {
        match f() {
            Ok(v) => return v,
            Err(last) => assert!(
                t0.elapsed() < DEADLINE,
                "{what}: not within {DEADLINE:?}; last: {last}"
            ),
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A private Mosquitto configured as docs/hall.md says (each client's id its
/// user name, messages bounded): every table `tableN` (password `pwN`) may
/// write only under its own topic and read its commands and witnesses;
/// `desk` (password `deskpw`) reads the tables and writes the desk's topics;
/// `replayer` (`replaypw`) writes the desk's topics, to send recorded
/// commands again.
pub struct Broker {
    pub port: u16,
    conf: PathBuf,
    child: Option<Child>,
    /// With TLS (`mqtts://`): the CA that signed the broker's certificate.
    pub ca: Option<PathBuf>,
}

/// A CA and a certificate for 127.0.0.1 signed by it, made with openssl in `dir`.
fn make_certs(dir: &Path) -> PathBuf {
    let run = |args: &[&str]| {
        let mut openssl = Command::new("openssl");
        run_ok(
            openssl.args(args).current_dir(dir),
            &format!("openssl {args:?}"),
        );
    };
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let mut ca = vec!["req", "-x509"];
    ca.extend(ec);
    ca.extend([
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=tandem test CA",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    run(&ca);
    let mut csr = vec!["req"];
    csr.extend(ec);
    csr.extend([
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    run(&csr);
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    run(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "2",
        "-extfile",
        "server.ext",
    ]);
    dir.join("ca.pem")
}

impl Broker {
    /// Starts it with tables `1..=tables`, in `dir`.
    pub fn start(dir: &Path, tables: u32) -> Broker {
        Broker::start_with(dir, tables, false)
    }

    /// [`Broker::start`] without `max_packet_size` (Mosquitto's default: 256 MiB).
    pub fn start_unbounded(dir: &Path, tables: u32) -> Broker {
        Broker::start_opts(dir, tables, false, false)
    }

    /// [`Broker::start`], with TLS only (`mqtts://`) when `tls`.
    pub fn start_with(dir: &Path, tables: u32, tls: bool) -> Broker {
        Broker::start_opts(dir, tables, tls, true)
    }

    fn start_opts(dir: &Path, tables: u32, tls: bool, bounded: bool) -> Broker {
        assert!(
            Path::new("/usr/sbin/mosquitto").exists(),
            "Mosquitto is missing: run scripts/setup.sh --test (Debian's mosquitto)"
        );
        let dir = dir.join("broker");
        std::fs::create_dir_all(&dir).unwrap();
        // `replayer` is no user of docs/hall.md: it stands for whoever
        // recorded the desk's commands and sends them again, on the desk's
        // topics, without being the desk's client (which, its id being its
        // user name, would push the desk off the broker).
        let mut passwd = String::from("desk:deskpw\nreplayer:replaypw\n");
        let mut acl = format!(
            "user desk\ntopic read tandem/{EVENT}/table/#\ntopic write tandem/{EVENT}/desk/#\n\n\
             user replayer\ntopic write tandem/{EVENT}/desk/#\n\n"
        );
        for n in 1..=tables {
            passwd.push_str(&format!("table{n}:pw{n}\n"));
            // As docs/hall.md: a table writes its five topics and nothing else.
            acl.push_str(&format!("user table{n}\n"));
            for leaf in ["state", "journal", "alert", "online", "reply"] {
                acl.push_str(&format!("topic write tandem/{EVENT}/table/{n}/{leaf}\n"));
            }
            acl.push_str(&format!(
                "topic read tandem/{EVENT}/desk/cmd/{n}\n\
                 topic read tandem/{EVENT}/desk/cmd/all\ntopic read tandem/{EVENT}/desk/resend/{n}\n\
                 topic read tandem/{EVENT}/desk/witness/{n}\n\n"
            ));
        }
        std::fs::write(dir.join("passwd"), passwd).unwrap();
        let st = Command::new("mosquitto_passwd")
            .arg("-U")
            .arg(dir.join("passwd"))
            .status()
            .unwrap();
        assert!(st.success(), "mosquitto_passwd failed");
        std::fs::write(dir.join("acl"), acl).unwrap();
        let port = free_port();
        let conf = dir.join("mosquitto.conf");
        let ca = tls.then(|| make_certs(&dir));
        let tls_lines = match &ca {
            Some(ca) => format!(
                "cafile {}\ncertfile {}\nkeyfile {}\n",
                ca.display(),
                dir.join("server.pem").display(),
                dir.join("server.key").display()
            ),
            None => String::new(),
        };
        std::fs::write(
            &conf,
            format!(
                "user root\nlistener {port} 127.0.0.1\n{CLIENT_ID_LINE}\n{tls_lines}allow_anonymous false\npassword_file {}\nacl_file {}\npersistence false\nlog_dest file {}\n{}\n",
                dir.join("passwd").display(),
                dir.join("acl").display(),
                dir.join("mosquitto.log").display(),
                if bounded { MAX_PACKET_LINE } else { "" },
            ),
        )
        .unwrap();
        let mut b = Broker {
            port,
            conf,
            child: None,
            ca,
        };
        b.restart();
        b
    }

    /// Starts it again on the same port (after [`Broker::kill`]).
    pub fn restart(&mut self) {
        assert!(self.child.is_none());
        let child = Command::new("/usr/sbin/mosquitto")
            .arg("-c")
            .arg(&self.conf)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start mosquitto");
        self.child = Some(child);
        wait_for("mosquitto listening", || {
            TcpStream::connect(("127.0.0.1", self.port))
                .map(drop)
                .map_err(|e| e.to_string())
        });
    }

    /// Kills it (SIGKILL, by its pid).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// `mqtt://USER:PASSWORD@127.0.0.1:PORT`.
    pub fn url(&self, user: &str, password: &str) -> String {
        let scheme = if self.ca.is_some() { "mqtts" } else { "mqtt" };
        format!("{scheme}://{user}:{password}@127.0.0.1:{}", self.port)
    }

    /// Publishes one message with `mosquitto_pub` (QoS 1) as `user`; whether the broker took it.
    pub fn publish(&self, user: &str, password: &str, topic: &str, payload: &str) -> bool {
        let mut c = Command::new("mosquitto_pub");
        if let Some(ca) = &self.ca {
            c.arg("--cafile").arg(ca);
        }
        c.args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-q", "1"])
            .args(["-u", user, "-P", password, "-t", topic, "-m", payload])
            .status()
            .unwrap()
            .success()
    }
}

impl Broker {
    /// `mosquitto_pub` as `user` with `args` (`-r`, `-f FILE`, `-l` with `stdin`…); whether it succeeded.
    pub fn publish_args(
        &self,
        user: &str,
        password: &str,
        args: &[&str],
        stdin: Option<&[u8]>,
    ) -> bool {
        use std::io::Write as _;
        let mut c = Command::new("mosquitto_pub");
        if let Some(ca) = &self.ca {
            c.arg("--cafile").arg(ca);
        }
        c.args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-q", "1"])
            .args(["-u", user, "-P", password])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = c.spawn().unwrap();
        let mut input = child.stdin.take().unwrap();
        if let Some(b) = stdin {
            let _ = input.write_all(b);
        }
        drop(input);
        child.wait().unwrap().success()
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A table in `dir/tN`: `tandem play --headless --relay … --event EV --table N`.
pub fn table(dir: &Path, broker: &Broker, n: u32, extra: &[&str]) -> Daemon {
    let url = broker.url(&format!("table{n}"), &format!("pw{n}"));
    table_with(dir, &url, n, extra, broker.ca.as_deref())
}

/// A desk that witnesses table journals every `period_ms`
/// (`TANDEM_HALL_WITNESS_MS`) and table 1 relayed to it: the witness
/// tests' start. Hold the broker as long as the rest.
pub struct Witnessed {
    pub broker: Broker,
    pub desk: Desk,
    /// The desk's public key file (`desk.pub`), for `--desk-key`.
    pub key: String,
    pub table: Daemon,
    pub journal: PathBuf,
}

/// [`Witnessed`] in `dir`.
pub fn witnessed(dir: &Path, period_ms: &str) -> Witnessed {
    let broker = Broker::start(dir, 1);
    let desk = Desk::start_env(dir, &broker, &[], &[("TANDEM_HALL_WITNESS_MS", period_ms)]);
    let (_, public) = desk_keys(dir);
    let key = public.to_str().expect("a UTF-8 path").to_owned();
    let table = table(dir, &broker, 1, &[]);
    Witnessed {
        broker,
        desk,
        key,
        table,
        journal: journal_of(dir, 1),
    }
}

/// The records of `journal`, as they stand.
pub fn journal_records(journal: &Path) -> Vec<Value> {
    std::fs::read_to_string(journal)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The `seq` of each record of `kind` in `journal`, in order.
pub fn seqs_of(journal: &Path, kind: &str) -> Vec<u64> {
    journal_records(journal)
        .iter()
        .filter(|r| r["event"]["type"] == kind)
        .map(|r| r["seq"].as_u64().unwrap())
        .collect()
}

/// The first witness line among `records` that names line `line` or a later one.
pub fn witness_of(records: &[Value], line: u64) -> Option<Value> {
    records
        .iter()
        .find(|r| r["event"]["type"] == "witness" && r["event"]["line"].as_u64() >= Some(line))
        .cloned()
}

/// Waits (`what`) until `journal` holds a witness line naming line `line`
/// or a later one: that line.
pub fn wait_witness_of(what: &str, journal: &Path, line: u64) -> Value {
    wait_for(what, || {
        let rs = journal_records(journal);
        witness_of(&rs, line).ok_or_else(|| format!("{} lines", rs.len()))
    })
}

/// The journal of table `n`.
pub fn journal_of(dir: &Path, n: u32) -> PathBuf {
    dir.join(format!("t{n}")).join("game.jsonl")
}

/// [`table`] with another broker address (a wrong password).
pub fn table_as(dir: &Path, url: &str, n: u32, extra: &[&str]) -> Daemon {
    table_with(dir, url, n, extra, None)
}

/// [`table_as`], trusting the CA `ca` for `mqtts://`.
pub fn table_with(dir: &Path, url: &str, n: u32, extra: &[&str], ca: Option<&Path>) -> Daemon {
    table_at(dir, url, n, &journal_of(dir, n), extra, ca)
}

/// Table `n`'s next game: a new journal `name` beside its last one in `dir/tN`.
pub fn table_next_game(dir: &Path, broker: &Broker, n: u32, name: &str) -> Daemon {
    table_next_game_with(dir, broker, n, name, &[])
}

/// [`table_next_game`] with `extra` flags (`--white NAME` and `--black NAME`
/// instead of the usual names).
pub fn table_next_game_with(
    dir: &Path,
    broker: &Broker,
    n: u32,
    name: &str,
    extra: &[&str],
) -> Daemon {
    let url = broker.url(&format!("table{n}"), &format!("pw{n}"));
    let journal = dir.join(format!("t{n}")).join(name);
    table_at(dir, &url, n, &journal, extra, broker.ca.as_deref())
}

/// Table `n` playing the journal `journal` (resumed if it exists).
fn table_at(
    dir: &Path,
    url: &str,
    n: u32,
    journal: &Path,
    extra: &[&str],
    ca: Option<&Path>,
) -> Daemon {
    let tdir = dir.join(format!("t{n}"));
    std::fs::create_dir_all(&tdir).unwrap();
    let journal = journal.to_owned();
    let mut p = Play::text_only(&tdir)
        .stderr_file(tdir.join(format!(
            "stderr-{}",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        )))
        .env("TANDEM_LOG", "warn");
    if let Some(ca) = ca {
        p = p.env("TANDEM_MQTT_CA", ca);
    }
    if journal.exists() {
        p = p.arg("--resume").arg(&journal);
    } else {
        p = p.arg("--journal").arg(&journal);
        if !extra.contains(&"--white") {
            p = p.args([
                "--white",
                &format!("White {n}"),
                "--black",
                &format!("Black {n}"),
            ]);
        }
    }
    let (_, public) = desk_keys(dir);
    p.args(["--relay", url, "--event", EVENT, "--table", &n.to_string()])
        .arg("--desk-key")
        .arg(public)
        .args(extra)
        .start()
}

/// A running `tandem hall`, killed when dropped.
pub struct Desk {
    pub child: Child,
    pub base: String,
    pub data: PathBuf,
}

/// `cmd` (the `tandem` binary, or a wrapper given it as its first
/// argument) made `hall --broker … --event EV --listen LISTEN --data
/// DIR/desk --arbiter-secret-file DIR/desk-secret`, its stdout discarded;
/// `DIR/desk` and the secret's file are made.
pub fn desk_args<'c>(
    cmd: &'c mut Command,
    dir: &Path,
    broker: &Broker,
    listen: &str,
) -> &'c mut Command {
    let data = dir.join("desk");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(dir.join("desk-secret"), SECRET).unwrap();
    cmd.args(["hall", "--broker", &broker.url("desk", "deskpw")])
        .args(["--event", EVENT, "--listen", listen])
        .arg("--data")
        .arg(data)
        .arg("--arbiter-secret-file")
        .arg(dir.join("desk-secret"))
        .stdout(Stdio::null())
}

/// The `kind` of each alert in a table's view at the desk ("" where a kind
/// is not a string).
pub fn alert_kinds(view: &Value) -> Vec<&str> {
    view["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap_or(""))
        .collect()
}

/// A new folder, a broker for `tables` tables and a desk started on them
/// (without extra flags).
pub fn hall(tables: u32) -> (tempfile::TempDir, Broker, Desk) {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(dir.path(), tables);
    let desk = Desk::start(dir.path(), &broker, &[]);
    (dir, broker, desk)
}

/// A test alert `text` sent by table `n` (its own login) and awaited at
/// the desk (`what`): once the desk has it, it has had everything the
/// broker took before it.
pub fn mark(broker: &Broker, desk: &Desk, n: u64, text: &str, what: &str) {
    let marker = serde_json::json!({"kind": "test", "text": text, "seq": null, "wall": ""});
    assert!(broker.publish(
        &format!("table{n}"),
        &format!("pw{n}"),
        &format!("tandem/{EVENT}/table/{n}/alert"),
        &marker.to_string()
    ));
    desk.wait_table(n, what, |t| {
        t["alerts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["text"] == text)
    });
}

impl Desk {
    /// `tandem hall --broker … --event EV --listen 127.0.0.1:0 --data DIR/desk
    /// --arbiter-secret-file … --signing-key DIR/keys/desk.key`.
    pub fn start(dir: &Path, broker: &Broker, extra: &[&str]) -> Desk {
        Desk::start_env(dir, broker, extra, &[])
    }

    /// [`Desk::start`] with environment variables set for the desk.
    pub fn start_env(dir: &Path, broker: &Broker, extra: &[&str], env: &[(&str, &str)]) -> Desk {
        Desk::launch(dir, broker, extra, env).0
    }

    /// [`Desk::start_env`] with its public server on a free loopback port
    /// (`--public 127.0.0.1:0`, then `extra`): the desk and that address.
    pub fn start_public(
        dir: &Path,
        broker: &Broker,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> (Desk, String) {
        let mut args = vec!["--public", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        let (desk, public) = Desk::launch(dir, broker, &args, env);
        (desk, public.expect("the desk says its public address"))
    }

    /// The desk on port 0 of loopback (and `--public 127.0.0.1:0` when
    /// `extra` asks for it): the OS picks free ports as the desk binds (no
    /// other process can take them between a pick and the bind), read back
    /// from the desk's first line; the desk and its public address.
    fn launch(
        dir: &Path,
        broker: &Broker,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> (Desk, Option<String>) {
        let (private, _) = desk_keys(dir);
        let mut cmd = Command::new(TANDEM);
        cmd.envs(env.iter().copied());
        if let Some(ca) = &broker.ca {
            cmd.env("TANDEM_MQTT_CA", ca);
        }
        let err = dir.join("desk-stderr");
        let mut child = desk_args(&mut cmd, dir, broker, "127.0.0.1:0")
            .arg("--signing-key")
            .arg(private)
            .args(extra)
            .stderr(std::fs::File::create(&err).unwrap())
            .spawn()
            .expect("start tandem hall");
        // `tandem hall: event EV, broker URL, desk http://ADDR, public http://ADDR (delayed D)`.
        let after = |line: &str, key: &str| {
            let rest = line.split(key).nth(1)?;
            Some(rest.split([',', ' ']).next()?.to_owned())
        };
        let t0 = Instant::now();
        let (here, public) = loop {
            let text = std::fs::read_to_string(&err).unwrap_or_default();
            if let Some(line) = text.lines().find(|l| l.starts_with("tandem hall: event")) {
                let here = after(line, ", desk http://").expect(line);
                break (here, after(line, ", public http://"));
            }
            if let Ok(Some(st)) = child.try_wait() {
                panic!("tandem hall exited ({st}) before saying its address: {text}");
            }
            assert!(
                t0.elapsed() < DEADLINE,
                "the desk never said its address: {text}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let d = Desk {
            child,
            base: format!("http://{here}"),
            data: dir.join("desk"),
        };
        wait_for("the desk's page", || d.get_text("/").map(drop));
        (d, public)
    }

    /// GET a path, as text.
    pub fn get_text(&self, path: &str) -> Result<String, String> {
        ureq::get(&format!("{}{path}", self.base))
            .timeout(Duration::from_secs(10))
            .call()
            .map_err(|e| e.to_string())?
            .into_string()
            .map_err(|e| e.to_string())
    }

    /// GET a path, as JSON.
    pub fn get(&self, path: &str) -> Value {
        serde_json::from_str(&self.get_text(path).unwrap()).unwrap()
    }

    /// `GET /api/tables`.
    pub fn tables(&self) -> Vec<Value> {
        self.get("/api/tables").as_array().unwrap().clone()
    }

    /// Table `n` from `GET /api/tables`, if the desk has seen it.
    pub fn table(&self, n: u64) -> Option<Value> {
        self.tables().into_iter().find(|t| t["table"] == n)
    }

    /// Waits until table `n` satisfies `f`.
    pub fn wait_table(&self, n: u64, what: &str, f: impl Fn(&Value) -> bool) -> Value {
        wait_for(what, || match self.table(n) {
            Some(t) if f(&t) => Ok(t),
            other => Err(format!("{other:?}")),
        })
    }

    /// Waits until the desk's copy of table `n` is the table's journal, byte for byte.
    pub fn wait_copy(&self, n: u32, journal: &Path) -> String {
        wait_for(&format!("the desk's copy of table {n}"), || {
            let want = std::fs::read_to_string(journal).map_err(|e| e.to_string())?;
            let got = self.get_text(&format!("/api/tables/{n}/journal"))?;
            if got == want {
                Ok(got)
            } else {
                Err(format!(
                    "desk has {} lines, table {}",
                    got.lines().count(),
                    want.lines().count()
                ))
            }
        })
    }

    /// Shows (`on`) or hides table `table` (`None`: every table) to
    /// spectators, as the arbiter's page does (`POST /api/public`), and
    /// checks the desk said `ok`.
    pub fn set_public(&self, table: Option<u32>, on: bool) {
        let r: Value = ureq::post(&format!("{}/api/public", self.base))
            .set("x-tandem-desk", "1")
            .send_json(serde_json::json!({"table": table, "on": on}))
            .unwrap()
            .into_json()
            .unwrap();
        assert_eq!(r["ok"], true, "{r}");
    }

    /// The desk's alert list (`GET /api/view`'s `alerts`).
    pub fn alerts(&self) -> Vec<Value> {
        self.get("/api/view")["alerts"].as_array().unwrap().clone()
    }

    /// POSTs an arbiter command as the page does.
    pub fn command(&self, table: Option<u32>, cmd: &str, arg: &str) -> Value {
        let body = serde_json::json!({"table": table, "cmd": cmd, "arg": arg});
        let r = ureq::post(&format!("{}/api/command", self.base))
            .set("x-tandem-desk", "1")
            .send_json(body);
        match r {
            Ok(r) => r.into_json().unwrap(),
            Err(ureq::Error::Status(_, r)) => r.into_json().unwrap(),
            Err(e) => panic!("{e}"),
        }
    }
}

impl Drop for Desk {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `tandem ctl --socket SOCKET ARGS…` and asserts it succeeded.
pub fn ctl_ok(d: &Daemon, args: &[&str]) {
    let out = crate::support::ctl(&d.socket, args);
    assert!(
        out.status.success(),
        "ctl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Whether the server closed `s` (reading gives the end of the stream or a
/// reset; what it sent before is read and dropped).
pub fn closed(s: &TcpStream) -> bool {
    use std::io::Read as _;
    let mut s = s;
    s.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut b = [0u8; 1 << 16];
    loop {
        match s.read(&mut b) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

/// Logs into the desk with `secret`: the status and the session cookie (`NAME=VALUE`).
pub fn login(base: &str, secret: &str) -> (u16, Option<String>) {
    let agent = ureq::AgentBuilder::new()
        .redirects(0)
        .timeout(Duration::from_secs(10))
        .build();
    let r = match agent
        .post(&format!("{base}/login"))
        .send_form(&[("secret", secret)])
    {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("POST /login: {e}"),
    };
    let cookie = r
        .header("set-cookie")
        .map(|c| c.split(';').next().unwrap_or_default().to_owned());
    (r.status(), cookie)
}
