// @ts-check
// The errors of the qi library and of the page's backends in the page's
// languages. Their messages are English, and stay so for the JavaScript
// package's and the JSON API's users (docs/wasm.md, docs/web.md). Errors
// arrive structured ({kind, fields, message}: the wasm package's and the
// server's) and are translated by kind (DATA_KINDS), never by reading
// the message. The reason a position, a move, a rule string or a record
// is refused comes as data too: the library's error as {code, fields}
// (the `cause` field), said again from its fields by its code (CAUSES;
// every code the library has is listed, with an example, in
// crates/wasm/js/test/error-codes.json, and the wasm package's Node tests
// check each has words here). The user's own input that a message quotes
// stays as typed. An ES module (i18n.js uses it); the wasm package's Node
// tests (crates/wasm/js/test/page-errors.test.mjs) check that every
// error the library gives for bad input has words here.

// Chinese names of the values the fields hold.
/** @type {Record<string, string>} */
const ZH_SIDE = { Red: "红方", Blue: "蓝方", first: "X方", second: "O方" };
/** @type {Record<string, string>} */
const ZH_ANIMAL = { elephant: "象", lion: "狮", tiger: "虎", leopard: "豹", wolf: "狼", dog: "狗", cat: "猫", rat: "鼠" };
/** @type {Record<string, string>} */
const ZH_FIELD = {
  board: "棋盘", "to-move": "走棋方", phase: "阶段", hands: "手中棋子", owed: "待提子",
  next: "轮次", "last-steps": "上一步", quiet: "无提子步数",
};
/** @type {Record<string, string>} */
const ZH_COUNTER = { "no-capture": "无吃子步数", "full-move": "回合数" };
// What a rule option takes, from the library's typed description
// ({kind: "range", min, max}, {kind: "plies"} or {kind: "names", names}):
// two numbers read as a choice, more as a range; names are quoted as
// literal text to type.
/**
 * @param {{ kind: "range", min: number, max: number } | { kind: "plies" } | { kind: "names", names: string[] }} allowed
 */
const zhAllowed = (allowed) => {
  if (allowed.kind === "range") return `${allowed.min} ${allowed.max === allowed.min + 1 ? "或" : "到"} ${allowed.max}`;
  if (allowed.kind === "plies") return "步数（0 表示不限）";
  return allowed.names.map((name) => `“${name}”`).join("、");
};
// The library's errors as data ({code, fields}: the `cause` of a refused
// position, move or rule string), in Chinese, by code; `t` says a field
// that is an error of its own (the square of a move) or a reason in
// words. Jungle's sides are Red and Blue, Five Tigers' X and O.
/** @type {Record<string, string>} */
const ZH_JUNGLE_SIDE = { first: "红方", second: "蓝方" };
/** @type {Record<string, string>} */
const ZH_FT_SIDE = { first: "X方", second: "O方" };
/** @type {Record<string, string>} */
const FT_SIDE_CHAR = { first: "x", second: "o" };
/** @param {{ side: string, animal: string }} p */
const zhJunglePiece = (p) => `${ZH_JUNGLE_SIDE[p.side] || p.side}${ZH_ANIMAL[p.animal] || p.animal}`;
/** @param {string} side */
const ftSide = (side) => ZH_FT_SIDE[side] || side;
/** @param {Fields} f */
const ftStep = (f) => `${f.step.from}-${f.step.to}`;
const IMPOSSIBLE = "不可能出现的局面：";
/**
 * A field that is an error of its own ({code, fields}) or words.
 * @typedef {(inner: unknown) => string} ExplainPart
 */
