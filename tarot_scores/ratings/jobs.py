"""The ratings' job: what the worker runs to bring the ratings up to the deals noted behind
them (``ratings.services.ratings_after_deal`` asks for it when none of the club's waits)."""

from __future__ import annotations

from tarot_scores.core.jobs import job
from tarot_scores.core.queues import Queue
from tarot_scores.ratings.replay import ratings_scope_catch_up
from tarot_scores.ratings.waiting import ratings_job_taken


@job(queue=Queue.RATINGS, attempts=10, backoff=5)
def ratings_catch_up(club_id: int) -> dict[str, int]:
    """The ratings' job, asked for by a club's first tarot deal saved since its last job
    started: the club's ratings, then the federation's (each in its own transaction).
    Idempotent: with nothing behind, it does nothing."""
    # Deals saved from here on ask for the next job (one waits per club: ratings.waiting).
    ratings_job_taken(club_id=club_id)
    club = ratings_scope_catch_up(club_id=club_id)
    federation = ratings_scope_catch_up(club_id=None)
    return {
        "rated": club.rated + federation.rated,
        "replays": club.replays + federation.replays,
        "replayed": club.replayed + federation.replayed,
    }
