// static/js/table/store.js: snapshots replace the view, patches update it in order, a patch that
// cannot apply leaves the view as it was and says so (the caller then asks for a sync).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Store } from "../../static/js/table/store.js";

function recorded() {
  const store = new Store(null);
  const calls = [];
  store.subscribe((view, events, previous) => calls.push({ view, events, previous }));
  return { store, calls };
}

test("a snapshot replaces the view and the version, and tells the listeners", () => {
  const { store, calls } = recorded();
  store.snapshot(3, { game: { turn: 1 } });
  assert.equal(store.v, 3);
  assert.deepEqual(store.view, { game: { turn: 1 } });
  assert.deepEqual(calls, [{ view: { game: { turn: 1 } }, events: [], previous: null }]);
});

test("a patch applies RFC 6902 ops, moves the version and passes its events on", () => {
  const { store, calls } = recorded();
  store.snapshot(1, { game: { turn: 1, log: [] } });
  const ok = store.patch(2, [{ op: "replace", path: "/game/turn", value: 2 },
    { op: "add", path: "/game/log/-", value: "moved" }], [{ type: "moved" }]);
  assert.equal(ok, true);
  assert.equal(store.v, 2);
  assert.deepEqual(store.view, { game: { turn: 2, log: ["moved"] } });
  const last = calls.at(-1);
  assert.deepEqual(last.events, [{ type: "moved" }]);
  assert.deepEqual(last.previous, { game: { turn: 1, log: [] } }, "previous is the view before");
});

test("a patch the store already has is skipped, and counts as applied", () => {
  const { store, calls } = recorded();
  store.snapshot(5, { n: 5 });
  assert.equal(store.patch(5, [{ op: "replace", path: "/n", value: 99 }]), true);
  assert.equal(store.patch(4, [{ op: "replace", path: "/n", value: 99 }]), true);
  assert.deepEqual(store.view, { n: 5 });
  assert.equal(store.v, 5);
  assert.equal(calls.length, 1, "no listener call for a skipped patch");
});

test("a patch that cannot apply changes nothing and returns false", () => {
  const { store, calls } = recorded();
  store.snapshot(1, { game: { turn: 1 } });
  const ok = store.patch(2, [
    { op: "replace", path: "/game/turn", value: 2 },
    { op: "test", path: "/game/phase", value: "move" }, // fails: the view has no phase
  ]);
  assert.equal(ok, false);
  assert.deepEqual(store.view, { game: { turn: 1 } }, "the first op did not stick");
  assert.equal(store.v, 1);
  assert.equal(calls.length, 1);
});

test("a patch does not alter the previous view handed to listeners", () => {
  const { store, calls } = recorded();
  const first = { game: { players: [{ rush: 0 }] } };
  store.snapshot(1, first);
  store.patch(2, [{ op: "replace", path: "/game/players/0/rush", value: 2 }]);
  assert.equal(calls.at(-1).previous.game.players[0].rush, 0);
  assert.equal(store.view.game.players[0].rush, 2);
});
