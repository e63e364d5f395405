// Turn-based time at the table: when the player to act is late (time and bank gone) the
// others choose a stand-in bot for that turn or the end of the game; once per game a
// player may pause their clock ("away until" a date, at most 7 days ahead).
import { call } from "../core/api.js";
import { h, text } from "../core/dom.js";
import { onLangChange, t } from "../lang/i18n.js";
import { longDuration } from "./clock.js";
import { refusal } from "../core/refusals.js";

const AWAY_DAYS = 7;

/**
 * @param {{code: string, token: () => string | null, nameOf: (seat: number) => string}} deps
 * @returns {{update(v: import("../core/types.js").View): void}}
 */
export function createTurnBased({ code, token, nameOf }) {
  const box = h("div", { id: "turn-based", class: "panel turn-based", hidden: true });
  const lateBox = h("p", { id: "late-choice", class: "late-choice", role: "status", hidden: true });
  const lateText = h("span", {});
  const standIn = h("button", { type: "button", class: "btn small", id: "late-stand-in" });
  const abandon = h("button", { type: "button", class: "btn small", id: "late-abandon" });
  lateBox.append(lateText, " ", standIn, " ", abandon);
  const awayBox = h("p", { id: "away-choice", class: "away-choice", hidden: true });
  const awayLabel = h("label", { for: "away-date" });
  const awayDate = h("input", { type: "date", id: "away-date" });
  const awaySet = h("button", { type: "button", class: "btn small", id: "away-set" });
  awayBox.append(awayLabel, " ", awayDate, " ", awaySet);
  const paused = h("p", { id: "away-paused", class: "small", hidden: true });
  const error = h("p", { class: "form-error", role: "alert" });
  box.append(lateBox, awayBox, paused, error);
  document.getElementById("waiting").after(box);

  let view = null;

  async function post(path, body) {
    text(error, "");
    try {
      await call("POST", `/api/rooms/${code}/${path}`, { token: token(), ...body });
    } catch (err) {
      text(error, refusal(err.code));
    }
  }

  standIn.addEventListener("click", () => post("late", { choice: "stand_in" }));
  abandon.addEventListener("click", () => post("late", { choice: "abandon" }));
  awaySet.addEventListener("click", () => {
    if (!awayDate.value) return;
    // Until the start of that day, here; at least an hour, at most 7 days.
    const until = new Date(`${awayDate.value}T00:00`).getTime();
    const hours = Math.min(AWAY_DAYS * 24, Math.max(1, Math.ceil((until - Date.now()) / 3600000)));
    post("away", { hours });
  });

  function iso(date) {
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
  }

  function draw() {
    if (!view) return;
    const room = view.room, clock = room.clock, me = view.you.seat;
    const on = room.options.mode === "turn_based" && room.status === "playing" && !!clock && me !== null && !!token();
    box.hidden = !on;
    if (!on) return;
    const late = clock.late && clock.seat !== me;
    lateBox.hidden = !late;
    if (late) text(lateText, t("late.note", { name: nameOf(clock.seat) }));
    text(standIn, t("late.standIn"));
    text(abandon, t("late.abandon"));
    awayBox.hidden = !clock.away_used || clock.away_used[me];
    text(awayLabel, t("away.until"));
    text(awaySet, t("away.set"));
    const now = new Date();
    awayDate.min = iso(new Date(now.getTime() + 86400000));
    awayDate.max = iso(new Date(now.getTime() + AWAY_DAYS * 86400000));
    const left = clock.away_ms ? clock.away_ms[me] : 0;
    paused.hidden = !left;
    if (left) text(paused, t("away.paused", { time: longDuration(left) }));
  }

  onLangChange(draw);
  return {
    update(v) {
      view = v;
      draw();
    },
  };
}
