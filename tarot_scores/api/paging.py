"""How every list of the API is paged: ``{"count", "next", "previous", "results"}``, 50 a page
by default, ``?page_size=`` from 1 to 200 (anything else is 400), ``?page=`` past the end 404."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from tarot_scores.core.errors import Code

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200


class Pages(PageNumberPagination):
    """DRF's page numbers (``PAGE_SIZE`` a page by default, 50), with a bounded ``page_size``."""

    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return int(self.page_size or DEFAULT_PAGE_SIZE)
        if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= MAX_PAGE_SIZE):
            message = gettext("Send a whole number from 1 to %(most)s.") % {"most": MAX_PAGE_SIZE}
            raise ValidationError(
                {self.page_size_query_param: [ErrorDetail(message, code=Code.PAGE_SIZE_INVALID)]}
            )
        return int(raw)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_PAGE_SIZE,
                    "default": DEFAULT_PAGE_SIZE,
                }
                parameter["description"] = (
                    f"How many per page: 1 to {MAX_PAGE_SIZE} (default {DEFAULT_PAGE_SIZE})."
                )
        return parameters
