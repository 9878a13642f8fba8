//! Perft: the number of leaf nodes of the legal move tree to a fixed depth,
//! the standard cross-check of a move generator.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;

use qi_core::{MoveList, Position};

/// Counts the leaves `depth` plies below `pos`, counting the last ply in
/// bulk with [`Position::count_moves`] (no list is built there).
///
/// ```
/// use qi_five_tigers::FiveTigers;
/// use qi_jungle::Jungle;
/// use qi_search::perft;
///
/// assert_eq!(perft(&Jungle::default(), 1), 24);
/// assert_eq!(perft(&Jungle::default(), 3), 12_240);
/// assert_eq!(perft(&FiveTigers::default(), 3), 13_800);
/// ```
pub fn perft<P: Position>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        2 => perft2(pos),
        _ => {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            let mut nodes = 0;
            for &mv in &moves {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}

/// The deepest perft the engines accept: far beyond what finishes in a
/// lifetime, and shallow enough that the recursion fits any thread's stack.
pub const MAX_PERFT_DEPTH: u32 = 128;

/// [`perft`] that gives up when `stop` is raised, returning the leaves
/// counted so far (the flag is read once per subtree two plies above the
/// leaves, so a stop is seen within a few milliseconds).
///
/// ```
/// use std::sync::atomic::AtomicBool;
///
/// use qi_jungle::Jungle;
/// use qi_search::{perft, perft_with_stop};
///
/// let pos = Jungle::default();
/// assert_eq!(perft_with_stop(&pos, 3, &AtomicBool::new(false)), perft(&pos, 3));
/// // Raised before the start: nothing is counted.
/// assert_eq!(perft_with_stop(&pos, 4, &AtomicBool::new(true)), 0);
/// ```
pub fn perft_with_stop<P: Position>(pos: &P, depth: u32, stop: &AtomicBool) -> u64 {
    if depth <= 2 {
        return perft(pos, depth);
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut nodes = 0;
    for &mv in &moves {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let mut child = pos.clone();
        child.play_unchecked(mv);
        nodes += perft_with_stop(&child, depth - 1, stop);
    }
    nodes
}

/// Perft 2: the move counts of the children summed (the hot loop of every
/// deeper perft, kept free of the recursion's depth dispatch).
#[inline]
fn perft2<P: Position>(pos: &P) -> u64 {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut nodes = 0;
    for &mv in &moves {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        nodes += child.count_moves() as u64;
    }
    nodes
}

/// Perft by plain recursion down to depth 0 through the checked `play`, with
/// no bulk counting: slow, and independent of `count_moves`, so tests can
/// compare it with [`perft`].
///
/// ```
/// use qi_jungle::Jungle;
/// use qi_search::{perft, perft_plain};
///
/// let pos = Jungle::default();
/// assert_eq!(perft_plain(&pos, 2), 576);
/// assert_eq!(perft_plain(&pos, 3), perft(&pos, 3));
/// ```
pub fn perft_plain<P: Position>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv).expect("generated move must be legal");
            perft_plain(&child, depth - 1)
        })
        .sum()
}

/// The perft count below each legal root move, in generation order
/// (`depth` ≥ 1; each count is for `depth - 1` plies after the move).
///
/// ```
/// use qi_jungle::{Jungle, Move};
/// use qi_search::{divide, perft};
///
/// let pos = Jungle::default();
/// let counts = divide(&pos, 2);
/// assert_eq!(counts.len(), 24);
/// assert!(counts.contains(&("a3a4".parse::<Move>().unwrap(), 24)));
/// assert_eq!(counts.iter().map(|&(_, n)| n).sum::<u64>(), perft(&pos, 2));
/// ```
pub fn divide<P: Position>(pos: &P, depth: u32) -> Vec<(P::Move, u64)> {
    let depth = depth.max(1);
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, depth - 1))
        })
        .collect()
}

/// [`divide`] with the work shared among `threads` threads. Returns the
/// same counts, in the same order, as [`divide`].
///
/// The tree is split two plies down: each work item is one (root move,
/// reply) pair, and each thread takes the next unclaimed item. With a few
/// hundred items of a few dozen sizes the threads finish within a small
/// fraction of one item of each other, where splitting at the root (24
/// moves in Jungle, subtrees of very different sizes) could leave one
/// thread working alone on the last big subtree.
///
/// ```
/// use qi_jungle::Jungle;
/// use qi_search::{divide, divide_parallel};
///
/// let pos = Jungle::default();
/// assert_eq!(divide_parallel(&pos, 3, 2), divide(&pos, 3));
/// ```
pub fn divide_parallel<P>(pos: &P, depth: u32, threads: usize) -> Vec<(P::Move, u64)>
where
    P: Position + Send + Sync,
    P::Move: Send + Sync,
{
    let depth = depth.max(1);
    let threads = threads.max(1);
    let moves = pos.legal_moves();
    if threads == 1 || moves.len() < 2 || depth < 3 {
        return divide(pos, depth);
    }
    // The positions after each root move, and every (root index, reply).
    let children: Vec<P> = moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            child
        })
        .collect();
    let items: Vec<(usize, P::Move)> = children
        .iter()
        .enumerate()
        .flat_map(|(i, child)| child.legal_moves().into_iter().map(move |r| (i, r)))
        .collect();
    let next = AtomicUsize::new(0);
    let mut counts = vec![0u64; moves.len()];
    thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(items.len().max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = vec![0u64; children.len()];
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(i, reply)) = items.get(k) else {
                            break;
                        };
                        let mut grandchild = children[i].clone();
                        grandchild.play_unchecked(reply);
                        done[i] += perft(&grandchild, depth - 2);
                    }
                    done
                })
            })
            .collect();
        for worker in workers {
            let done = worker.join().expect("perft worker panicked");
            for (total, n) in counts.iter_mut().zip(done) {
                *total += n;
            }
        }
    });
    moves.into_iter().zip(counts).collect()
}

/// [`perft`] on `threads` threads, splitting the root moves among them.
///
/// ```
/// use qi_five_tigers::FiveTigers;
/// use qi_search::{perft, perft_parallel};
///
/// let pos = FiveTigers::default();
/// assert_eq!(perft_parallel(&pos, 4, 2), 303_600);
/// assert_eq!(perft_parallel(&pos, 4, 2), perft(&pos, 4));
/// ```
pub fn perft_parallel<P>(pos: &P, depth: u32, threads: usize) -> u64
where
    P: Position + Send + Sync,
    P::Move: Send + Sync,
{
    if depth <= 1 {
        return perft(pos, depth);
    }
    divide_parallel(pos, depth, threads)
        .into_iter()
        .map(|(_, n)| n)
        .sum()
}
