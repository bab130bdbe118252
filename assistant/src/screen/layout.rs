//! The full screen's layout: a fixed grid that never scrolls. Top: the
//! header; left: the board diagram (the last move's squares marked `*`);
//! right: the clocks and whose move, each board's sync state, the alerts,
//! the moves so far; below: the last things said, the input line and
//! what Tab found. Each part shows only what fits (the newest lines).

use std::time::Instant;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Hue, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use tandem_rules::Color;

use super::input::LineEditor;
use super::state::{clock_text, side_name, BoardSync, ScreenState};

/// The prompt before the input line.
pub const PROMPT: &str = "move> ";

/// Draws the whole screen.
pub fn draw(f: &mut Frame, st: &ScreenState, line: &LineEditor, now: Instant) {
    let [head, main, braille, said, input, hint] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(8),
        Constraint::Length(3),
        Constraint::Length(8),
        Constraint::Length(3),
        Constraint::Length(1),
    ])
    .areas(f.area());
    f.render_widget(
        Paragraph::new(st.header.as_str()).style(Style::new().add_modifier(Modifier::DIM)),
        head,
    );
    let diagram = st.state().map(|s| s.screen.diagram.as_str()).unwrap_or("");
    let board_w = diagram
        .lines()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(20) as u16
        + 2;
    let [board, right] =
        Layout::horizontal([Constraint::Length(board_w.max(24)), Constraint::Min(30)]).areas(main);
    draw_board(f, st, board);
    let alerts = st.alerts(now);
    let [clocks, sync, alert, moves] = Layout::vertical([
        Constraint::Length(5),
        Constraint::Length(4),
        Constraint::Length(alerts.len().clamp(1, 4) as u16 + 2),
        Constraint::Min(3),
    ])
    .areas(right);
    draw_clocks(f, st, clocks, now);
    draw_sync(f, st, sync);
    draw_alerts(f, &alerts, alert);
    draw_moves(f, st, moves);
    draw_braille(f, st, braille, now);
    draw_said(f, st, said);
    draw_input(f, line, input);
    f.render_widget(
        Paragraph::new(line.hint.as_str()).style(Style::new().add_modifier(Modifier::DIM)),
        hint,
    );
}

fn draw_board(f: &mut Frame, st: &ScreenState, area: Rect) {
    let (title, text) = match st.state() {
        Some(s) => (format!(" {} ", s.variant), s.screen.diagram.clone()),
        None => (" board ".to_owned(), "waiting for the game…".to_owned()),
    };
    f.render_widget(
        Paragraph::new(text).block(Block::bordered().title(title)),
        area,
    );
}

fn draw_clocks(f: &mut Frame, st: &ScreenState, area: Rect, now: Instant) {
    let mut lines = Vec::new();
    if let Some(s) = st.state() {
        let running = st.running_side();
        for side in [Color::White, Color::Black] {
            let mut style = Style::new();
            if running == Some(side) {
                style = style.add_modifier(Modifier::BOLD | Modifier::REVERSED);
            }
            // `--control none`: no times to show.
            let time = st
                .clock_shown(side, now)
                .map_or_else(|| "no clock".to_owned(), clock_text);
            lines.push(Line::from(vec![
                Span::raw(format!("{:<6}", side_name(side))),
                Span::styled(format!(" {time:>8} "), style),
                Span::raw(if s.turn == side { " ◀" } else { "" }),
            ]));
        }
        let whose = match &s.result {
            Some(r) => format!("Result {r}"),
            None => format!("{} to move", side_name(s.turn)),
        };
        lines.push(Line::from(whose));
        if s.clocks.paused && s.result.is_none() {
            lines[2].push_span(Span::styled(
                "   CLOCK STOPPED",
                Style::new().fg(Hue::Yellow).add_modifier(Modifier::BOLD),
            ));
        }
    }
    let control = st
        .state()
        .map(|s| s.clocks.control.clone())
        .unwrap_or_default();
    f.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(format!(" clocks {control} "))),
        area,
    );
}

