// The table page: wires the store, the socket, the view and the intents together.
import { call, displayCode, tokens } from "../core/api.js";
import { h, text } from "../core/dom.js";
import { mountSwitch, onLangChange, t, translate } from "../lang/i18n.js";
import { icon, installSprite } from "../core/icons.js";
import { fitBoard } from "./layout.js";
import { emptySelection, intents, isMyTurn, normalize, standingIn } from "./intents.js";
import { announced, sentence } from "./log.js";
import { LogList } from "./log-list.js";
import { refusal } from "../core/refusals.js";
import { chime, muted, setMuted, unlockOnGesture } from "./sound.js";
import { Socket } from "./socket.js";
import { reportUnknown, rulesData } from "../core/rules-data.js";
import { Store } from "./store.js";
import { Motion } from "./motion.js";
import { createTable, nameOfFactory, renderTable } from "./view.js";
import { createChat } from "../talk/chat.js";
import { createHint } from "./hint.js";
import { createClock } from "./clock.js";
import { createMailPanel } from "./mail.js";
import { createTurnBased } from "./turnbased.js";
import { titleAlerts, yourTurn } from "./notify.js";
import { sessionReady, signedInName } from "../account/account-nav.js";

const body = document.body;
const code = body.dataset.code;
const $ = (id) => document.getElementById(id);

// "Continue on another device": a seat token in the fragment moves the seat to this browser.
const frag = new URLSearchParams(location.hash.slice(1));
if (frag.get("seat")) {
  tokens.setSeat(code, frag.get("seat"));
  history.replaceState(null, "", location.pathname + location.search);
}

const store = new Store(JSON.parse($("initial-view").textContent));
let sel = emptySelection();
let wasMine = false;

const handlers = {
  cell(cell) {
    const a = current().cells.get(cell);
    if (a) send(a.action);
    else if (!isMyTurn(store.view)) whoseTurn();
  },
  pick(name) {
    sel = { ...sel, ing: sel.ing === name ? null : name, cup: null };
    draw();
  },
  act: (action) => send(action),
  player: {
    cup(seat, k) {
      const a = current().cups.get(k);
      if (!a || seat !== store.view.you.seat) return;
      if (a.action) send(a.action);
      else {
        sel = { ...sel, cup: sel.cup === k ? null : k };
        draw();
        // Move focus to the first matching order so the keyboard flow continues.
        const target = document.querySelector(".is-me .card.target");
        if (target) target.focus({ preventScroll: true });
      }
    },
    empty(k) {
      const a = current().empties.get(k);
      if (a) send(a);
    },
    card(id) {
      const a = current().cards.get(id);
      if (a) send(a);
    },
    tile(tile) {
      const a = current().tiles.get(tile);
      if (a) send(a);
    },
  },
  waiting: {
    async sit(seat, name) {
      name = name.trim();
      if (!name || name.length > rulesData().name_max) return waitError(t("wait.nameNeeded", { name_max: rulesData().name_max }));
      localStorage.setItem("cr.name", name);
      await guarded(async () => {
        const res = await call("POST", `/api/rooms/${code}/join`, { name, seat });
        tokens.setSeat(code, res.seat_token);
        socket.connect();
      });
    },
    async leave() {
      await guarded(async () => {
        await call("POST", `/api/rooms/${code}/leave`, { seat_token: tokens.seat(code) });
        tokens.setSeat(code, null);
        socket.connect();
      });
    },
    start: () => guarded(() => call("POST", `/api/rooms/${code}/start`, { token: hostToken() })),
    kick: (seat) => guarded(() => call("POST", `/api/rooms/${code}/kick`, { token: hostToken(), seat })),
    host: (seat) => guarded(() => call("POST", `/api/rooms/${code}/host`, { token: hostToken(), seat })),
    bot: (seat, level) => guarded(() => call("POST", `/api/rooms/${code}/bot`, { token: hostToken(), seat, level })),
    async copy(input, button) {
      try {
        await navigator.clipboard.writeText(input.value);
      } catch {
        input.select();
        document.execCommand("copy");
      }
      text(button, t("wait.copied"));
    },
  },
  async again() {
    await guarded(async () => {
      // The server makes one rematch room per table and points every viewer to it.
      // Everyone keeps their seat there; this page gets its own new seat token.
      const res = await call("POST", `/api/rooms/${code}/rematch`, { token: tokens.seat(code) });
      if (res.host_token) tokens.setHost(res.code, res.host_token);
      if (res.seat_token) tokens.setSeat(res.code, res.seat_token);
      location.href = `/r/${res.code}`;
    });
  },
};

