// What the table does with each frame from the server (the wire: docs/PROTOCOL.md).
import { tokens } from "../core/api.js";
import { refusal } from "../core/refusals.js";
import { reportUnknown } from "../core/rules-data.js";

/**
 * @param {{code: string, store: import("./store.js").Store, socket: () => import("./socket.js").Socket,
 *   log: {add(v: number, events: object[]): void, fill(v: number): void},
 *   pending: {acked(v: number): void, settle(): void},
 *   chat: {receive(frame: object): void, watching(author: string): void, error(frame: object): boolean},
 *   hint: {receive(frame: object): void, error(frame: object): boolean},
 *   toast: (message: string) => void}} deps
 * @returns {(frame: any) => void}
 */
export function frameHandler({ code, store, socket, log, pending, chat, hint, toast }) {
  return function onFrame(frame) {
    switch (frame.type) {
      case "snapshot":
        store.snapshot(frame.v, frame.view);
        log.fill(frame.v);
        break;
      case "patch": {
        const before = store.v;
        if (!store.patch(frame.v, frame.ops, frame.events)) {
          store.v = null; // cannot apply: ask for a fresh snapshot
          socket().connect();
        } else if (before === null || frame.v > before) {
          log.add(frame.v, frame.events || []);
        }
        break;
      }
      case "ack":
        if (String(frame.id).startsWith("c")) break; // a chat message: not a version to await
        pending.acked(frame.v);
        break;
      case "chat":
        chat.receive(frame);
        break;
      case "hint": // what the expert would do, for us only (hint.js)
        hint.receive(frame);
        break;
      case "watcher": // who we are as a spectator: kept, so a reconnect stays the same author
        tokens.setWatcher(code, frame.token);
        chat.watching(frame.author);
        break;
      case "error":
        if (chat.error(frame) || hint.error(frame)) break;
        if (frame.id === null && frame.code === "forbidden" && !socket().resumed) {
          // Our seat token is no longer valid (removed, or the seat was left): watch instead.
          tokens.setSeat(code, null);
          socket().connect();
          break;
        }
        // A stale action only means the table moved on (a double click, another tab):
        // the patches already on their way show the result, so nothing to say.
        if (frame.code !== "stale") toast(refusal(frame.code));
        document.dispatchEvent(new CustomEvent("table:refused", { detail: frame.code })); // a lesson explains it (learn/)
        break;
      case "bye": case "pong": // handled by socket.js
        break;
      default:
        reportUnknown("frame", frame.type);
    }
    pending.settle();
  };
}
