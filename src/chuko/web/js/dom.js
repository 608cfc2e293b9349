// Small DOM and HTTP helpers shared by every page.

import { t } from "./i18n.js";
import { sliding } from "./motion.js";

/** Build an element: h("div.card.raised", {onclick, title}, child, "text", …). */
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    // Through the CSSOM, which the Content-Security-Policy allows; a style attribute it blocks.
    else if (key === "style") el.style.cssText = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A translated sentence whose {placeholders} are elements, as children for h() or fill():
 * withNodes(t("You play as {name}."), { name: h("strong", …) }), in the language's order. */
export function withNodes(sentence, nodes) {
  return sentence.split(/\{(\w+)\}/)
    .map((part, i) => (i % 2 ? nodes[part] ?? `{${part}}` : part))
    .filter((part) => part !== "");
}

/** Replace everything inside `el` with `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const child of children.flat(Infinity)) if (child) el.append(child);
  return el;
}

// Told to the page whenever a request to the server fails for want of a network (or is
// answered by the service worker's keep instead), or gets through again.
export const UNREACHABLE = "chuko.unreachable";
export const REACHABLE = "chuko.reachable";

/** JSON over HTTP; throws an Error carrying the server's one-sentence message. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    window.dispatchEvent(new Event(UNREACHABLE));  // offline.js says so in one line
    throw new Error(t("The server cannot be reached: check that it is running."));
  }
  // The service worker marks what it answers from its keep while the network is gone.
  window.dispatchEvent(new Event(response.headers.get("X-Chuko-Kept") ? UNREACHABLE : REACHABLE));
  let data = null;
  try { data = await response.json(); } catch { /* not JSON: handled below */ }
  if (!response.ok) {
    throw new Error((data && (data.error || data.detail))
      || t("The server answered {status}.", { status: response.status }));
  }
  return data;
}

/** Show a message in the page's #notice bar; kind is "error", "info" or "good". */
export function notice(text, kind = "info") {
  const bar = document.getElementById("notice");
  if (!bar) return;
  bar.textContent = text || "";
  bar.className = text ? `notice ${kind}` : "notice";
  bar.setAttribute("role", kind === "error" ? "alert" : "status");
}

/** Copy text to the clipboard, falling back to selecting it when the API is refused. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) { input.focus(); input.select(); }
    return false;
  }
}

let catalog = null;

/** Every registered game as GET /api/games describes it, fetched once per page. */
export function games() {
  catalog = catalog || api("/api/games").catch((error) => { catalog = null; throw error; });
  return catalog;
}

/** One game's description, or a stand-in built from what a snapshot says of it. */
export async function gameInfo(id, fallback = {}) {
  const found = (await games()).find((game) => game.id === id);
  return found || { id, title: fallback.title || id, screen: null };
}

/** The game's screen module, or the generic one for a game that ships none; its cards slide
 * to where each new state puts them (motion.js). */
export async function loadScreen(game) {
  const screen = await import(`/static/js/${game.screen || "generic.js"}`);
  return { ...screen, render: sliding(screen.render) };
}
