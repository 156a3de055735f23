"""The tournament API (``/api/v1/tournaments/``): create a tournament, register and check in
players, seat rounds (séances) or knockout stages, and read tables, standings and brackets.

Views are thin: writes call the rooms' services (``tournaments.registration.services``,
``tournaments.rounds.services``...), reads their selectors; the deals of each table go to the club
API's ``POST /api/v1/games/{id}/deals/``, since a table is a game.
"""
