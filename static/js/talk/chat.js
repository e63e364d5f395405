// Table chat: a dock with the messages, quick reactions and a text box. Messages are plain
// text (textContent only); new ones are read out through a live region of their own. Mutes
// are per viewer, kept in localStorage and told to the server again after every hello.
import { h, text } from "../core/dom.js";
import { onLangChange, t } from "../lang/i18n.js";
import { icon } from "../core/icons.js";
import { mountAlerts } from "../table/notify.js";
import { rulesData } from "../core/rules-data.js";

const KEEP = 200; // messages kept on screen

// One talk item of a finished game (replay): a chat message or a timeout, as a sentence.
/**
 * @param {{kind?: string, seat?: number | null, name?: string, author?: string, reaction?: string,
 *   text?: string, channel?: string, away?: boolean}} item
 * @param {import("../core/types.js").NameOf} nameOf
 * @returns {string}
 */
export function talkLine(item, nameOf) {
  if (item.kind === "timeout") return t(item.away ? "ev.timeoutAway" : "ev.timeout", { name: nameOf(item.seat) });
  const name = item.seat !== null && item.seat !== undefined ? (item.name || nameOf(item.seat)) : t("talk.spectator", { n: String(item.author).slice(1) });
  const said = item.reaction ? t(`talk.reactionName.${item.reaction}`) : item.text;
  const line = t("talk.said", { name, text: said });
  return item.channel === "spectators" ? `${t("talk.spectators")} · ${line}` : line;
}

function mutesKey(code) { return `cr.mutes.${code}`; }

/**
 * The table talk dock.
 * @param {{code: string, send: (frame: object) => boolean, view: () => import("../core/types.js").View | null}} deps
 * @returns {{receive(frame: {messages: object[], recent?: boolean}): void,
 *   error(frame: {id?: unknown, code: string}): boolean, greeted(): void, watching(author: string): void,
 *   update(v: import("../core/types.js").View): void}}
 */
