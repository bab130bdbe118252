//! What the desk shows of a table: the exact `GET /api/tables` object
//! (issue 16's contract), and the page's richer view (the board diagram of
//! `tandem arbiter`, the position in words as tandem says it, the braille
//! list view, the moves).

use std::collections::HashMap;

use serde_json::{json, Value};
use tandem_braille::Width;
use tandem_rules::GameOptions;

use super::store::TableCopy;
use crate::journal::Event;
use crate::picture::{differing, svg, BoardPicture};
use crate::relay::proto::now_ms;

/// Both clocks now: the facts' (the desk's copy at its last line), less the
/// time since that line was taken for the side to move while the clock runs
/// (so the desk counts down between lines). The clock runs when the copy
/// says it does and the table, in its last state, said so too (a table
/// stopped or not heard from has its clock shown stopped).
fn clocks_now(s: &Value, t: &TableCopy) -> (u64, u64, bool) {
    let running = s["clocks"]["running"] == true && s["result"].is_null() && t.clock_said_running();
    let w = s["clocks"]["white"]["remaining_ms"].as_u64().unwrap_or(0);
    let b = s["clocks"]["black"]["remaining_ms"].as_u64().unwrap_or(0);
    if !running {
        return (w, b, running);
    }
    let age = t.facts.age_ms();
    match s["turn"].as_str() {
        Some("white") => (w.saturating_sub(age), b, running),
        Some("black") => (w, b.saturating_sub(age), running),
        _ => (w, b, running),
    }
}

/// The `GET /api/tables` object of one table, exactly as issue 16 gives it.
#[must_use]
pub fn api(t: &TableCopy, event: &str) -> Value {
    api_of(t, event, &t.facts.view())
}

/// [`api`] of the table's facts `s` (docs/hall.md, "Facts from the journal").
fn api_of(t: &TableCopy, event: &str, s: &Value) -> Value {
    let (white_ms, black_ms, running) = clocks_now(s, t);
    let report = super::build::latest(&t.records);
    let last_move = s["moves"]
        .as_array()
        .and_then(|m| m.last())
        .cloned()
        .unwrap_or(Value::Null);
    json!({
        "table": t.table,
        "event": event,
        "variant": s["variant"],
        "white": s["players"]["white"],
        "black": s["players"]["black"],
        "fen": s["fen"],
        "ply": s["ply"].as_u64().unwrap_or(0),
        "turn": s["turn"],
        "last_move": last_move,
        "clocks": {
            "white_remaining_ms": white_ms,
            "black_remaining_ms": black_ms,
            "running": running,
            // A match played without a clock (`--control none`, 004 3.5 (i) (a)):
            // the page says so instead of two clocks at 0:00.
            "untimed": s["clocks"]["control"] == "none",
        },
        "boards": {
            "white_behind": s["boards"]["white"]["behind"].as_u64().unwrap_or(0),
            "black_behind": s["boards"]["black"]["behind"].as_u64().unwrap_or(0),
            "mismatch": t.mismatch(),
        },
        "result": s["result"],
        "journal_lines": t.len(),
        "chain_ok": t.chain_ok,
        "alerts": t.alerts,
        "seen_ms_ago": t.seen.map_or(Value::Null, |i| json!(u64::try_from(i.elapsed().as_millis()).unwrap_or(u64::MAX))),
        // The table's build, from its journal's `report` line (issue 41):
        // null before one came (a tandem before it, or not yet relayed).
        "binary_sha256": report.map(|r| r.binary_sha256.clone()),
        "rated": report.map(|r| r.rated),
    })
}

