// /tournaments: upcoming (counting down in the viewer's local time), running and finished
// tournaments, refreshed every few seconds, and the form an account makes one with
// (GET and POST /api/tournaments; docs/web-protocol.md, "Tournaments"). A refusal is shown
// as the server's sentence.

import "./site.js";
import { clockText } from "./clocktext.js";
import { api, fill, games, h, notice } from "./dom.js";
import { t } from "./i18n.js";
import { eventItem, tick } from "./events.js";
import { optionField, readOptions } from "./presets.js";
import { knownPlayer } from "./site.js";

const REFRESH_MS = 5000;
const EMPTY = { upcoming: t("Nothing is planned yet: make one below."), running: t("Nothing is being played."),
  finished: t("None yet.") };

let catalog = [];
let clocks = [];

async function showLists() {
  const lists = await api("/api/tournaments");
  for (const status of ["upcoming", "running", "finished"]) {
    fill(document.getElementById(status), lists[status].length ? lists[status].map(eventItem)
      : h("li.muted", { text: EMPTY[status] }));
  }
}

function showOptions(form) {
  const game = catalog.find((g) => g.id === form.elements.game.value);
  fill(document.getElementById("t-options"), game ? game.options.map((o) => optionField(o, "t")) : []);
}

/** An arena plays on a per-move clock for minutes; a Swiss plays rounds, days a move too. */
function showSystem(form) {
  const arena = form.elements.system.value === "arena";
  form.elements.minutes.closest("label").hidden = !arena;
  form.elements.rounds.closest("label").hidden = arena;
  for (const option of form.elements.clock.options) {
    option.disabled = arena && clocks[Number(option.value)].kind !== "move";
    if (option.disabled && option.selected) form.elements.clock.value = "0";
  }
}

/** `datetime-local` in the viewer's own time, `minutes` from now, to the minute. */
function localInput(minutes) {
  const at = new Date(Date.now() + minutes * 60000);
  at.setSeconds(0, 0);
  const pad = (n) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

function settings(form) {
  const game = catalog.find((g) => g.id === form.elements.game.value);
  const value = (name) => form.elements[name].value.trim();
  const number = (name) => (value(name) === "" ? null : Number(value(name)));
  const body = {
    name: value("name"), game: game ? game.id : value("game"), options: game ? readOptions(game, form) : {},
    system: value("system"), clock: clocks[Number(value("clock"))], rated: value("rated") === "true",
    starts_at: Math.max(Date.now() / 1000, new Date(value("start")).getTime() / 1000),
    rating_min: number("low"), rating_max: number("high"), password: value("password") || null,
  };
  if (body.system === "arena") body.minutes = number("minutes"); else body.rounds = number("rounds");
  return body;
}

async function make(event) {
  event.preventDefault();
  const form = event.target;
  const button = form.querySelector("button[type=submit]");
  const refused = document.getElementById("make-refused");
  button.disabled = true;
  try {
    const made = await api("/api/tournaments", settings(form));
    location.href = made.url;
  } catch (error) {
    // Beside the button pressed, where the eye is.
    refused.textContent = error.message;
    refused.hidden = false;
  } finally {
    button.disabled = false;
  }
}

async function showForm() {
  const player = await knownPlayer();
  const account = Boolean(player && !player.guest);
  document.getElementById("make-account").hidden = account;
  const form = document.getElementById("make-form");
  form.hidden = !account;
  if (!account) return;
  const [all, lobby] = await Promise.all([games(), api("/api/lobby")]);
  catalog = all.filter((game) => game.max_players === null || game.max_players >= 2);
  clocks = lobby.clocks;
  fill(form.elements.game, catalog.map((game) => h("option", { value: game.id, text: game.title })));
  fill(form.elements.clock, clocks.map((clock, n) => h("option", { value: String(n),
    text: clockText(clock, true), selected: clock.kind === "move" && clock.seconds === 30 })));
  form.elements.start.value = localInput(15);
  form.elements.game.addEventListener("change", () => showOptions(form));
  form.elements.system.addEventListener("change", () => showSystem(form));
  form.addEventListener("submit", make);
  showOptions(form);
  showSystem(form);
}

showLists().catch((error) => notice(error.message, "error"));
showForm().catch((error) => notice(error.message, "error"));
setInterval(() => showLists().catch(() => {}), REFRESH_MS);
setInterval(tick, 1000);
