//! A Jungle rule set built option by option, compared with the presets.
//!
//! ```sh
//! cargo run --release --example custom_rules
//! ```

use qi_games::base::Position;
use qi_games::jungle::{JumpBlock, Jumps, Jungle, RankOrder, Repetition, Rules};
use qi_games::search::perft;

fn main() {
    // Start from the standard rules and change one option at a time.
    let mut rules = Rules::standard();
    rules.rank_order = RankOrder::DogOverWolf;
    rules.tiger_jumps = Jumps::HorizontalOnly;
    rules.jump_block = JumpBlock::EnemyRat;
    rules.rat_bank_capture = true;
    rules.repetition = Repetition::InitiatorLoses;
    rules.anti_chase = true;
    rules.no_capture_draw = 100;
    println!("custom rules: {rules}");

    // The move tree depends on the rules: compare perft with the presets.
    let custom = Jungle::new(rules);
    for depth in 1..=4 {
        println!("perft {depth}: custom {}", perft(&custom, depth));
    }
    for name in Rules::PRESETS {
        let preset = Rules::preset(name).expect("a known preset");
        println!("perft 4: {name:<12} {}", perft(&Jungle::new(preset), 4));
    }

    // Positions keep their rules: moves are generated under them.
    let mut pos = custom;
    for text in ["a3a4", "g7g6", "a4a5"] {
        let mv = text.parse().expect("well-formed move text");
        pos.play(mv).expect("legal in this line");
    }
    println!("after a3a4 g7g6 a4a5: {pos}");
    println!("legal moves: {}", pos.legal_moves().len());
}
