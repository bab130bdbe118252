//! Audio between the microphone and the recognizer: where an utterance
//! starts and ends (energy-based endpointing), muting while tandem itself
//! speaks, push-to-talk, and sample conversions.
//!
//! Endpointing thresholds (frames of 20 ms at 16 kHz):
//!
//! | what | value |
//! | --- | --- |
//! | speech starts | 3 frames in a row (60 ms) louder than -40 dBFS RMS |
//! | speech ends | 30 frames in a row (600 ms) quieter than -45 dBFS RMS |
//! | speech ends, the words so far a whole phrase | 5 frames (100 ms) |
//! | kept before the start | 10 frames (200 ms), so soft first consonants are not cut |
//! | longest utterance | 10 s, then it is ended anyway |
//!
//! The gap between the two levels (hysteresis) keeps a word's quiet tail
//! from ending the utterance. After the shorter wait the listener asks the
//! recognizer for its final result so far ([`Recognizer::finish_early`],
//! exact once the words are in); if those words are a whole phrase of the
//! grammar that no longer phrase continues ([`ListenGame::is_complete`]), the
//! utterance ends there: the player waits for the read-back a sixth as
//! long. Otherwise the utterance goes on: a pause inside a phrase still gets
//! the full 600 ms, and the listener feeds the recognizer the utterance again
//! from its start if speech resumes. So a pause of 100 ms or more inside a
//! move costs one final decode (a few ms) and, when the player goes on, one
//! decode of the utterance again (about 20 ms per second of audio); it never
//! ends the move early unless the words before it are already a whole
//! phrase that no longer phrase continues ("33 20" where "33 29" may follow
//! waits, a capture's squares where the captured ones may follow wait).
//! cpal hands the audio over in ALSA periods (25 ms by default on a sound
//! card, 100 ms from the test microphone's file plugin), so a whole phrase
//! ends 100-125 ms after its last word on a sound card. A headset microphone at a tournament
//! table gives speech around -25 to -15 dBFS and room noise below -50.
//!
//! [`Recognizer::finish_early`]: super::Recognizer::finish_early
//! [`ListenGame::is_complete`]: super::ListenGame::is_complete

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Samples in one 20 ms frame at 16 kHz.
pub const FRAME: usize = 320;

/// Endpointing thresholds; see the module docs for the defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VadConfig {
    /// RMS level (dBFS) a frame must exceed to count as speech.
    pub start_db: f32,
    /// Frames in a row above `start_db` that start an utterance.
    pub start_frames: usize,
    /// RMS level (dBFS) below which a frame counts as silence.
    pub end_db: f32,
    /// Frames in a row below `end_db` that end an utterance.
    pub end_frames: usize,
    /// Frames in a row below `end_db` that end an utterance whose words so
    /// far are a whole phrase (the listener checks; see the module docs).
    pub end_frames_complete: usize,
    /// Frames kept from before the start.
    pub preroll_frames: usize,
    /// Frames after which an utterance is ended anyway.
    pub max_frames: usize,
}

impl Default for VadConfig {
    fn default() -> VadConfig {
        VadConfig {
            start_db: -40.0,
            start_frames: 3,
            end_db: -45.0,
            end_frames: 30,
            end_frames_complete: 5,
            preroll_frames: 10,
            max_frames: 500,
        }
    }
}

/// What a frame meant.
#[derive(Debug, Clone, PartialEq)]
pub enum VadEvent {
    /// Nothing is being said.
    Silence,
    /// Audio of an utterance, to feed to the recognizer (the first one of an
    /// utterance carries the pre-roll).
    Speech(Vec<i16>),
    /// The utterance ended: ask the recognizer for its result.
    End,
    /// The utterance was cut off by muting: throw away what was fed.
    Abandoned,
}

