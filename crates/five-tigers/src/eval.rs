//! A simple static evaluation for search.

use qi_core::{Evaluator, Position, Side};

use crate::position::FiveTigers;

/// Material first: 100 per piece (on the board or in hand), 90 per removal
/// still owed to a side, and 4 per piece standing in a formation its side
/// holds (such pieces cannot be taken while loose ones remain). From the
/// point of view of the side to move; always far below 20 000 in magnitude.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MaterialEvaluator;

impl Evaluator<FiveTigers> for MaterialEvaluator {
    fn evaluate(&self, pos: &FiveTigers) -> i32 {
        let mut score = 0i32;
        for side in Side::BOTH {
            let sign = side.sign();
            score += sign * 100 * pos.material(side) as i32;
            score += sign * 4 * pos.held(side).count() as i32;
        }
        for (side, n) in pos.owed().iter() {
            score += side.sign() * 90 * n.min(26) as i32;
        }
        score * pos.side_to_move().sign()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Move, Rules};

    #[test]
    fn material_and_owed_removals_count() {
        let start = FiveTigers::new(Rules::shandong());
        assert_eq!(MaterialEvaluator.evaluate(&start), 0);
        let pos: FiveTigers = "O4/5/5/4X/XXXX1 x move X:0,O:0 - x -,a4-a5 1"
            .parse()
            .unwrap();
        // X: 5 pieces, O: 1 piece, X to move.
        assert_eq!(MaterialEvaluator.evaluate(&pos), 400);
        let mut after = pos;
        after.play("e2-e1".parse::<Move>().unwrap()).unwrap();
        // X is owed 4 removals and holds rank 1 (5 pieces).
        assert_eq!(MaterialEvaluator.evaluate(&after), 400 + 90 * 4 + 20);
    }
}