/// The board of a state as the arbiter tools draw it, in words, and as the
/// braille list view: `(diagram lines, words, braille cells, braille text)`.
fn board_views(variant: &str, fen: &str) -> Option<(Vec<String>, String, String, String)> {
    let game = crate::game::from_journal(variant, fen, GameOptions::default(), "en").ok()?;
    let words = game.describe_position().text();
    let lines = game.braille_list(Width::clamped(80));
    let diagram: Vec<String> = game.diagram().lines().map(str::to_owned).collect();
    let cells = lines
        .iter()
        .map(|(c, _)| c.trim_end_matches('\u{2800}'))
        .collect::<Vec<_>>()
        .join("\n");
    let text = lines
        .iter()
        .map(|(_, t)| t.trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    Some((diagram, words, cells, text))
}

/// The page's view of a table: the API object plus what the page shows.
/// Call [`finish`] on it outside the desk's lock (the board views take time).
#[must_use]
pub fn page(t: &TableCopy, event: &str) -> Value {
    let s = t.facts.view();
    let mut v = api_of(t, event, &s);
    v["moves"] = s["moves"].clone();
    v["round"] = s["round"].clone();
    v["online"] = json!(t.online);
    v["paused"] = s["clocks"]["paused"].clone();
    v["lacking"] = json!(t.lacking());
    v["now_ms"] = json!(now_ms());
    // For [`finish`]: the table's own picture (its last move's marks) and
    // the board read back at the last mismatch (the squares that differ).
    v[TABLE_BOARD] = s["board"].clone();
    if t.mismatch() {
        if let Some((_, _, board)) = last_mismatch(t) {
            v[MISMATCH_BOARD] = json!(board);
        }
    }
    v
}

/// [`page`]'s keys for [`finish`], which takes them out again.
const TABLE_BOARD: &str = "_table_board";
const MISMATCH_BOARD: &str = "_mismatch_board";

/// The fields of a finished page view that show its board: the picture,
/// its SVG, the diagram, the position in words and the braille list. A
/// live stream sends them only when they changed since it last sent that
/// table; otherwise it sends `board_same: true` and the page keeps its own.
pub const BOARD_FIELDS: [&str; 6] = [
    "board_svg",
    "board",
    "diagram",
    "words",
    "braille",
    "braille_text",
];

/// Feeds what a value serializes to into a hasher, without the text.
struct HashWrite<'a>(&'a mut std::collections::hash_map::DefaultHasher);

