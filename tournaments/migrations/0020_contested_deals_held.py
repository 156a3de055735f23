"""The deals contested at a table before a contested deal was held out of the club's counts
(``tarot_scores`` 0024, ``Deal.counted``): held now, as disputing one holds it from now on, and,
if there were any, the club's statistics and the ratings counted again without them.

Like ``tarot_scores`` 0012, it calls the rebuilds of the code being installed, only when there
is something to hold (an empty database, a new site, the test database, skips them)."""

from typing import Any

from django.db import migrations


def hold(apps: Any, schema_editor: Any) -> None:
    Deal = apps.get_model("tarot_scores", "Deal")
    contested = Deal.objects.filter(confirmation__status="disputed", counted=True)
    clubs = set(contested.values_list("game__club_id", flat=True))
    if not clubs:
        return
    contested.update(counted=False)
    from tarot_scores.clubs.models import Club
    from tarot_scores.ratings.services import ratings_rebuild
    from tarot_scores.stats.services import stats_rebuild

    for club in Club.objects.filter(pk__in=clubs):
        stats_rebuild(club=club)
    ratings_rebuild()


class Migration(migrations.Migration):
    dependencies = [
        ("tarot_scores", "0024_deal_counted"),
        ("tournaments", "0019_pin_attempts_per_phone"),
    ]

    operations = [
        migrations.RunPython(hold, migrations.RunPython.noop),
    ]
