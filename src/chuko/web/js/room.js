// The play screen for /room/{room}#token=…, /join/{room}/{invite} and /watch/{room}: connects
// to the room, draws each snapshot with the game's screen module, sends the player's moves,
// keeps the move log, pauses between rounds and ends with the result, a rematch, a new game
// and the replay. Around the table: the seats' clocks (clocks.js), quick messages
// (chat.js), the "your turn" signals (signals.js), resigning and claiming a game, and a
// question before leaving a game in play (leaving.js).

import { api, copyText, fill, gameInfo, h, loadScreen, notice } from "./dom.js";
import { remember, rememberRoom, roomInfo, savedName, saveName, tournamentOf } from "./store.js";
import { RoomSocket } from "./socket.js";
import { number, t, tn } from "./i18n.js";
import { listing, seatLabel } from "./seats.js";
import { ratingChange } from "./club.js";
import { bubble, chatControls, hear } from "./chat.js";
import { clockChip, takeClocks } from "./clocks.js";
import { confirmDialog } from "./confirm.js";
import { keepFocusIn } from "./focus.js";
import { summarize } from "./continue.js";
import { guardLeaving, leaveFreely } from "./leaving.js";
import { becomeGuest, offerAccountName } from "./site.js";
import { signalControls, startSignals, turnSignal } from "./signals.js";
import { answered, asked, thinkingNote } from "./hints.js";
import { challengeAgain } from "./relations.js";
import { watchInvite, watcherChip } from "./watchers.js";

const $ = (id) => document.getElementById(id);

const page = {
  room: null,
  token: null,
  socket: null,
  msg: null,        // the last state snapshot
  screen: null,     // the game's screen module, once loaded
  loading: null,    // the promise that loads it
  hint: null,       // {version, values, note, outlook} while it still applies
  log: [],          // the moves in words that this page holds, oldest first
  logFirst: 0,      // how many earlier moves the server still has (log[0] is move logFirst + 1)
  logged: -1,       // the version the log holds every move up to
  logAsked: false,  // an earlier page of the log is on its way
  shown: { first: 0, count: 0 }, // the log lines on screen: from move first + 1, how many
  pause: null,      // {version, until, dismissed} for the pause after a round
  boardFocus: false, // the player's keyboard focus is on the table (kept across redraws)
  busy: false,      // a rematch or follow request is on its way
  summary: "",      // what this browser last remembered of the game, for the home page
};

// What a seat that a bot took over shows beside its name.
const GONE = {
  resigned: [t("(resigned)"), t("(resigned — bot plays)")],
  timeout: [t("(out of time)"), t("(out of time — bot plays)")],
  left: [t("(left)"), t("(left — bot plays)")],
};

/** Where this page is: {kind: "room"|"join"|"watch", room, invite}. */
function where() {
  const [, kind, room, invite] = location.pathname.split("/").map(decodeURIComponent);
  return { kind, room, invite };
}

function fragmentToken() {
  return new URLSearchParams(location.hash.slice(1)).get("token");
}

function roomUrl(room, token) {
  return `/room/${encodeURIComponent(room)}${token ? `#token=${encodeURIComponent(token)}` : ""}`;
}

function send(msg) {
  notice("");
  page.socket.send(msg);
}

function canHint(msg) {
  return Boolean(msg.hints && msg.hintable);
}

/** Ask for a hint; "thinking…" shows if it is slow to come (hints.js). */
function askHint() {
  asked(() => drawTools(page.msg));
  send({ type: "hint" });
}

/** A hint came, or will not come: the "thinking…" note goes. */
function hintOver() {
  answered();
  if (page.msg && page.screen) drawTools(page.msg);
}

function isSpectator(msg) {
  return Boolean(msg.spectator) || msg.seat === null || msg.seat === undefined;
}

function isMyTurn(msg) {
  return msg.status === "playing" && !isSpectator(msg) && (msg.view.to_move || []).includes(msg.seat);
}

/** Whether this page's player is in a game that goes on (leaving it asks first). */
function inPlay(msg) {
  return Boolean(msg) && msg.status === "playing" && !isSpectator(msg) && !(msg.seats[msg.seat] || {}).gone;
}

// -- the seats, the status line and the end of the game ------------------------------------

