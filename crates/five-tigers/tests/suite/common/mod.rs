//! A second, naive implementation of the rules, written from the rules text
//! with plain arrays and vectors (no bitboards, no tables from the crate),
//! used to cross-check the engine's moves, texts and perft counts.
#![allow(dead_code)]

use qi_core::{testkit::Rng, Position, Side};
use qi_five_tigers::{FiveTigers, Move, PlacementCapture, Point, Rules, Shuttle};

/// A formation as a list of (file, rank) points and its value.
#[derive(Clone, Debug)]
pub struct NaiveFormation {
    pub points: Vec<(i32, i32)>,
    pub kind: &'static str,
}

fn parse_pt(t: &str) -> (i32, i32) {
    let b = t.as_bytes();
    ((b[0] - b'a') as i32, (b[1] - b'1') as i32)
}

/// The formations, built from their geometric definitions.
pub fn naive_formations() -> Vec<NaiveFormation> {
    let mut out = Vec::new();
    for f in 0..4 {
        for r in 0..4 {
            out.push(NaiveFormation {
                points: vec![(f, r), (f + 1, r), (f, r + 1), (f + 1, r + 1)],
                kind: "square",
            });
        }
    }
    for line in ["a3 b2 c1", "c1 d2 e3", "a3 b4 c5", "c5 d4 e3"] {
        out.push(NaiveFormation {
            points: line.split(' ').map(parse_pt).collect(),
            kind: "three",
        });
    }
    for line in ["a4 b3 c2 d1", "b1 c2 d3 e4", "a2 b3 c4 d5", "b5 c4 d3 e2"] {
        out.push(NaiveFormation {
            points: line.split(' ').map(parse_pt).collect(),
            kind: "four",
        });
    }
    for i in 0..5 {
        out.push(NaiveFormation {
            points: (0..5).map(|f| (f, i)).collect(),
            kind: "line",
        });
        out.push(NaiveFormation {
            points: (0..5).map(|r| (i, r)).collect(),
            kind: "line",
        });
    }
    out.push(NaiveFormation {
        points: (0..5).map(|i| (i, i)).collect(),
        kind: "heaven",
    });
    out.push(NaiveFormation {
        points: (0..5).map(|i| (i, 4 - i)).collect(),
        kind: "heaven",
    });
    out
}

fn value(kind: &str, rules: &Rules) -> u32 {
    match kind {
        "square" => 1,
        "three" => 2,
        "four" => rules.four_diagonal_value as u32,
        "line" => rules.five_tigers_value as u32,
        _ => 5,
    }
}

fn idx(p: (i32, i32)) -> usize {
    (p.1 * 5 + p.0) as usize
}

#[derive(Clone, Debug)]
pub struct Naive {
    pub board: [Option<Side>; 25],
    pub hand: [u32; 2],
    pub placing: bool,
    pub owed: Vec<(Side, u32)>,
    pub next: Side,
    pub last: [Option<(usize, usize)>; 2],
    pub quiet: u32,
    pub rules: Rules,
    pub formations: Vec<NaiveFormation>,
}

fn si(s: Side) -> usize {
    match s {
        Side::First => 0,
        Side::Second => 1,
    }
}

fn name(i: usize) -> String {
    format!("{}{}", (b'a' + (i % 5) as u8) as char, i / 5 + 1)
}

impl Naive {
    pub fn new(rules: Rules) -> Naive {
        Naive {
            board: [None; 25],
            hand: [rules.pieces_per_side as u32; 2],
            placing: true,
            owed: Vec::new(),
            next: Side::First,
            last: [None; 2],
            quiet: 0,
            rules,
            formations: naive_formations(),
        }
    }

    /// The naive state equal to an engine position (read through the
    /// engine's public accessors).
    pub fn from_engine(pos: &FiveTigers) -> Naive {
        let mut n = Naive::new(*pos.rules());
        for s in [Side::First, Side::Second] {
            for p in Point::points_of(pos.pieces(s)) {
                n.board[p.index() as usize] = Some(s);
            }
            n.hand[si(s)] = pos.hand(s) as u32;
            n.last[si(s)] = pos
                .last_step(s)
                .map(|l| (l.from.index() as usize, l.to.index() as usize));
        }
        n.placing = pos.phase() == qi_five_tigers::Phase::Placement;
        n.owed = pos.owed().iter().map(|(s, c)| (s, c as u32)).collect();
        n.next = pos.next();
        n.quiet = pos.no_capture_plies();
        n
    }

    fn pieces(&self, s: Side) -> Vec<usize> {
        (0..25).filter(|&i| self.board[i] == Some(s)).collect()
    }

    fn holds(&self, s: Side, f: &NaiveFormation) -> bool {
        f.points.iter().all(|&p| self.board[idx(p)] == Some(s))
    }

