import { placeNotes } from "./bar-notes.js";

// One screen on a desktop: the board takes the height left below whatever sits above it
// (header, banner, replay controls). CSS reads --board-top; this keeps it true.
/** @returns {(() => void) | undefined} the update function, if the page has a board */
export function fitBoard() {
  const area = document.getElementById("board-area");
  if (!area) return;
  const update = () => {
    const top = area.getBoundingClientRect().top + window.scrollY;
    const value = `${Math.round(top)}px`;
    if (document.documentElement.style.getPropertyValue("--board-top") !== value) {
      document.documentElement.style.setProperty("--board-top", value);
    }
  };
  update();
  window.addEventListener("resize", update);
  new ResizeObserver(update).observe(document.querySelector(".topbar"));
  const bar = document.getElementById("replay-bar");
  if (bar) new ResizeObserver(update).observe(bar);
  const banner = document.getElementById("conn-banner");
  if (banner) new MutationObserver(update).observe(banner, { attributes: true, attributeFilter: ["hidden"] });
  return update;
}

// A phone's action bar is fixed to the bottom and as tall as its content (table-fit.css):
// the page keeps room for the tallest bar seen below the table (--bar-space), so the last
// rows can be scrolled out from under it. Only ever growing: a shrinking page would clamp
// the player's scroll position and move the board.
/** @returns {void} */
export function keepRoomForBar() {
  const bar = document.getElementById("actionbar");
  if (!bar) return;
  const phone = window.matchMedia("(max-width: 599px)");
  let room = 0;
  const update = () => {
    if (!phone.matches || getComputedStyle(bar).position !== "fixed") return;
    const height = Math.ceil(bar.getBoundingClientRect().height) + 8;
    if (height <= room) return;
    room = height;
    document.documentElement.style.setProperty("--bar-space", `${room}px`);
  };
  new ResizeObserver(update).observe(bar);
  phone.addEventListener("change", update);
  update();
}

// When the game ends the result comes to the player, wherever they had scrolled: the
// final scores (and Play again) are brought on screen once, as they first appear.
/** @returns {void} */
export function showFinalWhenItComes() {
  const final = document.getElementById("final");
  if (!final) return;
  let shown = !final.hidden;
  new MutationObserver(() => {
    const now = !final.hidden;
    if (now && !shown) {
      const top = final.getBoundingClientRect().top;
      if (top < 0 || top > innerHeight / 3) final.scrollIntoView({ block: "start" });
    }
    shown = now;
  }).observe(final, { attributes: true, attributeFilter: ["hidden"] });
}

// The chat is open and docked under your own board (talk/dock.js sets the class).
const isDocked = (dock) => Boolean(dock && !dock.hidden && dock.classList.contains("docked"));

