// The JavaScript API: games from specs, positions and records, moves,
// results in words, boards, options, searches, and errors as exceptions.
import { test } from "node:test";
import assert from "node:assert/strict";

import qi from "./load.mjs";

const { Game } = qi;

/** Asserts that `f` throws an Error (not a trapped panic) whose message
 * matches `pattern`. */
function throwsMessage(f, pattern) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof Error, `not an Error: ${e}`);
    assert.ok(!(e instanceof WebAssembly.RuntimeError), `a trap (panic): ${e.message}`);
    assert.match(e.message, pattern);
    return true;
  });
}

test("every preset of both games starts, lists its moves and plays one", () => {
  const games = qi.games();
  assert.deepEqual(games.map((g) => g.name), ["jungle", "five-tigers"]);
  for (const g of games) {
    assert.ok(g.specs.length >= 4);
    for (const spec of g.specs) {
      const game = new Game(spec);
      assert.equal(game.spec(), spec);
      const moves = game.legalMoves();
      assert.equal(moves.length, g.name === "jungle" ? 24 : 25, spec);
      game.play(moves[0]);
      assert.deepEqual(game.moves(), [moves[0]]);
      assert.equal(game.ply(), 1);
      game.undo();
      assert.equal(game.ply(), 0);
    }
  }
  // A rule string beyond the presets, in canonical form.
  assert.equal(qi.canonicalSpec("jungle:datou,anti_chase=on"), "jungle:datou");
  assert.equal(new Game("jungle:standard,anti_chase=on").spec(), qi.canonicalSpec("jungle:standard,anti_chase=on"));
});

test("play, undo and goto move along the line", () => {
  const game = new Game("jungle");
  game.play("a3a4");
  game.play("g7g6");
  assert.equal(game.position(), "l5t/1d3c1/r1p1w2/6e/7/E6/2W1P1R/1C3D1/T5L w 2 2");
  game.goto(1);
  assert.equal(game.ply(), 1);
  assert.deepEqual(game.moves(), ["a3a4", "g7g6"]);
  // A move from an earlier position starts a variation; the line stays.
  game.play("a7a6");
  assert.deepEqual(game.moves(), ["a3a4", "a7a6"]);
  game.gotoLine(["a3a4", "g7g6"]);
  assert.equal(game.ply(), 2);
  assert.deepEqual(game.view(false).tree.map((n) => n.move), ["a3a4", "g7g6", "a7a6"]);
  assert.match(game.preview(["a4a5"]), /^<svg/);
  assert.equal(game.ply(), 2);
  game.gotoLine(["a3a4", "a7a6"]);
  game.promote();
  assert.match(game.record(), /a3a4 a7a6 \(g7g6\) \*/);
  game.goto(0);
  assert.equal(game.position(), new Game("jungle").position());
  throwsMessage(() => game.undo(), /no move to take back/);
  throwsMessage(() => game.goto(3), /ply 3 is outside the game \(0 to 2\)/);
});

test("a finished game gives its result in words", () => {
  const game = new Game("jungle", "7/3L3/7/7/7/7/7/7/6l w 0 1");
  assert.equal(game.outcome(), null);
  assert.equal(game.status(), "Red to move");
  game.play("d8d9");
  const result = game.outcome();
  assert.equal(result.token, "1-0");
  assert.equal(result.winner, "Red");
  assert.equal(result.text, "Red wins: den entered.");
  assert.equal(game.status(), result.text);
  assert.deepEqual(game.legalMoves(), []);
  throwsMessage(() => game.play("a1a2"), /the game is over/);
});

test("Five Tigers: placements, the phase, hands and removals in the view", () => {
  const game = new Game("five-tigers:ten");
  game.play("c3");
  const view = game.view(false);
  assert.equal(view.game, "five-tigers");
  assert.equal(view.phase, "place");
  assert.deepEqual(view.hands, [9, 10]);
  assert.equal(view.to_move_name, "O");
  assert.equal(view.status, "O to place");
  assert.deepEqual(view.movers, ["first"]);
  assert.deepEqual(view.formed, []);
  assert.ok(view.svg.startsWith("<svg"));
});

