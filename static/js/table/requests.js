// The table's HTTP requests: the waiting room (sit, leave, start, kick, host, bot), the
// rematch and the host's clock, one at a time, each refusal said in words.
import { call, tokens } from "../core/api.js";
import { text } from "../core/dom.js";
import { copyField } from "../core/copy.js";
import { t } from "../lang/i18n.js";
import { refusal } from "../core/refusals.js";
import { rulesData } from "../core/rules-data.js";

/**
 * @param {{code: string, reconnect: () => void, draw: () => void, toast: (message: string) => void}} deps
 */
export function createRequests({ code, reconnect, draw, toast }) {
  const body = document.body;
  // One request at a time from the waiting room and the scoreboard: the buttons that send
  // one are disabled until it is answered, so a double click sends it once.
  let inFlight = false;

  function hostToken() {
    return tokens.host(code) || tokens.seat(code);
  }

  function isHost(view) {
    return Boolean(tokens.host(code)) || (view.you.seat !== null && view.you.seat === view.room.host_seat);
  }

  async function guarded(fn) {
    if (inFlight) return;
    inFlight = true;
    body.dataset.requesting = "1";
    const buttons = [...document.querySelectorAll("#waiting button, #final button")].filter((b) => !b.disabled);
    for (const b of buttons) b.disabled = true;
    waitError("");
    try {
      await fn();
    } catch (err) {
      waitError(refusal(err.code));
    } finally {
      inFlight = false;
      delete body.dataset.requesting;
      for (const b of buttons) b.disabled = false;
      draw(); // restores the buttons whose state depends on the room (e.g. Start)
    }
  }

  function waitError(message) {
    text(document.querySelector("#waiting .form-error"), message);
    toast(message);
  }

  const waiting = {
    async sit(seat, name) {
      name = name.trim();
      if (!name || name.length > rulesData().name_max) return waitError(t("wait.nameNeeded", { name_max: rulesData().name_max }));
      localStorage.setItem("cr.name", name);
      await guarded(async () => {
        const res = await call("POST", `/api/rooms/${code}/join`, { name, seat });
        tokens.setSeat(code, res.seat_token);
        reconnect();
      });
    },
    async leave() {
      await guarded(async () => {
        await call("POST", `/api/rooms/${code}/leave`, { seat_token: tokens.seat(code) });
        tokens.setSeat(code, null);
        reconnect();
      });
    },
    start: () => guarded(() => call("POST", `/api/rooms/${code}/start`, { token: hostToken() })),
    kick: (seat) => guarded(() => call("POST", `/api/rooms/${code}/kick`, { token: hostToken(), seat })),
    host: (seat) => guarded(() => call("POST", `/api/rooms/${code}/host`, { token: hostToken(), seat })),
    bot: (seat, level) => guarded(() => call("POST", `/api/rooms/${code}/bot`, { token: hostToken(), seat, level })),
    async copy(input, button) {
      await copyField(input);
      text(button, t("wait.copied"));
    },
  };

  async function again() {
    await guarded(async () => {
      // The server makes one rematch room per table and points every viewer to it.
      // Everyone keeps their seat there; this page gets its own new seat token.
      const res = await call("POST", `/api/rooms/${code}/rematch`, { token: tokens.seat(code) });
      if (res.host_token) tokens.setHost(res.code, res.host_token);
      if (res.seat_token) tokens.setSeat(res.code, res.seat_token);
      location.href = `/r/${res.code}`;
    });
  }

  const setClock = (clock) => guarded(() => call("POST", `/api/rooms/${code}/clock`, { token: hostToken(), clock }));

  return { waiting, again, setClock, isHost };
}
