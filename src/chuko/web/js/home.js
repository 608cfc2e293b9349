// The home page: your display name, then each game with its options form and seats; creating
// a room shows the links. A game's last choices are remembered, so "New game" at the end of a
// game comes back to them (the address's #game-… says which game). Above them, the games
// this player has in progress and has just played (continue.js).

import { api, copyText, fill, games, h, notice } from "./dom.js";
import { showYourGames } from "./continue.js";
import { presetField } from "./presets.js";
import { number, t, tn } from "./i18n.js";
import { showFollowedGames } from "./relations.js";
import { becomeGuest, knownPlayer, offerAccountName } from "./site.js";
import { rememberRoom, saveChoices, savedChoices, savedName, saveName } from "./store.js";

// A game with no upper limit still gets a form of reasonable size; the server has the last
// word on how many players a game allows.
const MAX_SEATS_SHOWN = 20;

function optionInput(game, option, saved) {
  const id = `${game.id}-${option.name}`;
  const start = saved !== undefined ? saved : option.default;
  let input;
  if (option.kind === "choice") {
    input = h("select", { id, name: option.name },
      option.choices.map((choice) => h("option", {
        value: String(choice), selected: String(choice) === String(start),
        text: String(choice),
      })));
  } else if (option.kind === "int") {
    input = h("input", {
      id, name: option.name, type: "number", value: start, min: option.min,
      max: option.max_online ?? option.max, step: 1, inputmode: "numeric", title: option.help || undefined,
    });
    const presets = presetField(option, input);
    if (presets) return presets;
  } else {
    // Text with suggestions (a pack's name, or your own list): the choices as a datalist.
    const list = option.choices ? `${id}-choices` : undefined;
    input = h("input", {
      id, name: option.name, type: "text", value: start ?? "", list,
      title: option.help || undefined,
    });
    if (list) {
      return h("label.field", {}, h("span", { text: option.label }), input,
        h("datalist", { id: list }, option.choices.map((c) => h("option", { value: String(c) }))));
    }
  }
  return h("label.field", {}, h("span", { text: option.label }), input);
}

function seatCount(game, form) {
  const players = form.elements.namedItem("players");
  const wanted = players ? Number(players.value) : game.min_players;
  const most = Math.min(game.max_players ?? MAX_SEATS_SHOWN, Number(players?.max) || MAX_SEATS_SHOWN);
  if (!Number.isInteger(wanted)) return game.min_players;
  return Math.max(game.min_players, Math.min(most, wanted));
}

/** A descriptor's summary ("take 1 to 3 stones…") as the sentence a blurb shows. */
function sentence(text) {
  const clean = (text || "").trim();
  if (!clean) return "";
  return clean[0].toUpperCase() + clean.slice(1) + (/[.!?]$/.test(clean) ? "" : ".");
}

function playersText(game) {
  const [least, most] = [game.min_players, game.max_players];
  if (most === least) return tn("{n} player", "{n} players", least);
  return most ? t("{least}–{most} players", { least: number(least), most: number(most) })
    : t("{least}+ players", { least: number(least) });
}

const KINDS = [["me", t("You")], ["bot", t("Bot")], ["friend", t("Friend")]];

// The time controls offered for a table with more than one player (`clock` of POST
// /api/rooms): none, per move with a reserve, or correspondence in days a move.
const CLOCKS = [
  ["none", t("No clock"), null],
  ["move-30", t("30 s a move + 1 min"), { kind: "move", seconds: 30, reserve: 60 }],
  ["move-60", t("1 min a move + 5 min"), { kind: "move", seconds: 60, reserve: 300 }],
  ["days-1", tn("{n} day a move", "{n} days a move", 1), { kind: "days", days: 1 }],
  ["days-3", tn("{n} day a move", "{n} days a move", 3), { kind: "days", days: 3 }],
];

function clockField(game, saved) {
  if (game.max_players === 1) return null;
  const id = `${game.id}-clock`;
  return h("label.field.clock-field", {},
    h("span", { text: t("Clock") }),
    h("select", { id, name: "time-control" }, CLOCKS.map(([value, text]) => h("option", {
      value, text, selected: value === (saved || "none"),
    }))));
}

function readClock(form) {
  const field = form.elements.namedItem("time-control");
  const chosen = field && CLOCKS.find(([value]) => value === field.value);
  return chosen ? chosen[2] : null;
}

