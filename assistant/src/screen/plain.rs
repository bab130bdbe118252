//! The plain screen, for a screen reader: nothing is redrawn and no
//! cursor moves. Each thing said is one line starting with `» `, each
//! thing that changed (a move in the record, a board's sync state, the
//! clock stopped or running, the result, the journal's health) one line,
//! then the prompt.

use tandem_rules::Color;

use super::state::{side_name, BoardSync};
use crate::session::{Notice, StateView};

/// What the plain screen remembers of the last state, to tell what changed.
#[derive(Debug, Default)]
pub struct Plain {
    last: Option<StateView>,
}

fn sync(st: &StateView, side: Color) -> BoardSync {
    let b = match side {
        Color::White => &st.boards.white,
        Color::Black => &st.boards.black,
    };
    if st.screen.differ {
        BoardSync::Differ
    } else if b.behind > 0 {
        BoardSync::Behind(b.behind)
    } else {
        BoardSync::InSync
    }
}

impl Plain {
    /// The lines for a notice (none when nothing shown changed).
    pub fn lines(&mut self, notice: Notice) -> Vec<String> {
        match notice {
            Notice::Speech { text, .. } => vec![format!("» {}", one_line(&text))],
            Notice::Device { text, .. } => vec![one_line(&text)],
            // The code, said; its QR code is on the full screen.
            Notice::Pairing {
                side,
                code,
                url,
                fingerprint,
                ..
            } => vec![format!(
                "Pairing code for {}: {code}, at {url}{}",
                side_name(side),
                fingerprint
                    .map(|f| format!(", certificate SHA-256 {f}"))
                    .unwrap_or_default()
            )],
            Notice::State(st) => {
                let out = self.changes(&st);
                self.last = Some(*st);
                out
            }
        }
    }

    fn changes(&self, st: &StateView) -> Vec<String> {
        let mut out = Vec::new();
        let Some(old) = &self.last else {
            out.push(format!(
                "{}, clock {}, {} to move",
                st.variant,
                st.clocks.control,
                side_name(st.turn)
            ));
            if let Some(l) = st.screen.record.last() {
                out.push(format!("moves: {l}"));
            }
            return out;
        };
        if st.ply > old.ply {
            if let Some(l) = st.screen.record.last() {
                out.push(format!("moves: {l}"));
            }
        } else if st.ply < old.ply {
            out.push(format!(
                "moves: taken back to {}",
                st.screen.record.last().map_or("the start", String::as_str)
            ));
        }
        for side in [Color::White, Color::Black] {
            let (was, is) = (sync(old, side), sync(st, side));
            if was != is {
                out.push(format!("{}'s board: {is}", side_name(side)));
            }
        }
        let stopped = |s: &StateView| s.clocks.paused && s.result.is_none();
        if stopped(st) != stopped(old) {
            out.push(
                if stopped(st) {
                    "clock stopped"
                } else {
                    "clock running"
                }
                .to_owned(),
            );
        }
        for (side, was, is) in [
            (Color::White, &old.clocks.white, &st.clocks.white),
            (Color::Black, &old.clocks.black, &st.clocks.black),
        ] {
            if is.flag_ms.is_some() && was.flag_ms.is_none() {
                out.push(format!("flag: {} is out of time", side_name(side)));
            }
        }
        if st.result != old.result {
            if let Some(r) = &st.result {
                out.push(format!("result {r}"));
            }
        }
        if st.journal_health.ok != old.journal_health.ok {
            out.push(
                if st.journal_health.ok {
                    "journal: every line on disk again"
                } else {
                    "journal unhealthy: lines kept in memory"
                }
                .to_owned(),
            );
        }
        out
    }
}

/// Words on one line (an utterance of several sentences never breaks).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::state::tests::view;

    #[test]
    fn one_line_for_each_thing_that_changed() {
        let mut p = Plain::default();
        let first = p.lines(Notice::State(Box::new(view(300_000, 300_000))));
        assert_eq!(first, ["international, clock 5m, White to move"]);
        // The clocks alone changed: nothing to say.
        assert!(p
            .lines(Notice::State(Box::new(view(299_000, 300_000))))
            .is_empty());
        let mut v = view(299_000, 300_000);
        v.ply = 1;
        v.turn = Color::Black;
        v.screen.record = vec!["1. 32-28".into()];
        v.boards.black.behind = 1;
        assert_eq!(
            p.lines(Notice::State(Box::new(v.clone()))),
            ["moves: 1. 32-28", "Black's board: behind by 1"]
        );
        v.clocks.paused = true;
        v.screen.differ = true;
        assert_eq!(
            p.lines(Notice::State(Box::new(v))),
            [
                "White's board: DIFFERS",
                "Black's board: DIFFERS",
                "clock stopped"
            ]
        );
        let said = Notice::Speech {
            priority: tandem_speech::Priority::Next,
            kind: tandem_speech::Kind::Move,
            text: "Thirty-two,\ntwenty-eight.".into(),
            to: vec![],
        };
        assert_eq!(p.lines(said), ["» Thirty-two, twenty-eight."]);
    }
}
