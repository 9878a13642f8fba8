//! The mechanism under every game layer: a stack of positions with the
//! move record and a result decided outside the rules.
//!
//! Each game keeps its own history rules (what repeats, what counts as a
//! draw, what the anti-chase rules forbid) and stores whatever it needs per
//! ply in the frame's extra data `F`; [`History`] only keeps the stack in
//! step with the record, so that undo is O(1) and passes never reach the
//! record.

use std::fmt;

use crate::outcome::{ExternalResult, Outcome};
use crate::position::Position;

/// Frames reserved up front: deeper than any search line from a game of
/// ordinary length, so the stack does not reallocate inside the search.
const RESERVED_FRAMES: usize = 256;

/// One entry of a [`History`]: a position, its Zobrist key, the game's own
/// data for that ply, and whether a pass (rather than a move) led to it.
///
/// ```
/// use qi_games::base::History;
/// use qi_games::prelude::*;
///
/// let mut history = History::new(Jungle::default(), ());
/// history.play_unchecked("a3a4".parse()?, ());
/// let frame = history.top();
/// assert_eq!(frame.position(), history.position());
/// assert_eq!(frame.key(), frame.position().zobrist());
/// assert!(!frame.is_pass());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame<P, F> {
    position: P,
    key: u64,
    extra: F,
    pass: bool,
    /// The oldest frame a repetition scan from here may visit: the last
    /// frame reached by a pass, or the start. Kept per frame so that
    /// [`History::earlier`] checks no pass flags on its way back (32 bits
    /// keep a frame of a 48-byte position within a cache line).
    horizon: u32,
}

impl<P, F> Frame<P, F> {
    /// The position.
    #[inline(always)]
    pub fn position(&self) -> &P {
        &self.position
    }

    /// The position's Zobrist key, taken when the frame was pushed.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The game's data for this ply.
    #[inline(always)]
    pub fn extra(&self) -> &F {
        &self.extra
    }

    /// Whether a pass led to this position.
    #[inline(always)]
    pub fn is_pass(&self) -> bool {
        self.pass
    }
}

/// A game's history: the positions from the start to now (each with the
/// game's per-ply data `F`), the moves that led from one to the next, and a
/// result recorded from outside the rules.
///
/// The stack is never empty: it always holds the start position. A pass
/// (a null move of the search) pushes a frame without a move, so
/// [`moves`](History::moves) stays the record of the game.
///
/// A game layer with a rule of its own keeps its per-ply data in the
/// frames: here, whether the move captured, for a draw after two quiet
/// plies.
///
/// ```
/// use qi_games::base::History;
/// use qi_games::prelude::*;
///
/// let mut history: History<Jungle, bool> = History::new(Jungle::default(), false);
/// for mv in ["a3a4", "g7g6"] {
///     let mv = mv.parse()?;
///     let captured = history.position().is_capture(mv);
///     history.play_unchecked(mv, captured);
/// }
/// assert_eq!(history.ply(), 2);
/// let quiet = history.frames().iter().rev().take_while(|f| !f.extra()).count();
/// assert_eq!(quiet, 3); // the start and two quiet moves
/// assert_eq!(history.moves().len(), 2);
/// assert_eq!(history.moves()[1].to_string(), "g7g6");
/// assert_eq!(history.pop(), Some("g7g6".parse()?));
/// assert_eq!(history.positions().count(), 2);
/// // A result from outside the rules, cleared by the next pop.
/// history.record(ExternalResult::Resignation(Side::Second));
/// assert_eq!(history.external_outcome().and_then(Outcome::winner), Some(Side::First));
/// history.pop();
/// assert_eq!((history.ply(), history.external_result()), (0, None));
/// # use qi_games::base::ExternalResult;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History<P: Position, F = ()> {
    frames: Vec<Frame<P, F>>,
    moves: Vec<P::Move>,
    external: Option<ExternalResult>,
}