function seatRow(game, previous) {
  const kind = h("select", { name: "seat-kind" },
    KINDS.map(([value, text]) => h("option", { value, text })));
  const levels = game.levels || [];
  const level = h("select", { name: "seat-level" },
    levels.map((name) => h("option", { value: name, text: `${name[0].toUpperCase()}${name.slice(1)}` })));
  kind.value = previous?.kind ?? "bot";
  // A middle level makes a fair first opponent.
  level.value = previous?.level ?? levels[Math.min(1, levels.length - 1)] ?? "";
  if (!levels.length && kind.value === "bot") kind.value = "friend";
  const sync = () => { level.hidden = kind.value !== "bot"; };
  kind.addEventListener("change", sync);
  sync();
  return h("div.seat-row", {}, h("span.seat-name"), kind, level);
}

/** Rows are named by role, never numbered as seats: "You", then "Opponent 1", "Opponent 2"…
 * ("Player 1"… when nobody plays from this browser). */
function nameRows(list) {
  const rows = [...list.querySelectorAll(".seat-row")];
  const mine = rows.some((row) => row.querySelector("select").value === "me");
  let other = 0;
  for (const row of rows) {
    const [kind, level] = row.querySelectorAll("select");
    other += kind.value === "me" ? 0 : 1;
    const name = kind.value === "me" ? t("You")
      : mine ? t("Opponent {n}", { n: number(other) }) : t("Player {n}", { n: number(other) });
    row.querySelector(".seat-name").textContent = name;
    kind.setAttribute("aria-label", t("{name}: who plays", { name }));
    level.setAttribute("aria-label", t("{name}: bot level", { name }));
  }
  // An option choosing who starts lists seats: they read as the rows' names, not numbers.
  const first = list.closest("form")?.elements.namedItem("first");
  if (first && first.tagName === "SELECT") {
    for (const option of first.options) {
      const row = /^\d+$/.test(option.value) ? rows[Number(option.value)] : null;
      if (row) option.textContent = row.querySelector(".seat-name").textContent;
      else if (option.value === "random") option.textContent = t("Random");
    }
  }
}

function readSeats(list) {
  return [...list.querySelectorAll(".seat-row")].map((row) => {
    const [kind, level] = row.querySelectorAll("select");
    return kind.value === "bot" ? { kind: "bot", level: level.value } : { kind: kind.value };
  });
}

function drawSeats(game, form, list, previous = readSeats(list)) {
  const count = seatCount(game, form);
  const rows = Array.from({ length: count }, (_, i) => seatRow(game, previous[i] ?? (
    i === 0 && !previous.some((seat) => seat.kind === "me") ? { kind: "me" } : undefined)));
  fill(list, rows);
  nameRows(list);
}

function readOptions(game, form) {
  const options = {};
  for (const option of game.options) {
    const value = form.elements.namedItem(option.name).value.trim();
    if (option.kind === "int") options[option.name] = Number(value);
    else if (option.kind === "choice") {
      // Send the choice with its own JSON type (a number stays a number).
      options[option.name] = option.choices.find((c) => String(c) === value) ?? value;
    } else options[option.name] = value;
  }
  return options;
}

function linkRow(label, url) {
  const full = new URL(url, location.href).href;
  const input = h("input.link", { type: "text", value: full, readonly: true, "aria-label": label });
  const button = h("button.copy", {
    type: "button",
    onclick: async () => {
      const copied = await copyText(full, input);
      button.textContent = copied ? t("Copied") : t("Select and copy");
    },
    text: t("Copy"),
  });
  return h("div.link-row", {}, h("span.link-label", { text: label }), input, button);
}

function showCreated(game, created, box) {
  const several = created.invites.length > 1;
  const links = created.invites.map((invite, i) => linkRow(
    several ? t("Invite link {n} (one friend each)", { n: number(i + 1) })
      : t("Invite link for your friend"), invite.url));
  links.push(linkRow(t("Spectators"), created.watch_url));
  const mine = created.token
    ? h("a.button.primary", {
      href: `/room/${encodeURIComponent(created.room)}#token=${encodeURIComponent(created.token)}`,
      text: t("Go to my seat"),
    })
    : h("a.button.primary", { href: created.watch_url, text: t("Watch the game") });
  fill(box,
    h("h3", { text: created.invites.length ? t("Room created: send the invites") : t("Room created") }),
    created.invites.length
      ? h("p.muted", { text: t("Each link takes one seat; the game starts when every seat is filled.") })
      : null,
    links, h("div.actions", {}, mine));
  box.hidden = false;
}

