// A hint on its way: "thinking…" once it has been awaited THINKING_MS, so a slow one (a
// server's solvers still loading, a long search) says something is happening while a quick
// one never flickers. Asked with `asked`, ended by the hint, an error or a lost line
// (`answered`); the room draws `thinkingNote()` with its tools.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export const THINKING_MS = 300;

const waiting = { timer: null, slow: false };

/** A hint was asked for: after THINKING_MS without an answer, `redraw` shows the note. */
export function asked(redraw) {
  clearTimeout(waiting.timer);
  waiting.slow = false;
  waiting.timer = setTimeout(() => {
    waiting.timer = null;
    waiting.slow = true;
    redraw();
  }, THINKING_MS);
}

/** The hint came, or will not: no note any more (the caller redraws). */
export function answered() {
  clearTimeout(waiting.timer);
  waiting.timer = null;
  waiting.slow = false;
}

/** "thinking…" while a hint is slow to come, else null. */
export function thinkingNote() {
  return waiting.slow ? h("span.hint-note.thinking", { role: "status", text: t("thinking…") }) : null;
}
