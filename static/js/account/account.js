// The account page: sign up (a passkey, or a password), sign in (a passkey, or a
// password; a forgotten one by a mailed link), and, signed in: rename, add a passkey, set a
// password, the e-mail address for a forgotten password, where the account is signed in,
// export, delete, sign out. Every refusal is shown in the player's words (refusals.js).
import { sessionState } from "./account-nav.js";
import { call } from "../core/api.js";
import { h, text } from "../core/dom.js";
import { getLang, mountSwitch, onLangChange, t, translate } from "../lang/i18n.js";
import { refusal } from "../core/refusals.js";
import { nextUrl } from "./next.js";
import { say } from "./say.js";
import { createPasskey, passkeysAvailable, usePasskey } from "./webauthn.js";

const $ = (id) => document.getElementById(id);
let me = null;
let email = null;     // GET /api/me/email (null: no mail on this server)
let sessions = [];    // GET /api/me/sessions

// Signed in or up: back to the page that sent the player here, else this page's own view.
async function signedIn() {
  const next = nextUrl(document.querySelector(".account-page")?.dataset.next);
  if (next) {
    location.assign(next);
    return;
  }
  await load();
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
  if (me) {
    email = await call("GET", "/api/me/email").catch(() => null);
    sessions = (await call("GET", "/api/me/sessions")).sessions;
  }
  render();
}

// "Chrome on Android": enough to tell one's devices apart (names of products, untranslated).
function device(agent) {
  if (!agent) return t("acct.unknownDevice");
  const browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox"
    : /Chrome\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : null;
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS"
    : /Windows/.test(agent) ? "Windows" : /Mac OS/.test(agent) ? "macOS"
    : /Linux/.test(agent) ? "Linux" : null;
  if (!browser && !system) return agent.slice(0, 40);
  if (!browser || !system) return browser || system;
  return t("acct.device", { browser, system });
}

function when(iso) {
  return new Intl.DateTimeFormat(getLang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

function renderEmail() {
  $("email-panel").hidden = !email;
  if (!email) return;
  const lines = [];
  if (email.address) lines.push(t("acct.emailConfirmed", { address: email.address }));
  if (email.pending) lines.push(t("acct.emailPending", { address: email.pending }));
  if (!lines.length) lines.push(t("acct.emailNone"));
  text($("email-state"), lines.join(" "));
  $("code-form").hidden = !email.pending;
  $("email-remove").hidden = email.state === "none";
  text($("email-send"), t(email.address ? "acct.changeEmail" : "acct.sendCode"));
}

function renderSessions() {
  $("session-list").replaceChildren(...sessions.map((s) => {
    const name = device(s.user_agent);
    const meta = [t("acct.sessionSeen", { when: when(s.last_seen_at) })];
    if (s.address) meta.push(t("acct.sessionFrom", { address: s.address }));
    return h("li", { class: "session", "data-session": s.id },
      h("span", { class: "session-device", text: name }),
      s.current ? h("span", { class: "session-here", text: t("acct.sessionThis") }) : null,
      h("button", { type: "button", class: "btn small", text: t("acct.sessionEnd"),
        "aria-label": t("acct.sessionEndLabel", { device: name }),
        onclick: (e) => busy(e.currentTarget, () => endSession(s)) }),
      h("span", { class: "session-meta", text: meta.join(" · ") }));
  }));
}

async function endSession(s) {
  const res = await call("POST", "/api/me/sessions/end", { session: s.id });
  await load();
  say(t(res.current ? "acct.signedOutHere" : "acct.sessionEnded"));
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
  renderEmail();
  renderSessions();
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

$("forgot-form").addEventListener("submit", (e) => {
  e.preventDefault();
  busy($("forgot-btn"), async () => {
    await call("POST", "/api/password/forgot", { address: $("forgot-address").value.trim(), lang: getLang() });
    say(t("acct.linkSent"));
  });
});

$("email-form").addEventListener("submit", (e) => {
  e.preventDefault();
  busy($("email-send"), async () => {
    email = await call("POST", "/api/me/email", { address: $("email-address").value.trim(), lang: getLang() });
    $("email-address").value = "";
    renderEmail();
    say(t("acct.codeSent"));
    $("email-code").focus();
  });
});

$("code-form").addEventListener("submit", (e) => {
  e.preventDefault();
  busy($("code-btn"), async () => {
    email = await call("POST", "/api/me/email/confirm", { code: $("email-code").value.trim() });
    $("email-code").value = "";
    renderEmail();
    say(t("acct.emailSaved"));
  });
});

$("email-remove").addEventListener("click", () => busy($("email-remove"), async () => {
  await call("POST", "/api/me/email/remove", {});
  await load();
  say(t("acct.emailRemoved"));
}));

$("sign-out-everywhere").addEventListener("click", () => busy($("sign-out-everywhere"), async () => {
  await call("POST", "/api/me/sessions/end-all", {});
  await load();
  say(t("acct.signedOutEverywhere"));
}));

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
