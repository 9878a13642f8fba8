//! `qi tb join`: partition files into table files.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use qi_five_tigers::FiveTigers;
use qi_jungle::Jungle;
use qi_tablebase::five_tigers as ft;
use qi_tablebase::join_partitions;

use super::dir_lock::waiting;
use super::{ft_materials_of, materials_of, threads_or_cores, GameArg, GameRules, MAX_PIECES};
use crate::error::CliError;

#[derive(Args, Debug)]
pub(super) struct JoinArgs {
    #[command(flatten)]
    pub(super) game: GameArg,
    /// Every material of up to N animals (Jungle) or pieces a side (Five
    /// Tigers), when no --material is given.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..=ft::MAX_PIECES as i64))]
    pub(super) pieces: u32,
    /// A material to join instead, with those it needs; may be repeated.
    #[arg(long, value_name = "LCvED")]
    pub(super) material: Vec<String>,
    /// Threads that make each table (default: the machine's cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(super) threads: Option<u32>,
    /// The directory of the table files made (created if missing).
    #[arg(long, value_name = "OUT")]
    pub(super) out: PathBuf,
    /// The directories of the partition files (every process's, or
    /// copies of them).
    #[arg(value_name = "PARTS", required = true)]
    pub(super) parts: Vec<PathBuf>,
}

/// `qi tb join`: the library's executor claims OUT (waiting for another
/// writer that holds it), writes each table through a temporary file and
/// skips those already there.
pub(super) fn join(args: &JoinArgs) -> Result<(), CliError> {
    let shown = args.out.display();
    let threads = threads_or_cores(args.threads);
    let start = Instant::now();
    let written = match args.game.game_rules()? {
        GameRules::Jungle(rules) => {
            let materials = materials_of(&args.material, args.pieces, MAX_PIECES)?;
            waiting(&args.out, || {
                join_partitions::<Jungle>(
                    &rules,
                    &materials,
                    &args.parts,
                    &args.out,
                    threads,
                    |t| eprintln!("{}: {} positions", t.material(), t.len()),
                )
            })?
            .len()
        }
        GameRules::FiveTigers(rules) => {
            let materials = ft_materials_of(&args.material, args.pieces, ft::MAX_PIECES)?;
            waiting(&args.out, || {
                join_partitions::<FiveTigers>(
                    &rules,
                    &materials,
                    &args.parts,
                    &args.out,
                    threads,
                    |t| eprintln!("{}: {} states", t.material(), t.len()),
                )
            })?
            .len()
        }
    };
    eprintln!(
        "{written} tables joined in {:.1} s into {shown}",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
