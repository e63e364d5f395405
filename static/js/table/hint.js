// Hints for learning players (server/bots/hint.py): a "Hint" button for the seated player
// whose turn it is, in rooms that allow hints; the answer's move is outlined on the table
// (the meeple and the path's cells, the cup, the order, the tile or the button) with one line of why, until
// the player acts. A hinted walk is drawn as a numbered path, 1-2-3 as a walk is, and stays
// while the player follows it, step by step, until the walk is done. When End turn is the
// only thing left to do, the line says so without asking the expert (no hint is spent). The why comes as a sentence key and its parameters, said here in the
// reader's language; the replay says the hints given the same way (hintLine).
import { h, markOnly, svg, text, toggle } from "../core/dom.js";
import { ing, orderName, t, tokens } from "../lang/i18n.js";
import { cellWords } from "./cell-words.js";
import { rulesData } from "../core/rules-data.js";
import { badge, badgeBox, drawBadge, stepLabels } from "./step-numbers.js";

// How a parameter of a why reads, by its name (the names server/bots/hint.py gives).
const ARGS = {
  cell: (v) => cellWords(String(v)),
  gains: (v) => tokens(v),
  orders: (v) => (v || []).map(orderName).join(t("misc.and")),
  order: (v) => orderName(String(v)),
  ingredient: (v) => ing(v),
  tile: (v) => t(`tile.${v}`),
};

/**
 * @param {{key: string, args: Record<string, unknown>}} why
 * @param {string[]} [path] the hinted walk (its length: the steps of a hint recorded before
 *   the why said them)
 * @returns {string} the one line of why, in the current language
 */
export function whyLine(why, path = []) {
  const params = { steps: path.length };
  for (const [name, value] of Object.entries(why.args || {})) {
    params[name] = ARGS[name] ? ARGS[name](value) : value;
  }
  return t(why.key, params);
}

/**
 * A hint as the replay's log says it.
 * @param {{seat: number, why: {key: string, args: Record<string, unknown>}, path?: string[]}} item
 * @param {(seat: number) => string} nameOf
 * @returns {string}
 */
export function hintLine(item, nameOf) {
  return t("hint.given", { name: nameOf(item.seat), why: whyLine(item.why, item.path) });
}

/**
 * The elements a hint points at on a table drawn for `seat`.
 * @param {{action: Record<string, any>, path?: string[]}} hint
 * @param {number | null} seat
 * @returns {Element[]}
 */
function hintTargets(hint, seat) {
  const a = hint.action;
  const me = seat === null ? null : document.querySelector(`.pboard[data-seat="${seat}"]`);
  const found = [];
  const add = (el) => { if (el) found.push(el); };
  for (const cell of hint.path || []) add(document.querySelector(`#board [data-cell="${cell}"]`));
  if (a.type === "choose_meeple") add(document.querySelector(`#board .meeple[data-key="${seat}-${a.meeple}"]`));
  if (a.type === "place") add(document.querySelector(`#board [data-cell="${a.cell}"]`));
  if (a.type === "step" && !(hint.path || []).length) add(document.querySelector(`#board [data-cell="${a.cell}"]`));
  if (me && a.cup !== undefined) add(me.querySelector(`.cup[data-cup="${a.cup}"]`));
  if (me && a.card !== undefined) add(me.querySelector(`.card[data-card="${a.card}"]`));
  if (me && a.tile !== undefined) add(me.querySelector(`.tile[data-tile="${a.tile}"]`));
  if (a.type === "return") add(document.getElementById("return-btn"));
  for (const b of document.querySelectorAll("#phase-buttons button")) {
    if (b._action && b._action.type === a.type) add(b);
  }
  return found;
}

// Where a walk's number sits in a cell of the board's 400×400 drawing (as view-board.js
// numbers the steps walked).
function centre(cell) {
  return [(Number(cell[3]) - 0.5) * 100, (Number(cell[1]) - 0.5) * 100];
}

/**
 * Draw `hint`'s walk on the board's path layer: a bold line from `from` through its cells,
 * each numbered from `first` (the steps already walked along it come before).
 * @param {{path?: string[], first?: number} | null} hint
 * @param {string | null} from the cell the walk starts from (null: its first cell)
 * @param {string[]} [walked] the cells the walk so far stepped onto (numbered by view-board.js)
 * @returns {void}
 */
function drawHintPath(hint, from, walked = []) {
  const layer = document.querySelector("#board .path-layer");
  if (!layer) return;
  let group = layer.querySelector(".hint-path");
  const cells = hint?.path || [];
  if (!cells.length) {
    group?.remove();
    return;
  }
  if (!group) {
    group = svg("g", { class: "hint-path" });
    layer.prepend(group);
  }
  const points = [...(from ? [from] : []), ...cells].map((c) => centre(c).join(",")).join(" ");
  const line = svg("polyline", { class: "hint-path-line", points });
  // One badge per cell, saying each step of the hinted walk that ends there ("1·3"); on a
  // cell the walk so far already numbers, beside that number rather than under it.
  const before = new Map(stepLabels(walked).map(({ cell, label }) => [cell, label]));
  const dots = stepLabels(cells, hint.first || 0).map(({ cell, label }) => {
    const dot = badge("hint-path-dot");
    dot.setAttribute("data-step-cell", cell);
    const there = before.get(cell);
    drawBadge(dot, centre(cell), label, there && badgeBox(centre(cell), there).right + 3);
    return dot;
  });
  group.replaceChildren(line, ...dots);
}

/**
 * Outline `hint`'s targets (and only them).
 * @param {{action: Record<string, any>, path?: string[]} | null} hint
 * @param {number | null} seat
 * @returns {void}
 */
