// Browser tests of `qi serve`: Playwright (playwright-core) drives Debian's
// chromium, headless, against a server already running at QI_URL. Each
// test opens the page in a fresh browser context (so a fresh session) and
// saves a screenshot under SHOTS (target/web-tests by default).
//
//   QI_URL=http://127.0.0.1:PORT/ node run.mjs [name-filter]
//
// With QI_STATIC=1, QI_URL is a plain file server of the static site
// (scripts/export-site.sh): the same tests run against the page's in-page
// backend, with the static site's own (a full game against the engine,
// reload while it thinks, nothing fetched from elsewhere) instead of the
// server's.

import { chromium } from "playwright-core";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const BASE = process.env.QI_URL || "http://127.0.0.1:8080/";
const SHOTS = process.env.SHOTS || "target/web-tests";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const filter = process.argv[2] || "";
const STATIC = process.env.QI_STATIC === "1";
mkdirSync(SHOTS, { recursive: true });

function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function open(browser, viewport, locale) {
  const phone = viewport && viewport.width < 600;
  const context = await browser.newContext({
    viewport: viewport || { width: 1100, height: 900 },
    locale: locale || "en-US",
    hasTouch: !!phone,
    isMobile: !!phone,
    colorScheme: schemes[currentTest] || "light",
  });
  if (inits[currentTest]) await context.addInitScript(inits[currentTest]);
  // Playwright's clock in place of the page's timers and time, so that a
  // test runs a clock down at once (on the static site, whose clock is
  // the page's own).
  if (STATIC && fakeClocks.has(currentTest)) await context.clock.install();
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const log = [];
  page.on("response", (r) => log.push(`${r.request().method()} ${r.url().replace(/^.*?\/api/, "/api")} ${r.status()}`));
  page.log = log;
  // Every request of the page, to check that it loads nothing from
  // elsewhere.
  const urls = [];
  page.on("request", (r) => urls.push(r.url()));
  page.urls = urls;
  page.on("console", (m) => log.push(`console ${m.text()}`));
  await page.goto(BASE);
  await page.waitForSelector("body[data-ready='1']");
  return { context, page, errors };
}

const text = (page, selector) => page.locator(selector).innerText();
const moveCount = (page) => page.locator("#moves button[data-ply]").count();
const MOVES = "#moves button[data-ply]";

async function waitForText(page, selector, expected) {
  await page.waitForFunction(
    ([s, e]) => document.querySelector(s) && document.querySelector(s).textContent.includes(e),
    [selector, expected],
  );
}

async function clickSq(page, sq) {
  // The board ignores a click while a move is being sent (it takes the
  // next one on the server's answer): wait for that, as a player does.
  await page.waitForFunction(() => !__qiTest.state.busy);
  // A piece's group when one stands there, otherwise the square itself.
  const piece = page.locator(`#board .piece[data-sq="${sq}"]`);
  if (await piece.count()) {
    await piece.click();
  } else {
    await page.locator(`#board .sq[data-sq="${sq}"]`).click();
  }
}

// Whether the page would take a move from the player now.
const clickable = (page) => page.evaluate(() => __qiTest.humanToMove());

// The full engine (level 10; a first visit plays at level 3) with `ms` per
// move: the time per move is shown at level 10 only.
async function fullEngine(page, ms) {
  await page.selectOption("#level", "10");
  await page.selectOption("#movetime", ms);
}

async function setMode(page, mode) {
  await page.selectOption("#mode", mode);
}

async function chooseGame(page, spec) {
  await page.selectOption("#game-select", spec);
  await page.waitForFunction((s) => document.querySelector("#position-text").value !== "" &&
    document.body.dataset.game === s.split(":")[0], spec);
}

// A new game from the dialog: who plays, and on which clock ("" none).
async function newGameOnClock(page, side, control) {
  await page.click("#new-game");
  await page.selectOption("#nd-side", side);
  await page.selectOption("#nd-clock", control);
  await page.click("#nd-start");
  await page.waitForFunction((c) => (__qiTest.state.view.clock || {}).control === c, control);
}

const clockOf = (page) => page.evaluate(() => __qiTest.state.view.clock);

// Bad text typed into the page: a position to set up, a record to load.
async function setUpText(page, position) {
  await page.fill("#setup-text", position);
  await page.click("#setup");
}

async function loadRecordText(page, record) {
  await page.fill("#record-text", record);
  await page.click("#load-record");
}

// A Jungle record of `moves` loaded, once its moves are listed.
async function loadLine(page, moves) {
  await loadRecordText(page, `[Game "jungle:standard"]\n\n${moves} *\n`);
  const n = moves.split(" ").length;
  await page.waitForFunction((n) => document.querySelectorAll("#moves button[data-ply]").length === n, n);
}

