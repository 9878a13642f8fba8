// @ts-check
// Game records and links: a record saved with the ending only the page
// knows (resignation, agreed draw), a record downloaded, and the game in
// the address's hash (a link that opens it on any copy of the page).
import { textarea } from "../dom.js";
import { gameKey } from "../rules.js";
import { state } from "../state.js";

/** @typedef {import("../state.js").View} View */

/**
 * A resignation or agreed draw, which only the page knows, written into
 * the record as docs/records.md has it (the Result tag and token, and the
 * Termination tag), so that loading the record ends the game the same way.
 * @param {View} view
 * @param {string} record
 */
export function withEnding(view, record) {
  // The record is the whole line, shown at any ply: the ending of its end.
  const ended = state.ended && state.ended.key === gameKey(view) ? state.ended : null;
  if (!ended || !/\[Result "\*"\]/.test(record)) return record;
  const token = ended.winner ? (ended.winner === view.side_names[0] ? "1-0" : "0-1") : "1/2-1/2";
  return record
    .replace(/\[Result "\*"\]/, `[Result "${token}"]\n[Termination "${ended.reason}"]`)
    .replace(/\*(\s*)$/, `${token}$1`);
}

/**
 * The record in the text box and downloaded as a file.
 * @param {View} view
 * @param {string} record
 */
export function downloadRecord(view, record) {
  textarea("record-text").value = record;
  const blob = new Blob([record], { type: "text/plain" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `${view.game}-${new Date().toISOString().slice(0, 10)}.pgn`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/**
 * A link to the game shown: its rules, its start when not the usual one,
 * its moves and the move shown, in the address's hash (lichess shares
 * games the same way), so that the link opens it on any copy of the page.
 * A game with variations has its whole tree there too (`tree`: the
 * record's moves, variations in parentheses, as docs/records.md writes
 * them); `moves` is then the line shown.
 * @param {View} view
 * @param {string} record the game's record (its Start tag, its moves)
 */
export function shareLink(view, record) {
  const tag = (/** @type {string} */ name) => (record.match(new RegExp(`^\\[${name} "(.*)"\\]$`, "m")) || [])[1];
  const params = new URLSearchParams();
  params.set("game", view.spec);
  const start = tag("Start");
  if (start !== undefined) params.set("start", start);
  const tree = movetext(record);
  if (tree.includes("(")) params.set("tree", tree);
  if (view.moves.length) params.set("moves", view.moves.join(" "));
  if (view.ply !== view.moves.length) params.set("ply", String(view.ply));
  const url = new URL(location.href);
  url.hash = params.toString();
  return url.href;
}

/**
 * A record's moves (with their variations and comments) on one line,
 * without the tags and the result token.
 * @param {string} record
 */
function movetext(record) {
  const body = record.replace(/^\uFEFF/, "").split(/\r?\n/).filter((line) => !/^\s*\[/.test(line)).join(" ");
  return body.trim().replace(/\s*(\*|1-0|0-1|1\/2-1\/2)$/, "").replace(/\s+/g, " ");
}

/**
 * The game of a shared link (shareLink), as a record the backends read:
 * its moves without a result token are an unfinished game, or the end the
 * rules give; `line` is the line to show when the record's moves are a
 * tree (a link with `tree`), null for a link of one line (the record's
 * moves are then the line). Null when the address names no game.
 * @param {string} hash
 * @returns {{ text: string, ply: number | null, line: string[] | null } | null}
 */
export function linkedRecord(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const game = params.get("game");
  if (!game) return null;
  const quote = (/** @type {string} */ value) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  const tags = [`[Game "${quote(game)}"]`];
  const start = params.get("start");
  if (start) tags.push(`[Start "${quote(start)}"]`);
  const moves = (params.get("moves") || "").split(/\s+/).filter(Boolean);
  const ply = params.has("ply") ? Number(params.get("ply")) : null;
  const tree = params.get("tree");
  const text = `${tags.join("\n")}\n\n${tree !== null ? tree : moves.join(" ")}\n`;
  return { text, ply, line: tree !== null ? moves : null };
}
