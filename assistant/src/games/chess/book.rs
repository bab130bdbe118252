//! `tandem play --phrasebook FILE` for chess: the file is a chess
//! phrasebook (its words said and listened for; its `[listen.commands]`,
//! if any, are the spoken commands).

use std::path::Path;
use std::sync::Arc;

use tandem_speech::chess::listen::{command_words, ChessWords};
use tandem_speech::chess::ChessPhrasebook;
use tandem_speech::listen::Lexicon;
use tandem_speech::Phrasebook;

use crate::game_book::GameBook;
use crate::voice::GameWords;

/// Reads `file` as a chess phrasebook.
///
/// # Errors
/// The file is not a chess phrasebook, or its commands do not read.
pub fn read(file: &Path) -> anyhow::Result<GameBook> {
    let book = ChessPhrasebook::from_file(file).map_err(|e| {
        anyhow::anyhow!(
            "--phrasebook {}: {e} (a chess game takes a chess phrasebook, \
             like speech/phrasebooks/chess/en.toml)",
            file.display()
        )
    })?;
    // Its commands, checked now rather than when the voice thread starts.
    command_words(file, Lexicon::english())
        .map_err(|e| anyhow::anyhow!("--phrasebook {}: {e}", file.display()))?;
    Ok(GameBook {
        language: Some(book.language().to_owned()),
        own: Some(Arc::new(book)),
        file: Some(file.to_owned()),
        table: None,
    })
}

/// The words voice input listens for in chess: the chess phrasebook's
/// moves (the built-in one of `lang` without `--phrasebook`) and the
/// commands of its `[listen.commands]`, else of the table's phrasebook.
///
/// # Errors
/// The file's commands do not read.
pub fn words(book: &GameBook, table: &Phrasebook, lang: &str) -> anyhow::Result<GameWords> {
    let base = Lexicon::from_phrasebook(table);
    let commands = match &book.file {
        Some(p) => command_words(p, base)
            .map_err(|e| anyhow::anyhow!("--phrasebook {}: {e}", p.display()))?,
        None => base,
    };
    let own = book
        .own::<ChessPhrasebook>()
        .cloned()
        .unwrap_or_else(|| ChessPhrasebook::builtin(lang).unwrap_or_else(ChessPhrasebook::english));
    Ok(GameWords::new(ChessWords::new(&own, commands)))
}
