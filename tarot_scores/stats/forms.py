"""The leaderboard's filters, read from the query string, and how seasons are named."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tarot_scores.clubs.models import Club
from tarot_scores.core.kinds import KINDS, TABLE_SIZES, TAROT


def season_label(club: Club, season: int) -> str:
    """2025 -> "2025–2026"; a club whose seasons are calendar years just says "2025"."""
    if club.season_start_month == 1:
        return str(season)
    return f"{season}–{season + 1}"


def current_season(club: Club, today: datetime.date | None = None) -> int:
    return club.season_of(today or timezone.localdate())


class LeaderboardFilterForm(forms.Form):
    """Read from the query string; anything unknown falls back to the default."""

    kind = forms.ChoiceField(label=gettext_lazy("Game"), choices=KINDS, required=False)
    season = forms.ChoiceField(label=gettext_lazy("Season"), required=False)
    size = forms.ChoiceField(label=gettext_lazy("Table size"), required=False)
    sort = forms.ChoiceField(
        label=gettext_lazy("Sort by"),
        required=False,
        choices=[
            ("points", gettext_lazy("Total points")),
            ("average", gettext_lazy("Average per deal")),
            ("deals", gettext_lazy("Deals played")),
            ("taken", gettext_lazy("Times taker")),
            ("success", gettext_lazy("Success rate")),
            ("name", gettext_lazy("Name")),
        ],
    )

    def __init__(self, data: Any, *, club: Club, seasons: Sequence[int]) -> None:
        kind = data.get("kind") if data.get("kind") in TABLE_SIZES else TAROT
        default_season = seasons[0] if seasons else current_season(club)
        query = {
            "kind": kind,
            "season": data.get("season") or str(default_season),
            "size": data.get("size") or "",
            "sort": data.get("sort") or "points",
        }
        super().__init__(query)
        choices = [(str(s), season_label(club, s)) for s in seasons]
        if str(default_season) not in dict(choices):
            choices.insert(0, (str(default_season), season_label(club, default_season)))
        self.fields["season"].choices = [*choices, ("all", _("All seasons"))]  # type: ignore[attr-defined]
        # The games the club offers, and the one asked for (a game it no longer offers keeps
        # its leaderboard, reached by its link).
        self.fields["kind"].choices = [  # type: ignore[attr-defined]
            (value, label) for value, label in KINDS if club.offers(value) or value == kind
        ]
        self.fields["size"].choices = [("", _("All tables"))] + [  # type: ignore[attr-defined]
            (str(n), _("%(count)s players") % {"count": n}) for n in TABLE_SIZES[kind]
        ]
        self.default_season = default_season

    def values(self) -> dict[str, Any]:
        """kind, season (None: all), size (None: all), sort: valid values only."""
        self.is_valid()
        data = self.cleaned_data
        season_text = data.get("season")
        if season_text == "all":
            season: int | None = None
        elif season_text:
            season = int(season_text)
        else:
            season = self.default_season
        size_text = data.get("size")
        return {
            "kind": data.get("kind") or TAROT,
            "season": season,
            "size": int(size_text) if size_text else None,
            "sort": data.get("sort") or "points",
        }

    def query(self, **changes: Any) -> dict[str, str]:
        """The query string of these filters, with ``changes``; defaults left out."""
        values = self.values()
        out = {
            "kind": values["kind"],
            "season": "all" if values["season"] is None else str(values["season"]),
            "size": "" if values["size"] is None else str(values["size"]),
            "sort": values["sort"],
        }
        out.update({k: str(v) for k, v in changes.items()})
        return {k: v for k, v in out.items() if v}


class RatingFilterForm(forms.Form):
    """The rating ranking's one filter, from the query string: today's ratings (the default),
    or the ratings as a season ended. Anything unknown falls back to today."""

    season = forms.ChoiceField(label=gettext_lazy("Season"), required=False)

    def __init__(self, data: Any, *, club: Club | None, seasons: Sequence[int]) -> None:
        choices = [("", _("Today (every deal)"))] + [
            (str(s), season_label(club, s) if club is not None else str(s)) for s in seasons
        ]
        season = data.get("season") or ""
        super().__init__({"season": season if season in dict(choices) else ""})
        self.fields["season"].choices = choices  # type: ignore[attr-defined]

    def chosen_season(self) -> int | None:
        """The season chosen, or None for today's ratings."""
        self.is_valid()
        text = self.cleaned_data.get("season")
        return int(text) if text else None
