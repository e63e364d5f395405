// Zoom (issue 43): the opponents' order chips and cups, the upgrade tiles and the supply are
// small; hovering one, tapping it or moving the keyboard focus onto it shows it full size
// beside it, as card tooltips do on Board Game Arena tables: an order as a whole card (its
// name, recipe and point), a cup with its contents, a tile with what it does, a supply pile
// with its count. The zoom is a tooltip (role="tooltip", aria-describedby), so a screen
// reader says it with the control; Escape or a tap elsewhere puts it away. It shows what
// the table already shows, bigger: nothing hidden.
//
// A zoom shown by the mouse never outlives its chip: another player's move may redraw the
// table under a resting pointer (a board moved in the DOM, as when the turn order of the
// boards changes for a spectator, makes Chromium forget the element under the pointer, so no
// pointerout comes if the mouse leaves before its next hover update), so the zoom checks the
// pointer itself: it goes when the pointer moves onto anything outside its chip, and after a
// redraw when the chip is no longer under the pointer.
import { h } from "../core/dom.js";
import { LIVE } from "./bar-notes.js";
import { icon } from "../core/icons.js";
import { ing, orderName, t } from "../lang/i18n.js";

// What can be zoomed: opponents' orders and cups, every upgrade tile, the supply's piles.
const ZOOMABLE = ".pboard.compact .card, .pboard.compact .cup, .pboard .tile, #supply-list .sup";

/**
 * The full-size picture of a zoomable element.
 * @param {HTMLElement} el
 * @param {(card: import("../core/types.js").Card) => HTMLElement} drawCard an order card drawn
 *   full size (view-player.js cardNode)
 * @returns {{node: HTMLElement, label: string} | null}
 */
function zoomOf(el, drawCard) {
  if (el.classList.contains("card") && el._card) {
    const card = drawCard(el._card);
    card.removeAttribute("disabled");
    card.tabIndex = -1;
    return { node: card, label: `${orderName(el._card.name)}${el._card.specialty ? " ★" : ""}` };
  }
  if (el.classList.contains("cup")) {
    const cup = el.cloneNode(true);
    cup.removeAttribute("aria-label");
    cup.tabIndex = -1;
    return { node: cup, label: el.getAttribute("aria-label") || "" };
  }
  if (el.classList.contains("tile")) {
    const tile = el.dataset.tile;
    return { node: h("div", { class: `zoom-tile${el.classList.contains("on") ? " on" : ""}` },
      icon(tile, null, "ico zoom-tile-glyph"),
      h("strong", { text: t(`tile.${tile}`) }),
      h("span", { text: t(`tile.help.${tile}`) })), label: t(`tile.${tile}`) };
  }
  if (el.classList.contains("sup")) {
    const n = el.querySelector(".n")?.textContent || "0";
    const name = el.dataset.ing;
    const label = name ? `${ing(name)}: ${n}` : t("sup.rush", { n });
    return { node: h("div", { class: "zoom-sup" }, icon(name || "rush", null, "ico zoom-sup-ico"),
      h("strong", { text: n }), h("span", { text: name ? ing(name) : t("pb.rush") })), label };
  }
  return null;
}

// What the zoom never covers (issue 43; at 1366×768 with four players an opponent's cup
// zoomed over your own points): your own name and points line, your counts (completed,
// penalties, Rush), and whatever you can use now (a legal cell, a target, an enabled control
// of your own board, of the board's area or of the action bar, a token of your hand). And
// where it can, it leaves your orders, cups and tiles and the board alone too.
const NEVER = `.pboard.is-me .pb-head, .pboard.is-me .stats, #board .cell.legal, .target, `
  + `.pboard.is-me button${LIVE}, #board-area button${LIVE}, #actionbar button${LIVE}`;
const RATHER_NOT = ".pboard.is-me .tab, .pboard.is-me .cup-wrap, .pboard.is-me .tile, #board";
const GAP = 8;