// The server's answers to navigation steps (`goto`) held back 300 ms, as
// from a slow backend (not on the static site, whose backend is the
// page's own); `settled()` waits until every step sent is answered.
async function slowGotos(page) {
  const gotos = { sent: 0, answered: 0 };
  if (!STATIC) {
    await page.route("**/goto", async (route) => {
      gotos.sent += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    page.on("response", (r) => { if (r.url().endsWith("/goto")) gotos.answered += 1; });
  }
  return {
    async settled() {
      while (gotos.answered < gotos.sent) await page.waitForTimeout(50);
    },
  };
}

// The error the page shows, once it shows one; then closed.
async function shownError(page) {
  await page.waitForFunction(() => !document.getElementById("error").hidden && document.getElementById("error").textContent !== "");
  const said = await text(page, "#error");
  await page.evaluate(() => __qiTest.showError(null));
  return said;
}

const tests = {
  async "jungle opening by clicks, the engine answers"(page) {
    await fullEngine(page, "200");
    await setMode(page, "first");
    check((await text(page, "#status")) === "Red to move", "Red starts");
    await clickSq(page, "a3");
    // The selection shows the legal destinations.
    await page.waitForSelector("#board .overlay.target");
    const targets = await page.locator("#board .overlay.target").count();
    check(targets === 3, `the Elephant on a3 has 3 moves, shown ${targets}`);
    await clickSq(page, "a4");
    // The engine answers as Blue.
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 2);
    await waitForText(page, "#status", "Red to move");
    const first = await page.locator(MOVES).first().getAttribute("data-move");
    check(first === "a3a4", `first move a3a4, got ${first}`);
    // A second move, by dragging the Tiger a1 to a2.
    const from = await page.locator('#board .piece[data-sq="a1"]').boundingBox();
    const to = await page.locator('#board .sq[data-sq="a2"]').boundingBox();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 4);
    const third = await page.locator(MOVES).nth(2).getAttribute("data-move");
    check(third === "a1a2", `the drag played a1a2, got ${third}`);
    check((await page.locator("#board .last").count()) === 2, "the engine's last move is highlighted");
  },

  async "five tigers placement forms a square, then the removal"(page) {
    await setMode(page, "human");
    await chooseGame(page, "five-tigers:shandong");
    check((await text(page, "#status")) === "X to place", "X places first");
    const example = await page.getAttribute("#record-text", "placeholder");
    check(example.startsWith('[Game "five-tigers:shandong"] ...'), `the record's example follows the game: ${example}`);
    for (const sq of ["b2", "a5", "b3", "c4", "c2", "e5", "c3"]) {
      const before = await moveCount(page);
      await clickSq(page, sq);
      await page.waitForFunction((n) => document.querySelectorAll("#moves button[data-ply]").length === n + 1, before);
    }
    await waitForText(page, "#status", "X must remove 1 of O's pieces");
    const removal = await text(page, "#removal");
    check(removal.includes("X takes 1 more piece"), `the removal is shown: ${removal}`);
    await page.screenshot({ path: join(SHOTS, "five-tigers-removal-owed.png") });
    await clickSq(page, "c4");
    await waitForText(page, "#status", "O to place");
    check((await page.locator('#board .piece[data-sq="c4"]').count()) === 0, "c4 was removed");
    const last = await page.locator(MOVES).last().getAttribute("data-move");
    check(last === "xc4", `the removal is in the move list: ${last}`);
  },

  async "five tigers movement: a step by click"(page) {
    await setMode(page, "human");
    await chooseGame(page, "five-tigers:ten");
    const text = "OXOX1/OXOO1/1XXO1/1XXOX/1OXOX o move X:0,O:0 - o -,- 0";
    await page.fill("#setup-text", text);
    await page.click("#setup");
    // The position's text names its rules when they are not Shandong.
    await page.waitForFunction((t) => document.querySelector("#position-text").value === t, `${text} five-tigers:ten`);
    await waitForText(page, "#status", "O to step");
    await clickSq(page, "b1");
    await page.waitForSelector("#board .overlay.target");
    check((await page.locator("#board .overlay.target").count()) === 1, "b1 steps to a1 only");
    await clickSq(page, "a1");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 1);
    const step = await page.locator(MOVES).first().getAttribute("data-move");
    check(step === "b1-a1", `the step b1-a1, got ${step}`);
    check((await page.locator('#board .piece[data-sq="a1"][data-side="second"]').count()) === 1, "O stands on a1");
  },

  async "the analysis panel updates and stops"(page) {
    await setMode(page, "human");
    await page.click("#analyse");
    await page.waitForFunction(() => Number(document.querySelector("#an-depth").textContent) >= 3);
    const nodes = await text(page, "#an-nodes");
    const nps = await text(page, "#an-nps");
    const pv = await text(page, "#an-pv");
    const score = await text(page, "#an-score");
    check(/^[0-9,]+$/.test(nodes) && nodes !== "0", `nodes ${nodes}`);
    check(/^[0-9,]+$/.test(nps), `nodes/s ${nps}`);
    check(/^[a-g][1-9][a-g][1-9]/.test(pv), `a principal variation: ${pv}`);
    check(/^[+-][0-9]+\.[0-9]{2}$|wins in/.test(score), `a score: ${score}`);
    const depth = Number(await text(page, "#an-depth"));
    await page.waitForFunction((d) => Number(document.querySelector("#an-depth").textContent) > d, depth);
    check((await page.locator("#an-lines li").count()) >= 2, "one line per iteration");
    check((await text(page, "#analyse")) === "Stop", "the button stops");
    await page.click("#analyse");
    await waitForText(page, "#an-state", "stopped");
    check((await text(page, "#analyse")) === "Analyse", "the button starts again");
    check((await moveCount(page)) === 0, "analysis plays no move");
    // A move empties the panel: its figures were about the position before.
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 1);
    check((await text(page, "#an-depth")) === "–", `no depth of the old position: ${await text(page, "#an-depth")}`);
    check((await page.locator("#an-lines li").count()) === 0, "no lines of the old position");
    check((await text(page, "#an-state")) === "idle", "idle");
  },

  async "several lines of analysis (MultiPV)"(page) {
    await setMode(page, "human");
    await page.selectOption("#an-multipv", "3");
    // Every state the list passes through, not only the one read below:
    // each line arrives on its own, and a list mixing two iterations once
    // showed one move twice.
    await page.evaluate(() => {
      window.multiStates = [];
      const list = document.querySelector("#an-multi");
      new MutationObserver(() => {
        window.multiStates.push([...list.children].map((li) => li.textContent));
      }).observe(list, { childList: true, subtree: true, characterData: true });
    });
    await page.click("#analyse");
    await page.waitForFunction(() => Number(document.querySelector("#an-depth").textContent) >= 4);
    // Read in one step: the lines are rewritten as each iteration ends.
    const lines = await (await page.waitForFunction(() => {
      const items = [...document.querySelectorAll("#an-multi li")].map((li) => li.textContent);
      return items.length === 3 && items.every((t) => t !== "") ? items : null;
    })).jsonValue();
    const firsts = lines.map((l) => l.split(" ").find((w) => /^[a-g][1-9][a-g][1-9]$/.test(w)));
    check(firsts.every(Boolean), `each line has a move: ${lines.join(" | ")}`);
    check(new Set(firsts).size === 3, `three different moves: ${firsts.join(" ")}`);
    const states = await page.evaluate(() => window.multiStates);
    check(states.length >= 6, `the list was rewritten as the search went: ${states.length} states`);
    for (const state of states) {
      const moves = state.map((l) => l.split(" ").find((w) => /^[a-g][1-9][a-g][1-9]$/.test(w)));
      check(new Set(moves).size === moves.length, `no move shown twice: ${state.join(" | ")}`);
    }
    await page.click("#analyse");
    await waitForText(page, "#an-state", "stopped");
    check((await moveCount(page)) === 0, "analysis plays no move");
  },

  async "load a record and step through it"(page) {
    await setMode(page, "human");
    const record = [
      '[Event "browser test"]',
      '[Game "jungle:standard"]',
      '[Result "*"]',
      "",
      "a3a4 g7g6 c3d3 {a comment} a7a6 *",
      "",
    ].join("\n");
    await page.fill("#record-text", record);
    await page.click("#load-record");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 4);
    const end = await page.inputValue("#position-text");
    check(end === "l5t/1d3c1/2p1w2/r5e/7/E6/3WP1R/1C3D1/T5L w 4 3", `the end: ${end}`);
    await page.click("#nav-first");
    await page.waitForFunction(() => document.querySelector("#position-text").value.startsWith("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R"));
    check(await page.locator("#nav-back").isDisabled(), "no move before the first");
    await page.click("#nav-forward");
    await page.click("#nav-forward");
    await page.waitForFunction(() => document.querySelector("#moves .current") &&
      document.querySelector("#moves .current").dataset.ply === "2");
    check((await page.inputValue("#position-text")).endsWith(" w 2 2"), "after two moves, Red to move");
    await page.click('#moves button[data-ply="3"]');
    await page.waitForFunction(() => document.querySelector("#moves .current").dataset.ply === "3");
    check((await text(page, "#status")) === "Blue to move", "after c3d3, Blue to move");
    await page.click("#nav-last");
    await page.waitForFunction(() => document.querySelector("#moves .current").dataset.ply === "4");
    // Saving gives the record back.
    await page.fill("#record-text", "");
    await page.click("#save-record");
    await page.waitForFunction(() => document.querySelector("#record-text").value.includes("a3a4 g7g6 c3d3 a7a6"));
    // A bad record is refused with a message, and the game is kept.
    await page.fill("#record-text", "[Game \"jungle\"]\n\na3a5 *\n");
    await page.click("#load-record");
    await waitForText(page, "#error", "bad record");
    check((await moveCount(page)) === 4, "the game is kept");
  },

  // Steps faster than the backend answers (two quick clicks, a held arrow
  // key; here each of the server's answers held back): each step goes on
  // from where the one before it goes, and the page and the backend end
  // where the last one asked.
  async "navigation: quick steps are each a move, however slow the backend"(page) {
    const gotos = await slowGotos(page);
    await loadLine(page, "a3a4 g7g6 c3d3 a7a6");
    for (const step of ["#nav-first", "#nav-forward", "#nav-forward", "#nav-forward", "#nav-back"]) {
      await page.click(step);
    }
    await page.waitForFunction(() => __qiTest.state.navigating == null);
    await gotos.settled();
    const view = await page.evaluate(() => __qiTest.state.view);
    check(view.ply === 2, `three steps forward and one back show ply 2, not ${view.ply}`);
    check((await page.inputValue("#position-text")).endsWith(" w 2 2"), "after two moves, Red to move");
    check(await page.evaluate(() => document.querySelector("#moves .current").dataset.ply) === "2", "the move list's current move");
    const held = await page.evaluate(() => __qiTest.backend.view());
    check(held.ply === 2, `the backend's own view at ply 2, not ${held.ply}`);
  },
  async "navigation: steps still queued are dropped when a record loads"(page) {
    const gotos = await slowGotos(page);
    await loadLine(page, "a3a4 g7g6 c3d3 a7a6");
    for (const step of ["#nav-first", "#nav-forward", "#nav-forward", "#nav-forward"]) {
      await page.click(step);
    }
    // Two moves, shown at their end: no step of the old line may move it.
    await loadLine(page, "g3g4 a7a6");
    // A step sent late would be answered within the hold.
    await gotos.settled();
    await page.waitForTimeout(400);
    await gotos.settled();
    const view = await page.evaluate(() => __qiTest.state.view);
    check(view.moves.join(" ") === "g3g4 a7a6", `the loaded record shown, not ${view.moves.join(" ")}`);
    check(view.ply === 2, `the loaded record at its end, ply 2, not ${view.ply}`);
    check(await page.evaluate(() => document.getElementById("error").hidden || document.getElementById("error").textContent === ""), "no error");
    const held = await page.evaluate(() => __qiTest.backend.view());
    check(held.ply === 2, `the backend's own view at ply 2, not ${held.ply}`);
  },
  async "a game ends with its reason"(page) {
    await setMode(page, "human");
    await page.fill("#setup-text", "6l/3R3/7/7/7/7/7/7/6L w 0 1");
    await page.click("#setup");
    await page.waitForFunction(() => document.querySelector("#position-text").value === "6l/3R3/7/7/7/7/7/7/6L w 0 1");
    await clickSq(page, "d8");
    await clickSq(page, "d9");
    await waitForText(page, "#status", "Red wins: den entered.");
    check(await page.locator("#engine-move").isDisabled(), "no engine move after the end");
    // The result dialog says it too, with a rematch.
    await page.waitForSelector("#result-dialog[open]");
    await waitForText(page, "#result-text", "Red wins: den entered.");
    await page.click("#result-close");
    // Bad position text is refused with a message.
    await page.fill("#setup-text", "not a position");
    await page.click("#setup");
    await waitForText(page, "#error", "bad position");
    await waitForText(page, "#status", "Red wins: den entered.");
  },

  async "five tigers against the engine, which answers a placement"(page) {
    await fullEngine(page, "200");
    await setMode(page, "first");
    await chooseGame(page, "five-tigers:ten");
    await clickSq(page, "c3");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 2);
    await waitForText(page, "#status", "X to place");
  },

  async "two tabs, two games"(page) {
    await setMode(page, "human");
    const other = await page.context().newPage();
    await other.goto(BASE);
    await other.waitForSelector("body[data-ready='1']");
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 1);
    // A reload keeps the tab's own game, untouched by the other tab.
    await other.reload();
    await other.waitForSelector("body[data-ready='1']");
    check((await moveCount(other)) === 0, "the other tab's game has no move");
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    check((await moveCount(page)) === 1, "a reload keeps the tab's game");
    await other.close();
  },

  async "defect 1: a move on a phone does not scroll the window"(page) {
    await setMode(page, "human");
    const plies = [["a3", "a4"], ["g7", "g6"], ["c3", "d3"], ["a7", "a6"]];
    for (const [i, [from, to]] of plies.entries()) {
      await clickSq(page, from);
      await clickSq(page, to);
      await page.waitForFunction((n) => document.querySelectorAll("#moves button[data-ply]").length === n, i + 1);
      const y = await page.evaluate(() => window.scrollY);
      check(y === 0, `move ${i + 1} scrolled the window to ${y}`);
    }
    const status = await page.locator("#status").boundingBox();
    check(status.y >= 0 && status.y < 200, `the status stays in view (${status.y})`);
  },

  async "defect 2: reload while the engine thinks, its move arrives"(page) {
    await fullEngine(page, "3000");
    await setMode(page, "first");
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await waitForText(page, "#status", "thinking");
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    const first = await page.locator(MOVES).first().getAttribute("data-move");
    check(first === "a3a4", `the move is kept: ${first}`);
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 2, null, { timeout: 15000 });
    await waitForText(page, "#status", "Red to move");
    // The page is live: a click plays.
    await page.selectOption("#movetime", "200");
    await humanMove(page, (legal) => legal[0]);
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 4);
  },

  async "defect 3: you play second, and the mode and engine time survive a reload"(page) {
    await fullEngine(page, "200");
    await page.click("#new-game");
    await page.selectOption("#nd-side", "second");
    await page.click("#nd-start");
    // The engine opens as Red; the board turns to Blue.
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 1);
    await waitForText(page, "#status", "Blue to move");
    check(await page.evaluate(() => __qiTest.state.view.flip), "the board is drawn from Blue");
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    check((await page.inputValue("#mode")) === "second", "the mode is kept");
    check((await page.inputValue("#movetime")) === "200", "the engine time is kept");
    await waitForText(page, "#status", "Blue to move");
    await humanMove(page, (legal) => legal[0]);
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 3);
    await waitForText(page, "#status", "Blue to move");
    // A reload when it is the engine's turn: it moves. (Blue's move is
    // played as two players, and the mode is saved as "second" behind
    // the page's back, so the engine has not answered before the reload.)
    await page.selectOption("#mode", "human");
    await humanMove(page, (legal) => legal[0]);
    await page.evaluate(() => {
      const settings = JSON.parse(localStorage.getItem("qi-settings"));
      localStorage.setItem("qi-settings", JSON.stringify({ ...settings, mode: "second" }));
    });
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 5);
    await waitForText(page, "#status", "Blue to move");
  },

  async "defect 4: takeback against the engine in both games, removals included"(page) {
    await fullEngine(page, "200");
    await setMode(page, "first");
    // Jungle: the player's move and the engine's reply.
    await humanMove(page, (legal) => legal.find((m) => m === "a3a4"));
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 2);
    await page.waitForFunction(() => !__qiTest.state.thinking);
    await page.click("#undo");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 0);
    await waitForText(page, "#status", "Red to move");
    // Five Tigers: O has three points of a square; X places c3 and so
    // threatens the same missing point, d3; O takes it, completing its
    // square, and removes: three plies, of which two are the engine's.
    await setMode(page, "human");
    await chooseGame(page, "five-tigers:shandong");
    const text = "X4/3OO/4O/2XX1/5 x place X:10,O:10 - x -,- 0";
    await page.fill("#setup-text", text);
    await page.click("#setup");
    await page.waitForFunction((t) => document.querySelector("#position-text").value === t, text);
    await page.selectOption("#mode", "first");
    await clickSq(page, "c3");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length >= 3 && !__qiTest.state.thinking);
    const movers = await page.evaluate(() => __qiTest.state.view.movers.join(" "));
    check(movers === "first second second", `X placed, O placed and removed: ${movers}`);
    await page.screenshot({ path: join(SHOTS, "five-tigers-engine-removed.png") });
    await page.click("#undo");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 0);
    await waitForText(page, "#status", "X to place");
    check((await page.inputValue("#position-text")) === text, "back to the position before X's placement");
    check(!(await page.evaluate(() => __qiTest.state.thinking)), "the engine does not move: it is X's turn");
    // Two players: a takeback undoes one ply, a removal included.
    await page.selectOption("#mode", "human");
    await clickSq(page, "c3");
    await clickSq(page, "d3");
    await page.waitForFunction(() => __qiTest.state.view.removal);
    await clickSq(page, "c3");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 3);
    await page.click("#undo");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 2);
    check(await page.evaluate(() => !!__qiTest.state.view.removal), "the removal is owed again");
  },

  async "defect 9: the selector shows a typed rule string; a flip stays in its game"(page) {
    await setMode(page, "human");
    await page.click("#new-game");
    await page.fill("#custom-spec", "five-tigers:ten,shuttle=allowed");
    await page.click("#nd-start");
    await page.waitForFunction(() => document.body.dataset.game === "five-tigers");
    const spec = await page.evaluate(() => __qiTest.state.view.spec);
    const shown = await page.inputValue("#game-select");
    check(shown === spec, `the selector shows ${spec}, not ${shown}`);
    const label = await page.locator("#game-select option:checked").innerText();
    check(label.includes("five-tigers"), `its label: ${label}`);
    await page.click("#flip");
    await page.waitForFunction(() => __qiTest.state.view.flip);
    await page.click("#new-game");
    await page.selectOption("#nd-game", "jungle:standard");
    await page.selectOption("#nd-side", "first");
    await page.click("#nd-start");
    await page.waitForFunction(() => document.body.dataset.game === "jungle");
    check(!(await page.evaluate(() => __qiTest.state.view.flip)), "the new game is drawn from Red");
    check((await page.inputValue("#game-select")) === "jungle:standard", "the selector follows");
  },

  async "defect 10: a backend that fails says so"(page) {
    await setMode(page, "human");
    if (STATIC) {
      // The engine's module cannot load: the page says so at once. A
      // context of its own, without the service worker (whose cache the
      // first page filled, and whose requests no route sees).
      const context = await page.context().browser().newContext({ serviceWorkers: "block" });
      const other = await context.newPage();
      await other.route("**/*.wasm", (route) => route.abort());
      await other.goto(BASE);
      await waitForText(other, "#error", "The engine could not be loaded");
      await context.close();
      return;
    }
    // A tab whose game the server no longer has (it was restarted): the
    // page says that a new game started.
    await page.evaluate(() => sessionStorage.setItem("qi-session", "no-such-session"));
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    await waitForText(page, "#error", "no longer has this tab's game");
    await page.route("**/api/**", (route) => route.abort());
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await waitForText(page, "#error", "does not answer");
    check(!(await text(page, "#error")).includes("Failed to fetch"), "no raw browser error");
    await page.click("#analyse");
    await waitForText(page, "#an-state", "does not answer");
    check((await text(page, "#analyse")) === "Analyse", "no analysis is shown running");
  },

  async "defect 12: a forced win gives one line, not one per depth"(page) {
    await setMode(page, "human");
    await page.fill("#setup-text", "6l/7/3R3/7/7/7/7/7/6L w 0 1");
    await page.click("#setup");
    await page.waitForFunction(() => document.querySelector("#position-text").value.startsWith("6l/7/3R3"));
    await page.click("#analyse");
    await waitForText(page, "#an-score", "Red wins in");
    await page.waitForTimeout(1500);
    const lines = await page.locator("#an-lines li").allInnerTexts();
    const texts = lines.map((l) => l.replace(/^d[0-9]+ /, ""));
    check(new Set(texts).size === texts.length, `no line twice: ${lines.join(" | ")}`);
    if (await page.evaluate(() => __qiTest.state.analysing)) await page.click("#analyse");
  },

  async "chinese from the browser's language, switchable and remembered"(page) {
    await waitForText(page, "#status", "红方走棋");
    check((await text(page, "#new-game")) === "新对局…", "the buttons are in Chinese");
    check((await text(page, "#undo")) === "悔棋", "takeback in Chinese");
    await setMode(page, "human");
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 1);
    const name = await page.locator(MOVES).first().innerText();
    check(name === "象 a3-a4", `the move with its animal: ${name}`);
    await waitForText(page, "#status", "蓝方走棋");
    await page.click("#new-game");
    await page.selectOption("#nd-game", "five-tigers:ten");
    const desc = await text(page, "#nd-desc");
    check(desc.includes("每方10子"), `the preset's description: ${desc}`);
    await page.screenshot({ path: join(SHOTS, "zh-new-game-dialog.png") });
    await page.click("#nd-cancel");
    // A bad position: the error in Chinese.
    await page.fill("#setup-text", "not a position");
    await page.click("#setup");
    await waitForText(page, "#error", "局面文本有误");
    // The backends' other refusals, as they give them (docs/web.md: a
    // kind and its fields, the message in English), said by their kinds.
    const words = await page.evaluate(async () => [
      __qiTest.errorText(Object.assign(new Error("the game is over"), { kind: "game-over", fields: {} })),
      __qiTest.errorText(Object.assign(new Error("too many searches at once (4): try again later"), { kind: "too-many-searches", fields: { max: 4 } })),
      // A library error, as the backend gives it: by its kind and fields.
      await __qiTest.backend.goto(9).then(() => "no error", (e) => __qiTest.errorText(e)),
    ]);
    check(/^对局已结束\|同时进行的搜索太多（4）：请稍后再试\|第9步不在对局中（0 到 \d）$/.test(words.join("|")), `errors in Chinese: ${words.join("|")}`);
    if (STATIC) {
      // The in-page backend's own refusals carry a kind and fields too,
      // and are said from them.
      const undo = await page.evaluate(() => __qiTest.backend.undo(999).then(() => null, (e) => [e.kind, e.fields.count, __qiTest.errorText(e)]));
      check(undo && undo[0] === "undo-count" && undo[1] === 999 && /^在第\d+步不能悔999步$/.test(undo[2]), `a refused takeback, by its kind: ${undo}`);
    }
    // A result and a score in the winner's words, in Chinese.
    await page.fill("#setup-text", "6l/7/3R3/7/7/7/7/7/6L w 0 1");
    await page.click("#setup");
    await page.waitForFunction(() => document.querySelector("#position-text").value.startsWith("6l/7/3R3"));
    await page.click("#analyse");
    await waitForText(page, "#an-score", "红方2步胜");
    await page.click("#analyse");
    await clickSq(page, "d7");
    await clickSq(page, "d8");
    await clickSq(page, "g9");
    await clickSq(page, "g8");
    await clickSq(page, "d8");
    await clickSq(page, "d9");
    await waitForText(page, "#status", "红方胜：进入兽穴。");
    await waitForText(page, "#result-text", "红方胜：进入兽穴。");
    await page.screenshot({ path: join(SHOTS, "zh-result.png") });
    await page.click("#result-close");
    await page.click('#moves button[data-ply="1"]');
    await page.waitForFunction(() => __qiTest.state.view.ply === 1);
    await page.selectOption("#lang", "en");
    await waitForText(page, "#status", "Blue to move");
    check((await text(page, "#undo")) === "Take back", "switched to English");
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    await waitForText(page, "#status", "Blue to move");
    check((await page.inputValue("#lang")) === "en", "the choice is remembered");
    await page.selectOption("#lang", "zh");
    await waitForText(page, "#status", "蓝方走棋");
  },

  async "chinese: the library's errors in Chinese, whole"(page) {
    await setMode(page, "human");
    // What the error box says in Chinese must hold no English: only the
    // player's own input (quoted “…”) and the notation's names (games,
    // presets, rule values, record tags) may be in Latin letters.
    const NOTATION = /\b(jungle|five-tigers|standard|yeshou|datou|traditional|shandong|shandong-shuttle|ten|deferred|on|off|Game|Start|Result|w|r|b)\b/g;
    const expectChinese = async (what, expected) => {
      const said = await shownError(page);
      const rest = said.replace(/“[^”]*”/g, "").replace(NOTATION, "");
      check(!/[A-Za-z]{2,}/.test(rest), `${what}: English in "${said}"`);
      check(said.includes(expected), `${what}: "${said}" lacks "${expected}"`);
    };
    const setup = (position) => setUpText(page, position);
    await setup("not a position");
    await expectChinese("a malformed Jungle position", "局面文本有误：棋盘有1行");
    await setup("x6/7/7/7/7/7/7/7/7 w 0 1");
    await expectChinese("an unknown piece letter", "第9横行有不认识的棋子字母“x”");
    await setup("6l/7/3R3/7/7/7/7/7/6L w 0 1 z");
    await expectChinese("a field too many", "回合数之后多了字段“z”");
    const custom = async (spec) => {
      await page.click("#new-game");
      await page.fill("#custom-spec", spec);
      await page.click("#nd-start");
    };
    await custom("jungle:nosuch");
    await expectChinese("an unknown preset", "斗兽棋没有“jungle:nosuch”这套规则");
    await custom("jungle:standard,anti_chase=maybe");
    await expectChinese("a bad rule value", "规则选项“anti_chase”的值“maybe”有误");
    await custom("five-tigers:ten,pieces_per_side=99");
    await expectChinese("a Five Tigers value out of range", "规则选项“pieces_per_side”不能取“99”");
    await custom("chess");
    await expectChinese("an unknown game", "没有“chess”这种棋");
    const record = (r) => loadRecordText(page, r);
    await record('[Game "jungle"]\n\n1. a3a4 a3a9 *\n');
    await expectChinese("an illegal move in a record", "第2步“a3a9”不合规则：此局面下不是合法着法");
    await record('[Game "jungle"]\n\n1. a3z4 *\n');
    await expectChinese("an unparsable move", "着法“a3z4”的终点有误：z 列不在棋盘上");
    await record('[Game "jungle"\n\n1. a3a4 *\n');
    await expectChinese("a malformed record", "第1行第1列：标签没有结束");
    await record("1. a3a4 *\n");
    await expectChinese("a record without its game", "棋谱没有 Game 标签");
    await record('[Game "five-tigers"]\n\n1. c3 c3 *\n');
    await expectChinese("an occupied point", "这个点上已有棋子");
    // A record's syntax and a bad move in a variation, by their codes.
    await record('[Game "jungle"]\n\n1. a3a4 {x *\n');
    await expectChinese("an unterminated comment", "第3行第9列：注释没有结束（缺少“}”）");
    await record('[Game "jungle"]\n[Site x]\n\n*\n');
    await expectChinese("a tag value without quotes", "第2行第7列：标签格式有误（应为 [名称 \"值\"]）：值必须放在双引号里");
    await record('[Game "jungle"]\n\n1. a3a4 (a3a9) *\n');
    await expectChinese("a bad move in a variation", "变着中的着法“a3a9”：此局面下不是合法着法");
    await record('[Game "jungle"]\n\n1. a3a4 (b7b6 *\n');
    await expectChinese("an unterminated variation", "变着没有结束");
    // None of them changed the game.
    check((await page.evaluate(() => __qiTest.state.view.spec)) === "jungle:standard", "still the game it was");
    check((await moveCount(page)) === 0, "no move was played");
    // A Five Tigers field that cannot be read.
    await chooseGame(page, "five-tigers:shandong");
    await setup("5/5/5/5/4 x place X:13,O:13 - x -,- 0");
    await expectChinese("a rank of four points", "局面文本有误：棋盘字段：第1行有4个点，应为5个");
    await setup("5/5/5/5/5 x place X:13,O:13 - x c3,- 0");
    await expectChinese("a previous step that is no step", "上一步字段：“c3”既不是一步棋也不是“-”");
    // In English the library's message is shown as it is.
    await page.selectOption("#lang", "en");
    await record("1. a3a4 *\n");
    await waitForText(page, "#error", "bad record: the record has no Game tag");
  },

  async "english: bad text shows the library's own message"(page) {
    await setMode(page, "human");
    // The page says an error in English as the library words it (the
    // message of its Display, as the JavaScript package and the JSON API
    // give it), not in words of its own.
    const shown = async (what, expected) => {
      const said = await shownError(page);
      check(said === expected, `${what}: "${said}", not the library's "${expected}"`);
    };
    const record = (r) => loadRecordText(page, r);
    const setup = (position) => setUpText(page, position);
    await record('[Game "jungle"]\n\n1. a3a4 {x *\n');
    await shown("an unterminated comment", "bad record: line 3, column 9: unterminated comment");
    await record('[Game "jungle"]\n[Site x]\n\n*\n');
    await shown("a tag value without quotes", "bad record: line 2, column 7: malformed tag: the value must be in double quotes");
    await record('[Game "jungle"]\n\n1. a3a4 (a3a9) *\n');
    await shown("a bad move in a variation", "bad record: move 'a3a9': not a legal move in this position");
    await record("1. a3a4 *\n");
    await shown("a record without its game", "bad record: the record has no Game tag");
    await setup("x6/7/7/7/7/7/7/7/7 w 0 1");
    await shown("an unknown piece letter", "bad position: unknown piece letter 'x' at rank 9");
    await chooseGame(page, "five-tigers:shandong");
    await setup("5/5/5/5/4 x place X:13,O:13 - x -,- 0");
    await shown("a rank of four points", "bad position: board: rank 1 has 4 points, not 5");
    await setup("5/5/5/5/5 x place X:13,O:13 - x c3,- 0");
    await shown("a previous step that is no step", "bad position: last-steps: 'c3' is not a step or '-'");
    check((await moveCount(page)) === 0, "no move was played");
  },

  async "chinese five tigers: removal, formation and hands in words"(page) {
    await setMode(page, "human");
    await chooseGame(page, "five-tigers:shandong");
    await waitForText(page, "#status", "X方落子");
    await waitForText(page, "#hands", "手中棋子：X方 13，O方 13");
    const example = await page.getAttribute("#record-text", "placeholder");
    check(example === '[Game "five-tigers:shandong"] …… 粘贴棋谱，然后点“载入文本”', `the record's example follows the game: ${example}`);
    for (const sq of ["b2", "a5", "b3", "c4", "c2", "e5", "c3"]) {
      const before = await moveCount(page);
      await clickSq(page, sq);
      await page.waitForFunction((n) => document.querySelectorAll("#moves button[data-ply]").length === n + 1, before);
    }
    await waitForText(page, "#status", "X方须提掉O方1子");
    await waitForText(page, "#removal", "点击O方的棋子");
    await page.screenshot({ path: join(SHOTS, "zh-five-tigers-removal.png") });
  },

  async "new game dialog, result dialog, rematch"(page) {
    await page.click("#new-game");
    await page.waitForSelector("#new-dialog[open]");
    await page.selectOption("#nd-game", "five-tigers:deferred");
    await waitForText(page, "#nd-desc", "full");
    await page.selectOption("#nd-side", "human");
    await page.screenshot({ path: join(SHOTS, "new-game-dialog.png") });
    await page.click("#nd-start");
    await page.waitForFunction(() => __qiTest.state.view.spec === "five-tigers:deferred");
    check((await page.inputValue("#mode")) === "human", "two players");
    await chooseGame(page, "jungle:standard");
    await page.fill("#setup-text", "6l/3R3/7/7/7/7/7/7/6L w 0 1");
    await page.click("#setup");
    await page.waitForFunction(() => document.querySelector("#position-text").value.startsWith("6l/3R3"));
    await clickSq(page, "d8");
    await clickSq(page, "d9");
    await page.waitForSelector("#result-dialog[open]");
    await waitForText(page, "#result-text", "Red wins: den entered.");
    await page.screenshot({ path: join(SHOTS, "result-dialog.png") });
    await page.click("#rematch");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 0 && __qiTest.state.view.text.startsWith("l5t/1d3c1"));
    check(!(await page.locator("#result-dialog").evaluate((d) => d.open)), "the dialog closed");
  },

  async "resign and a draw by agreement"(page) {
    await setMode(page, "human");
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 1);
    await page.click("#offer-draw");
    await waitForText(page, "#dd-text", "Blue offers a draw. Red, do you accept?");
    await page.click("#draw-decline");
    check(!(await page.evaluate(() => __qiTest.gameOver())), "declined: the game goes on");
    await page.click("#offer-draw");
    await page.click("#draw-accept");
    await waitForText(page, "#status", "Draw: agreed draw.");
    await page.waitForSelector("#result-dialog[open]");
    check(await page.locator("#resign").isDisabled(), "no resignation after the end");
    // It survives a reload.
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    await waitForText(page, "#status", "Draw: agreed draw.");
    await page.click("#nav-first");
    await page.waitForFunction(() => __qiTest.state.view.ply === 0);
    await page.click("#nav-last");
    await waitForText(page, "#status", "Draw: agreed draw.");
    // (After a reload the dialog is not shown again: the game was over before.)
    check(!(await page.locator("#result-dialog").evaluate((d) => d.open)), "no dialog for an old result");
    // Against the engine, the player resigns.
    await fullEngine(page, "200");
    await page.click("#new-game");
    await page.selectOption("#nd-side", "first");
    await page.click("#nd-start");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 0);
    await page.click("#resign");
    await page.click("#resign-yes");
    await waitForText(page, "#status", "Blue wins: resignation.");
    check((await clickable(page)) === false, "no move after resigning");
    // The saved record says so, and loading it ends the game the same way.
    await page.click("#result-close");
    await page.click("#save-record");
    await page.waitForFunction(() => document.querySelector("#record-text").value.includes('[Termination "resignation"]'));
    const record = await page.inputValue("#record-text");
    check(/\[Result "0-1"\]/.test(record) && /0-1\s*$/.test(record), `the result in the record: ${record}`);
    await page.click("#new-game");
    await page.selectOption("#nd-side", "human");
    await page.click("#nd-start");
    await page.waitForFunction(() => !__qiTest.gameOver());
    await page.click("#load-record");
    await waitForText(page, "#status", "Blue wins: resignation.");
  },

  async "analysis board: bar, arrow, lines that play out, follows the position"(page) {
    await page.selectOption("#mode", "analysis");
    // More lines asked for while it runs: it starts again with them.
    await page.waitForFunction(() => __qiTest.state.analysing);
    await page.selectOption("#an-multipv", "2");
    await page.waitForFunction(() => document.querySelectorAll("#an-multi li").length === 2 && Number(document.querySelector("#an-depth").textContent) >= 3);
    check(await page.locator("#eval-bar").isVisible(), "the evaluation bar");
    check((await page.locator("#board .overlay.arrow").count()) >= 1, "the best move's arrow");
    await page.screenshot({ path: join(SHOTS, "analysis-board.png") });
    // Stopped, so that the line does not change under the click.
    await page.click("#analyse");
    await waitForText(page, "#an-state", "stopped");
    const pv = await page.locator("#an-multi li").first().getAttribute("data-pv");
    const n = pv.split(" ").length;
    await page.locator("#an-multi li").first().click();
    await page.waitForFunction((k) => document.querySelectorAll("#moves button[data-ply]").length === k, n);
    const played = await page.evaluate(() => __qiTest.state.view.moves.join(" "));
    check(played === pv, `the line is on the board: ${played} (line ${pv})`);
    // The analysis starts again by itself, of the new position.
    await page.waitForFunction(() => __qiTest.state.analysing && Number(document.querySelector("#an-depth").textContent) >= 2);
    await page.keyboard.press("Home");
    await page.waitForFunction(() => __qiTest.state.view.ply === 0);
    await page.waitForFunction(() => __qiTest.state.analysing && Number(document.querySelector("#an-depth").textContent) >= 2);
    // After a reload the analysis board analyses again.
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    await page.waitForFunction(() => __qiTest.state.analysing && Number(document.querySelector("#an-depth").textContent) >= 2);
    await page.click("#analyse");
    await waitForText(page, "#an-state", "stopped");
  },

  async "the move list: numbered turns with animals, keys, a variation kept"(page) {
    await setMode(page, "human");
    const record = ['[Game "jungle:standard"]', "", "a3a4 g7g6 c3d3 a7a6 a4a5 a6a5 *", ""].join("\n");
    await page.fill("#record-text", record);
    await page.click("#load-record");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 6);
    const rows = await page.locator("#moves li").allInnerTexts();
    check(rows.length === 3, `three numbered turns: ${rows.join(" | ")}`);
    const first = rows[0].replace(/\s+/g, " ").trim();
    check(first === "1. Elephant a3a4 Elephant g7g6", `turn 1: ${first}`);
    const third = rows[2].replace(/\s+/g, " ").trim();
    check(third === "3. Elephant a4a5 Rat a6×a5", `the capture is marked: ${third}`);
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("Home");
    await page.waitForFunction(() => __qiTest.state.view.ply === 0);
    await page.keyboard.press("End");
    await page.waitForFunction(() => __qiTest.state.view.ply === 6);
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => __qiTest.state.view.ply === 5);
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => __qiTest.state.view.ply === 6);
    // From ply 2 another move starts a variation; the line is kept.
    await page.click('#moves button[data-ply="2"]');
    await page.waitForFunction(() => __qiTest.state.view.ply === 2);
    await clickSq(page, "b2");
    await clickSq(page, "b3");
    await page.waitForFunction(() => __qiTest.state.view.moves.join(" ") === "a3a4 g7g6 b2b3");
    check((await moveCount(page)) === 6, "the main line stays in the list");
    const variation = (await page.locator("#moves li.variations").innerText()).replace(/\s+/g, " ").trim();
    check(variation === "2. Cat b2b3", `the variation below the move it replaces: ${variation}`);
    check(await page.locator("#moves .variation button.current").count() === 1, "the variation's move is the one shown");
    check(await page.locator("#promote").isVisible() && await page.locator("#delete-variation").isVisible(), "promote and delete offered");
  },

  async "move tree: variations kept, promoted, deleted, through a record and a reload"(page) {
    await setMode(page, "human");
    const record = ['[Game "jungle:standard"]', "", "a3a4 g7g6 c3d3 a7a6 *", ""].join("\n");
    await page.fill("#record-text", record);
    await page.click("#load-record");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 4);
    check(await page.locator("#promote").isHidden(), "nothing to promote on the main line");
    // A move from ply 1, and one from ply 2 inside that variation.
    await page.click('#moves button[data-ply="1"]');
    await page.waitForFunction(() => __qiTest.state.view.ply === 1);
    await clickSq(page, "a7");
    await clickSq(page, "a6");
    await page.waitForFunction(() => __qiTest.state.view.moves.join(" ") === "a3a4 a7a6");
    await clickSq(page, "g3");
    await clickSq(page, "g4");
    await page.waitForFunction(() => __qiTest.state.view.moves.join(" ") === "a3a4 a7a6 g3g4");
    await page.click('#moves button[data-ply="2"]');
    await page.waitForFunction(() => __qiTest.state.view.ply === 2 && __qiTest.state.view.moves[1] === "g7g6");
    // The move the tree has is followed, not played twice.
    await clickSq(page, "c3");
    await clickSq(page, "d3");
    await page.waitForFunction(() => __qiTest.state.view.ply === 3);
    check((await page.evaluate(() => __qiTest.state.view.tree.length)) === 6, "no move twice in the tree");
    check((await moveCount(page)) === 4, "the main line as it was");
    // A click on a variation's move goes there.
    await page.click('#moves .variation button[data-move="g3g4"]');
    await page.waitForFunction(() => __qiTest.state.view.moves.join(" ") === "a3a4 a7a6 g3g4" && __qiTest.state.view.ply === 3);
    await page.screenshot({ path: join(SHOTS, "move-tree-variation.png") });
    // Saved, the record has the variation in parentheses.
    await page.click("#save-record");
    await page.waitForFunction(() => document.querySelector("#record-text").value.includes("("));
    const saved = await page.inputValue("#record-text");
    check(saved.includes("a3a4 g7g6 (a7a6 g3g4) c3d3 a7a6 *"), `the record: ${saved}`);
    // Promoted: the variation is the main line, the old line a variation.
    await page.click("#promote");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 3);
    check(await page.locator("#promote").isHidden(), "on the main line now");
    const main = await page.evaluate(() => [...document.querySelectorAll("#moves button[data-ply]")].map((b) => b.dataset.move).join(" "));
    check(main === "a3a4 a7a6 g3g4", `the main line: ${main}`);
    // Loaded back from the saved text: the tree as it was saved.
    await page.fill("#record-text", saved);
    await page.click("#load-record");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 4 &&
      document.querySelectorAll("#moves .variation button").length === 2);
    // Delete the variation from one of its moves: the position before it shows.
    await page.click('#moves .variation button[data-move="g3g4"]');
    await page.waitForFunction(() => __qiTest.state.view.ply === 3 && __qiTest.state.view.moves[1] === "a7a6");
    await page.click("#delete-variation");
    await page.waitForFunction(() => __qiTest.state.view.tree.length === 4 && __qiTest.state.view.ply === 1);
    check(await page.locator("#moves .variation").count() === 0, "no variation left");
    // Another one, then a reload: the tree and the position shown stay.
    await clickSq(page, "b8");
    await clickSq(page, "b7");
    await page.waitForFunction(() => __qiTest.state.view.moves.join(" ") === "a3a4 b8b7");
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    await page.waitForFunction(() => __qiTest.state.view && __qiTest.state.view.tree.length === 5);
    const after = await page.evaluate(() => `${__qiTest.state.view.moves.join(" ")}|${__qiTest.state.view.ply}`);
    check(after === "a3a4 b8b7|2", `after the reload: ${after}`);
    check(await page.locator('#moves .variation button[data-move="b8b7"].current').count() === 1, "the variation shown after the reload");
    // Take back from the variation's end: the move leaves the tree.
    await page.click("#undo");
    await page.waitForFunction(() => __qiTest.state.view.tree.length === 4 && __qiTest.state.view.ply === 1);
    check(await page.locator("#moves .variation").count() === 0, "the variation taken back");
  },

  async "move tree: a phone in Chinese shows variations and their buttons"(page) {
    await setMode(page, "human");
    const record = ['[Game "jungle:standard"]', "", "a3a4 (g3g4 g7g6 (a7a6) g4g5) g7g6 c3d3 (b2b3) a7a6 *", ""].join("\n");
    await page.fill("#record-text", record);
    await page.click("#load-record");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 4);
    check(await page.locator("#moves .variation").count() === 3, "two variations and one inside them");
    await page.click('#moves .variation button[data-move="a7a6"]');
    await page.waitForFunction(() => __qiTest.state.view.moves.join(" ") === "g3g4 a7a6");
    check((await text(page, "#promote")) === "设为主线" && (await text(page, "#delete-variation")) === "删除变化", "the buttons in Chinese");
    await page.locator("#moves-box").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, "move-tree-phone-zh.png") });
  },

  async "analysis: a line hovered is previewed on a small board, a click plays it"(page) {
    await page.selectOption("#mode", "analysis");
    await page.waitForFunction(() => __qiTest.state.analysing);
    await page.selectOption("#an-multipv", "2");
    await page.waitForFunction(() => document.querySelectorAll("#an-multi li").length === 2 && Number(document.querySelector("#an-depth").textContent) >= 3);
    await page.click("#analyse");
    await waitForText(page, "#an-state", "stopped");
    const item = page.locator("#an-multi li").nth(1);
    const pv = await item.getAttribute("data-pv");
    await item.hover();
    await page.waitForSelector("#an-preview:not([hidden]) svg");
    await page.screenshot({ path: join(SHOTS, "analysis-preview.png") });
    check((await page.evaluate(() => __qiTest.state.view.moves.length)) === 0, "hovering plays nothing");
    // The small board is the position at the line's end: its last move
    // marked, the piece that made it on its square.
    const dest = pv.split(" ").at(-1).slice(2);
    check(await page.locator("#an-preview circle.last").count() === 2, "the line's last move marked");
    check(await page.locator(`#an-preview .piece[data-sq="${dest}"]`).count() === 1, `a piece on ${dest}, the line's end`);
    const box = await page.locator("#an-preview").boundingBox();
    const board = await page.locator("#board").boundingBox();
    check(box.width < board.width / 2, `a small board: ${box.width} beside ${board.width}`);
    await page.mouse.move(1, 1);
    await page.waitForSelector("#an-preview", { state: "hidden" });
    await item.click();
    await page.waitForFunction((k) => __qiTest.state.view.moves.join(" ") === k, pv);
    // The analysis of the new position lists its lines under the pointer,
    // which previews them; away from them, none.
    await page.mouse.move(1, 1);
    await page.waitForSelector("#an-preview", { state: "hidden" });
  },

  async "keyboard-only play with named squares"(page) {
    await setMode(page, "human");
    const label = await page.locator('#board .sq[data-sq="a3"]').getAttribute("aria-label");
    check(label === "a3, Red Elephant", `a3's name: ${label}`);
    check((await page.locator('#board .sq[tabindex="0"]').count()) === 1, "one tab stop on the board");
    // Tab back onto the board from the first enabled button after it.
    await page.focus("#flip");
    await page.keyboard.press("Shift+Tab");
    const focused = await page.evaluate(() => document.activeElement.dataset.sq || document.activeElement.id);
    check(/^[a-g][1-9]$/.test(focused), `the board takes focus: ${focused}`);
    // Walk to a3: arrows move on the screen.
    const start = await page.evaluate(() => document.activeElement.dataset.sq);
    const [file, rank] = [start.charCodeAt(0) - 97, Number(start.slice(1))];
    for (let i = 0; i < file; i++) await page.keyboard.press("ArrowLeft");
    for (let r = rank; r > 3; r--) await page.keyboard.press("ArrowDown");
    for (let r = rank; r < 3; r++) await page.keyboard.press("ArrowUp");
    check(await page.evaluate(() => document.activeElement.dataset.sq) === "a3", "on a3");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#board .overlay.target");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => __qiTest.state.view.moves[0] === "a3a4");
    // Every button has a name.
    const unnamed = await page.evaluate(() => [...document.querySelectorAll("button")]
      .filter((b) => !b.hidden && !(b.getAttribute("aria-label") || b.textContent.trim())).map((b) => b.id));
    check(unnamed.length === 0, `buttons without a name: ${unnamed.join(" ")}`);
    // An illegal click says so.
    await clickSq(page, "d5");
    await waitForText(page, "#hint", "Not a legal move");
  },

  async "five tigers: formation outlined, removable pieces marked, hands shown"(page) {
    await setMode(page, "human");
    await chooseGame(page, "five-tigers:shandong");
    await waitForText(page, "#hands", "In hand: X 13, O 13");
    for (const sq of ["b2", "a5", "b3", "c4", "c2", "e5", "c3"]) {
      const before = await moveCount(page);
      await clickSq(page, sq);
      await page.waitForFunction((n) => document.querySelectorAll("#moves button[data-ply]").length === n + 1, before);
    }
    const formed = await page.locator("#board .overlay.formed").evaluateAll((ns) => ns.map((n) => n.dataset.sq).join(" "));
    check(formed === "b2 c2 b3 c3", `the square is outlined: ${formed}`);
    const removable = await page.locator("#board .overlay.removable").evaluateAll((ns) => ns.map((n) => n.dataset.sq).sort().join(" "));
    check(removable === "a5 c4 e5", `O's pieces to remove are marked: ${removable}`);
    await page.screenshot({ path: join(SHOTS, "five-tigers-formed.png") });
  },

  async "screenshots: phone in Chinese"(page) {
    await waitForText(page, "#status", "红方走棋");
    await setMode(page, "human");
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 1);
    await clickSq(page, "g7");
    await page.waitForSelector("#board .overlay.target");
    const board = await page.locator("#board svg").boundingBox();
    check(board.y + board.height <= 844, `the whole board is on the screen (bottom ${board.y + board.height})`);
    await page.screenshot({ path: join(SHOTS, "phone-zh.png") });
  },

  async "screenshots: phone held sideways"(page) {
    const board = await page.locator("#board svg").boundingBox();
    check(board.y + board.height <= 390 + 1, `the board fits the height (bottom ${board.y + board.height})`);
    await page.screenshot({ path: join(SHOTS, "phone-landscape.png") });
  },

  async "screenshots: desktop in Chinese"(page) {
    await page.selectOption("#mode", "analysis");
    await page.waitForFunction(() => Number(document.querySelector("#an-depth").textContent) >= 3);
    await page.screenshot({ path: join(SHOTS, "desktop-zh-analysis.png") });
    await page.click("#analyse");
  },

  async "screenshots: dark theme from the system"(page) {
    const dark = await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches);
    check(dark, "the browser asks for dark");
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    check(bg === "rgb(29, 31, 28)", `a dark page: ${bg}`);
    await setMode(page, "human");
    await chooseGame(page, "five-tigers:ten");
    await clickSq(page, "c3");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 1);
    await page.screenshot({ path: join(SHOTS, "dark-five-tigers.png") });
  },

  async "phone-sized screen"(page) {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    check(width <= 390, `no sideways scrolling (page width ${width})`);
    const board = await page.locator("#board svg").boundingBox();
    check(board.width <= 390 && board.width >= 300, `the board fills the width (${board.width})`);
    await clickSq(page, "a3");
    await page.waitForSelector("#board .overlay.target");
    // A finger: tap a piece, then its destination.
    await setMode(page, "human");
    await page.locator('#board .piece[data-sq="g3"]').tap();
    await page.waitForSelector('#board .overlay.selected[data-sq="g3"]');
    await page.locator('#board .sq[data-sq="g4"]').tap();
    await page.waitForFunction(() => __qiTest.state.view.moves[0] === "g3g4");
    check((await page.evaluate(() => window.scrollY)) === 0, "the tap scrolled nothing");
  },

  async "phone: a finger drags a piece, an illegal drop is refused"(page) {
    await setMode(page, "human");
    // Real touch events (a finger, not a mouse): start on the piece, move
    // in steps, lift on the destination.
    const cdp = await page.context().newCDPSession(page);
    const centre = async (selector) => {
      const box = await page.locator(selector).boundingBox();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const drag = async (from, to) => {
      const a = await centre(`#board .piece[data-sq="${from}"]`);
      const b = await centre(`#board .sq[data-sq="${to}"]`);
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [a] });
      for (let i = 1; i <= 5; i++) {
        const point = { x: a.x + ((b.x - a.x) * i) / 5, y: a.y + ((b.y - a.y) * i) / 5 };
        await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [point] });
      }
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    };
    await drag("a1", "a2");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 1, null, { timeout: 5000 });
    check((await page.evaluate(() => __qiTest.state.view.moves[0])) === "a1a2", "the drag played a1a2");
    check((await page.evaluate(() => window.scrollY)) === 0, "the drag scrolled nothing");
    // Blue's Elephant two squares ahead: not a move.
    const before = await page.inputValue("#position-text");
    await drag("g7", "g5");
    await waitForText(page, "#hint", "Not a legal move here");
    check(await page.evaluate(() => document.getElementById("board").classList.contains("refused")), "the board shakes");
    await page.waitForTimeout(300);
    check((await page.evaluate(() => __qiTest.state.view.moves.length)) === 1, "no move was played");
    check((await page.inputValue("#position-text")) === before, "the position is unchanged");
    check((await page.locator("#board .overlay.selected").count()) === 0, "nothing stays selected");
  },

  async "play defect 2: stop with several lines reports line 1's move"(page) {
    await setMode(page, "human");
    await page.selectOption("#an-multipv", "3");
    await page.click("#analyse");
    await page.waitForFunction(() => Number(document.querySelector("#an-depth").textContent) >= 5 &&
      document.querySelectorAll("#an-multi li").length === 3);
    await page.click("#analyse");
    await waitForText(page, "#an-state", "stopped");
    const state = await text(page, "#an-state");
    const best = (state.match(/[a-g][1-9][a-g][1-9]/) || [])[0];
    const first = await page.evaluate(() => {
      const li = document.querySelector("#an-multi li");
      return li ? (li.textContent.match(/[a-g][1-9][a-g][1-9]/) || [])[0] : null;
    });
    const pv = (await text(page, "#an-pv")).split(" ")[0];
    check(best && best === pv, `stopped (best ${best}) is the best line's first move ${pv} (line 1: ${first})`);
  },

  async "play defect 4: an error after Load text is in view at 1280x800"(page) {
    await setMode(page, "human");
    await page.fill("#record-text", "[Game \"jungle\"]\n\na3a5 *\n");
    await page.click("#load-record");
    await waitForText(page, "#error", "bad record");
    const box = await page.locator("#error").boundingBox();
    const view = page.viewportSize();
    const scrollY = await page.evaluate(() => window.scrollY);
    const top = box.y - 0;
    check(top >= 0 && box.y + box.height <= view.height,
      `the error is inside the window (top ${Math.round(top)}, bottom ${Math.round(box.y + box.height)}, window ${view.height}, scrolled ${scrollY})`);
    await page.screenshot({ path: join(SHOTS, "load-error-in-view.png") });
    // A click closes it.
    await page.click("#error");
    check(await page.locator("#error").isHidden(), "a click closes the error");
  },

  async "play defect 5: a record without a result loads as an unfinished game"(page) {
    await setMode(page, "human");
    await page.fill("#record-text", "[Game \"jungle:standard\"]\n\n1. a3a4 1... g7g6\n");
    await page.click("#load-record");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 2);
    check(await page.locator("#error").isHidden(), `no error: ${await text(page, "#error")}`);
    check(!(await page.evaluate(() => __qiTest.gameOver())), "the game goes on");
    await waitForText(page, "#status", "Red to move");
    // Saved again, the record ends with `*`.
    const record = await page.evaluate(async () => (await __qiTest.backend.record()));
    check(/g7g6 \*\s*$/.test(record), `the saved record ends with *: ${record}`);
  },

  async "play defect 3: the move list scrolls to the current move of a loaded record"(page) {
    await setMode(page, "human");
    // A 34-ply game, played through the page's own backend, saved as text.
    const record = await page.evaluate(async () => {
      for (let i = 0; i < 34 && !__qiTest.state.view.result; i++) {
        const legal = __qiTest.state.view.legal;
        __qiTest.show(await __qiTest.backend.play(legal[(i * 7) % legal.length]));
      }
      return (await __qiTest.backend.record());
    });
    await page.click("#new-game");
    await page.selectOption("#nd-side", "human");
    await page.click("#nd-start");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 0);
    await page.fill("#record-text", record);
    await page.click("#load-record");
    await page.waitForFunction(() => __qiTest.state.view.moves.length >= 30 && document.querySelector("#moves .current"));
    const inside = () => page.evaluate(() => {
      const list = document.querySelector("#moves").getBoundingClientRect();
      const current = document.querySelector("#moves .current").getBoundingClientRect();
      return current.top >= list.top - 1 && current.bottom <= list.bottom + 1;
    });
    check(await inside(), "the last move is in view in the move list");
    await page.click("#nav-first");
    await page.click("#nav-forward");
    await page.waitForFunction(() => __qiTest.state.view.ply === 1);
    check(await inside(), "the first move is in view after going back");
  },

  async "play defect 6: a note under the board follows a change of language"(page) {
    await setMode(page, "human");
    await clickSq(page, "d5");
    await waitForText(page, "#hint", "Not a legal move here");
    await page.selectOption("#lang", "zh");
    await waitForText(page, "#hint", "这里不能走");
    // And an error shown.
    await page.fill("#record-text", "[Game \"jungle\"]\n\na3a5 *\n");
    await page.click("#load-record");
    await page.waitForFunction(() => !document.querySelector("#error").hidden);
    await page.selectOption("#lang", "en");
    await waitForText(page, "#error", "bad record");
    await page.selectOption("#lang", "zh");
    await waitForText(page, "#error", "棋谱有误");
  },

  async "play defect 9: the board's buttons above the fold at 1280x800"(page) {
    await aboveTheFold(page, "desktop");
  },

  async "play defect 9: the board's buttons above the fold on a phone"(page) {
    await aboveTheFold(page, "phone");
    // The move list starts in the window too.
    const moves = await page.locator("#moves").boundingBox();
    check(moves.y < PHONE.height, `the moves start at ${Math.round(moves.y)}, below the window`);
  },

  async "play defect 9: the board's buttons above the fold on a phone held sideways"(page) {
    await aboveTheFold(page, "landscape");
  },

  async "play defect 12: the board darkens in dark mode"(page) {
    const fills = await page.evaluate(() => {
      const luminance = (colour) => {
        const [r, g, b] = colour.match(/[0-9.]+/g).map(Number);
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      };
      const land = document.querySelector("#board .sq.land");
      const back = document.querySelector("#board svg > rect");
      return [luminance(getComputedStyle(land).fill), luminance(getComputedStyle(back).fill)];
    });
    check(fills.every((l) => l < 0.45), `the board's squares and margin stay bright: luminance ${fills.map((l) => l.toFixed(2)).join(", ")}`);
    await chooseGame(page, "five-tigers:shandong");
    const board = await page.evaluate(() => {
      const back = getComputedStyle(document.querySelector("#board svg > rect")).fill;
      return back;
    });
    check(board !== "rgb(243, 226, 184)", `the Five Tigers board stays bright: ${board}`);
    await page.screenshot({ path: join(SHOTS, "dark-board.png") });
  },

  async "play defect 7: hands shown through removals, not in the movement phase"(page) {
    await setMode(page, "human");
    await chooseGame(page, "five-tigers:shandong");
    await waitForText(page, "#hands", "In hand: X 13, O 13");
    for (const sq of ["b2", "a5", "b3", "c4", "c2", "e5", "c3"]) {
      await page.evaluate(async (m) => __qiTest.show(await __qiTest.backend.play(m)), sq);
    }
    await page.waitForSelector("#removal:not([hidden])");
    check(await page.locator("#hands").isVisible(), "the hands show during a removal");
    await waitForText(page, "#hands", "In hand: X 9, O 10");
    const colour = await page.evaluate(() => getComputedStyle(document.querySelector("#hands")).backgroundColor);
    check(colour === "rgba(0, 0, 0, 0)", `the hands are no alert box: ${colour}`);
    // The movement phase: a position with nothing in hand.
    await page.fill("#setup-text", "OXOX1/OXOO1/1XXO1/1XXOX/1OXOX o move X:0,O:0 - o -,- 0");
    await page.click("#setup");
    await page.waitForFunction(() => __qiTest.state.view.phase === "move");
    check(await page.locator("#hands").isHidden(), "no hands in the movement phase");
  },

  async "play defect 11: one game's colours, words for players, the arrow in the mover's colour"(page) {
    const firstOption = () => page.evaluate(() => document.querySelector('#mode option[value="first"]').textContent);
    check(/Red/.test(await firstOption()) && !/X/.test(await firstOption()), `Jungle's colours only: ${await firstOption()}`);
    const standard = await page.evaluate(() => __qiTest.presetDescription("jungle:standard"));
    check(!/engine/i.test(standard), `the standard rules described for players: ${standard}`);
    await setMode(page, "analysis");
    const arrow = () => page.waitForFunction(() => {
      const line = document.querySelector("#board .arrow");
      return line ? line.getAttribute("stroke") : null;
    }).then((h) => h.jsonValue());
    const red = await arrow();
    // A move: the analysis follows the position, Blue to move.
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 1);
    await page.waitForFunction((r) => {
      const line = document.querySelector("#board .arrow");
      return line && line.getAttribute("stroke") !== r;
    }, red);
    const blue = await arrow();
    check(red !== blue, `the arrow's colour follows the side to move: ${red} then ${blue}`);
    await page.click("#analyse");
    await chooseGame(page, "five-tigers:shandong");
    check(/X/.test(await firstOption()) && !/Red/.test(await firstOption()), `Five Tigers' colours only: ${await firstOption()}`);
  },

  async "play defect 11: a newcomer plays level 3, the time per move at level 10 only"(page) {
    check((await page.inputValue("#level")) === "3", `a first visit's level: ${await page.inputValue("#level")}`);
    check(await page.locator("#movetime").isHidden(), "no time per move at level 3");
    await page.selectOption("#level", "10");
    check(await page.locator("#movetime").isVisible(), "the time per move at level 10");
    await page.selectOption("#movetime", "200");
    // The choice is kept over the newcomer's level.
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    check((await page.inputValue("#level")) === "10", "level 10 is kept");
    check((await page.inputValue("#movetime")) === "200", "the time per move is kept");
    check(await page.locator("#movetime").isVisible(), "and shown");
    // The new-game dialog offers the level on both backends, and sets it.
    await page.click("#new-game");
    check((await page.inputValue("#nd-level")) === "10", "the dialog starts from the level");
    await page.selectOption("#nd-level", "2");
    await page.selectOption("#nd-side", "first");
    await page.click("#nd-start");
    check((await page.inputValue("#level")) === "2", "the dialog's level is the game's");
    check(await page.locator("#movetime").isHidden(), "no time per move at level 2");
    // The engine answers at that level.
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 2);
  },

  async "share: a copied link opens the same game at the same move"(page) {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await setMode(page, "human");
    await chooseGame(page, "five-tigers:shandong");
    // Placements, then a removal, then back two moves.
    for (const m of ["b2", "a5", "b3", "c4", "c2", "e5", "c3", "xc4", "d4"]) {
      await page.evaluate(async (mv) => __qiTest.show(await __qiTest.backend.play(mv)), m);
    }
    await page.click("#nav-back");
    await page.click("#nav-back");
    await page.waitForFunction(() => __qiTest.state.view.ply === 7);
    const position = await page.inputValue("#position-text");
    await page.click("#share");
    await waitForText(page, "#share", "Link copied");
    const link = await page.inputValue("#share-link");
    check(link.startsWith(BASE) && /#game=five-tigers%3Ashandong&/.test(link), `the link: ${link}`);
    check((await page.evaluate(() => navigator.clipboard.readText())) === link, "the link is on the clipboard");
    // A fresh browser opens it: the game, its line and the move shown.
    const other = await page.context().browser().newContext();
    try {
      const { opened, errors } = await openLink(other, link);
      await opened.waitForFunction(() => __qiTest.state.view && __qiTest.state.view.moves.length === 9 && __qiTest.state.view.ply === 7);
      check((await opened.evaluate(() => __qiTest.state.view.spec)) === "five-tigers:shandong", "the game's rules");
      check((await opened.inputValue("#position-text")) === position, "the same position");
      check((await opened.evaluate(() => __qiTest.state.view.moves.join(" "))) === "b2 a5 b3 c4 c2 e5 c3 xc4 d4", "the same line");
      check((await opened.evaluate(() => location.hash)) === "", "the hash is taken away once read");
      check(errors.length === 0, `errors on the opened page: ${errors.join("; ")}`);
      // A position set up: its start goes in the link too.
      const start = "OXOX1/OXOO1/1XXO1/1XXOX/1OXOX o move X:0,O:0 - o -,- 0";
      await opened.fill("#setup-text", start);
      await opened.click("#setup");
      await opened.waitForFunction((s) => __qiTest.state.view.start.startsWith(s.split(" ")[0]), start);
      await opened.click("#share");
      // The box is empty until the link is made (a fresh page's).
      await opened.waitForFunction((l) => !["", l].includes(document.querySelector("#share-link").value), link);
      const second = await opened.inputValue("#share-link");
      check(/&start=/.test(second) && !/&moves=/.test(second), `a set-up position's link: ${second}`);
      const again = await other.newPage();
      await again.goto(second);
      await again.waitForSelector("body[data-ready='1']");
      await again.waitForFunction((s) => __qiTest.state.view && __qiTest.state.view.start.startsWith(s.split(" ")[0]) && __qiTest.state.view.moves.length === 0, start);
      // A link to a bad game says so.
      const bad = await other.newPage();
      await bad.goto(new URL("#game=chess&moves=e2e4", BASE).href);
      await bad.waitForSelector("body[data-ready='1']");
      await bad.waitForFunction(() => !document.querySelector("#error").hidden);
    } finally {
      await other.close();
    }
  },

  async "share: a link carries the move tree, variations and all"(page) {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await setMode(page, "human");
    const record = ['[Game "jungle:standard"]', "", "a3a4 g7g6 c3d3 a7a6 *", ""].join("\n");
    await page.fill("#record-text", record);
    await page.click("#load-record");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 4);
    // A variation from ply 1, two moves long, shown at its first move.
    await page.click('#moves button[data-ply="1"]');
    await page.waitForFunction(() => __qiTest.state.view.ply === 1);
    await clickSq(page, "a7");
    await clickSq(page, "a6");
    await clickSq(page, "g3");
    await clickSq(page, "g4");
    await page.waitForFunction(() => __qiTest.state.view.moves.join(" ") === "a3a4 a7a6 g3g4");
    await page.click("#nav-back");
    await page.waitForFunction(() => __qiTest.state.view.ply === 2);
    await page.click("#share");
    await waitForText(page, "#share", "Link copied");
    const link = await page.inputValue("#share-link");
    check(/&tree=/.test(link), `the link has the tree: ${link}`);
    const other = await page.context().browser().newContext();
    try {
      const { opened, errors } = await openLink(other, link);
      await opened.waitForFunction(() => __qiTest.state.view && __qiTest.state.view.tree.length === 6);
      const main = await opened.evaluate(() => [...document.querySelectorAll("#moves button[data-ply]")].map((b) => b.dataset.move).join(" "));
      check(main === "a3a4 g7g6 c3d3 a7a6", `the main line: ${main}`);
      const shownLine = await opened.evaluate(() => `${__qiTest.state.view.moves.join(" ")}|${__qiTest.state.view.ply}`);
      check(shownLine === "a3a4 a7a6 g3g4|2", `the variation's move shown: ${shownLine}`);
      check(errors.length === 0, `errors on the opened page: ${errors.join("; ")}`);
      // A link of one line, as the page made them before, still opens.
      const { opened: old } = await openLink(other, new URL("#game=jungle%3Astandard&moves=a3a4+g7g6+c3d3&ply=2", BASE).href);
      await old.waitForFunction(() => __qiTest.state.view && __qiTest.state.view.moves.join(" ") === "a3a4 g7g6 c3d3" && __qiTest.state.view.ply === 2);
    } finally {
      await other.close();
    }
  },

  async "play defect 10: resign asks first"(page) {
    await setMode(page, "human");
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 1);
    await page.click("#resign");
    await page.waitForSelector("#resign-dialog[open]");
    await waitForText(page, "#rs-text", "Blue: resign this game?");
    await page.click("#resign-no");
    check(!(await page.evaluate(() => __qiTest.gameOver())), "Play on: the game goes on");
    await page.click("#resign");
    await page.click("#resign-yes");
    await waitForText(page, "#status", "Red wins: resignation.");
  },

  async "sounds: off by default, one per move when on, remembered"(page) {
    const played = () => page.evaluate(() => window.qiSounds);
    await setMode(page, "human");
    check(!(await page.isChecked("#sound")), "sounds are off by default");
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 1);
    check((await played()) === 0, `no sound when off: ${await played()}`);
    await page.check("#sound");
    await clickSq(page, "g7");
    await clickSq(page, "g6");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 2);
    check((await played()) === 1, `one sound for one move: ${await played()}`);
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    check(await page.isChecked("#sound"), "the setting is remembered");
    await clickSq(page, "a4");
    await clickSq(page, "a5");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 3);
    check((await played()) === 1, `a sound after the reload: ${await played()}`);
    await page.uncheck("#sound");
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    check(!(await page.isChecked("#sound")), "off is remembered too");
    await clickSq(page, "g6");
    await clickSq(page, "g5");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 4);
    check((await played()) === 0, `silent again: ${await played()}`);
  },
};

