//! Following the journal file as the session writes it, and the relay's
//! cursor on disk next to it: the last line the broker acknowledged and the
//! last desk command carried out (a replay is refused even after a restart).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::proto::LineMsg;
use crate::journal::{line_hash, Record};

/// The journal's complete lines, read as they are appended.
#[derive(Debug)]
pub struct Tail {
    path: PathBuf,
    /// Every complete line so far (without its newline) and its hash.
    lines: Vec<(String, String)>,
    /// Bytes of the file taken (complete lines only).
    taken: u64,
}

impl Tail {
    /// Follows the journal at `path` (it may not exist yet).
    #[must_use]
    pub fn new(path: &Path) -> Tail {
        Tail {
            path: path.to_owned(),
            lines: Vec::new(),
            taken: 0,
        }
    }

    /// Reads the lines appended since the last call; returns how many.
    ///
    /// # Errors
    /// The file cannot be read (it is tried again on the next call).
    pub fn poll(&mut self) -> io::Result<usize> {
        let mut f = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(e),
        };
        let len = f.metadata()?.len();
        if len < self.taken {
            // The file was replaced or cut (another game): start again.
            self.lines.clear();
            self.taken = 0;
        }
        if len == self.taken {
            return Ok(0);
        }
        f.seek(SeekFrom::Start(self.taken))?;
        let mut buf = Vec::with_capacity(usize::try_from(len - self.taken).unwrap_or(0));
        f.take(len - self.taken).read_to_end(&mut buf)?;
        let mut n = 0;
        let mut start = 0;
        while let Some(i) = buf[start..].iter().position(|&b| b == b'\n') {
            let line = &buf[start..start + i];
            // A line that is not UTF-8 is still relayed, lossily (the desk's
            // chain check will then name it).
            let text = String::from_utf8_lossy(line).into_owned();
            let hash = line_hash(line);
            self.lines.push((text, hash));
            start += i + 1;
            n += 1;
        }
        self.taken += start as u64;
        Ok(n)
    }

    /// Lines held.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.lines.len() as u64
    }

    /// No line yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Line `seq` (from 1) as published.
    #[must_use]
    pub fn message(&self, seq: u64) -> Option<LineMsg> {
        let (line, hash) = self.lines.get(usize::try_from(seq.checked_sub(1)?).ok()?)?;
        Some(LineMsg {
            seq,
            hash: hash.clone(),
            line: line.clone(),
            game: self
                .lines
                .first()
                .map(|(_, h)| h.clone())
                .unwrap_or_default(),
            earlier: false,
        })
    }

    /// The hash of line `seq`.
    #[must_use]
    pub fn hash(&self, seq: u64) -> Option<&str> {
        let i = usize::try_from(seq.checked_sub(1)?).ok()?;
        self.lines.get(i).map(|(_, h)| h.as_str())
    }

    /// Line `seq` as written.
    #[must_use]
    pub fn line(&self, seq: u64) -> Option<&str> {
        let i = usize::try_from(seq.checked_sub(1)?).ok()?;
        self.lines.get(i).map(|(l, _)| l.as_str())
    }

    /// Line `seq` as a record.
    #[must_use]
    pub fn record(&self, seq: u64) -> Option<Record> {
        let i = usize::try_from(seq.checked_sub(1)?).ok()?;
        serde_json::from_str(&self.lines.get(i)?.0).ok()
    }
}

/// What the relay remembers across restarts (`JOURNAL.relay.json`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    /// Every line up to this one was acknowledged by the broker.
    pub acked: u64,
    /// That line's hash (another journal at the same path starts again from 1).
    #[serde(default)]
    pub acked_hash: String,
    /// The counter of the last desk command carried out (or refused as bad).
    #[serde(default)]
    pub counter: u64,
    /// The last state message's sequence number.
    #[serde(default)]
    pub state_seq: u64,
    /// The event the journal was relayed to (so a later start of the same
    /// table finds it among its earlier journals).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub event: String,
    /// The table it was relayed as.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
}

impl Cursor {
    /// The broker acknowledged line `seq` of `tail`'s journal; `above` keeps
    /// the lines acknowledged past one still waited for. The cursor moves on
    /// over every line acknowledged in a row from it (and takes the hash of
    /// the last); returns whether it moved.
    pub fn ack(
        &mut self,
        seq: u64,
        above: &mut std::collections::BTreeSet<u64>,
        tail: &Tail,
    ) -> bool {
        if seq <= self.acked {
            return false;
        }
        above.insert(seq);
        let mut moved = false;
        while above.remove(&(self.acked + 1)) {
            self.acked += 1;
            moved = true;
        }
        if moved {
            if let Some(h) = tail.hash(self.acked) {
                self.acked_hash = h.to_owned();
            }
        }
        moved
    }

    /// The cursor file of a journal.
    #[must_use]
    pub fn path_of(journal: &Path) -> PathBuf {
        let mut name = journal.file_name().unwrap_or_default().to_owned();
        name.push(".relay.json");
        journal.with_file_name(name)
    }

    /// Reads the cursor (none yet, or unreadable: from the start).
    #[must_use]
    pub fn load(path: &Path) -> Cursor {
        std::fs::read(path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// Writes it (a new file renamed over the old, so a crash leaves one or
    /// the other); `sync` when losing it would matter (a command's counter).
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save(&self, path: &Path, sync: bool) -> io::Result<()> {
        let tmp = path.with_extension("json.tmp");
        let mut f = File::create(&tmp)?;
        f.write_all(&serde_json::to_vec(self).map_err(io::Error::other)?)?;
        if sync {
            f.sync_all()?;
        }
        std::fs::rename(&tmp, path)?;
        if sync {
            if let Some(dir) = path.parent() {
                File::open(dir)?.sync_all()?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_complete_lines_are_taken() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("j.jsonl");
        let mut t = Tail::new(&p);
        assert_eq!(t.poll().unwrap(), 0);
        std::fs::write(&p, b"{\"a\":1}\n{\"b\"").unwrap();
        assert_eq!(t.poll().unwrap(), 1);
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b":2}\n").unwrap();
        assert_eq!(t.poll().unwrap(), 1);
        assert_eq!(t.len(), 2);
        let m = t.message(2).unwrap();
        assert_eq!(m.line, "{\"b\":2}");
        assert_eq!(m.hash, line_hash(b"{\"b\":2}"));
        assert_eq!(t.message(3), None);
        assert_eq!(t.message(0), None);
    }

    #[test]
    fn the_cursor_survives_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let p = Cursor::path_of(&dir.path().join("game.jsonl"));
        assert!(p.ends_with("game.jsonl.relay.json"));
        assert_eq!(Cursor::load(&p), Cursor::default());
        let c = Cursor {
            acked: 7,
            acked_hash: "ab".into(),
            counter: 3,
            state_seq: 9,
            event: "EV".into(),
            table: Some(4),
        };
        c.save(&p, true).unwrap();
        assert_eq!(Cursor::load(&p), c);
    }
}
