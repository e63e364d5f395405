// render(view): the whole table from the current view and the local selection. Idempotent:
// every region is built once and updated in place, so nodes survive patches.
import { attr, h, syncList, text, toggle } from "../core/dom.js";
import { icon } from "../core/icons.js";
import { rulesData } from "../core/rules-data.js";
import { ing, t } from "../lang/i18n.js";
import { createBoard, updateBoard } from "./view-board.js";
import { createPlayer, updatePlayer, cardNode } from "./view-player.js";
import { createWaiting, updateWaiting } from "./view-wait.js";
import { renderFinal } from "./view-end.js";
import { nameOfSeats } from "../core/names.js";
import { standingIn } from "./intents.js";

const $ = (id) => document.getElementById(id);

/**
 * @param {Record<string, any>} handlers
 * @returns {Record<string, any>} the table's parts, for renderTable
 */
export function createTable(handlers) {
  const parts = {
    root: $("table-root"),
    game: $("game"),
    board: createBoard($("board"), handlers.cell),
    waiting: createWaiting($("waiting"), handlers.waiting),
    players: new Map(),
    handlers,
  };
  const supply = $("supply-list");
  for (const name of rulesData().ingredients) {
    supply.append(h("li", { class: "sup", tabindex: "0", dataset: { ing: name } }, icon(name), h("span", { class: "n" })));
  }
  supply.append(h("li", { class: "sup sup-rush", tabindex: "0" }, icon("rush"), h("span", { class: "n" })));
  return parts;
}

/**
 * @param {import("../core/types.js").View} view
 * @returns {import("../core/types.js").NameOf}
 */
export function nameOfFactory(view) {
  return nameOfSeats(view.room.seats);
}

/**
 * @param {Record<string, any>} parts from createTable
 * @param {import("../core/types.js").View} view
 * @param {ReturnType<typeof import("./intents.js").intents>} acts
 * @param {import("../core/types.js").Selection} sel
 * @param {Record<string, any>} ctx
 * @returns {void}
 */
export function renderTable(parts, view, acts, sel, ctx) {
  const g = view.game;
  const nameOf = nameOfFactory(view);
  const room = view.room;

  // Header
  // Spectators: the words on a desktop, an eye and the number on a phone (words kept for readers).
  const watchers = $("watchers");
  if (!watchers.firstChild) {
    watchers.append(icon("eye"), h("span", { class: "short", "aria-hidden": "true" }), h("span", { class: "long" }));
  }
  text(watchers.querySelector(".short"), String(room.spectators));
  text(watchers.querySelector(".long"), t("hdr.watching", { n: room.spectators }));
  const token = $("token-state");
  token.hidden = !g;
  if (g) {
    // The Starting Player Token, said as what it means: the game goes on, or this round is
    // the last. A status line, not a control: it looks like one (no pill while open).
    if (!token.firstChild) token.append(icon("react-wait", null, "ico token-ico"), h("span", { class: "token-words" }));
    // A replay shows a finished game: between its steps it does not "go on".
    const replay = document.body.classList.contains("page-replay");
    const state = g.phase === rulesData().phase_over ? "ended" : g.closed ? "closed" : replay ? "replay" : "open";
    text(token.querySelector(".token-words"), t(`hdr.${state}`));
    toggle(token, "closed", state === "closed");
    attr(token, "title", t(`hdr.${state}Help`));
    text($("deck-count"), t("hdr.deck", { n: g.deck }));
  }
  $("deck-count").hidden = !g;

  // Waiting room vs game
  $("waiting").hidden = Boolean(g);
  parts.game.hidden = !g;
  if (!g) {
    updateWaiting(parts.waiting, view, ctx);
    renderFinal($("final"), view, nameOf, parts.handlers.again);
    return;
  }
  const { phases, phase_over: over } = rulesData();
  for (const phase of phases) {
    toggle(parts.root, `phase-${phase}`, g.phase === phase);
  }
  toggle(parts.root, "my-turn", acts.mine);

  // Status and prompt
  let status;
  const timeUp = g.phase !== over && g.current === view.you.seat && standingIn(view);
  toggle(parts.root, "time-up", timeUp);
  if (g.phase === over) status = t("prompt.over");
  else if (timeUp) status = t("status.timeUp");
  else if (acts.mine) status = t("status.yourTurn");
  else status = t("status.turnOf", { name: nameOf(g.current), phase: t(`phase.${g.phase}`) });
  text($("status"), status);
  let prompt;
  if (acts.mine) {
    const [key, params] = acts.prompt;
    prompt = t(key, params.ingKey ? { ...params, ing: ing(params.ingKey) } : params);
  } else if (g.phase === over) prompt = "";
  else if (timeUp) prompt = t("prompt.timeUp");
  else if (view.you.seat === null) prompt = t("status.spectating");
  // The status line says whose turn it is and what they are doing; the prompt says what
  // you do meanwhile, not the same thing again.
  else prompt = t("prompt.wait");
  text($("prompt"), prompt);

  renderHand(view, acts, sel, parts.handlers);
  renderControls(view, acts, parts.handlers);
  updateBoard(parts.board, view, acts, nameOf);
  renderPlayers(parts, view, acts, sel, nameOf);
  renderSupply(g);
  renderFinal($("final"), view, nameOf, parts.handlers.again);
}

