// The numbers of a walk's steps, as the board draws them (the walked path in view-board.js,
// the hinted one in hint.js): one badge per cell, in the order the walk first reaches it.
// A walk may come back to a cell (R-MOVE lets a meeple step onto a cell it left), so a
// badge says every step that ends there ("1·3"), never only the last one.
import { attr, svg, text } from "../core/dom.js";

/**
 * @param {string[]} cells the cells each step ends on, in order
 * @param {number} [first] the number of steps walked before the first of `cells`
 * @returns {{cell: string, label: string}[]} one entry per distinct cell, first visit first
 */
export function stepLabels(cells, first = 0) {
  const steps = new Map();
  cells.forEach((cell, i) => {
    if (!steps.has(cell)) steps.set(cell, []);
    steps.get(cell).push(first + i + 1);
  });
  return [...steps].map(([cell, numbers]) => ({ cell, label: numbers.join("·") }));
}

// A badge's width in the board's 400×400 drawing: round for one number, a pill for more.
const HEIGHT = 26;
const width = (label) => Math.max(HEIGHT, 8 * label.length + 10);

/**
 * A new badge: a rounded box and its number, for `drawBadge` to place.
 * @param {string} className
 * @returns {SVGGElement}
 */
export function badge(className) {
  const g = svg("g", { class: className });
  g.append(svg("rect", { rx: String(HEIGHT / 2), height: String(HEIGHT) }),
    svg("text", { "text-anchor": "middle", dy: "5" }));
  return g;
}

/**
 * Where a badge saying `label` sits in the cell centred on (x, y) of the board's drawing (a
 * cell is 100 wide, gaps included): toward the cell's upper left, so that it does not hide
 * the icon, and inside the cell however many steps it says; or, given `left`, from there
 * (beside another badge of the same cell).
 * @param {[number, number]} centre
 * @param {string} label
 * @param {number} [left]
 * @returns {{x: number, y: number, w: number, right: number}} its centre, width and right edge
 */
export function badgeBox([x, y], label, left) {
  const w = width(label);
  const cx = left === undefined ? Math.max(x - 30, x - 42 + w / 2) : left + w / 2;
  return { x: cx, y: y - 30, w, right: cx + w / 2 };
}

/**
 * Place `g` (made by `badge`) in its cell, saying `label` (see badgeBox).
 * @param {SVGGElement} g
 * @param {[number, number]} centre
 * @param {string} label
 * @param {number} [left]
 * @returns {void}
 */
export function drawBadge(g, centre, label, left) {
  const { x, y, w } = badgeBox(centre, label, left);
  const [box, words] = [g.firstChild, g.lastChild];
  attr(box, "x", x - w / 2);
  attr(box, "y", y - HEIGHT / 2);
  attr(box, "width", w);
  attr(words, "x", x);
  attr(words, "y", y);
  text(words, label);
}
