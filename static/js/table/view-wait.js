// The waiting room: share link, seats (sit, leave, remove, bots, host), start, and the
// "continue on another device" link. Built once; the seat list is reconciled by seat.
import { lockSeatName } from "../account/account-nav.js";
import { attr, h, syncList, text } from "../core/dom.js";
import { t } from "../lang/i18n.js";
import { seatNames } from "../core/names.js";
import { SEAT_LETTERS } from "../core/names.js";
import { reportUnknown, rulesData } from "../core/rules-data.js";

// A fair opponent for a first game: random is for tests, strong thinks for a while.
const DEFAULT_LEVEL = "greedy";

/**
 * @param {HTMLElement} section
 * @param {Record<string, Function>} handlers
 * @returns {Record<string, any>} the waiting room's parts, for updateWaiting
 */
export function createWaiting(section, handlers) {
  const nameInput = h("input", { id: "player-name", type: "text", maxlength: String(rulesData().name_max), autocomplete: "nickname" });
  nameInput.value = localStorage.getItem("cr.name") || "";
  const link = h("input", { id: "share-link", type: "text", readonly: true });
  const copyBtn = h("button", { type: "button", class: "btn", onclick: () => handlers.copy(link, copyBtn) });
  const device = h("input", { id: "wait-device-link", type: "text", readonly: true });
  const parts = {
    title: h("h2", {}),
    shareLabel: h("label", { for: "share-link" }),
    link, copyBtn, nameInput,
    nameLabel: h("label", { for: "player-name" }),
    seats: h("ul", { class: "seat-list" }),
    note: h("p", { class: "wait-note", role: "status" }),
    start: h("button", { type: "button", class: "btn primary start-btn", onclick: handlers.start }),
    leave: h("button", { type: "button", class: "btn", onclick: handlers.leave }),
    deviceBox: h("details", { class: "device" }),
    deviceSummary: h("summary", {}),
    deviceHelp: h("p", {}),
    device,
    error: h("p", { class: "form-error", role: "alert" }),
    // The table's options, and the turn clock with them (clock.js mounts it here).
    optionsTitle: h("h3", {}),
    optionsList: h("ul", { class: "wait-option-list" }),
  };
  parts.options = h("div", { class: "wait-options", id: "wait-options" }, parts.optionsTitle, parts.optionsList);
  parts.deviceBox.append(parts.deviceSummary, parts.deviceHelp, device);
  section.replaceChildren(
    parts.title,
    h("div", { class: "share" }, parts.shareLabel, h("div", { class: "row" }, link, copyBtn)),
    h("div", { class: "name-row" }, parts.nameLabel, nameInput),
    parts.seats, parts.options, parts.error, parts.note,
    h("div", { class: "row" }, parts.start, parts.leave),
    parts.deviceBox,
  );
  parts.handlers = handlers;
  return parts;
}

/**
 * @param {Record<string, any>} parts from createWaiting
 * @param {import("../core/types.js").View} view
 * @param {Record<string, any>} ctx
 * @returns {void}
 */
// The table's options in words, one line each, from the options' own description
// (/api/rules-data `options`); the clock has a line of its own (clock.js).
function optionLines(chosen) {
  const lines = [];
  for (const o of rulesData().options) {
    const value = chosen[o.name] ?? o.default;
    const choice = o.choices.find((c) => c.value === value);
    switch (o.control) {
      case "count": lines.push(`${t(`option.${o.name}`)}: ${value}`); break;
      case "choice": lines.push(`${t(`option.${o.name}`)}: ${t(choice.key)}`); break;
      case "check": if (t(choice.key)) lines.push(t(choice.key)); break;
      case "seat":
        lines.push(`${t(`option.${o.name}`)}: ${value === null ? t("lobby.starting.random") : t("lobby.starting.seat", { n: value + 1 })}`);
        break;
      case "clock": break;
      default: reportUnknown("option control", o.control);
    }
  }
  return lines;
}

