//! Named time controls of the rule books, and lookup by name or written form.

use std::fmt;
use std::time::Duration;

use super::control::{InvalidTimeControl, ParseTimeControlError, TimeControl};

/// A named time control of the rule books.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// The name, as given on the command line (`fmjd-preferred`).
    pub name: &'static str,
    /// Its canonical written form (`90m/45,30m+30s@46`).
    pub written: &'static str,
    /// The article that defines it.
    pub source: &'static str,
    /// One line in English for listings.
    pub description: &'static str,
}

impl Preset {
    /// The control itself.
    #[must_use]
    pub fn control(&self) -> TimeControl {
        // Every `written` form in PRESETS parses and displays back to itself:
        // checked for each entry by the test `every_preset_is_canonical`.
        self.written
            .parse()
            .expect("preset written forms are valid (tested)")
    }
}

/// Every fixed preset, in the order of the rule books: 001 ch. II 6.1.5
/// (FMJD and PZWarc), 6.2 (64-square), ch. III 2 (rapid and blitz), ch. III
/// 1.3 and 2.3 (superblitz). The backgammon family `eubgf-N` is in
/// [`PRESET_FAMILIES`].
pub const PRESETS: &[Preset] = &[
    Preset { name: "fmjd-basic", written: "80m+1m", source: "001 ch. II 6.1.5.1", description: "FMJD basic: 80 min + 1 min per move (Fischer)" },
    Preset { name: "fmjd-preferred", written: "90m/45,30m+30s@46", source: "001 ch. II 6.1.5.2", description: "FMJD preferred: 90 min for 45 moves, then 30 min to the end with 30 s per move (Fischer) from move 46" },
    Preset { name: "fmjd-classic", written: "2h/50,60m/25*", source: "001 ch. II 6.1.5.3.1", description: "FMJD classic: 2 h for 50 moves, then 1 h for every further 25 moves" },
    Preset { name: "fmjd-classic-finish", written: "2h/50,60m", source: "001 ch. II 6.1.5.3.2", description: "FMJD classic with a finish: 2 h for 50 moves, then 1 h to the end" },
    Preset { name: "pzwarc-90", written: "90m", source: "001 ch. II 6.1.5.4.1", description: "PZWarc short: 90 min for the game" },
    Preset { name: "pzwarc-60+30", written: "60m+30s", source: "001 ch. II 6.1.5.4.2", description: "PZWarc short: 60 min + 30 s per move (Fischer)" },
    Preset { name: "64-60", written: "60m", source: "001 ch. II 6.2.1", description: "64-square: 60 min for the game" },
    Preset { name: "64-45+30", written: "45m+30s", source: "001 ch. II 6.2.1", description: "64-square, electronic clocks: 45 min + 30 s per move (Fischer)" },
    Preset { name: "64-45/25+15", written: "45m/25,15m", source: "001 ch. II 6.2.2", description: "64-square, youth: 45 min for 25 moves, then 15 min to the end" },
    Preset { name: "64-45", written: "45m", source: "001 ch. II 6.2.3", description: "64-square: 45 min for the game" },
    Preset { name: "rapid-20", written: "20m", source: "001 ch. III 2.1", description: "rapid: 20 min for the game" },
    Preset { name: "rapid-10+5", written: "10m+5s", source: "001 ch. III 2.1", description: "rapid: 10 min + 5 s per move (Fischer)" },
    Preset { name: "blitz-5", written: "5m", source: "001 ch. III 2.2", description: "blitz: 5 min for the game" },
    Preset { name: "blitz-3+3", written: "3m+3s", source: "001 ch. III 2.2", description: "blitz: 3 min + 3 s per move (Fischer)" },
    Preset { name: "64-rapid-10", written: "10m", source: "001 ch. III 2.1", description: "64-square rapid: 10 min for the game" },
    Preset { name: "64-rapid-15", written: "15m", source: "001 ch. III 2.1", description: "64-square rapid: 15 min for the game" },
    Preset { name: "64-rapid-10+3", written: "10m+3s", source: "001 ch. III 2.1", description: "64-square rapid: 10 min + 3 s per move (Fischer)" },
    Preset { name: "64-blitz-3", written: "3m", source: "001 ch. III 2.2", description: "64-square blitz: 3 min for the game (not for age 13 and under)" },
    Preset { name: "64-blitz-5", written: "5m", source: "001 ch. III 2.2", description: "64-square blitz: 5 min for the game" },
    Preset { name: "64-blitz-3+3", written: "3m+3s", source: "001 ch. III 2.2", description: "64-square blitz: 3 min + 3 s per move (Fischer)" },
    Preset { name: "superblitz", written: "3m+2s", source: "001 ch. III 2.3", description: "superblitz: 3 min + 2 s per move (Fischer)" },
    Preset { name: "superblitz-bronstein", written: "3m+2s:bronstein", source: "001 ch. III 1.3", description: "superblitz after the switch to Bronstein: 3 min + 2 s per move (Bronstein)" },
];

