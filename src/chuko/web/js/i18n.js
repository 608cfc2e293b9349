// The page's language: its messages come with the page (a JSON catalogue the server puts
// in <script id="catalogue">), so every sentence a script shows goes through t() or tn()
// and reads in the visitor's language from the first paint. Message ids are the English
// sentences with {named} placeholders, as in the server's gettext catalogues.

const EMPTY = { lang: "en", messages: {}, plurals: {}, categories: ["one", "other"], languages: {} };

function readCatalogue() {
  const script = typeof document !== "undefined" && document.getElementById("catalogue");
  if (!script) return EMPTY;
  try {
    return { ...EMPTY, ...JSON.parse(script.textContent) };
  } catch {
    return EMPTY;
  }
}

const catalogue = readCatalogue();

/** The page's language code ("en", "de"…), as the server chose it. */
export const lang = catalogue.lang;

/** The shipped languages, each named in itself: {en: "English", de: "Deutsch", …}. */
export const languages = catalogue.languages;

function locale() {
  try {
    return Intl.getCanonicalLocales(lang)[0];
  } catch {
    return "en";
  }
}

const rules = (() => {
  try {
    return new Intl.PluralRules(locale());
  } catch {
    return new Intl.PluralRules("en");
  }
})();

function format(template, params) {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole);
}

/** `msgid` in the page's language, its {placeholders} filled from `params`. */
export function t(msgid, params) {
  return format(catalogue.messages[msgid] ?? msgid, params);
}

/** A counted message: the form the language's plural rule gives for `n` ({n} is filled
 * too, written as the locale writes numbers). */
export function tn(one, other, n, params = {}) {
  const forms = catalogue.plurals[one];
  let template = n === 1 ? one : other;
  if (forms) {
    const index = catalogue.categories.indexOf(rules.select(n));
    template = forms[index >= 0 ? index : forms.length - 1] ?? template;
  }
  return format(template, { n: number(n), ...params });
}

/** A number as the page's language writes it (1,234.5 / 1.234,5). */
export function number(value, options) {
  return new Intl.NumberFormat(locale(), options).format(value);
}

/** A date (and time, with `options`) as the page's language writes it. */
export function date(value, options = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(locale(), options).format(value instanceof Date ? value : new Date(value));
}
