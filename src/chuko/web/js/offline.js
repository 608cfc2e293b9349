// Offline: the service worker (/sw.js) keeps the home page and the rules; while the server
// cannot be reached every page says so in one line, and the rest waits for the network.

import { REACHABLE, UNREACHABLE } from "./dom.js";
import { t } from "./i18n.js";

const LINE_ID = "offline-line";

function say(offline) {
  let line = document.getElementById(LINE_ID);
  if (!offline) {
    if (line) line.remove();
    return;
  }
  if (line) return;
  line = document.createElement("p");
  line.id = LINE_ID;
  line.className = "notice info offline-line";
  line.setAttribute("role", "status");
  line.textContent = t("You are offline: the rules are here, and the rest needs a connection.");
  (document.querySelector("main") || document.body).prepend(line);
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {
    // Without the worker the club still works online; only the offline rules are lost.
  });
}
window.addEventListener(UNREACHABLE, () => say(true));
window.addEventListener(REACHABLE, () => say(false));
window.addEventListener("offline", () => say(true));
window.addEventListener("online", () => say(false));
say(!navigator.onLine);
