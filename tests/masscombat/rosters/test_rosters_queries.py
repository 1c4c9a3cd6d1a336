"""The army and campaign pages cost the same number of queries with 10 units or 200, 2 armies or 20."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from masscombat.rosters import services

pytestmark = pytest.mark.django_db


def _heros_army(units: int) -> dict:
    """A HÉROS army list of ``units`` spearmen in one corps (the army sheet takes any number)."""
    return {
        "side_id": "blue",
        "corps": [{"id": "c1", "kind": "cinc", "general_id": "g1"}],
        "units": [{"id": f"u{n}", "name": f"Lances {n}", "corps_id": "c1", "troop_type": "Sp", "factor_vs_foot": 4,
                   "factor_vs_mounted": 4, "move": 3} for n in range(units)],
        "characters": [{"id": "g1", "corps_id": "c1", "role": "cinc"}],
    }


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("path", ["", "edit/"])
def test_army_page_queries_do_not_grow_with_units(campaign_for, gm, client_for, path, django_assert_num_queries):
    campaign = campaign_for("heros")
    small = services.create_army(campaign, name="Small", user=gm, data=_heros_army(10))
    big = services.create_army(campaign, name="Big", user=gm, data=_heros_army(200))
    for n in range(5):  # a longer history must not cost more either
        big = services.update_army(big, big.data, user=gm, expected_version=big.version)
    client = client_for(gm)
    expected = _queries(client, f"{small.get_absolute_url()}{path}")
    with django_assert_num_queries(expected):
        response = client.get(f"{big.get_absolute_url()}{path}")
    assert b"Lances 199" in response.content


def test_campaign_page_queries_do_not_grow_with_the_roster(campaign_for, gm, player, client_for,
                                                           django_assert_num_queries):
    small, big = campaign_for("heros"), campaign_for("heros")
    for campaign, armies in ((small, 2), (big, 20)):
        for n in range(armies):
            services.create_army(campaign, name=f"Army {n}", user=gm, data=_heros_army(200 if armies > 2 else 10),
                                 commander=player)
            services.create_hero(campaign, name=f"Hero {n}", user=gm, owner=player)
    for user in (gm, player):
        client = client_for(user)
        expected = _queries(client, small.get_absolute_url())
        with django_assert_num_queries(expected):
            response = client.get(big.get_absolute_url())
        assert b"Army 19" in response.content and b"200 units" in response.content
