// @ts-check
// The move list: the game's tree as lichess shows it, the main line in
// numbered turns and each variation below the move it replaces, indented,
// in parentheses (variations inside it inline); the move shown marked and
// scrolled to, and the buttons to promote or delete the variation shown. A
// click on a move is the page's (its button has data-node, its place in
// the view's tree; a main line move data-ply too).
import { $ } from "../dom.js";
import { currentLang, words } from "../i18n.js";
import { squaresOf } from "../rules.js";
import { MARKS, moveReview } from "./review.js";

/** @typedef {import("../state.js").View} View */

/**
 * Jungle's pieces on each square, from position text: the first rank
 * written is the top one (rank 9), upper case is Red.
 * @param {string} text
 * @returns {Record<string, string>}
 */
function jungleBoard(text) {
  /** @type {Record<string, string>} */
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

/**
 * Each move of the tree in words (in the order of `view.tree`): the
 * animal that moved and a capture mark (Jungle), the removal mark (Five
 * Tigers).
 * @param {View} view
 * @returns {string[]}
 */
function moveNames(view) {
  const w = words();
  const tree = view.tree || [];
  if (view.game !== "jungle") {
    return tree.map((n) => (n.move.startsWith("x") ? `×${n.move.slice(1)}` : n.move));
  }
  const start = jungleBoard(view.start);
  /** @type {Record<string, string>[]} the board after each node's move */
  const boards = [];
  return tree.map((node, i) => {
    const board = { ...(node.parent === null ? start : boards[node.parent]) };
    const [from, to] = squaresOf(node.move);
    const piece = board[from];
    const captured = board[to];
    delete board[from];
    if (piece) board[to] = piece;
    boards[i] = board;
    const name = piece ? (/** @type {Record<string, string>} */ (w.animals))[piece.toUpperCase()] : null;
    if (!name) return node.move;
    const sep = captured ? "×" : currentLang() === "zh" ? "-" : "";
    return `${name} ${from}${sep}${to}`;
  });
}

/**
 * The shape of the view's tree: each node's children (the main
 * continuation first), the first moves, each move's turn number and
 * depth (its ply), and the main line.
 * @param {View} view
 */
export function treeOf(view) {
  const tree = view.tree || [];
  /** @type {number[][]} */
  const children = tree.map(() => []);
  /** @type {number[]} */
  const roots = [];
  /** @type {number[]} */
  const turn = [];
  /** @type {number[]} */
  const ply = [];
  tree.forEach((node, i) => {
    if (node.parent === null) {
      roots.push(i);
      turn[i] = 1;
      ply[i] = 1;
    } else {
      children[node.parent].push(i);
      const parent = tree[node.parent];
      turn[i] = turn[node.parent] + (node.mover === "first" && parent.mover !== "first" ? 1 : 0);
      ply[i] = ply[node.parent] + 1;
    }
  });
  /** @type {number[]} */
  const main = [];
  for (let at = roots[0]; at !== undefined; at = children[at][0]) main.push(at);
  /** @param {number} i the siblings of node i, itself included */
  const siblings = (i) => {
    const parent = tree[i].parent;
    return parent === null ? roots : children[parent];
  };
  return { tree, children, roots, turn, ply, main, siblings };
}

/**
 * The moves from the first position to node `i` of the view's tree.
 * @param {View} view
 * @param {number} i
 * @returns {string[]}
 */
export function pathTo(view, i) {
  const tree = view.tree || [];
  /** @type {string[]} */
  const moves = [];
  for (let at = /** @type {number | null} */ (i); at !== null && tree[at]; at = tree[at].parent) moves.push(tree[at].move);
  return moves.reverse();
}

/**
 * The variation the shown position is in: the first move of the
 * innermost variation on its path (none on the main line).
 * @param {View} view
 * @returns {number | null}
 */
export function shownVariation(view) {
  const shape = treeOf(view);
  for (let at = view.node === undefined ? null : view.node; at !== null; at = shape.tree[at].parent) {
    if (shape.siblings(at)[0] !== at) return at;
  }
  return null;
}

/**
 * The move list in numbered turns: a turn of the first side and the
 * second's answer on one line (a Five Tigers turn with removals has
 * several moves), the variations below the move they replace.
 * @param {View} view
 */
export function drawMoves(view) {
  const list = $("moves");
  list.innerHTML = "";
  const names = moveNames(view);
  const shape = treeOf(view);
  const { tree, children, turn, ply } = shape;
  const shown = view.node === undefined ? null : view.node;

  /**
   * A move's button.
   * @param {number} i
   * @param {boolean} main on the main line
   */
  const moveButton = (i, main) => {
    const node = tree[i];
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = names[i];
    button.dataset.node = String(i);
    button.dataset.move = node.move;
    button.dataset.side = node.mover;
    if (main) button.dataset.ply = String(ply[i]);
    if (i === shown) button.classList.add("current");
    // The review's judgement of a main line move: ?!, ? or ??.
    const judged = main ? moveReview(ply[i]) : null;
    if (judged && judged.judgement) {
      const mark = document.createElement("span");
      mark.className = `judgement ${judged.judgement}`;
      mark.textContent = MARKS[judged.judgement];
      button.append(mark);
      button.title = words().judgements[judged.judgement];
    }
    return button;
  };

  /**
   * A variation inline from node `first` on (its main continuation), with
   * the variations inside it in parentheses after the move they replace.
   * @param {HTMLElement} into
   * @param {number} first
   */
  const inline = (into, first) => {
    let numbered = true;
    for (let at = /** @type {number | undefined} */ (first); at !== undefined; at = children[at][0]) {
      const node = tree[at];
      if (node.mover === "first" || numbered) {
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = node.mover === "first" ? `${turn[at]}.` : `${turn[at]}…`;
        into.append(num);
      }
      numbered = false;
      into.append(moveButton(at, false));
      const others = shape.siblings(at);
      if (at !== first && others[0] === at) {
        for (const other of others.slice(1)) {
          const nested = document.createElement("span");
          nested.className = "variation nested";
          inline(nested, other);
          into.append(nested);
          numbered = true;
        }
      }
    }
  };

  /** @type {HTMLLIElement | null} */
  let row = null;
  let previous = null;
  for (const i of shape.main) {
    const node = tree[i];
    if (!row || (node.mover === "first" && previous !== "first")) {
      row = document.createElement("li");
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = node.mover === "first" ? `${turn[i]}.` : `${turn[i]}. …`;
      row.append(num);
      list.append(row);
    }
    previous = node.mover;
    row.append(moveButton(i, true));
    // The variations of this move, below it; the main line goes on in a
    // new row.
    const others = shape.siblings(i).slice(1);
    if (others.length > 0) {
      const block = document.createElement("li");
      block.className = "variations";
      for (const other of others) {
        const line = document.createElement("div");
        line.className = "variation";
        inline(line, other);
        block.append(line);
      }
      list.append(block);
      row = null;
    }
  }
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
  const inVariation = shownVariation(view) !== null;
  $("promote").hidden = !inVariation;
  $("delete-variation").hidden = !inVariation;
}
