"""The site as an installable web app, for club venues with poor signal: the manifest (name,
icons, colours, in the reader's language), the service worker that keeps the app shell and the
game entry screens a phone opened, and the page it shows offline for anything else.

The service worker's code is the static file ``js/sw.js``; it is served from the site's root
(``/sw.js``) so that it may control every page, with one first line naming what it keeps:
the static files' real (hashed) URLs and a version that changes whenever they or the code do,
so that phones pick up a new release."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import PrefixNode, static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tarot_scores.core.icons import THEME_COLOUR

SW_SOURCE = "js/sw.js"
# The app shell: what every page needs, kept when the service worker installs. Other static
# files are kept the first time a page asks for them.
SHELL_STATIC = [
    "css/site.css",
    "js/htmx.min.js",
    "js/offline.js",
    "js/form-errors.js",
    "js/deal-entry.js",
    "img/icon-192.png",
    "img/favicon-32.png",
]


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the reader's language (the browser fetches it without cookies:
    ``Accept-Language`` decides)."""
    icons = [
        {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("img/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    data = {
        "name": _("Tarot Scores"),
        "short_name": _("Tarot"),
        "description": _("Score sheets, tournaments and rankings for French Tarot clubs."),
        "lang": get_language() or "fr",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@lru_cache(maxsize=1)
def _sw_code() -> str:
    path = finders.find(SW_SOURCE)
    if isinstance(path, str):
        with open(path, encoding="utf-8") as source:
            return source.read()
    with staticfiles_storage.open(SW_SOURCE) as source:  # collected, sources not shipped
        return str(source.read().decode("utf-8"))


def service_worker_script() -> str:
    """``js/sw.js`` with its first line: the shell's URLs and the version."""
    shell = [static(name) for name in SHELL_STATIC]
    shell += [reverse("offline"), reverse("manifest")]
    code = _sw_code()
    version = hashlib.sha256(json.dumps(shell).encode() + code.encode()).hexdigest()[:12]
    config = {
        "version": version,
        "shell": shell,
        "offline": reverse("offline"),
        "static": PrefixNode.handle_simple("STATIC_URL"),
    }
    return f"self.TAROT_SW = {json.dumps(config)};\n{code}"


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(service_worker_script(), content_type="text/javascript")
    # Served from the root, its scope is the whole site; say so for proxies that move it.
    response["Service-Worker-Allowed"] = "/"
    # Browsers check for a new worker at each visit; never let a cache hide one.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page it does not keep when the network is down."""
    return render(request, "tarot_scores/offline.html")


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    # Browsers ask for /favicon.ico whatever the page says.
    return redirect(static("img/favicon.ico"), permanent=True)
