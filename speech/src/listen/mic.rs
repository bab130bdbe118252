//! Microphone capture with cpal: 16 kHz mono i16 in frames
//! of 20 ms, resampled when the device will not do 16 kHz, and one
//! utterance at a time handed to a [`Recognizer`].

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use rubato::{FftFixedIn, Resampler};

use super::audio::{downmix, to_i16, Gate, VadEvent, FRAME};
use super::{ListenError, Recognizer, Transcript, SAMPLE_RATE};

/// An open microphone. Frames arrive on [`Microphone::frames`] until it is
/// dropped. (The cpal stream must stay on the thread that opened it.)
pub struct Microphone {
    _stream: cpal::Stream,
    /// 20 ms frames of 16 kHz mono audio.
    pub frames: Receiver<Vec<i16>>,
    /// The device's own rate (16000 when no resampling is needed).
    pub device_rate: u32,
    /// The device's channel count.
    pub device_channels: u16,
}

impl std::fmt::Debug for Microphone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Microphone")
            .field("device_rate", &self.device_rate)
            .finish_non_exhaustive()
    }
}

/// Turns the device's audio (any rate, any channels) into 20 ms frames at 16 kHz.
struct Converter {
    channels: usize,
    resampler: Option<FftFixedIn<f32>>,
    pending_in: Vec<f32>,
    pending_out: Vec<i16>,
    tx: SyncSender<Vec<i16>>,
}

impl Converter {
    fn push(&mut self, interleaved: &[f32]) {
        let mono = downmix(interleaved, self.channels);
        match &mut self.resampler {
            None => self.pending_out.extend(to_i16(&mono)),
            Some(r) => {
                self.pending_in.extend(mono);
                while self.pending_in.len() >= r.input_frames_next() {
                    let n = r.input_frames_next();
                    let chunk: Vec<f32> = self.pending_in.drain(..n).collect();
                    if let Ok(out) = r.process(&[chunk], None) {
                        if let Some(ch) = out.first() {
                            self.pending_out.extend(to_i16(ch));
                        }
                    }
                }
            }
        }
        while self.pending_out.len() >= FRAME {
            let frame: Vec<i16> = self.pending_out.drain(..FRAME).collect();
            // A full queue means nobody reads: dropping audio then is right.
            let _ = self.tx.try_send(frame);
        }
    }
}

impl Microphone {
    /// Opens the default input device (ALSA's `default` on Linux). Asks for
    /// 16 kHz mono; otherwise takes the device's default and converts.
    ///
    /// # Errors
    /// No input device, or it cannot be opened.
    pub fn open_default() -> Result<Microphone, ListenError> {
        Microphone::open(None)
    }

