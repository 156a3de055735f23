"""Club pages: members, games, leaderboard, players, house rules."""

from django.urls import URLPattern, path

from tarot_scores.clubs import views
from tarot_scores.games import views as game_views
from tarot_scores.stats import views as stats_views

app_name = "clubs"

urlpatterns: list[URLPattern] = [
    path("", views.club_list, name="list"),
    path("<slug:slug>/", views.club_detail, name="detail"),
    path("<slug:slug>/players/new/", views.player_new, name="player_new"),
    path("<slug:slug>/players/paste/", views.players_paste, name="players_paste"),
    path("<slug:slug>/players/<int:player_id>/", stats_views.player_detail, name="player"),
    path(
        "<slug:slug>/players/<int:player_id>/report.pdf",
        stats_views.player_report,
        name="player_report",
    ),
    path("<slug:slug>/members/", views.members, name="members"),
    path("<slug:slug>/settings/", views.settings, name="settings"),
    # One name for the list and for one rule set: reverse picks by the arguments given.
    path("<slug:slug>/rules/", views.rules, name="rules"),
    path("<slug:slug>/rules/<int:rules_id>/", views.rules, name="rules"),
    path("<slug:slug>/games/new/", game_views.game_new, name="game_new"),
    path("<slug:slug>/leaderboard/", stats_views.leaderboard, name="leaderboard"),
    path("<slug:slug>/records/", stats_views.records, name="records"),
    path("<slug:slug>/ratings/", stats_views.ratings, name="ratings"),
    path("<slug:slug>/season-report.pdf", stats_views.season_report, name="season_report"),
]
