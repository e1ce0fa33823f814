/**
 * The service worker served at /sw.js (SPEC §7.9): it keeps the versioned app shell, so Sift opens
 * with the server down (issue 14 §3). Built by vite-plugin-pwa (vite.config.ts), which injects the
 * build's file list into `self.__WB_MANIFEST`.
 * - Precached with their revisions: index.html, the page's and the engine worker's scripts, the CSS
 *   and the images. A new build's worker installs at once (skipWaiting), takes the open pages
 *   (clientsClaim) and drops the files the new list no longer has, so the next load runs it.
 * - A navigation to an app route (/inbox, /conversations, /ask-ai, /profile/…, /auth) asks the network
 *   first and gets the cached index.html only when the network fails; a navigation to a server route
 *   (/api…, /auth/…) is left to the network.
 * - Nothing else is answered or cached here: no /api or /auth answer, no member data. Requests that
 *   match no route go to the network untouched.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

/** The shell's document, as the precache names it. */
const SHELL = 'index.html';

/** Navigations the server answers itself (the API, sign-in and its callbacks): never the shell. */
const SERVER_ROUTES = [/^\/api(\/|$)/, /^\/auth\//];

/** How long a navigation waits for the network before the cached shell opens instead. */
const NETWORK_TIMEOUT_SECONDS = 10;

void self.skipWaiting();
clientsClaim();

// Registered before the precache's route, so a navigation to / is network-first like every other.
registerRoute(
  new NavigationRoute(
    new NetworkOnly({
      networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
      plugins: [{ handlerDidError: async () => (await matchPrecache(SHELL)) ?? Response.error() }],
    }),
    { denylist: SERVER_ROUTES },
  ),
);
precacheAndRoute(self.__WB_MANIFEST);
// Caches left by an older Workbox precache format (the precache itself drops old revisions on activate).
cleanupOutdatedCaches();