impl<P: Position, F> History<P, F> {
    /// A history starting at `start`, with `extra` as the start's data.
    pub fn new(start: P, extra: F) -> History<P, F> {
        let mut frames = Vec::with_capacity(RESERVED_FRAMES);
        frames.push(Frame {
            key: start.zobrist(),
            position: start,
            extra,
            pass: false,
            horizon: 0,
        });
        History {
            frames,
            moves: Vec::with_capacity(RESERVED_FRAMES),
            external: None,
        }
    }

    /// The current frame.
    #[inline(always)]
    pub fn top(&self) -> &Frame<P, F> {
        // Never empty: the start frame is never popped.
        &self.frames[self.frames.len() - 1]
    }

    /// The current position.
    #[inline(always)]
    pub fn position(&self) -> &P {
        &self.top().position
    }

    /// The current frame's data.
    #[inline(always)]
    pub fn extra(&self) -> &F {
        &self.top().extra
    }

    /// The current frame's data, to fill in once the frame is on the stack
    /// (e.g. a repetition count that [`earlier`](History::earlier) finds).
    #[inline(always)]
    pub fn extra_mut(&mut self) -> &mut F {
        let top = self.frames.len() - 1;
        &mut self.frames[top].extra
    }

    /// The position the game started from.
    pub fn start(&self) -> &P {
        &self.frames[0].position
    }

    /// The moves played, in order (the record; passes are not in it).
    #[inline(always)]
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// The number of moves played (passes not counted).
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Every frame, the start first and the current one last.
    #[inline(always)]
    pub fn frames(&self) -> &[Frame<P, F>] {
        &self.frames
    }

    /// The positions of the game, the start first and the current last.
    pub fn positions(&self) -> impl DoubleEndedIterator<Item = &P> + ExactSizeIterator + '_ {
        self.frames.iter().map(Frame::position)
    }

    /// The game as its record, for a game layer's `Debug`: `name`, the
    /// start, the moves and a recorded result, e.g.
    /// `Game { start: Jungle(…), moves: [Move(a3a4)] }` (every game layer
    /// of the library reads so).
    ///
    /// ```
    /// use qi_games::base::History;
    /// use qi_games::prelude::*;
    ///
    /// let mut history = History::new(FiveTigers::default(), ());
    /// history.play_unchecked("c3".parse()?, ());
    /// assert_eq!(
    ///     format!("{:?}", history.debug_record("Game")),
    ///     "Game { start: FiveTigers(5/5/5/5/5 x place X:13,O:13 - x -,- 0), moves: [Move(c3)] }"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn debug_record<'a>(&'a self, name: &'a str) -> impl fmt::Debug + 'a {
        Record {
            history: self,
            name,
        }
    }

    /// Whether a pass led to the current position.
    #[inline(always)]
    pub fn is_pass(&self) -> bool {
        self.top().pass
    }

    /// The result recorded from outside the rules, if any.
    #[inline(always)]
    pub fn external_result(&self) -> Option<ExternalResult> {
        self.external
    }

    /// The outcome the recorded external result gives, if any: every game
    /// puts it before the rules.
    #[inline(always)]
    pub fn external_outcome(&self) -> Option<Outcome> {
        self.external.map(ExternalResult::outcome)
    }

    /// Records a result decided outside the rules; [`pop`](History::pop)
    /// clears it.
    pub fn record(&mut self, result: ExternalResult) {
        self.external = Some(result);
    }

    /// Pushes `position`, reached by `mv`, with its data `extra`.
    #[inline]
    pub fn push(&mut self, mv: P::Move, position: P, extra: F) {
        let horizon = self.top().horizon;
        self.frames.push(Frame {
            key: position.zobrist(),
            position,
            extra,
            pass: false,
            horizon,
        });
        self.moves.push(mv);
    }

    /// Plays `mv` (known to be legal) on a copy of the current position
    /// and pushes the result with `extra`.
    #[inline]
    pub fn play_unchecked(&mut self, mv: P::Move, extra: F) {
        let mut next = self.position().clone();
        next.play_unchecked(mv);
        self.push(mv, next, extra);
    }

    /// Pushes `position`, reached by a pass: the record is left alone.
    #[inline]
    pub fn push_pass(&mut self, position: P, extra: F) {
        let horizon = self.frames.len() as u32;
        self.frames.push(Frame {
            key: position.zobrist(),
            position,
            extra,
            pass: true,
            horizon,
        });
    }

    /// Takes back the current frame and clears a recorded result. Returns
    /// the move that led to the frame: `None` for a pass, and at the start
    /// (which is never taken back).
    #[inline]
    pub fn pop(&mut self) -> Option<P::Move> {
        self.external = None;
        let len = self.frames.len();
        if len == 1 {
            return None;
        }
        let pass = self.frames[len - 1].pass;
        self.frames.truncate(len - 1);
        if pass {
            None
        } else {
            self.moves.pop()
        }
    }

    /// Takes back the current frame if a pass led to it; whether it did.
    #[inline]
    pub fn pop_pass(&mut self) -> bool {
        let pass = self.frames.len() > 1 && self.is_pass();
        if pass {
            self.frames.pop();
        }
        pass
    }

    /// The earlier frames where the current position may have occurred
    /// before, newest first: every second frame back (the same side to move
    /// when sides alternate), at most `window` plies back (the plies since
    /// the last irreversible move, say), with the current Zobrist key.
    ///
    /// A pass cuts the history: a frame reached by a pass is the oldest one
    /// visited, and nothing is visited when the current frame is one.
    /// Whether a frame's position really equals the current one is for the
    /// caller to decide, as its rules compare positions.
    #[inline]
    pub fn earlier(&self, window: usize) -> impl Iterator<Item = &Frame<P, F>> + '_ {
        let at = self.frames.len() - 1;
        let top = &self.frames[at];
        Earlier {
            frames: &self.frames,
            key: top.key,
            at,
            oldest: at.saturating_sub(window).max(top.horizon as usize),
        }
    }

    /// How many times the current position has occurred, now included:
    /// one more than the frames of [`earlier`](History::earlier)`(window)`
    /// whose position `same` finds equal to the current one.
    #[inline]
    pub fn occurrences(&self, window: usize, mut same: impl FnMut(&P, &P) -> bool) -> usize {
        // The walk of `earlier`, written out: games count on every push.
        let at = self.frames.len() - 1;
        let now = &self.frames[at];
        let oldest = at.saturating_sub(window).max(now.horizon as usize);
        let mut count = 1;
        let mut i = at;
        while i >= oldest + 2 {
            i -= 2;
            let frame = &self.frames[i];
            if frame.key == now.key && same(&frame.position, &now.position) {
                count += 1;
            }
        }
        count
    }
}

