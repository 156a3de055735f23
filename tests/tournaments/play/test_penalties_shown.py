"""Penalties where a reader meets the scores: a table's score sheet (the game page, the table
link's sheet and the sheet PDF), a deal's history, the penalties page and the projector. A
removed penalty is shown as removed and takes nothing off; a sheet reads its penalties in one
query, whatever the number of deals, and a club's own game reads none."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.timezone import localtime
from pypdf import PdfReader
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Player
from tarot_scores.games.models import Deal, Game
from tests import factories
from tests.games.helpers import page_text as _page_text
from tournaments.models import Entry, Penalty, Round, Table, Tournament
from tournaments.people import services as people
from tournaments.play import penalties
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


@dataclass
class Sitting:
    """Round 1 of a tournament, two tables of four, two of its three deals entered: the round
    is still open, so the tables' links take deals."""

    tournament: Tournament
    referee: Any
    organiser: Any
    table: Table  # the table under test
    other: Table  # the round's other table
    players: list[Player]  # the table's players, in seat order

    def entry(self, seat: int, table: Table | None = None) -> Entry:
        game = (table or self.table).game
        player = game.seats.get(position=seat).player if table else self.players[seat]
        return Entry.objects.select_related("player").get(tournament=self.tournament, player=player)

    def deal(self, number: int) -> Deal:
        return self.table.game.deals.get(number=number)

    def give(
        self,
        seat: int,
        points: int,
        reason: str,
        *,
        deal: int | None = None,
        table: Table | None = None,
    ) -> Penalty:
        game = (table or self.table).game
        return penalties.penalty_give(
            tournament=self.tournament,
            entry=self.entry(seat, table),
            points=points,
            reason=reason,
            by=self.referee,
            round_number=1,
            deal_id=game.deals.get(number=deal).pk if deal else None,
        )


def page_text(html: str | bytes) -> str:
    return _page_text(html.encode() if isinstance(html, str) else html)


def sitting(*, deals: int = 2) -> Sitting:
    club = factories.ClubFactory.create(public=True)
    organiser = factories.UserFactory.create(username="olga")
    factories.MembershipFactory.create(club=club, user=organiser, role="organiser")
    referee = factories.UserFactory.create(username="rita")
    tournament = factories.make_tournament(club, 8, rounds=2, deals_per_round=deals + 1)
    tournament.referees.add(referee)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    factories.play(round_, seed=3, deals=deals)
    table, other = Table.objects.filter(round=round_).select_related("game").order_by("number")
    players = [s.player for s in table.game.seats.select_related("player").order_by("position")]
    assert Round.objects.get(pk=round_.pk).status != Round.Status.CLOSED
    return Sitting(tournament, referee, organiser, table, other, players)


def sheet_url(game: Game) -> str:
    return reverse("games:detail", args=[game.pk])


def get(url: str, user: Any = None, lang: str = "en") -> str:
    response = factories.signed_in_client(user).get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return str(response.content.decode())


def cell_of(html: str, name: str) -> str:
    found = re.search(rf'data-testid="{name}"[^>]*>([^<]*)<', html)
    assert found is not None, name
    return found.group(1).strip()


def deal_cells(html: str, number: int) -> list[str]:
    """The score cells of deal ``number`` on the game page, one per seat."""
    block = html.split(f'<tbody id="deal-{number}"', 1)[1].split("</tbody>", 1)[0]
    scores = block.split('class="deal-scores"', 1)[1]
    return re.findall(r"<td>(.*?)</td>", scores, flags=re.S)


def sheet_totals(s: Sitting) -> list[int]:
    out = []
    for p in s.players:
        out.append(
            sum(
                line.points
                for deal in s.table.game.deals.filter(deleted_at__isnull=True)
                for line in deal.lines.filter(player=p)
            )
        )
    return out


# --- the game's score sheet -------------------------------------------------------------------