function drawSeats(msg) {
  const toMove = msg.view.to_move || [];
  const chips = msg.seats.map((seat) => {
    const mine = seat.seat === msg.seat;
    const online = seat.kind === "bot" || seat.connected;
    return h("div.seat-chip", {
      class: [
        "seat-chip", mine ? "me" : "",
        toMove.includes(seat.seat) && msg.status === "playing" ? "to-move" : "",
        seat.joined ? "" : "open",
      ].join(" "),
      dataset: { seat: String(seat.seat) },
    },
    h("span.dot", { class: `dot ${online ? "on" : "off"}`, "aria-hidden": "true" }),
    h("span.name", { text: seatLabel(msg, seat.seat) }),
    // What the others call you, next to "You".
    mine && seat.name ? h("span.level", { text: seat.name }) : null,
    seatRating(seat.rating),
    h("span.sr-only", {}, seat.kind === "bot" ? null : [" ", online ? t("(connected)") : t("(not connected)")]),
    seat.joined ? null : h("span.level", { text: t("not here yet") }),
    seat.gone ? h("span.gone", {
      text: (GONE[seat.gone] || GONE.left)[msg.status === "playing" ? 1 : 0],
    }) : null,
    clockChip(seat.seat),
    bubble(seat.seat));
  });
  if (isSpectator(msg)) chips.unshift(watcherChip(msg.watchers, true));
  else chips.push(watcherChip(msg.watchers, false));
  fill($("seats"), chips);
}

/** A rated room's seat rating beside its name: "1779?" while provisional. */
function seatRating(rating) {
  if (!rating) return null;
  return h("span.seat-rating", {
    text: rating.text,
    title: rating.provisional ? t("Rating (provisional: too few rated games to be sure yet)") : t("Rating"),
  });
}

/** A rated game's end: each seat's rating after it and the change it made ("+12", "−9"). */
function ratingChanges(msg) {
  const rated = msg.seats.filter((seat) => seat.rating && seat.rating.change !== null);
  if (!rated.length) return null;
  return h("ul.rating-changes", { "aria-label": t("rating changes") }, rated.map((seat) => {
    const { change, text } = seat.rating;
    return h("li", { class: seat.seat === msg.seat ? "me" : "" },
      h("span.who", { text: seatLabel(msg, seat.seat) }),
      h("span.seat-rating", { text: text }),
      h(`span.change.${change > 0 ? "up" : change < 0 ? "down" : "same"}`, { text: ratingChange(change) }));
  }));
}

function waitingText(msg) {
  const missing = msg.seats.filter((s) => !s.joined).map((s) => seatLabel(msg, s.seat));
  if (!missing.length) return t("Waiting for the players.");
  const players = listing(missing);
  return roomInfo(page.room).rematchOf ? t("Waiting for {players} to come to the rematch.", { players })
    : t("Waiting for {players} to join.", { players });
}

function statusText(msg) {
  if (msg.status === "waiting") return waitingText(msg);
  if (msg.status === "over") return msg.result || t("The game is over.");
  if (msg.status === "expired") return msg.result || t("This room has closed.");
  const toMove = (msg.view.to_move || []).map((s) => seatLabel(msg, s));
  if (isSpectator(msg)) {
    return toMove.length ? t("You are watching: {players} to move.", { players: listing(toMove) }) : t("You are watching.");
  }
  if (isMyTurn(msg)) return t("Your turn.");
  // Seats that move at once in secret: who is still thinking is not news worth naming.
  if (msg.simultaneous) return t("Waiting for the others…");
  return t("Waiting for {players}.", { players: listing(toMove) });
}

/** Points per seat, best first, where the outcome has points to show (a game that only
 * has winners and losers shows who won). */
function standings(msg) {
  const outcome = msg.view && msg.view.outcome;
  if (!outcome || !Array.isArray(outcome.scores) || outcome.scores.length < 2) return null;
  const winners = new Set(outcome.winners || []);
  const onlyWins = outcome.scores.every((score) => score === 0 || score === 1);
  const order = outcome.scores.map((score, seat) => ({ score, seat }))
    .sort((a, b) => b.score - a.score || a.seat - b.seat);
  return h("ol.standings", { "aria-label": t("final score") }, order.map(({ score, seat }) => h("li", {
    class: `${winners.has(seat) ? "won" : ""}${seat === msg.seat ? " me" : ""}`,
  },
  h("span.who", { text: seatLabel(msg, seat) }),
  onlyWins ? null : h("span.points", { text: number(score) }),
  winners.has(seat) ? h("span.badge", { text: t("winner") }) : null)));
}

