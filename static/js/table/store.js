// The current view and its version. Snapshots replace it; patches (RFC 6902) update it.
import { applyPatch, deepClone } from "../../vendor/fast-json-patch/index.js";

/**
 * @typedef {import("../core/types.js").View} View
 * @typedef {(view: View | null, events: import("../core/types.js").Event[], previous: View | null) => void} Listener
 */

export class Store {
  /** @param {View | null} view */
  constructor(view) {
    /** @type {View | null} */
    this.view = view;
    /** @type {number | null} */
    this.v = null;
    /** @type {Set<Listener>} */
    this.listeners = new Set();
  }

  /** @param {Listener} fn @returns {void} */
  subscribe(fn) {
    this.listeners.add(fn);
  }

  /** @param {import("../core/types.js").Event[]} events @param {View | null} previous */
  emit(events, previous) {
    for (const fn of this.listeners) fn(this.view, events, previous);
  }

  /** @param {number} v @param {View} view @returns {void} */
  snapshot(v, view) {
    const previous = this.view;
    this.view = view;
    this.v = v;
    this.emit([], previous);
  }

  // Returns false when the patch cannot apply: the caller then asks for a fresh snapshot.
  /**
   * @param {number} v the version the patch leads to
   * @param {import("../core/types.js").PatchOp[]} ops
   * @param {import("../core/types.js").Event[]} [events]
   * @returns {boolean}
   */
  patch(v, ops, events) {
    if (this.v !== null && v <= this.v) return true; // already have it
    const previous = deepClone(this.view);
    try {
      this.view = applyPatch(this.view, ops, false, true).newDocument;
    } catch (err) {
      this.view = previous;
      return false;
    }
    this.v = v;
    this.emit(events || [], previous);
    return true;
  }
}
