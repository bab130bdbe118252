//! Witness lines (docs/protocol.md, "Witnesses"): the desk's signature of
//! the head of a table's journal as the desk held it (the event, the table,
//! the game, a line's number and its hash), written into the table's
//! journal as a `witness` line. The chain alone has no key (whoever edits a
//! line can compute the hashes again); a witness ties every line up to the
//! one it names to what the desk held, with a key the table does not have.
//!
//! A witness is no game content: replay, export, the arbiter's tools and the
//! hall's views pass over it.

use serde::{Deserialize, Serialize};

use super::{Event, Journal};
use crate::desk_key::DeskKey;

/// What the desk signed, as it travels (`tandem/EVENT/desk/witness/N`) and
/// as the journal keeps it (`{"type": "witness", …}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witness {
    /// The hall's event.
    pub event: String,
    /// The table.
    pub table: u32,
    /// The game: the hash of the journal's line 1.
    pub game: String,
    /// The line witnessed (the head of the desk's copy then).
    pub line: u64,
    /// That line's hash (SHA-256 of its bytes, lowercase hex).
    pub hash: String,
    /// The desk's Ed25519 signature of the above, 128 hex digits.
    pub sig: String,
}

/// The most a witness message may be, in bytes (a real one is about 400).
pub const MAX_WITNESS: usize = 2048;

impl Witness {
    /// The bytes the desk signs.
    #[must_use]
    pub fn signed_bytes(&self) -> Vec<u8> {
        let (table, line) = (self.table.to_string(), self.line.to_string());
        crate::desk_key::framed(
            "tandem-hall-witness-v1",
            &[
                self.event.as_bytes(),
                table.as_bytes(),
                self.game.as_bytes(),
                line.as_bytes(),
                self.hash.as_bytes(),
            ],
        )
    }

    /// Whether the fields are of the sizes a real witness has (a peer's
    /// message is checked before anything else is done with it).
    #[must_use]
    pub fn well_formed(&self) -> bool {
        let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit());
        !self.event.is_empty()
            && self.event.len() <= 100
            && hex(&self.game, 64)
            && hex(&self.hash, 64)
            && hex(&self.sig, 128)
            && self.line >= 1
    }
}

/// What is wrong with a witness line at line `seq` of a journal, in the
/// order [`Witness::flaw`] looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flaw {
    /// Not signed by the key it is held against.
    Signature,
    /// The desk's witness of another game.
    Game,
    /// It names a line that is not before it.
    NotBefore,
    /// The line it names has another hash than the one the desk signed.
    Hash,
}

impl Witness {
    /// The first flaw of this witness, written at line `seq` of a journal
    /// whose game (line 1's hash) is `game` and whose line N has the hash
    /// `hash_of(N)`, held against the desk's `key`: what `tandem journal
    /// verify --desk-key` and the desk itself check.
    pub fn flaw<'a>(
        &self,
        seq: u64,
        key: &DeskKey,
        game: &str,
        hash_of: impl Fn(u64) -> Option<&'a str>,
    ) -> Option<Flaw> {
        if !key.verify(&self.signed_bytes(), &self.sig) {
            Some(Flaw::Signature)
        } else if self.game != game {
            Some(Flaw::Game)
        } else if self.line >= seq {
            Some(Flaw::NotBefore)
        } else if hash_of(self.line) != Some(self.hash.as_str()) {
            Some(Flaw::Hash)
        } else {
            None
        }
    }
}

/// A witness line that does not hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BadWitness {
    /// The witness line's number.
    pub witness_line: u64,
    /// The line it names.
    pub line: u64,
    /// What is wrong.
    pub reason: String,
}

/// What `tandem journal verify` says of a journal's witness lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct WitnessReport {
    /// Witness lines in the journal.
    pub lines: u64,
    /// Witness lines checked with the desk's key and found good.
    pub checked: u64,
    /// Witness lines not checked (no `--desk-key`).
    pub unchecked: u64,
    /// The last line a good witness names: lines 1 to it are as the desk held them.
    pub witnessed_to: Option<u64>,
    /// The first witness line that does not hold.
    pub bad: Option<BadWitness>,
}

/// The hash of line `n` of a journal read whole (`None`: no such line).
fn hash_of(j: &Journal, n: u64) -> Option<&str> {
    let len = j.records.len() as u64;
    if n == 0 || n > len {
        None
    } else if n == len {
        Some(&j.head)
    } else {
        usize::try_from(n)
            .ok()
            .and_then(|i| j.records.get(i))
            .map(|r| r.prev.as_str())
    }
}