// Wide, the open chat is docked under your own board (talk.css): it takes only the height
// left below it in the window (--chat-room), so opening it or typing in it never scrolls
// the prompt and the board away. When even its least height (one line of messages) does not
// fit there, as under a tall board at its 24 px floor (three players in Thai, two cards on a
// tab, at 1366×768), it is .tight: its reactions move up beside its title (smaller) and an
// empty list folds, so that its text box stays in the window. Its untightened least height
// is kept in data-least: your cards (fitOwnCards) shrink for that first.
/** @returns {void} */
export function fitChat() {
  const dock = document.getElementById("talk");
  if (!dock) return;
  const head = dock.querySelector(".talk-head");
  const reactions = dock.querySelector(".talk-reactions");
  const form = dock.querySelector(".talk-form");
  const wide = window.matchMedia("(min-width: 1200px)");
  // The chat's least height: all it holds with its list of lines at its least height.
  const least = () => {
    const list = dock.querySelector(".talk-list");
    const give = list ? list.getBoundingClientRect().height - parseFloat(getComputedStyle(list).minHeight) : 0;
    return dock.scrollHeight - give;
  };
  const place = (up) => {
    if (up && reactions.parentElement !== head) head.lastElementChild.before(reactions);
    if (!up && reactions.parentElement === head) form.before(reactions);
  };
  const tighten = (on) => {
    if (!head || !reactions || !form) return;
    place(on);
    if (dock.classList.contains("tight") !== on) dock.classList.toggle("tight", on);
  };
  const update = () => {
    if (!isDocked(dock) || !wide.matches) {
      tighten(false);
      return;
    }
    const top = dock.getBoundingClientRect().top + window.scrollY;
    const left = Math.floor(window.innerHeight - top - 8);
    const room = `${Math.max(150, left)}px`;
    if (document.documentElement.style.getPropertyValue("--chat-room") !== room) {
      document.documentElement.style.setProperty("--chat-room", room);
    }
    // Measured as it is laid out untightened (at once: nothing is painted in between).
    if (head && reactions && form) place(false);
    const need = least();
    dock.dataset.least = String(need);  // what fitOwnCards keeps room for, tight or not
    tighten(need > Math.max(150, left) + 0.5);
  };
  // (Its own .tight is no reason to measure again: only "docked" and "hidden" are.)
  let was = "";
  new MutationObserver(() => {
    const now = `${dock.hidden}/${dock.classList.contains("docked")}`;
    if (now !== was) update();
    was = now;
  }).observe(dock, { attributes: true, attributeFilter: ["hidden", "class"] });
  const me = document.getElementById("me-area");
  if (me) new ResizeObserver(update).observe(me);
  window.addEventListener("resize", update);
  update();
}

// Wide, the supply sits under the board when the window has the room for it, freeing the side column for the other players and
// the log; else it stays in the side column. Decided when the table is shown and on resize
// (never as counts change), so it does not jump while playing.
/** @returns {void} */
export function supplyUnderBoard() {
  const supply = document.getElementById("supply");
  const col = document.getElementById("board-col");
  const log = document.getElementById("log");
  const game = document.getElementById("game");
  if (!supply || !col || !log || !game) return;
  const wide = window.matchMedia("(min-width: 1200px)");
  // The board is as tall as the window leaves above the supply (table-fit.css reads
  // --supply-h): two lines of counts under a big board, three under a narrow one.
  const measure = () => {
    if (supply.parentElement !== col) return;
    const value = `${Math.ceil(supply.getBoundingClientRect().height)}px`;
    if (document.documentElement.style.getPropertyValue("--supply-h") !== value) {
      document.documentElement.style.setProperty("--supply-h", value);
    }
  };
  const place = () => {
    if (game.hidden) return;
    if (wide.matches) {
      if (supply.parentElement !== col) col.append(supply);
      measure();
      measure();  // the board took the room it leaves, and the counts may have rewrapped
      if (col.getBoundingClientRect().bottom + window.scrollY <= window.innerHeight) return;
    }
    if (supply.nextElementSibling !== log) log.before(supply);
  };
  new MutationObserver(place).observe(game, { attributes: true, attributeFilter: ["hidden"] });
  new ResizeObserver(measure).observe(supply);
  window.addEventListener("resize", place);
  place();
}