export function updateWaiting(parts, view, ctx) {
  const room = view.room;
  const me = view.you.seat;
  // One format for every link to a table: the code as shown, with its dash.
  parts.link.value = `${location.origin}/r/${room.code}`;
  text(parts.title, t("wait.title"));
  text(parts.shareLabel, t("wait.share"));
  text(parts.copyBtn, t("wait.copy"));
  text(parts.nameLabel, t("wait.name"));
  const free = room.seats.filter((s) => s.name === null && !s.bot);
  parts.nameInput.closest(".name-row").hidden = me !== null || free.length === 0;
  lockSeatName(parts.nameInput);  // signed in: the account's name

  text(parts.optionsTitle, t("wait.options"));
  const lines = optionLines(room.options);
  if (parts.optionsList.dataset.sig !== JSON.stringify(lines)) {
    parts.optionsList.dataset.sig = JSON.stringify(lines);
    parts.optionsList.replaceChildren(...lines.map((line) => h("li", { text: line })));
  }

  const names = seatNames(room.seats);
  syncList(parts.seats, room.seats, (s) => s.seat, () => h("li", { class: "seat" }), (li, s) => {
    const taken = s.name !== null || s.bot;
    const bits = [];
    const label = h("span", { class: "seat-who" },
      h("span", { class: `badge seat-${s.seat}`, "aria-hidden": "true" }, SEAT_LETTERS[s.seat]), " ");
    if (taken) {
      label.append(h("span", { class: "seat-name", text: names[s.seat] }));
      if (s.verified) label.append(h("span", { class: "verified", role: "img", title: t("acct.verified"), "aria-label": t("acct.verified"), text: "✓" }));
      const tags = [];
      if (s.seat === me) tags.push(t("wait.you"));
      if (s.seat === room.host_seat) tags.push(t("wait.host"));
      if (tags.length) label.append(h("span", { class: "seat-tags", text: ` (${tags.join(", ")})` }));
      if (!s.bot) label.append(h("span", { class: `presence${s.connected ? " on" : ""}`, role: "img", "aria-label": t(s.connected ? "pb.online" : "pb.offline") }));
    } else {
      label.append(h("span", { class: "seat-free", text: t("wait.free") }));
    }
    bits.push(label);
    const ctrls = h("span", { class: "seat-ctrls" });
    if (!taken && me === null) {
      ctrls.append(h("button", { type: "button", class: "btn primary", text: t("wait.sit", { n: s.seat + 1 }), onclick: () => parts.handlers.sit(s.seat, parts.nameInput.value) }));
    }
    if (ctx.isHost && !taken) {
      const sel = h("select", { "aria-label": t("wait.botLevel", { n: s.seat + 1 }) },
        ...rulesData().bot_levels.map((l) => h("option", { value: l, text: t(`bot.${l}`), selected: l === DEFAULT_LEVEL })));
      sel.value = DEFAULT_LEVEL;
      ctrls.append(sel, h("button", { type: "button", class: "btn", text: t("wait.addBot", { n: s.seat + 1 }), onclick: () => parts.handlers.bot(s.seat, sel.value) }));
    }
    if (ctx.isHost && taken && s.seat !== me) {
      const who = names[s.seat];
      ctrls.append(h("button", { type: "button", class: "btn danger", text: t("wait.kick", { name: who }), onclick: () => parts.handlers.kick(s.seat) }));
      if (!s.bot && s.seat !== room.host_seat) {
        ctrls.append(h("button", { type: "button", class: "btn", text: t("wait.makeHost", { name: who }), onclick: () => parts.handlers.host(s.seat) }));
      }
    }
    bits.push(ctrls);
    // Rebuild the row's content only when it differs (keeps focus on unchanged rows).
    const sig = JSON.stringify([s, names[s.seat], me, ctx.isHost, room.host_seat, t("wait.free"), t("acct.verified")]);
    if (li.dataset.sig !== sig) {
      li.dataset.sig = sig;
      li.replaceChildren(...bits);
    }
  });

  const full = room.seats.every((s) => s.name !== null || s.bot);
  parts.start.hidden = !ctx.isHost;
  parts.start.disabled = !full;
  text(parts.start, t("wait.start"));
  parts.leave.hidden = me === null;
  text(parts.leave, t("wait.leave"));
  // The note says what happens next, for this viewer, in this state.
  const open = room.seats.filter((s) => s.name === null && !s.bot).length;
  let note;
  if (ctx.isHost) note = full ? t("wait.readyHost") : t("wait.needFull", { n: open });
  else if (me === null) note = full ? t("wait.full") : t("wait.pickSeat", { n: open });
  else note = full ? t("wait.readyGuest") : t("wait.hostStarts", { n: open });
  text(parts.note, note);
  parts.deviceBox.hidden = me === null || !ctx.token;
  text(parts.deviceSummary, t("wait.device"));
  text(parts.deviceHelp, t("wait.deviceHelp"));
  parts.device.value = ctx.token ? `${location.origin}${location.pathname}#seat=${encodeURIComponent(ctx.token)}` : "";
  attr(parts.device, "aria-label", t("wait.device"));
}
