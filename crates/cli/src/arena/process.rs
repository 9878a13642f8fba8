//! A JCEI engine run as a child process, for `qi match`.
//!
//! An engine may be broken in every way a program can be: it may stop
//! reading, hang, crash, print without end or leave children behind. The
//! match must go on regardless, so every exchange has a deadline, output is
//! read in bounded pieces, and an engine that failed is killed together with
//! its whole process group.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use qi_engine::arena::{Player, PlayerError, Reply, Verdict};
use qi_search::Limits;
use thiserror::Error;

/// What went wrong talking to an engine.
#[derive(Debug, Error)]
pub enum EngineError {
    /// The command could not be started.
    #[error("cannot start '{command}': {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The engine closed its output or its input (it crashed or quit).
    #[error("engine '{0}' exited")]
    Exited(String),
    /// The engine did not answer in time.
    #[error("engine '{command}' did not answer '{waiting_for}' within {timeout:?}")]
    Timeout {
        /// The command line.
        command: String,
        /// The line prefix awaited.
        waiting_for: String,
        /// How long we waited.
        timeout: Duration,
    },
    /// The match was interrupted (SIGINT, SIGTERM): no engine starts.
    #[error("the match was interrupted")]
    Interrupted,
    /// The engine stopped reading its input: a line could not be written.
    #[error("engine '{command}' did not read its input within {timeout:?}")]
    WriteTimeout {
        /// The command line.
        command: String,
        /// How long the write was given.
        timeout: Duration,
    },
}

/// The longest engine output line kept; the rest of a longer line is read
/// and dropped, so an engine printing without newlines costs no memory.
pub const MAX_LINE: usize = 64 * 1024;
/// Lines read ahead of the match; past this the reader waits, and so does
/// the engine on its full pipe, so a chatty engine costs no memory either.
const LINES_AHEAD: usize = 1024;
/// How long one line may take to reach an engine's input.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long an engine told to `quit` may take before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// A running engine: lines are written to its stdin by a writer thread
/// and read from its stdout by a reader thread, so both can time out.
pub struct EngineProcess {
    command: String,
    child: Child,
    /// Each line to write, with where to say it was written.
    writer: Option<Sender<(String, Sender<io::Result<()>>)>>,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `command` through the shell and performs the `jcei` handshake.
    pub fn start(command: &str, timeout: Duration) -> Result<EngineProcess, EngineError> {
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group, whose id is the child's pid, so killing
        // the group reaches whatever the engine started too.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut shell, 0);
        let mut child = shell.spawn().map_err(|source| EngineError::Spawn {
            command: command.to_string(),
            source,
        })?;
        if !super::interrupt::register(child.id()) {
            let _ = child.wait();
            return Err(EngineError::Interrupted);
        }
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::sync_channel(LINES_AHEAD);
        thread::spawn(move || read_lines(stdout, tx));
        let (writer, to_write) = mpsc::channel();
        thread::spawn(move || write_lines(stdin, to_write));
        let mut engine = EngineProcess {
            command: command.to_string(),
            child,
            writer: Some(writer),
            lines,
        };
        engine.send("jcei")?;
        engine.wait_for("jceiok", timeout)?;
        Ok(engine)
    }

