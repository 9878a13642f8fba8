// @ts-check
// Every word of the page in each language. The library's texts (its
// status, results and errors) are English; the page builds the Chinese
// ones from the view's fields and the tables below, and the library's
// errors from their kinds (errors.js).
import { explainErrorData } from "./errors.js";

/** @typedef {"en" | "zh"} Lang */

/**
 * A time control's name: "3 + 2" (minutes, seconds added a move) for
 * "180+2", as lichess names them; `none` for no clock.
 * @param {string} control
 * @param {string} none
 */
function clockName(control, none) {
  if (!control) return none;
  const [base, inc] = control.split("+");
  const minutes = Number(base) / 60;
  const shown = minutes === 0.25 ? "¼" : minutes === 0.5 ? "½" : String(minutes);
  return `${shown} + ${inc || "0"}`;
}

const EN = {
  game: "Game", gameTitle: "game and preset", newGame: "New game", newGameDots: "New game…",
  language: "Language", board: "board",
  first: "first position", back: "back", forward: "forward", last: "last position",
  takeback: "Take back", takebackTitle: "take back your last move (against the engine, its reply too)",
  flip: "Flip", resign: "Resign", offerDraw: "Offer draw",
  players: "Players", mode: "Mode", modeHuman: "Two players", modeFirst: "You play first",
  modeSecond: "You play second", modeAnalysis: "Analysis board",
  playSide: (/** @type {boolean} */ first, /** @type {string} */ s) => `You play ${first ? "first" : "second"} (${s})`,
  level: "Engine level", levelName: (/** @type {number} */ n) => (n === 1 ? "1 — beginner" : n === 10 ? "10 — full strength" : String(n)),
  threads: "Engine threads",
  movetime: "Engine time per move", seconds: (/** @type {number} */ s) => `${s} s`,
  engineMove: "Engine move", engineMoveTitle: "let the engine play the side to move", sound: "Sounds", animate: "Animation",
  analysis: "Analysis", analyse: "Analyse", stop: "Stop", lines: "lines", linesAria: "lines of analysis (MultiPV)",
  depth: "depth", score: "score", nodes: "nodes", nps: "nodes/s", pv: "PV",
  multiAria: "the best moves, each with its line; click one to play it out",
  idle: "idle", analysing: "analysing…", engineThinking: "engine thinking…", stopped: "stopped",
  stoppedBest: (/** @type {string} */ m) => `stopped (best ${m})`, lost: "the search stopped: the backend does not answer",
  moves: "Moves", promote: "Make main line", deleteVariation: "Delete variation",
  position: "Position", positionTitle: "the shown position's text", copy: "Copy", copied: "Copied",
  selectCopy: "Select + copy", setup: "Set up", setupPlaceholder: "paste position text, then Set up",
  record: "Game record", save: "Save", openFile: "Open file", loadText: "Load text",
  share: "Copy link", shareTitle: "a link that opens this game at this move", linkCopied: "Link copied",
  recordPlaceholder: (/** @type {string} */ spec) => `[Game "${spec}"] ... paste a game record, then Load text`,
  rules: "Rules (optional)", rulesTitle: "a game spec with rule options, e.g. five-tigers:ten,shuttle=allowed",
  youPlay: "You play", cancel: "Cancel", start: "Start", gameOver: "Game over", close: "Close",
  rematch: "Rematch", accept: "Accept", decline: "Decline",
  drawOffer: (/** @type {string} */ a, /** @type {string} */ b) => `${a} offers a draw. ${b}, do you accept?`,
  resignAsk: (/** @type {string} */ s) => `${s}: resign this game?`, resignYes: "Resign", resignNo: "Play on",
  newVersion: "A new version is ready.", reload: "Reload",
  timeControl: "Clock (minutes + seconds a move)", clockName: (/** @type {string} */ c) => clockName(c, "none"),
  clockLeft: (/** @type {string} */ s, /** @type {string} */ t) => `${s}: ${t} left`,
  outOfTime: (/** @type {string} */ loser, /** @type {string} */ winner) => `${loser} ran out of time: ${winner} wins.`,
  hints: "Hint button", hint: "Hint", hintTitle: "the engine shows a good move here (a green arrow)",
  reviewBox: "Game review", review: "Review", reviewCancel: "Cancel",
  reviewTitle: "the engine looks at every position of the game and marks inaccuracies, mistakes and blunders",
  reviewing: (/** @type {number} */ d, /** @type {number} */ t) => `reviewing… ${d} of ${t} positions`,
  reviewPartial: "stopped before the end: part of the game reviewed",
  accuracy: (/** @type {string} */ s, /** @type {string} */ a, /** @type {number} */ i, /** @type {number} */ m, /** @type {number} */ b) =>
    `${s}: accuracy ${a} · ${i} inaccurac${i === 1 ? "y" : "ies"}, ${m} mistake${m === 1 ? "" : "s"}, ${b} blunder${b === 1 ? "" : "s"}`,
  judgements: { inaccuracy: "Inaccuracy", mistake: "Mistake", blunder: "Blunder" },
  judged: (/** @type {string} */ m, /** @type {string} */ j, /** @type {string} */ b) => `${m}: ${j}. Better was ${b}.`,
  betterShown: (/** @type {string} */ b) => `The better move: ${b} (the green arrow).`,
  showBetter: "Show the better move",
  reviewGraph: "the first side's winning chances over the game; click a move to go to it",
  side: /** @type {Record<string, string>} */ ({ Red: "Red", Blue: "Blue", X: "X", O: "O" }),
  toMove: (/** @type {string} */ s) => `${s} to move`, toPlace: (/** @type {string} */ s) => `${s} to place`, toStep: (/** @type {string} */ s) => `${s} to step`,
  thinking: (/** @type {string} */ s) => `${s} (engine) is thinking…`,
  wins: (/** @type {string} */ s, /** @type {string} */ r) => `${s} wins: ${r}.`, draw: (/** @type {string} */ r) => `Draw: ${r}.`,
  winsIn: (/** @type {string} */ s, /** @type {number} */ n) => `${s} wins in ${n}`,
  removalTake: (/** @type {string} */ s, /** @type {number} */ n, /** @type {string} */ o) => `Removal: ${s} takes ${n} more piece${n === 1 ? "" : "s"} — click a piece of ${o}.`,
  removalGive: (/** @type {string} */ c, /** @type {string} */ s, /** @type {number} */ n) => `Removal: ${c} has no loose piece and gives up one of its own (${s} is owed ${n}).`,
  hands: (/** @type {string} */ a, /** @type {number} */ x, /** @type {string} */ b, /** @type {number} */ y) => `In hand: ${a} ${x}, ${b} ${y}`,
  empty: "empty", illegal: "Not a legal move here", notYourTurn: "Wait for your turn",
  network: "The qi server does not answer: is `qi serve` still running? Reload the page once it is.",
  sessionLost: "The server no longer has this tab's game (it was restarted): a new game has started.",
  engineLoad: (/** @type {string} */ m) => `The engine could not be loaded (${m}). Reload the page to try again.`,
  cannotStart: (/** @type {string} */ m) => `cannot start: ${m}`, pasteFirst: "paste a position text first",
  animals: /** @type {Record<string, string>} */ ({ E: "Elephant", L: "Lion", T: "Tiger", P: "Leopard", W: "Wolf", D: "Dog", C: "Cat", R: "Rat" }),
  presets: /** @type {Record<string, [string, string]>} */ ({
    "jungle:standard": ["Jungle — standard", "The usual rules: the Wolf outranks the Dog, a Rat anywhere in the river blocks a jump across it, and 200 moves without a capture is a draw."],
    "jungle:yeshou": ["Jungle — Yeshou (野兽争霸)", "The PC game: only an enemy Rat blocks a jump, an animal on an enemy trap captures nothing, Rats capture across the bank, chasing is forbidden."],
    "jungle:datou": ["Jungle — Datou (大头斗兽棋)", "The mobile game: the Tiger jumps along ranks only, a Rat anywhere in the river blocks a jump."],
    "jungle:traditional": ["Jungle — traditional", "Dog over Wolf; the side that began a repetition loses unless it varies."],
    "five-tigers:shandong": ["Five Tigers — Shandong", "13 pieces each; a formation removes enemy pieces at once (four-diagonal 3, five tigers 4); shuttling back and forth is forbidden."],
    "five-tigers:shandong-shuttle": ["Five Tigers — Shandong, shuttle allowed", "The Shandong rules, but a piece may step back and forth."],
    "five-tigers:ten": ["Five Tigers — ten pieces", "The Shandong rules with 10 pieces each: a shorter game."],
    "five-tigers:deferred": ["Five Tigers — deferred capture", "13 pieces each; the formations are scored once the board is full (four-diagonal 4, five tigers 5)."],
  }),
  custom: (/** @type {string} */ s) => `rules: ${s}`,
  customDesc: "Rules typed in.",
  reasons: /** @type {Record<string, string>} */ ({}),
};

