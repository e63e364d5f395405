// The tournaments page: the list's texts in the reader's language, and the form that
// organises one (POST /api/tournaments, then its page).
import { mountSwitch, onLangChange, t } from "../lang/i18n.js";
import { installSprite } from "../core/icons.js";
import { localize } from "../lang/localize.js";
import { call } from "../core/api.js";
import { refusal } from "../core/refusals.js";

const form = document.getElementById("tour-form");
const DAY = 86400;

function paceChanged() {
  const turnBased = form.querySelector("#tf-mode").value === "turn_based";
  const turn = form.querySelector("#tf-turn");
  const label = form.querySelector("#tf-turn-label");
  label.dataset.i18n = turnBased ? "tour.turnDays" : "tour.turnSeconds";
  label.textContent = t(label.dataset.i18n);
  Object.assign(turn, turnBased ? { min: 1, max: 14, value: 1 } : { min: 10, max: 600, value: 60 });
}

async function submit(event) {
  event.preventDefault();
  const go = form.querySelector("#tf-go");
  const error = form.querySelector("#tf-error");
  const value = (id) => form.querySelector(id).value;
  const turnBased = value("#tf-mode") === "turn_based";
  const turn = Number(value("#tf-turn")) * (turnBased ? DAY : 1);
  const body = {
    name: value("#tf-name"), system: value("#tf-system"), table_size: Number(value("#tf-size")),
    rounds: Number(value("#tf-rounds")), mode: value("#tf-mode"), turn,
    bank: turnBased ? 3 * DAY : 300, rated: form.querySelector("#tf-rated").checked,
    invite_only: form.querySelector("#tf-invite").checked,
    starts_at: new Date(Date.now() + Number(value("#tf-start")) * 60000).toISOString(),
  };
  go.disabled = true;
  try {
    const made = await call("POST", "/api/tournaments", body);
    location.href = made.url;
  } catch (err) {
    error.textContent = refusal(err.code) || err.message;
    error.hidden = false;
    go.disabled = false;
  }
}

installSprite();
localize();
mountSwitch(document.getElementById("lang-switch"));
onLangChange(localize);
if (form) {
  form.querySelector("#tf-mode").addEventListener("change", paceChanged);
  form.addEventListener("submit", submit);
}
