// A cell named as the board shows it: its ingredient and, when that ingredient is on more
// than one cell, the one place that tells it apart ("the coffee in the top-right corner",
// "the milk in the second column"), never a coordinate the board does not draw. Derived
// from the board's component data (rules-data.js: R-COMP-1's grid and corners).
import { ing, t } from "../lang/i18n.js";
import { rulesData } from "../core/rules-data.js";

const CORNER = { r1c1: "tl", r1c4: "tr", r4c1: "bl", r4c4: "br" };

/**
 * Where `cell` sits, as the few words that single it out among the cells of its ingredient
 * (null: its ingredient is on no other cell).
 * @param {string} cell e.g. "r3c4"
 * @returns {string | null}
 */
function cellPlace(cell) {
  const board = rulesData().board;
  const r = Number(cell[1]), c = Number(cell[3]);
  const name = board[r - 1][c - 1];
  const same = [];
  board.forEach((row, i) => row.forEach((n, j) => { if (n === name) same.push([i + 1, j + 1]); }));
  if (same.length === 1) return null;
  if (rulesData().corners.includes(cell)) return t(`cell.corner.${CORNER[cell]}`);
  const row = t(`cell.row.${r}`), col = t(`cell.col.${c}`);
  if (same.filter(([, j]) => j === c).length === 1) return col;
  if (same.filter(([i]) => i === r).length === 1) return row;
  return t("cell.rowcol", { row, col });
}

/**
 * @param {string} cell e.g. "r3c4"
 * @returns {string} "the coffee in the third row", in the current language
 */
export function cellWords(cell) {
  const r = Number(cell[1]), c = Number(cell[3]);
  const name = ing(rulesData().board[r - 1][c - 1]);
  const place = cellPlace(cell);
  return place === null ? t("cell.only", { ing: name }) : t("cell.at", { ing: name, place });
}
