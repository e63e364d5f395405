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

// The file input's own button and "no file" text would be in the browser's language: a
// translated label stands for the button, and the chosen file's name is shown next to it.
function showFile() {
  const file = $("import-file").files[0];
  $("import-name").textContent = file ? file.name : t("games.noFile");
}
$("import-file").addEventListener("change", showFile);

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
showFile();
mountSwitch($("lang-switch"));
onLangChange(() => { localize(); showFile(); });