    fn loose(&self, s: Side) -> Vec<usize> {
        self.pieces(s)
            .into_iter()
            .filter(|&i| {
                !self
                    .formations
                    .iter()
                    .any(|f| self.holds(s, f) && f.points.iter().any(|&p| idx(p) == i))
            })
            .collect()
    }

    fn out(&self, s: Side) -> bool {
        self.pieces(s).is_empty() && self.hand[si(s)] == 0
    }

    pub fn to_move(&self) -> Side {
        match self.owed.first() {
            Some(&(t, _)) => {
                if self.loose(t.opponent()).is_empty() {
                    t.opponent()
                } else {
                    t
                }
            }
            None => self.next,
        }
    }

    pub fn moves(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.out(Side::First) || self.out(Side::Second) {
            return out;
        }
        if let Some(&(t, _)) = self.owed.first() {
            let loose = self.loose(t.opponent());
            let set = if loose.is_empty() {
                self.pieces(t.opponent())
            } else {
                loose
            };
            for i in set {
                out.push(format!("x{}", name(i)));
            }
        } else if self.placing {
            for i in 0..25 {
                if self.board[i].is_none() {
                    out.push(name(i));
                }
            }
        } else {
            let me = self.to_move();
            for i in self.pieces(me) {
                let (f, r) = ((i % 5) as i32, (i / 5) as i32);
                for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                    let (nf, nr) = (f + df, r + dr);
                    if !(0..5).contains(&nf) || !(0..5).contains(&nr) {
                        continue;
                    }
                    let j = idx((nf, nr));
                    if self.board[j].is_some() {
                        continue;
                    }
                    if self.rules.shuttle == Shuttle::Forbidden && self.last[si(me)] == Some((j, i))
                    {
                        continue;
                    }
                    out.push(format!("{}-{}", name(i), name(j)));
                }
            }
        }
        out.sort();
        out
    }

    fn formed(&self, s: Side, at: usize) -> Vec<&NaiveFormation> {
        self.formations
            .iter()
            .filter(|f| f.points.iter().any(|&p| idx(p) == at) && self.holds(s, f))
            .collect()
    }

    fn end_placement(&mut self) {
        self.hand = [0, 0];
        self.placing = false;
        self.next = Side::Second;
        if self.rules.placement_capture == PlacementCapture::Deferred {
            for s in [Side::First, Side::Second] {
                let score: u32 = self
                    .formations
                    .iter()
                    .filter(|f| self.holds(s, f))
                    .map(|f| value(f.kind, &self.rules))
                    .sum();
                if score > 0 {
                    self.owed.push((s, score));
                }
            }
        }
        if self.owed.is_empty() && self.board.iter().all(|b| b.is_some()) {
            self.owed.push((Side::Second, 1));
            self.owed.push((Side::First, 1));
        }
    }

    /// Plays a move given as text (assumed legal).
    pub fn play(&mut self, mv: &str) {
        let me = self.to_move();
        if let Some(p) = mv.strip_prefix('x') {
            let i = p.parse::<Point>().unwrap().index() as usize;
            self.board[i] = None;
            self.owed[0].1 -= 1;
            if self.owed[0].1 == 0 {
                self.owed.remove(0);
            }
            self.quiet = 0;
        } else if let Some((a, b)) = mv.split_once('-') {
            let f = a.parse::<Point>().unwrap().index() as usize;
            let t = b.parse::<Point>().unwrap().index() as usize;
            self.board[f] = None;
            self.board[t] = Some(me);
            let v: u32 = self
                .formed(me, t)
                .iter()
                .map(|f| value(f.kind, &self.rules))
                .sum();
            if v > 0 {
                self.owed.push((me, v));
            }
            self.last[si(me)] = Some((f, t));
            self.quiet += 1;
            self.next = me.opponent();
        } else {
            let i = mv.parse::<Point>().unwrap().index() as usize;
            self.board[i] = Some(me);
            self.hand[si(me)] -= 1;
            if self.rules.placement_capture == PlacementCapture::Immediate {
                let n = self.formed(me, i).len() as u32;
                if n > 0 {
                    self.owed.push((me, n));
                }
            }
            if self.hand == [0, 0] || self.board.iter().all(|b| b.is_some()) {
                self.end_placement();
            } else if self.hand[si(me.opponent())] > 0 {
                self.next = me.opponent();
            } else {
                self.next = me;
            }
        }
        if self.out(Side::First) || self.out(Side::Second) {
            self.owed.clear();
        }
        while let Some(&(t, _)) = self.owed.first() {
            if !self.pieces(t.opponent()).is_empty() {
                break;
            }
            self.owed.remove(0);
        }
    }

    /// The position text.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for r in (0..5).rev() {
            let mut run = 0;
            for f in 0..5 {
                match self.board[r * 5 + f] {
                    None => run += 1,
                    Some(side) => {
                        if run > 0 {
                            s += &run.to_string();
                            run = 0;
                        }
                        s.push(if side == Side::First { 'X' } else { 'O' });
                    }
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            if r > 0 {
                s.push('/');
            }
        }
        let c = |side: Side| if side == Side::First { "x" } else { "o" };
        let owed = if self.owed.is_empty() {
            "-".to_string()
        } else {
            self.owed
                .iter()
                .map(|&(side, n)| format!("{}{n}", c(side)))
                .collect::<Vec<_>>()
                .join(",")
        };
        let last = |l: Option<(usize, usize)>| match l {
            None => "-".to_string(),
            Some((a, b)) => format!("{}-{}", name(a), name(b)),
        };
        format!(
            "{s} {} {} X:{},O:{} {owed} {} {},{} {}",
            c(self.to_move()),
            if self.placing { "place" } else { "move" },
            self.hand[0],
            self.hand[1],
            c(self.next),
            last(self.last[0]),
            last(self.last[1]),
            self.quiet
        )
    }

    /// The winner by the board alone, if any.
    pub fn winner(&self) -> Option<Side> {
        for s in [Side::First, Side::Second] {
            if self.out(s) {
                return Some(s.opponent());
            }
        }
        if !self.placing && self.owed.is_empty() && self.moves().is_empty() {
            return Some(self.to_move().opponent());
        }
        None
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|m| {
                let mut c = self.clone();
                c.play(m);
                c.perft(depth - 1)
            })
            .sum()
    }
}

