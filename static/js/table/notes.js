// Short words at the table: the polite live region, the toast, the note in the bar ("not
// your turn yet"), and what a bot did while it stood in for this seat.
import { text } from "../core/dom.js";
import { t } from "../lang/i18n.js";
import { rulesData } from "../core/rules-data.js";
import { standingIn } from "./intents.js";
import { youSentence } from "./log.js";
import { nameOfFactory } from "./view.js";

const $ = (id) => document.getElementById(id);

/**
 * @param {{view: () => import("../core/types.js").View}} deps
 */
export function createNotes({ view }) {
  let noteTimer = null;
  let toastTimer = null;
  let botDid = [];

  function announce(message) {
    const live = $("live");
    live.textContent = "";
    // A fresh text node after clearing makes screen readers read it again.
    setTimeout(() => { live.textContent = message; }, 30);
  }

  // A click on the board out of turn: say quietly that it is not yours (a polite status in
  // the action bar, in the prompt's place for a moment: the status line beside it says whose
  // turn it is), never an alert. It covers nothing: it takes the prompt's line, in the bar.
  function whoseTurn() {
    const v = view();
    const g = v && v.game;
    if (!g || g.phase === rulesData().phase_over) return;
    const note = $("turn-note");
    const bar = $("actionbar");
    const key = v.you.seat === null ? "note.watching"
      : g.current === v.you.seat && standingIn(v) ? "prompt.timeUp" : "note.notYourTurn";
    text(note, t(key));
    note.hidden = false;
    bar.dataset.note = "";
    clearTimeout(noteTimer);
    noteTimer = setTimeout(() => {
      note.hidden = true;
      delete bar.dataset.note;
    }, 2500);
  }

  function toast(message, ms = 5000) {
    const el = $("toast");
    clearTimeout(toastTimer);
    el.textContent = message;
    el.hidden = !message;
    if (message) toastTimer = setTimeout(() => { el.hidden = true; }, ms);
  }

  // What a bot did for this seat while it stood in: told to the player, in order, once the
  // seat is theirs again ("walked 2 steps to …, poured milk into cup 1, served Cocoa").
  function standIn(current, events, previous) {
    if (!previous || !previous.you || !standingIn(previous)) return;
    const seat = previous.you.seat;
    const nameOf = nameOfFactory(current);
    botDid.push(...events.filter((ev) => ev.seat === seat).map((ev) => youSentence(ev, nameOf)).filter(Boolean));
    if (!standingIn(current) && current.you.seat === seat) {
      if (botDid.length) toast(t("standIn.did", { did: botDid.join(t("did.join")) }), 15000);
      botDid = [];
    }
  }

  return { announce, whoseTurn, toast, standIn };
}
