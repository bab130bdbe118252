//! `tandem voice check [--seconds N] [--mic DEVICE] [--lang pl|en]
//! [--model DIR] [--phrasebook FILE] [--variant V] [--speech S]`: a player
//! tests the headset before the round.
//!
//! 1. The speech model is loaded (the one installed for the language, or
//!    `--model`), so that a missing libvosk, model or microphone is said
//!    (and printed) at once, with the command that fixes it.
//! 2. The microphone's level for `--seconds` (3): a text meter (redrawn in
//!    place on a terminal, a line a second otherwise), then a verdict,
//!    printed and spoken: it works, it hears nothing, or it clips.
//! 3. "Say a move." (printed and spoken; the microphone's audio while
//!    tandem speaks is thrown away), then what was understood, printed and
//!    spoken: the move or command, or that nothing was understood. Heard in
//!    the initial position, as `tandem hear` hears it.
//!
//! Exit status 0 when a move or command was understood, 1 otherwise (2 when
//! the check cannot run). The status is the check's verdict alone: a reader
//! that closes stdout (`| head -1`) ends nothing, the check goes on spoken.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use tandem_speech::listen::audio::{Gate, Mode, MuteSwitch, VadConfig};
use tandem_speech::listen::mic::{listen_once, Microphone};
use tandem_speech::listen::vosk::VoskRecognizer;
use tandem_speech::output::worker::SpeechWorker;
use tandem_speech::{Kind, Priority, Utterance};

use crate::config::SpeechChoice;
use crate::game::GameKind;
use crate::voice_start::{check_text, understood_text, CheckSentence, VoiceStatus};

/// `tandem voice`.
#[derive(Debug, clap::Subcommand)]
pub enum VoiceCommand {
    /// Test the microphone and speech recognition: the level, then "say a
    /// move" and what was understood.
    Check(CheckArgs),
}

/// Arguments of `tandem voice check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// How long to show the microphone's level.
    #[arg(long, default_value_t = 3)]
    pub seconds: u64,
    /// How long to wait for a move after "say a move".
    #[arg(long, default_value_t = 10)]
    pub listen_seconds: u64,
    /// The microphone's device name (`arecord -L`); default: the system's.
    #[arg(long)]
    pub mic: Option<String>,
    /// Language of the words: any with data (docs/languages.md).
    #[arg(long, default_value = "pl")]
    pub lang: String,
    /// The Vosk model folder (default: the one installed for the language).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// A phrasebook file (the words listened for, and its language).
    #[arg(long)]
    pub phrasebook: Option<PathBuf>,
    /// international, sixty-four, chess or backgammon.
    #[arg(long, default_value = "international")]
    pub variant: GameKind,
    /// Speech backend for the prompts.
    #[arg(long, value_enum, default_value = "auto")]
    pub speech: SpeechChoice,
}

/// Runs `tandem voice`.
pub fn run(c: VoiceCommand) -> anyhow::Result<ExitCode> {
    match c {
        VoiceCommand::Check(a) => check(&a),
    }
}

/// Stdout whose reader may leave: from then on lines go nowhere, so that
/// the exit status stays the check's verdict (a closed stdout is otherwise
/// a quiet exit 0, which here would say that the microphone works).
struct ReaderMayLeave<W: Write> {
    inner: W,
    gone: bool,
}

impl<W: Write> Write for ReaderMayLeave<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.gone {
            return Ok(buf.len());
        }
        match self.inner.write(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.gone = true;
                Ok(buf.len())
            }
            r => r,
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.gone {
            return Ok(());
        }
        match self.inner.flush() {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.gone = true;
                Ok(())
            }
            r => r,
        }
    }
}

/// Prints a sentence and speaks it, waiting until it has been said.
fn tell(out: &mut impl Write, speech: Option<&SpeechWorker>, text: &str) -> anyhow::Result<()> {
    writeln!(out, "{text}")?;
    out.flush()?;
    if let Some(s) = speech {
        if s.say(Utterance::new(
            Priority::Next,
            Kind::Help,
            vec![text.to_owned()],
        ))
        .is_ok()
        {
            // A backend that never reports the end: go on after a while.
            let _ = s.wait_idle(Duration::from_secs(15));
        }
    }
    Ok(())
}

