// Page words from the catalogs (rallye/i18n/catalogs/web/<lang>.json, served at /i18n/web/).
// A catalog maps an id to a string with {name} placeholders; plurals are {"one", "other"}.

export const LANGUAGES = ["de", "hu", "en", "fr"];
let catalog = {};
let fallback = {};
let current = "en";

export function pageLanguage() {
  const saved = localStorage.getItem("rallye.lang");
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(short)) return short;
  }
  return "en";
}

async function fetchCatalog(lang) {
  const r = await fetch(`/i18n/web/${lang}.json`);
  if (!r.ok) throw new Error(`catalog ${lang}: ${r.status}`);
  return r.json();
}

// Other domains a page also reads (a game's terminal catalog: the rules a refusal names).
const extra = {}; // domain -> {lang, messages, fallback}

async function fetchDomain(domain, lang) {
  const r = await fetch(`/i18n/${domain}/${lang}.json`);
  return r.ok ? r.json() : {};
}

export async function loadDomain(domain) {
  const [messages, fb] = await Promise.all([fetchDomain(domain, current), current === "en" ? {} : fetchDomain(domain, "en")]);
  extra[domain] = { messages, fallback: fb };
}

export async function loadLanguage(lang) {
  current = lang;
  catalog = await fetchCatalog(lang);
  if (lang !== "en" && Object.keys(fallback).length === 0) fallback = await fetchCatalog("en");
  await Promise.all(Object.keys(extra).map(loadDomain));
  document.documentElement.lang = lang;
  return lang;
}

// A message of another domain, or null when it has none; with params, its {placeholders}
// filled and, for a plural message ({"one", "other"}), the form of params.count.
export function tIn(domain, id, params = null) {
  const d = extra[domain];
  let s = d?.messages[id] ?? d?.fallback[id];
  if (s && typeof s === "object" && params && typeof params.count === "number") s = s[new Intl.PluralRules(current).select(params.count)] ?? s.other;
  if (typeof s !== "string") return null;
  return params ? fill(s, params) : s;
}

function fill(s, params) {
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

export function lang() {
  return current;
}

export function t(id, params = {}) {
  let s = id in catalog ? catalog[id] : fallback[id];
  if (s === undefined) return id;
  if (typeof s === "object") {
    const n = params.count ?? 0;
    const rule = new Intl.PluralRules(current).select(n);
    s = s[rule] ?? s.other;
  }
  return fill(s, params);
}

// The words for a server error: the catalog's for its code, else a sentence in the page's
// language naming the code (never the server's English sentence).
export function errorWords(err) {
  const id = `code.${err.code}`;
  if (err.code && (id in catalog || id in fallback)) return t(id);
  return err.code ? t("error.code", { code: err.code }) : t("error.network");
}

// An edition's title in the page's words (the server's English title when a catalog lacks it).
export function editionTitle(ed) {
  const id = `edition.${ed.key}`;
  return id in catalog || id in fallback ? t(id) : ed.title;
}

// Fill every element carrying data-i18n (text) or data-i18n-<attr> (an attribute).
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("*")) {
    for (const a of Object.keys(el.dataset)) {
      if (a.startsWith("i18n") && a !== "i18n") {
        const attr = a.slice(4).replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()).replace(/^-/, "");
        el.setAttribute(attr, t(el.dataset[a]));
      }
    }
  }
}

export function languagePicker(select, onChange) {
  select.replaceChildren();
  for (const l of LANGUAGES) {
    const o = document.createElement("option");
    o.value = l;
    o.textContent = t(`language.${l}`);
    o.selected = l === current;
    select.append(o);
  }
  select.onchange = async () => {
    localStorage.setItem("rallye.lang", select.value);
    await loadLanguage(select.value);
    translatePage();
    languagePicker(select, onChange);
    onChange?.();
  };
}
