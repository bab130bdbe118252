//! Test fixtures (feature `testing`): a private speech-dispatcher whose
//! espeak-ng output goes through ALSA into files, and audio measurements
//! with sox. Used by this crate's tests and by the daemon's end-to-end tests.
//!
//! The recipe is `shared/docs/real-components.md`: speech-dispatcher's stock
//! config plays through PulseAudio, and with no sound server its
//! end-of-speech events never come. This one uses ALSA with a `file` plugin
//! (`$D/out_<rate>_<channels>_<bits>.raw`), its own socket, log and module
//! config in a temporary folder; nothing of the user's is touched.
//!
//! Clients reach it through `SPEECHD_ADDRESS` ([`PrivateSpeechd::address`]);
//! without it libspeechd would start a server with the broken default config.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A private speech-dispatcher. Stopped (killed) on drop.
#[derive(Debug)]
pub struct PrivateSpeechd {
    dir: tempfile::TempDir,
    child: Child,
    socket: PathBuf,
}

/// Measurements of some audio.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AudioStats {
    /// Length in seconds.
    pub seconds: f64,
    /// RMS amplitude, 0-1.
    pub rms: f64,
    /// Largest absolute amplitude, 0-1.
    pub max: f64,
}

const SPEECHD: &str = "speech-dispatcher";
const MODULE_CONF: &str = "/etc/speech-dispatcher/modules/espeak-ng.conf";

impl PrivateSpeechd {
    /// Starts a private speech-dispatcher with espeak-ng, default language
    /// `language`, and waits (up to 10 s) for its socket.
    ///
    /// # Errors
    /// A message saying what is missing (`speech-dispatcher`,
    /// `speech-dispatcher-espeak-ng`) or why it did not start.
    pub fn start(language: &str) -> Result<PrivateSpeechd, String> {
        let dir = tempfile::Builder::new()
            .prefix("tandem-speechd-")
            .tempdir()
            .map_err(|e| format!("temp dir: {e}"))?;
        let d = dir.path();
        for sub in ["conf/modules", "log", "home", "run"] {
            std::fs::create_dir_all(d.join(sub)).map_err(|e| format!("creating {sub}: {e}"))?;
        }
        let module = std::fs::read_to_string(MODULE_CONF).map_err(|e| {
            format!("{MODULE_CONF}: {e}: install the Debian packages speech-dispatcher and speech-dispatcher-espeak-ng")
        })?;
        std::fs::write(d.join("conf/modules/espeak-ng.conf"), module).map_err(|e| e.to_string())?;
        let conf = format!(
            "LogDir \"{log}\"\nAudioOutputMethod \"alsa\"\nAudioALSADevice \"spdcap\"\n\
             AddModule \"espeak-ng\" \"sd_espeak-ng\" \"espeak-ng.conf\"\nDefaultModule espeak-ng\n\
             DefaultLanguage \"{language}\"\n",
            log = d.join("log").display()
        );
        std::fs::write(d.join("conf/speechd.conf"), conf).map_err(|e| e.to_string())?;
        let asoundrc = format!(
            "pcm.spdcap {{ type file; slave.pcm \"null\"; file \"{}/out_%r_%c_%b.raw\"; format \"raw\"; truncate false }}\n",
            d.display()
        );
        std::fs::write(d.join("home/.asoundrc"), asoundrc).map_err(|e| e.to_string())?;
        let socket = d.join("speechd.sock");
        let child = Command::new(SPEECHD)
            .args(["-s", "-t", "0", "-C"])
            .arg(d.join("conf"))
            .arg("-S")
            .arg(&socket)
            .arg("-P")
            .arg(d.join("speechd.pid"))
            .arg("-L")
            .arg(d.join("log"))
            .env("HOME", d.join("home"))
            .env("XDG_RUNTIME_DIR", d.join("run"))
            .env_remove("SPEECHD_ADDRESS")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                format!("cannot run {SPEECHD}: {e}: install the Debian package speech-dispatcher")
            })?;
        let mut s = PrivateSpeechd { dir, child, socket };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !s.socket.exists() {
            if let Ok(Some(status)) = s.child.try_wait() {
                return Err(format!(
                    "{SPEECHD} exited at start ({status}); see its log in {}",
                    s.log_dir().display()
                ));
            }
            if Instant::now() > deadline {
                return Err(format!("{SPEECHD} did not open its socket in 10 s"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(s)
    }

    /// The value for `SPEECHD_ADDRESS`.
    #[must_use]
    pub fn address(&self) -> String {
        format!("unix_socket:{}", self.socket.display())
    }

    /// Where it logs.
    #[must_use]
    pub fn log_dir(&self) -> PathBuf {
        self.dir.path().join("log")
    }

    /// The raw audio files written so far, with their sample rate and channels
    /// (from the names `out_<rate>_<channels>_<bits>.raw`).
    #[must_use]
    pub fn audio_files(&self) -> Vec<(PathBuf, u32, u32)> {
        let mut v = Vec::new();
        if let Ok(rd) = std::fs::read_dir(self.dir.path()) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let Some(rest) = name
                    .strip_prefix("out_")
                    .and_then(|r| r.strip_suffix(".raw"))
                else {
                    continue;
                };
                let parts: Vec<&str> = rest.split('_').collect();
                if let [rate, ch, _bits] = parts.as_slice() {
                    if let (Ok(r), Ok(c)) = (rate.parse(), ch.parse()) {
                        v.push((e.path(), r, c));
                    }
                }
            }
        }
        v.sort();
        v
    }

    /// Total bytes of audio written so far (a mark to measure from).
    #[must_use]
    pub fn audio_mark(&self) -> u64 {
        self.audio_files()
            .iter()
            .filter_map(|(p, _, _)| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum()
    }

    /// Waits until audio has been written after `mark` and has then stopped
    /// growing for `quiet`, at most `timeout`; returns the new audio measured.
    ///
    /// # Errors
    /// When no audio came, or sox cannot measure it.
    pub fn wait_audio_since(
        &self,
        mark: u64,
        quiet: Duration,
        timeout: Duration,
    ) -> Result<AudioStats, String> {
        let deadline = Instant::now() + timeout;
        let mut last = self.audio_mark();
        let mut since = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(50));
            let now = self.audio_mark();
            if now != last {
                last = now;
                since = Instant::now();
            } else if now > mark && since.elapsed() >= quiet {
                break;
            }
            if Instant::now() > deadline {
                if now > mark {
                    break;
                }
                return Err(format!(
                    "no audio from speech-dispatcher in {timeout:?}; log in {}",
                    self.log_dir().display()
                ));
            }
        }
        // The file keeps growing across utterances: measure only the new bytes.
        let files = self.audio_files();
        let Some((path, rate, channels)) = files.last() else {
            return Err("no audio file".to_owned());
        };
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        let before = mark.saturating_sub(
            files[..files.len() - 1]
                .iter()
                .filter_map(|(p, _, _)| std::fs::metadata(p).ok())
                .map(|m| m.len())
                .sum(),
        );
        let start = usize::try_from(before)
            .unwrap_or(usize::MAX)
            .min(bytes.len())
            & !1;
        let chunk = self.dir.path().join("chunk.raw");
        std::fs::write(&chunk, &bytes[start..]).map_err(|e| e.to_string())?;
        raw_stats(&chunk, *rate, *channels)
    }
}

