// static/js/table/view-end.js: the final screen says why tied players are placed as they are
// (R-SCORE: points, then completed orders, then Rush Tokens), in each language.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
Object.defineProperty(globalThis, "navigator", { value: { languages: ["en"] }, configurable: true });
globalThis.document = { documentElement: { lang: "" }, querySelectorAll: () => [] };

const { setLang } = await import("../../static/js/lang/i18n.js");
const { tieNotes } = await import("../../static/js/table/view-end.js");

const names = ["Ana", "Bot B (greedy)", "Bot C (greedy)", "Bot D (expert)"];
const nameOf = (seat) => names[seat];
const score = (total, orders, rush) => ({ total, orders, rush, upgrades: 0, penalties: 0, tiles: [] });

function result(scores, ranking, places) {
  return { reason: "deck", scores, ranking, places, winners: ranking.filter((s) => places[s] === 1),
    turns: scores.map(() => 9), seed: "1", deck: [] };
}

test("a tie on points broken by completed orders names each player's orders", () => {
  setLang("en");
  const res = result([score(5, 5, 0), score(2, 2, 1), score(4, 2, 0), score(4, 3, 0)],
    [0, 3, 2, 1], [1, 4, 3, 2]);
  assert.deepEqual(tieNotes(res, nameOf),
    ["Bot D (expert) and Bot C (greedy) tied on 4 points; Bot D (expert) completed 3 orders, Bot C (greedy) completed 2 orders."]);
});

test("a tie on points and orders broken by Rush Tokens says so", () => {
  setLang("en");
  const res = result([score(3, 3, 2), score(3, 3, 1)], [0, 1], [1, 2]);
  assert.deepEqual(tieNotes(res, nameOf),
    ["Ana and Bot B (greedy) tied on 3 points and 3 orders; Ana has 2 Rush Tokens, Bot B (greedy) has 1 Rush Token."]);
});

test("a true tie is a shared place; no tie, no note", () => {
  setLang("en");
  const shared = result([score(3, 3, 1), score(3, 3, 1)], [0, 1], [1, 1]);
  assert.deepEqual(tieNotes(shared, nameOf),
    ["Ana and Bot B (greedy) tied on 3 points, orders and Rush Tokens: they share the place."]);
  assert.deepEqual(tieNotes(result([score(4, 4, 0), score(3, 3, 0)], [0, 1], [1, 2]), nameOf), []);
});

test("the notes are whole sentences in Thai and Korean too", () => {
  const res = result([score(4, 2, 0), score(4, 3, 0)], [1, 0], [2, 1]);
  for (const lang of ["th", "ko"]) {
    setLang(lang);
    const [note] = tieNotes(res, nameOf);
    assert.ok(note.includes("Bot B (greedy)") && note.includes("4") && note.includes("3"), note);
    assert.ok(!/[{}]/.test(note) && !/orders|tied/.test(note), note);
  }
});

test("the whole tie-break is said: players also tied on orders are placed by Rush Tokens", () => {
  // R-SCORE: Ana 5 points and 4 orders; Bot D and Bot B 5 points and 3 orders, Bot D 1 Rush
  // Token to Bot B's 0.
  const res = result([score(5, 4, 0), score(5, 3, 0), score(1, 1, 0), score(5, 3, 1)],
    [0, 3, 1, 2], [1, 2, 3, 4]);
  setLang("en");
  assert.deepEqual(tieNotes(res, nameOf), [
    "Ana and Bot D (expert) and Bot B (greedy) tied on 5 points; Ana completed 4 orders, Bot D (expert) completed 3 orders, Bot B (greedy) completed 3 orders.",
    "Bot D (expert) and Bot B (greedy) also tied on 3 orders; Bot D (expert) has 1 Rush Token, Bot B (greedy) has 0 Rush Tokens.",
  ]);
  const shared = result([score(5, 4, 0), score(5, 3, 1), score(1, 1, 0), score(5, 3, 1)],
    [0, 1, 3, 2], [1, 2, 2, 4]);
  assert.equal(tieNotes(shared, nameOf)[1],
    "Bot B (greedy) and Bot D (expert) also tied on 3 orders and on Rush Tokens: they share the place.");
  for (const lang of ["th", "ko"]) {
    setLang(lang);
    const notes = tieNotes(res, nameOf);
    assert.equal(notes.length, 2, lang);
    assert.ok(notes[1].includes("Bot D (expert)") && notes[1].includes("1") && !/[{}]|tied|orders/.test(notes[1]), notes[1]);
  }
});
