// marktime's service worker: the page installs on a phone's home screen, and shows the
// last pages it saw, marked as offline, when the Pi cannot be reached. Network first:
// whatever the Pi answers is shown and kept; the kept copy only when it does not answer.
// Logging out (app.js), or any visit to the login page (a session ended elsewhere), empties
// the kept pages. A page shown offline carries the Pi's own Content-Security-Policy.
"use strict";
const CACHE = "marktime-v2";
const SHELL = ["/assets/app.css", "/assets/plot.css", "/assets/app.js", "/assets/theme.js", "/assets/icon.svg", "/manifest.webmanifest"];
const HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};
// Every kept page goes; the shell stays.
const dropPages = async () => {
  const cache = await caches.open(CACHE);
  for (const kept of await cache.keys()) if (!SHELL.includes(new URL(kept.url).pathname)) await cache.delete(kept);
};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin || url.pathname === "/live") return;
  const page = request.mode === "navigate";
  event.respondWith(fetch(request).then(async (response) => {
    // The login page is shown only without a session: what the account's pages left goes.
    if (page && response.ok && url.pathname === "/login") {
      await dropPages();
      return response;
    }
    // A page the account may see (not a redirect to the login), or a file of the shell.
    const html = (response.headers.get("content-type") || "").startsWith("text/html");
    if (response.ok && !response.redirected && ((page && html) || SHELL.includes(url.pathname))) {
      const headers = new Headers(response.headers);
      headers.set("X-Marktime-Saved", new Date().toLocaleString());
      const kept = new Response(await response.clone().blob(), { status: response.status, headers });
      (await caches.open(CACHE)).put(request, kept);
    }
    return response;
  }).catch(async () => {
    const kept = await caches.match(request, { ignoreVary: true });
    if (!kept) {
      return new Response("<!doctype html><meta name=viewport content='width=device-width'><p>Offline: the Pi cannot be reached, and this page was not opened here before.</p>",
        { status: 503, headers: HEADERS });
    }
    if (!(kept.headers.get("content-type") || "").startsWith("text/html")) return kept;
    const saved = (kept.headers.get("X-Marktime-Saved") || "an earlier time").replace(/[<>&"]/g, "");
    const html = (await kept.text()).replace("<main", '<main data-offline="' + saved + '"');
    return new Response(html, { status: 200, headers: HEADERS });
  }));
});
