// qi web app: the page of `qi serve`. Plain JavaScript, no libraries; it
// talks to the JSON API of docs/web.md and listens to the session's
// server-sent events for the engine's live output. As a static site
// (scripts/export-site.sh, whose site.json names the local backend), local.js answers
// the same requests with the game and engine in the page.
"use strict";

const $ = (id) => document.getElementById(id);

// ---- words -----------------------------------------------------------------

// Every word of the page in each language. The library's texts (its
// status, results and errors) are English; the page builds the Chinese
// ones from the view's fields and the tables below.
const WORDS = {
  en: {
    game: "Game", gameTitle: "game and preset", newGame: "New game", newGameDots: "New game…",
    language: "Language", board: "board",
    first: "first position", back: "back", forward: "forward", last: "last position",
    takeback: "Take back", takebackTitle: "take back your last move (against the engine, its reply too)",
    flip: "Flip", resign: "Resign", offerDraw: "Offer draw",
    players: "Players", mode: "Mode", modeHuman: "Two players", modeFirst: "You play first",
    modeSecond: "You play second", modeAnalysis: "Analysis board",
    playSide: (first, s) => `You play ${first ? "first" : "second"} (${s})`,
    level: "Engine level", levelName: (n) => (n === 1 ? "1 — beginner" : n === 10 ? "10 — full strength" : String(n)),
    movetime: "Engine time per move", seconds: (s) => `${s} s`,
    engineMove: "Engine move", engineMoveTitle: "let the engine play the side to move", sound: "Sounds", animate: "Animation",
    analysis: "Analysis", analyse: "Analyse", stop: "Stop", lines: "lines", linesAria: "lines of analysis (MultiPV)",
    depth: "depth", score: "score", nodes: "nodes", nps: "nodes/s", pv: "PV",
    multiAria: "the best moves, each with its line; click one to play it out",
    idle: "idle", analysing: "analysing…", engineThinking: "engine thinking…", stopped: "stopped",
    stoppedBest: (m) => `stopped (best ${m})`, lost: "the search stopped: the backend does not answer",
    moves: "Moves", mainLine: (n) => `Back to the main line (${n} move${n === 1 ? "" : "s"})`,
    position: "Position", positionTitle: "the shown position's text", copy: "Copy", copied: "Copied",
    selectCopy: "Select + copy", setup: "Set up", setupPlaceholder: "paste position text, then Set up",
    record: "Game record", save: "Save", openFile: "Open file", loadText: "Load text",
    share: "Copy link", shareTitle: "a link that opens this game at this move", linkCopied: "Link copied",
    recordPlaceholder: (spec) => `[Game "${spec}"] ... paste a game record, then Load text`,
    rules: "Rules (optional)", rulesTitle: "a game spec with rule options, e.g. five-tigers:ten,shuttle=allowed",
    youPlay: "You play", cancel: "Cancel", start: "Start", gameOver: "Game over", close: "Close",
    rematch: "Rematch", accept: "Accept", decline: "Decline",
    drawOffer: (a, b) => `${a} offers a draw. ${b}, do you accept?`,
    resignAsk: (s) => `${s}: resign this game?`, resignYes: "Resign", resignNo: "Play on",
    newVersion: "A new version is ready.", reload: "Reload",
    side: { Red: "Red", Blue: "Blue", X: "X", O: "O" },
    toMove: (s) => `${s} to move`, toPlace: (s) => `${s} to place`, toStep: (s) => `${s} to step`,
    thinking: (s) => `${s} (engine) is thinking…`,
    wins: (s, r) => `${s} wins: ${r}.`, draw: (r) => `Draw: ${r}.`,
    winsIn: (s, n) => `${s} wins in ${n}`,
    removalTake: (s, n, o) => `Removal: ${s} takes ${n} more piece${n === 1 ? "" : "s"} — click a piece of ${o}.`,
    removalGive: (c, s, n) => `Removal: ${c} has no loose piece and gives up one of its own (${s} is owed ${n}).`,
    hands: (a, x, b, y) => `In hand: ${a} ${x}, ${b} ${y}`,
    empty: "empty", illegal: "Not a legal move here", notYourTurn: "Wait for your turn",
    network: "The qi server does not answer: is `qi serve` still running? Reload the page once it is.",
    sessionLost: "The server no longer has this tab's game (it was restarted): a new game has started.",
    engineLoad: (m) => `The engine could not be loaded (${m}). Reload the page to try again.`,
    cannotStart: (m) => `cannot start: ${m}`, pasteFirst: "paste a position text first",
    animals: { E: "Elephant", L: "Lion", T: "Tiger", P: "Leopard", W: "Wolf", D: "Dog", C: "Cat", R: "Rat" },
    presets: {
      "jungle:standard": ["Jungle — standard", "The usual rules: the Wolf outranks the Dog, a Rat anywhere in the river blocks a jump across it, and 200 moves without a capture is a draw."],
      "jungle:yeshou": ["Jungle — Yeshou (野兽争霸)", "The PC game: only an enemy Rat blocks a jump, an animal on an enemy trap captures nothing, Rats capture across the bank, chasing is forbidden."],
      "jungle:datou": ["Jungle — Datou (大头斗兽棋)", "The mobile game: the Tiger jumps along ranks only, a Rat anywhere in the river blocks a jump."],
      "jungle:traditional": ["Jungle — traditional", "Dog over Wolf; the side that began a repetition loses unless it varies."],
      "five-tigers:shandong": ["Five Tigers — Shandong", "13 pieces each; a formation removes enemy pieces at once (four-diagonal 3, five tigers 4); shuttling back and forth is forbidden."],
      "five-tigers:shandong-shuttle": ["Five Tigers — Shandong, shuttle allowed", "The Shandong rules, but a piece may step back and forth."],
      "five-tigers:ten": ["Five Tigers — ten pieces", "The Shandong rules with 10 pieces each: a shorter game."],
      "five-tigers:deferred": ["Five Tigers — deferred capture", "13 pieces each; the formations are scored once the board is full (four-diagonal 4, five tigers 5)."],
    },
    custom: (s) => `rules: ${s}`,
    customDesc: "Rules typed in.",
    reasons: {},
  },
  zh: {
    game: "棋种", gameTitle: "棋种与规则", newGame: "新对局", newGameDots: "新对局…",
    language: "语言", board: "棋盘",
    first: "开局", back: "后退一步", forward: "前进一步", last: "最新局面",
    takeback: "悔棋", takebackTitle: "收回你的上一步（对引擎时连同它的应着）",
    flip: "翻转棋盘", resign: "认输", offerDraw: "提和",
    players: "对局", mode: "模式", modeHuman: "双人对弈", modeFirst: "你先走",
    modeSecond: "你后走", modeAnalysis: "分析模式",
    playSide: (first, s) => `你${first ? "先" : "后"}走（${s}）`,
    level: "引擎等级", levelName: (n) => (n === 1 ? "1 — 入门" : n === 10 ? "10 — 全力" : String(n)),
    movetime: "引擎每步用时", seconds: (s) => `${s} 秒`,
    engineMove: "引擎走一步", engineMoveTitle: "让引擎替轮到的一方走棋", sound: "音效", animate: "动画",
    analysis: "分析", analyse: "分析", stop: "停止", lines: "线路数", linesAria: "分析线路数（多主变）",
    depth: "深度", score: "评分", nodes: "节点", nps: "节点/秒", pv: "主变",
    multiAria: "最佳着法及其变化；点击可在棋盘上走出",
    idle: "空闲", analysing: "分析中…", engineThinking: "引擎思考中…", stopped: "已停止",
    stoppedBest: (m) => `已停止（最佳 ${m}）`, lost: "搜索中断：后台没有回应",
    moves: "着法", mainLine: (n) => `回到主线（${n} 步）`,
    position: "局面", positionTitle: "当前局面的文本", copy: "复制", copied: "已复制",
    selectCopy: "请选中后复制", setup: "摆局面", setupPlaceholder: "粘贴局面文本，然后点“摆局面”",
    record: "棋谱", save: "保存", openFile: "打开文件", loadText: "载入文本",
    share: "复制链接", shareTitle: "打开本局、停在这一步的链接", linkCopied: "已复制链接",
    recordPlaceholder: (spec) => `[Game "${spec}"] …… 粘贴棋谱，然后点“载入文本”`,
    rules: "自定规则（可选）", rulesTitle: "带规则选项的棋种，例如 five-tigers:ten,shuttle=allowed",
    youPlay: "你执", cancel: "取消", start: "开始", gameOver: "对局结束", close: "关闭",
    rematch: "再来一局", accept: "同意", decline: "拒绝",
    drawOffer: (a, b) => `${a}提和。${b}，是否同意？`,
    resignAsk: (s) => `${s}：确定认输吗？`, resignYes: "认输", resignNo: "继续下",
    newVersion: "新版本已就绪。", reload: "重新载入",
    side: { Red: "红方", Blue: "蓝方", X: "X方", O: "O方" },
    toMove: (s) => `${s}走棋`, toPlace: (s) => `${s}落子`, toStep: (s) => `${s}行棋`,
    thinking: (s) => `${s}（引擎）思考中…`,
    wins: (s, r) => `${s}胜：${r}。`, draw: (r) => `和棋：${r}。`,
    winsIn: (s, n) => `${s}${n}步胜`,
    removalTake: (s, n, o) => `提子：${s}还要提${n}子——点击${o}的棋子。`,
    removalGive: (c, s, n) => `提子：${c}没有散子，须献出自己的一子（${s}还可提${n}子）。`,
    hands: (a, x, b, y) => `手中棋子：${a} ${x}，${b} ${y}`,
    empty: "空", illegal: "这里不能走", notYourTurn: "请等轮到你",
    network: "qi 服务器没有回应：qi serve 还在运行吗？重新启动后请刷新页面。",
    sessionLost: "服务器已没有本页的对局（服务器重启过）：已开始新对局。",
    engineLoad: (m) => `引擎无法加载（${m}）。请刷新页面重试。`,
    cannotStart: (m) => `无法启动：${m}`, pasteFirst: "请先粘贴局面文本",
    animals: { E: "象", L: "狮", T: "虎", P: "豹", W: "狼", D: "狗", C: "猫", R: "鼠" },
    presets: {
      "jungle:standard": ["斗兽棋 — 标准", "最常见的规则：狼大于狗，河里任何位置的老鼠都会挡住跳河，连续200步无吃子判和。"],
      "jungle:yeshou": ["斗兽棋 — 野兽争霸", "电脑游戏《野兽争霸》：只有敌方老鼠能阻挡跳河，站在敌方陷阱上的动物不能吃子，老鼠可跨岸吃子，禁止长追。"],
      "jungle:datou": ["斗兽棋 — 大头斗兽棋", "手机游戏《大头斗兽棋》：老虎只能横向跳河，河中任何位置的老鼠都会阻挡跳河。"],
      "jungle:traditional": ["斗兽棋 — 传统", "狗大于狼；开始重复局面的一方若不变着则判负。"],
      "five-tigers:shandong": ["五虎棋 — 山东", "每方13子；成形立即提掉对方棋子（四斜提3子，五虎提4子）；禁止来回走。"],
      "five-tigers:shandong-shuttle": ["五虎棋 — 山东（允许来回走）", "山东规则，但棋子可以来回走。"],
      "five-tigers:ten": ["五虎棋 — 十子", "山东规则，每方10子：对局更短。"],
      "five-tigers:deferred": ["五虎棋 — 后算", "每方13子；棋盘摆满后才结算各种成形（四斜提4子，五虎提5子）。"],
    },
    custom: (s) => `自定规则：${s}`,
    customDesc: "手动输入的规则。",
    reasons: {
      "den entered": "进入兽穴",
      "no animals left": "动物被吃光",
      "no pieces left": "棋子被提光",
      "no step left": "无路可走",
      "no legal move": "无合法着法",
      "no legal move (the anti-chase rules forbid every move)": "无合法着法（禁止长追的规则禁止了所有着法）",
      "repetition (the side that began it did not vary)": "重复局面（开始重复的一方未变着）",
      "threefold repetition": "三次重复局面",
      "threefold repetition by the loser": "负方造成三次重复局面",
      "resignation": "对方认输",
      "loss on time": "超时",
      "agreed draw": "双方议和",
      "no-capture limit": "长时间无吃子",
    },
  },
};

