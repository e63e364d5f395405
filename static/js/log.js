// Structured events as sentences, through i18n. The server sends data, never prose.
import { ing, t, tokens } from "./i18n.js";
import { cellIngredient } from "./view-board.js";
import { h } from "./dom.js";
import { badge } from "./names.js";
import { clockName } from "./clock.js";
import { reportUnknown } from "./rules-data.js";

function cellName(cell) {
  return `${ing(cellIngredient(cell))} (${cell.toUpperCase()})`;
}

// Returns a sentence, or null for events not worth a line.
/**
 * @param {import("./types.js").GameEvent} ev
 * @param {import("./types.js").NameOf} nameOf
 * @returns {string | null | undefined} a sentence, or nothing for events not worth a line
 */
export function sentence(ev, nameOf) {
  const name = ev.seat !== undefined && ev.seat !== null ? nameOf(ev.seat) : "";
  switch (ev.type) {
    case "placed": return t("ev.placed", { name, cell: cellName(ev.cell) });
    case "starting_token": return t("ev.starting_token", { name, count: ev.count, ing: ing(ev.ingredient), cup: ev.cup + 1 });
    // A round is every player's turn once: turns 1-3 are round 1 with three players.
    case "turn_started": return t("ev.turn_started", { name, turn: ev.turn, round: Math.ceil(ev.turn / nameOf.seatCount) });
    case "upgraded": return t("ev.upgraded", { name, tile: t(`tile.${ev.tile}`) });
    case "upgrade_skipped": return t("ev.upgrade_skipped", { name });
    case "meeple_chosen": return t("ev.meeple_chosen", { name, n: ev.meeple + 1 });
    case "moved": return t(ev.rush_spent ? "ev.movedRush" : "ev.moved", { name, cell: cellName(ev.to), gain: tokens(ev.gained) });
    case "stopped": return t("ev.stopped", { name, cell: cellName(ev.cell), steps: ev.steps });
    case "poured": return t("ev.poured", { name, ing: ing(ev.ingredient), cup: ev.cup + 1 });
    case "returned": return t("ev.returned", { name, ing: ing(ev.ingredient) });
    case "emptied": return t("ev.emptied", { name, cup: ev.cup + 1 });
    case "pouring_done": return t("ev.pouring_done", { name });
    case "served": return t(ev.rush_gained ? "ev.servedRush" : "ev.served", { name, card: ev.card.name, cup: ev.cup + 1 });
    case "orders_dealt":
      if (ev.reason === "too_many_orders") return t("ev.orders_dealt_busy", { name, count: ev.cards.length, from: nameOf(ev.from) });
      return t("ev.orders_dealt", { name, count: ev.cards.length });
    case "time_flowed":
      if (ev.penalties.length) return t("ev.time_flowed_pen", { name, count: ev.penalties.length, rush: ev.rush_gained });
      return t("ev.time_flowed", { name });
    case "closed": return t(`ev.closed.${ev.reason}`);
    case "turn_ended": return t("ev.turn_ended", { name });
    case "game_over": {
      const winners = (ev.result.winners || []).map(nameOf).join(t("end.and"));
      return t("ev.game_over", { winners });
    }
    case "undone": return t("ev.undone", { name });
    case "seat_joined": return t("ev.joined", { name: ev.name || name });
    case "seat_left": return t("ev.left", { name: t("lobby.starting.seat", { n: ev.seat + 1 }) });
    case "seat_kicked": return t("ev.kicked", { n: ev.seat + 1 });
    case "host_changed": return t("ev.host_changed", { name });
    case "bot_added": return t("ev.bot_added", { n: ev.seat + 1, name });
    case "presence": return t(ev.connected ? "ev.connected" : "ev.disconnected", { name });
    case "stand_in": return t("ev.stand_in", { name, level: t(`bot.${ev.level}`) });
    case "started": case "game_started": return t("ev.started");
    case "timeout": return t(ev.away ? "ev.timeoutAway" : "ev.timeout", { name });
    case "back": return t("ev.back", { name });
    case "clock_set": return t("ev.clock_set", { clock: clockName(ev.clock) });
    case "spectators": case "rematch": return null; // shown elsewhere, not as a line
    default:
      reportUnknown("event", ev.type);
      return null;
  }
}

// A log line: the badge of the seat it is about (if any), then the sentence.
/**
 * @param {import("./types.js").GameEvent} ev
 * @param {import("./types.js").NameOf} nameOf
 * @returns {HTMLElement | null}
 */
export function logLine(ev, nameOf) {
  const line = sentence(ev, nameOf);
  if (!line) return null;
  const seat = ev.seat !== undefined && ev.seat !== null ? ev.seat : null;
  return h("li", { class: `ev ev-${ev.type}`, dataset: { seat: seat ?? "" } },
    ...(seat === null ? [] : [badge(seat), " "]), h("span", { class: "ev-text", text: line }));
}

// Events that make a good spoken announcement (the rest only go to the visible log).
export const ANNOUNCE = new Set(["turn_started", "served", "closed", "game_over", "upgraded", "stopped", "time_flowed", "timeout"]);
