//! The shared braille state machine (`tandem_braille::ui`) over each
//! game's board: panning, views, commands, selections and messages go the
//! same way whichever game the display shows.

mod draughts {
    use tandem_braille::{Action, BrailleUi, Key, KeyCommand, StatusInfo, Target, View, Width};
    use tandem_rules::draughts::{Position, Square, Variant};
    use tandem_rules::Color;

    fn ui(view: View) -> BrailleUi {
        let pos = Position::start(Variant::International);
        BrailleUi::new(
            pos,
            StatusInfo::new(Color::White),
            view,
            Width::new(40).unwrap(),
        )
    }

    /// Draughts square `n` as its view routes it.
    fn sq(n: u8) -> Target {
        tandem_braille::draughts::keys::target(Square::new(n).unwrap())
    }

    /// The first cell of the current line that shows `n`.
    fn cell_of(ui: &BrailleUi, n: u8) -> u16 {
        ui.current_line().cell_of(sq(n)).unwrap() as u16
    }

    #[test]
    fn panning_stops_at_the_ends() {
        let mut u = ui(View::Graphic);
        assert_eq!(u.handle(Key::PanLeft), vec![Action::Bump]);
        assert_eq!(u.handle(Key::PanRight), vec![Action::Redraw]);
        assert_eq!(u.line_index(), 1);
        assert_eq!(u.handle(Key::Bottom), vec![Action::Redraw]);
        assert_eq!(u.handle(Key::PanRight), vec![Action::Bump]);
        assert_eq!(u.handle(Key::Top), vec![Action::Redraw]);
        assert_eq!(u.line_index(), 0);
    }

    #[test]
    fn next_view_cycles_and_keeps_the_row() {
        let mut u = ui(View::Rows);
        u.handle(Key::LineDown);
        u.handle(Key::LineDown);
        assert_eq!(
            u.handle(Key::Command(KeyCommand::NextView)),
            vec![Action::Redraw]
        );
        assert_eq!(u.view(), View::Graphic);
        assert_eq!(u.current_line().text(), "11 bbbbb");
        u.handle(Key::Command(KeyCommand::NextView));
        assert_eq!(u.view(), View::Status);
        assert_eq!(u.line_index(), 0);
        // After the status view, the record view (no moves yet: `-`).
        u.handle(Key::Command(KeyCommand::NextView));
        assert!(u.record().shown);
        assert_eq!(u.current_line().text(), "-");
        u.handle(Key::Command(KeyCommand::NextView));
        assert!(!u.record().shown);
        assert_eq!(u.view(), View::List);
    }

    #[test]
    fn commands_and_cancel() {
        let mut u = ui(View::List);
        assert_eq!(
            u.handle(Key::Command(KeyCommand::ClockReport)),
            vec![Action::ClockReport]
        );
        assert_eq!(
            u.handle(Key::Command(KeyCommand::LastMove)),
            vec![Action::LastMove]
        );
        assert_eq!(u.handle(Key::Command(KeyCommand::Done)), vec![Action::Done]);
        assert_eq!(
            u.handle(Key::Command(KeyCommand::Cancel)),
            vec![Action::Cancel]
        );
        let c = cell_of(&u, 31);
        u.handle(Key::Routing(c));
        assert_eq!(u.selected(), Some(sq(31)));
        assert_eq!(u.selected_name().as_deref(), Some("31"));
        assert_eq!(
            u.handle(Key::Command(KeyCommand::Cancel)),
            vec![Action::Cancel, Action::Redraw]
        );
        assert_eq!(u.selected(), None);
    }

    #[test]
    fn a_move_clears_the_selection_and_a_message_lasts_one_key() {
        let mut u = ui(View::List);
        let c = cell_of(&u, 32);
        u.handle(Key::Routing(c));
        let mut pos = Position::start(Variant::International);
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| Some(m.from()) == Square::new(32) && Some(m.to()) == Square::new(28))
            .unwrap();
        pos.play_unchecked(&m);
        u.update(pos, &StatusInfo::new(Color::Black));
        assert_eq!(u.selected(), None);
        u.show_message("ambiguous: route the captured piece");
        assert_eq!(
            u.current_line().text(),
            "ambiguous: route the captured piece"
        );
        assert_eq!(u.handle(Key::Routing(0)), vec![Action::Redraw]);
        assert!(u.current_line().text().starts_with("W 28"));
    }

    #[test]
    fn width_change_keeps_the_row() {
        let mut u = ui(View::Rows);
        for _ in 0..4 {
            u.handle(Key::LineDown);
        }
        u.set_width(Width::new(14).unwrap());
        assert!(
            u.current_line().text().starts_with("21:-"),
            "{}",
            u.current_line().text()
        );
    }
}

/// Chess (002 annex E): the same keys over a chess board.
mod chess {
    use std::time::Duration;
    use tandem_braille::{Action, Board, BrailleUi, Key, KeyCommand, StatusInfo, View, Width};
    use tandem_rules::chess::shakmaty::{Chess, Position as _};
    use tandem_rules::draughts::{Position, Variant};
    use tandem_rules::Color;

    fn chess_ui(pos: Chess, view: View, width: u16) -> BrailleUi {
        BrailleUi::with_board(
            Board::Chess(pos),
            StatusInfo::new(Color::White),
            view,
            Width::new(width).unwrap(),
        )
    }

    fn after(pos: &Chess, uci: &str) -> Chess {
        let m = tandem_rules::chess::resolve(pos, uci).unwrap();
        let mut next = pos.clone();
        next.play_unchecked(&m.to_shakmaty());
        next
    }

