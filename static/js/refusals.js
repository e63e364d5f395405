// A refusal in the player's words. The server's message is for developers (it names
// versions and rule ids) and is never shown: each error code the server has (rules data,
// from server/error_codes.py) has its sentence `err.<code>` in every language.
import { t } from "./i18n.js";
import { rulesData } from "./rules-data.js";

let known = null;

/**
 * @param {string} code an error code from the server
 * @returns {string}
 */
export function refusal(code) {
  known ??= new Set(rulesData().error_codes);
  return known.has(code) ? t(`err.${code}`) : t("err.other");
}
