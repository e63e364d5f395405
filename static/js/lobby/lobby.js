// The lobby: create a table, join by code, see the games being played (refreshed). Play now
// and the live list of seeks and open tables are quickplay.js's (the lobby socket).
import { call, displayCode, normalizeCode, tokens } from "../core/api.js";
import { h } from "../core/dom.js";
import { mountSwitch, onLangChange, t, translate } from "../lang/i18n.js";
import { installSprite } from "../core/icons.js";
import { refusal } from "../core/refusals.js";
import { fillClockSelect, longDuration, parseClock } from "../table/clock.js";
import { reportUnknown, rulesData } from "../core/rules-data.js";
import { sessionReady } from "../account/account-nav.js";
import "./quickplay.js";

const $ = (id) => document.getElementById(id);
const form = $("create-form");

// The form's controls are the options' (server.rooms.options.option_form): templates/lobby.html
// draws one per option, and the body sent is read from them by their kind.
const OPTIONS = rulesData().options;

// A `seat` control offers random or one of the chosen number of seats.
function seatChoices() {
  const n = JSON.parse(form.elements.players.value);
  for (const select of form.querySelectorAll("select[data-seats]")) {
    const keep = select.value;
    select.replaceChildren(h("option", { value: "", text: t("lobby.starting.random") }));
    for (let s = 0; s < n; s++) select.append(h("option", { value: String(s), text: t("lobby.starting.seat", { n: s + 1 }) }));
    select.value = Number(keep) < n ? keep : "";
  }
}

const mode = () => JSON.parse(form.elements.mode.value);

form.addEventListener("change", (e) => {
  if (e.target.name === "players") seatChoices();
  if (e.target.name === "mode") clockChoice(true);
  if (e.target.name === "clock") $("clock-custom").hidden = e.target.value !== "custom";
});

function chosenOptions() {
  const body = {};
  for (const o of OPTIONS) {
    const el = form.elements[o.name];
    switch (o.control) {
      case "count":
      case "choice": body[o.name] = JSON.parse(el.value); break;
      case "check": body[o.name] = el.checked; break;
      case "seat": body[o.name] = el.value === "" ? null : Number(el.value); break;
      case "clock": body[o.name] = chosenClock(el.value); break;
      default: reportUnknown("option control", o.control);
    }
  }
  return body;
}

// The clock chosen: a preset, none, or (turn-based) hours per move and days of bank.
function chosenClock(value) {
  if (value !== "custom") return parseClock(value);
  return { turn: Math.round(Number($("custom-hours").value) * 3600), bank: Math.round(Number($("custom-days").value) * 86400) };
}

// Disabled from the first click until the answer: a double click opens one table.
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const button = form.querySelector("button[type=submit]");
  if (button.disabled) return;
  button.disabled = true;
  $("create-error").textContent = "";
  try {
    const res = await call("POST", "/api/rooms", chosenOptions());
    tokens.setHost(res.code, res.host_token);
    location.href = `/r/${res.code}`;
  } catch (err) {
    $("create-error").textContent = refusal(err.code);
    button.disabled = false;
  }
});

$("join-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const code = normalizeCode($("join-code").value);
  if (!code) {
    $("join-error").textContent = t("lobby.badCode");
    return;
  }
  location.href = `/r/${displayCode(code)}`;
});

function renderRooms(list, rooms) {
  if (!rooms.length) {
    list.replaceChildren(h("li", { class: "none", text: t("lobby.none") }));
    return;
  }
  list.replaceChildren(...rooms.map((r) => {
    const seated = r.seats.filter((s) => s.name !== null || s.bot).length;
    const shown = displayCode(r.code.replace("-", ""));
    const names = r.seats.filter((s) => s.name).map((s) => s.name).join(", ");
    return h("li", {},
      h("a", { class: "room-link", href: `/r/${r.code}`,
        "aria-label": t("lobby.watchRoom", { code: shown }), text: shown }),
      h("span", { class: "room-meta", text: t("lobby.seated", { n: seated, total: r.seats.length }) }),
      names ? h("span", { class: "room-names", text: names }) : null);
  }));
}

async function refresh() {
  try {
    const rooms = await call("GET", "/api/rooms");
    renderRooms($("live-rooms"), rooms.live || []);
  } catch {
    // keep what is shown; the next refresh may work
  }
}