/** The name typed in the page's name field, trimmed ("" when none). */
function playerName() {
  const field = document.getElementById("player-name");
  return field ? field.value.trim() : "";
}

async function create(game, form, list, box, button) {
  notice("");
  const seats = readSeats(list);
  const options = readOptions(game, form);
  if (seats.filter((s) => s.kind === "me").length > 1) {
    notice(t("Only one seat can be yours: give the others to bots or friends."), "error");
    return;
  }
  const name = playerName();
  const body = {
    game: game.id, options,
    seats: seats.map((seat) => (seat.kind === "me" && name ? { ...seat, name } : seat)),
  };
  const clock = readClock(form);
  if (clock) body.clock = clock;
  const clockChoice = form.elements.namedItem("time-control");
  saveChoices(game.id, { options, seats, clock: clockChoice ? clockChoice.value : undefined });
  button.disabled = true;
  try {
    await becomeGuest(); // the `me` seat is then this player's, on any device they log in
    const created = await api("/api/rooms", body);
    rememberRoom(created);
    // Alone with bots there is nobody to invite: go straight to the table.
    if (!created.invites.length && created.token) {
      location.href = `/room/${encodeURIComponent(created.room)}#token=${encodeURIComponent(created.token)}`;
      return;
    }
    showCreated(game, created, box);
  } catch (error) {
    notice(error.message, "error");
  } finally {
    button.disabled = false;
  }
}

function gamePanel(game) {
  const saved = savedChoices(game.id);
  const list = h("div.seat-list");
  const box = h("div.created", { hidden: true, "aria-live": "polite" });
  const button = h("button.primary", { type: "submit", text: t("Create room") });
  const form = h("form.game-form", { "aria-label": t("{game} options", { game: game.title }) },
    h("div.options", {}, game.options.map((option) => optionInput(game, option, saved?.options?.[option.name])),
      clockField(game, saved?.clock)),
    h("fieldset.seats-field", {}, h("legend", { text: t("Who plays") }), list),
    h("div.actions", {}, button));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    create(game, form, list, box, button);
  });
  form.addEventListener("input", (event) => {
    if (event.target.name === "players") drawSeats(game, form, list);
  });
  form.addEventListener("change", (event) => {
    if (event.target.name === "seat-kind") nameRows(list);
  });
  drawSeats(game, form, list, saved?.seats || []);
  return h("article.game-panel", { id: `game-${encodeURIComponent(game.id)}`, dataset: { game: game.id } },
    h("header", {},
      h("h2", { text: game.title }),
      h("span.players", { text: playersText(game) }),
      h("a.rules-link", { href: `/rules/${encodeURIComponent(game.id)}`, text: t("Rules") }),
      game.lessons ? h("a.rules-link", { href: `/learn/${encodeURIComponent(game.id)}`, text: t("Learn") })
        : null),
    h("p.blurb", { text: sentence(game.summary) }),
    form, box);
}

/** The name field: filled from this browser's memory, remembered as it is typed. */
function nameField() {
  const field = document.getElementById("player-name");
  if (!field) return;
  field.value = savedName();
  offerAccountName(field);
  field.addEventListener("input", () => saveName(field.value.trim()));
}

/** Coming back for a new game (/#game-…): that game's panel, in view and ready to go. */
function showChosen() {
  const id = decodeURIComponent(location.hash.slice(1));
  const panel = id && document.getElementById(id);
  if (!panel) return;
  for (const other of document.querySelectorAll(".game-panel.chosen")) other.classList.remove("chosen");
  panel.classList.add("chosen");
  panel.scrollIntoView({ block: "start" });
  panel.querySelector("button[type=submit]")?.focus({ preventScroll: true });
}

async function main() {
  nameField();
  // A first visitor (no session yet) is offered the lessons before anything else.
  knownPlayer().then((player) => { document.getElementById("learn-offer").hidden = Boolean(player); });
  showYourGames(document.getElementById("your-games")).catch(() => {});
  showFollowedGames(document.getElementById("followed-games")).catch(() => {});
  const root = document.getElementById("games");
  try {
    fill(root, (await games()).map(gamePanel));
    showChosen();
    window.addEventListener("hashchange", showChosen);
  } catch (error) {
    fill(root);
    notice(error.message, "error");
  }
}

main();
