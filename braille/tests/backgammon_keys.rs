//! Backgammon on the braille display, through the UI's keys: the board
//! line, the counts and the status line with the clocks; a turn entered
//! with the routing keys step by step (at 40 and 80 cells, and panning on
//! 20); the roll typed on the braille keys. (Against the real BRLTTY:
//! `assistant/tests/e2e_backgammon_braille.rs`.)

use std::time::Duration;

use tandem_braille::{
    Action, Board, BrailleLine, BrailleUi, Cell, Key, KeyCommand, StatusInfo, View, Width,
};
use tandem_rules::draughts::{Position, Variant};
use tandem_rules::Color;

fn ui(view: View) -> BrailleUi {
    BrailleUi::new(
        Position::start(Variant::International),
        StatusInfo::new(Color::White),
        view,
        Width::new(40).unwrap(),
    )
}

fn bg_ui(m: &tandem_rules::backgammon::Match, viewer: Color, width: u16) -> BrailleUi {
    BrailleUi::with_board(
        Board::Backgammon {
            game: Box::new(m.clone()),
            viewer,
        },
        StatusInfo::new(Color::White),
        View::List,
        Width::new(width).unwrap(),
    )
}

#[test]
fn a_backgammon_board_shows_its_line_counts_and_status_with_the_clocks() {
    use tandem_rules::backgammon::{Match, MatchOptions};
    let mut m = Match::new(MatchOptions { length: 7 });
    m.act_text("roll 31").unwrap();
    let mut u = bg_ui(&m, Color::Black, 40);
    let line = tandem_braille::backgammon::board_line(m.board(), Color::Black);
    assert_eq!(u.lines()[0].cells(), line.cells.as_slice());
    // The counts wrap at 40 cells by words; the status line by fields.
    let text: Vec<String> = u.lines()[1..].iter().map(BrailleLine::text).collect();
    assert_eq!(
        text,
        vec![
            "bar 0 0 24x2 19o5 17o3 13x5 12o5 8x3 6x5",
            "1o2 off 0 0",
            "31 | pips 167 167 | cube 1 | 0-0/7",
            "time --:-- --:--",
        ]
    );
    let mut tick = StatusInfo::new(Color::White);
    tick.white_clock = Some(Duration::from_secs(839));
    tick.black_clock = Some(Duration::from_secs(840));
    let same = u.board().clone();
    u.update_board(&same, &tick);
    assert_eq!(u.lines()[4].text(), "time 14:00 13:59", "black's first");
    // Text lines route nowhere.
    u.handle(Key::LineDown);
    assert_eq!(u.handle(Key::Routing(3)), vec![Action::Bump]);
}

#[test]
fn backgammon_routing_keys_enter_a_turn_step_by_step() {
    for width in [40, 80] {
        backgammon_turn_at(width);
    }
}