// Wide, your own cards and cups are as big as your column's width allows (table-fit.css),
// but no bigger than the window's height leaves: with several cards on a tab, the hand in
// the bar or the chat docked under your board, --me-ico-max caps them (2 px at a time, never
// under 24 px) so that your own board stays whole on screen and the page does not scroll.
/** @returns {void} */
export function fitOwnCards() {
  const me = document.getElementById("me-area");
  if (!me) return;
  const wide = window.matchMedia("(min-width: 1200px)");
  const root = document.documentElement.style;
  const dock = document.getElementById("talk");
  // The docked chat's least height under your board: all it holds with its list of lines
  // at its least height, its border, and the grid's gap above it.
  // Untightened (fitChat measures it so): your cards give the chat its room first, and the
  // chat is only .tight when they are at their floor.
  const chatRoom = () => {
    if (!isDocked(dock)) return 0;
    const list = dock.querySelector(".talk-list");
    const give = list ? list.getBoundingClientRect().height - parseFloat(getComputedStyle(list).minHeight) : 0;
    const least = dock.classList.contains("tight") ? Number(dock.dataset.least) : dock.scrollHeight - give;
    return Math.ceil(least + 2 + 10);
  };
  const update = () => {
    root.removeProperty("--me-ico-max");
    const board = me.querySelector(".pboard.is-me");
    const cup = board && board.querySelector(".cup");
    if (wide.matches && cup && board.checkVisibility()) {
      const limit = window.innerHeight - 8 - chatRoom();
      const fits = () => board.getBoundingClientRect().bottom + window.scrollY <= limit;
      // A cup is two icons and 24 px wide (table-fit.css): the icon's size now.
      let cap = Math.floor((cup.getBoundingClientRect().width - 24) / 2);
      while (cap > 24 && !fits()) {
        cap = Math.max(24, cap - 2);
        root.setProperty("--me-ico-max", `${cap}px`);
      }
    }
  };
  const observer = new ResizeObserver(update);
  observer.observe(me);
  const bar = document.getElementById("actionbar");
  if (bar) observer.observe(bar);
  if (dock) new MutationObserver(update).observe(dock, { attributes: true, attributeFilter: ["hidden", "class"] });
  window.addEventListener("resize", update);
  wide.addEventListener("change", update);
  update();
}

// The toast ("While a bot played for you: …") covers nothing a player needs (issue 43). Wide,
// it sits in your own column right under your board (under the docked chat when it is open)
// or under the side column, where the window leaves the room; else over the docked chat's
// older lines, or at the window's bottom in your column: never over the board or the supply. On a phone, where every height of the screen is the
// table's, it is the action bar's first row while it shows: the bar, as tall as what it
// says, grows by it, and it covers none of the bar's buttons (nor, floating where the bar so
// grown would, anything usable: bar-notes.js). Placed as it shows, and again when what it sits
// by moves.
/** @returns {void} */
export function keepToastClear() {
  const toast = document.getElementById("toast");
  const me = document.getElementById("me-area");
  const bar = document.getElementById("actionbar");
  if (!toast || !me) return;
  const wide = window.matchMedia("(min-width: 1200px)");
  const home = toast.parentElement;
  const place = () => {
    placeToast();
    placeNotes();
  };
  const placeToast = () => {
    const style = toast.style;
    for (const p of ["left", "top", "bottom", "width", "max-width", "transform"]) style.removeProperty(p);
    const inBar = Boolean(bar) && !toast.hidden && getComputedStyle(bar).position === "fixed";
    if (inBar && toast.parentElement !== bar) bar.prepend(toast);
    if (!inBar && toast.parentElement !== home) home.append(toast);
    if (toast.hidden || inBar) return;
    if (wide.matches && me.checkVisibility()) {
      const dock = document.getElementById("talk");
      const docked = isDocked(dock);
      const col = me.getBoundingClientRect();
      const side = document.getElementById("side");
      // Where it covers nothing: under your board (or the docked chat), else under the side
      // column, where the window leaves the room.
      const spots = [[col, docked ? dock.getBoundingClientRect().bottom : col.bottom]];
      if (side && side.checkVisibility()) {
        const r = side.getBoundingClientRect();
        spots.push([r, r.bottom]);
      }
      const fit = (r) => Object.assign(style, { left: `${r.left}px`, width: `${r.width}px`,
        maxWidth: "none", transform: "none", bottom: "auto" });
      for (const [r, above] of spots) {
        fit(r);
        if (above + 10 + toast.getBoundingClientRect().height <= window.innerHeight - 8) {
          style.top = `${Math.round(above + 10)}px`;
          return;
        }
      }
      fit(col);
      const list = docked && dock.querySelector(".talk-list");
      if (list) style.top = `${Math.round(list.getBoundingClientRect().top)}px`;
      else Object.assign(style, { top: "auto", bottom: "8px" });
    }
  };
  new MutationObserver(place).observe(toast, { attributes: true, attributeFilter: ["hidden"], childList: true });
  const dock = document.getElementById("talk");
  if (dock) new MutationObserver(place).observe(dock, { attributes: true, attributeFilter: ["hidden", "class"] });
  const observer = new ResizeObserver(place);
  for (const el of [me, bar, document.getElementById("side")]) if (el) observer.observe(el);
  window.addEventListener("resize", place);
}

