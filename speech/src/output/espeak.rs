//! [`EspeakOutput`]: the `espeak-ng` program, for machines without
//! speech-dispatcher; and [`synthesize_wav`], speech into a WAV file.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use super::{Caps, SpeechError, SpeechOutput, VoiceParams};
use crate::utterance::Utterance;

/// The program run, unless `TANDEM_ESPEAK` names another.
pub const DEFAULT_PROGRAM: &str = "espeak-ng";

fn program() -> OsString {
    std::env::var_os("TANDEM_ESPEAK").unwrap_or_else(|| DEFAULT_PROGRAM.into())
}

fn voice_of(params: &VoiceParams) -> String {
    params
        .voice
        .clone()
        .unwrap_or_else(|| crate::languages::espeak_voice(&params.language))
}

/// The arguments for espeak-ng: UTF-8 input (`-b 1`, needed for Polish),
/// voice, rate, amplitude. The text itself goes through stdin, so a text
/// beginning with `-` is never read as an option.
fn base_args(params: &VoiceParams) -> Vec<String> {
    vec![
        "-b".into(),
        "1".into(),
        "-v".into(),
        voice_of(params),
        "-s".into(),
        params.espeak_wpm().to_string(),
        "-a".into(),
        // espeak-ng amplitude 0-200, 100 normal: our 0-100 volume maps onto 0-100.
        params.volume.min(100).to_string(),
    ]
}

fn spawn_error(e: &std::io::Error) -> SpeechError {
    if e.kind() == std::io::ErrorKind::NotFound {
        SpeechError::Unavailable(
            "espeak-ng was not found: install the espeak-ng package".to_owned(),
        )
    } else {
        SpeechError::Failed(format!("cannot run espeak-ng: {e}"))
    }
}

fn feed(child: &mut Child, text: &str) -> Result<(), SpeechError> {
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .map_err(|e| SpeechError::Failed(format!("writing to espeak-ng: {e}")))?;
    }
    Ok(())
}

/// A speech process (espeak-ng, aplay): one utterance at a time, whether
/// it still speaks, stopped at will, and why it failed if it did.
#[derive(Debug, Default)]
pub(crate) struct SpeechProcess {
    child: Option<Child>,
}

impl SpeechProcess {
    /// Speaks with `child` from now on.
    pub(crate) fn start(&mut self, child: Child) {
        self.child = Some(child);
    }

    /// Whether it still speaks; `Err` with its stderr once it ended failing.
    pub(crate) fn speaking(&mut self) -> Result<bool, String> {
        let Some(c) = &mut self.child else {
            return Ok(false);
        };
        let failed = match c.try_wait() {
            Ok(None) => return Ok(true),
            Ok(Some(status)) if !status.success() => {
                let mut err = String::new();
                if let Some(mut e) = c.stderr.take() {
                    let _ = std::io::Read::read_to_string(&mut e, &mut err);
                }
                Some(err.trim().to_owned())
            }
            _ => None,
        };
        self.child = None;
        failed.map_or(Ok(false), Err)
    }

    /// Stops it (a process that has just exited is harmless to kill; wait
    /// reaps it either way).
    pub(crate) fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// A backend dropped stops speaking.
impl Drop for SpeechProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Speaks through espeak-ng's own audio output, one child process per utterance.
#[derive(Debug)]
pub struct EspeakOutput {
    params: VoiceParams,
    env: Vec<(OsString, OsString)>,
    child: SpeechProcess,
}

impl EspeakOutput {
    /// A backend with these parameters.
    #[must_use]
    pub fn new(params: VoiceParams) -> EspeakOutput {
        EspeakOutput {
            params,
            env: Vec::new(),
            child: SpeechProcess::default(),
        }
    }

    /// Sets an environment variable for espeak-ng (for example
    /// `ALSA_CONFIG_PATH`, to send its audio to a file in tests).
    #[must_use]
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> EspeakOutput {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Whether espeak-ng can be run at all.
    #[must_use]
    pub fn available() -> bool {
        Command::new(program())
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok()
    }
}

impl SpeechOutput for EspeakOutput {
    fn name(&self) -> &'static str {
        "espeak-ng"
    }

    fn capabilities(&self) -> Caps {
        Caps::ALL
    }

    fn speak(&mut self, u: &Utterance) -> Result<(), SpeechError> {
        self.cancel()?;
        let mut cmd = Command::new(program());
        cmd.args(base_args(&self.params))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        let mut child = cmd.spawn().map_err(|e| spawn_error(&e))?;
        let fed = feed(&mut child, &u.text());
        self.child.start(child);
        fed
    }

    fn is_speaking(&mut self) -> bool {
        // A failed espeak-ng has said all it will: not speaking.
        self.child.speaking().unwrap_or(false)
    }

    fn cancel(&mut self) -> Result<(), SpeechError> {
        self.child.stop();
        Ok(())
    }

    fn set_params(&mut self, params: &VoiceParams) -> Result<(), SpeechError> {
        self.params = params.clone();
        Ok(())
    }
}

/// Writes `text` as speech into a WAV file with espeak-ng (`-w`), waiting
/// until it is written.
///
/// # Errors
/// [`SpeechError::Unavailable`] without espeak-ng; [`SpeechError::Failed`]
/// when it fails or writes nothing.
pub fn synthesize_wav(
    text: &str,
    params: &VoiceParams,
    out: &Path,
) -> Result<PathBuf, SpeechError> {
    let mut cmd = Command::new(program());
    cmd.args(base_args(params))
        .arg("-w")
        .arg(out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| spawn_error(&e))?;
    feed(&mut child, text)?;
    let output = child
        .wait_with_output()
        .map_err(|e| SpeechError::Failed(format!("waiting for espeak-ng: {e}")))?;
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr);
        return Err(SpeechError::Failed(format!(
            "espeak-ng -v {}: {}",
            voice_of(params),
            err.trim()
        )));
    }
    let len = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    // A WAV header alone is 44 bytes: anything that short holds no speech.
    if len <= 44 {
        return Err(SpeechError::Failed(format!(
            "espeak-ng wrote no audio to {}",
            out.display()
        )));
    }
    Ok(out.to_path_buf())
}
