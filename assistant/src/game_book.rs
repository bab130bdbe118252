//! `tandem play --phrasebook FILE`: the file read as the phrasebook of the
//! game played ([`crate::game::GameKind::read_phrasebook`]; each game reads
//! its own in `crate::games::<game>::book`): the table's phrasebook, or the
//! game's own words said and listened for.

use std::any::Any;
use std::path::PathBuf;
use std::sync::Arc;

use tandem_speech::Phrasebook;

/// A `--phrasebook` file read for a game (empty without one).
#[derive(Clone, Default)]
pub struct GameBook {
    /// The table's phrasebook (`Session::set_phrasebook`), when the file is one.
    pub table: Option<Phrasebook>,
    /// The game's own phrasebook (`Session::set_game_phrasebook`), when the
    /// file is one.
    pub own: Option<Arc<dyn Any + Send + Sync>>,
    /// The language of the game's own phrasebook, when it says one.
    pub language: Option<String>,
    /// The file (a game may read its listening words from it).
    pub file: Option<PathBuf>,
}

impl std::fmt::Debug for GameBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameBook")
            .field("table", &self.table.is_some())
            .field("own", &self.own.is_some())
            .field("language", &self.language)
            .field("file", &self.file)
            .finish()
    }
}

impl GameBook {
    /// The game's own phrasebook, if it is a `T`.
    #[must_use]
    pub fn own<T: Any>(&self) -> Option<&T> {
        self.own.as_deref().and_then(|b| b.downcast_ref::<T>())
    }
}
