"""Names compared as people read them (``tarot_scores.core.names.look_alike_key``): a club's
players' labels (``label_key``) and, new, clubs' names (``name_key``), kept unique so that two
names that look the same ("Anna" and "Аnna" with a Cyrillic А) cannot both be stored.

Names that already look the same are told apart, as 0014 did for labels: the later ones (by id)
get " (2)", " (3)"... (a player as his nickname, a club in its name). Nothing else changes; an
organiser may rename them afterwards. Each renaming is printed.
"""

from django.db import migrations, models

from tarot_scores.core.names import look_alike_key


def _free(label, taken, limit):
    n = 2
    while True:
        suffix = f" ({n})"
        candidate = label[: limit - len(suffix)] + suffix
        if look_alike_key(candidate) not in taken:
            return candidate
        n += 1


def fill_and_resolve(apps, schema_editor):
    Player = apps.get_model("tarot_scores", "Player")
    Club = apps.get_model("tarot_scores", "Club")
    seen = {}
    for player in Player.objects.order_by("pk").only("pk", "name", "nickname", "club_id"):
        label = player.nickname.strip() or player.name.strip()
        key = look_alike_key(label)
        taken = seen.setdefault(player.club_id, set())
        if player.club_id is not None and key and key in taken:
            player.nickname = _free(label, taken, 60)
            print(
                f"\n  player {player.pk}: '{label}' looked taken, now shown as '{player.nickname}'"
            )
            key = look_alike_key(player.nickname)
        taken.add(key)
        Player.objects.filter(pk=player.pk).update(nickname=player.nickname, label_key=key)
    names = set()
    for club in Club.objects.order_by("pk").only("pk", "name"):
        key = look_alike_key(club.name)
        if key in names:
            old, club.name = club.name, _free(club.name, names, 120)
            print(f"\n  club {club.pk}: '{old}' looked taken, now '{club.name}'")
            key = look_alike_key(club.name)
        names.add(key)
        Club.objects.filter(pk=club.pk).update(name=club.name, name_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("tarot_scores", "0022_ratings_job_waiting"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="label_key",
            field=models.CharField(blank=True, default="", editable=False, max_length=400),
        ),
        migrations.AddField(
            model_name="club",
            name="name_key",
            field=models.CharField(blank=True, default="", editable=False, max_length=400),
        ),
        migrations.RunPython(fill_and_resolve, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="club",
            constraint=models.UniqueConstraint(
                condition=models.Q(("name_key", ""), _negated=True),
                fields=("name_key",),
                name="club_names_look_different",
            ),
        ),
    ]
