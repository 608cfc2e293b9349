// The club's service worker: it keeps the static files, the home page and every game's
// rules, so the club opens at once and the rules read without a connection. Nothing is
// decided here: moves, rooms and the club need the server. The server fills in VERSION
// (a hash of the files, so a new release replaces the old cache) and OFFLINE (what to keep).

const VERSION = "__VERSION__";
const OFFLINE = __OFFLINE__;
const CACHE = `chuko-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(OFFLINE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((key) => key.startsWith("chuko-") && key !== CACHE).map((key) => caches.delete(key)),
  )).then(() => self.clients.claim()));
});

// Pages and the rules' API from the network first (they follow the visitor's language and
// the latest release), kept for later; static files from the cache, refreshed behind. A page
// that is not kept falls back to the home page, which says that it is offline.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const kept = OFFLINE.includes(url.pathname);
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(cacheFirst(request));
  } else if (kept) {
    event.respondWith(networkFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match("/").then((home) => home && marked(home))));
  }
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: true });
    if (kept) return marked(kept);
    throw error;
  }
}

// A kept answer given for want of a network says so (the page's scripts then say that
// the club is offline).
function marked(response) {
  const headers = new Headers(response.headers);
  headers.set("X-Chuko-Kept", "offline");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreSearch: true });
  const fresh = fetch(request).then((response) => {
    if (response.ok) cache.put(request, response.clone());
    return response;
  });
  if (kept) {
    fresh.catch(() => null);
    return kept;
  }
  return fresh;
}