async function startRematch() {
  page.busy = true;
  draw();
  try {
    await becomeGuest();
    const made = await api(`/api/rooms/${encodeURIComponent(page.room)}/rematch`, { token: page.token });
    rememberRoom(made);
    remember(made.room, { rematchOf: page.room });
    leaveFreely();
    location.href = roomUrl(made.room, made.token);
  } catch (error) {
    notice(error.message, "error");
    page.busy = false;
    draw();
  }
}

async function follow(room) {
  page.busy = true;
  draw();
  try {
    await becomeGuest();
    const took = await api(`/api/rooms/${encodeURIComponent(room)}/follow`, { token: page.token });
    rememberRoom({ ...took, room: took.room || room });
    remember(took.room || room, { rematchOf: page.room });
    leaveFreely();
    location.href = roomUrl(took.room || room, took.token);
  } catch (error) {
    notice(error.message, "error");
    page.busy = false;
    draw();
  }
}

/** Rematch, or following a rematch someone started, or going to the one already taken. */
function rematchAction(msg) {
  if (msg.rematch) {
    const next = roomInfo(msg.rematch);
    if (isSpectator(msg)) {
      return h("a.button.primary", { href: `/watch/${encodeURIComponent(msg.rematch)}`, text: t("Watch the rematch") });
    }
    if (next.token) return h("a.button.primary", { href: roomUrl(msg.rematch, next.token), text: t("Go to the rematch") });
    return h("button.primary.follow", {
      type: "button", disabled: page.busy, text: t("Follow into the rematch"),
      onclick: () => follow(msg.rematch),
    });
  }
  if (isSpectator(msg) || !page.token) return null;
  return h("button.primary.rematch", {
    type: "button", disabled: page.busy, text: t("Rematch"), onclick: startRematch,
  });
}

function endPanel(msg) {
  const rematch = msg.rematch && !roomInfo(msg.rematch).token && !isSpectator(msg)
    ? h("p.rematch-offer", { text: t("A rematch has started: follow to keep your seat.") }) : null;
  const token = page.token ? `#token=${encodeURIComponent(page.token)}` : "";
  const tournament = tournamentOf(page.room);
  return [
    // A rated game that changed no rating says why ("Not rated: …", "Game aborted" above).
    msg.unrated ? h("p.unrated", { text: msg.unrated }) : null,
    standings(msg),
    ratingChanges(msg),
    rematch,
    h("div.actions.end-actions", {},
      rematchAction(msg),
      // A tournament's game leads back to it (pairing goes on there); a seat held by the
      // session, not a token (a table the lobby made): no rematch to offer, the lobby
      // pairs again.
      tournament ? h("a.button.primary.to-tournament", { href: `/tournament/${encodeURIComponent(tournament)}`,
        text: t("Back to the tournament") })
        : !page.token && !isSpectator(msg)
          ? h("a.button.primary.to-lobby", { href: "/lobby", text: t("Back to the lobby") }) : null,
      challengeAgain(page.room, msg, isSpectator(msg)),
      h("a.button.new-game", { href: `/#game-${encodeURIComponent(msg.game)}`, text: t("New game") }),
      h("a.button.replay", { href: `/replay/${encodeURIComponent(page.room)}${token}`, text: t("Replay") })),
  ];
}

function drawStatus(msg) {
  const box = $("status");
  const over = msg.status === "over";
  const key = JSON.stringify([statusText(msg), over && [msg.rematch, page.busy, msg.view.outcome, msg.unrated,
    msg.seats.map((seat) => seat.rating)]]);
  box.className = `status ${msg.status}${isMyTurn(msg) ? " my-turn" : ""}${over ? " end-panel" : ""}`;
  // Redrawn only when it says something new: a live region reads every change aloud.
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  fill(box, h(over ? "span.result" : "span", { text: statusText(msg) }), over ? endPanel(msg) : null);
}

