"""Lists of people in the order a French reader expects: Éric before Sylvie, accents and case
aside, on the pages as in the helper."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs.models import Club
from tarot_scores.core.collation import by_name, name_key
from tests.factories import PlayerFactory, build_world
from tournaments.views.rounds import substitute_form


def test_accents_and_case_do_not_move_a_name() -> None:
    names = ["Sylvie", "Zoé", "éloïse", "Éric", "Denis", "Emile", "Émile"]

    assert by_name(names, str) == ["Denis", "éloïse", "Emile", "Émile", "Éric", "Sylvie", "Zoé"]
    assert name_key("Éric") < name_key("Sylvie")


@pytest.mark.django_db
def test_the_club_page_lists_its_players_alphabetically(club: Club) -> None:
    for name in ("Sylvie Roux", "Éric Bonnet", "Zoé Marchand", "Denis Petit"):
        PlayerFactory.create(name=name, clubs=[club])

    content = Client().get(reverse("clubs:detail", args=[club.slug]))

    text = content.content.decode()
    places = [text.index(name) for name in ("Denis Petit", "Éric Bonnet", "Sylvie Roux")]
    assert places == sorted(places)
    assert text.index("Sylvie Roux") < text.index("Zoé Marchand")


@pytest.mark.django_db
def test_the_round_pages_lists_put_emile_between_denis_and_fanny() -> None:
    world = build_world(tag="order")

    form = substitute_form(world.round)

    choices = form.fields["replaced"].choices  # type: ignore[attr-defined]
    names = [label.split(" (")[0] for _pk, label in choices[1:]]
    assert "Émile" in names
    assert names == sorted(names, key=name_key)
    assert names.index("Denis") < names.index("Émile") < names.index("Fanny")
