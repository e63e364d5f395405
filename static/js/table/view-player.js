// One player's board: tabs 1-4 with order cards, three cups, completed / penalties / Rush,
// upgrade tiles. Built once per seat and updated in place; controls come from intents.
import { attr, h, svg, syncList, text, toggle, flash } from "../core/dom.js";
import { icon } from "../core/icons.js";
import { ing, orderName, t } from "../lang/i18n.js";
import { SEAT_LETTERS } from "../core/names.js";
import { rulesData } from "../core/rules-data.js";
import { inert, zoomable } from "./zoom.js";


/**
 * @param {Record<string, number>} recipe
 * @returns {string}
 */
function recipeText(recipe) {
  return Object.entries(recipe).map(([n, c]) => (c > 1 ? `${ing(n)} ×${c}` : ing(n))).join(t("misc.and"));
}

// A control of your own board: enabled when it acts now, else disabled (no zoom: it is drawn
// full size).
function plain(el, usable) {
  el.disabled = !usable;
  el.removeAttribute("aria-disabled");
}

/**
 * @param {import("../core/types.js").Card} card
 * @returns {HTMLButtonElement}
 */
export function cardNode(card) {
  // A drawn order card: its name on a band, the recipe as big icons inside a cup
  // silhouette laid out as a cup's four places, and what it scores once served.
  const el = h("button", { type: "button", class: "card", disabled: true },
    h("span", { class: "card-name" }),
    h("span", { class: "card-cup" }, cupArt(), h("span", { class: "recipe" })),
    h("span", { class: "card-pts", "aria-hidden": "true" }, "+1"));
  if (card.specialty) {
    el.classList.add("special");
    el.querySelector(".card-cup").prepend(icon("star", null, "ico star"));
  }
  const recipe = el.querySelector(".recipe");
  for (const [name, count] of Object.entries(card.recipe)) {
    for (let i = 0; i < count; i++) recipe.append(icon(name));
  }
  nameCard(el, card);
  return el;
}

// The card's name band; a name with a long word (a Thai loanword is one, kept whole: thai.js)
// is set a little smaller so the word fits the band instead of breaking inside.
function nameCard(el, card) {
  const name = orderName(card.name);
  text(el.querySelector(".card-name"), name);
  toggle(el, "long-name", Math.max(...name.replaceAll("\u2060", "").split(" ").map((w) => w.length)) > 10);
}

// The cup drawn on an order card (original art): a tapered cup with a handle and a saucer.
function cupArt() {
  const art = svg("svg", { class: "card-cup-art", viewBox: "0 0 70 64", "aria-hidden": "true",
    focusable: "false", preserveAspectRatio: "none" });
  art.append(
    svg("ellipse", { class: "cc-saucer", cx: 31, cy: 60, rx: 30, ry: 3.5 }),
    svg("path", { class: "cc-handle", d: "M58 16 C70 16 70 38 56 40" }),
    svg("path", { class: "cc-body", d: "M3 3 H59 L55 50 C54.5 55 52 57 47 57 H15 C10 57 7.5 55 7 50 Z" }));
  return art;
}

/**
 * @param {number} seat
 * @param {Record<string, Function>} handlers
 * @returns {Record<string, any>} the panel's parts, for updatePlayer
 */
