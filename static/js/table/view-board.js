// The 4x4 ingredient board: 16 cell buttons built once and updated in place, a meeple layer
// (meeples glide between cells) and an SVG overlay drawing this turn's path.
import { attr, h, svg, text, toggle } from "../core/dom.js";
import { icon } from "../core/icons.js";
import { ing, t } from "../lang/i18n.js";

import { rulesData } from "../core/rules-data.js";
import { badge, drawBadge, stepLabels } from "./step-numbers.js";

// The board's layout, specialty cells and corners come from the server (rules-data.js).
function isSpecialty(cell) {
  return rulesData().specialty_cells.includes(cell);
}

function isCorner(cell) {
  return rulesData().corners.includes(cell);
}
import { SEAT_LETTERS } from "../core/names.js";

export { SEAT_LETTERS };

/**
 * @param {string} cell e.g. "r2c3"
 * @returns {string}
 */
export function cellIngredient(cell) {
  const r = Number(cell[1]) - 1;
  const c = Number(cell[3]) - 1;
  return rulesData().board[r][c];
}

/**
 * @param {HTMLElement} container
 * @param {(cell: string) => void} onActivate
 * @returns {Record<string, any>} the board's parts, for updateBoard
 */
export function createBoard(container, onActivate) {
  container.replaceChildren();
  const grid = h("div", { class: "board-grid", role: "group" });
  for (let r = 1; r <= 4; r++) {
    for (let c = 1; c <= 4; c++) {
      const cell = `r${r}c${c}`;
      const name = rulesData().board[r - 1][c - 1];
      const btn = h("button", {
        type: "button", class: `cell ing-${name}`, "data-cell": cell, tabindex: "-1",
        "aria-disabled": "true",
      },
      icon(name, null, "ico cell-ico"),
      isSpecialty(cell) ? icon("ribbon", null, "ico ribbon") : null,
      h("span", { class: "gain", "aria-hidden": "true" }));
      toggle(btn, "specialty", isSpecialty(cell));
      toggle(btn, "corner", isCorner(cell));
      btn.addEventListener("click", () => onActivate(cell));
      btn.addEventListener("keydown", (e) => arrowKeys(e, grid));
      btn.addEventListener("focus", () => {
        for (const b of grid.querySelectorAll(".cell")) b.tabIndex = b === btn ? 0 : -1;
      });
      grid.append(btn);
    }
  }
  const overlay = svg("svg", { class: "path-layer", viewBox: "0 0 400 400", "aria-hidden": "true" });
  const line = svg("polyline", { class: "path-line", points: "" });
  const dots = svg("g", { class: "path-dots" });
  overlay.append(line, dots);
  const meeples = h("div", { class: "meeple-layer", "aria-hidden": "true" });
  container.append(grid, overlay, meeples);
  return { grid, line, dots, meeples };
}

function arrowKeys(e, grid) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const d = moves[e.key];
  if (!d) return;
  e.preventDefault();
  const cell = e.currentTarget.dataset.cell;
  const r = Math.min(4, Math.max(1, Number(cell[1]) + d[0]));
  const c = Math.min(4, Math.max(1, Number(cell[3]) + d[1]));
  grid.querySelector(`[data-cell="r${r}c${c}"]`).focus();
}

function centre(cell) {
  return [(Number(cell[3]) - 0.5) * 100, (Number(cell[1]) - 0.5) * 100];
}

/**
 * @param {Record<string, any>} parts from createBoard
 * @param {import("../core/types.js").View} view
 * @param {ReturnType<typeof import("./intents.js").intents>} acts
 * @param {import("../core/types.js").NameOf} nameOf
 * @returns {void}
 */
