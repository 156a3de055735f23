"""People reads: pairs kept apart, clashes, byes, replaced rounds and substitutes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tarot_scores.clubs.models import Player
from tarot_scores.games.models import Deal, Seat
from tournaments.models import (
    ApartPair,
    Bye,
    Entry,
    Round,
    Substitution,
    Tournament,
)
from tournaments.rules import maybe_table


def apart_pairs(tournament: Tournament) -> set[frozenset[int]]:
    """The pairs of players (player ids) who must never share a table: the organiser's pairs
    (teammates are kept apart through their team). One query."""
    rows = ApartPair.objects.filter(tournament=tournament).values_list(
        "first__player_id", "second__player_id"
    )
    return {frozenset(pair) for pair in rows}


def apart_pairs_listed(*, tournament: Tournament) -> list[ApartPair]:
    """The pairs with their players and reasons, in the order they were added (one query)."""
    return list(
        ApartPair.objects.filter(tournament=tournament).select_related(
            "first__player", "second__player", "created_by"
        )
    )


@dataclass(frozen=True)
class Clash:
    """Two players kept apart (teammates, or a pair) seated at one table of a round."""

    table: int
    players: tuple[str, str]
    reason: str  # the pair's reason, or the team's name


def round_clashes(*, round_: Round) -> list[Clash]:
    """The pairs kept apart who share a table in this round as it is seated now (after swaps
    and substitutions too): three queries."""
    seats = Seat.objects.filter(game__tournament_table__round=round_).values_list(
        "game__tournament_table__number", "player_id", "player__name", "player__nickname"
    )
    tables: dict[int, list[int]] = defaultdict(list)
    names: dict[int, str] = {}
    for number, pid, name, nickname in seats:
        tables[number].append(pid)
        names[pid] = nickname or name
    by_team: dict[str, list[int]] = defaultdict(list)
    for pid, team in Entry.objects.filter(
        tournament_id=round_.tournament_id, team__isnull=False, player_id__in=list(names)
    ).values_list("player_id", "team__name"):
        by_team[team].append(pid)
    pairs: dict[frozenset[int], str] = {}
    for team, members in by_team.items():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                pairs[frozenset({a, b})] = _("team %(name)s") % {"name": team}
    for a, b, reason in ApartPair.objects.filter(tournament_id=round_.tournament_id).values_list(
        "first__player_id", "second__player_id", "reason"
    ):
        pairs.setdefault(frozenset({a, b}), reason)
    clashes: list[Clash] = []
    for number, players in sorted(tables.items()):
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                why = pairs.get(frozenset({a, b}))
                if why is not None:
                    clashes.append(Clash(number, (names[a], names[b]), why))
    return clashes


def round_byes(*, round_: Round) -> list[Bye]:
    """Who sat this round out, by name (one query)."""
    return sorted(
        Bye.objects.filter(round=round_).select_related("entry__player"),
        key=lambda bye: bye.entry.player.label.casefold(),
    )


def bye_points(
    tournament: Tournament, player_ids: Collection[int] | None = None
) -> dict[int, dict[int, int]]:
    """player id -> round number -> the points of his bye there (one query)."""
    rows = Bye.objects.filter(round__tournament=tournament)
    if player_ids is not None:
        rows = rows.filter(entry__player_id__in=player_ids)
    points: dict[int, dict[int, int]] = defaultdict(dict)
    for pid, number, value in rows.values_list("entry__player_id", "round__number", "points"):
        points[pid][number] = value
    return points


def replaced_rounds(
    tournament: Tournament, player_ids: Collection[int] | None = None
) -> dict[int, set[int]]:
    """player id -> the rounds where a substitute took over his seat: he keeps that round's
    cell (the deals before) though he is no longer seated there (one query)."""
    rows = Substitution.objects.filter(round__tournament=tournament)
    if player_ids is not None:
        rows = rows.filter(replaced__player_id__in=player_ids)
    out: dict[int, set[int]] = defaultdict(set)
    for pid, number in rows.values_list("replaced__player_id", "round__number"):
        out[pid].add(number)
    return out


def present_in_round(round_: Round, player_ids: Collection[int]) -> tuple[dict[int, int], set[int]]:
    """Of these players, those who count in this round without a seat there: bye points by
    player, and the players a substitute replaced (two queries)."""
    byes = dict(
        Bye.objects.filter(round=round_, entry__player_id__in=player_ids).values_list(
            "entry__player_id", "points"
        )
    )
    replaced = set(
        Substitution.objects.filter(round=round_, replaced__player_id__in=player_ids).values_list(
            "replaced__player_id", flat=True
        )
    )
    return byes, replaced


def round_substitutions(*, round_: Round) -> list[Substitution]:
    """The round's substitutions, in the order they were made (one query)."""
    return list(
        Substitution.objects.filter(round=round_).select_related(
            "table", "replaced__player", "substitute__player", "by"
        )
    )


def substitute_labels(*, tournament: Tournament) -> dict[int, str]:
    """substitute's player id -> the name of the player he replaced (one query)."""
    return {
        pid: nickname or name
        for pid, name, nickname in Entry.objects.filter(
            tournament=tournament, substitute_for__isnull=False
        ).values_list(
            "player_id", "substitute_for__player__name", "substitute_for__player__nickname"
        )
    }


def seats_when_played(deal: Deal, now: list[Player]) -> list[Player] | None:
    """The players of a tournament table's seats when ``deal`` was played (registered with
    ``games.seats.on_deal_seats``): a substitute who took a seat over after the deal gives it
    back to the player he replaced, so correcting that deal scores its own players (the
    replaced player's scores stay his, apart from the substitute's). None where no seat of the
    game changed after the deal (one query, none for a club's own game)."""
    if not maybe_table(deal.game):
        return None  # a tournament table always has a set length: no query for a club game
    later = (
        Substitution.objects.filter(table__game_id=deal.game_id, at__gte=deal.created_at)
        .select_related("replaced__player", "substitute__player")
        .order_by("-at", "-pk")
    )
    then = list(now)
    changed = False
    for substitution in later:  # the latest first: undone one after the other
        for place, player in enumerate(then):
            if player.pk == substitution.substitute.player_id:
                then[place] = substitution.replaced.player
                changed = True
    return then if changed else None