impl Drop for PrivateSpeechd {
    fn drop(&mut self) {
        // Our own child, by its id; it may have exited already.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_sox(out: &str) -> Result<AudioStats, String> {
    let field = |name: &str| -> Result<f64, String> {
        out.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split(':').nth(1))
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| format!("sox stat printed no {name:?}: {out}"))
    };
    let max = parse_sox_max(out)?;
    Ok(AudioStats {
        seconds: field("Length (seconds)")?,
        rms: field("RMS     amplitude")?,
        max,
    })
}

fn parse_sox_max(out: &str) -> Result<f64, String> {
    let get = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split(':').nth(1))
            .and_then(|v| v.trim().parse::<f64>().ok())
    };
    match (get("Maximum amplitude"), get("Minimum amplitude")) {
        (Some(a), Some(b)) => Ok(a.abs().max(b.abs())),
        _ => Err(format!("sox stat printed no amplitudes: {out}")),
    }
}

fn sox_stat(args: &[&std::ffi::OsStr]) -> Result<AudioStats, String> {
    let out = Command::new("sox")
        .args(args)
        .args(["-n", "stat"])
        .output()
        .map_err(|e| format!("cannot run sox: {e}: install the Debian package sox"))?;
    // sox stat writes its table to stderr.
    parse_sox(&String::from_utf8_lossy(&out.stderr))
}

/// Measures raw signed 16-bit audio.
///
/// # Errors
/// When sox is missing or fails.
pub fn raw_stats(path: &Path, rate: u32, channels: u32) -> Result<AudioStats, String> {
    let (r, c) = (rate.to_string(), channels.to_string());
    let args: Vec<&std::ffi::OsStr> = vec![
        "-t".as_ref(),
        "raw".as_ref(),
        "-r".as_ref(),
        r.as_ref(),
        "-e".as_ref(),
        "signed".as_ref(),
        "-b".as_ref(),
        "16".as_ref(),
        "-c".as_ref(),
        c.as_ref(),
        path.as_os_str(),
    ];
    sox_stat(&args)
}

/// Measures a WAV file.
///
/// # Errors
/// When sox is missing or fails.
pub fn wav_stats(path: &Path) -> Result<AudioStats, String> {
    sox_stat(&[path.as_os_str()])
}
