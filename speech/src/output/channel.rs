//! [`ChannelOutput`]: speech for one player's ear at a table of two seats
//! (001 ch. VIII 5.1: the clock's answer is the asker's, not the hall's).
//! espeak-ng renders the words to samples ([`synthesize_wav`]); ALSA's own
//! player, `aplay` (alsa-utils), plays them on the seat's device: on one
//! channel of a stereo output (`left`, `right`: one splitter, two
//! earphones), the other channel silent, or on every channel of a sound card
//! of the seat's own (`alsa:DEVICE`, any name `aplay -L` lists, such as
//! `plughw:1`). `aplay` opens any ALSA device by the name the user gives,
//! which cpal 0.15 does not (it opens only the devices ALSA's hints list).

use std::ffi::OsString;
use std::io::Write;
use std::process::{Command, Stdio};

use super::espeak::{synthesize_wav, SpeechProcess};
use super::{Caps, SpeechError, SpeechOutput, VoiceParams};
use crate::utterance::Utterance;

/// The player run, unless `TANDEM_APLAY` names another.
pub const DEFAULT_PLAYER: &str = "aplay";

fn player() -> OsString {
    std::env::var_os("TANDEM_APLAY").unwrap_or_else(|| DEFAULT_PLAYER.into())
}

/// Which channel of a stereo output a seat hears.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ear {
    /// The left channel (channel 1).
    Left,
    /// The right channel (channel 2).
    Right,
}

/// Speaks on one channel of an ALSA device, or on a device of its own.
#[derive(Debug)]
pub struct ChannelOutput {
    params: VoiceParams,
    device: String,
    ear: Option<Ear>,
    child: SpeechProcess,
    dir: tempfile::TempDir,
    /// Why the last `aplay` failed (a device that is gone), told at the
    /// next utterance so that the speech worker can say so.
    failed: Option<String>,
}

impl ChannelOutput {
    /// Speech on `device` (`default` when `None`): on one `ear` of its
    /// stereo output, or on all its channels when `ear` is `None`.
    ///
    /// # Errors
    /// [`SpeechError::Unavailable`] without espeak-ng or aplay, or without a
    /// private folder for the rendered words.
    pub fn new(
        params: VoiceParams,
        device: Option<String>,
        ear: Option<Ear>,
    ) -> Result<ChannelOutput, SpeechError> {
        if !super::espeak::EspeakOutput::available() {
            return Err(SpeechError::Unavailable(
                "espeak-ng is not installed".into(),
            ));
        }
        let found = Command::new(player())
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok();
        if !found {
            return Err(SpeechError::Unavailable(
                "aplay was not found: install the alsa-utils package".into(),
            ));
        }
        let dir = tempfile::Builder::new()
            .prefix("tandem-seat-speech")
            .tempdir()
            .map_err(|e| SpeechError::Unavailable(format!("no folder for speech: {e}")))?;
        Ok(ChannelOutput {
            params,
            device: device.unwrap_or_else(|| "default".to_owned()),
            ear,
            child: SpeechProcess::default(),
            dir,
            failed: None,
        })
    }

    /// Notes why the last `aplay` failed, if it did.
    fn reap(&mut self) -> bool {
        match self.child.speaking() {
            Ok(speaking) => speaking,
            Err(why) => {
                self.failed = Some(format!("aplay -D {}: {why}", self.device));
                false
            }
        }
    }
}

/// The mono samples as the frames `aplay` plays: on one channel of two,
/// the other silent, or as they are (one channel).
#[must_use]
pub fn frames(samples: &[i16], ear: Option<Ear>) -> Vec<u8> {
    let mut out = Vec::with_capacity(samples.len() * if ear.is_some() { 4 } else { 2 });
    for &s in samples {
        let (l, r) = match ear {
            None => {
                out.extend_from_slice(&s.to_le_bytes());
                continue;
            }
            Some(Ear::Left) => (s, 0),
            Some(Ear::Right) => (0, s),
        };
        out.extend_from_slice(&l.to_le_bytes());
        out.extend_from_slice(&r.to_le_bytes());
    }
    out
}

fn read_wav(path: &std::path::Path) -> Result<(Vec<i16>, u32), SpeechError> {
    let failed = |e: hound::Error| SpeechError::Failed(format!("reading espeak-ng's audio: {e}"));
    let mut r = hound::WavReader::open(path).map_err(failed)?;
    let spec = r.spec();
    if spec.bits_per_sample != 16 || spec.sample_format != hound::SampleFormat::Int {
        return Err(SpeechError::Failed(format!(
            "espeak-ng wrote {}-bit {:?} audio, not 16-bit",
            spec.bits_per_sample, spec.sample_format
        )));
    }
    let channels = usize::from(spec.channels.max(1));
    let all: Vec<i16> = r
        .samples::<i16>()
        .collect::<Result<_, _>>()
        .map_err(failed)?;
    // Mono: the first channel of each frame.
    Ok((
        all.into_iter().step_by(channels).collect(),
        spec.sample_rate,
    ))
}

impl SpeechOutput for ChannelOutput {
    fn name(&self) -> &'static str {
        match self.ear {
            Some(Ear::Left) => "espeak-ng, left channel",
            Some(Ear::Right) => "espeak-ng, right channel",
            None => "espeak-ng, own device",
        }
    }

    fn capabilities(&self) -> Caps {
        Caps::ALL
    }

    fn speak(&mut self, u: &Utterance) -> Result<(), SpeechError> {
        self.reap();
        if let Some(why) = self.failed.take() {
            return Err(SpeechError::Failed(why));
        }
        self.cancel()?;
        let wav = self.dir.path().join("said.wav");
        synthesize_wav(&u.text(), &self.params, &wav)?;
        let (samples, rate) = read_wav(&wav)?;
        let bytes = frames(&samples, self.ear);
        let channels = if self.ear.is_some() { "2" } else { "1" };
        let mut child = Command::new(player())
            .args(["-q", "-D", &self.device, "-t", "raw", "-f", "S16_LE"])
            .args(["-r", &rate.to_string(), "-c", channels, "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| SpeechError::Failed(format!("cannot run aplay: {e}")))?;
        // Fed on its own thread: aplay takes the audio as fast as it plays.
        if let Some(mut stdin) = child.stdin.take() {
            std::thread::Builder::new()
                .name("tandem-seat-audio".into())
                .spawn(move || {
                    let _ = stdin.write_all(&bytes);
                })
                .map_err(|e| SpeechError::Failed(format!("cannot feed aplay: {e}")))?;
        }
        self.child.start(child);
        Ok(())
    }

    fn is_speaking(&mut self) -> bool {
        self.reap()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seats_words_go_to_its_channel_and_silence_to_the_other() {
        let f = frames(&[1000, -2], Some(Ear::Left));
        assert_eq!(f, [232, 3, 0, 0, 254, 255, 0, 0]);
        let f = frames(&[1000], Some(Ear::Right));
        assert_eq!(f, [0, 0, 232, 3]);
        assert_eq!(frames(&[1000], None), [232, 3]);
    }
}
