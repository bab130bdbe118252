//! What the screen knows: the last state the session sent, when it came
//! (the running clock is counted down locally from it), the last things
//! said, and the alerts. No drawing here: `layout` draws it, `plain`
//! writes it as lines.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use tandem_rules::Color;
use tandem_speech::{Kind, Priority};

use crate::session::{Notice, StateView};

/// How many things said are kept.
const SAID: usize = 50;
/// How long an urgent utterance stays among the alerts.
const URGENT_FOR: Duration = Duration::from_secs(30);
/// A refusal this soon after a typed line answers it (not an alert).
const ANSWER_WITHIN: Duration = Duration::from_secs(3);

/// One line of the log of things said (or typed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// What it was about.
    pub kind: Option<Kind>,
    /// Typed at this screen (shown as such), not said by tandem.
    pub typed: bool,
    /// The words.
    pub text: String,
}

/// The screen's state.
#[derive(Debug, Default)]
pub struct ScreenState {
    /// The last state, and when it came.
    pub view: Option<(StateView, Instant)>,
    /// The last things said, oldest first.
    pub said: VecDeque<Said>,
    /// The last urgent utterance (a device lost, the journal, a flag) and when.
    pub urgent: Option<(String, Instant)>,
    /// The first line: the journal and the control socket.
    pub header: String,
    /// When a line was last typed here.
    pub typed_at: Option<Instant>,
    /// Devices lost, and what happened to them.
    pub lost: std::collections::BTreeMap<String, String>,
    /// The last pairing code made, shown until it expires.
    pub pairing: Option<Pairing>,
}

/// A pairing code on the screen (`tandem ctl pair SIDE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// For which side's device.
    pub side: Color,
    /// Six digits.
    pub code: String,
    /// The page's address.
    pub url: String,
    /// Over TLS: the certificate's fingerprint.
    pub fingerprint: Option<String>,
    /// Shown until then.
    pub until: Instant,
}

/// A board's sync state as shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardSync {
    /// It shows the record's position.
    InSync,
    /// It lacks this many plies.
    Behind(u32),
    /// A board read back differs from the record.
    Differ,
}

impl std::fmt::Display for BoardSync {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardSync::InSync => f.write_str("in sync"),
            BoardSync::Behind(n) => write!(f, "behind by {n}"),
            BoardSync::Differ => f.write_str("DIFFERS"),
        }
    }
}

/// The name of a side.
#[must_use]
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A clock's time as shown (`1:29:58`, `4:59`).
#[must_use]
pub fn clock_text(ms: u64) -> String {
    tandem_braille::view::format_clock(Some(Duration::from_millis(ms)))
}

impl ScreenState {
    /// Takes in a notice. Returns whether anything shown changed.
    pub fn apply(&mut self, notice: Notice, now: Instant) -> bool {
        match notice {
            Notice::State(st) => {
                self.view = Some((*st, now));
            }
            Notice::Speech {
                priority,
                kind,
                text,
                ..
            } => {
                // Urgent words are alerts (a device lost, the journal, a
                // flag), but not the refusal of a line just typed here.
                let answer = kind == Kind::Rejection
                    && self
                        .typed_at
                        .is_some_and(|t| now.saturating_duration_since(t) < ANSWER_WITHIN);
                if priority == Priority::Now && !answer {
                    self.urgent = Some((text.clone(), now));
                }
                self.push(Said {
                    kind: Some(kind),
                    typed: false,
                    text,
                });
            }
            Notice::Pairing {
                side,
                code,
                url,
                expires_ms,
                fingerprint,
            } => {
                self.pairing = Some(Pairing {
                    side,
                    code,
                    url,
                    fingerprint,
                    until: now + Duration::from_millis(expires_ms),
                });
            }
            Notice::Device { device, ok, text } => {
                if ok {
                    self.lost.remove(&device);
                    self.urgent = Some((text, now));
                } else {
                    self.lost.insert(device, text);
                }
            }
        }
        true
    }

    /// The pairing code shown now, if one is still good.
    #[must_use]
    pub fn pairing_shown(&self, now: Instant) -> Option<&Pairing> {
        self.pairing.as_ref().filter(|p| now < p.until)
    }

