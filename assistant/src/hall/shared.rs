//! A table's page view made once per change and shared by every live
//! stream and page (the arbiter's and the spectators'), instead of each
//! subscriber making its own: at 2,000 tables each changing every second,
//! making views was most of the desk's work.
//!
//! A view is kept with the table's version (raised by every change the
//! desk takes) and whether the table was public when it was made; it is
//! made again when either differs, or when it is older than [`FRESH`] (its
//! clocks and "heard from" age). It is kept as the text each kind of
//! server sends, made once: the arbiter's view, and (when a spectators'
//! server asks) theirs, with what they may not see taken out
//! ([`super::web::public_view`]); as text only, since a view is mostly its
//! board's SVG and a parsed copy of each table's view held several times
//! the memory. What a server may show is still decided by the caller as it
//! sends, per table and at that moment.

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
    /// The finished page view ([`view::page`] then [`view::finish`]) with
    /// `public`, as the arbiter's server sends it (JSON text).
    arbiter: Arc<str>,
    spectator: OnceLock<Arc<str>>,
}

impl Rendered {
    /// The arbiter's view as sent (JSON text).
    #[must_use]
    pub fn arbiter_text(&self) -> Arc<str> {
        self.arbiter.clone()
    }

    /// The spectators' view as sent (JSON text), made from the arbiter's once.
    pub fn spectator_text(&self) -> Arc<str> {
        self.spectator
            .get_or_init(|| {
                let v: Value = serde_json::from_str(&self.arbiter).unwrap_or(Value::Null);
                Arc::from(super::web::public_view(v).to_string())
            })
            .clone()
    }

    /// The text a server sends: the spectators' (`public`) or the arbiter's.
    pub fn text(&self, public: bool) -> Arc<str> {
        if public {
            self.spectator_text()
        } else {
            self.arbiter_text()
        }
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
            arbiter: Arc::from(v.to_string()),
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
        // A view past FRESH is never sent again: now and then such views
        // go, so those held are about the tables that changed lately.
        if version % 64 == 0 {
            views.retain(|_, r| r.made.elapsed() < FRESH);
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
        let view = |r: &Rendered| serde_json::from_str::<Value>(&r.arbiter_text()).unwrap();
        assert_eq!(view(&a)["white"], "Ann");
        assert_eq!(view(&a)["journal_lines"], 1);
        assert!(Arc::ptr_eq(&a.arbiter_text(), &b.arbiter_text()));
        // The spectators' text leaves out what only the arbiter sees.
        let s: Value = serde_json::from_str(&a.spectator_text()).unwrap();
        assert!(s.get("alerts").is_none() && s.get("chain_ok").is_none());
        assert_eq!(s["white"], "Ann");
        // A change: made again.
        hall.on_message(&topic, &serde_json::to_vec(&lines[1]).unwrap());
        let c = hall.rendered(3).unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(view(&c)["journal_lines"], 2);
        // Shown to spectators: made again, with `public`.
        hall.set_public(Some(3), true).unwrap();
        let d = hall.rendered(3).unwrap();
        assert!(!Arc::ptr_eq(&c, &d));
        assert_eq!(view(&d)["public"], true);
        assert!(hall.rendered(4).is_none());
    }
}
