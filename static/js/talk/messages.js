// Talk messages on screen: who said it, what (a reaction by its drawing), its channel, and
// a mute switch on everyone else's; mutes are per viewer, kept in localStorage.
import { h } from "../core/dom.js";
import { t } from "../lang/i18n.js";
import { icon } from "../core/icons.js";

function mutesKey(code) { return `cr.mutes.${code}`; }

/** The authors this viewer muted at table `code`. */
export function loadMutes(code) {
  return new Set(JSON.parse(localStorage.getItem(mutesKey(code)) || "[]"));
}

export function saveMutes(code, mutes) {
  localStorage.setItem(mutesKey(code), JSON.stringify([...mutes]));
}

export function authorName(m) {
  if (m.seat !== null && m.seat !== undefined) return m.name || t("lobby.starting.seat", { n: m.seat + 1 });
  return t("talk.spectator", { n: m.author.slice(1) });
}

// A message as words (for the live region): a reaction by its name.
export function said(m) {
  return m.reaction ? t(`talk.reactionName.${m.reaction}`) : m.text;
}

/**
 * One message as a list item.
 * @param {object} m the message
 * @param {{mine: boolean, muted: boolean, setMute: (author: string, on: boolean) => void}} how
 */
export function messageItem(m, { mine, muted, setMute }) {
  const name = authorName(m);
  const who = h("span", { class: `talk-who seat-${m.seat ?? "w"}`, text: mine ? `${name} (${t("talk.you")})` : name });
  const words = m.reaction
    ? h("span", { class: "talk-text reaction-text" }, icon(`react-${m.reaction}`, t(`talk.reactionName.${m.reaction}`)))
    : h("span", { class: "talk-text", text: m.text });
  const li = h("li", { class: `talk-msg ch-${m.channel}`, dataset: { n: String(m.n), author: m.author } }, who, " ", words);
  if (m.channel === "spectators") li.prepend(h("span", { class: "talk-chan", text: t("talk.spectators") }));
  if (!mine) {
    li.append(h("button", {
      type: "button", class: "talk-mute", "aria-pressed": String(muted),
      "aria-label": t(muted ? "talk.unmute" : "talk.mute", { name }), title: t(muted ? "talk.unmute" : "talk.mute", { name }),
      onclick: () => setMute(m.author, !muted),
    }, icon(muted ? "mute" : "sound")));
  }
  return li;
}
