// Translations: one JSON catalog per language, compiled from the gettext
// catalogs in milligan/web/locales by `python -m milligan.web.i18n`.

export const LANGUAGES = {
  en: "English",
  pt: "Português",
  it: "Italiano",
  nl: "Nederlands",
  fr: "Français",
};

let messages = {};
let reasons = {};
let current = "en";

/** The language to start with: the saved choice, else the browser's, else English. */
export function pickLanguage(saved) {
  if (saved && saved in LANGUAGES) return saved;
  const wanted = navigator.languages && navigator.languages.length
    ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

/** Load a language's catalog and make it current. */
export async function loadLanguage(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`no catalog for ${lang}`);
  const data = await response.json();
  messages = data.messages || {};
  reasons = data.reasons || {};
  current = lang;
  document.documentElement.lang = lang;
}

/** The English wording of an engine refusal code (milligan.errors.REASONS), or undefined. */
export function reasonTemplate(code) {
  return Object.hasOwn(reasons, code) ? reasons[code] : undefined;
}

export function language() {
  return current;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    (name in params ? String(params[name]) : whole));
}

/** Translate a message; {name} placeholders are filled from params. */
export function t(msgid, params) {
  const text = messages[msgid];
  return fill(typeof text === "string" && text ? text : msgid, params);
}

/** Translate a message with a count: nt("{n} row", "{n} rows", n). */
export function nt(singular, plural, n, params) {
  const entry = messages[singular];
  let text;
  if (entry && typeof entry === "object") {
    // European Portuguese counts like English (0 is plural); the catalogs are written so.
    const category = new Intl.PluralRules(current === "pt" ? "pt-PT" : current).select(n);
    text = entry[category] || entry.other || entry.one;
  }
  if (!text) text = n === 1 ? singular : plural;
  return fill(text, { n, ...params });
}

/** Mark a message for extraction without translating it yet. */
export function N_(msgid) {
  return msgid;
}

/** Translate every element marked with data-i18n (text) or data-i18n-label. */
export function translateDocument(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
    el.setAttribute("title", t(el.dataset.i18nLabel));
  }
}
