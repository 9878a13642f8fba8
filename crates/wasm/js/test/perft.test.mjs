// The wasm build's perft against the repository's perft suites (the data
// files the native tests check `qi perft` against): both starts, the
// mid-game and hand-built positions of every preset.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";

import qi, { repo } from "./load.mjs";

// Counts above this take seconds each (the native suites check them); every
// case keeps its depths up to here, Five Tigers' empty board to depth 6.
const MAX_COUNT = 150_000_000;

const SUITES = [
  ["jungle", "crates/jungle/tests/data/start.perft"],
  ["jungle", "crates/jungle/tests/data/hand-built.perft"],
  ["jungle", "crates/jungle/tests/data/finished.perft"],
  ["five-tigers", "crates/five-tigers/tests/data/empty-board.perft"],
  ["five-tigers", "crates/five-tigers/tests/data/mid-game.perft"],
  ["five-tigers", "crates/five-tigers/tests/data/hand-written.perft"],
];

/** The cases of a suite file (qi_core::testkit::perft_suite's format). */
function readSuite(file) {
  const cases = [];
  let current = null;
  for (const raw of readFileSync(path.join(repo, file), "utf8").split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [key, ...rest] = line.split(/\s+/);
    const value = line.slice(key.length).trim();
    if (key === "id") cases.push((current = { id: value, perft: [] }));
    else if (key === "rules") current.rules = value;
    else if (key === "position") current.position = value;
    else if (key === "perft") current.perft.push([Number(rest[0]), BigInt(rest[1])]);
    else throw new Error(`${file}: unknown line '${line}'`);
  }
  return cases;
}

for (const [game, file] of SUITES) {
  test(`perft of ${file}`, () => {
    const cases = readSuite(file);
    assert.ok(cases.length > 0);
    let checked = 0;
    for (const c of cases) {
      const g = new qi.Game(`${game}:${c.rules}`, c.position === "start" ? undefined : c.position);
      for (const [depth, count] of c.perft) {
        if (count > MAX_COUNT) continue;
        assert.equal(g.perft(depth), count, `${c.id} depth ${depth}`);
        checked++;
      }
    }
    assert.ok(checked >= cases.length, `${checked} counts checked`);
  });
}

test("the starts reach depth 4 and more", () => {
  // The deepest counts this file checks, named so that a MAX_COUNT cut
  // cannot silently drop them.
  assert.equal(new qi.Game("jungle").perft(4), 260099n);
  assert.equal(new qi.Game("five-tigers").perft(4), 303600n);
  assert.equal(new qi.Game("jungle:datou").perft(3), 12240n);
});
