"""The papers the worker draws (``core.prepared``), each read from the database then drawn by
``pdf``: a round's table sheets (a QR code a table), the players' cards (a QR code and a PIN
each) and a big tournament's standings. Each ``draw_*`` takes the JSON arguments its page gave
and returns the PDF's bytes; ``tournaments/apps.py`` registers them under their kind."""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation

from tarot_scores.core.collation import name_key
from tournaments.formats import duplicate as duplicate_format
from tournaments.formats import format_for, round_name
from tournaments.models import Entry, Round, Tournament
from tournaments.play import cards
from tournaments.printing import pdf
from tournaments.rounds import selectors as round_selectors
from tournaments.standings import duplicate as duplicate_results
from tournaments.standings import selectors as standings_selectors

TABLE_SHEETS = "tournament_table_sheets"
PLAYER_CARDS = "tournament_player_cards"
STANDINGS_PDF = "tournament_standings"


def draw_table_sheets(*, tournament_id: int, number: int, site: str, language: str) -> bytes:
    """A round's table sheets (the job of ``table_sheets_pdf``); ``site`` is the address the
    QR codes' links start with."""
    tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
    round_ = Round.objects.get(tournament=tournament, number=number)
    states = round_selectors.round_tables(round_=round_)
    # A duplicate table plays the boards the movement gives it, each dealt by its direction.
    plan = (
        duplicate_format.session_movement(
            len(states), tournament.rounds, tournament.deals_per_round
        )
        if format_for(tournament).compares_boards and states
        else None
    )
    base = site.rstrip("/")
    tables = [
        pdf.SheetTable(
            number=state.table.number,
            players=[p.label for p in state.players],
            entry_url=base + reverse("tournaments:table_entry", args=[state.table.token]),
            boards=plan.station(number, state.table.number).boards if plan else (),
        )
        for state in states
    ]
    with translation.override(language):
        return pdf.render_table_sheets(
            tournament=tournament, round_name=round_name(tournament, number), tables=tables
        )


def draw_player_cards(
    *, tournament_id: int, entry_id: int | None, site: str, language: str
) -> bytes:
    """The players' cards (the job of ``player_cards_pdf``): the registered players, withdrawn
    ones aside, alphabetically; ``site`` is the address the personal links start with."""
    tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
    entries = Entry.objects.filter(tournament=tournament).select_related("player")
    if entry_id is not None:
        entries = entries.filter(pk=entry_id)
    else:
        entries = entries.filter(withdrawn_after__isnull=True)
    base = site.rstrip("/")
    items = sorted(
        (
            pdf.PlayerCard(
                player=entry.player.label,
                pin=entry.pin,
                link=base + reverse("tournaments:player_card", args=[cards.card_token(entry)]),
            )
            for entry in entries
        ),
        key=lambda card: name_key(card.player),
    )
    with translation.override(language):
        return pdf.render_player_cards(tournament=tournament, cards=items)


def draw_standings_pdf(*, tournament_id: int, series: str, language: str) -> bytes:
    """A big tournament's standings PDF (the job of ``views.results.standings_pdf``)."""
    tournament = Tournament.objects.select_related("club", "house_rules").get(pk=tournament_id)
    with translation.override(language):
        return standings_pdf_bytes(tournament, series=series)


def standings_pdf_bytes(tournament: Tournament, *, series: str) -> bytes:
    """The standings (of one series, with ``series``) as the page ranks them: a duplicate
    tournament by its boards; else the players, the teams (no series: a team's total counts
    every member) and the substitutes, ranked apart."""
    series_label = str(Entry.Series(series).label) if series else ""
    if format_for(tournament).compares_boards:
        return pdf.render_duplicate_standings(
            tournament=tournament,
            rows=list(duplicate_results.duplicate_standings(tournament=tournament, series=series)),
            series_label=series_label,
        )
    rows = list(standings_selectors.standings_for(tournament=tournament, series=series))
    numbers = tournament.round_set.order_by("number").values_list("number", flat=True)
    has_teams = not series and any(r.team for r in rows)
    return pdf.render_standings(
        tournament=tournament,
        rows=rows,
        round_names=[round_name(tournament, n) for n in numbers],
        teams=standings_selectors.team_standings_for(tournament=tournament, rows=rows)
        if has_teams
        else [],
        series_label=series_label,
        substitutes=[]
        if series
        else standings_selectors.standings_for(tournament=tournament, substitutes=True),
    )
