//! The copies of a table's earlier games kept aside (`table-N-GAME.jsonl`):
//! a new game puts the current copy aside, and the lines an earlier game
//! left at a stop (`earlier`) go to that game's copy.

use std::fs::File;
use std::path::PathBuf;
use std::time::Instant;

use super::{TableCopy, Taken, MAX_ASIDE_MADE, MAX_LINE};

/// Copies aside kept open per table (their lines' hashes, not their
/// records): a table sending lines of up to this many earlier games in turn
/// costs no file read after the first of each.
pub const ASIDES_KEPT: usize = 8;

/// New games a table may start in an hour (counted in this run of the desk).
pub const GAMES_PER_HOUR: usize = 30;

/// Copies of a table's earlier games the desk keeps on disk, at most.
pub const GAME_FILES: u32 = 200;

/// A copy aside bigger than this is read on another thread, never on the
/// broker's with the tables locked: taking a line of an earlier game costs
/// at most this much reading, whatever the size of its copy.
pub const READ_HERE: u64 = 1 << 20;
use crate::journal::line_hash;
use crate::relay::proto::{Alert, LineMsg};

impl TableCopy {
    /// Takes a line of one of the table's earlier games, left over when the
    /// table stopped and sent at its next start (`earlier`): into that
    /// game's copy kept aside (`table-N-GAME.jsonl`), checked as any line,
    /// or into the current copy when it is that game. One copy per game:
    /// a copy aside is found again by its first line's hash; one is started
    /// only from the game's line 1 (else the table is asked for it).
    pub fn take_earlier(&mut self, msg: LineMsg) -> (Taken, Vec<Alert>) {
        if msg.game.is_empty() || self.game().map_or(true, |g| g == msg.game) {
            return self.take(msg);
        }
        let before = self.raised;
        let taken = self.take_aside(msg);
        let k = usize::try_from(self.raised - before).unwrap_or(usize::MAX);
        let raised = self.alerts[self.alerts.len().saturating_sub(k)..].to_vec();
        (taken, raised)
    }

    pub(super) fn take_aside(&mut self, msg: LineMsg) -> Taken {
        let game = msg.game.clone();
        if let Some(i) = self.asides.iter().position(|(g, _)| *g == game) {
            // Kept: the most recent last.
            let a = self.asides.remove(i);
            self.asides.push(a);
        } else {
            // A copy is opened at most 4 times a second, so a table sending
            // lines of many games in turn cannot keep the desk opening files
            // (what is refused is asked for again).
            let (since, count) = &mut self.aside_opened;
            if since.map_or(true, |at| at.elapsed() >= std::time::Duration::from_secs(1)) {
                *since = Some(Instant::now());
                *count = 0;
            }
            if *count >= 4 {
                return Taken::Bad;
            }
            *count += 1;
            let file = match self.aside_file(&game) {
                Some(f) => f,
                None if Self::starts_a_game(&msg) && self.aside_made < MAX_ASIDE_MADE => {
                    if !self.may_start_game() {
                        return Taken::Bad;
                    }
                    self.aside_made += 1;
                    self.aside_name(&game)
                }
                // Its start first (the desk never had this game).
                None => return Taken::Gap(1),
            };
            let size = std::fs::metadata(&file).map_or(0, |m| m.len());
            if size > READ_HERE {
                // Too big to read here (on the broker's thread, the tables
                // locked): read on another thread, and the line asked for again.
                if !self.loading {
                    self.want_load = Some((game, file));
                }
                return Taken::Bad;
            }
            match TableCopy::open_with(self.table, &file, false) {
                Ok(c) => self.keep_aside(game, c),
                Err(e) => {
                    self.aside_unreadable(&file, &e);
                    return Taken::Bad;
                }
            }
        }
        // The table's copies together within their bytes.
        if !self.disk_room(msg.line.len()) {
            return Taken::Bad;
        }
        let Some(aside) = self.asides.last_mut() else {
            return Taken::Bad;
        };
        let was = aside.1.file_len;
        let (taken, alerts) = aside.1.take(msg);
        self.disk_aside += aside.1.file_len.saturating_sub(was);
        let held = aside.1.len();
        self.earlier_held.insert(aside.0.clone(), held);
        for a in alerts {
            if a.kind == "chain" {
                self.chain_alert(a.text);
            } else {
                self.raise(a);
            }
        }
        taken
    }

