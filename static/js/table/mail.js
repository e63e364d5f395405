// "E-mail me when it is my turn" at a turn-based table: the seat's player gives an address,
// gets a 6-digit code there and confirms it. The address is only ever shown masked, to
// this seat's player. Refusals come as coded errors (refusals.js).
import { call } from "../core/api.js";
import { h, text } from "../core/dom.js";
import { getLang, onLangChange, t } from "../lang/i18n.js";
import { refusal } from "../core/refusals.js";

/**
 * @param {{code: string, token: () => string | null}} deps
 * @returns {{update(v: import("../core/types.js").View): void}}
 */
export function createMailPanel({ code, token }) {
  const panel = h("details", { id: "mail-panel", class: "panel mail-panel", hidden: true });
  const summary = h("summary", {});
  const state = h("p", { id: "mail-state", class: "mail-state", role: "status" });
  const addressLabel = h("label", { for: "mail-address" });
  const address = h("input", { type: "email", id: "mail-address", autocomplete: "email", maxlength: "254" });
  const send = h("button", { type: "button", id: "mail-send", class: "btn small" });
  const codeLabel = h("label", { for: "mail-code" });
  const codeIn = h("input", { type: "text", id: "mail-code", inputmode: "numeric", autocomplete: "one-time-code", maxlength: "6" });
  const confirm = h("button", { type: "button", id: "mail-confirm", class: "btn small primary" });
  const remove = h("button", { type: "button", id: "mail-remove", class: "btn small" });
  const digest = h("input", { type: "checkbox", id: "mail-digest" });
  const digestLabel = h("span", {});
  const digestRow = h("label", { class: "check", hidden: true }, digest, " ", digestLabel);
  const error = h("p", { class: "form-error", role: "alert", id: "mail-error" });
  const codeRow = h("p", { class: "mail-row", hidden: true }, codeLabel, codeIn, confirm);
  panel.append(summary, state, h("p", { class: "mail-row" }, addressLabel, address, send), codeRow, digestRow, remove, error);
  document.getElementById("waiting").after(panel);

  let status = { state: "none" };
  let shown = false;

  async function ask(path, body) {
    text(error, "");
    try {
      status = await call("POST", `/api/rooms/${code}/email${path}`, { token: token(), ...body });
    } catch (err) {
      text(error, refusal(err.code));
    }
    draw();
  }

  send.addEventListener("click", () => ask("", { address: address.value, lang: getLang() }));
  confirm.addEventListener("click", () => ask("/confirm", { code: codeIn.value }));
  digest.addEventListener("change", () => ask("/digest", { digest: digest.checked }));
  remove.addEventListener("click", async () => {
    await ask("/remove", {});
    status = { state: "none" };
    draw();
  });

  function draw() {
    text(summary, t("mail.title"));
    text(addressLabel, t("mail.address"));
    text(codeLabel, t("mail.code"));
    text(confirm, t("mail.confirm"));
    text(remove, t("mail.remove"));
    const s = status.state;
    text(send, t(s === "pending" ? "mail.resend" : "mail.send"));
    text(state, s === "none" ? "" : t(`mail.${s}`, { address: status.address }));
    codeRow.hidden = s !== "pending";
    text(digestLabel, t("mail.digest"));
    digestRow.hidden = s !== "confirmed";
    digest.checked = !!status.digest;
    remove.hidden = s === "none";
  }

  onLangChange(draw);

  return {
    update(v) {
      const show = v.room.options.mode === "turn_based" && v.you.seat !== null && !!token() && v.room.status !== "finished";
      panel.hidden = !show;
      if (show && !shown) {
        shown = true;
        draw();
        ask("/status", {});
      }
    },
  };
}
