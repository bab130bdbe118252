#![no_main]
//! Every message the hall's desk and a table's relay parse from the broker:
//! the first byte picks the topic (a table's `journal`, `state`, `alert`,
//! `online`, `reply` or another leaf at the desk; a desk `cmd` or `resend`
//! at a table), the rest is the payload. Never a panic; the desk's copy of
//! the table's journal always verifies as `tandem journal verify` checks
//! it, whatever the table sends; a command that parses serializes back to
//! itself and is refused unless signed with the desk's key (the desk here
//! has its own key, so it also witnesses what it takes). Each
//! table's views (the API's, the page's, a live stream's) are made after
//! every message: whatever a table sends, they are made without a panic.
use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use tandem::hall::Hall;
use tandem::relay::proto::{Resend, SignedCommand};

struct Desk {
    _dir: tempfile::TempDir,
    hall: Arc<Hall>,
    out: std::sync::Mutex<tandem::hall::Outbox>,
    /// The desk's public key.
    key: tandem::desk_key::DeskKey,
}

fn desk() -> &'static Desk {
    static D: OnceLock<Desk> = OnceLock::new();
    D.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let (private, public) = tandem::desk_key::keygen(&dir.path().join("keys")).unwrap();
        let signing = tandem::desk_key::SigningKey::load(&private).unwrap();
        let key = tandem::desk_key::DeskKey::load(&public).unwrap();
        let (hall, out) =
            Hall::new("EV", dir.path().to_owned(), Some("s".into()), Some(signing)).unwrap();
        Desk {
            _dir: dir,
            hall,
            out: std::sync::Mutex::new(out),
            key,
        }
    })
}

const LEAVES: [&str; 6] = ["journal", "state", "alert", "online", "reply", "x"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, payload)) = data.split_first() else {
        return;
    };
    match pick % 8 {
        k @ 0..=5 => {
            let d = desk();
            let topic = format!("tandem/EV/table/{}/{}", pick / 8 % 4, LEAVES[k as usize]);
            d.hall.on_message(&topic, payload);
            d.hall.check();
            // What the pages and the API show of the table: made without a
            // panic, and a stream's board left out only when it is the same.
            if let Some(t) = d.hall.tables().get(&u32::from(pick / 8 % 4)) {
                use tandem::hall::view;
                assert_eq!(view::api(t, "EV")["table"], t.table);
                let (shown, key) = view::finish_for(view::page(t, "EV"), None);
                assert!(shown.get("board_same").is_none());
                let (same, again) = view::finish_for(view::page(t, "EV"), Some(key));
                if again == key {
                    assert_eq!(same["board_same"], true, "{same}");
                }
            }
            // What the desk sends back (requests to send again) is dropped here.
            while d.out.lock().unwrap().try_recv().is_ok() {}
            for t in d.hall.tables().values() {
                if let Ok(bytes) = std::fs::read(t.file()) {
                    let j = tandem::journal::Journal::parse(&bytes);
                    assert!(
                        j.bad.is_none() && j.torn.is_none(),
                        "the desk's copy broke: {j:?}"
                    );
                    assert_eq!(j.records.len() as u64, t.len());
                }
                assert!(t.alerts.len() <= 200);
                let (n, bytes) = t.pending_size();
                assert!(n <= tandem::hall::store::MAX_PENDING);
                assert!(bytes <= tandem::hall::store::MAX_PENDING_BYTES);
            }
        }
        6 => {
            if let Ok(c) = serde_json::from_slice::<SignedCommand>(payload) {
                let back: SignedCommand =
                    serde_json::from_slice(&serde_json::to_vec(&c).unwrap()).unwrap();
                assert_eq!(back, c);
                let forged = c.verify_game(&desk().key, "EV", 1, &c.game, 0, c.time_ms);
                assert!(
                    forged.is_err(),
                    "a command not signed with the desk's key: {c:?}"
                );
            }
        }
        _ => {
            if let Ok(r) = serde_json::from_slice::<Resend>(payload) {
                let back: Resend =
                    serde_json::from_slice(&serde_json::to_vec(&r).unwrap()).unwrap();
                assert_eq!(back, r);
            }
        }
    }
});