    /// A line typed at this screen, kept in the log of things said.
    pub fn typed(&mut self, text: &str) {
        self.typed_at = Some(Instant::now());
        self.push(Said {
            kind: None,
            typed: true,
            text: text.to_owned(),
        });
    }

    fn push(&mut self, s: Said) {
        if self.said.len() == SAID {
            self.said.pop_front();
        }
        self.said.push_back(s);
    }

    /// The state, if one came.
    #[must_use]
    pub fn state(&self) -> Option<&StateView> {
        self.view.as_ref().map(|(v, _)| v)
    }

    /// The side whose clock runs now, if one does.
    #[must_use]
    pub fn running_side(&self) -> Option<Color> {
        let st = self.state()?;
        (st.clocks.running && !st.clocks.paused && st.result.is_none()).then_some(st.turn)
    }

    /// A side's remaining time now: the running clock counted down from
    /// the last state (the session sends one at each event, not each second).
    #[must_use]
    pub fn clock_ms(&self, side: Color, now: Instant) -> u64 {
        let Some((st, at)) = &self.view else {
            return 0;
        };
        let c = match side {
            Color::White => &st.clocks.white,
            Color::Black => &st.clocks.black,
        };
        if self.running_side() == Some(side) && c.flag_ms.is_none() {
            let gone =
                u64::try_from(now.saturating_duration_since(*at).as_millis()).unwrap_or(u64::MAX);
            c.remaining_ms.saturating_sub(gone)
        } else {
            c.remaining_ms
        }
    }

    /// A side's clock as the screen shows it: its time now, or `None` in a
    /// game without a clock (`--control none`: no running times).
    #[must_use]
    pub fn clock_shown(&self, side: Color, now: Instant) -> Option<u64> {
        let st = self.state()?;
        (st.clocks.control != tandem_rules::clock::NONE).then(|| self.clock_ms(side, now))
    }

    /// A board's sync state.
    #[must_use]
    pub fn sync(&self, side: Color) -> Option<BoardSync> {
        let st = self.state()?;
        let b = match side {
            Color::White => &st.boards.white,
            Color::Black => &st.boards.black,
        };
        Some(if st.screen.differ {
            BoardSync::Differ
        } else if b.behind > 0 {
            BoardSync::Behind(b.behind)
        } else {
            BoardSync::InSync
        })
    }

