//! `qi serve` (the web app, from `qi-web`) and `qi render` (a position
//! drawn as SVG, with the web app's drawing).

use std::net::{IpAddr, SocketAddr};

use clap::Args;
use qi_engine::record::{self, Record};
use qi_engine::{Games, Registry};
use qi_play::svg::{self, Marks, RenderOptions};
use qi_web::server::{self, Config, Guard, Server};

use crate::error::CliError;
use crate::out::outln;

/// `qi serve` options.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (127.0.0.1: this machine only).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    host: IpAddr,
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, value_name = "P", default_value_t = 8080)]
    port: u16,
    /// Sessions (games) kept at once.
    #[arg(long, value_name = "N", default_value_t = Config::default().max_sessions as u64,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    max_sessions: u64,
    /// Engine searches running at once, over all sessions.
    #[arg(long, value_name = "N", default_value_t = Config::default().max_searches as u64,
          value_parser = clap::value_parser!(u64).range(1..=256))]
    max_searches: u64,
    /// Serve the static site in DIR (as `scripts/export-site.sh DIR`
    /// writes it: the games and the engine in the page) instead of the
    /// page with the games on this server.
    #[arg(long, value_name = "DIR")]
    site: Option<std::path::PathBuf>,
    /// With --site: serve the session API too (the games and the native
    /// engine on this server), which the server's own page always uses.
    #[arg(long, requires = "site")]
    api: bool,
    /// Also answer the session API under this host name (a reverse
    /// proxy's, this machine's name on the network); IP addresses and
    /// localhost are always answered. Repeatable.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
}

/// `qi serve [--host 127.0.0.1] [--port P] [--site DIR [--api]]`
pub fn serve(args: ServeArgs) -> Result<(), CliError> {
    let config = Config {
        // Both are range-checked far below usize::MAX.
        max_sessions: args.max_sessions as usize,
        max_searches: args.max_searches as usize,
        ..Config::default()
    };
    let addr = SocketAddr::new(args.host, args.port);
    let mut guard = Guard::default();
    for name in &args.allow_host {
        guard.allow_host(name);
    }
    let mut server = Server::new(config).guard(guard);
    let mut api = true;
    if let Some(dir) = &args.site {
        if !dir.join("index.html").is_file() {
            return Err(CliError::Usage(format!(
                "--site {}: no index.html there (write the site with scripts/export-site.sh DIR)",
                dir.display()
            )));
        }
        server = server.site(dir).api(args.api);
        api = args.api;
    }
    if !args.host.is_loopback() && api {
        eprintln!(
            "qi serve: warning: listening on {} lets other machines use this server (it has no authentication)",
            args.host
        );
    }
    server::run(addr, server, |bound| {
        outln!("qi serve: listening on http://{bound}/ (Ctrl-C stops)");
    })
    .map_err(|e| CliError::Usage(format!("cannot serve on {addr}: {e}")))?;
    outln!("qi serve: stopped");
    Ok(())
}

/// `qi render` options.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The game and its rules (a record names its own).
    #[arg(long, value_name = "G", default_value_t = Games::default_spec(), help = crate::games_help())]
    game: String,
    /// Draw this position text instead of the start position.
    #[arg(long, value_name = "TEXT", conflicts_with = "record")]
    fen: Option<String>,
    /// Then play these moves (space-separated), each checked; the last one
    /// is highlighted.
    #[arg(long, value_name = "\"m1 m2 ...\"", conflicts_with = "record")]
    moves: Option<String>,
    /// Draw a position of this game record file (docs/records.md).
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
    /// With --record: the position after this many moves (default: all).
    #[arg(long, value_name = "N", requires = "record")]
    ply: Option<usize>,
    /// With --record of a file of several games (`qi match --pgn`): the
    /// game to draw, numbered from 1.
    #[arg(long, value_name = "N", requires = "record")]
    number: Option<usize>,
    /// With --record: list the file's games, one a line, numbered, and
    /// draw nothing.
    #[arg(long, requires = "record")]
    list: bool,
    /// Squares to highlight as the last move (comma-separated: a3,a4).
    #[arg(long, value_name = "SQ,SQ", value_delimiter = ',')]
    highlight: Vec<String>,
    /// Squares to mark as legal destinations (comma-separated).
    #[arg(long, value_name = "SQ,SQ", value_delimiter = ',')]
    targets: Vec<String>,
    /// Draw the board from the second side's point of view.
    #[arg(long)]
    flip: bool,
    /// Write the side to move and the position text under the board.
    #[arg(long)]
    caption: bool,
    /// The SVG file to write (default: standard output).
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

/// `qi render [--game G] [--fen TEXT] [--moves M] [--record F [--ply N]] [-o FILE]`
pub fn render(args: RenderArgs) -> Result<(), CliError> {
    let options = RenderOptions {
        marks: Marks {
            last: args.highlight.clone(),
            selected: None,
            targets: args.targets.clone(),
        },
        flip: args.flip,
        caption: args.caption,
    };
    let picture = match &args.record {
        Some(path) => {
            let text = qi_engine::files::read_text(path, qi_engine::files::TEXT_LIMIT)
                .map_err(|e| CliError::Usage(format!("cannot read {}: {e}", path.display())))?;
            let bad =
                |e: &dyn std::fmt::Display| CliError::Usage(format!("{}: {e}", path.display()));
            if args.list {
                let records = Record::read_all(&text).map_err(|e| bad(&e))?;
                for (i, record) in records.iter().enumerate() {
                    outln!("{}: {}", i + 1, record::summary(record));
                }
                return Ok(());
            }
            let record = record::pick(&text, args.number).map_err(|e| bad(&e))?;
            svg::render_record(&record.to_string(), args.ply, &options)
        }
        None => {
            let moves: Vec<&str> = args
                .moves
                .iter()
                .flat_map(|m| m.split_whitespace())
                .collect();
            svg::render_game(&args.game, args.fen.as_deref(), &moves, &options)
        }
    }
    .map_err(|e| CliError::Usage(e.to_string()))?;
    match &args.output {
        Some(path) => std::fs::write(path, picture)
            .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", path.display())))?,
        None => crate::out::text(format_args!("{picture}")),
    }
    Ok(())
}