// The log's least usable height under the opponents (two or three players): about five lines.
const LOG_LEAST = 120;
// The opponents' icons: never under 20 px drawn as cards; with four players, as chips down to
// 14 px when even 20 px cards do not fit (the zoom shows any of them whole); at most 32 px.
const OPP_CARD_LEAST = 20;
const OPP_CHIP_LEAST = 14;
const OPP_MOST = 32;

// Wide, the other players' orders and cups are as big as the side column leaves them (issue
// 43; cards.css reads --opp-ico): as wide as a tab allows, then 1 px smaller at a time while
// the side column would need its own scroll (with two or three players the log under the
// opponents keeps LOG_LEAST px of its list) or the page would scroll. With four players the
// log is a tab of its own, and the opponents draw as chips if 20 px cards do not fit. Measured
// while the opponents show (not under the Log tab), as boards change and on resize.
/** @returns {void} */
export function fitOpponents() {
  const side = document.getElementById("side");
  const players = document.getElementById("players");
  if (!side || !players) return;
  const wide = window.matchMedia("(min-width: 1200px)");
  const list = document.getElementById("log-list");
  const set = (cards, ico) => {
    side.classList.toggle("opp-cards", cards);
    side.style.setProperty("--opp-ico", `${ico}px`);
  };
  const update = () => {
    if (!wide.matches) {
      side.classList.remove("opp-fit", "opp-cards");
      side.style.removeProperty("--opp-ico");
      return;
    }
    side.classList.add("opp-fit");
    const crowded = side.classList.contains("crowded");
    if (!crowded) side.classList.add("opp-cards");
    const tab = players.querySelector(".pboard.compact .tab");
    if (!tab || !tab.checkVisibility()) return;  // no opponents yet, or the Log tab shows
    const fits = () => {
      if (document.scrollingElement.scrollHeight > window.innerHeight) return false;
      let need = side.scrollHeight;
      if (!crowded && list && list.checkVisibility()) need += LOG_LEAST - list.offsetHeight;
      return need <= parseFloat(getComputedStyle(side).maxHeight) + 0.5;
    };
    set(true, OPP_CARD_LEAST);
    // A card is its tab less its border (2 px each side on a Specialty), its cup 2 icons + 16 px.
    const style = getComputedStyle(tab);
    const inner = tab.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const most = Math.max(OPP_CARD_LEAST, Math.min(OPP_MOST, Math.floor((inner - 4 - 16) / 2)));
    let ico = most;
    set(true, ico);
    while (ico > OPP_CARD_LEAST && !fits()) set(true, --ico);
    if (!crowded || fits()) return;
    ico = most;
    set(false, ico);
    while (ico > OPP_CHIP_LEAST && !fits()) set(false, --ico);
  };
  new ResizeObserver(update).observe(players);
  // The Players / Log tabs, and four players' .crowded (not this function's own classes).
  let was = "";
  new MutationObserver(() => {
    const now = `${side.dataset.show}/${side.classList.contains("crowded")}`;
    if (now !== was) update();
    was = now;
  }).observe(side, { attributes: true, attributeFilter: ["class", "data-show"] });
  // After the supply has taken its place for the new size (supplyUnderBoard).
  window.addEventListener("resize", () => requestAnimationFrame(update));
  wide.addEventListener("change", update);
  update();
}