installSprite();
translate(document);
mountSwitch($("lang-switch"));
seatChoices();
function clockChoice(modeChanged = false) {
  const select = $("clock-choice");
  const tb = mode() === "turn_based";
  const keep = select.value === "custom" ? "custom" : select.value;
  // A turn-based table gets a day a move and three days of bank unless the host says otherwise.
  const current = modeChanged ? (tb ? { turn: 86400, bank: 259200 } : null) : parseClock(keep === "custom" ? "" : keep);
  fillClockSelect(select, current, mode());
  if (tb) select.append(h("option", { value: "custom", text: t("clock.custom") }));
  if (keep === "custom" && tb && !modeChanged) select.value = "custom";
  $("clock-custom").hidden = select.value !== "custom";
}

// My tables: this browser's seats (tokens kept by api.js) and, signed in, the account's
// seats from any device; yours to play first, with the time you have left; the page title
// counts them. A seat this browser holds no token for is taken back with one click.
const TITLE = document.title;

function mySeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith("cr.seat.")) seats.push({ code: key.slice(8), token: localStorage.getItem(key) });
  }
  return seats.slice(0, 50);
}

function stateOf(s) {
  if (s.your_turn) return t("mine.yourTurn") + (s.left_ms != null ? ` — ${t("mine.left", { time: longDuration(s.left_ms) })}` : "");
  if (s.status === "playing") return s.names ? t("mine.waitingFor", { name: s.names[s.to_act] || "?" }) : t("mine.playing");
  if (s.status === "waiting") return t("mine.waiting");
  return t("mine.over");
}

async function rejoin(table, button) {
  button.disabled = true;
  try {
    const res = await call("POST", table.rejoin, {});
    tokens.setSeat(table.code, res.seat_token);
    location.href = res.url;
  } catch (err) {
    button.disabled = false;
    button.title = refusal(err.code);
  }
}

function renderMine(seats, account) {
  const held = seats.filter((s) => s.status !== "gone" && s.status !== "elsewhere");
  const known = new Set(held.map((s) => normalizeCode(s.code)));
  const elsewhere = account.filter((a) => !known.has(normalizeCode(a.code)))
    .map((a) => ({ ...a, to_act: a.turn }));
  const mine = [...held, ...elsewhere];
  const rank = (s) => (s.your_turn ? 0 : s.status === "playing" ? 1 : 2);
  mine.sort((a, b) => (rank(a) - rank(b)) || ((a.left_ms ?? Infinity) - (b.left_ms ?? Infinity)));
  $("mine").hidden = mine.length === 0;
  const turns = mine.filter((s) => s.your_turn).length;
  document.title = turns ? `(${turns}) ${TITLE}` : TITLE;
  $("my-tables").replaceChildren(...mine.map((s) => {
    const code = s.code;
    const go = s.rejoin
      ? h("button", { type: "button", class: "btn small rejoin", text: t("mine.rejoin"), "aria-label": t("mine.rejoinCode", { code }) })
      : null;
    if (go) go.addEventListener("click", () => rejoin(s, go));
    return h("li", { class: s.your_turn ? "your-turn" : "" },
      h("a", { class: "room-link", href: `/r/${code}`, "aria-label": t("mine.open", { code }), text: code }),
      h("span", { class: "room-meta", text: stateOf(s) }), go);
  }));
}

async function accountTables() {
  // Asked only of a signed-in player: a guest's page makes no request that fails.
  const session = await sessionReady;
  if (!session || !session.account) return [];
  try {
    return (await call("GET", "/api/me/tables")).tables;
  } catch {
    return [];  // a guest, or a server without accounts
  }
}

async function refreshMine() {
  const seats = mySeats();
  const account = accountTables();
  try {
    const answers = seats.length ? (await call("POST", "/api/turns", { seats })).seats : [];
    // Cluster mode: a room another instance owns is asked for on its own (routed there).
    await Promise.all(answers.map(async (a, i) => {
      if (a.status !== "elsewhere") return;
      try {
        answers[i] = await call("POST", `/api/rooms/${seats[i].code}/turn`, { token: seats[i].token });
      } catch {
        answers[i] = { code: a.code, status: "gone" };
      }
    }));
    renderMine(answers, await account);
  } catch {
    // keep what is shown
  }
}

clockChoice();
onLangChange(() => { seatChoices(); clockChoice(); refresh(); refreshMine(); });
refresh();
refreshMine();
setInterval(refresh, 15000);
setInterval(refreshMine, 30000);
