// The final scoreboard: a table with the breakdown and a small SVG bar chart of totals.
import { h, svg } from "./dom.js";
import { t } from "./i18n.js";
import { SEAT_LETTERS } from "./names.js";

/**
 * @param {HTMLElement} section
 * @param {import("./types.js").View} view
 * @param {import("./types.js").NameOf} nameOf
 * @param {(() => void) | null} onAgain
 * @returns {void}
 */
export function renderFinal(section, view, nameOf, onAgain) {
  const res = view.game && view.game.result;
  if (!res) {
    section.hidden = true;
    section.replaceChildren();
    delete section.dataset.sig;
    return;
  }
  // Rebuild only when something shown changes (names, language, rematch link).
  const sig = JSON.stringify([res, view.room.seats.map((s) => s.name), t("end.title"), view.room.rematch || null, view.you.seat]);
  section.hidden = false;
  if (section.dataset.sig === sig) return;
  section.dataset.sig = sig;

  const head = h("tr", {}, ...["end.place", "end.player", "end.orders", "end.upgrades", "end.penalties", "end.total", "end.rush"]
    .map((k) => h("th", { scope: "col", text: t(k) })));
  const rows = res.ranking.map((seat) => {
    const s = res.scores[seat];
    const win = res.winners.includes(seat);
    return h("tr", { class: win ? "winner" : "" },
      h("td", { text: String(res.places[seat]) }),
      h("th", { scope: "row" }, h("span", { class: `badge seat-${seat}`, "aria-hidden": "true" }, SEAT_LETTERS[seat]), " ", nameOf(seat),
        win ? h("span", { class: "win-tag", text: ` ★ ${t("end.winner")}` }) : null),
      h("td", { text: `+${s.orders}` }),
      h("td", { text: `+${s.upgrades}` }),
      h("td", { text: String(s.penalties) }),
      h("td", { class: "total", text: String(s.total) }),
      h("td", { text: String(s.rush) }));
  });
  const table = h("table", { class: "scores" }, h("caption", { text: t(`end.reason.${res.reason}`) }),
    h("thead", {}, head), h("tbody", {}, ...rows));

  const actions = h("div", { class: "end-actions" });
  if (view.room.rematch && view.you.seat !== null) {
    // Your seat is kept at the next table: this button fetches your new seat token.
    actions.append(h("button", { type: "button", class: "btn primary", text: t("end.rematchSeat", { code: view.room.rematch }), onclick: onAgain }));
  } else if (view.room.rematch) {
    actions.append(h("a", { class: "btn primary", href: `/r/${view.room.rematch}`, text: t("end.rematch", { code: view.room.rematch }) }));
  } else if (view.you.seat !== null) {
    actions.append(h("button", { type: "button", class: "btn primary", text: t("end.again"), onclick: onAgain }));
  }
  const winners = res.winners.map(nameOf);
  const cheer = winners.length === 1 ? t("end.celebrate", { name: winners[0] })
    : t("end.celebrateTie", { names: winners.join(t("end.and")) });
  section.replaceChildren(
    h("h2", { text: t("end.title") }),
    h("p", { class: "celebrate", role: "status" },
      ...res.winners.map((seat) => h("span", { class: `badge seat-${seat}`, "aria-hidden": "true" }, SEAT_LETTERS[seat])),
      h("span", { class: "celebrate-text", text: ` ${cheer}` })),
    h("div", { class: "table-wrap" }, table),
    chart(res, nameOf),
    actions,
    h("p", { class: "seed", text: t("end.seed", { seed: res.seed }) }),
  );
}

function chart(res, nameOf) {
  const seats = res.ranking;
  const rowH = 34;
  const width = 320;
  const left = 96;
  const totals = seats.map((s) => res.scores[s]);
  const max = Math.max(1, ...totals.map((s) => s.orders + s.upgrades));
  const minNeg = Math.min(0, ...totals.map((s) => s.penalties));
  const span = max - minNeg;
  const scale = (width - left - 40) / span;
  const zero = left + -minNeg * scale;
  const el = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${seats.length * rowH + 8}`, role: "img", "aria-label": t("end.chart") });
  const title = svg("title");
  title.textContent = t("end.chart");
  el.append(title);
  seats.forEach((seat, i) => {
    const s = res.scores[seat];
    const y = 6 + i * rowH;
    const label = svg("text", { x: left - 8, y: y + 18, "text-anchor": "end", class: "chart-name" });
    label.textContent = nameOf(seat).slice(0, 12);
    el.append(label);
    el.append(svg("rect", { x: zero, y, width: s.orders * scale, height: 24, class: "bar-orders" }));
    el.append(svg("rect", { x: zero + s.orders * scale, y, width: s.upgrades * scale, height: 24, class: "bar-upgrades" }));
    el.append(svg("rect", { x: zero + s.penalties * scale, y, width: -s.penalties * scale, height: 24, class: "bar-penalties" }));
    const total = svg("text", { x: zero + (s.orders + s.upgrades) * scale + 6, y: y + 18, class: "chart-total" });
    total.textContent = String(s.total);
    el.append(total);
  });
  el.append(svg("line", { x1: zero, x2: zero, y1: 0, y2: seats.length * rowH + 8, class: "chart-axis" }));
  return h("figure", { class: "chart-fig" }, el,
    h("figcaption", {},
      h("span", { class: "key key-orders", text: t("end.orders") }),
      h("span", { class: "key key-upgrades", text: t("end.upgrades") }),
      h("span", { class: "key key-penalties", text: t("end.penalties") })));
}
