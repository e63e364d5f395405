// The guided first game ("Learn to play"): on a lesson's table (the room option `lesson`),
// a pointer anchored to the element the next step is played on says what it is and what
// to do. What to point at comes from the server (GET /api/rooms/{code}/lesson, made by
// server/bots/lesson.py from the seat's own view): the learner plays the real action on
// the real table. A click elsewhere is explained in one sentence and not sent; a refusal
// of the server (its coded error) is explained too. Everything shown follows from the
// position, so a reload or another device (the seat link) resumes where the game stands;
// only "skip" and the concepts already introduced are kept, per room, in this browser.
// The pointer's text is also read by a polite live region.
import { call } from "../core/api.js";
import { h, markOnly, text } from "../core/dom.js";
import { ing, onLangChange, t } from "../lang/i18n.js";
import { rulesData } from "../core/rules-data.js";
import { cellIngredient } from "../table/view-board.js";

const code = document.body.dataset.code;
const SKIP = `cr.learn.skip.${code}`;
const SEEN = `cr.learn.seen.${code}`;
const $ = (id) => document.getElementById(id);

// The concepts introduced on an element of their own first (with "Next"), then played.
const INTRO = {
  board: () => $("board"),
  orders: () => mine(".tabs"),
  hand: () => $("hand"),
  cups: () => mine(".cups"),
  flow: () => mine(".tabs"),
  penalty: () => mine(".stat.penalties"),
  rush_step: () => mine(".stat.rush"),
  upgrade: () => mine(".tiles"),
};
const BUTTONS = new Set(["button", "finish"]); // control kinds played by a phase button

let view = null;
let pointer = null; // the server's answer: {version, seat, action, note}
let pointerAt = null; // the table version it answers (data-v)
let asking = null; // the table version asked at
let shown = null; // what the bubble says now: {target, key}
let followed = null; // the element the pointer last gave the focus to
let explained = ""; // the sentence key of the last wrong click or refusal (said in the current language)

const bar = h("div", { id: "lesson-bar", class: "lesson-bar", role: "region" },
  h("strong", { class: "lesson-title" }),
  h("button", { type: "button", class: "btn small", id: "lesson-skip" }),
  h("a", { class: "btn small", id: "lesson-leave", href: "/" }));
const bubble = h("div", { id: "lesson", class: "lesson-pointer", hidden: true },
  h("p", { class: "lesson-why" }),
  h("p", { class: "lesson-do" }),
  h("p", { class: "lesson-wrong", hidden: true }),
  h("div", { class: "lesson-actions" },
    h("button", { type: "button", class: "btn small primary", id: "lesson-next", hidden: true }),
    h("a", { class: "btn small primary", id: "lesson-done", href: "/", hidden: true })));
const live = h("div", { id: "lesson-live", class: "sr-only", "aria-live": "polite", "aria-atomic": "true" });
$("table-root").before(bar);
document.body.append(bubble, live);

const skipped = () => localStorage.getItem(SKIP) === "1";
const seen = () => new Set((localStorage.getItem(SEEN) || "").split(",").filter(Boolean));
// What Return shows: on a phone its short label (table-fit.css), else its whole sentence.
/** @param {HTMLElement} b */
function shownLabel(b) {
  const short = b.querySelector(".ret-short");
  return short && short.checkVisibility() ? short.textContent : b.querySelector(".ret-full").textContent;
}

function mine(selector) {
  const seat = view && view.you.seat;
  return seat === null ? null : document.querySelector(`.pboard[data-seat="${seat}"] ${selector}`);
}

$("lesson-skip").addEventListener("click", () => {
  if (skipped()) localStorage.removeItem(SKIP);
  else localStorage.setItem(SKIP, "1");
  render();
});
$("lesson-next").addEventListener("click", () => {
  const note = pointer && pointer.note;
  if (!note) return;
  localStorage.setItem(SEEN, [...seen(), note].join(","));
  render();
  const target = shown && shown.target;
  if (target && typeof target.focus === "function") {
    target.focus({ preventScroll: true });
    followed = target;
  }
});

// The table (static/js/table/main.js) says when it has drawn a view and when the server
// refused an action.
document.addEventListener("table:drawn", (e) => {
  view = e.detail;
  if (!view || !view.room.options.lesson) return;
  render();
  setTimeout(ask, 0); // once the table has marked the version it shows (data-v)
});
document.addEventListener("table:refused", (e) => {
  const key = `learn.why.${e.detail}`;
  if (t(key) === key || skipped()) return;
  explained = key;
  render();
});
onLangChange(() => render());
window.addEventListener("resize", () => place());
window.addEventListener("scroll", () => place(), { passive: true });

