//! The game state rebuilt from journal events (game, clock, boards, draw
//! offers): one `apply` for live play and for the replay after a crash.

use super::*;

/// The game state rebuilt from journal events: game, clock, boards, draw offers.
#[derive(Debug, Clone)]
pub struct Table {
    /// The start info (journal line 1).
    pub info: StartInfo,
    /// The game, behind the one game interface.
    pub game: Box<dyn Game>,
    /// The clock.
    pub clock: Clock,
    /// The ply each side's board shows.
    pub boards: [u32; 2],
    /// A pending draw offer and who made it.
    pub draw_offer: Option<Color>,
    /// Sides whose offer was declined and may not offer again yet (001 ch. II 5.1).
    pub barred: [bool; 2],
    /// A result event was recorded.
    pub result: Option<Outcome>,
    /// A board read back differed from the record (cleared when the clock resumes).
    pub differ: bool,
}

pub(super) fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

pub(super) fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Table {
    /// The state at the start of a game; the clock starts at game time zero.
    ///
    /// # Errors
    /// The start info names an unknown variant, a bad FEN or time control.
    pub fn new(info: StartInfo) -> anyhow::Result<Table> {
        let game = crate::game::from_journal(&info.variant, &info.fen, info.options, &info.lang)?;
        let control = TimeControl::lookup(&info.control).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut clock = Clock::new(control)
            .with_warnings(info.warnings_s.iter().map(|s| Duration::from_secs(*s)));
        clock
            .start_with(game.turn(), GameTime::ZERO)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(Table {
            game,
            info,
            clock,
            boards: [0, 0],
            draw_offer: None,
            barred: [false, false],
            result: None,
            differ: false,
        })
    }

    /// Rebuilds the state from a journal's records.
    ///
    /// # Errors
    /// The journal has no start, or an event cannot be applied (a journal
    /// written by another program).
    pub fn replay<R: std::borrow::Borrow<Record>>(records: &[R]) -> anyhow::Result<Table> {
        let Some(Record {
            event: Event::Start(info),
            ..
        }) = records.first().map(R::borrow)
        else {
            anyhow::bail!("the journal does not begin with a game start");
        };
        let mut t = Table::new(info.clone())?;
        for r in records[1..].iter().map(R::borrow) {
            t.apply(&r.event, GameTime::from_millis(r.t_ms))
                .map_err(|e| anyhow::anyhow!("journal line {}: {e}", r.seq))?;
        }
        Ok(t)
    }

    /// Applies an event that has been journaled.
    ///
    /// # Errors
    /// The event contradicts the state (only for a foreign journal: the
    /// session decides every event against this state before writing it).
    pub fn apply(&mut self, event: &Event, at: GameTime) -> anyhow::Result<()> {
        match event {
            Event::Move { text, side, .. } => self.apply_move(text, *side, at)?,
            Event::Action {
                text, side, press, ..
            } => {
                self.game
                    .play_action(text)
                    .map_err(|e| anyhow::anyhow!("action {text}: {e}"))?;
                if *press {
                    self.press(*side, at)?;
                }
            }
            Event::BoardDone { side, ply, .. } => {
                self.boards[idx(*side)] = (*ply).min(self.game.ply() as u32)
            }
            Event::Mismatch { .. } => self.differ = true,
            Event::DrawOffer { side } => {
                self.draw_offer = Some(*side);
                // An offer from the opponent lifts one's own bar.
                self.barred[idx(side.other())] = false;
            }
            Event::DrawDeclined { side } => {
                self.draw_offer = None;
                self.barred[idx(side.other())] = true;
            }
            Event::Result { outcome, .. } => {
                self.game.declare(*outcome);
                self.result = Some(*outcome);
                self.draw_offer = None;
                if self.clock.is_running() {
                    let _ = self.clock.pause(at);
                }
            }
            Event::Correction { plies, undone, .. } => self.apply_correction(*plies, undone, at)?,
            Event::Start(_) => anyhow::bail!("a second game start"),
            other if Table::changes_only_time(other) => {}
            // The clock's own lines (pause, resume, flag, warnings, a time set).
            other => self.apply_clock(other, at)?,
        }
        Ok(())
    }

    /// Presses the clock for `side` (a move, an action that ends the turn).
    fn press(&mut self, side: Color, at: GameTime) -> anyhow::Result<()> {
        if self.clock.is_running() {
            self.clock
                .press(at)
                .map_err(|e| anyhow::anyhow!("clock: {e}"))?;
        } else {
            // A move entered while the clock was stopped (not done by
            // the session) still changes the side whose time runs.
            let _ = self.clock.set_turn(side.other(), at);
        }
        Ok(())
    }

    fn apply_move(&mut self, text: &str, side: Color, at: GameTime) -> anyhow::Result<()> {
        anyhow::ensure!(side == self.game.turn(), "{side} moved out of turn");
        self.game
            .play_text(text)
            .map_err(|e| anyhow::anyhow!("move {text}: {e}"))?;
        self.press(side, at)?;
        // The mover made it on their own board; that confirms the
        // earlier moves too (design: "The flow of one move", 4).
        self.boards[idx(side)] = self.game.ply() as u32;
        if self.draw_offer == Some(side.other()) {
            self.draw_offer = None;
        }
        Ok(())
    }

    /// The clock's lines: pause, resume, flag and warnings, the arbiter's
    /// time set, an incorrect draw claim's added time.
    fn apply_clock(&mut self, event: &Event, at: GameTime) -> anyhow::Result<()> {
        let clock = |e: tandem_rules::clock::ClockError| anyhow::anyhow!("clock: {e}");
        match event {
            Event::Pause { .. } if self.clock.is_running() => {
                self.clock.pause(at).map_err(clock)?;
            }
            Event::Resume { .. } => {
                self.differ = false;
                if self.clock.is_paused() {
                    self.clock.resume(at).map_err(clock)?;
                }
            }
            Event::DrawClaim {
                side,
                valid: false,
                added_ms,
                ..
            } => {
                // 002 art. 9.5(b): the opponent gets the time.
                let opp = side.other();
                let left = self.clock.remaining(opp, at);
                self.clock
                    .set_remaining(opp, left + Duration::from_millis(*added_ms), at)
                    .map_err(clock)?;
            }
            // The clock gave these itself: settle it at that moment so it
            // does not give them again.
            Event::Flag { .. } | Event::Warning { .. } => {
                let _ = self.clock.advance(at);
            }
            Event::ClockSet {
                side, remaining_ms, ..
            } => {
                self.clock
                    .set_remaining(*side, Duration::from_millis(*remaining_ms), at)
                    .map_err(clock)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The arbiter's takeback (001 ch. VIII 3.1.2).
    fn apply_correction(
        &mut self,
        plies: u32,
        undone: &[String],
        at: GameTime,
    ) -> anyhow::Result<()> {
        anyhow::ensure!(
            plies as usize <= self.game.ply() && undone.len() == plies as usize,
            "a correction of {plies} plies after {} plies",
            self.game.ply()
        );
        for _ in 0..plies {
            self.game.undo();
        }
        let ply = self.game.ply() as u32;
        for b in &mut self.boards {
            *b = (*b).min(ply);
        }
        self.draw_offer = None;
        self.result = None;
        // The clock follows the record: the side to move and the
        // moves each side has made (time is the arbiter's `clock set`).
        for c in [Color::White, Color::Black] {
            let _ = self.clock.set_moves(c, self.game.moves_made(c), at);
        }
        let _ = self.clock.set_turn(self.game.turn(), at);
        Ok(())
    }

    /// Whether `event` changes nothing of the game but its time: `apply`
    /// does nothing with it (its last arm), the clock runs on to its `at`.
    #[must_use]
    pub fn changes_only_time(event: &Event) -> bool {
        matches!(
            event,
            Event::Tick
                | Event::Announced { .. }
                | Event::Rejected { .. }
                | Event::Say { .. }
                | Event::Resumed { .. }
                | Event::JournalDegraded { .. }
                | Event::JournalRecovered { .. }
                | Event::Heard { .. }
                | Event::Microphone { .. }
                | Event::Witness(_)
                | Event::Paired { .. }
                | Event::Unpaired { .. }
                | Event::Report(_)
        )
    }

    /// Moves a side's board lacks: the plies since the one it shows that
    /// change the pieces ([`Game::changes_board`]).
    #[must_use]
    pub fn behind(&self, side: Color) -> u32 {
        self.board_moves_since(self.boards[idx(side)] as usize)
    }

    /// The plies after the first `ply` that change the pieces on a board
    /// (a roll of the dice or a cube action changes none).
    #[must_use]
    pub fn board_moves_since(&self, ply: usize) -> u32 {
        let n = (ply..self.game.ply())
            .filter(|&i| self.game.changes_board(i))
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// The state as reported, with what only the terminal screen and the
    /// devices' board pages show.
    #[must_use]
    pub fn view(&self, at: GameTime, journal: &Path) -> StateView {
        let mut v = self.report(at, journal);
        v.screen = ScreenView {
            diagram: self.game.diagram(),
            record: self.game.record_lines(),
            // A rated game without hints completes no move (issue 41).
            legal: if self.game.hints() {
                self.game.legal_move_texts()
            } else {
                Vec::new()
            },
            differ: self.differ,
        };
        // What a device's board page may tap (not the desk's: it replays
        // with `report`).
        if v.outcome.is_none() {
            v.taps = self.game.taps();
            v.sight = self.game.board_sight();
        }
        v
    }

    /// Both clocks at game time `at`, as reported.
    #[must_use]
    pub fn clocks_view(&self, at: GameTime) -> ClocksView {
        let side = |c: Color| ClockView {
            remaining_ms: ms(self.clock.remaining(c, at)),
            used_ms: ms(self.clock.used(c, at)),
            moves: self.game.moves_made(c),
            flag_ms: self.clock.flag(c, at).map(GameTime::as_millis),
        };
        ClocksView {
            white: side(Color::White),
            black: side(Color::Black),
            running: self.clock.is_running(),
            paused: self.clock.is_paused(),
            control: self.clock.control().to_string(),
        }
    }

    /// The state as reported, without the screen's views (the diagram, the
    /// numbered record, the legal moves): what the hall's desk replays.
    #[must_use]
    pub fn report(&self, at: GameTime, journal: &Path) -> StateView {
        let board = |c: Color| BoardView {
            ply: self.boards[idx(c)],
            behind: self.behind(c),
        };
        let outcome = self.game.outcome();
        StateView {
            variant: self.game.kind().name().to_owned(),
            fen: self.game.fen(),
            ply: self.game.ply() as u32,
            turn: self.game.turn(),
            moves: self.game.move_texts(),
            clocks: self.clocks_view(at),
            boards: BoardsView {
                white: board(Color::White),
                black: board(Color::Black),
            },
            board: self.game.picture(),
            result: outcome.map(|o| self.game.result_text(Some(o)).to_owned()),
            outcome,
            draw_offer: self.draw_offer,
            t_ms: at.as_millis(),
            journal: journal.to_owned(),
            journal_seq: 0,
            journal_health: JournalHealth {
                ok: true,
                ..JournalHealth::default()
            },
            extra: self.game.state_extra(),
            taps: crate::interface::Taps::default(),
            sight: None,
            screen: ScreenView::default(),
        }
    }

    /// The braille status line's facts.
    #[must_use]
    pub fn status(&self, at: GameTime) -> StatusInfo {
        let timed = !self.clock.control().is_untimed();
        StatusInfo {
            last_move: self.game.last_move_text(),
            to_move: self.game.turn(),
            // No running times without a clock (`--control none`).
            white_clock: timed.then(|| self.clock.remaining(Color::White, at)),
            black_clock: timed.then(|| self.clock.remaining(Color::Black, at)),
            white_behind: self.behind(Color::White),
            black_behind: self.behind(Color::Black),
        }
    }
}

/// Builds the start info of a new game.
#[must_use]
pub fn start_info(setup: &GameSetup) -> StartInfo {
    StartInfo {
        variant: setup.start.kind().name().to_owned(),
        fen: setup.start.to_fen(),
        control: setup.control.to_string(),
        warnings_s: setup.warnings.iter().map(Duration::as_secs).collect(),
        white: setup.white.clone(),
        black: setup.black.clone(),
        event: setup.event.clone(),
        round: setup.round.clone(),
        blind: setup.blind.name().to_owned(),
        lang: setup.lang.clone(),
        options: setup.options,
        version: env!("CARGO_PKG_VERSION").to_owned(),
    }
}
