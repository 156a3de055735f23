"""Writes of the clubs: clubs, players, members, invitations and accounts, house rules.

Each runs in one transaction; the pages and the API call the same functions, and the rules
about names and roles are checked here, once: a club's name is unique, a club's players are
shown under different labels, its rule sets have different names, and a club keeps at least
one organiser. Nobody is made a member, and no account plays as a player, without its holder
accepting an invitation; only a player's own club invites someone to play as him. A broken
rule raises ``Refusal`` (``tarot_scores.core.errors``) on the field the pages and the API
name the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tarot_scores import scoring
from tarot_scores.clubs import selectors
from tarot_scores.clubs.models import (
    Club,
    HouseRules,
    Invitation,
    Membership,
    Player,
    label_key,
)
from tarot_scores.clubs.roster import (
    LINES_MAX,
    LineProblem,
    Lookalikes,
    PastedPlayer,
    Roster,
    looks_like_player,
    roster_read,
)
from tarot_scores.core.accounts import address_proved, check_email_confirmed
from tarot_scores.core.actors import Actor, signed_in
from tarot_scores.core.errors import WHOLE, Code, Reason, Refusal
from tarot_scores.core.kinds import KINDS, TAROT
from tarot_scores.core.names import check_name
from tarot_scores.core.results import results_changed


def _club_name_taken() -> Refusal:
    return Refusal.on("name", Code.CLUB_NAME_TAKEN, _("A club with this name already exists."))


OTHER_GAMES = [kind for kind, _label in KINDS if kind != TAROT]


@transaction.atomic
def club_games_set(*, club: Club, other_games: Sequence[str]) -> Club:
    """Which games besides tarot the club offers for a new game. Games already played keep
    their score sheets and statistics whatever is offered. ``Refusal`` on ``other_games`` for a
    game the site does not keep."""
    unknown = [kind for kind in other_games if kind not in OTHER_GAMES]
    if unknown:
        raise Refusal.on(
            "other_games",
            Code.GAME_UNKNOWN,
            _("Choose among: %(games)s.") % {"games": ", ".join(OTHER_GAMES)},
        )
    club.other_games = [kind for kind in OTHER_GAMES if kind in other_games]
    club.save(update_fields=["other_games"])
    # The leaderboard offers the games the club plays: its cached pages are drawn again.
    results_changed(club_id=club.pk)
    return club


@transaction.atomic
def club_create(*, name: str, by: Actor, public: bool = True) -> Club:
    """A new club; its creator becomes its organiser. ``Refusal`` on ``name`` if another club
    has this name (whatever its case); ``email_unconfirmed`` for an account that signed up and
    has not yet confirmed its e-mail address."""
    check_email_confirmed(signed_in(by))
    name = check_name(name)
    if selectors.club_name_taken(name=name):
        raise _club_name_taken()
    base = slugify(name)[:50] or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug, public=public)
    except IntegrityError:
        # The same name created at the same instant by someone else (or only the same slug:
        # then the error stands, and trying again picks another).
        if selectors.club_name_taken(name=name):
            raise _club_name_taken() from None
        raise
    user = signed_in(by)
    if user is not None:
        Membership.objects.create(club=club, user=user, role=Membership.Role.ORGANISER)
    return club


@transaction.atomic
def player_create(
    *, club: Club, name: str, nickname: str = "", licence: str = "", user: Any = None
) -> Player:
    """A new player whose own club is ``club``. Score sheets name players by their label (the
    nickname, or else the name): ``Refusal`` on that field if one of the club's players already
    has it."""
    name, nickname = check_name(name), check_name(nickname, field="nickname")
    label = nickname or name
    field = "nickname" if nickname else "name"
    if label and selectors.player_label_taken(club=club, label=label):
        raise _label_taken(label, field)
    try:
        # A savepoint: the same name created at the same moment by another request is caught
        # by the database (player_label_unique_in_club), and the caller's transaction goes on.
        with transaction.atomic():
            player = Player.objects.create(
                name=name, nickname=nickname, licence=licence.strip(), user=user, club=club
            )
    except IntegrityError:
        if not Player.objects.filter(club=club, label_key=label_key(name, nickname)).exists():
            raise  # another rule (the account already linked): not a name taken
        raise _label_taken(label, field) from None
    player.clubs.add(club)
    return player


def _label_taken(label: str, field: str) -> Refusal:
    return Refusal.on(
        field,
        Code.PLAYER_LABEL_TAKEN,
        _("A player of this club is already called “%(label)s”: add a nickname.")
        % {"label": label},
    )


def player_names_check(*, player: Player, name: str, nickname: str) -> tuple[str, str]:
    """The name and nickname as they would be stored (stripped), by ``player_create``'s rule:
    no control character, and no other player of his own club under the same label.
    ``Refusal`` on ``name`` or ``nickname`` otherwise."""
    name, nickname = check_name(name), check_name(nickname, field="nickname")
    label = nickname or name
    club = player.club
    if (
        club is not None
        and label
        and selectors.player_label_taken(club=club, label=label, other_than=player.pk)
    ):
        raise _label_taken(label, "nickname" if nickname else "name")
    return name, nickname


@transaction.atomic
def player_rename(*, player: Player, name: str, nickname: str) -> Player:
    """Change a player's name and nickname (``player_names_check``'s rule). Every results page
    shows his label, so the results version of every club he plays in moves in the same
    transaction: the cached standings, projector and leaderboards show the new name at once."""
    name, nickname = player_names_check(player=player, name=name, nickname=nickname)
    try:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(
                name=name, nickname=nickname, label_key=label_key(name, nickname)
            )
    except IntegrityError:
        # Another player of the club took the label between the check and the write.
        raise _label_taken(nickname or name, "nickname" if nickname else "name") from None
    player.name, player.nickname = name, nickname
    clubs = set(player.clubs.values_list("pk", flat=True))
    if player.club_id is not None:
        clubs.add(player.club_id)
    for club_id in sorted(clubs):
        results_changed(club_id=club_id)
    return player


@transaction.atomic
def membership_set(*, club: Club, user: Any, role: str) -> Membership:
    """Give ``user`` this role in the club. ``Refusal`` on ``role`` when that would leave the
    club without an organiser."""
    if role != Membership.Role.ORGANISER:
        # Locked, so that two organisers stepping down at once cannot both succeed.
        organisers = list(
            Membership.objects.select_for_update()
            .filter(club=club, role=Membership.Role.ORGANISER)
            .values_list("user_id", flat=True)
        )
        if organisers == [user.pk]:
            raise Refusal.on("role", Code.LAST_ORGANISER, _("A club needs at least one organiser."))
    membership, _created = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


def _check_own_player(*, club: Club, player: Player | None, user: Any) -> None:
    """Only the player's own club proposes an account for him, and only while he has none (or
    has this one): a guest entry in another club's tournament gives that club no say."""
    if player is None:
        return
    if player.club_id != club.pk:
        raise Refusal.on(
            "player",
            Code.NOT_OWN_PLAYER,
            _("%(player)s is not one of this club's own players: only his club links an account.")
            % {"player": player.label},
        )
    if player.user_id is not None and (user is None or player.user_id != user.pk):
        raise Refusal.on(
            "player",
            Code.PLAYER_HAS_ACCOUNT,
            _("%(player)s already plays with another account.") % {"player": player.label},
        )


