//! Braille translation with liblouis (the translator BRLTTY, NVDA and Orca
//! use), through its C library: text to braille and back through any
//! liblouis table list, such as `en-us-brf.dis,Pl-Pl-g1.utb` (the display
//! table first gives the ASCII braille of Braille Ready Format, then the
//! language's table).
//!
//! A small hand-written binding of `lou_translateString` and
//! `lou_backTranslateString` (the `louis` crate is GPL-3.0, tandem is
//! MIT/Apache-2.0; liblouis itself is LGPL and linked dynamically). liblouis
//! keeps its tables in global state and is not thread-safe: every call here
//! holds one lock.

use std::ffi::{c_char, c_int, c_uint, c_ushort, CStr, CString};
use std::sync::Mutex;

/// The display table that gives Braille Ready Format's ASCII braille.
pub const BRF_DISPLAY_TABLE: &str = "en-us-brf.dis";

#[allow(non_camel_case_types)]
type widechar_raw = c_uint;

#[link(name = "louis")]
extern "C" {
    fn lou_version() -> *const c_char;
    fn lou_charSize() -> c_int;
    fn lou_checkTable(table_list: *const c_char) -> c_int;
    fn lou_setLogLevel(level: c_int);
    fn lou_translateString(
        table_list: *const c_char,
        inbuf: *const widechar_raw,
        inlen: *mut c_int,
        outbuf: *mut widechar_raw,
        outlen: *mut c_int,
        typeform: *mut c_ushort,
        spacing: *mut c_char,
        mode: c_int,
    ) -> c_int;
    fn lou_backTranslateString(
        table_list: *const c_char,
        inbuf: *const widechar_raw,
        inlen: *mut c_int,
        outbuf: *mut widechar_raw,
        outlen: *mut c_int,
        typeform: *mut c_ushort,
        spacing: *mut c_char,
        mode: c_int,
    ) -> c_int;
}

/// `LOU_LOG_OFF`: liblouis says nothing on stderr; errors come back here.
const LOU_LOG_OFF: c_int = 60000;

static LOCK: Mutex<()> = Mutex::new(());

/// What went wrong in a translation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LouisError {
    /// The table list cannot be loaded.
    #[error(
        "liblouis cannot load the table list {0:?} (see the tables in /usr/share/liblouis/tables)"
    )]
    Table(String),
    /// The text holds a NUL or another character liblouis cannot take.
    #[error("liblouis cannot take this text: {0}")]
    Input(String),
    /// liblouis refused the translation.
    #[error("liblouis could not translate with {0:?}")]
    Failed(String),
    /// liblouis was built with 2-byte characters, which this binding does not
    /// speak (Debian's is built with 4-byte characters).
    #[error("this liblouis uses {0}-byte characters; tandem needs a liblouis built with 4-byte (UCS-4) characters")]
    CharSize(i32),
}

/// liblouis's version (`3.24.0`).
#[must_use]
pub fn version() -> String {
    let _g = LOCK
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // SAFETY: lou_version returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(lou_version()) }
        .to_string_lossy()
        .into_owned()
}

fn prepare(table_list: &str) -> Result<CString, LouisError> {
    let c = CString::new(table_list).map_err(|_| LouisError::Table(table_list.to_owned()))?;
    // SAFETY: no arguments.
    let size = unsafe { lou_charSize() };
    if size != 4 {
        return Err(LouisError::CharSize(size));
    }
    // SAFETY: a plain setter; `c` is a valid C string.
    if unsafe {
        lou_setLogLevel(LOU_LOG_OFF);
        lou_checkTable(c.as_ptr())
    } == 0
    {
        return Err(LouisError::Table(table_list.to_owned()));
    }
    Ok(c)
}

/// Whether liblouis can load a table list.
#[must_use]
pub fn table_exists(table_list: &str) -> bool {
    let _g = LOCK
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    prepare(table_list).is_ok()
}

#[derive(Clone, Copy)]
enum Direction {
    Forward,
    Backward,
}

