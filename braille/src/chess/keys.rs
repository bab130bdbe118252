//! Chess's key input on the display (002 annex E): a routing key over a
//! cell that shows a square selects it. [`Action::SelectedSquare`] names the
//! from-square (`e2`), then [`Action::MoveText`] gives the two squares as
//! move text (`e2e4`, castling as the king's two squares `e1g1`) for the
//! rules engine, which checks the move. A pawn routed to its last rank
//! shows the choice line `e8= Q R B N` instead: routing a letter gives the
//! move with its piece (`e7e8q`, 002 art. 3.7(e): the player chooses); any
//! other key drops it. Routing the selected square again unselects it.
//!
//! A square's target is its number 1-64 ([`tandem_rules::chess::square_number`]).

use tandem_rules::chess::shakmaty::{Chess, Color as ShColor, Position as _, Rank, Role, Square};
use tandem_rules::chess::square_number;

use crate::keys::{Action, Key};
use crate::line::{BrailleLine, Target};
use crate::routing::{GameKeys, Reply, SELECTION_MARK};
use crate::view::{StatusInfo, View, Width};

use super::{move_text, ChessLine, ChessRenderer};

/// The line shown while a promotion waits for its piece: routing over a
/// letter chooses it (queen, rook, bishop, knight).
const PROMOTION_CHOICES: [(char, char); 4] = [('Q', 'q'), ('R', 'r'), ('B', 'b'), ('N', 'n')];

/// A chess position on the display, the square picked on it and a
/// promotion waiting for its piece.
#[derive(Debug, Clone)]
pub struct ChessKeys {
    position: Chess,
    renderer: ChessRenderer,
    /// The lines last rendered, with the square under each cell.
    lines: Vec<ChessLine>,
    selected: Option<Square>,
    /// A pawn routed to the last rank waits for its piece (002 art. 3.7(e):
    /// the player chooses): the from and to squares.
    promotion: Option<(Square, Square)>,
}

impl ChessKeys {
    /// The keys of `position`, nothing picked.
    #[must_use]
    pub fn new(position: Chess) -> ChessKeys {
        ChessKeys {
            position,
            renderer: ChessRenderer::default(),
            lines: Vec::new(),
            selected: None,
            promotion: None,
        }
    }

    fn square_at(&self, line: usize, n: usize) -> Option<Square> {
        self.lines.get(line).and_then(|l| l.cell_to_square(n))
    }

    /// Whether `from`-`to` takes a pawn to its last rank (the rules engine
    /// still checks the move itself).
    fn is_promotion(&self, from: Square, to: Square) -> bool {
        self.position.board().piece_at(from).is_some_and(|p| {
            p.role == Role::Pawn
                && match p.color {
                    ShColor::White => to.rank() == Rank::Eighth,
                    ShColor::Black => to.rank() == Rank::First,
                }
        })
    }

    /// A routing key over the promotion line: a letter gives the move with
    /// its piece (`e7e8q`); another cell does nothing.
    fn choose_promotion(&mut self, n: u16) -> Vec<Action> {
        let Some((from, to)) = self.promotion else {
            return vec![Action::Bump];
        };
        let text = promotion_text(to);
        let Some(piece) = text
            .chars()
            .nth(usize::from(n))
            .and_then(|c| PROMOTION_CHOICES.iter().find(|(l, _)| *l == c))
            .map(|(_, p)| *p)
        else {
            return vec![Action::Bump];
        };
        self.promotion = None;
        self.selected = None;
        vec![
            Action::MoveText(format!("{}{piece}", move_text(from, to))),
            Action::Redraw,
        ]
    }
}

impl GameKeys for ChessKeys {
    fn render(&mut self, status: &StatusInfo, view: View, width: Width) -> Vec<BrailleLine> {
        self.lines = self.renderer.render(&self.position, status, view, width);
        self.lines.iter().map(|l| l.line.clone()).collect()
    }

    fn target_at(&self, _lines: &[BrailleLine], line: usize, n: usize) -> Option<Target> {
        self.square_at(line, n)
            .map(|sq| Target::new(u16::from(square_number(sq))))
    }

    fn mark(&self, line: usize, shown: &mut BrailleLine) {
        if let Some(sq) = self.selected {
            let mut l = self.lines.get(line).cloned().unwrap_or_default();
            l.mark(sq, SELECTION_MARK);
            *shown = l.line;
        }
    }

