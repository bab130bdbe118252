//! The layout holds (issue 21, `docs/games.md`): in every crate each game
//! lives in its own folder, and no file outside a game's folder names
//! anything inside one, the registries excepted. A file inside a game's
//! folder names only its own game. So a new game adds folders and one
//! registry line per crate, and the shared code cannot grow a game's
//! special case again without this test naming the file.
//!
//! The games are read from the rules crate's registry (the `pub mod` lines
//! under `// The games` in `rules/src/lib.rs`), so this test need not
//! change when a game is added. Chess's library (`shakmaty`) counts as
//! chess.
//!
//! The few places that still mix a game into shared code are listed, each
//! with its reason, in `tests/layout_debts.txt`; the test fails both on a
//! new one and on a listed one that is gone (so the list only shrinks).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use regex::Regex;

/// Each crate's source folder and its registries: the files that list the
/// games (docs/games.md, "Registries").
const CRATES: &[(&str, &[&str])] = &[
    ("rules/src", &["lib.rs"]),
    ("speech/src", &["lib.rs"]),
    ("braille/src", &["lib.rs", "board.rs"]),
    (
        "assistant/src",
        &["lib.rs", "game.rs", "kind.rs", "games/mod.rs"],
    ),
];

/// The folder of a crate's games: `src/<game>/` everywhere, and
/// `src/games/<game>/` in the binary's crate.
fn game_folder(rel: &Path, games: &BTreeSet<String>) -> Option<String> {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let first = match parts.first().map(String::as_str) {
        Some("games") => parts.get(1)?,
        _ => parts.first()?,
    };
    // `games/draughts.rs` or `draughts/…`: the game's module, with or without a folder.
    let name = first.strip_suffix(".rs").unwrap_or(first);
    games.contains(name).then(|| name.to_owned())
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

fn games(root: &Path) -> BTreeSet<String> {
    let lib = fs::read_to_string(root.join("rules/src/lib.rs")).expect("rules/src/lib.rs");
    let mut in_games = false;
    let mut out = BTreeSet::new();
    for line in lib.lines() {
        let t = line.trim();
        if t.starts_with("// The games") {
            in_games = true;
            continue;
        }
        if in_games {
            if t.is_empty() {
                break;
            }
            if let Some(name) = t.strip_prefix("pub mod ").and_then(|r| r.strip_suffix(';')) {
                out.insert(name.to_owned());
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The source without comments (doc links name paths but import nothing)
/// and without its unit tests (`#[cfg(test)] mod …` to the end of the file:
/// shared code may take any game as its example in a test).
fn code_of(text: &str) -> String {
    let comment = Regex::new(r"(^|\s)//.*$").expect("a valid regex");
    let tests = Regex::new(r"(?m)^#\[cfg\(test\)\]\s*\n\s*mod\s+\w+\s*\{").expect("a valid regex");
    let text = match tests.find(text) {
        Some(m) => &text[..m.start()],
        None => text,
    };
    text.lines()
        .map(|l| comment.replace(l, "").into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The games a file's code names: `crate::chess::…`, `tandem_rules::chess`,
/// `crate::games::chess`, a `chess` in a `use tandem_rules::{…}` list, or
/// `shakmaty`.
fn games_named(code: &str, games: &BTreeSet<String>) -> BTreeSet<String> {
    let roots = r"(?:crate|super|tandem_rules|tandem_speech|tandem_braille)";
    let path = Regex::new(&format!(r"\b{roots}::(?:games::)?(\w+)")).expect("a valid regex");
    let tree = Regex::new(&format!(r"(?s)\buse\s+{roots}::(?:games::)?\{{(.*?)\}};"))
        .expect("a valid regex");
    let mut out = BTreeSet::new();
    for c in path.captures_iter(code) {
        if games.contains(&c[1]) {
            out.insert(c[1].to_owned());
        }
    }
    for c in tree.captures_iter(code) {
        for item in c[1].split(',') {
            let head = item.trim().split("::").next().unwrap_or("").trim();
            if games.contains(head) {
                out.insert(head.to_owned());
            }
        }
    }
    if code.contains("shakmaty") && games.contains("chess") {
        out.insert("chess".to_owned());
    }
    out
}

/// `path: game` for every file that names a game it does not belong to.
fn violations(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let games = games(root);
    assert!(
        games.len() >= 3,
        "the rules crate's registry lists the games: {games:?}"
    );
    let mut out = BTreeMap::new();
    for (src, registries) in CRATES {
        let dir = root.join(src);
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        for f in files {
            let rel = f.strip_prefix(&dir).expect("under its crate").to_path_buf();
            let rel_s = rel.to_string_lossy().replace('\\', "/");
            // Registries list the games; `*tests.rs` files are unit tests.
            if registries.contains(&rel_s.as_str()) || rel_s.ends_with("tests.rs") {
                continue;
            }
            let own = game_folder(&rel, &games);
            let code = code_of(&fs::read_to_string(&f).expect("readable source"));
            let named: BTreeSet<String> = games_named(&code, &games)
                .into_iter()
                .filter(|g| Some(g) != own.as_ref())
                .collect();
            if !named.is_empty() {
                out.insert(format!("{src}/{rel_s}"), named);
            }
        }
    }
    out
}

/// `tests/layout_debts.txt`: `path: game game  # why`, one file a line.
fn debts(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let text = fs::read_to_string(root.join("tests/layout_debts.txt")).unwrap_or_default();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (path, games) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("layout_debts.txt: `path: games` expected, got {line:?}"));
        out.insert(
            path.trim().to_owned(),
            games.split_whitespace().map(str::to_owned).collect(),
        );
    }
    out
}

#[test]
fn no_file_outside_a_games_folder_names_a_game() {
    let root = root();
    let found = violations(&root);
    let allowed = debts(&root);
    let mut new = Vec::new();
    for (path, games) in &found {
        let extra: Vec<&String> = games
            .iter()
            .filter(|g| !allowed.get(path).is_some_and(|a| a.contains(*g)))
            .collect();
        if !extra.is_empty() {
            new.push(format!("{path} names {extra:?}"));
        }
    }
    assert!(
        new.is_empty(),
        "files outside a game's folder (or in another game's) name a game; move that code into \
         the game's folder or go through the registry (docs/games.md):\n  {}",
        new.join("\n  ")
    );
    let mut paid = Vec::new();
    for (path, games) in &allowed {
        for g in games {
            if !found.get(path).is_some_and(|f| f.contains(g)) {
                paid.push(format!("{path}: {g}"));
            }
        }
    }
    assert!(
        paid.is_empty(),
        "these debts are paid: remove them from tests/layout_debts.txt:\n  {}",
        paid.join("\n  ")
    );
}

/// A file's module path in its crate: `games/chess/mod.rs` is `games::chess`.
fn module_of(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_owned();
    }
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts.join("::")
}

/// The modules of one crate that a file's code names through `crate::…` or
/// `super::…` (the longest path that is a module).
fn modules_named(code: &str, this: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let crate_path = Regex::new(r"\bcrate((?:::\w+)+)").expect("a valid regex");
    let super_path = Regex::new(r"\bsuper((?:::\w+)+)").expect("a valid regex");
    let mut out = BTreeSet::new();
    let mut add = |segs: Vec<String>| {
        for k in (1..=segs.len()).rev() {
            let cand = segs[..k].join("::");
            if modules.contains(&cand) {
                out.insert(cand);
                return;
            }
        }
    };
    for c in crate_path.captures_iter(code) {
        add(c[1].split("::").skip(1).map(str::to_owned).collect());
    }
    let parent: Vec<String> = this
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    let parent = &parent[..parent.len().saturating_sub(1)];
    for c in super_path.captures_iter(code) {
        let mut segs = parent.to_vec();
        segs.extend(c[1].split("::").skip(1).map(str::to_owned));
        add(segs);
    }
    out
}

/// Two files that import from each other (a parent module and its own
/// children excepted: a `mod.rs` declares them and they use its items).
fn circles(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for (src, _) in CRATES {
        let dir = root.join(src);
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        let modules: BTreeSet<String> = files
            .iter()
            .map(|f| module_of(f.strip_prefix(&dir).expect("under its crate")))
            .collect();
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for f in &files {
            let m = module_of(f.strip_prefix(&dir).expect("under its crate"));
            let code = code_of(&fs::read_to_string(f).expect("readable source"));
            let mut named = modules_named(&code, &m, &modules);
            named.remove(&m);
            edges.insert(m, named);
        }
        let related = |a: &str, b: &str| {
            a.is_empty()
                || b.is_empty()
                || a.starts_with(&format!("{b}::"))
                || b.starts_with(&format!("{a}::"))
        };
        for (a, to) in &edges {
            for b in to {
                if a < b && !related(a, b) && edges.get(b).is_some_and(|t| t.contains(a)) {
                    out.push(format!("{src}: {a} <-> {b}"));
                }
            }
        }
    }
    out
}

#[test]
fn no_two_files_import_from_each_other() {
    let found = circles(&root());
    assert!(
        found.is_empty(),
        "each file imports only from below it; these import from each other (move what both \
         need into a module below them):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_check_sees_an_import_from_a_games_folder() {
    let games: BTreeSet<String> = ["draughts", "chess", "backgammon"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    let named = |code: &str| games_named(&code_of(code), &games);
    assert_eq!(
        named("use tandem_rules::chess::ChessGame;"),
        ["chess".to_owned()].into()
    );
    assert_eq!(
        named("use tandem_rules::{backgammon, Color};"),
        ["backgammon".to_owned()].into()
    );
    assert_eq!(
        named("let g = crate::games::draughts::DraughtsArbiter;"),
        ["draughts".to_owned()].into()
    );
    assert_eq!(named("use shakmaty::Chess;"), ["chess".to_owned()].into());
    assert!(named("use tandem_rules::{Color, Outcome};").is_empty());
    assert!(named("// see tandem_rules::chess for the rules").is_empty());
    assert!(named("use crate::game::GameKind;").is_empty());
    assert!(named(
        "fn f() {}\n#[cfg(test)]\nmod tests {\n    use tandem_rules::chess::start;\n}\n"
    )
    .is_empty());
    assert_eq!(
        game_folder(Path::new("games/chess/arbiter.rs"), &games),
        Some("chess".to_owned())
    );
    assert_eq!(
        game_folder(Path::new("draughts/render.rs"), &games),
        Some("draughts".to_owned())
    );
    assert_eq!(game_folder(Path::new("session.rs"), &games), None);
    let modules: BTreeSet<String> = ["game", "games", "games::chess", "voice"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        modules_named("use crate::games::chess::ChessTable;", "game", &modules),
        ["games::chess".to_owned()].into()
    );
    // `super` of `games::chess` is `games`; `games::voice` is no module.
    assert_eq!(
        modules_named("use super::voice::X;", "games::chess", &modules),
        ["games".to_owned()].into()
    );
    assert_eq!(module_of(Path::new("games/chess/mod.rs")), "games::chess");
}