/** @type {Record<string, (f: any, t: ExplainPart) => string>} */
const CAUSES = {
  "coord.empty": () => "坐标为空",
  "coord.bad-file": (f) => `“${f}”不是列字母（应为小写字母）`,
  "coord.file-off-board": (f) => `${f} 列不在棋盘上`,
  "coord.missing-rank": () => "列字母之后缺少行号",
  "coord.bad-rank": (f) => `“${f}”不是行号数字`,
  "coord.rank-off-board": (f) => `第${f}行不在棋盘上`,
  "refusal.game-over": () => "对局已结束",
  "refusal.not-legal": () => "此局面下不是合法着法",
  "refusal.anti-chase": (f) => `违反禁止长追的${f.rule}规则`,
  "refusal.remove-only": (f) => `${ftSide(f.side)}只能提${f.own ? "己方的一枚棋子" : "对方一枚不在阵型中的棋子"}`,
  "refusal.owed": (f) => `${ftSide(f.side)}须先提${f.count}子`,
  "refusal.no-removal-owed": () => "现在不能提子",
  "refusal.occupied": () => "这个点上已有棋子",
  "refusal.placement-over": () => "布子阶段已结束",
  "refusal.step-in-placement": () => "布子结束后才能行棋",
  "refusal.shuttle": () => "来回走的规则禁止直接走回去",
  "refusal.not-a-step": (f) => `不是${ftSide(f.side)}走到相邻空点的一步`,
  "jfen.empty": () => "局面文本为空",
  "jfen.rank-count": (f) => `棋盘有${f}行（以“/”分隔），应为9行`,
  "jfen.rank-width": (f) => `第${f.rank}横行有${f.squares}格，应为7格`,
  "jfen.unknown-piece": (f) => `第${f.rank}横行有不认识的棋子字母“${f.letter}”`,
  "jfen.bad-digit": (f) => `第${f.rank}横行的空格数“${f.digit}”有误（应为1到7）`,
  "jfen.duplicate-piece": (f) => `棋盘上有两个${zhJunglePiece(f)}`,
  "jfen.missing-side": () => "棋盘之后缺少走棋方（红方写 w 或 r，蓝方写 b）",
  "jfen.bad-side": (f) => `走棋方“${f}”有误（红方写 w 或 r，蓝方写 b）`,
  "jfen.bad-counter": (f) => `${ZH_COUNTER[f.field] || f.field}“${f.text}”有误（应为${f.field === "full-move" ? 1 : 0}到4294967295的整数）`,
  "jfen.extra-field": (f) => `回合数之后多了字段“${f}”`,
  "jfen.rules-mismatch": (f) => `局面文本写明的规则是“${f.text}”，不是所选的规则“${f.given}”`,
  "jungle-setup.duplicate-piece": (f) => `棋盘上有两个${zhJunglePiece(f.piece)}（${f.first} 和 ${f.second}）`,
  "jungle-setup.animal-in-water": (f) => `${zhJunglePiece(f.piece)}在水中（${f.square}）：只有鼠能下水`,
  "jungle-setup.own-den": (f) => `${zhJunglePiece(f.piece)}在己方兽穴 ${f.square} 上`,
  "jungle-setup.both-dens-entered": () => "双方都有动物进入了对方兽穴",
  "jungle-setup.zero-fullmove": () => "回合数为0（从1开始）",
  "impossible.empty-board": () => `${IMPOSSIBLE}棋盘上没有棋子`,
  "impossible.mover-in-enemy-den": (f) =>
    `${IMPOSSIBLE}${zhJunglePiece(f.piece)}已在对方兽穴 ${f.square}，却又轮到它这一方走（进入兽穴时对局已结束）`,
  "impossible.last-mover-without-animals": (f) => `${IMPOSSIBLE}${ZH_JUNGLE_SIDE[f.side]}没有动物，却走了上一步`,
  "impossible.counters-contradict": (f) =>
    `${IMPOSSIBLE}无吃子步数${f.no_capture_plies}大于按回合数和走棋方算出的已走步数${f.plies}`,
  "jungle-move.bad-length": (f) => `“${f}”不是着法（应为两个格子，例如 a3a4）`,
  "jungle-move.bad-from": (f, t) => `着法“${f.text}”的起点有误：${t(f.error)}`,
  "jungle-move.bad-to": (f, t) => `着法“${f.text}”的终点有误：${t(f.error)}`,
  "jungle-move.same-square": (f) => `“${f}”没有离开原来的格子`,
  "jungle-rules.unknown-preset": (f) => `斗兽棋没有“${f.name}”这套规则`,
  "jungle-rules.unknown-option": (f) => `斗兽棋没有“${f}”这个规则选项`,
  "jungle-rules.missing-value": (f) => `规则选项“${f}”格式有误（应为 选项=值）`,
  "jungle-rules.bad-value": (f) => `规则选项“${f.option}”的值“${f.value}”有误（可选：${zhAllowed(f.expected)}）`,
  "jungle-rules.renamed": (f) => `规则选项“${f.option}”的值“${f.value}”已改名：请写“${f.new_name}”（它所指的规则变了）`,
  "ft-rules.unknown-preset": (f) => `五虎棋没有“${f.name}”这套规则`,
  "ft-rules.bad-syntax": (f) => `“${f.text}”的格式不是 选项=值`,
  "ft-rules.unknown-option": (f) => `五虎棋没有“${f.option}”这个规则选项`,
  "ft-rules.bad-value": (f) => `规则选项“${f.option}”不能取“${f.value}”（允许：${zhAllowed(f.allowed)}）`,
  "ft-move.empty": () => "着法为空",
  "ft-move.point": (f, t) => `着法中的点有误：${t(f)}`,
  "ft-move.not-adjacent": (f) => `${f.from}-${f.to} 不是走到相邻点的一步`,
  "ft-text.field-count": (f) => `应有8个以空格分隔的字段，实际有${f}个`,
  "ft-text.rules-mismatch": (f) => `局面文本写明的规则是“${f.text}”，不是所选的规则“${f.given}”`,
  "ft-text.bad-char": (f) => `${ZH_FIELD[f.field]}字段：不该有的字符“${f.ch}”`,
  "ft-text.invalid": (f, t) => `${ZH_FIELD[f.field]}字段：${t(f.reason)}`,
  "ft-text.rules": (f, t) => `规则：${t(f)}`,
  "ft-text.setup": (f, t) => `${ZH_FIELD[f.field]}字段：${t(f.error)}`,
  "ft-field.rank-count": (f) => `应有5行（以“/”分隔），实际有${f}行`,
  "ft-field.digits-in-a-row": (f) => `第${f.rank}行有两个相连的数字`,
  "ft-field.rank-too-long": (f) => `第${f.rank}行超过5个点`,
  "ft-field.rank-width": (f) => `第${f.rank}行有${f.points}个点，应为5个`,
  "ft-field.empty": () => "为空",
  "ft-field.missing-number": () => "缺少数字",
  "ft-field.leading-zero": (f) => `“${f}”以0开头`,
  "ft-field.too-large": (f) => `“${f.text}”超过${f.max}`,
  "ft-field.hands-form": () => "应写成 X:<数>,O:<数>",
  "ft-field.hands-first": () => "应先写 X:<数>",
  "ft-field.hands-second": () => "X 之后应写 O:<数>",
  "ft-field.hand-too-large": (f) => `${ftSide(f.side)}手中有“${f.hand}”子，超过${f.max}子`,
  "ft-field.empty-entry": () => "有一项为空",
  "ft-field.zero-entry": () => "有一项的提子数为0",
  "ft-field.too-many-entries": () => "超过两项",
  "ft-field.entries-in-a-row": () => "同一方连续两项",
  "ft-field.bad-entries": () => "各项有误",
  "ft-field.steps-form": () => "应写成 <X方上一步>,<O方上一步>",
  "ft-field.not-a-step": (f) => `“${f}”既不是一步棋也不是“-”`,
  "ft-field.bad-point": (f, t) => `“${f.text}”：${t(f.error)}`,
  "ft-field.not-adjacent": (f) => `${f.from}-${f.to} 不是走到相邻点的一步`,
  "ft-field.no-step": () => "“-”不是一步棋",
  "ft-field.bad-phase": (f) => `“${f}”不是 place（布子）或 move（行棋）`,
  "spec.unknown-game": (f) => `没有“${f.name}”这种棋（可选 jungle 或 five-tigers，可加“:规则名”）`,
  "record.syntax": (f, t) => `第${f.line}行第${f.column}列：${t(f.error)}`,
  "record-text.unterminated-tag": () => "标签没有结束（缺少 \"]）",
  "record-text.bad-tag": (f, t) => `标签格式有误（应为 [名称 "值"]）：${t(f)}`,
  "record-tag.no-name": () => "“[”之后缺少标签名称",
  "record-tag.unquoted": () => "值必须放在双引号里",
  "record-tag.bad-escape": () => "值中只有 \\\" 和 \\\\ 两种转义",
  "record-tag.unclosed": () => "值之后应为“]”",
  "record-text.duplicate-tag": (f) => `标签“${f}”出现了两次`,
  "record-text.tag-after-moves": () => "着法之后又出现了标签",
  "record-text.bad-result": (f) => `Result 标签“${f}”不是 1-0、0-1、1/2-1/2 或 *`,
  "record-text.unterminated-comment": () => "注释没有结束（缺少“}”）",
  "record-text.unbalanced-brace": () => "花括号不成对",
  "record-text.misplaced-comment": () => "注释必须跟在着法之后，每步至多一条",
  "record-text.misplaced-variation": () => "变着必须跟在着法之后",
  "record-text.unterminated-variation": () => "变着没有结束（缺少“)”）",
  "record-text.unbalanced-parenthesis": () => "圆括号不成对",
  "record-text.empty-variation": () => "变着至少要有一步",
  "record-text.variation-too-deep": () => "变着嵌套太深",
  "record-text.bad-move": (f) => `“${f}”不是着法`,
  "record-text.result-mismatch": (f) => `结果 ${f.token} 与 Result 标签 ${f.tag} 不一致`,
  "record-text.trailing-text": () => "结果之后还有文字",
  "record-text.empty": () => "没有棋谱",
  "record.no-game-tag": () => "棋谱没有 Game 标签",
  "record.rules-result": (f) => `按规则结果为 ${f.rules}，棋谱却写 ${f.record}`,
  "record.variation-move": (f, t) => `变着中的着法“${f.text}”：${t(f.reason)}`,
  "tree.too-deep": (f) => `变着最多嵌套${f.max}层`,
  "tree.no-such-move": () => "棋谱树中这里没有这步棋",
  "record.game-tag": (f, t) => `Game 标签：${t(f)}`,
  "record.start-tag": (f, t) => `Start 标签（起始局面）：${t(f)}`,
  "record.unread-move": (f, t) => `第${f.number}步“${f.text}”：${t(f.error)}`,
  "record.illegal-move": (f, t) => `第${f.number}步“${f.text}”不合规则：${t(f.reason)}`,
  "ft-setup.owed-twice-in-a-row": () => "同一方连续两项",
  "ft-setup.last-step-not-adjacent": (f) => `${ftStep(f)} 不是走到相邻点的一步`,
  "ft-setup.hand-too-large": (f) => `${ftSide(f.side)}手中有${f.hand}子，超过${f.max}子`,
  "ft-setup.too-many-pieces": (f) => `${ftSide(f.side)}盘上与手中的棋子超过${f.max}个`,
  "ft-setup.no-pieces": () => "双方都没有棋子",
  "ft-setup.placement-with-empty-hands": () => "双方手中都已无子，布子阶段已结束",
  "ft-setup.placement-on-full-board": () => "棋盘已满，布子阶段已结束",
  "ft-setup.next-hand-empty": () => "手中无子的一方在布子时被跳过",
  "ft-setup.quiet-plies-in-placement": () => "布子阶段没有行棋步数",
  "ft-setup.step-in-placement": () => "布子阶段没有上一步行棋",
  "ft-setup.hands-in-movement": () => "布子结束后双方手中的子数应为0",
  "ft-setup.owed-after-loss": () => "一方已无棋子时不再待提子",
  "ft-setup.owed-from-empty-board": () => "盘上无子的一方不会被提子",
  "ft-setup.wrong-side-to-move": (f) => `“${FT_SIDE_CHAR[f.found]}”应为“${FT_SIDE_CHAR[f.expected]}”`,
  "ft-setup.placed-out-of-turn": (f) => `X方已布${f.placed[0]}子、O方已布${f.placed[1]}子，但双方轮流布子，X方先`,
  "ft-setup.next-out-of-turn": (f) =>
    `“${FT_SIDE_CHAR[f.found]}”应为“${FT_SIDE_CHAR[f.expected]}”：双方布子数相同时轮到X方，X方多布一子时轮到O方`,
  "ft-setup.owed-in-deferred-placement": () => "延后提子规则下，布子阶段不待提子",
  "ft-setup.removed-in-deferred-placement": (f) => `${ftSide(f.side)}少了${f.lost}子，但延后提子规则下布子结束前不提子`,
  "ft-setup.two-owed-in-placement": () => "布子阶段不能有两项待提子：只有最后一次布子能提子",
  "ft-setup.owed-not-to-last-placer": (f) => `布子阶段${ftSide(f.taker)}待提子，但上一个布子的是对方`,
  "ft-setup.owed-without-formation": (f) => `${ftSide(f.taker)}待提${f.count}子，多于它经任一枚棋子所成的阵型数`,
  "ft-setup.unpaid-formations": (f) =>
    `${ftSide(f.side)}有${f.held}个阵型，却只待提${f.owed}子，而对方未失一子：布子时每成一个阵型都要提一子`,
  "ft-setup.removed-before-formation": (f) => `${ftSide(f.side)}少了棋子，但对方布下的棋子还不到成阵所需的3子`,
  "ft-setup.full-board-nothing-owed": () => "行棋阶段的满盘必有待提子：开局的提子在布子之后",
  "ft-setup.owed-not-from-placement": (f) => `按“${f.capture}”提子规则结束布子时，这个棋盘上不可能待提“${f.owed}”`,
  "ft-setup.steps-out-of-turn": () => "上一步不合轮次：O方先行棋，之后双方交替",
  "ft-setup.last-step-off-board": (f) => `${ftSide(f.side)}的上一步 ${ftStep(f)} 与棋盘不符`,
  "ft-setup.quiet-without-steps": (f) => `无提子步数为${f.plies}，但还没有一方行过棋`,
  "ft-setup.owed-not-from-step": (f) =>
    `${ftSide(f.side)}的一步 ${ftStep(f)} 能提${f.value}子：待提子和无提子步数与它不符`,
};

