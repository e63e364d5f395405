// The header's link menu (phones): it closes on a click elsewhere or Escape, as menus do.
const menu = /** @type {HTMLDetailsElement | null} */ (document.getElementById("nav-menu"));
if (menu) {
  document.addEventListener("click", (e) => {
    if (menu.open && !menu.contains(/** @type {Node} */ (e.target))) menu.open = false;
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menu.open) {
      menu.open = false;
      /** @type {HTMLElement} */ (menu.querySelector("summary")).focus();
    }
  });
}
