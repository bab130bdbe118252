//! The record at the table (001 ch. VIII 2.4, 002 annex E; issue 15): the
//! moves read out with their numbers, and the review: a cursor (a ply)
//! apart from the live game that `move 12`, a routed move on the braille
//! record view, `next` and `back` move, `position` reads the position at,
//! and `live` closes. The game goes on meanwhile: a move played is
//! announced as always and the review stays where it is.
//!
//! Nothing here is journaled but what is said (the `announced` lines): the
//! record is read, not changed.

use std::ops::Range;

use tandem_speech::RecordWord;

use super::*;

/// The default of `record-last`: how many move pairs `record` reads.
pub const DEFAULT_RECORD_LAST: u32 = 3;

impl Session {
    /// How many move pairs a bare `record` reads (`record-last`; at least one).
    pub fn set_record_last(&mut self, pairs: u32) {
        self.record_last = pairs.max(1);
    }

    /// The review cursor: the review shows the position after this many
    /// plies; `None` while live.
    #[must_use]
    pub fn review(&self) -> Option<usize> {
        self.review
    }

    fn offset(&self) -> usize {
        usize::from(self.table.game.black_first())
    }

    /// The move number (from 1) of ply index `i` (0: the first move played).
    fn number_of(&self, i: usize) -> u32 {
        u32::try_from((i + self.offset()) / 2 + 1).unwrap_or(u32::MAX)
    }

    /// The ply indices of move `n` played so far.
    fn plies_of(&self, n: u32) -> Range<usize> {
        let slot = (n.max(1) as usize - 1) * 2;
        let start = slot.saturating_sub(self.offset());
        let end = (slot + 2 - self.offset()).min(self.table.game.ply());
        start..end.max(start)
    }

    /// The number of the last move played (0: none).
    fn last_number(&self) -> u32 {
        match self.table.game.ply() {
            0 => 0,
            p => self.number_of(p - 1),
        }
    }

    fn ply_words(&self, i: usize) -> Option<(Option<Color>, Utterance)> {
        let words = self.table.game.move_words(i)?;
        Some((self.table.game.record_side(i), words))
    }

    /// Move `n` read out (both its plies played so far).
    fn move_utterance(&self, n: u32) -> Utterance {
        let plies: Vec<_> = self.plies_of(n).filter_map(|i| self.ply_words(i)).collect();
        self.words.record_plies(n, &plies)
    }

    fn record_refusal(&mut self, source: Source, input: &str, w: RecordWord) -> Reply {
        let reason = self.words.record_word(w).text();
        self.refuse_with(source, input, reason, |s| s.words.record_word(w))
    }

    /// `record [FROM [TO]]`: the moves from FROM to TO (to the last), or
    /// the last `record-last` pairs, read out numbered.
    pub(super) fn read_record(
        &mut self,
        from: Option<u32>,
        to: Option<u32>,
        source: Source,
    ) -> Reply {
        let input = match (from, to) {
            (Some(f), Some(t)) => format!("record {f} {t}"),
            (Some(f), None) => format!("record {f}"),
            _ => "record".to_owned(),
        };
        let last = self.last_number();
        if last == 0 {
            self.announce_with(|s| s.words.record_word(RecordWord::Empty));
            return self.ok();
        }
        let from = from.unwrap_or_else(|| (last + 1).saturating_sub(self.record_last).max(1));
        if from == 0 || from > last {
            return self.record_refusal(source, &input, RecordWord::NoMove(from));
        }
        let to = to.unwrap_or(last);
        if to < from {
            return self.record_refusal(source, &input, RecordWord::NoMove(to));
        }
        for n in from..=to.min(last) {
            self.announce_with(|s| s.move_utterance(n));
        }
        self.ok()
    }

    /// `move N`: move N read out, and the review opened at its last ply.
    pub(super) fn review_move(&mut self, n: u32, source: Source) -> Reply {
        let plies = self.plies_of(n);
        if n == 0 || plies.is_empty() {
            return self.record_refusal(source, &format!("move {n}"), RecordWord::NoMove(n));
        }
        self.review = Some(plies.end);
        self.announce_with(|s| s.move_utterance(n));
        self.ok()
    }

    /// A move routed on the braille record: the review opened after ply
    /// `ply` (from 1), that move read out.
    pub(super) fn review_ply(&mut self, ply: u32, source: Source) -> Reply {
        let p = ply as usize;
        if p == 0 || p > self.table.game.ply() {
            let n = if p == 0 { 0 } else { self.number_of(p - 1) };
            return self.record_refusal(source, &format!("review {ply}"), RecordWord::NoMove(n));
        }
        self.review = Some(p);
        self.say_ply(p - 1);
        self.ok()
    }

    fn say_ply(&mut self, i: usize) {
        if self.ply_words(i).is_some() {
            self.announce_with(|s| match s.ply_words(i) {
                Some(w) => s.words.record_plies(s.number_of(i), &[w]),
                None => nothing(),
            });
        }
    }

    /// `next` / `back`: the review one ply on or back, that ply read out.
    /// With no review open, `back` opens it at the last move and `next` is refused.
    pub(super) fn review_step(&mut self, forward: bool, source: Source) -> Reply {
        let input = if forward { "next" } else { "back" };
        let plies = self.table.game.ply();
        if plies == 0 {
            self.announce_with(|s| s.words.record_word(RecordWord::Empty));
            return self.ok();
        }
        let Some(at) = self.review else {
            if forward {
                return self.record_refusal(source, input, RecordWord::NotReviewing);
            }
            self.review = Some(plies);
            self.say_ply(plies - 1);
            return self.ok();
        };
        let to = if forward {
            at + 1
        } else {
            at.saturating_sub(1)
        };
        if to == 0 {
            self.announce_with(|s| s.words.record_word(RecordWord::First));
            return self.ok();
        }
        if to > plies {
            self.announce_with(|s| s.words.record_word(RecordWord::Last));
            return self.ok();
        }
        self.review = Some(to);
        self.say_ply(to - 1);
        self.ok()
    }

    /// `position` in review: the position after the review's ply.
    pub(super) fn review_position(&mut self, at: usize) {
        let head = if at == 0 {
            RecordWord::StartPosition
        } else {
            let side = self
                .table
                .game
                .position_at(at - 1)
                .map_or(Color::White, |p| p.turn());
            RecordWord::PositionAfter(self.number_of(at - 1), side)
        };
        self.announce_with(|s| s.words.record_word(head));
        if self.table.game.describe_position_at(at).is_some() {
            self.announce_with(|s| {
                s.table
                    .game
                    .describe_position_at(at)
                    .unwrap_or_else(nothing)
            });
        }
    }

    /// `live`: the review closed, the live game shown again.
    pub(super) fn review_live(&mut self, source: Source) -> Reply {
        if self.review.take().is_none() {
            return self.record_refusal(source, "live", RecordWord::NotReviewing);
        }
        self.announce_with(|s| s.words.record_word(RecordWord::Live));
        self.ok()
    }
}
