//! Generates Five Tigers movement-phase tables into a directory, one
//! material at a time on all the threads, and prints a CSV line per new
//! table: its statistics, the time it took and the process's peak memory
//! so far. Tables already in `DIR` are checked when read and not solved
//! again, and each new one is written to a temporary file renamed into
//! place, so a killed run resumes from the last finished table.
//!
//! ```text
//! cargo run --release -p qi-tablebase --example ft_generate -- \
//!     RULES GENERATOR THREADS DIR (MATERIAL | N)...
//! ```
//!
//! `RULES` is a preset (`shandong-shuttle`) or a rules text, `GENERATOR`
//! `in-core` (the one `qi tb generate` uses where a table fits in
//! memory), `WHAT` a material (`4v3`) or `N` (every material up to `N` a
//! side). With `--only` as the first of `WHAT`, only the materials named
//! are solved and timed, and not written (the tables they need are loaded
//! from `DIR` or generated first, untimed): how one material is measured
//! alone.
//!
//! `GENERATOR` `out-of-core` (`shuttle = forbidden` only) solves each
//! material named with `solve_out_of_core`, its values on disk, into
//! `DIR`, where the tables its conversions read must be; it prints the
//! generator's progress to standard error.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use qi_five_tigers::Rules;
use qi_tablebase::five_tigers::{closure, solve_material, Material, Table, Tablebase};
use qi_tablebase::{generate_plan, load_table, plan_dir, save_table, Output};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The peak resident memory of this process so far, in MB (Linux).
fn peak_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// The CPU time of this process so far (user and system, all threads), in
/// seconds (Linux, 100 ticks a second): on a shared machine the CPU time
/// a table took says its cost per core where the wall time does not.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // The fields after the command's closing parenthesis: utime
            // and stime are the 12th and 13th.
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
            Some(ticks / 100.0)
        })
        .unwrap_or(0.0)
}

/// The `out-of-core` generator on each material of `what`.
fn out_of_core(
    rules: &Rules,
    threads: usize,
    dir: &std::path::Path,
    what: &[String],
) -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "material,generator,cells,positions,canonical,wins,draws,losses,longest_win,rounds,\
         tidings,checks,held,start_seconds,round_seconds,final_seconds,seconds,peak_mb,\
         file_bytes,cpu_seconds"
    );
    for w in what {
        let m: Material = w.parse()?;
        let (start, cpu) = (Instant::now(), cpu_seconds());
        let r = qi_tablebase::five_tigers::solve_out_of_core(m, rules, dir, threads, &|line| {
            eprintln!("{line} (peak {:.0} MB)", peak_mb())
        })?;
        let s = r.stats;
        println!(
            "{m},OutOfCore,{},{},{},{},{},{},{},{},{},{},{},{:.1},{:.1},{:.1},{:.1},{:.0},{},{:.1}",
            r.cells,
            s.positions,
            s.canonical,
            s.wins,
            s.draws,
            s.losses,
            s.longest_win,
            r.rounds,
            r.tidings,
            r.checks,
            r.held,
            r.seconds[0],
            r.seconds[1],
            r.seconds[2],
            start.elapsed().as_secs_f64(),
            peak_mb(),
            r.file_bytes,
            cpu_seconds() - cpu,
        );
    }
    Ok(())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [rules, generator, threads, dir, what @ ..] = args.as_slice() else {
        return Err(
            "usage: ft_generate RULES GENERATOR THREADS DIR [--only] (MATERIAL | N)...".into(),
        );
    };
    let rules: Rules = Rules::preset(rules).or_else(|_| rules.parse())?;
    if generator == "out-of-core" {
        return out_of_core(&rules, threads.parse()?, &PathBuf::from(dir), what);
    }
    if generator != "in-core" {
        return Err(format!("bad generator {generator:?}: in-core or out-of-core").into());
    }
    let threads: usize = threads.parse()?;
    let dir = PathBuf::from(dir);
    let (only, what) = match what.split_first() {
        Some((first, rest)) if first == "--only" => (true, rest),
        _ => (false, what),
    };
    let mut materials = Vec::new();
    for w in what {
        match w.parse::<u32>() {
            Ok(n) => materials.extend(Material::all_up_to(n)),
            Err(_) => materials.push(w.parse::<Material>()?),
        }
    }
    std::fs::create_dir_all(&dir)?;
    println!(
        "material,generator,slots,positions,canonical,wins,draws,losses,longest_win,seconds,\
         positions_per_second,canonical_per_second,peak_mb,file_bytes,cpu_seconds,\
         positions_per_cpu_second"
    );
    let cpu_mark = std::cell::Cell::new(cpu_seconds());
    let line = |table: &Table, seconds: f64| {
        // Since the previous line: this table's solve and file write (and
        // the check of any file read meanwhile).
        let cpu = cpu_seconds() - cpu_mark.get();
        let s = table.stats();
        // The file as written (none with --only).
        let file_bytes =
            std::fs::metadata(Tablebase::file_path(&dir, table.material())).map_or(0, |m| m.len());
        println!(
            "{},InCore,{},{},{},{},{},{},{},{seconds:.3},{:.0},{:.0},{:.0},{file_bytes},\
             {cpu:.2},{:.0}",
            table.material(),
            table.len(),
            s.positions,
            s.canonical,
            s.wins,
            s.draws,
            s.losses,
            s.longest_win,
            s.positions as f64 / seconds,
            s.canonical as f64 / seconds,
            peak_mb(),
            s.positions as f64 / cpu.max(0.01),
        );
        cpu_mark.set(cpu_seconds());
    };
    if !only {
        let plan = plan_dir::<qi_five_tigers::FiveTigers>(&dir, &rules, &materials);
        generate_plan(&rules, &plan, &dir, threads, &|_| {}, &mut |made| {
            if let Some(e) = &made.replaced {
                eprintln!(
                    "{}: the file was refused ({e}) and is replaced",
                    made.material
                );
            }
            if let Output::Table(table) = made.output {
                line(table, made.seconds);
            }
        })?;
        return Ok(());
    }
    let mut tb = Tablebase::new(&rules);
    for m in closure(&materials, &rules) {
        let path = Tablebase::file_path(&dir, m);
        if !materials.contains(&m) {
            if path.exists() {
                tb.insert(load_table(&path, &rules)?)
                    .map_err(|_| format!("{m} loaded twice"))?;
            } else {
                let table = solve_material(&rules, m, &tb, threads)?;
                save_table(&dir, &table)?;
                tb.insert(table).map_err(|_| format!("{m} solved twice"))?;
            }
            continue;
        }
        // The tables loaded or solved before are not this one's CPU time.
        cpu_mark.set(cpu_seconds());
        let start = Instant::now();
        let table = solve_material(&rules, m, &tb, threads)?;
        line(&table, start.elapsed().as_secs_f64());
        tb.insert(table).map_err(|_| format!("{m} solved twice"))?;
    }
    Ok(())
}