/**
 * The library's error given as data, in `lang`, or null for a code with
 * no words here. A field that is words is explained as a message.
 * @param {unknown} cause
 * @param {string} lang
 * @param {string[]} unknown
 * @returns {string | null}
 */
function explainCause(cause, lang, unknown) {
  if (lang !== "zh" || !cause || typeof cause !== "object") return null;
  const { code, fields } = /** @type {{ code?: unknown, fields?: unknown }} */ (cause);
  const words = typeof code === "string" ? CAUSES[code] : undefined;
  return words ? words(fields, (inner) => explainPart(inner, lang, unknown)) : null;
}

/**
 * A part of an error: an error as data, or words (a reason the library
 * gives only in words); words, or an error of no known code, are kept as
 * they are and added to `unknown`.
 * @param {unknown} part
 * @param {string} lang
 * @param {string[]} unknown
 * @returns {string}
 */
function explainPart(part, lang, unknown) {
  if (typeof part === "string") {
    unknown.push(part);
    return part;
  }
  const said = explainCause(part, lang, unknown);
  if (said === null) unknown.push(JSON.stringify(part));
  return said ?? JSON.stringify(part);
}

/**
 * Whether `code` has words here (for the tests against the library's list).
 * @param {string} code
 */
export function causeHasWords(code) {
  return Object.hasOwn(CAUSES, code);
}


