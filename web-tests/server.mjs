// Browser tests of the defects of `qi serve` itself (docs/web.md, "The
// API"): Playwright drives Debian's chromium against a server already
// running at QI_URL with its session API (`qi serve`).
//
//   QI_URL=http://127.0.0.1:PORT/ node server.mjs [name-filter]
//
// * Another web page (here one served by this script on another port,
//   another origin) cannot create sessions with blind cross-origin POSTs
//   and so evict a live game.
// * Closing tabs stops their analyses: four closed tabs that were
//   analysing do not keep a fifth's engine from answering.

import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const BASE = process.env.QI_URL || "http://127.0.0.1:8080/";
const SHOTS = process.env.SHOTS || "target/web-tests";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const filter = process.argv[2] || "";
mkdirSync(SHOTS, { recursive: true });

function check(condition, message) {
  if (!condition) throw new Error(message);
}

// A page of qi serve in a fresh context (a fresh session), ready.
async function open(browser) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  await page.goto(BASE);
  await page.waitForSelector("body[data-ready='1']");
  const id = await page.evaluate(() => sessionStorage.getItem("qi-session"));
  check(id, "the page has a session");
  return { context, page, id };
}

// A same-origin API call from `page`: [status, body].
async function api(page, method, path, body) {
  return page.evaluate(async ([method, path, body]) => {
    const init = { method, headers: { "content-type": "application/json" } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(path, init);
    return [response.status, await response.json().catch(() => null)];
  }, [method, path, body]);
}

// Serves `html` on a free port of this machine: another origin than qi's.
async function otherOrigin(html) {
  const server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(html);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

const tests = {
  async "another web page cannot create sessions and evict a live game"(browser) {
    const { context, page, id } = await open(browser);
    const [status] = await api(page, "POST", `/api/sessions/${id}/play`, { move: "a3a4" });
    check(status === 200, `the page's own move is played (${status})`);
    // Blind POSTs, as any page may send them: no-cors fetches (the answers
    // cannot be read, the requests still arrive) and a form.
    const evil = await otherOrigin(`<!doctype html><body><form id="f" method="POST"
      action="${BASE}api/sessions" enctype="text/plain" target="sink"><input name="x" value="1"></form>
      <iframe name="sink"></iframe><script>
      window.attack = async () => {
        for (let i = 0; i < 70; i++) {
          await fetch("${BASE}api/sessions", { method: "POST", mode: "no-cors", body: "{}" }).catch(() => {});
        }
        await fetch("${BASE}api/sessions/${id}/new", { method: "POST", mode: "no-cors", body: "{}" }).catch(() => {});
        await fetch("${BASE}api/sessions/${id}", { method: "DELETE", mode: "no-cors" }).catch(() => {});
        document.getElementById("f").submit();
        return true;
      };
      </script></body>`);
    const attacker = await browser.newContext();
    const evilPage = await attacker.newPage();
    await evilPage.goto(evil.url);
    await evilPage.evaluate(() => window.attack());
    await evilPage.waitForTimeout(500);
    await attacker.close();
    evil.server.close();
    // The live game is still there and unchanged (with 64 sessions kept,
    // 70 new ones would have replaced it).
    const [after, view] = await api(page, "GET", `/api/sessions/${id}`);
    check(after === 200, `the live session is kept (${after}: ${JSON.stringify(view)})`);
    check(JSON.stringify(view.moves) === '["a3a4"]', `its game is unchanged: ${JSON.stringify(view.moves)}`);
    await page.screenshot({ path: join(SHOTS, "server-cross-origin.png") });
    await context.close();
  },

  async "closed tabs stop their analyses: a fifth tab's engine answers"(browser) {
    // Four tabs analysing (each holds one of the server's 4 search slots).
    for (let i = 0; i < 4; i++) {
      const { context, page, id } = await open(browser);
      // Analysis mode starts analysing by itself.
      await page.selectOption("#mode", "analysis");
      let searching = null;
      for (let t = 0; t < 50 && searching !== "analysis"; t++) {
        const [, view] = await api(page, "GET", `/api/sessions/${id}`);
        searching = view && view.searching;
        if (searching !== "analysis") await page.waitForTimeout(100);
      }
      check(searching === "analysis", `tab ${i + 1} analyses`);
      await context.close();
    }
    const { context, page, id } = await open(browser);
    // The closed tabs' analyses end within seconds; until then the slots
    // may still be taken (503).
    const start = Date.now();
    let status = 0;
    let body = null;
    while (Date.now() - start < 15000) {
      [status, body] = await api(page, "POST", `/api/sessions/${id}/engine`, { movetime_ms: 200 });
      if (status === 200) break;
      await page.waitForTimeout(500);
    }
    check(status === 200, `the engine answered (last: ${status} ${JSON.stringify(body)})`);
    check(body.moves.length === 1, "and played its move");
    await page.screenshot({ path: join(SHOTS, "server-closed-tabs.png") });
    await context.close();
  },
};

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
let failed = 0;
for (const [name, test] of Object.entries(tests)) {
  if (!name.includes(filter)) continue;
  try {
    await test(browser);
    console.log(`ok   ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${name}: ${e.message}`);
  }
}
await browser.close();
process.exit(failed ? 1 : 0);
