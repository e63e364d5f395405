// The load generator of bench/load.py: rooms of 4 players + 4 spectators, 8 websockets
// each, speaking docs/PROTOCOL.md (hello, act with `v`, apply or track patches).
//
//   node bench/node/loadgen.mjs '{"kind":"game","port":8000,"rooms":100,"pace":0,
//                                 "warmup":3,"duration":30,"seed":1}'
//
// It opens every room, prints `ready <rooms>` on stdout, waits for a `go` line on stdin,
// acts until the window ends, then prints one JSON line: the counts, and for each measured
// action its start (seconds into the window) and its latency (ms) from sending the act to
// the last socket of its room holding the resulting version. Players keep only the parts
// of their view they act from (phase, current, legal); the server still sends every patch.
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";

const SEATS = 4;
const SPECTATORS = 4;
const TRACKED = ["/game/phase", "/game/current", "/game/legal"];

const config = JSON.parse(process.argv[2]);
const base = `127.0.0.1:${config.port}`;

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(config.seed);

const stats = {
  actions: 0, errors: 0, error_codes: {}, patch_bytes: 0, patches: 0,
  snapshot_bytes: 0, snapshots: 0, starts: [], latencies: [],
  replaced: 0, // rooms whose game ended inside the window, each replaced by a new room
};
const countError = (code) => {
  stats.errors += 1;
  stats.error_codes[code] = (stats.error_codes[code] || 0) + 1;
};

function tracked(game) {
  return game && { phase: game.phase, current: game.current, legal: game.legal };
}

// RFC 6902 add/remove/replace with RFC 6901 pointers: what the server sends.
function applyOp(doc, op) {
  const parts = op.path.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const last = parts.pop();
  let parent = doc;
  for (const part of parts) parent = parent[Array.isArray(parent) ? Number(part) : part];
  if (Array.isArray(parent)) {
    if (op.op === "add") {
      if (last === "-") parent.push(op.value);
      else parent.splice(Number(last), 0, op.value);
    } else if (op.op === "remove") parent.splice(Number(last), 1);
    else parent[Number(last)] = op.value;
  } else if (op.op === "remove") delete parent[last];
  else parent[last] = op.value;
}

async function post(path, body) {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(`http://${base}${path}`, {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
      return await response.json();
    } catch (error) {
      if (attempt === 10) throw error;
      countError("setup");
      await sleep(200);
    }
  }
}

async function makeRoom() {
  if (config.kind === "baseline") {
    return { code: `B${Math.floor(random() * 2 ** 40).toString(16).toUpperCase()}`,
             tokens: Array(SEATS).fill(null) };
  }
  const created = await post("/api/rooms", { players: SEATS });
  const tokens = [];
  for (let i = 0; i < SEATS; i++) {
    tokens.push((await post(`/api/rooms/${created.code}/join`, { name: `p${i}` })).seat_token);
  }
  await post(`/api/rooms/${created.code}/start`, { token: created.host_token });
  return { code: created.code, tokens };
}

class Room {
  constructor(code, tokens) {
    this.url = `ws://${base}/ws/${code}`;
    this.tokens = [...tokens, ...Array(SPECTATORS).fill(null)];
    this.views = this.tokens.map(() => ({}));
    this.versions = this.tokens.map(() => -1);
    this.sockets = [];
    this.target = null; // the version of our last action, from its ack
    this.waiter = null; // resolves when every socket holds `target` (or an error came)
  }

