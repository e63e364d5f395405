// Original SVG icons, drawn for this project: one symbol per ingredient (shape and colour
// both differ, so the set reads in greyscale), plus the specialty star, the Rush bolt,
// check and cross marks. Injected once as a sprite; icon() returns a <use> reference.
import { svg } from "./dom.js";


const SYMBOLS = {
  // dark brown coffee bean
  coffee: `<ellipse cx="16" cy="16" rx="9" ry="12" transform="rotate(30 16 16)" fill="#5a3218" stroke="#2d170a" stroke-width="1.5"/>
    <path d="M11 8 C18 13 14 19 21 24" fill="none" stroke="#e9c9a0" stroke-width="2" stroke-linecap="round"/>`,
  // cream drop, round and full
  milk: `<path d="M16 3 C21 11 26 15 26 20 A10 10 0 0 1 6 20 C6 15 11 11 16 3 Z" fill="#fff6e0" stroke="#b89f74" stroke-width="1.6"/>
    <circle cx="12" cy="20" r="2.2" fill="#ffffff" stroke="#d8c49c" stroke-width="0.8"/>`,
  // white swirl on a coral disc
  steam: `<circle cx="16" cy="16" r="13" fill="#ef7a5f" stroke="#a9432c" stroke-width="1.2"/>
    <path d="M11 24 C7 19 15 17 11 12 C9 9 12 7 13 6 M18 25 C14 20 22 18 18 13 C16 10 19 8 20 7" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/>`,
  // pale blue ice cube, seen from a corner
  ice: `<path d="M16 4 L27 9.5 L27 22.5 L16 28 L5 22.5 L5 9.5 Z" fill="#cfeaf7" stroke="#4d8db0" stroke-width="1.5" stroke-linejoin="round"/>
    <path d="M5 9.5 L16 15 L27 9.5 M16 15 L16 28" fill="none" stroke="#4d8db0" stroke-width="1.3"/>
    <path d="M9 12 L12 13.5" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/>`,
  // brown chocolate bar with squares
  chocolate: `<rect x="7" y="4" width="18" height="24" rx="2" fill="#7b4a2a" stroke="#3f2211" stroke-width="1.5"/>
    <path d="M16 5 V27 M8 12 H24 M8 20 H24" stroke="#a86d45" stroke-width="1.6"/>`,
  // amber caramel square with a shine
  caramel: `<rect x="5" y="5" width="22" height="22" rx="6" fill="#e0a23a" stroke="#94601a" stroke-width="1.6" transform="rotate(-8 16 16)"/>
    <path d="M10 11 Q12 9 15 9.5" fill="none" stroke="#fff1cf" stroke-width="2.2" stroke-linecap="round"/>`,
  // green tea leaf
  tea: `<path d="M6 26 C5 14 13 5 27 5 C27 19 19 27 6 26 Z" fill="#6aa84f" stroke="#356e22" stroke-width="1.5" stroke-linejoin="round"/>
    <path d="M7 25 C12 19 17 14 23 9" fill="none" stroke="#e3f3d4" stroke-width="1.6" stroke-linecap="round"/>`,
  // blue water drop with a wave
  water: `<path d="M16 3 C20 10 24 15 24 20 A8 8 0 0 1 8 20 C8 15 12 10 16 3 Z" fill="#3d8fd6" stroke="#1c5a92" stroke-width="1.5"/>
    <path d="M10.5 20 Q13 18 16 20 T21.5 20" fill="none" stroke="#e6f2ff" stroke-width="1.8" stroke-linecap="round"/>`,
  star: `<path d="M16 3 L19.6 11.6 L29 12.3 L21.8 18.3 L24.1 27.5 L16 22.5 L7.9 27.5 L10.2 18.3 L3 12.3 L12.4 11.6 Z" fill="#f2c14e" stroke="#9a7414" stroke-width="1.4" stroke-linejoin="round"/>`,
  rush: `<path d="M18 2 L7 18 H15 L13 30 L25 12 H17 Z" fill="#ffd23f" stroke="#8a6a00" stroke-width="1.4" stroke-linejoin="round"/>`,
  check: `<circle cx="16" cy="16" r="13" fill="#3f8f5a"/><path d="M9 16.5 L14 21.5 L23 11" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>`,
  cross: `<circle cx="16" cy="16" r="13" fill="#c0462f"/><path d="M11 11 L21 21 M21 11 L11 21" stroke="#fff" stroke-width="3" stroke-linecap="round"/>`,
  cup: `<path d="M7 9 H23 L21 27 H9 Z" fill="#f7efe3" stroke="#6b4a32" stroke-width="1.6" stroke-linejoin="round"/>
    <path d="M23 12 C28 12 28 20 22 20" fill="none" stroke="#6b4a32" stroke-width="1.6"/>`,
  sound: `<path d="M5 12 H10 L17 6 V26 L10 20 H5 Z" fill="currentColor"/>
    <path d="M21 11 Q24 16 21 21 M24 8 Q29 16 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>`,
  mute: `<path d="M5 12 H10 L17 6 V26 L10 20 H5 Z" fill="currentColor"/>
    <path d="M21 12 L28 20 M28 12 L21 20" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>`,
  // an open eye, for spectators
  eye: `<path d="M3 16 C8 8 24 8 29 16 C24 24 8 24 3 16 Z" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linejoin="round"/>
    <circle cx="16" cy="16" r="4.5" fill="currentColor"/>`,
  // Upgrade tiles: one glyph each, so an active tile reads without its name.
  double_meeples: `<circle cx="11" cy="11" r="6" fill="currentColor"/><circle cx="21" cy="21" r="6" fill="currentColor" opacity=".7"/>`,
  diagonal_movement: `<path d="M7 25 L25 7 M13 7 H25 V19" fill="none" stroke="currentColor" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/>`,
  double_corners: `<path d="M5 13 V5 H13 M19 5 H27 V13 M27 19 V27 H19 M13 27 H5 V19" fill="none" stroke="currentColor" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/>`,
  double_specialties: `<path d="M9 3 H23 V28 L16 22 L9 28 Z" fill="currentColor"/>`,
  // Quick reactions, drawn here so that no colour-emoji font is needed.
  "react-thumbs": `<path d="M4 14 H9 V28 H4 Z" fill="#8c5a36"/><path d="M11 14 L16 4 C19 4 20 6 19 9 L18 12 H26 C28 12 29 14 28.5 16 L26 26 C25.6 27.4 24.6 28 23 28 H11 Z" fill="#f2c14e" stroke="#9a7414" stroke-width="1.4" stroke-linejoin="round"/>`,
  "react-sweat": `<circle cx="15" cy="17" r="12" fill="#f2c14e" stroke="#9a7414" stroke-width="1.4"/>
    <path d="M9 14 Q11 12 13 14 M17 14 Q19 12 21 14" fill="none" stroke="#3a2518" stroke-width="1.8" stroke-linecap="round"/>
    <path d="M9 20 Q15 26 21 20" fill="none" stroke="#3a2518" stroke-width="1.8" stroke-linecap="round"/>
    <path d="M26 3 C28 7 30 9 30 11 A4 4 0 0 1 22 11 C22 9 24 7 26 3 Z" fill="#56b4e9" stroke="#1c5a92" stroke-width="1.2"/>`,
  "react-coffee": `<path d="M5 11 H23 V22 A6 6 0 0 1 17 28 H11 A6 6 0 0 1 5 22 Z" fill="#f7efe3" stroke="#6b4a32" stroke-width="1.8" stroke-linejoin="round"/>
    <path d="M23 14 C29 14 29 22 23 22" fill="none" stroke="#6b4a32" stroke-width="1.8"/>
    <path d="M7 13 H21" stroke="#8c5a36" stroke-width="2.4"/>
    <path d="M11 8 C9 6 13 5 11 2 M17 8 C15 6 19 5 17 2" fill="none" stroke="#a58b74" stroke-width="1.5" stroke-linecap="round"/>`,
  "react-gg": `<path d="M2 12 L9 9 L16 12 L23 9 L30 12 V20 L24 23 L16 27 L8 23 L2 20 Z" fill="#f2c14e" stroke="#9a7414" stroke-width="1.4" stroke-linejoin="round"/>
    <path d="M9 17 L14 21 M12 15 L17 19 M15 13 L20 17" stroke="#9a7414" stroke-width="1.5" stroke-linecap="round"/>`,
  "react-wait": `<path d="M8 3 H24 M8 29 H24" stroke="#6b4a32" stroke-width="2.4" stroke-linecap="round"/>
    <path d="M10 4 C10 12 16 13 16 16 C16 19 10 20 10 28 H22 C22 20 16 19 16 16 C16 13 22 12 22 4 Z" fill="#fbf1e4" stroke="#6b4a32" stroke-width="1.6" stroke-linejoin="round"/>
    <path d="M12.5 26 C13 22 15 21 16 20 C17 21 19 22 19.5 26 Z M13 8 H19 L16 12 Z" fill="#e0a23a"/>`,
  ribbon: `<path d="M9 3 H23 V28 L16 22 L9 28 Z" fill="#d9a520" stroke="#8a6508" stroke-width="1.3" stroke-linejoin="round"/>`,
};

/** @returns {void} */
export function installSprite() {
  if (document.getElementById("cr-sprite")) return;
  const holder = document.createElement("div");
  holder.hidden = true;
  const inner = Object.entries(SYMBOLS)
    .map(([id, body]) => `<symbol id="i-${id}" viewBox="0 0 32 32">${body}</symbol>`).join("");
  // Static markup written here, never user data.
  holder.innerHTML = `<svg xmlns="http://www.w3.org/2000/svg" id="cr-sprite">${inner}</svg>`;
  document.body.prepend(holder);
}

// An icon; decorative (aria-hidden) unless a label is given.
/**
 * @param {string} name
 * @param {string | null} [label] an accessible name; without one the icon is decorative
 * @param {string} [cls]
 * @returns {SVGElement}
 */
export function icon(name, label = null, cls = "ico") {
  const el = svg("svg", { class: `${cls} ico-${name}`, viewBox: "0 0 32 32", focusable: "false" });
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  } else el.setAttribute("aria-hidden", "true");
  const use = svg("use", { href: `#i-${name}` });
  el.append(use);
  return el;
}