test("Five Tigers: the square just formed and who removes, in the view", () => {
  const game = new Game("five-tigers:shandong");
  for (const mv of ["b2", "a5", "b3", "c4", "c2", "e5", "c3", "xc4"]) game.play(mv);
  const view = game.view(false);
  assert.deepEqual(view.formed, ["b2", "c2", "b3", "c3"]);
  assert.deepEqual(view.movers.slice(-2), ["first", "first"]);
});

test("records round-trip in both games", () => {
  for (const [spec, n] of [["jungle:yeshou", 6], ["five-tigers:shandong", 8]]) {
    const game = new Game(spec);
    for (let i = 0; i < n; i++) game.play(game.legalMoves()[i % game.legalMoves().length]);
    const record = game.record();
    assert.match(record, new RegExp(`\\[Game "${spec}"\\]`));
    assert.match(record, /\[Event "qi"\]/);
    assert.match(game.record("club match"), /\[Event "club match"\]/);
    const back = Game.fromRecord(record);
    assert.equal(back.spec(), spec);
    assert.deepEqual(back.moves(), game.moves());
    assert.equal(back.position(), game.position());
    assert.equal(back.record(), record);
  }
  throwsMessage(() => Game.fromRecord("1. a3a4 *\n"), /bad record: the record has no Game tag/);
  throwsMessage(() => Game.fromRecord('[Game "chess"]\n\n*\n'), /bad record: Game tag: unknown game 'chess'/);
});

test("the board is the drawing of qi render", () => {
  const game = new Game("jungle");
  game.play("a3a4");
  const svg = game.svg();
  assert.equal(svg, qi.render("jungle", undefined, ["a3a4"], undefined));
  assert.match(svg, /^<svg/);
  assert.ok(svg.includes("象") && svg.includes("Elephant"));
  const flipped = game.svg({ flip: true, caption: true, selected: "a4", targets: ["a5", "b4"] });
  assert.notEqual(flipped, svg);
  assert.equal(flipped, qi.render("jungle", undefined, ["a3a4"], { flip: true, caption: true, selected: "a4", targets: ["a5", "b4"] }));
  assert.equal(qi.renderRecord(game.record(), 1), svg);
  throwsMessage(() => game.svg({ selected: "z9" }), /'z9' is not a square of the board/);
  throwsMessage(() => game.svg({ flipped: true }), /bad board options: unknown field `flipped`, expected one of flip, caption/);
  throwsMessage(() => qi.render("jungle", undefined, ["a3a4", "a3a4"]), /move 2 'a3a4'/);
});

