// HTTP calls to the room API and the per-room seat / host tokens kept in localStorage.
import { rulesData } from "./rules-data.js";

/**
 * A JSON call to the API; throws an Error carrying the coded `code` and `status` on failure.
 * @param {string} method
 * @param {string} path
 * @param {object} [body]
 * @returns {Promise<any>} the response body (null when it is not JSON)
 */
export async function call(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    // A string is sent as it is: JSON text whose numbers must stay exact (64-bit seeds).
    body: typeof body === "string" ? body : body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = new Error((data && data.error && data.error.message) || `HTTP ${res.status}`);
    err.code = data && data.error && data.error.code;
    err.status = res.status;
    throw err;
  }
  return data;
}

// Room codes: code_length characters of code_alphabet (from the server), shown as
// K7QX-PM2A; input is forgiving.

/**
 * @param {unknown} raw a room code as typed (any case, spaces and dashes allowed)
 * @returns {string | null} the bare code, or null if it is not one
 */
export function normalizeCode(raw) {
  const code = String(raw || "").toUpperCase().replace(/[\s-]/g, "");
  const { code_alphabet: alphabet, code_length: length } = rulesData();
  return code.length === length && [...code].every((ch) => alphabet.includes(ch)) ? code : null;
}

/**
 * @param {string} code a bare room code
 * @returns {string} the code as shown, K7QX-PM2A
 */
export function displayCode(code) {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

// Keyed by the bare code, whichever way it was written.
const bare = (code) => String(code).toUpperCase().replace(/-/g, "");

export const tokens = {
  seat: (code) => localStorage.getItem(`cr.seat.${bare(code)}`),
  setSeat(code, token) {
    if (token) localStorage.setItem(`cr.seat.${bare(code)}`, token);
    else localStorage.removeItem(`cr.seat.${bare(code)}`);
  },
  host: (code) => localStorage.getItem(`cr.host.${bare(code)}`),
  setHost: (code, token) => localStorage.setItem(`cr.host.${bare(code)}`, token),
  // A spectator's token at this table (issued by the server): the same chat author after a reconnect.
  watcher: (code) => localStorage.getItem(`cr.watcher.${bare(code)}`),
  setWatcher: (code, token) => localStorage.setItem(`cr.watcher.${bare(code)}`, token),
};
