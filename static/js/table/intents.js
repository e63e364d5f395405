// What the viewer may do now, read from the server-sent legal actions and the local selection
// (a hand token picked for pouring, a cup picked for serving). No rule is derived here:
// every control maps to one action the server listed.
import { reportUnknown, rulesData } from "../core/rules-data.js";

// Action type -> its control kind, from the rules data (read on first use).
let controls = null;
function controlOf(type) {
  controls ??= new Map(rulesData().actions.map((a) => [a.type, a.control]));
  return controls.get(type);
}

/** @returns {import("../core/types.js").Selection} */
export function emptySelection() {
  return { ing: null, cup: null };
}

// The server lists legal actions only for the seat to act, and none once the game is over.
/**
 * @param {import("../core/types.js").View} view
 * @returns {boolean}
 */
export function isMyTurn(view) {
  const g = view.game;
  return Boolean(g && view.you.seat !== null && g.current === view.you.seat && (g.legal || []).length
    && !standingIn(view));
}

// A bot plays this viewer's seat now (its turn timed out, or the player was away): the
// player's own clicks would be refused, so none are offered.
/** @param {import("../core/types.js").View} view @returns {boolean} */
export function standingIn(view) {
  const seat = view.you.seat;
  return seat !== null && Boolean(view.room && view.room.seats && view.room.seats[seat]
    && view.room.seats[seat].stand_in);
}

// Drop a selection that no longer fits the legal actions.
/**
 * @param {import("../core/types.js").View} view
 * @param {import("../core/types.js").Selection} sel
 * @returns {import("../core/types.js").Selection}
 */
export function normalize(view, sel) {
  const legal = (view.game && isMyTurn(view)) ? view.game.legal : [];
  const next = { ...sel };
  if (next.ing && !legal.some((a) => (a.type === "pour" || a.type === "return") && a.ingredient === next.ing)) next.ing = null;
  if (next.cup !== null && !legal.some((a) => a.type === "serve" && a.cup === next.cup)) next.cup = null;
  // One kind of token in hand: pick it for the player.
  if (!next.ing) {
    const kinds = [...new Set(legal.filter((a) => a.type === "return").map((a) => a.ingredient))];
    if (kinds.length === 1) next.ing = kinds[0];
  }
  return next;
}

/**
 * @typedef {import("../core/types.js").Action} Action
 * @param {import("../core/types.js").View} view
 * @param {import("../core/types.js").Selection} sel
 * @returns {{mine: boolean, cells: Map<string, {action: Action, kind: string}>,
 *   buttons: {id: string, key: string, primary: boolean, action: Action}[],
 *   tiles: Map<string, Action>,
 *   hand: Map<string, boolean>, cups: Map<number, {action?: Action, select?: boolean}>,
 *   empties: Map<number, Action>, cards: Map<number, Action>, serveCups: Set<number>,
 *   returnAction: Action | null, undo: boolean, prompt: [string, Record<string, unknown>]}}
 */
export function intents(view, sel) {
  const g = view.game;
  const out = {
    mine: isMyTurn(view),
    cells: new Map(), // cell -> {action, kind}
    buttons: [], // [{id, key, action}]
    tiles: new Map(), // tile -> action
    hand: new Map(), // ingredient -> selectable
    cups: new Map(), // cup index -> {action} | {select: true}
    empties: new Map(), // cup -> action
    cards: new Map(), // card id -> action (for the selected cup)
    serveCups: new Set(),
    returnAction: null,
    undo: Boolean(g && g.can_undo) && !standingIn(view), // a bot plays the turn: nothing to take back
    prompt: ["prompt.waiting", {}],
  };
  if (!g) return out;
  if (!out.mine) return out;
  const legal = g.legal || [];
  for (const a of legal) {
    // Each action type is offered by its control kind (server/rules/registry.py CONTROLS).
    switch (controlOf(a.type)) {
      case "cell":
        out.cells.set(a.cell, { action: a, kind: a.type });
        break;
      case "meeple":
        out.cells.set(g.players[g.current].meeples[a.meeple], { action: a, kind: "choose" });
        break;
      case "cup":
        out.cups.set(a.cup, { action: a });
        break;
      case "tile":
        out.tiles.set(a.tile, a);
        break;
      case "button":
      case "finish":
        out.buttons.push({ id: a.type, key: `btn.${a.type}`, primary: controlOf(a.type) === "finish", action: a });
        break;
      case "pour":
        out.hand.set(a.ingredient, true);
        if (a.ingredient === sel.ing) out.cups.set(a.cup, { action: a });
        break;
      case "return":
        out.hand.set(a.ingredient, true);
        if (a.ingredient === sel.ing) out.returnAction = a;
        break;
      case "empty":
        out.empties.set(a.cup, a);
        break;
      case "serve":
        out.serveCups.add(a.cup);
        if (sel.cup === a.cup && !out.cards.has(a.card)) out.cards.set(a.card, a);
        break;
      case "can_undo": // offered through can_undo, never listed
        break;
      default:
        reportUnknown("action", a.type);
    }
  }
  for (const k of out.serveCups) out.cups.set(k, { select: true });
  out.prompt = promptFor(g, sel, out, legal);
  return out;
}

function promptFor(g, sel, out, legal) {
  const me = g.players[g.current];
  switch (g.phase) {
    case "move":
      if (legal.some((a) => a.type === "choose_meeple")) return ["prompt.choose_meeple", {}];
      if (g.move.free_steps_left === 0) return ["prompt.moveRush", { rush: me.rush }];
      return ["prompt.move", { free: g.move.free_steps_left, rush: me.rush }];
    case "pour":
      if (out.hand.size === 0) return ["prompt.pourDone", {}];
      if (sel.ing) return ["prompt.pourTarget", { ingKey: sel.ing }];
      return ["prompt.pourPick", {}];
    case "process":
      if (sel.cup !== null) return ["prompt.processCup", { n: sel.cup + 1 }];
      if (out.serveCups.size === 0) return ["prompt.processNone", {}];
      return ["prompt.process", {}];
    default: return [`prompt.${g.phase}`, {}]; // placement, starting_cup, upgrade, over
  }
}