function hostToken() {
  return tokens.host(code) || tokens.seat(code);
}

function isHost(view) {
  return Boolean(tokens.host(code)) || (view.you.seat !== null && view.you.seat === view.room.host_seat);
}

// One request at a time from the waiting room and the scoreboard: the buttons that send
// one are disabled until it is answered, so a double click sends it once.
let inFlight = false;
async function guarded(fn) {
  if (inFlight) return;
  inFlight = true;
  body.dataset.requesting = "1";
  const buttons = [...document.querySelectorAll("#waiting button, #final button")].filter((b) => !b.disabled);
  for (const b of buttons) b.disabled = true;
  waitError("");
  try {
    await fn();
  } catch (err) {
    waitError(refusal(err.code));
  } finally {
    inFlight = false;
    delete body.dataset.requesting;
    for (const b of buttons) b.disabled = false;
    draw(); // restores the buttons whose state depends on the room (e.g. Start)
  }
}

function waitError(message) {
  text(document.querySelector("#waiting .form-error"), message);
  showToast(message);
}

function current() {
  return intents(store.view, sel);
}

// data-busy="1" while an action is in flight (until its ack and the version it made are in);
// data-v is the version shown. Both help anyone (and tests) know the table is settled.
// While one is in flight, the action buttons are disabled and further clicks are ignored:
// a double click sends one action.
let awaitingV = null;
let heldButtons = [];
function send(action) {
  if (body.dataset.busy === "1" || inactive) return;
  motion.finishAll(); // an action never waits for motion
  body.dataset.busy = "1";
  hint.clear(); // a hint is spent once the player acts
  heldButtons = [...document.querySelectorAll("#actionbar button")].filter((b) => !b.disabled);
  for (const b of heldButtons) b.disabled = true;
  socket.act(action, store.v);
}

function settle() {
  if (awaitingV !== null && store.v !== null && store.v >= awaitingV) awaitingV = null;
  if (awaitingV === null && socket.pending.size === 0 && body.dataset.busy !== "0") {
    body.dataset.busy = "0";
    for (const b of heldButtons) b.disabled = false;
    heldButtons = [];
    draw();
  }
  body.dataset.v = String(store.v);
}

const parts = createTable(handlers);
const hint = createHint({ send: (frame) => socket.send(frame), refusal });

function draw() {
  const view = store.view;
  sel = normalize(view, sel);
  const acts = intents(view, sel);
  renderTable(parts, view, acts, sel, { isHost: isHost(view), token: tokens.seat(code) });
  if (inactive) {
    text($("status"), t("inactive.status"));
    text($("prompt"), t(`inactive.${inactive}`));
    parts.root.classList.remove("my-turn");
  }
  $("undo-btn").onclick = () => send({ type: "undo" });
  $("return-btn").onclick = () => acts.returnAction && send(acts.returnAction);
  const mine = isMyTurn(view);
  document.title = mine && titleAlerts() ? t("title.yourTurn") : t("title.table", { code: displayCode(code) });
  if (mine && !wasMine) {
    if (document.hidden) yourTurn(displayCode(code));
    else chime();
    announce(t("ev.yourTurn"));
  }
  talk.clock.update(view, isHost(view));
  mailPanel.update(view);
  turnBased.update(view);
  talk.chat.update(view);
  syncMineOnly(view);
  syncTakeBack(view);
  hint.update(view);
  wasMine = mine;
  $("device-link").value = tokens.seat(code) ? `${location.origin}${location.pathname}#seat=${encodeURIComponent(tokens.seat(code))}` : "";
  $("help-device").hidden = !tokens.seat(code);
}