const myTurn = () => Boolean(view && view.game && view.you.seat !== null
  && view.game.current === view.you.seat && (view.game.legal || []).length);

async function ask() {
  const v = document.body.dataset.v;
  if (!myTurn() || asking === v || pointerAt === v || document.body.dataset.busy === "1") return;
  asking = v;
  try {
    const answer = await call("GET", `/api/rooms/${code}/lesson`);
    if (document.body.dataset.v === v) {
      pointer = answer;
      pointerAt = v;
    }
  } catch {
    pointer = null; // the table is whole without the lesson: the next draw asks again
  } finally {
    asking = null;
  }
  render();
}

const keyOf = (a) => JSON.stringify(Object.keys(a).filter((k) => k !== "gain" && k !== "rush").sort().map((k) => [k, a[k]]));
function inLegal(action) {
  const want = keyOf(action);
  return (view.game.legal || []).some((a) => keyOf(a) === want);
}

let controls = null;
function controlOf(type) {
  controls ??= new Map(rulesData().actions.map((a) => [a.type, a.control]));
  return controls.get(type);
}

// A cell as the board says it: its ingredient and where it is.
const cellName = (cell) => t("board.cell", { r: cell[1], c: cell[3], ing: ing(cellIngredient(cell)) });

// The element to play now for `action`, and what to say: a pour or a serve takes two taps
// (the token, then the cup; the cup, then the order), so it depends on what is picked.
function target(a) {
  const picked = document.querySelector("#hand-list .token.selected");
  switch (a.type) {
    case "place":
    case "step":
      return [document.querySelector(`#board [data-cell="${a.cell}"]`), "learn.do." + a.type, { cell: cellName(a.cell) }];
    case "choose_meeple": {
      const cell = view.game.players[view.you.seat].meeples[a.meeple];
      return [document.querySelector(`#board [data-cell="${cell}"]`), "learn.do.choose_meeple", { cell: cellName(cell) }];
    }
    case "starting_cup":
      return [mine(`.cup[data-cup="${a.cup}"]`), "learn.do.starting_cup", { cup: a.cup + 1 }];
    case "pour":
    case "return":
      if (!picked || picked.dataset.ing !== a.ingredient) {
        return [document.querySelector(`#hand-list .token[data-ing="${a.ingredient}"]`), "learn.do.pick", { ing: ing(a.ingredient) }];
      }
      if (a.type === "return") return [$("return-btn"), "learn.do.button", { button: shownLabel($("return-btn")) }];
      return [mine(`.cup[data-cup="${a.cup}"]`), "learn.do.cup", { cup: a.cup + 1 }];
    case "serve": {
      const cup = mine(`.cup[data-cup="${a.cup}"]`);
      if (!cup || !cup.classList.contains("selected")) return [cup, "learn.do.cup", { cup: a.cup + 1 }];
      const card = mine(`.card[data-card="${a.card}"]`);
      return [card, "learn.do.card", { order: card ? card.title : "" }];
    }
    case "upgrade":
      return [mine(`.tile[data-tile="${a.tile}"]`), "learn.do.tile", { tile: t(`tile.${a.tile}`) }];
    case "empty": {
      const wrap = mine(`.cup[data-cup="${a.cup}"]`);
      const button = wrap && wrap.parentElement.querySelector(".empty-cup");
      return [button, "learn.do.button", { button: button ? button.textContent : "" }];
    }
    default:
      if (BUTTONS.has(controlOf(a.type))) {
        const button = [...document.querySelectorAll("#phase-buttons button")].find((b) => b._action && b._action.type === a.type);
        return [button, "learn.do.button", { button: button ? button.textContent : t(`btn.${a.type}`) }];
      }
      return [null, "", {}];
  }
}

function render() {
  if (!view || !view.room.options.lesson) return;
  text(bar.querySelector(".lesson-title"), t("learn.title"));
  text($("lesson-skip"), skipped() ? t("learn.resume") : t("learn.skip"));
  text($("lesson-leave"), t("learn.leave"));
  const g = view.game;
  let say = null; // {target, why, todo, next, done}
  if (skipped() || !g) {
    say = null;
  } else if (g.phase === rulesData().phase_over) {
    say = { target: $("final"), why: t("learn.end"), todo: "", done: true };
  } else if (!myTurn()) {
    say = { target: $("board"), why: t("learn.wait"), todo: "", wait: true };
    explained = g.current === view.you.seat ? explained : "";
  } else if (pointer && pointer.action && pointerAt === document.body.dataset.v && inLegal(pointer.action)) {
    const note = pointer.note;
    const [el, key, params] = target(pointer.action);
    const todo = key ? t(key, params) : "";
    if (INTRO[note] && !seen().has(note) && INTRO[note]()) {
      say = { target: INTRO[note](), why: t(`learn.${note}`), todo: "", next: true };
    } else {
      say = { target: el, why: INTRO[note] ? "" : t(`learn.${note}`), todo };
    }
  }
  draw(say);
}