// Reasons with a number in them.
const REASON_PATTERNS = {
  zh: [
    [/^no capture for (\d+) plies$/, "连续$1步无吃子"],
    [/^no removal for (\d+) plies$/, "连续$1步无提子"],
  ],
};

let LANG = "en";

function words() {
  return WORDS[LANG];
}

function sideName(name) {
  return words().side[name] || name;
}

function reasonText(reason) {
  const table = words().reasons;
  if (table[reason]) return table[reason];
  for (const [pattern, replacement] of REASON_PATTERNS[LANG] || []) {
    if (pattern.test(reason)) return reason.replace(pattern, replacement);
  }
  return reason;
}

// An error of the library or a backend in the page's language (errors.js):
// an Error with its kind and fields (the wasm package's and the server's),
// or a message.
function errorText(error) {
  const message = typeof error === "string" ? error : error.message;
  if (LANG === "en") return message;
  if (typeof error === "string") return explainError(message, LANG) ?? message;
  return explainErrorData(error, LANG) ?? message;
}

function presetName(spec) {
  const entry = words().presets[spec];
  return entry ? entry[0] : words().custom(spec);
}

function presetDescription(spec) {
  const entry = words().presets[spec];
  return entry ? entry[1] : words().customDesc;
}

function chooseLanguage() {
  const settings = readSettings();
  if (settings.lang === "en" || settings.lang === "zh") return settings.lang;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  return langs.some((l) => /^zh\b/i.test(l)) && !/^en\b/i.test(langs[0]) ? "zh" : "en";
}

function applyLanguage() {
  const w = words();
  document.documentElement.lang = LANG === "zh" ? "zh-CN" : "en";
  document.title = LANG === "zh" ? "qi — 斗兽棋与五虎棋" : "qi — Jungle 斗兽棋 and Five Tigers 五虎棋";
  if (!app.view) $("status").textContent = LANG === "zh" ? "加载中…" : "Loading…";
  for (const node of document.querySelectorAll("[data-i18n]")) {
    const value = w[node.dataset.i18n];
    if (typeof value === "string") node.textContent = value;
  }
  for (const [attr, data] of [["title", "i18nTitle"], ["placeholder", "i18nPlaceholder"], ["aria-label", "i18nAria"]]) {
    for (const node of document.querySelectorAll(`[data-${data.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`)) {
      const value = w[node.dataset[data]];
      if (typeof value === "string") node.setAttribute(attr, value);
    }
  }
  for (const option of $("movetime").options) option.textContent = w.seconds(Number(option.value) / 1000);
  for (const id of ["level", "nd-level"]) {
    for (const option of $(id).options) option.textContent = w.levelName(Number(option.value));
  }
  $("lang").value = LANG;
  nameSides();
  // What shows now in words of the page, said again.
  if (hint.key) $("hint").textContent = w[hint.key];
  if (showError.shown) $("error").textContent = errorText(showError.shown);
  fillGameSelects();
  if (app.view) show(app.view);
}

// ---- state -----------------------------------------------------------------

const app = {
  id: null,          // the session id
  view: null,        // the last game view
  presets: [],       // every preset spec, in the order of /api/games
  selected: null,    // the square of the piece about to move
  busy: false,       // a request that changes the game is in flight
  analysing: false,  // an analysis runs
  wantAnalysis: false, // analysis follows the position: it starts again after each change
  thinking: false,   // the engine is choosing its move
  events: null,      // the EventSource
  downSq: null,      // the square a pointer went down on
  searchNote: "idle", // how the last search ended (a key of WORDS, or a text)
  local: null,       // local.js's backend, on a static site
  ended: null,       // a resignation or agreed draw: {key, winner, reason}
  mainLine: null,    // the line a variation replaced: {moves, ply}
  best: null,        // the best line of the running analysis (for the arrow and the bar)
  lines: { depth: 0, fresh: [], older: [], shown: [] }, // the lines of several (MultiPV), see showLine
  focusSq: null,     // the square that keyboard focus is on
  resultShown: null, // the game key whose result dialog was shown
};

