// The turn clock at the table: the player to act, their time and bank counting down, a
// warning in their last 10 seconds, and the host's clock choice in the waiting room.
// The server sends the remaining times as of its own time `at`; we count down from the
// moment the version arrived, so this browser's clock never needs to be in sync.
import { h, text, toggle } from "../core/dom.js";
import { onLangChange, t } from "../lang/i18n.js";

const PRESETS = [[60, 300], [30, 120], [120, 600]];
// Turn-based rooms (a game over days): a day a move + 3 days, 12 h + 1 day, 3 days + a week.
const TB_PRESETS = [[86400, 259200], [43200, 86400], [259200, 604800]];
const HOUR_MS = 3600000;
const WARN_MS = 10000;

/**
 * @param {number} ms
 * @returns {string} minutes:seconds, rounded up, never negative; an hour or more in
 *   days and hours, or hours and minutes
 */
export function duration(ms) {
  if (ms >= HOUR_MS) return longDuration(ms);
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * @param {number} ms
 * @returns {string} "2 d 5 h", "5 h 12 min" or "12 min" (rounded down)
 */
export function longDuration(ms) {
  const minutes = Math.max(0, Math.floor(ms / 60000));
  const d = Math.floor(minutes / 1440), h = Math.floor((minutes % 1440) / 60), m = minutes % 60;
  if (d > 0) return t("time.days", { d, h });
  if (h > 0) return t("time.hours", { h, m });
  return t("time.minutes", { m });
}

function short(seconds) {
  if (seconds >= 86400 && seconds % 86400 === 0) return t("time.days", { d: seconds / 86400, h: 0 }).replace(/ 0\D*$/, "");
  if (seconds >= 3600) return longDuration(seconds * 1000);
  return seconds % 60 === 0 && seconds >= 60 ? t("time.minutes", { m: seconds / 60 }) : t("time.seconds", { s: seconds });
}

/**
 * @param {{turn: number, bank: number} | null} clock
 * @returns {string}
 */
export function clockName(clock) {
  return clock ? t("clock.preset", { turn: short(clock.turn), bank: short(clock.bank) }) : t("clock.off");
}

// Fill a <select> with "no clock" and the presets; values are "" or "turn+bank".
/**
 * @param {HTMLSelectElement} select
 * @param {{turn: number, bank: number} | null} [current]
 * @param {string} [mode] "realtime" or "turn_based": whose presets
 * @returns {void}
 */
export function fillClockSelect(select, current = null, mode = "realtime") {
  const value = current ? `${current.turn}+${current.bank}` : "";
  const options = [h("option", { value: "", text: t("clock.off") })];
  let found = value === "";
  for (const [turn, bank] of mode === "turn_based" ? TB_PRESETS : PRESETS) {
    options.push(h("option", { value: `${turn}+${bank}`, text: clockName({ turn, bank }) }));
    if (value === `${turn}+${bank}`) found = true;
  }
  if (!found) options.push(h("option", { value, text: clockName(current) }));
  select.replaceChildren(...options);
  select.value = value;
}

/**
 * @param {string} value "" or "turn+bank"
 * @returns {{turn: number, bank: number} | null}
 */
export function parseClock(value) {
  if (!value) return null;
  const [turn, bank] = String(value).split("+").map(Number);
  return { turn, bank };
}

/**
 * The turn clock at the table.
 * @param {{nameOf: import("../core/types.js").NameOf, announce: (message: string) => void,
 *   send: (frame: object) => boolean, setClock: (clock: object | null) => void}} deps
 * @returns {{update(v: import("../core/types.js").View, isHost: boolean): void}}
 */
export function createClock({ nameOf, announce, send, setClock }) {
  const box = h("div", { id: "turn-clock", class: "turn-clock", role: "timer", "aria-live": "off", hidden: true });
  const who = h("span", { class: "clock-who" });
  const time = h("strong", { class: "clock-time" });
  const bank = h("span", { class: "clock-bank" });
  box.append(who, " ", time, " ", bank);
  const away = h("div", { id: "away-note", class: "away-note", role: "status", hidden: true });
  const awayText = h("span", {});
  const backBtn = h("button", { type: "button", class: "btn primary small", onclick: () => send({ type: "back" }) });
  away.append(awayText, " ", backBtn);
  const bar = document.getElementById("actionbar");
  bar.prepend(box, away);

  // The waiting room: the host picks the clock; everyone sees it.
  const setting = h("div", { id: "clock-setting", class: "clock-setting", hidden: true });
  const settingLabel = h("label", { for: "clock-choice" });
  const choice = h("select", { id: "clock-choice" });
  const custom = h("span", { class: "clock-custom", hidden: true });
  const turnIn = h("input", { type: "number", id: "clock-turn", min: "10", max: "600", value: "60" });
  const bankIn = h("input", { type: "number", id: "clock-bank", min: "0", max: "3600", value: "300" });
  const turnLabel = h("label", { for: "clock-turn" });
  const bankLabel = h("label", { for: "clock-bank" });
  const apply = h("button", { type: "button", class: "btn small" });
  const shown = h("p", { class: "clock-shown" });
  custom.append(turnLabel, turnIn, bankLabel, bankIn, apply);
  setting.append(settingLabel, choice, custom, shown);
  // With the table's other options in the waiting room (view-wait.js), else after it.
  const home = document.getElementById("wait-options");
  if (home) home.append(setting);
  else document.getElementById("waiting").after(setting);
  choice.addEventListener("change", () => {
    if (choice.value === "custom") {
      custom.hidden = false;
      return;
    }
    custom.hidden = true;
    setClock(parseClock(choice.value));
  });
  let unit = { turn: 1, bank: 1 }; // seconds per unit of the custom inputs
  apply.addEventListener("click", () => setClock({
    turn: Math.round(Number(turnIn.value) * unit.turn), bank: Math.round(Number(bankIn.value) * unit.bank) }));

  let state = null; // {clock, seat, received, mine}
  let warned = false;
  let lastAt = null;
  let view = null;
  let host = false;

  function left() {
    const c = state.clock;
    // A paused seat (turn-based "away until") starts counting once its pause is over.
    const pause = c.away_ms ? c.away_ms[c.seat] || 0 : 0;
    const elapsed = c.running ? Math.max(0, performance.now() - state.received - pause) : 0;
    const seatBank = c.bank_ms[c.seat] ?? 0;
    const turn = Math.max(0, c.turn_ms - elapsed);
    const overflow = Math.max(0, elapsed - c.turn_ms);
    return { turn, bank: Math.max(0, seatBank - overflow) };
  }

  function tick() {
    if (!state || state.clock.seat === null || state.clock.seat === undefined) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const { turn, bank: b } = left();
    const name = nameOf(state.clock.seat);
    text(who, name);
    text(time, state.clock.running ? duration(turn > 0 ? turn : b) : duration(turn > 0 ? turn : b));
    text(bank, turn > 0 ? t("clock.bank", { time: duration(b) }) : (state.clock.running ? "" : t("clock.paused")));
    box.setAttribute("aria-label", t("clock.aria", { name, time: duration(turn), bank: duration(b) }));
    const total = turn + b;
    const hurry = state.clock.running && total <= WARN_MS;
    toggle(box, "running", state.clock.running);
    toggle(box, "in-bank", state.clock.running && turn <= 0);
    toggle(box, "warn", hurry);
    toggle(box, "mine", state.mine);
    box.dataset.left = String(Math.round(total));
    if (hurry && state.mine && !warned) {
      warned = true;
      announce(t("clock.warn"));
    }
  }

  function drawSetting() {
    const room = view.room;
    setting.hidden = room.status !== "waiting";
    if (setting.hidden) return;
    const current = room.options.clock || null;
    const tb = room.options.mode === "turn_based";
    choice.hidden = !host;
    settingLabel.hidden = !host;
    // Turn-based: the custom clock in hours per move and days of bank.
    unit = tb ? { turn: 3600, bank: 86400 } : { turn: 1, bank: 1 };
    turnIn.min = tb ? "1" : "10"; turnIn.max = tb ? "336" : "600";
    bankIn.min = "0"; bankIn.max = tb ? "30" : "3600";
    if (host && document.activeElement !== choice && choice.value !== "custom") {
      fillClockSelect(choice, current, room.options.mode);
      if (tb) { turnIn.value = "24"; bankIn.value = "3"; }
      choice.append(h("option", { value: "custom", text: t("clock.custom") }));
      choice.value = current ? `${current.turn}+${current.bank}` : "";
    }
    text(settingLabel, t("option.clock"));
    text(turnLabel, t(tb ? "clock.hours" : "clock.turnSeconds"));
    text(bankLabel, t(tb ? "clock.days" : "clock.bankSeconds"));
    text(apply, t("clock.apply"));
    text(shown, t("clock.setTo", { clock: current ? clockName(current) : t("clock.none") }));
  }

  setInterval(tick, 200);
  onLangChange(() => { if (view) { drawSetting(); tick(); } });

  return {
    update(v, isHost) {
      view = v;
      host = isHost;
      const clock = v.room.clock;
      if (!clock) {
        state = null;
      } else if (clock.at !== lastAt || !state) {
        lastAt = clock.at;
        const mine = v.you.seat !== null && clock.seat === v.you.seat;
        if (!state || state.clock.seat !== clock.seat || clock.turn_ms > state.clock.turn_ms) warned = false;
        state = { clock, received: performance.now(), mine };
      }
      const me = v.you.seat !== null ? v.room.seats[v.you.seat] : null;
      away.hidden = !(me && me.away && v.room.status === "playing");
      text(awayText, t("away.note"));
      text(backBtn, t("away.back"));
      drawSetting();
      tick();
    },
  };
}