    /// Sends one line, waiting at most [`WRITE_TIMEOUT`] for the engine to
    /// take it.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.send_within(line, WRITE_TIMEOUT)
    }

    fn send_within(&mut self, line: &str, timeout: Duration) -> Result<(), EngineError> {
        let exited = || EngineError::Exited(self.command.clone());
        let writer = self.writer.as_ref().ok_or_else(exited)?;
        let (done, written) = mpsc::channel();
        writer
            .send((format!("{line}\n"), done))
            .map_err(|_| exited())?;
        match written.recv_timeout(timeout) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => Err(exited()),
            Err(RecvTimeoutError::Timeout) => {
                // The writer stays blocked until the engine is killed (its
                // pipe then breaks); no later line may queue behind it.
                self.writer = None;
                Err(EngineError::WriteTimeout {
                    command: self.command.clone(),
                    timeout,
                })
            }
        }
    }

    /// Reads lines until one starts with `prefix`; returns that line.
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, EngineError> {
        self.wait_for_seeing(prefix, timeout, |_| {})
    }

    /// [`EngineProcess::wait_for`], showing each line before that one to
    /// `seen`.
    pub fn wait_for_seeing(
        &mut self,
        prefix: &str,
        timeout: Duration,
        mut seen: impl FnMut(&str),
    ) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.trim_start().starts_with(prefix) => return Ok(line),
                Ok(line) => seen(&line),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout {
                        command: self.command.clone(),
                        waiting_for: prefix.to_string(),
                        timeout,
                    })
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineError::Exited(self.command.clone()))
                }
            }
        }
    }

    /// `isready` / `readyok`, within `timeout` of the last sign of life:
    /// an engine still reading its tables says so in `info` lines (`qi
    /// engine` once a second), each of which gives it `timeout` more, up
    /// to [`MAX_SYNC`] in all.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let end = Instant::now() + MAX_SYNC;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let mut alive = false;
            let waited = self.wait_for_seeing("readyok", timeout.min(left), |line| {
                alive |= line.trim_start().starts_with("info");
            });
            match waited {
                Ok(_) => return Ok(()),
                // The deadline passed since its last `info` line, or in all.
                Err(EngineError::Timeout { .. }) if alive && !left.is_zero() => {}
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send_within("quit", QUIT_GRACE);
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // Even an engine that quit may have left children running. Its group
        // id cannot name another group yet: POSIX reuses a process group id
        // only once the group has no member left, and then this finds none.
        super::interrupt::kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        super::interrupt::unregister(self.child.id());
    }
}

/// Writes each line it is given, then says whether it could.
fn write_lines(mut stdin: ChildStdin, lines: Receiver<(String, Sender<io::Result<()>>)>) {
    for (line, done) in lines {
        let result = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush());
        let failed = result.is_err();
        let _ = done.send(result);
        if failed {
            return;
        }
    }
}

/// Sends the engine's output on, a line at a time, each cut to [`MAX_LINE`]
/// bytes (read as UTF-8 with replacement: an engine's bytes are not
/// trusted to be text).
fn read_lines(stdout: impl Read, lines: SyncSender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    while let Ok(true) = read_bounded_line(&mut reader, &mut line, MAX_LINE) {
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        if lines.send(text).is_err() {
            return;
        }
    }
}

/// Reads one line (without its newline) into `line`, keeping at most `max`
/// bytes of it; `false` at the end of the input.
fn read_bounded_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<bool> {
    line.clear();
    let mut read_any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let (piece, used, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = max.saturating_sub(line.len());
        line.extend_from_slice(&piece[..piece.len().min(room)]);
        reader.consume(used);
        if end {
            return Ok(true);
        }
    }
}

/// A JCEI engine process as a player of [`qi_engine::arena`]: started on
/// the first game, and started again after it failed.
pub struct ProcessPlayer {
    command: String,
    /// `setoption name Variant value ...` sent after the start, if set.
    variant: Option<String>,
    /// `setoption name NAME value VALUE` lines sent after the start (and
    /// after `Variant`), in order.
    options: Vec<(String, String)>,
    process: Option<EngineProcess>,
}

/// The longest an engine may take to answer `isready` while it says it
/// is alive (reading its tables).
const MAX_SYNC: Duration = Duration::from_secs(1800);
/// How long an engine may take to start or answer `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Grace time past `movetime` (or the clock) before a silent engine
/// forfeits.
const MOVE_GRACE: Duration = Duration::from_secs(5);
/// How long a move may take when only a node limit bounds it.
const UNTIMED_MOVE: Duration = Duration::from_secs(60);

impl ProcessPlayer {
    /// A player run by the shell command `command`.
    pub fn new(
        command: String,
        variant: Option<String>,
        options: Vec<(String, String)>,
    ) -> ProcessPlayer {
        ProcessPlayer {
            command,
            variant,
            options,
            process: None,
        }
    }

    /// Runs `talk` on the process; a failure drops the process, so the
    /// next game starts a fresh one.
    fn with_process<T>(
        &mut self,
        talk: impl FnOnce(&mut EngineProcess) -> Result<T, EngineError>,
    ) -> Result<T, PlayerError> {
        let process = self
            .process
            .as_mut()
            .ok_or_else(|| PlayerError(format!("engine '{}' is not running", self.command)))?;
        talk(process).map_err(|e| {
            self.process = None;
            PlayerError(e.to_string())
        })
    }

