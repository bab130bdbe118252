//! A real screen reader for the pages' tests (`../shared/docs/real-components.md`,
//! "A real screen reader"): Orca reading Chromium or Firefox ESR on a
//! private Xvfb, what it speaks recorded by a speech-dispatcher module that
//! only logs (one line an utterance, with the time), what it puts on the
//! braille line read from its debug file, keys typed through the X server
//! (xdotool) as a person types them.
//!
//! Everything runs privately: its own `HOME`, `XDG_RUNTIME_DIR` (a temp
//! folder), session bus, display (Xvfb picks a free one: `-displayfd`),
//! so tests run beside other tests; dropping [`Orca`] kills every process
//! started with that `XDG_RUNTIME_DIR` in its environment (the browser's,
//! the accessibility bus's, the speech-dispatcher Orca starts), by PID.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub use super::browser::wait_within as wait_for;

/// The browsers the pages are read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Web {
    Chromium,
    Firefox,
}

/// The programs this needs, and their Debian packages (`scripts/setup.sh --test`).
const NEEDS: &[(&str, &str)] = &[
    ("/usr/bin/orca", "orca"),
    ("/usr/bin/Xvfb", "xvfb"),
    ("/usr/bin/xdotool", "xdotool"),
    ("/usr/bin/dbus-daemon", "dbus"),
    ("/usr/bin/firefox-esr", "firefox-esr"),
    ("/usr/bin/chromium", "chromium"),
    ("/usr/libexec/at-spi-bus-launcher", "at-spi2-core"),
    ("/usr/bin/speech-dispatcher", "speech-dispatcher"),
    ("/usr/lib/python3/dist-packages/pyatspi", "python3-pyatspi"),
];

/// How long a start may take on a loaded machine.
const START: Duration = Duration::from_secs(40);

/// Orca running on a private display and session, with at most one
/// browser window; every process killed when dropped.
pub struct Orca {
    dir: tempfile::TempDir,
    env: Vec<(String, String)>,
    children: std::sync::Mutex<Vec<Child>>,
    spoken: PathBuf,
    debug: PathBuf,
}

/// Seconds since the epoch, as the speech log's `date +%s.%N`.
pub fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