/// The engine's legal moves as sorted text.
pub fn engine_moves(pos: &FiveTigers) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Plays a random game in both implementations side by side, checking that
/// they agree at every ply. Returns the final engine position.
pub fn lockstep_game(rules: Rules, seed: u64, max_plies: usize) -> FiveTigers {
    let mut rng = Rng::new(seed);
    let mut pos = FiveTigers::new(rules);
    let mut naive = Naive::new(rules);
    for _ in 0..max_plies {
        assert_eq!(pos.to_setup().to_string(), naive.text());
        let moves = engine_moves(&pos);
        assert_eq!(moves, naive.moves(), "moves differ at {pos}");
        assert_eq!(
            pos.outcome().and_then(|o| o.winner()),
            naive.winner(),
            "outcome differs at {pos}"
        );
        if moves.is_empty() {
            break;
        }
        let mv = &moves[rng.below(moves.len())];
        pos.play(mv.parse::<Move>().unwrap()).unwrap();
        naive.play(mv);
    }
    pos
}

/// Plays `plies` random moves from the start under `rules` (deterministic
/// for a seed), returning the position and the moves.
pub fn random_line(rules: Rules, seed: u64, plies: usize) -> (FiveTigers, Vec<Move>) {
    let mut rng = Rng::new(seed);
    let mut pos = FiveTigers::new(rules);
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        pos.play(mv).unwrap();
        line.push(mv);
    }
    (pos, line)
}

/// The naive position reached by playing `moves` from the start.
pub fn naive_after(rules: Rules, moves: &[Move]) -> Naive {
    let mut n = Naive::new(rules);
    for m in moves {
        n.play(&m.to_string());
    }
    n
}

/// Parses a move or panics.
pub fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// Reads position text under `rules` or panics with the error.
pub fn pos(text: &str, rules: Rules) -> FiveTigers {
    FiveTigers::from_text(text, rules).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Reads a hand-made position that probes one rule, with
/// `FiveTigers::from_text_lenient`, or panics with the error. Such
/// sketches (a lone piece a side, First to move in the movement phase
/// before any step) need not be reachable by a game: the rule they probe
/// works on any consistent position, as when a user analyses one.
pub fn sketch(text: &str, rules: Rules) -> FiveTigers {
    assert!(
        FiveTigers::from_text(text, rules).is_err(),
        "{text} is reachable: read it with pos"
    );
    FiveTigers::from_text_lenient(text, rules).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays moves given as space-separated text through the checked `play`.
pub fn after(rules: Rules, moves: &str) -> FiveTigers {
    let mut pos = FiveTigers::new(rules);
    for m in moves.split_whitespace() {
        let mv: Move = m.parse().unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.play(mv).unwrap_or_else(|e| panic!("{m} at {pos}: {e}"));
    }
    pos
}

/// All presets.
pub fn presets() -> Vec<(&'static str, Rules)> {
    Rules::PRESETS
        .iter()
        .map(|&n| (n, Rules::preset(n).unwrap()))
        .collect()
}
