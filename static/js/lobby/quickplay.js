// Play now and the open seeks: one socket to /lobby/socket (server/quickplay) brings the list
// of seeks and open tables as it changes (no polling), takes "play" and "cancel", and says
// where the player was seated; the seat token is kept like any other (core/api.js).
import { tokens } from "../core/api.js";
import { h } from "../core/dom.js";
import { refusal } from "../core/refusals.js";
import { onLangChange, t } from "../lang/i18n.js";
import { clockName } from "../table/clock.js";

const $ = (id) => document.getElementById(id);
const form = $("qp-form");
const status = $("qp-status");
const play = $("qp-play");
const cancel = $("qp-cancel");
const nameInput = /** @type {HTMLInputElement} */ ($("player-name"));
nameInput.value = nameInput.value || localStorage.getItem("cr.name") || "";

let socket = null;
let last = null;       // the last lobby frame
let waitingSince = 0;  // while this page waits for a table
let ticker = 0;
let retry = 500;

function send(frame) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
}

function setWaiting(on) {
  waitingSince = on ? Date.now() : 0;
  play.disabled = on;
  cancel.hidden = !on;
  clearInterval(ticker);
  if (on) ticker = setInterval(showWaiting, 1000);
  showWaiting();
}

function showWaiting() {
  status.textContent = waitingSince ? t("qp.waiting", { s: Math.round((Date.now() - waitingSince) / 1000) }) : "";
}

function ask(extra = {}) {
  const bots = form.elements["qp-bots"].value;
  const name = nameInput.value.trim();
  if (name && !nameInput.readOnly) localStorage.setItem("cr.name", name);
  send({
    type: "play",
    size: Number(form.elements["qp-size"].value),
    mode: form.elements["qp-mode"].value,
    rated: form.elements["qp-rated"].value === "true",
    bots_after: bots ? Number(bots) : null,
    name: name || null,
    ...extra,
  });
  setWaiting(true);
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  if (!play.disabled) ask();
});
cancel.addEventListener("click", () => send({ type: "cancel" }));

// A seek's line: its size, mode, clock, rated or casual, and the ratings of those in it.
function seekText(s) {
  const size = s.size ? t("qp.sizeN", { n: s.size }) : t("qp.sizeAny");
  const ratings = s.ratings.map((r) => (r === null ? t("qp.guest") : String(r))).join(", ");
  return [size, t(s.mode === "turn_based" ? "qp.turnBased" : "qp.realtime"), clockName(s.clock),
    t(s.rated ? "qp.rated" : "qp.casual"), ratings].join(" · ");
}

function joinSeek(s) {
  // Joining takes the seek's own size, mode and kind of game.
  form.elements["qp-mode"].value = s.mode;
  form.elements["qp-rated"].value = String(s.rated);
  if (s.size) form.elements["qp-size"].value = String(s.size);
  ask({ size: s.size, mode: s.mode, rated: s.rated, join: s.id });
}

function render() {
  const list = $("qp-list");
  const seeks = last ? last.seeks : [];
  const tables = last ? last.tables : [];
  if (!seeks.length && !tables.length) {
    list.replaceChildren(h("li", { class: "none", text: t("lobby.none") }));
    return;
  }
  const items = seeks.map((s) => {
    const text = seekText(s);
    const go = h("button", { type: "button", class: "btn small", text: t("qp.join"), "aria-label": t("qp.joinSeek", { what: text }) });
    go.disabled = !!waitingSince;
    go.addEventListener("click", () => joinSeek(s));
    return h("li", { class: "seek" }, h("span", { class: "room-meta", text }), go);
  });
  for (const r of tables) {
    const kind = [t(r.mode === "turn_based" ? "qp.turnBased" : "qp.realtime"), t(r.rated ? "qp.rated" : "qp.casual")].join(" · ");
    items.push(h("li", { class: "table" },
      h("a", { class: "room-link", href: `/r/${r.code}`, "aria-label": t("qp.openTable", { code: r.code }), text: r.code }),
      h("span", { class: "room-meta", text: `${t("lobby.seated", { n: r.seated, total: r.players })} · ${kind}` })));
  }
  list.replaceChildren(...items);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/lobby/socket`);
  socket.addEventListener("open", () => { retry = 500; });
  socket.addEventListener("message", (e) => {
    const frame = JSON.parse(e.data);
    switch (frame.type) {
      case "lobby": last = frame; render(); break;
      case "queued": break;
      case "cancelled": setWaiting(false); render(); break;
      case "seated":
        tokens.setSeat(frame.code, frame.seat_token);
        clearInterval(ticker);
        status.textContent = t("qp.seated");
        location.href = frame.url;
        break;
      case "error":
        setWaiting(false);
        status.textContent = refusal(frame.code);
        render();
        break;
      default: break;
    }
  });
  socket.addEventListener("close", () => {
    // A seek leaves the queue with its socket: waiting stops, and the list comes back.
    if (waitingSince) { setWaiting(false); status.textContent = t("qp.lost"); }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  });
}

onLangChange(() => { render(); showWaiting(); });
connect();
