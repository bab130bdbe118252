//! The terminal screen for the sighted player and the assistant, plain and
//! line-oriented: it redraws on every change (board diagram, move list, both
//! clocks, the braille line in Unicode braille) and logs what tandem says.
//! Input is read as lines from stdin by `tandem play`, so it works the same
//! when stdin is not a terminal (tests, systemd).

use std::fmt::Write as _;
use std::time::Duration;

use tandem_braille::{BrailleRenderer, StandardRenderer, StatusInfo, View, Width};
use tandem_rules::{Color, Position, Role, Variant};

use crate::session::{Notice, StateView};

fn piece_char(pos: &Position, row: u8, col: u8) -> char {
    let v = pos.variant();
    match v.square_at(row, col) {
        None => ' ',
        Some(sq) => match pos.piece_at(sq) {
            None => '.',
            Some(p) => match (p.color, p.role) {
                (Color::White, Role::Man) => 'w',
                (Color::White, Role::King) => 'W',
                (Color::Black, Role::Man) => 'b',
                (Color::Black, Role::King) => 'B',
            },
        },
    }
}

fn clock(ms: u64) -> String {
    tandem_braille::render::format_clock(Some(Duration::from_millis(ms)))
}

/// The screen for a state, as text.
#[must_use]
pub fn render(st: &StateView) -> String {
    let mut s = String::new();
    let variant: Variant = st.variant.parse().unwrap_or(Variant::International);
    let Ok(pos) = Position::from_fen(variant, &st.fen) else {
        return format!("(cannot draw {})\n", st.fen);
    };
    let n = variant.size();
    let _ = writeln!(s, "──────────────────────────────────────────");
    for row in 0..n {
        let line: String = (0..n)
            .map(|c| format!("{} ", piece_char(&pos, row, c)))
            .collect();
        let first = (0..n)
            .find_map(|c| variant.square_at(row, c))
            .map_or(0, |q| q.number());
        let _ = writeln!(s, "{first:>3} │ {line}");
    }
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
    let status = StatusInfo {
        last_move: st.moves.last().cloned(),
        to_move: st.turn,
        white_clock: Some(Duration::from_millis(st.clocks.white.remaining_ms)),
        black_clock: Some(Duration::from_millis(st.clocks.black.remaining_ms)),
        white_behind: st.boards.white.behind,
        black_behind: st.boards.black.behind,
    };
    if let Ok(w) = Width::new(40) {
        if let Some(line) = StandardRenderer::default()
            .render(&pos, &status, View::List, w)
            .first()
        {
            let _ = writeln!(s, "Braille: {}", line.cells_string());
        }
    }
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
