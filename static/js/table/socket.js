// The websocket: connect, say hello with the seat token and the last version, reconnect with
// backoff after a drop (resuming from the last version), resend actions that were never
// applied. Knows nothing of the game.

const BACKOFF = [500, 1000, 2000, 4000, 8000, 12000];

export class Socket {
  /**
   * @param {string} code the room code
   * @param {{token: () => string | null, watcher: () => string | null, version: () => number | null,
   *   onFrame: (frame: {type: string, [field: string]: any}) => void,
   *   onStatus: (status: "open" | "lost" | "gone", detail?: any) => void}} hooks
   */
  constructor(code, { token, watcher, version, onFrame, onStatus }) {
    this.code = code;
    this.token = token; // () => seat token or null
    this.watcher = watcher; // () => spectator token or null
    this.version = version; // () => last applied version or null
    this.onFrame = onFrame;
    this.onStatus = onStatus; // ("open"|"lost"|"gone", detail)
    this.ws = null;
    this.tries = 0;
    this.timer = null;
    this.pinger = null;
    this.pending = new Map(); // id -> {action, v}
    this.nextId = 1;
    this.stopped = false;
    this.resumed = false;
    this.greetedAs = undefined; // the token of the last hello
  }

  /** @returns {string} */
  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${this.code}`;
  }

  /** @returns {void} */
  connect() {
    clearTimeout(this.timer);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
    this.stopped = false;
    this.resumed = false;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      // Resume only with the same token: a version seen as a spectator is no use to a seat.
      const token = this.token();
      const v = this.greetedAs === token ? this.version() : null;
      this.greetedAs = token;
      const hello = { type: "hello", token, v };
      if (!token && this.watcher()) hello.watcher = this.watcher();
      ws.send(JSON.stringify(hello));
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (msg) => {
      let frame;
      try {
        frame = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (frame.type === "snapshot" || frame.type === "patch") {
        if (!this.resumed) {
          this.resumed = true;
          this.tries = 0;
          this.onStatus("open");
        }
      }
      if (frame.type === "ack" || frame.type === "error") this.pending.delete(frame.id);
      if (frame.type === "bye" && frame.reason === "moved") this.tries = 0;
      if (frame.type === "bye" && frame.reason !== "restarting" && frame.reason !== "moved") {
        // A restarting server, or a table that moved to another server of a cluster, is
        // reconnected to (the first try soon); any other goodbye is final unless the page
        // decides otherwise (e.g. reconnect as a spectator after a kick).
        this.stopped = true;
        this.onStatus("gone", frame.reason);
      }
      this.onFrame(frame);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.stopped) return;
      const wait = BACKOFF[Math.min(this.tries, BACKOFF.length - 1)];
      this.tries += 1;
      this.onStatus("lost", Math.ceil(wait / 1000));
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }

  // After a resume, actions sent for the version we are still at were never applied: resend.
  /** @param {number} currentV @returns {void} */
  resend(currentV) {
    for (const [id, p] of this.pending) {
      if (p.v === currentV) this.send({ type: "act", id, v: p.v, action: p.action });
      else this.pending.delete(id);
    }
  }

  /** @param {object} frame @returns {boolean} whether the socket was open to take it */
  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  /**
   * @param {import("../core/types.js").Action} action
   * @param {number} v the version the action was chosen at
   * @returns {string} the frame id
   */
  act(action, v) {
    const id = `a${this.nextId++}`;
    this.pending.set(id, { action, v });
    this.send({ type: "act", id, v, action });
    return id;
  }

  /** @returns {void} */
  retryNow() {
    this.tries = 0;
    this.connect();
  }

  /** @returns {void} */
  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
