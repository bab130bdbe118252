//! The full screen's layout: a fixed grid that never scrolls. Top: the
//! header; left: the board (`board`: drawn from the game's picture, as
//! large as the terminal allows); right: the clocks (large digits when
//! there is room) and whose move, each board's sync state, the alerts, the
//! moves so far, the braille line; below: the last things said (wrapped),
//! the input line and what Tab found. Each part shows only what fits (the
//! newest lines).

use std::time::Instant;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Hue, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use tandem_rules::Color;

use super::board::{self, Look};
use super::input::LineEditor;
use super::state::{clock_text, side_name, BoardSync, ScreenState};

/// The prompt before the input line.
pub const PROMPT: &str = "move> ";

/// Draws the whole screen.
pub fn draw(f: &mut Frame, st: &ScreenState, line: &LineEditor, now: Instant, look: Look) {
    let said_h = if f.area().height >= 34 { 8 } else { 5 };
    let [head, main, said, input, hint] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(8),
        Constraint::Length(said_h),
        Constraint::Length(3),
        Constraint::Length(1),
    ])
    .areas(f.area());
    f.render_widget(
        Paragraph::new(st.header.as_str()).style(Style::new().add_modifier(Modifier::DIM)),
        head,
    );
    // The board takes what it needs, up to all but the right column's 34.
    let (board_w, _) = st.state().map_or((24, 0), |s| {
        board::wanted(
            &s.board,
            main.width.saturating_sub(34 + 2),
            main.height.saturating_sub(2),
        )
    });
    let [board_area, right] = Layout::horizontal([
        Constraint::Length((board_w + 2).max(24)),
        Constraint::Min(30),
    ])
    .areas(main);
    draw_board(f, st, board_area, look);
    let alerts = st.alerts(now);
    let alerts_h = alerts.len().clamp(1, 4) as u16 + 2;
    // Big clock digits when they fit beside the rest (and there is a clock).
    let big = !look.ascii
        && st.clock_shown(Color::White, now).is_some()
        && right.height >= 13 + 4 + alerts_h + 3 + 3
        && right.width >= 32;
    let [clocks, sync, alert, moves, braille] = Layout::vertical([
        Constraint::Length(if big { 13 } else { 5 }),
        Constraint::Length(4),
        Constraint::Length(alerts_h),
        Constraint::Min(3),
        Constraint::Length(3),
    ])
    .areas(right);
    if big {
        draw_big_clocks(f, st, clocks, now);
    } else {
        draw_clocks(f, st, clocks, now, look);
    }
    draw_sync(f, st, sync);
    draw_alerts(f, &alerts, alert);
    draw_moves(f, st, moves);
    draw_braille(f, st, braille, now);
    draw_said(f, st, said, look);
    draw_input(f, line, input);
    f.render_widget(
        Paragraph::new(line.hint.as_str()).style(Style::new().add_modifier(Modifier::DIM)),
        hint,
    );
    if !look.color {
        // NO_COLOR: no colour anywhere; bold, dim and reverse video stay.
        for cell in &mut f.buffer_mut().content {
            cell.fg = Hue::Reset;
            cell.bg = Hue::Reset;
        }
    }
    if let Some(p) = st.pairing_shown(now) {
        draw_pairing(f, p, main);
    }
}

/// The pairing code over the board: its digits, the page's address and
/// the address as a QR code, dark on light (even with `NO_COLOR`: reverse
/// video would make it light on dark, which some phones do not read).
fn draw_pairing(f: &mut Frame, p: &super::state::Pairing, area: Rect) {
    let qr = super::qr::half_blocks(&p.url).unwrap_or_default();
    let fingerprint = p.fingerprint.as_ref().map(|f| format!("SHA-256 {f}"));
    let width = qr
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(p.url.chars().count())
        .max(fingerprint.as_ref().map_or(0, |f| f.chars().count()))
        .max(24);
    let w = u16::try_from(width + 2).unwrap_or(u16::MAX).min(area.width);
    let h = u16::try_from(qr.len() + 4 + usize::from(fingerprint.is_some()))
        .unwrap_or(u16::MAX)
        .min(area.height);
    let r = Rect::new(area.x, area.y, w, h);
    let digits: Vec<String> = p.code.chars().map(String::from).collect();
    let mut lines = vec![
        Line::from(Span::styled(
            format!("Code: {}", digits.join(" ")),
            Style::new().add_modifier(Modifier::BOLD),
        )),
        Line::from(p.url.clone()),
    ];
    let paper = Style::new().fg(Hue::Black).bg(Hue::White);
    lines.extend(qr.into_iter().map(|l| Line::from(Span::styled(l, paper))));
    // Over TLS: the certificate's fingerprint, to compare with the phone's.
    if let Some(fp) = &fingerprint {
        lines.push(Line::from(fp.clone()));
    }
    f.render_widget(ratatui::widgets::Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(format!(
            " Pair {}'s device ",
            side_name(p.side).to_lowercase()
        ))),
        r,
    );
}

