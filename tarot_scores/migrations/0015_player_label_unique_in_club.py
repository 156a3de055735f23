"""A club's own players' labels are unique, folded as the site compares them (0014 resolved the
duplicates). Apart from 0014 so that PostgreSQL builds the index after the data changed."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tarot_scores", "0014_player_label_key"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("label_key", ""), _negated=True),
                fields=("club", "label_key"),
                name="player_label_unique_in_club",
            ),
        ),
    ]