def test_the_sheet_marks_a_deal_penalty_on_its_cell_and_lists_a_round_one_below() -> None:
    s = sitting()
    before = sheet_totals(s)
    on_deal = s.give(1, 20, "Cards shown", deal=2)
    on_round = s.give(3, 10, "Late back from the break")
    elsewhere = s.give(0, 50, "Phone at the table", table=s.other)

    html = get(sheet_url(s.table.game))

    cells = deal_cells(html, 2)
    marked = [i for i, cell in enumerate(cells) if f"penalty-mark-{on_deal.pk}" in cell]
    assert marked == [1]  # on the penalised player's cell, not another's
    assert "−20 penalty" in cells[1] and 'title="Penalty: Cards shown"' in cells[1]
    assert not any("penalty-mark" in cell for cell in deal_cells(html, 1))
    assert f"penalty-mark-{on_round.pk}" not in html  # a round's is listed, not on a deal
    listed = page_text(html.split('id="sheet-penalties"', 1)[1].split("</section>", 1)[0])
    assert f"{s.players[1].label}: −20 on deal 2 — Cards shown" in listed
    assert f"{s.players[3].label}: −10 on the round — Late back from the break" in listed
    assert "Phone at the table" not in html and f"penalty-mark-{elsewhere.pk}" not in html

    # The totals: before the penalties, the penalties, after them, each line named.
    assert "Total before penalties" in html and "Total after penalties" in html
    taken = [0, 20, 0, 10]
    for i in range(4):
        assert cell_of(html, f"total-{i}") == str(before[i])
        assert cell_of(html, f"total-after-{i}") == str(before[i] - taken[i])
        assert cell_of(html, f"total-penalties-{i}") == (f"−{taken[i]}" if taken[i] else "")


def test_a_replaced_players_penalties_stay_on_the_sheet_and_the_round_page() -> None:
    s = sitting()
    replaced = s.entry(1)
    on_deal = s.give(1, 20, "Cards shown", deal=2)
    on_round = s.give(1, 10, "Late back from the break")
    people.substitute_seat(round_=s.table.round, replaced=replaced, name="Zoé Remplaçante")

    # The sheet's source (the game page itself is read through it).
    marks = penalties.table_penalties(game=s.table.game)
    assert marks is not None
    assert [(m.key, m.player_id) for m in marks] == [
        (on_deal.pk, replaced.player_id),
        (on_round.pk, replaced.player_id),
    ]

    page = get(reverse("tournaments:round", args=[s.tournament.pk, 1]), s.organiser)
    shown = page.split(f'data-testid="penalties-{s.table.number}"', 1)[1].split("</ul>", 1)[0]
    assert "Cards shown" in shown and "Late back from the break" in shown


def test_the_sheet_in_french_names_the_penalty_and_both_totals() -> None:
    s = sitting()
    s.give(1, 20, "Cartes montrées", deal=1)
    html = get(sheet_url(s.table.game), lang="fr")
    assert "−20 pénalité" in html
    assert "Total avant pénalités" in html and "Total après pénalités" in html
    assert "−20 sur la donne 1 — Cartes montrées" in page_text(html)


def test_a_removed_penalty_is_not_marked_nor_taken_off_the_sheet() -> None:
    s = sitting()
    before = sheet_totals(s)
    kept = s.give(2, 15, "Slow play", deal=1)
    gone = s.give(0, 40, "Wrong player", deal=1)
    penalties.penalty_remove(penalty=gone, by=s.organiser, reason="Not him")

    html = get(sheet_url(s.table.game))
    assert f"penalty-mark-{kept.pk}" in html and f"penalty-mark-{gone.pk}" not in html
    assert "Wrong player" not in html
    assert cell_of(html, "total-after-0") == str(before[0])  # the removed 40 counts no more
    assert cell_of(html, "total-after-2") == str(before[2] - 15)

    penalties.penalty_remove(penalty=kept, by=s.organiser)
    html = get(sheet_url(s.table.game))
    assert "penalty-mark" not in html and 'id="sheet-penalties"' not in html
    assert "Total before penalties" not in html
    assert cell_of(html, "total-0") == str(before[0])


def test_the_ranking_under_the_sheet_reads_the_totals_after_penalties() -> None:
    s = sitting()
    before = sheet_totals(s)
    top = max(range(4), key=lambda i: before[i])
    s.give(top, 9_000, "Cheating")
    html = get(sheet_url(s.table.game))
    ranking = html.split('<ol class="ranking">', 1)[1].split("</ol>", 1)[0]
    names = re.findall(r'<span class="ranking-name">([^<]*)</span>', ranking)
    assert names[-1] == s.players[top].label
    assert "Ranked by the totals after penalties." in html


# --- the table's link ---------------------------------------------------------------------------