    #[test]
    fn chess_next_view_cycles_and_keeps_the_rank() {
        let mut u = chess_ui(tandem_rules::chess::start(), View::Rows, 40);
        u.handle(Key::LineDown);
        assert_eq!(
            u.handle(Key::Command(KeyCommand::NextView)),
            vec![Action::Redraw]
        );
        assert_eq!(u.view(), View::Graphic);
        assert_eq!(u.current_line().text(), "7 pppppppp");
        // And back from the graphic to the rows, through status and list.
        u.handle(Key::Command(KeyCommand::NextView));
        assert_eq!(u.view(), View::Status);
        assert!(
            u.current_line().text().contains("white to move"),
            "{}",
            u.current_line().text()
        );
        assert_eq!(
            u.handle(Key::Routing(3)),
            vec![Action::Bump],
            "no square on the status line"
        );
        u.handle(Key::Command(KeyCommand::NextView));
        assert!(u.record().shown, "the record view");
        u.handle(Key::Command(KeyCommand::NextView));
        assert_eq!(u.view(), View::List);
        assert!(u.current_line().text().starts_with("W Ke1 Qd1 Ra1 Rh1"));
        // The list's cells route too: "Ke1" from cell 2.
        assert_eq!(
            u.handle(Key::Routing(3)),
            vec![Action::SelectedSquare("e1".into()), Action::Redraw]
        );
        assert_eq!(u.current_line().underlined(), vec![2, 3, 4]);
        u.handle(Key::Command(KeyCommand::NextView));
        assert_eq!(u.view(), View::Rows);
        assert_eq!(
            u.current_line().text(),
            "a1:R b1:N c1:B d1:Q e1:K f1:B g1:N h1:R"
        );
        assert_eq!(
            u.current_line().underlined(),
            (20..24).collect::<Vec<_>>(),
            "the selection stays"
        );
    }

    #[test]
    fn chess_a_new_position_drops_the_selection_a_clock_tick_keeps_it() {
        let start = tandem_rules::chess::start();
        let mut u = chess_ui(start.clone(), View::Rows, 40);
        for _ in 0..6 {
            u.handle(Key::LineDown);
        }
        u.handle(Key::Routing(21));
        let mut tick = StatusInfo::new(Color::White);
        tick.white_clock = Some(Duration::from_secs(299));
        u.update_board(&Board::Chess(start.clone()), &tick);
        assert_eq!(u.selected_name().as_deref(), Some("e2"), "same position");
        assert_eq!(u.line_index(), 6);

        let moved = after(&start, "e2e4");
        u.update_board(&Board::Chess(moved.clone()), &StatusInfo::new(Color::Black));
        assert_eq!(u.selected_name(), None);
        assert!(u.current_line().underlined().is_empty());
        assert_eq!(u.line_index(), 6, "the line stays");
        assert_eq!(
            u.current_line().text(),
            "a2:P b2:P c2:P d2:P e2:- f2:P g2:P h2:P"
        );
        assert_eq!(u.board(), &Board::Chess(moved));

        // A board of the other game drops it too, and shows that game.
        u.handle(Key::Routing(1));
        assert_eq!(u.selected_name().as_deref(), Some("a2"));
        u.update(
            Position::start(Variant::International),
            &StatusInfo::new(Color::White),
        );
        assert_eq!(u.selected_name(), None);
        assert_eq!(u.current_line().text(), "31:w 32:w 33:w 34:w 35:w");
    }

    #[test]
    fn chess_panning_on_a_narrow_display() {
        let mut u = chess_ui(tandem_rules::chess::start(), View::Rows, 14);
        // Each rank takes three lines of 14 cells.
        assert_eq!(u.lines().len(), 24);
        assert_eq!(u.current_line().text(), "a8:r b8:n c8:b");
        assert_eq!(u.handle(Key::PanLeft), vec![Action::Bump]);
        assert_eq!(u.handle(Key::PanRight), vec![Action::Redraw]);
        assert_eq!(u.current_line().text(), "d8:q e8:k f8:b");
        for _ in 0..18 {
            u.handle(Key::PanRight);
        }
        assert_eq!(u.current_line().text(), "d2:P e2:P f2:P");
        assert_eq!(
            u.handle(Key::Routing(6)),
            vec![Action::SelectedSquare("e2".into()), Action::Redraw]
        );
        for _ in 0..6 {
            u.handle(Key::PanLeft);
        }
        assert_eq!(u.current_line().text(), "d4:- e4:- f4:-");
        assert_eq!(
            u.handle(Key::Routing(5)),
            vec![Action::MoveText("e2e4".into()), Action::Redraw]
        );
        u.handle(Key::Bottom);
        assert_eq!(u.current_line().text(), "g1:N h1:R");
        assert_eq!(u.handle(Key::PanRight), vec![Action::Bump]);
        // A wider display keeps the rank.
        u.handle(Key::LineUp);
        u.set_width(Width::new(40).unwrap());
        assert_eq!(
            u.current_line().text(),
            "a1:R b1:N c1:B d1:Q e1:K f1:B g1:N h1:R"
        );
        // A message over a chess line lasts one key.
        u.show_message("illegal move e2e5");
        assert_eq!(u.current_line().text(), "illegal move e2e5");
        assert_eq!(u.handle(Key::Routing(1)), vec![Action::Redraw]);
        assert_eq!(
            u.selected_name(),
            None,
            "routing over a message only dismisses it"
        );
    }
}
