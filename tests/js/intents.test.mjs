// static/js/table/intents.js: every control maps to one action the server listed; nothing else.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { emptySelection, intents, isMyTurn, normalize } from "../../static/js/table/intents.js";
import { setRulesData } from "../../static/js/core/rules-data.js";

// The real rules data (the action registry's control kinds), as the server gives it.
const root = new URL("../../", import.meta.url).pathname;
setRulesData(JSON.parse(execFileSync(process.env.PYTHON || `${root}.venv/bin/python`, ["-c",
  "import json; from server.api.rules_data import rules_data; print(json.dumps(rules_data()))"],
{ cwd: root, encoding: "utf8" })));

function view(game, seat = 0) {
  return {
    you: { seat, role: seat === null ? "spectator" : "player" },
    game: game && {
      phase: "move", current: 0, can_undo: false, move: { free_steps_left: 3 },
      players: [{ meeples: ["r2c2", "r4c4"], rush: 1 }, { meeples: ["r1c1"], rush: 0 }],
      legal: [], ...game,
    },
  };
}

test("isMyTurn: the seat to act with actions listed, never a spectator, never after the game", () => {
  const stop = [{ type: "stop" }];
  assert.equal(isMyTurn(view({ current: 0, legal: stop })), true);
  assert.equal(isMyTurn(view({ current: 0, legal: [] })), false);
  assert.equal(isMyTurn(view({ current: 1, legal: stop })), false);
  assert.equal(isMyTurn(view({ current: 0, legal: stop }, null)), false);
  assert.equal(isMyTurn(view({ current: 0, phase: "over", legal: [] })), false);
  assert.equal(isMyTurn(view(null)), false);
});

test("cells and buttons come from the legal actions, each carrying its action", () => {
  const step = { type: "step", cell: "r2c3", gain: { ice: 1 }, rush: false };
  const choose = { type: "choose_meeple", meeple: 1 };
  const stop = { type: "stop" };
  const out = intents(view({ legal: [step, choose, stop] }), emptySelection());
  assert.equal(out.mine, true);
  assert.deepEqual(out.cells.get("r2c3"), { action: step, kind: "step" });
  assert.deepEqual(out.cells.get("r4c4"), { action: choose, kind: "choose" }, "meeple 1's cell");
  assert.deepEqual(out.buttons, [{ id: "stop", key: "btn.stop", primary: false, action: stop }]);
  assert.deepEqual(out.prompt, ["prompt.choose_meeple", {}]);
});

test("not my turn: nothing to click, whatever the view lists", () => {
  const out = intents(view({ current: 1, legal: [{ type: "stop" }] }), emptySelection());
  assert.equal(out.mine, false);
  assert.equal(out.cells.size + out.buttons.length + out.cups.size, 0);
  assert.deepEqual(out.prompt, ["prompt.waiting", {}]);
});

test("pouring: a picked token offers the cups its pour actions name, and its return", () => {
  const legal = [
    { type: "pour", ingredient: "milk", cup: 0 }, { type: "pour", ingredient: "milk", cup: 2 },
    { type: "pour", ingredient: "ice", cup: 1 },
    { type: "return", ingredient: "milk" }, { type: "return", ingredient: "ice" },
    { type: "empty", cup: 1 },
  ];
  const v = view({ phase: "pour", legal });
  const none = intents(v, emptySelection());
  assert.deepEqual([...none.hand.keys()].sort(), ["ice", "milk"]);
  assert.equal(none.cups.size, 0);
  assert.equal(none.returnAction, null);
  assert.deepEqual(none.prompt, ["prompt.pourPick", {}]);
  const milk = intents(v, { ing: "milk", cup: null });
  assert.deepEqual([...milk.cups.keys()].sort(), [0, 2]);
  assert.deepEqual(milk.cups.get(2), { action: legal[1] });
  assert.deepEqual(milk.returnAction, legal[3]);
  assert.deepEqual(milk.empties.get(1), legal[5]);
  assert.deepEqual(milk.prompt, ["prompt.pourTarget", { ingKey: "milk" }]);
});

test("serving: cups to select, then the orders the selected cup can serve", () => {
  const legal = [
    { type: "serve", cup: 0, card: 40 }, { type: "serve", cup: 0, card: 12 },
    { type: "serve", cup: 2, card: 7 }, { type: "end_turn" },
  ];
  const v = view({ phase: "process", legal });
  const pick = intents(v, emptySelection());
  assert.deepEqual([...pick.cups.entries()], [[0, { select: true }], [2, { select: true }]]);
  assert.equal(pick.cards.size, 0);
  assert.deepEqual(pick.buttons.map((b) => [b.id, b.key, b.primary]),
    [["end_turn", "btn.end_turn", true]]);
  const cup0 = intents(v, { ing: null, cup: 0 });
  assert.deepEqual([...cup0.cards.keys()].sort(), [12, 40]);
  assert.deepEqual(cup0.prompt, ["prompt.processCup", { n: 1 }]);
});

test("normalize drops a selection the legal actions no longer support", () => {
  const v = view({ phase: "pour", legal: [{ type: "return", ingredient: "ice" },
    { type: "return", ingredient: "tea" }] });
  assert.deepEqual(normalize(v, { ing: "milk", cup: 1 }), { ing: null, cup: null });
  assert.deepEqual(normalize(v, { ing: "tea", cup: null }), { ing: "tea", cup: null });
});

test("normalize picks the only kind of token in hand for the player", () => {
  const v = view({ phase: "pour", legal: [{ type: "pour", ingredient: "ice", cup: 0 },
    { type: "return", ingredient: "ice" }] });
  assert.deepEqual(normalize(v, emptySelection()), { ing: "ice", cup: null });
});

test("the move prompt counts free steps, then asks for Rush Tokens", () => {
  const legal = [{ type: "step", cell: "r2c3" }];
  assert.deepEqual(intents(view({ legal }), emptySelection()).prompt,
    ["prompt.move", { free: 3, rush: 1 }]);
  assert.deepEqual(intents(view({ legal, move: { free_steps_left: 0 } }), emptySelection()).prompt,
    ["prompt.moveRush", { rush: 1 }]);
});

test("undo is offered exactly when the view says it can be", () => {
  assert.equal(intents(view({ can_undo: true }), emptySelection()).undo, true);
  assert.equal(intents(view({ can_undo: false }), emptySelection()).undo, false);
  // Time's up: a bot finishes the turn (R-TURN); the player has nothing to take back.
  const late = { ...view({ can_undo: true }), room: { seats: [{ stand_in: "greedy" }, {}] } };
  assert.equal(intents(late, emptySelection()).undo, false);
});
