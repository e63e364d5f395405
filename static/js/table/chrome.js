// The table page's chrome: header (sprite, language, mute, help), the side's tabs, and no
// double clicks on controls.
import { h } from "../core/dom.js";
import { icon, installSprite } from "../core/icons.js";
import { mountSwitch, onLangChange, t, translate } from "../lang/i18n.js";
import { muted, setMuted, unlockOnGesture } from "./sound.js";

const $ = (id) => document.getElementById(id);

export function installChrome() {
  // No control here wants a double click: its second click (click count 2) could land on
  // whatever the first one's answer put under the pointer ("Remove" where "Add a bot" was,
  // the next cell of a path), so it is dropped before any handler sees it.
  document.addEventListener("click", (e) => {
    if (e.detail > 1 && e.target.closest("button, [role=button]")) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }, true);

  installSprite();
  translate(document);
  mountSwitch($("lang-switch"));
}

// The sound switch, help and side tabs (after the table's own language hook).
export function installControls() {
  unlockOnGesture();
  const mute = $("mute-btn");
  const syncMute = () => {
    mute.setAttribute("aria-pressed", String(muted()));
    mute.setAttribute("aria-label", muted() ? t("hdr.unmute") : t("hdr.mute"));
    mute.title = mute.getAttribute("aria-label");
    mute.replaceChildren(icon(muted() ? "mute" : "sound"), h("span", { class: "menu-label" }, mute.title));
  };
  mute.addEventListener("click", () => { setMuted(!muted()); syncMute(); });
  // A phone's one-row header has no room for it: the sound switch joins the links' menu there.
  const phoneHeader = window.matchMedia("(max-width: 599px)");
  const placeMute = () => {
    if (phoneHeader.matches) $("nav-menu").querySelector(".nav-menu-list").prepend(mute);
    else $("nav-menu").before(mute);
  };
  phoneHeader.addEventListener("change", placeMute);
  placeMute();
  onLangChange(syncMute);
  syncMute();
  $("help-btn").addEventListener("click", () => {
    const help = $("help");
    help.showModal();
    // Open at the top, with the title focused (not the last control, which scrolls it down).
    help.querySelector(".help-body").scrollTop = 0;
    $("help-title").focus();
  });
  $("help-close").addEventListener("click", () => $("help").close());
  // The side's tabs (players, supply, log); the one chosen stays chosen after a reload.
  const showSide = (panel) => {
    for (const other of document.querySelectorAll("#side-tabs [role=tab]")) {
      other.setAttribute("aria-selected", String(other.dataset.panel === panel));
    }
    $("side").dataset.show = panel;
  };
  for (const tab of document.querySelectorAll("#side-tabs [role=tab]")) {
    tab.addEventListener("click", () => {
      showSide(tab.dataset.panel);
      localStorage.setItem("cr.sideTab", tab.dataset.panel);
    });
  }
  const savedTab = localStorage.getItem("cr.sideTab");
  if (savedTab && document.querySelector(`#side-tabs [data-panel="${CSS.escape(savedTab)}"]`)) showSide(savedTab);
}
