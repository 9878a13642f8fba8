//! Generates Jungle tables into a directory and prints their statistics.
//!
//! ```text
//! cargo run --release -p qi-tablebase --example generate -- RULES DIR THREADS WHAT...
//! ```
//!
//! `WHAT` is a material (`LCvE`) or a number `n` (every material of up to
//! `n` animals). Tables already in `DIR` are loaded and not generated again,
//! so an interrupted run resumes where it stopped.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use qi_jungle::Rules;
use qi_tablebase::{save_table, Material, Tablebase};

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
    let mut tb = Tablebase::load_present(&dir, &rules, &qi_tablebase::closure(&materials))?;
    let plan = tb.plan(&materials);
    eprintln!(
        "{} tables to generate: at most {:.1} MB of working memory per table in progress \
         ({threads} at once at most), {:.1} MB of tables",
        plan.todo.len(),
        plan.working_memory_per_table as f64 / 1e6,
        plan.table_bytes as f64 / 1e6
    );
    let start = Instant::now();
    let failed: Mutex<Option<String>> = Mutex::new(None);
    tb.extend(&materials, threads, &|table| {
        if let Err(e) = save_table(&dir, table) {
            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
        }
        eprintln!(
            "{:>8.1}s {} ({} positions)",
            start.elapsed().as_secs_f64(),
            table.material(),
            table.len()
        );
    })?;
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e.into());
    }
    eprintln!("generated in {:.1}s", start.elapsed().as_secs_f64());
    println!("material\tpositions\twins\tdraws\tlosses\tlongest win\tlongest win position");
    for (m, s) in tb.stats() {
        if !materials.contains(&m) {
            continue;
        }
        let example = s
            .longest_win_index
            .and_then(|i| m.position(i, &rules))
            .map(|p| p.to_string())
            .unwrap_or_default();
        println!(
            "{m}\t{}\t{}\t{}\t{}\t{}\t{example}",
            s.positions, s.wins, s.draws, s.losses, s.longest_win
        );
    }
    Ok(())
}
