//! The record of a backgammon match at the table: the lines of the screen's
//! record view (a turn a line: the roll and its move, or the cube and its
//! answer), the words of the spoken record (each side named once a turn), and
//! what the two boards' sync counts (only the checkers' moves: a roll, a cube
//! action or a resignation changes no board).

use tandem_rules::backgammon::{notation, Action, GameRecord, Match};
use tandem_rules::Color;
use tandem_speech::{Kind, Utterance};

use super::{say, BackgammonTable};

fn name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Whether action `i` of the match moves checkers (a pass moves none).
pub(super) fn changes_board(m: &Match, i: usize) -> bool {
    matches!(m.actions().get(i), Some(Action::Move(p)) if !p.is_pass())
}

/// Whether action `i` is a move that follows its own roll: its side was
/// said with the roll, so the record does not say it again.
fn follows_its_roll(m: &Match, i: usize) -> bool {
    i > 0
        && matches!(m.actions().get(i), Some(Action::Move(p)) if !p.is_pass())
        && matches!(m.actions().get(i - 1), Some(Action::Roll(_)))
}

/// One game's lines: a heading with the score, a numbered line a turn,
/// the end with its points.
fn game_lines(k: usize, g: &GameRecord, length: u32, out: &mut Vec<String>) {
    out.push(format!(
        "Game {}: White {}, Black {}, match to {length}{}",
        k + 1,
        g.score[0],
        g.score[1],
        if g.crawford { ", Crawford" } else { "" }
    ));
    let mut turn = 0u32;
    let mut line: Option<String> = None;
    let mut cube = 1u32;
    let mut start = |text: String, line: &mut Option<String>, out: &mut Vec<String>| {
        if let Some(l) = line.take() {
            out.push(l);
        }
        turn += 1;
        *line = Some(format!("{turn:>3}. {text}"));
    };
    for (j, (who, a, board)) in g.actions.iter().enumerate() {
        match a {
            Action::Roll(d) => {
                // The opening roll: the starter plays both dice, the higher first.
                let (x, y) = if j == 0 {
                    (d.0.max(d.1), d.0.min(d.1))
                } else {
                    (d.0, d.1)
                };
                start(format!("{} {x}{y}:", name(*who)), &mut line, out);
            }
            Action::Move(p) => {
                let text = if p.is_pass() {
                    "no move".to_owned()
                } else {
                    notation::write(board, p)
                };
                match line.as_mut() {
                    Some(l) => {
                        l.push(' ');
                        l.push_str(&text);
                    }
                    None => start(format!("{} {text}", name(*who)), &mut line, out),
                }
            }
            Action::Double => {
                cube *= 2;
                start(format!("{} doubles to {cube}", name(*who)), &mut line, out);
            }
            Action::Take | Action::Pass | Action::ResignDecline => {
                let what = match a {
                    Action::Take => "takes",
                    Action::Pass => "passes",
                    _ => "declines",
                };
                let text = format!("{} {what}", name(*who));
                match line.as_mut() {
                    Some(l) => {
                        l.push_str(", ");
                        l.push_str(&text);
                    }
                    None => start(text, &mut line, out),
                }
            }
            Action::ResignOffer { side, level } => start(
                format!("{} offers to resign {level} (cube {cube})", name(*side)),
                &mut line,
                out,
            ),
            Action::Resign { side, level } => {
                let offered = j > 0 && matches!(g.actions[j - 1].1, Action::ResignOffer { .. });
                if offered {
                    if let Some(l) = line.as_mut() {
                        l.push_str(&format!(", {} accepts", name(side.other())));
                    }
                } else {
                    start(
                        format!("{} resigns {level} (cube {cube})", name(*side)),
                        &mut line,
                        out,
                    );
                }
            }
        }
    }
    if let Some(l) = line {
        out.push(l);
    }
    if let Some(end) = g.end {
        let s = if end.points == 1 { "" } else { "s" };
        out.push(format!(
            "     {} wins {} point{s}",
            name(end.winner),
            end.points
        ));
    }
}

/// The screen's record: every game, a turn a line.
pub(super) fn lines(m: &Match) -> Vec<String> {
    let mut out = Vec::new();
    for (k, g) in m.games().iter().enumerate() {
        game_lines(k, g, m.options().length, &mut out);
    }
    out
}

impl BackgammonTable {
    /// The first action at or after `at` that moves checkers: what a board
    /// showing the position after `at` actions must do first.
    pub(super) fn first_board_move(&self, at: usize) -> Option<usize> {
        (at..self.m.actions().len()).find(|&i| changes_board(&self.m, i))
    }

    /// The spoken record's words of action `i`: the announcement, but a move
    /// after its own roll only as its steps ("Thirteen to eleven, thirteen
    /// to eight."), the side having been said with the roll.
    pub(super) fn record_words(&self, i: usize) -> Option<Utterance> {
        let before = self.replay_to(i)?;
        let a = *self.m.actions().get(i)?;
        if let (true, Action::Move(p)) = (follows_its_roll(&self.m, i), a) {
            let mut after = before.clone();
            after.act(a).ok()?;
            let mut words = self.words_for(&before, &a, &after);
            if let Some(first) = words.first_mut() {
                *first = self.words.play_steps(before.board(), &p);
            }
            return Some(say(Kind::Move, words));
        }
        self.move_words_full(i)
    }
}