export function updateBoard(parts, view, acts, nameOf) {
  const g = view.game;
  const occupants = new Map(); // cell -> [{seat, index}]
  if (g) {
    for (const p of g.players) {
      p.meeples.forEach((cell, index) => {
        if (!occupants.has(cell)) occupants.set(cell, []);
        occupants.get(cell).push({ seat: p.seat, index });
      });
    }
  }
  let firstLegal = null;
  for (const btn of parts.grid.children) {
    const cell = btn.dataset.cell;
    const name = cellIngredient(cell);
    const act = acts.cells.get(cell);
    const who = occupants.get(cell) || [];
    const bits = [t("board.cell", { r: cell[1], c: cell[3], ing: ing(name) })];
    if (isSpecialty(cell)) bits.push(t("board.specialty"));
    if (isCorner(cell)) bits.push(t("board.corner"));
    for (const m of who) bits.push(t("board.meeple", { name: nameOf(m.seat) }));
    const gainEl = btn.querySelector(".gain");
    if (act && act.kind === "step") {
      const [gi, count] = Object.entries(act.action.gain)[0] || [name, 0];
      bits.push(t("board.step", { count, ing: ing(gi) }));
      if (act.action.rush) bits.push(t("board.stepRush"));
      text(gainEl, `+${count}${act.action.rush ? " ⚡" : ""}`);
    } else {
      text(gainEl, "");
      if (act && act.kind === "place") bits.push(t("board.place"));
      if (act && act.kind === "choose") bits.push(t("board.choose"));
    }
    attr(btn, "aria-label", bits.join(", "));
    attr(btn, "aria-disabled", act ? null : "true");
    toggle(btn, "legal", Boolean(act));
    toggle(btn, "rush-step", Boolean(act && act.kind === "step" && act.action.rush));
    toggle(btn, "occupied", who.length > 0);
    if (act && !firstLegal) firstLegal = btn;
  }
  // Roving tabindex: keep the focused cell, else the first legal cell, else r1c1.
  const grid = parts.grid;
  if (!grid.contains(document.activeElement)) {
    const target = firstLegal || grid.firstElementChild;
    for (const b of grid.children) b.tabIndex = b === target ? 0 : -1;
  }
  attr(grid, "aria-label", t("board.label"));
  updatePath(parts, g);
  updateMeeples(parts, g, occupants, nameOf);
}

function updatePath(parts, g) {
  const path = g && rulesData().turn_phases.includes(g.phase) ? g.move.path : [];
  const pts = path.map((c) => centre(c).join(",")).join(" ");
  if (parts.line.getAttribute("points") !== pts) parts.line.setAttribute("points", pts);
  // One badge per cell the walk reaches, saying each step that ends there (R-MOVE: a walk
  // may revisit a cell).
  const want = stepLabels(path.slice(1));
  while (parts.dots.children.length > want.length) parts.dots.lastChild.remove();
  want.forEach(({ cell, label }, i) => {
    const gEl = parts.dots.children[i] || parts.dots.appendChild(badge("path-dot"));
    drawBadge(gEl, centre(cell), label);
    attr(gEl, "data-step-cell", cell);
  });
}

function updateMeeples(parts, g, occupants, nameOf) {
  const items = [];
  if (g) {
    for (const p of g.players) {
      p.meeples.forEach((cell, index) => items.push({ seat: p.seat, index, cell }));
    }
  }
  const layer = parts.meeples;
  const seen = new Set();
  for (const m of items) {
    const key = `${m.seat}-${m.index}`;
    seen.add(key);
    let el = layer.querySelector(`[data-key="${key}"]`);
    if (!el) {
      el = h("div", { class: `meeple seat-${m.seat}`, dataset: { key } },
        h("span", { class: "meeple-letter" }));
      layer.append(el);
    }
    const here = occupants.get(m.cell) || [];
    const slot = here.findIndex((o) => o.seat === m.seat && o.index === m.index);
    const spread = here.length > 1 ? (slot - (here.length - 1) / 2) * 7 : 0;
    const col = Number(m.cell[3]) - 1;
    const row = Number(m.cell[1]) - 1;
    // Bottom-right of the cell, side by side when several share it.
    el.style.left = `calc(${col * 25 + 14}% + ${spread}px)`;
    el.style.top = `calc(${row * 25 + 13.5}% + ${Math.abs(spread) / 2}px)`;
    text(el.firstChild, SEAT_LETTERS[m.seat] + (g.players[m.seat].meeples.length > 1 ? m.index + 1 : ""));
    attr(el, "title", nameOf(m.seat));
    toggle(el, "moving", g.current === m.seat && g.move && g.move.meeple === m.index && g.phase === "move");
  }
  for (const el of [...layer.children]) if (!seen.has(el.dataset.key)) el.remove();
}
