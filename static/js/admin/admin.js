// The operators' page: /api/admin/state every few seconds, written in with textContent (names,
// codes and announcements are other people's text, never HTML); the forms post the actions.
import { h } from "../core/dom.js";
import { call } from "../core/api.js";
import { refusal } from "../core/refusals.js";
import { getLang, mountSwitch, onLangChange, t, translate } from "../lang/i18n.js";

const REFRESH_MS = 5000;
const byId = (id) => document.getElementById(id);
let last = null;

const time = (seconds) => new Intl.DateTimeFormat(getLang(), { timeStyle: "medium" })
  .format(new Date(seconds * 1000));
const stamp = (iso) => new Intl.DateTimeFormat(getLang(), { dateStyle: "short", timeStyle: "short" })
  .format(new Date(iso));

/** A table of `rows`: a header row from the keys `cols`, then one row per item. */
function fill(table, cols, rows, empty) {
  const head = h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col", text: t(c) }))));
  const body = rows.length
    ? rows.map((cells) => h("tr", {}, cells.map((c) => h("td", {}, c))))
    : [h("tr", {}, h("td", { colspan: String(cols.length), text: t(empty) }))];
  table.replaceChildren(head, h("tbody", {}, body));
}

function instances(state) {
  fill(byId("admin-instances"), ["admin.col.instance", "admin.col.health", "admin.col.version",
    "admin.col.migration", "admin.col.rooms", "admin.col.online", "admin.col.spectators"],
  state.instances.map((i) => {
    if (i.reporting === false) {
      return [i.instance, h("span", { class: "bad", text: t("admin.health.silent") }), "", "", "", "", ""];
    }
    const m = i.migration;
    const migration = m.database === m.code
      ? t("admin.migration.same", { db: m.database }) : t("admin.migration.behind", { db: m.database ?? "-", code: m.code });
    const health = i.health.status === "ok" ? t("admin.health.ok") : t("admin.health.degraded");
    return [i.instance, h("span", { class: i.health.status === "ok" ? "" : "bad", text: health }),
      `${i.version} · ${i.rules_version}`, migration, String(i.rooms.length),
      String(i.online.players), String(i.online.spectators)];
  }), "admin.health.silent");
}

