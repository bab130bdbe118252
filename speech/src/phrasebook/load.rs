//! Reading a phrasebook's TOML file ([`Phrasebook::from_toml_str`]): each
//! section read and checked in turn, so that a loaded book renders without
//! failing. What the words are for is [`super`]'s API.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use intl_pluralrules::{PluralRuleType, PluralRules};
use unic_langid::LanguageIdentifier;

use super::listen::Mishearing;
use super::{
    category_key, Book, CommandKind, ListenWords, Meta, Noun, Part, Phrasebook, PhrasebookError,
    NOUNS, OPTIONAL_TEMPLATE_KEYS, TEMPLATE_KEYS,
};

/// What kind of value a placeholder stands for; decides which `:form`s it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ArgKind {
    /// A square: `{from}`, `{from:genitive}`.
    Square,
    /// A count: `{count}`, `{count:piece}` (a noun).
    Number,
    /// A side: `{side}`, `{side:genitive}` (a case in `[sides]`).
    Side,
    /// Ready-made words (a list of squares, a move phrase, a duration).
    Text,
}

fn arg_kind(name: &str) -> ArgKind {
    match name {
        "from" | "to" | "square" => ArgKind::Square,
        "count" | "left" | "limit" | "required" | "given" => ArgKind::Number,
        "side" => ArgKind::Side,
        _ => ArgKind::Text,
    }
}

/// A view of a TOML table that reports missing and mistyped keys by their full path.
pub(super) struct Tab<'a> {
    pub(super) path: String,
    pub(super) t: &'a toml::Table,
}

impl<'a> Tab<'a> {
    pub(super) fn full(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }
    pub(super) fn get(&self, key: &str) -> Result<&'a toml::Value, PhrasebookError> {
        self.t
            .get(key)
            .ok_or_else(|| PhrasebookError::Missing(self.full(key)))
    }
    pub(super) fn table(&self, key: &str) -> Result<Tab<'a>, PhrasebookError> {
        match self.get(key)? {
            toml::Value::Table(t) => Ok(Tab {
                path: self.full(key),
                t,
            }),
            _ => Err(self.invalid(key, "must be a table")),
        }
    }
    pub(super) fn opt_table(&self, key: &str) -> Result<Option<Tab<'a>>, PhrasebookError> {
        if self.t.contains_key(key) {
            self.table(key).map(Some)
        } else {
            Ok(None)
        }
    }
    pub(super) fn string(&self, key: &str) -> Result<String, PhrasebookError> {
        match self.get(key)? {
            toml::Value::String(s) => Ok(s.clone()),
            _ => Err(self.invalid(key, "must be a string")),
        }
    }
    pub(super) fn opt_string(&self, key: &str) -> Result<Option<String>, PhrasebookError> {
        if self.t.contains_key(key) {
            self.string(key).map(Some)
        } else {
            Ok(None)
        }
    }
    pub(super) fn strings(
        &self,
        key: &str,
        len: Option<usize>,
    ) -> Result<Vec<String>, PhrasebookError> {
        let toml::Value::Array(a) = self.get(key)? else {
            return Err(self.invalid(key, "must be a list of strings"));
        };
        let mut v = Vec::with_capacity(a.len());
        for (i, x) in a.iter().enumerate() {
            match x {
                toml::Value::String(s) if !s.trim().is_empty() => v.push(s.clone()),
                _ => {
                    return Err(
                        self.invalid(key, &format!("entry {} must be a non-empty string", i + 1))
                    )
                }
            }
        }
        if let Some(n) = len {
            if v.len() != n {
                return Err(self.invalid(
                    key,
                    &format!("must have exactly {n} entries, has {}", v.len()),
                ));
            }
        }
        if v.is_empty() {
            return Err(self.invalid(key, "must not be empty"));
        }
        Ok(v)
    }
    pub(super) fn invalid(&self, key: &str, reason: &str) -> PhrasebookError {
        PhrasebookError::Invalid {
            key: self.full(key),
            reason: reason.to_owned(),
        }
    }
}