function drawInvites(msg) {
  const box = $("invites");
  const invites = (roomInfo(page.room).invites || [])
    .filter((invite) => msg.seats[invite.seat] && !msg.seats[invite.seat].joined);
  box.hidden = msg.status !== "waiting" || !invites.length;
  if (box.hidden) return;
  fill(box, h("h3", { text: t("Send these invite links") }), invites.map((invite) => {
    const url = new URL(invite.url, location.href).href;
    const input = h("input.link", { type: "text", value: url, readonly: true, "aria-label": t("invite link") });
    return h("div.link-row", {},
      h("span.link-label", { text: t("For {player}", { player: seatLabel(msg, invite.seat) }) }), input,
      h("button.copy", {
        type: "button", text: t("Copy"),
        onclick: async (event) => {
          if (await copyText(url, input)) event.target.textContent = t("Copied");
        },
      }));
  }));
}

// -- the bar under the status: quick messages, resigning and claiming, the signals -----------

/** Built once, with the first snapshot: its menus keep their state across redraws. */
function buildBar(msg) {
  // Phrases are for people: a player alone with bots has nobody to greet.
  const player = !isSpectator(msg) && othersHuman(msg);
  const { menu, mute } = chatControls((phrase) => send({ type: "say", phrase }), player,
    () => drawSeats(page.msg));
  fill($("chat"), menu);
  fill($("prefs"), isSpectator(msg) ? [] : signalControls(), mute);
  fill($("watch"), watchInvite(page.room));
}

async function resign() {
  // As the server has it: between people, before the second move the game is aborted;
  // else a game of one or two seats ends, and a bigger table goes on.
  const seats = page.msg.seats.length;
  const text = page.msg.version < 2 && othersHuman(page.msg)
    ? t("Before the second move this aborts the game: nobody wins, and no rating changes.")
    : seats === 1 ? t("The game ends here, lost.")
      : seats === 2 ? t("The game ends and the other player wins.")
        : t("A bot plays your seat to the end, and you finish last.");
  const yes = await confirmDialog({
    title: t("Resign this game?"),
    text,
    yes: t("Resign"), no: t("Play on"), danger: true,
  });
  if (yes && inPlay(page.msg)) send({ type: "resign" });
}

/** Resign where the server keeps clocks (its states say `clock`, null or not); claim the
 * game where the state says a player has left long enough (`claimable`). */
function drawGameActions(msg) {
  const box = $("game-actions");
  const actions = [];
  const claimable = Array.isArray(msg.claimable) ? msg.claimable : [];
  if (inPlay(msg) && claimable.length) {
    const who = listing(claimable.map((s) => seatLabel(msg, s)));
    actions.push(h("button.primary.claim", {
      type: "button", text: t("Claim the win"),
      title: who ? tn("{players} left the game", "{players} left the game", claimable.length, { players: who })
        : t("The other player left the game"),
      onclick: () => send({ type: "claim" }),
    }));
  }
  if (inPlay(msg) && "clock" in msg) {
    actions.push(h("button.resign", { type: "button", text: t("Resign"), onclick: resign }));
  }
  const key = actions.map((a) => a.className).join();
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    fill(box, actions);
  }
}

// -- the pause between rounds --------------------------------------------------------------

/** The pause after a round, kept with the state that ended the round: when a person moves
 * next it stays until they close it, even if others (bots grouping at once) move meanwhile;
 * when only bots wait it lasts until their countdown ends the round's pause. */
function pauseState(msg) {
  if (msg.status !== "playing") {
    page.pause = null;
    return null;
  }
  if (msg.round_ended && (!page.pause || page.pause.version !== msg.version)) {
    const wait = Number(msg.bots_wait);
    page.pause = {
      version: msg.version,
      until: msg.bots_wait === null || msg.bots_wait === undefined ? null : Date.now() + wait * 1000,
      dismissed: false,
      msg,
    };
  } else if (!msg.round_ended && page.pause && page.pause.until !== null) {
    page.pause = null;
  }
  return page.pause && !page.pause.dismissed ? page.pause : null;
}

function secondsLeft(pause) {
  return Math.max(0, Math.ceil((pause.until - Date.now()) / 1000));
}

/** Closes the pause; `go` also lets waiting bots start the next round at once. */
function nextRound(go = true) {
  // The server lets waiting bots go; with nobody waiting (or the wait over) it has nothing to do.
  if (go && page.pause && page.pause.until !== null && secondsLeft(page.pause) > 0) send({ type: "next" });
  if (page.pause) page.pause.dismissed = true;
  page.boardFocus = true;
  draw();
}

