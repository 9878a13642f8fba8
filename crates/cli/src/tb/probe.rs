//! `qi tb probe`: the value of one position.

use std::path::PathBuf;

use clap::Args;
use qi_five_tigers::FiveTigers;
use qi_jungle::Jungle;
use qi_tablebase::five_tigers as ft;
use qi_tablebase::jungle::{Material, Tablebase};
use qi_tablebase::Wdl;

use super::{tb_error, GameArg, GameRules};
use crate::error::CliError;
use crate::out::outln;

#[derive(Args, Debug)]
pub(super) struct ProbeArgs {
    #[command(flatten)]
    pub(super) game: GameArg,
    /// The position text (five-tigers: read leniently, so that endings no
    /// game reaches can be probed).
    #[arg(long, value_name = "TEXT")]
    pub(super) fen: String,
    /// The directory of the tables.
    #[arg(value_name = "DIR")]
    pub(super) dir: PathBuf,
}

/// `win in N plies`, `loss in N plies` or `draw`.
pub(super) fn value_text(wdl: Wdl, distance: u32) -> String {
    let plies = if distance == 1 { "ply" } else { "plies" };
    match wdl {
        Wdl::Draw => "draw".to_string(),
        _ => format!("{wdl} in {distance} {plies}"),
    }
}

pub(super) fn probe(args: &ProbeArgs) -> Result<(), CliError> {
    let rules = match args.game.game_rules()? {
        GameRules::Jungle(rules) => rules,
        GameRules::FiveTigers(rules) => return ft_probe(args, &rules),
    };
    let pos = Jungle::from_text(&args.fen, rules).map_err(|e| CliError::Fen(e.to_string()))?;
    let mut tb = Tablebase::new(&rules);
    if let Some(material) = Material::of(&pos) {
        tb = Tablebase::load_present(&args.dir, &rules, &[material]).map_err(tb_error)?;
    }
    match tb.probe(&pos).map_err(tb_error)? {
        Some((wdl, distance)) => {
            outln!("{}", value_text(wdl, distance));
            Ok(())
        }
        None => Err(tb_error(format!(
            "the material {} is not in {}",
            Material::of(&pos)
                .map(|m| m.to_string())
                .unwrap_or_default(),
            args.dir.display()
        ))),
    }
}

pub(super) fn ft_probe(args: &ProbeArgs, rules: &qi_five_tigers::Rules) -> Result<(), CliError> {
    let pos = FiveTigers::from_text_lenient(&args.fen, *rules)
        .map_err(|e| CliError::Fen(e.to_string()))?;
    // Read per material as needed: a position with removals owed is
    // answered through them, from the tables of what they leave.
    let tables = ft::LazyTablebase::open(&args.dir, rules).map_err(tb_error)?;
    match tables.probe_through_removals(&pos).map_err(tb_error)? {
        Some((wdl, distance)) => {
            outln!("{}", value_text(wdl, distance));
            Ok(())
        }
        None => Err(tb_error(match ft::Material::of(&pos) {
            Some(m) if pos.phase() == qi_five_tigers::Phase::Movement => match tables.refused(m) {
                Some(e) => e.to_string(),
                None if !tables.has_table(m) => {
                    format!("the material {m} is not in {}", args.dir.display())
                }
                None => format!(
                    "not a covered ending: a previous step whose way back the side to \
                         move blocks, or a removal into a material not in {}",
                    args.dir.display()
                ),
            },
            _ => "not a covered ending: the movement phase with 1 to 5 pieces a side".to_string(),
        })),
    }
}