fn parse_template(key: &str, text: &str) -> Result<Vec<Part>, PhrasebookError> {
    let mut parts = Vec::new();
    let mut lit = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                let mut inner = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    inner.push(c);
                }
                if !closed {
                    return Err(PhrasebookError::BadPlaceholder {
                        key: key.to_owned(),
                        placeholder: inner,
                        reason: "is not closed with `}`".to_owned(),
                    });
                }
                if !lit.is_empty() {
                    parts.push(Part::Lit(std::mem::take(&mut lit)));
                }
                let (name, form) = match inner.split_once(':') {
                    Some((n, f)) => (n.trim().to_owned(), Some(f.trim().to_owned())),
                    None => (inner.trim().to_owned(), None),
                };
                parts.push(Part::Arg { name, form });
            }
            '}' => {
                return Err(PhrasebookError::Invalid {
                    key: key.to_owned(),
                    reason: "has a `}` without a `{`".to_owned(),
                })
            }
            c => lit.push(c),
        }
    }
    if !lit.is_empty() {
        parts.push(Part::Lit(lit));
    }
    Ok(parts)
}

/// `[meta]`: the language, its plural rules, its voice and how lists join.
fn read_meta(meta: &Tab<'_>) -> Result<Meta, PhrasebookError> {
    let language = meta.string("language")?;
    let name = meta.string("name")?;
    let langid: LanguageIdentifier = language
        .parse()
        .map_err(|_| meta.invalid("language", "is not a BCP 47 language tag"))?;
    let plural = PluralRules::create(langid.clone(), PluralRuleType::CARDINAL)
        .or_else(|_| {
            let bare: LanguageIdentifier = langid
                .language
                .as_str()
                .parse()
                .map_err(|_| "bad language")?;
            PluralRules::create(bare, PluralRuleType::CARDINAL)
        })
        .map_err(|_| meta.invalid("language", "has no CLDR plural rules"))?;
    let espeak_voice = meta
        .opt_string("espeak_voice")?
        .unwrap_or_else(|| language.clone());
    let list_separator = meta
        .opt_string("list_separator")?
        .unwrap_or_else(|| ", ".to_owned());
    let list_last = meta
        .opt_string("list_last")?
        .unwrap_or_else(|| list_separator.clone());
    let alternative = meta
        .opt_string("alternative")?
        .unwrap_or_else(|| list_separator.clone());
    Ok(Meta {
        name,
        language,
        plural,
        espeak_voice,
        list_separator,
        list_last,
        alternative,
    })
}

/// `[numbers]`: the cardinals, the hundreds, the genitives of squares and
/// the forms of a gender.
struct Numbers {
    cardinal: Vec<String>,
    hundreds: Vec<String>,
    hundreds_round: Option<Vec<String>>,
    genitive: Option<Vec<String>>,
    gender: HashMap<String, HashMap<u64, String>>,
}

fn read_numbers(numbers: &Tab<'_>) -> Result<Numbers, PhrasebookError> {
    let cardinal = numbers.strings("cardinal", Some(100))?;
    let hundreds = numbers.strings("hundreds", Some(9))?;
    // A round hundred's own word, where it differs from the one said before
    // tens and units (French "deux cents" / "deux cent douze").
    let hundreds_round = if numbers.t.contains_key("hundreds_round") {
        Some(numbers.strings("hundreds_round", Some(9))?)
    } else {
        None
    };
    let genitive = if numbers.t.contains_key("genitive") {
        Some(numbers.strings("genitive", Some(50))?)
    } else {
        None
    };
    let mut gender = HashMap::new();
    if let Some(g) = numbers.opt_table("gender")? {
        for name in g.t.keys() {
            gender.insert(name.clone(), read_gender_numbers(&g.table(name)?)?);
        }
    }
    Ok(Numbers {
        cardinal,
        hundreds,
        hundreds_round,
        genitive,
        gender,
    })
}