fn run(table_list: &str, text: &str, dir: Direction) -> Result<String, LouisError> {
    if text.contains('\0') {
        return Err(LouisError::Input("a NUL character".into()));
    }
    let _g = LOCK
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let table = prepare(table_list)?;
    let input: Vec<widechar_raw> = text.chars().map(|c| c as widechar_raw).collect();
    if input.is_empty() {
        return Ok(String::new());
    }
    let in_len = c_int::try_from(input.len())
        .map_err(|_| LouisError::Input(format!("{} characters is too long", input.len())))?;
    // Grade 1 rarely more than triples a text; grow and retry if it does.
    let mut cap = input.len() * 4 + 16;
    loop {
        let mut out: Vec<widechar_raw> = vec![0; cap];
        let mut inlen = in_len;
        let mut outlen = c_int::try_from(cap).map_err(|_| LouisError::Failed(table_list.into()))?;
        let f = match dir {
            Direction::Forward => lou_translateString,
            Direction::Backward => lou_backTranslateString,
        };
        // SAFETY: `table` is a valid C string; `input` holds `inlen`
        // characters and `out` `outlen`, both as liblouis's 4-byte widechar
        // (checked by `prepare`); typeform and spacing may be null.
        let ok = unsafe {
            f(
                table.as_ptr(),
                input.as_ptr(),
                &mut inlen,
                out.as_mut_ptr(),
                &mut outlen,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                0,
            )
        };
        if ok == 0 {
            return Err(LouisError::Failed(table_list.to_owned()));
        }
        let used = usize::try_from(outlen).unwrap_or(0).min(cap);
        // The whole input consumed and room to spare: done.
        if inlen >= in_len && used < cap {
            return Ok(out[..used]
                .iter()
                .map(|&c| char::from_u32(c).unwrap_or('\u{fffd}'))
                .collect());
        }
        if cap > input.len() * 64 + 1024 {
            return Err(LouisError::Failed(table_list.to_owned()));
        }
        cap *= 4;
    }
}

/// Text to braille through a liblouis table list (with a display table
/// such as [`BRF_DISPLAY_TABLE`] first, the braille comes as its ASCII
/// characters).
///
/// # Errors
/// A table that cannot be loaded, or text liblouis cannot take.
pub fn translate(table_list: &str, text: &str) -> Result<String, LouisError> {
    run(table_list, text, Direction::Forward)
}

/// Braille back to text through a liblouis table list.
///
/// # Errors
/// A table that cannot be loaded, or braille liblouis cannot take.
pub fn back_translate(table_list: &str, braille: &str) -> Result<String, LouisError> {
    run(table_list, braille, Direction::Backward)
}

/// The table list for Braille Ready Format through a language's table:
/// `en-us-brf.dis,TABLE`.
#[must_use]
pub fn brf_tables(table: &str) -> String {
    format!("{BRF_DISPLAY_TABLE},{table}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polish_grade_1_round_trips_a_draughts_record() {
        let t = brf_tables("Pl-Pl-g1.utb");
        let b = translate(&t, "1. 32-28 19-23 2. 28x19 Kowalski Łódź").unwrap();
        assert_eq!(b, "#A' #CB-#BH #AI-#BC #B' #BHX#AI .KOWALSKI .<+D!");
        assert_eq!(
            back_translate(&t, &b).unwrap(),
            "1. 32-28 19-23 2. 28x19 Kowalski Łódź"
        );
    }

    #[test]
    fn a_missing_table_is_named() {
        let e = translate("no-such-table.utb", "x").unwrap_err();
        assert_eq!(e, LouisError::Table("no-such-table.utb".into()));
        assert!(!table_exists("no-such-table.utb"));
        assert!(table_exists(&brf_tables("en-ueb-g1.ctb")));
        assert!(translate("x", "a\0b").is_err());
        assert_eq!(translate(&brf_tables("Pl-Pl-g1.utb"), "").unwrap(), "");
        assert!(version().starts_with('3'), "{}", version());
    }
}
