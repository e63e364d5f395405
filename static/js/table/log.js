// Structured events as sentences, through i18n. The server sends data, never prose.
import { ing, orderName, t, tokens } from "../lang/i18n.js";
import { cellWords } from "./cell-words.js";
import { h } from "../core/dom.js";
import { badge } from "../core/names.js";
import { clockName } from "./clock.js";
import { reportUnknown, rulesData } from "../core/rules-data.js";

// How a field's value reads in a sentence, by the kind the server's event registry gives
// it (server/rooms/events.py KINDS).
const FORMATS = {
  seat: (v, nameOf) => nameOf(v),
  seat_label: (v) => t("lobby.starting.seat", { n: v + 1 }),
  seats: (v, nameOf) => (v || []).map(nameOf).join(t("end.and")),
  number: (v) => v,
  ordinal: (v) => v + 1,
  length: (v) => (v || []).length,
  cell: (v) => cellWords(v),
  ingredient: (v) => ing(v),
  tokens: (v) => tokens(v),
  card: (v) => orderName(v.name),
  tile: (v) => t(`tile.${v}`),
  level: (v) => t(`bot.${v}`),
  clock: (v) => clockName(v),
  // A round is every player's turn once: turns 1-3 are round 1 with three players.
  round: (v, nameOf) => Math.ceil(v / nameOf.seatCount),
  text: (v) => v,
};

// The event types by name, from the rules data (read once, on the first event).
let registry = null;
function eventType(type) {
  registry ??= new Map(rulesData().events.map((e) => [e.type, e]));
  return registry.get(type);
}

function field(ev, path) {
  return path.split(".").reduce((value, key) => (value == null ? value : value[key]), ev);
}

// A field counts as there when it is true, non-zero, a non-empty list or (for `equals`)
// that value.
function applies(ev, variant) {
  const value = ev[variant.field];
  if (variant.equals !== null) return value === variant.equals;
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

/**
 * @param {import("../core/types.js").Event} ev
 * @param {import("../core/types.js").NameOf} nameOf
 * @returns {string | null | undefined} a sentence, or nothing for events not worth a line
 */
export function sentence(ev, nameOf) {
  const type = eventType(ev.type);
  if (!type) {
    reportUnknown("event", ev.type);
    return null;
  }
  if (type.sentence === null) return null;
  const key = type.by ? `${type.sentence}.${ev[type.by]}`
    : (type.variants.find((v) => applies(ev, v))?.sentence ?? type.sentence);
  const params = {};
  for (const [name, [path, kind]] of Object.entries(type.args)) {
    params[name] = FORMATS[kind](field(ev, path), nameOf);
  }
  return t(key, params);
}

/**
 * What a bot did for you, said to you: the event's own sentence key with "did." for "ev."
 * ("ev.served" -> "did.served": "served {card}"), from the same registry arguments. Events
 * with no such sentence (each step of a walk: its stop says the walk) say nothing.
 * @param {import("../core/types.js").Event} ev
 * @param {import("../core/types.js").NameOf} nameOf
 * @returns {string | null}
 */
export function youSentence(ev, nameOf) {
  const type = eventType(ev.type);
  if (!type || type.sentence === null) return null;
  const key = (type.by ? `${type.sentence}.${ev[type.by]}`
    : (type.variants.find((v) => applies(ev, v))?.sentence ?? type.sentence)).replace(/^ev\./, "did.");
  const params = {};
  for (const [name, [path, kind]] of Object.entries(type.args)) {
    params[name] = FORMATS[kind](field(ev, path), nameOf);
  }
  const said = t(key, params);
  return said === key ? null : said;
}

// A log line: the badge of the seat it is about (if any), then the sentence.
/**
 * @param {import("../core/types.js").Event} ev
 * @param {import("../core/types.js").NameOf} nameOf
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
export function announced(ev) {
  return Boolean(eventType(ev.type)?.announce);
}
