// The expert's review in the replay (server/bots/review.py, /api/games/{id}/review): a bar
// of the points lost at each turn, each player's summary with their three biggest mistakes
// as links to that turn, and, at a marked turn, the expert's plan outlined on the board
// (solid) beside the move played (dashed), with one line of why in the board's own words.
// The server made every figure; nothing is computed here but the drawing.
import "../lang/review.js";
import { h, markOnly } from "../core/dom.js";
import { call, tokens as seatTokens } from "../core/api.js";
import { ing, t, tokens } from "../lang/i18n.js";
import { cellIngredient } from "../table/view-board.js";

const POLL = 3000; // ms between looks while the review is being made
const EXPERT = "review-expert";
const PLAYED = "review-played";

// How a parameter of a why reads (the names server/bots/review.py gives): a cell by its
// ingredient, never its coordinates.
const ARGS = {
  cell: (v) => ing(cellIngredient(v)),
  gains: (v) => tokens(v),
  orders: (v) => (v || []).join(t("misc.and")),
  tile: (v) => t(`tile.${v}`),
};

/**
 * @param {{key: string, args: Record<string, unknown>}} why
 * @returns {string}
 */
function reviewWhy(why) {
  const params = {};
  for (const [name, value] of Object.entries(why.args || {})) {
    params[name] = ARGS[name] ? ARGS[name](value) : value;
  }
  return t(why.key, params);
}

const fixed = (x) => Number(x).toFixed(1);

/**
 * The elements of a plan's outline on the table: its meeple and path, cups, orders, tile.
 * @param {{meeple: number|null, path: string[], cups: number[], serve: number[], tile: string|null}} plan
 * @param {number} seat
 * @returns {Element[]}
 */
function targets(plan, seat) {
  const found = [];
  const add = (el) => { if (el) found.push(el); };
  const me = document.querySelector(`.pboard[data-seat="${seat}"]`);
  if (plan.meeple !== null && plan.meeple !== undefined) {
    add(document.querySelector(`#board .meeple[data-key="${seat}-${plan.meeple}"]`));
  }
  for (const cell of plan.path || []) add(document.querySelector(`#board [data-cell="${cell}"]`));
  if (me) {
    for (const cup of plan.cups || []) add(me.querySelector(`.cup[data-cup="${cup}"]`));
    for (const card of plan.serve || []) add(me.querySelector(`.card[data-card="${card}"]`));
    if (plan.tile) add(me.querySelector(`.tile[data-tile="${plan.tile}"]`));
  }
  return found;
}

/**
 * Mount the review panel.
 * @param {HTMLElement} panel where it is drawn
 * @param {{gameId: number, code: string, go: (step: number) => void}} opts
 * @returns {{draw: (step: number, nameOf: (seat: number) => string) => void}}
 */
