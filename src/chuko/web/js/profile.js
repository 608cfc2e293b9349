// /@/{username}: an account's profile from GET /api/players/{username}: its ratings in each
// game and class (with their uncertainty, games and win rate, and a plot of their history),
// then its finished games, newest first, a page at a time, each linking to its replay, and
// the tournaments it entered (GET /api/players/{username}/tournaments).

import "./site.js";
import { api, fill, h, notice, withNodes } from "./dom.js";
import { lang, number, t, tn } from "./i18n.js";
import { boardNav, CLASS_NAMES, day, percent, playerLink, ratingChange, ratingText } from "./club.js";
import { eventItem } from "./events.js";
import { drawHistory } from "./ratingplot.js";
import { showRelations } from "./relations.js";

const username = decodeURIComponent(location.pathname.slice(3));

function ratingCard(rating, history) {
  const points = history.filter((p) => p.game === rating.game && p.class === rating.class);
  const title = t("{game}, {class}", { game: rating.title, class: CLASS_NAMES[rating.class] });
  return h("article.rating-card", { dataset: { game: rating.game, class: rating.class } },
    h("header", {},
      h("h3", {}, h("a", { href: `/leaderboard/${encodeURIComponent(rating.game)}?class=${rating.class}`,
        text: rating.title }), " ", h("span.muted", { text: CLASS_NAMES[rating.class] })),
      ratingText(rating)),
    h("dl.figures", {},
      h("div", {}, h("dt", { text: t("Rated games") }), h("dd", { text: number(rating.games) })),
      h("div", {}, h("dt", { text: t("Won") }), h("dd", { text: number(rating.wins) })),
      h("div", {}, h("dt", { text: t("Win rate") }), h("dd", { text: percent(rating.win_rate) }))),
    rating.provisional ? h("p.muted.small", { text: t("Provisional (shown with ?): it settles "
      + "after 10 rated games, once its ± is small enough.") }) : null,
    points.length ? h("figure.history", {}, drawHistory(points,
      t("{title}: rating after each rated game", { title })))
      : null);
}

/** The other seats, linked, as the page's language lists them ("Ann, Bob and Cy"). */
function opponents(game) {
  const others = game.seats.filter((seat) => seat.seat !== game.seat).map(playerLink);
  const list = new Intl.ListFormat(lang, { type: "conjunction" })
    .formatToParts(others.map((_, i) => String(i)))
    .map((part) => (part.type === "element" ? others[Number(part.value)] : part.value));
  return h("span.versus", {}, withNodes(t("vs {players}"), { players: h("span", {}, list) }));
}

function gameItem(game) {
  const result = game.result || "over";
  const kind = ["won", "draw", "lost", "aborted"].includes(result) ? result : "placed";
  return h("li.game-item", { dataset: { room: game.room } },
    h(`span.result.${kind}`, { text: game.result_text || t("over") }),
    h("div.game-main", {},
      h("div.game-head", {}, h("strong", { text: game.title }),
        " ", h("span.muted", { text: game.seats.length === 2
          ? t("· heads-up · {kind}", { kind: game.rated ? t("rated") : t("casual") })
          : tn("· {n} player · {kind}", "· {n} players · {kind}", game.seats.length,
            { kind: game.rated ? t("rated") : t("casual") }) })),
      h("div", {}, opponents(game)),
      game.sentence ? h("div.muted.small", { text: game.sentence }) : null),
    h("div.game-side", {},
      h("span.muted.small", { text: day(game.at) }),
      game.rating ? h("span.small", {}, t("rating {rating}", { rating: game.rating.rating }), " ",
        game.rating.change === null ? null : h(`span.change.${game.rating.change > 0 ? "up"
          : game.rating.change < 0 ? "down" : "same"}`, { text: ratingChange(game.rating.change) })) : null,
      h("a.button.small", { href: game.replay, text: t("Replay"),
        "aria-label": t("Replay: {game}, {day}", { game: game.title, day: day(game.at) }) })));
}

function showGames(list, games, more, next) {
  list.append(...games.map(gameItem));
  if (!list.children.length) list.append(h("li.empty", { text: t("No finished games yet.") }));
  more.hidden = !next;
  more.dataset.next = next || "";
}

async function loadMore(list, more) {
  more.disabled = true;
  try {
    const page = await api(`/api/players/${encodeURIComponent(username)}/games?before=${
      encodeURIComponent(more.dataset.next)}`);
    showGames(list, page.games, more, page.next);
  } catch (error) {
    notice(error.message, "error");
  } finally {
    more.disabled = false;
  }
}

async function main() {
  boardNav(null);
  const ratings = document.getElementById("ratings");
  const list = document.getElementById("games");
  const more = document.getElementById("more");
  let profile;
  try {
    profile = await api(`/api/players/${encodeURIComponent(username)}`);
  } catch (error) {
    notice(error.message, "error");  // nobody by that name (the page answered 404): only this
    return;
  }
  for (const section of document.querySelectorAll("#relations, main section.found")) section.hidden = false;
  document.title = t("{username} — chükö", { username: profile.username });
  fill(document.getElementById("who"),
    h("h1", { text: profile.username }),
    profile.name && profile.name !== profile.username ? h("p.lead", { text: profile.name }) : null,
    h("p.muted", { text: t("Playing here since {day}.", { day: day(profile.member_since) }) }),
    profile.daily && profile.daily.best ? h("p.daily-streak", {
      text: tn("Daily Caravan streak: {n} won in a row (best {best}).",
        "Daily Caravan streak: {n} won in a row (best {best}).", profile.daily.current,
        { best: number(profile.daily.best) }),
    }) : null);
  showRelations(document.getElementById("relations"), profile.username);
  fill(ratings, profile.ratings.length ? profile.ratings.map((r) => ratingCard(r, profile.history))
    : h("p.muted", { text: t("No rated games yet.") }));
  showGames(list, profile.games, more, profile.next);
  more.addEventListener("click", () => loadMore(list, more));
  showTournaments().catch((error) => notice(error.message, "error"));
}

async function showTournaments() {
  const { tournaments } = await api(`/api/players/${encodeURIComponent(username)}/tournaments`);
  fill(document.getElementById("tournaments"), tournaments.length ? tournaments.map(eventItem)
    : h("li.muted", { text: t("None yet.") }));
}

main();
