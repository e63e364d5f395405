// Tiny DOM helpers. Text always goes through textContent: names typed by players are never HTML.

/**
 * @param {string} tag
 * @param {Record<string, any>} [props] class, text, dataset, on* listeners, attributes
 * @param {...(Node | string | null | undefined | false | Array<Node | string>)} children
 * @returns {HTMLElement}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

// Set an attribute only when it changes (keeps the DOM quiet between patches).
/**
 * @param {Element} el
 * @param {string} name
 * @param {string | number | boolean | null | undefined} value false/null/undefined remove it
 * @returns {void}
 */
export function attr(el, name, value) {
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
    return;
  }
  const v = value === true ? "" : String(value);
  if (el.getAttribute(name) !== v) el.setAttribute(name, v);
}

/**
 * @param {Node} el
 * @param {unknown} value
 * @returns {void}
 */
export function text(el, value) {
  const v = String(value);
  if (el.textContent !== v) el.textContent = v;
}

/**
 * @param {Element} el
 * @param {string} cls
 * @param {unknown} on
 * @returns {void}
 */
export function toggle(el, cls, on) {
  if (el.classList.contains(cls) !== Boolean(on)) el.classList.toggle(cls, Boolean(on));
}

// Reconcile el's children with items by key: nodes are reused, created, moved or removed.
/**
 * @template T
 * @param {HTMLElement} parent
 * @param {T[]} items
 * @param {(item: T) => string | number} keyOf
 * @param {(item: T) => HTMLElement} create
 * @param {(node: HTMLElement, item: T) => void} update
 * @returns {void}
 */
export function syncList(parent, items, keyOf, create, update) {
  const old = new Map();
  for (const child of parent.children) if (child.dataset.key !== undefined) old.set(child.dataset.key, child);
  let prev = null;
  for (const item of items) {
    const key = String(keyOf(item));
    let node = old.get(key);
    if (node) old.delete(key);
    else {
      node = create(item);
      node.dataset.key = key;
    }
    update(node, item);
    const want = prev ? prev.nextElementSibling : parent.firstElementChild;
    if (want !== node) parent.insertBefore(node, want);
    prev = node;
  }
  for (const node of old.values()) node.remove();
}

/**
 * Give `cls` to exactly `els`: taken from every other element that has it.
 * @param {string} cls
 * @param {Element[]} els
 * @returns {void}
 */
export function markOnly(cls, els) {
  for (const el of document.querySelectorAll(`.${cls}`)) if (!els.includes(el)) el.classList.remove(cls);
  for (const el of els) el.classList.add(cls);
}

/** @returns {boolean} */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// A short highlight on a node that just changed (skipped when motion is reduced).
/**
 * @param {HTMLElement | null | undefined} el
 * @returns {void}
 */
export function flash(el) {
  if (!el || reducedMotion()) return;
  el.classList.remove("flash");
  void el.offsetWidth;
  el.classList.add("flash");
}