/// What [`History::debug_record`] writes.
struct Record<'a, P: Position, F> {
    history: &'a History<P, F>,
    name: &'a str,
}

impl<P: Position, F> fmt::Debug for Record<'_, P, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct(self.name);
        out.field("start", self.history.start())
            .field("moves", &self.history.moves());
        if let Some(result) = self.history.external_result() {
            out.field("result", &result);
        }
        out.finish()
    }
}

/// The walk of [`History::earlier`].
struct Earlier<'a, P, F> {
    frames: &'a [Frame<P, F>],
    key: u64,
    /// The frame visited last (the current one at first).
    at: usize,
    /// The oldest frame the window reaches (and no pass lies after).
    oldest: usize,
}

impl<'a, P, F> Iterator for Earlier<'a, P, F> {
    type Item = &'a Frame<P, F>;

    fn next(&mut self) -> Option<&'a Frame<P, F>> {
        while self.at >= self.oldest + 2 {
            self.at -= 2;
            let frame = &self.frames[self.at];
            if frame.key == self.key {
                return Some(frame);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use super::*;
    use crate::outcome::{DrawReason, WinReason};
    use crate::position::MoveList;
    use crate::side::Side;
    use crate::IllegalMove;

    /// A counter that moves by -1, 0 or +1 (the move is the step); the side
    /// to move alternates, and the key is the value with the side.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Walk {
        value: i32,
        stm: Side,
    }

    impl fmt::Display for Walk {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{} {}", self.value, self.stm)
        }
    }

