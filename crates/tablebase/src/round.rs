//! The transition rule of retrograde analysis, written once for every
//! solver (Jungle's and Five Tigers' in core, the rounds under the
//! shuttle ban, out of core, and the [`crate::retrograde::Ledger`] of the
//! distributed run).
//!
//! A position's value is for its side to move, its distance the plies to
//! the end of the game against best play:
//!
//! * **won** at `d + 1` when a move reaches a position lost (for its own
//!   side to move) at `d`, the least such `d`;
//! * **lost** when every move reaches a won position, one ply past the
//!   longest of them;
//! * **drawn** otherwise (what no round decides).
//!
//! Its three parts, each written here once: how a slot **starts**
//! ([`Start`], read as a [`Begin`] by [`Start::begin`]: decided, never
//! lost and maybe won by an exit, or losing once its successors are all
//! won); what a **tiding** ([`News`] of a successor decided the round
//! before) does to an undecided slot ([`hear`]: won at [`won_at`], or one
//! successor fewer); and the **end** of a round (a slot whose successors
//! are all won is lost at [`lost_at`], at once or held back to one ply
//! past its longest exit) and of the rounds (what is left is drawn). Each
//! solver keeps these in its own
//! layout (a state byte, a ledger's slot, two bits on disk).
//!
//! Distances are at most [`LONGEST`] plies (`u16::MAX` stays free as a
//! solver's "not known yet"); a position further from the end is a
//! [`RetroError::TooDeep`], in every solver alike, never a distance cut
//! short.
//! What a solver refuses (that, too many positions or successors, a
//! slice whose counts and un-moves disagree) is one error, [`RetroError`].
//! It imports only the leaf [`crate::value`].

use crate::value::Wdl;

/// The longest distance a table holds, in plies.
pub(crate) const LONGEST: u16 = u16::MAX - 1;

/// A slice that cannot be solved, by either solver (the in-core one and
/// the [`Ledger`](crate::retrograde::Ledger)'s rounds).
///
/// ```
/// use qi_tablebase::retrograde::{self, Open, RetroError, RetroSlice, Start};
///
/// // A slot that claims a successor no un-move leads from: it can never be
/// // decided, but nothing is inconsistent; one that starts with an error
/// // stops the solution.
/// struct Broken;
/// impl RetroSlice for Broken {
///     fn slots(&self) -> u64 { 2 }
///     fn start(&self, slot: u64) -> Result<Start, RetroError> {
///         match slot {
///             0 => Ok(Start::Open(Open { successors: 1, ..Open::default() })),
///             _ => Err(RetroError::Slice { slot, message: "no table for its captures".into() }),
///         }
///     }
///     fn predecessors(&self, _: u64, _: &mut Vec<u64>) {}
/// }
/// let error = retrograde::solve(&Broken).unwrap_err();
/// assert_eq!(error.to_string(), "slot 1: no table for its captures");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RetroError {
    /// A distance past the longest a table holds (65,534 plies, the
    /// transition rule's overflow).
    #[error("a position of the slice is decided at more than {} plies", LONGEST)]
    TooDeep,
    /// More slots than the machine's arrays index.
    #[error("{name} has too many positions for one table")]
    TooLarge {
        /// What names the slice (its material).
        name: String,
    },
    /// A slot heard of more won successors than it counted: the slice's
    /// un-moves and successor counts disagree.
    #[error("slot {slot} has more won successors than it counted")]
    Inconsistent {
        /// The slot.
        slot: u64,
    },
    /// Another worker of a distributed run failed (its own process says
    /// why).
    #[error("another worker of the cluster failed (its process reports why)")]
    OtherWorker,
    /// The slice could not start a slot.
    #[error("slot {slot}: {message}")]
    Slice {
        /// The slot.
        slot: u64,
        /// What went wrong.
        message: String,
    },
    /// An open slot has more successors than a counter byte holds.
    #[error("slot {slot} has more than {MAX_SUCCESSORS} successors in its slice")]
    TooManySuccessors {
        /// The slot.
        slot: u64,
    },
}

/// The distance of a position one ply before a position decided at `d`:
/// `d + 1`.
///
/// # Errors
///
/// [`RetroError::TooDeep`] when `d + 1` is past [`LONGEST`].
#[inline]
pub(crate) fn ply_before(d: u32) -> Result<u16, RetroError> {
    if d < u32::from(LONGEST) {
        Ok(d as u16 + 1)
    } else {
        Err(RetroError::TooDeep)
    }
}

