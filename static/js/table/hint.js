// Hints for learning players (server/bots/hint.py): a "Hint" button for the seated player
// whose turn it is, in rooms that allow hints; the answer's move is outlined on the table
// (the meeple and the path's cells, the cup, the order, the tile or the button) with one line of why, until
// the player acts. The why comes as a sentence key and its parameters, said here in the
// reader's language; the replay says the hints given the same way (hintLine).
import { h, text } from "../core/dom.js";
import { ing, t, tokens } from "../lang/i18n.js";
import { cellIngredient } from "./view-board.js";
import { rulesData } from "../core/rules-data.js";

// How a parameter of a why reads, by its name (the names server/bots/hint.py gives).
const ARGS = {
  cell: (v) => `${ing(cellIngredient(v))} (${String(v).toUpperCase()})`,
  gains: (v) => tokens(v),
  orders: (v) => (v || []).join(t("misc.and")),
  ingredient: (v) => ing(v),
  tile: (v) => t(`tile.${v}`),
};

/**
 * @param {{key: string, args: Record<string, unknown>}} why
 * @returns {string} the one line of why, in the current language
 */
export function whyLine(why) {
  const params = {};
  for (const [name, value] of Object.entries(why.args || {})) {
    params[name] = ARGS[name] ? ARGS[name](value) : value;
  }
  return t(why.key, params);
}

/**
 * A hint as the replay's log says it.
 * @param {{seat: number, why: {key: string, args: Record<string, unknown>}}} item
 * @param {(seat: number) => string} nameOf
 * @returns {string}
 */
export function hintLine(item, nameOf) {
  return t("hint.given", { name: nameOf(item.seat), why: whyLine(item.why) });
}

/**
 * The elements a hint points at on a table drawn for `seat`.
 * @param {{action: Record<string, any>, path?: string[]}} hint
 * @param {number | null} seat
 * @returns {Element[]}
 */
export function hintTargets(hint, seat) {
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

/**
 * Outline `hint`'s targets (and only them).
 * @param {{action: Record<string, any>, path?: string[]} | null} hint
 * @param {number | null} seat
 * @returns {void}
 */
export function showTargets(hint, seat) {
  const targets = hint ? hintTargets(hint, seat) : [];
  for (const el of document.querySelectorAll(".hint-target")) {
    if (!targets.includes(el)) el.classList.remove("hint-target");
  }
  for (const el of targets) el.classList.add("hint-target");
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

  function draw() {
    if (!view) return;
    chip.hidden = !allowed(view) || view.game === null;
    text(chip, t("hint.allowed"));
    button.hidden = !canAsk(view);
    button.disabled = asked !== null;
    button.setAttribute("aria-busy", String(asked !== null));
    text(button, asked !== null ? t("hint.thinking") : t("hint.ask"));
    button.setAttribute("aria-label", asked !== null ? t("hint.thinking") : t("hint.askLabel"));
    if (shown && !canAsk(view)) shown = null;
    line.hidden = !shown;
    text(line, shown ? `${t("hint.title")}: ${whyLine(shown.why)}` : "");
    showTargets(shown, view.you.seat);
  }

  return {
    /** After each draw of the table: the button, the line and the outline as they stand. */
    update(v) { view = v; draw(); },
    /** The answer to our request. */
    receive(frame) {
      if (frame.id !== asked) return;
      asked = null;
      shown = { action: frame.action, path: frame.path, why: frame.why };
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
    /** The player acted (or the game moved on): the hint is spent. */
    clear() {
      if (!shown && line.hidden) return;
      shown = null;
      line.hidden = true;
      draw();
    },
  };
}
