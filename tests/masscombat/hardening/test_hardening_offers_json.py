"""Issue #16, finding 8: deeply nested JSON in the 7th Sea GM's offer fields is a field error, never a 500.

Those fields are decoded twice: for the engine's draft, which tailors the
forms to the offer (masscombat/games/seventh_sea/offers.py), and by the form
itself.  The draft's reading used Python's recursive decoder, so a deep
document raised RecursionError before the form could refuse it.
"""

import re

import pytest
from django.urls import reverse

from masscombat.battles.models import Battle
from tests.masscombat.battles.conftest import (  # noqa: F401
    battle,
    other_player,
    sea_campaign,
    sea_rosters,
)
from tests.masscombat.battles.test_battles_seventh_sea import offered  # noqa: F401

pytestmark = pytest.mark.django_db

DEEP = "[" * 50_000 + "]" * 50_000


def field_refused(answer, field: str) -> bool:
    """The form came back (as for any refused value) with its error under ``field``."""
    page = answer.content.decode()
    return answer.status_code == 200 and re.search(rf'<ul class="errorlist" id="id_[^"]*-{re.escape(field)}_error"',
                                                    page) is not None


@pytest.mark.parametrize("field", ["heroes.lucie.opportunity.type", "heroes.lucie.opportunity.tn"])
def test_deep_json_in_the_gms_offer_is_a_field_error(offered, client_for, gm, field):  # noqa: F811
    data = {"participant": "gm", "round": Battle.objects.get(pk=offered.pk).current_round,
            "heroes.lucie.opportunity.type": '"easy_shot"', field: DEEP}
    answer = client_for(gm).post(reverse("battles:declare", args=[offered.pk]), data, HTTP_HX_REQUEST="true")
    assert field_refused(answer, field)
    assert not offered.declarations.filter(participant="gm", round=2).exists()  # nothing half-written


def test_deep_json_in_the_heros_answer_is_a_field_error(offered, client_for, gm, player):  # noqa: F811
    from tests.masscombat.battles.test_battles_seventh_sea import _offer

    _offer(client_for(gm), offered, "easy_shot")
    data = {"participant": "hero:lucie", "round": 2, "heroes.lucie.opportunity.accept": DEEP}
    answer = client_for(player).post(reverse("battles:declare", args=[offered.pk]), data, HTTP_HX_REQUEST="true")
    assert field_refused(answer, "heroes.lucie.opportunity.accept")
    assert not offered.declarations.filter(participant="hero:lucie", round=2).exists()