/// RMS level of samples in dBFS (-120 for silence).
#[must_use]
pub fn rms_db(samples: &[i16]) -> f32 {
    if samples.is_empty() {
        return -120.0;
    }
    let sum: f64 = samples.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
    let rms = (sum / samples.len() as f64).sqrt() / 32768.0;
    if rms <= 1e-6 {
        -120.0
    } else {
        (20.0 * rms.log10()) as f32
    }
}

/// Energy-based endpointer.
#[derive(Debug, Clone)]
pub struct Endpointer {
    cfg: VadConfig,
    preroll: VecDeque<Vec<i16>>,
    loud_run: usize,
    quiet_run: usize,
    in_speech: bool,
    frames: usize,
}

impl Endpointer {
    /// An endpointer with these thresholds.
    #[must_use]
    pub fn new(cfg: VadConfig) -> Endpointer {
        Endpointer {
            cfg,
            preroll: VecDeque::new(),
            loud_run: 0,
            quiet_run: 0,
            in_speech: false,
            frames: 0,
        }
    }

    /// Whether an utterance is in progress.
    #[must_use]
    pub fn in_speech(&self) -> bool {
        self.in_speech
    }

    /// Quiet frames in a row so far in the utterance.
    #[must_use]
    pub fn quiet_frames(&self) -> usize {
        if self.in_speech {
            self.quiet_run
        } else {
            0
        }
    }

    /// The thresholds.
    #[must_use]
    pub fn config(&self) -> &VadConfig {
        &self.cfg
    }

    /// Forgets everything (after muting, or a push-to-talk release).
    pub fn reset(&mut self) {
        self.preroll.clear();
        self.loud_run = 0;
        self.quiet_run = 0;
        self.in_speech = false;
        self.frames = 0;
    }

    /// Takes one frame (any length; 20 ms is what the thresholds assume).
    pub fn push(&mut self, frame: &[i16]) -> VadEvent {
        let db = rms_db(frame);
        if self.in_speech {
            self.frames += 1;
            self.quiet_run = if db < self.cfg.end_db {
                self.quiet_run + 1
            } else {
                0
            };
            if self.quiet_run >= self.cfg.end_frames || self.frames >= self.cfg.max_frames {
                self.reset();
                return VadEvent::End;
            }
            return VadEvent::Speech(frame.to_vec());
        }
        self.preroll.push_back(frame.to_vec());
        while self.preroll.len() > self.cfg.preroll_frames + self.cfg.start_frames {
            self.preroll.pop_front();
        }
        self.loud_run = if db > self.cfg.start_db {
            self.loud_run + 1
        } else {
            0
        };
        if self.loud_run >= self.cfg.start_frames {
            self.in_speech = true;
            self.quiet_run = 0;
            self.frames = self.preroll.len();
            let audio = self.preroll.drain(..).flatten().collect();
            return VadEvent::Speech(audio);
        }
        VadEvent::Silence
    }
}

/// A switch the daemon flips while tandem itself speaks, so the microphone
/// does not hear the announcement. Cloning shares the switch.
#[derive(Debug, Clone, Default)]
pub struct MuteSwitch(Arc<AtomicBool>);

