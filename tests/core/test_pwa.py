"""The installable web app: the manifest in the reader's language, the icons it names, the
service worker served from the root with what it keeps, the offline page, the favicon."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from PIL import Image, ImageChops

from tarot_scores.core.icons import ICONS, draw_icon

STATIC = Path(settings.BASE_DIR) / "static"


def test_the_manifest_names_the_app_in_the_readers_language(client: Client) -> None:
    french = client.get("/manifest.webmanifest", headers={"Accept-Language": "fr"})
    english = client.get("/manifest.webmanifest", headers={"Accept-Language": "en"})

    assert french.status_code == 200
    assert french["Content-Type"] == "application/manifest+json"
    fr, en = json.loads(french.content), json.loads(english.content)
    assert fr["lang"] == "fr" and en["lang"] == "en"
    assert fr["description"].startswith("Feuilles de marque")
    assert en["description"].startswith("Score sheets")
    assert fr["start_url"] == "/" and fr["scope"] == "/"
    assert fr["display"] == "standalone" and fr["theme_color"] == "#0b4f8a"
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in fr["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}


def test_every_icon_the_manifest_names_is_a_png_of_its_size(client: Client) -> None:
    for icon in json.loads(client.get("/manifest.webmanifest").content)["icons"]:
        name = icon["src"].removeprefix("/static/")
        with Image.open(STATIC / name) as image:
            assert image.format == "PNG"
            assert f"{image.width}x{image.height}" == icon["sizes"]


def test_the_committed_icons_are_the_drawn_ones() -> None:
    """Change the drawing, then run ``python -m tarot_scores.core.icons``."""
    for name, (size, maskable) in ICONS.items():
        with Image.open(STATIC / "img" / name) as committed:
            drawn = draw_icon(size, maskable=maskable)
            assert committed.size == (size, size), name
            # Within a shade: another Pillow may round its resampling a little differently.
            difference = ImageChops.difference(committed.convert("RGBA"), drawn)
            extrema = difference.getextrema()  # (low, high) per band for RGBA
            assert all(band[1] <= 8 for band in extrema if isinstance(band, tuple)), name
    # A maskable icon fills its square: a launcher may cut any shape out of it.
    corner = draw_icon(64, maskable=True).getpixel((0, 0))
    assert corner == (0x0B, 0x4F, 0x8A, 255)


def test_the_service_worker_is_served_from_the_root_with_what_it_keeps(client: Client) -> None:
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    first_line, code = response.content.decode().split("\n", 1)
    config = json.loads(first_line.removeprefix("self.TAROT_SW = ").removesuffix(";"))
    assert {"/static/css/site.css", "/static/js/offline.js", "/offline/"} <= set(config["shell"])
    assert config["offline"] == "/offline/" and config["static"] == "/static/"
    assert len(config["version"]) == 12
    assert code == (STATIC / "js" / "sw.js").read_text()


def test_every_page_links_the_manifest_the_icons_and_the_script(client: Client) -> None:
    page = client.get("/").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'rel="icon"' in page and 'rel="apple-touch-icon"' in page
    assert 'src="/static/js/offline.js" data-service-worker="/sw.js"' in page


@pytest.mark.django_db
def test_the_offline_page_says_what_still_works(client: Client) -> None:
    french = client.get("/offline/").content.decode()
    english = client.get("/offline/", headers={"Accept-Language": "en"}).content.decode()

    assert "Pas de réseau" in french and "écran de saisie" in french
    assert "No network" in english and "entry screen" in english


def test_the_favicon_is_where_browsers_look_for_it(client: Client) -> None:
    response = client.get("/favicon.ico")

    assert response.status_code == 301
    assert response["Location"] == "/static/img/favicon.ico"
    with Image.open(STATIC / "img" / "favicon.ico") as icon:
        assert icon.format == "ICO"
