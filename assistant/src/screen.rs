//! The terminal screen for the sighted player and the assistant, plain and
//! line-oriented: it redraws on every change (board diagram, move list, both
//! clocks, the braille line in Unicode braille) and logs what tandem says.
//! Input is read as lines from stdin by `tandem play`, so it works the same
//! when stdin is not a terminal (tests, systemd).

use std::fmt::Write as _;
use std::time::Duration;

use tandem_braille::{StatusInfo, Width};
use tandem_rules::Color;

use crate::session::{Notice, StateView};

fn clock(ms: u64) -> String {
    tandem_braille::render::format_clock(Some(Duration::from_millis(ms)))
}

/// The board diagram and the braille line (list view, 40 cells) of a state.
fn board_and_braille(st: &StateView, status: &StatusInfo) -> Result<(String, String), String> {
    let width = Width::new(40).map_err(|e| e.to_string())?;
    let (diagram, braille) = crate::game::screen_board(&st.variant, &st.fen, status, width)?;
    Ok((
        format!("──────────────────────────────────────────\n{diagram}"),
        braille,
    ))
}

/// The screen for a state, as text.
#[must_use]
pub fn render(st: &StateView) -> String {
    let status = StatusInfo {
        last_move: st.moves.last().cloned(),
        to_move: st.turn,
        white_clock: Some(Duration::from_millis(st.clocks.white.remaining_ms)),
        black_clock: Some(Duration::from_millis(st.clocks.black.remaining_ms)),
        white_behind: st.boards.white.behind,
        black_behind: st.boards.black.behind,
    };
    let (board, braille) = match board_and_braille(st, &status) {
        Ok(b) => b,
        Err(e) => return format!("(cannot draw {}: {e})\n", st.fen),
    };
    let mut s = board;
    let _ = writeln!(
        s,
        "White {}{}   Black {}{}   {}",
        clock(st.clocks.white.remaining_ms),
        if st.turn == Color::White {
            " ◀"
        } else {
            "  "
        },
        clock(st.clocks.black.remaining_ms),
        if st.turn == Color::Black {
            " ◀"
        } else {
            "  "
        },
        if st.clocks.paused {
            "CLOCK STOPPED"
        } else {
            ""
        }
    );
    let _ = writeln!(
        s,
        "Boards: white {} behind, black {} behind{}",
        st.boards.white.behind,
        st.boards.black.behind,
        st.result
            .as_deref()
            .map(|r| format!("   Result {r}"))
            .unwrap_or_default()
    );
    let moves: Vec<String> = st
        .moves
        .chunks(2)
        .enumerate()
        .map(|(i, p)| format!("{}. {}", i + 1, p.join(" ")))
        .collect();
    let tail = moves.len().saturating_sub(6);
    let _ = writeln!(s, "Moves: {}", moves[tail..].join("  "));
    let _ = writeln!(s, "Braille: {braille}");
    s.push_str("move> ");
    s
}

/// Draws the screen from the session's notices until the session ends.
pub async fn run(mut notices: tokio::sync::broadcast::Receiver<Notice>) {
    use std::io::Write;
    loop {
        let text = match notices.recv().await {
            Ok(Notice::State(st)) => format!("\n{}", render(&st)),
            Ok(Notice::Speech { text, .. }) => format!("\n» {text}\n"),
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
        };
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }
}
