//! The relay to the hall's broker as a part (`--relay`, docs/hall.md): it
//! follows the journal file, read when the session's handle says lines
//! reached it, and the control socket; the game never waits for it. In a hall only the desk acts as the arbiter, through the token
//! made here that only the relay and the control socket know.

use super::{Opens, Part, Running, Stage, Stopping, Table};
use crate::config::Config;
use crate::relay::{RelaySettings, RelayTask};

/// The table's line to the hall.
pub struct RelayPart {
    settings: RelaySettings,
    token: Option<String>,
    task: Option<RelayTask>,
}

impl RelayPart {
    /// The relay, with `--relay`.
    #[must_use]
    pub fn of(config: &Config) -> Option<Box<dyn Part>> {
        config.relay.clone().map(|settings| {
            Box::new(RelayPart {
                settings,
                token: None,
                task: None,
            }) as Box<dyn Part>
        })
    }
}

impl Part for RelayPart {
    fn name(&self) -> &'static str {
        "relay"
    }

    fn opens(&self) -> Opens {
        let b = &self.settings.broker;
        Opens::none().connect(format!("{}:{}", b.host, b.port))
    }

    /// Who may act as the arbiter at this table: without a hall, whoever has
    /// the local arbiter's secret, as before. In a hall only the desk: its
    /// signed commands, checked by the relay, which alone knows the token the
    /// control socket takes (made here, never written anywhere); the local
    /// secret is dropped, and what the table will refuse is said at start.
    fn open(&mut self, table: &mut Table) -> anyhow::Result<()> {
        let mut token = [0u8; 32];
        crate::random::fill(&mut token)
            .map_err(|_| anyhow::anyhow!("no randomness for the relay's token"))?;
        if table.arbiter.take().is_some() {
            table.notes.push(
                "the local arbiter's secret is not taken at a table in a hall: takeback and clock \
                 set come only as commands signed by the arbiter's desk"
                    .to_owned(),
            );
        }
        match &self.settings.desk_key {
            Some(k) => table.notes.push(format!(
                "the desk's commands are checked with the desk's key {}",
                k.fingerprint()
            )),
            None => table.notes.push(
                "no --desk-key: this table refuses every command from the arbiter's desk (pause, \
                 resume, say, takeback, clock set) and writes no witness of its journal; give \
                 --desk-key desk.pub (made by `tandem hall keygen`)"
                    .to_owned(),
            ),
        }
        let token = crate::desk_key::hex(&token);
        table.relay_token = Some(token.clone());
        self.token = Some(token);
        Ok(())
    }

    fn start(&mut self, table: &mut Table, run: &Running<'_>) -> anyhow::Result<()> {
        if let Some(token) = self.token.take() {
            let followed = crate::relay::Followed {
                socket: table.socket.clone(),
                journal: run.facts.journal.clone(),
                written: run.handle.journal_written(),
            };
            self.task = Some(crate::relay::spawn(self.settings.clone(), followed, token));
        }
        Ok(())
    }

    fn stage(&self) -> Stage {
        Stage::Hall
    }

    /// The journal's last lines (the result) sent before the table stops,
    /// for a bounded time; what is left goes on the next start.
    fn stop(self: Box<Self>) -> Stopping {
        Box::pin(async move {
            if let Some(r) = self.task {
                r.drain(crate::relay::DRAIN).await;
            }
        })
    }
}
