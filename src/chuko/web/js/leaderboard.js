// /leaderboard/{game}: the best settled ratings of a game, heads-up or multiplayer
// (?class=duel|multi), from GET /api/leaderboard/{game}, and below them while they are few
// the best provisional ones. A bare /leaderboard (the header's
// link) shows the first game that has one.

import { api, fill, games, h, notice } from "./dom.js";
import { number, t } from "./i18n.js";
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

function rows(players) {
  return players.map((p) => h("tr", { class: p.provisional ? "provisional" : "" },
    h("td.rank", { text: p.rank ? number(p.rank) : "–" }),
    h("td", {}, h("a", { href: `/@/${encodeURIComponent(p.username)}`, text: p.username })),
    h("td", {}, ratingText(p)),
    h("td.num", { text: number(p.games) }),
    h("td.num", { text: percent(p.win_rate) })));
}

/** The settled players ranked; while they are few, the provisional ones below them, unranked
 * and said to be provisional (the server sends them only then). */
function table(board) {
  const provisional = board.provisional || [];
  if (!board.players.length && !provisional.length) {
    return h("p.empty", { text: t("No ratings yet. Play rated games from the lobby: a "
      + "player is ranked here after 10 of them.") });
  }
  const caption = t("{game}, {class}", { game: board.title, class: CLASS_NAMES[board.class] });
  return h("div.table-wrap", {}, h("table.board-table", {},
    h("caption.sr-only", { text: caption }),
    h("thead", {}, h("tr", {}, ["#", t("Player"), t("Rating"), t("Games"), t("Win rate")].map((c) => h(
      "th", { scope: "col", text: c })))),
    board.players.length ? h("tbody", {}, rows(board.players))
      : h("tbody", {}, h("tr", {}, h("td.muted", { colspan: "5", text: t("No settled ratings yet.") }))),
    provisional.length ? h("tbody.provisional-rows", {},
      h("tr", {}, h("th.provisional-head", { scope: "rowgroup", colspan: "5",
        text: t("Provisional (shown with ?): not ranked until 10 rated games settle them") })),
      rows(provisional)) : null));
}

async function main() {
  const game = await whichGame();
  boardNav(game);
  const klass = new URLSearchParams(location.search).get("class");
  const place = document.getElementById("board");
  try {
    const board = await api(`/api/leaderboard/${encodeURIComponent(game)}`
      + (klass ? `?class=${encodeURIComponent(klass)}` : ""));
    document.title = t("{game} leaderboard — chükö", { game: board.title });
    document.getElementById("board-title").textContent = t("{game} leaderboard", { game: board.title });
    tabs(board);
    fill(place, table(board));
  } catch (error) {
    fill(place);
    notice(error.message, "error");
  }
}

main();
