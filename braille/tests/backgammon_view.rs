//! The backgammon braille view: the start on one line, the cell-to-point
//! map for the routing keys, the text line and the status line.

use tandem_braille::backgammon::{board_line, status_line, text_line, BgSpot};
use tandem_braille::Cell;
use tandem_rules::backgammon::{Action, Board, Dice, Match, MatchOptions};
use tandem_rules::Color;

#[test]
fn the_start_on_one_line() {
    let b = Board::start(Color::White);
    let line = board_line(&b, Color::White);
    assert_eq!(line.cells.len(), 31);
    assert_eq!(line.spot(0), Some(BgSpot::Bar));
    assert_eq!(line.spot(1), None);
    assert_eq!(line.spot(2), Some(BgSpot::Point(24)));
    assert_eq!(line.spot(28), Some(BgSpot::Point(1)));
    assert_eq!(line.spot(30), Some(BgSpot::Off));
    // White's two on its 24-point: dots 1, 2; black's five on white's 19 (black's 6): dots 4, 5, 6, 8.
    assert_eq!(line.cells[2], Cell::from_dots(&[1, 2]));
    let c19 = line.cell_of(BgSpot::Point(19)).unwrap();
    assert_eq!(line.cells[c19], Cell::from_dots(&[4, 5, 6, 8]));
    let c6 = line.cell_of(BgSpot::Point(6)).unwrap();
    assert_eq!(line.cells[c6], Cell::from_dots(&[1, 2, 3, 7]));
    assert_eq!(line.text().chars().count(), 31);
    // Seen by black, black's 24-point holds its own two.
    let seen = board_line(&b, Color::Black);
    assert_eq!(seen.cells[2], Cell::from_dots(&[1, 2]));
    assert_eq!(
        text_line(&b, Color::White),
        "bar 0 0 24x2 19o5 17o3 13x5 12o5 8x3 6x5 1o2 off 0 0"
    );
}

#[test]
fn the_status_line() {
    let mut m = Match::new(MatchOptions { length: 7 });
    m.act(Action::Roll(Dice(3, 1))).unwrap();
    assert_eq!(
        status_line(&m, Color::White),
        "31 | pips 167 167 | cube 1 | 0-0/7"
    );
    m.act_text("8/5 6/5").unwrap();
    m.act(Action::Double).unwrap();
    m.act(Action::Take).unwrap();
    assert_eq!(
        status_line(&m, Color::White),
        "- | pips 163 167 | cube 2 x | 0-0/7"
    );
    assert_eq!(
        status_line(&m, Color::Black),
        "- | pips 167 163 | cube 2 o | 0-0/7"
    );
}
