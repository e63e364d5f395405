// "What happened": the events of the game with the version that carried them, newest on top.
// Live patches add to it; after a snapshot (a reload, a late arrival, a long gap) the
// room's recent events fill in what came before. Re-rendered whole, so a language change
// retells every line.
import { logLine } from "./log.js";

const KEEP = 120;

export class LogList {
  /** @param {HTMLElement} list */
  constructor(list) {
    this.list = list;
    /** @type {{v: number, event: import("./types.js").GameEvent}[]} oldest first */
    this.entries = [];
  }

  /** @param {number} v @param {import("./types.js").GameEvent[]} events @returns {void} */
  add(v, events) {
    for (const event of events) this.entries.push({ v, event });
    this.entries.splice(0, Math.max(0, this.entries.length - KEEP));
  }

  // Earlier events from GET /api/rooms/{code}/events: versions already shown are skipped.
  /** @param {{v: number, event: import("./types.js").GameEvent}[]} recent @returns {void} */
  fill(recent) {
    const known = new Set(this.entries.map((e) => e.v));
    const earlier = recent.filter((e) => !known.has(e.v));
    this.entries = [...earlier, ...this.entries].sort((a, b) => a.v - b.v).slice(-KEEP);
  }

  /** @param {import("./types.js").NameOf} nameOf @returns {void} */
  render(nameOf) {
    const items = [];
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const item = logLine(this.entries[i].event, nameOf);
      if (item) items.push(item);
    }
    this.list.replaceChildren(...items);
  }
}
