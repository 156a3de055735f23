"""The tournament API, under /api/v1/ (see docs/api.md, "Tournaments")."""

from django.urls import URLPattern, URLResolver, path

from tarot_scores.api.errors import IdConverter  # noqa: F401  (registers <id:...>)
from tournaments.api.views import (
    BracketView,
    EntryDetailView,
    EntryListView,
    RoundCloseView,
    RoundListView,
    RoundStartView,
    RoundSwapView,
    StandingsView,
    TeamStandingsView,
    TournamentDetailView,
    TournamentListView,
)

app_name = "tournaments_api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("tournaments/", TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<id:pk>/", TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<id:pk>/entries/", EntryListView.as_view(), name="entries"),
    path("tournaments/<id:pk>/entries/<id:entry_id>/", EntryDetailView.as_view(), name="entry"),
    path("tournaments/<id:pk>/rounds/", RoundListView.as_view(), name="rounds"),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/start/",
        RoundStartView.as_view(),
        name="round-start",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/close/",
        RoundCloseView.as_view(),
        name="round-close",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/swap/",
        RoundSwapView.as_view(),
        name="round-swap",
    ),
    path("tournaments/<id:pk>/standings/", StandingsView.as_view(), name="standings"),
    path(
        "tournaments/<id:pk>/teams/standings/",
        TeamStandingsView.as_view(),
        name="team-standings",
    ),
    path("tournaments/<id:pk>/bracket/", BracketView.as_view(), name="bracket"),
]
