//! The display driver (`tandem_braille::driver`) over each game's board,
//! on the in-memory display: the view at the display's width, a display
//! unplugged and back, and a move entered by routing keys.

use std::time::Duration;
use tandem_braille::display::memory::MemoryDisplay;
use tandem_braille::display::DisplayError;
use tandem_braille::driver::{spawn, DisplayDriver, DriverEvent, DriverInput};
use tandem_braille::table::text_cells;
use tandem_braille::{Action, Board, Key, StatusInfo, View, Width};
use tandem_rules::draughts::{Position, Square, Variant};
use tandem_rules::Color;

#[test]
fn update_writes_the_view_at_the_display_width() {
    let (d, h) = MemoryDisplay::new(20);
    let pos = Position::start(Variant::International);
    let mut drv = DisplayDriver::new(d, pos, StatusInfo::new(Color::White), View::Graphic);
    drv.update(pos, &StatusInfo::new(Color::White)).unwrap();
    let mut want = text_cells("1 ");
    want.extend([tandem_braille::draughts::GraphicPatterns::default().black_man; 5]);
    want.resize(20, tandem_braille::Cell::BLANK);
    assert_eq!(h.cells().unwrap(), want);
}

#[test]
fn an_unplugged_display_is_reported_once_and_the_game_goes_on() {
    let (d, h) = MemoryDisplay::new(40);
    let pos = Position::start(Variant::International);
    let drv = DisplayDriver::new(d, pos, StatusInfo::new(Color::White), View::Rows);
    let handle = spawn(drv).unwrap();
    h.set_unplugged(true);
    // A clock tick: same position, new status.
    let pos2 = pos;
    let tick = || {
        let status = StatusInfo::new(Color::Black);
        let board = pos2.into();
        handle
            .input
            .send(DriverInput::Board { board, status })
            .unwrap();
    };
    tick();
    let ev = handle.events.recv_timeout(Duration::from_secs(20)).unwrap();
    assert!(
        matches!(ev, DriverEvent::Unavailable(DisplayError::Disconnected(_))),
        "{ev:?}"
    );
    h.set_unplugged(false);
    tick();
    assert_eq!(
        handle.events.recv_timeout(Duration::from_secs(20)).unwrap(),
        DriverEvent::Available
    );
    // Keys still work: two routing presses give a move request.
    for _ in 0..6 {
        h.press(Key::LineDown);
    }
    // Wait for the six presses to be handled (the display shows row 31-35).
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !h.text().is_some_and(|t| t.starts_with("31:w")) {
        assert!(
            std::time::Instant::now() < deadline,
            "the line keys were not handled: {:?}",
            h.text()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    h.press(Key::Routing(5)); // over "32:w"
    h.press(Key::LineUp);
    h.press(Key::Routing(10)); // over "28:-" on the row above
    let mut got = Vec::new();
    while let Ok(DriverEvent::Action(a)) = handle.events.recv_timeout(Duration::from_secs(20)) {
        let done = matches!(a, Action::MoveRequest { .. });
        got.push(a);
        if done {
            break;
        }
    }
    let sq = |n| tandem_braille::draughts::keys::target(Square::new(n).unwrap());
    assert!(
        got.contains(&Action::MoveRequest {
            from: sq(32),
            to: sq(28)
        }),
        "{got:?}"
    );
    handle.shutdown();
}

#[test]
fn a_spawned_driver_shows_chess_and_enters_a_move_by_routing() {
    use tandem_rules::chess::{self, shakmaty::Position as _};
    let (d, h) = MemoryDisplay::new(40);
    let drv = DisplayDriver::with_board(
        d,
        Board::from(chess::start()),
        StatusInfo::new(Color::White),
        View::Graphic,
    );
    let handle = spawn(drv).unwrap();
    // The graphic rank as the renderer draws it, padded to the display.
    let rank = |pos: &chess::shakmaty::Chess, r: usize| {
        let lines = tandem_braille::chess::ChessRenderer::default().render(
            pos,
            &StatusInfo::new(Color::White),
            View::Graphic,
            Width::DEFAULT,
        );
        let mut cells = lines[8 - r].line.cells().to_vec();
        cells.resize(40, tandem_braille::Cell::BLANK);
        cells
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let wait_for = |want: Vec<tandem_braille::Cell>| {
        while h.cells().as_ref() != Some(&want) {
            assert!(std::time::Instant::now() < deadline, "{:?}", h.text());
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    h.press(Key::Bottom);
    wait_for(rank(&chess::start(), 1));
    assert!(h.text().unwrap().starts_with("1 "));
    h.press(Key::Routing(8)); // g1
    h.press(Key::LineUp);
    h.press(Key::LineUp);
    h.press(Key::Routing(7)); // f3
    let mut got = Vec::new();
    while let Ok(DriverEvent::Action(a)) = handle.events.recv_timeout(Duration::from_secs(20)) {
        let done = matches!(a, Action::MoveText(_));
        got.push(a);
        if done {
            break;
        }
    }
    assert_eq!(
        got,
        vec![
            Action::SelectedSquare("g1".into()),
            Action::MoveText("g1f3".into())
        ]
    );
    // The daemon accepts Nf3 and sends the new board: rank 3 shows the knight.
    let m = chess::resolve(&chess::start(), "g1f3").unwrap();
    let mut pos = chess::start();
    pos.play_unchecked(&m.to_shakmaty());
    handle
        .input
        .send(DriverInput::Board {
            board: Board::Chess(pos.clone()),
            status: StatusInfo::new(Color::Black),
        })
        .unwrap();
    let want = rank(&pos, 3);
    assert_ne!(want, rank(&chess::start(), 3));
    wait_for(want);
    handle.shutdown();
}

/// A display that counts how often its driver looks for a key, and can
/// wake its driver like a real one (issue 47: an idle driver never polls).
struct Counting {
    looks: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    wakes: bool,
}

impl tandem_braille::BrailleDisplay for Counting {
    fn geometry(&self) -> Result<tandem_braille::display::Geometry, DisplayError> {
        Ok(tandem_braille::display::Geometry {
            width: 40,
            height: 1,
        })
    }

    fn write(&mut self, _line: &tandem_braille::BrailleLine) -> Result<(), DisplayError> {
        Ok(())
    }

    fn read_key(&mut self, _timeout: Duration) -> Result<Option<Key>, DisplayError> {
        self.looks.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(None)
    }

    fn wake_on_change(&mut self, _wake: tandem_braille::display::Wake) -> bool {
        self.wakes
    }
}

#[test]
fn a_driver_whose_display_wakes_it_looks_for_keys_only_when_woken_or_fed() {
    let looks = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let display = Counting {
        looks: looks.clone(),
        wakes: true,
    };
    let pos = Position::start(Variant::International);
    let drv = DisplayDriver::new(display, pos, StatusInfo::new(Color::White), View::Rows);
    let handle = spawn(drv).unwrap();
    for _ in 0..3 {
        handle
            .input
            .send(DriverInput::Board {
                board: pos.into(),
                status: StatusInfo::new(Color::Black),
            })
            .unwrap();
    }
    // Joined: every look it made is counted.
    handle.shutdown();
    // Once at start (a key pressed before it listened), once per update;
    // none on a timer.
    assert_eq!(looks.load(std::sync::atomic::Ordering::SeqCst), 4);
}
