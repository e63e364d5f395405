// The server-rendered pages' texts in the reader's language: data-i18n keys, data-t keys
// with data-args parameters, bot names, and dates in the reader's format.
import { getLang, t, translate } from "./i18n.js";
import { botName, standInName } from "../core/names.js";

// data-t="key" data-args='{"n": 3}': a string with parameters (translate() takes none).
export function localize() {
  translate(document);
  for (const el of document.querySelectorAll("[data-t]")) {
    el.textContent = t(el.dataset.t, JSON.parse(el.dataset.args || "{}"));
  }
  for (const el of document.querySelectorAll("[data-bot-seat]")) {
    el.textContent = botName(Number(el.dataset.botSeat), el.dataset.botLevel);
  }
  for (const el of document.querySelectorAll("[data-stand-in]")) {
    el.textContent = standInName(el.dataset.standIn, el.dataset.for);
  }
  const fmt = new Intl.DateTimeFormat(getLang(), { dateStyle: "medium", timeStyle: "short" });
  for (const el of document.querySelectorAll("time[datetime]")) {
    el.textContent = fmt.format(new Date(el.dateTime));
  }
}

