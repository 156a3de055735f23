"""A table's private link: no account needed, that table's deals only (entry, preview,
correction, undo, who holds the phone, confirmation and disagreement), and a player's card's
personal link."""

from django.urls import URLPattern, URLResolver, path

from tournaments.views import cards, table_entry

urlpatterns: list[URLPattern | URLResolver] = [
    # A table's private link: no account needed, that table's deals only.
    path("t/<str:token>/", table_entry.table_entry, name="table_entry"),
    path("t/<str:token>/preview/", table_entry.table_preview, name="table_preview"),
    path(
        "t/<str:token>/deals/<int:deal_id>/",
        table_entry.table_deal_edit,
        name="table_deal_edit",
    ),
    path(
        "t/<str:token>/deals/<int:deal_id>/undo/",
        table_entry.table_deal_undo,
        name="table_deal_undo",
    ),
    path("t/<str:token>/me/", table_entry.table_holder, name="table_holder"),
    path(
        "t/<str:token>/deals/<int:deal_id>/confirm/",
        table_entry.table_deal_confirm,
        name="table_deal_confirm",
    ),
    path(
        "t/<str:token>/deals/<int:deal_id>/dispute/",
        table_entry.table_deal_dispute,
        name="table_deal_dispute",
    ),
    # A player's card: its personal link proves his own phone as him (tournaments.play.cards).
    path("card/<str:token>/", cards.player_card, name="player_card"),
]
