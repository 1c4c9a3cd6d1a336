"""The GM's placement cell is read with ASCII digits only: "²,1" is a typo answered 400, never a 500.

``"²".isdigit()`` is true in Python, yet ``int("²")`` raises: a check with
``isdigit`` alone let such a cell through to ``int`` and the request failed.
"""

import pytest
from django.urls import reverse

from masscombat.battles.forms import PlacementForm
from tests.masscombat.battles.test_battles_room_map import FIRST, ford, other_side, position  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
NOT_ASCII_DIGITS = ["²,1", "1,³", "١,٢", "３,4", "𝟙,2"]  # superscripts, Arabic-Indic, full-width, mathematical


@pytest.mark.parametrize("text", NOT_ASCII_DIGITS)
@pytest.mark.parametrize("kind", ["square", "hex"])
def test_the_placement_form_refuses_digits_that_are_not_ascii(text, kind):
    form = PlacementForm({"piece": "p1", "cell": text}, pieces=[{"id": "p1"}], kind=kind)
    assert not form.is_valid()
    assert "two numbers" in " ".join(form.errors["cell"])


@pytest.mark.parametrize("text", NOT_ASCII_DIGITS)
def test_the_place_view_answers_the_forms_message_not_a_500(ford, client_for, gm, text):
    client, start, url = client_for(gm), position(ford), reverse("battles:place", args=[ford.pk])
    plain = client.post(url, {"piece": FIRST, "cell": text, "version": ford.version})
    assert plain.status_code == 400 and "two numbers" in plain.content.decode()
    htmx = client.post(url, {"piece": FIRST, "cell": text, "version": ford.version}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200 and "two numbers" in htmx.content.decode()
    assert position(ford) == start
