"""Tokens for the API: swap a username and password for a token to send as
``Authorization: Token <key>`` (DRF's ``authtoken``; one token per account, kept until revoked
in the admin).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.base import BAD_BODY, NOT_JSON, TOO_LARGE
from tarot_scores.api.calculator import AlwaysJSON, DealJSONParser, refusal_as_field_errors
from tarot_scores.core.signin import forget_failures


class TokenView(ObtainAuthToken):
    """DRF's token view behind the calculator's guarded JSON parser (so no body is a 500)."""

    parser_classes = (DealJSONParser,)
    content_negotiation_class = AlwaysJSON

    def get_exception_handler(self) -> Any:
        return refusal_as_field_errors

    @extend_schema(
        operation_id="auth_token",
        summary="Get an API token",
        description="Send a username and password as JSON; the answer is the account's token "
        "(the same one each time). Send it as `Authorization: Token <key>`.",
        tags=["auth"],
        auth=[],
        request=AuthTokenSerializer,
        responses={
            200: inline_serializer("TokenAnswer", {"token": serializers.CharField()}),
            400: BAD_BODY,
            413: TOO_LARGE,
            415: NOT_JSON,
        },
        examples=[
            OpenApiExample(
                "sign_in", value={"username": "olga", "password": "…"}, request_only=True
            ),
            OpenApiExample(
                "token",
                value={"token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"},
                response_only=True,
                status_codes=["200"],
            ),
            OpenApiExample(
                "wrong_password",
                value={"non_field_errors": ["Unable to log in with provided credentials."]},
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        response = super().post(request, *args, **kwargs)
        # Signed in (a refusal raised above): as on the login page, the account's count of
        # failed sign-ins starts again (the token view does not send Django's login signal).
        data = request.data if isinstance(request.data, dict) else {}
        forget_failures(username=str(data.get("username", "")))
        return response
