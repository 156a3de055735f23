// The service worker of Tarot Scores, served at /sw.js (tarot_scores/core/pwa.py puts the line
// `self.TAROT_SW = {...}` above this code: the version, the app shell's URLs, the offline page).
//
// What it keeps, so that a club venue's poor signal does not stop a game:
// - the app shell (CSS, scripts, icons, manifest, offline page), at install;
// - any other static file, the first time a page asks for it;
// - the entry screen of each game opened on this phone (the page asks for it: "keep-entry"),
//   refreshed at every visit and after every save or change the page shows ("fresh": so that
//   a reload offline shows the deal just saved), the last few only.
// Pages are asked for from the network first; a kept entry screen answers when the network is
// down or slow, the offline page for any other page. Posts are never touched: a deal posted
// while offline fails in the page, whose script (offline.js) queues it.
"use strict";

var CONFIG = self.TAROT_SW || { version: "dev", shell: [], offline: "/offline/", static: "/static/" };
var SHELL = "tarot-shell-" + CONFIG.version;
var STATIC = "tarot-static-" + CONFIG.version;
var ENTRIES = "tarot-entries-" + CONFIG.version;
var KEEP_ENTRIES = 5;
var SLOW_NETWORK_MS = 6000;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL).then(function (cache) {
      return cache.addAll(CONFIG.shell);
    }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  var mine = [SHELL, STATIC, ENTRIES];
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("tarot-") === 0 && mine.indexOf(name) < 0;
      }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () {
      return self.clients.claim();
    })
  );
});

// One keeping at a time, in the order asked: a refresh asked after the second save is never
// overwritten by the one asked after the first.
var keeping = Promise.resolve();

function keepEntry(url, fresh) {
  keeping = keeping.then(function () { return keepOne(url, fresh); });
  return keeping;
}

function keepOne(url, fresh) {
  // A page just shown from the network: fetch it once more to keep it (its own answer was
  // already used by the browser), then forget the oldest beyond KEEP_ENTRIES. ``fresh``: the
  // page changed since (a deal saved): fetch it again even if it is kept.
  return caches.open(ENTRIES).then(function (cache) {
    return cache.match(url, { ignoreVary: true }).then(function (hit) {
      if (hit && !fresh) {
        return null; // kept already, and refreshed by each visit
      }
      return fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok || response.redirected) {
          return null;
        }
        return cache.put(url, response).then(function () {
          return cache.keys();
        }).then(function (keys) {
          return Promise.all(keys.slice(0, Math.max(0, keys.length - KEEP_ENTRIES)).map(function (key) {
            return cache.delete(key);
          }));
        });
      });
    });
  }).catch(function () { return null; });
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "keep-entry" && typeof data.url === "string") {
    var url = new URL(data.url, self.location.origin);
    if (url.origin === self.location.origin) {
      event.waitUntil(keepEntry(url.pathname + url.search, data.fresh === true));
    }
  } else if (data.type === "forget-pages") {
    // Signing out: no page of the account stays on the phone.
    event.waitUntil(caches.delete(ENTRIES));
  }
});

function fromStatic(request) {
  return caches.match(request, { ignoreVary: true }).then(function (hit) {
    if (hit) {
      return hit;
    }
    return fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(STATIC).then(function (cache) { return cache.put(request, copy); });
      }
      return response;
    });
  });
}

function page(request) {
  var url = new URL(request.url);
  var key = url.pathname + url.search;
  return caches.open(ENTRIES).then(function (cache) {
    return cache.match(key, { ignoreVary: true }).then(function (kept) {
      var network = fetch(request).then(function (response) {
        if (kept && response.ok && !response.redirected) {
          cache.put(key, response.clone());
        }
        return response;
      });
      if (!kept) {
        return network.catch(function () {
          return caches.match(CONFIG.offline, { ignoreVary: true }).then(function (offline) {
            return offline || Response.error();
          });
        });
      }
      // A kept entry screen: the network's answer if it comes in time, else the kept one.
      var slow = new Promise(function (resolve) {
        setTimeout(function () { resolve(kept); }, SLOW_NETWORK_MS);
      });
      return Promise.race([network.catch(function () { return kept; }), slow]);
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") {
    return;
  }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (url.pathname.indexOf(CONFIG.static) === 0) {
    event.respondWith(fromStatic(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (CONFIG.shell.indexOf(url.pathname) >= 0) {
    // The manifest and the offline page: the network's, else the kept copy.
    event.respondWith(fetch(request).catch(function () {
      return caches.match(url.pathname, { ignoreVary: true }).then(function (hit) {
        return hit || Response.error();
      });
    }));
  }
});
