//! [`SpeechWorker`]: a backend on its own thread, fed through a channel,
//! with the priorities screen readers use.
//!
//! - [`Priority::Now`] stops what is being said and is spoken at once; the
//!   interrupted utterance is spoken again afterwards, from its start (NVDA
//!   resumes interrupted speech the same way), so no move is ever lost.
//! - [`Priority::Next`] is spoken when the current utterance ends, before
//!   every queued [`Priority::Normal`] one.
//! - Within a priority, the queue keeps its order.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use super::{SpeechError, SpeechOutput, VoiceParams};
use crate::utterance::{Priority, Utterance};

/// How often the thread asks the backend whether it is still speaking.
const POLL: Duration = Duration::from_millis(5);

enum Msg {
    Say(Utterance),
    CancelAll,
    Params(VoiceParams),
    WhenIdle(Sender<()>),
}

/// A speech backend running on its own thread. Dropping it stops the
/// thread after cancelling what is being said.
pub struct SpeechWorker {
    tx: Option<Sender<Msg>>,
    thread: Option<JoinHandle<()>>,
    errors: Arc<Errors>,
    name: &'static str,
}

/// What the thread reports, and who is told when it does.
#[derive(Default)]
struct Errors {
    list: Mutex<Vec<SpeechError>>,
    alarm: Mutex<Option<Alarm>>,
}

/// Called when the backend reports an error (see [`SpeechWorker::on_error`]).
pub type Alarm = Arc<dyn Fn() + Send + Sync>;

impl std::fmt::Debug for SpeechWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpeechWorker")
            .field("backend", &self.name)
            .finish_non_exhaustive()
    }
}

#[derive(Default)]
struct Queues {
    now: VecDeque<Utterance>,
    next: VecDeque<Utterance>,
    normal: VecDeque<Utterance>,
}

impl Queues {
    fn of(&mut self, p: Priority) -> &mut VecDeque<Utterance> {
        match p {
            Priority::Now => &mut self.now,
            Priority::Next => &mut self.next,
            Priority::Normal => &mut self.normal,
        }
    }
    fn pop(&mut self) -> Option<Utterance> {
        self.now
            .pop_front()
            .or_else(|| self.next.pop_front())
            .or_else(|| self.normal.pop_front())
    }
    fn is_empty(&self) -> bool {
        self.now.is_empty() && self.next.is_empty() && self.normal.is_empty()
    }
    fn clear(&mut self) {
        self.now.clear();
        self.next.clear();
        self.normal.clear();
    }
}

