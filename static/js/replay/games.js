// The list of finished games: language, local dates, and importing an exported game.
import "../lang/history.js";
import { call } from "../core/api.js";
import { mountSwitch, onLangChange, t } from "../lang/i18n.js";
import { installSprite } from "../core/icons.js";
import { localize } from "../lang/localize.js";

const $ = (id) => document.getElementById(id);

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
  const button = e.submitter || $("import-form").querySelector("button[type=submit]");
  button.disabled = true;  // one import per click
  try {
    // Sent as read, never parsed and re-serialised here: JSON.parse would round a 64-bit
    // seed to the nearest double, and the game would replay as another deal.
    const res = await call("POST", "/api/games/import", await file.text());
    location.href = res.url;
  } catch (err) {
    // The reason in the reader's language, by its code (the server's sentence is English).
    const key = `games.importWhy.${err.code}`;
    const why = t(key) === key ? t("games.importWhy.malformed") : t(key);
    error.textContent = t("games.importError", { message: why });
    button.disabled = false;
  }
});

installSprite();
localize();
showFile();
mountSwitch($("lang-switch"));
onLangChange(() => { localize(); showFile(); });
