//! [`RecordingSpeech`]: a fake backend for unit tests. It records what it
//! was asked to do and pretends to speak for a time proportional to the text,
//! or ([`RecordingSpeech::held`]) until the test releases it, so that a test
//! never depends on how fast a loaded machine runs it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::{Caps, SpeechError, SpeechOutput, VoiceParams};
use crate::utterance::{Priority, Utterance};

/// What the fake was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// Started speaking this text at this priority.
    Spoke(Priority, String),
    /// Was stopped while speaking this text.
    Interrupted(String),
    /// Parameters set.
    Params(VoiceParams),
}

/// A recording fake. Clones share the record, so a test keeps one clone
/// while the worker thread owns another.
#[derive(Debug, Clone)]
pub struct RecordingSpeech {
    log: Arc<Mutex<Vec<Record>>>,
    per_char: Duration,
    current: Option<(String, Instant)>,
    /// Held mode: while true, what was started is still being spoken.
    hold: Option<Arc<AtomicBool>>,
}

impl RecordingSpeech {
    /// A fake that "speaks" each character for `per_char`.
    #[must_use]
    pub fn new(per_char: Duration) -> RecordingSpeech {
        RecordingSpeech {
            log: Arc::default(),
            per_char,
            current: None,
            hold: None,
        }
    }

    /// A fake whose utterances go on until [`RecordingSpeech::release`]
    /// (after which each ends at once): a test decides when speech ends.
    #[must_use]
    pub fn held() -> RecordingSpeech {
        RecordingSpeech {
            hold: Some(Arc::new(AtomicBool::new(true))),
            ..RecordingSpeech::new(Duration::ZERO)
        }
    }

    /// Held mode: ends what is being spoken, and everything said later ends
    /// at once. Does nothing to a fake made with [`RecordingSpeech::new`].
    pub fn release(&self) {
        if let Some(h) = &self.hold {
            h.store(false, Ordering::SeqCst);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Record>> {
        // A poisoned lock only means a test thread panicked; the records are still valid.
        self.log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Everything recorded so far.
    #[must_use]
    pub fn records(&self) -> Vec<Record> {
        self.lock().clone()
    }

    /// The texts started, in order.
    #[must_use]
    pub fn spoken(&self) -> Vec<String> {
        self.lock()
            .iter()
            .filter_map(|r| match r {
                Record::Spoke(_, t) => Some(t.clone()),
                _ => None,
            })
            .collect()
    }
}

impl SpeechOutput for RecordingSpeech {
    fn name(&self) -> &'static str {
        "recording"
    }

    fn capabilities(&self) -> Caps {
        Caps::ALL
    }

    fn speak(&mut self, u: &Utterance) -> Result<(), SpeechError> {
        let text = u.text();
        self.lock().push(Record::Spoke(u.priority, text.clone()));
        self.current = Some((text, Instant::now()));
        Ok(())
    }

    fn is_speaking(&mut self) -> bool {
        if let Some(h) = &self.hold {
            if !h.load(Ordering::SeqCst) {
                self.current = None;
            }
            return self.current.is_some();
        }
        match &self.current {
            Some((t, at)) if at.elapsed() < self.per_char * t.chars().count() as u32 => true,
            _ => {
                self.current = None;
                false
            }
        }
    }

    fn cancel(&mut self) -> Result<(), SpeechError> {
        if self.is_speaking() {
            if let Some((t, _)) = self.current.take() {
                self.lock().push(Record::Interrupted(t));
            }
        }
        Ok(())
    }

    fn set_params(&mut self, params: &VoiceParams) -> Result<(), SpeechError> {
        self.lock().push(Record::Params(params.clone()));
        Ok(())
    }
}
