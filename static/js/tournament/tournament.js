// The tournament page: its facts, standings and rounds rendered from the state the page
// embeds, then from each `tournament` frame of its socket (/tournaments/{id}/socket: the
// server sends the state whenever it changes; nothing is polled). Enter and withdraw.
import { mountSwitch, onLangChange, t, getLang } from "../lang/i18n.js";
import { installSprite } from "../core/icons.js";
import { localize } from "../lang/localize.js";
import { call, tokens } from "../core/api.js";
import { refusal } from "../core/refusals.js";
import { h } from "../core/dom.js";
import { copyField } from "../core/copy.js";

const embedded = JSON.parse(document.getElementById("tour-data").textContent);
const { you, ...embeddedDoc } = embedded;
let doc = embedded;
let shown = JSON.stringify(embeddedDoc); // what a frame carries: the state without `you`
const params = new URLSearchParams(location.search);

function num(x) {
  return new Intl.NumberFormat(getLang(), { maximumFractionDigits: 1 }).format(x);
}

function clockText(d) {
  if (d.mode === "turn_based") {
    const days = Math.round(d.clock.turn / 86400);
    return days >= 1 ? t("tour.daysMove", { n: days }) : t("tour.hoursMove", { n: Math.round(d.clock.turn / 3600) });
  }
  return t("tour.secondsMove", { n: d.clock.turn });
}

function facts(d) {
  const parts = [t(`tour.system.${d.system}`), t("tour.size", { n: d.table_size }),
    t("tour.roundsOf", { n: d.rounds }), t(`tour.mode.${d.mode}`), clockText(d),
    t(d.rated ? "tour.rated" : "tour.casual")];
  if (d.invite_only) parts.push(t("tour.inviteOnly"));
  return parts.join(" · ");
}

function stateText(d) {
  const when = new Intl.DateTimeFormat(getLang(), { dateStyle: "medium", timeStyle: "short" })
    .format(new Date(d.starts_at));
  if (d.status === "open") return t("tour.opensAt", { when, n: d.standings.length });
  if (d.status === "running") return t("tour.roundNow", { round: d.round, rounds: d.rounds });
  return t(`tour.state.${d.status}`);
}

// "Link copied" stays this long (or until the user enters or withdraws), whatever frames
// come meanwhile: the action area is built again on each one.
const COPIED_FOR = 4000;
// The last refusal of the user's own Enter/Withdraw: shown until they act again, whatever
// frames redraw the actions meanwhile (a frame may arrive just after the refusal).
let refused = null;
let copiedUntil = 0;
let copiedTimer = null;

function markCopied(on) {
  copiedUntil = on ? Date.now() + COPIED_FOR : 0;
  clearTimeout(copiedTimer);
  if (on) copiedTimer = setTimeout(() => markCopied(false), COPIED_FOR);
  const button = document.getElementById("tour-copy");
  if (button) button.textContent = t(on ? "wait.copied" : "wait.copy");
}

function renderActions(d) {
  const box = document.getElementById("tour-actions");
  box.replaceChildren();
  if (you.invite_url) {
    const link = new URL(you.invite_url, location.origin).href;
    const field = h("input", { class: "tour-invite-url", readonly: true, value: link, "aria-label": t("tour.inviteLink") });
    const copy = h("button", { class: "btn small", type: "button", id: "tour-copy",
      text: t(Date.now() < copiedUntil ? "wait.copied" : "wait.copy"),
      onclick: async () => { await copyField(field); markCopied(true); } });
    box.append(h("p", { class: "small tour-invite" }, t("tour.inviteLink"), " ", field, copy));
  }
  if (you.id === null) {
    box.append(h("a", { class: "btn", href: `/account?next=${encodeURIComponent(location.pathname + location.search)}`, text: t("tour.signInToEnter") }));
    return;
  }
  const mine = d.standings.find((s) => s.id === you.id);
  const entered = mine !== undefined && !mine.withdrawn;
  if (d.status === "open" && !entered) {
    box.append(h("button", { class: "btn primary", id: "tour-enter", text: t("tour.enter"), onclick: (e) => act(e, "join") }));
  } else if ((d.status === "open" || d.status === "running") && entered) {
    box.append(h("button", { class: "btn", id: "tour-withdraw", text: t("tour.withdraw"), onclick: (e) => act(e, "withdraw") }));
  }
  box.append(h("p", { class: "tour-error", id: "tour-error", role: "alert", hidden: !refused,
    text: refused ? refusal(refused.code) || refused.message : null }));
}

