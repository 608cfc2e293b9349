// The colour scheme: the system's (the stylesheet follows prefers-color-scheme) unless the
// switch in the header chose light or dark for this browser. A plain script, not a module:
// every page loads it in its <head>, where it runs before the body is drawn, so a page never
// flashes in the other scheme first. The choice is data-theme on <html>, and remembered in
// localStorage; a choice made in one tab reaches the others. The switch's words come from the
// page's catalogue (i18n.js, a module, imported once the page is parsed).

(() => {
  const KEY = "chuko.theme";
  const root = document.documentElement;

  const stored = () => {
    try { return localStorage.getItem(KEY); } catch { return null; } // storage refused: Auto
  };
  const apply = (choice) => {
    if (choice === "light" || choice === "dark") root.dataset.theme = choice;
    else delete root.dataset.theme;
  };
  const current = () => root.dataset.theme || "system";

  apply(stored());

  /** The switch, last of the header's links (folded with them behind the Menu button on a
   * small screen): Auto (the system's), Light or Dark. */
  async function addSwitch() {
    const { t } = await import("/static/js/i18n.js").catch(() => ({ t: (text) => text }));
    const header = document.querySelector("header.top");
    if (!header || header.querySelector("select.theme")) return;
    const select = document.createElement("select");
    select.className = "theme";
    select.setAttribute("aria-label", t("Colour scheme"));
    select.title = t("Colour scheme: Auto follows your system's setting");
    const [auto, light, dark] = [t("Auto"), t("Light"), t("Dark")];
    const choices = [["system", `◐ ${auto}`], ["light", `☀ ${light}`], ["dark", `☾ ${dark}`]];
    for (const [value, text] of choices) select.append(new Option(text, value));
    select.value = current();
    select.addEventListener("change", () => {
      apply(select.value);
      try {
        if (select.value === "system") localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, select.value);
      } catch { /* private mode: this page only */ }
    });
    (header.querySelector("nav.site") || header).append(select);
  }

  window.addEventListener("storage", (event) => {
    if (event.key !== KEY && event.key !== null) return;
    apply(stored());
    const select = document.querySelector("header.top select.theme");
    if (select) select.value = current();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", addSwitch);
  else addSwitch();
})();