/// `[numbers.gender.feminine]`: `1 = "jedna"`, keys 0-99.
fn read_gender_numbers(gt: &Tab<'_>) -> Result<HashMap<u64, String>, PhrasebookError> {
    let mut m = HashMap::new();
    for (k, v) in gt.t {
        let n: u64 = k
            .parse()
            .ok()
            .filter(|n| *n < 100)
            .ok_or_else(|| gt.invalid(k, "must be a number 0-99"))?;
        let toml::Value::String(s) = v else {
            return Err(gt.invalid(k, "must be a string"));
        };
        m.insert(n, s.clone());
    }
    Ok(m)
}

/// `[nouns]`: every noun of [`NOUNS`] with a form for each plural category
/// the language uses for whole numbers, and a gender `[numbers.gender]` knows.
fn read_nouns(
    nouns_t: &Tab<'_>,
    plural: &PluralRules,
    gender_numbers: &HashMap<String, HashMap<u64, String>>,
) -> Result<HashMap<String, Noun>, PhrasebookError> {
    let mut categories = BTreeSet::new();
    for n in 0u64..=1000 {
        if let Ok(c) = plural.select(n) {
            categories.insert(category_key(&c));
        }
    }
    let mut nouns = HashMap::new();
    for noun in NOUNS {
        let nt = nouns_t.table(noun)?;
        let gender = nt
            .opt_string("gender")?
            .unwrap_or_else(|| "masculine".to_owned());
        if gender != "masculine" && !gender_numbers.contains_key(&gender) {
            return Err(nt.invalid("gender", &format!("`{gender}` is not in [numbers.gender]")));
        }
        let mut forms = HashMap::new();
        for c in &categories {
            forms.insert(*c, nt.string(c)?);
        }
        nouns.insert((*noun).to_owned(), Noun { gender, forms });
    }
    Ok(nouns)
}

/// `[sides.white]`, `[sides.black]`: a side in each case, the nominative
/// at least.
fn read_sides(sides_t: &Tab<'_>) -> Result<[HashMap<String, String>; 2], PhrasebookError> {
    let mut sides: [HashMap<String, String>; 2] = Default::default();
    for (i, side) in ["white", "black"].iter().enumerate() {
        let st = sides_t.table(side)?;
        st.string("nominative")?;
        for (k, v) in st.t {
            let toml::Value::String(s) = v else {
                return Err(st.invalid(k, "must be a string"));
            };
            sides[i].insert(k.clone(), s.clone());
        }
    }
    Ok(sides)
}

/// What the placeholders' `:form`s may name: the words read before the templates.
struct Forms<'a> {
    genitive: bool,
    nouns: &'a HashMap<String, Noun>,
    sides: &'a [HashMap<String, String>; 2],
}

/// Every template of [`TEMPLATE_KEYS`] (required) and
/// [`OPTIONAL_TEMPLATE_KEYS`] (their default where the file has none), each
/// placeholder checked against what its template may use.
fn read_templates(
    root: &Tab<'_>,
    forms: &Forms<'_>,
) -> Result<HashMap<&'static str, Vec<Part>>, PhrasebookError> {
    let mut templates = HashMap::new();
    let required = TEMPLATE_KEYS.iter().map(|(k, a)| (*k, *a, None));
    let optional = OPTIONAL_TEMPLATE_KEYS
        .iter()
        .map(|(k, a, d)| (*k, *a, Some(*d)));
    for (key, allowed, default) in required.chain(optional) {
        let (section, name) = key.split_once('.').unwrap_or(("", key));
        let text = match default {
            None => root.table(section)?.string(name)?,
            Some(d) => match root.opt_table(section)? {
                Some(t) => t.opt_string(name)?.unwrap_or_else(|| d.to_owned()),
                None => d.to_owned(),
            },
        };
        let parts = parse_template(key, &text)?;
        for p in &parts {
            if let Part::Arg { name, form } = p {
                check_placeholder(key, allowed, name, form.as_deref(), forms)?;
            }
        }
        templates.insert(key, parts);
    }
    Ok(templates)
}