@transaction.atomic
def invitation_create(
    *,
    club: Club,
    by: Actor,
    role: str = "",
    user: Any = None,
    email: str = "",
    player: Player | None = None,
) -> Invitation:
    """An organiser's invitation: to join the club with ``role`` (empty: someone already a
    member), to play as ``player`` (one of the club's own players), or both. ``user`` is the
    account it is for, or None for an ``email`` without an account yet. Nothing changes until
    the holder accepts (``invitation_accept``); the caller mails the link to the holder.

    ``Refusal`` on ``user`` if the account is a member already and a role is asked, on
    ``player`` if he is not one of the club's own players or already has another account, on
    ``email`` if the invitation has nowhere to go."""
    if role and user is not None and Membership.objects.filter(club=club, user=user).exists():
        raise Refusal.on(
            "user",
            Code.ALREADY_MEMBER,
            _("%(name)s is already a member: change their role in the list.")
            % {"name": user.get_username()},
        )
    _check_own_player(club=club, player=player, user=user)
    email = (email or (user.email if user is not None else "") or "").strip()
    if user is None and not email:
        raise Refusal.on("email", Code.EMAIL_MISSING, _("Enter the e-mail address to invite."))
    return Invitation.objects.create(
        club=club,
        user=user,
        email=email,
        role=role,
        player=player,
        created_by=signed_in(by),
    )


