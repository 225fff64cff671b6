// The installed app's service worker: the page and its files are kept, so the app opens with
// no network; the board and the session's state are kept as last seen, so an offline app shows
// the last board and when it was seen. Everything goes to flapd first and falls back to what
// is kept only when flapd cannot be reached, so an online page is never stale.
const SHELL = "vestawidget-shell-14";
const SEEN = "vestawidget-seen-1";
const FILES = ["/", "/widget", "/web/style.css", "/web/widget.css", "/web/app.js", "/web/api.js", "/web/endpoints.js", "/web/board.js",
  "/web/compose.js", "/web/paint.js", "/web/lists.js", "/web/status.js", "/web/numbering.js", "/web/room.js", "/web/widget.js",
  "/web/offline.js", "/web/outbox.js", "/web/members.js", "/web/hardware.js", "/web/settings.js", "/web/firststeps.js", "/web/presence.js", "/web/share.js", "/web/glyphs.json", "/favicon.ico", "/manifest.webmanifest", "/web/icon-192.png"];
// KEPT, the paths of the answers kept as last seen with the time they were seen, is written
// before this file by flapd from its endpoint table.

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== SHELL && n !== SEEN).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (KEPT.includes(url.pathname)) event.respondWith(lastSeen(event.request));
  else if (FILES.includes(url.pathname) || url.pathname.startsWith("/web/")) event.respondWith(file(event.request, url));
  // Shared from another app with no network: the kept page, which fills its composer from the address.
  else if (url.pathname === "/share") event.respondWith(file(event.request, new URL("/", url)));
});

// The page's files: flapd's when it answers (kept for next time), else the kept copy.
async function file(request, url) {
  const cache = await caches.open(SHELL);
  try {
    const answer = await fetch(request);
    if (answer.ok) cache.put(url.pathname, answer.clone());
    return answer;
  } catch (error) {
    const kept = await cache.match(url.pathname);
    if (kept) return kept;
    throw error;
  }
}

// An answer of the API kept as last seen: offline, the kept one, marked with when it was seen.
async function lastSeen(request) {
  const cache = await caches.open(SEEN);
  try {
    const answer = await fetch(request);
    if (answer.ok) {
      const body = await answer.clone().arrayBuffer();
      const headers = new Headers(answer.headers);
      headers.set("X-Seen-At", new Date().toISOString());
      cache.put(request.url, new Response(body, { status: answer.status, headers }));
    }
    return answer;
  } catch (error) {
    const kept = await cache.match(request.url);
    if (!kept) throw error;
    const headers = new Headers(kept.headers);
    headers.set("X-Offline", "1");
    return new Response(await kept.arrayBuffer(), { status: kept.status, headers });
  }
}
