// A refusal in the player's words. The server's message is for developers (it names
// versions and rule ids) and is never shown: each error code the server has (rules data,
// from server/error_codes.py) has its sentence `err.<code>` in every language.
import { t } from "../lang/i18n.js";
import { rulesData } from "./rules-data.js";

let known = null;

/**
 * @param {string | undefined} code an error code from the server (none: the general sentence)
 * @returns {string}
 */
export function refusal(code) {
  const data = rulesData();
  known ??= new Set(data.error_codes);
  // The limits a sentence may name (e.g. "1 to {name_max} characters").
  return known.has(code) ? t(`err.${code}`, { name_max: data.name_max, chat_max: data.chat_max })
    : t("err.other");
}
