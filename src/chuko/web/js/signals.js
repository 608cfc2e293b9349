// "Your turn": when the turn comes to this seat the tab's title says so, a short sound
// plays (made with WebAudio, no file) and, while the tab is hidden and the player allowed
// it, the browser shows a notification. Each happens once as the turn arrives, not at every
// message. The sound and the notifications are the player's to switch off, remembered in
// this browser.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { readPref, writePref } from "./store.js";

const SOUND = "chuko.sound";    // true unless switched off
const NOTIFY = "chuko.notify";  // true once the player asked for notifications

const turn = {
  mine: null,       // whether it was this seat's turn at the last state (null: none seen yet)
  title: "",        // the game's title, for the tab
  audio: null,      // the AudioContext, made at the player's first gesture
  notification: null,
};

export function soundOn() {
  return readPref(SOUND, true) !== false;
}

function notifyAllowed() {
  return "Notification" in window && Notification.permission === "granted" && readPref(NOTIFY, false) === true;
}

/** The tab's title: "● Your turn — Chükö" while it is your turn, else "Chükö — chükö". */
function setTitle(mine) {
  if (!turn.title) return;
  document.title = mine ? t("● Your turn — {game}", { game: turn.title }) : `${turn.title} — chükö`;
}

/** Browsers let a page make sound only after a gesture: the context is made (or woken) on
 * the player's first click or key, so the signal can play later by itself. */
function wakeAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    turn.audio = turn.audio || new Context();
    if (turn.audio.state === "suspended") turn.audio.resume().catch(() => {});
  } catch { /* no audio here: the title still says it */ }
}

/** Two soft rising notes, a fifth of a second in all. */
export function chime() {
  const audio = turn.audio;
  if (!audio || audio.state !== "running") return false;
  const start = audio.currentTime + 0.01;
  [[660, 0], [880, 0.1]].forEach(([frequency, delay]) => {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + delay);
    gain.gain.exponentialRampToValueAtTime(0.18, start + delay + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + delay + 0.16);
    tone.connect(gain).connect(audio.destination);
    tone.start(start + delay);
    tone.stop(start + delay + 0.18);
  });
  return true;
}

function notify(text) {
  if (!notifyAllowed() || !document.hidden) return;
  try {
    turn.notification = new Notification(turn.title || "chükö", { body: text, tag: "chuko-turn" });
    turn.notification.onclick = () => { window.focus(); turn.notification.close(); };
  } catch { /* some browsers allow notifications only from a service worker */ }
}

/** A state message arrived: `mine` says whether this seat must move now, `othersHuman`
 * whether another person sits at the table (against bots alone the sound would ring after
 * every bot move, so it rings then only while the tab is hidden). Returns "turn" when the
 * turn just came to this seat. */
export function turnSignal(mine, { title, othersHuman }) {
  turn.title = title || turn.title;
  const arrived = mine && turn.mine === false;
  turn.mine = mine;
  setTitle(mine);
  if (!arrived) return null;
  document.body.dataset.turnSignals = String(Number(document.body.dataset.turnSignals || 0) + 1);
  if (soundOn() && (othersHuman || document.hidden)) chime();
  notify(t("Your turn."));
  return "turn";
}

/** A switch: a button whose pressed state is the setting; `change(wanted)` may answer the
 * state it could set (a permission refused). */
function toggle(label, on, change) {
  const button = h("button.pref", { type: "button", "aria-pressed": String(on), text: label });
  button.addEventListener("click", async () => {
    const wanted = button.getAttribute("aria-pressed") !== "true";
    const now = (await change(wanted)) ?? wanted;
    button.setAttribute("aria-pressed", String(now));
  });
  return button;
}

/** The table's switches for the turn signals: sound on/off, and notifications (asking the
 * browser's permission the first time). */
export function signalControls() {
  const controls = [toggle(t("Sound"), soundOn(), (on) => {
    writePref(SOUND, on);
    if (on) { wakeAudio(); chime(); }
  })];
  if ("Notification" in window && Notification.permission !== "denied") {
    controls.push(toggle(t("Notify me"), notifyAllowed(), async (on) => {
      if (on && Notification.permission !== "granted") {
        const answer = await Notification.requestPermission().catch(() => "denied");
        if (answer !== "granted") {
          writePref(NOTIFY, false);
          return false;
        }
      }
      writePref(NOTIFY, on);
      return on;
    }));
  }
  return controls;
}

/** Listen for the player's first gestures, which let the page play sound. */
export function startSignals() {
  for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, wakeAudio, { capture: true });
  // Back on the tab: the notification has done its job.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && turn.notification) turn.notification.close();
  });
}