/// The round a slot is won at when told that a successor was lost the
/// round before: `round` (one ply past that successor), or sooner if one
/// of its exits wins at `exit_win` before.
#[inline]
pub(crate) fn won_at(round: u16, exit_win: Option<u16>) -> u16 {
    exit_win.map_or(round, |w| w.min(round))
}

/// What a tiding does to an undecided slot ([`hear`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Heard {
    /// Won at this distance ([`won_at`]).
    Won(u16),
    /// Still undecided, with this many successors left undecided (a
    /// slot never lost stays undecided when it has none left).
    Left(u8),
    /// Its last successor was won, and none of its moves draws or wins:
    /// lost, when [`lost_at`] says.
    Lost(Loss),
}

/// A tiding's effect on the undecided slot `slot` with `left` successors
/// not yet decided (`never_lost` if a move out of the slice draws or
/// wins) and, while it is open, the distance `distance`: the distance its
/// exits win at if it is never lost, else the longest distance of a won
/// position its exits reach (0 for none). `news` is of one of its
/// successors, decided the round before `round`. A lost successor wins
/// the slot ([`won_at`]); a won one counts it down, and the last one
/// loses it ([`lost_at`]) unless it is never lost.
///
/// # Errors
///
/// [`RetroError::Inconsistent`] when `left` is already 0 (the slice's
/// un-moves and successor counts disagree); [`RetroError::TooDeep`] as
/// [`lost_at`].
#[inline]
pub(crate) fn hear(
    slot: u64,
    news: News,
    round: u16,
    left: u8,
    never_lost: bool,
    distance: u16,
) -> Result<Heard, RetroError> {
    match news {
        News::Lost => {
            let exit_win = (never_lost && distance != 0).then_some(distance);
            Ok(Heard::Won(won_at(round, exit_win)))
        }
        News::Won => match left.checked_sub(1) {
            None => Err(RetroError::Inconsistent { slot }),
            Some(0) if !never_lost => Ok(Heard::Lost(lost_at(round, distance)?)),
            Some(left) => Ok(Heard::Left(left)),
        },
    }
}

/// The count of an open slot's successors as a solver keeps it, in a
/// byte: at most [`MAX_SUCCESSORS`].
///
/// # Errors
///
/// [`RetroError::TooManySuccessors`] past that.
pub(crate) fn counter(slot: u64, successors: u32) -> Result<u8, RetroError> {
    match u8::try_from(successors) {
        Ok(count) if successors <= MAX_SUCCESSORS => Ok(count),
        _ => Err(RetroError::TooManySuccessors { slot }),
    }
}

/// When a slot whose last successor was won the round before `round` is
/// lost ([`lost_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loss {
    /// At `round` itself: its exits into won positions are all shorter.
    Now(u16),
    /// Held back to this later distance: one ply past its longest exit
    /// into a won position.
    Held(u16),
}

/// The end of a round for a slot whose successors are all won, the last
/// the round before `round`, and whose exits reach won positions at most
/// `longest_won` plies from the end (0 for none): lost one ply past the
/// longer of the two.
///
/// # Errors
///
/// [`RetroError::TooDeep`] when that is past [`LONGEST`].
#[inline]
pub(crate) fn lost_at(round: u16, longest_won: u16) -> Result<Loss, RetroError> {
    if longest_won < round {
        Ok(Loss::Now(round))
    } else {
        ply_before(u32::from(longest_won)).map(Loss::Held)
    }
}

/// What a position's moves into positions already valued (the exits of a
/// slice into smaller tables, or the moves that end the game) say before
/// any round: folded one move at a time by `Exits::note`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exits {
    /// The shortest distance of a position lost for its side to move
    /// (the opponent) that a move reaches: the slot wins in at most one
    /// ply more.
    pub shortest_lost: Option<u16>,
    /// The longest distance of a position won for its side to move that
    /// a move reaches.
    pub longest_won: Option<u16>,
    /// A move reaches a drawn position: never lost.
    pub draw: bool,
}

impl Exits {
    /// One move into a position worth `value` at `d` plies for its own
    /// side to move (the mover's opponent).
    ///
    /// # Errors
    ///
    /// [`RetroError::TooDeep`] when `d` is past [`LONGEST`] (no table holds it).
    #[inline]
    pub(crate) fn note(&mut self, value: Wdl, d: u32) -> Result<(), RetroError> {
        let d = u16::try_from(d)
            .ok()
            .filter(|&d| d <= LONGEST)
            .ok_or(RetroError::TooDeep)?;
        match value {
            Wdl::Loss => self.shortest_lost = Some(self.shortest_lost.map_or(d, |s| s.min(d))),
            Wdl::Win => self.longest_won = Some(self.longest_won.map_or(d, |l| l.max(d))),
            Wdl::Draw => self.draw = true,
        }
        Ok(())
    }