function renderHand(view, acts, sel, handlers) {
  const g = view.game;
  const box = $("hand");
  const entries = Object.entries(g.hand).filter(([, n]) => n > 0);
  box.hidden = entries.length === 0;
  // The hand shown is the acting player's: only theirs is labelled "your hand".
  const mine = view.you.seat !== null && view.you.seat === g.current;
  text($("hand-label"), mine ? t("pb.hand") : t("pb.handOf", { name: nameOfSeats(view.room.seats)(g.current) }));
  syncList($("hand-list"), entries, ([name]) => name, ([name]) => {
    const b = h("button", { type: "button", class: "token", dataset: { ing: name } }, icon(name), h("span", { class: "n" }));
    b.addEventListener("click", () => handlers.pick(name));
    return b;
  }, (b, [name, n]) => {
    const can = acts.mine && acts.hand.has(name);
    b.disabled = !can;
    text(b.querySelector(".n"), `×${n}`);
    toggle(b, "selected", sel.ing === name);
    attr(b, "aria-pressed", can ? String(sel.ing === name) : null);
    attr(b, "aria-label", t("pb.handToken", { ing: ing(name), count: n }));
  });
}

function renderControls(view, acts, handlers) {
  const undo = $("undo-btn");
  undo.hidden = !acts.undo;
  text(undo, t("btn.undo"));
  const ret = $("return-btn");
  ret.hidden = !acts.returnAction;
  if (acts.returnAction) {
    // The whole sentence is the button's text, name and title; a phone shows a short label
    // instead (table-fit.css), so that Return, Hint and Undo share one row of the bar.
    const full = t("btn.return", { ing: ing(acts.returnAction.ingredient) });
    text(ret.querySelector(".ret-full"), full);
    text(ret.querySelector(".ret-short"), t("btn.returnShort"));
    attr(ret, "aria-label", full);
    attr(ret, "title", full);
  }
  syncList($("phase-buttons"), acts.buttons, (b) => b.id, (b) => {
    const el = h("button", { type: "button", class: `btn ${b.primary ? "primary" : ""}` });
    el.addEventListener("click", () => handlers.act(el._action));
    return el;
  }, (el, b) => {
    el._action = b.action;
    text(el, t(b.key));
  });
}

function renderPlayers(parts, view, acts, sel, nameOf) {
  const g = view.game;
  const focus = view.you.seat !== null ? view.you.seat : g.current;
  const order = [];
  for (let k = 0; k < g.players_count; k++) order.push((focus + k) % g.players_count);
  // Four players leave no room in a desktop's side column for opponents and the log at
  // once: they become tabs there (app.css).
  toggle($("side"), "crowded", g.players_count >= 4);
  const meArea = $("me-area");
  const others = $("players");
  for (const seat of order) {
    let panel = parts.players.get(seat);
    if (!panel) {
      panel = createPlayer(seat, parts.handlers.player);
      parts.players.set(seat, panel);
    }
    const home = seat === focus ? meArea : others;
    if (panel.parentElement !== home) home.append(panel);
    toggle(panel, "compact", seat !== focus);
    updatePlayer(panel, view, seat, acts, sel, nameOf, parts.handlers.player);
  }
  // Keep opponents in turn order after the focused seat, moving a board only when it is out
  // of place: a board moved in the DOM makes Chromium forget what the pointer is over (a
  // zoom shown by hover, zoom.js), and most redraws change no order at all.
  const wanted = order.map((seat) => parts.players.get(seat)).filter((panel) => panel.parentElement === others);
  wanted.forEach((panel, i) => {
    const there = others.children[i];
    if (there !== panel) others.insertBefore(panel, there || null);
  });
}

function renderSupply(g) {
  text($("supply-title"), t("sup.title"));
  for (const li of $("supply-list").children) {
    const name = li.dataset.ing;
    const n = name ? g.supply[name] : g.rush_supply;
    text(li.querySelector(".n"), n);
    const label = name ? `${ing(name)}: ${n}` : t("sup.rush", { n });
    attr(li, "aria-label", label);
    attr(li, "title", label);
  }
  text($("deck-line"), t("sup.deck", { n: g.deck }));
  const discard = $("discard");
  text(discard.querySelector("summary"), t("sup.discard", { n: g.discard.length }));
  syncList(discard.querySelector(".cards"), g.discard, (c) => c.id, cardNode, () => {});
  const aside = $("set-aside");
  aside.hidden = g.set_aside.length === 0;
  text(aside.querySelector("summary"), t("sup.setAside", { n: g.set_aside.length }));
  syncList(aside.querySelector(".cards"), g.set_aside, (c) => c.id, cardNode, () => {});
}
