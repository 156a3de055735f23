"""The change feed over the API (docs/api.md, "The change feed"): ``?updated_since=<cursor>``
on the lists of games, deals and tournaments (and the feed of standings, which is nothing
else) answers the items changed after the cursor, oldest change first, each once and as it is
now, in the page every list answers, plus ``cursor``: what to send next time.

A feed is paged by its cursor, not by page numbers: ``next`` is the same address with the
cursor of the page's last item (null when nothing more had changed), ``previous`` is null, and
``?page=`` is refused with it. The positions and their order are ``core.feed``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from tarot_scores.api.paging import Pages
from tarot_scores.core import feed
from tarot_scores.core.errors import Code, Refusal

UPDATED_SINCE_QUERY = OpenApiParameter(
    feed.UPDATED_SINCE,
    str,
    description="Read the list as a change feed: the items changed after this cursor (the "
    "`cursor` of an earlier answer), oldest change first, each once and as it is now; empty "
    "(or `0`) for every item from the beginning. A deleted deal comes with `deleted: true`. "
    "Follow `next` for the rest; keep the answer's `cursor` for next time. Not with `page`. "
    "A cursor this site did not give: 400 `cursor_invalid`.",
)

CURSOR_SCHEMA: dict[str, Any] = {
    "type": "string",
    "nullable": True,
    "description": "With `updated_since`: the cursor to send as `updated_since` next time (the "
    "position of the last item of this page; the cursor sent when nothing changed). Null "
    "for a list read without `updated_since`.",
    "example": "MS4xMjM0NS42Nzg5MC40Mg",
}


class FeedPages(Pages):
    """The page of a list that is also a change feed: every list's members, and ``cursor``."""

    def get_paginated_response(self, data: Any) -> Response:
        response = super().get_paginated_response(data)
        response.data["cursor"] = None
        return response

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paged: dict[str, Any] = super().get_paginated_response_schema(schema)
        paged["properties"]["cursor"] = CURSOR_SCHEMA
        paged["required"] = [*paged.get("required", []), "cursor"]
        return paged


class FeedOnlyPages(FeedPages):
    """The page of a list that is only a change feed (the feed of standings): paged by its
    cursor, so ``page`` is not one of its parameters."""

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        return [p for p in super().get_schema_operation_parameters(view) if p["name"] != "page"]


def asks_feed(view: GenericAPIView) -> bool:  # type: ignore[type-arg]
    return feed.UPDATED_SINCE in view.request.query_params


def feed_answer(
    view: GenericAPIView,  # type: ignore[type-arg]
    queryset: QuerySet[Any],
    serialize: Callable[[Any], Any],
    *,
    prefix: str = "feed",
    bounded: bool = True,
) -> Response:
    """One page of the changes of ``queryset`` after the request's cursor.

    ``prefix`` names the position's columns (or annotations): ``feed_xact`` and ``feed_seq``.
    ``bounded``: serve only the changes of transactions below the reader's snapshot's
    ``xmin`` (``core.feed``); False where ``queryset`` has applied that bound already."""
    request = view.request
    after = feed.read_cursor(request.query_params.get(feed.UPDATED_SINCE, ""))
    if "page" in request.query_params:
        raise Refusal.on(
            "page",
            Code.PAGE_WITH_CURSOR,
            gettext("A change feed is read by its cursor, not by page: follow “next”."),
        )
    paginator = view.paginator
    assert isinstance(paginator, Pages)
    size = paginator.get_page_size(request)
    below = feed.served_below() if bounded else None
    changed = feed.changed_after(queryset, after, prefix=prefix, below=below)
    rows = list(changed[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    cursor = feed.cursor_after(rows, after, prefix)
    return Response(
        {
            "count": changed.count() if more else len(rows),
            "next": (
                replace_query_param(request.build_absolute_uri(), feed.UPDATED_SINCE, cursor)
                if more
                else None
            ),
            "previous": None,
            "cursor": cursor,
            "results": serialize(rows),
        }
    )
