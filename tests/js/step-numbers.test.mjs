// static/js/table/step-numbers.js: a walk's steps as the board numbers them, one badge per
// cell; a walk may come back to a cell (R-MOVE), and then the cell's badge says every step
// that ends there, not only the last one.
import { test } from "node:test";
import assert from "node:assert/strict";

const { stepLabels } = await import("../../static/js/table/step-numbers.js");

test("a walk that never comes back: one number per cell, in order", () => {
  assert.deepEqual(stepLabels(["r1c2", "r1c3", "r2c3"]), [
    { cell: "r1c2", label: "1" }, { cell: "r1c3", label: "2" }, { cell: "r2c3", label: "3" }]);
});

test("a cell walked onto twice says both steps, in the order of first visits", () => {
  // From r1c1: to r1c2, back to r1c1, and to r1c2 again.
  assert.deepEqual(stepLabels(["r1c2", "r1c1", "r1c2"]), [
    { cell: "r1c2", label: "1·3" }, { cell: "r1c1", label: "2" }]);
  assert.deepEqual(stepLabels(["r2c2", "r2c3", "r2c2", "r2c3", "r2c2"]), [
    { cell: "r2c2", label: "1·3·5" }, { cell: "r2c3", label: "2·4" }]);
});

test("a hinted walk numbers on from the steps already walked", () => {
  assert.deepEqual(stepLabels(["r3c3", "r3c4", "r3c3"], 2), [
    { cell: "r3c3", label: "3·5" }, { cell: "r3c4", label: "4" }]);
  assert.deepEqual(stepLabels([]), []);
});