export function mountReview(panel, { gameId, code, go }) {
  // The review reads beside the table: in the side column (wide: its own scrolling column;
  // narrow: after the board); the line of the marked turn under the step's prompt, where
  // the eye is when stepping.
  const side = document.getElementById("side");
  if (side) side.prepend(panel);
  const atLine = h("div", { id: "rv-at", class: "rv-at", "aria-live": "polite", hidden: true });
  const prompt = document.getElementById("prompt");
  if (prompt) prompt.after(atLine);
  let state = { state: "loading" };
  let refusal = null;
  let step = 0;
  let nameOf = (seat) => String(seat + 1);
  let polling = null;
  let focusedBar = null; // the bar that has the focus: kept across a redraw

  async function load() {
    try {
      state = await call("GET", `/api/games/${gameId}/review`);
    } catch {
      state = { state: "none" };
    }
    poll();
    render();
  }

  function poll() {
    const waiting = state.state === "queued" || state.state === "running";
    if (waiting && polling === null) polling = setTimeout(() => { polling = null; load(); }, POLL);
  }

  async function ask() {
    refusal = null;
    const token = seatTokens.seat(code);
    try {
      state = await call("POST", `/api/games/${gameId}/review`, token ? { token } : {});
    } catch (err) {
      const known = ["forbidden", "review_busy", "review_slow", "review_off"];
      refusal = known.includes(err.code) ? err.code : "other";
    }
    poll();
    render();
  }

  // Go to a turn; where the board is off screen (a phone: the review is below it), show it.
  function jump(at) {
    go(at);
    const board = document.getElementById("board");
    if (board && board.getBoundingClientRect().top < 0) board.scrollIntoView({ block: "start" });
    else if (board && board.getBoundingClientRect().bottom > innerHeight) atLine.scrollIntoView({ block: "nearest" });
  }

  function turnAt(review) {
    // The marked turn whose positions include this step (from its start to its last action).
    return review.turns.find((e) => e.grade && step >= e.at && step < e.end) || null;
  }

  // The bars are one stop of the Tab order (a toolbar): the current turn's bar (or the
  // first) takes the focus, the arrow keys, Home and End move along the turns, Enter or
  // Space jumps to the focused one. Each bar's name says whose turn, which, and the loss.
  function chart(review) {
    const most = Math.max(1, ...review.turns.map((e) => e.loss));
    const here = review.turns.findIndex((e) => step >= e.at && step < e.end);
    const current = focusedBar !== null && focusedBar < review.turns.length ? focusedBar : Math.max(0, here);
    const bars = review.turns.map((e, i) => {
      const name = `${nameOf(e.seat)}, ${t("review.turnLink", { turn: e.turn, loss: fixed(e.loss) })}`;
      const bar = h("button", {
        type: "button",
        class: `rv-bar seat-${e.seat}${e.grade ? ` rv-${e.grade}` : ""}`,
        "data-turn": String(i),
        title: name,
        "aria-label": e.grade ? `${name} (${t(`review.grade.${e.grade}`)})` : name,
        tabindex: i === current ? "0" : "-1",
      });
      bar.style.setProperty("--h", `${Math.max(2, Math.round((100 * e.loss) / most))}%`);
      if (i === here) {
        bar.classList.add("rv-here");
        bar.setAttribute("aria-current", "step");
      }
      bar.addEventListener("click", () => {
        focusedBar = document.activeElement === bar ? i : null;
        jump(e.at);
      });
      bar.addEventListener("focus", () => { focusedBar = i; });
      bar.addEventListener("blur", () => { if (focusedBar === i) focusedBar = null; });
      return bar;
    });
    const row = h("div", { class: "rv-bars", role: "toolbar", "aria-label": t("review.chartLabel") }, bars);
    row.addEventListener("keydown", (ev) => {
      const at = bars.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      if (at < 0) return;
      const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
        Home: 0, End: bars.length - 1 }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      ev.stopPropagation(); // the replay's own arrow keys step through the game
      const next = bars[Math.max(0, Math.min(bars.length - 1, to))];
      for (const b of bars) b.tabIndex = b === next ? 0 : -1;
      next.focus();
    });
    return h("figure", { class: "rv-chart" }, [h("figcaption", { text: t("review.chart") }), row]);
  }

  function players(review) {
    return h("ul", { class: "rv-players" }, review.players.map((p) => {
      const links = p.worst.map((i) => {
        const e = review.turns[i];
        const a = h("a", { href: `?step=${e.at}`, class: "rv-jump", "data-turn": String(i),
          text: t("review.turnLink", { turn: e.turn, loss: fixed(e.loss) }) });
        a.addEventListener("click", (ev) => { ev.preventDefault(); jump(e.at); });
        return a;
      });
      return h("li", { class: `rv-player seat-${p.seat}`, "data-seat": String(p.seat) }, [
        h("span", { class: "rv-summary", text: t("review.summary", {
          name: nameOf(p.seat), lost: fixed(p.lost), turns: p.turns, per: Number(p.per_turn).toFixed(2) }) }),
        h("span", { class: "rv-marks", text: ` · ${t("review.marks", p)}` }),
        h("span", { class: "rv-worst" }, [
          h("span", { text: `${t("review.worst")} ` }),
          ...(links.length ? links.flatMap((a, k) => (k ? [", ", a] : [a])) : [t("review.noWorst")]),
        ]),
      ]);
    }));
  }

  function here(review) {
    const e = review ? turnAt(review) : null;
    markOnly(EXPERT, e && e.expert ? targets(e.expert, e.seat) : []);
    markOnly(PLAYED, e && e.mine ? targets(e.mine, e.seat) : []);
    atLine.hidden = !e;
    atLine.className = e ? `rv-at rv-${e.grade}` : "rv-at";
    if (!e) {
      atLine.replaceChildren();
      return;
    }
    atLine.replaceChildren(
      h("p", { class: "rv-line", text: t("review.at", {
        turn: e.turn, name: nameOf(e.seat), grade: t(`review.grade.${e.grade}`), loss: fixed(e.loss),
        why: e.why ? reviewWhy(e.why) : "" }) }),
      h("p", { class: "rv-legend", text: `${t("review.legend")} ${t("review.values", {
        played: fixed(e.played), best: fixed(e.best) })}` }),
    );
  }

  function render() {
    const body = [h("h2", { id: "review-title", class: "rv-title", text: t("review.title") })];
    const s = state.state;
    if (s === "done") {
      const review = state.review;
      body.push(chart(review), players(review));
      here(review);
    } else {
      here(null);
      if (s === "none" || s === "loading") {
        body.push(h("p", { class: "rv-state", text: t("review.none") }));
        const btn = h("button", { type: "button", id: "rv-ask", class: "btn small primary", text: t("review.ask") });
        btn.addEventListener("click", ask);
        body.push(btn);
      } else {
        body.push(h("p", { class: "rv-state", role: "status", text: t(`review.${s}`) }));
      }
      if (refusal) body.push(h("p", { class: "rv-refused", role: "alert", text: t(`review.refused.${refusal}`) }));
    }
    const refocus = focusedBar;
    panel.replaceChildren(...body);
    panel.dataset.state = s;
    if (refocus !== null) {
      const bar = panel.querySelector(`.rv-bar[data-turn="${refocus}"]`);
      if (bar) bar.focus({ preventScroll: true });
    }
  }

  load();
  return {
    draw(i, names) {
      step = i;
      nameOf = names;
      render();
    },
  };
}

