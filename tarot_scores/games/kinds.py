"""The game kinds moved to ``tarot_scores.core.kinds`` (the clubs name the games they offer,
and the clubs sit below the games). The one name ``tournaments.services`` still imports from
here; new code imports ``core.kinds``."""

from tarot_scores.core.kinds import FIVE_PLAYER_WORDS

__all__ = ["FIVE_PLAYER_WORDS"]
