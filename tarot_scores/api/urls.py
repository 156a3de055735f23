"""Routes of the JSON API, mounted at ``api/v1/``: one line per endpoint, grouped by area."""

from django.urls import URLPattern, URLResolver, path

from tarot_scores.api.calculator import ScoreView

app_name = "api"

urlpatterns: list[URLPattern | URLResolver] = [
    # Public: computes one deal's scores and stores nothing.
    path("score/", ScoreView.as_view(), name="score"),
]