function players(room) {
  return h("ul", { class: "who-list" }, room.players.map((p) => h("li", { class: p.online ? "" : "off" },
    p.bot ? `${p.name ?? ""} (${t(`bot.${p.bot}`)})` : `${p.name}${p.account ? ` #${p.account}` : ""}${p.online ? "" : ` · ${t("admin.offline")}`}`)));
}

function rooms(state) {
  const all = state.instances.flatMap((i) => i.rooms || []);
  const open = all.filter((r) => r.status === "waiting" || r.status === "playing");
  const rest = all.filter((r) => !open.includes(r));
  fill(byId("admin-rooms"), ["admin.col.code", "admin.col.status", "admin.col.mode", "admin.col.players",
    "admin.col.spectators", "admin.col.age", "admin.col.instance", "admin.col.act"],
  [...open, ...rest].map((r) => [
    h("a", { href: `/r/${r.code}`, text: r.code }), t(`admin.status.${r.status}`),
    t(`option.mode.${r.mode}`).split(" — ")[0], players(r), String(r.spectators),
    t("admin.age", { n: Math.floor(r.age_s / 60) }), r.instance,
    open.includes(r) ? h("button", { class: "btn small danger", type: "button", text: t("admin.close"),
      "aria-label": `${t("admin.close")} ${r.code}`, onclick: (e) => closeRoom(r.code, e.currentTarget) }) : "",
  ]), "admin.rooms.none");
}

function services(state) {
  const mail = byId("admin-mail");
  const bots = byId("admin-bots");
  const mails = state.instances.filter((i) => i.mail);
  mail.replaceChildren(...mails.map((i) => h("p", { class: "small" }, `${i.instance}: `, i.mail.on
    ? t("admin.mail.state", { smtp: i.mail.smtp, state: t(`admin.mail.${i.mail.smtp_state}`), backlog: i.mail.backlog, sent: i.mail.sent })
    : t("admin.mail.off"))));
  bots.replaceChildren(...state.instances.filter((i) => i.reporting !== false).map((i) => h("p", { class: "small" },
    `${i.instance}: `, i.bots ? i.bots.workers.map((w, n) => t("admin.bots.worker", {
      n: n + 1, moves: w.moves_waiting, hints: w.hints_waiting, now: t(`admin.bots.${w.thinking || "idle"}`) })).join(" ")
      : t("admin.bots.off"))));
}

function refusals(state) {
  const reports = state.instances.filter((i) => i.refusals);
  const hits = reports.reduce((n, i) => n + i.refusals.rate_limit_hits, 0);
  byId("admin-hits").textContent = t("admin.refusals.hits", { n: hits });
  const recent = reports.flatMap((i) => i.refusals.recent.map((r) => ({ ...r, instance: i.instance })))
    .sort((a, b) => b.at - a.at).slice(0, 50);
  fill(byId("admin-refusals"), ["admin.col.time", "admin.col.where", "admin.col.refusal", "admin.col.address", "admin.col.instance"],
    recent.map((r) => [time(r.at), `${t(`admin.where.${r.where}`)}${r.path ? ` ${r.path}` : ""}`,
      h("span", { class: r.rate_limit ? "bad" : "", title: /^\d+$/.test(r.code) ? "" : refusal(r.code),
        text: `${r.code}${r.rate_limit ? ` (${t("admin.rateLimit")})` : ""}` }), r.client || "", r.instance]),
    "admin.refusals.none");
}

function audit(state) {
  fill(byId("admin-audit"), ["admin.col.time", "admin.col.by", "admin.col.did", "admin.col.target", "admin.col.detail"],
    state.audit.map((d) => [stamp(d.at), d.by ?? t("admin.audit.host"), t(`admin.did.${d.action}`), d.target || "", d.detail || ""]),
    "admin.audit.none");
}

function render() {
  if (!last) return;
  const state = last;
  byId("admin-me").textContent = t("admin.signedIn", { name: state.me.name });
  byId("admin-status").textContent = t("admin.updated", { time: time(state.at) });
  byId("announce-now").replaceChildren(state.announcement
    ? h("span", {}, `${t("admin.announce.now")} `, h("q", { id: "announce-shown", text: state.announcement }))
    : t("admin.announce.none"));
  byId("admin-muted").textContent = state.muted.length
    ? t("admin.accounts.muted", { list: state.muted.map((id) => `#${id}`).join(", ") }) : t("admin.accounts.noneMuted");
  instances(state);
  rooms(state);
  services(state);
  refusals(state);
  audit(state);
}

async function refresh() {
  try {
    last = await call("GET", "/api/admin/state");
    render();
  } catch {
    byId("admin-status").textContent = t("admin.unreachable");
  }
}

/** Post an action; the page refreshes, then says (to screen readers too) whether it was done. */
async function act(path, body, button) {
  if (button) button.disabled = true;  // one request at a time per button
  byId("admin-said").textContent = "";
  try {
    await call("POST", path, body);
    await refresh();
    byId("admin-said").textContent = t("admin.done");
  } catch (err) {
    byId("admin-said").textContent = t("admin.failed", { why: refusal(err.code) });
  } finally {
    if (button) button.disabled = false;
  }
}

function closeRoom(code, button) {
  if (window.confirm(t("admin.confirmClose", { code }))) act(`/api/rooms/${code}/operator-close`, {}, button);
}

byId("announce-form").addEventListener("submit", (e) => {
  e.preventDefault();
  act("/api/admin/announcement", { text: byId("announce-text").value }, e.submitter);
});
byId("announce-clear").addEventListener("click", (e) => act("/api/admin/announcement", { text: "" }, e.currentTarget));
byId("account-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const who = byId("account-who").value.trim();
  if (who) act("/api/admin/accounts", { who, action: e.submitter.value }, e.submitter);
});

translate(document);
mountSwitch(byId("lang-switch"));
onLangChange(() => { translate(document); render(); });
refresh();
setInterval(refresh, REFRESH_MS);
