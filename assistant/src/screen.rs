//! The terminal screen for the sighted player and the assistant, plain and
//! line-oriented: it redraws on every change (board diagram, move list, both
//! clocks, the braille line in Unicode braille) and logs what tandem says.
//! Input is read as lines from stdin by `tandem play`, so it works the same
//! when stdin is not a terminal (tests, systemd).

use std::fmt::Write as _;
use std::time::Duration;

use tandem_braille::{BrailleRenderer, StandardRenderer, StatusInfo, View, Width};
use tandem_rules::chess::shakmaty::Position as _;
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

/// The board diagram and the braille line (list view, 40 cells) of a state.
fn board_and_braille(st: &StateView, status: &StatusInfo) -> Result<(String, String), String> {
    let mut s = String::new();
    let width = Width::new(40).map_err(|e| e.to_string())?;
    let _ = writeln!(s, "──────────────────────────────────────────");
    if st.variant == "chess" {
        let pos = tandem_rules::chess::from_fen(&st.fen).map_err(|e| e.to_string())?;
        let board = pos.board();
        for rank in (0..8u32).rev() {
            let line: String = (0..8u32)
                .map(|file| {
                    let sq = tandem_rules::chess::shakmaty::Square::from_coords(
                        tandem_rules::chess::shakmaty::File::new(file),
                        tandem_rules::chess::shakmaty::Rank::new(rank),
                    );
                    format!("{} ", board.piece_at(sq).map_or('.', |p| p.char()))
                })
                .collect();
            let _ = writeln!(s, "{:>3} │ {line}", rank + 1);
        }
        let _ = writeln!(s, "      a b c d e f g h");
        let braille = tandem_braille::chess::ChessRenderer::default()
            .render(&pos, status, View::List, width)
            .first()
            .map(|l| l.line.cells_string())
            .unwrap_or_default();
        return Ok((s, braille));
    }
    let variant: Variant = st.variant.parse().unwrap_or(Variant::International);
    let pos = Position::from_fen(variant, &st.fen).map_err(|e| e.to_string())?;
    let n = variant.size();
    for row in 0..n {
        let line: String = (0..n)
            .map(|c| format!("{} ", piece_char(&pos, row, c)))
            .collect();
        let first = (0..n)
            .find_map(|c| variant.square_at(row, c))
            .map_or(0, |q| q.number());
        let _ = writeln!(s, "{first:>3} │ {line}");
    }
    let braille = StandardRenderer::default()
        .render(&pos, status, View::List, width)
        .first()
        .map(|l| l.cells_string())
        .unwrap_or_default();
    Ok((s, braille))
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
