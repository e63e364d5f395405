// A signed-in player whose seat here this device holds no link to: one click takes it
// (a new seat token; the seat's old link stops working).
import { call, tokens } from "../core/api.js";
import { h, text } from "../core/dom.js";
import { t } from "../lang/i18n.js";
import { refusal } from "../core/refusals.js";
import { sessionReady, signedInName } from "../account/account-nav.js";

/**
 * @param {{code: string, view: () => import("../core/types.js").View | null}} deps
 * @returns {{update(v: import("../core/types.js").View): void}}
 */
export function createTakeBack({ code, view }) {
  const takeBackText = h("span");
  const takeBackBtn = h("button", { type: "button", class: "btn small primary" });
  const takeBack = h("div", { class: "banner take-back", role: "status", hidden: true }, takeBackText, takeBackBtn);
  document.getElementById("table-root").before(takeBack);
  takeBackBtn.addEventListener("click", async () => {
    takeBackBtn.disabled = true;
    try {
      const res = await call("POST", `/api/rooms/${code}/rejoin`, {});
      tokens.setSeat(code, res.seat_token);
      location.reload();
    } catch (err) {
      takeBackBtn.disabled = false;
      text(takeBackText, refusal(err.code));
    }
  });
  function update(v) {
    const name = signedInName();
    const mine = name !== null && v.you.seat === null && v.room.status !== "finished"
      && v.room.seats.some((s) => s.verified && s.name === name);
    takeBack.hidden = !mine;
    if (!mine) return;
    text(takeBackText, t("seat.takeBackText"));
    text(takeBackBtn, t("seat.takeBack"));
  }
  sessionReady.then(() => { if (view()) update(view()); });
  return { update };
}