/// A placeholder `{name}` or `{name:form}` of template `key`: one of its
/// `allowed` arguments, with a form its kind of value has.
fn check_placeholder(
    key: &str,
    allowed: &[&str],
    name: &str,
    form: Option<&str>,
    forms: &Forms<'_>,
) -> Result<(), PhrasebookError> {
    let bad = |reason: String| PhrasebookError::BadPlaceholder {
        key: key.to_owned(),
        placeholder: match form {
            Some(f) => format!("{name}:{f}"),
            None => name.to_owned(),
        },
        reason,
    };
    if !allowed.contains(&name) {
        let list = if allowed.is_empty() {
            "none".to_owned()
        } else {
            allowed.join(", ")
        };
        return Err(bad(format!(
            "is not an argument of this template (it has: {list})"
        )));
    }
    let Some(form) = form else {
        return Ok(());
    };
    match arg_kind(name) {
        ArgKind::Square if form == "genitive" => {
            if !forms.genitive {
                return Err(bad("needs the list `numbers.genitive`".to_owned()));
            }
        }
        ArgKind::Square => {
            return Err(bad(
                "has an unknown form (squares have only `genitive`)".to_owned()
            ))
        }
        ArgKind::Number if forms.nouns.contains_key(form) => {}
        ArgKind::Number => {
            return Err(bad(format!(
                "names an unknown noun (nouns: {})",
                NOUNS.join(", ")
            )));
        }
        ArgKind::Side => {
            if !forms.sides.iter().all(|s| s.contains_key(form)) {
                return Err(bad(
                    "names a case missing from [sides.white] or [sides.black]".to_owned(),
                ));
            }
        }
        ArgKind::Text => return Err(bad("takes no form".to_owned())),
    }
    Ok(())
}

/// `[listen]`: the words speech input listens for.
fn read_listen(listen_t: &Tab<'_>) -> Result<ListenWords, PhrasebookError> {
    let commands = read_commands(&listen_t.table("commands")?)?;
    let mut files: [Vec<String>; 8] = Default::default();
    if let Some(ft) = listen_t.opt_table("files")? {
        for key in ft.t.keys() {
            let i = match key.as_bytes() {
                [c @ b'a'..=b'h'] => usize::from(c - b'a'),
                _ => return Err(ft.invalid(key, "is not a file letter a-h")),
            };
            files[i] = ft.strings(key, None)?;
        }
    }
    let mishearings = parse_mishearings(listen_t)?;
    let match_syllables = match listen_t.opt_string("match")?.as_deref() {
        None | Some("words") => false,
        Some("syllables") => true,
        Some(_) => return Err(listen_t.invalid("match", "must be \"words\" or \"syllables\"")),
    };
    // The connective lists must be present but may be empty: a language
    // may say a move as the two squares alone.
    let connectives = |key: &str| match listen_t.get(key)? {
        toml::Value::Array(a) if a.is_empty() => Ok(Vec::new()),
        _ => listen_t.strings(key, None),
    };
    Ok(ListenWords {
        to: connectives("to")?,
        takes: connectives("takes")?,
        from: connectives("from")?,
        taking: connectives("taking")?,
        commands,
        files,
        mishearings,
        match_syllables,
    })
}

/// `[listen.commands]`: every command's phrases.
fn read_commands(
    commands_t: &Tab<'_>,
) -> Result<BTreeMap<CommandKind, Vec<String>>, PhrasebookError> {
    let mut commands = BTreeMap::new();
    for c in CommandKind::ALL {
        // A draw claim is chess's (002 art. 9.2): a phrasebook written
        // before it, or for draughts only, may leave it out.
        if c.optional() && !commands_t.t.contains_key(c.key()) {
            commands.insert(c, Vec::new());
            continue;
        }
        commands.insert(c, commands_t.strings(c.key(), None)?);
    }
    Ok(commands)
}

