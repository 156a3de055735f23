"""House rules: organisers write a preset's changes, checked by the scoring engine, whose refusals
show beside the fields; everyone who may read the club reads the rule sets."""

from __future__ import annotations

from dataclasses import fields

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tarot_scores import scoring
from tarot_scores.clubs.forms import HouseRulesForm, rule_parameters
from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.games import services
from tests.clubs.helpers import field_errors, rules_post_data

pytestmark = pytest.mark.django_db


def rules_url(club: Club, house_rules: HouseRules | None = None) -> str:
    if house_rules is None:
        return reverse("clubs:rules", args=[club.slug])
    return reverse("clubs:rules", args=[club.slug, house_rules.pk])


def test_the_form_has_every_rule_set_parameter() -> None:
    parameters = {f.name for f in fields(scoring.RuleSet)} - {"name"}
    assert set(rule_parameters()) == parameters
    assert parameters <= set(HouseRulesForm.base_fields)
    grouped = {name for _legend, names in HouseRulesForm.GROUPS for name in names}
    assert grouped == set(HouseRulesForm.base_fields)


def test_new_rule_set_form_is_prefilled_from_fft(
    client: Client, club: Club, organiser: User
) -> None:
    client.force_login(organiser)
    page = client.get(rules_url(club)).content.decode()
    assert 'name="coefficient_garde_contre" value="6"' in page
    assert 'name="handful_trumps_4_0" value="10"' in page
    assert '<option value="winner" selected>' in page


def test_another_preset_fills_its_own_values(client: Client, club: Club, organiser: User) -> None:
    client.force_login(organiser)
    page = client.get(rules_url(club), {"based_on": "classic", "name": "Du jeudi"})
    html = page.content.decode()
    assert '<option value="declarer" selected>' in html
    assert 'name="handful_trumps_3_0" value="12"' in html
    assert 'name="miseres_allowed" id="id_miseres_allowed" checked' in html
    assert 'value="Du jeudi"' in html


def test_create_keeps_only_the_changes(client: Client, club: Club, organiser: User) -> None:
    client.force_login(organiser)
    data = rules_post_data(
        "Du jeudi",
        coefficient_garde=3,
        petit_au_bout_multiplied=False,
        margin_rounding="10",
        handful_trumps_4=[9, 12, 15],
    )
    response = client.post(rules_url(club), data)

    house_rules = HouseRules.objects.get(club=club)
    assert response.status_code == 302
    assert response["Location"] == rules_url(club, house_rules)
    assert house_rules.name == "Du jeudi" and house_rules.based_on == "fft"
    assert house_rules.parameters == {
        "coefficient_garde": 3,
        "petit_au_bout_multiplied": False,
        "margin_rounding": "10",
        "handful_trumps_4": [9, 12, 15],
    }
    rules = house_rules.rule_set()
    assert rules.coefficient_garde == 3
    assert rules.margin_rounding is scoring.MarginRounding.TEN