function draw(say) {
  const previous = shown && shown.target;
  markOnly("lesson-target", say && say.target ? [say.target] : []);
  if (!say || !say.target) {
    bubble.hidden = true;
    shown = null;
    return;
  }
  text(bubble.querySelector(".lesson-why"), say.why);
  bubble.querySelector(".lesson-why").hidden = !say.why;
  text(bubble.querySelector(".lesson-do"), say.todo);
  bubble.querySelector(".lesson-do").hidden = !say.todo;
  const wrong = bubble.querySelector(".lesson-wrong");
  const sentence = explained ? t(explained) : "";
  text(wrong, sentence);
  wrong.hidden = !sentence;
  const next = $("lesson-next");
  next.hidden = !say.next;
  text(next, t("learn.next"));
  const done = $("lesson-done");
  done.hidden = !say.done;
  text(done, t("learn.done"));
  bubble.hidden = false;
  bubble.dataset.note = say.wait ? "wait" : say.done ? "end" : (pointer && pointer.note) || "";
  bubble.dataset.v = pointerAt || "";
  const spoken = [sentence, say.why, say.todo].filter(Boolean).join(" ");
  if (!shown || shown.spoken !== spoken) {
    live.textContent = "";
    setTimeout(() => { live.textContent = spoken; }, 30);
  }
  shown = { target: say.target, spoken };
  place();
  // Keyboard and screen reader users follow the pointer: focus moves along with it when it
  // was on the previous target, on the last element the pointer gave it to (the bot's turn
  // between, whose pointer is the board, does not lose it), or nowhere.
  const active = document.activeElement;
  const following = !active || active === document.body || active === previous || active === followed;
  if (say.target !== previous && following) {
    if (say.next) {
      next.focus({ preventScroll: true });
      followed = next;
    } else if (typeof say.target.focus === "function" && say.target.matches("button, a, [tabindex]")) {
      say.target.focus({ preventScroll: true });
      followed = say.target;
    }
  }
}

// The bubble sits below its element (above it when there is no room below), within the
// viewport's width, its arrow at the element; the element is scrolled into view first. For
// a cell it sits below or above the whole board, so it never hides another cell.
function place() {
  if (bubble.hidden || !shown) return;
  const el = shown.target;
  const r = el.getBoundingClientRect();
  if (r.bottom < 0 || r.top > innerHeight) el.scrollIntoView({ block: "center", behavior: "instant" });
  const cell = el.getBoundingClientRect();
  const outer = el.closest("#board") && el !== $("board") ? $("board").getBoundingClientRect() : cell;
  const box = { left: cell.left, width: cell.width, top: outer.top, bottom: outer.bottom };
  const width = Math.min(360, document.documentElement.clientWidth - 16);
  bubble.style.width = `${width}px`;
  const left = Math.max(8, Math.min(box.left + box.width / 2 - width / 2, document.documentElement.clientWidth - width - 8));
  const height = bubble.offsetHeight;
  const below = box.bottom + 10;
  const top = below + height <= innerHeight || box.top - height - 10 < 0 ? below : box.top - height - 10;
  bubble.style.left = `${left + scrollX}px`;
  bubble.style.top = `${top + scrollY}px`;
  bubble.dataset.side = top === below ? "below" : "above";
  bubble.style.setProperty("--arrow", `${Math.max(12, Math.min(width - 12, box.left + box.width / 2 - left))}px`);
}

// A click on the table that is not the pointer's: explained in one sentence, not sent.
document.addEventListener("click", (e) => {
  if (!view || !view.room.options.lesson || skipped() || !shown || !myTurn()) return;
  const control = e.target.closest("#game button");
  if (!control || control.disabled || control.id === "undo-btn" || control.closest("#lesson")) return;
  if (control === shown.target || shown.target.contains(control)) {
    explained = "";
    return;
  }
  const cell = control.dataset.cell;
  const inert = cell && control.getAttribute("aria-disabled") === "true";
  if (inert) {
    const phase = view.game.phase;
    const key = phase === "move" ? "learn.inert.move" : phase === "placement" ? "learn.inert.placement" : "learn.inert.other";
    explained = key;
  } else if (control.closest("#actionbar, #board, .pboard")) {
    explained = "learn.wrong";
  } else {
    return;
  }
  e.preventDefault();
  e.stopImmediatePropagation();
  render();
  shown.target.focus({ preventScroll: true }); // back to what the pointer shows
}, true);
