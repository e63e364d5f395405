// The current view and its version. Snapshots replace it; patches (RFC 6902) update it.
import { applyPatch, deepClone } from "../vendor/fast-json-patch/index.js";

export class Store {
  constructor(view) {
    this.view = view;
    this.v = null;
    this.listeners = new Set();
  }

  subscribe(fn) {
    this.listeners.add(fn);
  }

  emit(events, previous) {
    for (const fn of this.listeners) fn(this.view, events, previous);
  }

  snapshot(v, view) {
    const previous = this.view;
    this.view = view;
    this.v = v;
    this.emit([], previous);
  }

  // Returns false when the patch cannot apply: the caller then asks for a fresh snapshot.
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
