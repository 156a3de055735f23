"""Worked examples for the tournament API's documentation: an open of 13 players (tables of 5,
4 and 4), registered, seated and ranked; a knockout of 16 down to a final table."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

CREATE_BODY: dict[str, Any] = {
    "club": 3,
    "name": "Open de printemps",
    "variant": "fft",
    "format": "rounds",
    "rounds": 3,
    "deals_per_round": 8,
    "seating": "mixing",
    "seed": 42,
}
TOURNAMENT: dict[str, Any] = {
    "id": 5,
    "club": 3,
    "name": "Open de printemps",
    "date": "2026-04-11",
    "variant": "fft",
    "house_rules": None,
    "format": "rounds",
    "rounds": 3,
    "deals_per_round": 8,
    "round_minutes": 75,
    "seating": "mixing",
    "seed": 42,
    "five_mode": "sitting_out",
    "allow_threes": False,
    "team_size": 0,
    "qualifiers_per_table": 2,
    "status": "registration",
    "created_at": "2026-04-02T16:05:11.204000Z",
}

CREATE_EXAMPLES = [
    OpenApiExample("open_in_three_rounds", value=CREATE_BODY, request_only=True),
    OpenApiExample(
        "knockout_with_house_rules",
        summary="A knockout under the club's house rules (id 2), the best 2 of each table go on",
        value={
            "club": 3,
            "name": "Coupe du club",
            "variant": 2,
            "format": "knockout",
            "deals_per_round": 6,
            "qualifiers_per_table": 2,
            "date": "2026-05-16",
        },
        request_only=True,
    ),
    OpenApiExample("created", value=TOURNAMENT, response_only=True, status_codes=["201"]),
    OpenApiExample(
        "refused_en",
        summary="Accept-Language: en",
        value={
            "rounds": ["Ensure this value is less than or equal to 50."],
            "seating": ['"circle" is not a valid choice.'],
        },
        response_only=True,
        status_codes=["400"],
    ),
    OpenApiExample(
        "refused_fr",
        summary="The same, in French (the default)",
        value={
            "rounds": ["Assurez-vous que cette valeur est inférieure ou égale à\u00a050."],
            "seating": ["«\u00a0circle\u00a0» n'est pas un choix valide."],
        },
        response_only=True,
        status_codes=["400"],
    ),
]

ENTRY: dict[str, Any] = {
    "id": 61,
    "player": 14,
    "name": "Chloé",
    "checked_in": True,
    "team": None,
    "first_round": 1,
    "withdrawn": False,
    "withdrawn_after": None,
    "registered_at": "2026-04-11T11:42:30.118000Z",
    "series": "s2",
}
ENTRY_EXAMPLES = [
    OpenApiExample(
        "newcomer_by_name",
        summary="A newcomer, checked in on arrival",
        value={"name": "Chloé", "checked_in": True},
        request_only=True,
    ),
    OpenApiExample("club_player", value={"player": 14}, request_only=True),
    OpenApiExample(
        "team_member",
        summary="A team event: the team is created with its first player",
        value={"player": 14, "team": "Les Excuses"},
        request_only=True,
    ),
    OpenApiExample("registered", value=ENTRY, response_only=True, status_codes=["201"]),
    OpenApiExample(
        "already_registered",
        value={"player": ["Chloé is already registered."]},
        response_only=True,
        status_codes=["400"],
    ),
]
ENTRY_UPDATE_EXAMPLES = [
    OpenApiExample("check_in", value={"checked_in": True}, request_only=True),
    OpenApiExample("withdraw", value={"withdrawn": True}, request_only=True),
    OpenApiExample("series", value={"series": "s1"}, request_only=True),
    OpenApiExample(
        "withdrawn",
        summary="Withdrawn after round 2",
        value={**ENTRY, "withdrawn": True, "withdrawn_after": 2},
        response_only=True,
        status_codes=["200"],
    ),
]

ROUND: dict[str, Any] = {
    "number": 1,
    "status": "seated",
    "started_at": None,
    "ends_at": None,
    "closed_at": None,
    "repeats": 0,
    "complete": False,
    "tables": [
        {
            "number": 1,
            "game": 40,
            "players": [14, 21, 9, 17, 12],
            "names": ["Chloé", "Hugo", "Aurélie", "Karim", "Bruno"],
            "entered": 0,
            "goal": 8,
            "pending": 0,
            "disputed": 0,
            "complete": False,
        },
        {
            "number": 2,
            "game": 41,
            "players": [15, 19, 13, 22],
            "names": ["Denis", "Fanny", "Émile", "Inès"],
            "entered": 0,
            "goal": 8,
            "pending": 0,
            "disputed": 0,
            "complete": False,
        },
        {
            "number": 3,
            "game": 42,
            "players": [16, 20, 18, 23],
            "names": ["Élodie", "Gaëlle", "Jules", "Léa"],
            "entered": 0,
            "goal": 8,
            "pending": 0,
            "disputed": 0,
            "complete": False,
        },
    ],
}
ROUND_EXAMPLES = [
    OpenApiExample(
        "seated",
        summary="13 players: a table of 5 (the dealer sits out) and two of 4",
        value=ROUND,
        response_only=True,
        status_codes=["201"],
    ),
    OpenApiExample(
        "still_playing",
        value={"non_field_errors": ["Round 1 is still being played."]},
        response_only=True,
        status_codes=["409"],
    ),
]

ROUND_START_EXAMPLES = [
    OpenApiExample(
        "started",
        summary="The countdown runs from now: swaps are over",
        value={
            **ROUND,
            "status": "playing",
            "started_at": "2026-04-18T12:00:03.512000Z",
            "ends_at": "2026-04-18T13:15:03.512000Z",
        },
        response_only=True,
        status_codes=["200"],
    ),
    OpenApiExample(
        "already_started",
        summary="Started before (or closed): the countdown keeps its start",
        value={"non_field_errors": ["This round has already started."]},
        response_only=True,
        status_codes=["409"],
    ),
]
ROUND_CLOSE_EXAMPLES = [
    OpenApiExample(
        "closed",
        summary="Every table has its 8 deals: the games are finished",
        value={
            **ROUND,
            "status": "closed",
            "started_at": "2026-04-18T12:00:03.512000Z",
            "ends_at": "2026-04-18T13:15:03.512000Z",
            "closed_at": "2026-04-18T13:12:40.087000Z",
            "complete": True,
            "tables": [{**t, "entered": 8, "complete": True} for t in ROUND["tables"]],
        },
        response_only=True,
        status_codes=["200"],
    ),
    OpenApiExample(
        "incomplete",
        value={"non_field_errors": ["Some tables have not entered all their deals yet."]},
        response_only=True,
        status_codes=["409"],
    ),
    OpenApiExample(
        "already_closed",
        value={"non_field_errors": ["This round is already closed."]},
        response_only=True,
        status_codes=["409"],
    ),
]
_TABLE_ONE, _TABLE_TWO, _TABLE_THREE = ROUND["tables"]
ROUND_SWAP_EXAMPLES = [
    OpenApiExample(
        "swap",
        summary="Chloé (table 1, seat 1) and Denis (table 2, seat 1)",
        value={"first": 14, "second": 15},
        request_only=True,
    ),
    OpenApiExample(
        "swapped",
        summary="Each has the other's table and seat",
        value={
            **ROUND,
            "tables": [
                {
                    **_TABLE_ONE,
                    "players": [15, 21, 9, 17, 12],
                    "names": ["Denis", "Hugo", "Aurélie", "Karim", "Bruno"],
                },
                {
                    **_TABLE_TWO,
                    "players": [14, 19, 13, 22],
                    "names": ["Chloé", "Fanny", "Émile", "Inès"],
                },
                _TABLE_THREE,
            ],
        },
        response_only=True,
        status_codes=["200"],
    ),
    OpenApiExample(
        "same_player_twice",
        value={"second": ["Choose two different players."]},
        response_only=True,
        status_codes=["400"],
    ),
    OpenApiExample(
        "after_the_first_deal",
        value={"non_field_errors": ["Players can only be swapped before the round starts."]},
        response_only=True,
        status_codes=["409"],
    ),
    OpenApiExample(
        "not_in_the_round_fr",
        summary="A player not seated in this round, in French (the default)",
        value={"non_field_errors": ["Les deux joueurs doivent être placés dans cette séance."]},
        response_only=True,
        status_codes=["409"],
    ),
]

STANDINGS_EXAMPLES = [
    OpenApiExample(
        "after_two_rounds",
        value=[
            {"rank": 1, "player": 14, "name": "Chloé", "team": None, "total": 412,
             "rounds": [230, 182], "penalties": 0, "eliminated_after": None,
             "counted_from": 1, "byes": []},
            {"rank": 2, "player": 9, "name": "Aurélie", "team": None, "total": 198,
             "rounds": [-36, 234], "penalties": 20, "eliminated_after": None,
             "counted_from": 1, "byes": []},
            {"rank": 3, "player": 24, "name": "Marc", "team": None, "total": 60,
             "rounds": [None, 60], "penalties": 0, "eliminated_after": None,
             "counted_from": 1, "byes": []},
        ],
        response_only=True,
        status_codes=["200"],
    ),
    OpenApiExample(
        "duplicate_matchpoints",
        summary="A duplicate tournament ranked by matchpoints (docs/tournaments.md's example)",
        value=[
            {"rank": 1, "player": 31, "name": "Fanny", "method": "matchpoints", "boards": 1,
             "matchpoints": 6, "maximum": 6, "percentage": "100.00", "total": None, "tops": 1,
             "penalties": 0},
            {"rank": 6, "player": 29, "name": "Denis", "method": "matchpoints", "boards": 1,
             "matchpoints": 4, "maximum": 6, "percentage": "66.67", "total": None, "tops": 0,
             "penalties": 0},
        ],
        response_only=True,
        status_codes=["200"],
    ),
]  # fmt: skip
TEAM_STANDINGS_EXAMPLES = [
    OpenApiExample(
        "two_teams",
        value=[
            {"rank": 1, "name": "Les Excuses", "total": 610, "members": ["Aurélie", "Chloé"]},
            {"rank": 2, "name": "Petit au bout", "total": -42, "members": ["Bruno", "Denis"]},
        ],
        response_only=True,
        status_codes=["200"],
    )
]


def _seat(player: int, name: str, points: int, qualified: bool) -> dict[str, Any]:
    return {"player": player, "name": name, "points": points, "qualified": qualified}


BRACKET_EXAMPLES = [
    OpenApiExample(
        "final_played",
        summary="8 players, two tables of 4 then a final table (shortened)",
        value={
            "stages": [
                {
                    "number": 1,
                    "final": False,
                    "complete": True,
                    "tables": [
                        {
                            "number": 1,
                            "players": [
                                _seat(14, "Chloé", 312, True),
                                _seat(9, "Aurélie", 20, True),
                                _seat(12, "Bruno", -150, False),
                                _seat(15, "Denis", -182, False),
                            ],
                        },
                        {
                            "number": 2,
                            "players": [
                                _seat(19, "Fanny", 96, True),
                                _seat(13, "Émile", 40, True),
                                _seat(16, "Élodie", -56, False),
                                _seat(17, "Karim", -80, False),
                            ],
                        },
                    ],
                    "qualified": [9, 13, 14, 19],
                },
                {
                    "number": 2,
                    "final": True,
                    "complete": True,
                    "tables": [
                        {
                            "number": 1,
                            "players": [
                                _seat(13, "Émile", 228, False),
                                _seat(14, "Chloé", 54, False),
                                _seat(19, "Fanny", -106, False),
                                _seat(9, "Aurélie", -176, False),
                            ],
                        }
                    ],
                    "qualified": [],
                },
            ],
            "ranking": [
                {"rank": 1, "player": 13, "name": "Émile"},
                {"rank": 2, "player": 14, "name": "Chloé"},
                {"rank": 3, "player": 19, "name": "Fanny"},
                {"rank": 4, "player": 9, "name": "Aurélie"},
                {"rank": 5, "player": 16, "name": "Élodie"},
                {"rank": 6, "player": 17, "name": "Karim"},
                {"rank": 7, "player": 12, "name": "Bruno"},
                {"rank": 8, "player": 15, "name": "Denis"},
            ],
        },
        response_only=True,
        status_codes=["200"],
    ),
    OpenApiExample(
        "not_a_knockout",
        value={"non_field_errors": ["This tournament is not a knockout: it has standings, no "
                                    "bracket."]},
        response_only=True,
        status_codes=["404"],
    ),
]  # fmt: skip