fn backgammon_turn_at(width: u16) {
    use tandem_rules::backgammon::{Match, MatchOptions};
    let mut m = Match::new(MatchOptions { length: 7 });
    m.act_text("roll 31").unwrap(); // white to play 3-1
    let mut u = bg_ui(&m, Color::White, width);
    let line = tandem_braille::backgammon::board_line(m.board(), Color::White);
    let cell = |p: u8| {
        line.cell_of(tandem_braille::backgammon::BgSpot::Point(p))
            .unwrap() as u16
    };
    assert_eq!(
        u.handle(Key::Routing(cell(8))),
        vec![Action::MoveText("steps from 8".into()), Action::Redraw]
    );
    assert_eq!(u.selected_name().as_deref(), Some("8"));
    assert_eq!(u.current_line().underlined(), vec![usize::from(cell(8))]);
    assert_eq!(
        u.handle(Key::Routing(cell(5))),
        vec![Action::MoveText("steps 8/5".into()), Action::Redraw]
    );
    // The board line shows the checker moved: two left on 8, one on 5.
    assert_eq!(
        u.current_line().cells()[usize::from(cell(5))],
        Cell::from_dots(&[1])
    );
    assert_eq!(
        u.current_line().cells()[usize::from(cell(8))],
        Cell::from_dots(&[1, 2])
    );
    assert!(u.current_line().underlined().is_empty());
    // The status line says the die left to play.
    assert!(
        u.lines()
            .iter()
            .any(|l| l.text().starts_with("31 left 1 | pips 167 167")),
        "{:?}",
        u.lines().iter().map(BrailleLine::text).collect::<Vec<_>>()
    );
    // The cancel key drops the steps; the game says so.
    assert_eq!(
        u.handle(Key::Command(KeyCommand::Cancel)),
        vec![
            Action::Cancel,
            Action::MoveText("steps".into()),
            Action::Redraw
        ]
    );
    assert_eq!(u.lines()[0].cells(), line.cells.as_slice());
    // Again, to the end: the whole move goes as its text.
    u.handle(Key::Routing(cell(8)));
    u.handle(Key::Routing(cell(5)));
    u.handle(Key::Routing(cell(6)));
    assert_eq!(
        u.handle(Key::Routing(cell(5))),
        vec![Action::MoveText("8/5 6/5".into()), Action::Redraw]
    );
    // A gap bumps.
    assert_eq!(u.handle(Key::Routing(1)), vec![Action::Bump]);
}

#[test]
fn backgammon_panning_on_a_narrow_display_keeps_the_points_under_the_keys() {
    use tandem_rules::backgammon::{Match, MatchOptions};
    let mut m = Match::new(MatchOptions { length: 7 });
    m.act_text("roll 31").unwrap();
    // Black watches white move: the line in black's numbers, 20 cells.
    let mut u = bg_ui(&m, Color::Black, 20);
    let line = tandem_braille::backgammon::board_line(m.board(), Color::Black);
    let windows = line.windows(Width::new(20).unwrap());
    assert_eq!(windows.len(), 2);
    assert_eq!(u.current_line().cells(), windows[0].cells.as_slice());
    // White's 8 is black's 17: in the first window.
    let c17 = windows[0]
        .cell_of(tandem_braille::backgammon::BgSpot::Point(17))
        .unwrap() as u16;
    u.handle(Key::Routing(c17));
    assert_eq!(u.selected_name().as_deref(), Some("17"));
    assert_eq!(u.handle(Key::PanRight), vec![Action::Redraw]);
    assert_eq!(u.current_line().cells(), windows[1].cells.as_slice());
    // Black's 20 (white's 5) is in the first window too; back there.
    u.handle(Key::PanLeft);
    let c20 = windows[0]
        .cell_of(tandem_braille::backgammon::BgSpot::Point(20))
        .unwrap() as u16;
    assert_eq!(
        u.handle(Key::Routing(c20)),
        vec![Action::MoveText("steps 8/5".into()), Action::Redraw]
    );
    // White's 6 is black's 19 (first window), white's 5 again.
    let c19 = windows[0]
        .cell_of(tandem_braille::backgammon::BgSpot::Point(19))
        .unwrap() as u16;
    u.handle(Key::Routing(c19));
    assert_eq!(
        u.handle(Key::Routing(c20)),
        vec![Action::MoveText("8/5 6/5".into()), Action::Redraw]
    );
    // In the second window the same cell is another point: black's 12, white's 13.
    u.handle(Key::PanRight);
    assert_eq!(
        windows[1].spot(1),
        Some(tandem_braille::backgammon::BgSpot::Point(12))
    );
    assert_eq!(
        u.handle(Key::Routing(1)),
        vec![Action::MoveText("steps from 13".into()), Action::Redraw]
    );
}

