// The page's Chinese errors (crates/web/assets/errors.js) against the
// library's real errors: every error the wasm package throws for bad
// input of the kinds a player can type (a position text, a game spec or
// rule string, a record, a move) is translated by its kind, the reason it
// carries has its code there, with its fields, and the whole reads in
// Chinese with no English left but the player's own input and the
// notation's names. A reason the library gives only in words fails here
// rather than showing English on the Chinese page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import qi, { repo } from "./load.mjs";

const { Game } = qi;
// The page's module (a leaf: it imports nothing), loaded from its text:
// Node reads a .js file outside a "type": "module" package as CommonJS.
const source = readFileSync(path.join(repo, "crates/web/assets/errors.js"), "utf8");
const page = await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`);

// Latin words left once the quoted input and the notation's names are
// taken out.
const NOTATION = /\b(jungle|five-tigers|standard|yeshou|datou|traditional|shandong|shandong-shuttle|ten|deferred|on|off|Game|Start|Result|place|move|w|r|b|X|O|n)\b/g;
function englishIn(zh) {
  return zh.replace(/“[^”]*”/g, "").replace(NOTATION, "").match(/[A-Za-z]{2,}/g);
}

const POSITIONS = [
  ["jungle", "not a position"], ["jungle", "x6/7/7/7/7/7/7/7/7 w 0 1"], ["jungle", "9/7/7/7/7/7/7/7/7 w 0 1"],
  ["jungle", "l5l/7/7/7/7/7/7/7/7 w 0 1"], ["jungle", "7/7/7/7/7/7/7/7/7 w 0 1"], ["jungle", "6l/7/3R3/7/7/7/7/7/6L q 0 1"],
  ["jungle", "6l/7/3R3/7/7/7/7/7/6L"], ["jungle", "6l/7/3R3/7/7/7/7/7/6L w x 1"], ["jungle", "6l/7/3R3/7/7/7/7/7/6L w 0 0"],
  ["jungle", "6l/7/3R3/7/7/7/7/7/6L w 0 1 z"], ["jungle", "6l/7/7/1L5/7/7/7/7/7 w 0 1"], ["jungle", "3l3/7/7/7/7/7/7/7/3L3 w 0 1"],
  ["jungle", "6l/7/3R3/7/7/7/7/7/6L2 w 0 1"],
  ["five-tigers", "not a position"], ["five-tigers", "6/5/5/5/5 x place X:12,O:12 - x -,- 0"],
  ["five-tigers", "5/5/5/5/5 q place X:13,O:13 - x -,- 0"], ["five-tigers", "5/5/5/5/5 x plac X:13,O:13 - x -,- 0"],
  ["five-tigers", "5/5/5/5/5 x place X:14,O:13 - x -,- 0"], ["five-tigers", "5/5/5/5/5 x place X:13,O:13 - x -,- 01"],
  ["five-tigers", "5/5/5/5 x place X:13,O:13 - x -,- 0"], ["five-tigers", "5/5/5/5/5 x place X13,O:13 - x -,- 0"],
];
const SPECS = [
  "chess", "jungle:nosuch", "jungle:standard,bogus=1", "jungle:standard,anti_chase=maybe", "jungle:standard,anti_chase",
  "five-tigers:nosuch", "five-tigers:ten,bogus=1", "five-tigers:ten,pieces_per_side=99", "five-tigers:ten,shuttle",
  "jungle:standard,no_capture_draw=x", "jungle:standard,rank_order=x", "five-tigers:ten,shuttle=maybe",
  "five-tigers:ten,four_diagonal_value=9", "five-tigers:ten,placement_capture=x",
];
const RECORDS = [
  '[Game "jungle"]\n\n1. a3a4 (a3a9) *\n', '[Game "jungle"]\n\n(a3a4) *\n', '[Game "jungle"]\n\n1. a3a4 (b7b6 *\n',
  '[Game "jungle"]\n\n1. a3a4 ) *\n', '[Game "jungle"]\n\n1. a3a4 () *\n', '[Result "*"]\n\n1. a3a4 *\n',
  '[Game "jungle"]\n[Start "6l/7/3R3/7/7/7/7/7/6L w 0 1"]\n[Result "0-1"]\n\nd7d8 g9f9 d8d9 0-1\n',
  '[Game "jungle"]\n[Site x]\n\n*\n', '[Game "jungle"]\n[Site "a\\q"]\n\n*\n', '[Game "jungle"]\n[Site "a" x]\n\n*\n',
  '[Game "jungle"]\n[ "a"]\n\n*\n',
  '[Game "five-tigers"]\n[Start "5/5/5/5/4 x place X:13,O:13 - x -,- 0"]\n\n*\n',
  "1. a3a4 *\n", '[Game "chess"]\n\n*\n', '[Game "jungle"]\n\n1. a3a9 *\n', '[Game "jungle"]\n\n1. zz *\n',
  '[Game "jungle"\n\n1. a3a4 *\n', '[Game "jungle"]\n[Game "jungle"]\n\n*\n', "",
  '[Game "jungle"]\n[Result "2-0"]\n\n*\n', '[Game "jungle"]\n\n1. a3a4 {x *\n', '[Game "jungle"]\n[Start "bad"]\n\n*\n',
  '[Game "five-tigers"]\n\n1. c3 c3 *\n', '[Game "five-tigers"]\n\n1. z9 *\n', '[Game "five-tigers"]\n\n1. a1-c3 *\n',
  '[Game "jungle"]\n\n1. a3a4 } *\n', '[Game "jungle"]\n[Result "1-0"]\n\n1. a3a4 0-1\n', '[Game "jungle"]\n\n* x\n',
  "[Game jungle]\n\n*\n", '[Game "jungle"]\n\n{c} 1. a3a4 *\n', '[Game "jungle"]\n\n1. a3a3 *\n',
];
const JUNGLE_MOVES = ["a9a1", "nonsense", "a3a3", "z3a4", "a3z4", "a3a0", "a3aa"];
const FIVE_TIGERS_MOVES = ["", "z9", "a1-c3", "xc3", "a1-a2", "c3"];

// The errors thrown, as the page gets them: {kind, fields, message}.
function errors() {
  const all = [];
  for (const [spec, text] of POSITIONS) all.push(thrownError(() => new Game(spec, text)));
  for (const spec of SPECS) all.push(thrownError(() => new Game(spec)));
  for (const record of RECORDS) all.push(thrownError(() => Game.fromRecord(record)));
  const jungle = new Game("jungle");
  for (const mv of JUNGLE_MOVES) all.push(thrownError(() => jungle.play(mv)));
  const tigers = new Game("five-tigers");
  tigers.play("c3");
  for (const mv of FIVE_TIGERS_MOVES) all.push(thrownError(() => tigers.play(mv)));
  return all.map((e) => ({ kind: e.kind, fields: e.fields, message: e.message }));
}

test("every error of bad input has a kind on the page and reads in Chinese", () => {
  for (const error of errors()) {
    const unknown = [];
    const zh = page.explainErrorData(error, "zh", unknown);
    assert.ok(zh !== null, `no kind for: ${error.message}`);
    assert.deepEqual(unknown, [], `parts of no kind in: ${error.message}`);
    assert.equal(englishIn(zh), null, `English left in "${zh}" (from "${error.message}")`);
  }
});

test("every error of bad input carries its reason as a code, not only as words", () => {
  // The page reads no message: each error has its kind, and each reason
  // (a position's, a record's, a move's, a rule string's) its cause.
  for (const error of errors()) {
    assert.equal(typeof error.kind, "string", error.message);
    if ("reason" in error.fields) assert.equal(typeof error.fields.cause?.code, "string", `no cause: ${error.message}`);
    // Said from the fields: a message in other words reads the same.
    const zh = page.explainErrorData(error, "zh");
    assert.equal(page.explainErrorData({ ...error, message: "anything", fields: { ...error.fields, reason: "anything" } }, "zh"), zh);
  }
});

test("the structured form: a kind, the fields it names, and the cause as a code", () => {
  const position = thrownError(() => new Game("jungle", "x6/7/7/7/7/7/7/7/7 w 0 1"));
  assert.deepEqual([position.kind, position.fields.reason], ["position", "unknown piece letter 'x' at rank 9"]);
  assert.deepEqual(position.fields.cause, { code: "jfen.unknown-piece", fields: { letter: "x", rank: 9 } });
  assert.deepEqual(thrownError(() => new Game("five-tigers", "5/5/5/5/5 q place X:13,O:13 - x -,- 0")).fields.cause, {
    code: "ft-text.bad-char",
    fields: { field: "to-move", ch: "q" },
  });
  assert.deepEqual(thrownError(() => new Game("jungle:standard,anti_chase=maybe")).fields.cause, {
    code: "jungle-rules.bad-value",
    fields: { option: "anti_chase", value: "maybe", expected: { kind: "names", names: ["on", "off"] } },
  });
  assert.deepEqual(thrownError(() => new Game("five-tigers:ten,pieces_per_side=99")).fields.cause, {
    code: "ft-rules.bad-value",
    fields: { option: "pieces_per_side", value: "99", allowed: { kind: "range", min: 1, max: 13 } },
  });
  // A record's syntax: where, and what is wrong there.
  const place = thrownError(() => Game.fromRecord('[Game "jungle"]\n\n1. a3a4 {x *\n'));
  assert.deepEqual(place.fields.cause, {
    code: "record.syntax",
    fields: { line: 3, column: 9, error: { code: "record-text.unterminated-comment" } },
  });
  assert.equal(page.explainErrorData(place, "zh"), "棋谱有误：第3行第9列：注释没有结束（缺少“}”）");
  // A Five Tigers field's reason.
  const rank = thrownError(() => new Game("five-tigers", "5/5/5/5/4 x place X:13,O:13 - x -,- 0"));
  assert.deepEqual(rank.fields.cause, {
    code: "ft-text.invalid",
    fields: { field: "board", reason: { code: "ft-field.rank-width", fields: { rank: 1, points: 4 } } },
  });
  assert.equal(page.explainErrorData(rank, "zh"), "局面文本有误：棋盘字段：第1行有4个点，应为5个");
  // A bad move in a variation.
  const variation = thrownError(() => Game.fromRecord('[Game "jungle"]\n\n1. a3a4 (a3a9) *\n'));
  assert.deepEqual(variation.fields.cause, {
    code: "record.variation-move",
    fields: { text: "a3a9", reason: { code: "refusal.not-legal" } },
  });
  assert.equal(page.explainErrorData(variation, "zh"), "棋谱有误：变着中的着法“a3a9”：此局面下不是合法着法");
  assert.deepEqual(thrownError(() => Game.fromRecord('[Game "jungle"]\n\n1. a3a4 a3a9 *\n')).fields.cause, {
    code: "record.illegal-move",
    fields: { number: 2, text: "a3a9", reason: { code: "refusal.not-legal" } },
  });
  assert.equal(page.explainErrorData({ kind: "no such kind", fields: {}, message: "a message of no kind" }, "zh"), null);
});

test("what a rule option takes is said from its typed description", () => {
  // Names quoted as text to type, two numbers as a choice, more as a
  // range, and a number of plies: none read from the English message.
  const said = {
    "jungle:standard,anti_chase=maybe": "（可选：“on”、“off”）",
    "jungle:standard,rank_order=x": "（可选：“wolf_over_dog”、“dog_over_wolf”）",
    "jungle:standard,no_capture_draw=x": "（可选：步数（0 表示不限））",
    "five-tigers:ten,pieces_per_side=99": "（允许：1 到 13）",
    "five-tigers:ten,four_diagonal_value=9": "（允许：3 或 4）",
    "five-tigers:ten,shuttle=maybe": "（允许：“allowed”、“forbidden”）",
  };
  for (const [spec, words] of Object.entries(said)) {
    const e = thrownError(() => new Game(spec));
    const zh = page.explainErrorData({ ...e, message: "anything" }, "zh");
    assert.ok(zh.endsWith(words), `${spec}: "${zh}" does not end with "${words}"`);
  }
});

test("the page's words keep the input they quote, whole", () => {
  const e = thrownError(() => new Game("jungle", "6l/7/3R3/7/7/7/7/7/6L w 0 1 ab'c"));
  assert.equal(page.explainErrorData({ kind: e.kind, fields: e.fields, message: e.message }, "zh"), "局面文本有误：回合数之后多了字段“ab'c”");
});

function thrownError(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail("no error");
}

test("errors that arrive with their kind are translated from their fields", () => {
  const game = new Game("jungle");
  game.play("a3a4");
  const structured = [
    thrownError(() => game.goto(-1)),
    thrownError(() => game.perft(31)),
    thrownError(() => new Game(42)),
    thrownError(() => game.search([])),
    thrownError(() => game.search({ depth: 0 })),
    thrownError(() => game.search({})),
    thrownError(() => game.goto(5)),
    thrownError(() => new Game("jungle").undo()),
    thrownError(() => game.play("a9a1")),
    thrownError(() => new Game("chess")),
    thrownError(() => new Game("jungle", "x6/7/7/7/7/7/7/7/7 w 0 1")),
    thrownError(() => Game.fromRecord('[Game "jungle"]\n\n1. a3a4 a3a9 *\n')),
    thrownError(() => game.svg({ selected: "z9" })),
    thrownError(() => new qi.Clock("10").start("third", 0)),
    thrownError(() => {
      const clock = new qi.Clock("10");
      clock.start("first", 100);
      clock.press(50);
    }),
  ];
  for (const e of structured) {
    assert.equal(typeof e.kind, "string", e.message);
    const unknown = [];
    const zh = page.explainErrorData({ kind: e.kind, fields: e.fields, message: e.message }, "zh", unknown);
    assert.ok(zh !== null, `no words for ${e.kind}: ${e.message}`);
    assert.deepEqual(unknown, [], `parts of no kind in: ${e.message}`);
    assert.equal(englishIn(zh.replace(/参数 \w+/, "")), null, `English left in "${zh}" (from "${e.message}")`);
  }
  // Kinds whose reason is the library's own words (an engine option's, a
  // field serde names), said within the Chinese.
  for (const [e, words] of [
    [thrownError(() => game.setOption("NoSuchOption", 1)), /^引擎选项有误：/],
    [thrownError(() => game.search({ depht: 3 })), /^搜索限制有误：unknown field `depht`/],
  ]) {
    assert.match(page.explainErrorData({ kind: e.kind, fields: e.fields, message: e.message }, "zh") || "", words, e.message);
  }
  // By the fields, not the message: a message in other words reads the same.
  const e = thrownError(() => game.goto(7));
  assert.equal(page.explainErrorData({ kind: e.kind, fields: e.fields, message: "anything" }, "zh"), "第7步不在对局中（0 到 1）");
  assert.equal(
    page.explainErrorData({ kind: "argument.range", fields: { name: "ply", min: 0, max: 9, value: "-1" }, message: "" }, "zh"),
    "参数 ply 应为 0 到 9 的整数，而不是 -1",
  );
});

// The library's errors as data: every code it has (the list its Rust test
// writes, one example each) has Chinese words on the page, said from the
// fields with no English left and no part unknown.
const CODES = JSON.parse(readFileSync(path.join(repo, "crates/wasm/js/test/error-codes.json"), "utf8"));

test("every code of the library's errors has Chinese words on the page", () => {
  assert.ok(CODES.length > 80, `${CODES.length} codes`);
  for (const example of CODES) {
    assert.ok(page.causeHasWords(example.code), `no words for the code ${example.code}`);
    const { message, ...cause } = example;
    const unknown = [];
    const zh = page.explainErrorData({ kind: "position", fields: { reason: message, cause }, message }, "zh", unknown);
    assert.deepEqual(unknown, [], `parts of no code in: ${message}`);
    assert.equal(englishIn(zh), null, `English left in "${zh}" (from ${example.code})`);
  }
});

test("a refused move and a bad position are said by their code: in Chinese in zh, the library's English in en", () => {
  const game = new Game("jungle");
  const refused = thrownError(() => game.play("a3a5"));
  assert.deepEqual(refused.fields.cause, { code: "refusal.not-legal" });
  // The code, not the words: a reason in other words reads the same.
  const data = { kind: refused.kind, fields: { ...refused.fields, reason: "anything" }, message: refused.message };
  assert.equal(page.explainErrorData(data, "zh"), "着法“a3a5”不能走：此局面下不是合法着法");
  assert.equal(page.explainErrorData(data, "en"), null);
  assert.equal(refused.message, "move 'a3a5': not a legal move in this position");
  const bad = thrownError(() => new Game("five-tigers", "5/5/5/5/5 q place X:13,O:13 - x -,- 0"));
  assert.deepEqual(bad.fields.cause, { code: "ft-text.bad-char", fields: { field: "to-move", ch: "q" } });
  assert.equal(page.explainErrorData(bad, "zh"), "局面文本有误：走棋方字段：不该有的字符“q”");
  const tigers = new Game("five-tigers");
  tigers.play("c3");
  const occupied = thrownError(() => tigers.play("c3"));
  assert.equal(page.explainErrorData({ ...occupied, fields: { ...occupied.fields, reason: "" } }, "zh"), "着法“c3”不能走：这个点上已有棋子");
});