const log = new LogList($("log-list"));
// "Only my moves": a seated player's filter of the log.
const mineOnly = h("button", { type: "button", class: "btn small log-mine", "aria-pressed": "false" });
$("log").querySelector("h2").after(mineOnly);
mineOnly.addEventListener("click", () => {
  const on = mineOnly.getAttribute("aria-pressed") !== "true";
  mineOnly.setAttribute("aria-pressed", String(on));
  log.showOnly(on ? store.view.you.seat : null, nameOfFactory(store.view));
});
// A signed-in player whose seat here this device holds no link to: one click takes it
// (a new seat token; the seat's old link stops working).
const takeBackText = h("span");
const takeBackBtn = h("button", { type: "button", class: "btn small primary" });
const takeBack = h("div", { class: "banner take-back", role: "status", hidden: true }, takeBackText, takeBackBtn);
$("table-root").before(takeBack);
takeBackBtn.addEventListener("click", async () => {
  takeBackBtn.disabled = true;
  try {
    const res = await call("POST", `/api/rooms/${code}/rejoin`, {});
    tokens.setSeat(code, res.seat_token);
    location.reload();
  } catch (err) {
    takeBackBtn.disabled = false;
    text(takeBackText, refusal(err.code));
  }
});
function syncTakeBack(view) {
  const name = signedInName();
  const mine = name !== null && view.you.seat === null && view.room.status !== "finished"
    && view.room.seats.some((s) => s.verified && s.name === name);
  takeBack.hidden = !mine;
  if (!mine) return;
  text(takeBackText, t("seat.takeBackText"));
  text(takeBackBtn, t("seat.takeBack"));
}
sessionReady.then(() => { if (store.view) syncTakeBack(store.view); });

function syncMineOnly(view) {
  mineOnly.hidden = view.you.seat === null;
  text(mineOnly, t("log.mine"));
}
const motion = new Motion();

function logEvents(v, events) {
  log.add(v, events);
  const nameOf = nameOfFactory(store.view);
  log.render(nameOf);
  const spoken = events.filter(announced).map((ev) => sentence(ev, nameOf)).filter(Boolean);
  if (spoken.length) announce(spoken.slice(-2).join(" "));
}

// After a snapshot: what happened before it (the snapshot itself carries no events).
async function fillLog(v) {
  try {
    const res = await call("GET", `/api/rooms/${code}/events?upto=${v}`);
    log.fill(res.events);
    log.render(nameOfFactory(store.view));
  } catch {
    // The log is a courtesy; the table is complete without it.
  }
}

function announce(message) {
  const live = $("live");
  live.textContent = "";
  // A fresh text node after clearing makes screen readers read it again.
  setTimeout(() => { live.textContent = message; }, 30);
}

// A click on the board out of turn: say quietly whose turn it is (a polite status under
// the board, gone after a moment), never an alert.
let noteTimer = null;
function whoseTurn() {
  const g = store.view && store.view.game;
  if (!g || g.phase === rulesData().phase_over) return;
  const note = $("board-note");
  const key = store.view.you.seat === null ? "hint.turnOf"
    : g.current === store.view.you.seat && standingIn(store.view) ? "status.timeUp" : "hint.notYourTurn";
  text(note, t(key, { name: nameOfFactory(store.view)(g.current) }));
  note.hidden = false;
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => { note.hidden = true; }, 2500);
}

let toastTimer = null;
function showToast(message, ms = 5000) {
  const toast = $("toast");
  clearTimeout(toastTimer);
  toast.textContent = message;
  toast.hidden = !message;
  if (message) toastTimer = setTimeout(() => { toast.hidden = true; }, ms);
}

