"""The schema's address, ``/api/schema/``: drf-spectacular's view, always in English.

Apart from ``tarot_scores.api.schema`` because drf-spectacular's views import the schema
class named in the settings.
"""

from __future__ import annotations

import json

from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder


class EnglishSchemaView(SpectacularAPIView):
    """The schema, always in English (its titles and descriptions would otherwise follow the
    reader's language, French by default): a generated client's names must not depend on who
    downloaded the schema."""

    def _get_schema_response(self, request: Request) -> Response:
        with translation.override("en"):
            response: Response = super()._get_schema_response(request)  # type: ignore[no-untyped-call]
            # Lazy translations are rendered now, while English is on.
            response.data = json.loads(json.dumps(response.data, cls=JSONEncoder))
        response["Content-Language"] = "en"
        return response
