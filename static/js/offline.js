// Offline deal entry, for club venues with poor signal. Loaded by every page (base.html).
//
// - Registers the service worker (/sw.js), which keeps the app shell and the entry screens.
// - On an entry screen (a form with data-offline-game): a deal saved while the network is down
//   (or while earlier deals still wait) is kept on the phone, in IndexedDB, with the phone's
//   name for it (client_id), what was entered and the preview's scores if they were up to date.
//   The list #offline-queue shows each as "waiting for the network"; the form moves on to the
//   next deal. When the network is back (the "online" event, and a retry every 15 s), the deals
//   are sent in order, each as the page would post it. The server stores one deal per
//   client_id, so a deal sent twice (an answer lost on the way) is stored once.
// - A banner (#offline-banner, in base.html) says so while the network is gone.
// - The totals at the top of an entry screen get a provisional line: the stored totals plus the
//   deals kept on the phone whose scores the preview had counted (#totals-provisional).
// - After every change the page shows (a deal saved or undone, a deal sent from the list, the
//   table's other phones' changes brought by its poll), the service worker keeps the entry
//   screen again, so that a reload offline shows the deals stored, never fewer.
// - A deal the site does not take (someone else entered that number, the game is finished, a
//   refusal) stops its game's queue and says what to do: enter it as the next deal, try again,
//   or discard it.
(function () {
  "use strict";

  var script = document.currentScript;
  if ("serviceWorker" in navigator && script && script.dataset.serviceWorker) {
    navigator.serviceWorker.register(script.dataset.serviceWorker, { scope: "/" }).catch(function () {});
  }

  var DB_NAME = "tarot-offline";
  var STORE = "deals";
  var RETRY_MS = 15000;
  var FORM = "form[data-offline-game]";

  // --- the phone's name for a deal ---------------------------------------------------------

  function newClientId() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    // Pages served over plain http outside localhost have no randomUUID: build a version 4.
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  // --- IndexedDB ---------------------------------------------------------------------------

  var dbPromise = null;

  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        if (!window.indexedDB) {
          reject(new Error("no IndexedDB"));
          return;
        }
        var open = window.indexedDB.open(DB_NAME, 1);
        open.onupgradeneeded = function () {
          open.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
        };
        open.onsuccess = function () { resolve(open.result); };
        open.onerror = function () { reject(open.error); };
      });
    }
    return dbPromise;
  }

  function store(mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        var tx = database.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function allDeals() {
    return store("readonly", function (s) { return s.getAll(); }).then(function (rows) {
      return (rows || []).sort(function (a, b) { return a.seq - b.seq; });
    });
  }
  function putDeal(deal) { return store("readwrite", function (s) { return s.put(deal); }); }
  function dropDeal(seq) { return store("readwrite", function (s) { return s.delete(seq); }); }

  // --- the page ----------------------------------------------------------------------------

  var queued = {}; // game id -> how many deals wait (read synchronously when a form is posted)
  var previewKey = null; // the form as the preview on screen scored it

  function entryForm() { return document.querySelector(FORM); }
  function panel() { return document.getElementById("offline-queue"); }

  function text(name, values) {
    var holder = panel();
    var node = holder && holder.querySelector('template[data-text="' + name + '"]');
    var words = node ? node.content.textContent.trim() : name;
    Object.keys(values || {}).forEach(function (key) {
      words = words.split("{" + key + "}").join(String(values[key]));
    });
    return words;
  }

  function csrfToken(form) {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : (form && form.csrfmiddlewaretoken ? form.csrfmiddlewaretoken.value : "");
  }

  function formKey(form) {
    var parts = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "client_id" && name !== "csrfmiddlewaretoken") {
        parts.push(name + "=" + value);
      }
    });
    return parts.join("&");
  }

  // What was entered, in the page's own words: "Preneur : Chloé · Contrat : Garde · ...".
  function describe(form) {
    var out = [];
    var colon = (document.documentElement.lang || "").indexOf("fr") === 0 ? " : " : ": ";
    Array.prototype.forEach.call(form.querySelectorAll("input"), function (input) {
      var type = input.type;
      if (type === "hidden" || input.disabled) {
        return;
      }
      var label = form.querySelector('label[for="' + input.id + '"]');
      var shown = label ? label.textContent.trim() : "";
      if (type === "radio" || type === "checkbox") {
        if (!input.checked || input.value === "") {
          return;
        }
        var line = input.closest(".chip-line");
        var fieldset = input.closest("fieldset");
        var question = line ? line.querySelector(".chip-line-label") : (fieldset ? fieldset.querySelector("legend") : null);
        out.push(question && type === "radio" ? question.textContent.trim() + colon + shown : shown);
      } else if (input.value.trim() !== "") {
        out.push(shown + colon + input.value.trim());
      }
    });
    return out.join(" · ");
  }

  // Each player's score as the preview shows it, if it scored exactly what is in the form.
  function previewScores(form) {
    if (previewKey === null || previewKey !== formKey(form)) {
      return null;
    }
    var preview = document.getElementById("deal-preview");
    if (!preview) {
      return null;
    }
    var names = preview.querySelectorAll("thead th");
    var cells = preview.querySelectorAll("[data-testid^=preview-score-]");
    if (!cells.length || names.length !== cells.length) {
      return null;
    }
    return Array.prototype.map.call(cells, function (cell, i) {
      return names[i].textContent.trim() + " " + cell.textContent.trim();
    }).join(" · ");
  }

  // The same scores as numbers, in seat order (for the provisional totals), or null.
  function previewPoints(form) {
    if (previewScores(form) === null) {
      return null;
    }
    var cells = document.querySelectorAll("#deal-preview [data-testid^=preview-score-]");
    var points = Array.prototype.map.call(cells, function (cell) {
      return parseInt(cell.textContent.trim().replace("\u2212", "-"), 10);
    });
    return points.every(function (p) { return !isNaN(p); }) ? points : null;
  }

  function seats() {
    var holder = panel();
    var node = holder && holder.querySelector('template[data-text="seats"]');
    if (!node) {
      return [];
    }
    return Array.prototype.map.call(node.content.querySelectorAll("span"), function (span) {
      return span.textContent;
    });
  }

  // Show the form as the entry of deal `number`: the title, the hidden number, who deals.
  function setNumber(form, number) {
    if (!form || !(number > 0)) {
      return;
    }
    form.elements.number.value = String(number);
    var title = document.getElementById("deal-entry-title");
    if (title) {
      title.textContent = text("number", { n: number });
    }
    var names = seats();
    var dealer = document.getElementById("deal-dealer");
    if (dealer && names.length && !document.getElementById("sitting-out")) {
      dealer.textContent = text("dealer", { name: names[(number - 1) % names.length] });
    }
  }

  function rememberNext(game, number) {
    try {
      window.localStorage.setItem("tarot-next-" + game, String(number));
    } catch (e) { /* private mode: the page's own number stands */ }
  }

  function rememberedNext(game) {
    try {
      return parseInt(window.localStorage.getItem("tarot-next-" + game) || "0", 10) || 0;
    } catch (e) {
      return 0;
    }
  }

  // --- keeping a deal ----------------------------------------------------------------------

  function keep(form) {
    if (!form.checkValidity()) {
      form.reportValidity();
      return;
    }
    if (!form.elements.client_id.value) {
      form.elements.client_id.value = newClientId();
    }
    var game = form.dataset.offlineGame;
    var number = parseInt(form.elements.number.value, 10);
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    var deal = {
      game: game,
      url: form.getAttribute("action") || window.location.pathname,
      client_id: form.elements.client_id.value,
      number: number,
      fields: fields,
      summary: describe(form),
      scores: previewScores(form),
      points: previewPoints(form),
      state: "waiting",
      at: Date.now(),
    };
    queued[game] = (queued[game] || 0) + 1;
    putDeal(deal).then(function () {
      // Kept: the form moves on to the next deal; the kept one is shown in the list.
      form.reset();
      form.elements.client_id.value = newClientId();
      setNumber(form, number + 1);
      var preview = document.getElementById("deal-preview");
      if (preview) {
        preview.textContent = "";
      }
      previewKey = null;
      return render();
    }, function () {
      // Nowhere to keep it (no IndexedDB): the form stays as it was, to save again later.
      queued[game] = Math.max(0, (queued[game] || 1) - 1);
    }).then(flushSoon);
  }

  function waiting(game) { return (queued[game] || 0) > 0; }

  // A deal saved while offline, or while earlier deals wait: kept, not posted.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches(FORM)) {
      return;
    }
    if (!navigator.onLine || waiting(form.dataset.offlineGame)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      keep(form);
    }
  }, true);

  // The network failed under htmx's post: keep the deal (if it did reach the site, sending it
  // again with the same client_id answers the stored deal).
  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail && event.detail.elt;
    if (form && form.matches && form.matches(FORM)) {
      keep(form);
    }
  });

  // The preview on screen: which state of the form it scored.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === "deal-preview") {
      // The preview sits in the bottom bar, outside the form it scores.
      var form = entryForm();
      elt.dataset.offlineKey = form ? formKey(form) : "";
    }
  });
  // Only an answer that replaced the preview changes what it scored: a request that failed
  // (the network went as Save was tapped, and the field's "change" asked for a preview again)
  // left the preview on screen as it was, still describing previewKey.
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === "deal-preview" && event.detail.successful) {
      previewKey = elt.dataset.offlineKey;
    }
  });
  // The service worker's copy of this entry screen, fetched again now: the page changed, and a
  // reload offline must show what the site stores (the deals not sent come from IndexedDB).
  function keepFresh() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker && panel()) {
      worker.postMessage({ type: "keep-entry", url: window.location.href, fresh: true });
    }
  }

  // A save or an undo answered (any post but the preview's), or the table's poll bringing the
  // other phones' changes (#table-sync): the page shows something new.
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail || {};
    var elt = detail.elt;
    if (!elt || !detail.successful || !detail.xhr || detail.xhr.status !== 200) {
      return;
    }
    var verb = detail.requestConfig ? detail.requestConfig.verb : "";
    if ((verb === "post" && elt.id !== "deal-preview") || elt.id === "table-sync") {
      keepFresh();
    }
  });

  // A new form from the site (after a save): remember the next number.
  document.addEventListener("htmx:afterSettle", function () {
    var form = entryForm();
    if (form) {
      rememberNext(form.dataset.offlineGame, parseInt(form.elements.number.value, 10));
    }
    // The totals may have been swapped in again: their provisional line follows.
    if (document.getElementById("totals-provisional")) {
      allDeals().then(function (deals) {
        var holder = panel();
        var game = holder ? holder.dataset.game : "";
        provisional(deals.filter(function (d) { return d.game === game; }));
      }).catch(function () {});
    }
  });

  // --- sending -----------------------------------------------------------------------------

  var flushing = false;
  var timer = null;

  function flushSoon() {
    window.setTimeout(flush, 0);
  }

  function parse(html) {
    return new DOMParser().parseFromString(html, "text/html");
  }

  function messagesOf(doc, selector) {
    return Array.prototype.map.call(doc.querySelectorAll(selector), function (node) {
      return node.textContent.trim();
    }).filter(Boolean).join(" ");
  }

  // The site's answer put on the page it came for: the totals (and any other part the site
  // sends "out of band"), and the form's number.
  function apply(deal, doc) {
    var form = entryForm();
    var field = doc.querySelector("input[name=number]");
    var next = field ? parseInt(field.value, 10) : 0;
    if (next) {
      rememberNext(deal.game, next);
    }
    if (!form || form.dataset.offlineGame !== deal.game) {
      return;
    }
    if (parseInt(form.elements.number.value, 10) < next) {
      setNumber(form, next);
    }
    var parts = Array.prototype.slice.call(doc.querySelectorAll("[hx-swap-oob]"));
    // No form in the answer (the table has all its deals): nothing is being typed that the
    // answer could wipe out, and the page says why there is no more to enter.
    var entry = doc.getElementById("deal-entry");
    if (entry && !entry.querySelector(FORM)) {
      parts.push(entry);
    }
    parts.forEach(function (fresh) {
      var old = fresh.id && document.getElementById(fresh.id);
      if (old) {
        fresh.removeAttribute("hx-swap-oob");
        var node = document.importNode(fresh, true);
        old.replaceWith(node);
        if (window.htmx) {
          window.htmx.process(node);
        }
      }
    });
  }

  function send(deal) {
    var body = new URLSearchParams();
    var token = csrfToken(entryForm());
    deal.fields.forEach(function (pair) {
      if (pair[0] === "number") {
        body.append("number", String(deal.number));
      } else if (pair[0] === "csrfmiddlewaretoken" && token) {
        body.append(pair[0], token);
      } else {
        body.append(pair[0], pair[1]);
      }
    });
    return fetch(deal.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": token || "" },
    }).then(function (response) {
      return response.text().then(function (html) {
        return { response: response, doc: parse(html) };
      });
    });
  }

  // What the site said, for one deal: "done", "retry" (later, by itself), or "blocked".
  function judge(deal, answer) {
    var response = answer.response;
    var doc = answer.doc;
    if (response.headers.get("HX-Redirect")) {
      deal.state = "error";
      deal.message = text("signin");
      deal.help = "";
      return "blocked";
    }
    if (response.ok && doc.getElementById("deal-saved")) {
      apply(deal, doc);
      return "done";
    }
    if (response.status >= 500 || response.status === 429) {
      return "retry";
    }
    if (response.status === 409 && doc.getElementById("deal-conflict")) {
      var next = doc.querySelector("input[name=number]");
      deal.state = "conflict";
      deal.message = messagesOf(doc, "#deal-conflict p");
      deal.help = text("help-conflict");
      deal.next = next ? parseInt(next.value, 10) : null;
      return "blocked";
    }
    if (response.status === 409) {
      deal.state = "closed";
      deal.message = messagesOf(doc, "#deal-closed, #deal-full");
      deal.help = text("help-closed");
      return "blocked";
    }
    if (response.status === 400) {
      deal.state = "refused";
      deal.message = messagesOf(doc, ".field-errors li");
      deal.help = text("help-refused");
      return "blocked";
    }
    deal.state = "error";
    deal.message = text("error", { status: response.status });
    deal.help = "";
    return "blocked";
  }

  function flush() {
    // navigator.onLine false is sure to be offline (true is only a hope: a try tells).
    if (flushing || !navigator.onLine) {
      return Promise.resolve();
    }
    flushing = true;
    var blockedGames = {};
    function next() {
      return allDeals().then(function (deals) {
        var deal = deals.filter(function (d) {
          if (d.state !== "waiting" && d.state !== "sending") {
            blockedGames[d.game] = true;
          }
          return !blockedGames[d.game] && (d.state === "waiting" || d.state === "sending");
        })[0];
        if (!deal) {
          return null;
        }
        deal.state = "sending";
        render(deals);
        return send(deal).then(function (answer) {
          var verdict = judge(deal, answer);
          if (verdict === "done") {
            queued[deal.game] = Math.max(0, (queued[deal.game] || 1) - 1);
            keepFresh();
            return dropDeal(deal.seq).then(next);
          }
          if (verdict === "retry") {
            deal.state = "waiting";
            return putDeal(deal).then(function () { return "retry"; });
          }
          return putDeal(deal).then(next);
        }, function () {
          // No network after all: wait for it.
          deal.state = "waiting";
          return putDeal(deal).then(function () { return "retry"; });
        });
      });
    }
    return next().catch(function () {}).then(function () {
      flushing = false;
      return render();
    });
  }

  // --- the list of deals not sent ----------------------------------------------------------

  function render(given) {
    var holder = panel();
    var load = given ? Promise.resolve(given) : allDeals();
    return load.then(function (deals) {
      counts(deals);
      if (!holder) {
        return;
      }
      var game = holder.dataset.game;
      var mine = deals.filter(function (d) { return d.game === game; });
      var list = holder.querySelector(".offline-deals");
      var row = holder.querySelector("#offline-row");
      list.textContent = "";
      var blocked = false;
      mine.forEach(function (deal) {
        var item = row.content.firstElementChild.cloneNode(true);
        item.dataset.seq = String(deal.seq);
        item.dataset.state = deal.state;
        item.querySelector(".offline-number").textContent = text("number", { n: deal.number });
        var state = deal.state === "waiting" ? (blocked ? "after-blocked" : "waiting")
          : deal.state === "sending" ? "sending" : "blocked";
        item.querySelector(".offline-state").textContent = text(state);
        item.querySelector(".offline-summary").textContent = deal.summary;
        item.querySelector(".offline-scores").textContent = deal.scores || text("no-scores");
        var problem = item.querySelector(".offline-problem");
        if (state === "blocked") {
          blocked = true;
          problem.hidden = false;
          item.querySelector(".offline-message").textContent = deal.message || "";
          item.querySelector(".offline-help").textContent = deal.help || "";
          var renumber = item.querySelector("[data-action=renumber]");
          if (deal.state === "conflict" && deal.next) {
            renumber.hidden = false;
            renumber.textContent = text("renumber", { n: deal.next });
          }
        }
        list.appendChild(item);
      });
      holder.hidden = mine.length === 0;
      provisional(mine);
      var form = entryForm();
      if (form && form.dataset.offlineGame === game && mine.length) {
        var after = mine[mine.length - 1].number + 1;
        if (parseInt(form.elements.number.value, 10) < after) {
          setNumber(form, after);
        }
      }
    });
  }

  // The stored totals plus the kept deals' scores, on a line of their own marked provisional;
  // hidden when no kept deal has scores (a deal kept before its preview came has none).
  function provisional(mine) {
    var row = document.getElementById("totals-provisional");
    if (!row) {
      return;
    }
    var cells = row.querySelectorAll("td[data-stored]");
    var sums = Array.prototype.map.call(cells, function () { return 0; });
    var counted = 0;
    mine.forEach(function (deal) {
      if (deal.points && deal.points.length === cells.length) {
        deal.points.forEach(function (p, i) { sums[i] += p; });
        counted += 1;
      }
    });
    Array.prototype.forEach.call(cells, function (cell, i) {
      cell.textContent = String(parseInt(cell.dataset.stored, 10) + sums[i]);
    });
    var label = document.getElementById("totals-provisional-label");
    if (label) {
      label.querySelector(".provisional-count").textContent = String(counted);
      label.hidden = counted === 0;
    }
    row.hidden = counted === 0;
  }

  // --- the banner while the network is gone -------------------------------------------------

  function banner(offline) {
    var node = document.getElementById("offline-banner");
    if (node) {
      node.hidden = !offline;
    }
  }

  window.addEventListener("offline", function () { banner(true); });
  window.addEventListener("online", function () { banner(false); });
  // A request that could not leave says more than navigator.onLine (true is only a hope).
  document.addEventListener("htmx:sendError", function () { banner(true); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful || (event.detail.xhr && event.detail.xhr.status)) {
      banner(false);
    }
  });

  function counts(deals) {
    queued = {};
    deals.forEach(function (d) { queued[d.game] = (queued[d.game] || 0) + 1; });
    var any = deals.some(function (d) { return d.state === "waiting" || d.state === "sending"; });
    if (any && timer === null) {
      timer = window.setInterval(flush, RETRY_MS);
    } else if (!any && timer !== null) {
      window.clearInterval(timer);
      timer = null;
    }
  }

  // The choices of a deal the site did not take.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#offline-queue [data-action]");
    if (!button) {
      return;
    }
    var seq = parseInt(button.closest(".offline-deal").dataset.seq, 10);
    var action = button.dataset.action;
    allDeals().then(function (deals) {
      var deal = deals.filter(function (d) { return d.seq === seq; })[0];
      if (!deal) {
        return null;
      }
      if (action === "discard") {
        return dropDeal(seq);
      }
      var writes = [];
      if (action === "renumber" && deal.next) {
        // This deal and those after it move on: deal.next, deal.next + 1, ...
        var number = deal.next;
        deals.filter(function (d) { return d.game === deal.game && d.seq >= seq; }).forEach(function (d) {
          d.number = number;
          number += 1;
          d.state = "waiting";
          writes.push(putDeal(d));
        });
      } else {
        deal.state = "waiting";
        writes.push(putDeal(deal));
      }
      return Promise.all(writes);
    }).then(function () { return render(); }).then(flush);
  });

  // Signing out: the pages kept for this account go (deals not sent stay, to be sent later).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.action && /\/logout\/?$/.test(new URL(form.action, window.location.href).pathname)) {
      if (navigator.serviceWorker && navigator.serviceWorker.controller) {
        navigator.serviceWorker.controller.postMessage({ type: "forget-pages" });
      }
    }
  });

  window.addEventListener("online", flush);

  function start() {
    banner(!navigator.onLine);
    var form = entryForm();
    if (form) {
      // A fresh name for the deal on this form: the page may come from the phone's cache.
      form.elements.client_id.value = newClientId();
      var game = form.dataset.offlineGame;
      var number = parseInt(form.elements.number.value, 10);
      // The page may be the phone's copy, older than the deals saved since: the last number
      // the site gave is the better guess (one ahead of the site is harmless: it takes the next).
      if (rememberedNext(game) > number) {
        setNumber(form, rememberedNext(game));
      } else {
        rememberNext(game, number);
      }
      if (navigator.serviceWorker && navigator.onLine) {
        navigator.serviceWorker.ready.then(function (registration) {
          if (registration.active) {
            registration.active.postMessage({ type: "keep-entry", url: window.location.href });
          }
        });
      }
    }
    db().then(function () { return render(); }).then(function () {
      if (navigator.onLine) {
        return flush();
      }
      return null;
    }).catch(function () {});
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
