//! The two boards: which is behind, confirmations, a mismatch read back,
//! the arbiter's correction (001 ch. VIII 3.1, 002 annex E.4).

use super::*;

impl Session {
    pub(super) fn behind_side(&self) -> Color {
        let (w, b) = (
            self.table.behind(Color::White),
            self.table.behind(Color::Black),
        );
        if w > 0 && b == 0 {
            Color::White
        } else if b > 0 && w == 0 {
            Color::Black
        } else {
            self.table.game.turn()
        }
    }

    pub(super) fn tell_missing(&mut self, side: Color) {
        let behind = self.table.behind(side);
        if behind == 0 {
            self.announce_with(|s| s.table.game.boards_in_sync());
            return;
        }
        let at = self.table.boards[idx(side)] as usize;
        self.tell_behind(at, behind);
    }

    /// Says what a board showing the position before ply `at` lacks
    /// (`behind` moves), when the game can say it.
    fn tell_behind(&mut self, at: usize, behind: u32) {
        if self.table.game.board_behind(at, behind).is_some() {
            self.announce_with(|s| {
                s.table
                    .game
                    .board_behind(at, behind)
                    .unwrap_or_else(nothing)
            });
        }
    }

    pub(super) fn done(&mut self, side: Option<Color>, source: Source) -> Reply {
        // A seat's `done` is for its own board (`for_seat` named it; a
        // seat naming the other's is refused before: `other_sides`).
        let side = side.unwrap_or_else(|| self.behind_side());
        let ply = self.table.game.ply() as u32;
        if let Err(e) = self.record(Event::BoardDone { side, ply, source }) {
            return self.unrecorded(source, "done", &e);
        }
        if self.table.behind(Color::White) == 0 && self.table.behind(Color::Black) == 0 {
            self.announce_with(|s| s.table.game.boards_in_sync());
        } else {
            let other = side.other();
            self.tell_missing(other);
        }
        self.ok()
    }

    /// The boards differ (001 ch. VIII 3.1, 002 annex E.4): what a board
    /// read back shows (a position text, or squares one by one) is compared
    /// with the record by the game. It matches the record (said so), or a
    /// whole board shows an earlier position of the record and is only
    /// behind (the move to make is said); else the difference is journaled,
    /// the clock stops for the arbiter, and the differing squares are said
    /// (with no board read back: the record's position, read out). A few
    /// squares read back cannot tell an earlier position, so only a whole
    /// board is looked up.
    pub(super) fn mismatch(&mut self, board: Option<String>, source: Source) -> Reply {
        let check = match self.table.game.check_board(board.as_deref()) {
            Ok(c) => c,
            Err(BoardNotRead) => {
                let b = board.unwrap_or_default();
                return self.refuse_msg(source, &b, &Msg::BoardNotRead(b.clone()));
            }
        };
        if check.matches_now {
            self.say_msg(Priority::Next, Kind::Sync, &Msg::BoardMatches);
            return self.ok();
        }
        if let Some(ply) = check.shows_ply {
            let behind = self.table.board_moves_since(ply);
            self.tell_behind(ply, behind);
            return self.ok();
        }
        if let Err(e) = self.record(Event::Mismatch {
            source,
            board_fen: check.board_fen,
            diffs: check.diffs,
        }) {
            tracing::error!("journal: {e}");
        }
        // A seat's e-board that shows no position of the game is its
        // player's own board to put right while their clock runs
        // (docs/eboards.md); a mismatch reported otherwise stops the clock.
        if source != Source::Eboard {
            self.stop_for_mismatch(source);
        }
        self.announce(check.differ);
        if !check.read_back {
            // Help to find the difference: the record's position, read out.
            self.announce_with(|s| s.table.game.describe_position());
        }
        self.ok()
    }

    /// Stops the clock for a mismatch (001 ch. VIII 3.1, 002 annex E.4): the
    /// arbiter corrects the boards.
    pub(super) fn stop_for_mismatch(&mut self, source: Source) {
        if self.table.clock.is_running() {
            if let Err(e) = self.record(Event::Pause {
                reason: "mismatch".into(),
                source: Some(source),
                seat: self.asker,
            }) {
                tracing::error!("journal: {e}");
            }
        }
    }

    pub(super) fn takeback(&mut self, plies: u32, reason: String, source: Source) -> Reply {
        let input = format!("takeback {plies}");
        if source != Source::Arbiter {
            let m = self.arbiter_only();
            return self.refuse_msg(source, &input, &m);
        }
        let g = &self.table.game;
        if plies == 0 || plies as usize > g.ply() {
            let m = Msg::UnknownCommand(format!("{input} ({} plies played)", g.ply()));
            return self.refuse_msg(source, &input, &m);
        }
        let undone: Vec<String> = g.move_texts()[g.ply() - plies as usize..].to_vec();
        if let Err(e) = self.record(Event::Correction {
            plies,
            undone,
            source,
            reason,
        }) {
            tracing::error!("journal: {e}");
            return self.refuse_msg(source, &input, &Msg::JournalFailed);
        }
        self.say_msg(Priority::Next, Kind::Sync, &Msg::TakenBack(plies));
        self.announce_with(|s| s.words.turn(s.table.game.turn()));
        self.refresh();
        self.ok()
    }
}