// Where the mode, engine time, level, language and sounds are kept.
const SETTINGS = "qi-settings";
// A resignation or agreed draw, which the backends do not know of.
const ENDED = "qi-ended";

function readSettings() {
  try {
    return JSON.parse(localStorage.getItem(SETTINGS) || "{}") || {};
  } catch (e) {
    return {};
  }
}

function saveSettings() {
  const settings = {
    mode: $("mode").value,
    movetime: $("movetime").value,
    level: $("level").value,
    lang: LANG,
    sound: $("sound").checked,
    animate: $("animate").checked,
  };
  localStorage.setItem(SETTINGS, JSON.stringify(settings));
}

function restoreSettings() {
  const settings = readSettings();
  for (const id of ["mode", "movetime", "level"]) {
    const select = $(id);
    if ([...select.options].some((o) => o.value === settings[id])) select.value = settings[id];
  }
  $("sound").checked = !!settings.sound;
  $("animate").checked = settings.animate !== false;
}

// The in-page backend (local.js, loaded only then) when the page is a
// static site: scripts/export-site.sh writes site.json saying so, and
// `qi serve` answers it with the server's backend.
async function localBackend() {
  let site = null;
  try {
    const response = await fetch("site.json", { cache: "no-cache" });
    if (response.ok) site = await response.json();
  } catch (e) {
    site = null;
  }
  if (!site || site.backend !== "local") return null;
  const { backend } = await import("./local.js");
  return backend;
}

// The "you play first / second" options name the colours of the game
// shown only (Red or X, not both).
function nameSides() {
  const view = app.view;
  const w = words();
  for (const id of ["mode", "nd-side"]) {
    for (const option of $(id).options) {
      if (option.value !== "first" && option.value !== "second") continue;
      const first = option.value === "first";
      const names = id === "nd-side" || !view ? null : view.side_names;
      option.textContent = names ? w.playSide(first, sideName(names[first ? 0 : 1])) : w[first ? "modeFirst" : "modeSecond"];
    }
  }
}

// ---- the offline app -------------------------------------------------------

// The static site installs as an app that works offline: sw.js keeps its
// files (scripts/export-site.sh). A new version installs beside the old
// one and waits; the page offers to reload into it.
async function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  let registration;
  try {
    // Never from the HTTP cache, so a new version.js is seen at once.
    registration = await navigator.serviceWorker.register("sw.js", { updateViaCache: "none" });
  } catch (e) {
    console.warn(`qi: no offline app (${e.message})`);
    return;
  }
  const offer = () => {
    if (registration.waiting && navigator.serviceWorker.controller) showUpdate(registration.waiting);
  };
  offer();
  registration.addEventListener("updatefound", () => {
    const next = registration.installing;
    if (next) next.addEventListener("statechange", () => { if (next.state === "installed") offer(); });
  });
}

function showUpdate(waiting) {
  $("update").hidden = false;
  $("update-reload").onclick = () => {
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
    waiting.postMessage("skip-waiting");
  };
}

// ---- the API ---------------------------------------------------------------

// A backend that does not answer at all (not an answer with an error).
class Unreachable extends Error {}

async function api(method, path, body) {
  if (app.local) return app.local.request(method, path, body);
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    // The browser's own words ("Failed to fetch") say nothing to a player.
    throw new Unreachable(words().network);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.error ? data.error : `${response.status} ${response.statusText}`;
    const error = new Error(message);
    error.status = response.status;
    // The error's kind and fields (docs/web.md), to translate it by.
    if (data && data.kind) {
      error.kind = data.kind;
      error.fields = data.fields;
    }
    throw error;
  }
  return data;
}

function sessionPath(suffix) {
  return `/api/sessions/${app.id}${suffix || ""}`;
}

// Shows an error (an Error, or a message), or hides the box (null).
function showError(message) {
  const box = $("error");
  if (!message) {
    showError.shown = null;
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.hidden = false;
  showError.shown = message;
  box.textContent = errorText(message);
}

// The error box closes with a click on it or Escape.
$("error").addEventListener("click", () => showError(null));
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !$("error").hidden) showError(null);
});

// Runs a request that returns a view, shows it, and reports errors.
async function act(method, suffix, body) {
  showError(null);
  try {
    const view = await api(method, sessionPath(suffix), body);
    show(view);
    return view;
  } catch (e) {
    showError(e);
    return null;
  }
}

// ---- moves -----------------------------------------------------------------

// The squares of a move: a3a4 -> [a3, a4]; c3-c4 -> [c3, c4]; xb2 -> [b2].
function squaresOf(move) {
  return move.replace(/^x/, "").match(/[a-w][0-9]+/g) || [];
}

function isSingle(move) {
  return squaresOf(move).length === 1;
}

function mode() {
  return $("mode").value;
}

function againstEngine() {
  return mode() === "first" || mode() === "second";
}

// The game's identity at the end of its line, for a result the backend
// does not know (resignation, agreed draw).
function gameKey(view) {
  return `${view.spec}|${view.start}|${view.moves.join(" ")}`;
}

function endedNow() {
  const view = app.view;
  return app.ended && view && view.ply === view.moves.length && app.ended.key === gameKey(view) ? app.ended : null;
}

function gameOver() {
  return !!(app.view && (app.view.result || endedNow()));
}

function humanToMove() {
  const view = app.view;
  if (!view || gameOver() || app.thinking) return false;
  return !againstEngine() || mode() === view.to_move;
}

function movesFrom(sq) {
  return app.view.legal.filter((m) => !isSingle(m) && squaresOf(m)[0] === sq);
}

// A short note under the board, by its word's key (so that a change of
// language while it shows says it again in the new language).
function hint(key) {
  const box = $("hint");
  hint.key = key;
  box.textContent = words()[key];
  clearTimeout(hint.timer);
  hint.timer = setTimeout(() => {
    hint.key = null;
    box.textContent = "";
  }, 1800);
}

// A click that does nothing: the board shakes and says why.
function refuse(key) {
  const board = $("board");
  board.classList.remove("refused");
  void board.offsetWidth; // restarts the animation
  board.classList.add("refused");
  hint(key);
}

function clickSquare(sq) {
  if (app.busy) return;
  if (!humanToMove()) {
    if (app.view && !gameOver()) refuse("notYourTurn");
    return;
  }
  const legal = app.view.legal;
  if (app.selected) {
    const move = legal.find((m) => {
      const s = squaresOf(m);
      return s.length === 2 && s[0] === app.selected && s[1] === sq;
    });
    if (move) {
      app.selected = null;
      playMove(move);
      return;
    }
  }
  const single = legal.find((m) => isSingle(m) && squaresOf(m)[0] === sq);
  if (single) {
    app.selected = null;
    playMove(single);
    return;
  }
  if (movesFrom(sq).length > 0) {
    app.selected = app.selected !== sq ? sq : null;
  } else {
    if (app.selected !== sq) refuse("illegal");
    app.selected = null;
  }
  drawMarks();
}

// Before a move from an earlier position replaces the rest of the line:
// the line is kept, so that the page can go back to it.
function keepMainLine() {
  const view = app.view;
  if (view.ply < view.moves.length && !app.mainLine) {
    app.mainLine = { moves: view.moves.slice(), ply: view.moves.length };
  }
}

async function playMove(move) {
  app.busy = true;
  keepMainLine();
  const view = await act("POST", "/play", { move });
  app.busy = false;
  if (view) {
    sound();
    afterChange();
  }
}

// After the shown position changed: the engine plays if it is its turn,
// and a following analysis starts again.
function afterChange() {
  if (maybeEngineMove()) return;
  const follow = app.wantAnalysis || mode() === "analysis";
  if (follow && !app.analysing && !gameOver() && !app.thinking) startAnalysis();
}

// The engine plays when it is its turn at the end of the line.
function maybeEngineMove() {
  const view = app.view;
  if (!view || gameOver() || app.thinking || !againstEngine()) return false;
  if (mode() === view.to_move) return false;
  if (view.ply !== view.moves.length) return false;
  engineMove();
  return true;
}

