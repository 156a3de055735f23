"""A table's private link: no account needed, that table's deals only (entry, preview,
correction, undo, who holds the phone, confirmation and disagreement, the poll that keeps the
table's phones in step), and a player's card's personal link.

The link's pages are never kept by the browser (``table_sync.fresh_page``), and a replaced
link's token answers with the page saying so (``table_sync.replaced_link_answered``)."""

from collections.abc import Callable

from django.http import HttpResponseBase
from django.urls import URLPattern, URLResolver, path

from tournaments.views import cards, table_entry, table_sync


def _link(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    return table_sync.replaced_link_answered(table_sync.fresh_page(view))


urlpatterns: list[URLPattern | URLResolver] = [
    # A table's private link: no account needed, that table's deals only.
    path("t/<str:token>/", _link(table_entry.table_entry), name="table_entry"),
    path("t/<str:token>/preview/", _link(table_entry.table_preview), name="table_preview"),
    path(
        "t/<str:token>/deals/<int:deal_id>/",
        _link(table_entry.table_deal_edit),
        name="table_deal_edit",
    ),
    path(
        "t/<str:token>/deals/<int:deal_id>/undo/",
        _link(table_entry.table_deal_undo),
        name="table_deal_undo",
    ),
    path("t/<str:token>/me/", _link(table_entry.table_holder), name="table_holder"),
    path(
        "t/<str:token>/deals/<int:deal_id>/confirm/",
        _link(table_entry.table_deal_confirm),
        name="table_deal_confirm",
    ),
    path(
        "t/<str:token>/deals/<int:deal_id>/dispute/",
        _link(table_entry.table_deal_dispute),
        name="table_deal_dispute",
    ),
    # What the table's other phones did, for this phone to show (ETag'd: 304 while nothing did).
    path("t/<str:token>/state/", table_sync.table_poll, name="table_poll"),
    # A player's card: its personal link proves his own phone as him (tournaments.play.cards).
    path("card/<str:token>/", cards.player_card, name="player_card"),
]