/**
 * Opens `link` in a new page of the browser context `context`, once the
 * page is ready; the page and the errors it throws from then on.
 */
async function openLink(context, link) {
  const opened = await context.newPage();
  const errors = [];
  opened.on("pageerror", (e) => errors.push(e.message));
  await opened.goto(link);
  await opened.waitForSelector("body[data-ready='1']");
  return { opened, errors };
}

// Plays the human's side by clicks: a legal move picked by `choose` from the
// page's own list of legal moves.
async function humanMove(page, choose) {
  const legal = await page.evaluate(() => __qiTest.state.view.legal);
  const move = choose(legal);
  const squares = move.replace(/^x/, "").match(/[a-w][0-9]+/g);
  const before = await moveCount(page);
  for (const sq of squares) await clickSq(page, sq);
  await page.waitForFunction((n) => document.querySelectorAll("#moves button[data-ply]").length > n, before);
  return move;
}

// Take back, Flip and Resign are in the window, unscrolled, in both games,
// with the removal box of Five Tigers showing too.
async function aboveTheFold(page, name) {
  const inView = async (what) => {
    for (const id of ["#undo", "#flip", "#resign", "#nav-back"]) {
      const box = await page.locator(id).boundingBox();
      const size = page.viewportSize();
      check(box && box.y >= 0 && box.y + box.height <= size.height && box.x + box.width <= size.width,
        `${what}: ${id} at ${box && Math.round(box.y + box.height)} is outside the ${size.width}x${size.height} window`);
    }
  };
  await setMode(page, "first");
  await page.evaluate(() => window.scrollTo(0, 0));
  await inView("jungle");
  await page.screenshot({ path: join(SHOTS, `fold-${name}-jungle.png`) });
  await setMode(page, "human");
  await chooseGame(page, "five-tigers:shandong");
  // A square formed: the removal box shows above the board.
  for (const move of ["b2", "a5", "b3", "c4", "c2", "e5", "c3"]) {
    await page.evaluate(async (m) => __qiTest.show(await __qiTest.backend.play(m)), move);
  }
  await page.waitForSelector("#removal:not([hidden])");
  await page.evaluate(() => window.scrollTo(0, 0));
  await inView("five tigers with a removal owed");
  await page.screenshot({ path: join(SHOTS, `fold-${name}-five-tigers.png`) });
}

