//! `tandem hall --broker mqtt://… --event EVENT --listen 127.0.0.1:8080
//! [--arbiter-secret-file FILE] [--public 0.0.0.0:8081 [--public-delay 15m]]
//! [--data DIR]`: the
//! arbiter's desk (docs/hall.md).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::hall::{self, Hall};
use crate::relay::proto::{check_level, BrokerUrl};

/// Arguments of `tandem hall`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The broker: `mqtt://[USER[:PASSWORD]@]HOST[:PORT]`, or `mqtts://…` for TLS
    /// (a private CA: `TANDEM_MQTT_CA=ca.pem`). The password may also come from
    /// `TANDEM_HALL_PASSWORD`.
    #[arg(long, value_name = "URL")]
    pub broker: String,
    /// The event (the tables' `--event`).
    #[arg(long)]
    pub event: String,
    /// Where the arbiter's page listens (keep it on localhost unless the desk is elsewhere).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// The arbiter's secret, in a file: the desk signs its commands with it.
    /// Without it the page shows everything but sends no command.
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
}

fn default_data() -> PathBuf {
    std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
        .unwrap_or_else(std::env::temp_dir)
        .join("tandem")
        .join("hall")
}

/// Runs `tandem hall`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("TANDEM_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .log_internal_errors(false)
        .try_init();
    let mut broker: BrokerUrl = args.broker.parse().context("--broker")?;
    if broker.password.is_none() {
        broker.password = std::env::var("TANDEM_HALL_PASSWORD").ok();
    }
    check_level("--event", &args.event)?;
    let secret = crate::relay::secret_text(args.arbiter_secret_file.as_deref())?;
    anyhow::ensure!(
        args.arbiter_secret_file.is_none() || secret.is_some(),
        "--arbiter-secret-file: the file is empty"
    );
    let delay = args
        .public_delay
        .as_deref()
        .map(hall::delay::parse)
        .transpose()?;
    let data = args.data.clone().unwrap_or_else(default_data);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    rt.block_on(async move {
        let (hall, out) = Hall::new(&args.event, data, secret)?;
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
        eprintln!(
            "tandem hall: event {}, broker {broker}, desk http://{}{}",
            args.event,
            listener.local_addr()?,
            public
                .as_ref()
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
        tokio::spawn(hall::broker_loop(hall.clone(), broker, out));
        if let Some(p) = public {
            let app = match delay {
                Some(d) => {
                    let d = hall::delay::Delayed::new(hall.clone(), d);
                    tokio::spawn(d.clone().run());
                    hall::web::public_delayed(d)
                }
                None => hall::web::public(hall.clone()),
            };
            tokio::spawn(async move {
                if let Err(e) = axum::serve(p, app).await {
                    tracing::error!("hall: the public server stopped: {e}");
                }
            });
        }
        let app = hall::web::desk(hall.clone());
        tokio::select! {
            r = axum::serve(listener, app) => r.context("the desk's server stopped")?,
            () = super::play::wait_for_signal() => {}
        }
        Ok(ExitCode::SUCCESS)
    })
}
