//! A small command-line parser: `--flag value`, `--switch` and positionals.

use crate::error::CliError;

/// The options and positional arguments of one subcommand.
#[derive(Debug, Default)]
pub struct Args {
    values: Vec<(String, String)>,
    switches: Vec<String>,
    /// Positional arguments in order.
    pub positionals: Vec<String>,
}

impl Args {
    /// Parses `argv`: names in `valued` take the next argument as value (or
    /// `--name=value`), names in `switches` take none; anything else starting
    /// with `--` is an error. `--help` or `-h` anywhere asks for the usage
    /// text ([`CliError::Help`]).
    pub fn parse(argv: &[String], valued: &[&str], switches: &[&str]) -> Result<Args, CliError> {
        let mut args = Args::default();
        let mut iter = argv.iter();
        while let Some(arg) = iter.next() {
            if arg == "--help" || arg == "-h" {
                return Err(CliError::Help);
            }
            if let Some(name) = arg.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (name, None),
                };
                if valued.contains(&name) {
                    let value = match inline {
                        Some(v) => v,
                        None => iter
                            .next()
                            .cloned()
                            .ok_or_else(|| CliError::Usage(format!("--{name} needs a value")))?,
                    };
                    if args.value(name).is_some() {
                        return Err(CliError::Usage(format!("--{name} given twice")));
                    }
                    args.values.push((name.to_string(), value));
                } else if switches.contains(&name) && inline.is_none() {
                    args.switches.push(name.to_string());
                } else {
                    return Err(CliError::Usage(format!("unknown option '{arg}'")));
                }
            } else {
                args.positionals.push(arg.clone());
            }
        }
        Ok(args)
    }

    /// The value of `--name`, if given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `--name` was given.
    pub fn switch(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }

    /// The value of `--name` parsed as a number, if given.
    pub fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, CliError> {
        self.value(name)
            .map(|v| {
                v.parse().map_err(|_| {
                    CliError::Usage(format!(
                        "--{name} takes a non-negative whole number, not '{v}'"
                    ))
                })
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_values_switches_and_positionals() {
        let args = Args::parse(
            &strings(&["--game", "jungle:datou", "--divide", "5", "--threads=2"]),
            &["game", "threads"],
            &["divide"],
        )
        .unwrap();
        assert_eq!(args.value("game"), Some("jungle:datou"));
        assert!(args.switch("divide"));
        assert_eq!(args.number::<usize>("threads").unwrap(), Some(2));
        assert_eq!(args.positionals, vec!["5"]);
    }

    #[test]
    fn rejects_unknown_and_missing() {
        assert!(Args::parse(&strings(&["--nope"]), &[], &[]).is_err());
        assert!(Args::parse(&strings(&["--game"]), &["game"], &[]).is_err());
        assert!(Args::parse(&strings(&["--game", "a", "--game", "b"]), &["game"], &[]).is_err());
        let args = Args::parse(&strings(&["--threads", "x"]), &["threads"], &[]).unwrap();
        assert!(args.number::<usize>("threads").is_err());
    }

    #[test]
    fn help_anywhere_asks_for_the_usage() {
        for argv in [
            &["--help"][..],
            &["5", "-h"],
            &["--divide", "--help", "--nope"],
        ] {
            let result = Args::parse(&strings(argv), &["game"], &["divide"]);
            assert!(matches!(result, Err(CliError::Help)), "{argv:?}");
        }
        // A value that happens to be "-h" is still a value.
        let args = Args::parse(&strings(&["--game", "-h"]), &["game"], &[]).unwrap();
        assert_eq!(args.value("game"), Some("-h"));
    }
}