fn draw_sync(f: &mut Frame, st: &ScreenState, area: Rect) {
    let lines: Vec<Line> = [Color::White, Color::Black]
        .into_iter()
        .filter_map(|side| {
            let s = st.sync(side)?;
            let style = match s {
                BoardSync::InSync => Style::new().fg(Hue::Green),
                BoardSync::Behind(_) => Style::new().fg(Hue::Yellow),
                BoardSync::Differ => Style::new().fg(Hue::Red).add_modifier(Modifier::BOLD),
            };
            Some(Line::from(vec![
                Span::raw(format!("{}'s board: ", side_name(side))),
                Span::styled(s.to_string(), style),
            ]))
        })
        .collect();
    f.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" boards ")),
        area,
    );
}

fn draw_alerts(f: &mut Frame, alerts: &[String], area: Rect) {
    let style = Style::new()
        .fg(Hue::White)
        .bg(Hue::Red)
        .add_modifier(Modifier::BOLD);
    let lines: Vec<Line> = alerts
        .iter()
        .map(|a| Line::styled(format!("! {a}"), style))
        .collect();
    let block = Block::bordered().title(" alerts ");
    let block = if alerts.is_empty() {
        block
    } else {
        block.border_style(Style::new().fg(Hue::Red))
    };
    f.render_widget(
        Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
        area,
    );
}

fn draw_moves(f: &mut Frame, st: &ScreenState, area: Rect) {
    let record = st
        .state()
        .map(|s| s.screen.record.as_slice())
        .unwrap_or(&[]);
    let fits = usize::from(area.height.saturating_sub(2));
    let tail = &record[record.len().saturating_sub(fits)..];
    let lines: Vec<Line> = tail.iter().map(|l| Line::from(l.as_str())).collect();
    f.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" moves ")),
        area,
    );
}

/// What the blind player's display shows (the list view, 40 cells), from
/// the game registry.
fn draw_braille(f: &mut Frame, st: &ScreenState, area: Rect, now: Instant) {
    let line = st.state().map_or_else(String::new, |s| {
        let clock = |side| {
            st.clock_shown(side, now)
                .map(std::time::Duration::from_millis)
        };
        let status = tandem_braille::StatusInfo {
            last_move: s.moves.last().cloned(),
            to_move: s.turn,
            white_clock: clock(Color::White),
            black_clock: clock(Color::Black),
            white_behind: s.boards.white.behind,
            black_behind: s.boards.black.behind,
        };
        tandem_braille::Width::new(40)
            .map_err(|e| e.to_string())
            .and_then(|w| crate::game::screen_board(&s.variant, &s.fen, &status, w))
            .map_or_else(|e| format!("({e})"), |(_, braille)| braille)
    });
    f.render_widget(
        Paragraph::new(line).block(Block::bordered().title(" braille ")),
        area,
    );
}

fn draw_said(f: &mut Frame, st: &ScreenState, area: Rect) {
    let fits = usize::from(area.height.saturating_sub(2));
    let skip = st.said.len().saturating_sub(fits);
    let lines: Vec<Line> = st
        .said
        .iter()
        .skip(skip)
        .map(|s| {
            if s.typed {
                Line::styled(
                    format!("{PROMPT}{}", s.text),
                    Style::new().add_modifier(Modifier::DIM),
                )
            } else {
                Line::from(format!("» {}", s.text))
            }
        })
        .collect();
    f.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" said ")),
        area,
    );
}

fn draw_input(f: &mut Frame, line: &LineEditor, area: Rect) {
    let text = line.text();
    f.render_widget(
        Paragraph::new(format!("{PROMPT}{text}")).block(
            Block::bordered().title(" type a move or a command (Tab completes, Up/Down: history) "),
        ),
        area,
    );
    let col = area.x + 1 + (PROMPT.chars().count() + line.cursor()) as u16;
    f.set_cursor_position((col.min(area.right().saturating_sub(2)), area.y + 1));
}
