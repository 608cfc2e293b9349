// /leaderboard/{game}: the best settled ratings of a game, heads-up or multiplayer
// (?class=duel|multi), from GET /api/leaderboard/{game}. A bare /leaderboard (the header's
// link) shows the first game that has one.

import { api, fill, games, h, notice } from "./dom.js";
import { boardNav, classesOf, CLASS_NAMES, percent, ratingText } from "./club.js";
import "./site.js";

/** The game of the address, or for a bare /leaderboard the first game rated, which the
 * address then names. */
async function whichGame() {
  const named = decodeURIComponent(location.pathname.split("/")[2] || "");
  if (named) return named;
  const first = (await games().catch(() => [])).find((game) => classesOf(game).length);
  if (first) history.replaceState(null, "", `/leaderboard/${encodeURIComponent(first.id)}${location.search}`);
  return first ? first.id : "";
}

function tabs(board) {
  fill(document.getElementById("classes"), board.classes.length > 1 ? board.classes.map(
    (klass) => h(`a.tab${klass === board.class ? ".current" : ""}`, {
      href: `?class=${klass}`, text: CLASS_NAMES[klass],
      "aria-current": klass === board.class ? "page" : undefined,
    })) : []);
}

function table(board) {
  if (!board.players.length) {
    return h("p.empty", { text: "No settled ratings yet. Play rated games from the lobby: a "
      + "player is listed here after 10 of them." });
  }
  return h("div.table-wrap", {}, h("table.board-table", {},
    h("caption.sr-only", { text: `${board.title}, ${CLASS_NAMES[board.class].toLowerCase()}` }),
    h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Games", "Win rate"].map((c) => h(
      "th", { scope: "col", text: c })))),
    h("tbody", {}, board.players.map((p) => h("tr", {},
      h("td.rank", { text: String(p.rank) }),
      h("td", {}, h("a", { href: `/@/${encodeURIComponent(p.username)}`, text: p.username })),
      h("td", {}, ratingText(p)),
      h("td.num", { text: String(p.games) }),
      h("td.num", { text: percent(p.win_rate) }))))));
}

async function main() {
  const game = await whichGame();
  boardNav(game);
  const klass = new URLSearchParams(location.search).get("class");
  const place = document.getElementById("board");
  try {
    const board = await api(`/api/leaderboard/${encodeURIComponent(game)}`
      + (klass ? `?class=${encodeURIComponent(klass)}` : ""));
    document.title = `${board.title} leaderboard — chükö`;
    document.getElementById("board-title").textContent = `${board.title} leaderboard`;
    tabs(board);
    fill(place, table(board));
  } catch (error) {
    fill(place);
    notice(error.message, "error");
  }
}

main();