    /// The copies of this table's earlier games already on disk (counted by
    /// the desk as it starts).
    pub fn set_game_files(&mut self, k: u32) {
        self.game_files = k;
    }

    /// Whether the table may start another game, that is make another copy
    /// aside: [`GAMES_PER_HOUR`] in an hour and [`GAME_FILES`] in all. Past
    /// that, one alert says so (again only once it may again), and the new
    /// game is not taken (the table keeps its journal; nothing held is lost).
    pub(super) fn may_start_game(&mut self) -> bool {
        let hour = std::time::Duration::from_secs(3600);
        while self
            .games_started
            .front()
            .is_some_and(|at| at.elapsed() >= hour)
        {
            self.games_started.pop_front();
        }
        if self.games_started.len() < GAMES_PER_HOUR && self.game_files < GAME_FILES {
            self.games_refused = false;
            self.games_started.push_back(Instant::now());
            self.game_files += 1;
            return true;
        }
        if !self.games_refused {
            self.games_refused = true;
            self.raise(Alert {
                kind: "games".into(),
                text: format!(
                    "Table {} starts too many games (at most {GAMES_PER_HOUR} an hour and {GAME_FILES} kept): \
                     the desk does not take its new game for now; the table keeps its journal.",
                    self.table
                ),
                seq: None,
                wall: crate::journal::wall_now(),
            });
        }
        false
    }

    /// Keeps `copy`, the copy aside of `game`, as the most recent (the
    /// least recent goes past [`ASIDES_KEPT`]).
    fn keep_aside(&mut self, game: String, copy: TableCopy) {
        self.earlier_held.insert(game.clone(), copy.len());
        self.asides.retain(|(g, _)| *g != game);
        self.asides.push((game, copy));
        if self.asides.len() > ASIDES_KEPT {
            self.asides.remove(0);
        }
    }

    fn aside_unreadable(&mut self, file: &std::path::Path, e: &std::io::Error) {
        self.raise(Alert {
            kind: "desk".into(),
            text: format!(
                "The desk cannot open its copy of an earlier game of table {} ({}): {e}.",
                self.table,
                file.display()
            ),
            seq: None,
            wall: crate::journal::wall_now(),
        });
    }

    /// A copy aside to read on another thread (its game and file), if one
    /// is wanted and none is being read for this table; the table is then
    /// marked as reading until [`TableCopy::loaded`].
    pub fn take_load(&mut self) -> Option<(String, PathBuf)> {
        if self.loading {
            return None;
        }
        let l = self.want_load.take()?;
        self.loading = true;
        Some(l)
    }

    /// A copy aside read on another thread (`Err`: it could not be): kept
    /// (unless one of its game is kept already); the first line the desk
    /// lacks of that game, to ask for, or the alert that it cannot be read.
    ///
    /// # Errors
    /// The copy could not be read: the alert raised.
    pub fn loaded(
        &mut self,
        game: String,
        file: &std::path::Path,
        copy: std::io::Result<TableCopy>,
    ) -> Result<Option<u64>, Alert> {
        self.loading = false;
        match copy {
            Ok(c) if !self.asides.iter().any(|(g, _)| *g == game) => {
                let next = c.len() + 1;
                self.keep_aside(game, c);
                Ok(Some(next))
            }
            Ok(_) => Ok(None),
            Err(e) => {
                self.aside_unreadable(file, &e);
                Err(self.alerts.last().cloned().unwrap_or_else(|| Alert {
                    kind: "desk".into(),
                    text: format!("The desk cannot open {}: {e}.", file.display()),
                    seq: None,
                    wall: crate::journal::wall_now(),
                }))
            }
        }
    }

