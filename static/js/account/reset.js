// A forgotten password's link: the token is in the fragment (#token=...), which no server
// log or Referer sees; it is taken out of the address bar at once. The link is checked,
// then the new password and the token are posted; the player is then signed in here (every
// other session ended) and goes on to `next` (a path of this site) or the account page.
import { call } from "../core/api.js";
import { refusal } from "../core/refusals.js";
import { mountSwitch, t, translate } from "../lang/i18n.js";
import { nextUrl } from "./next.js";
import { say } from "./say.js";

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
history.replaceState(null, "", location.pathname + location.search);

function invalid() {
  $("reset-form").hidden = true;
  $("reset-invalid").hidden = false;
}

async function check() {
  if (!token) return invalid();
  try {
    await call("POST", "/api/password/reset/check", { token });
    $("reset-form").hidden = false;
    $("reset-password").focus();
  } catch (err) {
    if (err && err.code === "reset_invalid") return invalid();
    say(refusal(err && err.code), true);
  }
}

$("reset-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const button = $("reset-btn");
  if (button.disabled) return;
  button.disabled = true;
  say("");
  try {
    await call("POST", "/api/password/reset", { token, password: $("reset-password").value });
    say(t("reset.done"));
    location.assign(nextUrl(document.querySelector(".account-page")?.dataset.next) || "/account");
  } catch (err) {
    if (err && err.code === "reset_invalid") invalid();
    say(refusal(err && err.code), true);
    button.disabled = false;
  }
});

translate(document);
mountSwitch($("lang-switch"));
check();
