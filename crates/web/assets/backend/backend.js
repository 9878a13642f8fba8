// @ts-check
// The one interface the page has to a game and its engine, whichever
// backend answers: `qi serve`'s JSON API (server.js) or the game and the
// engine in the page (local.js, the static site). lichess's analysis board
// keeps every engine behind one interface the same way (CevalEngine).
// Each call that changes the game answers with the new view; a refusal is
// an Error with the library's `kind` and `fields` (docs/web.md), which
// the page translates by kind (errors.js).

/** @typedef {import("../state.js").View} View */
/** @typedef {import("../state.js").SearchEvent} SearchEvent */

/**
 * The games and their presets.
 * @typedef {{ games: { name: string, presets: string[] }[], default: string }} Games
 */

/**
 * A new game: its spec, a position text to start from, the board's flip.
 * @typedef {{ spec: string, text?: string, flip?: boolean }} NewGame
 */

/**
 * A game review (qi-play's `Review`, docs/wasm.md "Game review").
 * @typedef {object} Review
 * @property {string} spec
 * @property {{ ply: number, score: string, score_first: number, win_first: number, best: string | null, pv: string[] }[]} positions
 *   each position searched, from the first: the first side's winning chances (0 to 100)
 * @property {{ ply: number, side: "first" | "second", played: string, best: string | null, win_before: number,
 *   win_after: number, loss: number, accuracy: number, judgement: "inaccuracy" | "mistake" | "blunder" | null }[]} moves
 *   each move (ply from 1: it leads to position `ply`), judged
 * @property {{ accuracy: number | null, inaccuracies: number, mistakes: number, blunders: number }[]} sides
 * @property {number} nodes
 * @property {boolean} complete
 */

/**
 * A review that runs: its result, and its cancellation (the result then
 * never comes).
 * @typedef {{ result: Promise<Review>, cancel: () => void }} Reviewing
 */

/**
 * @typedef {object} Backend
 * @property {"server" | "local"} name
 * @property {() => Promise<Games>} games the games and presets
 * @property {(spec: string, flip: boolean) => Promise<{ view: View, lost: boolean }>} open
 *   the game this tab had (the server's session, the page's saved game),
 *   or a new one of `spec`; `lost` when the server no longer has the tab's
 * @property {() => Promise<View>} view the game as it is now
 * @property {(move: string) => Promise<View>} play
 * @property {(count: number) => Promise<View>} undo takes back `count` plies
 * @property {(ply: number) => Promise<View>} goto shows the position after `ply` plies of the line shown
 * @property {(moves: string[]) => Promise<View>} gotoLine shows the position after
 *   `moves` of the game's tree (the way to a variation)
 * @property {() => Promise<View>} promote the line to the shown position becomes the main line
 * @property {(moves: string[]) => Promise<string>} preview the board (SVG) after `moves`
 *   from the shown position; the game does not change
 * @property {(game: NewGame) => Promise<View>} newGame
 * @property {(flip: boolean) => Promise<View>} flip
 * @property {() => Promise<string>} record the game's record (docs/records.md)
 * @property {(record: string) => Promise<View>} loadRecord
 * @property {(options: { movetime_ms: number, level: number }) => Promise<View>} engineMove
 *   the engine plays the side to move
 * @property {(multipv: number, movetime_ms?: number) => Promise<View>} startAnalysis
 *   an analysis of `multipv` lines, until stopped or for `movetime_ms`
 * @property {() => Promise<View>} stopAnalysis
 * @property {(control: string | null) => Promise<View>} setClock
 *   a clock of `control` ("300+2", PGN's TimeControl), the side to move's
 *   time running at once; `null`: no clock
 * @property {() => Promise<View>} pauseClock stops the running side's time
 *   (a game ended by resignation or agreement)
 * @property {(record: string, nodes: number, onProgress: (done: number, total: number) => void) => Reviewing} review
 *   every position of the record's game searched at `nodes` and each move
 *   judged, `onProgress` told after each position searched
 * @property {(count: number) => void} setThreads the engine's threads from the next
 *   search on (the static page's Web Workers; `qi serve` searches with its own)
 * @property {(onEvent: (event: SearchEvent) => void, onBroken: () => void) => void} listen
 *   the searches' events; `onBroken` when they may have stopped coming
 */

export {};
