//! Generates Jungle tables into a directory and prints their statistics.
//!
//! ```text
//! cargo run --release -p qi-tablebase --example generate -- RULES DIR THREADS WHAT...
//! ```
//!
//! `WHAT` is a material (`LCvE`) or a number `n` (every material of up to
//! `n` animals). Tables already in `DIR` are checked and not generated
//! again, so an interrupted run resumes where it stopped. Only the tables
//! of the size below the one being solved are held in memory
//! (`plan_dir`, run by `generate_plan`). The statistics of each new table are printed, tab-
//! separated, as it is finished.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use qi_jungle::{Jungle, Rules};
use qi_tablebase::jungle::Material;
use qi_tablebase::{generate_plan, plan_dir, Output};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [rules, dir, threads, what @ ..] = args.as_slice() else {
        return Err("usage: generate RULES DIR THREADS (MATERIAL | N)...".into());
    };
    let rules: Rules = rules.parse()?;
    let dir = PathBuf::from(dir);
    let threads: usize = threads.parse()?;
    let mut materials = Vec::new();
    for w in what {
        match w.parse::<u32>() {
            Ok(n) => materials.extend(Material::all_up_to(n)),
            Err(_) => materials.push(w.parse::<Material>()?),
        }
    }
    std::fs::create_dir_all(&dir)?;
    let plan = plan_dir::<Jungle>(&dir, &rules, &materials);
    eprintln!(
        "{} of {} tables to generate: at most {:.1} MB of working memory per table in \
         progress ({threads} at once at most), {:.1} MB of finished tables in memory, \
         {:.1} MB of new files",
        plan.todo().len(),
        plan.steps.len(),
        plan.memory() as f64 / 1e6,
        plan.resident_table_bytes as f64 / 1e6,
        plan.file_bytes() as f64 / 1e6
    );
    let start = Instant::now();
    let out = Mutex::new(std::io::stdout());
    writeln!(
        out.lock().unwrap_or_else(|e| e.into_inner()),
        "material\tpositions\twins\tdraws\tlosses\tlongest win\tlongest win position"
    )?;
    generate_plan::<Jungle>(&rules, &plan, &dir, threads, &|_| {}, &mut |made| {
        let Output::Table(table) = made.output else {
            return;
        };
        let m = table.material();
        let s = table.stats();
        let example = s
            .longest_win_index
            .and_then(|i| m.position(i, &rules))
            .map(|p| p.to_string())
            .unwrap_or_default();
        eprintln!(
            "{:>8.1}s {m} ({} indices)",
            start.elapsed().as_secs_f64(),
            table.len()
        );
        // A closed stdout is not worth stopping the generation for.
        let _ = writeln!(
            out.lock().unwrap_or_else(|e| e.into_inner()),
            "{m}\t{}\t{}\t{}\t{}\t{}\t{example}",
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.longest_win
        );
    })?;
    eprintln!("generated in {:.1}s", start.elapsed().as_secs_f64());
    Ok(())
}
