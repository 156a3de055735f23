"""The tournament API, under /api/v1/ (see docs/api.md, "Tournaments")."""

from django.urls import URLPattern, URLResolver, path

from tarot_scores.api.errors import IdConverter  # noqa: F401  (registers <id:...>)
from tournaments.api.confirmations import (
    ConfirmationConfirmView,
    ConfirmationDisputeView,
    ConfirmationListView,
    ConfirmationSettleView,
    DealConfirmView,
    DealDisputeView,
    DealSettleView,
)
from tournaments.api.cuts import RoundCutView
from tournaments.api.entries import EntryDetailView, EntryListView
from tournaments.api.penalties import PenaltyDetailView, PenaltyListView
from tournaments.api.people import (
    ApartPairDetailView,
    ApartPairListView,
    RoundSubstituteView,
    SubstituteStandingsView,
)
from tournaments.api.referees import RefereeDetailView, RefereeListView
from tournaments.api.rounds import RoundCloseView, RoundListView, RoundStartView, RoundSwapView
from tournaments.api.standings import (
    BracketView,
    StandingsFeedView,
    StandingsView,
    TeamStandingsView,
)
from tournaments.api.table_link import (
    RoundLinksView,
    TableConfirmView,
    TableDealsView,
    TableDealView,
    TableDisputeView,
    TableLinkView,
)
from tournaments.api.tournaments import TournamentDetailView, TournamentListView
from tournaments.api.webhooks import TournamentWebhookListView

app_name = "tournaments_api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("tournaments/", TournamentListView.as_view(), name="tournaments"),
    # The feed of standings: the tournaments whose standings changed after a cursor.
    path("tournaments/standings/", StandingsFeedView.as_view(), name="standings-feed"),
    path("tournaments/<id:pk>/", TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<id:pk>/entries/", EntryListView.as_view(), name="entries"),
    path("tournaments/<id:pk>/entries/<id:entry_id>/", EntryDetailView.as_view(), name="entry"),
    path("tournaments/<id:pk>/referees/", RefereeListView.as_view(), name="referees"),
    path("tournaments/<id:pk>/webhooks/", TournamentWebhookListView.as_view(), name="webhooks"),
    path(
        "tournaments/<id:pk>/referees/<id:user_id>/",
        RefereeDetailView.as_view(),
        name="referee",
    ),
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
    path(
        "tournaments/<id:pk>/rounds/<id:number>/cut/",
        RoundCutView.as_view(),
        name="round-cut",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/substitute/",
        RoundSubstituteView.as_view(),
        name="round-substitute",
    ),
    path("tournaments/<id:pk>/apart/", ApartPairListView.as_view(), name="apart-pairs"),
    path(
        "tournaments/<id:pk>/apart/<id:pair_id>/",
        ApartPairDetailView.as_view(),
        name="apart-pair",
    ),
    path("tournaments/<id:pk>/standings/", StandingsView.as_view(), name="standings"),
    path(
        "tournaments/<id:pk>/standings/substitutes/",
        SubstituteStandingsView.as_view(),
        name="substitute-standings",
    ),
    path(
        "tournaments/<id:pk>/teams/standings/",
        TeamStandingsView.as_view(),
        name="team-standings",
    ),
    path("tournaments/<id:pk>/penalties/", PenaltyListView.as_view(), name="penalties"),
    path(
        "tournaments/<id:pk>/penalties/<id:penalty_id>/",
        PenaltyDetailView.as_view(),
        name="penalty",
    ),
    path("tournaments/<id:pk>/bracket/", BracketView.as_view(), name="bracket"),
    path(
        "tournaments/<id:pk>/confirmations/",
        ConfirmationListView.as_view(),
        name="confirmations",
    ),
    # The confirmation paths named after the list they change (docs/api.md); the same views.
    path(
        "tournaments/<id:pk>/confirmations/<id:deal_id>/confirm/",
        ConfirmationConfirmView.as_view(),
        name="confirmation-confirm",
    ),
    path(
        "tournaments/<id:pk>/confirmations/<id:deal_id>/dispute/",
        ConfirmationDisputeView.as_view(),
        name="confirmation-dispute",
    ),
    path(
        "tournaments/<id:pk>/confirmations/<id:deal_id>/settle/",
        ConfirmationSettleView.as_view(),
        name="confirmation-settle",
    ),
    path(
        "tournaments/<id:pk>/deals/<id:deal_id>/confirm/",
        DealConfirmView.as_view(),
        name="deal-confirm",
    ),
    path(
        "tournaments/<id:pk>/deals/<id:deal_id>/dispute/",
        DealDisputeView.as_view(),
        name="deal-dispute",
    ),
    path(
        "tournaments/<id:pk>/deals/<id:deal_id>/settle/",
        DealSettleView.as_view(),
        name="deal-settle",
    ),
    # A table's link, for a table app: the token is the credential (tournaments.api.table_link).
    path(
        "tournaments/<id:pk>/rounds/<id:number>/links/",
        RoundLinksView.as_view(),
        name="round-links",
    ),
    path("tables/<str:token>/", TableLinkView.as_view(), name="table-link"),
    path("tables/<str:token>/deals/", TableDealsView.as_view(), name="table-link-deals"),
    path(
        "tables/<str:token>/deals/<id:deal_id>/",
        TableDealView.as_view(),
        name="table-link-deal",
    ),
    path(
        "tables/<str:token>/deals/<id:deal_id>/confirm/",
        TableConfirmView.as_view(),
        name="table-link-confirm",
    ),
    path(
        "tables/<str:token>/deals/<id:deal_id>/dispute/",
        TableDisputeView.as_view(),
        name="table-link-dispute",
    ),
]
