"""``Refusal``: one field -> [(code, message)] mapping, put on forms and API answers as is."""

from __future__ import annotations

from django import forms

from tarot_scores.core.errors import WHOLE, Code, Reason, Refusal
from tarot_scores.games.services import DealConflict, GameClosed
from tarot_scores.games.setup import GameSetupError


class NameForm(forms.Form):
    name = forms.CharField()
    seat_1 = forms.CharField(required=False)


def test_a_refusal_keeps_codes_and_messages_by_field() -> None:
    refusal = Refusal(
        {
            "name": [Reason(Code.CLUB_NAME_TAKEN, "Taken.")],
            "players": [Reason(Code.TABLE_SIZE, "Two."), Reason(Code.SEATED_TWICE, "Twice.")],
            "empty": [],
        }
    )

    assert refusal.codes() == {
        "name": ["club_name_taken"],
        "players": ["table_size", "seated_twice"],
    }
    assert refusal.messages() == {"name": ["Taken."], "players": ["Two.", "Twice."]}
    assert str(refusal) == "Taken. Two. Twice."


def test_a_form_shows_each_reason_beside_its_field() -> None:
    form = NameForm({"name": "Lyon"})
    assert form.is_valid()
    refusal = Refusal(
        {
            "name": [Reason(Code.CLUB_NAME_TAKEN, "Taken.")],
            "players": [Reason(Code.SEATED_TWICE, "Twice.")],
            WHOLE: [Reason(Code.GAME_FINISHED, "Finished.")],
        }
    )

    refusal.add_to_form(form, {"players": "seat_1"})

    assert form.errors.as_data()["name"][0].code == "club_name_taken"
    assert form.errors == {
        "name": ["Taken."],
        "seat_1": ["Twice."],
        "__all__": ["Finished."],  # a field the form does not have goes above it
    }


def test_the_site_refusals_are_refusals() -> None:
    for kind in (GameSetupError, GameClosed, DealConflict):
        assert issubclass(kind, Refusal)
    closed = GameClosed(Code.GAME_FINISHED, "Finished.")
    assert closed.codes() == {WHOLE: ["game_finished"]} and str(closed) == "Finished."
