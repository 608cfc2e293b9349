// /replay/{room}: a finished game move by move, each frame drawn as the seat saw it, with the
// engine's sentence about the move under the board.

import { api, gameInfo, loadScreen, notice } from "./dom.js";
import { roomInfo } from "./store.js";

const $ = (id) => document.getElementById(id);

async function main() {
  const room = decodeURIComponent(location.pathname.split("/")[2] || "");
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || roomInfo(room).token;
  let replay;
  let screen;
  try {
    replay = await api(`/api/rooms/${encodeURIComponent(room)}/replay${token ? `?token=${encodeURIComponent(token)}` : ""}`);
    const game = await gameInfo(replay.game, replay);
    screen = await loadScreen(game);
    const title = replay.title || game.title;
    $("title").textContent = `${title} — replay`;
    document.title = `${title} — replay — chükö`;
  } catch (error) {
    notice(error.message, "error");
    return;
  }
  const frames = replay.frames || [];
  if (!frames.length) {
    notice("This replay has no positions to show.", "error");
    return;
  }
  $("rules-link").href = `/rules/${encodeURIComponent(replay.game)}`;
  const slider = $("slider");
  slider.max = String(frames.length - 1);
  let at = 0;
  const show = (index) => {
    at = Math.max(0, Math.min(frames.length - 1, index));
    slider.value = String(at);
    $("counter").textContent = at === 0 ? `deal · ${frames.length - 1} moves` : `move ${at} of ${frames.length - 1}`;
    const { view, caption } = frames[at];
    const msg = {
      game: replay.game, title: replay.title, seat: replay.seat ?? view.seat ?? null,
      seats: replay.seats || [], status: "replay", version: at, view, legal: [], result: null,
    };
    screen.render($("board"), msg, { interactive: false, send: () => {}, hint: null, still: true, redraw: () => show(at) });
    $("caption").textContent = caption || "";
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
