//! Root probing of Jungle endgame tablebases for `go`
//! (`setoption name TablebasePath value DIR` or `qi engine --tablebase
//! DIR`, docs/protocol.md); the engine's search probes the same directory
//! in the tree (`qi_engine::DynEngine::set_tablebase`).
//!
//! The tables of a position's material and of the materials its captures
//! lead to are read from the directory when first needed and kept. Among
//! the moves the game allows (its history rules applied), the best by the
//! tables is played: the fastest win, else a drawing move, else the
//! longest loss. A decisive value is trusted only when it ends the game
//! before the no-capture draw (docs/tablebases.md); otherwise, or when a
//! table is missing, the engine searches as before.

use std::path::{Path, PathBuf};

use qi_core::Position;
use qi_engine::{GameKit, JungleKit};
use qi_jungle::{Jungle, Move};
use qi_tablebase::{closure, load_table, same_board_rules, Material, Tablebase, Wdl};

/// The tables of one directory, loaded per material as positions need them.
pub struct RootTables {
    dir: PathBuf,
    loaded: Option<Tablebase>,
}

/// The move the tables choose and its value for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableMove {
    /// The move, as the protocol writes it.
    pub mv: String,
    /// The value for the side to move.
    pub wdl: Wdl,
    /// Plies to the end of the game (0 for a draw).
    pub distance: u32,
}

impl TableMove {
    /// The `info` line: `score mate N` (moves, negative when lost) or
    /// `score cp 0` for a draw.
    pub fn info(&self) -> String {
        let score = match self.wdl {
            Wdl::Win => format!("mate {}", self.distance.div_ceil(2)),
            Wdl::Loss => format!("mate -{}", self.distance / 2),
            Wdl::Draw => "cp 0".to_string(),
        };
        format!(
            "info depth {d} seldepth {d} score {score} nodes 0 nps 0 time 0 pv {mv}\n\
             info string tablebase {wdl} in {d} plies",
            d = self.distance,
            mv = self.mv,
            wdl = self.wdl
        )
    }
}

impl RootTables {
    /// The tables of `dir`, if it is a directory that can be read.
    pub fn open(dir: &Path) -> Result<RootTables, String> {
        let path = dir.to_path_buf();
        std::fs::read_dir(&path)
            .map_err(|e| format!("TablebasePath: cannot read '{}': {e}", path.display()))?;
        Ok(RootTables {
            dir: path,
            loaded: None,
        })
    }

    /// The best move by the tables in the position `text` of the game
    /// `spec`, among `moves` (the game's legal moves); `None` when the
    /// game is not Jungle, a table is missing, or the value is not sure
    /// under the no-capture draw: the engine then searches.
    pub fn best_move(&mut self, spec: &str, text: &str, moves: &[String]) -> Option<TableMove> {
        if spec.split([':', ',']).next() != Some(JungleKit::NAME) {
            return None;
        }
        let rules = JungleKit::parse_rules(spec).ok()?;
        let pos = Jungle::from_text(text, &rules).ok()?;
        let material = Material::of(&pos)?;
        let tb = match &mut self.loaded {
            Some(tb) if same_board_rules(tb.rules(), &rules) => tb,
            slot => slot.insert(Tablebase::new(&rules)),
        };
        for m in closure(&[material]) {
            if tb.table(m).is_none() {
                let path = Tablebase::file_path(&self.dir, m);
                // A missing or bad file: no answer from the tables.
                let table = load_table(&path, &rules).ok()?;
                tb.insert(table).ok()?;
            }
        }
        let mut best: Option<TableMove> = None;
        for text in moves {
            let mv: Move = text.parse().ok()?;
            let mut child = pos;
            child.play(mv).ok()?;
            let (wdl, d) = tb.probe(&child).ok()??;
            let candidate = TableMove {
                mv: text.clone(),
                wdl: wdl.flip(),
                distance: if wdl == Wdl::Draw { 0 } else { d + 1 },
            };
            if best.as_ref().is_none_or(|b| better(&candidate, b)) {
                best = Some(candidate);
            }
        }
        let best = best?;
        // The no-capture draw: a decisive value that does not end the game
        // before the count runs out is not sure (a capture on the way
        // resets it, or not): search instead.
        let left = (rules.no_capture_draw > 0)
            .then(|| rules.no_capture_draw.saturating_sub(pos.no_capture_plies()));
        if best.wdl != Wdl::Draw && left.is_some_and(|left| best.distance >= left) {
            return None;
        }
        Some(best)
    }
}

/// Whether `a` is a better choice than `b`: a win over a draw over a loss,
/// the fastest win, the longest loss.
fn better(a: &TableMove, b: &TableMove) -> bool {
    match (a.wdl, b.wdl) {
        (x, y) if x != y => x > y,
        (Wdl::Win, _) => a.distance < b.distance,
        (Wdl::Loss, _) => a.distance > b.distance,
        _ => false,
    }
}
