// The final scoreboard: a table with the breakdown, why tied players are placed as they
// are, a bar chart of totals, and the ways on: the replay, the next game.
import { call } from "../core/api.js";
import { h } from "../core/dom.js";
import { t } from "../lang/i18n.js";
import { SEAT_LETTERS } from "../core/names.js";

/**
 * @param {HTMLElement} section
 * @param {import("../core/types.js").View} view
 * @param {import("../core/types.js").NameOf} nameOf
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
  if (!document.body.classList.contains("page-replay")) {
    actions.append(h("a", { class: "btn replay-link", href: `/r/${view.room.code}/replay`, text: t("end.replay") }));
  }
  const winners = res.winners.map(nameOf);
  const cheer = winners.length === 1 ? t("end.celebrate", { name: winners[0] })
    : t("end.celebrateTie", { names: winners.join(t("end.and")) });
  section.replaceChildren(
    h("h2", { text: t("end.title") }),
    // The way on (another game, the replay) beside the winner, not under the fold.
    h("div", { class: "end-head" },
      h("p", { class: "celebrate", role: "status" },
        ...res.winners.map((seat) => h("span", { class: `badge seat-${seat}`, "aria-hidden": "true" }, SEAT_LETTERS[seat])),
        h("span", { class: "celebrate-text", text: ` ${cheer}` })),
      actions),
    h("div", { class: "table-wrap" }, table),
    ...tieNotes(res, nameOf).map((note) => h("p", { class: "tie-note", text: note })),
    chart(res, nameOf),
    ratingChanges(view, nameOf),
    // The seed is a detail of the replay (which can be exported and replayed), not news for
    // the players at the final screen.
    ...(document.body.classList.contains("page-replay")
      ? [h("p", { class: "seed", text: t("end.seed", { seed: res.seed }) })] : []),
  );
}

// How the game moved the signed-in players' ratings, asked of the server once per room
// (the game is stored a moment after its end: a few tries).
/** @type {Map<string, Promise<{players: {seat: number, before: number, after: number, change: number}[]}>>} */
const moved = new Map();

/**
 * @param {import("../core/types.js").View} view
 * @param {import("../core/types.js").NameOf} nameOf
 * @returns {HTMLElement}
 */
function ratingChanges(view, nameOf) {
  const line = h("p", { class: "rating-changes", hidden: true });
  const rated = view.room.options.rated !== false && view.room.seats.some((s) => s.verified);
  if (!rated || document.body.classList.contains("page-replay")) return line;
  const code = view.room.code;
  if (!moved.has(code)) moved.set(code, askRatings(code));
  moved.get(code).then((found) => {
    if (!found.players.length) return;
    line.replaceChildren(h("span", { class: "rating-title", text: t("end.ratings") }), " ",
      ...found.players.flatMap((p, i) => [i ? " · " : "", h("span", { class: "rating-change" },
        `${nameOf(p.seat)} ${p.before} → ${p.after} `,
        h("strong", { class: p.change >= 0 ? "up" : "down", text: p.change >= 0 ? `+${p.change}` : `−${-p.change}` }))]));
    line.hidden = false;
  }, () => {});
  return line;
}

async function askRatings(code, tries = 5) {
  for (let i = 0; ; i++) {
    try {
      return await call("GET", `/api/rooms/${code}/ratings`);
    } catch (err) {
      if (err.status !== 404 || i + 1 >= tries) throw err;
      await new Promise((done) => setTimeout(done, 1000));
    }
  }
}

/**
 * Why tied players are placed as they are (R-SCORE: points, then completed orders, then
 * Rush Tokens): one sentence per group of players on the same points.
 * @param {import("../core/types.js").FinalResult} res
 * @param {(seat: number) => string} nameOf
 * @returns {string[]}
 */