/**
 * @param {Element} chip
 * @returns {{box: DOMRect, weight: number}[]} what the zoom of `chip` keeps clear of, and how
 *   much: what it never covers weighs a thousand times what it would rather not
 */
function keepClear(chip) {
  const boxes = (sel, weight) => [...document.querySelectorAll(sel)]
    .filter((e) => !e.contains(chip) && e.checkVisibility())
    .map((e) => ({ box: e.getBoundingClientRect(), weight }));
  return [...boxes(NEVER, 1000), ...boxes(RATHER_NOT, 1)];
}

/**
 * Where the zoom of a chip goes: beside it (above, below, then to its right or left; centred on
 * it, else flush with one of its edges), inside the window, never over the chip, and over none
 * of `clear` where it can; else where it covers least of them, by weight.
 * @param {DOMRect} r the chip's box
 * @param {number} w the zoom's width
 * @param {number} hgt the zoom's height
 * @param {{box: DOMRect, weight: number}[]} clear
 * @returns {{left: number, top: number}}
 */
function spotFor(r, w, hgt, clear) {
  const inX = (x) => Math.max(GAP, Math.min(x, innerWidth - w - GAP));
  const inY = (y) => Math.max(GAP, Math.min(y, innerHeight - hgt - GAP));
  const xs = [r.left + r.width / 2 - w / 2, r.left, r.right - w];
  const ys = [r.top + r.height / 2 - hgt / 2, r.top, r.bottom - hgt];
  const spots = [
    ...xs.map((x) => [x, r.top - hgt - GAP]), ...xs.map((x) => [x, r.bottom + GAP]),
    ...ys.map((y) => [r.right + GAP, y]), ...ys.map((y) => [r.left - w - GAP, y]),
  ];
  const overlap = (left, top, b) => Math.max(0, Math.min(left + w, b.right) - Math.max(left, b.left))
    * Math.max(0, Math.min(top + hgt, b.bottom) - Math.max(top, b.top));
  let best = null;
  for (const [x, y] of spots) {
    const left = inX(x);
    const top = inY(y);
    if (overlap(left, top, r) > 1) continue;  // (pushed back into the window over its chip)
    const covered = clear.reduce((sum, { box, weight }) => {
      const area = overlap(left, top, box);
      return sum + (area > 1 ? area * weight : 0);
    }, 0);
    if (!best || covered < best.covered) best = { left, top, covered };
    if (!covered) break;
  }
  return best || { left: inX(xs[0]), top: inY(r.top - hgt - GAP) };
}

/**
 * The table's zoom: one tooltip, moved to whatever is hovered, tapped or focused.
 * @param {HTMLElement} root the table (its zoomable parts may be redrawn at any time)
 * @param {(card: import("../core/types.js").Card) => HTMLElement} drawCard
 * @returns {{hide: () => void, sync: () => void}}
 */
