//! What `tandem arbiter diff` prints, for every game.

use std::io::Write as _;
use std::process::ExitCode;

use serde_json::{json, Value as Json};
use tandem_rules::Color;

use super::{side_word, Words};

/// What `tandem arbiter diff` reports, for either game.
pub(crate) struct DiffOutput {
    /// The game's name in JSON.
    pub(crate) variant: &'static str,
    /// The phrasebook's language.
    pub(crate) lang: String,
    /// The differing squares as JSON (per game: square numbers and names).
    pub(crate) differences: Json,
    /// Each differing square: its name (padded as the game shows it), what
    /// stands there in A and in B, in words.
    pub(crate) squares: Vec<(String, String, String)>,
    /// The sides to move in A and in B, if they differ.
    pub(crate) turn: Option<(Color, Color)>,
    /// What to do on board B, one sentence each, for the screen.
    pub(crate) instructions: Vec<String>,
    /// The same for speech.
    pub(crate) spoken: Vec<String>,
    /// The sentence for boards that are the same.
    pub(crate) in_sync: String,
    /// The game whose headings the text takes (`draughts`, `chess`,
    /// `backgammon`: the arbiter words' `diff_differ_GAME` and
    /// `diff_to_correct_GAME`, which name its places and its board).
    pub(crate) game: &'static str,
    /// Fields a game adds to the JSON (backgammon: the Match ID's parts).
    pub(crate) extra: serde_json::Map<String, Json>,
    /// Further differences beyond the squares, one line each (the dice,
    /// the cube, the score), for the screen.
    pub(crate) extra_lines: Vec<String>,
}

/// Prints the diff as JSON or text (001 ch. VIII 3.1.1; 002 E.7: what to
/// do on the board to correct); exit status 0 when the boards are the same,
/// 1 when they differ.
pub(crate) fn print_diff(json: bool, w: Words, d: &DiffOutput) -> anyhow::Result<ExitCode> {
    let same = d.squares.is_empty() && d.turn.is_none() && d.extra_lines.is_empty();
    let mut out = std::io::stdout().lock();
    if json {
        let mut obj = json!({
            "variant": d.variant,
            "same": same,
            "differences": d.differences,
            "turn": d.turn.map(|(x, y)| json!({"a": x.name(), "b": y.name()})),
            "instructions": d.instructions,
            "spoken": d.spoken.join(" "),
            "lang": d.lang,
        });
        if let Some(o) = obj.as_object_mut() {
            o.extend(d.extra.clone());
        }
        writeln!(out, "{obj}")?;
    } else if same {
        writeln!(out, "{}", d.in_sync)?;
    } else {
        writeln!(out, "{}:", w.get(&format!("diff_differ_{}", d.game)))?;
        for (square, a, b) in &d.squares {
            writeln!(out, "  {square}: A {a}, B {b}")?;
        }
        for l in &d.extra_lines {
            writeln!(out, "  {l}")?;
        }
        if let Some((x, y)) = d.turn {
            writeln!(
                out,
                "  {}: A {}, B {}",
                w.s("to_move"),
                side_word(x, w).to_lowercase(),
                side_word(y, w).to_lowercase()
            )?;
        }
        writeln!(out, "{}:", w.get(&format!("diff_to_correct_{}", d.game)))?;
        for s in &d.instructions {
            writeln!(out, "  {s}")?;
        }
        writeln!(out, "{}: {}", w.s("spoken_2"), d.spoken.join(" "))?;
    }
    Ok(if same {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
