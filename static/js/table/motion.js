// Motion that shows what happened (issue 26): the game events of a live patch, played on the
// table after it is drawn. The meeple walks its path cell by cell, gained tokens fly from the
// board to the hand, a poured token drops into its cup, a served order slides to the done
// pile, a penalty lands with a mark, orders slide down their tabs, scores count up; an
// upgrade tile lights up as its order is spent, returned and emptied tokens go back to the
// supply, and an undo rewinds the meeples it moved.
//
// Everything moves by transform and opacity (Web Animations API), on the real meeple or on
// clones in a fixed overlay, so no layout ever changes. Nothing waits for it: any click or
// key makes every running animation jump to its end. Snapshots bring no events, so a reload
// or a resume replays nothing. With prefers-reduced-motion: reduce nothing moves; what
// changed is outlined for a moment instead.
import { h } from "../core/dom.js";
import { icon } from "../core/icons.js";
import { t } from "../lang/i18n.js";

const OTHERS = 300; // ms a step takes when someone else acts: a watcher can follow
const OWN = 140; // your own moves: quick
const MAX_BEHIND = 2500; // queued motion further behind than this is dropped (jumps to its end)
const ID = "motion";

const $ = (sel, root = document) => root.querySelector(sel);

/** @returns {boolean} */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function rect(el) {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 ? r : null;
}

function panel(seat) {
  return $(`.pboard[data-seat="${seat}"]`);
}

// How an order card that leaves a board flies: as it is drawn there. Your own cards are whole
// cards; an opponent's are chips, or (wide, with room: cards.css .opp-cards) small whole
// cards, whose icon size the clone keeps (as --opp, which cards.css reads).
// `card`: as motion.before measured it, while it was on the board.
function cardLook(p, card) {
  if (!p.classList.contains("compact")) return { look: "" };
  if (!p.closest(".side.opp-cards")) return { look: "compact" };
  return { look: "opp-card", ico: card.ico };
}

export class Motion {
  constructor() {
    /** @type {Set<Animation>} */
    this.running = new Set();
    this.until = 0; // when the queued motion ends (performance.now() time)
    this.quietUntil = 0;
    this.layer = h("div", { class: "motion-layer", "aria-hidden": "true" });
    document.body.append(this.layer);
    const finish = () => this.finishAll();
    for (const type of ["pointerdown", "keydown", "click"]) document.addEventListener(type, finish, true);
  }

  // No motion for the patches of the next `ms` (those a resume catches up with).
  quiet(ms = 400) {
    this.quietUntil = performance.now() + ms;
    this.finishAll();
  }

  finishAll() {
    for (const a of [...this.running]) {
      try {
        a.finish();
      } catch {
        a.cancel();
      }
    }
    this.running.clear();
    this.until = 0;
  }

  /** @param {Element} el @param {Keyframe[]} frames @param {KeyframeAnimationOptions} opts @returns {Animation} */
  animate(el, frames, opts) {
    const a = el.animate(frames, { fill: "backwards", easing: "ease-in-out", ...opts, id: `${ID}-${opts.id || "x"}` });
    this.running.add(a);
    const done = () => this.running.delete(a);
    a.addEventListener("finish", done);
    a.addEventListener("cancel", done);
    return a;
  }