// What a bot did for this seat while it stood in: told in a few lines once the seat is the
// player's again.
let botDid = [];
function noteStandIn(view, events, previous) {
  if (!previous || !previous.you || !standingIn(previous)) return;
  const seat = previous.you.seat;
  const nameOf = nameOfFactory(view);
  botDid.push(...events.filter((ev) => ev.seat === seat).map((ev) => sentence(ev, nameOf)).filter(Boolean));
  if (!standingIn(view) && view.you.seat === seat) {
    if (botDid.length) {
      const shown = botDid.slice(-4);
      const more = botDid.length - shown.length;
      showToast([t("standIn.summary"), ...shown, more ? t("standIn.more", { n: more }) : ""].join(" ").trim(), 15000);
    }
    botDid = [];
  }
}

store.subscribe((view, events, previous) => {
  noteStandIn(view, events, previous);
  // A seat token the server no longer knows: we are a spectator; forget it before the game.
  if (tokens.seat(code) && view.you.seat === null && view.room.status === "waiting" && previous && previous.you && previous.you.seat !== null) {
    tokens.setSeat(code, null);
  }
  // Motion: where things stand before the table is redrawn, then what moved (motion.js).
  const plan = motion.before(events, previous);
  draw();
  motion.after(plan, view);
});

// Why this tab cannot play right now (null: it can): "replaced" (the seat moved to another
// tab or device), "lost" (the connection is down), "gone" (the room closed). The table is
// dimmed and inert meanwhile, and the prompt says why.
let inactive = null;

function setInactive(kind) {
  inactive = kind;
  if (kind) body.dataset.inactive = kind;
  else delete body.dataset.inactive;
  $("game").inert = Boolean(kind);
  draw();
}

function banner(state, detail) {
  const el = $("conn-banner");
  const msg = $("conn-msg");
  if (state === "open") {
    motion.quiet(); // the patches a resume catches up with are not animated
    if (!el.hidden) {
      el.hidden = true;
      announce(t("conn.back"));
    }
    setInactive(null);
    socket.resend(store.v);
    talk.chat.greeted();
    return;
  }
  if (state === "gone" && detail === "kicked") {
    // The host freed our seat: keep watching as a spectator.
    tokens.setSeat(code, null);
    showToast(t("conn.kicked"));
    socket.connect();
    return;
  }
  el.hidden = false;
  const replaced = state === "gone" && detail === "replaced";
  const retry = $("conn-retry");
  retry.hidden = state === "gone" && !replaced;
  retry.dataset.i18n = replaced ? "conn.takeBack" : "conn.retry";
  text(retry, t(retry.dataset.i18n));
  let message = t("conn.lost", { s: detail });
  if (state === "gone") message = replaced ? t("conn.replaced") : t("conn.gone");
  text(msg, message);
  setInactive(replaced ? "replaced" : state);
}

const socket = new Socket(code, {
  token: () => tokens.seat(code),
  watcher: () => tokens.watcher(code),
  version: () => store.v,
  onStatus: banner,
  onFrame(frame) {
    switch (frame.type) {
      case "snapshot":
        store.snapshot(frame.v, frame.view);
        fillLog(frame.v);
        break;
      case "patch": {
        const before = store.v;
        if (!store.patch(frame.v, frame.ops, frame.events)) {
          store.v = null; // cannot apply: ask for a fresh snapshot
          socket.connect();
        } else if (before === null || frame.v > before) {
          logEvents(frame.v, frame.events || []);
        }
        break;
      }
      case "ack":
        if (String(frame.id).startsWith("c")) break; // a chat message: not a version to await
        awaitingV = frame.v;
        break;
      case "chat":
        talk.chat.receive(frame);
        break;
      case "hint": // what the expert would do, for us only (hint.js)
        hint.receive(frame);
        break;
      case "watcher": // who we are as a spectator: kept, so a reconnect stays the same author
        tokens.setWatcher(code, frame.token);
        talk.chat.watching(frame.author);
        break;
      case "error":
        if (talk.chat.error(frame) || hint.error(frame)) break;
        if (frame.id === null && frame.code === "forbidden" && !socket.resumed) {
          // Our seat token is no longer valid (removed, or the seat was left): watch instead.
          tokens.setSeat(code, null);
          socket.connect();
          break;
        }
        // A stale action only means the table moved on (a double click, another tab):
        // the patches already on their way show the result, so nothing to say.
        if (frame.code !== "stale") showToast(refusal(frame.code));
        break;
      case "bye": case "pong": // handled by socket.js
        break;
      default:
        reportUnknown("frame", frame.type);
    }
    settle();
  },
});

