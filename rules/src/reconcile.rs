//! Two records of one game compared, for any game tandem plays: the logic
//! The games' arbiter modules (draughts, chess, backgammon) share
//! (001 ch. VIII 3.1; 002 annex E.7-E.8).
//!
//! [`reconcile`] replays both records from the same start and finds how many
//! plies they agree on, the first ply where they differ (with both versions
//! and whether each is legal there), the first illegal move of each, what
//! kind of slip it looks like ([`Finding`]) and whether the records reach
//! the same position again in another order ([`Transposition`]). A game
//! takes part through [`RecordedGame`]; the games' own modules name the
//! results (`Reconciliation`, `ChessReconciliation`, ...) as type aliases of
//! the generic types here.
//!
//! [`SquareChange`] and [`Fix`] are the squares where two boards differ and
//! what to do on the second board, for any square and piece type.
//!
//! Pure: no I/O. Each game's `arbiter` module shows it at work on that
//! game (draughts' `Reconciliation`, a doc example).

use std::fmt;

/// One of the two records being compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The first record (`A` on the command line; the game's own record in
    /// draughts' `reconcile_game`).
    A,
    /// The second record (`B`; the record the arbiter typed in).
    B,
}

impl Side {
    /// `"a"` or `"b"`, as in JSON.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Side::A => "a",
            Side::B => "b",
        }
    }

    /// The other record.
    #[must_use]
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::A => "A",
            Side::B => "B",
        })
    }
}

/// What kind of slip the difference looks like, judged from the texts of
/// the moves that follow it. The arbiter decides; this only points.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Finding {
    /// The records are the same, move for move.
    Agree,
    /// One record stops where the other goes on; the moves they share agree.
    Ends {
        /// The record that stops.
        shorter: Side,
        /// Plies it holds.
        plies: usize,
    },
    /// One record has a different move at `ply` and the same moves after it.
    WrongMove {
        /// 1-based ply.
        ply: usize,
    },
    /// One record lacks the ply the other has at `ply`; the moves after it
    /// are the same, one ply apart.
    MissingPly {
        /// The record without the ply.
        record: Side,
        /// 1-based ply (in the other record).
        ply: usize,
    },
    /// The moves at `first` and `second` are written in the other order;
    /// the rest agrees.
    Swapped {
        /// 1-based ply.
        first: usize,
        /// 1-based ply.
        second: usize,
    },
    /// Both records have the same move at `ply`, and it is illegal there.
    SameIllegal {
        /// 1-based ply.
        ply: usize,
    },
    /// The records differ from `ply` on in no simple pattern.
    Differ {
        /// 1-based ply.
        ply: usize,
    },
}

/// A game whose records the arbiter can compare: how to replay a record,
/// play one move text in a position, and what a move's key is when two
/// records written in different styles are matched ply by ply.
///
/// Implemented by each game's game type (draughts' `Game`, chess's
/// `ChessGame`).
pub trait RecordedGame: Clone + Sized {
    /// A position of the game. Two records reach "the same position" when
    /// these are equal (for chess: as for repetition, 002 art. 9.2).
    type Position: Clone + PartialEq;
    /// A move, as the game plays it.
    type Move: Copy + PartialEq;
    /// Why a move text cannot be played.
    type Error: Clone;
    /// A ply's key for [`Finding`]: two plies written in different styles
    /// match when their keys are equal.
    type Key: PartialEq;
    /// How the game's records are judged where draughts and chess differ.
    const CLASSIFY: Classify;

    /// Replays a record (texts as written, trimmed) from `start`, stopping
    /// at the first move that cannot be played.
    fn replay(start: &Self::Position, texts: Vec<String>) -> RecordReplay<Self>;
    /// Plays one move text in `pos`: the move, or why not.
    ///
    /// # Errors
    /// Why the text cannot be played there.
    fn play_in(pos: &Self::Position, text: &str) -> Result<Self::Move, Self::Error>;
    /// The start position.
    fn start_position(&self) -> &Self::Position;
    /// The position now.
    fn current_position(&self) -> &Self::Position;
    /// The position after `ply` plies.
    fn position_after(&self, ply: usize) -> Option<&Self::Position>;
    /// The moves played.
    fn played(&self) -> &[Self::Move];
    /// The first `plies` moves in the game's strict notation.
    fn strict_texts(&self, plies: usize) -> Vec<String>;
    /// Each written move's key, from the record replayed from `start`.
    fn keys(start: &Self::Position, record: &RecordReplay<Self>) -> Vec<Self::Key>;
}

