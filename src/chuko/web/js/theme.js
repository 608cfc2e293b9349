// The colour scheme: the system's (the stylesheet follows prefers-color-scheme) unless the
// switch in the header chose light or dark for this browser. A plain script, not a module:
// every page loads it in its <head>, where it runs before the body is drawn, so a page never
// flashes in the other scheme first. The choice is data-theme on <html>, and remembered in
// localStorage; a choice made in one tab reaches the others.

(() => {
  const KEY = "chuko.theme";
  const CHOICES = [["system", "◐ Auto"], ["light", "☀ Light"], ["dark", "☾ Dark"]];
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
  function addSwitch() {
    const header = document.querySelector("header.top");
    if (!header || header.querySelector("select.theme")) return;
    const select = document.createElement("select");
    select.className = "theme";
    select.setAttribute("aria-label", "Colour scheme");
    select.title = "Colour scheme: Auto follows your system's setting";
    for (const [value, text] of CHOICES) select.append(new Option(text, value));
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
