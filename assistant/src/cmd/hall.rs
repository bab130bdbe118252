//! `tandem hall --broker mqtt://… --event EVENT --listen 127.0.0.1:8080
//! [--arbiter-secret-file FILE] [--public 0.0.0.0:8081 [--public-delay 15m]]
//! [--data DIR] [--signing-key desk.key] [--login] [--tls-cert FILE --tls-key FILE]
//! [--session-idle 30m]`: the arbiter's desk (docs/hall.md); `tandem hall
//! keygen DIR`: the desk's key pair.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::hall::{self, Hall};
use crate::relay::proto::{check_level, BrokerUrl};

/// Arguments of `tandem hall`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    /// `keygen DIR`: make the desk's key pair instead of running the desk.
    #[command(subcommand)]
    pub action: Option<Action>,
    /// The broker: `mqtt://[USER[:PASSWORD]@]HOST[:PORT]`, or `mqtts://…` for TLS
    /// (a private CA: `TANDEM_MQTT_CA=ca.pem`). The password may also come from
    /// `TANDEM_HALL_PASSWORD`.
    #[arg(long, value_name = "URL", required = true)]
    pub broker: Option<String>,
    /// The event (the tables' `--event`).
    #[arg(long, required = true)]
    pub event: Option<String>,
    /// The desk's private key (`desk.key` from `tandem hall keygen`, mode
    /// 0600): the desk signs its commands and its witnesses of the tables'
    /// journals with it. Without it the page shows everything but sends no
    /// command and witnesses nothing.
    #[arg(long, value_name = "FILE")]
    pub signing_key: Option<PathBuf>,
    /// Where the arbiter's page listens (keep it on localhost unless the desk is elsewhere).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// The arbiter's secret, in a file: the desk's login (never given to a
    /// table; the desk's commands are signed with `--signing-key`).
    #[arg(long)]
    pub arbiter_secret_file: Option<PathBuf>,
    /// Also serve a read-only page and PDN/PGN feeds for spectators here.
    #[arg(long, value_name = "ADDR")]
    pub public: Option<String>,
    /// Show spectators every table as it was this long ago (`30s`, `15m`):
    /// moves, clocks and results alike, on every route of `--public`. The
    /// arbiter's own page is never delayed.
    #[arg(long, value_name = "DURATION", requires = "public")]
    pub public_delay: Option<String>,
    /// Where the copies of the journals are kept (default `$XDG_STATE_HOME/tandem/hall`).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Ask for the arbiter's secret (a login page) even on a loopback `--listen`
    /// (always asked beyond loopback).
    #[arg(long)]
    pub login: bool,
    /// A host name the desk's and the public server answer to, besides IP
    /// addresses and `localhost` (the name in the browsers' address bar);
    /// repeatable. Any other name is refused (DNS rebinding).
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// The desk's TLS certificate (PEM) beyond loopback; without it the desk
    /// makes its own at first start and keeps it in `--data`/tls. With it,
    /// the desk speaks TLS on a loopback `--listen` too.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The key of `--tls-cert` (PEM).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// With a login, a session ends after this long without a request
    /// (`30s`, `30m`, `2h`).
    #[arg(long, value_name = "DURATION", default_value = "30m")]
    pub session_idle: String,
}

/// The login's secret is long enough: [`hall::login::MIN_SECRET`]
/// characters at least, else the file (or the variable) is named.
fn check_login_secret(secret: &str, file: Option<&std::path::Path>) -> anyhow::Result<()> {
    let n = secret.trim().chars().count();
    let min = hall::login::MIN_SECRET;
    anyhow::ensure!(
        n >= min,
        "{}: the arbiter's secret has {n} characters; the desk's login needs {min} at least \
         (a random one: openssl rand -hex 16 > FILE)",
        file.map_or_else(
            || "TANDEM_ARBITER_SECRET".to_owned(),
            |f| format!("--arbiter-secret-file {}", f.display())
        )
    );
    Ok(())
}

/// The desk's certificate: the one given, else the one made at its first
/// start and kept in `DATA/tls` (the key 0600).
fn desk_tls(
    args: &Args,
    ip: std::net::IpAddr,
    data: &std::path::Path,
) -> anyhow::Result<crate::http::tls::Tls> {
    let given = args.tls_cert.as_deref().zip(args.tls_key.as_deref());
    let mut names = vec!["localhost".to_owned()];
    if !ip.is_unspecified() {
        names.push(ip.to_string());
    }
    names.extend(args.allow_host.iter().cloned());
    crate::http::tls::load_or_make(given, &data.join("tls"), names)
        .context("the desk's TLS certificate")
}