// The engine's answers at level 1 to a3a4, each time a fresh search of the
// same position (a takeback, the same move again).
async function levelOneAnswers(page, count) {
  await page.selectOption("#level", "1");
  await setMode(page, "first");
  const answers = [];
  for (let i = 0; i < count; i++) {
    await page.waitForFunction(() => !__qiTest.state.thinking && !__qiTest.state.busy && __qiTest.state.view.ply === 0);
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 2 && !__qiTest.state.thinking);
    answers.push(await page.evaluate(() => __qiTest.state.view.moves[1]));
    await page.click("#undo");
  }
  return answers;
}

// Waits until the site's service worker controls the page (a first visit
// installs it, and it claims the page once active).
async function controlled(page) {
  await page.waitForFunction(() => navigator.serviceWorker && navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
}

// The tests that run a clock down with Playwright's clock (see open).
const fakeClocks = new Set(["clocks: a flag on time ends a two-player game, the record says so"]);

Object.assign(tests, {
  async "clocks: a flag on time ends a two-player game, the record says so"(page) {
    check(await page.inputValue("#nd-clock") === "", "no clock by default");
    check(await page.locator(".clock:not([hidden])").count() === 0, "no clock shown without one");
    await newGameOnClock(page, "human", "15");
    await page.waitForSelector("#clock-bottom.running");
    check((await text(page, "#clock-bottom .name")) === "Red" && (await text(page, "#clock-top .name")) === "Blue",
      "Red's clock below the board, Blue's above");
    check(/^0:1[45]/.test(await text(page, "#clock-bottom .time")), `a quarter of a minute: ${await text(page, "#clock-bottom .time")}`);
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 1);
    await page.waitForSelector("#clock-top.running");
    check(await page.locator("#clock-bottom.running").count() === 0, "Red's clock stopped with its move");
    // Blue does not move: its flag falls (on the server, in real time).
    if (STATIC) await page.clock.fastForward(16000);
    await page.waitForFunction(() => document.querySelector("#status").textContent === "Blue ran out of time: Red wins.",
      null, { timeout: 40000 });
    check(await page.locator("#clock-top.flagged").count() === 1, "Blue's clock shows its flag");
    check((await text(page, "#clock-top .time")) === "0:00.0", `Blue has nothing left: ${await text(page, "#clock-top .time")}`);
    check(!(await clickable(page)), "no move after the flag");
    // The result dialog offers the game's review.
    await page.click("#result-review");
    await page.waitForFunction(() => __qiTest.state.review !== null && __qiTest.state.review.result.moves.length === 1,
      null, { timeout: 60000 });
    check(await page.locator("#review-sides li").count() === 2, "each side's accuracy after the review");
    await page.click("#save-record");
    await page.waitForFunction(() => document.querySelector("#record-text").value.includes("[Termination"));
    const record = await page.inputValue("#record-text");
    for (const tag of ['[TimeControl "15"]', '[Result "1-0"]', '[Termination "loss on time"]']) {
      check(record.includes(tag), `the record has ${tag}: ${record}`);
    }
    await page.screenshot({ path: join(SHOTS, "clock-flag.png") });
  },

  async "clocks: a reload keeps the clock, its time running on"(page) {
    await newGameOnClock(page, "human", "180+2");
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 1);
    const before = await clockOf(page);
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    await page.waitForSelector("#clock-top.running");
    const after = await clockOf(page);
    check(after.control === "180+2" && after.running === "second", `the clock after a reload: ${JSON.stringify(after)}`);
    check(after.remaining_ms[0] === before.remaining_ms[0], `Red's time kept: ${before.remaining_ms[0]} then ${after.remaining_ms[0]}`);
    check(after.remaining_ms[1] <= before.remaining_ms[1], `Blue's time ran on: ${before.remaining_ms[1]} then ${after.remaining_ms[1]}`);
    await clickSq(page, "g7");
    await clickSq(page, "g6");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 2);
    await page.waitForSelector("#clock-bottom.running");
    await page.click("#save-record");
    await page.waitForFunction(() => document.querySelector("#record-text").value.includes("g7g6"));
    check((await page.inputValue("#record-text")).includes('[TimeControl "180+2"]'), "the record's time control after a reload");
  },

  async "clocks: against the engine both clocks run, each move adds the increment"(page) {
    await page.selectOption("#level", "3");
    await newGameOnClock(page, "first", "600+5");
    await page.waitForSelector("#clock-bottom.running");
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    // The engine answers on its clock; then Red's runs again.
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 2 && !__qiTest.state.thinking);
    await page.waitForSelector("#clock-bottom.running");
    const clock = await clockOf(page);
    // Each side moved within 5 s: the 5 s added leave it above 10 minutes.
    check(clock.remaining_ms[0] > 600000 && clock.remaining_ms[1] > 600000, `the increment added: ${JSON.stringify(clock)}`);
    check(clock.running === "first", `Red's time runs: ${JSON.stringify(clock)}`);
    check(/^10:0[0-5]$/.test(await text(page, "#clock-top .time")), `Blue's clock: ${await text(page, "#clock-top .time")}`);
    await page.click("#save-record");
    await page.waitForFunction(() => document.querySelector("#record-text").value.includes("a3a4"));
    const record = await page.inputValue("#record-text");
    check(record.includes('[TimeControl "600+5"]') && record.includes('[Result "*"]'), `the record: ${record}`);
    // The clocks leave the board's buttons in the window.
    for (const id of ["#undo", "#flip", "#resign", "#clock-bottom"]) {
      const box = await page.locator(id).boundingBox();
      check(box && box.y + box.height <= 800, `${id} above the fold at 1280x800: ${box && box.y + box.height}`);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, "clock-engine-1280x800.png") });
    await page.setViewportSize(PHONE);
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const id of ["#undo", "#clock-bottom"]) {
      const box = await page.locator(id).boundingBox();
      check(box && box.y + box.height <= 844, `${id} above the fold at 390x844: ${box && box.y + box.height}`);
    }
    await page.screenshot({ path: join(SHOTS, "clock-engine-390x844.png") });
    // A phone held sideways: the clocks above and below the board, which
    // keeps its size, and the buttons beside it.
    await page.setViewportSize({ width: 844, height: 390 });
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const id of ["#undo", "#clock-bottom", "#clock-top"]) {
      const box = await page.locator(id).boundingBox();
      check(box && box.y >= 0 && box.y + box.height <= 390, `${id} in the window held sideways: ${JSON.stringify(box)}`);
    }
    const board = await page.locator("#board svg").boundingBox();
    check(board.height > 200, `the board keeps its size held sideways: ${board.height}`);
    await page.screenshot({ path: join(SHOTS, "clock-engine-844x390.png") });
    // The analysis board has no clock.
    await setMode(page, "analysis");
    await page.waitForFunction(() => !__qiTest.state.view.clock);
    check(await page.locator(".clock:not([hidden])").count() === 0, "no clock on the analysis board");
  },
});

