// A phone's action bar is fixed to the bottom and as tall as what it says (table-fit.css): its
// notes, a refusal's toast (its first row while it shows, layout.js) and a hint's line, grow it
// upwards over your own board. While the bar so grown would cover something the player can use
// at that moment (the cups a picked token goes into, the orders a picked cup serves, the walk's
// next cells), the notes float instead, the toast first and then the hint's line, over the
// board's lower part (inert while pouring and serving) or else under the header: wherever
// they and the bar then cover nothing usable. Where nothing is clear they stay rows of the bar,
// as before (issue 43). The board and your own area never move for it.

// An enabled control (the zoom keeps clear of these too).
export const LIVE = ":not(:disabled):not([aria-disabled=true])";
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

// Between a phone and a desktop (600 to 1199 px: a tablet) the toast floats at the window's
// bottom centre (app.css) while the page scrolls under it, the action bar stuck to the top:
// it lay over the board's bottom row, or over your cups and their Empty buttons, wherever the
// player had scrolled them to. There it moves, as it shows and as the page scrolls, to the
// first spot where it covers nothing usable: the bottom's centre, left or right, then under
// the bar (centre, left, right); where none is clear, the one covering least (issue 43).
const TABLET = "(min-width: 600px) and (max-width: 1199px)";
const SPOTS = [{}, { left: "l", transform: "none" }, { left: "auto", right: "r", transform: "none" },
  { top: "t", bottom: "auto" }, { top: "t", bottom: "auto", left: "l", transform: "none" },
  { top: "t", bottom: "auto", left: "auto", right: "r", transform: "none" }];
const SET_LOOSE = ["top", "bottom", "left", "right", "transform"];

/**
 * Place a tablet's toast where it covers nothing usable (see TABLET above).
 * @returns {void}
 */
export function placeLooseToast() {
  const toast = document.getElementById("toast");
  const bar = document.getElementById("actionbar");
  if (!toast || !bar || toast.parentElement === bar || !window.matchMedia(TABLET).matches) return;
  for (const p of SET_LOOSE) toast.style.removeProperty(p);
  if (toast.hidden) return;
  const usable = [...document.querySelectorAll(`${USABLE}, #actionbar button${LIVE}`)]
    .filter((e) => e.checkVisibility());
  const over = () => {
    const r = toast.getBoundingClientRect();
    return usable.filter((u) => meets(u.getBoundingClientRect(), r)).length;
  };
  const head = document.querySelector(".topbar");
  const under = Math.max(0, bar.getBoundingClientRect().bottom, head ? head.getBoundingClientRect().bottom : 0) + GAP;
  const words = { l: `${GAP + 2}px`, r: `${GAP + 2}px`, t: `${Math.round(under)}px` };
  const put = (spot) => {
    for (const p of SET_LOOSE) toast.style.removeProperty(p);
    for (const [p, v] of Object.entries(spot)) toast.style.setProperty(p, words[v] || v);
  };
  let best = null;
  for (const spot of SPOTS) {
    put(spot);
    const n = over();
    if (!n) return;
    if (!best || n < best.n) best = { spot, n };
  }
  put(best.spot);
}

/**
 * Place the bar's notes (a phone's) and a tablet's toast.
 * @returns {void}
 */
export function placeNotes() {
  placeBarNotes();
  placeLooseToast();
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
      placeNotes();
    });
  };
  const line = document.getElementById("hint-line");
  if (line) {
    new MutationObserver(later).observe(line, { attributes: true, attributeFilter: ["hidden"],
      childList: true, characterData: true, subtree: true });
  }
  const toast = document.getElementById("toast");
  const shows = () => [...bar.querySelectorAll(":scope > #toast, :scope > #hint-line")].some((e) => !e.hidden)
    || Boolean(toast && !toast.hidden && window.matchMedia(TABLET).matches);
  // Not for the notes' own class (placing them floats and sinks them).
  new MutationObserver((records) => {
    if (shows() && records.some((r) => r.target !== line && r.target.id !== "toast")) later();
  }).observe(game, { subtree: true, attributes: true, attributeFilter: ["disabled", "aria-disabled", "class", "hidden"] });
  window.addEventListener("resize", later);
  window.addEventListener("scroll", () => { if (shows()) later(); }, { passive: true });
}
