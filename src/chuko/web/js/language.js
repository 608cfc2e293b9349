// The header's language switch: the shipped languages, each named in itself; a choice is
// kept by the server (a cookie, and on an account) and the page reloads in it.

import { api } from "./dom.js";
import { lang, languages, t } from "./i18n.js";

function languageSwitch() {
  const select = document.createElement("select");
  select.className = "language";
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(languages)) {
    const option = new Option(name, code, false, code === lang);
    option.lang = code;
    select.append(option);
  }
  select.addEventListener("change", async () => {
    select.disabled = true;
    try {
      await api("/api/me/language", { lang: select.value });
      location.reload();
    } catch {
      select.value = lang;
      select.disabled = false;
    }
  });
  return select;
}

const nav = document.querySelector("header.top nav.site");
if (nav && Object.keys(languages).length > 1 && !nav.querySelector("select.language")) {
  nav.append(languageSwitch());
}