    impl Position for Walk {
        type Rules = ();
        type Move = i8;
        type ParseError = IllegalMove;
        const MOVE_INDEX_COUNT: usize = 3;

        fn new((): ()) -> Walk {
            Walk {
                value: 0,
                stm: Side::First,
            }
        }

        fn from_text(text: &str, (): ()) -> Result<Walk, IllegalMove> {
            Err(IllegalMove::new(text, crate::Refusal::NotLegal))
        }

        fn rules(&self) -> &() {
            &()
        }

        fn move_index(mv: i8) -> usize {
            (mv + 1) as usize
        }

        fn no_capture_plies(&self) -> u32 {
            0
        }

        fn side_to_move(&self) -> Side {
            self.stm
        }

        fn generate_moves(&self, moves: &mut MoveList<i8>) {
            moves.extend([-1, 0, 1]);
        }

        fn play_unchecked(&mut self, mv: i8) {
            self.value += i32::from(mv);
            self.stm = self.stm.opponent();
        }

        fn outcome(&self) -> Option<crate::Outcome> {
            None
        }

        fn is_capture(&self, _: i8) -> bool {
            false
        }

        fn zobrist(&self) -> u64 {
            self.zobrist_from_scratch()
        }

        fn zobrist_from_scratch(&self) -> u64 {
            (self.value as u64) << 1 | self.stm.index() as u64
        }
    }

    fn walk(moves: &[i8]) -> History<Walk> {
        let mut history = History::new(Walk::new(()), ());
        for &mv in moves {
            history.play_unchecked(mv, ());
        }
        history
    }

    fn same(a: &Walk, b: &Walk) -> bool {
        a == b
    }

    #[test]
    fn push_and_pop_keep_the_stack_and_the_record_in_step() {
        let mut h = walk(&[1, 1, -1]);
        assert_eq!(h.moves(), &[1, 1, -1]);
        assert_eq!(h.ply(), 3);
        assert_eq!(h.position().value, 1);
        assert_eq!(h.start().value, 0);
        assert_eq!(h.frames().len(), 4);
        assert_eq!(
            h.positions().map(|p| p.value).collect::<Vec<_>>(),
            [0, 1, 2, 1]
        );
        assert_eq!(h.pop(), Some(-1));
        assert_eq!(h.pop(), Some(1));
        assert_eq!(h.pop(), Some(1));
        assert_eq!(h.pop(), None);
        assert_eq!(h.frames().len(), 1);
        assert_eq!(*h.position(), Walk::new(()));
    }

    #[test]
    fn passes_stay_out_of_the_record() {
        let mut h = walk(&[1]);
        pass(&mut h);
        let passed = *h.position();
        assert!(h.is_pass());
        assert_eq!(h.ply(), 1);
        assert_eq!(h.position().stm, Side::First);
        h.play_unchecked(1, ());
        assert!(!h.pop_pass(), "a move is on top");
        assert_eq!(h.pop(), Some(1));
        assert!(h.pop_pass());
        assert!(!h.is_pass());
        assert_eq!(h.moves(), &[1]);
        // pop takes a pass back too, with no move to return.
        h.push_pass(passed, ());
        assert_eq!(h.pop(), None);
        assert_eq!(h.ply(), 1);
        assert_eq!(h.frames().len(), 2);
    }

    #[test]
    fn a_recorded_result_comes_first_and_pop_clears_it() {
        let mut h = walk(&[1]);
        assert_eq!(h.external_outcome(), None);
        h.record(ExternalResult::AgreedDraw);
        assert_eq!(h.external_result(), Some(ExternalResult::AgreedDraw));
        assert_eq!(
            h.external_outcome(),
            Some(crate::Outcome::Draw(DrawReason::Agreed))
        );
        h.pop();
        assert_eq!(h.external_result(), None);
        // At the start too.
        h.record(ExternalResult::Resignation(Side::First));
        assert_eq!(
            h.external_outcome().unwrap(),
            crate::Outcome::win(Side::Second, WinReason::Resignation)
        );
        assert_eq!(h.pop(), None);
        assert_eq!(h.external_result(), None);
    }