    /// Starts the engine unless it runs already. `qi match` calls it once
    /// before the first game: an engine that cannot start at all is an
    /// error of the command line, not a match lost by forfeits.
    pub fn start(&mut self) -> Result<(), EngineError> {
        if self.process.is_none() {
            let mut process = EngineProcess::start(&self.command, HANDSHAKE_TIMEOUT)?;
            if let Some(variant) = &self.variant {
                process.send(&format!("setoption name Variant value {variant}"))?;
            }
            for (name, value) in &self.options {
                process.send(&format!("setoption name {name} value {value}"))?;
            }
            self.process = Some(process);
        }
        Ok(())
    }
}

impl Player for ProcessPlayer {
    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.start().map_err(|e| PlayerError(e.to_string()))?;
        self.with_process(|p| {
            p.send("newgame")?;
            p.sync(HANDSHAKE_TIMEOUT)
        })
    }

    fn best_move(
        &mut self,
        start: Option<&str>,
        moves: &[String],
        limits: &Limits,
    ) -> Result<Reply, PlayerError> {
        let mut command = match start {
            Some(text) => format!("position fen {text}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            command = format!("{command} moves {}", moves.join(" "));
        }
        let mut verdict = Verdict::default();
        let line = self.with_process(|p| {
            p.send(&command)?;
            p.send(&go_command(limits))?;
            p.wait_for_seeing("bestmove", answer_within(limits), |line| {
                read_info(line, &mut verdict)
            })
        })?;
        Ok(Reply {
            mv: line.split_whitespace().nth(1).unwrap_or("").to_string(),
            verdict,
        })
    }
}

/// The `go` line of `limits` (docs/protocol.md): `movetime`, `nodes`, and
/// the clock as `wtime`/`btime` (the first and the second player),
/// `winc`/`binc` and `movestogo`, in milliseconds.
pub fn go_command(limits: &Limits) -> String {
    let mut go = String::from("go");
    let clock = &limits.clock;
    let names = [("wtime", "btime"), ("winc", "binc")];
    for (values, (first, second)) in [clock.time, clock.inc].iter().zip(names) {
        for (value, name) in values.iter().zip([first, second]) {
            if let Some(value) = value {
                // A clock that grew past 64-bit milliseconds (increments on
                // a clock near the largest --tc) is sent as the largest.
                let ms = u64::try_from(value.as_millis()).unwrap_or(u64::MAX);
                go += &format!(" {name} {ms}");
            }
        }
    }
    if let Some(moves) = clock.movestogo {
        go += &format!(" movestogo {moves}");
    }
    if let Some(movetime) = limits.movetime {
        go += &format!(" movetime {}", movetime.as_millis());
    }
    if let Some(nodes) = limits.nodes {
        go += &format!(" nodes {nodes}");
    }
    if let Some(depth) = limits.depth {
        go += &format!(" depth {depth}");
    }
    go
}

/// How long to wait for `bestmove`: the move time or the longer clock,
/// whichever is shorter, and [`MOVE_GRACE`] more; [`UNTIMED_MOVE`] when
/// neither is set.
fn answer_within(limits: &Limits) -> Duration {
    let clock = limits.clock.time.iter().flatten().max().copied();
    let bound = match (limits.movetime, clock) {
        (Some(movetime), Some(clock)) => Some(movetime.min(clock)),
        (one, other) => one.or(other),
    };
    bound.map_or(UNTIMED_MOVE, |b| b + MOVE_GRACE)
}

