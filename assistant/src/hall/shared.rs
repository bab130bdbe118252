//! A table's page view made once per change and shared by every live
//! stream and page (the arbiter's and the spectators'), instead of each
//! subscriber making its own: at 2,000 tables each changing every second,
//! making views was most of the desk's work.
//!
//! A view is kept with the table's version (raised by every change the
//! desk takes) and whether the table was public when it was made; it is
//! made again when either differs, or when it is older than [`FRESH`] (its
//! clocks and "heard from" age). The text each kind of server sends is
//! made from it once too: the arbiter's view, and the spectators' with
//! what they may not see taken out ([`super::web::public_view`]). What a
//! server may show is still decided by the caller as it sends, per table
//! and at that moment.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{lock, view, Hall};

/// A view older than this is made again (its clocks run on, its tables age).
pub const FRESH: Duration = Duration::from_secs(1);

/// A table's page view as made once for everyone.
#[derive(Debug)]
pub struct Rendered {
    version: u64,
    public: bool,
    made: Instant,
    /// The finished page view ([`view::page`] then [`view::finish`]) with `public`.
    pub view: Value,
    arbiter: OnceLock<Arc<str>>,
    spectator: OnceLock<Arc<str>>,
}

impl Rendered {
    /// The arbiter's view as sent (JSON text).
    pub fn arbiter_text(&self) -> Arc<str> {
        self.arbiter
            .get_or_init(|| Arc::from(self.view.to_string()))
            .clone()
    }

    /// The spectators' view.
    #[must_use]
    pub fn spectator_view(&self) -> Value {
        super::web::public_view(self.view.clone())
    }

    /// The spectators' view as sent (JSON text).
    pub fn spectator_text(&self) -> Arc<str> {
        self.spectator
            .get_or_init(|| Arc::from(self.spectator_view().to_string()))
            .clone()
    }
}

/// The views made, by table.
pub type Views = std::sync::Mutex<HashMap<u32, Arc<Rendered>>>;

impl Hall {
    /// Table `n`'s page view now: the one made since its last change if
    /// there is one (and it is fresh), else made here, once, for everyone.
    /// No lock is held while another is taken.
    pub fn rendered(&self, n: u32) -> Option<Arc<Rendered>> {
        let public = self.is_public(n);
        let version = self.tables().get(&n)?.version;
        if let Some(r) = lock(&self.views).get(&n) {
            if r.version == version && r.public == public && r.made.elapsed() < FRESH {
                return Some(r.clone());
            }
        }
        let (v, version) = {
            let tables = self.tables();
            let t = tables.get(&n)?;
            (view::page(t, &self.event), t.version)
        };
        // The board views take time: outside the desk's lock.
        let mut v = view::finish(v);
        v["public"] = json!(public);
        let r = Arc::new(Rendered {
            version,
            public,
            made: Instant::now(),
            view: v,
            arbiter: OnceLock::new(),
            spectator: OnceLock::new(),
        });
        let mut views = lock(&self.views);
        // Another stream may have made a newer one meanwhile: the newer stays.
        match views.get(&n) {
            Some(old) if old.version > version => {}
            _ => {
                views.insert(n, r.clone());
            }
        }
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_is_made_once_per_change_and_again_after_one() {
        let dir = tempfile::tempdir().unwrap();
        let (hall, _out) = Hall::new("ev", dir.path().to_owned(), None).unwrap();
        let lines = super::super::store::journal_lines(Some("Ann"), "90m");
        let topic = crate::relay::proto::table_topic("ev", 3, "journal");
        hall.on_message(&topic, &serde_json::to_vec(&lines[0]).unwrap());
        let a = hall.rendered(3).unwrap();
        let b = hall.rendered(3).unwrap();
        assert!(Arc::ptr_eq(&a, &b), "the same view for every stream");
        assert_eq!(a.view["white"], "Ann");
        assert_eq!(a.view["journal_lines"], 1);
        assert!(Arc::ptr_eq(&a.arbiter_text(), &b.arbiter_text()));
        // The spectators' text leaves out what only the arbiter sees.
        let s: Value = serde_json::from_str(&a.spectator_text()).unwrap();
        assert!(s.get("alerts").is_none() && s.get("chain_ok").is_none());
        assert_eq!(s["white"], "Ann");
        // A change: made again.
        hall.on_message(&topic, &serde_json::to_vec(&lines[1]).unwrap());
        let c = hall.rendered(3).unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(c.view["journal_lines"], 2);
        // Shown to spectators: made again, with `public`.
        hall.set_public(Some(3), true).unwrap();
        let d = hall.rendered(3).unwrap();
        assert!(!Arc::ptr_eq(&c, &d));
        assert_eq!(d.view["public"], true);
        assert!(hall.rendered(4).is_none());
    }
}