impl SpeechWorker {
    /// Starts the thread and builds the backend on it with `make` (so
    /// backends that are not `Send`, like the `tts` crate's, can be used).
    ///
    /// # Errors
    /// The backend's own error when `make` fails.
    pub fn spawn<F>(make: F) -> Result<SpeechWorker, SpeechError>
    where
        F: FnOnce() -> Result<Box<dyn SpeechOutput>, SpeechError> + Send + 'static,
    {
        let (tx, rx) = mpsc::channel();
        let (ready_tx, ready_rx) = mpsc::channel();
        let errors: Arc<Errors> = Arc::default();
        let errs = Arc::clone(&errors);
        let thread = std::thread::Builder::new()
            .name("tandem-speech".into())
            .spawn(move || match make() {
                Ok(backend) => {
                    let _ = ready_tx.send(Ok(backend.name()));
                    run(backend, &rx, &errs);
                }
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                }
            })
            .map_err(|e| SpeechError::Failed(format!("cannot start the speech thread: {e}")))?;
        let name = ready_rx.recv().map_err(|_| SpeechError::Stopped)??;
        Ok(SpeechWorker {
            tx: Some(tx),
            thread: Some(thread),
            errors,
            name,
        })
    }

    /// The backend's name.
    #[must_use]
    pub fn backend_name(&self) -> &'static str {
        self.name
    }

    fn send(&self, m: Msg) -> Result<(), SpeechError> {
        self.tx
            .as_ref()
            .ok_or(SpeechError::Stopped)?
            .send(m)
            .map_err(|_| SpeechError::Stopped)
    }

    /// Queues (or, for [`Priority::Now`], speaks at once) an utterance.
    ///
    /// # Errors
    /// [`SpeechError::Stopped`] if the thread has ended.
    pub fn say(&self, u: Utterance) -> Result<(), SpeechError> {
        self.send(Msg::Say(u))
    }

    /// Stops speaking and forgets the queue.
    ///
    /// # Errors
    /// [`SpeechError::Stopped`] if the thread has ended.
    pub fn cancel_all(&self) -> Result<(), SpeechError> {
        self.send(Msg::CancelAll)
    }

    /// Changes rate, volume and voice for what is said from now on.
    ///
    /// # Errors
    /// [`SpeechError::Stopped`] if the thread has ended.
    pub fn set_params(&self, p: VoiceParams) -> Result<(), SpeechError> {
        self.send(Msg::Params(p))
    }

    /// Waits until everything queued has been spoken, at most `timeout`.
    /// Returns whether it is idle.
    #[must_use]
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let (tx, rx) = mpsc::channel();
        if self.send(Msg::WhenIdle(tx)).is_err() {
            return false;
        }
        rx.recv_timeout(timeout).is_ok()
    }

    /// Errors the backend reported since the last call (speech goes on after them).
    #[must_use]
    pub fn take_errors(&self) -> Vec<SpeechError> {
        std::mem::take(
            &mut *self
                .errors
                .list
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    /// Calls `alarm` (from the worker's thread) each time the backend
    /// reports an error, so that whoever takes them need not look on a timer.
    pub fn on_error(&self, alarm: Alarm) {
        *self
            .errors
            .alarm
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(alarm);
    }
}

impl Drop for SpeechWorker {
    fn drop(&mut self) {
        let _ = self.send(Msg::CancelAll);
        self.tx = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn run(mut backend: Box<dyn SpeechOutput>, rx: &Receiver<Msg>, errors: &Errors) {
    let report = |e: SpeechError| {
        errors
            .list
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(e);
        let alarm = errors
            .alarm
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        if let Some(a) = alarm {
            a();
        }
    };
    let mut q = Queues::default();
    let mut current: Option<Utterance> = None;
    let mut waiters: Vec<Sender<()>> = Vec::new();
    loop {
        let busy = current.is_some() || !q.is_empty();
        let msg = if busy {
            match rx.recv_timeout(POLL) {
                Ok(m) => Some(m),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match rx.recv() {
                Ok(m) => Some(m),
                Err(_) => break,
            }
        };
        // Take every message already waiting, so a burst is ordered as a whole.
        let mut msgs: Vec<Msg> = msg.into_iter().collect();
        msgs.extend(rx.try_iter());
        for m in msgs {
            match m {
                Msg::Say(u) if u.priority == Priority::Now => {
                    if let Some(c) = current.take() {
                        if let Err(e) = backend.cancel() {
                            report(e);
                        }
                        // Spoken again after the urgent message, from its start.
                        q.of(c.priority).push_front(c);
                    }
                    q.now.push_back(u);
                }
                Msg::Say(u) => q.of(u.priority).push_back(u),
                Msg::CancelAll => {
                    q.clear();
                    if current.take().is_some() {
                        if let Err(e) = backend.cancel() {
                            report(e);
                        }
                    }
                }
                Msg::Params(p) => {
                    if let Err(e) = backend.set_params(&p) {
                        report(e);
                    }
                }
                Msg::WhenIdle(tx) => waiters.push(tx),
            }
        }
        if current.is_some() && !backend.is_speaking() {
            current = None;
        }
        while current.is_none() {
            let Some(u) = q.pop() else { break };
            match backend.speak(&u) {
                Ok(()) => current = Some(u),
                Err(e) => report(e),
            }
        }
        if current.is_none() && q.is_empty() {
            for w in waiters.drain(..) {
                let _ = w.send(());
            }
        }
    }
    if current.is_some() {
        let _ = backend.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::recording::{Record, RecordingSpeech};
    use crate::Kind;

    fn u(p: Priority, t: &str) -> Utterance {
        Utterance::new(p, Kind::Move, vec![t.to_owned()])
    }

    /// Waits (at most 20 s) until the fake has recorded something for which
    /// `f` holds: the worker has handled every message sent before it.
    fn wait_record(rec: &RecordingSpeech, what: &str, f: impl Fn(&Record) -> bool) {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while !rec.records().iter().any(&f) {
            assert!(
                std::time::Instant::now() < deadline,
                "never recorded {what}: {:?}",
                rec.records()
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// A worker over a held fake (each utterance goes on until the test
    /// releases it), and the fake.
    fn held_worker() -> (RecordingSpeech, SpeechWorker) {
        let rec = RecordingSpeech::held();
        let r2 = rec.clone();
        let w = SpeechWorker::spawn(move || Ok(Box::new(r2) as Box<dyn SpeechOutput>)).unwrap();
        (rec, w)
    }

    /// A marker message: once its parameters are recorded, every message
    /// sent before it has been handled (the worker takes them in order).
    fn marker(w: &SpeechWorker, rec: &RecordingSpeech) {
        let p = VoiceParams {
            rate: -7,
            ..VoiceParams::for_language("xx")
        };
        w.set_params(p.clone()).unwrap();
        wait_record(rec, "the marker", |r| *r == Record::Params(p.clone()));
    }

    #[test]
    fn fake_backend_queue_keeps_order_and_next_goes_first() {
        // Held: the first utterance goes on until the test releases it.
        let (rec, w) = held_worker();
        // The first one starts at once; the rest queue: Next before Normal.
        w.say(u(Priority::Normal, "first normal, still speaking"))
            .unwrap();
        wait_record(&rec, "the first", |r| matches!(r, Record::Spoke(..)));
        w.say(u(Priority::Normal, "second normal")).unwrap();
        w.say(u(Priority::Next, "a move")).unwrap();
        // Both are queued (the marker after them is handled), then the first ends.
        marker(&w, &rec);
        rec.release();
        assert!(w.wait_idle(Duration::from_secs(20)));
        assert_eq!(
            rec.spoken(),
            ["first normal, still speaking", "a move", "second normal"]
        );
    }

    #[test]
    fn fake_backend_now_interrupts_and_the_interrupted_is_repeated() {
        let (rec, w) = held_worker();
        w.say(u(Priority::Next, "thirty-two, twenty-eight."))
            .unwrap();
        wait_record(&rec, "the move", |r| matches!(r, Record::Spoke(..)));
        // Still speaking (held) when the urgent one comes.
        w.say(u(Priority::Now, "flag")).unwrap();
        wait_record(&rec, "the flag", |r| {
            *r == Record::Spoke(Priority::Now, "flag".into())
        });
        rec.release();
        assert!(w.wait_idle(Duration::from_secs(20)));
        assert_eq!(
            rec.records(),
            [
                Record::Spoke(Priority::Next, "thirty-two, twenty-eight.".into()),
                Record::Interrupted("thirty-two, twenty-eight.".into()),
                Record::Spoke(Priority::Now, "flag".into()),
                Record::Spoke(Priority::Next, "thirty-two, twenty-eight.".into()),
            ]
        );
    }

    #[test]
    fn fake_backend_cancel_all_forgets_the_queue_and_params_pass_through() {
        // Held: "one two three four" cannot end (and let the next start)
        // before the cancel, however slowly this runs.
        let (rec, w) = held_worker();
        w.say(u(Priority::Normal, "one two three four")).unwrap();
        w.say(u(Priority::Normal, "never said")).unwrap();
        w.cancel_all().unwrap();
        let p = VoiceParams {
            rate: 40,
            ..VoiceParams::for_language("en")
        };
        w.set_params(p.clone()).unwrap();
        assert!(w.wait_idle(Duration::from_secs(20)));
        let r = rec.records();
        assert!(!rec.spoken().contains(&"never said".to_owned()), "{r:?}");
        assert_eq!(r.last(), Some(&Record::Params(p)));
    }

    /// A backend whose every utterance fails (a closed pipe, a dead server).
    struct Failing;

    impl SpeechOutput for Failing {
        fn name(&self) -> &'static str {
            "failing"
        }
        fn capabilities(&self) -> crate::output::Caps {
            crate::output::Caps::default()
        }
        fn speak(&mut self, _u: &Utterance) -> Result<(), SpeechError> {
            Err(SpeechError::Failed("the pipe is closed".into()))
        }
        fn is_speaking(&mut self) -> bool {
            false
        }
        fn cancel(&mut self) -> Result<(), SpeechError> {
            Ok(())
        }
        fn set_params(&mut self, _p: &VoiceParams) -> Result<(), SpeechError> {
            Ok(())
        }
    }

    #[test]
    fn an_error_rings_the_alarm_so_that_nobody_looks_on_a_timer() {
        let w = SpeechWorker::spawn(|| Ok(Box::new(Failing) as Box<dyn SpeechOutput>)).unwrap();
        let (tx, rx) = mpsc::channel();
        w.on_error(Arc::new(move || {
            let _ = tx.send(());
        }));
        w.say(u(Priority::Normal, "thirty-two, twenty-eight."))
            .unwrap();
        rx.recv_timeout(Duration::from_secs(20))
            .expect("the alarm rang");
        let errors = w.take_errors();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].to_string().contains("the pipe is closed"));
    }

    #[test]
    fn backend_that_fails_to_start_reports_why() {
        let e =
            SpeechWorker::spawn(|| Err(SpeechError::Unavailable("no server".into()))).unwrap_err();
        assert_eq!(e.to_string(), "speech unavailable: no server");
    }
}
