// masscombat's service worker, served at /sw.js by masscombat/core/pwa.py (which writes CONFIG).
// - Pages (links followed and forms posted): always from the network; when it fails, the offline page in the visitor's
//   language. A page is never answered from a cache: a battle room shown stale would look current.
// - Static files whose name carries their hash (production): from the cache first, they never change.
//   Other static files (development): from the network, the cache only when it fails.
// - Everything else (htmx parts, the API, other origins): not touched.
// - Push (masscombat/notifications/push.py): the message's title and body as a notification; a tap opens its
//   page, in a window of the app already open when there is one.
// The shell is cached at install under a name with this deploy's version; older caches go at activation.
"use strict";
const CONFIG = {{ config|safe }};
const CACHE = "masscombat-shell-" + CONFIG.version;
const HASHED = /\.[0-9a-f]{12}\.[A-Za-z0-9]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(CONFIG.shell.concat(Object.values(CONFIG.offline))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith("masscombat-") && name !== CACHE)
      .map((name) => caches.delete(name)));
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {  // a form posted as a page too: its failure shows the offline page
    event.respondWith(page(event));
  } else if (request.method === "GET" && url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(HASHED.test(url.pathname) ? cacheFirst(request) : networkFirst(request));
  }
});

async function page(event) {
  try {
    const preloaded = await event.preloadResponse;
    return preloaded || await fetch(event.request);
  } catch (error) {
    const cache = await caches.open(CACHE);
    return (await cache.match(CONFIG.offline[await language()])) || Response.error();
  }
}

// The language the site would answer in: its cookie (set by the language buttons) where the worker
// can read cookies, else the browser's languages, else the site's default.
async function language() {
  try {
    if (self.cookieStore) {
      const cookie = await self.cookieStore.get(CONFIG.languageCookie);
      if (cookie && CONFIG.offline[cookie.value]) return cookie.value;
    }
  } catch (error) { /* no cookie store here */ }
  for (const tag of self.navigator.languages || [self.navigator.language]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (CONFIG.offline[code]) return code;
  }
  return CONFIG.defaultLanguage;
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { /* not ours: shown without a body */ }
  event.waitUntil(self.registration.showNotification(message.title || "masscombat", {
    body: message.body || "", tag: message.tag, data: { url: message.url || "/" }, icon: CONFIG.shell.find((url) => url.includes("icon-192")),
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // Its path on this site, whatever address the link was written with: a notification opens only our own pages.
  const link = new URL(event.notification.data.url, self.location.origin);
  const target = new URL(link.pathname + link.hash, self.location.origin);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => "navigate" in client);
    if (open) return (await open.navigate(target.href) || open).focus();
    return self.clients.openWindow(target.href);
  })());
});
