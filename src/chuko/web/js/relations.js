// A profile's actions between the visitor and its account (docs/web-protocol.md, "People"):
// whether it is online, follow or unfollow, block or unblock, and the challenge form (a
// game of two with its options, a clock, rated or casual) that sends POST /api/challenges.
// The answer, and every step after, comes on the player's own socket (js/channel.js). Also
// the home page's list of the games those one follows finished lately.

import { api, fill, games as catalog, h, notice, withNodes } from "./dom.js";
import { t } from "./i18n.js";
import { clockText, expectAnswer } from "./channel.js";

const CLOCKS = [null, { kind: "move", seconds: 30, reserve: 60 }, { kind: "move", seconds: 60, reserve: 180 },
  { kind: "days", days: 1 }, { kind: "days", days: 3 }];

function optionField(option) {
  const values = option.choices || [];
  return h("label.field", {}, h("span", { text: option.label || option.name }),
    h("select", { name: `option-${option.name}` },
      values.map((value) => h("option", { value: String(value), text: String(value),
        selected: value === option.default }))));
}

function challengeForm(username, games) {
  const playable = games.filter((g) => g.min_players <= 2 && (g.max_players ?? Infinity) >= 2);
  const options = h("div.challenge-options");
  const game = h("select", { name: "game", id: "challenge-game" },
    playable.map((g) => h("option", { value: g.id, text: g.title })));
  const showOptions = () => {
    const chosen = playable.find((g) => g.id === game.value);
    fill(options, (chosen?.options || []).filter((o) => o.name !== "players" && o.choices).map(optionField));
  };
  game.addEventListener("change", showOptions);
  const clock = h("select", { name: "clock", id: "challenge-clock" },
    CLOCKS.map((c, n) => h("option", { value: String(n), text: c ? clockText(c) : t("no clock (casual only)"),
      selected: n === 1 })));
  const rated = h("input", { type: "checkbox", name: "rated", id: "challenge-rated" });
  const form = h("form.challenge-form", { "aria-label": t("challenge {username}", { username }) },
    h("label.field", { for: "challenge-game" }, h("span", { text: t("Game") }), game), options,
    h("label.field", { for: "challenge-clock" }, h("span", { text: t("Clock") }), clock),
    h("label.check", { for: "challenge-rated" }, rated, " ", t("Rated (both need an account and a clock)")),
    h("div.actions", {}, h("button.primary", { type: "submit", text: t("Challenge {username}", { username }) })));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = playable.find((g) => g.id === game.value);
    const values = chosen.options.some((o) => o.name === "players") ? { players: 2 } : {};
    for (const select of options.querySelectorAll("select")) {
      const option = chosen.options.find((o) => `option-${o.name}` === select.name);
      values[option.name] = option.choices.find((v) => String(v) === select.value);
    }
    try {
      expectAnswer((await api("/api/challenges", { to: username, game: chosen.id, options: values,
        clock: CLOCKS[Number(clock.value)], rated: rated.checked })).id);
      notice(t("Challenge sent to {username}: the bell shows their answer.", { username }), "good");
      form.hidden = true;
    } catch (error) {
      notice(error.message, "error");
    }
  });
  showOptions();
  return form;
}

async function act(path, username, section) {
  try {
    await api(path, { username });
    await showRelations(section, username);
  } catch (error) {
    notice(error.message, "error");
  }
}

/** Fill `section` with how the visitor stands with `username`, and its actions. */
export async function showRelations(section, username) {
  let standing;
  try {
    standing = await api(`/api/people/${encodeURIComponent(username)}`);
  } catch {
    return;  // the profile says why already
  }
  const online = h("span.online", { dataset: { online: String(standing.online) },
    text: standing.online ? t("online") : t("offline") });
  if (standing.you) {
    fill(section, online, " · ", h("a", { href: "/people", text: t("people you follow") }));
    return;
  }
  const form = challengeForm(standing.username, await catalog().catch(() => []));
  form.hidden = true;
  fill(section, h("div.relation-actions", {}, online,
    h("button.primary.small", { type: "button", text: t("Challenge"),
      onclick: () => { form.hidden = !form.hidden; } }),
    h("button.small", { type: "button", text: standing.follows ? t("Unfollow") : t("Follow"),
      onclick: () => act(standing.follows ? "/api/people/unfollow" : "/api/people/follow", username, section) }),
    h("button.small", { type: "button", text: standing.blocks ? t("Unblock") : t("Block"),
      onclick: () => act(standing.blocks ? "/api/people/unblock" : "/api/people/block", username, section) })),
  form);
  if (new URLSearchParams(location.search).has("challenge")) form.hidden = false;
}

/** The home page's list of the latest finished games of those the player follows
 * (GET /api/me/followed-games), each with its replay; hidden when there are none. */
export async function showFollowedGames(box) {
  const { games } = await api("/api/me/followed-games");
  box.hidden = !games.length;
  fill(box, h("h2", { text: t("Games of people you follow") }),
    h("ul.your-games-list.followed", {}, games.map((g) => h("li", {},
      withNodes(t("{player} played {game}"), {
        player: h("a", { href: `/@/${encodeURIComponent(g.username)}`, text: g.name }), game: g.title,
      }), " · ", h("a", { href: g.replay, text: t("replay") })))));
}

/** The end panel's "Challenge" of a finished heads-up game against a person: another game
 * like it, sent to the opponent (POST /api/challenges with the room; the server finds them,
 * and says so when they have no account). Null for a spectator or a game against a bot. */
export function challengeAgain(room, msg, spectator) {
  const other = msg.seats.length === 2 ? msg.seats.find((seat) => seat.seat !== msg.seat) : null;
  if (spectator || !other || other.kind !== "human") return null;
  return h("button.challenge-again", { type: "button", text: t("Challenge"), onclick: async (event) => {
    event.currentTarget.disabled = true;
    try {
      expectAnswer((await api("/api/challenges", { room })).id);
      notice(t("Challenge sent: the bell shows the answer."), "good");
    } catch (error) {
      notice(error.message, "error");
    }
  } });
}
