"""Tokens for the API: swap a username and password for a new token to send as
``Authorization: Token <key>``. The key is in this answer only: the site keeps its SHA-256
(``tarot_scores.api.tokens``). The account lists and revokes its own tokens here
(``auth/tokens/``) and on its tokens page; an administrator in the admin.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tarot_scores.api.base import (
    BAD_BODY,
    NOT_FOUND,
    NOT_JSON,
    TOO_LARGE,
    UNAUTHENTICATED,
    ClubAPIView,
    refusal,
)
from tarot_scores.api.calculator import AlwaysJSON, DealJSONParser
from tarot_scores.api.problems import ProblemAnswers
from tarot_scores.api.tokens import MAX_TOKENS, token_issue, token_revoke, tokens_of
from tarot_scores.core.errors import Code
from tarot_scores.core.problems import problem_body
from tarot_scores.core.signin import forget_failures


class TokenView(ProblemAnswers, APIView):
    """A username and password for a new token, behind the calculator's guarded JSON parser
    (so no body is a 500). The body is the only credential: a header is not looked at."""

    authentication_classes = []
    permission_classes = []
    throttle_classes = []
    parser_classes = [DealJSONParser]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = AlwaysJSON

    @extend_schema(
        operation_id="auth_token",
        summary="Get an API token",
        description="Send a username and password as JSON; the answer is a new token for the "
        "account, shown this once (the site keeps only its SHA-256). Send it as "
        "`Authorization: Token <key>`. An account holds one token per device or script, at "
        f"most {MAX_TOKENS}: one more revokes the oldest.",
        tags=["auth"],
        auth=[],
        request=AuthTokenSerializer,
        responses={
            200: inline_serializer("TokenAnswer", {"token": serializers.CharField()}),
            400: BAD_BODY,
            413: TOO_LARGE,
            415: NOT_JSON,
            429: refusal(
                "Too many failed sign-ins for this account or from this client (code "
                "`locked_out`): when to try again is in the Retry-After header, in seconds."
            ),
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
                value=problem_body(
                    status=400,
                    code=Code.AUTHORIZATION,
                    errors=[
                        (None, Code.AUTHORIZATION, "Unable to log in with provided credentials.")
                    ],
                ),
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        # Signed in (a refusal raised above): as on the login page, the account's count of
        # failed sign-ins starts again (the token view does not send Django's login signal).
        user = serializer.validated_data["user"]
        forget_failures(username=user.get_username())
        return Response({"token": token_issue(user=user)})


class TokenSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    prefix = serializers.CharField(read_only=True, help_text="The key's first 8 characters.")
    created_at = serializers.DateTimeField(read_only=True, help_text="When it was issued.")


class TokenListView(ClubAPIView):
    """The signed-in account's own tokens (never their keys)."""

    permission_classes = [IsAuthenticated]
    serializer_class = TokenSerializer
    paged = True

    @extend_schema(
        operation_id="auth_tokens_list",
        summary="List my API tokens",
        description="The tokens of the account signed in, the newest first: id, the key's "
        "first characters and when it was issued (the key itself is never shown again). A "
        "password changed or reset revokes them all.",
        tags=["auth"],
        responses={200: TokenSerializer(many=True), 401: UNAUTHENTICATED, 404: NOT_FOUND},
    )
    def get(self, request: Request) -> Response:
        return self.page_of(list(TokenSerializer(tokens_of(user=request.user), many=True).data))


class TokenDetailView(ClubAPIView):
    """Revoke one of the signed-in account's tokens."""

    permission_classes = [IsAuthenticated]
    serializer_class = TokenSerializer

    @extend_schema(
        operation_id="auth_tokens_revoke",
        summary="Revoke one of my API tokens",
        description="The token stops working at once (the one this request is signed with "
        "too). Another account's token answers 404, as an unknown one does.",
        tags=["auth"],
        responses={204: None, 401: UNAUTHENTICATED, 404: NOT_FOUND},
    )
    def delete(self, request: Request, pk: int) -> Response:
        if not token_revoke(user=request.user, token_id=pk):
            raise NotFound()
        return Response(status=status.HTTP_204_NO_CONTENT)