  // Before the table is drawn: what is about to leave the DOM (cards served or falling off),
  // and where every order card of the seats concerned stands now.
  /**
   * @param {import("../core/types.js").Event[]} events
   * @param {import("../core/types.js").View | null} previous
   */
  before(events, previous) {
    const game = events.filter((ev) => ev.seat !== undefined && ev.seat !== null);
    if (!game.length || !previous || !previous.game) return null;
    if (performance.now() < this.quietUntil || document.hidden) return null;
    const plan = { events: game, cards: new Map(), hand: new Map(), cups: new Map(), previous };
    const seats = new Set();
    for (const ev of game) {
      if (["served", "time_flowed", "orders_dealt"].includes(ev.type)) seats.add(ev.seat);
      if (ev.type === "emptied" && panel(ev.seat)) {
        plan.cups.set(`${ev.seat}:${ev.cup}`, rect($(`.cup[data-cup="${ev.cup}"]`, panel(ev.seat))));
      }
      if (ev.type === "poured" || ev.type === "returned") {
        const r = rect($(`#hand-list [data-key="${ev.ingredient}"]`)) || rect($("#hand"));
        if (r && !plan.hand.has(ev.ingredient)) plan.hand.set(ev.ingredient, r);
      }
    }
    for (const seat of seats) {
      const p = panel(seat);
      if (!p) continue;
      for (const node of p.querySelectorAll(".tab-cards > .card")) {
        const r = rect(node);
        if (r) plan.cards.set(`${seat}:${node.dataset.key}`, { rect: r, node, ico: getComputedStyle(node).getPropertyValue("--ico").trim() });
      }
    }
    return plan;
  }

  // After the table is drawn: play the plan.
  /** @param {ReturnType<Motion["before"]>} plan @param {import("../core/types.js").View} view */
  after(plan, view) {
    if (!plan || !view || !view.game) return;
    if (reducedMotion()) {
      this.highlight(plan, view);
      return;
    }
    const now = performance.now();
    if (this.until - now > MAX_BEHIND) this.finishAll();
    let at = Math.max(0, this.until - now); // ms from now where this patch's motion starts
    const own = plan.events.every((ev) => ev.seat === view.you.seat);
    const per = own ? OWN : OTHERS;
    const events = plan.events;
    let end = at;
    for (let i = 0; i < events.length; i++) {
      const ev = events[i];
      if (ev.type === "moved") {
        const walk = [ev];
        while (events[i + 1] && events[i + 1].type === "moved" && events[i + 1].meeple === ev.meeple) walk.push(events[++i]);
        at = this.walk(walk, at, per);
      } else if (ev.type === "placed") {
        const m = $(`#board .cell[data-cell="${ev.cell}"]`);
        const index = view.game.players[ev.seat].meeples.indexOf(ev.cell);
        const meeple = $(`#board .meeple[data-key="${ev.seat}-${index}"]`);
        if (meeple) this.animate(meeple, [{ transform: "translateY(-40px) scale(1.4)", opacity: 0 }, { transform: "none", opacity: 1 }], { delay: at, duration: per * 1.5, id: "place" });
        else if (m) this.pop(m, at, per);
        at += per * 1.5;
      } else if (ev.type === "poured") {
        at = this.pour(ev, plan, view, at, per);
      } else if (ev.type === "served") {
        at = this.serve(ev, plan, at, per);
      } else if (ev.type === "time_flowed") {
        at = this.flow(ev, plan, at, per);
      } else if (ev.type === "orders_dealt") {
        this.deal(ev, plan, at, per);
        at += per;
      } else if (ev.type === "upgraded") {
        at = this.upgrade(ev, plan, at, per);
      } else if (ev.type === "returned") {
        at = this.toSupply({ [ev.ingredient]: 1 }, plan.hand.get(ev.ingredient) || rect($("#hand")), at, per);
      } else if (ev.type === "emptied") {
        at = this.toSupply(ev.returned || {}, plan.cups.get(`${ev.seat}:${ev.cup}`), at, per);
      } else if (ev.type === "undone") {
        at = this.rewind(ev, plan, view, at, per);
      }
      end = Math.max(end, at);
    }
    this.scores(plan.previous, view, Math.max(0, this.until - now), end, per);
    this.until = now + end;
  }

