//! `qi tb`: endgame tablebases (`qi-tablebase`) from the command line:
//! `generate` a directory of tables, `probe` a position, print the `stats`
//! of a directory, `join` a cluster's partitions. Jungle endgames, or Five
//! Tigers movement-phase endings with `--game five-tigers[:PRESET]`. One
//! file per subcommand; this one holds the arguments they share.

mod dir_lock;
mod generate;
mod generate_cluster;
mod join;
mod meeting;
mod plan;
mod probe;
mod resources;
mod stats;

use clap::{Args, Subcommand};
use qi_engine::{FiveTigersKit, GameKit, JungleKit, SpecError};
use qi_jungle::Rules;
use qi_tablebase::five_tigers as ft;
use qi_tablebase::jungle::Material;

use crate::error::CliError;
use generate::GenerateArgs;
use join::JoinArgs;
use probe::ProbeArgs;
use stats::StatsArgs;

/// The most animals `--pieces` accepts: a 5-animal material alone needs
/// tens of gigabytes of working memory (docs/tablebases.md).
const MAX_PIECES: u32 = 4;

/// `qi tb` options.
#[derive(Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(Subcommand, Debug)]
enum TbCommand {
    /// Generate the tables of every material up to --pieces animals (or of
    /// each --material) and of the materials their captures lead to into
    /// DIR; files already in DIR are loaded, not generated again.
    Generate(GenerateArgs),
    /// Join the partition files that `qi tb generate --partitioned` left
    /// in each process's directory into table files in OUT (the closure
    /// of --pieces or --material, fewest pieces first; tables already in
    /// OUT are kept).
    Join(JoinArgs),
    /// Print the value of a position for its side to move: 'win in N
    /// plies', 'loss in N plies' or 'draw'.
    Probe(ProbeArgs),
    /// Per material of DIR: positions, wins, draws and losses for the side
    /// to move, the longest win and a position with it (tab-separated).
    Stats(StatsArgs),
}

/// `--game`: Jungle or Five Tigers.
#[derive(Args, Debug)]
struct GameArg {
    /// The game and its rules: jungle, jungle:PRESET, five-tigers or
    /// five-tigers:PRESET (the tables hold the board rules; the game-record
    /// rules are not in them).
    #[arg(long, value_name = "G", default_value = "jungle:standard")]
    game: String,
}

/// The rules `--game` names.
enum GameRules {
    Jungle(Rules),
    FiveTigers(qi_five_tigers::Rules),
}

impl GameArg {
    fn game_rules(&self) -> Result<GameRules, CliError> {
        let spec = self.game.trim();
        let name = spec.split([':', ',']).next().unwrap_or_default();
        if name == JungleKit::NAME {
            JungleKit::parse_rules(spec)
                .map(GameRules::Jungle)
                .map_err(|e| CliError::from(SpecError::bad_rules(JungleKit::NAME, e)))
        } else if name == FiveTigersKit::NAME {
            FiveTigersKit::parse_rules(spec)
                .map(GameRules::FiveTigers)
                .map_err(|e| CliError::from(SpecError::bad_rules(FiveTigersKit::NAME, e)))
        } else {
            Err(CliError::Usage(format!(
                "bad --game: tablebases exist for 'jungle' and 'five-tigers', not '{}'",
                qi_core::Escaped(name)
            )))
        }
    }
}

pub fn run(args: TbArgs) -> Result<(), CliError> {
    match args.command {
        TbCommand::Generate(args) => generate::generate(&args),
        TbCommand::Join(args) => join::join(&args),
        TbCommand::Probe(args) => probe::probe(&args),
        TbCommand::Stats(args) => stats::stats(&args),
    }
}

/// `threads` (`--threads`), or the machine's cores.
fn threads_or_cores(threads: Option<u32>) -> usize {
    threads.map_or_else(
        || {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        },
        |t| t as usize,
    )
}

fn tb_error(e: impl std::fmt::Display) -> CliError {
    CliError::Tablebase(e.to_string())
}

/// The Jungle materials `material` (`--material`) or, if none, `pieces`
/// (`--pieces`) name, each of at most `most` animals.
fn materials_of(material: &[String], pieces: u32, most: u32) -> Result<Vec<Material>, CliError> {
    if material.is_empty() {
        if pieces > most {
            return Err(CliError::Usage(format!(
                "bad --pieces: jungle tables have at most {most} animals, not {pieces}"
            )));
        }
        return Ok(Material::all_up_to(pieces));
    }
    material
        .iter()
        .map(|text| {
            let m: Material = text
                .parse()
                .map_err(|e| CliError::Usage(format!("bad --material: {e}")))?;
            if m.total() > most {
                return Err(CliError::Usage(format!(
                    "bad --material: {m} has {} animals, at most {most} are supported",
                    m.total()
                )));
            }
            Ok(m)
        })
        .collect()
}

/// The Five Tigers materials `material` (`--material`) or, if none,
/// `pieces` (`--pieces`) name, each of at most `most` pieces a side.
fn ft_materials_of(
    material: &[String],
    pieces: u32,
    most: u32,
) -> Result<Vec<ft::Material>, CliError> {
    let limit = |what: &str, n: &dyn std::fmt::Display| {
        CliError::Usage(format!(
            "bad {what}: five-tigers tables under these rules have at most {most} pieces a side, \
             not {n}"
        ))
    };
    if material.is_empty() {
        if pieces > most {
            return Err(limit("--pieces", &pieces));
        }
        return Ok(ft::Material::all_up_to(pieces));
    }
    material
        .iter()
        .map(|text| {
            let m = text
                .parse::<ft::Material>()
                .map_err(|e| CliError::Usage(format!("bad --material: {e}")))?;
            if m.first.max(m.second) > most {
                return Err(limit("--material", &m));
            }
            Ok(m)
        })
        .collect()
}
