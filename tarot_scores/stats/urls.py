"""Statistics pages under a club's address (the ``clubs`` namespace: the site's URLconf puts
them there): a player's page and report, the leaderboard, records, ratings, the season
report."""

from django.urls import URLPattern, path

from tarot_scores.stats import views

club_urlpatterns: list[URLPattern] = [
    path("<slug:slug>/players/<int:player_id>/", views.player_detail, name="player"),
    path(
        "<slug:slug>/players/<int:player_id>/report.pdf",
        views.player_report,
        name="player_report",
    ),
    path("<slug:slug>/leaderboard/", views.leaderboard, name="leaderboard"),
    path("<slug:slug>/records/", views.records, name="records"),
    path("<slug:slug>/ratings/", views.ratings, name="ratings"),
    path("<slug:slug>/season-report.pdf", views.season_report, name="season_report"),
]