impl MuteSwitch {
    /// Stop listening (call before speaking).
    pub fn mute(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    /// Listen again (call when speech output has finished).
    pub fn unmute(&self) {
        self.0.store(false, Ordering::SeqCst);
    }
    /// Whether listening is stopped.
    #[must_use]
    pub fn is_muted(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// The push-to-talk key: the utterance is what is said while it is held.
/// Cloning shares the key.
#[derive(Debug, Clone, Default)]
pub struct PushToTalk(Arc<AtomicBool>);

impl PushToTalk {
    /// The key went down.
    pub fn press(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    /// The key went up: the utterance ends.
    pub fn release(&self) {
        self.0.store(false, Ordering::SeqCst);
    }
    /// Whether the key is held.
    #[must_use]
    pub fn is_pressed(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// How utterances are delimited.
#[derive(Debug, Clone)]
pub enum Mode {
    /// By voice activity.
    Voice(VadConfig),
    /// By a push-to-talk key.
    PushToTalk(PushToTalk),
}

/// Frames in, recognizer input out: applies the mode and the mute switch.
#[derive(Debug)]
pub struct Gate {
    mode: Mode,
    mute: MuteSwitch,
    vad: Endpointer,
    talking: bool,
}

impl Gate {
    /// A gate for this mode, obeying `mute`.
    #[must_use]
    pub fn new(mode: Mode, mute: MuteSwitch) -> Gate {
        let cfg = match &mode {
            Mode::Voice(c) => *c,
            Mode::PushToTalk(_) => VadConfig::default(),
        };
        Gate {
            mode,
            mute,
            vad: Endpointer::new(cfg),
            talking: false,
        }
    }

    /// In voice mode, when the utterance in progress has been quiet for at
    /// least [`VadConfig::end_frames_complete`] frames (and the full wait is
    /// not over): the moment to ask whether its words are already a whole
    /// phrase ([`Recognizer::finish_early`](super::Recognizer::finish_early)).
    #[must_use]
    pub fn may_end_early(&self) -> bool {
        let c = self.vad.config();
        let q = self.vad.quiet_frames();
        matches!(self.mode, Mode::Voice(_)) && q >= c.end_frames_complete && q < c.end_frames
    }

    /// Quiet frames in a row so far in the utterance in progress (voice
    /// mode): 0 on a frame that was not quiet.
    #[must_use]
    pub fn quiet_frames(&self) -> usize {
        self.vad.quiet_frames()
    }

    /// Ends the utterance in progress now (its words are a whole phrase):
    /// the caller finishes it as on [`VadEvent::End`].
    pub fn end_now(&mut self) {
        self.vad.reset();
    }

    /// Takes one frame. While muted everything is dropped and an utterance
    /// in progress is abandoned (it would contain tandem's own voice).
    pub fn push(&mut self, frame: &[i16]) -> VadEvent {
        if self.mute.is_muted() {
            let was = self.vad.in_speech() || self.talking;
            self.vad.reset();
            self.talking = false;
            return if was {
                VadEvent::Abandoned
            } else {
                VadEvent::Silence
            };
        }
        match &self.mode {
            Mode::Voice(_) => self.vad.push(frame),
            Mode::PushToTalk(key) => {
                let held = key.is_pressed();
                match (held, self.talking) {
                    (true, _) => {
                        self.talking = true;
                        VadEvent::Speech(frame.to_vec())
                    }
                    (false, true) => {
                        self.talking = false;
                        VadEvent::End
                    }
                    (false, false) => VadEvent::Silence,
                }
            }
        }
    }
}

/// Averages interleaved channels to mono.
#[must_use]
pub fn downmix(interleaved: &[f32], channels: usize) -> Vec<f32> {
    if channels <= 1 {
        return interleaved.to_vec();
    }
    interleaved
        .chunks(channels)
        .map(|c| c.iter().sum::<f32>() / c.len() as f32)
        .collect()
}

/// Changes the sample rate by linear interpolation (for files; no
/// anti-alias filter, which speech files at 22-48 kHz hardly need for a
/// recognizer that only looks below 8 kHz).
#[must_use]
pub fn resample_linear(input: &[f32], from: u32, to: u32) -> Vec<f32> {
    if from == to || input.is_empty() || from == 0 {
        return input.to_vec();
    }
    let ratio = f64::from(from) / f64::from(to);
    let n = ((input.len() as f64) / ratio).floor() as usize;
    (0..n)
        .map(|i| {
            let x = i as f64 * ratio;
            let j = x.floor() as usize;
            let frac = (x - j as f64) as f32;
            let a = input[j.min(input.len() - 1)];
            let b = input[(j + 1).min(input.len() - 1)];
            a + (b - a) * frac
        })
        .collect()
}

/// f32 in -1..1 to i16, clipping.
#[must_use]
pub fn to_i16(samples: &[f32]) -> Vec<i16> {
    samples
        .iter()
        .map(|&s| (s.clamp(-1.0, 1.0) * 32767.0).round() as i16)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(frames: usize, amp: f32) -> Vec<Vec<i16>> {
        (0..frames)
            .map(|f| {
                (0..FRAME)
                    .map(|i| {
                        let t = (f * FRAME + i) as f32 / 16_000.0;
                        (amp * (2.0 * std::f32::consts::PI * 440.0 * t).sin() * 32767.0) as i16
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn endpointer_finds_one_utterance_with_preroll() {
        let mut ep = Endpointer::new(VadConfig::default());
        let mut events = Vec::new();
        for f in tone(20, 0.0)
            .iter()
            .chain(&tone(50, 0.3))
            .chain(&tone(40, 0.0))
        {
            events.push(ep.push(f));
        }
        let starts: Vec<usize> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, VadEvent::Speech(a) if a.len() > FRAME))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(starts, vec![22], "speech starts on the third loud frame");
        let VadEvent::Speech(first) = &events[22] else {
            unreachable!()
        };
        assert_eq!(
            first.len(),
            13 * FRAME,
            "10 frames of pre-roll plus the 3 loud ones"
        );
        let ends: Vec<usize> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| **e == VadEvent::End)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(ends, vec![70 + 29], "ends after 600 ms of silence");
    }

    #[test]
    fn a_click_does_not_start_an_utterance() {
        let mut ep = Endpointer::new(VadConfig::default());
        for f in tone(2, 0.5).iter().chain(&tone(30, 0.0)) {
            assert_eq!(ep.push(f), VadEvent::Silence);
        }
    }

    #[test]
    fn muting_drops_speech_and_abandons_the_utterance() {
        let mute = MuteSwitch::default();
        let mut gate = Gate::new(Mode::Voice(VadConfig::default()), mute.clone());
        let loud = tone(5, 0.3);
        assert!(matches!(gate.push(&loud[0]), VadEvent::Silence));
        assert!(matches!(gate.push(&loud[1]), VadEvent::Silence));
        assert!(matches!(gate.push(&loud[2]), VadEvent::Speech(_)));
        mute.mute();
        assert_eq!(gate.push(&loud[3]), VadEvent::Abandoned);
        assert_eq!(gate.push(&loud[4]), VadEvent::Silence);
        mute.unmute();
        assert_eq!(
            gate.push(&loud[4]),
            VadEvent::Silence,
            "a new utterance needs 3 loud frames again"
        );
    }

    #[test]
    fn push_to_talk_delimits_by_the_key() {
        let key = PushToTalk::default();
        let mut gate = Gate::new(Mode::PushToTalk(key.clone()), MuteSwitch::default());
        let quiet = tone(1, 0.0).remove(0);
        assert_eq!(gate.push(&quiet), VadEvent::Silence);
        key.press();
        assert_eq!(
            gate.push(&quiet),
            VadEvent::Speech(quiet.clone()),
            "even quiet audio counts while held"
        );
        key.release();
        assert_eq!(gate.push(&quiet), VadEvent::End);
        assert_eq!(gate.push(&quiet), VadEvent::Silence);
    }

    #[test]
    fn conversions() {
        assert_eq!(downmix(&[1.0, 0.0, 0.5, 0.5], 2), vec![0.5, 0.5]);
        assert_eq!(
            resample_linear(&[0.0; 48_000], 48_000, 16_000).len(),
            16_000
        );
        assert_eq!(to_i16(&[2.0, -2.0, 0.0]), vec![32767, -32767, 0]);
        assert!(rms_db(&[0; 10]) < -100.0);
        assert!((rms_db(&[16384; 10]) + 6.02).abs() < 0.1);
    }
}