def test_based_on_classic_stores_the_differences_from_classic(
    client: Client, club: Club, organiser: User
) -> None:
    client.force_login(organiser)
    client.post(rules_url(club), rules_post_data("Misères à 20", "classic", misere=20))
    house_rules = HouseRules.objects.get(club=club)
    assert house_rules.parameters == {"misere": 20}
    assert house_rules.rule_set().handful_beneficiary is scoring.Beneficiary.DECLARER


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Simple < double < triple, et au plus 18 atouts."),
        ("en", "Simple < double < triple, and at most 18 trumps."),
    ],
)
def test_engine_refusals_show_beside_the_field(
    client: Client, club: Club, organiser: User, language: str, message: str
) -> None:
    client.force_login(organiser)
    data = rules_post_data("Bizarre", handful_trumps_4=[13, 12, 15])
    response = client.post(rules_url(club), data, HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 400
    assert field_errors(response.content.decode(), "id_handful_trumps_4") == [message]
    assert not HouseRules.objects.exists()


@pytest.mark.parametrize(
    ("language", "message"),
    [("fr", "Un nombre de 1 à 10000."), ("en", "A number from 1 to 10000.")],
)
def test_coefficient_zero_is_refused_by_the_engine(
    client: Client, club: Club, organiser: User, language: str, message: str
) -> None:
    client.force_login(organiser)
    data = rules_post_data("Zéro", coefficient_prise=0)
    response = client.post(rules_url(club), data, HTTP_ACCEPT_LANGUAGE=language)
    assert field_errors(response.content.decode(), "id_coefficient_prise") == [message]


@pytest.mark.parametrize(
    ("language", "message"),
    [("fr", "Saisissez un nombre entier."), ("en", "Enter a whole number.")],
)
def test_not_a_number_is_refused(
    client: Client, club: Club, organiser: User, language: str, message: str
) -> None:
    client.force_login(organiser)
    data = {**rules_post_data("Texte"), "slam_defense": "beaucoup"}
    response = client.post(rules_url(club), data, HTTP_ACCEPT_LANGUAGE=language)
    assert field_errors(response.content.decode(), "id_slam_defense") == [message]


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Le club a déjà des règles de ce nom."),
        ("en", "The club already has a rule set with this name."),
    ],
)
@pytest.mark.parametrize(("kept", "typed"), [("Du jeudi", "du JEUDI"), ("Été", "ÉTÉ")])
def test_names_are_unique_in_a_club(
    client: Client, club: Club, organiser: User, language: str, message: str, kept: str, typed: str
) -> None:
    HouseRules.objects.create(club=club, name=kept)
    client.force_login(organiser)
    data = rules_post_data(typed)
    response = client.post(rules_url(club), data, HTTP_ACCEPT_LANGUAGE=language)
    assert field_errors(response.content.decode(), "id_name") == [message]
    assert HouseRules.objects.filter(club=club).count() == 1


def test_edit_changes_the_rule_set_but_not_games_already_begun(
    client: Client, club: Club, organiser: User, players: list[Player]
) -> None:
    house_rules = HouseRules.objects.create(
        club=club, name="Du jeudi", parameters={"coefficient_garde": 3}
    )
    game = services.game_create(
        club=club, players=players[:4], variant="fft", house_rules=house_rules, by=organiser
    )
    client.force_login(organiser)

    page = client.get(rules_url(club, house_rules)).content.decode()
    assert 'name="coefficient_garde" value="3"' in page
    response = client.post(
        rules_url(club, house_rules), rules_post_data("Du jeudi", coefficient_garde=4)
    )

    assert response.status_code == 302
    house_rules.refresh_from_db()
    assert house_rules.parameters == {"coefficient_garde": 4}
    game.refresh_from_db()
    assert game.rules["coefficient_garde"] == 3


def test_members_read_rule_sets_without_a_form(client: Client, club: Club, member: User) -> None:
    house_rules = HouseRules.objects.create(
        club=club, name="Du jeudi", parameters={"misere": 20, "miseres_allowed": True}
    )
    client.force_login(member)
    listing = client.get(rules_url(club), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Du jeudi" in listing
    assert "Misère value" in listing and "20" in listing
    assert '<form method="post"' not in listing.split("</header>")[1]

    detail = client.get(rules_url(club, house_rules), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Coefficient: Garde contre" in detail
    assert 'name="coefficient_garde"' not in detail


def test_anonymous_reads_a_public_clubs_rules(client: Client, club: Club) -> None:
    HouseRules.objects.create(club=club, name="Du jeudi")
    page = client.get(rules_url(club)).content.decode()
    assert "Du jeudi" in page


def test_a_rule_set_names_its_preset_in_words(client: Client, club: Club, member: User) -> None:
    HouseRules.objects.create(club=club, name="Du jeudi", based_on="classic")
    client.force_login(member)
    english = client.get(rules_url(club), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    french = client.get(rules_url(club), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Based on: Classic rules." in english
    assert "D'après : Règles classiques." in french
