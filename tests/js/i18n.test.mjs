// static/js/lang/i18n.js: lookup with English fallback, parameters, plural forms, counted
// parameters, Korean particles, and the language choice (saved, then the browser's).
import { test } from "node:test";
import assert from "node:assert/strict";

// The module reads the browser's storage and languages when it loads: give it stand-ins.
const saved = new Map();
globalThis.localStorage = {
  getItem: (k) => saved.get(k) ?? null,
  setItem: (k, v) => saved.set(k, String(v)),
};
Object.defineProperty(globalThis, "navigator", {
  value: { languages: ["ko-KR", "en"] }, configurable: true,
});
globalThis.document = { documentElement: { lang: "" }, querySelectorAll: () => [] };

const i18n = await import("../../static/js/lang/i18n.js");
const { t, setLang, getLang, tokens, onLangChange } = i18n;
const { default: en } = await import("../../static/js/lang/en.js");
const { default: ko } = await import("../../static/js/lang/ko.js");
const { default: th } = await import("../../static/js/lang/th.js");

test("the browser's first supported language is picked when nothing is saved", () => {
  assert.equal(getLang(), "ko");
});

test("setLang saves the choice, sets the page language and tells listeners", () => {
  const heard = [];
  onLangChange((lang) => heard.push(lang));
  setLang("en");
  assert.equal(getLang(), "en");
  assert.equal(saved.get("cr.lang"), "en");
  assert.equal(document.documentElement.lang, "en");
  assert.deepEqual(heard, ["en"]);
  setLang("xx"); // unknown: ignored
  assert.equal(getLang(), "en");
});

test("parameters are substituted; an unknown key shows the key; a missing parameter stays", () => {
  setLang("en");
  assert.equal(t("prompt.processCup", { n: 2 }), "Pick a highlighted order for cup 2.");
  assert.equal(t("no.such.key"), "no.such.key");
  assert.equal(t("prompt.processCup"), "Pick a highlighted order for cup {n}.");
});

test("English plurals follow Intl.PluralRules on n (or count)", () => {
  setLang("en");
  assert.equal(t("count.rushTokens", { n: 1 }), "1 Rush Token");
  assert.equal(t("count.rushTokens", { n: 0 }), "0 Rush Tokens");
  assert.equal(t("count.rushTokens", { n: 2 }), "2 Rush Tokens");
  assert.equal(t("ev.orders_dealt", { name: "Ana", count: 1 }), "Ana received 1 new order.");
  assert.equal(t("ev.orders_dealt", { name: "Ana", count: 3 }), "Ana received 3 new orders.");
});

test("a counted parameter {x#key} is told through that plural string", () => {
  setLang("en");
  assert.equal(t("prompt.move", { free: 1, rush: 2 }),
    "Step to a highlighted cell (1 free step left, 2 Rush Tokens).");
});

test("a key missing in a language falls back to English", () => {
  // Every key is in every language (tests/api/test_strings.py): take one out for this.
  const thai = th["count.rushTokens"];
  delete th["count.rushTokens"];
  try {
    setLang("th");
    assert.equal(t("count.rushTokens", { n: 2 }), "2 Rush Tokens");
    assert.equal(t("ing.coffee"), "กาแฟ");
  } finally {
    th["count.rushTokens"] = thai;
    setLang("en");
  }
});

test("Korean strings get their particles fitted to the word before them", () => {
  setLang("ko");
  // 안나 ends in a vowel: 가; 준 ends in a consonant: 이.
  assert.equal(t("ev.placed", { name: "안나", cell: "r1c1" }), "안나가 r1c1에 말을 놓았습니다.");
  assert.equal(t("ev.placed", { name: "준", cell: "r1c1" }), "준이 r1c1에 말을 놓았습니다.");
  assert.ok(!t("ev.moved", { name: "준", cell: "r2c2", gain: "커피" }).includes("("));
  setLang("en");
});

test("tokens lists counts in the language, or says none", () => {
  setLang("en");
  assert.equal(tokens({ coffee: 2, ice: 1, milk: 0 }), "2 coffee, 1 ice");
  assert.equal(tokens({}), "none");
});

test("plural strings have an `other` form in every language (and `one` in English)", () => {
  for (const [name, table] of [["ko", ko], ["th", th]]) {
    for (const [key, value] of Object.entries(table)) {
      if (typeof value === "object") assert.ok("other" in value, `${name} ${key}`);
    }
  }
  for (const value of Object.values(en)) {
    if (typeof value === "object") assert.ok("one" in value && "other" in value);
  }
});

test("every order name (R-COMP-3) is translated in Thai and Korean; English keeps the card's own", async () => {
  const { execFileSync } = await import("node:child_process");
  const root = new URL("../../", import.meta.url).pathname;
  const names = JSON.parse(execFileSync(process.env.PYTHON || `${root}.venv/bin/python`, ["-c",
    "import json; from server.rules.data import DECK_SHEET; print(json.dumps(sorted({c[1] for c in DECK_SHEET})))"],
  { cwd: root, encoding: "utf8" }));
  assert.ok(names.length > 30 && names.includes("Iced Caramel Macchiato"));
  setLang("en");
  assert.equal(i18n.orderName("Iced Caramel Macchiato"), "Iced Caramel Macchiato");
  for (const [lang, table] of [["th", th], ["ko", ko]]) {
    setLang(lang);
    for (const name of names) {
      assert.ok(table[`order.${name}`], `${lang}: ${name}`);
      assert.doesNotMatch(i18n.orderName(name), /[A-Za-z]/, `${lang}: ${name}`);
    }
  }
  setLang("ko");
  assert.equal(i18n.orderName("Iced Caramel Macchiato"), "아이스 카라멜 마키아토");
});

test("every table of strings (the page's own and each merged one) has the same keys in th and ko", async () => {
  const { readdirSync } = await import("node:fs");
  const dir = new URL("../../static/js/lang/", import.meta.url);
  const parts = readdirSync(dir).filter((f) => f.endsWith(".en.js")).map((f) => f.slice(0, -6));
  assert.ok(parts.includes("talk") && parts.includes("turns") && parts.includes("learn"), parts);
  const tables = [["", en, th, ko]];
  for (const part of parts) {
    const [pe, pt, pk] = await Promise.all(["en", "th", "ko"].map(
      (l) => import(new URL(`${part}.${l}.js`, dir).href).then((m) => m.default)));
    tables.push([part, pe, pt, pk]);
  }
  for (const [part, e, tTh, tKo] of tables) {
    for (const [lang, table] of [["th", tTh], ["ko", tKo]]) {
      // (count.* are English plural helpers: Thai and Korean say numbers without them.)
      const missing = Object.keys(e).filter((k) => !(k in table) && !k.startsWith("count."));
      const stray = Object.keys(table).filter((k) => !(k in e));
      assert.deepEqual([missing, stray], [[], []], `${part || "main"} ${lang}`);
    }
  }
});