    /// The distance these moves win at, if one wins.
    ///
    /// # Errors
    ///
    /// [`RetroError::TooDeep`] as [`ply_before`].
    #[inline]
    pub(crate) fn win_at(&self) -> Result<Option<u16>, RetroError> {
        self.shortest_lost
            .map(|d| ply_before(u32::from(d)))
            .transpose()
    }

    /// Whether some move draws or wins: the position is never lost.
    #[inline]
    pub(crate) fn never_lost(&self) -> bool {
        self.draw || self.shortest_lost.is_some()
    }

    /// The least distance the position can be lost at through these
    /// moves: one ply past the longest won position they reach (0 for
    /// none).
    ///
    /// # Errors
    ///
    /// [`RetroError::TooDeep`] as [`ply_before`].
    #[inline]
    pub(crate) fn loss_floor(&self) -> Result<u16, RetroError> {
        self.longest_won.map_or(Ok(0), |d| ply_before(u32::from(d)))
    }
}

/// How a slot of a slice starts.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::jungle::{JungleSlice, Material, Tablebase};
/// use qi_tablebase::retrograde::{self, RetroSlice, Start};
/// use qi_tablebase::Wdl;
///
/// let rules = Rules::standard();
/// let m: Material = "LvC".parse()?;
/// let slice = JungleSlice::new(m, &rules, Tablebase::new(&rules));
/// // Red's Lion beside Blue's den, Red to move: open, to be solved...
/// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules)?;
/// let slot = m.index_of(&pos).unwrap();
/// assert!(matches!(slice.start(slot)?, Start::Open(_)));
/// // ... a win in 1.
/// assert_eq!(retrograde::solve(&slice)?.get(slot), Some((Wdl::Win, 1)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// No position has this slot.
    Unused,
    /// Known before any round: the game is over here (`Decided(Wdl::Loss,
    /// 0)` for a side to move that has lost). A decided win or loss is
    /// told to its predecessors in the round of its distance.
    Decided(Wdl, u16),
    /// To be solved.
    Open(Open),
}

impl Start {
    /// Whether this start is the same whatever values its reads give: it
    /// has no move out of the slice (values enter a start only through
    /// its exits). A start made by a [`ReadRecorder`](crate::retrograde::ReadRecorder)'s stand-in values
    /// is final when this holds; a start memoised by the slice (a
    /// removal sequence met before) reads nothing new but may hold a
    /// stand-in value, and has an exit, so it is started again.
    ///
    /// ```
    /// use qi_tablebase::retrograde::{Exits, Open, Start};
    ///
    /// let inner = Open { successors: 3, ..Open::default() };
    /// assert!(Start::Open(inner).reads_nothing());
    /// let exits = Exits { shortest_lost: Some(4), ..Exits::default() };
    /// assert!(!Start::Open(Open { exits, ..inner }).reads_nothing());
    /// ```
    pub fn reads_nothing(&self) -> bool {
        match self {
            Start::Unused | Start::Decided(..) => true,
            Start::Open(open) => open.exits == Exits::default(),
        }
    }
}

/// What the moves of an open slot lead to.
///
/// A slot whose one move leaves the slice into a position lost in 4
/// wins in 5:
///
/// ```
/// use qi_tablebase::retrograde::{self, Exits, Open, RetroError, RetroSlice, Start};
/// use qi_tablebase::Wdl;
///
/// struct Exit;
/// impl RetroSlice for Exit {
///     fn slots(&self) -> u64 { 1 }
///     fn start(&self, _: u64) -> Result<Start, RetroError> {
///         let exits = Exits { shortest_lost: Some(4), ..Exits::default() };
///         Ok(Start::Open(Open { successors: 0, exits }))
///     }
///     fn predecessors(&self, _: u64, _: &mut Vec<u64>) {}
/// }
/// assert_eq!(retrograde::solve(&Exit)?.get(0), Some((Wdl::Win, 5)));
/// # Ok::<(), RetroError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Open {
    /// Distinct successors in this slice (at most [`MAX_SUCCESSORS`]).
    pub successors: u32,
    /// Its moves out of the slice.
    pub exits: Exits,
}

