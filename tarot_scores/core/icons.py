"""The site's icons, drawn in Python: a white card with a blue T on the site's blue, for the
home screen of a phone (192 and 512 pixels, and a "maskable" one whose drawing stays inside
the circle a launcher may cut out), the browser tab (favicon) and iOS (apple-touch-icon).

The PNGs are committed under static/img; draw them again after a change with
``python -m tarot_scores.core.icons``."""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

ACCENT = (0x0B, 0x4F, 0x8A)  # --accent in site.css
CARD = (0xFF, 0xFF, 0xFF)
MARK = (0xF5, 0xA3, 0x00)  # --focus: the petit's dot
THEME_COLOUR = "#0b4f8a"

# file name -> (size in pixels, maskable)
ICONS: dict[str, tuple[int, bool]] = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "icon-maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),  # iOS rounds the corners itself: fill the square
    "favicon-32.png": (32, False),
}


def draw_icon(size: int, *, maskable: bool) -> Image.Image:
    """One icon. A maskable icon fills the square and keeps the card within the central 60%
    (the safe zone is a circle of 80%); the others have rounded corners and a larger card."""
    scale = 4  # drawn large, then reduced: smooth edges without anti-aliasing primitives
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=ACCENT)
        card_h = big * 0.58
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.18, fill=ACCENT)
        card_h = big * 0.76
    card_w = card_h * 0.7
    left, top = (big - card_w) / 2, (big - card_h) / 2
    draw.rounded_rectangle(
        (left, top, left + card_w, top + card_h), radius=card_w * 0.12, fill=CARD
    )
    # The T: a bar and a stem, in the card's upper two thirds.
    bar_w, bar_h = card_w * 0.64, card_h * 0.13
    bar_left, bar_top = left + (card_w - bar_w) / 2, top + card_h * 0.2
    draw.rectangle((bar_left, bar_top, bar_left + bar_w, bar_top + bar_h), fill=ACCENT)
    stem_w = card_w * 0.2
    stem_left = left + (card_w - stem_w) / 2
    draw.rectangle((stem_left, bar_top, stem_left + stem_w, top + card_h * 0.66), fill=ACCENT)
    dot = card_w * 0.11
    cx, cy = left + card_w / 2, top + card_h * 0.8
    draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=MARK)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def write_icons(folder: Path) -> list[Path]:
    """Draw every icon and the favicon.ico (16, 32 and 48 pixels) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (size, maskable) in ICONS.items():
        path = folder / name
        draw_icon(size, maskable=maskable).save(path, optimize=True)
        written.append(path)
    ico = folder / "favicon.ico"
    draw_icon(48, maskable=False).save(ico, sizes=[(16, 16), (32, 32), (48, 48)])
    written.append(ico)
    return written


if __name__ == "__main__":  # pragma: no cover - a tool run by hand
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("static/img")
    for path in write_icons(target):
        print(path)
