// Who is who: one name per seat, distinct and stable, the same on the table, in the log,
// in history and in the replay. Bots are named by their seat letter ("Bot B (greedy)"), so
// two greedy bots never share a name; two people who chose the same name get their letter.
import { h } from "./dom.js";
import { t } from "../lang/i18n.js";

export const SEAT_LETTERS = ["A", "B", "C", "D"];

/**
 * @param {number} seat
 * @param {string} level
 * @returns {string}
 */
export function botName(seat, level) {
  return t("name.bot", { letter: SEAT_LETTERS[seat], level: t(`bot.${level}`) });
}

// A bot of `level` that played for the player `name` (who had left): "Bot (greedy) for Ana".
export function standInName(level, name) {
  return t("name.standIn", { level: t(`bot.${level}`), name });
}

function baseName(seat, info) {
  if (info && info.name) return info.name;
  if (info && info.bot) return botName(seat, info.bot);
  return t("lobby.starting.seat", { n: seat + 1 });
}

// seats: the room's seat infos ({name, bot, ...}) in seat order.
/**
 * @param {import("./types.js").SeatInfo[]} seats
 * @returns {string[]}
 */
export function seatNames(seats) {
  const names = seats.map((info, seat) => baseName(seat, info));
  return names.map((name, seat) => (names.filter((n) => n === name).length > 1
    ? t("name.twin", { name, letter: SEAT_LETTERS[seat] }) : name));
}

// nameOf(seat); nameOf.seatCount tells how many seats (a round is one turn each).
/**
 * @param {import("./types.js").SeatInfo[]} seats
 * @returns {import("./types.js").NameOf}
 */
export function nameOfSeats(seats) {
  const nameOf = (seat) => {
    const names = seatNames(seats);
    return names[seat] ?? t("lobby.starting.seat", { n: seat + 1 });
  };
  nameOf.seatCount = seats.length;
  return nameOf;
}

/**
 * @param {number} seat
 * @returns {HTMLElement}
 */
export function badge(seat) {
  return h("span", { class: `badge seat-${seat}`, "aria-hidden": "true" }, SEAT_LETTERS[seat]);
}
