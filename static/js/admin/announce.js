// The operators' announcement, on every page (base.html loads this): asked for when the page
// opens and every minute, shown as one line above the page's content (textContent: never
// HTML), gone when the operators remove it.
import { h } from "../core/dom.js";
import { onLangChange, t } from "../lang/i18n.js";

const EVERY_MS = 60_000;
let banner = null;

function show(text) {
  if (!text) {
    banner?.remove();
    banner = null;
    return;
  }
  if (!banner) {
    banner = h("div", { id: "announcement", class: "announcement", role: "status" },
      h("strong", { class: "announcement-label" }), h("span", { class: "announcement-text" }));
    document.body.insertBefore(banner, document.getElementById("main"));
  }
  banner.querySelector(".announcement-label").textContent = `${t("announce.label")}: `;
  banner.querySelector(".announcement-text").textContent = text;
}

async function ask() {
  try {
    const res = await fetch("/api/announcement", { cache: "no-store" });
    if (res.ok) show((await res.json()).text);
  } catch {
    // offline: the last one stays
  }
}

onLangChange(() => banner && show(banner.querySelector(".announcement-text").textContent));
ask();
setInterval(ask, EVERY_MS);
