// "Your turn" alerts while the tab is hidden: the tab title, a sound (the WebAudio chime of
// sound.js, which the header's mute button also controls) and a browser notification where
// the player allowed it. Each can be turned off; the choices stay in localStorage.
import { h, text } from "../core/dom.js";
import { onLangChange, t } from "../lang/i18n.js";
import { chime, muted, setMuted } from "./sound.js";

const TITLE = "cr.notify.title";
const DESKTOP = "cr.notify.desktop";

/** @returns {boolean} */
export function titleAlerts() { return localStorage.getItem(TITLE) !== "0"; }
function desktopAlerts() {
  return localStorage.getItem(DESKTOP) === "1" && "Notification" in window && Notification.permission === "granted";
}

// The turn came to this viewer. The sound plays here only while the tab is hidden (the
// table chimes on its own when it is visible); the notification likewise.
/**
 * @param {string} code the room code
 * @returns {void}
 */
export function yourTurn(code) {
  if (!document.hidden) return;
  chime();
  if (desktopAlerts()) {
    try {
      const note = new Notification(t("notify.heading"), { body: t("notify.body", { code }), tag: `cr-turn-${code}` });
      note.onclick = () => { window.focus(); note.close(); };
    } catch {
      // Some browsers only allow notifications from a service worker: the title still says it.
    }
  }
}

// The settings: three switches in a small fold-out (mounted in the chat dock).
/** @returns {HTMLElement} the settings fold-out */
export function mountAlerts() {
  const box = h("details", { class: "alerts", id: "alerts" });
  const summary = h("summary", {});
  const row = (id, checked, onchange) => {
    const input = h("input", { type: "checkbox", id, onchange });
    input.checked = checked;
    const span = h("span", {});
    return { input, span, label: h("label", { class: "check", for: id }, input, " ", span) };
  };
  const title = row("alert-title", titleAlerts(), () => localStorage.setItem(TITLE, title.input.checked ? "1" : "0"));
  const sound = row("alert-sound", !muted(), () => setMuted(!sound.input.checked));
  const desktop = row("alert-desktop", desktopAlerts(), async () => {
    if (!desktop.input.checked) {
      localStorage.setItem(DESKTOP, "0");
      return;
    }
    let permission = "Notification" in window ? Notification.permission : "denied";
    if (permission === "default") permission = await Notification.requestPermission();
    const ok = permission === "granted";
    localStorage.setItem(DESKTOP, ok ? "1" : "0");
    desktop.input.checked = ok;
    text(denied, ok ? "" : t("notify.denied"));
  });
  const denied = h("p", { class: "small", role: "status" });
  box.append(summary, title.label, sound.label, desktop.label, denied);
  const labels = () => {
    text(summary, t("notify.title"));
    text(title.span, t("notify.titleChange"));
    text(sound.span, t("notify.sound"));
    text(desktop.span, t("notify.desktop"));
    sound.input.checked = !muted();
  };
  box.addEventListener("toggle", labels);
  onLangChange(labels);
  labels();
  return box;
}
