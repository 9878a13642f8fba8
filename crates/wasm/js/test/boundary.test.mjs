// The boundary with JavaScript: every exported function called with
// hostile values (negative, fractional, NaN, Infinity, huge, past 2^32,
// strings, objects, null, arrays) refuses them with an Error that says
// what is wrong (a kind, fields and a message), never traps the module
// and never wraps a number; the module works as before afterwards.
import { test } from "node:test";
import assert from "node:assert/strict";

import qi from "./load.mjs";

const { Game } = qi;

const HOSTILE = [
  -1, -0.5, 0.5, NaN, Infinity, -Infinity, 1e20, 1e300, 2 ** 32, 2 ** 32 + 1, 2 ** 53 + 2,
  "3", "", "x".repeat(1000), {}, { toString() { return "jungle"; } }, { valueOf() { return 3; } },
  null, [], [3, null, null, null], [1, 2], () => 1, true, 10n, Symbol("s"),
];

/** Asserts that `f` throws a structured Error and not a trap. */
function refused(f, what, kind) {
  let thrown = null;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown !== null, `${what}: accepted`);
  assert.ok(thrown instanceof Error, `${what}: not an Error: ${String(thrown)}`);
  assert.ok(!(thrown instanceof WebAssembly.RuntimeError), `${what}: a trap: ${thrown.message}`);
  assert.equal(typeof thrown.kind, "string", `${what}: no kind (${thrown.message})`);
  assert.equal(typeof thrown.fields, "object", `${what}: no fields`);
  if (kind) assert.match(thrown.kind, kind, `${what}: ${thrown.message}`);
  return thrown;
}

/** Either a result or a structured refusal, but never a trap; returns the
 * error or null. */
function noTrap(f, what) {
  try {
    f();
    return null;
  } catch (e) {
    assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), `${what}: ${e}`);
    assert.equal(typeof e.kind, "string", `${what}: no kind (${e.message})`);
    return e;
  }
}

