//! Issue 43: the number words of every language (the stems of
//! `speech/phrasebooks/*.toml`) against an independent library, num2words
//! 0.5.14 from PyPI (installed by `scripts/setup.sh --test` into
//! `$TANDEM_PYTHONPATH`), never against the project's own tables: the
//! cardinals 0-99 and the hundreds of each table phrasebook, its genitive
//! 1-50 (what follows "z"/"from" in Polish, Russian, Ukrainian) against
//! num2words' genitive where num2words has cases, backgammon's points and
//! dice, chess's ranks. A language whose convention legitimately differs
//! (a hyphen, a gender) says so in `tests/data/languages/num2words.toml`
//! with the reason; nothing is normalised here.

use std::collections::BTreeMap;

use crate::support::langs;
use serde_json::{json, Value};

/// What the tests need of num2words, and how to get it.
const NUM2WORDS: &str =
    "num2words 0.5.14 (scripts/setup.sh --test, or pip install --target $TANDEM_PYTHONPATH num2words==0.5.14)";

/// Reads `[[lang, n, case or null], …]` on stdin; writes, for each, the
/// words or `{"error": …}` (no such language, no cases).
const ORACLE: &str = r#"
import json, sys
from num2words import num2words
out = []
for lang, n, case in json.load(sys.stdin):
    try:
        out.append(num2words(n, lang=lang, case=case) if case else num2words(n, lang=lang))
    except (NotImplementedError, TypeError) as e:
        out.append({"error": type(e).__name__ + ": " + str(e)})
print(json.dumps(out))
"#;

/// num2words' words for every request; `None` when num2words is missing
/// and `TANDEM_SKIP_REAL` allows that (`tandem_testkit::require`).
fn num2words(asked: &[(String, u32, Option<&str>)]) -> Option<Vec<Value>> {
    let input = json!(asked
        .iter()
        .map(|(l, n, c)| json!([l, n, c]))
        .collect::<Vec<_>>());
    let v = crate::support::python::run_json("num2words", NUM2WORDS, ORACLE, &input.to_string())?;
    Some(serde_json::from_value(v).unwrap())
}

/// One list of number words of a language's phrasebooks: the form's name,
/// the first number and the words (a family the language has no file of
/// yet gives none: `languages/words.rs` names what is missing).
fn forms(lang: &str) -> Vec<(&'static str, u32, Vec<String>)> {
    let p = langs::phrasebooks();
    let read = |rel: String| {
        let f = p.join(rel);
        f.is_file().then(|| langs::read_toml(&f))
    };
    let list = |t: &toml::Table, path: &[&str]| -> Option<Vec<String>> {
        let mut v = t.get(path[0])?;
        for k in &path[1..] {
            v = v.get(k)?;
        }
        Some(
            v.as_array()
                .unwrap_or_else(|| panic!("{lang}: {} is a list", path.join(".")))
                .iter()
                .map(|w| w.as_str().unwrap().to_owned())
                .collect(),
        )
    };
    let mut out = Vec::new();
    let mut add = |form, first, words: Option<Vec<String>>, skip: usize| {
        if let Some(w) = words {
            out.push((form, first, w[skip.min(w.len())..].to_vec()));
        }
    };
    if let Some(t) = read(format!("{lang}.toml")) {
        add("cardinal", 0, list(&t, &["numbers", "cardinal"]), 0);
        let hundreds = list(&t, &["numbers", "hundreds"]);
        let round = list(&t, &["numbers", "hundreds_round"]);
        if let (Some(h), Some(r), Some(c)) = (&hundreds, &round, list(&t, &["numbers", "cardinal"]))
        {
            // A language whose round hundred has its own word ("deux cents",
            // "cien"): that word is the round hundred, and `hundreds` is what
            // comes before tens and units, as in 101, 201, ... 901.
            add("hundreds_round", 100, Some(r.clone()), 0);
            let before_one = h.iter().map(|w| format!("{w} {}", c[1])).collect();
            add("hundreds_and_one", 101, Some(before_one), 0);
        } else {
            add("hundreds", 100, hundreds, 0);
        }
        add("genitive", 1, list(&t, &["numbers", "genitive"]), 0);
    }
    // Index 0 of the points and dice is unused.
    if let Some(t) = read(format!("backgammon/{lang}.toml")) {
        add("points", 1, list(&t, &["numbers", "points"]), 1);
        add("dice", 1, list(&t, &["numbers", "dice"]), 1);
    }
    if let Some(t) = read(format!("chess/{lang}.toml")) {
        add("ranks", 1, list(&t, &["squares", "ranks"]), 0);
    }
    out
}

