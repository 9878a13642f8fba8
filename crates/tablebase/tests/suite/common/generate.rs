//! A directory filled through the crate's one entry
//! ([`generate_plan`]), as the tests of each way run it.

use std::path::Path;

use qi_tablebase::{generate_plan, plan_dir, GenerateDirError, Generator, Made, Plan};

/// `plan` run into `dir` on 2 threads: what `tell` makes of each
/// material made, in the order made.
pub fn run_plan<G: Generator, T>(
    rules: &G::Rules,
    plan: &Plan<G::Material>,
    dir: &Path,
    mut tell: impl FnMut(Made<'_, G>) -> T,
) -> Result<Vec<T>, GenerateDirError> {
    let mut told = Vec::new();
    generate_plan(rules, plan, dir, 2, &|_| {}, &mut |m| told.push(tell(m)))?;
    Ok(told)
}

/// `materials` and what they read made into `dir` in core
/// ([`plan_dir`]): each material made, and whether it replaced a damaged
/// file.
pub fn in_dir<G: Generator>(
    rules: &G::Rules,
    materials: &[G::Material],
    dir: &Path,
) -> Result<Vec<(String, bool)>, GenerateDirError> {
    let plan = plan_dir::<G>(dir, rules, materials);
    run_plan::<G, _>(rules, &plan, dir, |m| {
        (m.material.to_string(), m.replaced.is_some())
    })
}