    #[test]
    fn occurrences_count_every_second_frame_within_the_window() {
        // 0 1 0 1 0: the start position again at plies 2 and 4.
        let h = walk(&[1, -1, 1, -1]);
        assert_eq!(h.occurrences(usize::MAX, same), 3);
        assert_eq!(h.occurrences(4, same), 3);
        assert_eq!(h.occurrences(3, same), 2);
        assert_eq!(h.occurrences(1, same), 1);
        assert_eq!(h.occurrences(0, same), 1);
        let plies: Vec<usize> = h
            .earlier(usize::MAX)
            .map(|f| h.frames().iter().position(|g| std::ptr::eq(f, g)).unwrap())
            .collect();
        assert_eq!(plies, [2, 0], "newest first");
        // The equality is the caller's: here nothing is ever equal.
        assert_eq!(h.occurrences(usize::MAX, |_, _| false), 1);
        // Odd distances are never compared: 0 0 0 0, the side alternating.
        let h = walk(&[0, 0, 0]);
        assert_eq!(h.occurrences(usize::MAX, |a, b| a.value == b.value), 2);
    }

    fn pass(h: &mut History<Walk>) {
        let mut passed = *h.position();
        passed.stm = passed.stm.opponent();
        h.push_pass(passed, ());
    }

    #[test]
    fn a_pass_cuts_the_history() {
        // 0 1 0 (First to move at 0), then two passes.
        let mut h = walk(&[1, -1]);
        assert_eq!(h.occurrences(usize::MAX, same), 2);
        for _ in 0..2 {
            pass(&mut h);
            assert_eq!(h.occurrences(usize::MAX, same), 1, "a pass on top");
        }
        // Back at 0 with First to move: the frame reached by the second
        // pass is visited, the two equal frames before it are not.
        h.play_unchecked(1, ());
        h.play_unchecked(-1, ());
        assert_eq!(h.occurrences(usize::MAX, same), 2);
        // A pass at an odd distance cuts too: a pass, then a move that only
        // hands the turn back.
        let mut h = walk(&[]);
        pass(&mut h);
        h.play_unchecked(0, ());
        assert_eq!(h.position(), h.start());
        assert_eq!(h.occurrences(usize::MAX, same), 1);
        assert_eq!(walk(&[0, 0]).occurrences(usize::MAX, same), 2);
    }

    /// The rule of [`History::earlier`] spelled out: frame `i` is compared
    /// when it lies an even number of plies back, within the window, and
    /// no frame after it is reached by a pass.
    fn naive_occurrences(h: &History<Walk>, window: usize) -> usize {
        let frames = h.frames();
        let at = frames.len() - 1;
        let now = frames[at].position();
        (0..at)
            .filter(|&i| (at - i) & 1 == 0 && at - i <= window)
            .filter(|&i| frames[i + 1..].iter().all(|f| !f.is_pass()))
            .filter(|&i| frames[i].position() == now)
            .count()
            + 1
    }

    #[test]
    fn earlier_agrees_with_its_rule_on_random_histories() {
        // SplitMix64: enough randomness without the testkit feature.
        let mut seed = 7u64;
        let mut below = |n: u64| {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) % n
        };
        for _ in 0..200 {
            let mut h = walk(&[]);
            for _ in 0..60 {
                match below(6) {
                    0 => pass(&mut h),
                    1 => {
                        h.pop();
                    }
                    n => h.play_unchecked(n as i8 % 3 - 1, ()),
                }
                for window in [0, 1, 2, 3, 6, 11, usize::MAX] {
                    assert_eq!(
                        h.occurrences(window, same),
                        naive_occurrences(&h, window),
                        "window {window}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_stack_is_reserved_up_front() {
        let mut h = walk(&[]);
        let frames = h.frames.as_ptr();
        for _ in 0..RESERVED_FRAMES - 1 {
            h.play_unchecked(1, ());
        }
        assert_eq!(h.frames.as_ptr(), frames);
    }
}