fn draw_board(f: &mut Frame, st: &ScreenState, area: Rect, look: Look) {
    let Some(s) = st.state() else {
        f.render_widget(
            Paragraph::new("waiting for the game…").block(Block::bordered().title(" board ")),
            area,
        );
        return;
    };
    let block = Block::bordered().title(format!(" {} ", s.variant));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let lines = board::lines(&s.board, inner.width, inner.height, look);
    f.render_widget(Paragraph::new(lines), inner);
}

/// The time a clock shows (`no clock` without one).
fn time_of(st: &ScreenState, side: Color, now: Instant) -> String {
    st.clock_shown(side, now)
        .map_or_else(|| "no clock".to_owned(), clock_text)
}

/// Whose move, the result, a stopped clock.
fn whose_line(st: &ScreenState) -> Line<'static> {
    let Some(s) = st.state() else {
        return Line::default();
    };
    let mut line = Line::from(match &s.result {
        Some(r) => format!("Result {r}"),
        None => format!("{} to move", side_name(s.turn)),
    });
    if s.clocks.paused && s.result.is_none() {
        line.push_span(Span::styled(
            "   CLOCK STOPPED",
            Style::new().fg(Hue::Yellow).add_modifier(Modifier::BOLD),
        ));
    }
    line
}

fn control_title(st: &ScreenState) -> String {
    let control = st
        .state()
        .map(|s| s.clocks.control.clone())
        .unwrap_or_default();
    format!(" clocks {control} ")
}

/// The clocks in large digits, read from across the table; the side to
/// move marked beside its name and its clock in reverse video while it runs.
fn draw_big_clocks(f: &mut Frame, st: &ScreenState, area: Rect, now: Instant) {
    let block = Block::bordered().title(control_title(st));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let Some(s) = st.state() else {
        return;
    };
    let [w_label, w_big, b_label, b_big, whose] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(4),
        Constraint::Length(1),
        Constraint::Length(4),
        Constraint::Length(1),
    ])
    .areas(inner);
    let running = st.running_side();
    for (side, label, big) in [
        (Color::White, w_label, w_big),
        (Color::Black, b_label, b_big),
    ] {
        let to_move = s.turn == side && s.result.is_none();
        let mut style = Style::new().add_modifier(Modifier::BOLD);
        if to_move {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let name = if to_move {
            format!(" ▶ {} to move ", side_name(side))
        } else {
            format!("   {} ", side_name(side))
        };
        f.render_widget(Paragraph::new(Line::styled(name, style)), label);
        let mut digits = Style::new();
        if running == Some(side) {
            digits = digits.fg(Hue::Yellow).add_modifier(Modifier::BOLD);
        }
        let time = time_of(st, side, now);
        let text = tui_big_text::BigText::builder()
            .pixel_size(tui_big_text::PixelSize::Quadrant)
            .style(digits)
            .lines(vec![Line::from(time)])
            .build();
        f.render_widget(text, big);
    }
    f.render_widget(Paragraph::new(whose_line(st)), whose);
}

fn draw_clocks(f: &mut Frame, st: &ScreenState, area: Rect, now: Instant, look: Look) {
    let mut lines = Vec::new();
    if let Some(s) = st.state() {
        let running = st.running_side();
        for side in [Color::White, Color::Black] {
            let mut style = Style::new();
            if running == Some(side) {
                style = style.add_modifier(Modifier::BOLD | Modifier::REVERSED);
            }
            let time = time_of(st, side, now);
            let mark = match (s.turn == side, look.ascii) {
                (false, _) => "",
                (true, false) => " ◀",
                (true, true) => " <",
            };
            lines.push(Line::from(vec![
                Span::raw(format!("{:<6}", side_name(side))),
                Span::styled(format!(" {time:>8} "), style),
                Span::raw(mark),
            ]));
        }
        lines.push(whose_line(st));
    }
    f.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(control_title(st))),
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