/// Where the draughts and chess arbiters judge a difference apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classify {
    /// `true`: the same key at the first difference is
    /// [`Finding::SameIllegal`] only when both moves are illegal there
    /// (chess: two legal moves that differ are never "the same"); `false`:
    /// whenever the keys are equal (draughts: keys are the squares).
    pub same_needs_both_illegal: bool,
    /// `true`: a wrong move whose later moves agree as far as the shorter
    /// record goes is found before a swap or a missing ply (draughts);
    /// `false`: only when both records are as long, else after them (chess).
    pub wrong_move_first: bool,
}

/// The first move of a record that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalPly<E> {
    /// 1-based ply.
    pub ply: usize,
    /// The move as written.
    pub text: String,
    /// Why it cannot be played there.
    pub reason: E,
}

/// One record replayed from the start as far as its moves are legal.
#[derive(Debug, Clone)]
pub struct RecordReplay<G: RecordedGame> {
    /// Every move as written (the legal ones and those after).
    pub texts: Vec<String>,
    /// The game up to the first illegal move (or the whole record).
    pub game: G,
    /// The first illegal move, if any.
    pub illegal: Option<IllegalPly<G::Error>>,
}

impl<G: RecordedGame> RecordReplay<G> {
    /// Plies written.
    #[must_use]
    pub fn written(&self) -> usize {
        self.texts.len()
    }

    /// Plies replayed (legal).
    #[must_use]
    pub fn legal(&self) -> usize {
        self.game.played().len()
    }
}

/// The first ply where two records differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference<M, E> {
    /// 1-based ply.
    pub ply: usize,
    /// Record A's move there as written (`None`: A ends before it).
    pub a: Option<String>,
    /// Record B's move there as written.
    pub b: Option<String>,
    /// A's move played in the last agreed position: the move, or why not.
    pub a_result: Option<Result<M, E>>,
    /// B's move played in the last agreed position.
    pub b_result: Option<Result<M, E>>,
}

impl<M, E> Difference<M, E> {
    /// Whether A's move is legal there (`None`: A has no move there).
    #[must_use]
    pub fn a_legal(&self) -> Option<bool> {
        self.a_result.as_ref().map(Result::is_ok)
    }

    /// Whether B's move is legal there.
    #[must_use]
    pub fn b_legal(&self) -> Option<bool> {
        self.b_result.as_ref().map(Result::is_ok)
    }

    /// The text of one side's move.
    #[must_use]
    pub fn text(&self, side: Side) -> Option<&str> {
        match side {
            Side::A => self.a.as_deref(),
            Side::B => self.b.as_deref(),
        }
    }

    /// One side's move, played in the last agreed position.
    #[must_use]
    pub fn result(&self, side: Side) -> Option<&Result<M, E>> {
        match side {
            Side::A => self.a_result.as_ref(),
            Side::B => self.b_result.as_ref(),
        }
    }
}

/// The records reach the same position again after playing moves in
/// another order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transposition<P> {
    /// The first ply where the order differs.
    pub from_ply: usize,
    /// Both records reach the same position after this many plies.
    pub same_after: usize,
    /// From there, how many further plies both records agree on.
    pub agree_again: usize,
    /// The position after `same_after + agree_again` plies: the last
    /// position both records reach.
    pub last_common: P,
}

impl<P> Transposition<P> {
    /// Plies up to the last position both records reach.
    #[must_use]
    pub fn last_common_ply(&self) -> usize {
        self.same_after + self.agree_again
    }
}

/// The comparison of two records. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct Reconciliation<G: RecordedGame> {
    /// Record A replayed.
    pub a: RecordReplay<G>,
    /// Record B replayed.
    pub b: RecordReplay<G>,
    /// Plies on which both records agree (the same legal move, however written).
    pub agreed_plies: usize,
    /// The first ply where they differ, `None` if they agree to the end.
    pub first_difference: Option<Difference<G::Move, G::Error>>,
    /// What the difference looks like.
    pub finding: Finding,
    /// The records reach the same position again later, if they do.
    pub transposition: Option<Transposition<G::Position>>,
}

