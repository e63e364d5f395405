// Korean grammar the strings need: particles that follow the word before them.
// Korean particles written as "이(가)", "을(를)", "은(는)", "과(와)", "(으)로" take the form
// that fits the final sound of the word before them: 이/을/은/과/으로 after a final
// consonant (batchim), 가/를/는/와/로 after a vowel; 로 also after a final ㄹ.
const PARTICLES = { "이(가)": ["이", "가"], "을(를)": ["을", "를"], "은(는)": ["은", "는"], "과(와)": ["과", "와"], "(으)로": ["으로", "로"] };
const PARTICLE_RE = /(이\(가\)|을\(를\)|은\(는\)|과\(와\)|\(으\)로)/g;
// The final sound of a digit read in Sino-Korean: 0 영, 1 일, 3 삼, 6 육, 7 칠, 8 팔 end in one.
const DIGIT_FINAL = { 0: "ㅇ", 1: "ㄹ", 2: "", 3: "ㅁ", 4: "", 5: "", 6: "ㄱ", 7: "ㄹ", 8: "ㄹ", 9: "" };

/**
 * @param {string} word
 * @returns {string} "" (a vowel), "ㄹ", or another final consonant ("C", or the digit's)
 */
export function finalSound(word) {
  const chars = [...word.replace(/[\s)\]"'’”.,!?]+$/u, "")];
  const last = chars[chars.length - 1];
  if (!last) return "";
  const code = last.codePointAt(0);
  if (code >= 0xac00 && code <= 0xd7a3) {
    const jong = (code - 0xac00) % 28;
    return jong === 0 ? "" : jong === 8 ? "ㄹ" : "C";
  }
  if (/[0-9]/.test(last)) return DIGIT_FINAL[last];
  // A Latin word as Koreans say it: "Bram" 브램, "Jack" 잭, "Paul" 폴 end in a consonant;
  // "Alice" 앨리스, "Max" 맥스, "Peter" 피터 end in a vowel.
  const tail = chars.slice(-2).join("").toLowerCase();
  if (/l$/.test(tail)) return "ㄹ";
  if (/(m|n|ng|ck)$/.test(tail)) return "C";
  return "";
}

/**
 * @param {string} textIn
 * @returns {string} the text with each particle pair resolved
 */
export function particles(textIn) {
  let out = "";
  let from = 0;
  for (const m of textIn.matchAll(PARTICLE_RE)) {
    const before = textIn.slice(0, m.index);
    const sound = finalSound(before);
    const [withFinal, withVowel] = PARTICLES[m[0]];
    const useFinal = m[0] === "(으)로" ? sound !== "" && sound !== "ㄹ" : sound !== "";
    out += textIn.slice(from, m.index) + (useFinal ? withFinal : withVowel);
    from = m.index + m[0].length;
  }
  return out + textIn.slice(from);
}
