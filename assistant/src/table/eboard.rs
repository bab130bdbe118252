//! The seats' e-boards as a part (`--seat SIDE:board=chesslink:PATH`,
//! docs/eboards.md): for each seat with a board, a thread on its serial
//! line and a task that plays the moves read from it for that seat and
//! lights the other side's moves on it (`crate::eboard`).

use std::io::Write as _;

use super::{Game, Input, Opens, Part, Running, Stage, Stopping, Table};
use crate::config::Config;
use crate::eboard::{EboardPart, RunningEboard};

/// Every seat's e-board.
pub struct EboardsPart {
    boards: Vec<EboardPart>,
    running: Vec<RunningEboard>,
}

impl EboardsPart {
    /// The seats' boards, when a seat has one.
    #[must_use]
    pub fn of(config: &Config) -> Option<Box<dyn Part>> {
        let boards: Vec<EboardPart> = config
            .seats
            .iter()
            .filter_map(EboardPart::from_seat)
            .collect();
        (!boards.is_empty()).then(|| {
            Box::new(EboardsPart {
                boards,
                running: Vec::new(),
            }) as Box<dyn Part>
        })
    }
}

impl Part for EboardsPart {
    fn name(&self) -> &'static str {
        "eboards"
    }

    fn opens(&self) -> Opens {
        self.boards
            .iter()
            .fold(Opens::none().input(Input::Eboard), |o, b| {
                b.opens()
                    .iter()
                    .fold(o, |o, p| o.device(p.display().to_string()))
            })
    }

    /// A board only for a game whose positions it can show (chess).
    fn attach(&mut self, _table: &mut Table, game: &mut Game<'_>) -> anyhow::Result<()> {
        let g = &game.session.table().game;
        if g.board_sight().is_none() {
            anyhow::bail!(
                "--seat …:board=…: e-boards are for chess (no {} e-board protocol is published; docs/eboards.md)",
                g.kind().name()
            );
        }
        Ok(())
    }

    fn start(&mut self, _table: &mut Table, run: &Running<'_>) -> anyhow::Result<()> {
        for b in self.boards.drain(..) {
            let paths: Vec<String> = b.opens().iter().map(|p| p.display().to_string()).collect();
            let _ = writeln!(
                std::io::stderr(),
                "tandem: {} e-board at {}",
                b.side(),
                paths.join(", ")
            );
            self.running
                .push(b.start(run.handle.clone(), run.facts.msgs.clone())?);
        }
        Ok(())
    }

    /// Reads no more moves before the session ends.
    fn stage(&self) -> Stage {
        Stage::Inputs
    }

    fn stop(self: Box<Self>) -> Stopping {
        Box::pin(async move {
            for r in self.running {
                r.stop();
            }
        })
    }
}