async function engineMove() {
  if (app.thinking || !app.view || gameOver()) return;
  app.thinking = true;
  app.wantAnalysis = false;
  updateButtons();
  $("status").textContent = words().thinking(sideName(app.view.to_move_name));
  const body = { movetime_ms: Number($("movetime").value), level: Number($("level").value) };
  showError(null);
  let view = null;
  try {
    view = await api("POST", sessionPath("/engine"), body);
  } catch (e) {
    showError(e);
  }
  // Shown once the engine is done, so the status no longer says it thinks.
  app.thinking = false;
  if (view || app.view) show(view || app.view);
  if (view) {
    sound();
    // In a game against the engine, play on if it is still its turn (a
    // Five Tigers side with several removals moves several times running).
    maybeEngineMove();
  }
}

// After a reload while the server's engine chose a move: the page waits
// for it (the server plays it into the session) instead of going stale.
async function waitForEngine() {
  app.thinking = true;
  updateButtons();
  $("status").textContent = words().thinking(sideName(app.view.to_move_name));
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    let view;
    try {
      view = await api("GET", sessionPath());
    } catch (e) {
      app.thinking = false;
      showError(e);
      show(app.view);
      return;
    }
    if (view.searching !== "engine") {
      app.thinking = false;
      show(view);
      maybeEngineMove();
      return;
    }
  }
}

// ---- sounds ----------------------------------------------------------------

let audio = null;

function sound() {
  if (!$("sound").checked) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 520;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.12);
  } catch (e) {
    // No audio in this browser: moves are silent.
  }
}

// ---- drawing ---------------------------------------------------------------

// The analysis panel empty: what it showed was about another position.
function clearAnalysis() {
  for (const id of ["an-depth", "an-score", "an-nodes", "an-nps", "an-pv"]) $(id).textContent = "–";
  $("an-lines").innerHTML = "";
  $("an-multi").innerHTML = "";
  app.lines = { depth: 0, fresh: [], older: [], shown: [] };
  app.searchNote = "idle";
  app.best = null;
  app.lastLine = null;
  drawEval();
}

// The status line in the page's language, from the view's fields.
function statusText(view) {
  const w = words();
  const ended = endedNow();
  if (ended) {
    return ended.winner ? w.wins(sideName(ended.winner), reasonText(ended.reason)) : w.draw(reasonText(ended.reason));
  }
  if (LANG === "en") return view.status;
  if (view.result) {
    const r = view.result;
    return r.winner ? w.wins(sideName(r.winner), reasonText(r.reason)) : w.draw(reasonText(r.reason));
  }
  const me = sideName(view.to_move_name);
  if (view.removal) {
    const taker = sideName(view.removal.side);
    const victim = sideName(otherName(view.removal.side));
    const n = view.removal.count;
    return view.removal.chooser === view.removal.side
      ? `${taker}须提掉${victim}${n}子（先提散子）`
      : `${victim}没有散子：${victim}须献出自己的一子（${taker}还可提${n}子）`;
  }
  if (view.phase === "place") return w.toPlace(me);
  if (view.phase === "move") return w.toStep(me);
  return w.toMove(me);
}

function show(view) {
  const before = app.view;
  if (before && (before.text !== view.text || before.spec !== view.spec || before.ply !== view.ply)) clearAnalysis();
  app.view = view;
  app.analysing = view.searching === "analysis";
  if (app.selected && movesFrom(app.selected).length === 0) app.selected = null;
  $("board").innerHTML = view.svg;
  decorateBoard();
  animateMove(before, view);
  const status = $("status");
  status.textContent = app.thinking ? words().thinking(sideName(view.to_move_name)) : statusText(view);
  status.classList.toggle("over", gameOver());
  const w = words();
  const removal = $("removal");
  if (view.removal) {
    removal.hidden = false;
    const r = view.removal;
    removal.textContent = r.chooser === r.side
      ? w.removalTake(sideName(r.side), r.count, sideName(otherName(r.side)))
      : w.removalGive(sideName(r.chooser), sideName(r.side), r.count);
  } else {
    removal.hidden = true;
  }
  // The pieces in hand, while any are left to place (removals included);
  // none in the movement phase, where there is nothing to count.
  const hands = $("hands");
  if (view.hands && (view.hands[0] > 0 || view.hands[1] > 0)) {
    hands.hidden = false;
    hands.textContent = w.hands(sideName(view.side_names[0]), view.hands[0], sideName(view.side_names[1]), view.hands[1]);
  } else {
    hands.hidden = true;
  }
  $("position-text").value = view.text;
  // The example tag names the game shown, not always Jungle.
  $("record-text").placeholder = w.recordPlaceholder(view.spec);
  showSpec(view.spec);
  nameSides();
  drawMoves();
  drawMarks();
  drawEval();
  updateButtons();
  document.body.dataset.game = view.game;
  document.body.dataset.mode = mode();
  maybeShowResult();
}

// The piece of a move just played slides from its square (a placement
// fades in), unless animation is off or the system asks for less motion.
function animateMove(before, view) {
  if (!$("animate").checked || !before || before.spec !== view.spec || view.ply !== before.ply + 1 || !view.last) return;
  if (window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  if (view.last.startsWith("x")) return;
  const svg = $("board").querySelector("svg");
  const squares = squaresOf(view.last);
  const piece = svg && svg.querySelector(`.piece[data-sq="${squares[squares.length - 1]}"]`);
  if (!piece || !piece.animate) return;
  if (squares.length === 1) {
    piece.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 200, easing: "ease-out" });
    return;
  }
  const a = centreOf(svg, squares[0]);
  const b = centreOf(svg, squares[1]);
  if (!a || !b) return;
  piece.animate(
    [{ transform: `translate(${a[0] - b[0]}px, ${a[1] - b[1]}px)` }, { transform: "translate(0px, 0px)" }],
    { duration: 180, easing: "ease-out" },
  );
}

function otherName(name) {
  const names = app.view.side_names;
  return names[0] === name ? names[1] : names[0];
}

// The game selectors show the game played, a typed rule string included.
function showSpec(spec) {
  for (const id of ["game-select", "nd-game"]) {
    const select = $(id);
    let option = [...select.options].find((o) => o.value === spec);
    if (!option) {
      select.querySelectorAll("option.custom").forEach((o) => o.remove());
      option = document.createElement("option");
      option.className = "custom";
      option.value = spec;
      option.textContent = presetName(spec);
      select.append(option);
    }
    select.value = spec;
  }
  $("nd-desc").textContent = presetDescription($("nd-game").value);
}

function fillGameSelects() {
  for (const id of ["game-select", "nd-game"]) {
    const select = $(id);
    const value = select.value;
    select.innerHTML = "";
    for (const spec of app.presets) {
      const option = document.createElement("option");
      option.value = spec;
      option.textContent = presetName(spec);
      option.title = presetDescription(spec);
      select.append(option);
    }
    if (value) showSpecIn(select, value);
  }
}

function showSpecIn(select, spec) {
  if (![...select.options].some((o) => o.value === spec)) {
    const option = document.createElement("option");
    option.className = "custom";
    option.value = spec;
    option.textContent = presetName(spec);
    select.append(option);
  }
  select.value = spec;
}

// Jungle's pieces on each square, from position text: the first rank
// written is the top one (rank 9), upper case is Red.
function jungleBoard(text) {
  const board = {};
  const ranks = text.split(" ")[0].split("/");
  ranks.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/[0-9]/.test(ch)) {
        file += Number(ch);
      } else {
        board[`${String.fromCharCode(97 + file)}${ranks.length - i}`] = ch;
        file += 1;
      }
    }
  });
  return board;
}

// Each move of the line in words: the animal that moved and a capture
// mark (Jungle), the removal mark (Five Tigers).
function moveNames(view) {
  const w = words();
  if (view.game !== "jungle") {
    return view.moves.map((m) => (m.startsWith("x") ? `×${m.slice(1)}` : m));
  }
  const board = jungleBoard(view.start);
  return view.moves.map((m) => {
    const [from, to] = squaresOf(m);
    const piece = board[from];
    const captured = board[to];
    delete board[from];
    if (piece) board[to] = piece;
    const name = piece ? w.animals[piece.toUpperCase()] : null;
    if (!name) return m;
    const sep = captured ? "×" : LANG === "zh" ? "-" : "";
    return `${name} ${from}${sep}${to}`;
  });
}

