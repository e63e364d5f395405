// The table page: wires the store, the socket, the view and the intents together. Each
// concern is its own module: requests.js (the waiting room's HTTP), pending.js (the action
// in flight), frames.js (each frame from the server), connection.js (the banner),
// log-panel.js, notes.js (toast, live region), take-back.js and chrome.js (header, tabs).
import { displayCode, tokens } from "../core/api.js";
import { text } from "../core/dom.js";
import { onLangChange, t } from "../lang/i18n.js";
import { fitBoard, fitChat, fitOpponents, fitOwnCards, keepRoomForBar, keepToastClear, showFinalWhenItComes, supplyUnderBoard } from "./layout.js";
import { emptySelection, intents, isMyTurn, normalize } from "./intents.js";
import { refusal } from "../core/refusals.js";
import { chime } from "./sound.js";
import { Socket } from "./socket.js";
import { Store } from "./store.js";
import { Motion } from "./motion.js";
import { createTable, nameOfFactory, renderTable } from "./view.js";
import { createChat } from "../talk/chat.js";
import { createHint } from "./hint.js";
import { keepBarNotesClear } from "./bar-notes.js";
import { createZoom } from "./zoom.js";
import { cardNode } from "./view-player.js";
import { createClock } from "./clock.js";
import { createMailPanel } from "./mail.js";
import { createTurnBased } from "./turnbased.js";
import { titleAlerts, yourTurn } from "./notify.js";
import { createNotes } from "./notes.js";
import { createRequests } from "./requests.js";
import { createPending } from "./pending.js";
import { createLogPanel } from "./log-panel.js";
import { createTakeBack } from "./take-back.js";
import { createConnection } from "./connection.js";
import { frameHandler } from "./frames.js";
import { installChrome, installControls } from "./chrome.js";

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
const view = () => store.view;
let sel = emptySelection(); // what the player has picked on the board so far
let wasMine = false; // whether it was this seat's turn at the last draw

const notes = createNotes({ view });
const requests = createRequests({ code, reconnect: () => socket.connect(), draw, toast: notes.toast });
const pending = createPending({
  act: (action, v) => socket.act(action, v),
  unanswered: () => socket.pending.size,
  version: () => store.v,
  blocked: () => Boolean(connection.inactive()),
  before: (action) => {
    motion.finishAll(); // an action never waits for motion
    hint.acted(action); // a hint is spent once the player acts (a walk once it is walked)
  },
  draw,
});
const send = (action) => pending.send(action);

const handlers = {
  cell(cell) {
    const a = current().cells.get(cell);
    if (a) send(a.action);
    else if (!isMyTurn(store.view)) notes.whoseTurn();
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
  waiting: requests.waiting,
  again: requests.again,
};

function current() {
  return intents(store.view, sel);
}

const parts = createTable(handlers);
const hint = createHint({ send: (frame) => socket.send(frame), refusal });
const zoom = createZoom(parts.game, cardNode); // small chips shown full size (zoom.js)

function draw() {
  const view = store.view;
  sel = normalize(view, sel);
  const acts = intents(view, sel);
  const isHost = requests.isHost(view);
  renderTable(parts, view, acts, sel, { isHost, token: tokens.seat(code) });
  const inactive = connection.inactive();
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
    notes.announce(t("ev.yourTurn"));
  }
  talk.clock.update(view, isHost);
  mailPanel.update(view);
  turnBased.update(view);
  talk.chat.update(view);
  log.update(view);
  takeBack.update(view);
  hint.update(view);
  zoom.sync();
  wasMine = mine;
  $("device-link").value = tokens.seat(code) ? `${location.origin}${location.pathname}#seat=${encodeURIComponent(tokens.seat(code))}` : "";
  $("help-device").hidden = !tokens.seat(code);
  document.dispatchEvent(new CustomEvent("table:drawn", { detail: view })); // a lesson listens (learn/)
}

const log = createLogPanel({ code, view, announce: notes.announce });
const takeBack = createTakeBack({ code, view });
const motion = new Motion();

store.subscribe((view, events, previous) => {
  notes.standIn(view, events, previous);
  // A seat token the server no longer knows: we are a spectator; forget it before the game.
  if (tokens.seat(code) && view.you.seat === null && view.room.status === "waiting" && previous && previous.you && previous.you.seat !== null) {
    tokens.setSeat(code, null);
  }
  // Motion: where things stand before the table is redrawn, then what moved (motion.js).
  const plan = motion.before(events, previous);
  draw();
  motion.after(plan, view);
});

const connection = createConnection({
  code,
  socket: () => socket,
  draw,
  announce: notes.announce,
  toast: notes.toast,
  quiet: () => motion.quiet(),
  opened: () => {
    socket.resend(store.v);
    talk.chat.greeted();
  },
});

const socket = new Socket(code, {
  token: () => tokens.seat(code),
  watcher: () => tokens.watcher(code),
  version: () => store.v,
  onStatus: connection.status,
  onFrame: frameHandler({
    code, store, socket: () => socket, log, pending, hint, toast: notes.toast,
    chat: { receive: (f) => talk.chat.receive(f), watching: (a) => talk.chat.watching(a), error: (f) => talk.chat.error(f) },
  }),
});

// Chrome: header, help, mute, side tabs, language.
installChrome();
onLangChange(() => { draw(); log.rerender(); });
installControls();

// Table talk: the chat dock and the turn clock (their own modules).
const talk = {
  chat: createChat({ code, send: (frame) => socket.send(frame), view }),
  clock: createClock({
    nameOf: (seat) => nameOfFactory(store.view)(seat),
    announce: notes.announce,
    send: (frame) => socket.send(frame),
    setClock: requests.setClock,
  }),
};

// Turn-based tables: "e-mail me when it is my turn" (mail.js).
const mailPanel = createMailPanel({ code, token: () => tokens.seat(code) });
const turnBased = createTurnBased({ code, token: () => tokens.seat(code), nameOf: (seat) => nameOfFactory(store.view)(seat) });

body.dataset.busy = "0";
draw();
const refit = fitBoard();
keepRoomForBar();
fitChat();
fitOwnCards();
fitOpponents();
keepToastClear();
keepBarNotesClear();
supplyUnderBoard();
supplyUnderBoard();
showFinalWhenItComes();
store.subscribe(() => refit && refit());
socket.connect();
window.addEventListener("beforeunload", () => socket.close());
