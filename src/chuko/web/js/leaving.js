// Leaving a game you play while it goes on asks first: a link or the logo opens the page's
// own question ("Leave this game?"), and closing or reloading the tab the browser's. The
// game goes on without you (your clock too, where it has one) and waits on the home page
// under "your games".

import { confirmDialog } from "./confirm.js";
import { t } from "./i18n.js";

let playing = () => false;
let leaving = false;  // the player said yes: the page's unload asks nothing more

function away(link) {
  if (!link || !link.href || link.target === "_blank" || link.hasAttribute("download")) return false;
  const to = new URL(link.href, location.href);
  return to.origin !== location.origin || to.pathname !== location.pathname;
}

async function onClick(event) {
  const link = event.target.closest && event.target.closest("a[href]");
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey
      || event.shiftKey || !away(link) || !playing()) return;
  event.preventDefault();
  const go = await confirmDialog({
    title: t("Leave this game?"),
    text: t("The game goes on without you, and your clock keeps running if it has one. "
      + "You can come back to it from the home page, under \"Your games\"."),
    yes: t("Leave"), no: t("Stay"),
  });
  if (go) {
    leaving = true;
    location.href = link.href;
  }
}

/** Ask before leaving while `isPlaying()` holds (a game this page's player is in goes on). */
export function guardLeaving(isPlaying) {
  playing = isPlaying;
  document.addEventListener("click", onClick);
  window.addEventListener("beforeunload", (event) => {
    if (leaving || !playing()) return;
    event.preventDefault();
    event.returnValue = "";  // older browsers ask only when this is set
  });
}

/** The page itself goes elsewhere (a rematch, a follow): no question. */
export function leaveFreely() {
  leaving = true;
}
