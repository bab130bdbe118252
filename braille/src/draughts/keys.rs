//! Draughts' key input on the display: a routing key over a cell that shows
//! a square selects it: the first press picks the from-square (marked with
//! dots 7-8), the second the to-square, and the two go to the daemon as
//! targets ([`crate::Action::Selected`], then
//! [`crate::Action::MoveRequest`]) for the game's adapter to resolve like a
//! typed move (it asks back an ambiguous capture). Routing the selected square again unselects it.
//!
//! A square's target is its number ([`target`], [`square`]: [`super::target`]).

use tandem_rules::draughts::Position;

use crate::line::{BrailleLine, Target};
use crate::routing::{GameKeys, Reply, TargetRouting};
use crate::view::{StatusInfo, View, Width};

use super::render::{BrailleRenderer, StandardRenderer};
pub use super::target::{square, target};

/// A draughts position on the display and the square picked on it.
#[derive(Debug, Clone)]
pub struct DraughtsKeys {
    position: Position,
    renderer: StandardRenderer,
    routing: TargetRouting,
}

impl DraughtsKeys {
    /// The keys of `position`, nothing picked.
    #[must_use]
    pub fn new(position: Position) -> DraughtsKeys {
        DraughtsKeys {
            position,
            renderer: StandardRenderer::default(),
            routing: TargetRouting::default(),
        }
    }
}

impl GameKeys for DraughtsKeys {
    fn render(&mut self, status: &StatusInfo, view: View, width: Width) -> Vec<BrailleLine> {
        self.renderer.render(&self.position, status, view, width)
    }

    fn target_at(&self, lines: &[BrailleLine], line: usize, n: usize) -> Option<Target> {
        lines.get(line).and_then(|l| l.cell_to_target(n))
    }

    fn mark(&self, _line: usize, shown: &mut BrailleLine) {
        self.routing.mark(shown);
    }

    fn selected(&self) -> Option<Target> {
        self.routing.selected()
    }

    /// The variant's own name ([`tandem_rules::draughts::Variant::square_name`]:
    /// `32`, or `c3` in 64-square draughts).
    fn selected_name(&self) -> Option<String> {
        let t = self.routing.selected()?;
        Some(match square(t) {
            Some(sq) => self.position.variant().square_name(sq),
            None => t.number().to_string(),
        })
    }

    fn unselect(&mut self) -> bool {
        self.routing.unselect()
    }

    fn reset(&mut self) {
        self.routing.unselect();
    }

    fn route(&mut self, lines: &[BrailleLine], line: usize, n: usize) -> Reply {
        Reply::keep(self.routing.route(lines, line, n))
    }
}

/// The move text of two routed targets, for the game's adapter: the
/// variant's square names, `32 28` (`c3 d4` in 64-square draughts),
/// resolved as a typed move.
#[must_use]
pub fn move_text(variant: tandem_rules::draughts::Variant, from: Target, to: Target) -> String {
    let name = |t: Target| match square(t) {
        Some(sq) => variant.square_name(sq),
        None => t.number().to_string(),
    };
    format!("{} {}", name(from), name(to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::{Action, Key, KeyCommand};
    use crate::ui::BrailleUi;
    use tandem_rules::draughts::{Square, Variant};
    use tandem_rules::Color;

    fn ui(view: View) -> BrailleUi {
        BrailleUi::new(
            Position::start(Variant::International),
            StatusInfo::new(Color::White),
            view,
            Width::new(40).unwrap(),
        )
    }

    /// Square `n` as the view routes it.
    fn sq(n: u8) -> Target {
        target(Square::new(n).unwrap())
    }

    /// The first cell of the current line that shows `n`.
    fn cell_of(ui: &BrailleUi, n: u8) -> u16 {
        ui.current_line().cell_of(sq(n)).unwrap() as u16
    }

    #[test]
    fn two_routing_presses_make_a_move_request() {
        let mut u = ui(View::Rows);
        for _ in 0..6 {
            u.handle(Key::LineDown);
        }
        assert_eq!(u.current_line().text(), "31:w 32:w 33:w 34:w 35:w");
        let c32 = cell_of(&u, 32);
        assert_eq!(
            u.handle(Key::Routing(c32)),
            vec![Action::Selected(sq(32)), Action::Redraw]
        );
        // The selection is marked with dots 7-8 on every cell of "32:w".
        assert_eq!(u.current_line().underlined().len(), 4);
        u.handle(Key::LineUp);
        assert_eq!(u.current_line().text(), "26:- 27:- 28:- 29:- 30:-");
        let c28 = cell_of(&u, 28);
        assert_eq!(
            u.handle(Key::Routing(c28)),
            vec![
                Action::MoveRequest {
                    from: sq(32),
                    to: sq(28)
                },
                Action::Redraw
            ]
        );
        assert_eq!(u.selected(), None);
    }

    #[test]
    fn routing_the_selected_square_unselects_and_labels_bump() {
        let mut u = ui(View::Graphic);
        u.handle(Key::Bottom);
        assert_eq!(u.current_line().text(), "46 wwwww");
        assert_eq!(u.handle(Key::Routing(0)), vec![Action::Bump]); // over "46", a label
        assert_eq!(
            u.handle(Key::Routing(3)),
            vec![Action::Selected(sq(46)), Action::Redraw]
        );
        assert_eq!(u.current_line().cells()[3].0 & 0xC0, 0xC0);
        assert_eq!(
            u.handle(Key::Routing(3)),
            vec![Action::Unselected, Action::Redraw]
        );
        assert_eq!(u.handle(Key::Routing(39)), vec![Action::Bump]); // past the end
    }

    #[test]
    fn two_targets_are_named_by_the_variants_square_names() {
        let v = tandem_rules::draughts::Variant::International;
        assert_eq!(move_text(v, sq(32), sq(28)), "32 28");
    }

    #[test]
    fn routing_a_move_on_the_record_view_opens_the_review_and_cancel_returns() {
        let mut u = BrailleUi::new(
            Position::start(Variant::International),
            StatusInfo::new(Color::White),
            View::Status,
            Width::new(40).unwrap(),
        );
        let moves: Vec<String> = ["32-28", "19-23", "28x19", "14x23"]
            .map(String::from)
            .to_vec();
        u.set_record(moves.clone(), false, None);
        u.handle(Key::Command(KeyCommand::NextView));
        assert_eq!(
            u.current_line().text(),
            "2. 28x19 14x23",
            "at the last move"
        );
        assert_eq!(u.handle(Key::LineDown), vec![Action::Bump]);
        assert_eq!(u.handle(Key::LineUp), vec![Action::Redraw]);
        assert_eq!(u.current_line().text(), "1. 32-28 19-23");
        assert_eq!(u.handle(Key::Routing(0)), vec![Action::Bump], "the number");
        assert_eq!(
            u.handle(Key::Routing(10)),
            vec![Action::Review(2), Action::Redraw]
        );
        assert!(!u.record().shown, "the board's views show the position");
        assert_eq!(u.view(), View::List);
        u.set_record(moves, false, Some(2));
        assert_eq!(
            u.handle(Key::Routing(3)),
            vec![Action::Bump],
            "no move in review"
        );
        assert_eq!(
            u.handle(Key::Command(KeyCommand::Cancel)),
            vec![Action::Live, Action::Redraw]
        );
    }
}
