// The clock and the game review of the JavaScript package: a clock's
// times add up with its increment and it flags a side out of time, its
// errors carry their kinds and fields (and read in Chinese on the page);
// a review marks the move that lets the Wolf into the den as a blunder
// with the capture as the better move, reports its progress and stops
// when asked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import qi, { repo } from "./load.mjs";

const { Clock, Game, review } = qi;
// The page's errors module (a leaf), loaded from its text as
// page-errors.test.mjs does.
const source = readFileSync(path.join(repo, "crates/web/assets/errors.js"), "utf8");
const page = await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`);

function thrown(f) {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), String(e));
    return e;
  }
  assert.fail("accepted");
}

test("a clock adds its increment and flags the side out of time", () => {
  const clock = new Clock("60+5");
  assert.equal(clock.timeControl, "60+5");
  clock.start("first", 1000);
  clock.press(11000);
  let view = clock.view(21000);
  assert.deepEqual(view, { control: "60+5", remaining_ms: [55000, 50000], running: "second", paused: false, flagged: null });
  clock.pause(21000);
  clock.resume(99000);
  assert.equal(clock.check(148999), null);
  assert.equal(clock.check(149000), "second");
  const e = thrown(() => clock.press(150000));
  assert.equal(e.kind, "clock.flagged");
  assert.deepEqual({ ...e.fields }, { side: "second" });
  assert.equal(page.explainErrorData(e, "zh"), "O方超时");
  view = clock.view(200000);
  assert.equal(view.flagged, "second");
  assert.deepEqual(view.remaining_ms, [55000, 0]);
});

test("a clock refuses bad input with kinds and fields", () => {
  const e = thrown(() => new Clock("5+x"));
  assert.equal(e.kind, "clock.time-control");
  assert.equal(e.fields.text, "5+x");
  assert.match(page.explainErrorData(e, "zh"), /不是用时设置/);
  const clock = new Clock("10");
  assert.equal(thrown(() => clock.press(0)).kind, "clock.not-running");
  assert.equal(thrown(() => clock.start("third", 0)).kind, "argument.side");
  assert.equal(thrown(() => clock.start("first", -1)).kind, "argument.range");
  assert.equal(thrown(() => clock.start("first", 0.5)).kind, "argument.range");
  clock.start("first", 100);
  const back = thrown(() => clock.press(50));
  assert.equal(back.kind, "clock.time-went-back");
  assert.deepEqual({ ...back.fields }, { now: 50, last: 100 });
  // The clock still works after its refusals.
  clock.press(200);
  assert.equal(clock.view(200).remaining_ms[0], 9900);
});

const BLUNDER = '[Game "jungle"]\n[Start "l6/7/7/7/7/7/6E/7/1Cw4 w 0 1"]\n\ng3g4 c1d1 0-1\n';

test("a review marks the blunder and the better move, with progress", () => {
  const seen = [];
  const result = review(BLUNDER, { depth: 4 }, (done, total) => {
    seen.push([done, total]);
  });
  assert.deepEqual(seen, [[1, 3], [2, 3], [3, 3]]);
  assert.equal(result.complete, true);
  assert.equal(result.moves[0].judgement, "blunder");
  assert.equal(result.moves[0].played, "g3g4");
  assert.equal(result.moves[0].best, "b1c1");
  assert.equal(result.moves[1].judgement, null);
  assert.equal(result.sides[0].blunders, 1);
  assert.equal(result.positions[2].score, "0-1");
});

test("a review stops when asked and refuses bad budgets", () => {
  const stopped = review(BLUNDER, { depth: 4 }, (done) => done === 1);
  assert.equal(stopped.complete, false);
  assert.equal(stopped.positions.length, 1);
  const flagged = review(BLUNDER, { nodes: 100000000 }, null, () => true);
  assert.equal(flagged.complete, false);
  const e = thrown(() => review(BLUNDER, { nodes: 0 }));
  assert.equal(e.kind, "argument.range");
  const b = thrown(() => review(BLUNDER, { nodes: 1, depth: 1 }));
  assert.equal(b.kind, "argument.type");
  assert.equal(thrown(() => review(BLUNDER, { node: 1 })).kind, "argument.fields");
  assert.equal(thrown(() => review("x")).kind, "record");
  const boom = new Error("boom");
  assert.equal(thrown(() => review(BLUNDER, { depth: 2 }, () => { throw boom; })), boom);
});
