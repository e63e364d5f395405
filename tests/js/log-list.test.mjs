// static/js/table/log-list.js: the log keeps every game line, and folds presence noise (a player
// going offline and coming back, again and again) into one line per player and run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";

class Element {
  constructor(tag) { this.tag = tag; this.children = []; this.className = ""; this.dataset = {}; this.textContent = ""; }
  append(...c) { this.children.push(...c); }
  prepend(...c) { this.children.unshift(...c); }
  replaceChildren(...c) { this.children = c; }
  setAttribute() {}
  addEventListener() {}
}
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
Object.defineProperty(globalThis, "navigator", { value: { languages: ["en"] }, configurable: true });
globalThis.document = { documentElement: { lang: "" }, querySelectorAll: () => [], createElement: (tag) => new Element(tag) };

const root = new URL("../../", import.meta.url).pathname;
const { setRulesData } = await import("../../static/js/core/rules-data.js");
setRulesData(JSON.parse(execFileSync(process.env.PYTHON || `${root}.venv/bin/python`, ["-c",
  "import json; from server.api.rules_data import rules_data; print(json.dumps(rules_data()))"],
{ cwd: root, encoding: "utf8" })));
const { LogList } = await import("../../static/js/table/log-list.js");

const nameOf = Object.assign((seat) => ["Ana", "Ben"][seat], { seatCount: 2 });
const shown = (list) => list.list.children.map((li) => li.className.replace("ev ev-", ""));
const away = (seat, connected) => ({ type: "presence", seat, connected });

test("a run of presence events keeps one line per player: their latest", () => {
  const log = new LogList(new Element("ol"));
  log.add(1, [{ type: "turn_ended", seat: 0 }]);
  log.render(nameOf);
  log.add(2, [away(1, false)]);
  log.render(nameOf);
  log.add(3, [away(1, true)]);
  log.add(4, [away(0, false), away(1, false)]);
  log.render(nameOf);
  assert.deepEqual(shown(log), ["presence", "presence", "turn_ended"]); // newest on top
  const seats = log.list.children.slice(0, 2).map((li) => li.dataset.seat).sort();
  assert.deepEqual(seats, [0, 1]);
});

test("a game line between two presence events keeps both", () => {
  const log = new LogList(new Element("ol"));
  log.add(1, [away(1, false)]);
  log.add(2, [{ type: "turn_ended", seat: 0 }]);
  log.add(3, [away(1, true)]);
  log.render(nameOf);
  assert.deepEqual(shown(log), ["presence", "turn_ended", "presence"]);
});

test("only my moves: other players' lines go, lines about nobody stay", () => {
  const log = new LogList(new Element("ol"));
  log.add(1, [{ type: "turn_ended", seat: 0 }, { type: "turn_ended", seat: 1 }, { type: "game_started" }]);
  log.showOnly(1, nameOf);
  assert.deepEqual(log.list.children.map((li) => li.dataset.seat), ["", 1]);
  log.showOnly(null, nameOf);
  assert.equal(log.list.children.length, 3);
});
