"""The change feed's clock (``core.feed``) without the API: a cursor reads back as the position
it was made from, and PostgreSQL's 32-bit transaction ids are widened to the 64-bit ones they
stand for, across a wraparound too."""

from __future__ import annotations

import pytest
from django.db import transaction

from tarot_scores.core import feed
from tarot_scores.core.errors import Refusal


@pytest.mark.parametrize(
    "position",
    [
        feed.START,
        feed.Position(1, 1, 1),
        feed.Position(2**40, 123456, 2**62),
        feed.Position(7, 9, 3),
    ],
)
def test_a_cursor_reads_back_as_its_position(position: feed.Position) -> None:
    cursor = position.cursor()
    assert cursor.isascii() and "=" not in cursor and "/" not in cursor and "+" not in cursor
    assert feed.read_cursor(cursor) == position


@pytest.mark.parametrize("raw", ["", "0", " ", " 0 "])
def test_nothing_or_0_is_the_beginning(raw: str) -> None:
    assert feed.read_cursor(raw) == feed.START


def test_a_cursor_of_another_version_is_refused() -> None:
    with pytest.raises(Refusal) as refused:
        feed.read_cursor(feed.Position(1, 1, 1).cursor().replace("M", "N", 1))
    assert refused.value.codes() == {"updated_since": ["cursor_invalid"]}


WRAP = 2**32


@pytest.mark.parametrize(
    ("xid32", "near", "wide"),
    [
        (100, 100, 100),  # itself
        (90, 100, 90),  # just below
        (5, 3 * WRAP + 10, 3 * WRAP + 5),  # in the same epoch
        (WRAP - 5, 3 * WRAP + 10, 3 * WRAP - 5),  # before the wraparound: the epoch before
        (15, 3 * WRAP - 10, 3 * WRAP + 15),  # just after the wraparound: the next epoch
    ],
)
def test_a_32_bit_transaction_id_is_widened_near_the_snapshot(
    xid32: int, near: int, wide: int
) -> None:
    assert feed._widened(xid32, near) == wide


@pytest.mark.django_db
def test_stamps_taken_one_after_the_other_go_forward() -> None:
    with transaction.atomic():
        first = feed.next_stamp()
        second = feed.next_stamp()
    with transaction.atomic():
        third = feed.next_stamp()
    assert first < second < third
