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
