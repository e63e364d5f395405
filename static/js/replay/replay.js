// The replay viewer: the live table (view.js) drawn from views the server rebuilt with the
// engine. Step i is the VIEW after i actions: the dealt view plus the patches of steps 1..i.
// No rule runs here; stepping only applies JSON patches.
import "../lang/history.js";
import "../lang/talk.js";
import { talkLine } from "../talk/chat.js";
import { hintLine, showTargets } from "../table/hint.js";
import { applyPatch, deepClone } from "../../vendor/fast-json-patch/index.js";
import { h, text } from "../core/dom.js";
import { getLang, mountSwitch, onLangChange, t, translate } from "../lang/i18n.js";
import { installSprite } from "../core/icons.js";
import { fitBoard, fitOpponents, fitOwnCards, supplyUnderBoard } from "../table/layout.js";
import { emptySelection, intents } from "../table/intents.js";
import { logLine, sentence } from "../table/log.js";
import { standInName } from "../core/names.js";
import { createTable, nameOfFactory, renderTable } from "../table/view.js";
import { cardNode } from "../table/view-player.js";
import { createZoom } from "../table/zoom.js";
import { mountReview } from "./review.js";

const $ = (id) => document.getElementById(id);
const data = JSON.parse($("replay-data").textContent);
const steps = data.steps;
const last = steps.length;

// games[i]: the game view after i actions, built on demand and kept (stepping back is free).
const games = [data.initial];
function gameAt(i) {
  while (games.length <= i) {
    const k = games.length;
    games.push(applyPatch(deepClone(games[k - 1]), steps[k - 1].ops, false, true).newDocument);
  }
  return games[i];
}

function viewAt(i) {
  return { room: data.room, you: data.you, game: gameAt(i) };
}

// The first step at which turn `turn` has begun (turn 0: the deal).
function stepOfTurn(turn) {
  if (turn <= 0) return 0;
  const found = steps.findIndex((s) => s.turn >= turn);
  return found === -1 ? last : found + 1;
}

const nothing = () => {};
const parts = createTable({
  cell: nothing, pick: nothing, act: nothing, again: nothing,
  player: { cup: nothing, empty: nothing, card: nothing, tile: nothing },
  waiting: { sit: nothing, leave: nothing, start: nothing, kick: nothing, host: nothing, bot: nothing, copy: nothing },
});
const ctx = { isHost: false, token: null };
const zoom = createZoom(parts.game, cardNode); // the small chips, full size, as at the table
let current = -1;
let timer = null;

function describe(i, nameOf) {
  if (i === 0) return t("replay.dealt");
  const lines = steps[i - 1].events.map((ev) => sentence(ev, nameOf)).filter(Boolean);
  return lines.join(" ");
}

// The game's talk (chat and timeouts), by the number of actions played when it happened.
const talkAfter = new Map();
for (const item of data.talk || []) {
  const k = Math.min(item.after, last);
  if (!talkAfter.has(k)) talkAfter.set(k, []);
  talkAfter.get(k).push(item);
}

function talkItems(k, nameOf, items) {
  const said = talkAfter.get(k) || [];
  for (let n = said.length - 1; n >= 0 && items.length < 120; n--) {
    const line = said[n].kind === "hint" ? hintLine(said[n], nameOf) : talkLine(said[n], nameOf);
    items.push(h("li", { class: `ev ev-talk ev-talk-${said[n].kind}`, text: line }));
  }
}

function renderLog(i, nameOf) {
  const items = [];
  for (let k = i; k >= 1 && items.length < 120; k--) {
    talkItems(k, nameOf, items);
    const evs = steps[k - 1].events;
    for (let e = evs.length - 1; e >= 0 && items.length < 120; e--) {
      const item = logLine(evs[e], nameOf);
      if (item) items.push(item);
    }
  }
  talkItems(0, nameOf, items);
  $("log-list").replaceChildren(...items);
}

// An abandoned game says so, and which bot played for which player who had left; each
// such seat's board says it too.
function drawEnded() {
  const standIns = data.game.players.filter((p) => p.stand_in);
  for (const p of standIns) {
    const slot = document.querySelector(`.pboard[data-seat="${p.seat}"] .standin`);
    if (slot) text(slot, standInName(p.stand_in, p.name));
  }
  if (!data.game.abandoned) return;
  const parts = [t("replay.abandoned")];
  parts.push(data.game.end_reason === "abandoned" ? t("end.reason.abandoned") : t("games.botsFinished"));
  for (const p of standIns) parts.push(standInName(p.stand_in, p.name));
  text($("rp-ended"), parts.join(" · "));
}