impl<G: RecordedGame> Reconciliation<G> {
    /// The position after the agreed plies: where play goes back to
    /// (001 ch. VIII 3.1.2; 002 E.8: "the last position where both records
    /// agree").
    #[must_use]
    pub fn agreed_position(&self) -> &G::Position {
        // agreed_plies <= a.legal(), so the position exists.
        self.a
            .game
            .position_after(self.agreed_plies)
            .unwrap_or_else(|| self.a.game.current_position())
    }

    /// The agreed moves in the game's strict notation.
    #[must_use]
    pub fn agreed_moves(&self) -> Vec<String> {
        self.a.game.strict_texts(self.agreed_plies)
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &G::Position {
        self.a.game.start_position()
    }

    /// Whether the records agree completely (same moves, all legal, same length).
    #[must_use]
    pub fn agree(&self) -> bool {
        self.first_difference.is_none() && self.a.illegal.is_none() && self.b.illegal.is_none()
    }

    /// A record's first illegal move, if any.
    #[must_use]
    pub fn illegal(&self, side: Side) -> Option<&IllegalPly<G::Error>> {
        self.record(side).illegal.as_ref()
    }

    /// A record replayed.
    #[must_use]
    pub fn record(&self, side: Side) -> &RecordReplay<G> {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }
}

/// Compares two records of one game played from `start`.
///
/// They agree on a ply when both name the same legal move, however written.
/// See the [module docs](self) for an example.
#[must_use]
pub fn reconcile<G: RecordedGame, S: AsRef<str>, T: AsRef<str>>(
    start: &G::Position,
    a: &[S],
    b: &[T],
) -> Reconciliation<G> {
    let a = replay_record::<G, S>(start, a);
    let b = replay_record::<G, T>(start, b);
    let (am, bm) = (a.game.played(), b.game.played());
    let agreed = am.iter().zip(bm).take_while(|(x, y)| x == y).count();
    let same = agreed == a.written() && agreed == b.written();
    let first_difference = if same {
        // Equal lengths and all agreed: both were fully legal.
        None
    } else {
        let pos = a
            .game
            .position_after(agreed)
            .unwrap_or_else(|| a.game.current_position())
            .clone();
        let result = |r: &RecordReplay<G>| -> Option<Result<G::Move, G::Error>> {
            let text = r.texts.get(agreed)?;
            Some(match r.game.played().get(agreed) {
                Some(m) => Ok(*m),
                None => match &r.illegal {
                    // The record's replay stopped here: its own reason.
                    Some(i) if i.ply == agreed + 1 => Err(i.reason.clone()),
                    _ => G::play_in(&pos, text),
                },
            })
        };
        Some(Difference {
            ply: agreed + 1,
            a: a.texts.get(agreed).cloned(),
            b: b.texts.get(agreed).cloned(),
            a_result: result(&a),
            b_result: result(&b),
        })
    };
    let finding = match &first_difference {
        None => Finding::Agree,
        Some(d) => classify(
            &G::keys(start, &a),
            &G::keys(start, &b),
            agreed,
            d.a_legal() == Some(false) && d.b_legal() == Some(false),
            G::CLASSIFY,
        ),
    };
    let transposition = first_difference
        .as_ref()
        .and_then(|_| find_transposition(&a.game, &b.game, agreed));
    Reconciliation {
        a,
        b,
        agreed_plies: agreed,
        first_difference,
        finding,
        transposition,
    }
}

/// Replays a record (move texts as written; each is trimmed) from `start`,
/// stopping at the first move that cannot be played.
#[must_use]
pub fn replay_record<G: RecordedGame, S: AsRef<str>>(
    start: &G::Position,
    texts: &[S],
) -> RecordReplay<G> {
    G::replay(
        start,
        texts.iter().map(|t| t.as_ref().trim().to_owned()).collect(),
    )
}

/// Plays a record move by move from `game` with `play`, stopping at the
/// first move it refuses (the replay both games share where nothing
/// smarter is needed).
pub(crate) fn replay_with<G: RecordedGame>(
    mut game: G,
    texts: Vec<String>,
    mut play: impl FnMut(&mut G, &str) -> Result<G::Move, G::Error>,
) -> RecordReplay<G> {
    for (i, t) in texts.iter().enumerate() {
        if let Err(reason) = play(&mut game, t) {
            let illegal = Some(IllegalPly {
                ply: i + 1,
                text: t.clone(),
                reason,
            });
            return RecordReplay {
                texts,
                game,
                illegal,
            };
        }
    }
    RecordReplay {
        texts,
        game,
        illegal: None,
    }
}

/// What the first difference looks like, judged from the keys of the moves
/// that follow it (a human arbiter does the same with two sheets). The
/// arbiter decides; this only points. `both_illegal`: both records have a
/// move at the first difference and neither is legal there.
fn classify<K: PartialEq>(
    ka: &[K],
    kb: &[K],
    agreed: usize,
    both_illegal: bool,
    style: Classify,
) -> Finding {
    let k = agreed;
    let ply = k + 1;
    if ka.len() == k || kb.len() == k {
        // One record has nothing at the first difference. Moves up to here
        // agree (as moves); one record simply stops.
        if ka.len() == k && kb.len() == k {
            // Same length, agreeing moves, yet an illegal move: nothing shorter.
            return Finding::Differ { ply };
        }
        let shorter = if ka.len() == k { Side::A } else { Side::B };
        return Finding::Ends { shorter, plies: k };
    }
    if ka[k] == kb[k] && (both_illegal || !style.same_needs_both_illegal) {
        return Finding::SameIllegal { ply };
    }
    let (rest_a, rest_b) = (&ka[k + 1..], &kb[k + 1..]);
    let tail_eq =
        |x: &[K], y: &[K]| !x.is_empty() && !y.is_empty() && x.iter().zip(y).all(|(p, q)| p == q);
    // A wrong move: the same moves after it (to the end of both records, or
    // as far as the shorter goes where the game says so).
    let same_length = rest_a.len() == rest_b.len();
    let wrong_move = if style.wrong_move_first {
        tail_eq(rest_a, rest_b) || (rest_a.is_empty() && rest_b.is_empty())
    } else {
        same_length && (rest_a.is_empty() || tail_eq(rest_a, rest_b))
    };
    if wrong_move {
        return Finding::WrongMove { ply };
    }
    // Swapped: ply k with ply k+d (d = 1: written in the wrong order; d = 2:
    // the same side's two moves in the other order).
    for d in [1usize, 2] {
        if ka.len() > k + d
            && kb.len() > k + d
            && ka[k] == kb[k + d]
            && ka[k + d] == kb[k]
            && ka[k + 1..k + d] == kb[k + 1..k + d]
            && ka[k + d + 1..]
                .iter()
                .zip(&kb[k + d + 1..])
                .all(|(p, q)| p == q)
        {
            return Finding::Swapped {
                first: ply,
                second: ply + d,
            };
        }
    }
    // Missing ply: one record skips the other's ply k and goes on the same.
    if ka.len() > k + 1 && tail_eq(&ka[k + 1..], &kb[k..]) {
        return Finding::MissingPly {
            record: Side::B,
            ply,
        };
    }
    if kb.len() > k + 1 && tail_eq(&ka[k..], &kb[k + 1..]) {
        return Finding::MissingPly {
            record: Side::A,
            ply,
        };
    }
    // A wrong move, and one record goes on further than the other (already
    // found above where the game looks for it first).
    if tail_eq(rest_a, rest_b) {
        return Finding::WrongMove { ply };
    }
    Finding::Differ { ply }
}

fn find_transposition<G: RecordedGame>(
    ga: &G,
    gb: &G,
    agreed: usize,
) -> Option<Transposition<G::Position>> {
    let common = ga.played().len().min(gb.played().len());
    // The same position as the game defines it (chess: board, side to move,
    // castling and en passant rights, as for repetition, 002 art. 9.2).
    let j = (agreed + 1..=common).find(|&j| ga.position_after(j) == gb.position_after(j))?;
    let again = ga.played()[j..]
        .iter()
        .zip(&gb.played()[j..])
        .take_while(|(x, y)| x == y)
        .count();
    let last_common = ga.position_after(j + again)?.clone();
    Some(Transposition {
        from_ply: agreed + 1,
        same_after: j,
        agree_again: again,
        last_common,
    })
}

// ------------------------------------------------------------------ boards

/// A square whose contents differ between two boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SquareChange<S, P> {
    /// The square.
    pub square: S,
    /// What stands there on the first board (the record, the game).
    pub a: Option<P>,
    /// What stands there on the second (the board to correct).
    pub b: Option<P>,
}

