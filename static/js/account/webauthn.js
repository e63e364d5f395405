// Passkeys in the browser: the server's JSON options (base64url fields) to the
// ArrayBuffers navigator.credentials wants, and its answer back to JSON for the server.

const toBuffer = (b64url) => {
  const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(b64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
};

const toB64url = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

const descriptors = (list) => (list || []).map((d) => ({ ...d, id: toBuffer(d.id) }));

/** @returns {boolean} whether this browser can make and use passkeys */
export function passkeysAvailable() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

function answer(cred) {
  if (typeof cred.toJSON === "function") return cred.toJSON();
  const r = cred.response;
  const response = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    response.transports = typeof r.getTransports === "function" ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return { id: cred.id, rawId: toB64url(cred.rawId), type: cred.type, response,
    clientExtensionResults: cred.getClientExtensionResults(),
    authenticatorAttachment: cred.authenticatorAttachment ?? undefined };
}

/**
 * navigator.credentials.create() with the server's creation options.
 * @param {any} options
 * @returns {Promise<object>} the new credential as JSON
 */
export async function createPasskey(options) {
  const publicKey = { ...options, challenge: toBuffer(options.challenge),
    user: { ...options.user, id: toBuffer(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials) };
  return answer(await navigator.credentials.create({ publicKey }));
}

/**
 * navigator.credentials.get() with the server's request options.
 * @param {any} options
 * @returns {Promise<object>} the assertion as JSON
 */
export async function usePasskey(options) {
  const publicKey = { ...options, challenge: toBuffer(options.challenge),
    allowCredentials: descriptors(options.allowCredentials) };
  return answer(await navigator.credentials.get({ publicKey }));
}
