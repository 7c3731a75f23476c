// Every word the pages show goes through t(code, params): the code names the message, the
// params carry figures and names. A catalog (static/js/words/<lang>.js) maps each code to
//   - a string with {name} placeholders: "{name} built {card}";
//   - plural forms chosen by Intl.PluralRules on params.n (or params.count):
//     { one: "{n} coin", other: "{n} coins" };
//   - or a function of the params, for the few messages whose shape depends on them.
// Numbers are formatted with Intl.NumberFormat. The server sends codes and figures, never
// sentences (docs/protocol.md); a code with no entry shows itself, so a gap is visible.
//
// The page's language is the server's choice (app/i18n.py): <html data-language="ro">, whose
// catalogs data-catalogs names, and <html lang="sr-Latn">, the Intl locale. "qps", the tests'
// pseudo-locale, shows the English catalogs marked ⟦…⟧ and accented, so that a word not from
// a catalog stands out.
const root = globalThis.document?.documentElement;
const language = root?.dataset.language || "en";
const pseudo = language === "qps";
const catalogLanguage = root?.dataset.catalogs || language;
const locale = root?.lang || "en";

const catalog = {};
const plurals = new Intl.PluralRules(locale);
const numbers = new Intl.NumberFormat(locale);
const lists = new Intl.ListFormat(locale, { style: "long", type: "conjunction" });
const days = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });

// The card catalog with names in the page's language (app/api/catalog.py).
export const catalogPath = `/api/catalog?lang=${encodeURIComponent(language)}`;

const ACCENTED = { a: "á", c: "ç", e: "é", i: "î", n: "ñ", o: "ö", s: "š", u: "ü", y: "ý" };
function mark(text) {
  const accented = String(text).split(/(\{\w+\})/).map((part, i) => (i % 2 ? part
    : part.replace(/[aceinosuy]/g, (letter) => ACCENTED[letter]))).join("");
  return `⟦${accented}⟧`;
}
function marked(entry) {
  if (typeof entry === "string") return mark(entry);
  if (typeof entry === "function") return (params, lookup) => mark(entry(params, lookup));
  if (entry && typeof entry === "object") {
    return Object.fromEntries(Object.entries(entry).map(([form, text]) => [form, mark(text)]));
  }
  return entry;
}

// Where the catalogs are: the page says (data-words, an absolute URL, which means the same
// from a bundle's chunk as from this file: app/api/bundles.py); without a page (the tests
// under Node), beside this file. The page's import map sends each to its fingerprinted URL.
const wordsBase = root?.dataset.words ?? new URL("./words/", import.meta.url).href;
const wordsUrl = (name) => `${wordsBase}${name}.js`;

// A page's own messages beside the shared ones (the lobby's, the admin pages'): each page
// loads only the words it shows (loadWords).
export function addMessages(messages) {
  for (const [code, entry] of Object.entries(messages)) catalog[code] = pseudo ? marked(entry) : entry;
}

// The shared catalog first. Should it fail to load (the network), the page still works and
// shows codes where words were: a gap one can see, not a dead page.
try {
  addMessages((await import(wordsUrl(catalogLanguage))).default);
} catch (error) {
  console.warn(`the ${catalogLanguage} catalog did not load`, error);
}

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

export function t(code, params = {}) {
  let entry = catalog[code];
  if (entry === undefined) return code;
  if (typeof entry === "function") return entry(params, t);
  if (typeof entry === "object") {
    const n = params.n ?? params.count ?? 0;
    entry = entry[plurals.select(n)] ?? entry.other;
  }
  return fill(entry, params);
}

// A part of the catalog a page needs only sometimes (static/js/words/<lang>-<part>.js), fetched
// the first time it is asked for: the game page loads the words of the server's refusals
// ("server") with its first refusal or its first card dialog, not with the page.
const parts = new Map();    // part -> its load, while pending or done
const settled = new Set();  // parts whose load ended (loaded, or failed: codes then show as sent)
let failures = 0;
export function loadWords(part) {
  if (!parts.has(part)) {
    // A failed fetch is remembered by the browser for that URL: a retry asks another one.
    const url = `${wordsUrl(`${catalogLanguage}-${part}`)}${failures ? `?retry=${failures}` : ""}`;
    parts.set(part, import(url).then((module) => addMessages(module.default), (error) => {
      parts.delete(part);
      failures += 1;
      throw error;
    }).finally(() => settled.add(part)));
  }
  return parts.get(part);
}

// The parts a page shows from the start, before it draws (its module awaits them). One that
// fails to load leaves its codes showing, as the shared catalog does, rather than the page
// dead.
export async function pageWords(...names) {
  const loads = await Promise.allSettled(names.map(loadWords));
  loads.filter((load) => load.status === "rejected")
    .forEach((load) => console.warn("a part of the catalog did not load", load.reason));
}

// Whether loadWords(part) has ended, well or not.
export function wordsLoaded(part) {
  return settled.has(part);
}

// Whether the catalog has a message for this code (for codes from the server).
export function known(code) {
  return code in catalog;
}

// "a, b and c" in the page's language (Intl's words: the pseudo-locale marks them too).
export function listOf(items) {
  const text = lists.format(items);
  return pseudo ? mark(text) : text;
}

// A day ("Nov 21, 2026") in the page's language, from an ISO time.
export function dayOf(iso) {
  return days.format(new Date(iso));
}