// The words of the errors that arrive structured ({kind, fields, message}:
// the wasm package's and the server's JSON errors, docs/wasm.md): they are
// translated from their fields, with no reading of the message; a field
// that is the library's error as data (a move's `cause`) is said by its
// code.
/** @type {Record<string, string>} */
const ZH_FOUND = {
  undefined: "未给出", null: "null", "an array": "数组", "a string": "字符串", "a number": "数字",
  "a boolean": "布尔值", "a function": "函数", "a bigint": "大整数", "a symbol": "符号", "an object": "对象",
};
/** @type {Record<string, string>} */
const ZH_EXPECTED = {
  "a string": "字符串", "an integer": "整数", "a boolean": "布尔值", "a function": "函数",
  "an array of strings": "字符串数组", "an object": "对象", "a string, a number or a boolean": "字符串、数字或布尔值",
};
/** @type {Record<string, string>} */
const ZH_GAME = { jungle: "斗兽棋", "five-tigers": "五虎棋" };
/** @type {Record<string, string>} */
const ZH_ARGUMENT = { "search limits": "搜索限制", "board options": "棋盘选项" };
/** @param {string} name */
const zhArgument = (name) => ZH_ARGUMENT[name] || name;
/**
 * The fields of a structured error, by name.
 * @typedef {Record<string, any>} Fields
 */