export function createPlayer(seat, handlers) {
  const tabs = h("div", { class: "tabs" });
  for (let i = 0; i < 4; i++) {
    tabs.append(h("div", { class: `tab tab-${i + 1}`, dataset: { tab: i } },
      h("span", { class: "tab-label" }, String(i + 1)),
      h("div", { class: "tab-cards" })));
  }
  const cups = h("div", { class: "cups" });
  for (let k = 0; k < 3; k++) {
    const slots = h("span", { class: "slots" });
    for (let s = 0; s < 4; s++) slots.append(h("span", { class: "slot" }));
    const cup = h("button", { type: "button", class: "cup", disabled: true, dataset: { cup: k } },
      h("span", { class: "cup-num", "aria-hidden": "true" }, String(k + 1)), slots);
    cup.addEventListener("click", () => { if (!inert(cup)) handlers.cup(seat, k); });
    const empty = h("button", { type: "button", class: "empty-cup", hidden: true });
    empty.addEventListener("click", () => handlers.empty(k));
    cups.append(h("div", { class: "cup-wrap" }, cup, empty));
  }
  const tiles = h("div", { class: "tiles" });
  for (const tile of rulesData().tiles) {
    const b = h("button", { type: "button", class: `tile tile-${tile}`, disabled: true, dataset: { tile } },
      icon(tile, null, "ico tile-glyph"), h("span", { class: "tile-name" }));
    b.addEventListener("click", () => { if (!inert(b)) handlers.tile(tile); });
    tiles.append(b);
  }
  const stat = (cls, ico) => h("span", { class: `stat ${cls}` }, icon(ico), h("span", { class: "n" }));
  const panel = h("section", { class: "pboard", dataset: { seat } },
    h("header", { class: "pb-head" },
      h("span", { class: `badge seat-${seat}`, "aria-hidden": "true" }, SEAT_LETTERS[seat]),
      h("h3", { class: "pname" }),
      h("span", { class: "verified", role: "img" }),
      h("span", { class: "presence" }),
      h("span", { class: "acting" }),
      h("span", { class: "pscore" }),
      h("span", { class: "standin" })),
    tabs,
    h("div", { class: "pb-row" }, cups,
      h("div", { class: "stats" }, stat("completed", "check"), stat("penalties", "cross"), stat("rush", "rush"))),
    // The four faint tiles say what they are until one lights up (table-fit.css hides it).
    h("p", { class: "tiles-title" }, h("span", { class: "tiles-name" }), " ", h("span", { class: "small tiles-how" })),
    tiles);
  return panel;
}

/**
 * @param {Record<string, any>} panel from createPlayer
 * @param {import("../core/types.js").View} view
 * @param {number} seat
 * @param {ReturnType<typeof import("./intents.js").intents>} acts
 * @param {import("../core/types.js").Selection} sel
 * @param {import("../core/types.js").NameOf} nameOf
 * @param {Record<string, Function>} handlers
 * @returns {void}
 */
