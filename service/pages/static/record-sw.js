// The recording page's service worker: it keeps the recording pages and their static files, so a reload
// without a connection still opens the page (the events waiting are in localStorage). Network first:
// with a connection the page is always the server's latest; every other request goes straight through.
// What it keeps is the session's own (the page shows every hand): kept under the session's tag (the
// tablelog_tag cookie), served only while that tag is the browser's, and dropped once it is not.
"use strict";
const SHELL = "tablelog-record-";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

async function sessionTag() {
  if (!self.cookieStore) return ""; // no way to tell whose a copy is: keep none
  const cookie = await self.cookieStore.get("tablelog_tag");
  return (cookie && cookie.value) || "";
}

async function dropAllBut(name) {
  for (const other of await caches.keys()) if (other.startsWith(SHELL) && other !== name) await caches.delete(other);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const kept = request.method === "GET" && url.origin === self.location.origin && (/\/games\/[^/]+\/record$/.test(url.pathname) || url.pathname.startsWith("/static/"));
  if (!kept) return;
  event.respondWith(
    (async () => {
      const tag = await sessionTag();
      const name = tag ? SHELL + tag : "";
      await dropAllBut(name);
      try {
        const response = await fetch(request);
        if (name && response.ok) await (await caches.open(name)).put(url.pathname, response.clone());
        return response;
      } catch (error) {
        const hit = name ? await (await caches.open(name)).match(url.pathname) : undefined;
        return hit || Response.error();
      }
    })()
  );
});