    /// An earlier game the table says it is sending (its state's
    /// `earlier_journals`: game and lines) of which the desk lacks lines:
    /// the game and the first line lacked. At most the first 8 are looked at.
    pub fn earlier_lacking(&mut self) -> Option<(String, u64)> {
        let list = self.state.as_ref()?.get("earlier_journals")?.as_array()?;
        let list: Vec<(String, u64)> = list
            .iter()
            .take(8)
            .filter_map(|e| Some((e["game"].as_str()?.to_owned(), e["lines"].as_u64()?)))
            .filter(|(g, _)| g.len() == 64 && g.bytes().all(|b| b.is_ascii_hexdigit()))
            .collect();
        for (g, lines) in list {
            if self.game() == Some(g.as_str()) {
                continue;
            }
            let held = match self.earlier_held.get(&g) {
                Some(&h) => h,
                None => {
                    // A big copy is read on another thread (never here, the
                    // tables locked): asked for once it is known.
                    let h = match self.aside_file(&g) {
                        Some(f) if std::fs::metadata(&f).map_or(0, |m| m.len()) > READ_HERE => {
                            if !self.loading && self.want_load.is_none() {
                                self.want_load = Some((g, f));
                            }
                            continue;
                        }
                        Some(f) => {
                            TableCopy::open_with(self.table, &f, false).map_or(0, |c| c.len())
                        }
                        None => 0,
                    };
                    if self.earlier_held.len() >= 64 {
                        self.earlier_held.clear();
                    }
                    self.earlier_held.insert(g.clone(), h);
                    h
                }
            };
            if lines > held {
                return Some((g, held + 1));
            }
        }
        None
    }

    /// The copy kept aside of `game` (the newest, if the game started over), if any.
    pub(super) fn aside_file(&self, game: &str) -> Option<PathBuf> {
        let short = game.get(..12)?;
        let mut found = None;
        for k in 1.. {
            let f = self.aside_path(short, k);
            let Ok(file) = File::open(&f) else { break };
            // The first line only (at most a line's length).
            let mut first = Vec::new();
            use std::io::{BufRead, Read};
            let _ = std::io::BufReader::new(file.take(MAX_LINE as u64 + 1))
                .read_until(b'\n', &mut first);
            if first.last() == Some(&b'\n') {
                first.pop();
            }
            if line_hash(&first) == game {
                found = Some(f);
            }
        }
        found
    }

    /// A name for a new copy aside of `game`, over no other.
    pub(super) fn aside_name(&self, game: &str) -> PathBuf {
        let short = game.get(..12).unwrap_or("old");
        let mut k = 1;
        while self.aside_path(short, k).exists() {
            k += 1;
        }
        self.aside_path(short, k)
    }

    /// The `k`th name (from 1) of a copy aside of the game whose hash starts
    /// `short`: `table-N-SHORT.jsonl`, then `table-N-SHORT-2.jsonl` and on.
    pub(super) fn aside_path(&self, short: &str, k: u32) -> PathBuf {
        let prefix = format!("table-{}-{short}", self.table);
        if k == 1 {
            self.file.with_file_name(format!("{prefix}.jsonl"))
        } else {
            self.file.with_file_name(format!("{prefix}-{k}.jsonl"))
        }
    }

    /// A new game at this table (the next round): the old copy is kept
    /// aside as `table-N-GAME.jsonl` (never over another one) and the new
    /// one starts empty. A broken chain and the alerts stay.
    pub(super) fn new_game(&mut self, game: &str) {
        let old = self.hashes.first().cloned().unwrap_or_default();
        self.out = None;
        self.asides.retain(|(g, _)| *g != old);
        self.earlier_held.remove(&old);
        let aside = self.aside_name(&old);
        if self.file.exists() {
            if let Err(e) = std::fs::rename(&self.file, &aside) {
                tracing::error!("hall: cannot keep {} aside: {e}", self.file.display());
            }
        }
        if !old.is_empty() && !self.earlier_games.contains(&old) {
            self.earlier_games.push(old);
            if self.earlier_games.len() > 64 {
                self.earlier_games.remove(0);
            }
        }
        self.hashes.clear();
        self.records.clear();
        self.disk_aside += self.file_len;
        self.file_len = 0;
        self.last_t = 0;
        self.pending.retain(|_, m| m.game == game);
        self.pending_bytes = self.pending.values().map(|m| m.line.len()).sum();
        self.gap_since = None;
        self.gap_alerted = false;
        self.raise(Alert {
            kind: "new-game".into(),
            text: format!(
                "Table {} started another game; the last one's journal is kept as {}.",
                self.table,
                aside.file_name().unwrap_or_default().to_string_lossy()
            ),
            seq: None,
            wall: crate::journal::wall_now(),
        });
    }
}
