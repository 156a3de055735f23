"""Who may do what in a club.

Organisers manage members and house rules and may correct any deal of their club. Members
create games and enter or correct deals in the games they sit in (through the player linked
to their account). Everyone may read a club that publishes its results. Superusers may do
everything. HTML views and the API ask these same questions.

A game another app runs (a tournament's table) follows that app's rules: it registers a guard
(``game_guards``, also offered as ``games.guards.on_game_access``) that answers before the
club's own rules. The games sit above the clubs: a question about a game is asked of the game
it is given, and this module imports nothing of the games.

Each question takes ``who``: the request (the usual case), an ``Access`` or a bare user. A page
asks several questions about the same club or game: the request's ``Access`` reads each role
and each seat once for the whole request, while a bare user is read afresh for each question.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from rest_framework.request import Request

from tarot_scores.clubs.models import Club, Membership
from tarot_scores.core.hooks import Hook

if TYPE_CHECKING:
    from tarot_scores.games.models import Deal, Game


class Act(StrEnum):
    """What a reader wants to do to a game."""

    ENTER = "enter"  # enter its next deal
    CORRECT = "correct"  # correct, delete or restore one of its deals
    MANAGE = "manage"  # finish it, or reopen it


class GameGuard(Protocol):
    """May ``reader`` (an ``Access``) do ``act`` to ``game``? True or False for a game this
    guard runs, None for any other."""

    def __call__(self, *, reader: Any, game: Game, act: Act) -> bool | None: ...


game_guards: Hook[GameGuard] = Hook("clubs.permissions.game_guards")


def guarded(*, reader: Any, game: Game, act: Act) -> bool | None:
    """The first guard's answer for this game, or None when no guard runs it."""
    return game_guards.first(lambda guard: guard(reader=reader, game=game, act=act))


class Access:
    """One reader's roles in clubs and seats in games, each read at most once."""

    def __init__(self, user: Any) -> None:
        self.user = user
        self._roles: dict[int, str | None] = {}
        self._seated: dict[int, bool] = {}
        self._verdicts: dict[tuple[int, str], bool | None] = {}
        # What other apps' guards read once per request (a game's tournament table...).
        self.memo: dict[Any, Any] = {}

    @property
    def signed_in(self) -> bool:
        return bool(self.user is not None and self.user.is_authenticated)

    def role(self, club: Club) -> str | None:
        if not self.signed_in:
            return None
        if club.pk not in self._roles:
            self._roles[club.pk] = (
                Membership.objects.filter(club=club, user=self.user)
                .values_list("role", flat=True)
                .first()
            )
        return self._roles[club.pk]

    def sits_in(self, game: Game) -> bool:
        if not self.signed_in:
            return False
        if game.pk not in self._seated:
            self._seated[game.pk] = game.seats.filter(player__user=self.user).exists()
        return self._seated[game.pk]

    def verdict(self, game: Game, act: Act) -> bool | None:
        """A guard's answer for this game and act (None: the club's rules decide)."""
        key = (game.pk, act.value)
        if key not in self._verdicts:
            self._verdicts[key] = guarded(reader=self, game=game, act=act)
        return self._verdicts[key]


def access(request: HttpRequest | Request) -> Access:
    """The request's ``Access``, made on first use. The API authenticates its own user (a
    token), so an ``Access`` made for another user of the same request is not reused."""
    found: Access | None = getattr(request, "access", None)
    if found is None or found.user is not request.user:
        found = Access(request.user)
        request.access = found  # type: ignore[union-attr]
    return found


def access_of(who: Any) -> Access:
    """``who`` as an ``Access``: the request's own, or one made for a bare user."""
    return _access(who)


def _access(who: Any) -> Access:
    if isinstance(who, Access):
        return who
    if isinstance(who, HttpRequest | Request):
        return access(who)
    return Access(who)


def is_superuser(who: Any) -> bool:
    user = _access(who).user
    return bool(user is not None and user.is_authenticated and user.is_superuser)


def can_view_club(who: Any, club: Club) -> bool:
    return club.public or is_superuser(who) or _access(who).role(club) is not None


def is_member(who: Any, club: Club) -> bool:
    return is_superuser(who) or _access(who).role(club) is not None


def is_organiser(who: Any, club: Club) -> bool:
    return is_superuser(who) or _access(who).role(club) == Membership.Role.ORGANISER


def can_create_game(who: Any, club: Club) -> bool:
    return is_member(who, club)


def can_add_player(who: Any, club: Club) -> bool:
    return is_member(who, club)


def sits_in(who: Any, game: Game) -> bool:
    return _access(who).sits_in(game)


def _club_enters(reader: Access, game: Game) -> bool:
    if is_organiser(reader, game.club):
        return True
    return is_member(reader, game.club) and reader.sits_in(game)


def can_enter_deals(who: Any, game: Game) -> bool:
    """Organisers of the club; members who sit at the table (a guarded game: its guard)."""
    reader = _access(who)
    ruled = reader.verdict(game, Act.ENTER)
    return ruled if ruled is not None else _club_enters(reader, game)


def can_correct_deal(who: Any, deal: Deal) -> bool:
    """Correct, delete or restore: as for entering (a guarded game: its guard)."""
    reader = _access(who)
    ruled = reader.verdict(deal.game, Act.CORRECT)
    return ruled if ruled is not None else _club_enters(reader, deal.game)


def can_manage_game(who: Any, game: Game) -> bool:
    """Finish or reopen a game: whoever may enter its deals (a guarded game: its guard)."""
    reader = _access(who)
    ruled = reader.verdict(game, Act.MANAGE)
    return ruled if ruled is not None else _club_enters(reader, game)


def club_readable(request: HttpRequest, club: Club) -> None:
    """Private clubs do not exist for outsiders: 404 unless this reader may see ``club``."""
    if not can_view_club(request, club):
        raise Http404


def club_for(request: HttpRequest, slug: str) -> Club:
    """The club, if this reader may see it; otherwise 404, whether or not it exists."""
    club = get_object_or_404(Club, slug=slug)
    club_readable(request, club)
    return club
