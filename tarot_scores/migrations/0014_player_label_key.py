"""Players' labels folded (``label_key``), and today's duplicates resolved before the next
migration makes the label unique among a club's own players.

Two players of one club shown under the same label (a name typed twice at the same moment, before
the database kept it unique) are told apart: the later ones (by id) get a nickname, their label
followed by " (2)", " (3)"... Nothing else changes (their deals, entries and ratings stay theirs):
an organiser may merge or rename them afterwards. Each renaming is printed.
"""

from django.db import migrations, models


def fold(name, nickname):
    return (nickname.strip() or name.strip()).casefold()


def fill_and_resolve(apps, schema_editor):
    Player = apps.get_model("tarot_scores", "Player")
    seen = {}
    renamed = []
    for player in Player.objects.order_by("pk").only("pk", "name", "nickname", "club_id"):
        key = fold(player.name, player.nickname)
        taken = seen.setdefault(player.club_id, set())
        if player.club_id is not None and key and key in taken:
            label = (player.nickname or player.name).strip()
            n = 2
            while True:
                suffix = f" ({n})"
                nickname = label[: 60 - len(suffix)] + suffix
                if fold(player.name, nickname) not in taken:
                    break
                n += 1
            renamed.append((player.pk, player.club_id, label, nickname))
            player.nickname = nickname
            key = fold(player.name, nickname)
        taken.add(key)
        Player.objects.filter(pk=player.pk).update(nickname=player.nickname, label_key=key)
    for pk, club_id, label, nickname in renamed:
        print(f"\n  player {pk} of club {club_id}: '{label}' was taken, now shown as '{nickname}'")


class Migration(migrations.Migration):
    dependencies = [
        ("tarot_scores", "0013_worker_beat"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="label_key",
            field=models.CharField(blank=True, default="", editable=False, max_length=200),
        ),
        migrations.RunPython(fill_and_resolve, migrations.RunPython.noop),
    ]