// A game whose sixth move hangs Blue's Elephant to Red's Rat (g5g4, next
// to the Rat on g3): the review marks it a blunder, the better move g5g6.
const BLUNDER = '[Game "jungle:standard"]\n\na1a2 g7g6 a2a1 g6g5 a1a2 g5g4 *\n';

Object.assign(tests, {
  async "hint: off by default; on, a click shows a good move as an arrow, remembered"(page) {
    check(!(await page.isChecked("#hints")), "the Hint button is off by default");
    check(await page.locator("#hint-button").isHidden(), "no Hint button by default");
    await page.check("#hints");
    await page.waitForSelector("#hint-button:not([hidden])");
    await page.click("#hint-button");
    const move = await (await page.waitForFunction(() => {
      const arrow = document.querySelector("#board .overlay.hint");
      return arrow ? arrow.dataset.move : null;
    })).jsonValue();
    const legal = await page.evaluate(() => __qiTest.state.view.legal);
    check(legal.includes(move), `the hint ${move} is a legal move: ${legal}`);
    await page.screenshot({ path: join(SHOTS, "hint.png") });
    // The hint belongs to its position: a move takes it away.
    const other = legal.find((m) => m !== move);
    await clickSq(page, other.slice(0, 2));
    await clickSq(page, other.slice(2, 4));
    await page.waitForFunction(() => __qiTest.state.view.moves.length >= 1);
    check(await page.locator("#board .overlay.hint").count() === 0, "no hint after the move");
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    check(await page.isChecked("#hints"), "the setting is remembered");
    check(await page.locator("#hint-button").isVisible(), "the Hint button after a reload");
  },

  async "analysis: the other lines' arrows, lighter than the best's"(page) {
    await setMode(page, "human");
    await page.selectOption("#an-multipv", "3");
    await page.click("#analyse");
    await page.waitForFunction(() => Number(document.querySelector("#an-depth").textContent) >= 4);
    // Read in one step: the arrows are drawn again at each report.
    const arrows = await (await page.waitForFunction(() => {
      const best = document.querySelector("#board .overlay.arrow");
      const others = [...document.querySelectorAll("#board .overlay.arrow-other")];
      if (!best || others.length !== 2) return null;
      return { best: [best.dataset.move, Number(best.getAttribute("opacity"))], others: others.map((o) => [o.dataset.move, Number(o.getAttribute("opacity"))]) };
    })).jsonValue();
    const moves = [arrows.best[0], ...arrows.others.map((o) => o[0])];
    check(new Set(moves).size === 3, `three different moves: ${moves}`);
    check(arrows.others.every((o) => o[1] < arrows.best[1]), `the others lighter: ${JSON.stringify(arrows)}`);
    await page.click("#analyse");
    await page.waitForFunction(() => !__qiTest.state.analysing);
    check(await page.locator("#board .overlay.arrow-other").count() === 0, "no arrows once stopped");
  },

  async "review: a known blunder marked ??, its better move shown, each side's accuracy, the graph"(page) {
    check(await page.locator("#review").isDisabled(), "nothing to review in a new game against the engine");
    await page.fill("#record-text", BLUNDER);
    await page.click("#load-record");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 6);
    await page.click("#review");
    await page.waitForSelector('#moves button[data-ply="6"] .judgement', { timeout: 60000 });
    check((await text(page, '#moves button[data-ply="6"] .judgement')) === "??", "g5g4 is a blunder (??)");
    const review = await page.evaluate(() => __qiTest.state.review.result);
    const sixth = review.moves.find((m) => m.ply === 6);
    check(sixth.played === "g5g4" && sixth.judgement === "blunder" && sixth.best === "g5g6", `the sixth move: ${JSON.stringify(sixth)}`);
    check(review.positions.length === 7 && review.complete, "every position reviewed");
    const sides = await page.locator("#review-sides li").allInnerTexts();
    check(sides.length === 2 && sides[0].startsWith("Red: accuracy") && sides[1].startsWith("Blue: accuracy"), `accuracy: ${sides}`);
    check(/1 blunder\b/.test(sides[1]) || /[0-9] blunders/.test(sides[1]), `Blue's blunders counted: ${sides[1]}`);
    check((await text(page, "#review-move")).includes("g5g4??: Blunder. Better was g5g6."), `the verdict: ${await text(page, "#review-move")}`);
    await page.click("#review-better");
    await page.waitForFunction(() => __qiTest.state.view.ply === 5);
    // A straight line has no width: attached, not "visible".
    await page.waitForSelector('#board .overlay.better[data-move="g5g6"]', { state: "attached" });
    check((await text(page, "#review-move")).includes("The better move: g5g6"), `the arrow's note: ${await text(page, "#review-move")}`);
    await page.screenshot({ path: join(SHOTS, "review-better.png") });
    // A click on the graph's second position goes there.
    const graph = await page.locator("#review-graph svg").boundingBox();
    await page.mouse.click(graph.x + (graph.width * 2) / 6, graph.y + graph.height / 2);
    await page.waitForFunction(() => __qiTest.state.view.ply === 2);
    check(await page.locator("#board .overlay.better").count() === 0, "the arrow belongs to its position");
  },

  async "review: its progress shown position by position, on either backend"(page) {
    await page.fill("#record-text", BLUNDER);
    await page.click("#load-record");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 6);
    // Every text the progress note is given, kept as it is drawn.
    await page.evaluate(() => {
      window.qiNotes = [];
      const note = document.querySelector("#review-state");
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) window.qiNotes.push(n.textContent);
      }).observe(note, { childList: true });
    });
    await page.click("#review");
    await page.waitForSelector('#moves button[data-ply="6"] .judgement', { timeout: 60000 });
    const notes = await page.evaluate(() => window.qiNotes);
    for (let done = 1; done <= 7; done += 1) {
      check(notes.includes(`reviewing… ${done} of 7 positions`), `position ${done} of 7 told: ${JSON.stringify(notes)}`);
    }
  },

  async "review: cancelled, it leaves nothing; the page's words in Chinese"(page) {
    await page.selectOption("#lang", "zh");
    await page.fill("#record-text", BLUNDER);
    await page.click("#load-record");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 6);
    await page.click("#review");
    check((await text(page, "#review")) === "取消", "the button cancels while it runs");
    check(await page.locator("#review-progress:not([hidden])").count() === 1, "its progress is shown");
    await page.click("#review");
    check(await page.evaluate(() => __qiTest.state.reviewing === null), "no review runs");
    await page.waitForTimeout(3000);
    check(await page.evaluate(() => __qiTest.state.review === null), "a cancelled review gives nothing");
    check(await page.locator("#moves .judgement").count() === 0, "no marks");
    check((await text(page, "#review")) === "复盘", "the button reviews again");
    await page.click("#review");
    await page.waitForSelector('#moves button[data-ply="6"] .judgement', { timeout: 60000 });
    const sides = await page.locator("#review-sides li").allInnerTexts();
    check(sides[0].startsWith("红方：准确率"), `in Chinese: ${sides}`);
    check((await text(page, "#review-move")).includes("漏着"), `the verdict: ${await text(page, "#review-move")}`);
    await page.setViewportSize(PHONE);
    await page.locator("#review-box").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, "review-390x844-zh.png") });
  },
});