fn draw_said(f: &mut Frame, st: &ScreenState, area: Rect, look: Look) {
    let fits = usize::from(area.height.saturating_sub(2));
    let width = usize::from(area.width.saturating_sub(2)).max(8);
    // Every thing said, wrapped at words to the box's width; the newest
    // lines that fit (nothing is cut at the edge).
    let mut lines: Vec<Line> = Vec::new();
    for s in &st.said {
        let (first, style) = if s.typed {
            (PROMPT.to_owned(), Style::new().add_modifier(Modifier::DIM))
        } else {
            (
                (if look.ascii { ">> " } else { "» " }).to_owned(),
                Style::new(),
            )
        };
        for l in wrap(&format!("{first}{}", s.text), width) {
            lines.push(Line::styled(l, style));
        }
    }
    let skip = lines.len().saturating_sub(fits);
    let lines: Vec<Line> = lines.into_iter().skip(skip).collect();
    f.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" said ")),
        area,
    );
}

/// `text` in lines of at most `width` characters, broken at spaces (a
/// word longer than a line is broken where the line ends); continuation
/// lines indented by two.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ') {
        let mut word = word.to_owned();
        loop {
            let used = cur.chars().count();
            let len = word.chars().count();
            let sep = usize::from(used > 0 && !cur.ends_with(' '));
            if used + sep + len <= width {
                if sep == 1 {
                    cur.push(' ');
                }
                cur.push_str(&word);
                break;
            }
            if used > 2 || (used > 0 && !cur.trim().is_empty()) {
                out.push(std::mem::take(&mut cur));
                cur.push_str("  ");
                continue;
            }
            // A word longer than a whole line.
            let room = width.saturating_sub(used).max(1);
            let head: String = word.chars().take(room).collect();
            let rest: String = word.chars().skip(room).collect();
            cur.push_str(&head);
            out.push(std::mem::take(&mut cur));
            cur.push_str("  ");
            word = rest;
            if word.is_empty() {
                break;
            }
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
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

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn long_lines_wrap_at_words_and_lose_nothing() {
        let text = "» White 1:29:58 left, 12 moves made; Black 1:28:03 left, 11 moves made.";
        let l = wrap(text, 30);
        assert!(l.iter().all(|x| x.chars().count() <= 30), "{l:?}");
        let joined: Vec<&str> = l.iter().flat_map(|x| x.split_whitespace()).collect();
        assert_eq!(joined, text.split_whitespace().collect::<Vec<_>>());
        let long = wrap("x".repeat(25).as_str(), 10);
        assert_eq!(long.concat().replace(' ', ""), "x".repeat(25));
    }

    #[test]
    fn the_pairing_shows_the_certificates_fingerprint_whole_under_the_qr_code() {
        use ratatui::backend::TestBackend;
        let fp: Vec<String> = (0..32).map(|i| format!("{i:02X}")).collect();
        let fp = fp.join(":");
        let p = crate::screen::state::Pairing {
            side: tandem_rules::Color::White,
            code: "481509".into(),
            url: "https://192.168.8.10:8443/".into(),
            fingerprint: Some(fp.clone()),
            until: std::time::Instant::now(),
        };
        let mut t = ratatui::Terminal::new(TestBackend::new(110, 45)).unwrap();
        t.draw(|f| super::draw_pairing(f, &p, f.area())).unwrap();
        let buf = t.backend().buffer();
        let rows: Vec<String> = buf
            .content
            .chunks(110)
            .map(|r| r.iter().map(ratatui::buffer::Cell::symbol).collect())
            .collect();
        let at = |what: &str| rows.iter().position(|r| r.contains(what));
        let (code, url) = (at("Code: 4 8 1 5 0 9").unwrap(), at(&p.url).unwrap());
        let shown = at(&format!("SHA-256 {fp}")).expect("the fingerprint whole");
        assert!(code < url && url + 10 < shown, "{rows:#?}");
        assert!(
            rows[url + 1..shown].iter().any(|r| r.contains('█')),
            "the QR code between: {rows:#?}"
        );
    }
}
