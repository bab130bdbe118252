//! Backgammon's board picture ([`crate::picture`]): the 24 points numbered
//! from white's side (black's point p is white's 25 - p), the checkers on
//! each as one stack (`w` or `b` with its count), the bar and the borne-off
//! checkers, the dice, the cube, and the last play's points with the blots
//! it hit (004 3.4).

use tandem_rules::backgammon::{match_id, position_id, Action, Board, Match, Phase};
use tandem_rules::Color;

use crate::interface::{TapMove, Taps};
use crate::picture::{BoardPicture, Cube, Layout, Piece, Shape};

/// A point of `side`'s numbering in white's (25 = the bar, 0 = off).
fn white_point(side: Color, p: u8) -> String {
    match p {
        25 => "bar".to_owned(),
        0 => "off".to_owned(),
        p if side == Color::White => p.to_string(),
        p => (25 - p).to_string(),
    }
}

/// The picture of the match as it stands.
#[must_use]
pub fn picture(m: &Match) -> BoardPicture {
    let (last, captured) = last_play(m);
    BoardPicture {
        last,
        captured,
        turn: m.to_act(),
        dice: m.dice().map_or_else(Vec::new, |d| vec![d.0, d.1]),
        cube: Some(Cube {
            value: m.cube(),
            owner: m.cube_owner(),
        }),
        ..board_picture(m.board())
    }
}

/// What the side to act may tap on the picture ([`crate::games::Game::taps`]):
/// each legal play by its hops in white's numbering (the picture's), how
/// the mover writes each point, and the actions beyond moves (`roll` by
/// the dice entered, or `roll-here` when the table rolls them: `tandem_dice`;
/// `double`, `take`, `pass`) the rules allow now.
#[must_use]
pub fn taps(m: &Match, tandem_dice: bool) -> Taps {
    let turn = m.board().turn();
    let moves = m
        .legal()
        .iter()
        .map(|play| TapMove {
            squares: play
                .steps()
                .iter()
                .flat_map(|s| [white_point(turn, s.from), white_point(turn, s.to)])
                .collect(),
            text: m.move_text(play),
            choice: None,
        })
        .collect();
    let names = (1..=24u8)
        .map(|p| (white_point(turn, p), p.to_string()))
        .filter(|(a, b)| a != b)
        .collect();
    let allowed = |a: Action| m.clone().act(a).is_ok();
    let mut actions = Vec::new();
    if matches!(m.phase(), Phase::Opening | Phase::Roll) {
        actions.push(if tandem_dice { "roll-here" } else { "roll" }.to_owned());
    }
    if allowed(Action::Double) {
        actions.push("double".to_owned());
    }
    if allowed(Action::Take) {
        actions.push("take".to_owned());
    }
    // A double declined, or a roll that cannot be played.
    if allowed(Action::Pass) || (m.phase() == Phase::Move && m.legal().is_empty()) {
        actions.push("pass".to_owned());
    }
    Taps {
        actor: m.to_act(),
        moves,
        hops: true,
        names,
        actions,
    }
}

/// The picture of gnubg's `POSITION_ID[:MATCH_ID]` as it is (any score,
/// any cube: what an arbiter compares), the side on roll `on_roll` when
/// no Match ID says it.
///
/// # Errors
/// An ID does not decode.
pub fn from_ids(text: &str, on_roll: Color) -> Result<BoardPicture, String> {
    let (pid, mid) = match text.trim().split_once(':') {
        Some((p, m)) => (p, Some(m)),
        None => (text.trim(), None),
    };
    let info = mid
        .map(|m| match_id::decode(m).map_err(|e| format!("Match ID {m:?}: {e}")))
        .transpose()?;
    let roll = info.as_ref().map_or(on_roll, |i| i.on_roll);
    let b = position_id::decode(pid, roll).map_err(|e| format!("Position ID {pid:?}: {e}"))?;
    let mut p = board_picture(&b);
    p.turn = Some(roll);
    if let Some(i) = info {
        p.dice = i.dice.map_or_else(Vec::new, |d| vec![d.0, d.1]);
        p.cube = Some(Cube {
            value: i.cube,
            owner: i.cube_owner,
        });
    }
    Ok(p)
}

/// The checkers of a board, nothing marked.
fn board_picture(b: &Board) -> BoardPicture {
    let mut pieces = Vec::new();
    let mut stack = |square: String, side: Color, count: u8| {
        if count > 0 {
            pieces.push(Piece {
                square,
                code: if side == Color::White { "w" } else { "b" }.to_owned(),
                side,
                shape: Shape::Checker,
                count: u32::from(count),
            });
        }
    };
    for p in 1..=24u8 {
        stack(p.to_string(), Color::White, b.count(Color::White, p));
        stack(p.to_string(), Color::Black, b.count(Color::Black, 25 - p));
    }
    for side in [Color::White, Color::Black] {
        stack("bar".to_owned(), side, b.bar(side));
    }
    for side in [Color::White, Color::Black] {
        stack("off".to_owned(), side, b.borne_off(side));
    }
    BoardPicture::new(Layout::Points, pieces, Some(b.turn()))
}