const staticTests = {
  async "static: the first visit fetches every module at once, and each file once"(page) {
    // What the page loaded (its own timeline: not the workers' nor the
    // service worker's), against what index.html preloads: a module met
    // only in an import would be fetched after the one importing it.
    const { preloaded, loaded } = await page.evaluate(() => ({
      preloaded: [...document.querySelectorAll('link[rel="modulepreload"], link[rel="preload"]')].map((l) => /** @type {HTMLLinkElement} */ (l).href),
      loaded: performance.getEntriesByType("resource").map((e) => e.name).filter((n) => /\.(js|wasm)$/.test(n)),
    }));
    check(loaded.some((u) => u.endsWith(".wasm")), `the wasm module is among the files: ${loaded.join(" ")}`);
    // The wasm module is fetched by boot.js itself as soon as site.json
    // names the in-page backend: a preload could not start it sooner.
    const late = loaded.filter((u) => !preloaded.includes(u) && !u.endsWith(".wasm"));
    check(late.length === 0, `loaded but not preloaded: ${late.join(" ")}`);
    // A preload that the page's own request did not match is fetched twice.
    const twice = loaded.filter((u, i) => page.urls.filter((r) => r === u).length > 1 || loaded.indexOf(u) !== i);
    check(twice.length === 0, `fetched twice: ${twice.join(" ")}`);
  },

  async "static: installable: a manifest in both languages, a service worker controlling the page"(page) {
    const href = await page.getAttribute('link[rel="manifest"]', "href");
    const manifest = await page.evaluate(async (h) => (await fetch(h)).json(), href);
    check(manifest.name && manifest.short_name && manifest.display === "standalone", `name and display: ${JSON.stringify(manifest)}`);
    check(manifest.theme_color === "#3d5a3a" && manifest.start_url, "theme colour and start");
    const sizes = manifest.icons.map((i) => i.sizes);
    check(sizes.includes("192x192") && sizes.includes("512x512"), `icons ${sizes.join(" ")}`);
    check(/斗兽棋/.test(manifest.name) && manifest.translations && manifest.translations.zh.name, "both languages");
    for (const icon of manifest.icons) {
      const ok = await page.evaluate(async (s) => (await fetch(s)).ok, icon.src);
      check(ok, `the icon ${icon.src} is there`);
    }
    check(await page.getAttribute('meta[name="theme-color"]', "content") === "#3d5a3a", "a theme colour");
    await controlled(page);
  },

  async "static: offline, a reload after the first visit plays a game"(page) {
    await controlled(page);
    await page.context().setOffline(true);
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    await page.selectOption("#level", "3");
    await setMode(page, "first");
    for (let i = 0; i < 3; i++) {
      await page.waitForFunction(() => !__qiTest.state.thinking && !__qiTest.state.busy && __qiTest.state.view.to_move === "first");
      await humanMove(page, (legal) => legal[0]);
      await page.waitForFunction((n) => __qiTest.state.view.moves.length === n && !__qiTest.state.thinking, 2 * (i + 1));
    }
    check((await moveCount(page)) === 6, "three moves each, offline");
    await page.context().setOffline(false);
  },

  async "static: a new build offers to reload into it"(page) {
    if (!process.env.QI_SITE_DIR) throw new Error("QI_SITE_DIR (the exported site) is not set");
    await controlled(page);
    const file = join(process.env.QI_SITE_DIR, "version.js");
    const before = readFileSync(file, "utf8");
    check(await page.locator("#update").isHidden(), "no offer before a new build");
    // A new build: a new version of the files.
    writeFileSync(file, before.replace(/QI_VERSION = "[^"]*"/, `QI_VERSION = "test-${Date.now()}"`));
    try {
      await page.reload();
      await page.waitForSelector("body[data-ready='1']");
      await page.waitForSelector("#update:not([hidden])", { timeout: 30000 });
      const cachesBefore = await page.evaluate(() => caches.keys());
      await Promise.all([page.waitForEvent("load"), page.click("#update-reload")]);
      await page.waitForSelector("body[data-ready='1']");
      await page.waitForFunction(async () => (await caches.keys()).length === 1);
      const after = await page.evaluate(() => caches.keys());
      check(after.length === 1 && !cachesBefore.every((c) => after.includes(c)), `the new cache replaced the old: ${cachesBefore} -> ${after}`);
      check(await page.locator("#update").isHidden(), "no offer once reloaded");
    } finally {
      writeFileSync(file, before);
    }
  },

  async "static: play defect 1: a weak level does not replay the same game"(page) {
    const answers = await levelOneAnswers(page, 8);
    check(new Set(answers).size > 1, `level 1 answered a3a4 the same way 8 times: ${answers.join(" ")}`);
  },

  async "static: play defect 8: a saved record's Event is not qi serve"(page) {
    await setMode(page, "human");
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => __qiTest.state.view.moves.length === 1);
    await page.fill("#record-text", "");
    await page.click("#save-record");
    await page.waitForFunction(() => document.querySelector("#record-text").value.includes("a3a4"));
    const record = await page.inputValue("#record-text");
    check(!record.includes("qi serve") && /\[Event "qi"\]/.test(record), `the record's Event: ${record.split("\n")[0]}`);
  },

  async "static: a full jungle game against the engine"(page) {
    // A weak level, as a beginner would choose it (levels below 10 answer
    // at once).
    await page.selectOption("#level", "2");
    await setMode(page, "first");
    // Red plays the first legal move in the page's order (a weak
    // player), the engine answers until the game ends.
    for (let i = 0; i < 200; i++) {
      if (await page.evaluate(() => !!__qiTest.state.view.result)) break;
      await page.waitForFunction(() => !__qiTest.state.thinking && !__qiTest.state.busy && (__qiTest.state.view.result || __qiTest.state.view.to_move === "first"));
      if (await page.evaluate(() => !!__qiTest.state.view.result)) break;
      await humanMove(page, (legal) => legal[0]);
    }
    const status = await text(page, "#status");
    check(/wins|Draw/.test(status), `the game ended: ${status}`);
    const moves = await moveCount(page);
    check(moves >= 10, `a game of ${moves} moves`);
    // The finished game survives a reload.
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    check((await moveCount(page)) === moves, "the finished game is kept");
    check((await text(page, "#status")) === status, "and its result");
  },

  async "static: five tigers against the engine to the movement phase"(page) {
    await page.selectOption("#level", "3");
    await setMode(page, "first");
    await chooseGame(page, "five-tigers:shandong");
    for (let i = 0; i < 40; i++) {
      await page.waitForFunction(() => !__qiTest.state.thinking && !__qiTest.state.busy && (__qiTest.state.view.result || __qiTest.state.view.to_move === "first"));
      const v = await page.evaluate(() => ({ phase: __qiTest.state.view.phase, result: __qiTest.state.view.result }));
      if (v.result || v.phase === "move") break;
      await humanMove(page, (legal) => legal[legal.length - 1]);
    }
    await page.waitForFunction(() => !__qiTest.state.thinking);
    const phase = await page.evaluate(() => __qiTest.state.view.phase);
    const result = await page.evaluate(() => __qiTest.state.view.result);
    check(phase === "move" || result, `placements done (phase ${phase})`);
  },

  async "static: a full five tigers game against the engine"(page) {
    await page.selectOption("#level", "3");
    await setMode(page, "first");
    await chooseGame(page, "five-tigers:ten");
    for (let i = 0; i < 400; i++) {
      await page.waitForFunction(() => !__qiTest.state.thinking && !__qiTest.state.busy && (__qiTest.state.view.result || __qiTest.state.view.to_move === "first"));
      if (await page.evaluate(() => !!__qiTest.state.view.result)) break;
      await humanMove(page, (legal) => legal[0]);
    }
    const status = await text(page, "#status");
    check(/wins|Draw/.test(status), `the game ended: ${status}`);
    await page.waitForSelector("#result-dialog[open]");
    await page.screenshot({ path: join(SHOTS, "five-tigers-full-game.png") });
  },

  async "static: reload while the engine thinks keeps the game"(page) {
    await fullEngine(page, "3000");
    await setMode(page, "first");
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await waitForText(page, "#status", "thinking");
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    check((await page.locator("#mode").inputValue()) === "first", "the mode is kept");
    check((await page.locator("#movetime").inputValue()) === "3000", "the engine time is kept");
    const first = await page.locator(MOVES).first().getAttribute("data-move");
    check(first === "a3a4", `the move is kept: ${first}`);
    // The engine, which died with the old page, thinks again and answers.
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 2, null, { timeout: 15000 });
    await waitForText(page, "#status", "Red to move");
    // A new tab of the same site shows the same game.
    const other = await page.context().newPage();
    await other.goto(BASE);
    await other.waitForSelector("body[data-ready='1']");
    check((await moveCount(other)) === 2, "another tab shows the saved game");
    await other.close();
  },

  async "static: threads: two workers find a legal best move, and Stop ends both"(page) {
    check(await page.locator("#threads-row").isVisible(), "the threads are a setting of the static page");
    await page.selectOption("#threads", "2");
    await setMode(page, "human");
    await page.click("#analyse");
    await page.waitForFunction(() => Number(document.querySelector("#an-depth").textContent) >= 6);
    check((await page.evaluate(() => window.qiWorkers.size)) === 2, "two workers search");
    await page.click("#analyse");
    await waitForText(page, "#an-state", "stopped");
    check((await page.evaluate(() => window.qiWorkers.size)) === 0, "the stop ended both workers");
    const legal = await page.evaluate(() => window.__qiTest.state.view.legal);
    const best = (await text(page, "#an-state")).match(/best (\S+)\)/);
    check(best && legal.includes(best[1]), `the best move is legal: ${await text(page, "#an-state")}`);
    const depth = await text(page, "#an-depth");
    await page.waitForTimeout(500);
    check((await text(page, "#an-depth")) === depth, "no iteration after the stop");
    // The engine plays on two threads: its move is played, both workers end.
    await fullEngine(page, "500");
    await page.click("#engine-move");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 1, null, { timeout: 15000 });
    check((await page.evaluate(() => window.qiWorkers.size)) === 0, "the engine's workers ended with its move");
    // The setting is kept.
    await page.reload();
    await page.waitForSelector("body[data-ready='1']");
    check((await page.inputValue("#threads")) === "2", "two threads kept");
  },

  async "static: stop ends the analysis at once"(page) {
    await setMode(page, "human");
    await page.click("#analyse");
    await page.waitForFunction(() => Number(document.querySelector("#an-depth").textContent) >= 4);
    await page.click("#analyse");
    await waitForText(page, "#an-state", "stopped");
    const depth = await text(page, "#an-depth");
    await page.waitForTimeout(1000);
    check((await text(page, "#an-depth")) === depth, "no iteration after the stop");
    // The page answers at once: a move plays.
    await clickSq(page, "a3");
    await clickSq(page, "a4");
    await page.waitForFunction(() => document.querySelectorAll("#moves button[data-ply]").length === 1);
  },
};