const show = (v) => {
  try {
    return typeof v === "bigint" ? `${v}n` : typeof v === "symbol" ? v.toString() : JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
};

/** The module still plays, searches, counts and draws. */
function stillWorks() {
  const game = new Game("jungle");
  assert.equal(game.perft(2), 576n);
  game.play("a3a4");
  game.goto(0);
  assert.equal(game.ply(), 0);
  const done = game.search({ depth: 2 });
  assert.ok(game.legalMoves().includes(done.best));
  assert.match(qi.render("five-tigers", null, ["c3"], { caption: true }), /^<svg/);
  assert.equal(qi.canonicalSpec("jungle"), "jungle:standard");
}

test("the named cases: no trap, no wrapping, bad limits refused", () => {
  const game = new Game("jungle");
  game.play("a3a4");
  for (const depth of [-1, 1e9, 100000, 31, 1000, 4294967297, NaN]) {
    const e = refused(() => game.perft(depth), `perft(${depth})`, /^argument\.range$/);
    assert.equal(e.fields.name, "depth");
    assert.equal(e.fields.max, 30);
  }
  assert.equal(refused(() => game.goto(-1), "goto(-1)").message, "ply must be an integer from 0 to 4294967295, not -1");
  refused(() => game.goto(NaN), "goto(NaN)", /^argument\.range$/);
  refused(() => game.goto(1e300), "goto(1e300)", /^argument\.range$/);
  assert.equal(game.ply(), 1, "a refused goto moves nothing");
  const ply = refused(() => game.goto(5), "goto(5)", /^ply$/);
  assert.deepEqual({ ...ply.fields }, { ply: 5, len: 1 });
  refused(() => game.setLevel(1e20), "setLevel(1e20)", /^argument\.range$/);
  refused(() => game.setMultiPV(2 ** 32), "setMultiPV(2**32)", /^argument\.range$/);
  refused(() => new Game(42), "new Game(42)", /^argument\.type$/);
  const e = refused(() => new Game({ toString() { return "jungle"; } }), "new Game({toString})", /^argument\.type$/);
  assert.deepEqual({ ...e.fields }, { name: "spec", expected: "a string", found: "an object" });
  refused(() => game.search([3, null, null, null]), "search([3,null,null,null])", /^argument\.type$/);
  refused(() => game.search([]), "search([])", /^argument\.type$/);
  refused(() => game.search({ depth: 0 }), "search({depth: 0})", /^limits\.depth$/);
  refused(() => game.search({ depth: -1 }), "search({depth: -1})", /^argument\.fields$/);
  refused(() => game.search({ depth: 2 ** 32 + 1 }), "search({depth: 2**32+1})", /^argument\.fields$/);
  refused(() => game.search({ nodes: 1e300 }), "search({nodes: 1e300})", /^argument\.fields$/);
  refused(() => game.search({ depth: 1 }, 42), "search(onInfo: 42)", /^argument\.type$/);
  // Limits that cannot end a search, and no callback to stop it.
  refused(() => game.search({}), "search({})", /^limits\.unbounded$/);
  refused(() => game.search({ nodes: null }), "search({nodes: null})", /^limits\.unbounded$/);
  refused(() => game.search({ clock: { time: [1000, null] } }), "one clock", /^limits\.unbounded$/);
  assert.equal(game.ply(), 1);
  stillWorks();
});

test("errors of the library carry their kind and fields", () => {
  const game = new Game("jungle");
  const move = refused(() => game.play("a9a1"), "play(a9a1)", /^move$/);
  assert.equal(move.fields.text, "a9a1");
  assert.equal(typeof move.fields.reason, "string");
  assert.equal(refused(() => game.undo(), "undo").kind, "nothing-to-undo");
  assert.equal(refused(() => new Game("chess"), "chess").fields.name, "chess");
  refused(() => new Game("jungle", "nonsense"), "position", /^position$/);
  refused(() => Game.fromRecord("[Game \"jungle\"]\n1. a9a1 *"), "record", /^record$/);
  refused(() => game.setOption("Bogus", "1"), "option", /^option$/);
  refused(() => game.svg({ selected: "z9" }), "square", /^square$/);
  refused(() => qi.renderRecord("[Game \"jungle\"]\n1. a3a4 *", 5), "renderRecord ply", /^record\.ply$/);
});

test("every exported function with every hostile value: refused or done, never a trap", () => {
  const game = new Game("five-tigers");
  const integerArgs = {
    perft: (v) => game.perft(v),
    goto: (v) => game.goto(v),
    setLevel: (v) => game.setLevel(v),
    setMultiPV: (v) => game.setMultiPV(v),
  };
  for (const [name, call] of Object.entries(integerArgs)) {
    for (const v of HOSTILE) refused(() => call(v), `${name}(${show(v)})`, /^argument\./);
  }
  // Each argument of each function in turn, the others good.
  // Large but valid limits (2**32 nodes) are taken: the callback ends
  // those searches at once.
  const stop = () => true;
  const calls = {
    "new Game(spec)": (v) => new Game(v),
    "new Game(_, position)": (v) => new Game("jungle", v),
    "Game.fromRecord": (v) => Game.fromRecord(v),
    play: (v) => game.play(v),
    record: (v) => game.record(v),
    view: (v) => game.view(v),
    svg: (v) => game.svg(v),
    "setOption(name)": (v) => game.setOption(v, "1"),
    "setOption(_, value)": (v) => game.setOption("MultiPV", v),
    "search(limits)": (v) => game.search(v === undefined ? { depth: 1 } : v, null, () => true),
    "search(_, onInfo)": (v) => game.search({ depth: 1 }, v),
    "search(_, _, shouldStop)": (v) => game.search({ depth: 1 }, null, v),
    "search({depth})": (v) => game.search({ depth: v }, null, stop),
    "search({nodes})": (v) => game.search({ nodes: v }, null, stop),
    "search({movetime})": (v) => game.search({ movetime: v }, null, stop),
    "search({clock})": (v) => game.search({ depth: 1, clock: v }),
    "search({clock: {time}})": (v) => game.search({ depth: 1, clock: { time: v } }),
    "search({clock: {movestogo}})": (v) => game.search({ depth: 1, clock: { movestogo: v } }),
    canonicalSpec: (v) => qi.canonicalSpec(v),
    "render(spec)": (v) => qi.render(v),
    "render(_, position)": (v) => qi.render("jungle", v),
    "render(_, _, moves)": (v) => qi.render("jungle", null, v),
    "render(_, _, _, options)": (v) => qi.render("jungle", null, null, v),
    "renderRecord(record)": (v) => qi.renderRecord(v),
    "renderRecord(_, ply)": (v) => qi.renderRecord("[Game \"jungle\"]\n1. a3a4 *", v),
    "renderRecord(_, _, options)": (v) => qi.renderRecord("[Game \"jungle\"]\n1. a3a4 *", 0, v),
  };
  let refusals = 0;
  for (const [name, call] of Object.entries(calls)) {
    for (const v of HOSTILE) {
      if (noTrap(() => call(v), `${name}(${show(v)})`)) refusals += 1;
    }
    // A search that a hostile value left unbounded would never return:
    // reaching here is the check that none did.
  }
  assert.ok(refusals > 400, `${refusals} refusals`);
  // The game saw no change from any refused call.
  assert.equal(game.ply(), 0);
  game.free();
  // A freed game is refused by wasm-bindgen's own glue, before any qi
  // code runs (it checks the object's pointer): an Error, no trap, but
  // with wasm-bindgen's message and no kind, which qi cannot add
  // (docs/wasm.md says so). Should wasm-bindgen change that, this tells.
  for (const call of [() => game.ply(), () => game.play("a3a4"), () => game.perft(1), () => game.free()]) {
    assert.throws(call, (e) => {
      assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), String(e));
      assert.equal(e.message, "null pointer passed to rust");
      assert.equal(e.kind, undefined);
      return true;
    });
  }
  stillWorks();
});
