//! Against a real BRLTTY (Virtual `vr` driver, display side served by the
//! test). Needs the Debian package `brltty`; the BrlAPI tests also need the
//! `brlapi` feature (libbrlapi-dev). Without BRLTTY they fail, unless
//! `TANDEM_SKIP_REAL` is set outside CI (see `tandem-testkit`).

use std::time::Duration;

use tandem_braille::testing::brltty::VirtualBrltty;

const T: Duration = Duration::from_secs(10);

fn brltty(cells: usize) -> Option<VirtualBrltty> {
    tandem_testkit::require(
        "BRLTTY (apt-get install brltty)",
        VirtualBrltty::start(cells),
    )
}

#[test]
fn fixture_reads_brlttys_own_display_and_survives_a_restart() {
    let Some(mut b) = brltty(40) else { return };
    // With no client BRLTTY shows its screen driver's message.
    let s = b
        .wait_for(T, |s| s.updates > 0 && !s.text.trim().is_empty())
        .unwrap();
    assert_eq!(s.cells.len(), 40);
    assert_eq!(s.text.chars().count(), 40);
    b.restart().unwrap();
    assert!(b.is_running());
    b.wait_for(T, |s| s.connected && s.updates > 1).unwrap();
    b.kill();
    assert!(!b.is_running());
    assert!(!b.api_socket().exists(), "stale BrlAPI socket removed");
}

#[cfg(feature = "brlapi")]
mod brlapi {
    use super::*;
    use tandem_braille::chess::ChessPatterns;
    use tandem_braille::display::brlapi::{BrlApiDisplay, BrlApiSettings};
    use tandem_braille::driver::{spawn, DisplayDriver, DriverEvent, DriverInput};
    use tandem_braille::table::text_cells;
    use tandem_braille::{Action, BrailleDisplay, BrailleLine, Key, KeyCommand, StatusInfo, View};
    use tandem_braille::{Board, Cell};
    use tandem_rules::chess::{
        self,
        shakmaty::{Color as ChessColor, Piece, Position as _, Role},
    };
    use tandem_rules::draughts::{Position, Square, Variant};
    use tandem_rules::Color;

    fn connect(b: &VirtualBrltty) -> BrlApiDisplay {
        let d = BrlApiDisplay::start(BrlApiSettings {
            host: Some(b.host()),
            auth: Some("none".into()),
            retry: Duration::from_millis(100),
            ..BrlApiSettings::default()
        });
        d.wait_connected(T)
            .unwrap_or_else(|e| panic!("{e}\nbrltty log:\n{}", b.log()));
        d
    }

    #[test]
    fn text_written_through_brlapi_reads_back_as_nabcc() {
        let Some(b) = brltty(40) else { return };
        let mut d = connect(&b);
        assert_eq!(d.geometry().unwrap().width, 40);
        d.write(&BrailleLine::from_text("W 31 32 33 K45 | B 1 2 3 K12"))
            .unwrap();
        let s = b
            .wait_for_cells(&text_cells("W 31 32 33 K45 | B 1 2 3 K12"), T)
            .unwrap();
        assert!(
            s.text.starts_with("W 31 32 33 K45 | B 1 2 3 K12"),
            "{:?}",
            s.text
        );
    }

    fn start_pos() -> Position {
        Position::start(Variant::International)
    }