/** @type {Record<string, { zh: (f: Fields, t: ExplainPart) => string }>} */
const DATA_KINDS = {
  "argument.type": { zh: (f) => `参数 ${zhArgument(f.name)} 应为${ZH_EXPECTED[f.expected] || f.expected}，而不是${ZH_FOUND[f.found] || f.found}` },
  "argument.range": { zh: (f) => `参数 ${f.name} 应为 ${f.min} 到 ${f.max} 的整数，而不是 ${f.value}` },
  "limits.depth": { zh: (f) => `搜索深度应为 1 到 ${f.max}，而不是 ${f.depth}` },
  "limits.nodes": { zh: () => "搜索节点数至少为 1" },
  "limits.movetime": { zh: () => "搜索时间至少为 1 毫秒" },
  "limits.unbounded": { zh: () => "搜索没有任何限制，也没有能停止它的回调" },
  ply: { zh: (f) => `第${f.ply}步不在对局中（0 到 ${f.len}）` },
  "record.ply": { zh: (f) => `第${f.ply}步不在棋谱中（0 到 ${f.len}）` },
  "record.bad-move": { zh: (f, t) => `第${f.number}步“${f.text}”：${t(f.cause ?? f.reason)}` },
  "nothing-to-undo": { zh: () => "没有可以悔的棋" },
  move: { zh: (f, t) => `着法“${f.text}”不能走：${t(f.cause ?? f.reason)}` },
  position: { zh: (f, t) => `局面文本有误：${t(f.cause ?? f.reason)}` },
  record: { zh: (f, t) => `棋谱有误：${t(f.cause ?? f.reason)}` },
  "spec.unknown-game": { zh: (f) => `没有“${f.name}”这种棋（可选 jungle 或 five-tigers，可加“:规则名”）` },
  "spec.rules": { zh: (f, t) => t(f.cause ?? f.reason) },
  "spec.profile": { zh: (f) => `${ZH_GAME[f.game] || f.game}没有“${f.profile}”这个评估方案` },
  option: { zh: (f) => `引擎选项有误：${f.reason}` },
  square: { zh: (f) => `“${f.square}”不是棋盘上的格子` },
  "no-drawing": { zh: (f) => `${ZH_GAME[f.game] || f.game}没有棋盘图` },
  "argument.side": { zh: (f) => `参数 side 应为“first”或“second”，而不是“${f.value}”` },
  "argument.fields": { zh: (f) => `${zhArgument(f.name)}有误：${f.reason}` },
  // The backends' own refusals.
  "engine-thinking": { zh: () => "引擎正在思考：请等它走完" },
  "undo-count": { zh: (f) => `在第${f.ply}步不能悔${f.count}步` },
  "engine-no-move": { zh: () => "引擎无棋可走" },
  "engine-failed": { zh: (f) => `引擎出错：${f.reason}` },
  // The server's own, the clock's and the review's.
  searching: { zh: () => "正在搜索中" },
  "game-over": { zh: () => "对局已结束" },
  "analysis-level": { zh: () => "分析总是以全力进行，不能选难度" },
  "bad-json": { zh: () => "请求格式有误" },
  stopping: { zh: () => "服务器正在关闭" },
  "too-many-searches": { zh: (f) => `同时进行的搜索太多（${f.max}）：请稍后再试` },
  "too-many-sessions": { zh: (f) => `对局太多（${f.max}），都在搜索中` },
  "no-session": { zh: (f) => `没有对局“${f.id}”` },
  "session-ended": { zh: (f) => `对局“${f.id}”已结束：它被删除了，或被更新的对局替换（服务器最多保留${f.max}个）` },
  "server-restarted": { zh: (f) => `对局“${f.id}”来自服务器重启之前，已不存在` },
  "clock.time-control": { zh: (f) => `“${f.text}”不是用时设置（应为 基本秒数+每步加秒，例如 300+2）` },
  "clock.not-running": { zh: () => "棋钟没有在走" },
  "clock.paused": { zh: () => "棋钟已暂停" },
  "clock.not-paused": { zh: () => "棋钟没有暂停" },
  "clock.flagged": { zh: (f) => `${ZH_SIDE[f.side] || f.side}超时` },
  "clock.none": { zh: () => "这局棋没有棋钟" },
  "clock.time-went-back": { zh: (f) => `时间倒退了：${f.now} 毫秒早于上次的 ${f.last} 毫秒` },
  "review.budget": { zh: (f) => `复盘的${f.name === "depth" ? "深度" : "节点数"}应为 1 到 ${f.max}，而不是 ${f.value}` },
};

// A structured error ({kind, fields, message}) in `lang`, by its kind, or
// null in English or for a kind without words here (the message is shown).
/**
 * @param {{ kind?: string, fields?: unknown, message: string }} error
 * @param {string} lang
 * @param {string[]} [unknown]
 * @returns {string | null}
 */
export function explainErrorData(error, lang, unknown = []) {
  const kind = error && error.kind && error.fields ? DATA_KINDS[error.kind] : null;
  if (!kind || lang !== "zh") return null;
  return kind.zh(/** @type {Fields} */ (error.fields), (inner) => explainPart(inner, lang, unknown));
}