/** @typedef {typeof EN} Words */

/** @type {Words} */
const ZH = {
  game: "棋种", gameTitle: "棋种与规则", newGame: "新对局", newGameDots: "新对局…",
  language: "语言", board: "棋盘",
  first: "开局", back: "后退一步", forward: "前进一步", last: "最新局面",
  takeback: "悔棋", takebackTitle: "收回你的上一步（对引擎时连同它的应着）",
  flip: "翻转棋盘", resign: "认输", offerDraw: "提和",
  players: "对局", mode: "模式", modeHuman: "双人对弈", modeFirst: "你先走",
  modeSecond: "你后走", modeAnalysis: "分析模式",
  playSide: (first, s) => `你${first ? "先" : "后"}走（${s}）`,
  level: "引擎等级", levelName: (n) => (n === 1 ? "1 — 入门" : n === 10 ? "10 — 全力" : String(n)),
  threads: "引擎线程",
  movetime: "引擎每步用时", seconds: (s) => `${s} 秒`,
  engineMove: "引擎走一步", engineMoveTitle: "让引擎替轮到的一方走棋", sound: "音效", animate: "动画",
  analysis: "分析", analyse: "分析", stop: "停止", lines: "线路数", linesAria: "分析线路数（多主变）",
  depth: "深度", score: "评分", nodes: "节点", nps: "节点/秒", pv: "主变",
  multiAria: "最佳着法及其变化；点击可在棋盘上走出",
  idle: "空闲", analysing: "分析中…", engineThinking: "引擎思考中…", stopped: "已停止",
  stoppedBest: (m) => `已停止（最佳 ${m}）`, lost: "搜索中断：后台没有回应",
  moves: "着法", promote: "设为主线", deleteVariation: "删除变化",
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
  timeControl: "计时（分钟 + 每步加秒）", clockName: (c) => clockName(c, "不计时"),
  clockLeft: (s, t) => `${s}：剩余 ${t}`,
  outOfTime: (loser, winner) => `${loser}超时：${winner}胜。`,
  hints: "提示按钮", hint: "提示", hintTitle: "引擎在此给出一步好棋（绿色箭头）",
  reviewBox: "复盘", review: "复盘", reviewCancel: "取消",
  reviewTitle: "引擎逐一分析本局每个局面，标出欠佳、失误和漏着",
  reviewing: (d, t) => `复盘中… ${d}/${t} 个局面`,
  reviewPartial: "中途停止：只复盘了一部分",
  accuracy: (s, a, i, m, b) => `${s}：准确率 ${a} · 欠佳 ${i}，失误 ${m}，漏着 ${b}`,
  judgements: { inaccuracy: "欠佳", mistake: "失误", blunder: "漏着" },
  judged: (m, j, b) => `${m}：${j}。更好的是 ${b}。`,
  betterShown: (b) => `更好的着法：${b}（绿色箭头）。`,
  showBetter: "显示更好的着法",
  reviewGraph: "先手方在全局中的胜率；点击可跳到该步",
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
};