    /// Presses `key` once per line of `rows`, each time waiting until the
    /// display starts with that line: BRLTTY may read two presses sent close
    /// together on a loaded machine as one.
    /// The international start after 32-28.
    fn after_32_28() -> Position {
        let mut pos = start_pos();
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == square(32) && m.to() == square(28))
            .unwrap();
        pos.play_unchecked(&m);
        pos
    }

    fn line_by_line(
        b: &VirtualBrltty,
        key: Key,
        rows: &[&str],
    ) -> tandem_braille::testing::brltty::VrState {
        let mut last = None;
        for row in rows {
            b.press_key(key).unwrap();
            last = Some(b.wait_for(T, |s| s.text.starts_with(row)).unwrap());
        }
        last.expect("at least one row")
    }

    fn square(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    /// Draughts square `n` as its view routes it.
    fn sq(n: u8) -> tandem_braille::Target {
        tandem_braille::draughts::keys::target(square(n))
    }

    #[test]
    fn graphic_view_text_and_dots_read_back_cell_for_cell() {
        let Some(b) = brltty(40) else { return };
        let d = connect(&b);
        let pos = Position::from_fen(Variant::International, "W:W16,K18:B17,K19").unwrap();
        let mut drv = DisplayDriver::new(d, pos, StatusInfo::new(Color::White), View::Graphic);
        drv.press(Key::LineDown).unwrap();
        drv.press(Key::LineDown).unwrap();
        drv.press(Key::LineDown).unwrap();
        let line = drv.ui().current_line();
        assert_eq!(line.text(), "16 wbWB-");
        // "16 " through the text call (en-nabcc), the five squares as dots.
        let s = b.wait_for_cells(line.cells(), T).unwrap();
        assert!(s.text.starts_with("16 "), "{:?}", s.text);
        // Select 16: dots 7-8 are added through the same write.
        let actions = drv.press(Key::Routing(3)).unwrap();
        assert_eq!(actions, vec![Action::Selected(sq(16)), Action::Redraw]);
        let mut want = line.cells().to_vec();
        want[3] = want[3].union(tandem_braille::Cell::UNDERLINE);
        b.wait_for_cells(&want, T).unwrap();
    }

    #[test]
    fn display_keys_arrive_as_tandem_keys() {
        let Some(b) = brltty(40) else { return };
        let mut d = connect(&b);
        d.write(&BrailleLine::from_text("keys")).unwrap();
        b.wait_for(T, |s| s.text.starts_with("keys")).unwrap();
        assert!(
            b.route(0).is_err(),
            "the vr driver cannot press routing key 0"
        );
        let keys = [
            Key::Routing(1),
            Key::Routing(39),
            Key::PanLeft,
            Key::PanRight,
            Key::LineUp,
            Key::LineDown,
            Key::Top,
            Key::Bottom,
            Key::Command(KeyCommand::NextView),
            Key::Command(KeyCommand::ClockReport),
            Key::Command(KeyCommand::LastMove),
            Key::Command(KeyCommand::Done),
            Key::Command(KeyCommand::Cancel),
            Key::Command(KeyCommand::Erase),
            // Dots typed on the braille keys, translated by BRLTTY's text
            // table (en-nabcc: `3` is dots 2-5, `c` dots 1-4).
            Key::Char('3'),
            Key::Char('c'),
        ];
        for k in keys {
            b.press_key(k).unwrap();
            let got = d.read_key(T).unwrap();
            assert_eq!(got, Some(k), "pressed {k:?}; brltty log:\n{}", b.log());
        }
    }

    #[test]
    fn a_move_entered_with_two_routing_presses() {
        let Some(b) = brltty(40) else { return };
        let d = connect(&b);
        let drv = DisplayDriver::new(d, start_pos(), StatusInfo::new(Color::White), View::Rows);
        let h = spawn(drv).unwrap();
        b.wait_for(T, |s| s.text.starts_with("1:b 2:b")).unwrap();
        let s = line_by_line(
            &b,
            Key::LineDown,
            &["6:b", "11:b", "16:b", "21:-", "26:-", "31:w 32:w"],
        );
        // Route over the "2" of "32:w", as the player's finger would.
        let c32 = s.text.find("32:w").unwrap() + 1;
        b.route(c32).unwrap();
        assert_eq!(next_action(&h), Action::Selected(sq(32)));
        // The selected square carries dots 7-8 on the display.
        b.wait_for(T, |s| s.cells[c32].mask() & 0xC0 == 0xC0)
            .unwrap();
        b.press_key(Key::LineUp).unwrap();
        let s = b.wait_for(T, |s| s.text.starts_with("26:-")).unwrap();
        b.route(s.text.find("28:-").unwrap()).unwrap();
        assert_eq!(
            next_action(&h),
            Action::MoveRequest {
                from: sq(32),
                to: sq(28)
            }
        );
        // The daemon accepts 32-28 and sends the new position.
        let pos = after_32_28();
        black_to_move(&b, h, pos.into(), "32-28", "26:- 27:- 28:w");
    }

    /// 002 annex E: a chess position on the display, a move entered with
    /// two routing keys over the rows view's words.
    #[test]
    fn a_chess_move_entered_with_two_routing_presses() {
        let Some(b) = brltty(40) else { return };
        let drv = chess_driver(&b, View::Rows);
        let h = spawn(drv).unwrap();
        let rank8 = "a8:r b8:n c8:b d8:q e8:k f8:b g8:n h8:r";
        let s = b.wait_for(T, |s| s.text.starts_with(rank8)).unwrap();
        // The words arrive as text: cell for cell what the UI rendered.
        assert_eq!(s.cells[..rank8.len()], text_cells(rank8)[..]);
        let s = line_by_line(
            &b,
            Key::LineDown,
            &["a7:", "a6:", "a5:", "a4:", "a3:", "a2:P b2:P"],
        );
        // Route over the "2" of "e2:P".
        let e2 = s.text.find("e2:P").unwrap();
        b.route(e2 + 1).unwrap();
        assert_eq!(next_action(&h), Action::SelectedSquare("e2".into()));
        // "e2:P" carries dots 7-8 on the display, its neighbours do not.
        let s = b
            .wait_for(T, |s| s.cells[e2].mask() & 0xC0 == 0xC0)
            .unwrap();
        for i in e2..e2 + 4 {
            assert_eq!(s.cells[i].mask() & 0xC0, 0xC0, "cell {i}");
        }
        // (An upper-case letter has dot 7 in en-nabcc, never dot 8 too.)
        assert_ne!(s.cells[e2 - 2].mask() & 0xC0, 0xC0, "d2's P");
        assert_ne!(s.cells[e2 + 5].mask() & 0xC0, 0xC0, "f2's f");
        let s = line_by_line(&b, Key::LineUp, &["a3:", "a4:- b4:-"]);
        b.route(s.text.find("e4:-").unwrap()).unwrap();
        assert_eq!(next_action(&h), Action::MoveText("e2e4".into()));
        // The rules engine accepts e2e4 and the daemon sends the new board.
        let m = chess::resolve(&chess::start(), "e2e4").unwrap();
        let mut pos = chess::start();
        pos.play_unchecked(&m.to_shakmaty());
        black_to_move(
            &b,
            h,
            Board::Chess(pos),
            "e4",
            "a4:- b4:- c4:- d4:- e4:P f4:-",
        );
    }

    /// The graphic view: one 8-dot cell per square read back as dots, and a
    /// knight move entered over them.
    #[test]
    fn a_chess_knight_move_entered_over_the_graphic_view() {
        let Some(b) = brltty(40) else { return };
        let mut drv = chess_driver(&b, View::Graphic);
        drv.press(Key::Bottom).unwrap();
        let line = drv.ui().current_line();
        assert_eq!(line.text(), "1 RNBQKBNR");
        let s = b.wait_for_cells(line.cells(), T).unwrap();
        assert!(s.text.starts_with("1 "), "{:?}", s.text);
        // g1's cell is the white knight's pattern (dots 1 2 3).
        let knight = ChessPatterns::default().cell(Some(Piece {
            color: ChessColor::White,
            role: Role::Knight,
        }));
        assert_eq!(s.cells[8], knight);
        assert_eq!(
            drv.press(Key::Routing(8)).unwrap(),
            vec![Action::SelectedSquare("g1".into()), Action::Redraw]
        );
        let mut want = line.cells().to_vec();
        want[8] = want[8].union(Cell::UNDERLINE);
        b.wait_for_cells(&want, T).unwrap();
        drv.press(Key::LineUp).unwrap();
        drv.press(Key::LineUp).unwrap();
        assert_eq!(drv.ui().current_line().text(), "3 --------");
        b.wait_for_cells(drv.ui().current_line().cells(), T)
            .unwrap();
        assert_eq!(
            drv.press(Key::Routing(7)).unwrap(),
            vec![Action::MoveText("g1f3".into()), Action::Redraw]
        );
    }

    /// A driver on `b` showing the chess start in `view`, white to move.
    fn chess_driver(b: &VirtualBrltty, view: View) -> DisplayDriver<BrlApiDisplay> {
        let start = Board::from(chess::start());
        DisplayDriver::with_board(connect(b), start, StatusInfo::new(Color::White), view)
    }

    /// The board after white's move `last` sent to the driver, black to
    /// move: the display shows a line starting `shows`; then the driver stops.
    fn black_to_move(
        b: &VirtualBrltty,
        h: tandem_braille::driver::DriverHandle,
        board: Board,
        last: &str,
        shows: &str,
    ) {
        let mut status = StatusInfo::new(Color::Black);
        status.last_move = Some(last.into());
        h.input.send(DriverInput::Board { board, status }).unwrap();
        b.wait_for(T, |s| s.text.starts_with(shows)).unwrap();
        h.shutdown();
    }

    fn next_action(h: &tandem_braille::driver::DriverHandle) -> Action {
        match h.events.recv_timeout(T).expect("an action from the driver") {
            DriverEvent::Action(a) => a,
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn brltty_killed_and_restarted_the_display_comes_back_by_itself() {
        let Some(mut b) = brltty(40) else { return };
        let d = connect(&b);
        let drv = DisplayDriver::new(d, start_pos(), StatusInfo::new(Color::White), View::List);
        let h = spawn(drv).unwrap();
        b.wait_for(T, |s| s.text.starts_with("W 31 32")).unwrap();

        b.kill();
        // The game goes on while BRLTTY is away: a move is accepted.
        let pos = after_32_28();
        h.input
            .send(DriverInput::Board {
                board: pos.into(),
                status: StatusInfo::new(Color::Black),
            })
            .unwrap();
        match h.events.recv_timeout(T).expect("the outage is reported") {
            DriverEvent::Unavailable(e) => assert!(e.to_string().contains("not connected"), "{e}"),
            other => panic!("unexpected {other:?}"),
        }

        b.restart().unwrap();
        // Without touching the client: the newest line appears on the new BRLTTY.
        let s = b.wait_for(T, |s| s.text.starts_with("W 28 31 33")).unwrap();
        assert_eq!(s.cells[..4], text_cells("W 28")[..]);
        // And keys work again on the new connection.
        b.press_key(Key::Command(KeyCommand::ClockReport)).unwrap();
        loop {
            match h.events.recv_timeout(T).expect("the clock-report key") {
                DriverEvent::Action(Action::ClockReport) => break,
                DriverEvent::Available | DriverEvent::Unavailable(_) => {}
                other => panic!("unexpected {other:?}"),
            }
        }
        h.shutdown();
    }
}