function drawPause(msg) {
  const box = $("pause");
  const pause = pauseState(msg);
  if (!pause) {
    clearInterval(page.ticker);
    if (!box.hidden) box.replaceChildren();
    box.hidden = true;
    return;
  }
  // The same pause drawn again (a screen's animation, others' moves meanwhile) keeps its
  // elements: the focus on its button and how far the player scrolled in it.
  const key = `${pause.version} ${isSpectator(msg)}`;
  if (!box.hidden && box.dataset.key === key) return;
  box.dataset.key = key;
  clearInterval(page.ticker);
  // A tap on the dimmed table around the window closes it, as Esc does.
  box.onclick = (event) => { if (event.target === box) nextRound(false); };
  const count = h("p.countdown", { "aria-live": "off" });
  const tick = () => {
    const left = secondsLeft(pause);
    count.textContent = left ? t("The next round starts in {seconds} s.", { seconds: number(left) })
      : t("The next round is starting…");
  };
  // A game's screen may draw the round just finished (the table already shows the next one):
  // an optional export roundSummary(msg) → element, shown under the round's sentence.
  const ended = pause.msg;
  const summary = page.screen.roundSummary ? page.screen.roundSummary(ended) : null;
  // A spectator cannot start the round for the players, only close the panel.
  let button = null;
  if (!isSpectator(msg)) {
    button = h("button.primary.next-round", {
      type: "button", text: pause.until === null ? t("Next round") : t("Next round now"),
      onclick: () => nextRound(),
    });
  } else if (pause.until === null) {
    button = h("button.next-round", { type: "button", text: t("Close"), onclick: () => nextRound(false) });
  }
  fill(box, h("div.pause-card", {
    role: "dialog", "aria-modal": "true", "aria-labelledby": "pause-title", tabindex: "-1",
    onkeydown: (event) => {
      if (event.key === "Escape") nextRound(false);
      else keepFocusIn(event.currentTarget, event);
    },
  },
    h("h2", { id: "pause-title", text: t("End of the round") }),
    ended.last ? h("p.pause-last", { text: ended.last }) : null,
    summary,
    pause.until === null ? null : count,
    h("div.actions", {}, button)));
  box.hidden = false;
  if (pause.until !== null) {
    tick();
    page.ticker = setInterval(tick, 250);
  }
  (button || box.firstChild).focus({ preventScroll: true });
}

// -- the tools and the move log ------------------------------------------------------------

function drawTools(msg) {
  const tools = [];
  // A screen that offers hints in its own words (asksHints) gets no second button.
  if (canHint(msg) && isMyTurn(msg) && !page.screen.asksHints) {
    tools.push(h("button.hint", { type: "button", text: t("Hint"), onclick: askHint }));
  }
  tools.push(thinkingNote());
  const hint = page.hint && page.hint.version === msg.version ? page.hint : null;
  if (hint && hint.note) tools.push(h("span.hint-note", { role: "status", text: hint.note }));
  fill($("tools"), tools);
}

/** Adds the lines not yet shown: new moves at the end (scrolled to), an earlier page at the
 * start (the view stays where it was); starts over when a reconnect replaced the log. The
 * list numbers its lines by move, whatever page it starts from. */
function drawLog() {
  const list = $("log");
  const line = (text) => h("li.log-line", { text });
  $("log-empty").hidden = page.log.length > 0;
  list.start = page.logFirst + 1;
  const earlier = page.shown.first - page.logFirst;
  if (list.children.length !== page.shown.count || earlier < 0
      || page.shown.count + earlier > page.log.length) {
    list.replaceChildren();
    page.shown = { first: page.logFirst, count: 0 };
  } else if (earlier > 0) {
    const height = list.scrollHeight;
    list.prepend(...page.log.slice(0, earlier).map(line));
    list.scrollTop += list.scrollHeight - height;
    page.shown = { first: page.logFirst, count: page.shown.count + earlier };
  }
  // Scrollable by keyboard too while there is more to read back.
  list.tabIndex = page.logFirst > 0 ? 0 : -1;
  const added = page.log.slice(page.shown.count).map(line);
  if (!added.length) return;
  list.append(...added);
  page.shown.count = page.log.length;
  list.scrollTop = list.scrollHeight;
}

/** Scrolled to the top of the log: ask for the page of moves before it. */
function readBack() {
  if (page.logFirst > 0 && !page.logAsked && $("log").scrollTop < 24) {
    page.logAsked = true;
    send({ type: "log", before: page.logFirst });
  }
}

