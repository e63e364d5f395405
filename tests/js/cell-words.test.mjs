// static/js/table/cell-words.js and the hint's line of why: a cell is named as the board
// shows it (its ingredient, and the place that tells it apart from the other cells of that
// ingredient, R-COMP-1), never by a coordinate the board does not draw, in every language.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
Object.defineProperty(globalThis, "navigator", { value: { languages: ["en"] }, configurable: true });
globalThis.document = { documentElement: { lang: "" }, querySelectorAll: () => [] };

const root = new URL("../../", import.meta.url).pathname;
const { setRulesData } = await import("../../static/js/core/rules-data.js");
setRulesData(JSON.parse(execFileSync(process.env.PYTHON || `${root}.venv/bin/python`, ["-c",
  "import json; from server.api.rules_data import rules_data; print(json.dumps(rules_data()))"],
{ cwd: root, encoding: "utf8" })));
const { setLang } = await import("../../static/js/lang/i18n.js");
const { cellWords } = await import("../../static/js/table/cell-words.js");
const { whyLine } = await import("../../static/js/table/hint.js");
const { sentence } = await import("../../static/js/table/log.js");

const CELLS = [1, 2, 3, 4].flatMap((r) => [1, 2, 3, 4].map((c) => `r${r}c${c}`));

test("each of the 16 cells has its own name, with no coordinate in it, in each language", () => {
  for (const lang of ["en", "th", "ko"]) {
    setLang(lang);
    const names = CELLS.map(cellWords);
    assert.equal(new Set(names).size, 16, `${lang}: ${names}`);
    for (const name of names) assert.doesNotMatch(name, /[rR]\d[cC]\d|\{/, `${lang}: ${name}`);
  }
});

test("a cell says its ingredient and only as much place as tells it apart", () => {
  setLang("en");
  assert.equal(cellWords("r3c1"), "the tea"); // the only tea (a Specialty cell)
  assert.equal(cellWords("r1c4"), "the coffee in the top-right corner");
  assert.equal(cellWords("r2c1"), "the coffee in the left column");
  assert.equal(cellWords("r3c4"), "the coffee in the third row"); // r1c4 shares its column
  assert.equal(cellWords("r2c2"), "the milk in the second column");
  setLang("th");
  assert.equal(cellWords("r1c4"), "กาแฟที่มุมขวาบน");
  setLang("ko");
  assert.equal(cellWords("r2c1"), "맨 왼쪽 열의 커피");
});

test("a hinted walk says its steps and where it ends, as the board shows it", () => {
  const why = { key: "hint.why.move_serve",
    args: { cell: "r3c4", steps: 3, gains: { coffee: 1, milk: 2 }, orders: ["Latte"] } };
  setLang("en");
  assert.equal(whyLine(why),
    "Walk 3 steps to the coffee in the third row, gaining 1 coffee, 2 milk; then serve Latte.");
  // A hint recorded before the why said its steps counts them on its path.
  const old = { key: "hint.why.move", args: { cell: "r1c1", gains: { ice: 1 } } };
  assert.equal(whyLine(old, ["r1c2", "r1c1"]), "Walk 2 steps to the ice in the top-left corner, gaining 1 ice.");
  setLang("ko");
  assert.match(whyLine(why), /^셋째 줄의 커피까지 3칸 걸어가/);
  setLang("th");
  assert.match(whyLine(why), /^เดิน 3 ก้าว ไปที่กาแฟที่แถวที่สาม/);
});

test("the log's move lines name the cell the same way", () => {
  setLang("en");
  const line = sentence({ type: "moved", seat: 0, meeple: 0, from: "r1c2", to: "r1c3",
    gained: { steam: 1 }, rush_spent: 0 },
    Object.assign((s) => ["Ana"][s], { seatCount: 2 }));
  assert.equal(line, "Ana stepped to the steam in the third column and gained 1 steam.");
});

test("what a bot did for you is said to you, in order, from the events' own registry", async () => {
  const { youSentence } = await import("../../static/js/table/log.js");
  const nameOf = Object.assign((s) => ["Ana", "Bo"][s], { seatCount: 2 });
  const events = [
    { type: "moved", seat: 0, meeple: 0, from: "r1c2", to: "r1c3", gained: { steam: 1 }, rush_spent: 0 },
    { type: "stopped", seat: 0, cell: "r1c3", steps: 1 },
    { type: "poured", seat: 0, ingredient: "steam", cup: 0 },
    { type: "served", seat: 0, cup: 0, card: { id: 3, name: "Cocoa", recipe: {}, specialty: false }, rush_gained: 0 },
    { type: "turn_ended", seat: 0 },
  ];
  setLang("en");
  assert.deepEqual(events.map((ev) => youSentence(ev, nameOf)).filter(Boolean), [
    "walked 1 step to the steam in the third column", "poured steam into cup 1", "served Cocoa",
    "ended your turn"]);
  setLang("ko");
  assert.equal(youSentence(events[3], nameOf), "코코아 서빙");
});
