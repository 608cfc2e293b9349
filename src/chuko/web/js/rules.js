// /rules/{game}: that game's rules, fetched as Markdown and drawn by markdown.js; the header
// links to the rules of every registered game.

import "./site.js";
import { api, fill, games, h, notice } from "./dom.js";
import { t } from "./i18n.js";
import { render } from "./markdown.js";

async function nav(current) {
  try {
    const nav = document.getElementById("rules-nav");
    fill(nav, h("span.muted", { text: t("Rules:") }), (await games()).map((game) => h("a", {
      href: `/rules/${encodeURIComponent(game.id)}`,
      class: game.id === current ? "current" : undefined,
      "aria-current": game.id === current ? "page" : undefined,
      dataset: { game: game.id },
      text: game.title,
    })));
  } catch {
    // The rules still show without the links to the other games.
  }
}

async function main() {
  const id = decodeURIComponent(location.pathname.split("/")[2] || "");
  nav(id);
  const article = document.getElementById("rules");
  try {
    const rules = await api(`/api/games/${encodeURIComponent(id)}/rules`);
    const body = render(rules.markdown);
    // A text that does not open with its own title gets the game's.
    const titled = body.length && body[0].tagName === "H1";
    // The Lab holds what the study command measured about the game (js/lab.js).
    const lab = h("p.lab-link", {}, h("a", { href: `/lab#${encodeURIComponent(rules.id)}`,
      text: t("Facts and plots about {game} in the Lab", { game: rules.title }) }));
    const described = (await games().catch(() => [])).find((game) => game.id === rules.id);
    const learn = described && described.lessons ? h("p.learn-link", {}, h("a", {
      href: `/learn/${encodeURIComponent(rules.id)}`, text: t("Learn {game} step by step", { game: rules.title }) }))
      : null;
    fill(article, titled ? null : h("h1", { text: rules.title }), learn, body, lab);
    article.dataset.game = rules.id;
    document.title = t("{game} — rules — chükö", { game: rules.title });
  } catch (error) {
    fill(article);
    notice(error.message, "error");
  }
}

main();