// No control here wants a double click: its second click (click count 2) could land on
// whatever the first one's answer put under the pointer ("Remove" where "Add a bot" was,
// the next cell of a path), so it is dropped before any handler sees it.
document.addEventListener("click", (e) => {
  if (e.detail > 1 && e.target.closest("button, [role=button]")) {
    e.preventDefault();
    e.stopImmediatePropagation();
  }
}, true);

// Chrome: header, help, mute, side tabs, language.
installSprite();
translate(document);
mountSwitch($("lang-switch"));
onLangChange(() => { draw(); log.render(nameOfFactory(store.view), true); });
unlockOnGesture();
const mute = $("mute-btn");
const syncMute = () => {
  mute.setAttribute("aria-pressed", String(muted()));
  mute.setAttribute("aria-label", muted() ? t("hdr.unmute") : t("hdr.mute"));
  mute.title = mute.getAttribute("aria-label");
  mute.replaceChildren(icon(muted() ? "mute" : "sound"), h("span", { class: "menu-label" }, mute.title));
};
mute.addEventListener("click", () => { setMuted(!muted()); syncMute(); });
// A phone's one-row header has no room for it: the sound switch joins the links' menu there.
const phoneHeader = window.matchMedia("(max-width: 599px)");
const placeMute = () => {
  if (phoneHeader.matches) $("nav-menu").querySelector(".nav-menu-list").prepend(mute);
  else $("nav-menu").before(mute);
};
phoneHeader.addEventListener("change", placeMute);
placeMute();
onLangChange(syncMute);
syncMute();
$("help-btn").addEventListener("click", () => {
  const help = $("help");
  help.showModal();
  // Open at the top, with the title focused (not the last control, which scrolls it down).
  help.scrollTop = 0;
  $("help-title").focus();
});
$("help-close").addEventListener("click", () => $("help").close());
$("conn-retry").addEventListener("click", () => {
  // Taking the seat back changes nothing anyone sees, so a resume would bring no frame to
  // say we are back: ask for a snapshot instead.
  if (inactive === "replaced") socket.greetedAs = undefined;
  socket.retryNow();
});
// The side's tabs (players, supply, log); the one chosen stays chosen after a reload.
const showSide = (panel) => {
  for (const other of document.querySelectorAll("#side-tabs [role=tab]")) {
    other.setAttribute("aria-selected", String(other.dataset.panel === panel));
  }
  $("side").dataset.show = panel;
};
for (const tab of document.querySelectorAll("#side-tabs [role=tab]")) {
  tab.addEventListener("click", () => {
    showSide(tab.dataset.panel);
    localStorage.setItem("cr.sideTab", tab.dataset.panel);
  });
}
const savedTab = localStorage.getItem("cr.sideTab");
if (savedTab && document.querySelector(`#side-tabs [data-panel="${CSS.escape(savedTab)}"]`)) showSide(savedTab);

// Table talk: the chat dock and the turn clock (their own modules).
const talk = {
  chat: createChat({ code, send: (frame) => socket.send(frame), view: () => store.view }),
  clock: createClock({
    nameOf: (seat) => nameOfFactory(store.view)(seat),
    announce,
    send: (frame) => socket.send(frame),
    setClock: (clock) => guarded(() => call("POST", `/api/rooms/${code}/clock`, { token: hostToken(), clock })),
  }),
};

// Turn-based tables: "e-mail me when it is my turn" (mail.js).
const mailPanel = createMailPanel({ code, token: () => tokens.seat(code) });
const turnBased = createTurnBased({ code, token: () => tokens.seat(code), nameOf: (seat) => nameOfFactory(store.view)(seat) });

body.dataset.busy = "0";
draw();
const refit = fitBoard();
store.subscribe(() => refit && refit());
socket.connect();
window.addEventListener("beforeunload", () => socket.close());