impl Orca {
    /// Orca started and ready ("Screen reader on" spoken); `None` (said)
    /// when a program is missing and the tests may skip it.
    pub fn start() -> Option<Orca> {
        for (path, package) in NEEDS {
            tandem_testkit::require(
                &format!("{package} (scripts/setup.sh --test)"),
                if Path::new(path).exists() {
                    Ok(())
                } else {
                    Err(format!("{path} is missing"))
                },
            )?;
        }
        let dir = tempfile::Builder::new().prefix("orca-").tempdir().unwrap();
        let d = dir.path();
        let (home, run, prefs) = (d.join("home"), d.join("run"), d.join("prefs"));
        for p in [&home, &run, &prefs] {
            std::fs::create_dir_all(p).unwrap();
        }
        std::fs::set_permissions(&run, std::os::unix::fs::PermissionsExt::from_mode(0o700))
            .unwrap();
        let spoken = d.join("spoken.log");
        let debug = d.join("orca-debug.out");
        speech_log(&home, &spoken);
        // Orca's debug file, line by line (it is buffered otherwise): its
        // customizations run after the file is opened. No reading the whole
        // page when it loads (a user's setting): the logging module gives
        // Orca no word marks, so a "say all" would never end for it and keep
        // it from the grid's focus mode.
        std::fs::write(
            prefs.join("orca-customizations.py"),
            "import orca.debug\norca.debug.debugFile.reconfigure(line_buffering=True)\n\
             import orca.settings\norca.settings.sayAllOnLoad = False\n",
        )
        .unwrap();
        // Orca refuses to start beside another Orca of the same user (it
        // asks `pgrep -u UID -x orca`), whatever their sessions: here each
        // has its own display and buses, so its `pgrep` finds none.
        let bin = d.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(bin.join("pgrep"), "#!/bin/sh\nexit 1\n").unwrap();
        std::fs::set_permissions(
            bin.join("pgrep"),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        let bus = run.join("bus");
        let mut env: Vec<(String, String)> = vec![
            ("HOME".into(), path(&home)),
            ("XDG_RUNTIME_DIR".into(), path(&run)),
            ("XDG_CONFIG_HOME".into(), path(&home.join(".config"))),
            ("XDG_CACHE_HOME".into(), path(&home.join(".cache"))),
            ("XDG_DATA_HOME".into(), path(&home.join(".local/share"))),
            // Debian's own python3 first (Orca's modules are its).
            ("PATH".into(), format!("{}:/usr/bin:/bin", path(&bin))),
            ("LANG".into(), "C.UTF-8".into()),
            ("GTK_MODULES".into(), "gail:atk-bridge".into()),
            ("ACCESSIBILITY_ENABLED".into(), "1".into()),
            ("NO_AT_BRIDGE".into(), "0".into()),
            ("GNOME_ACCESSIBILITY".into(), "1".into()),
            ("MOZ_CRASHREPORTER_DISABLE".into(), "1".into()),
            (
                "DBUS_SESSION_BUS_ADDRESS".into(),
                format!("unix:path={}", path(&bus)),
            ),
        ];
        let mut o = Orca {
            dir,
            env: env.clone(),
            children: std::sync::Mutex::default(),
            spoken,
            debug,
        };
        // The display: Xvfb takes the first free one and says which.
        let mut x = o
            .command("/usr/bin/Xvfb")
            .args(["-displayfd", "1", "-screen", "0", "1280x1024x24"])
            .args(["-nolisten", "tcp"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("start Xvfb");
        let mut line = String::new();
        BufReader::new(x.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        o.children.lock().unwrap().push(x);
        let n: u32 = line
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("Xvfb said no display: {line:?}"));
        env.push(("DISPLAY".into(), format!(":{n}")));
        o.env = env;
        let dbus = o
            .command("/usr/bin/dbus-daemon")
            .args(["--session", "--nofork", "--nopidfile"])
            .arg(format!("--address=unix:path={}", path(&bus)))
            .spawn()
            .expect("start dbus-daemon");
        o.children.lock().unwrap().push(dbus);
        wait_for("the session bus", START, || {
            bus.exists().then_some(()).ok_or_else(String::new)
        });
        let atspi = o
            .command("/usr/libexec/at-spi-bus-launcher")
            .arg("--launch-immediately")
            .spawn()
            .expect("start at-spi-bus-launcher");
        o.children.lock().unwrap().push(atspi);
        let orca = o
            .command("/usr/bin/orca")
            .arg("-u")
            .arg(&prefs)
            .arg("--debug-file")
            .arg(&o.debug)
            .spawn()
            .expect("start orca");
        o.children.lock().unwrap().push(orca);
        o.wait_spoken("Orca's \"Screen reader on\"", 0.0, |s| {
            s.contains("Screen reader on")
        });
        Some(o)
    }

    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(self.dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(self.dir.path().join("stderr.log"))
                    .map_or_else(|_| Stdio::null(), Stdio::from),
            );
        c
    }

    /// `web` opened at `url`, its window given the keyboard focus (there is
    /// no window manager), once Orca has read the page's line with `words`.
    pub fn open(&self, web: Web, url: &str, words: &str) {
        let profile = self.dir.path().join(format!("{web:?}"));
        std::fs::create_dir_all(&profile).unwrap();
        let (mut c, class) = match web {
            Web::Chromium => {
                let mut c = self.command("/usr/bin/chromium");
                c.args(["--no-sandbox", "--force-renderer-accessibility"])
                    .arg(format!("--user-data-dir={}", path(&profile)))
                    .args(["--no-first-run", "--no-default-browser-check"])
                    .args(["--password-store=basic", "--disable-gpu"])
                    .args(["--window-position=0,0", "--window-size=1280,1000"]);
                (c, "chromium")
            }
            Web::Firefox => {
                std::fs::write(profile.join("user.js"), FIREFOX_PREFS).unwrap();
                let mut c = self.command("/usr/bin/firefox-esr");
                c.args(["--no-remote", "--profile"]).arg(&profile);
                (c, "firefox")
            }
        };
        let since = now();
        let child = c.arg(url).spawn().expect("start the browser");
        self.children.lock().unwrap().push(child);
        let window = wait_for(&format!("{web:?}'s window"), START, || {
            let out = self
                .command("/usr/bin/xdotool")
                .args(["search", "--onlyvisible", "--class", class])
                .stdout(Stdio::piped())
                .output()
                .map_err(|e| e.to_string())?;
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .last()
                .map(str::to_owned)
                .ok_or_else(|| "no window yet".to_owned())
        });
        self.xdotool(&["windowfocus", "--sync", &window]);
        self.wait_loaded(words, since);
    }

    /// Waits until Orca has read a page's line with `words` (its heading;
    /// at or after `since`) and then stopped: keys typed before go nowhere.
    pub fn wait_loaded(&self, words: &str, since: f64) {
        self.wait_spoken(&format!("the page with {words:?} read"), since, |s| {
            s.contains(words)
        });
        // Orca then reads the page's first line and puts its caret there
        // (taking the focus from a field): keys wait until it has spoken.
        self.wait_quiet();
    }

    /// Waits until Orca has said nothing for 400 ms.
    pub fn wait_quiet(&self) {
        wait_for("Orca quiet for 400 ms", START, || {
            let last = self.spoken().last().map_or(0.0, |(t, _)| *t);
            (now() - last > 0.4)
                .then_some(())
                .ok_or_else(|| format!("spoke {:.2} s ago", now() - last))
        });
    }

    fn xdotool(&self, args: &[&str]) {
        let st = self
            .command("/usr/bin/xdotool")
            .args(args)
            .status()
            .expect("xdotool");
        assert!(st.success(), "xdotool {args:?}: {st}");
    }

    /// Keys pressed through the X server (`Tab`, `Return`, `Right`…).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["key", "--delay", "60"];
        args.extend_from_slice(keys);
        self.xdotool(&args);
    }

    /// `text` typed through the X server, key by key.
    pub fn type_text(&self, text: &str) {
        self.xdotool(&["type", "--delay", "30", text]);
    }

    /// What the speech module was given, in order: (when, words).
    pub fn spoken(&self) -> Vec<(f64, String)> {
        std::fs::read_to_string(&self.spoken)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let (t, words) = l.split_once(' ')?;
                Some((t.parse().ok()?, words.to_owned()))
            })
            .collect()
    }

    /// Waits until an utterance spoken at or after `since` satisfies `f`;
    /// gives its time.
    pub fn wait_spoken(&self, what: &str, since: f64, f: impl Fn(&str) -> bool) -> f64 {
        wait_for(what, START, || {
            let all = self.spoken();
            all.iter()
                .find(|(t, s)| *t >= since && f(s))
                .map(|(t, _)| *t)
                .ok_or_else(|| format!("{:?}", all.iter().rev().take(8).collect::<Vec<_>>()))
        })
    }

    /// The lines Orca put on the braille display (`BRAILLE LINE:` in its
    /// debug file), in order.
    pub fn braille(&self) -> Vec<String> {
        std::fs::read_to_string(&self.debug)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.split_once("BRAILLE LINE:").map(|(_, b)| b.trim()))
            .map(|b| b.trim_matches('\'').to_owned())
            .collect()
    }

    /// The processes started with this Orca's `XDG_RUNTIME_DIR` (all of
    /// them, whoever started them), by PID.
    fn ours(&self) -> Vec<i32> {
        let mark = format!("XDG_RUNTIME_DIR={}", path(&self.dir.path().join("run")));
        let me = std::process::id() as i32;
        std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter(|&pid| pid != me)
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|kv| kv == mark.as_bytes()))
            })
            .collect()
    }
}

