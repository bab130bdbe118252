//! What `tandem perft` reports for any game: the leaf nodes of its move tree
//! to a depth, and per first move when divided. Each game counts in its
//! folder (`crate::games::<game>::one_shot`), chosen by the registry
//! ([`crate::game::GameKind::count_tree`]); `crate::cmd::perft` prints.

/// A move tree counted.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeCount {
    /// The game's name (`international`, `chess`).
    pub variant: &'static str,
    /// The position counted from, in the game's text.
    pub fen: String,
    /// Leaf nodes at the depth.
    pub nodes: u64,
    /// With `--divide`: each first move (as the game writes it, and its UCI
    /// form where the game has one) and the nodes below it.
    pub divide: Option<Vec<DividedMove>>,
}

/// One first move of a divided count.
#[derive(Debug, Clone, PartialEq)]
pub struct DividedMove {
    /// The move as the game writes it (`32-28`, `Nf3`).
    pub text: String,
    /// Its UCI form (chess).
    pub uci: Option<String>,
    /// Leaf nodes below it.
    pub nodes: u64,
}
