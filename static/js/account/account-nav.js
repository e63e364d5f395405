// The header's account link on every page: "Sign in", or the signed-in player's name
// (with ✓), both leading to /account with `?next=` this page (the account page comes back
// here once signed in); hidden on a server without accounts. At a table, a
// signed-in player sits under their account's name: the waiting room's name field shows
// it, read-only.
import { call } from "../core/api.js";
import { onLangChange, t } from "../lang/i18n.js";

let state = null;

/**
 * A field for the name to sit under: the signed-in player's account name, read-only.
 * @param {HTMLInputElement | null} input
 * @returns {void}
 */
export function lockSeatName(input) {
  if (!input || !state || !state.account) return;
  if (input.value !== state.account.name) input.value = state.account.name;
  input.readOnly = true;
}

/**
 * The account page's address from this page: with `next`, the way back here once signed in
 * (none from the account page itself).
 * @returns {string}
 */
function accountHref() {
  const here = location.pathname + location.search;
  return location.pathname === "/account" ? "/account" : `/account?next=${encodeURIComponent(here)}`;
}

function show() {
  lockSeatName(/** @type {HTMLInputElement | null} */ (document.getElementById("player-name")));
  for (const link of document.querySelectorAll("[data-account-link]")) {
    link.hidden = !state || !state.accounts;
    /** @type {HTMLAnchorElement} */ (link).href = accountHref();
    if (!state || !state.account) continue;
    const label = link.querySelector(".acct-text") || link;
    label.removeAttribute("data-i18n");  // the name is not translated
    label.textContent = `✓ ${state.account.name}`;
    link.classList.add("signed-in");
    link.title = t("acct.signedInAs", { name: state.account.name });
  }
}

/**
 * Who is signed in here, as the server says (null while unknown).
 * @returns {Promise<{accounts: boolean, account: {id: number, name: string} | null} | null>}
 */
export async function sessionState() {
  try {
    state = await call("GET", "/api/me/session");
  } catch {
    state = null;
  }
  show();
  return state;
}

/** @returns {string | null} the signed-in account's name, once known */
export function signedInName() {
  return state && state.account ? state.account.name : null;
}

onLangChange(show);
/** Who is signed in, as the page learnt on loading. */
export const sessionReady = sessionState();
