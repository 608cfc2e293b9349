// /replay/{room}: a finished game move by move, each frame drawn as the seat saw it.

import { api, GAME_TITLES, notice } from "./dom.js";
import { roomInfo } from "./store.js";
import * as caravan from "./caravan.js";
import * as chuchula from "./chuchula.js";
import * as chuko from "./chuko.js";
import * as crossroads from "./crossroads.js";

const SCREENS = { caravan, chuchula, chuko, crossroads };
const $ = (id) => document.getElementById(id);

async function main() {
  const room = decodeURIComponent(location.pathname.split("/")[2] || "");
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || roomInfo(room).token;
  let replay;
  try {
    replay = await api(`/api/rooms/${encodeURIComponent(room)}/replay${token ? `?token=${encodeURIComponent(token)}` : ""}`);
  } catch (error) {
    notice(error.message, "error");
    return;
  }
  const screen = SCREENS[replay.game];
  const frames = replay.frames || [];
  if (!screen || !frames.length) {
    notice("This replay has no positions to show.", "error");
    return;
  }
  $("title").textContent = `${GAME_TITLES[replay.game] || replay.game} — replay`;
  $("rules-link").href = `/rules/${replay.game}`;
  const slider = $("slider");
  slider.max = String(frames.length - 1);
  let at = 0;
  const show = (index) => {
    at = Math.max(0, Math.min(frames.length - 1, index));
    slider.value = String(at);
    $("counter").textContent = at === 0 ? `deal · ${frames.length - 1} moves` : `move ${at} of ${frames.length - 1}`;
    const view = frames[at];
    const seat = view.seat ?? null;
    const msg = { game: replay.game, seat, seats: replay.seats || [], status: "replay", version: at, view, legal: [] };
    screen.render($("board"), msg, { interactive: false, send: () => {}, hint: null, still: true, redraw: () => show(at) });
  };
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(frames.length - 1);
  slider.oninput = () => show(Number(slider.value));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") show(at - 1);
    if (event.key === "ArrowRight") show(at + 1);
  });
  show(frames.length - 1);
}

main();
