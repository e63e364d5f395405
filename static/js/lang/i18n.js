// A small i18n layer: t(key, params), the language from the user's choice or the browser,
// and translate(root) for static markup carrying data-i18n attributes.
import en from "./en.js";
import th from "./th.js";
import ko from "./ko.js";
import "./history.js";
import { particles } from "./korean.js";
import { keepTermsWhole } from "./thai.js";
import "./talk.js";
import "./players.js";
import "./turns.js";
import "./admin.js";
import "./learn.js";
import "./tournament.js";

const LANGS = { en: "English", th: "ไทย", ko: "한국어" };
const TABLES = { en, th, ko };
const KEY = "cr.lang";
const listeners = new Set();

function pick() {
  const saved = localStorage.getItem(KEY);
  if (saved && TABLES[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().slice(0, 2);
    if (TABLES[base]) return base;
  }
  return "en";
}

let lang = pick();

/** @returns {string} the current language code (en, th, ko) */
export function getLang() { return lang; }

/**
 * @param {string} next a language code; unknown ones are ignored
 * @returns {void}
 */
export function setLang(next) {
  if (!TABLES[next] || next === lang) return;
  lang = next;
  localStorage.setItem(KEY, next);
  document.documentElement.lang = next;
  translate(document);
  for (const fn of listeners) fn(next);
}

/**
 * @param {(lang: string) => void} fn
 * @returns {void}
 */
export function onLangChange(fn) { listeners.add(fn); }

// Parameters are substituted as plain text; the DOM layer only ever uses textContent.
// A string may be plural forms ({one: "…", other: "…"}), chosen by Intl.PluralRules from
// the number parameter `n` (or `count`); Korean particles are fitted to the word before them;
// Thai terms the dictionary would split are kept whole (thai.js).
/**
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @returns {string} the string in the current language (English, then the key, if missing)
 */
export function t(key, params = {}) {
  let raw = TABLES[lang][key] ?? en[key] ?? key;
  if (typeof raw === "object") raw = pluralForm(raw, params);
  // "{free#count.freeSteps}": the parameter `free` told through the plural string count.freeSteps.
  const out = raw.replace(/\{(\w+)(?:#([\w.]+))?\}/g, (m, name, counted) => {
    if (!(name in params)) return m;
    return counted ? t(counted, { n: params[name] }) : String(params[name]);
  });
  return lang === "ko" ? particles(out) : lang === "th" ? keepTermsWhole(out) : out;
}

const pluralRules = new Map();
function pluralForm(forms, params) {
  const n = Number(params.n ?? params.count ?? params.steps ?? params.turns ?? 0);
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  return forms[pluralRules.get(lang).select(n)] ?? forms.other;
}

/**
 * @param {string} name an ingredient
 * @returns {string}
 */
export function ing(name) { return t(`ing.${name}`); }

/**
 * @param {string} name an order card's name (R-COMP-3), as the server gives it
 * @returns {string} the name cafés use in the current language (the card's own in English)
 */
export function orderName(name) {
  const named = TABLES[lang][`order.${name}`];
  if (named === undefined) return name;
  return lang === "th" ? keepTermsWhole(named) : named;
}

// "2 coffee, 1 ice" from {coffee: 2, ice: 1}
/**
 * @param {Record<string, number> | null | undefined} counts
 * @returns {string}
 */
export function tokens(counts) {
  const parts = Object.entries(counts || {}).filter(([, n]) => n > 0)
    .map(([name, n]) => `${n} ${ing(name)}`);
  return parts.length ? parts.join(t("misc.and")) : t("misc.none");
}

// data-i18n="key" sets textContent; data-i18n-attr="aria-label:key;title:key" sets attributes.
/**
 * @param {Document | Element} root
 * @returns {void}
 */
export function translate(root) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

// A language switch: three buttons, the current one pressed.
/**
 * @param {HTMLElement} container
 * @returns {void}
 */
export function mountSwitch(container) {
  container.replaceChildren();
  container.setAttribute("role", "group");
  container.setAttribute("aria-label", t("lang.label"));
  for (const [code, label] of Object.entries(LANGS)) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "lang-btn";
    b.lang = code;
    b.textContent = code.toUpperCase();
    b.title = label;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => setLang(code));
    container.append(b);
  }
  const sync = () => {
    container.setAttribute("aria-label", t("lang.label"));
    for (const b of container.children) b.setAttribute("aria-pressed", String(b.lang === lang));
  };
  sync();
  onLangChange(sync);
}