    fn waiting_line(&self) -> Option<BrailleLine> {
        self.promotion
            .map(|(_, to)| BrailleLine::from_text(&promotion_text(to)))
    }

    fn selected_name(&self) -> Option<String> {
        self.selected.map(|sq| sq.to_string())
    }

    fn unselect(&mut self) -> bool {
        self.selected.take().is_some()
    }

    fn reset(&mut self) {
        self.selected = None;
        self.promotion = None;
    }

    fn choosing(&self) -> bool {
        self.promotion.is_some()
    }

    /// A routing key chooses the piece; any other key drops the promotion.
    fn choice_key(&mut self, key: Key) -> Vec<Action> {
        match key {
            Key::Routing(n) => self.choose_promotion(n),
            _ => {
                self.promotion = None;
                self.selected = None;
                vec![Action::Cancel, Action::Redraw]
            }
        }
    }

    fn route(&mut self, _lines: &[BrailleLine], line: usize, n: usize) -> Reply {
        let Some(sq) = self.square_at(line, n) else {
            return Reply::keep(vec![Action::Bump]);
        };
        Reply::keep(match self.selected.take() {
            Some(from) if from == sq => vec![Action::Unselected, Action::Redraw],
            // The piece is the player's choice: show the choices.
            Some(from) if self.is_promotion(from, sq) => {
                self.promotion = Some((from, sq));
                vec![Action::Redraw]
            }
            Some(from) => vec![Action::MoveText(move_text(from, sq)), Action::Redraw],
            None => {
                self.selected = Some(sq);
                vec![Action::SelectedSquare(sq.to_string()), Action::Redraw]
            }
        })
    }
}