export function createChat({ code, send, view }) {
  const mutes = new Set(JSON.parse(localStorage.getItem(mutesKey(code)) || "[]"));
  let messages = [];
  let unread = 0;
  let nextId = 1;
  let watcherAuthor = null; // our author as a spectator ("w3"), from the server

  const toggle = h("button", { type: "button", id: "talk-toggle", class: "btn small talk-toggle", "aria-expanded": "false", "aria-controls": "talk" });
  const title = h("h2", { id: "talk-title" });
  const close = h("button", { type: "button", class: "btn small talk-close" });
  const list = h("ol", { id: "talk-list", class: "talk-list" });
  const empty = h("p", { class: "talk-empty" });
  const note = h("p", { class: "talk-note", hidden: true });
  const error = h("p", { class: "talk-error", role: "alert" });
  const reactions = h("div", { class: "talk-reactions", role: "group" });
  const input = h("input", { id: "talk-input", type: "text", maxlength: String(rulesData().chat_max), autocomplete: "off", enterkeyhint: "send" });
  const label = h("label", { for: "talk-input", class: "sr-only" });
  const sendBtn = h("button", { type: "submit", class: "btn primary small" });
  const form = h("form", { class: "talk-form" }, label, input, sendBtn);
  const live = h("div", { id: "talk-live", class: "sr-only", "aria-live": "polite", "aria-atomic": "false" });
  const dock = h("aside", { id: "talk", class: "talk", "aria-labelledby": "talk-title", hidden: true },
    h("div", { class: "talk-head" }, title, close), note, list, empty, reactions, form, error);
  for (const r of rulesData().reactions) {
    // Our own drawing of each reaction: no colour-emoji font needed (icons.js, "react-…").
    reactions.append(h("button", { type: "button", class: "reaction", dataset: { reaction: r }, onclick: () => say({ reaction: r }) },
      icon(`react-${r}`)));
  }
  dock.append(mountAlerts());
  document.querySelector("main").append(dock);
  document.body.append(live);
  const anchor = document.getElementById("help-btn");
  // On a phone, while the game is shown, the Chat button sits in the prompt bar (beside the
  // status line) instead of floating over the board and cups; in the waiting room it sits
  // in the waiting card's corner (floating, it covered the start button); elsewhere it is
  // in the header.
  const phone = window.matchMedia("(max-width: 599px)");
  // Wider than a phone, while the game is shown, the open chat is docked in the page below
  // your own board (desktop: in its column), never floating over the log or a score; on a
  // phone it is a sheet over the bottom of the screen.
  const docks = window.matchMedia("(min-width: 641px)");
  const main = document.querySelector("main");
  function place() {
    const bar = document.getElementById("actionbar");
    const game = document.getElementById("game");
    const waiting = document.getElementById("waiting");
    const me = document.getElementById("me-area");
    const docked = Boolean(docks.matches && game && !game.hidden && me);
    dock.classList.toggle("docked", docked);
    if (docked) {
      if (dock.previousElementSibling !== me) me.after(dock);
    } else if (dock.parentElement !== main) main.append(dock);
    if (phone.matches && bar && game && !game.hidden) {
      if (toggle.parentElement !== bar) bar.prepend(toggle);
    } else if (phone.matches && waiting && !waiting.hidden) {
      if (toggle.parentElement !== waiting) waiting.prepend(toggle);
    } else if (anchor) {
      if (toggle.nextElementSibling !== anchor) anchor.before(toggle);
    } else if (toggle.parentElement === null) document.querySelector(".topbar").append(toggle);
  }
  place();
  phone.addEventListener("change", place);
  docks.addEventListener("change", place);

  function open(on) {
    dock.hidden = !on;
    toggle.setAttribute("aria-expanded", String(on));
    document.body.classList.toggle("talk-open", on);
    if (on) {
      unread = 0;
      input.focus({ preventScroll: true });
      list.scrollTop = list.scrollHeight;
    }
    labels();
  }
  toggle.addEventListener("click", () => open(dock.hidden));
  close.addEventListener("click", () => { open(false); toggle.focus(); });
  dock.addEventListener("keydown", (e) => { if (e.key === "Escape") { open(false); toggle.focus(); } });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const said = input.value.trim();
    if (!said) return;
    if (say({ text: said })) input.value = "";
  });

  function say(body) {
    text(error, "");
    return send({ type: "chat", id: `c${nextId++}`, ...body });
  }

  function authorName(m) {
    if (m.seat !== null && m.seat !== undefined) return m.name || t("lobby.starting.seat", { n: m.seat + 1 });
    return t("talk.spectator", { n: m.author.slice(1) });
  }

  function mine(m) {
    const you = view().you;
    return you.seat !== null ? m.author === `p${you.seat}` : m.author === watcherAuthor;
  }

  // A message as words (for the live region): a reaction by its name.
  function body(m) {
    return m.reaction ? t(`talk.reactionName.${m.reaction}`) : m.text;
  }

  function setMute(author, on) {
    if (on) mutes.add(author);
    else mutes.delete(author);
    localStorage.setItem(mutesKey(code), JSON.stringify([...mutes]));
    send({ type: "mute", author, muted: on });
    render();
  }

  function item(m) {
    const name = authorName(m);
    const who = h("span", { class: `talk-who seat-${m.seat ?? "w"}`, text: mine(m) ? `${name} (${t("talk.you")})` : name });
    const said = m.reaction
      ? h("span", { class: "talk-text reaction-text" }, icon(`react-${m.reaction}`, t(`talk.reactionName.${m.reaction}`)))
      : h("span", { class: "talk-text", text: m.text });
    const li = h("li", { class: `talk-msg ch-${m.channel}`, dataset: { n: String(m.n), author: m.author } }, who, " ", said);
    if (m.channel === "spectators") li.prepend(h("span", { class: "talk-chan", text: t("talk.spectators") }));
    if (!mine(m)) {
      const muted = mutes.has(m.author);
      li.append(h("button", {
        type: "button", class: "talk-mute", "aria-pressed": String(muted),
        "aria-label": t(muted ? "talk.unmute" : "talk.mute", { name }), title: t(muted ? "talk.unmute" : "talk.mute", { name }),
        onclick: () => setMute(m.author, !muted),
      }, icon(muted ? "mute" : "sound")));
    }
    return li;
  }

  function render() {
    list.replaceChildren(...messages.map(item));
    empty.hidden = messages.length > 0;
    list.scrollTop = list.scrollHeight;
  }

  function labels() {
    text(title, t("talk.title"));
    text(close, "×");
    close.setAttribute("aria-label", t("talk.close"));
    text(empty, t("talk.empty"));
    text(note, t("talk.spectatorsHidden"));
    text(sendBtn, t("talk.send"));
    text(label, t("talk.label"));
    input.placeholder = t("talk.placeholder");
    reactions.setAttribute("aria-label", t("talk.reactions"));
    for (const b of reactions.children) {
      b.setAttribute("aria-label", t(`talk.reactionName.${b.dataset.reaction}`));
      b.setAttribute("title", t(`talk.reactionName.${b.dataset.reaction}`));
    }
    text(toggle, unread && dock.hidden ? t("talk.openUnread", { n: unread }) : t("talk.open"));
  }

  onLangChange(() => { labels(); render(); });
  labels();
  render();

  return {
    // A chat frame: new messages, or (recent) the list to show instead.
    receive(frame) {
      const fresh = frame.messages.filter((m) => !mutes.has(m.author));
      if (frame.recent) messages = fresh;
      else {
        const known = new Set(messages.map((m) => m.n));
        const added = fresh.filter((m) => !known.has(m.n));
        messages = messages.concat(added);
        const others = added.filter((m) => !mine(m));
        if (others.length) {
          if (dock.hidden) unread += others.length;
          for (const m of others) live.append(h("p", { text: t("talk.said", { name: authorName(m), text: body(m) }) }));
          while (live.children.length > 5) live.firstChild.remove();
        }
      }
      messages = messages.slice(-KEEP);
      render();
      labels();
    },
    // An error frame about one of our chat frames: shown here, in words for players.
    error(frame) {
      if (typeof frame.id !== "string" || !frame.id.startsWith("c")) return false;
      const key = `talk.error.${frame.code}`;
      const limits = { chat_max: rulesData().chat_max };
      text(error, t(key) === key ? t("talk.error.other") : t(key, limits));
      return true;
    },
    // A spectator's author at this table (a watcher frame after hello).
    watching(author) {
      watcherAuthor = author;
      render();
    },
    // After every hello: the server forgot this connection's mutes.
    greeted() {
      for (const author of mutes) send({ type: "mute", author, muted: true });
    },
    update(v) {
      place();
      note.hidden = !(v.you.seat === null && v.room.status !== "finished");
    },
  };
}