/// Checks every witness line of `j` with the desk's key `key` (without
/// one, counts them as unchecked): its signature, that it is for this
/// journal's game, and that the line it names, before it, has the hash
/// the desk signed. Stops at the first that does not hold.
#[must_use]
pub fn check(j: &Journal, key: Option<&DeskKey>) -> WitnessReport {
    let mut r = WitnessReport::default();
    let game = hash_of(j, 1).unwrap_or_default().to_owned();
    let mut whose: Option<(&str, u32)> = None;
    for rec in &j.records {
        let Event::Witness(w) = &rec.event else {
            continue;
        };
        r.lines += 1;
        let Some(key) = key else {
            r.unchecked += 1;
            continue;
        };
        let bad = |reason: String| BadWitness {
            witness_line: rec.seq,
            line: w.line,
            reason,
        };
        let flaw = w.flaw(rec.seq, key, &game, |n| hash_of(j, n));
        let problem = match flaw {
            Some(Flaw::Signature) => Some(format!(
                "witness line {} is not signed by the desk's key {}",
                rec.seq,
                key.fingerprint()
            )),
            _ if whose.is_some_and(|t| t != (w.event.as_str(), w.table)) => Some(format!(
                "witness line {} is for table {} of {:?}, not the table the journal's other \
                 witnesses name",
                rec.seq, w.table, w.event
            )),
            Some(Flaw::Game) => Some(format!(
                "witness line {} is the desk's witness of another game",
                rec.seq
            )),
            Some(Flaw::NotBefore) => Some(format!(
                "witness line {} names line {}, not a line before it",
                rec.seq, w.line
            )),
            Some(Flaw::Hash) => Some(format!(
                "line {} is not as the desk held it when it witnessed it (witness line {}): \
                 the journal was changed at line {} or before",
                w.line, rec.seq, w.line
            )),
            None => None,
        };
        if let Some(reason) = problem {
            r.bad = Some(bad(reason));
            return r;
        }
        whose = Some((w.event.as_str(), w.table));
        r.checked += 1;
        r.witnessed_to = r.witnessed_to.max(Some(w.line));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desk_key::{keygen, SigningKey};
    use crate::journal::{JournalWriter, StartInfo};

    fn start() -> Event {
        Event::Start(StartInfo::for_tests())
    }

    /// A journal of `ticks` ticks after its start, with a witness of its
    /// last line by `key` for table `table`, then one more tick.
    fn witnessed(dir: &std::path::Path, key: &SigningKey, table: u32, ticks: u64) -> Journal {
        let p = dir.join(format!("j-{table}-{ticks}.jsonl"));
        let mut w = JournalWriter::create(&p).unwrap();
        w.append(0, start()).unwrap();
        for t in 1..=ticks {
            w.append(t, Event::Tick).unwrap();
        }
        let j = Journal::read(&p).unwrap();
        let mut wit = Witness {
            event: "EV".into(),
            table,
            game: hash_of(&j, 1).unwrap().to_owned(),
            line: ticks + 1,
            hash: j.head.clone(),
            sig: String::new(),
        };
        wit.sig = key.sign(&wit.signed_bytes());
        w.append(ticks + 1, Event::Witness(wit)).unwrap();
        w.append(ticks + 2, Event::Tick).unwrap();
        Journal::read(&p).unwrap()
    }

    #[test]
    fn a_witness_holds_only_with_the_desks_key_for_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let (private, public) = keygen(&dir.path().join("k")).unwrap();
        let (key, pk) = (
            SigningKey::load(&private).unwrap(),
            crate::desk_key::DeskKey::load(&public).unwrap(),
        );
        let j = witnessed(dir.path(), &key, 3, 4);
        let r = check(&j, Some(&pk));
        assert_eq!(
            (r.lines, r.checked, r.witnessed_to, r.bad),
            (1, 1, Some(5), None)
        );
        let r = check(&j, None);
        assert_eq!((r.lines, r.unchecked, r.checked), (1, 1, 0));
        // Another key.
        let (other, _) = keygen(&dir.path().join("o")).unwrap();
        let other = SigningKey::load(&other).unwrap();
        let bad = check(&j, Some(&other.public())).bad.unwrap();
        assert_eq!((bad.witness_line, bad.line), (6, 5));
        assert!(bad.reason.contains("not signed"), "{}", bad.reason);
        // The named line changed (its hash no longer the one signed).
        let mut edited = j.clone();
        edited.head = "0".repeat(64);
        if let Some(r) = edited.records.get_mut(5) {
            r.prev = "1".repeat(64);
        }
        let bad = check(&edited, Some(&pk)).bad.unwrap();
        assert!(
            bad.reason.contains("line 5 is not as the desk held it"),
            "{}",
            bad.reason
        );
        // A witness of another game.
        let mut moved = j.clone();
        moved.records[1].prev = "2".repeat(64);
        let bad = check(&moved, Some(&pk)).bad.unwrap();
        assert!(bad.reason.contains("another game"), "{}", bad.reason);
        // Old journals: nothing to check.
        let mut old = j.clone();
        old.records
            .retain(|r| !matches!(r.event, Event::Witness(_)));
        assert_eq!(check(&old, Some(&pk)), WitnessReport::default());
    }
}
