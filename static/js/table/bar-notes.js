// A phone's action bar is fixed to the bottom and as tall as what it says (table-fit.css): its
// notes, a refusal's toast (its first row while it shows, layout.js) and a hint's line, grow it
// upwards over your own board. While the bar so grown would cover something the player can use
// at that moment (the cups a picked token goes into, the orders a picked cup serves, the walk's
// next cells), the notes float instead, the toast first and then the hint's line, over the
// board's lower part (inert while pouring and serving) or else under the header: wherever
// they and the bar then cover nothing usable. Where nothing is clear they stay rows of the bar,
// as before (issue 43). The board and your own area never move for it.

const LIVE = ":not(:disabled):not([aria-disabled=true])";
// What a player can use now outside the bar: a legal cell, a target, an enabled button of
// the board or of your own board, the header's controls.
const USABLE = `#board .cell.legal, .target, #board-area button${LIVE}, .pboard.is-me button${LIVE}, `
  + ".topbar button, .topbar a[href], .topbar summary";
const GAP = 6;

/** @param {DOMRect} a @param {DOMRect} b */
const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
  && a.top < b.bottom - 1 && b.top < a.bottom - 1;

const SET = ["top", "left", "right"];

/** @param {HTMLElement} e */
function sink(e) {
  e.classList.remove("afloat");
  for (const p of SET) e.style.removeProperty(p);
}

/**
 * Place the bar's notes: rows of the bar, or afloat where they cover nothing usable.
 * @returns {void}
 */
export function placeBarNotes() {
  const bar = document.getElementById("actionbar");
  if (!bar) return;
  const notes = /** @type {HTMLElement[]} */ ([document.getElementById("toast"), document.getElementById("hint-line")]
    .filter(Boolean));
  for (const e of notes) if (e.classList.contains("afloat")) sink(e);
  if (getComputedStyle(bar).position !== "fixed") return;
  const shown = notes.filter((e) => !e.hidden && e.parentElement === bar);
  if (!shown.length) return;
  const usable = [...document.querySelectorAll(USABLE)]
    .filter((e) => !bar.contains(e) && e.checkVisibility());
  const clear = (/** @type {Element} */ e) => {
    const r = e.getBoundingClientRect();
    return !usable.some((u) => meets(u.getBoundingClientRect(), r));
  };
  if (clear(bar)) return;
  const board = document.getElementById("board");
  const head = document.querySelector(".topbar");
  for (let n = 1; n <= shown.length; n++) {
    const afloat = shown.slice(0, n);
    for (const e of afloat) {
      e.classList.add("afloat");
      Object.assign(e.style, { left: `${GAP + 2}px`, right: `${GAP + 2}px` });
    }
    const heights = afloat.map((e) => e.getBoundingClientRect().height);
    const total = heights.reduce((a, b) => a + b, 0) + GAP * (n - 1);
    const barTop = bar.getBoundingClientRect().top;
    const tops = [];
    if (board && board.checkVisibility()) tops.push(board.getBoundingClientRect().bottom - GAP - total);
    tops.push(Math.max(0, head ? head.getBoundingClientRect().bottom : 0) + GAP);
    for (const top of tops) {
      if (top < 0 || top + total > barTop - GAP) continue;
      let y = top;
      afloat.forEach((e, i) => {
        e.style.top = `${Math.round(y)}px`;
        y += heights[i] + GAP;
      });
      if (clear(bar) && afloat.every(clear)) return;
    }
  }
  for (const e of shown) sink(e);  // nowhere clear: rows of the bar
}

/**
 * Keep the notes placed as they show, change, and as what is usable changes (a token picked,
 * a new step), once a frame.
 * @returns {void}
 */
export function keepBarNotesClear() {
  const bar = document.getElementById("actionbar");
  const game = document.getElementById("game");
  if (!bar || !game) return;
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      placeBarNotes();
    });
  };
  const line = document.getElementById("hint-line");
  if (line) {
    new MutationObserver(later).observe(line, { attributes: true, attributeFilter: ["hidden"],
      childList: true, characterData: true, subtree: true });
  }
  const shows = () => [...bar.querySelectorAll(":scope > #toast, :scope > #hint-line")].some((e) => !e.hidden);
  // Not for the notes' own class (placing them floats and sinks them).
  new MutationObserver((records) => {
    if (shows() && records.some((r) => r.target !== line && r.target.id !== "toast")) later();
  }).observe(game, { subtree: true, attributes: true, attributeFilter: ["disabled", "aria-disabled", "class", "hidden"] });
  window.addEventListener("resize", later);
  window.addEventListener("scroll", () => { if (shows()) later(); }, { passive: true });
}
