"""The calculator page: a form that works without JavaScript, and htmx's live result partial."""

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

URL = "/calculator/"
HTMX = {"HX-Request": "true"}

GARDE = {
    "players": "4",
    "variant": "fft",
    "player_1": "Aurélie",
    "player_2": "Bruno",
    "player_3": "Chloé",
    "player_4": "Denis",
    "taker": "3",
    "contract": "garde",
    "points": "49",
    "oudlers": "2",
    "petit_au_bout": "attack",
    "handful_3": "simple",
    "slam": "",
}


def errors_beside(html: str, field: str) -> list[str]:
    """The messages in a field's own box (the one its aria-describedby names)."""
    box = re.search(rf'<div class="field-errors" id="errors-{field}"[^>]*>(.*?)</div>', html, re.S)
    assert box, f"no message box for {field}"
    return re.findall(r"<li>(.*?)</li>", box.group(1), re.S)


def scores_in(html: str) -> dict[str, str]:
    lines = re.findall(
        r'<span class="score-name">\s*([^<]+?)\s*(?:<span class="score-role">[^<]*</span>)?\s*'
        r'</span>\s*<span class="score-points">([^<]+)</span>',
        html,
    )
    return dict(lines)


def page(client: Client, data: dict[str, Any] | None = None, **kwargs: Any) -> str:
    response = client.post(URL, data, **kwargs) if data is not None else client.get(URL, **kwargs)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_url_is_named_and_linked_from_home(client: Client) -> None:
    assert reverse("calculator") == URL
    assert f'<a href="{URL}">' in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_get_shows_a_labelled_form_for_four_players(
    client: Client, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_max_num_queries(2):
        html = page(client)

    assert "<h1>Calculateur de score</h1>" in html
    for field in ["player_1", "player_4", "taker", "points", "slam", "handful_1"]:
        assert f'<label for="id_{field}"' in html, field
    assert 'name="player_5"' not in html
    assert 'value="Joueur 1"' in html
    for legend in ["Règles", "Joueurs", "Contrat", "Points", "Primes", "Poignées"]:
        assert f"<legend>{legend}</legend>" in html
    assert 'inputmode="decimal"' in html
    assert 'role="switch"' in html
    assert '<button type="submit" class="btn btn-primary">Calculer les scores</button>' in html
    assert 'hx-post="/calculator/"' in html
    assert 'hx-trigger="input changed delay:300ms, change"' in html
    assert "Les scores s'affichent ici" in html


def test_the_labels_follow_the_language(client: Client) -> None:
    html = page(client, headers={"accept-language": "en"})

    assert '<label for="id_taker">Taker (preneur)</label>' in html
    assert 'value="Player 1"' in html
    assert "Guard without (garde sans)" in html


@pytest.mark.parametrize(("asked", "names"), [("3", 3), ("5", 5), ("9", 4), ("x", 4)])
def test_the_number_of_players_comes_from_the_query(client: Client, asked: str, names: int) -> None:
    html = page(client, data=None, QUERY_STRING=f"players={asked}")

    assert len(re.findall(r'name="player_\d"', html)) == names
    assert f'<input type="hidden" name="players" value="{names}">' in html
    assert ('name="partner"' in html) is (names == 5)
    assert ('name="sitting_out"' in html) is (names == 5)
    assert f'href="?players={names}&amp;variant=fft"\n               aria-current="page"' in html


@pytest.mark.django_db
def test_a_plain_post_answers_the_whole_page_with_the_scores(
    client: Client, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_max_num_queries(2):
        html = page(client, GARDE)

    assert "<html" in html and "<form" in html
    assert scores_in(html) == {"Aurélie": "-106", "Bruno": "-106", "Chloé": "+318", "Denis": "-106"}
    assert "Contrat réussi de 8 points." in html
    assert "Chloé (preneur) : 3 × 106 = 318." in html
    # The form keeps what was entered.
    assert 'value="Chloé"' in html
    assert '<option value="3" selected>Chloé</option>' in html


def test_scores_are_shown_with_a_sign_and_a_word_not_colour_alone(client: Client) -> None:
    html = page(client, GARDE, headers={"accept-language": "en"})

    assert re.search(r'score-points">\+318</span>\s*<span class="score-word">wins', html)
    assert re.search(r'score-points">-106</span>\s*<span class="score-word">pays', html)


def test_an_htmx_post_answers_only_the_result_partial(client: Client) -> None:
    response = client.post(URL, GARDE, headers=HTMX)
    html = response.content.decode()

    assert "<html" not in html and "<form" not in html
    assert scores_in(html)["Chloé"] == "+318"
    # Every field's message box comes along, out of band, emptied.
    assert '<div class="field-errors" id="errors-points" hx-swap-oob="true"></div>' in html
    assert "HX-Request" in response["Vary"]


def test_an_impossible_deal_puts_the_engines_message_beside_points(client: Client) -> None:
    data = {**GARDE, "points": "40,5", "petit_au_bout": "", "handful_3": ""}

    html = page(client, data, headers={"accept-language": "en"})

    assert errors_beside(html, "points") == [
        "At four players the attack&#x27;s points are always whole: "
        "each side holds an even number of cards."
    ]
    assert re.search(r'<input[^>]*name="points"[^>]*aria-invalid="true"', html)
    assert scores_in(html) == {}
    assert "This deal cannot be scored" in html


def test_live_errors_come_out_of_band_beside_the_field(client: Client) -> None:
    data = {**GARDE, "points": "40,5", "petit_au_bout": "", "handful_3": ""}

    html = page(client, data, headers=HTMX)

    assert 'id="errors-points" hx-swap-oob="true"><ul class="errorlist">' in html
    assert errors_beside(html, "points")[0].startswith("À quatre joueurs")


def test_a_french_decimal_comma_is_read(client: Client) -> None:
    data = {
        "players": "3",
        "variant": "fft",
        "player_1": "A",
        "player_2": "B",
        "player_3": "C",
        "taker": "1",
        "contract": "garde",
        "points": " 40,5 ",
        "oudlers": "2",
    }

    html = page(client, data)

    assert scores_in(html) == {"A": "-104", "B": "+52", "C": "+52"}
    assert "l&#x27;attaque en a 40,5 : chuté de 1." in html


@pytest.mark.parametrize("points", ["quarante", "NaN", "1e3", "-4", "4O", "40,5,5", ""])
def test_points_that_are_not_a_number_are_refused_by_the_form(client: Client, points: str) -> None:
    html = page(client, {**GARDE, "points": points}, headers={"accept-language": "en"})

    assert errors_beside(html, "points") in (
        ["Enter a number of points, for example 41 or 40.5."],
        ["This field is required."],
    )


def test_points_over_91_are_refused_by_the_form(client: Client) -> None:
    html = page(client, {**GARDE, "points": "92"}, headers={"accept-language": "en"})

    assert errors_beside(html, "points") == ["Points range from 0 to 91."]


def test_the_defence_points_switch_counts_91_minus_them(client: Client) -> None:
    html = page(client, {**GARDE, "points": "42", "defence_points": "on"})

    assert scores_in(html)["Chloé"] == "+318"
    assert "l&#x27;attaque en a 49" in html


def test_five_players_with_a_called_partner(client: Client) -> None:
    data = {
        "players": "5",
        "variant": "fft",
        **{f"player_{seat}": name for seat, name in enumerate("ABCDE", start=1)},
        "taker": "2",
        "partner": "4",
        "sitting_out": "",
        "contract": "prise",
        "points": "38",
        "oudlers": "3",
    }

    html = page(client, data, headers={"accept-language": "en"})

    assert scores_in(html) == {"A": "-27", "B": "+54", "C": "-27", "D": "+27", "E": "-27"}
    assert '<span class="score-role">partner</span>' in html


def test_five_players_with_one_sitting_out(client: Client) -> None:
    data = {
        "players": "5",
        "variant": "fft",
        **{f"player_{seat}": name for seat, name in enumerate("ABCDE", start=1)},
        "taker": "1",
        "partner": "",
        "sitting_out": "5",
        "contract": "garde",
        "points": "41",
        "oudlers": "2",
    }

    html = page(client, data, headers={"accept-language": "en"})

    assert scores_in(html) == {"A": "+150", "B": "-50", "C": "-50", "D": "-50", "E": "0"}
    assert '<span class="score-role">sits out</span>' in html


def test_a_plain_post_with_empty_fields_flags_each_of_them(client: Client) -> None:
    html = page(client, {"players": "4"}, headers={"accept-language": "en"})

    for field in ["taker", "contract", "points", "oudlers", "player_1"]:
        assert errors_beside(html, field) == ["This field is required."], field


def test_while_typing_empty_fields_are_listed_not_flagged(client: Client) -> None:
    data = {**GARDE, "contract": "", "oudlers": ""}
    del data["oudlers"]

    html = page(client, data, headers={**HTMX, "accept-language": "en"})

    assert "Still to fill in: Contract, Bouts of the attack (oudlers)" in html
    assert errors_beside(html, "contract") == []


def test_a_repeated_name_is_flagged_on_its_second_seat(client: Client) -> None:
    html = page(client, {**GARDE, "player_4": "bruno"}, headers={"accept-language": "en"})

    assert errors_beside(html, "player_4") == ["The name “bruno” appears twice."]
    assert errors_beside(html, "player_2") == []


def test_the_taker_cannot_sit_out(client: Client) -> None:
    data = {
        "players": "5",
        "variant": "fft",
        **{f"player_{seat}": name for seat, name in enumerate("ABCDE", start=1)},
        "taker": "5",
        "sitting_out": "5",
        "contract": "garde",
        "points": "41",
        "oudlers": "2",
    }

    html = page(client, data, headers={"accept-language": "en"})

    assert errors_beside(html, "taker") == [
        "“E” sits this deal out and can neither play nor declare anything."
    ]


def test_misères_count_only_with_the_classic_rules(client: Client) -> None:
    data = {**GARDE, "petit_au_bout": "", "handful_3": "", "misere_2": ["head"]}

    fft = page(client, data)
    classic = page(client, {**data, "variant": "classic"})

    # The result box (it comes before the form, which names misères in its legends).
    assert "Misère" not in fft.split('id="result"')[1].split("</section>")[0]
    assert "Misère de tête de Bruno, pour la défense : -10." in classic


def test_handfuls_that_show_too_many_trumps_are_flagged_on_a_handful(client: Client) -> None:
    data = {**GARDE, "handful_1": "triple", "handful_2": "triple", "handful_3": ""}

    html = page(client, data, headers={"accept-language": "en"})

    assert errors_beside(html, "handful_2") == [
        "These handfuls show 30 trumps; the pack has only 22 (Excuse included)."
    ]


def test_other_methods_are_refused(client: Client) -> None:
    assert client.put(URL).status_code == 405
