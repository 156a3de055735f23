"""Every model of the ``tarot_scores`` app, for Django to find: each lives in its concern's
package (clubs, games, stats, ratings) under the one app label, so tables and migrations stay
as they were. Code imports a model from its own package."""

from tarot_scores.api.models import ApiToken
from tarot_scores.clubs.models import Club, HouseRules, Invitation, Membership, Player
from tarot_scores.core.models import FeedClock, PreparedPdf, WorkerBeat
from tarot_scores.games.models import Deal, DealRevision, Game, ScoreLine, Seat
from tarot_scores.ratings.models import (
    PlayerRating,
    RatingsBehind,
    RatingsJobWaiting,
    RatingStep,
)
from tarot_scores.stats.models import (
    PlayerContract,
    PlayerFigures,
    PlayerGameTotal,
    PlayerPairing,
    PlayerSeason,
)
from tarot_scores.webhooks.models import Delivery, Webhook

__all__ = [
    "ApiToken",
    "Club",
    "Deal",
    "DealRevision",
    "Delivery",
    "FeedClock",
    "Game",
    "HouseRules",
    "Invitation",
    "Membership",
    "Player",
    "PlayerContract",
    "PlayerFigures",
    "PlayerGameTotal",
    "PlayerPairing",
    "PlayerRating",
    "PlayerSeason",
    "PreparedPdf",
    "RatingStep",
    "RatingsBehind",
    "RatingsJobWaiting",
    "ScoreLine",
    "Seat",
    "Webhook",
    "WorkerBeat",
]
