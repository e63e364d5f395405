// A soft two-note chime for "your turn", made with WebAudio (no sound files). Muting sticks.
const KEY = "cr.mute";
let ctx = null;

/** @returns {boolean} */
export function muted() {
  return localStorage.getItem(KEY) === "1";
}

/**
 * @param {boolean} on
 * @returns {void}
 */
export function setMuted(on) {
  localStorage.setItem(KEY, on ? "1" : "0");
}

// Browsers only allow audio after a user gesture: create the context on the first one.
/** @returns {void} */
export function unlockOnGesture() {
  const unlock = () => {
    if (!ctx && window.AudioContext) ctx = new AudioContext();
    if (ctx && ctx.state === "suspended") ctx.resume();
  };
  window.addEventListener("pointerdown", unlock, { once: true });
  window.addEventListener("keydown", unlock, { once: true });
}

/** @returns {void} */
export function chime() {
  if (muted() || !ctx || ctx.state !== "running") return;
  const now = ctx.currentTime;
  [[660, 0], [880, 0.14]].forEach(([freq, at]) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.08, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.35);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + at);
    osc.stop(now + at + 0.4);
  });
}