/// The most successors in the slice an open slot may have (the in-core
/// solver counts them in 6 bits of a state byte: Jungle and Five Tigers
/// positions have at most 40 moves).
pub const MAX_SUCCESSORS: u32 = 63;

/// What a decided position tells a predecessor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
///
/// ```
/// use qi_tablebase::retrograde::News;
/// use qi_tablebase::Wdl;
///
/// assert_eq!(News::of(Wdl::Loss), Some(News::Lost));
/// assert_eq!(News::of(Wdl::Draw), None);
/// assert_eq!(News::from_code(News::Won.code()), News::Won);
/// ```
pub enum News {
    /// The successor is lost for its side to move: the predecessor wins.
    Lost = 0,
    /// The successor is won for its side to move: one bad move more.
    Won = 1,
}

impl News {
    /// The byte a tiding travels as.
    ///
    /// ```
    /// use qi_tablebase::retrograde::News;
    ///
    /// assert_eq!((News::Lost.code(), News::Won.code()), (0, 1));
    /// ```
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The tiding of a byte [`News::code`] made (anything but 0 is
    /// [`News::Won`]).
    ///
    /// ```
    /// use qi_tablebase::retrograde::News;
    ///
    /// assert_eq!(News::from_code(0), News::Lost);
    /// assert_eq!(News::from_code(1), News::Won);
    /// assert_eq!(News::from_code(200), News::Won);
    /// ```
    pub fn from_code(code: u8) -> News {
        if code == News::Lost as u8 {
            News::Lost
        } else {
            News::Won
        }
    }

    /// The news a position of value `wdl` sends (none for a draw).
    ///
    /// ```
    /// use qi_tablebase::retrograde::News;
    /// use qi_tablebase::Wdl;
    ///
    /// assert_eq!(News::of(Wdl::Win), Some(News::Won));
    /// assert_eq!(News::of(Wdl::Loss), Some(News::Lost));
    /// assert_eq!(News::of(Wdl::Draw), None);
    /// ```
    pub fn of(wdl: Wdl) -> Option<News> {
        match wdl {
            Wdl::Loss => Some(News::Lost),
            Wdl::Win => Some(News::Won),
            Wdl::Draw => None,
        }
    }
}

/// How a slot begins before any round, as every solver reads its
/// [`Start`]: the start rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Begin {
    /// No position has this slot: never decided, never told.
    Unused,
    /// Decided before any round: the game is over there, or no move
    /// stays in the slice (its exits alone decide it, at the distance
    /// they say). A win or a loss is told to its predecessors in the
    /// round of its distance.
    Decided(Wdl, u16),
    /// A move draws or wins: never lost. Won at `win` (one ply past its
    /// shortest exit into a lost position) unless a successor lost sooner
    /// wins it first; drawn if neither. It has successors in the slice.
    NeverLost {
        /// Distinct successors in the slice.
        successors: u32,
        /// The distance its exits win at, if one wins.
        win: Option<u16>,
    },
    /// Every move out of the slice loses: lost once its successors (at
    /// least one) are all won, one ply past the longest of them and of
    /// its exits.
    Losing {
        /// Distinct successors in the slice.
        successors: u32,
        /// The longest distance of a won position an exit reaches.
        longest_won: Option<u16>,
        /// The least distance it can be lost at: one ply past
        /// `longest_won` (0 for none).
        floor: u16,
    },
}

impl Start {
    /// How this slot begins ([`Begin`]).
    ///
    /// # Errors
    ///
    /// [`RetroError::TooDeep`] when an exit's win or loss would be past [`LONGEST`].
    #[inline]
    pub(crate) fn begin(self) -> Result<Begin, RetroError> {
        Ok(match self {
            Start::Unused => Begin::Unused,
            Start::Decided(wdl, d) => Begin::Decided(wdl, d),
            Start::Open(Open { successors, exits }) => {
                let win = exits.win_at()?;
                if successors == 0 {
                    match win {
                        Some(w) => Begin::Decided(Wdl::Win, w),
                        None if exits.never_lost() => Begin::Decided(Wdl::Draw, 0),
                        None => Begin::Decided(Wdl::Loss, exits.loss_floor()?),
                    }
                } else if exits.never_lost() {
                    Begin::NeverLost { successors, win }
                } else {
                    Begin::Losing {
                        successors,
                        longest_won: exits.longest_won,
                        floor: exits.loss_floor()?,
                    }
                }
            }
        })
    }
}

#[cfg(test)]
mod tests;