/// What to do on a square of the second board to make it equal the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fix<S, P> {
    /// Take `piece` off `square`.
    Remove {
        /// The square.
        square: S,
        /// The piece to take off.
        piece: P,
    },
    /// Put `piece` on `square`.
    Put {
        /// The square.
        square: S,
        /// The piece to put there.
        piece: P,
    },
    /// Take `remove` off `square` and put `put` there (a draughts man that
    /// should be a king: crown it; a pawn that should be a queen).
    Replace {
        /// The square.
        square: S,
        /// The piece to take off.
        remove: P,
        /// The piece to put there.
        put: P,
    },
}

impl<S: Copy, P: Copy + PartialEq> SquareChange<S, P> {
    /// What to do on the second board for this square (001 ch. VIII 3.1.1;
    /// 002 E.7: the arbiter corrects the boards). `None` only if the two
    /// sides are equal (never for a change the diff functions return).
    #[must_use]
    pub fn fix(&self) -> Option<Fix<S, P>> {
        match (self.a, self.b) {
            (Some(want), None) => Some(Fix::Put {
                square: self.square,
                piece: want,
            }),
            (None, Some(has)) => Some(Fix::Remove {
                square: self.square,
                piece: has,
            }),
            (Some(want), Some(has)) if want != has => Some(Fix::Replace {
                square: self.square,
                remove: has,
                put: want,
            }),
            _ => None,
        }
    }
}

