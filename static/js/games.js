// The list of finished games: language, local dates, and importing an exported game.
import "./lang/history.js";
import { call } from "./api.js";
import { getLang, mountSwitch, onLangChange, t, translate } from "./i18n.js";
import { installSprite } from "./icons.js";
import { botName, standInName } from "./names.js";

const $ = (id) => document.getElementById(id);

// data-t="key" data-args='{"n": 3}': a string with parameters (translate() takes none).
function localize() {
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

$("import-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const error = $("import-error");
  error.textContent = "";
  const file = $("import-file").files[0];
  if (!file) return;
  try {
    let doc;
    try {
      doc = JSON.parse(await file.text());
    } catch {
      throw new Error("not JSON");
    }
    const res = await call("POST", "/api/games/import", doc);
    location.href = res.url;
  } catch (err) {
    error.textContent = t("games.importError", { message: err.message });
  }
});

installSprite();
localize();
mountSwitch($("lang-switch"));
onLangChange(localize);
