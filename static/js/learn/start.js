// "Learn to play" (lobby and /rules): one click makes a lesson room (POST /api/lessons:
// the caller seated against a bot, the game started) and opens its table with the seat.
import { call, tokens } from "../core/api.js";
import { text } from "../core/dom.js";
import { t } from "../lang/i18n.js";
import { refusal } from "../core/refusals.js";

for (const button of document.querySelectorAll("[data-learn-start]")) {
  button.addEventListener("click", async () => {
    if (button.disabled) return;
    button.disabled = true;
    const error = button.parentElement.querySelector(".form-error");
    text(error, "");
    try {
      const name = (localStorage.getItem("cr.name") || "").trim() || t("learn.name");
      const made = await call("POST", "/api/lessons", { name });
      tokens.setSeat(made.code, made.seat_token);
      location.href = made.url;
    } catch (err) {
      text(error, refusal(err.code));
      button.disabled = false;
    }
  });
}
