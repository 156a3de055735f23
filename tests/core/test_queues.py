"""The queues by kind (``core.queues``): every job names its own, every backend knows the four,
and ``TASKS_WORKERS`` reads as slots per queue, a fault named."""

import pytest
from django.conf import settings

from tarot_scores.core.mail import mail_send
from tarot_scores.core.prepared import pdf_draw
from tarot_scores.core.queues import DEFAULT_CAPACITY, QUEUES, capacity_from
from tarot_scores.ratings.jobs import ratings_catch_up
from tarot_scores.settings import tasks_from
from tarot_scores.webhooks.services import delivery_send


def test_each_job_runs_on_the_queue_of_its_kind() -> None:
    assert mail_send.queue_name == "mail"
    assert delivery_send.queue_name == "webhooks"
    assert ratings_catch_up.queue_name == "ratings"
    assert pdf_draw.queue_name == "documents"


@pytest.mark.parametrize("kind", ["database", "rq", "immediate"])
def test_every_backend_knows_the_four_queues(kind: str) -> None:
    assert tasks_from(kind, "redis://127.0.0.1:6379/0")["default"]["QUEUES"] == list(QUEUES)
    assert set(QUEUES) <= set(settings.RQ_QUEUES)


def test_slots_per_queue_read_from_the_setting() -> None:
    assert capacity_from("") == DEFAULT_CAPACITY
    assert DEFAULT_CAPACITY == {"mail": 1, "webhooks": 2, "ratings": 1, "documents": 1}
    assert capacity_from("webhooks=4, documents=2") == {
        "mail": 1,
        "webhooks": 4,
        "ratings": 1,
        "documents": 2,
    }


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("pdf=2", "Unknown queue 'pdf'"),
        ("mail=0", "at least 1"),
        ("mail=two", "not a whole number"),
    ],
)
def test_a_wrong_slot_count_is_named(text: str, fault: str) -> None:
    with pytest.raises(ValueError, match=fault):
        capacity_from(text)
