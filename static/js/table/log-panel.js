// The table's log panel: events as they arrive, what happened before a snapshot, spoken
// lines for screen readers, and a seated player's "only my moves" filter.
import { call } from "../core/api.js";
import { h, text } from "../core/dom.js";
import { t } from "../lang/i18n.js";
import { announced, sentence } from "./log.js";
import { LogList } from "./log-list.js";
import { nameOfFactory } from "./view.js";

const $ = (id) => document.getElementById(id);

/**
 * @param {{code: string, view: () => import("../core/types.js").View, announce: (message: string) => void}} deps
 */
export function createLogPanel({ code, view, announce }) {
  const log = new LogList($("log-list"));
  // "Only my moves": a seated player's filter of the log.
  const mineOnly = h("button", { type: "button", class: "btn small log-mine", "aria-pressed": "false" });
  $("log").querySelector("h2").after(mineOnly);
  mineOnly.addEventListener("click", () => {
    const on = mineOnly.getAttribute("aria-pressed") !== "true";
    mineOnly.setAttribute("aria-pressed", String(on));
    log.showOnly(on ? view().you.seat : null, nameOfFactory(view()));
  });

  return {
    // A patch's events: logged, and the last ones spoken.
    add(v, events) {
      log.add(v, events);
      const nameOf = nameOfFactory(view());
      log.render(nameOf);
      const spoken = events.filter(announced).map((ev) => sentence(ev, nameOf)).filter(Boolean);
      if (spoken.length) announce(spoken.slice(-2).join(" "));
    },
    // After a snapshot: what happened before it (the snapshot itself carries no events).
    async fill(v) {
      try {
        const res = await call("GET", `/api/rooms/${code}/events?upto=${v}`);
        log.fill(res.events);
        log.render(nameOfFactory(view()));
      } catch {
        // The log is a courtesy; the table is complete without it.
      }
    },
    update(current) {
      mineOnly.hidden = current.you.seat === null;
      text(mineOnly, t("log.mine"));
    },
    // Every line again (another language).
    rerender() {
      log.render(nameOfFactory(view()), true);
    },
  };
}
