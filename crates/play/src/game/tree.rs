//! The moves of a game as a tree: the main line and the variations tried
//! from any of its positions, as an analysis board keeps them. Each node
//! is a position reached by one move from its parent; a node's first child
//! continues its line, the others are variations.

/// The tree's root: the game's first position (no move leads to it).
pub(super) const ROOT: usize = 0;

/// How deep variations may nest: as deep as a record may hold them, so
/// that every tree is written as a record that reads back.
pub(super) const MAX_NESTING: usize = qi_engine::record::MAX_VARIATION_DEPTH;

#[derive(Clone, Debug)]
struct Node<M> {
    /// The move from the parent (none at the root).
    mv: Option<M>,
    parent: usize,
    /// The main continuation first, then the variations in the order
    /// played.
    children: Vec<usize>,
}

/// A tree of moves of type `M`. Nodes are indices; a removed subtree's
/// nodes stay allocated but unreachable (their indices are never given
/// out again).
#[derive(Clone, Debug)]
pub(super) struct MoveTree<M> {
    nodes: Vec<Node<M>>,
}

impl<M: Copy + PartialEq> MoveTree<M> {
    /// The tree of one line of moves.
    pub(super) fn of_line(moves: &[M]) -> MoveTree<M> {
        let mut tree = MoveTree {
            nodes: vec![Node {
                mv: None,
                parent: ROOT,
                children: Vec::new(),
            }],
        };
        let mut node = ROOT;
        for mv in moves {
            node = tree.add(node, *mv);
        }
        tree
    }

    /// The node reached by `mv` from `node`: the child that has it, or a
    /// new last child (the main continuation if `node` had none, else a
    /// variation).
    pub(super) fn add(&mut self, node: usize, mv: M) -> usize {
        if let Some(child) = self.child(node, mv) {
            return child;
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            mv: Some(mv),
            parent: node,
            children: Vec::new(),
        });
        self.nodes[node].children.push(id);
        id
    }

    /// The child of `node` reached by `mv`.
    pub(super) fn child(&self, node: usize, mv: M) -> Option<usize> {
        self.nodes[node]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].mv == Some(mv))
    }

    /// The children of `node`, the main continuation first.
    pub(super) fn children(&self, node: usize) -> &[usize] {
        &self.nodes[node].children
    }

    /// The move that leads to `node` (none at the root).
    pub(super) fn mv(&self, node: usize) -> Option<M> {
        self.nodes[node].mv
    }

    /// The parent of `node` (none at the root).
    pub(super) fn parent(&self, node: usize) -> Option<usize> {
        (node != ROOT).then(|| self.nodes[node].parent)
    }

    /// The moves from the root to `node`.
    pub(super) fn path(&self, node: usize) -> Vec<M> {
        let mut moves = Vec::new();
        let mut at = node;
        while let (Some(mv), Some(parent)) = (self.mv(at), self.parent(at)) {
            moves.push(mv);
            at = parent;
        }
        moves.reverse();
        moves
    }

    /// The line through `node`: the moves to it, then its main
    /// continuation (each node's first child) to the line's end.
    pub(super) fn line(&self, node: usize) -> Vec<M> {
        let mut moves = self.path(node);
        let mut at = node;
        while let Some(&next) = self.nodes[at].children.first() {
            moves.extend(self.mv(next));
            at = next;
        }
        moves
    }

    /// The node after `ply` moves of the line through `node`, if the line
    /// is that long.
    pub(super) fn on_line(&self, node: usize, ply: usize) -> Option<usize> {
        let mut at = node;
        let mut depth = self.path(node).len();
        while depth > ply {
            at = self.nodes[at].parent;
            depth -= 1;
        }
        while depth < ply {
            at = *self.nodes[at].children.first()?;
            depth += 1;
        }
        Some(at)
    }

    /// The end of the main line.
    pub(super) fn main_end(&self) -> usize {
        let mut at = ROOT;
        while let Some(&next) = self.nodes[at].children.first() {
            at = next;
        }
        at
    }

    /// How many variations the path to `node` enters (0 on the main line).
    pub(super) fn nesting(&self, node: usize) -> usize {
        let mut count = 0;
        let mut at = node;
        while let Some(parent) = self.parent(at) {
            if self.nodes[parent].children.first() != Some(&at) {
                count += 1;
            }
            at = parent;
        }
        count
    }

    /// Whether `node` is in the tree (not taken out with a subtree).
    pub(super) fn contains(&self, node: usize) -> bool {
        let mut at = node;
        while let Some(parent) = self.parent(at) {
            if !self.nodes[parent].children.contains(&at) {
                return false;
            }
            at = parent;
        }
        at == ROOT && node < self.nodes.len()
    }

    /// Takes `node` and everything after it out of the tree (not the
    /// root).
    pub(super) fn remove(&mut self, node: usize) {
        if let Some(parent) = self.parent(node) {
            self.nodes[parent].children.retain(|&c| c != node);
        }
    }

    /// Makes the line to `node` the main line: each node on its path
    /// becomes its parent's first child (the others keep their order).
    pub(super) fn promote(&mut self, node: usize) {
        let mut at = node;
        while let Some(parent) = self.parent(at) {
            let children = &mut self.nodes[parent].children;
            if let Some(i) = children.iter().position(|&c| c == at) {
                children[..=i].rotate_right(1);
            }
            at = parent;
        }
    }

    /// Every node but the root, each before its children and the children
    /// in order (main continuation first): how a move list is read.
    pub(super) fn preorder(&self) -> Vec<usize> {
        let mut order = Vec::new();
        let mut stack: Vec<usize> = self.nodes[ROOT].children.iter().rev().copied().collect();
        while let Some(node) = stack.pop() {
            order.push(node);
            stack.extend(self.nodes[node].children.iter().rev());
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl<M: Copy + PartialEq> MoveTree<M> {
        /// The node reached by `moves` from the root, if the tree has them.
        fn follow(&self, moves: &[M]) -> Option<usize> {
            moves
                .iter()
                .try_fold(ROOT, |node, &mv| self.child(node, mv))
        }
    }

    #[test]
    fn a_move_from_an_earlier_position_makes_a_variation() {
        let mut tree = MoveTree::of_line(&[1, 2, 3]);
        let one = tree.follow(&[1]).unwrap();
        // The move already played is followed, not added again.
        assert_eq!(tree.add(one, 2), tree.follow(&[1, 2]).unwrap());
        let five = tree.add(one, 5);
        assert_eq!(tree.line(five), [1, 5]);
        assert_eq!(tree.line(one), [1, 2, 3]);
        assert_eq!(tree.nesting(five), 1);
        assert_eq!(tree.main_end(), tree.follow(&[1, 2, 3]).unwrap());
        assert_eq!(tree.on_line(five, 0), Some(ROOT));
        assert_eq!(tree.on_line(five, 3), None);
        tree.promote(five);
        assert_eq!(tree.line(ROOT), [1, 5]);
        assert_eq!(tree.nesting(tree.follow(&[1, 2, 3]).unwrap()), 1);
        let order: Vec<Option<i32>> = tree.preorder().iter().map(|&n| tree.mv(n)).collect();
        assert_eq!(order, [Some(1), Some(5), Some(2), Some(3)]);
        let two = tree.follow(&[1, 2, 3]).unwrap();
        assert!(tree.contains(two));
        tree.remove(tree.follow(&[1, 2]).unwrap());
        assert_eq!(tree.follow(&[1, 2]), None);
        assert!(!tree.contains(two));
        assert_eq!(tree.preorder().len(), 2);
    }
}
