"""Routes of the JSON API, mounted at ``api/v1/``: one line per endpoint, grouped by area."""

from django.urls import URLPattern, URLResolver, path

from tarot_scores.api.auth import TokenDetailView, TokenListView, TokenView
from tarot_scores.api.calculator import ScoreView
from tarot_scores.api.clubs import ClubDetailView, ClubListView, PlayerListView
from tarot_scores.api.errors import IdConverter  # noqa: F401  (registers <id:...>)
from tarot_scores.api.games import (
    DealDetailView,
    DealHistoryView,
    DealListView,
    DealRestoreView,
    GameDealsView,
    GameDetailView,
    GameFinishView,
    GameListView,
    GameReopenView,
)
from tarot_scores.api.leaderboard import ClubLeaderboardView, PlayerHistoryView
from tarot_scores.api.players import PlayerStatsView
from tarot_scores.api.ratings import ClubRatingsView
from tarot_scores.api.webhooks import (
    ClubWebhookListView,
    DeliveryListView,
    DeliveryResendView,
    WebhookDetailView,
    WebhookPingView,
    WebhookSecretView,
)

app_name = "api"

urlpatterns: list[URLPattern | URLResolver] = [
    # Public: computes one deal's scores and stores nothing.
    path("score/", ScoreView.as_view(), name="score"),
    # A token for scripts and apps: Authorization: Token <key>.
    path("auth/token/", TokenView.as_view(), name="token"),
    path("auth/tokens/", TokenListView.as_view(), name="tokens"),
    path("auth/tokens/<id:pk>/", TokenDetailView.as_view(), name="token-detail"),
    # Clubs and their players.
    path("clubs/", ClubListView.as_view(), name="clubs"),
    path("clubs/<id:pk>/", ClubDetailView.as_view(), name="club"),
    path("clubs/<id:pk>/ratings/", ClubRatingsView.as_view(), name="club-ratings"),
    path("clubs/<id:pk>/leaderboard/", ClubLeaderboardView.as_view(), name="club-leaderboard"),
    path("players/", PlayerListView.as_view(), name="players"),
    path("players/<id:pk>/stats/", PlayerStatsView.as_view(), name="player-stats"),
    path("players/<id:pk>/history/", PlayerHistoryView.as_view(), name="player-history"),
    # Games (one table each) and their deals.
    path("games/", GameListView.as_view(), name="games"),
    path("games/<id:pk>/", GameDetailView.as_view(), name="game"),
    path("games/<id:pk>/finish/", GameFinishView.as_view(), name="game-finish"),
    path("games/<id:pk>/reopen/", GameReopenView.as_view(), name="game-reopen"),
    path("games/<id:pk>/deals/", GameDealsView.as_view(), name="game-deals"),
    path("deals/", DealListView.as_view(), name="deals"),
    path("deals/<id:pk>/", DealDetailView.as_view(), name="deal"),
    path("deals/<id:pk>/restore/", DealRestoreView.as_view(), name="deal-restore"),
    path("deals/<id:pk>/history/", DealHistoryView.as_view(), name="deal-history"),
    # Webhooks, for a club's organisers.
    path("clubs/<id:pk>/webhooks/", ClubWebhookListView.as_view(), name="club-webhooks"),
    path("webhooks/<id:pk>/", WebhookDetailView.as_view(), name="webhook"),
    path("webhooks/<id:pk>/ping/", WebhookPingView.as_view(), name="webhook-ping"),
    path("webhooks/<id:pk>/secret/", WebhookSecretView.as_view(), name="webhook-secret"),
    path("webhooks/<id:pk>/deliveries/", DeliveryListView.as_view(), name="webhook-deliveries"),
    path(
        "webhooks/<id:pk>/deliveries/<id:delivery_id>/resend/",
        DeliveryResendView.as_view(),
        name="webhook-delivery-resend",
    ),
]
