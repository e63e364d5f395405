// The lobby: create a table, join by code, see open and live tables (refreshed).
import { call, displayCode, normalizeCode, tokens } from "./api.js";
import { h } from "./dom.js";
import { mountSwitch, onLangChange, t, translate } from "./i18n.js";
import { installSprite } from "./icons.js";
import { refusal } from "./refusals.js";
import { fillClockSelect, parseClock } from "./clock.js";

const $ = (id) => document.getElementById(id);
const form = $("create-form");

function startingOptions() {
  const n = Number(form.elements.players.value);
  const select = $("starting-player");
  const keep = select.value;
  select.replaceChildren(h("option", { value: "", text: t("lobby.starting.random") }));
  for (let s = 0; s < n; s++) select.append(h("option", { value: String(s), text: t("lobby.starting.seat", { n: s + 1 }) }));
  select.value = Number(keep) < n ? keep : "";
}

form.addEventListener("change", (e) => {
  if (e.target.name === "players") startingOptions();
});

// Disabled from the first click until the answer: a double click opens one table.
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const button = form.querySelector("button[type=submit]");
  if (button.disabled) return;
  button.disabled = true;
  $("create-error").textContent = "";
  const data = new FormData(form);
  const sp = data.get("starting_player");
  try {
    const res = await call("POST", "/api/rooms", {
      players: Number(data.get("players")),
      starter_orders: data.get("starter_orders") === "on",
      starting_player: sp === "" || sp === null ? null : Number(sp),
      public: data.get("public") === "1",
      clock: parseClock(data.get("clock")),
      rated: data.get("rated") === "on",
    });
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

function renderRooms(list, rooms, kind) {
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
        "aria-label": t(kind === "open" ? "lobby.openRoom" : "lobby.watchRoom", { code: shown }), text: shown }),
      h("span", { class: "room-meta", text: t("lobby.seated", { n: seated, total: r.seats.length }) }),
      names ? h("span", { class: "room-names", text: names }) : null);
  }));
}

async function refresh() {
  try {
    const rooms = await call("GET", "/api/rooms");
    renderRooms($("open-rooms"), rooms.open || [], "open");
    renderRooms($("live-rooms"), rooms.live || [], "live");
  } catch {
    // keep what is shown; the next refresh may work
  }
}

installSprite();
translate(document);
mountSwitch($("lang-switch"));
startingOptions();
const clockChoice = () => fillClockSelect($("clock-choice"), parseClock($("clock-choice").value));
clockChoice();
onLangChange(() => { startingOptions(); clockChoice(); refresh(); });
refresh();
setInterval(refresh, 15000);