    /// What must stand out now, most urgent first.
    #[must_use]
    pub fn alerts(&self, now: Instant) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(st) = self.state() {
            if st.screen.differ {
                out.push("BOARDS DIFFER: clock stopped for the arbiter".to_owned());
            }
            for (side, c) in [
                (Color::White, &st.clocks.white),
                (Color::Black, &st.clocks.black),
            ] {
                if c.flag_ms.is_some() {
                    out.push(format!("FLAG: {} is out of time", side_name(side)));
                }
            }
            if !st.journal_health.ok {
                out.push("JOURNAL UNHEALTHY: lines kept in memory".to_owned());
            }
        }
        out.extend(self.lost.values().map(|t| format!("DEVICE LOST: {t}")));
        if let Some((text, at)) = &self.urgent {
            if now.saturating_duration_since(*at) < URGENT_FOR {
                out.push(text.clone());
            }
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::session::{BoardView, BoardsView, ClockView, ClocksView, ScreenView};

    /// A state as the session sends it: White's clock running.
    pub(crate) fn view(white_ms: u64, black_ms: u64) -> StateView {
        let clock = |ms| ClockView {
            remaining_ms: ms,
            used_ms: 0,
            moves: 0,
            flag_ms: None,
        };
        StateView {
            variant: "international".into(),
            fen: String::new(),
            ply: 0,
            turn: Color::White,
            moves: Vec::new(),
            clocks: ClocksView {
                white: clock(white_ms),
                black: clock(black_ms),
                running: true,
                paused: false,
                control: "5m".into(),
            },
            boards: BoardsView {
                white: BoardView { ply: 0, behind: 0 },
                black: BoardView { ply: 0, behind: 0 },
            },
            board: crate::game::picture_of_text("international", "W:W31-50:B1-20").unwrap(),
            result: None,
            outcome: None,
            draw_offer: None,
            t_ms: 0,
            journal: "j".into(),
            journal_seq: 0,
            journal_health: crate::journal::JournalHealth {
                ok: true,
                ..Default::default()
            },
            extra: serde_json::Map::new(),
            taps: crate::interface::Taps::default(),
            sight: None,
            screen: ScreenView::default(),
        }
    }

    #[test]
    fn only_the_running_clock_counts_down_between_notices() {
        let t0 = Instant::now();
        let mut s = ScreenState::default();
        s.apply(Notice::State(Box::new(view(300_000, 300_000))), t0);
        let later = t0 + Duration::from_millis(2_500);
        assert_eq!(s.clock_ms(Color::White, later), 297_500);
        assert_eq!(s.clock_ms(Color::Black, later), 300_000);
        assert_eq!(clock_text(s.clock_ms(Color::White, later)), "4:57");
        // Stopped: nothing runs.
        let mut v = view(300_000, 300_000);
        v.clocks.paused = true;
        s.apply(Notice::State(Box::new(v)), t0);
        assert_eq!(s.clock_ms(Color::White, later), 300_000);
        assert_eq!(s.running_side(), None);
    }

    #[test]
    fn a_game_without_a_clock_shows_no_times() {
        let t0 = Instant::now();
        let mut s = ScreenState::default();
        s.apply(Notice::State(Box::new(view(300_000, 300_000))), t0);
        assert_eq!(s.clock_shown(Color::White, t0), Some(300_000));
        let mut v = view(0, 0);
        v.clocks.control = "none".into();
        s.apply(Notice::State(Box::new(v)), t0);
        assert_eq!(s.clock_shown(Color::White, t0), None);
        assert_eq!(s.clock_shown(Color::Black, t0), None);
    }

    #[test]
    fn alerts_stand_for_differing_boards_a_flag_the_journal_and_urgent_words() {
        let t0 = Instant::now();
        let mut s = ScreenState::default();
        let mut v = view(0, 300_000);
        v.screen.differ = true;
        v.clocks.white.flag_ms = Some(300_000);
        v.journal_health.ok = false;
        v.boards.black.behind = 1;
        s.apply(Notice::State(Box::new(v)), t0);
        let a = s.alerts(t0);
        assert!(a[0].contains("BOARDS DIFFER"), "{a:?}");
        assert!(a[1].contains("White is out of time"), "{a:?}");
        assert!(a[2].contains("JOURNAL"), "{a:?}");
        assert_eq!(s.sync(Color::Black), Some(BoardSync::Differ));
        // A refusal of a line typed here answers it; a lost microphone is an alert.
        s.typed("32-27");
        let refused = Notice::Speech {
            priority: Priority::Now,
            kind: Kind::Rejection,
            text: "Illegal move.".into(),
            to: vec![],
        };
        s.apply(refused, Instant::now());
        assert_eq!(s.alerts(Instant::now()).len(), 3);
        let later = Instant::now() + ANSWER_WITHIN;
        let lost = Notice::Speech {
            priority: Priority::Now,
            kind: Kind::Rejection,
            text: "The microphone is lost.".into(),
            to: vec![],
        };
        s.apply(lost, later);
        assert_eq!(s.alerts(later)[3], "The microphone is lost.");
        assert_eq!(s.alerts(later + URGENT_FOR).len(), 3, "urgent words fade");
        assert_eq!(s.said.len(), 3);
        let braille = |ok, text: &str| Notice::Device {
            device: "braille".into(),
            ok,
            text: text.into(),
        };
        s.apply(braille(false, "braille display lost: gone"), later);
        assert!(s.alerts(later + URGENT_FOR)[3].contains("DEVICE LOST: braille display lost"));
        s.apply(braille(true, "braille display back"), later);
        assert_eq!(s.alerts(later)[3], "braille display back");
        assert_eq!(s.alerts(later + URGENT_FOR).len(), 3);
    }
}
