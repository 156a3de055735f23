"""The tournament API, under /api/v1/ (see docs/api.md, "Tournaments")."""

from django.urls import URLPattern, URLResolver, path

from tournaments.api.confirmations import (
    ConfirmationListView,
    DealConfirmView,
    DealDisputeView,
    DealSettleView,
)
from tournaments.api.views import (
    BracketView,
    EntryDetailView,
    EntryListView,
    RefereeDetailView,
    RefereeListView,
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
    path("tournaments/<int:pk>/", TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<int:pk>/entries/", EntryListView.as_view(), name="entries"),
    path("tournaments/<int:pk>/entries/<int:entry_id>/", EntryDetailView.as_view(), name="entry"),
    path("tournaments/<int:pk>/referees/", RefereeListView.as_view(), name="referees"),
    path(
        "tournaments/<int:pk>/referees/<int:user_id>/",
        RefereeDetailView.as_view(),
        name="referee",
    ),
    path("tournaments/<int:pk>/rounds/", RoundListView.as_view(), name="rounds"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/start/",
        RoundStartView.as_view(),
        name="round-start",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/close/",
        RoundCloseView.as_view(),
        name="round-close",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/swap/",
        RoundSwapView.as_view(),
        name="round-swap",
    ),
    path("tournaments/<int:pk>/standings/", StandingsView.as_view(), name="standings"),
    path(
        "tournaments/<int:pk>/teams/standings/",
        TeamStandingsView.as_view(),
        name="team-standings",
    ),
    path("tournaments/<int:pk>/bracket/", BracketView.as_view(), name="bracket"),
    path(
        "tournaments/<int:pk>/confirmations/",
        ConfirmationListView.as_view(),
        name="confirmations",
    ),
    path(
        "tournaments/<int:pk>/deals/<int:deal_id>/confirm/",
        DealConfirmView.as_view(),
        name="deal-confirm",
    ),
    path(
        "tournaments/<int:pk>/deals/<int:deal_id>/dispute/",
        DealDisputeView.as_view(),
        name="deal-dispute",
    ),
    path(
        "tournaments/<int:pk>/deals/<int:deal_id>/settle/",
        DealSettleView.as_view(),
        name="deal-settle",
    ),
]