/// The promotion line: `e8= Q R B N` (the letters are routable).
fn promotion_text(to: Square) -> String {
    let letters: Vec<String> = PROMOTION_CHOICES
        .iter()
        .map(|(l, _)| l.to_string())
        .collect();
    format!("{to}= {}", letters.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::keys::KeyCommand;
    use crate::ui::BrailleUi;
    use tandem_rules::Color;

    fn chess_ui(pos: Chess, view: View, width: u16) -> BrailleUi {
        BrailleUi::with_board(
            Board::Chess(pos),
            StatusInfo::new(Color::White),
            view,
            Width::new(width).unwrap(),
        )
    }

    impl BrailleUi {
        fn board_chess(&self) -> &Chess {
            match self.board() {
                Board::Chess(c) => c,
                _ => panic!("not a chess board"),
            }
        }
    }

    #[test]
    fn chess_two_routing_presses_give_move_text() {
        let mut u = chess_ui(tandem_rules::chess::start(), View::Rows, 40);
        assert_eq!(
            u.current_line().text(),
            "a8:r b8:n c8:b d8:q e8:k f8:b g8:n h8:r"
        );
        for _ in 0..6 {
            u.handle(Key::LineDown);
        }
        assert_eq!(
            u.current_line().text(),
            "a2:P b2:P c2:P d2:P e2:P f2:P g2:P h2:P"
        );
        // Over the "2" of "e2:P".
        assert_eq!(
            u.handle(Key::Routing(21)),
            vec![Action::SelectedSquare("e2".into()), Action::Redraw]
        );
        assert_eq!(u.selected_name().as_deref(), Some("e2"));
        assert_eq!(u.selected(), None, "no draughts square");
        // Dots 7-8 on the four cells of "e2:P" and nowhere else; the text stays.
        assert_eq!(u.current_line().underlined(), vec![20, 21, 22, 23]);
        assert_eq!(
            u.current_line().text(),
            "a2:P b2:P c2:P d2:P e2:P f2:P g2:P h2:P"
        );
        assert_eq!(
            u.lines()[6].cells()[20].0 & 0xC0,
            0,
            "lines() stay unmarked"
        );
        u.handle(Key::LineUp);
        u.handle(Key::LineUp);
        assert_eq!(
            u.current_line().text(),
            "a4:- b4:- c4:- d4:- e4:- f4:- g4:- h4:-"
        );
        assert!(
            u.current_line().underlined().is_empty(),
            "e2 is not on this line"
        );
        assert_eq!(
            u.handle(Key::Routing(20)),
            vec![Action::MoveText("e2e4".into()), Action::Redraw]
        );
        assert_eq!(u.selected_name(), None);
    }

    #[test]
    fn chess_routing_the_selected_square_unselects_and_labels_bump() {
        let mut u = chess_ui(tandem_rules::chess::start(), View::Graphic, 40);
        u.handle(Key::Bottom);
        assert_eq!(u.current_line().text(), "1 RNBQKBNR");
        assert_eq!(u.handle(Key::Routing(0)), vec![Action::Bump]); // the rank label
        assert_eq!(
            u.handle(Key::Routing(6)),
            vec![Action::SelectedSquare("e1".into()), Action::Redraw]
        );
        assert_eq!(u.current_line().underlined(), vec![6]);
        assert_eq!(
            u.handle(Key::Routing(6)),
            vec![Action::Unselected, Action::Redraw]
        );
        assert!(u.current_line().underlined().is_empty());
        assert_eq!(u.selected_name(), None);
        assert_eq!(u.handle(Key::Routing(39)), vec![Action::Bump]); // past the end
                                                                    // Cancel drops a selection as for draughts.
        u.handle(Key::Routing(3));
        assert_eq!(
            u.handle(Key::Command(KeyCommand::Cancel)),
            vec![Action::Cancel, Action::Redraw]
        );
        assert_eq!(u.selected_name(), None);
    }

    #[test]
    fn chess_a_pawn_reaching_the_last_rank_waits_for_the_piece_chosen_on_the_display() {
        let pos = tandem_rules::chess::from_fen("8/4P3/8/8/8/8/8/4K2k w - - 0 1").unwrap();
        let mut u = chess_ui(pos, View::Graphic, 40);
        u.handle(Key::LineDown);
        assert_eq!(u.current_line().text(), "7 ----P---");
        u.handle(Key::Routing(6));
        u.handle(Key::LineUp);
        // e8: nothing is sent yet; the display offers the pieces (002 art. 3.7(e)).
        assert_eq!(u.handle(Key::Routing(6)), vec![Action::Redraw]);
        assert_eq!(u.current_line().text(), "e8= Q R B N");
        // A cell that is not a letter does nothing; the knight's letter chooses it.
        assert_eq!(u.handle(Key::Routing(2)), vec![Action::Bump]);
        assert_eq!(
            u.handle(Key::Routing(10)),
            vec![Action::MoveText("e7e8n".into()), Action::Redraw]
        );
        let m = tandem_rules::chess::resolve(u.board_chess(), "e7e8n").unwrap();
        assert_eq!(
            m.promotion,
            Some(tandem_rules::chess::shakmaty::Role::Knight)
        );
        // The board is back, with no selection.
        assert_eq!(u.current_line().text(), "8 --------");
        // Any other key drops a waiting promotion.
        u.handle(Key::LineDown);
        u.handle(Key::Routing(6));
        u.handle(Key::LineUp);
        u.handle(Key::Routing(6));
        assert_eq!(
            u.handle(Key::Command(KeyCommand::Cancel)),
            vec![Action::Cancel, Action::Redraw]
        );
        assert_eq!(u.current_line().text(), "8 --------");
        assert_eq!(u.selected_name(), None);
        // A pawn's move to another rank, and a piece to the last rank, go at once.
        let pos = tandem_rules::chess::from_fen("8/8/8/8/8/8/4P3/R3K2k w - - 0 1").unwrap();
        let mut u = chess_ui(pos, View::Graphic, 40);
        u.handle(Key::Bottom);
        u.handle(Key::Routing(2)); // a1
        u.handle(Key::Top);
        assert_eq!(
            u.handle(Key::Routing(2)),
            vec![Action::MoveText("a1a8".into()), Action::Redraw]
        );
    }

    #[test]
    fn chess_castling_is_routed_as_the_kings_two_squares() {
        let pos = tandem_rules::chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let mut u = chess_ui(pos, View::Graphic, 40);
        u.handle(Key::Bottom);
        u.handle(Key::Routing(6)); // e1
        let actions = u.handle(Key::Routing(8)); // g1
        assert_eq!(
            actions,
            vec![Action::MoveText("e1g1".into()), Action::Redraw]
        );
        let m = tandem_rules::chess::resolve(u.board_chess(), "e1g1").unwrap();
        assert!(m.castling().is_some(), "{m:?}");
    }
}
