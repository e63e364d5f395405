// "What happened": the events of the game with the version that carried them, newest on top.
// Live patches add to it; after a snapshot (a reload, a late arrival, a long gap) the
// room's whole game log fills in what came before, back to the first turn. New lines are
// put on top as they come; a fill or a language change retells every line. Presence noise
// is folded: in a run of presence events (nothing else happened between them), each player
// keeps one line, their latest ("went offline", "is back") instead of every flap. A player
// may show only their own lines (and those about nobody in particular).
import { logLine } from "./log.js";

// Lines kept: more than a whole four-player game's events.
const KEEP = 3000;

export class LogList {
  /** @param {HTMLElement} list */
  constructor(list) {
    this.list = list;
    /** @type {{v: number, event: import("../core/types.js").Event}[]} oldest first */
    this.entries = [];
    this.drawn = 0; // entries already drawn, oldest first (-1: draw them all again)
    /** @type {number | null} show only this seat's lines (and those about no seat) */
    this.only = null;
  }

  /** @param {number | null} seat @param {import("../core/types.js").NameOf} nameOf @returns {void} */
  showOnly(seat, nameOf) {
    this.only = seat;
    this.render(nameOf, true);
  }

  /** @param {number} v @param {import("../core/types.js").Event[]} events @returns {void} */
  add(v, events) {
    const last = this.entries[this.entries.length - 1];
    // A presence event may fold a line already drawn: the lines are told again.
    if (last && isPresence(last.event) && events.some(isPresence)) this.drawn = -1;
    for (const event of events) this.entries.push({ v, event });
    if (this.entries.length > KEEP) {
      this.entries.splice(0, this.entries.length - KEEP);
      this.drawn = -1;
    }
  }

  // The game's log from GET /api/rooms/{code}/events: versions already shown are skipped.
  /** @param {{v: number, event: import("../core/types.js").Event}[]} earlier @returns {void} */
  fill(earlier) {
    const known = new Set(this.entries.map((e) => e.v));
    const missing = earlier.filter((e) => !known.has(e.v));
    this.entries = [...missing, ...this.entries].sort((a, b) => a.v - b.v).slice(-KEEP);
    this.drawn = -1;
  }

  /** @param {import("../core/types.js").NameOf} nameOf @param {boolean} [all] retell every line @returns {void} */
  render(nameOf, all = false) {
    const lines = (from) => {
      const items = [];
      const run = new Set(); // seats with a newer line in the presence run being read
      for (let i = this.entries.length - 1; i >= from; i--) {
        const event = this.entries[i].event;
        if (!isPresence(event)) run.clear();
        else if (run.has(event.seat)) continue;
        else run.add(event.seat);
        if (this.only !== null && event.seat != null && event.seat !== this.only) continue;
        const item = logLine(event, nameOf);
        if (item) items.push(item);
      }
      return items;
    };
    if (all || this.drawn < 0) {
      this.list.replaceChildren(...lines(0));
    } else {
      this.list.prepend(...lines(this.drawn));
    }
    this.drawn = this.entries.length;
  }
}

/** @param {import("../core/types.js").Event} event @returns {boolean} */
function isPresence(event) {
  return event.type === "presence";
}