/// What `tandem hall` does besides running the desk.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Writes a new key pair for the desk: DIR/desk.key (the private key,
    /// mode 0600, for `tandem hall --signing-key`; never over an existing
    /// one) and DIR/desk.pub (for every table's `tandem play --desk-key` and
    /// `tandem journal verify --desk-key`). PEM: PKCS#8 and SubjectPublicKeyInfo, Ed25519.
    Keygen {
        /// The folder (made if missing).
        dir: PathBuf,
    },
}

fn keygen(dir: &std::path::Path) -> anyhow::Result<ExitCode> {
    let (private, public) = crate::desk_key::keygen(dir)?;
    let key = crate::desk_key::DeskKey::load(&public)?;
    println!(
        "tandem hall keygen: the desk's private key {} (mode 0600: keep it on the desk's \
         machine only, for --signing-key), its public key {} (for every table's --desk-key), \
         fingerprint {}",
        private.display(),
        public.display(),
        key.fingerprint()
    );
    Ok(ExitCode::SUCCESS)
}

fn default_data() -> PathBuf {
    crate::paths::state_dir().join("hall")
}

/// What `tandem hall`'s flags say, checked before anything starts.
struct Settings {
    broker: BrokerUrl,
    event: String,
    secret: Option<String>,
    signing: Option<crate::desk_key::SigningKey>,
    delay: Option<std::time::Duration>,
    session_idle: std::time::Duration,
    login_wait: std::time::Duration,
    data: PathBuf,
}