// The move list in numbered turns: a turn of the first side and the
// second's answer on one line (a Five Tigers turn with removals has
// several moves).
function drawMoves() {
  const list = $("moves");
  list.innerHTML = "";
  const view = app.view;
  const names = moveNames(view);
  const movers = view.movers || view.moves.map((_, i) => (i % 2 === 0 ? "first" : "second"));
  let row = null;
  let number = 0;
  view.moves.forEach((move, i) => {
    const side = movers[i];
    if (!row || (side === "first" && movers[i - 1] !== "first")) {
      number += 1;
      row = document.createElement("li");
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = side === "first" ? `${number}.` : `${number}. …`;
      row.append(num);
      list.append(row);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = names[i];
    button.dataset.ply = String(i + 1);
    button.dataset.move = move;
    button.dataset.side = side;
    if (i + 1 === view.ply) button.classList.add("current");
    button.addEventListener("click", () => goto(i + 1));
    row.append(button);
  });
  // The list scrolls to the current move; the window must not (on a
  // phone, scrollIntoView scrolled the whole page down to the list).
  // Measured on the screen: offsetTop is relative to the list itself
  // (position: relative), so it cannot be compared with the list's.
  const current = list.querySelector(".current");
  if (current) {
    const box = list.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    if (item.top < box.top || item.bottom > box.bottom) {
      list.scrollTop += item.top - box.top - (list.clientHeight - item.height) / 2;
    }
  }
  const back = $("main-line");
  if (app.mainLine) {
    back.hidden = false;
    back.textContent = words().mainLine(app.mainLine.moves.length);
  } else {
    back.hidden = true;
  }
}

// The centre of a square on the board picture.
function centreOf(svg, sq) {
  const cell = svg.querySelector(`.sq[data-sq="${sq}"]`);
  if (!cell) return null;
  if (cell.tagName === "circle") {
    return [Number(cell.getAttribute("cx")), Number(cell.getAttribute("cy"))];
  }
  return [
    Number(cell.getAttribute("x")) + Number(cell.getAttribute("width")) / 2,
    Number(cell.getAttribute("y")) + Number(cell.getAttribute("height")) / 2,
  ];
}

function mark(svg, sq, cls, r, attrs) {
  const centre = centreOf(svg, sq);
  if (!centre) return;
  const circle = document.createElementNS(svg.namespaceURI, "circle");
  circle.setAttribute("class", `overlay ${cls}`);
  circle.setAttribute("cx", centre[0]);
  circle.setAttribute("cy", centre[1]);
  circle.setAttribute("r", r);
  circle.setAttribute("pointer-events", "none");
  circle.dataset.sq = sq;
  for (const [k, v] of Object.entries(attrs)) circle.setAttribute(k, v);
  svg.append(circle);
}

// The piece on a square, in words (for screen readers).
function squareLabel(svg, sq) {
  const w = words();
  const piece = svg.querySelector(`.piece[data-sq="${sq}"]`);
  if (!piece) return `${sq}, ${w.empty}`;
  const side = sideName(app.view.side_names[piece.dataset.side === "first" ? 0 : 1]);
  const animal = w.animals[(piece.dataset.piece || "").toUpperCase()];
  return app.view.game === "jungle" && animal ? `${sq}, ${side} ${animal}` : `${sq}, ${side}`;
}

// The squares as buttons for the keyboard and screen readers: one tab
// stop (the focused square), arrows move between squares.
function decorateBoard() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const squares = [...svg.querySelectorAll(".sq[data-sq]")];
  if (!squares.some((s) => s.dataset.sq === app.focusSq)) app.focusSq = null;
  const focus = app.focusSq || (squares[0] && squares[0].dataset.sq);
  for (const cell of squares) {
    cell.setAttribute("role", "button");
    cell.setAttribute("tabindex", cell.dataset.sq === focus ? "0" : "-1");
    cell.setAttribute("aria-label", squareLabel(svg, cell.dataset.sq));
  }
  // A piece lies over its square; clicks on it reach the square's handler
  // through data-sq, and keyboard focus stays on the square.
  svg.setAttribute("focusable", "false");
}

// The best move of the analysis as an arrow (a ring for a placement or
// a removal).
// The arrow's colour: the side to move's (Jungle's red or blue, Five
// Tigers' black X or white O), so that it says whose move it is.
const ARROW_COLOURS = { jungle: ["#c62828", "#1565c0"], "five-tigers": ["#1b1b1b", "#f5f5f5"] };

function drawArrow(svg) {
  if (!app.best || !app.best.pv.length || !app.wantAnalysis && !app.analysing) return;
  const move = app.best.pv[0];
  const squares = squaresOf(move);
  const game = app.view.spec.split(":")[0];
  const colour = (ARROW_COLOURS[game] || ARROW_COLOURS.jungle)[app.view.to_move === "first" ? 0 : 1];
  if (squares.length === 1) {
    mark(svg, squares[0], "arrow", 20, { fill: "none", stroke: colour, "stroke-width": 6, "stroke-opacity": 0.8 });
    return;
  }
  const a = centreOf(svg, squares[0]);
  const b = centreOf(svg, squares[1]);
  if (!a || !b) return;
  const ns = svg.namespaceURI;
  if (!svg.querySelector("#qi-arrowhead")) {
    const defs = document.createElementNS(ns, "defs");
    defs.innerHTML = '<marker id="qi-arrowhead" markerWidth="3" markerHeight="3" refX="1" refY="1.5" orient="auto"><path d="M0,0 L3,1.5 L0,3 z"/></marker>';
    svg.prepend(defs);
  }
  svg.querySelector("#qi-arrowhead path").setAttribute("fill", colour);
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const end = [b[0] - ((b[0] - a[0]) / len) * 12, b[1] - ((b[1] - a[1]) / len) * 12];
  const line = document.createElementNS(ns, "line");
  line.setAttribute("class", "overlay arrow");
  line.setAttribute("x1", a[0]);
  line.setAttribute("y1", a[1]);
  line.setAttribute("x2", end[0]);
  line.setAttribute("y2", end[1]);
  line.setAttribute("stroke", colour);
  line.setAttribute("stroke-width", 9);
  line.setAttribute("stroke-opacity", 0.75);
  line.setAttribute("marker-end", "url(#qi-arrowhead)");
  line.setAttribute("pointer-events", "none");
  svg.append(line);
}

// The marks drawn over the pieces: the selection and its destinations,
// the formation just formed, the pieces a removal may take, the
// keyboard's square, the analysis's best move.
function drawMarks() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll(".overlay").forEach((n) => n.remove());
  const view = app.view;
  for (const sq of view.formed || []) {
    mark(svg, sq, "formed", 31, { fill: "none", stroke: "#e65100", "stroke-width": 5, "stroke-dasharray": "8 5" });
  }
  if (view.removal && humanToMove()) {
    for (const move of view.legal) {
      if (move.startsWith("x")) mark(svg, move.slice(1), "removable", 29, { fill: "none", stroke: "#c62828", "stroke-width": 4 });
    }
  }
  drawArrow(svg);
  if (app.selected) {
    mark(svg, app.selected, "selected", 29, { fill: "none", stroke: "#00897b", "stroke-width": 4 });
    for (const move of movesFrom(app.selected)) {
      mark(svg, squaresOf(move)[1], "target", 9, { fill: "#00897b", "fill-opacity": 0.75 });
    }
  }
  const focused = document.activeElement;
  if (focused && focused.dataset && focused.dataset.sq && svg.contains(focused)) {
    mark(svg, focused.dataset.sq, "focus", 33, { fill: "none", stroke: "#6a1b9a", "stroke-width": 4 });
  }
}