/// The squares of `squares` where two boards differ, in the order given.
pub(crate) fn diff_squares<S: Copy, P: PartialEq>(
    squares: impl IntoIterator<Item = S>,
    a: impl Fn(S) -> Option<P>,
    b: impl Fn(S) -> Option<P>,
) -> Vec<SquareChange<S, P>> {
    squares
        .into_iter()
        .filter_map(|square| {
            let (pa, pb) = (a(square), b(square));
            (pa != pb).then_some(SquareChange {
                square,
                a: pa,
                b: pb,
            })
        })
        .collect()
}

/// A partial read-back compared with a board: the squares read whose
/// contents differ from `a`'s, in square order.
pub(crate) fn compare_squares<S: Copy + Ord, P: Copy + PartialEq>(
    read: impl IntoIterator<Item = (S, Option<P>)>,
    a: impl Fn(S) -> Option<P>,
) -> Vec<SquareChange<S, P>> {
    let mut out: Vec<SquareChange<S, P>> = read
        .into_iter()
        .filter_map(|(square, b)| {
            let pa = a(square);
            (pa != b).then_some(SquareChange { square, a: pa, b })
        })
        .collect();
    out.sort_by_key(|c| c.square);
    out
}

/// Why one item of a read-back cannot be used.
pub(crate) enum ItemError<S> {
    /// Not `square:piece`.
    BadItem(String),
    /// Not a square of this board.
    BadSquare(String),
    /// Not a piece.
    BadPiece(String),
    /// The square is given twice with different contents.
    Conflict(S),
}

/// Reads `square:piece` items (also `square=piece`, `square piece`)
/// separated by commas, semicolons or new lines, each square once: what a
/// player reads back from a board (001 ch. VIII 3.1.1; 002 E.7).
pub(crate) fn read_items<S: Copy + PartialEq, P: PartialEq>(
    text: &str,
    square: impl Fn(&str) -> Option<S>,
    piece: impl Fn(&str) -> Option<Option<P>>,
) -> Result<Vec<(S, Option<P>)>, ItemError<S>> {
    let mut squares: Vec<(S, Option<P>)> = Vec::new();
    for item in text
        .split([',', ';', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let (sq, what) = match item.split_once([':', '=']) {
            Some((s, p)) => (s.trim(), p.trim()),
            None => match item.split_once(char::is_whitespace) {
                Some((s, p)) => (s.trim(), p.trim()),
                None => return Err(ItemError::BadItem(item.to_owned())),
            },
        };
        let at = square(sq).ok_or_else(|| ItemError::BadSquare(sq.to_owned()))?;
        let on = piece(what).ok_or_else(|| ItemError::BadPiece(what.to_owned()))?;
        match squares.iter().find(|(s, _)| *s == at) {
            Some((_, p)) if *p != on => return Err(ItemError::Conflict(at)),
            Some(_) => {}
            None => squares.push((at, on)),
        }
    }
    Ok(squares)
}