/** @type {Record<Lang, Words>} */
export const WORDS = { en: EN, zh: ZH };

/** @typedef {{ [K in keyof Words]: Words[K] extends string ? K : never }[keyof Words]} WordKey */

// Reasons with a number in them.
/** @type {Partial<Record<Lang, [RegExp, string][]>>} */
const REASON_PATTERNS = {
  zh: [
    [/^no capture for (\d+) plies$/, "连续$1步无吃子"],
    [/^no removal for (\d+) plies$/, "连续$1步无提子"],
  ],
};

/** @type {Lang} */
let lang = "en";

/** The page's language. */
export function currentLang() {
  return lang;
}

/** @param {Lang} next */
export function setLang(next) {
  lang = next;
}

/** @returns {Words} the words of the page's language */
export function words() {
  return WORDS[lang];
}

/**
 * A page word by its key (a word shown for a while, said again on a
 * change of language).
 * @param {WordKey} key
 * @returns {string}
 */
export function word(key) {
  return words()[key];
}

/**
 * Whether a text is the key of one of the page's words.
 * @param {string} key
 * @returns {key is WordKey}
 */
export function isWordKey(key) {
  return typeof (/** @type {Record<string, unknown>} */ (EN))[key] === "string";
}

/**
 * A side's name (Red, X...) in the page's language.
 * @param {string} name
 */
export function sideName(name) {
  return words().side[name] || name;
}

/**
 * Why a game ended, in the page's language.
 * @param {string} reason
 */
export function reasonText(reason) {
  const table = words().reasons;
  if (table[reason]) return table[reason];
  for (const [pattern, replacement] of REASON_PATTERNS[lang] || []) {
    if (pattern.test(reason)) return reason.replace(pattern, replacement);
  }
  return reason;
}

/**
 * An error of the library, a backend or the page in the page's language
 * (errors.js): an Error with its kind and fields (the wasm package's and
 * the server's), or a message. The page's own kinds (the backend does not
 * answer) have words here.
 * @param {unknown} error
 * @returns {string}
 */
export function errorText(error) {
  // The page's own words, already in the page's language.
  if (typeof error === "string") return error;
  const e = /** @type {{ message?: unknown, kind?: unknown, fields?: unknown }} */ (error || {});
  if (e.kind === "unreachable") return words().network;
  const message = typeof e.message === "string" ? e.message : String(error);
  if (lang === "en") return message;
  return explainErrorData({ kind: typeof e.kind === "string" ? e.kind : undefined, fields: e.fields, message }, lang) ?? message;
}

/**
 * A preset's name, or the rule string typed.
 * @param {string} spec
 */
export function presetName(spec) {
  const entry = words().presets[spec];
  return entry ? entry[0] : words().custom(spec);
}

/**
 * A preset's description for players.
 * @param {string} spec
 */
export function presetDescription(spec) {
  const entry = words().presets[spec];
  return entry ? entry[1] : words().customDesc;
}

/**
 * The language chosen once, or the browser's.
 * @param {string | undefined} saved
 * @returns {Lang}
 */
export function chooseLanguage(saved) {
  if (saved === "en" || saved === "zh") return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  return langs.some((l) => /^zh\b/i.test(l)) && !/^en\b/i.test(langs[0]) ? "zh" : "en";
}