// The evaluation bar: the first side's share, from the best line's score.
function drawEval() {
  const bar = $("eval-bar");
  const info = app.best;
  if (!info || mode() === "first" || mode() === "second") {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  let share;
  if (info.score.startsWith("mate")) {
    share = info.score_first > 0 ? 1 : 0;
  } else {
    share = 1 / (1 + Math.exp(-info.score_first / 250));
  }
  $("eval-fill").style.width = `${(share * 100).toFixed(1)}%`;
  $("eval-text").textContent = formatScore(info);
  bar.dataset.share = share.toFixed(3);
}

function updateButtons() {
  const view = app.view;
  const idle = !app.thinking;
  const w = words();
  $("nav-first").disabled = !view || view.ply === 0 || !idle;
  $("nav-back").disabled = !view || view.ply === 0 || !idle;
  $("nav-forward").disabled = !view || view.ply >= view.moves.length || !idle;
  $("nav-last").disabled = !view || view.ply >= view.moves.length || !idle;
  $("undo").disabled = !view || takebackCount() === 0 || !idle;
  $("engine-move").disabled = !view || gameOver() || !idle;
  $("resign").disabled = !view || gameOver() || !idle || view.ply !== view.moves.length || mode() === "analysis";
  $("offer-draw").disabled = !view || gameOver() || view.ply !== view.moves.length || mode() !== "human";
  $("analyse").disabled = !view || (!app.analysing && (gameOver() || !idle));
  $("analyse").textContent = app.analysing ? w.stop : w.analyse;
  const note = w[app.searchNote] !== undefined && typeof w[app.searchNote] === "string" ? w[app.searchNote] : app.searchNote;
  $("an-state").textContent = app.analysing ? w.analysing : app.thinking ? w.engineThinking : note;
}

// ---- the engine's live output ----------------------------------------------

// A score in the winner's words ("Red wins in 7"), or pawns for the first
// side.
function formatScore(info) {
  if (info.score.startsWith("mate")) {
    const n = Number(info.score.split(" ")[1]);
    const firstWins = info.score_first > 0;
    const name = app.view ? sideName(app.view.side_names[firstWins ? 0 : 1]) : "";
    return words().winsIn(name, Math.abs(n));
  }
  const pawns = info.score_first / 100;
  return `${pawns >= 0 ? "+" : ""}${pawns.toFixed(2)}`;
}

// The lines of a search of several lines (MultiPV). Each iteration sends
// its lines one at a time, best first, so the list shows this iteration's
// lines so far, then the previous iteration's whose first move none of
// them has: the list never empties while the search runs (no flicker) and
// never shows one move twice (the previous iteration's line 2 may be this
// one's line 1). A click plays the line out.
function showLine(data) {
  const lines = app.lines;
  if (data.depth !== lines.depth) {
    lines.older = lines.shown;
    lines.fresh = [];
    lines.depth = data.depth;
  }
  lines.fresh[data.multipv - 1] = data;
  const fresh = lines.fresh.filter(Boolean);
  const firsts = new Set(fresh.map((line) => line.pv[0]));
  const count = Math.max(fresh.length, lines.older.length);
  lines.shown = fresh.concat(lines.older.filter((line) => !firsts.has(line.pv[0]))).slice(0, count);
  const list = $("an-multi");
  while (list.children.length < lines.shown.length) {
    const item = document.createElement("li");
    item.tabIndex = 0;
    item.setAttribute("role", "button");
    item.addEventListener("click", () => playLine(item.dataset.pv));
    item.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        playLine(item.dataset.pv);
      }
    });
    list.appendChild(item);
  }
  while (list.children.length > lines.shown.length) list.lastChild.remove();
  lines.shown.forEach((line, k) => {
    const item = list.children[k];
    item.dataset.pv = line.pv.slice(0, 8).join(" ");
    item.textContent = `${formatScore(line)} ${line.pv.slice(0, 8).join(" ")}`;
  });
}

// Plays a line of the analysis on the board; the line it leaves stays
// reachable ("back to the main line").
async function playLine(pv) {
  if (!pv || app.thinking || app.busy) return;
  app.busy = true;
  keepMainLine();
  showError(null);
  let view = null;
  for (const move of pv.split(" ")) {
    try {
      view = await api("POST", sessionPath("/play"), { move });
    } catch (e) {
      showError(e);
      break;
    }
  }
  app.busy = false;
  if (view) {
    show(view);
    afterChange();
  }
}

function onSearchEvent(event) {
  let data;
  try {
    data = JSON.parse(event.data);
  } catch (e) {
    return;
  }
  // Against the engine its thinking stays hidden: analysis is for the
  // analysis board and two players.
  if (data.search === "engine" && againstEngine()) return;
  if (data.type === "start") {
    $("an-lines").innerHTML = "";
    $("an-multi").innerHTML = "";
    app.lines = { depth: 0, fresh: [], older: [], shown: [] };
    app.searchNote = "idle";
    app.lastLine = null;
  } else if (data.type === "info" && data.multipv > 1) {
    // Line K of several (MultiPV): its place in the list of best moves.
    showLine(data);
  } else if (data.type === "info") {
    if (data.multipv === 1) showLine(data);
    app.best = data;
    $("an-depth").textContent = String(data.depth);
    $("an-score").textContent = formatScore(data);
    $("an-nodes").textContent = data.nodes.toLocaleString("en");
    $("an-nps").textContent = data.nps.toLocaleString("en");
    $("an-pv").textContent = data.pv.join(" ") || "–";
    const text = `${formatScore(data)} ${data.pv.slice(0, 8).join(" ")}`;
    // A forced win found early repeats itself at every depth: one entry
    // whose depth grows, not a list of the same line.
    const list = $("an-lines");
    if (app.lastLine === text && list.firstChild) {
      list.firstChild.textContent = `d${data.depth} ${text}`;
    } else {
      const line = document.createElement("li");
      line.textContent = `d${data.depth} ${text}`;
      list.prepend(line);
    }
    app.lastLine = text;
    drawMarks();
    drawEval();
  } else if (data.type === "done") {
    if (data.search === "analysis") {
      app.analysing = false;
      app.searchNote = data.best ? words().stoppedBest(data.best) : "stopped";
      updateButtons();
    }
  }
}

function listen() {
  if (app.local) {
    app.local.listen(onSearchEvent);
    return;
  }
  if (app.events) app.events.close();
  app.events = new EventSource(sessionPath("/events"));
  app.events.addEventListener("search", onSearchEvent);
  // The stream broke: if the server is gone, say so rather than show
  // "analysing…" for ever (the browser reconnects by itself otherwise).
  app.events.addEventListener("error", async () => {
    if (!app.analysing) return;
    try {
      await api("GET", sessionPath());
    } catch (e) {
      app.analysing = false;
      app.wantAnalysis = false;
      app.searchNote = "lost";
      showError(e);
      updateButtons();
    }
  });
}

// ---- commands --------------------------------------------------------------

async function goto(ply) {
  if (app.thinking || !app.view || ply === app.view.ply) return;
  app.selected = null;
  const view = await act("POST", "/goto", { ply });
  if (view && (app.wantAnalysis || mode() === "analysis") && !gameOver()) startAnalysis();
}

async function newGame(body) {
  if (app.thinking) return;
  app.selected = null;
  app.mainLine = null;
  forgetEnded();
  // A new game is drawn from the player's side, whatever the last one's
  // flip was.
  const view = await act("POST", "/new", { flip: mode() === "second", ...body });
  if (view) afterChange();
}

async function startAnalysis() {
  showError(null);
  app.wantAnalysis = true;
  try {
    const multipv = Number($("an-multipv").value) || 1;
    // The server runs one search per session: a running one ends first.
    if (app.analysing) await api("POST", sessionPath("/analysis/stop"));
    const view = await api("POST", sessionPath("/analysis/start"), { multipv });
    show(view);
  } catch (e) {
    app.analysing = false;
    app.wantAnalysis = false;
    app.searchNote = "lost";
    showError(e);
    updateButtons();
  }
}

async function toggleAnalysis() {
  if (app.analysing) {
    app.wantAnalysis = false;
    await act("POST", "/analysis/stop");
    app.analysing = false;
    updateButtons();
    return;
  }
  await startAnalysis();
}

// How many plies a takeback undoes: against the engine, its plies since
// the player's last turn and that whole turn (a Five Tigers turn with
// removals is several plies, and so is the engine's); otherwise one.
function takebackCount() {
  const view = app.view;
  if (!view || view.ply === 0) return 0;
  if (!againstEngine()) return 1;
  const movers = view.movers || [];
  const me = mode();
  let i = view.ply;
  while (i > 0 && movers[i - 1] !== me) i -= 1;
  if (i === 0) return 0; // the player has not moved yet
  while (i > 0 && movers[i - 1] === me) i -= 1;
  return view.ply - i;
}

