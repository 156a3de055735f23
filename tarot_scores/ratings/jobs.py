"""The ratings' job: what the worker runs to bring the ratings up to the deals noted behind
them (``ratings.services.ratings_after_deal`` asks for it with every tarot deal's save)."""

from __future__ import annotations

from tarot_scores.core.jobs import job
from tarot_scores.ratings.replay import ratings_scope_catch_up


@job(attempts=10, backoff=5)
def ratings_catch_up(club_id: int) -> dict[str, int]:
    """The ratings' job, asked for by every tarot deal's save: the club's ratings, then the
    federation's (each in its own transaction). Idempotent: with nothing behind, it does
    nothing; jobs asked for by saves whose notes an earlier job already took find none."""
    club = ratings_scope_catch_up(club_id=club_id)
    federation = ratings_scope_catch_up(club_id=None)
    return {
        "rated": club.rated + federation.rated,
        "replays": club.replays + federation.replays,
        "replayed": club.replayed + federation.replayed,
    }