impl Phrasebook {
    /// Parses and checks a phrasebook.
    ///
    /// ```
    /// let err = tandem_speech::Phrasebook::from_toml_str("[meta]\nlanguage = \"pl\"").unwrap_err();
    /// assert_eq!(err.to_string(), "missing key `meta.name`");
    /// ```
    ///
    /// # Errors
    /// [`PhrasebookError`] for the first problem found.
    pub fn from_toml_str(text: &str) -> Result<Phrasebook, PhrasebookError> {
        let root: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| PhrasebookError::Toml(e.message().to_owned()))?;
        let root = Tab {
            path: String::new(),
            t: &root,
        };
        let meta = read_meta(&root.table("meta")?)?;
        let numbers = read_numbers(&root.table("numbers")?)?;
        let nouns = read_nouns(&root.table("nouns")?, &meta.plural, &numbers.gender)?;
        let squares = root.table("squares")?;
        let letters = squares.strings("letters", Some(8))?;
        let letter_names = if squares.t.contains_key("letter_names") {
            Some(squares.strings("letter_names", Some(8))?)
        } else {
            None
        };
        let sides = read_sides(&root.table("sides")?)?;
        let pieces_t = root.table("pieces")?;
        let pieces = [
            pieces_t.string("white_man")?,
            pieces_t.string("white_king")?,
            pieces_t.string("black_man")?,
            pieces_t.string("black_king")?,
            pieces_t.string("empty")?,
        ];
        let forms = Forms {
            genitive: numbers.genitive.is_some(),
            nouns: &nouns,
            sides: &sides,
        };
        let templates = read_templates(&root, &forms)?;
        let listen = read_listen(&root.table("listen")?)?;
        Ok(Phrasebook {
            book: std::sync::Arc::new(Book {
                meta,
                cardinal: numbers.cardinal,
                hundreds: numbers.hundreds,
                hundreds_round: numbers.hundreds_round,
                genitive: numbers.genitive,
                gender_numbers: numbers.gender,
                nouns,
                letters,
                letter_names,
                sides,
                pieces,
                templates,
                listen,
            }),
        })
    }
}

/// `[[listen.mishearings]]`: `{ heard = "dwie", meant = "dwa", cost = 0.1 }`.
fn parse_mishearings(listen_t: &Tab<'_>) -> Result<Vec<Mishearing>, PhrasebookError> {
    let Some(v) = listen_t.t.get("mishearings") else {
        return Ok(Vec::new());
    };
    let key = listen_t.full("mishearings");
    let bad = |i: usize, reason: &str| PhrasebookError::Invalid {
        key: format!("{key}[{}]", i + 1),
        reason: reason.to_owned(),
    };
    let toml::Value::Array(a) = v else {
        return Err(listen_t.invalid("mishearings", "must be a list of tables"));
    };
    let mut out = Vec::with_capacity(a.len());
    for (i, e) in a.iter().enumerate() {
        let toml::Value::Table(t) = e else {
            return Err(bad(i, "must be a table { heard, meant, cost }"));
        };
        let word = |k: &str| match t.get(k) {
            Some(toml::Value::String(w)) if w.split_whitespace().count() == 1 => {
                Ok(w.trim().to_lowercase())
            }
            _ => Err(bad(i, &format!("`{k}` must be one word"))),
        };
        let cost = match t.get("cost") {
            Some(toml::Value::Float(f)) => *f,
            Some(toml::Value::Integer(n)) => *n as f64,
            _ => return Err(bad(i, "`cost` must be a number from 0 to 1")),
        };
        if !(0.0..=1.0).contains(&cost) {
            return Err(bad(i, "`cost` must be a number from 0 to 1"));
        }
        out.push(Mishearing {
            heard: word("heard")?,
            meant: word("meant")?,
            cost: cost as f32,
        });
    }
    Ok(out)
}
