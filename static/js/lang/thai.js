// Thai is written without spaces: the browser finds line breaks with a dictionary, which
// splits the loanwords and compounds the game uses as single terms ("ออเด|อร์" for order,
// "ไอ|น้ำ" for steam). Each such term is kept whole by joining its dictionary segments with
// U+2060 WORD JOINER (no break there, nothing drawn, ignored when read aloud); every other
// break is left to the browser's Thai line breaking.
import th from "./th.js";

// The game's terms, and each word of the order names (written with spaces between words, as
// menus are: "คาราเมล มัคคิอาโต เย็น"), longest first.
const TERMS = [...new Set(["ออเดอร์", "ไอน้ำ", "น้ำแข็ง", "คาราเมล", "อัปเกรด", "บทลงโทษ", "โทเคนรัช",
  ...Object.entries(th).filter(([key]) => key.startsWith("order.")).flatMap(([, name]) => name.split(" "))])]
  .sort((a, b) => b.length - a.length);
const JOINER = "\u2060";

let joined = null;
function table() {
  if (joined === null) {
    const seg = typeof Intl.Segmenter === "function" ? new Intl.Segmenter("th", { granularity: "word" }) : null;
    joined = TERMS.map((term) => [term,
      seg ? [...seg.segment(term)].map((s) => s.segment).join(JOINER) : term]);
  }
  return joined;
}

/**
 * @param {string} text Thai text
 * @returns {string} the text with the game's Thai terms kept whole on a line
 */
export function keepTermsWhole(text) {
  let out = text;
  for (const [term, whole] of table()) {
    if (term !== whole && out.includes(term)) out = out.replaceAll(term, whole);
  }
  return out;
}

export { TERMS as THAI_TERMS };
