// The recording page's service worker: it keeps the recording pages and their static files, so a reload
// without a connection still opens the page (the events waiting are in localStorage). Network first:
// with a connection the page is always the server's latest; every other request goes straight through.
"use strict";
const SHELL = "tablelog-record-shell-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const kept = request.method === "GET" && url.origin === self.location.origin && (/\/games\/[^/]+\/record$/.test(url.pathname) || url.pathname.startsWith("/static/"));
  if (!kept) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(SHELL).then((cache) => cache.put(url.pathname, copy));
        }
        return response;
      })
      .catch(() => caches.open(SHELL).then((cache) => cache.match(url.pathname)).then((hit) => hit || Response.error()))
  );
});
