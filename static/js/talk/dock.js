// The talk dock's furniture: the toggle, the panel with its list, reactions and text box,
// where each sits (phone, docked under your board, header), opening and closing, and the
// words on every control.
import { h, text } from "../core/dom.js";
import { t } from "../lang/i18n.js";
import { icon } from "../core/icons.js";
import { mountAlerts } from "../table/notify.js";
import { rulesData } from "../core/rules-data.js";

/**
 * @param {{say: (body: {text?: string, reaction?: string}) => boolean, unread: () => number, opened: () => void}} deps
 */
export function createDock({ say, unread, opened }) {
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
      opened();
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
    text(toggle, unread() && dock.hidden ? t("talk.openUnread", { n: unread() }) : t("talk.open"));
  }

  return { dock, list, empty, note, error, live, place, labels };
}
