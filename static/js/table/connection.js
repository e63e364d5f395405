// The connection as the player sees it: the banner when it is lost, replaced or gone, and
// why this tab cannot play meanwhile ("inactive": the table is dimmed and inert, and the
// prompt says why).
import { tokens } from "../core/api.js";
import { text } from "../core/dom.js";
import { t } from "../lang/i18n.js";

const $ = (id) => document.getElementById(id);

/**
 * @param {{code: string, socket: () => import("./socket.js").Socket, draw: () => void,
 *   announce: (message: string) => void, toast: (message: string) => void,
 *   quiet: () => void, opened: () => void}} deps
 */
export function createConnection({ code, socket, draw, announce, toast, quiet, opened }) {
  const body = document.body;
  // Why this tab cannot play right now (null: it can): "replaced" (the seat moved to
  // another tab or device), "lost" (the connection is down), "gone" (the room closed).
  let inactive = null;

  function setInactive(kind) {
    inactive = kind;
    if (kind) body.dataset.inactive = kind;
    else delete body.dataset.inactive;
    $("game").inert = Boolean(kind);
    draw();
  }

  function status(state, detail) {
    const el = $("conn-banner");
    const msg = $("conn-msg");
    if (state === "open") {
      quiet(); // the patches a resume catches up with are not animated
      if (!el.hidden) {
        el.hidden = true;
        announce(t("conn.back"));
      }
      setInactive(null);
      opened();
      return;
    }
    if (state === "gone" && detail === "kicked") {
      // The host freed our seat: keep watching as a spectator.
      tokens.setSeat(code, null);
      toast(t("conn.kicked"));
      socket().connect();
      return;
    }
    el.hidden = false;
    const replaced = state === "gone" && detail === "replaced";
    const retry = $("conn-retry");
    retry.hidden = state === "gone" && !replaced;
    retry.dataset.i18n = replaced ? "conn.takeBack" : "conn.retry";
    text(retry, t(retry.dataset.i18n));
    let message = t("conn.lost", { s: detail });
    if (state === "gone") message = replaced ? t("conn.replaced") : t("conn.gone");
    text(msg, message);
    setInactive(replaced ? "replaced" : state);
  }

  $("conn-retry").addEventListener("click", () => {
    // Taking the seat back changes nothing anyone sees, so a resume would bring no frame to
    // say we are back: ask for a snapshot instead.
    if (inactive === "replaced") socket().greetedAs = undefined;
    socket().retryNow();
  });

  return { status, inactive: () => inactive };
}