/// The level of `samples` in dB below full scale (-100 for silence).
fn dbfs(rms: f64) -> f64 {
    if rms <= 0.0 {
        -100.0
    } else {
        (20.0 * (rms / 32768.0).log10()).max(-100.0)
    }
}

fn rms(samples: &[i16]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
    (sum / samples.len() as f64).sqrt()
}

/// `[########------------] -23 dBFS`: -60 dBFS and below empty, 0 full.
fn meter(db: f64) -> String {
    const WIDTH: usize = 20;
    let filled = (((db + 60.0) / 60.0).clamp(0.0, 1.0) * WIDTH as f64).round() as usize;
    format!(
        "[{}{}] {db:>4.0} dBFS",
        "#".repeat(filled),
        "-".repeat(WIDTH - filled)
    )
}

/// Below this peak the microphone is taken to hear nothing.
const SILENT_DBFS: f64 = -50.0;
/// Above this peak it clips.
const LOUD_DBFS: f64 = -0.5;

fn check(a: &CheckArgs) -> anyhow::Result<ExitCode> {
    let hear_args = super::hear::Args {
        wavfile: None,
        text: None,
        batch: None,
        labels: None,
        model: a.model.clone(),
        lang: a.lang.clone(),
        phrasebook: a.phrasebook.clone(),
        variant: a.variant,
        fen: None,
        position: None,
        dice: None,
        json: false,
    };
    let ear = super::hear::ear(&hear_args)?;
    let speech = crate::outputs::one_off_speech(&a.speech, &ear.lang);
    // What cannot work is said too (the details go to stderr with the error).
    let speak = |status: VoiceStatus| {
        if let Some(s) = &speech {
            let text = status.text(&ear.lang);
            if s.say(Utterance::new(Priority::Now, Kind::Rejection, vec![text]))
                .is_ok()
            {
                let _ = s.wait_idle(Duration::from_secs(15));
            }
        }
    };
    if let Err(e) = tandem_speech::listen::vosk::library() {
        speak(VoiceStatus::NoLibrary(e.to_string()));
    } else if super::hear::model_dir(a.model.as_deref(), &ear.lang).is_err() {
        speak(VoiceStatus::NoModel {
            lang: ear.lang.clone(),
            searched: Vec::new(),
        });
    }
    let mut out = ReaderMayLeave {
        inner: std::io::stdout().lock(),
        gone: false,
    };
    writeln!(out, "Loading the speech model…")?;
    out.flush()?;
    let mut rec = super::hear::recognizer(&hear_args, &ear)?;
    let mic = match Microphone::open(a.mic.as_deref()) {
        Ok(m) => m,
        Err(e) => {
            speak(VoiceStatus::NoMicrophone(e.to_string()));
            anyhow::bail!(
                "{e}: connect a microphone, or name one with --mic (arecord -L lists them)"
            );
        }
    };

    // 1. The level.
    let peak = measure_level(&mut out, &mic, a.seconds)?;
    let verdict = if peak < SILENT_DBFS {
        CheckSentence::LevelSilent
    } else if peak > LOUD_DBFS {
        CheckSentence::LevelLoud
    } else {
        CheckSentence::LevelOk
    };
    writeln!(out, "peak {peak:.0} dBFS")?;
    tell(&mut out, speech.as_ref(), &check_text(&ear.lang, verdict))?;

    // 2. A move.
    tell(
        &mut out,
        speech.as_ref(),
        &check_text(&ear.lang, CheckSentence::SayAMove),
    )?;
    hear_a_move(
        &mut out,
        speech.as_ref(),
        &ear,
        &mut rec,
        mic,
        a.listen_seconds,
    )
}