if (STATIC) {
  // Tabs share the browser's saved game on a static site.
  delete tests["two tabs, two games"];
  Object.assign(tests, staticTests);
}

const PHONE = { width: 390, height: 844 };
const viewports = {
  "move tree: variations kept, promoted, deleted, through a record and a reload": { width: 1280, height: 800 },
  "move tree: a phone in Chinese shows variations and their buttons": PHONE,
  "analysis: a line hovered is previewed on a small board, a click plays it": { width: 1280, height: 800 },
  "phone-sized screen": PHONE,
  "phone: a finger drags a piece, an illegal drop is refused": PHONE,
  "defect 1: a move on a phone does not scroll the window": PHONE,
  "screenshots: phone in Chinese": PHONE,
  "screenshots: phone held sideways": { width: 844, height: 390 },
  "play defect 4: an error after Load text is in view at 1280x800": { width: 1280, height: 800 },
  "play defect 9: the board's buttons above the fold at 1280x800": { width: 1280, height: 800 },
  "clocks: against the engine both clocks run, each move adds the increment": { width: 1280, height: 800 },
  "review: a known blunder marked ??, its better move shown, each side's accuracy, the graph": { width: 1280, height: 800 },
  "play defect 9: the board's buttons above the fold on a phone": PHONE,
  "play defect 9: the board's buttons above the fold on a phone held sideways": { width: 844, height: 390 },
};
const schemes = { "screenshots: dark theme from the system": "dark", "play defect 12: the board darkens in dark mode": "dark" };
// Scripts run before the page's own, in every page the test opens.
const inits = {
  // Two cores whatever the machine, and the engine's workers alive now.
  "static: threads: two workers find a legal best move, and Stop ends both": () => {
    Object.defineProperty(navigator, "hardwareConcurrency", { get: () => 2 });
    window.qiWorkers = new Set();
    const Native = window.Worker;
    window.Worker = class extends Native {
      constructor(...args) {
        super(...args);
        window.qiWorkers.add(this);
      }
      terminate() {
        window.qiWorkers.delete(this);
        super.terminate();
      }
    };
  },
  // The Web Audio API the page plays its sounds with, replaced by one that
  // counts the tones started (since the page loaded) and plays nothing.
  "sounds: off by default, one per move when on, remembered": () => {
    window.qiSounds = 0;
    const node = () => ({ connect: (next) => next });
    window.AudioContext = class {
      constructor() {
        this.currentTime = 0;
        this.destination = node();
      }
      createOscillator() {
        return { ...node(), frequency: { value: 0 }, start: () => { window.qiSounds += 1; }, stop() {} };
      }
      createGain() {
        return { ...node(), gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } };
      }
    };
  },
};
let currentTest = "";
const locales = {
  "chinese from the browser's language, switchable and remembered": "zh-CN",
  "chinese five tigers: removal, formation and hands in words": "zh-CN",
  "chinese: the library's errors in Chinese, whole": "zh-CN",
  "screenshots: phone in Chinese": "zh-CN",
  "screenshots: desktop in Chinese": "zh-CN",
  "move tree: a phone in Chinese shows variations and their buttons": "zh-CN",
};