  // The meeple walks from cell to cell; each cell's tokens fly to the hand as it arrives.
  walk(steps, at, per) {
    const first = steps[0];
    const meeple = $(`#board .meeple[data-key="${first.seat}-${first.meeple}"]`);
    const last = steps[steps.length - 1].to;
    const endCell = rect($(`#board .cell[data-cell="${last}"]`));
    if (meeple && endCell) {
      const cells = [first.from, ...steps.map((s) => s.to)];
      const frames = cells.map((c) => {
        const r = rect($(`#board .cell[data-cell="${c}"]`)) || endCell;
        return { transform: `translate(${r.left - endCell.left}px, ${r.top - endCell.top}px)` };
      });
      frames[frames.length - 1] = { transform: "none" };
      this.animate(meeple, frames, { delay: at, duration: per * steps.length, easing: "linear", id: "walk" });
    }
    steps.forEach((s, k) => {
      const arrive = at + per * (k + 1);
      for (const [name, count] of Object.entries(s.gained || {})) {
        if (!count) continue;
        const from = rect($(`#board .cell[data-cell="${s.to}"]`));
        const target = $(`#hand-list [data-key="${name}"]`) || $("#hand");
        this.fly(h("span", { class: "motion-token" }, icon(name), count > 1 ? h("span", { class: "n" }, `+${count}`) : null),
          from, rect(target), arrive - per / 2, per * 1.6, "gain");
        if (target) this.pop(target, arrive + per * 1.1, per);
      }
    });
    return at + per * steps.length + per;
  }

  pour(ev, plan, view, at, per) {
    const p = panel(ev.seat);
    const cup = p && $(`.cup[data-cup="${ev.cup}"]`, p);
    const n = view.game.players[ev.seat].cups[ev.cup].length;
    const slot = cup && cup.querySelector(".slots").children[Math.max(0, n - 1)];
    const to = rect(slot) || rect(cup);
    const from = plan.hand.get(ev.ingredient) || rect($("#hand"));
    if (to && from) {
      this.fly(h("span", { class: "motion-token" }, icon(ev.ingredient)), from, to, at, per * 1.5, "pour");
      // The slot shows its token only once it has dropped in.
      if (slot) this.animate(slot, [{ opacity: 0 }, { opacity: 0, offset: 0.99 }, { opacity: 1 }], { delay: at, duration: per * 1.5, id: "slot" });
      if (cup) this.pop(cup, at + per * 1.5, per);
    }
    return at + per * 1.2;
  }

  serve(ev, plan, at, per) {
    const p = panel(ev.seat);
    const card = plan.cards.get(`${ev.seat}:${ev.card.id}`);
    const pile = p && $(".stat.completed", p);
    if (card && pile) {
      const clone = card.node.cloneNode(true);
      clone.classList.remove("target");
      this.fly(clone, card.rect, rect(pile), at, per * 2.2, "serve", true, cardLook(p, card));
      this.pop(pile, at + per * 2.2, per);
    }
    return at + per * 2;
  }

