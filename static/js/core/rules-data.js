// Component data from the server (server/api/rules_data.py, also GET /api/rules-data):
// the board, ingredients, tiles, phases, action types, bot levels and limits. Every page
// embeds it as <script type="application/json" id="rules-data">, so nothing here is a hand
// copy of the game. Read lazily: importing this module touches no DOM.
let cached = null;

export function rulesData() {
  if (cached === null) {
    const el = globalThis.document?.getElementById("rules-data");
    if (!el) throw new Error("rules data missing: every page embeds #rules-data");
    cached = JSON.parse(el.textContent);
  }
  return cached;
}

// For code running outside a page (unit tests): the same object GET /api/rules-data gives.
export function setRulesData(data) {
  cached = data;
}

// A type this client does not know (an action, event or frame): a visible error in tests
// (an uncaught exception, reported as a page error) that does not stop the current render.
export function reportUnknown(what, type) {
  queueMicrotask(() => {
    throw new Error(`unknown ${what} type: ${JSON.stringify(type)}`);
  });
}
