"""Game pages: the score sheet, deal entry and corrections, exports."""

from django.urls import URLPattern, URLResolver, path
from django.views.decorators.cache import never_cache

from tarot_scores.games import views

app_name = "games"

# The sheet and the entry screens are never kept by the browser (no-store): Back after a save
# asks the site again and shows the deal just saved (the service worker keeps its own copy).
urlpatterns: list[URLPattern | URLResolver] = [
    path("games/<int:game_id>/", never_cache(views.detail), name="detail"),
    path("games/<int:game_id>/deals/new/", never_cache(views.deal_new), name="deal_new"),
    path("games/<int:game_id>/deals/preview/", views.deal_preview, name="deal_preview"),
    path("games/<int:game_id>/status/", views.status, name="status"),
    path("games/<int:game_id>/sheet.csv", views.sheet_csv, name="csv"),
    path("games/<int:game_id>/sheet.pdf", views.sheet_pdf, name="pdf"),
    path("deals/<int:deal_id>/edit/", never_cache(views.deal_edit), name="deal_edit"),
    path("deals/<int:deal_id>/delete/", views.deal_delete, name="deal_delete"),
    path("deals/<int:deal_id>/restore/", views.deal_restore, name="deal_restore"),
    path("deals/<int:deal_id>/undo/", views.deal_undo, name="deal_undo"),
    path("deals/<int:deal_id>/history/", views.deal_history, name="deal_history"),
]

# Under a club's address (the ``clubs`` namespace: the site's URLconf puts them there).
club_urlpatterns: list[URLPattern] = [
    path("<slug:slug>/", views.club_detail, name="detail"),
    path("<slug:slug>/games/new/", views.game_new, name="game_new"),
]