async function act(event, what) {
  const button = event.currentTarget;
  button.disabled = true;
  markCopied(false);
  refused = null;
  document.getElementById("tour-error").hidden = true;
  try {
    const body = what === "join" && params.get("invite") ? { invite: params.get("invite") } : {};
    await call("POST", `/api/tournaments/${doc.id}/${what}`, body);
  } catch (err) {
    refused = { code: err.code, message: err.message };
    const box = document.getElementById("tour-error");
    box.textContent = refusal(err.code) || err.message;
    box.hidden = false;
    button.disabled = false;
  }
}

function renderStandings(d) {
  const rows = d.standings.map((s) => h("tr", { class: s.id === you.id ? "tour-you" : null },
    h("td", { text: String(s.rank) }),
    h("td", {}, h("a", { class: "player-link", href: `/u/${encodeURIComponent(s.name)}`, text: s.name }),
      s.withdrawn ? h("span", { class: "tour-tag", text: t("tour.withdrawn") }) : null),
    h("td", { text: num(s.points) }),
    h("td", { text: num(s.buchholz) }),
    h("td", { text: String(s.firsts) }),
    h("td", { text: String(s.games) })));
  document.getElementById("tour-rows").replaceChildren(...rows);
}

function tableItem(table) {
  const players = table.players.map((p) => h("li", { class: p.id === you.id ? "tour-you" : null },
    h("span", { class: "tour-seat-name", text: p.name }),
    p.points === null ? null : h("span", { class: "tour-result", text: t("tour.placePoints", { place: p.place ?? "-", points: num(p.points) }) })));
  const head = table.bye
    ? h("span", { class: "tour-table-name", text: t("tour.bye") })
    : h("span", { class: "tour-table-name", text: t("tour.table", { n: table.number }) });
  const seated = table.players.some((p) => p.id === you.id);
  const link = table.code && !table.ended
    ? h("a", { class: "btn small", href: `/r/${table.code}`, text: t(seated ? "tour.play" : "tour.watch"), dataset: seated ? { code: table.code, seat: "mine" } : {} })
    : table.code ? h("a", { class: "small", href: `/r/${table.code}`, text: t("tour.result") }) : null;
  return h("li", { class: "tour-table" + (table.ended ? " over" : "") }, h("div", { class: "tour-table-head" }, head, link), h("ol", { class: "tour-seats" }, players));
}

function renderRounds(d) {
  const list = document.getElementById("tour-round-list");
  if (!d.rounds_played.length) {
    list.replaceChildren(h("p", { class: "none", text: t("tour.noRounds") }));
    return;
  }
  const rounds = [...d.rounds_played].reverse().map((r) => h("section", { class: "tour-round" },
    h("h3", { text: t("tour.round", { n: r.number }) }),
    h("ul", { class: "tour-tables" }, r.tables.map(tableItem))));
  list.replaceChildren(...rounds);
}

// A seated player's "Play" first takes the seat on this device (their account's seat).
document.addEventListener("click", async (event) => {
  const a = event.target.closest("a[data-seat]");
  if (!a) return;
  event.preventDefault();
  try {
    const got = await call("POST", `/api/rooms/${a.dataset.code}/rejoin`, {});
    tokens.setSeat(a.dataset.code, got.seat_token);
    location.href = got.url;
  } catch {
    location.href = a.href;
  }
});

function render() {
  document.getElementById("tour-facts").textContent = facts(doc);
  document.getElementById("tour-state").textContent = stateText(doc);
  renderActions(doc);
  renderStandings(doc);
  renderRounds(doc);
}

function listen() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/tournaments/${doc.id}/socket`);
  socket.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type !== "tournament") return;
    const next = JSON.stringify(frame.tournament);
    if (next === shown) return; // the first frame repeats the page's own: nothing to redraw
    shown = next;
    doc = frame.tournament;
    render();
  });
  socket.addEventListener("close", () => setTimeout(listen, 3000));
}

installSprite();
localize();
render();
mountSwitch(document.getElementById("lang-switch"));
onLangChange(() => { localize(); render(); });
listen();