impl Drop for Orca {
    fn drop(&mut self) {
        // Orca's own output, kept for a failing test's reader.
        if std::thread::panicking() {
            let keep = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../target/orca-artifacts")
                .join(format!("{}", std::process::id()));
            if std::fs::create_dir_all(&keep).is_ok() {
                for f in ["spoken.log", "orca-debug.out", "stderr.log"] {
                    let _ = std::fs::copy(self.dir.path().join(f), keep.join(f));
                }
                let _ = writeln!(
                    std::io::stderr(),
                    "orca: its logs kept in {}",
                    keep.display()
                );
            }
        }
        for _ in 0..3 {
            let pids = self.ours();
            if pids.is_empty() {
                break;
            }
            for pid in pids {
                // SAFETY: a signal to a process of this test's own, by PID.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        for c in self.children.lock().unwrap().iter_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn path(p: &Path) -> String {
    p.to_str().expect("a UTF-8 path").to_owned()
}

/// A private speech-dispatcher whose only module writes each utterance,
/// with the time, as a line of `log`, and never sounds.
fn speech_log(home: &Path, log: &Path) {
    let conf = home.join(".config/speech-dispatcher");
    std::fs::create_dir_all(conf.join("modules")).unwrap();
    std::fs::write(
        conf.join("speechd.conf"),
        "AddModule \"logger\" \"sd_generic\" \"logger.conf\"\nDefaultModule logger\n\
         AudioOutputMethod \"alsa\"\nAudioALSADevice \"null\"\n",
    )
    .unwrap();
    let module = format!(
        "GenericExecuteSynth \"echo $(date +%s.%N) \\'$DATA\\' >> {}\"\n\
         AddVoice \"en\" \"MALE1\" \"en\"\n",
        path(log)
    );
    std::fs::write(conf.join("modules/logger.conf"), module).unwrap();
}

/// Firefox without its first-run pages, updates or reports.
const FIREFOX_PREFS: &str = r#"user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.aboutwelcome.enabled", false);
user_pref("startup.homepage_welcome_url", "");
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("app.update.disabledForTesting", true);
user_pref("browser.tabs.warnOnClose", false);
user_pref("browser.sessionstore.resume_from_crash", false);
"#;