async function takeback() {
  const count = takebackCount();
  if (app.thinking || count === 0) return;
  app.selected = null;
  app.mainLine = null;
  forgetEnded();
  const view = await act("POST", "/undo", { count });
  if (view) afterChange();
}

function forgetEnded() {
  app.ended = null;
  localStorage.removeItem(ENDED);
}

function endGame(winner, reason) {
  app.ended = { key: gameKey(app.view), winner, reason };
  localStorage.setItem(ENDED, JSON.stringify(app.ended));
  app.wantAnalysis = false;
  if (app.analysing) act("POST", "/analysis/stop");
  show(app.view);
}

// The side that resigns now: against the engine the player, otherwise the
// side to move.
function resigner() {
  return againstEngine() ? mode() : app.view.to_move;
}

// Resign asks first (a misplaced tap must not end a game).
function resign() {
  const view = app.view;
  if (!view || gameOver()) return;
  const loser = resigner();
  $("rs-text").textContent = words().resignAsk(sideName(view.side_names[loser === "first" ? 0 : 1]));
  $("resign-dialog").showModal();
}

function confirmResign() {
  $("resign-dialog").close();
  const view = app.view;
  if (!view || gameOver()) return;
  const loser = resigner();
  endGame(view.side_names[loser === "first" ? 1 : 0], "resignation");
}

function offerDraw() {
  const view = app.view;
  if (!view || gameOver()) return;
  const me = sideName(view.to_move_name);
  $("dd-text").textContent = words().drawOffer(me, sideName(otherName(view.to_move_name)));
  $("draw-dialog").showModal();
}

// The result dialog, once per finished game.
function maybeShowResult() {
  const view = app.view;
  const dialog = $("result-dialog");
  if (!gameOver() || view.ply !== view.moves.length) {
    if (dialog.open) dialog.close();
    return;
  }
  const key = gameKey(view) + (endedNow() ? "|ended" : "");
  $("result-text").textContent = statusText(view);
  if (app.resultShown === key) return;
  app.resultShown = key;
  if (!dialog.open) dialog.show();
}

function rematch() {
  $("result-dialog").close();
  newGame({ spec: app.view.spec });
}

async function restoreMainLine() {
  const line = app.mainLine;
  if (!line || app.thinking || app.busy) return;
  app.busy = true;
  showError(null);
  let view = app.view;
  let k = 0;
  while (k < view.moves.length && k < line.moves.length && view.moves[k] === line.moves[k]) k += 1;
  try {
    view = await api("POST", sessionPath("/goto"), { ply: k });
    for (const move of line.moves.slice(k)) view = await api("POST", sessionPath("/play"), { move });
    view = await api("POST", sessionPath("/goto"), { ply: line.ply });
    app.mainLine = null;
  } catch (e) {
    showError(e);
  }
  app.busy = false;
  show(view);
}

async function copyText() {
  const text = $("position-text").value;
  try {
    await navigator.clipboard.writeText(text);
    flash("copy-text", words().copied);
  } catch (e) {
    $("position-text").select();
    flash("copy-text", words().selectCopy);
  }
}

function flash(id, text) {
  const button = $(id);
  button.textContent = text;
  setTimeout(() => { button.textContent = words()[button.dataset.i18n]; }, 1200);
}