/// The points the last play of the game under way used, and those where
/// it hit a blot (in white's numbering). A play is last until the game
/// ends; a roll, a double or a take after it leave it marked.
fn last_play(m: &Match) -> (Vec<String>, Vec<String>) {
    let Some(game) = m.games().last().filter(|g| g.end.is_none()) else {
        return (Vec::new(), Vec::new());
    };
    for (side, action, before) in game.actions.iter().rev() {
        match action {
            Action::Move(play) => {
                let mut last = Vec::new();
                let mut hit = Vec::new();
                for s in play.steps() {
                    for p in [s.from, s.to] {
                        let id = white_point(*side, p);
                        if !last.contains(&id) {
                            last.push(id);
                        }
                    }
                    // A blot of the opponent on the point reached is hit (004 3.4).
                    if (1..=24).contains(&s.to) && before.count(side.other(), 25 - s.to) == 1 {
                        let id = white_point(*side, s.to);
                        if !hit.contains(&id) {
                            hit.push(id);
                        }
                    }
                }
                return (last, hit);
            }
            Action::Roll(_) | Action::Double | Action::Take => {}
            _ => break,
        }
    }
    (Vec::new(), Vec::new())
}

#[cfg(test)]
mod tests {
    #[test]
    fn taps_list_the_plays_by_white_points_and_the_actions_now() {
        use crate::games::Game as _;
        use tandem_rules::GameOptions;
        let table = |tandem_dice: bool| {
            let options = GameOptions {
                match_length: 5,
                tandem_dice,
                ..GameOptions::default()
            };
            super::super::BackgammonTable::new(
                Match::new(MatchOptions { length: 5 }),
                options,
                "en",
            )
        };
        // The players' dice: entered, and the opening roll is the starter's.
        let mut t = table(false);
        assert_eq!(t.taps().actions, ["roll"]);
        assert_eq!(t.taps().actor, None);
        let roll = t.action("roll 1 3").unwrap().unwrap();
        assert_eq!((roll.side, roll.either_seat), (Color::Black, false));
        t.play_action("roll 3 1").unwrap();
        let taps = t.taps();
        // Sixteen plays of three-one from the start (gnubg's count), white's
        // points as they are, two steps each.
        assert_eq!(
            (taps.actor, taps.moves.len(), taps.hops),
            (Some(Color::White), 16, true)
        );
        assert!(taps.names.is_empty());
        assert!(taps
            .moves
            .iter()
            .any(|m| m.squares == ["8", "5", "6", "5"] || m.squares == ["6", "5", "8", "5"]));
        t.play_text("8/5 6/5").unwrap();
        // Black to roll or double; black's 24-point is white's 1.
        let taps = t.taps();
        assert_eq!(taps.actions, ["roll", "double"]);
        assert_eq!(taps.names.get("1").map(String::as_str), Some("24"));
        // Rolled by the table: either seat's opening roll.
        let t = table(true);
        assert_eq!(t.taps().actions, ["roll-here"]);
        for _ in 0..8 {
            assert!(t.action("roll").unwrap().unwrap().either_seat);
        }
    }

    use super::*;
    use tandem_rules::backgammon::MatchOptions;

    #[test]
    fn the_start_has_fifteen_checkers_a_side_in_white_numbering() {
        let mut m = Match::new(MatchOptions { length: 7 });
        m.act_text("roll 3 1").unwrap();
        let p = picture(&m);
        let on = |sq: &str, code: &str| p.on(sq).find(|x| x.code == code).map_or(0, |x| x.count);
        // 004 2.1: white's 24 (2), 13 (5), 8 (3), 6 (5); black's mirror.
        assert_eq!(
            [on("24", "w"), on("13", "w"), on("8", "w"), on("6", "w")],
            [2, 5, 3, 5]
        );
        assert_eq!(
            [on("1", "b"), on("12", "b"), on("17", "b"), on("19", "b")],
            [2, 5, 3, 5]
        );
        assert_eq!(p.dice, [3, 1]);
        m.act_text("8/5 6/5").unwrap();
        let p = picture(&m);
        assert_eq!(p.last, ["8", "5", "6"]);
        assert!(p.captured.is_empty());
        assert_eq!(p.on("5").next().unwrap().count, 2);
        assert_eq!(
            p.cube,
            Some(Cube {
                value: 1,
                owner: None
            })
        );
    }
}