impl std::io::Write for HashWrite<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        std::hash::Hasher::write(self.0, buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What the [`BOARD_FIELDS`] of a [`page`] view are made from (the
/// position, the table's own marks, the board read back at a mismatch, and
/// what the board's label says): equal keys, equal fields. A key is only
/// compared with keys of the same desk process.
#[must_use]
pub fn board_key(v: &Value) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for k in [
        "table",
        "variant",
        "fen",
        "turn",
        "result",
        "last_move",
        TABLE_BOARD,
        MISMATCH_BOARD,
    ] {
        let _ = serde_json::to_writer(HashWrite(&mut h), &v[k]);
        std::hash::Hasher::write_u8(&mut h, 0);
    }
    std::hash::Hasher::finish(&h)
}

/// [`finish`] for a live stream that last sent this table's board with the
/// key `sent`: when the board is the same, its fields are left out (none is
/// drawn) and `board_same` is true. Returns the view and its board's key.
#[must_use]
pub fn finish_for(mut v: Value, sent: Option<u64>) -> (Value, u64) {
    let key = board_key(&v);
    if sent != Some(key) {
        return (finish(v), key);
    }
    if let Some(o) = v.as_object_mut() {
        o.remove(TABLE_BOARD);
        o.remove(MISMATCH_BOARD);
        o.insert("board_same".into(), Value::Bool(true));
    }
    (v, key)
}

/// What the desk draws of one position, made once and kept (the same
/// position is shown again and again as clocks tick and boards are brought
/// up to date). Typed, not JSON: a picture as a JSON tree is ten times its
/// size, and 2,000 tables show up to 2,000 positions.
struct Boards {
    diagram: String,
    words: String,
    braille: String,
    braille_text: String,
    picture: Option<BoardPicture>,
}

/// The board views of the positions seen last.
static BOARDS: std::sync::Mutex<Option<HashMap<String, std::sync::Arc<Boards>>>> =
    std::sync::Mutex::new(None);

fn boards_of(variant: &str, fen: &str) -> Option<std::sync::Arc<Boards>> {
    let key = format!("{variant} {fen}");
    if let Some(b) = BOARDS
        .lock()
        .ok()
        .and_then(|c| c.as_ref().and_then(|c| c.get(&key).cloned()))
    {
        return Some(b);
    }
    let (diagram, words, braille, braille_text) = board_views(variant, fen)?;
    let b = std::sync::Arc::new(Boards {
        diagram: diagram.join("\n"),
        words,
        braille,
        braille_text,
        picture: crate::game::picture_of_text(variant, fen).ok(),
    });
    if let Ok(mut c) = BOARDS.lock() {
        let c = c.get_or_insert_with(HashMap::new);
        if c.len() >= 2000 {
            c.clear();
        }
        c.insert(key, b.clone());
    }
    Some(b)
}

/// Adds the board diagram, the position in words and the braille list to a [`page`] view.
#[must_use]
pub fn finish(mut v: Value) -> Value {
    let boards = match (v["variant"].as_str(), v["fen"].as_str()) {
        (Some(variant), Some(fen)) => boards_of(variant, fen),
        _ => None,
    };
    let Some(b) = boards else {
        if let Some(o) = v.as_object_mut() {
            o.remove(TABLE_BOARD);
            o.remove(MISMATCH_BOARD);
        }
        return v;
    };
    v["diagram"] = json!(b.diagram);
    v["words"] = json!(b.words);
    v["braille"] = json!(b.braille);
    v["braille_text"] = json!(b.braille_text);
    draw_board(v, b.picture.clone())
}

/// The board of a page view as a picture (`board`) and as the inline SVG
/// the page shows (`board_svg`): the pieces from the position text, the
/// last move's marks from the table's own picture when it was of the same
/// position (never from another position: a delayed view shows no newer
/// move), and the squares where the board read back at the last mismatch
/// differs.
fn draw_board(mut v: Value, pic: Option<BoardPicture>) -> Value {
    let marks = v.as_object_mut().and_then(|o| o.remove(TABLE_BOARD));
    let mismatch = v
        .as_object_mut()
        .and_then(|o| o.remove(MISMATCH_BOARD))
        .and_then(|b| b.as_str().map(str::to_owned));
    let Some(mut pic) = pic else {
        v["board"] = Value::Null;
        return v;
    };
    let strings = |m: &Value| -> Vec<String> {
        m.as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect()
    };
    if let Some(m) = marks.filter(|m| m["fen"] == v["fen"]) {
        pic.last = strings(&m["last"]);
        pic.captured = strings(&m["captured"]);
    }
    let variant = v["variant"].as_str().unwrap_or_default().to_owned();
    if let Some(read) = mismatch.and_then(|b| crate::game::picture_of_text(&variant, &b).ok()) {
        pic.differs = differing(&pic, &read);
    }
    let pic = pic.marks_checked();
    let n = v["table"].as_u64().unwrap_or(0);
    let whose = match (v["result"].as_str(), v["turn"].as_str()) {
        (Some(r), _) => format!("game over, {r}"),
        (None, Some(side)) => format!("{side} to move"),
        _ => String::new(),
    };
    let mut label = format!("Board of table {n}: {whose}");
    if let Some(m) = v["last_move"].as_str() {
        label.push_str(&format!(", last move {m}"));
    }
    if !pic.differs.is_empty() {
        label.push_str(&format!(
            ", the board read back differs on {}",
            pic.differs.join(", ")
        ));
    }
    v["board_svg"] = json!(svg::svg(&pic, u32::try_from(n).ok(), &label));
    v["board"] = serde_json::to_value(&pic).unwrap_or(Value::Null);
    v
}

/// The journal's events for the detail page, newest last (ticks left out).
#[must_use]
pub fn events(t: &TableCopy) -> Vec<Value> {
    t.records
        .iter()
        .filter(|r| !matches!(r.event, Event::Tick))
        .map(|r| {
            json!({"seq": r.seq, "wall": r.wall, "t_ms": r.t_ms,
                   "event": serde_json::to_value(&r.event).unwrap_or(Value::Null)})
        })
        .collect()
}

/// The last mismatch's board as read back, with the record's position then,
/// for the `tandem arbiter diff` report.
#[must_use]
pub fn last_mismatch(t: &TableCopy) -> Option<(String, String, String)> {
    let idx = t.records.iter().rposition(|r| {
        matches!(
            &r.event,
            Event::Mismatch {
                board_fen: Some(_),
                ..
            }
        )
    })?;
    let Event::Mismatch {
        board_fen: Some(board),
        ..
    } = &t.records[idx].event
    else {
        return None;
    };
    let table = crate::session::Table::replay(&t.records[..=idx]).ok()?;
    Some((
        table.game.kind().name().to_owned(),
        table.game.fen(),
        board.clone(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table whose journal starts a game with `control`, replayed by the desk.
    fn table(control: &str) -> (tempfile::TempDir, TableCopy) {
        let dir = tempfile::tempdir().unwrap();
        let mut t = TableCopy::open(1, &dir.path().join("desk/table-1.jsonl")).unwrap();
        for l in crate::hall::store::journal_lines(None, control) {
            t.take(l);
        }
        t.refresh_facts();
        (dir, t)
    }

    #[test]
    fn an_untimed_table_is_marked_so_and_a_timed_one_is_not() {
        let (_d, t) = table("none");
        let v = api(&t, "ev");
        assert_eq!(v["clocks"]["untimed"], true, "{v}");
        let (_d, t) = table("90m");
        let v = api(&t, "ev");
        assert_eq!(v["clocks"]["untimed"], false, "{v}");
        assert_eq!(v["clocks"]["white_remaining_ms"], 90 * 60 * 1000, "{v}");
    }

    #[test]
    fn a_tables_state_is_cut_and_what_it_says_of_the_game_is_not_shown() {
        let (_d, mut t) = table("90m");
        let fen = api(&t, "ev")["fen"].as_str().unwrap().to_owned();
        let mut pic = crate::game::picture_of_text("international", &fen).unwrap();
        pic.last = vec!["32".into(), "28".into()];
        let moves: Vec<String> = (0..30_000)
            .map(|i| format!("{}-{}", i % 50, i % 45))
            .collect();
        let lines = t.len();
        let full = json!({"variant": "international", "fen": fen, "ply": 0, "turn": "white",
                          "journal_seq": lines, "moves": moves, "board": pic, "result": "0-2",
                          "players": {"white": null, "black": null},
                          "clocks": {"running": true, "white": {"remaining_ms": 1}}});
        let big = full.to_string().len();
        t.set_state(full);
        let kept = t.state.clone().unwrap();
        assert!(
            kept.get("moves").is_none() && kept.get("board").is_none(),
            "{kept}"
        );
        assert!(kept.to_string().len() * 100 < big, "{kept}");
        // The state says 0-2 at the line the desk holds: an alert, once.
        let raised = t.refresh_facts();
        assert_eq!(raised.len(), 1, "{raised:?}");
        assert_eq!(raised[0].kind, "state-mismatch");
        assert!(
            raised[0].text.contains("result is 0-2"),
            "{}",
            raised[0].text
        );
        assert!(t.refresh_facts().is_empty(), "once");
        // Shown: the journal's game, not the table's words.
        let v = finish(page(&t, "ev"));
        assert_eq!(v["result"], Value::Null, "{v}");
        assert_eq!(v["moves"], json!([]), "{v}");
        assert_eq!(v["board"]["last"], json!([]), "{v}");
        // The copy's clock, run on since its last line (the table said it runs), not the table's 1 ms.
        let white = v["clocks"]["white_remaining_ms"].as_u64().unwrap();
        assert!((89 * 60_000..=90 * 60_000).contains(&white), "{v}");
    }

    #[test]
    fn a_stream_gets_the_board_again_only_when_it_changed() {
        let (_d, t) = table("90m");
        let (full, key) = finish_for(page(&t, "ev"), None);
        for k in BOARD_FIELDS {
            assert!(
                full.get(k).is_some_and(|f| !f.is_null()),
                "{k} missing: {full}"
            );
        }
        assert!(full["board_svg"].as_str().unwrap().starts_with("<svg"));
        assert!(full.get("board_same").is_none(), "{full}");
        // Asked again with nothing new on the board (the clocks moved on): no board, and the same key.
        let (same, again) = finish_for(page(&t, "ev"), Some(key));
        assert_eq!(again, key);
        assert_eq!(same["board_same"], true, "{same}");
        for k in BOARD_FIELDS {
            assert!(same.get(k).is_none(), "{k} sent again: {same}");
        }
        assert!(same.get(TABLE_BOARD).is_none() && same.get(MISMATCH_BOARD).is_none());
        assert_eq!(same["table"], full["table"]);
        // Another table's key, or none: the board is drawn.
        let (drawn, _) = finish_for(page(&t, "ev"), Some(key ^ 1));
        assert_eq!(drawn["board_svg"], full["board_svg"]);
    }
}
