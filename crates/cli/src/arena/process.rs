//! A JCEI engine run as a child process, for `qi match`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use qi_engine::arena::{Player, PlayerError};
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
}

/// A running engine: lines are written to its stdin and read from its
/// stdout by a reader thread, so reads can time out.
pub struct EngineProcess {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `command` through the shell and performs the `jcei` handshake.
    pub fn start(command: &str, timeout: Duration) -> Result<EngineProcess, EngineError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| EngineError::Spawn {
                command: command.to_string(),
                source,
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = EngineProcess {
            command: command.to_string(),
            child,
            stdin,
            lines,
        };
        engine.send("jcei")?;
        engine.wait_for("jceiok", timeout)?;
        Ok(engine)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineError::Exited(self.command.clone()))
    }

    /// Reads lines until one starts with `prefix`; returns that line.
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.trim_start().starts_with(prefix) => return Ok(line),
                Ok(_) => continue,
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

    /// `isready` / `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for("readyok", timeout).map(|_| ())
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A JCEI engine process as a player of [`qi_engine::arena`]: started on
/// the first game, and started again after it failed.
pub struct ProcessPlayer {
    command: String,
    /// `setoption name Variant value ...` sent after the start, if set.
    variant: Option<String>,
    process: Option<EngineProcess>,
}

/// How long an engine may take to start or answer `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Grace time past `movetime` before a silent engine loses on time.
const MOVE_GRACE: Duration = Duration::from_secs(5);

impl ProcessPlayer {
    /// A player run by the shell command `command`.
    pub fn new(command: String, variant: Option<String>) -> ProcessPlayer {
        ProcessPlayer {
            command,
            variant,
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
}

impl Player for ProcessPlayer {
    fn new_game(&mut self) -> Result<(), PlayerError> {
        if self.process.is_none() {
            let mut process = EngineProcess::start(&self.command, HANDSHAKE_TIMEOUT)
                .map_err(|e| PlayerError(e.to_string()))?;
            if let Some(variant) = &self.variant {
                process
                    .send(&format!("setoption name Variant value {variant}"))
                    .map_err(|e| PlayerError(e.to_string()))?;
            }
            self.process = Some(process);
        }
        self.with_process(|p| {
            p.send("newgame")?;
            p.sync(HANDSHAKE_TIMEOUT)
        })
    }

    fn best_move(
        &mut self,
        start: Option<&str>,
        moves: &[String],
        movetime: Duration,
    ) -> Result<String, PlayerError> {
        let mut command = match start {
            Some(text) => format!("position fen {text}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            command = format!("{command} moves {}", moves.join(" "));
        }
        let line = self.with_process(|p| {
            p.send(&command)?;
            p.send(&format!("go movetime {}", movetime.as_millis()))?;
            p.wait_for("bestmove", movetime + MOVE_GRACE)
        })?;
        Ok(line.split_whitespace().nth(1).unwrap_or("").to_string())
    }
}
