// The action in flight: data-busy="1" while one is (until its ack and the version it made
// are in); data-v is the version shown. Both help anyone (and tests) know the table is
// settled. While one is in flight, the action buttons are disabled and further clicks are
// ignored: a double click sends one action.

/**
 * @param {{act: (action: object, v: number | null) => void, unanswered: () => number,
 *   version: () => number | null, blocked: () => boolean, before: (action: object) => void,
 *   draw: () => void}} deps
 */
export function createPending({ act, unanswered, version, blocked, before, draw }) {
  const body = document.body;
  let awaitingV = null;
  let heldButtons = [];

  return {
    send(action) {
      if (body.dataset.busy === "1" || blocked()) return;
      before(action);
      body.dataset.busy = "1";
      heldButtons = [...document.querySelectorAll("#actionbar button")].filter((b) => !b.disabled);
      for (const b of heldButtons) b.disabled = true;
      act(action, version());
    },
    // The ack of an action: the version it made is the one to wait for.
    acked(v) {
      awaitingV = v;
    },
    // After every frame: done waiting once that version is shown and nothing is unanswered.
    settle() {
      const v = version();
      if (awaitingV !== null && v !== null && v >= awaitingV) awaitingV = null;
      if (awaitingV === null && unanswered() === 0 && body.dataset.busy !== "0") {
        body.dataset.busy = "0";
        for (const b of heldButtons) b.disabled = false;
        heldButtons = [];
        draw();
      }
      body.dataset.v = String(v);
    },
  };
}
