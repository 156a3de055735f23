"""Writes of the clubs: clubs, players, members and their accounts, house rules.

Each runs in one transaction; the pages and the API call the same functions, and the rules
about names and roles are checked here, once: a club's name is unique, a club's players are
shown under different labels, its rule sets have different names, and a club keeps at least
one organiser. A broken rule raises ``Refusal`` (``tarot_scores.core.errors``) on the field
the pages and the API name the same way."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tarot_scores import scoring
from tarot_scores.clubs import selectors
from tarot_scores.clubs.models import Club, HouseRules, Membership, Player
from tarot_scores.core.actors import Actor, signed_in
from tarot_scores.core.errors import Refusal
from tarot_scores.core.names import check_name


def _club_name_taken() -> Refusal:
    return Refusal.on("name", "club_name_taken", _("A club with this name already exists."))


@transaction.atomic
def club_create(*, name: str, by: Actor, public: bool = True) -> Club:
    """A new club; its creator becomes its organiser. ``Refusal`` on ``name`` if another club
    has this name (whatever its case)."""
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
    """A new player of the club. Score sheets name players by their label (the nickname, or
    else the name): ``Refusal`` on that field if one of the club's players already has it."""
    name, nickname = check_name(name), check_name(nickname, field="nickname")
    label = nickname or name
    if label and selectors.player_label_taken(club=club, label=label):
        raise Refusal.on(
            "nickname" if nickname else "name",
            "player_label_taken",
            _("A player of this club is already called “%(label)s”: add a nickname.")
            % {"label": label},
        )
    player = Player.objects.create(name=name, nickname=nickname, licence=licence.strip(), user=user)
    player.clubs.add(club)
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
            raise Refusal.on("role", "last_organiser", _("A club needs at least one organiser."))
    membership, _created = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


def _check_plays_here(*, club: Club, user: Any, player: Player | None) -> None:
    """An account plays as one player: one of another club's players keeps it, so linking it to
    one of this club's is a ``Refusal`` on ``player`` (moving within the club is fine)."""
    if player is None or user is None:
        return
    own = Player.objects.filter(user=user).first()
    if own is not None and own.pk != player.pk and not own.clubs.filter(pk=club.pk).exists():
        raise Refusal.on(
            "player",
            "plays_elsewhere",
            _("This account already plays as %(player)s at another club.") % {"player": own.label},
        )


@transaction.atomic
def member_add(
    *, club: Club, role: str, user: Any = None, email: str = "", player: Player | None = None
) -> tuple[Membership, bool]:
    """Add someone to a club: an existing account, or a new one for ``email``. ``player`` is the
    club's player they are. Returns the membership and whether the account is new.
    ``Refusal`` on ``user`` if the account is a member already (its role is changed with
    ``membership_update``), on ``player`` if it already plays as another club's player."""
    if user is not None and Membership.objects.filter(club=club, user=user).exists():
        raise Refusal.on(
            "user",
            "already_member",
            _("%(name)s is already a member: change their role in the list.")
            % {"name": user.get_username()},
        )
    _check_plays_here(club=club, user=user, player=player)
    created = user is None
    if user is None:
        user = user_invite(email=email)
    membership = membership_set(club=club, user=user, role=role)
    if player is not None:
        player_link_user(player=player, user=user)
    return membership, created


@transaction.atomic
def membership_update(*, membership: Membership, role: str, player: Player | None) -> Membership:
    """Change a member's role and which of the club's players they are (None: none of them).
    ``Refusal`` on ``role`` for the club's last organiser stepping down, on ``player`` if the
    account already plays as another club's player."""
    _check_plays_here(club=membership.club, user=membership.user, player=player)
    membership = membership_set(club=membership.club, user=membership.user, role=role)
    if player is not None:
        player_link_user(player=player, user=membership.user)
    else:
        for own in Player.objects.filter(user=membership.user, clubs=membership.club):
            player_link_user(player=own, user=None)
    return membership


@transaction.atomic
def user_invite(*, email: str) -> Any:
    """An account for someone an organiser adds by e-mail address. It has no password yet: they
    choose one through a password-reset link."""
    user_model = get_user_model()
    base = slugify(email.split("@")[0])[:140] or "player"
    username, n = base, 1
    while user_model.objects.filter(username__iexact=username).exists():
        n += 1
        username = f"{base}{n}"
    user = user_model(username=username, email=email.strip())
    user.set_unusable_password()
    user.save()
    return user


@transaction.atomic
def player_link_user(*, player: Player, user: Any) -> Player:
    """Make ``user`` the account that plays as ``player`` (None: no account).

    An account plays as one player, so a link it had to another player is undone.
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
            "rule_set_name_taken",
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
