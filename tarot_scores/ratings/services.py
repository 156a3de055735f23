"""Keeping the player ratings in step with the deals (a deal's save notes it and asks for the
ratings' job) and rebuilding them by replaying every tarot deal in play order."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from tarot_scores.clubs.models import Club
from tarot_scores.core.actors import Actor, AtTable
from tarot_scores.core.jobs import enqueue
from tarot_scores.core.kinds import TAROT
from tarot_scores.games.models import Deal, DealChange, DealRevision, Game
from tarot_scores.ratings.jobs import ratings_catch_up
from tarot_scores.ratings.models import RatingsBehind
from tarot_scores.ratings.replay import hold_the_scope, ratings_from
from tarot_scores.ratings.waiting import ratings_job_wanted


def ratings_after_deal(
    *,
    game: Game,
    deal: Deal,
    action: DealChange,
    seated: Sequence[int],
    by: Actor = None,
    at_table: AtTable | None = None,
) -> None:
    """The deal services' hook: a tarot deal was entered, corrected, deleted or restored, held
    out of the counts or released (by whomever: ``at_table`` changes nothing of a rating). The
    save only notes it (``RatingsBehind``, in the club and in the federation: two rows added,
    nothing shared locked) and asks for the ratings' job, which commits with the deal, unless
    one of the club's is waiting already (``ratings.waiting``: that one takes this deal too).
    The job (``ratings.jobs.ratings_catch_up``) rates it, out of the request."""
    if game.kind != TAROT:
        return
    new = action == DealRevision.Action.CREATED
    RatingsBehind.objects.bulk_create(
        RatingsBehind(
            club_id=scope,
            deal_id=deal.pk,
            played_on=game.date,
            game_id_at=game.pk,
            number=deal.number,
            new=new,
        )
        for scope in (game.club_id, None)
    )
    # One job waiting per club, however many deals ask (ratings.waiting).
    if ratings_job_wanted(club_id=game.club_id):
        enqueue(ratings_catch_up, club_id=game.club_id)


@transaction.atomic
def ratings_rebuild(*, club: Club | None = None) -> int:
    """Rate every deal again from scratch: one club's ratings, or every club's and the
    federation's. Returns the number of deals rated. What was noted behind the scopes rebuilt
    is done with (a note added meanwhile stays for the ratings' job)."""
    if club is not None:
        hold_the_scope(club.pk)
        behind = list(RatingsBehind.objects.filter(club=club).values_list("pk", flat=True))
        total = ratings_from(club_id=club.pk, place=None)
        RatingsBehind.objects.filter(pk__in=behind).delete()
        return total
    hold_the_scope(None)
    behind = list(RatingsBehind.objects.values_list("pk", flat=True))
    total = 0
    for club_id in Club.objects.order_by("pk").values_list("pk", flat=True):
        total += ratings_from(club_id=club_id, place=None)
    ratings_from(club_id=None, place=None)
    RatingsBehind.objects.filter(pk__in=behind).delete()
    return total
