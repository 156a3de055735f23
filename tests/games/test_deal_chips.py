"""The deal form's chips and inputs as the ``deal_chips`` tags draw them: the markup Django's
widget templates would give (names, values, ids, ``checked``, ``required``, ``aria-*``), with
the names club members type escaped."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pytest
from django import forms
from django.contrib.auth.models import User
from django.forms.widgets import Input
from django.http import QueryDict
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services as game_services
from tarot_scores.games.forms import DealForm, deal_form_for
from tarot_scores.games.models import Game
from tarot_scores.games.seats import table_seats

pytestmark = pytest.mark.django_db

NASTY = '<script>alert("x")</script> O\'Neil & co'
NASTY_HTML = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; O&#x27;Neil &amp; co"

# What the templates wrote before the tags: Django's option template for each chip, the words
# in sentence case, players' names as typed.
DJANGO_CHIPS = Template(
    '{% for choice in field %}<label class="chip{% if small %} chip-small{% endif %}"'
    ' for="{{ choice.id_for_label }}">{{ choice.tag }}<span>{% if field.field.widget.names %}'
    "{{ choice.choice_label }}{% else %}{{ choice.choice_label|capfirst }}{% endif %}</span>"
    "</label>{% endfor %}"
)
TAG_CHIPS = Template("{% load deal_chips %}{% chips field small=small %}")
DJANGO_INPUT = Template("{{ field }}")
TAG_INPUT = Template("{% load deal_chips %}{% field_input field %}")


def render(template: Template, **context: Any) -> str:
    return template.render(Context(context))


def new_game(club: Club, organiser: User, seats: list[Player], variant: str, **kw: Any) -> Game:
    return game_services.game_create(club=club, players=seats, variant=variant, by=organiser, **kw)


def deal_form(
    game: Game, data: Mapping[str, Any] | None = None, payload: dict[str, Any] | None = None
) -> DealForm:
    form = deal_form_for(game)(data, game=game, table=table_seats(game), number=1, payload=payload)
    if data is not None:
        form.is_valid()
    return form


def chip_fields(form: DealForm) -> list[forms.BoundField]:
    return [
        form[name] for name, f in form.fields.items() if isinstance(f.widget, forms.RadioSelect)
    ]


@pytest.fixture
def nasty(club: Club) -> Player:
    return club_services.player_create(club=club, name=NASTY)


@pytest.fixture
def four(players: list[Player], nasty: Player) -> list[Player]:
    """Aurélie, Bruno, the player with markup in the name, Denis: Aurélie deals first."""
    return [players[0], players[1], nasty, players[3]]


def tarot_data(
    taker: Player, points: str = "abc", extra: Mapping[str, str | list[str]] | None = None
) -> QueryDict:
    """A deal with a taker and the points typed wrong; no contract, no bouts."""
    data = QueryDict(mutable=True)
    data.update({"number": "1", "taker": str(taker.pk), "points": points, "defence_points": "on"})
    for key, value in (extra or {}).items():
        if isinstance(value, list):
            data.setlist(key, value)
        else:
            data[key] = value
    return data


@pytest.mark.parametrize("case", ["blank", "errors", "correction"])
@pytest.mark.parametrize(
    ("variant", "seats", "five_players"),
    [("fft", 4, None), ("classic", 4, None), ("classic", 5, "called_king"), ("buraco", 4, None)],
)
def test_the_tags_draw_what_djangos_templates_draw(
    club: Club,
    organiser: User,
    players: list[Player],
    nasty: Player,
    case: str,
    variant: str,
    seats: int,
    five_players: str | None,
) -> None:
    table = [nasty, *players][:seats]
    kw = {"five_players": five_players} if five_players else {}
    game = new_game(club, organiser, table, variant, **kw)
    a, b, c = (p.pk for p in table[:3])
    if case == "blank":
        form = deal_form(game)
    elif case == "errors":
        data = tarot_data(table[1], extra={"petit_au_bout": "defense", "slam": "bogus"})
        data.update({f"handful_{c}": "double", f"side_{a}": "1", "s0_table_points": "x"})
        data.setlist(f"misere_{c}", ["head", "trump"])
        form = deal_form(game, data)
        assert form.errors
    else:
        payload = {"taker": b, "contract": "garde_sans", "points": 40.5, "oudlers": 3}
        payload |= {"handfuls": [{"player": a, "size": "triple"}], "slam": "defense"}
        payload |= {"miseres": [{"player": c, "kind": "head"}], "partner": c}
        form = deal_form(game, payload=payload if game.kind == "tarot" else None)

    with translation.override("en"):
        chips = chip_fields(form)
        assert len(chips) >= 4
        for bound in chips:
            for small in (False, True):
                assert render(TAG_CHIPS, field=bound, small=small) == render(
                    DJANGO_CHIPS, field=bound, small=small
                ), bound.name
        inputs = [form[n] for n, f in form.fields.items() if isinstance(f.widget, Input)]
        assert len(inputs) >= 3
        for bound in inputs:
            assert render(TAG_INPUT, field=bound) == render(DJANGO_INPUT, field=bound), bound.name


def test_a_bound_forms_chips_keep_names_values_ids_and_checks(
    club: Club, organiser: User, four: list[Player]
) -> None:
    a, b, c, d = (p.pk for p in four)
    game = new_game(club, organiser, four, "classic")
    form = deal_form(game, tarot_data(four[1], extra={f"misere_{c}": ["head", "trump"]}))

    with translation.override("en"):
        taker = render(TAG_CHIPS, field=form["taker"], small=False)
        contract = render(TAG_CHIPS, field=form["contract"], small=False)
        petit = render(TAG_CHIPS, field=form["petit_au_bout"], small=False)
        misere = render(TAG_CHIPS, field=form[f"misere_{c}"], small=True)

    assert taker == (
        f'<label class="chip" for="id_taker_0"><input type="radio" name="taker" value="{a}"'
        ' id="id_taker_0" required><span>Aurélie</span></label>'
        f'<label class="chip" for="id_taker_1"><input type="radio" name="taker" value="{b}"'
        ' id="id_taker_1" required checked><span>Bruno</span></label>'
        f'<label class="chip" for="id_taker_2"><input type="radio" name="taker" value="{c}"'
        f' id="id_taker_2" required><span>{NASTY_HTML}</span></label>'
        f'<label class="chip" for="id_taker_3"><input type="radio" name="taker" value="{d}"'
        ' id="id_taker_3" required><span>Denis</span></label>'
    )
    # No contract was given: every chip says so, none is checked.
    assert contract.count('required aria-invalid="true">') == 4
    assert "checked" not in contract
    assert contract.startswith(
        '<label class="chip" for="id_contract_0"><input type="radio" name="contract"'
        ' value="prise" id="id_contract_0" required aria-invalid="true"><span>Prise</span></label>'
    )
    # Optional questions: no ``required``; nothing sent reads as the "none" chip.
    assert "required" not in petit
    assert petit.startswith(
        '<label class="chip" for="id_petit_au_bout_0"><input type="radio" name="petit_au_bout"'
        ' value="" id="id_petit_au_bout_0" checked><span>None</span></label>'
    )
    # Misères are checkboxes, several may be ticked, and none is ever ``required``.
    assert misere == (
        f'<label class="chip chip-small" for="id_misere_{c}_0"><input type="checkbox"'
        f' name="misere_{c}" value="head" id="id_misere_{c}_0" checked>'
        "<span>Head (no face card)</span></label>"
        f'<label class="chip chip-small" for="id_misere_{c}_1"><input type="checkbox"'
        f' name="misere_{c}" value="trump" id="id_misere_{c}_1" checked>'
        "<span>Trump (no trump)</span></label>"
    )


def test_the_small_chips_of_handfuls_misères_and_sides(
    club: Club, organiser: User, four: list[Player]
) -> None:
    tarot = render_to_string(
        "tarot_scores/game/_deal_form.html", page(new_game(club, organiser, four, "classic"))
    )
    buraco = render_to_string(
        "tarot_scores/game/_deal_form.html", page(new_game(club, organiser, four, "buraco"))
    )

    for player in four:
        assert f'<label class="chip chip-small" for="id_handful_{player.pk}_0">' in tarot
        assert f'<label class="chip chip-small" for="id_misere_{player.pk}_1">' in tarot
        assert f'<label class="chip chip-small" for="id_side_{player.pk}_1">' in buraco
    assert '<label class="chip" for="id_taker_0">' in tarot
    assert '<label class="chip" for="id_slam_4">' in tarot
    assert tarot.count('class="chip chip-small"') == 4 * 4 + 4 * 2
    assert buraco.count('class="chip chip-small"') == 4 * 2


def page(game: Game, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    form = deal_form(game, data)
    return {
        "form": form,
        "slots": form.slot_errors(),
        "post_url": "/deal",
        "preview_url": "/preview",
        "htmx_save": True,
        "dealer_label": "Aurélie",
        "sitting_label": "",
        "submit_label": "Save",
        "preview": {"incomplete": True},
    }


def test_a_player_name_with_markup_is_escaped_everywhere(
    club: Club, organiser: User, four: list[Player]
) -> None:
    c = four[2].pk
    game = new_game(club, organiser, four, "classic")
    html = render_to_string(
        "tarot_scores/game/_deal_form.html",
        page(game, tarot_data(four[2], extra={f"handful_{c}": "simple", f"misere_{c}": ["head"]})),
    )

    assert "<script" not in html
    assert "O'Neil" not in html and 'alert("x")' not in html
    # The taker chip, the handful line and the misère line each name the player once.
    assert html.count(f"<span>{NASTY_HTML}</span>") == 1
    assert html.count(f'<span class="chip-line-label">{NASTY_HTML}</span>') == 2
    assert f'name="taker" value="{c}" id="id_taker_2" required checked>' in html


def test_typed_points_come_back_escaped_with_their_error(
    club: Club, organiser: User, four: list[Player]
) -> None:
    game = new_game(club, organiser, four, "fft")
    form = deal_form(game, tarot_data(four[0], points='4"><b>1'))

    # Described by the page's message box for the points (not Django's own error list, which
    # the entry form does not draw).
    assert render(TAG_INPUT, field=form["points"]) == (
        '<input type="text" name="points" value="4&quot;&gt;&lt;b&gt;1" inputmode="decimal"'
        ' autocomplete="off" size="5" aria-describedby="deal-err-points" maxlength="8" required'
        ' aria-invalid="true" id="id_points">'
    )
    assert render(TAG_INPUT, field=form["defence_points"]) == (
        '<input type="checkbox" name="defence_points" id="id_defence_points" checked>'
    )
    assert render(TAG_INPUT, field=form["number"]) == (
        '<input type="hidden" name="number" value="1" id="id_number">'
    )


def test_a_select_is_left_to_djangos_template(
    club: Club, organiser: User, four: list[Player]
) -> None:
    game = new_game(club, organiser, four, "novatarok")
    form = deal_form(game)

    drawn = render(TAG_INPUT, field=form["kings"])
    assert drawn.startswith('<select name="kings" id="id_kings">')
    assert drawn == render(DJANGO_INPUT, field=form["kings"])


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("variant", "seats"), [("classic", 5), ("buraco", 4)])
def test_every_chip_reads_in_sentence_case_and_names_as_typed(
    club: Club, organiser: User, players: list[Player], language: str, variant: str, seats: int
) -> None:
    lower = club_services.player_create(club=club, name="van Dijk")
    table = [lower, *players][:seats]
    kw = {"five_players": "called_king"} if seats == 5 else {}
    form = deal_form(new_game(club, organiser, table, variant, **kw))
    names = {p.label for p in table}
    with translation.override(language):
        fields = [form[n] for n, f in form.fields.items() if isinstance(f.widget, forms.Widget)]
        html = "".join(
            render(TAG_CHIPS, field=bound, small=False)
            for bound in fields
            if isinstance(bound.field.widget, forms.RadioSelect | forms.CheckboxSelectMultiple)
        )
    labels = [label for label in re.findall(r"<span>([^<]*)</span>", html)]
    assert len(labels) >= 8
    words = [label for label in labels if label not in names]
    assert words and all(label[0] == label[0].upper() for label in words), words
    if variant == "classic":
        assert "van Dijk" in labels  # the taker's chip: a name as the club typed it
        for expected in ["Attack", "Single", "None"] if language == "en" else ["Attaque"]:
            assert expected in labels