/// Shows the microphone's level for `seconds` (a meter redrawn on a
/// terminal, a line a second otherwise); its peak in dBFS.
fn measure_level(out: &mut impl Write, mic: &Microphone, seconds: u64) -> anyhow::Result<f64> {
    writeln!(out, "Microphone level for {seconds} s: speak now.")?;
    out.flush()?;
    let terminal = std::io::stdout().is_terminal();
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut window: Vec<i16> = Vec::new();
    let mut second: Vec<i16> = Vec::new();
    let mut peak = -100.0_f64;
    let mut last_draw = Instant::now();
    let mut last_line = Instant::now();
    while Instant::now() < end {
        let left = end.saturating_duration_since(Instant::now());
        let Ok(frame) = mic
            .frames
            .recv_timeout(left.min(Duration::from_millis(200)))
        else {
            continue;
        };
        window.extend_from_slice(&frame);
        second.extend_from_slice(&frame);
        let frame_peak = frame.iter().map(|s| s.unsigned_abs()).max().unwrap_or(0);
        peak = peak.max(dbfs(f64::from(frame_peak)));
        if terminal && last_draw.elapsed() >= Duration::from_millis(100) {
            write!(out, "\r{}", meter(dbfs(rms(&window))))?;
            out.flush()?;
            window.clear();
            last_draw = Instant::now();
        }
        if !terminal && last_line.elapsed() >= Duration::from_secs(1) {
            writeln!(out, "level {}", meter(dbfs(rms(&second))))?;
            out.flush()?;
            second.clear();
            last_line = Instant::now();
        }
    }
    if terminal {
        writeln!(out)?;
    }
    Ok(peak)
}

/// Listens for one move (for `listen_seconds` at most) and says what was
/// understood: success only for a move understood.
fn hear_a_move(
    out: &mut impl Write,
    speech: Option<&SpeechWorker>,
    ear: &super::hear::Ear,
    rec: &mut VoskRecognizer,
    mic: Microphone,
    listen_seconds: u64,
) -> anyhow::Result<ExitCode> {
    // What the microphone took in while tandem spoke is not the player.
    while mic.frames.try_recv().is_ok() {}
    let mut gate = Gate::new(Mode::Voice(VadConfig::default()), MuteSwitch::default());
    let (transcripts, timing) = listen_once(
        rec,
        &mic.frames,
        &mut gate,
        Duration::from_secs(listen_seconds),
    )?;
    drop(mic);
    if timing.is_none() {
        tell(
            out,
            speech,
            &check_text(&ear.lang, CheckSentence::NothingHeard),
        )?;
        return Ok(ExitCode::from(1));
    }
    let v = (ear.judge)(&transcripts)?;
    writeln!(out, "{}", v.line)?;
    if v.understood {
        tell(out, speech, &understood_text(&ear.lang, &v.label))?;
        Ok(ExitCode::SUCCESS)
    } else {
        tell(
            out,
            speech,
            &check_text(&ear.lang, CheckSentence::NotUnderstood),
        )?;
        Ok(ExitCode::from(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stdout whose reader has gone.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
    }

    #[test]
    fn a_reader_that_leaves_does_not_end_the_check_but_other_failures_do() {
        let mut out = ReaderMayLeave {
            inner: Closed,
            gone: false,
        };
        assert!(tell(&mut out, None, "Say a move.").is_ok());
        assert!(out.gone);
        assert!(writeln!(out, "peak -20 dBFS").is_ok());
        let mut four = [0u8; 4];
        let mut full = ReaderMayLeave {
            inner: std::io::Cursor::new(&mut four[..]),
            gone: false,
        };
        assert!(writeln!(full, "more than four bytes").is_err());
    }

    #[test]
    fn the_meter_spans_minus_sixty_to_zero_dbfs() {
        assert_eq!(meter(-100.0), "[--------------------] -100 dBFS");
        assert_eq!(meter(-30.0), "[##########----------]  -30 dBFS");
        assert_eq!(meter(0.0), "[####################]    0 dBFS");
        assert!((dbfs(32768.0)).abs() < 1e-9);
        assert_eq!(dbfs(0.0), -100.0);
        assert!((rms(&[3, -3, 3, -3]) - 3.0).abs() < 1e-9);
    }
}