function draw() {
  const i = current;
  const view = viewAt(i);
  const nameOf = nameOfFactory(view);
  const sel = emptySelection();
  renderTable(parts, view, intents(view, sel), sel, ctx);
  zoom.sync();
  renderLog(i, nameOf);
  const turn = i === 0 ? 0 : steps[i - 1].turn;
  const where = [t("replay.stepOf", { i, n: last })];
  const seats = data.room.seats.length;
  where.push(turn === 0 ? t("replay.setup") : t("replay.turnOf", {
    turn, turns: data.turns, round: Math.ceil(turn / seats), rounds: Math.ceil(data.turns / seats) }));
  text($("rp-where"), where.join(" · "));
  // The table's prompt line tells a spectator to watch; here it says what this step did.
  text($("prompt"), describe(i, nameOf));
  const slider = $("rp-step");
  slider.max = String(last);
  slider.value = String(i);
  slider.setAttribute("aria-valuetext", where.join(", "));
  $("rp-first").disabled = $("rp-back").disabled = i === 0;
  $("rp-forward").disabled = $("rp-last").disabled = i === last;
  if (document.activeElement !== $("rp-turn")) $("rp-turn").value = String(turn);
  $("rp-turn").max = String(data.turns);
  const date = new Intl.DateTimeFormat(getLang(), { dateStyle: "medium", timeStyle: "short" })
    .format(new Date(data.game.ended_at));
  text($("replay-title"), t("replay.heading", { code: data.room.code, date }));
  document.title = t("replay.heading", { code: data.room.code, date });
  drawPlay();
  drawEnded();
  // A hint a player was given at this position: its move outlined, as they saw it.
  const given = (talkAfter.get(i) || []).filter((item) => item.kind === "hint").at(-1);
  showTargets(given || null, given ? given.seat : null);
  review.draw(i, nameOf);
  document.body.dataset.step = String(i);
}

function go(i) {
  const next = Math.max(0, Math.min(last, i));
  if (next === current) return;
  current = next;
  const url = new URL(location.href);
  url.searchParams.set("step", String(next));
  history.replaceState(null, "", url);
  draw();
}

function drawPlay() {
  const btn = $("rp-play");
  const playing = timer !== null;
  btn.setAttribute("aria-pressed", String(playing));
  text(btn, playing ? `⏸ ${t("replay.pause")}` : `▶ ${t("replay.play")}`);
}

function play() {
  if (current >= last) go(0);
  timer = setInterval(() => {
    if (current >= last) stop();
    else go(current + 1);
  }, Number($("rp-speed").value));
  drawPlay();
}

function stop() {
  clearInterval(timer);
  timer = null;
  drawPlay();
}

$("rp-first").addEventListener("click", () => { stop(); go(0); });
$("rp-back").addEventListener("click", () => { stop(); go(current - 1); });
$("rp-forward").addEventListener("click", () => { stop(); go(current + 1); });
$("rp-last").addEventListener("click", () => { stop(); go(last); });
$("rp-play").addEventListener("click", () => (timer === null ? play() : stop()));
$("rp-step").addEventListener("input", (e) => { stop(); go(Number(e.target.value)); });
$("rp-speed").addEventListener("change", () => { if (timer !== null) { stop(); play(); } });
$("rp-jump").addEventListener("submit", (e) => {
  e.preventDefault();
  stop();
  go(stepOfTurn(Number($("rp-turn").value) || 0));
});
document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
  const moves = { ArrowLeft: () => go(current - 1), ArrowRight: () => go(current + 1), Home: () => go(0), End: () => go(last) };
  if (!moves[e.key]) return;
  e.preventDefault();
  stop();
  moves[e.key]();
});
for (const tab of document.querySelectorAll("#side-tabs [role=tab]")) {
  tab.addEventListener("click", () => {
    for (const other of document.querySelectorAll("#side-tabs [role=tab]")) {
      other.setAttribute("aria-selected", String(other === tab));
    }
    $("side").dataset.show = tab.dataset.panel;
  });
}

const review = mountReview($("review"), { gameId: data.game.id, code: data.room.code, go: (i) => { stop(); go(i); } });
installSprite();
translate(document);
mountSwitch($("lang-switch"));
onLangChange(draw);
const start = Number(new URLSearchParams(location.search).get("step"));
go(Number.isInteger(start) ? start : 0);
fitBoard();
supplyUnderBoard();
fitOwnCards();
fitOpponents();
