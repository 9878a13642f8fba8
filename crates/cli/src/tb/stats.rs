//! `qi tb stats`: the figures of every table of a directory, one file in
//! memory at a time.

use std::path::PathBuf;

use clap::Args;
use qi_five_tigers::FiveTigers;
use qi_jungle::Jungle;
use qi_tablebase::five_tigers as ft;
use qi_tablebase::jungle::Material;
use qi_tablebase::{load_table, TableGame};

use super::{tb_error, GameArg, GameRules};
use crate::error::CliError;
use crate::out::outln;

#[derive(Args, Debug)]
pub(super) struct StatsArgs {
    #[command(flatten)]
    pub(super) game: GameArg,
    /// The directory of the tables.
    #[arg(value_name = "DIR")]
    pub(super) dir: PathBuf,
}

pub(super) fn stats(args: &StatsArgs) -> Result<(), CliError> {
    let rules = match args.game.game_rules()? {
        GameRules::Jungle(rules) => rules,
        GameRules::FiveTigers(rules) => return ft_stats(args, &rules),
    };
    // One table in memory at a time: a directory of every 4-animal
    // material holds 13.9 GB.
    let io = |e: std::io::Error| tb_error(format!("I/O error on {}: {e}", args.dir.display()));
    let mut files: Vec<(Option<Material>, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(&args.dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().and_then(|e| e.to_str()) == Some(Jungle::EXTENSION) {
            let material = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse().ok());
            files.push((material, path));
        }
    }
    if files.is_empty() {
        return Err(tb_error(format!("no tables in {}", args.dir.display())));
    }
    // Material order, as the tables of a `Tablebase`; a file whose name is
    // no material sorts first and is refused by `load_table`.
    files.sort();
    outln!("material\tpositions\twins\tdraws\tlosses\tlongest win\tlongest win position");
    let mut total = qi_tablebase::jungle::Stats::default();
    for (_, path) in files {
        let table = load_table::<Jungle>(&path, &rules).map_err(tb_error)?;
        let (m, s) = (table.material(), table.stats());
        let example = s
            .longest_win_index
            .and_then(|i| m.position(i, &rules))
            .map(|p| p.to_string())
            .unwrap_or_default();
        outln!(
            "{m}\t{}\t{}\t{}\t{}\t{}\t{example}",
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.longest_win
        );
        total.positions += s.positions;
        total.wins += s.wins;
        total.draws += s.draws;
        total.losses += s.losses;
        total.longest_win = total.longest_win.max(s.longest_win);
    }
    outln!(
        "total\t{}\t{}\t{}\t{}\t{}\t",
        total.positions,
        total.wins,
        total.draws,
        total.losses,
        total.longest_win
    );
    Ok(())
}

/// `qi tb stats` of Five Tigers: one file at a time, a file of the cells
/// under the shuttle ban read a block at a time (`5v5` is 31 GB or more), so the
/// directory need not fit in memory.
pub(super) fn ft_stats(args: &StatsArgs, rules: &qi_five_tigers::Rules) -> Result<(), CliError> {
    let shown = args.dir.display();
    let entries =
        std::fs::read_dir(&args.dir).map_err(|e| tb_error(format!("cannot read {shown}: {e}")))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| tb_error(format!("cannot read {shown}: {e}")))?
            .path();
        if path.extension().and_then(|e| e.to_str()) == Some(<FiveTigers as TableGame>::EXTENSION) {
            let material = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<ft::Material>().ok());
            files.push((material, path));
        }
    }
    if files.is_empty() {
        return Err(tb_error(format!("no tables in {shown}")));
    }
    files.sort();
    outln!(
        "material\tpositions\tcanonical\tstored\twins\tdraws\tlosses\tlongest win\t\
         longest win position"
    );
    let mut total = ft::Stats::default();
    for (_, path) in files {
        let (material, _, s) = ft::file_stats(&path, rules).map_err(tb_error)?;
        let example = s
            .longest_win_key
            .and_then(|k| ft::position_of_key(k, rules))
            .map(|p| p.to_string())
            .unwrap_or_default();
        outln!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{example}",
            material,
            s.positions,
            s.canonical,
            s.stored,
            s.wins,
            s.draws,
            s.losses,
            s.longest_win
        );
        total = total.merge(s);
    }
    outln!(
        "total\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t",
        total.positions,
        total.canonical,
        total.stored,
        total.wins,
        total.draws,
        total.losses,
        total.longest_win
    );
    Ok(())
}