impl Settings {
    fn read(args: &Args, broker: &str, event: String) -> anyhow::Result<Settings> {
        let mut broker: BrokerUrl = broker.parse().context("--broker")?;
        if broker.password.is_none() {
            broker.password = std::env::var("TANDEM_HALL_PASSWORD").ok();
        }
        check_level("--event", &event)?;
        let secret = crate::relay::secret_text(args.arbiter_secret_file.as_deref())?;
        anyhow::ensure!(
            args.arbiter_secret_file.is_none() || secret.is_some(),
            "--arbiter-secret-file: the file is empty"
        );
        let signing = args
            .signing_key
            .as_deref()
            .map(crate::desk_key::SigningKey::load)
            .transpose()?;
        if signing.is_none() {
            eprintln!(
                "tandem hall: no --signing-key: the desk sends no command and witnesses no journal \
                 (make its key pair with `tandem hall keygen DIR`)"
            );
        }
        let delay = args
            .public_delay
            .as_deref()
            .map(hall::delay::parse)
            .transpose()?;
        let session_idle = humantime::parse_duration(args.session_idle.trim()).map_err(|e| {
            anyhow::anyhow!(
                "--session-idle {:?}: {e} (write it like 30s, 30m or 2h)",
                args.session_idle
            )
        })?;
        anyhow::ensure!(
            !session_idle.is_zero(),
            "--session-idle: a session must last a moment"
        );
        let login_wait = std::env::var("TANDEM_HALL_LOGIN_WAIT_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(hall::login::DEFAULT_WAIT, std::time::Duration::from_millis);
        Ok(Settings {
            broker,
            event,
            secret,
            signing,
            delay,
            session_idle,
            login_wait,
            data: args.data.clone().unwrap_or_else(default_data),
        })
    }
}

/// Runs `tandem hall`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(Action::Keygen { dir }) = &args.action {
        return keygen(dir);
    }
    let (Some(broker), Some(event)) = (args.broker.clone(), args.event.clone()) else {
        anyhow::bail!("tandem hall needs --broker URL and --event EVENT");
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("TANDEM_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .log_internal_errors(false)
        .try_init();
    let settings = Settings::read(&args, &broker, event)?;
    // As many open files as the system lets this process have: the public
    // server's cap is set below that (docs/hall.md, "What a peer can make
    // the desk hold").
    let nofile = hall::serve::raise_file_limit();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    rt.block_on(serve(args, settings, nofile))
}

/// The desk: its pages, its public server, its broker's thread, until a signal.
async fn serve(args: Args, mut s: Settings, nofile: u64) -> anyhow::Result<ExitCode> {
    let (hall, out) = Hall::new(&s.event, s.data.clone(), s.secret.take(), s.signing.take())?;
    let listener = tokio::net::TcpListener::bind(&args.listen)
        .await
        .with_context(|| format!("--listen {}: cannot listen", args.listen))?;
    let public = match &args.public {
        Some(a) => Some(
            tokio::net::TcpListener::bind(a)
                .await
                .with_context(|| format!("--public {a}: cannot listen"))?,
        ),
        None => None,
    };
    let here = listener.local_addr()?;
    let loopback = here.ip().is_loopback();
    let login = args.login || !loopback;
    anyhow::ensure!(
        !login || hall.secret_for_login().is_some(),
        "--listen {}{}: the desk's page needs the arbiter's login there: give --arbiter-secret-file",
        args.listen,
        if loopback { " --login" } else { " is reachable beyond this machine" }
    );
    if let Some(secret) = login.then(|| hall.secret_for_login()).flatten() {
        check_login_secret(&secret, args.arbiter_secret_file.as_deref())?;
    }
    // Beyond loopback (or with a certificate given) the desk speaks TLS only.
    let tls = if loopback && args.tls_cert.is_none() {
        None
    } else {
        Some(desk_tls(&args, here.ip(), &s.data)?)
    };
    announce(&args, &s, &listener, public.as_ref(), tls.as_ref())?;
    spawn_broker(&hall, &s.broker, out)?;
    if let Some(p) = public {
        spawn_public(&hall, p, &args, s.delay, nofile);
    }
    let setup = hall::login::Setup {
        idle: s.session_idle,
        wait: s.login_wait,
        secure: tls.is_some(),
        fingerprint: tls.as_ref().map(|t| t.fingerprint.clone()),
    };
    let login = login
        .then(|| hall.secret_for_login())
        .flatten()
        .map(|secret| std::sync::Arc::new(hall::login::Login::new(&secret, setup)));
    let session = login.as_ref().map(|l| l.bar()).unwrap_or_default();
    let guard = hall::guard::Guard::new(args.allow_host.clone(), login);
    let arbiter = guard.arbiter();
    let limits = hall::serve::desk(arbiter.is_some());
    let mut app = hall::guard::guarded(
        crate::http::serve::bounded(hall::web::desk(hall.clone(), &session), limits),
        guard,
    );
    if let Some(a) = arbiter {
        app = crate::http::serve::reserved_for(app, a, hall::guard::FULL);
    }
    let acceptor = tls.map(|t| t.acceptor);
    tokio::select! {
        () = crate::http::serve::serve("hall", listener, app, limits, acceptor) => {}
        () = super::play::wait_for_signal() => {}
    }
    Ok(ExitCode::SUCCESS)
}

/// The desk's first line: the event, the broker, where its pages are.
fn announce(
    args: &Args,
    s: &Settings,
    listener: &tokio::net::TcpListener,
    public: Option<&tokio::net::TcpListener>,
    tls: Option<&crate::devices::tls::Tls>,
) -> anyhow::Result<()> {
    eprintln!(
        "tandem hall: event {}, broker {}, desk {}://{}{}{}",
        s.event,
        s.broker,
        if tls.is_some() { "https" } else { "http" },
        listener.local_addr()?,
        tls.map(|t| format!(" (certificate SHA-256 {})", t.fingerprint))
            .unwrap_or_default(),
        public
            .and_then(|p| p.local_addr().ok())
            .map(|a| format!(
                ", public http://{a}{}",
                args.public_delay
                    .as_deref()
                    .map(|d| format!(" (delayed {d})"))
                    .unwrap_or_default()
            ))
            .unwrap_or_default()
    );
    Ok(())
}

/// The broker on a thread of its own: no web request can starve its keep-alive.
fn spawn_broker(
    hall: &std::sync::Arc<Hall>,
    broker: &BrokerUrl,
    out: hall::Outbox,
) -> anyhow::Result<()> {
    let (h, b) = (hall.clone(), broker.clone());
    std::thread::Builder::new()
        .name("tandem-hall-broker".into())
        .spawn(move || {
            match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt.block_on(hall::broker_loop(h, b, out)),
                Err(e) => tracing::error!("hall: cannot start the broker's runtime: {e}"),
            }
        })
        .context("cannot start the broker's thread")?;
    Ok(())
}

/// The public server (`--public`): plain HTTP, also beyond loopback: nothing
/// secret goes either way, and broadcast sites poll its feeds (docs/hall.md,
/// "Spectators"). With `--public-delay` every public route is built from
/// lines the desk has held that long (hall/delay.rs).
fn spawn_public(
    hall: &std::sync::Arc<Hall>,
    listener: tokio::net::TcpListener,
    args: &Args,
    delay: Option<std::time::Duration>,
    nofile: u64,
) {
    let limits = hall::serve::public_for(nofile);
    let routes = match delay {
        Some(d) => {
            let d = hall::delay::Delayed::new(hall.clone(), d);
            tokio::spawn(d.clone().run());
            hall::web::public_page(hall::delay::routes(d))
        }
        None => hall::web::public(hall.clone()),
    };
    let app = hall::guard::guarded(
        crate::http::serve::bounded(routes, limits),
        hall::guard::Guard::new(args.allow_host.clone(), None),
    );
    // Plain HTTP, also beyond loopback: nothing secret goes either way, and
    // broadcast sites poll its feeds (docs/hall.md, "Spectators").
    tokio::spawn(crate::http::serve::serve(
        "hall", listener, app, limits, None,
    ));
}