def test_the_table_links_sheet_shows_the_penalties_and_both_totals() -> None:
    s = sitting()
    before = sheet_totals(s)
    on_deal = s.give(0, 25, "Revoke", deal=1)
    s.give(2, 5, "Noise")
    removed = s.give(1, 30, "Mistaken", deal=2)
    penalties.penalty_remove(penalty=removed, by=s.referee)

    html = get(reverse("tournaments:table_entry", args=[s.table.token]))
    sheet = html.split('id="table-sheet"', 1)[1].split("</section>", 1)[0]
    row = sheet.split('<tr id="deal-1">', 1)[1].split("</tr>", 1)[0]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
    assert [i for i, c in enumerate(cells) if f"penalty-mark-{on_deal.pk}" in c] == [0]
    assert f"penalty-mark-{removed.pk}" not in html and "Mistaken" not in html
    text = page_text(html.split('id="table-sheet"', 1)[1])
    assert f"{s.players[2].label}: −5 on the round — Noise" in text
    assert f"{s.players[0].label}: −25 on deal 1 — Revoke" in text
    for i, off in enumerate([25, 0, 5, 0]):
        assert cell_of(sheet, f"sheet-total-{i}") == str(before[i])
        assert cell_of(sheet, f"sheet-total-after-{i}") == str(before[i] - off)
        # The totals strip above the entry form says the same.
        assert cell_of(html, f"total-after-{i}") == str(before[i] - off)


# --- the sheet PDF ------------------------------------------------------------------------------


def pdf_text(content: bytes) -> str:
    reader = PdfReader(io.BytesIO(content))
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in reader.pages))


