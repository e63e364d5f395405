// A refusal in the player's words. The server's message is for developers (it names
// versions and rule ids) and is never shown; a known code has its own sentence.
import { t } from "./i18n.js";

const KNOWN = new Set(["not_your_turn", "illegal_action", "malformed_action", "game_over",
  "nothing_to_undo", "not_started", "unavailable", "forbidden", "room_full", "name_invalid", "invisible_text",
  "not_waiting", "seats_empty", "rate_limited", "not_finished", "incompatible", "not_found", "flood"]);

/**
 * @param {string} code an error code from the server
 * @returns {string}
 */
export function refusal(code) {
  return KNOWN.has(code) ? t(`err.${code}`) : t("err.other");
}
