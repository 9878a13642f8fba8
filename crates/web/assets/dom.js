// @ts-check
// The page's elements by id, typed: each getter fails loudly when the
// page lacks the element (a renamed id), instead of a null further on.

/**
 * An element of the page.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node;
}

/**
 * An element of the page of a given type.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T, prototype: T }} type
 * @returns {T}
 */
function typed(id, type) {
  const node = $(id);
  if (!(node instanceof type)) throw new Error(`#${id} is not a ${type.name}`);
  return node;
}

/** @param {string} id */
export const input = (id) => typed(id, HTMLInputElement);
/** @param {string} id */
export const select = (id) => typed(id, HTMLSelectElement);
/** @param {string} id */
export const textarea = (id) => typed(id, HTMLTextAreaElement);
/** @param {string} id */
export const dialog = (id) => typed(id, HTMLDialogElement);
/** @param {string} id */
export const button = (id) => typed(id, HTMLButtonElement);

/**
 * The board's picture (the view's SVG), once drawn.
 * @returns {SVGSVGElement | null}
 */
export function boardSvg() {
  return $("board").querySelector("svg");
}