def invitation_expired() -> Refusal:
    return Refusal.on(
        WHOLE,
        Code.INVITATION_EXPIRED,
        _("This invitation has expired: ask the club's organisers for a new one."),
    )


def _invitation_refusal() -> Refusal:
    return Refusal.on(
        WHOLE,
        Code.INVITATION_ANSWERED,
        _("This invitation has already been answered or was cancelled."),
    )


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: Any) -> Invitation:
    """The holder, signed in as ``user``, accepts: he becomes a member with the role asked (a
    member already keeps his role) and plays as the player proposed (an account plays as one
    player: a link it had to another player is undone, by its holder's own choice).

    ``Refusal`` if the invitation is no longer pending, is for another account, or the player
    has meanwhile been given another account or is no longer the club's own."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.is_expired:
        raise invitation_expired()
    if not invitation.is_pending:
        raise _invitation_refusal()
    if user is None or not user.is_authenticated:
        raise Refusal.on(WHOLE, Code.SIGN_IN_FIRST, _("Sign in to answer this invitation."))
    if invitation.user_id is not None and invitation.user_id != user.pk:
        raise Refusal.on(
            WHOLE,
            Code.INVITATION_OTHER_ACCOUNT,
            _("This invitation is for another account."),
        )
    club = invitation.club
    player = (
        Player.objects.select_for_update().get(pk=invitation.player_id)
        if invitation.player_id
        else None
    )
    _check_own_player(club=club, player=player, user=user)
    if invitation.role and not Membership.objects.filter(club=club, user=user).exists():
        Membership.objects.create(club=club, user=user, role=invitation.role)
    if player is not None:
        player_link_user(player=player, user=user)
    invitation.user = user
    invitation.status = Invitation.Status.ACCEPTED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["user", "status", "answered_at"])
    return invitation


@transaction.atomic
def invitation_close(*, invitation: Invitation, status: str) -> Invitation:
    """Decline (the holder) or cancel (an organiser) a pending invitation (an expired one
    too: the organisers' list keeps it until then)."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.status != Invitation.Status.PENDING:
        raise _invitation_refusal()
    invitation.status = status
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    return invitation


@transaction.atomic
def membership_update(*, membership: Membership, role: str) -> Membership:
    """Change a member's role. ``Refusal`` on ``role`` for the club's last organiser stepping
    down. Which player he plays as changes through an invitation he accepts."""
    return membership_set(club=membership.club, user=membership.user, role=role)


@transaction.atomic
def player_unlink(*, club: Club, player: Player) -> Player:
    """The club's organisers take the account off one of the club's own players (the holder
    plays as nobody there any more). ``Refusal`` on ``player`` for another club's player."""
    if player.club_id != club.pk:
        raise Refusal.on(
            "player",
            Code.NOT_OWN_PLAYER,
            _("%(player)s is not one of this club's own players: only his club links an account.")
            % {"player": player.label},
        )
    return player_link_user(player=player, user=None)


@transaction.atomic
def user_create(*, username: str, password: str, email: str) -> Any:
    """An account made by the holder of an invitation sent to ``email``, who chose its name
    and password (the form checked both)."""
    user = get_user_model()(username=username, email=email.strip().lower())
    user.set_password(password)
    user.save()
    address_proved(user=user, email=email)
    return user


@transaction.atomic
def player_link_user(*, player: Player, user: Any) -> Player:
    """Make ``user`` the account that plays as ``player`` (None: no account).

    An account plays as one player, so a link it had to another player is undone. Only the
    acceptance of an invitation (``invitation_accept``) and the player's own club
    (``player_unlink``) call it on the site.
    """
    if user is not None:
        Player.objects.filter(user=user).exclude(pk=player.pk).update(user=None)
    player.user = user
    player.save(update_fields=["user"])
    return player


@transaction.atomic
def house_rules_save(
    *,
    club: Club,
    name: str,
    based_on: str,
    rules: scoring.RuleSet,
    house_rules: HouseRules | None = None,
) -> HouseRules:
    """Create or change a club's rule set. Only the parameters that differ from the preset are
    kept; games already begun keep the rules they were frozen with. ``Refusal`` on ``name`` if
    another of the club's rule sets has this name (whatever its case)."""
    name = check_name(name)
    other_than = house_rules.pk if house_rules is not None else None
    if selectors.house_rules_name_taken(club=club, name=name, other_than=other_than):
        raise Refusal.on(
            "name",
            Code.RULE_SET_NAME_TAKEN,
            _("The club already has a rule set with this name."),
        )
    preset = scoring.PRESETS[based_on].to_mapping()
    house_rules = house_rules or HouseRules(club=club)
    house_rules.name = name
    house_rules.based_on = based_on
    house_rules.parameters = {
        key: value
        for key, value in rules.to_mapping().items()
        if key != "name" and value != preset[key]
    }
    house_rules.save()
    return house_rules


def players_paste_check(*, club: Club, text: str) -> Roster:
    """What pasting ``text`` into the club's players would do (``clubs.roster``), with one more
    problem per line whose label is already one of the club's players. Reads the club's labels
    once; stores nothing."""
    roster = roster_read(text)
    members = list(club.players.values_list("name", "nickname"))
    taken = {(nickname or name).casefold() for name, nickname in members}
    # A line that reads like one of the club's players (accents and case aside) is noted.
    alike: Lookalikes[tuple[str, str]] = Lookalikes()
    for name, nickname in members:
        alike.add(name, nickname, (name, nickname))
    kept: list[PastedPlayer] = []
    for player in roster.players:
        found = alike.like(player.name, player.nickname)
        if found is not None and player.line not in roster.notes:
            roster.notes[player.line] = looks_like_player(*found)
        if player.label.casefold() in taken:
            roster.problems.append(
                LineProblem(
                    player.line,
                    player.label,
                    _("A player of this club is already called “%(label)s”: add a nickname.")
                    % {"label": player.label},
                )
            )
        else:
            kept.append(player)
    roster.players = kept
    roster.problems.sort(key=lambda problem: problem.line)
    return roster


def paste_refusal(roster: Roster) -> Refusal:
    """Why a pasted list cannot be added as a whole (one reason per bad line)."""
    if roster.too_long:
        return Refusal.on(
            "players",
            Code.PASTE_TOO_LONG,
            _("At most %(max)d players at once.") % {"max": LINES_MAX},
        )
    if not roster.problems:
        return Refusal.on("players", Code.PASTE_EMPTY, _("Paste at least one name."))
    return Refusal(
        {
            "players": [
                Reason(
                    Code.PASTE_LINE,
                    _("Line %(line)d (%(text)s): %(message)s")
                    % {"line": p.line, "text": p.text, "message": p.message},
                )
                for p in roster.problems
            ]
        }
    )


@transaction.atomic
def players_paste(*, club: Club, text: str) -> list[Player]:
    """Add every player of a pasted list to the club, or none: ``Refusal`` on ``players`` with
    one reason per bad line (``players_paste_check``) and nothing stored. The club row is locked
    so that two organisers pasting the same names at once cannot both add them."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    roster = players_paste_check(club=club, text=text)
    if not roster.ok:
        raise paste_refusal(roster)
    created = Player.objects.bulk_create(
        Player(name=p.name, nickname=p.nickname, licence=p.licence, club=club)
        for p in roster.players
    )
    club.players.add(*created)
    return created
