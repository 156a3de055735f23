"""The games the site keeps and their words: kinds, variants, table sizes, five-player modes,
the contract's fields that name a player.

Defined once here, below every concern (a club names the games it offers; the games, the
statistics, the calculator and the API read them): the models, forms, serializers and pages
take them from this module.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tarot_scores import scoring

# A game's kind: tarot (under any rule set), or one of the other games of the seeds.
TAROT = "tarot"
NOVATAROK = "novatarok"
BURACO = "buraco"
KINDS = [(TAROT, _("Tarot")), (NOVATAROK, "Novatarok"), (BURACO, "Buraco")]

# How many sit at a table of each game.
TABLE_SIZES = {TAROT: (3, 4, 5), NOVATAROK: (2, 3, 4, 5), BURACO: (2, 4)}

# Every variant a game may name: the presets of tarot rules, then the other games.
VARIANTS = scoring.VARIANTS

# How players name the rules a game or tournament is played by.
VARIANT_LABELS = {
    "fft": _("FFT (official rules)"),
    "classic": _("Classic rules"),
    NOVATAROK: _("Novatarok"),
    BURACO: _("Buraco"),
}
# A game played under a club's own rule set stores this variant, with the rule set beside it.
HOUSE = "house"

# The words for how a tarot table of five plays.
FIVE_PLAYER_WORDS = {
    scoring.FivePlayers.CALLED_KING: _("called king"),
    scoring.FivePlayers.SITTING_OUT: _("the dealer sits out"),
}
# The two ways a table plays, as a form offers them (a rule set may also allow either).
FIVE_PLAYER_CHOICES = [(mode.value, words) for mode, words in FIVE_PLAYER_WORDS.items()]
FIVE_PLAYER_MODES = [mode.value for mode in FIVE_PLAYER_WORDS]

# Fields of the scoring contract that name one player, and lists of objects whose "player"
# does: the site sends players by id, the engine takes them by name.
PLAYER_FIELDS = ("taker", "partner", "sitting_out", "kings", "trull", "pagat")
PLAYER_LISTS = ("handfuls", "miseres")


def game_kind(variant: str) -> str:
    """tarot, novatarok or buraco: every rule set that is not another game is tarot."""
    return variant if variant in scoring.OTHER_GAMES else TAROT


def variant_label(variant: str, house_name: str | None = None) -> str:
    """The words for a variant; a club's house rules go by their own name."""
    if variant == HOUSE or house_name:
        return house_name or str(_("house rules"))
    return str(VARIANT_LABELS.get(variant, variant))