export function showTargets(hint, seat) {
  markOnly("hint-target", hint ? hintTargets(hint, seat) : []);
  const g = hint && document.querySelector("#board") ? hint.view?.game : null;
  const start = !g ? null : hint.action.type === "choose_meeple"
    ? g.players[seat]?.meeples[hint.action.meeple] ?? null
    : g.move?.meeple !== null && g.move?.path.length ? g.move.path[g.move.path.length - 1] : null;
  const walked = g && g.move?.meeple !== null && g.move?.path.length ? g.move.path.slice(1) : [];
  drawHintPath(hint, start, walked);
}

/**
 * @param {import("../core/types.js").View} v
 * @returns {boolean} End turn is the only legal action (R-TURN): nothing to think about
 */
export function onlyEndTurn(v) {
  const legal = v.game?.legal || [];
  return legal.length === 1 && legal[0].type === "end_turn";
}

/**
 * The table's hint button, line and outline.
 * @param {{send: (frame: object) => boolean, refusal: (code: string) => string}} deps
 */
export function createHint(deps) {
  const button = h("button", { type: "button", class: "btn hint-btn", hidden: true });
  const line = h("p", { id: "hint-line", class: "hint-line", role: "status", "aria-live": "polite", hidden: true });
  const chip = h("span", { id: "hints-chip", class: "chip hints-chip", hidden: true });
  document.getElementById("undo-btn").before(button);
  document.getElementById("prompt").after(line);
  document.getElementById("deck-count").after(chip);
  let asked = null; // the id of the request in flight
  let shown = null; // the hint shown: {action, path, why}
  let count = 0;
  let view = null;

  button.addEventListener("click", () => {
    if (asked !== null) return;
    asked = `h${++count}`;
    if (!deps.send({ type: "hint", id: asked })) asked = null;
    draw();
  });

  const allowed = (v) => Boolean(v && v.room.options.hints);
  const canAsk = (v) => allowed(v) && v.game !== null && v.you.seat !== null
    && v.room.status === "playing" && v.game.current === v.you.seat
    && v.game.phase !== rulesData().phase_over && (v.game.legal || []).length > 0;
  // A walk being followed stays shown until it is done: while the game is in the move
  // phase and the steps walked since the hint (as the table shows them: a step the server
  // refused is not walked) are the hint's first ones, the rest is drawn, numbered on.
  function followed(v) {
    if (!shown || !shown.walk.length) return shown && { ...shown, path: [], first: 0 };
    const g = v.game;
    if (!g || g.phase !== "move" || g.current !== v.you.seat) return null;
    const chosen = g.move.meeple;
    if (shown.action.type === "choose_meeple" && chosen !== null && chosen !== shown.action.meeple) return null;
    const k = chosen === null ? 0 : g.move.steps - shown.base;
    if (k < 0 || k >= shown.walk.length) return null;
    const walked = k ? g.move.path.slice(-k) : [];
    if (walked.some((cell, i) => cell !== shown.walk[i])) return null;
    const action = chosen === null ? shown.action : { type: "step", cell: shown.walk[k] };
    return { ...shown, action, path: shown.walk.slice(k), first: k };
  }

  function draw() {
    if (!view) return;
    chip.hidden = !allowed(view) || view.game === null;
    text(chip, t("hint.allowed"));
    const only = canAsk(view) && onlyEndTurn(view);
    button.disabled = asked !== null;
    button.setAttribute("aria-busy", String(asked !== null));
    text(button, asked !== null ? t("hint.thinking") : t("hint.ask"));
    button.setAttribute("aria-label", asked !== null ? t("hint.thinking") : t("hint.askLabel"));
    if (shown && !canAsk(view)) shown = null;
    const now = followed(view);
    if (!now) shown = null;
    // While its hint is shown the button rests (asking again would say the same), which
    // also leaves a phone's bar one row lower.
    button.hidden = !canAsk(view) || only || Boolean(now);
    line.hidden = !shown && !only;
    text(line, now ? `${t("hint.title")}: ${whyLine(now.why, now.walk)}`
      : only ? t("hint.onlyEndTurn") : "");
    toggle(line, "hint-only", !shown && only);
    showTargets(now && { ...now, view }, view.you.seat);
  }

  return {
    /** After each draw of the table: the button, the line and the outline as they stand. */
    update(v) { view = v; draw(); },
    /** The answer to our request. */
    receive(frame) {
      if (frame.id !== asked) return;
      asked = null;
      const move = view?.game?.move;
      shown = { action: frame.action, walk: frame.path || [], why: frame.why,
        base: move && move.meeple !== null ? move.steps : 0 };
      draw();
    },
    /** An error frame: true if it answered our request (said, and the button freed). */
    error(frame) {
      if (frame.id === null || frame.id !== asked) return false;
      asked = null;
      shown = null;
      draw();
      line.hidden = false;
      text(line, deps.refusal(frame.code));
      return true;
    },
    /**
     * The player acts: the next step of a walk being followed keeps the hint (the next view
     * numbers on from the steps the server took; a refused step changes nothing), any other
     * action spends it.
     * @param {Record<string, any>} action
     */
    acted(action) {
      const now = view && followed(view);
      if (now && now.walk.length && ((action.type === "choose_meeple" && now.action.type === "choose_meeple"
        && action.meeple === now.action.meeple) || (action.type === "step" && action.cell === now.path[0]))) return;
      this.clear();
    },
    /** The game moved on: the hint is spent. */
    clear() {
      if (!shown && line.hidden) return;
      shown = null;
      line.hidden = true;
      draw();
    },
  };
}
