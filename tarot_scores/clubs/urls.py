"""Club pages: the list of clubs, players, members, settings, house rules.

A club's address (``/clubs/<slug>/``) also holds pages the games and the stats serve (the
club's page with its games, a new game, the leaderboard...): each concern lists its own in
``club_urlpatterns``, and the site's URLconf puts them under this one ``clubs`` namespace."""

from django.urls import URLPattern, path

from tarot_scores.clubs import views

app_name = "clubs"

urlpatterns: list[URLPattern] = [
    path("", views.club_list, name="list"),
    path("<slug:slug>/players/new/", views.player_new, name="player_new"),
    path("<slug:slug>/players/paste/", views.players_paste, name="players_paste"),
    path("<slug:slug>/members/", views.members, name="members"),
    path("<slug:slug>/settings/", views.settings, name="settings"),
    # One name for the list and for one rule set: reverse picks by the arguments given.
    path("<slug:slug>/rules/", views.rules, name="rules"),
    path("<slug:slug>/rules/<int:rules_id>/", views.rules, name="rules"),
]
