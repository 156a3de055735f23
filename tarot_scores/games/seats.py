"""A game's seats as the scoring engine sees them: players by a unique label."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tarot_scores import scoring
from tarot_scores.clubs.models import Player
from tarot_scores.core.hooks import Hook
from tarot_scores.core.kinds import PLAYER_FIELDS, PLAYER_LISTS, TAROT
from tarot_scores.games.models import Deal, Game, Seat


class TableSeats:
    """A game's seats as the scoring engine sees them: a unique label per player."""

    def __init__(self, seats: Sequence[Seat]) -> None:
        self.seats = list(seats)
        self.players = [s.player for s in seats]
        labels: dict[int, str] = {}
        seen: set[str] = set()
        for seat in seats:
            label = seat.player.label
            if label.casefold() in seen:
                label = f"{label} ({seat.position + 1})"
            seen.add(label.casefold())
            labels[seat.player_id] = label
        self.labels = labels
        self.ids = {label: pk for pk, label in labels.items()}

    def dealer(self, number: int) -> Player:
        """Deals pass round the table in seat order: deal 1 is dealt by the first seat."""
        return self.players[(number - 1) % len(self.players)]

    def label(self, value: Any) -> Any:
        """The engine's name for a seated player's id. Anything else (a name, an id from
        another table, true) is passed as ``NotSeated``, which the engine refuses by name."""
        if value is None:
            return None
        if value.__class__ is int and value in self.labels:
            return self.labels[value]
        return NotSeated(value)

    def to_engine(self, game: Game, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The site's payload (players by id) as the scoring contract (players by name)."""
        out: dict[str, Any] = dict(payload)
        out["variant"] = game.variant if game.kind != TAROT else (game.rules.get("name") or "fft")
        out["players"] = list(self.labels.values())
        for key in PLAYER_FIELDS:
            if key in out:
                out[key] = self.label(out[key])
        for key in PLAYER_LISTS:
            if isinstance(out.get(key), list):
                out[key] = [
                    {**item, "player": self.label(item.get("player"))}
                    if isinstance(item, Mapping)
                    else item
                    for item in out[key]
                ]
        if isinstance(out.get("card_points"), Mapping):
            out["card_points"] = {self.label(_as_id(k)): v for k, v in out["card_points"].items()}
        if isinstance(out.get("sides"), list):
            out["sides"] = [
                {**side, "players": [self.label(p) for p in side.get("players", [])]}
                if isinstance(side, Mapping) and isinstance(side.get("players"), list)
                else side
                for side in out["sides"]
            ]
        return out

    def scores_by_id(self, result: scoring.Result) -> dict[int, int]:
        return {self.ids[label]: points for label, points in result.scores.items()}


class NotSeated:
    """What was given where a seated player's id was expected. It equals no name, so the engine
    refuses it ("… is not a player at this table") and quotes it as it was typed."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return str(self.value)


def _as_id(key: Any) -> Any:
    """JSON object keys are strings: "12" names player 12."""
    if isinstance(key, str) and key.isdecimal() and len(key) <= 18:
        return int(key)
    return key


def table_seats(game: Game) -> TableSeats:
    return TableSeats(list(game.seats.select_related("player")))


# Who sat where when a deal was played, where a game's seats changed since (a tournament's
# substitute takes a seat over mid-round): given the deal and the seats' players now, in seat
# order, the players then, or None when nothing changed. Registered at start-up
# (``tournaments.apps``); the games code never imports tournaments.
DealSeatsHook = Callable[[Deal, list[Player]], list[Player] | None]
seats_then: Hook[DealSeatsHook] = Hook("games.seats.seats_then")
on_deal_seats = seats_then.register


def deal_seats(deal: Deal, now: TableSeats | None = None) -> TableSeats:
    """The table as it was when ``deal`` was played: its seats now, with a player who has been
    replaced since back in his seat, so that correcting the deal scores its own players."""
    table = now or table_seats(deal.game)
    then = seats_then.first(lambda hook: hook(deal, list(table.players)))
    if then is None:
        return table
    return TableSeats(
        [
            Seat(game_id=deal.game_id, player=player, position=seat.position)
            for seat, player in zip(table.seats, then, strict=True)
        ]
    )