/// A family of presets with a number in the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PresetFamily {
    /// The name pattern (`eubgf-N`).
    pub pattern: &'static str,
    /// A name of the family (`eubgf-7`).
    pub example: &'static str,
    /// The article that defines it.
    pub source: &'static str,
    /// One line in English for listings.
    pub description: &'static str,
}

/// The EUBGF backgammon clocks (EUBGF 3.5(v)-(vi)).
pub const PRESET_FAMILIES: &[PresetFamily] = &[
    PresetFamily {
        pattern: "eubgf-N",
        example: "eubgf-7",
        source: "004 EUBGF 3.5(v)",
        description: "backgammon, an N-point match: 2 min per point + 12 s simple delay",
    },
    PresetFamily {
        pattern: "eubgf-away-A-B",
        example: "eubgf-away-3-1",
        source: "004 EUBGF 3.5(vi)",
        description: "backgammon, a match resumed when the players still need A and B points: ((A+B)/2) x 2 min + 12 s simple delay",
    },
];

/// EUBGF 3.5(v): "dwie minuty" per point, "dwanaście sekund" delay.
const EUBGF_PER_POINT: Duration = Duration::from_secs(120);
const EUBGF_DELAY: Duration = Duration::from_secs(12);

/// A name that is neither a preset nor a written time control.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LookupError {
    /// `eubgf-…` with a number that is missing, zero or too large.
    BadMatchLength {
        /// The name given.
        name: String,
    },
    /// Not a preset name, and not a valid written control either.
    Neither {
        /// The name given.
        name: String,
        /// Why it is not a written control.
        spec: ParseTimeControlError,
    },
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LookupError::BadMatchLength { name } => write!(
                f,
                "{name:?}: the EUBGF presets are eubgf-N for an N-point match and eubgf-away-A-B for a resumed match, \
                 with whole numbers of points from 1"
            ),
            LookupError::Neither { name, spec } => {
                write!(f, "{name:?} is not a preset name, and not a written time control: {}", spec.reason())?;
                let part = spec.part();
                if part.is_empty() {
                    f.write_str(" at the end")
                } else if part != name {
                    write!(f, " at {part:?}")
                } else {
                    Ok(())
                }
            }
        }
    }
}

impl std::error::Error for LookupError {}

