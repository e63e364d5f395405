// Table chat: a dock with the messages, quick reactions and a text box. Messages are plain
// text (textContent only); new ones are read out through a live region of their own. Mutes
// are per viewer, kept in localStorage and told to the server again after every hello.
// The dock's furniture is dock.js, a message on screen messages.js; this is the talk.
import { h, text } from "../core/dom.js";
import { onLangChange, t } from "../lang/i18n.js";
import { rulesData } from "../core/rules-data.js";
import { createDock } from "./dock.js";
import { authorName, loadMutes, messageItem, said, saveMutes } from "./messages.js";

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

/**
 * The table talk dock.
 * @param {{code: string, send: (frame: object) => boolean, view: () => import("../core/types.js").View | null}} deps
 * @returns {{receive(frame: {messages: object[], recent?: boolean}): void,
 *   error(frame: {id?: unknown, code: string}): boolean, greeted(): void, watching(author: string): void,
 *   update(v: import("../core/types.js").View): void}}
 */
export function createChat({ code, send, view }) {
  const mutes = loadMutes(code);
  let messages = [];
  let unread = 0;
  let nextId = 1;
  let watcherAuthor = null; // our author as a spectator ("w3"), from the server

  const { dock, list, empty, note, error, live, place, labels } = createDock({
    say, unread: () => unread, opened: () => { unread = 0; },
  });

  function say(words) {
    text(error, "");
    return send({ type: "chat", id: `c${nextId++}`, ...words });
  }

  function mine(m) {
    const you = view().you;
    return you.seat !== null ? m.author === `p${you.seat}` : m.author === watcherAuthor;
  }

  function setMute(author, on) {
    if (on) mutes.add(author);
    else mutes.delete(author);
    saveMutes(code, mutes);
    send({ type: "mute", author, muted: on });
    render();
  }

  function render() {
    list.replaceChildren(...messages.map((m) => messageItem(m, { mine: mine(m), muted: mutes.has(m.author), setMute })));
    empty.hidden = messages.length > 0;
    list.scrollTop = list.scrollHeight;
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
          for (const m of others) live.append(h("p", { text: t("talk.said", { name: authorName(m), text: said(m) }) }));
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