/// Keeps the depth and score of an `info` line (the last one before
/// `bestmove` wins); other lines, and `info string`, change nothing.
fn read_info(line: &str, verdict: &mut Verdict) {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return;
    }
    let words: Vec<&str> = words.collect();
    if words.first() == Some(&"string") {
        return;
    }
    for (i, word) in words.iter().enumerate() {
        match *word {
            "depth" => {
                if let Some(depth) = words.get(i + 1).and_then(|d| d.parse().ok()) {
                    verdict.depth = Some(depth);
                }
            }
            "score" => {
                if let (Some(kind @ ("cp" | "mate")), Some(value)) = (
                    words.get(i + 1).copied(),
                    words.get(i + 2).and_then(|v| v.parse::<i64>().ok()),
                ) {
                    verdict.score = Some(format!("{kind} {value}"));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_lines_carry_every_limit() {
        use qi_core::Side;
        use qi_search::Clock;
        let ms = Duration::from_millis;
        assert_eq!(go_command(&Limits::movetime(ms(100))), "go movetime 100");
        assert_eq!(go_command(&Limits::nodes(200)), "go nodes 200");
        let clock = Clock::default()
            .with_time(Side::First, ms(10_000))
            .with_time(Side::Second, ms(9_500))
            .with_inc(Side::First, ms(100))
            .with_inc(Side::Second, ms(100))
            .with_movestogo(40);
        let limits = Limits::default().with_clock(clock).with_nodes(5000);
        assert_eq!(
            go_command(&limits),
            "go wtime 10000 btime 9500 winc 100 binc 100 movestogo 40 nodes 5000"
        );
        assert_eq!(answer_within(&limits), ms(10_000) + MOVE_GRACE);
        assert_eq!(answer_within(&Limits::nodes(1)), UNTIMED_MOVE);
        // Past 64-bit milliseconds: the largest the protocol carries.
        let huge = Limits::default().with_clock(
            Clock::default().with_time(Side::First, Duration::from_secs(u64::MAX / 100)),
        );
        assert_eq!(go_command(&huge), format!("go wtime {}", u64::MAX));
    }

    #[test]
    fn the_last_info_line_gives_score_and_depth() {
        let mut verdict = Verdict::default();
        for line in [
            "info depth 1 seldepth 1 score cp 5 nodes 10 pv a1a2",
            "info string depth 99 score cp 1000",
            "info depth 9 seldepth 14 score cp -35 nodes 9000 pv a1a2",
            "readyok",
        ] {
            read_info(line, &mut verdict);
        }
        assert_eq!(verdict.comment().as_deref(), Some("score cp -35 depth 9"));
        read_info("info depth 10 score mate 3 pv a1a2", &mut verdict);
        assert_eq!(verdict.comment().as_deref(), Some("score mate 3 depth 10"));
        let mut none = Verdict::default();
        read_info("info nodes 5 score lowerbound", &mut none);
        assert_eq!(none.comment(), None);
    }

    #[test]
    fn a_line_is_cut_and_the_rest_dropped() {
        let text = format!("{}\nreadyok\nlast", "x".repeat(100));
        let mut reader = BufReader::with_capacity(7, text.as_bytes());
        let mut line = Vec::new();
        assert!(read_bounded_line(&mut reader, &mut line, 10).unwrap());
        assert_eq!(line, b"xxxxxxxxxx");
        assert!(read_bounded_line(&mut reader, &mut line, 10).unwrap());
        assert_eq!(line, b"readyok");
        assert!(read_bounded_line(&mut reader, &mut line, 10).unwrap());
        assert_eq!(line, b"last");
        assert!(!read_bounded_line(&mut reader, &mut line, 10).unwrap());
    }

    /// An engine that never reads: a line larger than any pipe buffer
    /// cannot be written, and the write gives up instead of hanging; the
    /// engine's own child dies with it.
    // Whether the engine's child is gone is read from Linux's /proc.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_write_to_an_engine_that_stopped_reading_times_out() {
        let dir = std::env::temp_dir().join(format!("qi-write-timeout-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pid_file = dir.join("grandchild");
        let script = format!(
            "echo jceiok; sleep 300 & echo $! > {}; wait",
            pid_file.display()
        );
        let mut engine = EngineProcess::start(&script, Duration::from_secs(10)).unwrap();
        let begun = Instant::now();
        let big = "x".repeat(4 << 20);
        let err = engine
            .send_within(&big, Duration::from_millis(300))
            .unwrap_err();
        assert!(matches!(err, EngineError::WriteTimeout { .. }), "{err}");
        assert!(begun.elapsed() < Duration::from_secs(3));
        let grandchild = std::fs::read_to_string(&pid_file).unwrap();
        let proc_dir = format!("/proc/{}", grandchild.trim());
        assert!(!gone_within(&proc_dir, Duration::ZERO));
        drop(engine);
        assert!(begun.elapsed() < Duration::from_secs(5));
        assert!(
            gone_within(&proc_dir, Duration::from_secs(2)),
            "{proc_dir} left behind"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(target_os = "linux")]
    /// Whether the process of `proc_dir` ends within `limit`: a zombie
    /// counts as ended, since its reaping is up to whoever adopted it.
    fn gone_within(proc_dir: &str, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            let stat = std::fs::read_to_string(format!("{proc_dir}/stat")).unwrap_or_default();
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next();
            if matches!(state, None | Some("Z") | Some("X")) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }
}