async function saveRecord() {
  showError(null);
  try {
    const data = await api("GET", sessionPath("/record"));
    const record = withEnding(data.record);
    $("record-text").value = record;
    const blob = new Blob([record], { type: "text/plain" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `${app.view.game}-${new Date().toISOString().slice(0, 10)}.pgn`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (e) {
    showError(e);
  }
}

// A resignation or agreed draw, which only the page knows, written into
// the record as docs/records.md has it (the Result tag and token, and the
// Termination tag), so that loading the record ends the game the same way.
function withEnding(record) {
  const view = app.view;
  // The record is the whole line, shown at any ply: the ending of its end.
  const ended = app.ended && app.ended.key === gameKey(view) ? app.ended : null;
  if (!ended || !/\[Result "\*"\]/.test(record)) return record;
  const token = ended.winner ? (ended.winner === view.side_names[0] ? "1-0" : "0-1") : "1/2-1/2";
  return record
    .replace(/\[Result "\*"\]/, `[Result "${token}"]\n[Termination "${ended.reason}"]`)
    .replace(/\*(\s*)$/, `${token}$1`);
}

async function loadRecord(text) {
  if (app.thinking) return;
  app.selected = null;
  app.mainLine = null;
  const view = await act("POST", "/record", { record: text });
  if (view) {
    $("mode").value = "human";
    saveSettings();
    show(view);
  }
}

// A link to the game shown: its rules, its start when not the usual one,
// its moves and the move shown, in the address's hash (lichess shares
// games the same way), so that the link opens it on any copy of the page.
async function shareLink() {
  const { record } = await api("GET", sessionPath("/record"));
  const tag = (name) => (record.match(new RegExp(`^\\[${name} "(.*)"\\]$`, "m")) || [])[1];
  const params = new URLSearchParams();
  params.set("game", app.view.spec);
  const start = tag("Start");
  if (start !== undefined) params.set("start", start);
  if (app.view.moves.length) params.set("moves", app.view.moves.join(" "));
  if (app.view.ply !== app.view.moves.length) params.set("ply", String(app.view.ply));
  const url = new URL(location.href);
  url.hash = params.toString();
  return url.href;
}

async function copyLink() {
  showError(null);
  try {
    const link = await shareLink();
    const shown = $("share-link");
    shown.value = link;
    shown.hidden = false;
    shown.select();
    try {
      await navigator.clipboard.writeText(link);
      flash("share", words().linkCopied);
    } catch (e) {
      flash("share", words().selectCopy);
    }
  } catch (e) {
    showError(e);
  }
}

// The game of a shared link (shareLink), as a record the backends read:
// its moves without a result token are an unfinished game, or the end the
// rules give. Null when the address names no game.
function linkedRecord(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const game = params.get("game");
  if (!game) return null;
  const quote = (value) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  const tags = [`[Game "${quote(game)}"]`];
  const start = params.get("start");
  if (start) tags.push(`[Start "${quote(start)}"]`);
  const moves = (params.get("moves") || "").split(/\s+/).filter(Boolean);
  const ply = params.has("ply") ? Number(params.get("ply")) : null;
  return { text: `${tags.join("\n")}\n\n${moves.join(" ")}\n`, ply };
}

// Opens the game of the address's hash, then takes the hash away: a
// reload keeps the game as played on from there.
async function openLinkedGame() {
  const linked = linkedRecord(location.hash);
  if (!linked) return;
  history.replaceState(null, "", location.pathname + location.search);
  await loadRecord(linked.text);
  if (linked.ply !== null && Number.isInteger(linked.ply) && linked.ply !== app.view.ply) await goto(linked.ply);
}

function openNewGame() {
  const dialog = $("new-dialog");
  $("nd-side").value = mode();
  $("nd-level").value = $("level").value;
  $("custom-spec").value = "";
  if (app.view) showSpecIn($("nd-game"), app.view.spec);
  $("nd-desc").textContent = presetDescription($("nd-game").value);
  dialog.showModal();
}

function startFromDialog() {
  const spec = $("custom-spec").value.trim() || $("nd-game").value;
  $("mode").value = $("nd-side").value;
  $("level").value = $("nd-level").value;
  showEngineTime();
  saveSettings();
  $("new-dialog").close();
  newGame({ spec });
}

// A first visit's level: a newcomer's first game is one they can win
// (level 10 is the full engine); a level chosen once is kept.
const NEWCOMER_LEVEL = "3";
const FULL_LEVEL = "10";

// The time per move matters to the full engine only: the weaker levels
// search a fixed number of nodes and answer at once.
function showEngineTime() {
  $("movetime-row").hidden = $("level").value !== FULL_LEVEL;
}

async function start() {
  LANG = chooseLanguage();
  for (const id of ["level", "nd-level"]) {
    for (let n = 1; n <= 10; n++) {
      const option = document.createElement("option");
      option.value = String(n);
      $(id).append(option);
    }
    $(id).value = NEWCOMER_LEVEL;
  }
  try {
    app.local = await localBackend();
    if (app.local) {
      registerWorker();
      await app.local.ready;
    }
  } catch (e) {
    applyLanguage();
    showError(words().engineLoad(errorText(e)));
    $("status").textContent = "–";
    return;
  }
  document.body.dataset.backend = app.local ? "local" : "server";
  restoreSettings();
  showEngineTime();
  applyLanguage();
  try {
    const games = await api("GET", "/api/games");
    app.presets = games.games.flatMap((g) => g.presets);
    fillGameSelects();
    let view = null;
    let lost = false;
    const saved = sessionStorage.getItem("qi-session");
    if (saved) {
      try {
        view = await api("GET", `/api/sessions/${saved}`);
      } catch (e) {
        if (e instanceof Unreachable) throw e;
        view = null;
        lost = !app.local;
      }
    }
    if (!view) view = await api("POST", "/api/sessions", { spec: games.default, flip: mode() === "second" });
    app.id = view.id;
    sessionStorage.setItem("qi-session", app.id);
    try {
      app.ended = JSON.parse(localStorage.getItem(ENDED) || "null");
    } catch (e) {
      app.ended = null;
    }
    app.resultShown = gameKey(view) + (app.ended ? "|ended" : ""); // no dialog for a game finished before the reload
    listen();
    show(view);
    document.body.dataset.ready = "1";
    if (lost) showError(words().sessionLost);
    if (linkedRecord(location.hash)) {
      await openLinkedGame();
      return;
    }
    // A reload while the engine was to move or thinking: the server's
    // engine goes on (wait for it), the page's died with the page (let
    // it move again).
    if (view.searching === "engine") waitForEngine();
    else if (mode() === "analysis" && !view.searching && !gameOver()) startAnalysis();
    else maybeEngineMove();
  } catch (e) {
    showError(words().cannotStart(errorText(e)));
  }
}

// ---- wiring ----------------------------------------------------------------

function squareAt(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  const node = target && target.closest ? target.closest("[data-sq]") : null;
  return node && $("board").contains(node) ? node.dataset.sq : null;
}

$("board").addEventListener("pointerdown", (event) => {
  app.downSq = squareAt(event);
  if (app.downSq && humanToMove() && movesFrom(app.downSq).length > 0 && app.selected !== app.downSq) {
    // Select at once, so a drag shows the destinations.
    app.selected = app.downSq;
    app.dragSelected = true;
    drawMarks();
  } else {
    app.dragSelected = false;
  }
  event.preventDefault();
});

$("board").addEventListener("pointerup", (event) => {
  const sq = squareAt(event);
  const down = app.downSq;
  app.downSq = null;
  if (!sq) return;
  if (sq === down) {
    if (app.dragSelected) {
      app.dragSelected = false;
      return; // selected on pointerdown
    }
    clickSquare(sq);
  } else if (down && app.selected === down) {
    clickSquare(sq); // a drag from the selected piece
  }
});

// The square next to `sq` in an arrow's direction on the screen.
function neighbour(sq, key) {
  const svg = $("board").querySelector("svg");
  const here = centreOf(svg, sq);
  const dir = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[key];
  let best = null;
  let bestDistance = Infinity;
  for (const cell of svg.querySelectorAll(".sq[data-sq]")) {
    const c = centreOf(svg, cell.dataset.sq);
    const dx = c[0] - here[0];
    const dy = c[1] - here[1];
    const along = dx * dir[0] + dy * dir[1];
    const across = Math.abs(dx * dir[1] - dy * dir[0]);
    if (along <= 1 || across > 1) continue;
    if (along < bestDistance) {
      bestDistance = along;
      best = cell.dataset.sq;
    }
  }
  return best;
}

function focusSquare(sq) {
  app.focusSq = sq;
  const svg = $("board").querySelector("svg");
  for (const cell of svg.querySelectorAll(".sq[data-sq]")) cell.setAttribute("tabindex", cell.dataset.sq === sq ? "0" : "-1");
  const cell = svg.querySelector(`.sq[data-sq="${sq}"]`);
  if (cell) cell.focus();
  drawMarks();
}

$("board").addEventListener("keydown", (event) => {
  const sq = event.target.dataset && event.target.dataset.sq;
  if (!sq) return;
  if (event.key.startsWith("Arrow")) {
    event.preventDefault();
    event.stopPropagation();
    const next = neighbour(sq, event.key);
    if (next) focusSquare(next);
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    app.focusSq = sq;
    clickSquare(sq);
    // The board is drawn again after a move: focus goes back to the square.
    setTimeout(() => focusSquare(app.focusSq), 0);
  }
});
$("board").addEventListener("focusin", (event) => {
  if (event.target.dataset && event.target.dataset.sq) {
    app.focusSq = event.target.dataset.sq;
    drawMarks();
  }
});
$("board").addEventListener("focusout", () => setTimeout(drawMarks, 0));

$("nav-first").addEventListener("click", () => goto(0));
$("nav-back").addEventListener("click", () => goto(Math.max(0, app.view.ply - 1)));
$("nav-forward").addEventListener("click", () => goto(Math.min(app.view.moves.length, app.view.ply + 1)));
$("nav-last").addEventListener("click", () => goto(app.view.moves.length));
$("undo").addEventListener("click", () => takeback());
$("flip").addEventListener("click", () => act("POST", "/flip", { flip: !app.view.flip }));
$("resign").addEventListener("click", () => resign());
$("offer-draw").addEventListener("click", () => offerDraw());
$("draw-accept").addEventListener("click", () => {
  $("draw-dialog").close();
  endGame(null, "agreed draw");
});
$("draw-decline").addEventListener("click", () => $("draw-dialog").close());
$("resign-yes").addEventListener("click", () => confirmResign());
$("resign-no").addEventListener("click", () => $("resign-dialog").close());
$("result-close").addEventListener("click", () => $("result-dialog").close());
$("rematch").addEventListener("click", () => rematch());
$("main-line").addEventListener("click", () => restoreMainLine());
$("new-game").addEventListener("click", () => openNewGame());
$("nd-cancel").addEventListener("click", () => $("new-dialog").close());
$("nd-start").addEventListener("click", () => startFromDialog());
$("nd-game").addEventListener("change", () => {
  $("nd-desc").textContent = presetDescription($("nd-game").value);
});
$("game-select").addEventListener("change", () => newGame({ spec: $("game-select").value }));
$("movetime").addEventListener("change", () => saveSettings());
$("level").addEventListener("change", () => {
  showEngineTime();
  saveSettings();
});
$("sound").addEventListener("change", () => saveSettings());
$("animate").addEventListener("change", () => saveSettings());
$("lang").addEventListener("change", () => {
  LANG = $("lang").value === "zh" ? "zh" : "en";
  saveSettings();
  applyLanguage();
});
$("mode").addEventListener("change", () => {
  saveSettings();
  document.body.dataset.mode = mode();
  if (mode() === "analysis") {
    if (!app.analysing && !gameOver()) startAnalysis();
    return;
  }
  if (againstEngine()) {
    app.wantAnalysis = false;
    if (app.analysing) act("POST", "/analysis/stop");
    act("POST", "/flip", { flip: mode() === "second" }).then(() => maybeEngineMove());
  }
});
$("engine-move").addEventListener("click", () => engineMove());
$("analyse").addEventListener("click", () => toggleAnalysis());
$("an-multipv").addEventListener("change", () => {
  if (app.analysing) startAnalysis();
});
$("copy-text").addEventListener("click", () => copyText());
$("share").addEventListener("click", () => copyLink());
$("setup").addEventListener("click", () => {
  const text = $("setup-text").value.trim();
  if (!text) {
    showError(words().pasteFirst);
    return;
  }
  newGame({ spec: app.view ? app.view.spec : $("game-select").value, text });
});
$("save-record").addEventListener("click", () => saveRecord());
$("load-record").addEventListener("click", () => loadRecord($("record-text").value));
$("record-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  $("record-text").value = text;
  await loadRecord(text);
  event.target.value = "";
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select, dialog, #board")) return;
  const keys = { ArrowLeft: "nav-back", ArrowRight: "nav-forward", Home: "nav-first", End: "nav-last" };
  if (keys[event.key]) {
    event.preventDefault();
    $(keys[event.key]).click();
  }
});

start();
