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

// Wide, the open chat is docked under your own board (talk.css): it takes only the height
// left below it in the window (--chat-room), so opening it or typing in it never scrolls
// the prompt and the board away.
/** @returns {void} */
export function fitChat() {
  const dock = document.getElementById("talk");
  if (!dock) return;
  const update = () => {
    if (dock.hidden || !dock.classList.contains("docked")) return;
    const top = dock.getBoundingClientRect().top + window.scrollY;
    const room = `${Math.max(150, Math.floor(window.innerHeight - top - 8))}px`;
    if (document.documentElement.style.getPropertyValue("--chat-room") !== room) {
      document.documentElement.style.setProperty("--chat-room", room);
    }
  };
  new MutationObserver(update).observe(dock, { attributes: true, attributeFilter: ["hidden", "class"] });
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