def test_the_sheet_pdf_marks_the_penalties_and_prints_both_totals() -> None:
    s = sitting()
    before = sheet_totals(s)
    s.give(1, 20, "Cards shown", deal=2)
    s.give(3, 10, "Late")
    removed = s.give(0, 70, "Mistaken", deal=1)
    penalties.penalty_remove(penalty=removed, by=s.referee)

    response = factories.signed_in_client(None).get(
        reverse("games:pdf", args=[s.table.game.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    text = pdf_text(b"".join(response.streaming_content))  # type: ignore[attr-defined]
    deal_2 = s.deal(2).lines.get(player=s.players[1]).points
    assert f"{deal_2:+d} [1]" in text if deal_2 else "0 [1]" in text
    assert f"[1] {s.players[1].label}: -20 on deal 2 — Cards shown" in text
    assert f"[2] {s.players[3].label}: -10 on the round — Late" in text
    assert "Mistaken" not in text
    assert "Total before penalties" in text and "Total after penalties" in text
    after = [before[0], before[1] - 20, before[2], before[3] - 10]
    assert "Total after penalties " + " ".join(str(t) for t in after) in text
    assert "Total before penalties " + " ".join(str(t) for t in before) in text


def test_a_club_games_pdf_has_no_penalty_lines() -> None:
    table = factories.build_table()
    table.record()
    response = table.client("organiser").get(
        reverse("games:pdf", args=[table.game.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    text = pdf_text(b"".join(response.streaming_content))  # type: ignore[attr-defined]
    assert "Total" in text and "penalties" not in text.lower()


def test_the_sheet_csv_has_a_line_per_penalty_and_both_totals() -> None:
    s = sitting()
    before = sheet_totals(s)
    s.give(1, 20, "Cards shown", deal=2)
    s.give(3, 10, "Late")
    removed = s.give(0, 70, "Mistaken", deal=1)
    penalties.penalty_remove(penalty=removed, by=s.referee)

    response = factories.signed_in_client(None).get(
        reverse("games:csv", args=[s.table.game.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    tail = [line[:1] + line[3:4] + line[7:] for line in lines[-4:]]
    assert tail == [
        ["Total before penalties", "", *map(str, before)],
        ["2", "Penalty: Cards shown", "", "-20", "", ""],
        ["", "Penalty: Late", "", "", "", "-10"],
        [
            "Total after penalties",
            "",
            *map(str, [before[0], before[1] - 20, before[2], before[3] - 10]),
        ],
    ]
    assert "Mistaken" not in response.content.decode()


# --- a deal's history and the penalties page ----------------------------------------------------


def test_a_deals_history_lists_its_penalties_and_their_removal_in_time_order() -> None:
    s = sitting()
    given = s.give(1, 20, "Cards shown", deal=2)
    penalties.penalty_remove(penalty=given, by=s.organiser, reason="Seen wrong")
    again = s.give(2, 5, "Slow play", deal=2)
    other_deal = s.give(0, 8, "Elsewhere", deal=1)

    html = get(reverse("games:deal_history", args=[s.deal(2).pk]))
    # Newest first: the last penalty, the removal, the first penalty, then the deal's entry.
    ids = re.findall(r'<li class="revision card[^"]*" id="([^"]+)"', html)
    assert ids == [
        f"penalty-{again.pk}",
        f"penalty-{given.pk}-removed",
        f"penalty-{given.pk}",
        "version-1",
    ]
    assert f"penalty-{other_deal.pk}" not in html and "Elsewhere" not in html

    def item(anchor: str) -> str:
        return page_text(html.split(f'id="{anchor}"', 1)[1].split("</li>", 1)[0])

    first = item(f"penalty-{given.pk}")
    assert f"Penalty: {s.players[1].label}, −20" in first and "by rita" in first
    assert "Cards shown" in first and "removed" in first
    removal = item(f"penalty-{given.pk}-removed")
    assert f"Penalty removed: {s.players[1].label}, −20" in removal and "by olga" in removal
    assert "Seen wrong" in removal and "counts no more" in removal
    given.refresh_from_db()
    assert given.removed_at is not None
    assert (
        localtime(given.removed_at).isoformat()[:19]
        in html.split(f'id="penalty-{given.pk}-removed"')[1]
    )


def test_the_penalties_page_shows_who_gave_and_removed_each_and_when() -> None:
    s = sitting()
    given = s.give(1, 20, "Cards shown", deal=2)
    penalties.penalty_remove(penalty=given, by=s.organiser, reason="Seen wrong")
    html = get(reverse("tournaments:penalties", args=[s.tournament.pk]), user=s.referee)
    row = page_text(html.split(f'id="penalty-{given.pk}"', 1)[1].split("</tr>", 1)[0])
    assert "rita," in row and "Removed by olga," in row and "Seen wrong" in row
    assert "Cards shown" in row


# --- the projector ------------------------------------------------------------------------------


def test_the_projector_marks_the_penalties_beside_the_total_and_drops_its_etag() -> None:
    s = sitting()
    url = reverse("tournaments:projector", args=[s.tournament.pk])
    client = factories.signed_in_client(None)
    first = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert "board-penalties" not in first.content.decode()
    penalty = s.give(1, 15, "Late")
    again = client.get(url, HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200  # the penalty changed the board: not a 304
    html = again.content.decode()
    player = s.players[1].pk
    assert cell_of(html, f"board-penalties-{player}") == "penalties −15"
    item = html.split(f'data-player="{player}"', 1)[1].split("</li>", 1)[0]
    assert 'class="board-total"' in item
    # Unchanged since: 304, as before.
    same = client.get(url, HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=again["ETag"])
    assert same.status_code == 304

    penalties.penalty_remove(penalty=penalty, by=s.referee)
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "board-penalties" not in html


# --- the queries --------------------------------------------------------------------------------


def penalty_queries(queries: list[dict[str, Any]]) -> int:
    return sum(1 for q in queries if "tournaments_penalty" in q["sql"])


def test_a_sheet_reads_its_penalties_in_one_query_whatever_the_deals(
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    counts = []
    for deals in (1, 3):
        s = sitting(deals=deals)
        for n in range(1, deals + 1):
            s.give(n % 4, 5 * n, f"Reason {n}", deal=n)
        s.give(0, 3, "Round")
        client = factories.signed_in_client(s.organiser)
        client.get("/healthz")
        # (one of them reads the table's contested deals, which its totals leave out)
        with django_assert_max_num_queries(9) as captured:
            response = client.get(sheet_url(s.table.game))
        assert response.status_code == 200
        assert response.content.decode().count('class="penalty-mark"') == deals
        assert penalty_queries(captured.captured_queries) == 1
        counts.append(len(captured.captured_queries))
        with django_assert_max_num_queries(8) as captured:
            response = client.get(reverse("tournaments:table_entry", args=[s.table.token]))
        assert response.status_code == 200
        assert penalty_queries(captured.captured_queries) == 1
    assert counts[0] == counts[1]


def test_a_club_games_sheet_and_history_read_no_penalty() -> None:
    table = factories.build_table()
    deal = table.record()
    client = table.client("organiser")
    client.get("/healthz")
    for url in (sheet_url(table.game), reverse("games:deal_history", args=[deal.pk])):
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200
        assert penalty_queries(captured.captured_queries) == 0
        assert "penalt" not in response.content.decode().lower()