  async open() {
    await Promise.all(this.tokens.map((token, i) => new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url, { perMessageDeflate: false });
      this.sockets[i] = ws;
      let greeted = false;
      ws.on("open", () => ws.send(JSON.stringify({ type: "hello", token })));
      ws.on("message", (data) => {
        this.onFrame(i, data.toString());
        if (!greeted) { greeted = true; resolve(); }
      });
      ws.on("error", (error) => { if (!greeted) reject(error); });
    })));
  }

  close() {
    for (const ws of this.sockets) ws.terminate();
  }

  onFrame(i, raw) {
    const frame = JSON.parse(raw);
    const kind = frame.type;
    if (kind === "snapshot") {
      stats.snapshot_bytes += raw.length;
      stats.snapshots += 1;
      this.views[i] = { game: tracked(frame.view.game) };
    } else if (kind === "patch") {
      stats.patch_bytes += raw.length;
      stats.patches += 1;
      if (i < SEATS) {
        for (const op of frame.ops) {
          if (op.path === "/game") this.views[i] = { game: tracked(op.value) };
          else if (TRACKED.some((p) => op.path.startsWith(p))) applyOp(this.views[i], op);
        }
      }
    } else if (kind === "ack") {
      this.target = frame.v;
    } else if (kind === "error") {
      countError(frame.code || "?");
      this.wake();
      return;
    } else {
      return;
    }
    if (kind !== "ack") this.versions[i] = frame.v;
    if (this.target !== null && Math.min(...this.versions) >= this.target) this.wake();
  }

  wake() {
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter) waiter();
  }

  // One action by the seat to act; false when the game is over.
  async act(window) {
    const game = this.views[0].game || {};
    if (game.phase === "over") return false;
    const seat = game.current || 0;
    const legal = (this.views[seat].game || {}).legal || [];
    if (!legal.length) return false;
    const v = this.versions[seat];
    this.target = null;
    const arrived = new Promise((resolve) => { this.waiter = resolve; });
    const start = performance.now();
    const action = legal[Math.floor(random() * legal.length)];
    this.sockets[seat].send(JSON.stringify({ type: "act", id: v, v, action }));
    let timer;
    const timedOut = new Promise((resolve) => { timer = setTimeout(resolve, 30000, "timeout"); });
    if (await Promise.race([arrived, timedOut]) === "timeout") countError("timeout");
    clearTimeout(timer);
    const end = performance.now();
    if (start >= window[0] && start < window[1] && this.target !== null
        && Math.min(...this.versions) >= this.target) {
      stats.starts.push(Math.round((start - window[0])) / 1000);
      stats.latencies.push(Math.round((end - start) * 1000) / 1000);
      stats.actions += 1;
    }
    return true;
  }
}

async function openRoom() {
  const { code, tokens } = await makeRoom();
  // In a cluster the first sockets may meet the room moving to the instance nginx routes it
  // to (503 busy): start over after a pause, as the browser does.
  for (let attempt = 0; ; attempt++) {
    const room = new Room(code, tokens);
    try {
      await room.open();
      return room;
    } catch (error) {
      room.close();
      if (attempt === 50) throw error;
      countError("setup");
      await sleep(200);
    }
  }
}

async function limited(n, count, make) {
  const out = [];
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, count) }, async () => {
    while (next < count) {
      const i = next++;
      out[i] = await make();
    }
  }));
  return out;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function play(room, window) {
  const period = config.pace > 0 ? 1000 / config.pace : 0;
  await sleep(random() * (period || 1)); // rooms do not all act in step
  while (performance.now() < window[1]) {
    const began = performance.now();
    if (!(await room.act(window))) { // game over: a new room takes its place
      const now = performance.now();
      if (now >= window[0] && now < window[1]) stats.replaced += 1;
      room.close();
      room = await openRoom();
      continue;
    }
    if (period) await sleep(Math.max(0, period - (performance.now() - began)));
    else await new Promise(setImmediate); // flat out, yet fair to the other rooms
  }
  room.close();
}

async function main() {
  const rooms = await limited(20, config.rooms, openRoom);
  process.stdout.write(`ready ${rooms.length}\n`);
  const lines = createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.on("line", (line) => { if (line === "go") resolve(); }));
  const begin = performance.now() + config.warmup * 1000;
  const window = [begin, begin + config.duration * 1000];
  await Promise.all(rooms.map((room) => play(room, window)));
  // Exit once the line is written: a pipe takes it in 64 KiB pieces.
  process.stdout.write(`${JSON.stringify(stats)}\n`, () => process.exit(0));
}

main().catch((error) => {
  process.stderr.write(`loadgen: ${error.stack || error}\n`);
  process.exit(1);
});
