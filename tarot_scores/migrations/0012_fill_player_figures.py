"""Fill the players' stored figures (0011) from the deals already entered, so that an existing
site's player pages show them from the first request after the upgrade, without anyone having
to run ``manage.py rebuild_stats``. An empty database (a new site, the test database) has
nothing to fill and skips it.

It calls the statistics rebuild of the code being installed, which writes the tables as they
are at this migration; a later migration that changes those tables must not rely on this one
running against its new shape (it only runs when upgrading a site across 0011)."""

from typing import Any

from django.db import migrations


def fill(apps: Any, schema_editor: Any) -> None:
    if not apps.get_model("tarot_scores", "Deal").objects.exists():
        return
    from tarot_scores.stats.services import stats_rebuild

    stats_rebuild()


class Migration(migrations.Migration):
    dependencies = [
        ("tarot_scores", "0011_playerpage"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
