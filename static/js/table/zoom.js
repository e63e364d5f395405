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
    const gap = 8;
    let left = r.left + r.width / 2 - box.width / 2;
    left = Math.max(gap, Math.min(left, innerWidth - box.width - gap));
    // Beside it where there is room (above, else below), never over the chip itself.
    let top = r.top - box.height - gap;
    if (top < gap) top = r.bottom + gap;
    if (top + box.height > innerHeight - gap) top = Math.max(gap, innerHeight - box.height - gap);
    tip.style.left = `${Math.round(left)}px`;
    tip.style.top = `${Math.round(top)}px`;
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
