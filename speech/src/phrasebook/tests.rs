use super::*;

#[test]
fn builtin_phrasebooks_load() {
    for (name, src) in [("pl", POLISH_TOML), ("en", ENGLISH_TOML)] {
        let b = Phrasebook::from_toml_str(src).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(b.language(), name);
    }
}

#[test]
fn polish_numbers_and_plurals() {
    let pl = Phrasebook::polish();
    assert_eq!(pl.number(0), "zero");
    assert_eq!(pl.number(50), "pięćdziesiąt");
    assert_eq!(pl.number(200), "dwieście");
    assert_eq!(pl.number(1234), "1234");
    assert_eq!(pl.count(1, "piece"), "jeden pion");
    assert_eq!(pl.count(3, "piece"), "trzy piony");
    assert_eq!(pl.count(5, "piece"), "pięć pionów");
    assert_eq!(pl.count(12, "piece"), "dwanaście pionów");
    assert_eq!(pl.count(22, "piece"), "dwadzieścia dwa piony");
    assert_eq!(pl.count(1, "move"), "jedno posunięcie");
    assert_eq!(pl.count(21, "move"), "dwadzieścia jeden posunięć");
    assert_eq!(pl.count(24, "move"), "dwadzieścia cztery posunięcia");
    assert_eq!(pl.count(1, "minute"), "jedna minuta");
    assert_eq!(pl.count(2, "minute"), "dwie minuty");
    assert_eq!(pl.count(5, "minute"), "pięć minut");
    assert_eq!(pl.count(32, "second"), "trzydzieści dwie sekundy");
    assert_eq!(pl.count(0, "second"), "zero sekund");
    assert_eq!(pl.count(1, "hour"), "jedna godzina");
    assert_eq!(
        pl.duration(std::time::Duration::from_secs(4800)),
        "jedna godzina dwadzieścia minut"
    );
}

#[test]
fn english_numbers_and_plurals() {
    let en = Phrasebook::english();
    assert_eq!(en.number(32), "thirty-two");
    assert_eq!(en.number(120), "one hundred twenty");
    assert_eq!(en.count(1, "piece"), "one piece");
    assert_eq!(en.count(3, "piece"), "three pieces");
    assert_eq!(
        en.duration(std::time::Duration::from_secs(310)),
        "five minutes ten seconds"
    );
    assert_eq!(en.duration(std::time::Duration::ZERO), "zero seconds");
}

#[test]
fn genitive_squares_polish() {
    let pl = Phrasebook::polish();
    let g = pl.genitive_numbers().unwrap();
    assert_eq!(g[0], "jednego");
    assert_eq!(g[20], "dwudziestu jeden");
    assert_eq!(g[31], "trzydziestu dwóch");
    assert_eq!(g[49], "pięćdziesięciu");
}

fn replace(src: &str, from: &str, to: &str) -> String {
    assert!(src.contains(from), "{from} not in source");
    src.replacen(from, to, 1)
}

/// Why the phrasebook `src` with `from` replaced by `to` is refused.
fn refusal(src: &str, from: &str, to: &str) -> String {
    Phrasebook::from_toml_str(&replace(src, from, to))
        .unwrap_err()
        .to_string()
}

#[test]
fn missing_key_is_named() {
    assert_eq!(
        refusal(POLISH_TOML, "occupied = \"Pole {square} jest zajęte.\"", ""),
        "missing key `reject.occupied`"
    );
    assert_eq!(
        refusal(POLISH_TOML, "many = \"pionów\"", ""),
        "missing key `nouns.piece.many`"
    );
    assert_eq!(
        refusal(POLISH_TOML, "cancel = [\"anuluj\"]", ""),
        "missing key `listen.commands.cancel`"
    );
}

#[test]
fn bad_placeholders_are_named() {
    assert_eq!(
        refusal(POLISH_TOML, "Pole {square} jest zajęte.", "Pole {sqare} jest zajęte."),
        "template `reject.occupied`: placeholder `{sqare}` is not an argument of this template (it has: square)"
    );
    assert!(refusal(
        POLISH_TOML,
        "{count:piece}: {squares}",
        "{count:pieces}: {squares}"
    )
    .contains("unknown noun"));
    assert!(refusal(
        POLISH_TOML,
        "Pole {square} jest zajęte.",
        "Pole {square jest zajęte."
    )
    .contains("is not closed"));
    assert!(refusal(
        POLISH_TOML,
        "Ruch {side:genitive}.",
        "Ruch {side:vocative}."
    )
    .contains("case missing"));
}

#[test]
fn wrong_sizes_and_types_are_named() {
    assert_eq!(
        refusal(POLISH_TOML, "\"zero\", \"jeden\",", "\"jeden\","),
        "key `numbers.cardinal`: must have exactly 100 entries, has 99"
    );
    assert!(
        refusal(POLISH_TOML, "language = \"pl\"", "language = \"qqq\"").contains("plural rules")
    );
    assert!(matches!(
        Phrasebook::from_toml_str("not = [toml"),
        Err(PhrasebookError::Toml(_))
    ));
    // English has no genitive list: a template asking for it is refused.
    assert!(refusal(
        ENGLISH_TOML,
        "\"{from}, {to}\"",
        "\"{from:genitive}, {to}\""
    )
    .contains("numbers.genitive"));
}

#[test]
fn listen_words_for_both_directions() {
    let pl = Phrasebook::polish();
    let l = pl.listen();
    assert!(l.to.contains(&"na".to_owned()));
    assert!(l.takes.contains(&"bije".to_owned()));
    assert_eq!(l.commands[&CommandKind::Clock][0], "zegar");
    assert_eq!(l.commands.len(), CommandKind::ALL.len());
    let en = Phrasebook::english();
    assert!(en.listen().takes.contains(&"takes".to_owned()));
    assert_eq!(en.listen().commands[&CommandKind::Yes], ["yes"]);
    assert!(pl.listen().files[2].contains(&"Cezar".to_owned()));
    assert!(pl
        .listen()
        .mishearings
        .iter()
        .any(|m| (m.heard.as_str(), m.meant.as_str()) == ("dwie", "dwa")));
    assert!(!pl.listen().match_syllables);
}

#[test]
fn bad_listen_extras_are_named() {
    assert_eq!(
        refusal(POLISH_TOML, "h = [\"h\"]", "z = [\"zet\"]"),
        "key `listen.files.z`: is not a file letter a-h"
    );
    assert!(refusal(POLISH_TOML, "cost = 0.1 }", "cost = 1.5 }")
        .contains("`cost` must be a number from 0 to 1"));
}