export function createZoom(root, drawCard) {
  const tip = h("div", { id: "card-zoom", class: "card-zoom", role: "tooltip", hidden: true });
  document.body.append(tip);
  let shownFor = null;
  // How the zoom was shown: "mouse" (a hover) goes with the pointer; "focus" and "tap" stay.
  let via = "";
  // Where the mouse is (null: not over the page).
  let mouse = null;

  function place(el) {
    const r = el.getBoundingClientRect();
    const box = tip.getBoundingClientRect();
    const spot = spotFor(r, box.width, box.height, keepClear(el));
    tip.style.left = `${Math.round(spot.left)}px`;
    tip.style.top = `${Math.round(spot.top)}px`;
  }

  function show(el, how) {
    const zoom = zoomOf(el, drawCard);
    if (!zoom) return;
    via = how;
    if (shownFor && shownFor !== el) shownFor.removeAttribute("aria-describedby");
    shownFor = el;
    tip.replaceChildren(zoom.node);
    tip.dataset.for = zoom.label;
    tip.hidden = false;
    el.setAttribute("aria-describedby", "card-zoom");
    place(el);
  }

  function hide() {
    if (shownFor) shownFor.removeAttribute("aria-describedby");
    shownFor = null;
    via = "";
    tip.hidden = true;
  }

  // A hover's zoom whose chip is not under the mouse any more (nor focused) goes; another
  // zoomable under it shows instead. `under`: the element under the mouse.
  function follow(under) {
    if (via !== "mouse" || !shownFor || document.activeElement === shownFor) return;
    if (under instanceof Node && shownFor.contains(under)) return;
    const el = under instanceof Element && root.contains(under) ? under.closest(ZOOMABLE) : null;
    if (el) show(el, "mouse");
    else hide();
  }

  const target = (e) => (e.target instanceof Element ? e.target.closest(ZOOMABLE) : null);
  root.addEventListener("pointerover", (e) => {
    const el = target(e);
    if (el && e.pointerType === "mouse") show(el, "mouse");
  });
  document.addEventListener("pointermove", (e) => {
    if (e.pointerType !== "mouse") return;
    mouse = [e.clientX, e.clientY];
    follow(e.target);
  }, { passive: true });
  document.documentElement.addEventListener("pointerleave", (e) => {
    if (e.pointerType !== "mouse") return;
    mouse = null;
    follow(null);
  });
  root.addEventListener("pointerout", (e) => {
    const el = target(e);
    if (el && e.pointerType === "mouse" && !el.contains(/** @type {Node} */ (e.relatedTarget))
      && document.activeElement !== el) hide();
  });
  root.addEventListener("focusin", (e) => {
    const el = target(e);
    if (el) show(el, "focus");
    else hide();
  });
  root.addEventListener("focusout", (e) => {
    if (target(e) && !(e.relatedTarget instanceof Element && e.relatedTarget.closest(ZOOMABLE))) hide();
  });
  // A tap (or click) on something that only zooms shows it, a second tap puts it away; a tap
  // anywhere else puts it away too.
  document.addEventListener("click", (e) => {
    const el = target(e);
    if (el && el.getAttribute("aria-disabled") === "true") {
      if (shownFor === el && e.detail > 0 && document.activeElement !== el) hide();
      else show(el, document.activeElement === el ? "focus" : "tap");
      return;
    }
    if (!el) hide();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !tip.hidden) hide();
  });
  // It follows its chip as the page scrolls, and goes when the chip leaves the window (or
  // slips under a phone's action bar, fixed at the window's bottom).
  const bar = document.getElementById("actionbar");
  addEventListener("scroll", () => {
    if (!shownFor) return;
    const r = shownFor.getBoundingClientRect();
    const bottom = bar && getComputedStyle(bar).position === "fixed" ? bar.getBoundingClientRect().top : innerHeight;
    if (r.bottom < 0 || r.top > bottom) hide();
    else place(shownFor);
  }, { passive: true, capture: true });

  return {
    hide,
    /** After a redraw: the element zoomed may have gone, changed or moved from the mouse. */
    sync() {
      if (!shownFor) return;
      if (!shownFor.isConnected) hide();
      else show(shownFor, via);
      if (via === "mouse") follow(mouse && document.elementFromPoint(mouse[0], mouse[1]));
    },
  };
}

/**
 * Make a zoomable control reachable (focus, hover, tap) while it can do nothing else: it is
 * not disabled (a disabled button takes no focus) but says aria-disabled, and its own click
 * handler ignores it (`inert`).
 * @param {HTMLButtonElement} el
 * @param {boolean} usable it acts now (a legal move)
 * @returns {void}
 */
export function zoomable(el, usable) {
  el.disabled = false;
  if (usable) el.removeAttribute("aria-disabled");
  else el.setAttribute("aria-disabled", "true");
}

/**
 * @param {Element} el
 * @returns {boolean} the control only zooms now (its click does nothing else)
 */
export function inert(el) {
  return el.getAttribute("aria-disabled") === "true";
}
