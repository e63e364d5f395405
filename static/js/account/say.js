// The account pages' one line of news (account.html, reset.html): an error in
// #account-error, anything else in #account-note; saying one clears the other.
import { text } from "../core/dom.js";

/**
 * @param {string} message
 * @param {boolean} [isError]
 * @returns {void}
 */
export function say(message, isError = false) {
  text(document.getElementById("account-error"), isError ? message : "");
  text(document.getElementById("account-note"), isError ? "" : message);
}