// -- the board and the keyboard --------------------------------------------------------------

/** A selector for the control that has the focus, to find its new self after a redraw. */
function focusKey(el) {
  if (!el || el === $("board") || !$("board").contains(el)) return null;
  const data = Object.entries(el.dataset)
    .map(([key, value]) => `[data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(value)}"]`)
    .join("");
  const first = el.classList[0];
  return `${el.tagName.toLowerCase()}${first ? `.${CSS.escape(first)}` : ""}${data}`;
}

/** Keyboard play: a redraw replaces the table's elements, so the focus goes back to the same
 * control, or the first one that can act, or the table itself. */
function restoreFocus(key) {
  if (!page.boardFocus || !$("pause").hidden) return;
  const board = $("board");
  const active = document.activeElement;
  if (active && active !== document.body && active !== board) return;
  const target = (key && board.querySelector(key))
    || board.querySelector("button:not(:disabled), [tabindex='0']");
  (target || board).focus({ preventScroll: true });
}

/** The game's title and screen, fetched once: the snapshot names the game, the catalog its
 * screen module. */
async function prepare(msg) {
  const game = await gameInfo(msg.game, msg).catch(() => ({ id: msg.game, title: msg.title }));
  const title = msg.title || game.title || "";
  turnSignal(isMyTurn(page.msg), { title, othersHuman: othersHuman(page.msg) });
  $("title").textContent = title;
  buildBar(msg);
  $("rules-link").href = `/rules/${encodeURIComponent(msg.game)}`;
  try {
    page.screen = await loadScreen(game);
  } catch {
    notice(t("This game's screen did not load; showing the plain one."), "error");
    page.screen = await loadScreen({});
  }
  draw();
}

function draw() {
  const msg = page.msg;
  if (!msg || !page.screen) return;
  $("room").className = `room room-${msg.status}${isSpectator(msg) ? " watching" : ""}`;
  $("watch").hidden = msg.status === "expired";
  drawSeats(msg);
  drawStatus(msg);
  drawGameActions(msg);
  drawInvites(msg);
  const hint = page.hint && page.hint.version === msg.version ? page.hint.values : null;
  const key = focusKey(document.activeElement);
  page.screen.render($("board"), msg, {
    interactive: isMyTurn(msg),
    send: (move) => send({ type: "move", move: String(move) }),
    askHint: canHint(msg) ? askHint : null,
    hint,
    hintOutlook: hint ? page.hint.outlook : null,
    redraw: draw,
  });
  drawPause(msg);
  drawTools(msg);
  drawLog();
  restoreFocus(key);
  // Tests and scripts wait on this to know a new snapshot has been drawn.
  $("board").dataset.version = String(msg.version);
}

function onMessage(msg) {
  if (msg.type === "log" && msg.before !== undefined) {
    // An earlier page, asked for by scrolling back; one for a log since replaced is dropped.
    page.logAsked = false;
    if (msg.before !== page.logFirst) return;
    page.log = (msg.lines || []).map(String).concat(page.log);
    page.logFirst = msg.first;
    drawLog();
  } else if (msg.type === "log") {
    // The last moves so far, sent on connecting, before the first snapshot: they replace
    // what this page had, so a reload or a reconnect leaves the log whole; earlier ones
    // come a page at a time as the player scrolls back.
    page.log = (msg.lines || []).map(String);
    page.logFirst = msg.first || 0;
    page.logged = page.logFirst + page.log.length;
    page.logAsked = false;
    drawLog();
  } else if (msg.type === "state") {
    if (msg.version > page.logged) {
      if (msg.last) page.log.push(msg.last);
      notice("");
    }
    page.logged = Math.max(page.logged, msg.version);
    page.msg = msg;
    takeClocks(msg);
    turnSignal(isMyTurn(msg), { title: msg.title, othersHuman: othersHuman(msg) });
    keepSummary(msg);
    page.loading = page.loading || prepare(msg);
    draw();
  } else if (msg.type === "presence") {
    // A socket came or went: only who is connected changed, so only the seats are drawn.
    if (!page.msg) return;
    const connected = new Map(msg.seats.map((seat) => [seat.seat, seat.connected]));
    const seats = page.msg.seats.map((seat) => (
      connected.has(seat.seat) ? { ...seat, connected: connected.get(seat.seat) } : seat));
    page.msg = { ...page.msg, seats, watchers: msg.watchers };
    drawSeats(page.msg);
  } else if (msg.type === "said") {
    if (!page.msg) return;
    hear(msg, msg.seat === page.msg.seat, seatLabel(page.msg, msg.seat));
  } else if (msg.type === "hint") {
    answered();
    page.hint = {
      version: page.msg ? page.msg.version : -1, values: msg.values || {}, note: msg.note,
      outlook: msg.outlook || {},
    };
    draw();
  } else if (msg.type === "error") {
    page.logAsked = false; // a refused page may be asked for again
    hintOver(); // a refused hint comes no more
    notice(msg.message, "error");
  }
}

