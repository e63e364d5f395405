// The header's account link on every page: "Sign in", or the signed-in player's name
// (with ✓), both leading to /account; hidden on a server without accounts.
import { call } from "./api.js";
import { onLangChange, t } from "./i18n.js";

let state = null;

function show() {
  for (const link of document.querySelectorAll("[data-account-link]")) {
    link.hidden = !state || !state.accounts;
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

onLangChange(show);
sessionState();