test("bad input arrives as exceptions with the library's message", () => {
  throwsMessage(() => new Game("chess"), /unknown game 'chess'/);
  throwsMessage(() => new Game("jungle:nosuch"), /nosuch/);
  throwsMessage(() => new Game("jungle", "not a position"), /bad position/);
  throwsMessage(() => new Game("five-tigers", "6/5/5/5/5 x place X:12,O:12 - x -,- 0"), /bad position/);
  const game = new Game("jungle");
  throwsMessage(() => game.play("a9a1"), /move 'a9a1'/);
  throwsMessage(() => game.play("nonsense"), /move 'nonsense'/);
  assert.deepEqual(game.moves(), []);
  throwsMessage(() => game.setOption("Bogus", "1"), /unknown option 'Bogus'/);
  throwsMessage(() => game.setOption("LMR", "yes"), /option 'LMR' takes true or false, not 'yes'/);
  throwsMessage(() => game.setOption("Threads", "2"), /Threads' takes only 1/);
  throwsMessage(() => game.setOption("Hash", "4096"), /Hash' takes a number from 0 to 1024/);
  throwsMessage(() => game.search({ depth: 0 }), /depth must be from 1 to 100, not 0/);
  throwsMessage(() => game.search({ nodes: 0 }), /nodes must be at least 1/);
  throwsMessage(() => game.search({ depht: 3 }), /bad search limits: unknown field `depht`/);
  throwsMessage(() => game.search({ clock: { time: [1, 1], incr: [] } }), /bad search limits: unknown field `incr`/);
  throwsMessage(() => game.search({ depth: "three" }), /bad search limits/);
  // The game still works after every refusal.
  game.play("a3a4");
  assert.equal(game.ply(), 1);
});

test("a search returns a legal move in both games, reporting each iteration", () => {
  for (const spec of ["jungle:standard", "jungle:traditional", "five-tigers:shandong", "five-tigers:ten"]) {
    const game = new Game(spec);
    game.play(game.legalMoves()[3]);
    const depths = [];
    const done = game.search({ depth: 5 }, (info) => {
      depths.push(info.depth);
      assert.ok(info.pv.length >= 1);
      assert.equal(typeof info.score, "string");
    });
    assert.deepEqual(depths, [1, 2, 3, 4, 5], spec);
    assert.ok(game.legalMoves().includes(done.best), `${spec}: ${done.best}`);
    assert.equal(done.info.depth, 5);
    assert.equal(done.info.pv[0], done.best);
    assert.equal(done.stopped, false);
    assert.ok(done.nodes > 0);
  }
});

test("a search keeps to its node and time limits", () => {
  const game = new Game("jungle");
  const byNodes = game.search({ nodes: 5000 });
  assert.ok(byNodes.nodes <= 5000, `${byNodes.nodes}`);
  assert.ok(game.legalMoves().includes(byNodes.best));
  const began = performance.now();
  const byTime = game.search({ movetime: 200 });
  const took = performance.now() - began;
  assert.ok(took < 1500, `${took} ms`);
  assert.ok(game.legalMoves().includes(byTime.best));
  const clocked = game.search({ clock: { time: [2000, 2000] } });
  assert.ok(game.legalMoves().includes(clocked.best));
});

test("a search stops when a callback says so, and still gives a move", () => {
  const game = new Game("five-tigers");
  // The stop is seen within a few thousand nodes: a small iteration may
  // still finish.
  const byInfo = game.search({}, (info) => info.depth >= 3);
  assert.ok(byInfo.info.depth >= 3 && byInfo.info.depth <= 6, `${byInfo.info.depth}`);
  assert.equal(byInfo.stopped, true);
  assert.ok(game.legalMoves().includes(byInfo.best));

  let polls = 0;
  const began = performance.now();
  const byPoll = game.search({ depth: 60 }, undefined, () => ++polls >= 3);
  assert.equal(polls, 3);
  assert.equal(byPoll.stopped, true);
  assert.ok(byPoll.info === null || byPoll.info.depth < 60);
  assert.ok(performance.now() - began < 5000);

  // A flag another thread can raise (a SharedArrayBuffer in a page).
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const byFlag = game.search({ depth: 60 }, (info) => {
    if (info.depth === 2) Atomics.store(flag, 0, 1);
  }, () => Atomics.load(flag, 0) === 1);
  assert.equal(byFlag.stopped, true);
  assert.ok(byFlag.info.depth >= 2 && byFlag.info.depth < 60);
});

test("an exception in a callback ends the search and is thrown again", () => {
  const game = new Game("jungle");
  assert.throws(() => game.search({ depth: 30 }, (info) => {
    if (info.depth === 2) throw new RangeError("enough");
  }), (e) => e instanceof RangeError && e.message === "enough");
  assert.throws(() => game.search({ depth: 30 }, undefined, () => { throw new TypeError("poll"); }),
    (e) => e instanceof TypeError && e.message === "poll");
  // The engine is still usable.
  assert.ok(game.legalMoves().includes(game.search({ depth: 2 }).best));
});

test("options reach the search", () => {
  const tuned = new Game("jungle").search({ depth: 6 });
  const plain = () => {
    const game = new Game("jungle");
    game.setOption("lmr", "false");
    game.setOption("NullMove", "false");
    game.setOption("Hash", "1");
    return game.search({ depth: 6 });
  };
  const [b, c] = [plain(), plain()];
  // The same options search the same tree; without LMR and null moves it
  // is another tree than the tuned one.
  assert.equal(b.nodes, c.nodes);
  assert.notEqual(tuned.nodes, b.nodes);
});

test("the learned evaluation runs in WebAssembly", () => {
  const handGame = new Game("jungle");
  handGame.setOption("EvalProfile", "hand");
  const hand = handGame.search({ depth: 5 });
  const game = new Game("jungle");
  game.setOption("EvalProfile", "nnue");
  const learned = game.search({ depth: 5 });
  assert.ok(game.legalMoves().includes(learned.best));
  assert.notEqual(hand.nodes, learned.nodes);
  throwsMessage(() => new Game("five-tigers").setOption("EvalProfile", "nnue"),
    /five-tigers has no evaluation profile 'nnue'/);
  // The hybrid profile (network and hand-written evaluation mixed).
  const mixedGame = new Game("jungle");
  mixedGame.setOption("EvalProfile", "hybrid");
  const mixed = mixedGame.search({ depth: 5 });
  assert.ok(mixedGame.legalMoves().includes(mixed.best));
  assert.notEqual(mixed.nodes, hand.nodes);
  assert.notEqual(mixed.nodes, learned.nodes);
  throwsMessage(() => new Game("five-tigers").setOption("EvalProfile", "hybrid"),
    /five-tigers has no evaluation profile 'hybrid'/);
  // The default profile is the hybrid in Jungle (it beat the hand-written
  // evaluation).
  assert.equal(new Game("jungle").search({ depth: 5 }).nodes, mixed.nodes);
});

test("a game over has no best move", () => {
  const game = new Game("jungle", "7/3L3/7/7/7/7/7/7/6l w 0 1");
  game.play("d8d9");
  const done = game.search({ depth: 3 });
  assert.equal(done.best, null);
});

test("searchmoves restricts the root: disjoint shares split the position between searches", () => {
  const game = new Game("jungle");
  const legal = game.legalMoves();
  const shares = [legal.filter((_, i) => i % 2 === 0), legal.filter((_, i) => i % 2 === 1)];
  for (const searchmoves of shares) {
    const done = game.search({ depth: 4, searchmoves });
    assert.ok(searchmoves.includes(done.best), `${done.best} is not among ${searchmoves}`);
  }
  game.setMultiPV(3);
  const two = game.search({ depth: 3, searchmoves: legal.slice(0, 2) });
  assert.deepEqual(two.lines.map((l) => l.pv[0]).sort(), legal.slice(0, 2).sort());
  throwsMessage(() => game.search({ depth: 3, searchmoves: ["a1a2", "zz"] }), /move 'zz'/);
  throwsMessage(() => game.search({ depth: 3, searchmoves: ["a1a3"] }), /move 'a1a3'/);
  throwsMessage(() => game.search({ depth: 3, searchmoves: "a1a2" }), /bad search limits/);
});

test("MultiPV gives several lines with scores; a level plays a legal move", () => {
  const game = new Game("five-tigers:shandong");
  game.setMultiPV(3);
  const reports = [];
  const done = game.search({ depth: 4 }, (info) => { reports.push([info.depth, info.multipv]); });
  assert.equal(done.lines.length, 3);
  assert.equal(done.lines[0].pv[0], done.best);
  assert.equal(new Set(done.lines.map((l) => l.pv[0])).size, 3);
  for (const line of done.lines) {
    assert.match(line.score, /^(cp|mate) -?[0-9]+$/);
    assert.equal(line.depth, 4);
    assert.ok(game.legalMoves().includes(line.pv[0]));
  }
  assert.ok(reports.some(([d, k]) => d === 4 && k === 3));
  throwsMessage(() => game.setMultiPV(0), /lines must be an integer from 1 to 256, not 0/);

  const weak = () => {
    const g = new Game("jungle");
    g.setLevel(1);
    g.setOption("Seed", "11");
    return g.search({ depth: 6 });
  };
  const [a, b] = [weak(), weak()];
  assert.equal(a.best, b.best);
  assert.ok(new Game("jungle").legalMoves().includes(a.best));
  throwsMessage(() => new Game("jungle").setLevel(11), /level must be an integer from 1 to 10, not 11/);
  throwsMessage(() => new Game("jungle").setOption("Level", 11), /option 'Level' takes a number from 1 to 10, not '11'/);
  throwsMessage(() => new Game("jungle").setOption("Elo", "x"), /option 'Elo'/);
});