export function updatePlayer(panel, view, seat, acts, sel, nameOf, handlers) {
  const g = view.game;
  const p = g.players[seat];
  const info = view.room.seats[seat] || {};
  const mine = view.you.seat === seat;
  const acting = g.current === seat && g.phase !== rulesData().phase_over;
  const interactive = mine && acts.mine;
  // Opponents' boards are compact (view.js): their chips zoom (zoom.js).
  const compact = panel.classList.contains("compact");
  text(panel.querySelector(".pname"), nameOf(seat) + (mine ? ` (${t("pb.you")})` : ""));
  attr(panel, "aria-label", nameOf(seat));
  // A signed-in player: the name is their account's.
  const verified = panel.querySelector(".verified");
  text(verified, info.verified ? "✓" : "");
  attr(verified, "title", info.verified ? t("acct.verified") : null);
  attr(verified, "aria-label", info.verified ? t("acct.verified") : null);
  attr(verified, "hidden", !info.verified);
  const presence = panel.querySelector(".presence");
  toggle(presence, "on", info.connected || info.bot);
  attr(presence, "title", info.connected || info.bot ? t("pb.online") : t("pb.offline"));
  attr(presence, "aria-label", info.connected || info.bot ? t("pb.online") : t("pb.offline"));
  attr(presence, "role", "img");
  text(panel.querySelector(".acting"), acting ? t("pb.acting") : "");
  // A bot playing for a player who is away (three timeouts in a row, or gone), until they
  // come back; after a single timeout it only finishes that turn.
  const away = info.away || !info.connected;
  text(panel.querySelector(".standin"), !info.stand_in ? ""
    : away ? t("pb.standIn", { level: t(`bot.${info.stand_in}`), name: nameOf(seat) })
      : t("pb.finishing", { name: nameOf(seat) }));
  text(panel.querySelector(".pscore"), t("pb.score", { n: p.score.total }));
  toggle(panel, "is-acting", acting);
  toggle(panel, "is-me", mine);

  // Tabs and their orders
  panel.querySelectorAll(".tab").forEach((tabEl, i) => {
    const cards = p.tabs[i];
    attr(tabEl, "aria-label", i === 3 ? t("pb.tab4") : t("pb.tab", { n: i + 1 }));
    attr(tabEl, "role", "group");
    toggle(tabEl, "has-cards", cards.length > 0);
    const create = (card) => {
      const node = cardNode(card);
      node.addEventListener("click", () => { if (!inert(node)) handlers.card(card.id); });
      return node;
    };
    syncList(tabEl.querySelector(".tab-cards"), cards, (c) => c.id, create, (node, card) => {
      node.dataset.card = String(card.id); // what a hint points at (hint.js)
      const serve = interactive ? acts.cards.get(card.id) : null;
      node._card = card; // what its zoom draws (zoom.js)
      if (compact) zoomable(node, Boolean(serve));
      else plain(node, Boolean(serve));
      toggle(node, "target", Boolean(serve));
      attr(node, "title", orderName(card.name));
      nameCard(node, card); // in the language now chosen
      attr(node, "aria-label", serve
        ? t("pb.serve", { card: orderName(card.name), n: serve.cup + 1 })
        : `${orderName(card.name)}${card.specialty ? " ★" : ""}: ${recipeText(card.recipe)}`);
    });
  });

  // Cups
  panel.querySelectorAll(".cup-wrap").forEach((wrap, k) => {
    const cup = wrap.querySelector(".cup");
    const contents = p.cups[k];
    const slots = cup.querySelector(".slots").children;
    for (let s = 0; s < 4; s++) {
      const slot = slots[s];
      const want = contents[s] || "";
      if (slot.dataset.ing !== want) {
        slot.dataset.ing = want;
        slot.replaceChildren(...(want ? [icon(want)] : []));
        if (want) flash(slot);
      }
    }
    const act = interactive ? acts.cups.get(k) : null;
    if (compact) zoomable(cup, Boolean(act));
    else plain(cup, Boolean(act));
    toggle(cup, "target", Boolean(act));
    toggle(cup, "selected", interactive && sel.cup === k);
    toggle(cup, "full", contents.length >= 4);
    const desc = contents.length ? contents.map(ing).join(t("misc.and")) : t("pb.cupEmpty");
    let label = t("pb.cupContents", { n: k + 1, contents: desc });
    if (act && act.action && act.action.type === "pour") label = `${t("pb.pourInto", { ing: ing(act.action.ingredient), n: k + 1 })} (${desc})`;
    else if (act && act.action) label = `${t("pb.startCup", { n: k + 1 })} (${desc})`;
    else if (act && act.select) label = `${t("pb.selectCup", { n: k + 1 })} (${desc})`;
    attr(cup, "aria-label", label);
    attr(cup, "aria-pressed", act && act.select ? String(sel.cup === k) : null);
    const empty = wrap.querySelector(".empty-cup");
    const canEmpty = interactive && acts.empties.has(k);
    empty.hidden = !canEmpty;
    text(empty, t("btn.empty", { n: k + 1 }));
  });

  // Completed, penalties, Rush
  const stats = [["completed", p.completed.length, "pb.completed"], ["penalties", p.penalties.length, "pb.penalties"], ["rush", p.rush, "pb.rush"]];
  for (const [cls, n, key] of stats) {
    const el = panel.querySelector(`.stat.${cls}`);
    const nEl = el.querySelector(".n");
    if (nEl.textContent !== String(n)) {
      text(nEl, n);
      flash(el);
    }
    attr(el, "title", `${t(key)}: ${n}`);
    attr(el, "aria-label", `${t(key)}: ${n}`);
    attr(el, "role", "img");
  }

  // Upgrade tiles
  text(panel.querySelector(".tiles-name"), t("pb.tiles"));
  text(panel.querySelector(".tiles-how"), t("pb.tilesHow"));
  panel.querySelectorAll(".tile").forEach((b) => {
    const tile = b.dataset.tile;
    const on = p.upgrades[tile];
    const act = interactive ? acts.tiles.get(tile) : null;
    zoomable(b, Boolean(act));
    toggle(b, "on", on);
    toggle(b, "target", Boolean(act));
    text(b.querySelector(".tile-name"), t(`tile.${tile}`));
    attr(b, "title", t(`tile.help.${tile}`));
    attr(b, "aria-label", act ? t("pb.activate", { tile: t(`tile.${tile}`) })
      : t(on ? "pb.tileOn" : "pb.tileOff", { tile: t(`tile.${tile}`) }));
  });
}