impl TimeControl {
    /// The preset called `name` (see [`PRESETS`] and [`PRESET_FAMILIES`]).
    ///
    /// ```
    /// use tandem_rules::clock::TimeControl;
    /// assert_eq!(TimeControl::preset("superblitz").unwrap().to_string(), "3m+2s");
    /// assert_eq!(TimeControl::preset("eubgf-7").unwrap().to_string(), "14m+12s:delay");
    /// assert_eq!(TimeControl::preset("eubgf-away-3-1").unwrap().to_string(), "4m+12s:delay");
    /// assert_eq!(TimeControl::preset("blitz-7"), None);
    /// ```
    #[must_use]
    pub fn preset(name: &str) -> Option<TimeControl> {
        if let Some(p) = PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name)) {
            return Some(p.control());
        }
        eubgf_preset(name).ok().flatten()
    }

    /// A preset name or a written control, in that order: what the command
    /// line's `--control` and the configuration accept.
    ///
    /// ```
    /// use tandem_rules::clock::TimeControl;
    /// assert_eq!(TimeControl::lookup("fmjd-basic").unwrap().to_string(), "80m+1m");
    /// assert_eq!(TimeControl::lookup("25m + 10s").unwrap().to_string(), "25m+10s");
    /// let err = TimeControl::lookup("blitz-7").unwrap_err();
    /// assert_eq!(err.to_string(), r#""blitz-7" is not a preset name, and not a written time control: expected a number"#);
    /// ```
    pub fn lookup(name_or_spec: &str) -> Result<TimeControl, LookupError> {
        let name = name_or_spec.trim();
        if let Some(p) = PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name)) {
            return Ok(p.control());
        }
        match eubgf_preset(name) {
            Ok(Some(tc)) => return Ok(tc),
            Ok(None) => {}
            Err(()) => {
                return Err(LookupError::BadMatchLength {
                    name: name_or_spec.to_owned(),
                })
            }
        }
        name_or_spec.parse().map_err(|spec| LookupError::Neither {
            name: name_or_spec.to_owned(),
            spec,
        })
    }
}

/// `eubgf-N` or `eubgf-away-A-B`: `Ok(None)` when the name is not of that
/// family, `Err` when it is but the numbers are wrong.
fn eubgf_preset(name: &str) -> Result<Option<TimeControl>, ()> {
    let lower = name.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("eubgf-") else {
        return Ok(None);
    };
    let points = |s: &str| {
        s.parse::<u32>()
            .ok()
            .filter(|&n| (1..=1000).contains(&n))
            .ok_or(())
    };
    let (pa, pb) = match rest.strip_prefix("away-") {
        Some(ab) => {
            let (a, b) = ab.split_once('-').ok_or(())?;
            (points(a)?, points(b)?)
        }
        None => {
            let n = points(rest)?;
            (n, n)
        }
    };
    TimeControl::eubgf(pa, pb, EUBGF_PER_POINT, EUBGF_DELAY)
        .map(Some)
        .map_err(|_: InvalidTimeControl| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_canonical() {
        for p in PRESETS {
            let tc: TimeControl = p
                .written
                .parse()
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert_eq!(
                tc.to_string(),
                p.written,
                "{} is not written canonically",
                p.name
            );
            assert_eq!(TimeControl::preset(p.name), Some(tc.clone()));
            assert_eq!(TimeControl::lookup(p.name), Ok(tc));
        }
        for fam in PRESET_FAMILIES {
            assert!(
                TimeControl::preset(fam.example).is_some(),
                "{}",
                fam.example
            );
        }
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PRESETS.len());
    }

    #[test]
    fn eubgf_names() {
        assert_eq!(
            TimeControl::preset("eubgf-1").unwrap().to_string(),
            "2m+12s:delay"
        );
        assert_eq!(
            TimeControl::preset("EUBGF-11").unwrap().to_string(),
            "22m+12s:delay"
        );
        // (3 + 4) / 2 · 2 min = 7 min
        assert_eq!(
            TimeControl::preset("eubgf-away-3-4").unwrap().to_string(),
            "7m+12s:delay"
        );
        for bad in [
            "eubgf-0",
            "eubgf-",
            "eubgf-x",
            "eubgf-away-3",
            "eubgf-away-0-1",
            "eubgf-1001",
            "eubgf-away-1-2-3",
        ] {
            assert_eq!(TimeControl::preset(bad), None, "{bad}");
            assert_eq!(
                TimeControl::lookup(bad),
                Err(LookupError::BadMatchLength { name: bad.into() }),
                "{bad}"
            );
        }
    }

    #[test]
    fn lookup_error_names_the_part() {
        let e = TimeControl::lookup("90m/x").unwrap_err();
        assert_eq!(
            e.to_string(),
            r#""90m/x" is not a preset name, and not a written time control: a number of moves must be a whole number from 1 at "x""#
        );
    }
}