/** Esc puts back the card picked up on the table, on a screen that keeps one (its
 * `cancelSelection` says whether it did); in a window over the table, Esc is the window's. */
function cancelOnEscape(event) {
  if (event.key !== "Escape" || event.defaultPrevented || !page.screen?.cancelSelection) return;
  if (event.target.closest?.("dialog, [role=dialog]")) return;
  if (page.screen.cancelSelection()) draw();
}

/** Whether another person sits at the table (the turn's sound is for waiting on people). */
function othersHuman(msg) {
  return msg.seats.some((seat) => seat.kind === "human" && seat.seat !== msg.seat);
}

/** What the home page lists of this game, kept as it changes (only for a seat held here). */
function keepSummary(msg) {
  if (!page.token || isSpectator(msg)) return;
  const summary = summarize(msg);
  const text = JSON.stringify(summary);
  if (text === page.summary) return;
  page.summary = text;
  remember(page.room, summary);
}

function onLine(status) {
  const conn = $("conn");
  conn.className = `conn ${status}`;
  conn.textContent = { open: t("online"), retrying: t("reconnecting…"), closed: t("offline") }[status];
  if (status !== "open") hintOver(); // a hint asked on the lost line is not answered
}

/** An invite: ask the player's name, then take the seat. Resolves with the seat's token. */
async function askNameAndJoin(room, invite) {
  const form = $("join");
  const input = $("join-name");
  input.value = savedName();
  offerAccountName(input);
  try {
    // Who is at the table, from what a spectator may see.
    const seen = await api(`/api/rooms/${encodeURIComponent(room)}`);
    const others = seen.seats.filter((s) => s.joined).map((s) => s.name);
    $("room").classList.add("joining");
    $("title").textContent = seen.title;
    document.title = `${seen.title} — chükö`;
    $("join-title").textContent = t("Join this game of {game}", { game: seen.title });
    $("join-who").textContent = others.length ? t("At the table: {players}.", { players: listing(others) }) : "";
  } catch (error) {
    notice(error.message, "error");
    throw error;
  }
  form.hidden = false;
  input.focus();
  return new Promise((resolve) => {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      const button = form.querySelector("button");
      button.disabled = true;
      try {
        await becomeGuest(); // the seat is then this player's, not only this browser's
        const joined = await api(`/api/rooms/${encodeURIComponent(room)}/join`,
          name ? { invite, name } : { invite });
        if (name) saveName(name);
        remember(room, { token: joined.token, seat: joined.seat, invite });
        form.hidden = true;
        notice("");
        resolve(joined.token);
      } catch (error) {
        notice(error.message, "error");
        button.disabled = false;
      }
    });
  });
}

async function takeInvite(room, invite) {
  const known = roomInfo(room);
  if (known.invite === invite && known.token) return known.token;
  return askNameAndJoin(room, invite);
}

async function main() {
  const { kind, room, invite } = where();
  page.room = room;
  if (!room) {
    notice(t("This address names no room."), "error");
    return;
  }
  document.addEventListener("focusin", (event) => {
    page.boardFocus = $("board").contains(event.target);
  });
  $("log").addEventListener("scroll", readBack);
  document.addEventListener("keydown", cancelOnEscape);
  startSignals();
  guardLeaving(() => inPlay(page.msg));
  try {
    if (kind === "join") {
      page.token = await takeInvite(room, invite);
      history.replaceState(null, "", roomUrl(room, page.token));
    } else if (kind === "room") {
      page.token = fragmentToken() || roomInfo(room).token || null;
      if (fragmentToken()) remember(room, { token: page.token });
    }
  } catch (error) {
    notice(error.message, "error");
    return;
  }
  page.socket = new RoomSocket(room, page.token, { onMessage, onStatus: onLine });
}

main();