    /// Opens the input device of this name (cpal's device name; on Linux an
    /// ALSA PCM with a hint, as `arecord -L` lists them), or the default one.
    ///
    /// # Errors
    /// No such input device, or it cannot be opened.
    pub fn open(name: Option<&str>) -> Result<Microphone, ListenError> {
        let host = cpal::default_host();
        let au = |e: &dyn std::fmt::Display| ListenError::Audio(e.to_string());
        let device = match name {
            None => host.default_input_device().ok_or_else(|| {
                ListenError::Audio("no input device (is a microphone connected?)".to_owned())
            })?,
            Some(want) => {
                let mut names = Vec::new();
                let mut found = None;
                for d in host.input_devices().map_err(|e| au(&e))? {
                    let n = d.name().unwrap_or_default();
                    if n == want {
                        found = Some(d);
                        break;
                    }
                    names.push(n);
                }
                found.ok_or_else(|| {
                    ListenError::Audio(format!(
                        "no input device named {want:?} (there are: {})",
                        names.join(", ")
                    ))
                })?
            }
        };
        let direct = device
            .supported_input_configs()
            .map_err(|e| au(&e))?
            .find(|c| {
                c.channels() == 1
                    && c.min_sample_rate().0 <= SAMPLE_RATE
                    && c.max_sample_rate().0 >= SAMPLE_RATE
                    && matches!(
                        c.sample_format(),
                        cpal::SampleFormat::I16 | cpal::SampleFormat::F32
                    )
            })
            .map(|c| c.with_sample_rate(cpal::SampleRate(SAMPLE_RATE)));
        let supported = match direct {
            Some(c) => c,
            None => device.default_input_config().map_err(|e| au(&e))?,
        };
        let config: cpal::StreamConfig = supported.config();
        let rate = config.sample_rate.0;
        let channels = config.channels;
        let resampler = if rate == SAMPLE_RATE {
            None
        } else {
            let chunk = (rate as usize / 50).max(1);
            Some(
                FftFixedIn::<f32>::new(rate as usize, SAMPLE_RATE as usize, chunk, 2, 1)
                    .map_err(|e| au(&e))?,
            )
        };
        // About 10 s of frames queued at most.
        let (tx, rx) = mpsc::sync_channel(500);
        let mut conv = Converter {
            channels: usize::from(channels),
            resampler,
            pending_in: Vec::new(),
            pending_out: Vec::new(),
            tx,
        };
        // Not eprintln!: a stderr that cannot be written (a full disk, a
        // file-size limit) must not panic the audio thread.
        let err_fn = |e: cpal::StreamError| {
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "tandem: microphone: {e}");
        };
        let stream = match supported.sample_format() {
            cpal::SampleFormat::I16 => device.build_input_stream(
                &config,
                move |data: &[i16], _: &cpal::InputCallbackInfo| {
                    let f: Vec<f32> = data.iter().map(|&s| f32::from(s) / 32768.0).collect();
                    conv.push(&f);
                },
                err_fn,
                None,
            ),
            cpal::SampleFormat::F32 => device.build_input_stream(
                &config,
                move |data: &[f32], _: &cpal::InputCallbackInfo| conv.push(data),
                err_fn,
                None,
            ),
            other => {
                return Err(ListenError::Audio(format!(
                    "unsupported sample format {other}"
                )))
            }
        }
        .map_err(|e| au(&e))?;
        stream.play().map_err(|e| au(&e))?;
        Ok(Microphone {
            _stream: stream,
            frames: rx,
            device_rate: rate,
            device_channels: channels,
        })
    }
}

/// What [`listen_once`] measured about the utterance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UtteranceTiming {
    /// Length of the audio fed to the recognizer.
    pub audio: Duration,
    /// From the endpoint (end of speech detected) to the transcripts.
    pub decode_after_end: Duration,
}

/// Waits for one utterance on `frames`, feeding it to `rec` as it is
/// spoken, and returns its transcripts. Gives up after `timeout` without a
/// finished utterance (returns no transcripts).
///
/// # Errors
/// The recognizer fails.
pub fn listen_once(
    rec: &mut dyn Recognizer,
    frames: &Receiver<Vec<i16>>,
    gate: &mut Gate,
    timeout: Duration,
) -> Result<(Vec<Transcript>, Option<UtteranceTiming>), ListenError> {
    let deadline = Instant::now() + timeout;
    let mut fed = 0usize;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let frame = match frames.recv_timeout(left) {
            Ok(f) => f,
            Err(RecvTimeoutError::Timeout) => return Ok((Vec::new(), None)),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(ListenError::Audio("the microphone stopped".to_owned()));
            }
        };
        match gate.push(&frame) {
            VadEvent::Silence => {}
            VadEvent::Speech(audio) => {
                fed += audio.len();
                rec.accept(&audio)?;
            }
            VadEvent::Abandoned => {
                // Tandem spoke over it: the audio may hold its own voice.
                rec.finish()?;
                fed = 0;
            }
            VadEvent::End => {
                if fed == 0 {
                    continue;
                }
                let t = Instant::now();
                let out = rec.finish()?;
                let timing = UtteranceTiming {
                    audio: Duration::from_secs_f64(fed as f64 / f64::from(SAMPLE_RATE)),
                    decode_after_end: t.elapsed(),
                };
                return Ok((out, Some(timing)));
            }
        }
    }
}
