"""The count of players the standings rank, stored on the tournament (``ranked_players``) and
filled from the stored standings already there."""

from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery


def fill(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Standing = apps.get_model("tournaments", "Standing")
    counted = (
        Standing.objects.filter(tournament=OuterRef("pk"), entry__substitute_for__isnull=True)
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    for pk, n in Tournament.objects.annotate(n=Subquery(counted)).values_list("pk", "n"):
        if n:
            Tournament.objects.filter(pk=pk).update(ranked_players=n)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0017_replaced_table_link"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="ranked_players",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