// Playwright gives the browser a fresh, empty --user-data-dir of its own
// (it refuses one in args), removed when the browser closes.
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

let passed = 0;
let failed = 0;
for (const [name, test] of Object.entries(tests)) {
  if (!name.includes(filter)) continue;
  const started = Date.now();
  currentTest = name;
  const { context, page, errors } = await open(browser, viewports[name], locales[name]);
  const shot = join(SHOTS, `${name.replace(/[^a-z0-9]+/gi, "-")}.png`);
  try {
    await test(page);
    check(errors.length === 0, `errors on the page: ${errors.join("; ")}`);
    const foreign = page.urls.filter((u) => !u.startsWith(new URL(BASE).origin) && !u.startsWith("blob:") && !u.startsWith("data:"));
    check(foreign.length === 0, `requests to elsewhere: ${foreign.join(" ")}`);
    await page.screenshot({ path: shot, fullPage: true });
    passed += 1;
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    failed += 1;
    await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
    console.log(`FAIL ${name}: ${e.message.split("\n")[0]}`);
    console.log(`  at ${(e.stack.match(/run\.mjs:[0-9]+/g) || []).join(" ")}`);
    console.log(`  requests: ${page.log.slice(-12).join("; ")}`);
  }
  await context.close();
}
await browser.close();

// Leave an analysis running, so that stopping the server is tested with a
// search in progress.
if (!STATIC) try {
  const created = await fetch(new URL("api/sessions", BASE), { method: "POST" });
  const { id } = await created.json();
  const started = await fetch(new URL(`api/sessions/${id}/analysis/start`, BASE), { method: "POST" });
  check(started.status === 202, `analysis started: ${started.status}`);
} catch (e) {
  failed += 1;
  console.log(`FAIL leaving an analysis running: ${e.message}`);
}
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