/// The number a form's `i`-th word stands for.
fn number(form: &str, first: u32, i: usize) -> u32 {
    let i = u32::try_from(i).unwrap();
    if form.starts_with("hundreds") {
        100 * (i + 1) + first % 100
    } else {
        first + i
    }
}

#[test]
fn every_language_s_number_words_are_num2words_or_a_written_difference() {
    let data =
        langs::read_toml(&langs::root().join("assistant/tests/data/languages/num2words.toml"));
    let entries = |key: &str| -> Vec<toml::Table> {
        data.get(key)
            .and_then(toml::Value::as_array)
            .map(|a| a.iter().map(|e| e.as_table().unwrap().clone()).collect())
            .unwrap_or_default()
    };
    let differences = entries("difference");
    let no_source = entries("no_source");
    for e in differences.iter().chain(&no_source) {
        assert!(
            e.get("reason")
                .and_then(toml::Value::as_str)
                .is_some_and(|r| r.len() > 20),
            "every entry of num2words.toml gives its reason: {e}"
        );
    }
    let skipped = |lang: &str, form: &str| {
        no_source
            .iter()
            .any(|e| e["lang"].as_str() == Some(lang) && e["form"].as_str() == Some(form))
    };
    let mut asked = Vec::new();
    let mut ours = Vec::new();
    for lang in langs::languages() {
        for (form, first, words) in forms(&lang) {
            let expected_len = match form {
                "cardinal" => 100,
                "hundreds" | "hundreds_round" | "hundreds_and_one" => 9,
                "genitive" => 50,
                "points" => 24,
                "dice" => 6,
                _ => 8,
            };
            assert_eq!(words.len(), expected_len, "{lang} {form}: {words:?}");
            if skipped(&lang, form) {
                continue;
            }
            let case = (form == "genitive").then_some("genitive");
            for (i, w) in words.into_iter().enumerate() {
                let n = number(form, first, i);
                asked.push((lang.clone(), n, case));
                ours.push((lang.clone(), form, n, w));
            }
        }
    }
    let Some(theirs) = num2words(&asked) else {
        return;
    };
    let mut used = vec![0usize; differences.len()];
    let mut wrong = Vec::new();
    let mut compared: BTreeMap<String, usize> = BTreeMap::new();
    for ((lang, form, n, ours), theirs) in ours.iter().zip(&theirs) {
        let Some(theirs) = theirs.as_str() else {
            wrong.push(format!(
                "{lang} {form} {n}: num2words has no words ({}); list it as [[no_source]] with the reason",
                theirs["error"]
            ));
            continue;
        };
        *compared.entry(lang.clone()).or_default() += 1;
        if ours == theirs {
            continue;
        }
        // A written difference that turns num2words' words into ours.
        let fits = differences.iter().position(|d| {
            d["lang"].as_str() == Some(lang.as_str())
                && d["form"].as_str() == Some(form)
                && d.get("numbers")
                    .and_then(toml::Value::as_array)
                    .map_or(true, |ns| {
                        ns.iter().any(|x| x.as_integer() == Some(i64::from(*n)))
                    })
                && theirs.replace(d["theirs"].as_str().unwrap(), d["ours"].as_str().unwrap())
                    == *ours
        });
        match fits {
            Some(i) => used[i] += 1,
            None => wrong.push(format!(
                "{lang} {form} {n}: the phrasebook says {ours:?}, num2words {theirs:?}"
            )),
        }
    }
    for (d, n) in differences.iter().zip(&used) {
        if *n == 0 {
            wrong.push(format!("num2words.toml: a difference no number needs: {d}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every language compared, beyond the forms num2words cannot give.
    for lang in langs::languages() {
        assert!(
            compared
                .get(&lang)
                .is_some_and(|&n| n >= 100 + 9 + 24 + 6 + 8),
            "{lang}: {compared:?}"
        );
    }
}