  flow(ev, plan, at, per) {
    const p = panel(ev.seat);
    if (!p) return at;
    // The cards still there slide one tab down.
    for (const node of p.querySelectorAll(".tab-cards > .card")) {
      const was = plan.cards.get(`${ev.seat}:${node.dataset.key}`);
      const now = rect(node);
      if (!was || !now) continue;
      const dx = was.rect.left - now.left;
      const dy = was.rect.top - now.top;
      if (Math.abs(dx) + Math.abs(dy) < 1) continue;
      this.animate(node, [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { delay: at, duration: per * 2, id: "tab" });
    }
    // Those pushed off the last tab land on the penalty pile, marked.
    const pile = $(".stat.penalties", p);
    let k = 0;
    for (const id of ev.penalties || []) {
      const card = plan.cards.get(`${ev.seat}:${id}`);
      if (!card || !pile) continue;
      const clone = card.node.cloneNode(true);
      clone.classList.remove("target");
      clone.classList.add("motion-penalty");
      this.fly(clone, card.rect, rect(pile), at + k * per / 2, per * 2.6, "penalty", true, cardLook(p, card));
      this.pop(pile, at + k * per / 2 + per * 2.6, per);
      k++;
    }
    return at + per * 2 + (k ? per * 1.2 + k * per / 2 : 0);
  }

  // The completed orders spent (R-UPG: three) go from the done pile to the tile, which
  // lights up.
  upgrade(ev, plan, at, per) {
    const p = panel(ev.seat);
    const tile = p && $(`.tile[data-tile="${ev.tile}"]`, p);
    if (!tile) return at;
    const pile = rect($(".stat.completed", p));
    const spent = (ev.discarded || []).length;
    for (let k = 0; k < spent; k++) {
      this.fly(h("span", { class: "motion-token" }, icon("check")), pile, rect(tile), at + k * per / 3, per * 1.6, "spend");
    }
    const lit = at + (spent ? per * 1.6 + (spent - 1) * per / 3 : 0);
    this.animate(tile, [{ transform: "none", boxShadow: "0 0 0 0 rgba(217, 165, 32, 0)" },
      { transform: "scale(1.2)", boxShadow: "0 0 0 6px rgba(217, 165, 32, .55)", offset: 0.5 },
      { transform: "none", boxShadow: "0 0 0 0 rgba(217, 165, 32, 0)" }],
    { delay: lit, duration: per * 2.5, id: "upgrade", fill: "none" });
    return lit + per * 2;
  }

  // Tokens ({ingredient: count}) go back from `from` (the hand, a cup) to the supply.
  toSupply(tokens, from, at, per) {
    let k = 0;
    for (const [name, count] of Object.entries(tokens)) {
      if (!count) continue;
      const to = $(`#supply-list [data-ing="${name}"]`);
      this.fly(h("span", { class: "motion-token" }, icon(name), count > 1 ? h("span", { class: "n" }, `+${count}`) : null),
        from, rect(to), at + k * per / 3, per * 1.6, "return");
      k++;
    }
    return at + (k ? per * 1.2 + k * per / 3 : 0);
  }

  // An undo: the meeples it moved go back, quickly, the way they came.
  rewind(ev, plan, view, at, per) {
    const before = plan.previous.game.players[ev.seat];
    const now = view.game.players[ev.seat];
    if (!before || !now) return at;
    now.meeples.forEach((cell, i) => {
      const was = before.meeples[i];
      if (!was || was === cell) return;
      const meeple = $(`#board .meeple[data-key="${ev.seat}-${i}"]`);
      const from = rect($(`#board .cell[data-cell="${was}"]`));
      const to = rect($(`#board .cell[data-cell="${cell}"]`));
      if (!meeple || !from || !to) return;
      this.animate(meeple, [{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)`, opacity: 0.6 },
        { transform: "none", opacity: 1 }], { delay: at, duration: per * 2, easing: "ease-out", id: "rewind" });
    });
    return at + per * 2;
  }

  deal(ev, plan, at, per) {
    const p = panel(ev.seat);
    if (!p) return;
    for (const card of ev.cards || []) {
      const node = $(`.tab-cards > .card[data-key="${card.id}"]`, p);
      if (node && rect(node)) {
        this.animate(node, [{ transform: "translateY(-24px) scale(.7)", opacity: 0 }, { transform: "none", opacity: 1 }], { delay: at, duration: per * 1.5, easing: "ease-out", id: "deal" });
      }
    }
  }

  // Scores count up, from where the motion of this patch starts to where it ends.
  scores(previous, view, from, to, per) {
    for (const p of view.game.players) {
      const before = previous.game.players[p.seat];
      if (!before || before.score.total === p.score.total) continue;
      const el = panel(p.seat) && $(".pscore", panel(p.seat));
      if (!el) continue;
      const a = this.animate(el, [{ transform: "none" }, { transform: "scale(1.35)", offset: 0.8 }, { transform: "none" }],
        { delay: from, duration: Math.max(per * 2, to - from), id: "score" });
      const start = before.score.total;
      const goal = p.score.total;
      const say = (n) => { el.textContent = t("pb.score", { n }); };
      const tick = () => {
        const timing = a.effect && a.effect.getComputedTiming();
        const progress = timing && typeof timing.progress === "number" ? timing.progress : 0;
        if (a.playState === "finished" || a.playState === "idle") {
          say(goal);
          return;
        }
        say(Math.round(start + (goal - start) * progress));
        requestAnimationFrame(tick);
      };
      say(start);
      requestAnimationFrame(tick);
      a.addEventListener("finish", () => say(goal));
    }
  }

  // A clone in the overlay, flying from one box to another (FLIP: it sits at the end box and
  // is transformed back to the start box). `fade`: it melts into the end box. `card`: how an
  // order card is drawn where it comes from (cardLook).
  fly(el, from, to, delay, duration, id, fade = false, card = { look: "" }) {
    if (!from || !to) return;
    const box = h("div", { class: `motion-fly motion-${id}${card.look ? ` ${card.look}` : ""}` }, el);
    if (card.ico) box.style.setProperty("--opp", card.ico);
    box.style.left = `${to.left}px`;
    box.style.top = `${to.top}px`;
    box.style.width = `${to.width}px`;
    box.style.height = `${to.height}px`;
    if (fade) {
      // A card keeps its size while it travels and shrinks into the pile at the end.
      box.style.left = `${from.left}px`;
      box.style.top = `${from.top}px`;
      box.style.width = `${from.width}px`;
      box.style.height = `${from.height}px`;
    }
    this.layer.append(box);
    let frames;
    if (fade) {
      const dx = to.left + to.width / 2 - (from.left + from.width / 2);
      const dy = to.top + to.height / 2 - (from.top + from.height / 2);
      const s = Math.max(0.15, Math.min(to.width / from.width, to.height / from.height));
      frames = [
        { transform: "none", opacity: 1 },
        { transform: "translate(0, -6px) rotate(-3deg)", opacity: 1, offset: 0.2 },
        { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 1, offset: 0.85 },
        { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 0 },
      ];
    } else {
      const dx = from.left + from.width / 2 - (to.left + to.width / 2);
      const dy = from.top + from.height / 2 - (to.top + to.height / 2);
      const s = Math.max(0.3, Math.min(3, from.width / to.width));
      frames = [
        { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 0 },
        { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 1, offset: 0.1 },
        { transform: "translate(0, -4px)", opacity: 1, offset: 0.85 },
        { transform: "none", opacity: 0.2 },
      ];
    }
    const a = this.animate(box, frames, { delay: Math.max(0, delay), duration, id });
    const gone = () => box.remove();
    a.addEventListener("finish", gone);
    a.addEventListener("cancel", gone);
  }

  pop(el, delay, per) {
    this.animate(el, [{ transform: "none" }, { transform: "scale(1.18)" }, { transform: "none" }], { delay: Math.max(0, delay), duration: per, id: "pop", fill: "none" });
  }

  // Reduced motion: nothing moves; what changed is outlined for a moment.
  highlight(plan, view) {
    const els = new Set();
    for (const ev of plan.events) {
      const p = panel(ev.seat);
      if (ev.type === "moved") {
        els.add($(`#board .cell[data-cell="${ev.to}"]`));
        for (const name of Object.keys(ev.gained || {})) els.add($(`#hand-list [data-key="${name}"]`));
      } else if (ev.type === "placed") els.add($(`#board .cell[data-cell="${ev.cell}"]`));
      else if (ev.type === "poured" && p) els.add($(`.cup[data-cup="${ev.cup}"]`, p));
      else if (ev.type === "served" && p) els.add($(".stat.completed", p));
      else if (ev.type === "time_flowed" && p && (ev.penalties || []).length) els.add($(".stat.penalties", p));
      else if (ev.type === "upgraded" && p) els.add($(`.tile[data-tile="${ev.tile}"]`, p));
      else if (ev.type === "emptied" && p) els.add($(`.cup[data-cup="${ev.cup}"]`, p));
      else if (ev.type === "undone" && p) els.add(p);
    }
    for (const pl of view.game.players) {
      const before = plan.previous.game.players[pl.seat];
      if (before && before.score.total !== pl.score.total && panel(pl.seat)) els.add($(".pscore", panel(pl.seat)));
    }
    for (const el of els) {
      if (!el) continue;
      el.classList.add("motion-hl");
      setTimeout(() => el.classList.remove("motion-hl"), 1200);
    }
  }
}