export function tieNotes(res, nameOf) {
  const notes = [];
  for (const [points, seats] of tiedGroups(res.ranking, (s) => res.scores[s].total)) {
    const names = seats.map(nameOf).join(t("end.and"));
    const orders = seats.map((s) => res.scores[s].orders);
    const rush = seats.map((s) => res.scores[s].rush);
    if (new Set(orders).size > 1) {
      const details = seats.map((s) => t("end.ordersOf", { name: nameOf(s), n: res.scores[s].orders }));
      notes.push(t("end.tieByOrders", { names, n: points, details: details.join(", ") }));
      notes.push(...alsoTied(res, seats, nameOf));
    } else if (new Set(rush).size > 1) {
      notes.push(t("end.tieByRush", { names, n: points, orders: orders[0], details: rushDetails(res, seats, nameOf) }));
    } else {
      notes.push(t("end.tieShared", { names, n: points }));
    }
  }
  return notes;
}

// Within players tied on points and told apart by orders, those also tied on orders: how
// Rush Tokens place them (or that they share the place), so the whole tie-break is said.
function alsoTied(res, seats, nameOf) {
  const notes = [];
  for (const [orders, group] of tiedGroups(seats, (s) => res.scores[s].orders)) {
    const names = group.map(nameOf).join(t("end.and"));
    if (new Set(group.map((s) => res.scores[s].rush)).size > 1) {
      notes.push(t("end.alsoTiedRush", { names, n: orders, details: rushDetails(res, group, nameOf) }));
    } else {
      notes.push(t("end.alsoTiedShared", { names, n: orders }));
    }
  }
  return notes;
}

// The seats sharing a value of `key` with at least one other, by that value, in the order
// of `seats`.
function tiedGroups(seats, key) {
  const groups = new Map();
  for (const seat of seats) groups.set(key(seat), [...(groups.get(key(seat)) || []), seat]);
  return [...groups].filter(([, group]) => group.length > 1);
}

// "Ann has 2 Rush Tokens, Bo has 1 Rush Token": how Rush Tokens tell these seats apart.
function rushDetails(res, seats, nameOf) {
  return seats.map((s) => t("end.rushOf", { name: nameOf(s), n: res.scores[s].rush })).join(", ");
}

// Widths through the CSSOM: the page's CSP allows no inline style attribute.
function bar(cls, width, ...children) {
  const el = h("span", { class: cls }, ...children);
  el.style.width = width;
  return el;
}

/**
 * Points per player as bars, each under the player's full name (names wrap; never cut).
 * @param {import("../core/types.js").FinalResult} res
 * @param {(seat: number) => string} nameOf
 */
function chart(res, nameOf) {
  const totals = res.ranking.map((s) => res.scores[s]);
  const most = Math.max(1, ...totals.map((s) => s.orders + s.upgrades));
  const least = Math.min(0, ...totals.map((s) => s.penalties));
  const span = most - least;
  const pct = (n) => `${(100 * n) / span}%`;
  const rows = res.ranking.map((seat) => {
    const s = res.scores[seat];
    return h("li", { class: "chart-row" },
      h("span", { class: "chart-name" },
        h("span", { class: `badge seat-${seat}`, "aria-hidden": "true" }, SEAT_LETTERS[seat]), " ", nameOf(seat)),
      h("span", { class: "chart-bars", role: "img", "aria-label": t("end.chartRow", { name: nameOf(seat), total: s.total }) },
        bar("chart-neg", pct(-least), bar("bar-penalties", `${least ? (100 * s.penalties) / least : 0}%`)),
        bar("bar-orders", pct(s.orders)),
        bar("bar-upgrades", pct(s.upgrades)),
        h("span", { class: "chart-total", text: String(s.total) })));
  });
  return h("figure", { class: "chart-fig" },
    h("figcaption", { class: "chart-title", text: t("end.chart") }),
    h("ol", { class: "chart" }, ...rows),
    h("p", { class: "chart-keys" },
      h("span", { class: "key key-orders", text: t("end.orders") }),
      h("span", { class: "key key-upgrades", text: t("end.upgrades") }),
      h("span", { class: "key key-penalties", text: t("end.penalties") })));
}
