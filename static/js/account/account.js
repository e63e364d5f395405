// The account page: sign up (a passkey, or a password), sign in (a passkey, or a
// password), and, signed in: rename, add a passkey, set a password, export, delete,
// sign out. Every refusal is shown in the player's words (refusals.js).
import { sessionState } from "./account-nav.js";
import { call } from "../core/api.js";
import { text } from "../core/dom.js";
import { mountSwitch, onLangChange, t, translate } from "../lang/i18n.js";
import { refusal } from "../core/refusals.js";
import { createPasskey, passkeysAvailable, usePasskey } from "./webauthn.js";

const $ = (id) => document.getElementById(id);
let me = null;

/**
 * Where to go once signed in: the `next` the server kept as a path of this site
 * (server/api/next_path.py), checked again here as the browser resolves it. Its absolute
 * address is what is followed: a resolved path such as "//host" (from "/.//host") would
 * otherwise be read as another site.
 * @param {string | undefined} next the page's `data-next`
 * @returns {string | null} an absolute URL on this origin
 */
function nextUrl(next) {
  if (!next || !next.startsWith("/") || next.startsWith("//") || /[\\\s]/.test(next)) return null;
  const url = new URL(next, location.origin);
  if (url.origin !== location.origin || url.pathname.startsWith("//")) return null;
  return url.href;
}

// Signed in or up: back to the page that sent the player here, else this page's own view.
async function signedIn() {
  const next = nextUrl(document.querySelector(".account-page")?.dataset.next);
  if (next) {
    location.assign(next);
    return;
  }
  await load();
}

function say(message, isError = false) {
  text($("account-error"), isError ? message : "");
  text($("account-note"), isError ? "" : message);
}

// A refused request says why; a passkey dialog cancelled or timed out says so.
function failed(err) {
  if (err && err.code) return say(refusal(err.code), true);
  if (err && (err.name === "NotAllowedError" || err.name === "AbortError")) return say(t("acct.passkeyCancelled"), true);
  return say(t("err.other"), true);
}

// Disabled while in flight, so a double click sends one request.
async function busy(button, work) {
  if (button.disabled) return;
  button.disabled = true;
  say("");
  try {
    await work();
  } catch (err) {
    failed(err);
  } finally {
    button.disabled = false;
  }
}

async function load() {
  const state = await sessionState();
  $("no-accounts").hidden = !!(state && state.accounts);
  if (!state || !state.accounts) {
    $("signed-out").hidden = $("signed-in").hidden = true;
    return;
  }
  me = state.account ? await call("GET", "/api/me") : null;
  $("signed-out").hidden = !!me;
  $("signed-in").hidden = !me;
  render();
}

function render() {
  const noPasskeys = !passkeysAvailable();
  for (const id of ["sign-up-passkey", "sign-in-passkey", "add-passkey"]) $(id).disabled = noPasskeys;
  if (noPasskeys && !me) $("sign-up-password-box").hidden = false;
  if (!me) return;
  text($("account-name"), t("acct.signedInAs", { name: me.name }));
  $("profile-link").href = `/u/${encodeURIComponent(me.name)}`;
  text($("account-keys"), [t("acct.passkeyCount", { n: me.passkeys.length }),
    t(me.password ? "acct.hasPassword" : "acct.noPassword")].join(" · "));
  $("current-password-box").hidden = !me.password;
  text($("password-btn"), t(me.password ? "acct.changePassword" : "acct.setPassword"));
}

$("sign-up-use-password").addEventListener("click", () => {
  $("sign-up-password-box").hidden = false;
  $("sign-up-password").focus();
});

$("sign-up-form").addEventListener("submit", (e) => {
  e.preventDefault();
  busy($("sign-up-passkey"), async () => {
    const name = $("sign-up-name").value;
    const { options } = await call("POST", "/api/accounts/passkey/begin", { name });
    await call("POST", "/api/accounts/passkey/finish", { credential: await createPasskey(options) });
    await signedIn();
  });
});

$("sign-up-with-password").addEventListener("click", () => busy($("sign-up-with-password"), async () => {
  await call("POST", "/api/accounts", { name: $("sign-up-name").value, password: $("sign-up-password").value });
  await signedIn();
}));

$("sign-in-passkey").addEventListener("click", () => busy($("sign-in-passkey"), async () => {
  const { options } = await call("POST", "/api/sign-in/passkey/begin", {});
  await call("POST", "/api/sign-in/passkey/finish", { credential: await usePasskey(options) });
  await signedIn();
}));

$("sign-in-form").addEventListener("submit", (e) => {
  e.preventDefault();
  busy(e.submitter || $("sign-in-form").querySelector("button"), async () => {
    await call("POST", "/api/sign-in/password", { name: $("sign-in-name").value, password: $("sign-in-password").value });
    $("sign-in-password").value = "";
    await signedIn();
  });
});

$("sign-out").addEventListener("click", () => busy($("sign-out"), async () => {
  await call("POST", "/api/sign-out", {});
  await load();
}));

$("rename-form").addEventListener("submit", (e) => {
  e.preventDefault();
  busy($("rename-form").querySelector("button"), async () => {
    const res = await call("POST", "/api/me/name", { name: $("rename-name").value });
    $("rename-name").value = "";
    await load();
    say(t("acct.renamed", { name: res.name }));
  });
});

$("add-passkey").addEventListener("click", () => busy($("add-passkey"), async () => {
  const { options } = await call("POST", "/api/me/passkeys/begin", {});
  await call("POST", "/api/me/passkeys/finish", { credential: await createPasskey(options) });
  await load();
  say(t("acct.passkeyAdded"));
}));

$("password-form").addEventListener("submit", (e) => {
  e.preventDefault();
  busy($("password-btn"), async () => {
    await call("POST", "/api/me/password", { password: $("new-password").value, current: $("current-password").value || null });
    $("new-password").value = $("current-password").value = "";
    await load();
    say(t("acct.passwordSaved"));
  });
});

$("delete-form").addEventListener("submit", (e) => {
  e.preventDefault();
  busy($("delete-form").querySelector("button"), async () => {
    await call("POST", "/api/me/delete", { name: $("delete-name").value.trim() });
    await load();
    say(t("acct.deleted"));
  });
});

translate(document);
mountSwitch($("lang-switch"));
onLangChange(render);
load().catch(failed);