#[test]
fn backgammon_dice_typed_on_the_braille_keys_then_enter() {
    use tandem_rules::backgammon::{Match, MatchOptions};
    let m = Match::new(MatchOptions { length: 7 });
    let mut u = bg_ui(&m, Color::White, 40);
    assert_eq!(u.handle(Key::Char('3')), vec![Action::Redraw]);
    assert_eq!(u.current_line().text(), "roll 3");
    assert_eq!(u.handle(Key::Char('9')), vec![Action::Bump]);
    assert_eq!(u.handle(Key::Routing(3)), vec![Action::Bump], "dice shown");
    assert_eq!(u.handle(Key::Command(KeyCommand::Done)), vec![Action::Bump]);
    u.handle(Key::Char('a'));
    assert_eq!(u.current_line().text(), "roll 31");
    assert_eq!(
        u.handle(Key::Command(KeyCommand::Erase)),
        vec![Action::Redraw]
    );
    u.handle(Key::Char('1'));
    assert_eq!(
        u.handle(Key::Command(KeyCommand::Done)),
        vec![Action::MoveText("roll 3 1".into()), Action::Redraw]
    );
    assert_eq!(u.lines()[0].cells(), u.current_line().cells());
    // Enter with nothing typed is "done" as before; cancel drops a die.
    assert_eq!(u.handle(Key::Command(KeyCommand::Done)), vec![Action::Done]);
    u.handle(Key::Char('6'));
    assert_eq!(
        u.handle(Key::Command(KeyCommand::Cancel)),
        vec![Action::Cancel, Action::Redraw]
    );
    assert_eq!(u.lines()[0].cells(), u.current_line().cells());
    // Characters do nothing in the other games.
    let mut d = ui(View::List);
    assert_eq!(d.handle(Key::Char('3')), vec![Action::Bump]);
}

mod random_keys {
    use super::*;
    use proptest::prelude::*;
    use tandem_braille::backgammon::input::parse_query;
    use tandem_rules::backgammon::{Match, MatchOptions};

    fn key() -> impl Strategy<Value = Key> {
        prop_oneof![
            (0u16..90).prop_map(Key::Routing),
            Just(Key::PanLeft),
            Just(Key::PanRight),
            Just(Key::Top),
            Just(Key::Bottom),
            Just(Key::Command(KeyCommand::Cancel)),
            Just(Key::Command(KeyCommand::Done)),
            Just(Key::Command(KeyCommand::Erase)),
            Just(Key::Command(KeyCommand::NextView)),
            proptest::char::any().prop_map(Key::Char),
            (1u8..=6).prop_map(|d| Key::Char(char::from(b'0' + d))),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any keys on any width over a rolled match: no panic, and every
        /// text for the game is a step query it reads back, a legal move of
        /// the roll, or a roll.
        #[test]
        fn any_keys_give_texts_the_game_reads(
            dice in (1u8..=6, 1u8..=6),
            width in 14u16..=80,
            black in any::<bool>(),
            keys in proptest::collection::vec(key(), 0..40),
        ) {
            let mut m = Match::new(MatchOptions { length: 7 });
            if dice.0 != dice.1 {
                m.act_text(&format!("roll {}{}", dice.0, dice.1)).unwrap();
            }
            let viewer = if black { Color::Black } else { Color::White };
            let mut u = BrailleUi::with_board(
                Board::Backgammon { game: Box::new(m.clone()), viewer },
                StatusInfo::new(Color::White),
                View::List,
                Width::new(width).unwrap(),
            );
            for k in keys {
                for a in u.handle(k) {
                    if let Action::MoveText(t) = a {
                        let ok = parse_query(&t).is_some()
                            || m.resolve(&t).is_ok()
                            || t.starts_with("roll ");
                        prop_assert!(ok, "{}", t);
                    }
                }
                prop_assert!(u.current_line().len() <= usize::from(width));
            }
        }

        /// Untrusted text read as a query never panics.
        #[test]
        fn any_text_as_a_query(text in ".{0,60}") {
            let _ = parse_query(&text);
        }
    }
}
